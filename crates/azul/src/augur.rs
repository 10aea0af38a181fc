//! `augur`'s evaluator: the chance of winning the game, learned from self-play.
//!
//! Each player gets a linear score `v[p] = w_b . f(p)` over the features [`FEATURE_NAMES`]
//! of its board as it would be if the round ended now (the projected wall and score, as in
//! [`crate::eval::StrongEval`]), with one weight vector per game stage `b` ([`stage`]: the
//! game ends with this round, or 1, 2, 3, 4+ rounds are left after it). The scores form a
//! conditional logit: `P(p wins) = exp(v[p]) / sum over q of exp(v[q])`, which for two
//! players is the logistic regression `P(p0 wins) = sigmoid(w_b . (f(p0) - f(p1)))`. The
//! weights are fitted to the results of self-play games ([`TrainingRow`], fitted by
//! `tessera train azul-augur`), and shipped in `crates/azul/weights/`: `augur-v1.json`
//! (fitted on self-play of `strong`), `augur-v2.json` (fitted on self-play of `augur` with
//! v1), `augur-v3-3p.json` (fitted on three-player self-play of `augur` with v2, from
//! pair rows: [`TrainingRow`]), `augur-v5.json` (two players, all 17 features) and
//! `augur-v6-4p.json` (four players, all 17 features). A version names the file used at
//! each table size ([`VERSIONS`]); the default, `v5`, uses the v5 file at two players, the
//! v3 file at three and v2 at four; `v6` is `v5` with the v6 file at four. Each file records
//! the command that regenerates it. `v7` is `v5` with a board network at two players
//! ([`crate::board_net`], `augur-net1.json`: its own 17-feature weights plus a small network
//! on the whole table; [`NET_VERSIONS`]); `v8` is `v6` with that network at two players
//! and another at three (`augur-net2-3p.json`).
//!
//! Values are logits in thousandths. A finished game is exact: the winner gets
//! [`WIN_VALUE`] (20 logits, far above any learned value) plus 10 per point, the others
//! 10 per point, so a search prefers a certain win to any uncertain position and then the
//! larger margin.
//!
//! ```
//! use tessera_azul::{AzulState, augur::AugurEval};
//! use tessera_core::{Game, PlayerId, rng::seeded};
//! let mut s = AzulState::new(2, PlayerId(0));
//! let deal = s.sample_chance(&mut seeded(1));
//! s.apply_chance(&deal).unwrap();
//! let eval = AugurEval::shipped();
//! let p = eval.win_probability(&s, PlayerId(0));
//! assert!(p > 0.3 && p < 0.7, "an even start: {p}");
//! ```

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tessera_core::{Game, PerPlayer, PlayerId};
use thiserror::Error;

use crate::board_net::BoardNet;
use crate::colour::{Colour, NUM_COLOURS};
use crate::scoring::{
    WALL_SIZE, adjacency_potential, cell_bit, colour_mask, column_mask, placement_score, row_mask,
    wall_bonus, wall_column,
};
use crate::state::{AzulState, Phase};

/// Features per player.
pub const NUM_FEATURES: usize = 17;

/// The features every weights file has (the first 14 of [`FEATURE_NAMES`]); a file may add
/// the later ones in order ([`WeightsFile::parse`]), and the features it lacks weigh 0.
pub const BASE_FEATURES: usize = 14;

/// Game stages, each with its own weights: 0 = the game ends with this round; 1-4 = rounds
/// left after this one (4 = four or more).
pub const NUM_STAGES: usize = 5;

/// The features, in order.
pub const FEATURE_NAMES: [&str; NUM_FEATURES] = [
    "projected_score",
    "projected_bonus",
    "rows_with_4",
    "rows_with_3",
    "columns_with_4",
    "columns_with_3",
    "colours_with_4",
    "colours_with_3",
    "adjacency_tenths",
    "partial_line_points",
    "partial_line_tiles",
    "first_next_round",
    "to_move",
    "wall_tiles",
    "completable_line_points",
    "stuck_line_tiles",
    "fillable_empty_lines",
];

/// The value of a certain win, in thousandths of a logit.
pub const WIN_VALUE: i32 = 20_000;

/// Version of the weights file format.
pub const FORMAT_VERSION: u32 = 1;

/// The features of every player of a state that is not over, and its stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// The stage (0 = last round, 1-4 = rounds left after this one).
    pub stage: usize,
    /// Features per player.
    pub features: PerPlayer<[f32; NUM_FEATURES]>,
}

/// The game stage of a state and the projected walls it was read from.
pub fn stage(s: &AzulState) -> usize {
    stage_of_walls(s.boards().iter().map(|b| b.projected_wall()))
}

/// The game stage from every player's projected wall (see [`stage`]).
fn stage_of_walls(walls: impl Iterator<Item = u32>) -> usize {
    let mut max_row = 0;
    for w in walls {
        for r in 0..WALL_SIZE {
            max_row = max_row.max((w & row_mask(r)).count_ones());
        }
    }
    if max_row >= 5 {
        0
    } else {
        (5 - max_row).clamp(1, 4) as usize
    }
}

/// Counts of units (rows, columns, colours) of a wall with exactly 4 and exactly 3 tiles.
fn near(wall: u32, masks: impl Iterator<Item = u32>) -> (u32, u32) {
    let (mut four, mut three) = (0, 0);
    for m in masks {
        match (wall & m).count_ones() {
            4 => four += 1,
            3 => three += 1,
            _ => {}
        }
    }
    (four, three)
}

/// The features of player `p` (see [`FEATURE_NAMES`]).
pub fn player_features(s: &AzulState, p: PlayerId) -> [f32; NUM_FEATURES] {
    features_from(s, p, s.board(p).projection(), table_tiles(s).as_ref())
}

