//! Paired two-player matches between Qwirkle bots, with per-move timing.
//!
//! ```text
//! cargo run --release -p tessera-qwirkle --example qwirkle_match -- points smarter 1000 [SEED]
//! ```
//! Deal `i` uses seed `derive_seed(SEED, i)` and is played twice with the seats swapped.
//! Prints wins (ties count half) with a 95% Wilson interval, mean scores, and the time per
//! move of each bot over whole games (mean, median, 90th percentile and maximum).

use std::time::{Duration, Instant};

use tessera_core::rng::derive_seed;
use tessera_core::{Agent, Budget, Game, GameRng, PlayerId, Seat, Table};
use tessera_qwirkle::Qwirkle;
use tessera_qwirkle::bots::{LookaheadBot, PointsBot, SmarterBot};
use tessera_qwirkle::mc::MonteCarloBot;
use tessera_qwirkle::sage::{SageBot, SageConfig};
use tessera_qwirkle::seer::{SeerBot, SeerConfig};

struct Timed {
    inner: Box<dyn Agent<Qwirkle>>,
    times: Vec<Duration>,
}

impl Agent<Qwirkle> for Timed {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn reset(&mut self) {
        self.inner.reset()
    }
    fn choose(&mut self, s: &Qwirkle, b: &Budget, rng: &mut GameRng) -> tessera_qwirkle::Move {
        let t = Instant::now();
        let m = self.inner.choose(s, b, rng);
        self.times.push(t.elapsed());
        m
    }
}

/// `seer`, `seer:KEY=VALUE,...`, `sage` or `sage:KEY=VALUE,...` (keys: nodes, time in
/// milliseconds, candidates, plies, trades, infer, floor, tries, halving, leave; sage also
/// endgame and width), with the budget it asks for.
fn make_searcher(sage: bool, rest: &str) -> (Box<dyn Agent<Qwirkle>>, Budget) {
    let mut s = SageConfig::default();
    if !sage {
        s.seer = SeerConfig::default();
    }
    let c = &mut s.seer;
    let mut budget = Budget::default();
    for kv in rest.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        let bad = || -> ! {
            eprintln!("bad setting '{kv}'");
            std::process::exit(2)
        };
        let f: f64 = v.parse().unwrap_or_else(|_| bad());
        match k {
            "nodes" => budget = Budget::nodes(f as u64),
            "time" => budget = Budget::time(Duration::from_millis(f as u64)),
            "candidates" => c.candidates = f as usize,
            "plies" => c.plies = f as usize,
            "trades" => c.trades = f != 0.0,
            "infer" => c.infer = f,
            "floor" => c.floor = f,
            "tries" => c.tries = f as usize,
            "halving" => c.halving = f != 0.0,
            "leave" => c.leave = f,
            "endgame" if sage => s.depth = f as usize,
            "width" if sage => s.width = f as usize,
            _ => bad(),
        }
    }
    if sage {
        (Box::new(SageBot::with_config(s)), budget)
    } else {
        (Box::new(SeerBot::with_config(s.seer)), budget)
    }
}

/// The bot `name` names and its seat's budget (the worlds of `montecarlo:N`; the bots
/// hold no limits).
fn make(name: &str) -> (Box<dyn Agent<Qwirkle>>, Budget) {
    let free = Budget::default();
    for (prefix, sage) in [("seer", false), ("sage", true)] {
        if let Some(rest) = name.strip_prefix(prefix) {
            return make_searcher(sage, rest.trim_start_matches(':'));
        }
    }
    match name {
        "points" => (Box::new(PointsBot::new()), free),
        "smarter" => (Box::new(SmarterBot::new()), free),
        "lookahead" => (Box::new(LookaheadBot::new()), free),
        "montecarlo" => {
            let bot = MonteCarloBot::new();
            let worlds = bot.config.worlds as u64;
            (Box::new(bot), Budget::nodes(worlds))
        }
        other => {
            // montecarlo:N (N worlds per move)
            if let Some(n) = other
                .strip_prefix("montecarlo:")
                .and_then(|n| n.parse::<u64>().ok())
            {
                return (Box::new(MonteCarloBot::new()), Budget::nodes(n.max(1)));
            }
            // lookahead:C,S,R,L,N
            if let Some(rest) = other.strip_prefix("lookahead:") {
                let v: Vec<f64> = rest.split(',').filter_map(|x| x.parse().ok()).collect();
                if v.len() == 5 {
                    let config = tessera_qwirkle::bots::LookaheadConfig {
                        candidates: v[0] as usize,
                        samples: v[1] as usize,
                        reply_weight: v[2],
                        leave_weight: v[3],
                        next_weight: v[4],
                    };
                    return (Box::new(LookaheadBot::with_config(config)), free);
                }
            }
            eprintln!(
                "unknown bot '{other}': points, smarter, lookahead, lookahead:C,S,R,L,N, montecarlo, montecarlo:N, seer, seer:KEY=VALUE,..., sage, sage:KEY=VALUE,..."
            );
            std::process::exit(2);
        }
    }
}

fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
    (c - h, c + h)
}

fn quantile(v: &mut [Duration], q: f64) -> Duration {
    v.sort();
    if v.is_empty() {
        return Duration::ZERO;
    }
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: qwirkle_match BOT_A BOT_B DEALS [SEED]");
        std::process::exit(2);
    }
    let deals: u64 = args[2].parse().unwrap_or(100);
    let master: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let (inner, budget_a) = make(&args[0]);
    let mut a = Timed {
        inner,
        times: Vec::new(),
    };
    let (inner, budget_b) = make(&args[1]);
    let mut b = Timed {
        inner,
        times: Vec::new(),
    };
    let (mut wins_a, mut ties, mut games) = (0.0f64, 0u32, 0u32);
    let (mut sum_a, mut sum_b) = (0i64, 0i64);
    let start = Instant::now();
    for i in 0..deals {
        let seed = derive_seed(master, i);
        for swap in [false, true] {
            let (first, second) = if swap {
                (
                    Seat::agent(Box::new(&mut b), budget_b),
                    Seat::agent(Box::new(&mut a), budget_a),
                )
            } else {
                (
                    Seat::agent(Box::new(&mut a), budget_a),
                    Seat::agent(Box::new(&mut b), budget_b),
                )
            };
            let mut table = Table::new(
                Qwirkle::new(2).expect("two players"),
                vec![first, second],
                seed,
            )
            .expect("two seats");
            table
                .play_out(None, &mut ())
                .expect("bots play legal moves");
            let end = table.state().clone();
            let o = end.outcome().expect("finished");
            let (pa, pb) = if swap {
                (PlayerId(1), PlayerId(0))
            } else {
                (PlayerId(0), PlayerId(1))
            };
            sum_a += o.scores[pa] as i64;
            sum_b += o.scores[pb] as i64;
            if o.winners.len() > 1 {
                ties += 1;
                wins_a += 0.5;
            } else if o.winners[0] == pa {
                wins_a += 1.0;
            }
            games += 1;
        }
    }
    let n = games as f64;
    let p = wins_a / n;
    let (lo, hi) = wilson(p, n);
    println!(
        "{} vs {}: {} games ({} deals x 2 seats, seed {master}), {:.1} s",
        a.name(),
        b.name(),
        games,
        deals,
        start.elapsed().as_secs_f64()
    );
    println!(
        "  {} score share {:.1}% (wins + half of {} ties), 95% Wilson [{:.1}%, {:.1}%]",
        a.name(),
        100.0 * p,
        ties,
        100.0 * lo,
        100.0 * hi
    );
    println!(
        "  mean scores: {} {:.1}, {} {:.1}",
        a.name(),
        sum_a as f64 / n,
        b.name(),
        sum_b as f64 / n
    );
    for t in [&mut a, &mut b] {
        let name = t.name();
        let moves = t.times.len();
        let med = quantile(&mut t.times, 0.5);
        let p90 = quantile(&mut t.times, 0.9);
        let max = quantile(&mut t.times, 1.0);
        let mean = t.times.iter().map(|d| d.as_secs_f64()).sum::<f64>() / moves.max(1) as f64;
        println!(
            "  {name}: {moves} moves, time per move mean {:.1} us, median {:.1} us, p90 {:.1} us, max {:.1} us",
            mean * 1e6,
            med.as_secs_f64() * 1e6,
            p90.as_secs_f64() * 1e6,
            max.as_secs_f64() * 1e6
        );
    }
}
