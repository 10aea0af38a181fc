//! Helpers shared by the web API tests: requests through the router without a network.
// Each test file uses some of these helpers, never all of them.
#![allow(dead_code)]

use std::collections::BTreeMap;
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

/// The seat tokens of every game the tests created, by server (its address in memory: tests
/// running at once have servers with the same game ids) and game id.
static TOKENS: std::sync::Mutex<BTreeMap<(usize, String), Vec<String>>> =
    std::sync::Mutex::new(BTreeMap::new());

/// Keeps the seat tokens of a new game's answer.
pub fn remember_tokens(app: &Arc<App>, v: &Value) {
    if let (Some(id), Some(tokens)) = (v["id"].as_str(), v["tokens"].as_array()) {
        let tokens = tokens
            .iter()
            .filter_map(|t| t["token"].as_str().map(String::from))
            .collect();
        TOKENS
            .lock()
            .unwrap()
            .insert((Arc::as_ptr(app) as usize, id.to_string()), tokens);
    }
}

/// Every seat token of the game `uri` names (`/api/games/ID/...`), as a Bearer value.
fn tokens_for(app: &Arc<App>, uri: &str) -> Option<String> {
    let id = uri.strip_prefix("/api/games/")?.split(['/', '?']).next()?;
    let key = (Arc::as_ptr(app) as usize, id.to_string());
    let tokens = TOKENS.lock().unwrap().get(&key)?.join(",");
    (!tokens.is_empty()).then(|| format!("Bearer {tokens}"))
}

/// Sends `method uri` with a JSON `body` as the person who created the game (with every
/// seat token of it); returns the status and the body as JSON (or as a JSON string when it
/// is not JSON).
pub async fn call(app: &Arc<App>, method: &str, uri: &str, body: &str) -> (StatusCode, Value) {
    let auth = tokens_for(app, uri);
    call_with(app, method, uri, body, auth.as_deref()).await
}

/// Sends `method uri` with `body` and this `Authorization` header (`None`: none).
pub async fn call_with(
    app: &Arc<App>,
    method: &str,
    uri: &str,
    body: &str,
    authorization: Option<&str>,
) -> (StatusCode, Value) {
    let (status, _, v) = request_bytes(app, method, uri, body, authorization).await;
    if method == "POST" && uri == "/api/games" {
        remember_tokens(app, &v);
    }
    (status, v)
}

/// Sends `method uri` with a JSON `body` and this `Authorization` header (`None`: none);
/// returns the status, the body's bytes as sent and the body as JSON (or as a JSON string
/// when it is not JSON).
pub async fn request_bytes(
    app: &Arc<App>,
    method: &str,
    uri: &str,
    body: &str,
    authorization: Option<&str>,
) -> (StatusCode, Vec<u8>, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(a) = authorization {
        req = req.header("authorization", a);
    }
    let req = req.body(Body::from(body.to_string())).unwrap();
    let resp = router(Arc::clone(app)).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 64 << 20)
        .await
        .unwrap()
        .to_vec();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, bytes, v)
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
