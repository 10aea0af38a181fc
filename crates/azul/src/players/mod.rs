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

use rand::Rng;
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

/// How long the Greedy pseudocode's variables (`largest`, `least`, `bestMove`) live. The
/// pseudocode never initialises them; in a C++ simulator they may be locals set once per
/// call, or members of the player object set once per round or once per game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// Fresh for every move (our faithful reading).
    #[default]
    Move,
    /// Reset at the start of every round.
    Round,
    /// Reset only when a new game starts ([`Agent::reset`] or a new round 1).
    Game,
}

/// What the pseudocode's `patternLine_space` means.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Space {
    /// The empty cells of the line (our faithful reading).
    #[default]
    Free,
    /// The line's capacity (`j + 1`), whatever it already holds.
    Capacity,
}

/// Which pattern lines the pseudocode's inner loop visits for a source and colour.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Lines {
    /// Only lines the tiles may legally go to (our faithful reading).
    #[default]
    Legal,
    /// All five lines; a chosen line that cannot take the colour sends the tiles to the
    /// floor (a simulator that checks legality only when it carries the move out).
    All,
}

/// A reading of the thesis' Greedy pseudocode: the choices it leaves open. The default is
/// our faithful reading; docs/reproductions/azul-heuristics.md measures the others.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GreedyReading {
    /// Start `least` at 0 (the overflow branch never fires).
    pub least_zero: bool,
    /// How long the variables live.
    pub scope: Scope,
    /// What `patternLine_space` means.
    pub space: Space,
    /// Which lines the loop visits.
    pub lines: Lines,
    /// Only `largest` lives as long as `scope` says; `least` and `bestMove` are fresh for
    /// every move.
    pub keep_largest_only: bool,
    /// When the loop leaves no legal move: a uniformly random legal move instead of the
    /// first one.
    pub random_fallback: bool,
}

/// The thesis' Greedy player: takes the most tiles that fit completely on a pattern line;
/// when nothing fits, the move whose tile count is closest to the line's free space (the
/// fewest tiles on the floor).
///
/// The pseudocode does not say what `least` starts at. We start it above any overflow, so
/// the overflow branch works; [`Greedy::least_zero`] starts it at 0, as an uninitialised
/// C++ counter often is, which switches that branch off: when nothing fits, the player
/// takes the first legal move. [`GreedyReading`] holds this and the pseudocode's other open
/// choices.
#[derive(Clone, Debug, Default)]
pub struct Greedy {
    /// Start `least` at 0 (the overflow branch never fires).
    pub least_zero: bool,
    /// The pseudocode's other open choices (`least_zero` above wins over the one in here).
    pub reading: GreedyReading,
    buf: Vec<AzulAction>,
    cands: Vec<Candidate>,
    vars: GreedyVars,
}

/// The pseudocode's variables, kept between calls when the reading's scope says so.
#[derive(Copy, Clone, Debug, Default)]
struct GreedyVars {
    /// The round (and game marker) they were set in; `None` before the first move.
    round: Option<u32>,
    largest: u8,
    least: u8,
    best: Option<AzulAction>,
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

    /// A Greedy player following `reading`.
    pub fn with_reading(reading: GreedyReading) -> Self {
        Greedy {
            least_zero: reading.least_zero,
            reading,
            ..Self::default()
        }
    }

    /// The move the pseudocode picks from `cands` (`None` if there is none).
    pub fn pick(cands: &[Candidate]) -> Option<AzulAction> {
        Self::pick_from(cands, u8::MAX)
    }

    fn pick_from(cands: &[Candidate], least_start: u8) -> Option<AzulAction> {
        let mut vars = GreedyVars {
            round: None,
            largest: 0,
            least: least_start,
            best: None,
        };
        Self::run(considered(cands), &mut vars);
        vars.best
    }

