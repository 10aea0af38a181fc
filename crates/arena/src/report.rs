//! Reports: the results table as text, CSV or JSON, and SVG charts.

use std::fmt::Write as _;

use serde::Serialize;

use crate::schedule::RunParams;
use crate::stats::{DeviationPoint, Summary, Tally};
use crate::store::RunInfo;

/// Output formats of the results table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned text for people.
    Table,
    /// One CSV table for spreadsheets.
    Csv,
    /// JSON with the run and every statistic.
    Json,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "table" => Ok(Format::Table),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            _ => Err(format!("unknown format '{s}'; expected table, csv or json")),
        }
    }
}

/// The name of table `t`: its agents joined by " vs ".
pub fn table_name(params: &RunParams, t: usize) -> String {
    let labels = params.labels();
    params
        .tables()
        .get(t)
        .map(|m| {
            m.iter()
                .map(|&a| labels[a].as_str())
                .collect::<Vec<_>>()
                .join(" vs ")
        })
        .unwrap_or_default()
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn interval(t: &Tally) -> String {
    format!("[{:.1}, {:.1}]", 100.0 * t.ci_low, 100.0 * t.ci_high)
}

/// Renders the results of `run` in `format`.
pub fn render(run: &RunInfo, summary: &Summary, format: Format) -> String {
    match format {
        Format::Table => text(run, summary),
        Format::Csv => csv(run, summary),
        Format::Json => json(run, summary),
    }
}

fn text(run: &RunInfo, s: &Summary) -> String {
    let mut o = String::new();
    let p = &run.params;
    let _ = writeln!(o, "run {}: {}", run.id, p.command_line());
    let _ = writeln!(
        o,
        "games: {} of {} stored{}{}",
        run.done,
        run.total,
        if run.shard.count > 1 {
            format!(" (shard {})", run.shard)
        } else {
            String::new()
        },
        if p.paired {
            format!(
                ", every deal played {} times with seats rotated",
                p.rotations()
            )
        } else {
            ", every game its own deal".to_string()
        }
    );
    let _ = writeln!(o);
    let w = s
        .agents
        .iter()
        .map(|t| t.agent.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let show_elo = p.agents.len() > 2;
    let _ = writeln!(
        o,
        "{:<w$}  {:>6}  {:>6}  {:>5}  {:>6}  {:>8}  {:>14}  {:>10}  {:>8}{}",
        "agent",
        "games",
        "wins",
        "draws",
        "losses",
        "win rate",
        "95% interval",
        "mean score",
        "score sd",
        if show_elo { "       elo" } else { "" }
    );
    for (t, r) in s.agents.iter().zip(&s.ratings) {
        let _ = writeln!(
            o,
            "{:<w$}  {:>6}  {:>6}  {:>5}  {:>6}  {:>8}  {:>14}  {:>10.2}  {:>8.2}{}",
            t.agent,
            t.games,
            t.wins,
            t.draws,
            t.losses,
            pct(t.win_rate),
            interval(t),
            t.score_mean,
            t.score_sd,
            if show_elo {
                format!("  {:>8.0}", r.elo)
            } else {
                String::new()
            }
        );
    }
    let mut current: Option<u32> = None;
    for row in &s.series {
        if current != Some(row.table) {
            current = Some(row.table);
            let _ = writeln!(o);
            let _ = writeln!(
                o,
                "win rate per series, {}:",
                table_name(p, row.table as usize)
            );
            let mut head = format!("{:<8}", "series");
            for a in &row.agents {
                let _ = write!(head, "  {:>24}", a.agent);
            }
            let _ = writeln!(o, "{head}");
        }
        let mut line = format!(
            "{:<8}",
            row.series
                .map_or_else(|| "all".to_string(), |x| x.to_string())
        );
        for a in &row.agents {
            let _ = write!(
                line,
                "  {:>24}",
                format!("{} {}", pct(a.win_rate), interval(a))
            );
        }
        let _ = writeln!(o, "{line}");
    }
    o
}

fn csv(run: &RunInfo, s: &Summary) -> String {
    let mut o = String::from(
        "run,scope,table,series,agent,games,wins,draws,losses,win_rate,ci_low,ci_high,score_mean,score_sd,elo\n",
    );
    let esc = |x: &str| {
        if x.contains([',', '"', '\n']) {
            format!("\"{}\"", x.replace('"', "\"\""))
        } else {
            x.to_string()
        }
    };
    let mut line = |scope: &str, table: String, series: String, t: &Tally, elo: String| {
        let _ = writeln!(
            o,
            "{},{scope},{table},{series},{},{},{},{},{},{:.6},{:.6},{:.6},{:.4},{:.4},{elo}",
            run.id,
            esc(&t.agent),
            t.games,
            t.wins,
            t.draws,
            t.losses,
            t.win_rate,
            t.ci_low,
            t.ci_high,
            t.score_mean,
            t.score_sd
        );
    };
    for (t, r) in s.agents.iter().zip(&s.ratings) {
        line(
            "agent",
            String::new(),
            String::new(),
            t,
            format!("{:.1}", r.elo),
        );
    }
    for row in &s.series {
        for t in &row.agents {
            line(
                "series",
                (row.table + 1).to_string(),
                row.series.map_or_else(|| "all".into(), |x| x.to_string()),
                t,
                String::new(),
            );
        }
    }
    o
}

#[derive(Serialize)]
struct JsonReport<'a> {
    run: JsonRun<'a>,
    summary: &'a Summary,
}

#[derive(Serialize)]
struct JsonRun<'a> {
    id: i64,
    params: &'a RunParams,
    command: String,
    shard: String,
    total: u64,
    done: u64,
    created: &'a str,
    version: &'a str,
    tables: Vec<String>,
}

