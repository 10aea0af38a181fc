//! The pair-aware analysis of a stored run: what `tessera tournament`, `tessera report` and
//! the results site print beside the game-wise tables of [`crate::stats`].
//!
//! - Two-seat tables ([`PairingStats`]): each deal's two games (seats swapped) are one
//!   observation, counted in the pentanomial buckets LL, LD+DL, DD+WL+LW, WD+DW, WW from the
//!   first agent's side; score, logistic Elo and normalized Elo with 95% intervals from the
//!   pairs ([`crate::pentanomial`]), beside the game-wise (trinomial) figures. An unpaired run
//!   has game-wise figures only.
//! - Three or four seats with rotated seats ([`RotationStats`]): a deal's full rotation set
//!   is one observation; each agent's mean reward over the set is its share, and the interval
//!   comes from the spread of the shares across sets.
//! - Round robins and gauntlets of more than two agents at two-seat tables
//!   ([`RatingsReport`]): maximum-likelihood Elo with pair-aware error bars
//!   ([`crate::ratings::fit_paired`]; game-wise [`crate::ratings::fit`] for unpaired runs),
//!   anchored ([`Anchor`]), and the likelihood-of-superiority matrix.
//! - A run with an SPRT ([`SprtStatus`]): the test replayed over the stored pairs in schedule
//!   order ([`SprtTracker`], the same code the runner stops with).
//!
//! `docs/statistics.md` gives the formulas.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::error::ParamsError;
use crate::pentanomial::{Estimate, GameResult, Pentanomial};
use crate::ratings::{self, PairedPairing, Pairing};
use crate::schedule::RunParams;
use crate::sprt::{Decision, SprtParams};
use crate::stats::{GameRow, Z95, mean_sd};

/// The agent whose rating is fixed, and its rating: `--anchor NAME=RATING`.
#[derive(Clone, Debug, PartialEq)]
pub struct Anchor {
    /// The agent's label (as in the run's tables).
    pub agent: String,
    /// Its rating.
    pub elo: f64,
}

impl std::str::FromStr for Anchor {
    type Err = ParamsError;
    fn from_str(s: &str) -> Result<Anchor, ParamsError> {
        let bad = |why: &str| {
            ParamsError::Anchor(format!(
                "--anchor '{s}': {why}; expected NAME=RATING, e.g. random=0"
            ))
        };
        let (name, value) = s.rsplit_once('=').ok_or_else(|| bad("no '='"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(bad("the agent's name is empty"));
        }
        let elo = value
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| bad(&format!("rating '{}' is not a number", value.trim())))?;
        Ok(Anchor {
            agent: name.to_string(),
            elo,
        })
    }
}

impl Anchor {
    /// The default anchor of a run: `random` at 0 if it plays, else the first agent at 0.
    pub fn default_for(labels: &[String]) -> Anchor {
        let agent = labels
            .iter()
            .find(|l| l.as_str() == "random")
            .or(labels.first())
            .cloned()
            .unwrap_or_default();
        Anchor { agent, elo: 0.0 }
    }

    /// The anchor's agent index among `labels`; the error names the agents.
    pub fn index(&self, labels: &[String]) -> Result<usize, ParamsError> {
        labels.iter().position(|l| *l == self.agent).ok_or_else(|| {
            ParamsError::Anchor(format!(
                "--anchor names '{}', which is not an agent of the run; its agents are {}",
                self.agent,
                labels.join(", ")
            ))
        })
    }
}

/// Pair-aware and game-wise figures of one two-seat table, from its first agent's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingStats {
    /// The table.
    pub table: u32,
    /// The first agent (whose score the figures are).
    pub first: String,
    /// The second agent.
    pub second: String,
    /// True if the run plays every deal with the seats swapped.
    pub paired: bool,
    /// Complete pairs (deals with both games stored).
    pub pairs: u64,
    /// Pentanomial counts of the complete pairs: LL, LD+DL, DD+WL+LW, WD+DW, WW.
    pub counts: [u64; 5],
    /// Every stored game: losses, draws, wins of the first agent.
    pub games: [u64; 3],
    /// The pair-aware estimate (`None` for an unpaired run or without complete pairs).
    pub pair_wise: Option<Estimate>,
    /// The game-wise (trinomial) estimate: every game an independent observation.
    pub game_wise: Estimate,
    /// Likelihood of superiority from decisive games, `Φ((w - l) / sqrt(w + l))`.
    pub los: f64,
}

