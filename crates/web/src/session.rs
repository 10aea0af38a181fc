//! Game sessions: one game between human and AI seats, kept on the server.
//!
//! A session owns the full state; browsers only ever receive per-seat views. AI seats think
//! on the blocking thread pool (never on the async workers), at most `ai_threads` at a time,
//! and every action, human or AI, becomes a numbered step that a browser can replay one at a
//! time.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tessera_arena::registry::RegistryError;
use tessera_core::record::{Event, GameRecord, GameSeeds, replay_states};
use tessera_core::rng::derive_seed;
use tessera_core::table::{Next, Seat, Table, TableError, Thought};
use tessera_core::{Agent, Budget, Game, PlayerId, Turn};
use tokio::sync::{Semaphore, watch};

use crate::error::ApiError;
use crate::game::WebGame;

/// Builds an agent of game `G` from its registry string (`random`, `presort:time=50ms`),
/// with the budget its specification asks for (empty when it sets none).
pub type AgentFactory<G> =
    Arc<dyn Fn(&str) -> Result<(Box<dyn Agent<G>>, Budget), RegistryError> + Send + Sync>;

/// An agent the browser may choose for a seat.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct AgentInfo {
    /// The registry string.
    pub name: String,
    /// One line for people.
    pub description: String,
    /// Whether a time per move means anything to it (it searches until time runs out); the
    /// setup offers "ms per move" only then.
    #[serde(default)]
    pub timed: bool,
}

/// A difficulty level the setup offers.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct LevelInfo {
    /// 1 is the weakest.
    pub number: u8,
    /// One word (`casual`).
    pub name: String,
    /// One line for people.
    pub summary: String,
    /// What to send as the seat's agent (`level:3`).
    pub agent: String,
}

/// Longest time a hint thinks.
pub const HINT_TIME_MS: u64 = 2_000;

/// The operator's cap on an AI seat's time per move when `tessera serve --max-think` is not
/// given: the longest thinking time a browser may ask for, and the most any AI seat thinks
/// whatever its specification says.
pub const DEFAULT_MAX_THINK: Duration = Duration::from_secs(60);

/// The server's budget policy for a cap of `max_think`: every AI seat's budget is clamped to
/// it, so a move never runs much past it whatever limits its specification names (nodes,
/// samples or depth only: the cap's time is added).
pub fn budget_cap(max_think: Duration) -> Budget {
    Budget::time(max_think)
}

/// A seat in a new-game request.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum SeatSpec {
    /// A person at the browser.
    Human {
        /// Shown on the board.
        #[serde(default)]
        name: Option<String>,
    },
    /// An AI player from the registry.
    Ai {
        /// The registry string.
        agent: String,
        /// Its budget per move (`{"time_ms": 500}`); it overrides the limits of the
        /// specification, and the server's cap applies to both.
        #[serde(default)]
        budget: Budget,
    },
}

/// Checks a budget a request spells out: `time_ms` 1 to the cap, `depth` and `nodes` at
/// least 1.
fn check_request_budget(b: &Budget, cap: &Budget) -> Result<(), ApiError> {
    if let (Some(t), Some(max)) = (b.time, cap.time) {
        let ms = t.as_millis();
        if !(1..=max.as_millis()).contains(&ms) {
            return Err(ApiError::BadRequest(format!(
                "budget.time_ms is {ms}: expected 1 to {} (the server's --max-think)",
                max.as_millis()
            )));
        }
    }
    if b.depth == Some(0) || b.nodes == Some(0) {
        return Err(ApiError::BadRequest(
            "budget.depth and budget.nodes must be at least 1".into(),
        ));
    }
    Ok(())
}

/// The budget a seat gets: the specification's, overridden by the request's, within the
/// server's cap. Every AI seat gets the cap's time at most, agents that take no limits too
/// (the seat's reported budget shows it).
pub fn seat_budget(spec: Budget, request: &Budget, cap: &Budget) -> Budget {
    spec.overridden_by(request).clamp(cap)
}

/// `POST /api/games`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The game's short name (`azul`).
    pub game: String,
    /// One entry per seat, seat 0 first.
    pub seats: Vec<SeatSpec>,
    /// The seed of the deal and of the AI players; the server picks one if absent.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Game-specific options.
    #[serde(default)]
    pub options: Value,
}

/// `POST /api/games/{id}/move`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The seat that moves, from 0.
    pub seat: u8,
    /// The action in the game's notation.
    pub action: String,
}

