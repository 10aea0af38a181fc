//! The extension module `tessera._tessera` (built only with the `python` feature).
//!
//! Every handle moves its game through [`crate::driver`] only. Errors become Python
//! exceptions with the reason and what is legal: `ValueError` for an illegal, out-of-range or
//! malformed action, a wrong player count, a bad seat or malformed notation.

use std::sync::Mutex;

use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadwriteArray1, PyReadwriteArray2,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use tessera_azul::{AzulAction, AzulState};
use tessera_core::record::GameSeeds;
use tessera_core::{Game, PlayerId, Turn};
use tessera_house::ArenaGame;
use tessera_house::handle::AgentHandle;
use tessera_qwirkle::Qwirkle;

use crate::args::{ActionId, Count, Seed, describe_value, list_legal, restorer};
use crate::azul;
use crate::batch::{Autoreset, Batch, BatchError, BatchGame, Outputs};
use crate::driver::{GameInPlay, StepError};
use crate::qwirkle::{self, NUM_ACTIONS, QwirkleStepError, QwirkleTable};
use crate::qwirkle_batch::QwirkleSlot;
use crate::tiles::TilesTable;

/// The most games an `AzulBatch` holds (2**20): its arrays alone take about 1.5 KB a game
/// at 4 players, so this is about 1.6 GB; more is refused before anything is allocated.
pub const MAX_BATCH: i64 = 1 << 20;

/// The most games a `QwirkleBatch` holds (2**14): a game's observation row alone is about
/// 93 KB, its mask and the game's own mask copy 12 KB, so this is about 1.7 GB; more is
/// refused before anything is allocated.
pub const MAX_QWIRKLE_BATCH: i64 = 1 << 14;

/// Checks a seed as every entry point does and returns it (`tessera.envs` and
/// `tessera.openspiel` call it on the seeds they are given).
#[pyfunction]
fn _check_seed(seed: Seed) -> u64 {
    seed.0
}

/// `players` checked against game `G`'s seat range, as its registration states it.
fn check_players<G: Game>(players: Count) -> PyResult<usize> {
    let info = G::INFO;
    match players.usize() {
        Some(p) if info.seats_ok(p) => Ok(p),
        _ => Err(PyValueError::new_err(format!(
            "{} is for {} to {} players, not {}",
            info.title,
            info.min_players,
            info.max_players,
            players.text()
        ))),
    }
}

fn check_seat(seat: &Count, players: usize) -> PyResult<PlayerId> {
    match seat.usize() {
        Some(s) if s < players => Ok(PlayerId(s as u8)),
        _ => Err(PyValueError::new_err(format!(
            "seat {} does not exist: this game has seats 0 to {}",
            seat.text(),
            players - 1
        ))),
    }
}

fn turn_player(t: Turn) -> Option<usize> {
    match t {
        Turn::Player(p) => Some(p.index()),
        _ => None,
    }
}

/// The observation dict of the PettingZoo environments.
fn observe_dict<'py>(
    py: Python<'py>,
    observation: Bound<'py, PyArray1<f32>>,
    mask: Bound<'py, PyArray1<i8>>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(pyo3::intern!(py, "observation"), observation)?;
    d.set_item(pyo3::intern!(py, "action_mask"), mask)?;
    Ok(d)
}

fn returns_of<G: Game>(state: &G) -> Vec<f64> {
    match state.outcome() {
        Some(o) => o.rewards().as_slice().to_vec(),
        None => vec![0.0; state.num_players()],
    }
}

/// An Azul game (2-4 players) with fixed action ids: `step(id)` applies the action and
/// deals the next round's factories itself, from the seed given to `reset`.
#[pyclass(module = "tessera._tessera", name = "AzulGame")]
#[derive(Clone)]
pub struct PyAzul {
    session: GameInPlay<AzulState>,
    buf: Vec<AzulAction>,
}

impl PyAzul {
    /// A handle of a game under way.
    pub(crate) fn from_session(session: GameInPlay<AzulState>) -> Self {
        PyAzul {
            session,
            buf: Vec::new(),
        }
    }

    fn start(initial: AzulState, seed: u64) -> PyResult<GameInPlay<AzulState>> {
        GameInPlay::new(initial, seed).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    fn state(&self) -> &AzulState {
        self.session.state()
    }

    fn legal_ids(&mut self) -> Vec<usize> {
        let st = self.session.state();
        st.legal_actions(&mut self.buf);
        let mut ids: Vec<usize> = self.buf.iter().map(|&a| azul::encode(a)).collect();
        ids.sort_unstable();
        ids
    }
}

#[pymethods]
impl PyAzul {
    /// A new game: `players` 2-4; the starting player and every deal come from `seed`
    /// (the same streams as `tessera play azul --seed`).
    #[new]
    #[pyo3(signature = (players = Count::of(2), seed = Seed(0)))]
    fn new(players: Count, seed: Seed) -> PyResult<Self> {
        let seed = seed.0;
        let players = check_players::<AzulState>(players)?;
        // Set up as the registration sets up a game of this seed (`tessera.make("azul")`
        // and a tournament's game of the same seed start alike).
        let initial = AzulState::new_game(players, &mut GameSeeds { seed }.setup_rng());
        Ok(PyAzul {
            session: Self::start(initial, seed)?,
            buf: Vec::new(),
        })
    }

    /// A game resumed from a state in notation (docs/notation.md); later deals from `seed`.
    #[staticmethod]
    #[pyo3(signature = (text, seed = Seed(0)))]
    fn from_notation(text: &str, seed: Seed) -> PyResult<Self> {
        let seed = seed.0;
        let initial: AzulState = text
            .parse()
            .map_err(|e| PyValueError::new_err(format!("Azul state: {e}")))?;
        Ok(PyAzul {
            session: Self::start(initial, seed)?,
            buf: Vec::new(),
        })
    }

    /// Starts a new game with the same player count from `seed`.
    fn reset(&mut self, seed: Seed) -> PyResult<()> {
        let seed = seed.0;
        let players = self.state().num_players();
        let initial = AzulState::new_game(players, &mut GameSeeds { seed }.setup_rng());
        self.session = Self::start(initial, seed)?;
        Ok(())
    }

    /// Players at the table.
    #[getter]
    fn players(&self) -> usize {
        self.state().num_players()
    }

