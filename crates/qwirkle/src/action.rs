//! Moves: placements, trades and the forced pass, with their notation.
//!
//! - A placement lists its tiles with their cells: `R1@0,0 R2@1,0` (tile `@` column `,` row;
//!   columns grow to the right, rows downwards). Tiles may be separated by spaces, commas
//!   after a cell are not allowed, `;` also separates. The canonical form lists cells row by
//!   row, left to right.
//! - A trade lists the tiles put back: `trade R1 O4` (canonical: sorted).
//! - `pass`: only legal when the player can neither place nor trade.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::board::COORD_LIMIT;
use crate::error::ParseError;
use crate::tile::Tile;

/// Tiles in a full hand.
pub const HAND_SIZE: usize = 6;

/// One tile placed on one cell.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placed {
    /// Row (compared first, so sorting gives reading order).
    pub y: i8,
    /// Column.
    pub x: i8,
    /// The tile.
    pub tile: Tile,
}

impl Placed {
    /// A tile on cell `(x, y)`; `None` if the cell is outside `±120`.
    pub fn new(x: i32, y: i32, tile: Tile) -> Option<Placed> {
        (x.abs() <= COORD_LIMIT && y.abs() <= COORD_LIMIT).then_some(Placed {
            x: x as i8,
            y: y as i8,
            tile,
        })
    }
}

impl fmt::Display for Placed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{},{}", self.tile, self.x, self.y)
    }
}

impl FromStr for Placed {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (t, cell) = s.split_once('@').ok_or_else(|| {
            ParseError::new(
                "placed tile",
                format!("'{s}' has no '@'; expected TILE@X,Y such as R1@0,-2"),
            )
        })?;
        let tile: Tile = t.parse()?;
        let (xs, ys) = cell.split_once(',').ok_or_else(|| {
            ParseError::new(
                "cell",
                format!("'{cell}' is not a cell; expected X,Y such as 3,-1"),
            )
        })?;
        let coord = |v: &str, name: &str| -> Result<i32, ParseError> {
            let n: i32 = v.trim().parse().map_err(|_| {
                ParseError::new(
                    "cell",
                    format!("{name} '{v}' in '{s}' is not a whole number"),
                )
            })?;
            if n.abs() > COORD_LIMIT {
                return Err(ParseError::new(
                    "cell",
                    format!("{name} {n} in '{s}' is outside -{COORD_LIMIT}..{COORD_LIMIT}"),
                ));
            }
            Ok(n)
        };
        let x = coord(xs, "column")?;
        let y = coord(ys, "row")?;
        Ok(Placed {
            x: x as i8,
            y: y as i8,
            tile,
        })
    }
}

/// A placement of 1-6 tiles, kept in canonical (reading) order. `Copy`, no allocation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    len: u8,
    cells: [Placed; HAND_SIZE],
}

impl Placement {
    /// A placement of the given tiles (1-6, any order); `None` if empty or too many.
    pub fn new(cells: &[Placed]) -> Option<Placement> {
        if cells.is_empty() || cells.len() > HAND_SIZE {
            return None;
        }
        let mut p = Placement {
            len: cells.len() as u8,
            cells: [Placed::default(); HAND_SIZE],
        };
        p.cells[..cells.len()].copy_from_slice(cells);
        p.cells[..cells.len()].sort_unstable();
        Some(p)
    }

    /// The placed tiles in reading order.
    #[inline]
    pub fn cells(&self) -> &[Placed] {
        &self.cells[..self.len as usize]
    }

    /// Number of tiles placed.
    #[inline]
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len as usize
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cells().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// A trade: 1-6 tiles put back into the bag, kept sorted. `Copy`, no allocation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Trade {
    len: u8,
    tiles: [Tile; HAND_SIZE],
}

impl Trade {
    /// A trade of the given tiles (1-6, any order); `None` if empty or too many.
    pub fn new(tiles: &[Tile]) -> Option<Trade> {
        if tiles.is_empty() || tiles.len() > HAND_SIZE {
            return None;
        }
        let mut t = Trade {
            len: tiles.len() as u8,
            tiles: [Tile::default(); HAND_SIZE],
        };
        t.tiles[..tiles.len()].copy_from_slice(tiles);
        t.tiles[..tiles.len()].sort_unstable();
        Some(t)
    }

    /// The traded tiles, sorted.
    #[inline]
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles[..self.len as usize]
    }
}

impl fmt::Display for Trade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("trade")?;
        for t in self.tiles() {
            write!(f, " {t}")?;
        }
        Ok(())
    }
}

/// A Qwirkle move.
///
/// ```
/// use tessera_qwirkle::Move;
/// let m: Move = "R2@1,0  r1@0,0".parse().unwrap();
/// assert_eq!(m.to_string(), "R1@0,0 R2@1,0");
/// let t: Move = "trade Y3 B1".parse().unwrap();
/// assert_eq!(t.to_string(), "trade Y3 B1"); // colour order R O Y G B P
/// assert!("R1@0".parse::<Move>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place tiles on the board.
    Place(Placement),
    /// Put tiles back into the bag and draw as many.
    Trade(Trade),
    /// Do nothing: only when neither placing nor trading is possible.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(p) => p.fmt(f),
            Move::Trade(t) => t.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let words: Vec<&str> = s
            .split(|c: char| c.is_whitespace() || c == ';')
            .filter(|w| !w.is_empty())
            .collect();
        let Some(first) = words.first() else {
            return Err(ParseError::new(
                "move",
                "empty; expected a placement such as 'R1@0,0 R2@1,0', 'trade R1 O4' or 'pass'",
            ));
        };
        if first.eq_ignore_ascii_case("pass") {
            if words.len() > 1 {
                return Err(ParseError::new("move", "'pass' takes nothing after it"));
            }
            return Ok(Move::Pass);
        }
        if first.eq_ignore_ascii_case("trade") {
            let tiles = words[1..]
                .iter()
                .map(|w| w.parse::<Tile>())
                .collect::<Result<Vec<_>, _>>()?;
            return Trade::new(&tiles).map(Move::Trade).ok_or_else(|| {
                ParseError::new(
                    "trade",
                    format!(
                        "a trade puts back 1 to {HAND_SIZE} tiles, got {}",
                        tiles.len()
                    ),
                )
            });
        }
        let cells = words
            .iter()
            .map(|w| w.parse::<Placed>())
            .collect::<Result<Vec<_>, _>>()?;
        for (i, a) in cells.iter().enumerate() {
            if cells[..i].iter().any(|b| (b.x, b.y) == (a.x, a.y)) {
                return Err(ParseError::new(
                    "placement",
                    format!("cell {},{} is used twice", a.x, a.y),
                ));
            }
        }
        Placement::new(&cells).map(Move::Place).ok_or_else(|| {
            ParseError::new(
                "placement",
                format!(
                    "a placement has 1 to {HAND_SIZE} tiles, got {}",
                    cells.len()
                ),
            )
        })
    }
}

impl Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
