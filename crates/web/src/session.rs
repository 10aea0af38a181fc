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
use serde_json::Value;
use tessera_arena::registry::RegistryError;
use tessera_core::clock::Clock;
use tessera_core::record::{Event, GameRecord, GameSeeds, flag_outcome, replay_states};
use tessera_core::rng::{derive_seed, rng_from_text, rng_text};
use tessera_core::table::{Next, Seat, Table, TableError, Thought};
use tessera_core::{Agent, Budget, Game, PlayerId, Turn};
use tokio::sync::{Semaphore, watch};

use crate::access::{Credentials, hash_token, new_token};
use crate::answers::{
    self, CatalogEntry, ClockView, GameSummary, HintAnswer, LegalAction, LobbyEntry, LobbySeat,
    MoveCheck, Replay, ReplayStep, SeatView, Snapshot, StepKind, StepView, Waiting,
};
use crate::error::{ApiError, table_refusal};
use crate::events::{self, StoredEvent, millis};
use crate::game::WebGame;
use crate::persist::WebDb;

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
    /// The player specification behind it, as records name the seat (the replay page shows
    /// such a seat by its level).
    #[serde(default)]
    pub spec: String,
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
    /// A person.
    Human {
        /// Shown on the board.
        #[serde(default)]
        name: Option<String>,
        /// A free seat for someone else: listed in the lobby (`GET /api/lobby`) until a
        /// person takes it (`POST /api/games/{id}/join`) or its invite link is used.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        open: bool,
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
    /// A clock for the whole game, every seat alike (`"5m+3s"`: base time and increment
    /// per move; see [`Clock`]); absent: no clock. A seat whose time runs out loses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// The client's id for this request (any text up to 100 characters): a repeated request
    /// with the same id from the same client within 10 minutes (a double click, a retry)
    /// answers the game the first one created instead of creating another.
    #[serde(default, skip_serializing)]
    pub request_id: Option<String>,
}

/// `POST /api/games/{id}/move`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The seat that moves, from 0.
    pub seat: u8,
    /// The action in the game's notation.
    pub action: String,
    /// The game's revision the move was chosen at (the snapshot's `revision`): a move made
    /// at another revision is refused with 409 and the current state, and the exact repeat
    /// of the last move played gets the same answer again (a retry plays nothing).
    #[serde(default)]
    pub expected_revision: Option<u64>,
}

/// `POST /api/games/{id}/undo` and `POST /api/games/{id}/hint`.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct UndoRequest {
    /// The seat asking (must be a human seat).
    pub seat: u8,
    /// As for a move: the revision the request was made at (undo only; a hint is
    /// idempotent by itself).
    #[serde(default)]
    pub expected_revision: Option<u64>,
}

/// A hint's thinking, to run off the async workers; gives the hint's JSON.
pub type HintJob = Box<dyn FnOnce() -> Value + Send>;

/// A hint asked for: its answer, shared by every repeat of the request while the game does
/// not change, and the thinking to do when this request is the first to ask.
pub struct HintTicket {
    /// The hint's answer, once computed.
    pub answer: Arc<tokio::sync::OnceCell<Value>>,
    /// The search to run (`None`: a repeat; wait for the first request's answer).
    pub job: Option<HintJob>,
}

/// `POST /api/games/{id}/join`.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The name shown on the board (1 to 40 characters).
    pub name: String,
    /// The free seat to take (absent: the first free one).
    #[serde(default)]
    pub seat: Option<u8>,
}

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

/// A hosted game, whatever its type. Every request that acts for a human seat carries the
/// seat's token in `creds`; without it the answer is 403 and nothing changes.
pub trait DynSession: Send + Sync {
    /// The game's short name.
    fn game_name(&self) -> &'static str;
    /// The game as `q.seat` sees it, with steps from `q.since`.
    fn snapshot(&self, q: &ViewQuery, creds: &Credentials) -> Result<Value, ApiError>;
    /// A human seat's move; on success the AI seats continue in the background.
    fn play(self: Arc<Self>, req: MoveRequest, creds: &Credentials) -> Result<Value, ApiError>;
    /// Takes back the last action (human-only games, with every player's token), or back to
    /// the asking human seat's previous turn (games with AI seats and one person).
    fn undo(self: Arc<Self>, req: UndoRequest, creds: &Credentials) -> Result<Value, ApiError>;
    /// Whether a human seat's move would be legal now, and why not (nothing is played).
    fn check(&self, req: MoveRequest, creds: &Credentials) -> Result<Value, ApiError>;
    /// A hint for the human seat to move: the strongest player's move on its view.
    fn hint(&self, req: UndoRequest, creds: &Credentials) -> Result<HintTicket, ApiError>;
    /// A person takes a free seat: its number and its new token.
    fn join(&self, req: &JoinRequest) -> Result<(u8, String), ApiError>;
    /// The game for the lobby, if it has free seats and is being played.
    fn lobby_entry(&self) -> Option<Value>;
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

/// How often a stored game (`--db`) under a clock stores the running time of the person to
/// move: the most a restart can give back.
pub const CLOCK_TICK: Duration = Duration::from_secs(3);

/// What the server shows of a seat.
struct SeatInfo {
    /// The name on the board.
    name: String,
    /// For an AI seat: its agent's name and its budget per move.
    ai: Option<(String, Budget)>,
    /// For a human seat: the SHA-256 of its token.
    token_hash: Option<String>,
    /// A free seat nobody has taken yet (listed in the lobby).
    free: bool,
}

struct Inner<G: Game> {
    table: Table<'static, G>,
    seats: Vec<SeatInfo>,
    failure: Option<String>,
    /// Changes the table does not count (a failure, a hint, a seat taken).
    bumps: u64,
    last_touch: Instant,
    /// Events stored in the database so far.
    events: u64,
    /// Whether the game's end is stored.
    end_stored: bool,
    /// The last move or undo request played and its answer (a repeat gets the answer again).
    last_request: Option<(String, Value)>,
    /// The hint of seat `.0` at revision `.1`.
    hint_cache: Option<(u8, u64, Arc<tokio::sync::OnceCell<Value>>)>,
    /// Under a clock: the AI seat thinking now and since when (its clock runs).
    ai_since: Option<(PlayerId, Instant)>,
    /// Under a clock: the table revision whose person to move has a flag timer armed.
    flag_timer: Option<u64>,
    /// Whether a fallen flag is stored.
    flag_logged: bool,
}

impl<G: Game> Inner<G> {
    fn revision(&self) -> u64 {
        self.table.revision() + self.bumps
    }

