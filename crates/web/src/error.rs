//! API errors: every failure is an HTTP status with a JSON body `{"error": "..."}` that says
//! what was wrong and what was expected.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;
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
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Illegal(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        (status, Json(json!({ "error": self.to_string() }))).into_response()
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
