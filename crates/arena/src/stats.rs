//! Statistics of a run: wins, draws and losses, win rates with 95% Wilson intervals,
//! score means and spreads, per-series rows (the thesis' Tables 2 and 3), Elo-style
//! ratings and the thesis' Figure 20 curve.
//!
//! A game gives every seat a *reward*: 1 for a sole win, 1/k for a win shared by k, 0
//! otherwise. An agent's win rate is its mean reward, so a two-player draw counts half.
//!
//! ```
//! use tessera_arena::stats::wilson;
//! let (lo, hi) = wilson(95.0, 100);
//! assert!((lo - 0.8882).abs() < 1e-4 && (hi - 0.9785).abs() < 1e-4);
//! ```

use serde::Serialize;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// One stored game, as the statistics need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Index in the run.
    pub index: u64,
    /// The table.
    pub table: u32,
    /// The series.
    pub series: u32,
    /// The deal within the series (games of one deal share a seed).
    pub deal: u64,
    /// The seat rotation within the deal.
    pub rotation: u32,
    /// Agent index at each seat.
    pub seats: Vec<usize>,
    /// Final score per seat.
    pub scores: Vec<i32>,
    /// Winning seats.
    pub winners: Vec<usize>,
}

impl GameRow {
    /// Reward of seat `s`: 1 for a sole win, 1/k for a win shared by k, else 0.
    pub fn reward(&self, s: usize) -> f64 {
        if self.winners.contains(&s) {
            1.0 / self.winners.len() as f64
        } else {
            0.0
        }
    }
}

/// The 95% Wilson score interval of `successes` out of `n` (successes may be fractional,
/// for draws counted half). Returns `(0, 1)` for `n = 0`.
pub fn wilson(successes: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = Z95 * Z95;
    let d = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / d;
    let half = Z95 / d * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At p = 0 (or 1) the bound is exactly 0 (or 1); rounding would leave 1e-17 inside.
    let lo = if p == 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if p == 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// Mean and sample standard deviation (0 for fewer than two values).
pub fn mean_sd(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// Results of one agent over a set of games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tally {
    /// The agent's label.
    pub agent: String,
    /// Games played.
    pub games: u64,
    /// Sole wins.
    pub wins: u64,
    /// Shared wins.
    pub draws: u64,
    /// Games not won.
    pub losses: u64,
    /// Sum of rewards (wins + shared wins' fractions).
    pub points: f64,
    /// `points / games`.
    pub win_rate: f64,
    /// 95% Wilson interval of the win rate, low end.
    pub ci_low: f64,
    /// 95% Wilson interval of the win rate, high end.
    pub ci_high: f64,
    /// Mean final score.
    pub score_mean: f64,
    /// Standard deviation of the final score.
    pub score_sd: f64,
}

fn tally<'a>(label: &str, agent: usize, games: impl Iterator<Item = &'a GameRow>) -> Tally {
    let (mut n, mut wins, mut draws, mut losses, mut points) = (0u64, 0u64, 0u64, 0u64, 0.0);
    let mut scores = Vec::new();
    for g in games {
        for (seat, &a) in g.seats.iter().enumerate() {
            if a != agent {
                continue;
            }
            n += 1;
            let r = g.reward(seat);
            points += r;
            if r == 1.0 {
                wins += 1;
            } else if r > 0.0 {
                draws += 1;
            } else {
                losses += 1;
            }
            scores.push(g.scores.get(seat).copied().unwrap_or(0) as f64);
        }
    }
    let (ci_low, ci_high) = wilson(points, n);
    let (score_mean, score_sd) = mean_sd(&scores);
    Tally {
        agent: label.to_string(),
        games: n,
        wins,
        draws,
        losses,
        points,
        win_rate: if n == 0 { 0.0 } else { points / n as f64 },
        ci_low,
        ci_high,
        score_mean,
        score_sd,
    }
}

/// One row of a per-series table: one table (pairing) and one series, or the whole run at
/// that table (`series = None`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeriesRow {
    /// The table.
    pub table: u32,
    /// The series from 1, or `None` for all series together.
    pub series: Option<u32>,
    /// Each agent at the table.
    pub agents: Vec<Tally>,
}

/// Elo-style rating of one agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The agent's label.
    pub agent: String,
    /// Rating on the Elo scale (400 points = 10:1 odds), mean 1500.
    pub elo: f64,
}

