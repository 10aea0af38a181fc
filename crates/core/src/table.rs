//! The match driver: one game at one table, whatever front end shows it.
//!
//! A [`Table`] holds the seats (a human, or an agent with its [`Budget`]), the game's seeds,
//! every step taken (each with the state after it), and answers "who must act now"
//! ([`Table::advance`]), applying chance events itself. A human's action comes in through
//! [`Table::play`] (checked with `try_apply`); an agent's thinking goes out as a
//! [`Thinking`] job, `Send`, that any thread can [`Thinking::run`] (a rayon worker, tokio's
//! blocking pool, the calling thread) and hand back with [`Table::hand_back`]. The record
//! ([`Table::record`]) and undo ([`Table::undo`] when every seat is human, [`Table::undo_to`]
//! back to a human seat's previous turn against agents) come from the steps. A human may ask
//! for a hint ([`Table::hint`]): a stronger agent's thinking on the seat's own view. Hints and
//! undos are kept in the record as [`Assist`]s.
//!
//! Every front end drives a table: [`crate::play_game`] (and through it the arena's
//! tournaments), terminal play, the web server's sessions.
//!
//! ```
//! use tessera_core::table::{Next, Seat, Table};
//! use tessera_core::{Budget, Game, RandomAgent, testgame::Nim};
//! let seats = vec![
//!     Seat::human("human"),
//!     Seat::agent(Box::new(RandomAgent::<Nim>::new()), Budget::default()),
//! ];
//! let mut table = Table::new(Nim::new(2), seats, 7).unwrap();
//! loop {
//!     match table.advance().unwrap() {
//!         Next::Over => break,
//!         Next::Human(p) => {
//!             let mut legal = Vec::new();
//!             table.state().legal_actions(&mut legal);
//!             table.play(p, legal[0]).unwrap();
//!         }
//!         Next::Agent(_) => {
//!             let job = table.think().unwrap();
//!             let done = std::thread::spawn(move || job.run()).join().unwrap();
//!             table.hand_back(done).unwrap();
//!         }
//!         Next::Thinking(_) => unreachable!("this loop runs one job at a time"),
//!     }
//! }
//! assert!(table.record().result.is_some());
//! ```

use std::time::{Duration, Instant};

use thiserror::Error;

pub use crate::fault::{Fault, FaultKind, SeatFault, UnknownFaultKind};

use crate::agent::{Agent, Budget};
use crate::clock::{Clock, ClockView, Decision, SeatTiming, TimeManager};
use crate::game::{Game, Turn};
use crate::player::PlayerId;
use crate::record::{
    Assist, AssistKind, Event, GameRecord, GameSeeds, IllegalMove, Observer, RECORD_FORMAT,
    flag_outcome,
};
use crate::rng::{GameRng, derive_seed, seeded};

/// Mixed into the game's seed for the generators of hints.
const HINT_SALT: u64 = 0x4849_4E54;

/// An error of a boxed source (a game's own error type).
type Source = Box<dyn std::error::Error + Send + Sync>;

/// Why a table refuses a request.
#[derive(Debug, Error)]
pub enum TableError {
    /// The table has a different number of seats than the game has players.
    #[error("the game has {players} players but the table has {seats} seats")]
    SeatCount {
        /// Players of the initial state.
        players: usize,
        /// Seats given.
        seats: usize,
    },
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// A chance event is next (only between steps; [`Table::advance`] applies it).
    #[error("a chance event is next, not a player")]
    ChanceNext,
    /// Another seat must act.
    #[error("not seat {asked}'s turn: seat {to_move} is to move")]
    NotYourTurn {
        /// The seat that asked.
        asked: PlayerId,
        /// The seat to move.
        to_move: PlayerId,
    },
    /// A human action for an agent's seat, or a job asked for a human's seat.
    #[error("seat {seat} is {}", if *.human { "a human seat" } else { "an agent's seat" })]
    WrongSeatKind {
        /// The seat.
        seat: PlayerId,
        /// True if the seat is human.
        human: bool,
    },
    /// The seat's agent is thinking (or was lost in a crash while thinking).
    #[error("seat {0}'s agent is away thinking")]
    AgentAway(PlayerId),
    /// A human's action is illegal here; the table is unchanged.
    #[error("illegal move '{action}'")]
    Illegal {
        /// The action in notation.
        action: String,
        /// The rules' reason.
        #[source]
        source: Source,
    },
    /// An agent chose an illegal action.
    #[error(transparent)]
    IllegalMove(Box<IllegalMove>),
    /// The game refused one of its own sampled chance outcomes (a bug in the game).
    #[error("the game refused its own chance outcome")]
    Chance(#[source] Source),
    /// Undo asked at a table with an agent seat.
    #[error("undo is only available when every seat is human")]
    UndoNotAllowed,
    /// Undo asked before any action.
    #[error("nothing to undo: no move was made yet")]
    NothingToUndo,
    /// Undo or a hint asked for an agent's seat.
    #[error("seat {0} is not a human seat: only people take moves back or ask for hints")]
    NotHuman(PlayerId),
    /// Undo asked by a human seat that has not moved yet.
    #[error("nothing to undo: seat {0} has not moved yet")]
    NothingToUndoFor(PlayerId),
    /// A human seat's move came after its time ran out: its flag fell and the game is over.
    #[error("seat {0}'s time ran out (its flag fell): the game is over")]
    Flag(PlayerId),
}

/// Who sits at a seat.
pub struct Seat<'a, G: Game> {
    label: String,
    agent: Option<Box<dyn Agent<G> + 'a>>,
    budget: Budget,
    fixed_time: bool,
}

impl<'a, G: Game> Seat<'a, G> {
    /// A person; `label` is the seat's name in the record (`human`, `human:Ann`).
    pub fn human(label: impl Into<String>) -> Self {
        Seat {
            label: label.into(),
            agent: None,
            budget: Budget::default(),
            fixed_time: false,
        }
    }

    /// An agent thinking within `budget` per move (the caller has clamped it to its
    /// policy); its record label is its name.
    pub fn agent(agent: Box<dyn Agent<G> + 'a>, budget: Budget) -> Self {
        Seat {
            label: agent.name(),
            agent: Some(agent),
            budget,
            fixed_time: false,
        }
    }

    /// Under a clock, this agent keeps its budget's time per move instead of the time
    /// manager's share: a fixed per-move player, off the clock (its time is measured and
    /// recorded, but its flag never falls), to compare clock-managed players with. No effect
    /// without a clock.
    pub fn with_fixed_time(mut self) -> Self {
        self.fixed_time = true;
        self
    }
}

struct SeatState<'a, G: Game> {
    label: String,
    human: bool,
    budget: Budget,
    fixed_time: bool,
    /// `None` while the agent is away thinking.
    agent: Option<Box<dyn Agent<G> + 'a>>,
    /// `None` while the agent is away thinking.
    rng: Option<GameRng>,
    /// The generator as the job now away took it (kept with the action for undo).
    rng_at_think: Option<GameRng>,
}

