//! The tournament runner: plays a run's missing games in parallel and stores them.
//!
//! Games are played on a rayon pool of `jobs` threads; each game depends only on its seed
//! and seats, so the results do not depend on `jobs` or on the order games finish in. The
//! run's agent specifications are parsed once; each worker thread builds its agents once
//! (an external engine is started once per worker) and reuses them from game to game,
//! [`tessera_core::Agent::reset`] between games, with the same results as agents built per
//! game (tested). The
//! calling thread collects finished games and commits them in batches (at least every
//! quarter second), so a run that is stopped or killed keeps what it committed, and
//! `resume` plays only what is missing.
//!
//! Worker threads take the schedule's games in order from one counter. A run with an SPRT
//! ([`RunParams::sprt`]) feeds every stored batch to [`SprtTracker`], which counts pairs in
//! schedule order; workers stay at most 4 games per thread ahead of the store and stop once
//! the test decides. The decision is stored with the run ([`Store::save_sprt`]) and a
//! resumed run recomputes it from its stored games, so a decided run plays nothing more.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::analysis::{Analysis, Anchor, SprtTracker, analyze};
use crate::error::{ArenaError, ParamsError, RunError};
use crate::games::{GameDriver, Lineup, Worker};
use crate::schedule::{RunParams, Shard, Slot};
use crate::sprt::Decision;
use crate::stats::{Summary, summarize};
use crate::store::{RunInfo, Store, StoredGame};

/// How to run (not what: that is [`RunParams`]).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads (0: one per core).
    pub jobs: usize,
    /// The slice of the run to play.
    pub shard: Shard,
    /// Complete a stored run instead of starting a new one.
    pub resume: bool,
    /// Set to stop early (for example from a Ctrl-C handler); finished games are kept.
    pub stop: Arc<AtomicBool>,
    /// Commit after this many games (and at least every quarter second).
    pub batch: usize,
    /// Build the agents afresh for every game instead of once per worker (slower; for
    /// checking that reuse changes nothing).
    pub fresh_agents: bool,
    /// The anchor of a round robin's or gauntlet's ratings (default: `random` at 0 if it
    /// plays, else the first agent at 0).
    pub anchor: Option<Anchor>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            jobs: 0,
            shard: Shard::ALL,
            resume: false,
            stop: Arc::new(AtomicBool::new(false)),
            batch: 256,
            fresh_agents: false,
            anchor: None,
        }
    }
}

/// Progress reports from a run.
pub trait Progress {
    /// The run starts: `total` games in this slice, `done` of them already stored.
    fn start(&mut self, _total: u64, _done: u64) {}
    /// `n` more games are stored.
    fn advance(&mut self, _n: u64) {}
    /// A short status to show beside the count (a sequential test's `LLR 1.23 [-2.94, 2.94]`).
    fn message(&mut self, _text: &str) {}
    /// The run ends.
    fn finish(&mut self) {}
}

impl Progress for () {}

/// What a finished run reports.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The run as stored.
    pub run: RunInfo,
    /// Games played by this call.
    pub played: u64,
    /// Statistics of every stored game of the run.
    pub summary: Summary,
    /// The pair-aware analysis of the stored games (pairs, rotation sets, ratings, SPRT).
    pub analysis: Analysis,
    /// Agents' faults (external engines' timeouts, illegal answers, restarts) in the run's
    /// stored games, per agent label: (label, kind, count).
    pub faults: Vec<(String, tessera_core::table::FaultKind, u64)>,
}

/// Plays (or completes, with `opts.resume`) the run `params` of `driver`'s game, storing
/// every game in `store`. A run already complete in `store` is reported without playing;
/// an incomplete one is completed only with `opts.resume`. Errors before any game is played
/// leave the store as it was.
pub fn run_tournament(
    driver: &dyn GameDriver,
    params: &RunParams,
    store: &mut Store,
    opts: &RunOptions,
    progress: &mut dyn Progress,
) -> Result<RunReport, ArenaError> {
    check_game(driver, params)?;
    params.validate(driver)?;
    // The specifications are parsed once, here; workers build agents from the plans.
    let lineup = driver.lineup(&params.agents)?;
    run_with(params, lineup, None, store, opts, progress)
}

