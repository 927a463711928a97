//! Shadow keys: a laboratory mode that keeps the full 64-bit key of every entry beside the
//! table, so that each false hit (a probe answered with another position's entry) is counted
//! exactly, and that verifies a probe with only the low `bits` bits of the key, as a table
//! with `bits`-bit signatures would (Hyatt and Cozzie 2005 measured what such false hits do
//! to a search).
//!
//! The cluster still stores its 16-bit signatures, but matching uses the shadow: slot `i`
//! matches `key` when `(shadow[i] ^ key) & mask == 0`, `mask` being the low `bits` bits. The
//! replacement policy sees every slot that matches as "the same key", exactly as in a table
//! that could not tell them apart. Index bits come from the top of the key (fastrange), so
//! for tables below 2⁴⁰ entries widths up to 24 bits are independent of the index.
//!
//! Single-threaded only: the shadow word is written after the cluster, without the cluster's
//! protocol. It costs 8 bytes per entry and a slower probe, and is never used by the engine.
//!
//! The table holds the shadow in one field and sends probes and stores here on a path of
//! their own (`Path::Shadow`), so the other paths never look at it; this file adds the
//! laboratory's methods to [`Table`].

use crate::alloc::TableError;
use crate::cluster::{Cluster, Snapshot, SLOTS};
use crate::entry::Data;
use crate::policy::{self, Outcome, Policy, Slot};
use crate::table::Table;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

impl Table {
    /// Laboratory: a table of `clusters` clusters with [shadow keys](crate::ShadowStats):
    /// the full key of every entry is kept beside it, probes and stores match only the low
    /// `bits` bits of the key (0–64), and every false hit is counted
    /// ([`Table::shadow_stats`]). Single-threaded use only; slower than a plain table. Under
    /// [`Policy::MicroMax`] and [`Policy::LineBuckets`] only the key's own cluster is
    /// scanned. A resize drops the shadow keys.
    pub fn with_shadow(clusters: usize, policy: Policy, bits: u32) -> Result<Table, TableError> {
        let mut t = Table::with_clusters(clusters, policy)?;
        t.set_shadow(Shadow::new(clusters, bits));
        Ok(t)
    }

    /// What the shadow keys counted since the table was made or
    /// [`Table::reset_shadow_stats`] (clearing the table keeps the counts); `None` without
    /// shadow keys.
    pub fn shadow_stats(&self) -> Option<ShadowStats> {
        self.shadow().map(Shadow::stats)
    }

    /// Sets the shadow keys' counters to zero.
    pub fn reset_shadow_stats(&self) {
        if let Some(s) = self.shadow() {
            s.reset();
        }
    }
}

/// What the shadow saw, from [`Table::shadow_stats`](crate::Table::shadow_stats).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShadowStats {
    /// The signature width verified, in bits (0–64).
    pub bits: u32,
    /// Probes.
    pub probes: u64,
    /// Probes that returned an entry (true or false hits).
    pub hits: u64,
    /// Probes that returned another key's entry.
    pub false_hits: u64,
    /// Of those, the probes whose key was not in its cluster at all: the case the collision
    /// formula is about. (So far every false hit is one: a key cannot sit behind a slot
    /// that matches it, since its own store would have taken that slot.)
    pub false_hits_absent: u64,
    /// Probes whose key was not in its cluster, by the number of occupied slots they were
    /// compared with (0–3): the exposure that the collision formula is about.
    pub absent_by_occupied: [u64; SLOTS + 1],
    /// Stores that overwrote another key's entry because its signature matched.
    pub false_updates: u64,
}

impl ShadowStats {
    /// Probes whose key was not in the table.
    pub fn absent(&self) -> u64 {
        self.absent_by_occupied.iter().sum()
    }

    /// False hits the formula predicts for the absent probes (compare with
    /// `false_hits_absent`): a probe compared with `k` occupied slots matches one of them
    /// with probability `1 − (1 − 2^−bits)^k`.
    pub fn expected_false_hits(&self) -> f64 {
        let p = 0.5f64.powi(self.bits as i32);
        self.absent_by_occupied
            .iter()
            .enumerate()
            .map(|(k, &n)| n as f64 * (1.0 - (1.0 - p).powi(k as i32)))
            .sum()
    }
}

