//! A learned leave value: the points a player can expect on its next turn from the tiles it
//! keeps after a placement (before it draws), as a linear function of a few features of the
//! kept tiles, fitted by least squares on seeded games of the `points` policy against itself
//! with some exploration among the best placements ([`normal_equations`]; the system is
//! solved by `tessera_search::learn::solve_spd`, `tessera train qwirkle-leave`).
//!
//! The features: the number of tiles kept (one indicator for each of 1-5), the pairs of
//! equal tiles, of tiles sharing only a colour and of tiles sharing only a shape, and the
//! size of the largest group of distinct tiles sharing a colour or a shape (one indicator
//! for each of 2-5). Nothing of the board: the value is what the kept tiles are worth on an
//! average board.

use rand::Rng;
use tessera_core::rng::{derive_seed, seeded};
use tessera_core::{Game, Turn};

use crate::bots::fallback_move;
use crate::movegen::Scored;
use crate::{Move, ParseError, Qwirkle, Tile};

/// The number of features, the constant included.
pub const FEATURES: usize = 13;

/// The features' names, in order.
pub const NAMES: [&str; FEATURES] = [
    "constant", "kept=1", "kept=2", "kept=3", "kept=4", "kept=5", "equal", "colour", "shape",
    "group=2", "group=3", "group=4", "group=5",
];

/// The weights shipped with `sage`'s `lleave` option: the least-squares solution of
/// `normal_equations(20000, 4242)` with the ridge [`RIDGE`] (the command `tessera train
/// qwirkle-leave --games 20000 --seed 4242 --check` prints them and compares), rounded to
/// thousandths.
pub const WEIGHTS: [f64; FEATURES] = [
    8.000, 1.262, 0.590, 0.063, -0.382, -1.058, -0.493, 0.067, 0.074, 0.107, 0.509, 1.710, 2.918,
];

/// The features of a set of kept tiles (0-5 tiles).
pub fn features(kept: &[Tile]) -> [f64; FEATURES] {
    let mut f = [0.0; FEATURES];
    f[0] = 1.0;
    let k = kept.len();
    if (1..=5).contains(&k) {
        f[k] = 1.0;
    }
    let mut colours = [0u8; 6];
    let mut shapes = [0u8; 6];
    for (i, &a) in kept.iter().enumerate() {
        for &b in &kept[..i] {
            if a == b {
                f[6] += 1.0;
            } else if a.color() == b.color() {
                f[7] += 1.0;
            } else if a.shape() == b.shape() {
                f[8] += 1.0;
            }
        }
        // Distinct tiles only: a duplicate adds nothing to a group.
        if !kept[..i].contains(&a) {
            colours[a.color() as usize] += 1;
            shapes[a.shape() as usize] += 1;
        }
    }
    let group = colours.iter().chain(&shapes).copied().max().unwrap_or(0) as usize;
    if (2..=5).contains(&group) {
        f[7 + group] = 1.0;
    }
    f
}

/// The learned value of keeping `kept`: the points expected on the next turn.
pub fn value(weights: &[f64; FEATURES], kept: &[Tile]) -> f64 {
    weights.iter().zip(features(kept)).map(|(w, x)| w * x).sum()
}

/// The ridge added to the normal equations' diagonal, for the features a run never sees.
pub const RIDGE: f64 = 1e-6;

/// The normal equations of a least-squares fit of the leave: `a = X'X`, `b = X'y` over the
/// samples seen.
#[derive(Clone, Debug, PartialEq)]
pub struct NormalEquations {
    /// `X'X`.
    pub a: [[f64; FEATURES]; FEATURES],
    /// `X'y`.
    pub b: [f64; FEATURES],
    /// The samples added.
    pub samples: u64,
}

impl Default for NormalEquations {
    fn default() -> Self {
        NormalEquations {
            a: [[0.0; FEATURES]; FEATURES],
            b: [0.0; FEATURES],
            samples: 0,
        }
    }
}

