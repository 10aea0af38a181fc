//! The observation vector of a position for learning code: every number on the table, the
//! observer's board first (the Python package's `observation`; `tessera train
//! --observations` writes it for value learning).

use crate::{AzulState, NUM_COLOURS, num_factories};
use tessera_core::{Game, PlayerId, Turn};

/// Numbers per board in the observation (see [`write_observation`]).
pub const BOARD_LEN: usize = 25 + 25 + 6 + 1;

/// Length of the observation vector for `players` players.
pub const fn observation_len(players: usize) -> usize {
    5 * num_factories(players) + 6 + 10 + BOARD_LEN * players + players + 1
}

/// Writes seat `seat`'s observation into `out` (length [`observation_len`]). Azul hides
/// nothing (the bag is known by its counts), so every seat sees the whole table; the boards
/// are rotated so that the observer's comes first. Layout (all counts as plain numbers):
///
/// | offset | length | content |
/// |---|---|---|
/// | 0 | 5F | factory `i` (`F = 2n + 1`), tiles of each colour (B Y R K W) |
/// | 5F | 6 | centre: tiles of each colour, then 1 if the first-player token is there |
/// | 5F+6 | 5 | bag: tiles of each colour |
/// | 5F+11 | 5 | box lid: tiles of each colour |
/// | 5F+16 | 57n | boards, the observer's first, then clockwise: 25 pattern-line cells (line `r`, colour `c` at `5r + c`: tiles of that colour on the line), 25 wall cells (row-major, 1 = tiled), 5 floor tiles per colour, 1 token on the floor, the score |
/// | 5F+16+57n | n | whose turn, relative to the observer (one-hot; all 0 once the game is over) |
/// | 5F+16+58n | 1 | the round number |
pub fn write_observation(state: &AzulState, seat: PlayerId, out: &mut [f32]) {
    let n = state.num_players();
    debug_assert_eq!(out.len(), observation_len(n));
    out.fill(0.0);
    let mut o = 0;
    for f in state.factories() {
        for c in 0..NUM_COLOURS {
            out[o + c] = f.0[c] as f32;
        }
        o += 5;
    }
    let centre = state.centre();
    for c in 0..NUM_COLOURS {
        out[o + c] = centre.0[c] as f32;
    }
    out[o + 5] = state.token_in_centre() as u8 as f32;
    o += 6;
    for t in [state.bag(), state.lid()] {
        for c in 0..NUM_COLOURS {
            out[o + c] = t.0[c] as f32;
        }
        o += 5;
    }
    for k in 0..n {
        let b = state.board(PlayerId(((seat.index() + k) % n) as u8));
        for r in 0..5 {
            if let Some((c, count)) = b.pattern_line(r) {
                out[o + 5 * r + c.index()] = count as f32;
            }
        }
        for cell in 0..25 {
            out[o + 25 + cell] = (b.wall() >> cell & 1) as f32;
        }
        let floor = b.floor();
        for c in 0..NUM_COLOURS {
            out[o + 50 + c] = floor.0[c] as f32;
        }
        out[o + 55] = b.has_token() as u8 as f32;
        out[o + 56] = b.score() as f32;
        o += BOARD_LEN;
    }
    if let Turn::Player(p) = state.turn() {
        out[o + (p.index() + n - seat.index()) % n] = 1.0;
    }
    o += n;
    out[o] = state.round() as f32;
}
