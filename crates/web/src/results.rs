//! The results page's API: runs, tables and charts from the arena's tournament database
//! (`tessera serve --db FILE`), read-only.

use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};
use tessera_arena::analysis::analyze;
use tessera_arena::report::{Format, elo_svg, render, table_name, winrate_svg};
use tessera_arena::sprt::Decision;
use tessera_arena::stats::summarize;
use tessera_arena::store::Store;

use crate::App;
use crate::error::ApiError;

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
                json!({ "id": r.id, "params": r.params, "command": r.params.command_line(),
                        "done": r.done, "total": r.total, "complete": r.complete(),
                        "created": r.created, "version": r.version,
                        "sprt": sprt.map(|s| s.decision) })
            })
            .collect();
        Ok(Json(
            json!({ "db": path.display().to_string(), "runs": list }),
        ))
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
        Ok(Json(json!({
            "id": run.id,
            "params": run.params,
            "command": run.params.command_line(),
            "labels": run.params.labels(),
            "tables": (0..run.params.tables().len())
                .map(|t| table_name(&run.params, t))
                .collect::<Vec<_>>(),
            "done": run.done,
            "total": run.total,
            "created": run.created,
            // Finished: every game stored, or the sequential test decided. A page showing an
            // unfinished run polls this endpoint.
            "finished": run.complete() || decided,
            "summary": summary,
            "analysis": analysis,
            "stored_sprt": stored_sprt,
            "table": render(&run, &summary, &analysis, Format::Table),
            "stats": stats,
            "chart_svg": winrate_svg(&run, &summary),
            "elo_svg": elo_svg(&run, &analysis),
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
