//! The dynamic program against brute force, the thesis' figures, and worked examples.

use tessera_azul::wall::brute::BruteForce;
use tessera_azul::wall::{Picture, TilingOrder, WallDp};

/// Every partial wall of sides 1..=3 (all 2^9 for 3x3): the DP's best and worst completion
/// scores and both counts equal those of enumerating every order.
#[test]
fn dp_matches_brute_force_on_every_partial_wall_up_to_3x3() {
    for n in 1..=3usize {
        for bits in 0..(1u32 << (n * n)) {
            let start = Picture::from_bits(n, bits).unwrap();
            let dp = WallDp::solve(start);
            let brute = BruteForce::run(start).unwrap();
            assert_eq!(dp.best(), brute.best(), "best, n = {n}, start {start}");
            assert_eq!(dp.worst(), brute.worst(), "worst, n = {n}, start {start}");
            let free = (n * n) as u32 - start.count();
            assert_eq!(brute.orders(), (1..=free as u128).product::<u128>());
            for best in [true, false] {
                let order = dp.example_order(best);
                let want = if best { dp.best() } else { dp.worst() };
                assert_eq!(order.score(), want.score, "traced order, n = {n}, {start}");
            }
        }
    }
}

#[test]
fn figures_for_small_walls() {
    // n = 2: a 2x2 square (thesis Figure 4). Best 10 = 2^3 + 2^2 - 2; worst 8.
    let dp = WallDp::solve(Picture::empty(2).unwrap());
    assert_eq!(dp.best().score, 10);
    assert_eq!(dp.worst().score, 9);
    // Best 1 + 1 + 4 + 4: the first two tiles on a diagonal (2 diagonals x 2 orders), then
    // the other two in either order: 8 of the 24 orders. Worst 1 + 2 + 2 + 4: the second
    // tile next to the first (4 x 2), then either of the other two: 16 orders.
    assert_eq!(dp.best().count, 8);
    assert_eq!(dp.worst().count, 16);
    let brute = BruteForce::run(Picture::empty(2).unwrap()).unwrap();
    assert_eq!(brute.histogram.values().sum::<u128>(), 24);
    let dp3 = WallDp::solve(Picture::empty(3).unwrap());
    assert_eq!(dp3.best().score, 33);
}

/// The thesis' own figures: 145 (max without bonuses; 240 with the 95 bonus points of a full
/// wall), 89 (min). The counts were cross-checked by `plain_dp_5x5_counts_mod_2_64` (ignored:
/// 600 MB and ~15 s single-threaded).
#[test]
fn full_5x5_figures() {
    let dp = WallDp::solve(Picture::empty(5).unwrap());
    assert_eq!(dp.best().score, 145);
    assert_eq!(
        dp.best().score + tessera_azul::wall::dp::FULL_WALL_BONUS_5,
        240
    );
    assert_eq!(dp.worst().score, 89);
    assert_eq!(dp.best().count, 314_666_604_031_232);
    assert_eq!(dp.worst().count, 1_562_034_076_438_438_272);
    // The first tight order traced back is the thesis' Figure 7.
    let fig7 =
        TilingOrder::from_grid("25 24 23 22 11/21 20 19 7 12/18 17 4 8 13/16 2 5 9 14/1 3 6 10 15")
            .unwrap();
    assert_eq!(dp.example_order(true), fig7);
    assert_eq!(dp.example_order(false).score(), 89);
}

/// The plain program of the thesis for 5x5 with counts modulo 2^64 (wrapping): both true
/// counts are below 2^64, so they must agree exactly with the blocked program's.
#[test]
#[ignore = "plain 5x5 program: ~600 MB and several seconds; run with --ignored"]
fn plain_dp_5x5_counts_mod_2_64() {
    let n = 5;
    let size = 1usize << 25;
    let dp = WallDp::solve(Picture::empty(n).unwrap());
    for best_side in [true, false] {
        let mut score = vec![0u8; size];
        let mut count = vec![0u64; size];
        count[0] = 1;
        for q in 1..size {
            let mut s = if best_side { 0u8 } else { u8::MAX };
            let mut c = 0u64;
            let mut rest = q;
            while rest != 0 {
                let cell = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let p = q & !(1 << cell);
                let prev = Picture::from_bits(n, p as u32).unwrap();
                let pts = prev.placement(cell / n, cell % n).unwrap().score() as u8;
                let v = score[p] + pts;
                if (best_side && v > s) || (!best_side && v < s) {
                    s = v;
                    c = count[p];
                } else if v == s {
                    c = c.wrapping_add(count[p]);
                }
            }
            score[q] = s;
            count[q] = c;
        }
        let want = if best_side { dp.best() } else { dp.worst() };
        assert_eq!(score[size - 1] as u32, want.score);
        assert_eq!(count[size - 1] as u128, want.count);
    }
}

