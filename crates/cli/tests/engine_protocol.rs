//! `tessera engine azul` over its protocol: a raw session through pipes, and the arena's
//! `ext:` agent seating our own engine binary against itself for a whole game.

use std::io::Write;
use std::process::{Command, Stdio};

use tessera_arena::registry::azul::registry;
use tessera_azul::AzulState;
use tessera_core::{Budget, Game, PlayerId, Seat, Table};

const BIN: &str = env!("CARGO_BIN_EXE_tessera");

#[test]
fn raw_session_answers_and_survives_bad_input() {
    let mut child = Command::new(BIN)
        .args(["engine", "azul", "--player", "presort"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the engine");
    let input = "tep\nisready\nbogus\nposition state not a state\ngo\n\
        position start players 2 moves deal:BBYR/KKWW/BYRK/WWWW/RRBB\n\
        go depth 2\nsetoption name Player value strong\ngo nodes 3000\nquit\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(&"tepok") && lines.contains(&"readyok"),
        "{text}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("error ")).count(),
        3,
        "{text}"
    );
    let best: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .collect();
    assert_eq!(best.len(), 2, "{text}");
    let start: AzulState = {
        let mut s = AzulState::new(2, PlayerId(0));
        let deal = serde_json::from_str(r#"["BBYR","KKWW","BYRK","WWWW","RRBB"]"#).unwrap();
        s.apply_chance(&deal).unwrap();
        s
    };
    for b in best {
        start.clone().try_apply(b.parse().unwrap()).unwrap();
    }
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{text}"
    );
}

#[test]
fn our_engine_plays_itself_through_the_arena() {
    let spec = format!("ext:nodes=2000:{BIN}+engine+azul+--player+presort");
    let reg = registry();
    // The seat's budget is the plan's (the spec's `nodes=2000`); the agent holds none.
    let plan = reg.parse(&spec).expect("parse the engine's spec");
    assert_eq!(plan.budget(), Budget::nodes(2000));
    let seats = (0..2)
        .map(|_| Seat::agent(plan.build().expect("seat the engine"), plan.budget()))
        .collect();
    let mut table = Table::new(AzulState::new(2, PlayerId(0)), seats, 7).unwrap();
    table.play_out(None, &mut ()).expect("legal moves only");
    let end = table.state().clone();
    assert!(end.is_terminal());
    assert!(table.record().num_actions() > 20);
    let agents: Vec<_> = table.into_agents().into_iter().flatten().collect();
    assert!(agents.iter().all(|a| a.last_info().is_some()));
    // With node limits the engine is deterministic: the same game again.
    let seats = (0..2)
        .map(|_| Seat::agent(plan.build().expect("seat the engine"), plan.budget()))
        .collect();
    let mut again = Table::new(AzulState::new(2, PlayerId(0)), seats, 7).unwrap();
    again.play_out(None, &mut ()).expect("legal moves only");
    assert_eq!(end.scores(), again.state().scores());
}

#[test]
fn bad_ext_specs_are_clear_errors() {
    let reg = registry();
    let e = reg
        .build("ext:/nonexistent/engine")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("cannot start"), "{e}");
    let e = reg.build("ext:time=fast:/bin/x").err().unwrap().to_string();
    assert!(e.contains("duration"), "{e}");
}

/// Runs `tessera engine ARGS...` on `input`; returns its output lines.
fn engine_session(args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(BIN)
        .arg("engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the engine");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn go_nodes_searches_at_most_that_many_nodes() {
    let lines = engine_session(
        &["azul", "--player", "presort"],
        "position start players 2 moves deal:BBYR/KKWW/BYRK/WWWW/RRBB\ngo nodes 500\nquit\n",
    );
    let info = lines
        .iter()
        .find(|l| l.starts_with("info "))
        .expect("an info line");
    let words: Vec<&str> = info.split_whitespace().collect();
    let nodes: u64 = words[words.iter().position(|&w| w == "nodes").unwrap() + 1]
        .parse()
        .unwrap();
    // The opening's tree is far larger: the limit stops the search at exactly 500 (it
    // reported 501 before the search stopped counting the node past the limit).
    assert_eq!(nodes, 500, "{info}");
}

#[test]
fn every_game_answers_tep_position_and_go() {
    for (game, start, word) in [
        (
            "nim",
            "position start players 3 first 2 moves deal:3,1 2:1",
            "1:",
        ),
        (
            "qwirkle",
            "position start players 2 moves deal:R1R2R3R4R5R6/O1O2Y3G4B5P6",
            "R",
        ),
        (
            "azul",
            "position start players 2 moves deal:BBYR/KKWW/BYRK/WWWW/RRBB",
            "",
        ),
    ] {
        let lines = engine_session(
            &[game],
            &format!("tep\n{start}\ngo nodes 4\nposition start players 9\nquit\n"),
        );
        assert!(
            lines.contains(&format!("id game {game}")),
            "{game}: {lines:?}"
        );
        let best = lines
            .iter()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("{game}: {lines:?}"));
        assert!(best.starts_with(word), "{game}: {best}");
        assert!(
            lines.last().unwrap().starts_with("error players 9: "),
            "{game}: {lines:?}"
        );
    }
}

