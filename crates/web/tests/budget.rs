//! The server's budget policy: whatever an agent's specification asks for, no AI seat thinks
//! longer than the operator's cap (`--max-think`; issue 12: `presort:time=100000s` used to
//! tie up an AI thread; issue 28: node- and sample-bounded specs, and specs naming files).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::{Value, json};
use tessera_web::session::DEFAULT_MAX_THINK;
use tessera_web::{App, Config, games};

mod common;
use common::call;

const MAX_TIME_MS: u128 = DEFAULT_MAX_THINK.as_millis();

fn app() -> Arc<App> {
    Arc::new(App::new(&Config::default()).with(Box::new(games::azul_kind())))
}

fn capped_app(max_think: Duration) -> Arc<App> {
    let config = Config {
        max_think,
        ..Config::default()
    };
    Arc::new(games::standard_app(&config))
}

async fn post_game(app: &Arc<App>, body: Value) -> (StatusCode, Value) {
    call(app, "POST", "/api/games", &body.to_string()).await
}

#[tokio::test]
async fn a_specification_cannot_exceed_the_cap() {
    let app = app();
    // The AI seat moves second, so the game waits for the human and nobody thinks.
    let (st, v) = post_game(
        &app,
        json!({"game": "azul", "seed": 1,
               "seats": [{"type": "human"}, {"type": "ai", "agent": "presort:time=100000s"}]}),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["seats"][1]["agent"], "presort:time=100000s", "{v}");
    assert_eq!(
        v["seats"][1]["budget"],
        json!({"time_ms": MAX_TIME_MS}),
        "{v}"
    );

    // A depth limit stays, with the cap's time added.
    let (st, v) = post_game(
        &app,
        json!({"game": "azul", "seed": 1,
               "seats": [{"type": "human"}, {"type": "ai", "agent": "alphabeta:depth=3"}]}),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(
        v["seats"][1]["budget"],
        json!({"time_ms": MAX_TIME_MS, "depth": 3}),
        "{v}"
    );

    // The request's budget overrides the specification's, within the cap.
    let (st, v) = post_game(
        &app,
        json!({"game": "azul", "seed": 1,
               "seats": [{"type": "human"},
                         {"type": "ai", "agent": "presort:time=100000s", "budget": {"time_ms": 20}}]}),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["seats"][1]["budget"], json!({"time_ms": 20}), "{v}");

    // Node-bounded and limitless players get the cap's time too (the seat shows it).
    for (agent, budget) in [
        (
            "strong:nodes=100000000",
            json!({"time_ms": MAX_TIME_MS, "nodes": 100_000_000}),
        ),
        ("greedy", json!({"time_ms": MAX_TIME_MS})),
    ] {
        let (st, v) = post_game(
            &app,
            json!({"game": "azul", "seed": 1,
                   "seats": [{"type": "human"}, {"type": "ai", "agent": agent}]}),
        )
        .await;
        assert_eq!(st, StatusCode::CREATED, "{v}");
        assert_eq!(v["seats"][1]["budget"], budget, "{agent}: {v}");
    }

    // Without limits the registry's default applies.
    let (st, v) = post_game(
        &app,
        json!({"game": "azul", "seed": 1,
               "seats": [{"type": "human"}, {"type": "ai", "agent": "presort"}]}),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    assert_eq!(v["seats"][1]["budget"], json!({"time_ms": 100}), "{v}");

    // A request's own budget beyond the cap is refused, as before.
    let (st, v) = post_game(
        &app,
        json!({"game": "azul",
               "seats": [{"type": "human"},
                         {"type": "ai", "agent": "presort", "budget": {"time_ms": MAX_TIME_MS + 1}}]}),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
}

/// Waits until the game `id` has `steps` steps (moves and chance events) or more, or `limit`
/// passes; returns the game.
async fn wait_for_steps(app: &Arc<App>, id: &str, steps: u64, limit: Duration) -> Value {
    let start = Instant::now();
    loop {
        let (st, v) = call(app, "GET", &format!("/api/games/{id}"), "").await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let n = v["step_count"].as_u64().unwrap_or(0);
        if n >= steps || start.elapsed() > limit {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operators_cap_binds_node_and_sample_bounded_seats() {
    // A 150 ms cap: seats that ask for a billion nodes or ten thousand worlds a move still
    // answer within the cap plus a tolerance.
    let cap = Duration::from_millis(150);
    let app = capped_app(cap);
    for (game, agent) in [
        ("azul", "strong:nodes=1000000000"),
        ("azul", "augur:nodes=1000000000:extend=8"),
        ("qwirkle", "montecarlo:nodes=1000000000"),
        ("qwirkle", "seer:nodes=100000"),
        ("qwirkle", "sage:nodes=100000"),
        ("qwirkle", "lookahead:samples=10000"),
    ] {
        let (st, v) = post_game(
            &app,
            json!({"game": game, "seed": 3,
                   "seats": [{"type": "ai", "agent": agent}, {"type": "ai", "agent": "random"}]}),
        )
        .await;
        assert_eq!(st, StatusCode::CREATED, "{agent}: {v}");
        assert_eq!(
            v["seats"][0]["budget"]["time_ms"],
            json!(cap.as_millis()),
            "{agent}: {v}"
        );
        let id = v["id"].as_str().unwrap().to_string();
        // Eight steps hold at most four moves of the capped seat: each within the cap plus
        // two seconds of tolerance, or one unbounded move (minutes) breaks it.
        let start = Instant::now();
        let g = wait_for_steps(&app, &id, 8, Duration::from_secs(30)).await;
        let took = start.elapsed();
        let steps = g["step_count"].as_u64().unwrap_or(0);
        assert!(g["failure"].is_null(), "{agent}: {g}");
        assert!(steps >= 8, "{agent}: only {steps} steps in {took:?}");
        assert!(
            took < 4 * (cap + Duration::from_secs(2)),
            "{agent}: eight steps took {took:?}"
        );
    }
}

#[tokio::test]
async fn requests_may_not_name_files_or_programs() {
    let app = capped_app(DEFAULT_MAX_THINK);
    let dir = std::env::temp_dir();
    let existing = dir.join(format!("tessera-weights-{}.json", std::process::id()));
    std::fs::write(&existing, "not json").unwrap();
    let missing = dir.join("tessera-no-such-weights.json");
    let mut answers = Vec::new();
    for file in [&existing, &missing] {
        let agent = format!("augur:weights={}", file.display());
        let (st, v) = post_game(
            &app,
            json!({"game": "azul", "seats": [{"type": "human"}, {"type": "ai", "agent": agent}]}),
        )
        .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
        let msg = v["error"].as_str().unwrap_or_default().to_string();
        assert!(msg.contains("names a file"), "{msg}");
        answers.push(msg.replace(&file.display().to_string(), "FILE"));
    }
    // The answer does not tell whether the file exists.
    assert_eq!(answers[0], answers[1]);
    std::fs::remove_file(&existing).unwrap();
    // Shipped weights are fine; external programs are not.
    let (st, v) = post_game(
        &app,
        json!({"game": "azul", "seats": [{"type": "human"}, {"type": "ai", "agent": "augur:weights=v3"}]}),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let (st, v) = post_game(
        &app,
        json!({"game": "azul", "seats": [{"type": "human"}, {"type": "ai", "agent": "ext:/bin/sh"}]}),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    // Samples past the documented bound are refused before anything is allocated.
    let (st, v) = post_game(
        &app,
        json!({"game": "qwirkle", "seats": [{"type": "human"}, {"type": "ai", "agent": "lookahead:samples=200000"}]}),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap_or_default()
            .contains("1 to 10000"),
        "{v}"
    );
}
