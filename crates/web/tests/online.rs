//! Playing with other people over a network: seat tokens (a wrong or missing token is 403
//! and changes nothing), spectators see no hands, free seats in the lobby, repeated requests
//! that take effect once (Start, move, undo, hint), the request guard (rate, body size,
//! origin, games per client) and fuzzed requests that never get a 5xx.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use rand::Rng;
use serde_json::{Value, json};
use tessera_web::{App, Config, games, router};
use tower::ServiceExt;

mod common;
use common::{call, call_with, err_text};

fn app_with(cfg: Config) -> Arc<App> {
    Arc::new(games::standard_app(&Config {
        test_games: true,
        master_seed: 9,
        ..cfg
    }))
}

fn app() -> Arc<App> {
    app_with(Config::default())
}

fn bearer(t: &str) -> String {
    format!("Bearer {t}")
}

/// Creates a game without remembering its tokens in the helpers (this test sends them
/// itself): the answer.
async fn create(app: &Arc<App>, body: Value) -> Value {
    let (st, v) = call_with(app, "POST", "/api/games", &body.to_string(), None).await;
    assert!(st == StatusCode::CREATED || st == StatusCode::OK, "{v}");
    v
}

fn token(v: &Value, seat: u64) -> String {
    v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["seat"] == seat)
        .and_then(|t| t["token"].as_str())
        .unwrap()
        .to_string()
}

async fn get(app: &Arc<App>, uri: &str, auth: Option<&str>) -> (StatusCode, Value) {
    call_with(app, "GET", uri, "", auth).await
}

