//! API errors: every failure is an HTTP status with a JSON body `{"error": "..."}` that says
//! what was wrong and what was expected.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tessera_core::PlayerId;
use tessera_core::table::TableError;
use thiserror::Error;

/// A request the server refuses, with the status it answers.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// 400: the request is malformed (bad JSON, a missing or wrong field, bad notation).
    #[error("{0}")]
    BadRequest(String),
    /// 403: the request asks for something private (an AI seat's hidden hand).
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such game, level or page.
    #[error("{0}")]
    NotFound(String),
    /// 409: the request does not fit the game's current situation (not your turn, game over,
    /// nothing to undo).
    #[error("{0}")]
    Conflict(String),
    /// 409: a move or undo made at an older revision of the game; nothing was played and
    /// the answer carries the game as it is now (`current`).
    #[error("{message}")]
    Stale {
        /// What happened.
        message: String,
        /// The current snapshot for the asking seat.
        current: Box<serde_json::Value>,
    },
    /// 413: a request body over the server's limit.
    #[error("{0}")]
    TooLarge(String),
    /// 429: a client over its request rate or its number of unfinished games.
    #[error("{0}")]
    TooMany(String),
    /// 422: a well-formed move that the rules forbid here.
    #[error("{0}")]
    Illegal(String),
    /// 503: the server is at its limit of open games.
    #[error("{0}")]
    Unavailable(String),
    /// 500: an internal failure (an AI player crashed).
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) | ApiError::Stale { .. } => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// The body of every error answer: `{"error": "..."}`, and for a stale request the game as
/// it is now (`current`). The fields are in sorted order, as on the wire before.
#[derive(serde::Serialize)]
struct ErrorBody<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    current: Option<&'a serde_json::Value>,
    error: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = match &self {
            ApiError::Stale { message, current } => ErrorBody {
                current: Some(current),
                error: message.clone(),
            },
            other => ErrorBody {
                current: None,
                error: other.to_string(),
            },
        };
        (status, Json(body)).into_response()
    }
}

/// The one mapping of a table's refusal to an HTTP answer: the table checks whose turn it is,
/// which seats are people's and what the rules allow; the web only says it in HTTP. Whose
/// turn, which seat, the game over, nothing to undo are 409; a move the rules forbid is 422
/// with the rules' reason; the table's own failures are 500. `name` gives a seat's name
/// (for the message), `action` the move as the request wrote it.
pub fn table_refusal(
    e: TableError,
    name: impl Fn(PlayerId) -> Option<String>,
    action: &str,
) -> ApiError {
    let who = |p: PlayerId| match name(p) {
        Some(n) => format!("seat {} ({n})", p.0),
        None => format!("seat {}", p.0),
    };
    match e {
        TableError::Over => ApiError::Conflict("the game is over".into()),
        TableError::ChanceNext => {
            ApiError::Conflict("not your turn: the next tiles are being drawn".into())
        }
        TableError::NotYourTurn { asked, to_move } => ApiError::Conflict(format!(
            "not your turn: {} is to move, not seat {}",
            who(to_move),
            asked.0
        )),
        TableError::WrongSeatKind { seat, human: false } | TableError::NotHuman(seat) => {
            ApiError::Conflict(match name(seat) {
                Some(n) => format!("seat {} is played by the AI ({n})", seat.0),
                None => format!("seat {} is played by the AI", seat.0),
            })
        }
        TableError::AgentAway(q) => ApiError::Conflict(format!(
            "{} is thinking: ask again once it has moved",
            who(q)
        )),
        TableError::Flag(q) => ApiError::Conflict(format!(
            "{} lost on time: the clock ran out before the move arrived",
            who(q)
        )),
        TableError::Illegal { source, .. } => {
            ApiError::Illegal(format!("illegal move '{}': {source}", action.trim()))
        }
        e @ TableError::IllegalMove(_) => ApiError::Illegal(e.to_string()),
        e @ (TableError::SeatCount { .. } | TableError::Chance(_)) => {
            ApiError::Internal(e.to_string())
        }
        e @ (TableError::WrongSeatKind { human: true, .. }
        | TableError::UndoNotAllowed
        | TableError::NothingToUndo
        | TableError::NothingToUndoFor(_)) => ApiError::Conflict(e.to_string()),
    }
}

impl From<TableError> for ApiError {
    /// [`table_refusal`] without seat names or a move's text.
    fn from(e: TableError) -> Self {
        table_refusal(e, |_| None, "")
    }
}

/// Parses a JSON request body into `T`, turning serde's message into a 400 that names the
/// line and column and what was expected.
pub fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8], what: &str) -> Result<T, ApiError> {
    if body.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(ApiError::BadRequest(format!(
            "empty request body: expected a JSON object ({what})"
        )));
    }
    serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(format!("malformed JSON body ({what}): {e}")))
}