    /// Whether the game is over: played to its end or a flag fell.
    fn over(&self) -> bool {
        self.table.state().turn() == Turn::Terminal || self.table.flag().is_some()
    }

    /// Every seat's time left now under a clock (the seat to move's running time taken
    /// off), in milliseconds.
    fn time_left_ms(&self) -> Vec<u64> {
        (0..self.seats.len())
            .map(|i| {
                let p = PlayerId(i as u8);
                let mut left = self.table.time_left(p).unwrap_or_default();
                if let Some((q, since)) = self.ai_since
                    && q == p
                {
                    left = left.saturating_sub(since.elapsed());
                }
                millis(left)
            })
            .collect()
    }

    fn fail(&mut self, why: String) {
        self.failure = Some(why);
        self.bumps += 1;
    }

    fn human_seats(&self) -> usize {
        self.seats.iter().filter(|s| s.token_hash.is_some()).count()
    }

    /// Whether `creds` hold the token of every human seat (one person at the screen, or
    /// every player agreeing).
    fn holds_every_seat(&self, creds: &Credentials) -> bool {
        self.seats
            .iter()
            .filter_map(|s| s.token_hash.as_deref())
            .all(|h| creds.holds(h))
    }

    /// The human seats whose token `creds` hold.
    fn held_seats(&self, creds: &Credentials) -> Vec<u8> {
        (0..self.seats.len())
            .filter(|&i| {
                self.seats[i]
                    .token_hash
                    .as_deref()
                    .is_some_and(|h| creds.holds(h))
            })
            .map(|i| i as u8)
            .collect()
    }
}

/// One hosted game of type `G`: a [`Table`] behind a lock. AI seats' thinking leaves the
/// table as a job for the blocking pool and comes back with [`Table::hand_back`].
pub struct LiveGame<G: WebGame> {
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
    /// Where every event is stored (`--db`).
    db: Option<Arc<WebDb>>,
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

/// [`table_refusal`] naming the seats by `seats`' names.
fn refusal(e: TableError, seats: &[SeatInfo], action: &str) -> ApiError {
    table_refusal(e, |p| seats.get(p.index()).map(|s| s.name.clone()), action)
}

fn seat_err(seat: u8, n: usize) -> ApiError {
    ApiError::BadRequest(format!(
        "seat {seat} does not exist: this game has seats 0 to {}",
        n - 1
    ))
}

/// What every hosted game shares with the server.
#[derive(Clone)]
pub struct SessionEnv {
    /// Limits how many AI players think at the same time.
    pub ai_pool: Arc<Semaphore>,
    /// The operator's cap on every AI seat's and hint's budget.
    pub cap: Budget,
    /// Where games are stored as they are played (`--db`).
    pub db: Option<Arc<WebDb>>,
}

/// The most characters of a person's name.
const MAX_NAME: usize = 40;

/// A person's name as given (trimmed, at most 40 characters), or `None` when empty.
fn clean_name(name: &str) -> Option<String> {
    let t = name.trim();
    (!t.is_empty()).then(|| {
        t.chars()
            .filter(|c| !c.is_control())
            .take(MAX_NAME)
            .collect()
    })
}

impl<G: WebGame> LiveGame<G> {
    /// Sets up a new game of `kind` (its agents, levels and hints); human seat `i` is played
    /// with the token whose hash is `token_hashes[i]`. Errors name the bad seat, agent or
    /// option.
    pub fn create(
        id: String,
        req: &NewGame,
        seed: u64,
        kind: &Kind<G>,
        env: &SessionEnv,
        token_hashes: &[Option<String>],
    ) -> Result<Arc<Self>, ApiError> {
        let (factory, levels) = (&kind.factory, &kind.levels);
        let cap = env.cap;
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
                SeatSpec::Human { name, open } => {
                    let name: String = name
                        .as_deref()
                        .and_then(clean_name)
                        .unwrap_or_else(|| format!("Player {}", i + 1));
                    let token_hash = token_hashes.get(i).cloned().flatten().ok_or_else(|| {
                        ApiError::Internal(format!("human seat {i} has no token"))
                    })?;
                    seats.push(Seat::human(format!("human:{name}")));
                    infos.push(SeatInfo {
                        name,
                        ai: None,
                        token_hash: Some(token_hash),
                        free: *open,
                    });
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
                        token_hash: None,
                        free: false,
                    });
                }
            }
        }
        let mut table = Table::new(initial, seats, seed)
            .map_err(|e| ApiError::Internal(format!("table: {e}")))?;
        if let Some(clock) = req.clock {
            // The time manager shares each AI seat's clock over its moves; the operator's
            // cap still bounds every move.
            table = table.with_clock(clock);
            if let Some(max) = cap.time {
                table = table.with_max_think(max);
            }
        }
        let (rev_tx, _) = watch::channel(0);
        let session = Arc::new(LiveGame {
            id,
            inner: Mutex::new(Inner {
                table,
                seats: infos,
                failure: None,
                bumps: 0,
                last_touch: Instant::now(),
                events: 0,
                end_stored: false,
                last_request: None,
                hint_cache: None,
                ai_since: None,
                flag_timer: None,
                flag_logged: false,
            }),
            rev_tx,
            ai_pool: Arc::clone(&env.ai_pool),
            factory: Arc::clone(factory),
            hint_spec: kind.hint_spec.clone(),
            cap,
            db: env.db.clone(),
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
                        if g.table.clock().is_some() {
                            g.ai_since = Some((p, Instant::now()));
                        }
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
                Ok(Next::Human(p)) => self.arm_flag_timer(g, p),
                Ok(Next::Thinking(_) | Next::Over) => {}
            }
        }
        self.store_end(g);
        self.rev_tx.send_replace(g.revision());
    }

    /// Stores event `event` (`--db`) before the request that caused it is answered; when
    /// the database refuses it the game stops (a restarted server continues from the last
    /// stored event) and the request gets 503.
    fn log(&self, g: &mut Inner<G>, event: events::Event) -> Result<(), ApiError> {
        let Some(db) = &self.db else {
            return Ok(());
        };
        // Under a clock every event keeps each seat's time left and used after it, so a
        // restarted server gives nobody time back that they had spent before the event.
        let event = StoredEvent::new(event).with_clock(g.table.clock_times());
        match db.append(&self.id, g.events, &event) {
            Ok(()) => {
                g.events += 1;
                Ok(())
            }
            Err(e) => {
                g.fail(e.to_string());
                self.rev_tx.send_replace(g.revision());
                Err(e)
            }
        }
    }

    /// Under a clock, while person `p` is to move: a timer that ends the game when their time
    /// runs out, without waiting for any request, and (`--db`) stores the time their turn
    /// has taken so far every [`CLOCK_TICK`], so a restart gives back at most that much (one
    /// timer per table revision; it stops when the table moves on).
    fn arm_flag_timer(self: &Arc<Self>, g: &mut Inner<G>, p: PlayerId) {
        let Some(left) = g.table.time_left(p) else {
            return;
        };
        let revision = g.table.revision();
        if g.flag_timer == Some(revision) {
            return;
        }
        g.flag_timer = Some(revision);
        let this = Arc::clone(self);
        tokio::spawn(async move {
            let mut wait = left;
            loop {
                tokio::time::sleep(wait.min(CLOCK_TICK) + Duration::from_millis(2)).await;
                let mut g = this.lock();
                if g.table.revision() != revision || g.failure.is_some() {
                    return;
                }
                this.check_clock(&mut g);
                let (Some(now), Some((stored, _))) = (g.table.time_left(p), g.table.clock_times())
                else {
                    return;
                };
                if g.flag_logged {
                    return;
                }
                let elapsed = stored[p.index()].saturating_sub(now);
                if this.db.is_some() {
                    // A failure to store it stops the game (see `log`).
                    let _ = this.log(
                        &mut g,
                        events::Event::Tick {
                            seat: p.0,
                            elapsed_ms: millis(elapsed),
                        },
                    );
                }
                wait = now;
            }
        });
    }

    /// Ends the game if the person to move has run out of time (a timer's and every
    /// request's check).
    fn check_clock(&self, g: &mut Inner<G>) {
        if g.table.clock().is_none() || g.flag_logged || g.failure.is_some() {
            return;
        }
        let before = g.table.clock_times();
        if g.table.check_flag().is_some() {
            self.flag_fell(g, before);
        }
    }

    /// Stores a flag that has just fallen (its time used: the difference from `before`,
    /// the clocks before the move) and the end of the game.
    fn flag_fell(&self, g: &mut Inner<G>, before: Option<(Vec<Duration>, Vec<Duration>)>) {
        let Some(p) = g.table.flag() else {
            return;
        };
        if g.flag_logged {
            return;
        }
        g.flag_logged = true;
        g.ai_since = None;
        let think = match (g.table.clock_times(), before) {
            (Some((_, after)), Some((_, before))) => after[p.index()]
                .checked_sub(before[p.index()])
                .unwrap_or_default(),
            _ => Duration::ZERO,
        };
        // A failure to store it stops the game (see `log`).
        let _ = self.log(
            g,
            events::Event::Flag {
                seat: p.0,
                think_ms: millis(think),
            },
        );
        self.store_end(g);
        self.rev_tx.send_replace(g.revision());
    }

    /// Stores the record of a game that has just ended (`--db`).
    fn store_end(&self, g: &mut Inner<G>) {
        let Some(db) = &self.db else {
            return;
        };
        let status = Self::status(g);
        if g.end_stored || status == "playing" {
            return;
        }
        let record = serde_json::to_value(g.table.record()).unwrap_or(Value::Null);
        if db.finish(&self.id, status, &record).is_ok() {
            g.end_stored = true;
        }
    }

    /// Checks that `creds` may act for seat `seat` (a human seat: its token; an AI seat:
    /// anyone, the table refuses it later). A free seat whose token is used is taken.
    fn authorize(
        &self,
        g: &mut Inner<G>,
        seat: u8,
        creds: &Credentials,
    ) -> Result<PlayerId, ApiError> {
        let n = g.seats.len();
        let info = g
            .seats
            .get(seat as usize)
            .ok_or_else(|| seat_err(seat, n))?;
        match &info.token_hash {
            None => Ok(PlayerId(seat)),
            Some(h) if creds.holds(h) => {
                if info.free {
                    self.log(g, events::Event::Claim { seat })?;
                    g.seats[seat as usize].free = false;
                    g.bumps += 1;
                    self.rev_tx.send_replace(g.revision());
                }
                Ok(PlayerId(seat))
            }
            Some(_) => Err(ApiError::Forbidden(format!(
                "seat {seat} ({}) is not yours: this request does not carry the seat's token \
                 (send 'Authorization: Bearer TOKEN' with the token of the game's invite link)",
                info.name
            ))),
        }
    }

    fn finish_ai(
        self: &Arc<Self>,
        p: PlayerId,
        result: Result<Thought<'static, G>, tokio::task::JoinError>,
    ) {
        let mut g = self.lock();
        let before = g.table.clock_times();
        if g.ai_since.is_some_and(|(q, _)| q == p) {
            g.ai_since = None;
        }
        match result {
            Ok(done) => match g.table.hand_back(done) {
                Ok(true) if g.table.flag() == Some(p) => self.flag_fell(&mut g, before),
                Ok(true) => {
                    let action = match g.table.steps().last().map(|s| &s.event) {
                        Some(Event::Action { action, .. }) => action.clone(),
                        _ => String::new(),
                    };
                    // With the generator as the agent left it: after a restart the seat
                    // decides on from the same point as the game never interrupted.
                    let rng = g.table.agent_rng(p).map(rng_text);
                    // A failure to store it stops the game (see `log`).
                    let _ = self.log(
                        &mut g,
                        events::Event::Ai {
                            seat: p.0,
                            action,
                            rng,
                        },
                    );
                }
                Ok(false) => {}
                Err(e) => {
                    let why = match e {
                        TableError::IllegalMove(m) => format!(
                            "AI seat {} ({}) chose the illegal action {}: {}",
                            p.0, m.agent, m.action, m.detail
                        ),
                        other => other.to_string(),
                    };
                    g.fail(why);
                }
            },
            Err(e) => g.fail(format!("AI seat {} crashed while thinking: {e}", p.0)),
        }
        self.advance_locked(&mut g);
    }

    fn status(g: &Inner<G>) -> &'static str {
        if g.failure.is_some() {
            "failed"
        } else if g.over() {
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
                if seat_info.ai.is_some() && G::INFO.hidden_info && !g.over() {
                    return Err(ApiError::Forbidden(format!(
                        "seat {s} is an AI seat: what it sees is private; ask without a seat \
                         for the spectator view"
                    )));
                }
                Ok(Some(PlayerId(s)))
            }
        }
    }

    fn step_view(g: &Inner<G>, index: usize, viewer: Option<PlayerId>) -> StepView {
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
                    StepKind::Action,
                    Some(text),
                    before.action_json(a),
                    before.step_report(a),
                )
            }
            _ => (StepKind::Chance, None, Value::Null, Value::Null),
        };
        StepView {
            index,
            kind,
            player: step.player.map(|p| p.0),
            action,
            action_json,
            think_ms: step.think.map(|d| d.as_millis() as u64),
            report,
            explain: match (&step.action, step.player) {
                (Some(a), Some(p)) if viewer == Some(p) || !G::INFO.hidden_info => {
                    g.table.state_before(index).explain(p, a)
                }
                _ => Value::Null,
            },
            scores: step.state.scores().as_slice().to_vec(),
            view: step.state.view_json(viewer),
        }
    }

    fn snapshot_locked(
        g: &Inner<G>,
        id: &str,
        q: &ViewQuery,
        creds: &Credentials,
    ) -> Result<Value, ApiError> {
        let viewer = Self::check_viewer(g, q.seat)?;
        Ok(answers::to_value(&Self::snapshot_of(
            g, id, viewer, q, creds,
        )))
    }

    /// The game as `viewer` may see it.
    fn snapshot_of<'a>(
        g: &'a Inner<G>,
        id: &'a str,
        viewer: Option<PlayerId>,
        q: &ViewQuery,
        creds: &Credentials,
    ) -> Snapshot<'a> {
        let flag = g.table.flag();
        // A fallen flag ends the game where it stands.
        let turn = match flag {
            Some(_) => Turn::Terminal,
            None => g.table.state().turn(),
        };
        let to_move = match turn {
            Turn::Player(p) => Some(p),
            _ => None,
        };
        let outcome = match flag {
            Some(p) => Some(flag_outcome(g.table.state(), p)),
            None => g.table.state().outcome(),
        };
        let clock = g.table.clock().map(|c| ClockView {
            control: c.to_string(),
            base_ms: millis(c.base),
            increment_ms: millis(c.increment),
            left_ms: g.time_left_ms(),
            running: to_move.filter(|_| g.failure.is_none()).map(|p| p.0),
            flag: flag.map(|p| p.0),
        });
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
                .map(|a| LegalAction {
                    action: a.to_string(),
                    json: g.table.state().action_json(a),
                })
                .collect();
        }
        let seats: Vec<SeatView> = g
            .seats
            .iter()
            .map(|s| match &s.ai {
                None => SeatView::Human {
                    name: &s.name,
                    free: s.free,
                },
                Some((agent, budget)) => SeatView::Ai {
                    name: &s.name,
                    agent,
                    budget,
                },
            })
            .collect();
        let steps: Vec<StepView> = match q.since {
            Some(since) => (since.min(g.table.steps().len())..g.table.steps().len())
                .map(|i| Self::step_view(g, i, viewer))
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
        // Between people, undo needs every player's agreement: only a request holding every
        // human seat's token (one person playing every human seat) may take a move back.
        let agreed = g.human_seats() <= 1 || g.holds_every_seat(creds);
        let can_undo = agreed
            && if human_only {
                g.table.steps().iter().any(|s| s.action.is_some())
            } else {
                viewer_human && viewer_moved && waiting_for == Some(Waiting::Human)
            };
        Snapshot {
            id,
            game: G::NAME,
            title: G::INFO.title,
            revision: g.revision(),
            status: Self::status(g),
            failure: g.failure.as_deref(),
            seed: g.table.seed(),
            seats,
            seat: viewer.map(|p| p.0),
            turn,
            to_move: to_move.map(|p| p.0),
            waiting_for,
            scores: g.table.state().scores().as_slice().to_vec(),
            outcome,
            view: g.table.state().view_json(viewer),
            legal,
            step_count: g.table.steps().len(),
            steps,
            can_undo,
            my_seats: g.held_seats(creds),
            can_hint: self_hint_ok(g, viewer, to_move) && waiting_for == Some(Waiting::Human),
            assists: g.table.assists(),
            record_available: !G::INFO.hidden_info || g.over(),
            clock,
        }
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

/// What identifies a move or undo request for its repeat (`expected_revision` included).
fn request_key(kind: &str, seat: u8, revision: Option<u64>, action: &str) -> String {
    format!("{kind}|{seat}|{revision:?}|{}", action.trim())
}

impl<G: WebGame> LiveGame<G> {
    /// The 409 of a request made at revision `asked`: with the current state as `seat` sees
    /// it.
    fn stale(g: &Inner<G>, id: &str, seat: u8, creds: &Credentials, asked: u64) -> ApiError {
        let current = Self::snapshot_locked(
            g,
            id,
            &ViewQuery {
                seat: Some(seat),
                ..ViewQuery::default()
            },
            creds,
        )
        .unwrap_or(Value::Null);
        ApiError::Stale {
            message: format!(
                "the game changed since you chose (your revision {asked}, now {}): nothing was \
                 played; here is the current state",
                g.revision()
            ),
            current: Box::new(current),
        }
    }

    /// For a request carrying `expected_revision`: the answer of its exact repeat, or the 409
    /// of a stale one; `None` when the request is to be played.
    fn repeat_or_stale(
        g: &Inner<G>,
        id: &str,
        key: &str,
        seat: u8,
        expected: Option<u64>,
        creds: &Credentials,
    ) -> Option<Result<Value, ApiError>> {
        let asked = expected?;
        if let Some((k, answer)) = &g.last_request
            && k == key
        {
            return Some(Ok(answer.clone()));
        }
        (asked != g.revision()).then(|| Err(Self::stale(g, id, seat, creds, asked)))
    }
}

impl<G: WebGame> DynSession for LiveGame<G> {
    fn game_name(&self) -> &'static str {
        G::NAME
    }

    fn snapshot(&self, q: &ViewQuery, creds: &Credentials) -> Result<Value, ApiError> {
        let mut g = self.lock();
        g.last_touch = Instant::now();
        self.check_clock(&mut g);
        if let Some(s) = q.seat
            && g.seats
                .get(s as usize)
                .is_some_and(|i| i.token_hash.is_some())
        {
            self.authorize(&mut g, s, creds)?;
        }
        Self::snapshot_locked(&g, &self.id, q, creds)
    }

    fn play(self: Arc<Self>, req: MoveRequest, creds: &Credentials) -> Result<Value, ApiError> {
        let mut g = self.lock();
        g.last_touch = Instant::now();
        self.check_clock(&mut g);
        let p = self.authorize(&mut g, req.seat, creds)?;
        let key = request_key("move", req.seat, req.expected_revision, &req.action);
        if let Some(done) =
            Self::repeat_or_stale(&g, &self.id, &key, req.seat, req.expected_revision, creds)
        {
            return done;
        }
        if let Some(f) = &g.failure {
            return Err(ApiError::Conflict(format!("the game stopped: {f}")));
        }
        // The table decides whose turn it is and which seats are people's; its refusals
        // become HTTP answers here (409, and 422 for the rules').
        g.table
            .may_play(p)
            .map_err(|e| refusal(e, &g.seats, &req.action))?;
        let action: G::Action = req.action.trim().parse().map_err(|e| {
            ApiError::BadRequest(format!(
                "'{}' is not a {} move: {e}",
                req.action,
                G::INFO.title
            ))
        })?;
        let before = g.table.clock_times();
        let index = match g.table.play(p, action) {
            Ok(index) => index,
            Err(e) => {
                if let TableError::Flag(_) = e {
                    self.flag_fell(&mut g, before);
                }
                return Err(refusal(e, &g.seats, &req.action));
            }
        };
        self.log(
            &mut g,
            events::Event::Move {
                seat: req.seat,
                action: action.to_string(),
            },
        )?;
        self.advance_locked(&mut g);
        let answer = Self::snapshot_locked(
            &g,
            &self.id,
            &ViewQuery {
                seat: Some(req.seat),
                since: Some(index),
                ..ViewQuery::default()
            },
            creds,
        )?;
        g.last_request = Some((key, answer.clone()));
        Ok(answer)
    }

    fn undo(self: Arc<Self>, req: UndoRequest, creds: &Credentials) -> Result<Value, ApiError> {
        let mut g = self.lock();
        g.last_touch = Instant::now();
        let p = self.authorize(&mut g, req.seat, creds)?;
        let key = request_key("undo", req.seat, req.expected_revision, "");
        if let Some(done) =
            Self::repeat_or_stale(&g, &self.id, &key, req.seat, req.expected_revision, creds)
        {
            return done;
        }
        if g.human_seats() > 1 && !g.holds_every_seat(creds) {
            return Err(ApiError::Conflict(
                "no undo between people: taking a move back needs every player's agreement, \
                 so it is only offered when one person plays every human seat"
                    .into(),
            ));
        }
        g.table.take_back(p).map_err(|e| refusal(e, &g.seats, ""))?;
        self.log(&mut g, events::Event::Undo { seat: req.seat })?;
        g.failure = None;
        self.advance_locked(&mut g);
        let answer = Self::snapshot_locked(
            &g,
            &self.id,
            &ViewQuery {
                seat: Some(req.seat),
                ..ViewQuery::default()
            },
            creds,
        )?;
        g.last_request = Some((key, answer.clone()));
        Ok(answer)
    }

    fn check(&self, req: MoveRequest, creds: &Credentials) -> Result<Value, ApiError> {
        let mut g = self.lock();
        let p = self.authorize(&mut g, req.seat, creds)?;
        // The table says whose turn it is and which seats are people's.
        g.table
            .may_play(p)
            .map_err(|e| refusal(e, &g.seats, &req.action))?;
        let action: G::Action = match req.action.trim().parse() {
            Ok(a) => a,
            Err(e) => {
                return Ok(answers::to_value(&MoveCheck {
                    legal: false,
                    reason: Some(e.to_string()),
                    explain: None,
                }));
            }
        };
        let mut copy = g.table.state().clone();
        Ok(answers::to_value(&match copy.try_apply(action) {
            Ok(()) => MoveCheck {
                legal: true,
                reason: None,
                explain: Some(g.table.state().explain(p, &action)),
            },
            Err(e) => MoveCheck {
                legal: false,
                reason: Some(e.to_string()),
                explain: None,
            },
        }))
    }

    fn hint(&self, req: UndoRequest, creds: &Credentials) -> Result<HintTicket, ApiError> {
        let mut g = self.lock();
        g.last_touch = Instant::now();
        let p = self.authorize(&mut g, req.seat, creds)?;
        let Some(spec) = &self.hint_spec else {
            return Err(ApiError::Conflict(format!(
                "{} offers no hints",
                G::INFO.title
            )));
        };
        if let Some(f) = &g.failure {
            return Err(ApiError::Conflict(format!("the game stopped: {f}")));
        }
        // The same question while nothing changed: the same answer, counted once.
        if let Some((seat, rev, cell)) = &g.hint_cache
            && *seat == req.seat
            && *rev == g.revision()
        {
            return Ok(HintTicket {
                answer: Arc::clone(cell),
                job: None,
            });
        }
        let (agent, budget) = (self.factory)(spec)
            .map_err(|e| ApiError::Internal(format!("the hint's player '{spec}': {e}")))?;
        let budget = budget
            .clamp(&Budget::time(Duration::from_millis(HINT_TIME_MS)))
            .clamp(&self.cap);
        let job = g
            .table
            .hint(p, agent, budget)
            .map_err(|e| refusal(e, &g.seats, ""))?;
        self.log(&mut g, events::Event::Hint { seat: req.seat })?;
        let before = g.table.state().clone();
        let spec = spec.clone();
        // The record now counts the hint.
        g.bumps += 1;
        let revision = g.revision();
        let cell = Arc::new(tokio::sync::OnceCell::new());
        g.hint_cache = Some((req.seat, revision, Arc::clone(&cell)));
        self.rev_tx.send_replace(revision);
        Ok(HintTicket {
            answer: cell,
            job: Some(Box::new(move || {
                lower_thread_priority();
                let done = job.run();
                let a = done.action();
                answers::to_value(&HintAnswer {
                    seat: p.0,
                    player: spec,
                    action: a.to_string(),
                    action_json: before.action_json(&a),
                    explain: before.explain(p, &a),
                    think_ms: done.elapsed().as_millis() as u64,
                    revision,
                })
            })),
        })
    }

    fn join(&self, req: &JoinRequest) -> Result<(u8, String), ApiError> {
        let name = clean_name(&req.name).ok_or_else(|| {
            ApiError::BadRequest(
                "join: expected {\"name\": \"your name\"} (1 to 40 characters)".into(),
            )
        })?;
        let mut g = self.lock();
        g.last_touch = Instant::now();
        if Self::status(&g) != "playing" {
            return Err(ApiError::Conflict(
                "the game is over: no seat to take".into(),
            ));
        }
        let n = g.seats.len();
        let seat = match req.seat {
            Some(s) => {
                let info = g.seats.get(s as usize).ok_or_else(|| seat_err(s, n))?;
                if !info.free {
                    return Err(ApiError::Conflict(format!(
                        "seat {s} ({}) is not free",
                        info.name
                    )));
                }
                s
            }
            None => g
                .seats
                .iter()
                .position(|s| s.free)
                .map(|i| i as u8)
                .ok_or_else(|| ApiError::Conflict("this game has no free seat left".into()))?,
        };
        let token = new_token()?;
        let hash = hash_token(&token);
        self.log(
            &mut g,
            events::Event::Join {
                seat,
                name: name.clone(),
                token_hash: hash.clone(),
            },
        )?;
        Self::seat_taken(&mut g, seat, name, hash);
        self.rev_tx.send_replace(g.revision());
        Ok((seat, token))
    }

    fn lobby_entry(&self) -> Option<Value> {
        let g = self.lock();
        let free: Vec<u8> = (0..g.seats.len())
            .filter(|&i| g.seats[i].free)
            .map(|i| i as u8)
            .collect();
        if free.is_empty() || Self::status(&g) != "playing" {
            return None;
        }
        Some(answers::to_value(&LobbyEntry {
            id: &self.id,
            game: G::NAME,
            title: G::INFO.title,
            seats: g
                .seats
                .iter()
                .map(|s| LobbySeat {
                    name: &s.name,
                    kind: if s.ai.is_some() { "ai" } else { "human" },
                    free: s.free,
                })
                .collect(),
            free_seats: free,
            step_count: g.table.steps().len(),
        }))
    }

    fn record(&self) -> Result<Value, ApiError> {
        let g = self.lock();
        if G::INFO.hidden_info && !g.over() {
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
        answers::to_value(&GameSummary {
            id: &self.id,
            game: G::NAME,
            status: Self::status(&g),
            seats: g.seats.iter().map(|s| s.name.as_str()).collect(),
            scores: g.table.state().scores().as_slice().to_vec(),
            step_count: g.table.steps().len(),
        })
    }

    fn is_done(&self) -> bool {
        let g = self.lock();
        g.failure.is_some() || g.over()
    }

    fn last_touch(&self) -> Instant {
        self.lock().last_touch
    }
}

impl<G: WebGame> LiveGame<G> {
    /// A person takes free seat `seat`.
    fn seat_taken(g: &mut Inner<G>, seat: u8, name: String, hash: String) {
        g.table.set_label(PlayerId(seat), format!("human:{name}"));
        let info = &mut g.seats[seat as usize];
        info.name = name;
        info.token_hash = Some(hash);
        info.free = false;
        g.bumps += 1;
    }

    /// Replays the stored events of a game (`--db`) onto its fresh table: people's and AI
    /// seats' moves, undos, hints and seats taken, each after the chance events due.
    fn replay_events(&self, events: &[StoredEvent]) -> Result<(), ApiError> {
        use events::Event as E;
        let mut g = self.lock();
        for (n, ev) in events.iter().enumerate() {
            let bad = |why: String| {
                ApiError::Internal(format!(
                    "stored event {n} of game {} ({ev}) does not replay: {why}",
                    self.id
                ))
            };
            g.table.advance().map_err(|e| bad(e.to_string()))?;
            let seat = ev.event.seat();
            if seat as usize >= g.seats.len() {
                return Err(bad(format!(
                    "no seat {seat} (the game has {})",
                    g.seats.len()
                )));
            }
            let p = PlayerId(seat);
            let parse = |text: &str| -> Result<G::Action, ApiError> {
                text.parse()
                    .map_err(|e: <G::Action as std::str::FromStr>::Err| bad(e.to_string()))
            };
            match &ev.event {
                E::Move { action, .. } => {
                    let a = parse(action)?;
                    g.table.play(p, a).map_err(|e| bad(e.to_string()))?;
                }
                E::Ai { action, rng, .. } => {
                    let a = parse(action)?;
                    // (Games stored before the generator was kept have none.)
                    let rng = match rng {
                        Some(text) => Some(rng_from_text(text).map_err(|e| bad(e.to_string()))?),
                        None => None,
                    };
                    g.table
                        .replay_agent_action(p, a, rng)
                        .map_err(|e| bad(e.to_string()))?;
                }
                E::Undo { .. } => g.table.take_back(p).map_err(|e| bad(e.to_string()))?,
                E::Hint { .. } => {
                    let spec = self
                        .hint_spec
                        .as_deref()
                        .ok_or_else(|| bad("no hints".into()))?;
                    let (agent, budget) = (self.factory)(spec).map_err(|e| bad(e.to_string()))?;
                    g.table
                        .hint(p, agent, budget)
                        .map_err(|e| bad(e.to_string()))?;
                    g.bumps += 1;
                }
                E::Flag { think_ms, .. } => {
                    g.table
                        .replay_flag(p, Duration::from_millis(*think_ms))
                        .map_err(|e| bad(e.to_string()))?;
                    g.flag_logged = true;
                }
                // The time so far of a person's turn; its figures follow below.
                E::Tick { .. } => {}
                E::Claim { .. } => g.seats[seat as usize].free = false,
                E::Join {
                    name, token_hash, ..
                } => Self::seat_taken(&mut g, seat, name.clone(), token_hash.clone()),
            }
            // Under a clock the stored times replace the replay's: each seat's clock is as
            // it was at the event, the time since charged to nobody.
            if let Some((mut left, mut used)) = ev.clock() {
                // A person's turn under way: the time it had taken is charged.
                if let E::Tick { elapsed_ms, .. } = ev.event
                    && let (Some(l), Some(u)) = (left.get_mut(p.index()), used.get_mut(p.index()))
                {
                    let charged = Duration::from_millis(elapsed_ms).min(*l);
                    *l -= charged;
                    *u += charged;
                }
                g.table.set_clock_times(&left, &used);
            }
        }
        g.events = events.len() as u64;
        Ok(())
    }
}

/// A new game and the token of each human seat, `(seat, token)`.
pub type Created = (Arc<dyn DynSession>, Vec<(u8, String)>);

/// Restores one stored game: (game name, id, setup, events, environment).
pub type RestoreFn<'a> = dyn Fn(
        &str,
        String,
        &StoredSetup,
        &[StoredEvent],
        &SessionEnv,
    ) -> Result<Arc<dyn DynSession>, ApiError>
    + 'a;

