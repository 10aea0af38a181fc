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
use tessera_core::rng::derive_seed;

use crate::error::{ArenaError, ParamsError};
use crate::games::GameDriver;

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
        let tables = binomial(self.agents.len() as u64, self.players as u64);
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

    /// Display names: the specifications, numbered when one is listed twice
    /// (`greedy`, `greedy#2`).
    pub fn labels(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::with_capacity(self.agents.len());
        for (i, a) in self.agents.iter().enumerate() {
            let before = self.agents[..i].iter().filter(|b| *b == a).count();
            let total = self.agents.iter().filter(|b| *b == a).count();
            out.push(if total > 1 {
                format!("{a}#{}", before + 1)
            } else {
                a.clone()
            });
        }
        out
    }

    /// Every table: agent indices in seat order of rotation 0, in lexicographic order.
    pub fn tables(&self) -> Vec<Vec<usize>> {
        combinations(self.agents.len(), self.players)
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
        binomial(self.agents.len() as u64, self.players as u64)
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
            "tessera tournament {} --agents {} --players {} --games {} --series {} --seed {}{}",
            self.game,
            self.agents.join(","),
            self.players,
            self.games,
            self.series,
            self.seed,
            if self.paired { "" } else { " --unpaired" }
        )
    }
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
    fn unpaired_games_are_separate_deals() {
        let mut p = RunParams::new("nim", &["a", "b"], 2, 4, 1, 5);
        p.paired = false;
        assert_ne!(p.slot(0).seed, p.slot(1).seed);
        assert_eq!(p.slot(1).seats, vec![0, 1]);
    }
}