/// A plain dynamic program over every picture (numeric order, full arrays, the reference
/// scorer, counts carried forward): the thesis' pseudocode, for checking the blocked one.
fn plain_dp(n: usize) -> [(u32, u128); 2] {
    let size = 1usize << (n * n);
    let mut best = vec![(0u32, 1u128); size];
    let mut worst = vec![(0u32, 1u128); size];
    for q in 1..size {
        let (mut b, mut w) = ((0u32, 0u128), (u32::MAX, 0u128));
        for cell in 0..n * n {
            if q >> cell & 1 == 0 {
                continue;
            }
            let p = q & !(1 << cell);
            let prev = Picture::from_bits(n, p as u32).unwrap();
            let pts = prev.placement(cell / n, cell % n).unwrap().score();
            let (hi, lo) = (best[p].0 + pts, worst[p].0 + pts);
            if hi > b.0 {
                b = (hi, best[p].1);
            } else if hi == b.0 {
                b.1 += best[p].1;
            }
            if lo < w.0 {
                w = (lo, worst[p].1);
            } else if lo == w.0 {
                w.1 += worst[p].1;
            }
        }
        best[q] = b;
        worst[q] = w;
    }
    [best[size - 1], worst[size - 1]]
}

#[test]
fn blocked_dp_matches_plain_dp_up_to_4x4() {
    for n in 1..=4 {
        let dp = WallDp::solve(Picture::empty(n).unwrap());
        let [(b, bc), (w, wc)] = plain_dp(n);
        assert_eq!((dp.best().score, dp.best().count), (b, bc), "best, n = {n}");
        assert_eq!(
            (dp.worst().score, dp.worst().count),
            (w, wc),
            "worst, n = {n}"
        );
        // n^3 + n^2 - n (thesis section 3.1.2).
        assert_eq!(b as usize, n * n * n + n * n - n);
    }
}

#[test]
fn partial_4x4_walls_match_plain_dp_from_the_same_start() {
    // From a partial wall the program counts orders of the empty cells only; check against
    // brute force where that is small and against sub-results of the plain program shape.
    for wall in [
        "#.../..../..../...#",
        "##../#.../..../....",
        ".#../#.#./.#../....",
    ] {
        let start: Picture = wall.parse().unwrap();
        let dp = WallDp::solve(start);
        for best in [true, false] {
            let order = dp.example_order(best);
            let want = if best { dp.best() } else { dp.worst() };
            assert_eq!(order.score(), want.score, "{wall}");
            assert_eq!(order.start(), start);
        }
    }
    // 4x4 with 10 or fewer empty cells: brute force is cheap.
    for wall in [
        "###./###./#.../....",
        "####/#..#/#..#/.##.",
        "#.#./.#.#/#.#./.#.#",
    ] {
        let start: Picture = wall.parse().unwrap();
        let dp = WallDp::solve(start);
        let brute = BruteForce::run(start).unwrap();
        assert_eq!(dp.best(), brute.best(), "{wall}");
        assert_eq!(dp.worst(), brute.worst(), "{wall}");
    }
}

#[test]
fn thesis_figures_7_and_16_score_145_and_89() {
    let fig7 =
        TilingOrder::from_grid("25 24 23 22 11/21 20 19 7 12/18 17 4 8 13/16 2 5 9 14/1 3 6 10 15")
            .unwrap();
    assert_eq!(fig7.score(), 145);
    let fig16 =
        TilingOrder::from_grid("1 4 2 5 3/16 19 17 20 18/6 9 7 10 8/21 24 22 25 23/11 14 12 15 13")
            .unwrap();
    assert_eq!(fig16.score(), 89);
    // Figure 6: row by row, left to right: 141.
    let fig6 =
        TilingOrder::from_grid("1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 24 25")
            .unwrap();
    assert_eq!(fig6.score(), 141);
    // Per-tile components of Figure 7's tile 3 (bottom row, second column): score_x 2,
    // score_y 2 -> 4 points; tile 11 (top right) is lone -> 1 point.
    let p = fig7.placements();
    assert_eq!((p[2].horizontal, p[2].vertical, p[2].score()), (2, 2, 4));
    assert_eq!((p[10].horizontal, p[10].vertical, p[10].score()), (1, 1, 1));
}

#[test]
fn bad_input_is_rejected_with_a_reason() {
    assert!("#../..".parse::<Picture>().is_err());
    assert!("#x?/.../...".parse::<Picture>().is_err());
    assert!("0101".parse::<Picture>().is_ok());
    assert!("01010".parse::<Picture>().is_err());
    assert!(Picture::empty(6).is_err());
    assert!(TilingOrder::from_grid("1 2/3 3").is_err());
    assert!(TilingOrder::from_grid("1 2/3 5").is_err());
    let err = "#.#/..x/.?.".parse::<Picture>().unwrap_err().to_string();
    assert!(err.contains("row 3"), "{err}");
}