/// A game as stored when it is created (`--db`): the request, the seed, the seats' token
/// hashes and the client that created it.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct StoredSetup {
    /// The new-game request.
    pub request: NewGame,
    /// The game's seed.
    pub seed: u64,
    /// The SHA-256 of each human seat's token (`None` for AI seats).
    pub token_hashes: Vec<Option<String>>,
    /// The client (its address) that created the game.
    #[serde(default)]
    pub client: String,
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
    /// Starts a game (stored first when the server keeps games in a database): the game and
    /// the token of each human seat, `(seat, token)`.
    fn create(
        &self,
        id: String,
        req: &NewGame,
        seed: u64,
        env: &SessionEnv,
        client: &str,
    ) -> Result<Created, ApiError>;
    /// A stored game, replayed to its last stored event; AI seats to move start thinking.
    fn restore(
        &self,
        id: String,
        setup: &StoredSetup,
        events: &[StoredEvent],
        env: &SessionEnv,
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
        answers::to_value(&CatalogEntry {
            name: G::NAME,
            title: G::INFO.title,
            min_players: G::INFO.min_players,
            max_players: G::INFO.max_players,
            hidden_info: G::INFO.hidden_info,
            agents: &self.agents,
            levels: &self.levels,
            default_level: self.default_level,
            hints: self.hint_spec.as_deref(),
        })
    }

    fn create(
        &self,
        id: String,
        req: &NewGame,
        seed: u64,
        env: &SessionEnv,
        client: &str,
    ) -> Result<Created, ApiError> {
        let mut tokens = Vec::new();
        let mut hashes = Vec::with_capacity(req.seats.len());
        for (i, spec) in req.seats.iter().enumerate() {
            if matches!(spec, SeatSpec::Human { .. }) {
                let token = new_token()?;
                hashes.push(Some(hash_token(&token)));
                tokens.push((i as u8, token));
            } else {
                hashes.push(None);
            }
        }
        let s = LiveGame::<G>::create(id.clone(), req, seed, self, env, &hashes)?;
        if let Some(db) = &env.db {
            let setup = StoredSetup {
                request: req.clone(),
                seed,
                token_hashes: hashes,
                client: client.to_string(),
            };
            let setup = serde_json::to_value(&setup)
                .map_err(|e| ApiError::Internal(format!("the game's setup: {e}")))?;
            db.create(&id, G::NAME, &setup)?;
        }
        s.advance();
        Ok((s, tokens))
    }

    fn restore(
        &self,
        id: String,
        setup: &StoredSetup,
        events: &[StoredEvent],
        env: &SessionEnv,
    ) -> Result<Arc<dyn DynSession>, ApiError> {
        let s = LiveGame::<G>::create(
            id,
            &setup.request,
            setup.seed,
            self,
            env,
            &setup.token_hashes,
        )?;
        s.replay_events(events)?;
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
        steps.push(ReplayStep {
            index: 0,
            kind: "start",
            player: None,
            action: None,
            action_json: Value::Null,
            report: None,
            scores: states[0].scores().as_slice().to_vec(),
            view: states[0].view_json(None),
            explain: None,
        });
        for (i, ev) in record.events.iter().enumerate() {
            let before = &states[i];
            let after = &states[i + 1];
            let (kind, player, action, action_json, report) = match ev {
                Event::Action { player, action } => {
                    let (aj, rep) = action
                        .parse::<G::Action>()
                        .map(|a| (before.action_json(&a), before.step_report(&a)))
                        .unwrap_or((Value::Null, Value::Null));
                    ("action", Some(player.0), Some(action.clone()), aj, rep)
                }
                Event::Chance { .. } => ("chance", None, None, Value::Null, Value::Null),
            };
            let explain = match ev {
                Event::Action { player, action } if !G::INFO.hidden_info => action
                    .parse::<G::Action>()
                    .map(|a| before.explain(*player, &a))
                    .unwrap_or(Value::Null),
                _ => Value::Null,
            };
            steps.push(ReplayStep {
                index: i + 1,
                kind,
                player,
                action,
                action_json,
                report: Some(report),
                scores: after.scores().as_slice().to_vec(),
                view: after.view_json(None),
                explain: Some(explain),
            });
        }
        Ok(answers::to_value(&Replay {
            game: G::NAME,
            title: G::INFO.title,
            seed: record.seed,
            seats: &record.seats,
            result: record.result.as_ref(),
            assists: &record.assists,
            steps,
        }))
    }
}

