//! Worked examples of the thesis' players on hand-made positions.

use super::*;
use crate::AzulState;
use tessera_core::rng::seeded;

const LETTERS: [char; 5] = ['B', 'Y', 'R', 'K', 'W'];

/// A two-player position in the drafting phase, player 1 to move, with the bag holding
/// whatever the rest does not (so every colour totals 20). `lines` and `wall` are player
/// 1's; player 2's board is empty.
fn position(round: u32, factories: [&str; 5], lines: &str, wall: &str) -> AzulState {
    let mut used = [0u32; 5];
    let mut count = |s: &str| {
        for ch in s.chars() {
            if let Some(i) = LETTERS.iter().position(|&l| l == ch) {
                used[i] += 1;
            }
        }
    };
    for f in factories {
        count(f);
    }
    count(wall);
    for entry in lines.split(',') {
        let mut it = entry.chars();
        if let (Some(c), Some(n)) = (it.next(), it.next())
            && let Some(i) = LETTERS.iter().position(|&l| l == c)
        {
            used[i] += n.to_digit(10).unwrap_or(0);
        }
    }
    let bag: Vec<String> = used.iter().map(|u| (20 - u).to_string()).collect();
    let text = format!(
        "2 {round} play 1 1 {} 1 {} 0,0,0,0,0 0:{lines}:{wall}:- 0:-,-,-,-,-:...../...../...../...../.....:-",
        factories.join("/"),
        bag.join(",")
    );
    text.parse()
        .unwrap_or_else(|e| panic!("test position does not parse: {e}\n{text}"))
}

const EMPTY_WALL: &str = "...../...../...../...../.....";
const NO_LINES: &str = "-,-,-,-,-";

fn pick(agent: &mut dyn Agent<AzulState>, s: &AzulState) -> String {
    agent
        .choose(s, &Budget::default(), &mut seeded(0))
        .to_string()
}

#[test]
fn greedy_takes_the_most_tiles_that_fit_smart_the_fullest_line() {
    // Line 4 holds a yellow, so four blues fit only on line 5 (one cell left over); three
    // reds fill line 3 exactly.
    let s = position(
        2,
        ["BBBB", "RRRK", "YKWW", "YKWB", "KKRY"],
        "-,-,-,Y1,-",
        EMPTY_WALL,
    );
    assert_eq!(pick(&mut Greedy::new(), &s), "1B5");
    assert_eq!(pick(&mut Smart::new(), &s), "2R3");
}

#[test]
fn smart_prefers_a_wall_neighbour_over_more_tiles() {
    // Blue at (row 0, column 0) of the wall. Two whites on line 2 land at (1, 0), under it;
    // three reds on line 3 land at (2, 4), alone. (The single yellow of factory 3 would
    // also land next to the blue, at (0, 1), but comes later.)
    let s = position(
        2,
        ["RRRK", "WWRK", "YKBB", "YKRB", "KKYY"],
        NO_LINES,
        "B..../...../...../...../.....",
    );
    assert_eq!(pick(&mut Smart::new(), &s), "2W2");
    // Greedy ignores the wall and fills line 3 with the three reds.
    assert_eq!(pick(&mut Greedy::new(), &s), "1R3");
}

#[test]
fn strategic_prefers_two_neighbours_over_one() {
    // Blues at (0, 0) and (1, 1) of the wall (rows and columns from 0). Three whites on
    // line 3 land at (2, 1), under (1, 1): one neighbour. A yellow on line 1 lands at
    // (0, 1): (0, 0) beside it and (1, 1) under it: two neighbours.
    let s = position(
        2,
        ["WWWK", "YRRK", "KKBB", "KRBB", "KRRB"],
        NO_LINES,
        "B..../.B.../...../...../.....",
    );
    assert_eq!(pick(&mut Smart::new(), &s), "1W3");
    assert_eq!(pick(&mut Strategic::new(false, true), &s), "2Y1");
    assert_eq!(pick(&mut Strategic::new(true, true), &s), "2Y1");
    // The diagonal-only variant does not look for two neighbours.
    assert_eq!(pick(&mut Strategic::new(true, false), &s), "1W3");
}

