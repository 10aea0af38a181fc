//! Why a state's notation or JSON is not an Azul position: below both the state
//! ([`crate::state`], whose `Game::ParseError` and `validate` it is) and the notation
//! ([`crate::notation`], which parses).

use thiserror::Error;

/// Why a state text (or JSON state) is not a valid Azul position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StateParseError {
    /// Wrong number of space-separated fields.
    #[error(
        "expected {expected} space-separated fields (PLAYERS ROUND PHASE START MOVER FACTORIES CENTRE BAG LID and one BOARD per player), found {found}"
    )]
    FieldCount {
        /// Fields expected.
        expected: usize,
        /// Fields found.
        found: usize,
    },
    /// One field is malformed.
    #[error("{field}: {detail}")]
    Field {
        /// Which field (`players`, `factory 3`, `P2 pattern line 4`, ...).
        field: String,
        /// What is wrong and what is expected.
        detail: String,
    },
    /// Every field reads, but no game of Azul can reach the position.
    #[error("impossible position: {0}")]
    Impossible(String),
}

pub(crate) fn ferr(field: impl Into<String>, detail: impl Into<String>) -> StateParseError {
    StateParseError::Field {
        field: field.into(),
        detail: detail.into(),
    }
}

pub(crate) fn impossible(detail: impl Into<String>) -> StateParseError {
    StateParseError::Impossible(detail.into())
}
