//! The puzzle model: moves, positions, levels and the sliding rule.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tessera_core::Puzzle;

/// Largest number of rows or columns of a level.
pub const MAX_SIDE: usize = 16;
/// Largest number of pieces of a level.
pub const MAX_PIECES: usize = 8;
/// Marks an unused slot of [`State`] and a blocked neighbour.
const NONE: u8 = u8::MAX;

/// A move: every piece slides in this direction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dir {
    /// Towards column 0.
    Left,
    /// Towards the last column.
    Right,
    /// Towards row 0 (the top line of the grid).
    Up,
    /// Towards the last row.
    Down,
}

impl Dir {
    /// The four moves in notation order L, R, U, D.
    pub const ALL: [Dir; 4] = [Dir::Left, Dir::Right, Dir::Up, Dir::Down];

    /// The move in the other direction.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
        }
    }

    /// The notation letter: `L`, `R`, `U` or `D`.
    pub const fn letter(self) -> char {
        match self {
            Dir::Left => 'L',
            Dir::Right => 'R',
            Dir::Up => 'U',
            Dir::Down => 'D',
        }
    }

    /// The move of a notation letter (either case).
    pub const fn from_letter(c: char) -> Option<Dir> {
        match c {
            'L' | 'l' => Some(Dir::Left),
            'R' | 'r' => Some(Dir::Right),
            'U' | 'u' => Some(Dir::Up),
            'D' | 'd' => Some(Dir::Down),
            _ => None,
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A move that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown move {0:?}: expected L, R, U, D or left, right, up, down")]
pub struct ParseDirError(pub String);

impl FromStr for Dir {
    type Err = ParseDirError;
    fn from_str(s: &str) -> Result<Dir, ParseDirError> {
        let t = s.trim();
        let mut chars = t.chars();
        if let (Some(c), None) = (chars.next(), chars.next())
            && let Some(d) = Dir::from_letter(c)
        {
            return Ok(d);
        }
        match t.to_ascii_lowercase().as_str() {
            "left" => Ok(Dir::Left),
            "right" => Ok(Dir::Right),
            "up" => Ok(Dir::Up),
            "down" => Ok(Dir::Down),
            _ => Err(ParseDirError(s.to_string())),
        }
    }
}

/// Reads a move sequence such as `"RDRU"` (spaces and commas are ignored).
pub fn parse_moves(s: &str) -> Result<Vec<Dir>, ParseDirError> {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| Dir::from_letter(c).ok_or_else(|| ParseDirError(c.to_string())))
        .collect()
}

/// Writes a move sequence as letters, e.g. `RDRU`.
pub fn format_moves(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.letter()).collect()
}

/// A piece colour, named by an upper-case letter (`P` purple, `O` orange, `R` red in the
/// course levels). Its targets are written with the lower-case letter.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Colour(u8);

impl Colour {
    /// The colour of a letter of either case, if it is an ASCII letter.
    pub const fn from_letter(c: char) -> Option<Colour> {
        if c.is_ascii_alphabetic() {
            Some(Colour(c.to_ascii_uppercase() as u8))
        } else {
            None
        }
    }

    /// The piece letter (upper case).
    pub const fn piece_char(self) -> char {
        self.0 as char
    }

    /// The target letter (lower case).
    pub const fn target_char(self) -> char {
        self.0.to_ascii_lowercase() as char
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.piece_char())
    }
}

/// A position: the cell of every piece. Cells are numbered row by row (`row * width + col`).
/// Slot `i` holds a piece of colour [`Level::piece_colour`]`(i)`; pieces of one colour are
/// interchangeable, so their cells are kept sorted and equal positions compare equal.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct State {
    cells: [u8; MAX_PIECES],
}

impl State {
    /// The cells of the `n` pieces of a level with `n` pieces.
    pub fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells
            .iter()
            .take_while(|&&c| c != NONE)
            .map(|&c| c as usize)
    }

    /// The cell of piece slot `i`, if there is such a piece.
    pub fn cell(&self, i: usize) -> Option<usize> {
        self.cells
            .get(i)
            .filter(|&&c| c != NONE)
            .map(|&c| c as usize)
    }

    /// The position as one 64-bit number (one byte per slot): a compact key for tables.
    pub const fn to_u64(self) -> u64 {
        u64::from_le_bytes(self.cells)
    }

    /// The position of a 64-bit key made by [`State::to_u64`].
    pub const fn from_u64(key: u64) -> State {
        State {
            cells: key.to_le_bytes(),
        }
    }
}

impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.to_u64());
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.cells()).finish()
    }
}

