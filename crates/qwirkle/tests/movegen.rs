//! The placement generator against a brute-force enumerator written from the rules alone.
//!
//! The enumerator tries every set of empty cells in one row or column of a window around the
//! board (up to the hand size), every assignment of hand tiles to them, and keeps those a
//! naive rule check accepts. It shares no code with the generator except `Board::get`.

use std::collections::{BTreeSet, HashSet};

use rand::Rng;
use rand::seq::SliceRandom;
use tessera_core::rng::seeded;
use tessera_qwirkle::movegen::{Scored, can_place, placements};
use tessera_qwirkle::{Board, Tile};

type Key = Vec<(i32, i32, Tile)>;

fn naive_line_ok(tiles: &[Tile]) -> bool {
    if tiles.len() <= 1 {
        return true;
    }
    let same_color = tiles.iter().all(|t| t.color() == tiles[0].color());
    let same_shape = tiles.iter().all(|t| t.shape() == tiles[0].shape());
    let mut distinct = tiles.to_vec();
    distinct.sort();
    distinct.dedup();
    distinct.len() == tiles.len() && tiles.len() <= 6 && (same_color || same_shape)
}

/// The run of tiles through (x, y) along (dx, dy) with the placement laid on the board.
fn naive_line(
    board: &Board,
    placed: &[(i32, i32, Tile)],
    x: i32,
    y: i32,
    dx: i32,
    dy: i32,
) -> Vec<(i32, i32, Tile)> {
    let at = |x: i32, y: i32| {
        placed
            .iter()
            .find(|p| (p.0, p.1) == (x, y))
            .map(|p| p.2)
            .or_else(|| board.get(x, y))
    };
    let (mut sx, mut sy) = (x, y);
    while at(sx - dx, sy - dy).is_some() {
        sx -= dx;
        sy -= dy;
    }
    let mut out = Vec::new();
    while let Some(t) = at(sx, sy) {
        out.push((sx, sy, t));
        sx += dx;
        sy += dy;
    }
    out
}

/// Full legality check of a non-first placement; returns the score if legal.
fn naive_check(board: &Board, placed: &[(i32, i32, Tile)]) -> Option<i32> {
    let row = placed.iter().all(|p| p.1 == placed[0].1);
    let col = placed.iter().all(|p| p.0 == placed[0].0);
    if !row && !col {
        return None;
    }
    if placed.iter().any(|p| board.get(p.0, p.1).is_some()) {
        return None;
    }
    // Contiguous: every cell between the extremes is filled.
    let (dx, dy) = if row { (1, 0) } else { (0, 1) };
    let lo = placed.iter().map(|p| p.0 * dx + p.1 * dy).min()?;
    let hi = placed.iter().map(|p| p.0 * dx + p.1 * dy).max()?;
    for v in lo..=hi {
        let (x, y) = if row {
            (v, placed[0].1)
        } else {
            (placed[0].0, v)
        };
        if !placed.iter().any(|p| (p.0, p.1) == (x, y)) && board.get(x, y).is_none() {
            return None;
        }
    }
    let touches = placed.iter().any(|p| {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .any(|(ddx, ddy)| board.get(p.0 + ddx, p.1 + ddy).is_some())
    });
    if !touches {
        return None;
    }
    // Every line through a placed tile is valid; score each distinct line of 2+ once.
    let mut lines: BTreeSet<Vec<(i32, i32)>> = BTreeSet::new();
    for p in placed {
        for (ldx, ldy) in [(1, 0), (0, 1)] {
            let line = naive_line(board, placed, p.0, p.1, ldx, ldy);
            let tiles: Vec<Tile> = line.iter().map(|c| c.2).collect();
            if !naive_line_ok(&tiles) {
                return None;
            }
            if line.len() >= 2 {
                lines.insert(line.iter().map(|c| (c.0, c.1)).collect());
            }
        }
    }
    let score: i32 = lines
        .iter()
        .map(|l| l.len() as i32 + if l.len() == 6 { 6 } else { 0 })
        .sum();
    Some(score.max(1))
}

