//! The games the arena can run, behind one object-safe interface.
//!
//! A game joins the arena by implementing [`ArenaGame`] (how to set up a table, which
//! players exist) and [`EngineGame`] (its engine-protocol notation), and adding
//! `Driver::<G>::boxed()` to [`drivers`]. Everything else
//! (schedule, runner, store, statistics) is game-independent. Games are played on a
//! [`tessera_core::Table`]; a run's agents are parsed once ([`GameDriver::lineup`]) and built
//! once per worker thread ([`Lineup::worker`]), then reused from game to game.

use std::marker::PhantomData;

use tessera_core::record::GameSeeds;
use tessera_core::table::{SeatFault, TableError};
use tessera_core::{Agent, Budget, Clock, GameInfo, GameRecord, Seat, Table, play_game};

use crate::error::ArenaError;
pub use crate::game::ArenaGame;
use crate::handle::{AgentHandle, GameHandle, HandleError, PlanAgent, TableHandle};
use crate::registry::{AgentInfo, AgentPlan, RegistryError};

/// One finished game, in game-independent form.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// Final scores, seat 0 first.
    pub scores: Vec<i32>,
    /// Winning seats (several for a shared win).
    pub winners: Vec<usize>,
    /// Number of actions played.
    pub actions: u32,
    /// The full game record as JSON ([`tessera_core::GameRecord`]).
    pub record: String,
    /// What went wrong in the agents' decisions without stopping the game (an external
    /// engine's timeouts and fallback moves), stored with the game.
    pub faults: Vec<SeatFault>,
}

/// A game behind an object-safe interface, so the command line picks it by name.
pub trait GameDriver: Send + Sync {
    /// The game's facts.
    fn info(&self) -> GameInfo;
    /// The game's name (`azul`, `nim`).
    fn name(&self) -> &'static str {
        self.info().name
    }
    /// Fewest and most seats.
    fn players(&self) -> (usize, usize) {
        let i = self.info();
        (i.min_players, i.max_players)
    }
    /// True for a test game ([`ArenaGame::TEST_GAME`]), which players are not offered.
    fn test_game(&self) -> bool {
        false
    }
    /// Its registered players.
    fn agents(&self) -> Vec<AgentInfo>;
    /// Its difficulty levels, weakest first (empty when it has none).
    fn levels(&self) -> &'static [crate::registry::Level];
    /// Checks an agent specification: parses it and its parameters, without building the
    /// agent (no engine is started, no table allocated).
    fn check_agent(&self, spec: &str) -> Result<(), RegistryError>;
    /// Parses a run's agent specifications once, for building the workers that play it.
    fn lineup(&self, agents: &[String]) -> Result<Box<dyn Lineup>, ArenaError>;
    /// An engine-protocol session of this game ([`crate::engine`]) whose player is `player`
    /// (a registry name; `None`: the game's default engine player). The default, for
    /// drivers that wrap one of [`drivers`], is the session of the arena's driver of the
    /// same name; [`Driver`] gives its own.
    fn engine(
        &self,
        player: Option<&str>,
        seed: u64,
    ) -> Result<Box<dyn crate::engine::EngineSession>, ArenaError> {
        driver(self.name())?.engine(player, seed)
    }
    /// Plays one game in the terminal ([`crate::terminal::play`]): `seats[i]` is `human` or
    /// a player of the game. The default, for drivers that wrap one of [`drivers`], is the
    /// arena's driver of the same name; [`Driver`] gives its own.
    fn play_terminal(
        &self,
        seats: &[String],
        seed: u64,
        input: &mut dyn std::io::BufRead,
        out: &mut dyn std::io::Write,
    ) -> Result<(), crate::terminal::TerminalError> {
        driver(self.name())?.play_terminal(seats, seed, input, out)
    }
    /// A game of `players` seats (the fewest when `None`) being played from `seed`, behind
    /// an object-safe handle ([`crate::handle`]). The default, for drivers that wrap one of
    /// [`drivers`], is the arena's driver of the same name; [`Driver`] gives its own.
    fn handle(
        &self,
        players: Option<usize>,
        seed: u64,
    ) -> Result<Box<dyn GameHandle>, HandleError> {
        same_name(self.name())?.handle(players, seed)
    }
    /// A game resumed from a state in notation, chance from `seed`.
    fn handle_from_notation(
        &self,
        text: &str,
        seed: u64,
    ) -> Result<Box<dyn GameHandle>, HandleError> {
        same_name(self.name())?.handle_from_notation(text, seed)
    }
    /// A handle read back from its [`GameHandle::snapshot`].
    fn restore_handle(&self, snapshot: &str) -> Result<Box<dyn GameHandle>, HandleError> {
        same_name(self.name())?.restore_handle(snapshot)
    }
    /// Agent `spec` of this game with its seat's budget, its choices drawn from `seed`.
    fn agent(&self, spec: &str, seed: u64) -> Result<Box<dyn AgentHandle>, HandleError> {
        same_name(self.name())?.agent(spec, seed)
    }
    /// Plays one game with `seats[i]` (agent specifications) at seat `i` from `seed`,
    /// building the agents for this game only.
    fn play(&self, seats: &[&str], seed: u64) -> Result<PlayedGame, ArenaError> {
        let specs: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
        let order: Vec<usize> = (0..seats.len()).collect();
        self.lineup(&specs)?.worker()?.play(&order, seed)
    }
}

