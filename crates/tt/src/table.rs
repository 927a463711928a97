//! The table: sizing, indexing, probe, store, prefetch, aging, hashfull, clear.

use crate::alloc::{Buffer, TableError};
use crate::cluster::{Cluster, Snapshot, SLOTS};
use crate::entry::{relative_age, Data, Entry, Record, GENERATIONS, NO_EVAL};
use crate::memory;
use crate::policy::{self, Outcome, Policy, Slot};
use crate::prefetch::prefetch;
use crate::shadow::{Shadow, ShadowStats};
use crate::stats::Counters;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Bytes in a MiB.
const MIB: usize = 1 << 20;
/// Bytes in a cluster.
const CLUSTER: usize = std::mem::size_of::<Cluster>();
/// Entries micro-Max's re-probe scans.
const RUN: usize = 8;
/// Clusters sampled by [`Table::hashfull`]: 333 × 3 = 999 entries.
const HASHFULL_CLUSTERS: usize = 333;

/// How to build a [`Table`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Size in MiB (at least 1). Any value, not only powers of two.
    pub mib: usize,
    /// Replacement policy.
    pub policy: Policy,
    /// On Linux, advise transparent huge pages (`MADV_HUGEPAGE`) for tables of 2 MiB or
    /// more; `false` forbids them (`MADV_NOHUGEPAGE`), to measure what they bring.
    pub huge_pages: bool,
}

impl Default for Config {
    /// 16 MiB, [`Policy::default`], huge pages on.
    fn default() -> Self {
        Config {
            mib: 16,
            policy: Policy::default(),
            huge_pages: true,
        }
    }
}

/// A shared, lock-free transposition table. See the crate docs for the design.
///
/// All search-time methods take `&self`; share one table between threads by reference
/// (it is `Send + Sync`).
pub struct Table {
    buf: Buffer,
    policy: Policy,
    /// How probes and stores go, from the policy and the shadow.
    mode: Mode,
    huge_pages: bool,
    /// Whether `new_search` advances the generation.
    aging: bool,
    generation: AtomicU8,
    counters: Counters,
    shadow: Option<Shadow>,
}

/// The path a probe or store takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// One cluster; every policy but those below.
    Cluster,
    /// One cluster, subtree sizes kept in place of the evaluation ([`Policy::TwoBig1`]).
    Sized,
    /// Micro-Max's run of 8 entries.
    Run,
    /// The two clusters of a cache line ([`Policy::LineBuckets`]).
    Line,
    /// One cluster, matched through the shadow keys (laboratory).
    Shadow,
}

impl Mode {
    fn of(policy: Policy, shadow: bool) -> Mode {
        match policy {
            _ if shadow => Mode::Shadow,
            Policy::MicroMax => Mode::Run,
            Policy::LineBuckets { .. } => Mode::Line,
            Policy::TwoBig1 => Mode::Sized,
            _ => Mode::Cluster,
        }
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("clusters", &self.clusters())
            .field("policy", &self.policy)
            .field("huge_pages", &self.buf.huge_pages())
            .field("generation", &self.generation())
            .finish()
    }
}

/// The high 64 bits of `key · n`: a uniform index in `0..n` from the key's high bits
/// ("fastrange", Lemire 2016), for any `n`, no power of two needed.
#[inline(always)]
fn fastrange(key: u64, n: usize) -> usize {
    ((u128::from(key) * n as u128) >> 64) as usize
}

/// Number of clusters in `mib` MiB.
fn clusters_in(mib: usize) -> Result<usize, TableError> {
    if mib == 0 {
        return Err(TableError::ZeroSize);
    }
    let bytes = mib
        .checked_mul(MIB)
        .filter(|&b| b <= isize::MAX as usize)
        .ok_or(TableError::TooLarge { mib })?;
    Ok(bytes / CLUSTER)
}

impl Table {
    /// A table of `mib` MiB with the default policy and huge pages.
    pub fn new(mib: usize) -> Result<Table, TableError> {
        Table::with_config(Config {
            mib,
            ..Config::default()
        })
    }

    /// A table as configured.
    ///
    /// A table larger than [`UNCHECKED_MIB`](crate::UNCHECKED_MIB) MiB that is larger than
    /// [`table_budget`](crate::table_budget) of the available memory
    /// ([`mem_available`](crate::mem_available)) is refused with
    /// [`TableError::OutOfMemory`] before anything is allocated.
    pub fn with_config(config: Config) -> Result<Table, TableError> {
        Table::with_config_probed(config, &mut memory::mem_available)
    }

    /// [`Table::with_config`], with the available memory read from `available`.
    fn with_config_probed(
        config: Config,
        available: &mut dyn FnMut() -> Option<u64>,
    ) -> Result<Table, TableError> {
        let clusters = clusters_in(config.mib)?;
        memory::check(clusters * CLUSTER, 0, available)?;
        Table::build(clusters, config.policy, config.huge_pages)
    }

