//! Azul evaluators for search players: a value per player for a state.
//!
//! - [`blog_values`]: the blog seed's value function. Each player's score if the round ended
//!   now: full pattern lines move to the wall and score, the floor penalty is taken, plus the
//!   score so far ([`AzulState::projected_score`]). A search uses `mine - opponent's`.
//! - [`StrongEval`]: the blog's projection plus what it ignores: the end-of-game bonuses
//!   (exact when the game ends this round, estimated from progress otherwise), partly filled
//!   pattern lines, wall adjacency and the first-player token. Values are in hundredths of a
//!   point.
//! - [`state_key`]: a 64-bit hash of everything that matters for search (for transposition
//!   tables).
//!
//! ```
//! use tessera_azul::{AzulState, eval::{blog_values, StrongEval}};
//! use tessera_core::{Game, PlayerId, rng::seeded};
//! let mut s = AzulState::new(2, PlayerId(0));
//! let deal = s.sample_chance(&mut seeded(1));
//! s.apply_chance(&deal).unwrap();
//! assert_eq!(blog_values(&s).as_slice(), &[0, 0]);
//! let v = StrongEval::default().values(&s);
//! assert_eq!(v.len(), 2);
//! ```

use tessera_core::rng::mix64;
use tessera_core::{Game, PerPlayer};

use crate::colour::{Colour, NUM_COLOURS};
use crate::scoring::{
    WALL_SIZE, adjacency_potential, colour_mask, column_mask, placement_score, row_mask,
    wall_bonus, wall_column,
};
use crate::state::{AzulState, Board, Phase};

/// The blog's value per player: the score each player would have if the round ended now.
pub fn blog_values(s: &AzulState) -> PerPlayer<i32> {
    PerPlayer::from_fn(s.num_players(), |p| s.projected_score(p))
}

/// Weights of [`StrongEval`], in hundredths of a point per unit of each feature.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Weight of the expected row bonus (2 points per row, scaled by progress).
    pub row: i32,
    /// Weight of the expected column bonus (7 points).
    pub column: i32,
    /// Weight of the expected colour bonus (10 points).
    pub colour: i32,
    /// Weight of a partly filled pattern line (expected points of its placement times the
    /// filled fraction).
    pub partial_line: i32,
    /// Per empty wall cell next to tiled cells (future adjacency points).
    pub adjacency: i32,
    /// Holding the first-player token (moving first next round).
    pub token: i32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            row: 150,
            column: 150,
            colour: 150,
            partial_line: 60,
            adjacency: 15,
            token: 100,
        }
    }
}

/// The stronger evaluator (see the module docs). Values are in hundredths of a point.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StrongEval {
    /// Feature weights.
    pub weights: Weights,
}

/// Tiles a board would have in each wall row, column and colour if the round ended now.
fn progress_factor(k: u32, missing_rounds: u32, rounds_left: u32) -> i32 {
    // Expected share of a 5-tile unit's bonus: quadratic in the tiles present, and zero if it
    // cannot be completed in the rounds left.
    if k >= 5 {
        return 100;
    }
    if missing_rounds > rounds_left {
        return 0;
    }
    (k * k * 100 / 25) as i32 * (rounds_left.min(3) as i32 + 1) / 4
}

