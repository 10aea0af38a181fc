//! End-to-end tests in a real headless Chromium (Debian's `/usr/bin/chromium`, driven through
//! `chromedriver` with WebDriver): a human plays a whole Azul game against a fast AI by
//! clicking only; a Match the Tiles level is solved with the arrow keys; a Qwirkle turn is
//! placed and a trade is made by clicking; a game record is opened and stepped through on the
//! replay page; the results page shows a stored tournament; Azul against the default level with the
//! move log, a hint, keyboard play and undo; Qwirkle's marked cells; every page at phone width.
//! Screenshots go to `target/artifacts/`.
//!
//! Without Chromium or ChromeDriver the tests fail, naming what is missing (`scripts/test.sh`
//! installs both): they never pass by skipping. A developer who means to skip them sets
//! `TESSERA_SKIP_BROWSER_TESTS=1`, which the test command never does.

mod common;

use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use tessera_arena::schedule::RunParams;
use tessera_arena::store::Store;
use tessera_azul::AzulState;
use tessera_web::access::Credentials;
use tessera_web::{App, Config, games};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// One browser test at a time: the machine has 2 cores.
static SERIAL: Mutex<()> = Mutex::new(());

/// The variable a developer sets to skip these tests on purpose (never set by the test
/// command).
const SKIP: &str = "TESSERA_SKIP_BROWSER_TESTS";

fn browser_available() -> bool {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !std::path::Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        return true;
    }
    let skip = std::env::var(SKIP).is_ok_and(|v| v == "1" || v == "true");
    assert!(
        skip,
        "the browser tests cannot run: {} missing; install Debian's chromium and \
         chromium-driver (scripts/test.sh does), or set {SKIP}=1 to skip them on purpose",
        missing.join(" and ")
    );
    eprintln!("SKIPPED ({SKIP}=1): {} missing", missing.join(" and "));
    false
}

fn artifacts() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/artifacts");
    std::fs::create_dir_all(&dir).expect("create target/artifacts");
    dir
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

struct Driver {
    child: Child,
    port: u16,
    _profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self._profile);
    }
}

fn start_driver(name: &str) -> Driver {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let profile = std::env::temp_dir().join(format!("tessera-chromium-{name}-{port}"));
    let _ = std::fs::remove_dir_all(&profile);
    Driver {
        child,
        port,
        _profile: profile,
    }
}

async fn connect(driver: &Driver) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
    ];
    let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    args.push(format!("--user-data-dir={}", driver._profile.display()));
    let caps = json!({
        "goog:chromeOptions": { "binary": CHROMIUM, "args": args },
    });
    let caps = match caps {
        Value::Object(m) => m,
        _ => unreachable!(),
    };
    let conn = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(conn)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("open a Chromium session through chromedriver")
}

/// A browser of its own (its chromedriver, Chromium profile and session): two of them are two
/// people on two devices. Dropping it stops its chromedriver.
struct Browser {
    client: Client,
    _driver: Driver,
}

impl std::ops::Deref for Browser {
    type Target = Client;
    fn deref(&self) -> &Client {
        &self.client
    }
}

impl Browser {
    /// Ends the WebDriver session (Chromium quits), then the chromedriver.
    async fn close(self) -> Result<(), fantoccini::error::CmdError> {
        self.client.close().await
    }
}

async fn open_browser(name: &str) -> Browser {
    let driver = start_driver(name);
    let client = connect(&driver).await;
    Browser {
        client,
        _driver: driver,
    }
}

/// Opens a game's setup page (`path`, e.g. `/azul?fast`) and waits for its seat editor.
async fn open_setup(c: &Client, addr: SocketAddr, path: &str) {
    c.goto(&format!("http://{addr}{path}"))
        .await
        .unwrap_or_else(|e| panic!("open {path}: {e}"));
    c.wait()
        .for_element(Locator::Css("#seat1-type"))
        .await
        .unwrap_or_else(|e| panic!("the seat editor of {path}: {e}"));
}

/// Runs one browser test: skipped only on purpose (see [`browser_available`]), one at a time.
fn browser_test<F: std::future::Future<Output = ()>>(f: F) {
    if browser_available() {
        run(f);
    }
}

async fn start_server() -> (SocketAddr, Arc<App>) {
    start_server_with(Config {
        master_seed: 2024,
        ..Config::default()
    })
    .await
}

async fn start_server_with(cfg: Config) -> (SocketAddr, Arc<App>) {
    let app = Arc::new(games::standard_app(&cfg));
    let (listener, addr) = tessera_web::bind_loopback(0).await.expect("bind");
    let a = Arc::clone(&app);
    tokio::spawn(async move {
        let _ = tessera_web::serve(listener, a, std::future::pending()).await;
    });
    (addr, app)
}

/// A server showing the tournaments stored in `db`.
async fn start_results_server(db: &std::path::Path) -> (SocketAddr, Arc<App>) {
    start_server_with(Config {
        db: Some(db.to_path_buf()),
        ..Config::default()
    })
    .await
}

/// Asks for a hint and waits for it.
async fn ask_hint(c: &Client) {
    click(c, "#hint").await;
    wait_js(
        c,
        "document.querySelector('#hint-box').textContent.startsWith('Hint from')",
        "the hint",
        30,
    )
    .await;
}

/// The game's public snapshot with every step from the start.
fn whole_snapshot(app: &App, id: &str) -> Value {
    app.sessions
        .get(id)
        .unwrap()
        .snapshot(
            &tessera_web::session::ViewQuery {
                since: Some(0),
                ..Default::default()
            },
            &Credentials::none(),
        )
        .unwrap()
}

async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(artifacts().join(name), png).expect("write screenshot");
}

fn run<F: std::future::Future<Output = ()>>(f: F) {
    let _guard = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f);
}

/// The seat tokens the browser holds for game `id` (what its page sends with each request).
async fn browser_creds(c: &Client, id: &str) -> Credentials {
    let v = c
        .execute(
            "return JSON.stringify(Seats.tokens(arguments[0]));",
            vec![json!(id)],
        )
        .await
        .expect("read the page's seat tokens");
    let tokens: Vec<String> = serde_json::from_str(v.as_str().unwrap_or("[]")).unwrap_or_default();
    Credentials::from_tokens(tokens.iter().map(String::as_str))
}

async fn text_of(c: &Client, css: &str) -> String {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.text().await.unwrap_or_default(),
        Err(_) => String::new(),
    }
}