/// The run must be of `driver`'s game.
fn check_game(driver: &dyn GameDriver, params: &RunParams) -> Result<(), ArenaError> {
    if params.game != driver.name() {
        return Err(ParamsError::WrongGame {
            run: params.game.clone(),
            driver: driver.name(),
        }
        .into());
    }
    Ok(())
}

/// A run checked and its first worker's agents built, before any file is opened: an agent
/// that cannot be built (a bad parameter value, an engine that does not start) is reported
/// before the results file is created.
pub struct Prepared {
    lineup: Box<dyn Lineup>,
    first: Box<dyn Worker>,
}

/// Checks `params`, parses its agents once and builds the first worker's agents.
pub fn prepare(driver: &dyn GameDriver, params: &RunParams) -> Result<Prepared, ArenaError> {
    params.validate(driver)?;
    let lineup = driver.lineup(&params.agents)?;
    let first = lineup.worker()?;
    Ok(Prepared { lineup, first })
}

/// [`run_tournament`] of a [`prepare`]d run (the first worker plays, no agent is built twice).
pub fn run_prepared(
    driver: &dyn GameDriver,
    params: &RunParams,
    prepared: Prepared,
    store: &mut Store,
    opts: &RunOptions,
    progress: &mut dyn Progress,
) -> Result<RunReport, ArenaError> {
    check_game(driver, params)?;
    run_with(
        params,
        prepared.lineup,
        Some(prepared.first),
        store,
        opts,
        progress,
    )
}

/// Worker threads allowed per core: more only queue behind each other (external engines
/// are separate processes, so a few per core can still help).
pub const JOBS_PER_CORE: usize = 4;

/// The cores available to this process (1 if unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Refuses more than [`JOBS_PER_CORE`] threads per core.
pub fn check_jobs(jobs: usize) -> Result<(), ParamsError> {
    let cores = cores();
    let max = JOBS_PER_CORE * cores;
    if jobs > max {
        return Err(ParamsError::TooManyJobs { jobs, max, cores });
    }
    Ok(())
}

