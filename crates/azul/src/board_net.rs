//! augur's board network: a small network on the whole table that corrects the linear
//! evaluator, one network per table size.
//!
//! At two players augur's linear evaluator says `P(player 0 wins) = sigmoid(w_b . (f(p0) -
//! f(p1)))` over the 17 features (`crate::augur`). The board network adds a value `V_b` of
//! each seat's observation ([`crate::observation`], the observer's board first):
//! `P(p0 wins) = sigmoid(w_b . (f(p0) - f(p1)) + V_b(obs_0) - V_b(obs_1))`, so each player's
//! value becomes `v[p] = w_b . f(p) + V_b(obs_p)` and the search's log-odds `v[0] - v[1]`
//! are the model's. `V_b` is one hidden ReLU layer, `V(x) = w2 . max(0, W1 x + b1)`, one per
//! stage `b`, trained together with `w_b` by `tessera train azul-board-net` (or, for the
//! first two shipped networks, `scripts/fit-mlp-obs.py`) on self-play rows and observations
//! (`tessera train azul-augur --data ROWS --observations OBS`), with the inputs'
//! standardisation folded into `W1` and `b1` so the raw observation goes in. At
//! three and four players the same values `v[p]` form augur's conditional logit, and the
//! network is fitted on the pair rows (`sigmoid(v[p] - v[q])` for each pair with a winner)
//! the same way.
//!
//! The observation is mostly zeros (empty lines, free wall cells, empty floors), so the
//! first layer adds up only the columns of the non-zero inputs (about 60 of 158 at two
//! players), into a
//! hidden layer of at most [`MAX_HIDDEN`] units held on the stack (no allocation per
//! evaluation; the units are padded to [`MAX_HIDDEN`] with zero weights so each column is
//! one fixed-size array the compiler turns into vector instructions). The seats'
//! observations share the table (factories, centre, bag, lid) and the round, so
//! [`BoardNet::state_values`] adds those columns once for all seats, straight from the
//! state (no observation is written), visiting only what is there (the wall's tiles by
//! their bits, the lines that hold tiles), with no test of each input for zero; and each
//! board's columns are cached per thread (a board changes only on its owner's moves).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use tessera_core::rng::mix64;
use tessera_core::{Game, Turn};

use crate::observation::{BOARD_LEN, observation_len};
use crate::state::{AzulState, Board};
use crate::{NUM_COLOURS, Tiles};

/// The linear weights per stage: augur's features (`augur::NUM_FEATURES`, checked equal
/// where augur uses the network).
pub const NUM_FEATURES: usize = 17;

/// The stages (`augur::NUM_STAGES`, checked equal likewise).
pub const NUM_STAGES: usize = 5;

/// The most hidden units a network may have.
pub const MAX_HIDDEN: usize = 32;

/// The inputs at the start of an observation at `n` players that are the same from every
/// seat (factories, centre, bag and lid: [`crate::observation::write_observation`]); the
/// last input, the round, is shared too.
fn shared(n: usize) -> usize {
    5 * (2 * n + 1) + 16
}

type Units = [f32; MAX_HIDDEN];

/// The file format's version.
pub const NET_FORMAT: u32 = 1;

/// One stage's network and linear weights.
#[derive(Clone, Debug, PartialEq)]
struct StageNet {
    linear: [f32; NUM_FEATURES],
    /// Input-major: `w1[i]` holds the hidden units' weights of input `i` (padded with 0).
    w1: Vec<Units>,
    b1: Units,
    w2: Units,
}

/// A board network: per stage, the linear weights of the 17 features and the network `V`
/// (see the module docs).
#[derive(Clone, Debug)]
pub struct BoardNet {
    players: usize,
    inputs: usize,
    hidden: usize,
    stages: Vec<StageNet>,
    /// Distinct per parsed file, so the cache of board sums never mixes networks.
    id: u64,
}

