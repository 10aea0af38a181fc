//! Azul: `augur`, the search player that values positions by the chance of winning the game
//! ([`tessera_azul::augur::AugurEval`], learned from self-play) instead of a round's score
//! margin. The search is `strong`'s (presort + transposition table + partial last iteration).
//! `oracle`, its successor, values positions with the board networks' weights
//! ([`ORACLE_VERSION`]) by default, and searches by Monte Carlo tree search with refills
//! past the round's end at every table size ([`tessera_search::mcts`];
//! `oracle:mcts:outcomes=8`), valuing every child at two seats and a child only when it is
//! reached at three and four (`lazy`, `BySeats`). The flags `mcts` and `alphabeta` name
//! one search for every table size; every other parameter means the same for both players.
//! Self-contained glue: the evaluator lives in `tessera_azul::augur`, the search in
//! `tessera_search::adversarial`.

use tessera_azul::augur::{AugurEval, DEFAULT_VERSION, WeightsFile, version_names};
use tessera_azul::board_net::BoardNet;
use tessera_azul::eval::state_key;
use tessera_azul::policy::{POLICY_V1, POLICY_V1_ALONE, PolicyPrior};
use tessera_azul::{AzulAction, AzulState};
use tessera_core::{Agent, Budget, Game, GameRng, PerPlayer, PlayerId, SearchInfo, Turn};
use tessera_search::adversarial::{Algorithm, Evaluator, SearchAgent, SearchConfig, Value};
use tessera_search::mcts::{MctsAgent, MctsConfig};

use super::azul_endgame::LastRound;
use super::{AgentEntry, ParamDoc, ParamKind, Recipe, Trust};
use crate::spec::{AgentSpec, SpecError};

/// [`AugurEval`] as a search evaluator, with state keys for the transposition table. With
/// `past_round` the end of a round is not a leaf: the search averages sampled refills and
/// goes on into the next round (expectimax over samples).
#[derive(Clone, Debug)]
pub struct AugurEvaluator {
    /// The evaluator.
    pub eval: AugurEval,
    /// Search through the refill at the round's end.
    pub past_round: bool,
    /// Go past the round's end once the tree is exhausted only at two-player tables
    /// (`extend` not given: it was measured to pay at two players, not at three or four).
    pub extend_two_only: bool,
    /// How many of the opponents' moves to search.
    pub narrow: Narrow,
    /// A learned policy term in the tree search's priors (`policy`; `None`: the static
    /// values' priors alone).
    pub policy: Option<PolicyPrior>,
}

impl AugurEvaluator {
    /// The evaluator of the Monte Carlo tree search (`oracle`, `augur:mcts`): the search
    /// itself goes past a round's end through its chance nodes, so the evaluator does not,
    /// and `narrow` says how many of the opponents' moves it considers.
    pub fn for_tree_search(eval: AugurEval, narrow: Narrow) -> Self {
        AugurEvaluator {
            eval,
            past_round: false,
            extend_two_only: false,
            narrow,
            policy: None,
        }
    }
}

impl Evaluator<AzulState> for AugurEvaluator {
    fn evaluate(&mut self, s: &AzulState) -> PerPlayer<Value> {
        self.eval.values(s)
    }

    fn is_leaf(&self, s: &AzulState) -> bool {
        match s.turn() {
            Turn::Player(_) => false,
            Turn::Chance => !self.past_round,
            Turn::Terminal => true,
        }
    }

    fn key(&self, s: &AzulState) -> Option<u64> {
        Some(state_key(s))
    }

    fn prior_bias(&self, s: &AzulState, a: AzulAction, child: &AzulState) -> f32 {
        match (&self.policy, s.turn()) {
            (Some(p), Turn::Player(m)) => p.bias(s, a, child, m),
            _ => 0.0,
        }
    }

    /// The log-odds of winning ([`AugurEval::log_odds`]): with two players the default
    /// (own value minus the other's), with more every rival counts, not only the best.
    fn utility(&self, v: &PerPlayer<Value>, p: PlayerId) -> Value {
        AugurEval::log_odds(v, p)
    }

    fn may_extend(&self, root: &AzulState) -> bool {
        !self.extend_two_only || root.num_players() == 2
    }

    fn widths(&self, root: &AzulState) -> Option<(u32, u32)> {
        let n = &self.narrow;
        Some(if root.num_players() == 2 {
            (n.replies.1, n.plausible.1)
        } else {
            (n.replies.0, n.plausible.0)
        })
    }
}

const PARAMS: [ParamDoc; 29] = [
    super::azul_search::LIMIT_PARAMS[0],
    super::azul_search::LIMIT_PARAMS[1],
    super::azul_search::LIMIT_PARAMS[2],
    ParamDoc {
        name: "samples",
        kind: ParamKind::Value { default: "0" },
        doc: "0: the round's end is a leaf; K > 0: search past it, averaging K sampled refills",
    },
    ParamDoc {
        name: "extend",
        kind: ParamKind::Value { default: "3" },
        doc: "K > 0: when the tree to the round's end is exhausted with time or nodes left, search on past it, averaging K sampled refills (0: stop early); unless given, 3 at two players and 0 at three and four",
    },
    ParamDoc {
        name: "replies",
        kind: ParamKind::Value { default: "0" },
        doc: "K > 0: forward pruning, at each opponent's node only the K replies the previous iteration found most damaging are searched again (0, the default: all)",
    },
    ParamDoc {
        name: "plausible",
        kind: ParamKind::Value { default: "4" },
        doc: "K > 0: opponent modelling, each opponent considers only its K best moves by its own static value (one evaluation per move), the worst of them for augur assumed (0: all); unless given, 4 at three and four players and 0 at two",
    },
    ParamDoc {
        name: "lmr",
        kind: ParamKind::Value { default: "0" },
        doc: "K > 0: late-move reductions, at every node (the root included) the moves after the K best of an earlier visit are searched a ply shallower with a null window first, and fully only if that says they may matter (0, the default: every move to full depth)",
    },
    ParamDoc {
        name: "lmr_deep",
        kind: ParamKind::Value { default: "0" },
        doc: "with lmr: moves from this rank on are reduced by two plies instead of one (0, the default: never)",
    },
    ParamDoc {
        name: "killers",
        kind: ParamKind::Flag,
        doc: "order the moves of a node searched for the first time: the transposition table's move, then the two latest moves that cut off a sibling at the same depth (only the order changes, not the values)",
    },
    ParamDoc {
        name: "history",
        kind: ParamKind::Flag,
        doc: "killers, and the other moves of a new node in the order of how often (weighted by depth) they cut off a search before (only the order changes)",
    },
    ParamDoc {
        name: "weights",
        kind: ParamKind::Value { default: "v5" },
        doc: "shipped weights: v1 (fitted on strong's 2-player self-play), v2 (on augur-v1's), v3 (fitted on 3-player self-play at 3 players, v2 at 2 and 4), v5 (v3 with 2-player weights of 17 features, the tiles on the table included, fitted on v3's self-play), v6 (v5 with 4-player weights of 17 features, fitted on v5's 4-player self-play; not the default: above a fair share head to head against v5 at four seats, not shown better against strong), v7 (v5 with a board network at two players: a 32-unit network on the whole table beside its own 17-feature weights, fitted on 80,000 two-player self-play games of v5; slower per node, stronger per node), v8 (v6 with both board networks: v7's at two players and one at three, fitted on 25,000 three-player self-play games of v5; v6's weights at four), v9 (v8 with both networks fitted again on the same self-play by `tessera train azul-board-net`), v10 (v9 with its two-player network fitted again on 100,000 self-play games of v9); or a weights file written by `tessera train` (a path ending in .json, read when the name is parsed; refused in requests to a server): linear weights (`tessera train azul-augur`), used at every table size, or a board network (`tessera train azul-board-net`), which joins v5 at the network's table size",
    },
    ParamDoc {
        name: "mcts",
        kind: ParamKind::Flag,
        doc: "search by Monte Carlo tree search at every table size (PUCT over the same evaluator, every child valued once when its node is expanded, priors from those values; the round's end a leaf unless `outcomes` is given) instead of alpha-beta (`nodes` then counts evaluator calls and revisits of leaves already valued); `samples`, `extend`, `replies`, `plausible`, `lmr`, `lmr_deep`, `killers` and `history` do not apply",
    },
    ParamDoc {
        name: "alphabeta",
        kind: ParamKind::Flag,
        doc: "search by alpha-beta at every table size (augur's search, its default); `cpuct`, `temp`, `outcomes`, `common`, `transpose`, `threads`, `shared`, `settle` and `reuse` do not apply",
    },
    ParamDoc {
        name: "cpuct",
        kind: ParamKind::Value { default: "1.5" },
        doc: "with mcts: the exploration constant (0-100; the values explored are chances of winning, 0-1)",
    },
    ParamDoc {
        name: "temp",
        kind: ParamKind::Value { default: "1" },
        doc: "with mcts: the priors' temperature in logits (0.01-100): a move valued one temperature lower in log-odds gets 1/e of the prior",
    },
    ParamDoc {
        name: "outcomes",
        kind: ParamKind::Value { default: "0" },
        doc: "with mcts: K > 0 searches on past the round's end through up to K sampled refills per round's end, widened as the visits grow (about the square root of the visits; 0-64; 0: the round's end is a leaf)",
    },
    ParamDoc {
        name: "common",
        kind: ParamKind::Value { default: "0" },
        doc: "with mcts and outcomes: 1 draws the j-th refill of every end of the same round from the same random stream (common random numbers: positions with the same bag get the same refills, so the moves of a round are compared on the same futures); 0, each round's end draws its own",
    },
    ParamDoc {
        name: "transpose",
        kind: ParamKind::Value { default: "0" },
        doc: "with mcts: 1 merges transpositions within the round being played (a move reaching a position already in the tree by another order of moves shares that node, its visits and values, instead of being valued again), so a budget covers more distinct positions; 0, a tree",
    },
    ParamDoc {
        name: "threads",
        kind: ParamKind::Value { default: "1" },
        doc: "with mcts: search on this many threads (1-16; root parallelism: independent trees of the same position under the same time, a node limit shared out between them, their visits added); the operator's only (a remote request plays on one thread)",
    },
    ParamDoc {
        name: "shared",
        kind: ParamKind::Value { default: "0" },
        doc: "with threads of 2 or more: 1 puts the threads in one shared tree (tree parallelism: a thread expanding a node leaves a virtual loss on its path, so the others search other moves; the moves then depend on the threads' timing, so even a node budget does not replay a game); 0, a tree a thread",
    },
    ParamDoc {
        name: "settle",
        kind: ParamKind::Value { default: "0" },
        doc: "with mcts: S from 0 to 1 makes the move's limit (its time, or its nodes without a time) a cap: the search stops once no other move can overtake the most visited in what the limit leaves, and after the share S of it once the most visited move is a clear favourite (no other has half its visits, none with a quarter of them a better mean value); the time saved goes back to a game clock (0, the default: every search runs to its limit)",
    },
    ParamDoc {
        name: "endgame",
        kind: ParamKind::Value { default: "0" },
        doc: "F from 0 to 1: at two players, once the round is certainly the game's last (a full pattern line completes a wall row), first solve the rest of the game exactly by alpha-beta (won games first, then the margin) with this share of the move's time and nodes, and play the solution if it is found; otherwise the search gets what is left (0, the default: off)",
    },
    ParamDoc {
        name: "reuse",
        kind: ParamKind::Value { default: "0" },
        doc: "with mcts: 1 keeps the tree between moves: a search whose position the last move's tree reached (the moves played since, within the round) starts from that subtree, its visits and values kept; the budget binds the new work (a node budget counts this move's evaluator calls); not with transpose; 0, a new tree every move",
    },
    ParamDoc {
        name: "policy",
        kind: ParamKind::Value { default: "0" },
        doc: "with mcts: 1 adds a learned policy term to the priors (a linear term in features of the move, fitted to the moves of the tree search at 100,000 nodes a move, with the static log-odds' weight it was fitted with; docs/players.md, \"A policy prior from the search's own moves\"); `temp` then scales the fitted weight; 0, the priors of the static values alone",
    },
    ParamDoc {
        name: "lazy",
        kind: ParamKind::Value { default: "0" },
        doc: "with mcts: 1 values a child only when the search first reaches it (one evaluator call a simulation, as a network-guided search does), its priors from a policy of the move's features alone (docs/players.md, \"Valuing a child only when it is reached\"); not with policy, transpose, reuse or shared; 0, every child valued when its node is expanded",
    },
    ParamDoc {
        name: "fpu",
        kind: ParamKind::Value { default: "0.1" },
        doc: "with lazy: how much lower than its valued siblings' mean chance a child not yet valued is taken to be (0-1)",
    },
    ParamDoc {
        name: "mix",
        kind: ParamKind::Value { default: "0" },
        doc: "with mcts: W from 0 to 1, implicit minimax backups: the search reads a child's value as (1 - W) times its mean backed-up chance plus W times the minimax chance of the tree below it (the children's best for the mover, the refills' mean at a round's end, the static value at a leaf); 0, the default: the mean alone",
    },
    ParamDoc {
        name: "paranoid",
        kind: ParamKind::Value { default: "0" },
        doc: "with mcts and mix: 1 makes the minimax line paranoid, the one where every other player plays against the searching player (the child worst for it where another player moves), and only the searching player blends it into its choices, the others choosing by their means alone; 0, the default: each player's best (max^n), blended by every player. At three and four seats only beside a `mix` given (their default blend is 0)",
    },
];

