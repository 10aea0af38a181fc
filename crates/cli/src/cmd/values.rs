//! Typed argument values that clap parses at the edge: a bad value is clap's usage error
//! naming the argument and what it expects, never a later `error:` from deep in a command.

use clap::builder::{PossibleValuesParser, TypedValueParser};
use tessera_arena::report::Format;
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

#[cfg(test)]
mod tests {
    use super::*;

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
