//! Replacement policies: where a key's candidate slots are, how a probe finds the key among
//! them, and which slot a store overwrites. One file per policy:
//!
//! | file | [`Policy`] | [`Layout`]: the slots of a key |
//! |---|---|---|
//! | `always_replace.rs` | `AlwaysReplace` | its cluster |
//! | `depth_preferred.rs` | `DepthPreferred` | its cluster |
//! | `two_tier.rs` | `TwoTier` | its cluster |
//! | `buckets.rs` | `Buckets { age_weight }` | its cluster |
//! | `two_big1.rs` | `TwoBig1` | its cluster, sizes in place of evaluations (own store path) |
//! | `line_buckets.rs` | `LineBuckets { age_weight }` | its cache line's two clusters (own probe and store path) |
//! | `micro_max.rs` | `MicroMax` | 8 entries from its home entry (own probe and store path) |
//!
//! Each file holds the policy's name, its layout, its victim rule (`decide`: a pure function
//! of copies of the candidate slots, returning a [`Decision`]) and, when its layout is its
//! own, its probe and store path. `decision.rs` holds what they share (the same-key rules,
//! [`Outcome`]). This file holds the [`Policy`] enum, the one list of policies
//! ([`Policy::all`], [`Policy::NAMES`], [`Policy::from_name`]) that the engine's
//! `Replacement` option and the TT lab use, the dispatch from a policy to its file, and the
//! one-cluster probe and store path of [`Layout::Cluster`]. The table (`table.rs`) picks the
//! path from the layout; it knows no policy's rules.

mod always_replace;
mod buckets;
mod decision;
mod depth_preferred;
pub(crate) mod line_buckets;
pub(crate) mod micro_max;
#[cfg(test)]
mod tests;
pub(crate) mod two_big1;
mod two_tier;

pub use decision::Outcome;
pub(crate) use decision::{Decision, Slot};

use crate::cluster::{Cluster, SLOTS};
use crate::entry::{Data, Record};
use crate::stats::Counters;
use std::fmt;

/// Which entry a store overwrites. Selectable at run time ([`Table::set_policy`]); by name
/// through [`Policy::from_name`], every one listed by [`Policy::all`].
///
/// [`Table::set_policy`]: crate::Table::set_policy
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Always replace (CPW "Replacement Strategies"): a store is never refused; in a full
    /// cluster it overwrites one slot chosen by the key, whatever its depth or age.
    AlwaysReplace,
    /// Depth-preferred (CPW; Breuker, Uiterwijk and van den Herik 1994): the shallowest slot,
    /// preferring slots of older searches, is overwritten only if the new entry is at least
    /// as deep or that slot is from an older search; otherwise the store is dropped.
    DepthPreferred,
    /// Two-tier (Belle, Condon and Thompson 1983): slot 0 is depth-preferred, slots 1–2 are
    /// always-replace; a store goes to slot 0 when it is empty, aged or not deeper than the
    /// new entry, otherwise into the always-replace tier (an empty slot, else one from an
    /// older search, else one chosen by the key).
    TwoTier,
    /// Buckets with aging (Beal and Smith 1996; Stockfish's victim rule): an empty slot,
    /// else the slot with the lowest `depth − age_weight · relative_age` is overwritten.
    /// Stockfish weighs one search of age like 8 plies of depth.
    Buckets {
        /// Plies of depth one search of age is worth (`k`); Stockfish uses 8.
        age_weight: u8,
    },
    /// Micro-Max's re-probe (H.G. Muller, seed 002): up to 8 consecutive entries from the
    /// key's home entry are scanned for the first empty or matching one; a match is
    /// overwritten unless it is exact and deeper. If all 8 hold other keys, the first one
    /// from an older search is taken (our addition, for aging); otherwise the store is
    /// dropped, as in micro-Max.
    MicroMax,
    /// TwoBig1 (Breuker, Uiterwijk and van den Herik 1994, 1996: their recommended scheme):
    /// two levels, ranked by the size of the searched subtree ([`Record::nodes`]) rather
    /// than by depth. Slot 0 holds the entry with the larger subtree; a new entry whose
    /// subtree is at least as large (or that meets an entry from an older search there)
    /// takes slot 0 and pushes its entry down into the always-replace level (slots 1–2: an
    /// empty slot, else one from an older search, else one chosen by the key); a smaller
    /// one goes into that level itself.
    ///
    /// The cost: the size is kept, on a 16-bit log scale ([`size_code`]), where the other
    /// policies keep the static evaluation, so probes return [`NO_EVAL`] as the evaluation.
    ///
    /// [`Record::nodes`]: crate::Record::nodes
    /// [`size_code`]: crate::size_code
    /// [`NO_EVAL`]: crate::NO_EVAL
    TwoBig1,
    /// Buckets over a whole 64-byte cache line (a cluster shape to compare with, for the
    /// lab): the key's cluster and its neighbour in the same cache line (indices `2i` and
    /// `2i + 1`) form one bucket of six entries, probed in that order, and a store
    /// overwrites as [`Policy::Buckets`] does among the six. Both clusters are read on every
    /// probe and store (one cache line when the table is 64-byte aligned, as every mapped
    /// table of 2 MiB or more is); a store claims only the cluster it writes.
    LineBuckets {
        /// Plies of depth one search of age is worth (`k`).
        age_weight: u8,
    },
}