/// The weights `oracle` uses unless `weights=` says otherwise: v10, the two- and
/// three-player board networks fitted by `tessera train` (the two-player one on v9's own
/// self-play; v6's weights at four seats). v9 until its goal run of 2026-11-28
/// (docs/players.md, "The two-seat goal run with v10").
pub const ORACLE_VERSION: &str = "v10";

/// `oracle`'s parameters: `augur`'s, with its own default weights, search and refills.
const ORACLE_PARAMS: [ParamDoc; 29] = {
    let mut p = PARAMS;
    // The entries replaced must be these (checked when compiling).
    assert!(matches!(p[11].name.as_bytes(), b"weights"));
    assert!(matches!(p[12].name.as_bytes(), b"mcts"));
    assert!(matches!(p[13].name.as_bytes(), b"alphabeta"));
    assert!(matches!(p[16].name.as_bytes(), b"outcomes"));
    p[12] = ParamDoc {
        name: "mcts",
        kind: ParamKind::Flag,
        doc: "search by Monte Carlo tree search at every table size, oracle's search without a flag too (PUCT over the same evaluator, every child valued once when its node is expanded, priors from those values; `nodes` then counts evaluator calls and revisits of leaves already valued); `samples`, `extend`, `replies`, `plausible`, `lmr`, `lmr_deep`, `killers` and `history` do not apply, with the flag or without",
    };
    // augur's text, with oracle's default (ORACLE_OUTCOMES).
    p[16] = ParamDoc {
        kind: ParamKind::Value { default: "8" },
        ..p[16]
    };
    p[13] = ParamDoc {
        name: "alphabeta",
        kind: ParamKind::Flag,
        doc: "search by alpha-beta at every table size (augur's search; oracle's default until the tree search replaced it, at two seats first and then at three and four, docs/players.md); `cpuct`, `temp`, `outcomes`, `common`, `transpose`, `threads`, `shared`, `settle` and `reuse` do not apply",
    };
    assert!(matches!(p[21].name.as_bytes(), b"settle"));
    p[21] = ParamDoc {
        name: "settle",
        kind: ParamKind::Value {
            default: "0 (0.5 under a game clock)",
        },
        doc: "with mcts: S from 0 to 1 makes the move's limit (its time, or its nodes without a time) a cap: the search stops once no other move can overtake the most visited in what the limit leaves, and after the share S of it once the most visited move is a clear favourite (no other has half its visits, none with a quarter of them a better mean value); what it saves stays on a game clock, and the time manager gives it back on later moves. Unless given, 0.5 when the seat plays on a game clock (its managed time, since 2026-12-06) and 0 under a fixed limit (every search runs to its limit); a value given applies to both",
    };
    assert!(matches!(p[22].name.as_bytes(), b"endgame"));
    p[22] = ParamDoc {
        name: "endgame",
        kind: ParamKind::Value { default: "0.5" },
        doc: "F from 0 to 1: at two players, once the round is certainly the game's last (a full pattern line completes a wall row), first solve the rest of the game exactly by alpha-beta (won games first, then the margin) with this share of the move's time and nodes, and play the solution if it is found; otherwise the search gets what is left (0.5, the default since 2026-12-03; 0: off)",
    };
    p[11] = ParamDoc {
        name: "weights",
        kind: ParamKind::Value {
            default: ORACLE_VERSION,
        },
        doc: "shipped weights, as augur's (v10, the default: board networks at two and three players fitted by `tessera train` on self-play, v6's weights at four; v9 before 2026-11-28); or a weights file written by `tessera train` (a path ending in .json, read when the name is parsed; refused in requests to a server): linear weights, used at every table size, or a board network (`tessera train azul-board-net`), which replaces v10's network at its table size",
    };
    assert!(matches!(p[25].name.as_bytes(), b"lazy"));
    p[25] = ParamDoc {
        name: "lazy",
        kind: ParamKind::Value {
            default: "0 at two players, 1 at three and four",
        },
        doc: "with mcts: 1 values a child only when the search first reaches it (one evaluator call a simulation, as a network-guided search does), its priors from a policy of the move's features alone (docs/players.md, \"Valuing a child only when it is reached\"); not with policy, transpose, reuse or shared; 0, every child valued when its node is expanded. Unless given, 1 at three and four players (since the late night of 2026-12-06; 0 there too when policy, transpose, reuse or shared is given) and 0 at two; a value given applies at every table size",
    };
    assert!(matches!(p[27].name.as_bytes(), b"mix"));
    p[27] = ParamDoc {
        name: "mix",
        kind: ParamKind::Value {
            default: "0.3 at two players, 0 at three and four",
        },
        doc: "with mcts: W from 0 to 1, implicit minimax backups: the search reads a child's value as (1 - W) times its mean backed-up chance plus W times the minimax chance of the tree below it (the children's best for the mover, the refills' mean at a round's end, the static value at a leaf); 0: the mean alone. Unless given, 0.3 at two players (since 2026-12-07, docs/players.md, \"Implicit minimax backups\") and 0 at three and four (there 0.3 was shown weaker at 100 ms a move); a value given applies at every table size",
    };
    p
};

/// The evaluator `weights=` names (`default` when it is not given): a shipped version, or
/// (from a [`Trust::Local`] specification only) a weights file, read and checked here, when
/// the name is parsed.
fn weights(spec: &AgentSpec, trust: Trust, default: &str) -> Result<AugurEval, SpecError> {
    let name = spec.value("weights")?.unwrap_or(default);
    let bad = |expected: String| SpecError::BadValue {
        agent: spec.name.clone(),
        key: "weights".into(),
        value: name.into(),
        expected,
    };
    if let Some(eval) = AugurEval::version(name) {
        return Ok(eval);
    }
    if !name.ends_with(".json") {
        return Err(bad(format!(
            "one of {}, or a weights file (.json)",
            version_names()
        )));
    }
    if trust == Trust::Remote {
        return Err(SpecError::Refused {
            agent: spec.name.clone(),
            key: "weights".into(),
            expected: format!("one of {}", version_names()),
        });
    }
    let text =
        std::fs::read_to_string(name).map_err(|e| bad(format!("a readable weights file ({e})")))?;
    match WeightsFile::parse(&text) {
        Ok(file) => Ok(AugurEval::new(&file)),
        // Not linear weights: a board network (`tessera train azul-board-net`) replaces the
        // network at its own table size in the player's default version.
        Err(linear) => match BoardNet::parse(&text) {
            Ok(net) => {
                let base = AugurEval::version(default)
                    .ok_or_else(|| bad(format!("one of {}", version_names())))?;
                Ok(base.with_net(net))
            }
            Err(network) => Err(bad(format!(
                "a weights file written by `tessera train` (as linear weights: {linear}; as a board network: {network})"
            ))),
        },
    }
}

/// Refills sampled at a chance node with `extend` unless the name says otherwise.
pub const DEFAULT_EXTEND: u32 = 3;

/// A count of sampled refills (`samples` or `extend`), 0-64.
fn refills(spec: &AgentSpec, key: &str, default: u32) -> Result<u32, SpecError> {
    let k = spec.u64(key, u64::from(default))?;
    if k > 64 {
        return Err(SpecError::BadValue {
            agent: spec.name.clone(),
            key: key.into(),
            value: k.to_string(),
            expected: "0-64".into(),
        });
    }
    Ok(k as u32)
}

/// The opponents' moves searched at three and four players when the name does not say
/// (`replies`; at two players all are searched).
pub const DEFAULT_REPLIES: u32 = 0;
/// The same for `plausible`.
pub const DEFAULT_PLAUSIBLE: u32 = 4;

/// How many of the opponents' moves `augur` searches (see [`SearchConfig::replies`] and
/// [`SearchConfig::plausible`]; 0 = all), as (at three and four players, at two).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Narrow {
    /// The replies an earlier iteration ranked most damaging, at each opponent's node.
    pub replies: (u32, u32),
    /// Each opponent's best moves by its own static value (opponent modelling).
    pub plausible: (u32, u32),
}

impl Narrow {
    /// Every move of every opponent considered, at every table size.
    pub const ALL: Narrow = Narrow {
        replies: (0, 0),
        plausible: (0, 0),
    };
}

/// Children searched at an opponent's node (`replies`, `plausible`; 0 = all), 0-1000: as
/// given at every table, or when not given `default` at three and four players and all at
/// two, where narrowing was measured to cost strength.
fn width(spec: &AgentSpec, key: &str, default: u32) -> Result<(u32, u32), SpecError> {
    if spec.value(key)?.is_none() {
        return Ok((default, 0));
    }
    let k = spec.u64(key, u64::from(default))?;
    u32::try_from(k)
        .ok()
        .filter(|&k| k <= 1000)
        .map(|k| (k, k))
        .ok_or_else(|| SpecError::BadValue {
            agent: spec.name.clone(),
            key: key.into(),
            value: k.to_string(),
            expected: "0-1000".into(),
        })
}

/// Late-move reductions ([`SearchConfig::lmr`], [`SearchConfig::lmr_deep`]; 0 = off) and
/// move ordering at new nodes ([`SearchConfig::killers`]): how the search spends its nodes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Reductions {
    /// Moves searched to full depth at a node before the reduced ones.
    pub lmr: u32,
    /// The rank from which moves are reduced by two plies (0 = never).
    pub lmr_deep: u32,
    /// Killer moves and the table's move first at new nodes ([`SearchConfig::killers`]).
    pub killers: bool,
    /// History ordering after the killers ([`SearchConfig::history`]).
    pub history: bool,
}

