//! `tessera games --db FILE`: the games stored in a results file, one line each, with the id
//! that `tessera export` and the replay page take.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Result;
use serde_json::{Value, json};
use tessera_arena::report::Format;
use tessera_arena::store::{GameSummary, RunInfo, Store};

/// Arguments of `tessera games`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The SQLite results file (written by `tessera tournament`).
    #[arg(long, default_value = "tessera.sqlite")]
    pub db: PathBuf,
    /// Only the games of this run (default: every run).
    #[arg(long)]
    pub run: Option<i64>,
    /// Output format: table, csv or json.
    #[arg(long, default_value = "table", value_parser = parse_format)]
    pub format: Format,
}

fn parse_format(s: &str) -> Result<Format, String> {
    s.parse()
}

/// One listed game, with its run's agent labels resolved.
struct Line {
    id: String,
    run: i64,
    game: String,
    table: u32,
    series: u32,
    deal: u64,
    rotation: u32,
    seed: u64,
    seats: Vec<String>,
    scores: Vec<i32>,
    winners: Vec<usize>,
    actions: u32,
}

impl Line {
    fn new(run: &RunInfo, labels: &[String], g: &GameSummary) -> Line {
        Line {
            id: g.id().to_string(),
            run: g.run,
            game: run.params.game.clone(),
            table: g.slot.table,
            series: g.slot.series,
            deal: g.slot.deal,
            rotation: g.slot.rotation,
            seed: g.slot.seed,
            seats: g
                .slot
                .seats
                .iter()
                .map(|&a| {
                    labels
                        .get(a)
                        .cloned()
                        .unwrap_or_else(|| format!("agent {a}"))
                })
                .collect(),
            scores: g.scores.clone(),
            winners: g.winners.clone(),
            actions: g.actions,
        }
    }

    /// `smart wins`, `tie: smart, greedy`.
    fn result(&self) -> String {
        let names: Vec<&str> = self
            .winners
            .iter()
            .map(|&w| self.seats.get(w).map_or("?", String::as_str))
            .collect();
        match names.as_slice() {
            [] => "no winner".to_string(),
            [one] => format!("{one} wins"),
            many => format!("tie: {}", many.join(", ")),
        }
    }

    fn scores_text(&self) -> String {
        self.scores
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(":")
    }

    fn json(&self) -> Value {
        json!({
            "id": self.id, "run": self.run, "game": self.game, "table": self.table,
            "series": self.series, "deal": self.deal, "rotation": self.rotation,
            "seed": self.seed, "seats": self.seats, "scores": self.scores,
            "winners": self.winners, "result": self.result(), "actions": self.actions,
        })
    }
}

/// Runs `tessera games`.
pub fn run(a: Args) -> Result<()> {
    let store = Store::open_read(&a.db)?;
    let runs = store.runs()?;
    if let Some(id) = a.run {
        store.run(id)?;
    }
    let mut lines = Vec::new();
    for g in store.game_summaries(a.run)? {
        // Every game row belongs to a run of the file (the schema's foreign key).
        if let Some(run) = runs.iter().find(|r| r.id == g.run) {
            lines.push(Line::new(run, &run.params.labels(), &g));
        }
    }
    print!("{}", render(&lines, a.format));
    if a.format == Format::Table {
        eprintln!(
            "{} games; `tessera export --db {} --game ID` writes one's record",
            lines.len(),
            a.db.display()
        );
    }
    Ok(())
}

fn render(lines: &[Line], format: Format) -> String {
    let mut o = String::new();
    match format {
        Format::Json => {
            let v: Vec<Value> = lines.iter().map(Line::json).collect();
            let _ = writeln!(
                o,
                "{}",
                serde_json::to_string_pretty(&json!({ "games": v })).unwrap_or_default()
            );
        }
        Format::Csv => {
            o.push_str(
                "id,run,game,table,series,deal,rotation,seed,seats,scores,winners,result,actions\n",
            );
            for l in lines {
                let _ = writeln!(
                    o,
                    "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                    l.id,
                    l.run,
                    csv(&l.game),
                    l.table,
                    l.series,
                    l.deal,
                    l.rotation,
                    l.seed,
                    csv(&l.seats.join(";")),
                    l.scores_text(),
                    l.winners
                        .iter()
                        .map(|w| w.to_string())
                        .collect::<Vec<_>>()
                        .join(";"),
                    csv(&l.result()),
                    l.actions
                );
            }
        }
        Format::Table => {
            let header = [
                "id", "game", "series", "deal", "seed", "seats", "scores", "result", "length",
            ];
            let rows: Vec<[String; 9]> = lines
                .iter()
                .map(|l| {
                    [
                        l.id.clone(),
                        l.game.clone(),
                        l.series.to_string(),
                        format!("{}.{}", l.deal, l.rotation),
                        l.seed.to_string(),
                        l.seats.join(" / "),
                        l.scores_text(),
                        l.result(),
                        l.actions.to_string(),
                    ]
                })
                .collect();
            let mut width = header.map(str::len);
            for r in &rows {
                for (w, c) in width.iter_mut().zip(r) {
                    *w = (*w).max(c.chars().count());
                }
            }
            let mut line = |cells: &[&str]| {
                let parts: Vec<String> = cells
                    .iter()
                    .zip(width)
                    .map(|(c, w)| format!("{c:<w$}"))
                    .collect();
                let _ = writeln!(o, "{}", parts.join("  ").trim_end());
            };
            line(&header);
            for r in &rows {
                line(&r.each_ref().map(String::as_str));
            }
        }
    }
    o
}

fn csv(x: &str) -> String {
    if x.contains([',', '"', '\n']) {
        format!("\"{}\"", x.replace('"', "\"\""))
    } else {
        x.to_string()
    }
}
