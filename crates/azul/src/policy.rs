//! A policy prior for tree searches: a linear term in features of a move, added to the
//! priors' log-odds, fitted to the moves a search chose (`scripts/fit-policy-prior.py` on
//! the rows of `crates/house/examples/policy_data.rs`).

use tessera_core::PlayerId;

use crate::action::{AzulAction, Dest, Source};
use crate::state::AzulState;

/// How many features [`move_features`] reads.
pub const POLICY_FEATURES: usize = 12;

/// The features' names, in [`move_features`]'s order.
pub const POLICY_FEATURE_NAMES: [&str; POLICY_FEATURES] = [
    "taken",
    "to_floor",
    "token",
    "completed",
    "floor_dest",
    "gained",
    "colour_left",
    "next_lines",
    "to_centre",
    "row",
    "table_left",
    "centre_after",
];

fn colour_on_table(s: &AzulState, a: AzulAction) -> u32 {
    let c = a.colour.index();
    u32::from(s.centre().0[c]) + s.factories().iter().map(|f| u32::from(f.0[c])).sum::<u32>()
}

fn tiles(t: &crate::colour::Tiles) -> u32 {
    t.0.iter().map(|&x| u32::from(x)).sum()
}

/// Features of move `a` by `m`, the player to move at `before`, with `after` the position
/// the move leads to: tiles taken; tiles that go to the floor (the overflow, or all of
/// them); the first-player token taken (0/1); the pattern line completed (0/1); straight to
/// the floor (0/1); the mover's projected score gained; tiles of the colour left on the
/// table; the next player's pattern lines that accept the colour, if any of it is left;
/// tiles moved to the centre (a factory's rest); the destination row (0-4, 5 the floor)
/// over 5; the tiles left on the table; the centre's tiles.
pub fn move_features(
    before: &AzulState,
    a: AzulAction,
    after: &AzulState,
    m: PlayerId,
) -> [f32; POLICY_FEATURES] {
    let was = before.board(m);
    let now = after.board(m);
    let source = match a.source {
        Source::Centre => before.centre(),
        Source::Factory(i) => before
            .factories()
            .get(usize::from(i))
            .copied()
            .unwrap_or_default(),
    };
    let taken = u32::from(source.0[a.colour.index()]);
    let to_floor = tiles(&now.floor()).saturating_sub(tiles(&was.floor()));
    let token = now.has_token() && !was.has_token();
    let (completed, row) = match a.dest {
        Dest::Line(r) => (now.line_is_full(usize::from(r)), f32::from(r)),
        Dest::Floor => (false, 5.0),
    };
    let gained = now.projected_score() - was.projected_score();
    let left = colour_on_table(after, a);
    let n = before.boards().len().max(1) as u8;
    let next = PlayerId((m.0 + 1) % n);
    let next_lines = if left > 0 {
        after.board(next).line_mask(a.colour).count_ones()
    } else {
        0
    };
    let to_centre = match a.source {
        Source::Centre => 0,
        Source::Factory(_) => tiles(&source).saturating_sub(taken),
    };
    [
        taken as f32,
        to_floor as f32,
        f32::from(u8::from(token)),
        f32::from(u8::from(completed)),
        f32::from(u8::from(matches!(a.dest, Dest::Floor))),
        gained as f32,
        left as f32,
        next_lines as f32,
        to_centre as f32,
        row / 5.0,
        after.tiles_on_table() as f32,
        tiles(&after.centre()) as f32,
    ]
}

/// A policy prior: the priors' log-odds times `scale`, plus `weights` times the move's
/// [`move_features`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PolicyPrior {
    /// What the static log-odds are multiplied by (one over the priors' temperature).
    pub scale: f32,
    /// The features' weights, in logits a unit.
    pub weights: [f32; POLICY_FEATURES],
}

impl PolicyPrior {
    /// The term added to `scale` times a move's static log-odds.
    pub fn bias(&self, before: &AzulState, a: AzulAction, after: &AzulState, m: PlayerId) -> f32 {
        let f = move_features(before, a, after, m);
        self.weights.iter().zip(f).map(|(w, x)| w * x).sum()
    }
}

