//! Azul in the browser: the JSON the page draws, built from the engine's public accessors
//! (the wall pattern and floor penalties come from the engine too: the page holds no rule).

use serde_json::{Value, json};
use tessera_azul::scoring::{FLOOR_PENALTIES, WALL_SIZE, wall_colour};
use tessera_azul::{AzulAction, AzulState, Colour, Dest, Source, Tiles};
use tessera_core::{Game, GameRng, PlayerId};

use crate::game::{SetupError, WebGame, no_options};

fn letters(t: &Tiles) -> Vec<String> {
    let mut v = Vec::new();
    for c in Colour::ALL {
        for _ in 0..t[c] {
            v.push(c.letter().to_string());
        }
    }
    v
}

fn counts(t: &Tiles) -> Value {
    Colour::ALL
        .iter()
        .map(|c| (c.letter().to_string(), json!(t[*c])))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

impl WebGame for AzulState {
    fn setup(players: usize, options: &Value, rng: &mut GameRng) -> Result<Self, SetupError> {
        no_options::<Self>(options)?;
        Ok(AzulState::new_random(players, rng))
    }

    fn view_json(&self, _seat: Option<PlayerId>) -> Value {
        // Azul has no hidden information: the bag's contents are public (its order is not
        // part of the state), so every seat sees the same.
        let mover = self.current_player().map(|p| p.0);
        let boards: Vec<Value> = self
            .boards()
            .iter()
            .map(|b| {
                let lines: Vec<Value> = (0..WALL_SIZE)
                    .map(|r| match b.pattern_line(r) {
                        Some((c, n)) => {
                            json!({ "colour": c.letter().to_string(), "count": n, "capacity": r + 1 })
                        }
                        None => json!({ "colour": null, "count": 0, "capacity": r + 1 }),
                    })
                    .collect();
                let wall: Vec<Vec<bool>> = (0..WALL_SIZE)
                    .map(|r| (0..WALL_SIZE).map(|c| b.wall_has(r, c)).collect())
                    .collect();
                json!({
                    "score": b.score(),
                    "lines": lines,
                    "wall": wall,
                    "floor": letters(&b.floor()),
                    "token": b.has_token(),
                    "floor_penalty": b.floor_penalty(),
                })
            })
            .collect();
        let wall_pattern: Vec<String> = (0..WALL_SIZE)
            .map(|r| (0..WALL_SIZE).map(|c| wall_colour(r, c).letter()).collect())
            .collect();
        json!({
            "players": self.num_players(),
            "round": self.round(),
            "phase": self.phase(),
            "mover": mover,
            "start": self.starting_player().0,
            "factories": self.factories().iter().map(letters).collect::<Vec<_>>(),
            "centre": letters(&self.centre()),
            "token_in_centre": self.token_in_centre(),
            "bag": counts(&self.bag()),
            "lid": counts(&self.lid()),
            "boards": boards,
            "wall_pattern": wall_pattern,
            "floor_penalties": FLOOR_PENALTIES,
            "notation": self.to_string(),
        })
    }

    fn action_json(&self, a: &AzulAction) -> Value {
        json!({
            "source": match a.source { Source::Centre => json!("C"), Source::Factory(i) => json!(i) },
            "colour": a.colour.letter().to_string(),
            "dest": match a.dest { Dest::Floor => json!("F"), Dest::Line(l) => json!(l) },
            "count": match a.source {
                Source::Centre => self.centre()[a.colour],
                Source::Factory(i) => self.factories().get(i as usize).map_or(0, |f| f[a.colour]),
            },
        })
    }

    fn explain(&self, p: PlayerId, a: &AzulAction) -> Value {
        let mut after = self.clone();
        if after.try_apply(*a).is_err() {
            return Value::Null;
        }
        // Points come at the round's wall tiling: compare the score the board would have if
        // the round ended now, before and after the move.
        let (from, to) = (self.projected_score(p), after.projected_score(p));
        let floor = after.board(p).floor_penalty() - self.board(p).floor_penalty();
        let mut why = format!("projected score if the round ended now: {from} → {to}");
        if floor != 0 {
            why += &format!(" (the floor costs {} more)", floor.abs());
        }
        json!({ "points": to - from, "why": why })
    }

    fn step_report(&self, a: &AzulAction) -> Value {
        let mut s = self.clone();
        if s.check_action(*a).is_err() {
            return Value::Null;
        }
        match s.apply_reporting(*a) {
            Some(r) => {
                let boards: Vec<Value> = r
                    .boards
                    .iter()
                    .map(|b| {
                        json!({
                            "placements": b.placements.iter().map(|(row, col, c, pts)| json!({
                                "row": row, "col": col, "colour": c.letter().to_string(), "points": pts
                            })).collect::<Vec<_>>(),
                            "floor_penalty": b.floor_penalty,
                            "score_before": b.score_before,
                            "score_after_round": b.score_after_round,
                            "bonus": b.bonus,
                        })
                    })
                    .collect();
                json!({ "round": r.round, "boards": boards, "next_start": r.next_start.0, "game_over": r.game_over })
            }
            None => Value::Null,
        }
    }
}