/// The tiles of each colour on the factories and in the centre while the players draft
/// (`None` between rounds and once the game is over).
fn table_tiles(s: &AzulState) -> Option<[u32; NUM_COLOURS]> {
    if s.phase() != Phase::Draft {
        return None;
    }
    let mut t = [0u32; NUM_COLOURS];
    for f in s.factories().iter().chain(std::iter::once(&s.centre())) {
        for (n, &k) in t.iter_mut().zip(f.0.iter()) {
            *n += u32::from(k);
        }
    }
    Some(t)
}

/// The features of player `p` from its board's [`crate::state::Board::projection`] and
/// the tiles on the table ([`table_tiles`]; the three table features are 0 without it).
#[inline]
fn features_from(
    s: &AzulState,
    p: PlayerId,
    (wall, score): (u32, i32),
    table: Option<&[u32; NUM_COLOURS]>,
) -> [f32; NUM_FEATURES] {
    let b = s.board(p);
    let (r4, r3) = near(wall, (0..WALL_SIZE).map(row_mask));
    let (c4, c3) = near(wall, (0..WALL_SIZE).map(column_mask));
    let (k4, k3) = near(wall, Colour::ALL.iter().map(|&c| colour_mask(c)));
    let adj = adjacency_potential(wall);
    let (mut line_pts, mut line_tiles) = (0.0f32, 0u32);
    // What the tiles on the table allow this round: points of the partly filled lines
    // that enough tiles of their colour remain to complete, tiles on lines that cannot be
    // completed this round, and empty lines for which the table holds at least as many
    // tiles as the line takes of some colour their wall row lacks (in one or more sources).
    let (mut completable, mut stuck, mut fillable) = (0u32, 0u32, 0u32);
    for row in 0..WALL_SIZE {
        match b.pattern_line(row) {
            Some((c, cnt)) if !b.line_is_full(row) => {
                let pts = placement_score(wall, row, wall_column(row, c));
                line_pts += pts as f32 * f32::from(cnt) / (row as f32 + 1.0);
                line_tiles += u32::from(cnt);
                if let Some(t) = table {
                    if t[c as usize] >= (row + 1 - usize::from(cnt)) as u32 {
                        completable += pts;
                    } else {
                        stuck += u32::from(cnt);
                    }
                }
            }
            None => {
                if let Some(t) = table
                    && Colour::ALL.iter().any(|&c| {
                        t[c as usize] > row as u32 && wall & cell_bit(row, wall_column(row, c)) == 0
                    })
                {
                    fillable += 1;
                }
            }
            Some(_) => {}
        }
    }
    let (first, to_move) = match s.phase() {
        Phase::Draft => (
            f32::from(u8::from(b.has_token())),
            f32::from(u8::from(s.current_player() == Some(p))),
        ),
        _ => (f32::from(u8::from(s.starting_player() == p)), 0.0),
    };
    [
        score as f32,
        wall_bonus(wall) as f32,
        r4 as f32,
        r3 as f32,
        c4 as f32,
        c3 as f32,
        k4 as f32,
        k3 as f32,
        adj as f32 / 10.0,
        line_pts,
        line_tiles as f32,
        first,
        to_move,
        wall.count_ones() as f32,
        completable as f32,
        stuck as f32,
        fillable as f32,
    ]
}

/// The features of a state, or `None` when the game is over (its value is exact).
pub fn position(s: &AzulState) -> Option<Position> {
    if s.phase() == Phase::Over {
        return None;
    }
    Some(Position {
        stage: stage(s),
        features: PerPlayer::from_fn(s.num_players(), |p| player_features(s, p)),
    })
}

/// Training details kept with the weights, so a file says how to regenerate it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrainingInfo {
    /// The command that produced the file.
    pub command: String,
    /// Master seed of the self-play games.
    pub seed: u64,
    /// Self-play games.
    pub games: u64,
    /// The self-play player (registry spec).
    pub player: String,
    /// Positions (training rows) per stage.
    pub rows: Vec<u64>,
    /// Mean log loss per stage on the training rows.
    pub log_loss: Vec<f64>,
    /// L2 regularisation used.
    pub l2: f64,
    /// Players at the self-play table (files older than this field: 2).
    #[serde(default = "two_players")]
    pub players: u8,
}

fn two_players() -> u8 {
    2
}

/// A weights file: weights per stage, feature names (checked on load) and how they were made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightsFile {
    /// Always `tessera-azul-augur`.
    pub format: String,
    /// [`FORMAT_VERSION`].
    pub version: u32,
    /// [`FEATURE_NAMES`], in order.
    pub features: Vec<String>,
    /// One weight per feature for each of the [`NUM_STAGES`] stages.
    pub stages: Vec<Vec<f64>>,
    /// How the weights were trained.
    pub training: TrainingInfo,
}

/// Why a weights file cannot be used.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// Not JSON of the expected shape.
    #[error("weights file is not valid JSON of the augur format")]
    Json(#[source] serde_json::Error),
    /// Wrong format name or version.
    #[error(
        "weights file has format '{format}' version {version}: expected 'tessera-azul-augur' version {FORMAT_VERSION}"
    )]
    Format {
        /// The format found.
        format: String,
        /// The version found.
        version: u32,
    },
    /// The features or the stage count differ from this build's.
    #[error("weights file does not fit this build: {0}")]
    Shape(String),
}

impl WeightsFile {
    /// A file from weights per stage: each stage has one weight for each of the first
    /// `stages[0].len()` features of [`FEATURE_NAMES`].
    pub fn new(stages: Vec<Vec<f64>>, training: TrainingInfo) -> Self {
        let k = stages.first().map_or(0, Vec::len).min(NUM_FEATURES);
        WeightsFile {
            format: "tessera-azul-augur".into(),
            version: FORMAT_VERSION,
            features: FEATURE_NAMES[..k].iter().map(|s| s.to_string()).collect(),
            stages,
            training,
        }
    }