fn brute_force(board: &Board, hand: &[Tile]) -> HashSet<(Key, i32)> {
    let mut out = HashSet::new();
    let Some((x0, y0, x1, y1)) = board.bounds() else {
        return out;
    };
    let h = hand.len() as i32;
    let (x0, y0, x1, y1) = (x0 - h, y0 - h, x1 + h, y1 + h);
    let mut lines: Vec<Vec<(i32, i32)>> = Vec::new();
    for y in y0..=y1 {
        lines.push((x0..=x1).map(|x| (x, y)).collect());
    }
    for x in x0..=x1 {
        lines.push((y0..=y1).map(|y| (x, y)).collect());
    }
    for line in &lines {
        let empty: Vec<(i32, i32)> = line
            .iter()
            .copied()
            .filter(|&(x, y)| board.get(x, y).is_none())
            .collect();
        // Every subset of the line's empty cells of size 1..=hand.
        let mut subset: Vec<usize> = Vec::new();
        fn subsets(
            n: usize,
            k: usize,
            start: usize,
            cur: &mut Vec<usize>,
            f: &mut dyn FnMut(&[usize]),
        ) {
            if !cur.is_empty() {
                f(cur);
            }
            if cur.len() == k {
                return;
            }
            for i in start..n {
                cur.push(i);
                subsets(n, k, i + 1, cur, f);
                cur.pop();
            }
        }
        subsets(
            empty.len(),
            hand.len(),
            0,
            &mut subset,
            &mut |s: &[usize]| {
                let cells: Vec<(i32, i32)> = s.iter().map(|&i| empty[i]).collect();
                // Rules that do not depend on the tiles first (contiguity, touching), so that
                // the tile assignments are tried only on cell sets that can be legal; the full
                // check below tests everything again.
                let (a, b) = (cells[0], cells[cells.len() - 1]);
                let span = (b.0 - a.0).abs().max((b.1 - a.1).abs()) + 1;
                let filled_between = line
                    .iter()
                    .filter(|&&(x, y)| {
                        x >= a.0.min(b.0)
                            && x <= a.0.max(b.0)
                            && y >= a.1.min(b.1)
                            && y <= a.1.max(b.1)
                    })
                    .filter(|&&(x, y)| board.get(x, y).is_some())
                    .count() as i32;
                if filled_between + cells.len() as i32 != span {
                    return;
                }
                let touches = cells.iter().any(|&(x, y)| {
                    [(1, 0), (-1, 0), (0, 1), (0, -1)]
                        .iter()
                        .any(|(dx, dy)| board.get(x + dx, y + dy).is_some())
                });
                if !touches {
                    return;
                }
                // Every injective assignment of hand tiles to the cells.
                let mut used = vec![false; hand.len()];
                let mut placed: Vec<(i32, i32, Tile)> = Vec::new();
                fn assign(
                    cells: &[(i32, i32)],
                    hand: &[Tile],
                    used: &mut [bool],
                    placed: &mut Vec<(i32, i32, Tile)>,
                    board: &Board,
                    out: &mut HashSet<(Key, i32)>,
                ) {
                    if placed.len() == cells.len() {
                        if let Some(score) = naive_check(board, placed) {
                            let mut key = placed.clone();
                            key.sort_by_key(|p| (p.1, p.0));
                            out.insert((key, score));
                        }
                        return;
                    }
                    let (x, y) = cells[placed.len()];
                    for i in 0..hand.len() {
                        if used[i] {
                            continue;
                        }
                        used[i] = true;
                        placed.push((x, y, hand[i]));
                        assign(cells, hand, used, placed, board, out);
                        placed.pop();
                        used[i] = false;
                    }
                }
                assign(&cells, hand, &mut used, &mut placed, board, &mut out);
            },
        );
    }
    out
}

