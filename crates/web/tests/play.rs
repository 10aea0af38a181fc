//! Playing against the AI as on a game site: difficulty levels in the catalog, hints from the
//! strongest level, undo back to the human's previous turn (the same deals and AI moves when
//! the same move is made again), both kept in the record and the replay, and Qwirkle's
//! placement check. Through the router without a network, on the real Azul and Qwirkle.

use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::{Value, json};
use tessera_web::{App, Config, games};

mod common;
use common::{call, wait_while_ai as wait_for_human};

/// A new game's id.
async fn new_game(app: &Arc<App>, game: &str, seats: Value, seed: u64) -> String {
    let v = common::new_game(app, game, seats, seed).await;
    v["id"].as_str().unwrap().to_string()
}

fn app() -> Arc<App> {
    Arc::new(games::standard_app(&Config {
        master_seed: 9,
        ..Config::default()
    }))
}

#[tokio::test]
async fn the_catalog_offers_levels_hints_and_time_only_where_it_matters() {
    let app = app();
    let (_, v) = call(&app, "GET", "/api/catalog", "").await;
    for name in ["azul", "qwirkle"] {
        let g = v["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .unwrap();
        let levels = g["levels"].as_array().unwrap();
        assert!(levels.len() >= 5, "{name}: {levels:?}");
        assert_eq!(levels[0]["agent"], "level:1");
        assert!(
            levels
                .iter()
                .all(|l| !l["summary"].as_str().unwrap().is_empty())
        );
        // The default opponent is the middle level, not random.
        let mid = levels[(levels.len() - 1) / 2]["number"].clone();
        assert_eq!(g["default_level"], mid, "{name}");
        assert_eq!(g["hints"], format!("level:{}", levels.len()));
        let agents = g["agents"].as_array().unwrap();
        let timed = |n: &str| agents.iter().find(|a| a["name"] == n).unwrap()["timed"].clone();
        assert_eq!(timed("random"), false, "{name}: random takes no time");
    }
    let azul = &v["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "azul")
        .unwrap()["agents"];
    let alphabeta = azul
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "alphabeta")
        .unwrap();
    assert_eq!(alphabeta["timed"], true, "a search takes a time per move");
}

#[tokio::test]
async fn azul_hint_and_undo_against_the_ai_are_recorded_and_replay_alike() {
    let app = app();
    let id = new_game(
        &app,
        "azul",
        json!([{"type": "human"}, {"type": "ai", "agent": "level:2"}]),
        5,
    )
    .await;
    let first = wait_for_human(&app, &id, 0).await;
    let level2 = tessera_arena::registry::azul::registry().levels()[1];
    // Players see the level; the specification behind it is the seat's agent.
    assert_eq!(
        first["seats"][1]["name"],
        format!("Level 2 · {}", level2.name)
    );
    assert_eq!(first["seats"][1]["agent"], level2.spec);
    assert_eq!(first["can_hint"], true);
    assert_eq!(first["can_undo"], false, "nothing to take back yet");
    // A hint: a legal move of the strongest level, with its projected points and why.
    let (st, hint) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/hint"),
        r#"{"seat":0}"#,
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{hint}");
    let action = hint["action"].as_str().unwrap().to_string();
    assert!(
        first["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["action"] == action.as_str()),
        "the hint {action} is legal"
    );
    assert!(hint["explain"]["points"].is_i64(), "{hint}");
    assert!(
        hint["explain"]["why"]
            .as_str()
            .unwrap()
            .contains("projected score"),
        "{hint}"
    );
    assert!(hint["action_json"]["count"].as_u64().unwrap() > 0);
    // Hints are for people: not for the AI's seat.
    let (st, e) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/hint"),
        r#"{"seat":1}"#,
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT, "{e}");
    // Play the hint; the AI answers.
    let (st, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        &json!({"seat": 0, "action": action}).to_string(),
    )
    .await;
    assert_eq!(st, StatusCode::OK);
    let second = wait_for_human(&app, &id, 0).await;
    assert_eq!(second["can_undo"], true);
    // Undo: back to the human's previous turn, the AI's reply gone too.
    let (st, back) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/undo"),
        r#"{"seat":0}"#,
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{back}");
    assert_eq!(back["view"], first["view"]);
    assert_eq!(back["step_count"], first["step_count"]);
    assert_eq!(back["to_move"], 0);
    // The same move again: the same AI reply (its generator was restored).
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        &json!({"seat": 0, "action": action}).to_string(),
    )
    .await;
    let again = wait_for_human(&app, &id, 0).await;
    assert_eq!(again["view"], second["view"]);
    // The record says the game had help; the replay shows it.
    let (st, record) = call(&app, "GET", &format!("/api/games/{id}/record"), "").await;
    assert_eq!(st, StatusCode::OK);
    let kinds: Vec<&str> = record["assists"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, vec!["hint", "undo"]);
    let (st, replay) = call(&app, "POST", "/api/replay", &record.to_string()).await;
    assert_eq!(st, StatusCode::OK, "{replay}");
    assert_eq!(replay["assists"], record["assists"]);
    let steps = replay["steps"].as_array().unwrap();
    let acted = steps.iter().find(|s| s["type"] == "action").unwrap();
    assert!(acted["explain"]["points"].is_i64(), "{acted}");
}