/// `POST /api/games/{id}/undo` and `POST /api/games/{id}/hint`.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// The seat asking (must be a human seat).
    pub seat: u8,
}

/// A hint's thinking, to run off the async workers; gives the hint's JSON.
pub type HintJob = Box<dyn FnOnce() -> Value + Send>;

/// What a browser asks to see (`GET /api/games/{id}` query).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewQuery {
    /// Show the game as this human seat sees it (absent: as a spectator).
    pub seat: Option<u8>,
    /// Also send the steps from this index on, each with its view.
    pub since: Option<usize>,
    /// Wait up to this many milliseconds for the game to change from `revision`.
    pub wait_ms: Option<u64>,
    /// The revision the browser already has (for `wait_ms`).
    pub revision: Option<u64>,
}

/// A hosted game, whatever its type.
pub trait DynSession: Send + Sync {
    /// The game's short name.
    fn game_name(&self) -> &'static str;
    /// The game as `q.seat` sees it, with steps from `q.since`.
    fn snapshot(&self, q: &ViewQuery) -> Result<Value, ApiError>;
    /// A human seat's move; on success the AI seats continue in the background.
    fn play(self: Arc<Self>, req: MoveRequest) -> Result<Value, ApiError>;
    /// Takes back the last action (human-only games), or back to the asking human seat's
    /// previous turn (games with AI seats).
    fn undo(self: Arc<Self>, req: UndoRequest) -> Result<Value, ApiError>;
    /// Whether a human seat's move would be legal now, and why not (nothing is played).
    fn check(&self, req: MoveRequest) -> Result<Value, ApiError>;
    /// A hint for the human seat to move: the strongest player's move on its view.
    fn hint(&self, req: UndoRequest) -> Result<HintJob, ApiError>;
    /// The game record so far.
    fn record(&self) -> Result<Value, ApiError>;
    /// Watches the revision number.
    fn subscribe(&self) -> watch::Receiver<u64>;
    /// A short description for lists.
    fn summary(&self) -> Value;
    /// True once the game is over (or failed).
    fn is_done(&self) -> bool;
    /// When a request last touched the game.
    fn last_touch(&self) -> Instant;
}

/// What the server shows of a seat.
struct SeatInfo {
    /// The name on the board.
    name: String,
    /// For an AI seat: its agent's name and its budget per move.
    ai: Option<(String, Budget)>,
}

struct Inner<G: Game> {
    table: Table<'static, G>,
    seats: Vec<SeatInfo>,
    failure: Option<String>,
    /// Changes the table does not count (a failure).
    bumps: u64,
    last_touch: Instant,
}

impl<G: Game> Inner<G> {
    fn revision(&self) -> u64 {
        self.table.revision() + self.bumps
    }

    fn fail(&mut self, why: String) {
        self.failure = Some(why);
        self.bumps += 1;
    }
}

/// One hosted game of type `G`: a [`Table`] behind a lock. AI seats' thinking leaves the
/// table as a job for the blocking pool and comes back with [`Table::hand_back`].
pub struct Session<G: WebGame> {
    id: String,
    inner: Mutex<Inner<G>>,
    rev_tx: watch::Sender<u64>,
    ai_pool: Arc<Semaphore>,
    /// Builds the hint's agent.
    factory: AgentFactory<G>,
    /// The hint's player (the strongest level), if the game offers hints.
    hint_spec: Option<String>,
    /// The operator's cap on every AI seat's and hint's budget.
    cap: Budget,
}