/// A run's parsed agents: builds workers.
pub trait Lineup: Send + Sync {
    /// A worker with one built agent per specification (an external engine is started
    /// here, once per worker).
    fn worker(&self) -> Result<Box<dyn Worker>, ArenaError>;
}

/// One thread's agents, reused from game to game ([`tessera_core::Agent::reset`] between
/// games).
pub trait Worker: Send {
    /// Plays one game with agent `seats[i]` (an index into the lineup) at seat `i`, under a
    /// game clock when `clock` is set.
    fn play_clocked(
        &mut self,
        seats: &[usize],
        seed: u64,
        clock: Option<Clock>,
    ) -> Result<PlayedGame, ArenaError>;

    /// [`Worker::play_clocked`] without a clock.
    fn play(&mut self, seats: &[usize], seed: u64) -> Result<PlayedGame, ArenaError> {
        self.play_clocked(seats, seed, None)
    }
}

/// The [`GameDriver`] of an [`ArenaGame`].
pub struct Driver<G>(PhantomData<fn() -> G>);

impl<G: ArenaGame> Driver<G> {
    /// The driver, boxed for [`drivers`].
    pub fn boxed() -> Box<dyn GameDriver> {
        Box::new(Driver::<G>(PhantomData))
    }
}

/// Plays one game of `G` from `seed` with the given agents, as the arena does: the table is
/// set up with [`GameSeeds::setup_rng`]; every agent thinks within `budgets[i]` (its seat's
/// budget: the limits of its specification).
pub fn play_table<G: ArenaGame>(
    agents: Vec<Box<dyn Agent<G>>>,
    budgets: &[Budget],
    seed: u64,
) -> Result<(Table<'static, G>, GameRecord<G::Chance>), ArenaError> {
    play_table_clocked(agents, budgets, seed, None, &[])
}

/// [`play_table`] under a game clock (`None`: without one): the time manager replaces the
/// time limit per move of every seat but those marked `fixed_time` (an explicit `time=`:
/// a fixed per-move player off the clock, [`Seat::with_fixed_time`]); a seat whose time
/// runs out loses ([`Table::with_clock`]).
pub fn play_table_clocked<G: ArenaGame>(
    agents: Vec<Box<dyn Agent<G>>>,
    budgets: &[Budget],
    seed: u64,
    clock: Option<Clock>,
    fixed_time: &[bool],
) -> Result<(Table<'static, G>, GameRecord<G::Chance>), ArenaError> {
    let players = agents.len();
    let mut setup = GameSeeds { seed }.setup_rng();
    let initial = G::new_game(players, &mut setup);
    let seats = agents
        .into_iter()
        .zip(budgets)
        .enumerate()
        .map(|(i, (a, b))| match fixed_time.get(i) {
            Some(true) => Seat::agent(a, *b).with_fixed_time(),
            _ => Seat::agent(a, *b),
        })
        .collect();
    let mut table = Table::new(initial, seats, seed)?;
    if let Some(c) = clock {
        table = table.with_clock(c);
    }
    table.play_out(Some(G::MAX_ACTIONS), &mut ())?;
    let record = table.record();
    if record.result.is_none() {
        return Err(ArenaError::Unfinished {
            seed,
            actions: G::MAX_ACTIONS,
        });
    }
    Ok((table, record))
}

