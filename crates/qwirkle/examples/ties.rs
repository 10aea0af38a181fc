//! How often the `points` policy has a choice: in seeded two-player games of `points`
//! against itself, at each turn with a placement, how many placements score the most, and
//! whether they differ in the tiles they leave in the hand. The play-outs of `seer` and
//! `sage` model `points` by the first of them in the generator's order, where `points`
//! itself picks one of them at random.
//!
//! ```text
//! cargo run --release -p tessera-qwirkle --example ties -- GAMES
//! ```
//! Game `g` has its chance from `derive_seed(9301, g)` and the bots' from `derive_seed(778,
//! g)`. Prints the turns, the share with two or more best placements, the share whose best
//! placements leave different tiles in the hand, and the share whose best placements differ
//! in how many tiles they place.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use tessera_core::rng::{derive_seed, seeded};
use tessera_core::table::resolve_chance;
use tessera_core::{Agent, Budget, Game, Turn};
use tessera_qwirkle::Qwirkle;
use tessera_qwirkle::bots::PointsBot;
use tessera_qwirkle::movegen::Scored;

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [games] = args.as_slice() else {
        bail!("usage: ties GAMES");
    };
    let games: u64 = games
        .parse()
        .with_context(|| format!("GAMES {games:?}: expected a whole number"))?;
    let (mut turns, mut tied, mut leaves, mut sizes) = (0usize, 0usize, 0usize, 0usize);
    let mut buf: Vec<Scored> = Vec::new();
    for g in 0..games {
        let mut s = Qwirkle::new(2)?;
        let mut chance = seeded(derive_seed(9301, g));
        let mut rng = seeded(derive_seed(778, g));
        let mut bots = [PointsBot::new(), PointsBot::new()];
        loop {
            // The table's one chance loop: the deals and draws due, from the game's stream.
            resolve_chance(&mut s, &mut chance, |_, _, _| {})?;
            match s.turn() {
                Turn::Terminal | Turn::Chance => break,
                Turn::Player(p) => {
                    s.scored_placements(&mut buf);
                    if let Some(top) = buf.iter().map(|c| c.score).max() {
                        let best: Vec<_> = buf.iter().filter(|c| c.score == top).collect();
                        turns += 1;
                        if best.len() >= 2 {
                            tied += 1;
                            let used = |c: &Scored| {
                                let mut t: Vec<_> =
                                    c.placement.cells().iter().map(|x| x.tile).collect();
                                t.sort();
                                t
                            };
                            let first = used(best[0]);
                            leaves += usize::from(best.iter().any(|c| used(c) != first));
                            let n = best[0].placement.len();
                            sizes += usize::from(best.iter().any(|c| c.placement.len() != n));
                        }
                    }
                    let m = bots[p.index()].choose(&s, &Budget::default(), &mut rng);
                    s.apply(m);
                }
            }
        }
    }
    let pct = |k: usize| 100.0 * k as f64 / turns.max(1) as f64;
    println!(
        "{turns} turns with a placement in {games} games: two or more best {:.1}%, best ones leaving different tiles {:.1}%, best ones of different sizes {:.1}%",
        pct(tied),
        pct(leaves),
        pct(sizes)
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
