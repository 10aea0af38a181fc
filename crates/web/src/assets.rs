//! The browser UI: HTML, CSS and JavaScript compiled into the binary.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::App;

/// Every static file: URL name, content type, contents.
pub const FILES: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../static/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../static/style.css"),
    ),
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_str!("../static/common.js"),
    ),
    (
        "azul.html",
        "text/html; charset=utf-8",
        include_str!("../static/azul.html"),
    ),
    (
        "azul.js",
        "text/javascript; charset=utf-8",
        include_str!("../static/azul.js"),
    ),
    (
        "tiles.html",
        "text/html; charset=utf-8",
        include_str!("../static/tiles.html"),
    ),
    (
        "tiles.js",
        "text/javascript; charset=utf-8",
        include_str!("../static/tiles.js"),
    ),
    (
        "replay.html",
        "text/html; charset=utf-8",
        include_str!("../static/replay.html"),
    ),
    (
        "qwirkle.html",
        "text/html; charset=utf-8",
        include_str!("../static/qwirkle.html"),
    ),
    (
        "results.html",
        "text/html; charset=utf-8",
        include_str!("../static/results.html"),
    ),
    (
        "qwirkle.js",
        "text/javascript; charset=utf-8",
        include_str!("../static/qwirkle.js"),
    ),
    (
        "azul-rules.html",
        "text/html; charset=utf-8",
        include_str!("../static/azul-rules.html"),
    ),
    (
        "qwirkle-rules.html",
        "text/html; charset=utf-8",
        include_str!("../static/qwirkle-rules.html"),
    ),
    (
        "tiles-rules.html",
        "text/html; charset=utf-8",
        include_str!("../static/tiles-rules.html"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../static/favicon.svg"),
    ),
];

/// The page for an address that names no page: HTML a person can read, with a way home.
const NOT_FOUND: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>Not found - Tessera</title><link rel=\"icon\" href=\"favicon.svg\">\
<link rel=\"stylesheet\" href=\"style.css\"></head><body><main>\
<h1>Page not found</h1><p>There is no page at this address.</p>\
<p><a href=\"/\">Back to the games</a></p></main></body></html>";

/// Where a page's header goes: every HTML page has this marker instead of its own links.
const NAV_MARK: &str = "<!--nav-->";
/// Where the replay page's game views go.
const VIEWS_MARK: &str = "<!--views-->";
/// The pages the header links after the games: the puzzle (not an arena game), replay and
/// results.
const NAV_AFTER_GAMES: &[(&str, &str)] = &[
    ("tiles", "Match the Tiles"),
    ("replay", "Replay"),
    ("results", "Results"),
];

fn has_file(name: &str) -> bool {
    FILES.iter().any(|(n, _, _)| *n == name)
}

/// Text for an HTML page (titles are the games' own, but escaped all the same).
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Every page's header, built from the registrations: the brand, each game the catalog
/// lists that has a page of its own (`GAME.html`), then [`NAV_AFTER_GAMES`].
pub fn nav(app: &App) -> String {
    let mut out = String::from(r#"<header class="top"><a class="brand" href="/">Tessera</a>"#);
    let games = app
        .kinds
        .values()
        .filter(|k| k.listed() && has_file(&format!("{}.html", k.name())))
        .map(|k| {
            let info = k.info();
            let title = info["title"].as_str().unwrap_or(k.name()).to_string();
            (k.name(), title)
        });
    for (href, title) in games.map(|(n, t)| (n.to_string(), t)).chain(
        NAV_AFTER_GAMES
            .iter()
            .map(|(h, t)| (h.to_string(), t.to_string())),
    ) {
        out.push_str(&format!(
            r#"<a href="{}">{}</a>"#,
            escape(&href),
            escape(&title)
        ));
    }
    out.push_str("</header>");
    out
}

/// The replay page's scripts: one per hosted game (listed or not: a test game's records
/// replay too) with a web view of its own (`GAME.js`, which registers `Tessera.views[GAME]`);
/// every other game is shown by common.js's text view.
pub fn view_scripts(app: &App) -> String {
    app.kinds
        .keys()
        .filter(|name| has_file(&format!("{name}.js")))
        .map(|name| format!(r#"<script src="{}.js"></script>"#, escape(name)))
        .collect()
}

fn file(app: &App, name: &str) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, ctype, body)) if name.ends_with(".html") => (
            [
                (header::CONTENT_TYPE, *ctype),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body.replace(NAV_MARK, &nav(app))
                .replace(VIEWS_MARK, &view_scripts(app)),
        )
            .into_response(),
        Some((_, ctype, body)) => (
            [
                (header::CONTENT_TYPE, *ctype),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *body,
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            NOT_FOUND,
        )
            .into_response(),
    }
}

async fn index(State(app): State<Arc<App>>) -> Response {
    file(&app, "index.html")
}

async fn page(State(app): State<Arc<App>>, Path(name): Path<String>) -> Response {
    // Browsers ask for /favicon.ico on their own: the SVG icon answers.
    if name == "favicon.ico" {
        return file(&app, "favicon.svg");
    }
    if name.contains('.') {
        file(&app, &name)
    } else {
        file(&app, &format!("{name}.html"))
    }
}

/// Routes for `/` and `/{file}`.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(index))
        .route("/{name}", get(page))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::games::standard_app;

    fn app(test_games: bool) -> App {
        standard_app(&Config {
            test_games,
            ..Config::default()
        })
    }

    #[test]
    fn the_header_lists_the_registered_games_with_a_page_then_the_other_pages() {
        assert_eq!(
            nav(&app(false)),
            "<header class=\"top\"><a class=\"brand\" href=\"/\">Tessera</a>\
             <a href=\"azul\">Azul</a><a href=\"qwirkle\">Qwirkle</a>\
             <a href=\"tiles\">Match the Tiles</a><a href=\"replay\">Replay</a>\
             <a href=\"results\">Results</a></header>"
        );
        // Nim is hosted with --test-games but has no page of its own: no link (its
        // games are played through the API and replayed on the replay page).
        assert_eq!(nav(&app(true)), nav(&app(false)));
    }

    #[test]
    fn every_page_gets_the_one_header_and_the_replay_page_every_view() {
        let app = app(true);
        let header = nav(&app);
        for (name, _, body) in FILES.iter().filter(|(n, _, _)| n.ends_with(".html")) {
            assert!(body.contains(NAV_MARK), "{name} writes its own header");
            assert!(!body.contains("<header"), "{name} writes its own header");
            let resp = file(&app, name);
            let html = futures_body(resp);
            assert!(html.contains(&header), "{name}");
            assert!(!html.contains(NAV_MARK), "{name}");
        }
        assert_eq!(
            view_scripts(&app),
            "<script src=\"azul.js\"></script><script src=\"qwirkle.js\"></script>"
        );
        let replay = futures_body(file(&app, "replay.html"));
        assert!(
            replay.contains("<script src=\"qwirkle.js\"></script>"),
            "{replay}"
        );
        assert!(!replay.contains(VIEWS_MARK));
    }

    /// A response's body as text.
    fn futures_body(resp: Response) -> String {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        let bytes = rt
            .block_on(axum::body::to_bytes(resp.into_body(), usize::MAX))
            .expect("a body");
        String::from_utf8(bytes.to_vec()).expect("UTF-8")
    }
}
