//! A bounded load test on loopback: 100 concurrent Azul games whose two AI seats each take
//! 20 ms per move all finish, while a human's requests to another game keep answering within
//! 200 ms.
//!
//! The AI seats compute for 1 ms and wait for the rest of their 20 ms (like an external engine
//! answering over the text protocol), so the test measures the server, not the machine's
//! cores: 100 games x ~75 moves of CPU-bound 20 ms searches would need ~75 s of both cores of
//! a 2-core machine whatever the server does. The server runs with 128 AI threads so that all
//! 100 games think at once.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::Rng;
use serde_json::{Value, json};
use tessera_azul::AzulState;
use tessera_core::{Agent, Budget, Game, GameRng};
use tessera_web::session::{AgentFactory, AgentInfo, Kind};
use tessera_web::{App, Config};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const GAMES: usize = 100;
const THINK_MS: u64 = 20;
const HUMAN_LIMIT: Duration = Duration::from_millis(200);

/// Computes for 1 ms, waits out the rest of its time budget, then plays a random legal move.
struct BusyAgent {
    buf: Vec<<AzulState as Game>::Action>,
}

impl Agent<AzulState> for BusyAgent {
    fn name(&self) -> String {
        "busy".into()
    }
    fn choose(
        &mut self,
        state: &AzulState,
        budget: &Budget,
        rng: &mut GameRng,
    ) -> <AzulState as Game>::Action {
        let start = Instant::now();
        let end = start + budget.time.unwrap_or(Duration::from_millis(THINK_MS));
        let mut x = 0u64;
        while start.elapsed() < Duration::from_millis(1) {
            for _ in 0..1000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
            }
        }
        std::hint::black_box(x);
        std::thread::sleep(end.saturating_duration_since(Instant::now()));
        state.legal_actions(&mut self.buf);
        self.buf[rng.random_range(0..self.buf.len())]
    }
}

fn app() -> Arc<App> {
    let factory: AgentFactory<AzulState> =
        Arc::new(|spec: &str| match spec {
            "busy" => Ok(Box::new(BusyAgent { buf: Vec::new() }) as Box<dyn Agent<AzulState>>),
            "random" => Ok(Box::new(tessera_core::RandomAgent::<AzulState>::new())
                as Box<dyn Agent<AzulState>>),
            _ => Err("busy or random".into()),
        });
    let kind = Kind::new(
        factory,
        vec![AgentInfo {
            name: "busy".into(),
            description: "takes its whole time budget".into(),
        }],
    );
    let cfg = Config {
        master_seed: 99,
        ai_threads: 128,
        ..Config::default()
    };
    Arc::new(App::new(&cfg).with_game("azul", Box::new(kind)))
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
                let seat = json!({"type": "ai", "agent": "busy", "budget": {"time_ms": THINK_MS}});
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
        let deadline = start + Duration::from_secs(120);
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
        let elapsed = finished_at.expect("the 100 AI games did not all finish within 120 s");
        let mut moves = 0u64;
        for id in &ids {
            let (st, s) = http(addr, "GET", &format!("/api/games/{id}"), None).await;
            assert_eq!(st, 200);
            assert_eq!(s["status"], "finished", "{}", s["failure"]);
            assert!(s["outcome"]["winners"].as_array().is_some_and(|w| !w.is_empty()));
            moves += s["step_count"].as_u64().unwrap();
        }
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
        assert!(latencies.len() >= 5, "too few human requests measured");
        // Every request of the human is measured from the client, on a machine whose two
        // cores may be shared with other work: the bar is that 95% answer within the limit
        // and none takes more than a second.
        let p95 = latencies[latencies.len() * 95 / 100].0;
        assert!(p95 < HUMAN_LIMIT, "95% of human requests should answer within {HUMAN_LIMIT:?}; the 95th percentile is {p95:?}");
        assert!(max < Duration::from_secs(1), "a human request took {max:?} under load");
    });
}