#[tokio::test]
async fn a_wrong_or_missing_token_is_403_and_changes_nothing() {
    let app = app();
    // A deal where seat 0 moves first.
    let mut g = Value::Null;
    for seed in 0..50 {
        g = create(
            &app,
            json!({"game": "nim", "seats": [{"type": "human"}, {"type": "human"}], "seed": seed}),
        )
        .await;
        if g["to_move"] == 0 {
            break;
        }
    }
    assert_eq!(g["to_move"], 0, "{g}");
    let id = g["id"].as_str().unwrap();
    let (t0, t1) = (token(&g, 0), token(&g, 1));
    assert_eq!(t0.len(), 32);
    assert_ne!(t0, t1);
    assert!(
        g["tokens"][0]["invite"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/nim?game={id}#token={t0}"))
    );
    let (_, before) = get(&app, &format!("/api/games/{id}?since=0"), None).await;
    let legal = g["legal"][0]["action"]
        .as_str()
        .unwrap_or_else(|| panic!("{g}"))
        .to_string();
    let mv = json!({"seat": 0, "action": legal}).to_string();
    let wrong = bearer(&"ab".repeat(16));
    for (path, body) in [
        ("move", mv.as_str()),
        ("check", mv.as_str()),
        ("hint", r#"{"seat": 0}"#),
        ("undo", r#"{"seat": 0}"#),
    ] {
        for auth in [None, Some(wrong.as_str()), Some(&bearer(&t1))] {
            let (st, e) =
                call_with(&app, "POST", &format!("/api/games/{id}/{path}"), body, auth).await;
            assert_eq!(st, StatusCode::FORBIDDEN, "{path} with {auth:?}: {e}");
            assert!(err_text(&e).contains("token"), "{e}");
        }
    }
    // A malformed header is a 400, also without change.
    let (st, _) = call_with(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        &mv,
        Some("Basic x"),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    // The private view of a seat needs its token too.
    for auth in [None, Some(wrong.as_str())] {
        let (st, _) = get(&app, &format!("/api/games/{id}?seat=0"), auth).await;
        assert_eq!(st, StatusCode::FORBIDDEN);
    }
    let (_, after) = get(&app, &format!("/api/games/{id}?since=0"), None).await;
    assert_eq!(after, before, "nothing changed");
    // With the right token the move is played.
    let (st, r) = call_with(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        &mv,
        Some(&bearer(&t0)),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(r["my_seats"], json!([0]));
    // Undo between two people needs both tokens (one person at the screen).
    let (st, e) = call_with(
        &app,
        "POST",
        &format!("/api/games/{id}/undo"),
        r#"{"seat": 0}"#,
        Some(&bearer(&t0)),
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT);
    assert!(err_text(&e).contains("no undo between people"), "{e}");
    let both = format!("Bearer {t0},{t1}");
    let (st, r) = call_with(
        &app,
        "POST",
        &format!("/api/games/{id}/undo"),
        r#"{"seat": 0}"#,
        Some(&both),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(r["step_count"], before["step_count"]);
}

#[tokio::test]
async fn spectators_and_other_players_never_see_a_qwirkle_hand() {
    let app = app();
    let g = create(
        &app,
        json!({"game": "qwirkle", "seats": [{"type": "human"}, {"type": "human"}], "seed": 5}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let (t0, t1) = (token(&g, 0), token(&g, 1));
    let (st, spectator) = get(&app, &format!("/api/games/{id}?since=0"), None).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(spectator["view"]["hand"], json!([]));
    assert_eq!(spectator["legal"], json!([]));
    for step in spectator["steps"].as_array().unwrap() {
        assert_eq!(step["view"]["hand"], json!([]), "{step}");
    }
    // Seat 0's token does not open seat 1's hand.
    let (st, _) = get(&app, &format!("/api/games/{id}?seat=1"), Some(&bearer(&t0))).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (_, mine) = get(&app, &format!("/api/games/{id}?seat=1"), Some(&bearer(&t1))).await;
    assert_eq!(mine["view"]["hand"].as_array().unwrap().len(), 6);
    // The record (every draw) is refused to everyone until the end.
    let (st, _) = get(&app, &format!("/api/games/{id}/record"), Some(&bearer(&t0))).await;
    assert_eq!(st, StatusCode::CONFLICT);
}

#[tokio::test]
async fn free_seats_are_in_the_lobby_until_someone_joins() {
    let app = app();
    let g = create(
        &app,
        json!({"game": "azul", "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "open": true}], "seed": 8}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    assert_eq!(g["seats"][1]["free"], true);
    assert_eq!(
        g["my_seats"],
        json!([0]),
        "the creator plays seat 0; seat 1's token is its invite"
    );
    let (_, lobby) = get(&app, "/api/lobby", None).await;
    assert_eq!(lobby["games"][0]["id"], id);
    assert_eq!(lobby["games"][0]["free_seats"], json!([1]));
    // Joining takes the free seat with a name and gives a new token.
    let (st, e) = call_with(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        r#"{"name": "  "}"#,
        None,
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
    let (st, j) = call_with(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        r#"{"name": "Bob"}"#,
        None,
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{j}");
    assert_eq!(j["seat"], 1);
    assert_eq!(j["game"]["seats"][1]["name"], "Bob");
    assert_eq!(j["game"]["my_seats"], json!([1]));
    let bob = j["token"].as_str().unwrap().to_string();
    assert_ne!(bob, token(&g, 1), "the invite link's token is replaced");
    let (_, lobby) = get(&app, "/api/lobby", None).await;
    assert_eq!(lobby["games"], json!([]));
    let (st, _) = call_with(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        r#"{"name": "Cy"}"#,
        None,
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT, "no free seat left");
    // The old invite token no longer plays seat 1; Bob's does.
    let (st, _) = get(
        &app,
        &format!("/api/games/{id}?seat=1"),
        Some(&bearer(&token(&g, 1))),
    )
    .await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    let (st, v) = get(
        &app,
        &format!("/api/games/{id}?seat=1"),
        Some(&bearer(&bob)),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    // The record names him.
    let (_, rec) = get(&app, &format!("/api/games/{id}/record"), None).await;
    assert_eq!(rec["seats"], json!(["human:Ann", "human:Bob"]));
}

#[tokio::test]
async fn an_invite_token_takes_the_free_seat_when_first_used() {
    let app = app();
    let g = create(
        &app,
        json!({"game": "nim", "seats": [{"type": "human"}, {"type": "human", "open": true}], "seed": 2}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let (_, lobby) = get(&app, "/api/lobby", None).await;
    assert_eq!(lobby["games"].as_array().unwrap().len(), 1);
    let (st, v) = get(
        &app,
        &format!("/api/games/{id}?seat=1"),
        Some(&bearer(&token(&g, 1))),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["seats"][1]["free"], false);
    let (_, lobby) = get(&app, "/api/lobby", None).await;
    assert_eq!(lobby["games"], json!([]));
}

#[tokio::test]
async fn a_double_start_creates_one_game() {
    let app = app();
    let body = json!({"game": "azul", "seats": [{"type": "human"}, {"type": "ai", "agent": "random"}],
                      "request_id": "click-1"});
    let (st1, a) = call_with(&app, "POST", "/api/games", &body.to_string(), None).await;
    let (st2, b) = call_with(&app, "POST", "/api/games", &body.to_string(), None).await;
    assert_eq!(st1, StatusCode::CREATED);
    assert_eq!(st2, StatusCode::OK, "a repeat is not a creation");
    assert_eq!(a["id"], b["id"]);
    assert_eq!(a["tokens"], b["tokens"]);
    let (_, list) = get(&app, "/api/games", None).await;
    assert_eq!(list["games"].as_array().unwrap().len(), 1);
    // Another request id is another game; so is a request without one.
    let other = json!({"game": "azul", "seats": [{"type": "human"}, {"type": "ai", "agent": "random"}],
                       "request_id": "click-2"});
    let (_, c) = call_with(&app, "POST", "/api/games", &other.to_string(), None).await;
    assert_ne!(c["id"], a["id"]);
    let (st, e) = call_with(
        &app,
        "POST",
        "/api/games",
        &json!({"game": "azul", "seats": [{"type": "human"}, {"type": "human"}], "request_id": ""})
            .to_string(),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
}

#[tokio::test]
async fn a_double_move_plays_once_and_a_stale_one_gets_the_current_state() {
    let app = app();
    let g = create(
        &app,
        json!({"game": "azul", "seats": [{"type": "human"}, {"type": "human"}], "seed": 4}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let t0 = bearer(&token(&g, 0));
    let rev = g["revision"].as_u64().unwrap();
    let a = g["legal"][0]["action"].as_str().unwrap();
    let body = json!({"seat": 0, "action": a, "expected_revision": rev}).to_string();
    let uri = format!("/api/games/{id}/move");
    let (st1, r1) = call_with(&app, "POST", &uri, &body, Some(&t0)).await;
    let (st2, r2) = call_with(&app, "POST", &uri, &body, Some(&t0)).await;
    assert_eq!((st1, st2), (StatusCode::OK, StatusCode::OK), "{r2}");
    assert_eq!(r1, r2, "the repeat gets the same answer");
    let (_, now) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(
        now["step_count"].as_u64().unwrap(),
        g["step_count"].as_u64().unwrap() + 1,
        "one move was played"
    );
    // Seat 1 moves; a move of seat 0 chosen at an old revision is stale.
    let t1 = bearer(&token(&g, 1));
    let (_, v1) = get(&app, &format!("/api/games/{id}?seat=1"), Some(&t1)).await;
    let b = v1["legal"][0]["action"].as_str().unwrap();
    let (st, _) = call_with(
        &app,
        "POST",
        &uri,
        &json!({"seat": 1, "action": b, "expected_revision": v1["revision"]}).to_string(),
        Some(&t1),
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let (_, v0) = get(&app, &format!("/api/games/{id}?seat=0"), Some(&t0)).await;
    let c = v0["legal"][0]["action"].as_str().unwrap();
    let (st, e) = call_with(
        &app,
        "POST",
        &uri,
        &json!({"seat": 0, "action": c, "expected_revision": rev}).to_string(),
        Some(&t0),
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT, "{e}");
    assert_eq!(e["current"]["revision"], v0["revision"]);
    assert_eq!(e["current"]["step_count"], v0["step_count"]);
    let (_, after) = get(&app, &format!("/api/games/{id}"), None).await;
    assert_eq!(
        after["step_count"], v0["step_count"],
        "the stale move was not played"
    );
}

#[tokio::test]
async fn a_double_undo_takes_back_one_turn_and_a_double_hint_counts_once() {
    let app = app();
    let g = create(
        &app,
        json!({"game": "azul", "seats": [{"type": "human"}, {"type": "ai", "agent": "greedy"}], "seed": 6}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let t0 = bearer(&token(&g, 0));
    // Two human turns, each answered by the AI.
    for _ in 0..2 {
        let v = common_wait(&app, &id, &t0).await;
        let a = v["legal"][0]["action"].as_str().unwrap();
        let (st, r) = call_with(
            &app,
            "POST",
            &format!("/api/games/{id}/move"),
            &json!({"seat": 0, "action": a}).to_string(),
            Some(&t0),
        )
        .await;
        assert_eq!(st, StatusCode::OK, "{r}");
    }
    let v = common_wait(&app, &id, &t0).await;
    let steps = v["step_count"].as_u64().unwrap();
    let body = json!({"seat": 0, "expected_revision": v["revision"]}).to_string();
    let uri = format!("/api/games/{id}/undo");
    let (st1, r1) = call_with(&app, "POST", &uri, &body, Some(&t0)).await;
    let (st2, r2) = call_with(&app, "POST", &uri, &body, Some(&t0)).await;
    assert_eq!((st1, st2), (StatusCode::OK, StatusCode::OK), "{r2}");
    assert_eq!(r1, r2);
    let after = r1["step_count"].as_u64().unwrap();
    assert_eq!(
        after,
        steps - 2,
        "one turn (the move and the AI's reply) taken back"
    );
    let (_, rec) = get(&app, &format!("/api/games/{id}/record"), None).await;
    let undos = rec["assists"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "undo")
        .count();
    assert_eq!(undos, 1);
    // A double hint: one search, one assist, the same answer.
    let hint_uri = format!("/api/games/{id}/hint");
    let (h1, h2) = tokio::join!(
        call_with(&app, "POST", &hint_uri, r#"{"seat": 0}"#, Some(&t0)),
        call_with(&app, "POST", &hint_uri, r#"{"seat": 0}"#, Some(&t0)),
    );
    assert_eq!(h1.0, StatusCode::OK, "{}", h1.1);
    assert_eq!(h1, h2);
    let (_, rec) = get(&app, &format!("/api/games/{id}/record"), None).await;
    let hints = rec["assists"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "hint")
        .count();
    assert_eq!(hints, 1);
}

/// Waits until game `id` waits for seat 0.
async fn common_wait(app: &Arc<App>, id: &str, auth: &str) -> Value {
    for _ in 0..400 {
        let (st, v) = get(app, &format!("/api/games/{id}?seat=0"), Some(auth)).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        if v["waiting_for"] == "human" {
            return v;
        }
        let rev = v["revision"].as_u64().unwrap();
        get(
            app,
            &format!("/api/games/{id}?wait_ms=2000&revision={rev}"),
            None,
        )
        .await;
    }
    panic!("the AI never moved");
}

async fn send(app: &Arc<App>, req: Request<Body>) -> (StatusCode, Value) {
    let resp = router(Arc::clone(app)).oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, v)
}

#[tokio::test]
async fn the_guard_limits_rate_body_origin_and_games_per_client() {
    let app = app_with(Config {
        rate_limit: Some((0.5, 5.0)),
        max_body: 2048,
        max_games_per_client: 2,
        max_unfinished: 3,
        ..Config::default()
    });
    // A burst of 5, then 429 with a JSON reason and Retry-After.
    for i in 0..6 {
        let (st, v) = get(&app, "/api/catalog", None).await;
        if i < 5 {
            assert_eq!(st, StatusCode::OK);
        } else {
            assert_eq!(st, StatusCode::TOO_MANY_REQUESTS);
            assert!(err_text(&v).contains("too many requests"), "{v}");
        }
    }
    let app = app_with(Config {
        max_body: 2048,
        max_games_per_client: 2,
        max_unfinished: 3,
        ..Config::default()
    });
    // A body over the limit: 413 with a JSON reason.
    let big = format!("{{\"game\": \"nim\", \"pad\": \"{}\"}}", "x".repeat(4096));
    let (st, v) = call_with(&app, "POST", "/api/games", &big, None).await;
    assert_eq!(st, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(err_text(&v).contains("limit"), "{v}");
    // A cross-site POST: 403; the same site's is fine.
    let nim = json!({"game": "nim", "seats": [{"type": "human"}, {"type": "human"}]}).to_string();
    let req = |origin: &str| {
        Request::builder()
            .method("POST")
            .uri("/api/games")
            .header("host", "play.example:8080")
            .header("origin", origin)
            .header("content-type", "application/json")
            .body(Body::from(nim.clone()))
            .unwrap()
    };
    let (st, v) = send(&app, req("https://evil.example")).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert!(err_text(&v).contains("cross-site"), "{v}");
    let (_, list) = get(&app, "/api/games", None).await;
    assert_eq!(list["games"], json!([]), "no game was created");
    let (st, v) = send(&app, req("http://play.example:8080")).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    // Two unfinished games per client: the third is 429.
    let (st, _) = call_with(&app, "POST", "/api/games", &nim, None).await;
    assert_eq!(st, StatusCode::CREATED);
    let (st, v) = call_with(&app, "POST", "/api/games", &nim, None).await;
    assert_eq!(st, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(err_text(&v).contains("unfinished games"), "{v}");
}

#[tokio::test]
async fn the_server_holds_at_most_its_limit_of_unfinished_games() {
    let app = app_with(Config {
        max_unfinished: 2,
        ..Config::default()
    });
    let nim = json!({"game": "nim", "seats": [{"type": "human"}, {"type": "human"}]}).to_string();
    for _ in 0..2 {
        let (st, _) = call(&app, "POST", "/api/games", &nim).await;
        assert_eq!(st, StatusCode::CREATED);
    }
    let (st, v) = call(&app, "POST", "/api/games", &nim).await;
    assert_eq!(st, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(err_text(&v).contains("unfinished games"), "{v}");
}

/// Random and malformed requests against the game endpoints: every answer is a 2xx or a
/// 4xx with a JSON error, never a 5xx, never a panic.
#[tokio::test]
async fn fuzzed_requests_never_get_a_5xx() {
    let app = app();
    let g = create(
        &app,
        json!({"game": "azul", "seats": [{"type": "human"}, {"type": "human", "open": true}], "seed": 1}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let t0 = token(&g, 0);
    let q = create(
        &app,
        json!({"game": "qwirkle", "seats": [{"type": "human"}, {"type": "ai", "agent": "random"}], "seed": 1}),
    )
    .await;
    let qid = q["id"].as_str().unwrap().to_string();
    let mut rng = tessera_core::rng::seeded(2024);
    let ids = [
        id.as_str(),
        qid.as_str(),
        "nope",
        "1-",
        "%00",
        "..%2F..%2Fetc",
    ];
    let endpoints = ["move", "undo", "hint", "check", "join", "record", ""];
    let bodies: Vec<String> = vec![
        String::new(),
        "{".into(),
        "null".into(),
        "[]".into(),
        "\"x\"".into(),
        r#"{"seat": 0}"#.into(),
        r#"{"seat": 255, "action": "1Y1"}"#.into(),
        r#"{"seat": -1}"#.into(),
        r#"{"seat": 0, "action": 5}"#.into(),
        r#"{"seat": 0, "action": "C B F", "expected_revision": 18446744073709551615}"#.into(),
        r#"{"seat": 0, "action": "ZZZZZZZZ", "expected_revision": -3}"#.into(),
        r#"{"seat": 0, "action": "1B1", "extra": true}"#.into(),
        r#"{"name": ""}"#.into(),
        r#"{"name": "Ann", "seat": 0}"#.into(),
        r#"{"name": "\u0000\u0007 x", "seat": 1}"#.into(),
        r#"{"name": 7}"#.into(),
    ];
    let auths = [
        None,
        Some(format!("Bearer {t0}")),
        Some("Bearer ".to_string()),
        Some("Bearer zz".to_string()),
        Some(format!("Bearer {}", ",".repeat(20))),
        Some(format!("Bearer {}", "f".repeat(500))),
        Some("\u{7f}".to_string()),
    ];
    for i in 0..600 {
        let target = ids[rng.random_range(0..ids.len())];
        let ep = endpoints[rng.random_range(0..endpoints.len())];
        let mut uri = if ep.is_empty() {
            format!("/api/games/{target}")
        } else {
            format!("/api/games/{target}/{ep}")
        };
        if rng.random_bool(0.3) {
            let qs = [
                "?seat=0",
                "?seat=1",
                "?seat=300",
                "?since=99999999999",
                "?seat=x",
                "?wait_ms=1&revision=0",
                "?unknown=1",
            ];
            uri.push_str(qs[rng.random_range(0..qs.len())]);
        }
        let body = if rng.random_bool(0.2) {
            // Random bytes, often not UTF-8.
            let n = rng.random_range(0..64);
            (0..n).map(|_| rng.random::<u8>()).collect::<Vec<u8>>()
        } else {
            bodies[rng.random_range(0..bodies.len())]
                .clone()
                .into_bytes()
        };
        let method = if rng.random_bool(0.7) { "POST" } else { "GET" };
        let mut req = Request::builder()
            .method(method)
            .uri(&uri)
            .header("content-type", "application/json");
        if let Some(a) = &auths[rng.random_range(0..auths.len())]
            && let Ok(v) = axum::http::HeaderValue::from_bytes(a.as_bytes())
        {
            req = req.header("authorization", v);
        }
        let req = req.body(Body::from(body)).unwrap();
        let (st, v) = send(&app, req).await;
        assert!(
            !st.is_server_error(),
            "request {i}: {method} {uri} answered {st}: {v}"
        );
        if st.is_client_error() && st != StatusCode::METHOD_NOT_ALLOWED {
            assert!(v["error"].is_string(), "request {i}: {method} {uri}: {v}");
        }
    }
    // The lobby and the list still answer.
    let (st, _) = get(&app, "/api/lobby", None).await;
    assert_eq!(st, StatusCode::OK);
}