/// The full keys of the table's entries and the counters.
pub(crate) struct Shadow {
    keys: Box<[AtomicU64]>,
    bits: u32,
    mask: u64,
    probes: AtomicU64,
    hits: AtomicU64,
    false_hits: AtomicU64,
    false_hits_absent: AtomicU64,
    absent: [AtomicU64; SLOTS + 1],
    false_updates: AtomicU64,
}

impl Shadow {
    /// A shadow for `clusters` clusters verifying `bits` bits (at most 64).
    pub fn new(clusters: usize, bits: u32) -> Shadow {
        let bits = bits.min(64);
        Shadow {
            keys: (0..clusters * SLOTS).map(|_| AtomicU64::new(0)).collect(),
            bits,
            mask: if bits == 64 { !0 } else { (1u64 << bits) - 1 },
            probes: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            false_hits: AtomicU64::new(0),
            false_hits_absent: AtomicU64::new(0),
            absent: Default::default(),
            false_updates: AtomicU64::new(0),
        }
    }

    fn key(&self, c: usize, i: usize) -> u64 {
        self.keys[c * SLOTS + i].load(Relaxed)
    }

    fn set_key(&self, c: usize, i: usize, key: u64) {
        self.keys[c * SLOTS + i].store(key, Relaxed);
    }

    fn matches(&self, stored: u64, key: u64) -> bool {
        (stored ^ key) & self.mask == 0
    }

    /// Looks `key` up in cluster `c`: the first occupied slot whose shadow key matches on
    /// the verified bits.
    pub fn probe(&self, cluster: &Cluster, c: usize, key: u64) -> Option<Data> {
        let snap = cluster.load();
        self.probes.fetch_add(1, Relaxed);
        let mut found = None;
        let (mut occupied, mut present) = (0, false);
        for i in 0..SLOTS {
            if snap.data[i].is_empty() {
                continue;
            }
            occupied += 1;
            let stored = self.key(c, i);
            present |= stored == key;
            if found.is_none() && self.matches(stored, key) {
                found = Some((i, stored));
            }
        }
        if !present {
            self.absent[occupied].fetch_add(1, Relaxed);
        }
        let (i, stored) = found?;
        if !snap.is_consistent() {
            return None;
        }
        self.hits.fetch_add(1, Relaxed);
        if stored != key {
            self.false_hits.fetch_add(1, Relaxed);
            if !present {
                self.false_hits_absent.fetch_add(1, Relaxed);
            }
        }
        Some(snap.data[i])
    }

    /// Stores `new` for `key` into cluster `c` as `policy` decides, slots being "the same
    /// key" when their shadow keys match on the verified bits.
    pub fn store(
        &self,
        cluster: &Cluster,
        c: usize,
        policy: Policy,
        key: u64,
        new: Data,
        gen: u8,
    ) -> Outcome {
        let read = cluster.load();
        let base = if read.is_consistent() {
            read
        } else {
            Snapshot::EMPTY
        };
        let sig = key as u16;
        let slots: [Slot; SLOTS] = std::array::from_fn(|i| Slot {
            sig: if self.matches(self.key(c, i), key) {
                sig
            } else {
                !sig
            },
            data: base.data[i],
        });
        let decision = policy::decide(policy, &slots, key, sig, new, gen);
        let Some(i) = decision.target else {
            return decision.outcome;
        };
        if !cluster.commit::<true>(&read, base, i, sig, &decision) {
            return Outcome::Busy;
        }
        if let Some(j) = decision.demote {
            self.set_key(c, j, self.key(c, i));
        }
        if decision.outcome == Outcome::Updated {
            if !base.data[i].is_empty() && self.key(c, i) != key {
                self.false_updates.fetch_add(1, Relaxed);
            }
            self.set_key(c, i, key);
        } else if decision.outcome != Outcome::Kept {
            self.set_key(c, i, key);
        }
        decision.outcome
    }

    /// Forgets every key (the table was cleared); the counters go on.
    pub fn clear(&self) {
        for k in self.keys.iter() {
            k.store(0, Relaxed);
        }
    }

