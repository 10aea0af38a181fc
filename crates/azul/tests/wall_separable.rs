//! Decider (c), the polynomial one: the thesis' examples, agreement with deciders (a) and (b)
//! on every partial permutation up to n = 8 and on random instances n = 9..12, and every
//! order it returns replayed by the wall scorers.

use tessera_azul::wall::grid::{Picture, TilingOrder, score_cells};
use tessera_azul::wall::separable::{
    MAX_SEPARABLE_SIDE, Obstruction, Sum, Verdict, compare_deciders, decide, hide_rows,
    is_completable, minimal_obstruction, random_partial, random_separable,
};
use tessera_azul::wall::tiling::{
    Occurrence, PartialPerm, Pattern, all_partial_perms, decide_closure, decide_patterns, schroder,
};

fn best(n: usize) -> u64 {
    (n * n * n + n * n - n) as u64
}

/// Checks a yes-verdict: the completion is a permutation extending the instance, its tree
/// is a valid separating tree of it, and its order covers the wall once and scores
/// n^3 + n^2 - n by the general scorer (and by the 5x5 scorer where it applies).
fn check_yes(p: &PartialPerm, v: &Verdict) {
    let Verdict::Yes(done) = v else {
        panic!("{p} should be a yes-instance");
    };
    let n = p.side();
    let perm = done.perm();
    assert_eq!(perm.len(), n);
    let mut seen = vec![false; n];
    for (r, &c) in perm.iter().enumerate() {
        assert!(!seen[c as usize], "{p}: column {c} twice");
        seen[c as usize] = true;
        if let Some(g) = p.col(r) {
            assert_eq!(g, c, "{p}: the completion moves the given tile of row {r}");
        }
    }
    // Every tree node's block holds exactly its rows' tiles, and its children split it.
    for node in done.tree() {
        let b = node.block;
        for (r, &c) in perm.iter().enumerate().skip(b.row).take(b.size) {
            let c = c as usize;
            assert!((b.col..b.col + b.size).contains(&c), "{p}: {node:?}");
            let first_rows = r < b.row + node.first;
            let first_cols = match node.sum {
                Sum::Direct => c < b.col + node.first,
                Sum::Skew => c >= b.col + b.size - node.first,
            };
            assert_eq!(first_rows, first_cols, "{p}: {node:?}");
        }
    }
    assert_eq!(done.tree().len(), n - 1, "{p}: a binary tree with n leaves");
    let order = done.order();
    assert_eq!(order.len(), n * n);
    assert_eq!(score_cells(n, order).unwrap(), best(n), "{p}");
    if n <= 5 {
        let cells = order
            .iter()
            .map(|&(r, c)| (r as usize * n + c as usize) as u8);
        let t = TilingOrder::new(Picture::empty(n).unwrap(), cells.collect()).unwrap();
        assert_eq!(u64::from(t.score()), best(n), "{p}");
    }
}

#[test]
fn thesis_examples() {
    // Figure 8: yes; Figures 9a and 9b: no.
    let fig8: PartialPerm = "(3,1,2,5,4)".parse().unwrap();
    let v = decide(&fig8).unwrap();
    check_yes(&fig8, &v);
    let fig9a: PartialPerm = "(2,4,1,3,5)".parse().unwrap();
    assert_eq!(decide(&fig9a).unwrap(), Verdict::No);
    // The obstruction is the 2413 in rows 1-4.
    assert_eq!(
        minimal_obstruction(&fig9a).unwrap(),
        Some(Obstruction::Pattern(Occurrence {
            pattern: Pattern::P2413,
            rows: [0, 1, 2, 3]
        }))
    );
    let fig9b: PartialPerm = "(2,5,1,_,_)".parse().unwrap();
    assert_eq!(decide(&fig9b).unwrap(), Verdict::No);
    // All three tiles are needed: (_,5,1,_,_) completes to 45123, (2,_,1,_,_) and
    // (2,5,_,_,_) complete too.
    assert_eq!(
        minimal_obstruction(&fig9b).unwrap(),
        Some(Obstruction::Tiles(vec![0, 1, 2]))
    );
    assert_eq!(minimal_obstruction(&fig8).unwrap(), None);
    // The docs' example: (3,1,2,_,_) is a yes-instance (e.g. 31254).
    let p: PartialPerm = "(3,1,2,_,_)".parse().unwrap();
    check_yes(&p, &decide(&p).unwrap());
}

