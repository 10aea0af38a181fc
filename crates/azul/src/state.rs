//! The game state and the rules.

// Colour-indexed loops over parallel small arrays read better with an index.
#![allow(clippy::needless_range_loop)]

use arrayvec::ArrayVec;
use rand::Rng;
use serde::{Deserialize, Serialize};
use tessera_core::{Game, GameInfo, GameRng, Outcome, PerPlayer, PlayerId, Turn};
use thiserror::Error;

use crate::action::{AzulAction, Dest, MAX_FACTORIES, Source};
use crate::colour::{Colour, NUM_COLOURS, Tiles};
use crate::scoring::{
    WALL_SIZE, cell_bit, complete_rows, floor_penalty, placement_score, row_has_colour, row_mask,
    wall_bonus, wall_column,
};
use crate::state_error::{StateParseError, ferr, impossible};

/// Seats at an Azul table.
pub const MIN_PLAYERS: usize = 2;
/// Most seats at an Azul table.
pub const MAX_PLAYERS: usize = 4;
/// Tiles per factory display.
pub const TILES_PER_FACTORY: u8 = 4;
/// Spaces on the floor line.
pub const FLOOR_SPACES: u8 = 7;

/// Number of factory displays for `players` players: `2 * players + 1`.
#[inline]
pub const fn num_factories(players: usize) -> usize {
    2 * players + 1
}

/// Where the round stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The factories wait for the round's deal (a chance event).
    Deal,
    /// Players draft tiles (`play` in notation and JSON).
    #[serde(rename = "play")]
    Draft,
    /// The game is over; final bonuses are included in the scores.
    Over,
}

/// One player's board: pattern lines, wall, floor line and score.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Colour index of each pattern line (meaningless when its count is 0).
    pub(crate) line_colour: [u8; WALL_SIZE],
    /// Tiles on each pattern line (line `i` holds up to `i + 1`).
    pub(crate) line_count: [u8; WALL_SIZE],
    /// The wall as a 25-bit mask (bit `row * 5 + col`).
    pub(crate) wall: u32,
    /// Tiles on the floor line, per colour.
    pub(crate) floor: Tiles,
    /// True when this player holds the first-player token (it lies on the floor).
    pub(crate) token: bool,
    /// Current score.
    pub(crate) score: i16,
    /// Cache: bit `row` of `accept[c]` is set when pattern line `row` accepts colour `c`
    /// (derived from the lines and the wall; kept up to date by every change).
    pub(crate) accept: [u8; NUM_COLOURS],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            line_colour: [0; WALL_SIZE],
            line_count: [0; WALL_SIZE],
            wall: 0,
            floor: Tiles::EMPTY,
            token: false,
            score: 0,
            accept: [0x1F; NUM_COLOURS],
        }
    }
}

impl Board {
    /// Pattern line `row` (0-4): its colour and tile count, or `None` when empty.
    #[inline]
    pub fn pattern_line(&self, row: usize) -> Option<(Colour, u8)> {
        let n = self.line_count[row];
        (n > 0).then(|| (Colour::from_index(self.line_colour[row] as usize), n))
    }

    /// True when pattern line `row` holds `row + 1` tiles (it moves to the wall at round end).
    #[inline]
    pub fn line_is_full(&self, row: usize) -> bool {
        self.line_count[row] as usize == row + 1
    }

    /// The wall as a 25-bit mask: bit `row * 5 + col` is set when the cell is tiled.
    #[inline]
    pub fn wall(&self) -> u32 {
        self.wall
    }

    /// True if cell `(row, col)` of the wall is tiled.
    #[inline]
    pub fn wall_has(&self, row: usize, col: usize) -> bool {
        self.wall & cell_bit(row, col) != 0
    }

    /// Tiles on the floor line, per colour (the token not included).
    #[inline]
    pub fn floor(&self) -> Tiles {
        self.floor
    }

    /// True when this player holds the first-player token.
    #[inline]
    pub fn has_token(&self) -> bool {
        self.token
    }

    /// Occupied floor spaces, the token included (at most 7).
    #[inline]
    pub fn floor_len(&self) -> usize {
        (self.floor.total() as usize + self.token as usize).min(FLOOR_SPACES as usize)
    }

    /// The penalty the floor costs now (0 to 14).
    #[inline]
    pub fn floor_penalty(&self) -> i32 {
        floor_penalty(self.floor_len())
    }

    /// Current score.
    #[inline]
    pub fn score(&self) -> i32 {
        self.score as i32
    }

    /// Number of complete horizontal wall rows (the tie-break).
    #[inline]
    pub fn complete_rows(&self) -> u32 {
        complete_rows(self.wall)
    }

    /// Tiles on the board (pattern lines, wall and floor).
    pub fn tile_count(&self) -> u32 {
        self.line_count.iter().map(|&x| x as u32).sum::<u32>()
            + self.wall.count_ones()
            + self.floor.total()
    }

    /// True if tiles of colour `c` may go on pattern line `row`: the line is empty or holds
    /// `c`, is not full, and the wall row has no `c` yet.
    #[inline]
    pub fn can_place(&self, row: usize, c: Colour) -> bool {
        let n = self.line_count[row];
        (n == 0 || self.line_colour[row] == c as u8)
            && (n as usize) < row + 1
            && !row_has_colour(self.wall, row, c)
    }

    /// Bit `row` set for each pattern line that accepts colour `c`.
    #[inline]
    pub fn line_mask(&self, c: Colour) -> u8 {
        self.accept[c.index()]
    }