    /// The seed of the current game.
    #[getter]
    fn seed(&self) -> u64 {
        self.session.seed()
    }

    /// Number of action ids: `(2 * players + 2) * 30`.
    #[getter]
    fn num_actions(&self) -> usize {
        azul::num_actions(self.players())
    }

    /// Length of an observation vector.
    #[getter]
    fn observation_len(&self) -> usize {
        azul::observation_len(self.players())
    }

    /// The seat to move, or None once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        turn_player(self.state().turn())
    }

    /// True while a chance event is pending (never between calls: `step` resolves chance).
    #[getter]
    fn is_chance(&self) -> bool {
        self.state().turn() == Turn::Chance
    }

    /// True once the game is over.
    #[getter]
    fn is_terminal(&self) -> bool {
        self.state().is_terminal()
    }

    /// The round, from 1.
    #[getter]
    fn round(&self) -> u32 {
        self.state().round()
    }

    /// The legal action ids, ascending.
    fn legal_actions(&mut self) -> Vec<usize> {
        self.legal_ids()
    }

    /// The action mask: int8 array of length `num_actions`, 1 where the id is legal.
    fn action_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let out = PyArray1::<i8>::zeros(py, [self.num_actions()], false);
        {
            let mut w = out.readwrite();
            if let Ok(m) = w.as_slice_mut() {
                azul::write_mask_direct(self.session.state(), m, 0, 1);
            }
        }
        out
    }

    /// Plays action `action` (an id) for the player to move, then deals if a round ended.
    /// Returns the seat to move next, or None once the game is over (`current_player`).
    /// Raises ValueError for an id out of range, an illegal action or a finished game.
    fn step(&mut self, action: ActionId) -> PyResult<Option<usize>> {
        let action = action.0;
        let players = self.players();
        let a = azul::decode(action, players).map_err(|e| PyValueError::new_err(e.to_string()))?;
        match self.session.step(a) {
            Ok(()) => Ok(self.current_player()),
            Err(StepError::Chance(e)) => Err(PyRuntimeError::new_err(e.to_string())),
            Err(e) => {
                let legal = self.legal_ids();
                Err(PyValueError::new_err(format!(
                    "action {action} ({a}) is not legal: {e}; legal now: {}",
                    list_legal(legal.into_iter().map(|id| {
                        let text = azul::decode(id as i64, players)
                            .map(|x| x.to_string())
                            .unwrap_or_default();
                        (id, text)
                    }))
                )))
            }
        }
    }

    /// The state in notation (docs/notation.md).
    fn notation(&self) -> String {
        self.state().to_string()
    }

    /// Seat `seat`'s observation: float32 vector of length `observation_len` (layout in
    /// docs/python.md).
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Count,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = check_seat(&seat, self.players())?;
        let out = PyArray1::<f32>::zeros(py, [self.observation_len()], false);
        {
            let mut w = out.readwrite();
            let o = w
                .as_slice_mut()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            azul::write_observation(self.state(), p, o);
        }
        Ok(out)
    }

    /// Seat `seat`'s PettingZoo observation in one call: `{"observation": observation(seat),
    /// "action_mask": mask}`, the mask being `action_mask()` if `seat` is to move and all
    /// zeros otherwise. Fresh arrays each call.
    fn observe<'py>(&mut self, py: Python<'py>, seat: Count) -> PyResult<Bound<'py, PyDict>> {
        let p = check_seat(&seat, self.players())?;
        let observation = self.observation(py, seat)?;
        let mask = if self.current_player() == Some(p.index()) {
            self.action_mask(py)
        } else {
            PyArray1::<i8>::zeros(py, [self.num_actions()], false)
        };
        observe_dict(py, observation, mask)
    }

    /// Scores, seat 0 first.
    fn scores(&self) -> Vec<i32> {
        self.state().scores().as_slice().to_vec()
    }

    /// Returns per seat once the game is over (1 for a sole win, 1/k for a win shared by k,
    /// 0 otherwise); zeros before.
    fn returns(&self) -> Vec<f64> {
        returns_of(self.state())
    }

    /// The winners (seats) once the game is over.
    fn winners(&self) -> Vec<usize> {
        self.state()
            .outcome()
            .map(|o| o.winners.iter().map(|p| p.index()).collect())
            .unwrap_or_default()
    }

    /// The notation of action id `action` (`3Y2`).
    fn action_to_string(&self, action: ActionId) -> PyResult<String> {
        let action = action.0;
        azul::decode(action, self.players())
            .map(|a| a.to_string())
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The id of an action in notation (`3Y2`).
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        let a: AzulAction = text
            .parse()
            .map_err(|e| PyValueError::new_err(format!("Azul action: {e}")))?;
        let id = azul::encode(a);
        if id >= self.num_actions() {
            return Err(PyValueError::new_err(format!(
                "Azul action {a}: a {}-player game has factories 1 to {}",
                self.players(),
                tessera_azul::num_factories(self.players())
            )));
        }
        Ok(id)
    }

    /// Seat `seat`'s observation written into `out`, a C-contiguous float32 array of length
    /// `observation_len` (no allocation).
    fn observation_into(&self, seat: Count, mut out: PyReadwriteArray1<'_, f32>) -> PyResult<()> {
        let p = check_seat(&seat, self.players())?;
        let n = self.observation_len();
        let out = out
            .as_slice_mut()
            .map_err(|_| PyValueError::new_err("out: expected a C-contiguous float32 array"))?;
        if out.len() != n {
            return Err(PyValueError::new_err(format!(
                "out: expected length {n} (observation_len), got {}",
                out.len()
            )));
        }
        azul::write_observation(self.state(), p, out);
        Ok(())
    }

    /// The action mask written into `out`, a C-contiguous int8 array of length `num_actions`.
    fn action_mask_into(&mut self, mut out: PyReadwriteArray1<'_, i8>) -> PyResult<()> {
        let n = self.num_actions();
        let out = out
            .as_slice_mut()
            .map_err(|_| PyValueError::new_err("out: expected a C-contiguous int8 array"))?;
        if out.len() != n {
            return Err(PyValueError::new_err(format!(
                "out: expected length {n} (num_actions), got {}",
                out.len()
            )));
        }
        out.fill(0);
        self.session.state().legal_actions(&mut self.buf);
        for &a in &self.buf {
            out[azul::encode(a)] = 1;
        }
        Ok(())
    }

    /// Draws the deals from now on from seed `seed` instead (the state is unchanged): search
    /// over sampled deals reseeds its copies so that they do not all see the same future.
    fn reseed_chance(&mut self, seed: Seed) {
        let seed = seed.0;
        self.session.reseed_chance(seed);
    }

    /// An independent copy (same state, same future deals).
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Pickling: the state in notation, the seed and the chance generator's position
    /// (`tessera._tessera._restore` rebuilds it: the same state with the same future deals).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        Ok((
            restorer(py)?,
            ("azul", crate::driver::snapshot(&self.session, "azul")),
        ))
    }

    fn __repr__(&self) -> String {
        format!("AzulGame('{}')", self.state())
    }

    /// The table as a PNG picture (`tessera.render.azul_rgb`), which Jupyter shows for a
    /// handle.
    fn _repr_png_<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let render = slf.py().import("tessera.render")?;
        let image = render.getattr("azul_rgb")?.call1((slf,))?;
        render.getattr("png_bytes")?.call1((image,))
    }

    fn __str__(&self) -> String {
        self.state().to_string()
    }
}

