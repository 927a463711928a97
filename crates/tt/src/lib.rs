//! A game-agnostic, lock-free transposition table with selectable replacement policies.
//!
//! Chess is its first user, not its only one: keys are `u64` hashes, moves are 16 opaque
//! bits, scores and static evaluations are `i16`, depths are signed plies.
//!
//! ```
//! use engram_tt::{Bound, Record, Table};
//!
//! let table = Table::new(16)?; // 16 MiB; any size in MiB, not only powers of two
//! let key = 0x9D39_247E_3377_6D41_u64;
//!
//! table.prefetch(key); // e.g. right after computing a child's key
//! assert!(table.probe(key).is_none());
//! table.store(key, Record { mv: 0x0C1C, score: 35, eval: 20, depth: 7, bound: Bound::Lower, pv: false, nodes: 0 });
//!
//! let hit = table.probe(key).expect("just stored");
//! assert_eq!((hit.mv, hit.score, hit.depth, hit.bound), (0x0C1C, 35, 7, Bound::Lower));
//!
//! table.new_search(); // once per search: older entries age and are replaced first
//! assert_eq!(table.probe(key).unwrap().age, 1);
//! assert_eq!(table.hashfull(), 0); // per mille, current search only
//! table.clear(2); // zero with two threads
//! # Ok::<(), engram_tt::TableError>(())
//! ```
//!
//! # Layout
//!
//! The table is an array of 32-byte, 32-byte-aligned clusters, two per cache line. A cluster
//! is four `AtomicU64`: a tag word holding three 16-bit signatures and a 16-bit check word,
//! then three data words, one per entry: move 16, score 16, eval 16, depth 8 (depth + 7;
//! 0 = empty), generation 5 · pv 1 · bound 2. That is Stockfish's density (3 entries per
//! 32 bytes) with a check word in the two bytes Stockfish leaves as padding.
//!
//! A key picks its cluster by multiply-high ("fastrange": `(key · clusters) >> 64`), which
//! uses the key's high bits and works for any cluster count; the signature is the key's low
//! 16 bits. The two are independent as long as the table has fewer than 2⁴⁸ clusters (8 PiB).
//!
//! # Collisions
//!
//! A probe for an absent key compares its 16-bit signature with the (at most) 3 occupied
//! slots of its cluster, so a false hit happens with probability at most 3 / 2¹⁶ ≈ 4.6·10⁻⁵
//! per such probe (1 in 21 845); under [`Policy::LineBuckets`] up to 6 slots are compared
//! (9.2·10⁻⁵), under [`Policy::MicroMax`] up to 8: 8 / 2¹⁶ ≈ 1.2·10⁻⁴. Users must check that a returned move is legal before playing it.
//!
//! # Concurrency
//!
//! One table is shared by all threads as `&Table`. There are no locks, no waiting and no
//! `unsafe` in the data path: every access is one 64-bit atomic load, store or
//! compare-exchange (Relaxed for data words; Acquire/Release on the tag word, which on
//! x86-64 compile to plain `mov`s; never SeqCst). The tag word holds three 16-bit
//! signatures, a 15-bit check word (a hash of the three data words) and a *busy* bit.
//!
//! * **Store:** read the cluster (tag, data, tag); let the policy pick a slot; *claim* the
//!   cluster by compare-exchanging the tag word read into the same word with busy set; write
//!   the changed data word (Relaxed); *release* by storing the new tag word (new signature,
//!   new check word, busy clear) with Release. If the claim fails, another store got there
//!   first: this store gives up and returns [`Outcome::Busy`]. Nobody ever waits, so a
//!   thread stalled mid-store only hides its one cluster until it resumes.
//! * **Probe:** read the tag word (Acquire), the three data words, then (after an Acquire
//!   fence) the tag word again; trust a signature match only if both tag reads are equal,
//!   busy is clear, and the check word matches the data words. Otherwise it is a miss.
//!
//! Why a torn entry (a signature from one store, data from another) never comes back:
//!
//! * *new tags, old data*: the tag word is released after the data word and acquired before
//!   it, so a reader that sees the new tags sees the new data (or newer).
//! * *old tags, new data*: the data word read was written after some store's claim, which
//!   set busy. Through the Release fence after the claim and the reader's Acquire fence, the
//!   second tag read sees that claim or a later value, so it differs from the first read
//!   (or shows busy): miss.
//! * *two stores at once*: the claim is a compare-exchange on the tag word, so at most one
//!   store writes a cluster at a time; the loser writes nothing. Memory is therefore always
//!   one consistent cluster state between claims.
//! * What remains is ABA: during one probe's few nanoseconds, stores bring the tag word back
//!   to exactly the value first read, including the 15-bit check word, with different data.
//!   A single same-key update that leaves the signatures unchanged is harmless (each slot's
//!   data word is read whole and still belongs to its signature); anything else needs a
//!   2⁻¹⁵ check-word collision on top of a race. The check word is the second line of
//!   defence and also catches memory that was corrupted some other way (a store that finds
//!   its cluster inconsistent while no one is writing it rewrites it from scratch).
//!
//! `tests/torture.rs` proves it in practice: four threads store payloads derived from their
//! keys into a 16-cluster table while probing, 10⁷ operations per policy, and no hit may
//! carry another key's payload. With `--features stats` it prints how many torn reads were
//! caught (tens of thousands per policy on 2 cores).
//!
//! # Memory
//!
//! On Linux tables of 2 MiB or more are an anonymous `mmap`, 2 MiB-aligned, advised
//! `MADV_HUGEPAGE`; smaller tables and other systems use the standard allocator. Fresh
//! memory is zero, and zero is an empty table. Allocation failures are [`TableError`]s.
//!
//! With overcommit, `mmap` may accept more than the machine can hold and the process is
//! killed when the memory is first written. So on Linux a table larger than
//! [`UNCHECKED_MIB`] MiB is first checked against `/proc/meminfo`'s `MemAvailable`
//! ([`mem_available`]) and refused with [`TableError::OutOfMemory`] if it is larger than
//! [`table_budget`] of it (90 %, leaving at least 64 MiB); [`Table::check_memory`] makes the
//! same check without allocating.
//!
//! # Policies
//!
//! See [`Policy`]; the default is Stockfish-like buckets (`depth − 8 · relative age`).
//! [`Policy::all`] lists every policy once, [`Policy::NAMES`] their names (what the engine's
//! `Replacement` option offers) and [`Policy::from_name`] parses one. Each policy is one file
//! under `src/policy/`: its name, where its slots are, how it probes them and which one a
//! store overwrites.
//!
//! # Features
//!
//! `stats`: relaxed atomic counters of probes, hits, torn reads, stores by [`Outcome`] and
//! cluster repairs, read with `Table::stats`. Off by default, and then free.
#![deny(missing_docs)]

mod alloc;
#[doc(hidden)]
pub mod bench_support;
mod cluster;
mod entry;
mod file;
mod memory;
mod policy;
mod prefetch;
mod shadow;
mod stats;
mod table;

pub use alloc::TableError;
pub use entry::{
    size_code, Bound, Entry, Record, DEPTH_OFFSET, GENERATIONS, MAX_DEPTH, MIN_DEPTH, NO_EVAL,
};
pub use file::{
    read_info, write_atomic, EvalField, FileError, FileInfo, FileKind, LoadReport, Memory,
    FORMAT_VERSION, HEADER_BYTES, LAYOUT_VERSION,
};
pub use memory::{mem_available, parse_mem_available, table_budget, RESERVE_MIB, UNCHECKED_MIB};
pub use policy::{Outcome, Policy};
pub use shadow::ShadowStats;
#[cfg(feature = "stats")]
pub use stats::Stats;
pub use table::{Config, Table};