    /// The accept masks computed from the lines and the wall.
    pub(crate) fn compute_accept(&self) -> [u8; NUM_COLOURS] {
        let mut acc = [0u8; NUM_COLOURS];
        for (k, m) in acc.iter_mut().enumerate() {
            for row in 0..WALL_SIZE {
                if self.can_place(row, Colour::from_index(k)) {
                    *m |= 1 << row;
                }
            }
        }
        acc
    }

    /// Recomputes the accept masks after a change to the lines or the wall.
    #[inline]
    pub(crate) fn refresh_accept(&mut self) {
        self.accept = self.compute_accept();
    }

    /// Recomputes row `row` of the accept masks after a change to that pattern line.
    #[inline]
    fn refresh_accept_row(&mut self, row: usize) {
        let n = self.line_count[row];
        let bit = 1u8 << row;
        if n == 0 {
            // Cannot happen after a placement; kept for completeness.
            self.refresh_accept();
        } else {
            for k in 0..NUM_COLOURS {
                self.accept[k] &= !bit;
            }
            if (n as usize) < row + 1 {
                // Only the line's own colour may be added (the wall row lacks it).
                self.accept[self.line_colour[row] as usize] |= bit;
            }
        }
    }

    /// The score this player would have if the round ended now: full pattern lines move to
    /// the wall and score, the floor penalty is taken, and the result is clamped at 0
    /// (bonuses not included).
    #[inline]
    pub fn projected_score(&self) -> i32 {
        self.projection().1
    }

    /// The wall and the score this player would have if the round ended now, in one pass:
    /// `(projected_wall(), projected_score())`.
    #[inline]
    pub fn projection(&self) -> (u32, i32) {
        let mut wall = self.wall;
        let mut score = self.score as i32;
        for row in 0..WALL_SIZE {
            if self.line_is_full(row) {
                let col = wall_column(row, Colour::from_index(self.line_colour[row] as usize));
                score += placement_score(wall, row, col) as i32;
                wall |= cell_bit(row, col);
            }
        }
        (wall, (score - self.floor_penalty()).max(0))
    }

    /// The wall this player would have if the round ended now.
    pub fn projected_wall(&self) -> u32 {
        let mut wall = self.wall;
        for row in 0..WALL_SIZE {
            if self.line_is_full(row) {
                wall |= cell_bit(
                    row,
                    wall_column(row, Colour::from_index(self.line_colour[row] as usize)),
                );
            }
        }
        wall
    }
}

/// A round's factory deal: the tiles of each factory display, factory 1 first. Factories
/// are filled in order, 4 tiles each, from the bag and then (when the bag runs out) from the
/// box lid; when both run dry the last factories get fewer tiles or none.
///
/// JSON: a list of tile strings, e.g. `["BBYR","KKWW","-",...]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Deal {
    /// Each factory's tiles.
    pub factories: ArrayVec<Tiles, MAX_FACTORIES>,
}

/// Why an action is illegal.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    /// It is not a player's turn.
    #[error("no player is to move (the round waits for its deal, or the game is over)")]
    NotDrafting,
    /// The factory does not exist at this table.
    #[error("there is no factory {0} (this table has factories 1-{1})")]
    NoSuchFactory(usize, usize),
    /// The source holds no tile of that colour.
    #[error("{place} has no {colour} tile")]
    ColourAbsent {
        /// The source, in words.
        place: String,
        /// The colour's name.
        colour: &'static str,
    },
    /// The pattern line holds another colour.
    #[error("pattern line {line} already holds {holds}")]
    LineHoldsOther {
        /// The line, from 1.
        line: u8,
        /// The colour's name.
        holds: &'static str,
    },
    /// There is no such pattern line.
    #[error("there is no pattern line {0} (lines are 1-5)")]
    NoSuchLine(usize),
    /// The pattern line is full.
    #[error("pattern line {0} is full")]
    LineFull(u8),
    /// The wall row already has the colour.
    #[error("wall row {line} already has {colour}")]
    WallHasColour {
        /// The row, from 1.
        line: u8,
        /// The colour's name.
        colour: &'static str,
    },
}

/// Why a deal is impossible.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DealError {
    /// The round is not waiting for a deal.
    #[error("the game is not waiting for a deal")]
    NotDealing,
    /// Wrong number of factories.
    #[error("a {players}-player deal has {expected} factories, got {found}")]
    FactoryCount {
        /// Players at the table.
        players: usize,
        /// Factories expected.
        expected: usize,
        /// Factories given.
        found: usize,
    },
    /// A factory has the wrong number of tiles.
    #[error(
        "factory {factory} has {found} tiles; with {available} tiles available it must have {expected}"
    )]
    FactorySize {
        /// The factory, from 1.
        factory: usize,
        /// Tiles expected.
        expected: u32,
        /// Tiles given.
        found: u32,
        /// Tiles in bag and lid.
        available: u32,
    },
    /// The deal uses tiles that are not in the bag (or the lid after a refill).
    #[error("the deal has {dealt} {colour} tiles, but {reason}")]
    Tiles {
        /// The colour's name.
        colour: &'static str,
        /// Dealt tiles of that colour.
        dealt: u8,
        /// What the bag and lid allow.
        reason: String,
    },
}

/// What happened to one player at a round's wall tiling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardScoring {
    /// Tiles moved to the wall, top to bottom: `(row, col, colour, points)`.
    pub placements: ArrayVec<(u8, u8, Colour, u32), WALL_SIZE>,
    /// The floor penalty taken (before clamping the score at 0).
    pub floor_penalty: i32,
    /// Score before the wall tiling.
    pub score_before: i32,
    /// Score after the tiling and the penalty (clamped at 0), before bonuses.
    pub score_after_round: i32,
    /// End-of-game bonus (0 unless the game ended with this round).
    pub bonus: u32,
}

