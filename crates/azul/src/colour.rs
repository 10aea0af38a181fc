//! Tile colours and multisets of tiles.

use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Number of tile colours.
pub const NUM_COLOURS: usize = 5;

/// Tiles of each colour in the game.
pub const TILES_PER_COLOUR: u8 = 20;

/// Tiles in the game.
pub const TOTAL_TILES: u32 = 100;

/// A tile colour. The order is the wall layout's order: colour `k` of row `r` sits in
/// column `(r + k) mod 5`, so row 0 reads blue, yellow, red, black, white.
///
/// Letters: `B` blue, `Y` yellow, `R` red, `K` black, `W` white (parsing ignores case).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Colour {
    /// Blue (`B`).
    Blue = 0,
    /// Yellow (`Y`).
    Yellow = 1,
    /// Red (`R`).
    Red = 2,
    /// Black (`K`).
    Black = 3,
    /// White, the light blue-and-white tile (`W`).
    White = 4,
}

impl Colour {
    /// All colours in layout order.
    pub const ALL: [Colour; NUM_COLOURS] = [
        Colour::Blue,
        Colour::Yellow,
        Colour::Red,
        Colour::Black,
        Colour::White,
    ];

    /// The colour with index `i` (0-4). Panics on a larger index (a programming error).
    #[inline]
    pub const fn from_index(i: usize) -> Colour {
        Colour::ALL[i]
    }

    /// The colour's index 0-4.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one-letter notation (`B`, `Y`, `R`, `K`, `W`).
    pub const fn letter(self) -> char {
        match self {
            Colour::Blue => 'B',
            Colour::Yellow => 'Y',
            Colour::Red => 'R',
            Colour::Black => 'K',
            Colour::White => 'W',
        }
    }

    /// The colour of a letter, ignoring case.
    pub fn from_letter(c: char) -> Option<Colour> {
        match c.to_ascii_uppercase() {
            'B' => Some(Colour::Blue),
            'Y' => Some(Colour::Yellow),
            'R' => Some(Colour::Red),
            'K' => Some(Colour::Black),
            'W' => Some(Colour::White),
            _ => None,
        }
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Blue => "blue",
            Colour::Yellow => "yellow",
            Colour::Red => "red",
            Colour::Black => "black",
            Colour::White => "white",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A text that is not a colour or a set of tiles.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TilesParseError {
    /// A character that is not a colour letter.
    #[error("'{0}' is not a colour (expected B, Y, R, K or W)")]
    UnknownColour(char),
    /// More tiles of one colour than the game has.
    #[error("{count} {colour} tiles: the game has only 20 of each colour")]
    TooMany {
        /// The colour's name.
        colour: &'static str,
        /// How many were given.
        count: usize,
    },
}

impl FromStr for Colour {
    type Err = TilesParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let mut chars = t.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Colour::from_letter(c).ok_or(TilesParseError::UnknownColour(c)),
            _ => Colour::ALL
                .iter()
                .copied()
                .find(|c| c.name().eq_ignore_ascii_case(t))
                .ok_or_else(|| TilesParseError::UnknownColour(t.chars().next().unwrap_or(' '))),
        }
    }
}

/// A multiset of tiles: how many of each colour (a factory, the centre, the bag, the lid).
///
/// Notation: the tiles' letters in colour order (`BBYR`), `-` when empty.
///
/// ```
/// use tessera_azul::{Colour, Tiles};
/// let t: Tiles = "rbby".parse().unwrap();
/// assert_eq!(t[Colour::Blue], 2);
/// assert_eq!(t.to_string(), "BBYR");
/// assert_eq!(Tiles::EMPTY.to_string(), "-");
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Tiles(pub [u8; NUM_COLOURS]);

impl Tiles {
    /// No tiles.
    pub const EMPTY: Tiles = Tiles([0; NUM_COLOURS]);

    /// Every tile of the game: 20 of each colour.
    pub const FULL_SET: Tiles = Tiles([TILES_PER_COLOUR; NUM_COLOURS]);

    /// Number of tiles.
    #[inline]
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&x| x as u32).sum()
    }

    /// True when there is no tile.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; NUM_COLOURS]
    }

    /// Adds every tile of `other`.
    #[inline]
    pub fn add(&mut self, other: &Tiles) {
        for i in 0..NUM_COLOURS {
            self.0[i] += other.0[i];
        }
    }

    /// The colours present, in colour order.
    pub fn colours(&self) -> impl Iterator<Item = Colour> + '_ {
        Colour::ALL.into_iter().filter(|c| self.0[c.index()] > 0)
    }

    /// One tile of colour `c`.
    pub fn single(c: Colour) -> Tiles {
        let mut t = Tiles::EMPTY;
        t[c] = 1;
        t
    }

    /// True if `self` holds at least the tiles of `other`, colour by colour.
    pub fn contains(&self, other: &Tiles) -> bool {
        (0..NUM_COLOURS).all(|i| self.0[i] >= other.0[i])
    }
}

impl Index<Colour> for Tiles {
    type Output = u8;
    #[inline]
    fn index(&self, c: Colour) -> &u8 {
        &self.0[c.index()]
    }
}

impl IndexMut<Colour> for Tiles {
    #[inline]
    fn index_mut(&mut self, c: Colour) -> &mut u8 {
        &mut self.0[c.index()]
    }
}

impl fmt::Display for Tiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for c in Colour::ALL {
            for _ in 0..self[c] {
                write!(f, "{}", c.letter())?;
            }
        }
        Ok(())
    }
}

impl FromStr for Tiles {
    type Err = TilesParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let mut counts = [0usize; NUM_COLOURS];
        if s != "-" {
            for ch in s.chars() {
                let c = Colour::from_letter(ch).ok_or(TilesParseError::UnknownColour(ch))?;
                counts[c.index()] += 1;
            }
        }
        let mut t = Tiles::EMPTY;
        for c in Colour::ALL {
            let n = counts[c.index()];
            if n > TILES_PER_COLOUR as usize {
                return Err(TilesParseError::TooMany {
                    colour: c.name(),
                    count: n,
                });
            }
            t[c] = n as u8;
        }
        Ok(t)
    }
}

impl From<Tiles> for String {
    fn from(t: Tiles) -> String {
        t.to_string()
    }
}

impl TryFrom<String> for Tiles {
    type Error = TilesParseError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}
