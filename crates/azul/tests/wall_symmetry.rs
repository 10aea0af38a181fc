//! Pictures up to symmetry: Burnside against brute-force canonical forms.

use tessera_azul::wall::symmetry::{Symmetry, brute_orbits, burnside};

#[test]
fn burnside_matches_brute_force_up_to_4x4() {
    for n in 1..=4 {
        let b = burnside(n).unwrap();
        let brute = brute_orbits(n).unwrap();
        assert_eq!(b.orbits, brute.orbits, "n = {n}");
        assert_eq!(b.orbits_by_tiles, brute.orbits_by_tiles, "n = {n}");
        // Orbit sizes add up to all pictures.
        let pictures: u64 = brute
            .orbit_sizes
            .iter()
            .enumerate()
            .map(|(s, &k)| s as u64 * k)
            .sum();
        assert_eq!(pictures, 1u64 << (n * n), "n = {n}");
    }
    // Known values: 2x2 walls have 6 pictures up to symmetry, 3x3 have 102 (OEIS A054247).
    assert_eq!(burnside(2).unwrap().orbits, 6);
    assert_eq!(burnside(3).unwrap().orbits, 102);
    assert_eq!(burnside(4).unwrap().orbits, 8_548);
}

#[test]
fn thesis_burnside_5x5() {
    let b = burnside(5).unwrap();
    // (2^25 + 2^7 + 2^13 + 2^7 + 4 * 2^15) / 8, thesis section 3.3.
    assert_eq!(b.orbits, 4_211_744);
    let fixed: Vec<usize> = b.fixed.iter().map(|&(_, c, _)| c).collect();
    assert_eq!(fixed, vec![25, 7, 13, 7, 15, 15, 15, 15]);
    assert_eq!(b.orbits_by_tiles.iter().sum::<u64>(), 4_211_744);
    assert_eq!(b.orbits_by_tiles[0], 1);
    assert_eq!(b.orbits_by_tiles[1], 6); // corner, edge x2, inner diagonal x2, centre
}

#[test]
fn symmetries_form_a_group_of_eight_distinct_maps() {
    let n = 5;
    let image = |g: Symmetry| -> Vec<(usize, usize)> {
        (0..n * n).map(|i| g.map(n, i / n, i % n)).collect()
    };
    let all: Vec<_> = Symmetry::ALL.iter().map(|&g| image(g)).collect();
    for i in 0..8 {
        for j in i + 1..8 {
            assert_ne!(all[i], all[j]);
        }
    }
}

#[test]
#[ignore = "all 2^25 pictures: several seconds; the CLI runs it too"]
fn burnside_matches_brute_force_5x5() {
    assert_eq!(brute_orbits(5).unwrap().orbits, burnside(5).unwrap().orbits);
}