    /// A table of exactly `clusters` clusters (3 entries each, 32 bytes), for tests and
    /// experiments that need tiny tables. Checked against the available memory like
    /// [`Table::with_config`].
    pub fn with_clusters(clusters: usize, policy: Policy) -> Result<Table, TableError> {
        if clusters == 0 {
            return Err(TableError::ZeroSize);
        }
        let bytes = clusters
            .checked_mul(CLUSTER)
            .ok_or(TableError::Alloc { bytes: usize::MAX })?;
        memory::check(bytes, 0, &mut memory::mem_available)?;
        Table::build(clusters, policy, true)
    }

    /// Checks, without allocating anything, whether `Table::new(mib)` would pass its own
    /// checks once `freed` bytes have been given back to the system (say, the
    /// [`bytes`](Table::bytes) of the table it replaces; only its resident part really
    /// counts, so this is the optimistic side). Returns [`TableError::ZeroSize`],
    /// [`TableError::TooLarge`] or [`TableError::OutOfMemory`] as [`Table::new`] would;
    /// `Ok` does not promise that the system will then grant the memory.
    pub fn check_memory(mib: usize, freed: usize) -> Result<(), TableError> {
        memory::check(
            clusters_in(mib)? * CLUSTER,
            freed,
            &mut memory::mem_available,
        )
    }

    fn build(clusters: usize, policy: Policy, huge_pages: bool) -> Result<Table, TableError> {
        Ok(Table {
            buf: Buffer::new(clusters, huge_pages)?,
            policy,
            mode: Mode::of(policy, false),
            huge_pages,
            aging: true,
            generation: AtomicU8::new(0),
            counters: Counters::new(),
            shadow: None,
        })
    }

    /// Laboratory: a table of `clusters` clusters with [shadow keys](crate::ShadowStats):
    /// the full key of every entry is kept beside it, probes and stores match only the low
    /// `bits` bits of the key (0–64), and every false hit is counted
    /// ([`Table::shadow_stats`]). Single-threaded use only; slower than a plain table. Under
    /// [`Policy::MicroMax`] only the key's own cluster is scanned.
    pub fn with_shadow(clusters: usize, policy: Policy, bits: u32) -> Result<Table, TableError> {
        let mut t = Table::with_clusters(clusters, policy)?;
        t.shadow = Some(Shadow::new(clusters, bits));
        t.mode = Mode::of(policy, true);
        Ok(t)
    }

    /// What the shadow keys counted since the table was made or
    /// [`Table::reset_shadow_stats`] (clearing the table keeps the counts); `None` without
    /// shadow keys.
    pub fn shadow_stats(&self) -> Option<ShadowStats> {
        self.shadow.as_ref().map(Shadow::stats)
    }

    /// Sets the shadow keys' counters to zero.
    pub fn reset_shadow_stats(&self) {
        if let Some(s) = &self.shadow {
            s.reset();
        }
    }

    /// Turns aging on (the default) or off. Off, [`Table::new_search`] leaves the generation
    /// as it is, so every entry looks as if the current search wrote it: the policies'
    /// preference for entries of older searches never applies (a laboratory switch, to
    /// measure what aging brings).
    pub fn set_aging(&mut self, on: bool) {
        self.aging = on;
    }

    /// Reallocates the table at `mib` MiB, empty, generation 0. The old memory is freed
    /// first, so a large table is never held twice.
    ///
    /// On error the error is returned and the table is still usable:
    /// * a size of 0, one too large for the address space, or one that does not fit in the
    ///   available memory even with this table's memory given back
    ///   ([`TableError::OutOfMemory`], see [`Table::check_memory`]) is refused before
    ///   anything is freed: the table is unchanged, entries included;
    /// * if, once the old memory is freed, the new size is still over the available memory
    ///   (the old table was not all resident, or others took memory meanwhile) or cannot be
    ///   allocated, the old size is allocated again: the table has its old number of
    ///   clusters, empty, generation 0;
    /// * only if even that fails is it left with a single cluster.
    pub fn resize(&mut self, mib: usize) -> Result<(), TableError> {
        self.resize_probed(mib, &mut memory::mem_available)
    }

    /// [`Table::resize`], with the available memory read from `available`.
    fn resize_probed(
        &mut self,
        mib: usize,
        available: &mut dyn FnMut() -> Option<u64>,
    ) -> Result<(), TableError> {
        let clusters = clusters_in(mib)?;
        let bytes = clusters * CLUSTER;
        memory::check(bytes, self.bytes(), available)?;
        let old = self.clusters();
        self.shadow = None;
        self.mode = Mode::of(self.policy, false);
        self.buf = Buffer::new(1, false)?;
        self.generation.store(0, Relaxed);
        // Read again now that the old memory is back with the system.
        let new = memory::check(bytes, 0, available)
            .and_then(|()| Buffer::new(clusters, self.huge_pages));
        match new {
            Ok(buf) => {
                self.buf = buf;
                Ok(())
            }
            Err(e) => {
                // The old memory was ours a moment ago; if it is gone, one cluster stays.
                if let Ok(buf) = Buffer::new(old, self.huge_pages) {
                    self.buf = buf;
                }
                Err(e)
            }
        }
    }

