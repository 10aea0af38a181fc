//! Rules worked examples: floor overflow, the token, refills, partial deals, the end of the
//! game, the tie-break and the clamp at 0.

use tessera_azul::{
    AzulAction, AzulState, Colour, Deal, DealError, Phase, Tiles, scoring::wall_bonus,
};
use tessera_core::{Game, PlayerId, Turn, rng::seeded};

const EMPTY_WALL: &str = "...../...../...../...../.....";

/// Builds a state from its notation with the lid field `{lid}` filled with every tile not
/// mentioned elsewhere, so hand-written positions keep 20 tiles of each colour.
fn state(text: &str) -> AzulState {
    try_state(text).unwrap_or_else(|e| panic!("test position {text}: {e}"))
}

fn try_state(text: &str) -> Result<AzulState, tessera_azul::StateParseError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let mut used = [0u32; 5];
    let add_tiles = |s: &str, used: &mut [u32; 5]| {
        for ch in s.chars() {
            if let Some(c) = Colour::from_letter(ch) {
                used[c.index()] += 1;
            }
        }
    };
    for f in fields[5].split('/') {
        add_tiles(f, &mut used);
    }
    add_tiles(fields[6], &mut used);
    for (i, n) in fields[7].split(',').enumerate() {
        used[i] += n.parse::<u32>().unwrap();
    }
    for b in &fields[9..] {
        let parts: Vec<&str> = b.split(':').collect();
        for l in parts[1].split(',') {
            if l != "-" {
                let c = Colour::from_letter(l.chars().next().unwrap()).unwrap();
                used[c.index()] += l[1..].parse::<u32>().unwrap();
            }
        }
        add_tiles(parts[2], &mut used);
        add_tiles(parts[3], &mut used);
    }
    let lid: Vec<String> = used.iter().map(|u| (20 - u).to_string()).collect();
    let text = text.replace("{lid}", &lid.join(","));
    text.parse()
}

fn act(s: &str) -> AzulAction {
    s.parse().unwrap()
}

fn board(score: i32, lines: &str, wall: &str, floor: &str) -> String {
    format!("{score}:{lines}:{wall}:{floor}")
}

const NO_LINES: &str = "-,-,-,-,-";

#[test]
fn floor_overflow_goes_to_the_lid() {
    // P1 has 6 tiles on the floor and takes 3 red to the floor: 1 fits, 2 go to the lid.
    let s = state(&format!(
        "2 1 play 2 1 RRRY/BBYY/KKWW/RRKK/YYWW - 0,0,0,0,0 {{lid}} {} {}",
        board(10, NO_LINES, EMPTY_WALL, "KKKWWW"),
        board(0, NO_LINES, EMPTY_WALL, "1")
    ));
    let lid_before = s.lid();
    let mut t = s.clone();
    t.try_apply(act("1RF")).unwrap();
    let b = t.board(PlayerId(0));
    assert_eq!(b.floor().total(), 7);
    assert_eq!(b.floor()[Colour::Red], 1);
    assert_eq!(t.lid()[Colour::Red], lid_before[Colour::Red] + 2);
    assert_eq!(b.floor_penalty(), 14);
    // The rest of the factory went to the centre.
    assert_eq!(t.centre()[Colour::Yellow], 1);
    t.check_invariants().unwrap();
}

#[test]
fn overflow_from_a_pattern_line_fills_the_floor() {
    // 4 blue to line 1: 1 on the line, 3 on the floor.
    let s = state(&format!(
        "2 1 play 1 1 BBBB/YYYY/RRRR/KKKK/WWWW 1 0,0,0,0,0 {{lid}} {} {}",
        board(0, NO_LINES, EMPTY_WALL, "-"),
        board(0, NO_LINES, EMPTY_WALL, "-")
    ));
    let mut t = s.clone();
    t.try_apply(act("1B1")).unwrap();
    let b = t.board(PlayerId(0));
    assert_eq!(b.pattern_line(0), Some((Colour::Blue, 1)));
    assert_eq!(b.floor()[Colour::Blue], 3);
    assert_eq!(b.floor_penalty(), 4);
    assert_eq!(t.turn(), Turn::Player(PlayerId(1)));
}