/// One agent's share of the points at a table of three or four seats.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RotationAgent {
    /// The agent's label.
    pub agent: String,
    /// Mean over the rotation sets of the agent's mean reward in the set.
    pub share: f64,
    /// Sample standard deviation of the per-set shares.
    pub sd: f64,
    /// Standard error of `share`: `sd / sqrt(sets)`.
    pub std_error: f64,
    /// 95% interval `share ± 1.96 std_error` (clamped to [0, 1]).
    pub interval: (f64, f64),
}

/// The rotation-set analysis of one table of three or four seats.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RotationStats {
    /// The table.
    pub table: u32,
    /// Complete rotation sets (deals with every rotation stored).
    pub sets: u64,
    /// Per agent at the table.
    pub agents: Vec<RotationAgent>,
}

/// One agent's fitted rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentRating {
    /// The agent's label.
    pub agent: String,
    /// Maximum-likelihood Elo.
    pub elo: f64,
    /// Standard error relative to the anchor (0 for the anchor).
    pub std_error: f64,
    /// 95% interval `elo ± 1.96 std_error`.
    pub interval: (f64, f64),
}

/// Maximum-likelihood ratings of a round robin or gauntlet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RatingsReport {
    /// How the errors were computed.
    pub method: String,
    /// The anchor's label.
    pub anchor: String,
    /// The anchor's fixed rating.
    pub anchor_elo: f64,
    /// Per agent, in the run's order (empty when the fit failed).
    pub agents: Vec<AgentRating>,
    /// `los[i][j]`: likelihood that agent `i` is stronger than `j`, from the fitted ratings
    /// and their covariance.
    pub los: Vec<Vec<f64>>,
    /// Why there are no ratings (for example an agent that won every game).
    pub error: Option<String>,
}

/// The state of a run's sequential test, from its stored pairs in schedule order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtStatus {
    /// The test.
    pub params: SprtParams,
    /// Wald's bounds (lower, upper).
    pub bounds: (f64, f64),
    /// The decision (Continue while undecided).
    pub decision: Decision,
    /// The LLR when the test stopped (or after the last pair in order).
    pub llr: f64,
    /// Pairs counted by the test.
    pub pairs: u64,
    /// Their pentanomial counts.
    pub counts: [u64; 5],
}

impl SprtStatus {
    /// `H0 accepted`, `H1 accepted` or `undecided`.
    pub fn verdict(&self) -> &'static str {
        match self.decision {
            Decision::AcceptH0 => "H0 accepted",
            Decision::AcceptH1 => "H1 accepted",
            Decision::Continue => "undecided",
        }
    }

    /// `LLR 1.23 [-2.94, 2.94]`: the progress line's text.
    pub fn progress_text(&self) -> String {
        format!(
            "LLR {:.2} [{:.2}, {:.2}]",
            self.llr, self.bounds.0, self.bounds.1
        )
    }
}

/// Everything the pair-aware analysis adds to a run's report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// Two-seat tables.
    pub pairings: Vec<PairingStats>,
    /// Tables of three or four seats.
    pub rotations: Vec<RotationStats>,
    /// Ratings of a round robin or gauntlet of more than two agents at two-seat tables.
    pub ratings: Option<RatingsReport>,
    /// The run's sequential test.
    pub sprt: Option<SprtStatus>,
    /// What the figures are and are not (unpaired runs, incomplete deals).
    pub notes: Vec<String>,
}

/// The result of agent `a` against `b` in a two-seat game: compares their rewards.
fn result_of(g: &GameRow, a: usize, b: usize) -> Option<GameResult> {
    let sa = g.seats.iter().position(|&x| x == a)?;
    let sb = g.seats.iter().position(|&x| x == b)?;
    let (ra, rb) = (g.reward(sa), g.reward(sb));
    Some(if ra > rb {
        GameResult::Win
    } else if ra < rb {
        GameResult::Loss
    } else {
        GameResult::Draw
    })
}

