//! Azul in the browser: the JSON the page draws, built from the engine's public accessors
//! (the wall pattern and floor penalties come from the engine too: the page holds no rule).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;
use tessera_azul::scoring::{FLOOR_PENALTIES, WALL_SIZE, floor_penalty, wall_colour};
use tessera_azul::{AzulAction, AzulState, Colour, Dest, Phase, Source, Tiles};
use tessera_core::{Game, GameRng, PlayerId};

use crate::answers::to_value;
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

/// Tiles per colour letter (the bag, the lid).
fn counts(t: &Tiles) -> BTreeMap<String, u8> {
    Colour::ALL
        .iter()
        .map(|c| (c.letter().to_string(), t[*c]))
        .collect()
}

/// One pattern line as the page draws it.
#[derive(Debug, Serialize)]
struct LineView {
    /// The colour letter it holds (`None`: empty).
    colour: Option<String>,
    count: u8,
    capacity: usize,
}

/// One player's board.
#[derive(Debug, Serialize)]
struct BoardView {
    score: i32,
    lines: Vec<LineView>,
    /// `wall[row][col]`: a tile there.
    wall: Vec<Vec<bool>>,
    /// The floor's tiles as colour letters.
    floor: Vec<String>,
    /// Holds the first-player token.
    token: bool,
    floor_penalty: i32,
}

/// The whole table (Azul hides nothing: every seat sees the same).
#[derive(Debug, Serialize)]
struct AzulView {
    players: usize,
    round: u32,
    phase: Phase,
    mover: Option<u8>,
    start: u8,
    factories: Vec<Vec<String>>,
    centre: Vec<String>,
    token_in_centre: bool,
    bag: BTreeMap<String, u8>,
    lid: BTreeMap<String, u8>,
    boards: Vec<BoardView>,
    /// Each wall row's colour letters.
    wall_pattern: Vec<String>,
    floor_penalties: [i32; 7],
    notation: String,
}

/// A factory's index or the centre's `"C"`; a pattern line's index or the floor's `"F"`.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Place {
    Letter(&'static str),
    Index(u8),
}

/// What a move changes at the round's end, shown before it is committed.
#[derive(Debug, Serialize)]
struct Preview {
    /// The line's wall points.
    points: i32,
    /// The floor's penalty (zero or negative).
    floor: i32,
}

/// A move as the page shows it.
#[derive(Debug, Serialize)]
struct ActionView {
    source: Place,
    colour: String,
    dest: Place,
    /// Tiles of the colour the source holds.
    count: u8,
    preview: Option<Preview>,
}

/// Why a move is worth what it is.
#[derive(Debug, Serialize)]
struct Explanation {
    points: i32,
    why: String,
}

/// A tile moved to the wall at the round's end.
#[derive(Debug, Serialize)]
struct PlacementView {
    row: u8,
    col: u8,
    colour: String,
    points: u32,
}

/// One board's round-end scoring.
#[derive(Debug, Serialize)]
struct BoardRoundView {
    placements: Vec<PlacementView>,
    floor_penalty: i32,
    score_before: i32,
    score_after_round: i32,
    bonus: u32,
}

/// The round's end, when a move ends it.
#[derive(Debug, Serialize)]
struct RoundView {
    round: u32,
    boards: Vec<BoardRoundView>,
    next_start: u8,
    game_over: bool,
}

/// What `a` adds to player `p`'s floor penalty (counted from the move, not from the state
/// after it: the round's last move clears the floor as it tiles the walls).
fn floor_cost(s: &AzulState, p: PlayerId, a: &AzulAction) -> i32 {
    let b = s.board(p);
    let taken = u32::from(match a.source {
        Source::Centre => s.centre()[a.colour],
        Source::Factory(i) => s.factories().get(i as usize).map_or(0, |f| f[a.colour]),
    });
    let overflow = match a.dest {
        Dest::Floor => taken,
        Dest::Line(r) => {
            let held = b.pattern_line(r as usize).map_or(0, |(_, n)| n as u32);
            taken.saturating_sub((r as u32 + 1).saturating_sub(held))
        }
    };
    let token = u32::from(a.source == Source::Centre && s.token_in_centre());
    let before = b.floor_len();
    floor_penalty(before + (overflow + token) as usize) - floor_penalty(before)
}

impl WebGame for AzulState {
    fn setup(players: usize, options: &Value, rng: &mut GameRng) -> Result<Self, SetupError> {
        no_options::<Self>(options)?;
        Ok(AzulState::new_random(players, rng))
    }