/// One step of a game: a chance outcome or an action, with the state after it.
#[derive(Clone, Debug)]
pub struct Step<G: Game> {
    /// The event as the record holds it.
    pub event: Event<G::Chance>,
    /// The action, for an action step.
    pub action: Option<G::Action>,
    /// Who acted (`None` for chance).
    pub player: Option<PlayerId>,
    /// The state after the step.
    pub state: G,
    /// How long the agent thought, for an agent's action.
    pub think: Option<Duration>,
    /// The chance generator before a chance step (restored by undo).
    chance_rng_before: Option<GameRng>,
    /// The agent's generator before an agent's action (restored by undo).
    agent_rng_before: Option<GameRng>,
}

/// Who must act now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// A human seat: call [`Table::play`].
    Human(PlayerId),
    /// An agent's seat: take its job with [`Table::think`].
    Agent(PlayerId),
    /// An agent's seat whose job is out: wait for [`Table::hand_back`].
    Thinking(PlayerId),
    /// The game is over.
    Over,
}

/// How [`Table::play_out`] stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// The game is over.
    Over,
    /// A human must act.
    Human(PlayerId),
    /// The action limit was reached, or the observer asked to stop.
    Stopped,
}

/// An agent's thinking, handed out to run on any thread: the agent, its generator, the
/// state it sees (determinized for its seat when the game hides information) and its budget.
pub struct Thinking<'a, G: Game> {
    player: PlayerId,
    agent: Box<dyn Agent<G> + 'a>,
    rng: GameRng,
    state: G,
    budget: Budget,
    token: usize,
    /// The only legal action, under a clock: played at once without asking the agent.
    forced: Option<G::Action>,
}

/// A finished [`Thinking`]: the agent and generator come back with the chosen action.
pub struct Thought<'a, G: Game> {
    player: PlayerId,
    agent: Box<dyn Agent<G> + 'a>,
    rng: GameRng,
    action: G::Action,
    elapsed: Duration,
    faults: Vec<Fault>,
    token: usize,
}

impl<'a, G: Game> Thinking<'a, G> {
    /// The seat that thinks.
    pub fn player(&self) -> PlayerId {
        self.player
    }

    /// The budget of this decision.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// Thinks: determinizes the state for the seat with the seat's generator, then asks the
    /// agent within the budget.
    pub fn run(self) -> Thought<'a, G> {
        let Thinking {
            player,
            mut agent,
            mut rng,
            state,
            budget,
            token,
            forced,
        } = self;
        let start = Instant::now();
        let action = match forced {
            Some(action) => action,
            None => {
                let seen = state.determinize(player, &mut rng);
                agent.choose(&seen, &budget, &mut rng)
            }
        };
        let elapsed = start.elapsed();
        let faults = agent.take_faults();
        Thought {
            player,
            agent,
            rng,
            action,
            elapsed,
            faults,
            token,
        }
    }
}

impl<G: Game> Thought<'_, G> {
    /// The chosen action.
    pub fn action(&self) -> G::Action {
        self.action
    }

    /// How long the agent thought.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// The seat that thought.
    pub fn player(&self) -> PlayerId {
        self.player
    }
}

/// Applies the chance events due in `state` (deals, draws), each drawn from `chance`, until a
/// player must act or the game is over; `each` sees every outcome applied, with the state
/// after it and the generator before it. This is the table's one chance loop
/// ([`Table::advance`] calls it); callers that need no record (the Python package's batch of
/// games) call it directly. On an error (the game refused its own outcome) the generator is
/// restored to before that draw.
pub fn resolve_chance<G: Game>(
    state: &mut G,
    chance: &mut GameRng,
    mut each: impl FnMut(&G, G::Chance, GameRng),
) -> Result<(), G::ChanceError> {
    while state.turn() == Turn::Chance {
        let before = chance.clone();
        let outcome = state.sample_chance(chance);
        if let Err(e) = state.apply_chance(&outcome) {
            *chance = before;
            return Err(e);
        }
        each(state, outcome, before);
    }
    Ok(())
}

/// One game at one table. See the [module](self) documentation.
pub struct Table<'a, G: Game> {
    initial: G,
    state: G,
    seed: u64,
    seats: Vec<SeatState<'a, G>>,
    chance_rng: GameRng,
    steps: Vec<Step<G>>,
    actions: usize,
    revision: u64,
    faults: Vec<SeatFault>,
    assists: Vec<Assist>,
    clocks: Option<Clocks>,
    /// The seat whose flag fell (the game is then over).
    flag: Option<PlayerId>,
}

/// The clocks of a table played under a time control.
struct Clocks {
    clock: Clock,
    manager: TimeManager,
    /// Time left per seat.
    left: Vec<Duration>,
    /// Time used per seat.
    used: Vec<Duration>,
    /// What the time manager knows of each seat's decisions.
    timing: Vec<SeatTiming>,
    /// When the human seat to move was first told to move.
    human_since: Option<(PlayerId, Instant)>,
    /// The most an agent's move may think under the clock (a server's cap).
    max_think: Option<Duration>,
    /// The budget each seat's agent was last given (its overshoot is measured against it).
    given: Vec<Option<Duration>>,
}

impl<'a, G: Game> Table<'a, G> {
    /// A new game from `initial` (set up by the caller, for example with
    /// [`GameSeeds::setup_rng`]) played from `seed`: chance uses [`GameSeeds::chance_rng`],
    /// seat `p`'s agent [`GameSeeds::agent_rng`]. Every agent is [`Agent::reset`] (a new
    /// game), so agents can be reused from game to game.
    pub fn new(initial: G, seats: Vec<Seat<'a, G>>, seed: u64) -> Result<Self, TableError> {
        let mut table = Self::resume(initial, seats, seed)?;
        for s in &mut table.seats {
            if let Some(a) = s.agent.as_mut() {
                a.reset();
            }
        }
        Ok(table)
    }

    /// A table from a position of a game already under way (an engine asked to search a
    /// position): like [`Table::new`], but the agents are not reset, so they keep what they
    /// learnt of the game so far.
    pub fn resume(initial: G, seats: Vec<Seat<'a, G>>, seed: u64) -> Result<Self, TableError> {
        let players = initial.num_players();
        if seats.len() != players {
            return Err(TableError::SeatCount {
                players,
                seats: seats.len(),
            });
        }
        let seeds = GameSeeds { seed };
        let seats = seats
            .into_iter()
            .enumerate()
            .map(|(i, s)| SeatState {
                label: s.label,
                human: s.agent.is_none(),
                budget: s.budget,
                fixed_time: s.fixed_time,
                agent: s.agent,
                rng: Some(seeds.agent_rng(PlayerId(i as u8))),
                rng_at_think: None,
            })
            .collect();
        Ok(Table {
            state: initial.clone(),
            initial,
            seed,
            seats,
            chance_rng: seeds.chance_rng(),
            steps: Vec::new(),
            actions: 0,
            revision: 0,
            faults: Vec::new(),
            assists: Vec::new(),
            clocks: None,
            flag: None,
        })
    }

    /// This table played under the time control `clock` ([`crate::clock`]): every seat
    /// starts with its base time; an agent's per-move time limit is replaced by the time
    /// manager's budget (its node and depth limits still bind); a seat whose time runs out
    /// loses the game. Set before the first move.
    pub fn with_clock(mut self, clock: Clock) -> Self {
        let n = self.seats.len();
        self.clocks = Some(Clocks {
            clock,
            manager: TimeManager::default(),
            left: vec![clock.base; n],
            used: vec![Duration::ZERO; n],
            timing: vec![SeatTiming::default(); n],
            human_since: None,
            max_think: None,
            given: vec![None; n],
        });
        self
    }