/// Everything printed at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Games counted.
    pub games: u64,
    /// Per agent, over all its games.
    pub agents: Vec<Tally>,
    /// Per table and series, then per table over all series.
    pub series: Vec<SeriesRow>,
    /// Elo-style ratings (Bradley-Terry fit of all pairwise results).
    pub ratings: Vec<Rating>,
}

/// Computes the summary of `rows` for agents with `labels` seated at `tables`.
pub fn summarize(labels: &[String], tables: &[Vec<usize>], rows: &[GameRow]) -> Summary {
    let agents = labels
        .iter()
        .enumerate()
        .map(|(i, l)| tally(l, i, rows.iter()))
        .collect();
    let mut series = Vec::new();
    for (t, members) in tables.iter().enumerate() {
        let at: Vec<&GameRow> = rows.iter().filter(|g| g.table == t as u32).collect();
        if at.is_empty() {
            continue;
        }
        let max_series = at.iter().map(|g| g.series).max().unwrap_or(0);
        for s in 0..=max_series {
            let games: Vec<&GameRow> = at.iter().copied().filter(|g| g.series == s).collect();
            if games.is_empty() {
                continue;
            }
            series.push(SeriesRow {
                table: t as u32,
                series: Some(s + 1),
                agents: members
                    .iter()
                    .map(|&a| tally(&labels[a], a, games.iter().copied()))
                    .collect(),
            });
        }
        series.push(SeriesRow {
            table: t as u32,
            series: None,
            agents: members
                .iter()
                .map(|&a| tally(&labels[a], a, at.iter().copied()))
                .collect(),
        });
    }
    let ratings = elo(labels.len(), &pairwise(labels.len(), rows))
        .into_iter()
        .zip(labels)
        .map(|(elo, l)| Rating {
            agent: l.clone(),
            elo,
        })
        .collect();
    Summary {
        games: rows.len() as u64,
        agents,
        series,
        ratings,
    }
}

/// Pairwise results: `m[a][b]` is what `a` scored against `b` (1 per game `a` finished
/// ahead, 1/2 per tie), over every pair of seats of every game. Seats are ranked by reward,
/// then by score.
pub fn pairwise(agents: usize, rows: &[GameRow]) -> Vec<Vec<f64>> {
    let mut m = vec![vec![0.0; agents]; agents];
    for g in rows {
        for i in 0..g.seats.len() {
            for j in i + 1..g.seats.len() {
                let (a, b) = (g.seats[i], g.seats[j]);
                if a == b || a >= agents || b >= agents {
                    continue;
                }
                let ki = (g.reward(i), g.scores.get(i).copied().unwrap_or(0));
                let kj = (g.reward(j), g.scores.get(j).copied().unwrap_or(0));
                match ki.partial_cmp(&kj) {
                    Some(std::cmp::Ordering::Greater) => m[a][b] += 1.0,
                    Some(std::cmp::Ordering::Less) => m[b][a] += 1.0,
                    _ => {
                        m[a][b] += 0.5;
                        m[b][a] += 0.5;
                    }
                }
            }
        }
    }
    m
}

