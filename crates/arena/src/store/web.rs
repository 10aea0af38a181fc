//! The games played on the web server (`tessera serve --db FILE`), stored as they are
//! played: each game's setup once, then every event (a move, an AI seat's move, an undo, a
//! hint, a person taking a seat) as its own row, committed before the server answers. A
//! restarted server replays the events of every unfinished game to its state.

use rusqlite::{OptionalExtension, params};

use super::Store;
use crate::error::ArenaError;

/// One web game's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebGameRow {
    /// The server's game id (`3-5f3a9c2e`).
    pub id: String,
    /// The game's name (`azul`).
    pub game: String,
    /// The server's setup of the game (JSON: seed, seats, options, token hashes).
    pub setup: String,
    /// `playing`, `finished` or `failed`.
    pub status: String,
    /// When it was created (UTC, SQLite's `datetime('now')`).
    pub created: String,
    /// When it last changed.
    pub updated: String,
    /// The game record once it is over (JSON).
    pub record: Option<String>,
}

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<WebGameRow> {
    Ok(WebGameRow {
        id: r.get(0)?,
        game: r.get(1)?,
        setup: r.get(2)?,
        status: r.get(3)?,
        created: r.get(4)?,
        updated: r.get(5)?,
        record: r.get(6)?,
    })
}

const COLUMNS: &str = "id, game, setup, status, created, updated, record";

impl Store {
    /// Whether the file has the web tables (a file written by an older tessera, opened
    /// read-only, may not).
    fn has_web_tables(&self) -> Result<bool, ArenaError> {
        self.conn
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'web_games'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .map_err(|e| self.err(e))
    }

    /// Stores a new web game (status `playing`).
    pub fn web_create(&self, id: &str, game: &str, setup: &str) -> Result<(), ArenaError> {
        self.conn
            .execute(
                "INSERT INTO web_games(id, game, setup, status, created, updated)
                 VALUES (?1, ?2, ?3, 'playing', datetime('now'), datetime('now'))",
                params![id, game, setup],
            )
            .map_err(|e| self.write_err(e))?;
        Ok(())
    }

    /// Stores event `n` (from 0) of web game `id`.
    pub fn web_append(&self, id: &str, n: u64, event: &str) -> Result<(), ArenaError> {
        self.conn
            .execute(
                "INSERT INTO web_events(game, n, event) VALUES (?1, ?2, ?3)",
                params![id, n as i64, event],
            )
            .map_err(|e| self.write_err(e))?;
        self.conn
            .execute(
                "UPDATE web_games SET updated = datetime('now') WHERE id = ?1",
                params![id],
            )
            .map_err(|e| self.write_err(e))?;
        Ok(())
    }

    /// Keeps the answer a client got to its request `request_id` (a Start), made at `now`
    /// (Unix seconds), so that a retry after a restart gets it again; forgets the answers
    /// made before `forget_before`.
    pub fn web_request_put(
        &self,
        client: &str,
        request_id: &str,
        answer: &str,
        now: i64,
        forget_before: i64,
    ) -> Result<(), ArenaError> {
        self.conn
            .execute(
                "DELETE FROM web_requests WHERE created < ?1",
                params![forget_before],
            )
            .map_err(|e| self.write_err(e))?;
        self.conn
            .execute(
                "INSERT OR REPLACE INTO web_requests(client, request_id, answer, created)
                 VALUES (?1, ?2, ?3, ?4)",
                params![client, request_id, answer, now],
            )
            .map_err(|e| self.write_err(e))?;
        Ok(())
    }