    /// Empties the table and resets the generation, zeroing it with `threads` threads
    /// (at least 1), each taking a contiguous share. Call only between searches: entries
    /// stored while it runs may survive it.
    pub fn clear(&self, threads: usize) {
        let clusters = self.buf.clusters();
        let share = clusters.len().div_ceil(threads.clamp(1, clusters.len()));
        std::thread::scope(|s| {
            let mut shares = clusters.chunks(share);
            let first = shares.next();
            for part in shares {
                s.spawn(move || part.iter().for_each(Cluster::clear));
            }
            first.into_iter().flatten().for_each(Cluster::clear);
        });
        if let Some(s) = &self.shadow {
            s.clear();
        }
        self.generation.store(0, Relaxed);
    }

    /// Starts a new search: bumps the 5-bit generation (wrapping), so that entries written
    /// before now age by one.
    pub fn new_search(&self) {
        if self.aging {
            self.generation.fetch_add(1, Relaxed);
        }
    }

    /// The current generation, 0–31.
    #[inline]
    pub fn generation(&self) -> u8 {
        self.generation.load(Relaxed) & (GENERATIONS - 1)
    }

    /// The replacement policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// Changes the replacement policy. Entries stay; switching to or from
    /// [`Policy::MicroMax`] (which places keys differently) is best followed by a clear.
    pub fn set_policy(&mut self, policy: Policy) {
        self.policy = policy;
        self.mode = Mode::of(policy, self.shadow.is_some());
    }

    /// Number of clusters.
    pub fn clusters(&self) -> usize {
        self.buf.clusters().len()
    }

    /// Size of the table's memory in bytes (32 per cluster).
    pub fn bytes(&self) -> usize {
        self.clusters() * CLUSTER
    }

    /// Size in MiB, rounded down: the `mib` a table built from a size in MiB was asked for.
    pub fn mib(&self) -> usize {
        self.bytes() / MIB
    }

    /// Number of entries (3 per cluster).
    pub fn entries(&self) -> usize {
        self.clusters() * SLOTS
    }

    /// Whether the memory was advised to use transparent huge pages (Linux, ≥ 2 MiB).
    pub fn huge_pages(&self) -> bool {
        self.buf.huge_pages()
    }

    /// The clusters, in order (for hash files).
    pub(crate) fn cluster_slice(&self) -> &[Cluster] {
        self.buf.clusters()
    }

    /// Whether the table keeps shadow keys (laboratory tables cannot be saved or loaded).
    pub(crate) fn has_shadow(&self) -> bool {
        self.shadow.is_some()
    }

    /// What the entries' evaluation field holds under the current policy.
    pub(crate) fn eval_field(&self) -> crate::file::EvalField {
        if self.policy == Policy::TwoBig1 {
            crate::file::EvalField::Size
        } else {
            crate::file::EvalField::Eval
        }
    }

    /// The table's memory as words (for `bench_support`).
    pub(crate) fn words(&self) -> &[std::sync::atomic::AtomicU64] {
        self.buf.words()
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        &self.buf.clusters()[self.cluster_index(key)]
    }

    /// The index of `key`'s cluster.
    #[inline(always)]
    fn cluster_index(&self, key: u64) -> usize {
        fastrange(key, self.clusters())
    }