    /// Parses and checks a file's text.
    pub fn parse(text: &str) -> Result<Self, WeightsError> {
        let f: WeightsFile = serde_json::from_str(text).map_err(WeightsError::Json)?;
        if f.format != "tessera-azul-augur" || f.version != FORMAT_VERSION {
            return Err(WeightsError::Format {
                format: f.format,
                version: f.version,
            });
        }
        let k = f.features.len();
        if !(BASE_FEATURES..=NUM_FEATURES).contains(&k) || f.features != FEATURE_NAMES[..k] {
            return Err(WeightsError::Shape(format!(
                "features {:?}, expected the first {BASE_FEATURES} to {NUM_FEATURES} of {:?}",
                f.features, FEATURE_NAMES
            )));
        }
        if f.stages.len() != NUM_STAGES
            || f.stages.iter().any(|w| w.len() != k)
            || f.stages.iter().flatten().any(|w| !w.is_finite())
        {
            return Err(WeightsError::Shape(format!(
                "expected {NUM_STAGES} stages of {k} finite weights (one per feature)"
            )));
        }
        Ok(f)
    }

    /// The file as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// The shipped weights files, by name (`crates/azul/weights/augur-NAME.json`).
pub const SHIPPED: [(&str, &str); 5] = [
    ("v1", include_str!("../weights/augur-v1.json")),
    ("v2", include_str!("../weights/augur-v2.json")),
    ("v3-3p", include_str!("../weights/augur-v3-3p.json")),
    ("v5", include_str!("../weights/augur-v5.json")),
    ("v6-4p", include_str!("../weights/augur-v6-4p.json")),
];

/// The shipped versions: the file used at a table of 2, 3 and 4 players. `v1` and `v2`
/// were fitted on two-player games and serve every table; `v3` uses a file fitted on
/// three-player self-play at three players and `v2` elsewhere (weights fitted the same way
/// on four-player games played worse than `v2` at four: docs/players.md); `v5` is `v3` with
/// a two-player file of all 17 features, the three of the tiles on the table included
/// (fitted on two-player self-play of `v3`); `v6` is `v5` with a four-player file of all 17
/// features (fitted on four-player self-play of `v5`). (A `v4`, another round of self-play
/// on the 14 base features, was tried and not shipped.)
pub const VERSIONS: [(&str, [&str; 3]); 5] = [
    ("v1", ["v1", "v1", "v1"]),
    ("v2", ["v2", "v2", "v2"]),
    ("v3", ["v2", "v3-3p", "v2"]),
    ("v5", ["v5", "v3-3p", "v2"]),
    ("v6", ["v5", "v3-3p", "v6-4p"]),
];

// The board networks' sizes are augur's.
const _: () = assert!(
    crate::board_net::NUM_FEATURES == NUM_FEATURES && crate::board_net::NUM_STAGES == NUM_STAGES
);

/// The shipped board networks, by name (`crates/azul/weights/augur-NAME.json`; see
/// [`crate::board_net`]).
pub const SHIPPED_NETS: [(&str, &str); 2] = [
    ("net1", include_str!("../weights/augur-net1.json")),
    ("net2-3p", include_str!("../weights/augur-net2-3p.json")),
];

/// The shipped versions with board networks: the name, the version whose files serve the
/// table sizes without a network, and the networks. `v7` is `v5` with the board network
/// `net1` (and its own linear weights) at two players, both fitted on 80,000 two-player
/// self-play games of `v5` (`scripts/fit-mlp-obs.py`); `v8` is `v6` with both networks:
/// `net1` at two players, `net2-3p` at three (fitted the same way on 25,000 three-player
/// self-play games of `v5`, pair rows), and v6's file at four.
pub const NET_VERSIONS: [(&str, &str, &[&str]); 2] =
    [("v7", "v5", &["net1"]), ("v8", "v6", &["net1", "net2-3p"])];

/// The default version.
pub const DEFAULT_VERSION: &str = "v5";

/// The two-player file of the default version.
pub const SHIPPED_WEIGHTS: &str = SHIPPED[3].1;

/// The text of shipped file `name` (`v1`, `v2`, `v3-3p`, `v5`, `v6-4p`).
pub fn shipped_weights(name: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The names of the shipped versions, for error messages.
pub fn version_names() -> String {
    VERSIONS
        .iter()
        .map(|(n, _)| *n)
        .chain(NET_VERSIONS.iter().map(|(n, _, _)| *n))
        .collect::<Vec<_>>()
        .join(", ")
}

type StageWeights = [[f32; NUM_FEATURES]; NUM_STAGES];

fn stage_weights(file: &WeightsFile) -> StageWeights {
    let mut w = [[0.0; NUM_FEATURES]; NUM_STAGES];
    for (s, ws) in file.stages.iter().enumerate().take(NUM_STAGES) {
        for (i, &x) in ws.iter().enumerate().take(NUM_FEATURES) {
            w[s][i] = x as f32;
        }
    }
    w
}

/// The learned win-chance evaluator (see the module docs): weights per stage for each
/// table size (2, 3, 4 players).
#[derive(Clone, Debug, PartialEq)]
pub struct AugurEval {
    w: [StageWeights; 3],
    /// Per table size: whether any weight of a feature beyond the base ones is non-zero.
    table: [bool; 3],
    /// Per table size: the board network used instead of `w` (see [`crate::board_net`]).
    nets: [Option<Arc<BoardNet>>; 3],
}

impl AugurEval {
    /// The evaluator of one checked weights file, used at every table size.
    pub fn new(file: &WeightsFile) -> Self {
        Self::from_weights([stage_weights(file); 3])
    }

    fn from_weights(w: [StageWeights; 3]) -> Self {
        let table = w.map(|ws| {
            ws.iter()
                .any(|st| st[BASE_FEATURES..].iter().any(|&x| x != 0.0))
        });
        AugurEval {
            w,
            table,
            nets: [None, None, None],
        }
    }

    /// This evaluator with board network `net` at the table size it was fitted for (its
    /// linear weights and its `V`, in place of that size's weights).
    pub fn with_net(mut self, net: BoardNet) -> Self {
        let t = net.players().clamp(2, 4) - 2;
        self.nets[t] = Some(Arc::new(net));
        self
    }

    /// The board network used at a table of `players`, if any.
    pub fn net(&self, players: usize) -> Option<&BoardNet> {
        self.nets[players.clamp(2, 4) - 2].as_deref()
    }

    /// The evaluator of a file per table size: `files[0]` for 2 players, `[1]` for 3, `[2]`
    /// for 4.
    pub fn by_players(files: [&WeightsFile; 3]) -> Self {
        Self::from_weights(files.map(stage_weights))
    }

    /// The evaluator with the default shipped weights.
    pub fn shipped() -> Self {
        Self::version(DEFAULT_VERSION).unwrap_or_else(|| {
            // A test checks the shipped files; all-zero weights would still play legally.
            Self::from_weights([[[0.0; NUM_FEATURES]; NUM_STAGES]; 3])
        })
    }

    /// The evaluator with shipped version `name` ([`VERSIONS`]), or `None` if there is no
    /// such version (or one of its files is broken, which a test rules out).
    pub fn version(name: &str) -> Option<Self> {
        if let Some((_, base, nets)) = NET_VERSIONS.iter().find(|(n, _, _)| *n == name) {
            let mut eval = Self::version(base)?;
            for net in nets.iter() {
                let (_, text) = SHIPPED_NETS.iter().find(|(n, _)| n == net)?;
                eval = eval.with_net(BoardNet::parse(text).ok()?);
            }
            return Some(eval);
        }
        let (_, files) = VERSIONS.iter().find(|(n, _)| *n == name)?;
        let mut parsed = Vec::with_capacity(3);
        for f in files {
            parsed.push(WeightsFile::parse(shipped_weights(f)?).ok()?);
        }
        Some(AugurEval::by_players([&parsed[0], &parsed[1], &parsed[2]]))
    }

    /// The linear score of one player's features at a stage, in logits, at a table of
    /// `players` (2-4; others are clamped into that range).
    #[inline]
    pub fn score(&self, players: usize, stage: usize, f: &[f32; NUM_FEATURES]) -> f32 {
        let t = players.clamp(2, 4) - 2;
        let w = &self.w[t][stage.min(NUM_STAGES - 1)];
        // Weights without the table features stop at the base ones (the rest weigh 0).
        let k = if self.table[t] {
            NUM_FEATURES
        } else {
            BASE_FEATURES
        };
        let mut v = 0.0;
        for i in 0..k {
            v += w[i] * f[i];
        }
        v
    }

    /// A value per player in thousandths of a logit (see the module docs).
    pub fn values(&self, s: &AzulState) -> PerPlayer<i32> {
        let n = s.num_players();
        if s.phase() == Phase::Over {
            let winners = s.outcome().map(|o| o.winners).unwrap_or_default();
            return PerPlayer::from_fn(n, |p| {
                let win = if winners.contains(&p) { WIN_VALUE } else { 0 };
                win + 10 * s.board(p).score()
            });
        }
        // Each board's projection once: the stage and the features both read it.
        let proj = PerPlayer::from_fn(n, |p| s.board(p).projection());
        let st = stage_of_walls(proj.iter().map(|(_, &(wall, _))| wall));
        if let Some(net) = &self.nets[n.clamp(2, 4) - 2]
            && net.players() == n
        {
            let table = table_tiles(s);
            let w = net.linear(st);
            let v = net.state_values(st, s);
            return PerPlayer::from_fn(n, |p| {
                let f = features_from(s, p, proj[p], table.as_ref());
                let linear: f32 = w.iter().zip(&f).map(|(w, x)| w * x).sum();
                ((linear + v[p.index()]) * 1000.0).round() as i32
            });
        }
        // Weights without the table features leave them out (their products would be 0).
        let table = if self.table[n.clamp(2, 4) - 2] {
            table_tiles(s)
        } else {
            None
        };
        PerPlayer::from_fn(n, |p| {
            (self.score(n, st, &features_from(s, p, proj[p], table.as_ref())) * 1000.0).round()
                as i32
        })
    }

    /// The log-odds of `p` winning, in thousandths, from values `v` ([`AugurEval::values`]):
    /// `v[p] - ln(sum over q != p of exp(v[q]))`, the logit of the conditional logit's
    /// `P(p wins)`. With two players it is exactly `v[p] - v[q]`; with more it counts every
    /// rival, where "own value minus the best other" sees only the closest one.
    pub fn log_odds(v: &PerPlayer<i32>, p: PlayerId) -> i32 {
        let mut best: Option<i32> = None;
        let mut others = 0;
        for (q, &x) in v.iter() {
            if q != p {
                best = Some(best.map_or(x, |b| b.max(x)));
                others += 1;
            }
        }
        let Some(m) = best else {
            return v[p];
        };
        if others == 1 {
            return v[p] - m;
        }
        let sum: f64 = v
            .iter()
            .filter(|(q, _)| *q != p)
            .map(|(_, &x)| (f64::from(x - m) / 1000.0).exp())
            .sum();
        let lse = f64::from(m) + 1000.0 * sum.ln();
        (f64::from(v[p]) - lse).round() as i32
    }

    /// The chance that `p` wins: the conditional logit over the players' scores (exact, 0 or
    /// 1 or a share of a tie, once the game is over).
    pub fn win_probability(&self, s: &AzulState, p: PlayerId) -> f64 {
        if let Some(o) = s.outcome() {
            return if o.winners.contains(&p) {
                1.0 / o.winners.len() as f64
            } else {
                0.0
            };
        }
        let v = self.values(s);
        let mine = f64::from(v[p]) / 1000.0;
        let total: f64 = v
            .iter()
            .map(|(_, &x)| (f64::from(x) / 1000.0 - mine).exp())
            .sum();
        1.0 / total
    }
}

/// One training row: for a pair of players `p < q` of a position, their feature
/// differences (`p` minus `q`) and `p`'s share of the pair's result.
///
/// With two players there is one pair and the row is the logistic regression's: player 0's
/// result (1 win, 0 loss, 0.5 shared). With more players the conditional logit says that,
/// given the winner is `p` or `q`, it is `p` with probability `sigmoid(v[p] - v[q])`
/// (the other players' terms cancel). So a pair in which one of the two won is a logistic
/// row (label: `p`'s share of the two players' wins), and fitting the logistic regression
/// on these rows estimates the conditional logit's weights (a pairwise likelihood: each
/// pair's term is exact, the pairs of one position are not independent, which costs
/// efficiency, not consistency). Pairs where neither won carry no information and are left
/// out.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingRow {
    /// Index of the self-play game in its run.
    pub game: u64,
    /// Position number within the game.
    pub ply: u32,
    /// The pair's index among the position's pairs `(0,1), (0,2), .., (1,2), ..` (0 with
    /// two players).
    pub pair: u8,
    /// The position's stage.
    pub stage: usize,
    /// `p`'s share of the pair's result.
    pub label: f64,
    /// Feature differences, `p` minus `q`.
    pub diff: [f32; NUM_FEATURES],
}

/// A malformed training row.
#[derive(Debug, Error, PartialEq, Eq)]
#[error(
    "training row '{line}' is malformed: {detail} (expected 'GAME PLY PAIR STAGE LABEL' and {NUM_FEATURES} numbers, or {BASE_FEATURES} in rows written before the table features)"
)]
pub struct RowError {
    /// The line.
    pub line: String,
    /// What is wrong.
    pub detail: String,
}