#[test]
fn strategic_prefers_the_diagonal_in_the_first_round_only() {
    // Three reds fill line 3, landing at (2, 4): off the diagonal. Two blues fill line 2,
    // landing at (1, 1): on the main diagonal. Two yellows fill line 2 at (1, 2): on
    // neither diagonal.
    let factories = ["RRRK", "YYKW", "BBKW", "KWWY", "KKRY"];
    let round1 = position(1, factories, NO_LINES, EMPTY_WALL);
    let round2 = position(2, factories, NO_LINES, EMPTY_WALL);
    assert_eq!(pick(&mut Smart::new(), &round1), "1R3");
    assert_eq!(pick(&mut Strategic::new(true, false), &round1), "3B2");
    assert_eq!(pick(&mut Strategic::new(true, false), &round2), "1R3");
    // The anti-diagonal (row + column = 4): the single white of factory 2 fills line 1
    // and lands at (0, 4).
    let mut anti = Strategic::new(true, false);
    anti.axis = Diagonal::Anti;
    assert_eq!(pick(&mut anti, &round1), "2W1");
}

#[test]
fn when_nothing_fits_the_fewest_tiles_overflow() {
    // Lines 1-3 are full of yellow, line 4 holds a yellow, line 5 a red. Only yellow can
    // go on a line (line 4, three free cells): four yellows overflow by one.
    let s = position(
        2,
        ["BBBB", "YYYY", "KKKK", "WWWW", "BKWW"],
        "Y1,Y2,Y3,Y1,R1",
        EMPTY_WALL,
    );
    for agent in [
        &mut Greedy::new() as &mut dyn Agent<AzulState>,
        &mut Smart::new(),
        &mut Strategic::default(),
    ] {
        assert_eq!(pick(agent, &s), "2Y4");
    }
    // With `least` starting at 0 Greedy never takes an overflowing move: the first legal
    // move (factory 1's blues to the floor, the only place they can go).
    assert_eq!(pick(&mut Greedy::least_zero(), &s), "1BF");
}

#[test]
fn when_no_line_takes_anything_the_fewest_tiles_go_to_the_floor() {
    let s = position(
        2,
        ["BBBB", "KKKK", "KKWW", "WWWW", "BKWW"],
        "Y1,Y2,Y3,Y1,R1",
        EMPTY_WALL,
    );
    for agent in [
        &mut Greedy::new() as &mut dyn Agent<AzulState>,
        &mut Smart::new(),
        &mut Strategic::default(),
    ] {
        assert_eq!(pick(agent, &s), "5BF");
    }
}

#[test]
fn names_follow_the_registry() {
    assert_eq!(Greedy::new().name(), "greedy");
    assert_eq!(Smart::new().name(), "smart");
    assert_eq!(Strategic::default().name(), "strategic");
    assert_eq!(Strategic::new(true, false).name(), "strategic:diagonal");
    assert_eq!(Strategic::new(false, true).name(), "strategic:adjacent");
}

#[test]
fn players_finish_games_with_two_to_four_players() {
    for players in 2..=4 {
        for seed in 0..5 {
            let mut rng = seeded(seed);
            let mut s = AzulState::new_random(players, &mut rng);
            let mut agents: Vec<Box<dyn Agent<AzulState>>> = vec![
                Box::new(Greedy::new()),
                Box::new(Smart::new()),
                Box::new(Strategic::default()),
                Box::new(Strategic::new(false, true)),
            ];
            let mut steps = 0;
            while !s.is_terminal() {
                steps += 1;
                assert!(steps < 2000, "game does not end");
                match s.turn() {
                    tessera_core::Turn::Chance => {
                        let d = s.sample_chance(&mut rng);
                        s.apply_chance(&d).unwrap();
                    }
                    tessera_core::Turn::Player(p) => {
                        let a = agents[p.index()].choose(&s, &Budget::default(), &mut rng);
                        s.try_apply(a).unwrap();
                    }
                    tessera_core::Turn::Terminal => {}
                }
            }
            assert!(s.outcome().is_some());
        }
    }
}

/// Greedy under a reading of the pseudocode (docs/reproductions/azul-heuristics.md).
fn greedy(reading: GreedyReading) -> Greedy {
    Greedy::with_reading(reading)
}