    /// Hints the CPU to fetch the cache line `key` maps to; issue it early (for example
    /// right after computing a child's key) so a later probe or store finds it in cache.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.cluster(key));
    }

    /// Looks `key` up. Returns a copy of its entry, or `None` if it is absent or its
    /// cluster was caught being written by another thread.
    // Always inlined: out of line, the 14-byte `Option<Entry>` is returned through memory,
    // written as separate 8- and 16-bit stores, and a caller reading two fields with one
    // wider load cannot have it forwarded: that stall sat between the cache miss and the
    // next dependent access and cost about 20 ns per cold probe (16 MiB `probe_chain`: 70 →
    // 51 ns; issue 3).
    //
    // Both paths yield the packed data word and it is unpacked once, at the end: unpacking
    // inside the match made LLVM merge the two paths' `Option<Entry>` through a stack slot
    // (the out-of-line `probe_run` returns it through memory), whose 16-bit field stores
    // were then read back with a 32-bit load that store forwarding cannot serve, another
    // stall on the path of a cold probe (issue 3). `Option<Data>` travels in registers.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.counters.probe();
        let sig = key as u16;
        let found = match self.mode {
            Mode::Cluster | Mode::Sized => {
                let snap = self.cluster(key).load();
                match snap.lookup(sig) {
                    Some(d) if snap.is_consistent() => Some(d),
                    Some(_) => {
                        self.counters.torn();
                        None
                    }
                    None => None,
                }
            }
            Mode::Run => self.probe_run(key, sig),
            Mode::Line => self.probe_line(key, sig),
            Mode::Shadow => self.probe_shadow(key),
        };
        let d = found?;
        self.counters.hit();
        let mut entry = d.unpack(self.generation());
        if self.policy == Policy::TwoBig1 {
            entry.eval = NO_EVAL;
        }
        Some(entry)
    }

    /// The clusters of `key`'s cache line: its own cluster first, then its neighbour (none
    /// for the last cluster of an odd count).
    #[inline]
    fn line(&self, key: u64) -> (usize, Option<usize>) {
        let c = self.cluster_index(key);
        let other = c ^ 1;
        (c, (other < self.clusters()).then_some(other))
    }

    #[inline(never)]
    fn probe_line(&self, key: u64, sig: u16) -> Option<Data> {
        let clusters = self.buf.clusters();
        let (c, other) = self.line(key);
        for i in std::iter::once(c).chain(other) {
            let snap = clusters[i].load();
            match snap.lookup(sig) {
                Some(d) if snap.is_consistent() => return Some(d),
                Some(_) => {
                    self.counters.torn();
                    return None;
                }
                None => {}
            }
        }
        None
    }

    #[inline(never)]
    fn store_line(&self, key: u64, sig: u16, new: Data, gen: u8) -> Outcome {
        let clusters = self.buf.clusters();
        let (c, other) = self.line(key);
        let (ids, n) = match other {
            Some(o) => ([c, o], 2),
            None => ([c, c], 1),
        };
        let ids = &ids[..n];
        let mut reads = [(Snapshot::EMPTY, Snapshot::EMPTY); 2];
        for (k, &i) in ids.iter().enumerate() {
            match self.read_for_store(&clusters[i]) {
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
        let decision = policy::decide(self.policy, slots, key, sig, new, gen);
        if let Some(t) = decision.target {
            let k = t / SLOTS;
            let (read, base) = reads[k];
            if !clusters[ids[k]].commit::<false>(&read, base, t % SLOTS, sig, &decision) {
                return Outcome::Busy;
            }
        }
        decision.outcome
    }

    #[cold]
    fn probe_shadow(&self, key: u64) -> Option<Data> {
        let shadow = self.shadow.as_ref()?;
        let c = self.cluster_index(key);
        shadow.probe(&self.buf.clusters()[c], c, key)
    }

    #[cold]
    fn store_shadow(&self, key: u64, new: Data, gen: u8) -> Outcome {
        let Some(shadow) = &self.shadow else {
            return Outcome::Dropped;
        };
        let c = self.cluster_index(key);
        shadow.store(&self.buf.clusters()[c], c, self.policy, key, new, gen)
    }

    /// The data word in slot `i` of `snap`, if `snap` is one consistent cluster state.
    #[inline]
    fn validated(&self, snap: &Snapshot, i: usize) -> Option<Data> {
        if snap.is_consistent() {
            Some(snap.data[i])
        } else {
            self.counters.torn();
            None
        }
    }

    /// Stores `record` for `key` as the policy decides, and says what happened.
    #[inline]
    pub fn store(&self, key: u64, record: Record) -> Outcome {
        let sig = key as u16;
        let gen = self.generation();
        let outcome = match self.mode {
            Mode::Cluster => self.store_cluster::<false>(key, sig, Data::pack(&record, gen), gen),
            Mode::Sized => self.store_sized(key, sig, &record, gen),
            Mode::Run => self.store_run(key, sig, Data::pack(&record, gen), gen),
            Mode::Line => self.store_line(key, sig, Data::pack(&record, gen), gen),
            Mode::Shadow => {
                let new = if self.policy == Policy::TwoBig1 {
                    Data::pack_sized(&record, gen)
                } else {
                    Data::pack(&record, gen)
                };
                self.store_shadow(key, new, gen)
            }
        };
        self.counters.store(outcome);
        outcome
    }

    /// Stores `new` (signature `sig`) into `key`'s cluster as the policy decides; `DEMOTE`:
    /// the policy may move an entry to another slot ([`Policy::TwoBig1`]).
    #[inline(always)]
    fn store_cluster<const DEMOTE: bool>(&self, key: u64, sig: u16, new: Data, gen: u8) -> Outcome {
        let cluster = self.cluster(key);
        let Some((read, base)) = self.read_for_store(cluster) else {
            return Outcome::Busy;
        };
        let slots: [Slot; SLOTS] = std::array::from_fn(|i| Slot {
            sig: base.sig(i),
            data: base.data[i],
        });
        let decision = policy::decide(self.policy, &slots, key, sig, new, gen);
        match decision.target {
            Some(i) if !cluster.commit::<DEMOTE>(&read, base, i, sig, &decision) => Outcome::Busy,
            _ => decision.outcome,
        }
    }

    /// [`Table::store_cluster`] for [`Policy::TwoBig1`], out of the common path.
    #[inline(never)]
    fn store_sized(&self, key: u64, sig: u16, record: &Record, gen: u8) -> Outcome {
        self.store_cluster::<true>(key, sig, Data::pack_sized(record, gen), gen)
    }

    /// Reads a cluster to modify it: the state as read and the state to build on. That is
    /// the same consistent state, or, if the cluster is inconsistent twice in a row while no
    /// store is writing it, an empty state (the store then rewrites the cluster whole).
    /// `None` if another store is writing it.
    #[inline]
    pub(crate) fn read_for_store(&self, cluster: &Cluster) -> Option<(Snapshot, Snapshot)> {
        let read = cluster.load();
        if read.is_consistent() {
            return Some((read, read));
        }
        let again = cluster.load();
        if again.is_consistent() {
            return Some((again, again));
        }
        if again.is_busy() || !again.stable {
            return None;
        }
        self.counters.repair();
        Some((again, Snapshot::EMPTY))
    }

    /// Occupancy in per mille: entries of the current generation among the first 999
    /// entries (333 clusters), as UCI's `info hashfull` expects.
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation();
        let sample = &self.buf.clusters()[..self.clusters().min(HASHFULL_CLUSTERS)];
        let used = sample
            .iter()
            .flat_map(|c| (0..SLOTS).map(move |i| c.peek(i)))
            .filter(|d| !d.is_empty() && relative_age(gen, d.generation()) == 0)
            .count();
        (used * 1000 / (sample.len() * SLOTS)) as u32
    }

    /// The run of up to 8 consecutive entries micro-Max scans for `key`: (cluster, slot)
    /// pairs starting at the key's home entry, wrapping at the end of the table.
    #[inline]
    fn run(&self, key: u64) -> impl Iterator<Item = (usize, usize)> {
        let entries = self.entries();
        let home = fastrange(key, entries);
        (0..RUN.min(entries)).map(move |k| {
            let e = (home + k) % entries;
            (e / SLOTS, e % SLOTS)
        })
    }

    /// Loads each cluster of the run once; returns the snapshots and, per entry of the run,
    /// which snapshot and slot it is.
    #[inline]
    fn load_run(&self, key: u64) -> RunView {
        let clusters = self.buf.clusters();
        let mut view = RunView::default();
        for (c, slot) in self.run(key) {
            let k = match view.ids[..view.loaded].iter().position(|&id| id == c) {
                Some(k) => k,
                None => {
                    let k = view.loaded;
                    view.ids[k] = c;
                    view.snaps[k] = clusters[c].load();
                    view.loaded += 1;
                    k
                }
            };
            view.entries[view.len] = (k, slot);
            view.len += 1;
        }
        view
    }

    fn probe_run(&self, key: u64, sig: u16) -> Option<Data> {
        let view = self.load_run(key);
        for &(k, slot) in &view.entries[..view.len] {
            let snap = &view.snaps[k];
            if snap.data[slot].is_empty() {
                return None;
            }
            if snap.sig(slot) == sig {
                return self.validated(snap, slot);
            }
        }
        None
    }

    fn store_run(&self, key: u64, sig: u16, new: Data, gen: u8) -> Outcome {
        let clusters = self.buf.clusters();
        let mut view = self.load_run(key);
        let mut bases = view.snaps;
        for k in 0..view.loaded {
            match self.read_for_store(&clusters[view.ids[k]]) {
                Some((read, base)) => (view.snaps[k], bases[k]) = (read, base),
                None => return Outcome::Busy,
            }
        }
        let mut slots = [Slot::default(); RUN];
        for (j, &(k, slot)) in view.entries[..view.len].iter().enumerate() {
            slots[j] = Slot {
                sig: bases[k].sig(slot),
                data: bases[k].data[slot],
            };
        }
        let decision = policy::decide(Policy::MicroMax, &slots[..view.len], key, sig, new, gen);
        if let Some(j) = decision.target {
            let (k, slot) = view.entries[j];
            if !clusters[view.ids[k]].commit::<false>(
                &view.snaps[k],
                bases[k],
                slot,
                sig,
                &decision,
            ) {
                return Outcome::Busy;
            }
        }
        decision.outcome
    }

    /// The counters so far (feature `stats`).
    #[cfg(feature = "stats")]
    pub fn stats(&self) -> crate::Stats {
        self.counters.snapshot()
    }

    /// Sets all counters to zero (feature `stats`).
    #[cfg(feature = "stats")]
    pub fn reset_stats(&self) {
        self.counters.reset();
    }
}

