//! `tessera serve`: the browser UI and JSON API on 127.0.0.1.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};

/// Arguments of `tessera serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// TCP port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Master seed for the deals of games that do not name a seed (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Most AI players thinking at the same time (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub ai_threads: usize,
    /// Most games kept in memory.
    #[arg(long, default_value_t = 1000)]
    pub max_games: usize,
    /// Tournament database shown on the results page.
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
    match tessera_arena::spec::parse_duration(text) {
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
        db: args.db,
        max_think: args.max_think,
        test_games: args.test_games,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let (listener, addr) = tessera_web::bind_loopback(args.port)
            .await
            .with_context(|| format!("binding 127.0.0.1:{}", args.port))?;
        let app = Arc::new(tessera_web::games::standard_app(&config));
        println!("Tessera is being served at http://{addr}/ (Ctrl-C stops it)");
        tessera_web::serve(listener, app, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("serving HTTP")
    })
}
