//! Where a cold probe's time goes: a diagnostic for the `probe_chain` / `chase` ratio of
//! `benches/tt.rs` (issue 3).
//!
//! ```sh
//! cargo run --release -p engram-tt --example probe_cost [MiB, a power of two: 1024] [huge|4k] [rounds: 16]
//! ```
//!
//! It prints the huge-page coverage (`/proc/self/smaps`) of every buffer, then times several
//! pointer chases and probe chains over buffers of the same size, interleaved in batches of
//! 2²⁰ steps (so that load from other processes falls on all of them alike), each batch
//! after 2¹⁸ untimed steps (switching to another 1 GiB buffer costs about 10 ms of extra
//! misses in our VM, presumably refilling the TLB and page-walk caches), and reports per variant the minimum and median ns per step and the
//! median over rounds of its difference to `chase` in the same round. Needs about six times
//! the size in RAM.
//!
//! * `chase`: the baseline of the benchmark, a random cycle over one word per 64-byte line of
//!   memory from the table's own allocator (`bench_support::Words`).
//! * `chase malloc`: the same over a `Vec` from the global allocator, advised like the table
//!   (the benchmark's baseline before issue 3).
//! * `chase in table`: a cycle through the free half of each line of table M, the table's
//!   own mapping.
//! * `chase 5 loads`: a chase over another such buffer, each hop reading what a probe reads
//!   from its line: the tag word, three more words, then the tag word again.
//! * `probe M`: table M holds one key per line, in slot 0 of the line's first cluster, whose
//!   entry names the next line; the next key is `line << shift | signature`: the least
//!   work a probe chain can do.
//! * `probe M + mix`: the same (over a second such table) with a splitmix64 finaliser on the
//!   path, as the benchmark's chain had before issue 3 (`key = mix(i)`).
//! * `probe S`: table S holds three keys in each line's first cluster and the chain's key in
//!   a random slot: which slot matches is unpredictable, as in a real table.

use engram_tt::bench_support::{huge_page_coverage, table_words, Words};
use engram_tt::{Bound, Config, Policy, Record, Table};
use std::hint::black_box;
use std::sync::atomic::{fence, AtomicU64, Ordering};
use std::time::Instant;

fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A random cyclic permutation of `0..n` (Sattolo's algorithm).
fn sattolo(n: usize, seed: u64) -> Vec<u32> {
    let mut next: Vec<u32> = (0..n as u32).collect();
    let mut rng = seed;
    for i in (1..n).rev() {
        rng = mix(rng.wrapping_add(i as u64));
        let j = ((u128::from(rng) * i as u128) >> 64) as usize;
        next.swap(i, j);
    }
    next
}

#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Line {
    next: u64,
    _pad: [u64; 7],
}

/// The old baseline: a `Vec` from the global allocator, advised on its whole pages.
fn malloc_lines(n: usize, huge: bool) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::with_capacity(n);
    #[cfg(target_os = "linux")]
    {
        let advice = if huge {
            libc::MADV_HUGEPAGE
        } else {
            libc::MADV_NOHUGEPAGE
        };
        let start = (lines.as_ptr() as usize).next_multiple_of(4096);
        let end = (lines.as_ptr() as usize + n * 64) & !4095;
        // SAFETY: advice on whole pages inside the vector's own, untouched allocation.
        unsafe { libc::madvise(start as *mut libc::c_void, end - start, advice) };
    }
    let _ = huge;
    lines.resize(n, Line::default());
    lines
}

fn coverage<T>(label: &str, s: &[T]) {
    let r = s.as_ptr_range();
    match huge_page_coverage(r.start as usize..r.end as usize) {
        Some(c) => println!("{label:18} {c}"),
        None => println!("{label:18} (no /proc/self/smaps)"),
    }
}

fn record(payload: u64) -> Record {
    Record {
        mv: payload as u16,
        eval: (payload >> 16) as i16,
        depth: 1,
        bound: Bound::Exact,
        ..Record::default()
    }
}

fn payload(e: engram_tt::Entry) -> usize {
    usize::from(e.mv) | (usize::from(e.eval as u16) << 16)
}

const SIG: u64 = 0x5A5B;

