//! The sequential probability ratio test (SPRT) on pentanomial pair counts.
//!
//! Two hypotheses about the first player's strength: H0 "Elo = elo0" against H1 "Elo = elo1"
//! (`elo0 < elo1`). After every pair the *generalized log-likelihood ratio* (GLLR) of the
//! pentanomial counts is compared with Wald's bounds `ln(beta / (1 - alpha))` and
//! `ln((1 - beta) / alpha)`: below the lower bound H0 is accepted, above the upper bound H1,
//! in between the test continues. This is the method of fishtest (`LLRcalc.py`, after
//! Michel Van den Bergh's notes) and fastchess; `docs/statistics.md` gives the derivation.
//!
//! The GLLR of counts `n_i` (`N` pairs, outcomes `a_i = i/4`) is
//! `N · Σ p̂_i ln(q1_i / q0_i)`, where `p̂_i = n_i / N` and `qk` is the distribution closest to
//! `p̂` (maximum likelihood) whose expected score is `sk` (logistic model) or whose t-value
//! `(mu - ½) / sigma` is `tk` (normalized model). For the expected score the maximiser is
//! `qk_i = p̂_i / (1 + x (a_i - sk))` with `x` the root of `Σ p̂_i (a_i - sk) / (1 + x (a_i - sk)) = 0`.
//!
//! ```
//! use tessera_arena::sprt::{Decision, EloModel, SprtParams};
//! let sprt = SprtParams::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
//! let (lo, hi) = sprt.bounds();
//! assert!((lo + 2.944_438_979).abs() < 1e-9 && (hi - 2.944_438_979).abs() < 1e-9);
//! assert_eq!(sprt.decide(&[400, 2000, 5000, 2100, 500]), Decision::AcceptH1);
//! ```

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::pentanomial::{NELO_PER_T, logistic_score};

/// Which Elo the hypotheses are stated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic Elo: the expected per-game score is `1 / (1 + 10^(-elo/400))`.
    Logistic,
    /// Normalized Elo (fishtest/fastchess nElo): `(score - ½) / sigma_per_game · 800/ln 10`,
    /// where `sigma_per_game² = 2 · (variance of a pair's mean score)`.
    Normalized,
}

/// A test's parameters were not a test.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum SprtError {
    /// alpha or beta outside (0, 1), or alpha + beta ≥ 1.
    #[error(
        "SPRT error rates alpha={alpha}, beta={beta}: each must lie strictly between 0 and 1 and their sum below 1"
    )]
    Rates {
        /// The false-positive rate given.
        alpha: f64,
        /// The false-negative rate given.
        beta: f64,
    },
    /// elo0 not below elo1, or not finite.
    #[error(
        "SPRT hypotheses elo0={elo0}, elo1={elo1}: both must be finite numbers with elo0 < elo1"
    )]
    Hypotheses {
        /// H0's Elo.
        elo0: f64,
        /// H1's Elo.
        elo1: f64,
    },
}

/// The state of a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Decision {
    /// The LLR lies strictly between the bounds: play on.
    Continue,
    /// The LLR reached the lower bound: accept H0 (Elo = elo0).
    AcceptH0,
    /// The LLR reached the upper bound: accept H1 (Elo = elo1).
    AcceptH1,
}

/// A validated SPRT. Stored with a run (in its parameters), so it is `Eq`: [`SprtParams::new`]
/// admits only finite numbers, never NaN.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtParams {
    /// H0's Elo.
    pub elo0: f64,
    /// H1's Elo.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// The scale of `elo0` and `elo1`.
    pub model: EloModel,
}

impl Eq for SprtParams {}