#[test]
fn worked_example_completion() {
    // (_,2,4,1,_): the first rows-first split that looks free (row 1 to column 5, skew)
    // leaves 2,4,1 over columns 1..4 with 3 still to place after them: 2413. The program
    // must find another tree, e.g. 3 2 4 1 5.
    let p: PartialPerm = "(_,2,4,1,_)".parse().unwrap();
    let v = decide(&p).unwrap();
    check_yes(&p, &v);
    let Verdict::Yes(done) = v else {
        unreachable!()
    };
    let q = PartialPerm::complete(done.perm()).unwrap();
    assert!(decide_patterns(&q).unwrap().is_yes(), "{q} is separable");
}

#[test]
fn every_partial_permutation_up_to_7() {
    // Yes-instances per n from the CLI's comparison of deciders (a) and (b)
    // (docs/azul-wall-analysis.md).
    let yes = [2u64, 7, 34, 199, 1_310, 9_311, 69_702];
    for n in 1..=7 {
        let cmp = compare_deciders(n).unwrap();
        assert_eq!(
            cmp.disagreement_count, 0,
            "n = {n}: {:?}",
            cmp.disagreements
        );
        assert_eq!(cmp.yes_separable, yes[n - 1], "n = {n}");
        assert_eq!(cmp.yes_closure, cmp.yes_separable);
        assert_eq!(cmp.yes_patterns, cmp.yes_separable);
    }
}

/// All 1,441,729 partial permutations of n = 8 through all three deciders (about 6 s of CPU
/// in the test profile, parallel; deciders (a) and (b) take nearly all of it).
#[test]
fn every_partial_permutation_of_8() {
    let cmp = compare_deciders(8).unwrap();
    assert_eq!(cmp.instances, 1_441_729);
    assert_eq!(cmp.disagreement_count, 0, "{:?}", cmp.disagreements);
    assert_eq!(cmp.yes_separable, 541_367);
    assert_eq!(cmp.yes_closure, 541_367);
    assert_eq!(cmp.yes_patterns, 541_367);
}

#[test]
fn every_yes_order_scores_the_maximum_up_to_6() {
    for n in 1..=6 {
        let mut yes = 0u64;
        for p in all_partial_perms(n).unwrap() {
            if let v @ Verdict::Yes(_) = decide(&p).unwrap() {
                check_yes(&p, &v);
                yes += 1;
            }
        }
        assert!(yes > 0);
    }
}

#[test]
fn complete_permutations_count_schroder() {
    for n in 1..=8usize {
        let yes = all_partial_perms(n)
            .unwrap()
            .into_iter()
            .filter(|p| p.tiles() == n)
            .filter(|p| is_completable(p).unwrap())
            .count();
        assert_eq!(yes as u128, schroder(n - 1), "n = {n}");
    }
}

#[test]
fn random_instances_9_to_12_agree_with_both_deciders() {
    let mut rng = tessera_core::rng::seeded(17);
    let (mut yes, mut no) = (0, 0);
    for n in 9..=12usize {
        for i in 0..60 {
            // At most 8 empty rows so that the enumerating deciders stay fast; half the
            // instances from hidden rows of separable permutations (yes), half uniform.
            let keep = n - (i % 9).min(n);
            let p = if i % 2 == 0 {
                hide_rows(&random_separable(n, &mut rng), keep, &mut rng).unwrap()
            } else {
                random_partial(n, keep, &mut rng).unwrap()
            };
            let c = decide(&p).unwrap();
            assert_eq!(decide_closure(&p).unwrap().is_yes(), c.is_yes(), "{p}");
            assert_eq!(decide_patterns(&p).unwrap().is_yes(), c.is_yes(), "{p}");
            if c.is_yes() {
                check_yes(&p, &c);
                yes += 1;
            } else {
                no += 1;
            }
            if i % 2 == 0 {
                assert!(c.is_yes(), "{p} hides rows of a separable permutation");
            }
        }
    }
    assert!(yes >= 120 && no > 20, "yes {yes}, no {no}");
}

#[test]
fn large_yes_instances_give_optimal_orders() {
    let mut rng = tessera_core::rng::seeded(5);
    for n in [20usize, 50, 100, 150] {
        for keep in [0, n / 4, n / 2, n] {
            let perm = random_separable(n, &mut rng);
            let p = hide_rows(&perm, keep, &mut rng).unwrap();
            check_yes(&p, &decide(&p).unwrap());
        }
    }
}