    /// Caps every agent's move under the clock at `max_think` whatever the time manager
    /// allows (a server's limit on a move's thinking; no effect without a clock).
    pub fn with_max_think(mut self, max_think: Duration) -> Self {
        if let Some(c) = self.clocks.as_mut() {
            c.max_think = Some(max_think);
        }
        self
    }

    /// Every seat's time left (not counting the time of a person to move running now) and
    /// time used so far, seat 0 first, if the table has a clock: what a front end stores to
    /// restore the clocks later ([`Table::set_clock_times`]).
    pub fn clock_times(&self) -> Option<(Vec<Duration>, Vec<Duration>)> {
        self.clocks
            .as_ref()
            .map(|c| (c.left.clone(), c.used.clone()))
    }

    /// Sets every seat's time left and time used (a stored game restored, its moves replayed
    /// without their times); a person to move starts their turn again now, so the time
    /// between the stored figures and now is charged to nobody. Figures for seats the table
    /// does not have are ignored; no effect without a clock.
    pub fn set_clock_times(&mut self, left: &[Duration], used: &[Duration]) {
        if let Some(c) = self.clocks.as_mut() {
            for (slot, v) in c.left.iter_mut().zip(left) {
                *slot = *v;
            }
            for (slot, v) in c.used.iter_mut().zip(used) {
                *slot = *v;
            }
            c.human_since = None;
        }
    }

    /// Seat `p`'s flag falls as stored after `used` of thinking (a stored game restored):
    /// the game is over, a loss for `p`. Refused without a clock or when the game is over.
    pub fn replay_flag(&mut self, p: PlayerId, used: Duration) -> Result<(), TableError> {
        if self.clocks.is_none() {
            return Err(TableError::Over);
        }
        self.player_to_move(p)?;
        self.fall(p, used);
        Ok(())
    }

    /// The time manager of a table with a clock (no effect without one).
    pub fn with_time_manager(mut self, manager: TimeManager) -> Self {
        if let Some(c) = self.clocks.as_mut() {
            c.manager = manager;
        }
        self
    }

    /// The time control, if the table has a clock.
    pub fn clock(&self) -> Option<Clock> {
        self.clocks.as_ref().map(|c| c.clock)
    }

    /// Seat `p`'s time left, if the table has a clock (for a human seat to move, its time
    /// running now is taken off).
    pub fn time_left(&self, p: PlayerId) -> Option<Duration> {
        let c = self.clocks.as_ref()?;
        let left = *c.left.get(p.index())?;
        Some(match c.human_since {
            Some((q, since)) if q == p => left.saturating_sub(since.elapsed()),
            _ => left,
        })
    }

    /// The seat whose flag fell, if one did (the game is then over).
    pub fn flag(&self) -> Option<PlayerId> {
        self.flag
    }

    /// Ends the game if the human seat to move has run out of time (a front end calls it
    /// while it waits); returns the flagged seat.
    pub fn check_flag(&mut self) -> Option<PlayerId> {
        if self.flag.is_none()
            && let Some(c) = &self.clocks
            && let Some((p, since)) = c.human_since
            && since.elapsed() > c.left[p.index()]
        {
            self.fall(p, since.elapsed());
        }
        self.flag
    }

    /// Seat `p`'s flag falls after thinking `used`: the game is over, a loss for `p`.
    fn fall(&mut self, p: PlayerId, used: Duration) {
        let Some(c) = self.clocks.as_mut() else {
            return;
        };
        let left = std::mem::take(&mut c.left[p.index()]);
        c.used[p.index()] += used;
        c.human_since = None;
        self.flag = Some(p);
        self.faults.push(SeatFault {
            seat: p,
            ply: self.actions as u32,
            fault: Fault {
                kind: FaultKind::Flag,
                detail: format!(
                    "flag fell: thought {:.3} s with {:.3} s left on a {} clock",
                    used.as_secs_f64(),
                    left.as_secs_f64(),
                    c.clock
                ),
            },
        });
        self.revision += 1;
    }

    /// True (and seat `p`'s flag falls) if a move that took `used` took more than the time
    /// it had left; false without a clock.
    fn over_time(&mut self, p: PlayerId, used: Duration) -> bool {
        let fixed = self.seats.get(p.index()).is_some_and(|s| s.fixed_time);
        let over = !fixed
            && self
                .clocks
                .as_ref()
                .is_some_and(|c| used > c.left[p.index()]);
        if over {
            self.fall(p, used);
        }
        over
    }

    /// Charges seat `p` for a move played in `used` (within its time): its clock loses
    /// `used` and gains the increment.
    fn charge(&mut self, p: PlayerId, used: Duration) {
        if let Some(c) = self.clocks.as_mut() {
            c.human_since = None;
            let left = c.left[p.index()];
            c.left[p.index()] = left.saturating_sub(used) + c.clock.increment;
            c.used[p.index()] += used;
        }
    }

    /// The current state.
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The initial state.
    pub fn initial(&self) -> &G {
        &self.initial
    }

    /// The game's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Every step so far.
    pub fn steps(&self) -> &[Step<G>] {
        &self.steps
    }

    /// The state before step `index` (the initial state for step 0).
    pub fn state_before(&self, index: usize) -> &G {
        match index.checked_sub(1) {
            Some(i) => &self.steps[i].state,
            None => &self.initial,
        }
    }

    /// Actions played so far.
    pub fn actions(&self) -> usize {
        self.actions
    }

