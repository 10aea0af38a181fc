//! The results store: one SQLite file holding runs and every game of them.
//!
//! Tables:
//! - `meta(key, value)`: `application = tessera-arena`, `schema = 1`;
//! - `runs(id, key, params, shard_index, shard_count, total, created, finished, version)`:
//!   a run's parameters as JSON ([`RunParams`]; `key` is their canonical form) and the
//!   slice of it this file holds;
//! - `games(run, idx, tbl, series, deal, rotation, seed, seats, scores, winners, actions,
//!   record)`: one row per finished game, `record` the full JSON game record that
//!   replays it;
//! - `faults(run, idx, seat, ply, kind, detail)`: agents' faults (added later; files
//!   without it read as fault-free);
//! - `agent_names(run, agent, name)`: an external engine's `id name` from its handshake,
//!   shown instead of its path (added later; files without it show the specifications);
//! - `sprt(run, test, decision, llr, lower, upper, pairs, counts, updated)`: the state of a
//!   run's sequential test, written at the end of every `tessera tournament --sprt` call
//!   (added later, schema still 1: files without it read as having no stored test; the test
//!   itself is part of the run's parameters).
//!
//! The file is in WAL mode, so other processes can read it while a run writes, and games
//! are committed in small batches, so a run that is killed keeps every committed game.

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use tessera_core::PlayerId;
use tessera_core::table::{Fault, SeatFault};
use thiserror::Error;

use crate::analysis::SprtStatus;
use crate::error::ArenaError;
use crate::games::PlayedGame;
use crate::schedule::{RunParams, Shard, Slot};
use crate::stats::GameRow;

mod web;
pub use web::WebGameRow;

const SCHEMA: &str = "1";
const APPLICATION: &str = "tessera-arena";

/// A run as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// Its id in this file.
    pub id: i64,
    /// Its parameters.
    pub params: RunParams,
    /// The slice of the run this file holds.
    pub shard: Shard,
    /// Games in that slice.
    pub total: u64,
    /// Games stored.
    pub done: u64,
    /// When it was created (UTC, SQLite's `datetime('now')`).
    pub created: String,
    /// Version of the tool that created it.
    pub version: String,
}

impl RunInfo {
    /// True once every game of the slice is stored.
    pub fn complete(&self) -> bool {
        self.done >= self.total
    }
}

/// A finished game with its place in the schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredGame {
    /// Where it sits in the run.
    pub slot: Slot,
    /// What happened.
    pub game: PlayedGame,
}

impl StoredGame {
    /// The game as the statistics need it.
    pub fn row(&self) -> GameRow {
        GameRow {
            index: self.slot.index,
            table: self.slot.table,
            series: self.slot.series,
            deal: self.slot.deal,
            rotation: self.slot.rotation,
            seats: self.slot.seats.clone(),
            scores: self.game.scores.clone(),
            winners: self.game.winners.clone(),
        }
    }
}

/// A sequential test's state as stored with its run (table `sprt`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StoredSprt {
    /// `H0 accepted`, `H1 accepted` or `undecided`.
    pub decision: String,
    /// The LLR when last stored.
    pub llr: f64,
    /// The lower and upper bounds.
    pub bounds: (f64, f64),
    /// Pairs counted.
    pub pairs: u64,
    /// The test as `--sprt` takes it.
    pub test: String,
    /// When it was stored (UTC).
    pub updated: String,
}

/// An open results file.
pub struct Store {
    conn: Connection,
    path: String,
}

impl Store {
    fn err(&self, e: impl std::fmt::Display) -> ArenaError {
        store_err(&self.path, e)
    }

    /// Opens (creating if needed) a results file for writing. A file that is not a SQLite
    /// database, or a SQLite database of another program, is refused and left unchanged.
    pub fn open(path: &Path) -> Result<Store, ArenaError> {
        let shown = path.display().to_string();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
            && !dir.is_dir()
        {
            return Err(store_err(
                &shown,
                format!("directory {} does not exist", dir.display()),
            ));
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| store_err(&shown, e))?;
        let store = Store { conn, path: shown };
        store.setup(true)?;
        Ok(store)
    }