/// A Qwirkle game (2-4 players) played tile by tile with fixed ids (docs/python.md): draws
/// happen inside `step`, from the seed given to `reset`.
#[pyclass(module = "tessera._tessera", name = "QwirkleGame")]
#[derive(Clone)]
pub struct PyQwirkle {
    table: QwirkleTable,
}

impl PyQwirkle {
    /// A handle of a game under way.
    pub(crate) fn from_table(table: QwirkleTable) -> Self {
        PyQwirkle { table }
    }
}

fn qwirkle_err(t: &QwirkleTable, e: QwirkleStepError) -> PyErr {
    match e {
        QwirkleStepError::Internal(m) => PyRuntimeError::new_err(m),
        e => {
            let mut mask = vec![0u8; NUM_ACTIONS];
            t.write_mask(&mut mask);
            let legal = (0..NUM_ACTIONS)
                .filter(|&i| mask[i] == 1)
                .map(|i| (i, t.describe(i)));
            PyValueError::new_err(format!("{e}; legal now: {}", list_legal(legal)))
        }
    }
}

#[pymethods]
impl PyQwirkle {
    /// A new game of `players` 2-4; the deal and every draw come from `seed`.
    #[new]
    #[pyo3(signature = (players = Count::of(2), seed = Seed(0)))]
    fn new(players: Count, seed: Seed) -> PyResult<Self> {
        let seed = seed.0;
        let players = check_players::<Qwirkle>(players)?;
        let table =
            QwirkleTable::new(players, seed).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(PyQwirkle { table })
    }

    /// A game resumed from a state in notation; later draws from `seed`.
    #[staticmethod]
    #[pyo3(signature = (text, seed = Seed(0)))]
    fn from_notation(text: &str, seed: Seed) -> PyResult<Self> {
        let seed = seed.0;
        let s: Qwirkle = text
            .parse()
            .map_err(|e| PyValueError::new_err(format!("Qwirkle state: {e}")))?;
        let table = QwirkleTable::from_state(s, seed)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(PyQwirkle { table })
    }

    /// Starts a new game with the same player count from `seed`.
    fn reset(&mut self, seed: Seed) -> PyResult<()> {
        let seed = seed.0;
        let players = self.players();
        self.table =
            QwirkleTable::new(players, seed).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(())
    }

    /// Players at the table.
    #[getter]
    fn players(&self) -> usize {
        self.table.state().num_players()
    }

    /// Number of action ids (5831 at every player count).
    #[getter]
    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    /// Length of an observation vector.
    #[getter]
    fn observation_len(&self) -> usize {
        QwirkleTable::observation_len(self.players())
    }