impl TrainingRow {
    /// The rows of a position (none once the game is over), given every player's share of
    /// the game's final result ([`result_shares`]).
    pub fn of(s: &AzulState, game: u64, ply: u32, shares: &[f64]) -> Vec<Self> {
        let Some(pos) = position(s) else {
            return Vec::new();
        };
        let features: Vec<[f32; NUM_FEATURES]> = pos.features.iter().map(|(_, f)| *f).collect();
        pair_rows(&features, shares)
            .into_iter()
            .map(|(pair, label, diff)| TrainingRow {
                game,
                ply,
                pair,
                stage: pos.stage,
                label,
                diff,
            })
            .collect()
    }

    /// One line of text: `GAME PLY PAIR STAGE LABEL F0 .. F13`.
    pub fn to_line(&self) -> String {
        let mut out = format!(
            "{} {} {} {} {}",
            self.game, self.ply, self.pair, self.stage, self.label
        );
        for x in self.diff {
            out.push(' ');
            out.push_str(&x.to_string());
        }
        out
    }

    /// Parses a line written by [`TrainingRow::to_line`] (or by the two-player format
    /// before pairs, `GAME PLY STAGE LABEL F0 .. F13`, read as pair 0).
    pub fn parse(line: &str) -> Result<Self, RowError> {
        let err = |detail: String| RowError {
            line: line.chars().take(80).collect(),
            detail,
        };
        let mut parts: Vec<&str> = line.split_whitespace().collect();
        // Rows written before the table features have the base ones only (the rest are 0).
        let k = match parts.len() {
            n if n == 5 + NUM_FEATURES || n == 4 + NUM_FEATURES => NUM_FEATURES,
            _ => BASE_FEATURES,
        };
        let pair: u8 = match parts.len() {
            n if n == 5 + k => {
                let pair = parts[2]
                    .parse()
                    .ok()
                    .filter(|&k: &u8| k < 6)
                    .ok_or_else(|| err(format!("pair '{}' (0-5)", parts[2])))?;
                parts.remove(2);
                pair
            }
            n if n == 4 + k => 0,
            n => return Err(err(format!("{n} fields"))),
        };
        let game = parts[0]
            .parse()
            .map_err(|_| err(format!("game '{}'", parts[0])))?;
        let ply = parts[1]
            .parse()
            .map_err(|_| err(format!("ply '{}'", parts[1])))?;
        let stage: usize = parts[2]
            .parse()
            .map_err(|_| err(format!("stage '{}'", parts[2])))?;
        if stage >= NUM_STAGES {
            return Err(err(format!("stage {stage} (0-{})", NUM_STAGES - 1)));
        }
        let label: f64 = parts[3]
            .parse()
            .map_err(|_| err(format!("label '{}'", parts[3])))?;
        if !(0.0..=1.0).contains(&label) {
            return Err(err(format!("label {label} (0-1)")));
        }
        let mut diff = [0.0f32; NUM_FEATURES];
        for (i, d) in diff.iter_mut().enumerate().take(k) {
            *d = parts[4 + i]
                .parse()
                .ok()
                .filter(|x: &f32| x.is_finite())
                .ok_or_else(|| err(format!("feature {i} '{}'", parts[4 + i])))?;
        }
        Ok(TrainingRow {
            game,
            ply,
            pair,
            stage,
            label,
            diff,
        })
    }
}

