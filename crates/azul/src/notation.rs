//! State notation (FEN-like), its parser and validator, and the JSON form of a state.
//!
//! ```text
//! PLAYERS ROUND PHASE START MOVER FACTORIES CENTRE BAG LID BOARD...
//! ```
//! - `PLAYERS` 2-4; `ROUND` from 1; `PHASE` `deal` (waiting for the factory deal), `play`
//!   or `over`; `START` the seat that starts this round and `MOVER` the seat to move, both
//!   counted from 1.
//! - `FACTORIES`: `2 x PLAYERS + 1` tile strings joined by `/`, e.g. `BBYR/KKWW/-/...`
//!   (a tile string lists letters `B Y R K W` in colour order, `-` when empty).
//! - `CENTRE`: a tile string, led by `1` while the first-player token lies there.
//! - `BAG`, `LID`: five counts in colour order `B,Y,R,K,W`, e.g. `20,20,20,20,20`.
//! - one `BOARD` per seat: `SCORE:LINES:WALL:FLOOR`, where `LINES` is five entries joined by
//!   `,` (`-` or colour letter + count, e.g. `R3`), `WALL` five rows joined by `/` (a tiled
//!   cell shows its colour letter, an empty one `.`), `FLOOR` a tile string led by `1` when
//!   the player holds the token.
//!
//! ```
//! use tessera_azul::AzulState;
//! let text = "2 1 deal 1 1 -/-/-/-/- 1 20,20,20,20,20 0,0,0,0,0 \
//!     0:-,-,-,-,-:...../...../...../...../.....:- 0:-,-,-,-,-:...../...../...../...../.....:-";
//! let s: AzulState = text.parse().unwrap();
//! assert_eq!(s.to_string(), text);
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tessera_core::PlayerId;

use crate::colour::{Colour, NUM_COLOURS, Tiles};
use crate::scoring::{WALL_SIZE, cell_bit, wall_colour};
pub use crate::state::validate;
use crate::state::{AzulState, Board, MAX_PLAYERS, MIN_PLAYERS, Phase, num_factories};
pub use crate::state_error::StateParseError;
use crate::state_error::ferr;

fn counts_str(t: &Tiles) -> String {
    t.0.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn token_tiles(token: bool, t: &Tiles) -> String {
    match (token, t.is_empty()) {
        (false, _) => t.to_string(),
        (true, true) => "1".into(),
        (true, false) => format!("1{t}"),
    }
}

fn line_str(b: &Board, row: usize) -> String {
    match b.pattern_line(row) {
        None => "-".into(),
        Some((c, n)) => format!("{}{}", c.letter(), n),
    }
}

fn wall_row_str(wall: u32, row: usize) -> String {
    (0..WALL_SIZE)
        .map(|col| {
            if wall & cell_bit(row, col) != 0 {
                wall_colour(row, col).letter()
            } else {
                '.'
            }
        })
        .collect()
}

impl fmt::Display for AzulState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let phase = match self.phase {
            Phase::Deal => "deal",
            Phase::Draft => "play",
            Phase::Over => "over",
        };
        let factories: Vec<String> = self.factories().iter().map(|t| t.to_string()).collect();
        write!(
            f,
            "{} {} {} {} {} {} {} {} {}",
            self.players,
            self.round,
            phase,
            self.start + 1,
            self.mover + 1,
            factories.join("/"),
            token_tiles(self.token_in_centre, &self.centre),
            counts_str(&self.bag),
            counts_str(&self.lid),
        )?;
        for b in self.boards() {
            let lines: Vec<String> = (0..WALL_SIZE).map(|r| line_str(b, r)).collect();
            let wall: Vec<String> = (0..WALL_SIZE).map(|r| wall_row_str(b.wall, r)).collect();
            write!(
                f,
                " {}:{}:{}:{}",
                b.score,
                lines.join(","),
                wall.join("/"),
                token_tiles(b.token, &b.floor)
            )?;
        }
        Ok(())
    }
}

fn parse_num<T: FromStr>(field: &str, s: &str, expected: &str) -> Result<T, StateParseError> {
    s.parse()
        .map_err(|_| ferr(field, format!("'{s}' is not {expected}")))
}

fn parse_tiles(field: &str, s: &str) -> Result<Tiles, StateParseError> {
    if s.is_empty() {
        return Err(ferr(field, "empty: write '-' for no tiles"));
    }
    s.parse::<Tiles>().map_err(|e| ferr(field, e.to_string()))
}

fn parse_token_tiles(field: &str, s: &str) -> Result<(bool, Tiles), StateParseError> {
    match s.strip_prefix('1') {
        Some("") => Ok((true, Tiles::EMPTY)),
        Some(rest) => Ok((true, parse_tiles(field, rest)?)),
        None => Ok((false, parse_tiles(field, s)?)),
    }
}