/// A move count (`lmr`, `lmr_deep`), 0-1000, 0 when not given.
fn count(spec: &AgentSpec, key: &str) -> Result<u32, SpecError> {
    let k = spec.u64(key, 0)?;
    u32::try_from(k)
        .ok()
        .filter(|&k| k <= 1000)
        .ok_or_else(|| SpecError::BadValue {
            agent: spec.name.clone(),
            key: key.into(),
            value: k.to_string(),
            expected: "0-1000".into(),
        })
}

/// How `augur` treats the round's end (no `Default`: the registry's default, `extend=3` at
/// two players only, is set where a spec is read).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PastRound {
    /// K > 0: search past the round's end from the first iteration, averaging K refills.
    pub samples: u32,
    /// K > 0: only once the tree to the round's end is exhausted with budget left.
    pub extend: u32,
    /// `extend` applies at two-player tables only (the default when the name gives none).
    pub extend_two_only: bool,
}

/// The `augur` player with its treatment of the round's end and of the opponents' moves.
pub fn augur_player(
    name: &str,
    eval: AugurEval,
    past: PastRound,
    narrow: Narrow,
    reductions: Reductions,
) -> SearchAgent<AzulState, AugurEvaluator> {
    let PastRound {
        samples,
        extend,
        extend_two_only,
    } = past;
    let mut config = SearchConfig::new(Algorithm::Presort);
    config.tt_log2 = 20;
    config.use_partial = true;
    config.chance_samples = if samples > 0 { samples } else { extend.max(1) };
    config.extend_chance = samples == 0 && extend > 0;
    config.lmr = reductions.lmr;
    config.lmr_deep = reductions.lmr_deep;
    config.killers = reductions.killers || reductions.history;
    config.history = reductions.history;
    let eval = AugurEvaluator {
        eval,
        past_round: samples > 0,
        extend_two_only,
        narrow,
        policy: None,
    };
    SearchAgent::new(name, eval, config)
}

/// The alpha-beta parameters, which `mcts` replaces.
const ALPHA_BETA_ONLY: [&str; 8] = [
    "samples",
    "extend",
    "replies",
    "plausible",
    "lmr",
    "lmr_deep",
    "killers",
    "history",
];
/// The parameters that only `mcts` reads.
const MCTS_ONLY: [&str; 14] = [
    "cpuct",
    "mix",
    "paranoid",
    "policy",
    "lazy",
    "fpu",
    "settle",
    "temp",
    "outcomes",
    "common",
    "transpose",
    "threads",
    "shared",
    "reuse",
];

/// What `augur` or `oracle` does when its name does not say.
#[derive(Copy, Clone, Debug)]
struct Defaults {
    /// The weights (`weights`).
    weights: &'static str,
    /// The tree search's refills at a round's end (`outcomes`).
    outcomes: u32,
    /// The search without `mcts` or `alphabeta`.
    search: Search,
    /// The exact last-round solver's share of a move's budget (`endgame`, 0 off).
    endgame: f64,
    /// The tree search's `settle` under a game clock when `settle` is not given (`None`:
    /// `settle`'s default, 0, there too).
    clock_settle: Option<f32>,
    /// The tree search values a child only when it is reached (`lazy=1`) at three and four
    /// seats when `lazy` is not given (and none of the eager search's `policy`,
    /// `transpose`, `reuse` or `shared` is); two seats keep the eager search.
    lazy_beyond_two: bool,
    /// The tree search's minimax blend (`mix`) when not given, at two seats.
    mix_two: f32,
    /// The same at three and four seats.
    mix_more: f32,
}

/// `augur`: v5, alpha-beta unless `mcts` is given, no refills in the tree search.
const AUGUR: Defaults = Defaults {
    weights: DEFAULT_VERSION,
    outcomes: 0,
    search: Search::AlphaBeta,
    endgame: 0.0,
    clock_settle: None,
    lazy_beyond_two: false,
    mix_two: 0.0,
    mix_more: 0.0,
};

/// `oracle`'s refills at a round's end in the tree search unless `outcomes` says otherwise.
const ORACLE_OUTCOMES: u32 = 8;

/// `oracle`: v10, the tree search with refills at every table size. Alpha-beta until the
/// tree search with refills was measured the stronger, at two seats first and then at three
/// and four (docs/players.md, "Monte Carlo tree search over the learned value"). Since the
/// late night of 2026-12-06 it values a child only when it is reached at three and four
/// seats (shown the stronger there at 100 ms; at two seats not shown at 1 s, so the eager
/// search stays).
const ORACLE: Defaults = Defaults {
    weights: ORACLE_VERSION,
    outcomes: ORACLE_OUTCOMES,
    search: Search::Mcts,
    endgame: ORACLE_ENDGAME,
    clock_settle: Some(ORACLE_CLOCK_SETTLE),
    lazy_beyond_two: true,
    mix_two: ORACLE_MIX_TWO,
    mix_more: 0.0,
};

/// `oracle`'s minimax blend at two seats unless `mix` is given (since 2026-12-07:
/// docs/players.md, "Implicit minimax backups"; stronger at 100 ms, at 200,000 nodes and at
/// 1 s a move). Three and four seats keep 0: there 0.3 was shown weaker at 100 ms a move.
const ORACLE_MIX_TWO: f32 = 0.3;

/// `oracle`'s `settle` under a game clock unless `settle` is given (since 2026-12-06:
/// docs/players.md, "`settle` as the default under a clock"); a fixed limit keeps 0.
const ORACLE_CLOCK_SETTLE: f32 = 0.5;

/// `oracle`'s share of a move's budget for the exact last-round solver unless `endgame`
/// says otherwise (since 2026-12-03: docs/players.md, "The last round solved exactly").
const ORACLE_ENDGAME: f64 = 0.5;

/// Which search a name asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Search {
    /// Alpha-beta at every table size.
    AlphaBeta,
    /// The tree search at every table size.
    Mcts,
}

/// The search the name asks for (the flags `mcts` and `alphabeta`, else the player's
/// default), refusing either search's parameters where they would not apply.
fn search(spec: &AgentSpec, defaults: Defaults) -> Result<Search, SpecError> {
    let given = |key: &str| spec.params.iter().any(|p| p.key == key);
    let conflict = |key: &str, expected: &str| SpecError::BadValue {
        agent: spec.name.clone(),
        key: key.into(),
        value: spec.value(key).ok().flatten().unwrap_or("(flag)").into(),
        expected: expected.into(),
    };
    let (mcts, alphabeta) = (spec.flag("mcts")?, spec.flag("alphabeta")?);
    if mcts && alphabeta {
        return Err(conflict(
            "alphabeta",
            "one search: the flag mcts or the flag alphabeta, not both",
        ));
    }
    let chosen = match (mcts, alphabeta) {
        (true, _) => Search::Mcts,
        (_, true) => Search::AlphaBeta,
        _ => defaults.search,
    };
    // The other search's keys, its flag, and both searches' names in the messages.
    let (other_keys, flag, other_flag, own, other) = match chosen {
        Search::Mcts => (
            &ALPHA_BETA_ONLY[..],
            "mcts",
            "alphabeta",
            "mcts",
            "alpha-beta",
        ),
        Search::AlphaBeta => (&MCTS_ONLY[..], "alphabeta", "mcts", "alpha-beta", "tree"),
    };
    if let Some(key) = other_keys.iter().find(|k| given(k)) {
        let name = &spec.name;
        let expected = if mcts || alphabeta {
            format!("no value: it applies to the {other} search, not with {flag}")
        } else {
            format!(
                "the flag {other_flag} before it ({name}:{other_flag}:...): without a flag {name} searches by {own}"
            )
        };
        return Err(conflict(key, &expected));
    }
    Ok(chosen)
}

/// The Monte Carlo tree search's settings (`cpuct`, `temp`, `outcomes`).
fn mcts_config(spec: &AgentSpec, defaults: Defaults) -> Result<MctsConfig, SpecError> {
    let ranged = |key: &str, default: f64, lo: f64, hi: f64| -> Result<f32, SpecError> {
        let x = spec.f64(key, default)?;
        if (lo..=hi).contains(&x) {
            Ok(x as f32)
        } else {
            Err(SpecError::BadValue {
                agent: spec.name.clone(),
                key: key.into(),
                value: x.to_string(),
                expected: format!("a number from {lo} to {hi}"),
            })
        }
    };
    Ok(MctsConfig {
        cpuct: ranged("cpuct", 1.5, 0.0, 100.0)?,
        temperature: ranged("temp", 1.0, 0.01, 100.0)?,
        settle: ranged("settle", 0.0, 0.0, 1.0)?,
        minimax: ranged("mix", 0.0, 0.0, 1.0)?,
        // A `settle` given binds under a clock too; otherwise the player's clock default.
        clock_settle: match spec.value("settle")? {
            Some(_) => None,
            None => defaults.clock_settle,
        },
        value_scale: 1000.0,
        chance_samples: refills(spec, "outcomes", defaults.outcomes)?,
        common_outcomes: switch(spec, "common")?,
        transpositions: switch(spec, "transpose")?,
        paranoid: switch(spec, "paranoid")?,
        reuse: match spec.u64("reuse", 0)? {
            0 => false,
            1 if spec.u64("transpose", 0)? == 1 => {
                return Err(SpecError::BadValue {
                    agent: spec.name.clone(),
                    key: "reuse".into(),
                    value: "1".into(),
                    expected: "0 with transpose=1: a merged tree is not carried between moves"
                        .into(),
                });
            }
            1 => true,
            k => {
                return Err(SpecError::BadValue {
                    agent: spec.name.clone(),
                    key: "reuse".into(),
                    value: k.to_string(),
                    expected: "0 or 1".into(),
                });
            }
        },
        ..MctsConfig::default()
    })
}

/// A setting that is 0 (off, when not given) or 1 (on).
fn switch(spec: &AgentSpec, key: &str) -> Result<bool, SpecError> {
    match spec.u64(key, 0)? {
        0 => Ok(false),
        1 => Ok(true),
        k => Err(SpecError::BadValue {
            agent: spec.name.clone(),
            key: key.into(),
            value: k.to_string(),
            expected: "0 or 1".into(),
        }),
    }
}

