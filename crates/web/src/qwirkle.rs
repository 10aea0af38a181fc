//! Qwirkle in the browser. Hands are private: a seat's view holds its own hand only, the
//! spectator view none, and a trade is shown to others as a count, never as the tiles.

use serde::Serialize;
use serde_json::Value;
use tessera_arena::ArenaGame;
use tessera_core::{Game, GameRng, PlayerId};
use tessera_qwirkle::{End, Move, Phase, Qwirkle};

use crate::answers::to_value;
use crate::game::{SetupError, WebGame, no_options};

/// A tile on the board (or in a placement) as the page draws it.
#[derive(Debug, Serialize)]
struct CellView {
    x: i32,
    y: i32,
    /// The tile's notation.
    tile: String,
}

/// What a seat (or a spectator) sees of the table.
#[derive(Debug, Serialize)]
struct QwirkleTableView {
    players: u8,
    /// Whose view (`None`: a spectator's).
    seat: Option<u8>,
    mover: Option<u8>,
    phase: Phase,
    first_move_size: Option<u8>,
    end: Option<End>,
    scores: Vec<i32>,
    tiles: Vec<CellView>,
    /// `(min x, min y, max x, max y)` of the placed tiles.
    bounds: Option<(i32, i32, i32, i32)>,
    /// The seat's own hand (a spectator's is empty).
    hand: Vec<String>,
    hand_sizes: Vec<u8>,
    bag_size: u8,
    /// The seat's own traded tiles waiting to go back into the bag.
    set_aside: Vec<String>,
    set_aside_count: u8,
}

/// A move as the page shows it: a trade shows its count, never its tiles.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum MoveView {
    Place { cells: Vec<CellView>, points: i32 },
    Trade { count: usize },
    Pass,
}

/// Why a move is worth what it is.
#[derive(Debug, Serialize)]
struct Explanation {
    points: i32,
    why: String,
}

impl WebGame for Qwirkle {
    fn setup(players: usize, options: &Value, rng: &mut GameRng) -> Result<Self, SetupError> {
        no_options::<Self>(options)?;
        Ok(<Qwirkle as ArenaGame>::new_game(players, rng))
    }

    fn view_json(&self, seat: Option<PlayerId>) -> Value {
        let v = self.view(seat.unwrap_or(PlayerId(0)));
        let tiles = v
            .board
            .tiles()
            .map(|t| CellView {
                x: t.x,
                y: t.y,
                tile: t.tile.to_string(),
            })
            .collect();
        let (hand, set_aside) = match seat {
            Some(_) => (
                v.hand.iter().map(|t| t.to_string()).collect(),
                v.set_aside.iter().map(|t| t.to_string()).collect(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        to_value(&QwirkleTableView {
            players: v.players,
            seat: seat.map(|p| p.0),
            mover: self.current_player().map(|p| p.0),
            phase: v.phase,
            first_move_size: v.first_move_size,
            end: v.end,
            scores: v.scores,
            tiles,
            bounds: v.board.bounds(),
            hand,
            hand_sizes: v.hand_sizes,
            bag_size: v.bag_size,
            set_aside,
            set_aside_count: v.set_aside_count,
        })
    }

    fn action_json(&self, a: &Move) -> Value {
        to_value(&match a {
            Move::Place(p) => MoveView::Place {
                cells: p
                    .cells()
                    .iter()
                    .map(|c| CellView {
                        x: i32::from(c.x),
                        y: i32::from(c.y),
                        tile: c.tile.to_string(),
                    })
                    .collect(),
                points: self.placement_score(p),
            },
            Move::Trade(t) => MoveView::Trade {
                count: t.tiles().len(),
            },
            Move::Pass => MoveView::Pass,
        })
    }

    fn explain(&self, _p: PlayerId, a: &Move) -> Value {
        let (points, why) = match a {
            Move::Place(pl) => {
                let pts = self.placement_score(pl);
                (pts, format!("scores {pts} points now"))
            }
            Move::Trade(t) => (0, format!("trades {} tiles for new ones", t.tiles().len())),
            Move::Pass => (0, "nothing can be placed or traded".to_string()),
        };
        to_value(&Explanation { points, why })
    }

    fn public_action(&self, a: &Move) -> String {
        match a {
            Move::Trade(t) => format!("trade {} tiles", t.tiles().len()),
            other => other.to_string(),
        }
    }
}
