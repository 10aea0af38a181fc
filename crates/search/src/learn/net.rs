//! Learning a value network beside a linear evaluator, from pairwise results.
//!
//! The model of one pair row: `P(the first seat wins) = sigmoid(w . x + V(o_a) - V(o_b))`,
//! where `x` are the linear features' differences (first seat minus second), `o_a` and `o_b`
//! the two seats' observations (each from its own seat's view), and `V` one hidden ReLU
//! layer on the standardised observation: `V(o) = w2 . max(0, W1 z + b1)` with `z = (o -
//! mean) / sd`. The same `V` for both seats, so the two chances add to 1, and with more than
//! two players the values `w . f(p) + V(o_p)` form a conditional logit fitted on its pairs.
//!
//! [`fit_pair_net`] starts at `V = 0` (`w2 = 0`, `W1` drawn from a seeded normal with
//! standard deviation `1 / sqrt(dim)`), the linear weights at the given fit, and trains all of
//! them by Adam on the mean log loss of mini-batches (seeded order), with L2 on `W1` and on
//! the linear weights; after each epoch it measures the log loss on each check set and keeps
//! the weights of the epoch best on the first, so a caller can choose the epoch on rows it
//! holds out from both the training and its final figure. The observations are whole
//! numbers (Azul's are counts), stored as `u16`. One thread, a fixed order of operations and
//! no fused multiply-add: the same inputs and seed give the same network bit for bit on every
//! machine. Inner loops allocate nothing.

use rand::Rng;
use thiserror::Error;

use tessera_core::rng::seeded;

use super::{sigmoid, softplus};

/// Observations: one line of `dim` whole numbers per position and seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observations {
    dim: usize,
    data: Vec<u16>,
}

impl Observations {
    /// No lines yet, each of `dim` numbers.
    pub fn new(dim: usize) -> Self {
        Observations {
            dim,
            data: Vec::new(),
        }
    }

    /// Numbers per line.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Lines.
    pub fn len(&self) -> usize {
        self.data.len().checked_div(self.dim).unwrap_or(0)
    }

    /// True if there are no lines.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Adds a line and returns its index. `line` must have `dim` numbers (extra ones are
    /// ignored, missing ones are 0).
    pub fn push(&mut self, line: &[u16]) -> usize {
        let index = self.len();
        for i in 0..self.dim {
            self.data.push(line.get(i).copied().unwrap_or(0));
        }
        index
    }

    /// Line `i`.
    pub fn line(&self, i: usize) -> &[u16] {
        &self.data[i * self.dim..(i + 1) * self.dim]
    }
}

/// Pair rows: the linear features' differences, the first seat's share of the pair's
/// result (0 to 1) and the observation lines of the pair's two seats.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairRows {
    k: usize,
    x: Vec<f64>,
    y: Vec<f64>,
    a: Vec<u32>,
    b: Vec<u32>,
}

impl PairRows {
    /// No rows yet, each of `k` linear features.
    pub fn new(k: usize) -> Self {
        PairRows {
            k,
            ..Default::default()
        }
    }

    /// Linear features per row.
    pub fn features(&self) -> usize {
        self.k
    }

    /// Rows.
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// True if there are no rows.
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    /// Adds a row: `x` the feature differences (`k` of them; extra ones ignored, missing 0),
    /// `y` the first seat's share (clamped to 0-1), `a` and `b` the seats' observation lines.
    pub fn push(&mut self, x: &[f64], y: f64, a: u32, b: u32) {
        for i in 0..self.k {
            self.x.push(x.get(i).copied().unwrap_or(0.0));
        }
        self.y.push(y.clamp(0.0, 1.0));
        self.a.push(a);
        self.b.push(b);
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.x[i * self.k..(i + 1) * self.k]
    }

    /// The observation line of row `i`'s first seat.
    pub fn first_line(&self, i: usize) -> usize {
        self.a[i] as usize
    }

    /// The observation line of row `i`'s second seat.
    pub fn second_line(&self, i: usize) -> usize {
        self.b[i] as usize
    }