/// Elo-style ratings from pairwise results: the Bradley-Terry maximum-likelihood fit
/// (minorization-maximization iterations), with one virtual draw added to every pair that
/// met so that an agent that never won or never lost still has a finite rating. Ratings are
/// `400 log10(strength)`, shifted to mean 1500; agents that played nobody get 1500.
///
/// ```
/// // A scored 2 of 3 against B; with the virtual draw that is 2.5 of 4, so the rating
/// // difference is 400 log10(2.5 / 1.5) = 88.7.
/// let r = tessera_arena::stats::elo(2, &[vec![0.0, 2.0], vec![1.0, 0.0]]);
/// assert!((r[0] - r[1] - 88.74).abs() < 0.01);
/// ```
pub fn elo(agents: usize, m: &[Vec<f64>]) -> Vec<f64> {
    let mut w = vec![vec![0.0; agents]; agents];
    for a in 0..agents {
        for b in 0..agents {
            if a != b && m[a][b] + m[b][a] > 0.0 {
                w[a][b] = m[a][b] + 0.5;
            }
        }
    }
    let n = |a: usize, b: usize| w[a][b] + w[b][a];
    let mut gamma = vec![1.0f64; agents];
    let active: Vec<bool> = (0..agents)
        .map(|a| (0..agents).any(|b| n(a, b) > 0.0))
        .collect();
    for _ in 0..10_000 {
        let mut next = gamma.clone();
        let mut change: f64 = 0.0;
        for a in 0..agents {
            if !active[a] {
                continue;
            }
            let wins: f64 = w[a].iter().sum();
            let denom: f64 = (0..agents)
                .filter(|&b| b != a && n(a, b) > 0.0)
                .map(|b| n(a, b) / (gamma[a] + gamma[b]))
                .sum();
            next[a] = wins / denom;
        }
        // Normalise: geometric mean 1 over active agents.
        let k = active.iter().filter(|&&x| x).count().max(1) as f64;
        let log_mean = (0..agents)
            .filter(|&a| active[a])
            .map(|a| next[a].ln())
            .sum::<f64>()
            / k;
        for a in 0..agents {
            if active[a] {
                next[a] /= log_mean.exp();
                change = change.max((next[a].ln() - gamma[a].ln()).abs());
            }
        }
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    gamma
        .iter()
        .zip(&active)
        .map(|(g, &on)| {
            if on {
                1500.0 + 400.0 * g.log10()
            } else {
                1500.0
            }
        })
        .collect()
}

/// One point of the Figure 20 curve.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeviationPoint {
    /// Games per block.
    pub games: u64,
    /// Number of disjoint blocks of that size averaged over.
    pub blocks: u64,
    /// Mean over blocks of |win rate in the block - 50%|.
    pub mean_deviation: f64,
    /// What a fair coin gives: E|X/N - 1/2| for X ~ Binomial(N, 1/2).
    pub fair_coin: f64,
}

/// The thesis' Figure 20: for each block size `N`, the run's games (in order) are cut into
/// disjoint blocks of `N`, and the absolute deviation from 50% of one agent's win rate is
/// averaged over blocks. `rewards` are that agent's rewards per game.
pub fn deviation_curve(rewards: &[f64], sizes: &[u64]) -> Vec<DeviationPoint> {
    sizes
        .iter()
        .filter(|&&n| n > 0 && n as usize <= rewards.len())
        .map(|&n| {
            let blocks: Vec<f64> = rewards
                .chunks_exact(n as usize)
                .map(|c| (c.iter().sum::<f64>() / n as f64 - 0.5).abs())
                .collect();
            DeviationPoint {
                games: n,
                blocks: blocks.len() as u64,
                mean_deviation: blocks.iter().sum::<f64>() / blocks.len() as f64,
                fair_coin: fair_coin_deviation(n),
            }
        })
        .collect()
}

/// E|X/N - 1/2| for X ~ Binomial(N, 1/2), computed exactly in log space.
pub fn fair_coin_deviation(n: u64) -> f64 {
    let nf = n as f64;
    let ln2 = std::f64::consts::LN_2;
    let mut ln_choose = 0.0f64; // ln C(n, 0)
    let mut sum = 0.0;
    for k in 0..=n {
        if k > 0 {
            ln_choose += ((n - k + 1) as f64).ln() - (k as f64).ln();
        }
        let p = (ln_choose - nf * ln2).exp();
        sum += p * (k as f64 / nf - 0.5).abs();
    }
    sum
}

