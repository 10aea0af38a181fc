//! A transposition table: a fixed-size array indexed by the low bits of a 64-bit state key
//! (for example a Zobrist hash), always-replace, with a generation stamp so that a new search
//! needs no clearing.

use super::value::Value;

/// What a stored value means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The true value is at least this.
    Lower,
    /// The true value is at most this.
    Upper,
}

#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry<A> {
    pub(crate) key: u64,
    pub(crate) generation: u32,
    pub(crate) depth: u32,
    pub(crate) value: Value,
    pub(crate) bound: Bound,
    pub(crate) best: Option<A>,
    pub(crate) depth_cut: bool,
}

pub(crate) struct TransTable<A> {
    entries: Vec<Option<Entry<A>>>,
    mask: u64,
    generation: u32,
}

impl<A: Copy> TransTable<A> {
    pub(crate) fn new(log2: u8) -> Self {
        let size = 1usize << log2.min(30);
        TransTable {
            entries: vec![None; size],
            mask: size as u64 - 1,
            generation: 0,
        }
    }

    /// Starts a new search: entries of earlier searches are ignored (values are relative to
    /// the root player).
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<&Entry<A>> {
        match &self.entries[(key & self.mask) as usize] {
            Some(e) if e.key == key && e.generation == self.generation => Some(e),
            _ => None,
        }
    }

    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        depth: u32,
        value: Value,
        bound: Bound,
        best: Option<A>,
        depth_cut: bool,
    ) {
        self.entries[(key & self.mask) as usize] = Some(Entry {
            key,
            generation: self.generation,
            depth,
            value,
            bound,
            best,
            depth_cut,
        });
    }
}