/// What happened at a round's wall tiling, for display.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundReport {
    /// The round that ended.
    pub round: u32,
    /// Per player, seat 0 first.
    pub boards: ArrayVec<BoardScoring, MAX_PLAYERS>,
    /// Who starts the next round.
    pub next_start: PlayerId,
    /// True if the game ended with this round.
    pub game_over: bool,
}

/// A full Azul state for 2-4 players.
///
/// Create one with [`AzulState::new`] (fixed starting player) or
/// [`AzulState::new_random`] (seeded starting player); the first turn is the first round's
/// deal ([`Turn::Chance`]).
///
/// ```
/// use tessera_azul::AzulState;
/// use tessera_core::{Game, Turn, rng::seeded};
/// let mut s = AzulState::new(3, tessera_core::PlayerId(0));
/// assert_eq!(s.turn(), Turn::Chance);
/// let mut rng = seeded(7);
/// let deal = s.sample_chance(&mut rng);
/// s.apply_chance(&deal).unwrap();
/// assert_eq!(s.factories().len(), 7);
/// let mut moves = Vec::new();
/// s.legal_actions(&mut moves);
/// s.apply(moves[0]);
/// s.check_invariants().unwrap();
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AzulState {
    pub(crate) players: u8,
    pub(crate) round: u16,
    pub(crate) phase: Phase,
    pub(crate) start: u8,
    pub(crate) mover: u8,
    pub(crate) factories: [Tiles; MAX_FACTORIES],
    pub(crate) centre: Tiles,
    pub(crate) token_in_centre: bool,
    pub(crate) bag: Tiles,
    pub(crate) lid: Tiles,
    pub(crate) boards: [Board; MAX_PLAYERS],
}

impl AzulState {
    /// A new game for `players` (2-4) players, `first` to start, waiting for the first deal.
    /// Panics on a player count outside 2-4 (a programming error; user input goes through
    /// the notation parser).
    pub fn new(players: usize, first: PlayerId) -> Self {
        assert!(
            (MIN_PLAYERS..=MAX_PLAYERS).contains(&players),
            "Azul seats 2-4 players"
        );
        assert!(first.index() < players, "first player out of range");
        AzulState {
            players: players as u8,
            round: 1,
            phase: Phase::Deal,
            start: first.0,
            mover: first.0,
            factories: [Tiles::EMPTY; MAX_FACTORIES],
            centre: Tiles::EMPTY,
            token_in_centre: true,
            bag: Tiles::FULL_SET,
            lid: Tiles::EMPTY,
            boards: [Board::default(); MAX_PLAYERS],
        }
    }

    /// A new game whose starting player is drawn with `rng`.
    pub fn new_random(players: usize, rng: &mut GameRng) -> Self {
        let first = rng.random_range(0..players);
        Self::new(players, PlayerId(first as u8))
    }

    /// The winners of a finished game as a bit set (bit `i` for player `i`), or `None`
    /// before the end: the highest score, ties broken by the most complete horizontal
    /// rows, a tie in both shared. [`Game::outcome`]'s winners, without allocating (for
    /// searches that value final positions).
    pub fn winners_mask(&self) -> Option<u8> {
        if self.phase != Phase::Over {
            return None;
        }
        let boards = self.boards();
        let best = boards.iter().map(|b| b.score).max().unwrap_or(0);
        let top_rows = boards
            .iter()
            .filter(|b| b.score == best)
            .map(|b| b.complete_rows())
            .max()
            .unwrap_or(0);
        Some(boards.iter().enumerate().fold(0, |m, (i, b)| {
            if b.score == best && b.complete_rows() == top_rows {
                m | (1 << i)
            } else {
                m
            }
        }))
    }

    /// The round number, from 1.
    #[inline]
    pub fn round(&self) -> u32 {
        self.round as u32
    }

    /// Where the round stands.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The player who started (or will start) this round.
    #[inline]
    pub fn starting_player(&self) -> PlayerId {
        PlayerId(self.start)
    }

    /// The factory displays at this table (2 x players + 1), factory 1 first.
    #[inline]
    pub fn factories(&self) -> &[Tiles] {
        &self.factories[..num_factories(self.players as usize)]
    }

    /// The tiles in the centre (the token not included).
    #[inline]
    pub fn centre(&self) -> Tiles {
        self.centre
    }

    /// True while the first-player token lies in the centre.
    #[inline]
    pub fn token_in_centre(&self) -> bool {
        self.token_in_centre
    }

    /// Who holds the first-player token, if someone took it this round.
    pub fn token_holder(&self) -> Option<PlayerId> {
        (0..self.players as usize)
            .find(|&p| self.boards[p].token)
            .map(|p| PlayerId(p as u8))
    }

    /// Tiles in the bag, per colour.
    #[inline]
    pub fn bag(&self) -> Tiles {
        self.bag
    }

    /// Tiles in the box lid, per colour.
    #[inline]
    pub fn lid(&self) -> Tiles {
        self.lid
    }

    /// Player `p`'s board.
    #[inline]
    pub fn board(&self, p: PlayerId) -> &Board {
        &self.boards[p.index()]
    }

    /// Every player's board, seat 0 first.
    #[inline]
    pub fn boards(&self) -> &[Board] {
        &self.boards[..self.players as usize]
    }

    /// Player `p`'s score if the round ended now (see [`Board::projected_score`]).
    #[inline]
    pub fn projected_score(&self, p: PlayerId) -> i32 {
        self.boards[p.index()].projected_score()
    }

    /// Tiles on the factories and in the centre.
    pub fn tiles_on_table(&self) -> u32 {
        self.factories().iter().map(|f| f.total()).sum::<u32>() + self.centre.total()
    }

