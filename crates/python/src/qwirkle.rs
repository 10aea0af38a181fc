//! Qwirkle for learning code: a placement is built one tile at a time.
//!
//! A Qwirkle placement puts 1-6 hand tiles on cells of one line; encoding every placement as
//! one id would need (cell x direction x ordered hand slots) = millions of ids. Instead a
//! turn is a short sequence of fixed-id steps (docs/python.md has the table and the reasons):
//!
//! - `slot * 961 + cell`: put the tile in hand slot `slot` (0-5, the hand sorted) on `cell`
//!   of a 31 x 31 window (`cell = (y - fy + 15) * 31 + (x - fx + 15)`), whose centre
//!   `(fx, fy)` is the centre of the board's bounding box when the turn began (the frame,
//!   part of the observation; `(0, 0)` on the empty board);
//! - [`TRADE_BASE`]` + m - 1` for `m` in 1-63: trade the tiles of the hand slots in bit mask
//!   `m`;
//! - [`PASS`]: pass (legal only when nothing else is);
//! - [`END`]: end the pending placement here.
//!
//! A tile step is legal when the pending tiles plus the new one are part of some legal
//! placement, so a pending placement can always be completed. It is played as soon as it is
//! a legal placement that no legal placement extends; [`END`] plays it earlier. Placements
//! with a cell outside the window are not offered (a test measures that it does not happen
//! in random games).

use arrayvec::ArrayVec;
use tessera_core::{Game, GameRng, PlayerId, Turn};
use tessera_qwirkle::tile::KINDS;
use tessera_qwirkle::{HAND_SIZE, Move, Phase, Placed, Placement, Qwirkle, Tile, Trade};
use thiserror::Error;

use crate::driver::{GameInPlay, StepError};

/// Width and height of the placement window.
pub const WINDOW: usize = 31;
/// Cells from the frame's centre to the window's edge.
pub const RADIUS: i32 = (WINDOW / 2) as i32;
/// Cells in the window.
pub const CELLS: usize = WINDOW * WINDOW;
/// First trade id.
pub const TRADE_BASE: usize = HAND_SIZE * CELLS;
/// The pass id.
pub const PASS: usize = TRADE_BASE + 63;
/// The id that ends a pending placement.
pub const END: usize = PASS + 1;
/// Number of action ids (the same for every player count).
pub const NUM_ACTIONS: usize = END + 1;
/// Planes of the observation: board colour (6), board shape (6), pending colour (6), pending
/// shape (6).
pub const PLANES: usize = 4 * KINDS;
/// Numbers per hand slot in the observation: present, colour one-hot (6), shape one-hot (6).
pub const SLOT_LEN: usize = 1 + 2 * KINDS;

/// One decoded step.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// Put the tile of hand slot `slot` on window cell `cell`.
    Place {
        /// Hand slot 0-5.
        slot: usize,
        /// Window cell, row-major.
        cell: usize,
    },
    /// Trade the tiles of the slots in this bit mask (1-63).
    Trade(u8),
    /// Pass.
    Pass,
    /// End the pending placement.
    End,
}

/// Why a step was refused; the game is unchanged.
#[derive(Debug, Error)]
pub enum QwirkleStepError {
    /// Not an id of the table.
    #[error("action id {0} is out of range: Qwirkle ids are 0 to {max}", max = NUM_ACTIONS - 1)]
    OutOfRange(i64),
    /// The game is over.
    #[error("the game is over: no action can be played")]
    GameOver,
    /// The step is not legal now.
    #[error("action {id} ({what}) is not legal now: {why}")]
    Illegal {
        /// The id.
        id: usize,
        /// What the id means here.
        what: String,
        /// Why it is refused.
        why: String,
    },
    /// The game refused a chance outcome it drew itself (a bug).
    #[error("{0}")]
    Internal(String),
}

/// Decodes an id.
pub fn decode(id: i64) -> Result<StepKind, QwirkleStepError> {
    if id < 0 || id as u64 >= NUM_ACTIONS as u64 {
        return Err(QwirkleStepError::OutOfRange(id));
    }
    let id = id as usize;
    Ok(if id < TRADE_BASE {
        StepKind::Place {
            slot: id / CELLS,
            cell: id % CELLS,
        }
    } else if id < PASS {
        StepKind::Trade((id - TRADE_BASE + 1) as u8)
    } else if id == PASS {
        StepKind::Pass
    } else {
        StepKind::End
    })
}

