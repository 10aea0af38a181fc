//! Qwirkle in the arena (owned by the qwirkle room): the game's [`ArenaGame`] impl, its
//! bots `random`, `points`, `smarter`, `montecarlo`, `seer`, `sage` and `lookahead` and external
//! engines (`ext:`), and its [`EngineGame`] impl: the engine protocol's view notation, which
//! writes a position as one seat sees it (other hands and the bag as counts only).

use tessera_core::{Budget, Game, GameRng, PlayerId};
use tessera_qwirkle::bots::{LookaheadBot, LookaheadConfig, PointsBot, SmarterBot};
use tessera_qwirkle::mc::{MonteCarloBot, MonteCarloConfig};
use tessera_qwirkle::sage::{SageBot, SageConfig};
use tessera_qwirkle::seer::{MAX_WORLDS, SeerBot, SeerConfig};
use tessera_qwirkle::{HAND_SIZE, Move, Phase, Placed, Qwirkle, QwirkleView, Tile, TileCounts};

use super::{AgentEntry, ParamDoc, ParamKind, Recipe, Registry, random_entry};
use crate::game::{ArenaGame, BoxError, EngineGame};
use crate::spec::{AgentSpec, SpecError};

impl ArenaGame for Qwirkle {
    /// The rules decide who starts (the largest group after the deal), so the generator is
    /// not needed: the game begins with the deal, a chance event.
    fn new_game(players: usize, _rng: &mut GameRng) -> Self {
        Qwirkle::new(players.clamp(Qwirkle::INFO.min_players, Qwirkle::INFO.max_players))
            .unwrap_or_else(|_| unreachable_game())
    }

    fn registry() -> Registry<Self> {
        registry()
    }
}

/// Qwirkle over the engine protocol. A position is written as the view of one seat:
/// `seat=1 n=2 phase=play:1 first=3 scores=0,0 hands=R1R2R3O4O5Y6/?6 bag=?96 board=- aside=- end=-`
/// (the state notation's fields, with `seat=P` first, every other hand as `?COUNT`, the bag
/// as `?COUNT` and another player's traded tiles as `?COUNT`). `position state` also takes a
/// full state (no `seat=`). Moves are written with `;` for spaces (`R1@0,0;R2@1,0`,
/// `trade;R1;O4`, `pass`); chance outcomes as `deal:HAND1/HAND2/...` (six tiles per seat)
/// and `draw:TILES`.
impl EngineGame for Qwirkle {
    const ENGINE_PLAYER: &'static str = "montecarlo";
    const CHANCE_NAME: &'static str = "the deal or a draw";
    const CHANCE_NEEDED: &'static str =
        "the deal or a draw comes first (deal:HAND1/HAND2/... or draw:TILES)";

    /// The rules choose who starts (the largest group after the deal).
    fn start(players: usize, first: Option<PlayerId>) -> Option<Self> {
        if first.is_some() {
            return None;
        }
        Qwirkle::new(players).ok()
    }

    fn parse_chance(&self, word: &str) -> Option<Result<Vec<Tile>, String>> {
        let (kind, tiles) = word.split_once(':')?;
        if kind != "deal" && kind != "draw" {
            return None;
        }
        Some(qwirkle_chance(self, kind, tiles))
    }

    fn position_text(&self, seat: PlayerId) -> String {
        view_text(&self.view(seat))
    }

    fn parse_position(text: &str) -> Result<(Self, Option<PlayerId>), BoxError> {
        if !text.split_whitespace().any(|w| w.starts_with("seat=")) {
            return Ok((text.parse()?, None));
        }
        let (state, seat) = state_from_view(text)?;
        Ok((state, Some(seat)))
    }

    fn action_word(action: &Move) -> String {
        action
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(";")
    }
}

/// Why a Qwirkle view (or chance outcome) in the engine protocol does not parse.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    /// A field is missing, unknown, repeated or malformed.
    #[error("view field '{field}': {detail}")]
    Field {
        /// The field.
        field: &'static str,
        /// What is wrong and what is expected.
        detail: String,
    },
    /// The filled-in state does not hold together.
    #[error(transparent)]
    State(#[from] tessera_qwirkle::ParseError),
}

fn field(field: &'static str, detail: impl Into<String>) -> ViewError {
    ViewError::Field {
        field,
        detail: detail.into(),
    }
}

fn tiles_word(ts: &[Tile]) -> String {
    if ts.is_empty() {
        "-".into()
    } else {
        ts.iter().map(Tile::to_string).collect()
    }
}

fn parse_tile_list(s: &str) -> Result<Vec<Tile>, String> {
    if s == "-" {
        return Ok(Vec::new());
    }
    let chars: Vec<char> = s.chars().collect();
    if !chars.len().is_multiple_of(2) {
        return Err(format!("'{s}' is not a list of tiles such as R1O2Y3"));
    }
    chars
        .chunks(2)
        .map(|pair| {
            pair.iter()
                .collect::<String>()
                .parse::<Tile>()
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// `deal:HAND1/HAND2/...` while the hands are dealt, `draw:TILES` while a player draws.
fn qwirkle_chance(state: &Qwirkle, kind: &str, tiles: &str) -> Result<Vec<Tile>, String> {
    match (kind, state.phase()) {
        ("deal", Phase::Deal) => {
            let hands: Vec<&str> = tiles.split('/').collect();
            if hands.len() != state.num_players() {
                return Err(format!(
                    "expected deal:HAND1/HAND2/... with one hand of {HAND_SIZE} tiles per seat ({})",
                    state.num_players()
                ));
            }
            let mut all = Vec::new();
            for h in hands {
                let hand = parse_tile_list(h)?;
                if hand.len() != HAND_SIZE {
                    return Err(format!(
                        "hand '{h}' has {} tiles, not {HAND_SIZE}",
                        hand.len()
                    ));
                }
                all.extend(hand);
            }
            Ok(all)
        }
        ("draw", Phase::Draw { .. }) => parse_tile_list(tiles),
        (_, Phase::Deal) => Err("the hands are dealt now: expected deal:HAND1/HAND2/...".into()),
        (_, Phase::Draw { count, .. }) => Err(format!(
            "a player draws now: expected draw: and {count} tiles"
        )),
        _ => Err("no chance event is due: expected a move".into()),
    }
}

/// The engine protocol's text of one seat's view (see [`EngineGame for Qwirkle`]).
pub fn view_text(v: &QwirkleView) -> String {
    let seat = |p: PlayerId| (p.0 + 1).to_string();
    let phase = match v.phase {
        Phase::Deal => "deal".to_string(),
        Phase::Play { player } => format!("play:{}", seat(player)),
        Phase::Draw { player, count } => format!("draw:{}:{count}", seat(player)),
        Phase::Over => "over".to_string(),
    };
    let first = v.first_move_size.map_or("-".to_string(), |k| k.to_string());
    let scores: Vec<String> = v.scores.iter().map(i32::to_string).collect();
    let hands: Vec<String> = v
        .hand_sizes
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            if i == v.observer.index() {
                tiles_word(&v.hand)
            } else {
                format!("?{n}")
            }
        })
        .collect();
    let board = v.board.notation();
    let aside = if !v.set_aside.is_empty() {
        tiles_word(&v.set_aside)
    } else if v.set_aside_count > 0 {
        format!("?{}", v.set_aside_count)
    } else {
        "-".to_string()
    };
    let end = match v.end {
        None => "-".to_string(),
        Some(tessera_qwirkle::End::Out(p)) => format!("out:{}", seat(p)),
        Some(tessera_qwirkle::End::Blocked) => "blocked".to_string(),
    };
    format!(
        "seat={} n={} phase={phase} first={first} scores={} hands={} bag=?{} board={board} aside={aside} end={end}",
        seat(v.observer),
        v.players,
        scores.join(","),
        hands.join("/"),
        v.bag_size,
    )
}

/// `?COUNT`: a number of hidden tiles.
fn hidden(s: &str, name: &'static str) -> Result<usize, ViewError> {
    s.strip_prefix('?')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| {
            field(
                name,
                format!("'{s}': expected ?COUNT, the number of hidden tiles"),
            )
        })
}

