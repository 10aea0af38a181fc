//! `tessera serve --db FILE` loses nothing: the real binary is killed with SIGKILL in the
//! middle of games and started again on the same file; both people continue their Azul game
//! with their old seat tokens to the end, no acknowledged move is lost, and the record equals
//! the record of the same game played without a restart. An AI seat to move after the restart
//! thinks again, and an AI seat decides after the restart as it would have without one (its
//! generator is stored with each of its moves). Requests go over plain HTTP/1.1 on a TCP socket.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// A running `tessera serve`.
struct Server {
    child: Child,
    addr: SocketAddr,
    /// What it printed before it served.
    banner: Vec<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(db: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args([
            "serve",
            "--port",
            "0",
            "--seed",
            "5",
            "--ai-threads",
            "1",
            "--db",
        ])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("tessera serve starts");
    let out = child.stdout.take().expect("piped stdout");
    let mut lines = BufReader::new(out).lines();
    let mut banner = Vec::new();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server prints its address")
            .expect("readable output");
        if let Some(rest) = line.strip_prefix("Tessera is being served at http://") {
            let addr = rest.split('/').next().unwrap().parse().unwrap();
            banner.push(line);
            break addr;
        }
        banner.push(line);
    };
    // Keep reading so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    Server {
        child,
        addr,
        banner,
    }
}

/// One request; answers the status and the JSON body.
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    tokens: &[&str],
) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !tokens.is_empty() {
        req.push_str(&format!("Authorization: Bearer {}\r\n", tokens.join(",")));
    }
    req.push_str("\r\n");
    req.push_str(&body);
    s.write_all(req.as_bytes()).expect("send");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    let text = String::from_utf8_lossy(&raw);
    let (head, rest) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    let status: u16 = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let payload = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    let v = serde_json::from_str(&payload).unwrap_or(Value::String(payload));
    (status, v)
}

fn dechunk(mut text: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = text.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        text = &rest[n + 2..];
    }
    out
}

fn new_game(addr: SocketAddr, seats: Value, seed: u64) -> (String, Vec<String>) {
    let (st, v) = http(
        addr,
        "POST",
        "/api/games",
        Some(&json!({"game": "azul", "seats": seats, "seed": seed})),
        &[],
    );
    assert_eq!(st, 201, "{v}");
    let tokens = v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["token"].as_str().unwrap().to_string())
        .collect();
    (v["id"].as_str().unwrap().to_string(), tokens)
}

fn view(addr: SocketAddr, id: &str, seat: u8, token: &str) -> Value {
    let (st, v) = http(
        addr,
        "GET",
        &format!("/api/games/{id}?seat={seat}"),
        None,
        &[token],
    );
    assert_eq!(st, 200, "{v}");
    v
}

/// Plays `moves` moves (all if `None`) of a game between two people, each choosing the
/// `(ply * 7) % legal` -th legal move; with a hint at ply 3 and an undo (with both tokens:
/// one person at the screen) at ply 5. Returns the plies played so far.
fn play_people(
    addr: SocketAddr,
    id: &str,
    tokens: &[String],
    mut ply: usize,
    moves: Option<usize>,
) -> usize {
    let mut played = 0;
    loop {
        if moves.is_some_and(|m| played >= m) {
            return ply;
        }
        let any = view(addr, id, 0, &tokens[0]);
        if any["status"] != "playing" {
            return ply;
        }
        let seat = any["to_move"].as_u64().unwrap() as u8;
        let token = &tokens[seat as usize];
        let v = view(addr, id, seat, token);
        if ply == 3 {
            let (st, h) = http(
                addr,
                "POST",
                &format!("/api/games/{id}/hint"),
                Some(&json!({"seat": seat})),
                &[token],
            );
            assert_eq!(st, 200, "{h}");
        }
        let legal = v["legal"].as_array().unwrap();
        let action = legal[(ply * 7) % legal.len()]["action"].as_str().unwrap();
        let v = view(addr, id, seat, token);
        let (st, r) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(&json!({"seat": seat, "action": action,
                         "expected_revision": v["revision"]})),
            &[token],
        );
        assert_eq!(st, 200, "ply {ply}: {r}");
        if ply == 5 {
            let both: Vec<&str> = tokens.iter().map(String::as_str).collect();
            let (st, r) = http(
                addr,
                "POST",
                &format!("/api/games/{id}/undo"),
                Some(&json!({"seat": seat})),
                &both,
            );
            assert_eq!(st, 200, "{r}");
            // The same move again.
            let (st, r) = http(
                addr,
                "POST",
                &format!("/api/games/{id}/move"),
                Some(&json!({"seat": seat, "action": action})),
                &[token],
            );
            assert_eq!(st, 200, "{r}");
        }
        ply += 1;
        played += 1;
    }
}

