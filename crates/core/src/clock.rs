//! Game clocks: a time control for the whole game ([`Clock`]: a base time plus an increment
//! per move, written `60s+1s`), and the time manager ([`TimeManager`]) that turns a seat's
//! time left into the budget of one decision.
//!
//! A [`crate::Table`] with a clock ([`crate::Table::with_clock`]) keeps every seat's time
//! left: each move's measured wall time is taken off the mover's clock, then the increment
//! is added. A seat whose time runs out while it thinks (its flag falls) loses the game: the
//! move is not played, the record's `flag` names the seat and its result is a loss for it.
//!
//! Under a clock an agent's per-move time limit is replaced by the time manager's budget:
//! - one legal move: played at once, without asking the agent (about zero time);
//! - otherwise the usable time (the time left less a safety margin) shared over the decisions
//!   the seat still has (the game's estimate, [`crate::Game::decisions_left`], or a default
//!   horizon), plus most of the increment, weighted by how hard the decision looks: more
//!   legal moves than the seat's average so far (an Azul round start) get more, fewer get
//!   less; a seat whose agent reported a large swing of its value between its last two
//!   decisions gets more;
//! - divided by the share of its budgets the seat has used so far (from its third measured
//!   move on, at least a quarter): an agent whose search stops once its decision is settled
//!   or its tree solved is given more, so that it spends its clock rather than hoarding it;
//! - the safety margin ([`TimeManager::safety`]) is a hard reserve, plus twice the largest
//!   overshoot of a budget measured for the seat so far (how much longer than its budget a
//!   move took, thread hand-over and the search's last step included; an assumed few
//!   milliseconds before the first), plus a fiftieth of the time left;
//! - never more than the usable time, nor more than a third of it plus the increment while
//!   three or more decisions are left (the last two may take half and all of it: the clock
//!   is spent down rather than left unused at the end).
//!
//! ```
//! use std::time::Duration;
//! use tessera_core::clock::Clock;
//! let c: Clock = "90s+0.5s".parse().unwrap();
//! assert_eq!(c.base, Duration::from_secs(90));
//! assert_eq!(c.increment, Duration::from_millis(500));
//! assert_eq!(c.to_string(), "90s+500ms");
//! assert_eq!("5m".parse::<Clock>().unwrap().to_string(), "5m");
//! assert!("60x+1s".parse::<Clock>().unwrap_err().to_string().contains("expected BASE[+INCREMENT]"));
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::player::PlayerId;

/// A time control for a whole game: every seat starts with `base` and gains `increment`
/// after each of its moves. Text form `BASE[+INCREMENT]`, each a number with a unit
/// (`ms`, `s`, `m`): `60s+1s`, `5m`, `90s+0.5s`. Its JSON form is that text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// Time each seat starts with.
    pub base: Duration,
    /// Time added to a seat's clock after each of its moves.
    pub increment: Duration,
}

/// Why a time control's text is not one.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("clock '{text}': {problem}; expected BASE[+INCREMENT] such as 60s+1s, 5m or 90s+0.5s")]
pub struct ClockError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub problem: ClockProblem,
}

/// What is wrong with a time control's text.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ClockProblem {
    /// Nothing given.
    #[error("it is empty")]
    Empty,
    /// A part that is not a duration.
    #[error("'{0}' is not a duration (a number with a unit ms, s or m)")]
    Duration(String),
    /// A base time of zero.
    #[error("the base time must be more than zero")]
    ZeroBase,
    /// More than a day.
    #[error("'{0}' is longer than a day")]
    TooLong(String),
}

/// Parses `250ms`, `2s`, `0.5s`, `3m`.
fn parse_part(text: &str) -> Result<Duration, ClockProblem> {
    let bad = || ClockProblem::Duration(text.to_string());
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(bad)?;
    let (num, unit) = text.split_at(split);
    let x: f64 = num.parse().map_err(|_| bad())?;
    let secs = match unit {
        "ms" => x / 1e3,
        "s" => x,
        "m" | "min" => x * 60.0,
        _ => return Err(bad()),
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(bad());
    }
    if secs > 86_400.0 {
        return Err(ClockProblem::TooLong(text.to_string()));
    }
    Ok(Duration::from_secs_f64(secs))
}