fn generated(board: &Board, hand: &[Tile]) -> (usize, HashSet<(Key, i32)>) {
    let mut v: Vec<Scored> = Vec::new();
    placements(board, hand, None, &mut v);
    let set = v
        .iter()
        .map(|s| {
            let key: Key = s
                .placement
                .cells()
                .iter()
                .map(|c| (c.x as i32, c.y as i32, c.tile))
                .collect();
            (key, s.score)
        })
        .collect();
    (v.len(), set)
}

/// A random board: tiles from a restricted set (so that long lines and gaps happen), laid by
/// repeatedly choosing a random legal placement of a random hand.
fn random_position(rng: &mut tessera_core::GameRng, max_hand: usize) -> (Board, Vec<Tile>) {
    let colors = rng.random_range(2..=6u8);
    let shapes = rng.random_range(2..=6u8);
    let mut pool: Vec<Tile> = Vec::new();
    for c in 0..colors {
        for s in 0..shapes {
            for _ in 0..3 {
                pool.push(Tile::new(c, s));
            }
        }
    }
    pool.shuffle(rng);
    let mut board = Board::new();
    let steps = rng.random_range(1..=12);
    let mut buf = Vec::new();
    for _ in 0..steps {
        if pool.len() < 10 {
            break;
        }
        let hand: Vec<Tile> = pool.iter().rev().take(4).copied().collect();
        placements(&board, &hand, None, &mut buf);
        if buf.is_empty() {
            pool.shuffle(rng);
            continue;
        }
        let pick = buf[rng.random_range(0..buf.len())];
        for c in pick.placement.cells() {
            board.place(c.x as i32, c.y as i32, c.tile);
            if let Some(i) = pool.iter().rposition(|&t| t == c.tile) {
                pool.remove(i);
            }
        }
        pool.shuffle(rng);
    }
    let n = rng.random_range(1..=max_hand);
    let hand: Vec<Tile> = if rng.random_bool(0.3) {
        // Duplicates on purpose.
        let t = pool[0];
        let mut h = vec![t; n.min(2)];
        h.extend(pool.iter().skip(1).take(n.saturating_sub(2)));
        h
    } else {
        pool.iter().take(n).copied().collect()
    };
    (board, hand)
}

fn compare(seed: u64, positions: usize, max_hand: usize) {
    let mut rng = seeded(seed);
    let mut total = 0;
    let mut multi = 0;
    for i in 0..positions {
        let (board, hand) = random_position(&mut rng, max_hand);
        let (n, gen_set) = generated(&board, &hand);
        assert_eq!(
            n,
            gen_set.len(),
            "position {i}: generator emitted duplicates"
        );
        let brute = brute_force(&board, &hand);
        if gen_set != brute {
            let board_text: Vec<String> = board
                .tiles()
                .map(|b| format!("{}@{},{}", b.tile, b.x, b.y))
                .collect();
            let missing: Vec<_> = brute.difference(&gen_set).take(5).collect();
            let extra: Vec<_> = gen_set.difference(&brute).take(5).collect();
            panic!(
                "position {i}: board {} hand {:?}\nmissing {missing:?}\nextra {extra:?}",
                board_text.join(";"),
                hand.iter().map(|t| t.to_string()).collect::<Vec<_>>()
            );
        }
        assert_eq!(can_place(&board, &hand), !brute.is_empty(), "position {i}");
        total += brute.len();
        multi += brute.iter().filter(|(k, _)| k.len() >= 2).count();
    }
    assert!(total > positions, "too few placements overall: {total}");
    assert!(
        multi > positions / 4,
        "too few multi-tile placements: {multi}"
    );
}

#[test]
fn generator_matches_brute_force_small_hands() {
    compare(11, 3000, 4);
}

#[test]
fn generator_matches_brute_force_full_hands() {
    compare(12, 60, 6);
}

