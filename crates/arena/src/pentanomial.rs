//! Pair-aware statistics for two players who play each deal twice with the seats swapped.
//!
//! The two games of a deal are strongly correlated (the same tiles favour the same seat), so
//! the *pair* is the independent observation. A pair scores 0, ½, 1, 1½ or 2 points for the
//! first player; the five counts (LL, LD+DL, DD+WL+LW, WD+DW, WW) are the *pentanomial*
//! distribution. Its mean (per game, so in `[0, 1]`) and variance give the score's interval;
//! the logistic Elo difference follows from the score. The game-wise (*trinomial*: L, D, W)
//! figures, which wrongly treat the two games of a deal as independent, sit beside them for
//! comparison. See `docs/statistics.md` for the formulas and references (fishtest's
//! `stat_util.py`/`LLRcalc.py`, fastchess).
//!
//! ```
//! use tessera_arena::pentanomial::{GameResult::*, Pentanomial};
//! let mut p = Pentanomial::default();
//! p.add_pair(Win, Draw);
//! p.add_pair(Loss, Win);
//! assert_eq!(p.counts, [0, 0, 1, 1, 0]);
//! assert_eq!(p.games, [1, 1, 2]);
//! assert!((p.pentanomial().score - 0.625).abs() < 1e-12);
//! ```

use serde::Serialize;

use crate::stats::Z95;

/// The normalized Elo of a t-value: `800 / ln 10` (fishtest's `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// One game's result for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Lost: 0 points.
    Loss,
    /// Drawn: ½ point.
    Draw,
    /// Won: 1 point.
    Win,
}

impl GameResult {
    /// Half-points: 0, 1 or 2.
    pub fn half_points(self) -> usize {
        match self {
            GameResult::Loss => 0,
            GameResult::Draw => 1,
            GameResult::Win => 2,
        }
    }
}

/// The logistic Elo difference of a per-game score `s`: `400 log10(s / (1 - s))`.
/// Infinite at 0 and 1.
pub fn logistic_elo(s: f64) -> f64 {
    400.0 * (s / (1.0 - s)).log10()
}

/// The expected per-game score of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Counts of pairs and of games for the first of two players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    /// Pairs scoring 0, ½, 1, 1½, 2 points: LL, LD+DL, DD+WL+LW, WD+DW, WW.
    pub counts: [u64; 5],
    /// Single games: losses, draws, wins.
    pub games: [u64; 3],
}

/// A score estimate with its 95% interval, on the three scales.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Independent observations used (pairs for the pentanomial, games for the trinomial).
    pub observations: u64,
    /// Mean score per game, in `[0, 1]`.
    pub score: f64,
    /// Variance of one observation's score (a pair's mean score, or a game's score).
    pub variance: f64,
    /// Standard error of `score`: `sqrt(variance / observations)`.
    pub std_error: f64,
    /// 95% interval of the score: `score ± 1.96 std_error`, clamped to `[0, 1]`.
    pub score_interval: (f64, f64),
    /// Logistic Elo difference of `score`.
    pub elo: f64,
    /// The score interval mapped through [`logistic_elo`] (asymmetric; infinite at 0 or 1).
    pub elo_interval: (f64, f64),
    /// Normalized Elo (fishtest/fastchess nElo): `(score - ½) / sigma_per_game * 800/ln 10`.
    /// `NaN` when the variance is 0.
    pub nelo: f64,
    /// The score interval mapped the same way: `(bound - ½) / sigma_per_game * 800/ln 10`.
    pub nelo_interval: (f64, f64),
}

impl Pentanomial {
    /// Pentanomial counts (LL, LD+DL, DD+WL+LW, WD+DW, WW) with no single-game tally
    /// (the game-wise figures then come out empty).
    pub fn from_counts(counts: [u64; 5]) -> Pentanomial {
        Pentanomial {
            counts,
            games: [0; 3],
        }
    }

    /// Records one deal: the first player's result in each of its two games.
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.counts[first.half_points() + second.half_points()] += 1;
        for g in [first, second] {
            self.games[g.half_points()] += 1;
        }
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The pair-aware estimate: one observation per pair, outcomes 0, ¼, ½, ¾, 1.
    pub fn pentanomial(&self) -> Estimate {
        estimate(&self.counts, 2.0)
    }

    /// The game-wise estimate: one observation per game, outcomes 0, ½, 1.
    pub fn trinomial(&self) -> Estimate {
        estimate(&self.games, 1.0)
    }
}

/// The estimate of a multinomial with `k` equally spaced outcomes `i / (k-1)`. An observation
/// is the mean of `games_per_observation` games (2 for pairs), which converts its variance
/// to a per-game variance for nElo: `sigma_pg^2 = games_per_observation * variance`.
fn estimate(counts: &[u64], games_per_observation: f64) -> Estimate {
    let n: u64 = counts.iter().sum();
    let k = counts.len();
    let nf = n as f64;
    let (mut score, mut variance) = (f64::NAN, f64::NAN);
    if n > 0 {
        let value = |i: usize| i as f64 / (k - 1) as f64;
        score = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * value(i))
            .sum::<f64>()
            / nf;
        variance = counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * (value(i) - score).powi(2))
            .sum::<f64>()
            / nf;
    }
    let std_error = (variance / nf).sqrt();
    let lo = (score - Z95 * std_error).max(0.0);
    let hi = (score + Z95 * std_error).min(1.0);
    let sigma_pg = (games_per_observation * variance).sqrt();
    let nelo_of = |s: f64| {
        if sigma_pg > 0.0 {
            (s - 0.5) / sigma_pg * NELO_PER_T
        } else {
            f64::NAN
        }
    };
    Estimate {
        observations: n,
        score,
        variance,
        std_error,
        score_interval: (lo, hi),
        elo: logistic_elo(score),
        elo_interval: (logistic_elo(lo), logistic_elo(hi)),
        nelo: nelo_of(score),
        nelo_interval: (nelo_of(lo), nelo_of(hi)),
    }
}