    /// Per colour, every tile of the game wherever it is; always 20 of each in a valid state.
    pub fn tile_census(&self) -> [u32; NUM_COLOURS] {
        let mut n = [0u32; NUM_COLOURS];
        let add = |n: &mut [u32; NUM_COLOURS], t: &Tiles| {
            for i in 0..NUM_COLOURS {
                n[i] += t.0[i] as u32;
            }
        };
        for f in self.factories() {
            add(&mut n, f);
        }
        add(&mut n, &self.centre);
        add(&mut n, &self.bag);
        add(&mut n, &self.lid);
        for b in self.boards() {
            add(&mut n, &b.floor);
            for row in 0..WALL_SIZE {
                n[b.line_colour[row] as usize] += b.line_count[row] as u32;
                for c in Colour::ALL {
                    if row_has_colour(b.wall, row, c) {
                        n[c.index()] += 1;
                    }
                }
            }
        }
        n
    }

    #[inline]
    fn source_tiles(&self, s: Source) -> &Tiles {
        match s {
            Source::Centre => &self.centre,
            Source::Factory(i) => &self.factories[i as usize],
        }
    }

    /// Checks an action without applying it.
    pub fn check_action(&self, a: AzulAction) -> Result<(), ActionError> {
        if self.phase != Phase::Draft {
            return Err(ActionError::NotDrafting);
        }
        if let Source::Factory(i) = a.source {
            let nf = num_factories(self.players as usize);
            if i as usize >= nf {
                return Err(ActionError::NoSuchFactory(i as usize + 1, nf));
            }
        }
        if self.source_tiles(a.source)[a.colour] == 0 {
            let place = match a.source {
                Source::Centre => "the centre".to_string(),
                Source::Factory(i) => format!("factory {}", i as u32 + 1),
            };
            return Err(ActionError::ColourAbsent {
                place,
                colour: a.colour.name(),
            });
        }
        if let Dest::Line(row) = a.dest {
            let b = &self.boards[self.mover as usize];
            let r = row as usize;
            if r >= WALL_SIZE {
                return Err(ActionError::NoSuchLine(r + 1));
            }
            let n = b.line_count[r];
            if n > 0 && b.line_colour[r] != a.colour as u8 {
                return Err(ActionError::LineHoldsOther {
                    line: row + 1,
                    holds: Colour::from_index(b.line_colour[r] as usize).name(),
                });
            }
            if n as usize > r {
                return Err(ActionError::LineFull(row + 1));
            }
            if row_has_colour(b.wall, r, a.colour) {
                return Err(ActionError::WallHasColour {
                    line: row + 1,
                    colour: a.colour.name(),
                });
            }
        }
        Ok(())
    }

    /// Number of legal actions of the player to move (0 when no player is to move).
    pub fn num_legal_actions(&self) -> usize {
        if self.phase != Phase::Draft {
            return 0;
        }
        let (sources, dests) = self.action_counts();
        (0..NUM_COLOURS)
            .map(|c| sources[c] as usize * dests[c] as usize)
            .sum()
    }

