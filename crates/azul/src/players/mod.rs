//! The thesis' heuristic players (section 4 of seed 000): [`Greedy`], [`Smart`] and
//! [`Strategic`] with its three variants.
//!
//! Each follows the thesis' pseudocode line by line over the candidate moves in the
//! engine's order (factories 1, 2, ... then the centre; colours B Y R K W; pattern lines
//! top to bottom). A candidate is one legal action: `n` tiles of one colour from one source
//! onto one pattern line with `space` empty cells ("fits" when `n <= space`). Moves
//! straight to the floor (`space = 0`) are considered only when no pattern line can take
//! any available colour. Where the pseudocode is ambiguous the
//! choice is written in docs/players.md; the players are deterministic, so ties go to the
//! first candidate in that order.
//!
//! ```
//! use tessera_azul::AzulState;
//! use tessera_azul::players::{Greedy, Smart, Strategic};
//! use tessera_core::{Agent, Budget, Game, Turn, rng::seeded};
//! let mut rng = seeded(3);
//! let mut s = AzulState::new_random(2, &mut rng);
//! let mut agents: [Box<dyn Agent<AzulState>>; 2] =
//!     [Box::new(Smart::new()), Box::new(Strategic::default())];
//! while s.turn() != Turn::Terminal {
//!     match s.turn() {
//!         Turn::Chance => {
//!             let deal = s.sample_chance(&mut rng);
//!             s.apply_chance(&deal).unwrap();
//!         }
//!         Turn::Player(p) => {
//!             let a = agents[p.index()].choose(&s, &Budget::default(), &mut rng);
//!             s.try_apply(a).unwrap();
//!         }
//!         Turn::Terminal => unreachable!(),
//!     }
//! }
//! assert!(s.outcome().is_some());
//! ```

use tessera_core::{Agent, Budget, Game, GameRng};

use crate::action::{AzulAction, Dest, Source};
use crate::scoring::{WALL_SIZE, cell_bit, wall_column};
use crate::state::{AzulState, Board};

/// One candidate move as the thesis' pseudocode sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The action.
    pub action: AzulAction,
    /// Tiles taken (`numberOfTiles`, `currentMove.size`); the first-player token is not
    /// counted.
    pub tiles: u8,
    /// Empty cells of the target pattern line (`patternLine_space`); 0 for the floor.
    pub space: u8,
}

impl Candidate {
    /// "tiles of move can fully be put in patternline".
    #[inline]
    pub fn fits(&self) -> bool {
        matches!(self.action.dest, Dest::Line(_)) && self.tiles <= self.space
    }

    /// `abs(patternLine_space - numberOfTiles)`.
    #[inline]
    pub fn mismatch(&self) -> u8 {
        self.space.abs_diff(self.tiles)
    }
}

/// Writes the candidates of the player to move into `out` (cleared first), using `buf`
/// for the legal actions.
pub fn candidates(state: &AzulState, buf: &mut Vec<AzulAction>, out: &mut Vec<Candidate>) {
    state.legal_actions(buf);
    out.clear();
    let Some(p) = state.current_player() else {
        return;
    };
    let board = state.board(p);
    for &action in buf.iter() {
        let c = action.colour.index();
        let tiles = match action.source {
            Source::Factory(i) => state.factories()[i as usize].0[c],
            Source::Centre => state.centre().0[c],
        };
        let space = match action.dest {
            Dest::Line(row) => {
                let held = board.pattern_line(row as usize).map_or(0, |(_, k)| k);
                row + 1 - held
            }
            Dest::Floor => 0,
        };
        out.push(Candidate {
            action,
            tiles,
            space,
        });
    }
}

/// The wall cell a candidate's tile would go to, if it goes to a pattern line.
#[inline]
fn target_cell(c: &Candidate) -> Option<(usize, usize)> {
    match c.action.dest {
        Dest::Line(row) => Some((row as usize, wall_column(row as usize, c.action.colour))),
        Dest::Floor => None,
    }
}

/// `checkAdjacents()`: whether the target cell has a tiled horizontal neighbour and a tiled
/// vertical neighbour on the wall as it is now.
#[inline]
pub fn adjacents(board: &Board, row: usize, col: usize) -> (bool, bool) {
    let w = board.wall();
    let has = |r: usize, c: usize| w & cell_bit(r, c) != 0;
    let horizontal = (col > 0 && has(row, col - 1)) || (col + 1 < WALL_SIZE && has(row, col + 1));
    let vertical = (row > 0 && has(row - 1, col)) || (row + 1 < WALL_SIZE && has(row + 1, col));
    (horizontal, vertical)
}