/// Outcome values of the five pentanomial buckets (per-game score of the pair).
const A: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What replaces an empty bucket so that every log is finite (fishtest's `regularize`).
const EMPTY_BUCKET: f64 = 1e-3;

impl SprtParams {
    /// A test of `elo0` against `elo1` with error rates `alpha` and `beta`.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<SprtParams, SprtError> {
        let rate_ok = |r: f64| r > 0.0 && r < 1.0;
        if !(rate_ok(alpha) && rate_ok(beta) && alpha + beta < 1.0) {
            return Err(SprtError::Rates { alpha, beta });
        }
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::Hypotheses { elo0, elo1 });
        }
        Ok(SprtParams {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Wald's bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of pentanomial counts (LL, LD+DL, DD+WL+LW,
    /// WD+DW, WW); 0 with no pairs. Empty buckets count as 0.001 pairs, as in fishtest.
    pub fn llr(&self, counts: &[u64; 5]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let (n, p) = regularized(counts);
        let (q0, q1) = match self.model {
            EloModel::Logistic => (
                mle_expected(&p, logistic_score(self.elo0)),
                mle_expected(&p, logistic_score(self.elo1)),
            ),
            EloModel::Normalized => {
                // A pair's t-value is sqrt(2) times the per-game one.
                let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
                (mle_t_value(&p, t(self.elo0)), mle_t_value(&p, t(self.elo1)))
            }
        };
        match (q0, q1) {
            (Some(q0), Some(q1)) => {
                n * (0..5)
                    .map(|i| p[i] * (q1[i].ln() - q0[i].ln()))
                    .sum::<f64>()
            }
            // No distribution with that statistic fits (cannot happen for the logistic model
            // with regularized counts); no evidence either way.
            _ => 0.0,
        }
    }

    /// The decision for these counts.
    pub fn decide(&self, counts: &[u64; 5]) -> Decision {
        decision(self.llr(counts), self.bounds())
    }
}

fn decision(llr: f64, (lo, hi): (f64, f64)) -> Decision {
    if llr >= hi {
        Decision::AcceptH1
    } else if llr <= lo {
        Decision::AcceptH0
    } else {
        Decision::Continue
    }
}

/// The normal approximation of the logistic GLLR (fishtest's `LLR_alt2`, Van den Bergh,
/// "GSPRT approximation"): `N (s1 - s0)(2 s - s0 - s1) / (2 var)`, with `s`, `var` the
/// observed mean and variance of a pair's score. A cross-check of [`SprtParams::llr`].
pub fn llr_normal_approx(elo0: f64, elo1: f64, counts: &[u64; 5]) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (n, p) = regularized(counts);
    let (s, var) = mean_var(&p, &A);
    let (s0, s1) = (logistic_score(elo0), logistic_score(elo1));
    n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
}

/// Counts with empty buckets replaced by [`EMPTY_BUCKET`]: (total, frequencies).
fn regularized(counts: &[u64; 5]) -> (f64, [f64; 5]) {
    let c = counts.map(|c| if c == 0 { EMPTY_BUCKET } else { c as f64 });
    let n: f64 = c.iter().sum();
    (n, c.map(|x| x / n))
}

fn mean_var(p: &[f64; 5], a: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = (0..5).map(|i| p[i] * a[i]).sum();
    let var = (0..5).map(|i| p[i] * (a[i] - mean).powi(2)).sum();
    (mean, var)
}