    /// Per colour: how many sources hold it, and how many destinations accept it (the
    /// floor included) for the mover.
    #[inline]
    fn action_counts(&self) -> ([u8; NUM_COLOURS], [u8; NUM_COLOURS]) {
        // SWAR: each source as five bytes of a u64; a byte becomes 1 when non-zero (counts
        // are at most 20 < 32), and the bytes are summed over the sources.
        #[inline(always)]
        fn nonzero(t: &Tiles) -> u64 {
            let b = t.0;
            let x = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], 0, 0, 0]);
            (x | x >> 1 | x >> 2 | x >> 3 | x >> 4) & 0x01_0101_0101
        }
        let mut packed = nonzero(&self.centre);
        for f in self.factories() {
            packed += nonzero(f);
        }
        let bytes = packed.to_le_bytes();
        let sources = [bytes[0], bytes[1], bytes[2], bytes[3], bytes[4]];
        let b = &self.boards[self.mover as usize];
        let mut dests = [1u8; NUM_COLOURS];
        for c in 0..NUM_COLOURS {
            dests[c] += b.accept[c].count_ones() as u8;
        }
        (sources, dests)
    }

    /// A legal action drawn uniformly from the legal list without building it (the fast
    /// path for random playouts). `None` when no player is to move.
    pub fn random_action(&self, rng: &mut GameRng) -> Option<AzulAction> {
        if self.phase != Phase::Draft {
            return None;
        }
        let (sources, dests) = self.action_counts();
        let mut per_colour = [0u32; NUM_COLOURS];
        let mut total = 0u32;
        for c in 0..NUM_COLOURS {
            per_colour[c] = sources[c] as u32 * dests[c] as u32;
            total += per_colour[c];
        }
        if total == 0 {
            return None;
        }
        let k = rng.random_range(0..total);
        // Branch-free: the colour is the number of cumulative counts <= k.
        let c0 = per_colour[0];
        let c1 = c0 + per_colour[1];
        let c2 = c1 + per_colour[2];
        let c3 = c2 + per_colour[3];
        let c = (k >= c0) as usize + (k >= c1) as usize + (k >= c2) as usize + (k >= c3) as usize;
        let k = k - [0, c0, c1, c2, c3][c];
        let d = dests[c] as u32;
        let (nth_source, nth_dest) = (k / d, k % d);
        // The nth source holding colour c (factories in order, then the centre).
        let nf = num_factories(self.players as usize);
        let mut left = nth_source;
        let mut source = Source::Centre;
        for i in 0..nf {
            if self.factories[i].0[c] != 0 {
                if left == 0 {
                    source = Source::Factory(i as u8);
                    break;
                }
                left -= 1;
            }
        }
        let colour = Colour::from_index(c);
        let dest = if nth_dest == d - 1 {
            Dest::Floor
        } else {
            // The nth set bit of the accept mask.
            let mut m = self.boards[self.mover as usize].accept[c];
            for _ in 0..nth_dest {
                m &= m - 1;
            }
            Dest::Line(m.trailing_zeros() as u8)
        };
        Some(AzulAction {
            source,
            colour,
            dest,
        })
    }

    /// Applies a legal action and, if it ends the round's drafting, reports the wall
    /// tiling that followed (scores, penalties, bonuses). `apply` without the report.
    pub fn apply_reporting(&mut self, a: AzulAction) -> Option<RoundReport> {
        if self.draft(a) {
            Some(self.end_round::<true>())
        } else {
            None
        }
    }

    /// The drafting part of a move; returns true when the table is empty afterwards.
    #[inline]
    fn draft(&mut self, a: AzulAction) -> bool {
        debug_assert!(self.check_action(a).is_ok(), "illegal action {a}");
        let c = a.colour;
        let n = match a.source {
            Source::Centre => {
                let n = self.centre[c];
                self.centre[c] = 0;
                n
            }
            Source::Factory(i) => {
                let f = &mut self.factories[i as usize];
                let n = f[c];
                f[c] = 0;
                self.centre.add(f);
                *f = Tiles::EMPTY;
                n
            }
        };
        let b = &mut self.boards[self.mover as usize];
        if a.source == Source::Centre && self.token_in_centre {
            self.token_in_centre = false;
            b.token = true;
        }
        let overflow = match a.dest {
            Dest::Floor => n,
            Dest::Line(row) => {
                let r = row as usize;
                let room = (r as u8 + 1) - b.line_count[r];
                let put = n.min(room);
                b.line_count[r] += put;
                b.line_colour[r] = c as u8;
                b.refresh_accept_row(r);
                n - put
            }
        };
        if overflow > 0 {
            let used = b.floor.total() as u8 + b.token as u8;
            let free = FLOOR_SPACES.saturating_sub(used);
            let to_floor = overflow.min(free);
            b.floor[c] += to_floor;
            self.lid[c] += overflow - to_floor;
        }
        let empty = self.centre.is_empty() && self.factories().iter().all(|f| f.is_empty());
        if !empty {
            self.mover = (self.mover + 1) % self.players;
        }
        empty
    }

    /// Wall tiling, penalties, the next round's start or the end of the game.
    fn end_round<const REPORT: bool>(&mut self) -> RoundReport {
        let mut report = RoundReport {
            round: self.round as u32,
            boards: ArrayVec::new(),
            next_start: PlayerId(self.start),
            game_over: false,
        };
        let mut next_start = self.start;
        let mut any_row = false;
        for p in 0..self.players as usize {
            let b = &mut self.boards[p];
            let mut bs = BoardScoring {
                placements: ArrayVec::new(),
                floor_penalty: 0,
                score_before: b.score as i32,
                score_after_round: 0,
                bonus: 0,
            };
            let mut score = b.score as i32;
            for row in 0..WALL_SIZE {
                if b.line_count[row] as usize == row + 1 {
                    let colour = Colour::from_index(b.line_colour[row] as usize);
                    let col = wall_column(row, colour);
                    let pts = placement_score(b.wall, row, col);
                    b.wall |= cell_bit(row, col);
                    score += pts as i32;
                    self.lid[colour] += row as u8;
                    b.line_count[row] = 0;
                    b.line_colour[row] = 0;
                    if REPORT {
                        bs.placements.push((row as u8, col as u8, colour, pts));
                    }
                }
            }
            b.refresh_accept();
            let pen = b.floor_penalty();
            score = (score - pen).max(0);
            b.score = score as i16;
            self.lid.add(&b.floor);
            b.floor = Tiles::EMPTY;
            if b.token {
                b.token = false;
                next_start = p as u8;
            }
            if (0..WALL_SIZE).any(|r| b.wall & row_mask(r) == row_mask(r)) {
                any_row = true;
            }
            if REPORT {
                bs.floor_penalty = pen;
                bs.score_after_round = score;
                report.boards.push(bs);
            }
        }
        self.token_in_centre = true;
        self.start = next_start;
        self.mover = next_start;
        report.next_start = PlayerId(next_start);
        if any_row || !self.row_completion_possible() {
            self.finish::<REPORT>(&mut report);
        } else {
            self.round += 1;
            self.phase = Phase::Deal;
        }
        report
    }

    /// False when no player can ever complete a horizontal wall row, whatever everyone
    /// plays: every row still misses a colour whose tiles are locked in pattern lines that
    /// can never fill. The official rules do not foresee this dead end (it happens in about
    /// one random 4-player game in 20,000); the engine then ends the game after the round's
    /// wall tiling, with the usual bonuses.
    ///
    /// The test is an upper bound, so it never ends a game that could still finish: tiles
    /// outside pattern lines and walls are "free"; completing a pattern line holding `k`
    /// tiles of line `r` uses `r + 1 - k` free tiles and frees `r`, so it never lowers the
    /// free count; the lines that can ever complete and the most free tiles of each colour
    /// are found as a fixpoint. A row can be completed only if its pattern line can empty
    /// and each missing colour can gather `r + 1` free tiles.
    pub fn row_completion_possible(&self) -> bool {
        let mut free = [0u32; NUM_COLOURS];
        let mut add = |t: &Tiles| {
            for i in 0..NUM_COLOURS {
                free[i] += t.0[i] as u32;
            }
        };
        add(&self.bag);
        add(&self.lid);
        add(&self.centre);
        for f in self.factories() {
            add(f);
        }
        for b in self.boards() {
            add(&b.floor);
        }
        // Fast path: with 5 free tiles of every colour any pattern line can fill, and any
        // row can be completed.
        if free.iter().all(|&f| f >= WALL_SIZE as u32) {
            return true;
        }
        // Lines that can ever complete: fixpoint.
        let np = self.players as usize;
        let mut done = [[false; WALL_SIZE]; MAX_PLAYERS];
        let mut changed = true;
        while changed {
            changed = false;
            for p in 0..np {
                let b = &self.boards[p];
                for r in 0..WALL_SIZE {
                    let k = b.line_count[r] as u32;
                    if k == 0 || done[p][r] {
                        continue;
                    }
                    let c = b.line_colour[r] as usize;
                    if free[c] >= r as u32 + 1 - k {
                        done[p][r] = true;
                        free[c] += k - 1;
                        changed = true;
                    }
                }
            }
        }
        for p in 0..np {
            let b = &self.boards[p];
            for r in 0..WALL_SIZE {
                if b.line_count[r] > 0 && !done[p][r] {
                    continue;
                }
                let held = (b.line_count[r] > 0).then_some(b.line_colour[r] as usize);
                let ok = Colour::ALL.iter().all(|&c| {
                    row_has_colour(b.wall, r, c)
                        || held == Some(c.index())
                        || free[c.index()] > r as u32
                });
                if ok {
                    return true;
                }
            }
        }
        false
    }

    /// Final bonuses; the game is over.
    fn finish<const REPORT: bool>(&mut self, report: &mut RoundReport) {
        for p in 0..self.players as usize {
            let b = &mut self.boards[p];
            let bonus = wall_bonus(b.wall);
            b.score += bonus as i16;
            if REPORT && p < report.boards.len() {
                report.boards[p].bonus = bonus;
            }
        }
        report.game_over = true;
        self.phase = Phase::Over;
    }

    /// Checks a deal against the bag and lid; returns the bag and lid after it.
    fn check_deal(&self, deal: &Deal) -> Result<(Tiles, Tiles), DealError> {
        if self.phase != Phase::Deal {
            return Err(DealError::NotDealing);
        }
        let nf = num_factories(self.players as usize);
        if deal.factories.len() != nf {
            return Err(DealError::FactoryCount {
                players: self.players as usize,
                expected: nf,
                found: deal.factories.len(),
            });
        }
        let in_bag = self.bag.total();
        let available = in_bag + self.lid.total();
        let total = available.min(nf as u32 * TILES_PER_FACTORY as u32);
        for (i, f) in deal.factories.iter().enumerate() {
            let expected = total.saturating_sub(4 * i as u32).min(4);
            if f.total() != expected {
                return Err(DealError::FactorySize {
                    factory: i + 1,
                    expected,
                    found: f.total(),
                    available,
                });
            }
        }
        let mut dealt = Tiles::EMPTY;
        for f in &deal.factories {
            dealt.add(f);
        }
        let refill = in_bag < total;
        let (mut bag, mut lid) = (self.bag, self.lid);
        for c in Colour::ALL {
            let d = dealt[c];
            if !refill {
                if d > bag[c] {
                    return Err(DealError::Tiles {
                        colour: c.name(),
                        dealt: d,
                        reason: format!("the bag holds only {}", bag[c]),
                    });
                }
                bag[c] -= d;
            } else {
                // The whole bag is drawn, then the lid refills the bag.
                if d < bag[c] {
                    return Err(DealError::Tiles {
                        colour: c.name(),
                        dealt: d,
                        reason: format!(
                            "the bag runs out during this deal, so all {} {} tiles in it are drawn",
                            bag[c],
                            c.name()
                        ),
                    });
                }
                if d > bag[c] + lid[c] {
                    return Err(DealError::Tiles {
                        colour: c.name(),
                        dealt: d,
                        reason: format!("the bag and the lid hold only {}", bag[c] + lid[c]),
                    });
                }
                bag[c] = bag[c] + lid[c] - d;
                lid[c] = 0;
            }
        }
        Ok((bag, lid))
    }
}

