//! Azul for learning code: fixed action ids, the action mask and the observation vector.
//!
//! Action id = `source * 30 + colour * 6 + destination` (table in docs/python.md):
//! - source 0 is the centre, source `i` (1-9) factory `i` (as in the notation `3Y2`);
//! - colour 0-4 is blue, yellow, red, black, white (the notation's `B Y R K W`);
//! - destination 0-4 is pattern line 1-5, 5 the floor.
//!
//! so a game of `n` players has `(2n + 2) * 30` ids (180, 240, 300); an id means the same
//! action at every player count that has its source.

use tessera_azul::scoring::row_has_colour;
use tessera_azul::{AzulAction, AzulState, Colour, Dest, NUM_COLOURS, Source, num_factories};
use tessera_core::{Game, Turn};
use thiserror::Error;

pub use tessera_azul::observation::{BOARD_LEN, observation_len, write_observation};

/// Ids per source: 5 colours x 6 destinations.
pub const PER_SOURCE: usize = NUM_COLOURS * DESTS;
/// Destinations: 5 pattern lines and the floor.
pub const DESTS: usize = 6;

/// Number of action ids for `players` players.
pub fn num_actions(players: usize) -> usize {
    (num_factories(players) + 1) * PER_SOURCE
}

/// The id of an action.
pub fn encode(a: AzulAction) -> usize {
    let source = match a.source {
        Source::Centre => 0,
        Source::Factory(i) => i as usize + 1,
    };
    let dest = match a.dest {
        Dest::Line(r) => r as usize,
        Dest::Floor => 5,
    };
    source * PER_SOURCE + a.colour.index() * DESTS + dest
}

/// An action id outside the table of this player count.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("action id {id} is out of range: a {players}-player game has ids 0 to {}", num_actions(*players) - 1)]
pub struct IdError {
    /// The id given.
    pub id: i64,
    /// The table's player count.
    pub players: usize,
}

/// The action of an id, for a game of `players` players.
pub fn decode(id: i64, players: usize) -> Result<AzulAction, IdError> {
    if id < 0 || id as u64 >= num_actions(players) as u64 {
        return Err(IdError { id, players });
    }
    let id = id as usize;
    let (source, rest) = (id / PER_SOURCE, id % PER_SOURCE);
    let (colour, dest) = (rest / DESTS, rest % DESTS);
    Ok(AzulAction {
        source: if source == 0 {
            Source::Centre
        } else {
            Source::Factory(source as u8 - 1)
        },
        colour: Colour::from_index(colour),
        dest: if dest == 5 {
            Dest::Floor
        } else {
            Dest::Line(dest as u8)
        },
    })
}

/// Writes the action mask (1 = legal) of `state` into `mask` (length [`num_actions`]);
/// `buf` is scratch space reused across calls.
pub fn write_mask(state: &AzulState, buf: &mut Vec<AzulAction>, mask: &mut [u8]) {
    mask.fill(0);
    state.legal_actions(buf);
    for &a in buf.iter() {
        mask[encode(a)] = 1;
    }
}