    /// Row `i`'s feature differences.
    pub fn differences(&self, i: usize) -> &[f64] {
        self.row(i)
    }

    /// Row `i`'s first seat's share of the pair's result (0 to 1).
    pub fn share(&self, i: usize) -> f64 {
        self.y[i]
    }
}

/// The fit's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetConfig {
    /// Hidden units.
    pub hidden: usize,
    /// Passes over the training rows.
    pub epochs: usize,
    /// Seed of the initial weights and of each epoch's order.
    pub seed: u64,
    /// L2 on the first layer's weights.
    pub decay: f64,
    /// L2 on the linear weights.
    pub linear_l2: f64,
    /// Adam's step size.
    pub lr: f64,
    /// Rows per mini-batch.
    pub batch: usize,
}

impl Default for NetConfig {
    /// The settings of augur's shipped board networks.
    fn default() -> Self {
        NetConfig {
            hidden: 32,
            epochs: 3,
            seed: 1,
            decay: 1e-3,
            linear_l2: 1e-4,
            lr: 5e-4,
            batch: 512,
        }
    }
}

/// Why a fit cannot start.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NetFitError {
    /// No training rows.
    #[error("no training rows")]
    NoRows,
    /// A setting out of range.
    #[error("{0}")]
    Setting(String),
    /// A row names an observation line that does not exist.
    #[error("a row names observation line {line}, but there are {lines} lines")]
    Line {
        /// The line named.
        line: usize,
        /// The lines there are.
        lines: usize,
    },
}

/// A fitted network and linear weights (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct PairNet {
    /// The linear weights.
    pub linear: Vec<f64>,
    /// Hidden units.
    pub hidden: usize,
    /// First layer, input-major: `w1[i * hidden + j]` is input `i`'s weight into unit `j`.
    pub w1: Vec<f32>,
    /// First layer's biases.
    pub b1: Vec<f32>,
    /// Output weights.
    pub w2: Vec<f32>,
    /// Each input's mean over the training rows' observation lines.
    pub mean: Vec<f32>,
    /// Each input's standard deviation there, plus 1e-3.
    pub sd: Vec<f32>,
}

impl PairNet {
    /// `V` of a raw observation line, computed in `f64` on the standardised input.
    pub fn value(&self, line: &[u16]) -> f64 {
        let h = self.hidden;
        let mut pre: Vec<f64> = self.b1.iter().map(|&b| f64::from(b)).collect();
        for (i, &o) in line.iter().enumerate() {
            let z = (f64::from(o) - f64::from(self.mean[i])) / f64::from(self.sd[i]);
            for (p, &w) in pre.iter_mut().zip(&self.w1[i * h..(i + 1) * h]) {
                *p += z * f64::from(w);
            }
        }
        pre.iter()
            .zip(&self.w2)
            .map(|(&p, &w)| p.max(0.0) * f64::from(w))
            .sum()
    }

    /// The first layer with the standardisation folded in, so the raw observation goes in:
    /// `W1' = W1 / sd` (input-major, as `w1`) and `b1' = b1 - (mean / sd) . W1`.
    pub fn folded(&self) -> (Vec<f64>, Vec<f64>) {
        let h = self.hidden;
        let mut w = Vec::with_capacity(self.w1.len());
        let mut b: Vec<f64> = self.b1.iter().map(|&x| f64::from(x)).collect();
        for (i, col) in self.w1.chunks(h).enumerate() {
            let (m, s) = (f64::from(self.mean[i]), f64::from(self.sd[i]));
            for (j, &x) in col.iter().enumerate() {
                w.push(f64::from(x) / s);
                b[j] -= m / s * f64::from(x);
            }
        }
        (w, b)
    }