fn record(addr: SocketAddr, id: &str, token: &str) -> Value {
    let (st, r) = http(
        addr,
        "GET",
        &format!("/api/games/{id}/record"),
        None,
        &[token],
    );
    assert_eq!(st, 200, "{r}");
    r
}

/// Polls game `id` as seat `seat` sees it (every `every`) until `done` holds, for at most a
/// minute.
fn wait_until(
    addr: SocketAddr,
    id: &str,
    seat: u8,
    token: &str,
    every: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let v = view(addr, id, seat, token);
        if done(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "the AI seat never moved: {v}");
        std::thread::sleep(every);
    }
}

/// Whether the person at seat `seat` is to move.
fn persons_turn(v: &Value, seat: u8) -> bool {
    v["waiting_for"] == "human" && v["to_move"] == seat
}

/// Waits until game `id` waits for the person at seat `seat` (the AI seat has moved).
fn wait_for_person(addr: SocketAddr, id: &str, seat: u8, token: &str) -> Value {
    wait_until(addr, id, seat, token, Duration::from_millis(50), |v| {
        persons_turn(v, seat)
    })
}

/// Waits for the person at seat 0 of game `id`, plays their first legal move and returns the
/// view they moved from.
fn person_plays_first_legal(addr: SocketAddr, id: &str, token: &str) -> Value {
    let v = wait_for_person(addr, id, 0, token);
    let legal = v["legal"][0]["action"].as_str().unwrap().to_string();
    let (st, _) = http(
        addr,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(&json!({"seat": 0, "action": legal})),
        &[token],
    );
    assert_eq!(st, 200);
    v
}

/// Kills the server with SIGKILL (nothing is flushed or closed) and starts another on the
/// same database.
fn kill_and_restart(mut server: Server, db: &Path) -> Server {
    server.child.kill().expect("SIGKILL");
    server.child.wait().unwrap();
    drop(server);
    start(db)
}

#[test]
fn a_killed_server_continues_every_game_from_its_last_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let people = json!([{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]);

    let server = start(&db);
    assert!(
        server
            .banner
            .iter()
            .any(|l| l.contains("stored in") && l.contains("0 unfinished game(s) restored")),
        "{:?}",
        server.banner
    );
    let addr = server.addr;
    let (id, tokens) = new_game(addr, people.clone(), 11);
    let ply = play_people(addr, &id, &tokens, 0, Some(12));
    // A game against an AI seat, left with the AI to move or about to.
    let (ai_id, ai_tokens) = new_game(
        addr,
        json!([{"type": "human"}, {"type": "ai", "agent": "greedy"}]),
        12,
    );
    person_plays_first_legal(addr, &ai_id, &ai_tokens[0]);
    let before = view(addr, &id, 0, &tokens[0]);
    let ai_steps_before = view(addr, &ai_id, 0, &ai_tokens[0])["step_count"]
        .as_u64()
        .unwrap();

    // kill -9.
    let server = kill_and_restart(server, &db);
    let addr = server.addr;
    assert!(
        server
            .banner
            .iter()
            .any(|l| l.contains("2 unfinished game(s) restored")),
        "{:?}",
        server.banner
    );
    // Every acknowledged move is there, and the old tokens still work.
    let after = view(addr, &id, 0, &tokens[0]);
    for key in [
        "step_count",
        "view",
        "scores",
        "to_move",
        "assists",
        "seats",
    ] {
        assert_eq!(after[key], before[key], "{key} after the restart");
    }
    let (st, _) = http(
        addr,
        "GET",
        &format!("/api/games/{id}?seat=1"),
        None,
        &["00ff"],
    );
    assert_eq!(st, 403, "a wrong token is still refused");
    // The AI seat thinks again (if it was to move) and answers the person's next move.
    let v = person_plays_first_legal(addr, &ai_id, &ai_tokens[0]);
    let steps = v["step_count"].as_u64().unwrap();
    assert!(steps >= ai_steps_before, "no acknowledged move is lost");
    let v = wait_for_person(addr, &ai_id, 0, &ai_tokens[0]);
    assert!(
        v["step_count"].as_u64().unwrap() >= steps + 2,
        "the AI seat replied after the restart"
    );

    // Both people continue to the end.
    play_people(addr, &id, &tokens, ply, None);
    let restarted = record(addr, &id, &tokens[0]);
    assert!(!restarted["result"].is_null(), "the game ended");

    // The same game without a restart.
    let (id2, tokens2) = new_game(addr, people, 11);
    play_people(addr, &id2, &tokens2, 0, None);
    let straight = record(addr, &id2, &tokens2[0]);
    assert_eq!(restarted, straight, "the records are identical");
    // The hint before the restart is kept (an undo between people is no assist).
    assert_eq!(
        restarted["assists"],
        json!([{"kind": "hint", "ply": 3, "seat": 0}])
    );

    // The finished game is in the database's list and its record is stored.
    let (st, played) = http(addr, "GET", "/api/played", None, &[]);
    assert_eq!(st, 200, "{played}");
    let entry = played["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .cloned()
        .expect("the game is listed");
    assert_eq!(entry["status"], "finished");
    let (st, stored) = http(addr, "GET", &format!("/api/played/{id}/record"), None, &[]);
    assert_eq!(st, 200);
    assert_eq!(stored, restarted);
}

#[test]
fn without_db_the_server_says_games_are_in_memory_only() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tessera serve starts");
    let out = child.stdout.take().unwrap();
    let mut lines = BufReader::new(out).lines();
    let first = lines.next().unwrap().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(first.contains("kept in memory only"), "{first}");
}

