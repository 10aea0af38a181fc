//! The browser UI: HTML, CSS and JavaScript compiled into the binary.

use std::sync::Arc;

use axum::Router;
use axum::extract::Path;
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

fn file(name: &str) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
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

async fn index() -> Response {
    file("index.html")
}

async fn page(Path(name): Path<String>) -> Response {
    // Browsers ask for /favicon.ico on their own: the SVG icon answers.
    if name == "favicon.ico" {
        return file("favicon.svg");
    }
    if name.contains('.') {
        file(&name)
    } else {
        file(&format!("{name}.html"))
    }
}

/// Routes for `/` and `/{file}`.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/", get(index))
        .route("/{name}", get(page))
}
