//! OptimalAzulTiling: the two deciders, Table 1, the thesis' examples.

use tessera_azul::wall::separable::compare_deciders;
use tessera_azul::wall::tiling::{
    Decision, PartialPerm, Pattern, count_separable, count_yes_plain, count_yes_pruned,
    decide_closure, decide_patterns, find_pattern, schroder,
};

#[test]
fn thesis_examples() {
    // Figure 8: (3,1,2,5,4) is a yes-instance; Figure 9a (2,4,1,3,5) and 9b (2,5,1,_,_) no.
    let yes: PartialPerm = "(3,1,2,5,4)".parse().unwrap();
    assert!(decide_closure(&yes).unwrap().is_yes());
    assert!(decide_patterns(&yes).unwrap().is_yes());
    let no: PartialPerm = "(2,4,1,3,5)".parse().unwrap();
    match decide_closure(&no).unwrap() {
        Decision::Stuck { completions, .. } => assert_eq!(completions, 1),
        other => panic!("{other:?}"),
    }
    match decide_patterns(&no).unwrap() {
        Decision::Blocked {
            in_given: Some(occ),
            ..
        } => {
            assert_eq!(occ.pattern, Pattern::P2413);
            assert_eq!(occ.rows, [0, 1, 2, 3]);
        }
        other => panic!("{other:?}"),
    }
    let partial: PartialPerm = "(2, 5, 1, _, _)".parse().unwrap();
    assert_eq!(partial.to_string(), "(2, 5, 1, _, _)");
    match decide_closure(&partial).unwrap() {
        Decision::Stuck { completions, .. } => assert_eq!(completions, 2),
        other => panic!("{other:?}"),
    }
    match decide_patterns(&partial).unwrap() {
        Decision::Blocked {
            in_given: None,
            example: Some((_, occ)),
        } => assert_eq!(occ.pattern, Pattern::P2413),
        other => panic!("{other:?}"),
    }
    // The yes witness: the closure's tiles all have both neighbours and fill the wall.
    if let Decision::Closes { completion, order } = decide_closure(&yes).unwrap() {
        assert_eq!(completion, vec![2, 0, 1, 4, 3]);
        assert_eq!(order.len(), 20);
    } else {
        panic!("Figure 8 is a yes-instance");
    }
}

#[test]
fn bad_instances_are_rejected() {
    assert!("(1,1,2)".parse::<PartialPerm>().is_err());
    assert!("(1,4,2)".parse::<PartialPerm>().is_err());
    assert!("(a,2)".parse::<PartialPerm>().is_err());
    assert!("()".parse::<PartialPerm>().is_err());
    assert!(count_yes_pruned(17).is_err());
    assert!(count_yes_plain(0).is_err());
}

#[test]
fn pattern_search_finds_both_patterns() {
    let p: PartialPerm = "(3,1,4,2)".parse().unwrap();
    assert_eq!(find_pattern(&p).map(|o| o.pattern), Some(Pattern::P3142));
    let p: PartialPerm = "(1,2,3,4)".parse().unwrap();
    assert_eq!(find_pattern(&p), None);
}

/// Table 1 by decider (a), both ways, equals the Schröder numbers and decider (b)'s count,
/// up to n = 8 (the thesis lists 1, 2, 6, 22, 90, 394, 1806, 8558, ...).
#[test]
fn table1_small() {
    let thesis = [1u128, 2, 6, 22, 90, 394, 1806, 8558];
    for n in 1..=8 {
        let plain = count_yes_plain(n).unwrap() as u128;
        let pruned = count_yes_pruned(n).unwrap().0 as u128;
        let sep = count_separable(n).unwrap() as u128;
        assert_eq!(plain, thesis[n - 1], "n = {n}");
        assert_eq!(pruned, plain, "n = {n}");
        assert_eq!(sep, plain, "n = {n}");
        assert_eq!(schroder(n - 1), plain, "n = {n}");
    }
}

/// Both deciders on every partial permutation of side n <= 6 (the CLI does n <= 8).
#[test]
fn deciders_agree_on_every_partial_permutation() {
    for n in 1..=6 {
        let cmp = compare_deciders(n).unwrap();
        assert_eq!(
            cmp.disagreement_count, 0,
            "n = {n}: {:?}",
            cmp.disagreements
        );
        assert!(cmp.yes_closure > 0);
        // From n = 4 on, walls with a 2413 or 3142 exist: some instances are no.
        assert_eq!(cmp.yes_closure < cmp.instances, n >= 4, "n = {n}");
    }
    // n = 4: 209 partial permutations (sum over k of C(4,k)^2 k!).
    assert_eq!(compare_deciders(4).unwrap().instances, 209);
}

/// The independent check by the dynamic program over pictures, for all three deciders. A
/// partial permutation with k tiles is a yes-instance exactly when the best completion of
/// that wall scores n^3 + n^2 - n - k (the k given tiles, placed first, are lone and score 1 each).
#[test]
fn deciders_agree_with_the_dynamic_program_up_to_4x4() {
    use tessera_azul::wall::{Picture, WallDp};
    for n in 1..=4usize {
        let mut checked = 0;
        let mut stack = vec![Vec::<Option<u16>>::new()];
        while let Some(cols) = stack.pop() {
            if cols.len() < n {
                for c in std::iter::once(None).chain((0..n as u16).map(Some)) {
                    if c.is_some() && cols.contains(&c) {
                        continue;
                    }
                    let mut next = cols.clone();
                    next.push(c);
                    stack.push(next);
                }
                continue;
            }
            let p = PartialPerm::new(cols.clone()).unwrap();
            let mut bits = 0u32;
            for (r, c) in cols.iter().enumerate() {
                if let Some(c) = c {
                    bits |= 1 << (r * n + *c as usize);
                }
            }
            let dp = WallDp::solve(Picture::from_bits(n, bits).unwrap());
            let target = (n * n * n + n * n - n - p.tiles()) as u32;
            let yes = dp.best().score == target;
            assert!(dp.best().score <= target, "{p}");
            assert_eq!(decide_closure(&p).unwrap().is_yes(), yes, "{p}");
            assert_eq!(decide_patterns(&p).unwrap().is_yes(), yes, "{p}");
            assert_eq!(
                tessera_azul::wall::separable::decide(&p).unwrap().is_yes(),
                yes,
                "{p}"
            );
            checked += 1;
        }
        let expected = [2, 7, 34, 209][n - 1];
        assert_eq!(checked, expected, "n = {n}");
    }
}
