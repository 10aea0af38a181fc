//! Who may act for a seat: every human seat has a secret token, handed out once (to the
//! game's creator, or to the person who takes a free seat), and every request that acts for
//! the seat carries it as `Authorization: Bearer TOKEN`. The server keeps only the tokens'
//! SHA-256 hashes, in memory and in the database.

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use sha2::{Digest, Sha256};

use crate::error::ApiError;

/// Bytes of randomness in a token (128 bits).
const TOKEN_BYTES: usize = 16;

/// A fresh seat token: 128 bits from the operating system's generator, as 32 hex digits.
pub fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::Internal(format!("no random numbers for a seat token: {e}")))?;
    Ok(hex(&bytes))
}

/// A token's SHA-256 hash, as 64 hex digits (what the server stores).
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// The seat tokens a request carries, hashed: `Authorization: Bearer T` (one browser playing
/// several seats at one screen sends them all, separated by commas: `Bearer T0,T1`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Credentials {
    hashes: Vec<String>,
}

/// Most tokens one request may carry (a game has at most a few seats).
const MAX_TOKENS: usize = 8;

impl Credentials {
    /// No token: a spectator.
    pub fn none() -> Self {
        Credentials::default()
    }

    /// The credentials of these tokens.
    pub fn from_tokens<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Self {
        Credentials {
            hashes: tokens.into_iter().map(hash_token).collect(),
        }
    }

    /// Reads the `Authorization` header; absent is no token, anything but `Bearer` with
    /// 1 to 8 comma-separated tokens of hex digits is a 400.
    pub fn from_headers(headers: &HeaderMap) -> Result<Self, ApiError> {
        let Some(value) = headers.get(AUTHORIZATION) else {
            return Ok(Credentials::none());
        };
        let bad = || {
            ApiError::BadRequest(
                "bad Authorization header: expected 'Bearer TOKEN' (the seat token of the \
                 game's invite link; several seats' tokens separated by commas)"
                    .into(),
            )
        };
        let text = value.to_str().map_err(|_| bad())?;
        let rest = text
            .strip_prefix("Bearer ")
            .or_else(|| text.strip_prefix("bearer "))
            .ok_or_else(bad)?;
        let tokens: Vec<&str> = rest.split(',').map(str::trim).collect();
        if tokens.is_empty()
            || tokens.len() > MAX_TOKENS
            || tokens
                .iter()
                .any(|t| t.is_empty() || t.len() > 128 || !t.bytes().all(|b| b.is_ascii_hexdigit()))
        {
            return Err(bad());
        }
        Ok(Credentials::from_tokens(tokens))
    }

    /// Whether one of the tokens hashes to `hash`.
    pub fn holds(&self, hash: &str) -> bool {
        self.hashes.iter().any(|h| h == hash)
    }

    /// True without any token.
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn tokens_are_random_hex_and_hashed() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        // SHA-256 of "abc".
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn authorization_header_is_parsed() {
        let mut h = HeaderMap::new();
        assert!(Credentials::from_headers(&h).unwrap().is_empty());
        h.insert(AUTHORIZATION, HeaderValue::from_static("Bearer ab12, cd34"));
        let c = Credentials::from_headers(&h).unwrap();
        assert!(c.holds(&hash_token("ab12")));
        assert!(c.holds(&hash_token("cd34")));
        assert!(!c.holds(&hash_token("ef56")));
        for bad in ["Basic abc", "Bearer ", "Bearer a b", "Bearer zz", "ab12"] {
            h.insert(AUTHORIZATION, HeaderValue::from_static(bad));
            assert!(
                matches!(Credentials::from_headers(&h), Err(ApiError::BadRequest(_))),
                "{bad}"
            );
        }
    }
}
