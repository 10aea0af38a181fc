//! Match the Tiles in the browser: puzzle sessions (level, position, moves, undo), hints and
//! any solver's solution, over the JSON API.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tessera_search::single::{self, Algorithm, Options};
use tessera_search::single::{SearchStats, Status};
use tessera_tiles::{
    Dir, Heuristic, Level, SolveStopped, builtin_levels, format_moves, parse_levels,
};

use crate::App;
use crate::answers::to_value;
use crate::error::{ApiError, parse_body};

/// A cell of a level: an obstacle, or the piece whose target it is.
#[derive(Serialize)]
struct Cell {
    obstacle: bool,
    target: Option<String>,
}

/// A level as the page draws it.
#[derive(Serialize)]
struct LevelView<'a> {
    name: &'a str,
    width: usize,
    height: usize,
    cells: Vec<Cell>,
    pieces: usize,
    /// The known shortest solution's length.
    optimal: Option<u32>,
}

/// A puzzle being played: `POST /api/tiles` and every move, undo and restart.
#[derive(Serialize)]
struct PuzzleView<'a> {
    id: &'a str,
    /// The built-in level's number (`null` for the player's own level).
    number: Option<usize>,
    level: Value,
    /// Each cell's piece (`null`: none).
    pieces: Vec<Option<String>>,
    moves: String,
    move_count: usize,
    solved: bool,
    hints_used: u32,
    can_undo: bool,
}

/// A built-in level in `GET /api/tiles/levels`.
#[derive(Serialize)]
struct LevelEntry {
    number: usize,
    name: String,
    width: usize,
    height: usize,
    pieces: usize,
    optimal: Option<u32>,
}

/// A heuristic the solvers may use.
#[derive(Serialize)]
struct HeuristicEntry {
    admissible: bool,
    name: String,
}

/// `GET /api/tiles/levels`: the levels, solvers and heuristics.
#[derive(Serialize)]
struct Levels {
    heuristics: Vec<HeuristicEntry>,
    levels: Vec<LevelEntry>,
    solvers: Vec<String>,
}

/// A puzzle's hint: the first move of a shortest solution.
#[derive(Serialize)]
struct TilesHint {
    dir: Option<String>,
    moves_left: Option<usize>,
    solvable: bool,
}

/// A solver's run on a puzzle.
#[derive(Serialize)]
struct Solved<'a> {
    solver: String,
    heuristic: Option<String>,
    status: Status,
    moves: Option<String>,
    length: Option<usize>,
    stats: &'a SearchStats,
}

/// Positions a hint or a solver may keep before giving up (a hint on a shipped level needs
/// far fewer).
pub const SEARCH_LIMIT: u64 = 2_000_000;

/// Most puzzle sessions kept.
const MAX_PUZZLES: usize = 1000;

struct Puzzle {
    level: Level,
    number: Option<usize>,
    history: Vec<tessera_tiles::State>,
    moves: Vec<Dir>,
    hints: u32,
}

/// The open puzzles, by id.
#[derive(Default)]
pub struct TilesStore {
    map: Mutex<HashMap<String, Arc<Mutex<Puzzle>>>>,
    counter: AtomicU64,
}

impl TilesStore {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<Mutex<Puzzle>>>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn get(&self, id: &str) -> Result<Arc<Mutex<Puzzle>>, ApiError> {
        self.lock()
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::NotFound(format!("no puzzle with id '{id}'")))
    }
}

fn lock(p: &Mutex<Puzzle>) -> MutexGuard<'_, Puzzle> {
    p.lock().unwrap_or_else(|e| e.into_inner())
}

fn level_json(level: &Level) -> Value {
    let n = level.width() * level.height();
    let cells: Vec<Cell> = (0..n)
        .map(|c| Cell {
            obstacle: level.is_obstacle(c),
            target: level.target_at(c).map(|t| t.piece_char().to_string()),
        })
        .collect();
    to_value(&LevelView {
        name: level.name(),
        width: level.width(),
        height: level.height(),
        cells,
        pieces: level.num_pieces(),
        optimal: level.known_optimal(),
    })
}