/// Equal when the weights are (the cache's id aside).
impl PartialEq for BoardNet {
    fn eq(&self, other: &Self) -> bool {
        self.players == other.players && self.hidden == other.hidden && self.stages == other.stages
    }
}

/// The next [`BoardNet`]'s id.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Why a network file cannot be used.
#[derive(Debug, Error)]
pub enum NetError {
    /// Not JSON of the expected shape.
    #[error("network file is not valid JSON of augur's board network")]
    Json(#[source] serde_json::Error),
    /// Wrong sizes, versions or values.
    #[error("network file does not fit this build: {0}")]
    Shape(String),
    /// A check value the file carries is not what this build computes.
    #[error(
        "network file's check {index} of stage {stage}: the file says {expected}, this build computes {got}"
    )]
    Check {
        /// The stage.
        stage: usize,
        /// The check's index in the stage.
        index: usize,
        /// The value in the file.
        expected: f64,
        /// The value computed.
        got: f32,
    },
}

/// A check value in a network file: an observation and the trainer's own `V` of it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct FileCheck {
    /// The raw observation.
    pub input: Vec<f32>,
    /// The trainer's value of it.
    pub value: f64,
}

/// A stage's held-out log loss as the trainer measured it.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
pub struct FileHeldOut {
    /// The logistic fit on the 14 base features.
    pub linear14: f64,
    /// The logistic fit on the 17 features.
    pub linear17: f64,
    /// The 17 features with the network.
    pub network: f64,
}

/// One stage of a network file.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct FileStage {
    /// The linear weights of the features.
    pub linear: Vec<f64>,
    /// The first layer on the raw observation, input-major (`inputs x hidden`).
    pub w1: Vec<f32>,
    /// The first layer's biases.
    pub b1: Vec<f32>,
    /// The output weights.
    pub w2: Vec<f32>,
    /// Check values, which [`BoardNet::parse`] recomputes.
    #[serde(default)]
    pub checks: Vec<FileCheck>,
    /// The trainer's held-out figures (not read by the engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heldout: Option<FileHeldOut>,
}

/// A network file as trainers write it (`tessera train azul-board-net`,
/// `scripts/fit-mlp-obs.py --save`) and [`BoardNet::parse`] reads it.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct NetFile {
    /// [`NET_FORMAT`].
    pub format: u32,
    /// The table size.
    pub players: usize,
    /// Inputs: the observation's length at that table.
    pub inputs: usize,
    /// Hidden units.
    pub hidden: usize,
    /// One per stage.
    pub stages: Vec<FileStage>,
    /// How the file was made (not read by the engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub training: Option<serde_json::Value>,
}