    /// The seat to move, or None once the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        turn_player(self.table.state().turn())
    }

    /// True while a chance event is pending (never between calls: `step` resolves chance).
    #[getter]
    fn is_chance(&self) -> bool {
        self.table.state().turn() == Turn::Chance
    }

    /// True once the game is over.
    #[getter]
    fn is_terminal(&self) -> bool {
        self.table.state().is_terminal()
    }

    /// The centre `(x, y)` of this turn's 31 x 31 window.
    #[getter]
    fn frame(&self) -> (i32, i32) {
        self.table.frame()
    }

    /// The pending tiles of the placement being built: `(hand slot, "R1@x,y")`.
    fn pending(&self) -> Vec<(u8, String)> {
        self.table
            .pending()
            .iter()
            .map(|(s, c)| (*s, c.to_string()))
            .collect()
    }

    /// The legal action ids, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        let mut mask = vec![0u8; NUM_ACTIONS];
        self.table.write_mask(&mut mask);
        (0..NUM_ACTIONS).filter(|&i| mask[i] == 1).collect()
    }

    /// The action mask: int8 array of length `num_actions`, 1 where the id is legal.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = vec![0u8; NUM_ACTIONS];
        self.table.write_mask(&mut mask);
        mask.into_iter()
            .map(|b| b as i8)
            .collect::<Vec<i8>>()
            .into_pyarray(py)
    }

    /// Plays step `action` (an id) for the player to move. Returns the seat to move next,
    /// or None once the game is over (`current_player`). Raises ValueError for an id out of
    /// range, an illegal step or a finished game.
    fn step(&mut self, action: ActionId) -> PyResult<Option<usize>> {
        let action = action.0;
        self.table
            .step(action)
            .map_err(|e| qwirkle_err(&self.table, e))?;
        Ok(self.current_player())
    }

    /// What an id means now, in words.
    fn describe(&self, action: ActionId) -> PyResult<String> {
        let action = action.0;
        qwirkle::decode(action).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(self.table.describe(action as usize))
    }

    /// The full state in notation: every hand is in it (a spectator's or a referee's view).
    fn notation(&self) -> String {
        self.table.state().to_string()
    }

    /// What seat `seat` may see, as JSON (board, own hand, hand sizes, bag size, scores).
    fn view_json(&self, seat: Count) -> PyResult<String> {
        let p = check_seat(&seat, self.players())?;
        serde_json::to_string(&self.table.state().view(p))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// Seat `seat`'s observation: float32 vector of length `observation_len` (layout in
    /// docs/python.md); built from the seat's view only.
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Count,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let p = check_seat(&seat, self.players())?;
        let mut out = vec![0f32; self.observation_len()];
        self.table.write_observation(p, &mut out);
        Ok(out.into_pyarray(py))
    }

    /// Seat `seat`'s PettingZoo observation in one call: `{"observation": observation(seat),
    /// "action_mask": mask}`, the mask being `action_mask()` if `seat` is to move and all
    /// zeros otherwise. Fresh arrays each call.
    fn observe<'py>(&self, py: Python<'py>, seat: Count) -> PyResult<Bound<'py, PyDict>> {
        let p = check_seat(&seat, self.players())?;
        let observation = self.observation(py, seat)?;
        let mask = if self.current_player() == Some(p.index()) {
            self.action_mask(py)
        } else {
            PyArray1::<i8>::zeros(py, [NUM_ACTIONS], false)
        };
        observe_dict(py, observation, mask)
    }

    /// Scores, seat 0 first.
    fn scores(&self) -> Vec<i32> {
        self.table.state().scores().as_slice().to_vec()
    }

    /// Returns per seat once the game is over (1 for a sole win, 1/k for a win shared by k,
    /// 0 otherwise); zeros before.
    fn returns(&self) -> Vec<f64> {
        returns_of(self.table.state())
    }

    /// The winners (seats) once the game is over.
    fn winners(&self) -> Vec<usize> {
        self.table
            .state()
            .outcome()
            .map(|o| o.winners.iter().map(|p| p.index()).collect())
            .unwrap_or_default()
    }

    /// The last whole move played: `(seat, public text, full text)`, or None before the
    /// first. The texts differ for a trade only: `trade 2` (what the table sees) and
    /// `trade R1 O4` (what the trader knows).
    fn last_move(&self) -> Option<(usize, String, String)> {
        self.table.last_move().map(|(p, m)| {
            let public = match m {
                tessera_qwirkle::Move::Trade(t) => format!("trade {}", t.tiles().len()),
                m => m.to_string(),
            };
            (p.index(), public, m.to_string())
        })
    }

    /// A copy of this game in which what seat `seat` cannot see (the other hands, the bag)
    /// is resampled from `seed`, later draws from `seed` too. The seat's hand, the board and
    /// the scores stay; so do the pending tiles when `seat` is to move (otherwise they are
    /// dropped: only the mover sees them). For search over what a seat may know.
    fn determinize(&self, seat: Count, seed: Seed) -> PyResult<Self> {
        let seed = seed.0;
        let p = check_seat(&seat, self.players())?;
        let mut rng = tessera_core::rng::seeded(seed);
        self.table
            .determinize(p, &mut rng, seed)
            .map(|table| PyQwirkle { table })
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// Draws the tiles from now on from seed `seed` instead (the position is unchanged).
    fn reseed_chance(&mut self, seed: Seed) {
        let seed = seed.0;
        self.table.reseed_chance(seed);
    }

    /// An independent copy (same position, same future draws).
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Pickling: the state in notation, the seed, the chance generator's position, the
    /// pending tiles and the last move (`tessera._tessera._restore` rebuilds it).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        Ok((restorer(py)?, ("qwirkle", self.table.snapshot())))
    }

    fn __repr__(&self) -> String {
        format!("QwirkleGame('{}')", self.table.state())
    }
}

/// A registered agent's choices in progress.
struct AgentState {
    /// The agent, from its game's registration.
    handle: Box<dyn AgentHandle>,
    /// Qwirkle (step ids): the state at the start of the turn whose move was chosen, and
    /// the move's step ids, each with the pending tiles (hand slot, cell) before it.
    turn: Option<Qwirkle>,
    plan: Vec<(Vec<(u8, tessera_qwirkle::Placed)>, usize)>,
}

/// One of our agents, built from a registry spec of any registered game (`tessera agents`
/// and `tessera.agents(game)` list them).
#[pyclass(module = "tessera._tessera", name = "Agent")]
pub struct PyAgent {
    spec: String,
    game: &'static str,
    inner: Mutex<AgentState>,
}