/// Snapshots of the (at most 4) clusters a micro-Max run touches.
#[derive(Default)]
struct RunView {
    ids: [usize; 4],
    snaps: [Snapshot; 4],
    loaded: usize,
    entries: [(usize, usize); RUN],
    len: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::Bound;

    fn rec(depth: i32, mv: u16) -> Record {
        Record {
            mv,
            score: 10,
            eval: -3,
            depth,
            bound: Bound::Lower,
            pv: false,
            nodes: 0,
        }
    }

    #[test]
    fn table_is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Table>();
    }

    #[test]
    fn sizes_follow_mib_for_any_value() {
        for mib in [1, 3, 5, 7] {
            let t = Table::new(mib).unwrap();
            assert_eq!(t.clusters(), mib * MIB / 32);
            assert_eq!(t.entries(), 3 * t.clusters());
            assert_eq!(t.bytes(), mib * MIB);
            assert_eq!(t.mib(), mib);
        }
        let tiny = Table::with_clusters(1000, Policy::default()).unwrap();
        assert_eq!((tiny.bytes(), tiny.mib()), (32_000, 0));
        assert_eq!(Table::new(0).unwrap_err(), TableError::ZeroSize);
        assert_eq!(
            Table::new(usize::MAX).unwrap_err(),
            TableError::TooLarge { mib: usize::MAX }
        );
        let config = Config {
            mib: 1 << 40,
            ..Config::default()
        };
        assert!(matches!(
            Table::with_config_probed(config, &mut || None).unwrap_err(),
            TableError::Alloc { .. }
        ));
        if cfg!(target_os = "linux") {
            // 1 TiB is more than MemAvailable here: refused before mmap is even tried.
            assert!(matches!(
                Table::new(1 << 20).unwrap_err(),
                TableError::OutOfMemory { mib: 1_048_576, .. }
            ));
        }
    }

    #[test]
    fn fastrange_spreads_over_any_count() {
        assert_eq!(fastrange(0, 7), 0);
        assert_eq!(fastrange(u64::MAX, 7), 6);
        assert_eq!(fastrange(1 << 63, 10), 5);
        // Home entry / 3 is the home cluster, so micro-Max's run starts in it.
        for key in [1u64, 0xDEAD_BEEF_1234_5678, u64::MAX, 1 << 40] {
            assert_eq!(fastrange(key, 3 * 1000) / 3, fastrange(key, 1000));
        }
    }

    #[test]
    fn store_then_probe_round_trips_for_every_policy() {
        let policies = [
            Policy::AlwaysReplace,
            Policy::DepthPreferred,
            Policy::TwoTier,
            Policy::Buckets { age_weight: 4 },
            Policy::MicroMax,
        ];
        for p in policies {
            let t = Table::with_config(Config {
                mib: 1,
                policy: p,
                huge_pages: true,
            })
            .unwrap();
            let key = 0x1234_5678_9ABC_DEF0;
            assert_eq!(t.probe(key), None);
            assert_eq!(t.store(key, rec(5, 77)), Outcome::Empty);
            let e = t.probe(key).unwrap();
            assert_eq!(
                (e.mv, e.score, e.eval, e.depth, e.bound, e.age),
                (77, 10, -3, 5, Bound::Lower, 0)
            );
            assert_eq!(t.probe(key ^ 1), None, "{p:?}: other signature");
            // Same key, no move: move kept.
            assert_eq!(
                t.store(
                    key,
                    Record {
                        mv: 0,
                        depth: 9,
                        ..rec(9, 0)
                    }
                ),
                Outcome::Updated
            );
            assert_eq!(t.probe(key).unwrap().mv, 77);
        }
    }

    #[test]
    fn signature_zero_is_not_confused_with_an_empty_slot() {
        let t = Table::new(1).unwrap();
        assert_eq!(t.probe(0), None);
        assert_eq!(t.probe(1 << 32), None);
        t.store(1 << 32, rec(1, 1));
        assert_eq!(t.probe(1 << 32).unwrap().mv, 1);
    }

    #[test]
    fn aging_and_hashfull() {
        let t = Table::with_clusters(1000, Policy::default()).unwrap();
        assert_eq!(t.hashfull(), 0);
        // Fill the first 333 clusters completely: keys whose fastrange lands there.
        let step = u64::MAX / 1000;
        for c in 0..333u64 {
            for s in 0..3u64 {
                t.store(c * step + step / 2 + s, rec(3, 1));
            }
        }
        assert_eq!(t.hashfull(), 1000);
        t.new_search();
        assert_eq!(t.hashfull(), 0, "older entries do not count");
        let e = t.probe(step / 2).unwrap();
        assert_eq!((e.generation, e.age), (0, 1));
        for _ in 0..31 {
            t.new_search();
        }
        assert_eq!(t.generation(), 0, "five bits wrap");
        assert_eq!(t.hashfull(), 1000);
    }

    #[test]
    fn older_entries_are_replaced_first_even_if_deeper() {
        for p in [
            Policy::DepthPreferred,
            Policy::TwoTier,
            Policy::Buckets { age_weight: 8 },
            Policy::MicroMax,
        ] {
            let t = Table::with_clusters(1, p).unwrap();
            // Keys differ in signature only (one cluster anyway).
            t.store(1, rec(20, 1));
            t.store(2, rec(20, 2));
            t.store(3, rec(20, 3));
            t.new_search();
            t.store(4, rec(30, 4));
            t.store(5, rec(20, 5));
            t.store(6, rec(10, 6));
            for k in 1..=3 {
                assert_eq!(t.probe(k), None, "{p:?}: old key {k} should be gone");
            }
            for k in 4..=6 {
                assert_eq!(t.probe(k).map(|e| e.mv), Some(k as u16), "{p:?}");
            }
        }
    }

    #[test]
    fn clear_empties_with_any_thread_count() {
        for threads in [0, 1, 3, 64] {
            let t = Table::with_clusters(100, Policy::default()).unwrap();
            for k in 0..300u64 {
                t.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), rec(1, 1));
            }
            t.new_search();
            assert!(t.buf.clusters().iter().any(|c| c.load() != Snapshot::EMPTY));
            t.clear(threads);
            assert_eq!(t.generation(), 0);
            assert!(t.buf.clusters().iter().all(|c| c.load() == Snapshot::EMPTY));
        }
    }

    #[test]
    fn resize_changes_size_and_empties() {
        let mut t = Table::new(1).unwrap();
        t.store(42, rec(1, 1));
        t.resize(3).unwrap();
        assert_eq!(t.clusters(), 3 * MIB / 32);
        assert_eq!(t.probe(42), None);
        t.store(42, rec(1, 1));
        assert_eq!(t.resize(0), Err(TableError::ZeroSize));
        assert_eq!(
            t.resize(usize::MAX),
            Err(TableError::TooLarge { mib: usize::MAX })
        );
        assert_eq!(
            t.clusters(),
            3 * MIB / 32,
            "sizes refused up front change nothing"
        );
        assert!(t.probe(42).is_some(), "not even the entries");
    }

    /// Issue 13, fault 6a: a size the system cannot give leaves the table at its old size,
    /// not at one cluster.
    #[test]
    fn resize_keeps_the_old_size_when_the_new_one_cannot_be_allocated() {
        for old in [1, 3] {
            let mut t = Table::new(old).unwrap();
            t.store(42, rec(1, 1));
            t.new_search();
            // 2^60 bytes: fits in `isize`, but no machine maps that much. (Not checked
            // against the available memory, which would refuse it before freeing anything.)
            assert!(matches!(
                t.resize_probed(1 << 40, &mut || None),
                Err(TableError::Alloc { .. })
            ));
            assert_eq!(t.clusters(), old * MIB / 32, "old size kept");
            assert_eq!(t.generation(), 0);
            assert_eq!(t.probe(42), None, "empty, like after any resize");
            for k in 0..1000u64 {
                t.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), rec(2, k as u16));
            }
            let hits = (0..1000u64)
                .filter(|k| t.probe(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)).is_some())
                .count();
            assert!(hits > 990, "a usable table of the old size: {hits} hits");
        }
    }

    const GIB: u64 = 1 << 30;
    const MIB64: u64 = 1 << 20;

    /// Issue 13, fault 6b: a table over the available memory is refused before allocating,
    /// with an error that names the sizes.
    #[test]
    fn a_table_larger_than_the_available_memory_is_refused() {
        let config = |mib| Config {
            mib,
            ..Config::default()
        };
        let mut hundred = || Some(100 * MIB64);
        let err = Table::with_config_probed(config(1024), &mut hundred).unwrap_err();
        assert_eq!(
            err,
            TableError::OutOfMemory {
                mib: 1024,
                available_mib: 100,
                budget_mib: 36
            }
        );
        assert_eq!(
            err.to_string(),
            "a table of 1024 MiB does not fit in the memory available: 100 MiB available, \
             at most 36 MiB for the table"
        );
        assert!(Table::with_config_probed(config(37), &mut hundred).is_err());
        assert_eq!(
            Table::with_config_probed(config(36), &mut hundred)
                .unwrap()
                .mib(),
            36
        );
        // Small tables and unknown memory are not checked.
        let mut none_left = || Some(0);
        assert_eq!(
            Table::with_config_probed(config(16), &mut none_left)
                .unwrap()
                .mib(),
            16
        );
        assert_eq!(
            Table::with_config_probed(config(40), &mut || None)
                .unwrap()
                .mib(),
            40
        );
    }

    /// Issue 13, fault 6b: a resize over the available memory (even counting the old table
    /// as freed) changes nothing, entries included.
    #[test]
    fn resize_over_the_available_memory_changes_nothing() {
        let mut t = Table::new(3).unwrap();
        t.store(42, rec(1, 1));
        t.new_search();
        let mut hundred = || Some(100 * MIB64);
        assert_eq!(
            t.resize_probed(1024, &mut hundred),
            Err(TableError::OutOfMemory {
                mib: 1024,
                available_mib: 103,
                budget_mib: 39
            })
        );
        assert_eq!((t.clusters(), t.generation()), (3 * MIB / 32, 1));
        assert_eq!(t.probe(42).map(|e| e.mv), Some(1));
        // The old table's memory counts as available: 100 + 3 MiB, 39 MiB allowed; once it
        // is freed, the system reports it available.
        let mut readings = [Some(100 * MIB64), Some(103 * MIB64)].into_iter();
        t.resize_probed(39, &mut || readings.next().flatten())
            .unwrap();
        assert_eq!(t.mib(), 39);
    }

    /// If the memory is gone once the old table is freed (it was not all resident, or
    /// another process took it), the resize is refused and the old size comes back.
    #[test]
    fn resize_checks_again_after_freeing_and_falls_back_to_the_old_size() {
        let mut t = Table::new(3).unwrap();
        let mut readings = [Some(10 * GIB), Some(100 * MIB64)].into_iter();
        let mut available = || readings.next().flatten();
        assert_eq!(
            t.resize_probed(1024, &mut available),
            Err(TableError::OutOfMemory {
                mib: 1024,
                available_mib: 100,
                budget_mib: 36
            })
        );
        assert_eq!(readings.next(), None, "read before and after freeing");
        assert_eq!(t.clusters(), 3 * MIB / 32);
        t.store(42, rec(1, 1));
        assert!(t.probe(42).is_some());
    }

    /// The real figure: 95 % of MemAvailable is accepted by `mmap` (overcommit) but is over
    /// the budget, so it is refused; nothing is allocated, let alone touched.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_real_available_memory_is_checked() {
        let available = crate::mem_available().expect("MemAvailable");
        let mib = (available / MIB64 * 95 / 100) as usize;
        if mib <= crate::UNCHECKED_MIB {
            return; // a machine with almost nothing available: nothing to show
        }
        assert!(matches!(
            Table::new(mib),
            Err(TableError::OutOfMemory { mib: m, .. }) if m == mib
        ));
        let mut t = Table::new(2).unwrap();
        assert!(matches!(t.resize(mib), Err(TableError::OutOfMemory { .. })));
        assert_eq!(t.mib(), 2);
        assert!(matches!(
            Table::check_memory(mib, 0),
            Err(TableError::OutOfMemory { .. })
        ));
        assert_eq!(Table::check_memory(crate::UNCHECKED_MIB, 0), Ok(()));
        assert_eq!(Table::check_memory(0, 0), Err(TableError::ZeroSize));
    }

    #[test]
    fn torn_cluster_is_a_miss_and_is_repaired_by_the_next_store() {
        let t = Table::with_clusters(1, Policy::default()).unwrap();
        t.store(7, rec(4, 70));
        t.store(8, rec(4, 80));
        let c = &t.buf.clusters()[0];
        let s = c.load();
        // Put key 8's data word under key 7's signature: a tear.
        c.poke(s.tags, [s.data[1].0, s.data[1].0, s.data[2].0]);
        assert_eq!(t.probe(7), None);
        assert_eq!(t.probe(8), None);
        assert_eq!(t.store(9, rec(1, 90)), Outcome::Empty);
        assert!(c.load().is_consistent());
        assert_eq!(t.probe(9).map(|e| e.mv), Some(90));
    }

    #[test]
    fn a_cluster_being_written_is_a_miss_and_refuses_other_stores() {
        let t = Table::with_clusters(1, Policy::default()).unwrap();
        t.store(7, rec(4, 70));
        let c = &t.buf.clusters()[0];
        let s = c.load();
        assert!(c.claim(s.tags), "as if another thread were mid-store");
        assert_eq!(t.probe(7), None);
        assert_eq!(t.store(8, rec(4, 80)), Outcome::Busy);
        c.publish(&s, &s); // that thread finishes
        assert_eq!(t.probe(7).map(|e| e.mv), Some(70));
        assert_eq!(t.store(8, rec(4, 80)), Outcome::Empty);
    }

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

    #[test]
    fn line_buckets_spread_a_key_over_the_two_clusters_of_its_line() {
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

    #[test]
    fn two_big1_keeps_sizes_not_evaluations() {
        let t = Table::with_clusters(1, Policy::TwoBig1).unwrap();
        let big = Record {
            nodes: 50_000,
            ..rec(2, 1)
        };
        let small = Record {
            nodes: 10,
            ..rec(20, 2)
        };
        t.store(1, big);
        t.store(2, small);
        let bigger = Record {
            nodes: 60_000,
            ..rec(1, 3)
        };
        t.store(3, bigger);
        // All three are kept: the first moved down when the third took the big slot.
        for (k, mv) in [(1, 1), (2, 2), (3, 3)] {
            let e = t.probe(k).unwrap();
            assert_eq!((e.mv, e.eval), (mv, NO_EVAL));
        }
    }

    #[test]
    fn without_aging_new_searches_leave_the_generation() {
        let mut t = Table::new(1).unwrap();
        t.set_aging(false);
        t.store(5, rec(3, 1));
        t.new_search();
        assert_eq!((t.generation(), t.probe(5).unwrap().age), (0, 0));
        t.set_aging(true);
        t.new_search();
        assert_eq!(t.probe(5).unwrap().age, 1);
    }

    #[test]
    fn prefetch_is_harmless() {
        let t = Table::new(2).unwrap();
        for k in [0, 1, u64::MAX] {
            t.prefetch(k);
        }
    }

    #[test]
    fn huge_pages_are_requested_for_large_tables_on_linux() {
        let big = Table::new(4).unwrap();
        let off = Table::with_config(Config {
            mib: 4,
            huge_pages: false,
            ..Config::default()
        })
        .unwrap();
        assert_eq!(big.huge_pages(), cfg!(target_os = "linux"));
        assert!(!off.huge_pages());
        assert!(!Table::new(1).unwrap().huge_pages());
    }
}