/// AI players think at a lower scheduling priority than the threads that answer requests, so
/// a person's click is answered quickly however many searches are running (Linux: the
/// blocking-pool thread's nice value goes up by 10, once per thread).
fn lower_thread_priority() {
    thread_local! {
        static LOWERED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    if LOWERED.with(|l| l.replace(true)) {
        return;
    }
    #[cfg(target_os = "linux")]
    // SAFETY: gettid, getpriority and setpriority only read and set this thread's scheduling
    // priority; no memory is shared with the calls.
    unsafe {
        let tid = libc::gettid() as libc::id_t;
        let current = libc::getpriority(libc::PRIO_PROCESS, tid);
        let _ = libc::setpriority(libc::PRIO_PROCESS, tid, (current + 10).min(19));
    }
}

/// Who the game waits for (the snapshot's `waiting_for`; `null` at the end, during a deal and
/// after a failure).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
enum Waiting {
    /// A person's move.
    Human,
    /// An AI seat's move.
    Ai,
}

/// A table's refusal of a seat's request as an HTTP answer: whose turn, which seat, the game
/// over are 409; an illegal move is 422 with the rules' reason.
fn table_refusal(e: TableError, seats: &[SeatInfo], action: &str) -> ApiError {
    let name = |p: PlayerId| {
        seats
            .get(p.index())
            .map_or("?", |s| s.name.as_str())
            .to_string()
    };
    match e {
        TableError::Over => ApiError::Conflict("the game is over".into()),
        TableError::ChanceNext => {
            ApiError::Conflict("not your turn: the next tiles are being drawn".into())
        }
        TableError::NotYourTurn { asked, to_move } => ApiError::Conflict(format!(
            "not your turn: seat {} ({}) is to move, not seat {}",
            to_move.0,
            name(to_move),
            asked.0
        )),
        TableError::WrongSeatKind { seat, human: false } => ApiError::Conflict(format!(
            "seat {} is played by the AI ({})",
            seat.0,
            name(seat)
        )),
        TableError::Illegal { source, .. } => {
            ApiError::Illegal(format!("illegal move '{}': {source}", action.trim()))
        }
        other => ApiError::Conflict(other.to_string()),
    }
}

fn seat_err(seat: u8, n: usize) -> ApiError {
    ApiError::BadRequest(format!(
        "seat {seat} does not exist: this game has seats 0 to {}",
        n - 1
    ))
}

impl<G: WebGame> Session<G> {
    /// Sets up a new game of `kind` (its agents, levels and hints). Errors name the bad
    /// seat, agent or option.
    pub fn create(
        id: String,
        req: &NewGame,
        seed: u64,
        kind: &Kind<G>,
        ai_pool: Arc<Semaphore>,
        cap: Budget,
    ) -> Result<Arc<Self>, ApiError> {
        let (factory, levels) = (&kind.factory, &kind.levels);
        let n = req.seats.len();
        if !G::INFO.seats_ok(n) {
            return Err(ApiError::BadRequest(format!(
                "{} has {} to {} seats, the request has {n}",
                G::INFO.title,
                G::INFO.min_players,
                G::INFO.max_players
            )));
        }
        let seeds = GameSeeds { seed };
        let initial = G::setup(n, &req.options, &mut seeds.setup_rng())
            .map_err(|e| ApiError::BadRequest(format!("options: {e}")))?;
        let mut seats = Vec::with_capacity(n);
        let mut infos = Vec::with_capacity(n);
        for (i, spec) in req.seats.iter().enumerate() {
            match spec {
                SeatSpec::Human { name } => {
                    let name: String = name
                        .as_deref()
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(|s| s.chars().take(40).collect())
                        .unwrap_or_else(|| format!("Player {}", i + 1));
                    seats.push(Seat::human(format!("human:{name}")));
                    infos.push(SeatInfo { name, ai: None });
                }
                SeatSpec::Ai { agent, budget } => {
                    check_request_budget(budget, &cap)
                        .map_err(|e| ApiError::BadRequest(format!("seat {i}: {e}")))?;
                    let (built, spec_budget) = factory(agent).map_err(|e| {
                        ApiError::BadRequest(format!("seat {i}: agent '{agent}': {e}"))
                    })?;
                    let budget = seat_budget(spec_budget, budget, &cap);
                    // Players see a difficulty level by its number and name; the player
                    // behind it (its specification) stays in the seat's `agent`.
                    let agent_name = built.name();
                    let shown = agent
                        .trim()
                        .strip_prefix("level:")
                        .and_then(|key| {
                            levels.iter().find(|l| {
                                l.number.to_string() == key || l.name.eq_ignore_ascii_case(key)
                            })
                        })
                        .map_or_else(
                            || agent_name.clone(),
                            |l| format!("Level {} · {}", l.number, l.name),
                        );
                    seats.push(Seat::agent(built, budget));
                    infos.push(SeatInfo {
                        name: shown,
                        ai: Some((agent_name, budget)),
                    });
                }
            }
        }
        let table = Table::new(initial, seats, seed)
            .map_err(|e| ApiError::Internal(format!("table: {e}")))?;
        let (rev_tx, _) = watch::channel(0);
        let session = Arc::new(Session {
            id,
            inner: Mutex::new(Inner {
                table,
                seats: infos,
                failure: None,
                bumps: 0,
                last_touch: Instant::now(),
            }),
            rev_tx,
            ai_pool,
            factory: Arc::clone(factory),
            hint_spec: kind.hint_spec.clone(),
            cap,
        });
        Ok(session)
    }

    fn lock(&self) -> MutexGuard<'_, Inner<G>> {
        // A panic while holding the lock leaves a consistent state (every mutation is a
        // single push or assignment), so a poisoned lock is still usable.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs chance events at once and starts the AI seat to move, if any. Call after every
    /// change.
    pub fn advance(self: &Arc<Self>) {
        let mut g = self.lock();
        self.advance_locked(&mut g);
    }

    /// Asks the table who must act; an AI seat's job goes to the blocking pool.
    fn advance_locked(self: &Arc<Self>, g: &mut Inner<G>) {
        if g.failure.is_none() {
            match g.table.advance() {
                Err(e) => g.fail(e.to_string()),
                Ok(Next::Agent(_)) => match g.table.think() {
                    Err(e) => g.fail(e.to_string()),
                    Ok(job) => {
                        let p = job.player();
                        let this = Arc::clone(self);
                        tokio::spawn(async move {
                            let permit = Arc::clone(&this.ai_pool).acquire_owned().await;
                            let result = tokio::task::spawn_blocking(move || {
                                lower_thread_priority();
                                job.run()
                            })
                            .await;
                            drop(permit);
                            this.finish_ai(p, result);
                        });
                    }
                },
                Ok(Next::Human(_) | Next::Thinking(_) | Next::Over) => {}
            }
        }
        self.rev_tx.send_replace(g.revision());
    }

    fn finish_ai(
        self: &Arc<Self>,
        p: PlayerId,
        result: Result<Thought<'static, G>, tokio::task::JoinError>,
    ) {
        let mut g = self.lock();
        match result {
            Ok(done) => {
                if let Err(e) = g.table.hand_back(done) {
                    let why = match e {
                        TableError::IllegalMove(m) => format!(
                            "AI seat {} ({}) chose the illegal action {}: {}",
                            p.0, m.agent, m.action, m.detail
                        ),
                        other => other.to_string(),
                    };
                    g.fail(why);
                }
            }
            Err(e) => g.fail(format!("AI seat {} crashed while thinking: {e}", p.0)),
        }
        self.advance_locked(&mut g);
    }

    fn status(g: &Inner<G>) -> &'static str {
        if g.failure.is_some() {
            "failed"
        } else if g.table.state().turn() == Turn::Terminal {
            "finished"
        } else {
            "playing"
        }
    }

    fn check_viewer(g: &Inner<G>, seat: Option<u8>) -> Result<Option<PlayerId>, ApiError> {
        match seat {
            None => Ok(None),
            Some(s) => {
                let seat_info = g
                    .seats
                    .get(s as usize)
                    .ok_or_else(|| seat_err(s, g.seats.len()))?;
                if seat_info.ai.is_some()
                    && G::INFO.hidden_info
                    && g.table.state().turn() != Turn::Terminal
                {
                    return Err(ApiError::Forbidden(format!(
                        "seat {s} is an AI seat: what it sees is private; ask without a seat \
                         for the spectator view"
                    )));
                }
                Ok(Some(PlayerId(s)))
            }
        }
    }

    fn step_json(g: &Inner<G>, index: usize, viewer: Option<PlayerId>) -> Value {
        let step = &g.table.steps()[index];
        let (kind, action, action_json, report) = match (&step.event, &step.action) {
            (Event::Action { action, .. }, Some(a)) => {
                let before = g.table.state_before(index);
                let own = viewer.is_some() && viewer == step.player;
                let text = if own || !G::INFO.hidden_info {
                    action.clone()
                } else {
                    before.public_action(a)
                };
                (
                    "action",
                    Value::from(text),
                    before.action_json(a),
                    before.step_report(a),
                )
            }
            _ => ("chance", Value::Null, Value::Null, Value::Null),
        };
        json!({
            "index": index,
            "type": kind,
            "player": step.player.map(|p| p.0),
            "action": action,
            "action_json": action_json,
            "think_ms": step.think.map(|d| d.as_millis() as u64),
            "report": report,
            "explain": match (&step.action, step.player) {
                (Some(a), Some(p)) if viewer == Some(p) || !G::INFO.hidden_info => {
                    g.table.state_before(index).explain(p, a)
                }
                _ => Value::Null,
            },
            "scores": step.state.scores().as_slice(),
            "view": step.state.view_json(viewer),
        })
    }

    fn snapshot_locked(g: &Inner<G>, id: &str, q: &ViewQuery) -> Result<Value, ApiError> {
        let viewer = Self::check_viewer(g, q.seat)?;
        let turn = g.table.state().turn();
        let to_move = match turn {
            Turn::Player(p) => Some(p),
            _ => None,
        };
        let waiting_for = match to_move {
            _ if g.failure.is_some() => None,
            Some(p) if g.seats[p.index()].ai.is_some() => Some(Waiting::Ai),
            Some(_) => Some(Waiting::Human),
            None => None,
        };
        let mut legal = Vec::new();
        if let (Some(v), Some(p)) = (viewer, to_move)
            && v == p
            && g.seats[p.index()].ai.is_none()
            && g.failure.is_none()
            && g.table.state().send_legal_actions()
        {
            let mut buf = Vec::new();
            g.table.state().legal_actions(&mut buf);
            legal = buf
                .iter()
                .map(|a| json!({ "action": a.to_string(), "json": g.table.state().action_json(a) }))
                .collect();
        }
        let seats: Vec<Value> = g
            .seats
            .iter()
            .map(|s| match &s.ai {
                None => json!({ "type": "human", "name": s.name }),
                Some((agent, budget)) => json!({
                    "type": "ai",
                    "name": s.name,
                    "agent": agent,
                    "budget": budget,
                }),
            })
            .collect();
        let steps: Vec<Value> = match q.since {
            Some(since) => (since.min(g.table.steps().len())..g.table.steps().len())
                .map(|i| Self::step_json(g, i, viewer))
                .collect(),
            None => Vec::new(),
        };
        let human_only = g.seats.iter().all(|s| s.ai.is_none());
        let viewer_human = viewer.is_some_and(|v| g.seats[v.index()].ai.is_none());
        let viewer_moved = viewer.is_some_and(|v| {
            g.table
                .steps()
                .iter()
                .any(|s| s.action.is_some() && s.player == Some(v))
        });
        let can_undo = if human_only {
            g.table.steps().iter().any(|s| s.action.is_some())
        } else {
            viewer_human && viewer_moved && waiting_for == Some(Waiting::Human)
        };
        Ok(json!({
            "id": id,
            "game": G::NAME,
            "title": G::INFO.title,
            "revision": g.revision(),
            "status": Self::status(g),
            "failure": g.failure,
            "seed": g.table.seed(),
            "seats": seats,
            "seat": viewer.map(|p| p.0),
            "turn": turn,
            "to_move": to_move.map(|p| p.0),
            "waiting_for": waiting_for,
            "scores": g.table.state().scores().as_slice(),
            "outcome": g.table.state().outcome(),
            "view": g.table.state().view_json(viewer),
            "legal": legal,
            "step_count": g.table.steps().len(),
            "steps": steps,
            "can_undo": can_undo,
            "can_hint": self_hint_ok(g, viewer, to_move) && waiting_for == Some(Waiting::Human),
            "assists": g.table.assists(),
            "record_available": !G::INFO.hidden_info || turn == Turn::Terminal,
        }))
    }
}