fn run_with(
    params: &RunParams,
    lineup: Box<dyn Lineup>,
    prepared: Option<Box<dyn Worker>>,
    store: &mut Store,
    opts: &RunOptions,
    progress: &mut dyn Progress,
) -> Result<RunReport, ArenaError> {
    check_jobs(opts.jobs)?;
    if let Some(a) = &opts.anchor {
        a.index(&params.labels())?;
    }
    let tables = params.tables();
    let total_all = params.total_games().unwrap_or(0);
    let slots: Vec<Slot> = (0..total_all)
        .map(|i| params.slot_in(i, &tables))
        .filter(|s| params.in_shard(s, opts.shard))
        .collect();
    let existing = store.find_run(params, opts.shard)?;
    // A run whose sequential test has decided is finished, whatever its game count.
    let decided = |run: &RunInfo, store: &Store| -> Result<bool, ArenaError> {
        Ok(match params.sprt {
            Some(sprt) => {
                SprtTracker::from_rows(sprt, params, &store.rows(run.id)?)
                    .status()
                    .decision
                    != Decision::Continue
            }
            None => false,
        })
    };
    let finished = match &existing {
        Some(run) => run.complete() || decided(run, store)?,
        None => false,
    };
    // The first worker is built before the store is touched, so an agent that cannot be
    // built (an engine that does not start) leaves the file as it was.
    let first_worker = match (&existing, opts.resume, prepared) {
        (_, _, Some(w)) => Some(w),
        (None, false, None) => Some(lineup.worker()?),
        (Some(_), true, None) if !finished => Some(lineup.worker()?),
        _ => None,
    };
    let run = match (existing, opts.resume) {
        // A complete run is simply reported again (nothing to play).
        (Some(run), true) => run,
        (Some(run), false) if finished => run,
        (Some(run), false) => {
            return Err(RunError::Exists {
                path: store.path().to_string(),
                run: run.id,
                done: run.done,
                total: run.total,
            }
            .into());
        }
        (None, true) => {
            let runs = store.runs()?;
            let listing = if runs.is_empty() {
                "it holds no runs".to_string()
            } else {
                let lines: Vec<String> = runs
                    .iter()
                    .map(|r| {
                        format!(
                            "  run {} (shard {}, {} of {} games): {}",
                            r.id,
                            r.shard,
                            r.done,
                            r.total,
                            r.params.command_line()
                        )
                    })
                    .collect();
                format!("it holds:\n{}", lines.join("\n"))
            };
            return Err(RunError::NotFound {
                path: store.path().to_string(),
                shard: opts.shard.to_string(),
                listing,
            }
            .into());
        }
        (None, false) => store.create_run(params, opts.shard, slots.len() as u64)?,
    };
    // External engines are named by their handshake's `id name` in reports.
    if params.agents.iter().any(|a| a.starts_with("ext:"))
        && run.params.names.iter().all(Option::is_none)
    {
        let names: Vec<Option<String>> = params
            .agents
            .iter()
            .map(|a| crate::ext::identify(a))
            .collect();
        store.save_agent_names(run.id, &names)?;
    }
    let done = store.done_indices(run.id)?;
    // The sequential test, from the stored pairs: a decided test plays nothing more.
    let mut tracker = match params.sprt {
        Some(sprt) => Some(SprtTracker::from_rows(sprt, params, &store.rows(run.id)?)),
        None => None,
    };
    let undecided = tracker
        .as_ref()
        .is_none_or(|t| t.status().decision == Decision::Continue);
    let todo: Vec<Slot> = slots
        .into_iter()
        .filter(|s| undecided && !done.contains(&s.index))
        .collect();
    progress.start(run.total, done.len() as u64);
    if let Some(t) = &tracker {
        progress.message(&t.status().progress_text());
    }
    let mut batch_opts = opts.clone();
    let mut ahead = None;
    if tracker.is_some() {
        // Small batches, and workers at most a few games ahead of the store, so the test
        // sees every pair soon and few games are played past its decision.
        let threads = if opts.jobs == 0 { cores() } else { opts.jobs }.max(1);
        batch_opts.batch = opts.batch.min(threads);
        ahead = Some(4 * threads);
    }
    let played = {
        let mut on_stored = |games: &[StoredGame], progress: &mut dyn Progress| -> bool {
            let Some(t) = tracker.as_mut() else {
                return false;
            };
            let mut decision = Decision::Continue;
            for g in games {
                decision = t.add(&g.row());
            }
            progress.message(&t.status().progress_text());
            decision != Decision::Continue
        };
        play_all(
            lineup.as_ref(),
            first_worker,
            run.id,
            todo,
            store,
            &batch_opts,
            progress,
            &mut on_stored,
            ahead,
            params.clock,
        )
    };
    progress.finish();
    let played = played?;
    let run = store.run(run.id)?;
    let rows = store.rows(run.id)?;
    let analysis = analyze(&run.params, &rows, opts.anchor.as_ref())?;
    if let Some(status) = &analysis.sprt {
        store.save_sprt(run.id, status)?;
    }
    let finished = run.complete()
        || analysis
            .sprt
            .as_ref()
            .is_some_and(|s| s.decision != Decision::Continue);
    if opts.stop.load(Ordering::SeqCst) && !finished {
        return Err(ArenaError::Interrupted {
            done: run.done,
            total: run.total,
        });
    }
    if finished {
        store.mark_finished(run.id)?;
    }
    let summary = summarize(&run.params.labels(), &tables, &rows);
    let faults = fault_counts(&run.params, store, run.id)?;
    Ok(RunReport {
        run,
        played,
        summary,
        analysis,
        faults,
    })
}

/// Faults per agent label and kind, in label order (flag losses under a clock among them).
pub fn fault_counts(
    params: &RunParams,
    store: &Store,
    run: i64,
) -> Result<Vec<(String, tessera_core::table::FaultKind, u64)>, ArenaError> {
    let labels = params.labels();
    let mut counts: std::collections::BTreeMap<(usize, tessera_core::table::FaultKind), u64> =
        Default::default();
    let seats_of: std::collections::HashMap<u64, Vec<usize>> = store
        .rows(run)?
        .into_iter()
        .map(|r| (r.index, r.seats))
        .collect();
    for (idx, f) in store.faults(run)? {
        if let Some(&agent) = seats_of.get(&idx).and_then(|s| s.get(f.seat.index())) {
            *counts.entry((agent, f.fault.kind)).or_default() += 1;
        }
    }
    Ok(counts
        .into_iter()
        .map(|((a, kind), n)| (labels[a].clone(), kind, n))
        .collect())
}

/// After every stored batch: true to stop playing (the runner's SPRT has decided).
type OnStored<'a> = dyn FnMut(&[StoredGame], &mut dyn Progress) -> bool + 'a;

