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
//! table.store(key, Record { mv: 0x0C1C, score: 35, eval: 20, depth: 7, bound: Bound::Lower, pv: false });
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
//! per such probe (1 in 21 845); under [`Policy::MicroMax`] up to 8 slots are compared:
//! 8 / 2¹⁶ ≈ 1.2·10⁻⁴. Users must check that a returned move is legal before playing it.
//!
//! # Concurrency
//!
//! One table is shared by all threads as `&Table`. There are no locks and no `unsafe` in
//! the data path: every access is one 64-bit atomic load or store (Relaxed for data words,
//! Release/Acquire for the tag word, which on x86-64 compile to plain `mov`s). A store reads
//! its cluster, lets the policy choose a slot, writes that data word, then writes the new tag
//! word whose check word hashes all three data words. A probe reads the tag word, the three
//! data words and the tag word again, and accepts a signature match only if both tag reads
//! agree and the check word matches the data words. Interleavings:
//!
//! * *new tags, old data*: impossible — the tag word is stored with Release after the data
//!   word and loaded with Acquire before it, so a reader that sees the new tags sees the new
//!   data (or newer).
//! * *old tags, new data* (a store is between its two writes): the check word in the old tags
//!   does not match the new data, so the probe misses; if the new tag word lands while the
//!   reader works, the two tag reads differ and the probe misses too.
//! * *two stores race on one cluster*: the later tag word may describe a slot whose data the
//!   other store changed, so memory itself is inconsistent; every reader then misses on that
//!   cluster (check mismatch), and the next store rewrites it from scratch.
//!
//! What is left is a 16-bit check-word collision on a cluster caught mid-race: probability
//! 2⁻¹⁶ per torn read, and torn reads themselves need two threads on the same 32 bytes
//! within nanoseconds. The torture test in `tests/torture.rs` stores payloads derived from
//! keys from several threads into a tiny table and checks that no hit ever carries a payload
//! that does not belong to its key.
//!
//! # Memory
//!
//! On Linux tables of 2 MiB or more are an anonymous `mmap`, 2 MiB-aligned, advised
//! `MADV_HUGEPAGE`; smaller tables and other systems use the standard allocator. Fresh
//! memory is zero, and zero is an empty table. Allocation failures are [`TableError`]s.
//!
//! # Policies
//!
//! See [`Policy`]; the default is Stockfish-like buckets (`depth − 8 · relative age`).
//!
//! # Features
//!
//! `stats`: relaxed atomic counters of probes, hits, torn reads, stores by [`Outcome`] and
//! cluster repairs, read with `Table::stats`. Off by default, and then free.
#![deny(missing_docs)]

mod alloc;
mod cluster;
mod entry;
mod policy;
mod prefetch;
mod stats;
mod table;

pub use alloc::TableError;
pub use entry::{Bound, Entry, Record, DEPTH_OFFSET, GENERATIONS, MAX_DEPTH, MIN_DEPTH};
pub use policy::{Outcome, Policy};
#[cfg(feature = "stats")]
pub use stats::Stats;
pub use table::{Config, Table};