#[test]
fn token_on_a_full_floor_costs_nothing_but_its_holder_starts() {
    // The token cannot be both in the centre and on P1's floor.
    let err = try_state(&format!(
        "2 1 play 1 2 -/-/-/-/KKWW 1Y 0,0,0,0,0 {{lid}} {} {}",
        board(5, NO_LINES, EMPTY_WALL, "1"),
        board(20, NO_LINES, EMPTY_WALL, "RRRRRRR")
    ))
    .expect_err("two tokens");
    assert!(err.to_string().contains("token appears 2 times"), "{err}");
    // P2's floor is full; P2 takes the first tiles from the centre.
    let s = state(&format!(
        "2 1 play 1 2 -/-/-/-/KKWW 1Y 0,0,0,0,0 {{lid}} {} {}",
        board(5, NO_LINES, EMPTY_WALL, "-"),
        board(20, NO_LINES, EMPTY_WALL, "RRRRRRR")
    ));
    let mut t = s.clone();
    t.try_apply(act("CY1")).unwrap();
    let b2 = t.board(PlayerId(1));
    assert!(b2.has_token());
    assert!(!t.token_in_centre());
    assert_eq!(b2.floor().total(), 7);
    assert_eq!(b2.floor_penalty(), 14, "7 tiles, the token adds nothing");
    // Finish the round: P1 takes black to line 2, P2 takes white to line 2.
    t.try_apply(act("5K2")).unwrap();
    t.try_apply(act("CW2")).unwrap();
    assert_eq!(t.phase(), Phase::Deal);
    assert_eq!(
        t.starting_player(),
        PlayerId(1),
        "the token's holder starts"
    );
    assert_eq!(t.turn(), Turn::Chance);
    // P2: yellow on line 1 and the two whites on line 2 score 1 each (diagonal neighbours do
    // not touch), the floor costs 14: 20 + 2 - 14 = 8.
    assert_eq!(t.board(PlayerId(1)).score(), 8);
    assert!(t.token_in_centre());
    t.check_invariants().unwrap();
}

#[test]
fn token_holder_starts_the_next_round() {
    let mut rng = seeded(3);
    let mut s = AzulState::new(3, PlayerId(0));
    let deal = s.sample_chance(&mut rng);
    s.apply_chance(&deal).unwrap();
    assert_eq!(s.turn(), Turn::Player(PlayerId(0)));
    // P1 takes from a factory, then P2 is first to the centre.
    let mut moves = Vec::new();
    s.legal_actions(&mut moves);
    let first = *moves
        .iter()
        .find(|a| a.source != tessera_azul::Source::Centre)
        .unwrap();
    s.apply(first);
    s.legal_actions(&mut moves);
    let centre = *moves
        .iter()
        .find(|a| a.source == tessera_azul::Source::Centre)
        .unwrap();
    s.apply(centre);
    assert_eq!(s.token_holder(), Some(PlayerId(1)));
    while s.turn() != Turn::Chance {
        let a = s.random_action(&mut rng).unwrap();
        s.apply(a);
    }
    assert_eq!(s.starting_player(), PlayerId(1));
    let deal = s.sample_chance(&mut rng);
    s.apply_chance(&deal).unwrap();
    assert_eq!(s.turn(), Turn::Player(PlayerId(1)));
}

#[test]
fn refill_from_the_lid_when_the_bag_runs_out() {
    // 2 players, round 3: the bag holds 10 tiles (2 of each colour), the lid the rest that
    // is not on the boards.
    let s = state(&format!(
        "2 3 deal 1 1 -/-/-/-/- 1 2,2,2,2,2 {{lid}} {} {}",
        board(4, "-,Y1,R2,-,-", "B..../.B.../...../...../.....", "-"),
        board(6, "-,Y1,-,K3,-", "...../W..../..B../...../.....", "-")
    ));
    let lid = s.lid();
    assert!(lid.total() >= 20);
    for seed in 0..50 {
        let mut t = s.clone();
        let deal = t.sample_chance(&mut seeded(seed));
        let mut dealt = Tiles::EMPTY;
        for f in &deal.factories {
            assert_eq!(f.total(), 4);
            dealt.add(f);
        }
        // The 10 bag tiles are all dealt, the other 10 come from the refilled bag.
        assert!(dealt.contains(&Tiles([2, 2, 2, 2, 2])));
        t.apply_chance(&deal).unwrap();
        assert_eq!(t.lid(), Tiles::EMPTY, "the lid was poured into the bag");
        assert_eq!(t.bag().total(), lid.total() - 10);
        t.check_invariants().unwrap();
    }
    // A deal that leaves bag tiles behind while using the lid is impossible.
    let mut bad = Deal::default();
    for _ in 0..5 {
        bad.factories.push(Tiles([4, 0, 0, 0, 0]));
    }
    let mut t = s.clone();
    assert!(matches!(t.apply_chance(&bad), Err(DealError::Tiles { .. })));
    assert_eq!(t, s, "a refused deal leaves the state unchanged");
}

