//! The level text format (the format of `levels/match-the-tiles-levels.txt`).
//!
//! A file holds one or more levels separated by blank lines. A level is an optional header
//! line and the grid rows:
//!
//! ```text
//! # a comment: '#' followed by a space or tab, or a lone "# ..." line
//! level 2   size 4x4  optimal 4   solution RDRU
//! #O#r
//! #Ro.
//! #..#
//! .##.
//! ```
//!
//! Grid characters: `#` obstacle, `.` empty, an upper-case letter a piece of that colour, the
//! lower-case letter a target of that colour. Header fields (all optional, any order after
//! `level NAME`): `size WIDTHxHEIGHT`, `optimal N`, `solution MOVES` (letters L R U D).

use std::fmt;
use std::str::FromStr;

use crate::model::{Colour, Dir, Level, LevelError, MAX_PIECES, MAX_SIDE, format_moves};

/// A level file error, with the 1-based line and column it was found at.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong in a level file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A grid row of another length than the first.
    #[error("ragged grid: this row has {found} cells, the first row has {expected}")]
    RaggedRow {
        /// Length of the level's first row.
        expected: usize,
        /// Length of this row.
        found: usize,
    },
    /// A character that is not part of the grid alphabet.
    #[error(
        "unknown character {0:?}: expected '#' (obstacle), '.' (empty), A-Z (piece) or a-z (target)"
    )]
    UnknownChar(char),
    /// A colour with pieces and no target (reported at its first piece).
    #[error("colour {0} has pieces but no target: add a {t:?} cell", t = .0.target_char())]
    NoTarget(Colour),
    /// A colour with fewer targets than pieces (reported at its first piece).
    #[error(
        "colour {colour} has {pieces} pieces but only {targets} targets, so it can never be solved"
    )]
    TooFewTargets {
        /// The colour.
        colour: Colour,
        /// Its pieces.
        pieces: usize,
        /// Its targets.
        targets: usize,
    },
    /// A level without pieces (reported at its first row).
    #[error("the level has no pieces: add at least one upper-case letter")]
    NoPieces,
    /// One piece too many (reported at that piece).
    #[error("too many pieces: at most {MAX_PIECES} are supported")]
    TooManyPieces,
    /// Too many rows or columns.
    #[error("the grid is too large: at most {MAX_SIDE} rows and {MAX_SIDE} columns")]
    TooLarge,
    /// A header line without grid rows.
    #[error("the level header is not followed by grid rows")]
    MissingGrid,
    /// A header field that cannot be read.
    #[error("bad header: {0}")]
    BadHeader(String),
    /// The header's size differs from the grid.
    #[error("the header says size {header}, the grid is {grid}")]
    SizeMismatch {
        /// WxH from the header.
        header: String,
        /// WxH of the grid.
        grid: String,
    },
    /// The header's solution does not solve the level or its length is not the optimum.
    #[error("the header's solution {0}")]
    BadSolution(String),
    /// No level in the text.
    #[error("no level found: expected grid rows of '#', '.', and letters")]
    Empty,
    /// The text holds several levels where one was expected.
    #[error("expected one level, found {0}")]
    SeveralLevels(usize),
}

fn err(line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
    ParseError { line, column, kind }
}

fn is_comment(line: &str) -> bool {
    let mut ch = line.chars();
    ch.next() == Some('#') && matches!(ch.next(), Some(' ' | '\t'))
}

struct Header {
    line: usize,
    name: Option<String>,
    size: Option<(usize, usize, usize)>, // w, h, column
    optimal: Option<u32>,
    solution: Option<(Vec<Dir>, usize)>,
}