/// Whether `viewer` may ask for a hint now: a human seat to move.
fn self_hint_ok<G: Game>(
    g: &Inner<G>,
    viewer: Option<PlayerId>,
    to_move: Option<PlayerId>,
) -> bool {
    g.failure.is_none()
        && viewer.is_some()
        && viewer == to_move
        && viewer.is_some_and(|v| g.seats[v.index()].ai.is_none())
}

impl<G: WebGame> DynSession for Session<G> {
    fn game_name(&self) -> &'static str {
        G::NAME
    }

    fn snapshot(&self, q: &ViewQuery) -> Result<Value, ApiError> {
        let mut g = self.lock();
        g.last_touch = Instant::now();
        Self::snapshot_locked(&g, &self.id, q)
    }

    fn play(self: Arc<Self>, req: MoveRequest) -> Result<Value, ApiError> {
        let mut g = self.lock();
        g.last_touch = Instant::now();
        let n = g.seats.len();
        if req.seat as usize >= n {
            return Err(seat_err(req.seat, n));
        }
        if let Some(f) = &g.failure {
            return Err(ApiError::Conflict(format!("the game stopped: {f}")));
        }
        let p = PlayerId(req.seat);
        // The table decides whose turn it is and which seats are people's; its refusals
        // become HTTP answers here (409, and 422 for the rules').
        let refusal = |e: TableError, g: &Inner<G>| table_refusal(e, &g.seats, &req.action);
        g.table.may_play(p).map_err(|e| refusal(e, &g))?;
        let action: G::Action = req.action.trim().parse().map_err(|e| {
            ApiError::BadRequest(format!(
                "'{}' is not a {} move: {e}",
                req.action,
                G::INFO.title
            ))
        })?;
        let index = match g.table.play(p, action) {
            Ok(index) => index,
            Err(e) => return Err(refusal(e, &g)),
        };
        self.advance_locked(&mut g);
        Self::snapshot_locked(
            &g,
            &self.id,
            &ViewQuery {
                seat: Some(req.seat),
                since: Some(index),
                ..ViewQuery::default()
            },
        )
    }

    fn undo(self: Arc<Self>, req: UndoRequest) -> Result<Value, ApiError> {
        let mut g = self.lock();
        g.last_touch = Instant::now();
        let n = g.seats.len();
        if req.seat as usize >= n {
            return Err(seat_err(req.seat, n));
        }
        let p = PlayerId(req.seat);
        g.table.take_back(p).map_err(|e| match e {
            TableError::AgentAway(q) => ApiError::Conflict(format!(
                "seat {} ({}) is thinking: undo once it has moved",
                q.0,
                g.seats[q.index()].name
            )),
            other => ApiError::Conflict(other.to_string()),
        })?;
        g.failure = None;
        self.advance_locked(&mut g);
        Self::snapshot_locked(
            &g,
            &self.id,
            &ViewQuery {
                seat: Some(req.seat),
                ..ViewQuery::default()
            },
        )
    }

    fn check(&self, req: MoveRequest) -> Result<Value, ApiError> {
        let g = self.lock();
        let n = g.seats.len();
        if req.seat as usize >= n {
            return Err(seat_err(req.seat, n));
        }
        let p = PlayerId(req.seat);
        if g.seats[p.index()].ai.is_some() {
            return Err(ApiError::Conflict(format!(
                "seat {} is played by the AI",
                p.0
            )));
        }
        if g.table.state().turn() != Turn::Player(p) {
            return Err(ApiError::Conflict(format!("not seat {}'s turn", p.0)));
        }
        let action: G::Action = match req.action.trim().parse() {
            Ok(a) => a,
            Err(e) => return Ok(json!({ "legal": false, "reason": e.to_string() })),
        };
        let mut copy = g.table.state().clone();
        Ok(match copy.try_apply(action) {
            Ok(()) => json!({
                "legal": true,
                "reason": null,
                "explain": g.table.state().explain(p, &action),
            }),
            Err(e) => json!({ "legal": false, "reason": e.to_string() }),
        })
    }

    fn hint(&self, req: UndoRequest) -> Result<HintJob, ApiError> {
        let mut g = self.lock();
        g.last_touch = Instant::now();
        let n = g.seats.len();
        if req.seat as usize >= n {
            return Err(seat_err(req.seat, n));
        }
        let Some(spec) = &self.hint_spec else {
            return Err(ApiError::Conflict(format!(
                "{} offers no hints",
                G::INFO.title
            )));
        };
        if let Some(f) = &g.failure {
            return Err(ApiError::Conflict(format!("the game stopped: {f}")));
        }
        let p = PlayerId(req.seat);
        let (agent, budget) = (self.factory)(spec)
            .map_err(|e| ApiError::Internal(format!("the hint's player '{spec}': {e}")))?;
        let budget = budget
            .clamp(&Budget::time(Duration::from_millis(HINT_TIME_MS)))
            .clamp(&self.cap);
        let job = g.table.hint(p, agent, budget).map_err(|e| match e {
            TableError::NotHuman(_) => ApiError::Conflict(format!(
                "seat {} is played by the AI: hints are for people",
                p.0
            )),
            other => ApiError::Conflict(format!("no hint now: {other}")),
        })?;
        let before = g.table.state().clone();
        let spec = spec.clone();
        // The record now counts the hint.
        g.bumps += 1;
        self.rev_tx.send_replace(g.revision());
        Ok(Box::new(move || {
            lower_thread_priority();
            let done = job.run();
            let a = done.action();
            json!({
                "seat": p.0,
                "player": spec,
                "action": a.to_string(),
                "action_json": before.action_json(&a),
                "explain": before.explain(p, &a),
                "think_ms": done.elapsed().as_millis() as u64,
            })
        }))
    }

    fn record(&self) -> Result<Value, ApiError> {
        let g = self.lock();
        if G::INFO.hidden_info && g.table.state().turn() != Turn::Terminal {
            return Err(ApiError::Conflict(
                "the record shows every hidden tile drawn; it is available once the game is over"
                    .into(),
            ));
        }
        serde_json::to_value(g.table.record())
            .map_err(|e| ApiError::Internal(format!("record: {e}")))
    }

    fn subscribe(&self) -> watch::Receiver<u64> {
        self.rev_tx.subscribe()
    }

    fn summary(&self) -> Value {
        let g = self.lock();
        json!({
            "id": self.id,
            "game": G::NAME,
            "status": Self::status(&g),
            "seats": g.seats.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
            "scores": g.table.state().scores().as_slice(),
            "step_count": g.table.steps().len(),
        })
    }

    fn is_done(&self) -> bool {
        let g = self.lock();
        g.failure.is_some() || g.table.state().turn() == Turn::Terminal
    }

    fn last_touch(&self) -> Instant {
        self.lock().last_touch
    }
}