/// The pairwise rows of one position ([`TrainingRow`]): for each pair `p < q` (numbered
/// `(0,1), (0,2), .., (1,2), ..`) in which someone won, `(pair, p's share of the two
/// players' result, f(p) - f(q))`.
pub fn pair_rows(
    features: &[[f32; NUM_FEATURES]],
    shares: &[f64],
) -> Vec<(u8, f64, [f32; NUM_FEATURES])> {
    let n = features.len().min(shares.len());
    let mut rows = Vec::new();
    let mut pair = 0u8;
    for p in 0..n {
        for q in p + 1..n {
            let (sp, sq) = (shares[p], shares[q]);
            if sp + sq > 0.0 {
                let (a, b) = (&features[p], &features[q]);
                rows.push((pair, sp / (sp + sq), std::array::from_fn(|i| a[i] - b[i])));
            }
            pair += 1;
        }
    }
    rows
}

/// Every player's share of a finished game's result: 1 for a sole winner, 1/k for each of
/// k who share the win, 0 for the others (`None` if the game is not over).
pub fn result_shares(s: &AzulState) -> Option<Vec<f64>> {
    let o = s.outcome()?;
    let k = o.winners.len().max(1) as f64;
    Some(
        PlayerId::all(s.num_players())
            .map(|p| if o.winners.contains(&p) { 1.0 / k } else { 0.0 })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    use tessera_core::{Turn, rng::seeded};

    fn playout(seed: u64) -> Vec<AzulState> {
        playout_n(2, seed)
    }

    fn playout_n(players: usize, seed: u64) -> Vec<AzulState> {
        let mut rng = seeded(seed);
        let mut s = AzulState::new(players, PlayerId(0));
        let mut out = Vec::new();
        while s.turn() != Turn::Terminal {
            if s.turn() == Turn::Chance {
                let d = s.sample_chance(&mut rng);
                s.apply_chance(&d).unwrap();
            } else {
                let a = s.random_action(&mut rng).unwrap();
                s.apply(a);
            }
            out.push(s.clone());
        }
        out
    }

    #[test]
    fn v8_adds_the_three_player_network_at_three_players() {
        let v8 = AugurEval::version("v8").unwrap();
        let net = v8.net(3).unwrap();
        assert_eq!(net.players(), 3);
        assert_eq!(v8.net(2), AugurEval::version("v7").unwrap().net(2));
        let mut checked = 0;
        for s in playout_n(3, 13).iter().filter(|s| s.phase() != Phase::Over) {
            let got = v8.values(s);
            for (p, want) in PlayerId::all(3).zip(net_values(net, s)) {
                assert!(
                    (f64::from(got[p]) - want).abs() <= 1.0,
                    "{p:?}: {} against {want}",
                    got[p]
                );
            }
            checked += 1;
        }
        assert!(checked > 40, "{checked}");
        // Four players are v6's.
        let v6 = AugurEval::version("v6").unwrap();
        for s in playout_n(4, 14).iter().step_by(7) {
            assert_eq!(v8.values(s), v6.values(s));
        }
    }

    /// Independently of `AugurEval::values`: each player's value from the stage of
    /// `position`, the features' dot product with the network's linear weights in f64,
    /// plus `V` of the player's observation, in thousandths.
    fn net_values(net: &BoardNet, s: &AzulState) -> Vec<f64> {
        use crate::observation::{observation_len, write_observation};
        let pos = position(s).unwrap();
        let mut obs = vec![0.0f32; observation_len(s.num_players())];
        PlayerId::all(s.num_players())
            .map(|p| {
                let lin: f64 = net
                    .linear(pos.stage)
                    .iter()
                    .zip(&pos.features[p])
                    .map(|(&w, &x)| f64::from(w) * f64::from(x))
                    .sum();
                write_observation(s, p, &mut obs);
                1000.0 * (lin + f64::from(net.value(pos.stage, &obs)))
            })
            .collect()
    }

    #[test]
    fn the_board_network_version_adds_its_value_at_two_players_only() {
        let v7 = AugurEval::version("v7").unwrap();
        let net = v7.net(2).unwrap();
        assert!(v7.net(3).is_none() && v7.net(4).is_none());
        let v5 = AugurEval::version("v5").unwrap();
        let mut checked = 0;
        for s in playout(11).iter().filter(|s| s.phase() != Phase::Over) {
            let want = net_values(net, s);
            let got = v7.values(s);
            for (p, w) in want.iter().enumerate() {
                assert!(
                    (f64::from(got[PlayerId(p as u8)]) - w).abs() <= 1.0,
                    "{p}: {} against {w}",
                    got[PlayerId(p as u8)]
                );
            }
            checked += 1;
        }
        assert!(checked > 40, "{checked}");
        // Finished games stay exact, and three and four players are v5's.
        let last = playout(11).pop().unwrap();
        assert_eq!(v7.values(&last), v5.values(&last));
        for n in [3, 4] {
            for s in playout_n(n, 12).iter().step_by(7) {
                assert_eq!(v7.values(s), v5.values(s));
            }
        }
    }

    #[test]
    fn shipped_weights_load() {
        for (name, text) in SHIPPED {
            let f = WeightsFile::parse(text).unwrap();
            assert_eq!(f.stages.len(), NUM_STAGES);
            assert!(
                f.training.games > 0,
                "{name}: trained weights, not a placeholder"
            );
            assert!(f.training.command.starts_with("tessera train azul-augur"));
            // The file's table size is in its name (v1, v2: two players).
            let players = if name.ends_with("-3p") {
                3
            } else if name.ends_with("-4p") {
                4
            } else {
                2
            };
            assert_eq!(f.training.players, players, "{name}");
            if players > 2 {
                assert!(f.training.command.contains(&format!("--players {players}")));
            }
            // A point of projected score is worth something at every stage.
            for w in &f.stages {
                assert!(w[0] > 0.0, "{name}: {w:?}");
            }
        }
        for (name, files) in VERSIONS {
            let eval = AugurEval::version(name).unwrap();
            for (i, file) in files.iter().enumerate() {
                let f = WeightsFile::parse(shipped_weights(file).unwrap()).unwrap();
                let one = AugurEval::new(&f);
                assert_eq!(eval.w[i], one.w[i], "{name} at {} players", i + 2);
            }
        }
        let v1 = WeightsFile::parse(shipped_weights("v1").unwrap()).unwrap();
        assert_eq!(AugurEval::version("v1"), Some(AugurEval::new(&v1)));
        assert_eq!(
            AugurEval::version(DEFAULT_VERSION),
            Some(AugurEval::shipped())
        );
        assert_ne!(AugurEval::version("v1"), AugurEval::version("v2"));
        assert!(AugurEval::version("v9").is_none());
        assert!(
            AugurEval::version("v3-3p").is_none(),
            "a file, not a version"
        );
    }

    #[test]
    fn the_evaluator_uses_the_weights_of_the_table_size() {
        let mut files: Vec<WeightsFile> = ["v1", "v2", "v1"]
            .iter()
            .map(|n| WeightsFile::parse(shipped_weights(n).unwrap()).unwrap())
            .collect();
        // A third, distinct file: v1 with every weight doubled.
        for w in files[2].stages.iter_mut().flatten() {
            *w *= 2.0;
        }
        let eval = AugurEval::by_players([&files[0], &files[1], &files[2]]);
        for (players, file) in [(2, &files[0]), (3, &files[1]), (4, &files[2])] {
            let one = AugurEval::new(file);
            for s in playout_n(players, 4).iter().step_by(5) {
                if s.phase() != Phase::Over {
                    assert_eq!(eval.values(s), one.values(s), "{players} players");
                }
            }
        }
    }

    #[test]
    fn log_odds_are_the_logit_of_the_win_probability() {
        let eval = AugurEval::shipped();
        for players in [2, 3, 4] {
            for s in playout_n(players, 11).iter().step_by(9) {
                if s.phase() == Phase::Over {
                    continue;
                }
                let v = eval.values(s);
                for p in PlayerId::all(players) {
                    let pr = eval.win_probability(s, p);
                    let want = 1000.0 * (pr / (1.0 - pr)).ln();
                    let got = f64::from(AugurEval::log_odds(&v, p));
                    assert!(
                        (got - want).abs() <= 1.0,
                        "{players}p {p:?}: {got} vs {want}"
                    );
                    if players == 2 {
                        let q = PlayerId(1 - p.0);
                        assert_eq!(AugurEval::log_odds(&v, p), v[p] - v[q]);
                    }
                }
            }
        }
        // Two rivals level with the best one make winning less likely than one does.
        let one = PerPlayer::from_fn(3, |p| [1000, 1000, -5000][p.index()]);
        let two = PerPlayer::from_fn(3, |p| [1000, 1000, 1000][p.index()]);
        assert!(AugurEval::log_odds(&two, PlayerId(0)) < AugurEval::log_odds(&one, PlayerId(0)));
        assert_eq!(AugurEval::log_odds(&two, PlayerId(0)), -693);
    }

    #[test]
    fn multi_player_rows_are_the_pairs_with_a_winner() {
        // Winner 1 of 3: pairs (0,1) and (1,2) carry the result, (0,2) does not.
        let f: Vec<[f32; NUM_FEATURES]> = (0..3)
            .map(|p| std::array::from_fn(|i| (p * 10 + i) as f32))
            .collect();
        let rows = pair_rows(&f, &[0.0, 1.0, 0.0]);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].0, rows[0].1), (0, 0.0), "pair (0,1): 1 won");
        assert_eq!((rows[1].0, rows[1].1), (2, 1.0), "pair (1,2): 1 won");
        assert_eq!(rows[0].2[0], -10.0);
        assert_eq!(rows[1].2[3], -10.0);
        // A win shared by 0 and 2 of 4: (0,2) is even, the pairs with 1 or 3 are decided.
        let f4: Vec<[f32; NUM_FEATURES]> = (0..4).map(|p| [p as f32; NUM_FEATURES]).collect();
        let rows = pair_rows(&f4, &[0.5, 0.0, 0.5, 0.0]);
        let got: Vec<(u8, f64)> = rows.iter().map(|r| (r.0, r.1)).collect();
        // Pairs: 0 (0,1) 1 (0,2) 2 (0,3) 3 (1,2) 4 (1,3) 5 (2,3).
        assert_eq!(got, [(0, 1.0), (1, 0.5), (2, 1.0), (3, 0.0), (5, 1.0)]);
        // Whole three- and four-player games: rows round-trip and match the features.
        for players in [3, 4] {
            let states = playout_n(players, 9);
            let shares = result_shares(states.last().unwrap()).unwrap();
            assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let s = &states[states.len() / 2];
            let rows = TrainingRow::of(s, 9, 7, &shares);
            let winners = shares.iter().filter(|&&x| x > 0.0).count();
            let losers = players - winners;
            assert_eq!(
                rows.len(),
                winners * losers + winners * (winners - 1) / 2,
                "{players} players"
            );
            for r in &rows {
                assert_eq!(TrainingRow::parse(&r.to_line()).unwrap(), *r);
            }
        }
        // The older two-player line format reads as pair 0.
        let old = "3 4 2 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0";
        let r = TrainingRow::parse(old).unwrap();
        assert_eq!((r.game, r.ply, r.pair, r.stage, r.label), (3, 4, 0, 2, 1.0));
        assert!(TrainingRow::parse("3 4 9 2 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0").is_err());
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        assert!(matches!(
            WeightsFile::parse("{"),
            Err(WeightsError::Json(_))
        ));
        let mut f = WeightsFile::parse(SHIPPED_WEIGHTS).unwrap();
        f.version = 99;
        let e = WeightsFile::parse(&f.to_json()).unwrap_err();
        assert!(e.to_string().contains("version 99"), "{e}");
        let mut f = WeightsFile::parse(SHIPPED_WEIGHTS).unwrap();
        f.stages.pop();
        assert!(matches!(
            WeightsFile::parse(&f.to_json()),
            Err(WeightsError::Shape(_))
        ));
    }

    #[test]
    fn worked_features() {
        // Player 0: score 3, yellow and white lines full (they score 2 each beside the blue
        // tile), red line 1 of 3, one floor tile; player 1: 8 points, empty board.
        let text = "2 2 play 1 1 BBYR/-/-/-/- 1 17,17,18,20,18 0,0,0,0,0 \
            3:Y1,W2,Y1,-,-:B..../...../...../...../.....:R \
            8:-,-,-,-,-:...../...../...../...../.....:-";
        let s: AzulState = text.parse().unwrap();
        let f = player_features(&s, PlayerId(0));
        assert_eq!(f[0], 6.0, "projected score");
        assert_eq!(f[1], 0.0, "no bonus yet");
        assert_eq!(f[13], 3.0, "three tiles on the projected wall");
        assert_eq!(f[10], 1.0, "one tile on an unfinished line");
        assert_eq!(f[12], 1.0, "player 0 is to move");
        let g = player_features(&s, PlayerId(1));
        assert_eq!(g[0], 8.0);
        assert_eq!(g[12], 0.0);
        assert_eq!(g[8], 0.0, "an empty wall promises no adjacency");
        // Row 0 of player 0's projected wall holds 2 tiles: at least 3 more rounds.
        assert_eq!(stage(&s), 3);
        // The table holds two blue, a yellow and a red tile (factory 1). Player 0's
        // unfinished line needs 2 more tiles of its colour and the table has 1: stuck, not
        // completable; its empty lines 3 and 4 need 4 and 5 tiles of one colour: none.
        assert_eq!(table_tiles(&s), Some([2, 1, 1, 0, 0]));
        assert_eq!((f[14], f[15], f[16]), (0.0, 1.0, 0.0));
        // Player 1's empty lines 0 and 1 could each be filled with blue (1 and 2 tiles).
        assert_eq!((g[14], g[15], g[16]), (0.0, 0.0, 2.0));
        // Between rounds the table features are 0.
        let mut t = s.clone();
        while t.phase() == Phase::Draft {
            let mut moves = Vec::new();
            t.legal_actions(&mut moves);
            t.apply(moves[0]);
        }
        let h = player_features(&t, PlayerId(1));
        assert_eq!((h[14], h[15], h[16]), (0.0, 0.0, 0.0));
    }

    #[test]
    fn files_without_the_table_features_evaluate_as_before() {
        let base = WeightsFile::parse(shipped_weights("v2").unwrap()).unwrap();
        assert_eq!(base.features.len(), BASE_FEATURES);
        let v5 = WeightsFile::parse(SHIPPED_WEIGHTS).unwrap();
        assert_eq!(
            v5.features.len(),
            NUM_FEATURES,
            "the default uses the table"
        );
        assert!(v5.training.command.ends_with("--features 17"));
        // The same weights with the table features added at weight 0: the same values.
        let mut wide = base.clone();
        for w in wide.stages.iter_mut() {
            w.resize(NUM_FEATURES, 0.0);
        }
        let wide =
            WeightsFile::parse(&WeightsFile::new(wide.stages, wide.training).to_json()).unwrap();
        assert_eq!(wide.features.len(), NUM_FEATURES);
        let (a, b) = (AugurEval::new(&base), AugurEval::new(&wide));
        // And with a weight on "completable_line_points": different values somewhere.
        let mut heavy = wide.clone();
        for w in heavy.stages.iter_mut() {
            w[14] = 0.5;
        }
        let c = AugurEval::new(&heavy);
        let mut differ = 0;
        for seed in 0..3 {
            for s in playout(seed) {
                assert_eq!(a.values(&s), b.values(&s));
                differ += usize::from(a.values(&s) != c.values(&s));
            }
        }
        assert!(
            differ > 10,
            "the table features count when weighted: {differ}"
        );
        // A file must list a prefix of the features, at least the base ones.
        let mut short = base.clone();
        short.features.pop();
        for w in short.stages.iter_mut() {
            w.pop();
        }
        assert!(WeightsFile::parse(&short.to_json()).is_err());
        let mut shuffled = wide.clone();
        shuffled.features.swap(14, 15);
        assert!(WeightsFile::parse(&shuffled.to_json()).is_err());
        // Rows of the base features only (written before the table ones) still parse.
        let row = "3 7 0 2 1 1 2 3 4 5 6 7 8 9 10 11 12 13 14";
        let r = TrainingRow::parse(row).unwrap();
        assert_eq!(r.diff[13], 14.0);
        assert_eq!(r.diff[14..], [0.0; 3]);
        assert!(TrainingRow::parse("3 7 0 2 1 1 2 3").is_err());
    }

    #[test]
    fn finished_games_are_exact_and_rows_round_trip() {
        let eval = AugurEval::shipped();
        for seed in 0..4 {
            let states = playout(seed);
            let last = states.last().unwrap();
            let o = last.outcome().unwrap();
            let v = eval.values(last);
            for p in PlayerId::all(2) {
                let win = o.winners.contains(&p);
                assert_eq!(v[p] >= WIN_VALUE, win);
                let pr = eval.win_probability(last, p);
                assert!(if win { pr > 0.0 } else { pr == 0.0 });
            }
            let shares = result_shares(last).unwrap();
            for (i, s) in states.iter().enumerate() {
                let rows = TrainingRow::of(s, seed, i as u32, &shares);
                assert_eq!(rows.len(), usize::from(s.phase() != Phase::Over));
                if let Some(row) = rows.first() {
                    let back = TrainingRow::parse(&row.to_line()).unwrap();
                    assert_eq!(back, *row);
                    // Probabilities of the two players sum to one.
                    let a = eval.win_probability(s, PlayerId(0));
                    let b = eval.win_probability(s, PlayerId(1));
                    assert!((a + b - 1.0).abs() < 1e-9);
                    // The two-player logit equals the weights times the differences.
                    assert_eq!(row.label, shares[0]);
                    let z = eval.score(2, row.stage, &row.diff);
                    let v = eval.values(s);
                    let got = f64::from(v[PlayerId(0)] - v[PlayerId(1)]) / 1000.0;
                    assert!((got - f64::from(z)).abs() < 0.01, "{got} vs {z}");
                }
            }
        }
        for bad in [
            "",
            "1 2 3",
            "1 2 9 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
            "x 2 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
        ] {
            assert!(TrainingRow::parse(bad).is_err(), "{bad}");
        }
    }
}
