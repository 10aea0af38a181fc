//! The conformance kit: random playouts that check a game keeps the [`Game`] contract.
//!
//! Every game crate runs it on itself (see `tests/conformance.rs` in each game crate):
//!
//! ```
//! use tessera_core::conformance::{check, Config};
//! use tessera_core::{Game, testgame::Nim};
//! let report = check(|players, _rng| Nim::new(players), &Config::quick()).unwrap();
//! assert!(report.games > 0);
//! ```
//!
//! For each player count and game it checks, after every step:
//! - the game's own invariants ([`Game::check_invariants`], e.g. conservation of tiles);
//! - the state notation and JSON round trips (`parse(to_string(s)) == s`);
//! - views: resampling hidden information ([`Game::determinize`]) never changes what the
//!   observer sees, and every view serializes;
//! - turns: a player's turn has legal actions, a chance or terminal turn has none;
//! - every legal action's notation and JSON round-trip and `try_apply` accepts it with the
//!   same result as `apply`;
//! - actions that were legal a step earlier but are not legal now are refused by `try_apply`
//!   and leave the state unchanged;
//! - the game ends within `max_steps`, with an outcome and at least one winner;
//! - the game's record replays to the identical final state, and the same seed plays the
//!   identical game again.

use std::collections::HashSet;
use std::fmt::Debug;

use rand::Rng;
use thiserror::Error;

use crate::game::{Game, Turn};
use crate::player::PlayerId;
use crate::record::{Event, GameRecord, RECORD_FORMAT, replay};
use crate::rng::{GameRng, derive_seed, seeded};

/// How much to test.
#[derive(Clone, Debug)]
pub struct Config {
    /// Player counts to test.
    pub player_counts: Vec<usize>,
    /// Random games per player count.
    pub games: usize,
    /// A game longer than this many steps (actions + chance events) fails.
    pub max_steps: usize,
    /// Master seed; game `i` uses `derive_seed(seed, i)`.
    pub seed: u64,
    /// Check notation and JSON round trips on every k-th step (1 = every step).
    pub roundtrip_every: usize,
}

impl Config {
    /// A few games for 2, 3 and 4 players (fast enough for doctests and debug builds).
    pub fn quick() -> Self {
        Config {
            player_counts: vec![2, 3, 4],
            games: 5,
            max_steps: 10_000,
            seed: 1,
            roundtrip_every: 1,
        }
    }

    /// Many games for 2, 3 and 4 players.
    pub fn thorough(games: usize) -> Self {
        Config {
            games,
            ..Config::quick()
        }
    }
}

/// What a successful run covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games played to the end.
    pub games: usize,
    /// Actions applied.
    pub actions: usize,
    /// Chance events applied.
    pub chance_events: usize,
    /// Legal actions whose notation was round-tripped.
    pub notations_checked: usize,
    /// Formerly legal actions that `try_apply` correctly refused.
    pub illegal_refused: usize,
}

/// A broken contract, with where it happened.
#[derive(Debug, Error)]
#[error("{players}-player game seed {seed}, step {step}: {problem}\n  state: {state}")]
pub struct Violation {
    /// Player count.
    pub players: usize,
    /// The game's seed.
    pub seed: u64,
    /// Step index within the game.
    pub step: usize,
    /// What is wrong.
    pub problem: String,
    /// The state's notation when it happened.
    pub state: String,
}

fn roundtrip_state<G: Game>(s: &G) -> Result<(), String> {
    let text = s.to_string();
    let back: G = text
        .parse()
        .map_err(|e: G::ParseError| format!("state notation does not parse back: {e}"))?;
    if &back != s {
        return Err(format!(
            "state notation round trip changes the state: {text}"
        ));
    }
    if back.to_string() != text {
        return Err("state notation is not stable".into());
    }
    let json = serde_json::to_string(s).map_err(|e| format!("state JSON: {e}"))?;
    let back: G =
        serde_json::from_str(&json).map_err(|e| format!("state JSON does not parse back: {e}"))?;
    if &back != s {
        return Err("state JSON round trip changes the state".into());
    }
    Ok(())
}