    /// Opens an existing results file for reading only.
    pub fn open_read(path: &Path) -> Result<Store, ArenaError> {
        let shown = path.display().to_string();
        if !path.is_file() {
            return Err(store_err(&shown, "no such file"));
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| store_err(&shown, e))?;
        let store = Store { conn, path: shown };
        store.setup(false)?;
        Ok(store)
    }

    /// The file's path as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    fn setup(&self, write: bool) -> Result<(), ArenaError> {
        let c = &self.conn;
        c.busy_timeout(Duration::from_secs(30))
            .map_err(|e| self.err(e))?;
        let tables: Vec<String> = c
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .and_then(|mut s| {
                s.query_map([], |r| r.get::<_, String>(0))?
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|e| self.not_ours(e))?;
        if tables.iter().any(|t| t == "meta") {
            let app: Option<String> = c
                .query_row(
                    "SELECT value FROM meta WHERE key = 'application'",
                    [],
                    |r| r.get(0),
                )
                .optional()
                .map_err(|e| self.err(e))?;
            let schema: Option<String> = c
                .query_row("SELECT value FROM meta WHERE key = 'schema'", [], |r| {
                    r.get(0)
                })
                .optional()
                .map_err(|e| self.err(e))?;
            if app.as_deref() != Some(APPLICATION) {
                return Err(self.err(
                    "is a SQLite database of another program; choose another --db (the file was left unchanged)",
                ));
            }
            if schema.as_deref() != Some(SCHEMA) {
                return Err(self.err(format!(
                    "has results schema {} but this tessera reads schema {SCHEMA}",
                    schema.unwrap_or_default()
                )));
            }
        } else if !tables.is_empty() {
            return Err(self.err(
                "is a SQLite database of another program; choose another --db (the file was left unchanged)",
            ));
        } else if !write {
            return Err(self.err("holds no tessera results"));
        }
        if write {
            c.pragma_update(None, "journal_mode", "WAL")
                .map_err(|e| self.write_err(e))?;
            c.pragma_update(None, "synchronous", "NORMAL")
                .map_err(|e| self.write_err(e))?;
            c.execute_batch(&format!(
                "BEGIN;
                 CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                 INSERT OR IGNORE INTO meta VALUES ('application', '{APPLICATION}'),
                                                   ('schema', '{SCHEMA}');
                 CREATE TABLE IF NOT EXISTS runs(
                    id INTEGER PRIMARY KEY,
                    key TEXT NOT NULL,
                    params TEXT NOT NULL,
                    shard_index INTEGER NOT NULL,
                    shard_count INTEGER NOT NULL,
                    total INTEGER NOT NULL,
                    created TEXT NOT NULL,
                    finished TEXT,
                    version TEXT NOT NULL,
                    UNIQUE(key, shard_index, shard_count));
                 CREATE TABLE IF NOT EXISTS games(
                    run INTEGER NOT NULL REFERENCES runs(id),
                    idx INTEGER NOT NULL,
                    tbl INTEGER NOT NULL,
                    series INTEGER NOT NULL,
                    deal INTEGER NOT NULL,
                    rotation INTEGER NOT NULL,
                    seed TEXT NOT NULL,
                    seats TEXT NOT NULL,
                    scores TEXT NOT NULL,
                    winners TEXT NOT NULL,
                    actions INTEGER NOT NULL,
                    record TEXT NOT NULL,
                    PRIMARY KEY(run, idx));
                 CREATE TABLE IF NOT EXISTS sprt(
                    run INTEGER PRIMARY KEY REFERENCES runs(id),
                    test TEXT NOT NULL,
                    decision TEXT NOT NULL,
                    llr REAL NOT NULL,
                    lower REAL NOT NULL,
                    upper REAL NOT NULL,
                    pairs INTEGER NOT NULL,
                    counts TEXT NOT NULL,
                    updated TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS agent_names(
                    run INTEGER NOT NULL REFERENCES runs(id),
                    agent INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    PRIMARY KEY(run, agent));
                 CREATE TABLE IF NOT EXISTS faults(
                    run INTEGER NOT NULL,
                    idx INTEGER NOT NULL,
                    seat INTEGER NOT NULL,
                    ply INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    detail TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS web_games(
                    id TEXT PRIMARY KEY,
                    game TEXT NOT NULL,
                    setup TEXT NOT NULL,
                    status TEXT NOT NULL,
                    created TEXT NOT NULL,
                    updated TEXT NOT NULL,
                    record TEXT);
                 CREATE TABLE IF NOT EXISTS web_events(
                    game TEXT NOT NULL REFERENCES web_games(id),
                    n INTEGER NOT NULL,
                    event TEXT NOT NULL,
                    PRIMARY KEY(game, n));
                 CREATE TABLE IF NOT EXISTS web_requests(
                    client TEXT NOT NULL,
                    request_id TEXT NOT NULL,
                    answer TEXT NOT NULL,
                    created INTEGER NOT NULL,
                    PRIMARY KEY(client, request_id));
                 COMMIT;"
            ))
            .map_err(|e| self.write_err(e))?;
        }
        Ok(())
    }

    fn not_ours(&self, e: rusqlite::Error) -> ArenaError {
        self.err(format!(
            "cannot be read as a SQLite database ({e}); choose another --db (the file was left unchanged)"
        ))
    }

    fn write_err(&self, e: rusqlite::Error) -> ArenaError {
        let msg = e.to_string();
        if msg.contains("not a database") {
            self.not_ours(e)
        } else {
            self.err(format!("cannot be written ({msg})"))
        }
    }

    /// Every run in the file.
    pub fn runs(&self) -> Result<Vec<RunInfo>, ArenaError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT r.id, r.params, r.shard_index, r.shard_count, r.total, r.created,
                        r.version, (SELECT COUNT(*) FROM games g WHERE g.run = r.id)
                 FROM runs r ORDER BY r.id",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, u32>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, i64>(7)?,
                ))
            })
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for row in rows {
            let (id, params, index, count, total, created, version, done) =
                row.map_err(|e| self.err(e))?;
            let params: RunParams = serde_json::from_str(&params)
                .map_err(|e| self.err(format!("run {id} has unreadable parameters: {e}")))?;
            let mut params = params;
            params.names = self.agent_names(id, params.agents.len())?;
            out.push(RunInfo {
                id,
                params,
                shard: Shard { index, count },
                total: total as u64,
                done: done as u64,
                created,
                version,
            });
        }
        Ok(out)
    }

    /// The run with these parameters and shard, if stored.
    pub fn find_run(
        &self,
        params: &RunParams,
        shard: Shard,
    ) -> Result<Option<RunInfo>, ArenaError> {
        let key = params.key();
        Ok(self
            .runs()?
            .into_iter()
            .find(|r| r.params.key() == key && r.shard == shard))
    }

    /// The run with id `id`; the error names the runs the file holds.
    pub fn run(&self, id: i64) -> Result<RunInfo, ArenaError> {
        let runs = self.runs()?;
        match runs.iter().position(|r| r.id == id) {
            Some(i) => Ok(runs[i].clone()),
            None => Err(self.err(format!(
                "has no run {id}; {}",
                runs_listing(&runs.iter().map(|r| r.id).collect::<Vec<_>>())
            ))),
        }
    }

    /// Stores a new run (the games of `shard`, `total` of them) and returns it.
    pub fn create_run(
        &self,
        params: &RunParams,
        shard: Shard,
        total: u64,
    ) -> Result<RunInfo, ArenaError> {
        let json = serde_json::to_string(params).map_err(|e| self.err(e))?;
        self.conn
            .execute(
                "INSERT INTO runs(key, params, shard_index, shard_count, total, created, version)
                 VALUES (?1, ?2, ?3, ?4, ?5, datetime('now'), ?6)",
                params![
                    params.key(),
                    json,
                    shard.index,
                    shard.count,
                    total as i64,
                    env!("CARGO_PKG_VERSION")
                ],
            )
            .map_err(|e| self.write_err(e))?;
        let id = self.conn.last_insert_rowid();
        self.run(id)
    }

    /// Indices of the games of run `run` already stored.
    pub fn done_indices(&self, run: i64) -> Result<HashSet<u64>, ArenaError> {
        let mut stmt = self
            .conn
            .prepare("SELECT idx FROM games WHERE run = ?1")
            .map_err(|e| self.err(e))?;
        let set = stmt
            .query_map([run], |r| r.get::<_, i64>(0))
            .map_err(|e| self.err(e))?
            .map(|x| x.map(|i| i as u64))
            .collect::<Result<HashSet<_>, _>>()
            .map_err(|e| self.err(e))?;
        Ok(set)
    }

    /// Stores finished games of run `run` in one transaction. A game already stored is
    /// kept as it is.
    pub fn insert_games(&mut self, run: i64, games: &[StoredGame]) -> Result<(), ArenaError> {
        let path = self.path.clone();
        let tx = self.conn.transaction().map_err(|e| store_err(&path, e))?;
        {
            let mut stmt = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO games(run, idx, tbl, series, deal, rotation, seed,
                        seats, scores, winners, actions, record)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                )
                .map_err(|e| store_err(&path, e))?;
            for g in games {
                stmt.execute(params![
                    run,
                    g.slot.index as i64,
                    g.slot.table,
                    g.slot.series,
                    g.slot.deal as i64,
                    g.slot.rotation,
                    g.slot.seed.to_string(),
                    json_list(&g.slot.seats),
                    json_list(&g.game.scores),
                    json_list(&g.game.winners),
                    g.game.actions,
                    g.game.record,
                ])
                .map_err(|e| store_err(&path, format!("cannot be written ({e})")))?;
            }
            // Agents' faults, with the game (an additive table: files without it read as
            // fault-free).
            let mut faults = tx
                .prepare_cached(
                    "INSERT INTO faults(run, idx, seat, ply, kind, detail)
                     SELECT ?1, ?2, ?3, ?4, ?5, ?6
                     WHERE NOT EXISTS (SELECT 1 FROM faults WHERE run = ?1 AND idx = ?2
                                       AND seat = ?3 AND ply = ?4 AND kind = ?5)",
                )
                .map_err(|e| store_err(&path, e))?;
            for g in games {
                for f in &g.game.faults {
                    faults
                        .execute(params![
                            run,
                            g.slot.index as i64,
                            f.seat.0,
                            f.ply,
                            f.fault.kind.name(),
                            f.fault.detail,
                        ])
                        .map_err(|e| store_err(&path, format!("cannot be written ({e})")))?;
                }
            }
        }
        tx.commit()
            .map_err(|e| store_err(&path, format!("cannot be written ({e})")))?;
        Ok(())
    }

    /// Records that run `run` is complete.
    pub fn mark_finished(&self, run: i64) -> Result<(), ArenaError> {
        self.conn
            .execute(
                "UPDATE runs SET finished = datetime('now') WHERE id = ?1 AND finished IS NULL",
                [run],
            )
            .map_err(|e| self.write_err(e))?;
        Ok(())
    }

    /// Display names of run `run`'s agents (an external engine's `id name`), `None` where
    /// none is stored (files written before names were stored have none).
    pub fn agent_names(&self, run: i64, agents: usize) -> Result<Vec<Option<String>>, ArenaError> {
        let mut out = vec![None; agents];
        if !self.has_table("agent_names")? {
            return Ok(out);
        }
        let mut stmt = self
            .conn
            .prepare_cached("SELECT agent, name FROM agent_names WHERE run = ?1")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([run], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
            .map_err(|e| self.err(e))?;
        for row in rows {
            let (agent, name) = row.map_err(|e| self.err(e))?;
            if let Some(slot) = usize::try_from(agent).ok().and_then(|a| out.get_mut(a)) {
                *slot = Some(name);
            }
        }
        Ok(out)
    }

    /// Stores display names of run `run`'s agents (`None`s are skipped).
    pub fn save_agent_names(&self, run: i64, names: &[Option<String>]) -> Result<(), ArenaError> {
        for (agent, name) in names.iter().enumerate() {
            if let Some(name) = name {
                self.conn
                    .execute(
                        "INSERT OR REPLACE INTO agent_names(run, agent, name) VALUES (?1, ?2, ?3)",
                        params![run, agent as i64, name],
                    )
                    .map_err(|e| self.write_err(e))?;
            }
        }
        Ok(())
    }

    /// Stores (replacing) the state of run `run`'s sequential test.
    pub fn save_sprt(&self, run: i64, s: &SprtStatus) -> Result<(), ArenaError> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO sprt(run, test, decision, llr, lower, upper, pairs,
                    counts, updated)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, datetime('now'))",
                params![
                    run,
                    crate::schedule::sprt_text(&s.params),
                    s.verdict(),
                    s.llr,
                    s.bounds.0,
                    s.bounds.1,
                    s.pairs as i64,
                    json_list(&s.counts),
                ],
            )
            .map_err(|e| self.write_err(e))?;
        Ok(())
    }

    /// The stored state of run `run`'s sequential test, if it has one (a file written
    /// before tests were stored has none).
    pub fn stored_sprt(&self, run: i64) -> Result<Option<StoredSprt>, ArenaError> {
        if !self.has_table("sprt")? {
            return Ok(None);
        }
        self.conn
            .query_row(
                "SELECT decision, llr, lower, upper, pairs, test, updated FROM sprt WHERE run = ?1",
                [run],
                |r| {
                    Ok(StoredSprt {
                        decision: r.get(0)?,
                        llr: r.get(1)?,
                        bounds: (r.get(2)?, r.get(3)?),
                        pairs: r.get::<_, i64>(4)? as u64,
                        test: r.get(5)?,
                        updated: r.get(6)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.err(e))
    }

    fn has_table(&self, name: &str) -> Result<bool, ArenaError> {
        Ok(self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [name],
                |r| r.get::<_, i64>(0),
            )
            .map_err(|e| self.err(e))?
            > 0)
    }

    /// The games of run `run` in schedule order, as the statistics need them.
    pub fn rows(&self, run: i64) -> Result<Vec<GameRow>, ArenaError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT idx, tbl, series, deal, rotation, seats, scores, winners FROM games
                 WHERE run = ?1 ORDER BY idx",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([run], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, u32>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, u32>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, String>(6)?,
                    r.get::<_, String>(7)?,
                ))
            })
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for row in rows {
            let (idx, table, series, deal, rotation, seats, scores, winners) =
                row.map_err(|e| self.err(e))?;
            let bad =
                |what: &str| self.err(format!("game {idx} of run {run} has unreadable {what}"));
            out.push(GameRow {
                index: idx as u64,
                table,
                series,
                deal: deal as u64,
                rotation,
                seats: serde_json::from_str(&seats).map_err(|_| bad("seats"))?,
                scores: serde_json::from_str(&scores).map_err(|_| bad("scores"))?,
                winners: serde_json::from_str(&winners).map_err(|_| bad("winners"))?,
            });
        }
        Ok(out)
    }

    /// The agents' faults stored with the games of run `run`: (game index, fault), in game
    /// order. A file written before faults were stored has none.
    pub fn faults(&self, run: i64) -> Result<Vec<(u64, SeatFault)>, ArenaError> {
        let has_table: bool = self
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'faults'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_err(|e| self.err(e))?
            > 0;
        if !has_table {
            return Ok(Vec::new());
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT idx, seat, ply, kind, detail FROM faults WHERE run = ?1
                 ORDER BY idx, ply, seat, rowid",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([run], |r| {
                Ok((
                    r.get::<_, i64>(0)? as u64,
                    SeatFault {
                        seat: PlayerId(r.get::<_, u8>(1)?),
                        ply: r.get(2)?,
                        fault: Fault {
                            kind: r.get::<_, String>(3)?.parse().map_err(|e| {
                                rusqlite::Error::FromSqlConversionFailure(
                                    3,
                                    rusqlite::types::Type::Text,
                                    Box::new(e),
                                )
                            })?,
                            detail: r.get(4)?,
                        },
                    },
                ))
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.err(e))
    }

    /// Every stored game of run `run` in schedule order, with its record.
    pub fn games(&self, run: i64) -> Result<Vec<StoredGame>, ArenaError> {
        let mut faults: std::collections::HashMap<u64, Vec<SeatFault>> = Default::default();
        for (idx, f) in self.faults(run)? {
            faults.entry(idx).or_default().push(f);
        }
        let sql = format!("SELECT {GAME_COLUMNS}, record FROM games WHERE run = ?1 ORDER BY idx");
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([run], |r| RawGame::read(r, true))
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for row in rows {
            let g = self.decode(row.map_err(|e| self.err(e))?)?;
            let faults = faults.remove(&g.slot.index).unwrap_or_default();
            out.push(g.into_stored(faults));
        }
        Ok(out)
    }

    /// Every stored game of run `run` (of every run with `None`) without its record, in
    /// run then schedule order: what a listing needs, without reading the records.
    pub fn game_summaries(&self, run: Option<i64>) -> Result<Vec<GameSummary>, ArenaError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE ?1 IS NULL OR run = ?1 ORDER BY run, idx"
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([run], |r| RawGame::read(r, false))
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for row in rows {
            let g = self.decode(row.map_err(|e| self.err(e))?)?;
            out.push(GameSummary {
                run: g.run,
                slot: g.slot,
                scores: g.scores,
                winners: g.winners,
                actions: g.actions,
            });
        }
        Ok(out)
    }

    /// The stored game `id` with its record, or `None` if the file does not hold it
    /// ([`Store::absent`] says what it holds instead).
    pub fn find_game(&self, id: GameId) -> Result<Option<StoredGame>, ArenaError> {
        let sql = format!("SELECT {GAME_COLUMNS}, record FROM games WHERE run = ?1 AND idx = ?2");
        let row = self
            .conn
            .query_row(&sql, params![id.run, id.index as i64], |r| {
                RawGame::read(r, true)
            })
            .optional()
            .map_err(|e| self.err(e))?;
        let Some(raw) = row else {
            return Ok(None);
        };
        let g = self.decode(raw)?;
        let faults = self
            .faults(id.run)?
            .into_iter()
            .filter(|(idx, _)| *idx == id.index)
            .map(|(_, f)| f)
            .collect();
        Ok(Some(g.into_stored(faults)))
    }

    /// Decodes a stored game's columns (seed, seats, scores and winners are text).
    fn decode(&self, raw: RawGame) -> Result<DecodedGame, ArenaError> {
        let (run, idx) = (raw.run, raw.idx);
        let bad = |what: &str| self.err(format!("game {idx} of run {run} has unreadable {what}"));
        Ok(DecodedGame {
            run,
            slot: Slot {
                index: idx as u64,
                table: raw.table,
                series: raw.series,
                deal: raw.deal as u64,
                rotation: raw.rotation,
                seed: raw.seed.parse().map_err(|_| bad("seed"))?,
                seats: serde_json::from_str(&raw.seats).map_err(|_| bad("seats"))?,
            },
            scores: serde_json::from_str(&raw.scores).map_err(|_| bad("scores"))?,
            winners: serde_json::from_str(&raw.winners).map_err(|_| bad("winners"))?,
            actions: raw.actions,
            record: raw.record,
        })
    }

    /// Why the file holds no game `id`: no such run (naming the runs it holds), or no such
    /// game in that run (naming the games stored for it).
    pub fn absent(&self, id: GameId) -> Result<NotStored, ArenaError> {
        let runs: Vec<i64> = self.runs()?.iter().map(|r| r.id).collect();
        if !runs.contains(&id.run) {
            return Ok(NotStored::Run {
                path: self.path.clone(),
                run: id.run,
                runs,
            });
        }
        let mut stored: Vec<u64> = self.done_indices(id.run)?.into_iter().collect();
        stored.sort_unstable();
        Ok(NotStored::Game {
            path: self.path.clone(),
            id,
            stored,
        })
    }
}

