//! The JSON shapes of a few endpoints, key by key, and their bytes: every answer is what a
//! `serde_json::Value` of it serializes to (keys in sorted order, compact), as the `json!`
//! objects that the typed answers (crates/web/src/answers.rs) replaced were.

mod common;

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::{Value, json};
use tessera_web::{App, Config, games};

fn app() -> Arc<App> {
    Arc::new(games::standard_app(&Config {
        master_seed: 5,
        ..Config::default()
    }))
}

/// `method uri` with `body` (and `auth`); the status, the raw bytes and the JSON, which must
/// be JSON in the wire form of before.
async fn raw(
    app: &Arc<App>,
    method: &str,
    uri: &str,
    body: &str,
    auth: Option<&str>,
) -> (StatusCode, Vec<u8>, Value) {
    let (status, bytes, v) = common::request_bytes(app, method, uri, body, auth).await;
    // The bytes are exactly the `Value`'s: sorted keys, compact, nothing else (an answer
    // that is not JSON comes back as a JSON string, whose text differs).
    assert_eq!(
        String::from_utf8_lossy(&bytes),
        serde_json::to_string(&v).unwrap(),
        "{method} {uri}: not in the wire form of before"
    );
    (status, bytes, v)
}

/// `POST /api/games/ID/WHAT` with `body` as `auth`.
async fn post(
    app: &Arc<App>,
    id: &str,
    what: &str,
    body: &str,
    auth: &str,
) -> (StatusCode, Vec<u8>, Value) {
    raw(
        app,
        "POST",
        &format!("/api/games/{id}/{what}"),
        body,
        Some(auth),
    )
    .await
}

fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object()
        .unwrap_or_else(|| panic!("not an object: {v}"))
        .keys()
        .map(String::as_str)
        .collect()
}

fn set<'a>(names: &[&'a str]) -> BTreeSet<&'a str> {
    names.iter().copied().collect()
}

