//! The perft hash table: subtree counts keyed by (position, remaining depth), shared by any
//! number of threads without locks.
//!
//! # Identity
//!
//! A count belongs to a position's move tree at one depth. The tree is fixed by the
//! [`tree_key`]: the Polyglot key (pieces, side to move, castling rights, the en-passant file
//! when a pawn of the side to move stands ready to capture), XORed with a bijective mix of the
//! castling rook files. The Polyglot key alone is not enough: it records which rights exist but
//! not which rook each castles with, and a Chess960 king with two rooks on one side can castle
//! with either. Its en-passant rule is enough: the board keeps an en-passant square only when
//! a pawn can take on it, so two boards with the same key either both have the capture or both
//! lack it (a pawn that could take but is pinned gives two keys for one tree: a missed hit,
//! never a wrong count). The clocks do not change the tree (perft knows no fifty-move rule).
//!
//! The entry key mixes the tree key with the depth ([`PerftTable::probe`] and
//! [`PerftTable::store`] take both), so the same position at another depth is another entry,
//! with its own index and its own check.
//!
//! # Layout
//!
//! The table is an array of 64-byte buckets, one cache line each, aligned:
//!
//! ```text
//! bytes  0..8    depth of slot 0, 1, 2 (one AtomicU8 each; 0 = empty), 5 bytes unused
//! bytes  8..24   slot 0: check (AtomicU64) = entry key ^ count, count (AtomicU64)
//! bytes 24..40   slot 1
//! bytes 40..56   slot 2
//! bytes 56..64   unused (alignment)
//! ```
//!
//! Counts are full 64-bit words (they pass 2^56 at depth 13 of the start position). A key's
//! bucket is `(entry_key * buckets) >> 64` (multiply-shift on 128 bits), so any number of
//! buckets works and a size in MiB need not be a power of two. A store takes a slot that
//! already holds its entry, else the slot of least depth (an empty one first), ties broken by
//! the key's low bits so that no slot of a bucket stays forever. Depths ≤ 1 are not stored by
//! [`super::perft_with_table`]: counting the last ply is cheaper than a probe.
//!
//! # Concurrency
//!
//! Threads probe and store with relaxed loads and stores, no locks (Hyatt and Mann's lockless
//! hashing). A probe for entry key `k` reads `check` and `count` and accepts `count` only if
//! `check ^ count == k`. Each word is atomic, so a reader sees each word whole, but a writer
//! may be between its two stores and another writer may overwrite the slot meanwhile: the
//! reader may pair the `check` of one store `(k1, c1)` with the `count` of another `(k2, c2)`.
//! Then `check ^ count = k1 ^ c1 ^ c2`, which equals `k` only if
//!
//! - `k2 == k`: the count read is `c2`, written for `k`, so it is right; or
//! - `k1 == k` and `c1 == c2`: again the right count; or
//! - neither, and the XOR of unrelated values equals a 64-bit key: as unlikely as two
//!   positions sharing a 64-bit key (about 2^-64 per pair compared).
//!
//! One tree has one count, so every store for `k`, from any thread, writes the same `c`. The
//! depth bytes are only a hint for replacement: a stale or racing depth can make a store evict
//! a worse victim, never make a probe return a wrong count. An empty slot (both words 0) would
//! match the entry key 0, so that key is mapped to 1.

use crate::board::Board;
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// Slots per bucket.
pub const SLOTS: usize = 3;

/// Bytes per bucket (one cache line).
pub const BUCKET_BYTES: usize = 64;

/// One stored count: `check` = entry key ^ `count`.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    count: AtomicU64,
}

impl Slot {
    /// The count if this slot holds entry key `k`.
    #[inline]
    fn read(&self, k: u64) -> Option<u64> {
        let count = self.count.load(Relaxed);
        (self.check.load(Relaxed) ^ count == k).then_some(count)
    }
}

/// One cache line: the slots' depths, then the slots.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    depths: [AtomicU8; 8],
    slots: [Slot; SLOTS],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET_BYTES);