/// The plan of `augur` or `oracle` (they differ only in what they do by default).
fn plan(
    spec: &AgentSpec,
    trust: Trust,
    defaults: Defaults,
) -> Result<Recipe<AzulState>, SpecError> {
    let name = spec.text.clone();
    let search = search(spec, defaults)?;
    let eval = weights(spec, trust, defaults.weights)?;
    let past = PastRound {
        samples: refills(spec, "samples", 0)?,
        extend: refills(spec, "extend", DEFAULT_EXTEND)?,
        extend_two_only: spec.value("extend")?.is_none(),
    };
    let narrow = Narrow {
        replies: width(spec, "replies", DEFAULT_REPLIES)?,
        plausible: width(spec, "plausible", DEFAULT_PLAUSIBLE)?,
    };
    let reductions = Reductions {
        lmr: count(spec, "lmr")?,
        lmr_deep: count(spec, "lmr_deep")?,
        killers: spec.flag("killers")?,
        history: spec.flag("history")?,
    };
    let endgame = endgame_share(spec, defaults.endgame)?;
    if search == Search::AlphaBeta {
        return Ok(Recipe::new(move || -> Box<dyn Agent<AzulState>> {
            let agent = augur_player(&name, eval.clone(), past, narrow, reductions);
            match endgame {
                Some(share) => Box::new(LastRound::new(agent, share)),
                None => Box::new(agent),
            }
        }));
    }
    let mut config = mcts_config(spec, defaults)?;
    let threads = threads(spec, trust)?;
    let shared = shared_tree(spec, threads)?;
    let mut eval = AugurEvaluator::for_tree_search(eval, narrow);
    let lazy = switch(spec, "lazy")?;
    // The eager search's own settings (a shared tree values eagerly; the others were not
    // measured with lazy valuing).
    let mut eager_only = None;
    for (key, default) in [("policy", 0), ("transpose", 0), ("reuse", 0), ("shared", 0)] {
        if eager_only.is_none() && spec.u64(key, default)? != default {
            eager_only = Some((key, default));
        }
    }
    if let (true, Some((key, default))) = (lazy, eager_only) {
        return Err(SpecError::BadValue {
            agent: spec.name.clone(),
            key: key.into(),
            value: spec.value(key)?.unwrap_or("").into(),
            expected: format!("{default} with lazy=1"),
        });
    }
    let fpu = match spec.value("fpu")? {
        Some(v) if !lazy => {
            return Err(SpecError::BadValue {
                agent: spec.name.clone(),
                key: "fpu".into(),
                value: v.into(),
                expected: "no value without lazy=1".into(),
            });
        }
        _ => {
            let x = spec.f64("fpu", f64::from(config.fpu))?;
            if !(0.0..=1.0).contains(&x) {
                return Err(SpecError::BadValue {
                    agent: spec.name.clone(),
                    key: "fpu".into(),
                    value: x.to_string(),
                    expected: "a number from 0 to 1".into(),
                });
            }
            x as f32
        }
    };
    let lazy_config = MctsConfig {
        lazy: true,
        fpu,
        ..config.clone()
    };
    let valuing = if lazy {
        Valuing::Lazy
    } else if defaults.lazy_beyond_two && spec.value("lazy")?.is_none() && eager_only.is_none() {
        Valuing::BySeats
    } else {
        Valuing::Eager
    };
    if switch(spec, "policy")? {
        let p = POLICY_V1;
        // The fitted weight of the static log-odds is one over a temperature; `temp` given
        // scales it.
        config.temperature /= p.scale;
        eval.policy = Some(p);
    }
    let lazy_eval = AugurEvaluator {
        policy: Some(POLICY_V1_ALONE),
        ..eval.clone()
    };
    let tree = TreeSeat {
        name,
        threads,
        shared,
        endgame,
    };
    // The minimax blend: `mix` given binds at every table size; otherwise the player's own
    // at two seats and at three and four.
    let (mix_two, mix_more) = match spec.value("mix")? {
        Some(_) if config.paranoid && config.minimax == 0.0 => {
            return Err(SpecError::BadValue {
                agent: spec.name.clone(),
                key: "paranoid".into(),
                value: "1".into(),
                expected: "0 with mix=0: the paranoid line is a way of blending the minimax chances, and mix=0 blends none".into(),
            });
        }
        Some(_) => (config.minimax, config.minimax),
        None => (defaults.mix_two, defaults.mix_more),
    };
    let lazy_two = valuing == Valuing::Lazy;
    let lazy_more = valuing != Valuing::Eager;
    let search_at = |lazy: bool, mix: f32| {
        let (e, c) = if lazy {
            (&lazy_eval, &lazy_config)
        } else {
            (&eval, &config)
        };
        let config = MctsConfig {
            minimax: mix,
            ..c.clone()
        };
        (e.clone(), config)
    };
    // A second search only when three and four seats search differently from two.
    let two = search_at(lazy_two, mix_two);
    let more =
        ((lazy_two, mix_two) != (lazy_more, mix_more)).then(|| search_at(lazy_more, mix_more));
    Ok(Recipe::new(move || -> Box<dyn Agent<AzulState>> {
        match &more {
            Some(more) => Box::new(BySeats {
                two: tree.agent(&two.0, &two.1),
                more: tree.agent(&more.0, &more.1),
                more_seats: false,
            }),
            None => tree.agent(&two.0, &two.1),
        }
    }))
}

/// How the tree search values the children of a node it expands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Valuing {
    /// Every child when its node is expanded (`lazy=0`).
    Eager,
    /// A child only when the search first reaches it (`lazy=1`).
    Lazy,
    /// Eagerly at two seats, lazily at three and four (`oracle` without `lazy`).
    BySeats,
}

/// What every tree-search seat of one name shares: its name, threads and last-round solver.
#[derive(Clone, Debug)]
struct TreeSeat {
    name: String,
    threads: usize,
    shared: bool,
    endgame: Option<f64>,
}

impl TreeSeat {
    /// The tree search with `eval` and `config`, behind the last-round solver if it has one.
    fn agent(&self, eval: &AugurEvaluator, config: &MctsConfig) -> Box<dyn Agent<AzulState>> {
        let agent = if self.shared {
            MctsAgent::with_shared_tree(&self.name, eval.clone(), config.clone(), self.threads)
        } else {
            MctsAgent::with_threads(&self.name, eval.clone(), config.clone(), self.threads)
        };
        match self.endgame {
            Some(share) => Box::new(LastRound::new(agent, share)),
            None => Box::new(agent),
        }
    }
}

/// One player that searches with `two` at two-seat tables and with `more` at three and four
/// (each keeps its own memory between moves; a game is played at one table size).
struct BySeats {
    two: Box<dyn Agent<AzulState>>,
    more: Box<dyn Agent<AzulState>>,
    /// Whether the last decision (or clock seen) was at a table of more than two seats.
    more_seats: bool,
}

impl BySeats {
    fn current(&self) -> &dyn Agent<AzulState> {
        if self.more_seats {
            self.more.as_ref()
        } else {
            self.two.as_ref()
        }
    }

    fn current_mut(&mut self) -> &mut dyn Agent<AzulState> {
        if self.more_seats {
            self.more.as_mut()
        } else {
            self.two.as_mut()
        }
    }
}

impl Agent<AzulState> for BySeats {
    fn name(&self) -> String {
        self.two.name()
    }

    fn choose(&mut self, s: &AzulState, budget: &Budget, rng: &mut GameRng) -> AzulAction {
        self.more_seats = s.num_players() > 2;
        self.current_mut().choose(s, budget, rng)
    }

    fn reset(&mut self) {
        self.two.reset();
        self.more.reset();
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.current().last_info()
    }

    fn take_faults(&mut self) -> Vec<tessera_core::fault::Fault> {
        let mut faults = self.two.take_faults();
        faults.extend(self.more.take_faults());
        faults
    }

    fn observe_clock(&mut self, clock: &tessera_core::clock::ClockView) -> bool {
        self.more_seats = clock.left.len() > 2;
        self.current_mut().observe_clock(clock)
    }
}

/// The exact last-round solver's share of a move's budget (`endgame`, 0 to 1; `None` when
/// off).
fn endgame_share(spec: &AgentSpec, default: f64) -> Result<Option<f64>, SpecError> {
    let share = spec.f64("endgame", default)?;
    if !(0.0..=1.0).contains(&share) {
        return Err(SpecError::BadValue {
            agent: spec.name.clone(),
            key: "endgame".into(),
            value: share.to_string(),
            expected: "a share of the move's budget from 0 (off) to 1".into(),
        });
    }
    Ok((share > 0.0).then_some(share))
}

/// The tree search's threads (`threads`, 1-16): more than one only for the operator, since
/// a remote request's agent must not take more of the machine than one seat's thread.
fn threads(spec: &AgentSpec, trust: Trust) -> Result<usize, SpecError> {
    const MAX: u64 = 16;
    match spec.u64("threads", 1)? {
        1 => Ok(1),
        t @ 2..=MAX if trust == Trust::Local => Ok(t as usize),
        2..=MAX => Err(SpecError::Refused {
            agent: spec.name.clone(),
            key: "threads".into(),
            expected: "1: a remote request's agent searches on one thread".into(),
        }),
        t => Err(SpecError::BadValue {
            agent: spec.name.clone(),
            key: "threads".into(),
            value: t.to_string(),
            expected: format!("a number of threads from 1 to {MAX}"),
        }),
    }
}

/// Whether the tree search's threads share one tree (`shared`, 0 or 1; 1 only with two
/// threads or more).
fn shared_tree(spec: &AgentSpec, threads: usize) -> Result<bool, SpecError> {
    match spec.u64("shared", 0)? {
        0 => Ok(false),
        1 if threads >= 2 => Ok(true),
        k => Err(SpecError::BadValue {
            agent: spec.name.clone(),
            key: "shared".into(),
            value: k.to_string(),
            expected: if k == 1 {
                "0 with one thread: a shared tree needs threads=2 or more".into()
            } else {
                "0 or 1".into()
            },
        }),
    }
}

/// The `augur` and `oracle` entries.
pub fn entries() -> Vec<AgentEntry<AzulState>> {
    vec![
        AgentEntry {
            name: "augur",
            summary: "strong's search valuing positions by a learned chance of winning the game (self-play logistic regression)",
            player_summary: "searches ahead and judges positions by its learned chance of winning",
            params: &PARAMS,
            plan: |spec, trust| plan(spec, trust, AUGUR),
        },
        AgentEntry {
            name: "oracle",
            summary: "augur's successor: small neural networks (fitted on self-play) judging the whole table at two and three players (augur's weights v10), searched by Monte Carlo tree search past the round's end (oracle:mcts:outcomes=8; with implicit minimax backups at two players, mix=0.3; at three and four seats valuing a child only when it is reached, lazy=1; augur's alpha-beta with oracle:alphabeta), the last round solved exactly at two players (endgame=0.5)",
            player_summary: "searches ahead, past the round's end, and judges the whole table by what it learned from many games against itself",
            params: &ORACLE_PARAMS,
            plan: |spec, trust| plan(spec, trust, ORACLE),
        },
    ]
}

#[cfg(test)]
mod tests {
    use tessera_core::{Game, PlayerId, Turn, rng::seeded};

    use crate::registry::azul::registry;

    /// An agent with its seat's budget (the plan's), as a table seats it.
    struct Seated {
        agent: Box<dyn tessera_core::Agent<tessera_azul::AzulState>>,
        budget: tessera_core::Budget,
    }

    impl Seated {
        fn choose(
            &mut self,
            s: &tessera_azul::AzulState,
            rng: &mut tessera_core::GameRng,
        ) -> tessera_azul::AzulAction {
            self.agent.choose(s, &self.budget, rng)
        }

        fn last_info(&self) -> Option<tessera_core::SearchInfo> {
            self.agent.last_info()
        }
    }

    fn seat(spec: &str) -> Seated {
        let plan = registry().parse(spec).unwrap();
        Seated {
            agent: plan.build().unwrap(),
            budget: plan.budget(),
        }
    }

    /// Positions from a seeded game between two random players.
    fn positions() -> Vec<tessera_azul::AzulState> {
        positions_of(2)
    }

    /// The last `k` decisions (two or more legal moves) of the first round of
    /// [`positions_of`]`(n)`, last first: there the tree to the round's end is small.
    fn late_first_round(n: usize, k: usize) -> Vec<tessera_azul::AzulState> {
        let all = positions_of(n);
        let late: Vec<_> = all
            .iter()
            .filter(|s| s.round() == all[0].round() && s.num_legal_actions() >= 2)
            .rev()
            .take(k)
            .cloned()
            .collect();
        assert_eq!(late.len(), k);
        late
    }