/// A state consistent with a seat's view: the tiles the seat cannot see (other hands, the
/// bag, another player's traded tiles) are dealt from the unseen ones in tile order. Only
/// determinized copies of it reach a player.
fn state_from_view(text: &str) -> Result<(Qwirkle, PlayerId), ViewError> {
    const KEYS: [&str; 10] = [
        "seat", "n", "phase", "first", "scores", "hands", "bag", "board", "aside", "end",
    ];
    let mut vals: [Option<&str>; 10] = [None; 10];
    for word in text.split_whitespace() {
        let (k, v) = word
            .split_once('=')
            .ok_or_else(|| field("view", format!("'{word}' is not KEY=VALUE")))?;
        let i = KEYS.iter().position(|&x| x == k).ok_or_else(|| {
            field(
                "view",
                format!("unknown field '{k}'; expected {}", KEYS.join(", ")),
            )
        })?;
        if vals[i].replace(v).is_some() {
            return Err(field(KEYS[i], "given twice"));
        }
    }
    let get = |i: usize| vals[i].ok_or_else(|| field(KEYS[i], "missing"));
    let n: usize = get(1)?
        .parse()
        .ok()
        .filter(|n| (Qwirkle::INFO.min_players..=Qwirkle::INFO.max_players).contains(n))
        .ok_or_else(|| field("n", "expected 2, 3 or 4 players"))?;
    let seat_text = get(0)?;
    let seat = seat_text
        .parse::<usize>()
        .ok()
        .filter(|s| (1..=n).contains(s))
        .map(|s| PlayerId(s as u8 - 1))
        .ok_or_else(|| field("seat", format!("'{seat_text}' is not a seat from 1 to {n}")))?;
    let hands: Vec<&str> = get(5)?.split('/').collect();
    if hands.len() != n {
        return Err(field("hands", "one hand per player, separated by '/'"));
    }
    let mut unseen = TileCounts::full();
    let mut see = |ts: &[Tile], name: &'static str| -> Result<(), ViewError> {
        for &t in ts {
            if !unseen.remove(t) {
                return Err(field(name, format!("more copies of {t} than the game has")));
            }
        }
        Ok(())
    };
    let own = parse_tile_list(hands[seat.index()]).map_err(|e| field("hands", e))?;
    see(&own, "hands")?;
    let board = get(7)?;
    if board != "-" {
        for cell in board.split(';') {
            let p: Placed = cell.parse()?;
            see(&[p.tile], "board")?;
        }
    }
    let aside = get(8)?;
    let hidden_aside = if aside.starts_with('?') {
        hidden(aside, "aside")?
    } else {
        let tiles = parse_tile_list(aside).map_err(|e| field("aside", e))?;
        see(&tiles, "aside")?;
        0
    };
    let bag = hidden(get(6)?, "bag")?;
    let mut counts = Vec::with_capacity(n);
    for (i, h) in hands.iter().enumerate() {
        counts.push(if i == seat.index() {
            0
        } else {
            hidden(h, "hands")?
        });
    }
    let wanted = counts.iter().sum::<usize>() + hidden_aside + bag;
    if wanted != unseen.total() {
        return Err(field(
            "bag",
            format!(
                "the view hides {wanted} tiles (other hands, bag, traded tiles) but {} tiles are not on the board or in the seat's hand",
                unseen.total()
            ),
        ));
    }
    let mut pool = unseen.tiles();
    let mut deal = |k: usize| tiles_word(&pool.by_ref().take(k).collect::<Vec<_>>());
    let hand_words: Vec<String> = hands
        .iter()
        .zip(&counts)
        .enumerate()
        .map(|(i, (h, &k))| {
            if i == seat.index() {
                h.to_string()
            } else {
                deal(k)
            }
        })
        .collect();
    let aside_word = if hidden_aside > 0 {
        deal(hidden_aside)
    } else {
        aside.to_string()
    };
    let mut left = unseen;
    for h in hand_words
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != seat.index())
    {
        for t in parse_tile_list(h.1).map_err(|e| field("hands", e))? {
            left.remove(t);
        }
    }
    if hidden_aside > 0 {
        for t in parse_tile_list(&aside_word).map_err(|e| field("aside", e))? {
            left.remove(t);
        }
    }
    let bag_digits: String = left
        .0
        .iter()
        .map(|&c| char::from(b'0' + c.min(9)))
        .collect();
    let full = format!(
        "n={n} phase={} first={} scores={} hands={} bag={bag_digits} board={board} aside={aside_word} end={}",
        get(2)?,
        get(3)?,
        get(4)?,
        hand_words.join("/"),
        get(9)?,
    );
    Ok((full.parse()?, seat))
}