    /// Counts every change of the table (a step added, an undo).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The seats' record labels, seat 0 first.
    pub fn labels(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.label.clone()).collect()
    }

    /// True if seat `p` is human.
    pub fn is_human(&self, p: PlayerId) -> bool {
        self.seats.get(p.index()).is_some_and(|s| s.human)
    }

    /// Seat `p`'s budget per move.
    pub fn budget(&self, p: PlayerId) -> Option<Budget> {
        self.seats.get(p.index()).map(|s| s.budget)
    }

    /// True if every seat is human (undo is allowed).
    pub fn all_human(&self) -> bool {
        self.seats.iter().all(|s| s.human)
    }

    /// Faults of the agents so far.
    pub fn faults(&self) -> &[SeatFault] {
        &self.faults
    }

    /// Who must act now. Chance events due are applied first (each becomes a step).
    pub fn advance(&mut self) -> Result<Next, TableError> {
        if self.flag.is_some() {
            return Ok(Next::Over);
        }
        loop {
            match self.state.turn() {
                Turn::Terminal => return Ok(Next::Over),
                Turn::Chance => {
                    // The one chance loop (the Python driver calls it too); each outcome
                    // becomes a step as it is applied, so those before a failure are kept.
                    let (steps, revision) = (&mut self.steps, &mut self.revision);
                    resolve_chance(
                        &mut self.state,
                        &mut self.chance_rng,
                        |state, outcome, before| {
                            steps.push(Step {
                                event: Event::Chance { outcome },
                                action: None,
                                player: None,
                                state: state.clone(),
                                think: None,
                                chance_rng_before: Some(before),
                                agent_rng_before: None,
                            });
                            *revision += 1;
                        },
                    )
                    .map_err(|e| TableError::Chance(Box::new(e)))?;
                }
                Turn::Player(p) => {
                    let seat = &self.seats[p.index()];
                    if seat.human
                        && let Some(c) = self.clocks.as_mut()
                        && c.human_since.is_none_or(|(q, _)| q != p)
                    {
                        c.human_since = Some((p, Instant::now()));
                    }
                    return Ok(if seat.human {
                        Next::Human(p)
                    } else if seat.agent.is_none() {
                        Next::Thinking(p)
                    } else {
                        Next::Agent(p)
                    });
                }
            }
        }
    }

    fn push(&mut self, step: Step<G>) {
        self.steps.push(step);
        self.revision += 1;
    }

    fn player_to_move(&self, asked: PlayerId) -> Result<(), TableError> {
        if self.flag.is_some() {
            return Err(TableError::Over);
        }
        match self.state.turn() {
            Turn::Terminal => Err(TableError::Over),
            Turn::Chance => Err(TableError::ChanceNext),
            Turn::Player(q) if q != asked => Err(TableError::NotYourTurn { asked, to_move: q }),
            Turn::Player(_) => Ok(()),
        }
    }

    /// Whether human seat `p` may act now: the turn is `p`'s and `p` is a human seat (the
    /// checks [`Table::play`] makes before the rules', for front ends that ask before they
    /// parse a move).
    pub fn may_play(&self, p: PlayerId) -> Result<(), TableError> {
        self.player_to_move(p)?;
        if !self.seats[p.index()].human {
            return Err(TableError::WrongSeatKind {
                seat: p,
                human: false,
            });
        }
        Ok(())
    }

    /// A human seat's action, checked with `try_apply`; on error the table is unchanged.
    /// Returns the index of the new step.
    pub fn play(&mut self, p: PlayerId, action: G::Action) -> Result<usize, TableError> {
        self.may_play(p)?;
        // Under a clock, a person's time runs from when the table first said it was their
        // turn.
        let used = self
            .clocks
            .as_ref()
            .and_then(|c| c.human_since)
            .filter(|(q, _)| *q == p)
            .map(|(_, since)| since.elapsed());
        if let Some(used) = used
            && self.over_time(p, used)
        {
            return Err(TableError::Flag(p));
        }
        self.state
            .try_apply(action)
            .map_err(|e| TableError::Illegal {
                action: action.to_string(),
                source: Box::new(e),
            })?;
        if let Some(used) = used {
            self.charge(p, used);
        }
        self.record_action(p, action, None, None);
        Ok(self.steps.len() - 1)
    }

    fn record_action(
        &mut self,
        p: PlayerId,
        action: G::Action,
        think: Option<Duration>,
        agent_rng_before: Option<GameRng>,
    ) {
        self.actions += 1;
        self.push(Step {
            event: Event::Action {
                player: p,
                action: action.to_string(),
            },
            action: Some(action),
            player: Some(p),
            state: self.state.clone(),
            think,
            chance_rng_before: None,
            agent_rng_before,
        });
    }

    /// Hands out the thinking of the agent to move. Its seat is [`Next::Thinking`] until
    /// [`Table::hand_back`].
    pub fn think(&mut self) -> Result<Thinking<'a, G>, TableError> {
        let p = match self.state.turn() {
            Turn::Player(p) => p,
            Turn::Terminal => return Err(TableError::Over),
            Turn::Chance => return Err(TableError::ChanceNext),
        };
        let token = self.revision as usize;
        let seat = &mut self.seats[p.index()];
        if seat.human {
            return Err(TableError::WrongSeatKind {
                seat: p,
                human: true,
            });
        }
        let (Some(mut agent), Some(rng)) = (seat.agent.take(), seat.rng.take()) else {
            return Err(TableError::AgentAway(p));
        };
        seat.rng_at_think = Some(rng.clone());
        let mut budget = seat.budget;
        let fixed_time = seat.fixed_time;
        let mut forced = None;
        if let Some(c) = &self.clocks {
            let mut legal = Vec::new();
            self.state.legal_actions(&mut legal);
            let left = c.left[p.index()];
            if legal.len() == 1 {
                forced = Some(legal[0]);
                budget.time = Some(Duration::ZERO);
            } else if fixed_time {
                budget = budget.or_default();
            } else if agent.observe_clock(&ClockView {
                seat: p,
                left: c.left.clone(),
                increment: c.clock.increment,
            }) {
                budget.time = Some(left);
                budget.from_clock = true;
            } else {
                let decision = Decision {
                    legal: legal.len(),
                    decisions_left: self.state.decisions_left(),
                };
                budget.time =
                    Some(
                        c.manager
                            .budget(&c.clock, left, &c.timing[p.index()], &decision),
                    );
                budget.from_clock = true;
            }
            if let (Some(t), Some(max)) = (budget.time, c.max_think) {
                budget.time = Some(t.min(max));
            }
        }
        if let Some(c) = self.clocks.as_mut() {
            c.given[p.index()] = budget.time.filter(|_| forced.is_none() && !fixed_time);
        }
        Ok(Thinking {
            player: p,
            agent,
            rng,
            state: self.state.clone(),
            budget,
            token,
            forced,
        })
    }

    /// Takes a finished job back: the agent returns to its seat and its action is played.
    /// Returns `Ok(false)` if the table moved on meanwhile (the action is then dropped). An
    /// illegal action is an [`TableError::IllegalMove`] and leaves the state unchanged.
    /// Under a clock the thinking time is taken off the seat's clock; if it had less time
    /// left, its flag falls, the action is not played and the game is over (`Ok(true)`).
    pub fn hand_back(&mut self, done: Thought<'a, G>) -> Result<bool, TableError> {
        let Thought {
            player: p,
            agent,
            rng,
            action,
            elapsed,
            faults,
            token,
        } = done;
        let ply = self.actions as u32;
        self.faults
            .extend(faults.into_iter().map(|fault| SeatFault {
                seat: p,
                ply,
                fault,
            }));
        let seat = &mut self.seats[p.index()];
        let label = seat.label.clone();
        seat.agent = Some(agent);
        seat.rng = Some(rng);
        let rng_before = seat.rng_at_think.take();
        if token != self.revision as usize || self.state.turn() != Turn::Player(p) {
            // The table moved on (or was taken back) meanwhile: the generator goes back to
            // where it was when the job left, so the decision can be made again alike.
            if let Some(r) = rng_before {
                self.seats[p.index()].rng = Some(r);
            }
            return Ok(false);
        }
        // The flag fell while the agent thought: its move is not played.
        if self.over_time(p, elapsed) {
            return Ok(true);
        }
        let mut legal = Vec::new();
        if self.clocks.is_some() {
            self.state.legal_actions(&mut legal);
        }
        if let Err(e) = self.state.try_apply(action) {
            return Err(TableError::IllegalMove(Box::new(IllegalMove {
                player: p,
                agent: label,
                action: action.to_string(),
                detail: e.to_string(),
            })));
        }
        if self.clocks.is_some() {
            self.charge(p, elapsed);
            let value = self.seats[p.index()]
                .agent
                .as_ref()
                .and_then(|a| a.last_info())
                .and_then(|i| i.value);
            if let Some(c) = self.clocks.as_mut() {
                let timing = &mut c.timing[p.index()];
                if legal.len() > 1 {
                    timing.record(legal.len(), value);
                } else {
                    timing.record_forced();
                }
                // How much longer than its budget the move took raises the seat's margin.
                if let Some(given) = c.given[p.index()].take() {
                    timing.record_overshoot(given, elapsed);
                }
            }
        }
        self.record_action(p, action, Some(elapsed), rng_before);
        Ok(true)
    }

    /// Plays agents' moves on this thread until the game ends, a human must act, or
    /// `max_actions` actions have been played (counted from the start of the game), telling
    /// `observer` about every step.
    pub fn play_out(
        &mut self,
        max_actions: Option<usize>,
        observer: &mut dyn Observer<G>,
    ) -> Result<Played, TableError> {
        loop {
            let seen = self.steps.len();
            let next = self.advance()?;
            for step in &self.steps[seen..] {
                observer.on_event(&step.state, &step.event);
            }
            match next {
                Next::Over => return Ok(Played::Over),
                Next::Human(p) => return Ok(Played::Human(p)),
                Next::Thinking(p) => return Err(TableError::AgentAway(p)),
                Next::Agent(p) => {
                    if max_actions.is_some_and(|m| self.actions >= m) {
                        return Ok(Played::Stopped);
                    }
                    observer.before_action(&self.state, p);
                    let done = self.think()?.run();
                    if observer.stop() {
                        let seat = &mut self.seats[p.index()];
                        seat.agent = Some(done.agent);
                        seat.rng = Some(done.rng);
                        seat.rng_at_think = None;
                        return Ok(Played::Stopped);
                    }
                    self.hand_back(done)?;
                    if let Some(step) = self.steps.last() {
                        observer.on_event(&step.state, &step.event);
                    }
                }
            }
        }
    }

    /// Takes back the last action (and the chance events after it), restoring the chance
    /// generator so that the same action deals the same tiles again. Only when every seat is
    /// human.
    pub fn undo(&mut self) -> Result<(), TableError> {
        if !self.all_human() {
            return Err(TableError::UndoNotAllowed);
        }
        let Some(last_action) = self.steps.iter().rposition(|s| s.action.is_some()) else {
            return Err(TableError::NothingToUndo);
        };
        self.rewind(last_action);
        Ok(())
    }

    /// What a front end's "undo" means for human seat `p`: the last action when every seat
    /// is human ([`Table::undo`]), else back to `p`'s previous turn ([`Table::undo_to`]).
    pub fn take_back(&mut self, p: PlayerId) -> Result<(), TableError> {
        if self.all_human() {
            self.undo()
        } else {
            self.undo_to(p)
        }
    }

    /// Drops step `cut` and every step after it: the chance generator returns to where it
    /// was before the first chance event dropped, the state to the last step kept.
    fn rewind(&mut self, cut: usize) {
        if let Some(rng) = self.steps[cut..]
            .iter()
            .find_map(|s| s.chance_rng_before.clone())
        {
            self.chance_rng = rng;
        }
        let removed = self.steps[cut..]
            .iter()
            .filter(|s| s.action.is_some())
            .count();
        self.steps.truncate(cut);
        self.actions -= removed;
        self.state = match self.steps.last() {
            Some(s) => s.state.clone(),
            None => self.initial.clone(),
        };
        self.revision += 1;
    }

    /// Takes the game back to human seat `p`'s previous turn, against agents too: its last
    /// action and every step after it go, the chance generator and each agent's generator
    /// return to where they were, so the same moves deal the same tiles and the agents
    /// decide alike (an agent limited by time, or one that keeps memory between moves, may
    /// still differ). Refused while an agent is away thinking. Kept in the record as an
    /// [`AssistKind::Undo`].
    pub fn undo_to(&mut self, p: PlayerId) -> Result<(), TableError> {
        if !self.is_human(p) {
            return Err(TableError::NotHuman(p));
        }
        if let Some(away) = self
            .seats
            .iter()
            .position(|s| !s.human && s.agent.is_none())
        {
            return Err(TableError::AgentAway(PlayerId(away as u8)));
        }
        let Some(cut) = self
            .steps
            .iter()
            .rposition(|s| s.action.is_some() && s.player == Some(p))
        else {
            return Err(TableError::NothingToUndoFor(p));
        };
        for (i, seat) in self.seats.iter_mut().enumerate() {
            if let Some(rng) = self.steps[cut..]
                .iter()
                .filter(|s| s.player == Some(PlayerId(i as u8)))
                .find_map(|s| s.agent_rng_before.clone())
            {
                seat.rng = Some(rng);
            }
        }
        self.rewind(cut);
        self.assists.push(Assist {
            seat: p,
            kind: AssistKind::Undo,
            ply: self.actions as u32,
        });
        Ok(())
    }

    /// A hint for human seat `p`, to move: `agent` thinks within `budget` on the state as
    /// `p` sees it, with a generator of its own (seeded from the game's seed and the ply, so
    /// the same position gives the same hint). Run the job anywhere and read
    /// [`Thought::action`]; the table is not changed except that the hint is kept in the
    /// record as an [`AssistKind::Hint`].
    pub fn hint<'b>(
        &mut self,
        p: PlayerId,
        agent: Box<dyn Agent<G> + 'b>,
        budget: Budget,
    ) -> Result<Thinking<'b, G>, TableError> {
        self.player_to_move(p)?;
        if !self.is_human(p) {
            return Err(TableError::NotHuman(p));
        }
        self.assists.push(Assist {
            seat: p,
            kind: AssistKind::Hint,
            ply: self.actions as u32,
        });
        Ok(Thinking {
            player: p,
            agent,
            rng: seeded(derive_seed(self.seed ^ HINT_SALT, self.actions as u64)),
            state: self.state.clone(),
            budget,
            token: usize::MAX,
            forced: None,
        })
    }

    /// Plays an agent seat's `action` without asking the agent (restoring a stored game whose
    /// agents' moves are known): checked like [`Table::play`]. The seat's generator becomes
    /// `rng_after` (the generator as the agent left it after choosing `action`, see
    /// [`Table::agent_rng`]), so that its next decisions are those of the game never
    /// interrupted; with `None` it stays as it is. Refused while the agent is away thinking.
    pub fn replay_agent_action(
        &mut self,
        p: PlayerId,
        action: G::Action,
        rng_after: Option<GameRng>,
    ) -> Result<usize, TableError> {
        self.player_to_move(p)?;
        let seat = &self.seats[p.index()];
        if seat.human {
            return Err(TableError::WrongSeatKind {
                seat: p,
                human: true,
            });
        }
        if seat.agent.is_none() {
            return Err(TableError::AgentAway(p));
        }
        self.state
            .try_apply(action)
            .map_err(|e| TableError::Illegal {
                action: action.to_string(),
                source: Box::new(e),
            })?;
        let seat = &mut self.seats[p.index()];
        let rng_before = match rng_after {
            Some(after) => seat.rng.replace(after),
            None => None,
        };
        self.record_action(p, action, None, rng_before);
        Ok(self.steps.len() - 1)
    }

    /// Agent seat `p`'s generator as it stands (`None` for a human seat or while the agent
    /// is away thinking): after its action, what its next decision starts from.
    pub fn agent_rng(&self, p: PlayerId) -> Option<&GameRng> {
        self.seats.get(p.index()).and_then(|s| s.rng.as_ref())
    }

    /// Renames seat `p` in the record (a person who took a free seat); unknown seats are
    /// ignored.
    pub fn set_label(&mut self, p: PlayerId, label: impl Into<String>) {
        if let Some(s) = self.seats.get_mut(p.index()) {
            s.label = label.into();
        }
    }

    /// Hints and undos so far.
    pub fn assists(&self) -> &[Assist] {
        &self.assists
    }

    /// The game record so far: the initial state, every event, the scores before each chance
    /// event and now, and the result once the game is over.
    pub fn record(&self) -> GameRecord<G::Chance> {
        let mut scores = Vec::new();
        let mut events = Vec::with_capacity(self.steps.len());
        for (i, step) in self.steps.iter().enumerate() {
            if matches!(step.event, Event::Chance { .. }) {
                scores.push(self.state_before(i).scores().as_slice().to_vec());
            }
            events.push(step.event.clone());
        }
        scores.push(self.state.scores().as_slice().to_vec());
        GameRecord {
            game: G::INFO.name.to_string(),
            format: RECORD_FORMAT,
            seed: Some(self.seed),
            seats: self.labels(),
            initial: self.initial.to_string(),
            events,
            scores,
            result: match self.flag {
                Some(p) => Some(flag_outcome(&self.state, p)),
                None => self.state.outcome(),
            },
            assists: self.assists.clone(),
            clock: self.clock(),
            flag: self.flag,
            time_used_ms: self.clocks.as_ref().map_or_else(Vec::new, |c| {
                c.used
                    .iter()
                    .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
                    .collect()
            }),
        }
    }

    /// Ends the table and gives the agents back, seat 0 first (`None` for human seats and
    /// for an agent still away thinking).
    pub fn into_agents(self) -> Vec<Option<Box<dyn Agent<G> + 'a>>> {
        self.seats.into_iter().map(|s| s.agent).collect()
    }
}

