//! Probe and store cost against a DRAM baseline measured in the same run.
//!
//! For each configuration (16 MiB, 1 GiB, and 1 GiB without huge pages):
//!
//! * `chase`: one hop of a random pointer chase over a buffer as large as the table, one
//!   64-byte line per node, a single random cycle (Sattolo's algorithm): one cache miss
//!   (and, at 1 GiB, TLB miss) per hop with nothing to overlap it. The baseline. The buffer
//!   comes from the table's own allocator (`bench_support::Words`: same `mmap`, 2 MiB
//!   alignment, huge-page advice, first touch after the advice), so both sides get the same
//!   page backing; the huge-page coverage of both is printed before measuring.
//! * `probe_chain`: a pointer chase *through the table*: each probe's entry holds the next
//!   key, so probes are serial and each pays its full miss ("cold probe"). The chain visits
//!   every line of the table once per lap in random order, like `chase` its buffer; in each
//!   line a random cluster, a random slot among three entries, a random signature. The next
//!   key is rebuilt from the entry with two shifts and an or, so the only work between two
//!   misses is the probe's own.
//! * `probe_indep`: independent random probes, no prefetch (out-of-order overlap only).
//! * `probe_prefetch`: independent random probes, each key prefetched one step ahead.
//! * `probe_prefetch4`: the same, prefetched four steps ahead (for comparison).
//! * `store_indep`, `store_prefetch`: the same for stores.
//! * `chase_table`: last, the `chase` cycle written over the table's own memory and walked:
//!   the baseline on exactly the memory the probes used (a check that the table's mapping
//!   costs what the baseline's does).
//!
//! Run: `cargo bench -p engram-tt --bench tt` (about two minutes; needs ~3 GiB of RAM).
//! `TT_BENCH_ONLY=1GiB` runs one configuration. Medians end up in
//! `target/criterion/<config>/<bench>/new/estimates.json`.

use criterion::{criterion_group, criterion_main, Criterion};
use engram_tt::bench_support::{huge_page_coverage, table_words, Words};
use engram_tt::{Bound, Config, Policy, Record, Table};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// A bijective 64-bit mixer (splitmix64's finaliser): index → well-spread key.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The chain's key for the 48-bit value `h`: `h` in the top 48 bits (which pick the
/// cluster), its low 16 bits again as the signature.
#[inline(always)]
fn chain_key(h: u64) -> u64 {
    (h << 16) | (h & 0xFFFF)
}

/// A random cyclic permutation of `0..n` (Sattolo's algorithm): `next[i]` follows `i`.
fn sattolo(n: usize, seed: u64) -> Vec<u32> {
    let mut next: Vec<u32> = (0..n as u32).collect();
    let mut rng = seed;
    for i in (1..n).rev() {
        rng = mix(rng.wrapping_add(i as u64));
        let j = ((u128::from(rng) * i as u128) >> 64) as usize; // uniform in 0..i
        next.swap(i, j);
    }
    next
}

/// Writes the cycle `next` into `words`, one node per 64-byte line (word 0 of line `i`
/// holds the next line's index).
fn write_cycle(words: &[AtomicU64], next: &[u32]) {
    for (i, &n) in next.iter().enumerate() {
        words[8 * i].store(u64::from(n), Relaxed);
    }
}

/// A table of `mib` MiB (a power of two) holding a chain for `probe_chain` that walks the
/// table as `chase` walks its buffer: one member per 64-byte line, around one random cycle
/// over all lines. Member `l` lives in a random one of line `l`'s two clusters, under a random
/// signature, in a random slot among two other entries (fillers, never probed), and stores
/// the next member's `h` (in the move, score and eval); its key is `chain_key(h)`, with `h`'s
/// top bits naming its cluster and the rest random. Returns the table and the first `h`.
fn chained_table(mib: usize, huge_pages: bool) -> (Table, u64) {
    let table = Table::with_config(Config {
        mib,
        policy: Policy::default(),
        huge_pages,
    })
    .unwrap();
    table.clear(2); // fault every page in: untouched pages would all read the zero page
    let clusters = table.clusters();
    assert!(
        clusters.is_power_of_two(),
        "probe_chain needs a power-of-two table"
    );
    let low = 48 - clusters.trailing_zeros(); // h's bits below the cluster number
    let h_of = |l: usize, filler: u64| {
        let r = mix(l as u64);
        let cluster = 2 * l as u64 + (r >> 63);
        let middle = mix(r ^ filler) & ((1 << low) - 1) & !0xFFFF;
        // Fillers differ from the member in the signature (h's low 16 bits).
        let sig = (r + filler) & 0xFFFF;
        (cluster << low) | middle | sig
    };
    let rec = |payload: u64| Record {
        mv: payload as u16,
        score: (payload >> 16) as u16 as i16,
        eval: (payload >> 32) as u16 as i16,
        depth: 1,
        bound: Bound::Exact,
        pv: false,
        nodes: 0,
    };
    let lines = clusters / 2;
    for (l, &next) in sattolo(lines, 2).iter().enumerate() {
        let before = mix(l as u64 + 7) % 3; // fillers stored before the member: its slot
        for f in 1..=before {
            table.store(chain_key(h_of(l, f)), rec(0));
        }
        table.store(chain_key(h_of(l, 0)), rec(h_of(next as usize, 0)));
        for f in before + 1..=2 {
            table.store(chain_key(h_of(l, f)), rec(0));
        }
    }
    (table, h_of(0, 0))
}

