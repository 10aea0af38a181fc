//! End-to-end tests of the arena on the Nim test game: determinism across thread counts,
//! stop and resume, shards and merge, records that replay, and bad files.

use std::path::Path;
use std::sync::atomic::Ordering;

use tessera_arena::error::ArenaError;
use tessera_arena::merge::merge;
use tessera_arena::runner::{Progress, RunOptions, RunReport, run_tournament};
use tessera_arena::schedule::{RunParams, Shard};
use tessera_arena::store::Store;
use tessera_arena::{driver, stats};
use tessera_core::GameRecord;
use tessera_core::testgame::Nim;

fn params() -> RunParams {
    RunParams::new("nim", &["first", "random", "random"], 2, 30, 2, 11)
}

fn run(path: &Path, p: &RunParams, opts: &RunOptions) -> Result<RunReport, ArenaError> {
    let mut store = Store::open(path)?;
    let d = driver(&p.game)?;
    run_tournament(d.as_ref(), p, &mut store, opts, &mut ())
}

fn rows(path: &Path) -> Vec<stats::GameRow> {
    let s = Store::open_read(path).unwrap();
    let runs = s.runs().unwrap();
    assert_eq!(runs.len(), 1);
    s.rows(runs[0].id).unwrap()
}

#[test]
fn results_do_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let p = params();
    let one = run(
        &dir.path().join("a.sqlite"),
        &p,
        &RunOptions {
            jobs: 1,
            batch: 7,
            ..RunOptions::default()
        },
    )
    .unwrap();
    let two = run(
        &dir.path().join("b.sqlite"),
        &p,
        &RunOptions {
            jobs: 2,
            ..RunOptions::default()
        },
    )
    .unwrap();
    assert_eq!(one.played, 180);
    assert_eq!(one.summary, two.summary);
    assert_eq!(
        rows(&dir.path().join("a.sqlite")),
        rows(&dir.path().join("b.sqlite"))
    );
    // A round robin of three agents: three tables, ratings for all.
    assert_eq!(one.summary.series.len(), 3 * 3);
    assert_eq!(one.summary.ratings.len(), 3);
    let games: u64 = one.summary.agents.iter().map(|t| t.games).sum();
    assert_eq!(games, 2 * 180);
}

/// Stops the run (as Ctrl-C does) once `after` games are stored.
struct StopAfter {
    after: u64,
    seen: u64,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Progress for StopAfter {
    fn advance(&mut self, n: u64) {
        self.seen += n;
        if self.seen >= self.after {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

#[test]
fn a_stopped_run_keeps_its_games_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.sqlite");
    let p = RunParams::new("nim", &["sleepy:ms=1", "random"], 2, 200, 1, 3);
    let opts = RunOptions {
        jobs: 2,
        batch: 5,
        ..RunOptions::default()
    };
    let mut stopper = StopAfter {
        after: 10,
        seen: 0,
        stop: opts.stop.clone(),
    };
    let mut store = Store::open(&path).unwrap();
    let d = driver("nim").unwrap();
    let err = run_tournament(d.as_ref(), &p, &mut store, &opts, &mut stopper).unwrap_err();
    let ArenaError::Interrupted { done, total } = err else {
        panic!("expected Interrupted, got {err}");
    };
    assert_eq!(total, 200);
    assert!((10..200).contains(&done), "{done}");
    drop(store);
    assert_eq!(rows(&path).len() as u64, done);
    // Without --resume the same run is refused, and nothing is lost.
    let e = run(&path, &p, &RunOptions::default()).unwrap_err();
    assert!(e.to_string().contains("--resume"), "{e}");
    assert_eq!(rows(&path).len() as u64, done);
    // --resume plays only the missing games.
    let resumed = run(
        &path,
        &p,
        &RunOptions {
            resume: true,
            ..RunOptions::default()
        },
    )
    .unwrap();
    assert_eq!(resumed.played, 200 - done);
    assert!(resumed.run.complete());
    let fresh = run(&dir.path().join("fresh.sqlite"), &p, &RunOptions::default()).unwrap();
    assert_eq!(resumed.summary, fresh.summary);
    // Running a complete run again reports it without playing.
    let again = run(&path, &p, &RunOptions::default()).unwrap();
    assert_eq!((again.played, again.summary), (0, fresh.summary));
}

#[test]
fn resume_of_another_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.sqlite");
    run(&path, &params(), &RunOptions::default()).unwrap();
    let mut other = params();
    other.seed = 12;
    let e = run(
        &path,
        &other,
        &RunOptions {
            resume: true,
            ..RunOptions::default()
        },
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("holds no run with these parameters"), "{msg}");
    assert!(msg.contains("--seed 11"), "lists what is there: {msg}");
    assert_eq!(rows(&path).len(), 180);
}

#[test]
fn merged_shards_equal_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = params();
    let whole = run(&dir.path().join("whole.sqlite"), &p, &RunOptions::default()).unwrap();
    let mut shard_files = Vec::new();
    let mut sum = 0;
    for k in 1..=3 {
        let f = dir.path().join(format!("s{k}.sqlite"));
        let r = run(
            &f,
            &p,
            &RunOptions {
                shard: Shard { index: k, count: 3 },
                ..RunOptions::default()
            },
        )
        .unwrap();
        sum += r.run.total;
        assert!(r.run.total > 0);
        shard_files.push(f);
    }
    assert_eq!(sum, 180);
    let out = dir.path().join("merged.sqlite");
    // Merging in two steps, one file twice: still the whole run, once.
    merge(&out, &shard_files[..2]).unwrap();
    let merged = merge(&out, &shard_files[1..]).unwrap();
    assert!(merged.iter().all(|m| m.run.complete()));
    assert_eq!(rows(&out), rows(&dir.path().join("whole.sqlite")));
    let s = Store::open_read(&out).unwrap();
    let info = &s.runs().unwrap()[0];
    let summary = stats::summarize(&p.labels(), &p.tables(), &s.rows(info.id).unwrap());
    assert_eq!(summary, whole.summary);
    // Merging into one of the inputs is refused.
    assert!(merge(&shard_files[0], &shard_files[..1]).is_err());
}

#[test]
fn stored_records_replay_to_the_stored_result() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rec.sqlite");
    let mut p = RunParams::new("nim", &["random", "first", "random"], 3, 6, 1, 5);
    p.paired = true;
    run(&path, &p, &RunOptions::default()).unwrap();
    let s = Store::open_read(&path).unwrap();
    let games = s.games(1).unwrap();
    assert_eq!(games.len(), 6);
    for g in games {
        let record: GameRecord<Vec<u8>> = serde_json::from_str(&g.game.record).unwrap();
        assert_eq!(record.seed, Some(g.slot.seed));
        let labels: Vec<&str> = g.slot.seats.iter().map(|&a| p.agents[a].as_str()).collect();
        assert_eq!(record.seats, labels);
        let end: Nim = tessera_core::replay(&record).unwrap();
        let outcome = tessera_core::Game::outcome(&end).unwrap();
        assert_eq!(outcome.scores.as_slice(), &g.game.scores[..]);
    }
}

