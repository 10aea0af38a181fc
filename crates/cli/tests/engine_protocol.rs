//! `tessera engine azul` over its protocol: a raw session through pipes, and the arena's
//! `ext:` agent seating our own engine binary against itself for a whole game.

use std::io::Write;
use std::process::{Command, Stdio};

use tessera_arena::registry::azul::registry;
use tessera_azul::AzulState;
use tessera_core::{Agent, Budget, Game, PlayerId, play_game};

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
    let mut a = reg.build(&spec).expect("seat the engine");
    let mut b = reg.build(&spec).expect("seat the engine");
    let mut seats: Vec<&mut dyn Agent<AzulState>> = vec![a.as_mut(), b.as_mut()];
    let (end, record) = play_game(
        AzulState::new(2, PlayerId(0)),
        &mut seats,
        &Budget::default(),
        7,
        None,
        &mut (),
    )
    .expect("legal moves only");
    assert!(end.is_terminal());
    assert!(record.num_actions() > 20);
    assert!(a.last_info().is_some());
    // With node limits the engine is deterministic: the same game again.
    let mut c = reg.build(&spec).unwrap();
    let mut d = reg.build(&spec).unwrap();
    let mut seats: Vec<&mut dyn Agent<AzulState>> = vec![c.as_mut(), d.as_mut()];
    let (end2, _) = play_game(
        AzulState::new(2, PlayerId(0)),
        &mut seats,
        &Budget::default(),
        7,
        None,
        &mut (),
    )
    .unwrap();
    assert_eq!(end.scores(), end2.scores());
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
