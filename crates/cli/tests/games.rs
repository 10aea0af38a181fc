//! `tessera games` and `tessera export` as a user runs them: a tiny tournament into a
//! temporary file is listed, its games are exported and replayed, and the replays end with
//! the stored scores; bad input gives errors that name what exists, with their causes and
//! without a backtrace even when RUST_BACKTRACE asks for one.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;
use tessera_azul::AzulState;
use tessera_core::testgame::Nim;
use tessera_core::{Game, GameRecord, replay};

fn tessera() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tessera"));
    c.env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE");
    c
}

fn run(args: &[&str]) -> Output {
    tessera().args(args).output().expect("tessera runs")
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?}: {}", text(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A file with two runs: 4 Azul games (run 1) and 2 Nim games (run 2).
fn two_runs(db: &Path) {
    let dbs = db.to_str().unwrap();
    ok(&[
        "tournament",
        "azul",
        "--agents",
        "random,greedy",
        "--games",
        "4",
        "--seed",
        "3",
        "--quiet",
        "--db",
        dbs,
    ]);
    ok(&[
        "tournament",
        "nim",
        "--agents",
        "first,random",
        "--games",
        "2",
        "--seed",
        "1",
        "--quiet",
        "--db",
        dbs,
    ]);
}

/// Replays an exported record as game `G` and returns its final scores.
fn replayed_scores<G: Game>(json: &str) -> Vec<i32> {
    let record: GameRecord<G::Chance> = serde_json::from_str(json).expect("a game record");
    let end: G = replay(&record).expect("the exported record replays");
    let outcome = end.outcome().expect("the replayed game is over");
    outcome.scores.as_slice().to_vec()
}