/// Plays one game of `G` from `seed` with the given agents, as the arena does: the table is
/// set up with [`GameSeeds::setup_rng`], agents see [`Budget::default`] (their own limits
/// come from their specification).
pub fn play_seeded<G: ArenaGame>(
    agents: &mut [Box<dyn Agent<G>>],
    seed: u64,
) -> Result<(G, tessera_core::GameRecord<G::Chance>), ArenaError> {
    let players = agents.len();
    let mut setup = GameSeeds { seed }.setup_rng();
    let initial = G::new_game(players, &mut setup);
    let mut refs: Vec<&mut dyn Agent<G>> = agents
        .iter_mut()
        .map(|a| a.as_mut() as &mut dyn Agent<G>)
        .collect();
    let (state, record) = play_game(
        initial,
        &mut refs,
        &Budget::default(),
        seed,
        Some(G::MAX_ACTIONS),
        &mut (),
    )
    .map_err(|e| ArenaError::Table(TableError::IllegalMove(e)))?;
    if record.result.is_none() {
        return Err(ArenaError::Unfinished {
            seed,
            actions: G::MAX_ACTIONS,
        });
    }
    Ok((state, record))
}

impl<G: ArenaGame> GameDriver for Driver<G> {
    fn info(&self) -> GameInfo {
        G::INFO
    }

    fn handle(
        &self,
        players: Option<usize>,
        seed: u64,
    ) -> Result<Box<dyn GameHandle>, HandleError> {
        Ok(Box::new(TableHandle::<G>::new(players, seed)?))
    }

    fn handle_from_notation(
        &self,
        text: &str,
        seed: u64,
    ) -> Result<Box<dyn GameHandle>, HandleError> {
        Ok(Box::new(TableHandle::<G>::from_notation(text, seed)?))
    }

    fn restore_handle(&self, snapshot: &str) -> Result<Box<dyn GameHandle>, HandleError> {
        Ok(Box::new(TableHandle::<G>::restore(snapshot)?))
    }

    fn agent(&self, spec: &str, seed: u64) -> Result<Box<dyn AgentHandle>, HandleError> {
        Ok(Box::new(PlanAgent::<G>::new(spec, seed)?))
    }

    fn engine(
        &self,
        player: Option<&str>,
        seed: u64,
    ) -> Result<Box<dyn crate::engine::EngineSession>, ArenaError> {
        Ok(Box::new(crate::engine::EngineServer::<G>::new(
            player, seed,
        )?))
    }

    fn play_terminal(
        &self,
        seats: &[String],
        seed: u64,
        input: &mut dyn std::io::BufRead,
        out: &mut dyn std::io::Write,
    ) -> Result<(), crate::terminal::TerminalError> {
        crate::terminal::play::<G>(seats, seed, input, out)
    }

    fn test_game(&self) -> bool {
        G::TEST_GAME
    }

    fn agents(&self) -> Vec<AgentInfo> {
        G::registry().infos()
    }

    fn levels(&self) -> &'static [crate::registry::Level] {
        G::registry().levels()
    }

    fn check_agent(&self, spec: &str) -> Result<(), RegistryError> {
        G::registry().parse(spec).map(|_| ())
    }

    fn lineup(&self, agents: &[String]) -> Result<Box<dyn Lineup>, ArenaError> {
        let registry = G::registry();
        let plans = agents
            .iter()
            .map(|s| registry.parse(s))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Box::new(PlanLineup { plans }))
    }
}

struct PlanLineup<G: ArenaGame> {
    plans: Vec<AgentPlan<G>>,
}

impl<G: ArenaGame> Lineup for PlanLineup<G> {
    fn worker(&self) -> Result<Box<dyn Worker>, ArenaError> {
        let agents = self
            .plans
            .iter()
            .map(|p| p.build().map(Some))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Box::new(AgentWorker {
            plans: self.plans.clone(),
            agents,
        }))
    }
}