fn fallback(buf: &[AzulAction]) -> AzulAction {
    buf[0]
}

/// The candidates the pseudocode loops over: moves onto pattern lines ("for j = 0 to number
/// of pattern lines"); moves straight to the floor only when no pattern line can take any
/// available colour.
fn considered(cands: &[Candidate]) -> impl Iterator<Item = &Candidate> {
    let any_line = cands.iter().any(|c| matches!(c.action.dest, Dest::Line(_)));
    cands
        .iter()
        .filter(move |c| !any_line || matches!(c.action.dest, Dest::Line(_)))
}

/// The thesis' Greedy player: takes the most tiles that fit completely on a pattern line;
/// when nothing fits, the move whose tile count is closest to the line's free space (the
/// fewest tiles on the floor).
///
/// The pseudocode does not say what `least` starts at. We start it above any overflow, so
/// the overflow branch works; [`Greedy::least_zero`] starts it at 0, as an uninitialised
/// C++ counter often is, which switches that branch off: when nothing fits, the player
/// takes the first legal move.
#[derive(Clone, Debug, Default)]
pub struct Greedy {
    /// Start `least` at 0 (the overflow branch never fires).
    pub least_zero: bool,
    buf: Vec<AzulAction>,
    cands: Vec<Candidate>,
}

impl Greedy {
    /// A new Greedy player.
    pub fn new() -> Self {
        Self::default()
    }

    /// The variant whose `least` starts at 0.
    pub fn least_zero() -> Self {
        Greedy {
            least_zero: true,
            ..Self::default()
        }
    }

    /// The move the pseudocode picks from `cands` (`None` if there is none).
    pub fn pick(cands: &[Candidate]) -> Option<AzulAction> {
        Self::pick_from(cands, u8::MAX)
    }

    fn pick_from(cands: &[Candidate], least_start: u8) -> Option<AzulAction> {
        let mut best = None;
        let mut largest = 0u8;
        // `least` becomes 0 once a fitting move is found.
        let mut least = least_start;
        for c in considered(cands) {
            if c.fits() {
                if c.tiles > largest {
                    largest = c.tiles;
                    best = Some(c.action);
                    least = 0;
                }
            } else if least != 0 && c.mismatch() < least {
                least = c.mismatch();
                best = Some(c.action);
            }
        }
        best
    }
}

impl Agent<AzulState> for Greedy {
    fn name(&self) -> String {
        if self.least_zero {
            "greedy:least=0".into()
        } else {
            "greedy".into()
        }
    }

    fn choose(&mut self, state: &AzulState, _: &Budget, _: &mut GameRng) -> AzulAction {
        candidates(state, &mut self.buf, &mut self.cands);
        let start = if self.least_zero { 0 } else { u8::MAX };
        Self::pick_from(&self.cands, start).unwrap_or_else(|| fallback(&self.buf))
    }
}

/// The thesis' Smart player: fills pattern lines as fully as possible (least free space
/// left on the line), preferring, among equally good moves, one whose wall tile lands next
/// to a tile already on the wall, then the move taking the most tiles; when nothing fits,
/// the fewest tiles on the floor.
#[derive(Clone, Debug, Default)]
pub struct Smart {
    buf: Vec<AzulAction>,
    cands: Vec<Candidate>,
}

impl Smart {
    /// A new Smart player.
    pub fn new() -> Self {
        Self::default()
    }

    /// The move the pseudocode picks for the player owning `board`.
    pub fn pick(board: &Board, cands: &[Candidate]) -> Option<AzulAction> {
        Strategic::pick_with(board, cands, false, false, false)
    }
}

impl Agent<AzulState> for Smart {
    fn name(&self) -> String {
        "smart".into()
    }

    fn choose(&mut self, state: &AzulState, _: &Budget, _: &mut GameRng) -> AzulAction {
        candidates(state, &mut self.buf, &mut self.cands);
        let Some(p) = state.current_player() else {
            return fallback(&self.buf);
        };
        Self::pick(state.board(p), &self.cands).unwrap_or_else(|| fallback(&self.buf))
    }
}

/// Which diagonal the Strategic player prefers in the first round.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Diagonal {
    /// Top-left to bottom-right (`row == column`; one colour on the standard wall).
    #[default]
    Main,
    /// Top-right to bottom-left (`row + column == 4`; five colours), as in the thesis'
    /// Figure 7.
    Anti,
}

