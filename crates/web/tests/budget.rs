//! The server's budget policy: whatever an agent's specification asks for, no AI seat thinks
//! longer than the server's cap (issue 12: `presort:time=100000s` used to tie up an AI
//! thread).

use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::{Value, json};
use tessera_web::session::MAX_TIME_MS;
use tessera_web::{App, Config, games};

mod common;
use common::call;

fn app() -> Arc<App> {
    Arc::new(App::new(&Config::default()).with(Box::new(games::azul_kind())))
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