/// How long a Start's request id is remembered.
pub const REQUEST_ID_TTL: Duration = Duration::from_secs(600);

/// The server's limits on games.
#[derive(Clone, Copy, Debug)]
pub struct GameLimits {
    /// Most games kept in memory (finished ones are dropped first).
    pub max_sessions: usize,
    /// Most unfinished games at once (503 beyond).
    pub max_unfinished: usize,
    /// Most unfinished games one client (address) may have created (429 beyond).
    pub max_per_client: usize,
}

impl Default for GameLimits {
    fn default() -> Self {
        GameLimits {
            max_sessions: 1000,
            max_unfinished: 1000,
            max_per_client: 1000,
        }
    }
}

struct Entry {
    session: Arc<dyn DynSession>,
    /// The client that created it.
    client: String,
}

/// Every hosted game, by id.
pub struct Sessions {
    map: Mutex<HashMap<String, Entry>>,
    counter: AtomicU64,
    master_seed: u64,
    limits: GameLimits,
    max_think: Duration,
    /// Limits how many AI players think at the same time.
    pub ai_pool: Arc<Semaphore>,
    /// Where games are stored as they are played (`--db`).
    pub db: Option<Arc<WebDb>>,
    /// The answers of recent Starts by (client, request id).
    starts: Mutex<HashMap<(String, String), (Instant, Value)>>,
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
            limits: GameLimits {
                max_sessions: max_sessions.max(1),
                ..GameLimits::default()
            },
            max_think,
            ai_pool: Arc::new(Semaphore::new(ai_threads.max(1))),
            db: None,
            starts: Mutex::new(HashMap::new()),
        }
    }

    /// With these limits on games.
    pub fn with_limits(mut self, limits: GameLimits) -> Self {
        self.limits = GameLimits {
            max_sessions: limits.max_sessions.max(1),
            max_unfinished: limits.max_unfinished.max(1),
            max_per_client: limits.max_per_client.max(1),
        };
        self
    }

    /// Storing every game as it is played in `db`.
    pub fn with_db(mut self, db: Option<Arc<WebDb>>) -> Self {
        self.db = db;
        self
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The operator's cap on every AI seat's budget (`--max-think`).
    pub fn cap(&self) -> Budget {
        budget_cap(self.max_think)
    }

    /// What a new game shares with the server.
    pub fn env(&self) -> SessionEnv {
        SessionEnv {
            ai_pool: Arc::clone(&self.ai_pool),
            cap: self.cap(),
            db: self.db.clone(),
        }
    }

    /// A fresh id and the seed a game gets when its request names none.
    pub fn next_id(&self) -> (String, u64) {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let seed = derive_seed(self.master_seed, n);
        let tag = derive_seed(self.master_seed ^ 0x5EED, n);
        (format!("{}-{:08x}", n + 1, tag as u32), seed)
    }

    /// Whether `client` may start another game: 429 past its own limit of unfinished games,
    /// 503 when the server holds its limit of unfinished games.
    pub fn admit(&self, client: &str) -> Result<(), ApiError> {
        let map = self.lock();
        let unfinished: Vec<&Entry> = map.values().filter(|e| !e.session.is_done()).collect();
        let mine = unfinished.iter().filter(|e| e.client == client).count();
        if mine >= self.limits.max_per_client {
            return Err(ApiError::TooMany(format!(
                "you have {mine} unfinished games on this server, its limit per player: finish \
                 or abandon one first (abandoned games are dropped after an hour)"
            )));
        }
        if unfinished.len() >= self.limits.max_unfinished {
            return Err(ApiError::Unavailable(format!(
                "the server holds {} unfinished games, its limit; try again later",
                unfinished.len()
            )));
        }
        Ok(())
    }

    /// Stores a game, dropping old ones beyond the limit. Fails when every stored game is
    /// still being played.
    pub fn insert(&self, id: String, s: Arc<dyn DynSession>) -> Result<(), ApiError> {
        self.insert_for(id, s, "")
    }

    /// Stores a game created by `client`.
    pub fn insert_for(
        &self,
        id: String,
        s: Arc<dyn DynSession>,
        client: &str,
    ) -> Result<(), ApiError> {
        let mut map = self.lock();
        while map.len() >= self.limits.max_sessions {
            let oldest = map
                .iter()
                .filter(|(_, e)| e.session.is_done())
                .min_by_key(|(_, e)| e.session.last_touch())
                .or_else(|| {
                    // Nobody touched it for an hour: abandoned.
                    map.iter()
                        .filter(|(_, e)| {
                            e.session.last_touch().elapsed() > Duration::from_secs(3600)
                        })
                        .min_by_key(|(_, e)| e.session.last_touch())
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
        map.insert(
            id,
            Entry {
                session: s,
                client: client.to_string(),
            },
        );
        Ok(())
    }

    /// The game with this id.
    pub fn get(&self, id: &str) -> Result<Arc<dyn DynSession>, ApiError> {
        self.lock()
            .get(id)
            .map(|e| Arc::clone(&e.session))
            .ok_or_else(|| ApiError::NotFound(format!("no game with id '{id}'")))
    }

    /// Summaries of every stored game.
    pub fn list(&self) -> Vec<Value> {
        let all: Vec<Arc<dyn DynSession>> = self
            .lock()
            .values()
            .map(|e| Arc::clone(&e.session))
            .collect();
        all.iter().map(|s| s.summary()).collect()
    }

    /// The games being played with free seats, oldest first.
    pub fn lobby(&self) -> Vec<Value> {
        let all: Vec<(String, Arc<dyn DynSession>)> = self
            .lock()
            .iter()
            .map(|(k, e)| (k.clone(), Arc::clone(&e.session)))
            .collect();
        let mut open: Vec<(u64, Value)> = all
            .iter()
            .filter_map(|(k, s)| {
                let n = k
                    .split('-')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                s.lobby_entry().map(|v| (n, v))
            })
            .collect();
        open.sort_by_key(|(n, _)| *n);
        open.into_iter().map(|(_, v)| v).collect()
    }

    /// Runs `create` once per (client, request id) within [`REQUEST_ID_TTL`]: a repeat gets
    /// the first answer (and `true`: it is a repeat), also after a restart with `--db` (the
    /// answers are kept in the database for that long). Without a request id, always runs.
    pub fn once_per_request(
        &self,
        client: &str,
        request_id: Option<&str>,
        create: impl FnOnce() -> Result<Value, ApiError>,
    ) -> Result<(Value, bool), ApiError> {
        let Some(rid) = request_id else {
            return create().map(|v| (v, false));
        };
        if rid.is_empty() || rid.len() > 100 {
            return Err(ApiError::BadRequest(
                "request_id: expected 1 to 100 characters".into(),
            ));
        }
        // Held while the game is created, so a repeat arriving meanwhile waits for it.
        let mut starts = self.starts.lock().unwrap_or_else(|p| p.into_inner());
        starts.retain(|_, (t, _)| t.elapsed() < REQUEST_ID_TTL);
        let key = (client.to_string(), rid.to_string());
        if let Some((_, answer)) = starts.get(&key) {
            return Ok((answer.clone(), true));
        }
        // With --db the answers are kept in the database too: a retry after a restart.
        if let Some(db) = &self.db
            && let Some(answer) = db.recall_request(client, rid, REQUEST_ID_TTL)?
        {
            return Ok((answer, true));
        }
        let answer = create()?;
        if let Some(db) = &self.db {
            // The game is made and stored: its answer goes out even if this fails (the
            // database then fails the game's next move, which says so).
            let _ = db.remember_request(client, rid, &answer, REQUEST_ID_TTL);
        }
        starts.insert(key, (Instant::now(), answer.clone()));
        Ok((answer, false))
    }

    /// Restores every unfinished game of the database: replayed to its last stored event,
    /// AI seats to move thinking again. Returns how many were restored and the errors of
    /// those that could not be (skipped). Game ids continue after the highest stored one.
    pub fn restore(&self, build: &RestoreFn<'_>) -> Result<(usize, Vec<String>), ApiError> {
        let Some(db) = self.db.clone() else {
            return Ok((0, Vec::new()));
        };
        let all = db.games(false)?;
        let highest = all
            .iter()
            .filter_map(|r| r.id.split('-').next().and_then(|n| n.parse::<u64>().ok()))
            .max()
            .unwrap_or(0);
        self.counter.fetch_max(highest, Ordering::Relaxed);
        let env = self.env();
        let (mut restored, mut errors) = (0, Vec::new());
        for row in all.iter().filter(|r| r.status == "playing") {
            let result = (|| {
                let setup: StoredSetup = serde_json::from_str(&row.setup)
                    .map_err(|e| ApiError::Internal(format!("its setup: {e}")))?;
                let events = db.events(&row.id)?;
                let s = build(&row.game, row.id.clone(), &setup, &events, &env)?;
                self.insert_for(row.id.clone(), s, &setup.client)
            })();
            match result {
                Ok(()) => restored += 1,
                Err(e) => errors.push(format!("game {}: {e}", row.id)),
            }
        }
        Ok((restored, errors))
    }
}