#[cfg(test)]
mod tests {
    use super::GameResult::*;
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() < tol, "{a} != {b} (tolerance {tol})");
    }

    #[test]
    fn pairs_fall_in_the_right_bucket() {
        let mut p = Pentanomial::default();
        let all = [Loss, Draw, Win];
        for a in all {
            for b in all {
                p.add_pair(a, b);
            }
        }
        // LL; LD, DL; LW, DD, WL; DW, WD; WW
        assert_eq!(p.counts, [1, 2, 3, 2, 1]);
        assert_eq!(p.games, [6, 6, 6]);
        assert_eq!(p.pairs(), 9);
    }

    #[test]
    fn logistic_elo_round_trips_and_matches_known_values() {
        // 400 log10(3) = 190.848...: a 75% score.
        close(logistic_elo(0.75), 190.848_501_887_864_9, 1e-9);
        close(logistic_score(190.848_501_887_864_9), 0.75, 1e-12);
        for elo in [-300.0, -10.0, 0.0, 5.0, 123.0] {
            close(logistic_elo(logistic_score(elo)), elo, 1e-9);
        }
        assert_eq!(logistic_elo(1.0), f64::INFINITY);
    }

    /// Counts [LL, LD, DD+WL, WD, WW] = [1, 2, 3, 2, 2], 10 pairs, worked by hand:
    /// mean = (0·1 + ¼·2 + ½·3 + ¾·2 + 1·2) / 10 = 5.5 / 10 = 0.55;
    /// variance = (1·0.55² + 2·0.30² + 3·0.05² + 2·0.20² + 2·0.45²) / 10
    ///          = (0.3025 + 0.18 + 0.0075 + 0.08 + 0.405) / 10 = 0.0975;
    /// se = sqrt(0.0975 / 10) = 0.098742088...; interval 0.55 ± 1.959964·se
    ///    = [0.3564691..., 0.7435309...];
    /// Elo = 400 log10(0.55/0.45) = 34.86007...; nElo = 0.05 / sqrt(2·0.0975) · 800/ln 10.
    #[test]
    fn pentanomial_worked_example() {
        let p = Pentanomial::from_counts([1, 2, 3, 2, 2]);
        let e = p.pentanomial();
        assert_eq!(e.observations, 10);
        close(e.score, 0.55, 1e-12);
        close(e.variance, 0.0975, 1e-12);
        close(e.std_error, 0.098_742_088_290_657_49, 1e-12);
        close(
            e.score_interval.0,
            0.55 - 1.959_963_984_540_054 * 0.098_742_088_290_657_49,
            1e-12,
        );
        close(e.score_interval.0, 0.356_469_1, 1e-6);
        close(e.score_interval.1, 0.743_530_9, 1e-6);
        close(e.elo, 34.860_070_287_560_08, 1e-6);
        close(e.elo_interval.0, logistic_elo(0.356_469_1), 1e-3);
        close(e.elo_interval.1, logistic_elo(0.743_530_9), 1e-3);
        close(
            e.nelo,
            0.05 / (2.0f64 * 0.0975).sqrt() * 347.435_585_522_601_46,
            1e-9,
        );
        close(e.nelo, 39.339_333, 1e-5);
    }

    /// Perfectly anti-correlated pairs (each deal won by the seat, WL every time) have a
    /// pentanomial variance of 0 while the game-wise variance is ¼: the independent-games
    /// interval is far too wide. Strongly correlated pairs (WW or LL) give the opposite.
    #[test]
    fn pair_and_game_figures_differ_when_games_are_correlated() {
        let mut seat = Pentanomial::default();
        for _ in 0..50 {
            seat.add_pair(Win, Loss);
        }
        let (pe, tr) = (seat.pentanomial(), seat.trinomial());
        close(pe.score, 0.5, 1e-12);
        close(tr.score, 0.5, 1e-12);
        close(pe.variance, 0.0, 1e-12);
        close(tr.variance, 0.25, 1e-12);
        assert_eq!(pe.score_interval, (0.5, 0.5));
        assert!(tr.score_interval.1 - tr.score_interval.0 > 0.19);
        assert!(pe.nelo.is_nan());

        let mut same = Pentanomial::default();
        for i in 0..40 {
            if i % 2 == 0 {
                same.add_pair(Win, Win);
            } else {
                same.add_pair(Loss, Loss);
            }
        }
        let (pe, tr) = (same.pentanomial(), same.trinomial());
        // 20 pairs of variance ¼ against 40 games of variance ¼: sqrt(2) wider.
        close(pe.std_error / tr.std_error, 2f64.sqrt(), 1e-12);
    }

    /// The trinomial on the same games by hand: 10 games, 3 L, 2 D, 5 W:
    /// mean = (1 + 5) / 10 = 0.6; variance = (3·0.36 + 2·0.01 + 5·0.16) / 10 = 0.19;
    /// se = sqrt(0.019); nElo = 0.1 / sqrt(0.19) · 800/ln 10.
    #[test]
    fn trinomial_worked_example() {
        let p = Pentanomial {
            counts: [0; 5],
            games: [3, 2, 5],
        };
        let e = p.trinomial();
        close(e.score, 0.6, 1e-12);
        close(e.variance, 0.19, 1e-12);
        close(e.std_error, 0.019f64.sqrt(), 1e-12);
        close(e.elo, 400.0 * 1.5f64.log10(), 1e-9);
        close(e.nelo, 0.1 / 0.19f64.sqrt() * NELO_PER_T, 1e-9);
        assert!(p.pentanomial().score.is_nan());
    }
}