#[test]
fn bad_files_are_refused_and_left_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    // Not a database at all.
    let junk = dir.path().join("junk.sqlite");
    let bytes = b"this is not a database, but somebody's notes\n".repeat(200);
    std::fs::write(&junk, &bytes).unwrap();
    let e = run(&junk, &params(), &RunOptions::default()).unwrap_err();
    assert!(e.to_string().contains("junk.sqlite"), "{e}");
    assert_eq!(std::fs::read(&junk).unwrap(), bytes);
    // Another program's SQLite database.
    let other = dir.path().join("other.sqlite");
    {
        let c = rusqlite::Connection::open(&other).unwrap();
        c.execute_batch("CREATE TABLE notes(t TEXT); INSERT INTO notes VALUES ('keep me');")
            .unwrap();
    }
    let e = run(&other, &params(), &RunOptions::default()).unwrap_err();
    assert!(e.to_string().contains("another program"), "{e}");
    let c = rusqlite::Connection::open(&other).unwrap();
    let n: i64 = c
        .query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 1);
    // A directory, and a file in a missing directory.
    assert!(run(dir.path(), &params(), &RunOptions::default()).is_err());
    let e = run(
        &dir.path().join("missing/x.sqlite"),
        &params(),
        &RunOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("does not exist"), "{e}");
    // Reading a file that does not exist.
    assert!(Store::open_read(&dir.path().join("nope.sqlite")).is_err());
}

#[test]
fn bad_parameters_are_refused_before_the_file_is_touched() {
    let d = driver("nim").unwrap();
    let mut p = params();
    p.games = 0;
    assert!(
        p.validate(d.as_ref())
            .unwrap_err()
            .to_string()
            .contains("--games")
    );
    let p = RunParams::new("nim", &["first"], 2, 10, 1, 1);
    assert!(
        p.validate(d.as_ref())
            .unwrap_err()
            .to_string()
            .contains("two agents")
    );
    let p = RunParams::new("nim", &["first", "random"], 3, 10, 1, 1);
    assert!(
        p.validate(d.as_ref())
            .unwrap_err()
            .to_string()
            .contains("3 seats but only 2")
    );
    let p = RunParams::new("nim", &["first", "random"], 5, 10, 1, 1);
    assert!(
        p.validate(d.as_ref())
            .unwrap_err()
            .to_string()
            .contains("2 to 4 players")
    );
    let p = RunParams::new("nim", &["first", "alphabeta:depth=2"], 2, 10, 1, 1);
    let e = p.validate(d.as_ref()).unwrap_err().to_string();
    assert!(
        e.contains("unknown nim agent 'alphabeta'") && e.contains("first"),
        "{e}"
    );
    let e = driver("chess")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("known games"), "{e}");
}

#[test]
fn a_clocked_run_stores_its_clock_and_records() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clock.sqlite");
    let mut p = RunParams::new("nim", &["random", "first"], 2, 10, 1, 5);
    p.clock = Some("2s+10ms".parse().unwrap());
    let report = run(&path, &p, &RunOptions::default()).unwrap();
    assert_eq!(report.run.params.clock, p.clock);
    assert!(report.faults.is_empty(), "{:?}", report.faults);
    let s = Store::open_read(&path).unwrap();
    assert_eq!(s.run(1).unwrap().params.clock, p.clock);
    for g in s.games(1).unwrap() {
        let record: GameRecord<Vec<u8>> = serde_json::from_str(&g.game.record).unwrap();
        assert_eq!(record.clock, p.clock);
        assert_eq!(record.flag, None);
        let end: Nim = tessera_core::replay(&record).unwrap();
        let outcome = tessera_core::Game::outcome(&end).unwrap();
        assert_eq!(outcome.scores.as_slice(), &g.game.scores[..]);
    }
    // The same run without a clock is another run, and its records name no clock.
    p.clock = None;
    let plain = run(&path, &p, &RunOptions::default()).unwrap();
    assert_ne!(plain.run.id, report.run.id);
    let record = &s.games(plain.run.id).unwrap()[0].game.record;
    assert!(!record.contains("clock"), "{record}");
}