/// A deal's key in schedule order within a table: (series, deal).
type DealKey = (u32, u64);

/// Groups a table's games by deal, in schedule order.
fn deals<'a>(rows: &[&'a GameRow]) -> BTreeMap<DealKey, Vec<&'a GameRow>> {
    let mut m: BTreeMap<DealKey, Vec<&GameRow>> = BTreeMap::new();
    for g in rows {
        m.entry((g.series, g.deal)).or_default().push(g);
    }
    m
}

/// The pentanomial of agents `a` (first) and `b` over a table's games: complete pairs into
/// the counts, every game into the game counts.
pub fn pentanomial_of(rows: &[&GameRow], a: usize, b: usize, paired: bool) -> Pentanomial {
    let mut p = Pentanomial::default();
    for games in deals(rows).values() {
        let results: Vec<GameResult> = games.iter().filter_map(|g| result_of(g, a, b)).collect();
        for r in &results {
            p.games[r.half_points()] += 1;
        }
        if paired && results.len() == 2 {
            p.counts[results[0].half_points() + results[1].half_points()] += 1;
        }
    }
    p
}

/// The analysis of `rows`, the stored games of a run with `params`, its ratings anchored at
/// `anchor` (default [`Anchor::default_for`]).
pub fn analyze(
    params: &RunParams,
    rows: &[GameRow],
    anchor: Option<&Anchor>,
) -> Result<Analysis, ParamsError> {
    let labels = params.labels();
    let anchor = anchor
        .cloned()
        .unwrap_or_else(|| Anchor::default_for(&labels));
    // An anchor may name an agent by its display label or by its specification.
    let spec_labels = RunParams {
        names: Vec::new(),
        ..params.clone()
    }
    .labels();
    let anchor_index = anchor
        .index(&labels)
        .or_else(|e| anchor.index(&spec_labels).map_err(|_| e))?;
    let tables = params.tables();
    let mut out = Analysis {
        pairings: Vec::new(),
        rotations: Vec::new(),
        ratings: None,
        sprt: None,
        notes: Vec::new(),
    };
    let mut incomplete = 0u64;
    for (t, members) in tables.iter().enumerate() {
        let at: Vec<&GameRow> = rows.iter().filter(|g| g.table == t as u32).collect();
        if params.players == 2 {
            let (a, b) = (members[0], members[1]);
            let p = pentanomial_of(&at, a, b, params.paired);
            let games: u64 = p.games.iter().sum();
            incomplete += games - 2 * p.pairs();
            out.pairings.push(PairingStats {
                table: t as u32,
                first: labels[a].clone(),
                second: labels[b].clone(),
                paired: params.paired,
                pairs: p.pairs(),
                counts: p.counts,
                games: p.games,
                pair_wise: (params.paired && p.pairs() > 0).then(|| p.pentanomial()),
                game_wise: p.trinomial(),
                los: ratings::los(p.games[2], p.games[0]),
            });
        } else if params.paired {
            let k = params.rotations() as usize;
            let mut shares: Vec<Vec<f64>> = vec![Vec::new(); members.len()];
            for games in deals(&at).values() {
                if games.len() != k {
                    incomplete += games.len() as u64;
                    continue;
                }
                for (m, &agent) in members.iter().enumerate() {
                    let total: f64 = games
                        .iter()
                        .filter_map(|g| {
                            g.seats
                                .iter()
                                .position(|&x| x == agent)
                                .map(|s| g.reward(s))
                        })
                        .sum();
                    shares[m].push(total / k as f64);
                }
            }
            let sets = shares.first().map_or(0, |s| s.len()) as u64;
            out.rotations.push(RotationStats {
                table: t as u32,
                sets,
                agents: members
                    .iter()
                    .zip(&shares)
                    .map(|(&agent, xs)| {
                        let (share, sd) = mean_sd(xs);
                        let std_error = if xs.is_empty() {
                            f64::NAN
                        } else {
                            sd / (xs.len() as f64).sqrt()
                        };
                        let h = Z95 * std_error;
                        RotationAgent {
                            agent: labels[agent].clone(),
                            share,
                            sd,
                            std_error,
                            interval: ((share - h).max(0.0), (share + h).min(1.0)),
                        }
                    })
                    .collect(),
            });
        }
    }
    if !params.paired {
        out.notes.push(
            "unpaired run (every game its own deal): game-wise figures only, every game an independent observation"
                .to_string(),
        );
    } else if incomplete > 0 {
        out.notes.push(format!(
            "{incomplete} stored games belong to deals not yet complete: they count in the game-wise figures, not in the pair-wise ones"
        ));
    }
    if params.players == 2 && tables.len() > 1 {
        out.ratings = Some(fit_ratings(
            params,
            &labels,
            &out.pairings,
            &tables,
            &anchor,
            anchor_index,
        ));
    }
    if let Some(sprt) = params.sprt {
        out.sprt = Some(SprtTracker::from_rows(sprt, params, rows).status());
    }
    Ok(out)
}