impl FromStr for Clock {
    type Err = ClockError;

    fn from_str(s: &str) -> Result<Self, ClockError> {
        let text = s.trim();
        let err = |problem| ClockError {
            text: text.to_string(),
            problem,
        };
        if text.is_empty() {
            return Err(err(ClockProblem::Empty));
        }
        let (base, increment) = match text.split_once('+') {
            Some((b, i)) => (b.trim(), Some(i.trim())),
            None => (text, None),
        };
        let base = parse_part(base).map_err(err)?;
        let increment = increment
            .map(parse_part)
            .transpose()
            .map_err(err)?
            .unwrap_or(Duration::ZERO);
        if base.is_zero() {
            return Err(err(ClockProblem::ZeroBase));
        }
        Ok(Clock { base, increment })
    }
}

/// A duration in the shortest exact unit of `m`, `s`, `ms` (`us` below a millisecond).
fn write_duration(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let us = d.as_micros();
    if us.is_multiple_of(60_000_000) && us > 0 {
        write!(f, "{}m", us / 60_000_000)
    } else if us.is_multiple_of(1_000_000) {
        write!(f, "{}s", us / 1_000_000)
    } else if us.is_multiple_of(1_000) {
        write!(f, "{}ms", us / 1_000)
    } else {
        write!(f, "{}ms", us as f64 / 1e3)
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_duration(f, self.base)?;
        if !self.increment.is_zero() {
            f.write_str("+")?;
            write_duration(f, self.increment)?;
        }
        Ok(())
    }
}

impl Serialize for Clock {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Clock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// What a seat's agent is told of the clocks before it decides
/// ([`crate::Agent::observe_clock`]): every seat's time left and the increment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockView {
    /// The seat to move.
    pub seat: PlayerId,
    /// Time left per seat, seat 0 first.
    pub left: Vec<Duration>,
    /// The increment per move.
    pub increment: Duration,
}

/// What a time manager knows of one seat's decisions so far in a game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatTiming {
    /// Decisions made (forced moves not counted).
    pub decisions: u32,
    /// Sum of the natural log of the legal moves at each decision.
    ln_legal_sum: f64,
    /// The agent's value at its last decision, if it reported one.
    last_value: Option<f64>,
    /// The last swing of the value between two decisions.
    last_swing: Option<f64>,
    /// Sum and count of swings.
    swing_sum: f64,
    swings: u32,
    /// The largest overshoot of a budget measured so far ([`SeatTiming::record_overshoot`]).
    max_overshoot: Option<Duration>,
    /// Forced moves so far (one legal move: played at once).
    forced: u32,
    /// The budgets given and the time taken over the measured moves
    /// ([`SeatTiming::record_overshoot`]).
    given: Duration,
    taken: Duration,
    measured: u32,
}

impl SeatTiming {
    /// Notes a decision among `legal` moves after which the agent reported `value` (its
    /// [`crate::SearchInfo::value`], if any).
    pub fn record(&mut self, legal: usize, value: Option<f64>) {
        self.decisions += 1;
        self.ln_legal_sum += (legal.max(1) as f64).ln();
        if let (Some(v), Some(last)) = (value, self.last_value) {
            let swing = (v - last).abs();
            if swing.is_finite() {
                self.last_swing = Some(swing);
                self.swing_sum += swing;
                self.swings += 1;
            }
        }
        if value.is_some_and(f64::is_finite) {
            self.last_value = value;
        }
    }

    /// Notes a forced move (one legal move, played without thinking).
    pub fn record_forced(&mut self) {
        self.forced += 1;
    }

    /// The share of the seat's moves so far that were forced (at most a half; 0 before any
    /// move): that share of the decisions a game estimates takes no time.
    pub fn forced_share(&self) -> f64 {
        let all = self.decisions + self.forced;
        if all == 0 {
            0.0
        } else {
            (self.forced as f64 / all as f64).min(0.5)
        }
    }