/// What is wrong with a level's contents (see [`crate::ParseError`] for text positions).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// Width or height is 0 or above [`MAX_SIDE`].
    #[error("a level is 1 to {MAX_SIDE} cells wide and high, this one is {width}x{height}")]
    BadSize {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A cell index is outside the grid.
    #[error("cell {0} is outside the grid")]
    OutOfGrid(usize),
    /// Two things occupy one cell.
    #[error("cell {0} holds two things (pieces, targets and obstacles need a cell each)")]
    Overlap(usize),
    /// The level has no piece.
    #[error("the level has no pieces (upper-case letters)")]
    NoPieces,
    /// More pieces than [`MAX_PIECES`].
    #[error("the level has {0} pieces, at most {MAX_PIECES} are supported")]
    TooManyPieces(usize),
    /// A colour has pieces but no target.
    #[error("colour {0} has pieces but no target ({t:?})", t = .0.target_char())]
    NoTarget(Colour),
    /// A colour has more pieces than targets, so it can never be solved.
    #[error("colour {colour} has {pieces} pieces but only {targets} targets")]
    TooFewTargets {
        /// The colour.
        colour: Colour,
        /// Its pieces.
        pieces: usize,
        /// Its targets.
        targets: usize,
    },
}

/// A level: the grid, its obstacles, the pieces' start cells and the targets.
///
/// ```
/// use tessera_tiles::{Dir, Level};
/// let level: Level = "#p..\n##pP\n.#.P\n..#.".parse()?;
/// let s = level.apply(&level.start(), Dir::Up).unwrap();
/// let s = level.apply(&s, Dir::Left).unwrap();
/// assert!(level.is_solved(&s));
/// # Ok::<(), tessera_tiles::ParseError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Level {
    pub(crate) name: String,
    width: usize,
    height: usize,
    obstacles: Vec<bool>,
    /// Colour of each piece slot, sorted.
    colours: Vec<Colour>,
    /// `groups[i]` = (first slot, end slot) of the colour group of slot i.
    groups: Vec<(u8, u8)>,
    start: State,
    targets: Vec<(usize, Colour)>,
    /// `next[cell * 4 + dir]`: the neighbour in `dir` if it is inside and free, else NONE.
    next: Vec<u8>,
    /// Per piece slot: a bitset (4 x 64 bits) of the cells holding a target of its colour.
    target_mask: Vec<[u64; 4]>,
    /// Per piece slot: rook-move distance from every cell to the nearest own target
    /// (u8::MAX if none can be reached), ignoring other pieces.
    rook: Vec<Vec<u8>>,
    pub(crate) optimal: Option<u32>,
    pub(crate) solution: Option<Vec<Dir>>,
}