impl NetFile {
    /// The file's text (one line of JSON).
    pub fn to_json(&self) -> String {
        // A tree of numbers, strings and vectors always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl BoardNet {
    /// Parses and checks a network file (written by `tessera train azul-board-net` or
    /// `scripts/fit-mlp-obs.py --save`): the
    /// sizes, finite values, and the check values it carries (the trainer's own values of
    /// a few held-out observations), which this build must reproduce to within 1e-3.
    pub fn parse(text: &str) -> Result<Self, NetError> {
        let f: NetFile = serde_json::from_str(text).map_err(NetError::Json)?;
        let shape = |m: String| Err(NetError::Shape(m));
        if f.format != NET_FORMAT {
            return shape(format!("format {}, expected {NET_FORMAT}", f.format));
        }
        if !(2..=4).contains(&f.players) || f.inputs != observation_len(f.players) {
            return shape(format!(
                "{} players and {} inputs, expected 2 to 4 players and the observation's length at that table ({})",
                f.players,
                f.inputs,
                observation_len(f.players.clamp(2, 4))
            ));
        }
        let inputs = f.inputs;
        if !(1..=MAX_HIDDEN).contains(&f.hidden) {
            return shape(format!(
                "{} hidden units, expected 1 to {MAX_HIDDEN}",
                f.hidden
            ));
        }
        if f.stages.len() != NUM_STAGES {
            return shape(format!("{} stages, expected {NUM_STAGES}", f.stages.len()));
        }
        let h = f.hidden;
        let mut stages = Vec::with_capacity(NUM_STAGES);
        for (b, st) in f.stages.iter().enumerate() {
            if st.linear.len() != NUM_FEATURES
                || st.w1.len() != inputs * h
                || st.b1.len() != h
                || st.w2.len() != h
            {
                return shape(format!(
                    "stage {b}: expected {NUM_FEATURES} linear weights, {} first-layer weights, {h} biases and {h} output weights",
                    inputs * h
                ));
            }
            let finite = st.linear.iter().all(|x| x.is_finite())
                && st
                    .w1
                    .iter()
                    .chain(&st.b1)
                    .chain(&st.w2)
                    .all(|x| x.is_finite());
            if !finite {
                return shape(format!("stage {b}: a weight is not a finite number"));
            }
            let mut linear = [0.0; NUM_FEATURES];
            for (l, &x) in linear.iter_mut().zip(&st.linear) {
                *l = x as f32;
            }
            let pad = |v: &[f32]| {
                let mut u = [0.0; MAX_HIDDEN];
                u[..v.len()].copy_from_slice(v);
                u
            };
            stages.push(StageNet {
                linear,
                w1: st.w1.chunks(h).map(pad).collect(),
                b1: pad(&st.b1),
                w2: pad(&st.w2),
            });
        }
        let net = BoardNet {
            players: f.players,
            inputs,
            hidden: h,
            stages,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        };
        for (b, st) in f.stages.iter().enumerate() {
            for (i, c) in st.checks.iter().enumerate() {
                if c.input.len() != inputs {
                    return shape(format!(
                        "stage {b}: check {i} has {} inputs, expected {inputs}",
                        c.input.len()
                    ));
                }
                let got = net.value(b, &c.input);
                // Written so that a NaN is refused too.
                let close = (f64::from(got) - c.value).abs() <= 1e-3;
                if !close {
                    return Err(NetError::Check {
                        stage: b,
                        index: i,
                        expected: c.value,
                        got,
                    });
                }
            }
        }
        Ok(net)
    }

    /// The table size the network was fitted for.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The hidden units per stage.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The linear weights of stage `stage` (clamped to the last).
    pub fn linear(&self, stage: usize) -> &[f32; NUM_FEATURES] {
        &self.stages[stage.min(NUM_STAGES - 1)].linear
    }

    /// `V` of stage `stage` (clamped to the last) at observation `x` (the observation's
    /// length at [`BoardNet::players`]; extra inputs are ignored), in logits.
    pub fn value(&self, stage: usize, x: &[f32]) -> f32 {
        let st = &self.stages[stage.min(NUM_STAGES - 1)];
        let mut pre = st.b1;
        add_columns(&mut pre, &st.w1, x);
        output(&pre, &st.w2)
    }

    /// `V` of stage `stage` for every seat of state `s` (a table of
    /// [`BoardNet::players`]; entries past the table's seats are 0): the same as
    /// [`BoardNet::value`] on each seat's observation, up to the order of the additions,
    /// read from the state directly.
    pub fn state_values(&self, stage: usize, s: &AzulState) -> [f32; 4] {
        let n = self.players;
        debug_assert_eq!(s.num_players(), n);
        let st = &self.stages[stage.min(NUM_STAGES - 1)];
        let shared = shared(n);
        // The non-zero inputs every seat shares, as (input, value).
        let mut common = Inputs::<COMMON_LEN>::default();
        for (f, t) in s.factories().iter().enumerate() {
            common.tiles(5 * f, *t);
        }
        let centre = 5 * s.factories().len();
        common.tiles(centre, s.centre());
        if s.token_in_centre() {
            common.push(centre + NUM_COLOURS, 1.0);
        }
        common.tiles(centre + 6, s.bag());
        common.tiles(centre + 11, s.lid());
        common.push(self.inputs - 1, s.round() as f32);
        let mut pre = st.b1;
        common.add_to(&mut pre, &st.w1);
        let turn = match s.turn() {
            Turn::Player(p) => Some(p.index()),
            _ => None,
        };
        // Seat `seat` sees its own board first, then the others clockwise: board `p` is
        // its `(p - seat) mod n`-th.
        let mut pres = [pre; 4];
        for (p, b) in s.boards().iter().enumerate().take(n) {
            self.add_board(stage, st, b, p, &mut pres);
        }
        let mut out = [0.0; 4];
        for (seat, (v, seat_pre)) in out.iter_mut().zip(pres.iter_mut()).enumerate().take(n) {
            if let Some(p) = turn {
                let col = &st.w1[shared + n * BOARD_LEN + (p + n - seat) % n];
                for (x, &w) in seat_pre.iter_mut().zip(col) {
                    *x += w;
                }
            }
            *v = output(seat_pre, &st.w2);
        }
        out
    }

    /// Adds board `p`'s columns (`b`) to every seat's sums `pres`, at the board's place in
    /// that seat's observation. Each board's sums (one per place) come from this thread's
    /// cache when the same board was summed lately; they are always computed the same way
    /// (from zero, in input order), so the cache changes no value.
    fn add_board(&self, stage: usize, st: &StageNet, b: &Board, p: usize, pres: &mut [Units; 4]) {
        let n = self.players;
        let stage = stage.min(NUM_STAGES - 1) as u8;
        let slot = mix64(board_hash(b) ^ self.id << 8 ^ u64::from(stage)) as usize % CACHE_SLOTS;
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            let entry = &mut cache[slot];
            let hit = entry
                .as_ref()
                .is_some_and(|e| e.net == self.id && e.stage == stage && e.board == *b);
            if !hit {
                let mut own = Inputs::<BOARD_LEN>::default();
                own.board(0, b);
                let mut sums = [[0.0; MAX_HIDDEN]; 4];
                let at = shared(n);
                for (k, sum) in sums.iter_mut().enumerate().take(n) {
                    own.add_to(sum, &st.w1[at + k * BOARD_LEN..at + (k + 1) * BOARD_LEN]);
                }
                *entry = Some(CachedBoard {
                    net: self.id,
                    stage,
                    board: *b,
                    sums,
                });
            }
            if let Some(e) = entry {
                for (k, sum) in e.sums.iter().enumerate().take(n) {
                    for (x, &y) in pres[(p + n - k) % n].iter_mut().zip(sum) {
                        *x += y;
                    }
                }
            }
        });
    }
}

