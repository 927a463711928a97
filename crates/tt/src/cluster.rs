//! A cluster: 32 bytes, three entries, one tag word guarding three data words.
//!
//! ```text
//! tags:  | sig0 (16) | sig1 (16) | sig2 (16) | check (15) | busy (1) |   bits 0..64
//! data:  [ entry 0 ][ entry 1 ][ entry 2 ]                                3 × 64 bits
//! ```
//!
//! `check` is a 15-bit hash of the three data words ([`check_word`]); `busy` is set while a
//! store writes the cluster. Every access is a single 64-bit atomic load, store or
//! compare-exchange, so no word can tear; what could tear is the *cluster*: a tag word from
//! one store with a data word from another. The protocol below makes that a miss; the full
//! argument is in the crate docs, section "Concurrency".
//!
//! * A store claims the cluster by compare-exchanging the tag word it read into the same
//!   word with `busy` set. If that fails (another store got there first), it gives up: no
//!   thread ever waits. It then writes its data words and releases the cluster by storing
//!   the new tag word (new signatures, new check word, `busy` clear).
//! * A probe reads the tag word, the data words and the tag word again, and trusts what it
//!   read only if both tag reads are equal, `busy` is clear and the check word matches.

use crate::entry::Data;
use crate::policy::Decision;
use crate::stats::Counters;
use std::hint::select_unpredictable;
use std::sync::atomic::{fence, AtomicU64, Ordering};

/// The write-in-progress bit of the tag word.
pub(crate) const BUSY: u64 = 1 << 63;
/// Signatures: the low 48 bits of the tag word.
const SIGS: u64 = (1 << 48) - 1;

/// Entries per cluster.
pub(crate) const SLOTS: usize = 3;

/// One cluster of the table. All-zero bytes are a valid, empty cluster.
#[repr(C, align(32))]
#[derive(Default)]
pub(crate) struct Cluster {
    tags: AtomicU64,
    data: [AtomicU64; SLOTS],
}

const _: () = assert!(std::mem::size_of::<Cluster>() == 32);
const _: () = assert!(std::mem::align_of::<Cluster>() == 32);

/// A 15-bit hash of the three data words, position-sensitive and non-linear, so that
/// swapped slots or two fields trading values do not cancel out (an XOR-fold would).
#[inline]
pub(crate) fn check_word(data: &[Data; SLOTS]) -> u16 {
    let x = data[0].0 ^ data[1].0.rotate_left(21) ^ data[2].0.rotate_left(42);
    // Multiply-shift: the top 16 bits of the product depend on every bit of `x`.
    (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 49) as u16
}

/// A plain copy of a cluster, as one reader saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Snapshot {
    /// The tag word (three signatures and the check word).
    pub tags: u64,
    /// The three data words.
    pub data: [Data; SLOTS],
    /// Whether the tag word read before and after the data words was the same.
    pub stable: bool,
}

impl Snapshot {
    /// An empty, consistent cluster.
    pub const EMPTY: Snapshot = Snapshot {
        tags: 0,
        data: [Data::EMPTY; SLOTS],
        stable: true,
    };

    /// Signature stored for slot `i`.
    #[inline]
    pub fn sig(&self, i: usize) -> u16 {
        (self.tags >> (16 * i)) as u16
    }

    /// Whether a store was writing the cluster (busy bit set) when it was read.
    #[inline]
    pub fn is_busy(&self) -> bool {
        self.tags & BUSY != 0
    }

    /// Whether the snapshot is one consistent cluster state: the tag word did not change
    /// while the data words were read, no store was writing, and the check word matches.
    #[inline]
    pub fn is_consistent(&self) -> bool {
        self.stable && !self.is_busy() && (self.tags >> 48) as u16 == check_word(&self.data)
    }

    /// The data word of the first non-empty slot whose signature is `sig`, if any.
    ///
    /// This runs between a cold probe's cache miss and the caller's use of the entry, and
    /// once per probe of an absent key, so it is kept short and free of branches on which
    /// slot matched (that is random: a branch per slot would mispredict right after the
    /// miss, and reading `data[i]` for a computed `i` goes through the stack). The three
    /// signature lanes of the tag word are compared at once (SIMD within a register), the
    /// result is masked with the slots that are not empty, one well-predicted branch
    /// separates hit from miss, and two selects (`cmov`) pick the first hit.
    #[inline]
    pub fn lookup(&self, sig: u16) -> Option<Data> {
        const _: () = assert!(SLOTS == 3);
        /// One in each signature lane.
        const LANES: u64 = 0x0000_0001_0001_0001;
        /// The low 15 bits of each signature lane.
        const LOW15: u64 = 0x0000_7FFF_7FFF_7FFF;
        /// The top bit of each signature lane.
        const TOP: u64 = 0x0000_8000_8000_8000;
        // Lanes of `x` are zero where the signature is `sig`; `zero` has the top bit of each
        // such lane ((v & LOW15) + LOW15 sets the top bit of a lane if its low bits are not
        // all zero, without carrying into the next lane; or-ing `v` adds the top bit itself).
        let x = (self.tags ^ (u64::from(sig) * LANES)) & SIGS;
        let zero = !(((x & LOW15) + LOW15) | x) & TOP;
        // The top bit of lane i if slot i is not empty (its depth byte is not 0: adding 0xFF
        // to it carries into bit 8).
        let full = |i: usize| ((u64::from(self.data[i].depth8()) + 0xFF) & 0x100) << (16 * i + 7);
        let hits = zero & (full(0) | full(1) | full(2));
        if hits == 0 {
            return None;
        }
        Some(select_unpredictable(
            hits & 1 << 15 != 0,
            self.data[0],
            select_unpredictable(hits & 1 << 31 != 0, self.data[1], self.data[2]),
        ))
    }

