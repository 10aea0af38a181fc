//! Reports: the results table as text, CSV or JSON, and SVG charts.

use std::fmt::Write as _;

use serde::Serialize;

use crate::analysis::Analysis;
use crate::schedule::{RunParams, sprt_text};
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

/// The lines a text report adds for a run under a game clock: the time control and the
/// flag losses per agent (from [`crate::runner::fault_counts`]); empty for a run without a
/// clock.
pub fn clock_text(
    params: &RunParams,
    faults: &[(String, tessera_core::table::FaultKind, u64)],
) -> String {
    let Some(clock) = params.clock else {
        return String::new();
    };
    let mut out =
        format!("\nClock {clock} for every seat; flag losses (time ran out, the game lost):\n");
    let flags: Vec<_> = faults
        .iter()
        .filter(|(_, kind, _)| *kind == tessera_core::table::FaultKind::Flag)
        .collect();
    if flags.is_empty() {
        out.push_str("  none\n");
    }
    for (agent, _, n) in flags {
        let _ = writeln!(out, "  {agent}: {n}");
    }
    out
}

/// Renders the results of `run` in `format`: the game-wise summary and the pair-aware
/// analysis.
pub fn render(run: &RunInfo, summary: &Summary, analysis: &Analysis, format: Format) -> String {
    match format {
        Format::Table => {
            let mut o = text(run, summary);
            o.push_str(&analysis_text(run, analysis));
            o
        }
        Format::Csv => csv(run, summary, analysis),
        Format::Json => json(run, summary, analysis),
    }
}

