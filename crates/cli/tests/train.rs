//! `tessera train azul-augur` as a user runs it: a small multi-player self-play run writes
//! rows and weights that load; the same games played as two slices and fitted together give
//! the same weights; bad arguments and files give clear errors.

mod common;

use common::run_tessera;
use tessera_azul::augur::{BASE_FEATURES, NUM_FEATURES, NUM_STAGES, TrainingRow, WeightsFile};

fn ok(args: &[&str]) -> String {
    let (success, out, err) = run_tessera(args, "");
    assert!(success, "{args:?}: {out}{err}");
    out
}

/// `base` followed by `extra`.
fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    [base, extra].concat()
}

fn rows(path: &std::path::Path) -> Vec<TrainingRow> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| TrainingRow::parse(l).unwrap())
        .collect()
}

#[test]
fn three_player_self_play_writes_pair_rows_and_weights_and_slices_agree() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let common = [
        "train",
        "azul-augur",
        "--players",
        "3",
        "--seed",
        "5",
        "--games",
        "6",
        "--player",
        "greedy",
    ];
    let (all_txt, w_json) = (p("all.txt"), p("w.json"));
    let report = ok(&with(&common, &["--data", &all_txt, "--out", &w_json]));
    assert!(report.contains("weights written"), "{report}");
    let w = WeightsFile::parse(&std::fs::read_to_string(p("w.json")).unwrap()).unwrap();
    assert_eq!(w.training.players, 3);
    assert_eq!(w.training.games, 6);
    assert!(
        w.training.command.contains("--players 3"),
        "{}",
        w.training.command
    );
    assert_eq!(w.stages.len(), NUM_STAGES);
    let all = rows(&dir.path().join("all.txt"));
    assert!(all.len() > 100, "{} rows", all.len());
    // Three players: pairs 0-2; a pair without the winner is left out, so each position
    // gives two rows (one winner) or three (a shared win).
    assert!(all.iter().all(|r| r.pair < 3));
    let positions: std::collections::BTreeSet<(u64, u32)> =
        all.iter().map(|r| (r.game, r.ply)).collect();
    assert!(all.len() >= 2 * positions.len() && all.len() <= 3 * positions.len());

    // The same six games as two slices, then one fit: the same weights.
    for k in ["1/2", "2/2"] {
        let data = p(&format!("slice{}.txt", &k[..1]));
        ok(&with(&common, &["--shard", k, "--data", &data]));
    }
    let (files, w2_json) = (
        format!("{},{}", p("slice2.txt"), p("slice1.txt")),
        p("w2.json"),
    );
    ok(&with(&common, &["--fit", &files, "--out", &w2_json]));
    let w2 = WeightsFile::parse(&std::fs::read_to_string(p("w2.json")).unwrap()).unwrap();
    assert_eq!(w2.stages, w.stages);
    // --compare prints a weights file's held-out loss beside the fit's, one per stage.
    let (w3_json, all_txt2) = (p("w3.json"), p("all.txt"));
    let report = ok(&with(
        &common,
        &["--fit", &all_txt2, "--compare", &w_json, "--out", &w3_json],
    ));
    let header = report.lines().next().unwrap();
    assert!(
        header.ends_with(&format!("held-out log loss of {w_json}")),
        "{report}"
    );
    assert_eq!(
        report
            .lines()
            .filter(|l| l.split(" | ").count() == 7)
            .count(),
        NUM_STAGES + 1,
        "{report}"
    );
    // The default fit has the 14 base features (as every file before the table features);
    // `--features 17` adds the three of the tiles on the table, records the flag, and a
    // 17-feature file cannot be compared on 14.
    assert_eq!(w.features.len(), BASE_FEATURES);
    assert!(!w.training.command.contains("--features"));
    let w17_json = p("w17.json");
    ok(&with(
        &common,
        &[
            "--fit",
            &all_txt2,
            "--features",
            "17",
            "--compare",
            &w_json,
            "--out",
            &w17_json,
        ],
    ));
    let w17 = WeightsFile::parse(&std::fs::read_to_string(&w17_json).unwrap()).unwrap();
    assert_eq!(w17.features.len(), NUM_FEATURES);
    assert!(w17.stages.iter().all(|st| st.len() == NUM_FEATURES));
    assert!(w17.training.command.ends_with("--features 17"));
    assert_ne!(
        w17.stages[0][..BASE_FEATURES],
        w.stages[0][..],
        "the table features moved the fit"
    );
    let (success, _, err) = run_tessera(
        &with(
            &common,
            &[
                "--fit",
                &all_txt2,
                "--compare",
                &w17_json,
                "--out",
                &w3_json,
            ],
        ),
        "",
    );
    assert!(!success && err.contains("pass --features 17"), "{err}");
    let (success, _, err) = run_tessera(
        &with(
            &common,
            &["--fit", &all_txt2, "--features", "18", "--out", &w3_json],
        ),
        "",
    );
    assert!(!success && err.contains("18"), "{err}");
    // Three-player rows fitted as two-player ones are refused: the weights file would say
    // two players.
    let (success, _, err) = run_tessera(
        &[
            "train",
            "azul-augur",
            "--fit",
            &all_txt2,
            "--out",
            &p("w4.json"),
        ],
        "",
    );
    assert!(!success);
    assert!(err.contains("more than 2 players"), "{err}");
    // A slice given twice is the same rows once; rows of another run with the same game
    // numbers are refused rather than half dropped.
    let twice = format!(
        "{},{},{}",
        p("slice1.txt"),
        p("slice1.txt"),
        p("slice2.txt")
    );
    ok(&with(&common, &["--fit", &twice, "--out", &p("w5.json")]));
    let w5 = WeightsFile::parse(&std::fs::read_to_string(p("w5.json")).unwrap()).unwrap();
    assert_eq!(w5.stages, w.stages);
    let other = p("other.txt");
    ok(&with(
        &with(
            &common[..4],
            &["--seed", "6", "--games", "6", "--player", "greedy"],
        ),
        &["--data", &other],
    ));
    let (success, _, err) = run_tessera(
        &with(
            &common,
            &[
                "--fit",
                &format!("{all_txt2},{other}"),
                "--out",
                &p("w6.json"),
            ],
        ),
        "",
    );
    assert!(!success);
    assert!(err.contains("different self-play runs"), "{err}");
    assert!(!dir.path().join("w6.json").exists());
    let mut sliced = rows(&dir.path().join("slice1.txt"));
    sliced.extend(rows(&dir.path().join("slice2.txt")));
    assert_eq!(sliced.len(), all.len());
}