impl Game for AzulState {
    type Action = AzulAction;
    type Chance = Deal;
    type View = AzulState;
    type ActionError = ActionError;
    type ChanceError = DealError;
    type ParseError = StateParseError;
    type ActionParseError = crate::action::ActionParseError;
    const INFO: GameInfo = GameInfo {
        name: "azul",
        title: "Azul",
        min_players: MIN_PLAYERS,
        max_players: MAX_PLAYERS,
        chance: true,
        // The bag's contents are public (its order is not part of the state).
        hidden_info: false,
    };

    #[inline]
    fn num_players(&self) -> usize {
        self.players as usize
    }

    /// An estimate for a time manager: the mover's share of the moves left in this round
    /// (each non-empty factory is taken once, each colour in the centre, and about one more
    /// centre move per factory's leftovers, up to five colours), plus its share of the
    /// rounds still to come, about `factories + 6` moves each. The game lasts at least as
    /// many more rounds as the fullest wall row needs tiles (one a round), and a typical
    /// game about six rounds. Once a row holds four the game ends this round for certain
    /// only if that row's pattern line is already full; otherwise one more round is
    /// counted (a clock spent down on a round that turns out not to be the last would
    /// leave only the increments). A seat's last three decisions of the game are left out:
    /// a search that reaches the game's end finishes them almost at once (augur's took
    /// 11 ms, 0.1 ms and 0.1 ms of budgets of 125 to 340 ms on a `1.5s+30ms` clock), so the
    /// time they would get is better spent before.
    fn decisions_left(&self) -> Option<u32> {
        let players = self.num_players() as u32;
        let factories = self.factories().len() as u32;
        let open = self.factories().iter().filter(|f| !f.is_empty()).count() as u32;
        let centre = self.centre().colours().count() as u32;
        let this_round = open + centre + open.min(5u32.saturating_sub(centre));
        let fullest = self
            .boards()
            .iter()
            .flat_map(|b| (0..5).map(move |r| (0..5).filter(|&c| b.wall_has(r, c)).count()))
            .max()
            .unwrap_or(0) as u32;
        // A row with four tiles and its pattern line full is completed at this round's end.
        let ends_now = self.boards().iter().any(|b| {
            (0..5).any(|r| b.line_is_full(r) && (0..5).filter(|&c| b.wall_has(r, c)).count() == 4)
        });
        // A row with four tiles may be completed this round: the game may end with it.
        let rounds_after = if ends_now {
            0
        } else if fullest >= 4 {
            1
        } else {
            (4 - fullest).max(6u32.saturating_sub(self.round()))
        };
        let moves = this_round + rounds_after * (factories + 6);
        Some(moves.div_ceil(players).saturating_sub(3).max(1))
    }