fn json(run: &RunInfo, s: &Summary) -> String {
    let r = JsonReport {
        run: JsonRun {
            id: run.id,
            params: &run.params,
            command: run.params.command_line(),
            shard: run.shard.to_string(),
            total: run.total,
            done: run.done,
            created: &run.created,
            version: &run.version,
            tables: (0..run.params.tables().len())
                .map(|t| table_name(&run.params, t))
                .collect(),
        },
        summary: s,
    };
    let mut text = serde_json::to_string_pretty(&r).unwrap_or_default();
    text.push('\n');
    text
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const FONT: &str = "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\"";

/// A forest plot of win rates with their 95% intervals: per table, per series and over
/// all series (bold). For two-seat tables it shows the first agent of the pairing; for
/// more seats, every agent.
pub fn winrate_svg(run: &RunInfo, s: &Summary) -> String {
    struct Line {
        label: String,
        rate: f64,
        lo: f64,
        hi: f64,
        all: bool,
        first_of_table: bool,
    }
    let p = &run.params;
    let mut lines: Vec<Line> = Vec::new();
    let mut current = None;
    for row in &s.series {
        let shown = if p.players == 2 {
            &row.agents[..1]
        } else {
            &row.agents[..]
        };
        for (k, a) in shown.iter().enumerate() {
            let first = current != Some(row.table) && k == 0;
            current = Some(row.table);
            let opp = if p.players == 2 {
                format!(" vs {}", row.agents.get(1).map_or("", |b| b.agent.as_str()))
            } else {
                format!(" (table {})", row.table + 1)
            };
            lines.push(Line {
                label: format!(
                    "{}{}, {}",
                    a.agent,
                    opp,
                    row.series
                        .map_or_else(|| "all series".to_string(), |x| format!("series {x}"))
                ),
                rate: a.win_rate,
                lo: a.ci_low,
                hi: a.ci_high,
                all: row.series.is_none(),
                first_of_table: first,
            });
        }
    }
    let left = 330.0;
    let width = 820.0;
    let plot_w = width - left - 30.0;
    let row_h = 20.0;
    let top = 60.0;
    let gaps = lines.iter().filter(|l| l.first_of_table).count() as f64;
    let height = top + row_h * lines.len() as f64 + 10.0 * gaps + 50.0;
    let x = |v: f64| left + plot_w * v;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" {FONT} font-size=\"12\">"
    );
    let _ = writeln!(
        o,
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">Win rate with 95% Wilson interval</text>\n<text x=\"{}\" y=\"40\" fill=\"#555\">{}</text>",
        10,
        10,
        xml(&p.command_line())
    );
    let bottom = height - 40.0;
    for i in 0..=10 {
        let v = i as f64 / 10.0;
        let _ = writeln!(
            o,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{bottom}\" stroke=\"#e4e4e4\"/>\n<text x=\"{0:.1}\" y=\"{1}\" text-anchor=\"middle\" fill=\"#444\">{2}%</text>",
            x(v),
            bottom + 16.0,
            i * 10
        );
    }
    let fair = 1.0 / p.players as f64;
    let _ = writeln!(
        o,
        "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{bottom}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
        x(fair)
    );
    let mut y = top;
    for l in &lines {
        if l.first_of_table && y > top {
            y += 10.0;
        }
        let cy = y + row_h / 2.0;
        let colour = if l.all { "#b03a2e" } else { "#1f5f99" };
        let weight = if l.all { " font-weight=\"bold\"" } else { "" };
        let _ = writeln!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\"{weight}>{}</text>\n<line x1=\"{:.1}\" y1=\"{cy:.1}\" x2=\"{:.1}\" y2=\"{cy:.1}\" stroke=\"{colour}\" stroke-width=\"2\"/>\n<circle cx=\"{:.1}\" cy=\"{cy:.1}\" r=\"4\" fill=\"{colour}\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#333\" font-size=\"10\">{:.1}%</text>",
            left - 8.0,
            cy + 4.0,
            xml(&l.label),
            x(l.lo),
            x(l.hi),
            x(l.rate),
            x(l.hi) + 4.0,
            cy + 3.5,
            100.0 * l.rate
        );
        y += row_h;
    }
    o.push_str("</svg>\n");
    o
}