impl StrongEval {
    /// A value per player, in hundredths of a point.
    pub fn values(&self, s: &AzulState) -> PerPlayer<i32> {
        let n = s.num_players();
        // Each board's projected wall and score, in one pass.
        let proj: PerPlayer<(u32, i32)> = PerPlayer::from_fn(n, |p| s.board(p).projection());
        let walls: PerPlayer<u32> = PerPlayer::from_fn(n, |p| proj[p].0);
        let over = s.phase() == Phase::Over;
        // The game ends after this round's tiling if any projected wall has a full row.
        let ends = over
            || walls
                .as_slice()
                .iter()
                .any(|&w| (0..WALL_SIZE).any(|r| w & row_mask(r) == row_mask(r)));
        // Rounds left after this one, estimated from the fullest row at the table.
        let max_row = walls
            .as_slice()
            .iter()
            .map(|&w| {
                (0..WALL_SIZE)
                    .map(|r| (w & row_mask(r)).count_ones())
                    .max()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0);
        let rounds_left = if ends { 0 } else { (5 - max_row).clamp(1, 4) };
        PerPlayer::from_fn(n, |p| {
            let b = s.board(p);
            let base = if over {
                b.score() * 100
            } else if ends {
                (proj[p].1 + wall_bonus(walls[p]) as i32) * 100
            } else {
                proj[p].1 * 100 + self.future(b, walls[p], rounds_left)
            };
            let token = if !over && !ends && b.has_token() {
                self.weights.token
            } else {
                0
            };
            base + token
        })
    }

    /// Expected future points of a board whose wall after this round is `wall`.
    fn future(&self, b: &Board, wall: u32, rounds_left: u32) -> i32 {
        let w = &self.weights;
        let mut v = 0;
        for r in 0..WALL_SIZE {
            let k = (wall & row_mask(r)).count_ones();
            // A row gains at most one tile per round.
            v += w.row * 2 * progress_factor(k, 5 - k, rounds_left) / 100;
        }
        for c in 0..WALL_SIZE {
            let k = (wall & column_mask(c)).count_ones();
            v += w.column * 7 * progress_factor(k, 1, rounds_left) / 100;
        }
        for c in Colour::ALL {
            let k = (wall & colour_mask(c)).count_ones();
            v += w.colour * 10 * progress_factor(k, 1, rounds_left) / 100;
        }
        // Partly filled pattern lines (full ones are already on the projected wall).
        for row in 0..WALL_SIZE {
            if let Some((c, cnt)) = b.pattern_line(row)
                && !b.line_is_full(row)
            {
                let col = wall_column(row, c);
                let pts = placement_score(wall, row, col) as i32;
                v += w.partial_line * pts * cnt as i32 / (row as i32 + 1);
            }
        }
        // Empty cells next to tiles promise adjacency points.
        v += w.adjacency * adjacency_potential(wall) as i32;
        v
    }
}

/// A 64-bit hash of a state for transposition tables: factories, centre, token, every
/// board, the mover and the phase (bag and lid are left out: they do not change within a
/// round, and searches treat the round's end as a leaf).
pub fn state_key(s: &AzulState) -> u64 {
    let pack = |t: &crate::colour::Tiles| -> u64 {
        let mut x = 0u64;
        for i in 0..NUM_COLOURS {
            x = (x << 6) | u64::from(t.0[i] & 63);
        }
        x
    };
    let mut h = mix64(0xA2u64 ^ ((s.phase() as u64) << 8));
    if let Some(p) = s.current_player() {
        h = mix64(h ^ (0x100 + u64::from(p.0)));
    }
    for (i, f) in s.factories().iter().enumerate() {
        h = mix64(h ^ pack(f) ^ ((i as u64) << 40));
    }
    h = mix64(h ^ pack(&s.centre()) ^ (u64::from(s.token_in_centre()) << 50));
    for (i, b) in s.boards().iter().enumerate() {
        let mut lines = 0u64;
        for row in 0..WALL_SIZE {
            let (c, n) = b
                .pattern_line(row)
                .map_or((0, 0), |(c, n)| (c as u64, n as u64));
            lines = (lines << 6) | (c << 3) | n;
        }
        h = mix64(h ^ lines ^ ((i as u64) << 44));
        h = mix64(
            h ^ u64::from(b.wall()) ^ (pack(&b.floor()) << 25) ^ (u64::from(b.has_token()) << 63),
        );
        h = mix64(h ^ (b.score() as u64) ^ ((i as u64) << 20));
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::{PlayerId, Turn};

    fn playout(seed: u64) -> Vec<AzulState> {
        crate::state::random_playout(2, seed)
    }

    #[test]
    fn blog_value_is_projected_score() {
        // A board like the blog's worked example: score 3, two full lines that each score 2
        // (yellow beside the blue tile, white below it), an unfinished line and one floor
        // tile: 3 + 2 + 2 - 1 = 6. The opponent has 8 points on an empty board.
        let text = "2 2 play 1 1 BBYR/-/-/-/- 1 17,17,18,20,18 0,0,0,0,0 \
            3:Y1,W2,Y1,-,-:B..../...../...../...../.....:R \
            8:-,-,-,-,-:...../...../...../...../.....:-";
        let s: AzulState = text.parse().unwrap();
        assert_eq!(blog_values(&s).as_slice(), &[6, 8]);
        for s in playout(3) {
            let v = blog_values(&s);
            for p in PlayerId::all(2) {
                assert_eq!(v[p], s.projected_score(p));
                if s.turn() == Turn::Chance || s.turn() == Turn::Terminal {
                    // After the tiling the projection is the score itself.
                    assert_eq!(v[p], s.board(p).score());
                }
            }
        }
    }

    #[test]
    fn strong_eval_is_exact_at_the_end() {
        for seed in 0..5 {
            let states = playout(seed);
            let last = states.last().unwrap();
            let v = StrongEval::default().values(last);
            for p in PlayerId::all(2) {
                assert_eq!(v[p], last.board(p).score() * 100);
            }
            // In the last round, once a row is full on a projected wall, the value is the
            // projected score plus the exact bonus.
            for s in &states {
                let walls: Vec<u32> = s.boards().iter().map(|b| b.projected_wall()).collect();
                let ends = walls
                    .iter()
                    .any(|&w| (0..5).any(|r| w & row_mask(r) == row_mask(r)));
                if ends && s.phase() == Phase::Draft {
                    let v = StrongEval::default().values(s);
                    for p in PlayerId::all(2) {
                        let want = s.projected_score(p) + wall_bonus(walls[p.index()]) as i32;
                        assert_eq!(v[p], want * 100);
                    }
                }
            }
        }
    }

    #[test]
    fn keys_distinguish_states_and_repeat() {
        let states = playout(11);
        let mut seen = std::collections::HashMap::new();
        for s in &states {
            let k = state_key(s);
            assert_eq!(k, state_key(&s.clone()));
            if let Some(prev) = seen.insert(k, s.clone()) {
                assert_eq!(&prev, s, "key collision");
            }
        }
        assert!(seen.len() > 50);
    }
}
