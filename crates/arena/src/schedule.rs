//! The schedule of a run: which agents sit where in game `i`, and with which seed.
//!
//! A run plays `series` series of `games` games at every table. A table is one choice of
//! `players` agents from the list (all of them when the list has exactly `players` agents;
//! every combination, a round robin, when it has more). Within a series, games come in
//! *deals*: one seed, played once per seat rotation (seats swapped for two players, rotated
//! for three or four), so the luck of the deal and of the starting seat cancels. The seed of
//! deal `d` of series `s` is `derive_seed(master, s * deals_per_series + d)`, the same at
//! every table. With `paired = false` every game is its own deal, seated in list order
//! (the thesis' set-up, needed for self-play: identical deterministic players on a swapped
//! deal would replay the same game).
//!
//! ```
//! use tessera_arena::schedule::RunParams;
//! let p = RunParams::new("nim", &["first", "random"], 2, 4, 1, 7);
//! let s0 = p.slot(0);
//! let s1 = p.slot(1);
//! assert_eq!(s0.seed, s1.seed); // one deal ...
//! assert_eq!(s0.seats, vec![0, 1]);
//! assert_eq!(s1.seats, vec![1, 0]); // ... played with seats swapped
//! assert_ne!(p.slot(2).seed, s0.seed);
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tessera_core::Clock;
use tessera_core::rng::derive_seed;

use crate::error::{ArenaError, ParamsError};
use crate::games::GameDriver;
use crate::sprt::{EloModel, SprtParams};

/// Everything that determines a run's games (not how many threads play them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunParams {
    /// The game's name.
    pub game: String,
    /// Agent specifications, in the order given.
    pub agents: Vec<String>,
    /// Seats per table.
    pub players: usize,
    /// Games per table and series.
    pub games: u64,
    /// Number of series.
    pub series: u32,
    /// The master seed.
    pub seed: u64,
    /// Deals played once per seat rotation (true) or every game its own deal (false).
    pub paired: bool,
    /// A gauntlet: only the tables with the first agent (it meets every other agent; the
    /// others do not meet each other). Absent from runs stored before gauntlets existed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gauntlet: bool,
    /// A sequential test: play deal pairs until the log-likelihood ratio crosses a bound
    /// (`games` is then the maximum). Absent from runs without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtParams>,
    /// A game clock for every seat (`--clock 60s+1s`): it replaces the agents' per-move
    /// time limits, and a seat whose time runs out loses. Absent from runs without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clock>,
    /// Display names of the agents that told one: an external engine's `id name` from the
    /// protocol handshake, per agent (`None` for the others). Not part of the run's identity
    /// (never serialized); the store fills it in from its `agent_names` table.
    #[serde(skip)]
    pub names: Vec<Option<String>>,
}

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Index in the whole run, from 0.
    pub index: u64,
    /// The table (index into [`RunParams::tables`]).
    pub table: u32,
    /// The series, from 0.
    pub series: u32,
    /// The deal within the series, from 0.
    pub deal: u64,
    /// The seat rotation within the deal.
    pub rotation: u32,
    /// The game's seed.
    pub seed: u64,
    /// Agent index (into [`RunParams::agents`]) at each seat, seat 0 first.
    pub seats: Vec<usize>,
}

