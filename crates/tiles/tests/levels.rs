//! The model, the level format and the built-in solver on the 12 course levels.

use tessera_tiles::generator::{GenConfig, generate};
use tessera_tiles::{
    Dir, Heuristic, Level, ParseErrorKind, builtin_level, builtin_levels, format_moves,
    parse_levels,
};

const OPTIMA: [usize; 12] = [2, 4, 5, 5, 6, 6, 9, 13, 13, 6, 5, 7];

#[test]
fn twelve_levels_ship_with_their_optima_and_solutions() {
    let levels = builtin_levels();
    assert_eq!(levels.len(), 12);
    for (i, level) in levels.iter().enumerate() {
        assert_eq!(level.name(), (i + 1).to_string());
        assert_eq!(level.known_optimal(), Some(OPTIMA[i] as u32));
        let sol = level.known_solution().unwrap();
        assert_eq!(sol.len(), OPTIMA[i]);
        assert!(level.is_solution(sol), "level {}", i + 1);
    }
}

#[test]
fn builtin_bfs_finds_the_data_file_optima() {
    for (i, level) in builtin_levels().iter().enumerate() {
        let sol = level.optimal_solution(&level.start()).unwrap().unwrap();
        assert_eq!(sol.len(), OPTIMA[i], "level {}", i + 1);
        assert!(level.is_solution(&sol));
    }
}

#[test]
fn builtin_bfs_agrees_with_the_pathfinding_crate() {
    for level in builtin_levels() {
        let ours = level
            .optimal_solution(&level.start())
            .unwrap()
            .map(|s| s.len());
        let theirs = pathfinding::directed::bfs::bfs(
            &level.start(),
            |s| {
                Dir::ALL
                    .into_iter()
                    .filter_map(|d| level.apply(s, d))
                    .collect::<Vec<_>>()
            },
            |s| level.is_solved(s),
        )
        .map(|p| p.len() - 1);
        assert_eq!(ours, theirs);
    }
}

#[test]
fn worked_example_level_1() {
    // #p..        #p.P        #P..
    // ##pP  up -> ##pP  left-> ##P.   (up: the upper piece reaches the border first and the
    // .#.P        .#..        .#..    lower one stops below it; left: both slide over
    // ..#.        ..#.        ..#.    empty cells and targets to the obstacles)
    let level = builtin_level(1).unwrap();
    let s = level.apply(&level.start(), Dir::Up).unwrap();
    assert_eq!(level.render(&s), "#p.P\n##pP\n.#..\n..#.\n");
    let s = level.apply(&s, Dir::Left).unwrap();
    assert_eq!(level.render(&s), "#P..\n##P.\n.#..\n..#.\n");
    assert!(level.is_solved(&s));
    // From the start, Right moves nothing (both pieces are at the wall): not a move.
    assert_eq!(level.apply(&level.start(), Dir::Right), None);
}

#[test]
fn a_level_can_restart_from_a_reached_position() {
    let level = builtin_level(8).unwrap();
    let s = level.apply(&level.start(), Dir::Down).unwrap();
    let from_s = level.with_start(s);
    assert_eq!(from_s.start(), s);
    assert_eq!(from_s.known_optimal(), None);
    // The first move of the data file's solution is D, so 12 moves remain.
    assert_eq!(from_s.optimal_length().unwrap(), Some(12));
}

#[test]
fn pieces_nearer_the_wall_settle_first() {
    let level: Level = "PO..\n..po\n".parse().unwrap();
    let s = level.apply(&level.start(), Dir::Right).unwrap();
    assert_eq!(level.render(&s), "..PO\n..po\n");
    let s = level.apply(&s, Dir::Down).unwrap();
    assert!(level.is_solved(&s));
    // Same-colour pieces are interchangeable: both orders are one position.
    let level: Level = "P.P\n...\np.p\n".parse().unwrap();
    let a = level.state_from_cells(&[0, 2]).unwrap();
    let b = level.state_from_cells(&[2, 0]).unwrap();
    assert_eq!(a, b);
}

