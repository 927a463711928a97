//! The table: sizing, indexing, generations (aging, hashfull), clearing, and the dispatch of
//! probes and stores to the path of the policy's layout.
//!
//! Where a policy's slots are and how it probes and stores them is the policy's own file's
//! business (`policy/`); the table only picks the path from [`Layout`] once, when the policy
//! is set, and hands it the clusters, the key's index and the counters. Shadow keys
//! (`shadow.rs`) and statistics (`stats.rs`) hook in here: one path and one field each.

use crate::alloc::{Buffer, TableError};
use crate::cluster::{Cluster, SLOTS};
use crate::entry::{relative_age, Data, Entry, Record, GENERATIONS, NO_EVAL};
use crate::memory;
use crate::policy::{self, line_buckets, micro_max, two_big1, Layout, Outcome, Policy};
use crate::prefetch::prefetch;
use crate::shadow::Shadow;
use crate::stats::Counters;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// Bytes in a MiB.
const MIB: usize = 1 << 20;
/// Bytes in a cluster.
const CLUSTER: usize = std::mem::size_of::<Cluster>();
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
    /// How probes and stores go, from the policy's layout and the shadow.
    path: Path,
    huge_pages: bool,
    /// Whether `new_search` advances the generation.
    aging: bool,
    generation: AtomicU8,
    counters: Counters,
    shadow: Option<Shadow>,
}

/// The path a probe or store takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Path {
    /// The policy's own ([`Policy::layout`]).
    Layout(Layout),
    /// The key's cluster, matched through the shadow keys (laboratory, `shadow.rs`).
    Shadow,
}

impl Path {
    fn of(policy: Policy, shadow: bool) -> Path {
        if shadow {
            Path::Shadow
        } else {
            Path::Layout(policy.layout())
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
pub(crate) fn fastrange(key: u64, n: usize) -> usize {
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
            path: Path::of(policy, false),
            huge_pages,
            aging: true,
            generation: AtomicU8::new(0),
            counters: Counters::new(),
            shadow: None,
        })
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
        self.path = Path::of(self.policy, false);
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
        self.path = Path::of(policy, self.shadow.is_some());
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

    /// The shadow keys, if the table keeps them.
    pub(crate) fn shadow(&self) -> Option<&Shadow> {
        self.shadow.as_ref()
    }

    /// Keeps shadow keys from now on (`Table::with_shadow`).
    pub(crate) fn set_shadow(&mut self, shadow: Shadow) {
        self.shadow = Some(shadow);
        self.path = Path::of(self.policy, true);
    }

    /// The counters (feature `stats`; nothing without it).
    pub(crate) fn counters(&self) -> &Counters {
        &self.counters
    }

    /// What the entries' evaluation field holds under the current policy.
    pub(crate) fn eval_field(&self) -> crate::file::EvalField {
        if self.policy.keeps_eval() {
            crate::file::EvalField::Eval
        } else {
            crate::file::EvalField::Size
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
    pub(crate) fn cluster_index(&self, key: u64) -> usize {
        fastrange(key, self.clusters())
    }

    /// The index of `key`'s home entry among all entries (in its cluster: `home / 3` is
    /// [`Table::cluster_index`]), where micro-Max's run starts.
    #[inline]
    fn home_entry(&self, key: u64) -> usize {
        fastrange(key, self.entries())
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
    // (the out-of-line `micro_max::probe` returns it through memory), whose 16-bit field stores
    // were then read back with a 32-bit load that store forwarding cannot serve, another
    // stall on the path of a cold probe (issue 3). `Option<Data>` travels in registers.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.counters.probe();
        let sig = key as u16;
        let counters = &self.counters;
        let found = match self.path {
            Path::Layout(Layout::Cluster | Layout::Sized) => {
                policy::probe_in_cluster(self.cluster(key), sig, counters)
            }
            Path::Layout(Layout::Run) => {
                micro_max::probe(self.buf.clusters(), self.home_entry(key), sig, counters)
            }
            Path::Layout(Layout::Line) => {
                line_buckets::probe(self.buf.clusters(), self.cluster_index(key), sig, counters)
            }
            Path::Shadow => self.probe_shadow(key),
        };
        let d = found?;
        self.counters.hit();
        let mut entry = d.unpack(self.generation());
        if !self.policy.keeps_eval() {
            entry.eval = NO_EVAL;
        }
        Some(entry)
    }

    /// The shadow keys' probe (laboratory), out of the way of the others.
    #[cold]
    fn probe_shadow(&self, key: u64) -> Option<Data> {
        let c = self.cluster_index(key);
        self.shadow.as_ref()?.probe(&self.buf.clusters()[c], c, key)
    }

    /// The shadow keys' store (laboratory), out of the way of the others.
    #[cold]
    fn store_shadow(&self, key: u64, record: &Record, gen: u8) -> Outcome {
        let Some(shadow) = &self.shadow else {
            return Outcome::Dropped;
        };
        let c = self.cluster_index(key);
        let new = self.policy.pack(record, gen);
        shadow.store(&self.buf.clusters()[c], c, self.policy, key, new, gen)
    }

    /// Stores `record` for `key` as the policy decides, and says what happened.
    #[inline]
    pub fn store(&self, key: u64, record: Record) -> Outcome {
        let sig = key as u16;
        let gen = self.generation();
        let counters = &self.counters;
        let outcome = match self.path {
            Path::Layout(Layout::Cluster) => {
                let new = Data::pack(&record, gen);
                policy::store_in_cluster::<false>(self.cluster(key), sig, counters, |slots| {
                    policy::decide(self.policy, slots, key, sig, new, gen)
                })
            }
            Path::Layout(Layout::Sized) => {
                two_big1::store(self.cluster(key), key, sig, &record, gen, counters)
            }
            Path::Layout(Layout::Run) => {
                let (clusters, home) = (self.buf.clusters(), self.home_entry(key));
                micro_max::store(clusters, home, sig, Data::pack(&record, gen), gen, counters)
            }
            Path::Layout(Layout::Line) => {
                let (clusters, c) = (self.buf.clusters(), self.cluster_index(key));
                let (new, k) = (Data::pack(&record, gen), self.policy.age_weight());
                line_buckets::store(clusters, c, sig, new, gen, k, counters)
            }
            Path::Shadow => self.store_shadow(key, &record, gen),
        };
        self.counters.store(outcome);
        outcome
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
}

#[cfg(test)]
mod tests;