impl Default for Policy {
    /// Stockfish-like buckets with `age_weight` 8.
    fn default() -> Self {
        Policy::Buckets { age_weight: 8 }
    }
}

impl Policy {
    /// Every policy once, in the order the engine's `Replacement` option offers them, the
    /// default first; the policies that take an age weight get `age_weight`.
    ///
    /// This is the one list of policies: [`Policy::NAMES`] and [`Policy::from_name`] come
    /// from it, the engine's `Replacement` option offers its names and the TT lab writes them.
    pub const fn all(age_weight: u8) -> [Policy; 7] {
        [
            Policy::Buckets { age_weight },
            Policy::TwoTier,
            Policy::DepthPreferred,
            Policy::AlwaysReplace,
            Policy::TwoBig1,
            Policy::LineBuckets { age_weight },
            Policy::MicroMax,
        ]
    }

    /// The names of [`Policy::all`], in its order (the default's first): `Buckets`,
    /// `TwoTier`, `DepthPreferred`, `AlwaysReplace`, `TwoBig1`, `LineBuckets`, `MicroMax`.
    pub const NAMES: [&'static str; 7] = {
        let all = Policy::all(0);
        let mut names = [""; 7];
        let mut i = 0;
        while i < all.len() {
            names[i] = all[i].name();
            i += 1;
        }
        names
    };

    /// The policy's name, one of [`Policy::NAMES`] (without its age weight: use `Display`
    /// for `Buckets k=8`).
    pub const fn name(self) -> &'static str {
        match self {
            Policy::AlwaysReplace => always_replace::NAME,
            Policy::DepthPreferred => depth_preferred::NAME,
            Policy::TwoTier => two_tier::NAME,
            Policy::Buckets { .. } => buckets::NAME,
            Policy::MicroMax => micro_max::NAME,
            Policy::TwoBig1 => two_big1::NAME,
            Policy::LineBuckets { .. } => line_buckets::NAME,
        }
    }

    /// The policy named `name` (one of [`Policy::NAMES`], in any case), with `age_weight`
    /// if it takes one; `None` for any other name.
    pub fn from_name(name: &str, age_weight: u8) -> Option<Policy> {
        Policy::all(age_weight)
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name))
    }

    /// Where the policy keeps a key's candidate slots: which probe and store path it takes.
    pub(crate) const fn layout(self) -> Layout {
        match self {
            Policy::AlwaysReplace => always_replace::LAYOUT,
            Policy::DepthPreferred => depth_preferred::LAYOUT,
            Policy::TwoTier => two_tier::LAYOUT,
            Policy::Buckets { .. } => buckets::LAYOUT,
            Policy::MicroMax => micro_max::LAYOUT,
            Policy::TwoBig1 => two_big1::LAYOUT,
            Policy::LineBuckets { .. } => line_buckets::LAYOUT,
        }
    }

    /// The age weight of the policies that take one (`Buckets`, `LineBuckets`); 0 for the
    /// others.
    #[inline]
    pub(crate) const fn age_weight(self) -> u8 {
        match self {
            Policy::Buckets { age_weight } | Policy::LineBuckets { age_weight } => age_weight,
            _ => 0,
        }
    }

    /// Whether entries keep the static evaluation (all policies but TwoBig1, which keeps the
    /// subtree size in its place).
    #[inline(always)]
    pub(crate) fn keeps_eval(self) -> bool {
        self != Policy::TwoBig1
    }

    /// `record`, written in generation `gen`, packed as this policy keeps it.
    #[inline]
    pub(crate) fn pack(self, record: &Record, gen: u8) -> Data {
        if self.keeps_eval() {
            Data::pack(record, gen)
        } else {
            Data::pack_sized(record, gen)
        }
    }
}