fn parse_header(line_no: usize, line: &str) -> Result<Header, ParseError> {
    // Tokens with their 1-based columns.
    let mut toks = Vec::new();
    let mut start = None;
    for (i, (_, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                toks.push((s, i));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        toks.push((s, line.chars().count()));
    }
    let chars: Vec<char> = line.chars().collect();
    let text = |t: (usize, usize)| chars[t.0..t.1].iter().collect::<String>();
    let mut h = Header {
        line: line_no,
        name: None,
        size: None,
        optimal: None,
        solution: None,
    };
    let mut i = 1; // token 0 is "level"
    while i < toks.len() {
        let key = text(toks[i]);
        let col = toks[i].0 + 1;
        if i == 1 && !matches!(key.as_str(), "size" | "optimal" | "solution") {
            h.name = Some(key);
            i += 1;
            continue;
        }
        let Some(&vt) = toks.get(i + 1) else {
            return Err(err(
                line_no,
                col,
                ParseErrorKind::BadHeader(format!("{key:?} has no value")),
            ));
        };
        let value = text(vt);
        let vcol = vt.0 + 1;
        let bad = |what: String| err(line_no, vcol, ParseErrorKind::BadHeader(what));
        match key.as_str() {
            "size" => {
                let (w, hh) = value
                    .split_once(['x', 'X'])
                    .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                    .ok_or_else(|| {
                        bad(format!("size {value:?}: expected WIDTHxHEIGHT, e.g. 5x5"))
                    })?;
                h.size = Some((w, hh, vcol));
            }
            "optimal" => {
                h.optimal =
                    Some(value.parse().map_err(|_| {
                        bad(format!("optimal {value:?}: expected a number of moves"))
                    })?);
            }
            "solution" => {
                let moves = value.chars().enumerate().map(|(k, c)| {
                    Dir::from_letter(c).ok_or_else(|| {
                        err(
                            line_no,
                            vcol + k,
                            ParseErrorKind::BadHeader(format!(
                                "move {c:?} in the solution: expected L, R, U or D"
                            )),
                        )
                    })
                });
                h.solution = Some((moves.collect::<Result<_, _>>()?, vcol));
            }
            _ => {
                return Err(err(
                    line_no,
                    col,
                    ParseErrorKind::BadHeader(format!(
                        "unknown field {key:?}: expected size, optimal or solution"
                    )),
                ));
            }
        }
        i += 2;
    }
    Ok(h)
}

struct Block<'a> {
    header: Option<Header>,
    rows: Vec<(usize, &'a str)>,
}

fn build(block: Block<'_>, index: usize) -> Result<Level, ParseError> {
    let Block { header, rows } = block;
    let Some(&(first_line, first_row)) = rows.first() else {
        let line = header.as_ref().map_or(1, |h| h.line);
        return Err(err(line, 1, ParseErrorKind::MissingGrid));
    };
    let width = first_row.chars().count();
    if rows.len() > MAX_SIDE {
        return Err(err(rows[MAX_SIDE].0, 1, ParseErrorKind::TooLarge));
    }
    if width > MAX_SIDE {
        return Err(err(first_line, MAX_SIDE + 1, ParseErrorKind::TooLarge));
    }
    let mut obstacles = Vec::new();
    let mut pieces: Vec<(usize, Colour)> = Vec::new();
    let mut targets = Vec::new();
    let mut piece_pos = Vec::new();
    for (r, &(line, row)) in rows.iter().enumerate() {
        let mut n = 0;
        for (c, ch) in row.chars().enumerate() {
            if c >= width {
                return Err(err(
                    line,
                    width + 1,
                    ParseErrorKind::RaggedRow {
                        expected: width,
                        found: row.chars().count(),
                    },
                ));
            }
            let cell = r * width + c;
            match ch {
                '#' => obstacles.push(true),
                '.' => obstacles.push(false),
                'A'..='Z' | 'a'..='z' => {
                    obstacles.push(false);
                    let colour = Colour::from_letter(ch)
                        .ok_or_else(|| err(line, c + 1, ParseErrorKind::UnknownChar(ch)))?;
                    if ch.is_ascii_uppercase() {
                        if pieces.len() == MAX_PIECES {
                            return Err(err(line, c + 1, ParseErrorKind::TooManyPieces));
                        }
                        pieces.push((cell, colour));
                        piece_pos.push((line, c + 1));
                    } else {
                        targets.push((cell, colour));
                    }
                }
                _ => return Err(err(line, c + 1, ParseErrorKind::UnknownChar(ch))),
            }
            n += 1;
        }
        if n < width {
            return Err(err(
                line,
                n + 1,
                ParseErrorKind::RaggedRow {
                    expected: width,
                    found: n,
                },
            ));
        }
    }
    let height = rows.len();
    if pieces.is_empty() {
        return Err(err(first_line, 1, ParseErrorKind::NoPieces));
    }
    for (k, &(_, colour)) in pieces.iter().enumerate() {
        if pieces[..k].iter().any(|p| p.1 == colour) {
            continue;
        }
        let (line, column) = piece_pos[k];
        let np = pieces.iter().filter(|p| p.1 == colour).count();
        let nt = targets.iter().filter(|t| t.1 == colour).count();
        if nt == 0 {
            return Err(err(line, column, ParseErrorKind::NoTarget(colour)));
        }
        if nt < np {
            return Err(err(
                line,
                column,
                ParseErrorKind::TooFewTargets {
                    colour,
                    pieces: np,
                    targets: nt,
                },
            ));
        }
    }
    if let Some(Header {
        size: Some((w, h, col)),
        line,
        ..
    }) = header
        && (w, h) != (width, height)
    {
        return Err(err(
            line,
            col,
            ParseErrorKind::SizeMismatch {
                header: format!("{w}x{h}"),
                grid: format!("{width}x{height}"),
            },
        ));
    }
    let mut level = Level::new(width, height, obstacles, &pieces, &targets).map_err(|e| {
        // Everything Level::new checks was checked above with positions; keep a position
        // for anything else.
        let kind = match e {
            LevelError::NoPieces => ParseErrorKind::NoPieces,
            other => ParseErrorKind::BadHeader(other.to_string()),
        };
        err(first_line, 1, kind)
    })?;
    level.name = (index + 1).to_string();
    if let Some(h) = header {
        if let Some(name) = h.name {
            level.name = name;
        }
        level.optimal = h.optimal;
        if let Some((moves, col)) = h.solution {
            if !level.is_solution(&moves) {
                return Err(err(
                    h.line,
                    col,
                    ParseErrorKind::BadSolution(format!(
                        "{} does not solve the level",
                        format_moves(&moves)
                    )),
                ));
            }
            if let Some(opt) = h.optimal
                && moves.len() != opt as usize
            {
                return Err(err(
                    h.line,
                    col,
                    ParseErrorKind::BadSolution(format!(
                        "has {} moves, the header says optimal {opt}",
                        moves.len()
                    )),
                ));
            }
            level.solution = Some(moves);
        }
    }
    Ok(level)
}

/// Reads every level of a level file.
///
/// ```
/// let levels = tessera_tiles::parse_levels("level a\n.P\n.p\n\nlevel b\nR.r\n")?;
/// assert_eq!(levels.len(), 2);
/// assert_eq!(levels[1].name(), "b");
/// let e = tessera_tiles::parse_levels("P..\n.p\n").unwrap_err();
/// assert_eq!((e.line, e.column), (2, 3));
/// # Ok::<(), tessera_tiles::ParseError>(())
/// ```
pub fn parse_levels(text: &str) -> Result<Vec<Level>, ParseError> {
    let mut blocks: Vec<Block<'_>> = Vec::new();
    let mut current: Option<Block<'_>> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim_end();
        if line.is_empty() {
            blocks.extend(current.take());
            continue;
        }
        if is_comment(line) {
            continue;
        }
        if line.split_whitespace().next() == Some("level") {
            blocks.extend(current.take());
            current = Some(Block {
                header: Some(parse_header(line_no, line)?),
                rows: Vec::new(),
            });
            continue;
        }
        current
            .get_or_insert_with(|| Block {
                header: None,
                rows: Vec::new(),
            })
            .rows
            .push((line_no, line));
    }
    blocks.extend(current);
    if blocks.is_empty() {
        return Err(err(1, 1, ParseErrorKind::Empty));
    }
    blocks
        .into_iter()
        .enumerate()
        .map(|(i, b)| build(b, i))
        .collect()
}

impl FromStr for Level {
    type Err = ParseError;
    /// Reads exactly one level.
    fn from_str(s: &str) -> Result<Level, ParseError> {
        let mut levels = parse_levels(s)?;
        if levels.len() != 1 {
            return Err(err(1, 1, ParseErrorKind::SeveralLevels(levels.len())));
        }
        Ok(levels.remove(0))
    }
}

impl fmt::Display for Level {
    /// The level in the file format: a header line and the starting grid.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = if self.name.is_empty() || self.name.contains(char::is_whitespace) {
            "-"
        } else {
            &self.name
        };
        write!(f, "level {name}  size {}x{}", self.width(), self.height())?;
        if let Some(o) = self.optimal {
            write!(f, "  optimal {o}")?;
        }
        if let Some(s) = &self.solution {
            write!(f, "  solution {}", format_moves(s))?;
        }
        writeln!(f)?;
        write!(f, "{}", self.render(&self.start()))
    }
}