/// A game type the server hosts: builds its sessions and replays its records.
pub trait GameKind: Send + Sync {
    /// The game's name (its `INFO.name`).
    fn name(&self) -> &'static str;
    /// Whether the catalog lists it (a test game is hosted but not listed unless the
    /// operator asks).
    fn listed(&self) -> bool;
    /// Name, title, seat range, agents, levels and hints, for the browser's menus.
    fn info(&self) -> Value;
    /// Starts a game.
    fn create(
        &self,
        id: String,
        req: &NewGame,
        seed: u64,
        ai_pool: Arc<Semaphore>,
        cap: Budget,
    ) -> Result<Arc<dyn DynSession>, ApiError>;
    /// Replays a record: every step with the spectator view after it.
    fn replay(&self, record: Value) -> Result<Value, ApiError>;
}

/// [`GameKind`] for a [`WebGame`] with its agents.
pub struct Kind<G: WebGame> {
    factory: AgentFactory<G>,
    agents: Vec<AgentInfo>,
    levels: Vec<LevelInfo>,
    default_level: Option<u8>,
    hint_spec: Option<String>,
    listed: bool,
}

impl<G: WebGame> Kind<G> {
    /// A game type whose AI seats are built by `factory`; `agents` is what the menus offer.
    pub fn new(factory: AgentFactory<G>, agents: Vec<AgentInfo>) -> Self {
        Kind {
            factory,
            agents,
            levels: Vec::new(),
            default_level: None,
            hint_spec: None,
            listed: true,
        }
    }