    #[inline]
    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Deal => Turn::Chance,
            Phase::Draft => Turn::Player(PlayerId(self.mover)),
            Phase::Over => Turn::Terminal,
        }
    }

    fn legal_actions(&self, out: &mut Vec<AzulAction>) {
        out.clear();
        if self.phase != Phase::Draft {
            return;
        }
        let b = &self.boards[self.mover as usize];
        let mut masks = [0u8; NUM_COLOURS];
        for (c, m) in masks.iter_mut().enumerate() {
            *m = b.line_mask(Colour::from_index(c));
        }
        let nf = num_factories(self.players as usize);
        for s in 0..=nf {
            let (src, source) = if s < nf {
                (&self.factories[s], Source::Factory(s as u8))
            } else {
                (&self.centre, Source::Centre)
            };
            for c in 0..NUM_COLOURS {
                if src.0[c] == 0 {
                    continue;
                }
                let colour = Colour::from_index(c);
                let mut m = masks[c];
                while m != 0 {
                    let row = m.trailing_zeros() as u8;
                    m &= m - 1;
                    out.push(AzulAction {
                        source,
                        colour,
                        dest: Dest::Line(row),
                    });
                }
                out.push(AzulAction {
                    source,
                    colour,
                    dest: Dest::Floor,
                });
            }
        }
    }

    #[inline]
    fn apply(&mut self, a: AzulAction) {
        if self.draft(a) {
            self.end_round::<false>();
        }
    }

    fn try_apply(&mut self, a: AzulAction) -> Result<(), ActionError> {
        self.check_action(a)?;
        self.apply(a);
        Ok(())
    }

    fn sample_chance(&self, rng: &mut GameRng) -> Deal {
        let nf = num_factories(self.players as usize);
        let mut bag = self.bag;
        let mut lid = self.lid;
        let mut in_bag = bag.total();
        let mut deal = Deal::default();
        for _ in 0..nf {
            let mut f = Tiles::EMPTY;
            for _ in 0..TILES_PER_FACTORY {
                if in_bag == 0 {
                    if lid.is_empty() {
                        break;
                    }
                    bag.add(&lid);
                    lid = Tiles::EMPTY;
                    in_bag = bag.total();
                }
                // Branch-free: the colour is the number of cumulative counts <= k.
                let k = rng.random_range(0..in_bag);
                let b = bag.0;
                let c0 = b[0] as u32;
                let c1 = c0 + b[1] as u32;
                let c2 = c1 + b[2] as u32;
                let c3 = c2 + b[3] as u32;
                let c = (k >= c0) as usize
                    + (k >= c1) as usize
                    + (k >= c2) as usize
                    + (k >= c3) as usize;
                bag.0[c] -= 1;
                f.0[c] += 1;
                in_bag -= 1;
            }
            deal.factories.push(f);
        }
        deal
    }

    fn apply_chance(&mut self, deal: &Deal) -> Result<(), DealError> {
        let (bag, lid) = self.check_deal(deal)?;
        self.bag = bag;
        self.lid = lid;
        for (i, f) in deal.factories.iter().enumerate() {
            self.factories[i] = *f;
        }
        self.phase = Phase::Draft;
        self.mover = self.start;
        if self.tiles_on_table() == 0 {
            // No tile is left outside walls and pattern lines: nothing can ever move again,
            // so the game ends here (a decision where the rules are silent).
            let mut report = RoundReport {
                round: self.round as u32,
                boards: ArrayVec::new(),
                next_start: PlayerId(self.start),
                game_over: true,
            };
            self.finish::<false>(&mut report);
        }
        Ok(())
    }

    fn scores(&self) -> PerPlayer<i32> {
        PerPlayer::from_fn(self.players as usize, |p| {
            self.boards[p.index()].score as i32
        })
    }

    fn outcome(&self) -> Option<Outcome> {
        let mask = self.winners_mask()?;
        let winners = PlayerId::all(self.players as usize)
            .filter(|p| mask & (1 << p.index()) != 0)
            .collect();
        Some(Outcome {
            scores: self.scores(),
            winners,
        })
    }

    fn view(&self, _player: PlayerId) -> AzulState {
        self.clone()
    }

    fn check_invariants(&self) -> Result<(), String> {
        let census = self.tile_census();
        for c in Colour::ALL {
            if census[c.index()] != 20 {
                return Err(format!(
                    "{} {} tiles in the game instead of 20 (bag {}, lid {}, table {}, boards)",
                    census[c.index()],
                    c.name(),
                    self.bag,
                    self.lid,
                    self.tiles_on_table()
                ));
            }
        }
        validate(self).map_err(|e| e.to_string())
    }
}