fn parse_counts(field: &str, s: &str) -> Result<Tiles, StateParseError> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != NUM_COLOURS {
        return Err(ferr(
            field,
            format!(
                "'{s}' has {} counts, expected 5 (blue,yellow,red,black,white)",
                parts.len()
            ),
        ));
    }
    let mut t = Tiles::EMPTY;
    for (i, p) in parts.iter().enumerate() {
        let n: u8 = parse_num(field, p, "a tile count 0-20")?;
        if n > 20 {
            return Err(ferr(
                field,
                format!(
                    "{n} {} tiles: the game has 20",
                    Colour::from_index(i).name()
                ),
            ));
        }
        t.0[i] = n;
    }
    Ok(t)
}

fn parse_board(seat: usize, s: &str) -> Result<Board, StateParseError> {
    let who = format!("P{seat}");
    let parts: Vec<&str> = s.split(':').collect();
    if parts.len() != 4 {
        return Err(ferr(
            format!("{who} board"),
            format!(
                "'{s}' has {} parts, expected SCORE:LINES:WALL:FLOOR",
                parts.len()
            ),
        ));
    }
    let mut b = Board::default();
    let score: i16 = parse_num(&format!("{who} score"), parts[0], "a score 0-999")?;
    if !(0..=999).contains(&score) {
        return Err(ferr(
            format!("{who} score"),
            format!("{score} is outside 0-999 (a score never drops below 0)"),
        ));
    }
    b.score = score;
    let lines: Vec<&str> = parts[1].split(',').collect();
    if lines.len() != WALL_SIZE {
        return Err(ferr(
            format!("{who} pattern lines"),
            format!("'{}' has {} lines, expected 5", parts[1], lines.len()),
        ));
    }
    for (row, l) in lines.iter().enumerate() {
        let field = format!("{who} pattern line {}", row + 1);
        if *l == "-" {
            continue;
        }
        let mut chars = l.chars();
        let letter = chars
            .next()
            .ok_or_else(|| ferr(&field, "empty: write '-' or a colour and a count, e.g. R2"))?;
        let c = Colour::from_letter(letter).ok_or_else(|| {
            ferr(
                &field,
                format!("'{letter}' is not a colour (expected B, Y, R, K or W)"),
            )
        })?;
        let n: u8 = parse_num(&field, chars.as_str(), "a tile count")?;
        if n == 0 || n as usize > row + 1 {
            return Err(ferr(
                &field,
                format!("{n} tiles: line {} holds 1 to {} tiles", row + 1, row + 1),
            ));
        }
        b.line_colour[row] = c as u8;
        b.line_count[row] = n;
    }
    let rows: Vec<&str> = parts[2].split('/').collect();
    if rows.len() != WALL_SIZE {
        return Err(ferr(
            format!("{who} wall"),
            format!("'{}' has {} rows, expected 5", parts[2], rows.len()),
        ));
    }
    for (row, r) in rows.iter().enumerate() {
        let field = format!("{who} wall row {}", row + 1);
        let cells: Vec<char> = r.chars().collect();
        if cells.len() != WALL_SIZE {
            return Err(ferr(
                &field,
                format!("'{r}' has {} cells, expected 5", cells.len()),
            ));
        }
        for (col, &ch) in cells.iter().enumerate() {
            if ch == '.' {
                continue;
            }
            let expected = wall_colour(row, col);
            match Colour::from_letter(ch) {
                Some(c) if c == expected => b.wall |= cell_bit(row, col),
                Some(c) => {
                    return Err(ferr(
                        &field,
                        format!(
                            "column {} holds {}, not {} (the standard wall layout)",
                            col + 1,
                            expected.name(),
                            c.name()
                        ),
                    ));
                }
                None => {
                    return Err(ferr(
                        &field,
                        format!("'{ch}' is neither '.' nor a colour letter"),
                    ));
                }
            }
        }
    }
    let (token, floor) = parse_token_tiles(&format!("{who} floor"), parts[3])?;
    b.token = token;
    b.floor = floor;
    b.refresh_accept();
    Ok(b)
}

impl FromStr for AzulState {
    type Err = StateParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        if fields.is_empty() {
            return Err(StateParseError::FieldCount {
                expected: 11,
                found: 0,
            });
        }
        let players: usize = parse_num("players", fields[0], "a player count 2-4")?;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(ferr(
                "players",
                format!("{players}: Azul seats 2 to 4 players"),
            ));
        }
        if fields.len() != 9 + players {
            return Err(StateParseError::FieldCount {
                expected: 9 + players,
                found: fields.len(),
            });
        }
        let round: u16 = parse_num("round", fields[1], "a round number from 1")?;
        let phase = match fields[2] {
            "deal" => Phase::Deal,
            "play" => Phase::Draft,
            "over" => Phase::Over,
            other => {
                return Err(ferr(
                    "phase",
                    format!("'{other}': expected deal, play or over"),
                ));
            }
        };
        let seat = |field: &str, text: &str| -> Result<u8, StateParseError> {
            let n: usize = parse_num(field, text, "a seat number")?;
            if n == 0 || n > players {
                return Err(ferr(field, format!("{n}: seats are 1-{players}")));
            }
            Ok((n - 1) as u8)
        };
        let start = seat("start", fields[3])?;
        let mover = seat("mover", fields[4])?;
        let facs: Vec<&str> = fields[5].split('/').collect();
        let nf = num_factories(players);
        if facs.len() != nf {
            return Err(ferr(
                "factories",
                format!(
                    "{} factories given, a {players}-player game has {nf}",
                    facs.len()
                ),
            ));
        }
        let mut state = AzulState::new(players, PlayerId(start));
        state.round = round;
        state.phase = phase;
        state.mover = mover;
        for (i, f) in facs.iter().enumerate() {
            state.factories[i] = parse_tiles(&format!("factory {}", i + 1), f)?;
        }
        let (token, centre) = parse_token_tiles("centre", fields[6])?;
        state.token_in_centre = token;
        state.centre = centre;
        state.bag = parse_counts("bag", fields[7])?;
        state.lid = parse_counts("lid", fields[8])?;
        for p in 0..players {
            state.boards[p] = parse_board(p + 1, fields[9 + p])?;
        }
        validate(&state)?;
        Ok(state)
    }
}

