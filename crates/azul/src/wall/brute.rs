//! Brute force over every order of the empty cells: the independent check of the dynamic
//! program (it uses the reference scorer [`Picture::placement`], not the DP's tables).

use std::collections::BTreeMap;

use super::WallError;
use super::dp::Extreme;
use super::grid::Picture;

/// The largest number of empty cells the brute force accepts (10! = 3,628,800 orders).
pub const MAX_FREE_CELLS: u32 = 10;

/// Every order's score, tallied.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BruteForce {
    /// Number of orders for each final completion score.
    pub histogram: BTreeMap<u32, u128>,
}

impl BruteForce {
    /// Enumerates all orders of the empty cells of `start` (at most [`MAX_FREE_CELLS`]).
    pub fn run(start: Picture) -> Result<BruteForce, WallError> {
        let free = start.side() * start.side() - start.count() as usize;
        if free as u32 > MAX_FREE_CELLS {
            return Err(WallError::TooLarge(format!(
                "brute force over {free} empty cells ({free}! orders); at most \
                 {MAX_FREE_CELLS} are allowed"
            )));
        }
        let mut histogram = BTreeMap::new();
        walk(start, 0, &mut histogram);
        Ok(BruteForce { histogram })
    }

    /// The best score and its number of orders.
    pub fn best(&self) -> Extreme {
        let (&score, &count) = self.histogram.last_key_value().unwrap_or((&0, &1));
        Extreme { score, count }
    }

    /// The worst score and its number of orders.
    pub fn worst(&self) -> Extreme {
        let (&score, &count) = self.histogram.first_key_value().unwrap_or((&0, &1));
        Extreme { score, count }
    }

    /// The number of orders in all.
    pub fn orders(&self) -> u128 {
        self.histogram.values().sum()
    }
}

fn walk(pic: Picture, score: u32, histogram: &mut BTreeMap<u32, u128>) {
    let n = pic.side();
    let mut leaf = true;
    for r in 0..n {
        for c in 0..n {
            if let Ok(p) = pic.placement(r, c) {
                leaf = false;
                walk(pic.with(r, c), score + p.score(), histogram);
            }
        }
    }
    if leaf {
        *histogram.entry(score).or_insert(0) += 1;
    }
}