fn unreachable_game() -> Qwirkle {
    // `players` is clamped to the game's seat range above, for which `Qwirkle::new` always succeeds.
    Qwirkle::new(2).unwrap_or_else(|e| panic!("Qwirkle::new(2) failed: {e}"))
}

const LOOKAHEAD_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "candidates",
        kind: ParamKind::Value { default: "6" },
        doc: "placements examined (the best by immediate points)",
    },
    ParamDoc {
        name: "samples",
        kind: ParamKind::Value { default: "6" },
        doc: "sampled hands of the next player per decision",
    },
    ParamDoc {
        name: "reply",
        kind: ParamKind::Value { default: "0.5" },
        doc: "weight of the next player's expected best reply",
    },
    ParamDoc {
        name: "leave",
        kind: ParamKind::Value { default: "0.3" },
        doc: "weight of the value of the tiles kept in hand",
    },
    ParamDoc {
        name: "next",
        kind: ParamKind::Value { default: "0.5" },
        doc: "weight of the bot's own best next placement after the greedy reply (0: skip)",
    },
    ParamDoc {
        name: "time",
        kind: ParamKind::Value { default: "none" },
        doc: "time per move: sampling stops when it is spent (after one sampled hand at least)",
    },
];

/// The most sampled worlds (or hands) a Qwirkle bot's parameter may ask for per move.
pub const MAX_SAMPLES: u64 = 10_000;

const MONTECARLO_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "candidates",
        kind: ParamKind::Value { default: "10" },
        doc: "placements examined (the best by immediate points)",
    },
    ParamDoc {
        name: "plies",
        kind: ParamKind::Value { default: "4" },
        doc: "turns played out after each candidate (every player plays its highest-scoring placement)",
    },
    ParamDoc {
        name: "worlds",
        kind: ParamKind::Value { default: "32" },
        doc: "sampled worlds per move when neither time nor nodes is given (at most 10000)",
    },
    ParamDoc {
        name: "time",
        kind: ParamKind::Value { default: "none" },
        doc: "time per move: worlds are added until it is spent",
    },
    ParamDoc {
        name: "nodes",
        kind: ParamKind::Value { default: "none" },
        doc: "exactly this many worlds per move (reproducible; a time limit, such as a server's cap, still stops it)",
    },
];

/// A whole-number parameter from 1 to `max`, or `default`.
fn count(spec: &AgentSpec, key: &str, default: usize, max: u64) -> Result<usize, SpecError> {
    let v = spec.u64(key, default as u64)?;
    if v == 0 || v > max {
        return Err(SpecError::BadValue {
            agent: spec.name.clone(),
            key: key.into(),
            value: v.to_string(),
            expected: format!("a whole number from 1 to {max}"),
        });
    }
    Ok(v as usize)
}

fn montecarlo(spec: &AgentSpec) -> Result<Recipe<Qwirkle>, SpecError> {
    let d = MonteCarloConfig::default();
    let config = MonteCarloConfig {
        candidates: count(spec, "candidates", d.candidates, MAX_SAMPLES)?,
        plies: count(spec, "plies", d.plies, MAX_SAMPLES)?,
        worlds: count(spec, "worlds", d.worlds, MAX_SAMPLES)?,
    };
    // `time` and `nodes` are the entry's budget parameters (the seat's budget, clamped by
    // whoever seats the bot); without either the seat plays `worlds` worlds a move.
    Ok(
        Recipe::new(move || Box::new(MonteCarloBot::with_config(config)))
            .with_budget(Budget::nodes(config.worlds as u64)),
    )
}

fn lookahead(spec: &AgentSpec) -> Result<Recipe<Qwirkle>, SpecError> {
    let d = LookaheadConfig::default();
    let config = LookaheadConfig {
        candidates: count(spec, "candidates", d.candidates, MAX_SAMPLES)?,
        samples: count(spec, "samples", d.samples, MAX_SAMPLES)?,
        reply_weight: spec.f64("reply", d.reply_weight)?,
        leave_weight: spec.f64("leave", d.leave_weight)?,
        next_weight: spec.f64("next", d.next_weight)?,
    };
    Ok(Recipe::new(move || {
        Box::new(LookaheadBot::with_config(config))
    }))
}

/// The parameters `seer` and `sage` share (the same meaning and the same defaults).
const SEER_WORLDS: ParamDoc = ParamDoc {
    name: "worlds",
    kind: ParamKind::Value { default: "32" },
    doc: "sampled worlds per move when neither time nor nodes is given, 1-100000",
};

const SEER_TRADES: ParamDoc = ParamDoc {
    name: "trades",
    kind: ParamKind::Value { default: "1" },
    doc: "1: trades (the whole hand; all but the largest group) are candidates too; 0: placements only",
};

const SEER_INFER: ParamDoc = ParamDoc {
    name: "infer",
    kind: ParamKind::Value { default: "1" },
    doc: "sharpness of the inference of the previous player's hand, per point its move gave up, 0-100 (0: none)",
};

const SEER_FLOOR: ParamDoc = ParamDoc {
    name: "floor",
    kind: ParamKind::Value { default: "0.1" },
    doc: "smallest acceptance of a sampled hand, 0-1 (keeps the inference sound against any opponent)",
};

const SEER_TRIES: ParamDoc = ParamDoc {
    name: "tries",
    kind: ParamKind::Value { default: "8" },
    doc: "hands sampled per world before the most likely one is kept, 1-100",
};

const SEER_HALVING: ParamDoc = ParamDoc {
    name: "halving",
    kind: ParamKind::Value { default: "1" },
    doc: "1: sequential halving (play-outs in rounds, the worse half of the candidates dropped after each); 0: every candidate in every world",
};

const SEER_EXCLUDE: ParamDoc = ParamDoc {
    name: "exclude",
    kind: ParamKind::Value { default: "0" },
    doc: "1: the previous player's kept tiles are sampled only among the kinds that, held with the tiles it placed, would not have scored more (exclusion sampling for a greedy player; a floor share of the worlds unconditioned); 0: kept tiles are a random part of a uniformly sampled hand",
};

const SEER_TRACK: ParamDoc = ParamDoc {
    name: "track",
    kind: ParamKind::Value { default: "0" },
    doc: "two seats: particles tracking the other player's kept tiles over all its placements (each hand completed by draws it could have made, weighed by infer and floor, resampled), 0-4096 (0: only its last move is read)",
};

