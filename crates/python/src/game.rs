//! Every registered game from Python, with no code of its own here: `tessera.make(name)`
//! returns a [`PyGame`] over the registration's [`GameHandle`], `tessera.games()` and
//! `tessera.agents(name)` list the registrations (the same list `tessera games` and
//! `tessera agents` print).

use std::sync::{Mutex, MutexGuard};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use tessera_core::table::TableError;
use tessera_house::games::{GameDriver, driver, drivers};
use tessera_house::handle::{GameHandle, HandleError};

use crate::args::{ActionId, Count, Seed, describe_value, list_legal, restorer};

/// A handle's or an agent's error as the Python exception a caller expects: TypeError for a
/// handle of another game, RuntimeError for a game that refused its own chance (a bug),
/// ValueError for everything a caller got wrong.
pub(crate) fn handle_err(e: HandleError) -> PyErr {
    match e {
        HandleError::WrongGame { .. } => PyTypeError::new_err(e.to_string()),
        HandleError::Table(TableError::Chance(_)) => PyRuntimeError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// The registered game named `name`, as a ValueError naming the known games if none is.
pub(crate) fn game_driver(name: &str) -> PyResult<Box<dyn GameDriver>> {
    driver(name).map_err(|e| PyValueError::new_err(format!("game '{name}': {e}")))
}

/// Any registered game (`tessera.make(name)`): moves in notation or as ids, an id being the
/// move's index in `legal_moves()` (the game's own order); chance (deals, draws) resolved
/// from the seed's chance stream, as in a tournament game of that seed.
#[pyclass(module = "tessera._tessera", name = "Game")]
pub struct PyGame {
    inner: Mutex<Box<dyn GameHandle>>,
}

impl PyGame {
    fn of(handle: Box<dyn GameHandle>) -> Self {
        PyGame {
            inner: Mutex::new(handle),
        }
    }

    /// The handle (a poisoned lock still holds a consistent handle: every change is checked
    /// before it is made).
    pub(crate) fn lock(&self) -> MutexGuard<'_, Box<dyn GameHandle>> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Rebuilds a handle from its snapshot (unpickling).
    pub(crate) fn restore(text: &str) -> PyResult<Self> {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| PyValueError::new_err(format!("not a pickled game: {e}")))?;
        let name = v
            .get("game")
            .and_then(|g| g.as_str())
            .ok_or_else(|| PyValueError::new_err("not a pickled game: no field 'game'"))?;
        let handle = game_driver(name)?
            .restore_handle(text)
            .map_err(handle_err)?;
        Ok(Self::of(handle))
    }

    fn illegal(g: &dyn GameHandle, e: HandleError) -> PyErr {
        let legal = g.legal();
        match e {
            HandleError::Table(TableError::Illegal { .. }) | HandleError::NoSuchAction { .. } => {
                PyValueError::new_err(format!(
                    "{e}; legal now: {}",
                    list_legal(legal.into_iter().enumerate())
                ))
            }
            e => handle_err(e),
        }
    }
}

#[pymethods]
impl PyGame {
    /// A new game of registered game `name` with `players` seats (the game's fewest when
    /// None), set up and dealt from `seed` (the same game as a tournament's of that seed).
    #[new]
    #[pyo3(signature = (name, players = None, seed = Seed(0)))]
    fn new(name: &str, players: Option<Count>, seed: Seed) -> PyResult<Self> {
        let d = game_driver(name)?;
        let players = match players {
            None => None,
            Some(p) => Some(p.usize().ok_or_else(|| {
                let (lo, hi) = d.players();
                PyValueError::new_err(format!(
                    "{} is played by {lo} to {hi} players, not {}",
                    d.info().title,
                    p.text()
                ))
            })?),
        };
        Ok(Self::of(d.handle(players, seed.0).map_err(handle_err)?))
    }

    /// A game of `name` resumed from a state in its notation; later chance from `seed`.
    #[staticmethod]
    #[pyo3(signature = (name, text, seed = Seed(0)))]
    fn from_notation(name: &str, text: &str, seed: Seed) -> PyResult<Self> {
        let d = game_driver(name)?;
        Ok(Self::of(
            d.handle_from_notation(text, seed.0).map_err(handle_err)?,
        ))
    }

    /// The game's short name (`azul`, `nim`).
    #[getter]
    fn name(&self) -> &'static str {
        self.lock().info().name
    }

    /// The game's title (`Azul`).
    #[getter]
    fn title(&self) -> &'static str {
        self.lock().info().title
    }

    /// Players at the table.
    #[getter]
    fn players(&self) -> usize {
        self.lock().players()
    }

    /// The seed the game was started with.
    #[getter]
    fn seed(&self) -> u64 {
        self.lock().seed()
    }

    /// The seat to move, or None once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.lock().to_move()
    }

    /// True once the game is over.
    #[getter]
    fn is_terminal(&self) -> bool {
        self.lock().is_over()
    }

    /// The legal moves in notation; a move's id is its index in this list.
    fn legal_moves(&self) -> Vec<String> {
        self.lock().legal()
    }

    /// The legal ids: `0 .. len(legal_moves())`.
    fn legal_actions(&self) -> Vec<usize> {
        (0..self.lock().legal().len()).collect()
    }

    /// The notation of the legal move with id `action`.
    fn action_to_string(&self, action: ActionId) -> PyResult<String> {
        let id = usize::try_from(action.0).map_err(|_| {
            PyValueError::new_err(format!("action id {} is out of range", action.0))
        })?;
        self.lock().move_text(id).map_err(handle_err)
    }

    /// The id of move `text` (notation), if it is legal now.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        let g = self.lock();
        g.move_id(text).map_err(|e| Self::illegal(g.as_ref(), e))
    }

    /// Plays `action` for the seat to move: an id (int) or a move in notation (str); then
    /// resolves chance. Returns the seat to move next, or None once the game is over.
    /// ValueError (nothing changes) for an illegal, out-of-range or malformed move or a
    /// finished game; TypeError for anything but an int or a str.
    fn step(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let mut g = self.lock();
        let done = if let Ok(text) = action.cast::<PyString>() {
            g.play_text(&text.to_cow()?)
        } else {
            let ActionId(id) = action.extract().map_err(|e: PyErr| {
                if e.is_instance_of::<PyTypeError>(action.py()) {
                    PyTypeError::new_err(format!(
                        "action {}: expected an id (int) or a move in notation (str), not {}",
                        action.repr().map(|r| r.to_string()).unwrap_or_default(),
                        describe_value(action)
                    ))
                } else {
                    e
                }
            })?;
            let id = usize::try_from(id)
                .map_err(|_| PyValueError::new_err(format!("action id {id} is out of range")))?;
            g.play_id(id)
        };
        done.map_err(|e| Self::illegal(g.as_ref(), e))?;
        Ok(g.to_move())
    }

    /// Takes back the last move (and the chance after it: playing it again draws the same).
    fn undo(&self) -> PyResult<()> {
        self.lock().undo().map_err(handle_err)
    }

    /// The moves played so far, in notation.
    fn history(&self) -> Vec<String> {
        self.lock().history()
    }

    /// The full state in notation (hidden parts included: a referee's view).
    fn notation(&self) -> String {
        self.lock().notation()
    }

    /// What seat `seat` may see, as a dict (the game's view, as the web client gets it).
    fn view<'py>(&self, py: Python<'py>, seat: Count) -> PyResult<Bound<'py, PyAny>> {
        let g = self.lock();
        let text = g
            .view_json(seat_of(g.as_ref(), &seat)?)
            .map_err(handle_err)?;
        py.import("json")?.getattr("loads")?.call1((text,))
    }

    /// What seat `seat` may see, in the engine protocol's position notation.
    fn view_text(&self, seat: Count) -> PyResult<String> {
        let g = self.lock();
        g.view_text(seat_of(g.as_ref(), &seat)?).map_err(handle_err)
    }

    /// Scores, seat 0 first.
    fn scores(&self) -> Vec<i32> {
        self.lock().scores()
    }

    /// Returns per seat once the game is over (1 for a sole win, 1/k for a win shared by k,
    /// 0 otherwise); zeros before.
    fn returns(&self) -> Vec<f64> {
        self.lock().returns()
    }

    /// The winners (seats) once the game is over.
    fn winners(&self) -> Vec<usize> {
        self.lock().winners()
    }

    /// The game record so far, as a dict (the record `tessera replay` reads).
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.lock().record_json();
        py.import("json")?.getattr("loads")?.call1((text,))
    }

    /// An independent copy (same state, same future chance).
    fn copy(&self) -> Self {
        Self::of(self.lock().clone_box())
    }

    fn __copy__(&self) -> Self {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy()
    }

    /// Pickling: the game, its initial state, seed and moves (replayed on unpickling, so the
    /// copy has the same future chance).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        Ok((restorer(py)?, ("game", self.lock().snapshot())))
    }

    fn __repr__(&self) -> String {
        let g = self.lock();
        format!("Game('{}', '{}')", g.info().name, g.notation())
    }

    fn __str__(&self) -> String {
        self.lock().notation()
    }
}

