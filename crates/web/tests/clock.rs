//! Game clocks in the web: a clock per seat given at creation (`"clock": "5m+3s"`), people
//! charged the wall time of their turn, AI seats their thinking within the time manager's
//! budget, a fallen flag ending the game as a loss recorded like a tournament's, also
//! across a restart with `--db`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::{Value, json};
use tessera_web::events::Event;
use tessera_web::persist::WebDb;
use tessera_web::{App, Config, games};

mod common;
use common::{call, err_text, wait_while_ai};

fn app_with(cfg: &Config, db: Option<&PathBuf>) -> Arc<App> {
    let mut app = App::new(cfg);
    for name in ["nim", "azul"] {
        app = app.with_game(name, games::registered_kind(name).expect("registered"));
    }
    if let Some(path) = db {
        app = app.with_store(Arc::new(WebDb::open(path).expect("the database opens")));
    }
    Arc::new(app)
}

fn app() -> Arc<App> {
    app_with(&Config::default(), None)
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("tessera-clock-{}-{name}.db", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

async fn create(app: &Arc<App>, body: Value) -> (StatusCode, Value) {
    call(app, "POST", "/api/games", &body.to_string()).await
}

/// Creates the game `body` describes, then waits while AI seats move: its id and the state
/// seat 0 sees then.
async fn start_and_wait(app: &Arc<App>, body: Value) -> (String, Value) {
    let (st, v) = create(app, body).await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let v = wait_while_ai(app, &id, 0).await;
    (id, v)
}

/// Seat `seat` of game `id` plays `action`.
async fn play(
    app: &Arc<App>,
    id: &str,
    seat: impl Into<Value>,
    action: &str,
) -> (StatusCode, Value) {
    let body = json!({"seat": seat.into(), "action": action});
    call(
        app,
        "POST",
        &format!("/api/games/{id}/move"),
        &body.to_string(),
    )
    .await
}

/// A Nim game between two people on the clock `clock`: its id and the creation answer.
async fn clocked_nim(app: &Arc<App>, seed: u64, clock: &str) -> (String, Value) {
    let (st, v) = create(
        app,
        json!({"game": "nim", "seats": people(), "seed": seed, "clock": clock}),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    (id, v)
}

fn people() -> Value {
    json!([{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}])
}

#[tokio::test]
async fn a_bad_clock_is_refused_naming_the_expected_form() {
    let app = app();
    for bad in ["5x", "", "0s+1s", "3"] {
        let (st, v) = create(
            &app,
            json!({"game": "nim", "seats": people(), "seed": 1, "clock": bad}),
        )
        .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{bad}: {v}");
        let e = err_text(&v);
        assert!(e.contains("expected BASE[+INCREMENT]"), "{bad}: {e}");
    }
    // Without a clock the state says so.
    let (st, v) = create(&app, json!({"game": "nim", "seats": people(), "seed": 1})).await;
    assert_eq!(st, StatusCode::CREATED);
    assert_eq!(v["clock"], Value::Null);
}

#[tokio::test]
async fn a_person_who_does_not_move_loses_on_time_without_asking() {
    let app = app();
    let (id, v) = clocked_nim(&app, 3, "1s+0s").await;
    assert_eq!(v["clock"]["control"], "1s");
    assert_eq!(v["clock"]["base_ms"], 1000);
    let mover = v["to_move"].as_u64().unwrap();
    assert_eq!(v["clock"]["running"], mover);
    let left: Vec<u64> = serde_json::from_value(v["clock"]["left_ms"].clone()).unwrap();
    assert!(left[mover as usize] <= 1000 && left[1 - mover as usize] == 1000);
    // A spectator's long poll, started before the flag falls: the server's own timer ends
    // the game (nobody else asks meanwhile), which wakes the poll well before its 5 s.
    let rev = v["revision"].as_u64().unwrap();
    let start = Instant::now();
    let (st, w) = call(
        &app,
        "GET",
        &format!("/api/games/{id}?wait_ms=5000&revision={rev}"),
        "",
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let waited = start.elapsed();
    assert!(
        waited < Duration::from_millis(4000),
        "the flag fell after {waited:?}"
    );
    assert_eq!(w["status"], "finished", "{w}");
    assert_eq!(w["clock"]["flag"], mover);
    assert_eq!(w["clock"]["running"], Value::Null);
    assert_eq!(w["clock"]["left_ms"][mover as usize], 0);
    assert_eq!(w["waiting_for"], Value::Null);
    // Nobody is to move any more (the pages show who is to move from this, not from the
    // position, whose mover is still the seat that ran out of time).
    assert_eq!(w["to_move"], Value::Null);
    assert_eq!(w["outcome"]["winners"], json!([1 - mover]));
    // The record says it as a tournament's does.
    let (st, r) = call(&app, "GET", &format!("/api/games/{id}/record"), "").await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(r["clock"], "1s");
    assert_eq!(r["flag"], mover);
    assert_eq!(r["result"]["winners"], json!([1 - mover]));
    let used = r["time_used_ms"][mover as usize].as_u64().unwrap();
    assert!((1000..4000).contains(&used), "{r}");
    // The move that comes too late is refused: the game is over.
    let (st, e) = play(&app, &id, mover, "1").await;
    assert_eq!(st, StatusCode::CONFLICT, "{e}");
}

#[tokio::test]
async fn a_clocks_control_as_shown_makes_the_same_clock_again() {
    // "Play again" sends the finished game's `clock.control` as the new game's clock.
    let app = app();
    for given in ["11s", "5m+3s", "90s+500ms", "90s+0.5s", "90m"] {
        let (_, first) = clocked_nim(&app, 2, given).await;
        let control = first["clock"]["control"].as_str().unwrap().to_string();
        let (_, again) = clocked_nim(&app, 2, &control).await;
        for key in ["control", "base_ms", "increment_ms"] {
            assert_eq!(again["clock"][key], first["clock"][key], "{given}: {key}");
        }
    }
    let (_, v) = clocked_nim(&app, 2, "5m+3s").await;
    assert_eq!(
        (&v["clock"]["base_ms"], &v["clock"]["increment_ms"]),
        (&json!(300_000), &json!(3_000))
    );
}

#[tokio::test]
async fn people_are_charged_their_turn_and_gain_the_increment() {
    let app = app();
    let (id, v) = clocked_nim(&app, 5, "30s+2s").await;
    let p = v["to_move"].as_u64().unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let action = v["legal"][0]["action"].as_str().unwrap().to_string();
    let (st, w) = play(&app, &id, p, &action).await;
    assert_eq!(st, StatusCode::OK, "{w}");
    // 30 s, less at least the 0.3 s waited, plus the 2 s increment.
    let left = w["clock"]["left_ms"][p as usize].as_u64().unwrap();
    assert!((30_000..=31_700).contains(&left), "{w}");
    assert_eq!(w["clock"]["running"], 1 - p);
}

#[tokio::test]
async fn ai_seats_play_within_their_clock_and_the_cap() {
    // Two searching AI seats on a 3 s clock each: the game ends normally, nobody's flag
    // falls, and each used no more than its clock.
    let cfg = Config {
        ai_threads: 1,
        ..Config::default()
    };
    let app = app_with(&cfg, None);
    let (id, end) = start_and_wait(
        &app,
        json!({"game": "azul", "seed": 9, "clock": "3s+0s", "seats": [
            {"type": "ai", "agent": "strong"}, {"type": "ai", "agent": "strong"}]}),
    )
    .await;
    assert_eq!(end["status"], "finished", "{end}");
    assert_eq!(end["clock"]["flag"], Value::Null);
    let (_, r) = call(&app, "GET", &format!("/api/games/{id}/record"), "").await;
    assert_eq!(r["flag"], Value::Null, "{r}");
    let used: Vec<u64> = serde_json::from_value(r["time_used_ms"].clone()).unwrap();
    assert!(used.iter().all(|&u| u > 0 && u < 3000), "{used:?}");
    // The operator's cap binds each move under a long clock.
    let cfg = Config {
        ai_threads: 1,
        max_think: Duration::from_millis(20),
        ..Config::default()
    };
    let app = app_with(&cfg, None);
    let (id, mut v) = start_and_wait(
        &app,
        json!({"game": "azul", "seed": 9, "clock": "10m", "seats": [
            {"type": "human"}, {"type": "ai", "agent": "strong"}]}),
    )
    .await;
    for _ in 0..3 {
        let action = v["legal"][0]["action"].as_str().unwrap().to_string();
        let (st, w) = play(&app, &id, 0, &action).await;
        assert_eq!(st, StatusCode::OK, "{w}");
        v = wait_while_ai(&app, &id, 0).await;
    }
    let (_, r) = call(&app, "GET", &format!("/api/games/{id}?since=0"), "").await;
    let thinks: Vec<u64> = r["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["player"] == 1)
        .filter_map(|s| s["think_ms"].as_u64())
        .collect();
    assert!(!thinks.is_empty());
    // Without the cap the time manager would give each about 20 s.
    assert!(thinks.iter().all(|&t| t < 1000), "{thinks:?}");
}

#[tokio::test]
async fn a_restart_neither_gives_time_back_nor_charges_the_downtime() {
    let db = temp("restart");
    let cfg = Config::default();
    let app = app_with(&cfg, Some(&db));
    let (id, v) = clocked_nim(&app, 4, "20s+0s").await;
    let p = v["to_move"].as_u64().unwrap() as usize;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let action = v["legal"][0]["action"].as_str().unwrap().to_string();
    let (st, w) = play(&app, &id, p, &action).await;
    assert_eq!(st, StatusCode::OK, "{w}");
    let left_p = w["clock"]["left_ms"][p].as_u64().unwrap();
    assert!(left_p <= 19_600, "{w}");
    // The other person thinks past one stored tick of their running time.
    tokio::time::sleep(tessera_web::session::CLOCK_TICK + Duration::from_millis(400)).await;
    drop(app);
    // The server is down a while: nobody is charged for it.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let app = app_with(&cfg, Some(&db));
    let (restored, errors) = app.restore_games().unwrap();
    assert_eq!((restored, errors.len()), (1, 0), "{errors:?}");
    common::remember_tokens(&app, &w_with_id(&v));
    let (st, r) = call(&app, "GET", &format!("/api/games/{id}"), "").await;
    assert_eq!(st, StatusCode::OK, "{r}");
    // The mover's time is as it was (no time given back); the other's turn so far is
    // charged up to its last stored tick (3 s), not the downtime (0.5 s), and their clock
    // runs again from the restart.
    assert_eq!(r["clock"]["left_ms"][p], left_p, "{r}");
    let q = 1 - p;
    assert_eq!(r["clock"]["running"], q);
    let left_q = r["clock"]["left_ms"][q].as_u64().unwrap();
    let tick = tessera_web::session::CLOCK_TICK.as_millis() as u64;
    assert!(
        (20_000 - tick - 350..=20_000 - tick + 10).contains(&left_q),
        "{r}"
    );
    let _ = std::fs::remove_file(&db);
}

/// The creation answer of `v` (its id and tokens), for [`common::remember_tokens`].
fn w_with_id(v: &Value) -> Value {
    json!({"id": v["id"], "tokens": v["tokens"]})
}

#[tokio::test]
async fn a_flag_is_stored_with_the_record() {
    let db = temp("flag");
    let app = app_with(&Config::default(), Some(&db));
    let (id, v) = clocked_nim(&app, 8, "300ms").await;
    let mover = v["to_move"].as_u64().unwrap();
    tokio::time::sleep(Duration::from_millis(800)).await;
    let store = WebDb::open(&db).unwrap();
    let row = store.game(&id).unwrap().expect("stored");
    assert_eq!(row.status, "finished", "{row:?}");
    let record: Value = serde_json::from_str(row.record.as_deref().unwrap()).unwrap();
    assert_eq!(record["flag"], mover);
    assert_eq!(record["clock"], "300ms");
    let events = store.events(&id).unwrap();
    let last = events.last().unwrap();
    assert!(
        matches!(last.event, Event::Flag { seat, .. } if u64::from(seat) == mover),
        "{last}"
    );
    assert_eq!(last.left_ms.as_ref().unwrap()[mover as usize], 0);
    let _ = std::fs::remove_file(&db);
}
