//! Tiles: 6 colours x 6 shapes, with the notation `R1` (colour letter, shape digit).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::ParseError;

/// Number of colours (and of shapes).
pub const KINDS: usize = 6;
/// Number of distinct tiles (colour x shape).
pub const TILE_TYPES: usize = KINDS * KINDS;
/// Copies of each distinct tile in the game.
pub const COPIES: u8 = 3;
/// Tiles in the game.
pub const TOTAL_TILES: usize = TILE_TYPES * COPIES as usize;

/// Colour letters, in colour order: red, orange, yellow, green, blue, purple.
pub const COLOR_LETTERS: [char; KINDS] = ['R', 'O', 'Y', 'G', 'B', 'P'];
/// Colour names, in colour order.
pub const COLOR_NAMES: [&str; KINDS] = ["red", "orange", "yellow", "green", "blue", "purple"];
/// Shape names, in shape order (shape digit 1 is a circle).
pub const SHAPE_NAMES: [&str; KINDS] = ["circle", "cross", "diamond", "square", "star", "clover"];

/// A tile: a colour (0-5) and a shape (0-5), packed as `colour * 6 + shape`.
///
/// Notation: the colour letter (`R O Y G B P`) and the shape digit (`1`-`6`: circle, cross,
/// diamond, square, star, clover). Lower-case colour letters are accepted.
///
/// ```
/// use tessera_qwirkle::Tile;
/// let t: Tile = "b4".parse().unwrap();
/// assert_eq!(t.to_string(), "B4");
/// assert_eq!((t.color(), t.shape()), (4, 3));
/// assert!("Z9".parse::<Tile>().is_err());
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile(u8);

impl Tile {
    /// The tile of a colour and a shape (both 0-5). Panics on larger values (a programming
    /// error; user text goes through `FromStr`).
    #[inline]
    pub const fn new(color: u8, shape: u8) -> Tile {
        assert!(color < KINDS as u8 && shape < KINDS as u8);
        Tile(color * KINDS as u8 + shape)
    }

    /// The tile with packed index `i` (0-35).
    #[inline]
    pub const fn from_index(i: usize) -> Tile {
        assert!(i < TILE_TYPES);
        Tile(i as u8)
    }

    /// The packed index, 0-35.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The colour, 0-5.
    #[inline]
    pub const fn color(self) -> u8 {
        self.0 / KINDS as u8
    }

    /// The shape, 0-5.
    #[inline]
    pub const fn shape(self) -> u8 {
        self.0 % KINDS as u8
    }

    /// True if the two tiles could stand in one line: they share exactly one attribute.
    #[inline]
    pub const fn compatible(self, other: Tile) -> bool {
        (self.color() == other.color()) != (self.shape() == other.shape())
    }

    /// All 36 distinct tiles.
    pub fn all() -> impl Iterator<Item = Tile> {
        (0..TILE_TYPES as u8).map(Tile)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            COLOR_LETTERS[self.color() as usize],
            self.shape() + 1
        )
    }
}

impl FromStr for Tile {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let mut chars = s.chars();
        let (Some(c), Some(d), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseError::new(
                "tile",
                format!(
                    "'{s}' is not a tile; expected a colour letter R O Y G B P and a shape digit 1-6, e.g. R1"
                ),
            ));
        };
        let color = COLOR_LETTERS
            .iter()
            .position(|&l| l == c.to_ascii_uppercase())
            .ok_or_else(|| {
                ParseError::new(
                    "tile colour",
                    format!("'{c}' in '{s}' is not a colour; expected one of R O Y G B P"),
                )
            })?;
        let shape = match d.to_digit(10) {
            Some(v @ 1..=6) => v - 1,
            _ => {
                return Err(ParseError::new(
                    "tile shape",
                    format!("'{d}' in '{s}' is not a shape; expected a digit 1-6"),
                ));
            }
        };
        Ok(Tile::new(color as u8, shape as u8))
    }
}