    /// Positions from a seeded game between `n` random players.
    fn positions_of(n: usize) -> Vec<tessera_azul::AzulState> {
        let mut rng = seeded(8);
        let mut s = tessera_azul::AzulState::new(n, PlayerId(0));
        let mut out = Vec::new();
        while s.turn() != Turn::Terminal {
            if s.turn() == Turn::Chance {
                let d = s.sample_chance(&mut rng);
                s.apply_chance(&d).unwrap();
            } else {
                out.push(s.clone());
                let a = s.random_action(&mut rng).unwrap();
                s.apply(a);
            }
        }
        out
    }

    #[test]
    fn the_board_network_plays_at_two_players_and_leaves_larger_tables_to_v5() {
        // At two players v7 is its own player: legal, deterministic, and not v5 (its moves
        // differ somewhere in a game); at three it searches with v5's values, move for move.
        let mut differ = 0;
        for (i, s) in positions().iter().enumerate().step_by(5) {
            let x = seat("augur:nodes=3000:weights=v7").choose(s, &mut seeded(i as u64));
            let y = seat("augur:nodes=3000:weights=v7").choose(s, &mut seeded(7));
            s.check_action(x).unwrap();
            assert_eq!(x, y, "position {i}: same position, same move");
            differ += usize::from(x != seat("augur:nodes=3000").choose(s, &mut seeded(7)));
        }
        assert!(differ > 0, "v7 chose as v5 everywhere");
        for (i, s) in positions_of(3).iter().enumerate().step_by(9) {
            let x = seat("augur:nodes=3000:weights=v7").choose(s, &mut seeded(1));
            let y = seat("augur:nodes=3000:weights=v5").choose(s, &mut seeded(1));
            assert_eq!(x, y, "three players, position {i}");
        }
    }

    #[test]
    fn oracle_is_augur_with_the_v10_weights() {
        // Same search, same values: the same move on the same nodes at two and three seats,
        // with its parameters passed on; and not v5's player (the moves differ somewhere),
        // nor v9's at two seats (v10 differs from v9 only in the two-player network).
        let (mut differ, mut differ_v9) = (0, 0);
        for (n, step) in [(2, 5), (3, 9)] {
            for (i, s) in positions_of(n).iter().enumerate().step_by(step) {
                let mut o = seat("oracle:alphabeta:nodes=2000:killers");
                let mut a = seat("augur:nodes=2000:killers:weights=v10");
                let x = o.choose(s, &mut seeded(i as u64));
                let y = a.choose(s, &mut seeded(i as u64));
                assert_eq!(x, y, "{n} players, position {i}");
                let (oi, ai) = (o.last_info().unwrap(), a.last_info().unwrap());
                assert_eq!((oi.nodes, oi.depth), (ai.nodes, ai.depth), "position {i}");
                differ +=
                    usize::from(x != seat("augur:nodes=2000:killers").choose(s, &mut seeded(1)));
                if n == 2 {
                    let mut v9 = seat("augur:nodes=2000:killers:weights=v9");
                    differ_v9 += usize::from(x != v9.choose(s, &mut seeded(i as u64)));
                }
            }
        }
        assert!(differ > 0, "oracle chose as v5 everywhere");
        assert!(differ_v9 > 0, "oracle chose as v9 everywhere at two seats");
        // Its own weights can still be named, and bad values are refused as augur's are.
        let s = &positions()[0];
        let x = seat("oracle:alphabeta:nodes=2000:weights=v5").choose(s, &mut seeded(2));
        assert_eq!(x, seat("augur:nodes=2000").choose(s, &mut seeded(2)));
        let err = registry()
            .parse("oracle:weights=v99")
            .unwrap_err()
            .to_string();
        assert!(err.contains("weights") && err.contains("v9"), "{err}");
    }

    #[test]
    fn augur_plays_legally_and_is_deterministic_under_a_node_budget() {
        for (i, s) in positions().iter().enumerate().step_by(7) {
            let mut a = seat("augur:nodes=3000");
            let mut b = seat("augur:nodes=3000");
            let x = a.choose(s, &mut seeded(i as u64));
            let y = b.choose(s, &mut seeded(99));
            s.check_action(x).unwrap();
            assert_eq!(x, y, "position {i}: same position, same move");
            // The same agent asked again (its table now warm) still plays the same move.
            let z = a.choose(s, &mut seeded(5));
            assert_eq!(x, z, "position {i}: repeat");
        }
    }

    #[test]
    fn past_the_round_end_the_search_goes_on_and_stays_reproducible() {
        let all = positions();
        // The last decision of the first round: without samples the round's end is a leaf,
        // so depth 4 sees at most one ply; with samples it goes into the next round.
        let last = &late_first_round(2, 1)[0];
        let mut plain = seat("augur:depth=4:extend=0");
        let mut deep = seat("augur:depth=4:samples=2");
        plain.choose(last, &mut seeded(3));
        deep.choose(last, &mut seeded(3));
        let (p, d) = (plain.last_info().unwrap(), deep.last_info().unwrap());
        assert!(d.nodes > 10 * p.nodes, "{p:?} vs {d:?}");
        // Same position, same seed, same node budget: same move.
        for s in all.iter().step_by(11) {
            let x = seat("augur:nodes=4000:samples=2").choose(s, &mut seeded(21));
            let y = seat("augur:nodes=4000:samples=2").choose(s, &mut seeded(21));
            assert_eq!(x, y);
        }
    }

    #[test]
    fn an_exhausted_tree_extends_past_the_round_end_only_with_extend() {
        // Late in the first round the tree to the round's end is small: the plain search
        // exhausts it and stops early; with `extend` it spends the rest of its node budget
        // past the round's end, deeper, and still plays the same move for the same seed.
        for s in &late_first_round(2, 3) {
            let mut plain = seat("augur:nodes=60000:extend=0");
            let mut ext = seat("augur:nodes=60000:extend=2");
            let x = plain.choose(s, &mut seeded(3));
            let y = ext.choose(s, &mut seeded(3));
            s.check_action(x).unwrap();
            s.check_action(y).unwrap();
            let (p, e) = (plain.last_info().unwrap(), ext.last_info().unwrap());
            assert!(p.nodes < 60_000, "the plain search exhausts early: {p:?}");
            assert!(e.nodes >= 60_000, "extend uses the whole budget: {e:?}");
            assert!(e.depth > p.depth, "{p:?} vs {e:?}");
            let again = seat("augur:nodes=60000:extend=2").choose(s, &mut seeded(3));
            assert_eq!(y, again, "same position, seed and budget: same move");
            // The default extends too.
            let mut default = seat("augur:nodes=60000");
            default.choose(s, &mut seeded(3));
            assert!(default.last_info().unwrap().nodes >= 60_000);
        }
    }

    #[test]
    fn by_default_only_two_player_tables_extend() {
        for n in [3usize, 4] {
            let s = &late_first_round(n, 1)[0];
            let mut default = seat("augur:nodes=60000");
            let mut given = seat("augur:nodes=60000:extend=3");
            default.choose(s, &mut seeded(3));
            given.choose(s, &mut seeded(3));
            let (d, g) = (default.last_info().unwrap(), given.last_info().unwrap());
            assert!(d.nodes < 60_000, "{n} players, default: {d:?}");
            assert!(g.nodes >= 60_000, "{n} players, extend=3 given: {g:?}");
        }
    }

    /// Searches `spec` from `s` and returns (move, nodes; 0 when a forced move needs no search).
    fn search(spec: &str, s: &tessera_azul::AzulState) -> (String, u64) {
        let mut a = seat(spec);
        let m = a.choose(s, &mut seeded(3));
        (m.to_string(), a.last_info().map_or(0, |i| i.nodes))
    }

    #[test]
    fn by_default_only_tables_of_three_and_four_model_the_opponents() {
        for n in [2usize, 3, 4] {
            let (mut same_as_modelled, mut differ_from_full) = (0, 0);
            let all = positions_of(n);
            let sample: Vec<_> = all.iter().step_by(all.len() / 6).collect();
            for s in &sample {
                let default = search("augur:nodes=8000", s);
                let modelled = search("augur:nodes=8000:plausible=4", s);
                let full = search("augur:nodes=8000:plausible=0", s);
                if n == 2 {
                    assert_eq!(default, full, "2 players: the default searches every move");
                } else {
                    same_as_modelled += usize::from(default == modelled);
                    differ_from_full += usize::from(default != full);
                }
            }
            if n > 2 {
                assert_eq!(same_as_modelled, sample.len(), "{n} players: plausible=4");
                assert!(
                    differ_from_full > 0,
                    "{n} players: modelling changed nothing"
                );
            }
        }
        // Given explicitly, it applies at two players too.
        let s = &positions()[3];
        assert_ne!(
            search("augur:depth=3:plausible=2", s).1,
            search("augur:depth=3", s).1
        );
    }

    #[test]
    fn late_move_reductions_reach_deeper_on_the_same_nodes_and_stay_reproducible() {
        let all = positions();
        let sample: Vec<_> = all
            .iter()
            .filter(|s| s.num_legal_actions() >= 8)
            .step_by(5)
            .take(8)
            .collect();
        assert!(sample.len() >= 6);
        let (mut plain_depth, mut lmr_depth) = (0, 0);
        for s in &sample {
            let mut plain = seat("augur:nodes=60000");
            let mut lmr = seat("augur:nodes=60000:lmr=3:lmr_deep=8");
            plain.choose(s, &mut seeded(3));
            let m = lmr.choose(s, &mut seeded(3));
            s.check_action(m).unwrap();
            plain_depth += plain.last_info().unwrap().depth;
            lmr_depth += lmr.last_info().unwrap().depth;
            let again = seat("augur:nodes=60000:lmr=3:lmr_deep=8").choose(s, &mut seeded(3));
            assert_eq!(m, again, "same position and budget: same move");
        }
        assert!(
            lmr_depth > plain_depth,
            "lmr {lmr_depth} plies in all against {plain_depth}"
        );
        // lmr=0 is the plain search.
        let s = sample[0];
        assert_eq!(
            search("augur:nodes=20000:lmr=0", s),
            search("augur:nodes=20000", s)
        );
    }

    #[test]
    fn killers_and_history_keep_the_value_on_fewer_nodes() {
        // The first turns of seeded games: the widest positions, where the order matters.
        let firsts: Vec<_> = (0..3u64)
            .map(|seed| {
                let seeds = tessera_core::record::GameSeeds { seed };
                let mut s = tessera_azul::AzulState::new_random(2, &mut seeds.setup_rng());
                let deal = s.sample_chance(&mut seeds.chance_rng());
                s.apply_chance(&deal).unwrap();
                s
            })
            .collect();
        let mut nodes = [0u64; 3];
        for s in &firsts {
            let mut values = Vec::new();
            for (k, spec) in [
                "augur:depth=4:weights=v9",
                "augur:depth=4:weights=v9:killers",
                "augur:depth=4:weights=v9:history",
            ]
            .into_iter()
            .enumerate()
            {
                let mut a = seat(spec);
                let m = a.choose(s, &mut seeded(3));
                s.check_action(m).unwrap();
                let info = a.last_info().unwrap();
                assert_eq!(info.depth, 4, "{spec}");
                nodes[k] += info.nodes;
                values.push(info.value);
            }
            assert!(values.iter().all(|v| *v == values[0]), "{values:?}");
        }
        assert!(
            nodes[1] < nodes[0],
            "killers {} against plain {}",
            nodes[1],
            nodes[0]
        );
        assert!(
            nodes[2] < nodes[0],
            "history {} against plain {}",
            nodes[2],
            nodes[0]
        );
    }