/// The thesis' Figure 20: mean deviation from 50% of a self-play match against the number
/// of games (log scale), with the fair-coin expectation and the thesis' reading at 1000
/// games (about 1%).
pub fn deviation_svg(title: &str, points: &[DeviationPoint]) -> String {
    let (width, height) = (720.0, 460.0);
    let (left, right, top, bottom) = (70.0, 20.0, 60.0, height - 60.0);
    let xmin = 10f64.log10();
    let xmax = 10_000f64.log10();
    let ymax = points
        .iter()
        .map(|p| p.mean_deviation.max(p.fair_coin))
        .fold(0.14f64, f64::max)
        * 100.0;
    let ymax = (ymax / 2.0).ceil() * 2.0;
    let x = |n: f64| left + (width - left - right) * (n.log10() - xmin) / (xmax - xmin);
    let y = |pct: f64| bottom - (bottom - top) * pct / ymax;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" {FONT} font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">Average deviation from 50% against the number of games</text>\n<text x=\"10\" y=\"40\" fill=\"#555\">{}</text>",
        xml(title)
    );
    for n in [10.0, 100.0, 1000.0, 10_000.0] {
        let _ = writeln!(
            o,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{bottom}\" stroke=\"#e4e4e4\"/>\n<text x=\"{0:.1}\" y=\"{1}\" text-anchor=\"middle\" fill=\"#444\">{2}</text>",
            x(n),
            bottom + 16.0,
            n as u64
        );
    }
    let steps = (ymax / 2.0) as usize;
    for i in 0..=steps {
        let v = i as f64 * 2.0;
        let _ = writeln!(
            o,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#e4e4e4\"/>\n<text x=\"{2}\" y=\"{3:.1}\" text-anchor=\"end\" fill=\"#444\">{v}%</text>",
            y(v),
            width - right,
            left - 6.0,
            y(v) + 4.0
        );
    }
    let _ = writeln!(
        o,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">games per block (log scale)</text>\n<text transform=\"translate(18 {:.1}) rotate(-90)\" text-anchor=\"middle\">mean |win rate - 50%|</text>",
        (left + width - right) / 2.0,
        height - 18.0,
        (top + bottom) / 2.0
    );
    let path = |f: &dyn Fn(&DeviationPoint) -> f64| {
        points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                format!(
                    "{}{:.1},{:.1}",
                    if i == 0 { "M" } else { " L" },
                    x(p.games as f64),
                    y(100.0 * f(p))
                )
            })
            .collect::<String>()
    };
    let _ = writeln!(
        o,
        "<path d=\"{}\" fill=\"none\" stroke=\"#999\" stroke-dasharray=\"5 4\" stroke-width=\"1.5\"/>",
        path(&|p| p.fair_coin)
    );
    let _ = writeln!(
        o,
        "<path d=\"{}\" fill=\"none\" stroke=\"#1f5f99\" stroke-width=\"2\"/>",
        path(&|p| p.mean_deviation)
    );
    for p in points {
        let _ = writeln!(
            o,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"#1f5f99\"><title>{} games, {} blocks: {:.2}%</title></circle>",
            x(p.games as f64),
            y(100.0 * p.mean_deviation),
            p.games,
            p.blocks,
            100.0 * p.mean_deviation
        );
    }
    // The thesis' reading: about 1% at 1000 games.
    let _ = writeln!(
        o,
        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"8\" height=\"8\" fill=\"#b03a2e\"/>",
        x(1000.0) - 4.0,
        y(1.0) - 4.0
    );
    let lx = width - right - 250.0;
    let _ = writeln!(
        o,
        "<line x1=\"{lx}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#1f5f99\" stroke-width=\"2\"/><text x=\"{2}\" y=\"{3}\">measured (mean over blocks)</text>\n<line x1=\"{lx}\" y1=\"{4}\" x2=\"{1}\" y2=\"{4}\" stroke=\"#999\" stroke-dasharray=\"5 4\"/><text x=\"{2}\" y=\"{5}\">fair coin, no draws</text>\n<rect x=\"{6}\" y=\"{7}\" width=\"8\" height=\"8\" fill=\"#b03a2e\"/><text x=\"{2}\" y=\"{8}\">thesis: about 1% at 1000 games</text>",
        top + 10.0,
        lx + 24.0,
        lx + 30.0,
        top + 14.0,
        top + 28.0,
        top + 32.0,
        lx + 8.0,
        top + 42.0,
        top + 50.0
    );
    o.push_str("</svg>\n");
    o
}
