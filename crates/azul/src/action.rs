//! Drafting actions and their notation.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::colour::Colour;

/// Most factories at the table (4 players).
pub const MAX_FACTORIES: usize = 9;

/// Where tiles are taken from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// The centre of the table (`C`).
    Centre,
    /// Factory display `i`, counted from 0 (notation `i + 1`).
    Factory(u8),
}

/// Where the taken tiles go.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dest {
    /// Pattern line `i`, counted from 0 (line `i` holds `i + 1` tiles; notation `i + 1`).
    Line(u8),
    /// Straight to the floor line (`F`).
    Floor,
}

/// One drafting move: take every tile of `colour` from `source` and put them on `dest`.
///
/// Notation: source (`1`-`9` for a factory, `C` for the centre), colour letter
/// (`B Y R K W`), destination (`1`-`5` for a pattern line, `F` for the floor). Parsing
/// ignores case and spaces.
///
/// ```
/// use tessera_azul::{AzulAction, Colour, Dest, Source};
/// let a: AzulAction = "3y2".parse().unwrap();
/// assert_eq!(a, AzulAction { source: Source::Factory(2), colour: Colour::Yellow, dest: Dest::Line(1) });
/// assert_eq!(a.to_string(), "3Y2");
/// assert_eq!("C K F".parse::<AzulAction>().unwrap().to_string(), "CKF");
/// assert!("6Q1".parse::<AzulAction>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct AzulAction {
    /// Where the tiles come from.
    pub source: Source,
    /// Which colour is taken.
    pub colour: Colour,
    /// Where they go.
    pub dest: Dest,
}

/// Why a text is not an action.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionParseError {
    /// Nothing was given.
    #[error("empty move: expected SOURCE COLOUR DESTINATION, e.g. 3B2 or CRF")]
    Empty,
    /// Not three characters.
    #[error(
        "'{0}' is not a move: expected three characters SOURCE COLOUR DESTINATION, e.g. 3B2 (factory 3, blue, line 2) or CRF (centre, red, floor)"
    )]
    Length(String),
    /// The first character is not a source.
    #[error("source '{0}': expected a factory 1-9 or C for the centre")]
    Source(char),
    /// The second character is not a colour.
    #[error("colour '{0}': expected B (blue), Y (yellow), R (red), K (black) or W (white)")]
    Colour(char),
    /// The third character is not a destination.
    #[error("destination '{0}': expected a pattern line 1-5 or F for the floor")]
    Dest(char),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Centre => f.write_str("C"),
            Source::Factory(i) => write!(f, "{}", *i as u32 + 1),
        }
    }
}

impl fmt::Display for Dest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dest::Floor => f.write_str("F"),
            Dest::Line(i) => write!(f, "{}", *i as u32 + 1),
        }
    }
}

impl fmt::Display for AzulAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.source, self.colour.letter(), self.dest)
    }
}

impl FromStr for AzulAction {
    type Err = ActionParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let chars: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        if chars.is_empty() {
            return Err(ActionParseError::Empty);
        }
        if chars.len() != 3 {
            return Err(ActionParseError::Length(s.trim().to_string()));
        }
        let source = match chars[0] {
            'c' | 'C' => Source::Centre,
            d @ '1'..='9' => Source::Factory(d as u8 - b'1'),
            other => return Err(ActionParseError::Source(other)),
        };
        let colour = Colour::from_letter(chars[1]).ok_or(ActionParseError::Colour(chars[1]))?;
        let dest = match chars[2] {
            'f' | 'F' => Dest::Floor,
            d @ '1'..='5' => Dest::Line(d as u8 - b'1'),
            other => return Err(ActionParseError::Dest(other)),
        };
        Ok(AzulAction {
            source,
            colour,
            dest,
        })
    }
}

impl From<AzulAction> for String {
    fn from(a: AzulAction) -> String {
        a.to_string()
    }
}

impl TryFrom<String> for AzulAction {
    type Error = ActionParseError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}
