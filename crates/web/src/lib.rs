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

pub mod access;
pub mod answers;
pub mod assets;
pub mod azul;
pub mod error;
pub mod events;
pub mod game;
pub mod games;
pub mod guard;
pub mod notation;
pub mod persist;
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
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::Value;

use crate::access::Credentials;
use crate::answers::{Games, Joined, PlayedGame, SeatToken};
use crate::error::{ApiError, parse_body};
use crate::guard::{Client, Guard};
use crate::persist::WebDb;
use crate::session::{
    GameKind, GameLimits, JoinRequest, MoveRequest, NewGame, Sessions, UndoRequest, ViewQuery,
};

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
    /// Most unfinished games at once (503 beyond).
    pub max_unfinished: usize,
    /// Most unfinished games one client may have created (429 beyond).
    pub max_games_per_client: usize,
    /// Per-client request rate limit: requests per second and burst (`None`: no limit).
    pub rate_limit: Option<(f64, f64)>,
    /// Largest request body in bytes (413 beyond).
    pub max_body: usize,
    /// Take the client's address from the last `X-Forwarded-For` entry (the server runs
    /// behind a reverse proxy that sets it).
    pub trust_forwarded: bool,
}

/// The largest request body by default: a game record uploaded for replay fits well.
pub const DEFAULT_MAX_BODY: usize = 256 * 1024;

impl Default for Config {
    fn default() -> Self {
        Config {
            master_seed: 0,
            max_sessions: 1000,
            ai_threads: default_ai_threads(),
            db: None,
            max_think: session::DEFAULT_MAX_THINK,
            test_games: false,
            max_unfinished: 1000,
            max_games_per_client: 1000,
            rate_limit: None,
            max_body: DEFAULT_MAX_BODY,
            trust_forwarded: false,
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
    /// Rate limits, body limit and origin check.
    pub guard: Guard,
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
            )
            .with_limits(GameLimits {
                max_sessions: config.max_sessions,
                max_unfinished: config.max_unfinished,
                max_per_client: config.max_games_per_client,
            }),
            tiles: tiles::TilesStore::default(),
            db: config.db.clone(),
            guard: Guard::new(config.rate_limit, config.max_body, config.trust_forwarded),
        }
    }

    /// Stores every game in `db` as it is played (`--db`).
    pub fn with_store(mut self, db: Arc<WebDb>) -> Self {
        self.sessions = self.sessions.with_db(Some(db));
        self
    }

    /// Restores every unfinished game of the database (call once, inside the runtime, after
    /// every game type is added): how many, and why others could not be.
    pub fn restore_games(&self) -> Result<(usize, Vec<String>), ApiError> {
        self.sessions.restore(&|game, id, setup, events, env| {
            self.kind(game)?.restore(id, setup, events, env)
        })
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
        .route("/api/games/{id}/join", post(join))
        .route("/api/lobby", get(lobby))
        .route("/api/played", get(played))
        .route("/api/played/{id}/record", get(played_record))
        .route("/api/replay", post(replay))
        .merge(tiles::routes())
        .merge(results::routes())
        .merge(stored::routes())
        .route("/api/{*rest}", get(api_not_found).post(api_not_found))
        .merge(assets::routes())
        .layer(axum::extract::DefaultBodyLimit::max(app.guard.max_body()))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            guard::check,
        ))
        .with_state(app)
}

/// Serves `router` on `addr` until the process ends or `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(
        listener,
        router(app).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}

/// Binds `addr` (port 0: any free port) and returns the listener and its address.
pub async fn bind(addr: SocketAddr) -> std::io::Result<(tokio::net::TcpListener, SocketAddr)> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    Ok((listener, addr))
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

async fn catalog(State(app): AppState) -> Json<Games<Value>> {
    // Test games are hosted (their records replay) but listed only when the operator asks.
    let games: Vec<Value> = app
        .kinds
        .values()
        .filter(|k| k.listed())
        .map(|k| k.info())
        .collect();
    Json(Games { games })
}

async fn list_games(State(app): AppState) -> Json<Games<Value>> {
    Json(Games {
        games: app.sessions.list(),
    })
}