fn puzzle_json(id: &str, p: &Puzzle) -> Value {
    let state = p.history.last().copied().unwrap_or_else(|| p.level.start());
    let n = p.level.width() * p.level.height();
    let pieces: Vec<Option<String>> = (0..n)
        .map(|c| {
            p.level
                .piece_at(&state, c)
                .map(|col| col.piece_char().to_string())
        })
        .collect();
    to_value(&PuzzleView {
        id,
        number: p.number,
        level: level_json(&p.level),
        pieces,
        moves: format_moves(&p.moves),
        move_count: p.moves.len(),
        solved: p.level.is_solved(&state),
        hints_used: p.hints,
        can_undo: !p.moves.is_empty(),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewPuzzle {
    /// A shipped level, from 1.
    #[serde(default)]
    level: Option<usize>,
    /// Or a level in the text format.
    #[serde(default)]
    level_text: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveReq {
    dir: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveReq {
    solver: String,
    #[serde(default)]
    heuristic: Option<String>,
}

type AppState = State<Arc<App>>;

async fn levels() -> Json<Value> {
    let list: Vec<LevelEntry> = builtin_levels()
        .iter()
        .enumerate()
        .map(|(i, l)| LevelEntry {
            number: i + 1,
            name: l.name().to_string(),
            width: l.width(),
            height: l.height(),
            pieces: l.num_pieces(),
            optimal: l.known_optimal(),
        })
        .collect();
    let solvers: Vec<String> = Algorithm::ALL.iter().map(|a| a.to_string()).collect();
    let heuristics: Vec<HeuristicEntry> = Heuristic::ALL
        .iter()
        .map(|h| HeuristicEntry {
            admissible: h.is_admissible(),
            name: h.to_string(),
        })
        .collect();
    Json(to_value(&Levels {
        heuristics,
        levels: list,
        solvers,
    }))
}

async fn create(State(app): AppState, body: Bytes) -> Result<Json<Value>, ApiError> {
    let req: NewPuzzle = parse_body(
        &body,
        "expected {\"level\": 1} or {\"level_text\": \"...\"}",
    )?;
    let (level, number) = match (req.level, req.level_text) {
        (Some(n), None) => {
            let all = builtin_levels();
            let l = n.checked_sub(1).and_then(|i| all.get(i)).ok_or_else(|| {
                ApiError::NotFound(format!("no level {n}: the levels are 1 to {}", all.len()))
            })?;
            (l.clone(), Some(n))
        }
        (None, Some(text)) => {
            let mut ls = parse_levels(&text)
                .map_err(|e| ApiError::BadRequest(format!("your level, {e}")))?;
            if ls.len() != 1 {
                return Err(ApiError::BadRequest(format!(
                    "the text holds {} levels: paste exactly one",
                    ls.len()
                )));
            }
            let mut level = ls.remove(0);
            if level.known_optimal().is_none() {
                // Your own level: its optimum is found now (off the async workers), and a
                // level nobody can solve is refused.
                let probe = level.clone();
                let optimum = tokio::task::spawn_blocking(move || probe.optimal_length())
                    .await
                    .map_err(|e| ApiError::Internal(format!("solving the level: {e}")))?;
                match optimum {
                    Ok(Some(n)) => level.set_known(Some(n as u32), None),
                    Ok(None) => {
                        return Err(ApiError::BadRequest(
                            "your level: no sequence of moves solves it (check that every \
                             piece can reach a target of its colour)"
                                .into(),
                        ));
                    }
                    // Too large to solve here: played without a known optimum.
                    Err(_) => {}
                }
            }
            (level, None)
        }
        _ => {
            return Err(ApiError::BadRequest(
                "give exactly one of \"level\" (a number) and \"level_text\"".into(),
            ));
        }
    };
    let start = level.start();
    let n = app.tiles.counter.fetch_add(1, Ordering::Relaxed) + 1;
    let id = format!("t{n}");
    let p = Puzzle {
        level,
        number,
        history: vec![start],
        moves: Vec::new(),
        hints: 0,
    };
    let out = puzzle_json(&id, &p);
    let mut map = app.tiles.lock();
    if map.len() >= MAX_PUZZLES {
        // Drop the oldest puzzle (smallest number).
        if let Some(k) = map
            .keys()
            .min_by_key(|k| k[1..].parse::<u64>().unwrap_or(0))
            .cloned()
        {
            map.remove(&k);
        }
    }
    map.insert(id, Arc::new(Mutex::new(p)));
    Ok(Json(out))
}

async fn show(State(app): AppState, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let p = app.tiles.get(&id)?;
    let g = lock(&p);
    Ok(Json(puzzle_json(&id, &g)))
}

async fn play(
    State(app): AppState,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let p = app.tiles.get(&id)?;
    let req: MoveReq = parse_body(&body, "expected {\"dir\": \"L\"} (L, R, U or D)")?;
    let dir: Dir = req.dir.parse().map_err(|_| {
        ApiError::BadRequest(format!(
            "'{}' is not a direction: expected L, R, U, D (or left, right, up, down)",
            req.dir
        ))
    })?;
    let mut g = lock(&p);
    let state = *g
        .history
        .last()
        .ok_or_else(|| ApiError::Internal("empty history".into()))?;
    if g.level.is_solved(&state) {
        return Err(ApiError::Conflict("the level is already solved".into()));
    }
    let next = g.level.apply(&state, dir).ok_or_else(|| {
        ApiError::Illegal(
            format!("no piece can move {dir:?}: that is not a move here").to_lowercase(),
        )
    })?;
    g.history.push(next);
    g.moves.push(dir);
    Ok(Json(puzzle_json(&id, &g)))
}

async fn undo(State(app): AppState, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let p = app.tiles.get(&id)?;
    let mut g = lock(&p);
    if g.moves.is_empty() {
        return Err(ApiError::Conflict(
            "nothing to undo: no move was made yet".into(),
        ));
    }
    g.moves.pop();
    g.history.pop();
    Ok(Json(puzzle_json(&id, &g)))
}

async fn reset(State(app): AppState, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let p = app.tiles.get(&id)?;
    let mut g = lock(&p);
    let start = g.level.start();
    g.history = vec![start];
    g.moves.clear();
    Ok(Json(puzzle_json(&id, &g)))
}

async fn hint(State(app): AppState, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let p = app.tiles.get(&id)?;
    let (level, state) = {
        let g = lock(&p);
        let s = *g
            .history
            .last()
            .ok_or_else(|| ApiError::Internal("empty history".into()))?;
        (g.level.clone(), s)
    };
    if level.is_solved(&state) {
        return Err(ApiError::Conflict("the level is already solved".into()));
    }
    // The operator's cap binds the hint's search as it binds every AI seat.
    let deadline = app.sessions.cap().time.map(|t| Instant::now() + t);
    let res = tokio::task::spawn_blocking(move || {
        level.optimal_solution_before(&state, SEARCH_LIMIT as usize, deadline)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("hint search crashed: {e}")))?;
    let sol = res.map_err(|e| match e {
        SolveStopped::Positions(_) => ApiError::Unavailable(format!(
            "the hint search gave up after {SEARCH_LIMIT} positions"
        )),
        SolveStopped::Time { positions } => ApiError::Unavailable(format!(
            "the hint search ran out of the server's time per move after {positions} positions"
        )),
    })?;
    let mut g = lock(&p);
    g.hints += 1;
    Ok(Json(to_value(&match sol {
        Some(moves) => TilesHint {
            dir: moves.first().map(|d| d.letter().to_string()),
            moves_left: Some(moves.len()),
            solvable: true,
        },
        None => TilesHint {
            dir: None,
            moves_left: None,
            solvable: false,
        },
    })))
}

async fn solve(
    State(app): AppState,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let p = app.tiles.get(&id)?;
    let req: SolveReq = parse_body(
        &body,
        "expected {\"solver\": \"astar\", \"heuristic\": \"admissible\"}",
    )?;
    let algorithm: Algorithm = req
        .solver
        .parse()
        .map_err(|e| ApiError::BadRequest(format!("solver: {e}")))?;
    let heuristic: Heuristic = match &req.heuristic {
        Some(h) => h
            .parse()
            .map_err(|e| ApiError::BadRequest(format!("heuristic: {e}")))?,
        None => Heuristic::Admissible,
    };
    let level = lock(&p).level.clone();
    let deadline = app.sessions.cap().time.map(|t| Instant::now() + t);
    let result = tokio::task::spawn_blocking(move || {
        let opts = Options {
            node_limit: Some(SEARCH_LIMIT),
            deadline,
            ..Options::default()
        };
        single::solve(&level, algorithm, |s| heuristic.evaluate(&level, s), &opts)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("solver crashed: {e}")))?;
    Ok(Json(to_value(&Solved {
        solver: algorithm.to_string(),
        heuristic: algorithm.uses_heuristic().then(|| heuristic.to_string()),
        status: result.status,
        moves: result.solution.as_deref().map(format_moves),
        length: result.solution_len(),
        stats: &result.stats,
    })))
}

/// The `/api/tiles` routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/tiles/levels", get(levels))
        .route("/api/tiles", post(create))
        .route("/api/tiles/{id}", get(show))
        .route("/api/tiles/{id}/move", post(play))
        .route("/api/tiles/{id}/undo", post(undo))
        .route("/api/tiles/{id}/reset", post(reset))
        .route("/api/tiles/{id}/hint", post(hint))
        .route("/api/tiles/{id}/solve", post(solve))
}
