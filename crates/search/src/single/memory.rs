//! Bytes held by standard containers, from their real capacities.

use std::collections::{BinaryHeap, HashMap};
use std::mem::size_of;

/// Heap bytes of a `Vec`.
pub(crate) fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * size_of::<T>()
}

/// Heap bytes of a `BinaryHeap`.
pub(crate) fn heap_bytes<T: Ord>(h: &BinaryHeap<T>) -> usize {
    h.capacity() * size_of::<T>()
}

/// Heap bytes of a standard `HashMap` (hashbrown's layout: one slot and one control byte per
/// bucket, plus one group of 16 trailing control bytes). `capacity()` is 7/8 of the buckets
/// (buckets - 1 below 8 buckets), so the bucket count is recovered exactly.
pub(crate) fn map_bytes<K, V, S>(m: &HashMap<K, V, S>) -> usize {
    let cap = m.capacity();
    if cap == 0 {
        return 0;
    }
    let buckets = if cap < 8 {
        (cap + 1).next_power_of_two()
    } else {
        (cap * 8 / 7).next_power_of_two()
    };
    buckets * (size_of::<(K, V)>() + 1) + 16
}

/// A fast, deterministic hasher for the searches' tables (a multiply-rotate hash finished
/// with the SplitMix64 mixer, so every bit of the key reaches the bits hashbrown uses).
#[derive(Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(b));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(b) ^ ((rest.len() as u64) << 56));
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        tessera_core::rng::mix64(self.0)
    }
}

/// The build-hasher of [`FastHasher`].
pub(crate) type FastBuild = std::hash::BuildHasherDefault<FastHasher>;

/// A `HashMap` with [`FastHasher`].
pub(crate) type FastMap<K, V> = HashMap<K, V, FastBuild>;
