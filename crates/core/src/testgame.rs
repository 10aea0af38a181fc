//! A tiny game that exercises the whole contract (chance, 2-4 players, notation, views), for
//! testing generic code such as searches, the conformance kit and the arena without a real
//! game.
//!
//! Nim with a random deal: chance first deals 2 or 3 piles of 1-5 stones; players in turn take
//! 1-3 stones from one pile; whoever takes the last stone wins. A player's score is the number
//! of stones they took.
//!
//! State notation: `PLAYERS MOVER PILES TAKEN`, e.g. `2 1 3,4 0,0` (two players, player 1 to
//! move, piles of 3 and 4, nothing taken yet); `PILES` is `?` before the deal. Action
//! notation: `PILE:COUNT` with the pile counted from 1, e.g. `2:3`.

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::game::{Game, GameInfo, Outcome, Turn};
use crate::player::{MAX_PLAYERS, PerPlayer, PlayerId};
use crate::rng::GameRng;

/// A Nim state.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Nim {
    players: u8,
    mover: PlayerId,
    piles: Option<Vec<u8>>,
    taken: Vec<i32>,
}

/// A Nim move: take `count` stones from pile `pile` (both from 0 internally).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Take {
    /// Pile index from 0.
    pub pile: u8,
    /// Stones taken, 1-3.
    pub count: u8,
}

/// Errors of the Nim test game.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NimError {
    /// Text that is not a Nim state or move.
    #[error("malformed {field}: {detail}")]
    Parse {
        /// Which part of the text.
        field: &'static str,
        /// What is wrong.
        detail: String,
    },
    /// A move that is not legal here.
    #[error("illegal move {0}")]
    Illegal(String),
    /// A deal that is not possible here.
    #[error("impossible deal: {0}")]
    Deal(String),
}

fn perr(field: &'static str, detail: impl Into<String>) -> NimError {
    NimError::Parse {
        field,
        detail: detail.into(),
    }
}

impl Nim {
    /// A new game waiting for its deal.
    pub fn new(players: usize) -> Self {
        assert!((1..=MAX_PLAYERS).contains(&players));
        Nim {
            players: players as u8,
            mover: PlayerId(0),
            piles: None,
            taken: vec![0; players],
        }
    }

    fn last_mover(&self) -> PlayerId {
        PlayerId(
            ((self.mover.0 as usize + self.players as usize - 1) % self.players as usize) as u8,
        )
    }
}

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.pile + 1, self.count)
    }
}

impl FromStr for Take {
    type Err = NimError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (p, c) = s
            .trim()
            .split_once(':')
            .ok_or_else(|| perr("move", "expected PILE:COUNT"))?;
        let pile: u8 = p
            .parse()
            .map_err(|_| perr("pile", format!("'{p}' is not a number")))?;
        let count: u8 = c
            .parse()
            .map_err(|_| perr("count", format!("'{c}' is not a number")))?;
        if pile == 0 || !(1..=3).contains(&count) {
            return Err(perr("move", "pile counts from 1 and count is 1-3"));
        }
        Ok(Take {
            pile: pile - 1,
            count,
        })
    }
}

fn join(v: &[impl ToString]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let piles = self.piles.as_deref().map_or_else(|| "?".to_string(), join);
        write!(
            f,
            "{} {} {} {}",
            self.players,
            self.mover.0 + 1,
            piles,
            join(&self.taken)
        )
    }
}