    /// The pseudocode's loop over `cands`, reading and writing `vars`.
    fn run<'a>(cands: impl Iterator<Item = &'a Candidate>, vars: &mut GreedyVars) {
        for c in cands {
            if c.fits() {
                if c.tiles > vars.largest {
                    vars.largest = c.tiles;
                    vars.best = Some(c.action);
                    // `least` becomes 0 once a fitting move is found.
                    vars.least = 0;
                }
            } else if vars.least != 0 && c.mismatch() < vars.least {
                vars.least = c.mismatch();
                vars.best = Some(c.action);
            }
        }
    }

    /// The name the registry gives this reading.
    fn spec_name(&self) -> String {
        let r = &self.reading;
        let mut name = String::from("greedy");
        if self.least_zero {
            name.push_str(":least=0");
        }
        match r.scope {
            Scope::Move => {}
            Scope::Round => name.push_str(":scope=round"),
            Scope::Game => name.push_str(":scope=game"),
        }
        if r.space == Space::Capacity {
            name.push_str(":space=capacity");
        }
        if r.lines == Lines::All {
            name.push_str(":lines=all");
        }
        if r.keep_largest_only {
            name.push_str(":keep=largest");
        }
        if r.random_fallback {
            name.push_str(":fallback=random");
        }
        name
    }

    /// The candidates of the `lines=all` reading: every legal source and colour on each of
    /// the five lines, whether or not the line can take the colour.
    fn all_lines(&mut self, state: &AzulState) {
        let Some(p) = state.current_player() else {
            return;
        };
        let board = state.board(p);
        let legal_cands = std::mem::take(&mut self.cands);
        let mut seen: Vec<(Source, crate::colour::Colour)> = Vec::new();
        for c in &legal_cands {
            let key = (c.action.source, c.action.colour);
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            for row in 0..WALL_SIZE as u8 {
                let held = board.pattern_line(row as usize).map_or(0, |(_, k)| k);
                self.cands.push(Candidate {
                    action: AzulAction {
                        source: c.action.source,
                        colour: c.action.colour,
                        dest: Dest::Line(row),
                    },
                    tiles: c.tiles,
                    space: row + 1 - held,
                });
            }
        }
    }
}

impl Agent<AzulState> for Greedy {
    fn name(&self) -> String {
        self.spec_name()
    }

    fn reset(&mut self) {
        self.vars = GreedyVars::default();
    }

    fn choose(&mut self, state: &AzulState, _: &Budget, rng: &mut GameRng) -> AzulAction {
        candidates(state, &mut self.buf, &mut self.cands);
        let reading = self.reading;
        let least_start = if self.least_zero { 0 } else { u8::MAX };
        if reading == GreedyReading::default() {
            // The faithful reading, exactly as before.
            return Self::pick_from(&self.cands, least_start)
                .unwrap_or_else(|| fallback(&self.buf));
        }
        if reading.lines == Lines::All {
            self.all_lines(state);
        }
        if reading.space == Space::Capacity {
            for c in self.cands.iter_mut() {
                if let Dest::Line(row) = c.action.dest {
                    c.space = row + 1;
                }
            }
        }
        let round = state.round();
        let fresh = match (reading.scope, self.vars.round) {
            (Scope::Move, _) | (_, None) => true,
            (Scope::Round, Some(r)) => r != round,
            // A new game (round 1 again after a later round) resets game-long variables.
            (Scope::Game, Some(r)) => round < r,
        };
        if fresh {
            self.vars = GreedyVars {
                round: Some(round),
                largest: 0,
                least: least_start,
                best: None,
            };
        } else if reading.keep_largest_only {
            self.vars.least = least_start;
            self.vars.best = None;
        }
        self.vars.round = Some(round);
        let mut vars = self.vars;
        Self::run(considered(&self.cands), &mut vars);
        self.vars = vars;
        // The chosen move as the simulator would carry it out: a line that cannot take the
        // colour sends the tiles to the floor; a stale or missing move is replaced by the
        // first legal move.
        let chosen = vars.best.and_then(|a| {
            if self.buf.contains(&a) {
                Some(a)
            } else if reading.lines == Lines::All {
                let floor = AzulAction {
                    dest: Dest::Floor,
                    ..a
                };
                self.buf.contains(&floor).then_some(floor)
            } else {
                None
            }
        });
        match chosen {
            Some(a) => a,
            None if reading.random_fallback => self.buf[rng.random_range(0..self.buf.len())],
            None => fallback(&self.buf),
        }
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