fn fit_ratings(
    params: &RunParams,
    labels: &[String],
    pairings: &[PairingStats],
    tables: &[Vec<usize>],
    anchor: &Anchor,
    anchor_index: usize,
) -> RatingsReport {
    let n = labels.len();
    let (method, fitted) = if params.paired {
        let data: Vec<PairedPairing> = pairings
            .iter()
            .map(|p| PairedPairing {
                a: tables[p.table as usize][0],
                b: tables[p.table as usize][1],
                counts: p.counts,
            })
            .filter(|p| p.counts.iter().sum::<u64>() > 0)
            .collect();
        (
            "pair-aware: maximum likelihood (Bradley-Terry), errors from the deal pairs (sandwich estimator)",
            ratings::fit_paired(n, &data, anchor_index, anchor.elo),
        )
    } else {
        let data: Vec<Pairing> = pairings
            .iter()
            .map(|p| Pairing {
                a: tables[p.table as usize][0],
                b: tables[p.table as usize][1],
                wins: p.games[2],
                draws: p.games[1],
                losses: p.games[0],
            })
            .filter(|p| p.wins + p.draws + p.losses > 0)
            .collect();
        (
            "game-wise: maximum likelihood (Bradley-Terry), errors from the Fisher information (unpaired run)",
            ratings::fit(n, &data, anchor_index, anchor.elo),
        )
    };
    let mut report = RatingsReport {
        method: method.to_string(),
        anchor: anchor.agent.clone(),
        anchor_elo: anchor.elo,
        agents: Vec::new(),
        los: Vec::new(),
        error: None,
    };
    match fitted {
        Ok(r) => {
            report.agents = (0..n)
                .map(|i| AgentRating {
                    agent: labels[i].clone(),
                    elo: r.elo[i],
                    std_error: r.std_error[i],
                    interval: r.interval(i),
                })
                .collect();
            report.los = r.los_matrix();
        }
        Err(e) => {
            let e = match e {
                ratings::RatingError::NotConnected { player } => format!(
                    "no finite ratings: {} cannot be compared both ways with the others (for example it won or lost every game)",
                    labels.get(player).map_or("an agent", String::as_str)
                ),
                other => other.to_string(),
            };
            report.error = Some(e);
        }
    }
    report
}

/// The sequential test of a run, fed its games in any order; it counts pairs in schedule
/// order (deal by deal) and stops counting at the first pair at which the LLR crosses a
/// bound, so the decision does not depend on the order games finished in.
#[derive(Clone, Debug)]
pub struct SprtTracker {
    params: SprtParams,
    bounds: (f64, f64),
    deals_per_series: u64,
    /// Results (first agent's half-points) of deals not yet counted, by deal ordinal.
    pending: BTreeMap<u64, Vec<(u32, usize)>>,
    next: u64,
    counts: [u64; 5],
    llr: f64,
    decision: Decision,
}

impl SprtTracker {
    /// A test of `params` over the run `run` (two agents, paired).
    pub fn new(params: SprtParams, run: &RunParams) -> SprtTracker {
        SprtTracker {
            params,
            bounds: params.bounds(),
            deals_per_series: run.deals_per_series(),
            pending: BTreeMap::new(),
            next: 0,
            counts: [0; 5],
            llr: 0.0,
            decision: Decision::Continue,
        }
    }