impl FromStr for Nim {
    type Err = NimError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split_whitespace().collect();
        if parts.len() != 4 {
            return Err(perr("state", "expected PLAYERS MOVER PILES TAKEN"));
        }
        let players: u8 = parts[0]
            .parse()
            .map_err(|_| perr("players", "not a number"))?;
        if !(1..=MAX_PLAYERS as u8).contains(&players) {
            return Err(perr("players", "must be 1-4"));
        }
        let mover: u8 = parts[1]
            .parse()
            .map_err(|_| perr("mover", "not a number"))?;
        if mover == 0 || mover > players {
            return Err(perr("mover", "must be a seat from 1"));
        }
        let piles = if parts[2] == "?" {
            None
        } else {
            Some(
                parts[2]
                    .split(',')
                    .map(|x| x.parse::<u8>().map_err(|_| perr("piles", format!("'{x}'"))))
                    .collect::<Result<Vec<_>, _>>()?,
            )
        };
        let taken = parts[3]
            .split(',')
            .map(|x| {
                x.parse::<i32>()
                    .map_err(|_| perr("taken", format!("'{x}'")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if taken.len() != players as usize {
            return Err(perr("taken", "one count per player"));
        }
        Ok(Nim {
            players,
            mover: PlayerId(mover - 1),
            piles,
            taken,
        })
    }
}

impl Game for Nim {
    type Action = Take;
    type Chance = Vec<u8>;
    type View = Nim;
    type ActionError = NimError;
    type ChanceError = NimError;
    type ParseError = NimError;
    type ActionParseError = NimError;
    const INFO: GameInfo = GameInfo {
        name: "nim",
        title: "Nim (test game)",
        min_players: 2,
        max_players: 4,
        chance: true,
        hidden_info: false,
    };

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn turn(&self) -> Turn {
        match &self.piles {
            None => Turn::Chance,
            Some(p) if p.iter().all(|&x| x == 0) => Turn::Terminal,
            Some(_) => Turn::Player(self.mover),
        }
    }

    fn legal_actions(&self, out: &mut Vec<Take>) {
        out.clear();
        if let (Turn::Player(_), Some(piles)) = (self.turn(), &self.piles) {
            for (i, &n) in piles.iter().enumerate() {
                for c in 1..=n.min(3) {
                    out.push(Take {
                        pile: i as u8,
                        count: c,
                    });
                }
            }
        }
    }

    fn apply(&mut self, a: Take) {
        debug_assert!(self.try_apply_check(a).is_ok());
        if let Some(piles) = &mut self.piles {
            piles[a.pile as usize] -= a.count;
        }
        self.taken[self.mover.index()] += a.count as i32;
        self.mover = self.mover.next(self.players as usize);
    }

    fn try_apply(&mut self, a: Take) -> Result<(), NimError> {
        self.try_apply_check(a)?;
        self.apply(a);
        Ok(())
    }

    fn sample_chance(&self, rng: &mut GameRng) -> Vec<u8> {
        let n = rng.random_range(2..=3);
        (0..n).map(|_| rng.random_range(1..=5)).collect()
    }

    fn apply_chance(&mut self, outcome: &Vec<u8>) -> Result<(), NimError> {
        if self.piles.is_some() {
            return Err(NimError::Deal("already dealt".into()));
        }
        if !(2..=3).contains(&outcome.len()) || outcome.iter().any(|&x| !(1..=5).contains(&x)) {
            return Err(NimError::Deal(format!("{outcome:?}")));
        }
        self.piles = Some(outcome.clone());
        Ok(())
    }

    fn scores(&self) -> PerPlayer<i32> {
        self.taken.iter().copied().collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.turn() == Turn::Terminal).then(|| Outcome {
            scores: self.scores(),
            winners: vec![self.last_mover()],
        })
    }

    fn view(&self, _player: PlayerId) -> Nim {
        self.clone()
    }

    fn check_invariants(&self) -> Result<(), String> {
        if let Some(p) = &self.piles {
            let left: i32 = p.iter().map(|&x| x as i32).sum();
            let taken: i32 = self.taken.iter().sum();
            if left + taken > 15 {
                return Err(format!(
                    "{left} left + {taken} taken is more than 3 piles of 5"
                ));
            }
        }
        Ok(())
    }
}

impl Nim {
    fn try_apply_check(&self, a: Take) -> Result<(), NimError> {
        match (&self.piles, self.turn()) {
            (Some(p), Turn::Player(_))
                if (a.pile as usize) < p.len()
                    && (1..=3).contains(&a.count)
                    && a.count <= p[a.pile as usize] =>
            {
                Ok(())
            }
            _ => Err(NimError::Illegal(a.to_string())),
        }
    }
}
