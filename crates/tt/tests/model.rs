//! Property test: a table of one cluster behaves exactly like a plain reference model of its
//! replacement policy, for random sequences of stores, probes and new searches.
//!
//! The model is written independently of the crate's code: a vector of three optional
//! entries, signed depths, and each policy's rules spelled out as plainly as possible.

use engram_tt::{Bound, Entry, Outcome, Policy, Record, Table, MAX_DEPTH, MIN_DEPTH, NO_EVAL};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq)]
struct M {
    sig: u16,
    mv: u16,
    score: i16,
    eval: i16,
    depth: i32,
    bound: Bound,
    pv: bool,
    gen: u8,
    /// Subtree size (below 2,048, where the table's log scale is exact).
    nodes: u64,
}

struct Model {
    policy: Policy,
    slots: Vec<Option<M>>,
    gen: u8,
}

impl Model {
    fn new(policy: Policy) -> Model {
        Model {
            policy,
            slots: vec![None; 3],
            gen: 0,
        }
    }

    fn age(&self, m: &M) -> u8 {
        (self.gen + 32 - m.gen) % 32
    }

    fn entry(&self, m: &M) -> Entry {
        Entry {
            mv: m.mv,
            score: m.score,
            eval: if self.policy == Policy::TwoBig1 {
                NO_EVAL
            } else {
                m.eval
            },
            depth: m.depth,
            bound: m.bound,
            pv: m.pv,
            generation: m.gen,
            age: self.age(m),
        }
    }

    /// Micro-Max scans from the key's home entry (multiply-high over 3 entries), wrapping.
    fn scan_order(&self, key: u64) -> Vec<usize> {
        let home = ((key as u128 * 3) >> 64) as usize;
        vec![home, (home + 1) % 3, (home + 2) % 3]
    }

    /// The slot chosen by key bits 16..32 among `n`.
    fn chosen(key: u64, n: usize) -> usize {
        (((key >> 16) & 0xFFFF) as usize * n) >> 16
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let sig = key as u16;
        if self.policy == Policy::MicroMax {
            for i in self.scan_order(key) {
                match &self.slots[i] {
                    None => return None,
                    Some(m) if m.sig == sig => return Some(self.entry(m)),
                    Some(_) => {}
                }
            }
            return None;
        }
        self.slots
            .iter()
            .flatten()
            .find(|m| m.sig == sig)
            .map(|m| self.entry(m))
    }

    fn evict(&mut self, i: usize, new: M) -> Outcome {
        let aged = self.age(self.slots[i].as_ref().unwrap()) > 0;
        self.slots[i] = Some(new);
        if aged {
            Outcome::Aged
        } else {
            Outcome::Replaced
        }
    }

    /// Stockfish's rule for the same key.
    fn same_key(&mut self, i: usize, mut new: M) -> Outcome {
        let old = self.slots[i].unwrap();
        let overwrite = new.bound == Bound::Exact
            || new.depth + if new.pv { 2 } else { 0 } > old.depth - 4
            || self.age(&old) > 0;
        if overwrite {
            if new.mv == 0 {
                new.mv = old.mv;
            }
            self.slots[i] = Some(new);
            Outcome::Updated
        } else {
            if new.mv != 0 {
                self.slots[i].as_mut().unwrap().mv = new.mv;
            }
            Outcome::Kept
        }
    }