    /// Mean log loss of the model on `rows`.
    pub fn log_loss(&self, rows: &PairRows, obs: &Observations) -> f64 {
        let mut work = Work::new(obs.dim(), self.hidden);
        let inv: Vec<f32> = self.sd.iter().map(|s| 1.0 / s).collect();
        let mut loss = 0.0;
        for i in 0..rows.len() {
            let va = work.forward(self, &inv, obs.line(rows.a[i] as usize), 0);
            let vb = work.forward(self, &inv, obs.line(rows.b[i] as usize), 1);
            let z = dot(rows.row(i), &self.linear) + f64::from(va - vb);
            let y = rows.y[i];
            loss += y * softplus(-z) + (1.0 - y) * softplus(z);
        }
        loss / rows.len().max(1) as f64
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The buffers of one row's two seats, allocated once per fit.
struct Work {
    h: usize,
    /// Standardised inputs of the two seats.
    z: [Vec<f32>; 2],
    /// Pre-activations of the two seats.
    pre: [Vec<f32>; 2],
    /// The loss's gradient at one seat's pre-activations.
    dh: Vec<f32>,
}

impl Work {
    fn new(dim: usize, h: usize) -> Self {
        Work {
            h,
            z: [vec![0.0; dim], vec![0.0; dim]],
            pre: [vec![0.0; h], vec![0.0; h]],
            dh: vec![0.0; h],
        }
    }

    /// `V` of `line` into seat slot `s` (its standardised input and pre-activations kept).
    fn forward(&mut self, net: &PairNet, inv_sd: &[f32], line: &[u16], s: usize) -> f32 {
        let h = self.h;
        let (z, pre) = (&mut self.z[s], &mut self.pre[s]);
        pre.copy_from_slice(&net.b1);
        for (i, &o) in line.iter().enumerate() {
            let zi = (f32::from(o) - net.mean[i]) * inv_sd[i];
            z[i] = zi;
            for (p, &w) in pre.iter_mut().zip(&net.w1[i * h..(i + 1) * h]) {
                *p += zi * w;
            }
        }
        pre.iter().zip(&net.w2).map(|(&p, &w)| p.max(0.0) * w).sum()
    }
}

/// The gradients of one mini-batch.
struct Grads {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    linear: Vec<f64>,
}

impl Grads {
    fn zeros(net: &PairNet) -> Self {
        Grads {
            w1: vec![0.0; net.w1.len()],
            b1: vec![0.0; net.b1.len()],
            w2: vec![0.0; net.w2.len()],
            linear: vec![0.0; net.linear.len()],
        }
    }

    fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.linear.fill(0.0);
    }
}

/// Adds to `g` the gradient of the mean log loss over `batch` (row indices), the L2 terms
/// left out.
fn batch_gradient(
    net: &PairNet,
    inv_sd: &[f32],
    rows: &PairRows,
    obs: &Observations,
    batch: &[u32],
    work: &mut Work,
    g: &mut Grads,
) {
    let h = net.hidden;
    let n = batch.len() as f64;
    for &r in batch {
        let r = r as usize;
        let va = work.forward(net, inv_sd, obs.line(rows.a[r] as usize), 0);
        let vb = work.forward(net, inv_sd, obs.line(rows.b[r] as usize), 1);
        let x = rows.row(r);
        let z = dot(x, &net.linear) + f64::from(va - vb);
        let dz = (sigmoid(z) - rows.y[r]) / n;
        for (gl, &xi) in g.linear.iter_mut().zip(x) {
            *gl += dz * xi;
        }
        let dz = dz as f32;
        // Seat a's value enters with +1, seat b's with -1.
        for (s, sign) in [(0, 1.0f32), (1, -1.0)] {
            let (pre, dh) = (&work.pre[s], &mut work.dh);
            for j in 0..h {
                let act = pre[j] > 0.0;
                g.w2[j] += sign * dz * if act { pre[j] } else { 0.0 };
                dh[j] = if act { sign * dz * net.w2[j] } else { 0.0 };
                g.b1[j] += dh[j];
            }
            for (i, &zi) in work.z[s].iter().enumerate() {
                for (gw, &d) in g.w1[i * h..(i + 1) * h].iter_mut().zip(&work.dh) {
                    *gw += zi * d;
                }
            }
        }
    }
}

/// Adam's moments of one array.
struct Moments<T> {
    m: Vec<T>,
    v: Vec<T>,
}

macro_rules! adam_step {
    ($name:ident, $t:ty) => {
        fn $name(q: &mut [$t], g: &[$t], mo: &mut Moments<$t>, lr: f64, t: i32) {
            let c1 = 1.0 - 0.9f64.powi(t);
            let c2 = 1.0 - 0.999f64.powi(t);
            for (((q, &g), m), v) in q.iter_mut().zip(g).zip(&mut mo.m).zip(&mut mo.v) {
                *m = 0.9 * *m + 0.1 * g;
                *v = 0.999 * *v + 0.001 * g * g;
                let step = lr * (f64::from(*m) / c1) / ((f64::from(*v) / c2).sqrt() + 1e-8);
                *q -= step as $t;
            }
        }
    };
}
adam_step!(adam_f32, f32);
adam_step!(adam_f64, f64);

fn moments<T: Copy + Default>(n: usize) -> Moments<T> {
    Moments {
        m: vec![T::default(); n],
        v: vec![T::default(); n],
    }
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut impl Rng) -> f64 {
    let u1 = 1.0 - rng.random::<f64>();
    let u2 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A fit: the log loss on each check set after each epoch, and the network of the epoch
/// with the lowest loss on the first check set (the last epoch without check sets).
#[derive(Clone, Debug, PartialEq)]
pub struct NetFit {
    /// `losses[e][c]`: check set `c`'s mean log loss after epoch `e + 1`.
    pub losses: Vec<Vec<f64>>,
    /// The chosen epoch (0-based).
    pub chosen: usize,
    /// The network of the chosen epoch.
    pub net: PairNet,
}

/// Fits `V` and the linear weights on `train` (see the module docs), starting the linear
/// weights at `linear`; `checks` are measured after every epoch. The inputs are standardised
/// by their mean and standard deviation over the observation lines `train`'s rows name (each
/// line once).
pub fn fit_pair_net(
    train: &PairRows,
    checks: &[&PairRows],
    obs: &Observations,
    linear: &[f64],
    cfg: &NetConfig,
) -> Result<NetFit, NetFitError> {
    if train.is_empty() {
        return Err(NetFitError::NoRows);
    }
    let setting = |m: String| Err(NetFitError::Setting(m));
    if linear.len() != train.features() || checks.iter().any(|c| c.features() != train.k) {
        return setting(format!(
            "{} starting linear weights for rows of {} features",
            linear.len(),
            train.features()
        ));
    }
    if cfg.hidden == 0 || cfg.epochs == 0 || cfg.batch == 0 {
        return setting(format!(
            "{} hidden units, {} epochs, batches of {}: each must be at least 1",
            cfg.hidden, cfg.epochs, cfg.batch
        ));
    }
    let l2_ok = |x: f64| x.is_finite() && x >= 0.0;
    let step_ok = cfg.lr.is_finite() && cfg.lr > 0.0;
    if !(step_ok && l2_ok(cfg.decay) && l2_ok(cfg.linear_l2)) {
        return setting(format!(
            "step size {}, decay {}, linear L2 {}: expected a step size > 0 and L2 terms >= 0",
            cfg.lr, cfg.decay, cfg.linear_l2
        ));
    }
    let lines = obs.len();
    for set in std::iter::once(train).chain(checks.iter().copied()) {
        if let Some(&bad) = set.a.iter().chain(&set.b).find(|&&l| l as usize >= lines) {
            return Err(NetFitError::Line {
                line: bad as usize,
                lines,
            });
        }
    }
    let (dim, h) = (obs.dim(), cfg.hidden);

    // Standardisation over the lines the training rows name, each once, in row order (so
    // the order of the observation lines does not matter).
    let mut seen = vec![false; lines];
    let (mut sum, mut sq) = (vec![0.0f64; dim], vec![0.0f64; dim]);
    let mut count = 0.0f64;
    for r in 0..train.len() {
        for l in [train.a[r], train.b[r]] {
            let l = l as usize;
            if !std::mem::replace(&mut seen[l], true) {
                count += 1.0;
                for (i, &o) in obs.line(l).iter().enumerate() {
                    let o = f64::from(o);
                    sum[i] += o;
                    sq[i] += o * o;
                }
            }
        }
    }
    drop(seen);
    let mean: Vec<f64> = sum.iter().map(|s| s / count).collect();
    let sd: Vec<f32> = sq
        .iter()
        .zip(&mean)
        .map(|(q, m)| ((q / count - m * m).max(0.0).sqrt() + 1e-3) as f32)
        .collect();

    let mut rng = seeded(cfg.seed);
    let scale = 1.0 / (dim as f64).sqrt();
    let mut net = PairNet {
        linear: linear.to_vec(),
        hidden: h,
        w1: (0..dim * h)
            .map(|_| (normal(&mut rng) * scale) as f32)
            .collect(),
        b1: vec![0.0; h],
        w2: vec![0.0; h],
        mean: mean.iter().map(|&m| m as f32).collect(),
        sd,
    };
    let inv_sd: Vec<f32> = net.sd.iter().map(|s| 1.0 / s).collect();
    let mut work = Work::new(dim, h);
    let mut g = Grads::zeros(&net);
    let (mut m_w1, mut m_b1, mut m_w2) = (
        moments::<f32>(net.w1.len()),
        moments::<f32>(h),
        moments::<f32>(h),
    );
    let mut m_lin = moments::<f64>(net.linear.len());
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut t = 0i32;
    let mut losses = Vec::with_capacity(cfg.epochs);
    let mut best: Option<(f64, usize, PairNet)> = None;
    for epoch in 0..cfg.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for batch in order.chunks(cfg.batch) {
            g.clear();
            batch_gradient(&net, &inv_sd, train, obs, batch, &mut work, &mut g);
            let decay = cfg.decay as f32;
            for (gw, &w) in g.w1.iter_mut().zip(&net.w1) {
                *gw += decay * w;
            }
            for (gl, &w) in g.linear.iter_mut().zip(&net.linear) {
                *gl += cfg.linear_l2 * w;
            }
            t = t.saturating_add(1);
            adam_f32(&mut net.w1, &g.w1, &mut m_w1, cfg.lr, t);
            adam_f32(&mut net.b1, &g.b1, &mut m_b1, cfg.lr, t);
            adam_f32(&mut net.w2, &g.w2, &mut m_w2, cfg.lr, t);
            adam_f64(&mut net.linear, &g.linear, &mut m_lin, cfg.lr, t);
        }
        let row: Vec<f64> = checks.iter().map(|c| net.log_loss(c, obs)).collect();
        let key = row.first().copied().unwrap_or(f64::NAN);
        // Without check sets every epoch replaces the last; a NaN loss is never better.
        if best
            .as_ref()
            .is_none_or(|(b, _, _)| checks.is_empty() || key < *b)
        {
            best = Some((key, epoch, net.clone()));
        }
        losses.push(row);
    }
    let (_, chosen, net) = best.ok_or(NetFitError::NoRows)?;
    Ok(NetFit {
        losses,
        chosen,
        net,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::{Dataset, fit_logistic};

    /// A synthetic two-seat problem: each seat's observation is three counts; the seat's
    /// value is linear in a feature plus a bump `2 * [count 0 is 2]` that no linear model of
    /// the counts can express. Rows pair the seats of each position.
    fn problem(n: usize, seed: u64) -> (PairRows, Observations) {
        let mut rng = seeded(seed);
        let mut obs = Observations::new(3);
        let mut rows = PairRows::new(2);
        for _ in 0..n {
            let mut vals = [0.0; 2];
            let mut lines = [0u32; 2];
            let mut feats = [[0.0f64; 2]; 2];
            for s in 0..2 {
                let o: [u16; 3] = [
                    rng.random_range(0..5),
                    rng.random_range(0..5),
                    rng.random_range(0..3),
                ];
                let f = [1.0, rng.random::<f64>() * 2.0 - 1.0];
                vals[s] = 0.8 * f[1] + if o[0] == 2 { 2.0 } else { 0.0 };
                lines[s] = obs.push(&o) as u32;
                feats[s] = f;
            }
            let p = sigmoid(vals[0] - vals[1]);
            let y = if rng.random::<f64>() < p { 1.0 } else { 0.0 };
            let x = [feats[0][0] - feats[1][0], feats[0][1] - feats[1][1]];
            rows.push(&x, y, lines[0], lines[1]);
        }
        (rows, obs)
    }

    fn linear_start(rows: &PairRows) -> Vec<f64> {
        let mut d = Dataset::new(rows.features());
        for i in 0..rows.len() {
            d.push(rows.row(i), rows.y[i]);
        }
        fit_logistic(&d, 1e-4, 50).weights
    }

    fn small() -> NetConfig {
        NetConfig {
            hidden: 8,
            epochs: 6,
            seed: 3,
            lr: 1e-2,
            batch: 64,
            decay: 1e-4,
            ..NetConfig::default()
        }
    }

    #[test]
    fn the_network_learns_what_the_linear_model_cannot() {
        let (train, obs) = problem(6000, 1);
        let (test, tobs) = problem(3000, 2);
        // The test rows' lines come after the training rows' in one store.
        let mut all = obs.clone();
        let mut moved = PairRows::new(2);
        let base = all.len() as u32;
        for i in 0..tobs.len() {
            all.push(tobs.line(i));
        }
        for i in 0..test.len() {
            moved.push(test.row(i), test.y[i], test.a[i] + base, test.b[i] + base);
        }
        let w = linear_start(&train);
        let fit = fit_pair_net(&train, &[&moved], &all, &w, &small()).unwrap();
        let mut lin = fit.net.clone();
        lin.w2.fill(0.0);
        lin.linear = w;
        let (l_lin, l_net) = (lin.log_loss(&moved, &all), fit.net.log_loss(&moved, &all));
        assert_eq!(fit.losses.len(), 6);
        assert_eq!(fit.losses[fit.chosen][0], l_net);
        assert!(fit.losses.iter().all(|l| l[0] >= l_net));
        // The bump is worth 2 in log-odds: the network must find most of it.
        assert!(l_net < l_lin - 0.04, "network {l_net}, linear {l_lin}");
        // V separates count 0 = 2 from the rest by about the bump.
        let v = |c0: u16| {
            (0..5)
                .flat_map(|c1| (0..3).map(move |c2| [c0, c1, c2]))
                .map(|o| fit.net.value(&o))
                .sum::<f64>()
                / 15.0
        };
        let others = (v(0) + v(1) + v(3) + v(4)) / 4.0;
        assert!((v(2) - others - 2.0).abs() < 0.6, "bump {}", v(2) - others);
    }

    #[test]
    fn the_analytic_gradient_matches_finite_differences() {
        let (rows, obs) = problem(40, 5);
        let mut net = fit_pair_net(&rows, &[], &obs, &[0.1, 0.5], &small())
            .unwrap()
            .net;
        // Make every unit matter: output weights away from 0.
        for (j, w) in net.w2.iter_mut().enumerate() {
            *w = 0.3 + 0.1 * j as f32;
        }
        let inv: Vec<f32> = net.sd.iter().map(|s| 1.0 / s).collect();
        let batch: Vec<u32> = (0..rows.len() as u32).collect();
        let mut work = Work::new(obs.dim(), net.hidden);
        let mut g = Grads::zeros(&net);
        batch_gradient(&net, &inv, &rows, &obs, &batch, &mut work, &mut g);
        let loss = |n: &PairNet| n.log_loss(&rows, &obs);
        // Small enough that few rows cross a unit's kink, large enough for f32's precision.
        let eps = 2e-3f32;
        let close = |n: f64, a: f32| (n - f64::from(a)).abs() < 2e-3 + 0.05 * f64::from(a).abs();
        let mut checked = 0;
        for k in (0..net.w1.len()).step_by(3) {
            let (mut up, mut down) = (net.clone(), net.clone());
            up.w1[k] += eps;
            down.w1[k] -= eps;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * f64::from(eps));
            assert!(close(numeric, g.w1[k]), "w1[{k}]: {numeric} vs {}", g.w1[k]);
            checked += 1;
        }
        for j in 0..net.hidden {
            let (mut up, mut down) = (net.clone(), net.clone());
            up.w2[j] += eps;
            down.w2[j] -= eps;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * f64::from(eps));
            assert!(close(numeric, g.w2[j]), "w2[{j}]: {numeric} vs {}", g.w2[j]);
            let (mut up, mut down) = (net.clone(), net.clone());
            up.b1[j] += eps;
            down.b1[j] -= eps;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * f64::from(eps));
            assert!(close(numeric, g.b1[j]), "b1[{j}]: {numeric} vs {}", g.b1[j]);
        }
        for a in 0..2 {
            let (mut up, mut down) = (net.clone(), net.clone());
            up.linear[a] += 1e-5;
            down.linear[a] -= 1e-5;
            let numeric = (loss(&up) - loss(&down)) / 2e-5;
            assert!((numeric - g.linear[a]).abs() < 1e-6, "linear[{a}]");
        }
        assert!(checked > 5);
        assert!(
            g.w1.iter().any(|&x| x.abs() > 1e-4),
            "a zero gradient checks nothing"
        );
    }