fn roundtrip_action<G: Game>(a: G::Action) -> Result<(), String> {
    let text = a.to_string();
    let back: G::Action = text
        .parse()
        .map_err(|e: G::ActionParseError| format!("action '{text}' does not parse back: {e}"))?;
    if back != a {
        return Err(format!(
            "action notation round trip changes {a:?} into {back:?}"
        ));
    }
    let json = serde_json::to_string(&a).map_err(|e| format!("action JSON: {e}"))?;
    let back: G::Action =
        serde_json::from_str(&json).map_err(|e| format!("action JSON does not parse back: {e}"))?;
    if back != a {
        return Err(format!("action JSON round trip changes {a:?}"));
    }
    Ok(())
}

fn check_views<G: Game>(s: &G, rng: &mut GameRng) -> Result<(), String> {
    for p in PlayerId::all(s.num_players()) {
        let v = s.view(p);
        serde_json::to_string(&v).map_err(|e| format!("view JSON for {p}: {e}"))?;
        let d = s.determinize(p, rng);
        if d.view(p) != v {
            return Err(format!("determinizing for {p} changes what {p} sees"));
        }
        if d.turn() != s.turn() || d.scores() != s.scores() {
            return Err(format!(
                "determinizing for {p} changes the turn or the scores"
            ));
        }
        d.check_invariants()
            .map_err(|e| format!("determinized state for {p}: {e}"))?;
    }
    Ok(())
}

/// Plays one game with uniformly random actions and checks it; returns the final state and
/// the record.
fn one_game<G: Game>(
    new_game: &impl Fn(usize, &mut GameRng) -> G,
    players: usize,
    seed: u64,
    cfg: &Config,
    report: &mut Report,
) -> Result<(G, GameRecord<G::Chance>), Violation> {
    let mut rng = seeded(seed);
    let mut state = new_game(players, &mut rng);
    let mut step = 0usize;
    let fail = |state: &G, step: usize, problem: String| Violation {
        players,
        seed,
        step,
        problem,
        state: state.to_string(),
    };
    if state.num_players() != players {
        return Err(fail(
            &state,
            0,
            format!("asked for {players} players, got {}", state.num_players()),
        ));
    }
    let mut record = GameRecord {
        game: G::NAME.to_string(),
        format: RECORD_FORMAT,
        seed: Some(seed),
        seats: vec!["random".into(); players],
        initial: state.to_string(),
        events: Vec::new(),
        scores: Vec::new(),
        result: None,
        assists: Vec::new(),
        clock: None,
        flag: None,
        time_used_ms: Vec::new(),
    };
    let mut legal: Vec<G::Action> = Vec::new();
    let mut previous_legal: Vec<G::Action> = Vec::new();
    loop {
        if step > cfg.max_steps {
            return Err(fail(
                &state,
                step,
                format!("game did not end within {} steps", cfg.max_steps),
            ));
        }
        state
            .check_invariants()
            .map_err(|e| fail(&state, step, format!("invariant: {e}")))?;
        if step.is_multiple_of(cfg.roundtrip_every.max(1)) {
            roundtrip_state(&state).map_err(|e| fail(&state, step, e))?;
            check_views(&state, &mut rng).map_err(|e| fail(&state, step, e))?;
        }
        state.legal_actions(&mut legal);
        match state.turn() {
            Turn::Terminal => {
                if !legal.is_empty() {
                    return Err(fail(
                        &state,
                        step,
                        "terminal state has legal actions".into(),
                    ));
                }
                let outcome = state
                    .outcome()
                    .ok_or_else(|| fail(&state, step, "terminal state has no outcome".into()))?;
                if outcome.winners.is_empty() {
                    return Err(fail(&state, step, "outcome has no winner".into()));
                }
                if outcome.scores != state.scores() {
                    return Err(fail(
                        &state,
                        step,
                        "outcome scores differ from scores()".into(),
                    ));
                }
                break;
            }
            Turn::Chance => {
                if !legal.is_empty() {
                    return Err(fail(&state, step, "chance turn has legal actions".into()));
                }
                if state.outcome().is_some() {
                    return Err(fail(&state, step, "unfinished game has an outcome".into()));
                }
                record.scores.push(state.scores().as_slice().to_vec());
                let outcome = state.sample_chance(&mut rng);
                state
                    .apply_chance(&outcome)
                    .map_err(|e| fail(&state, step, format!("sampled chance refused: {e}")))?;
                record.events.push(Event::Chance { outcome });
                report.chance_events += 1;
                previous_legal.clear();
            }
            Turn::Player(p) => {
                if legal.is_empty() {
                    return Err(fail(
                        &state,
                        step,
                        format!("{p} to move but no legal action"),
                    ));
                }
                if state.outcome().is_some() {
                    return Err(fail(&state, step, "unfinished game has an outcome".into()));
                }
                let set: HashSet<G::Action> = legal.iter().copied().collect();
                if set.len() != legal.len() {
                    return Err(fail(
                        &state,
                        step,
                        "legal actions contain duplicates".into(),
                    ));
                }
                if step.is_multiple_of(cfg.roundtrip_every.max(1)) {
                    for &a in &legal {
                        roundtrip_action::<G>(a).map_err(|e| fail(&state, step, e))?;
                        report.notations_checked += 1;
                    }
                }
                for &a in previous_legal.iter().filter(|a| !set.contains(a)).take(8) {
                    let mut copy = state.clone();
                    if copy.try_apply(a).is_ok() {
                        return Err(fail(
                            &state,
                            step,
                            format!("try_apply accepted {a}, which is not in the legal list"),
                        ));
                    }
                    if copy != state {
                        return Err(fail(
                            &state,
                            step,
                            format!("refused action {a} changed the state"),
                        ));
                    }
                    report.illegal_refused += 1;
                }
                let a = legal[rng.random_range(0..legal.len())];
                let mut checked = state.clone();
                checked
                    .try_apply(a)
                    .map_err(|e| fail(&state, step, format!("try_apply refused legal {a}: {e}")))?;
                state.apply(a);
                if checked != state {
                    return Err(fail(
                        &state,
                        step,
                        format!("apply and try_apply of {a} disagree"),
                    ));
                }
                record.events.push(Event::Action {
                    player: p,
                    action: a.to_string(),
                });
                report.actions += 1;
                std::mem::swap(&mut previous_legal, &mut legal);
            }
        }
        step += 1;
    }
    record.scores.push(state.scores().as_slice().to_vec());
    record.result = state.outcome();
    Ok((state, record))
}