/// Names one stored game: its run and its index in the run's schedule, written
/// `RUN:INDEX` (`1:0` is the first game of run 1), as `tessera games` lists them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId {
    /// The run's id in its file.
    pub run: i64,
    /// The game's index in the run's schedule, from 0.
    pub index: u64,
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.run, self.index)
    }
}

/// A game id that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad game id '{0}': expected RUN:INDEX, for example 1:0 (`tessera games` lists them)")]
pub struct BadGameId(pub String);

impl std::str::FromStr for GameId {
    type Err = BadGameId;
    fn from_str(s: &str) -> Result<Self, BadGameId> {
        let bad = || BadGameId(s.to_string());
        let (run, index) = s.trim().split_once(':').ok_or_else(bad)?;
        let run: i64 = run.parse().map_err(|_| bad())?;
        if run < 1 {
            return Err(bad());
        }
        Ok(GameId {
            run,
            index: index.parse().map_err(|_| bad())?,
        })
    }
}

/// A stored game without its record: what a listing of games shows.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// The run it belongs to.
    pub run: i64,
    /// Where it sits in the run.
    pub slot: Slot,
    /// Final scores, seat 0 first.
    pub scores: Vec<i32>,
    /// Winning seats (several for a shared win).
    pub winners: Vec<usize>,
    /// Number of actions played.
    pub actions: u32,
}

