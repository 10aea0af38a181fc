//! The game state and the [`Game`] implementation.

use std::fmt;
use std::str::FromStr;

use arrayvec::ArrayVec;
use rand::Rng;
use serde::{Deserialize, Serialize};
use tessera_core::{Game, GameInfo, GameRng, Outcome, PerPlayer, PlayerId, Turn};

use crate::action::{HAND_SIZE, Move, Placement, Trade};
use crate::board::Board;
use crate::error::{DrawError, MoveError, ParseError};
use crate::movegen::{self, Scored, largest_group};
use crate::tile::{COPIES, Line, TILE_TYPES, TOTAL_TILES, Tile, TileCounts};

/// A hand: up to 6 tiles, kept sorted.
pub type Hand = ArrayVec<Tile, HAND_SIZE>;

/// Points for the player who empties their hand when the bag is empty.
pub const END_BONUS: i32 = 6;

/// Where the game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum Phase {
    /// The hands are about to be dealt (a chance event).
    Deal,
    /// A player chooses a move.
    Play {
        /// The player to move.
        player: PlayerId,
    },
    /// A player draws tiles from the bag after placing or trading (a chance event).
    Draw {
        /// Who draws.
        player: PlayerId,
        /// How many tiles.
        count: u8,
    },
    /// The game is over.
    Over,
}

/// How the game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind", content = "player")]
pub enum End {
    /// The bag was empty and this player placed their last tile (+6).
    Out(PlayerId),
    /// Nobody could place a tile and the bag was empty, or no tile off the board could
    /// ever be placed (a dead board, found after a trade).
    Blocked,
}

/// The tiles of `hand` left once `placement`'s tiles are taken out, in the hand's order;
/// `None` if the hand does not hold them all.
pub fn hand_without(hand: &[Tile], placement: &Placement) -> Option<Hand> {
    let mut kept: Hand = hand.iter().copied().collect();
    for c in placement.cells() {
        let i = kept.iter().position(|&t| t == c.tile)?;
        kept.remove(i);
    }
    Some(kept)
}

/// A Qwirkle game for 2-4 players: the board, every hand, the bag, scores and whose turn it
/// is. Hidden information (other hands, the bag) is shown to players only through
/// [`Qwirkle::view`](Game::view).
///
/// ```
/// use tessera_core::{Game, Turn, rng::seeded};
/// use tessera_qwirkle::Qwirkle;
/// let mut g = Qwirkle::new(2).unwrap();
/// assert_eq!(g.turn(), Turn::Chance); // the deal
/// let deal = g.sample_chance(&mut seeded(1));
/// g.apply_chance(&deal).unwrap();
/// let mut moves = Vec::new();
/// g.legal_actions(&mut moves);
/// assert!(!moves.is_empty());
/// ```
#[derive(Debug, PartialEq, Eq)]
pub struct Qwirkle {
    players: u8,
    board: Board,
    hands: PerPlayer<Hand>,
    bag: TileCounts,
    aside: Hand,
    scores: PerPlayer<i32>,
    phase: Phase,
    first: Option<u8>,
    end: Option<End>,
}

impl Clone for Qwirkle {
    fn clone(&self) -> Self {
        Qwirkle {
            players: self.players,
            board: self.board.clone(),
            hands: self.hands.clone(),
            bag: self.bag,
            aside: self.aside.clone(),
            scores: self.scores.clone(),
            phase: self.phase,
            first: self.first,
            end: self.end,
        }
    }

    /// Reuses the board's allocation (see [`Board`]'s `clone_from`).
    fn clone_from(&mut self, source: &Self) {
        self.players = source.players;
        self.board.clone_from(&source.board);
        self.hands.clone_from(&source.hands);
        self.bag = source.bag;
        self.aside.clone_from(&source.aside);
        self.scores.clone_from(&source.scores);
        self.phase = source.phase;
        self.first = source.first;
        self.end = source.end;
    }
}

