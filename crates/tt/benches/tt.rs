//! Probe and store cost against a DRAM baseline measured in the same run.
//!
//! For each configuration (16 MiB, 1 GiB, and 1 GiB without huge pages):
//!
//! * `chase`: one hop of a random pointer chase over a buffer as large as the table, one
//!   64-byte line per node, a single random cycle (Sattolo's algorithm): one cache miss
//!   (and, at 1 GiB, TLB miss) per hop with nothing to overlap it. The baseline.
//! * `probe_chain`: a pointer chase *through the table*: each probe's entry holds the index of
//!   the next key, so probes are serial and each pays its full miss ("cold probe").
//! * `probe_indep`: independent random probes, no prefetch (out-of-order overlap only).
//! * `probe_prefetch`: independent random probes, each key prefetched one step ahead.
//! * `probe_prefetch4`: the same, prefetched four steps ahead (for comparison).
//! * `store_indep`, `store_prefetch`: the same for stores.
//!
//! Run: `cargo bench -p engram-tt --bench tt` (about two minutes; needs ~3 GiB of RAM).
//! Medians end up in `target/criterion/<config>/<bench>/new/estimates.json`.

use criterion::{criterion_group, criterion_main, Criterion};
use engram_tt::{Bound, Config, Policy, Record, Table};
use std::hint::black_box;
use std::time::Duration;

/// A bijective 64-bit mixer (splitmix64's finaliser): index → well-spread key.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
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

/// One node of the baseline chase: a whole cache line.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Line {
    next: u64,
    _pad: [u64; 7],
}

/// A pointer-chase buffer of `bytes` bytes, huge pages advised or forbidden like the table.
fn chase_buffer(bytes: usize, huge: bool) -> Vec<Line> {
    let n = bytes / 64;
    let mut lines: Vec<Line> = Vec::with_capacity(n);
    #[cfg(target_os = "linux")]
    {
        let advice = if huge {
            libc::MADV_HUGEPAGE
        } else {
            libc::MADV_NOHUGEPAGE
        };
        // madvise wants a page-aligned start; malloc's pointer is only 64-byte aligned.
        let start = (lines.as_ptr() as usize).next_multiple_of(4096);
        let end = (lines.as_ptr() as usize + n * 64) & !4095;
        // SAFETY: advice on whole pages inside the vector's own, not yet touched allocation;
        // it changes no contents.
        let rc = unsafe { libc::madvise(start as *mut libc::c_void, end - start, advice) };
        assert_eq!(rc, 0, "madvise failed");
    }
    let _ = huge;
    lines.resize(n, Line::default());
    for (i, &next) in sattolo(n, 1).iter().enumerate() {
        lines[i].next = u64::from(next);
    }
    lines
}

/// A table of `mib` MiB holding a chain: key `mix(i)` stores the index of the next key
/// (16 bits in the move, 16 in the eval) for a random cycle over half as many keys as
/// clusters, so that almost all of them stay in the table.
fn chained_table(mib: usize, huge_pages: bool) -> (Table, usize) {
    let table = Table::with_config(Config {
        mib,
        policy: Policy::default(),
        huge_pages,
    })
    .unwrap();
    table.clear(2); // fault every page in: untouched pages would all read the zero page
    let n = table.clusters() / 2;
    for (i, &next) in sattolo(n, 2).iter().enumerate() {
        let rec = Record {
            mv: next as u16,
            eval: (next >> 16) as i16,
            depth: 1,
            bound: Bound::Exact,
            ..Record::default()
        };
        table.store(mix(i as u64), rec);
    }
    (table, n)
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
        let lines = chase_buffer(mib << 20, huge);
        let (table, n) = chained_table(mib, huge);
        // Both buffers should be (almost) all huge pages, or none.
        let rollup = std::fs::read_to_string("/proc/self/smaps_rollup").unwrap_or_default();
        let thp = rollup
            .lines()
            .find(|l| l.starts_with("AnonHugePages"))
            .unwrap_or("");
        eprintln!("{name}: {thp}");
        let mut g = c.benchmark_group(name);

        let mut at = 0usize;
        g.bench_function("chase", |b| {
            b.iter(|| {
                at = lines[at].next as usize;
                at
            })
        });
        drop(lines);

        let mut i = 0usize;
        let mut missing = 0u64;
        g.bench_function("probe_chain", |b| {
            b.iter(|| {
                i = match table.probe(mix(i as u64)) {
                    Some(e) => usize::from(e.mv) | (usize::from(e.eval as u16) << 16),
                    // A key evicted while filling: restart at a random key. (Restarting
                    // at a fixed successor would make the walk a short, cached loop.)
                    None => {
                        missing += 1;
                        (mix(missing) % n as u64) as usize
                    }
                };
                i
            })
        });
        black_box(missing);

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
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10);
    targets = configs
}
criterion_main!(benches);