/// A perft hash table of subtree counts, shared between threads by reference (see the module
/// documentation for the layout and why concurrent use cannot return a wrong count).
///
/// ```
/// use engram_chess::perft::{perft_with_table, PerftTable};
/// use engram_chess::Board;
/// let table = PerftTable::new(1).unwrap();
/// assert_eq!(perft_with_table(&Board::startpos(), 4, &table), 197_281);
/// ```
pub struct PerftTable {
    buckets: Box<[Bucket]>,
}

impl PerftTable {
    /// A table of `mib` MiB (2^20 bytes), any size; at least one bucket (so 0 gives one).
    /// Fails if the memory cannot be had (the size is checked only by the allocator: with
    /// overcommit a size larger than the memory may be accepted).
    pub fn new(mib: usize) -> Result<PerftTable, TryReserveError> {
        PerftTable::with_buckets(mib.saturating_mul(1 << 20) / BUCKET_BYTES)
    }

    /// A table of `buckets` buckets of [`SLOTS`] slots (at least one bucket). Tests use tiny
    /// tables to force collisions.
    pub fn with_buckets(buckets: usize) -> Result<PerftTable, TryReserveError> {
        let n = buckets.max(1);
        let mut v: Vec<Bucket> = Vec::new();
        v.try_reserve_exact(n)?;
        v.resize_with(n, Bucket::default);
        Ok(PerftTable {
            buckets: v.into_boxed_slice(),
        })
    }

    /// The number of buckets.
    pub fn buckets(&self) -> usize {
        self.buckets.len()
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            *b = Bucket::default();
        }
    }

    /// The bucket of entry key `k`.
    #[inline]
    fn bucket(&self, k: u64) -> &Bucket {
        let i = ((u128::from(k) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// The stored count of the tree with key `key` (a [`tree_key`]) at `depth`, if present.
    #[inline]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let k = entry_key(key, depth);
        self.bucket(k).slots.iter().find_map(|s| s.read(k))
    }

    /// Stores `count` for the tree with key `key` at `depth`, over the same entry if present,
    /// else over the slot of least depth.
    #[inline]
    pub fn store(&self, key: u64, depth: u32, count: u64) {
        let k = entry_key(key, depth);
        let bucket = self.bucket(k);
        let start = (k % SLOTS as u64) as usize;
        let mut victim = start;
        let mut least = u8::MAX;
        for j in 0..SLOTS {
            let i = (start + j) % SLOTS;
            if bucket.slots[i].read(k).is_some() {
                victim = i;
                break;
            }
            let d = bucket.depths[i].load(Relaxed);
            if d < least {
                least = d;
                victim = i;
            }
        }
        let slot = &bucket.slots[victim];
        slot.count.store(count, Relaxed);
        slot.check.store(k ^ count, Relaxed);
        bucket.depths[victim].store(depth.clamp(1, 255) as u8, Relaxed);
    }
}

impl std::fmt::Debug for PerftTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerftTable")
            .field("buckets", &self.buckets.len())
            .finish()
    }
}

/// A bijective mix of a 64-bit word (the SplitMix64 finaliser): distinct inputs give distinct
/// outputs.
#[inline]
const fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The key of `board`'s move tree: the Polyglot key ([`Board::key`]) XORed with a mix of the
/// castling rook files. Boards with equal tree keys have the same legal move tree, unless two
/// different positions share a 64-bit key.
#[inline]
pub fn tree_key(board: &Board) -> u64 {
    board.key() ^ mix(u64::from(board.castling_rights().to_bits()))
}