/// Plays a game from `initial` to the end (or for at most `max_actions` actions) with one
/// agent per seat, and returns the final state and its record. An agent that picks an
/// illegal action ends the game with an [`IllegalMove`] error.
///
/// This is a [`Table`] of agents played out on this thread: agents of
/// games with hidden information see a [`Game::determinize`]d state, chance uses
/// [`GameSeeds::chance_rng`], agent `p` uses [`GameSeeds::agent_rng`].
pub fn play_game<G: Game>(
    initial: G,
    agents: &mut [&mut dyn Agent<G>],
    budget: &Budget,
    seed: u64,
    max_actions: Option<usize>,
    observer: &mut dyn Observer<G>,
) -> Result<(G, GameRecord<G::Chance>), Box<IllegalMove>> {
    assert_eq!(agents.len(), initial.num_players(), "one agent per seat");
    let seats = agents
        .iter_mut()
        .map(|a| Seat::agent(Box::new(&mut **a), *budget))
        .collect();
    let fail = |e: TableError| match e {
        TableError::IllegalMove(m) => m,
        other => panic!("a table of agents cannot fail otherwise: {other}"),
    };
    let mut table = Table::new(initial, seats, seed).map_err(fail)?;
    table.play_out(max_actions, observer).map_err(fail)?;
    let record = table.record();
    let state = table.state().clone();
    Ok((state, record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RandomAgent;
    use crate::testgame::{Nim, Take};

    fn random_seat<'a>() -> Seat<'a, Nim> {
        Seat::agent(Box::new(RandomAgent::<Nim>::new()), Budget::default())
    }

    #[test]
    fn humans_agents_and_undo() {
        let mut t = Table::new(Nim::new(2), vec![Seat::human("human"), random_seat()], 3).unwrap();
        let mut legal = Vec::new();
        let mut human_moves = 0;
        loop {
            match t.advance().unwrap() {
                Next::Over => break,
                Next::Human(p) => {
                    assert!(matches!(
                        t.think(),
                        Err(TableError::WrongSeatKind { human: true, .. })
                    ));
                    t.state().legal_actions(&mut legal);
                    t.play(p, legal[0]).unwrap();
                    human_moves += 1;
                }
                Next::Agent(p) => {
                    assert!(matches!(
                        t.play(p, legal[0]),
                        Err(TableError::WrongSeatKind { human: false, .. })
                    ));
                    let job = t.think().unwrap();
                    assert_eq!(t.advance().unwrap(), Next::Thinking(p));
                    let done = job.run();
                    assert!(t.hand_back(done).unwrap());
                }
                Next::Thinking(_) => unreachable!(),
            }
        }
        assert!(human_moves > 0);
        assert!(matches!(t.undo(), Err(TableError::UndoNotAllowed)));
        let r = t.record();
        assert_eq!(r.seats, vec!["human", "random"]);
        assert_eq!(crate::replay::<Nim>(&r).unwrap(), *t.state());

        // Two humans: undo takes back the last action and its deal, and the same action
        // deals the same again.
        let mut t = Table::new(Nim::new(2), vec![Seat::human("a"), Seat::human("b")], 9).unwrap();
        assert!(matches!(t.undo(), Err(TableError::NothingToUndo)));
        let Next::Human(p) = t.advance().unwrap() else {
            panic!("a human moves first")
        };
        t.state().legal_actions(&mut legal);
        let a = legal[0];
        t.play(p, a).unwrap();
        t.advance().unwrap();
        let after: Vec<String> = t.record().events.iter().map(|e| format!("{e:?}")).collect();
        t.undo().unwrap();
        assert_eq!(
            t.state(),
            t.steps().last().map_or(t.initial(), |s| &s.state)
        );
        t.play(p, a).unwrap();
        t.advance().unwrap();
        let again: Vec<String> = t.record().events.iter().map(|e| format!("{e:?}")).collect();
        assert_eq!(after, again);
        let other = PlayerId(1 - p.0);
        if let Turn::Player(q) = t.state().turn() {
            assert!(matches!(
                t.play(if q == p { other } else { p }, a),
                Err(TableError::NotYourTurn { .. })
            ));
        }
    }

    /// Plays agents until a human must act; returns that seat (None when over).
    fn to_human(t: &mut Table<'_, Nim>) -> Option<PlayerId> {
        loop {
            match t.advance().unwrap() {
                Next::Over => return None,
                Next::Human(p) => return Some(p),
                Next::Agent(_) => {
                    let done = t.think().unwrap().run();
                    assert!(t.hand_back(done).unwrap());
                }
                Next::Thinking(_) => unreachable!(),
            }
        }
    }

    fn events(t: &Table<'_, Nim>) -> Vec<String> {
        t.record().events.iter().map(|e| format!("{e:?}")).collect()
    }

    #[test]
    fn undo_against_an_agent_replays_alike_and_is_recorded() {
        let seats = || vec![Seat::human("human"), random_seat(), random_seat()];
        let mut t = Table::new(Nim::new(3), seats(), 11).unwrap();
        let mut legal = Vec::new();
        let p = to_human(&mut t).unwrap();
        assert!(matches!(t.undo_to(p), Err(TableError::NothingToUndoFor(_))));
        assert!(matches!(
            t.undo_to(PlayerId(1)),
            Err(TableError::NotHuman(_))
        ));
        // Two human turns; undo goes back to the start of the second.
        t.state().legal_actions(&mut legal);
        t.play(p, legal[0]).unwrap();
        let p = to_human(&mut t).expect("the game goes on");
        let before_second: Vec<String> = events(&t);
        let state_before_second = t.state().clone();
        t.state().legal_actions(&mut legal);
        let second = legal[legal.len() - 1];
        t.play(p, second).unwrap();
        let after = to_human(&mut t);
        let played: Vec<String> = events(&t);
        t.undo_to(p).unwrap();
        assert_eq!(events(&t), before_second);
        assert_eq!(*t.state(), state_before_second);
        // The same move again: the same deals and the same agent moves.
        t.play(p, second).unwrap();
        assert_eq!(to_human(&mut t), after);
        assert_eq!(events(&t), played);
        let r = t.record();
        assert_eq!(
            r.assists,
            vec![Assist {
                seat: p,
                kind: AssistKind::Undo,
                ply: (before_second
                    .iter()
                    .filter(|e| e.starts_with("Action"))
                    .count()) as u32,
            }]
        );
        assert_eq!(crate::replay::<Nim>(&r).unwrap(), *t.state());
        // The record of a game without help has no `assists` key at all.
        let plain = Table::new(Nim::new(3), seats(), 11).unwrap().record();
        let json = serde_json::to_string(&plain).unwrap();
        assert!(!json.contains("assists"), "{json}");
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.contains("\"assists\":[{\"seat\":0,\"kind\":\"undo\""),
            "{json}"
        );
    }

    #[test]
    fn a_hint_is_a_seeded_job_that_changes_nothing_but_the_record() {
        let mut t = Table::new(Nim::new(2), vec![Seat::human("h"), random_seat()], 4).unwrap();
        let p = to_human(&mut t).unwrap();
        let state = t.state().clone();
        let job = t
            .hint(p, Box::new(RandomAgent::<Nim>::new()), Budget::default())
            .unwrap();
        let a = job.run().action();
        let again = t
            .hint(p, Box::new(RandomAgent::<Nim>::new()), Budget::default())
            .unwrap()
            .run()
            .action();
        assert_eq!(a, again, "the same position gives the same hint");
        assert_eq!(*t.state(), state);
        assert!(t.state().clone().try_apply(a).is_ok(), "the hint is legal");
        assert_eq!(t.assists().len(), 2);
        assert!(t.assists().iter().all(|x| x.kind == AssistKind::Hint));
        assert!(matches!(
            t.hint(
                PlayerId(1),
                Box::new(RandomAgent::<Nim>::new()),
                Budget::default()
            ),
            Err(TableError::NotYourTurn { .. })
        ));
    }

    #[test]
    fn a_stale_job_is_dropped() {
        let mut t = Table::new(Nim::new(2), vec![random_seat(), random_seat()], 5).unwrap();
        let Next::Agent(_) = t.advance().unwrap() else {
            panic!("an agent moves first")
        };
        let job = t.think().unwrap();
        let done = job.run();
        let job_token_before = t.steps().len();
        // Played on: the same seat's action arrives once, then a copy is stale.
        assert!(t.hand_back(done).unwrap());
        assert_eq!(t.steps().len(), job_token_before + 1);
        t.advance().unwrap();
        let job = t.think().unwrap();
        let mut done = job.run();
        done.token = 0;
        assert!(!t.hand_back(done).unwrap());
        assert!(matches!(t.advance().unwrap(), Next::Agent(_)));
    }

    /// Thinks for `delay`, or uses its whole time budget when `delay` is `None` (sleeping,
    /// so many can run at once); counts the decisions it was asked for.
    struct Spender {
        delay: Option<Duration>,
        asked: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    }

    impl Agent<Nim> for Spender {
        fn name(&self) -> String {
            "spender".into()
        }
        fn choose(&mut self, state: &Nim, budget: &Budget, rng: &mut GameRng) -> Take {
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            assert!(legal.len() > 1, "a forced move is played without asking");
            self.asked
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let t = self.delay.or(budget.time).expect("a time budget");
            std::thread::sleep(t);
            RandomAgent::<Nim>::new().choose(state, budget, rng)
        }
    }

    fn spender<'a>(delay: Option<Duration>) -> Seat<'a, Nim> {
        Seat::agent(
            Box::new(Spender {
                delay,
                asked: Default::default(),
            }),
            Budget::time(Duration::from_secs(3600)),
        )
    }

    #[test]
    fn a_fallen_flag_ends_the_game_as_a_loss_and_the_record_says_so() {
        let clock: Clock = "30ms".parse().unwrap();
        // Seat 1 thinks 50 ms a move on a 30 ms clock: its first decision loses.
        let mut t = Table::new(
            Nim::new(2),
            vec![random_seat(), spender(Some(Duration::from_millis(50)))],
            6,
        )
        .unwrap()
        .with_clock(clock);
        assert_eq!(t.time_left(PlayerId(1)), Some(Duration::from_millis(30)));
        assert_eq!(t.play_out(None, &mut ()).unwrap(), Played::Over);
        assert_eq!(t.flag(), Some(PlayerId(1)));
        assert_eq!(t.time_left(PlayerId(1)), Some(Duration::ZERO));
        assert_eq!(
            t.state().turn(),
            Turn::Player(PlayerId(1)),
            "the move is not played"
        );
        let r = t.record();
        assert_eq!(r.flag, Some(PlayerId(1)));
        assert_eq!(r.clock, Some(clock));
        assert_eq!(r.result.as_ref().unwrap().winners, vec![PlayerId(0)]);
        assert!(
            matches!(t.faults(), [f] if f.fault.kind == FaultKind::Flag && f.seat == PlayerId(1))
        );
        assert_eq!(crate::replay::<Nim>(&r).unwrap(), *t.state());
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.contains(r#""clock":"30ms","flag":1,"time_used_ms":["#),
            "{json}"
        );
        assert!(r.time_used_ms[1] >= 50, "{json}");
        assert!(r.time_used_ms[0] <= 1, "{json}");
        let back: GameRecord<<Nim as Game>::Chance> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
        // A record whose flagged seat is not the one to move does not replay.
        let mut wrong = r.clone();
        wrong.flag = Some(PlayerId(0));
        assert!(crate::replay::<Nim>(&wrong).is_err());
        // Without a clock the same seats play to the end, and the record has neither key.
        let mut t = Table::new(
            Nim::new(2),
            vec![random_seat(), spender(Some(Duration::from_millis(1)))],
            6,
        )
        .unwrap();
        t.play_out(None, &mut ()).unwrap();
        let json = serde_json::to_string(&t.record()).unwrap();
        assert!(!json.contains("clock") && !json.contains("flag"), "{json}");
        assert!(t.record().result.is_some() && t.flag().is_none());
    }

    /// Notes the time budget of every decision it is asked for, and whether the budget was
    /// marked as the clock's ([`Budget::from_clock`]).
    type Seen = std::sync::Arc<std::sync::Mutex<Vec<(Option<Duration>, bool)>>>;
    struct Spy(Seen);

    impl Agent<Nim> for Spy {
        fn name(&self) -> String {
            "spy".into()
        }
        fn choose(&mut self, state: &Nim, budget: &Budget, rng: &mut GameRng) -> Take {
            self.0
                .lock()
                .unwrap()
                .push((budget.time, budget.from_clock));
            RandomAgent::<Nim>::new().choose(state, budget, rng)
        }
    }

    #[test]
    fn without_a_clock_no_budget_is_the_clocks() {
        let seen = Seen::default();
        let mut t = Table::new(
            Nim::new(2),
            vec![
                Seat::agent(
                    Box::new(Spy(seen.clone())),
                    Budget::time(Duration::from_millis(3)),
                ),
                random_seat(),
            ],
            3,
        )
        .unwrap();
        t.play_out(None, &mut ()).unwrap();
        let seen = seen.lock().unwrap();
        assert!(!seen.is_empty());
        assert!(
            seen.iter()
                .all(|b| *b == (Some(Duration::from_millis(3)), false)),
            "{seen:?}"
        );
    }

    #[test]
    fn a_fixed_time_seat_keeps_its_time_per_move_and_the_other_is_managed() {
        let fixed = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let managed = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seven = Duration::from_millis(7);
        let mut t = Table::new(
            Nim::new(2),
            vec![
                Seat::agent(Box::new(Spy(fixed.clone())), Budget::time(seven)).with_fixed_time(),
                Seat::agent(Box::new(Spy(managed.clone())), Budget::time(seven)),
            ],
            3,
        )
        .unwrap()
        .with_clock("10s+1s".parse().unwrap());
        t.play_out(None, &mut ()).unwrap();
        let fixed = fixed.lock().unwrap();
        let managed = managed.lock().unwrap();
        assert!(!fixed.is_empty() && !managed.is_empty());
        // The fixed seat's time is its own, not the clock's: what it leaves unspent is
        // lost, so its budget is not marked as the clock's.
        assert!(
            fixed.iter().all(|b| *b == (Some(seven), false)),
            "{fixed:?}"
        );
        // The managed seat's share: 10 s over 30 decisions plus 0.9 s of increment, marked
        // as the clock's (what it leaves stays on the clock).
        assert!(
            managed
                .iter()
                .all(|b| b.0.is_some_and(|b| b > Duration::from_millis(500)) && b.1),
            "{managed:?}"
        );
        // A fixed seat is off the clock: it keeps its time even beyond its clock, and its
        // flag never falls; its time used is recorded.
        let mut t = Table::new(
            Nim::new(2),
            vec![
                random_seat(),
                spender(Some(Duration::from_millis(20))).with_fixed_time(),
            ],
            6,
        )
        .unwrap()
        .with_clock("10ms".parse().unwrap());
        assert_eq!(t.play_out(None, &mut ()).unwrap(), Played::Over);
        assert_eq!(t.flag(), None);
        let r = t.record();
        assert!(r.result.is_some() && r.flag.is_none());
        assert!(r.time_used_ms[1] >= 20, "{:?}", r.time_used_ms);
    }

    #[test]
    fn a_person_loses_on_time_too() {
        let mut t = Table::new(Nim::new(2), vec![Seat::human("h"), Seat::human("g")], 2)
            .unwrap()
            .with_clock("20ms+1s".parse().unwrap());
        let Next::Human(p) = t.advance().unwrap() else {
            panic!("a person moves first")
        };
        let mut legal = Vec::new();
        t.state().legal_actions(&mut legal);
        t.play(p, legal[0]).unwrap();
        // The increment came after the move.
        assert!(t.time_left(p).unwrap() > Duration::from_millis(1000));
        let Next::Human(q) = t.advance().unwrap() else {
            panic!("a person moves next")
        };
        assert_ne!(p, q);
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(t.time_left(q), Some(Duration::ZERO));
        t.state().legal_actions(&mut legal);
        assert!(matches!(t.play(q, legal[0]), Err(TableError::Flag(s)) if s == q));
        assert_eq!(t.advance().unwrap(), Next::Over);
        assert_eq!(t.check_flag(), Some(q));
        assert_eq!(t.record().result.unwrap().winners, vec![p]);
    }

    #[test]
    fn a_cap_on_thinking_binds_under_the_clock_and_clock_times_restore() {
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let cap = Duration::from_millis(30);
        let mut t = Table::new(
            Nim::new(2),
            vec![
                Seat::agent(Box::new(Spy(seen.clone())), Budget::time(cap)),
                Seat::human("h"),
            ],
            3,
        )
        .unwrap()
        .with_clock("60s+1s".parse().unwrap())
        .with_max_think(cap);
        assert!(matches!(t.advance().unwrap(), Next::Agent(_)));
        let done = t.think().unwrap().run();
        t.hand_back(done).unwrap();
        // Without the cap the time manager would give about 2 s (60 s over 30 decisions).
        // Capped, the time is still the clock's: what is left stays on it.
        assert_eq!(seen.lock().unwrap().as_slice(), &[(Some(cap), true)]);
        let (left, used) = t.clock_times().unwrap();
        assert!(left[0] > Duration::from_secs(60) && used[0] < Duration::from_secs(1));
        // Restored figures replace the clocks; the person to move starts afresh.
        let left = [Duration::from_millis(5000), Duration::from_millis(70)];
        let used = [Duration::from_millis(1), Duration::from_millis(2)];
        t.set_clock_times(&left, &used);
        assert_eq!(t.clock_times().unwrap(), (left.to_vec(), used.to_vec()));
        let Next::Human(q) = t.advance().unwrap() else {
            panic!("the person moves")
        };
        assert!(t.time_left(q).unwrap() <= Duration::from_millis(70));
        assert!(
            t.replay_flag(PlayerId(0), Duration::ZERO).is_err(),
            "not its turn"
        );
        t.replay_flag(q, Duration::from_millis(70)).unwrap();
        assert_eq!(t.flag(), Some(q));
        let r = t.record();
        assert_eq!(r.flag, Some(q));
        assert_eq!(r.result.unwrap().winners, vec![PlayerId(0)]);
        assert_eq!(r.time_used_ms, vec![1, 72]);
    }

    /// Quick games at a short clock, each agent sleeping through every budget it is given:
    /// the time manager keeps every seat inside its clock, and forced moves cost nothing.
    /// (Its caps under a clock spent down to the margin are checked in `clock::tests`.)
    #[test]
    fn two_hundred_quick_games_under_a_clock_never_flag() {
        let clock: Clock = "1s+10ms".parse().unwrap();
        let asked = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let flags: usize = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..8u64)
                .map(|thread| {
                    let asked = asked.clone();
                    scope.spawn(move || {
                        let mut flags = 0;
                        for game in 0..25u64 {
                            let seat = || {
                                Seat::agent(
                                    Box::new(Spender {
                                        delay: None,
                                        asked: asked.clone(),
                                    }) as Box<dyn Agent<Nim>>,
                                    Budget::default(),
                                )
                            };
                            let mut t =
                                Table::new(Nim::new(2), vec![seat(), seat()], thread * 1000 + game)
                                    .unwrap()
                                    .with_clock(clock);
                            t.play_out(None, &mut ()).unwrap();
                            assert!(t.record().result.is_some());
                            flags += usize::from(t.flag().is_some());
                        }
                        flags
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).sum()
        });
        assert_eq!(flags, 0);
        assert!(asked.load(std::sync::atomic::Ordering::Relaxed) > 200);
    }

    #[test]
    fn wrong_seat_counts_are_refused() {
        assert!(matches!(
            Table::new(Nim::new(3), vec![random_seat(), random_seat()], 1),
            Err(TableError::SeatCount {
                players: 3,
                seats: 2
            })
        ));
    }
}