#[test]
fn azul_human_beats_or_loses_to_the_ai_by_clicking_only() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("azul").await;
        // Seat 1 human (the default), seat 2 the random AI (the default agent); fixed seed.
        open_setup(&c, addr, "/azul?fast").await;
        type_into(&c, "#seed", "7").await;
        screenshot(&c, "azul-setup.png").await;
        c.find(Locator::Css("#start"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        // A spectator in a browser of their own follows the game by its address.
        let deadline = Instant::now() + Duration::from_secs(20);
        while app.sessions.list().is_empty() {
            assert!(Instant::now() < deadline, "Start made no game");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let id = only_game(&app);
        let spectator = open_browser("azul-spectator").await;
        spectator
            .goto(&format!("http://{addr}/azul?fast&game={id}"))
            .await
            .unwrap();

        let deadline = Instant::now() + Duration::from_secs(180);
        let mut moves = 0;
        let mut shot_selection = false;
        loop {
            if Instant::now() > deadline {
                screenshot(&c, "azul-stuck.png").await;
                panic!(
                    "the game did not finish in time ({moves} moves); status: {}",
                    text_of(&c, "#status").await
                );
            }
            if c.find(Locator::Css("#final-scores")).await.is_ok() {
                break;
            }
            if let Ok(b) = c.find(Locator::Css("#continue")).await {
                let _ = b.click().await;
                continue;
            }
            let picks = c
                .find_all(Locator::Css(".tile.pick"))
                .await
                .unwrap_or_default();
            if picks.is_empty() {
                tokio::time::sleep(Duration::from_millis(40)).await;
                continue;
            }
            // Vary the choice a little so lines and the floor both get used.
            let pick = &picks[moves % picks.len()];
            if pick.click().await.is_err() {
                continue; // re-rendered under us
            }
            let targets = c
                .find_all(Locator::Css(".pline.target, .floor.target"))
                .await
                .unwrap_or_default();
            if targets.is_empty() {
                continue;
            }
            if !shot_selection
                && c.find_all(Locator::Css(".pline.disabled"))
                    .await
                    .is_ok_and(|v| !v.is_empty())
            {
                screenshot(&c, "azul-selection.png").await;
                shot_selection = true;
            }
            // Prefer a pattern line (the first target); the floor is the last resort.
            if targets[0].click().await.is_ok() {
                moves += 1;
            }
            if moves == 12 {
                screenshot(&c, "azul-midgame.png").await;
            }
        }
        screenshot(&c, "azul-final.png").await;
        assert!(
            moves >= 10,
            "a whole game takes more than {moves} human moves"
        );
        // The page's final scores are the server's, the spectator's page shows the same, and
        // the record is the whole game.
        let snap = public_snapshot(&app, &id);
        assert_eq!(snap["status"], "finished");
        let shown = final_scores_shown(&c).await;
        assert_eq!(
            final_scores_shown(&spectator).await,
            shown,
            "the spectator's final scores"
        );
        screenshot(&spectator, "azul-spectator-final.png").await;
        let record = app.sessions.get(&id).unwrap().record().unwrap();
        assert_whole_game(&record, &shown, actions_played(&app, &id).len());
        spectator.close().await.unwrap();
        let expected: Vec<i64> = snap["outcome"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        assert_eq!(shown, expected, "final scores on the page");
        let status = text_of(&c, "#status").await;
        assert!(status.starts_with("Game over"), "{status}");
        c.close().await.unwrap();
    });
}

#[test]
fn a_tiles_level_is_solved_with_the_arrow_keys() {
    let level = tessera_tiles::builtin_level(5).expect("level 5");
    let solution = level
        .optimal_solution(&level.start())
        .expect("within the limit")
        .expect("solvable");
    browser_test(async move {
        let (addr, _app) = start_server().await;
        let c = open_browser("tiles").await;
        c.goto(&format!("http://{addr}/tiles?level=5"))
            .await
            .unwrap();
        c.wait().for_element(Locator::Css("#tgrid")).await.unwrap();
        screenshot(&c, "tiles-start.png").await;
        let body = c.find(Locator::Css("body")).await.unwrap();
        for (i, d) in solution.iter().enumerate() {
            let key = match d {
                tessera_tiles::Dir::Left => Key::Left,
                tessera_tiles::Dir::Right => Key::Right,
                tessera_tiles::Dir::Up => Key::Up,
                tessera_tiles::Dir::Down => Key::Down,
            };
            body.send_keys(&char::from(key).to_string()).await.unwrap();
            // Wait for the move counter before the next key.
            let deadline = Instant::now() + Duration::from_secs(10);
            while text_of(&c, "#moves").await != (i + 1).to_string() {
                assert!(Instant::now() < deadline, "move {} not shown", i + 1);
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        let solved = text_of(&c, "#solved").await;
        screenshot(&c, "tiles-solved.png").await;
        assert_eq!(
            solved,
            format!("Solved in {} moves — optimal!", solution.len())
        );
        c.close().await.unwrap();
    });
}

#[test]
fn a_qwirkle_turn_is_placed_by_clicking_hand_then_cells() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("qwirkle").await;
        start_qwirkle(&c, addr, "3").await;
        let (id, snap) = wait_for_human_turn(&c, &app, None).await;
        // The spectator view and the AI seat's view hold no hand.
        let spectator = public_snapshot(&app, &id);
        assert!(spectator["view"]["hand"].as_array().unwrap().is_empty());
        let q = tessera_web::session::ViewQuery {
            seat: Some(1),
            ..Default::default()
        };
        assert!(
            app.sessions
                .get(&id)
                .unwrap()
                .snapshot(&q, &browser_creds(&c, &id).await)
                .is_err()
        );
        // A legal placement, the largest one, placed by clicks.
        let place = snap["legal"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["json"]["type"] == "place")
            .max_by_key(|a| a["json"]["cells"].as_array().unwrap().len())
            .expect("a placement")
            .clone();
        let hand: Vec<String> = snap["view"]["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        let mut cells: Vec<(i64, i64, String)> = place["json"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["x"].as_i64().unwrap(),
                    x["y"].as_i64().unwrap(),
                    x["tile"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        let mut used = Vec::new();
        let mut guard = 0;
        while !cells.is_empty() {
            guard += 1;
            assert!(guard < 50, "could not reach the cells {cells:?}");
            let mut placed = None;
            for (k, (x, y, tile)) in cells.iter().enumerate() {
                let slot = (0..hand.len())
                    .find(|i| hand[*i] == *tile && !used.contains(i))
                    .expect("tile in hand");
                c.find(Locator::Css(&format!(".hand .qtile[data-slot='{slot}']")))
                    .await
                    .unwrap()
                    .click()
                    .await
                    .unwrap();
                if let Ok(cell) = c
                    .find(Locator::Css(&format!(
                        ".qcell.open[data-x='{x}'][data-y='{y}']"
                    )))
                    .await
                {
                    cell.click().await.unwrap();
                    used.push(slot);
                    placed = Some(k);
                    break;
                }
                // Not on screen yet: deselect and try another cell first.
                c.find(Locator::Css(&format!(".hand .qtile[data-slot='{slot}']")))
                    .await
                    .unwrap()
                    .click()
                    .await
                    .unwrap();
            }
            let k = placed.expect("one of the cells is reachable");
            cells.remove(k);
        }
        screenshot(&c, "qwirkle-pending.png").await;
        c.find(Locator::Css("#confirm"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            assert!(Instant::now() < deadline, "the placement was not played");
            let s = whole_snapshot(&app, &id);
            let mine: Vec<&Value> = s["steps"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|st| st["player"] == 0 && st["type"] == "action")
                .collect();
            if let Some(st) = mine.first() {
                assert_eq!(st["action_json"], place["json"]);
                assert!(s["scores"][0].as_i64().unwrap() > 0);
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        screenshot(&c, "qwirkle-after-turn.png").await;
        c.close().await.unwrap();
    });
}

/// The seat-0 snapshot of the game, once it waits for the human and the page says so.
async fn wait_for_human_turn(c: &Client, app: &App, id: Option<&str>) -> (String, Value) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the human never got the turn");
        let found = match id {
            Some(id) => Some(id.to_string()),
            None => app
                .sessions
                .list()
                .first()
                .and_then(|g| g["id"].as_str().map(str::to_string)),
        };
        if let Some(id) = found {
            let q = tessera_web::session::ViewQuery {
                seat: Some(0),
                ..Default::default()
            };
            let creds = browser_creds(c, &id).await;
            // The game is listed as soon as it is made, which can be before the page has
            // stored the seat tokens its creation answered with (seen under load): until
            // then the seat is not the page's, and the loop waits (the deadline above
            // still fails a page that never gets them).
            let seen = app.sessions.get(&id).unwrap().snapshot(&q, &creds);
            if let Ok(s) = seen
                && s["waiting_for"] == "human"
                && text_of(c, "#status").await.starts_with("Your turn")
            {
                return (id, s);
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Opens the Qwirkle page (fast AI replies), keeps the default seats (seat 1 human, seat 2
/// an AI), sets the seed and starts the game.
async fn start_qwirkle(c: &Client, addr: SocketAddr, seed: &str) {
    open_setup(c, addr, "/qwirkle?fast").await;
    type_into(c, "#seed", seed).await;
    // Two clicks in one go, as a double click sends them: one game starts.
    c.execute(
        "const b = document.querySelector('#start'); b.click(); b.click();",
        vec![],
    )
    .await
    .unwrap();
}

/// Types `text` into the field `css`.
async fn type_into(c: &Client, css: &str, text: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no field {css}: {e}"))
        .send_keys(text)
        .await
        .unwrap_or_else(|e| panic!("typing into {css}: {e}"));
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element {css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("clicking {css}: {e}"));
}

#[test]
fn a_qwirkle_trade_is_made_by_clicking() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("qwirkle-trade").await;
        start_qwirkle(&c, addr, "3").await;
        let (id, mut snap) = wait_for_human_turn(&c, &app, None).await;
        // The first move of the game must place tiles; take it through the API and trade on
        // the next turn.
        let can_trade = |s: &Value| {
            s["legal"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["json"]["type"] == "trade")
        };
        if !can_trade(&snap) {
            let action = snap["legal"][0]["action"].as_str().unwrap().to_string();
            let session = app.sessions.get(&id).unwrap();
            session
                .play(
                    tessera_web::session::MoveRequest {
                        seat: 0,
                        action,
                        expected_revision: None,
                    },
                    &browser_creds(&c, &id).await,
                )
                .expect("the first legal move is accepted");
            // Wait for the AI's reply and the page to show the human's turn again.
            let deadline = Instant::now() + Duration::from_secs(60);
            loop {
                assert!(Instant::now() < deadline, "no second turn");
                let (_, s) = wait_for_human_turn(&c, &app, Some(&id)).await;
                if s["step_count"] != snap["step_count"] {
                    snap = s;
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        assert!(can_trade(&snap), "a trade is legal now: {}", snap["legal"]);
        let hand_before: Vec<String> = snap["view"]["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        click(&c, "#trade").await;
        click(&c, ".hand .qtile[data-slot='0']").await;
        click(&c, ".hand .qtile[data-slot='1']").await;
        assert!(
            text_of(&c, "#trade").await.contains("Trade 2 tile"),
            "the trade button counts the chosen tiles"
        );
        screenshot(&c, "qwirkle-trade-chosen.png").await;
        click(&c, "#trade").await;
        let deadline = Instant::now() + Duration::from_secs(30);
        let creds = browser_creds(&c, &id).await;
        let step = loop {
            assert!(Instant::now() < deadline, "the trade was not played");
            let s = app
                .sessions
                .get(&id)
                .unwrap()
                .snapshot(
                    &tessera_web::session::ViewQuery {
                        seat: Some(0),
                        since: Some(0),
                        ..Default::default()
                    },
                    &creds,
                )
                .unwrap();
            let trade = s["steps"]
                .as_array()
                .unwrap()
                .iter()
                .find(|st| st["player"] == 0 && st["action_json"]["type"] == "trade")
                .cloned();
            if let Some(t) = trade {
                assert_eq!(s["view"]["hand"].as_array().unwrap().len(), 6);
                break t;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        // The trade put back the two tiles clicked (the first two of the hand).
        let action = step["action"].as_str().unwrap();
        assert!(
            action.contains(&hand_before[0]) && action.contains(&hand_before[1]),
            "{action} vs hand {hand_before:?}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
        screenshot(&c, "qwirkle-after-trade.png").await;
        c.close().await.unwrap();
    });
}

#[test]
fn a_game_record_is_replayed_step_by_step() {
    use tessera_azul::AzulState;
    use tessera_core::{Agent, Budget, RandomAgent, play_game};
    let mut a = RandomAgent::<AzulState>::new();
    let mut b = RandomAgent::<AzulState>::new();
    let (_, record) = play_game(
        AzulState::new_random(2, &mut tessera_core::rng::seeded(5)),
        &mut [&mut a as &mut dyn Agent<AzulState>, &mut b],
        &Budget::default(),
        77,
        None,
        &mut (),
    )
    .unwrap();
    let dir = tempfile_dir("replay");
    let path = dir.join("game.json");
    // Seat 1 as a person's seat is written in the record (`human:Ann`).
    let mut json = serde_json::to_value(&record).unwrap();
    json["seats"][0] = "human:Ann".into();
    std::fs::write(&path, json.to_string()).unwrap();
    let steps = record.events.len();
    let final_scores: Vec<String> = record
        .scores
        .last()
        .unwrap()
        .iter()
        .map(|s| s.to_string())
        .collect();
    browser_test(async {
        let (addr, _app) = start_server().await;
        let c = open_browser("replay").await;
        c.goto(&format!("http://{addr}/replay")).await.unwrap();
        // Open the file through the page's file input, as a person would.
        c.find(Locator::Css("#file"))
            .await
            .unwrap()
            .send_keys(path.to_str().unwrap())
            .await
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while !text_of(&c, "#stepinfo").await.starts_with("step 0 /") {
            assert!(Instant::now() < deadline, "the record did not load");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(
            text_of(&c, "#stepinfo").await.split(" · ").next().unwrap(),
            format!("step 0 / {steps}")
        );
        // Players see the person's name, not the record's `human:` label.
        let page = text_of(&c, "main").await;
        assert!(page.contains("Ann (seat 1)"), "{page}");
        assert!(!page.contains("human:"), "{page}");
        for _ in 0..3 {
            click(&c, "#next").await;
        }
        assert!(text_of(&c, "#stepinfo").await.starts_with("step 3 /"));
        click(&c, "#prev").await;
        assert!(text_of(&c, "#stepinfo").await.starts_with("step 2 /"));
        screenshot(&c, "replay-step-2.png").await;
        click(&c, "#last").await;
        let info = text_of(&c, "#stepinfo").await;
        assert_eq!(
            info,
            format!(
                "step {steps} / {steps} · scores {}",
                final_scores.join(" : ")
            )
        );
        screenshot(&c, "replay-last-step.png").await;
        // The move log lists every action; the first/last buttons are real text (no glyph
        // a font may lack).
        let actions = record
            .events
            .iter()
            .filter(|e| matches!(e, tessera_core::Event::Action { .. }))
            .count();
        let logged = c.find_all(Locator::Css("#log li")).await.unwrap().len();
        assert_eq!(logged, actions);
        assert_eq!(text_of(&c, "#first").await, "« First");
        assert_eq!(text_of(&c, "#last").await, "Last »");
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits until `script` (a JavaScript expression) is true on the page.
async fn wait_js(c: &Client, script: &str, what: &str, secs: u64) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = c
            .execute(&format!("return !!({script});"), vec![])
            .await
            .unwrap_or(Value::Bool(false));
        if v == Value::Bool(true) {
            return;
        }
        if Instant::now() > deadline {
            screenshot(c, &format!("stuck-{}.png", what.replace(' ', "-"))).await;
            panic!(
                "timed out waiting for {what}; status: {}",
                text_of(c, "#status").await
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.expect("the script runs")
}

#[test]
fn azul_against_the_default_level_with_log_hint_keyboard_and_undo() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("azul-site").await;
        open_setup(&c, addr, "/azul?fast").await;
        // The difficulty setting: seat 2 defaults to the middle level, with its summary; no
        // "ms per move" for a level (its budget is fixed) nor for random, but for a search.
        let middle = tessera_arena::registry::azul::registry()
            .default_level()
            .unwrap()
            .number;
        assert_eq!(
            js(&c, "return document.querySelector('#seat1-type').value").await,
            format!("ai:level:{middle}")
        );
        assert!(!text_of(&c, "#seat1-about").await.is_empty());
        let ms_shown =
            "getComputedStyle(document.querySelector('#seat1-ms').parentNode).display !== 'none'";
        assert_eq!(js(&c, &format!("return {ms_shown}")).await, false);
        js(&c, "const s = document.querySelector('#seat1-type'); s.value = 'ai:alphabeta'; s.dispatchEvent(new Event('change'));").await;
        assert_eq!(js(&c, &format!("return {ms_shown}")).await, true);
        js(&c, &format!("const s = document.querySelector('#seat1-type'); s.value = 'ai:level:{middle}'; s.dispatchEvent(new Event('change'));")).await;
        screenshot(&c, "azul-levels-setup.png").await;
        type_into(&c, "#seed", "12").await;
        click(&c, "#start").await;
        wait_js(&c, "document.querySelector('#board .tile.pick') && document.querySelector('#hint').style.display !== 'none'", "the human's turn", 60).await;
        // A hint: the strongest level's move, outlined, with its projected points.
        ask_hint(&c).await;
        let hint = text_of(&c, "#hint-box").await;
        assert!(hint.contains("projected score"), "{hint}");
        assert!(c.find(Locator::Css("#board .tile.hinted")).await.is_ok());
        screenshot(&c, "azul-hint.png").await;
        // Keyboard play: the first source tile has the focus; Enter picks it, the focus goes
        // to the first legal line, Enter plays there.
        let steps_before = app.sessions.list()[0]["step_count"].as_u64().unwrap();
        // (after the hint, the focus is on the suggested tiles).
        wait_js(
            &c,
            "document.activeElement && document.activeElement.matches('.tile.pick.hinted')",
            "focus on a source",
            10,
        )
        .await;
        js(&c, "window.focusedBefore = document.activeElement;").await;
        let active = c.active_element().await.unwrap();
        active
            .send_keys(&char::from(Key::Right).to_string())
            .await
            .unwrap();
        wait_js(&c, "document.activeElement !== window.focusedBefore && document.activeElement.matches('.tile.pick')", "the arrow key moving the focus", 10).await;
        let active = c.active_element().await.unwrap();
        active
            .send_keys(&char::from(Key::Left).to_string())
            .await
            .unwrap();
        let active = c.active_element().await.unwrap();
        active
            .send_keys(&char::from(Key::Enter).to_string())
            .await
            .unwrap();
        wait_js(&c, "document.activeElement && document.activeElement.matches('.pline.target, .floor.target')", "focus on a line", 10).await;
        let active = c.active_element().await.unwrap();
        active.send_keys(" ").await.unwrap();
        // The AI answers; the log shows both moves with points, and each seat's last move
        // stays marked.
        wait_js(&c, "document.querySelectorAll('#log .log-entry').length >= 2 && document.querySelector('#board .tile.pick')", "the AI's reply", 60).await;
        assert!(app.sessions.list()[0]["step_count"].as_u64().unwrap() >= steps_before + 2);
        let first = text_of(&c, "#log .log-entry").await;
        assert!(
            first.contains(" took ") && first.contains(" from "),
            "{first}"
        );
        assert!(
            c.find_all(Locator::Css("#board .last-move"))
                .await
                .unwrap()
                .len()
                >= 2
        );
        assert!(
            c.find(Locator::Css("#last-0")).await.is_ok()
                && c.find(Locator::Css("#last-1")).await.is_ok()
        );
        screenshot(&c, "azul-log-and-marks.png").await;
        // Undo against the AI: back to the human's turn before the move.
        wait_js(
            &c,
            "document.querySelector('#undo').style.display !== 'none'",
            "the undo button",
            10,
        )
        .await;
        click(&c, "#undo").await;
        wait_js(&c, "document.querySelectorAll('#log .log-entry.undone').length >= 2 && [...document.querySelectorAll('#log .log-note')].some((n) => n.textContent.includes('took a move back'))", "the undo", 20).await;
        // No move is shown twice, and the taken-back moves are no one's last move any more.
        let entries = c
            .find_all(Locator::Css("#log .log-entry"))
            .await
            .unwrap()
            .len();
        assert_eq!(entries, 2, "the human's move and the AI's reply, once each");
        assert!(c.find(Locator::Css("#last-0")).await.is_err());
        let id = app.sessions.list()[0]["id"].as_str().unwrap().to_string();
        let session = app.sessions.get(&id).unwrap();
        let snap = session
            .snapshot(&Default::default(), &Credentials::none())
            .unwrap();
        assert_eq!(snap["step_count"].as_u64().unwrap(), steps_before);
        let record = session.record().unwrap();
        let kinds: Vec<&str> = record["assists"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["kind"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, vec!["hint", "undo"]);
        screenshot(&c, "azul-after-undo.png").await;
        c.close().await.unwrap();
    });
}

#[test]
fn qwirkle_marks_legal_cells_refuses_an_illegal_tile_and_scores_the_pending_placement() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("qwirkle-cells").await;
        start_qwirkle(&c, addr, "5").await;
        let (_id, snap) = wait_for_human_turn(&c, &app, None).await;
        assert_eq!(
            app.sessions.list().len(),
            1,
            "a double click started one game"
        );
        let hand: Vec<String> = snap["view"]["hand"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        // The cells where tile 0 can go, from the legal placements.
        let mut expected: Vec<(i64, i64)> = snap["legal"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["json"]["type"] == "place")
            .flat_map(|a| a["json"]["cells"].as_array().unwrap().clone())
            .filter(|cell| cell["tile"] == hand[0].as_str())
            .map(|cell| (cell["x"].as_i64().unwrap(), cell["y"].as_i64().unwrap()))
            .collect();
        expected.sort();
        expected.dedup();
        click(&c, ".hand .qtile[data-slot='0']").await;
        let mut marked = Vec::new();
        for e in c.find_all(Locator::Css(".qcell.legal")).await.unwrap() {
            let x = e
                .attr("data-x")
                .await
                .unwrap()
                .unwrap()
                .parse::<i64>()
                .unwrap();
            let y = e
                .attr("data-y")
                .await
                .unwrap()
                .unwrap()
                .parse::<i64>()
                .unwrap();
            marked.push((x, y));
        }
        marked.sort();
        // Every marked cell is legal; the cells on screen that are legal are marked.
        assert!(!marked.is_empty(), "no cell marked for {}", hand[0]);
        assert!(
            marked.iter().all(|m| expected.contains(m)),
            "{marked:?} vs {expected:?}"
        );
        screenshot(&c, "qwirkle-legal-cells.png").await;
        // An open cell that is not marked is refused at once, with the reason.
        let open: Vec<_> = c
            .find_all(Locator::Css(".qcell.open:not(.legal)"))
            .await
            .unwrap();
        if let Some(cell) = open.first() {
            cell.click().await.unwrap();
            wait_js(
                &c,
                "document.querySelector('#status').textContent.includes('cannot go')",
                "the refusal",
                10,
            )
            .await;
            assert!(
                c.find(Locator::Css(".qtile.pending")).await.is_err(),
                "nothing was placed"
            );
        }
        // A hint (issue 29: it threw a ReferenceError, wiped the board and blocked play):
        // the box names the move, the board is still drawn, and play goes on.
        ask_hint(&c).await;
        let board_cells = c.find_all(Locator::Css("#qboard .qcell")).await.unwrap();
        assert!(board_cells.len() > 9, "the board survives the hint");
        // Tile 0 selected again if the hint's redraw let it go, then its cells are marked.
        if c.find(Locator::Css(".hand .qtile.sel[data-slot='0']"))
            .await
            .is_err()
        {
            click(&c, ".hand .qtile[data-slot='0']").await;
        }
        wait_js(
            &c,
            "document.querySelector('.qcell.legal')",
            "the marked cells after the hint",
            10,
        )
        .await;
        // A marked cell takes the tile; the pending placement's score shows before Confirm.
        let (x, y) = marked[0];
        click(&c, &format!(".qcell.legal[data-x='{x}'][data-y='{y}']")).await;
        wait_js(
            &c,
            "document.querySelector('.qtile.pending')",
            "the pending tile",
            10,
        )
        .await;
        let pending = text_of(&c, "#pending-score").await;
        let single = snap["legal"].as_array().unwrap().iter().find(|a| {
            let cells = a["json"]["cells"].as_array();
            cells.is_some_and(|v| {
                v.len() == 1 && v[0]["x"] == x && v[0]["y"] == y && v[0]["tile"] == hand[0].as_str()
            })
        });
        match single {
            Some(a) => assert_eq!(
                pending,
                format!("this placement scores {} points", a["json"]["points"])
            ),
            None => assert!(
                pending.starts_with("not yet a legal placement"),
                "{pending}"
            ),
        }
        screenshot(&c, "qwirkle-pending-score.png").await;
        c.close().await.unwrap();
    });
}

#[test]
fn pages_fit_a_phone_and_tiles_read_without_colour() {
    browser_test(async {
        let (addr, _app) = start_server().await;
        let c = open_browser("phone").await;
        c.set_window_size(390, 844).await.unwrap();
        let fits = "document.documentElement.scrollWidth <= window.innerWidth";
        // Azul: the setup, then a game against level 1 (quick).
        open_setup(&c, addr, "/azul?fast").await;
        let width = js(&c, "return window.innerWidth").await.as_i64().unwrap();
        assert!(width <= 400, "the window is {width} px wide");
        assert_eq!(
            js(&c, &format!("return {fits}")).await,
            true,
            "the Azul setup scrolls sideways"
        );
        js(&c, "const s = document.querySelector('#seat1-type'); s.value = 'ai:level:1'; s.dispatchEvent(new Event('change'));").await;
        click(&c, "#start").await;
        wait_js(
            &c,
            "document.querySelector('#board .tile.pick')",
            "the phone game",
            60,
        )
        .await;
        assert_eq!(
            js(&c, &format!("return {fits}")).await,
            true,
            "the Azul game scrolls sideways"
        );
        // Every control is within the screen's width.
        let outside = js(&c, "return [...document.querySelectorAll('button, select, .tile.pick')].filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > window.innerWidth).length").await;
        assert_eq!(outside, 0, "controls beyond the right edge");
        // Tiles carry their letter; a placed white wall tile is solid, an empty cell faint.
        let letters = js(&c, "return [...document.querySelectorAll('#board .factory .tile')].every((t) => t.textContent === t.dataset.colour)").await;
        assert_eq!(letters, true);
        let look = js(&c, "const a = azulTile('W', 'placed'), b = azulTile('W', 'ghost'); document.body.append(a, b); const r = [getComputedStyle(a).opacity, getComputedStyle(b).opacity, getComputedStyle(a).borderTopStyle, getComputedStyle(b).borderTopStyle]; a.remove(); b.remove(); return r;").await;
        assert_eq!(look, json!(["1", "0.3", "solid", "dashed"]));
        screenshot(&c, "phone-azul.png").await;
        for page in ["qwirkle", "tiles", "replay"] {
            c.goto(&format!("http://{addr}/{page}")).await.unwrap();
            tokio::time::sleep(Duration::from_millis(400)).await;
            assert_eq!(
                js(&c, &format!("return {fits}")).await,
                true,
                "{page} scrolls sideways"
            );
            screenshot(&c, &format!("phone-{page}.png")).await;
        }
        // Your own tiles level: a bad one is explained, a good one is played.
        c.goto(&format!("http://{addr}/tiles")).await.unwrap();
        c.wait().for_element(Locator::Css("#tgrid")).await.unwrap();
        c.find(Locator::Css("#own-text"))
            .await
            .unwrap()
            .send_keys("level mine\n#..p\n#.X#\n")
            .await
            .unwrap();
        click(&c, "#own-load").await;
        wait_js(
            &c,
            "document.querySelector('#own-error').textContent.length > 0",
            "the level error",
            10,
        )
        .await;
        let err = text_of(&c, "#own-error").await;
        // The player reads about their level's lines and columns, not the API's fields.
        assert!(err.starts_with("your level, line "), "{err}");
        assert!(!err.contains("level_text"), "{err}");
        js(&c, "document.querySelector('#own-text').value = ''").await;
        c.find(Locator::Css("#own-text"))
            .await
            .unwrap()
            .send_keys("level mine size 4x4\n#..p\n#..#\n.R.r\n..#P\n")
            .await
            .unwrap();
        click(&c, "#own-load").await;
        wait_js(&c, "document.querySelector('#own-error').textContent === '' && document.querySelector('#optimal').textContent === '5'", "the own level", 20).await;
        screenshot(&c, "tiles-own-level.png").await;
        c.close().await.unwrap();
    });
}

#[test]
fn an_ai_only_game_can_be_paused_and_resumed() {
    browser_test(async {
        let (addr, _app) = start_server().await;
        let c = open_browser("pause").await;
        // At the normal pace (about a second per AI move), not `?fast`.
        open_setup(&c, addr, "/azul").await;
        for seat in 0..2 {
            js(&c, &format!("const s = document.querySelector('#seat{seat}-type'); s.value = 'ai:level:1'; s.dispatchEvent(new Event('change'));")).await;
        }
        // Faster play (the speed setting) still leaves time to pause mid-game.
        js(&c, "const s = document.querySelector('#speed'); s.value = '2'; s.dispatchEvent(new Event('change'));").await;
        click(&c, "#start").await;
        wait_js(&c, "document.querySelector('#pause').style.display !== 'none' && document.querySelectorAll('#log .log-entry').length >= 1", "the first AI move", 30).await;
        click(&c, "#pause").await;
        assert_eq!(text_of(&c, "#pause").await, "Resume");
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let paused = c
            .find_all(Locator::Css("#log .log-entry"))
            .await
            .unwrap()
            .len();
        tokio::time::sleep(Duration::from_millis(2000)).await;
        let still = c
            .find_all(Locator::Css("#log .log-entry"))
            .await
            .unwrap()
            .len();
        assert_eq!(paused, still, "the log grew while paused");
        screenshot(&c, "azul-paused.png").await;
        click(&c, "#pause").await;
        wait_js(
            &c,
            &format!("document.querySelectorAll('#log .log-entry').length > {still}"),
            "play after resume",
            30,
        )
        .await;
        c.close().await.unwrap();
    });
}

fn tempfile_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-browser-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Plays the tournament `params` into a new results file of its own and returns its path.
fn stored_run(name: &str, params: RunParams) -> PathBuf {
    let path = tempfile_dir(name).join("results.sqlite");
    common::play_into(&path, &params);
    path
}

#[test]
fn the_results_page_shows_a_stored_tournament() {
    let path = stored_run(
        "results",
        RunParams::new("nim", &["first", "random"], 2, 10, 2, 7),
    );
    browser_test(async {
        let (addr, _app) = start_results_server(&path).await;
        let c = open_browser("results").await;
        c.goto(&format!("http://{addr}/results")).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while !text_of(&c, "#detail pre").await.contains("random") {
            assert!(Instant::now() < deadline, "the run's table did not appear");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let runs = text_of(&c, "#runs").await;
        assert!(runs.contains("nim"), "{runs}");
        assert!(runs.contains("first, random"), "{runs}");
        assert!(runs.contains("20/20"), "{runs}");
        assert!(text_of(&c, "#detail h2").await.starts_with("Run 1"));
        // The win-rate chart is inline SVG (issue 15).
        let chart = text_of(&c, "#detail .charts").await;
        assert!(
            chart.contains("Win rate with 95% Wilson interval"),
            "{chart}"
        );
        screenshot(&c, "results-page.png").await;
        // A run the database does not hold is said so, not replaced by another run.
        c.goto(&format!("http://{addr}/results?run=99"))
            .await
            .unwrap();
        wait_js(
            &c,
            "document.querySelector('#status').textContent.includes('no run 99')",
            "the missing run's message",
            10,
        )
        .await;
        assert!(
            c.find(Locator::Css("#detail h2")).await.is_err(),
            "no other run is shown"
        );
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_stored_game_opens_on_the_replay_page_by_url_and_the_results_page_links_every_game() {
    let path = stored_run(
        "stored",
        RunParams::new("azul", &["random", "greedy"], 2, 2, 2, 11),
    );
    let stored = Store::open_read(&path).unwrap().games(1).unwrap();
    assert_eq!(stored.len(), 4);
    let game = &stored[1];
    let record: Value = serde_json::from_str(&game.game.record).unwrap();
    let steps = record["events"].as_array().unwrap().len();
    let scores: Vec<String> = game.game.scores.iter().map(|s| s.to_string()).collect();
    browser_test(async {
        let (addr, _app) = start_results_server(&path).await;
        let c = open_browser("stored").await;
        let wait_for_step0 = |c: Client| async move {
            let deadline = Instant::now() + Duration::from_secs(20);
            while !text_of(&c, "#stepinfo").await.starts_with("step 0 /") {
                assert!(
                    Instant::now() < deadline,
                    "the stored game did not load: {}",
                    text_of(&c, "#status").await
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        // By URL: the replay page fetches game 1:1 from the server's database.
        c.goto(&format!("http://{addr}/replay?game=1:1"))
            .await
            .unwrap();
        wait_for_step0(c.clone()).await;
        assert!(text_of(&c, "#source").await.starts_with("Stored game 1:1"));
        // Step through every event to the end with the ▶ button.
        for i in 1..=steps {
            click(&c, "#next").await;
            let info = text_of(&c, "#stepinfo").await;
            assert!(info.starts_with(&format!("step {i} / {steps} ·")), "{info}");
        }
        assert_eq!(
            text_of(&c, "#stepinfo").await,
            format!("step {steps} / {steps} · scores {}", scores.join(" : "))
        );
        screenshot(&c, "replay-stored-last-step.png").await;
        // A bad id is reported on the page.
        c.goto(&format!("http://{addr}/replay?game=1:99"))
            .await
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while !text_of(&c, "#status")
            .await
            .contains("has no stored game 99")
        {
            assert!(
                Instant::now() < deadline,
                "{}",
                text_of(&c, "#status").await
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }

        // The results page lists every game of the run under its pairing, each a link.
        c.goto(&format!("http://{addr}/results")).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while c.find(Locator::Css("#games summary")).await.is_err() {
            assert!(Instant::now() < deadline, "the run's games did not appear");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let summary = text_of(&c, "#games summary").await;
        assert_eq!(summary, "random vs greedy: 4 games");
        click(&c, "#games summary").await;
        let links = c
            .find_all(Locator::Css("#games a.game-link"))
            .await
            .unwrap();
        let mut hrefs = Vec::new();
        for l in &links {
            hrefs.push(l.attr("href").await.unwrap().unwrap_or_default());
        }
        assert_eq!(
            hrefs,
            [
                "replay?game=1%3A0",
                "replay?game=1%3A1",
                "replay?game=1%3A2",
                "replay?game=1%3A3"
            ]
        );
        screenshot(&c, "results-games.png").await;
        // Following a link opens that game.
        links[1].clone().click().await.unwrap();
        wait_for_step0(c.clone()).await;
        assert!(
            text_of(&c, "#stepinfo")
                .await
                .starts_with(&format!("step 0 / {steps} ·"))
        );
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

// ---- results site (issue 15) ----

/// The texts of a column of a table on the page.
async fn column(c: &Client, table: &str, col: usize) -> Vec<String> {
    let cells = c
        .find_all(Locator::Css(&format!(
            "{table} tbody tr td:nth-child({col})"
        )))
        .await
        .unwrap();
    let mut out = Vec::new();
    for td in cells {
        out.push(td.text().await.unwrap_or_default());
    }
    out
}

async fn wait_for_css(c: &Client, css: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while c.find(Locator::Css(css)).await.is_err() {
        assert!(
            Instant::now() < deadline,
            "{css} did not appear: {}",
            text_of(c, "#status").await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn the_results_site_shows_sortable_tables_charts_and_game_links_within_1280_pixels() {
    // A round robin with long agent names: pairs, ratings and the LOS matrix.
    let path = stored_run(
        "results-site",
        RunParams::new("nim", &["first", "random", "sleepy:ms=0"], 2, 20, 2, 5),
    );
    browser_test(async {
        let (addr, _app) = start_results_server(&path).await;
        let c = open_browser("results-site").await;
        c.set_window_size(1280, 900).await.unwrap();
        c.goto(&format!("http://{addr}/results")).await.unwrap();
        wait_for_css(&c, "#los-table").await;
        // Every table is there and complete.
        assert_eq!(
            column(&c, "#agents-table", 1).await,
            ["first", "random", "sleepy:ms=0"]
        );
        assert_eq!(
            column(&c, "#pairs-table", 1).await,
            [
                "first vs random",
                "first vs sleepy:ms=0",
                "random vs sleepy:ms=0"
            ]
        );
        let pairs = column(&c, "#pairs-table", 2).await;
        assert_eq!(pairs, ["20", "20", "20"], "10 deals per series, 2 series");
        let heads = c
            .find_all(Locator::Css("#pairs-table thead th"))
            .await
            .unwrap();
        assert_eq!(heads.len(), 14);
        assert_eq!(column(&c, "#ratings-table", 1).await.len(), 3);
        assert_eq!(column(&c, "#los-table", 1).await.len(), 3);
        // 3 tables × (2 series + all).
        assert_eq!(column(&c, "#series-table", 1).await.len(), 9);
        let anchor = text_of(&c, "#detail").await;
        assert!(anchor.contains("Ratings, anchor random = 0"), "{anchor}");
        // Charts: inline SVG, Elo with error bars and win rates.
        let svgs = c
            .find_all(Locator::Css("#detail .charts svg"))
            .await
            .unwrap();
        assert_eq!(svgs.len(), 2);
        assert!(
            c.find(Locator::Css("#detail .charts svg.elo-chart circle"))
                .await
                .is_ok()
        );
        // Nothing is cut off at 1280 pixels.
        let width = c
            .execute("return document.documentElement.scrollWidth", vec![])
            .await
            .unwrap();
        assert!(width.as_u64().unwrap() <= 1280, "page is {width} px wide");
        screenshot(&c, "results-site.png").await;
        // Sorting: a click on "win rate" sorts ascending, a second click descending.
        let rate = |v: &Vec<String>| -> Vec<f64> {
            v.iter()
                .map(|t| t.trim_end_matches('%').parse::<f64>().unwrap())
                .collect()
        };
        click(&c, "#agents-table thead th:nth-child(6)").await;
        let up = rate(&column(&c, "#agents-table", 6).await);
        assert!(up.windows(2).all(|w| w[0] <= w[1]), "{up:?}");
        click(&c, "#agents-table thead th:nth-child(6)").await;
        let down = rate(&column(&c, "#agents-table", 6).await);
        assert!(down.windows(2).all(|w| w[0] >= w[1]), "{down:?}");
        let mut back = down.clone();
        back.reverse();
        assert_eq!(back, up);
        // Text columns sort too: agents by name, descending on the second click.
        click(&c, "#agents-table thead th:nth-child(1)").await;
        click(&c, "#agents-table thead th:nth-child(1)").await;
        assert_eq!(
            column(&c, "#agents-table", 1).await,
            ["sleepy:ms=0", "random", "first"]
        );
        // A game link opens the game on the replay page.
        click(&c, "#games details[data-table='1'] summary").await;
        wait_for_css(&c, "#games-table-1 a.game-link").await;
        let link = c
            .find(Locator::Css("#games-table-1 a.game-link"))
            .await
            .unwrap();
        let href = link.attr("href").await.unwrap().unwrap_or_default();
        assert_eq!(href, "replay?game=1%3A40");
        link.click().await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while !text_of(&c, "#stepinfo").await.starts_with("step 0 /") {
            assert!(
                Instant::now() < deadline,
                "{}",
                text_of(&c, "#status").await
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(text_of(&c, "#source").await.starts_with("Stored game 1:40"));
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_running_tournament_page_updates_itself_and_shows_the_sprt() {
    use tessera_arena::{games as arena_games, runner};
    let dir = tempfile_dir("results-live");
    let path = dir.join("results.sqlite");
    let mut params = RunParams::new("nim", &["first", "sleepy:ms=15"], 2, 60, 1, 3);
    params.sprt = Some(tessera_arena::schedule::parse_sprt("elo0=-400,elo1=400").unwrap());
    // The run is created before the page opens; its games are played once the page shows it.
    let store = Store::open(&path).unwrap();
    let run_id = store
        .create_run(&params, tessera_arena::schedule::Shard::ALL, 60)
        .unwrap()
        .id;
    drop(store);
    let (go, wait) = std::sync::mpsc::channel::<()>();
    let player = {
        let path = path.clone();
        let params = params.clone();
        std::thread::spawn(move || {
            let _ = wait.recv();
            let mut store = Store::open(&path).unwrap();
            let driver = arena_games::driver("nim").unwrap();
            let opts = runner::RunOptions {
                jobs: 1,
                resume: true,
                ..runner::RunOptions::default()
            };
            runner::run_tournament(driver.as_ref(), &params, &mut store, &opts, &mut ()).unwrap()
        })
    };
    browser_test(async {
        let (addr, _app) = start_results_server(&path).await;
        let c = open_browser("results-live").await;
        c.goto(&format!("http://{addr}/results?run={run_id}"))
            .await
            .unwrap();
        wait_for_css(&c, "#runstate").await;
        let first = text_of(&c, "#runstate").await;
        assert!(first.contains("running"), "{first}");
        assert!(text_of(&c, "#sprt").await.contains("undecided"));
        go.send(()).unwrap();
        // Without reloading, the page follows the run to its end.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let now = text_of(&c, "#runstate").await;
            if now.contains("finished") {
                break;
            }
            assert!(Instant::now() < deadline, "the page did not update: {now}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let sprt = text_of(&c, "#sprt").await;
        // Decided, or undecided after the 60-game maximum: either way counted from pairs.
        assert!(
            sprt.contains("LLR") && !sprt.contains("after 0 pairs"),
            "{sprt}"
        );
        screenshot(&c, "results-live.png").await;
        c.close().await.unwrap();
    });
    let report = player.join().unwrap();
    assert!(report.analysis.sprt.is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The actions played so far in game `id`, as the server has them.
fn actions_played(app: &App, id: &str) -> Vec<(u64, String)> {
    let s = whole_snapshot(app, id);
    s["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|st| st["type"] == "action")
        .map(|st| {
            (
                st["player"].as_u64().unwrap(),
                st["action"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Plays one Azul move by clicking in `c` (a pickable tile, then a lit line or the floor),
/// once the page offers one; waits until the server has it.
async fn click_azul_move(c: &Client, app: &App, id: &str, who: &str) {
    let before = actions_played(app, id).len();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if Instant::now() > deadline {
            screenshot(c, &format!("stuck-{}.png", who.replace(' ', "-"))).await;
            let page = c
                .execute(
                    "return JSON.stringify({seat: AzulPage.snap.seat, legal: (AzulPage.snap.legal || []).length, \
                     mine: AzulPage.mine, waiting: AzulPage.snap.waiting_for, tokens: Seats.tokens(AzulPage.snap.id)});",
                    vec![],
                )
                .await;
            panic!(
                "{who} never got to move after {:?}; status: {}; page: {page:?}",
                actions_played(app, id),
                text_of(c, "#status").await
            );
        }
        if let Ok(b) = c.find(Locator::Css("#continue")).await {
            let _ = b.click().await;
        }
        if actions_played(app, id).len() > before {
            return;
        }
        let picks = c
            .find_all(Locator::Css(".tile.pick"))
            .await
            .unwrap_or_default();
        if let Some(p) = picks.first()
            && p.click()
                .await
                .map_err(|e| eprintln!("{who}: clicking a tile: {e}"))
                .is_ok()
            && let Some(t) = c
                .find_all(Locator::Css(".pline.target, .floor.target"))
                .await
                .unwrap_or_default()
                .first()
        {
            if let Err(e) = t.click().await {
                eprintln!("{who}: clicking a line: {e}");
            }
        } else {
            eprintln!("{who}: {} tiles to pick", picks.len());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[test]
fn two_people_play_azul_through_an_invite_link_with_a_reload_and_a_second_tab() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let (ann, bob) = (open_browser("ann").await, open_browser("bob").await);
        open_setup(&ann, addr, "/azul?fast").await;
        // Seat 2 is a free seat for a friend.
        js(
            &ann,
            "const s = document.querySelector('#seat1-type'); s.value = 'open'; \
             s.dispatchEvent(new Event('change')); return true;",
        )
        .await;
        type_into(&ann, "#seed", "7").await;
        click(&ann, "#start").await;
        wait_js(
            &ann,
            "document.querySelector('#invite-1')",
            "the invite link",
            20,
        )
        .await;
        let invite = js(&ann, "return document.querySelector('#invite-1').value")
            .await
            .as_str()
            .unwrap()
            .to_string();
        let id = app.sessions.list()[0]["id"].as_str().unwrap().to_string();
        assert!(
            invite.contains(&format!("/azul?game={id}#token=")),
            "{invite}"
        );
        // The game's address is in Ann's address bar.
        let url = ann.current_url().await.unwrap();
        assert!(url.as_str().ends_with(&format!("/azul?game={id}")), "{url}");
        screenshot(&ann, "online-invite.png").await;

        // Seat 2 stays free (in the lobby) until Bob comes.
        click_azul_move(&ann, &app, &id, "Ann").await;
        assert_eq!(app.sessions.lobby().len(), 1, "seat 2 is still free");
        // Bob opens the invite link: he plays seat 2, and the token leaves his address bar.
        bob.goto(&invite.replace("/azul?", "/azul?fast&"))
            .await
            .unwrap();
        wait_js(
            &bob,
            "document.querySelector('#game') && document.querySelector('#game').style.display === ''",
            "Bob's game",
            20,
        )
        .await;
        let bob_url = bob.current_url().await.unwrap();
        assert!(bob_url.fragment().is_none(), "{bob_url}");
        wait_js(
            &bob,
            "document.querySelector('.tile.pick')",
            "Bob's turn",
            20,
        )
        .await;
        assert!(
            ann.find_all(Locator::Css(".tile.pick"))
                .await
                .unwrap()
                .is_empty(),
            "Ann cannot move for Bob"
        );
        click_azul_move(&bob, &app, &id, "Bob").await;
        click_azul_move(&ann, &app, &id, "Ann").await;
        // Bob reloads in the middle of the game: the same game, still his seat.
        bob.refresh().await.unwrap();
        click_azul_move(&bob, &app, &id, "Bob after a reload").await;
        // Ann opens the game in a second tab: the same state, and she plays from there.
        let first = ann.window().await.unwrap();
        let tab = ann.new_window(true).await.unwrap();
        ann.switch_to_window(tab.handle).await.unwrap();
        ann.goto(&format!("http://{addr}/azul?fast&game={id}"))
            .await
            .unwrap();
        click_azul_move(&ann, &app, &id, "Ann in a second tab").await;
        screenshot(&ann, "online-second-tab.png").await;
        ann.close_window().await.unwrap();
        ann.switch_to_window(first).await.unwrap();
        click_azul_move(&bob, &app, &id, "Bob").await;
        // Back in the first tab, Ann sees the moves made elsewhere and plays on.
        click_azul_move(&ann, &app, &id, "Ann in the first tab").await;
        let played = actions_played(&app, &id);
        assert_eq!(played.len(), 7);
        let seats: Vec<u64> = played.iter().map(|(p, _)| *p).collect();
        assert_eq!(seats, vec![0, 1, 0, 1, 0, 1, 0], "the seats alternate");
        // Both pages show the server's move log, one entry per move.
        wait_js(
            &bob,
            "document.querySelectorAll('#log .log-entry').length >= 7",
            "Bob's log",
            20,
        )
        .await;
        // The record names both players, and undo is not offered between people.
        let rec = app.sessions.get(&id).unwrap().record().unwrap();
        assert_eq!(rec["seats"][0], "human:Player 1");
        assert_eq!(
            js(&bob, "return document.querySelector('#undo').style.display").await,
            "none"
        );
        screenshot(&bob, "online-bob.png").await;
        // On to the end of the game, each person on their own page.
        play_to_the_end(&[&ann, &bob], &app, &id).await;
        let shown = final_scores_shown(&ann).await;
        assert_eq!(shown, final_scores_shown(&bob).await, "both pages agree");
        screenshot(&bob, "online-final-bob.png").await;
        // The record the server serves is the whole game: it replays, by the rules, to the
        // final state and scores both pages show, with every move played.
        let served = js(
            &bob,
            &format!("return fetch('/api/games/{id}/record').then((r) => r.json());"),
        )
        .await;
        assert_whole_game(&served, &shown, actions_played(&app, &id).len());
        ann.close().await.unwrap();
        bob.close().await.unwrap();
    });
}

/// The game's public snapshot, as a spectator gets it.
fn public_snapshot(app: &App, id: &str) -> Value {
    app.sessions
        .get(id)
        .unwrap()
        .snapshot(&Default::default(), &Credentials::none())
        .unwrap()
}

/// The id of the server's only game.
fn only_game(app: &App) -> String {
    let games = app.sessions.list();
    assert_eq!(games.len(), 1, "one game: {games:?}");
    games[0]["id"].as_str().unwrap().to_string()
}

/// Plays Azul game `id` to its end by clicking: each move on the page of the seat to move
/// (`pages[seat]`; `None` for an AI seat, which the server plays).
async fn play_to_the_end(pages: &[&Client], app: &App, id: &str) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "the game did not finish");
        let snap = public_snapshot(app, id);
        if snap["status"] == "finished" {
            return;
        }
        match snap["to_move"].as_u64().and_then(|p| pages.get(p as usize)) {
            Some(page) => {
                click_azul_move(page, app, id, &format!("seat {}", snap["to_move"])).await
            }
            None => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// The final scores on a finished Azul page (clicking on through a round summary), seat 0
/// first.
async fn final_scores_shown(c: &Client) -> Vec<i64> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while c.find(Locator::Css("#final-scores")).await.is_err() {
        assert!(Instant::now() < deadline, "no final result on the page");
        if let Ok(b) = c.find(Locator::Css("#continue")).await {
            let _ = b.click().await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut shown = Vec::new();
    for e in c
        .find_all(Locator::Css("#final-scores .final-score"))
        .await
        .unwrap()
    {
        shown.push(e.text().await.unwrap().parse::<i64>().unwrap());
    }
    shown
}

/// `record` is a whole Azul game: it replays by the rules to a finished state whose scores
/// are `scores`, its result says the same, and it holds `actions` actions.
fn assert_whole_game(record: &Value, scores: &[i64], actions: usize) {
    let rec: tessera_core::record::GameRecord<<AzulState as tessera_core::Game>::Chance> =
        serde_json::from_value(record.clone()).expect("a game record");
    let end: AzulState = tessera_core::record::replay(&rec).expect("the record replays");
    assert_eq!(tessera_core::Game::turn(&end), tessera_core::Turn::Terminal);
    let end_scores: Vec<i64> = tessera_core::Game::scores(&end)
        .as_slice()
        .iter()
        .map(|&s| i64::from(s))
        .collect();
    assert_eq!(end_scores, scores, "the replayed final scores");
    let result: Vec<i64> = rec
        .result
        .expect("a result")
        .scores
        .as_slice()
        .iter()
        .map(|&s| i64::from(s))
        .collect();
    assert_eq!(result, scores, "the record's result");
    let played = rec
        .events
        .iter()
        .filter(|e| matches!(e, tessera_core::record::Event::Action { .. }))
        .count();
    assert_eq!(played, actions, "every move is in the record");
}

/// Waits until page `c` shows a game's board (rather than the setup).
async fn wait_for_game_page(c: &Client, who: &str) {
    wait_js(
        c,
        "document.querySelector('#game') && document.querySelector('#game').style.display === ''",
        who,
        20,
    )
    .await;
}

/// Waits (up to 20 s) until the server holds `n` games.
async fn wait_for_games(app: &App, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while app.sessions.list().len() < n {
        assert!(Instant::now() < deadline, "{n} games were not started");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn a_double_click_on_start_makes_one_game_and_on_undo_takes_back_one_move() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("double-click").await;
        open_setup(&c, addr, "/azul?fast").await;
        set_seat(&c, 1, "ai:level:1").await;
        type_into(&c, "#seed", "7").await;
        // Two clicks on Start as fast as the page takes them, then a double-click event.
        js(
            &c,
            "const b = document.querySelector('#start'); b.click(); b.click(); \
             b.dispatchEvent(new MouseEvent('dblclick', { bubbles: true })); return true;",
        )
        .await;
        wait_js(
            &c,
            "document.querySelector('#board .tile.pick')",
            "the person's turn",
            60,
        )
        .await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let id = only_game(&app);
        assert_eq!(js(&c, "return AzulPage.snap.id").await, id.as_str());
        // Two moves of the person's, each answered by the AI.
        click_azul_move(&c, &app, &id, "the person").await;
        click_azul_move(&c, &app, &id, "the person").await;
        wait_js(
            &c,
            "document.querySelector('#board .tile.pick') && document.querySelector('#undo').style.display !== 'none'",
            "the AI's reply and the undo button",
            60,
        )
        .await;
        let before = actions_played(&app, &id);
        let last_own = before
            .iter()
            .rposition(|(p, _)| *p == 0)
            .expect("the person moved");
        assert!(
            before[..last_own].iter().any(|(p, _)| *p == 0),
            "two moves of the person's: {before:?}"
        );
        // A double click on Undo takes back the person's last move (and the AI's reply) only.
        js(
            &c,
            "const b = document.querySelector('#undo'); b.click(); b.click(); \
             b.dispatchEvent(new MouseEvent('dblclick', { bubbles: true })); return true;",
        )
        .await;
        wait_js(
            &c,
            "[...document.querySelectorAll('#log .log-note')].some((n) => n.textContent.includes('took a move back'))",
            "the undo",
            20,
        )
        .await;
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(
            actions_played(&app, &id),
            before[..last_own].to_vec(),
            "one move taken back"
        );
        let undos = js(
            &c,
            "return [...document.querySelectorAll('#log .log-note')].filter((n) => n.textContent.includes('took a move back')).length",
        )
        .await;
        assert_eq!(undos, 1, "the log notes one undo");
        let record = app.sessions.get(&id).unwrap().record().unwrap();
        let undo_count = record["assists"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["kind"] == "undo")
            .count();
        assert_eq!(undo_count, 1, "the record holds one undo");
        assert_eq!(app.sessions.list().len(), 1, "still one game");
        c.close().await.unwrap();
    });
}

#[test]
fn a_table_with_a_free_seat_is_joined_from_the_lobby_and_played() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let (ann, bob) = (
            open_browser("lobby-ann").await,
            open_browser("lobby-bob").await,
        );
        open_setup(&ann, addr, "/azul?fast").await;
        set_seat(&ann, 1, "open").await;
        type_into(&ann, "#seed", "7").await;
        click(&ann, "#start").await;
        wait_for_games(&app, 1).await;
        let id = only_game(&app);
        // Bob, on another device, finds the table on the home page and joins with his name.
        bob.goto(&format!("http://{addr}/")).await.unwrap();
        let join = format!(".lobby-game[data-game='{id}'] .join");
        wait_js(
            &bob,
            &format!("document.querySelector(\"{join}\")"),
            "the open table in the lobby",
            20,
        )
        .await;
        let listed = text_of(&bob, "#lobby").await;
        assert!(listed.contains("free seat"), "{listed}");
        type_into(
            &bob,
            &format!(".lobby-game[data-game='{id}'] .join-name"),
            "Bob",
        )
        .await;
        click(&bob, &join).await;
        wait_for_game_page(&bob, "Bob's game").await;
        let url = bob.current_url().await.unwrap();
        assert!(url.as_str().contains(&format!("/azul?game={id}")), "{url}");
        assert_eq!(app.sessions.list()[0]["seats"][1], "Bob");
        assert!(app.sessions.lobby().is_empty(), "the seat is taken");
        // Both play from their own pages; Bob's moves are his seat's.
        let deadline = Instant::now() + Duration::from_secs(60);
        while actions_played(&app, &id).len() < 4 {
            assert!(Instant::now() < deadline, "the game did not go on");
            let to_move = public_snapshot(&app, &id)["to_move"].as_u64();
            let (page, who) = if to_move == Some(1) {
                (&bob, "Bob")
            } else {
                (&ann, "Ann")
            };
            click_azul_move(page, &app, &id, who).await;
        }
        let seats: Vec<u64> = actions_played(&app, &id).iter().map(|(p, _)| *p).collect();
        assert!(seats.contains(&1), "Bob played: {seats:?}");
        // Bob's page shows his name on the board.
        let board = text_of(&bob, "#board").await;
        assert!(board.contains("Bob"), "{board}");
        screenshot(&bob, "online-lobby-joined.png").await;
        ann.close().await.unwrap();
        bob.close().await.unwrap();
    });
}

// ---- the table, finished: player-facing words, final result, rematch, preview, phone ----

/// Strings that belong to `tessera agents`, the docs and the API, never to a player's screen.
const INTERNAL: &[&str] = &[
    "thesis",
    "blog",
    "the seed's",
    "augur:",
    "nodes=",
    "blunder=",
    "weights=",
    "human:",
    "(parameters",
    "level_text",
    "admissible (admissible)",
];

/// What a player can read on the page: its visible text and every tooltip.
async fn player_text(c: &Client) -> String {
    js(
        c,
        "return document.body.innerText + '\\n' + [...document.querySelectorAll('[title]')].map((e) => e.getAttribute('title')).join('\\n');",
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

async fn assert_plain(c: &Client, page: &str) {
    let text = player_text(c).await;
    assert!(text.len() > 40, "{page}: no text read: {text}");
    for w in INTERNAL {
        assert!(!text.contains(w), "{page} shows '{w}' to players:\n{text}");
    }
}

async fn set_seat(c: &Client, seat: usize, value: &str) {
    js(
        c,
        &format!("const s = document.querySelector('#seat{seat}-type'); s.value = '{value}'; s.dispatchEvent(new Event('change'));"),
    )
    .await;
}

/// Whether the element is displayed and wholly inside the window.
async fn in_view(c: &Client, css: &str) -> bool {
    js(
        c,
        &format!(
            "const e = document.querySelector('{css}'); \
             if (!e || getComputedStyle(e).display === 'none' || !e.getClientRects().length) return false; \
             const r = e.getBoundingClientRect(); \
             return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;"
        ),
    )
    .await
        == Value::Bool(true)
}

#[test]
fn azul_final_result_in_view_with_breakdown_play_again_and_plain_words() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("azul-final").await;
        c.set_window_size(1280, 900).await.unwrap();
        open_setup(&c, addr, "/azul?fast").await;
        // The setup: levels by name with plain summaries, nothing from the registry's listing.
        assert_plain(&c, "the Azul setup").await;
        let options = js(&c, "return [...document.querySelectorAll('#seat1-type option')].map((o) => o.textContent).join('|')").await;
        assert!(
            options.as_str().unwrap().contains("Level 9 · master"),
            "{options}"
        );
        // Two AI seats (quick): a whole game, then the final result.
        set_seat(&c, 0, "ai:level:1").await;
        set_seat(&c, 1, "ai:level:2").await;
        click(&c, "#start").await;
        wait_js(
            &c,
            "document.querySelector('#final-scores')",
            "the final result",
            240,
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        screenshot(&c, "azul-final-1280.png").await;
        assert!(
            in_view(&c, "#final-scores").await,
            "the final scores are below the fold"
        );
        assert!(
            in_view(&c, "#rematch").await,
            "Play again is below the fold"
        );
        assert!(
            c.find(Locator::Css("#last-round .round-report"))
                .await
                .is_ok(),
            "the last round's summary"
        );
        assert_plain(&c, "the finished Azul board").await;
        // The breakdown adds up to the server's final scores, and its bonus counts are the
        // walls' complete rows, columns and colours.
        let id = app.sessions.list()[0]["id"].as_str().unwrap().to_string();
        let snap = public_snapshot(&app, &id);
        assert_eq!(snap["status"], "finished");
        let rows = js(&c, "return [...document.querySelectorAll('#final-scores tr[data-seat]')].map((tr) => [...tr.children].map((td) => td.textContent))").await;
        let rows = rows.as_array().unwrap();
        assert_eq!(rows.len(), 2);
        let count = |s: &str| -> i64 { s.split(" × ").next().unwrap().trim().parse().unwrap() };
        for (p, row) in rows.iter().enumerate() {
            let cells: Vec<&str> = row
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            let wall = &snap["view"]["boards"][p]["wall"];
            let filled = |r: usize, col: usize| wall[r][col].as_bool().unwrap();
            let full_rows = (0..5).filter(|&r| (0..5).all(|col| filled(r, col))).count() as i64;
            let full_cols = (0..5).filter(|&col| (0..5).all(|r| filled(r, col))).count() as i64;
            assert_eq!(
                (count(cells[2]), count(cells[3])),
                (full_rows, full_cols),
                "{cells:?}"
            );
            let before: i64 = cells[1].parse().unwrap();
            let total = before + 2 * count(cells[2]) + 7 * count(cells[3]) + 10 * count(cells[4]);
            assert_eq!(
                total,
                snap["outcome"]["scores"][p].as_i64().unwrap(),
                "{cells:?}"
            );
            assert_eq!(cells[6].parse::<i64>().unwrap(), total);
        }
        // Play again: a new game with the same seats and levels.
        click(&c, "#rematch").await;
        let deadline = Instant::now() + Duration::from_secs(30);
        while app.sessions.list().len() < 2 {
            assert!(Instant::now() < deadline, "Play again started no game");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let games = app.sessions.list();
        let seats: Vec<&Value> = games.iter().map(|g| &g["seats"]).collect();
        assert_eq!(seats[0], seats[1], "the rematch keeps the seats");
        assert_eq!(seats[0][0], "Level 1 · beginner");
        wait_js(
            &c,
            "document.querySelector('#board .board')",
            "the rematch's board",
            30,
        )
        .await;
        // The replay of the first game names its seats by level, not by specification.
        let record = app.sessions.get(&id).unwrap().record().unwrap();
        c.goto(&format!("http://{addr}/replay")).await.unwrap();
        c.wait().for_element(Locator::Css("#paste")).await.unwrap();
        js(
            &c,
            &format!(
                "document.querySelector('#paste').value = {};",
                serde_json::to_string(&record.to_string()).unwrap()
            ),
        )
        .await;
        js(&c, "document.querySelector('#load-paste').click()").await;
        wait_js(
            &c,
            "document.querySelectorAll('#log li').length > 5",
            "the replay",
            30,
        )
        .await;
        let log = text_of(&c, "#log").await;
        assert!(log.contains("Level 2 · novice (seat 2)"), "{log}");
        assert_plain(&c, "the replay").await;
        c.close().await.unwrap();
    });
}

#[test]
fn azul_on_a_phone_shows_the_ai_move_the_score_preview_and_long_names_fit() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("azul-phone-table").await;
        c.set_window_size(390, 844).await.unwrap();
        open_setup(&c, addr, "/azul?fast").await;
        // Four players: a person with a long name, two level 1 players and level 9.
        js(&c, "const s = document.querySelector('#players'); s.value = '4'; s.dispatchEvent(new Event('change'));").await;
        let name = "Alexandra Konstantinopoulou-Smythe III";
        c.find(Locator::Css("#seat0-name"))
            .await
            .expect("a name field for the person's seat")
            .send_keys(name)
            .await
            .unwrap();
        set_seat(&c, 1, "ai:level:1").await;
        set_seat(&c, 2, "ai:level:1").await;
        set_seat(&c, 3, "ai:level:9").await;
        assert_plain(&c, "the phone setup").await;
        click(&c, "#start").await;
        // The person's first turn: picking tiles shows, on every line they may go to, the
        // points the move would make at the round's end, as the server computes them.
        wait_js(
            &c,
            "document.querySelector('#board .tile.pick')",
            "the person's turn",
            120,
        )
        .await;
        let id = app.sessions.list()[0]["id"].as_str().unwrap().to_string();
        let seats = &app.sessions.list()[0]["seats"];
        assert_eq!(seats[0], name, "the name is stored in the game");
        assert_eq!(seats[3], "Level 9 · master");
        let q = tessera_web::session::ViewQuery {
            seat: Some(0),
            ..Default::default()
        };
        let creds = browser_creds(&c, &id).await;
        let snap = app.sessions.get(&id).unwrap().snapshot(&q, &creds).unwrap();
        js(&c, "document.querySelector('#board .tile.pick').click()").await;
        wait_js(
            &c,
            "document.querySelector('#board .pline.target, #board .floor.target')",
            "the targets",
            10,
        )
        .await;
        let shown = js(&c, "const t = document.querySelector('#board .tile.chosen'); const src = t.parentNode.id; \
            return { source: src === 'centre' ? 'C' : parseInt(src.split('-')[1], 10), colour: t.getAttribute('data-colour'), \
            targets: [...document.querySelectorAll('#board .pline.target, #board .floor.target')].map((e) => \
              [e.classList.contains('floor') ? 'F' : parseInt(e.getAttribute('data-line'), 10), e.getAttribute('data-preview'), e.querySelector('.preview') && e.querySelector('.preview').textContent]) };").await;
        let targets = shown["targets"].as_array().unwrap();
        assert!(!targets.is_empty());
        for t in targets {
            let a = snap["legal"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| {
                    a["json"]["source"] == shown["source"]
                        && a["json"]["colour"] == shown["colour"]
                        && a["json"]["dest"] == t[0]
                })
                .unwrap_or_else(|| panic!("{t} is no legal move: {shown}"));
            let points = a["json"]["preview"]["points"].as_i64().unwrap();
            assert_eq!(
                t[1].as_str().unwrap().parse::<i64>().unwrap(),
                points,
                "{t}"
            );
            let badge = t[2].as_str().expect("a preview badge");
            assert!(
                badge.starts_with(&format!("{}{points}", if points > 0 { "+" } else { "" })),
                "{badge}"
            );
        }
        screenshot(&c, "azul-phone-preview.png").await;
        js(
            &c,
            "document.querySelector('#board .pline.target, #board .floor.target').click()",
        )
        .await;
        // The AI players move: the latest move stays in view, in the bar at the bottom.
        wait_js(&c, "document.querySelector('#board .tile.pick') && document.querySelector('#move-toast.shown')", "an AI move and the person's turn", 180).await;
        assert!(
            in_view(&c, "#move-toast").await,
            "the AI's move is off-screen"
        );
        let toast = text_of(&c, "#move-toast").await;
        let last_ai = js(&c, "const es = [...document.querySelectorAll('#log li.log-entry')].filter((li) => li.getAttribute('data-seat') !== '0' && li.querySelector('.log-text').textContent.startsWith('took')); \
            const li = es[es.length - 1]; return li.querySelector('.log-seat').textContent + ' ' + li.querySelector('.log-text').textContent;").await;
        assert!(
            toast.starts_with(last_ai.as_str().unwrap()),
            "toast '{toast}', last AI move '{last_ai}'"
        );
        screenshot(&c, "azul-phone-toast.png").await;
        // Long names stay in their boxes; nothing scrolls sideways.
        let overflow = js(&c, "return [...document.querySelectorAll('.board h3')].filter((h) => h.scrollWidth > h.clientWidth + 1).length \
            + (document.querySelector('#log').scrollWidth > document.querySelector('#log').clientWidth + 1 ? 100 : 0) \
            + (document.documentElement.scrollWidth > window.innerWidth ? 1000 : 0)").await;
        assert_eq!(
            overflow, 0,
            "a name overflows its box (1 per board, 100 the log, 1000 the page)"
        );
        let score_inside = js(&c, "return [...document.querySelectorAll('.board')].every((b) => { const s = b.querySelector('.score').getBoundingClientRect(); const r = b.getBoundingClientRect(); return s.right <= r.right && s.left >= r.left; })").await;
        assert_eq!(score_inside, true, "a score is pushed out of its board");
        assert_plain(&c, "the phone board").await;
        c.close().await.unwrap();
    });
}

#[test]
fn qwirkle_hint_works_and_the_final_table_replaces_the_hand() {
    browser_test(async {
        let (addr, _app) = start_server().await;
        let c = open_browser("qwirkle-final").await;
        c.set_window_size(1280, 900).await.unwrap();
        // Hint: a suggested placement on the board, and the hand still plays afterwards.
        open_setup(&c, addr, "/qwirkle?fast").await;
        js(&c, "window.__errors = []; window.addEventListener('error', (e) => window.__errors.push(e.message));").await;
        set_seat(&c, 1, "ai:level:1").await;
        assert_plain(&c, "the Qwirkle setup").await;
        click(&c, "#start").await;
        wait_js(&c, "document.querySelector('#status').textContent.startsWith('Your turn') && document.querySelector('#hint').style.display !== 'none'", "the person's turn", 60).await;
        ask_hint(&c).await;
        assert!(
            c.find(Locator::Css("#board .qtile.hinted")).await.is_ok(),
            "the hint is not on the board"
        );
        click(&c, "#hand .qtile").await;
        wait_js(
            &c,
            "document.querySelector('#board .qcell.legal')",
            "legal cells after the hint",
            10,
        )
        .await;
        assert_eq!(
            js(&c, "return window.__errors").await,
            json!([]),
            "the page threw"
        );
        // A finished game (two AI seats, quick): the final table, Play again, New game and
        // Download; no hand and no Confirm, Trade or Pass.
        open_setup(&c, addr, "/qwirkle?fast").await;
        set_seat(&c, 0, "ai:level:1").await;
        set_seat(&c, 1, "ai:level:1").await;
        click(&c, "#start").await;
        wait_js(
            &c,
            "document.querySelector('#final-scores')",
            "the final table",
            240,
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        screenshot(&c, "qwirkle-final.png").await;
        for css in ["#final-scores", "#rematch", "#download", "#final-new"] {
            assert!(in_view(&c, css).await, "{css} is not in view");
        }
        for css in ["#confirm", "#trade", "#pass", "#clear", "#hand"] {
            assert_eq!(
                js(
                    &c,
                    &format!("return !!document.querySelector('{css}').offsetParent")
                )
                .await,
                false,
                "{css} is still on screen"
            );
        }
        let winner = text_of(&c, "#final-scores tr.winner").await;
        assert!(winner.contains("★ winner"), "{winner}");
        assert_plain(&c, "the finished Qwirkle table").await;
        c.close().await.unwrap();
    });
}

#[test]
fn rules_pages_are_linked_from_each_setup_and_drawn_by_the_games_own_code() {
    browser_test(async {
        let (addr, _app) = start_server().await;
        let c = open_browser("rules").await;
        c.set_window_size(1280, 900).await.unwrap();
        // The home page lists the games people play, not the test game.
        c.goto(&format!("http://{addr}/")).await.unwrap();
        wait_js(
            &c,
            "document.querySelector('#hosted').textContent.startsWith('This server hosts')",
            "the catalog",
            10,
        )
        .await;
        let home = player_text(&c).await;
        assert!(home.contains("Azul, Qwirkle"), "{home}");
        assert!(
            !home.contains("Nim") && !home.contains("test game"),
            "{home}"
        );
        // (page, what the setup waits for, the pictures' elements and how many)
        let pages = [
            (
                "azul",
                "#seat1-type",
                vec![
                    ("#fig-table .factory", 5),
                    ("#fig-place .pline.target .preview", 4),
                    ("#fig-score .round-report", 1),
                ],
            ),
            (
                "qwirkle",
                "#seat1-type",
                vec![
                    ("#fig-lines .qtile", 5),
                    ("#fig-score .qtile.last", 2),
                    ("#fig-score .qtile.hinted", 2),
                ],
            ),
            (
                "tiles",
                "#tgrid",
                vec![("#fig-0 .piece", 2), ("#fig-2 .piece.home", 2)],
            ),
        ];
        for (game, ready, pictures) in pages {
            c.goto(&format!("http://{addr}/{game}")).await.unwrap();
            c.wait().for_element(Locator::Css(ready)).await.unwrap();
            click(&c, "#rules-link").await;
            wait_js(
                &c,
                "document.querySelector('main.rules h1')",
                "the rules page",
                10,
            )
            .await;
            let title = text_of(&c, "main.rules h1").await;
            assert!(title.starts_with("How to play"), "{game}: {title}");
            for (css, n) in pictures {
                let found = js(
                    &c,
                    &format!("return document.querySelectorAll('{css}').length"),
                )
                .await;
                assert_eq!(found, json!(n), "{game} rules: {css}");
            }
            assert_plain(&c, &format!("the {game} rules")).await;
            screenshot(&c, &format!("{game}-rules.png")).await;
        }
        // The tiles page speaks plainly too: levels by number, one label per heuristic.
        c.goto(&format!("http://{addr}/tiles")).await.unwrap();
        c.wait().for_element(Locator::Css("#tgrid")).await.unwrap();
        let first = js(
            &c,
            "return document.querySelector('#level option').textContent",
        )
        .await;
        assert!(
            first.as_str().unwrap().starts_with("Level 1 · 4×4"),
            "{first}"
        );
        let heur = js(
            &c,
            "return [...document.querySelectorAll('#heuristic option')].map((o) => o.textContent)",
        )
        .await;
        for h in heur.as_array().unwrap() {
            let h = h.as_str().unwrap();
            let name = h.split(" · ").next().unwrap();
            assert_eq!(h.matches(name).count(), 1, "{h}");
        }
        assert_plain(&c, "the tiles page").await;
        c.close().await.unwrap();
    });
}

/// On a game's setup page: seat 2 a person too, a custom `clock` for each, and Start.
async fn start_two_people_on_a_clock(c: &Client, clock: &str) {
    js(
        c,
        "const s = document.getElementById('seat1-type'); s.value = 'human'; \
         s.dispatchEvent(new Event('change')); \
         const k = document.getElementById('clock'); k.value = 'custom'; \
         k.dispatchEvent(new Event('change'));",
    )
    .await;
    type_into(c, "#clock-custom", clock).await;
    click(c, "#start").await;
}

/// A game clock on the Azul page: chosen at the setup (a custom `11s`), one clock per seat
/// above the board ticking down in the browser, red under 10 s; the person to move who does
/// not move loses on time and the final panel says so.
/// Waits for the final panel's "lost on time" line of the page's only game; returns the
/// game's id, the line and the game's public snapshot (checked to be finished).
async fn wait_lost_on_time(c: &Client, app: &App) -> (String, String, Value) {
    wait_js(
        c,
        "document.getElementById('lost-on-time')",
        "lost on time",
        30,
    )
    .await;
    let line = text_of(c, "#lost-on-time").await;
    assert!(line.contains("lost on time"), "{line}");
    let id = only_game(app);
    let snap = public_snapshot(app, &id);
    assert_eq!(snap["status"], "finished", "{snap}");
    (id, line, snap)
}

#[test]
fn azul_clocks_show_tick_and_a_flag_ends_the_game() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("azul-clock").await;
        open_setup(&c, addr, "/azul?fast").await;
        c.wait()
            .for_element(Locator::Css("#clock"))
            .await
            .expect("the clock choice");
        // Two people at this screen, an 11 s clock each.
        start_two_people_on_a_clock(&c, "11s").await;
        wait_js(
            &c,
            "document.querySelectorAll('#clocks .seat-clock').length === 2",
            "two clocks",
            20,
        )
        .await;
        let running = "document.querySelector('#clocks .seat-clock.running')";
        wait_js(&c, running, "a running clock", 10).await;
        let ms = |v: Value| v.as_str().and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
        let first = ms(js(&c, &format!("return {running}.getAttribute('data-ms')")).await);
        let shown = js(
            &c,
            &format!("return {running}.querySelector('.clock-time').textContent"),
        )
        .await;
        assert!(first <= 11_000 && first > 5_000, "{first}");
        assert!(
            shown
                .as_str()
                .is_some_and(|s| s == "0:10" || s.contains('.')),
            "{shown}"
        );
        // It ticks in the browser (no request needed to see it go down).
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let later = ms(js(&c, &format!("return {running}.getAttribute('data-ms')")).await);
        assert!(later + 1000 <= first, "{first} then {later}");
        wait_js(
            &c,
            "document.querySelector('#clocks .seat-clock.running.low')",
            "a red clock",
            10,
        )
        .await;
        screenshot(&c, "azul-clock.png").await;
        // Nobody moves: the flag falls and the final panel says who lost on time.
        let (_, line, snap) = wait_lost_on_time(&c, &app).await;
        let flag = snap["clock"]["flag"].as_u64().expect("a flag fell") as usize;
        assert!(
            line.starts_with(&snap["seats"][flag]["name"].as_str().unwrap().to_string()),
            "{line}"
        );
        assert!(
            text_of(&c, "#clocks .seat-clock.flagged")
                .await
                .contains("lost on time")
        );
        screenshot(&c, "azul-lost-on-time.png").await;
        c.close().await.unwrap();
    });
}

/// After a flag on the Azul page nobody is shown to move (the position's mover is still the
/// seat that ran out of time), and "Play again" starts the new game on the same clock.
#[test]
fn azul_lost_on_time_shows_nobody_to_move_and_play_again_keeps_the_clock() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("azul-rematch-clock").await;
        open_setup(&c, addr, "/azul?fast").await;
        // Two people at this screen, a 2 s clock each.
        start_two_people_on_a_clock(&c, "2s").await;
        let (id, _, snap) = wait_lost_on_time(&c, &app).await;
        let flag = snap["clock"]["flag"].clone();
        assert!(flag.is_u64(), "{snap}");
        assert_eq!(snap["to_move"], Value::Null);
        assert_eq!(snap["view"]["mover"], flag, "the position's mover");
        let marked = js(
            &c,
            "return document.querySelectorAll('#board .board.active, .opp.to-move').length",
        )
        .await;
        assert_eq!(marked, json!(0));
        let board = text_of(&c, "#board").await;
        assert!(!board.contains("to move"), "{board}");
        screenshot(&c, "azul-lost-on-time-nobody-to-move.png").await;
        // Play again: the same seats on the same clock.
        click(&c, "#rematch").await;
        wait_for_games(&app, 2).await;
        let games = app.sessions.list();
        let again = games
            .iter()
            .filter_map(|g| g["id"].as_str())
            .find(|g| *g != id)
            .expect("the new game")
            .to_string();
        let again = public_snapshot(&app, &again);
        assert_eq!(again["clock"]["control"], "2s", "{again}");
        assert_eq!(again["seats"], snap["seats"]);
        c.close().await.unwrap();
    });
}

#[test]
fn a_stored_nim_game_replays_in_the_replay_page_as_text() {
    // Nim has no web view of its own: the replay page shows it through common.js's text
    // view (each step's position in Nim's notation, each move in its notation), and the
    // header is the one every page gets from the registrations.
    let path = stored_run(
        "replay-nim",
        RunParams::new("nim", &["first", "random"], 2, 2, 1, 7),
    );
    let stored = tessera_arena::store::Store::open_read(&path)
        .unwrap()
        .games(1)
        .unwrap();
    let record: tessera_core::GameRecord<
        <tessera_core::testgame::Nim as tessera_core::Game>::Chance,
    > = serde_json::from_str(&stored[0].game.record).unwrap();
    let steps = record.events.len();
    let index = stored[0].slot.index;
    browser_test(async {
        let (addr, _app) = start_server_with(Config {
            db: Some(path.clone()),
            ..Config::default()
        })
        .await;
        let c = open_browser("replay-nim").await;
        c.goto(&format!("http://{addr}/replay?game=1:{index}"))
            .await
            .unwrap();
        wait_js(
            &c,
            "document.getElementById('stepinfo').textContent.startsWith('step 0 /')",
            "the nim record to load",
            20,
        )
        .await;
        let nav: Vec<String> = {
            let mut out = Vec::new();
            for a in c.find_all(Locator::Css("header.top a")).await.unwrap() {
                out.push(a.text().await.unwrap());
            }
            out
        };
        assert_eq!(
            nav,
            [
                "Tessera",
                "Azul",
                "Qwirkle",
                "Match the Tiles",
                "Replay",
                "Results"
            ]
        );
        let board = text_of(&c, "#board pre.text-view").await;
        assert!(!board.is_empty(), "the start position is drawn as text");
        click(&c, "#last").await;
        assert!(
            text_of(&c, "#stepinfo")
                .await
                .starts_with(&format!("step {steps} / {steps}")),
        );
        // The last move is described in Nim's notation and the position is the final one.
        let last_move = record
            .events
            .iter()
            .rev()
            .find_map(|e| match e {
                tessera_core::Event::Action { action, .. } => Some(action.clone()),
                _ => None,
            })
            .unwrap();
        let status = text_of(&c, "#status").await;
        assert!(status.ends_with(&format!("played {last_move}")), "{status}");
        let logged = c.find_all(Locator::Css("#log li")).await.unwrap().len();
        let actions = record
            .events
            .iter()
            .filter(|e| matches!(e, tessera_core::Event::Action { .. }))
            .count();
        assert_eq!(logged, actions);
        let end = text_of(&c, "#board pre.text-view").await;
        assert_ne!(end, board, "the final position differs from the start");
        screenshot(&c, "replay-nim-last-step.png").await;
        c.close().await.unwrap();
    });
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn azul_on_a_phone_keeps_the_opponents_strip_in_view_and_updates_it_after_each_ai_move() {
    browser_test(async {
        let (addr, app) = start_server().await;
        let c = open_browser("azul-phone-strip").await;
        open_setup(&c, addr, "/azul?fast").await;
        set_seat(&c, 1, "ai:level:1").await;
        type_into(&c, "#seed", "7").await;
        click(&c, "#start").await;
        wait_for_games(&app, 1).await;
        let id = only_game(&app);
        click_azul_move(&c, &app, &id, "the person on a wide screen").await;
        // On a wide screen the opponents' boards are beside the player's: no strip.
        assert!(!in_view(&c, "#opp-strip").await, "a strip on a wide screen");
        c.set_window_size(390, 844).await.unwrap();
        for turn in 0..4 {
            // The AI has answered: the person's turn again.
            wait_js(
                &c,
                "document.querySelector('#board .tile.pick')",
                "the AI's reply",
                60,
            )
            .await;
            // The person scrolls down to their own board and the log.
            js(
                &c,
                "window.scrollTo(0, document.body.scrollHeight); return true;",
            )
            .await;
            let snap = public_snapshot(&app, &id);
            let board = &snap["view"]["boards"][1];
            let lines: Vec<String> = board["lines"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| format!("{}/{}", l["count"], l["capacity"]))
                .collect();
            let expected = json!({"score": board["score"].to_string(), "lines": lines});
            let seat1 = "#opp-strip .opp[data-seat='1']";
            let read = format!(
                "const s = document.querySelector(\"{seat1}\"); return s && {{score: s.querySelector('.opp-score').textContent, \
                 lines: [...s.querySelectorAll('.opp-line')].map((e) => e.textContent)}};"
            );
            let deadline = Instant::now() + Duration::from_secs(10);
            let mut shown = js(&c, &read).await;
            while shown != expected && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(100)).await;
                shown = js(&c, &read).await;
            }
            assert_eq!(
                shown, expected,
                "turn {turn}: the AI seat's score and pattern lines in the strip"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
            assert!(
                in_view(&c, "#opp-strip").await,
                "turn {turn}: the opponents' strip is off-screen"
            );
            assert!(
                js(&c, "return window.scrollY").await.as_f64().unwrap() > 200.0,
                "the page did not scroll: the test shows nothing"
            );
            let last_by_ai = actions_played(&app, &id).last().map(|(p, _)| *p) == Some(1);
            if last_by_ai {
                assert_eq!(
                    js(
                        &c,
                        &format!(
                            "return document.querySelector(\"{seat1}\").classList.contains('moved')"
                        )
                    )
                    .await,
                    true,
                    "the AI's last move is not marked"
                );
            }
            assert!(
                c.find(Locator::Css("#opp-strip .opp[data-seat='0']"))
                    .await
                    .is_err(),
                "the person's own board is in the strip"
            );
            if turn == 0 {
                screenshot(&c, "azul-phone-strip.png").await;
            }
            // A tap on a tile, then on a lit line (the taps a thumb makes on what it sees).
            let before = actions_played(&app, &id).len();
            js(
                &c,
                "document.querySelector('#board .tile.pick').click(); return true;",
            )
            .await;
            wait_js(
                &c,
                "document.querySelector('#board .pline.target, #board .floor.target')",
                "the lit lines",
                10,
            )
            .await;
            js(&c, "document.querySelector('#board .pline.target, #board .floor.target').click(); return true;").await;
            let deadline = Instant::now() + Duration::from_secs(10);
            while actions_played(&app, &id).len() == before {
                assert!(
                    Instant::now() < deadline,
                    "turn {turn}: the person's move was not played"
                );
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
        c.close().await.unwrap();
    });
}