/// Gap filling and both ends of a line, by hand: `R1 _ R3` with `R2 R4 R6` in hand.
#[test]
fn gap_and_both_ends() {
    let mut b = Board::new();
    let t = |s: &str| s.parse::<Tile>().unwrap();
    b.place(0, 0, t("R1"));
    b.place(2, 0, t("R3"));
    let hand = [t("R2"), t("R4"), t("R6")];
    let (_, set) = generated(&b, &hand);
    let has = |cells: &[(i32, i32, &str)]| {
        let key: Key = cells.iter().map(|&(x, y, s)| (x, y, t(s))).collect();
        set.iter().any(|(k, _)| *k == key)
    };
    // Fill the gap and extend both ends at once: R4 R1 R2 R3 R6 = 5 tiles, 5 points.
    assert!(has(&[(-1, 0, "R4"), (1, 0, "R2"), (3, 0, "R6")]));
    assert!(set.contains(&(vec![(-1, 0, t("R4")), (1, 0, t("R2")), (3, 0, t("R6"))], 5)));
    // The gap alone joins R1 and R3: 3 points.
    assert!(set.contains(&(vec![(1, 0, t("R2"))], 3)));
    // Placing beyond the gap without filling it is not a placement.
    assert!(!has(&[(1, 0, "R2"), (4, 0, "R4")]));
}

/// Many more positions (run with `cargo test -p tessera-qwirkle --release -- --ignored`).
#[test]
#[ignore]
fn generator_matches_brute_force_thorough() {
    compare(21, 30_000, 4);
    compare(22, 1_000, 6);
}

/// The first placement with the most points in generation order, from the full list.
fn first_best(board: &Board, hand: &[Tile]) -> Option<Scored> {
    let mut v: Vec<Scored> = Vec::new();
    placements(board, hand, None, &mut v);
    let mut best: Option<Scored> = None;
    for c in &v {
        if best.is_none_or(|b| c.score > b.score) {
            best = Some(*c);
        }
    }
    best
}

/// `best_placement` chooses exactly what the full generator's first best placement is: on
/// random boards with gaps and long lines (hands of 1-6, duplicates too) and on every turn
/// of seeded points-bot games with the mover's hand and with random other hands.
#[test]
fn the_best_placement_is_the_generators_first_best() {
    use tessera_core::{Game, Turn};
    use tessera_qwirkle::Qwirkle;
    use tessera_qwirkle::movegen::{BestScratch, best_placement};
    let mut scratch = BestScratch::new();
    let mut rng = seeded(31);
    let mut found = 0;
    for i in 0..4000 {
        let (board, hand) = random_position(&mut rng, if i % 2 == 0 { 4 } else { 6 });
        let want = first_best(&board, &hand);
        found += usize::from(want.is_some());
        assert_eq!(
            best_placement(&board, &hand, None, &mut scratch),
            want,
            "random position {i}: board {} hand {hand:?}",
            board.notation()
        );
    }
    assert!(found > 2000, "only {found} positions with a placement");
    let mut positions = 0;
    for seed in 0..40u64 {
        let mut g = Qwirkle::new(2 + seed as usize % 3).unwrap();
        let mut buf = Vec::new();
        while !g.is_terminal() {
            match g.turn() {
                Turn::Chance => {
                    let d = g.sample_chance(&mut rng);
                    g.apply_chance(&d).unwrap();
                }
                Turn::Player(_) => {
                    g.scored_placements(&mut buf);
                    let want = buf.iter().fold(None::<Scored>, |b, c| {
                        if b.is_none_or(|b| c.score > b.score) {
                            Some(*c)
                        } else {
                            b
                        }
                    });
                    assert_eq!(g.best_placement(&mut scratch), want, "seed {seed}");
                    // Other hands of every size on the same board.
                    let mut unseen: Vec<Tile> = g.bag().tiles().collect();
                    unseen.shuffle(&mut rng);
                    for n in 1..=6.min(unseen.len()) {
                        let hand = &unseen[..n];
                        assert_eq!(
                            best_placement(g.board(), hand, None, &mut scratch),
                            first_best(g.board(), hand),
                            "seed {seed}: board {} hand {hand:?}",
                            g.board().notation()
                        );
                    }
                    positions += 1;
                    let m = match want {
                        Some(b) => tessera_qwirkle::Move::Place(b.placement),
                        None => {
                            let mut legal = Vec::new();
                            g.legal_actions(&mut legal);
                            legal[0]
                        }
                    };
                    g.apply(m);
                }
                Turn::Terminal => {}
            }
        }
    }
    assert!(positions > 1000, "only {positions} game positions");
}

