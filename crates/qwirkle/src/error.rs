//! Typed errors: malformed text, illegal moves, impossible draws.

use thiserror::Error;

/// Text that is not valid Qwirkle notation (a tile, a move, a state).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("malformed {field}: {detail}")]
pub struct ParseError {
    /// Which part of the text is wrong (`tile`, `cell`, `move`, `state field 'bag'`, ...).
    pub field: String,
    /// What is wrong and what was expected.
    pub detail: String,
}

impl ParseError {
    pub(crate) fn new(field: impl Into<String>, detail: impl Into<String>) -> Self {
        ParseError {
            field: field.into(),
            detail: detail.into(),
        }
    }
}

/// Why a move is not legal in a position.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum MoveError {
    /// It is not a player's turn (a draw is pending or the game is over).
    #[error("no player is to move now")]
    NotPlayersTurn,
    /// The mover does not hold the tiles.
    #[error("you do not hold {0}")]
    NotInHand(String),
    /// A placed cell is already occupied.
    #[error("cell {0} is already occupied")]
    Occupied(String),
    /// Two placed tiles on the same cell.
    #[error("cell {0} is used twice")]
    SameCell(String),
    /// The tiles are not all in one row or one column.
    #[error("the placed tiles are not all in one row or one column")]
    NotInLine,
    /// The placed tiles leave an empty cell between them.
    #[error("the placed tiles leave the empty cell {0} between them")]
    Gap(String),
    /// A line would break the rules.
    #[error(
        "the line through {0} would not be one colour with different shapes or one shape with different colours"
    )]
    BadLine(String),
    /// No placed tile touches a tile on the board.
    #[error("no placed tile touches a tile already on the board")]
    NotTouching,
    /// The first move of the game breaks the first-move rule.
    #[error("first move: {0}")]
    FirstMove(String),
    /// A trade is not allowed now.
    #[error("trade: {0}")]
    Trade(String),
    /// A pass is only allowed when neither placing nor trading is possible.
    #[error("you may pass only when you can neither place a tile nor trade (the bag is empty)")]
    PassNotAllowed,
}

/// Why a draw from the bag is not possible.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DrawError {
    /// No draw is pending.
    #[error("no draw is pending")]
    NotPending,
    /// Wrong number of tiles.
    #[error("expected {expected} tiles, got {got}")]
    Count {
        /// Tiles the state expects.
        expected: usize,
        /// Tiles in the outcome.
        got: usize,
    },
    /// A tile is not in the bag.
    #[error("tile {0} is not in the bag")]
    NotInBag(String),
}
