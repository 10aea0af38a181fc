//! Qwirkle in the browser. Hands are private: a seat's view holds its own hand only, the
//! spectator view none, and a trade is shown to others as a count, never as the tiles.

use serde_json::{Value, json};
use tessera_arena::ArenaGame;
use tessera_core::{Game, GameRng, PlayerId};
use tessera_qwirkle::{Move, Qwirkle};

use crate::game::{SetupError, WebGame, no_options};

impl WebGame for Qwirkle {
    fn setup(players: usize, options: &Value, rng: &mut GameRng) -> Result<Self, SetupError> {
        no_options::<Self>(options)?;
        Ok(<Qwirkle as ArenaGame>::new_game(players, rng))
    }

    fn view_json(&self, seat: Option<PlayerId>) -> Value {
        let v = self.view(seat.unwrap_or(PlayerId(0)));
        let tiles: Vec<Value> = v
            .board
            .tiles()
            .map(|t| json!({ "x": t.x, "y": t.y, "tile": t.tile.to_string() }))
            .collect();
        let (hand, set_aside) = match seat {
            Some(_) => (
                v.hand.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
                v.set_aside
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        json!({
            "players": v.players,
            "seat": seat.map(|p| p.0),
            "mover": self.current_player().map(|p| p.0),
            "phase": v.phase,
            "first_move_size": v.first_move_size,
            "end": v.end,
            "scores": v.scores,
            "tiles": tiles,
            "bounds": v.board.bounds(),
            "hand": hand,
            "hand_sizes": v.hand_sizes,
            "bag_size": v.bag_size,
            "set_aside": set_aside,
            "set_aside_count": v.set_aside_count,
        })
    }

    fn action_json(&self, a: &Move) -> Value {
        match a {
            Move::Place(p) => json!({
                "type": "place",
                "cells": p.cells().iter().map(|c| json!({ "x": c.x, "y": c.y, "tile": c.tile.to_string() })).collect::<Vec<_>>(),
                "points": self.placement_score(p),
            }),
            Move::Trade(t) => json!({ "type": "trade", "count": t.tiles().len() }),
            Move::Pass => json!({ "type": "pass" }),
        }
    }

    fn explain(&self, _p: PlayerId, a: &Move) -> Value {
        match a {
            Move::Place(pl) => {
                let pts = self.placement_score(pl);
                json!({ "points": pts, "why": format!("scores {pts} points now") })
            }
            Move::Trade(t) => json!({
                "points": 0,
                "why": format!("trades {} tiles for new ones", t.tiles().len()),
            }),
            Move::Pass => json!({ "points": 0, "why": "nothing can be placed or traded" }),
        }
    }

    fn public_action(&self, a: &Move) -> String {
        match a {
            Move::Trade(t) => format!("trade {} tiles", t.tiles().len()),
            other => other.to_string(),
        }
    }
}