    #[test]
    fn augur_refuses_bad_parameters() {
        let reg = registry();
        for bad in [
            "augur:depth=0",
            "augur:nodes=x",
            "augur:time=soon",
            "augur:multi=maxn",
            "augur:samples=100",
            "augur:samples=-1",
            "augur:extend=65",
            "augur:extend=two",
            "augur:weights=v11",
            "augur:plausible=1001",
            "augur:replies=-2",
            "augur:plausible=four",
            "augur:lmr=1001",
            "augur:lmr=-1",
            "augur:lmr_deep=many",
            "augur:killers=yes",
            "augur:history=1",
        ] {
            assert!(reg.build(bad).is_err(), "{bad}");
        }
        assert!(reg.build("augur:weights=v1:nodes=100").is_ok());
        let mut a = seat("augur:depth=2");
        let s = &positions()[0];
        a.choose(s, &mut seeded(1));
        assert_eq!(a.last_info().unwrap().depth, 2);
    }

    /// Plays `spec` against `oracle:nodes=2000` from `seed` through a table (the arena's
    /// way of handing states to seats): the complete game's record.
    fn record_against_oracle(
        spec: &str,
        seed: u64,
    ) -> tessera_core::GameRecord<<tessera_azul::AzulState as Game>::Chance> {
        let start = tessera_azul::AzulState::new(2, PlayerId(0));
        super::super::record_against(&registry(), spec, "oracle:nodes=2000", start, seed)
    }

    #[test]
    fn a_carried_tree_replays_and_changes_the_game() {
        let carried = record_against_oracle("oracle:reuse=1:nodes=3000", 4);
        assert_eq!(
            carried,
            record_against_oracle("oracle:reuse=1:nodes=3000", 4),
            "the same seed, the same game"
        );
        assert_eq!(
            record_against_oracle("oracle:reuse=0:nodes=3000", 4).events,
            record_against_oracle("oracle:nodes=3000", 4).events,
            "reuse=0 is the default"
        );
        // A search that carries nothing is the plain search, so a different game shows
        // that trees were carried through the table's states (and changed a choice).
        let differ = (4..8)
            .filter(|&seed| {
                record_against_oracle("oracle:reuse=1:nodes=3000", seed).events
                    != record_against_oracle("oracle:nodes=3000", seed).events
            })
            .count();
        assert!(differ > 0, "reuse=1 changed no move in four games");
    }

    /// `spec` (a node budget of 5000) plays legal moves within its budget, replays them
    /// from the seed, and somewhere plays another move than `plain`.
    fn plays_its_own_moves_within_the_budget(spec: &str, plain: &str) {
        let (mut differ, mut searched) = (0, 0);
        for (i, s) in positions().iter().enumerate().step_by(6) {
            let mut a = seat(spec);
            let x = a.choose(s, &mut seeded(i as u64));
            s.check_action(x).unwrap();
            // (No search, so no report, where the move is forced.)
            if let Some(info) = a.last_info() {
                assert!(info.nodes <= 5000, "{spec}, position {i}: {info:?}");
                searched += 1;
            }
            assert_eq!(
                x,
                seat(spec).choose(s, &mut seeded(i as u64)),
                "position {i}"
            );
            differ += usize::from(x != seat(plain).choose(s, &mut seeded(i as u64)));
        }
        assert!(
            searched > 0 && differ > 0,
            "{spec}: {searched} searched, {differ} moves changed"
        );
    }

    #[test]
    fn the_policy_prior_changes_moves_keeps_the_budget_and_replays() {
        // policy=1 reweighs the priors only.
        plays_its_own_moves_within_the_budget(
            "oracle:common=1:outcomes=8:endgame=0:policy=1:nodes=5000",
            "oracle:common=1:outcomes=8:endgame=0:nodes=5000",
        );
    }

    #[test]
    fn minimax_backups_change_moves_keep_the_budget_and_replay() {
        plays_its_own_moves_within_the_budget(
            "oracle:common=1:outcomes=8:endgame=0:mix=0.5:nodes=5000",
            "oracle:common=1:outcomes=8:endgame=0:mix=0:nodes=5000",
        );
        // Unless given, the blend is 0.3 at two seats and 0 at three and four, move for
        // move, eager or lazy; a value given binds at every size (at two seats 0 and at
        // three seats 0.3 each change a move somewhere).
        for spec in ["oracle:nodes=3000", "oracle:lazy=1:nodes=3000"] {
            let given = spec.replace("oracle:", "oracle:mix=0.3:");
            let off = spec.replace("oracle:", "oracle:mix=0:");
            let mut differ = 0;
            for (i, s) in positions().iter().enumerate().step_by(6) {
                let x = seat(spec).choose(s, &mut seeded(i as u64));
                assert_eq!(
                    seat(&given).choose(s, &mut seeded(i as u64)),
                    x,
                    "{spec}, position {i}"
                );
                differ += usize::from(x != seat(&off).choose(s, &mut seeded(i as u64)));
            }
            assert!(differ > 0, "{spec} played as mix=0 at two seats everywhere");
        }
        let mut differ = 0;
        for (i, s) in positions_of(3).iter().enumerate().step_by(9) {
            let x = seat("oracle:nodes=3000").choose(s, &mut seeded(i as u64));
            assert_eq!(
                x,
                seat("oracle:mix=0:nodes=3000").choose(s, &mut seeded(i as u64)),
                "three seats, position {i}"
            );
            differ += usize::from(
                x != seat("oracle:mix=0.3:nodes=3000").choose(s, &mut seeded(i as u64)),
            );
        }
        assert!(differ > 0, "mix=0.3 changed no move at three seats");
        // The paranoid line reaches the search: its moves replay within the budget and
        // change a move of the blend somewhere, at two seats and at three.
        plays_its_own_moves_within_the_budget(
            "oracle:common=1:outcomes=8:endgame=0:mix=0.5:paranoid=1:nodes=5000",
            "oracle:common=1:outcomes=8:endgame=0:mix=0.5:nodes=5000",
        );
        let mut differ = 0;
        for (i, s) in positions_of(3).iter().enumerate().step_by(9) {
            let x = seat("oracle:mix=0.3:paranoid=1:nodes=3000").choose(s, &mut seeded(i as u64));
            s.check_action(x).unwrap();
            differ += usize::from(
                x != seat("oracle:mix=0.3:nodes=3000").choose(s, &mut seeded(i as u64)),
            );
        }
        assert!(
            differ > 0,
            "paranoid=1 changed no move of mix=0.3 at three seats"
        );
    }

    #[test]
    fn a_lazy_oracle_plays_legal_reproducible_moves_within_its_node_budget() {
        // lazy=1: one evaluator call a simulation.
        plays_its_own_moves_within_the_budget(
            "oracle:common=1:outcomes=8:endgame=0:lazy=1:nodes=5000",
            "oracle:common=1:outcomes=8:endgame=0:nodes=5000",
        );
        // With threads (each its own tree) and another first-play reduction: legal.
        let s = &positions()[0];
        let x = seat("oracle:lazy=1:fpu=0.3:threads=2:nodes=2000").choose(s, &mut seeded(1));
        s.check_action(x).unwrap();
    }

    #[test]
    fn mcts_plays_legal_reproducible_moves_within_its_node_budget() {
        let mut differ = 0;
        for (i, s) in positions().iter().enumerate().step_by(6) {
            let mut a = seat("oracle:mcts:outcomes=0:nodes=3000");
            let x = a.choose(s, &mut seeded(i as u64));
            s.check_action(x).unwrap();
            if let Some(info) = a.last_info() {
                assert!(info.nodes <= 3000, "position {i}: {info:?}");
            }
            // Without refills the seed changes nothing.
            let y = seat("oracle:mcts:outcomes=0:nodes=3000").choose(s, &mut seeded(99));
            assert_eq!(x, y, "position {i}");
            let z = seat("oracle:alphabeta:nodes=3000").choose(s, &mut seeded(99));
            differ += usize::from(x != z);
        }
        assert!(differ > 0, "mcts chose as alpha-beta everywhere");
        // With refills, the same seed gives the same move, and the search goes past the
        // round's end from the last decisions of the first round.
        for s in late_first_round(2, 3) {
            let mut a = seat("oracle:mcts:outcomes=4:nodes=20000");
            let x = a.choose(&s, &mut seeded(8));
            let deep = a.last_info().unwrap().depth;
            let y = seat("oracle:mcts:outcomes=4:nodes=20000").choose(&s, &mut seeded(8));
            assert_eq!(x, y);
            let mut plain = seat("oracle:mcts:outcomes=0:nodes=20000");
            plain.choose(&s, &mut seeded(8));
            assert!(
                deep > plain.last_info().unwrap().depth,
                "{deep} plies with refills"
            );
            // Common refills: as reproducible, within the budget, and past the round too.
            let mut c = seat("oracle:common=1:outcomes=32:nodes=20000");
            let x = c.choose(&s, &mut seeded(8));
            let info = c.last_info().unwrap();
            assert!(info.nodes <= 20000 && info.depth > plain.last_info().unwrap().depth);
            let y = seat("oracle:common=1:outcomes=32:nodes=20000").choose(&s, &mut seeded(8));
            assert_eq!(x, y);
            // Transpositions: as reproducible and within the budget.
            let tt = "oracle:common=1:outcomes=32:transpose=1:nodes=20000";
            let mut t = seat(tt);
            let x = t.choose(&s, &mut seeded(8));
            assert!(t.last_info().unwrap().nodes <= 20000);
            assert_eq!(x, seat(tt).choose(&s, &mut seeded(8)));
        }
        // Early in a round, where orders of moves meet, sharing them changes some search.
        let mut differ = 0;
        let early = positions();
        for s in early
            .iter()
            .filter(|s| s.num_legal_actions() >= 2)
            .take(40)
            .step_by(4)
        {
            let mut plain = seat("oracle:nodes=30000");
            let mut tt = seat("oracle:transpose=1:nodes=30000");
            let (a, b) = (
                plain.choose(s, &mut seeded(3)),
                tt.choose(s, &mut seeded(3)),
            );
            let (pa, pb) = (plain.last_info().unwrap(), tt.last_info().unwrap());
            assert!(pb.nodes <= 30000);
            if a != b || pa.value != pb.value || pa.depth != pb.depth {
                differ += 1;
            }
        }
        assert!(differ > 0, "transpose=1 searched as the tree everywhere");
    }

    #[test]
    fn threads_are_the_operators_and_keep_the_node_budget() {
        use crate::registry::{RegistryError, Trust};
        use crate::spec::SpecError;
        let reg = registry();
        // A remote request may not take more than one thread of the machine.
        assert!(reg.parse_from("oracle:threads=1", Trust::Remote).is_ok());
        let e = reg.parse_from("oracle:threads=2", Trust::Remote).err();
        assert!(
            matches!(e, Some(RegistryError::Spec(SpecError::Refused { .. }))),
            "{e:?}"
        );
        assert!(reg.parse_from("oracle:threads=2", Trust::Local).is_ok());
        // With two threads the seat's node budget is the two trees' together, the move is
        // legal and the same seed replays it; with one thread the moves are the default's.
        let mut differ = 0;
        let positions = positions();
        let choices = positions.iter().filter(|s| s.num_legal_actions() >= 2);
        for (i, s) in choices.enumerate().step_by(9) {
            let spec = "oracle:common=1:outcomes=32:threads=2:nodes=20000";
            let mut a = seat(spec);
            let x = a.choose(s, &mut seeded(i as u64));
            s.check_action(x).unwrap();
            let info = a.last_info().unwrap();
            assert!(
                info.nodes <= 20000 && info.nodes > 10000,
                "position {i}: {info:?}"
            );
            assert_eq!(
                x,
                seat(spec).choose(s, &mut seeded(i as u64)),
                "position {i}"
            );
            let one = seat("oracle:threads=1:nodes=5000").choose(s, &mut seeded(i as u64));
            assert_eq!(
                one,
                seat("oracle:nodes=5000").choose(s, &mut seeded(i as u64))
            );
            let mut single = seat("oracle:common=1:outcomes=32:nodes=20000");
            let y = single.choose(s, &mut seeded(i as u64));
            differ += usize::from(x != y || single.last_info().unwrap().value != info.value);
        }
        assert!(differ > 0, "two threads searched as one everywhere");
    }