/// Runs the kit; `new_game(players, rng)` makes a fresh game (its first turn may be chance).
pub fn check<G: Game>(
    new_game: impl Fn(usize, &mut GameRng) -> G,
    cfg: &Config,
) -> Result<Report, Violation> {
    let mut report = Report::default();
    for &players in &cfg.player_counts {
        for i in 0..cfg.games {
            let seed = derive_seed(cfg.seed, (players * 1_000_003 + i) as u64);
            let (fin, record) = one_game(&new_game, players, seed, cfg, &mut report)?;
            let problem = |problem: String| Violation {
                players,
                seed,
                step: 0,
                problem,
                state: fin.to_string(),
            };
            // The record replays to the same final state, also after a JSON round trip.
            let json =
                serde_json::to_string(&record).map_err(|e| problem(format!("record JSON: {e}")))?;
            let back: GameRecord<G::Chance> = serde_json::from_str(&json)
                .map_err(|e| problem(format!("record JSON does not parse back: {e}")))?;
            let replayed: G =
                replay(&back).map_err(|e| problem(format!("record does not replay: {e}")))?;
            if replayed != fin {
                return Err(problem("replayed record ends in a different state".into()));
            }
            // Same seed, same game.
            if i == 0 {
                let mut scratch = Report::default();
                let (again, _) = one_game(&new_game, players, seed, cfg, &mut scratch)?;
                if again != fin {
                    return Err(problem("the same seed played a different game".into()));
                }
            }
            report.games += 1;
        }
    }
    Ok(report)
}

/// Asserts that parsing arbitrary text never panics and that anything accepted
/// round-trips; for property and fuzz targets.
pub fn parse_never_panics<T>(text: &str) -> Result<(), String>
where
    T: std::str::FromStr + std::fmt::Display + PartialEq + Debug,
{
    if let Ok(v) = text.parse::<T>() {
        let again = v.to_string();
        match again.parse::<T>() {
            Ok(w) if w == v => {}
            Ok(w) => {
                return Err(format!(
                    "'{text}' parsed to {v:?} whose notation '{again}' parses to {w:?}"
                ));
            }
            Err(_) => {
                return Err(format!(
                    "'{text}' parsed to {v:?} whose notation '{again}' does not parse"
                ));
            }
        }
    }
    Ok(())
}