/// A Qwirkle game played step by step with fixed ids.
#[derive(Clone, Debug)]
pub struct QwirkleTable {
    session: GameInPlay<Qwirkle>,
    frame: (i32, i32),
    placements: Vec<Placement>,
    trades: Vec<Trade>,
    pass: bool,
    pending: ArrayVec<(u8, Placed), HAND_SIZE>,
    dropped: usize,
    last: Option<(PlayerId, Move)>,
}

impl QwirkleTable {
    /// A table for `session` with its turn's step ids set up (nothing pending, no last move).
    fn at_turn_start(session: GameInPlay<Qwirkle>) -> Self {
        let mut t = QwirkleTable {
            session,
            frame: (0, 0),
            placements: Vec::new(),
            trades: Vec::new(),
            pass: false,
            pending: ArrayVec::new(),
            dropped: 0,
            last: None,
        };
        t.new_turn();
        t
    }

    /// A new game of `players` (2-4) with chance from `seed`.
    pub fn new(players: usize, seed: u64) -> Result<Self, QwirkleStepError> {
        let initial =
            Qwirkle::new(players).map_err(|e| QwirkleStepError::Internal(e.to_string()))?;
        Self::from_state(initial, seed)
    }

    /// A game resumed from `state`, later chance from `seed`.
    pub fn from_state(state: Qwirkle, seed: u64) -> Result<Self, QwirkleStepError> {
        let session =
            GameInPlay::new(state, seed).map_err(|e| QwirkleStepError::Internal(e.to_string()))?;
        Ok(QwirkleTable::at_turn_start(session))
    }

    /// The game state (the engine's; hands of every seat included).
    pub fn state(&self) -> &Qwirkle {
        self.session.state()
    }

    /// The window's centre for this turn.
    pub fn frame(&self) -> (i32, i32) {
        self.frame
    }

    /// The pending tiles (hand slot and cell), in the order they were put down.
    pub fn pending(&self) -> &[(u8, Placed)] {
        &self.pending
    }

    /// Legal placements that were not offered since a cell lies outside the window (summed
    /// over the game).
    pub fn dropped_placements(&self) -> usize {
        self.dropped
    }

    /// The last whole move played (by whom, what), `None` before the first one: a step
    /// that completes a placement, a trade or a pass sets it.
    pub fn last_move(&self) -> Option<(PlayerId, Move)> {
        self.last
    }

    /// The same position with what `seat` cannot see (the other hands, the bag, a set-aside
    /// trade) resampled from `rng` ([`Game::determinize`]), later draws from seed
    /// `chance_seed`'s chance stream. When `seat` is to move, its hand, the pending tiles
    /// and the turn's window stay as they are; otherwise the pending tiles (which only the
    /// mover sees) are dropped and the turn starts over from the resampled hand.
    pub fn determinize(
        &self,
        seat: PlayerId,
        rng: &mut GameRng,
        chance_seed: u64,
    ) -> Result<Self, QwirkleStepError> {
        let d = self.state().determinize(seat, rng);
        let mut t = self.clone();
        t.session = GameInPlay::new(d, chance_seed)
            .map_err(|e| QwirkleStepError::Internal(e.to_string()))?;
        if t.mover() != Some(seat) {
            t.new_turn();
        }
        Ok(t)
    }

    /// Draws from now on from seed `seed`'s chance stream instead (the position is
    /// unchanged).
    pub fn reseed_chance(&mut self, seed: u64) {
        self.session.reseed_chance(seed);
    }

    /// The table as text for pickling: the session ([`crate::driver::snapshot_fields`]:
    /// state, seed, chance position), the pending tiles as step ids, the placements not
    /// offered so far and the last move. [`QwirkleTable::restore`] reads it back.
    pub fn snapshot(&self) -> String {
        let mut m = crate::driver::snapshot_fields(&self.session, "qwirkle");
        let pending: Vec<serde_json::Value> = self
            .pending
            .iter()
            .map(|(slot, c)| {
                let cell = self.cell_index(c.x as i32, c.y as i32).unwrap_or(CELLS);
                (*slot as usize * CELLS + cell).into()
            })
            .collect();
        m.insert("pending".into(), pending.into());
        m.insert("dropped".into(), self.dropped.into());
        m.insert(
            "last".into(),
            match self.last {
                Some((p, mv)) => serde_json::json!([p.index(), mv.to_string()]),
                None => serde_json::Value::Null,
            },
        );
        serde_json::Value::Object(m).to_string()
    }

