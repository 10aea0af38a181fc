//! # tessera-web
//!
//! The HTTP server behind `tessera serve`: a JSON API for playing Azul, Qwirkle and Match the
//! Tiles against the AI, and the browser UI (plain HTML, CSS and JavaScript compiled into the
//! binary). The API is documented in `docs/api.md`.
//!
//! Games are hosted by a [`session::Sessions`] table generic over [`tessera_core::Game`]
//! through [`game::WebGame`]; browsers only ever receive per-seat views, AI players think on
//! the blocking thread pool, and every bad request gets a 4xx answer with a JSON message and
//! leaves the game unchanged.

#![warn(missing_docs)]

pub mod assets;
pub mod azul;
pub mod error;
pub mod game;
pub mod games;
pub mod notation;
pub mod qwirkle;
pub mod results;
pub mod session;
pub mod stored;
pub mod tiles;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

use crate::error::{ApiError, parse_body};
use crate::session::{GameKind, MoveRequest, NewGame, Sessions, UndoRequest, ViewQuery};

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Seeds of games whose request names none, and game ids, derive from this.
    pub master_seed: u64,
    /// Most games kept in memory.
    pub max_sessions: usize,
    /// Most AI players thinking at the same time (others wait their turn, first come first
    /// served).
    pub ai_threads: usize,
    /// The tournament database shown on the results page.
    pub db: Option<std::path::PathBuf>,
    /// The operator's cap on every AI seat's time per move (and on hints), whatever the
    /// seat's specification or the request asks for.
    pub max_think: Duration,
    /// List the test games (Nim) in the catalog, and so on the pages (`--test-games`).
    pub test_games: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            master_seed: 0,
            max_sessions: 1000,
            ai_threads: default_ai_threads(),
            db: None,
            max_think: session::DEFAULT_MAX_THINK,
            test_games: false,
        }
    }
}

/// One AI thread per core: searches are CPU-bound, so more threads would not finish them
/// sooner, and would slow down the answers to people's requests.
pub fn default_ai_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// Everything the handlers share.
pub struct App {
    kinds: BTreeMap<&'static str, Box<dyn GameKind>>,
    /// The hosted games.
    pub sessions: Sessions,
    /// The open Match the Tiles puzzles.
    pub tiles: tiles::TilesStore,
    /// The tournament database of the results page.
    pub db: Option<std::path::PathBuf>,
}

impl App {
    /// A server with no games registered yet.
    pub fn new(config: &Config) -> Self {
        App {
            kinds: BTreeMap::new(),
            sessions: Sessions::new(
                config.master_seed,
                config.max_sessions,
                config.ai_threads,
                config.max_think,
            ),
            tiles: tiles::TilesStore::default(),
            db: config.db.clone(),
        }
    }

    /// Adds a game type under its own name (its game's `INFO.name`).
    pub fn with(mut self, kind: Box<dyn GameKind>) -> Self {
        self.kinds.insert(kind.name(), kind);
        self
    }

    /// Adds a game type under `name`, which must be its game's name (kept for callers that
    /// spell it; [`App::with`] reads it from the game).
    pub fn with_game(self, name: &'static str, kind: Box<dyn GameKind>) -> Self {
        debug_assert_eq!(name, kind.name(), "a game is hosted under its own name");
        self.with(kind)
    }

    fn kind(&self, name: &str) -> Result<&dyn GameKind, ApiError> {
        self.kinds.get(name).map(|k| k.as_ref()).ok_or_else(|| {
            ApiError::NotFound(format!(
                "unknown game '{name}': this server hosts {}",
                self.kinds.keys().copied().collect::<Vec<_>>().join(", ")
            ))
        })
    }
}

/// The router: the UI pages, the static files and the JSON API.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/catalog", get(catalog))
        .route("/api/games", get(list_games).post(new_game))
        .route("/api/games/{id}", get(show_game))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/check", post(check))
        .route("/api/games/{id}/record", get(record))
        .route("/api/replay", post(replay))
        .merge(tiles::routes())
        .merge(results::routes())
        .merge(stored::routes())
        .route("/api/{*rest}", get(api_not_found).post(api_not_found))
        .merge(assets::routes())
        .with_state(app)
}

/// Serves `router` on `addr` until the process ends or `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(app))
        .with_graceful_shutdown(shutdown)
        .await
}

/// Binds `127.0.0.1:port` (port 0: any free port) and returns the listener and its address.
pub async fn bind_loopback(port: u16) -> std::io::Result<(tokio::net::TcpListener, SocketAddr)> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let addr = listener.local_addr()?;
    Ok((listener, addr))
}

type AppState = State<Arc<App>>;

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(v)| v)
        .map_err(|e| ApiError::BadRequest(format!("bad query string: {}", e.body_text())))
}