/// The entry key of a tree key at a depth: never 0 (the empty slot's).
#[inline]
fn entry_key(key: u64, depth: u32) -> u64 {
    let k = key ^ mix(u64::from(depth) ^ 0x5045_5246_5400_0000);
    k.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe() {
        let t = PerftTable::with_buckets(64).unwrap();
        assert_eq!(t.probe(0x1234, 5), None);
        t.store(0x1234, 5, 4_865_609);
        assert_eq!(t.probe(0x1234, 5), Some(4_865_609));
        // Counts above 2^56 are kept whole.
        t.store(0x9876, 13, u64::MAX - 7);
        assert_eq!(t.probe(0x9876, 13), Some(u64::MAX - 7));
        assert_eq!(t.probe(0x1234, 5), Some(4_865_609));
        // A count of 0 (a mated position at depth 2) is a count, not an empty slot.
        t.store(0x55, 2, 0);
        assert_eq!(t.probe(0x55, 2), Some(0));
    }

    #[test]
    fn depth_is_part_of_the_identity() {
        // One bucket: every entry lands in it, so only the check tells them apart.
        let t = PerftTable::with_buckets(1).unwrap();
        t.store(42, 4, 1000);
        assert_eq!(t.probe(42, 3), None);
        assert_eq!(t.probe(42, 5), None);
        t.store(42, 3, 77);
        assert_eq!((t.probe(42, 4), t.probe(42, 3)), (Some(1000), Some(77)));
    }

    #[test]
    fn a_colliding_key_never_gets_another_count() {
        // One bucket, so every key has the same index; fill it well past its three slots.
        let t = PerftTable::with_buckets(1).unwrap();
        for key in 1..=50u64 {
            t.store(key, 4, key * 1_000);
            // The key just stored is found; any other is either its own count or absent.
            assert_eq!(t.probe(key, 4), Some(key * 1_000));
            for other in 1..=60u64 {
                if let Some(n) = t.probe(other, 4) {
                    assert_eq!(n, other * 1_000, "key {other} after storing {key}");
                }
            }
        }
        // Exactly three entries survive.
        let found = (1..=50u64).filter(|&k| t.probe(k, 4).is_some()).count();
        assert_eq!(found, SLOTS);
        // Keys differing in one bit only.
        let t = PerftTable::with_buckets(1).unwrap();
        t.store(0x8000_0000_0000_0000, 6, 5);
        assert_eq!(t.probe(0, 6), None);
        assert_eq!(t.probe(0x8000_0000_0000_0001, 6), None);
    }

    #[test]
    fn a_torn_slot_fails_the_check() {
        // A slot whose check word comes from one store and count from another, as a reader
        // racing two writers could see it.
        let t = PerftTable::with_buckets(1).unwrap();
        t.store(7, 4, 100);
        let slot = t.buckets[0]
            .slots
            .iter()
            .find(|s| s.read(entry_key(7, 4)).is_some())
            .unwrap();
        slot.count.store(999, Relaxed); // the other writer's count, the old check
        assert_eq!(t.probe(7, 4), None);
        assert_eq!(t.probe(8, 4), None);
    }

    #[test]
    fn the_shallowest_entry_is_replaced() {
        let t = PerftTable::with_buckets(1).unwrap();
        t.store(1, 9, 10);
        t.store(2, 3, 20);
        t.store(3, 7, 30);
        t.store(4, 5, 40); // evicts depth 3
        assert_eq!(t.probe(2, 3), None);
        assert_eq!(
            (t.probe(1, 9), t.probe(3, 7), t.probe(4, 5)),
            (Some(10), Some(30), Some(40))
        );
        // Storing an entry again reuses its slot.
        t.store(4, 5, 40);
        assert_eq!((t.probe(1, 9), t.probe(3, 7)), (Some(10), Some(30)));
    }

    #[test]
    fn sizes_in_mib_need_not_be_powers_of_two() {
        assert_eq!(PerftTable::new(3).unwrap().buckets(), 3 * (1 << 20) / 64);
        assert_eq!(PerftTable::new(0).unwrap().buckets(), 1);
        assert_eq!(PerftTable::new(5).unwrap().bytes(), 5 << 20);
        assert!(PerftTable::new(usize::MAX).is_err());
    }

    #[test]
    fn clear_empties() {
        let mut t = PerftTable::with_buckets(4).unwrap();
        t.store(11, 4, 3);
        t.clear();
        assert_eq!(t.probe(11, 4), None);
    }

    #[test]
    fn castling_rook_files_are_part_of_the_tree_key() {
        // Chess960: the king on b1, rooks on f1 and h1; the king-side right is the f-rook's or
        // the h-rook's. Same pieces, same Polyglot key, different trees.
        let f = Board::from_fen("4k3/8/8/8/8/8/8/1K3R1R w F - 0 1", true).unwrap();
        let h = Board::from_fen("4k3/8/8/8/8/8/8/1K3R1R w H - 0 1", true).unwrap();
        assert_eq!(f.key(), h.key());
        assert_ne!(f.count_moves(), h.count_moves());
        assert_ne!(tree_key(&f), tree_key(&h));
    }
}