const SEER_GUARD: ParamDoc = ParamDoc {
    name: "guard",
    kind: ParamKind::Value { default: "0" },
    doc: "the bot's own turns in the play-outs take, among this many best placements by points, the one whose points minus the next player's best reply are largest, 0-100 (0 or 1: the best by points)",
};

const SEER_LLEAVE: ParamDoc = ParamDoc {
    name: "lleave",
    kind: ParamKind::Value { default: "0" },
    doc: "the bot's own turns in the play-outs take the placement whose points plus this weight times the learned leave of the tiles it keeps are largest, while the bag holds tiles, 0-100 (0: off)",
};

const SEER_LTAIL: ParamDoc = ParamDoc {
    name: "ltail",
    kind: ParamKind::Value { default: "0" },
    doc: "1: a play-out that does not end the game adds the weighted learned leave of the bot's last own placement in it (needs lleave); 0: off",
};

const SEER_FINISH: ParamDoc = ParamDoc {
    name: "finish",
    kind: ParamKind::Value { default: "0" },
    doc: "once the bag holds at most this many tiles, every play-out runs to the game's end instead of plies turns, 0-108 (0: only once the bag is empty)",
};

const SEER_EARLY: ParamDoc = ParamDoc {
    name: "early",
    kind: ParamKind::Value { default: "0" },
    doc: "weight of a play-out's value one turn before its end, mixed with the value at its end (the same play-out; evens out who moved last before the horizon), 0-1 (0: the end alone)",
};

const SEER_CUT: ParamDoc = ParamDoc {
    name: "cut",
    kind: ParamKind::Value { default: "0" },
    doc: "1: play-outs stop after plies turns even when the bag runs out inside them; 0: once the bag is empty they run on to the game's end",
};

const SEER_OWN: ParamDoc = ParamDoc {
    name: "own",
    kind: ParamKind::Value { default: "0" },
    doc: "the bot's first own turn in every play-out searched: its this many best placements by points each played out for the rest of the play-out, the best kept, 0-100 (0 or 1: its highest-scoring); not with guard, lleave or early",
};

const SEER_LTRADE: ParamDoc = ParamDoc {
    name: "ltrade",
    kind: ParamKind::Value { default: "0" },
    doc: "1: a third trade among the candidates, the one keeping the part of the hand with the largest learned leave (with trades=1); 0: the whole hand and the hand outside its largest group only",
};

const SEER_LCAND: ParamDoc = ParamDoc {
    name: "lcand",
    kind: ParamKind::Value { default: "0" },
    doc: "placements added to the candidates beyond the best by points: this many of the rest with the most points plus learned leave of the tiles kept, while the bag holds tiles, 0-100 (0: by points alone)",
};

const SEER_TIES: ParamDoc = ParamDoc {
    name: "ties",
    kind: ParamKind::Value { default: "0" },
    doc: "1: in the play-outs every greedy turn breaks ties at random among the start cells whose placements score the most (as points picks among its best placements at random; the same tie-breaks for every candidate in a world); 0: the first best placement in generation order",
};

const SEER_TIME: ParamDoc = ParamDoc {
    name: "time",
    kind: ParamKind::Value { default: "none" },
    doc: "time per move: play-outs are added until it is spent",
};

const SEER_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "candidates",
        kind: ParamKind::Value { default: "10" },
        doc: "placements examined (the best by immediate points), 1-100",
    },
    ParamDoc {
        name: "plies",
        kind: ParamKind::Value { default: "4" },
        doc: "turns played out after each candidate, 1-50 (to the game's end once the bag is empty)",
    },
    SEER_WORLDS,
    SEER_TRADES,
    SEER_INFER,
    SEER_FLOOR,
    SEER_TRIES,
    SEER_HALVING,
    SEER_EXCLUDE,
    SEER_TRACK,
    SEER_GUARD,
    SEER_LLEAVE,
    SEER_LTAIL,
    SEER_FINISH,
    SEER_EARLY,
    SEER_CUT,
    SEER_OWN,
    SEER_LTRADE,
    SEER_TIES,
    SEER_LCAND,
    SEER_TIME,
    ParamDoc {
        name: "nodes",
        kind: ParamKind::Value { default: "none" },
        doc: "the play-outs of this many worlds for every candidate (reproducible), up to 100000 (0 counts as 1, as for every node budget)",
    },
];

const SAGE_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        name: "candidates",
        kind: ParamKind::Value { default: "12" },
        doc: "placements examined (the best by immediate points), 1-100",
    },
    ParamDoc {
        name: "plies",
        kind: ParamKind::Value { default: "4" },
        doc: "turns played out after each candidate at two players, two more a further seat, 1-50 (to the game's end once the bag is empty)",
    },
    SEER_WORLDS,
    SEER_TRADES,
    SEER_INFER,
    SEER_FLOOR,
    SEER_TRIES,
    SEER_HALVING,
    SEER_EXCLUDE,
    SEER_TRACK,
    SEER_GUARD,
    SEER_LLEAVE,
    SEER_LTAIL,
    SEER_FINISH,
    SEER_EARLY,
    SEER_CUT,
    SEER_OWN,
    SEER_LTRADE,
    SEER_TIES,
    SEER_LCAND,
    ParamDoc {
        name: "leave",
        kind: ParamKind::Value { default: "1" },
        doc: "weight of the hands' leave value (own minus the best other) at the end of a play-out, 0-100",
    },
    ParamDoc {
        name: "win",
        kind: ParamKind::Value { default: "0" },
        doc: "points added to a play-out that ends the game won and taken from one that ends it lost (in the exact endgame too), 0-1000: a likelier win over a larger margin",
    },
    ParamDoc {
        name: "risk",
        kind: ParamKind::Value { default: "0" },
        doc: "value a play-out by its chance of winning, 100 tanh(0.85 x / (risk sqrt(tiles left))) with x its value in points, 0-100 (0: the points)",
    },
    ParamDoc {
        name: "threat",
        kind: ParamKind::Value { default: "0" },
        doc: "weight of the Qwirkle threats at the end of a play-out: each line of five a sixth tile could complete, 12 points to whoever is likelier to place it first by the tiles still unseen, 0-100 (0: off)",
    },
    ParamDoc {
        name: "endgame",
        kind: ParamKind::Value { default: "6" },
        doc: "turns of the exact alpha-beta endgame at two players once the bag is empty, 0-8 (0: sampled worlds as seer)",
    },
    ParamDoc {
        name: "width",
        kind: ParamKind::Value { default: "8" },
        doc: "own placements searched below the root of the exact endgame (the best by points), 1-100",
    },
    ParamDoc {
        name: "replies",
        kind: ParamKind::Value { default: "1" },
        doc: "the other player's placements searched at its turns in the exact endgame (the best by points; 1: its highest-scoring, as the play-outs model it), 0-100 (0: width)",
    },
    ParamDoc {
        name: "endnodes",
        kind: ParamKind::Value { default: "1024" },
        doc: "exact-endgame search nodes a world of the nodes budget, 1-100000",
    },
    SEER_TIME,
    ParamDoc {
        name: "nodes",
        kind: ParamKind::Value { default: "none" },
        doc: "the play-outs of this many worlds for every candidate, and endnodes (1024) endgame search nodes a world (reproducible), up to 100000 (0 counts as 1, as for every node budget)",
    },
];

