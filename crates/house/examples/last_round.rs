//! How often the exact last-round solver (`oracle:endgame=F`) finishes, and what the tree
//! search loses where it does. Plays seeded two-player games of `PLAYER` against itself; at
//! each decision (two or more legal moves) where the last round is certain, it runs the
//! solver for each of the `SECONDS` limits and prints whether it solved the position, and,
//! where the longest limit solved it, the exact value of the move `CHECK` plays there
//! against the best value (in the solver's units: 10,000,000 a won game, 100 a point of
//! margin), and the position in the game's notation.
//!
//! `cargo run --release -p tessera-house --example last_round -- GAMES [SEED]
//! [SECONDS,...] [PLAYER] [CHECK]` (default `20 1 0.01,0.05,0.5 oracle:nodes=20000
//! oracle:time=100ms`).

use std::time::Duration;

use tessera_azul::AzulState;
use tessera_core::{Budget, Game, PlayerId, Turn, rng::seeded};
use tessera_house::registry::azul::registry;
use tessera_house::registry::azul_endgame::{WIN, last_round_certain, solve, solver, value_for};
use tessera_search::adversarial::Value;

/// The exact value of `s` for `me` (`None` if not solved within `time`).
fn exact(s: &AzulState, me: PlayerId, time: Duration) -> Option<Value> {
    let limits = Budget {
        time: Some(time),
        ..Budget::default()
    };
    value_for(&mut solver(), s, me, &limits)
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().map_or(Ok(20), |g| g.parse())?;
    let seed: u64 = args.next().map_or(Ok(1), |g| g.parse())?;
    let times: Vec<f64> = match args.next() {
        Some(t) => t
            .split(',')
            .map(|x| x.parse::<f64>())
            .collect::<Result<_, _>>()?,
        None => vec![0.01, 0.05, 0.5],
    };
    let player = args.next().unwrap_or_else(|| "oracle:nodes=20000".into());
    let check = args.next().unwrap_or_else(|| "oracle:time=100ms".into());
    let reg = registry();
    let plan = reg.parse(&player)?;
    let check_plan = reg.parse(&check)?;
    let longest = Duration::from_secs_f64(times.iter().copied().fold(0.0, f64::max));
    println!("game\tply\ttiles\tmoves\t{}\tloss\tposition", {
        let t: Vec<String> = times.iter().map(|t| format!("solved@{t}s")).collect();
        t.join("\t")
    });
    let (mut positions, mut checked, mut worse, mut class) = (0, 0, 0, 0);
    let mut solved_at = vec![0u32; times.len()];
    for g in 0..games {
        let mut rng = seeded(seed.wrapping_mul(1_000_003).wrapping_add(g));
        let mut agents = [plan.build()?, plan.build()?];
        let mut checker = check_plan.build()?;
        let mut s = AzulState::new(2, PlayerId((g % 2) as u8));
        let mut ply = 0;
        while s.turn() != Turn::Terminal {
            if s.turn() == Turn::Chance {
                let d = s.sample_chance(&mut rng);
                s.apply_chance(&d).map_err(|e| anyhow::anyhow!("{e}"))?;
                continue;
            }
            let me = s.current_player().unwrap_or(PlayerId(0));
            if last_round_certain(&s) && s.num_legal_actions() > 1 {
                positions += 1;
                let mut row = Vec::new();
                for (k, &t) in times.iter().enumerate() {
                    let (solved, r) = solve(
                        &mut solver(),
                        &s,
                        &Budget {
                            time: Some(Duration::from_secs_f64(t)),
                            ..Budget::default()
                        },
                    );
                    solved_at[k] += u32::from(solved.is_some());
                    row.push(format!("{}/{}", u8::from(solved.is_some()), r.nodes));
                }
                let mut loss = String::from("-");
                if let Some(best) = exact(&s, me, longest) {
                    let m = checker.choose(&s, &check_plan.budget(), &mut seeded(ply));
                    let mut after = s.clone();
                    after.apply(m);
                    if let Some(v) = exact(&after, me, longest * 4) {
                        checked += 1;
                        worse += u32::from(v < best);
                        class += u32::from(best - v >= WIN);
                        loss = (best - v).to_string();
                    }
                }
                println!(
                    "{g}\t{ply}\t{}\t{}\t{}\t{loss}\t{s}",
                    s.tiles_on_table(),
                    s.num_legal_actions(),
                    row.join("\t")
                );
            }
            let a = agents[me.index()].choose(&s, &plan.budget(), &mut rng);
            s.apply(a);
            ply += 1;
        }
    }
    println!("positions {positions}");
    for (t, n) in times.iter().zip(&solved_at) {
        println!("solved within {t} s: {n}");
    }
    println!(
        "checked {checked}: {check} played a worse move in {worse}, a move that changes the result in {class}"
    );
    Ok(())
}
