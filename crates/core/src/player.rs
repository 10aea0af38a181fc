//! Players and per-player values.

use std::fmt;
use std::ops::{Index, IndexMut};

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

/// The largest number of players any Tessera game seats.
pub const MAX_PLAYERS: usize = 4;

/// A seat at the table, counted from 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub u8);

impl PlayerId {
    /// The seat number as an index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The next seat clockwise among `num_players`.
    #[inline]
    pub const fn next(self, num_players: usize) -> PlayerId {
        PlayerId(((self.0 as usize + 1) % num_players) as u8)
    }

    /// All seats of a game with `num_players` players, in order.
    pub fn all(num_players: usize) -> impl Iterator<Item = PlayerId> + Clone {
        (0..num_players as u8).map(PlayerId)
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0 + 1)
    }
}

/// One value per player, stored inline (no allocation).
///
/// ```
/// use tessera_core::{PerPlayer, PlayerId};
/// let mut scores = PerPlayer::filled(3, 0i32);
/// scores[PlayerId(1)] += 5;
/// assert_eq!(scores.as_slice(), &[0, 5, 0]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PerPlayer<T>(pub ArrayVec<T, MAX_PLAYERS>);

impl<T: Clone> PerPlayer<T> {
    /// `n` copies of `value`. Panics if `n > MAX_PLAYERS` (a programming error).
    pub fn filled(n: usize, value: T) -> Self {
        assert!(n <= MAX_PLAYERS, "at most {MAX_PLAYERS} players");
        PerPlayer((0..n).map(|_| value.clone()).collect())
    }
}

impl<T> PerPlayer<T> {
    /// Builds from a function of the seat.
    pub fn from_fn(n: usize, mut f: impl FnMut(PlayerId) -> T) -> Self {
        assert!(n <= MAX_PLAYERS, "at most {MAX_PLAYERS} players");
        PerPlayer(PlayerId::all(n).map(&mut f).collect())
    }

    /// Number of players.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when there are no players.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The values as a slice, seat 0 first.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.0
    }

    /// Iterates over `(seat, value)`.
    pub fn iter(&self) -> impl Iterator<Item = (PlayerId, &T)> {
        self.0
            .iter()
            .enumerate()
            .map(|(i, v)| (PlayerId(i as u8), v))
    }
}

impl<T> Index<PlayerId> for PerPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, p: PlayerId) -> &T {
        &self.0[p.index()]
    }
}

impl<T> IndexMut<PlayerId> for PerPlayer<T> {
    #[inline]
    fn index_mut(&mut self, p: PlayerId) -> &mut T {
        &mut self.0[p.index()]
    }
}

impl<T> FromIterator<T> for PerPlayer<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        PerPlayer(iter.into_iter().collect())
    }
}