    /// Notes a move given `budget` that took `elapsed` on the clock: the overshoot (if any)
    /// raises the seat's safety margin.
    /// It also counts towards the seat's usage of its budgets ([`SeatTiming::usage`]).
    pub fn record_overshoot(&mut self, budget: Duration, elapsed: Duration) {
        let over = elapsed.saturating_sub(budget);
        self.max_overshoot = Some(self.max_overshoot.map_or(over, |m| m.max(over)));
        self.given += budget;
        self.taken += elapsed;
        self.measured += 1;
    }

    /// The share of its budgets the seat has used over its measured moves (time taken over
    /// time given, at most 1), once `after` moves are measured; `None` before. An agent
    /// whose search stops when its decision is settled, or when its tree is solved, uses
    /// less than it is given.
    pub fn usage(&self, after: u32) -> Option<f64> {
        (self.measured >= after.max(1) && !self.given.is_zero())
            .then(|| (self.taken.as_secs_f64() / self.given.as_secs_f64()).min(1.0))
    }

    /// The largest overshoot of a budget measured so far (`None` before the first move).
    pub fn max_overshoot(&self) -> Option<Duration> {
        self.max_overshoot
    }

    /// The mean of `ln(legal moves)` over the decisions so far (`None` before the first).
    pub fn mean_ln_legal(&self) -> Option<f64> {
        (self.decisions > 0).then(|| self.ln_legal_sum / self.decisions as f64)
    }
}

/// One decision, as the time manager sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Legal moves.
    pub legal: usize,
    /// The game's estimate of the decisions the seat still has, this one included
    /// ([`crate::Game::decisions_left`]).
    pub decisions_left: Option<u32>,
}

/// Turns a seat's clock into one decision's time budget (see the [module](self) docs).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct TimeManager {
    /// Decisions a seat is assumed to have in a game when the game gives no estimate.
    pub horizon: u32,
    /// The fewest decisions assumed left when the game gives no estimate.
    pub min_horizon: u32,
    /// The hard reserve: the part of the safety margin kept whatever was measured.
    pub reserve: Duration,
    /// The overshoot assumed before any was measured.
    pub assumed_overshoot: Duration,
    /// The safety margin holds this many times the largest overshoot measured.
    pub overshoot_factor: f64,
    /// The share of the time left that the safety margin also holds.
    pub left_share: f64,
    /// The share of the increment planned to be spent on each move.
    pub increment_share: f64,
    /// Bounds of the weight of a decision's difficulty.
    pub min_weight: f64,
    /// See [`TimeManager::min_weight`].
    pub max_weight: f64,
    /// A seat that has used only part of its budgets ([`SeatTiming::usage`], measured over
    /// at least [`TimeManager::usage_after`] moves) gets its planned share divided by that
    /// part, but by no less than this (1: budgets ignore the usage; taken as at least 0.01).
    pub min_usage: f64,
    /// Measured moves before the usage counts.
    pub usage_after: u32,
}

impl Default for TimeManager {
    fn default() -> Self {
        TimeManager {
            horizon: 30,
            min_horizon: 10,
            reserve: Duration::from_millis(10),
            assumed_overshoot: Duration::from_millis(5),
            overshoot_factor: 2.0,
            left_share: 0.02,
            increment_share: 0.9,
            min_weight: 0.4,
            max_weight: 2.5,
            min_usage: 0.25,
            usage_after: 3,
        }
    }
}

