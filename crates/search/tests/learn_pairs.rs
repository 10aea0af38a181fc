//! The pairwise fit of `augur`'s multi-player weights recovers a known conditional logit.
//!
//! Positions are drawn with random features for 3 and 4 players; the winner is drawn from
//! the conditional logit `P(p wins) = exp(w . f(p)) / sum_q exp(w . f(q))` with known
//! weights `w`; the rows are made by the same code `tessera train` uses
//! (`tessera_azul::augur::pair_rows`) and fitted by the logistic regression. The fitted
//! weights must come back near `w`. A check that the fit is not merely close to anything:
//! labelling every pair by "p won" (leaving in the pairs where neither won, as if a loss)
//! gives visibly wrong weights on the same games.

use rand::Rng;
use tessera_azul::augur::{NUM_FEATURES, pair_rows};
use tessera_core::rng::seeded;
use tessera_search::learn::{Dataset, fit_logistic};

const TRUE_W: [f64; 3] = [1.2, -0.6, 0.3];

fn games(players: usize, n: usize, seed: u64) -> Vec<(Vec<[f32; NUM_FEATURES]>, Vec<f64>)> {
    let mut rng = seeded(seed);
    (0..n)
        .map(|_| {
            let features: Vec<[f32; NUM_FEATURES]> = (0..players)
                .map(|_| {
                    let mut f = [0.0f32; NUM_FEATURES];
                    for x in f.iter_mut().take(3) {
                        *x = (rng.random::<f64>() * 4.0 - 2.0) as f32;
                    }
                    f
                })
                .collect();
            let v: Vec<f64> = features
                .iter()
                .map(|f| {
                    (0..3)
                        .map(|i| TRUE_W[i] * f64::from(f[i]))
                        .sum::<f64>()
                        .exp()
                })
                .collect();
            let total: f64 = v.iter().sum();
            let mut u = rng.random::<f64>() * total;
            let mut winner = players - 1;
            for (p, x) in v.iter().enumerate() {
                if u < *x {
                    winner = p;
                    break;
                }
                u -= x;
            }
            let shares = (0..players)
                .map(|p| if p == winner { 1.0 } else { 0.0 })
                .collect();
            (features, shares)
        })
        .collect()
}

fn fit(rows: impl Iterator<Item = ([f32; NUM_FEATURES], f64)>) -> Vec<f64> {
    let mut d = Dataset::new(NUM_FEATURES);
    for (diff, label) in rows {
        let x: Vec<f64> = diff.iter().map(|&v| f64::from(v)).collect();
        d.push(&x, label);
    }
    fit_logistic(&d, 1e-6, 50).weights
}

#[test]
fn the_pairwise_fit_recovers_a_known_conditional_logit() {
    for (players, seed) in [(3, 1), (4, 2)] {
        let data = games(players, 20_000, seed);
        let w = fit(data.iter().flat_map(|(f, s)| {
            pair_rows(f, s)
                .into_iter()
                .map(|(_, label, diff)| (diff, label))
        }));
        for (i, want) in TRUE_W.iter().enumerate() {
            assert!(
                (w[i] - want).abs() < 0.08,
                "{players} players, weight {i}: fitted {:.3}, true {want}",
                w[i]
            );
        }
        for (i, x) in w.iter().enumerate().skip(3) {
            assert!(x.abs() < 1e-6, "feature {i} is always 0: {x}");
        }
        // Every pair labelled by "p won", pairs without the winner as a loss for p: the
        // estimate is pulled away from the truth.
        let naive = fit(data.iter().flat_map(|(f, s)| {
            let n = f.len();
            let mut rows = Vec::new();
            for p in 0..n {
                for q in p + 1..n {
                    let diff = std::array::from_fn(|i| f[p][i] - f[q][i]);
                    rows.push((diff, if s[p] > 0.0 { 1.0 } else { 0.0 }));
                }
            }
            rows
        }));
        let err = |w: &[f64]| -> f64 { (0..3).map(|i| (w[i] - TRUE_W[i]).abs()).sum() };
        assert!(
            err(&naive) > 3.0 * err(&w),
            "{players} players: naive {naive:?} vs pairwise {w:?}"
        );
    }
}