#[test]
fn a_qwirkle_view_hides_the_other_hand_and_the_engine_plays_from_it() {
    // Seat 1's view after the deal: seat 2's hand is only a count.
    let view = "seat=1 n=2 phase=play:1 first=6 scores=0,0 hands=R1R2R3R4R5R6/?6 bag=?96 board=- aside=- end=-";
    let lines = engine_session(
        &["qwirkle", "--player", "points"],
        &format!(
            "position state {view}\nshow\ngo\nsetoption name Player value random\nposition state {view}\nlegal\nquit\n"
        ),
    );
    assert_eq!(lines[0], format!("state {view}"), "{lines:?}");
    let best = lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a move");
    assert_eq!(best.split(';').count(), 6, "six reds in a line: {best}");
    assert!(lines.last().unwrap().starts_with("legal R1@"), "{lines:?}");
    // Seat 2's moves are unknown from seat 1's view.
    let other = view.replace("phase=play:1", "phase=play:2");
    let lines = engine_session(&["qwirkle"], &format!("position state {other}\ngo\nquit\n"));
    assert!(
        lines[0].starts_with("error ") && lines[0].contains("seat 1's view"),
        "{lines:?}"
    );
}

/// The results file's count of `table` rows (`games`, `faults`).
fn count(db: &std::path::Path, table: &str) -> i64 {
    let c = rusqlite::Connection::open(db).unwrap();
    c.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

fn ext_tournament(
    dir: &std::path::Path,
    game: &str,
    ext: &str,
    other: &str,
    games: &str,
) -> std::path::PathBuf {
    let db = dir.join("ext.sqlite");
    let out = Command::new(BIN)
        .args([
            "tournament",
            game,
            "--agents",
            &format!("{ext},{other}"),
            "--games",
            games,
            "--jobs",
            "1",
            "--quiet",
            "--db",
            db.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("warning"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    db
}

#[test]
fn a_qwirkle_tournament_seats_our_engine_and_sends_it_only_views() {
    // The engine is our binary behind a script that logs what the arena sends it.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("sent.txt");
    let script = dir.path().join("engine.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ntee -a '{}' | '{BIN}' engine qwirkle --player points\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let db = ext_tournament(
        dir.path(),
        "qwirkle",
        &format!("ext:{}", script.display()),
        "points",
        "4",
    );
    assert_eq!(count(&db, "games"), 4);
    assert_eq!(count(&db, "faults"), 0);
    let sent = std::fs::read_to_string(&log).unwrap();
    let positions: Vec<&str> = sent
        .lines()
        .filter_map(|l| l.strip_prefix("position state "))
        .collect();
    assert!(positions.len() > 20, "{sent}");
    for p in positions {
        // The view of the seat to move: its own seat, the other hand and the bag as counts.
        let seat = p.strip_prefix("seat=").expect(p).split(' ').next().unwrap();
        assert!(p.contains(&format!("phase=play:{seat} ")), "{p}");
        let hands = p
            .split(" hands=")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let hidden = hands.split('/').filter(|h| h.starts_with('?')).count();
        assert_eq!(hidden, 1, "{p}");
        assert!(p.contains(" bag=?"), "{p}");
    }
}

#[test]
fn a_nim_tournament_seats_our_engine() {
    let dir = tempfile::tempdir().unwrap();
    let db = ext_tournament(
        dir.path(),
        "nim",
        &format!("ext:{BIN}+engine+nim+--player+first"),
        "random",
        "10",
    );
    assert_eq!(count(&db, "games"), 10);
    assert_eq!(count(&db, "faults"), 0);
}

#[test]
fn nim_is_played_in_the_terminal_through_the_generic_loop() {
    let mut child = Command::new(BIN)
        .args(["play", "nim", "--seats", "human,first", "--seed", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = format!("x\n{}", "1:1\n2:1\n3:1\n".repeat(20));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.starts_with("Nim (test game), seed 4: seat 1 human, seat 2 first"),
        "{text}"
    );
    assert!(text.contains("'x' is not a move: "), "{text}");
    assert!(text.contains("game over: scores "), "{text}");
    let bad = Command::new(BIN)
        .args(["play", "nim", "--seats", "human,nobody"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("seat 2 'nobody'"), "{err}");
}