#[test]
fn greedy_keeping_largest_for_the_round_skips_smaller_fits_until_the_next_round() {
    let reading = GreedyReading {
        scope: Scope::Round,
        keep_largest_only: true,
        ..GreedyReading::default()
    };
    let mut agent = greedy(reading);
    // Four blues fit line 5: `largest` becomes 4.
    let first = position(
        2,
        ["BBBB", "RRRK", "YKWW", "YKWB", "KKRY"],
        "-,-,-,Y1,-",
        EMPTY_WALL,
    );
    assert_eq!(pick(&mut agent, &first), "1B5");
    // Later in the same round the best fit has three reds (line 3), which is not more than
    // 4: the fit is skipped and the overflow branch picks the smallest overflow, the
    // first one found (three reds on line 2, one too many).
    let later = position(
        2,
        ["RRRK", "YKWW", "YKWB", "KKRY", "BYWK"],
        NO_LINES,
        EMPTY_WALL,
    );
    assert_eq!(pick(&mut Greedy::new(), &later), "1R3");
    assert_eq!(pick(&mut agent, &later), "1R2");
    // A new round starts `largest` afresh.
    let next_round = position(
        3,
        ["RRRK", "YKWW", "YKWB", "KKRY", "BYWK"],
        NO_LINES,
        EMPTY_WALL,
    );
    assert_eq!(pick(&mut agent, &next_round), "1R3");
    // Back to a round-2 position: another round, so afresh (largest 4 again); then a new
    // game (reset) starts afresh even in the same round number.
    assert_eq!(pick(&mut agent, &first), "1B5");
    assert_eq!(pick(&mut agent, &later), "1R2");
    agent.reset();
    assert_eq!(pick(&mut agent, &later), "1R3");
}

#[test]
fn greedy_keeping_largest_for_the_game_keeps_it_across_rounds() {
    let mut agent = greedy(GreedyReading {
        scope: Scope::Game,
        keep_largest_only: true,
        ..GreedyReading::default()
    });
    let first = position(
        2,
        ["BBBB", "RRRK", "YKWW", "YKWB", "KKRY"],
        "-,-,-,Y1,-",
        EMPTY_WALL,
    );
    assert_eq!(pick(&mut agent, &first), "1B5");
    let next_round = position(
        3,
        ["RRRK", "YKWW", "YKWB", "KKRY", "BYWK"],
        NO_LINES,
        EMPTY_WALL,
    );
    assert_eq!(pick(&mut agent, &next_round), "1R2");
    assert_eq!(agent.name(), "greedy:scope=game:keep=largest");
}

#[test]
fn greedy_reading_space_as_capacity_overfills_a_started_line() {
    // Line 5 holds two blues (three cells free): four blues overflow it by one. Read as the
    // line's capacity (5), they "fit" and are the largest group.
    let s = position(
        2,
        ["BBBB", "RRRK", "YKWW", "YKWW", "KKRY"],
        "-,-,-,Y1,B2",
        EMPTY_WALL,
    );
    assert_eq!(pick(&mut Greedy::new(), &s), "2R3");
    let mut capacity = greedy(GreedyReading {
        space: Space::Capacity,
        ..GreedyReading::default()
    });
    assert_eq!(pick(&mut capacity, &s), "1B5");
}

#[test]
fn greedy_visiting_all_lines_sends_an_illegal_choice_to_the_floor() {
    // Blue is already on the wall in row 5, so four blues may not go to line 5; visiting
    // every line, Greedy still finds they "fit" there, and the simulator drops them on the
    // floor.
    let col = crate::scoring::wall_column(4, crate::colour::Colour::Blue);
    let row5: String = (0..5).map(|c| if c == col { 'B' } else { '.' }).collect();
    let wall = format!("...../...../...../...../{row5}");
    let s = position(
        2,
        ["BBBB", "RRRK", "YKWW", "YKWW", "KKRY"],
        "-,-,-,Y1,-",
        &wall,
    );
    assert_eq!(pick(&mut Greedy::new(), &s), "2R3");
    let mut all = greedy(GreedyReading {
        lines: Lines::All,
        ..GreedyReading::default()
    });
    assert_eq!(pick(&mut all, &s), "1BF");
}

#[test]
fn greedy_fallback_when_nothing_is_chosen_is_the_first_or_a_random_legal_move() {
    // Nothing fits (groups of four, lines with at most three free cells that can take
    // them), and with `least` at 0 the overflow branch never fires.
    let s = position(
        2,
        ["BBBB", "YYYY", "RRRR", "KKKK", "WWWW"],
        "-,-,-,Y1,B2",
        EMPTY_WALL,
    );
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    let mut first = Greedy::least_zero();
    assert_eq!(pick(&mut first, &s), legal[0].to_string());
    let mut random = greedy(GreedyReading {
        least_zero: true,
        random_fallback: true,
        ..GreedyReading::default()
    });
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let a = random.choose(&s, &Budget::default(), &mut seeded(seed));
        assert!(legal.contains(&a));
        seen.insert(a);
    }
    assert!(seen.len() > 1, "a random fallback varies with the seed");
}
