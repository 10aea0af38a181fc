//! Stored games of the tournament database (`tessera serve --db FILE`), read-only: the list
//! of a run's games and one game's record, for the results page's links and the replay
//! page (`/replay?game=RUN:INDEX`).
//!
//! Only the database the operator named with `--db` is ever opened: a request names a run
//! and a game by number, never a file.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::Value;
use tessera_arena::report::table_name;
use tessera_arena::store::{GameId, Store};

use crate::App;
use crate::answers::to_value;
use crate::error::ApiError;

/// A stored tournament game in `GET /api/results/{run}/games`.
#[derive(Serialize)]
struct StoredEntry<'a> {
    /// `RUN:INDEX`.
    id: String,
    index: u64,
    table: u32,
    series: u32,
    deal: u64,
    rotation: u32,
    /// The game's seed, as text (a u64 is beyond a JavaScript number).
    seed: String,
    /// The agents' labels, seat by seat.
    seats: Vec<&'a str>,
    scores: &'a [i32],
    winners: &'a [usize],
    actions: u32,
}

/// `GET /api/results/{run}/games`: a run's games.
#[derive(Serialize)]
struct StoredRun<'a> {
    run: i64,
    game: &'a str,
    agents: &'a [String],
    tables: &'a [String],
    games: Vec<StoredEntry<'a>>,
}

fn open(app: &App) -> Result<Store, ApiError> {
    let path: PathBuf = app.db.clone().ok_or_else(|| {
        ApiError::NotFound(
            "no tournament database: start the server with `tessera serve --db FILE`".into(),
        )
    })?;
    Store::open_read(&path).map_err(|e| ApiError::NotFound(e.to_string()))
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::Internal(format!("reading the database crashed: {e}")))?
}

fn run_id(text: &str) -> Result<i64, ApiError> {
    text.parse::<i64>().ok().filter(|&r| r >= 1).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "run id '{text}' is not a run number: expected /api/results/RUN/games/INDEX"
        ))
    })
}

fn game_index(text: &str) -> Result<u64, ApiError> {
    text.parse().map_err(|_| {
        ApiError::BadRequest(format!(
            "game index '{text}' is not a number: expected /api/results/RUN/games/INDEX"
        ))
    })
}

async fn list(
    State(app): State<Arc<App>>,
    Path(run): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let run = run_id(&run)?;
    blocking(move || {
        let store = open(&app)?;
        let info = store
            .run(run)
            .map_err(|e| ApiError::NotFound(e.to_string()))?;
        let labels = info.params.labels();
        let tables: Vec<String> = (0..info.params.tables().len())
            .map(|t| table_name(&info.params, t))
            .collect();
        let games = store
            .game_summaries(Some(run))
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let list: Vec<StoredEntry> = games
            .iter()
            .map(|g| {
                let seats: Vec<&str> = g
                    .slot
                    .seats
                    .iter()
                    .map(|&a| labels.get(a).map_or("?", String::as_str))
                    .collect();
                StoredEntry {
                    id: g.id().to_string(),
                    index: g.slot.index,
                    table: g.slot.table,
                    series: g.slot.series,
                    deal: g.slot.deal,
                    rotation: g.slot.rotation,
                    seed: g.slot.seed.to_string(),
                    seats,
                    scores: &g.scores,
                    winners: &g.winners,
                    actions: g.actions,
                }
            })
            .collect();
        Ok(Json(to_value(&StoredRun {
            run,
            game: &info.params.game,
            agents: &labels,
            tables: &tables,
            games: list,
        })))
    })
    .await
}

async fn record(
    State(app): State<Arc<App>>,
    Path((run, index)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let id = GameId {
        run: run_id(&run)?,
        index: game_index(&index)?,
    };
    let (game, text) = blocking(move || {
        let store = open(&app)?;
        let Some(stored) = store
            .find_game(id)
            .map_err(|e| ApiError::Internal(e.to_string()))?
        else {
            let why = store
                .absent(id)
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            return Err(ApiError::NotFound(why.to_string()));
        };
        let game = store
            .run(id.run)
            .map_err(|e| ApiError::Internal(e.to_string()))?
            .params
            .game;
        Ok((game, stored.game.record))
    })
    .await?;
    let mut resp = (
        [(header::CONTENT_TYPE, "application/json")],
        format!("{text}\n"),
    )
        .into_response();
    let name = format!(
        "inline; filename=\"{game}-run{}-game{}.json\"",
        id.run, id.index
    );
    if let Ok(v) = HeaderValue::from_str(&name) {
        resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(resp)
}

/// The `/api/results/{run}/games` routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/results/{run}/games", get(list))
        .route("/api/results/{run}/games/{index}", get(record))
}