/// Slots of the per-thread cache of board sums.
const CACHE_SLOTS: usize = 2048;

/// One board's sums in the cache, with what they were computed for.
#[derive(Clone, Copy)]
struct CachedBoard {
    net: u64,
    stage: u8,
    board: Board,
    sums: [Units; 4],
}

thread_local! {
    static CACHE: RefCell<Vec<Option<CachedBoard>>> = RefCell::new(vec![None; CACHE_SLOTS]);
}

/// A hash of everything on a board.
#[inline]
fn board_hash(b: &Board) -> u64 {
    let mut lines = 0u64;
    for r in 0..5 {
        lines = lines << 8 | u64::from(b.line_count[r]) << 4 | u64::from(b.line_colour[r]);
    }
    let mut floor = 0u64;
    for &k in &b.floor.0 {
        floor = floor << 4 | u64::from(k);
    }
    let x =
        u64::from(b.wall) | (b.score as u16 as u64) << 25 | u64::from(b.token) << 41 | floor << 42;
    mix64(mix64(x) ^ lines)
}

/// A list of at most `N` non-zero inputs, `(index, value)`, on the stack: a board has
/// [`BOARD_LEN`] inputs, the shared part of an observation at most [`COMMON_LEN`].
struct Inputs<const N: usize> {
    at: [u16; N],
    x: [f32; N],
    len: usize,
}