impl PyAgent {
    fn build(spec: &str, game: &str, seed: u64) -> PyResult<Self> {
        let d = crate::game::game_driver(game)?;
        let handle = d
            .agent(spec, seed)
            .map_err(|e| PyValueError::new_err(format!("agent '{spec}': {e}")))?;
        Ok(PyAgent {
            spec: spec.to_string(),
            game: d.name(),
            inner: Mutex::new(AgentState {
                handle,
                turn: None,
                plan: Vec::new(),
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, AgentState> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The TypeError for a handle this agent cannot play: what it takes, and what it got.
    fn expected(&self, got: String) -> PyErr {
        let what = match self.game {
            "azul" => "an AzulGame or a tessera.Game of azul".to_string(),
            "qwirkle" => "a QwirkleGame or a tessera.Game of qwirkle".to_string(),
            other => format!("a tessera.Game of {other}"),
        };
        PyTypeError::new_err(format!(
            "agent {} plays {}: expected {what}, got {got}",
            self.spec, self.game
        ))
    }

    /// The agent's choice for the player to move in `state` (a `&G` of its game), thought
    /// with the GIL released, through its seat's table ([`AgentHandle::act_on`]).
    fn choose<A: Copy + 'static>(
        py: Python<'_>,
        agent: &mut AgentState,
        state: Box<dyn std::any::Any + Send>,
    ) -> PyResult<A> {
        let handle = &mut agent.handle;
        let chosen = py
            .detach(move || handle.act_on(state.as_ref()))
            .map_err(crate::game::handle_err)?;
        chosen
            .downcast_ref::<A>()
            .copied()
            .ok_or_else(|| PyRuntimeError::new_err("the agent answered for another game"))
    }
}

#[pymethods]
impl PyAgent {
    /// An agent of registered game `game` (`azul`, `qwirkle`, `nim`, ...) from its spec
    /// (`strong:time=100ms`, `smart`, `random`); its own random choices come from `seed`.
    #[new]
    #[pyo3(signature = (spec, game = "azul", seed = Seed(0)))]
    fn new(spec: &str, game: &str, seed: Seed) -> PyResult<Self> {
        Self::build(spec, game, seed.0)
    }

    /// The agent's spec.
    #[getter]
    fn name(&self) -> String {
        self.spec.clone()
    }

    /// The agent's game (`azul`, `qwirkle`, ...).
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    /// The agent's budget per move, from its spec (`time=`, `nodes=`, `depth=`) or the
    /// registry's default: `{"time_ms", "nodes", "depth"}`, absent keys unlimited.
    fn budget<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let b = self.lock().handle.budget();
        let d = PyDict::new(py);
        if let Some(t) = b.time {
            d.set_item("time_ms", t.as_millis() as u64)?;
        }
        if let Some(n) = b.nodes {
            d.set_item("nodes", n)?;
        }
        if let Some(n) = b.depth {
            d.set_item("depth", n)?;
        }
        Ok(d)
    }

    /// The action id the agent picks for the player to move in `game`: a `tessera.Game` of
    /// its game (an id of its `legal_moves()`), or an `AzulGame` / a `QwirkleGame` (a fixed
    /// id; e.g. `env.unwrapped.game`). It sits at a table of the position with its spec's
    /// budget and the table hands out its thinking (the state the seat may see, determinized)
    /// with the GIL released. In a `QwirkleGame` a move takes several step ids: the agent
    /// chooses the move at the first step of the turn and returns its ids one call at a time.
    fn act(&self, py: Python<'_>, game: &Bound<'_, PyAny>) -> PyResult<usize> {
        let mut agent = self.lock();
        if let Ok(g) = game.cast::<crate::game::PyGame>() {
            let (state, name) = {
                let h = g.borrow();
                let h = h.lock();
                (h.state_any(), h.info().name)
            };
            if name != self.game {
                return Err(self.expected(format!("a Game of {name}")));
            }
            let handle = &mut agent.handle;
            let chosen = py
                .detach(move || handle.act_on(state.as_ref()))
                .map_err(crate::game::handle_err)?;
            let g = g.borrow();
            return g
                .lock()
                .action_id(chosen.as_ref())
                .map_err(crate::game::handle_err);
        }
        if let Ok(g) = game.cast::<PyAzul>() {
            if self.game != "azul" {
                return Err(self.expected(describe_value(game)));
            }
            let state = g.borrow().state().clone();
            let a: AzulAction = Self::choose(py, &mut agent, Box::new(state))?;
            return Ok(azul::encode(a));
        }
        if let Ok(g) = game.cast::<PyQwirkle>() {
            if self.game != "qwirkle" {
                return Err(self.expected(describe_value(game)));
            }
            let g = g.borrow();
            let t = &g.table;
            if t.mover().is_none() {
                return Err(PyValueError::new_err(
                    "the game is over: no action can be chosen",
                ));
            }
            if !t.pending().is_empty() {
                // The rest of the move chosen at the start of this turn.
                if agent.turn.as_ref() == Some(t.state())
                    && let Some((_, id)) =
                        agent.plan.iter().find(|(before, _)| before == t.pending())
                {
                    return Ok(*id);
                }
                return Err(PyValueError::new_err(format!(
                    "agent {}: a placement is pending that this agent did not start; it \
                     chooses whole moves, at the first step of a turn",
                    self.spec
                )));
            }
            let now = t.state().clone();
            let m: tessera_qwirkle::Move = Self::choose(py, &mut agent, Box::new(now.clone()))?;
            let ids = t.ids_of(&m).ok_or_else(|| {
                PyRuntimeError::new_err(format!(
                    "agent {} chose {m:?}, which cannot be played as step ids here \
                     (illegal, or a cell outside the 31 x 31 window)",
                    self.spec
                ))
            })?;
            // The pending tiles before each id: replayed on a copy.
            let mut copy = t.clone();
            agent.plan.clear();
            for &id in &ids {
                agent.plan.push((copy.pending().to_vec(), id));
                copy.step(id as i64)
                    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            }
            agent.turn = Some(now);
            return Ok(ids[0]);
        }
        Err(self.expected(describe_value(game)))
    }

    /// What the agent reported of its last choice, if it reports anything (searching
    /// agents do): `{"depth", "nodes", "leaves", "value", "seconds"}`; None otherwise.
    fn last_info<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(info) = self.lock().handle.last_info() else {
            return Ok(None);
        };
        let d = PyDict::new(py);
        d.set_item("depth", info.depth)?;
        d.set_item("nodes", info.nodes)?;
        d.set_item("leaves", info.leaves)?;
        d.set_item("value", info.value)?;
        d.set_item("seconds", info.elapsed.as_secs_f64())?;
        Ok(Some(d))
    }

    /// Pickling: the game, the spec and the agent's generator's position (rebuilt from the
    /// registry on unpickling, it draws what the original would have drawn next). A
    /// `QwirkleGame` move half played is not kept: pickle between moves.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        let rng = crate::driver::ChanceState::of(self.lock().handle.rng()).to_text();
        let text = serde_json::json!({"game": self.game, "spec": self.spec, "rng": rng});
        Ok((restorer(py)?, ("agent", text.to_string())))
    }

    fn __repr__(&self) -> String {
        format!("Agent('{}', game='{}')", self.spec, self.game)
    }
}

impl PyAgent {
    /// Rebuilds a pickled agent (`__reduce__`'s text).
    fn restore(text: &str) -> PyResult<Self> {
        let bad = |why: &str| PyValueError::new_err(format!("not a pickled agent: {why}"));
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
        let field = |name: &str| {
            v.get(name)
                .and_then(|x| x.as_str())
                .ok_or_else(|| bad(&format!("no text field '{name}'")))
        };
        let rng = crate::driver::ChanceState::from_text(field("rng")?)
            .ok_or_else(|| bad("rng: expected key:stream:word position"))?;
        let agent = Self::build(field("spec")?, field("game")?, 0)?;
        agent.lock().handle.set_rng(rng.rng());
        Ok(agent)
    }
}

/// A Match the Tiles level being played: a built-in level, one from level text, or one
/// drawn by the seeded generator.
#[pyclass(module = "tessera._tessera", name = "MatchTiles")]
pub struct PyTiles {
    table: TilesTable,
}

#[pymethods]
impl PyTiles {
    /// Built-in level `number` (1-12).
    #[staticmethod]
    fn builtin(number: Count) -> PyResult<Self> {
        let level = number
            .usize()
            .and_then(tessera_tiles::builtin_level)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "level {} does not exist: the built-in levels are 1 to {}",
                    number.text(),
                    tessera_tiles::NUM_LEVELS
                ))
            })?;
        Ok(PyTiles {
            table: TilesTable::new(level.clone()),
        })
    }

    /// Level `index` (from 0) of a text in the level format (docs/tiles.md).
    #[staticmethod]
    #[pyo3(signature = (text, index = Count::of(0)))]
    fn from_text(text: &str, index: Count) -> PyResult<Self> {
        let given = index.text();
        let index = index.usize().unwrap_or(usize::MAX);
        let levels = tessera_tiles::parse_levels(text)
            .map_err(|e| PyValueError::new_err(format!("level text: {e}")))?;
        let n = levels.len();
        let level = levels.into_iter().nth(index).ok_or_else(|| {
            PyValueError::new_err(format!(
                "level index {given}: the text holds {n} level(s), indices 0 to {}",
                n.saturating_sub(1)
            ))
        })?;
        Ok(PyTiles {
            table: TilesTable::new(level),
        })
    }

    /// A square level of `side` cells with `colours` colours (one piece each) and optimum
    /// `optimal`, drawn by the seeded generator from `seed`.
    #[staticmethod]
    #[pyo3(signature = (side, colours, optimal, seed = Seed(0)))]
    fn generate(
        py: Python<'_>,
        side: Count,
        colours: Count,
        optimal: Count,
        seed: Seed,
    ) -> PyResult<Self> {
        let seed = seed.0;
        let size = |name: &str, c: &Count| {
            c.usize().ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{name} {}: expected a non-negative integer",
                    c.text()
                ))
            })
        };
        let optimal = u32::try_from(size("optimal", &optimal)?)
            .map_err(|_| PyValueError::new_err(format!("optimal {}: too large", optimal.text())))?;
        let cfg = tessera_tiles::generator::GenConfig::new(
            size("side", &side)?,
            size("colours", &colours)?,
            optimal,
        );
        let level = py
            .detach(|| {
                tessera_tiles::generator::generate(&cfg, &mut tessera_core::rng::seeded(seed))
            })
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyTiles {
            table: TilesTable::new(level),
        })
    }

    /// Back to the level's start.
    fn reset(&mut self) {
        self.table.reset();
    }

    /// Plays move `action` (0 L, 1 R, 2 U, 3 D); returns whether any piece moved.
    fn step(&mut self, action: ActionId) -> PyResult<bool> {
        let action = action.0;
        self.table
            .step(action)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// True when every piece is on a target of its colour.
    #[getter]
    fn is_solved(&self) -> bool {
        self.table.is_solved()
    }

    /// Moves made since the start.
    #[getter]
    fn moves(&self) -> u32 {
        self.table.moves()
    }

    /// Columns.
    #[getter]
    fn width(&self) -> usize {
        self.table.level().width()
    }

    /// Rows.
    #[getter]
    fn height(&self) -> usize {
        self.table.level().height()
    }

    /// The level's known optimum, if the level records one.
    #[getter]
    fn known_optimal(&self) -> Option<u32> {
        self.table.level().known_optimal()
    }

    /// The observation: float32 planes (obstacles, pieces of colour 0-7, targets of colour
    /// 0-7), flat, row-major; reshape to `(17, height, width)`.
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let mut out = vec![0f32; self.table.observation_len()];
        self.table.write_observation(&mut out);
        out.into_pyarray(py)
    }

    /// The grid as text: `#` obstacle, upper case piece, lower case target, `.` empty.
    fn render(&self) -> String {
        self.table.level().render(self.table.state())
    }

    /// An independent copy (same level, same position).
    fn copy(&self) -> Self {
        PyTiles {
            table: self.table.clone(),
        }
    }

    fn __copy__(&self) -> Self {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy()
    }

    /// Pickling: the level in the level format and the moves played since its start.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (&'static str, String))> {
        Ok((restorer(py)?, ("tiles", self.table.snapshot())))
    }
}

