//! Typed argument values: clap parses each into its type, so a bad value is clap's usage
//! error (exit status 2) naming the argument and the expected form, before anything runs.

mod common;

use common::run_tessera;

/// Runs `tessera ARGS` expecting clap's usage error; returns stderr.
fn usage_error(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains("try '--help'"),
        "{args:?}: not clap's error: {err}"
    );
    assert!(!err.contains("stack backtrace"), "{args:?}: {err}");
    err
}

#[test]
fn bad_values_are_usage_errors_naming_the_argument_and_the_form() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["tournament", "chess", "--agents", "a,b"],
            &[
                "invalid value 'chess' for '<GAME>'",
                "azul",
                "qwirkle",
                "nim",
            ],
        ),
        (
            &[
                "tournament",
                "azul",
                "--agents",
                "greedy,random",
                "--clock",
                "fast",
            ],
            &["invalid value 'fast' for '--clock <CLOCK>'", "60s+1s"],
        ),
        (
            &[
                "tournament",
                "azul",
                "--agents",
                "greedy,random",
                "--shard",
                "3/2",
            ],
            &["for '--shard <SHARD>'", "3/2"],
        ),
        (
            &["tournament", "azul", "--agents", "greedy,,random"],
            &["for '--agents <AGENTS>'"],
        ),
        (
            &["tournament", "azul", "--agents", "a,b", "--sprt", "elo0=x"],
            &["for '--sprt <SPRT>'", "elo0=E0,elo1=E1"],
        ),
        (
            &["tournament", "azul", "--agents", "a,b", "--format", "xml"],
            &["for '--format <FORMAT>'", "expected table, csv or json"],
        ),
        (
            &["serve", "--max-think", "forever"],
            &["for '--max-think <MAX_THINK>'", "expected a duration"],
        ),
        (&["serve", "--bind", "nowhere"], &["for '--bind <BIND>'"]),
        (
            &["engine", "go"],
            &["invalid value 'go' for '<GAME>'", "azul"],
        ),
        (
            &["agents", "chess"],
            &["invalid value 'chess' for '[GAME]'", "qwirkle"],
        ),
        (
            &["agents", "--format", "xml"],
            &[
                "invalid value 'xml' for '--format <FORMAT>'",
                "table",
                "json",
            ],
        ),
        (
            &["report", "--charts", "png"],
            &["invalid value 'png' for '--charts <CHARTS>'", "svg", "none"],
        ),
        (
            &["solve", "tiles", "--level", "1", "--algo", "astar:nope"],
            &["for '--algo <ALGO>'", "nope"],
        ),
        (
            &["analyze", "azul-search", "--time", "soon"],
            &[
                "for '--time <TIME>'",
                "expected a duration such as 1s or 250ms",
            ],
        ),
        (
            &["analyze", "azul-endgame", "--position", "2 5 play"],
            &[
                "for '--position <POSITION>'",
                "expected 11 space-separated fields",
            ],
        ),
        (
            &["analyze", "azul-endgame", "--time", "1h", "--position", "x"],
            &[
                "for '--time <TIME>'",
                "expected a duration such as 1s or 250ms",
            ],
        ),
        (
            &["analyze", "azul-wall", "partial", "#x"],
            &["invalid value '#x' for '<WALL>'", "n^2 characters"],
        ),
        (
            &["analyze", "azul-wall", "order", "1/2"],
            &["invalid value '1/2' for '<GRID>'", "expected 2"],
        ),
        (
            &["analyze", "azul-wall", "decide", "(9,1)"],
            &["invalid value '(9,1)' for '[INSTANCE]'", "only 2 columns"],
        ),
        (
            &["train", "chess-augur"],
            &["unrecognized subcommand 'chess-augur'", "azul-augur"],
        ),
        (
            &["train", "azul-augur", "--shard", "0/4"],
            &["for '--shard <SHARD>'"],
        ),
        (
            &["play", "tiles", "--level", "one"],
            &["for '--level <LEVEL>'"],
        ),
        (
            &["export", "--game", "first"],
            &[
                "invalid value 'first' for '--game <GAME>'",
                "expected RUN:INDEX or INDEX",
            ],
        ),
        (
            &["play", "azul", "--seats", "human,,random"],
            &["for '--seats <SEATS>'"],
        ),
        (
            &["play", "azul", "--opponent", "level:"],
            &["invalid value 'level:' for '--opponent <OPPONENT>'"],
        ),
        (
            &["play", "azul", "--load", "/no/such/position"],
            &[
                "invalid value '/no/such/position' for '--load <LOAD>'",
                "there is no file /no/such/position",
            ],
        ),
        (
            &["play", "azul", "--players", "5"],
            &[
                "invalid value '5' for '--players <PLAYERS>'",
                "Azul is played by 2 to 4 players",
            ],
        ),
        (
            &["play", "qwirkle", "--seats", "human,points:"],
            &["invalid value 'points:' for '--seats <SEATS>'"],
        ),
        (
            &["train", "azul-augur", "--player", "greedy,,random"],
            &["for '--player <PLAYER>'"],
        ),
        (
            &["train", "azul-augur", "--players", "one"],
            &[
                "invalid value 'one' for '--players <PLAYERS>'",
                "Azul is played by 2 to 4 players",
            ],
        ),
        (
            &["tournament", "azul", "--agents", "a,b", "--players", "9"],
            &[
                "invalid value '9' for '--players <PLAYERS>'",
                "2 to 4 players",
            ],
        ),
    ];
    for (args, wanted) in cases {
        let err = usage_error(args);
        for w in *wanted {
            assert!(err.contains(w), "{args:?}: {w:?} not in {err}");
        }
    }
}

#[test]
fn the_game_names_come_from_the_registrations() {
    // `tessera play` has one subcommand per registration; a seat is an agent
    // specification, checked as the arguments are read.
    let (ok, _, err) = run_tessera(&["play", "chess"], "");
    assert!(!ok);
    assert!(err.contains("unrecognized subcommand 'chess'"), "{err}");
    let err = usage_error(&["play", "nim", "--seats", "human,,random"]);
    assert!(err.contains("for '--seats <SEATS>'"), "{err}");
    // A good value still runs.
    let (ok, out, err) = run_tessera(&["agents", "nim", "--format", "json"], "");
    assert!(ok, "{err}");
    assert!(out.contains("\"game\": \"nim\""), "{out}");
}
