//! `tessera analyze azul-endgame --position TEXT`: the exact value of every move of a
//! two-player position in the game's last round.
//!
//! Once a full pattern line completes a wall row the round is certainly the game's last and
//! nothing is hidden or random, so the rest of the game can be solved exactly: alpha-beta to
//! the game's end, won games above drawn ones above lost ones, then the final margin (the
//! solver `oracle:endgame` uses). Each legal move is solved within `--time`; the table lists
//! them best first with the result and the final margin for the player to move.

use std::time::Duration;

use anyhow::{Result, bail};
use tessera_azul::AzulState;
use tessera_core::{Budget, Game, PlayerId};
use tessera_house::registry::azul_endgame::{WIN, last_round_certain, solver, value_for};
use tessera_search::adversarial::Value;

use super::analyze_search::parse_time;

/// Arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position in the game's notation (docs/notation.md), a two-player draft.
    #[arg(long, value_parser = parse_position)]
    pub position: AzulState,
    /// Time to solve each move, e.g. 10s or 500ms.
    #[arg(long, default_value = "10s", value_parser = parse_time)]
    pub time: Duration,
}

/// `--position`: a two-player position where a player is to move.
fn parse_position(text: &str) -> Result<AzulState, String> {
    let s: AzulState = text.parse().map_err(|e| {
        format!("expected an Azul position in the game's notation (docs/notation.md): {e}")
    })?;
    if s.num_players() != 2 {
        return Err(format!(
            "expected a two-player position, this one has {} players",
            s.num_players()
        ));
    }
    if s.current_player().is_none() {
        return Err(
            "expected a position where a player is to move (a draft), not a deal or a finished game"
                .into(),
        );
    }
    Ok(s)
}

/// A solved value read back: the result for the mover and the final margin in points.
fn describe(v: Value) -> (&'static str, f64) {
    let (result, rest) = if v >= WIN {
        ("win", v - WIN)
    } else if v <= -WIN {
        ("loss", v + WIN)
    } else {
        ("draw", v)
    };
    (result, f64::from(rest) / 100.0)
}

/// Runs the subcommand.
pub fn run(args: Args) -> Result<()> {
    let s = args.position;
    let me = s.current_player().unwrap_or(PlayerId(0));
    if !last_round_certain(&s) {
        bail!(
            "--position: the round is not certainly the game's last (no full pattern line completes a wall row), so the rest of the game is not solvable exactly"
        );
    }
    let mut moves = Vec::new();
    s.legal_actions(&mut moves);
    let mut searcher = solver();
    let limits = Budget {
        time: Some(args.time),
        ..Budget::default()
    };
    let mut rows: Vec<(Option<Value>, String)> = moves
        .iter()
        .map(|&a| {
            let mut t = s.clone();
            t.apply(a);
            (value_for(&mut searcher, &t, me, &limits), a.to_string())
        })
        .collect();
    // Best first; unsolved moves last.
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    println!(
        "# The last round solved, player {} to move ({} legal moves)\n",
        me.index() + 1,
        moves.len()
    );
    println!("| move | result | final margin |");
    println!("|---|---|---|");
    for (v, m) in &rows {
        match v {
            Some(v) => {
                let (result, margin) = describe(*v);
                println!("| {m} | {result} | {margin:+} |");
            }
            None => println!("| {m} | not solved within {:?} | |", args.time),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back_as_results_and_margins() {
        assert_eq!(describe(WIN + 300), ("win", 3.0));
        assert_eq!(describe(WIN), ("win", 0.0));
        assert_eq!(describe(-WIN - 1250), ("loss", -12.5));
        assert_eq!(describe(0), ("draw", 0.0));
    }
}