/// Checks that a state is a position Azul can reach (tiles conserved, one token, lines
/// consistent with the wall, phase consistent with the table).
pub fn validate(s: &AzulState) -> Result<(), StateParseError> {
    let players = s.players as usize;
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        return Err(ferr("players", format!("{players}: Azul seats 2 to 4")));
    }
    if s.start as usize >= players || s.mover as usize >= players {
        return Err(ferr("start/mover", "seat out of range"));
    }
    if s.round == 0 {
        return Err(ferr("round", "rounds count from 1"));
    }
    let nf = num_factories(players);
    for (i, f) in s.factories.iter().enumerate() {
        if i >= nf && !f.is_empty() {
            return Err(ferr(format!("factory {}", i + 1), "no such factory"));
        }
        if f.total() > TILES_PER_FACTORY as u32 {
            return Err(ferr(
                format!("factory {}", i + 1),
                format!("{} tiles: a factory holds at most 4", f.total()),
            ));
        }
    }
    let census = s.tile_census();
    for c in Colour::ALL {
        let n = census[c.index()];
        if n != 20 {
            return Err(impossible(format!(
                "{n} {} tiles in total: the game has exactly 20 of each colour",
                c.name()
            )));
        }
    }
    let tokens = s.token_in_centre as usize + s.boards().iter().filter(|b| b.token).count();
    if tokens != 1 {
        return Err(impossible(format!(
            "the first-player token appears {tokens} times (in the centre or on one floor)"
        )));
    }
    let mut full_row = false;
    for (p, b) in s.boards().iter().enumerate() {
        let who = PlayerId(p as u8);
        if !(0..=999).contains(&b.score) {
            return Err(ferr(format!("{who} score"), "outside 0-999"));
        }
        for row in 0..WALL_SIZE {
            let n = b.line_count[row] as usize;
            if n > row + 1 {
                return Err(ferr(
                    format!("{who} pattern line {}", row + 1),
                    format!("{n} tiles: line {} holds at most {}", row + 1, row + 1),
                ));
            }
            if n == 0 && b.line_colour[row] != 0 {
                return Err(ferr(
                    format!("{who} pattern line {}", row + 1),
                    "an empty line has no colour",
                ));
            }
            if b.line_colour[row] as usize >= NUM_COLOURS {
                return Err(ferr(
                    format!("{who} pattern line {}", row + 1),
                    "unknown colour",
                ));
            }
            if n > 0 {
                let c = Colour::from_index(b.line_colour[row] as usize);
                if row_has_colour(b.wall, row, c) {
                    return Err(impossible(format!(
                        "{who} pattern line {} holds {} but wall row {} already has it",
                        row + 1,
                        c.name(),
                        row + 1
                    )));
                }
                if n == row + 1 && s.phase != Phase::Draft {
                    return Err(impossible(format!(
                        "{who} pattern line {} is full outside drafting (full lines move to the wall at the round's end)",
                        row + 1
                    )));
                }
            }
            if b.wall & row_mask(row) == row_mask(row) {
                full_row = true;
            }
        }
        if b.accept != b.compute_accept() {
            return Err(impossible(format!(
                "{who}: internal cache of accepting pattern lines is stale"
            )));
        }
        if b.wall >> 25 != 0 {
            return Err(ferr(format!("{who} wall"), "more than 25 cells"));
        }
        if b.floor.total() > 7 {
            return Err(impossible(format!(
                "{who} floor holds {} tiles; it has 7 spaces",
                b.floor.total()
            )));
        }
        if s.phase != Phase::Draft && (!b.floor.is_empty() || b.token) {
            return Err(impossible(format!(
                "{who} floor is not empty outside drafting (floors are cleared at the round's end)"
            )));
        }
    }
    match s.phase {
        Phase::Draft => {
            if s.tiles_on_table() == 0 {
                return Err(impossible(
                    "the table is empty but the round has not been scored (drafting ends when factories and centre are empty)",
                ));
            }
            if full_row {
                return Err(impossible(
                    "a wall row is complete but the game goes on (it ends after the round a row is completed)",
                ));
            }
        }
        Phase::Deal | Phase::Over => {
            if s.tiles_on_table() != 0 {
                return Err(impossible(
                    "tiles lie on the factories or in the centre outside drafting",
                ));
            }
            if !s.token_in_centre {
                return Err(impossible(
                    "outside drafting the first-player token lies in the centre",
                ));
            }
            if s.mover != s.start {
                return Err(impossible(
                    "outside drafting the mover is the round's starting player",
                ));
            }
            if s.phase == Phase::Deal && full_row {
                return Err(impossible(
                    "a wall row is complete but the game was not over",
                ));
            }
        }
    }
    Ok(())
}

/// Every state of a seeded game of uniformly random moves at a table of `players` (seat 0
/// first), after each deal and move: the positions the evaluators' tests walk.
#[cfg(test)]
pub(crate) fn random_playout(players: usize, seed: u64) -> Vec<AzulState> {
    let mut rng = tessera_core::rng::seeded(seed);
    let mut s = AzulState::new(players, PlayerId(0));
    let mut out = Vec::new();
    while s.turn() != Turn::Terminal {
        if s.turn() == Turn::Chance {
            let d = s.sample_chance(&mut rng);
            s.apply_chance(&d).unwrap();
        } else {
            let a = s.random_action(&mut rng).unwrap();
            s.apply(a);
        }
        out.push(s.clone());
    }
    out
}