/// An Elo difference for people: `+12.3`, `+inf`, `n/a`.
pub fn elo_text(x: f64) -> String {
    if x.is_nan() {
        "n/a".to_string()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

/// The width of a text table's name column: the longest name, at least 5 (`agent`).
fn name_width<'a>(names: impl Iterator<Item = &'a str>) -> usize {
    names.map(str::len).max().unwrap_or(5).max(5)
}

fn elo_interval(i: (f64, f64)) -> String {
    format!("[{}, {}]", elo_text(i.0), elo_text(i.1))
}

fn pct_interval(i: (f64, f64)) -> String {
    format!("[{:.1}, {:.1}]", 100.0 * i.0, 100.0 * i.1)
}

/// The pair-aware part of the text report.
pub fn analysis_text(run: &RunInfo, a: &Analysis) -> String {
    let mut o = String::new();
    let p = &run.params;
    if !a.pairings.is_empty() {
        let _ = writeln!(o);
        if p.paired {
            let _ = writeln!(
                o,
                "pairs (each deal's two games, seats swapped, are one observation); score and Elo of the first agent,"
            );
            let _ = writeln!(
                o,
                "95% intervals from the pairs (pentanomial) and, for comparison, from the games as if independent:"
            );
        } else {
            let _ = writeln!(
                o,
                "game-wise only (unpaired run: every game its own deal, so there are no pairs); first agent's score and Elo:"
            );
        }
        let w = a
            .pairings
            .iter()
            .map(|x| x.first.len() + x.second.len() + 4)
            .max()
            .unwrap_or(7)
            .max(7);
        let _ = writeln!(
            o,
            "{:<w$}  {:>5}  {:>4} {:>5} {:>8} {:>5} {:>4}  {:>6}  {:>14}  {:>14}  {:>7}  {:>18}  {:>18}  {:>6}",
            "pairing",
            "pairs",
            "LL",
            "LD+DL",
            "DD+WL+LW",
            "WD+DW",
            "WW",
            "score",
            "95% (pairs)",
            "95% (games)",
            "Elo",
            "Elo 95% (pairs)",
            "Elo 95% (games)",
            "LOS"
        );
        for x in &a.pairings {
            let name = format!("{} vs {}", x.first, x.second);
            let c = x.counts;
            let (counts, pair_i, pair_e) = match &x.pair_wise {
                Some(e) => (
                    format!(
                        "{:>5}  {:>4} {:>5} {:>8} {:>5} {:>4}",
                        x.pairs, c[0], c[1], c[2], c[3], c[4]
                    ),
                    pct_interval(e.score_interval),
                    elo_interval(e.elo_interval),
                ),
                None => (
                    format!(
                        "{:>5}  {:>4} {:>5} {:>8} {:>5} {:>4}",
                        "-", "", "", "", "", ""
                    ),
                    "-".to_string(),
                    "-".to_string(),
                ),
            };
            let g = &x.game_wise;
            let _ = writeln!(
                o,
                "{name:<w$}  {counts}  {:>6}  {:>14}  {:>14}  {:>7}  {:>18}  {:>18}  {:>6}",
                if g.score.is_nan() {
                    "n/a".to_string()
                } else {
                    pct(g.score)
                },
                pair_i,
                pct_interval(g.score_interval),
                elo_text(g.elo),
                pair_e,
                elo_interval(g.elo_interval),
                pct(x.los)
            );
        }
        let _ = writeln!(
            o,
            "(LOS: likelihood of superiority of the first agent from decisive games, Φ((W-L)/√(W+L)))"
        );
    }
    for r in &a.rotations {
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "rotation sets, table {} ({}): {} complete sets; each deal's {} seat rotations are one observation",
            r.table + 1,
            table_name(p, r.table as usize),
            r.sets,
            p.rotations()
        );
        let w = name_width(r.agents.iter().map(|x| x.agent.as_str()));
        let _ = writeln!(
            o,
            "{:<w$}  {:>11}  {:>8}  {:>14}",
            "agent", "mean share", "set sd", "95% interval"
        );
        for x in &r.agents {
            let _ = writeln!(
                o,
                "{:<w$}  {:>11}  {:>8.3}  {:>14}",
                x.agent,
                pct(x.share),
                x.sd,
                pct_interval(x.interval)
            );
        }
    }
    if let Some(r) = &a.ratings {
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "ratings ({}), anchor {} = {}:",
            r.method, r.anchor, r.anchor_elo
        );
        if let Some(e) = &r.error {
            let _ = writeln!(o, "  {e}");
        } else {
            let w = name_width(r.agents.iter().map(|x| x.agent.as_str()));
            let _ = writeln!(
                o,
                "{:<w$}  {:>8}  {:>7}  {:>20}",
                "agent", "Elo", "± se", "95% interval"
            );
            for x in &r.agents {
                let _ = writeln!(
                    o,
                    "{:<w$}  {:>8}  {:>7.1}  {:>20}",
                    x.agent,
                    elo_text(x.elo),
                    x.std_error,
                    elo_interval(x.interval)
                );
            }
            let _ = writeln!(o);
            let _ = writeln!(
                o,
                "likelihood of superiority (row stronger than column, from the fitted ratings):"
            );
            let mut head = format!("{:<w$}", "");
            for x in &r.agents {
                let _ = write!(head, "  {:>8}", short(&x.agent, 8));
            }
            let _ = writeln!(o, "{head}");
            for (i, x) in r.agents.iter().enumerate() {
                let mut line = format!("{:<w$}", x.agent);
                for j in 0..r.agents.len() {
                    let cell = if i == j {
                        "-".to_string()
                    } else {
                        pct(r.los[i][j])
                    };
                    let _ = write!(line, "  {cell:>8}");
                }
                let _ = writeln!(o, "{line}");
            }
        }
    }
    if let Some(t) = &a.sprt {
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "SPRT {} ({} Elo): {} after {} pairs, {} (counts LL {} LD+DL {} DD+WL+LW {} WD+DW {} WW {})",
            sprt_text(&t.params),
            match t.params.model {
                crate::sprt::EloModel::Logistic => "logistic",
                crate::sprt::EloModel::Normalized => "normalized",
            },
            t.verdict(),
            t.pairs,
            t.progress_text(),
            t.counts[0],
            t.counts[1],
            t.counts[2],
            t.counts[3],
            t.counts[4]
        );
    }
    for n in &a.notes {
        let _ = writeln!(o, "note: {n}");
    }
    o
}

fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
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
    let w = name_width(s.agents.iter().map(|t| t.agent.as_str()));
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
        if show_elo { "      elo*" } else { "" }
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
    if show_elo {
        let _ = writeln!(
            o,
            "elo*: a quick game-wise Bradley-Terry fit with one virtual draw per pairing, mean \
             1500, finite even when a player won or lost everything; the ratings with error \
             bars are the maximum-likelihood fit below."
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

/// Columns of the CSV after `elo`: the pair-aware figures (empty where they do not apply).
const CSV_EXTRA: &str = "elo_se,elo_low,elo_high,opponent,pairs,ll,ld_dl,dd_wl_lw,wd_dw,ww,score,score_low,score_high,pair_elo,pair_elo_low,pair_elo_high,game_score_low,game_score_high,game_elo,game_elo_low,game_elo_high,los,llr,llr_low,llr_high,decision";

fn csv(run: &RunInfo, s: &Summary, a: &Analysis) -> String {
    let mut o = format!(
        "run,scope,table,series,agent,games,wins,draws,losses,win_rate,ci_low,ci_high,score_mean,score_sd,elo,{CSV_EXTRA}\n"
    );
    let extra_columns = CSV_EXTRA.split(',').count();
    let blank_extra = ",".repeat(extra_columns);
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
            "{},{scope},{table},{series},{},{},{},{},{},{:.6},{:.6},{:.6},{:.4},{:.4},{elo}{blank_extra}",
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
    let f = |x: f64| {
        if x.is_nan() {
            String::new()
        } else {
            format!("{x:.6}")
        }
    };
    let empty = |k: usize| vec![String::new(); k];
    let mut rest = |scope: &str, table: String, agent: &str, elo: String, cells: Vec<String>| {
        debug_assert_eq!(cells.len(), extra_columns);
        let _ = writeln!(
            o,
            "{},{scope},{table},,{},,,,,,,,,,{elo},{}",
            run.id,
            esc(agent),
            cells.iter().map(|c| esc(c)).collect::<Vec<_>>().join(",")
        );
    };
    for x in &a.pairings {
        let mut c = empty(extra_columns);
        c[3] = x.second.clone();
        if let Some(e) = &x.pair_wise {
            c[4] = x.pairs.to_string();
            for k in 0..5 {
                c[5 + k] = x.counts[k].to_string();
            }
            c[11] = f(e.score_interval.0);
            c[12] = f(e.score_interval.1);
            c[13] = f(e.elo);
            c[14] = f(e.elo_interval.0);
            c[15] = f(e.elo_interval.1);
        }
        let g = &x.game_wise;
        c[10] = f(g.score);
        c[16] = f(g.score_interval.0);
        c[17] = f(g.score_interval.1);
        c[18] = f(g.elo);
        c[19] = f(g.elo_interval.0);
        c[20] = f(g.elo_interval.1);
        c[21] = f(x.los);
        rest(
            "pairing",
            (x.table + 1).to_string(),
            &x.first,
            String::new(),
            c,
        );
    }
    for r in &a.rotations {
        for x in &r.agents {
            let mut c = empty(extra_columns);
            c[4] = r.sets.to_string();
            c[10] = f(x.share);
            c[11] = f(x.interval.0);
            c[12] = f(x.interval.1);
            rest(
                "rotation",
                (r.table + 1).to_string(),
                &x.agent,
                String::new(),
                c,
            );
        }
    }
    if let Some(r) = &a.ratings {
        for x in &r.agents {
            let mut c = empty(extra_columns);
            c[0] = f(x.std_error);
            c[1] = f(x.interval.0);
            c[2] = f(x.interval.1);
            rest("rating", String::new(), &x.agent, f(x.elo), c);
        }
    }
    if let Some(t) = &a.sprt {
        let mut c = empty(extra_columns);
        c[4] = t.pairs.to_string();
        for k in 0..5 {
            c[5 + k] = t.counts[k].to_string();
        }
        c[22] = f(t.llr);
        c[23] = f(t.bounds.0);
        c[24] = f(t.bounds.1);
        c[25] = t.verdict().to_string();
        let first = run.params.labels().first().cloned().unwrap_or_default();
        rest("sprt", "1".to_string(), &first, String::new(), c);
    }
    o
}

#[derive(Serialize)]
struct JsonReport<'a> {
    run: JsonRun<'a>,
    summary: &'a Summary,
    analysis: &'a Analysis,
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

fn json(run: &RunInfo, s: &Summary, analysis: &Analysis) -> String {
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
        analysis,
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

/// Elo with 95% error bars: the fitted ratings of a round robin or gauntlet, else each
/// pairing's Elo difference (pair-wise interval, or game-wise for an unpaired run). `None`
/// when there is nothing to draw. Infinite or missing bounds are drawn to the plot's edge
/// with an arrow.
pub fn elo_svg(run: &RunInfo, a: &Analysis) -> Option<String> {
    let mut rows: Vec<(String, f64, (f64, f64))> = Vec::new();
    let title;
    if let Some(r) = a.ratings.as_ref().filter(|r| r.error.is_none()) {
        title = format!(
            "Elo (anchor {} = {}) with 95% interval",
            r.anchor, r.anchor_elo
        );
        for x in &r.agents {
            rows.push((x.agent.clone(), x.elo, x.interval));
        }
    } else {
        title = if run.params.paired {
            "Elo difference of each pairing with 95% interval (from the pairs)".to_string()
        } else {
            "Elo difference of each pairing with 95% interval (game-wise, unpaired run)".to_string()
        };
        for x in &a.pairings {
            let e = x.pair_wise.as_ref().unwrap_or(&x.game_wise);
            if e.elo.is_nan() {
                continue;
            }
            rows.push((
                format!("{} vs {}", x.first, x.second),
                e.elo,
                e.elo_interval,
            ));
        }
    }
    if rows.is_empty() {
        return None;
    }
    let finite: Vec<f64> = rows
        .iter()
        .flat_map(|(_, e, (lo, hi))| [*e, *lo, *hi])
        .filter(|x| x.is_finite())
        .collect();
    let (mut lo, mut hi) = finite
        .iter()
        .fold((0.0f64, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
    let pad = ((hi - lo) * 0.08).max(20.0);
    lo -= pad;
    hi += pad;
    let (left, width, row_h, top) = (260.0, 820.0, 24.0, 56.0);
    let plot_w = width - left - 40.0;
    let height = top + row_h * rows.len() as f64 + 46.0;
    let x = |v: f64| left + plot_w * ((v.clamp(lo, hi) - lo) / (hi - lo));
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"elo-chart\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" {FONT} font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n<text x=\"10\" y=\"40\" fill=\"#555\">{}</text>",
        xml(&title),
        xml(&run.params.command_line())
    );
    let bottom = height - 36.0;
    let step = nice_step((hi - lo) / 8.0);
    let mut t = (lo / step).ceil() * step;
    while t <= hi {
        let _ = writeln!(
            o,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{bottom}\" stroke=\"{1}\"/>\n<text x=\"{0:.1}\" y=\"{2}\" text-anchor=\"middle\" fill=\"#444\">{3}</text>",
            x(t),
            if t.abs() < step / 2.0 {
                "#999"
            } else {
                "#e4e4e4"
            },
            bottom + 16.0,
            tick_label(t)
        );
        t += step;
    }
    for (i, (label, elo, (l, h))) in rows.iter().enumerate() {
        let cy = top + row_h * i as f64 + row_h / 2.0;
        let _ = writeln!(
            o,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n<line x1=\"{:.1}\" y1=\"{cy:.1}\" x2=\"{:.1}\" y2=\"{cy:.1}\" stroke=\"#1f5f99\" stroke-width=\"2\"/>",
            left - 8.0,
            cy + 4.0,
            xml(label),
            x(if l.is_nan() { lo } else { *l }),
            x(if h.is_nan() { hi } else { *h }),
        );
        for (bound, edge, dir) in [(*l, lo, -1.0), (*h, hi, 1.0)] {
            if !bound.is_finite() || (bound - edge) * dir > 0.0 {
                let ex = x(edge);
                let _ = writeln!(
                    o,
                    "<path d=\"M{:.1},{:.1} L{ex:.1},{cy:.1} L{:.1},{:.1}\" fill=\"none\" stroke=\"#1f5f99\" stroke-width=\"2\"/>",
                    ex - 6.0 * dir,
                    cy - 4.0,
                    ex - 6.0 * dir,
                    cy + 4.0
                );
            }
        }
        let _ = writeln!(
            o,
            "<circle cx=\"{:.1}\" cy=\"{cy:.1}\" r=\"4.5\" fill=\"#b03a2e\"><title>{}: {} {}</title></circle>",
            x(*elo),
            xml(label),
            elo_text(*elo),
            elo_interval((*l, *h))
        );
    }
    o.push_str("</svg>\n");
    Some(o)
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
/// An axis tick's label: the value rounded, with no "-0" for a tick at zero reached from
/// below (`-0.0 + 0.0` is `+0.0`).
fn tick_label(t: f64) -> f64 {
    t.round() + 0.0
}

fn nice_step(raw: f64) -> f64 {
    if raw.is_nan() || raw <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

#[cfg(test)]
mod tick_tests {
    use super::tick_label;

    #[test]
    fn a_tick_at_zero_reads_0_not_minus_0() {
        for t in [-0.0, -1e-13, -0.4, 0.3] {
            assert_eq!(tick_label(t).to_string(), "0", "{t}");
        }
        assert_eq!(tick_label(-50.0).to_string(), "-50");
        assert_eq!(tick_label(25.2).to_string(), "25");
    }
}