/// The most inputs every seat shares: four players' 9 factories, centre, bag, lid, round.
const COMMON_LEN: usize = 5 * 9 + 6 + 10 + 1;

impl<const N: usize> Default for Inputs<N> {
    fn default() -> Self {
        Inputs {
            at: [0; N],
            x: [0.0; N],
            len: 0,
        }
    }
}

impl<const N: usize> Inputs<N> {
    #[inline]
    fn push(&mut self, at: usize, x: f32) {
        self.at[self.len] = at as u16;
        self.x[self.len] = x;
        self.len += 1;
    }

    /// The non-zero counts of `t` (inputs `at..at + 5`).
    #[inline]
    fn tiles(&mut self, at: usize, t: Tiles) {
        for (c, &k) in t.0.iter().enumerate() {
            if k != 0 {
                self.push(at + c, f32::from(k));
            }
        }
    }

    /// Board `b`'s inputs, starting at `at` (the layout of
    /// [`crate::observation::write_observation`]).
    #[inline]
    fn board(&mut self, at: usize, b: &Board) {
        for r in 0..5 {
            if let Some((c, k)) = b.pattern_line(r) {
                self.push(at + 5 * r + c.index(), f32::from(k));
            }
        }
        let mut wall = b.wall();
        while wall != 0 {
            self.push(at + 25 + wall.trailing_zeros() as usize, 1.0);
            wall &= wall - 1;
        }
        self.tiles(at + 50, b.floor());
        if b.has_token() {
            self.push(at + 55, 1.0);
        }
        if b.score() != 0 {
            self.push(at + 56, b.score() as f32);
        }
    }

    /// Adds `x * w1[at]` of every input to `pre`: with AVX2 where the processor has it
    /// (eight units an instruction instead of four). Each unit's sum is the same
    /// additions in the same order either way (no fused multiply-add), so the values, and
    /// the games, are the same bit for bit on every x86-64 machine.
    #[inline]
    fn add_to(&self, pre: &mut Units, w1: &[Units]) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2, checked just above.
            unsafe { self.add_to_avx2(pre, w1) };
            return;
        }
        self.add_to_any(pre, w1);
    }

    /// [`Inputs::add_to`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn add_to_avx2(&self, pre: &mut Units, w1: &[Units]) {
        self.add_to_any(pre, w1);
    }

    /// [`Inputs::add_to`] for any processor, the sums held in registers.
    #[inline(always)]
    fn add_to_any(&self, pre: &mut Units, w1: &[Units]) {
        let mut acc = *pre;
        for (&at, &x) in self.at[..self.len].iter().zip(&self.x[..self.len]) {
            let col = &w1[usize::from(at)];
            for j in 0..MAX_HIDDEN {
                acc[j] += x * col[j];
            }
        }
        *pre = acc;
    }
}

/// Adds `x[i] * w1[i]` to `pre` for every non-zero `x[i]`.
#[inline]
fn add_columns(pre: &mut Units, w1: &[Units], x: &[f32]) {
    for (col, &xi) in w1.iter().zip(x) {
        if xi != 0.0 {
            for (p, &w) in pre.iter_mut().zip(col) {
                *p += xi * w;
            }
        }
    }
}