/// The most particles `track` may ask for.
const MAX_TRACK: u64 = 4096;

/// The search settings `seer` and `sage` share, read from `spec` over the defaults `d`.
fn seer_config(spec: &AgentSpec, d: &SeerConfig) -> Result<SeerConfig, SpecError> {
    let bad = |key: &str, value: String, expected: &str| SpecError::BadValue {
        agent: spec.name.clone(),
        key: key.into(),
        value,
        expected: expected.into(),
    };
    let whole = |key: &str, default: u64, max: u64| -> Result<usize, SpecError> {
        let v = spec.u64(key, default)?;
        if v == 0 || v > max {
            return Err(bad(
                key,
                v.to_string(),
                &format!("a whole number from 1 to {max}"),
            ));
        }
        Ok(v as usize)
    };
    let real = |key: &str, default: f64, max: f64| -> Result<f64, SpecError> {
        let v = spec.f64(key, default)?;
        if !(0.0..=max).contains(&v) {
            return Err(bad(
                key,
                v.to_string(),
                &format!("a number from 0 to {max}"),
            ));
        }
        Ok(v)
    };
    // `nodes` is a budget parameter (the registry passes it to `choose`); its range is
    // checked here so that a huge world count is refused before a game starts.
    if let Some(v) = spec.value("nodes")? {
        match v.parse::<u64>() {
            Ok(n) if n <= MAX_WORLDS => {}
            _ => {
                return Err(bad(
                    "nodes",
                    v.to_string(),
                    &format!("a whole number of worlds up to {MAX_WORLDS}"),
                ));
            }
        }
    }
    let at_most = |key: &str, default: usize, max: u64, what: &str| -> Result<usize, SpecError> {
        let v = spec.u64(key, default as u64)?;
        if v > max {
            return Err(bad(
                key,
                v.to_string(),
                &format!("a whole number of {what} from 0 to {max}"),
            ));
        }
        Ok(v as usize)
    };
    let switch = |key: &str, default: bool| -> Result<bool, SpecError> {
        match spec.u64(key, u64::from(default))? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(bad(key, v.to_string(), "0 or 1")),
        }
    };
    let config = SeerConfig {
        candidates: whole("candidates", d.candidates as u64, 100)?,
        plies: whole("plies", d.plies as u64, 50)?,
        worlds: whole("worlds", d.worlds as u64, MAX_WORLDS)?,
        trades: switch("trades", d.trades)?,
        infer: real("infer", d.infer, 100.0)?,
        floor: real("floor", d.floor, 1.0)?,
        tries: whole("tries", d.tries as u64, 100)?,
        halving: switch("halving", d.halving)?,
        leave: real("leave", d.leave, 100.0)?,
        win: real("win", d.win, 1000.0)?,
        risk: real("risk", d.risk, 100.0)?,
        threat: real("threat", d.threat, 100.0)?,
        exclude: switch("exclude", d.exclude)?,
        track: at_most("track", d.track, MAX_TRACK, "particles")?,
        guard: at_most("guard", d.guard, 100, "placements")?,
        lleave: real("lleave", d.lleave, 100.0)?,
        ltail: switch("ltail", d.ltail)?,
        finish: at_most("finish", d.finish, 108, "tiles in the bag")?,
        early: real("early", d.early, 1.0)?,
        cut: switch("cut", d.cut)?,
        own: at_most("own", d.own, 100, "placements")?,
        ltrade: switch("ltrade", d.ltrade)?,
        lcand: at_most("lcand", d.lcand, 100, "placements")?,
        ties: switch("ties", d.ties)?,
    };
    if config.own > 1 && (config.guard > 1 || config.lleave > 0.0 || config.early > 0.0) {
        return Err(bad(
            "own",
            config.own.to_string(),
            "own above 1 without guard above 1, lleave or early (each changes the same play-out turns)",
        ));
    }
    if config.ltail && config.lleave == 0.0 {
        return Err(bad(
            "ltail",
            "1".into(),
            "ltail=1 together with a learned-leave weight lleave above 0",
        ));
    }
    Ok(config)
}

fn seer(spec: &AgentSpec) -> Result<Recipe<Qwirkle>, SpecError> {
    let config = seer_config(spec, &SeerConfig::default())?;
    // `time` and `nodes` are the entry's budget parameters (the seat's budget, clamped by
    // whoever seats the bot); without either the seat plays `worlds` worlds a move.
    Ok(Recipe::new(move || Box::new(SeerBot::with_config(config)))
        .with_budget(Budget::nodes(config.worlds as u64)))
}

fn sage(spec: &AgentSpec) -> Result<Recipe<Qwirkle>, SpecError> {
    let d = SageConfig::default();
    let seer = seer_config(spec, &d.seer)?;
    let whole = |key: &str, default: usize, min: u64, max: u64| -> Result<usize, SpecError> {
        let v = spec.u64(key, default as u64)?;
        if v < min || v > max {
            return Err(SpecError::BadValue {
                agent: spec.name.clone(),
                key: key.into(),
                value: v.to_string(),
                expected: format!("a whole number from {min} to {max}"),
            });
        }
        Ok(v as usize)
    };
    let config = SageConfig {
        seer,
        depth: whole("endgame", d.depth, 0, 8)?,
        width: whole("width", d.width, 1, 100)?,
        replies: whole("replies", d.replies, 0, 100)?,
        endnodes: whole("endnodes", d.endnodes as usize, 1, 100_000)? as u64,
    };
    Ok(Recipe::new(move || Box::new(SageBot::with_config(config)))
        .with_budget(Budget::nodes(config.seer.worlds as u64)))
}