impl Level {
    /// Builds a level from its grid: `obstacles` row by row (`width * height` cells), the
    /// pieces and the targets as (cell, colour).
    pub fn new(
        width: usize,
        height: usize,
        obstacles: Vec<bool>,
        pieces: &[(usize, Colour)],
        targets: &[(usize, Colour)],
    ) -> Result<Level, LevelError> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(LevelError::BadSize { width, height });
        }
        let n = width * height;
        if obstacles.len() != n {
            return Err(LevelError::OutOfGrid(obstacles.len().min(n)));
        }
        if pieces.is_empty() {
            return Err(LevelError::NoPieces);
        }
        if pieces.len() > MAX_PIECES {
            return Err(LevelError::TooManyPieces(pieces.len()));
        }
        let mut used = obstacles.clone();
        for &(c, _) in pieces.iter().chain(targets) {
            if c >= n {
                return Err(LevelError::OutOfGrid(c));
            }
            if used[c] {
                return Err(LevelError::Overlap(c));
            }
            used[c] = true;
        }
        let mut sorted: Vec<(Colour, usize)> = pieces.iter().map(|&(c, k)| (k, c)).collect();
        sorted.sort();
        for (i, &(colour, _)) in sorted.iter().enumerate() {
            if i > 0 && sorted[i - 1].0 == colour {
                continue;
            }
            let np = sorted.iter().filter(|p| p.0 == colour).count();
            let nt = targets.iter().filter(|t| t.1 == colour).count();
            if nt == 0 {
                return Err(LevelError::NoTarget(colour));
            }
            if nt < np {
                return Err(LevelError::TooFewTargets {
                    colour,
                    pieces: np,
                    targets: nt,
                });
            }
        }
        let colours: Vec<Colour> = sorted.iter().map(|p| p.0).collect();
        let mut cells = [NONE; MAX_PIECES];
        for (i, p) in sorted.iter().enumerate() {
            cells[i] = p.1 as u8;
        }
        let groups = (0..colours.len())
            .map(|i| {
                let a = colours.iter().position(|&c| c == colours[i]).unwrap_or(i);
                let b = a + colours[a..]
                    .iter()
                    .take_while(|&&c| c == colours[i])
                    .count();
                (a as u8, b as u8)
            })
            .collect();
        let mut next = vec![NONE; n * 4];
        for cell in 0..n {
            let (r, c) = (cell / width, cell % width);
            let cand = [
                (c > 0).then(|| cell - 1),
                (c + 1 < width).then(|| cell + 1),
                (r > 0).then(|| cell - width),
                (r + 1 < height).then(|| cell + width),
            ];
            for (d, nb) in cand.into_iter().enumerate() {
                if let Some(nb) = nb
                    && !obstacles[nb]
                {
                    next[cell * 4 + d] = nb as u8;
                }
            }
        }
        let mut level = Level {
            name: String::new(),
            width,
            height,
            obstacles,
            colours,
            groups,
            start: State { cells },
            targets: targets.to_vec(),
            next,
            target_mask: Vec::new(),
            rook: Vec::new(),
            optimal: None,
            solution: None,
        };
        level.start = level.canonical(cells);
        level.target_mask = level
            .colours
            .iter()
            .map(|&col| {
                let mut m = [0u64; 4];
                for &(c, k) in &level.targets {
                    if k == col {
                        m[c / 64] |= 1 << (c % 64);
                    }
                }
                m
            })
            .collect();
        level.rook = level
            .colours
            .iter()
            .map(|&col| level.rook_distances(col))
            .collect();
        Ok(level)
    }

    /// Rook-move distances to the nearest target of `colour` (a rook move goes any number of
    /// free cells along a row or column).
    fn rook_distances(&self, colour: Colour) -> Vec<u8> {
        let n = self.width * self.height;
        let mut dist = vec![u8::MAX; n];
        let mut queue = Vec::with_capacity(n);
        for &(c, k) in &self.targets {
            if k == colour {
                dist[c] = 0;
                queue.push(c);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let c = queue[head];
            head += 1;
            for d in 0..4 {
                let mut x = c;
                while self.next[x * 4 + d] != NONE {
                    x = self.next[x * 4 + d] as usize;
                    if dist[x] == u8::MAX {
                        dist[x] = dist[c].saturating_add(1);
                        queue.push(x);
                    }
                }
            }
        }
        dist
    }

    /// The level's name (its number in the level file, or the name in its header).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sets the name.
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// True if `cell` is an obstacle.
    pub fn is_obstacle(&self, cell: usize) -> bool {
        self.obstacles.get(cell).copied().unwrap_or(false)
    }

    /// Number of pieces.
    pub fn num_pieces(&self) -> usize {
        self.colours.len()
    }

    /// The colour of piece slot `i` (slots are sorted by colour).
    pub fn piece_colour(&self, i: usize) -> Colour {
        self.colours[i]
    }

    /// The targets as (cell, colour).
    pub fn targets(&self) -> &[(usize, Colour)] {
        &self.targets
    }

    /// The target colour on `cell`, if any.
    pub fn target_at(&self, cell: usize) -> Option<Colour> {
        self.targets.iter().find(|t| t.0 == cell).map(|t| t.1)
    }

    /// The starting position.
    pub fn start(&self) -> State {
        self.start
    }

    /// The same level starting from `state` (to run any solver from a position reached in
    /// play). The known optimum and solution are dropped.
    pub fn with_start(&self, state: State) -> Level {
        Level {
            start: state,
            optimal: None,
            solution: None,
            ..self.clone()
        }
    }

    /// The optimum written in the level file's header, if any.
    pub fn known_optimal(&self) -> Option<u32> {
        self.optimal
    }

    /// The solution written in the level file's header, if any.
    pub fn known_solution(&self) -> Option<&[Dir]> {
        self.solution.as_deref()
    }

    /// Records a known optimum and solution (written by `Display` in the header).
    pub fn set_known(&mut self, optimal: Option<u32>, solution: Option<Vec<Dir>>) {
        self.optimal = optimal;
        self.solution = solution;
    }

    /// (row, column) of a cell.
    pub fn row_col(&self, cell: usize) -> (usize, usize) {
        (cell / self.width, cell % self.width)
    }

    /// The piece colour on `cell` in `state`, if any.
    pub fn piece_at(&self, state: &State, cell: usize) -> Option<Colour> {
        state
            .cells()
            .position(|c| c == cell)
            .map(|i| self.colours[i])
    }

    fn canonical(&self, mut cells: [u8; MAX_PIECES]) -> State {
        let k = self.colours.len();
        let mut i = 0;
        while i < k {
            let end = self.groups[i].1 as usize;
            cells[i..end].sort_unstable();
            i = end;
        }
        State { cells }
    }

    /// The position after sliding every piece in `dir`, or `None` if no piece moves (then it
    /// is not a move). Pieces nearer the wall in `dir` settle first; a piece stops before the
    /// border, an obstacle or a settled piece, and slides over targets.
    #[inline]
    pub fn apply(&self, state: &State, dir: Dir) -> Option<State> {
        let k = self.colours.len();
        let mut order = [0u8; MAX_PIECES];
        for (i, o) in order.iter_mut().enumerate().take(k) {
            *o = i as u8;
        }
        // Left and Up: smallest cell first; Right and Down: largest first. Within a row
        // (Left/Right) or a column (Up/Down) that is the order from the wall inwards.
        let cells = state.cells;
        let ord = &mut order[..k];
        if matches!(dir, Dir::Left | Dir::Up) {
            ord.sort_unstable_by_key(|&i| cells[i as usize]);
        } else {
            ord.sort_unstable_by_key(|&i| std::cmp::Reverse(cells[i as usize]));
        }
        let mut occ = [0u64; 4];
        for &c in &cells[..k] {
            occ[c as usize / 64] |= 1 << (c % 64);
        }
        let d = dir.index();
        let mut out = cells;
        let mut moved = false;
        for &i in ord.iter() {
            let start = cells[i as usize];
            let mut c = start;
            occ[c as usize / 64] &= !(1 << (c % 64));
            loop {
                let nb = self.next[c as usize * 4 + d];
                if nb == NONE || occ[nb as usize / 64] & (1 << (nb % 64)) != 0 {
                    break;
                }
                c = nb;
            }
            occ[c as usize / 64] |= 1 << (c % 64);
            out[i as usize] = c;
            moved |= c != start;
        }
        moved.then(|| self.canonical(out))
    }

    /// True when every piece stands on a target of its own colour.
    #[inline]
    pub fn is_solved(&self, state: &State) -> bool {
        state.cells[..self.colours.len()]
            .iter()
            .zip(&self.target_mask)
            .all(|(&c, m)| m[c as usize / 64] & (1 << (c % 64)) != 0)
    }

    /// Plays `moves` from the start; returns the final position, or the index of the first
    /// move that moves no piece.
    pub fn replay(&self, moves: &[Dir]) -> Result<State, usize> {
        let mut s = self.start;
        for (i, &d) in moves.iter().enumerate() {
            s = self.apply(&s, d).ok_or(i)?;
        }
        Ok(s)
    }

    /// True when `moves` are all real moves and end in a solved position.
    pub fn is_solution(&self, moves: &[Dir]) -> bool {
        self.replay(moves).is_ok_and(|s| self.is_solved(&s))
    }

    /// Rook distance of piece slot `i` on `cell` to its nearest own target (u8::MAX if
    /// unreachable): a lower bound on the moves that piece still needs.
    #[inline]
    pub fn rook_distance(&self, i: usize, cell: usize) -> u8 {
        self.rook[i][cell]
    }

    /// The position of cells given per slot (slot `i` gets colour `piece_colour(i)`).
    /// Returns `None` if a cell is off the grid, an obstacle or used twice, or the count is
    /// not `num_pieces()`.
    pub fn state_from_cells(&self, cells: &[usize]) -> Option<State> {
        if cells.len() != self.colours.len() {
            return None;
        }
        let mut out = [NONE; MAX_PIECES];
        for (i, &c) in cells.iter().enumerate() {
            if c >= self.width * self.height || self.obstacles[c] || cells[..i].contains(&c) {
                return None;
            }
            out[i] = c as u8;
        }
        Some(self.canonical(out))
    }

    /// The grid of `state` as text rows: `#` obstacle, upper case piece, lower case target,
    /// `.` empty (a piece on a target shows the piece).
    pub fn render(&self, state: &State) -> String {
        let mut s = String::with_capacity((self.width + 1) * self.height);
        for r in 0..self.height {
            for c in 0..self.width {
                let cell = r * self.width + c;
                let ch = if self.obstacles[cell] {
                    '#'
                } else if let Some(p) = self.piece_at(state, cell) {
                    p.piece_char()
                } else if let Some(t) = self.target_at(cell) {
                    t.target_char()
                } else {
                    '.'
                };
                s.push(ch);
            }
            s.push('\n');
        }
        s
    }
}

impl Puzzle for Level {
    type State = State;
    type Move = Dir;

    fn initial(&self) -> State {
        self.start
    }

    fn is_goal(&self, state: &State) -> bool {
        self.is_solved(state)
    }

    #[inline]
    fn successors(&self, state: &State, out: &mut Vec<(Dir, State)>) {
        out.clear();
        for d in Dir::ALL {
            if let Some(s) = self.apply(state, d) {
                out.push((d, s));
            }
        }
    }

    /// In Match the Tiles a move followed by its opposite reaches the same position as the
    /// opposite alone (a slide keeps every piece in its row segment and the order of pieces
    /// in it, and that is all the opposite slide depends on), so the pair is never in a
    /// shortest solution.
    fn is_opposite(&self, previous: Dir, next: Dir) -> bool {
        previous.opposite() == next
    }
}