impl Qwirkle {
    /// A new game for 2-4 players, before the deal.
    pub fn new(players: usize) -> Result<Self, ParseError> {
        if !(2..=4).contains(&players) {
            return Err(ParseError::new(
                "players",
                format!("Qwirkle is for 2 to 4 players, not {players}"),
            ));
        }
        Ok(Qwirkle {
            players: players as u8,
            board: Board::new(),
            hands: PerPlayer::filled(players, Hand::new()),
            bag: TileCounts::full(),
            aside: Hand::new(),
            scores: PerPlayer::filled(players, 0),
            phase: Phase::Deal,
            first: None,
            end: None,
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// A player's hand (hidden from the others: agents get determinized states).
    pub fn hand(&self, p: PlayerId) -> &[Tile] {
        &self.hands[p]
    }

    /// The tiles of `p`'s hand left after it places `placement` (before it draws), in the
    /// hand's order ([`hand_without`]); `None` if the hand does not hold the placed tiles.
    pub fn kept_after(&self, p: PlayerId, placement: &Placement) -> Option<Hand> {
        hand_without(&self.hands[p], placement)
    }

    /// Replaces player `p`'s hand and the bag of a sampled world (a searcher's
    /// determinization): the caller keeps the tiles, `hand` plus `bag` being exactly the old
    /// hand plus the old bag.
    pub(crate) fn resample_hidden(&mut self, p: PlayerId, hand: Hand, bag: TileCounts) {
        debug_assert_eq!(
            hand.len() + bag.total(),
            self.hands[p].len() + self.bag.total()
        );
        self.hands[p] = hand;
        self.bag = bag;
    }

    /// The tiles in the bag.
    pub fn bag(&self) -> &TileCounts {
        &self.bag
    }

    /// Tiles traded in and waiting to go back into the bag once the trader has drawn.
    pub fn set_aside(&self) -> &[Tile] {
        &self.aside
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The first-move rule's demand: `Some(k)` until the first placement (the starter must
    /// place `k` tiles), `None` after.
    pub fn first_move_size(&self) -> Option<u8> {
        self.first
    }

    /// How the game ended, once it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// Every legal placement of the player to move, with its score (empty when no player
    /// is to move).
    pub fn scored_placements(&self, out: &mut Vec<Scored>) {
        match self.phase {
            Phase::Play { player } => {
                movegen::placements(&self.board, &self.hands[player], self.first, out)
            }
            _ => out.clear(),
        }
    }

    /// The placement [`Self::scored_placements`] would list first among those with the most
    /// points (the `points` policy of the play-outs, ties to the first generated), found
    /// without generating the others; `None` when there is none or no player is to move.
    pub fn best_placement(&self, scratch: &mut movegen::BestScratch) -> Option<Scored> {
        match self.phase {
            Phase::Play { player } => {
                movegen::best_placement(&self.board, &self.hands[player], self.first, scratch)
            }
            _ => None,
        }
    }

    /// Points a legal placement would score now (the +6 for going out not included).
    pub fn placement_score(&self, p: &Placement) -> i32 {
        movegen::score_placement(&self.board, p)
    }

    /// Every distinct trade the player to move may make (none on the first move, at most as
    /// many tiles as the bag holds).
    pub fn trades(&self, out: &mut Vec<Trade>) {
        out.clear();
        let Phase::Play { player } = self.phase else {
            return;
        };
        if self.first.is_some() {
            return;
        }
        let max = self.bag.total().min(HAND_SIZE);
        let hand = &self.hands[player];
        // Distinct sub-multisets of the sorted hand.
        let mut distinct: ArrayVec<(Tile, u8), HAND_SIZE> = ArrayVec::new();
        for &t in hand {
            match distinct.last_mut() {
                Some((u, c)) if *u == t => *c += 1,
                _ => distinct.push((t, 1)),
            }
        }
        fn rec(
            d: &[(Tile, u8)],
            i: usize,
            cur: &mut ArrayVec<Tile, HAND_SIZE>,
            max: usize,
            out: &mut Vec<Trade>,
        ) {
            if i == d.len() {
                if !cur.is_empty()
                    && let Some(t) = Trade::new(cur)
                {
                    out.push(t);
                }
                return;
            }
            let (t, c) = d[i];
            let base = cur.len();
            rec(d, i + 1, cur, max, out);
            for _ in 0..c {
                if cur.len() >= max {
                    break;
                }
                cur.push(t);
                rec(d, i + 1, cur, max, out);
            }
            cur.truncate(base);
        }
        rec(&distinct, 0, &mut ArrayVec::new(), max, out);
    }

    /// Checks a placement for the player to move and returns its score.
    pub fn check_placement(&self, p: &Placement) -> Result<i32, MoveError> {
        let Phase::Play { player } = self.phase else {
            return Err(MoveError::NotPlayersTurn);
        };
        let cells = p.cells();
        let mut hand = TileCounts::default();
        for &t in &self.hands[player] {
            hand.add(t);
        }
        for c in cells {
            if !hand.remove(c.tile) {
                return Err(MoveError::NotInHand(c.tile.to_string()));
            }
        }
        let cell = |x: i32, y: i32| format!("{x},{y}");
        for (i, c) in cells.iter().enumerate() {
            if self.board.occupied(c.x as i32, c.y as i32) {
                return Err(MoveError::Occupied(cell(c.x as i32, c.y as i32)));
            }
            if cells[..i].iter().any(|d| (d.x, d.y) == (c.x, c.y)) {
                return Err(MoveError::SameCell(cell(c.x as i32, c.y as i32)));
            }
        }
        let same_row = cells.iter().all(|c| c.y == cells[0].y);
        let same_col = cells.iter().all(|c| c.x == cells[0].x);
        if !same_row && !same_col {
            return Err(MoveError::NotInLine);
        }
        if let Some(k) = self.first {
            if cells.len() != k as usize {
                return Err(MoveError::FirstMove(format!(
                    "the starting player must place {k} tiles (the largest group in the hand), not {}",
                    cells.len()
                )));
            }
            let ok = cells
                .iter()
                .enumerate()
                .all(|(i, c)| c.y == 0 && c.x as usize == i);
            if !ok {
                return Err(MoveError::FirstMove(format!(
                    "the first line goes on row 0 from cell 0,0 to the right (cells 0,0 to {},0)",
                    k - 1
                )));
            }
            let line = cells.iter().fold(Line::EMPTY, |l, c| l.with(c.tile));
            if !line.is_valid() {
                return Err(MoveError::BadLine(cell(0, 0)));
            }
            return Ok(movegen::score_placement(&self.board, p));
        }
        // Contiguity: every cell between the first and the last placed tile is filled.
        let (a, b) = (cells[0], cells[cells.len() - 1]);
        let (dx, dy) = if same_row { (1, 0) } else { (0, 1) };
        let (mut x, mut y) = (a.x as i32, a.y as i32);
        while (x, y) != (b.x as i32, b.y as i32) {
            x += dx;
            y += dy;
            let placed = cells.iter().any(|c| (c.x as i32, c.y as i32) == (x, y));
            if !placed && !self.board.occupied(x, y) {
                return Err(MoveError::Gap(cell(x, y)));
            }
        }
        // Lines: the main line through all the tiles and each crossing line.
        let at = |x: i32, y: i32| -> Option<Tile> {
            cells
                .iter()
                .find(|c| (c.x as i32, c.y as i32) == (x, y))
                .map(|c| c.tile)
                .or_else(|| self.board.get(x, y))
        };
        let line_through = |x: i32, y: i32, dx: i32, dy: i32| -> Line {
            let (mut sx, mut sy) = (x, y);
            while at(sx - dx, sy - dy).is_some() {
                sx -= dx;
                sy -= dy;
            }
            let mut l = Line::EMPTY;
            while let Some(t) = at(sx, sy) {
                l = l.with(t);
                sx += dx;
                sy += dy;
            }
            l
        };
        for c in cells {
            for (dx, dy) in [(1, 0), (0, 1)] {
                if !line_through(c.x as i32, c.y as i32, dx, dy).is_valid() {
                    return Err(MoveError::BadLine(cell(c.x as i32, c.y as i32)));
                }
            }
        }
        if !cells
            .iter()
            .any(|c| self.board.has_neighbor(c.x as i32, c.y as i32))
        {
            return Err(MoveError::NotTouching);
        }
        Ok(movegen::score_placement(&self.board, p))
    }

    fn check_move(&self, m: &Move) -> Result<(), MoveError> {
        let Phase::Play { player } = self.phase else {
            return Err(MoveError::NotPlayersTurn);
        };
        match m {
            Move::Place(p) => self.check_placement(p).map(|_| ()),
            Move::Trade(t) => {
                if let Some(k) = self.first {
                    return Err(MoveError::FirstMove(format!(
                        "the starting player must place {k} tiles; trading is not allowed"
                    )));
                }
                let bag = self.bag.total();
                if t.tiles().len() > bag {
                    return Err(MoveError::Trade(format!(
                        "the bag holds only {bag} tiles, so at most {bag} can be traded"
                    )));
                }
                let mut hand = TileCounts::default();
                for &x in &self.hands[player] {
                    hand.add(x);
                }
                for &x in t.tiles() {
                    if !hand.remove(x) {
                        return Err(MoveError::NotInHand(x.to_string()));
                    }
                }
                Ok(())
            }
            Move::Pass => {
                if self.bag.total() > 0
                    || self.first.is_some()
                    || movegen::can_place(&self.board, &self.hands[player])
                {
                    Err(MoveError::PassNotAllowed)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Ends the turn of `mover`: the game ends, blocked, if the bag is empty and nobody can
    /// place, or, after a trade (`traded`), if no tile off the board, in the bag or in a
    /// hand, fits anywhere on it (a dead board: the rules' end needs an empty bag, which
    /// trades would never bring, so the game would go on forever; a dead board can only be
    /// followed by a trade, so checking after trades is enough); otherwise the next player
    /// moves.
    fn end_turn(&mut self, mover: PlayerId, traded: bool) {
        if self.bag.total() == 0
            && !PlayerId::all(self.num_players())
                .any(|p| movegen::can_place(&self.board, &self.hands[p]))
            || traded && self.dead_board()
        {
            self.phase = Phase::Over;
            self.end = Some(End::Blocked);
        } else {
            self.phase = Phase::Play {
                player: mover.next(self.num_players()),
            };
        }
    }

    /// True if no tile off the board (in the bag or a hand) can be placed on it.
    fn dead_board(&self) -> bool {
        let mut off = self.bag;
        for h in self.hands.iter().map(|(_, h)| h) {
            h.iter().for_each(|&t| off.add(t));
        }
        let kinds: ArrayVec<Tile, TILE_TYPES> = Tile::all().filter(|&t| off.get(t) > 0).collect();
        !self.board.is_empty() && !movegen::can_place(&self.board, &kinds)
    }

    fn remove_from_hand(&mut self, p: PlayerId, t: Tile) {
        let hand = &mut self.hands[p];
        if let Some(i) = hand.iter().position(|&u| u == t) {
            hand.remove(i);
        }
    }

    fn validate(&self) -> Result<(), String> {
        let n = self.num_players();
        if self.hands.len() != n || self.scores.len() != n {
            return Err("one hand and one score per player".into());
        }
        let mut all = self.bag;
        let mut add = |t: Tile, what: &str| -> Result<(), String> {
            all.add(t);
            if all.get(t) > COPIES {
                return Err(format!("more than {COPIES} copies of {t} (seen in {what})"));
            }
            Ok(())
        };
        for bt in self.board.tiles() {
            add(bt.tile, "the board")?;
        }
        for (p, h) in self.hands.iter() {
            if h.windows(2).any(|w| w[0] > w[1]) {
                return Err(format!("hand of {p} is not sorted"));
            }
            for &t in h {
                add(t, "a hand")?;
            }
        }
        for &t in &self.aside {
            add(t, "the set-aside tiles")?;
        }
        if all.total() != TOTAL_TILES {
            return Err(format!(
                "{} tiles in the game, expected {TOTAL_TILES}",
                all.total()
            ));
        }
        for bt in self.board.tiles() {
            for (dx, dy) in [(1, 0), (0, 1)] {
                if !self
                    .board
                    .line_around(bt.x, bt.y, dx, dy)
                    .with(bt.tile)
                    .is_valid()
                {
                    return Err(format!("invalid line through {},{}", bt.x, bt.y));
                }
            }
        }
        let in_seat = |p: PlayerId| p.index() < n;
        match self.phase {
            Phase::Deal => {
                if !self.board.is_empty() || self.hands.as_slice().iter().any(|h| !h.is_empty()) {
                    return Err("deal phase with tiles already out of the bag".into());
                }
            }
            Phase::Play { player } => {
                if !in_seat(player) {
                    return Err(format!("player {player} is not at the table"));
                }
            }
            Phase::Draw { player, count } => {
                if !in_seat(player) {
                    return Err(format!("player {player} is not at the table"));
                }
                if count == 0
                    || count as usize > self.bag.total()
                    || self.hands[player].len() + count as usize > HAND_SIZE
                {
                    return Err(format!("impossible draw of {count} tiles"));
                }
            }
            Phase::Over => {
                if self.end.is_none() {
                    return Err("game over without an end reason".into());
                }
            }
        }
        if !self.aside.is_empty() && !matches!(self.phase, Phase::Draw { .. }) {
            return Err("set-aside tiles outside a draw".into());
        }
        if self.first.is_some() && !self.board.is_empty() {
            return Err("first-move demand with tiles on the board".into());
        }
        if matches!(self.first, Some(k) if !(1..=6).contains(&k)) {
            return Err("first-move demand must be 1-6".into());
        }
        Ok(())
    }

    /// Draws the pending tiles at random and applies them, as `sample_chance` followed by
    /// `apply_chance` would with the same generator (the same tiles, the same state), without
    /// allocating: the play-outs' draws. Returns false (and changes nothing) when no draw is
    /// pending.
    pub(crate) fn apply_random_draw(&mut self, rng: &mut GameRng) -> bool {
        let Phase::Draw { player, count } = self.phase else {
            if self.phase == Phase::Deal {
                let deal = self.sample_chance(rng);
                return self.apply_chance(&deal).is_ok();
            }
            return false;
        };
        let mut tiles: ArrayVec<Tile, HAND_SIZE> = ArrayVec::new();
        for _ in 0..count {
            let total = self.bag.total();
            if total == 0 {
                break;
            }
            let k = rng.random_range(0..total);
            if let Some(t) = self.bag.nth(k) {
                self.bag.remove(t);
                tiles.push(t);
            }
        }
        let hand = &mut self.hands[player];
        hand.extend(tiles);
        hand.sort_unstable();
        let traded = !self.aside.is_empty();
        for t in std::mem::take(&mut self.aside) {
            self.bag.add(t);
        }
        self.end_turn(player, traded);
        true
    }

    fn draw_tiles(&self, count: usize, rng: &mut GameRng) -> Vec<Tile> {
        let mut bag = self.bag;
        let mut out = Vec::with_capacity(count);
        for _ in 0..count {
            let total = bag.total();
            if total == 0 {
                break;
            }
            let k = rng.random_range(0..total);
            if let Some(t) = bag.nth(k) {
                bag.remove(t);
                out.push(t);
            }
        }
        out
    }
}

impl Game for Qwirkle {
    type Action = Move;
    type Chance = Vec<Tile>;
    type View = QwirkleView;
    type ActionError = MoveError;
    type ChanceError = DrawError;
    type ParseError = ParseError;
    type ActionParseError = ParseError;
    const INFO: GameInfo = GameInfo {
        name: "qwirkle",
        title: "Qwirkle",
        min_players: 2,
        max_players: 4,
        chance: true,
        hidden_info: true,
    };

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn turn(&self) -> Turn {
        match self.phase {
            Phase::Deal | Phase::Draw { .. } => Turn::Chance,
            Phase::Play { player } => Turn::Player(player),
            Phase::Over => Turn::Terminal,
        }
    }

    fn legal_actions(&self, out: &mut Vec<Move>) {
        out.clear();
        let Phase::Play { player } = self.phase else {
            return;
        };
        let mut scored = Vec::new();
        movegen::placements(&self.board, &self.hands[player], self.first, &mut scored);
        out.extend(scored.iter().map(|s| Move::Place(s.placement)));
        let mut trades = Vec::new();
        self.trades(&mut trades);
        out.extend(trades.into_iter().map(Move::Trade));
        if out.is_empty() {
            out.push(Move::Pass);
        }
    }

    fn apply(&mut self, m: Move) {
        debug_assert!(self.check_move(&m).is_ok(), "illegal move {m}");
        let Phase::Play { player } = self.phase else {
            return;
        };
        match m {
            Move::Place(p) => {
                let score = movegen::score_placement(&self.board, &p);
                for c in p.cells() {
                    self.board.place(c.x as i32, c.y as i32, c.tile);
                    self.remove_from_hand(player, c.tile);
                }
                self.scores[player] += score;
                self.first = None;
                let bag = self.bag.total();
                if self.hands[player].is_empty() && bag == 0 {
                    self.scores[player] += END_BONUS;
                    self.phase = Phase::Over;
                    self.end = Some(End::Out(player));
                } else if bag > 0 {
                    let count = (HAND_SIZE - self.hands[player].len()).min(bag);
                    self.phase = Phase::Draw {
                        player,
                        count: count as u8,
                    };
                } else {
                    self.end_turn(player, false);
                }
            }
            Move::Trade(t) => {
                for &x in t.tiles() {
                    self.remove_from_hand(player, x);
                    self.aside.push(x);
                }
                self.aside.sort_unstable();
                self.phase = Phase::Draw {
                    player,
                    count: t.tiles().len() as u8,
                };
            }
            Move::Pass => self.end_turn(player, false),
        }
    }

    fn try_apply(&mut self, m: Move) -> Result<(), MoveError> {
        self.check_move(&m)?;
        self.apply(m);
        Ok(())
    }

    fn sample_chance(&self, rng: &mut GameRng) -> Vec<Tile> {
        match self.phase {
            Phase::Deal => self.draw_tiles(HAND_SIZE * self.num_players(), rng),
            Phase::Draw { count, .. } => self.draw_tiles(count as usize, rng),
            _ => Vec::new(),
        }
    }

    fn apply_chance(&mut self, tiles: &Vec<Tile>) -> Result<(), DrawError> {
        let expected = match self.phase {
            Phase::Deal => HAND_SIZE * self.num_players(),
            Phase::Draw { count, .. } => count as usize,
            _ => return Err(DrawError::NotPending),
        };
        if tiles.len() != expected {
            return Err(DrawError::Count {
                expected,
                got: tiles.len(),
            });
        }
        let mut bag = self.bag;
        for &t in tiles {
            if !bag.remove(t) {
                return Err(DrawError::NotInBag(t.to_string()));
            }
        }
        self.bag = bag;
        match self.phase {
            Phase::Deal => {
                for (i, chunk) in tiles.chunks(HAND_SIZE).enumerate() {
                    let hand = &mut self.hands[PlayerId(i as u8)];
                    hand.extend(chunk.iter().copied());
                    hand.sort_unstable();
                }
                // First-move rule: the largest group starts; ties go to the earlier seat.
                let mut best = (0, PlayerId(0));
                for p in PlayerId::all(self.num_players()) {
                    let g = largest_group(&self.hands[p]);
                    if g > best.0 {
                        best = (g, p);
                    }
                }
                self.first = Some(best.0 as u8);
                self.phase = Phase::Play { player: best.1 };
            }
            Phase::Draw { player, .. } => {
                let hand = &mut self.hands[player];
                hand.extend(tiles.iter().copied());
                hand.sort_unstable();
                let traded = !self.aside.is_empty();
                for t in std::mem::take(&mut self.aside) {
                    self.bag.add(t);
                }
                self.end_turn(player, traded);
            }
            _ => {}
        }
        Ok(())
    }

    fn scores(&self) -> PerPlayer<i32> {
        self.scores.clone()
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let best = self.scores.as_slice().iter().copied().max().unwrap_or(0);
        Some(Outcome {
            scores: self.scores.clone(),
            winners: self
                .scores
                .iter()
                .filter(|(_, s)| **s == best)
                .map(|(p, _)| p)
                .collect(),
        })
    }

    fn view(&self, observer: PlayerId) -> QwirkleView {
        let trader = match self.phase {
            Phase::Draw { player, .. } => Some(player),
            _ => None,
        };
        QwirkleView {
            players: self.players,
            observer,
            phase: self.phase,
            first_move_size: self.first,
            end: self.end,
            scores: self.scores.as_slice().to_vec(),
            board: self.board.clone(),
            hand: self.hands[observer].to_vec(),
            hand_sizes: self
                .hands
                .as_slice()
                .iter()
                .map(|h| h.len() as u8)
                .collect(),
            bag_size: self.bag.total() as u8,
            set_aside: if trader == Some(observer) {
                self.aside.to_vec()
            } else {
                Vec::new()
            },
            set_aside_count: self.aside.len() as u8,
        }
    }

    fn determinize(&self, observer: PlayerId, rng: &mut GameRng) -> Self {
        let mut d = self.clone();
        let trader = match self.phase {
            Phase::Draw { player, .. } => Some(player),
            _ => None,
        };
        let hide_aside = trader.is_some() && trader != Some(observer);
        let mut pool = self.bag;
        for p in PlayerId::all(self.num_players()).filter(|&p| p != observer) {
            for &t in &self.hands[p] {
                pool.add(t);
            }
        }
        if hide_aside {
            for &t in &self.aside {
                pool.add(t);
            }
        }
        let mut take = |n: usize, pool: &mut TileCounts| -> Hand {
            let mut h = Hand::new();
            for _ in 0..n {
                let total = pool.total();
                if total == 0 {
                    break;
                }
                if let Some(t) = pool.nth(rng.random_range(0..total)) {
                    pool.remove(t);
                    h.push(t);
                }
            }
            h.sort_unstable();
            h
        };
        for p in PlayerId::all(self.num_players()).filter(|&p| p != observer) {
            d.hands[p] = take(self.hands[p].len(), &mut pool);
        }
        if hide_aside {
            d.aside = take(self.aside.len(), &mut pool);
        }
        d.bag = pool;
        d
    }

    fn check_invariants(&self) -> Result<(), String> {
        self.validate()
    }
}

/// What one player sees: the board, the scores, their own hand, the sizes of the other
/// hands and of the bag. No opponent tile appears in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QwirkleView {
    /// Players at the table.
    pub players: u8,
    /// Whose view this is.
    pub observer: PlayerId,
    /// The phase.
    pub phase: Phase,
    /// The first-move rule's demand, until the first placement.
    pub first_move_size: Option<u8>,
    /// How the game ended.
    pub end: Option<End>,
    /// Scores, seat 0 first.
    pub scores: Vec<i32>,
    /// The board.
    pub board: Board,
    /// The observer's own hand.
    pub hand: Vec<Tile>,
    /// Every player's hand size.
    pub hand_sizes: Vec<u8>,
    /// Tiles in the bag.
    pub bag_size: u8,
    /// The observer's own traded tiles while they wait to go back into the bag.
    pub set_aside: Vec<Tile>,
    /// Number of traded tiles waiting to go back into the bag.
    pub set_aside_count: u8,
}

// ---- Notation ----------------------------------------------------------------------------

fn player_text(p: PlayerId) -> String {
    (p.0 + 1).to_string()
}

fn tiles_text(ts: &[Tile]) -> String {
    if ts.is_empty() {
        "-".into()
    } else {
        ts.iter().map(|t| t.to_string()).collect()
    }
}

impl fmt::Display for Qwirkle {
    /// `n=2 phase=play:1 first=3 scores=0,0 hands=R1R2R3O4O5Y6/B1B2B3B4B5B6 bag=<36 digits>
    /// board=R1@0,0;R2@1,0 aside=- end=-`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let phase = match self.phase {
            Phase::Deal => "deal".to_string(),
            Phase::Play { player } => format!("play:{}", player_text(player)),
            Phase::Draw { player, count } => format!("draw:{}:{count}", player_text(player)),
            Phase::Over => "over".to_string(),
        };
        let first = self.first.map_or("-".to_string(), |k| k.to_string());
        let scores: Vec<String> = self
            .scores
            .as_slice()
            .iter()
            .map(|s| s.to_string())
            .collect();
        let hands: Vec<String> = self
            .hands
            .as_slice()
            .iter()
            .map(|h| tiles_text(h))
            .collect();
        let bag: String = self
            .bag
            .0
            .iter()
            .map(|&c| char::from(b'0' + c.min(9)))
            .collect();
        let board = self.board.notation();
        let end = match self.end {
            None => "-".to_string(),
            Some(End::Out(p)) => format!("out:{}", player_text(p)),
            Some(End::Blocked) => "blocked".to_string(),
        };
        write!(
            f,
            "n={} phase={phase} first={first} scores={} hands={} bag={bag} board={board} aside={} end={end}",
            self.players,
            scores.join(","),
            hands.join("/"),
            tiles_text(&self.aside),
        )
    }
}

fn parse_tiles(s: &str, field: &str) -> Result<Hand, ParseError> {
    let mut h = Hand::new();
    if s == "-" {
        return Ok(h);
    }
    let chars: Vec<char> = s.chars().collect();
    if !chars.len().is_multiple_of(2) {
        return Err(ParseError::new(
            field,
            format!("'{s}' is not a list of tiles such as R1O2Y3"),
        ));
    }
    for pair in chars.chunks(2) {
        let t: Tile = pair.iter().collect::<String>().parse()?;
        h.try_push(t)
            .map_err(|_| ParseError::new(field, format!("more than {HAND_SIZE} tiles in '{s}'")))?;
    }
    h.sort_unstable();
    Ok(h)
}

fn parse_player(s: &str, n: usize, field: &str) -> Result<PlayerId, ParseError> {
    match s.parse::<usize>() {
        Ok(p) if (1..=n).contains(&p) => Ok(PlayerId(p as u8 - 1)),
        _ => Err(ParseError::new(
            field,
            format!("'{s}' is not a seat from 1 to {n}"),
        )),
    }
}

impl FromStr for Qwirkle {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const KEYS: [&str; 9] = [
            "n", "phase", "first", "scores", "hands", "bag", "board", "aside", "end",
        ];
        let mut vals: [Option<&str>; 9] = [None; 9];
        for word in s.split_whitespace() {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| ParseError::new("state", format!("'{word}' is not KEY=VALUE")))?;
            let i = KEYS.iter().position(|&x| x == k).ok_or_else(|| {
                ParseError::new(
                    "state",
                    format!("unknown field '{k}'; expected {}", KEYS.join(", ")),
                )
            })?;
            if vals[i].replace(v).is_some() {
                return Err(ParseError::new("state", format!("field '{k}' given twice")));
            }
        }
        let get = |i: usize| {
            vals[i].ok_or_else(|| ParseError::new("state", format!("missing field '{}'", KEYS[i])))
        };
        let n: usize = get(0)?
            .parse()
            .ok()
            .filter(|n| (2..=4).contains(n))
            .ok_or_else(|| ParseError::new("state field 'n'", "expected 2, 3 or 4 players"))?;
        let mut g = Qwirkle::new(n)?;
        let phase = get(1)?;
        let parts: Vec<&str> = phase.split(':').collect();
        g.phase = match parts.as_slice() {
            ["deal"] => Phase::Deal,
            ["over"] => Phase::Over,
            ["play", p] => Phase::Play {
                player: parse_player(p, n, "state field 'phase'")?,
            },
            ["draw", p, c] => Phase::Draw {
                player: parse_player(p, n, "state field 'phase'")?,
                count: c.parse().map_err(|_| {
                    ParseError::new("state field 'phase'", format!("'{c}' is not a count"))
                })?,
            },
            _ => {
                return Err(ParseError::new(
                    "state field 'phase'",
                    format!("'{phase}' is not deal, play:P, draw:P:K or over"),
                ));
            }
        };
        g.first = match get(2)? {
            "-" => None,
            k => Some(k.parse().map_err(|_| {
                ParseError::new("state field 'first'", format!("'{k}' is not - or 1-6"))
            })?),
        };
        let scores: Vec<i32> = get(3)?
            .split(',')
            .map(|x| {
                x.parse().map_err(|_| {
                    ParseError::new("state field 'scores'", format!("'{x}' is not a number"))
                })
            })
            .collect::<Result<_, _>>()?;
        if scores.len() != n {
            return Err(ParseError::new(
                "state field 'scores'",
                "one score per player",
            ));
        }
        g.scores = scores.into_iter().collect();
        let hands: Vec<&str> = get(4)?.split('/').collect();
        if hands.len() != n {
            return Err(ParseError::new(
                "state field 'hands'",
                "one hand per player, separated by '/'",
            ));
        }
        for (i, h) in hands.iter().enumerate() {
            g.hands[PlayerId(i as u8)] = parse_tiles(h, "state field 'hands'")?;
        }
        let bag = get(5)?;
        if bag.len() != TILE_TYPES || !bag.bytes().all(|b| (b'0'..=b'3').contains(&b)) {
            return Err(ParseError::new(
                "state field 'bag'",
                "expected 36 digits 0-3 (copies of R1..R6, O1..O6, ... P6 in the bag)",
            ));
        }
        for (i, b) in bag.bytes().enumerate() {
            g.bag.0[i] = b - b'0';
        }
        let board = get(6)?;
        if board != "-" {
            for cell in board.split(';') {
                let p: crate::action::Placed = cell.parse()?;
                if g.board.occupied(p.x as i32, p.y as i32) {
                    return Err(ParseError::new(
                        "state field 'board'",
                        format!("cell {},{} given twice", p.x, p.y),
                    ));
                }
                g.board.place(p.x as i32, p.y as i32, p.tile);
            }
        }
        g.aside = parse_tiles(get(7)?, "state field 'aside'")?;
        g.end = match get(8)? {
            "-" => None,
            "blocked" => Some(End::Blocked),
            e => match e.split_once(':') {
                Some(("out", p)) => Some(End::Out(parse_player(p, n, "state field 'end'")?)),
                _ => {
                    return Err(ParseError::new(
                        "state field 'end'",
                        format!("'{e}' is not -, blocked or out:P"),
                    ));
                }
            },
        };
        g.validate()
            .map_err(|e| ParseError::new("state", format!("inconsistent: {e}")))?;
        Ok(g)
    }
}

/// The JSON form of a state (the same fields as the text form).
#[derive(Serialize, Deserialize)]
struct StateJson {
    players: u8,
    phase: Phase,
    first_move_size: Option<u8>,
    scores: Vec<i32>,
    hands: Vec<Vec<Tile>>,
    bag: TileCounts,
    board: Board,
    set_aside: Vec<Tile>,
    end: Option<End>,
}

impl Serialize for Qwirkle {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        StateJson {
            players: self.players,
            phase: self.phase,
            first_move_size: self.first,
            scores: self.scores.as_slice().to_vec(),
            hands: self.hands.as_slice().iter().map(|h| h.to_vec()).collect(),
            bag: self.bag,
            board: self.board.clone(),
            set_aside: self.aside.to_vec(),
            end: self.end,
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Qwirkle {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let j = StateJson::deserialize(d)?;
        let n = j.players as usize;
        let mut g = Qwirkle::new(n).map_err(D::Error::custom)?;
        if j.scores.len() != n || j.hands.len() != n {
            return Err(D::Error::custom("one score and one hand per player"));
        }
        let hand = |v: &[Tile]| -> Result<Hand, D::Error> {
            if v.len() > HAND_SIZE {
                return Err(D::Error::custom("more than 6 tiles in a hand or set aside"));
            }
            let mut h: Hand = v.iter().copied().collect();
            h.sort_unstable();
            Ok(h)
        };
        for (i, h) in j.hands.iter().enumerate() {
            g.hands[PlayerId(i as u8)] = hand(h)?;
        }
        g.aside = hand(&j.set_aside)?;
        g.phase = j.phase;
        g.first = j.first_move_size;
        g.scores = j.scores.into_iter().collect();
        g.bag = j.bag;
        g.board = j.board;
        g.end = j.end;
        g.validate().map_err(D::Error::custom)?;
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    /// An endgame with an empty bag (tile conservation is not needed for these rules).
    fn endgame(hands: [&[&str]; 2]) -> Qwirkle {
        let mut g = Qwirkle::new(2).unwrap();
        g.bag = TileCounts::default();
        g.board.place(0, 0, t("R1"));
        for (i, h) in hands.iter().enumerate() {
            g.hands[PlayerId(i as u8)] = h.iter().map(|s| t(s)).collect();
        }
        g.phase = Phase::Play {
            player: PlayerId(0),
        };
        g
    }

    #[test]
    fn blocked_game_ends_without_bonus() {
        let mut g = endgame([&["R2", "Y3"], &["B4", "G5"]]);
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        assert_eq!(legal.len(), 4, "R2 on the four sides of R1: {legal:?}");
        g.try_apply("R2@1,0".parse().unwrap()).unwrap();
        assert_eq!(g.phase(), Phase::Over);
        assert_eq!(g.end(), Some(End::Blocked));
        assert_eq!(g.scores().as_slice(), &[2, 0]);
        let o = g.outcome().unwrap();
        assert_eq!(o.winners, vec![PlayerId(0)]);
    }

    #[test]
    fn a_dead_board_ends_the_game_after_a_trade() {
        use tessera_core::rng::seeded;
        // Every red tile is on the board, in three stacked Qwirkles: only a red tile could
        // touch it, none is left, so trades would go on forever (found in a game of `seer`
        // against `points`). The bag is not empty; the trade ends the game, blocked.
        let board = "R2@-2,-1;R3@-1,-1;R5@0,-1;R6@1,-1;R4@2,-1;R1@3,-1;R6@-2,0;R4@-1,0;R1@0,0;R2@1,0;R5@2,0;R3@3,0;R4@-2,1;R1@-1,1;R6@0,1;R3@1,1;R2@2,1;R5@3,1";
        let text = format!(
            "n=2 phase=play:1 first=- scores=34,70 hands=O6O6Y1G3G5P1/Y2G1G2P2P5P5 bag=000000333331223333222323333333223313 board={board} aside=- end=-"
        );
        let g: Qwirkle = text.parse().unwrap_or_else(|e| panic!("{e}"));
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        assert!(
            legal.iter().all(|m| matches!(m, Move::Trade(_))),
            "{legal:?}"
        );
        let mut after = g.clone();
        after.apply(legal[0]);
        let draw = after.sample_chance(&mut seeded(1));
        after.apply_chance(&draw).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(after.end(), Some(End::Blocked));
        assert!(after.bag().total() > 0);
        assert_eq!(after.scores().as_slice(), &[34, 70]);
        // The same through the play-outs' draws.
        let mut fast = g.clone();
        fast.apply(legal[0]);
        assert!(fast.apply_random_draw(&mut seeded(1)));
        assert_eq!(fast.end(), Some(End::Blocked));
        // With one red tile (R5, taken off a corner) still in the bag a trade does not end
        // the game.
        let live = text
            .replace("bag=000000333331", "bag=000010333331")
            .replace(";R5@3,1", "");
        let mut g: Qwirkle = live.parse().unwrap_or_else(|e| panic!("{e}"));
        g.legal_actions(&mut legal);
        g.apply(legal[0]);
        assert!(g.apply_random_draw(&mut seeded(1)));
        assert_eq!(g.end(), None);
    }

    #[test]
    fn pass_only_when_nothing_else_is_possible() {
        let mut g = endgame([&["Y3"], &["R2", "O4"]]);
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        assert_eq!(legal, vec![Move::Pass]);
        g.try_apply(Move::Pass).unwrap();
        assert_eq!(g.turn(), Turn::Player(PlayerId(1)));
        assert_eq!(
            g.clone().try_apply(Move::Pass),
            Err(MoveError::PassNotAllowed)
        );
        // After R2, neither Y3 nor O4 fits anywhere: the game is blocked at once.
        g.try_apply("R2@1,0".parse().unwrap()).unwrap();
        assert_eq!(g.end(), Some(End::Blocked));
        assert_eq!(g.scores().as_slice(), &[0, 2]);
    }

    #[test]
    fn the_kept_tiles_are_the_hand_minus_the_placed_ones() {
        let g = endgame([&["R2", "R3", "Y3", "R2"], &["B4", "G5"]]);
        let Ok(Move::Place(p)) = "R2@1,0".parse::<Move>() else {
            panic!("a placement");
        };
        let kept = g
            .kept_after(PlayerId(0), &p)
            .unwrap_or_else(|| panic!("held"));
        assert_eq!(kept.len(), 3);
        assert_eq!(kept.iter().filter(|t| t.to_string() == "R2").count(), 1);
        assert!(
            g.kept_after(PlayerId(1), &p).is_none(),
            "player 1 holds no R2"
        );
    }

    #[test]
    fn going_out_scores_six() {
        let mut g = endgame([&["R2"], &["B4", "G5"]]);
        g.try_apply("R2@1,0".parse().unwrap()).unwrap();
        assert_eq!(g.end(), Some(End::Out(PlayerId(0))));
        assert_eq!(g.scores().as_slice(), &[2 + END_BONUS, 0]);
    }

    #[test]
    fn tied_scores_share_the_win() {
        let mut g = endgame([&["R2"], &["B4", "G5"]]);
        g.scores[PlayerId(1)] = 8;
        g.try_apply("R2@1,0".parse().unwrap()).unwrap();
        assert_eq!(g.outcome().unwrap().winners, vec![PlayerId(0), PlayerId(1)]);
    }
}