#[test]
fn bad_arguments_and_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let (success, _, err) = run_tessera(
        &["train", "azul-augur", "--players", "5", "--data", "x.txt"],
        "",
    );
    assert!(!success);
    assert!(
        err.contains("'5' for '--players <PLAYERS>'") && err.contains("2 to 4"),
        "{err}"
    );
    assert!(!err.contains("backtrace"), "{err}");
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "1 2 0 1 1 0 0\n").unwrap();
    let out = dir.path().join("w.json");
    let (success, _, err) = run_tessera(
        &[
            "train",
            "azul-augur",
            "--fit",
            bad.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert!(!success);
    assert!(
        err.contains("bad.txt:1") && err.contains("malformed"),
        "{err}"
    );
    assert!(!out.exists(), "no weights from a bad file");
}

#[test]
fn one_spec_per_seat_mixes_the_players_and_a_wrong_count_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let base = [
        "train",
        "azul-augur",
        "--players",
        "3",
        "--seed",
        "8",
        "--games",
        "3",
    ];
    let (same, mixed) = (p("same.txt"), p("mixed.txt"));
    ok(&with(&base, &["--player", "greedy", "--data", &same]));
    ok(&with(
        &base,
        &["--player", "greedy,greedy,greedy", "--data", &mixed],
    ));
    assert_eq!(
        rows(&dir.path().join("same.txt")),
        rows(&dir.path().join("mixed.txt")),
        "one spec is the same as that spec at every seat"
    );
    let other = p("other.txt");
    ok(&with(
        &base,
        &["--player", "greedy,random,random", "--data", &other],
    ));
    assert_ne!(
        rows(&dir.path().join("same.txt")),
        rows(&dir.path().join("other.txt"))
    );
    let (success, _, err) = run_tessera(
        &with(&base, &["--player", "greedy,random", "--data", &p("x.txt")]),
        "",
    );
    assert!(!success);
    assert!(err.contains("2 specs for 3 players"), "{err}");
    let (success, _, err) = run_tessera(
        &with(
            &base,
            &["--player", "greedy,nonsense,random", "--data", &p("y.txt")],
        ),
        "",
    );
    assert!(!success);
    assert!(err.contains("--player nonsense"), "{err}");
}

