//! Learning evaluators from game results: L2-regularised logistic regression fitted by
//! Newton's method (iteratively reweighted least squares), written out so it is exact,
//! deterministic and dependency-free.
//!
//! The model: `P(y = 1 | x) = sigmoid(w . x)`; labels may be fractional (0.5 for a draw).
//! The fit minimises the mean log loss plus `l2 / 2 * |w|^2`. Each Newton step solves the
//! `d x d` system `(X^T S X / n + l2 I) step = gradient` by a Cholesky factorisation; with the
//! ridge term the matrix is positive definite, so the loss (convex) falls to its minimum in a
//! few steps. For a bias, add a constant feature.
//!
//! ```
//! use tessera_search::learn::{Dataset, fit_logistic};
//! // y = 1 exactly when x > 0: the weight grows positive.
//! let mut d = Dataset::new(1);
//! for i in -50..50 {
//!     let x = f64::from(i) / 10.0;
//!     d.push(&[x], if i >= 0 { 1.0 } else { 0.0 });
//! }
//! let fit = fit_logistic(&d, 1e-3, 30);
//! assert!(fit.weights[0] > 1.0);
//! assert!(fit.accuracy > 0.95);
//! ```

pub mod net;

/// Rows of features with a label in [0, 1] each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    dim: usize,
    xs: Vec<f64>,
    ys: Vec<f64>,
}

impl Dataset {
    /// An empty dataset of `dim` features per row.
    pub fn new(dim: usize) -> Self {
        Dataset {
            dim,
            xs: Vec::new(),
            ys: Vec::new(),
        }
    }

    /// Features per row.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.ys.len()
    }

    /// True if there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ys.is_empty()
    }

    /// Adds a row. `x` must have `dim` entries (extra ones are ignored, missing ones are 0);
    /// `y` is clamped to [0, 1].
    pub fn push(&mut self, x: &[f64], y: f64) {
        for i in 0..self.dim {
            self.xs.push(x.get(i).copied().unwrap_or(0.0));
        }
        self.ys.push(y.clamp(0.0, 1.0));
    }

    /// Row `i`'s features.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.xs[i * self.dim..(i + 1) * self.dim]
    }

    /// Row `i`'s label.
    pub fn label(&self, i: usize) -> f64 {
        self.ys[i]
    }
}

/// A fitted model with its training statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct LogisticFit {
    /// The weights.
    pub weights: Vec<f64>,
    /// Mean log loss (natural log) on the training rows, without the ridge term.
    pub log_loss: f64,
    /// Share of decided rows (label 0 or 1) whose predicted side is right.
    pub accuracy: f64,
    /// Newton steps taken.
    pub steps: u32,
}

/// The logistic function.
#[inline]
pub fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Mean log loss and accuracy of `w` on `d`.
pub fn evaluate_logistic(d: &Dataset, w: &[f64]) -> (f64, f64) {
    let mut loss = 0.0;
    let (mut right, mut decided) = (0u64, 0u64);
    for i in 0..d.len() {
        let z = dot(d.row(i), w);
        let y = d.label(i);
        // log(1 + e^-z) and log(1 + e^z), stably.
        let lp = softplus(-z);
        let ln = softplus(z);
        loss += y * lp + (1.0 - y) * ln;
        if y == 0.0 || y == 1.0 {
            decided += 1;
            if (z > 0.0) == (y == 1.0) {
                right += 1;
            }
        }
    }
    let n = d.len().max(1) as f64;
    (
        loss / n,
        if decided == 0 {
            0.0
        } else {
            right as f64 / decided as f64
        },
    )
}

/// `log(1 + e^z)`, computed stably (the log loss of a logit `z` is `y softplus(-z) + (1 - y)
/// softplus(z)`).
pub fn softplus(z: f64) -> f64 {
    if z > 30.0 {
        z
    } else if z < -30.0 {
        z.exp()
    } else {
        z.exp().ln_1p()
    }
}

/// Fits `w` minimising the mean log loss plus `l2 / 2 * |w|^2` by at most `max_steps` Newton
/// steps (stopping when a step changes no weight by more than 1e-9). Deterministic: the same
/// rows in the same order give the same weights bit for bit.
pub fn fit_logistic(d: &Dataset, l2: f64, max_steps: u32) -> LogisticFit {
    let k = d.dim();
    let mut w = vec![0.0; k];
    let n = d.len().max(1) as f64;
    let mut steps = 0;
    let mut h = vec![0.0; k * k];
    let mut g = vec![0.0; k];
    for _ in 0..max_steps {
        h.iter_mut().for_each(|x| *x = 0.0);
        g.iter_mut().for_each(|x| *x = 0.0);
        for i in 0..d.len() {
            let x = d.row(i);
            let p = sigmoid(dot(x, &w));
            let r = p - d.label(i);
            let s = p * (1.0 - p);
            for a in 0..k {
                g[a] += r * x[a];
                let sa = s * x[a];
                for b in 0..=a {
                    h[a * k + b] += sa * x[b];
                }
            }
        }
        for a in 0..k {
            g[a] = g[a] / n + l2 * w[a];
            for b in 0..=a {
                h[a * k + b] /= n;
                h[b * k + a] = h[a * k + b];
            }
            h[a * k + a] += l2;
        }
        let Some(step) = solve_spd(&h, &g, k) else {
            break;
        };
        steps += 1;
        let mut change: f64 = 0.0;
        for a in 0..k {
            w[a] -= step[a];
            change = change.max(step[a].abs());
        }
        if change < 1e-9 {
            break;
        }
    }
    let (log_loss, accuracy) = evaluate_logistic(d, &w);
    LogisticFit {
        weights: w,
        log_loss,
        accuracy,
        steps,
    }
}