    /// The data word in slot `i`, if the snapshot is one consistent cluster state (else a
    /// torn read, counted).
    #[inline]
    pub fn validated(&self, i: usize, counters: &Counters) -> Option<Data> {
        if self.is_consistent() {
            Some(self.data[i])
        } else {
            counters.torn();
            None
        }
    }

    /// Puts `data` with signature `sig` into slot `i` (local copy only).
    #[inline]
    pub fn set(&mut self, i: usize, sig: u16, data: Data) {
        let shift = 16 * i;
        self.tags = (self.tags & !(0xFFFF << shift)) | (u64::from(sig) << shift);
        self.data[i] = data;
    }

    /// Recomputes the check word after local changes.
    #[inline]
    pub fn seal(&mut self) {
        self.tags = (self.tags & SIGS) | (u64::from(check_word(&self.data)) << 48);
    }
}

impl Cluster {
    /// Reads the cluster: tag word (Acquire), the three data words, then the tag word again.
    #[inline]
    pub fn load(&self) -> Snapshot {
        let tags = self.tags.load(Ordering::Acquire);
        let data = [
            Data(self.data[0].load(Ordering::Relaxed)),
            Data(self.data[1].load(Ordering::Relaxed)),
            Data(self.data[2].load(Ordering::Relaxed)),
        ];
        // Keeps the second tag load after the data loads (free on x86-64).
        fence(Ordering::Acquire);
        let again = self.tags.load(Ordering::Relaxed);
        Snapshot {
            tags,
            data,
            stable: tags == again,
        }
    }

    /// Reads the cluster to modify it: the state as read and the state to build on. That is
    /// the same consistent state, or, if the cluster is inconsistent twice in a row while no
    /// store is writing it, an empty state (the store then rewrites the cluster whole: a
    /// repair, counted). `None` if another store is writing it.
    #[inline]
    pub fn read_for_store(&self, counters: &Counters) -> Option<(Snapshot, Snapshot)> {
        let read = self.load();
        if read.is_consistent() {
            return Some((read, read));
        }
        let again = self.load();
        if again.is_consistent() {
            return Some((again, again));
        }
        if again.is_busy() || !again.stable {
            return None;
        }
        counters.repair();
        Some((again, Snapshot::EMPTY))
    }

    /// Claims the cluster for writing if its tag word is still `seen` (which must not be
    /// busy): sets the busy bit by compare-exchange. Returns `false`, changing nothing, if
    /// another store changed or claimed the cluster since it was read.
    #[inline]
    pub fn claim(&self, seen: u64) -> bool {
        debug_assert_eq!(seen & BUSY, 0);
        let won = self
            .tags
            .compare_exchange(seen, seen | BUSY, Ordering::Acquire, Ordering::Relaxed)
            .is_ok();
        // Orders the claim before the data stores for readers that see those stores.
        fence(Ordering::Release);
        won
    }

    /// Writes `new` over a cluster that was read as `old` and claimed: first the data words
    /// that changed (Relaxed), then the sealed tag word (Release), which also clears the busy
    /// bit; a reader that sees the new tag word also sees these data words.
    #[inline]
    pub fn publish(&self, old: &Snapshot, new: &Snapshot) {
        debug_assert_eq!(new.tags & BUSY, 0);
        for i in 0..SLOTS {
            if new.data[i] != old.data[i] {
                self.data[i].store(new.data[i].0, Ordering::Relaxed);
            }
        }
        self.tags.store(new.tags, Ordering::Release);
    }

    /// Writes what `decision` says (slot `slot` gets its data with signature `sig`; with
    /// `DEMOTE` and `demote: Some(j)`, slot `j` first gets what `slot` held) into this
    /// cluster, which was read as `read` and is rebuilt from `base`: claim, write, release.
    /// `false` (nothing written) if another store claimed or changed the cluster since it
    /// was read. `DEMOTE` is false on the path of the policies that never demote, which
    /// keeps the check off it.
    #[inline]
    pub fn commit<const DEMOTE: bool>(
        &self,
        read: &Snapshot,
        base: Snapshot,
        slot: usize,
        sig: u16,
        decision: &Decision,
    ) -> bool {
        if !self.claim(read.tags) {
            return false;
        }
        let mut next = base;
        if let (true, Some(j)) = (DEMOTE, decision.demote) {
            next.set(j, base.sig(slot), base.data[slot]);
        }
        next.set(slot, sig, decision.data);
        next.seal();
        self.publish(read, &next);
        true
    }