/// Plays the person's moves (seat 0, the `(ply * 5) % legal`-th legal move) of a game
/// against an AI seat, waiting for the AI's replies, until `moves` moves are made (or the
/// game ends, with `None`). Returns the plies played so far.
fn play_against_ai(
    addr: SocketAddr,
    id: &str,
    token: &str,
    mut ply: usize,
    moves: Option<usize>,
) -> usize {
    let mut played = 0;
    while moves.is_none_or(|m| played < m) {
        let v = view(addr, id, 0, token);
        if v["status"] != "playing" {
            break;
        }
        let v = wait_for_person_or_end(addr, id, token);
        if v["status"] != "playing" {
            break;
        }
        let legal = v["legal"].as_array().unwrap();
        let action = legal[(ply * 5) % legal.len()]["action"].as_str().unwrap();
        let (st, r) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(&json!({"seat": 0, "action": action, "expected_revision": v["revision"]})),
            &[token],
        );
        assert_eq!(st, 200, "ply {ply}: {r}");
        ply += 1;
        played += 1;
    }
    ply
}

/// Waits until game `id` waits for the person at seat 0, or is over.
fn wait_for_person_or_end(addr: SocketAddr, id: &str, token: &str) -> Value {
    wait_until(addr, id, 0, token, Duration::from_millis(20), |v| {
        v["status"] != "playing" || persons_turn(v, 0)
    })
}

#[test]
fn an_ai_seat_decides_after_a_restart_as_in_the_game_never_interrupted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    // The random player: every decision comes from its generator, so a generator not
    // restored shows at its next move.
    let seats = json!([{"type": "human", "name": "Ann"}, {"type": "ai", "agent": "random"}]);

    let server = start(&db);
    let (id, tokens) = new_game(server.addr, seats.clone(), 23);
    let ply = play_against_ai(server.addr, &id, &tokens[0], 0, Some(8));
    // The AI seat has answered the eighth move (or is about to) when the server is killed.
    let before = view(server.addr, &id, 0, &tokens[0])["step_count"]
        .as_u64()
        .unwrap();
    let server = kill_and_restart(server, &db);
    let addr = server.addr;
    let after = view(addr, &id, 0, &tokens[0]);
    assert!(
        after["step_count"].as_u64().unwrap() >= before,
        "no acknowledged move is lost"
    );
    play_against_ai(addr, &id, &tokens[0], ply, None);
    let restarted = record(addr, &id, &tokens[0]);
    assert!(
        !restarted["result"].is_null(),
        "the game ended: {restarted}"
    );

    // The same game, with the same moves of the person's, never interrupted.
    let (id2, tokens2) = new_game(addr, seats, 23);
    play_against_ai(addr, &id2, &tokens2[0], 0, None);
    let straight = record(addr, &id2, &tokens2[0]);
    let ai_moves = straight["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "action" && e["player"] == 1)
        .count();
    assert!(ai_moves > 20, "a whole game: {ai_moves} AI moves");
    assert_eq!(restarted, straight, "the records are identical");
}

#[test]
fn a_start_retried_after_a_restart_with_its_request_id_makes_one_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let body = json!({"game": "azul", "seats": [{"type": "human"}, {"type": "ai", "agent": "random"}],
                      "seed": 3, "request_id": "start-7f3a"});
    let server = start(&db);
    let (st, first) = http(server.addr, "POST", "/api/games", Some(&body), &[]);
    assert_eq!(st, 201, "{first}");
    // The client never saw the answer and retries the same Start on the restarted server.
    let server = kill_and_restart(server, &db);
    let (st, again) = http(server.addr, "POST", "/api/games", Some(&body), &[]);
    assert_eq!(st, 200, "a repeat, not a new game: {again}");
    assert_eq!(again["id"], first["id"]);
    assert_eq!(again["tokens"], first["tokens"], "the same seat tokens");
    let (_, games) = http(server.addr, "GET", "/api/games", None, &[]);
    assert_eq!(games["games"].as_array().map(Vec::len), Some(1), "{games}");
    // Another request id is another game.
    let mut other = body.clone();
    other["request_id"] = json!("start-8b21");
    let (st, second) = http(server.addr, "POST", "/api/games", Some(&other), &[]);
    assert_eq!(st, 201, "{second}");
    assert_ne!(second["id"], first["id"]);
}