    #[test]
    fn a_shared_tree_is_the_operators_and_keeps_the_node_budget() {
        use crate::registry::{RegistryError, Trust};
        use crate::spec::SpecError;
        let reg = registry();
        let e = reg
            .parse_from("oracle:threads=2:shared=1", Trust::Remote)
            .err();
        assert!(
            matches!(e, Some(RegistryError::Spec(SpecError::Refused { .. }))),
            "{e:?}"
        );
        assert!(reg.parse_from("oracle:shared=0", Trust::Remote).is_ok());
        // Two threads in one tree: a legal move within the seat's node budget.
        let positions = positions();
        let choices = positions.iter().filter(|s| s.num_legal_actions() >= 2);
        let mut searched = 0;
        for (i, s) in choices.enumerate().step_by(9) {
            let mut a = seat("oracle:threads=2:shared=1:nodes=20000");
            let x = a.choose(s, &mut seeded(i as u64));
            s.check_action(x).unwrap();
            let info = a.last_info().unwrap();
            assert!(info.nodes <= 20000, "position {i}: {info:?}");
            searched += 1;
        }
        assert!(searched >= 3, "only {searched} positions");
    }

    #[test]
    fn the_last_round_solver_plays_exact_moves_and_refuses_bad_shares() {
        use crate::registry::azul_endgame::{last_round_certain, solve, solver, value_for};
        let reg = registry();
        for (bad, key) in [
            ("oracle:endgame=1.5", "from 0 (off) to 1"),
            ("oracle:endgame=-0.1", "from 0 (off) to 1"),
            ("oracle:endgame=NaN", "endgame"),
            ("augur:endgame=half", "endgame"),
        ] {
            let err = reg
                .parse(bad)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.contains(key), "{bad}: '{err}'");
        }
        // Decisions of a seeded game where the last round is certain.
        let mut rng = seeded(11);
        let mut game = tessera_azul::AzulState::new(2, PlayerId(0));
        let mut strong = seat("strong:nodes=3000");
        let mut last = Vec::new();
        while game.turn() != Turn::Terminal {
            if game.turn() == Turn::Chance {
                let d = game.sample_chance(&mut rng);
                game.apply_chance(&d).unwrap();
                continue;
            }
            if last_round_certain(&game) && game.num_legal_actions() > 1 {
                last.push(game.clone());
            }
            let a = strong.choose(&game, &mut rng);
            game.apply(a);
        }
        assert!(last.len() >= 3, "{} positions", last.len());
        let mut exact = solver();
        let value = |s: &tessera_azul::AzulState, me: PlayerId, exact: &mut _| {
            value_for(exact, s, me, &tessera_core::Budget::default()).unwrap()
        };
        let mut checked = 0;
        for (i, s) in last.iter().enumerate() {
            // Only where the solver's share (10,000 nodes) is enough to solve.
            let share = tessera_core::Budget {
                nodes: Some(10_000),
                ..tessera_core::Budget::default()
            };
            if solve(&mut exact, s, &share).0.is_none() {
                continue;
            }
            checked += 1;
            let me = s.current_player().unwrap();
            let best = value(s, me, &mut exact);
            // oracle's default share is 0.5: the plain name solves too.
            for spec in [
                "oracle:nodes=20000",
                "oracle:nodes=20000:endgame=0.5",
                "augur:nodes=10000:endgame=1",
            ] {
                let mut a = seat(spec);
                let m = a.choose(s, &mut seeded(i as u64));
                assert_eq!(m, seat(spec).choose(s, &mut seeded(i as u64)), "{spec}");
                let mut after = s.clone();
                after.apply(m);
                assert_eq!(value(&after, me, &mut exact), best, "{spec} at {s}");
            }
        }
        assert!(checked >= 3, "{checked} of {} solved", last.len());
        // At three players the solver is never used: the search alone decides.
        for (i, s) in positions_of(3).iter().enumerate().step_by(7) {
            if s.turn() == Turn::Player(s.current_player().unwrap()) {
                let a = seat("oracle:nodes=500:endgame=1").choose(s, &mut seeded(i as u64));
                let b = seat("oracle:nodes=500").choose(s, &mut seeded(i as u64));
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn mcts_refuses_the_other_searchs_parameters_and_bad_values() {
        let reg = registry();
        for (bad, key) in [
            ("oracle:mcts:lmr=2", "lmr"),
            ("oracle:mcts:killers", "killers"),
            ("augur:mcts:extend=3", "extend"),
            ("oracle:mcts:plausible=4", "plausible"),
            // augur searches by alpha-beta without a flag: the tree search's keys must
            // name their search.
            ("augur:cpuct=2", "augur:mcts"),
            ("augur:outcomes=4", "augur:mcts"),
            ("oracle:mcts:temp=0", "temp"),
            ("oracle:policy=2", "0 or 1"),
            ("oracle:alphabeta:policy=1", "policy"),
            ("augur:policy=1", "augur:mcts"),
            ("oracle:lazy=2", "0 or 1"),
            ("oracle:lazy=1:policy=1", "0 with lazy=1"),
            ("oracle:lazy=1:transpose=1", "0 with lazy=1"),
            ("oracle:lazy=1:reuse=1", "0 with lazy=1"),
            ("oracle:lazy=1:threads=2:shared=1", "0 with lazy=1"),
            ("oracle:fpu=0.2", "without lazy=1"),
            ("oracle:lazy=1:fpu=2", "from 0 to 1"),
            ("oracle:lazy=1:fpu=-0.1", "from 0 to 1"),
            ("oracle:mix=1.5", "from 0 to 1"),
            ("oracle:mix=-0.1", "from 0 to 1"),
            ("oracle:alphabeta:mix=0.3", "mix"),
            ("oracle:paranoid=2", "0 or 1"),
            ("oracle:mix=0:paranoid=1", "0 with mix=0"),
            ("oracle:alphabeta:paranoid=1", "paranoid"),
            ("augur:paranoid=1", "augur:mcts"),
            ("augur:mix=0.3", "augur:mcts"),
            ("oracle:alphabeta:lazy=1", "lazy"),
            ("oracle:mcts:cpuct=-1", "cpuct"),
            ("oracle:mcts:cpuct=inf", "cpuct"),
            ("oracle:mcts:outcomes=65", "outcomes"),
            ("oracle:mcts=yes", "mcts"),
            ("oracle:alphabeta=yes", "alphabeta"),
            ("oracle:mcts:alphabeta", "alphabeta"),
            ("augur:alphabeta:cpuct=2", "cpuct"),
            ("oracle:alphabeta:outcomes=8", "outcomes"),
            ("oracle:mcts:common=2", "0 or 1"),
            ("oracle:alphabeta:common=1", "common"),
            ("augur:common=1", "augur:mcts"),
            ("oracle:mcts:transpose=2", "0 or 1"),
            ("oracle:settle=1.5", "settle"),
            ("oracle:settle=-0.1", "settle"),
            ("oracle:alphabeta:settle=0.5", "settle"),
            ("augur:settle=0.5", "augur:mcts"),
            ("oracle:reuse=2", "0 or 1"),
            ("oracle:transpose=1:reuse=1", "0 with transpose=1"),
            ("oracle:alphabeta:reuse=1", "reuse"),
            ("augur:reuse=1", "augur:mcts"),
            ("oracle:alphabeta:transpose=1", "transpose"),
            ("augur:transpose=1", "augur:mcts"),
            ("oracle:threads=0", "from 1 to 16"),
            ("oracle:threads=17", "from 1 to 16"),
            ("oracle:threads=two", "threads"),
            ("oracle:shared=1", "threads=2 or more"),
            ("oracle:threads=2:shared=2", "0 or 1"),
            ("oracle:alphabeta:threads=2:shared=1", "threads"),
            ("oracle:alphabeta:threads=2", "threads"),
            ("augur:threads=2", "augur:mcts"),
            // oracle searches by mcts without a flag: the alpha-beta keys must name their
            // search.
            ("oracle:killers", "oracle:alphabeta"),
            ("oracle:extend=3:nodes=100", "oracle:alphabeta"),
        ] {
            let err = reg
                .parse(bad)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.contains(key), "{bad}: '{err}'");
        }
        assert!(
            reg.build("oracle:mcts:cpuct=2.5:temp=0.5:outcomes=8:time=50ms")
                .is_ok()
        );
        assert!(reg.build("augur:mcts:weights=v5:nodes=100").is_ok());
        assert!(reg.build("augur:alphabeta:killers:nodes=100").is_ok());
        assert!(
            reg.build("oracle:alphabeta:lmr=2:extend=3:nodes=100")
                .is_ok()
        );
        // augur's default search is alpha-beta and oracle's the tree search: their keys
        // need no flag.
        assert!(reg.build("augur:killers:nodes=100").is_ok());
        assert!(reg.build("oracle:cpuct=2:outcomes=4:nodes=100").is_ok());
        assert!(reg.build("oracle:common=1:outcomes=32:nodes=100").is_ok());
        assert!(reg.build("oracle:settle=0.5:nodes=100").is_ok());
    }

    #[test]
    fn a_settling_oracle_stops_early_where_its_choice_is_clear_and_replays() {
        // Under a node budget `settle` makes the budget a cap: some searches stop short of
        // it (more than the plain search's, which stops short only on solved trees), the
        // moves are legal, the same seed replays them, and they are mostly the moves the
        // whole budget plays.
        let (mut short, mut plain_short, mut differ) = (0, 0, 0);
        let nodes = |info: Option<tessera_core::SearchInfo>| info.map_or(u64::MAX, |i| i.nodes);
        let all = positions();
        let decisions = all.iter().filter(|s| s.num_legal_actions() >= 2);
        for (i, s) in decisions.enumerate().step_by(4) {
            let mut a = seat("oracle:settle=0.5:nodes=20000");
            let x = a.choose(s, &mut seeded(i as u64));
            s.check_action(x).unwrap();
            let y = seat("oracle:settle=0.5:nodes=20000").choose(s, &mut seeded(i as u64));
            assert_eq!(x, y, "position {i}: same seed, same move");
            short += usize::from(nodes(a.last_info()) < 19_000);
            let mut p = seat("oracle:nodes=20000");
            differ += usize::from(p.choose(s, &mut seeded(i as u64)) != x);
            plain_short += usize::from(nodes(p.last_info()) < 19_000);
        }
        assert!(
            short > plain_short + 2,
            "{short} settled searches stopped short, {plain_short} plain ones"
        );
        assert!(differ * 4 <= short, "{differ} of {short} moves changed");
    }

    #[test]
    fn oracle_settles_by_default_on_a_game_clock_only() {
        // A budget marked as a game clock's (as a table or the engine protocol marks the
        // managed time) makes plain `oracle` the `settle=0.5` player, move for move and node
        // for node; a fixed budget keeps the search running to its limit; a `settle` given
        // binds on a clock too; `augur:mcts` keeps 0 on a clock.
        let on_clock = |spec: &str| {
            let mut a = seat(spec);
            a.budget.from_clock = true;
            a
        };
        let nodes = |info: Option<tessera_core::SearchInfo>| info.map_or(u64::MAX, |i| i.nodes);
        let (mut short, mut fixed_short) = (0, 0);
        let all = positions();
        let decisions = all.iter().filter(|s| s.num_legal_actions() >= 2);
        for (i, s) in decisions.enumerate().step_by(4) {
            let play = |mut a: Seated| {
                let x = a.choose(s, &mut seeded(i as u64));
                (x, nodes(a.last_info()))
            };
            let clocked = play(on_clock("oracle:nodes=20000"));
            s.check_action(clocked.0).unwrap();
            assert_eq!(
                clocked,
                play(seat("oracle:settle=0.5:nodes=20000")),
                "position {i}: on a clock, oracle is oracle:settle=0.5"
            );
            assert_eq!(
                clocked,
                play(on_clock("oracle:settle=0.5:nodes=20000")),
                "position {i}"
            );
            let fixed = play(seat("oracle:nodes=20000"));
            assert_eq!(
                fixed,
                play(on_clock("oracle:settle=0:nodes=20000")),
                "position {i}: settle=0 given binds on a clock"
            );
            assert_eq!(
                play(seat("augur:mcts:nodes=5000")),
                play(on_clock("augur:mcts:nodes=5000")),
                "position {i}: augur keeps its default"
            );
            short += usize::from(clocked.1 < 19_000);
            fixed_short += usize::from(fixed.1 < 19_000);
        }
        assert!(
            short > fixed_short + 2,
            "{short} searches on a clock stopped short, {fixed_short} under a fixed budget"
        );
    }

    #[test]
    fn oracle_searches_by_mcts_with_refills_at_every_table_size() {
        // At every table size the default is `oracle:mcts:outcomes=8`, move for move and node
        // for node, and not alpha-beta (the moves differ somewhere); `augur:mcts` has no
        // refills unless asked and `oracle:mcts` has eight.
        for (n, step, nodes) in [(2, 6, 5000), (3, 9, 2000), (4, 11, 2000)] {
            let (mut differ, mut searched) = (0, 0);
            for (i, s) in positions_of(n).iter().enumerate().step_by(step) {
                let mut o = seat(&format!("oracle:nodes={nodes}"));
                let x = o.choose(s, &mut seeded(i as u64));
                let mut m = seat(&format!("oracle:mcts:outcomes=8:nodes={nodes}"));
                assert_eq!(x, m.choose(s, &mut seeded(i as u64)), "{n} seats, {i}");
                let stats =
                    |info: Option<tessera_core::SearchInfo>| info.map(|i| (i.nodes, i.depth));
                searched += usize::from(o.last_info().is_some());
                assert_eq!(stats(o.last_info()), stats(m.last_info()), "{n} seats, {i}");
                let y =
                    seat(&format!("oracle:mcts:nodes={nodes}")).choose(s, &mut seeded(i as u64));
                assert_eq!(x, y, "{n} seats, {i}: oracle:mcts has 8 refills");
                // oracle blends in the minimax chances at two seats and values lazily at
                // three and four (the next tests).
                let own = if n == 2 { ":mix=0.3" } else { ":lazy=1" };
                let z = seat(&format!(
                    "augur:mcts:outcomes=8:weights=v10:nodes={nodes}{own}"
                ))
                .choose(s, &mut seeded(i as u64));
                assert_eq!(x, z, "{n} seats, {i}: augur:mcts given oracle's settings");
                differ += usize::from(
                    x != seat(&format!("oracle:alphabeta:nodes={nodes}")).choose(s, &mut seeded(1)),
                );
            }
            assert!(
                differ > 0,
                "oracle chose as alpha-beta everywhere at {n} seats"
            );
            // The statistics compared were a search's (a forced move reports none).
            assert!(searched > 0, "no search reported at {n} seats");
        }
    }

    #[test]
    fn oracle_values_lazily_at_three_and_four_seats_unless_told() {
        // Unless `lazy` is given, oracle is `lazy=0` at two seats and `lazy=1` at three and
        // four, move for move and node for node; the two searches differ somewhere at every
        // table size, so the comparison can fail.
        for (n, step, nodes) in [(2, 6, 3000), (3, 9, 2000), (4, 11, 2000)] {
            let mut differ = 0;
            for (i, s) in positions_of(n).iter().enumerate().step_by(step) {
                let mut o = seat(&format!("oracle:nodes={nodes}"));
                let x = o.choose(s, &mut seeded(i as u64));
                let mut eager = seat(&format!("oracle:nodes={nodes}:lazy=0"));
                let e = eager.choose(s, &mut seeded(i as u64));
                let mut lazy = seat(&format!("oracle:nodes={nodes}:lazy=1"));
                let l = lazy.choose(s, &mut seeded(i as u64));
                let (same, same_info) = if n == 2 {
                    (e, eager.last_info())
                } else {
                    (l, lazy.last_info())
                };
                assert_eq!(x, same, "{n} seats, position {i}");
                let stats =
                    |info: Option<tessera_core::SearchInfo>| info.map(|i| (i.nodes, i.depth));
                assert_eq!(stats(o.last_info()), stats(same_info), "{n} seats, {i}");
                differ += usize::from(e != l);
            }
            assert!(differ > 0, "lazy and eager chose alike at {n} seats");
        }
        // The eager search's own settings keep it at three seats too; a value given binds
        // at every table size.
        for (i, s) in positions_of(3).iter().enumerate().step_by(9) {
            for (spec, same) in [
                (
                    "oracle:nodes=2000:policy=1",
                    "oracle:nodes=2000:policy=1:lazy=0",
                ),
                (
                    "oracle:nodes=2000:transpose=1",
                    "oracle:nodes=2000:transpose=1:lazy=0",
                ),
                (
                    "oracle:nodes=2000:reuse=1",
                    "oracle:nodes=2000:reuse=1:lazy=0",
                ),
                ("augur:mcts:nodes=2000", "augur:mcts:nodes=2000:lazy=0"),
            ] {
                let x = seat(spec).choose(s, &mut seeded(i as u64));
                assert_eq!(
                    x,
                    seat(same).choose(s, &mut seeded(i as u64)),
                    "{spec}, {i}"
                );
            }
        }
        // One seat plays a three-seat game after a two-seat one (reset between games, as a
        // table does): each table size gets its own search.
        let mut o = seat("oracle:nodes=2000");
        let (two, three) = (positions_of(2), positions_of(3));
        let x2 = o.choose(&two[6], &mut seeded(6));
        o.agent.reset();
        let x3 = o.choose(&three[9], &mut seeded(9));
        assert_eq!(
            x2,
            seat("oracle:nodes=2000:lazy=0").choose(&two[6], &mut seeded(6))
        );
        assert_eq!(
            x3,
            seat("oracle:nodes=2000:lazy=1").choose(&three[9], &mut seeded(9))
        );
    }

    #[test]
    fn a_board_network_file_joins_the_players_default_version_at_its_table_size() {
        let dir = tempfile::tempdir().unwrap();
        let net = |name: &str| {
            let text = tessera_azul::augur::shipped_net(name).unwrap();
            let path = dir.path().join(format!("{name}.json"));
            std::fs::write(&path, text).unwrap();
            path.to_string_lossy().into_owned()
        };
        let (net1, net2) = (net("net1"), net("net2-3p"));
        let mut changed = 0;
        for (i, s) in positions_of(2).iter().enumerate().step_by(6) {
            // augur is v5: with net1 it is v7 (v5 with net1 at two players).
            let x = seat(&format!("augur:nodes=2000:weights={net1}")).choose(s, &mut seeded(3));
            assert_eq!(
                x,
                seat("augur:nodes=2000:weights=v7").choose(s, &mut seeded(3)),
                "{i}"
            );
            // oracle is v10: net1 replaces its two-player network, so it plays as v7 there.
            let y = seat(&format!("oracle:alphabeta:nodes=2000:weights={net1}"))
                .choose(s, &mut seeded(3));
            assert_eq!(y, x, "position {i}");
            changed +=
                usize::from(y != seat("oracle:alphabeta:nodes=2000").choose(s, &mut seeded(3)));
        }
        assert!(changed > 0, "the file's network was not used");
        let mut changed = 0;
        for (i, s) in positions_of(3).iter().enumerate().step_by(4) {
            // At three players oracle keeps its own network when the file is a two-player
            // one; a three-player file replaces it there: with v8's (net2-3p) it plays as v8
            // (in oracle's tree search, lazy at three seats).
            let own = seat("oracle:nodes=2000").choose(s, &mut seeded(5));
            let y = seat(&format!("oracle:nodes=2000:weights={net1}")).choose(s, &mut seeded(5));
            assert_eq!(y, own, "position {i}");
            let z = seat(&format!("oracle:nodes=2000:weights={net2}")).choose(s, &mut seeded(5));
            let v8 = seat("augur:mcts:outcomes=8:lazy=1:nodes=2000:weights=v8")
                .choose(s, &mut seeded(5));
            assert_eq!(z, v8, "position {i}");
            changed += usize::from(z != own);
        }
        assert!(changed > 0, "the three-player file's network was not used");
        // A file that is neither kind is refused with both readings' errors.
        let broken = dir.path().join("broken.json");
        std::fs::write(&broken, "{\"format\": 1, \"hidden\": 32}").unwrap();
        let err = registry()
            .build(&format!("oracle:weights={}", broken.display()))
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("as linear weights") && err.contains("as a board network"),
            "{err}"
        );
    }

