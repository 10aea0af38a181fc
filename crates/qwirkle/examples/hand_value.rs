//! What knowing the opponent's hand is worth to `sage`: paired two-player games of `sage`
//! against `points`, with `sage` handed the true state and told, according to MODE, nothing
//! (it infers as at a table), the tiles `points` kept after its last move (its fresh draws
//! stay unknown), or its whole hand.
//!
//! ```text
//! cargo run --release -p tessera-qwirkle --example hand_value -- MODE FROM TO NODES
//! ```
//! MODE is `nothing`, `kept` or `hands`; deals FROM..TO (each played twice, seats swapped;
//! the deal's chance from `derive_seed(9301, deal)`, the bots' from `derive_seed(777, 2 x
//! deal + sage's seat)`); NODES the worlds a move. Prints one line a game (deal, sage's
//! seat, its result, sage's score, points' score) and, on stderr, sage's score over the
//! pairs with a 95% interval.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use tessera_core::rng::{derive_seed, seeded};
use tessera_core::{Agent, Budget, Game, PlayerId, Turn};
use tessera_qwirkle::bots::PointsBot;
use tessera_qwirkle::sage::SageBot;
use tessera_qwirkle::seer::Oracle;
use tessera_qwirkle::{Hand, Move, Qwirkle};

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Nothing,
    Kept,
    Hands,
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, from, to, nodes] = args.as_slice() else {
        bail!("usage: hand_value nothing|kept|hands FROM TO NODES");
    };
    let mode = match mode.as_str() {
        "nothing" => Mode::Nothing,
        "kept" => Mode::Kept,
        "hands" => Mode::Hands,
        other => bail!("MODE {other:?}: expected nothing, kept or hands"),
    };
    let number = |name: &str, s: &str| -> Result<u64> {
        s.parse()
            .with_context(|| format!("{name} {s:?}: expected a whole number"))
    };
    let (from, to, nodes) = (
        number("FROM", from)?,
        number("TO", to)?,
        number("NODES", nodes)?,
    );
    if from >= to || nodes == 0 {
        bail!("expected FROM < TO and NODES >= 1");
    }
    let mut pairs = Vec::new();
    for deal in from..to {
        let mut pair = 0.0;
        for sage_seat in 0..2usize {
            let (mine, theirs) = play(deal, sage_seat, mode, nodes)?;
            let r = match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            pair += r / 2.0;
            println!("{deal} {sage_seat} {r} {mine} {theirs}");
        }
        pairs.push(pair);
    }
    let n = pairs.len() as f64;
    let mean = pairs.iter().sum::<f64>() / n;
    let sd = (pairs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let half = 1.96 * sd / n.sqrt();
    eprintln!(
        "{} games ({} pairs): sage {:.1}% [{:.1}, {:.1}]",
        2 * pairs.len(),
        pairs.len(),
        100.0 * mean,
        100.0 * (mean - half),
        100.0 * (mean + half)
    );
    Ok(())
}

/// One game of `deal` with sage in seat `sage_seat`: sage's and points' final scores.
fn play(deal: u64, sage_seat: usize, mode: Mode, nodes: u64) -> Result<(i32, i32)> {
    let mut s = Qwirkle::new(2)?;
    let mut chance = seeded(derive_seed(9301, deal));
    let mut rng = seeded(derive_seed(777, deal * 2 + sage_seat as u64));
    let mut sage = SageBot::new();
    let mut points = PointsBot::new();
    match mode {
        Mode::Nothing => {}
        Mode::Kept => sage.set_oracle(Oracle::Kept(Hand::new())),
        Mode::Hands => sage.set_oracle(Oracle::Hands),
    }
    loop {
        match s.turn() {
            Turn::Terminal => break,
            Turn::Chance => {
                let d = s.sample_chance(&mut chance);
                s.apply_chance(&d)?;
            }
            Turn::Player(p) if p.index() == sage_seat => {
                let m = sage.choose(&s, &Budget::nodes(nodes), &mut rng);
                s.apply(m);
            }
            Turn::Player(p) => {
                let m = points.choose(&s, &Budget::default(), &mut rng);
                if mode == Mode::Kept {
                    // After a trade (or a pass) the oracle holds the whole hand before it.
                    let kept = match m {
                        Move::Place(pl) => s.kept_after(p, &pl),
                        _ => None,
                    };
                    let whole = || s.hand(p).iter().copied().collect::<Hand>();
                    sage.set_oracle(Oracle::Kept(kept.unwrap_or_else(whole)));
                }
                s.apply(m);
            }
        }
    }
    let scores = s.scores();
    let seat = |i: usize| PlayerId::all(2).nth(i).context("two seats");
    Ok((scores[seat(sage_seat)?], scores[seat(1 - sage_seat)?]))
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