impl NormalEquations {
    /// Adds one sample: the features `f` and the target `y`.
    pub fn add(&mut self, f: &[f64; FEATURES], y: f64) {
        for (row, &fr) in self.a.iter_mut().zip(f) {
            for (x, &fc) in row.iter_mut().zip(f) {
                *x += fr * fc;
            }
        }
        for (x, &fr) in self.b.iter_mut().zip(f) {
            *x += fr * y;
        }
        self.samples += 1;
    }

    /// `a + ridge I`, row-major (the layout `tessera_search::learn::solve_spd` takes).
    pub fn ridged(&self, ridge: f64) -> Vec<f64> {
        let mut out: Vec<f64> = self.a.iter().flatten().copied().collect();
        for i in 0..FEATURES {
            out[i * FEATURES + i] += ridge;
        }
        out
    }
}

/// The normal equations of the leave over `games` two-player games of the `points` policy
/// against itself, in which every placement is the best by points with probability 1/2 and
/// otherwise one of the six best at random (so that leaves a greedy player would not choose
/// are seen too): for every placement after which the bag still holds tiles, the features
/// of the tiles kept and the points the same player scores on its next turn (0 after a
/// trade, the +6 included). Game `g`'s chance comes from `derive_seed(seed, g)` and its
/// choices from `derive_seed(seed + 101, g)`.
pub fn normal_equations(games: u64, seed: u64) -> Result<NormalEquations, ParseError> {
    let mut eq = NormalEquations::default();
    let mut buf: Vec<Scored> = Vec::new();
    for g in 0..games {
        let mut s = Qwirkle::new(2)?;
        let mut chance = seeded(derive_seed(seed, g));
        let mut rng = seeded(derive_seed(seed.wrapping_add(101), g));
        let mut pending: [Option<[f64; FEATURES]>; 2] = [None, None];
        loop {
            match s.turn() {
                Turn::Terminal => break,
                Turn::Chance => {
                    let d = s.sample_chance(&mut chance);
                    if s.apply_chance(&d).is_err() {
                        break;
                    }
                }
                Turn::Player(p) => {
                    s.scored_placements(&mut buf);
                    // Stable: equal scores keep the generator's order.
                    buf.sort_by_key(|x| std::cmp::Reverse(x.score));
                    let before = s.scores()[p];
                    let m = if buf.is_empty() {
                        fallback_move(&s, &mut rng)
                    } else {
                        let j = if rng.random_bool(0.5) {
                            0
                        } else {
                            rng.random_range(0..buf.len().min(6))
                        };
                        Move::Place(buf[j].placement)
                    };
                    let kept = match m {
                        Move::Place(pl) => s.kept_after(p, &pl),
                        _ => None,
                    };
                    let bag_left = s.bag().total();
                    s.apply(m);
                    if let Some(f) = pending[p.index()].take() {
                        eq.add(&f, f64::from(s.scores()[p] - before));
                    }
                    pending[p.index()] = kept.filter(|_| bag_left > 0).map(|k| features(&k));
                }
            }
        }
    }
    Ok(eq)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The least-squares weights of `eq`, as `tessera train qwirkle-leave` solves them.
    fn solve(eq: &NormalEquations) -> Vec<f64> {
        tessera_search::learn::solve_spd(&eq.ridged(RIDGE), &eq.b, FEATURES)
            .expect("positive definite")
    }

    fn tiles(text: &str) -> Vec<Tile> {
        text.split_whitespace()
            .map(|t| t.parse().expect("a tile"))
            .collect()
    }

    #[test]
    fn the_features_of_worked_examples() {
        // Nothing kept: the constant alone.
        let mut expected = [0.0; FEATURES];
        expected[0] = 1.0;
        assert_eq!(features(&[]), expected);
        // R1 R2 R2 B1: four kept; R2 R2 equal; R1-R2 twice a colour; R1-B1 a shape; R2-B1
        // nothing; the largest group two (R1 R2, or R1 B1).
        let f = features(&tiles("R1 R2 R2 B1"));
        let mut expected = [0.0; FEATURES];
        expected[0] = 1.0;
        expected[4] = 1.0;
        expected[6] = 1.0;
        expected[7] = 2.0;
        expected[8] = 1.0;
        expected[9] = 1.0;
        assert_eq!(f, expected);
        // Five reds of five shapes: ten colour pairs, a group of five.
        let f = features(&tiles("R1 R2 R3 R4 R5"));
        assert_eq!((f[5], f[6], f[7], f[8], f[12]), (1.0, 0.0, 10.0, 0.0, 1.0));
        // Three of one shape, one twice: the group counts distinct tiles (two), the
        // equal pair counts once, the shape pairs twice.
        let f = features(&tiles("G3 G3 P3"));
        assert_eq!(
            (f[3], f[6], f[7], f[8], f[9], f[10]),
            (1.0, 1.0, 0.0, 2.0, 1.0, 0.0)
        );
        // A single tile has no pair and no group.
        let f = features(&tiles("Y6"));
        assert_eq!(f.iter().sum::<f64>(), 2.0);
        assert_eq!(f[1], 1.0);
    }

    #[test]
    fn the_solver_recovers_an_exact_linear_relation() {
        // Rows of every kept size and group; targets an exact linear function of the
        // features: the least-squares solution returns its weights.
        let truth: [f64; FEATURES] = [
            7.0, 1.5, 0.5, 0.0, -0.5, -1.0, -0.4, 0.1, 0.2, 0.1, 0.6, 1.7, 3.0,
        ];
        let hands = [
            "R1",
            "R1 B1",
            "R1 R1",
            "R1 R2",
            "R1 B2",
            "R1 R2 R3",
            "R1 B1 G1",
            "R1 R1 B2",
            "R1 R2 R3 R4",
            "R1 B1 G1 Y1",
            "R1 R2 B3 G4",
            "R1 R2 R3 R4 R5",
            "R1 B1 G1 Y1 P1",
            "R1 R1 R2 B3 B3",
            "R1 R2 R3 B1 B1",
            "Y2 Y3 P2 P3 G5",
        ];
        let mut eq = NormalEquations::default();
        for h in [""].iter().chain(&hands) {
            let f = features(&tiles(h));
            let y: f64 = truth.iter().zip(&f).map(|(w, x)| w * x).sum();
            eq.add(&f, y);
        }
        let w = solve(&eq);
        for (i, (got, want)) in w.iter().zip(&truth).enumerate() {
            assert!(
                (got - want).abs() < 1e-3,
                "{}: {got} against {want}",
                NAMES[i]
            );
        }
    }

    #[test]
    fn a_fit_is_reproducible_from_its_seed() {
        let fit = |seed| {
            let eq = normal_equations(60, seed).expect("games");
            (solve(&eq), eq.samples)
        };
        let (a, n) = fit(7);
        let (b, m) = fit(7);
        assert_eq!((&a, n), (&b, m));
        assert!(n > 1000, "{n} samples");
        let (c, _) = fit(8);
        assert_ne!(a, c, "another seed, other games");
        assert!(a.iter().all(|v| v.is_finite()));
        // The constant (the value of keeping nothing) lies among a turn's usual points.
        assert!((5.0..11.0).contains(&a[0]), "{}", a[0]);
    }

    #[test]
    fn the_shipped_weights_prefer_a_kept_line_to_scattered_tiles() {
        // Four reds of four shapes (a line waiting for two) against four tiles that share
        // nothing pairwise but a colour or shape once.
        let line = value(&WEIGHTS, &tiles("R1 R2 R3 R4"));
        let scattered = value(&WEIGHTS, &tiles("R1 B2 G3 Y4"));
        let doubled = value(&WEIGHTS, &tiles("R1 R1 B2 B2"));
        assert!(line > scattered + 1.0, "{line} against {scattered}");
        assert!(scattered > doubled, "{scattered} against {doubled}");
    }
}
