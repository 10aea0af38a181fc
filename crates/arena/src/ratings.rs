//! Maximum-likelihood Elo ratings for round robins and gauntlets, with standard errors, an
//! anchor, and likelihood-of-superiority (LOS) matrices.
//!
//! Model (Bradley–Terry on the logistic Elo scale): player `i` scores against `j` with
//! expectation `p_ij = 1 / (1 + 10^((r_j - r_i)/400))`; a draw counts as half a win for each
//! side (the usual Elo convention; no separate draw parameter). The ratings maximise the
//! likelihood `Π p_ij^{W_ij} (1 - p_ij)^{W_ji}` over all games, found by Hunter's (2004) MM
//! iteration `γ_i ← W_i / Σ_j n_ij / (γ_i + γ_j)` with `γ = 10^(r/400)`, then shifted so the
//! anchor has its given rating. Standard errors come from the inverse of the observed Fisher
//! information with the anchor's row and column removed (the anchor has no error; every
//! other player's error is relative to it). See `docs/statistics.md`.
//!
//! ```
//! use tessera_arena::ratings::{fit, Pairing};
//! // A scored 60 of 100 against B: 400 log10(60/40) = 70.44 Elo above B.
//! let r = fit(2, &[Pairing { a: 0, b: 1, wins: 50, draws: 20, losses: 30 }], 1, 0.0).unwrap();
//! assert!((r.elo[0] - 70.4365).abs() < 1e-3);
//! ```

use serde::Serialize;
use thiserror::Error;

/// Natural-log units per Elo point: `ln 10 / 400`.
const NAT_PER_ELO: f64 = std::f64::consts::LN_10 / 400.0;

/// Games between two players, from `a`'s side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Pairing {
    /// First player (index).
    pub a: usize,
    /// Second player (index).
    pub b: usize,
    /// Games `a` won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games `a` lost.
    pub losses: u64,
}

/// The data cannot give finite maximum-likelihood ratings.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum RatingError {
    /// A pairing or the anchor names a player that does not exist, or a player meets itself.
    #[error("player index {index} is not one of the {players} players (or plays itself)")]
    BadPlayer {
        /// The index given.
        index: usize,
        /// How many players there are.
        players: usize,
    },
    /// Not every player both scored against and conceded to the rest: the maximum-likelihood
    /// rating of some group is infinite (for example a player who won every game).
    #[error(
        "ratings are unbounded: player {player} cannot be compared both ways with the others (every player needs a path of scored points to and from every other)"
    )]
    NotConnected {
        /// A player outside the comparable group.
        player: usize,
    },
    /// The iteration did not settle.
    #[error("the rating fit did not converge in {iterations} iterations")]
    NoConvergence {
        /// Iterations run.
        iterations: usize,
    },
}

/// Fitted ratings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratings {
    /// Elo per player; the anchor has exactly its given rating.
    pub elo: Vec<f64>,
    /// Standard error per player in Elo (0 for the anchor).
    pub std_error: Vec<f64>,
    /// Covariance of the ratings in Elo² (anchor row and column 0).
    pub covariance: Vec<Vec<f64>>,
    /// MM iterations used.
    pub iterations: usize,
}

impl Ratings {
    /// 95% interval of a player's rating: `elo ± 1.96 std_error`.
    pub fn interval(&self, player: usize) -> (f64, f64) {
        let h = crate::stats::Z95 * self.std_error[player];
        (self.elo[player] - h, self.elo[player] + h)
    }