fn coverage(words: &[AtomicU64]) -> String {
    let r = words.as_ptr_range();
    huge_page_coverage(r.start as usize..r.end as usize)
        .map_or_else(|| "no /proc/self/smaps".to_string(), |c| c.to_string())
}

fn configs(c: &mut Criterion) {
    for (name, mib, huge) in [
        ("16MiB", 16, true),
        ("1GiB", 1024, true),
        ("1GiB-4K", 1024, false),
    ] {
        let only = std::env::var("TT_BENCH_ONLY").unwrap_or_default();
        if !only.is_empty() && only != name {
            continue;
        }
        let bytes = mib << 20;
        let cycle = sattolo(bytes / 64, 1);
        let buffer = Words::new(bytes, huge).unwrap();
        let lines = buffer.words();
        write_cycle(lines, &cycle);
        let (table, first) = chained_table(mib, huge);
        // Both should be (almost) all huge pages, or none.
        eprintln!("{name}: chase buffer: {}", coverage(lines));
        eprintln!("{name}: table:        {}", coverage(table_words(&table)));
        let mut g = c.benchmark_group(name);

        let mut at = 0usize;
        g.bench_function("chase", |b| {
            b.iter(|| {
                at = lines[8 * at].load(Relaxed) as usize;
                at
            })
        });
        drop(buffer);

        let mut h = first;
        let mut missing = 0u64;
        g.bench_function("probe_chain", |b| {
            b.iter(|| {
                h = match table.probe(chain_key(h)) {
                    Some(e) => {
                        u64::from(e.mv)
                            | u64::from(e.score as u16) << 16
                            | u64::from(e.eval as u16) << 32
                    }
                    // Cannot happen (see `chained_table`); counted below to be sure.
                    None => {
                        missing += 1;
                        first
                    }
                };
                h
            })
        });
        eprintln!("{name}: probe_chain lost its chain {missing} times (must be 0)");

        let mut k = 1u64 << 40;
        g.bench_function("probe_indep", |b| {
            b.iter(|| {
                k += 1;
                table.probe(mix(k))
            })
        });
        g.bench_function("probe_prefetch", |b| {
            b.iter(|| {
                k += 1;
                table.prefetch(mix(k + 1));
                table.probe(mix(k))
            })
        });
        g.bench_function("probe_prefetch4", |b| {
            b.iter(|| {
                k += 1;
                table.prefetch(mix(k + 4));
                table.probe(mix(k))
            })
        });
        let rec = Record {
            mv: 1,
            score: 2,
            eval: 3,
            depth: 4,
            bound: Bound::Lower,
            pv: false,
            nodes: 0,
        };
        g.bench_function("store_indep", |b| {
            b.iter(|| {
                k += 1;
                table.store(mix(k), rec)
            })
        });
        g.bench_function("store_prefetch", |b| {
            b.iter(|| {
                k += 1;
                table.prefetch(mix(k + 1));
                table.store(mix(k), rec)
            })
        });

        // The baseline again, over the table's own memory (this ends the table's use).
        let mem = table_words(&table);
        write_cycle(mem, &cycle);
        let mut at = 0usize;
        g.bench_function("chase_table", |b| {
            b.iter(|| {
                at = mem[8 * at].load(Relaxed) as usize;
                at
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20);
    targets = configs
}
criterion_main!(benches);
