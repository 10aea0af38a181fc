//! API tests on the Nim test game: every endpoint, including every error case, through the
//! router without a network.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tessera_core::testgame::Nim;
use tessera_core::{Game, replay};
use tessera_web::{App, Config, games, router};
use tower::ServiceExt;

mod common;
use common::{call, err_text, wait_while_ai as wait_for_human_or_end};

/// A Nim game with `seats`.
async fn new_game(app: &Arc<App>, seats: Value, seed: u64) -> Value {
    common::new_game(app, "nim", seats, seed).await
}

/// A server hosting Nim.
fn nim_app() -> App {
    let cfg = Config {
        master_seed: 42,
        ..Config::default()
    };
    App::new(&cfg).with_game(
        "nim",
        games::registered_kind("nim").expect("nim is registered"),
    )
}

fn app() -> Arc<App> {
    Arc::new(nim_app())
}

#[tokio::test]
async fn catalog_lists_games_and_agents() {
    let app = app();
    let (st, v) = call(&app, "GET", "/api/catalog", "").await;
    assert_eq!(st, StatusCode::OK);
    let g = &v["games"][0];
    assert_eq!(g["name"], "nim");
    assert_eq!(g["min_players"], 2);
    assert_eq!(g["agents"][0]["name"], "random");
}