#[test]
fn observations_are_written_per_position_and_seat_beside_the_rows() {
    use tessera_azul::observation::{BOARD_LEN, observation_len};
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let (rows_txt, obs_txt) = (p("rows.txt"), p("obs.txt"));
    ok(&[
        "train",
        "azul-augur",
        "--seed",
        "7",
        "--games",
        "3",
        "--player",
        "greedy",
        "--data",
        &rows_txt,
        "--observations",
        &obs_txt,
    ]);
    let rows = rows(&dir.path().join("rows.txt"));
    let text = std::fs::read_to_string(&obs_txt).unwrap();
    let lines: Vec<Vec<f64>> = text
        .lines()
        .map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect())
        .collect();
    // Two players: one line per seat of every position that has a training row.
    assert_eq!(lines.len(), 2 * rows.len());
    let len = observation_len(2);
    for (pair, row) in lines.chunks(2).zip(&rows) {
        for (seat, l) in pair.iter().enumerate() {
            assert_eq!(l.len(), 5 + len);
            assert_eq!(
                (l[0] as u64, l[1] as u32, l[2] as usize, l[3] as usize),
                (row.game, row.ply, seat, row.stage)
            );
        }
        // Seat 0's share is the row's label, seat 1's the rest of the game's result.
        assert_eq!(pair[0][4], row.label);
        assert_eq!(pair[0][4] + pair[1][4], 1.0);
        // Each seat sees its own board first: the two views swap the boards (the score is
        // the last number of a board; 5 factories x 5 colours, centre 6, bag and lid 10
        // come before the boards).
        let board = |l: &Vec<f64>, k: usize| {
            l[5 + 41 + k * BOARD_LEN..5 + 41 + (k + 1) * BOARD_LEN].to_vec()
        };
        assert_eq!(board(&pair[0], 0), board(&pair[1], 1));
        assert_eq!(board(&pair[0], 1), board(&pair[1], 0));
    }
    // A score is in the boards: the last position's is not all zeros.
    let last = lines.last().unwrap();
    assert!(last[5 + 41 + BOARD_LEN - 1] + last[5 + 41 + 2 * BOARD_LEN - 1] > 0.0);
    // Written while playing only.
    let (success, _, err) = run_tessera(
        &[
            "train",
            "azul-augur",
            "--fit",
            &rows_txt,
            "--out",
            &p("w.json"),
            "--observations",
            &obs_txt,
        ],
        "",
    );
    assert!(!success);
    assert!(err.contains("--observations"), "{err}");
}

/// Self-play with observations in `slices` slices: the rows and observation files' paths.
fn self_play_with_observations(
    dir: &std::path::Path,
    players: &str,
    games: &str,
    slices: u32,
) -> (Vec<String>, Vec<String>) {
    let (mut rows, mut obs) = (Vec::new(), Vec::new());
    for k in 1..=slices {
        let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
        let (r, o) = (p(&format!("rows-{k}.txt")), p(&format!("obs-{k}.txt")));
        let shard = format!("{k}/{slices}");
        ok(&[
            "train",
            "azul-augur",
            "--players",
            players,
            "--seed",
            "11",
            "--games",
            games,
            "--player",
            "greedy",
            "--features",
            "17",
            "--shard",
            &shard,
            "--data",
            &r,
            "--observations",
            &o,
        ]);
        rows.push(r);
        obs.push(o);
    }
    (rows, obs)
}

