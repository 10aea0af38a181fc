//! How close `seer`'s reading of the opponent's hand comes to the truth: two-player games of
//! `seer` (2 worlds a move, handed the true state) against `points`; at each of seer's turns
//! after a placement by `points`, the bot samples WORLDS worlds as it would for its move,
//! and for every tile `points` truly kept after that placement the share of the worlds in
//! which the opponent's hand holds it (as many copies as it kept) is counted.
//!
//! ```text
//! cargo run --release -p tessera-qwirkle --example reading -- MODE GAMES WORLDS
//! ```
//! MODE is `uniform` (no inference: every hand of unseen tiles alike), `last` (the last
//! placement read, `seer`'s defaults), `sharp` (`infer=3:floor=0.02:tries=32`), `exclude`
//! (the sharp reading with `exclude=1`) or `track` (`track=1024`, the default sharpness) or
//! `track-sharp` (`track=1024:infer=3:floor=0.02`). Deal `g` of GAMES has its chance from
//! `derive_seed(9301, g)` and the bots' from `derive_seed(778, g)`, seer in seat `g mod 2`.
//! Prints the kept tiles examined, the mean share with a 95% interval (over the games), and
//! the share of seer's readings that put the truth in at least half the worlds.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use tessera_core::rng::{derive_seed, seeded};
use tessera_core::{Agent, Budget, Game, PlayerId, Turn};
use tessera_qwirkle::bots::PointsBot;
use tessera_qwirkle::seer::{SeerBot, SeerConfig};
use tessera_qwirkle::{Hand, Move, Qwirkle};

fn config(mode: &str) -> Result<SeerConfig> {
    let d = SeerConfig::default();
    let sharp = SeerConfig {
        infer: 3.0,
        floor: 0.02,
        tries: 32,
        ..d
    };
    Ok(match mode {
        "uniform" => SeerConfig { infer: 0.0, ..d },
        "last" => d,
        "sharp" => sharp,
        "exclude" => SeerConfig {
            exclude: true,
            ..sharp
        },
        "track" => SeerConfig { track: 1024, ..d },
        "track-sharp" => SeerConfig {
            track: 1024,
            infer: 3.0,
            floor: 0.02,
            ..d
        },
        other => {
            bail!("MODE {other:?}: expected uniform, last, sharp, exclude, track or track-sharp")
        }
    })
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, games, worlds] = args.as_slice() else {
        bail!("usage: reading MODE GAMES WORLDS");
    };
    let config = config(mode)?;
    let number = |name: &str, s: &str| -> Result<usize> {
        s.parse()
            .with_context(|| format!("{name} {s:?}: expected a whole number"))
    };
    let (games, worlds) = (number("GAMES", games)?, number("WORLDS", worlds)?);
    if games < 2 || worlds == 0 {
        bail!("expected GAMES >= 2 and WORLDS >= 1");
    }
    let (mut tiles, mut readings, mut majority) = (0usize, 0usize, 0usize);
    let mut per_game = Vec::new();
    for g in 0..games as u64 {
        let r = play(g, config, worlds)?;
        tiles += r.tiles;
        readings += r.readings;
        majority += r.majority;
        if r.tiles > 0 {
            per_game.push(r.share / r.tiles as f64);
        }
    }
    let n = per_game.len() as f64;
    let mean = per_game.iter().sum::<f64>() / n;
    let sd = (per_game.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let half = 1.96 * sd / n.sqrt();
    println!(
        "{mode}: {tiles} kept tiles in {readings} readings over {games} games: share {:.1}% [{:.1}, {:.1}] (mean of the games); truth in at least half the worlds for {:.1}% of the tiles",
        100.0 * mean,
        100.0 * (mean - half),
        100.0 * (mean + half),
        100.0 * majority as f64 / tiles.max(1) as f64
    );
    Ok(())
}

/// What one game's readings gave.
struct Readings {
    /// Kept tiles examined.
    tiles: usize,
    /// The sum over them of the share of worlds holding them.
    share: f64,
    /// Those held in at least half the worlds.
    majority: usize,
    /// Readings (seer's turns after a placement).
    readings: usize,
}

fn play(g: u64, config: SeerConfig, worlds: usize) -> Result<Readings> {
    let mut s = Qwirkle::new(2)?;
    let mut chance = seeded(derive_seed(9301, g));
    let mut rng = seeded(derive_seed(778, g));
    let seer_seat = (g % 2) as usize;
    let mut seer = SeerBot::with_config(config);
    let mut points = PointsBot::new();
    let mut kept: Option<Hand> = None;
    let mut out = Readings {
        tiles: 0,
        share: 0.0,
        majority: 0,
        readings: 0,
    };
    loop {
        match s.turn() {
            Turn::Terminal => break,
            Turn::Chance => {
                let d = s.sample_chance(&mut chance);
                s.apply_chance(&d)?;
            }
            Turn::Player(p) if p.index() == seer_seat => {
                let m = seer.choose(&s, &Budget::nodes(2), &mut rng);
                if let Some(kept) = kept.take() {
                    let other = PlayerId::all(2).find(|&q| q != p).context("two seats")?;
                    let ws = seer.sample_worlds(&s, worlds, &mut rng);
                    out.readings += 1;
                    for t in &kept {
                        let need = kept.iter().filter(|&u| u == t).count();
                        let held = ws
                            .iter()
                            .filter(|w| w.hand(other).iter().filter(|&u| u == t).count() >= need)
                            .count();
                        out.tiles += 1;
                        out.share += held as f64 / ws.len() as f64;
                        out.majority += usize::from(2 * held >= ws.len());
                    }
                }
                s.apply(m);
            }
            Turn::Player(p) => {
                let m = points.choose(&s, &Budget::default(), &mut rng);
                kept = match m {
                    Move::Place(pl) => s.kept_after(p, &pl),
                    _ => None,
                };
                s.apply(m);
            }
        }
    }
    Ok(out)
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