/// Writes the action mask of `state` into `mask` (length [`num_actions`]; `zero` and `one`
/// of the mask's element type) straight from the sources and the mover's board, without
/// listing the actions (the batch's fast path; tests check it against [`write_mask`], which
/// lists them).
pub fn write_mask_direct<T: Copy>(state: &AzulState, mask: &mut [T], zero: T, one: T) {
    let Turn::Player(p) = state.turn() else {
        mask.fill(zero);
        return;
    };
    let b = state.board(p);
    let wall = b.wall();
    // Per colour: the row of six mask values (pattern lines 1-5, the floor) of a source
    // holding that colour.
    let mut accept = [[zero; DESTS]; NUM_COLOURS];
    for (c, row) in accept.iter_mut().enumerate() {
        let colour = Colour::from_index(c);
        for (r, cell) in row.iter_mut().take(5).enumerate() {
            let open = match b.pattern_line(r) {
                None => true,
                Some((held, n)) => held == colour && (n as usize) <= r,
            };
            if open && !row_has_colour(wall, r, colour) {
                *cell = one;
            }
        }
        row[5] = one;
    }
    let none = [zero; DESTS];
    let centre = state.centre();
    let sources = std::iter::once(&centre).chain(state.factories().iter());
    for (t, out) in sources.zip(mask.chunks_exact_mut(PER_SOURCE)) {
        for (c, cells) in out.chunks_exact_mut(DESTS).enumerate() {
            cells.copy_from_slice(if t.0[c] != 0 { &accept[c] } else { &none });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::PlayerId;
    use tessera_core::rng::seeded;

    #[test]
    fn ids_follow_the_documented_formula() {
        // Worked examples of docs/python.md.
        let id = |s: &str| encode(s.parse().expect("valid notation"));
        assert_eq!(id("CB1"), 0);
        assert_eq!(id("CBF"), 5);
        assert_eq!(id("CY1"), 6);
        assert_eq!(id("1B1"), 30);
        assert_eq!(id("3Y2"), 3 * 30 + 6 + 1);
        assert_eq!(id("5WF"), 5 * 30 + 4 * 6 + 5);
        assert_eq!(id("9WF"), 299);
        assert_eq!(num_actions(2), 180);
        assert_eq!(num_actions(3), 240);
        assert_eq!(num_actions(4), 300);
    }

    #[test]
    fn ids_round_trip_and_out_of_range_ids_are_refused() {
        for players in 2..=4 {
            for id in 0..num_actions(players) as i64 {
                let a = decode(id, players).expect("in range");
                assert_eq!(encode(a) as i64, id);
            }
            let n = num_actions(players) as i64;
            assert_eq!(decode(n, players), Err(IdError { id: n, players }));
            assert!(decode(-1, players).is_err());
            let msg = decode(n, players).unwrap_err().to_string();
            assert!(msg.contains(&format!("ids 0 to {}", n - 1)), "{msg}");
        }
    }

    #[test]
    fn the_mask_marks_exactly_the_legal_actions() {
        let mut rng = seeded(3);
        let mut s = AzulState::new_random(3, &mut rng);
        let mut buf = Vec::new();
        let mut mask = vec![0u8; num_actions(3)];
        while !s.is_terminal() {
            if s.turn() == Turn::Chance {
                let d = s.sample_chance(&mut rng);
                s.apply_chance(&d).expect("sampled deal");
                continue;
            }
            write_mask(&s, &mut buf, &mut mask);
            let mut direct = vec![9u8; num_actions(3)];
            write_mask_direct(&s, &mut direct, 0, 1);
            assert_eq!(direct, mask, "the direct mask equals the listed one");
            // Independent check: every id, decoded, is legal exactly when its mask bit is set.
            for (id, &bit) in mask.iter().enumerate() {
                let a = decode(id as i64, 3).expect("in range");
                assert_eq!(bit == 1, s.check_action(a).is_ok(), "id {id} ({a})");
            }
            let a = s.random_action(&mut rng).expect("a legal action");
            s.apply(a);
        }
    }

    #[test]
    fn observation_of_a_known_position() {
        // The third example state of docs/notation.md, seen by seat 2 (P2, to move).
        let s: AzulState = "2 3 play 1 2 -/-/-/-/- YYYYYRKKKK 9,7,6,6,12 7,4,8,5,3 0:W1,B2,K1,-,W2:...K./W..../...../...../.....:BRRR 0:R1,-,K2,Y3,-:B..K./...R./...../...../Y....:1W"
            .parse()
            .expect("valid state");
        let mut out = vec![0f32; observation_len(2)];
        assert_eq!(out.len(), 25 + 6 + 10 + 114 + 2 + 1);
        write_observation(&s, PlayerId(1), &mut out);
        assert!(out[..25].iter().all(|&x| x == 0.0), "factories are empty");
        assert_eq!(&out[25..31], &[0.0, 5.0, 1.0, 4.0, 0.0, 0.0]);
        assert_eq!(&out[31..36], &[9.0, 7.0, 6.0, 6.0, 12.0]);
        assert_eq!(&out[36..41], &[7.0, 4.0, 8.0, 5.0, 3.0]);
        // The observer's board (P2) first: line 1 holds one red (colour 2).
        let me = &out[41..41 + BOARD_LEN];
        assert_eq!(me[2], 1.0);
        assert_eq!(me[5 * 2 + 3], 2.0, "line 3: two black");
        assert_eq!(me[5 * 3 + 1], 3.0, "line 4: three yellow");
        assert_eq!(me[25], 1.0, "wall (0,0) blue");
        assert_eq!(me[25 + 3], 1.0, "wall (0,3) black");
        assert_eq!(me[25 + 5 + 3], 1.0, "wall (1,3)");
        assert_eq!(me[25 + 20], 1.0, "wall (4,0)");
        assert_eq!(me[25..50].iter().sum::<f32>(), 4.0);
        assert_eq!(&me[50..57], &[0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0]);
        // Then P1: line 1 one white, floor BRRR.
        let other = &out[41 + BOARD_LEN..41 + 2 * BOARD_LEN];
        assert_eq!(other[4], 1.0);
        assert_eq!(&other[50..56], &[1.0, 0.0, 3.0, 0.0, 0.0, 0.0]);
        // P2 is to move: relative seat 0 for the observer P2, 1 for P1.
        assert_eq!(&out[155..158], &[1.0, 0.0, 3.0]);
        write_observation(&s, PlayerId(0), &mut out);
        assert_eq!(&out[155..158], &[0.0, 1.0, 3.0]);
        assert_eq!(out[41 + 4], 1.0, "P1's board first now");
    }
}
