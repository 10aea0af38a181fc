//! Differential tests on 1000 generated levels: every optimal solver agrees with BFS and
//! with the `pathfinding` crate, every solution is replayed, and unsolvable levels are
//! recognised by all.

use rand::Rng;
use tessera_core::rng::{derive_seed, seeded};
use tessera_search::single::{self, Algorithm, Options, Status};
use tessera_tiles::generator::{GenConfig, generate};
use tessera_tiles::{Dir, Heuristic, Level, State};

fn oracle(level: &Level) -> Option<usize> {
    pathfinding::directed::bfs::bfs(
        &level.start(),
        |s: &State| {
            Dir::ALL
                .into_iter()
                .filter_map(|d| level.apply(s, d))
                .collect::<Vec<_>>()
        },
        |s| level.is_solved(s),
    )
    .map(|p| p.len() - 1)
}

fn levels(n: u64, master: u64) -> Vec<Level> {
    (0..n)
        .map(|i| {
            let mut rng = seeded(derive_seed(master, i));
            let side = rng.random_range(4..=6);
            let colours = rng.random_range(1..=3);
            let mut cfg = GenConfig::new(side, colours, rng.random_range(1..=9));
            cfg.pieces_per_colour = if colours == 1 {
                rng.random_range(1..=2)
            } else {
                1
            };
            cfg.obstacle_density = rng.random_range(0.0..0.3);
            cfg.max_attempts = 200;
            // Small grids with one piece may have no position that far: ask for less.
            loop {
                match generate(&cfg, &mut rng) {
                    Ok(level) => break level,
                    Err(_) if cfg.optimal > 1 => cfg.optimal -= 1,
                    Err(e) => panic!("level {i}: {e}"),
                }
            }
        })
        .collect()
}

#[test]
fn optimal_solvers_agree_with_bfs_and_pathfinding_on_1000_levels() {
    let mut total_generated = [0u64; 2];
    for (i, level) in levels(1000, 2026).iter().enumerate() {
        let want = level.known_optimal().map(|o| o as usize);
        assert_eq!(oracle(level), want, "level {i}\n{level}");
        for skip_opposite in [true, false] {
            let opts = Options {
                skip_opposite,
                ..Options::default()
            };
            let bfs = single::bfs(level, &opts);
            assert_eq!(bfs.solution_len(), want, "bfs level {i}");
            total_generated[usize::from(skip_opposite)] += bfs.stats.generated;
            let runs = [
                (Algorithm::Iddfs, Heuristic::Zero),
                (Algorithm::AStar, Heuristic::Admissible),
                (Algorithm::AStar, Heuristic::Zero),
                (Algorithm::IdaStar, Heuristic::Admissible),
            ];
            for (algo, h) in runs {
                if !skip_opposite && algo == Algorithm::Iddfs && want > Some(7) {
                    continue; // without pruning IDDFS is 4^d: keep the default tests fast
                }
                let r = single::solve(level, algo, |s| h.evaluate(level, s), &opts);
                assert_eq!(r.solution_len(), want, "{algo}:{h} level {i}\n{level}");
                assert!(level.is_solution(r.solution.as_deref().unwrap_or_default()));
            }
        }
        // The non-optimal solvers return real solutions, never shorter than the optimum.
        let opts = Options::default();
        for (algo, h) in [
            (Algorithm::Dfs, Heuristic::Zero),
            (Algorithm::Greedy, Heuristic::Manhattan),
            (Algorithm::Greedy, Heuristic::Direction),
            (Algorithm::Greedy, Heuristic::Alignment),
            (Algorithm::Greedy, Heuristic::Random { seed: 3 }),
            (Algorithm::AStar, Heuristic::Direction),
        ] {
            let r = single::solve(level, algo, |s| h.evaluate(level, s), &opts);
            let sol = r
                .solution
                .unwrap_or_else(|| panic!("{algo}:{h} level {i}: {:?}", r.status));
            assert!(level.is_solution(&sol), "{algo}:{h} level {i}");
            assert!(Some(sol.len()) >= want);
        }
    }
    // Skipping opposite moves never changes the answer; BFS generates fewer duplicates.
    assert!(
        total_generated[1] < total_generated[0],
        "{total_generated:?}"
    );
}

#[test]
fn solvers_agree_on_levels_with_random_targets_some_unsolvable() {
    let mut unsolvable = 0;
    for (i, level) in levels(200, 77).iter().enumerate() {
        // Move every target to a random free cell: the result may have no solution.
        let mut rng = seeded(derive_seed(78, i as u64));
        let n = level.width() * level.height();
        let mut used: Vec<usize> = level.start().cells().collect();
        let mut targets = Vec::new();
        for &(_, colour) in level.targets() {
            let free: Vec<usize> = (0..n)
                .filter(|&c| !level.is_obstacle(c) && !used.contains(&c))
                .collect();
            let c = free[rng.random_range(0..free.len())];
            used.push(c);
            targets.push((c, colour));
        }
        let obstacles = (0..n).map(|c| level.is_obstacle(c)).collect();
        let pieces: Vec<_> = level
            .start()
            .cells()
            .enumerate()
            .map(|(k, c)| (c, level.piece_colour(k)))
            .collect();
        let level =
            Level::new(level.width(), level.height(), obstacles, &pieces, &targets).unwrap();
        let want = oracle(&level);
        if want.is_none() {
            unsolvable += 1;
        }
        let opts = Options {
            max_depth: 30,
            ..Options::default()
        };
        let bfs = single::bfs(&level, &opts);
        assert_eq!(bfs.solution_len(), want, "level {i}\n{level}");
        assert_eq!(bfs.status == Status::NoSolution, want.is_none());
        let astar = single::astar(&level, |s| Heuristic::Admissible.evaluate(&level, s), &opts);
        assert_eq!(astar.solution_len(), want, "level {i}\n{level}");
        let greedy = single::greedy(&level, |s| Heuristic::Direction.evaluate(&level, s), &opts);
        assert_eq!(greedy.solution.is_some(), want.is_some());
        let builtin = level
            .optimal_solution(&level.start())
            .unwrap()
            .map(|s| s.len());
        assert_eq!(builtin, want);
        if want.is_some_and(|w| w <= 10) {
            let ida = single::idastar(&level, |s| Heuristic::Admissible.evaluate(&level, s), &opts);
            assert_eq!(ida.solution_len(), want, "level {i}\n{level}");
        }
    }
    assert!(unsolvable > 10 && unsolvable < 190, "{unsolvable}");
}