impl GameSummary {
    /// The game's id.
    pub fn id(&self) -> GameId {
        GameId {
            run: self.run,
            index: self.slot.index,
        }
    }
}

/// Why a results file holds no game of a given id.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotStored {
    /// The file has no run of that id.
    #[error("database {path} has no run {run}; {}", runs_listing(runs))]
    Run {
        /// The file.
        path: String,
        /// The run asked for.
        run: i64,
        /// The runs it holds.
        runs: Vec<i64>,
    },
    /// The run has no stored game of that index.
    #[error("database {path}: run {} has no stored game {}; {}", id.run, id.index, games_listing(id.run, stored))]
    Game {
        /// The file.
        path: String,
        /// The game asked for.
        id: GameId,
        /// The indices of the run's stored games, ascending.
        stored: Vec<u64>,
    },
}

fn runs_listing(runs: &[i64]) -> String {
    match runs {
        [] => "it holds no runs".to_string(),
        [one] => format!("it holds run {one}"),
        many => format!(
            "it holds runs {}",
            many.iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn games_listing(run: i64, stored: &[u64]) -> String {
    if stored.is_empty() {
        return format!("run {run} has no stored games yet");
    }
    format!(
        "its stored games are {} ({} games; ids {run}:INDEX)",
        index_ranges(stored),
        stored.len()
    )
}

/// Ascending indices as ranges: `[0, 1, 2, 5, 7, 8]` is `0-2, 5, 7-8`.
pub fn index_ranges(sorted: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(", ")
}

fn store_err(path: &str, e: impl std::fmt::Display) -> ArenaError {
    ArenaError::Store {
        path: path.to_string(),
        detail: e.to_string(),
    }
}

fn json_list<T: std::fmt::Display>(v: &[T]) -> String {
    let parts: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("[{}]", parts.join(","))
}

/// The columns every reader of stored games selects, in [`RawGame::read`]'s order.
const GAME_COLUMNS: &str =
    "run, idx, tbl, series, deal, rotation, seed, seats, scores, winners, actions";

/// One stored game's columns as read, before decoding.
struct RawGame {
    run: i64,
    idx: i64,
    table: u32,
    series: u32,
    deal: i64,
    rotation: u32,
    seed: String,
    seats: String,
    scores: String,
    winners: String,
    actions: u32,
    record: Option<String>,
}

impl RawGame {
    /// Reads [`GAME_COLUMNS`], then the record if it was selected.
    fn read(r: &rusqlite::Row<'_>, with_record: bool) -> rusqlite::Result<Self> {
        Ok(RawGame {
            run: r.get(0)?,
            idx: r.get(1)?,
            table: r.get(2)?,
            series: r.get(3)?,
            deal: r.get(4)?,
            rotation: r.get(5)?,
            seed: r.get(6)?,
            seats: r.get(7)?,
            scores: r.get(8)?,
            winners: r.get(9)?,
            actions: r.get(10)?,
            record: if with_record { Some(r.get(11)?) } else { None },
        })
    }
}

/// A stored game's decoded columns.
struct DecodedGame {
    run: i64,
    slot: Slot,
    scores: Vec<i32>,
    winners: Vec<usize>,
    actions: u32,
    record: Option<String>,
}

impl DecodedGame {
    fn into_stored(self, faults: Vec<SeatFault>) -> StoredGame {
        StoredGame {
            slot: self.slot,
            game: PlayedGame {
                scores: self.scores,
                winners: self.winners,
                actions: self.actions,
                record: self.record.unwrap_or_default(),
                faults,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::driver;
    use crate::runner::{RunOptions, run_tournament};

    #[test]
    fn game_ids_parse_and_print() {
        let id: GameId = "3:17".parse().unwrap();
        assert_eq!(id, GameId { run: 3, index: 17 });
        assert_eq!(id.to_string(), "3:17");
        for bad in [
            "", "3", "3:", ":1", "a:1", "1:b", "0:1", "-1:2", "1:-2", "1:2:3",
        ] {
            let e = bad.parse::<GameId>().unwrap_err();
            assert!(e.to_string().contains("expected RUN:INDEX"), "{bad}: {e}");
        }
    }

    #[test]
    fn index_ranges_compress_runs_of_indices() {
        assert_eq!(index_ranges(&[]), "");
        assert_eq!(index_ranges(&[4]), "4");
        assert_eq!(index_ranges(&[0, 1, 2, 5, 7, 8]), "0-2, 5, 7-8");
    }

    #[test]
    fn stored_games_are_listed_found_and_missing_ones_explained() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.sqlite");
        let mut store = Store::open(&path).unwrap();
        let params = RunParams::new("nim", &["first", "random"], 2, 3, 2, 7);
        let d = driver("nim").unwrap();
        run_tournament(
            d.as_ref(),
            &params,
            &mut store,
            &RunOptions::default(),
            &mut (),
        )
        .unwrap();
        drop(store);
        let store = Store::open_read(&path).unwrap();
        let full = store.games(1).unwrap();
        let list = store.game_summaries(Some(1)).unwrap();
        assert_eq!(list.len(), 6);
        assert_eq!(store.game_summaries(None).unwrap(), list);
        assert!(store.game_summaries(Some(2)).unwrap().is_empty());
        // The listing agrees with the full rows, field by field.
        for (s, g) in list.iter().zip(&full) {
            assert_eq!(s.slot, g.slot);
            assert_eq!(s.scores, g.game.scores);
            assert_eq!(s.winners, g.game.winners);
            assert_eq!(s.actions, g.game.actions);
            let found = store.find_game(s.id()).unwrap().unwrap();
            assert_eq!(&found, g);
        }
        assert_eq!(list[4].id().to_string(), "1:4");
        assert!(
            store
                .find_game(GameId { run: 1, index: 6 })
                .unwrap()
                .is_none()
        );
        let e = store.absent(GameId { run: 1, index: 6 }).unwrap();
        assert!(
            e.to_string().contains("run 1 has no stored game 6")
                && e.to_string().contains("stored games are 0-5 (6 games"),
            "{e}"
        );
        let e = store.absent(GameId { run: 9, index: 0 }).unwrap();
        assert!(
            e.to_string().ends_with("has no run 9; it holds run 1"),
            "{e}"
        );
        let e = store.run(9).unwrap_err().to_string();
        assert!(e.ends_with("has no run 9; it holds run 1"), "{e}");
    }

    #[test]
    fn files_without_the_sprt_table_still_open_and_the_decision_round_trips() {
        use crate::analysis::SprtTracker;
        use crate::sprt::{EloModel, SprtParams};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite");
        let mut params = RunParams::new("nim", &["first", "random"], 2, 40, 1, 7);
        let d = driver("nim").unwrap();
        {
            let mut store = Store::open(&path).unwrap();
            run_tournament(
                d.as_ref(),
                &params,
                &mut store,
                &RunOptions::default(),
                &mut (),
            )
            .unwrap();
        }
        // A file written before the table existed.
        rusqlite::Connection::open(&path)
            .unwrap()
            .execute_batch("DROP TABLE sprt;")
            .unwrap();
        let store = Store::open_read(&path).unwrap();
        assert_eq!(store.stored_sprt(1).unwrap(), None);
        assert_eq!(store.rows(1).unwrap().len(), 40);
        drop(store);
        // Opened for writing, the table is added and a test's state is stored and read back.
        let store = Store::open(&path).unwrap();
        let sprt = SprtParams::new(-10.0, 10.0, 0.1, 0.1, EloModel::Logistic).unwrap();
        params.sprt = Some(sprt);
        let status = SprtTracker::from_rows(sprt, &params, &store.rows(1).unwrap()).status();
        store.save_sprt(1, &status).unwrap();
        let back = store.stored_sprt(1).unwrap().unwrap();
        assert_eq!(back.pairs, status.pairs);
        assert_eq!(back.llr, status.llr);
        assert_eq!(back.decision, status.verdict());
        assert_eq!(
            back.test,
            "elo0=-10,elo1=10,alpha=0.1,beta=0.1,model=logistic"
        );
    }
}