#[allow(clippy::too_many_arguments)]
fn play_all(
    lineup: &dyn Lineup,
    first_worker: Option<Box<dyn Worker>>,
    run: i64,
    todo: Vec<Slot>,
    store: &mut Store,
    opts: &RunOptions,
    progress: &mut dyn Progress,
    on_stored: &mut OnStored<'_>,
    ahead: Option<usize>,
    clock: Option<tessera_core::Clock>,
) -> Result<u64, ArenaError> {
    if todo.is_empty() {
        return Ok(0);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.jobs)
        .thread_name(|i| format!("arena-{i}"))
        .build()
        .map_err(ArenaError::Threads)?;
    // Every pool thread takes the next game of the schedule in turn (so games are played
    // roughly in schedule order, which a sequential test needs) and keeps its worker (its
    // agents) for the run; the first thread starts with the prepared worker.
    let first_worker = std::sync::Mutex::new(first_worker);
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Games stored so far by this call: with `ahead`, workers start no game more than
    // `ahead` games past it (a sequential test must not run far beyond its decision).
    let acked = std::sync::atomic::AtomicUsize::new(0);
    let fresh = opts.fresh_agents;
    let (tx, rx) = mpsc::sync_channel::<Result<StoredGame, ArenaError>>(4096);
    let stop = opts.stop.clone();
    // A failed game, or a decided test, stops the workers too, without touching the
    // caller's flag.
    let failed = Arc::new(AtomicBool::new(false));
    let mut played = 0u64;
    let mut first_error: Option<ArenaError> = None;
    std::thread::scope(|scope| {
        let failed_w = failed.clone();
        let todo = &todo;
        let next = &next;
        let acked = &acked;
        let first_worker = &first_worker;
        scope.spawn(move || {
            pool.broadcast(|ctx| {
                let tx = tx.clone();
                let mut worker: Option<Box<dyn Worker>> = if ctx.index() == 0 {
                    first_worker
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .take()
                } else {
                    None
                };
                loop {
                    if stop.load(Ordering::Relaxed) || failed_w.load(Ordering::Relaxed) {
                        return;
                    }
                    if let Some(window) = ahead
                        && next.load(Ordering::SeqCst) >= acked.load(Ordering::SeqCst) + window
                    {
                        std::thread::sleep(Duration::from_millis(1));
                        continue;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(slot) = todo.get(i) else {
                        return;
                    };
                    let r = if fresh {
                        lineup
                            .worker()
                            .and_then(|mut w| w.play_clocked(&slot.seats, slot.seed, clock))
                    } else {
                        let w = match worker.take() {
                            Some(w) => Ok(w),
                            None => lineup.worker(),
                        };
                        w.and_then(|mut w| {
                            let r = w.play_clocked(&slot.seats, slot.seed, clock);
                            worker = Some(w);
                            r
                        })
                    };
                    let r = r.map(|game| StoredGame {
                        slot: slot.clone(),
                        game,
                    });
                    if r.is_err() {
                        failed_w.store(true, Ordering::Relaxed);
                    }
                    if tx.send(r).is_err() {
                        return;
                    }
                }
            });
            drop(tx);
        });
        let mut buffer: Vec<StoredGame> = Vec::with_capacity(opts.batch.max(1));
        let mut last_flush = Instant::now();
        let flush_every = Duration::from_millis(250);
        let mut flush = |buffer: &mut Vec<StoredGame>,
                         first_error: &mut Option<ArenaError>,
                         progress: &mut dyn Progress| {
            if buffer.is_empty() {
                return;
            }
            match store.insert_games(run, buffer) {
                Ok(()) => {
                    played += buffer.len() as u64;
                    acked.fetch_add(buffer.len(), Ordering::SeqCst);
                    progress.advance(buffer.len() as u64);
                    if on_stored(buffer, progress) {
                        failed.store(true, Ordering::Relaxed);
                    }
                }
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                }
            }
            buffer.clear();
        };
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(Ok(g)) => buffer.push(g),
                Ok(Err(e)) => {
                    first_error.get_or_insert(e);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if buffer.len() >= opts.batch.max(1) || last_flush.elapsed() >= flush_every {
                flush(&mut buffer, &mut first_error, progress);
                last_flush = Instant::now();
            }
        }
        flush(&mut buffer, &mut first_error, progress);
    });
    match first_error {
        Some(e) => Err(e),
        None => Ok(played),
    }
}