    fn view_json(&self, _seat: Option<PlayerId>) -> Value {
        // Azul has no hidden information: the bag's contents are public (its order is not
        // part of the state), so every seat sees the same.
        let boards = self
            .boards()
            .iter()
            .map(|b| BoardView {
                score: b.score(),
                lines: (0..WALL_SIZE)
                    .map(|r| {
                        let (colour, count) = match b.pattern_line(r) {
                            Some((c, n)) => (Some(c.letter().to_string()), n),
                            None => (None, 0),
                        };
                        LineView {
                            colour,
                            count,
                            capacity: r + 1,
                        }
                    })
                    .collect(),
                wall: (0..WALL_SIZE)
                    .map(|r| (0..WALL_SIZE).map(|c| b.wall_has(r, c)).collect())
                    .collect(),
                floor: letters(&b.floor()),
                token: b.has_token(),
                floor_penalty: b.floor_penalty(),
            })
            .collect();
        to_value(&AzulView {
            players: self.num_players(),
            round: self.round(),
            phase: self.phase(),
            mover: self.current_player().map(|p| p.0),
            start: self.starting_player().0,
            factories: self.factories().iter().map(letters).collect(),
            centre: letters(&self.centre()),
            token_in_centre: self.token_in_centre(),
            bag: counts(&self.bag()),
            lid: counts(&self.lid()),
            boards,
            wall_pattern: (0..WALL_SIZE)
                .map(|r| (0..WALL_SIZE).map(|c| wall_colour(r, c).letter()).collect())
                .collect(),
            floor_penalties: FLOOR_PENALTIES,
            notation: self.to_string(),
        })
    }

    fn action_json(&self, a: &AzulAction) -> Value {
        // The score preview a player sees before committing the move: what it changes at
        // the round's end (the line's wall points, the floor's penalty).
        let preview = self.current_player().and_then(|p| {
            let mut after = self.clone();
            after.try_apply(*a).ok().map(|()| Preview {
                points: after.projected_score(p) - self.projected_score(p),
                floor: -floor_cost(self, p, a),
            })
        });
        to_value(&ActionView {
            source: match a.source {
                Source::Centre => Place::Letter("C"),
                Source::Factory(i) => Place::Index(i),
            },
            colour: a.colour.letter().to_string(),
            dest: match a.dest {
                Dest::Floor => Place::Letter("F"),
                Dest::Line(l) => Place::Index(l),
            },
            count: match a.source {
                Source::Centre => self.centre()[a.colour],
                Source::Factory(i) => self.factories().get(i as usize).map_or(0, |f| f[a.colour]),
            },
            preview,
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
        to_value(&Explanation {
            points: to - from,
            why,
        })
    }

    fn step_report(&self, a: &AzulAction) -> Value {
        let mut s = self.clone();
        if s.check_action(*a).is_err() {
            return Value::Null;
        }
        match s.apply_reporting(*a) {
            Some(r) => to_value(&RoundView {
                round: r.round,
                boards: r
                    .boards
                    .iter()
                    .map(|b| BoardRoundView {
                        placements: b
                            .placements
                            .iter()
                            .map(|&(row, col, c, points)| PlacementView {
                                row,
                                col,
                                colour: c.letter().to_string(),
                                points,
                            })
                            .collect(),
                        floor_penalty: b.floor_penalty,
                        score_before: b.score_before,
                        score_after_round: b.score_after_round,
                        bonus: b.bonus,
                    })
                    .collect(),
                next_start: r.next_start.0,
                game_over: r.game_over,
            }),
            None => Value::Null,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_core::rng::seeded;

    /// A factory and a colour it holds, with the count, in a fresh two-player deal.
    fn first_pick(s: &AzulState) -> (u8, Colour, u32) {
        for (i, f) in s.factories().iter().enumerate() {
            for c in Colour::ALL {
                if f[c] >= 2 {
                    return (i as u8, c, u32::from(f[c]));
                }
            }
        }
        panic!("no factory holds two tiles of a colour")
    }

    #[test]
    fn the_preview_gives_the_lines_wall_points_and_the_floors_penalty() {
        let mut rng = seeded(7);
        let mut s = AzulState::new_random(2, &mut rng);
        let deal = s.sample_chance(&mut rng);
        s.apply_chance(&deal).expect("the first deal");
        let (f, colour, n) = first_pick(&s);
        // Line n holds exactly the n tiles: one wall point at the round's end, no floor.
        let a = AzulAction {
            source: Source::Factory(f),
            colour,
            dest: Dest::Line(n as u8 - 1),
        };
        let p = &s.action_json(&a)["preview"];
        assert_eq!(
            (p["points"].as_i64(), p["floor"].as_i64()),
            (Some(1), Some(0)),
            "{p}"
        );
        // Line 1 holds one: the rest fall to the floor (and a score of 0 cannot go lower).
        let a = AzulAction {
            source: Source::Factory(f),
            colour,
            dest: Dest::Line(0),
        };
        let p = &s.action_json(&a)["preview"];
        assert_eq!(p["floor"], -floor_penalty(n as usize - 1), "{p}");
        assert_eq!(p["points"], 0, "{p}");
        // All to the floor: the penalty, but a score of 0 cannot go lower.
        let a = AzulAction {
            source: Source::Factory(f),
            colour,
            dest: Dest::Floor,
        };
        let p = &s.action_json(&a)["preview"];
        assert_eq!(p["floor"], -floor_penalty(n as usize), "{p}");
        assert_eq!(p["points"], 0, "{p}");
        // The preview's points are the move log's (the explanation's).
        assert_eq!(p["points"], s.explain(PlayerId(0), &a)["points"]);
    }
}