    fn store(&mut self, key: u64, r: Record) -> Outcome {
        let mut new = M {
            sig: key as u16,
            mv: r.mv,
            score: r.score,
            eval: r.eval,
            depth: r.depth.clamp(MIN_DEPTH, MAX_DEPTH),
            bound: r.bound,
            pv: r.pv,
            gen: self.gen,
            nodes: r.nodes,
        };
        let same = self
            .slots
            .iter()
            .position(|s| matches!(s, Some(m) if m.sig == new.sig));
        let empty = self.slots.iter().position(|s| s.is_none());
        match self.policy {
            Policy::AlwaysReplace => {
                if let Some(i) = same {
                    if new.mv == 0 {
                        new.mv = self.slots[i].unwrap().mv;
                    }
                    self.slots[i] = Some(new);
                    Outcome::Updated
                } else if let Some(i) = empty {
                    self.slots[i] = Some(new);
                    Outcome::Empty
                } else {
                    self.evict(Self::chosen(key, 3), new)
                }
            }
            Policy::DepthPreferred => {
                if let Some(i) = same {
                    return self.same_key(i, new);
                }
                if let Some(i) = empty {
                    self.slots[i] = Some(new);
                    return Outcome::Empty;
                }
                let aged: Vec<usize> = (0..3)
                    .filter(|&i| self.age(&self.slots[i].unwrap()) > 0)
                    .collect();
                let pool = if aged.is_empty() { vec![0, 1, 2] } else { aged };
                let mut victim = pool[0];
                for &i in &pool {
                    if self.slots[i].unwrap().depth < self.slots[victim].unwrap().depth {
                        victim = i;
                    }
                }
                let v = self.slots[victim].unwrap();
                if self.age(&v) > 0 || new.depth >= v.depth {
                    self.evict(victim, new)
                } else {
                    Outcome::Dropped
                }
            }
            Policy::TwoTier => {
                if let Some(i) = same {
                    return self.same_key(i, new);
                }
                match self.slots[0] {
                    None => {
                        self.slots[0] = Some(new);
                        return Outcome::Empty;
                    }
                    Some(d) if self.age(&d) > 0 || new.depth >= d.depth => {
                        return self.evict(0, new)
                    }
                    Some(_) => {}
                }
                for i in 1..3 {
                    if self.slots[i].is_none() {
                        self.slots[i] = Some(new);
                        return Outcome::Empty;
                    }
                }
                for i in 1..3 {
                    if self.age(&self.slots[i].unwrap()) > 0 {
                        return self.evict(i, new);
                    }
                }
                self.evict(1 + Self::chosen(key, 2), new)
            }
            // On one cluster (these tests), a line is that cluster alone.
            Policy::Buckets { age_weight } | Policy::LineBuckets { age_weight } => {
                if let Some(i) = same {
                    return self.same_key(i, new);
                }
                if let Some(i) = empty {
                    self.slots[i] = Some(new);
                    return Outcome::Empty;
                }
                let worth = |m: &M| m.depth - i32::from(age_weight) * i32::from(self.age(m));
                let mut victim = 0;
                for i in 1..3 {
                    if worth(&self.slots[i].unwrap()) < worth(&self.slots[victim].unwrap()) {
                        victim = i;
                    }
                }
                self.evict(victim, new)
            }
            Policy::MicroMax => {
                let order = self.scan_order(key);
                for &i in &order {
                    match self.slots[i] {
                        None => {
                            self.slots[i] = Some(new);
                            return Outcome::Empty;
                        }
                        Some(old) if old.sig == new.sig => {
                            if old.bound != Bound::Exact || old.depth <= new.depth {
                                if new.mv == 0 {
                                    new.mv = old.mv;
                                }
                                self.slots[i] = Some(new);
                                return Outcome::Updated;
                            }
                            return Outcome::Kept;
                        }
                        Some(_) => {}
                    }
                }
                for &i in &order {
                    if self.age(&self.slots[i].unwrap()) > 0 {
                        self.slots[i] = Some(new);
                        return Outcome::Aged;
                    }
                }
                Outcome::Dropped
            }
            Policy::TwoBig1 => {
                if let Some(i) = same {
                    return self.same_key(i, new);
                }
                let big = match self.slots[0] {
                    None => {
                        self.slots[0] = Some(new);
                        return Outcome::Empty;
                    }
                    Some(b) if self.age(&b) > 0 => return self.evict(0, new),
                    Some(b) => b,
                };
                // The always level: an empty slot, else an aged one, else the key's choice.
                let j = (1..3)
                    .find(|&i| self.slots[i].is_none())
                    .or_else(|| (1..3).find(|&i| self.age(&self.slots[i].unwrap()) > 0))
                    .unwrap_or_else(|| 1 + Self::chosen(key, 2));
                let outcome = match self.slots[j] {
                    None => Outcome::Empty,
                    Some(lost) if self.age(&lost) > 0 => Outcome::Aged,
                    Some(_) => Outcome::Replaced,
                };
                if new.nodes >= big.nodes {
                    self.slots[j] = Some(big);
                    self.slots[0] = Some(new);
                } else {
                    self.slots[j] = Some(new);
                }
                outcome
            }
        }
    }
}