/// The seat tokens of a request (`Authorization: Bearer ...`).
fn creds(headers: &HeaderMap) -> Result<Credentials, ApiError> {
    Credentials::from_headers(headers)
}

/// A game's page (`/azul?game=ID`) and a seat's invite link to it (the token in the
/// fragment, which browsers never send to a server or put in a Referer).
fn page(game: &str, id: &str) -> String {
    format!("/{game}?game={id}")
}

fn invite(game: &str, id: &str, token: &str) -> String {
    format!("{}#token={token}", page(game, id))
}

async fn new_game(
    State(app): AppState,
    client: Option<Extension<Client>>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let client = client.map(|Extension(c)| c.0).unwrap_or_default();
    let req: NewGame = parse_body(
        &body,
        "expected {\"game\": \"azul\", \"seats\": [{\"type\": \"human\"}, {\"type\": \"ai\", \"agent\": \"random\"}]}",
    )?;
    let kind = app.kind(&req.game)?;
    let (answer, repeat) =
        app.sessions
            .once_per_request(&client, req.request_id.as_deref(), || {
                app.sessions.admit(&client)?;
                let (id, default_seed) = app.sessions.next_id();
                let seed = req.seed.unwrap_or(default_seed);
                let env = app.sessions.env();
                let (session, tokens) = kind.create(id.clone(), &req, seed, &env, &client)?;
                app.sessions
                    .insert_for(id.clone(), Arc::clone(&session), &client)?;
                let first_human = tokens.first().map(|(seat, _)| *seat);
                // The creator plays the human seats that are not free (the free seats'
                // tokens go out as invites).
                let open = |seat: u8| {
                    matches!(
                        req.seats.get(seat as usize),
                        Some(session::SeatSpec::Human { open: true, .. })
                    )
                };
                let all = Credentials::from_tokens(
                    tokens
                        .iter()
                        .filter(|(seat, _)| !open(*seat))
                        .map(|(_, t)| t.as_str()),
                );
                let mut snap = session.snapshot(
                    &ViewQuery {
                        seat: first_human,
                        since: Some(0),
                        ..ViewQuery::default()
                    },
                    &all,
                )?;
                let game = session.game_name();
                // The snapshot (a `Value`, its keys in order) with the page and the tokens.
                snap["url"] = Value::from(page(game, &id));
                snap["tokens"] = answers::to_value(
                    &tokens
                        .iter()
                        .map(|(seat, token)| SeatToken {
                            invite: invite(game, &id, token),
                            seat: *seat,
                            token,
                        })
                        .collect::<Vec<_>>(),
                );
                Ok(snap)
            })?;
    let status = if repeat {
        StatusCode::OK
    } else {
        StatusCode::CREATED
    };
    let id = answer["id"].as_str().unwrap_or_default().to_string();
    let mut resp = (status, Json(answer)).into_response();
    if let Ok(v) = HeaderValue::from_str(&format!("/api/games/{id}")) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    Ok(resp)
}

async fn show_game(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<ViewQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = query(q)?;
    let creds = creds(&headers)?;
    let s = app.sessions.get(&id)?;
    if let (Some(wait), Some(rev)) = (q.wait_ms, q.revision) {
        let mut rx = s.subscribe();
        let wait = Duration::from_millis(wait.min(30_000));
        let _ = tokio::time::timeout(wait, rx.wait_for(|v| *v != rev)).await;
    }
    Ok(Json(s.snapshot(&q, &creds)?))
}

async fn play_move(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let s = app.sessions.get(&id)?;
    let creds = creds(&headers)?;
    let req: MoveRequest = parse_body(
        &body,
        "expected {\"seat\": 0, \"action\": \"...\", \"expected_revision\": 12}",
    )?;
    Ok(Json(s.play(req, &creds)?))
}

async fn undo(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let s = app.sessions.get(&id)?;
    let creds = creds(&headers)?;
    let req: UndoRequest = parse_body(&body, "expected {\"seat\": 0, \"expected_revision\": 12}")?;
    Ok(Json(s.undo(req, &creds)?))
}

async fn check(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let s = app.sessions.get(&id)?;
    let creds = creds(&headers)?;
    let req: MoveRequest = parse_body(&body, "expected {\"seat\": 0, \"action\": \"...\"}")?;
    Ok(Json(s.check(req, &creds)?))
}