impl fmt::Display for Policy {
    /// The name, with the age weight for the policies that take one: `Buckets k=8`,
    /// `TwoTier`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::Buckets { age_weight } | Policy::LineBuckets { age_weight } => {
                write!(f, "{} k={age_weight}", self.name())
            }
            _ => f.write_str(self.name()),
        }
    }
}

/// Where a policy keeps a key's candidate slots, and so which probe and store path a table
/// takes for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// The three slots of the key's cluster: [`probe_in_cluster`], [`store_in_cluster`].
    Cluster,
    /// The same slots, the subtree size packed in place of the evaluation and an entry
    /// moved down on replacement: [`probe_in_cluster`], [`two_big1::store`].
    Sized,
    /// Eight consecutive entries from the key's home entry: [`micro_max::probe`],
    /// [`micro_max::store`].
    Run,
    /// The six slots of the two clusters in the key's cache line: [`line_buckets::probe`],
    /// [`line_buckets::store`].
    Line,
}

/// Chooses what to write for a store of `new` (signature `sig`, key `key`) among the
/// candidate `slots` (3 for the cluster policies, 6 for line buckets, up to 8 for
/// micro-Max), in generation `gen`: the policy's own rule, from its file.
pub(crate) fn decide(
    policy: Policy,
    slots: &[Slot],
    key: u64,
    sig: u16,
    new: Data,
    gen: u8,
) -> Decision {
    match policy {
        Policy::AlwaysReplace => always_replace::decide(slots, key, sig, new, gen),
        Policy::DepthPreferred => depth_preferred::decide(slots, sig, new, gen),
        Policy::TwoTier => two_tier::decide(slots, key, sig, new, gen),
        // Line buckets is the buckets rule over the six slots of a line.
        Policy::Buckets { age_weight } | Policy::LineBuckets { age_weight } => {
            buckets::decide(slots, sig, new, gen, age_weight)
        }
        Policy::MicroMax => micro_max::decide(slots, sig, new, gen),
        Policy::TwoBig1 => two_big1::decide(slots, key, sig, new, gen),
    }
}

/// The one-cluster probe: the data word of the first occupied slot of `cluster` with
/// signature `sig`, if the cluster was read as one consistent state (a match in a torn read
/// is counted and is a miss).
#[inline(always)]
pub(crate) fn probe_in_cluster(cluster: &Cluster, sig: u16, counters: &Counters) -> Option<Data> {
    let snap = cluster.load();
    match snap.lookup(sig) {
        Some(d) if snap.is_consistent() => Some(d),
        Some(_) => {
            counters.torn();
            None
        }
        None => None,
    }
}

/// The one-cluster store: reads `cluster`, lets `decide` choose among its three slots where
/// the new entry (signature `sig`) goes and what it holds, then claims the cluster and writes
/// it. `DEMOTE`: the decision may move an entry to another slot ([`Policy::TwoBig1`]); false
/// keeps that check off the common path.
// `decide` is a closure rather than a `Policy` argument: the table's `self.policy` is then
// read where the decision is made, not before the cluster's reads, which costs a spill on
// the common path (callgrind, `engram bench 9`).
#[inline(always)]
pub(crate) fn store_in_cluster<const DEMOTE: bool>(
    cluster: &Cluster,
    sig: u16,
    counters: &Counters,
    decide: impl FnOnce(&[Slot]) -> Decision,
) -> Outcome {
    let Some((read, base)) = cluster.read_for_store(counters) else {
        return Outcome::Busy;
    };
    let slots: [Slot; SLOTS] = std::array::from_fn(|i| Slot {
        sig: base.sig(i),
        data: base.data[i],
    });
    let decision = decide(&slots);
    match decision.target {
        Some(i) if !cluster.commit::<DEMOTE>(&read, base, i, sig, &decision) => Outcome::Busy,
        _ => decision.outcome,
    }
}