impl TimeManager {
    /// How hard `d` looks to the seat with history `seat`: 1 for an average decision.
    /// Legal moves against the seat's average so far (`ln` scale, bounded 0.5-2), times
    /// 0.8-1.6 by the last swing of the agent's value against its average swing.
    pub fn weight(&self, seat: &SeatTiming, d: &Decision) -> f64 {
        let ln = (d.legal.max(1) as f64).ln();
        let legal = match seat.mean_ln_legal() {
            Some(mean) if mean > 1e-9 => (ln / mean).clamp(0.5, 2.0),
            _ => 1.0,
        };
        let swing = match (seat.last_swing, seat.swings) {
            (Some(s), n) if n >= 2 && seat.swing_sum > 1e-12 => {
                let mean = seat.swing_sum / n as f64;
                (0.6 + 0.4 * s / mean).clamp(0.8, 1.6)
            }
            _ => 1.0,
        };
        (legal * swing).clamp(self.min_weight, self.max_weight)
    }

    /// The safety margin kept on a clock with `left` by a seat with history `seat`: the
    /// hard reserve, plus [`TimeManager::overshoot_factor`] times the largest overshoot
    /// measured (or the assumed one before any), plus [`TimeManager::left_share`] of `left`.
    pub fn safety(&self, left: Duration, seat: &SeatTiming) -> Duration {
        let over = seat.max_overshoot.unwrap_or(self.assumed_overshoot);
        self.reserve + over.mul_f64(self.overshoot_factor) + left.mul_f64(self.left_share)
    }