    /// The answer kept for `client`'s request `request_id`, if it was made at or after
    /// `since` (Unix seconds).
    pub fn web_request_get(
        &self,
        client: &str,
        request_id: &str,
        since: i64,
    ) -> Result<Option<String>, ArenaError> {
        let has = self
            .conn
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'web_requests'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_err(|e| self.err(e))?;
        if has == 0 {
            return Ok(None);
        }
        self.conn
            .query_row(
                "SELECT answer FROM web_requests
                 WHERE client = ?1 AND request_id = ?2 AND created >= ?3",
                params![client, request_id, since],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Marks web game `id` over (`finished` or `failed`), with its record.
    pub fn web_finish(&self, id: &str, status: &str, record: &str) -> Result<(), ArenaError> {
        self.conn
            .execute(
                "UPDATE web_games SET status = ?2, record = ?3, updated = datetime('now')
                 WHERE id = ?1",
                params![id, status, record],
            )
            .map_err(|e| self.write_err(e))?;
        Ok(())
    }

    /// The web games, oldest first; only those still being played with `playing_only`.
    pub fn web_games(&self, playing_only: bool) -> Result<Vec<WebGameRow>, ArenaError> {
        if !self.has_web_tables()? {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT {COLUMNS} FROM web_games {} ORDER BY created, rowid",
            if playing_only {
                "WHERE status = 'playing'"
            } else {
                ""
            }
        );
        self.conn
            .prepare(&sql)
            .and_then(|mut s| s.query_map([], row)?.collect::<Result<Vec<_>, _>>())
            .map_err(|e| self.err(e))
    }

    /// Web game `id`, if stored.
    pub fn web_game(&self, id: &str) -> Result<Option<WebGameRow>, ArenaError> {
        if !self.has_web_tables()? {
            return Ok(None);
        }
        self.conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM web_games WHERE id = ?1"),
                params![id],
                row,
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    /// The events of web game `id`, in order.
    pub fn web_events(&self, id: &str) -> Result<Vec<String>, ArenaError> {
        self.conn
            .prepare("SELECT event FROM web_events WHERE game = ?1 ORDER BY n")
            .and_then(|mut s| {
                s.query_map(params![id], |r| r.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_games_are_stored_event_by_event() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let store = Store::open(&path).unwrap();
        store.web_create("1-ab", "azul", "{\"seed\":7}").unwrap();
        store.web_create("2-cd", "nim", "{}").unwrap();
        store.web_append("1-ab", 0, "{\"op\":\"move\"}").unwrap();
        store.web_append("1-ab", 1, "{\"op\":\"undo\"}").unwrap();
        // An event number is stored once.
        assert!(store.web_append("1-ab", 1, "{}").is_err());
        store
            .web_finish("2-cd", "finished", "{\"game\":\"nim\"}")
            .unwrap();
        drop(store);
        let store = Store::open_read(&path).unwrap();
        let playing = store.web_games(true).unwrap();
        assert_eq!(playing.len(), 1);
        assert_eq!(playing[0].id, "1-ab");
        assert_eq!(playing[0].setup, "{\"seed\":7}");
        assert_eq!(
            store.web_events("1-ab").unwrap(),
            vec!["{\"op\":\"move\"}", "{\"op\":\"undo\"}"]
        );
        let all = store.web_games(false).unwrap();
        assert_eq!(all.len(), 2);
        let done = store.web_game("2-cd").unwrap().unwrap();
        assert_eq!(done.status, "finished");
        assert_eq!(done.record.as_deref(), Some("{\"game\":\"nim\"}"));
        assert_eq!(store.web_game("3-ef").unwrap(), None);
    }

    #[test]
    fn request_answers_are_kept_per_client_within_their_window() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let store = Store::open(&path).unwrap();
        store
            .web_request_put("1.2.3.4", "r1", "{\"id\":\"1-ab\"}", 1000, 400)
            .unwrap();
        drop(store);
        // Kept across opening the file again, for that client and id only.
        let store = Store::open(&path).unwrap();
        assert_eq!(
            store
                .web_request_get("1.2.3.4", "r1", 400)
                .unwrap()
                .as_deref(),
            Some("{\"id\":\"1-ab\"}")
        );
        assert_eq!(store.web_request_get("5.6.7.8", "r1", 400).unwrap(), None);
        assert_eq!(store.web_request_get("1.2.3.4", "r2", 400).unwrap(), None);
        // Outside the window it is not an answer, and a later put forgets it.
        assert_eq!(store.web_request_get("1.2.3.4", "r1", 1001).unwrap(), None);
        store
            .web_request_put("1.2.3.4", "r2", "{}", 2000, 1400)
            .unwrap();
        assert_eq!(store.web_request_get("1.2.3.4", "r1", 0).unwrap(), None);
        assert_eq!(
            store
                .web_request_get("1.2.3.4", "r2", 0)
                .unwrap()
                .as_deref(),
            Some("{}")
        );
    }
}