    /// Whether the catalog lists the game (false: hosted, its records replay, but players
    /// are not offered it).
    pub fn listed(mut self, listed: bool) -> Self {
        self.listed = listed;
        self
    }

    /// The difficulty levels the setup offers (weakest first) and the default one.
    pub fn with_levels(mut self, levels: Vec<LevelInfo>, default_level: Option<u8>) -> Self {
        self.levels = levels;
        self.default_level = default_level;
        self
    }

    /// Offers hints from the player `spec` (the factory must build it).
    pub fn with_hints(mut self, spec: impl Into<String>) -> Self {
        self.hint_spec = Some(spec.into());
        self
    }
}

impl<G: WebGame> GameKind for Kind<G> {
    fn name(&self) -> &'static str {
        G::INFO.name
    }

    fn listed(&self) -> bool {
        self.listed
    }

    fn info(&self) -> Value {
        json!({
            "name": G::NAME,
            "title": G::INFO.title,
            "min_players": G::INFO.min_players,
            "max_players": G::INFO.max_players,
            "hidden_info": G::INFO.hidden_info,
            "agents": self.agents,
            "levels": self.levels,
            "default_level": self.default_level,
            "hints": self.hint_spec,
        })
    }

    fn create(
        &self,
        id: String,
        req: &NewGame,
        seed: u64,
        ai_pool: Arc<Semaphore>,
        cap: Budget,
    ) -> Result<Arc<dyn DynSession>, ApiError> {
        let s = Session::<G>::create(id, req, seed, self, ai_pool, cap)?;
        s.advance();
        Ok(s)
    }

    fn replay(&self, record: Value) -> Result<Value, ApiError> {
        let record: GameRecord<G::Chance> = serde_json::from_value(record).map_err(|e| {
            ApiError::BadRequest(format!("not a {} game record: {e}", G::INFO.title))
        })?;
        let states = replay_states::<G>(&record)
            .map_err(|e| ApiError::Illegal(format!("the record does not replay: {e}")))?;
        let mut steps = Vec::with_capacity(states.len());
        steps.push(json!({
            "index": 0, "type": "start", "player": null, "action": null, "action_json": null,
            "scores": states[0].scores().as_slice(), "view": states[0].view_json(None),
        }));
        for (i, ev) in record.events.iter().enumerate() {
            let before = &states[i];
            let after = &states[i + 1];
            let (kind, player, action, action_json, report) = match ev {
                Event::Action { player, action } => {
                    let (aj, rep) = action
                        .parse::<G::Action>()
                        .map(|a| (before.action_json(&a), before.step_report(&a)))
                        .unwrap_or((Value::Null, Value::Null));
                    (
                        "action",
                        Some(player.0),
                        Value::from(action.clone()),
                        aj,
                        rep,
                    )
                }
                Event::Chance { .. } => ("chance", None, Value::Null, Value::Null, Value::Null),
            };
            let explain = match ev {
                Event::Action { player, action } if !G::INFO.hidden_info => action
                    .parse::<G::Action>()
                    .map(|a| before.explain(*player, &a))
                    .unwrap_or(Value::Null),
                _ => Value::Null,
            };
            steps.push(json!({
                "index": i + 1, "type": kind, "player": player, "action": action,
                "action_json": action_json, "report": report, "scores": after.scores().as_slice(),
                "view": after.view_json(None), "explain": explain,
            }));
        }
        Ok(json!({
            "game": G::NAME,
            "title": G::INFO.title,
            "seed": record.seed,
            "seats": record.seats,
            "result": record.result,
            "assists": record.assists,
            "steps": steps,
        }))
    }
}