    /// The test fed every row.
    pub fn from_rows(params: SprtParams, run: &RunParams, rows: &[GameRow]) -> SprtTracker {
        let mut t = SprtTracker::new(params, run);
        for g in rows {
            t.add(g);
        }
        t
    }

    /// Adds one stored game (of agent 0 against agent 1); returns the decision.
    pub fn add(&mut self, g: &GameRow) -> Decision {
        if self.decision != Decision::Continue {
            return self.decision;
        }
        let Some(r) = result_of(g, 0, 1) else {
            return self.decision;
        };
        let ordinal = g.series as u64 * self.deals_per_series + g.deal;
        if ordinal < self.next {
            return self.decision;
        }
        let slot = self.pending.entry(ordinal).or_default();
        if !slot.iter().any(|&(rot, _)| rot == g.rotation) {
            slot.push((g.rotation, r.half_points()));
        }
        while let Some(pair) = self.pending.get(&self.next) {
            if pair.len() < 2 {
                break;
            }
            let bucket = pair[0].1 + pair[1].1;
            self.pending.remove(&self.next);
            self.next += 1;
            self.counts[bucket] += 1;
            self.llr = self.params.llr(&self.counts);
            if self.llr >= self.bounds.1 {
                self.decision = Decision::AcceptH1;
            } else if self.llr <= self.bounds.0 {
                self.decision = Decision::AcceptH0;
            }
            if self.decision != Decision::Continue {
                self.pending.clear();
                break;
            }
        }
        self.decision
    }

    /// The test's state now.
    pub fn status(&self) -> SprtStatus {
        SprtStatus {
            params: self.params,
            bounds: self.bounds,
            decision: self.decision,
            llr: self.llr,
            pairs: self.counts.iter().sum(),
            counts: self.counts,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt::EloModel;

    /// A two-seat game of agents `a` (seat 0) and `b` (seat 1).
    fn game(index: u64, deal: u64, rotation: u32, seats: [usize; 2], winners: &[usize]) -> GameRow {
        GameRow {
            index,
            table: 0,
            series: 0,
            deal,
            rotation,
            seats: seats.to_vec(),
            scores: vec![0, 0],
            winners: winners.to_vec(),
        }
    }

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} vs {b}");
    }

    /// Deals with the first agent's results: WW, WL, LL, DW, WD, DD, then an incomplete W.
    fn sample() -> Vec<GameRow> {
        // In rotation 0 agent 0 sits at seat 0; in rotation 1 at seat 1.
        let mut rows = Vec::new();
        let results = [
            ("W", "W"),
            ("W", "L"),
            ("L", "L"),
            ("D", "W"),
            ("W", "D"),
            ("D", "D"),
        ];
        let winners = |r: &str, seat_of_0: usize| -> Vec<usize> {
            match r {
                "W" => vec![seat_of_0],
                "L" => vec![1 - seat_of_0],
                _ => vec![0, 1],
            }
        };
        for (d, (r0, r1)) in results.iter().enumerate() {
            let d = d as u64;
            rows.push(game(2 * d, d, 0, [0, 1], &winners(r0, 0)));
            rows.push(game(2 * d + 1, d, 1, [1, 0], &winners(r1, 1)));
        }
        rows.push(game(12, 6, 0, [0, 1], &[0]));
        rows
    }

    #[test]
    fn pairs_are_counted_by_deal_and_the_game_wise_figures_keep_every_game() {
        let params = RunParams::new("nim", &["a", "b"], 2, 14, 1, 1);
        let a = analyze(&params, &sample(), None).unwrap();
        let p = &a.pairings[0];
        // LL 1; LD+DL 0; DD+WL+LW 2 (WL, DD); WD+DW 2; WW 1.
        assert_eq!(p.counts, [1, 0, 2, 2, 1]);
        // Games (L, D, W) by hand: WW WL LL DW WD DD and a lone W: 3 losses, 4 draws, 6 wins.
        assert_eq!(p.games, [3, 4, 6]);
        assert_eq!(p.pairs, 6);
        // Pair-wise score (0 + 2·½ + 2·¾ + 1) / 6 = 3.5/6.
        let e = p.pair_wise.unwrap();
        close(e.score, 3.5 / 6.0, 1e-12);
        // Variance by hand: outcomes 0, ½, ½, ¾, ¾, 1 about 7/12.
        let s: f64 = 7.0 / 12.0;
        let v = ([0.0, 0.5, 0.5, 0.75, 0.75, 1.0f64]
            .iter()
            .map(|x| (x - s).powi(2))
            .sum::<f64>())
            / 6.0;
        close(e.variance, v, 1e-12);
        close(e.std_error, (v / 6.0).sqrt(), 1e-12);
        // Game-wise: 13 games, (6 + 4/2) / 13 points.
        close(p.game_wise.score, 8.0 / 13.0, 1e-12);
        assert_eq!(p.game_wise.observations, 13);
        assert!(a.notes[0].contains("1 stored games belong to deals not yet complete"));
        assert!(a.ratings.is_none() && a.sprt.is_none());
    }

