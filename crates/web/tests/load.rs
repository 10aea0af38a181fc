//! A bounded load test on loopback: 100 concurrent Azul games whose two AI seats each search
//! for 20 ms per move all finish, while every one of a human's requests to another game
//! answers within 200 ms.
//!
//! The AI seats are the registry's `presort` player (the blog's alpha-beta with presorting,
//! iterative deepening under the time limit), so every AI move is a real CPU-bound search of
//! up to 20 ms (less when the search exhausts the rest of the round sooner: about 9 ms on
//! average here). The server runs with its default AI pool (one thinking thread per core), so
//! both cores stay busy with searches for the whole run (100 games x about 50 AI moves,
//! shared by two threads: about 25 s here), and the human's requests compete with them.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tessera_web::{App, Config};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const GAMES: usize = 100;
const THINK_MS: u64 = 20;
const HUMAN_LIMIT: Duration = Duration::from_millis(200);

fn app() -> Arc<App> {
    let cfg = Config {
        master_seed: 99,
        ..Config::default()
    };
    Arc::new(App::new(&cfg).with_game("azul", Box::new(tessera_web::games::azul_kind())))
}

/// One HTTP/1.1 request over a fresh loopback connection.
async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.expect("send");
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.expect("read");
    let text = String::from_utf8_lossy(&out);
    let status: u16 = text
        .split_whitespace()
        .nth(1)
        .and_then(|x| x.parse().ok())
        .expect("status line");
    let payload = text.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
    (status, serde_json::from_str(payload).unwrap_or(Value::Null))
}

#[test]
fn hundred_ai_games_finish_and_a_human_still_gets_quick_answers() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let app = app();
        let (listener, addr) = tessera_web::bind_loopback(0).await.expect("bind");
        let a = Arc::clone(&app);
        tokio::spawn(async move {
            let _ = tessera_web::serve(listener, a, std::future::pending()).await;
        });

        // The human's game, against an instant AI.
        let (st, human) = http(
            addr,
            "POST",
            "/api/games",
            Some(&json!({"game": "azul", "seed": 1, "seats": [{"type": "human"}, {"type": "ai", "agent": "random"}]})),
        )
        .await;
        assert_eq!(st, 201, "{human}");
        let hid = human["id"].as_str().unwrap().to_string();

        let start = Instant::now();
        let mut creators = Vec::new();
        for i in 0..GAMES {
            creators.push(tokio::spawn(async move {
                let seat = json!({"type": "ai", "agent": "presort", "budget": {"time_ms": THINK_MS}});
                let (st, v) = http(
                    addr,
                    "POST",
                    "/api/games",
                    Some(&json!({"game": "azul", "seed": 1000 + i, "seats": [seat, seat]})),
                )
                .await;
                assert_eq!(st, 201, "{v}");
                v["id"].as_str().unwrap().to_string()
            }));
        }
        let mut ids = Vec::new();
        for c in creators {
            ids.push(c.await.expect("create"));
        }

        // While the AI games run, the human looks at the board and moves.
        let mut latencies = Vec::new();
        let deadline = start + Duration::from_secs(600);
        let mut finished_at = None;
        while Instant::now() < deadline {
            let t = Instant::now();
            let (st, snap) = http(addr, "GET", &format!("/api/games/{hid}?seat=0"), None).await;
            latencies.push((t.elapsed(), start.elapsed()));
            assert_eq!(st, 200, "{snap}");
            if snap["waiting_for"] == "human" {
                let action = snap["legal"][0]["action"].as_str().unwrap().to_string();
                let t = Instant::now();
                let (st, r) = http(
                    addr,
                    "POST",
                    &format!("/api/games/{hid}/move"),
                    Some(&json!({"seat": 0, "action": action})),
                )
                .await;
                latencies.push((t.elapsed(), start.elapsed()));
                assert_eq!(st, 200, "{r}");
            }
            let done = app
                .sessions
                .list()
                .iter()
                .filter(|g| ids.iter().any(|id| g["id"] == json!(id)) && g["status"] != "playing")
                .count();
            if done == GAMES {
                finished_at = Some(start.elapsed());
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let elapsed = finished_at.expect("the 100 AI games did not all finish within 600 s");
        let mut moves = 0u64;
        let (mut ai_moves, mut ai_think_ms) = (0u64, 0u64);
        for id in &ids {
            let (st, s) = http(addr, "GET", &format!("/api/games/{id}?since=0"), None).await;
            assert_eq!(st, 200);
            assert_eq!(s["status"], "finished", "{}", s["failure"]);
            assert!(s["outcome"]["winners"].as_array().is_some_and(|w| !w.is_empty()));
            moves += s["step_count"].as_u64().unwrap();
            for step in s["steps"].as_array().into_iter().flatten() {
                if let Some(ms) = step["think_ms"].as_u64() {
                    ai_moves += 1;
                    ai_think_ms += ms;
                }
            }
        }
        let mean_think = ai_think_ms as f64 / ai_moves.max(1) as f64;
        eprintln!("AI moves: {ai_moves}, mean thinking time {mean_think:.1} ms");
        // The AI seats really searched (a search that ignored its budget and answered at once
        // would leave the CPU idle and make the test meaningless).
        assert!(
            ai_moves >= 40 * GAMES as u64,
            "only {ai_moves} AI moves in {GAMES} games"
        );
        assert!(
            mean_think >= 4.0,
            "the AI seats thought {mean_think:.1} ms per move on average; expected most of \
             their {THINK_MS} ms"
        );
        latencies.sort();
        let worst: Vec<String> = latencies.iter().rev().take(5).map(|(l, at)| format!("{:.0} ms at {:.1} s", l.as_secs_f64() * 1e3, at.as_secs_f64())).collect();
        eprintln!("slowest human requests: {}", worst.join(", "));
        let max = latencies.last().unwrap().0;
        let median = latencies[latencies.len() / 2].0;
        eprintln!(
            "load: {GAMES} games ({moves} steps, AI {THINK_MS} ms per move) finished in {:.1} s; \
             human requests: {} answered, median {:.1} ms, max {:.1} ms",
            elapsed.as_secs_f64(),
            latencies.len(),
            median.as_secs_f64() * 1e3,
            max.as_secs_f64() * 1e3
        );
        assert!(
            latencies.len() >= 20,
            "too few human requests measured: {}",
            latencies.len()
        );
        // Every request of the human, measured from the client, answers within the limit.
        assert!(
            max <= HUMAN_LIMIT,
            "every human request should answer within {HUMAN_LIMIT:?}; the slowest took {max:?} \
             (slowest five: {})",
            worst.join(", ")
        );
    });
}
