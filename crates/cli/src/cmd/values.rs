//! Typed argument values that clap parses at the edge: a bad value is clap's usage error
//! naming the argument and what it expects, never a later `error:` from deep in a command.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use tessera_arena::report::Format;
use tessera_arena::store::GameId;
use tessera_core::GameInfo;
use tessera_house::games::GameDriver;

/// A game the house has registered (its name, checked against the registrations).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameName(pub &'static str);

impl GameName {
    /// The game's driver.
    pub fn driver(&self) -> anyhow::Result<Box<dyn GameDriver>> {
        Ok(tessera_house::driver(self.0)?)
    }
}

impl std::fmt::Display for GameName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// The names of the registered games.
fn names() -> Vec<&'static str> {
    tessera_house::drivers().iter().map(|d| d.name()).collect()
}

/// A parser of every registered game's name (clap lists them as the possible values).
pub fn game() -> impl TypedValueParser<Value = GameName> {
    let names = names();
    let known = names.clone();
    PossibleValuesParser::new(names).map(move |s: String| {
        // The possible-values check has passed: the name is one of `known`.
        GameName(known.iter().copied().find(|n| *n == s).unwrap_or("?"))
    })
}

/// An output format of a results table: table, csv or json.
pub fn format(text: &str) -> Result<Format, String> {
    text.parse()
}

/// A number of players: a parser of `min` to `max` (a game's registered facts), whose error
/// says `{what} is played by {min} to {max} players`.
fn players_from(
    what: String,
    min: usize,
    max: usize,
) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    move |text: &str| match text.trim().parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{what} is played by {min} to {max} players; expected a whole number from {min} \
             to {max}"
        )),
    }
}

/// The number of players of the game `info` registers (its `min_players` to `max_players`).
pub fn players_of(
    info: &GameInfo,
) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    players_from(info.title.to_string(), info.min_players, info.max_players)
}

/// The number of players of a command whose game is another argument (`tournament GAME`):
/// from the fewest to the most seats of any registered game. The game's own range is
/// checked once its name is known (`RunParams::validate`, from the same registrations).
pub fn players_of_any_game()
-> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    let infos: Vec<GameInfo> = tessera_house::drivers().iter().map(|d| d.info()).collect();
    let min = infos.iter().map(|i| i.min_players).min().unwrap_or(1);
    let max = infos.iter().map(|i| i.max_players).max().unwrap_or(1);
    players_from("every registered game".into(), min, max)
}

/// `export --game`: a stored game as `RUN:INDEX`, or its `INDEX` in a run named elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameRef {
    /// `RUN:INDEX`.
    Id(GameId),
    /// `INDEX` (the run from `--run`, or the file's only run).
    Index(u64),
}

/// Parses `export --game`.
pub fn game_ref(text: &str) -> Result<GameRef, String> {
    let bad = || {
        format!(
            "bad game id '{text}': expected RUN:INDEX or INDEX, for example 1:0 (`tessera \
             games` lists them)"
        )
    };
    if text.contains(':') {
        return text.parse().map(GameRef::Id).map_err(|_| bad());
    }
    text.trim().parse().map(GameRef::Index).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_count_is_in_the_games_range() {
        use tessera_core::Game;
        let azul = players_of(&tessera_azul::AzulState::INFO);
        assert_eq!(azul("3"), Ok(3));
        assert_eq!(azul(" 2 "), Ok(2));
        for bad in ["1", "5", "0", "-2", "two", ""] {
            let e = azul(bad).unwrap_err();
            assert!(e.contains("Azul is played by 2 to 4 players"), "{bad}: {e}");
        }
        let any = players_of_any_game();
        assert_eq!(any("4"), Ok(4));
        let e = any("9").unwrap_err();
        assert!(
            e.contains("every registered game is played by 2 to 4"),
            "{e}"
        );
    }

    #[test]
    fn a_game_ref_is_run_and_index_or_an_index() {
        assert_eq!(
            game_ref("2:7"),
            Ok(GameRef::Id(GameId { run: 2, index: 7 }))
        );
        assert_eq!(game_ref("7"), Ok(GameRef::Index(7)));
        for bad in ["x", "1:x", "0:1", "-1", ""] {
            let e = game_ref(bad).unwrap_err();
            assert!(e.contains("expected RUN:INDEX or INDEX"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_game_name_is_one_of_the_registrations() {
        let cmd = clap::Command::new("t").arg(clap::Arg::new("game").value_parser(game()));
        let m = cmd.clone().try_get_matches_from(["t", "qwirkle"]).unwrap();
        assert_eq!(m.get_one::<GameName>("game"), Some(&GameName("qwirkle")));
        let e = cmd.try_get_matches_from(["t", "chess"]).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("invalid value 'chess'"), "{text}");
        for name in names() {
            assert!(text.contains(name), "{name} missing from {text}");
        }
    }
}