    /// Likelihood of superiority from the fitted ratings: `Φ((r_i - r_j) / sd(r_i - r_j))`
    /// with `var(r_i - r_j) = C_ii + C_jj - 2 C_ij` from the covariance (normal approximation
    /// of the MLE). The diagonal is ½.
    pub fn los_matrix(&self) -> Vec<Vec<f64>> {
        let n = self.elo.len();
        let c = &self.covariance;
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| {
                        let var = c[i][i] + c[j][j] - 2.0 * c[i][j];
                        if i == j || var <= 0.0 {
                            0.5
                        } else {
                            normal_cdf((self.elo[i] - self.elo[j]) / var.sqrt())
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// Points and games between every two players (draws as half points).
struct Tally {
    /// `W_i`: points of player `i` over all its games.
    points: Vec<f64>,
    /// `scored[i][j]`: points of `i` against `j`.
    scored: Vec<Vec<f64>>,
    /// `games[i][j]`: games between `i` and `j`.
    games: Vec<Vec<f64>>,
}

impl Tally {
    fn new(players: usize) -> Tally {
        Tally {
            points: vec![0.0; players],
            scored: vec![vec![0.0; players]; players],
            games: vec![vec![0.0; players]; players],
        }
    }

    /// `n` games between `a` and `b` in which `a` scored `wa` points.
    fn add(&mut self, a: usize, b: usize, wa: f64, n: f64) -> Result<(), RatingError> {
        let players = self.points.len();
        for index in [a, b] {
            if index >= players || a == b {
                return Err(RatingError::BadPlayer { index, players });
            }
        }
        self.points[a] += wa;
        self.points[b] += n - wa;
        self.scored[a][b] += wa;
        self.scored[b][a] += n - wa;
        self.games[a][b] += n;
        self.games[b][a] += n;
        Ok(())
    }
}

fn tally(players: usize, pairings: &[Pairing]) -> Result<Tally, RatingError> {
    let mut t = Tally::new(players);
    for p in pairings {
        let n = (p.wins + p.draws + p.losses) as f64;
        t.add(p.a, p.b, p.wins as f64 + 0.5 * p.draws as f64, n)?;
    }
    Ok(t)
}

/// Every player reaches every other along edges "scored a point against" and back
/// (Hunter's condition for a finite, unique MLE).
fn check_connected(scored: &[Vec<f64>]) -> Result<(), RatingError> {
    let n = scored.len();
    for forward in [true, false] {
        let mut seen = vec![false; n];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for j in 0..n {
                let edge = if forward { scored[i][j] } else { scored[j][i] };
                if edge > 0.0 && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        if let Some(player) = seen.iter().position(|&s| !s) {
            return Err(RatingError::NotConnected { player });
        }
    }
    Ok(())
}

/// Maximum-likelihood Elo of `players` players from their pairings, with `anchor` fixed at
/// `anchor_elo`.
pub fn fit(
    players: usize,
    pairings: &[Pairing],
    anchor: usize,
    anchor_elo: f64,
) -> Result<Ratings, RatingError> {
    if anchor >= players {
        return Err(RatingError::BadPlayer {
            index: anchor,
            players,
        });
    }
    let t = tally(players, pairings)?;
    let (elo, iterations) = maximise(&t, anchor, anchor_elo)?;
    let covariance = covariance(&elo, &t.games, anchor, None);
    Ok(Ratings::new(elo, covariance, iterations))
}

/// Deals played twice with the seats swapped, between two players, from `a`'s side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PairedPairing {
    /// First player (index).
    pub a: usize,
    /// Second player (index).
    pub b: usize,
    /// Pentanomial counts for `a`: pairs scoring 0, ½, 1, 1½, 2 points.
    pub counts: [u64; 5],
}

/// Pair-aware ratings: the same maximum-likelihood ratings as [`fit`] (they depend only on
/// points and games), but the covariance is the *sandwich* `I⁻¹ J I⁻¹`, where `J` is the
/// observed variance of the score equations with the pair as the independent unit:
/// pairing `(a, b)` contributes `Σ_k c_k (k/2 - 2 p_ab)²` (pair points about their fitted
/// mean). With independent games this equals the Fisher information on average; when the two
/// games of a deal are correlated it gives the right, different, error.
pub fn fit_paired(
    players: usize,
    pairings: &[PairedPairing],
    anchor: usize,
    anchor_elo: f64,
) -> Result<Ratings, RatingError> {
    if anchor >= players {
        return Err(RatingError::BadPlayer {
            index: anchor,
            players,
        });
    }
    let mut t = Tally::new(players);
    for p in pairings {
        let pairs: u64 = p.counts.iter().sum();
        let half_points: u64 = p
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| k as u64 * c)
            .sum();
        t.add(p.a, p.b, half_points as f64 / 2.0, 2.0 * pairs as f64)?;
    }
    let (elo, iterations) = maximise(&t, anchor, anchor_elo)?;
    let mut j = vec![vec![0.0; players]; players];
    for p in pairings {
        let expected = 2.0 * win_probability(elo[p.a] - elo[p.b]);
        let v: f64 = p
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (k as f64 / 2.0 - expected).powi(2))
            .sum();
        j[p.a][p.a] += v;
        j[p.b][p.b] += v;
        j[p.a][p.b] -= v;
        j[p.b][p.a] -= v;
    }
    let covariance = covariance(&elo, &t.games, anchor, Some(&j));
    Ok(Ratings::new(elo, covariance, iterations))
}

/// `1 / (1 + 10^(-d/400))`.
fn win_probability(d: f64) -> f64 {
    1.0 / (1.0 + (-d * NAT_PER_ELO).exp())
}

impl Ratings {
    fn new(elo: Vec<f64>, covariance: Vec<Vec<f64>>, iterations: usize) -> Ratings {
        let std_error = (0..elo.len())
            .map(|i| covariance[i][i].max(0.0).sqrt())
            .collect();
        Ratings {
            elo,
            std_error,
            covariance,
            iterations,
        }
    }
}

/// The MM iteration; ratings with the anchor at `anchor_elo`, and the iterations used.
fn maximise(t: &Tally, anchor: usize, anchor_elo: f64) -> Result<(Vec<f64>, usize), RatingError> {
    let Tally {
        points,
        scored,
        games,
    } = t;
    let players = points.len();
    check_connected(scored)?;
    // MM in γ = 10^(r/400), renormalised to geometric mean 1 each step.
    let mut gamma = vec![1.0; players];
    let max_iterations = 1_000_000;
    let mut iterations = 0;
    loop {
        iterations += 1;
        let mut next: Vec<f64> = (0..players)
            .map(|i| {
                let denom: f64 = (0..players)
                    .filter(|&j| j != i && games[i][j] > 0.0)
                    .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                    .sum();
                points[i] / denom
            })
            .collect();
        let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / players as f64;
        for g in &mut next {
            *g /= log_mean.exp();
        }
        let change = (0..players)
            .map(|i| (next[i].ln() - gamma[i].ln()).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-13 {
            break;
        }
        if iterations >= max_iterations {
            return Err(RatingError::NoConvergence { iterations });
        }
    }
    let raw: Vec<f64> = gamma.iter().map(|g| g.ln() / NAT_PER_ELO).collect();
    let elo: Vec<f64> = raw.iter().map(|r| r - raw[anchor] + anchor_elo).collect();
    Ok((elo, iterations))
}

/// Inverse Fisher information (in Elo²) with the anchor removed. The information of the
/// natural-scale ratings β = r ln10/400 is `I_ii = Σ_j n_ij p_ij (1 - p_ij)`,
/// `I_ij = -n_ij p_ij (1 - p_ij)`.
/// With `j` (the variance of the score equations) the result is the sandwich `I⁻¹ J I⁻¹`.
fn covariance(
    elo: &[f64],
    games: &[Vec<f64>],
    anchor: usize,
    j: Option<&Vec<Vec<f64>>>,
) -> Vec<Vec<f64>> {
    let n = elo.len();
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let m = free.len();
    let info = |i: usize, j: usize| {
        let p = 1.0 / (1.0 + (-(elo[i] - elo[j]) * NAT_PER_ELO).exp());
        games[i][j] * p * (1.0 - p)
    };
    let mut a = vec![vec![0.0; m]; m];
    for (x, &i) in free.iter().enumerate() {
        for (y, &j) in free.iter().enumerate() {
            a[x][y] = if i == j {
                (0..n).filter(|&k| k != i).map(|k| info(i, k)).sum()
            } else {
                -info(i, j)
            };
        }
    }
    let mut inv = invert(a);
    if let Some(j) = j {
        let jr: Vec<Vec<f64>> = free
            .iter()
            .map(|&i| free.iter().map(|&k| j[i][k]).collect())
            .collect();
        let left = multiply(&inv, &jr);
        inv = multiply(&left, &inv);
    }
    let scale = 1.0 / (NAT_PER_ELO * NAT_PER_ELO);
    let mut cov = vec![vec![0.0; n]; n];
    for (x, &i) in free.iter().enumerate() {
        for (y, &j) in free.iter().enumerate() {
            cov[i][j] = inv[x][y] * scale;
        }
    }
    cov
}

fn multiply(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let m = a.len();
    (0..m)
        .map(|i| {
            (0..m)
                .map(|j| (0..m).map(|k| a[i][k] * b[k][j]).sum())
                .collect()
        })
        .collect()
}

/// Gauss–Jordan inversion with partial pivoting of a symmetric positive definite matrix
/// (the information matrix of a connected comparison graph is one).
fn invert(mut a: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let m = a.len();
    let mut inv: Vec<Vec<f64>> = (0..m)
        .map(|i| (0..m).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..m {
        let pivot = (col..m)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for j in 0..m {
            a[col][j] /= d;
            inv[col][j] /= d;
        }
        for row in 0..m {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for j in 0..m {
                        a[row][j] -= f * a[col][j];
                        inv[row][j] -= f * inv[col][j];
                    }
                }
            }
        }
    }
    inv
}

/// Likelihood of superiority from game counts (the cutechess-cli/fastchess formula):
/// `LOS = Φ((w - l) / sqrt(w + l))`, draws ignored; ½ with no decisive game. Entry `[i][j]`
/// is the probability that `i` is stronger than `j`, summing all pairings of the two.
pub fn los_from_counts(players: usize, pairings: &[Pairing]) -> Result<Vec<Vec<f64>>, RatingError> {
    let mut w = vec![vec![0u64; players]; players];
    for p in pairings {
        for idx in [p.a, p.b] {
            if idx >= players || p.a == p.b {
                return Err(RatingError::BadPlayer {
                    index: idx,
                    players,
                });
            }
        }
        w[p.a][p.b] += p.wins;
        w[p.b][p.a] += p.losses;
    }
    Ok((0..players)
        .map(|i| (0..players).map(|j| los(w[i][j], w[j][i])).collect())
        .collect())
}

/// `Φ((w - l) / sqrt(w + l))`, ½ when `w + l = 0`.
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    normal_cdf((wins as f64 - losses as f64) / ((wins + losses) as f64).sqrt())
}

/// The standard normal distribution function `Φ(z) = ½ erfc(-z / √2)`.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// The complementary error function: Taylor series of erf for |x| < 3, Laplace's continued
/// fraction of erfc beyond (both converge to about 1e-14 there; tested against known values).
fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.abs() < 3.0 {
        // erf x = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        for n in 1..200 {
            term *= -x2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        1.0 - 2.0 / std::f64::consts::PI.sqrt() * sum
    } else if x > 0.0 {
        // erfc x = e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...)))))
        let mut f = x;
        for k in (1..=80).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        (-x * x).exp() / std::f64::consts::PI.sqrt() / f
    } else {
        2.0 - erfc(-x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() < tol, "{a} != {b} (tolerance {tol})");
    }

