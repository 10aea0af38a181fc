//! `tessera.tournament`: the arena's tournament with Python callables among the agents.
//!
//! Nothing here schedules, plays or scores games: [`tessera_arena::runner::run_tournament`]
//! does, with the same pairing, statistics and SQLite store as `tessera tournament`. This
//! module only supplies a [`GameDriver`] whose lineup builds, next to the registry's agents,
//! agents that call a Python function ([`PyFnAgent`]), for any game that says how a callable
//! is asked for a move ([`PyGame`]: Azul and Qwirkle). A callable is named `python:NAME` in
//! the run (its `__name__`), which is how `tessera report` shows it.
//!
//! A callable sees what the arena gives every agent: the state determinized for its seat
//! (in Qwirkle the other hands and the bag resampled), wrapped in the game's Python handle.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use rand::Rng;
use tessera_arena::analysis::{SprtStatus, SprtTracker};
use tessera_arena::runner::{RunOptions, run_tournament};
use tessera_arena::schedule::{RunParams, Shard, parse_sprt, sprt_text};
use tessera_arena::store::Store;
use tessera_azul::AzulState;
use tessera_core::table::{Fault, FaultKind};
use tessera_core::{Agent, Budget, Clock, Game, GameInfo, GameRng, Turn};
use tessera_house::ArenaGame;
use tessera_house::error::ArenaError;
use tessera_house::games::{
    Driver, GameDriver, Lineup, PlayedGame, Worker, explicit_time, play_table_clocked,
};
use tessera_house::registry::{AgentInfo, AgentPlan, RegistryError};
use tessera_qwirkle::{HAND_SIZE, Qwirkle};

use crate::args::describe_value;
use crate::azul;
use crate::driver::GameInPlay;
use crate::py::{PyAzul, PyQwirkle};
use crate::qwirkle::QwirkleTable;

/// A game whose tournaments take Python callables: how a callable is asked for a move.
pub trait PyGame: ArenaGame {
    /// Asks `func` (labelled `label` in messages) for the move of the player to move in
    /// `state`, the position as that player's agent sees it. A bad answer is an error
    /// (`TypeError` for a non-integer, `ValueError` for an id that is out of range or not
    /// legal) naming the agent; `rng` is the seat's generator.
    fn ask(
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        label: &str,
        state: &Self,
        rng: &mut GameRng,
    ) -> PyResult<Self::Action>;
}

/// An integer answer, or a `TypeError` naming the agent and what it returned.
fn answer_id(answer: &Bound<'_, PyAny>, label: &str, what: &str) -> PyResult<i64> {
    answer.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "agent {label}: returned {answer:?}, expected {what} (int)"
        ))
    })
}

/// Azul: the callable gets an `AzulGame` of the position and returns one action id.
impl PyGame for AzulState {
    fn ask(
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        label: &str,
        state: &Self,
        _: &mut GameRng,
    ) -> PyResult<Self::Action> {
        let session = GameInPlay::new(state.clone(), 0)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let handle = Py::new(py, PyAzul::from_session(session))?;
        let answer = func.call1((handle,))?;
        let id = answer_id(&answer, label, "an action id")?;
        let a = azul::decode(id, state.num_players())
            .map_err(|e| PyValueError::new_err(format!("agent {label}: {e}")))?;
        state.check_action(a).map_err(|e| {
            PyValueError::new_err(format!(
                "agent {label}: returned {id} ({a}), which is not legal: {e}"
            ))
        })?;
        Ok(a)
    }
}

/// Qwirkle: the callable is called once per step id, as an environment's policy is (the
/// encoding of `QwirkleGame` and `tessera.envs.qwirkle_v0`): each call gets a `QwirkleGame`
/// of the seat's view with the tiles it put down so far this turn pending, and returns one
/// step id; the move is the one those steps complete (at most six calls).
impl PyGame for Qwirkle {
    fn ask(
        py: Python<'_>,
        func: &Bound<'_, PyAny>,
        label: &str,
        state: &Self,
        rng: &mut GameRng,
    ) -> PyResult<Self::Action> {
        // The view's later draws (if the callable plays ahead on its handle) come from the
        // seat's generator: the bag in the view is resampled anyway.
        let mut table = QwirkleTable::from_state(state.clone(), rng.random())
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        for _ in 0..HAND_SIZE {
            let handle = Py::new(py, PyQwirkle::from_table(table.clone()))?;
            let answer = func.call1((handle,))?;
            let id = answer_id(&answer, label, "a step id")?;
            table.step(id).map_err(|e| {
                PyValueError::new_err(format!(
                    "agent {label}: returned {id}, which is not legal: {e}"
                ))
            })?;
            if let Some((_, m)) = table.last_move() {
                return Ok(m);
            }
        }
        Err(PyRuntimeError::new_err(format!(
            "agent {label}: {HAND_SIZE} steps did not complete a move (a bug in the step table)"
        )))
    }
}