/// The block sizes of Figure 20: 10 to 10,000 in a 1-2-5 progression.
pub const FIGURE20_SIZES: [u64; 10] = [10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000];

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} vs {b}");
    }

    #[test]
    fn wilson_matches_hand_computed_values() {
        let (lo, hi) = wilson(5.0, 10);
        close(lo, 0.236593, 1e-6);
        close(hi, 0.763407, 1e-6);
        let (lo, hi) = wilson(95.0, 100);
        close(lo, 0.888250, 1e-6);
        close(hi, 0.978456, 1e-6);
        let (lo, hi) = wilson(0.0, 10);
        assert_eq!(lo, 0.0, "exactly 0, not a rounding error above it");
        close(hi, 0.277533, 1e-6);
        for n in [3, 6, 18, 1000] {
            assert_eq!(wilson(0.0, n).0, 0.0, "{n}");
            assert_eq!(wilson(n as f64, n).1, 1.0, "{n}");
        }
        assert_eq!(wilson(0.0, 0), (0.0, 1.0));
    }

    #[test]
    fn mean_and_spread() {
        let (m, s) = mean_sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        close(m, 5.0, 1e-12);
        close(s, (32.0f64 / 7.0).sqrt(), 1e-12);
        assert_eq!(mean_sd(&[3.0]), (3.0, 0.0));
    }

    fn row(index: u64, seats: [usize; 2], scores: [i32; 2], winners: &[usize]) -> GameRow {
        GameRow {
            index,
            table: 0,
            series: (index / 2) as u32,
            deal: 0,
            rotation: (index % 2) as u32,
            seats: seats.to_vec(),
            scores: scores.to_vec(),
            winners: winners.to_vec(),
        }
    }

    #[test]
    fn tallies_count_draws_half() {
        let labels = vec!["a".to_string(), "b".to_string()];
        let rows = vec![
            row(0, [0, 1], [10, 5], &[0]),
            row(1, [1, 0], [8, 8], &[0, 1]),
            row(2, [0, 1], [3, 9], &[1]),
            row(3, [1, 0], [1, 7], &[0]),
        ];
        let s = summarize(&labels, &[vec![0, 1]], &rows);
        let a = &s.agents[0];
        assert_eq!((a.games, a.wins, a.draws, a.losses), (4, 1, 1, 2));
        close(a.points, 1.5, 1e-12);
        close(a.win_rate, 0.375, 1e-12);
        close(a.score_mean, (10.0 + 8.0 + 3.0 + 7.0) / 4.0, 1e-12);
        let b = &s.agents[1];
        assert_eq!((b.wins, b.draws, b.losses), (2, 1, 1));
        // Two series rows and the all-series row.
        assert_eq!(s.series.len(), 3);
        close(s.series[0].agents[0].win_rate, 0.75, 1e-12);
        close(s.series[1].agents[0].win_rate, 0.0, 1e-12);
        assert_eq!(s.series[2].series, None);
        // Pairwise: a beat b once, lost twice (game 3's winner b scored less but won),
        // drew once.
        let m = pairwise(2, &rows);
        close(m[0][1], 1.5, 1e-12);
        close(m[1][0], 2.5, 1e-12);
    }

    #[test]
    fn elo_on_a_chain_fits_every_edge() {
        // A beat B 2:1, B beat C 2:1, A and C never met: the maximum-likelihood fit (with
        // one virtual draw per pair: 2.5 of 4) puts 400 log10(5/3) between neighbours.
        let m = vec![
            vec![0.0, 2.0, 0.0],
            vec![1.0, 0.0, 2.0],
            vec![0.0, 1.0, 0.0],
        ];
        let r = elo(3, &m);
        let d = 400.0 * (5.0f64 / 3.0).log10();
        close(r[0] - r[1], d, 1e-6);
        close(r[1] - r[2], d, 1e-6);
        close((r[0] + r[1] + r[2]) / 3.0, 1500.0, 1e-6);
    }

    #[test]
    fn elo_of_a_symmetric_cycle_is_flat_and_of_strangers_is_1500() {
        let m = vec![
            vec![0.0, 3.0, 1.0, 0.0],
            vec![1.0, 0.0, 3.0, 0.0],
            vec![3.0, 1.0, 0.0, 0.0],
            vec![0.0, 0.0, 0.0, 0.0],
        ];
        for x in elo(4, &m) {
            close(x, 1500.0, 1e-6);
        }
    }

    #[test]
    fn fair_coin_deviation_exact() {
        // N = 2: |0-1/2|/4 + 0 + |1-1/2|/4 = 1/4.
        close(fair_coin_deviation(2), 0.25, 1e-12);
        // N = 10: sum_k C(10,k)/1024 |k/10 - 1/2| = 0.123046875.
        close(fair_coin_deviation(10), 0.123046875, 1e-12);
        // Large N approaches sqrt(1/(2 pi N)).
        close(
            fair_coin_deviation(10_000),
            (1.0 / (2.0 * std::f64::consts::PI * 10_000.0)).sqrt(),
            1e-5,
        );
    }

    #[test]
    fn deviation_curve_blocks() {
        let rewards = [1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.5];
        let c = deviation_curve(&rewards, &[2, 4, 8, 16]);
        assert_eq!(c.len(), 3);
        // Blocks of 2: 1.0, 0.5, 0.0, 0.5 -> deviations .5, 0, .5, 0 -> mean .25.
        close(c[0].mean_deviation, 0.25, 1e-12);
        assert_eq!(c[0].blocks, 4);
        // Blocks of 4: .75 and .25 -> .25.
        close(c[1].mean_deviation, 0.25, 1e-12);
        close(c[2].mean_deviation, 0.0, 1e-12);
    }
}