    #[test]
    fn weights_can_come_from_a_file_and_a_bad_file_is_named() {
        let reg = registry();
        let dir = tempfile::tempdir().unwrap();
        let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
        // The shipped v1 file, read from disk, plays exactly as `weights=v1`.
        let v1 = path("v1.json");
        std::fs::write(&v1, tessera_azul::augur::shipped_weights("v1").unwrap()).unwrap();
        for s in positions().iter().step_by(9) {
            let from_file =
                seat(&format!("augur:nodes=2000:weights={v1}")).choose(s, &mut seeded(4));
            let shipped = seat("augur:nodes=2000:weights=v1").choose(s, &mut seeded(4));
            assert_eq!(from_file, shipped);
        }
        let missing = path("missing.json");
        let err = reg
            .build(&format!("augur:weights={missing}"))
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("missing.json") && err.contains("readable"),
            "{err}"
        );
        let broken = path("broken.json");
        std::fs::write(&broken, "{\"format\": 1}").unwrap();
        let err = reg
            .build(&format!("augur:weights={broken}"))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("written by `tessera train`"), "{err}");
        // A remote request may name shipped weights but no file: refused before it is read,
        // and the answer is the same whether the file exists or not.
        use crate::registry::{RegistryError, Trust};
        use crate::spec::SpecError;
        assert!(reg.parse_from("augur:weights=v3", Trust::Remote).is_ok());
        let refusals: Vec<String> = [&v1, &missing, &broken]
            .iter()
            .map(|file| {
                let e = reg
                    .parse_from(&format!("augur:weights={file}"), Trust::Remote)
                    .err()
                    .unwrap();
                assert!(
                    matches!(e, RegistryError::Spec(SpecError::Refused { .. })),
                    "{e}"
                );
                e.to_string().replace(file.as_str(), "FILE")
            })
            .collect();
        assert!(refusals.iter().all(|r| r == &refusals[0]), "{refusals:?}");
        assert!(refusals[0].contains("v5"), "{}", refusals[0]);
    }
}