/// Seat `seat` of `g`, or the ValueError naming the seats that exist.
fn seat_of(g: &dyn GameHandle, seat: &Count) -> PyResult<usize> {
    match seat.usize() {
        Some(s) if s < g.players() => Ok(s),
        _ => Err(PyValueError::new_err(format!(
            "seat {} does not exist: this game has seats 0 to {}",
            seat.text(),
            g.players() - 1
        ))),
    }
}

/// `tessera.make`: a new game of registered game `name`.
#[pyfunction]
#[pyo3(signature = (name, players = None, seed = Seed(0)))]
fn make(name: &str, players: Option<Count>, seed: Seed) -> PyResult<PyGame> {
    PyGame::new(name, players, seed)
}

/// The registered games as JSON: name, title, seat range, chance, hidden information,
/// whether it is a test game, and its levels.
#[pyfunction]
fn _games() -> String {
    let all: Vec<serde_json::Value> = drivers()
        .iter()
        .map(|d| {
            let info = d.info();
            let levels: Vec<serde_json::Value> = d
                .levels()
                .iter()
                .map(|l| {
                    serde_json::json!({
                        "number": l.number, "name": l.name, "summary": l.summary, "spec": l.spec,
                    })
                })
                .collect();
            serde_json::json!({
                "name": info.name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "chance": info.chance,
                "hidden_info": info.hidden_info,
                "test": d.test_game(),
                "levels": levels,
            })
        })
        .collect();
    serde_json::Value::Array(all).to_string()
}

/// Game `name`'s registered agents as JSON (name, summary, parameters).
#[pyfunction]
fn _agents(name: &str) -> PyResult<String> {
    let d = game_driver(name)?;
    serde_json::to_string(&d.agents()).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Adds the generic game's class and functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_function(wrap_pyfunction!(make, m)?)?;
    m.add_function(wrap_pyfunction!(_games, m)?)?;
    m.add_function(wrap_pyfunction!(_agents, m)?)?;
    Ok(())
}