    #[test]
    fn unpaired_runs_get_game_wise_figures_only() {
        let mut params = RunParams::new("nim", &["a", "b"], 2, 4, 1, 1);
        params.paired = false;
        let rows: Vec<GameRow> = (0..4)
            .map(|i| game(i, i, 0, [0, 1], if i < 3 { &[0] } else { &[1] }))
            .collect();
        let a = analyze(&params, &rows, None).unwrap();
        assert!(a.pairings[0].pair_wise.is_none());
        assert_eq!(a.pairings[0].games, [1, 0, 3]);
        assert!(a.notes[0].contains("game-wise figures only"));
    }

    #[test]
    fn rotation_sets_are_the_unit_at_three_seats() {
        let params = RunParams::new("nim", &["a", "b", "c"], 3, 6, 1, 1);
        // Two deals, three rotations each. Deal 0: a wins twice, b once; deal 1: c wins all.
        let seats = [[0, 1, 2], [1, 2, 0], [2, 0, 1]];
        let mut rows = Vec::new();
        let winner_agent = [[0, 0, 1], [2, 2, 2]];
        for d in 0..2u64 {
            for r in 0..3u32 {
                let s = seats[r as usize];
                let w = s
                    .iter()
                    .position(|&x| x == winner_agent[d as usize][r as usize])
                    .unwrap();
                rows.push(GameRow {
                    index: d * 3 + r as u64,
                    table: 0,
                    series: 0,
                    deal: d,
                    rotation: r,
                    seats: s.to_vec(),
                    scores: vec![0; 3],
                    winners: vec![w],
                });
            }
        }
        let a = analyze(&params, &rows, None).unwrap();
        let t = &a.rotations[0];
        assert_eq!(t.sets, 2);
        // a's shares: 2/3 and 0 -> mean 1/3, sd sqrt(2)·1/3, se 1/3.
        let x = &t.agents[0];
        close(x.share, 1.0 / 3.0, 1e-12);
        close(x.sd, (2.0f64).sqrt() / 3.0, 1e-12);
        close(x.std_error, 1.0 / 3.0, 1e-12);
        assert_eq!(x.interval, (0.0, (1.0 / 3.0 + Z95 / 3.0f64).min(1.0)));
        close(t.agents[2].share, 0.5, 1e-12);
        let sum: f64 = t.agents.iter().map(|x| x.share).sum();
        close(sum, 1.0, 1e-12);
    }