fn main() {
    let mut args = std::env::args().skip(1);
    let mib: usize = args.next().map_or(1024, |s| s.parse().expect("MiB"));
    let huge = args.next().is_none_or(|s| s != "4k");
    let rounds: usize = args.next().map_or(16, |s| s.parse().expect("rounds"));
    let bytes = mib << 20;
    let lines = bytes / 64;
    let cfg = Config {
        mib,
        policy: Policy::default(),
        huge_pages: huge,
    };
    let z = black_box(0u64); // an opaque zero: `x & z` keeps work on the path, adds nothing

    // The baseline buffer and the old one.
    let cycle = sattolo(lines, 1);
    let words = Words::new(bytes, huge).unwrap();
    let w = words.words();
    for (i, &n) in cycle.iter().enumerate() {
        w[8 * i].store(u64::from(n), Ordering::Relaxed);
    }
    let loads5 = Words::new(bytes, huge).unwrap();
    let w5 = loads5.words();
    for (i, &n) in sattolo(lines, 6).iter().enumerate() {
        w5[8 * i].store(u64::from(n), Ordering::Relaxed);
    }
    let mut v = malloc_lines(lines, huge);
    for (i, &n) in cycle.iter().enumerate() {
        v[i].next = u64::from(n);
    }

    // Tables M and M2: line l's key is (2l) << shift | SIG, in slot 0 of cluster 2l.
    let minimal = |seed: u64| {
        let t = Table::with_config(cfg).unwrap();
        assert!(
            t.clusters().is_power_of_two(),
            "sizes must be powers of two"
        );
        t.clear(2);
        let shift = 64 - t.clusters().trailing_zeros();
        for (l, &next) in sattolo(lines, seed).iter().enumerate() {
            t.store(((2 * l as u64) << shift) | SIG, record(u64::from(next)));
        }
        (t, shift)
    };
    let (m, shift) = minimal(3);
    let (m2, _) = minimal(4);
    // A chase in the unused second cluster of each line of M.
    let mw = table_words(&m);
    for (l, &next) in sattolo(lines, 7).iter().enumerate() {
        mw[8 * l + 4].store(u64::from(next), Ordering::Relaxed);
    }

    // Table S: three keys in cluster 2l, the chain's in slot `slot_of(l)`; the payload is the
    // next line | its slot << 28.
    let s = Table::with_config(cfg).unwrap();
    s.clear(2);
    let slot_of = |l: usize| mix(l as u64 ^ 77) % 3;
    for (l, &next) in sattolo(lines, 5).iter().enumerate() {
        for j in 0..3 {
            let p = if j == slot_of(l) {
                u64::from(next) | slot_of(next as usize) << 28
            } else {
                0xFFFF_FFFF
            };
            s.store(((2 * l as u64) << shift) | (SIG + j), record(p));
        }
    }

    coverage("chase buffer", w);
    coverage("malloc buffer", &v);
    coverage("5-loads buffer", w5);
    coverage("table M", mw);
    coverage("table M2", table_words(&m2));
    coverage("table S", table_words(&s));

    let (mut s0, mut s1, mut s2, mut s3, mut s4, mut s5) = (0, 0, 0, 0, 0, 0);
    let mut s6 = slot_of(0) as usize * (1 << 28);
    let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
    let probe = |t: &Table, i: usize| t.probe(((2 * i as u64) << shift) | SIG).map_or(0, payload);
    macro_rules! batch {
        ($state:ident, $step:expr) => {
            Box::new(|steps: usize| {
                let mut x = $state;
                for _ in 0..steps {
                    x = $step(x);
                }
                $state = x;
            }) as Box<dyn FnMut(usize) + '_>
        };
    }
    #[allow(clippy::type_complexity)]
    let mut variants: Vec<(&str, Box<dyn FnMut(usize) + '_>)> = vec![
        ("chase", batch!(s0, |at: usize| load(&w[8 * at]) as usize)),
        ("chase malloc", batch!(s1, |at: usize| v[at].next as usize)),
        (
            "chase in table",
            batch!(s2, |at: usize| load(&mw[8 * at + 4]) as usize),
        ),
        (
            "chase 5 loads",
            batch!(s3, |at: usize| {
                let n = load(&w5[8 * at]);
                let o = load(&w5[8 * at + 1]) ^ load(&w5[8 * at + 2]) ^ load(&w5[8 * at + 3]);
                fence(Ordering::Acquire);
                (n ^ ((o ^ load(&w5[8 * at])) & z)) as usize
            }),
        ),
        ("probe M", batch!(s4, |i: usize| probe(&m, i))),
        (
            "probe M + mix",
            batch!(s5, |i: usize| probe(&m2, i ^ (mix(i as u64) & z) as usize)),
        ),
        (
            "probe S",
            batch!(s6, |i: usize| {
                let (line, slot) = (i & ((1 << 28) - 1), (i >> 28) as u64);
                s.probe(((2 * line as u64) << shift) | (SIG + slot))
                    .map_or(0, payload)
            }),
        ),
    ];

    let batch_steps = 1 << 20;
    let mut times = vec![Vec::new(); variants.len()];
    for _ in 0..rounds {
        for (k, (_, f)) in variants.iter_mut().enumerate() {
            f(batch_steps / 4); // untimed: refill the TLB and page-walk caches for this buffer
            let t = Instant::now();
            f(batch_steps);
            times[k].push(t.elapsed().as_nanos() as f64 / batch_steps as f64);
        }
    }
    let names: Vec<&str> = variants.iter().map(|v| v.0).collect();
    drop(variants);
    let sorted = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v
    };
    println!(
        "{mib} MiB, {} pages, {rounds} rounds of {batch_steps} steps",
        if huge { "huge" } else { "4 KiB" }
    );
    println!(
        "{:18} {:>7} {:>7} {:>12}",
        "ns per step", "min", "median", "vs chase"
    );
    for (k, name) in names.iter().enumerate() {
        let t = sorted(times[k].clone());
        let d = sorted(times[k].iter().zip(&times[0]).map(|(a, b)| a - b).collect());
        println!(
            "{name:18} {:7.1} {:7.1} {:+12.1}",
            t[0],
            t[rounds / 2],
            d[rounds / 2]
        );
    }
    black_box((s0, s1, s2, s3, s4, s5, s6));
}