/// A Python callable sitting in a tournament, under its run label.
pub struct Callable {
    /// `python:NAME`.
    pub label: String,
    /// The function: takes the game's handle of the position its seat sees, returns an id
    /// ([`PyGame::ask`]).
    pub func: Py<PyAny>,
}

/// What the callables share with the caller: the first Python error (the run then stops).
#[derive(Default)]
pub struct Failure {
    /// The first exception raised by a callable (or its bad answer).
    pub error: Mutex<Option<PyErr>>,
    /// Set on the first failure; the runner's stop flag.
    pub stop: Arc<AtomicBool>,
}

/// An agent that asks a Python function for its move.
pub struct PyFnAgent<G> {
    label: String,
    func: Py<PyAny>,
    failure: Arc<Failure>,
    faults: Vec<Fault>,
    game: PhantomData<fn() -> G>,
}

impl<G: PyGame> Agent<G> for PyFnAgent<G> {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&mut self, state: &G, _: &Budget, rng: &mut GameRng) -> G::Action {
        let asked = Python::attach(|py| G::ask(py, self.func.bind(py), &self.label, state, rng));
        match asked {
            Ok(a) => a,
            Err(e) => {
                // The game must go on (an agent returns a move), so a random legal move is
                // played and recorded as a fault; the run stops and the error is raised.
                self.faults.push(Fault {
                    kind: FaultKind::Python,
                    detail: e.to_string(),
                });
                let mut slot = self.failure.error.lock().unwrap_or_else(|p| p.into_inner());
                slot.get_or_insert(e);
                self.failure.stop.store(true, Ordering::SeqCst);
                let mut legal = Vec::new();
                state.legal_actions(&mut legal);
                assert!(
                    !legal.is_empty(),
                    "an agent is asked only when a player is to move, who has a legal move"
                );
                legal[rng.random_range(0..legal.len())]
            }
        }
    }

    fn take_faults(&mut self) -> Vec<Fault> {
        std::mem::take(&mut self.faults)
    }
}

/// A game's driver with callables added to its lineup.
pub struct WithCallables<G> {
    inner: Box<dyn GameDriver>,
    callables: Vec<Callable>,
    failure: Arc<Failure>,
    game: PhantomData<fn() -> G>,
}

impl<G: PyGame> WithCallables<G> {
    /// `G`'s driver plus `callables`.
    pub fn new(callables: Vec<Callable>, failure: Arc<Failure>) -> Self {
        WithCallables {
            inner: Driver::<G>::boxed(),
            callables,
            failure,
            game: PhantomData,
        }
    }

    fn callable(&self, spec: &str) -> Option<&Callable> {
        self.callables.iter().find(|c| c.label == spec)
    }
}

impl<G: PyGame> GameDriver for WithCallables<G> {
    fn info(&self) -> GameInfo {
        self.inner.info()
    }

    fn agents(&self) -> Vec<AgentInfo> {
        self.inner.agents()
    }

    fn levels(&self) -> &'static [tessera_house::registry::Level] {
        self.inner.levels()
    }

    fn check_agent(&self, spec: &str) -> Result<(), RegistryError> {
        match self.callable(spec) {
            Some(_) => Ok(()),
            None => self.inner.check_agent(spec),
        }
    }

    fn lineup(&self, agents: &[String]) -> Result<Box<dyn Lineup>, ArenaError> {
        let registry = G::registry();
        let members = agents
            .iter()
            .map(|spec| {
                Ok(match self.callable(spec) {
                    Some(c) => Member::Py {
                        label: c.label.clone(),
                        func: Python::attach(|py| c.func.clone_ref(py)),
                    },
                    None => Member::Plan(registry.parse(spec)?),
                })
            })
            .collect::<Result<Vec<_>, ArenaError>>()?;
        Ok(Box::new(MixedLineup {
            members,
            failure: self.failure.clone(),
        }))
    }
}

