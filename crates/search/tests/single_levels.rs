//! The single-agent solvers on the 12 Match the Tiles levels of the course project.

use tessera_search::single::{self, Algorithm, Options, Status};
use tessera_tiles::{Heuristic, builtin_levels};

const OPTIMA: [usize; 12] = [2, 4, 5, 5, 6, 6, 9, 13, 13, 6, 5, 7];

fn run(
    algo: Algorithm,
    h: Heuristic,
    opts: &Options,
) -> Vec<single::SearchResult<tessera_tiles::Dir>> {
    builtin_levels()
        .iter()
        .map(|level| single::solve(level, algo, |s| h.evaluate(level, s), opts))
        .collect()
}

#[test]
fn optimal_solvers_find_the_data_file_optima() {
    for skip_opposite in [true, false] {
        let opts = Options {
            skip_opposite,
            ..Options::default()
        };
        let optimal = [
            (Algorithm::Bfs, Heuristic::Zero),
            (Algorithm::Iddfs, Heuristic::Zero),
            (Algorithm::AStar, Heuristic::Admissible),
            (Algorithm::AStar, Heuristic::Zero),
            (Algorithm::IdaStar, Heuristic::Admissible),
        ];
        for (algo, h) in optimal {
            for (i, r) in run(algo, h, &opts).iter().enumerate() {
                let level = &builtin_levels()[i];
                assert_eq!(r.status, Status::Solved, "{algo}:{h} level {}", i + 1);
                let sol = r.solution.as_ref().unwrap();
                assert_eq!(
                    sol.len(),
                    OPTIMA[i],
                    "{algo}:{h} level {} skip {skip_opposite}",
                    i + 1
                );
                assert!(level.is_solution(sol));
                assert!(r.stats.expanded > 0 && r.stats.generated >= r.stats.expanded / 4);
                assert!(r.stats.peak_bytes > 0);
            }
        }
    }
}

#[test]
fn every_solver_and_heuristic_solves_every_level_with_a_valid_solution() {
    let opts = Options::default();
    for algo in Algorithm::ALL {
        let hs: &[Heuristic] = if algo.uses_heuristic() {
            &Heuristic::ALL
        } else {
            &[Heuristic::Zero]
        };
        for &h in hs {
            for (i, r) in run(algo, h, &opts).iter().enumerate() {
                let level = &builtin_levels()[i];
                assert_eq!(r.status, Status::Solved, "{algo}:{h} level {}", i + 1);
                let sol = r.solution.as_ref().unwrap();
                assert!(level.is_solution(sol), "{algo}:{h} level {}", i + 1);
                assert!(sol.len() >= OPTIMA[i]);
                if algo == Algorithm::Dfs {
                    assert!(sol.len() <= 20);
                }
            }
        }
    }
}

#[test]
fn skipping_opposite_moves_saves_work() {
    let with = run(Algorithm::Iddfs, Heuristic::Zero, &Options::default());
    let without = run(
        Algorithm::Iddfs,
        Heuristic::Zero,
        &Options {
            skip_opposite: false,
            ..Options::default()
        },
    );
    let a: u64 = with.iter().map(|r| r.stats.expanded).sum();
    let b: u64 = without.iter().map(|r| r.stats.expanded).sum();
    assert!(a * 2 < b, "{a} vs {b}");
}

#[test]
fn dfs_respects_its_depth_cap_and_limits_stop_searches() {
    let level = &builtin_levels()[7]; // optimum 13
    let capped = Options {
        dfs_depth_cap: 12,
        ..Options::default()
    };
    let r = single::dfs(level, &capped);
    assert_eq!(r.status, Status::NoSolution);
    let r = single::dfs(
        level,
        &Options {
            dfs_depth_cap: 13,
            ..Options::default()
        },
    );
    assert_eq!(r.solution_len(), Some(13));
    let r = single::iddfs(
        level,
        &Options {
            max_depth: 12,
            ..Options::default()
        },
    );
    assert_eq!(r.status, Status::NoSolution);
    let mut timed_out = 0;
    for algo in Algorithm::ALL {
        let r = single::solve(
            level,
            algo,
            |s| Heuristic::Zero.evaluate(level, s),
            &Options {
                node_limit: Some(3),
                ..Options::default()
            },
        );
        assert_eq!(r.status, Status::NodeLimit, "{algo}");
        assert!(r.stats.expanded <= 3);
        // A deadline already past stops every solver at its first look at the clock (after
        // 64 expansions) when it needs more than that on this level.
        let free = single::solve(
            level,
            algo,
            |s| Heuristic::Zero.evaluate(level, s),
            &Options::default(),
        );
        let r = single::solve(
            level,
            algo,
            |s| Heuristic::Zero.evaluate(level, s),
            &Options {
                deadline: Some(std::time::Instant::now()),
                ..Options::default()
            },
        );
        // The clock is read when 63 expansions are done.
        if free.stats.expanded > 63 {
            assert_eq!(r.status, Status::TimeLimit, "{algo}");
            assert!(r.stats.expanded <= 64, "{algo}: {}", r.stats.expanded);
            timed_out += 1;
        } else if free.stats.expanded < 63 {
            assert_eq!(r.status, free.status, "{algo}");
        }
    }
    assert!(timed_out >= 3, "only {timed_out} solvers reached the clock");
}

#[test]
fn algorithm_names_round_trip() {
    for a in Algorithm::ALL {
        assert_eq!(a.to_string().parse::<Algorithm>().unwrap(), a);
    }
    assert!("quantum".parse::<Algorithm>().is_err());
}