#[test]
fn a_move_then_its_opposite_equals_the_opposite_alone() {
    // The fact behind skipping opposite moves, checked on every reachable position.
    let mut rng = tessera_core::rng::seeded(11);
    let mut levels: Vec<Level> = builtin_levels().to_vec();
    for _ in 0..30 {
        let mut cfg = GenConfig::new(6, 3, 4);
        cfg.obstacle_density = 0.2;
        levels.push(generate(&cfg, &mut rng).unwrap());
    }
    let mut checked = 0;
    for level in &levels {
        for (s, _) in level.distances(&level.start(), 50, 1_000_000).unwrap() {
            for d in Dir::ALL {
                if let Some(t) = level.apply(&s, d) {
                    let back = level.apply(&t, d.opposite()).unwrap_or(t);
                    let direct = level.apply(&s, d.opposite()).unwrap_or(s);
                    assert_eq!(back, direct);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000);
}

#[test]
fn display_round_trips() {
    for level in builtin_levels() {
        let text = level.to_string();
        let back: Level = text.parse().unwrap();
        assert_eq!(back.to_string(), text);
        assert_eq!(back.start(), level.start());
        assert_eq!(back.known_solution(), level.known_solution());
    }
    let all: String = builtin_levels().iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(parse_levels(&all).unwrap().len(), 12);
}

fn error_at(text: &str) -> (usize, usize, ParseErrorKind) {
    let e = parse_levels(text).unwrap_err();
    (e.line, e.column, e.kind)
}

#[test]
fn parse_errors_name_line_and_column() {
    let (l, c, k) = error_at("# comment\nP..\n.p\n");
    assert_eq!((l, c), (3, 3));
    assert_eq!(
        k,
        ParseErrorKind::RaggedRow {
            expected: 3,
            found: 2
        }
    );
    let (l, c, k) = error_at("P..\n.p..\n");
    assert_eq!((l, c), (2, 4));
    assert_eq!(
        k,
        ParseErrorKind::RaggedRow {
            expected: 3,
            found: 4
        }
    );
    let (l, c, k) = error_at("level 1\nP.p\n.*.\n");
    assert_eq!((l, c, k), (3, 2, ParseErrorKind::UnknownChar('*')));
    let (l, c, k) = error_at("P.p\n.R.\n");
    assert_eq!((l, c), (2, 2));
    assert!(matches!(k, ParseErrorKind::NoTarget(col) if col.piece_char() == 'R'));
    let (l, c, k) = error_at("\n\n..p\n.#.\n");
    assert_eq!((l, c, k), (3, 1, ParseErrorKind::NoPieces));
    let (l, c, k) = error_at("PP\np.\n");
    assert_eq!((l, c), (1, 1));
    assert!(matches!(
        k,
        ParseErrorKind::TooFewTargets {
            pieces: 2,
            targets: 1,
            ..
        }
    ));
    let (l, c, k) = error_at("level 1 size 3x2\nP.p\n");
    assert_eq!((l, c), (1, 14));
    assert!(matches!(k, ParseErrorKind::SizeMismatch { .. }));
    let (l, c, _) = error_at("level 1 colour 3\nP.p\n");
    assert_eq!((l, c), (1, 9));
    let (l, c, _) = error_at("level 1 solution LX\nP.p\n");
    assert_eq!((l, c), (1, 19));
    let (l, c, k) = error_at("level 1 solution L\nP.p\n");
    assert_eq!((l, c), (1, 18));
    assert!(matches!(k, ParseErrorKind::BadSolution(_)));
    let (l, c, k) = error_at("level 1\n\nP.p\n");
    assert_eq!((l, c, k), (1, 1, ParseErrorKind::MissingGrid));
    let (_, _, k) = error_at("# only a comment\n");
    assert_eq!(k, ParseErrorKind::Empty);
    let e = parse_levels("P.p\n.*.\n").unwrap_err().to_string();
    assert!(
        e.starts_with("line 2, column 2: unknown character '*'"),
        "{e}"
    );
}

#[test]
fn move_notation() {
    assert_eq!(
        tessera_tiles::parse_moves("RD ru").unwrap(),
        [Dir::Right, Dir::Down, Dir::Right, Dir::Up]
    );
    assert!(tessera_tiles::parse_moves("RX").is_err());
    assert_eq!("left".parse::<Dir>().unwrap(), Dir::Left);
    assert!("sideways".parse::<Dir>().is_err());
    assert_eq!(format_moves(&[Dir::Up, Dir::Left]), "UL");
}

#[test]
fn admissible_heuristic_never_overestimates() {
    for level in builtin_levels() {
        // Exact distance to the goal of every reachable position, by BFS from each.
        for (s, _) in level.distances(&level.start(), 50, 100_000).unwrap() {
            let h = Heuristic::Admissible.evaluate(level, &s);
            // (an infinite estimate is only allowed on positions with no solution)
            if let Some(sol) = level.optimal_solution(&s).unwrap() {
                assert!(h <= sol.len() as f64, "{h} > {}", sol.len());
            }
            for d in Dir::ALL {
                if let Some(t) = level.apply(&s, d) {
                    // consistency: h drops by at most 1 per move
                    assert!(h <= Heuristic::Admissible.evaluate(level, &t) + 1.0);
                }
            }
        }
    }
}

#[test]
fn heuristic_names_round_trip_and_goals_score_zero_for_admissible() {
    for h in Heuristic::ALL
        .into_iter()
        .chain([Heuristic::Random { seed: 9 }])
    {
        assert_eq!(h.to_string().parse::<Heuristic>().unwrap(), h);
    }
    assert!("fancy".parse::<Heuristic>().is_err());
    let level = builtin_level(1).unwrap();
    let goal = level.replay(level.known_solution().unwrap()).unwrap();
    for h in [
        Heuristic::Admissible,
        Heuristic::Manhattan,
        Heuristic::Direction,
        Heuristic::Zero,
    ] {
        assert_eq!(h.evaluate(level, &goal), 0.0, "{h}");
    }
    assert!(Heuristic::Direction.evaluate(level, &level.start()) > 0.0);
}

#[test]
fn generator_hits_the_wanted_optimum_and_is_seeded() {
    for (i, (side, colours, opt)) in [(4, 1, 3), (5, 2, 6), (6, 3, 8), (8, 3, 10)]
        .into_iter()
        .enumerate()
    {
        let cfg = GenConfig::new(side, colours, opt);
        let a = generate(&cfg, &mut tessera_core::rng::seeded(i as u64)).unwrap();
        let b = generate(&cfg, &mut tessera_core::rng::seeded(i as u64)).unwrap();
        assert_eq!(a.to_string(), b.to_string());
        assert_eq!(a.optimal_length().unwrap(), Some(opt as usize));
        assert_eq!(
            (a.width(), a.height(), a.num_pieces()),
            (side, side, colours)
        );
        // The generated level is valid level text.
        let back: Level = a.to_string().parse().unwrap();
        assert_eq!(back.start(), a.start());
    }
    assert!(generate(&GenConfig::new(3, 0, 2), &mut tessera_core::rng::seeded(0)).is_err());
}

#[test]
fn generator_golden_value() {
    // Seeded generation must not drift (rand and the generator are pinned): this exact level.
    let level = generate(&GenConfig::new(5, 2, 6), &mut tessera_core::rng::seeded(1)).unwrap();
    assert_eq!(level.to_string(), GOLDEN);
    assert_eq!(level.optimal_length().unwrap(), Some(6));
}

const GOLDEN: &str = "level -  size 5x5  optimal 6\n.#.op\n.....\n..#..\nP..O#\n...##\n";