    #[test]
    fn folding_the_standardisation_keeps_the_value() {
        let (rows, obs) = problem(500, 7);
        let net = fit_pair_net(&rows, &[], &obs, &[0.0, 0.5], &small())
            .unwrap()
            .net;
        let (w, b) = net.folded();
        let h = net.hidden;
        for l in 0..20 {
            let line = obs.line(l);
            let mut pre = b.clone();
            for (i, &o) in line.iter().enumerate() {
                for j in 0..h {
                    pre[j] += f64::from(o) * w[i * h + j];
                }
            }
            let folded: f64 = pre
                .iter()
                .zip(&net.w2)
                .map(|(p, &w2)| p.max(0.0) * f64::from(w2))
                .sum();
            assert!((folded - net.value(line)).abs() < 1e-9, "line {l}");
        }
        assert!(net.w2.iter().any(|&x| x != 0.0), "the fit moved V off 0");
    }

    #[test]
    fn same_seed_same_network_other_seed_other_network() {
        let (rows, obs) = problem(400, 9);
        let a = fit_pair_net(&rows, &[&rows], &obs, &[0.0, 0.5], &small()).unwrap();
        let b = fit_pair_net(&rows, &[&rows], &obs, &[0.0, 0.5], &small()).unwrap();
        assert_eq!(a, b);
        let other = NetConfig { seed: 4, ..small() };
        let c = fit_pair_net(&rows, &[&rows], &obs, &[0.0, 0.5], &other).unwrap();
        assert_ne!(a.net.w1, c.net.w1);
    }

    #[test]
    fn bad_settings_and_lines_are_refused() {
        let (rows, obs) = problem(10, 1);
        let cfg = small();
        assert_eq!(
            fit_pair_net(&PairRows::new(2), &[], &obs, &[0.0, 0.0], &cfg),
            Err(NetFitError::NoRows)
        );
        assert!(matches!(
            fit_pair_net(&rows, &[], &obs, &[0.0], &cfg),
            Err(NetFitError::Setting(_))
        ));
        for bad in [
            NetConfig { hidden: 0, ..cfg },
            NetConfig { epochs: 0, ..cfg },
            NetConfig {
                lr: f64::NAN,
                ..cfg
            },
            NetConfig { decay: -1.0, ..cfg },
        ] {
            assert!(matches!(
                fit_pair_net(&rows, &[], &obs, &[0.0, 0.0], &bad),
                Err(NetFitError::Setting(_))
            ));
        }
        let mut far = rows.clone();
        far.push(&[0.0, 0.0], 1.0, 0, 999);
        assert_eq!(
            fit_pair_net(&far, &[], &obs, &[0.0, 0.0], &cfg),
            Err(NetFitError::Line {
                line: 999,
                lines: obs.len()
            })
        );
    }
}