    /// The time budget of decision `d` for a seat with `left` on its clock and history
    /// `seat`, under `clock`. Zero for a forced move; never above `left` minus
    /// [`TimeManager::safety`] (at least a millisecond while that much is usable).
    pub fn budget(
        &self,
        clock: &Clock,
        left: Duration,
        seat: &SeatTiming,
        d: &Decision,
    ) -> Duration {
        if d.legal <= 1 {
            return Duration::ZERO;
        }
        let usable = left.saturating_sub(self.safety(left, seat));
        // The decisions that will take time: the game's estimate less the share of moves
        // that have been forced so far.
        let horizon = match d.decisions_left {
            Some(n) => (n as f64 * (1.0 - seat.forced_share())).round().max(1.0) as u32,
            None => self
                .horizon
                .saturating_sub(seat.decisions)
                .max(self.min_horizon),
        };
        let increment = clock.increment.mul_f64(self.increment_share);
        let share = usable / horizon + increment;
        // Near the end an easy decision does not save time for later: none is left.
        let weight = match horizon {
            1 | 2 => self.weight(seat, d).max(1.0),
            _ => self.weight(seat, d),
        };
        // An agent that stops early is given more, so that what it uses is the share.
        let usage = seat
            .usage(self.usage_after)
            .map_or(1.0, |u| u.max(self.min_usage.clamp(0.01, 1.0)));
        let wanted = share.mul_f64(weight / usage);
        let cap = (usable / horizon.min(3) + increment).min(usable);
        wanted.min(cap).max(Duration::from_millis(1).min(usable))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Equal within a microsecond (budgets are scaled in floating point).
    fn near(a: Duration, b: Duration) {
        assert!(
            a.abs_diff(b) < Duration::from_micros(1),
            "{a:?} against {b:?}"
        );
    }

    #[test]
    fn clocks_parse_print_and_refuse_clearly() {
        for (text, base, inc, shown) in [
            ("60s+1s", ms(60_000), ms(1000), "1m+1s"),
            ("5m", ms(300_000), ms(0), "5m"),
            ("90s+0.5s", ms(90_000), ms(500), "90s+500ms"),
            (" 2s + 50ms ", ms(2000), ms(50), "2s+50ms"),
            ("1.5s+0s", ms(1500), ms(0), "1500ms"),
        ] {
            let c: Clock = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!((c.base, c.increment), (base, inc), "{text}");
            assert_eq!(c.to_string(), shown);
            assert_eq!(shown.parse::<Clock>().unwrap(), c, "{shown} round-trips");
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(json, format!("\"{shown}\""));
            assert_eq!(serde_json::from_str::<Clock>(&json).unwrap(), c);
        }
        for (bad, says) in [
            ("", "it is empty"),
            ("60", "'60' is not a duration"),
            ("60x+1s", "'60x' is not a duration"),
            ("60s+", "'' is not a duration"),
            ("0s+1s", "more than zero"),
            ("2d", "'2d' is not a duration"),
            ("2000m", "longer than a day"),
            ("-1s", "'-1s' is not a duration"),
        ] {
            let e = bad.parse::<Clock>().unwrap_err().to_string();
            assert!(
                e.contains(says) && e.contains("expected BASE[+INCREMENT] such as 60s+1s"),
                "{bad}: {e}"
            );
        }
        assert!(serde_json::from_str::<Clock>("\"soon\"").is_err());
    }

    #[test]
    fn a_forced_move_costs_nothing_and_budgets_stay_inside_the_clock() {
        let tm = TimeManager::default();
        let clock: Clock = "10s+100ms".parse().unwrap();
        let fresh = SeatTiming::default();
        let forced = Decision {
            legal: 1,
            decisions_left: None,
        };
        assert_eq!(tm.budget(&clock, ms(5000), &fresh, &forced), Duration::ZERO);
        let d = Decision {
            legal: 20,
            decisions_left: None,
        };
        // The safety margin before any measure: 10 ms reserve, twice an assumed 5 ms
        // overshoot, a fiftieth of the time left.
        assert_eq!(tm.safety(ms(10_000), &fresh), ms(10 + 10 + 200));
        // 10 s less that margin over a horizon of 30 decisions plus 90% of the increment.
        let b = tm.budget(&clock, ms(10_000), &fresh, &d);
        near(b, (ms(10_000) - ms(220)) / 30 + ms(90));
        // However little is left, the budget keeps the safety margin.
        for left in [0, 1, 5, 11, 40, 100, 1000] {
            let b = tm.budget(&clock, ms(left), &fresh, &d);
            let safety = tm.safety(ms(left), &fresh);
            assert!(b + safety <= ms(left).max(safety), "{left}: {b:?}");
            assert!(b <= ms(left), "{left}: {b:?}");
        }
        // The game's estimate of decisions left replaces the horizon; the last decision
        // may spend every usable millisecond, the one before half of it.
        let at = |n| Decision {
            legal: 20,
            decisions_left: Some(n),
        };
        let usable = ms(3000) - tm.safety(ms(3000), &fresh);
        near(tm.budget(&clock, ms(3000), &fresh, &at(1)), usable);
        near(
            tm.budget(&clock, ms(3000), &fresh, &at(2)),
            usable / 2 + ms(90),
        );
        near(
            tm.budget(&clock, ms(3000), &fresh, &at(6)),
            usable / 6 + ms(90),
        );
    }

    #[test]
    fn hard_decisions_get_more_than_easy_ones() {
        let tm = TimeManager::default();
        let clock: Clock = "60s+1s".parse().unwrap();
        let mut seat = SeatTiming::default();
        for legal in [30, 20, 10, 5, 25, 12] {
            seat.record(legal, None);
        }
        let at = |legal| Decision {
            legal,
            decisions_left: None,
        };
        let many = tm.budget(&clock, ms(30_000), &seat, &at(40));
        let few = tm.budget(&clock, ms(30_000), &seat, &at(3));
        assert!(many > few.mul_f64(2.0), "{many:?} against {few:?}");
        // A large swing of the agent's value makes the next decision harder.
        let mut calm = SeatTiming::default();
        let mut stormy = SeatTiming::default();
        for (i, v) in [0.0, 1.0, 2.0, 3.0].into_iter().enumerate() {
            calm.record(10, Some(v));
            stormy.record(10, Some(if i == 3 { 12.0 } else { v }));
        }
        assert!(tm.weight(&stormy, &at(10)) > tm.weight(&calm, &at(10)));
        assert_eq!(tm.weight(&calm, &at(10)), 1.0);
    }

    #[test]
    fn the_safety_margin_grows_with_the_largest_overshoot_measured() {
        let tm = TimeManager::default();
        let mut seat = SeatTiming::default();
        seat.record_overshoot(ms(100), ms(99));
        assert_eq!(seat.max_overshoot(), Some(ms(0)));
        // Measured: no overshoot yet, so the reserve and a fiftieth of the time left.
        assert_eq!(tm.safety(ms(1000), &seat), ms(10 + 20));
        seat.record_overshoot(ms(100), ms(160));
        seat.record_overshoot(ms(50), ms(70));
        assert_eq!(seat.max_overshoot(), Some(ms(60)));
        assert_eq!(tm.safety(ms(1000), &seat), ms(10 + 120 + 20));
        // The budget keeps it: 1 s left, the last decision.
        let clock: Clock = "1s".parse().unwrap();
        let last = Decision {
            legal: 9,
            decisions_left: Some(1),
        };
        assert_eq!(tm.budget(&clock, ms(1000), &seat, &last), ms(850));
    }

    /// A whole game's allocation: a seat with `decisions` decisions on `clock`, its moves
    /// taking their budget plus `overshoot`, the game's estimate of decisions left exact.
    /// Returns the time left at the end and the least time left before a move's end
    /// (negative: the flag fell).
    fn simulate(clock: &str, decisions: u32, legal: &[usize], overshoot: Duration) -> (f64, f64) {
        simulate_with(
            &TimeManager::default(),
            clock,
            decisions,
            legal,
            overshoot,
            1.0,
        )
    }

    /// [`simulate`] with the manager `tm` and moves that take the share `used` of their
    /// budget (plus `overshoot`): an agent that stops early.
    fn simulate_with(
        tm: &TimeManager,
        clock: &str,
        decisions: u32,
        legal: &[usize],
        overshoot: Duration,
        used: f64,
    ) -> (f64, f64) {
        let clock: Clock = clock.parse().unwrap();
        let mut seat = SeatTiming::default();
        let mut left = clock.base.as_secs_f64();
        let mut least = f64::INFINITY;
        for i in 0..decisions {
            let d = Decision {
                legal: legal[i as usize % legal.len()],
                decisions_left: Some(decisions - i),
            };
            let b = tm.budget(&clock, Duration::from_secs_f64(left.max(0.0)), &seat, &d);
            let took = if d.legal <= 1 {
                ms(1)
            } else {
                b.mul_f64(used) + overshoot
            };
            left -= took.as_secs_f64();
            least = least.min(left);
            if left < 0.0 {
                return (left, least);
            }
            if d.legal > 1 {
                seat.record(d.legal, None);
                seat.record_overshoot(b, took);
            } else {
                seat.record_forced();
            }
            left += clock.increment.as_secs_f64();
        }
        (left, least)
    }

    #[test]
    fn the_clock_is_spent_down_without_a_flag() {
        // The measured Azul control: 1.5 s + 30 ms, about 27 decisions a game, round starts
        // with many moves and forced or near-forced ends of round.
        let legal = [40, 30, 18, 9, 4, 1];
        for over_ms in [0, 3, 8, 20] {
            let over = ms(over_ms);
            let (end, least) = simulate("1.5s+30ms", 27, &legal, over);
            assert!(least > 0.0, "{over_ms} ms overshoots: flag ({least})");
            // Every increment is added after the move; what is left at the end is what
            // the seat never used, out of 1.5 s + 27 x 30 ms = 2.31 s.
            let unused = end - 0.03;
            assert!(
                unused < 0.03 + over.as_secs_f64(),
                "{over_ms} ms overshoots: {unused:.3} s unused"
            );
        }
        // Longer clocks and other lengths alike.
        for (clock, n) in [
            ("60s+1s", 40),
            ("10s", 25),
            ("3m+2s", 60),
            ("200ms+20ms", 30),
        ] {
            let (end, least) = simulate(clock, n, &legal, ms(2));
            let c: Clock = clock.parse().unwrap();
            let total = (c.base + c.increment * n).as_secs_f64();
            assert!(least > 0.0, "{clock}: flag");
            assert!(
                end - c.increment.as_secs_f64() < 0.04 * total,
                "{clock}: {end:.3} s left"
            );
        }
    }

    #[test]
    fn round_starts_get_more_than_late_moves_and_a_forced_move_nothing() {
        let tm = TimeManager::default();
        let clock: Clock = "1.5s+30ms".parse().unwrap();
        let mut seat = SeatTiming::default();
        for legal in [40, 20, 8, 3, 35, 15, 6, 2] {
            seat.record(legal, None);
        }
        let at = |legal, n| Decision {
            legal,
            decisions_left: Some(n),
        };
        let start = tm.budget(&clock, ms(1000), &seat, &at(40, 15));
        let late = tm.budget(&clock, ms(1000), &seat, &at(3, 15));
        assert!(start > late.mul_f64(3.0), "{start:?} against {late:?}");
        assert_eq!(
            tm.budget(&clock, ms(1000), &seat, &at(1, 15)),
            Duration::ZERO
        );
    }

    #[test]
    fn a_seat_that_uses_part_of_its_budgets_is_given_more() {
        let tm = TimeManager::default();
        let clock: Clock = "60s+1s".parse().unwrap();
        let at = Decision {
            legal: 20,
            decisions_left: Some(20),
        };
        let seat_using = |share: f64, moves: u32| {
            let mut seat = SeatTiming::default();
            for _ in 0..moves {
                seat.record(20, None);
                seat.record_overshoot(ms(1000), ms(1000).mul_f64(share));
            }
            seat
        };
        let full = tm.budget(&clock, ms(30_000), &seat_using(1.0, 5), &at);
        // Half of every budget used: twice the budget, so that half of it is the share.
        let half = tm.budget(&clock, ms(30_000), &seat_using(0.5, 5), &at);
        near(half, full * 2);
        // A tenth used: four times at most.
        let tenth = tm.budget(&clock, ms(30_000), &seat_using(0.1, 5), &at);
        near(tenth, full * 4);
        // More than the budget (an overshoot) counts as all of it (the overshoot itself
        // widens the safety margin).
        let over = seat_using(1.5, 5);
        assert_eq!(over.usage(3), Some(1.0));
        let usable = ms(30_000) - tm.safety(ms(30_000), &over);
        near(
            tm.budget(&clock, ms(30_000), &over, &at),
            usable / 20 + ms(900),
        );
        // Before its third measured move the usage does not count.
        assert_eq!(seat_using(0.5, 2).usage(3), None);
        near(
            tm.budget(&clock, ms(30_000), &seat_using(0.5, 2), &at),
            full,
        );
        assert_eq!(seat_using(0.5, 3).usage(3), Some(0.5));
        // The cap still binds: a third of the usable time plus the increment.
        let late = Decision {
            legal: 20,
            decisions_left: Some(4),
        };
        let seat = seat_using(0.1, 5);
        let usable = ms(3000) - tm.safety(ms(3000), &seat);
        near(
            tm.budget(&clock, ms(3000), &seat, &late),
            usable / 3 + ms(900),
        );
    }

    #[test]
    fn an_agent_that_stops_early_still_spends_its_clock() {
        // An agent that takes 40% of every budget (a search that stops once its decision is
        // settled) on the measured Azul control: with the usage counted it leaves less of
        // its clock unused than without, and never flags.
        let legal = [40, 30, 18, 9, 4, 1];
        let counted = TimeManager::default();
        let ignored = TimeManager {
            min_usage: 1.0,
            ..TimeManager::default()
        };
        let (with, least) = simulate_with(&counted, "1.5s+30ms", 27, &legal, ms(2), 0.4);
        let (without, _) = simulate_with(&ignored, "1.5s+30ms", 27, &legal, ms(2), 0.4);
        assert!(least > 0.0, "flag ({least})");
        assert!(
            with < 0.6 * without,
            "unused {with:.3} s with the usage counted, {without:.3} s without"
        );
        // Out of 1.5 s + 27 x 30 ms = 2.31 s, less than a fifth unused.
        assert!(with < 0.2 * 2.31, "{with:.3} s left");
    }
}