/// The root `x` of `Σ p_i b_i / (1 + x b_i) = 0` on the interval where every `1 + x b_i > 0`
/// (the "secular equation"); `None` unless the `b_i` take both signs. The left side falls
/// strictly with `x`, so bisection finds the root to machine precision.
fn secular(p: &[f64; 5], b: &[f64; 5]) -> Option<f64> {
    let (min, max) = b
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let f = |x: f64| (0..5).map(|i| p[i] * b[i] / (1.0 + x * b[i])).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    // Stay strictly inside the open interval.
    let margin = 1e-12 * (hi - lo);
    lo += margin;
    hi -= margin;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The maximum-likelihood distribution on the outcomes [`A`] with expected score `s`, given
/// the observed frequencies `p` (Van den Bergh, "support_MLE_multinomial", Prop. 1.1).
fn mle_expected(p: &[f64; 5], s: f64) -> Option<[f64; 5]> {
    let b = A.map(|a| a - s);
    let x = secular(p, &b)?;
    Some(std::array::from_fn(|i| p[i] / (1.0 + x * b[i])))
}

/// The maximum-likelihood distribution with t-value `(mu - ½) / sigma = t`, by the fixed
/// point iteration of Van den Bergh, "normalized_elo_practical", §4.1.
fn mle_t_value(p: &[f64; 5], t: f64) -> Option<[f64; 5]> {
    let mut q = [0.2; 5];
    for _ in 0..100 {
        let (mu, var) = mean_var(&q, &A);
        let sigma = var.sqrt();
        let b: [f64; 5] = std::array::from_fn(|i| {
            A[i] - 0.5 - t * sigma * (1.0 + ((mu - A[i]) / sigma).powi(2)) / 2.0
        });
        let x = secular(p, &b)?;
        let next: [f64; 5] = std::array::from_fn(|i| p[i] / (1.0 + x * b[i]));
        let change = (0..5).map(|i| (next[i] - q[i]).abs()).fold(0.0, f64::max);
        q = next;
        if change < 1e-13 {
            break;
        }
    }
    Some(q)
}

/// A finished (or abandoned) sequential run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtRun {
    /// The decision when the run stopped.
    pub decision: Decision,
    /// Pairs consumed.
    pub pairs: u64,
    /// The LLR after the last pair.
    pub llr: f64,
    /// The pentanomial counts after the last pair.
    pub counts: [u64; 5],
}