    #[test]
    fn round_robin_ratings_are_pair_aware_and_anchored() {
        let params = RunParams::new("nim", &["a", "b", "random"], 2, 4, 1, 1);
        // Each table: two deals; first agent scores WL and WW at every table.
        let tables = params.tables();
        let mut rows = Vec::new();
        for (t, m) in tables.iter().enumerate() {
            let (x, y) = (m[0], m[1]);
            let base = t as u64 * 4;
            let g = |i: u64, deal, rot, seats: [usize; 2], w: usize| GameRow {
                index: base + i,
                table: t as u32,
                series: 0,
                deal,
                rotation: rot,
                seats: seats.to_vec(),
                scores: vec![0, 0],
                winners: vec![w],
            };
            rows.push(g(0, 0, 0, [x, y], 0));
            rows.push(g(1, 0, 1, [y, x], 0));
            rows.push(g(2, 1, 0, [x, y], 0));
            rows.push(g(3, 1, 1, [y, x], 1));
        }
        let a = analyze(&params, &rows, None).unwrap();
        let r = a.ratings.unwrap();
        assert_eq!(r.anchor, "random");
        assert!(r.error.is_none(), "{:?}", r.error);
        let random = r.agents.iter().find(|x| x.agent == "random").unwrap();
        assert_eq!((random.elo, random.std_error), (0.0, 0.0));
        // The same through the library call with the same data.
        let data: Vec<PairedPairing> = tables
            .iter()
            .map(|m| PairedPairing {
                a: m[0],
                b: m[1],
                counts: [0, 0, 1, 0, 1],
            })
            .collect();
        let direct = ratings::fit_paired(3, &data, 2, 0.0).unwrap();
        for i in 0..3 {
            close(r.agents[i].elo, direct.elo[i], 1e-9);
            close(r.agents[i].std_error, direct.std_error[i], 1e-9);
        }
        assert_eq!(r.los.len(), 3);
        // An explicit anchor moves every rating by the same amount.
        let anchored = analyze(&params, &rows, Some(&"a=1500".parse::<Anchor>().unwrap()))
            .unwrap()
            .ratings
            .unwrap();
        close(anchored.agents[0].elo, 1500.0, 1e-9);
        close(
            anchored.agents[1].elo - anchored.agents[2].elo,
            r.agents[1].elo - r.agents[2].elo,
            1e-6,
        );
        let e = analyze(&params, &rows, Some(&"zed=0".parse().unwrap())).unwrap_err();
        assert!(e.to_string().contains("its agents are a, b, random"), "{e}");
    }

    #[test]
    fn anchors_parse_with_clear_errors() {
        let a: Anchor = "random=-100.5".parse().unwrap();
        assert_eq!((a.agent.as_str(), a.elo), ("random", -100.5));
        let a: Anchor = "strong:depth=2=10".parse().unwrap();
        assert_eq!((a.agent.as_str(), a.elo), ("strong:depth=2", 10.0));
        for (bad, says) in [
            ("random", "no '='"),
            ("=5", "name is empty"),
            ("x=y", "'y' is not"),
        ] {
            let e = bad.parse::<Anchor>().unwrap_err().to_string();
            assert!(e.contains(says) && e.contains("NAME=RATING"), "{bad}: {e}");
        }
        let labels = vec!["greedy".to_string(), "random".to_string()];
        assert_eq!(Anchor::default_for(&labels).agent, "random");
        assert_eq!(Anchor::default_for(&labels[..1]).agent, "greedy");
    }

    #[test]
    fn the_tracker_counts_pairs_in_schedule_order_whatever_the_arrival_order() {
        let sprt = SprtParams::new(0.0, 100.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        let mut params = RunParams::new("nim", &["a", "b"], 2, 200, 1, 1);
        params.sprt = Some(sprt);
        // Agent 0 wins every game: WW pairs.
        let rows: Vec<GameRow> = (0..200u64)
            .map(|i| {
                let rot = (i % 2) as u32;
                let seats = if rot == 0 { [0, 1] } else { [1, 0] };
                game(i, i / 2, rot, seats, &[rot as usize])
            })
            .collect();
        let forward = SprtTracker::from_rows(sprt, &params, &rows).status();
        let mut reversed: Vec<GameRow> = rows.clone();
        reversed.reverse();
        let backward = SprtTracker::from_rows(sprt, &params, &reversed).status();
        assert_eq!(forward, backward);
        assert_eq!(forward.decision, Decision::AcceptH1);
        // It stopped at the first crossing: one pair fewer is still undecided.
        let first = forward.pairs;
        assert!(first < 100, "{first}");
        let sequential = crate::sprt::run_sequential(&sprt, std::iter::repeat_n(4usize, 100));
        assert_eq!(sequential.pairs, first);
        assert_eq!(sequential.llr, forward.llr);
        assert!(forward.progress_text().starts_with("LLR "));
        // A gap in the schedule holds the test: later pairs wait.
        let gap: Vec<GameRow> = rows.iter().filter(|g| g.deal != 0).cloned().collect();
        let held = SprtTracker::from_rows(sprt, &params, &gap).status();
        assert_eq!((held.pairs, held.decision), (0, Decision::Continue));
    }
}