/// `w2 . max(0, pre)`.
#[inline]
fn output(pre: &Units, w2: &Units) -> f32 {
    let mut v = 0.0;
    for (&p, &w) in pre.iter().zip(w2) {
        v += p.max(0.0) * w;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two-player network's inputs.
    const INPUTS: usize = observation_len(2);

    /// A file of `hidden` units whose stage `b` has every weight given by `f(b, kind, i)`.
    fn file(hidden: usize, checks: &str) -> String {
        let stage = |b: usize| {
            let w1: Vec<String> = (0..INPUTS * hidden)
                .map(|i| {
                    // Input 0 drives unit 0 up, inputs 1 and 41 (the first of the boards)
                    // drive unit 1 down; the rest 0.
                    let (input, unit) = (i / hidden, i % hidden);
                    match (input, unit) {
                        (0, 0) => "1.0".to_string(),
                        (1 | 41, 1) => "-2.0".to_string(),
                        _ => "0".to_string(),
                    }
                })
                .collect();
            let b1 = vec!["0.5"; hidden].join(",");
            let w2: Vec<String> = (0..hidden).map(|u| format!("{}", u + 1 + b)).collect();
            format!(
                r#"{{"linear":[{}],"w1":[{}],"b1":[{b1}],"w2":[{}],"checks":[{}]}}"#,
                vec!["0.25"; NUM_FEATURES].join(","),
                w1.join(","),
                w2.join(","),
                if b == 0 { checks } else { "" }
            )
        };
        let stages: Vec<String> = (0..NUM_STAGES).map(stage).collect();
        format!(
            r#"{{"format":1,"players":2,"inputs":{INPUTS},"hidden":{hidden},"stages":[{}]}}"#,
            stages.join(",")
        )
    }

    fn input(a: f32, b: f32) -> Vec<f32> {
        let mut x = vec![0.0; INPUTS];
        x[0] = a;
        x[1] = b;
        x
    }

    #[test]
    fn worked_value() {
        // Two units, stage 0: pre = (0.5 + x0, 0.5 - 2 x1), w2 = (1, 2).
        let net = BoardNet::parse(&file(2, "")).unwrap();
        assert_eq!(net.hidden(), 2);
        assert_eq!(net.linear(0)[16], 0.25);
        // x = (3, 0): relu(3.5) * 1 + relu(0.5) * 2 = 4.5.
        assert_eq!(net.value(0, &input(3.0, 0.0)), 4.5);
        // x = (0, 1): relu(0.5) * 1 + relu(-1.5) * 2 = 0.5 (the second unit is off).
        assert_eq!(net.value(0, &input(0.0, 1.0)), 0.5);
        // Stage 2 has w2 = (3, 4): x = (1, 0): 1.5 * 3 + 0.5 * 4 = 6.5; stages past the
        // last are the last's (w2 = (5, 6) at stage 4).
        assert_eq!(net.value(2, &input(1.0, 0.0)), 6.5);
        assert_eq!(
            net.value(9, &input(1.0, 0.0)),
            net.value(4, &input(1.0, 0.0))
        );
        assert_eq!(net.value(4, &input(1.0, 0.0)), 1.5 * 5.0 + 0.5 * 6.0);
        // Input 41 (the first of the boards) drives unit 1 down too: relu(3.5) + 0.
        let mut x = input(3.0, 0.0);
        x[41] = 1.0;
        assert_eq!(net.value(0, &x), 3.5);
    }

    #[test]
    fn state_values_are_the_observations_values_cache_or_not() {
        use crate::observation::write_observation;
        use tessera_core::PlayerId;
        let net = random_net(2, 7);
        let states = crate::state::random_playout(2, 3);
        // Cold: each state in a thread of its own, so nothing is cached.
        let cold: Vec<[f32; 4]> = states
            .iter()
            .map(|s| {
                let (net, s) = (net.clone(), s.clone());
                std::thread::spawn(move || net.state_values(stage_of(&s), &s))
                    .join()
                    .unwrap()
            })
            .collect();
        let mut obs = vec![0.0; INPUTS];
        for _ in 0..2 {
            for (s, c) in states.iter().zip(&cold) {
                let stage = stage_of(s);
                assert_eq!(net.state_values(stage, s), *c, "warm against cold");
                for (seat, &have) in c.iter().enumerate().take(2) {
                    write_observation(s, PlayerId(seat as u8), &mut obs);
                    let want = net.value(stage, &obs);
                    assert!((want - have).abs() < 1e-4, "{want} against {have}");
                }
            }
        }
    }

    /// A stage for a test position (any will do: each stage has its own weights).
    fn stage_of(s: &AzulState) -> usize {
        s.round() as usize % NUM_STAGES
    }

    /// A network for `n` players with every weight drawn from a seeded generator.
    fn random_net(n: usize, seed: u64) -> BoardNet {
        use rand::Rng;
        let mut rng = tessera_core::rng::seeded(seed);
        let inputs = observation_len(n);
        let mut draw = |k: usize, scale: f32| -> String {
            (0..k)
                .map(|_| format!("{}", rng.random_range(-scale..scale)))
                .collect::<Vec<_>>()
                .join(",")
        };
        let stages: Vec<String> = (0..NUM_STAGES)
            .map(|_| {
                format!(
                    r#"{{"linear":[{}],"w1":[{}],"b1":[{}],"w2":[{}]}}"#,
                    draw(NUM_FEATURES, 0.1),
                    draw(inputs * MAX_HIDDEN, 0.3),
                    draw(MAX_HIDDEN, 0.5),
                    draw(MAX_HIDDEN, 0.5)
                )
            })
            .collect();
        BoardNet::parse(&format!(
            r#"{{"format":1,"players":{n},"inputs":{inputs},"hidden":{MAX_HIDDEN},"stages":[{}]}}"#,
            stages.join(",")
        ))
        .unwrap()
    }

    #[test]
    fn every_table_size_reads_the_state_as_its_observation() {
        use crate::observation::write_observation;
        use tessera_core::PlayerId;
        for n in 2..=4 {
            let net = random_net(n, n as u64);
            let mut obs = vec![0.0; observation_len(n)];
            let mut checked = 0;
            for s in crate::state::random_playout(n, 10 + n as u64) {
                let stage = stage_of(&s);
                let got = net.state_values(stage, &s);
                for (seat, &have) in got.iter().enumerate() {
                    if seat < n {
                        write_observation(&s, PlayerId(seat as u8), &mut obs);
                        let want = net.value(stage, &obs);
                        assert!(
                            (want - have).abs() < 1e-3,
                            "{n} players, seat {seat}: {want} against {have}"
                        );
                    } else {
                        assert_eq!(have, 0.0);
                    }
                }
                checked += 1;
            }
            assert!(checked > 40, "{n}: {checked}");
        }
    }

    #[test]
    fn checks_in_the_file_must_reproduce() {
        let x: Vec<String> = input(3.0, 0.0).iter().map(|v| v.to_string()).collect();
        let good = format!(r#"{{"input":[{}],"value":4.5}}"#, x.join(","));
        assert!(BoardNet::parse(&file(2, &good)).is_ok());
        let bad = format!(r#"{{"input":[{}],"value":4.6}}"#, x.join(","));
        let err = BoardNet::parse(&file(2, &bad)).unwrap_err();
        assert!(
            matches!(err, NetError::Check { stage: 0, index: 0, got, .. } if got == 4.5),
            "{err}"
        );
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let msg = |text: &str| BoardNet::parse(text).unwrap_err().to_string();
        assert!(msg("not json").contains("not valid JSON"));
        assert!(msg(&file(2, "").replace("\"hidden\":2", "\"hidden\":3")).contains("stage 0"));
        // A two-player network's inputs named as three players': the length is wrong.
        let three = msg(&file(2, "").replace("\"players\":2", "\"players\":3"));
        assert!(
            three.contains("3 players and 158 inputs") && three.contains("(226)"),
            "{three}"
        );
        let five = msg(&file(2, "").replace("\"players\":2", "\"players\":5"));
        assert!(five.contains("2 to 4 players"), "{five}");
        assert!(msg(&file(2, "").replace("\"format\":1", "\"format\":2")).contains("format 2"));
        let big = file(MAX_HIDDEN + 1, "");
        assert!(BoardNet::parse(&file(MAX_HIDDEN, "")).is_ok());
        assert!(msg(&big).contains("hidden units"));
        let nan = file(2, "").replacen("0.25", "1e999", 1);
        assert!(msg(&nan).contains("not valid JSON") || msg(&nan).contains("finite"));
    }
}