/// The `K`-th of `N` slices of a run (`K` from 1), for spreading one run over machines.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This slice, 1..=count.
    pub index: u32,
    /// Number of slices.
    pub count: u32,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 1, count: 1 };
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ArenaError;
    fn from_str(s: &str) -> Result<Self, ArenaError> {
        let bad = || ArenaError::Params(ParamsError::Shard(s.to_string()));
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl RunParams {
    /// Paired run parameters.
    pub fn new(
        game: &str,
        agents: &[&str],
        players: usize,
        games: u64,
        series: u32,
        seed: u64,
    ) -> Self {
        RunParams {
            game: game.to_string(),
            agents: agents.iter().map(|s| s.to_string()).collect(),
            players,
            games,
            series,
            seed,
            paired: true,
            gauntlet: false,
            sprt: None,
            clock: None,
            names: Vec::new(),
        }
    }

    /// Checks that the parameters make a tournament of `driver`'s game and that every
    /// agent exists.
    pub fn validate(&self, driver: &dyn GameDriver) -> Result<(), ArenaError> {
        let info = driver.info();
        let p = |e: ParamsError| Err(ArenaError::Params(e));
        if self.games == 0 {
            return p(ParamsError::NoGames);
        }
        if self.series == 0 {
            return p(ParamsError::NoSeries);
        }
        if self.agents.len() < 2 {
            return p(ParamsError::TooFewAgents(self.agents.len()));
        }
        if !info.seats_ok(self.players) {
            return p(ParamsError::Seats {
                game: info.name,
                min: info.min_players,
                max: info.max_players,
                given: self.players,
            });
        }
        if self.agents.len() < self.players {
            return p(ParamsError::FewerAgentsThanSeats {
                seats: self.players,
                agents: self.agents.len(),
            });
        }
        if let Some(sprt) = &self.sprt
            && (self.agents.len() != 2 || self.players != 2 || !self.paired)
        {
            return p(ParamsError::Sprt(format!(
                "--sprt tests two agents on paired deals: give exactly two agents, --players 2 and no --unpaired (got {} agents, {} players{}; elo0={}, elo1={})",
                self.agents.len(),
                self.players,
                if self.paired { "" } else { ", unpaired" },
                sprt.elo0,
                sprt.elo1
            )));
        }
        let tables = self.table_count();
        if tables > 100_000 {
            return p(ParamsError::TooManyTables {
                agents: self.agents.len(),
                seats: self.players,
                tables,
            });
        }
        if self.total_games().is_none_or(|t| t > (i64::MAX as u64) / 2) {
            return p(ParamsError::TooManyGames);
        }
        for a in &self.agents {
            driver.check_agent(a)?;
        }
        Ok(())
    }

    /// Display names: the specifications (or an external engine's `id name` when known,
    /// see [`RunParams::names`]), numbered when one is listed twice (`greedy`, `greedy#2`).
    pub fn labels(&self) -> Vec<String> {
        let base: Vec<&String> = self
            .agents
            .iter()
            .enumerate()
            .map(|(i, a)| self.names.get(i).and_then(Option::as_ref).unwrap_or(a))
            .collect();
        let mut out: Vec<String> = Vec::with_capacity(self.agents.len());
        for (i, a) in base.iter().enumerate() {
            let before = base[..i].iter().filter(|b| *b == a).count();
            let total = base.iter().filter(|b| *b == a).count();
            out.push(if total > 1 {
                format!("{a}#{}", before + 1)
            } else {
                a.to_string()
            });
        }
        out
    }

    /// Every table: agent indices in seat order of rotation 0, in lexicographic order (in a
    /// gauntlet only those with agent 0).
    pub fn tables(&self) -> Vec<Vec<usize>> {
        let all = combinations(self.agents.len(), self.players);
        if self.gauntlet {
            all.into_iter().filter(|t| t.contains(&0)).collect()
        } else {
            all
        }
    }

    /// Number of tables ([`RunParams::tables`]), without listing them.
    pub fn table_count(&self) -> u64 {
        let n = self.agents.len() as u64;
        let k = self.players as u64;
        if self.gauntlet {
            if n == 0 || k == 0 {
                0
            } else {
                binomial(n - 1, k - 1)
            }
        } else {
            binomial(n, k)
        }
    }

    /// Seat rotations per deal.
    pub fn rotations(&self) -> u64 {
        if self.paired { self.players as u64 } else { 1 }
    }

    /// Deals per table and series (the last may be played with fewer rotations when
    /// `games` is not a multiple of the seats).
    pub fn deals_per_series(&self) -> u64 {
        self.games.div_ceil(self.rotations())
    }

    /// Games in the whole run (all shards), or `None` on overflow.
    pub fn total_games(&self) -> Option<u64> {
        self.table_count()
            .checked_mul(self.series as u64)?
            .checked_mul(self.games)
    }

    /// The `index`-th game of the run.
    pub fn slot(&self, index: u64) -> Slot {
        self.slot_in(index, &self.tables())
    }

    /// The `index`-th game, with the tables precomputed.
    pub fn slot_in(&self, index: u64, tables: &[Vec<usize>]) -> Slot {
        let per_table = self.series as u64 * self.games;
        let table = (index / per_table) as usize;
        let series = ((index / self.games) % self.series as u64) as u32;
        let g = index % self.games;
        let k = self.rotations();
        let deal = g / k;
        let rotation = (g % k) as usize;
        let seed = derive_seed(self.seed, series as u64 * self.deals_per_series() + deal);
        let t = &tables[table];
        let seats = (0..self.players)
            .map(|j| t[(j + rotation) % self.players])
            .collect();
        Slot {
            index,
            table: table as u32,
            series,
            deal,
            rotation: rotation as u32,
            seed,
            seats,
        }
    }

    /// True if `slot` belongs to `shard`. Slices are made of whole deals, dealt out in
    /// turn, so every slice has all seat rotations of its deals and a fair share of every
    /// table and series.
    pub fn in_shard(&self, slot: &Slot, shard: Shard) -> bool {
        let deal_key = (slot.table as u64 * self.series as u64 + slot.series as u64)
            * self.deals_per_series()
            + slot.deal;
        deal_key % shard.count as u64 == (shard.index - 1) as u64
    }

    /// The run's identity in the store: its parameters as canonical JSON.
    pub fn key(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The `tessera tournament` arguments that make this run.
    pub fn command_line(&self) -> String {
        format!(
            "tessera tournament {} --agents {} --players {} --games {} --series {} --seed {}{}{}{}{}",
            self.game,
            self.agents.join(","),
            self.players,
            self.games,
            self.series,
            self.seed,
            if self.paired { "" } else { " --unpaired" },
            if self.gauntlet {
                format!(" --gauntlet {}", self.agents[0])
            } else {
                String::new()
            },
            self.sprt
                .as_ref()
                .map_or_else(String::new, |s| format!(" --sprt {}", sprt_text(s))),
            self.clock
                .map_or_else(String::new, |c| format!(" --clock {c}"))
        )
    }
}

/// An SPRT as `--sprt` takes it: `elo0=0,elo1=10,alpha=0.05,beta=0.05,model=logistic`.
pub fn sprt_text(s: &SprtParams) -> String {
    format!(
        "elo0={},elo1={},alpha={},beta={},model={}",
        s.elo0,
        s.elo1,
        s.alpha,
        s.beta,
        match s.model {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    )
}

/// Parses `--sprt elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=logistic|normalized]` (alpha
/// and beta default to 0.05, the model to logistic) into a validated test.
pub fn parse_sprt(text: &str) -> Result<SprtParams, ParamsError> {
    let bad = |why: String| {
        ParamsError::Sprt(format!(
            "--sprt '{text}': {why}; expected elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=logistic|normalized], e.g. elo0=0,elo1=10"
        ))
    };
    let (mut elo0, mut elo1, mut alpha, mut beta, mut model) =
        (None, None, 0.05, 0.05, EloModel::Logistic);
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| bad(format!("'{part}' is not KEY=VALUE")))?;
        let (key, value) = (key.trim(), value.trim());
        let number = || -> Result<f64, ParamsError> {
            value
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(format!("{key}='{value}' is not a number")))
        };
        match key {
            "elo0" => elo0 = Some(number()?),
            "elo1" => elo1 = Some(number()?),
            "alpha" => alpha = number()?,
            "beta" => beta = number()?,
            "model" => {
                model = match value {
                    "logistic" => EloModel::Logistic,
                    "normalized" => EloModel::Normalized,
                    _ => {
                        return Err(bad(format!(
                            "model '{value}' is unknown (logistic or normalized)"
                        )));
                    }
                }
            }
            _ => return Err(bad(format!("unknown key '{key}'"))),
        }
    }
    let elo0 = elo0.ok_or_else(|| bad("elo0 is missing".into()))?;
    let elo1 = elo1.ok_or_else(|| bad("elo1 is missing".into()))?;
    SprtParams::new(elo0, elo1, alpha, beta, model).map_err(|e| bad(e.to_string()))
}

