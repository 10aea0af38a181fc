//! `tessera play tiles` and `tessera solve tiles` driven through their stdin.

mod common;

/// Level 3 of the shipped file without its `optimal` header: the solver must search for it.
const LEVEL_3: &str = "level 3 size 4x4\n#..p\n#..#\n.R.r\n..#P\n";

fn level_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-play-tiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, LEVEL_3).unwrap();
    path
}

#[test]
fn help_is_a_command_not_four_keys() {
    let (ok, out, err) = common::run_tessera(&["play", "tiles", "--level", "3"], "help\nLULUR\n");
    assert!(ok, "{err}");
    // The help text is shown and no piece moved before the solution.
    assert!(out.contains("several per line, e.g. LUR"), "{out}");
    assert!(!out.contains("no piece can move"), "{out}");
    assert!(out.contains("Solved in 5 moves (optimal!"), "{out}");
}

#[test]
fn the_solver_limit_is_an_option_named_in_its_message() {
    let file = level_file("level3.txt");
    let file = file.to_str().unwrap();
    let (ok, _, err) = common::run_tessera(&["play", "tiles", "--file", file, "--limit", "2"], "");
    assert!(!ok);
    assert!(err.contains("more than 2 positions"), "{err}");
    assert!(err.contains("--limit"), "{err}");
    let (ok, out, err) = common::run_tessera(
        &["play", "tiles", "--file", file, "--limit", "1000"],
        "LULUR\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("minimum 5"), "{out}");
    let (ok, _, err) = common::run_tessera(&["solve", "tiles", "--file", file, "--limit", "2"], "");
    assert!(!ok);
    assert!(err.contains("--limit"), "{err}");
    let (ok, out, err) =
        common::run_tessera(&["solve", "tiles", "--file", file, "--limit", "1000"], "");
    assert!(ok, "{err}");
    assert!(out.contains("moves 5"), "{out}");
}

#[test]
fn invalid_utf8_on_stdin_is_an_error() {
    let (ok, _, err) =
        common::run_tessera_bytes(&["play", "tiles", "--level", "3"], b"L\n\xff\xfe\n");
    assert!(!ok);
    assert!(err.contains("not valid UTF-8"), "{err}");
}