/// Rebuilds a pickled handle: `kind` is `azul`, `qwirkle`, `tiles`, `game` (a
/// `tessera.Game`) or `agent`, `text` what its
/// `__reduce__` wrote. ValueError if the text is not one.
#[pyfunction]
fn _restore(py: Python<'_>, kind: &str, text: &str) -> PyResult<Py<PyAny>> {
    let bad = |e: &dyn std::fmt::Display| PyValueError::new_err(e.to_string());
    Ok(match kind {
        "azul" => {
            let session = crate::driver::restore::<AzulState>(text, "azul").map_err(|e| bad(&e))?;
            Py::new(py, PyAzul::from_session(session))?.into_any()
        }
        "qwirkle" => {
            let table = QwirkleTable::restore(text).map_err(|e| bad(&e))?;
            Py::new(py, PyQwirkle { table })?.into_any()
        }
        "tiles" => {
            let table = TilesTable::restore(text).map_err(|e| bad(&e))?;
            Py::new(py, PyTiles { table })?.into_any()
        }
        "game" => Py::new(py, crate::game::PyGame::restore(text)?)?.into_any(),
        "agent" => Py::new(py, PyAgent::restore(text)?)?.into_any(),
        other => {
            return Err(PyValueError::new_err(format!(
                "pickled handle kind '{other}': expected azul, qwirkle, tiles, game or agent"
            )));
        }
    })
}

fn batch_err(e: BatchError) -> PyErr {
    match e {
        BatchError::Internal { .. } => PyRuntimeError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// The batch's output arrays, borrowed for writing.
struct Guards<'py> {
    obs: PyReadwriteArray2<'py, f32>,
    mask: PyReadwriteArray2<'py, i8>,
    rewards: PyReadwriteArray2<'py, f32>,
    dones: PyReadwriteArray1<'py, bool>,
    to_move: PyReadwriteArray1<'py, i64>,
}

fn contiguous<T>(r: Result<T, numpy::AsSliceError>) -> PyResult<T> {
    r.map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

impl Guards<'_> {
    fn outputs(&mut self) -> PyResult<Outputs<'_>> {
        Ok(Outputs {
            obs: contiguous(self.obs.as_slice_mut())?,
            mask: contiguous(self.mask.as_slice_mut())?,
            rewards: contiguous(self.rewards.as_slice_mut())?,
            dones: contiguous(self.dones.as_slice_mut())?,
            to_move: contiguous(self.to_move.as_slice_mut())?,
        })
    }
}