#[tokio::test]
async fn the_answers_have_their_documented_shapes_and_bytes() {
    let app = app();
    // The catalog.
    let (st, _, cat) = raw(&app, "GET", "/api/catalog", "", None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(keys(&cat), set(&["games"]));
    let azul = cat["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "azul")
        .expect("azul in the catalog");
    assert_eq!(
        keys(azul),
        set(&[
            "agents",
            "default_level",
            "hidden_info",
            "hints",
            "levels",
            "max_players",
            "min_players",
            "name",
            "title"
        ])
    );
    // A new game: the snapshot of the first human seat, its page and tokens.
    let body = json!({"game": "azul", "seed": 3, "seats": [
        {"type": "human", "name": "Ann"}, {"type": "ai", "agent": "random"}]})
    .to_string();
    let (st, _, created) = raw(&app, "POST", "/api/games", &body, None).await;
    assert_eq!(st, StatusCode::CREATED, "{created}");
    let snapshot_keys = [
        "assists",
        "can_hint",
        "can_undo",
        "clock",
        "failure",
        "game",
        "id",
        "legal",
        "my_seats",
        "outcome",
        "record_available",
        "revision",
        "scores",
        "seat",
        "seats",
        "seed",
        "status",
        "step_count",
        "steps",
        "title",
        "to_move",
        "turn",
        "view",
        "waiting_for",
    ];
    let mut with_page = set(&snapshot_keys);
    with_page.extend(["tokens", "url"]);
    assert_eq!(keys(&created), with_page);
    assert_eq!(created["failure"], Value::Null);
    assert_eq!(created["clock"], Value::Null);
    assert_eq!(keys(&created["seats"][0]), set(&["free", "name", "type"]));
    assert_eq!(created["seats"][0]["type"], "human");
    assert_eq!(
        keys(&created["seats"][1]),
        set(&["agent", "budget", "name", "type"])
    );
    assert_eq!(
        keys(&created["tokens"][0]),
        set(&["invite", "seat", "token"])
    );
    let step = &created["steps"][0];
    assert_eq!(
        keys(step),
        set(&[
            "action",
            "action_json",
            "explain",
            "index",
            "player",
            "report",
            "scores",
            "think_ms",
            "type",
            "view"
        ])
    );
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["tokens"][0]["token"].as_str().unwrap().to_string();
    let auth = format!("Bearer {token}");
    // The snapshot alone.
    let (st, _, snap) = raw(
        &app,
        "GET",
        &format!("/api/games/{id}?seat=0"),
        "",
        Some(&auth),
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(keys(&snap), set(&snapshot_keys));
    // A move check: a word that is no move has a reason and no explanation.
    let nonsense = r#"{"seat": 0, "action": "nonsense"}"#;
    let (st, _, check) = post(&app, &id, "check", nonsense, &auth).await;
    if st == StatusCode::OK {
        assert_eq!(keys(&check), set(&["legal", "reason"]));
        assert_eq!(check["legal"], false);
    } else {
        // The AI moved first: the table refuses the check (not the seat's turn).
        assert_eq!(st, StatusCode::CONFLICT, "{check}");
        assert_eq!(keys(&check), set(&["error"]));
    }
    // The list of games and the lobby.
    let (_, _, list) = raw(&app, "GET", "/api/games", "", None).await;
    assert_eq!(keys(&list), set(&["games"]));
    assert_eq!(
        keys(&list["games"][0]),
        set(&["game", "id", "scores", "seats", "status", "step_count"])
    );
    let (_, _, lobby) = raw(&app, "GET", "/api/lobby", "", None).await;
    assert_eq!(keys(&lobby), set(&["games"]));
    // Errors: `{"error": ...}` only.
    let (st, _, missing) = raw(&app, "GET", "/api/games/nope", "", None).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert_eq!(keys(&missing), set(&["error"]));
    // A token that is not the seat's is the web's own access rule (403), not the table's.
    let wrong = format!("Bearer {}", token.chars().rev().collect::<String>());
    let pass = r#"{"seat": 0, "action": "pass"}"#;
    let (st, _, other) = post(&app, &id, "move", pass, &wrong).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{other}");
}

#[tokio::test]
async fn the_tables_refusals_are_http_statuses() {
    let app = app();
    // Two people: seat 1 asks to move on seat 0's turn.
    let body = json!({"game": "azul", "seed": 3, "seats": [
        {"type": "human"}, {"type": "human"}]})
    .to_string();
    let (st, _, created) = raw(&app, "POST", "/api/games", &body, None).await;
    assert_eq!(st, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap();
    let tokens: Vec<&str> = created["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["token"].as_str().unwrap())
        .collect();
    let auth = format!("Bearer {}", tokens.join(","));
    let to_move = created["to_move"].as_u64().unwrap();
    let other = 1 - to_move;
    let legal = created["legal"][0]["action"].as_str().unwrap_or("");
    let (st, _, v) = post(
        &app,
        id,
        "move",
        &json!({"seat": other, "action": legal}).to_string(),
        &auth,
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    assert!(
        v["error"].as_str().unwrap().starts_with("not your turn"),
        "{v}"
    );
    // The same for a check.
    let (st, _, _) = post(
        &app,
        id,
        "check",
        &json!({"seat": other, "action": legal}).to_string(),
        &auth,
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT);
    // A move the rules forbid: 422 with the rules' reason.
    let (st, _, v) = post(
        &app,
        id,
        "move",
        &json!({"seat": to_move, "action": "9BF"}).to_string(),
        &auth,
    )
    .await;
    assert!(
        st == StatusCode::UNPROCESSABLE_ENTITY || st == StatusCode::BAD_REQUEST,
        "{st}: {v}"
    );
}

#[tokio::test]
async fn the_tiles_answers_have_their_shapes_and_bytes() {
    let app = app();
    let (st, _, levels) = raw(&app, "GET", "/api/tiles/levels", "", None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(keys(&levels), set(&["heuristics", "levels", "solvers"]));
    assert_eq!(
        keys(&levels["levels"][0]),
        set(&["height", "name", "number", "optimal", "pieces", "width"])
    );
    let (st, _, puzzle) = raw(&app, "POST", "/api/tiles", r#"{"level": 1}"#, None).await;
    assert_eq!(st, StatusCode::OK, "{puzzle}");
    assert_eq!(
        keys(&puzzle),
        set(&[
            "can_undo",
            "hints_used",
            "id",
            "level",
            "move_count",
            "moves",
            "number",
            "pieces",
            "solved"
        ])
    );
    let id = puzzle["id"].as_str().unwrap();
    let (_, _, hint) = raw(&app, "POST", &format!("/api/tiles/{id}/hint"), "", None).await;
    assert_eq!(keys(&hint), set(&["dir", "moves_left", "solvable"]));
}