enum Member<G: ArenaGame> {
    Plan(AgentPlan<G>),
    Py { label: String, func: Py<PyAny> },
}

impl<G: ArenaGame> Member<G> {
    fn copy(&self) -> Self {
        match self {
            Member::Plan(p) => Member::Plan(p.clone()),
            Member::Py { label, func } => Member::Py {
                label: label.clone(),
                func: Python::attach(|py| func.clone_ref(py)),
            },
        }
    }
}

struct MixedLineup<G: ArenaGame> {
    members: Vec<Member<G>>,
    failure: Arc<Failure>,
}

impl<G: PyGame> MixedLineup<G> {
    fn build(&self, i: usize) -> Result<Box<dyn Agent<G>>, ArenaError> {
        Ok(match &self.members[i] {
            Member::Plan(p) => p.build()?,
            Member::Py { label, func } => Box::new(PyFnAgent::<G> {
                label: label.clone(),
                func: Python::attach(|py| func.clone_ref(py)),
                failure: self.failure.clone(),
                faults: Vec::new(),
                game: PhantomData,
            }),
        })
    }

    fn budget(&self, i: usize) -> Budget {
        match &self.members[i] {
            Member::Plan(p) => p.budget(),
            Member::Py { .. } => Budget::default(),
        }
    }
}

impl<G: PyGame> Lineup for MixedLineup<G> {
    fn worker(&self) -> Result<Box<dyn Worker>, ArenaError> {
        // Agents are built per game (a callable costs nothing to build; registry agents of a
        // Python tournament are few).
        Ok(Box::new(MixedWorker {
            lineup: MixedLineup {
                members: self.members.iter().map(Member::copy).collect(),
                failure: self.failure.clone(),
            },
        }))
    }
}

struct MixedWorker<G: ArenaGame> {
    lineup: MixedLineup<G>,
}

impl<G: PyGame> Worker for MixedWorker<G> {
    /// Under a clock a callable's seat is charged like any other (it has no time budget to
    /// obey: it simply must answer within its time).
    fn play_clocked(
        &mut self,
        seats: &[usize],
        seed: u64,
        clock: Option<Clock>,
    ) -> Result<PlayedGame, ArenaError> {
        let agents = seats
            .iter()
            .map(|&i| self.lineup.build(i))
            .collect::<Result<Vec<_>, _>>()?;
        let budgets: Vec<Budget> = seats.iter().map(|&i| self.lineup.budget(i)).collect();
        let fixed: Vec<bool> = seats
            .iter()
            .map(|&i| match &self.lineup.members[i] {
                Member::Plan(p) => explicit_time(p.spec()),
                Member::Py { .. } => false,
            })
            .collect();
        let (table, record) = play_table_clocked::<G>(agents, &budgets, seed, clock, &fixed)?;
        let result = record.result.as_ref().ok_or(ArenaError::Unfinished {
            seed,
            actions: G::MAX_ACTIONS,
        })?;
        debug_assert!(table.flag().is_some() || table.state().turn() == Turn::Terminal);
        Ok(PlayedGame {
            scores: result.scores.as_slice().to_vec(),
            winners: result.winners.iter().map(|p| p.index()).collect(),
            actions: record.num_actions() as u32,
            record: serde_json::to_string(&record).map_err(ArenaError::RecordJson)?,
            faults: table.faults().to_vec(),
        })
    }
}