async fn catalog(State(app): AppState) -> Json<Value> {
    // Test games are hosted (their records replay) but listed only when the operator asks.
    let games: Vec<Value> = app
        .kinds
        .values()
        .filter(|k| k.listed())
        .map(|k| k.info())
        .collect();
    Json(json!({ "games": games }))
}

async fn list_games(State(app): AppState) -> Json<Value> {
    Json(json!({ "games": app.sessions.list() }))
}

async fn new_game(State(app): AppState, body: Bytes) -> Result<Response, ApiError> {
    let req: NewGame = parse_body(
        &body,
        "expected {\"game\": \"azul\", \"seats\": [{\"type\": \"human\"}, {\"type\": \"ai\", \"agent\": \"random\"}]}",
    )?;
    let kind = app.kind(&req.game)?;
    let (id, default_seed) = app.sessions.next_id();
    let seed = req.seed.unwrap_or(default_seed);
    let session = kind.create(
        id.clone(),
        &req,
        seed,
        Arc::clone(&app.sessions.ai_pool),
        app.sessions.cap(),
    )?;
    app.sessions.insert(id.clone(), Arc::clone(&session))?;
    let first_human = req
        .seats
        .iter()
        .position(|s| matches!(s, session::SeatSpec::Human { .. }))
        .map(|i| i as u8);
    let snap = session.snapshot(&ViewQuery {
        seat: first_human,
        since: Some(0),
        ..ViewQuery::default()
    })?;
    let mut resp = (axum::http::StatusCode::CREATED, Json(snap)).into_response();
    if let Ok(v) = HeaderValue::from_str(&format!("/api/games/{id}")) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    Ok(resp)
}

async fn show_game(
    State(app): AppState,
    Path(id): Path<String>,
    q: Result<Query<ViewQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = query(q)?;
    let s = app.sessions.get(&id)?;
    if let (Some(wait), Some(rev)) = (q.wait_ms, q.revision) {
        let mut rx = s.subscribe();
        let wait = Duration::from_millis(wait.min(30_000));
        let _ = tokio::time::timeout(wait, rx.wait_for(|v| *v != rev)).await;
    }
    Ok(Json(s.snapshot(&q)?))
}

async fn play_move(
    State(app): AppState,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let s = app.sessions.get(&id)?;
    let req: MoveRequest = parse_body(&body, "expected {\"seat\": 0, \"action\": \"...\"}")?;
    Ok(Json(s.play(req)?))
}

async fn undo(
    State(app): AppState,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let s = app.sessions.get(&id)?;
    let req: UndoRequest = parse_body(&body, "expected {\"seat\": 0}")?;
    Ok(Json(s.undo(req)?))
}

async fn check(
    State(app): AppState,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let s = app.sessions.get(&id)?;
    let req: MoveRequest = parse_body(&body, "expected {\"seat\": 0, \"action\": \"...\"}")?;
    Ok(Json(s.check(req)?))
}

async fn hint(
    State(app): AppState,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let s = app.sessions.get(&id)?;
    let req: UndoRequest = parse_body(&body, "expected {\"seat\": 0}")?;
    let job = s.hint(req)?;
    // The hint's search runs on the blocking pool, like the AI seats.
    let _permit = Arc::clone(&app.sessions.ai_pool)
        .acquire_owned()
        .await
        .map_err(|e| ApiError::Internal(format!("hint: {e}")))?;
    let v = tokio::task::spawn_blocking(job)
        .await
        .map_err(|e| ApiError::Internal(format!("the hint crashed: {e}")))?;
    Ok(Json(v))
}

async fn record(State(app): AppState, Path(id): Path<String>) -> Result<Response, ApiError> {
    let s = app.sessions.get(&id)?;
    let rec = s.record()?;
    let mut resp = Json(rec).into_response();
    let name = format!("attachment; filename=\"{}-{id}.json\"", s.game_name());
    if let Ok(v) = HeaderValue::from_str(&name) {
        resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(resp)
}

async fn replay(State(app): AppState, body: Bytes) -> Result<Json<Value>, ApiError> {
    let rec: Value = parse_body(&body, "expected a game record as downloaded from a game")?;
    let game = rec
        .get("game")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::BadRequest("the record has no \"game\" field".into()))?;
    let kind = app.kind(game)?;
    let res = tokio::task::spawn_blocking({
        let rec = rec.clone();
        let kind_name = game.to_string();
        let app = Arc::clone(&app);
        move || app.kind(&kind_name).and_then(|k| k.replay(rec))
    })
    .await
    .map_err(|e| ApiError::Internal(format!("replay crashed: {e}")))?;
    let _ = kind;
    Ok(Json(res?))
}

async fn api_not_found(Path(rest): Path<String>) -> ApiError {
    ApiError::NotFound(format!("no API endpoint /api/{rest}; see docs/api.md"))
}
