//! The results page's API: runs, tables and charts from the arena's tournament database
//! (`tessera serve --db FILE`), read-only.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::Value;
use tessera_arena::analysis::Analysis;
use tessera_arena::analysis::analyze;
use tessera_arena::report::{Format, elo_svg, render, table_name, winrate_svg};
use tessera_arena::schedule::RunParams;
use tessera_arena::sprt::Decision;
use tessera_arena::stats::Summary;
use tessera_arena::stats::summarize;
use tessera_arena::store::Store;
use tessera_arena::store::StoredSprt;

use crate::App;
use crate::answers::to_value;
use crate::error::ApiError;

/// A run in `GET /api/results`.
#[derive(Serialize)]
struct RunEntry<'a> {
    id: i64,
    params: &'a RunParams,
    /// The command line that plays it.
    command: String,
    done: u64,
    total: u64,
    complete: bool,
    created: &'a str,
    version: &'a str,
    /// The sequential test's decision, if the run has one.
    sprt: Option<String>,
}

/// `GET /api/results`: the file and its runs.
#[derive(Serialize)]
struct Runs {
    db: String,
    runs: Vec<Value>,
}

/// `GET /api/results/{id}`: one run with its tables, statistics and charts.
#[derive(Serialize)]
struct RunDetail<'a> {
    id: i64,
    params: &'a RunParams,
    command: String,
    labels: Vec<String>,
    tables: Vec<String>,
    done: u64,
    total: u64,
    created: &'a str,
    finished: bool,
    summary: &'a Summary,
    analysis: &'a Analysis,
    stored_sprt: Option<&'a StoredSprt>,
    /// The results table as text.
    table: String,
    /// The report's JSON (the same as `tessera report --format json`).
    stats: Value,
    chart_svg: String,
    /// The ratings chart, for a run that has ratings.
    elo_svg: Option<String>,
}

fn db(app: &App) -> Result<PathBuf, ApiError> {
    app.db.clone().ok_or_else(|| {
        ApiError::NotFound(
            "no tournament database: start the server with `tessera serve --db FILE`".into(),
        )
    })
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::Internal(format!("reading the database crashed: {e}")))?
}

async fn runs(State(app): State<Arc<App>>) -> Result<Json<Value>, ApiError> {
    let path = db(&app)?;
    blocking(move || {
        let store = Store::open_read(&path).map_err(|e| ApiError::NotFound(e.to_string()))?;
        let runs = store
            .runs()
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let list: Vec<Value> = runs
            .iter()
            .map(|r| {
                let sprt = store.stored_sprt(r.id).ok().flatten();
                to_value(&RunEntry {
                    id: r.id,
                    params: &r.params,
                    command: r.params.command_line(),
                    done: r.done,
                    total: r.total,
                    complete: r.complete(),
                    created: &r.created,
                    version: &r.version,
                    sprt: sprt.map(|s| s.decision),
                })
            })
            .collect();
        Ok(Json(to_value(&Runs {
            db: path.display().to_string(),
            runs: list,
        })))
    })
    .await
}

async fn run(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Json<Value>, ApiError> {
    let path = db(&app)?;
    let id: i64 = id
        .parse()
        .map_err(|_| ApiError::BadRequest(format!("run id '{id}' is not a number")))?;
    blocking(move || {
        let store = Store::open_read(&path).map_err(|e| ApiError::NotFound(e.to_string()))?;
        let run = store
            .run(id)
            .map_err(|e| ApiError::NotFound(e.to_string()))?;
        let rows = store
            .rows(id)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let summary = summarize(&run.params.labels(), &run.params.tables(), &rows);
        let analysis =
            analyze(&run.params, &rows, None).map_err(|e| ApiError::Internal(e.to_string()))?;
        let stats: Value = serde_json::from_str(&render(&run, &summary, &analysis, Format::Json))
            .unwrap_or(Value::Null);
        let decided = analysis
            .sprt
            .as_ref()
            .is_some_and(|s| s.decision != Decision::Continue);
        let stored_sprt = store
            .stored_sprt(id)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        Ok(Json(to_value(&RunDetail {
            id: run.id,
            params: &run.params,
            command: run.params.command_line(),
            labels: run.params.labels(),
            tables: (0..run.params.tables().len())
                .map(|t| table_name(&run.params, t))
                .collect(),
            done: run.done,
            total: run.total,
            created: &run.created,
            // Finished: every game stored, or the sequential test decided. A page showing an
            // unfinished run polls this endpoint.
            finished: run.complete() || decided,
            summary: &summary,
            analysis: &analysis,
            stored_sprt: stored_sprt.as_ref(),
            table: render(&run, &summary, &analysis, Format::Table),
            stats,
            chart_svg: winrate_svg(&run, &summary),
            elo_svg: elo_svg(&run, &analysis),
        })))
    })
    .await
}

/// The `/api/results` routes.
pub fn routes() -> Router<Arc<App>> {
    Router::new()
        .route("/api/results", get(runs))
        .route("/api/results/{id}", get(run))
}