/// One board in the JSON form of a state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardJson {
    /// Score.
    pub score: i16,
    /// Five pattern lines: `-` or colour letter + count (`R3`).
    pub lines: Vec<String>,
    /// Five wall rows: colour letters for tiled cells, `.` for empty ones.
    pub wall: Vec<String>,
    /// Tiles on the floor (the token not included).
    pub floor: Tiles,
    /// True when this player holds the first-player token.
    pub token: bool,
}

/// The JSON form of a state; fields mirror the text notation, seats count from 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateJson {
    /// Players, 2-4.
    pub players: u8,
    /// Round from 1.
    pub round: u16,
    /// Where the round stands.
    pub phase: Phase,
    /// The round's starting seat.
    pub start: PlayerId,
    /// The seat to move.
    pub mover: PlayerId,
    /// Each factory's tiles.
    pub factories: Vec<Tiles>,
    /// Tiles in the centre.
    pub centre: Tiles,
    /// True while the first-player token lies in the centre.
    pub token_in_centre: bool,
    /// The bag's tiles.
    pub bag: Tiles,
    /// The box lid's tiles.
    pub lid: Tiles,
    /// The boards, seat 0 first.
    pub boards: Vec<BoardJson>,
}

impl From<&AzulState> for StateJson {
    fn from(s: &AzulState) -> Self {
        StateJson {
            players: s.players,
            round: s.round,
            phase: s.phase,
            start: PlayerId(s.start),
            mover: PlayerId(s.mover),
            factories: s.factories().to_vec(),
            centre: s.centre,
            token_in_centre: s.token_in_centre,
            bag: s.bag,
            lid: s.lid,
            boards: s
                .boards()
                .iter()
                .map(|b| BoardJson {
                    score: b.score,
                    lines: (0..WALL_SIZE).map(|r| line_str(b, r)).collect(),
                    wall: (0..WALL_SIZE).map(|r| wall_row_str(b.wall, r)).collect(),
                    floor: b.floor,
                    token: b.token,
                })
                .collect(),
        }
    }
}

impl TryFrom<StateJson> for AzulState {
    type Error = StateParseError;
    fn try_from(j: StateJson) -> Result<Self, Self::Error> {
        let players = j.players as usize;
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(ferr("players", format!("{players}: Azul seats 2 to 4")));
        }
        if j.start.index() >= players || j.mover.index() >= players {
            return Err(ferr("start/mover", "seat out of range"));
        }
        if j.factories.len() != num_factories(players) {
            return Err(ferr(
                "factories",
                format!(
                    "{} factories, a {players}-player game has {}",
                    j.factories.len(),
                    num_factories(players)
                ),
            ));
        }
        if j.boards.len() != players {
            return Err(ferr(
                "boards",
                format!("{} boards for {players} players", j.boards.len()),
            ));
        }
        let mut s = AzulState::new(players, j.start);
        s.round = j.round;
        s.phase = j.phase;
        s.mover = j.mover.0;
        for (i, f) in j.factories.iter().enumerate() {
            s.factories[i] = *f;
        }
        s.centre = j.centre;
        s.token_in_centre = j.token_in_centre;
        s.bag = j.bag;
        s.lid = j.lid;
        for (p, bj) in j.boards.iter().enumerate() {
            let floor = if bj.token {
                token_tiles(true, &bj.floor)
            } else {
                bj.floor.to_string()
            };
            let text = format!(
                "{}:{}:{}:{}",
                bj.score,
                bj.lines.join(","),
                bj.wall.join("/"),
                floor
            );
            s.boards[p] = parse_board(p + 1, &text)?;
        }
        validate(&s)?;
        Ok(s)
    }
}

impl Serialize for AzulState {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        StateJson::from(self).serialize(ser)
    }
}

impl<'de> Deserialize<'de> for AzulState {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let j = StateJson::deserialize(de)?;
        AzulState::try_from(j).map_err(serde::de::Error::custom)
    }
}