/// Every hosted game, by id.
pub struct Sessions {
    map: Mutex<HashMap<String, Arc<dyn DynSession>>>,
    counter: AtomicU64,
    master_seed: u64,
    max_sessions: usize,
    max_think: Duration,
    /// Limits how many AI players think at the same time.
    pub ai_pool: Arc<Semaphore>,
}

impl Sessions {
    /// An empty table. Game seeds and ids derive from `master_seed`; at most `max_sessions`
    /// games are kept (the least recently used finished game is dropped first) and at most
    /// `ai_threads` AI players think at once, each at most `max_think` a move.
    pub fn new(
        master_seed: u64,
        max_sessions: usize,
        ai_threads: usize,
        max_think: Duration,
    ) -> Self {
        Sessions {
            map: Mutex::new(HashMap::new()),
            counter: AtomicU64::new(0),
            master_seed,
            max_sessions: max_sessions.max(1),
            max_think,
            ai_pool: Arc::new(Semaphore::new(ai_threads.max(1))),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Arc<dyn DynSession>>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The operator's cap on every AI seat's budget (`--max-think`).
    pub fn cap(&self) -> Budget {
        budget_cap(self.max_think)
    }

    /// A fresh id and the seed a game gets when its request names none.
    pub fn next_id(&self) -> (String, u64) {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let seed = derive_seed(self.master_seed, n);
        let tag = derive_seed(self.master_seed ^ 0x5EED, n);
        (format!("{}-{:08x}", n + 1, tag as u32), seed)
    }

    /// Stores a game, dropping old ones beyond the limit. Fails when every stored game is
    /// still being played.
    pub fn insert(&self, id: String, s: Arc<dyn DynSession>) -> Result<(), ApiError> {
        let mut map = self.lock();
        while map.len() >= self.max_sessions {
            let oldest = map
                .iter()
                .filter(|(_, s)| s.is_done())
                .min_by_key(|(_, s)| s.last_touch())
                .or_else(|| {
                    // Nobody touched it for an hour: abandoned.
                    map.iter()
                        .filter(|(_, s)| s.last_touch().elapsed() > Duration::from_secs(3600))
                        .min_by_key(|(_, s)| s.last_touch())
                })
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => {
                    map.remove(&k);
                }
                None => {
                    return Err(ApiError::Unavailable(format!(
                        "the server holds {} games in progress, its limit; finish one first",
                        map.len()
                    )));
                }
            }
        }
        map.insert(id, s);
        Ok(())
    }

    /// The game with this id.
    pub fn get(&self, id: &str) -> Result<Arc<dyn DynSession>, ApiError> {
        self.lock()
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::NotFound(format!("no game with id '{id}'")))
    }

    /// Summaries of every stored game.
    pub fn list(&self) -> Vec<Value> {
        let all: Vec<Arc<dyn DynSession>> = self.lock().values().cloned().collect();
        all.iter().map(|s| s.summary()).collect()
    }
}