#[test]
fn stored_games_are_listed_exported_and_replay_to_their_stored_scores() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    let dbs = db.to_str().unwrap();
    two_runs(&db);

    let list: Value = serde_json::from_str(&ok(&["games", "--db", dbs, "--format", "json"]))
        .expect("JSON listing");
    let games = list["games"].as_array().unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["1:0", "1:1", "1:2", "1:3", "2:0", "2:1"]);
    // Paired seats: each deal is played twice with the seats swapped.
    assert_eq!(games[0]["seats"], serde_json::json!(["random", "greedy"]));
    assert_eq!(games[1]["seats"], serde_json::json!(["greedy", "random"]));
    assert_eq!(games[0]["seed"], games[1]["seed"]);
    assert_eq!(games[4]["game"], "nim");

    for g in games {
        let id = g["id"].as_str().unwrap();
        let stored: Vec<i32> = serde_json::from_value(g["scores"].clone()).unwrap();
        let record = ok(&["export", "--db", dbs, "--game", id]);
        let scores = match g["game"].as_str().unwrap() {
            "azul" => replayed_scores::<AzulState>(&record),
            "nim" => replayed_scores::<Nim>(&record),
            other => panic!("unexpected game {other}"),
        };
        assert_eq!(scores, stored, "game {id}");
        let rec: Value = serde_json::from_str(&record).unwrap();
        assert_eq!(rec["seats"], g["seats"], "game {id}");
        assert_eq!(rec["seed"].as_u64(), Some(g["seed"].as_u64().unwrap()));
        let actions = rec["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "action")
            .count();
        assert_eq!(actions as u64, g["actions"].as_u64().unwrap(), "game {id}");
    }

    // --out writes the same record; INDEX with --run names the same game as RUN:INDEX.
    let out = dir.path().join("game.json");
    ok(&[
        "export",
        "--db",
        dbs,
        "--game",
        "3",
        "--run",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        ok(&["export", "--db", dbs, "--game", "1:3"])
    );

    // One run only, as a table and as CSV.
    let table = ok(&["games", "--db", dbs, "--run", "1"]);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 5, "{table}");
    assert!(
        lines[0].starts_with("id") && lines[0].contains("scores"),
        "{table}"
    );
    assert!(lines[1].starts_with("1:0  azul"), "{table}");
    assert!(lines[2].contains("greedy / random"), "{table}");
    let csv = ok(&["games", "--db", dbs, "--run", "2", "--format", "csv"]);
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(
        csv.lines().nth(1).unwrap().starts_with("2:0,2,nim,"),
        "{csv}"
    );
    let g4 = &games[4];
    let csv_scores = csv.lines().nth(1).unwrap().split(',').nth(9).unwrap();
    let json_scores: Vec<String> = g4["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(csv_scores, json_scores.join(":"));
}

/// `CMD --db DB`, with `--game 1:0` for `export`.
fn with_game<'a>(cmd: &'a str, db: &'a str) -> Vec<&'a str> {
    let mut v = vec![cmd, "--db", db];
    if cmd == "export" {
        v.extend(["--game", "1:0"]);
    }
    v
}

#[test]
fn bad_files_runs_and_ids_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    let dbs = db.to_str().unwrap();
    two_runs(&db);
    let cases: &[(&[&str], &str)] = &[
        (&["games", "--run", "7"], "has no run 7; it holds runs 1, 2"),
        (&["games", "--format", "xml"], "expected table, csv or json"),
        (
            &["export", "--game", "7:0"],
            "has no run 7; it holds runs 1, 2",
        ),
        (
            &["export", "--game", "1:99"],
            "run 1 has no stored game 99; its stored games are 0-3 (4 games",
        ),
        (
            &["export", "--game", "5", "--run", "2"],
            "run 2 has no stored game 5; its stored games are 0-1",
        ),
        (
            &["export", "--game", "0"],
            "holds runs 1, 2: give the game as RUN:INDEX or add --run",
        ),
        (&["export", "--game", "x"], "expected RUN:INDEX"),
        (&["export", "--game", "1:x"], "expected RUN:INDEX"),
        (
            &["export", "--game", "1:0", "--run", "2"],
            "but --run says 2",
        ),
    ];
    for (args, expected) in cases {
        let mut all = args.to_vec();
        all.extend(["--db", dbs]);
        let o = run(&all);
        assert!(!o.status.success(), "{all:?}");
        let t = text(&o);
        assert!(t.contains(expected), "{all:?}: {t}");
        assert!(!t.contains("panicked"), "{t}");
    }
    // A missing file, and a file that is not a database (left unchanged).
    let missing = dir.path().join("nope.sqlite");
    for cmd in ["games", "export"] {
        let o = run(&with_game(cmd, missing.to_str().unwrap()));
        assert!(!o.status.success());
        assert!(
            text(&o).contains("nope.sqlite: no such file"),
            "{}",
            text(&o)
        );
    }
    assert!(!missing.exists());
    let junk = dir.path().join("junk.sqlite");
    std::fs::write(&junk, b"not a database, just text ".repeat(200)).unwrap();
    let before = std::fs::read(&junk).unwrap();
    for cmd in ["games", "export"] {
        let o = run(&with_game(cmd, junk.to_str().unwrap()));
        assert!(!o.status.success());
        assert!(
            text(&o).contains("cannot be read as a SQLite database"),
            "{}",
            text(&o)
        );
    }
    assert_eq!(std::fs::read(&junk).unwrap(), before);
}

#[test]
fn user_errors_show_their_causes_and_no_backtrace_even_with_rust_backtrace() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("runs.sqlite");
    two_runs(&db);
    let out = dir.path().join("no/such/dir/game.json");
    let o = tessera()
        .env("RUST_BACKTRACE", "1")
        .env("RUST_LIB_BACKTRACE", "1")
        .args([
            "export",
            "--db",
            db.to_str().unwrap(),
            "--game",
            "1:0",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("error: cannot write the record to ")
            && lines[0].ends_with("game.json"),
        "{err}"
    );
    assert!(lines[1].starts_with("caused by: "), "{err}");
    assert!(lines[1].contains("No such file or directory"), "{err}");
    assert!(!err.to_lowercase().contains("backtrace"), "{err}");
    assert!(!out.exists());
}