#[derive(Clone, Debug)]
enum Op {
    Store(u64, Record),
    Probe(u64),
    NewSearch,
}

/// Keys: 5 signatures (more than 3 slots), arbitrary upper bits, so keys with equal
/// signatures also occur, as in any 16-bit-signature table.
fn key() -> impl Strategy<Value = u64> {
    (0u64..5, any::<u64>()).prop_map(|(sig, hi)| (hi & !0xFFFF) | (sig * 0x3001))
}

fn bound() -> impl Strategy<Value = Bound> {
    prop_oneof![
        Just(Bound::None),
        Just(Bound::Upper),
        Just(Bound::Lower),
        Just(Bound::Exact)
    ]
}

fn record() -> impl Strategy<Value = Record> {
    (
        0u16..4,
        any::<i16>(),
        any::<i16>(),
        -10i32..30,
        bound(),
        any::<bool>(),
        (0u64..6).prop_map(|n| n * 300), // few values: ties happen
    )
        .prop_map(|(mv, score, eval, depth, bound, pv, nodes)| Record {
            mv,
            score,
            eval,
            depth,
            bound,
            pv,
            nodes,
        })
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => (key(), record()).prop_map(|(k, r)| Op::Store(k, r)),
        4 => key().prop_map(Op::Probe),
        1 => Just(Op::NewSearch),
    ]
}

fn check(policy: Policy, ops: &[Op]) -> Result<(), TestCaseError> {
    check_table(Table::with_clusters(1, policy).unwrap(), policy, ops)?;
    if policy != Policy::MicroMax {
        // Shadow keys verifying 16 bits decide exactly as the 16-bit signatures do.
        check_table(Table::with_shadow(1, policy, 16).unwrap(), policy, ops)?;
    }
    Ok(())
}

fn check_table(table: Table, policy: Policy, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut model = Model::new(policy);
    for (n, op) in ops.iter().enumerate() {
        match *op {
            Op::Store(k, r) => {
                prop_assert_eq!(table.store(k, r), model.store(k, r), "op {}: {:?}", n, op)
            }
            Op::Probe(k) => prop_assert_eq!(table.probe(k), model.probe(k), "op {}: {:?}", n, op),
            Op::NewSearch => {
                table.new_search();
                model.gen = (model.gen + 1) % 32;
            }
        }
    }
    // Finally every signature agrees.
    for sig in 0..5u64 {
        prop_assert_eq!(table.probe(sig * 0x3001), model.probe(sig * 0x3001));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn always_replace_matches_model(ops in prop::collection::vec(op(), 1..80)) {
        check(Policy::AlwaysReplace, &ops)?;
    }

    #[test]
    fn depth_preferred_matches_model(ops in prop::collection::vec(op(), 1..80)) {
        check(Policy::DepthPreferred, &ops)?;
    }

    #[test]
    fn two_tier_matches_model(ops in prop::collection::vec(op(), 1..80)) {
        check(Policy::TwoTier, &ops)?;
    }

    #[test]
    fn buckets_matches_model(ops in prop::collection::vec(op(), 1..80), k in 0u8..12) {
        check(Policy::Buckets { age_weight: k }, &ops)?;
    }

    #[test]
    fn two_big1_matches_model(ops in prop::collection::vec(op(), 1..80)) {
        check(Policy::TwoBig1, &ops)?;
    }

    #[test]
    fn line_buckets_on_one_cluster_matches_model(ops in prop::collection::vec(op(), 1..80)) {
        check(Policy::LineBuckets { age_weight: 8 }, &ops)?;
    }

    #[test]
    fn micro_max_matches_model(ops in prop::collection::vec(op(), 1..80)) {
        check(Policy::MicroMax, &ops)?;
    }
}
