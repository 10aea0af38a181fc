//! Helpers shared by the web API tests: requests through the router without a network.
// Each test file uses some of these helpers, never all of them.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tessera_arena::schedule::RunParams;
use tessera_arena::store::Store;
use tessera_arena::{games, runner};
use tessera_web::{App, router};
use tower::ServiceExt;

/// Sends `method uri` with a JSON `body`; returns the status and the body as JSON (or as a
/// JSON string when it is not JSON).
pub async fn call(app: &Arc<App>, method: &str, uri: &str, body: &str) -> (StatusCode, Value) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let resp = router(Arc::clone(app)).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 64 << 20)
        .await
        .unwrap();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, v)
}

/// The `error` text of an error response.
pub fn err_text(v: &Value) -> String {
    v["error"].as_str().unwrap_or_default().to_string()
}

/// Creates a game of `game` with `seats` and `seed`; returns the created game's JSON.
pub async fn new_game(app: &Arc<App>, game: &str, seats: Value, seed: u64) -> Value {
    let (st, v) = call(
        app,
        "POST",
        "/api/games",
        &json!({"game": game, "seats": seats, "seed": seed}).to_string(),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    v
}

/// Long-polls game `id` (as `seat` sees it) until no AI seat is to move: a human's turn, the
/// end, or a failure.
pub async fn wait_while_ai(app: &Arc<App>, id: &str, seat: u8) -> Value {
    for _ in 0..400 {
        let (st, v) = call(app, "GET", &format!("/api/games/{id}?seat={seat}"), "").await;
        assert_eq!(st, StatusCode::OK, "{v}");
        if v["waiting_for"] != "ai" {
            return v;
        }
        let rev = v["revision"].as_u64().unwrap();
        call(
            app,
            "GET",
            &format!("/api/games/{id}?wait_ms=2000&revision={rev}"),
            "",
        )
        .await;
    }
    panic!("the AI never moved");
}

/// Plays the tournament `params` into the results file `path` (created if missing), as
/// `tessera tournament` would.
pub fn play_into(path: &Path, params: &RunParams) {
    let mut store = Store::open(path).unwrap();
    let driver = games::driver(&params.game).unwrap();
    runner::run_tournament(
        driver.as_ref(),
        params,
        &mut store,
        &runner::RunOptions::default(),
        &mut (),
    )
    .unwrap();
}