struct AgentWorker<G: ArenaGame> {
    plans: Vec<AgentPlan<G>>,
    /// One built agent per plan; `None` only while it sits at a table.
    agents: Vec<Option<Box<dyn Agent<G>>>>,
}

impl<G: ArenaGame> Worker for AgentWorker<G> {
    fn play_clocked(
        &mut self,
        seats: &[usize],
        seed: u64,
        clock: Option<Clock>,
    ) -> Result<PlayedGame, ArenaError> {
        let mut agents = Vec::with_capacity(seats.len());
        for &i in seats {
            let agent = match self.agents.get_mut(i).and_then(Option::take) {
                Some(a) => a,
                // Lost with a failed game (or listed at two seats): build it again.
                None => self.plans[i].build()?,
            };
            agents.push(agent);
        }
        let budgets: Vec<Budget> = seats.iter().map(|&i| self.plans[i].budget()).collect();
        let fixed: Vec<bool> = seats
            .iter()
            .map(|&i| explicit_time(self.plans[i].spec()))
            .collect();
        let played = play_table_clocked::<G>(agents, &budgets, seed, clock, &fixed);
        let (table, record) = played?;
        let faults = table.faults().to_vec();
        for (&i, agent) in seats.iter().zip(table.into_agents()) {
            if self.agents[i].is_none() {
                self.agents[i] = agent;
            }
        }
        let result = record.result.as_ref().ok_or(ArenaError::Unfinished {
            seed,
            actions: G::MAX_ACTIONS,
        })?;
        Ok(PlayedGame {
            scores: result.scores.as_slice().to_vec(),
            winners: result.winners.iter().map(|p| p.index()).collect(),
            actions: record.num_actions() as u32,
            record: serde_json::to_string(&record).map_err(ArenaError::RecordJson)?,
            faults,
        })
    }
}

/// True if an agent specification names its own time per move (`time=`, or an external
/// engine's `ext:time=...:`): under a clock it stays a fixed per-move player, off the clock.
pub fn explicit_time(spec: &crate::spec::AgentSpec) -> bool {
    spec.params.iter().any(|p| p.key == "time")
}

/// What walks the registrations ([`visit_games`]): called once per registered game, with
/// its type, so a front end builds its own typed adapter (the web's sessions, Python's
/// classes) for every game without naming one.
pub trait GameVisitor {
    /// Called for the registered game `G`.
    fn visit<G: ArenaGame>(&mut self);
}

/// The registrations: every game the house knows, each written once, here. A new game is
/// one line (its type, which implements [`ArenaGame`]); [`drivers`], the command line, the
/// engine, terminal play and the web catalog all walk this list.
pub fn visit_games(v: &mut impl GameVisitor) {
    v.visit::<tessera_azul::AzulState>();
    v.visit::<tessera_qwirkle::Qwirkle>();
    v.visit::<tessera_core::testgame::Nim>();
}

/// Every game the house knows, in registration order.
pub fn drivers() -> Vec<Box<dyn GameDriver>> {
    struct Collect(Vec<Box<dyn GameDriver>>);
    impl GameVisitor for Collect {
        fn visit<G: ArenaGame>(&mut self) {
            self.0.push(Driver::<G>::boxed());
        }
    }
    let mut all = Collect(Vec::new());
    visit_games(&mut all);
    all.0
}

/// The arena's driver named `name`, for [`GameDriver`]'s defaults.
fn same_name(name: &str) -> Result<Box<dyn GameDriver>, HandleError> {
    driver(name).map_err(|e| match e {
        ArenaError::UnknownGame { name, known } => HandleError::UnknownGame { name, known },
        e => HandleError::UnknownGame {
            name: e.to_string(),
            known: String::new(),
        },
    })
}

/// The game named `name`.
pub fn driver(name: &str) -> Result<Box<dyn GameDriver>, ArenaError> {
    let all = drivers();
    let known = all.iter().map(|d| d.name()).collect::<Vec<_>>().join(", ");
    all.into_iter()
        .find(|d| d.name() == name)
        .ok_or(ArenaError::UnknownGame {
            name: name.to_string(),
            known,
        })
}