/// The state of a sequential test as Python gets it: (the test as `--sprt` takes it, the
/// verdict `H0 accepted`/`H1 accepted`/`undecided`, LLR, lower bound, upper bound, pairs
/// counted, pentanomial counts LL, LD+DL, DD+WL+LW, WD+DW, WW).
pub type SprtTuple = (String, &'static str, f64, f64, f64, u64, [u64; 5]);

fn sprt_tuple(s: &SprtStatus) -> SprtTuple {
    (
        sprt_text(&s.params),
        s.verdict(),
        s.llr,
        s.bounds.0,
        s.bounds.1,
        s.pairs,
        s.counts,
    )
}

/// `tessera.sprt`: the arena's SPRT (`tessera tournament --sprt`'s test: fishtest's
/// generalized LLR of pentanomial pair counts against Wald's bounds) of `counts`, for the
/// test `test` in `--sprt`'s syntax (`elo0=0,elo1=10[,alpha=..][,beta=..][,model=..]`).
/// A pure function: the same counts give the same LLR and decision.
#[pyfunction]
pub fn _sprt(test: &str, counts: [u64; 5]) -> PyResult<SprtTuple> {
    let params = parse_sprt(test).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let bounds = params.bounds();
    let llr = params.llr(&counts);
    let decision = params.decide(&counts);
    Ok(sprt_tuple(&SprtStatus {
        params,
        bounds,
        decision,
        llr,
        pairs: counts.iter().sum(),
        counts,
    }))
}

/// The sequential test of one run fed from results files as their games arrive (the Ray
/// executor feeds each task's slice): the runner's own [`SprtTracker`], so pairs count in
/// schedule order and the test stops at the first pair that crosses a bound, whatever the
/// order the slices finish in. The decision is the one a local run of the same seed reaches.
#[pyclass(name = "_SprtTracker", module = "tessera._tessera")]
#[derive(Default)]
pub struct PySprtTracker {
    /// The run's key (its parameters) and its test, from the first file fed.
    run: Option<(String, SprtTracker)>,
}

#[pymethods]
impl PySprtTracker {
    #[new]
    fn new() -> Self {
        PySprtTracker::default()
    }

    /// Feeds every game of the results file `path` and returns the test's state. The first
    /// run fed (it must have an SPRT) is the test's run; another run in a later file is an
    /// error, or with `skip_other_runs` (a store holding other runs too) passed over.
    #[pyo3(signature = (path, skip_other_runs = false))]
    fn add(
        &mut self,
        py: Python<'_>,
        path: std::path::PathBuf,
        skip_other_runs: bool,
    ) -> PyResult<SprtTuple> {
        let err = |e: ArenaError| PyValueError::new_err(e.to_string());
        let runs = py.detach(|| -> Result<Vec<_>, ArenaError> {
            let store = Store::open_read(&path)?;
            store
                .runs()?
                .into_iter()
                .map(|run| {
                    let rows = store.rows(run.id)?;
                    Ok((run.params, rows))
                })
                .collect()
        });
        for (params, rows) in runs.map_err(err)? {
            let key = params.key();
            let sprt = match (&self.run, params.sprt) {
                (Some((known, _)), _) if *known == key => None,
                (_, _) if skip_other_runs => continue,
                (Some(_), _) => {
                    return Err(PyValueError::new_err(format!(
                        "{}: holds another run ({}) than the one this test counts",
                        path.display(),
                        params.command_line()
                    )));
                }
                (None, None) => {
                    return Err(PyValueError::new_err(format!(
                        "{}: its run ({}) has no SPRT",
                        path.display(),
                        params.command_line()
                    )));
                }
                (None, Some(sprt)) => Some(sprt),
            };
            if let Some(sprt) = sprt {
                self.run = Some((key, SprtTracker::new(sprt, &params)));
            }
            if let Some((_, tracker)) = self.run.as_mut() {
                for row in &rows {
                    tracker.add(row);
                }
            }
        }
        self.status()
    }

    /// The test's state (an error before any file was fed).
    fn status(&self) -> PyResult<SprtTuple> {
        match &self.run {
            Some((_, t)) => Ok(sprt_tuple(&t.status())),
            None => Err(PyValueError::new_err(
                "no results file was fed to the test yet",
            )),
        }
    }
}

fn arena_err(e: ArenaError) -> PyErr {
    match e {
        ArenaError::UnknownGame { .. }
        | ArenaError::Registry(_)
        | ArenaError::Params(_)
        | ArenaError::Run(_) => PyValueError::new_err(e.to_string()),
        e => PyRuntimeError::new_err(e.to_string()),
    }
}

/// Runs a tournament through the arena's runner (the same schedule, pairing, statistics and
/// SQLite store as `tessera tournament`); `agents` holds registry specs (str) and Python
/// callables (an `AzulGame` in, an action id out; in Qwirkle a `QwirkleGame` in, one step
/// id out per call). Returns `(run id, games
/// played by this call, summary as JSON, faults as JSON, the run's command line)`. Wrapped
/// by `tessera.tournament`. `shard` `(k, n)` plays only the `k`-th of `n` slices of whole
/// deals (`tessera tournament --shard k/n`), as `tessera.tournament(executor="ray")` asks
/// each task to; `sprt` is `--sprt`'s test (`elo0=0,elo1=10`), the run then stopping when
/// it decides.
#[pyfunction]
#[pyo3(signature = (agents, game, players, games, series, seed, db, jobs, paired, resume, shard = None, sprt = None, clock = None))]
#[allow(clippy::too_many_arguments)]
fn _tournament(
    py: Python<'_>,
    agents: Vec<Bound<'_, PyAny>>,
    game: &str,
    players: usize,
    games: u64,
    series: u32,
    seed: u64,
    db: std::path::PathBuf,
    jobs: usize,
    paired: bool,
    resume: bool,
    shard: Option<(u32, u32)>,
    sprt: Option<&str>,
    clock: Option<String>,
) -> PyResult<(i64, u64, String, String, String)> {
    let clock = clock
        .map(|c| c.parse::<tessera_core::Clock>())
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let shard = match shard {
        None => Shard::ALL,
        Some((index, count)) if count >= 1 && (1..=count).contains(&index) => {
            Shard { index, count }
        }
        Some((k, n)) => {
            return Err(PyValueError::new_err(format!(
                "shard ({k}, {n}): expected (k, n) with 1 <= k <= n"
            )));
        }
    };
    let mut specs = Vec::with_capacity(agents.len());
    let mut callables: Vec<Callable> = Vec::new();
    for (i, a) in agents.iter().enumerate() {
        if let Ok(spec) = a.extract::<String>() {
            specs.push(spec);
        } else if a.is_callable() {
            let name: String = a
                .getattr("__name__")
                .and_then(|n| n.extract())
                .unwrap_or_else(|_| format!("agent{i}"));
            let mut label = format!("python:{name}");
            let mut k = 2;
            while specs.contains(&label) {
                label = format!("python:{name}-{k}");
                k += 1;
            }
            specs.push(label.clone());
            callables.push(Callable {
                label,
                func: a.clone().unbind(),
            });
        } else {
            return Err(PyTypeError::new_err(format!(
                "agents[{i}]: expected an agent spec (str) or a callable, got {}",
                describe_value(a)
            )));
        }
    }
    let refs: Vec<&str> = specs.iter().map(|s| s.as_str()).collect();
    let mut params = RunParams::new(game, &refs, players, games, series, seed);
    params.paired = paired;
    params.sprt = sprt
        .map(parse_sprt)
        .transpose()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    params.clock = clock;
    let failure = Arc::new(Failure::default());
    let opts = RunOptions {
        jobs,
        resume,
        shard,
        stop: failure.stop.clone(),
        ..RunOptions::default()
    };
    let mut store = Store::open(&db).map_err(arena_err)?;
    let driver: Box<dyn GameDriver> = match game {
        _ if callables.is_empty() => tessera_house::driver(game).map_err(arena_err)?,
        "azul" => Box::new(WithCallables::<AzulState>::new(callables, failure.clone())),
        "qwirkle" => Box::new(WithCallables::<Qwirkle>::new(callables, failure.clone())),
        _ => {
            return Err(PyValueError::new_err(format!(
                "game '{game}': Python callables play in azul and qwirkle tournaments"
            )));
        }
    };
    let report = py.detach(|| run_tournament(driver.as_ref(), &params, &mut store, &opts, &mut ()));
    if let Some(e) = failure
        .error
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
    {
        return Err(e);
    }
    let report = report.map_err(arena_err)?;
    let summary = serde_json::to_string(&report.summary)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let faults = serde_json::to_string(&report.faults)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    Ok((
        report.run.id,
        report.played,
        summary,
        faults,
        params.command_line(),
    ))
}

/// Merges the runs of the SQLite stores `inputs` into `output` (created if missing;
/// `tessera merge`): a shard's games join the whole run of the same parameters, a game
/// stored twice must be identical. Returns the games added.
#[pyfunction]
fn _merge(
    py: Python<'_>,
    output: std::path::PathBuf,
    inputs: Vec<std::path::PathBuf>,
) -> PyResult<u64> {
    let merged = py
        .detach(|| tessera_arena::merge::merge(&output, &inputs))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(merged.iter().map(|m| m.added).sum())
}

/// Registers the tournament's functions in the extension module (lib.rs's `_tessera`).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_tournament, m)?)?;
    m.add_function(wrap_pyfunction!(_merge, m)?)?;
    m.add_function(wrap_pyfunction!(_sprt, m)?)?;
    m.add_class::<PySprtTracker>()?;
    Ok(())
}
