//! Web games kept in the database (`tessera serve --db FILE`): each game's setup when it is
//! created and every event as it happens, written before the server answers the request
//! that caused it. On start the server replays the events of every unfinished game.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use tessera_arena::store::{Store, WebGameRow};

use crate::error::ApiError;
use crate::events::StoredEvent;

/// The server's writable connection to the database.
pub struct WebDb {
    store: Mutex<Store>,
    path: PathBuf,
}

/// Seconds since 1970 (0 for a clock set before it).
fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn db_err(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::Unavailable(format!(
        "the server could not store {what} ({e}); nothing was changed"
    ))
}

impl WebDb {
    /// Opens (creating if needed) the database at `path` for writing.
    pub fn open(path: &Path) -> Result<Self, tessera_arena::ArenaError> {
        Ok(WebDb {
            store: Mutex::new(Store::open(path)?),
            path: path.to_path_buf(),
        })
    }

    /// The database's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stores a new game.
    pub fn create(&self, id: &str, game: &str, setup: &Value) -> Result<(), ApiError> {
        self.lock()
            .web_create(id, game, &setup.to_string())
            .map_err(|e| db_err("the new game", e))
    }

    /// Stores event `n` of game `id`.
    pub fn append(&self, id: &str, n: u64, event: &StoredEvent) -> Result<(), ApiError> {
        let text = event.to_json().map_err(|e| db_err("the move", e))?;
        self.lock()
            .web_append(id, n, &text)
            .map_err(|e| db_err("the move", e))
    }

    /// Keeps `answer` to `client`'s request `request_id` for `ttl` (older answers go).
    pub fn remember_request(
        &self,
        client: &str,
        request_id: &str,
        answer: &Value,
        ttl: Duration,
    ) -> Result<(), ApiError> {
        let now = unix_now();
        self.lock()
            .web_request_put(
                client,
                request_id,
                &answer.to_string(),
                now,
                now - ttl.as_secs() as i64,
            )
            .map_err(|e| db_err("the request id", e))
    }

    /// The answer kept for `client`'s request `request_id` within the last `ttl`.
    pub fn recall_request(
        &self,
        client: &str,
        request_id: &str,
        ttl: Duration,
    ) -> Result<Option<Value>, ApiError> {
        let since = unix_now() - ttl.as_secs() as i64;
        let text = self
            .lock()
            .web_request_get(client, request_id, since)
            .map_err(|e| ApiError::Internal(format!("reading a request id: {e}")))?;
        text.map(|t| {
            serde_json::from_str(&t)
                .map_err(|e| ApiError::Internal(format!("a stored answer is not JSON: {e}")))
        })
        .transpose()
    }

    /// Stores the end of game `id` with its record.
    pub fn finish(&self, id: &str, status: &str, record: &Value) -> Result<(), ApiError> {
        self.lock()
            .web_finish(id, status, &record.to_string())
            .map_err(|e| db_err("the game's end", e))
    }

    /// Every stored game (only the unfinished ones with `playing_only`).
    pub fn games(&self, playing_only: bool) -> Result<Vec<WebGameRow>, ApiError> {
        self.lock()
            .web_games(playing_only)
            .map_err(|e| ApiError::Internal(format!("reading the stored games: {e}")))
    }

    /// One stored game.
    pub fn game(&self, id: &str) -> Result<Option<WebGameRow>, ApiError> {
        self.lock()
            .web_game(id)
            .map_err(|e| ApiError::Internal(format!("reading stored game {id}: {e}")))
    }

    /// The events of game `id`, in order, each read as a [`StoredEvent`]; a row that is
    /// not one is an error naming the game, the row and what is wrong.
    pub fn events(&self, id: &str) -> Result<Vec<StoredEvent>, ApiError> {
        let texts = self
            .lock()
            .web_events(id)
            .map_err(|e| ApiError::Internal(format!("reading the moves of game {id}: {e}")))?;
        texts
            .iter()
            .enumerate()
            .map(|(n, text)| {
                StoredEvent::from_json(text).map_err(|e| {
                    let shown: String = text.chars().take(200).collect();
                    ApiError::Internal(format!(
                        "stored event {n} of game {id} ({shown}) does not read: {e}"
                    ))
                })
            })
            .collect()
    }
}
