//! The stored-game API (`/api/results/{run}/games`, `/api/results/{run}/games/{index}`):
//! every game of a tournament database is listed and served as its record, which replays to
//! the stored scores; bad ids are refused, and no request can make the server open another
//! file than the operator's `--db`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::Value;
use tessera_arena::schedule::RunParams;
use tessera_arena::store::Store;
use tessera_core::testgame::Nim;
use tessera_core::{Game, GameRecord, replay};
use tessera_web::{App, Config, games};

mod common;
use common::{call, err_text};

/// A results file holding one Nim run of `games` games per series and 2 series.
fn tournament(path: &Path, agents: &[&str], games: u64) {
    common::play_into(path, &RunParams::new("nim", agents, 2, games, 2, 7));
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("tessera-web-stored-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn server(db: Option<PathBuf>) -> Arc<App> {
    Arc::new(games::standard_app(&Config {
        db,
        ..Config::default()
    }))
}

#[tokio::test]
async fn every_stored_game_is_listed_and_its_record_replays_to_the_stored_scores() {
    let path = temp("ok.sqlite");
    tournament(&path, &["first", "random"], 10);
    let stored = Store::open_read(&path).unwrap().games(1).unwrap();
    assert_eq!(stored.len(), 20);
    let app = server(Some(path.clone()));

    let (st, list) = call(&app, "GET", "/api/results/1/games", "").await;
    assert_eq!(st, StatusCode::OK, "{list}");
    assert_eq!(list["game"], "nim");
    assert_eq!(list["tables"], serde_json::json!(["first vs random"]));
    let games = list["games"].as_array().unwrap();
    assert_eq!(games.len(), stored.len());
    for (g, s) in games.iter().zip(&stored) {
        let id = format!("1:{}", s.slot.index);
        assert_eq!(g["id"], id.as_str());
        assert_eq!(g["seed"], s.slot.seed.to_string().as_str());
        assert_eq!(g["scores"], serde_json::json!(s.game.scores));
        assert_eq!(g["winners"], serde_json::json!(s.game.winners));
        assert_eq!(g["actions"], s.game.actions);
        let labels: Vec<&str> = s
            .slot
            .seats
            .iter()
            .map(|&a| ["first", "random"][a])
            .collect();
        assert_eq!(g["seats"], serde_json::json!(labels));

        // The record is the stored one (compared as JSON values).
        let uri = format!("/api/results/1/games/{}", s.slot.index);
        let (st, rec) = call(&app, "GET", &uri, "").await;
        assert_eq!(st, StatusCode::OK, "{rec}");
        let want: Value = serde_json::from_str(&s.game.record).unwrap();
        assert_eq!(rec, want, "{id}");
        // It replays, in the engine and through the replay endpoint the page uses, to the
        // stored scores.
        let typed: GameRecord<<Nim as Game>::Chance> = serde_json::from_value(rec.clone()).unwrap();
        let end: Nim = replay(&typed).unwrap();
        assert_eq!(
            end.outcome().unwrap().scores.as_slice(),
            s.game.scores.as_slice()
        );
        let (st, r) = call(&app, "POST", "/api/replay", &rec.to_string()).await;
        assert_eq!(st, StatusCode::OK, "{r}");
        let steps = r["steps"].as_array().unwrap();
        assert_eq!(steps.len(), typed.events.len() + 1);
        assert_eq!(
            steps.last().unwrap()["scores"],
            serde_json::json!(s.game.scores)
        );
    }
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn bad_ids_are_refused_and_name_what_exists() {
    // Without --db.
    let app = server(None);
    for uri in ["/api/results/1/games", "/api/results/1/games/0"] {
        let (st, e) = call(&app, "GET", uri, "").await;
        assert_eq!(st, StatusCode::NOT_FOUND, "{uri}");
        assert!(err_text(&e).contains("--db"), "{e}");
    }
    // With a --db that does not exist.
    let app = server(Some(temp("missing.sqlite")));
    let (st, e) = call(&app, "GET", "/api/results/1/games/0", "").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    assert!(err_text(&e).contains("no such file"), "{e}");

    let path = temp("ids.sqlite");
    tournament(&path, &["first", "random"], 3);
    let app = server(Some(path.clone()));
    let cases: &[(&str, StatusCode, &str)] = &[
        (
            "/api/results/1/games/6",
            StatusCode::NOT_FOUND,
            "run 1 has no stored game 6; its stored games are 0-5 (6 games",
        ),
        (
            "/api/results/2/games/0",
            StatusCode::NOT_FOUND,
            "has no run 2; it holds run 1",
        ),
        (
            "/api/results/2/games",
            StatusCode::NOT_FOUND,
            "has no run 2; it holds run 1",
        ),
        (
            "/api/results/abc/games/0",
            StatusCode::BAD_REQUEST,
            "run id 'abc' is not a run number",
        ),
        (
            "/api/results/0/games",
            StatusCode::BAD_REQUEST,
            "run id '0' is not a run number",
        ),
        (
            "/api/results/1/games/-1",
            StatusCode::BAD_REQUEST,
            "game index '-1' is not a number",
        ),
        (
            "/api/results/1/games/1:0",
            StatusCode::BAD_REQUEST,
            "expected /api/results/RUN/games/INDEX",
        ),
    ];
    for (uri, status, expected) in cases {
        let (st, e) = call(&app, "GET", uri, "").await;
        assert_eq!(st, *status, "{uri}: {e}");
        assert!(err_text(&e).contains(expected), "{uri}: {e}");
    }
    let _ = std::fs::remove_file(&path);
}

#[tokio::test]
async fn no_request_opens_another_file_than_the_configured_database() {
    let path = temp("mine.sqlite");
    tournament(&path, &["first", "random"], 3);
    // Another results file on the same machine, with other games in it.
    let other = temp("other.sqlite");
    tournament(&other, &["random", "first"], 5);
    let app = server(Some(path.clone()));
    let (_, mine) = call(&app, "GET", "/api/results/1/games/0", "").await;
    assert_eq!(mine["seats"], serde_json::json!(["first", "random"]));

    let other_s = other.to_str().unwrap();
    let escapes = [
        "/api/results/1/games/..%2F..%2F..%2Fetc%2Fpasswd".to_string(),
        "/api/results/..%2F..%2Fetc%2Fpasswd/games/0".to_string(),
        "/api/results/1/games/0%2F..%2F..%2F..%2Fetc%2Fpasswd".to_string(),
        "/api/results/1/games/%2Fetc%2Fpasswd".to_string(),
        "/api/results/1/games/0/../../../../etc/passwd".to_string(),
        format!("/api/results/1/games/{}", other_s.replace('/', "%2F")),
    ];
    for uri in &escapes {
        let (st, v) = call(&app, "GET", uri, "").await;
        assert!(st.is_client_error(), "{uri}: {st} {v}");
        assert!(!v.to_string().contains("root:"), "{uri}: {v}");
    }
    // A `db` query parameter is not an option of this API: the configured file is read.
    for q in [
        format!("?db={other_s}"),
        "?db=%2Fetc%2Fpasswd".to_string(),
        "?path=..%2Fother.sqlite".to_string(),
    ] {
        let (st, v) = call(&app, "GET", &format!("/api/results/1/games/0{q}"), "").await;
        assert_eq!(st, StatusCode::OK, "{q}: {v}");
        assert_eq!(v, mine, "{q}");
        let (st, l) = call(&app, "GET", &format!("/api/results/1/games{q}"), "").await;
        assert_eq!(st, StatusCode::OK, "{q}: {l}");
        assert_eq!(l["games"].as_array().unwrap().len(), 6, "{q}");
    }
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&other);
}

#[tokio::test]
async fn a_stored_nim_game_replays_on_the_replay_page_through_the_text_view() {
    // Nim has no web view of its own: the replay page loads the views of the games that
    // have one (azul.js, qwirkle.js) and shows any other game from its notation, the
    // position text of each step's view.
    let path = temp("text-view.sqlite");
    tournament(&path, &["first", "random"], 1);
    let app = server(Some(path.clone()));
    let (st, page) = call(&app, "GET", "/replay?game=1:0", "").await;
    assert_eq!(st, StatusCode::OK);
    let page = page.as_str().expect("HTML").to_string();
    assert!(page.contains("<script src=\"common.js\"></script><script src=\"azul.js\"></script><script src=\"qwirkle.js\"></script>"), "{page}");
    assert!(!page.contains("nim.js"), "{page}");
    assert!(page.contains("Tessera.view(d.game)"), "{page}");
    let (st, common) = call(&app, "GET", "/common.js", "").await;
    assert_eq!(st, StatusCode::OK);
    assert!(common.as_str().expect("JS").contains("Tessera.textView"));
    let (st, rec) = call(&app, "GET", "/api/results/1/games/0", "").await;
    assert_eq!(st, StatusCode::OK, "{rec}");
    let (st, r) = call(&app, "POST", "/api/replay", &rec.to_string()).await;
    assert_eq!(st, StatusCode::OK, "{r}");
    let typed: GameRecord<<Nim as Game>::Chance> = serde_json::from_value(rec).unwrap();
    let steps = r["steps"].as_array().unwrap();
    // What the text view draws: each step's position in Nim's notation, and each move's.
    let mut state = typed.initial.parse::<Nim>().expect("the initial state");
    for (step, ev) in steps[1..].iter().zip(&typed.events) {
        match ev {
            tessera_core::record::Event::Chance { outcome } => {
                state.apply_chance(outcome).expect("a stored deal")
            }
            tessera_core::record::Event::Action { action, .. } => {
                assert_eq!(step["action"], action.as_str());
                state.apply(action.parse().expect("a stored move"));
            }
        }
        assert_eq!(step["view"]["state"], state.to_string(), "{step}");
    }
    let _ = std::fs::remove_file(&path);
}