/// A wall with every cell but those of `missing` colour tiled (4 per row, no row complete).
fn wall_without(missing: Colour) -> String {
    (0..5)
        .map(|r| {
            (0..5)
                .map(|c| {
                    let colour = tessera_azul::scoring::wall_colour(r, c);
                    if colour == missing {
                        '.'
                    } else {
                        colour.letter()
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn partly_filled_factories_and_the_end_of_the_game() {
    // 4 players, each wall lacks only its 5 blue cells: 80 tiles on walls, the 20 blue ones
    // in the bag. The 9 factories need 36 tiles: 5 get 4 blue, 4 stay empty.
    let w = wall_without(Colour::Blue);
    let b = board(30, NO_LINES, &w, "-");
    let s = state(&format!(
        "4 6 deal 3 3 -/-/-/-/-/-/-/-/- 1 20,0,0,0,0 {{lid}} {b} {b} {b} {b}"
    ));
    assert_eq!(s.lid(), Tiles::EMPTY);
    let mut t = s.clone();
    let deal = t.sample_chance(&mut seeded(9));
    let sizes: Vec<u32> = deal.factories.iter().map(|f| f.total()).collect();
    assert_eq!(sizes, vec![4, 4, 4, 4, 4, 0, 0, 0, 0]);
    // A deal with the tiles spread differently is refused.
    let mut bad = deal.clone();
    bad.factories[4] = Tiles([3, 0, 0, 0, 0]);
    bad.factories[5] = Tiles([1, 0, 0, 0, 0]);
    assert!(matches!(
        t.clone().apply_chance(&bad),
        Err(DealError::FactorySize { factory: 5, .. })
    ));
    t.apply_chance(&deal).unwrap();
    assert_eq!(t.turn(), Turn::Player(PlayerId(2)));
    // Only factories 1-5 offer moves.
    let mut moves = Vec::new();
    t.legal_actions(&mut moves);
    assert_eq!(moves.len(), 5 * 6);
    assert!(t.clone().try_apply(act("6B1")).is_err());
    // P3 completes its top row: the game ends after this round.
    t.try_apply(act("1B1")).unwrap();
    t.try_apply(act("2B2")).unwrap(); // P4: 2 on line 2, 2 on the floor
    t.try_apply(act("3BF")).unwrap(); // P1
    t.try_apply(act("4B3")).unwrap(); // P2: 3 on line 3, 1 on the floor
    t.try_apply(act("5BF")).unwrap(); // P3
    assert_eq!(t.phase(), Phase::Over);
    assert_eq!(t.turn(), Turn::Terminal);
    let full = tessera_azul::scoring::FULL_WALL;
    let p3 = t.board(PlayerId(2));
    // P3: the blue tile in row 1 col 1 joins a row of 5 and a column of 5: 10 points; floor
    // 3 blue + 4 blue overflow... floor had 3 (from 1B1) + 4 (5BF) = 7 tiles: -14.
    let row0_wall = p3.wall();
    assert_eq!(row0_wall & 0b11111, 0b11111);
    assert_eq!(
        p3.score(),
        30 + 10 - 14 + wall_bonus(row0_wall) as i32,
        "placement, floor, bonus"
    );
    assert!(p3.wall() != full);
    // The outcome names the best score.
    let out = t.outcome().unwrap();
    let best = *out.scores.as_slice().iter().max().unwrap();
    for w in &out.winners {
        assert_eq!(out.scores[*w], best);
    }
    t.check_invariants().unwrap();
}

#[test]
fn tie_break_on_complete_rows_then_shared_win() {
    let one_row = "BYRKW/...../...../...../.....";
    let two_rows = "BYRKW/WBYRK/...../...../.....";
    let s = state(&format!(
        "2 7 over 1 1 -/-/-/-/- 1 0,0,0,0,0 {{lid}} {} {}",
        board(50, NO_LINES, one_row, "-"),
        board(50, NO_LINES, two_rows, "-")
    ));
    let out = s.outcome().unwrap();
    assert_eq!(out.winners, vec![PlayerId(1)]);
    let s = state(&format!(
        "3 7 over 1 1 -/-/-/-/-/-/- 1 0,0,0,0,0 {{lid}} {} {} {}",
        board(50, NO_LINES, one_row, "-"),
        board(49, NO_LINES, two_rows, "-"),
        board(50, NO_LINES, one_row, "-")
    ));
    let out = s.outcome().unwrap();
    assert_eq!(out.winners, vec![PlayerId(0), PlayerId(2)], "a shared win");
    assert!(out.is_shared_winner(PlayerId(2)));
}

#[test]
fn score_is_clamped_at_zero() {
    // P1 has 3 points and 5 floor tiles about to become 7: -14 would go below 0.
    let s = state(&format!(
        "2 2 play 1 1 -/-/-/-/- 1RR 0,0,0,0,0 {{lid}} {} {}",
        board(3, NO_LINES, "B..../...../...../...../.....", "KKKKK"),
        board(0, NO_LINES, EMPTY_WALL, "-")
    ));
    let mut t = s.clone();
    let report = t.apply_reporting(act("CRF")).expect("the round ends");
    assert_eq!(t.board(PlayerId(0)).score(), 0);
    assert_eq!(report.boards[0].floor_penalty, 14);
    assert_eq!(report.boards[0].score_after_round, 0);
    assert_eq!(report.next_start, PlayerId(0));
    assert_eq!(t.turn(), Turn::Chance);
    assert_eq!(t.round(), 3);
}

#[test]
fn illegal_moves_are_refused_with_reasons() {
    let s = state(&format!(
        "2 2 play 1 1 BBYR/YYYY/-/-/- 1 0,0,0,0,0 {{lid}} {} {}",
        board(3, "-,R1,-,-,-", "B..../...../...../...../.....", "-"),
        board(0, NO_LINES, EMPTY_WALL, "-")
    ));
    let cases = [
        ("1B1", "already has blue"),
        ("1B2", "already holds red"),
        ("3B3", "has no blue"),
        ("6Y1", "no factory 6"),
        ("CK1", "centre has no black"),
    ];
    for (m, why) in cases {
        let mut t = s.clone();
        let err = t.try_apply(act(m)).expect_err(m).to_string();
        assert!(err.contains(why), "{m}: {err}");
        assert_eq!(t, s);
    }
    let mut t = s.clone();
    t.try_apply(act("1R2")).unwrap();
    assert_eq!(t.board(PlayerId(0)).pattern_line(1), Some((Colour::Red, 2)));
    let mut t2 = t.clone();
    t2.try_apply(act("2Y5")).unwrap();
    let mut t3 = t.clone();
    assert!(t3.try_apply(act("CB3")).is_ok());
}

#[test]
fn a_dead_end_ends_the_game() {
    // Found by random 4-player play: every row of every wall misses blue or yellow, and all
    // blue and yellow tiles sit in pattern lines that can never fill. Under the official
    // rules the game would never end.
    let dead: AzulState = "4 3001 deal 2 2 -/-/-/-/-/-/-/-/- 1 0,0,0,0,0 0,0,9,11,8 \
        0:-,-,B2,B2,B4:.YRKW/W.YRK/...../..W../.....:- \
        0:-,-,Y2,-,B4:.YRKW/W..RK/.W..R/RKW.Y/.....:- \
        0:-,-,Y2,B2,Y4:B.RKW/W.YRK/.W..R/...../.....:- \
        0:-,-,B2,B3,Y4:.YRKW/W.YRK/...Y./...../.....:-"
        .parse()
        .unwrap();
    assert!(!dead.row_completion_possible());
    // A new game and any freshly dealt position can still end normally.
    assert!(AzulState::new(4, PlayerId(0)).row_completion_possible());
    // One free blue tile would let P1 complete line 3 and then its top row.
    let alive: AzulState = "4 3001 deal 2 2 -/-/-/-/-/-/-/-/- 1 0,0,0,0,0 0,0,9,11,8 \
        0:-,-,B2,-,B4:.YRKW/W.YRK/...../..W../.....:- \
        0:-,-,Y2,-,B4:.YRKW/W..RK/.W..R/RKW.Y/.....:- \
        0:-,-,Y2,B2,Y4:B.RKW/W.YRK/.W..R/...../.....:- \
        0:-,-,B2,B3,Y4:.YRKW/W.YRK/...Y./...../.....:-"
        .replace("0,0,9,11,8", "2,0,9,11,8")
        .parse()
        .unwrap();
    assert!(alive.row_completion_possible());
    // Played on, the dead position ends after its next round.
    let mut s = dead.clone();
    let mut rng = seeded(1);
    while s.turn() != Turn::Terminal {
        match s.turn() {
            Turn::Chance => {
                let d = s.sample_chance(&mut rng);
                s.apply_chance(&d).unwrap();
            }
            _ => {
                let a = s.random_action(&mut rng).unwrap();
                s.apply(a);
            }
        }
        assert!(s.round() <= 3002);
    }
    assert_eq!(s.round(), 3001);
    assert!(s.outcome().is_some());
}

#[test]
fn out_of_range_actions_built_in_code_are_refused_without_panic() {
    use tessera_azul::{Dest, Source};
    let mut s = AzulState::new(2, PlayerId(0));
    s.apply_chance(&s.sample_chance(&mut seeded(1))).unwrap();
    for a in [
        AzulAction {
            source: Source::Factory(255),
            colour: Colour::Red,
            dest: Dest::Floor,
        },
        AzulAction {
            source: Source::Factory(0),
            colour: Colour::Red,
            dest: Dest::Line(255),
        },
    ] {
        let before = s.clone();
        assert!(s.try_apply(a).is_err());
        assert_eq!(s, before);
        let _ = a.to_string();
    }
}