    /// The table of a [`QwirkleTable::snapshot`]: the same position, pending tiles, last
    /// move and future draws.
    pub fn restore(text: &str) -> Result<Self, crate::driver::SnapshotError> {
        let bad = |why: String| crate::driver::SnapshotError {
            kind: "qwirkle",
            why,
        };
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let session = crate::driver::restore_fields::<Qwirkle>(&v, "qwirkle")?;
        let mut t = QwirkleTable::at_turn_start(session);
        let ids = v
            .get("pending")
            .and_then(|p| p.as_array())
            .ok_or_else(|| bad("no list 'pending'".into()))?;
        for id in ids {
            let id = id
                .as_i64()
                .ok_or_else(|| bad(format!("pending step {id}: expected an id")))?;
            if !matches!(decode(id), Ok(StepKind::Place { .. })) {
                return Err(bad(format!("pending step {id}: expected a tile step")));
            }
            t.step(id)
                .map_err(|e| bad(format!("pending step {id}: {e}")))?;
        }
        if t.pending.len() != ids.len() {
            return Err(bad("the pending steps complete a placement".into()));
        }
        t.dropped = v
            .get("dropped")
            .and_then(|d| d.as_u64())
            .ok_or_else(|| bad("no count 'dropped'".into()))? as usize;
        t.last = match v.get("last") {
            None | Some(serde_json::Value::Null) => None,
            Some(serde_json::Value::Array(a)) if a.len() == 2 => {
                let seat = a[0]
                    .as_u64()
                    .filter(|&s| (s as usize) < t.state().num_players())
                    .ok_or_else(|| bad(format!("last move seat {}", a[0])))?;
                let m: Move = a[1]
                    .as_str()
                    .ok_or_else(|| bad("last move: expected text".into()))?
                    .parse()
                    .map_err(|e| bad(format!("last move: {e}")))?;
                Some((PlayerId(seat as u8), m))
            }
            Some(other) => return Err(bad(format!("last move {other}"))),
        };
        Ok(t)
    }