async fn hint(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let s = app.sessions.get(&id)?;
    let creds = creds(&headers)?;
    let req: UndoRequest = parse_body(&body, "expected {\"seat\": 0}")?;
    let ticket = s.hint(req, &creds)?;
    let job = ticket.job;
    let pool = Arc::clone(&app.sessions.ai_pool);
    // The first request for this hint thinks; its repeats wait for the same answer.
    let v = ticket
        .answer
        .get_or_try_init(|| async move {
            let Some(job) = job else {
                return Err(ApiError::Conflict(
                    "the first request for this hint was cancelled before it finished: ask again \
                     once the game changes"
                        .into(),
                ));
            };
            // The hint's search runs on the blocking pool, like the AI seats.
            let _permit = pool
                .acquire_owned()
                .await
                .map_err(|e| ApiError::Internal(format!("hint: {e}")))?;
            tokio::task::spawn_blocking(job)
                .await
                .map_err(|e| ApiError::Internal(format!("the hint crashed: {e}")))
        })
        .await?;
    Ok(Json(v.clone()))
}

async fn join(
    State(app): AppState,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Joined>, ApiError> {
    let s = app.sessions.get(&id)?;
    let req: JoinRequest = parse_body(
        &body,
        "expected {\"name\": \"Ann\"} or {\"name\": \"Ann\", \"seat\": 1}",
    )?;
    let (seat, token) = s.join(&req)?;
    let creds = Credentials::from_tokens([token.as_str()]);
    let snap = s.snapshot(
        &ViewQuery {
            seat: Some(seat),
            since: Some(0),
            ..ViewQuery::default()
        },
        &creds,
    )?;
    let game = s.game_name();
    Ok(Json(Joined {
        game: snap,
        invite: invite(game, &id, &token),
        seat,
        token,
        url: page(game, &id),
    }))
}

async fn lobby(State(app): AppState) -> Json<Games<Value>> {
    Json(Games {
        games: app.sessions.lobby(),
    })
}

/// The web games stored in the database (`--db`), newest first.
async fn played(State(app): AppState) -> Result<Json<Value>, ApiError> {
    let Some(db) = app.sessions.db.clone() else {
        return Err(ApiError::NotFound(
            "this server keeps games in memory only: start it with `tessera serve --db FILE`"
                .into(),
        ));
    };
    let rows = tokio::task::spawn_blocking(move || db.games(false))
        .await
        .map_err(|e| ApiError::Internal(format!("reading the database crashed: {e}")))??;
    let records: Vec<Value> = rows
        .iter()
        .rev()
        .map(|r| {
            r.record
                .as_deref()
                .and_then(|t| serde_json::from_str(t).ok())
                .unwrap_or(Value::Null)
        })
        .collect();
    let games: Vec<PlayedGame> = rows
        .iter()
        .rev()
        .zip(&records)
        .map(|(r, record)| PlayedGame {
            created: &r.created,
            game: &r.game,
            id: &r.id,
            record_available: r.record.is_some(),
            result: record.get("result"),
            seats: record.get("seats"),
            status: &r.status,
            updated: &r.updated,
        })
        .collect();
    Ok(Json(answers::to_value(&Games { games })))
}

/// A stored web game's record, once it is over.
async fn played_record(State(app): AppState, Path(id): Path<String>) -> Result<Response, ApiError> {
    let Some(db) = app.sessions.db.clone() else {
        return Err(ApiError::NotFound(
            "this server keeps games in memory only: start it with `tessera serve --db FILE`"
                .into(),
        ));
    };
    let key = id.clone();
    let row = tokio::task::spawn_blocking(move || db.game(&key))
        .await
        .map_err(|e| ApiError::Internal(format!("reading the database crashed: {e}")))??
        .ok_or_else(|| ApiError::NotFound(format!("no stored game with id '{id}'")))?;
    let text = row.record.ok_or_else(|| {
        ApiError::Conflict(format!(
            "game {id} is not over yet: its record is stored when it ends"
        ))
    })?;
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        format!("{text}\n"),
    )
        .into_response())
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