    fn pairing(a: usize, b: usize, wins: u64, draws: u64, losses: u64) -> Pairing {
        Pairing {
            a,
            b,
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn erfc_and_normal_cdf_match_known_values() {
        // Reference values: Python's math.erf / math.erfc.
        close(1.0 - erfc(0.5), 0.520_499_877_813_046_5, 1e-14);
        close(1.0 - erfc(3.5), 0.999_999_256_901_627_6, 1e-14);
        close(erfc(4.0), 1.541_725_790_028_002e-8, 1e-20); // Python math.erfc(4)
        close(normal_cdf(0.0), 0.5, 1e-15);
        close(normal_cdf(-1.0), 0.158_655_253_931_457_07, 1e-14);
        close(normal_cdf(1.959_963_984_540_054), 0.975, 1e-12);
        // Continuity at the switch between the two methods.
        close(erfc(2.999_999_999), erfc(3.000_000_001), 1e-12);
    }

    /// LOS by the cutechess/fastchess formula: 10 wins, 5 losses (draws ignored):
    /// Φ(5 / √15) = Φ(1.290994) = 0.901647.
    #[test]
    fn los_from_counts_worked_example() {
        close(los(10, 5), 0.901_647_198_770_526_6, 1e-12);
        close(los(5, 10), 1.0 - 0.901_647_198_770_526_6, 1e-12);
        assert_eq!(los(0, 0), 0.5);
        let m = los_from_counts(3, &[pairing(0, 1, 10, 7, 5), pairing(2, 0, 3, 0, 3)]).unwrap();
        close(m[0][1], 0.901_647_198_770_526_6, 1e-12);
        close(m[1][0], 0.098_352_801_229_473_4, 1e-12);
        close(m[0][2], 0.5, 1e-15);
        close(m[1][2], 0.5, 1e-15);
        assert!(los_from_counts(2, &[pairing(0, 2, 1, 0, 0)]).is_err());
    }

    /// Two players: the MLE is the logistic Elo of the score, and the Fisher standard error
    /// is 400/ln10 / sqrt(N p (1 - p)): 60 points in 100 games gives 400 log10 1.5 = 70.4365
    /// Elo, error 173.718 / sqrt(24) = 35.4600.
    #[test]
    fn two_players_closed_form() {
        let r = fit(2, &[pairing(0, 1, 50, 20, 30)], 1, 0.0).unwrap();
        close(r.elo[0], 70.436_503_622_272_5, 1e-8);
        close(r.elo[1], 0.0, 1e-12);
        close(r.std_error[0], 35.459_995_958_978_33, 1e-6);
        assert_eq!(r.std_error[1], 0.0);
        let (lo, hi) = r.interval(0);
        close(
            hi - lo,
            2.0 * 1.959_963_984_540_054 * 35.459_995_958_978_33,
            1e-5,
        );
        // The anchor moves everything rigidly.
        let shifted = fit(2, &[pairing(0, 1, 50, 20, 30)], 1, 1000.0).unwrap();
        close(shifted.elo[0], 1_070.436_503_622_272_5, 1e-8);
        // LOS from the fit: Φ(70.4365 / 35.46).
        close(
            r.los_matrix()[0][1],
            normal_cdf(70.436_503_622_272_5 / 35.459_995_958_978_33),
            1e-9,
        );
    }

    /// Cross-check with an independent method: Newton's method on the log-likelihood
    /// (gradient W_i - Σ_j n_ij p_ij, Hessian minus the information), anchor fixed, must
    /// land on the MM ratings; and at the MM solution every player's expected score equals
    /// its actual score.
    #[test]
    fn mm_agrees_with_newton_on_a_round_robin() {
        let games = [
            pairing(0, 1, 30, 10, 20),
            pairing(0, 2, 40, 5, 15),
            pairing(1, 2, 25, 20, 15),
            pairing(3, 0, 10, 10, 40),
            pairing(3, 1, 20, 10, 30),
            pairing(3, 2, 28, 4, 28),
        ];
        let r = fit(4, &games, 3, 0.0).unwrap();
        let Tally {
            points, games: n, ..
        } = tally(4, &games).unwrap();
        let p = |r: &[f64], i: usize, j: usize| 1.0 / (1.0 + 10f64.powf((r[j] - r[i]) / 400.0));
        for i in 0..4 {
            let expected: f64 = (0..4)
                .filter(|&j| j != i)
                .map(|j| n[i][j] * p(&r.elo, i, j))
                .sum();
            close(expected, points[i], 1e-8);
        }
        // Newton from zero, in natural units, anchor 3 fixed at 0.
        let mut beta = [0.0f64; 4];
        for _ in 0..50 {
            let elo: Vec<f64> = beta.iter().map(|b| b / NAT_PER_ELO).collect();
            let grad: Vec<f64> = (0..3)
                .map(|i| {
                    points[i]
                        - (0..4)
                            .filter(|&j| j != i)
                            .map(|j| n[i][j] * p(&elo, i, j))
                            .sum::<f64>()
                })
                .collect();
            let mut h = vec![vec![0.0; 3]; 3];
            for i in 0..3 {
                for j in 0..4 {
                    if j != i {
                        let q = p(&elo, i, j);
                        let v = n[i][j] * q * (1.0 - q);
                        h[i][i] += v;
                        if j < 3 {
                            h[i][j] -= v;
                        }
                    }
                }
            }
            let inv = invert(h);
            for (i, b) in beta.iter_mut().take(3).enumerate() {
                *b += (0..3).map(|j| inv[i][j] * grad[j]).sum::<f64>();
            }
        }
        for (elo, b) in r.elo.iter().zip(beta) {
            close(*elo, b / NAT_PER_ELO, 1e-7);
        }
        // Standard errors: symmetric covariance, positive variances, anchor exact.
        for i in 0..3 {
            assert!(
                r.std_error[i] > 10.0 && r.std_error[i] < 200.0,
                "{:?}",
                r.std_error
            );
            for j in 0..4 {
                close(r.covariance[i][j], r.covariance[j][i], 1e-8);
            }
        }
        assert_eq!(r.std_error[3], 0.0);
        let los = r.los_matrix();
        assert!(los[0][3] > 0.99 && los[3][0] < 0.01);
        close(los[1][2] + los[2][1], 1.0, 1e-12);
    }

    /// A gauntlet (one player against each of the others) is a star graph; with the
    /// centre as anchor each opponent's rating is its own two-player figure.
    #[test]
    fn gauntlet_with_the_centre_as_anchor() {
        let games = [pairing(0, 1, 50, 20, 30), pairing(0, 2, 20, 20, 60)];
        let r = fit(3, &games, 0, 0.0).unwrap();
        close(r.elo[1], -70.436_503_622_272_5, 1e-7);
        // B scored 70 of 100 against the centre: 400 log10(70/30).
        close(r.elo[2], 400.0 * (70.0f64 / 30.0).log10(), 1e-7);
        close(r.std_error[1], 35.459_995_958_978_33, 1e-5);
        // Disjoint comparisons: no covariance between the two opponents.
        close(r.covariance[1][2], 0.0, 1e-8);
    }

    /// Two players, 10 pairs [LL, LD, DD+WL, WD, WW] = [1, 2, 3, 2, 2] (the pentanomial
    /// module's worked example: score 0.55, pair variance 0.0975, se 0.0987421). The
    /// sandwich error is 400/ln10 · sqrt(J) / I with J = 10 · 4 · 0.0975 = 3.9 (pair points)
    /// and I = 20 · 0.55 · 0.45 = 4.95: 173.7178 · 1.974842 / 4.95 = 69.3058, the same as
    /// the delta method on the pentanomial interval, se(score) · 400/ln10 / (s (1 - s)).
    #[test]
    fn paired_errors_match_the_pentanomial_delta_method() {
        let r = fit_paired(
            2,
            &[PairedPairing {
                a: 0,
                b: 1,
                counts: [1, 2, 3, 2, 2],
            }],
            1,
            0.0,
        )
        .unwrap();
        close(r.elo[0], 400.0 * (0.55f64 / 0.45).log10(), 1e-8);
        let expected = 400.0 / std::f64::consts::LN_10 * 3.9f64.sqrt() / 4.95;
        close(r.std_error[0], expected, 1e-6);
        let delta = 0.098_742_088_290_657_49 * 400.0 / std::f64::consts::LN_10 / (0.55 * 0.45);
        close(r.std_error[0], delta, 1e-6);
        close(r.std_error[0], 69.305_8, 1e-3);
        // Anti-correlated deals (the seat decides: WL every time) carry no doubt at all.
        let seat = fit_paired(
            2,
            &[PairedPairing {
                a: 0,
                b: 1,
                counts: [0, 0, 50, 0, 0],
            }],
            1,
            0.0,
        )
        .unwrap();
        close(seat.elo[0], 0.0, 1e-9);
        close(seat.std_error[0], 0.0, 1e-9);
        // The game-wise fit of 100 games at 50% would claim 400/ln10 / sqrt(25) = 34.74.
        let games = fit(2, &[pairing(0, 1, 50, 0, 50)], 1, 0.0).unwrap();
        close(
            games.std_error[0],
            400.0 / std::f64::consts::LN_10 / 5.0,
            1e-9,
        );
    }

    #[test]
    fn unbounded_or_malformed_data_is_an_error() {
        // A player who won everything has an infinite rating.
        let e = fit(2, &[pairing(0, 1, 10, 0, 0)], 1, 0.0).unwrap_err();
        assert!(matches!(e, RatingError::NotConnected { .. }), "{e}");
        // Two groups that never met.
        let e = fit(4, &[pairing(0, 1, 3, 1, 3), pairing(2, 3, 3, 1, 3)], 0, 0.0).unwrap_err();
        assert!(matches!(e, RatingError::NotConnected { .. }));
        assert!(fit(2, &[pairing(0, 1, 3, 1, 3)], 5, 0.0).is_err());
        assert!(fit(2, &[pairing(0, 0, 3, 1, 3)], 0, 0.0).is_err());
        assert!(fit(2, &[pairing(0, 7, 3, 1, 3)], 0, 0.0).is_err());
        // Draws alone connect both ways.
        let r = fit(2, &[pairing(0, 1, 0, 4, 0)], 0, 0.0).unwrap();
        close(r.elo[1], 0.0, 1e-9);
    }
}
