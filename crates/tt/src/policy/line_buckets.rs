//! Line buckets: [`Policy::Buckets`](crate::Policy::Buckets) over a whole 64-byte cache line,
//! a cluster shape to compare with (the TT lab's `shape` study).
//!
//! Slots: the key's cluster and its neighbour in the same cache line (indices `2i` and
//! `2i + 1`; the last cluster of an odd count is a line on its own), one bucket of six
//! entries, the key's own cluster first ([`Layout::Line`]). Both clusters are read on every
//! probe and store (one cache line when the table is 64-byte aligned, as every mapped table of
//! 2 MiB or more is).
//!
//! * Probe: the key's cluster, then its neighbour; the first with the key's signature answers
//!   if it was read consistently.
//! * Store: read both clusters, decide among the six slots, then claim and write only the
//!   cluster that changes. Victim: the buckets rule ([`buckets::decide`]) over the six.

use super::buckets;
use super::decision::{Outcome, Slot};
use super::Layout;
use crate::cluster::{Cluster, Snapshot, SLOTS};
use crate::entry::Data;
use crate::stats::Counters;

/// The policy's name (the engine's `Replacement` value).
pub(super) const NAME: &str = "LineBuckets";
/// Where its slots are.
pub(super) const LAYOUT: Layout = Layout::Line;

/// The clusters of cluster `c`'s cache line: `c` first, then its neighbour (none for the
/// last cluster of an odd count).
#[inline]
fn line(clusters: &[Cluster], c: usize) -> (usize, Option<usize>) {
    let other = c ^ 1;
    (c, (other < clusters.len()).then_some(other))
}

/// Looks signature `sig` up in the line of the key's cluster `c`.
#[inline(never)]
pub(crate) fn probe(clusters: &[Cluster], c: usize, sig: u16, counters: &Counters) -> Option<Data> {
    let (c, other) = line(clusters, c);
    for i in std::iter::once(c).chain(other) {
        let snap = clusters[i].load();
        match snap.lookup(sig) {
            Some(d) if snap.is_consistent() => return Some(d),
            Some(_) => {
                counters.torn();
                return None;
            }
            None => {}
        }
    }
    None
}

/// Stores `new` for `key` (signature `sig`) into the line of the key's cluster `c`, as the
/// buckets rule with `age_weight` decides.
#[inline(never)]
pub(crate) fn store(
    clusters: &[Cluster],
    c: usize,
    sig: u16,
    new: Data,
    gen: u8,
    age_weight: u8,
    counters: &Counters,
) -> Outcome {
    let (c, other) = line(clusters, c);
    let (ids, n) = match other {
        Some(o) => ([c, o], 2),
        None => ([c, c], 1),
    };
    let ids = &ids[..n];
    let mut reads = [(Snapshot::EMPTY, Snapshot::EMPTY); 2];
    for (k, &i) in ids.iter().enumerate() {
        match clusters[i].read_for_store(counters) {
            Some(r) => reads[k] = r,
            None => return Outcome::Busy,
        }
    }
    let mut slots = [Slot::default(); 2 * SLOTS];
    for (k, _) in ids.iter().enumerate() {
        for j in 0..SLOTS {
            slots[k * SLOTS + j] = Slot {
                sig: reads[k].1.sig(j),
                data: reads[k].1.data[j],
            };
        }
    }
    let slots = &slots[..ids.len() * SLOTS];
    let decision = buckets::decide(slots, sig, new, gen, age_weight);
    if let Some(t) = decision.target {
        let k = t / SLOTS;
        let (read, base) = reads[k];
        if !clusters[ids[k]].commit::<false>(&read, base, t % SLOTS, sig, &decision) {
            return Outcome::Busy;
        }
    }
    decision.outcome
}

#[cfg(test)]
mod tests {
    use crate::entry::{Bound, Record};
    use crate::{Outcome, Policy, Table};

    fn rec(depth: i32, mv: u16) -> Record {
        Record {
            mv,
            depth,
            bound: Bound::Lower,
            ..Record::default()
        }
    }

    #[test]
    fn a_key_spreads_over_the_two_clusters_of_its_line() {
        let t = Table::with_clusters(2, Policy::LineBuckets { age_weight: 8 }).unwrap();
        // Keys with a clear top bit map to cluster 0; six of them fill both clusters.
        let key = |i: u64| (i << 16) | (i + 1);
        assert!((0..7).all(|i| t.cluster_index(key(i)) == 0));
        for i in 0..6 {
            assert_eq!(
                t.store(key(i), rec(10 + i as i32, i as u16)),
                Outcome::Empty
            );
        }
        for i in 0..6 {
            assert_eq!(t.probe(key(i)).unwrap().mv, i as u16, "key {i}");
        }
        // A seventh replaces the shallowest of the six (key 0, depth 10).
        assert_eq!(t.store(key(6), rec(1, 6)), Outcome::Replaced);
        assert!(t.probe(key(0)).is_none());
        assert!((1..7).all(|i| t.probe(key(i)).is_some()));
        // A key of cluster 1 sees the same line, its own cluster first.
        let high = (1u64 << 63) | 0x99;
        assert_eq!(t.cluster_index(high), 1);
        assert_eq!(t.store(high, rec(30, 77)), Outcome::Replaced);
        assert_eq!(t.probe(high).unwrap().mv, 77);
        // An odd count: the last cluster is a line on its own.
        let odd = Table::with_clusters(3, Policy::LineBuckets { age_weight: 8 }).unwrap();
        let last = u64::MAX;
        assert_eq!(odd.cluster_index(last), 2);
        for i in 0..4u64 {
            odd.store(last - (i << 20) - i, rec(5, 1));
        }
        assert!(
            odd.probe(last).is_none(),
            "3 slots only: the first key was replaced"
        );
    }
}
