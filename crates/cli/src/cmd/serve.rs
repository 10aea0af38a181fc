//! `tessera serve`: the browser UI and JSON API, on 127.0.0.1 unless `--bind` names another
//! address (then with per-client limits: docs/deployment.md).

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};

/// Arguments of `tessera serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// TCP port on 127.0.0.1 (0 picks a free one); ignored with --bind.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address and port to serve on (e.g. 0.0.0.0:8080). A non-loopback address turns
    /// on the per-client limits (request rate, games per client); see docs/deployment.md.
    #[arg(long)]
    pub bind: Option<std::net::SocketAddr>,
    /// Requests per second per client (with a burst of 3 seconds' worth) when serving a
    /// non-loopback address; 0 turns the limit off.
    #[arg(long, default_value_t = 20.0)]
    pub rate_limit: f64,
    /// Most unfinished games one client may have started (non-loopback address).
    #[arg(long, default_value_t = 20)]
    pub max_games_per_client: usize,
    /// Most unfinished games at once.
    #[arg(long, default_value_t = 500)]
    pub max_unfinished: usize,
    /// Take each client's address from the last X-Forwarded-For entry (only behind a
    /// reverse proxy that sets it, or clients could pick their own address).
    #[arg(long)]
    pub trust_forwarded: bool,
    /// Master seed for the deals of games that do not name a seed (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Most AI players thinking at the same time (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub ai_threads: usize,
    /// Most games kept in memory.
    #[arg(long, default_value_t = 1000)]
    pub max_games: usize,
    /// SQLite database: the tournaments shown on the results page, and every web game,
    /// stored move by move (unfinished games continue after a restart). Without it games are
    /// kept in memory only.
    #[arg(long)]
    pub db: Option<std::path::PathBuf>,
    /// The most any AI seat (or hint) thinks per move, whatever its specification or the
    /// request asks for, node- and sample-bounded players included (e.g. 60s, 500ms).
    #[arg(long, default_value = "60s", value_parser = parse_max_think)]
    pub max_think: Duration,
    /// List the test games (Nim) on the pages too; without it they are hosted (their records
    /// replay) but not offered to players.
    #[arg(long)]
    pub test_games: bool,
}

/// `--max-think`: a duration from 1ms to 1 hour.
fn parse_max_think(text: &str) -> Result<Duration, String> {
    match tessera_house::spec::parse_duration(text) {
        Some(d) if d >= Duration::from_millis(1) && d <= Duration::from_secs(3600) => Ok(d),
        _ => Err(format!(
            "'{text}': expected a duration from 1ms to 60m such as 60s, 2m or 500ms"
        )),
    }
}

/// Runs the server until Ctrl-C.
pub fn run(args: Args) -> Result<()> {
    let master_seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let config = tessera_web::Config {
        master_seed,
        max_sessions: args.max_games,
        ai_threads: if args.ai_threads == 0 {
            tessera_web::default_ai_threads()
        } else {
            args.ai_threads
        },
        db: args.db.clone(),
        max_think: args.max_think,
        test_games: args.test_games,
        ..tessera_web::Config::default()
    };
    let addr = args
        .bind
        .unwrap_or_else(|| std::net::SocketAddr::from(([127, 0, 0, 1], args.port)));
    let public = !addr.ip().is_loopback();
    let config = tessera_web::Config {
        max_unfinished: args.max_unfinished,
        max_games_per_client: if public {
            args.max_games_per_client
        } else {
            args.max_unfinished
        },
        rate_limit: (public && args.rate_limit > 0.0)
            .then(|| (args.rate_limit, (args.rate_limit * 3.0).max(30.0))),
        trust_forwarded: args.trust_forwarded,
        ..config
    };
    let store = match &args.db {
        Some(path) => Some(Arc::new(
            tessera_web::persist::WebDb::open(path)
                .with_context(|| format!("opening --db {}", path.display()))?,
        )),
        None => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let (listener, addr) = tessera_web::bind(addr)
            .await
            .with_context(|| format!("binding {addr}"))?;
        let mut app = tessera_web::games::standard_app(&config);
        match store {
            Some(db) => {
                let path = db.path().display().to_string();
                app = app.with_store(db);
                let (restored, errors) = app
                    .restore_games()
                    .map_err(|e| anyhow::anyhow!("restoring the games of {path}: {e}"))?;
                for e in &errors {
                    eprintln!("warning: not restored: {e}");
                }
                println!(
                    "Games are stored in {path} as they are played; {restored} unfinished game(s) restored"
                );
            }
            None => println!(
                "Games are kept in memory only: they are lost when the server stops (--db FILE keeps them)"
            ),
        }
        if public {
            println!(
                "Serving a non-loopback address: per-client limits are on (docs/deployment.md); put a TLS reverse proxy in front"
            );
        }
        let app = Arc::new(app);
        println!("Tessera is being served at http://{addr}/ (Ctrl-C stops it)");
        tessera_web::serve(listener, app, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("serving HTTP")
    })
}
