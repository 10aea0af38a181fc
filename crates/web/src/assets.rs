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
];

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
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("no page '{name}'"),
        )
            .into_response(),
    }
}

async fn index() -> Response {
    file("index.html")
}

async fn page(Path(name): Path<String>) -> Response {
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