/// Feeds pair outcomes (bucket indices 0..=4: a pair's half-points) one by one and stops at
/// the first pair after which the LLR lies on or beyond a bound, consuming nothing more.
/// If the outcomes run out first the decision is [`Decision::Continue`].
pub fn run_sequential(params: &SprtParams, outcomes: impl IntoIterator<Item = usize>) -> SprtRun {
    let bounds = params.bounds();
    let mut run = SprtRun {
        decision: Decision::Continue,
        pairs: 0,
        llr: 0.0,
        counts: [0; 5],
    };
    for bucket in outcomes {
        run.counts[bucket.min(4)] += 1;
        run.pairs += 1;
        run.llr = params.llr(&run.counts);
        run.decision = decision(run.llr, bounds);
        if run.decision != Decision::Continue {
            break;
        }
    }
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use tessera_core::rng::seeded;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() < tol, "{a} != {b} (tolerance {tol})");
    }

    #[test]
    fn parameters_are_validated() {
        assert!(SprtParams::new(0.0, 5.0, 0.0, 0.05, EloModel::Logistic).is_err());
        assert!(SprtParams::new(0.0, 5.0, 0.6, 0.5, EloModel::Logistic).is_err());
        assert!(SprtParams::new(5.0, 5.0, 0.05, 0.05, EloModel::Logistic).is_err());
        assert!(SprtParams::new(f64::NAN, 5.0, 0.05, 0.05, EloModel::Logistic).is_err());
        let e = SprtParams::new(10.0, 0.0, 0.05, 0.05, EloModel::Logistic).unwrap_err();
        assert!(e.to_string().contains("elo0 < elo1"));
    }

    /// ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439 (the fishtest/fastchess default
    /// bounds); with alpha = 0.05, beta = 0.1: ln(0.1/0.95) = -2.251292, ln(0.9/0.05) = 2.890372.
    #[test]
    fn bounds_match_wald() {
        let p = SprtParams::new(0.0, 2.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        close(p.bounds().0, -2.944_438_979_166_44, 1e-12);
        close(p.bounds().1, 2.944_438_979_166_44, 1e-12);
        let p = SprtParams::new(0.0, 2.0, 0.05, 0.1, EloModel::Logistic).unwrap();
        close(p.bounds().0, -2.251_291_798_606_495, 1e-12);
        close(p.bounds().1, 2.890_371_757_896_165, 1e-12);
    }

    /// Reference values from fishtest's published formulas (`LLRcalc.LLR_logistic` and
    /// `LLR_alt2`), transcribed to Python and evaluated with a separate bisection.
    #[test]
    fn logistic_llr_matches_fishtest_formulas() {
        let counts = [400, 2000, 5000, 2100, 500];
        let p = SprtParams::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        close(p.llr(&counts), 5.841_598_213_996_522, 1e-7);
        close(
            llr_normal_approx(0.0, 5.0, &counts),
            5.841_323_607_941_319,
            1e-9,
        );
        let small = [1, 2, 3, 2, 2];
        let p = SprtParams::new(0.0, 2.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        close(p.llr(&small), 0.014_155_375_103_976_02, 1e-9);
        close(
            llr_normal_approx(0.0, 2.0, &small),
            0.014_335_175_625_059_128,
            1e-12,
        );
    }

    /// The constrained maximiser really is one: it is a distribution with the required mean,
    /// and no feasible perturbation (keeping the sum and the mean) raises Σ p ln q.
    #[test]
    fn mle_expected_is_the_constrained_maximum() {
        let (_, p) = regularized(&[3, 10, 30, 12, 2]);
        for s in [0.3, 0.5, 0.52, 0.7] {
            let q = mle_expected(&p, s).unwrap();
            close(q.iter().sum::<f64>(), 1.0, 1e-9);
            close(mean_var(&q, &A).0, s, 1e-9);
            let obj = |q: &[f64; 5]| (0..5).map(|i| p[i] * q[i].ln()).sum::<f64>();
            // Directions orthogonal to (1,..,1) and to A: second differences.
            let dirs = [
                [1.0, -2.0, 1.0, 0.0, 0.0],
                [0.0, 1.0, -2.0, 1.0, 0.0],
                [0.0, 0.0, 1.0, -2.0, 1.0],
            ];
            for d in dirs {
                for eps in [1e-4, -1e-4] {
                    let moved: [f64; 5] = std::array::from_fn(|i| q[i] + eps * d[i]);
                    assert!(obj(&moved) < obj(&q), "s={s} eps={eps} d={d:?}");
                }
            }
        }
    }

    /// The normalized test: the MLE has the required t-value, and for small Elo the LLR
    /// agrees with fishtest's closed-form approximation `LLR_normalized_alt`
    /// (`games/2 · ln((1 + (nt - nt0)²) / (1 + (nt - nt1)²))`).
    #[test]
    fn normalized_llr_matches_its_approximation() {
        let counts = [400, 2000, 5000, 2100, 500];
        let (_, p) = regularized(&counts);
        let q = mle_t_value(&p, 0.05).unwrap();
        let (mu, var) = mean_var(&q, &A);
        close((mu - 0.5) / var.sqrt(), 0.05, 1e-9);

        let params = SprtParams::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        let (n, p) = regularized(&counts);
        let (mu, var) = mean_var(&p, &A);
        let nt = (mu - 0.5) / (2.0 * var).sqrt();
        let (nt0, nt1) = (0.0, 5.0 / NELO_PER_T);
        let approx = n * ((1.0 + (nt - nt0).powi(2)) / (1.0 + (nt - nt1).powi(2))).ln();
        let exact = params.llr(&counts);
        assert!(exact > 1.0, "{exact}");
        close(exact / approx, 1.0, 0.02);
    }

    #[test]
    fn decision_follows_the_llr() {
        let p = SprtParams::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        assert_eq!(p.decide(&[0; 5]), Decision::Continue);
        assert_eq!(p.llr(&[0; 5]), 0.0);
        assert_eq!(p.decide(&[400, 2000, 5000, 2100, 500]), Decision::AcceptH1);
        assert_eq!(p.decide(&[500, 2100, 5000, 2000, 400]), Decision::AcceptH0);
        assert_eq!(p.decide(&[1, 2, 3, 2, 2]), Decision::Continue);
    }

    /// Pair probabilities when the two games of a pair are independent, each won with
    /// probability `s - d/2`, drawn with probability `d`: LL = l², LD+DL = 2ld,
    /// DD+WL+LW = d² + 2wl, WD+DW = 2wd, WW = w². The mean pair score is `s`.
    fn pair_distribution(elo: f64, draws: f64) -> [f64; 5] {
        let s = logistic_score(elo);
        let (w, d) = (s - draws / 2.0, draws);
        let l = 1.0 - w - d;
        [l * l, 2.0 * l * d, d * d + 2.0 * w * l, 2.0 * w * d, w * w]
    }

    fn draw_bucket(rng: &mut impl Rng, cumulative: &[f64; 5]) -> usize {
        let u: f64 = rng.random();
        cumulative.iter().position(|&c| u < c).unwrap_or(4)
    }

    fn acceptance_rates(params: &SprtParams, true_elo: f64, runs: u64, seed: u64) -> (f64, f64) {
        let dist = pair_distribution(true_elo, 0.3);
        close(dist.iter().sum::<f64>(), 1.0, 1e-12);
        let mut cumulative = dist;
        for i in 1..5 {
            cumulative[i] += cumulative[i - 1];
        }
        let mut rng = seeded(seed);
        let (mut h0, mut h1) = (0u64, 0u64);
        for _ in 0..runs {
            let outcomes =
                std::iter::repeat_with(|| draw_bucket(&mut rng, &cumulative)).take(100_000);
            match run_sequential(params, outcomes).decision {
                Decision::AcceptH0 => h0 += 1,
                Decision::AcceptH1 => h1 += 1,
                Decision::Continue => panic!("a run did not finish in 100000 pairs"),
            }
        }
        (h0 as f64 / runs as f64, h1 as f64 / runs as f64)
    }

    /// With true Elo = elo0 the test accepts H1 at most alpha of the time, with true Elo =
    /// elo1 it accepts H0 at most beta of the time. 600 runs each: the binomial standard
    /// deviation of a 5% rate is sqrt(0.05·0.95/600) = 0.0089, so the limit allows 3 of them
    /// (0.0767). Wald's bounds are conservative when the LLR overshoots, so the rates
    /// usually come out below 5%.
    #[test]
    fn simulated_error_rates_stay_within_alpha_and_beta() {
        let params = SprtParams::new(0.0, 40.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        let runs = 600;
        let limit = 0.05 + 3.0 * (0.05f64 * 0.95 / runs as f64).sqrt();
        let (_, false_positive) = acceptance_rates(&params, 0.0, runs, 11);
        let (false_negative, _) = acceptance_rates(&params, 40.0, runs, 12);
        eprintln!(
            "false positive {false_positive}, false negative {false_negative}, limit {limit}"
        );
        assert!(
            false_positive <= limit,
            "H1 accepted in {false_positive} of runs at elo0"
        );
        assert!(
            false_negative <= limit,
            "H0 accepted in {false_negative} of runs at elo1"
        );
        // And the test has power: far from elo0 it nearly always accepts H1.
        let (_, power) = acceptance_rates(&params, 80.0, 200, 13);
        eprintln!("power at 80 Elo {power}");
        assert!(power > 0.97, "{power}");
    }

    /// The run stops at the first pair that crosses a bound: the pairs consumed are exactly
    /// those reported, and the LLR one pair earlier lay strictly inside the bounds.
    #[test]
    fn a_run_stops_at_the_first_crossing() {
        let params = SprtParams::new(0.0, 40.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        let mut cumulative = pair_distribution(80.0, 0.3);
        for i in 1..5 {
            cumulative[i] += cumulative[i - 1];
        }
        let mut rng = seeded(5);
        let outcomes: Vec<usize> = (0..50_000)
            .map(|_| draw_bucket(&mut rng, &cumulative))
            .collect();
        let mut consumed = 0u64;
        let run = run_sequential(
            &params,
            outcomes.iter().map(|&b| {
                consumed += 1;
                b
            }),
        );
        assert_eq!(run.decision, Decision::AcceptH1);
        assert_eq!(consumed, run.pairs);
        assert!(run.pairs < 5_000, "{}", run.pairs);
        let (lo, hi) = params.bounds();
        assert!(run.llr >= hi);
        let mut before = [0u64; 5];
        for &b in &outcomes[..run.pairs as usize - 1] {
            before[b] += 1;
        }
        let prior = params.llr(&before);
        assert!(lo < prior && prior < hi, "{prior}");
        assert_eq!(run.counts.iter().sum::<u64>(), run.pairs);
    }
}