/// Solves `A x = b` for a symmetric positive definite `k x k` matrix (row-major) by Cholesky;
/// `None` if `A` is not positive definite.
pub fn solve_spd(a: &[f64], b: &[f64], k: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..=i {
            let mut s = a[i * k + j];
            for m in 0..j {
                s -= l[i * k + m] * l[j * k + m];
            }
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * k + i] = s.sqrt();
            } else {
                l[i * k + j] = s / l[j * k + j];
            }
        }
    }
    let mut y = vec![0.0; k];
    for i in 0..k {
        let mut s = b[i];
        for m in 0..i {
            s -= l[i * k + m] * y[m];
        }
        y[i] = s / l[i * k + i];
    }
    let mut x = vec![0.0; k];
    for i in (0..k).rev() {
        let mut s = y[i];
        for m in i + 1..k {
            s -= l[m * k + i] * x[m];
        }
        x[i] = s / l[i * k + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use tessera_core::rng::seeded;

    /// Rows drawn from a known model: the fit should recover it.
    fn synthetic(w: &[f64], n: usize, seed: u64) -> Dataset {
        let mut rng = seeded(seed);
        let mut d = Dataset::new(w.len());
        for _ in 0..n {
            let x: Vec<f64> = (0..w.len())
                .map(|i| {
                    if i == 0 {
                        1.0
                    } else {
                        rng.random::<f64>() * 4.0 - 2.0
                    }
                })
                .collect();
            let p = sigmoid(dot(&x, w));
            let y = if rng.random::<f64>() < p { 1.0 } else { 0.0 };
            d.push(&x, y);
        }
        d
    }

    #[test]
    fn cholesky_solves_a_worked_system() {
        // [[4, 2], [2, 3]] x = [2, 1]  =>  x = [0.5, 0].
        let x = solve_spd(&[4.0, 2.0, 2.0, 3.0], &[2.0, 1.0], 2).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12, "{x:?}");
        assert!(solve_spd(&[1.0, 2.0, 2.0, 1.0], &[1.0, 1.0], 2).is_none());
    }

    #[test]
    fn newton_recovers_known_weights() {
        let truth = [0.3, 1.5, -0.8, 0.0];
        let d = synthetic(&truth, 40_000, 5);
        let fit = fit_logistic(&d, 1e-6, 50);
        for (a, b) in fit.weights.iter().zip(truth) {
            assert!((a - b).abs() < 0.08, "{:?} vs {truth:?}", fit.weights);
        }
        assert!(fit.steps < 20);
    }

    #[test]
    fn newton_agrees_with_slow_gradient_descent() {
        // An independent method: plain gradient descent on the same objective.
        let d = synthetic(&[-0.2, 0.7, 0.4], 2_000, 9);
        let l2 = 1e-2;
        let fit = fit_logistic(&d, l2, 50);
        let mut w = [0.0f64; 3];
        for _ in 0..20_000 {
            let mut g = [0.0f64; 3];
            for i in 0..d.len() {
                let x = d.row(i);
                let r = sigmoid(dot(x, &w)) - d.label(i);
                for a in 0..3 {
                    g[a] += r * x[a] / d.len() as f64;
                }
            }
            for a in 0..3 {
                w[a] -= 0.5 * (g[a] + l2 * w[a]);
            }
        }
        for a in 0..3 {
            assert!(
                (w[a] - fit.weights[a]).abs() < 1e-4,
                "{w:?} {:?}",
                fit.weights
            );
        }
        // The optimum beats a perturbed point on the regularised objective.
        let obj = |w: &[f64]| {
            evaluate_logistic(&d, w).0 + l2 / 2.0 * w.iter().map(|x| x * x).sum::<f64>()
        };
        let mut moved = fit.weights.clone();
        moved[1] += 0.05;
        assert!(obj(&fit.weights) < obj(&moved));
    }

    #[test]
    fn fractional_labels_and_determinism() {
        // Every label one half: the best model predicts one half everywhere (w = 0).
        let mut d = Dataset::new(2);
        for i in 0..100 {
            d.push(&[1.0, f64::from(i)], 0.5);
        }
        let fit = fit_logistic(&d, 1e-3, 20);
        assert!(
            fit.weights.iter().all(|w| w.abs() < 1e-9),
            "{:?}",
            fit.weights
        );
        assert!((fit.log_loss - std::f64::consts::LN_2).abs() < 1e-9);
        let d2 = synthetic(&[0.1, 1.0], 500, 3);
        assert_eq!(fit_logistic(&d2, 1e-3, 20), fit_logistic(&d2, 1e-3, 20));
    }
}