/// The policy prior fitted on 2026-12-06 (docs/players.md, "A policy prior from the
/// search's own moves"): `python3 scripts/fit-policy-prior.py --best` on the rows of
/// `policy_data` (two runs of 450 games at 100,000 nodes a move, seeds 101 and 102).
pub const POLICY_V1: PolicyPrior = PolicyPrior {
    scale: 2.192,
    weights: [
        0.3123, -0.5363, 0.4823, 1.1720, -0.6076, 0.0087, -0.1811, 0.1080, -0.5187, 0.7862,
        -0.0512, 0.2548,
    ],
};

/// The features alone, for a search that does not value the children before it chooses
/// among them (`oracle:lazy=1`): fitted on the same rows, 2026-12-06, by
/// `python3 scripts/fit-policy-prior.py --best --features-only` (its fit (c)); `scale` 0,
/// since there are no static log-odds to weigh.
pub const POLICY_V1_ALONE: PolicyPrior = PolicyPrior {
    scale: 0.0,
    weights: [
        0.2949, -0.5476, 0.7249, 1.5418, -0.9308, 0.2432, -0.1854, 0.1767, -0.5509, 1.3960,
        -0.0484, 0.3015,
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::Game;

    /// Seat 1 to move in round 1: factories `BBYR` and `KKWW` left, the centre `RRY` with
    /// the token; seat 1 has one blue on line 2, seat 2 a full line 3 of red and a black
    /// tile on the floor.
    const POSITION: &str = "2 1 play 1 1 BBYR/KKWW/-/-/- 1RRY 17,18,14,17,18 0,0,0,0,0 \
        0:-,B1,-,-,-:...../...../...../...../.....:- \
        0:-,-,R3,-,-:...../...../...../...../.....:K";

    fn features_of(text: &str) -> [f32; POLICY_FEATURES] {
        let s: AzulState = POSITION.parse().expect("the worked position parses");
        let a: AzulAction = text.parse().expect("a move");
        let mut after = s.clone();
        after.apply(a);
        move_features(&s, a, &after, PlayerId(0))
    }

    #[test]
    fn features_of_worked_moves() {
        // The centre's two reds to line 1: one placed (the line is complete and would score
        // 1), one and the token to the floor (-2): the projected score stays at 0. One red is
        // left (in factory 1), and all of seat 2's lines but the full third accept red. The
        // table keeps factories 1 and 2 (8 tiles) and the centre's yellow.
        assert_eq!(
            features_of("CR1"),
            [2.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 4.0, 0.0, 0.0, 9.0, 1.0]
        );
        // Factory 1's two blues to line 5: nothing to the floor, no blue left on the table,
        // its yellow and red pushed to the centre (now 5 tiles), 9 tiles left.
        assert_eq!(
            features_of("1B5"),
            [2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.8, 9.0, 5.0]
        );
        // Factory 2's two whites straight to the floor: two floor tiles, whose -2 the
        // projected score, clamped at 0, does not show.
        assert_eq!(
            features_of("2WF"),
            [2.0, 2.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 1.0, 9.0, 5.0]
        );
    }

    #[test]
    fn the_bias_is_the_weighted_sum_of_the_features() {
        let s: AzulState = POSITION.parse().expect("the worked position parses");
        let a: AzulAction = "1B5".parse().expect("a move");
        let mut after = s.clone();
        after.apply(a);
        let f = move_features(&s, a, &after, PlayerId(0));
        let want: f32 = POLICY_V1.weights.iter().zip(f).map(|(w, x)| w * x).sum();
        assert_eq!(POLICY_V1.bias(&s, a, &after, PlayerId(0)), want);
        let none = PolicyPrior {
            scale: 1.0,
            weights: [0.0; POLICY_FEATURES],
        };
        assert_eq!(none.bias(&s, a, &after, PlayerId(0)), 0.0);
    }
}