/// All `k`-element subsets of `0..n` in lexicographic order.
pub fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        let mut i = k;
        loop {
            if i == 0 {
                return out;
            }
            i -= 1;
            if c[i] < n - k + i {
                c[i] += 1;
                for j in i + 1..k {
                    c[j] = c[j - 1] + 1;
                }
                break;
            }
        }
    }
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut r: u64 = 1;
    for i in 0..k {
        r = r.saturating_mul(n - i) / (i + 1);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_lexicographic() {
        assert_eq!(
            combinations(4, 2),
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        assert_eq!(combinations(3, 3), vec![vec![0, 1, 2]]);
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(6, 3), 20);
    }

    #[test]
    fn three_seats_rotate() {
        let p = RunParams::new("nim", &["a", "b", "c"], 3, 6, 2, 1);
        let seats: Vec<Vec<usize>> = (0..3).map(|i| p.slot(i).seats).collect();
        assert_eq!(seats, vec![vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
        assert_eq!(p.slot(0).seed, p.slot(2).seed);
        assert_ne!(p.slot(3).seed, p.slot(0).seed);
        // Series 1 starts a new block of deals.
        let s = p.slot(6);
        assert_eq!((s.series, s.deal, s.rotation), (1, 0, 0));
        assert_eq!(s.seed, derive_seed(1, 2));
    }

    #[test]
    fn round_robin_tables_share_deals() {
        let p = RunParams::new("nim", &["a", "b", "c"], 2, 4, 1, 9);
        assert_eq!(p.total_games(), Some(12));
        let a = p.slot(0);
        let b = p.slot(4);
        assert_eq!(a.seats, vec![0, 1]);
        assert_eq!(b.seats, vec![0, 2]);
        assert_eq!(a.seed, b.seed);
        assert_eq!(p.slot(11).seats, vec![2, 1]);
    }

    #[test]
    fn shards_partition_whole_deals() {
        let p = RunParams::new("nim", &["a", "b", "c"], 2, 7, 3, 5);
        let total = p.total_games().unwrap();
        let n = 4;
        let mut owner = vec![0u32; total as usize];
        for i in 0..total {
            let s = p.slot(i);
            let owners: Vec<u32> = (1..=n)
                .filter(|&k| p.in_shard(&s, Shard { index: k, count: n }))
                .collect();
            assert_eq!(owners.len(), 1, "game {i} in exactly one shard");
            owner[i as usize] = owners[0];
        }
        for i in 0..total {
            for j in 0..total {
                let (a, b) = (p.slot(i), p.slot(j));
                if (a.table, a.series, a.deal) == (b.table, b.series, b.deal) {
                    assert_eq!(owner[i as usize], owner[j as usize]);
                }
            }
        }
        for k in 1..=n {
            assert!(owner.contains(&k));
        }
    }

    #[test]
    fn shard_text() {
        assert_eq!(
            "2/8".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 8 }
        );
        for bad in ["0/3", "4/3", "1/0", "x", "1-2", "a/b"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn labels_number_repeated_agents() {
        let p = RunParams::new("nim", &["greedy", "smart", "greedy"], 2, 1, 1, 0);
        assert_eq!(p.labels(), vec!["greedy#1", "smart", "greedy#2"]);
    }

    #[test]
    fn gauntlet_tables_hold_the_first_agent() {
        let mut p = RunParams::new("nim", &["a", "b", "c", "d"], 2, 4, 1, 9);
        p.gauntlet = true;
        assert_eq!(p.tables(), vec![vec![0, 1], vec![0, 2], vec![0, 3]]);
        assert_eq!(p.table_count(), 3);
        assert_eq!(p.total_games(), Some(12));
        assert!(p.command_line().ends_with("--gauntlet a"));
        // A run without gauntlet or SPRT keeps the key it had before they existed.
        let old = RunParams::new("nim", &["a", "b"], 2, 4, 1, 9);
        assert_eq!(
            old.key(),
            r#"{"game":"nim","agents":["a","b"],"players":2,"games":4,"series":1,"seed":9,"paired":true}"#
        );
        let back: RunParams = serde_json::from_str(&old.key()).unwrap();
        assert_eq!(back, old);
        // A clock is part of the run's identity and its command line.
        let mut clocked = old.clone();
        clocked.clock = Some("60s+1s".parse().unwrap());
        assert!(clocked.key().ends_with(r#""paired":true,"clock":"1m+1s"}"#));
        assert!(clocked.command_line().ends_with(" --clock 1m+1s"));
        let back: RunParams = serde_json::from_str(&clocked.key()).unwrap();
        assert_eq!(back, clocked);
    }

    #[test]
    fn sprt_text_parses_once_with_clear_errors() {
        let s = parse_sprt("elo0=0,elo1=10").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.05, 0.05));
        assert_eq!(s.model, EloModel::Logistic);
        let s = parse_sprt("elo0=-2, elo1=3,alpha=0.1,beta=0.2,model=normalized").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-2.0, 3.0, 0.1, 0.2));
        assert_eq!(s.model, EloModel::Normalized);
        assert_eq!(parse_sprt(&sprt_text(&s)).unwrap(), s);
        for (bad, says) in [
            ("elo1=10", "elo0 is missing"),
            ("elo0=0", "elo1 is missing"),
            ("elo0=x,elo1=1", "elo0='x' is not a number"),
            ("elo0=0,elo1=5,gamma=1", "unknown key 'gamma'"),
            ("elo0=0,elo1=5,model=probit", "model 'probit' is unknown"),
            ("elo0=5,elo1=0", "elo0 < elo1"),
            ("elo0=0,elo1=5,alpha=0.7,beta=0.5", "sum below 1"),
            ("elo0", "not KEY=VALUE"),
            ("elo0=nan,elo1=1", "not a number"),
        ] {
            let e = parse_sprt(bad).unwrap_err().to_string();
            assert!(
                e.contains(says) && e.contains("expected elo0=E0"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn engines_are_labelled_by_their_id_name() {
        let mut p = RunParams::new("azul", &["ext:/x/eng", "greedy", "ext:/y/eng"], 2, 1, 1, 0);
        let key = p.key();
        p.names = vec![Some("Eng 1.0".into()), None, Some("Eng 1.0".into())];
        assert_eq!(p.labels(), vec!["Eng 1.0#1", "greedy", "Eng 1.0#2"]);
        assert_eq!(p.key(), key, "names are not part of the run's identity");
    }

    #[test]
    fn unpaired_games_are_separate_deals() {
        let mut p = RunParams::new("nim", &["a", "b"], 2, 4, 1, 5);
        p.paired = false;
        assert_ne!(p.slot(0).seed, p.slot(1).seed);
        assert_eq!(p.slot(1).seats, vec![0, 1]);
    }
}