/// The thesis' Strategic player: Smart, plus (if enabled) a preference in the first round
/// for moves whose wall tile lies on the diagonal, and (if enabled) a preference for tiles
/// with both a horizontal and a vertical neighbour over tiles with one.
#[derive(Clone, Debug)]
pub struct Strategic {
    /// Prefer the diagonal in round 1.
    pub diagonal: bool,
    /// Prefer two adjacent tiles over one.
    pub two_adjacent: bool,
    /// Which diagonal.
    pub axis: Diagonal,
    buf: Vec<AzulAction>,
    cands: Vec<Candidate>,
}

impl Default for Strategic {
    /// Both preferences (the thesis' "diagonal and two adjacents" variant).
    fn default() -> Self {
        Strategic::new(true, true)
    }
}

impl Strategic {
    /// A Strategic player with the given preferences.
    pub fn new(diagonal: bool, two_adjacent: bool) -> Self {
        Strategic {
            diagonal,
            two_adjacent,
            axis: Diagonal::Main,
            buf: Vec::new(),
            cands: Vec::new(),
        }
    }

    fn on_diagonal(axis: Diagonal, row: usize, col: usize) -> bool {
        match axis {
            Diagonal::Main => row == col,
            Diagonal::Anti => row + col == WALL_SIZE - 1,
        }
    }

    /// The thesis' Strategic pseudocode; with both preferences off it is exactly Smart's.
    /// `diagonal_now` is "the diagonal preference is on and this is the first round".
    pub fn pick_with(
        board: &Board,
        cands: &[Candidate],
        diagonal_now: bool,
        two_adjacent: bool,
        anti: bool,
    ) -> Option<AzulAction> {
        let axis = if anti { Diagonal::Anti } else { Diagonal::Main };
        let mut best = None;
        let mut move_found = false;
        let mut least_whitespace = u8::MAX;
        let mut least_remaining = u8::MAX;
        let mut diagonal_move = false;
        let mut one_adjacent_move = false;
        let mut two_adjacent_move = false;
        let mut most_tiles = 0u8;
        for c in considered(cands) {
            if c.fits() {
                move_found = true;
                let whitespace = c.space - c.tiles;
                if whitespace > least_whitespace {
                    continue;
                }
                if whitespace < least_whitespace {
                    least_whitespace = whitespace;
                    diagonal_move = false;
                    one_adjacent_move = false;
                    two_adjacent_move = false;
                    most_tiles = 0;
                }
                let Some((row, col)) = target_cell(c) else {
                    continue;
                };
                if diagonal_now && !diagonal_move && Self::on_diagonal(axis, row, col) {
                    best = Some(c.action);
                    diagonal_move = true;
                }
                let (h, v) = adjacents(board, row, col);
                if two_adjacent && !diagonal_move && !two_adjacent_move && h && v {
                    best = Some(c.action);
                    two_adjacent_move = true;
                }
                if !diagonal_move && !two_adjacent_move && !one_adjacent_move {
                    if h || v {
                        one_adjacent_move = true;
                        best = Some(c.action);
                    } else if c.tiles > most_tiles {
                        best = Some(c.action);
                        most_tiles = c.tiles;
                    }
                }
            } else if !move_found && c.mismatch() < least_remaining {
                best = Some(c.action);
                least_remaining = c.mismatch();
            }
        }
        best
    }
}

impl Agent<AzulState> for Strategic {
    fn name(&self) -> String {
        let mut name = match (self.diagonal, self.two_adjacent) {
            (true, true) => "strategic".to_string(),
            (true, false) => "strategic:diagonal".to_string(),
            (false, true) => "strategic:adjacent".to_string(),
            (false, false) => "smart".to_string(),
        };
        if self.axis == Diagonal::Anti && self.diagonal {
            name.push_str(":axis=anti");
        }
        name
    }

    fn choose(&mut self, state: &AzulState, _: &Budget, _: &mut GameRng) -> AzulAction {
        candidates(state, &mut self.buf, &mut self.cands);
        let Some(p) = state.current_player() else {
            return fallback(&self.buf);
        };
        Self::pick_with(
            state.board(p),
            &self.cands,
            self.diagonal && state.round() == 1,
            self.two_adjacent,
            self.axis == Diagonal::Anti,
        )
        .unwrap_or_else(|| fallback(&self.buf))
    }
}

#[cfg(test)]
mod tests;