/// The Qwirkle players.
pub fn registry() -> Registry<Qwirkle> {
    Registry::new(vec![
        random_entry(),
        AgentEntry {
            name: "points",
            summary: "the seed's points bot: the highest-scoring placement",
            player_summary: "always plays the placement that scores the most points now",
            params: &[],
            plan: |_, _| Ok(Recipe::new(|| Box::new(PointsBot::new()))),
        },
        AgentEntry {
            name: "smarter",
            summary: "the seed's smarter bot: fewest Qwirkle chances, then points, then fewest killed lines",
            player_summary: "avoids leaving easy Qwirkles to the next player, then scores the most",
            params: &[],
            plan: |_, _| Ok(Recipe::new(|| Box::new(SmarterBot::new()))),
        },
        AgentEntry {
            name: "montecarlo",
            summary: "determinized Monte Carlo: each of the best placements played out 4 turns in sampled worlds, valued by the score margin",
            player_summary: "tries its best placements in imagined games a few turns ahead",
            params: MONTECARLO_PARAMS,
            plan: |spec, _| montecarlo(spec),
        },
        AgentEntry {
            name: "seer",
            summary: "Monte Carlo that reads the previous player's hand from what it did not play; trades as candidates; play-outs to the end once the bag is empty",
            player_summary: "guesses your hand from what you did not play and looks ahead",
            params: SEER_PARAMS,
            plan: |spec, _| seer(spec),
        },
        AgentEntry {
            name: "sage",
            summary: "seer with play-outs to its own next turn at every table size, a leave value at their end, and an exact alpha-beta endgame at two players",
            player_summary: "reads your hand, plans to its next turn and plays the end exactly",
            params: SAGE_PARAMS,
            plan: |spec, _| sage(spec),
        },
        AgentEntry {
            name: "lookahead",
            summary: "points - 0.5 x next player's best reply + 0.5 x own best next placement (sampled hands) + 0.3 x leave",
            player_summary: "weighs its points against the next player's best reply",
            params: LOOKAHEAD_PARAMS,
            plan: |spec, _| lookahead(spec),
        },
    ]
    .into_iter()
    .chain(crate::ext::entries::<Qwirkle>())
    .collect())
    .with_levels(super::levels::QWIRKLE)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VIEW: &str = "seat=1 n=2 phase=play:1 first=- scores=0,3 hands=R1R2O3Y4G5B6/?6 bag=?93 board=Y1@0,0;Y2@1,0;Y3@2,0 aside=- end=-";

    #[test]
    fn a_view_reads_into_a_state_that_shows_the_same_view() {
        let (state, seat) = Qwirkle::parse_position(VIEW).unwrap();
        assert_eq!(seat, Some(PlayerId(0)));
        assert_eq!(state.position_text(PlayerId(0)), VIEW);
        assert_eq!(state.hand(PlayerId(1)).len(), 6);
        assert_eq!(state.bag().total(), 93);
        // Seat 2's text of the same state hides seat 1's hand instead.
        let other = state.position_text(PlayerId(1));
        assert!(
            other.starts_with("seat=2 ") && other.contains(" hands=?6/"),
            "{other}"
        );
    }

    #[test]
    fn bad_views_say_what_is_wrong() {
        for (bad, says) in [
            (
                VIEW.replace("bag=?93", "bag=?94"),
                "the view hides 100 tiles",
            ),
            (
                VIEW.replace("seat=1", "seat=3"),
                "'3' is not a seat from 1 to 2",
            ),
            (VIEW.replace("/?6", "/B1B2"), "expected ?COUNT"),
            (VIEW.replace(" end=-", ""), "view field 'end': missing"),
            (VIEW.replace("R1R2", "Y1Y1Y1R2"), "more copies of Y1"),
            (format!("{VIEW} colour=red"), "unknown field 'colour'"),
        ] {
            let e = Qwirkle::parse_position(&bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn chance_words_fit_the_phase() {
        let g = Qwirkle::new(2).unwrap();
        assert_eq!(
            g.parse_chance("deal:R1R2R3R4R5R6/O1O2O3O4O5O6")
                .unwrap()
                .unwrap()
                .len(),
            12
        );
        assert!(g.parse_chance("R1@0,0").is_none());
        for (bad, says) in [
            ("deal:R1R2R3/O1O2O3O4O5O6", "has 3 tiles, not 6"),
            ("deal:R1R2R3R4R5R6", "one hand of 6 tiles per seat (2)"),
            ("draw:R1", "the hands are dealt now"),
            ("deal:R1R2R3R4R5R6/O1O2O3O4O5Z6", "colour"),
        ] {
            let e = g.parse_chance(bad).unwrap().unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn qwirkle_bots_build_and_bad_params_are_refused() {
        let r = registry();
        for name in [
            "random",
            "points",
            "smarter",
            "lookahead",
            "lookahead:samples=2",
        ] {
            assert!(r.build(name).is_ok(), "{name}");
        }
        assert!(r.build("lookahead:samples=0").is_err());
        for bad in [
            "lookahead:samples=200000",
            "lookahead:candidates=10001",
            "montecarlo:worlds=10001",
            "montecarlo:plies=0",
            "lookahead:time=soon",
        ] {
            let e = r.parse(bad).err().unwrap().to_string();
            assert!(e.contains("expected"), "{bad}: {e}");
        }
        // Seats' budgets: montecarlo's worlds, or its time/nodes; lookahead's time only.
        assert_eq!(r.parse("montecarlo").unwrap().budget(), Budget::nodes(32));
        assert_eq!(
            r.parse("montecarlo:worlds=8").unwrap().budget(),
            Budget::nodes(8)
        );
        assert_eq!(
            r.parse("montecarlo:nodes=16").unwrap().budget(),
            Budget::nodes(16)
        );
        assert!(r.parse("lookahead").unwrap().budget().is_unlimited());
        assert_eq!(
            r.parse("lookahead:time=20ms").unwrap().budget(),
            Budget::time(std::time::Duration::from_millis(20))
        );
        assert!(r.build("lookahead:depth=3").is_err());
        assert!(r.build("pointz").is_err());
    }

    #[test]
    fn seer_builds_and_bad_values_are_refused() {
        let r = registry();
        for good in [
            "seer",
            "seer:nodes=16",
            "seer:time=50ms",
            "seer:candidates=12:plies=6:worlds=8:trades=0:infer=0:floor=1:tries=1:halving=0",
            "seer:nodes=100000",
        ] {
            assert!(r.build(good).is_ok(), "{good}");
        }
        for bad in [
            "seer:nodes=100001",
            "seer:nodes=many",
            "seer:candidates=0",
            "seer:candidates=101",
            "seer:plies=0",
            "seer:worlds=100001",
            "seer:trades=2",
            "seer:halving=yes",
            "seer:infer=-1",
            "seer:floor=1.5",
            "seer:tries=0",
            "seer:time=soon",
            "seer:depth=x",
            "seer:horizon=3",
        ] {
            assert!(r.build(bad).is_err(), "{bad} must be refused");
        }
        let names: Vec<String> = ["seer", "seer:infer=0"]
            .iter()
            .map(|s| r.build(s).map(|a| a.name()).unwrap_or_default())
            .collect();
        assert_eq!(names, ["seer", "seer:infer=0"]);
        // A seat's name lists the settings that differ from the default, in a fixed order
        // (numbers as given, switches as 0/1), whatever order the spec gave them in.
        for (spec, name) in [
            (
                "sage:ties=1:candidates=8:halving=0:replies=2:endgame=4:plies=3",
                "sage:candidates=8:plies=3:halving=0:ties=1:endgame=4:replies=2",
            ),
            (
                "seer:ltrade=1:infer=0.5:cut=1:own=3",
                "seer:infer=0.5:cut=1:own=3:ltrade=1",
            ),
            (
                "montecarlo:worlds=8:candidates=4",
                "montecarlo:candidates=4:worlds=8",
            ),
            ("sage:threat=0.5:risk=3", "sage:risk=3:threat=0.5"),
            ("sage:candidates=12:ties=0", "sage"),
            ("seer:trades=0:halving=0", "seer:trades=0:halving=0"),
        ] {
            let built = r.build(spec).map(|a| a.name());
            assert_eq!(built.as_deref().ok(), Some(name), "{spec}");
            // A name is a spec that builds the same seat.
            let again = r.build(name).map(|a| a.name());
            assert_eq!(again.as_deref().ok(), Some(name), "{name}");
        }
    }

    #[test]
    fn sage_builds_and_bad_values_are_refused() {
        let r = registry();
        for good in [
            "sage",
            "sage:nodes=16",
            "sage:time=1s",
            "sage:candidates=8:plies=3:worlds=8:trades=0:infer=0:floor=1:tries=1:halving=0:leave=0:endgame=0:width=1",
            "sage:endgame=8:width=100:leave=100",
            "sage:win=0.5",
            "sage:win=1000",
            "sage:risk=3",
            "sage:risk=100",
            "sage:threat=0.5",
            "sage:threat=100",
            "sage:exclude=0",
            "sage:exclude=1",
            "seer:exclude=1",
            "sage:track=0",
            "sage:track=4096",
            "seer:track=64",
            "sage:guard=0",
            "sage:guard=4",
            "sage:guard=100",
            "seer:guard=2",
            "sage:lleave=1",
            "sage:lleave=0.5:ltail=1",
            "sage:lleave=100:guard=4",
            "seer:lleave=1:ltail=1",
            "sage:finish=0",
            "sage:finish=108",
            "seer:finish=20",
            "sage:early=0.5",
            "sage:early=1",
            "sage:cut=1",
            "seer:cut=0",
            "seer:early=0.25:plies=5",
            "sage:own=0",
            "sage:own=4",
            "sage:own=100",
            "seer:own=2",
            "sage:own=1:guard=4",
            "sage:ltrade=1",
            "seer:ltrade=0",
            "sage:ties=1",
            "seer:ties=0",
            "sage:lcand=4",
            "sage:lcand=100",
            "seer:lcand=0",
            "sage:replies=0",
            "sage:replies=1:endnodes=1",
            "sage:replies=100:endnodes=100000",
        ] {
            assert!(r.build(good).is_ok(), "{good}");
        }
        for bad in [
            "sage:nodes=100001",
            "sage:leave=-1",
            "sage:leave=101",
            "sage:win=-1",
            "sage:win=1001",
            "sage:win=many",
            "sage:risk=-1",
            "sage:risk=101",
            "sage:risk=high",
            "seer:risk=3",
            "sage:threat=-1",
            "sage:threat=101",
            "seer:threat=1",
            "sage:exclude=2",
            "sage:exclude=yes",
            "seer:exclude=-1",
            "sage:track=4097",
            "sage:track=-1",
            "seer:track=some",
            "sage:guard=101",
            "sage:guard=-1",
            "seer:guard=few",
            "sage:lleave=-1",
            "sage:lleave=101",
            "sage:lleave=some",
            "sage:ltail=1",
            "sage:lleave=0:ltail=1",
            "sage:lleave=1:ltail=2",
            "sage:finish=109",
            "sage:finish=-1",
            "seer:finish=late",
            "sage:early=1.5",
            "sage:early=-0.5",
            "seer:early=half",
            "sage:cut=2",
            "seer:cut=yes",
            "sage:own=101",
            "sage:ltrade=2",
            "seer:ltrade=yes",
            "sage:ties=2",
            "seer:ties=yes",
            "sage:lcand=101",
            "sage:lcand=-1",
            "seer:lcand=some",
            "sage:own=-1",
            "seer:own=some",
            "sage:own=4:guard=4",
            "sage:own=4:lleave=1",
            "seer:own=2:early=0.5",
            "sage:endgame=9",
            "sage:depth=3",
            "sage:width=0",
            "sage:width=101",
            "sage:replies=101",
            "sage:replies=-1",
            "sage:endnodes=0",
            "sage:endnodes=100001",
            "sage:endnodes=lots",
            "seer:replies=1",
            "sage:candidates=0",
            "sage:horizon=3",
            "seer:leave=1",
            "seer:win=10",
            "seer:depth=3",
        ] {
            assert!(r.build(bad).is_err(), "{bad} must be refused");
        }
        let names: Vec<String> = [
            "sage",
            "sage:leave=0.5:endgame=2",
            "sage:candidates=12",
            "sage:win=30",
            "sage:risk=2.5",
            "sage:risk=0",
            "sage:exclude=1",
            "seer:exclude=1",
            "seer:exclude=0",
            "sage:track=256",
            "seer:track=0",
            "sage:guard=4",
            "sage:guard=0",
            "seer:guard=3",
            "sage:lleave=1:ltail=1",
            "sage:lleave=0:ltail=0",
            "sage:finish=20",
            "seer:finish=0",
            "sage:early=0.5",
            "sage:early=0",
            "sage:own=4",
            "seer:own=0",
            "sage:ltrade=1",
            "sage:lcand=4",
            "seer:lcand=0",
            "sage:ties=1",
            "sage:replies=1:endnodes=1024:endgame=6",
            "sage:replies=0:endnodes=64:endgame=3",
        ]
        .iter()
        .map(|s| r.build(s).map(|a| a.name()).unwrap_or_default())
        .collect();
        assert_eq!(
            names,
            [
                "sage",
                "sage:leave=0.5:endgame=2",
                "sage",
                "sage:win=30",
                "sage:risk=2.5",
                "sage",
                "sage:exclude=1",
                "seer:exclude=1",
                "seer",
                "sage:track=256",
                "seer",
                "sage:guard=4",
                "sage",
                "seer:guard=3",
                "sage:lleave=1:ltail=1",
                "sage",
                "sage:finish=20",
                "seer",
                "sage:early=0.5",
                "sage",
                "sage:own=4",
                "seer",
                "sage:ltrade=1",
                "sage:lcand=4",
                "seer",
                "sage:ties=1",
                "sage",
                "sage:endgame=3:replies=0:endnodes=64"
            ]
        );
        // Without a budget the seat plays `worlds` worlds, a node budget: reproducible.
        let plan = r.parse("sage:worlds=5").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(plan.budget().nodes, Some(5));
    }

    /// Plays `spec` (through the registry, with its plan's budget) against `points` from
    /// `seed`: the complete game's record.
    fn record_against_points(
        spec: &str,
        seed: u64,
    ) -> tessera_core::GameRecord<<Qwirkle as Game>::Chance> {
        let start = Qwirkle::new(2).unwrap_or_else(|e| panic!("{e}"));
        super::super::record_against(&registry(), spec, "points", start, seed)
    }

    /// Plays `spec` against `points` from `seed` twice and asserts the two records are the
    /// same complete game.
    fn assert_replays_against_points(spec: &str, seed: u64) {
        assert_eq!(
            record_against_points(spec, seed),
            record_against_points(spec, seed),
            "{spec}"
        );
    }

    /// Asserts that `sage` with `on` replays the same game at a node budget from `seed`,
    /// plays another game than the default's from seed 95, and that with `off` it plays
    /// the default's.
    fn assert_setting_changes_the_game(on: &str, off: &str, seed: u64) {
        assert_replays_against_points(&format!("sage:nodes=2:{on}"), seed);
        let events = |spec: String| record_against_points(&spec, 95).events;
        let default = events("sage:nodes=4".into());
        assert_ne!(events(format!("sage:nodes=4:{on}")), default, "{on}");
        assert_eq!(events(format!("sage:nodes=4:{off}")), default, "{off}");
    }

    #[test]
    fn sage_with_a_node_budget_replays_the_same_game() {
        assert_replays_against_points("sage:nodes=2", 98);
        assert_replays_against_points("sage:nodes=2:track=64", 97);
        // The guard changes the play-outs, so the game; guard=1 is the greedy policy, the
        // same game under another name.
        assert_setting_changes_the_game("guard=4", "guard=1", 96);
        let events = |spec: &str| record_against_points(spec, 95).events;
        // The learned leave on the bot's own play-out turns changes the game too, and its
        // tail changes it again; reproducible at a node budget.
        assert_replays_against_points("sage:nodes=2:lleave=1:ltail=1", 93);
        assert_ne!(events("sage:nodes=4:lleave=1"), events("sage:nodes=4"));
        assert_ne!(
            events("sage:nodes=4:lleave=1:ltail=1"),
            events("sage:nodes=4:lleave=1")
        );
        // Play-outs to the end late in the game change the game (seed 95: some decision
        // with 1-40 tiles in the bag differs), reproducibly; finish=0 is the default.
        assert_setting_changes_the_game("finish=40", "finish=0", 92);
        // Mixing in the value a turn before the horizon changes the game; reproducible.
        assert_setting_changes_the_game("early=0.5", "early=0", 91);
        // Play-outs cut at the horizon when the bag runs out change the game; reproducible.
        assert_setting_changes_the_game("cut=1", "cut=0", 90);
        // The searched own turn in the play-outs changes the game; reproducible; own=1 is
        // the greedy turn, the default's game.
        assert_setting_changes_the_game("own=4", "own=1", 89);
        // The learned trade among the candidates changes the game; reproducible; without
        // trades it adds nothing.
        assert_replays_against_points("sage:nodes=2:ltrade=1", 88);
        assert_ne!(events("sage:nodes=4:ltrade=1"), events("sage:nodes=4"));
        assert_eq!(
            events("sage:nodes=4:ltrade=1:trades=0"),
            events("sage:nodes=4:trades=0")
        );
        // Candidates by points plus learned leave change the game; reproducible; lcand=0 is
        // the default.
        assert_setting_changes_the_game("lcand=4", "lcand=0", 87);
        // Ties broken at random in the play-outs change the game; reproducible; ties=0 is
        // the default.
        assert_setting_changes_the_game("ties=1", "ties=0", 86);
        // The threats at the play-outs' ends change the game; reproducible; threat=0 is the
        // default.
        assert_setting_changes_the_game("threat=1", "threat=0", 85);
        // The endgame's replies: 0 is as many as the width (8); the default is one, the
        // other player's highest-scoring placement, six turns deep in 1024 nodes a world.
        assert_replays_against_points("sage:nodes=2:replies=3:endnodes=512", 94);
        assert_eq!(
            events("sage:nodes=4:replies=0:endgame=3:endnodes=64"),
            events("sage:nodes=4:replies=8:endgame=3:endnodes=64")
        );
        assert_eq!(
            events("sage:nodes=4:replies=1:endgame=6:endnodes=1024"),
            events("sage:nodes=4")
        );
        assert_ne!(
            events("sage:nodes=4:replies=8:endgame=3:endnodes=64"),
            events("sage:nodes=4")
        );
    }

    #[test]
    fn seer_with_a_node_budget_replays_the_same_game() {
        assert_replays_against_points("seer:nodes=3", 99);
    }
}