impl Serialize for Tile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Tile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A multiset of tiles: a count per distinct tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TileCounts(pub [u8; TILE_TYPES]);

impl Default for TileCounts {
    fn default() -> Self {
        TileCounts([0; TILE_TYPES])
    }
}

impl TileCounts {
    /// The full set: 3 of every tile.
    pub fn full() -> Self {
        TileCounts([COPIES; TILE_TYPES])
    }

    /// Number of tiles.
    pub fn total(&self) -> usize {
        self.0.iter().map(|&c| c as usize).sum()
    }

    /// Count of one tile.
    #[inline]
    pub fn get(&self, t: Tile) -> u8 {
        self.0[t.index()]
    }

    /// Adds one tile.
    #[inline]
    pub fn add(&mut self, t: Tile) {
        self.0[t.index()] += 1;
    }

    /// Removes one tile; false (and no change) if there is none.
    #[inline]
    pub fn remove(&mut self, t: Tile) -> bool {
        let c = &mut self.0[t.index()];
        if *c == 0 {
            false
        } else {
            *c -= 1;
            true
        }
    }

    /// The tiles in index order, each repeated by its count.
    pub fn tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        Tile::all().flat_map(move |t| std::iter::repeat_n(t, self.get(t) as usize))
    }

    /// The `k`-th tile (from 0) in index order, counting copies.
    pub fn nth(&self, mut k: usize) -> Option<Tile> {
        for t in Tile::all() {
            let c = self.get(t) as usize;
            if k < c {
                return Some(t);
            }
            k -= c;
        }
        None
    }
}

impl Serialize for TileCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.tiles())
    }
}

impl<'de> Deserialize<'de> for TileCounts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Tile>::deserialize(d)?;
        let mut c = TileCounts::default();
        for t in v {
            if c.get(t) >= COPIES {
                return Err(serde::de::Error::custom(format!(
                    "more than {COPIES} copies of {t}"
                )));
            }
            c.add(t);
        }
        Ok(c)
    }
}

/// The validity state of one line of tiles (a row or column run), updated tile by tile.
///
/// A line is valid when it holds at most 6 tiles that all share one colour and have
/// different shapes, or all share one shape and have different colours.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Tiles in the line.
    pub len: u8,
    colors: u8,
    shapes: u8,
}

impl Line {
    /// The empty line.
    pub const EMPTY: Line = Line {
        len: 0,
        colors: 0,
        shapes: 0,
    };

    /// The line with one more tile.
    #[inline]
    pub const fn with(self, t: Tile) -> Line {
        Line {
            len: self.len + 1,
            colors: self.colors | (1 << t.color()),
            shapes: self.shapes | (1 << t.shape()),
        }
    }

    /// The line made of two runs of different cells.
    #[inline]
    pub const fn union(self, other: Line) -> Line {
        Line {
            len: self.len + other.len,
            colors: self.colors | other.colors,
            shapes: self.shapes | other.shapes,
        }
    }

    /// Points this line scores when a move creates or extends it: its length if it has at
    /// least two tiles, plus 6 for a Qwirkle (a line of 6).
    #[inline]
    pub const fn points(self) -> i32 {
        match self.len {
            0 | 1 => 0,
            6 => 12,
            n => n as i32,
        }
    }

    /// The colours in the line, one bit per colour.
    #[inline]
    pub const fn colors_mask(self) -> u8 {
        self.colors
    }

    /// The shapes in the line, one bit per shape.
    #[inline]
    pub const fn shapes_mask(self) -> u8 {
        self.shapes
    }

    /// True if the line obeys the rules (the empty line does).
    #[inline]
    pub const fn is_valid(self) -> bool {
        if self.len <= 1 {
            return true;
        }
        let nc = self.colors.count_ones() as u8;
        let ns = self.shapes.count_ones() as u8;
        (nc == 1 && ns == self.len) || (ns == 1 && nc == self.len)
    }
}
