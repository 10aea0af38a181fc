//! `tessera.tournament`: the arena's tournament with Python callables among the agents.
//!
//! Nothing here schedules, plays or scores games: [`tessera_arena::runner::run_tournament`]
//! does, with the same pairing, statistics and SQLite store as `tessera tournament`. This
//! module only supplies a [`GameDriver`] whose lineup builds, next to the registry's agents,
//! agents that call a Python function ([`PyFnAgent`]). A callable is named `python:NAME` in
//! the run (its `__name__`), which is how `tessera report` shows it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use tessera_arena::error::ArenaError;
use tessera_arena::games::{GameDriver, Lineup, PlayedGame, Worker, play_table};
use tessera_arena::registry::{AgentInfo, AgentPlan, RegistryError};
use tessera_arena::{ArenaGame, driver};
use tessera_azul::AzulState;
use tessera_core::table::Fault;
use tessera_core::{Agent, Budget, Game, GameInfo, GameRng, Turn};

use crate::azul;
use crate::driver::Session;
use crate::py::PyAzul;

/// A Python callable sitting in a tournament, under its run label.
pub struct Callable {
    /// `python:NAME`.
    pub label: String,
    /// The function: takes an `AzulGame` (the position the agent sees), returns an id.
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
pub struct PyFnAgent {
    label: String,
    func: Py<PyAny>,
    failure: Arc<Failure>,
    faults: Vec<Fault>,
}

impl PyFnAgent {
    fn ask(&self, state: &AzulState) -> PyResult<tessera_azul::AzulAction> {
        Python::attach(|py| {
            let session = Session::new(state.clone(), 0)
                .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
            let handle = Py::new(py, PyAzul::from_session(session))?;
            let answer = self.func.bind(py).call1((handle,))?;
            let id: i64 = answer.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "agent {}: returned {answer:?}, expected an action id (int)",
                    self.label
                ))
            })?;
            let a = azul::decode(id, state.num_players()).map_err(|e| {
                pyo3::exceptions::PyValueError::new_err(format!("agent {}: {e}", self.label))
            })?;
            state.check_action(a).map_err(|e| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "agent {}: returned {id} ({a}), which is not legal: {e}",
                    self.label
                ))
            })?;
            Ok(a)
        })
    }
}

impl Agent<AzulState> for PyFnAgent {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(
        &mut self,
        state: &AzulState,
        _: &Budget,
        rng: &mut GameRng,
    ) -> tessera_azul::AzulAction {
        match self.ask(state) {
            Ok(a) => a,
            Err(e) => {
                // The game must go on (an agent returns a move), so a random legal move is
                // played and recorded as a fault; the run stops and the error is raised.
                self.faults.push(Fault {
                    kind: "python".into(),
                    detail: e.to_string(),
                });
                let mut slot = self.failure.error.lock().unwrap_or_else(|p| p.into_inner());
                slot.get_or_insert(e);
                self.failure.stop.store(true, Ordering::SeqCst);
                state
                    .random_action(rng)
                    .expect("an agent is asked only when a player is to move")
            }
        }
    }

    fn take_faults(&mut self) -> Vec<Fault> {
        std::mem::take(&mut self.faults)
    }
}

/// The Azul driver with callables added to its lineup.
pub struct WithCallables {
    inner: Box<dyn GameDriver>,
    callables: Vec<Callable>,
    failure: Arc<Failure>,
}

impl WithCallables {
    /// Azul's driver plus `callables`.
    pub fn new(callables: Vec<Callable>, failure: Arc<Failure>) -> Result<Self, ArenaError> {
        Ok(WithCallables {
            inner: driver("azul")?,
            callables,
            failure,
        })
    }

    fn callable(&self, spec: &str) -> Option<&Callable> {
        self.callables.iter().find(|c| c.label == spec)
    }
}

impl GameDriver for WithCallables {
    fn info(&self) -> GameInfo {
        self.inner.info()
    }

    fn agents(&self) -> Vec<AgentInfo> {
        self.inner.agents()
    }

    fn levels(&self) -> &'static [tessera_arena::registry::Level] {
        self.inner.levels()
    }

    fn check_agent(&self, spec: &str) -> Result<(), RegistryError> {
        match self.callable(spec) {
            Some(_) => Ok(()),
            None => self.inner.check_agent(spec),
        }
    }

    fn lineup(&self, agents: &[String]) -> Result<Box<dyn Lineup>, ArenaError> {
        let registry = AzulState::registry();
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

enum Member {
    Plan(AgentPlan<AzulState>),
    Py { label: String, func: Py<PyAny> },
}

struct MixedLineup {
    members: Vec<Member>,
    failure: Arc<Failure>,
}

impl MixedLineup {
    fn build(&self, i: usize) -> Result<Box<dyn Agent<AzulState>>, ArenaError> {
        Ok(match &self.members[i] {
            Member::Plan(p) => p.build()?,
            Member::Py { label, func } => Box::new(PyFnAgent {
                label: label.clone(),
                func: Python::attach(|py| func.clone_ref(py)),
                failure: self.failure.clone(),
                faults: Vec::new(),
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

impl Lineup for MixedLineup {
    fn worker(&self) -> Result<Box<dyn Worker>, ArenaError> {
        // Agents are built per game (a callable costs nothing to build; registry agents of a
        // Python tournament are few).
        Ok(Box::new(MixedWorker {
            lineup: MixedLineup {
                members: self
                    .members
                    .iter()
                    .map(|m| match m {
                        Member::Plan(p) => Member::Plan(p.clone()),
                        Member::Py { label, func } => Member::Py {
                            label: label.clone(),
                            func: Python::attach(|py| func.clone_ref(py)),
                        },
                    })
                    .collect(),
                failure: self.failure.clone(),
            },
        }))
    }
}

struct MixedWorker {
    lineup: MixedLineup,
}

impl Worker for MixedWorker {
    fn play(&mut self, seats: &[usize], seed: u64) -> Result<PlayedGame, ArenaError> {
        let agents = seats
            .iter()
            .map(|&i| self.lineup.build(i))
            .collect::<Result<Vec<_>, _>>()?;
        let budgets: Vec<Budget> = seats.iter().map(|&i| self.lineup.budget(i)).collect();
        let (table, record) = play_table::<AzulState>(agents, &budgets, seed)?;
        let result = record.result.as_ref().ok_or(ArenaError::Unfinished {
            seed,
            actions: AzulState::MAX_ACTIONS,
        })?;
        debug_assert_eq!(table.state().turn(), Turn::Terminal);
        Ok(PlayedGame {
            scores: result.scores.as_slice().to_vec(),
            winners: result.winners.iter().map(|p| p.index()).collect(),
            actions: record.num_actions() as u32,
            record: serde_json::to_string(&record).map_err(ArenaError::RecordJson)?,
            faults: table.faults().to_vec(),
        })
    }
}