    /// The player to move, if any.
    pub fn mover(&self) -> Option<PlayerId> {
        match self.state().turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        }
    }

    fn new_turn(&mut self) {
        self.pending.clear();
        let st = self.session.state();
        self.frame = match st.board().bounds() {
            Some((x0, y0, x1, y1)) => ((x0 + x1).div_euclid(2), (y0 + y1).div_euclid(2)),
            None => (0, 0),
        };
        let mut legal = Vec::new();
        st.legal_actions(&mut legal);
        self.placements.clear();
        self.trades.clear();
        self.pass = false;
        for m in legal {
            match m {
                Move::Place(p) => {
                    if p.cells()
                        .iter()
                        .all(|c| self.cell_index(c.x as i32, c.y as i32).is_some())
                    {
                        self.placements.push(p);
                    } else {
                        self.dropped += 1;
                    }
                }
                Move::Trade(t) => self.trades.push(t),
                Move::Pass => self.pass = true,
            }
        }
    }

    /// The window cell of board cell `(x, y)` this turn.
    pub fn cell_index(&self, x: i32, y: i32) -> Option<usize> {
        let dx = x - self.frame.0 + RADIUS;
        let dy = y - self.frame.1 + RADIUS;
        let w = WINDOW as i32;
        ((0..w).contains(&dx) && (0..w).contains(&dy)).then(|| (dy * w + dx) as usize)
    }

    /// The board cell of window cell `cell` this turn.
    pub fn cell_at(&self, cell: usize) -> (i32, i32) {
        let w = WINDOW as i32;
        let (dx, dy) = ((cell % WINDOW) as i32, (cell / WINDOW) as i32);
        debug_assert!(dx < w && dy < w);
        (dx - RADIUS + self.frame.0, dy - RADIUS + self.frame.1)
    }

    fn hand(&self) -> &[Tile] {
        match self.mover() {
            Some(p) => self.state().hand(p),
            None => &[],
        }
    }

    fn used(&self) -> [bool; HAND_SIZE] {
        let mut used = [false; HAND_SIZE];
        for &(s, _) in &self.pending {
            used[s as usize] = true;
        }
        used
    }

    fn extends(p: &Placement, pending: &[(u8, Placed)]) -> bool {
        p.len() >= pending.len() && pending.iter().all(|(_, c)| p.cells().contains(c))
    }

    /// What an id means now, in words (for messages).
    pub fn describe(&self, id: usize) -> String {
        match decode(id as i64) {
            Ok(StepKind::Place { slot, cell }) => {
                let (x, y) = self.cell_at(cell);
                match self.hand().get(slot) {
                    Some(t) => format!("put hand slot {slot} ({t}) on {x},{y}"),
                    None => format!("put hand slot {slot} (empty) on {x},{y}"),
                }
            }
            Ok(StepKind::Trade(m)) => {
                let slots: Vec<String> = (0..HAND_SIZE)
                    .filter(|s| m >> s & 1 == 1)
                    .map(|s| match self.hand().get(s) {
                        Some(t) => format!("{s} ({t})"),
                        None => format!("{s} (empty)"),
                    })
                    .collect();
                format!("trade hand slots {}", slots.join(", "))
            }
            Ok(StepKind::Pass) => "pass".into(),
            Ok(StepKind::End) => "end the placement".into(),
            Err(e) => e.to_string(),
        }
    }

    /// Writes the action mask (length [`NUM_ACTIONS`], 1 = legal) into `mask`.
    pub fn write_mask(&self, mask: &mut [u8]) {
        mask.fill(0);
        if self.mover().is_none() {
            return;
        }
        let hand = self.hand();
        let used = self.used();
        for p in self
            .placements
            .iter()
            .filter(|p| Self::extends(p, &self.pending))
        {
            if p.len() == self.pending.len() {
                mask[END] = 1;
                continue;
            }
            for c in p.cells() {
                if self.pending.iter().any(|(_, q)| (q.x, q.y) == (c.x, c.y)) {
                    continue;
                }
                let Some(cell) = self.cell_index(c.x as i32, c.y as i32) else {
                    continue;
                };
                for (s, &t) in hand.iter().enumerate() {
                    if !used[s] && t == c.tile {
                        mask[s * CELLS + cell] = 1;
                    }
                }
            }
        }
        if self.pending.is_empty() {
            for m in 1u8..(1 << hand.len()) {
                if let Some(t) = self.trade_of(m)
                    && self.trades.contains(&t)
                {
                    mask[TRADE_BASE + m as usize - 1] = 1;
                }
            }
            if self.pass {
                mask[PASS] = 1;
            }
        }
    }

    fn trade_of(&self, m: u8) -> Option<Trade> {
        let hand = self.hand();
        let tiles: ArrayVec<Tile, HAND_SIZE> = (0..hand.len())
            .filter(|s| m >> s & 1 == 1)
            .map(|s| hand[s])
            .collect();
        if (m as usize) >> hand.len() != 0 {
            return None;
        }
        Trade::new(&tiles)
    }

    /// Plays step `id` for the player to move.
    pub fn step(&mut self, id: i64) -> Result<(), QwirkleStepError> {
        let kind = decode(id)?;
        let id = id as usize;
        if self.mover().is_none() {
            return Err(QwirkleStepError::GameOver);
        }
        let what = self.describe(id);
        let illegal = |why: String| QwirkleStepError::Illegal {
            id,
            what: what.clone(),
            why,
        };
        match kind {
            StepKind::Place { slot, cell } => {
                let hand = self.hand();
                let Some(&tile) = hand.get(slot) else {
                    return Err(illegal(format!(
                        "the hand holds {} tiles (slots 0 to {})",
                        hand.len(),
                        hand.len().saturating_sub(1)
                    )));
                };
                if self.used()[slot] {
                    return Err(illegal(format!(
                        "hand slot {slot} is already in the pending placement"
                    )));
                }
                let (x, y) = self.cell_at(cell);
                let placed = Placed {
                    x: x as i8,
                    y: y as i8,
                    tile,
                };
                let mut next = self.pending.clone();
                next.push((slot as u8, placed));
                if !self.placements.iter().any(|p| Self::extends(p, &next)) {
                    return Err(illegal(format!(
                        "no legal placement contains {}",
                        next.iter()
                            .map(|(_, c)| c.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    )));
                }
                self.pending = next;
                let exact = self
                    .placements
                    .iter()
                    .any(|p| p.len() == self.pending.len() && Self::extends(p, &self.pending));
                let longer = self
                    .placements
                    .iter()
                    .any(|p| p.len() > self.pending.len() && Self::extends(p, &self.pending));
                if exact && !longer {
                    self.commit_pending()?;
                }
                Ok(())
            }
            StepKind::End => {
                if self.pending.is_empty() {
                    return Err(illegal("no tile is pending".into()));
                }
                if !self
                    .placements
                    .iter()
                    .any(|p| p.len() == self.pending.len() && Self::extends(p, &self.pending))
                {
                    return Err(illegal(
                        "the pending tiles are not a legal placement yet: add more".into(),
                    ));
                }
                self.commit_pending()
            }
            StepKind::Trade(m) => {
                if !self.pending.is_empty() {
                    return Err(illegal("a placement is pending; finish it first".into()));
                }
                let Some(t) = self.trade_of(m) else {
                    return Err(illegal(format!(
                        "the hand holds only {} tiles",
                        self.hand().len()
                    )));
                };
                self.play(Move::Trade(t)).map_err(illegal)
            }
            StepKind::Pass => {
                if !self.pending.is_empty() {
                    return Err(illegal("a placement is pending; finish it first".into()));
                }
                self.play(Move::Pass).map_err(illegal)
            }
        }
    }

    fn commit_pending(&mut self) -> Result<(), QwirkleStepError> {
        let cells: ArrayVec<Placed, HAND_SIZE> = self.pending.iter().map(|(_, c)| *c).collect();
        let p = Placement::new(&cells)
            .ok_or_else(|| QwirkleStepError::Internal("empty pending placement".into()))?;
        self.play(Move::Place(p))
            .map_err(QwirkleStepError::Internal)
    }

    /// Plays a whole move through the session, then starts the next turn.
    fn play(&mut self, m: Move) -> Result<(), String> {
        let mover = self.mover();
        match self.session.step(m) {
            Ok(()) => {
                self.last = mover.map(|p| (p, m));
                self.new_turn();
                Ok(())
            }
            Err(StepError::Illegal(e)) => Err(e.to_string()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The step ids that play move `m` for the player to move from this turn's start (no
    /// pending tile), checked by playing them on a copy: tile steps in the placement's order
    /// (each from the first free hand slot holding that tile), then [`END`] if the table
    /// would wait for more; a trade's slot mask; [`PASS`]. `None` if `m` cannot be played
    /// this way (a pending placement, an illegal move, a cell outside the window).
    pub fn ids_of(&self, m: &Move) -> Option<Vec<usize>> {
        if !self.pending.is_empty() {
            return None;
        }
        let ids = match m {
            Move::Pass => vec![PASS],
            Move::Trade(t) => {
                let hand_len = self.hand().len();
                let mask =
                    (1u8..(1u8 << hand_len)).find(|&k| self.trade_of(k).as_ref() == Some(t))?;
                vec![TRADE_BASE + mask as usize - 1]
            }
            Move::Place(p) => {
                let hand = self.hand();
                let mut used = [false; HAND_SIZE];
                let mut ids = Vec::with_capacity(p.len() + 1);
                for c in p.cells() {
                    let slot = (0..hand.len()).find(|&s| !used[s] && hand[s] == c.tile)?;
                    used[slot] = true;
                    ids.push(slot * CELLS + self.cell_index(c.x as i32, c.y as i32)?);
                }
                ids
            }
        };
        let mut copy = self.clone();
        for &id in &ids {
            copy.step(id as i64).ok()?;
        }
        let mut ids = ids;
        if !copy.pending.is_empty() {
            copy.step(END as i64).ok()?;
            ids.push(END);
        }
        (copy.state() != self.state()).then_some(ids)
    }

    /// Length of the observation vector.
    pub fn observation_len(players: usize) -> usize {
        PLANES * CELLS + HAND_SIZE * SLOT_LEN + HAND_SIZE + 2 * players + 5
    }

    /// Writes seat `seat`'s observation into `out`. Built from [`Game::view`] only, so it
    /// holds nothing the seat may not see; the pending tiles and the used-slot flags appear
    /// only in the mover's own observation. Layout in docs/python.md.
    pub fn write_observation(&self, seat: PlayerId, out: &mut [f32]) {
        let st = self.state();
        let n = st.num_players();
        debug_assert_eq!(out.len(), Self::observation_len(n));
        out.fill(0.0);
        let view = st.view(seat);
        let mine = self.mover() == Some(seat);
        let plane = |out: &mut [f32], base: usize, x: i32, y: i32, t: Tile| {
            if let Some(cell) = self.cell_index(x, y) {
                out[(base + t.color() as usize) * CELLS + cell] = 1.0;
                out[(base + KINDS + t.shape() as usize) * CELLS + cell] = 1.0;
            }
        };
        for bt in view.board.tiles() {
            plane(out, 0, bt.x, bt.y, bt.tile);
        }
        if mine {
            for (_, c) in &self.pending {
                plane(out, 2 * KINDS, c.x as i32, c.y as i32, c.tile);
            }
        }
        let mut o = PLANES * CELLS;
        for (s, t) in view.hand.iter().enumerate() {
            let b = o + s * SLOT_LEN;
            out[b] = 1.0;
            out[b + 1 + t.color() as usize] = 1.0;
            out[b + 1 + KINDS + t.shape() as usize] = 1.0;
        }
        o += HAND_SIZE * SLOT_LEN;
        if mine {
            for &(s, _) in &self.pending {
                out[o + s as usize] = 1.0;
            }
        }
        o += HAND_SIZE;
        for k in 0..n {
            let p = (seat.index() + k) % n;
            out[o + k] = view.scores[p] as f32;
            out[o + n + k] = view.hand_sizes[p] as f32;
        }
        o += 2 * n;
        out[o] = view.bag_size as f32;
        out[o + 1] = view.first_move_size.unwrap_or(0) as f32;
        out[o + 2] = matches!(view.phase, Phase::Play { player } if player == seat) as u8 as f32;
        out[o + 3] = self.frame.0 as f32;
        out[o + 4] = self.frame.1 as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use tessera_core::rng::seeded;

    /// Plays a random game step by step: a random legal id each time (checked against the
    /// engine's own legality), returns the table at the end.
    fn random_game(players: usize, seed: u64) -> QwirkleTable {
        let mut t = QwirkleTable::new(players, seed).expect("new game");
        let mut rng = seeded(seed ^ 0xABCD);
        let mut mask = vec![0u8; NUM_ACTIONS];
        let mut steps = 0;
        while t.mover().is_some() {
            t.write_mask(&mut mask);
            let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|&i| mask[i] == 1).collect();
            assert!(!legal.is_empty(), "a player to move has a legal id");
            let id = legal[rng.random_range(0..legal.len())];
            t.step(id as i64).expect("a masked id is legal");
            steps += 1;
            assert!(steps < 10_000);
        }
        t
    }

    #[test]
    fn random_games_finish_and_no_placement_leaves_the_window() {
        let mut dropped = 0;
        for players in 2..=4 {
            for seed in 0..8 {
                let t = random_game(players, seed);
                assert!(t.state().is_terminal());
                t.state().check_invariants().expect("invariants hold");
                dropped += t.dropped_placements();
            }
        }
        assert_eq!(
            dropped, 0,
            "legal placements outside the {WINDOW}x{WINDOW} window"
        );
    }

    #[test]
    fn ids_decode_as_documented() {
        assert_eq!(decode(0).unwrap(), StepKind::Place { slot: 0, cell: 0 });
        assert_eq!(
            decode(961 * 2 + 31 * 15 + 15).unwrap(),
            StepKind::Place { slot: 2, cell: 480 }
        );
        assert_eq!(decode(TRADE_BASE as i64).unwrap(), StepKind::Trade(1));
        assert_eq!(decode(TRADE_BASE as i64 + 62).unwrap(), StepKind::Trade(63));
        assert_eq!(decode(PASS as i64).unwrap(), StepKind::Pass);
        assert_eq!(decode(END as i64).unwrap(), StepKind::End);
        assert_eq!(NUM_ACTIONS, 5831);
        assert!(matches!(
            decode(NUM_ACTIONS as i64),
            Err(QwirkleStepError::OutOfRange(_))
        ));
        assert!(matches!(decode(-1), Err(QwirkleStepError::OutOfRange(_))));
    }

    #[test]
    fn every_legal_move_has_ids_that_play_it() {
        // Independent check: the ids of each legal move, played on a copy, give the same
        // state as the move played on the game itself.
        let mut rng = seeded(5);
        for players in 2..=3 {
            let mut t = QwirkleTable::new(players, 30 + players as u64).expect("new game");
            for _ in 0..10 {
                if t.mover().is_none() {
                    break;
                }
                let mut legal = Vec::new();
                t.state().legal_actions(&mut legal);
                for m in &legal {
                    let Some(ids) = t.ids_of(m) else {
                        continue;
                    };
                    let mut by_ids = t.clone();
                    for id in ids {
                        by_ids.step(id as i64).expect("the ids are legal");
                    }
                    let mut direct = t.state().clone();
                    direct.try_apply(*m).expect("legal move");
                    assert_eq!(by_ids.state().board(), direct.board(), "{m:?}");
                    assert_eq!(by_ids.state().scores(), direct.scores());
                }
                let m = legal[rng.random_range(0..legal.len())];
                let ids = t.ids_of(&m).expect("a random game stays in the window");
                for id in ids {
                    t.step(id as i64).expect("legal");
                }
            }
        }
    }

    #[test]
    fn every_masked_id_is_legal_and_every_other_is_refused_without_change() {
        // Independent check of the mask: try every id on a copy.
        let mut t = QwirkleTable::new(2, 5).expect("new game");
        let mut rng = seeded(11);
        let mut mask = vec![0u8; NUM_ACTIONS];
        for _ in 0..12 {
            if t.mover().is_none() {
                break;
            }
            t.write_mask(&mut mask);
            for (id, &bit) in mask.iter().enumerate() {
                let mut c = t.clone();
                let r = c.step(id as i64);
                assert_eq!(r.is_ok(), bit == 1, "id {id}: {}", t.describe(id));
                if r.is_err() {
                    assert_eq!(c.state(), t.state());
                    assert_eq!(c.pending(), t.pending());
                }
            }
            let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|&i| mask[i] == 1).collect();
            t.step(legal[rng.random_range(0..legal.len())] as i64)
                .expect("legal");
        }
    }

    #[test]
    fn the_first_move_is_built_tile_by_tile() {
        // P1 holds a group of three reds (R1 R2 R3), so must place three tiles on row 0 from
        // (0,0); P2's largest group is smaller.
        let s = first_move_state(["R1R2R3O4Y5G6", "B1O2P3G4Y4B4"]);
        let mut t = QwirkleTable::from_state(s, 1).expect("resume");
        assert_eq!(t.frame(), (0, 0));
        let centre = t.cell_index(0, 0).expect("in window");
        // Trading and passing are not allowed on the first move; R1 can go on (0,0).
        let mut mask = vec![0u8; NUM_ACTIONS];
        t.write_mask(&mut mask);
        assert_eq!(mask[TRADE_BASE..].iter().sum::<u8>(), 0);
        assert_eq!(mask[centre], 1, "R1 (slot 0) on 0,0");
        let e = t.step((3 * CELLS + centre) as i64).unwrap_err().to_string();
        assert!(e.contains("O4") && e.contains("no legal placement"), "{e}");
        assert!(t.last_move().is_none());
        t.step(centre as i64).expect("R1 on 0,0");
        t.step((CELLS + centre + 1) as i64).expect("R2 on 1,0");
        assert_eq!(t.pending().len(), 2);
        assert_eq!(t.state().scores().as_slice(), &[0, 0]);
        t.step((2 * CELLS + centre + 2) as i64)
            .expect("R3 on 2,0: played at once");
        assert!(t.pending().is_empty());
        assert_eq!(t.state().scores().as_slice(), &[3, 0]);
        let (who, m) = t.last_move().expect("a move was played");
        assert_eq!(who, PlayerId(0));
        assert_eq!(m.to_string(), "R1@0,0 R2@1,0 R3@2,0");
        assert_eq!(t.mover(), Some(PlayerId(1)));
        assert_eq!(t.frame(), (1, 0));
    }

    /// A 2-player game before its first move with these hands (P1 to move, first=3); the
    /// bag holds every other tile.
    fn first_move_state(hands: [&str; 2]) -> Qwirkle {
        let mut counts = [3u8; 36];
        for h in hands {
            let chars: Vec<char> = h.chars().collect();
            for pair in chars.chunks(2) {
                let t: Tile = pair.iter().collect::<String>().parse().expect("tile");
                counts[t.index()] -= 1;
            }
        }
        let bag: String = counts.iter().map(|c| char::from(b'0' + c)).collect();
        format!(
            "n=2 phase=play:1 first=3 scores=0,0 hands={}/{} bag={bag} board=- aside=- end=-",
            hands[0], hands[1]
        )
        .parse()
        .expect("consistent state")
    }

    #[test]
    fn observations_hold_nothing_the_seat_cannot_see() {
        // For every seat, the observation of a position equals the observation of any
        // determinization of it for that seat (other hands and the bag resampled). The mover's
        // observation does change when another seat's determinization resamples its hand, so
        // the comparison can fail.
        let mut rng = seeded(9);
        for players in 2..=4 {
            let mut t = random_game_prefix(players, 20 + players as u64, 15);
            let n = QwirkleTable::observation_len(players);
            let (mut a, mut b) = (vec![0f32; n], vec![0f32; n]);
            let mut changed = false;
            for _ in 0..5 {
                for seat in PlayerId::all(players) {
                    let d = t.state().determinize(seat, &mut rng);
                    let mut td = t.clone();
                    td.session = GameInPlay::new(d, 0).expect("resume");
                    t.write_observation(seat, &mut a);
                    td.write_observation(seat, &mut b);
                    assert_eq!(a, b, "seat {seat} sees hidden tiles");
                    let mover = t.mover().expect("to move");
                    if seat != mover {
                        t.write_observation(mover, &mut a);
                        td.write_observation(mover, &mut b);
                        changed |= a != b;
                    }
                }
                let mut mask = vec![0u8; NUM_ACTIONS];
                t.write_mask(&mut mask);
                let id = (0..NUM_ACTIONS).find(|&i| mask[i] == 1).expect("legal");
                t.step(id as i64).expect("legal");
            }
            assert!(
                changed,
                "the determinizations never changed the mover's hand"
            );
        }
    }

    #[test]
    fn a_restored_table_is_the_same_table_with_the_same_future() {
        for (players, seed, steps) in [(2, 1, 0), (2, 3, 17), (3, 5, 40), (4, 7, 61)] {
            let mut a = random_game_prefix(players, seed, steps);
            // Part of a placement pending when the mask offers a tile step that leaves one.
            let mut mask = vec![0u8; NUM_ACTIONS];
            a.write_mask(&mut mask);
            if let Some(id) = (0..TRADE_BASE).find(|&i| mask[i] == 1) {
                let mut c = a.clone();
                c.step(id as i64).expect("masked");
                if !c.pending().is_empty() {
                    a = c;
                }
            }
            let mut b = QwirkleTable::restore(&a.snapshot()).expect("restores");
            let same = |a: &QwirkleTable, b: &QwirkleTable| {
                assert_eq!(a.state(), b.state());
                assert_eq!(a.pending(), b.pending());
                assert_eq!(a.frame(), b.frame());
                assert_eq!(a.last_move(), b.last_move());
                assert_eq!(a.dropped_placements(), b.dropped_placements());
                assert_eq!(a.snapshot(), b.snapshot());
            };
            same(&a, &b);
            let mut rng = seeded(seed + 100);
            while a.mover().is_some() {
                a.write_mask(&mut mask);
                let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|&i| mask[i] == 1).collect();
                let id = legal[rng.random_range(0..legal.len())] as i64;
                a.step(id).expect("masked");
                b.step(id)
                    .expect("the same step is legal in the restored table");
                same(&a, &b);
            }
        }
        assert!(QwirkleTable::restore("[]").is_err());
        let t = QwirkleTable::new(2, 1).expect("a game");
        let text = t.snapshot().replace("\"pending\":[]", "\"pending\":[5830]");
        let err = QwirkleTable::restore(&text).unwrap_err().to_string();
        assert!(err.contains("expected a tile step"), "{err}");
    }

    fn random_game_prefix(players: usize, seed: u64, steps: usize) -> QwirkleTable {
        let mut t = QwirkleTable::new(players, seed).expect("new game");
        let mut rng = seeded(seed);
        let mut mask = vec![0u8; NUM_ACTIONS];
        for _ in 0..steps {
            t.write_mask(&mut mask);
            let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|&i| mask[i] == 1).collect();
            t.step(legal[rng.random_range(0..legal.len())] as i64)
                .expect("legal");
        }
        t
    }

    #[test]
    fn determinizing_keeps_what_the_seat_sees_and_resamples_the_rest() {
        // Mid-turn, with a tile pending: for the mover the hand, the pending tile and the
        // mask stay; for another seat the pending tile goes (it never saw it), its own hand
        // stays, and the seat's observation is unchanged. Over a few samples the other
        // hands do change (the resampling is not a copy).
        let mut mask = vec![0u8; NUM_ACTIONS];
        // The first position of a random game (after some steps) where a tile can be put
        // down that leaves a placement pending.
        let t = (6..60)
            .find_map(|steps| {
                let t = random_game_prefix(3, 41, steps);
                t.write_mask(&mut mask);
                (0..TRADE_BASE).filter(|&i| mask[i] == 1).find_map(|i| {
                    let mut c = t.clone();
                    c.step(i as i64).expect("legal");
                    (!c.pending().is_empty()).then_some(c)
                })
            })
            .expect("a tile that leaves a placement pending");
        let mover = t.mover().expect("to move");
        let n = QwirkleTable::observation_len(3);
        let (mut a, mut b) = (vec![0f32; n], vec![0f32; n]);
        let (mut m2, mut changed) = (vec![0u8; NUM_ACTIONS], false);
        let mut rng = seeded(3);
        for k in 0..6 {
            for seat in PlayerId::all(3) {
                let d = t.determinize(seat, &mut rng, k).expect("resample");
                assert_eq!(d.state().hand(seat), t.state().hand(seat));
                assert_eq!(d.state().board(), t.state().board());
                t.write_observation(seat, &mut a);
                d.write_observation(seat, &mut b);
                assert_eq!(a, b, "seat {seat} sees a difference");
                if seat == mover {
                    assert_eq!(d.pending(), t.pending());
                    t.write_mask(&mut mask);
                    d.write_mask(&mut m2);
                    assert_eq!(mask, m2);
                } else {
                    assert!(d.pending().is_empty());
                    changed |= d.state().hand(mover) != t.state().hand(mover);
                }
                d.state().check_invariants().expect("a consistent state");
            }
        }
        assert!(changed, "the mover's hand was never resampled");
    }
}