/// The Python side of a [`Batch`] of any game: the batch and its numpy arrays (written in
/// place by every step). `AzulBatch` and `QwirkleBatch` are thin classes over it.
struct BatchArrays<E: BatchGame> {
    core: Batch<E>,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<i8>>,
    rewards: Py<PyArray2<f32>>,
    dones: Py<PyArray1<bool>>,
    to_move: Py<PyArray1<i64>>,
    sampled: Py<PyArray1<i64>>,
}

/// A batch's size and shape as Python gives them, checked before anything is allocated.
struct BatchArgs<'a> {
    n: Count,
    players: usize,
    seed: u64,
    threads: Option<Count>,
    autoreset: &'a str,
    /// One seed per game instead of `seed + i`.
    seeds: Option<Vec<Seed>>,
    /// The most games (`MAX_BATCH`, `MAX_QWIRKLE_BATCH`) and how the error names the batch
    /// and the limit.
    max: i64,
    what: &'static str,
    limit: &'static str,
}

impl<E: BatchGame> BatchArrays<E> {
    fn new(py: Python<'_>, args: BatchArgs<'_>) -> PyResult<Self> {
        let mode = match args.autoreset {
            "same_step" => Autoreset::SameStep,
            "next_step" => Autoreset::NextStep,
            other => {
                return Err(PyValueError::new_err(format!(
                    "autoreset {other:?}: expected \"same_step\" or \"next_step\""
                )));
            }
        };
        let max = args.max;
        if args.n.overflow || !(1..=max).contains(&args.n.value) {
            return Err(PyValueError::new_err(format!(
                "n {}: {} holds 1 to {max} games ({})",
                args.n.text(),
                args.what,
                args.limit
            )));
        }
        let threads = match args.threads {
            None => std::thread::available_parallelism().map_or(1, |t| t.get()),
            Some(t) if !t.overflow && t.value >= 1 => t.value as usize,
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "threads {}: expected a positive number or None",
                    t.text()
                )));
            }
        };
        let (n, players) = (args.n.value as usize, args.players);
        let seeds: Vec<u64> = match args.seeds {
            None => (0..n as u64).map(|i| args.seed.wrapping_add(i)).collect(),
            Some(v) if v.len() == n => v.into_iter().map(|s| s.0).collect(),
            Some(v) => {
                return Err(PyValueError::new_err(format!(
                    "seeds: expected n = {n} seeds (one per game), got {}",
                    v.len()
                )));
            }
        };
        let core = py
            .detach(|| Batch::<E>::with_seeds(&seeds, players, threads))
            .map_err(PyValueError::new_err)?
            .with_autoreset(mode);
        let (olen, na) = (core.observation_len(), core.num_actions());
        let mut b = BatchArrays {
            obs: PyArray2::zeros(py, [n, olen], false).unbind(),
            mask: PyArray2::zeros(py, [n, na], false).unbind(),
            rewards: PyArray2::zeros(py, [n, players], false).unbind(),
            dones: PyArray1::from_vec(py, vec![false; n]).unbind(),
            to_move: PyArray1::zeros(py, [n], false).unbind(),
            sampled: PyArray1::zeros(py, [n], false).unbind(),
            core,
        };
        {
            let mut g = b.guards(py);
            b.core.observe(g.outputs()?).map_err(batch_err)?;
        }
        Ok(b)
    }

    fn guards<'py>(&self, py: Python<'py>) -> Guards<'py> {
        Guards {
            obs: self.obs.bind(py).readwrite(),
            mask: self.mask.bind(py).readwrite(),
            rewards: self.rewards.bind(py).readwrite(),
            dones: self.dones.bind(py).readwrite(),
            to_move: self.to_move.bind(py).readwrite(),
        }
    }

    fn result<'py>(&self, py: Python<'py>) -> Bound<'py, PyTuple> {
        PyTuple::new(
            py,
            [
                self.obs.bind(py).as_any(),
                self.mask.bind(py).as_any(),
                self.rewards.bind(py).as_any(),
                self.dones.bind(py).as_any(),
                self.to_move.bind(py).as_any(),
            ],
        )
        .expect("a tuple of five arrays")
    }

    fn autoreset(&self) -> &'static str {
        match self.core.autoreset() {
            Autoreset::SameStep => "same_step",
            Autoreset::NextStep => "next_step",
        }
    }

    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let n = self.core.len();
        let arr = actions.cast::<PyArray1<i64>>().map_err(|_| {
            PyTypeError::new_err(format!(
                "actions: expected a 1-D numpy int64 array of length {n}, got {}",
                describe_value(actions)
            ))
        })?;
        let acts = arr.readonly();
        let acts = acts.as_slice().map_err(|_| {
            PyValueError::new_err(
                "actions: expected a C-contiguous array (use np.ascontiguousarray)",
            )
        })?;
        let mut g = self.guards(py);
        let out = g.outputs()?;
        let core = &mut self.core;
        py.detach(|| core.step(acts, out)).map_err(batch_err)?;
        drop(g);
        Ok(self.result(py))
    }

    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        {
            let mut s = self.sampled.bind(py).readwrite();
            let out = s
                .as_slice_mut()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            self.core.sample_legal(out).map_err(batch_err)?;
        }
        Ok(self.sampled.bind(py).clone())
    }

    /// Game `i`, or a ValueError naming the games that exist.
    fn game(&self, i: i64) -> PyResult<(&E, u64)> {
        usize::try_from(i)
            .ok()
            .and_then(|i| Some((self.core.game(i)?, self.core.game_seed(i)?)))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "game {i} does not exist: this batch has games 0 to {}",
                    self.core.len() - 1
                ))
            })
    }
}