#[test]
fn large_no_instances() {
    let mut rng = tessera_core::rng::seeded(9);
    // A separable permutation with a 2413 planted in four given rows is a no-instance,
    // whatever else is given.
    for n in [30usize, 100] {
        let perm = random_separable(n, &mut rng);
        let mut p = hide_rows(&perm, n / 2, &mut rng).unwrap();
        let cols: Vec<Option<u16>> = p
            .cols()
            .iter()
            .enumerate()
            .map(|(r, c)| if r < 4 { None } else { *c })
            .collect();
        // Free the four top rows and the columns they will use, then plant 2413 there.
        let mut cols = cols;
        let mut free: Vec<u16> = (0..n as u16)
            .filter(|c| !cols.contains(&Some(*c)))
            .collect();
        free.sort_unstable();
        let (a, b, c, d) = (free[0], free[1], free[2], free[3]);
        cols[0] = Some(b);
        cols[1] = Some(d);
        cols[2] = Some(a);
        cols[3] = Some(c);
        p = PartialPerm::new(cols).unwrap();
        assert_eq!(decide(&p).unwrap(), Verdict::No, "{p}");
        // Some 2413 or 3142 among the given tiles is found (the planted one or another).
        let Some(Obstruction::Pattern(occ)) = minimal_obstruction(&p).unwrap() else {
            panic!("{p}: a pattern among the given tiles");
        };
        let cols = occ.rows.map(|r| p.col(r).unwrap());
        let (w, x, y, z) = (cols[0], cols[1], cols[2], cols[3]);
        match occ.pattern {
            Pattern::P2413 => assert!(y < w && w < z && z < x, "{occ:?}"),
            Pattern::P3142 => assert!(x < z && z < w && w < y, "{occ:?}"),
        }
        assert!(occ.rows.windows(2).all(|w| w[0] < w[1]));
    }
}

/// No-instances whose given tiles avoid both patterns: the obstruction is a minimal set of
/// tiles, itself a no-instance, and every one of its tiles is needed.
#[test]
fn minimal_obstructions_are_minimal() {
    let mut rng = tessera_core::rng::seeded(11);
    let mut seen = 0;
    for _ in 0..400 {
        let n = 9;
        let p = random_partial(n, 3, &mut rng).unwrap();
        let Some(obs) = minimal_obstruction(&p).unwrap() else {
            continue;
        };
        assert!(!decide_patterns(&p).unwrap().is_yes(), "{p}");
        let Obstruction::Tiles(rows) = obs else {
            panic!("3 tiles cannot hold a 4-tile pattern: {p}");
        };
        let only = |skip: Option<usize>| {
            let cols = (0..n)
                .map(|r| {
                    if rows.contains(&r) && Some(r) != skip {
                        p.col(r)
                    } else {
                        None
                    }
                })
                .collect();
            PartialPerm::new(cols).unwrap()
        };
        assert!(!is_completable(&only(None)).unwrap(), "{p}: {rows:?}");
        for &r in &rows {
            assert!(
                is_completable(&only(Some(r))).unwrap(),
                "{p}: {rows:?} without {r}"
            );
        }
        seen += 1;
    }
    assert!(seen >= 10, "only {seen} no-instances");
}

#[test]
fn general_scorer_matches_the_5x5_scorer() {
    use rand::Rng;
    let mut rng = tessera_core::rng::seeded(3);
    for n in 1..=5usize {
        for _ in 0..200 {
            let mut cells: Vec<u8> = (0..(n * n) as u8).collect();
            for i in (1..cells.len()).rev() {
                let j = rng.random_range(0..=i);
                cells.swap(i, j);
            }
            let t = TilingOrder::new(Picture::empty(n).unwrap(), cells.clone()).unwrap();
            let pairs: Vec<(u16, u16)> = cells
                .iter()
                .map(|&x| ((x as usize / n) as u16, (x as usize % n) as u16))
                .collect();
            assert_eq!(score_cells(n, &pairs).unwrap(), u64::from(t.score()));
        }
    }
    // Bad orders are errors, not panics.
    assert!(score_cells(2, &[(0, 0), (0, 0)]).is_err());
    assert!(score_cells(2, &[(2, 0)]).is_err());
}

#[test]
fn too_large_is_an_error() {
    let p = PartialPerm::new(vec![None; MAX_SEPARABLE_SIDE + 1]).unwrap();
    assert!(decide(&p).is_err());
    // The enumerating deciders refuse sides above 16 instead of overflowing.
    let q = PartialPerm::new(vec![None; 17]).unwrap();
    assert!(decide_closure(&q).is_err());
    assert!(decide_patterns(&q).is_err());
}