#[tokio::test]
async fn a_qwirkle_placement_is_checked_before_it_is_sent() {
    let app = app();
    let id = new_game(
        &app,
        "qwirkle",
        json!([{"type": "human"}, {"type": "ai", "agent": "level:1"}]),
        3,
    )
    .await;
    let snap = wait_for_human(&app, &id, 0).await;
    let check = |action: String| {
        let app = Arc::clone(&app);
        let id = id.clone();
        async move {
            call(
                &app,
                "POST",
                &format!("/api/games/{id}/check"),
                &json!({"seat": 0, "action": action}).to_string(),
            )
            .await
        }
    };
    let legal = snap["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["json"]["type"] == "place")
        .unwrap();
    let (st, ok) = check(legal["action"].as_str().unwrap().to_string()).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(ok["legal"], true);
    assert_eq!(ok["explain"]["points"], legal["json"]["points"]);
    // A tile far from everything: refused with the rules' reason, nothing played.
    let tile = snap["view"]["hand"][0].as_str().unwrap();
    let (st, bad) = check(format!("{tile}@40,40")).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(bad["legal"], false);
    assert!(!bad["reason"].as_str().unwrap().is_empty(), "{bad}");
    let (st, bad) = check("Z9@0,0".into()).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(bad["legal"], false, "{bad}");
    let (_, after) = call(&app, "GET", &format!("/api/games/{id}?seat=0"), "").await;
    assert_eq!(after["step_count"], snap["step_count"]);
    // Not the AI's seat.
    let (st, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/check"),
        r#"{"seat": 1, "action": "pass"}"#,
    )
    .await;
    assert_eq!(st, StatusCode::CONFLICT);
}

#[tokio::test]
async fn your_own_tiles_level_is_parsed_solved_or_refused_with_a_reason() {
    let app = app();
    let (st, v) = call(
        &app,
        "POST",
        "/api/tiles",
        &json!({"level_text": "level mine size 4x4\n#..p\n#..#\n.R.r\n..#P\n"}).to_string(),
    )
    .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    // The optimum of a pasted level is found on arrival (level 3 of the shipped file: 5).
    assert_eq!(v["level"]["optimal"], 5);
    let (st, e) = call(
        &app,
        "POST",
        "/api/tiles",
        &json!({"level_text": "level bad\n#..p\n#.X#\n"}).to_string(),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .starts_with("your level, line "),
        "{e}"
    );
    // A piece walled off from its target: nobody can solve it.
    let (st, e) = call(
        &app,
        "POST",
        "/api/tiles",
        &json!({"level_text": "level shut size 3x1\nR#r\n"}).to_string(),
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("no sequence of moves"),
        "{e}"
    );
}

#[tokio::test]
async fn pages_have_an_icon_and_an_unknown_address_gets_a_page_for_people() {
    let app = app();
    for icon in ["/favicon.svg", "/favicon.ico"] {
        let (st, v) = call(&app, "GET", icon, "").await;
        assert_eq!(st, StatusCode::OK, "{icon}");
        assert!(
            v.as_str().is_some_and(|s| s.starts_with("<svg")),
            "{icon}: {v}"
        );
    }
    for page in ["/", "/azul", "/qwirkle", "/tiles", "/results", "/replay"] {
        let (st, v) = call(&app, "GET", page, "").await;
        assert_eq!(st, StatusCode::OK, "{page}");
        let html = v.as_str().unwrap_or_default();
        assert!(html.contains(r#"rel="icon" href="favicon.svg""#), "{page}");
    }
    let (st, v) = call(&app, "GET", "/foo", "").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
    let html = v.as_str().unwrap_or_default();
    assert!(
        html.contains("Page not found") && html.contains(r#"href="/""#),
        "{html}"
    );
}
