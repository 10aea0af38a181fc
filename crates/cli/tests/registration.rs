//! One registration per game: the test game `nim`, registered in crates/house like every game
//! (one line in `visit_games` and its registry file), works in every front end with no
//! nim-specific code there: `tessera agents nim`, `tessera tournament nim`, `tessera play nim`,
//! `tessera engine nim` and the web JSON API of `tessera serve` (create, move, the AI's reply,
//! finished), where it is hosted but listed only with `--test-games`.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::run_tessera;
use serde_json::{Value, json};

#[test]
fn nim_is_listed_with_its_agents() {
    let (ok, out, err) = run_tessera(&["agents", "nim", "--format", "json"], "");
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v[0]["game"], "nim");
    let names: Vec<&str> = v[0]["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .filter_map(|a| a["name"].as_str())
        .collect();
    assert!(
        names.contains(&"random") && names.contains(&"first"),
        "{names:?}"
    );
}

#[test]
fn a_nim_tournament_runs_and_is_stored() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let db = dir.path().join("nim.sqlite");
    let db = db.to_str().expect("a UTF-8 path");
    let (ok, out, err) = run_tessera(
        &[
            "tournament",
            "nim",
            "--agents",
            "first,random",
            "--games",
            "6",
            "--seed",
            "3",
            "--db",
            db,
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("first") && out.contains("random"), "{out}");
    // Six games (three deals, each played once per seat rotation), all stored.
    let (ok, list, err) = run_tessera(&["games", "--db", db, "--format", "json"], "");
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&list).expect("JSON");
    let games = v["games"].as_array().expect("games");
    assert_eq!(games.len(), 6, "{list}");
    assert_eq!(games[0]["deal"], games[1]["deal"], "{list}");
    assert!(games.iter().all(|g| g["game"] == "nim"));
}

#[test]
fn nim_is_played_in_the_terminal_from_scripted_input() {
    // Every move of the first pile then the others, one at a time: the illegal ones are
    // refused with a message and the next line is read.
    let input = "1:1\n2:1\n3:1\n4:1\n".repeat(30);
    let (ok, out, err) = run_tessera(
        &["play", "nim", "--seats", "human,first", "--seed", "9"],
        &input,
    );
    assert!(ok, "{err}\n{out}");
    assert!(out.contains("seat 1 human, seat 2 first"), "{out}");
    assert!(out.contains("game over: scores "), "{out}");
}

#[test]
fn play_help_names_every_registered_game() {
    // The subcommands of `tessera play` come from the registrations: every registered game
    // is listed, test games too (their title says so: `tessera play` has no flag that hides
    // them, only the players' home page in the browser does), and each one's own help works.
    let (ok, out, err) = run_tessera(&["play", "--help"], "");
    assert!(ok, "{err}");
    for d in tessera_house::drivers() {
        let name = d.name();
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{name} "))),
            "{name} missing from `tessera play --help`:\n{out}"
        );
        let (ok, help, err) = run_tessera(&["play", name, "--help"], "");
        assert!(ok, "{name}: {err}");
        assert!(
            help.contains("--seats") || help.contains("--opponent"),
            "{help}"
        );
    }
    assert!(out.contains("Nim (test game) for 2-"), "{out}");
    // A game that is not registered is refused, naming it and where the list is.
    let (ok, _, err) = run_tessera(&["play", "chess"], "");
    assert!(!ok);
    assert!(err.contains("'chess'") && err.contains("--help"), "{err}");
}