#[tokio::test]
async fn new_game_deals_and_waits_for_the_human() {
    let app = app();
    let v = new_game(
        &app,
        json!([{"type": "human", "name": "Ann"}, {"type": "human"}]),
        7,
    )
    .await;
    assert_eq!(v["status"], "playing");
    assert_eq!(v["seats"][0]["name"], "Ann");
    assert_eq!(v["seats"][1]["name"], "Player 2");
    assert_eq!(v["seat"], 0);
    assert_eq!(v["to_move"], 0);
    assert_eq!(v["waiting_for"], "human");
    // The deal is step 0 and the state after it is what the view shows.
    assert_eq!(v["step_count"], 1);
    assert_eq!(v["steps"][0]["type"], "chance");
    let state: Nim = v["view"]["state"].as_str().unwrap().parse().unwrap();
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    let sent: Vec<&str> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = legal.iter().map(|a| a.to_string()).collect();
    assert_eq!(sent, expected);
    // Same seed, same deal.
    let w = new_game(&app, json!([{"type": "human"}, {"type": "human"}]), 7).await;
    assert_eq!(w["view"], v["view"]);
    assert_ne!(w["id"], v["id"]);
    let (st, list) = call(&app, "GET", "/api/games", "").await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(list["games"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn new_game_errors_are_clear() {
    let app = app();
    let cases: &[(&str, StatusCode, &str)] = &[
        ("", StatusCode::BAD_REQUEST, "empty request body"),
        ("{\"game\": ", StatusCode::BAD_REQUEST, "malformed JSON"),
        ("[1,2]", StatusCode::BAD_REQUEST, "malformed JSON"),
        (
            r#"{"game":"chess","seats":[{"type":"human"},{"type":"human"}]}"#,
            StatusCode::NOT_FOUND,
            "unknown game 'chess'",
        ),
        (
            r#"{"game":"nim","seats":[{"type":"human"}]}"#,
            StatusCode::BAD_REQUEST,
            "2 to 4 seats",
        ),
        (
            r#"{"game":"nim","seats":[{"type":"human"},{"type":"ai","agent":"deep-blue"}]}"#,
            StatusCode::BAD_REQUEST,
            "seat 1: agent 'deep-blue'",
        ),
        (
            r#"{"game":"nim","seats":[{"type":"human"},{"type":"ai","agent":"random","budget":{"time_ms":0}}]}"#,
            StatusCode::BAD_REQUEST,
            "time_ms",
        ),
        (
            r#"{"game":"nim","seats":[{"type":"robot"},{"type":"human"}]}"#,
            StatusCode::BAD_REQUEST,
            "unknown variant `robot`",
        ),
        (
            r#"{"game":"nim","seats":[{"type":"human"},{"type":"human"}],"colour":1}"#,
            StatusCode::BAD_REQUEST,
            "unknown field `colour`",
        ),
    ];
    for (body, status, text) in cases {
        let (st, v) = call(&app, "POST", "/api/games", body).await;
        assert_eq!(st, *status, "{body} -> {v}");
        assert!(err_text(&v).contains(text), "{body}: {v}");
    }
    let (_, list) = call(&app, "GET", "/api/games", "").await;
    assert!(list["games"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn moves_are_validated_and_bad_ones_leave_the_game_unchanged() {
    let app = app();
    let v = new_game(&app, json!([{"type": "human"}, {"type": "human"}]), 3).await;
    let id = v["id"].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/move");
    // The registration's set-up picks the first seat from the seed.
    let (m, o) = match v["to_move"].as_u64() {
        Some(0) => (0, 1),
        _ => (1, 0),
    };
    let before = call(&app, "GET", &format!("/api/games/{id}?seat={m}"), "")
        .await
        .1;
    let not_yours = format!(r#"{{"seat":{o},"action":"1:1"}}"#);
    let not_a_move = format!(r#"{{"seat":{m},"action":"one"}}"#);
    let illegal = format!(r#"{{"seat":{m},"action":"9:1"}}"#);
    let bad: &[(&str, StatusCode, &str)] = &[
        ("not json", StatusCode::BAD_REQUEST, "malformed JSON"),
        (
            r#"{"seat":0}"#,
            StatusCode::BAD_REQUEST,
            "missing field `action`",
        ),
        (
            r#"{"seat":5,"action":"1:1"}"#,
            StatusCode::BAD_REQUEST,
            "seat 5 does not exist",
        ),
        (&not_yours, StatusCode::CONFLICT, "not your turn"),
        (
            &not_a_move,
            StatusCode::BAD_REQUEST,
            "is not a Nim (test game) move",
        ),
        (
            &illegal,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal move '9:1'",
        ),
    ];
    for (body, status, text) in bad {
        let (st, e) = call(&app, "POST", &uri, body).await;
        assert_eq!(st, *status, "{body} -> {e}");
        assert!(err_text(&e).contains(text), "{body}: {e}");
    }
    let after = call(&app, "GET", &format!("/api/games/{id}?seat={m}"), "")
        .await
        .1;
    assert_eq!(before, after, "a refused move changed the game");
    // A legal move goes through and passes the turn.
    let legal = before["legal"][0]["action"].as_str().unwrap();
    let (st, v) = call(
        &app,
        "POST",
        &uri,
        &json!({"seat": m, "action": legal}).to_string(),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["steps"][0]["action"], legal);
    assert_eq!(v["steps"][0]["player"], m);
    assert!(v["revision"].as_u64() > before["revision"].as_u64());
    assert!(v["to_move"] == o || v["status"] == "finished");
    // Unknown game ids.
    let (st, e) = call(
        &app,
        "POST",
        "/api/games/nope/move",
        r#"{"seat":0,"action":"1:1"}"#,
    )
    .await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(err_text(&e).contains("no game with id 'nope'"));
}

#[tokio::test]
async fn show_game_errors() {
    let app = app();
    let v = new_game(
        &app,
        json!([{"type": "human"}, {"type": "ai", "agent": "random"}]),
        3,
    )
    .await;
    let id = v["id"].as_str().unwrap();
    let (st, e) = call(&app, "GET", "/api/games/missing", "").await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{e}");
    let (st, e) = call(&app, "GET", &format!("/api/games/{id}?seat=abc"), "").await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
    assert!(err_text(&e).contains("bad query string"));
    let (st, e) = call(&app, "GET", &format!("/api/games/{id}?seat=9"), "").await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(err_text(&e).contains("seat 9 does not exist"));
    let (st, e) = call(&app, "GET", &format!("/api/games/{id}?colour=red"), "").await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
    // The spectator view has no legal list.
    let (st, s) = call(&app, "GET", &format!("/api/games/{id}"), "").await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(s["seat"], Value::Null);
    assert!(s["legal"].as_array().unwrap().is_empty());
    let (st, e) = call(&app, "GET", "/api/nothing-here", "").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(err_text(&e).contains("no API endpoint"));
}

#[tokio::test]
async fn a_whole_game_against_the_ai_records_and_replays() {
    let app = app();
    for seed in 0..5u64 {
        let v = new_game(
            &app,
            json!([{"type": "ai", "agent": "random"}, {"type": "human"}]),
            seed,
        )
        .await;
        let id = v["id"].as_str().unwrap().to_string();
        // AI seats may not be moved by a human.
        let mut v = wait_for_human_or_end(&app, &id, 1).await;
        while v["status"] == "playing" {
            let (st, e) = call(
                &app,
                "POST",
                &format!("/api/games/{id}/move"),
                r#"{"seat":0,"action":"1:1"}"#,
            )
            .await;
            assert_eq!(st, StatusCode::CONFLICT, "{e}");
            let a = v["legal"][0]["action"].as_str().unwrap().to_string();
            let (st, r) = call(
                &app,
                "POST",
                &format!("/api/games/{id}/move"),
                &json!({"seat": 1, "action": a}).to_string(),
            )
            .await;
            assert_eq!(st, StatusCode::OK, "{r}");
            v = wait_for_human_or_end(&app, &id, 1).await;
        }
        assert_eq!(v["status"], "finished");
        let winners = v["outcome"]["winners"].as_array().unwrap();
        assert_eq!(winners.len(), 1);
        // Moving after the end is refused.
        let (st, e) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/move"),
            r#"{"seat":1,"action":"1:1"}"#,
        )
        .await;
        assert_eq!(st, StatusCode::CONFLICT);
        assert!(err_text(&e).contains("over"));
        // The record replays to the same result with the core's replay.
        let (st, rec) = call(&app, "GET", &format!("/api/games/{id}/record"), "").await;
        assert_eq!(st, StatusCode::OK, "{rec}");
        assert_eq!(rec["seats"][0], "random");
        assert_eq!(rec["seats"][1], "human:Player 2");
        let parsed: tessera_core::GameRecord<Vec<u8>> =
            serde_json::from_value(rec.clone()).unwrap();
        let end: Nim = replay(&parsed).unwrap();
        assert_eq!(json!(end.outcome()), v["outcome"]);
        assert_eq!(
            parsed.events.len(),
            v["step_count"].as_u64().unwrap() as usize
        );
        // The replay endpoint steps through it.
        let (st, r) = call(&app, "POST", "/api/replay", &rec.to_string()).await;
        assert_eq!(st, StatusCode::OK, "{r}");
        let steps = r["steps"].as_array().unwrap();
        assert_eq!(steps.len(), parsed.events.len() + 1);
        assert_eq!(steps[0]["type"], "start");
        assert_eq!(
            steps.last().unwrap()["view"]["state"],
            json!(end.to_string())
        );
    }
}

#[tokio::test]
async fn record_and_replay_errors() {
    let app = app();
    let (st, e) = call(&app, "GET", "/api/games/zzz/record", "").await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{e}");
    let (st, e) = call(&app, "POST", "/api/replay", "{").await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
    let (st, e) = call(&app, "POST", "/api/replay", r#"{"seats":[]}"#).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
    assert!(err_text(&e).contains("no \"game\" field"));
    let (st, e) = call(&app, "POST", "/api/replay", r#"{"game":"go"}"#).await;
    assert_eq!(st, StatusCode::NOT_FOUND, "{e}");
    let (st, e) = call(&app, "POST", "/api/replay", r#"{"game":"nim"}"#).await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
    assert!(err_text(&e).contains("not a Nim (test game) game record"));
    // A record with an illegal move does not replay.
    let rec = json!({
        "game": "nim", "format": 1, "seed": 1, "seats": ["a", "b"], "initial": "2 1 ? 0,0",
        "events": [{"type": "chance", "outcome": [1, 1]},
                   {"type": "action", "player": 0, "action": "1:3"}],
        "scores": [], "result": null
    });
    let (st, e) = call(&app, "POST", "/api/replay", &rec.to_string()).await;
    assert_eq!(st, StatusCode::UNPROCESSABLE_ENTITY, "{e}");
    assert!(err_text(&e).contains("event 1"), "{e}");
}

#[tokio::test]
async fn undo_in_human_games_and_against_the_ai() {
    let app = app();
    let v = new_game(&app, json!([{"type": "human"}, {"type": "human"}]), 11).await;
    let id = v["id"].as_str().unwrap().to_string();
    let (m, o) = match v["to_move"].as_u64() {
        Some(0) => (0, 1),
        _ => (1, 0),
    };
    let undo = format!("/api/games/{id}/undo");
    let (st, e) = call(&app, "POST", &undo, r#"{"seat":0}"#).await;
    assert_eq!(st, StatusCode::CONFLICT);
    assert!(err_text(&e).contains("nothing to undo"));
    let (st, _) = call(&app, "POST", &undo, "nope").await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let (st, _) = call(&app, "POST", &undo, r#"{"seat":7}"#).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let mine = call(&app, "GET", &format!("/api/games/{id}?seat={m}"), "")
        .await
        .1;
    let a = mine["legal"][0]["action"].as_str().unwrap();
    let (st, moved) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        &json!({"seat":m,"action":a}).to_string(),
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    assert!(moved["can_undo"].as_bool().unwrap());
    let (st, back) = call(&app, "POST", &undo, &json!({"seat": o}).to_string()).await;
    assert_eq!(st, StatusCode::OK, "{back}");
    assert_eq!(back["view"], v["view"]);
    assert_eq!(back["to_move"], m);
    assert_eq!(back["step_count"], 1, "the deal stays");
    assert!(!back["can_undo"].as_bool().unwrap());

    let w = new_game(
        &app,
        json!([{"type": "human"}, {"type": "ai", "agent": "random"}]),
        11,
    )
    .await;
    // The AI may open (the set-up picks the first seat): the human's turn comes first.
    wait_for_human_or_end(&app, w["id"].as_str().unwrap(), 0).await;
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{}/undo", w["id"].as_str().unwrap()),
        r#"{"seat":0}"#,
    )
    .await;
    // Against the AI, undo goes back to the human's previous turn: none yet here.
    assert_eq!(st, StatusCode::CONFLICT);
    assert!(err_text(&e).contains("has not moved yet"), "{e}");
    let (st, _) = call(&app, "POST", "/api/games/nope/undo", r#"{"seat":0}"#).await;
    assert_eq!(st, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn long_poll_returns_when_the_game_changes() {
    let app = app();
    let v = new_game(
        &app,
        json!([{"type": "ai", "agent": "random"}, {"type": "ai", "agent": "random"}]),
        5,
    )
    .await;
    let id = v["id"].as_str().unwrap().to_string();
    // All-AI games play to the end by themselves.
    let mut rev = 0;
    for _ in 0..100 {
        let (st, s) = call(
            &app,
            "GET",
            &format!("/api/games/{id}?wait_ms=5000&revision={rev}&since=0"),
            "",
        )
        .await;
        assert_eq!(st, StatusCode::OK);
        if s["status"] == "finished" {
            let steps = s["steps"].as_array().unwrap();
            assert_eq!(steps.len() as u64, s["step_count"].as_u64().unwrap());
            assert!(steps.iter().skip(1).all(|x| x["type"] == "action"));
            return;
        }
        rev = s["revision"].as_u64().unwrap();
    }
    panic!("the AI game did not finish");
}

#[tokio::test]
async fn pages_are_served() {
    let app = app();
    for page in ["/", "/style.css", "/common.js"] {
        let req = Request::builder().uri(page).body(Body::empty()).unwrap();
        let resp = router(Arc::clone(&app)).oneshot(req).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{page}");
    }
    let req = Request::builder()
        .uri("/nope.js")
        .body(Body::empty())
        .unwrap();
    let resp = router(Arc::clone(&app)).oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn results_read_the_tournament_database() {
    let app = app();
    let (st, e) = call(&app, "GET", "/api/results", "").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(err_text(&e).contains("--db"));

    use tessera_arena::schedule::RunParams;
    let path =
        std::env::temp_dir().join(format!("tessera-web-results-{}.sqlite", std::process::id()));
    let _ = std::fs::remove_file(&path);
    common::play_into(
        &path,
        &RunParams::new("nim", &["first", "random"], 2, 10, 2, 7),
    );
    let cfg = Config {
        db: Some(path.clone()),
        ..Config::default()
    };
    let app = Arc::new(App::new(&cfg));
    let (st, runs) = call(&app, "GET", "/api/results", "").await;
    assert_eq!(st, StatusCode::OK, "{runs}");
    let run = &runs["runs"][0];
    assert_eq!(run["params"]["game"], "nim");
    assert_eq!(run["done"], 20);
    let id = run["id"].as_i64().unwrap();
    let (st, r) = call(&app, "GET", &format!("/api/results/{id}"), "").await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert!(r["table"].as_str().unwrap().contains("random"));
    assert!(
        r["chart_svg"].as_str().unwrap().starts_with("<svg")
            || r["chart_svg"].as_str().unwrap().contains("<svg")
    );
    let (st, _) = call(&app, "GET", "/api/results/999", "").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let (st, _) = call(&app, "GET", "/api/results/abc", "").await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    let _ = std::fs::remove_file(&path);
}

/// A Nim server keeping its games in the database at `path`.
fn app_with_db(path: &std::path::Path) -> Arc<App> {
    let db = tessera_web::persist::WebDb::open(path).expect("the database opens");
    Arc::new(nim_app().with_store(Arc::new(db)))
}

/// A fresh database file for this test process.
fn temp_db(name: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!(
        "tessera-web-events-{}-{name}.db",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&p);
    p
}

/// Stores game `row` with the event rows `events` (as text) in a new database and restores
/// it: how many games were restored, the errors, and the server.
fn restore_rows(
    name: &str,
    row: &tessera_arena::store::WebGameRow,
    events: &[String],
) -> (usize, Vec<String>, Arc<App>) {
    let path = temp_db(name);
    let store = tessera_arena::store::Store::open(&path).unwrap();
    store.web_create(&row.id, &row.game, &row.setup).unwrap();
    for (n, e) in events.iter().enumerate() {
        store.web_append(&row.id, n as u64, e).unwrap();
    }
    drop(store);
    let app = app_with_db(&path);
    let (restored, errors) = app.restore_games().unwrap();
    let _ = std::fs::remove_file(&path);
    (restored, errors, app)
}

#[tokio::test]
async fn stored_events_of_older_rows_restore_and_a_bad_row_is_named() {
    let path = temp_db("played");
    let app = app_with_db(&path);
    let created = new_game(
        &app,
        json!([{"type": "human"}, {"type": "ai", "agent": "random"}]),
        5,
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let v = wait_for_human_or_end(&app, &id, 0).await;
    let action = v["legal"][0]["action"].as_str().unwrap().to_string();
    let (st, w) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        &json!({"seat": 0, "action": action}).to_string(),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{w}");
    let played = wait_for_human_or_end(&app, &id, 0).await;
    assert_eq!(played["status"], "playing", "{played}");
    drop(app);
    let store = tessera_arena::store::Store::open(&path).unwrap();
    let row = store.web_game(&id).unwrap().expect("stored");
    let rows = store.web_events(&id).unwrap();
    drop(store);
    let _ = std::fs::remove_file(&path);
    // The rows as written: keys sorted, the AI seat's generator kept.
    assert!(
        rows.iter()
            .any(|r| r.starts_with(r#"{"action":"#) && r.contains(r#","op":"ai","rng":""#)),
        "{rows:?}"
    );
    let (restored, errors, _) = restore_rows("same", &row, &rows);
    assert_eq!((restored, errors.len()), (1, 0), "{errors:?}");

    // Rows stored before AI seats' generators were kept have no `rng`: they restore to the
    // same position.
    let old: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut v: Value = serde_json::from_str(r).unwrap();
            v.as_object_mut().unwrap().remove("rng");
            v.to_string()
        })
        .collect();
    assert_ne!(old, rows);
    let (restored, errors, app) = restore_rows("old", &row, &old);
    assert_eq!((restored, errors.len()), (1, 0), "{errors:?}");
    common::remember_tokens(&app, &created);
    let (st, back) = call(&app, "GET", &format!("/api/games/{id}?seat=0"), "").await;
    assert_eq!(st, StatusCode::OK, "{back}");
    assert_eq!(back["step_count"], played["step_count"], "{back}");
    assert_eq!(back["view"], played["view"], "{back}");
    assert_eq!(back["legal"], played["legal"], "{back}");

    // A row that is not an event, and one that is but does not replay: the game is not
    // restored and the error names it, the row and what is wrong.
    let n = rows.len();
    for (bad, expected) in [
        (r#"{"op":"dance","seat":0}"#, "unknown variant `dance`"),
        (r#"{"op":"move","seat":0}"#, "missing field `action`"),
        (r#"{"action":"1","op":"move","seat":7}"#, "no seat 7"),
        (r#"{"action":"x","op":"move","seat":0}"#, "does not replay"),
    ] {
        let mut with_bad = rows.clone();
        with_bad.push(bad.to_string());
        let (restored, errors, _) = restore_rows("bad", &row, &with_bad);
        assert_eq!((restored, errors.len()), (0, 1), "{bad}: {errors:?}");
        let e = &errors[0];
        assert!(e.contains(&format!("game {id}")), "{e}");
        assert!(e.contains(&format!("stored event {n} ")), "{e}");
        assert!(e.contains(expected), "{bad}: {e}");
    }
}