#[test]
fn the_board_network_is_fitted_from_sliced_self_play_and_loads() {
    use tessera_azul::board_net::{BoardNet, NetFile};
    let dir = tempfile::tempdir().unwrap();
    let (rows, obs) = self_play_with_observations(dir.path(), "2", "20", 2);
    let out = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    // The fit with the test's settings, and `more` arguments after them.
    let fit_with = |rows: &str, obs: &str, file: &str, more: &[&str]| {
        let file = out(file);
        let mut args = vec![
            "train",
            "azul-board-net",
            "--fit",
            rows,
            "--observations",
            obs,
            "--hidden",
            "4",
            "--epochs",
            "2",
            "--lr",
            "0.01",
            "--out",
            &file,
        ];
        args.extend_from_slice(more);
        run_tessera(&args, "")
    };
    let fit = |rows: &str, obs: &str, file: &str| fit_with(rows, obs, file, &[]);
    let (success, report, err) = fit(&rows.join(","), &obs.join(","), "net.json");
    assert!(success, "{report}{err}");
    assert!(report.contains("network written"), "{report}");
    // One line per stage with the held-out figures.
    assert_eq!(
        report
            .lines()
            .filter(|l| l.split(" | ").count() == 7)
            .count(),
        1 + NUM_STAGES,
        "{report}"
    );
    let text = std::fs::read_to_string(out("net.json")).unwrap();
    // It loads (so the engine reproduces the trainer's check values) ...
    let net = BoardNet::parse(&text).unwrap();
    assert_eq!((net.players(), net.hidden()), (2, 4));
    let file: NetFile = serde_json::from_str(&text).unwrap();
    for st in &file.stages {
        assert_eq!(st.checks.len(), 3);
        let h = st.heldout.unwrap();
        assert!(h.network > 0.0 && h.linear17 > 0.0 && h.linear14 > 0.0);
        // The fit moved the network off V = 0.
        assert!(st.w2.iter().any(|&w| w != 0.0));
    }
    let command = file.training.as_ref().unwrap()["command"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        command.contains("azul-board-net") && command.contains("--hidden 4 --epochs 2"),
        "{command}"
    );
    // ... a file whose checks this build does not reproduce is refused ...
    let mut broken = file.clone();
    broken.stages[2].checks[0].value += 0.5;
    assert!(BoardNet::parse(&broken.to_json()).is_err());
    // ... and the same files and seed give the same network, byte for byte.
    let (success, _, err) = fit(&rows.join(","), &obs.join(","), "again.json");
    assert!(success, "{err}");
    assert_eq!(text, std::fs::read_to_string(out("again.json")).unwrap());

    // --compare: a network's held-out log loss on the same held-out rows, beside the fit's.
    // The fitted file itself, compared, gives back the fit's own held-out figure per stage
    // (the file holds the folded float weights, so up to rounding).
    let (rows_all, obs_all) = (rows.join(","), obs.join(","));
    let compare =
        |with: &str, file: &str| fit_with(&rows_all, &obs_all, file, &["--compare", with]);
    // Per stage line of a report: (the fit's network's held-out loss, the compared one's).
    let losses = |report: &str| -> Vec<(f64, f64)> {
        report
            .lines()
            .map(|l| l.split(" | ").collect::<Vec<_>>())
            .filter(|cells| cells.len() == 8 && cells[0].parse::<usize>().is_ok())
            .map(|cells| {
                let fitted = cells[5].split(' ').next().unwrap().parse().unwrap();
                (fitted, cells[7].parse().unwrap())
            })
            .collect()
    };
    let (success, report, err) = compare(&out("net.json"), "compared.json");
    assert!(success, "{err}");
    assert_eq!(text, std::fs::read_to_string(out("compared.json")).unwrap());
    let own = losses(&report);
    assert_eq!(own.len(), NUM_STAGES, "{report}");
    for (fitted, compared) in own {
        assert!((fitted - compared).abs() <= 2e-4, "{report}");
    }
    // A shipped network by name is compared on the same rows (another model: another loss).
    let (success, report, err) = compare("net3", "compared.json");
    assert!(success, "{err}");
    let net3 = losses(&report);
    assert_eq!(net3.len(), NUM_STAGES, "{report}");
    assert!(
        net3.iter().all(|&(_, l)| l > 0.0 && l.is_finite()),
        "{report}"
    );
    // A network for another table size, or no network at all: refused, naming what is wrong.
    let (success, _, err) = compare("net2-3p", "bad.json");
    assert!(!success && err.contains("for 3 players"), "{err}");
    let (success, _, err) = compare(&out("missing.json"), "bad.json");
    assert!(
        !success && err.contains("missing.json") && err.contains("net1"),
        "{err}"
    );
    let (success, _, err) = compare(&rows[0], "bad.json");
    assert!(
        !success && err.contains("expected a board network"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    // Rows with the other slice's observations: refused, naming the files.
    let swapped = format!("{},{}", obs[1], obs[0]);
    let (success, _, err) = fit(&rows.join(","), &swapped, "bad.json");
    assert!(!success);
    assert!(err.contains("observations file of the same"), "{err}");
    assert!(!dir.path().join("bad.json").exists());
    // One file short, or one given twice.
    let (success, _, err) = fit(&rows.join(","), &obs[0], "bad.json");
    assert!(
        !success && err.contains("2 row files and 1 observation files"),
        "{err}"
    );
    let (success, _, err) = fit(
        &format!("{},{}", rows[0], rows[0]),
        &obs.join(","),
        "bad.json",
    );
    assert!(!success && err.contains("given twice"), "{err}");
    // Without observations.
    let (success, _, err) = run_tessera(
        &[
            "train",
            "azul-board-net",
            "--fit",
            &rows[0],
            "--out",
            &out("bad.json"),
        ],
        "",
    );
    assert!(!success && err.contains("--observations"), "{err}");
    // A self-play flag is refused by name, not silently ignored (and the other way round).
    for flag in [
        "--games",
        "--player",
        "--epsilon",
        "--features",
        "--data",
        "--shard",
    ] {
        let (success, _, err) = run_tessera(
            &[
                "train",
                "azul-board-net",
                "--fit",
                &rows[0],
                "--observations",
                &obs[0],
                "--out",
                &out("bad.json"),
                flag,
                "1",
            ],
            "",
        );
        assert!(
            !success && err.contains(&format!("unexpected argument '{flag}'")),
            "{flag}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    for flag in ["--hidden", "--epochs", "--decay", "--lr"] {
        let (success, _, err) =
            run_tessera(&["train", "azul-augur", "--data", "x.txt", flag, "1"], "");
        assert!(
            !success && err.contains(&format!("unexpected argument '{flag}'")),
            "{flag}: {err}"
        );
    }
    assert!(!dir.path().join("bad.json").exists());
}

#[test]
fn the_board_network_fits_three_player_tables_and_refuses_the_wrong_table_size() {
    use tessera_azul::board_net::BoardNet;
    let dir = tempfile::tempdir().unwrap();
    let (rows, obs) = self_play_with_observations(dir.path(), "3", "20", 1);
    let out = dir.path().join("net3.json").to_string_lossy().into_owned();
    let args = |players: &'static str| {
        vec![
            "train".to_owned(),
            "azul-board-net".into(),
            "--players".into(),
            players.into(),
            "--fit".into(),
            rows[0].clone(),
            "--observations".into(),
            obs[0].clone(),
            "--hidden".into(),
            "2".into(),
            "--epochs".into(),
            "1".into(),
            "--out".into(),
            out.clone(),
        ]
    };
    let a = args("3");
    ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let net = BoardNet::parse(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(net.players(), 3);
    let a = args("2");
    let (success, _, err) = run_tessera(&a.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert!(!success);
    assert!(
        err.contains("expected 158") && err.contains("--players"),
        "{err}"
    );
}

#[test]
fn the_qwirkle_leave_is_fitted_from_a_seed_and_checked_against_the_shipped_weights() {
    let fit = |seed: &str| ok(&["train", "qwirkle-leave", "--games", "40", "--seed", seed]);
    let a = fit("5");
    assert!(
        a.contains("from 40 games of points against itself, seed 5"),
        "{a}"
    );
    assert!(a.contains("group=5") && a.contains("weights: ["), "{a}");
    // The same seed, the same weights; another seed, other games.
    assert_eq!(a, fit("5"));
    assert_ne!(a, fit("6"));
    // A small fit is not the shipped one: --check fails and names the weights that differ,
    // without a backtrace.
    let (success, out, err) = run_tessera(
        &[
            "train",
            "qwirkle-leave",
            "--games",
            "40",
            "--seed",
            "5",
            "--check",
        ],
        "",
    );
    assert!(!success, "{out}{err}");
    assert!(err.contains("differ from the shipped ones in"), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
    // No games is refused by the argument's name.
    let (success, _, err) = run_tessera(&["train", "qwirkle-leave", "--games", "0"], "");
    assert!(!success);
    assert!(err.contains("--games"), "{err}");
}