#[test]
fn nim_speaks_the_engine_protocol() {
    let (ok, out, err) = run_tessera(
        &["engine", "nim", "--player", "first"],
        "tep\nisready\nposition start players 2 moves deal:3,4\nlegal\ngo\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("id game nim\n"), "{out}");
    assert!(out.contains("readyok\n"), "{out}");
    assert!(out.contains("legal 1:1 1:2 1:3 2:1"), "{out}");
    assert!(out.contains("bestmove 1:1\n"), "{out}");
}

/// `tessera serve` on a free loopback port, ended when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["serve", "--port", "0", "--seed", "5", "--ai-threads", "2"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        // The line that names the address (others may come first).
        let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut addr = None;
        for _ in 0..20 {
            let mut line = String::new();
            if out.read_line(&mut line).expect("the server's output") == 0 {
                break;
            }
            if let Some(rest) = line.split("http://").nth(1) {
                addr = rest.split('/').next().map(str::to_string);
                break;
            }
        }
        let addr = addr.expect("the server prints its address");
        Server { child, addr }
    }

    /// One HTTP/1.1 request; the status and the JSON body.
    fn call(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        self.call_as(method, path, body, None)
    }

    /// [`Server::call`] acting for a seat with its token.
    fn call_as(&self, method: &str, path: &str, body: &str, token: Option<&str>) -> (u16, Value) {
        let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30)))
            .expect("a timeout");
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             {auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .expect("send");
        let mut text = String::new();
        s.read_to_string(&mut text).expect("read");
        let (head, body) = text.split_once("\r\n\r\n").expect("a response");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .expect("a status");
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }

    fn catalog_names(&self) -> Vec<String> {
        let (st, v) = self.call("GET", "/api/catalog", "");
        assert_eq!(st, 200, "{v}");
        v["games"]
            .as_array()
            .expect("games")
            .iter()
            .filter_map(|g| g["name"].as_str().map(str::to_string))
            .collect()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn nim_is_played_through_the_web_api_and_listed_only_for_test_games() {
    let server = Server::start(&[]);
    let names = server.catalog_names();
    assert!(names.contains(&"azul".to_string()), "{names:?}");
    assert!(!names.contains(&"nim".to_string()), "{names:?}");
    // Hosted all the same: a human against the registry's `first`.
    let req = json!({"game": "nim", "seed": 4,
                     "seats": [{"type": "human"}, {"type": "ai", "agent": "first"}]});
    let (st, v) = server.call("POST", "/api/games", &req.to_string());
    assert!(st == 200 || st == 201, "{st} {v}");
    let id = v["id"].as_str().expect("an id").to_string();
    let token = v["tokens"][0]["token"]
        .as_str()
        .expect("the human seat's token");
    let token = Some(token);
    let deadline = Instant::now() + Duration::from_secs(60);
    let (mut human_moves, mut ai_moves) = (0, 0);
    let end = loop {
        assert!(Instant::now() < deadline, "the game did not finish");
        let (st, s) = server.call_as("GET", &format!("/api/games/{id}?seat=0"), "", token);
        assert_eq!(st, 200, "{s}");
        if s["status"] == "finished" {
            break server
                .call_as("GET", &format!("/api/games/{id}?seat=0&since=0"), "", token)
                .1;
        }
        if s["waiting_for"] != "human" {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        // The view is the game's position text; moves are its notation.
        assert!(s["view"]["state"].is_string(), "{s}");
        let legal = s["legal"][0]["action"].as_str().expect("a legal move");
        let (st, after) = server.call_as(
            "POST",
            &format!("/api/games/{id}/move"),
            &json!({"seat": 0, "action": legal}).to_string(),
            token,
        );
        assert_eq!(st, 200, "{after}");
        human_moves += 1;
    };
    for step in end["steps"].as_array().expect("steps") {
        if step["type"] == "action" && step["player"] == 1 {
            ai_moves += 1;
        }
    }
    assert!(human_moves >= 1 && ai_moves >= 1, "{end}");
    assert!(end["outcome"].is_object(), "{end}");
    // A bad move in notation gets a clear refusal.
    let (st, _) = server.call_as(
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"seat":0,"action":"1:1"}"#,
        token,
    );
    assert!((400..500).contains(&st), "{st}");
    drop(server);

    let listed = Server::start(&["--test-games"]);
    assert!(listed.catalog_names().contains(&"nim".to_string()));
}