/// With ties broken at random (`BestScratch::break_ties`), `best_placement` still returns a
/// placement the generator lists with the best score, on random boards and on a first move;
/// where several start cells tie it returns more than one of them over repeated draws, and
/// the generator's first only some of the time; the draws replay from the seed; and without
/// the generator it is the first best again.
#[test]
fn ties_broken_at_random_keep_the_best_score_and_vary_the_cells() {
    use tessera_qwirkle::movegen::{BestScratch, best_placement};
    let mut scratch = BestScratch::new();
    let mut rng = seeded(47);
    let (mut tied, mut varied, mut first_kept, mut draws) = (0, 0, 0, 0);
    for i in 0..2000u64 {
        let (board, hand) = random_position(&mut rng, if i % 2 == 0 { 4 } else { 6 });
        let mut all: Vec<Scored> = Vec::new();
        placements(&board, &hand, None, &mut all);
        let want = first_best(&board, &hand);
        let pick = |scratch: &mut BestScratch, seed: u64| {
            scratch.break_ties(Some(seeded(seed)));
            let r = best_placement(&board, &hand, None, scratch);
            scratch.break_ties(None);
            r
        };
        let Some(best) = want else {
            assert_eq!(pick(&mut scratch, i), None, "position {i}");
            continue;
        };
        let starts: HashSet<_> = all
            .iter()
            .filter(|c| c.score == best.score)
            .map(|c| {
                let cells = c.placement.cells();
                let first = cells.iter().map(|p| (p.y, p.x)).min();
                (first, cells.len())
            })
            .collect();
        let mut seen = HashSet::new();
        for k in 0..8 {
            let r = pick(&mut scratch, i * 8 + k).expect("a placement");
            assert_eq!(r.score, best.score, "position {i}");
            assert!(all.contains(&r), "position {i}: {r:?} is not generated");
            assert_eq!(
                pick(&mut scratch, i * 8 + k),
                Some(r),
                "position {i}: replays"
            );
            seen.insert(r.placement);
            if starts.len() > 1 {
                draws += 1;
                first_kept += usize::from(r == best);
            }
        }
        if starts.len() > 1 {
            tied += 1;
            varied += usize::from(seen.len() > 1);
        }
        assert_eq!(
            best_placement(&board, &hand, None, &mut scratch),
            want,
            "position {i}: ties off"
        );
    }
    assert!(tied > 200, "only {tied} positions with tied start cells");
    assert!(
        varied * 10 > tied * 8,
        "{varied} of {tied} tied positions varied"
    );
    assert!(
        first_kept * 10 < draws * 7,
        "the first kept {first_kept} of {draws} draws"
    );
    // A first move: every placement of the largest group scores the same; the draws pick
    // different ones, each generated.
    let hand: Vec<Tile> = ["R1", "R2", "R3", "B5", "Y6", "Y6"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    let mut all: Vec<Scored> = Vec::new();
    placements(&Board::new(), &hand, Some(3), &mut all);
    let mut seen = HashSet::new();
    for k in 0..20 {
        scratch.break_ties(Some(seeded(k)));
        let r = best_placement(&Board::new(), &hand, Some(3), &mut scratch).expect("a first move");
        assert!(all.contains(&r) && r.placement.len() == 3, "{r:?}");
        seen.insert(r.placement);
    }
    scratch.break_ties(None);
    assert!(seen.len() > 3, "{} first moves drawn", seen.len());
}
