//! Match the Tiles for learning code: a level, its position, moves by id and an
//! observation of planes.
//!
//! Action ids 0-3 are the moves L, R, U, D (every piece slides that way). The observation is
//! [`PLANES`] planes of the level's `height x width` grid, row-major: plane 0 the obstacles,
//! planes 1-8 the pieces of the level's colour 0-7, planes 9-16 the targets of colour 0-7
//! (colour `k` is the `k`-th distinct colour among the pieces, in slot order).

use tessera_tiles::{Colour, Dir, Level, MAX_PIECES, State};
use thiserror::Error;

/// Planes of the observation: obstacles, pieces per colour, targets per colour.
pub const PLANES: usize = 1 + 2 * MAX_PIECES;

/// A move id outside 0-3.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("action {0} is out of range: Match the Tiles has actions 0 (L), 1 (R), 2 (U) and 3 (D)")]
pub struct MoveIdError(pub i64);

/// A level being played.
#[derive(Clone, Debug)]
pub struct TilesTable {
    level: Level,
    state: State,
    colours: Vec<Colour>,
    moves: u32,
    /// The move ids played since the start (what a pickle replays).
    played: Vec<u8>,
}

impl TilesTable {
    /// The level at its start.
    pub fn new(level: Level) -> Self {
        let mut colours: Vec<Colour> = Vec::new();
        for i in 0..level.num_pieces() {
            let c = level.piece_colour(i);
            if !colours.contains(&c) {
                colours.push(c);
            }
        }
        TilesTable {
            state: level.start(),
            level,
            colours,
            moves: 0,
            played: Vec::new(),
        }
    }

    /// The table as text for pickling: the level in the level format and the move ids
    /// played since its start. [`TilesTable::restore`] reads it back.
    pub fn snapshot(&self) -> String {
        serde_json::json!({
            "game": "tiles",
            "level": self.level.to_string(),
            "played": self.played,
        })
        .to_string()
    }

    /// The table of a [`TilesTable::snapshot`]: the level, its moves replayed.
    pub fn restore(text: &str) -> Result<Self, crate::driver::SnapshotError> {
        let bad = |why: String| crate::driver::SnapshotError { kind: "tiles", why };
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let level: Level = v
            .get("level")
            .and_then(|l| l.as_str())
            .ok_or_else(|| bad("no text field 'level'".into()))?
            .parse()
            .map_err(|e| bad(format!("level: {e}")))?;
        let played = v
            .get("played")
            .and_then(|p| p.as_array())
            .ok_or_else(|| bad("no list 'played'".into()))?;
        let mut t = TilesTable::new(level);
        for id in played {
            let id = id
                .as_i64()
                .ok_or_else(|| bad(format!("move {id}: expected an id")))?;
            t.step(id).map_err(|e| bad(e.to_string()))?;
        }
        Ok(t)
    }

    /// Back to the start.
    pub fn reset(&mut self) {
        self.state = self.level.start();
        self.moves = 0;
        self.played.clear();
    }

    /// The level.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// The position.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Moves made since the start (moves that moved no piece included).
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// True when every piece is on a target of its colour.
    pub fn is_solved(&self) -> bool {
        self.level.is_solved(&self.state)
    }

    /// Plays move `id` (0-3: L, R, U, D); returns whether any piece moved (a move that moves
    /// nothing leaves the position as it was, and still counts).
    pub fn step(&mut self, id: i64) -> Result<bool, MoveIdError> {
        let dir = match id {
            0..=3 => Dir::ALL[id as usize],
            _ => return Err(MoveIdError(id)),
        };
        self.moves += 1;
        self.played.push(id as u8);
        match self.level.apply(&self.state, dir) {
            Some(s) => {
                self.state = s;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Length of the observation: `PLANES * height * width`.
    pub fn observation_len(&self) -> usize {
        PLANES * self.level.height() * self.level.width()
    }

    /// Writes the observation (layout in the module docs) into `out`.
    pub fn write_observation(&self, out: &mut [f32]) {
        let n = self.level.height() * self.level.width();
        debug_assert_eq!(out.len(), PLANES * n);
        out.fill(0.0);
        let plane = |c: Colour| self.colours.iter().position(|&x| x == c).unwrap_or(0);
        for cell in 0..n {
            if self.level.is_obstacle(cell) {
                out[cell] = 1.0;
            }
            if let Some(c) = self.level.piece_at(&self.state, cell) {
                out[(1 + plane(c)) * n + cell] = 1.0;
            }
            if let Some(c) = self.level.target_at(cell) {
                out[(1 + MAX_PIECES + plane(c)) * n + cell] = 1.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_tiles::builtin_level;

    #[test]
    fn the_known_solution_of_a_builtin_level_solves_it_by_ids() {
        let level = builtin_level(2).expect("level 2").clone();
        let solution = level.known_solution().expect("known").to_vec();
        let mut t = TilesTable::new(level);
        for d in &solution {
            assert!(!t.is_solved());
            let id = Dir::ALL.iter().position(|x| x == d).expect("a direction") as i64;
            assert!(t.step(id).expect("in range"));
        }
        assert!(t.is_solved());
        assert_eq!(t.moves() as usize, solution.len());
        // Pickled half way (one move that moves nothing included), restored, finished.
        t.reset();
        t.step(0).expect("in range");
        t.step(0).expect("in range");
        let half = solution.len() / 2;
        let mut t2 = t.clone();
        t2.reset();
        for d in &solution[..half] {
            t2.step(Dir::ALL.iter().position(|x| x == d).expect("a direction") as i64)
                .expect("in range");
        }
        let mut back = TilesTable::restore(&t2.snapshot()).expect("restores");
        assert!(back.state() == t2.state());
        assert_eq!(back.moves(), t2.moves());
        assert_eq!(
            back.level().render(back.state()),
            t2.level().render(t2.state())
        );
        assert_eq!(back.level().known_optimal(), t2.level().known_optimal());
        for d in &solution[half..] {
            back.step(Dir::ALL.iter().position(|x| x == d).expect("a direction") as i64)
                .expect("in range");
        }
        assert!(back.is_solved());
        assert!(TilesTable::restore("{\"level\": 3}").is_err());
        t.reset();
        assert!(!t.is_solved());
        assert_eq!(t.step(4), Err(MoveIdError(4)));
        assert_eq!(t.step(-1), Err(MoveIdError(-1)));
    }

    #[test]
    fn the_observation_matches_the_rendered_grid() {
        let level = builtin_level(3).expect("level 3").clone();
        let t = TilesTable::new(level);
        let mut out = vec![0f32; t.observation_len()];
        t.write_observation(&mut out);
        let text = t.level().render(t.state());
        let n = t.level().height() * t.level().width();
        for (cell, ch) in text.chars().filter(|c| *c != '\n').enumerate() {
            let planes: Vec<usize> = (0..PLANES).filter(|&p| out[p * n + cell] == 1.0).collect();
            match ch {
                '#' => assert_eq!(planes, vec![0], "cell {cell}"),
                '.' => assert!(planes.is_empty(), "cell {cell}"),
                c if c.is_ascii_uppercase() => {
                    assert!(
                        planes.iter().any(|&p| (1..=MAX_PIECES).contains(&p)),
                        "cell {cell}"
                    )
                }
                _ => assert!(
                    planes.len() == 1 && planes[0] > MAX_PIECES,
                    "cell {cell}: target only"
                ),
            }
        }
    }
}