/// The pyclass of a batch: the same methods for every game, each a call into
/// [`BatchArrays`].
macro_rules! batch_class {
    (
        $(#[$doc:meta])*
        $class:ident, $name:literal, $game:ty, $state:ty,
        max = $max:expr, what = $what:literal, limit = $limit:literal,
        lone = $lone:literal
    ) => {
        $(#[$doc])*
        #[pyclass(module = "tessera._tessera", name = $name)]
        pub struct $class {
            inner: BatchArrays<$game>,
        }

        #[pymethods]
        impl $class {
            /// `n` games (1 to the class's most, see `tessera.batch`) of `players` (2-4);
            /// game `i`'s episode `e` starts from seed `s_i + e * n` (the lone game of that
            /// seed), `s_i` being `seed + i`, or `seeds[i]` when `seeds` (n seeds, one per
            /// game) is given; `threads` (default: the machine's cores) share the work. A larger
            /// `n` is a ValueError before anything is allocated. `autoreset`: `"same_step"`
            /// (a finished game's row shows the new game at once) or `"next_step"` (it first
            /// shows the final position, `to_move` -1 and an empty mask; the game's next step
            /// ignores its action and starts the new game).
            #[new]
            #[pyo3(signature = (n, players = Count::of(2), seed = Seed(0), threads = None, autoreset = "same_step", seeds = None))]
            #[allow(clippy::too_many_arguments)]
            fn new(
                py: Python<'_>,
                n: Count,
                players: Count,
                seed: Seed,
                threads: Option<Count>,
                autoreset: &str,
                seeds: Option<Vec<Seed>>,
            ) -> PyResult<Self> {
                let players = check_players::<$state>(players)?;
                let args = BatchArgs {
                    n,
                    players,
                    seed: seed.0,
                    threads,
                    autoreset,
                    seeds,
                    max: $max,
                    what: $what,
                    limit: $limit,
                };
                Ok($class {
                    inner: BatchArrays::new(py, args)?,
                })
            }

            /// Games in the batch.
            fn __len__(&self) -> usize {
                self.inner.core.len()
            }

            /// Players per game.
            #[getter]
            fn players(&self) -> usize {
                self.inner.core.players()
            }

            /// Action ids per game.
            #[getter]
            fn num_actions(&self) -> usize {
                self.inner.core.num_actions()
            }

            /// Observation length per game.
            #[getter]
            fn observation_len(&self) -> usize {
                self.inner.core.observation_len()
            }

            /// `"same_step"` or `"next_step"`: when finished games restart.
            #[getter]
            fn autoreset(&self) -> &'static str {
                self.inner.autoreset()
            }

            /// `(observations, masks, rewards, dones, to_move)` as they are now: the batch's
            /// own arrays (float32 `(n, observation_len)`, int8 `(n, num_actions)`, float32
            /// `(n, players)`, bool `(n,)`, int64 `(n,)`), overwritten by every `step`.
            fn arrays<'py>(&self, py: Python<'py>) -> Bound<'py, PyTuple> {
                self.inner.result(py)
            }

            /// Plays `actions[i]` in game `i` (a 1-D int64 numpy array of length `n`),
            /// restarts the games that ended, and returns `arrays()`: the observation and
            /// mask of each game's player to move, the returns of games that ended at this
            /// step (zeros elsewhere), which games ended, and the seat to move. Raises
            /// ValueError (nothing moves) for an illegal or out-of-range id, naming the game;
            /// TypeError for a non-int64 or non-1-D array.
            fn step<'py>(
                &mut self,
                py: Python<'py>,
                actions: &Bound<'py, PyAny>,
            ) -> PyResult<Bound<'py, PyTuple>> {
                self.inner.step(py, actions)
            }

            /// A uniformly random legal id per game (each game's own seeded generator; -1
            /// for a game waiting for its reset), in the batch's own int64 array
            /// (overwritten by the next call).
            fn sample_actions<'py>(
                &mut self,
                py: Python<'py>,
            ) -> PyResult<Bound<'py, PyArray1<i64>>> {
                self.inner.sample_actions(py)
            }

            /// Game `i`'s state in notation.
            fn notation(&self, i: i64) -> PyResult<String> {
                self.inner.game(i).map(|(g, _)| g.notation())
            }

            #[doc = concat!("The seed game `i`'s current game started from (`", $lone, "(players, seed)` replays it).")]
            fn game_seed(&self, i: i64) -> PyResult<u64> {
                self.inner.game(i).map(|(_, seed)| seed)
            }
        }
    };
}

batch_class!(
    /// Many Azul games stepped in one call (`tessera.batch.AzulBatch`, docs/python.md): numpy
    /// in, numpy out (preallocated arrays written in place), finished games restarted, the
    /// GIL released and the games split over threads while Rust works.
    PyAzulBatch, "AzulBatch", GameInPlay<AzulState>, AzulState,
    max = MAX_BATCH, what = "a batch", limit = "tessera.batch.MAX_GAMES",
    lone = "AzulGame"
);

batch_class!(
    /// Many Qwirkle games stepped in one call (`tessera.batch.QwirkleBatch`, docs/python.md),
    /// one step id each, as `AzulBatch` steps Azul games.
    PyQwirkleBatch, "QwirkleBatch", QwirkleSlot, Qwirkle,
    max = MAX_QWIRKLE_BATCH, what = "a Qwirkle batch", limit = "tessera.batch.MAX_QWIRKLE_GAMES",
    lone = "QwirkleGame"
);

/// Registers this file's classes and functions in the extension module (lib.rs's
/// `_tessera`).
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAzul>()?;
    m.add_class::<PyQwirkle>()?;
    m.add_class::<PyAgent>()?;
    m.add_class::<PyTiles>()?;
    m.add_class::<PyAzulBatch>()?;
    m.add_class::<PyQwirkleBatch>()?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    m.add_function(wrap_pyfunction!(_check_seed, m)?)?;
    m.add("MAX_BATCH", MAX_BATCH)?;
    m.add("MAX_QWIRKLE_BATCH", MAX_QWIRKLE_BATCH)?;
    m.add("QWIRKLE_WINDOW", qwirkle::WINDOW)?;
    m.add("QWIRKLE_TRADE_BASE", qwirkle::TRADE_BASE)?;
    m.add("QWIRKLE_PASS", qwirkle::PASS)?;
    m.add("QWIRKLE_END", qwirkle::END)?;
    Ok(())
}