    /// Sets the counters to zero.
    pub fn reset(&self) {
        for c in [
            &self.probes,
            &self.hits,
            &self.false_hits,
            &self.false_hits_absent,
            &self.false_updates,
        ] {
            c.store(0, Relaxed);
        }
        for c in &self.absent {
            c.store(0, Relaxed);
        }
    }

    /// The counters.
    pub fn stats(&self) -> ShadowStats {
        ShadowStats {
            bits: self.bits,
            probes: self.probes.load(Relaxed),
            hits: self.hits.load(Relaxed),
            false_hits: self.false_hits.load(Relaxed),
            false_hits_absent: self.false_hits_absent.load(Relaxed),
            absent_by_occupied: std::array::from_fn(|k| self.absent[k].load(Relaxed)),
            false_updates: self.false_updates.load(Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::entry::test_record as rec;
    use crate::{Outcome, Policy, Table};

    #[test]
    fn shadow_keys_count_a_provoked_false_hit_exactly() {
        // Two keys with the same low 16 bits and the same cluster (same top bits): a 16-bit
        // signature cannot tell them apart.
        let a = 0x1234_5678_9ABC_0042_u64;
        let b = 0x1234_5678_0000_0042_u64;
        let t16 = Table::with_shadow(64, Policy::default(), 16).unwrap();
        assert_eq!(t16.cluster_index(a), t16.cluster_index(b));
        t16.store(a, rec(5, 1));
        let hit = t16.probe(b).expect("b matches a on 16 bits");
        assert_eq!(hit.mv, 1, "a's entry answers the probe for b");
        let s = t16.shadow_stats().unwrap();
        assert_eq!((s.bits, s.probes, s.hits, s.false_hits), (16, 1, 1, 1));
        assert_eq!(s.false_hits_absent, 1);
        assert_eq!(s.absent_by_occupied, [0, 1, 0, 0]);
        // The same probe of a itself is a true hit.
        assert!(t16.probe(a).is_some());
        assert_eq!(t16.shadow_stats().unwrap().false_hits, 1);
        // A store of b is an update of a's entry: one false update.
        assert_eq!(t16.store(b, rec(9, 2)), Outcome::Updated);
        assert_eq!(t16.shadow_stats().unwrap().false_updates, 1);

        // With 32 (or 64) bits verified, b is a miss and gets its own slot.
        for bits in [32, 64] {
            let t = Table::with_shadow(64, Policy::default(), bits).unwrap();
            t.store(a, rec(5, 1));
            assert!(t.probe(b).is_none());
            assert_eq!(t.store(b, rec(9, 2)), Outcome::Empty);
            assert_eq!((t.probe(a).unwrap().mv, t.probe(b).unwrap().mv), (1, 2));
            let s = t.shadow_stats().unwrap();
            assert_eq!((s.probes, s.hits, s.false_hits), (3, 2, 0));
        }
        // With 0 bits, any occupied slot answers any probe of its cluster.
        let t0 = Table::with_shadow(1, Policy::default(), 0).unwrap();
        t0.store(a, rec(5, 1));
        assert_eq!(t0.probe(!a).map(|e| e.mv), Some(1));
        assert_eq!(t0.shadow_stats().unwrap().false_hits, 1);
        assert!((t0.shadow_stats().unwrap().expected_false_hits() - 1.0).abs() < 1e-12);
        // A store of another key that matches on 0 bits takes the matching slot: the key is
        // then present, and its probe a true hit.
        t0.store(!a, rec(4, 2));
        assert_eq!(t0.probe(!a).map(|e| e.mv), Some(2));
        let s = t0.shadow_stats().unwrap();
        assert_eq!((s.false_hits, s.false_hits_absent), (1, 1));
        t0.clear(1);
        assert!(t0.probe(a).is_none());
        assert_eq!(
            t0.shadow_stats().unwrap().probes,
            3,
            "clear keeps the counts"
        );
        t0.reset_shadow_stats();
        assert_eq!(t0.shadow_stats().unwrap().probes, 0);
        assert!(Table::new(1).unwrap().shadow_stats().is_none());
    }
}