    /// Empties the cluster. Only meaningful while no one else uses the table.
    #[inline]
    pub fn clear(&self) {
        self.tags.store(0, Ordering::Relaxed);
        for d in &self.data {
            d.store(0, Ordering::Relaxed);
        }
    }

    /// Raw data word of slot `i` without any consistency check (for `hashfull`).
    #[inline]
    pub fn peek(&self, i: usize) -> Data {
        Data(self.data[i].load(Ordering::Relaxed))
    }

    /// Test helper: stores raw words without sealing, to fake torn states.
    #[cfg(test)]
    pub fn poke(&self, tags: u64, data: [u64; SLOTS]) {
        self.tags.store(tags, Ordering::Relaxed);
        for (w, d) in self.data.iter().zip(data) {
            w.store(d, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::{Bound, Record};

    fn data(mv: u16, depth: i32) -> Data {
        Data::pack(
            &Record {
                mv,
                score: 5,
                eval: 7,
                depth,
                bound: Bound::Exact,
                pv: false,
                nodes: 0,
            },
            1,
        )
    }

    #[test]
    fn zeroed_cluster_is_empty_and_consistent() {
        let c = Cluster::default();
        let s = c.load();
        assert!(s.is_consistent());
        assert_eq!(s.lookup(0), None);
        assert_eq!(s, Snapshot::EMPTY);
    }

    #[test]
    fn publish_then_load_finds_each_slot() {
        let c = Cluster::default();
        let old = c.load();
        let mut new = old;
        new.set(0, 0x1111, data(1, 3));
        new.set(2, 0x2222, data(2, 4));
        new.seal();
        assert!(c.claim(old.tags));
        assert!(
            !c.claim(old.tags),
            "a claimed cluster cannot be claimed again"
        );
        assert!(c.load().is_busy() && !c.load().is_consistent());
        c.publish(&old, &new);
        let s = c.load();
        assert!(s.is_consistent());
        assert_eq!(s.lookup(0x1111), Some(data(1, 3)));
        assert_eq!(s.lookup(0x2222), Some(data(2, 4)));
        assert_eq!(s.lookup(0x3333), None);
        assert_eq!(s.data[2].mv(), 2);
    }

    #[test]
    fn lookup_is_the_first_non_empty_slot_with_the_signature() {
        // Every combination of five signatures (lane edge cases: 0, 1, top bit alone, low
        // bits alone, all ones) and empty or not in each slot, probed for each signature
        // and two others, against a plain scan.
        let sigs = [0u16, 1, 0x7FFF, 0x8000, 0xFFFF];
        let states = 2 * sigs.len();
        for code in 0..states.pow(3) {
            let mut s = Snapshot::EMPTY;
            let mut c = code;
            for slot in 0..SLOTS {
                let (sig, full) = (sigs[c % sigs.len()], (c / sigs.len()) % 2 == 1);
                c /= states;
                let d = if full {
                    data(slot as u16 + 1, 1)
                } else {
                    Data::EMPTY
                };
                s.set(slot, sig, d);
            }
            s.seal();
            for want in sigs.iter().copied().chain([2, 0x8001]) {
                let scan = (0..SLOTS)
                    .find(|&i| s.sig(i) == want && !s.data[i].is_empty())
                    .map(|i| s.data[i]);
                assert_eq!(s.lookup(want), scan, "snapshot {s:?}, signature {want:#x}");
            }
        }
    }

    #[test]
    fn mixed_tag_and_data_words_fail_the_check() {
        // Tag word of state A with the data words of state B, for every slot.
        let mut a = Snapshot::EMPTY;
        a.set(0, 0xAAAA, data(10, 5));
        a.set(1, 0xBBBB, data(11, 6));
        a.set(2, 0xCCCC, data(12, 7));
        a.seal();
        for slot in 0..SLOTS {
            let mut b = a;
            b.set(slot, 0xDDDD, data(99, 9));
            b.seal();
            let c = Cluster::default();
            let torn = [b.data[0].0, b.data[1].0, b.data[2].0];
            c.poke(a.tags, torn); // new data, old tags
            assert!(!c.load().is_consistent());
            c.poke(b.tags, [a.data[0].0, a.data[1].0, a.data[2].0]); // new tags, old data
            assert!(!c.load().is_consistent());
        }
    }

    #[test]
    fn swapped_slots_fail_the_check() {
        let d = [data(1, 3), data(2, 3), data(3, 3)];
        let swapped = [d[1], d[0], d[2]];
        assert_ne!(check_word(&d), check_word(&swapped));
    }
}
