//! Hash files: round trips, merging, geometry, and every kind of damage refused with the
//! table left as it was.

use engram_tt::{
    read_info, Bound, Entry, FileError, FileKind, Memory, Policy, Record, Table, HEADER_BYTES,
};
use proptest::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

const SCHEME: &str = "polyglot";
const WRITER: &str = "engram-tt tests";

fn temp_dir() -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "engram-tt-files-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn record(seed: u64) -> Record {
    Record {
        mv: (seed >> 7) as u16 | 1,
        score: (seed >> 23) as i16,
        eval: (seed >> 39) as i16,
        depth: (seed % 40) as i32 - 6,
        bound: [Bound::Upper, Bound::Lower, Bound::Exact][(seed % 3) as usize],
        pv: seed & 8 != 0,
        nodes: seed >> 44,
    }
}

/// A mixing function, so keys spread over the table.
fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 31)).wrapping_mul(0x7FB5_D329_728E_A185);
    (x ^ (x >> 27)).wrapping_mul(0x81DA_DEF4_BC2D_D44D) ^ (x >> 33)
}

/// A table of `clusters` clusters with `n` stores over `searches` searches.
fn filled(clusters: usize, policy: Policy, n: u64, searches: u64, seed: u64) -> (Table, Vec<u64>) {
    let t = Table::with_clusters(clusters, policy).unwrap();
    let keys: Vec<u64> = (0..n).map(|i| mix(seed ^ i.wrapping_mul(0x9E37))).collect();
    for (i, &k) in keys.iter().enumerate() {
        if searches > 0 && (i as u64).is_multiple_of((n / searches).max(1)) {
            t.new_search();
        }
        t.store(k, record(mix(k)));
    }
    (t, keys)
}

/// An entry's fields but its generation: move, score, eval, depth, bound, pv, age.
type Seen = (u16, i16, i16, i32, Bound, bool, u8);

/// What a probe sees, without the generation (which depends on the table's own count).
fn seen(t: &Table, k: u64) -> Option<Seen> {
    t.probe(k)
        .map(|e: Entry| (e.mv, e.score, e.eval, e.depth, e.bound, e.pv, e.age))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Save a full table, load it into a fresh table of the same size: every key probes
    /// the same, age included.
    #[test]
    fn full_tables_round_trip(
        clusters in prop::sample::select(vec![1usize, 7, 64, 1000]),
        n in 0u64..4000,
        searches in 0u64..5,
        seed in any::<u64>(),
        policy in prop::sample::select(vec![
            Policy::default(), Policy::AlwaysReplace, Policy::TwoTier, Policy::TwoBig1,
            Policy::MicroMax,
        ]),
    ) {
        let dir = temp_dir();
        let path = dir.join("full.hash");
        let (t, keys) = filled(clusters, policy, n, searches, seed);
        let info = t.save(&path, SCHEME, WRITER).unwrap();
        prop_assert_eq!(info.kind, FileKind::Full);
        prop_assert_eq!(info.clusters, clusters as u64);
        prop_assert_eq!(fs::metadata(&path).unwrap().len(), info.file_bytes());
        prop_assert_eq!(read_info(&path).unwrap(), info.clone());

        let fresh = Table::with_clusters(clusters, policy).unwrap();
        let report = fresh.load(&path, SCHEME).unwrap();
        prop_assert_eq!(report.entries, info.entries);
        prop_assert_eq!(report.stored, info.entries);
        for &k in &keys {
            prop_assert_eq!(seen(&t, k), seen(&fresh, k));
        }
        fs::remove_dir_all(dir).unwrap();
    }

    /// Save a compact memory, load it back: the same entries.
    #[test]
    fn compact_memories_round_trip(
        n in 0usize..3000,
        seed in any::<u64>(),
    ) {
        let dir = temp_dir();
        let path = dir.join("memory.hash");
        let mut m = Memory::new();
        for i in 0..n as u64 {
            let k = mix(seed ^ i);
            let r = record(mix(k));
            m.insert(k, Entry {
                mv: r.mv, score: r.score, eval: r.eval, depth: r.depth, bound: r.bound,
                pv: r.pv, generation: 9, age: (k % 40) as u8,
            });
        }
        let info = m.save(&path, SCHEME, WRITER).unwrap();
        prop_assert_eq!(info.entries, m.len() as u64);
        let back = Memory::load(&path, SCHEME).unwrap();
        prop_assert_eq!(back.entries(), m.entries());
        fs::remove_dir_all(dir).unwrap();
    }
}

#[test]
fn a_compact_memory_loads_into_any_size_and_a_small_table_keeps_the_deepest() {
    let mut m = Memory::new();
    for i in 0..3000u64 {
        let k = mix(i + 1);
        m.insert(
            k,
            Entry {
                mv: 1,
                score: 0,
                eval: 0,
                depth: (i % 30) as i32,
                bound: Bound::Exact,
                pv: false,
                generation: 0,
                age: 0,
            },
        );
    }
    // Large enough: everything lands.
    let big = Table::with_clusters(1 << 14, Policy::default()).unwrap();
    let r = m.apply(&big);
    assert_eq!(r.entries, 3000);
    assert!(r.stored >= 2990, "{r:?}");
    // 30 entries of room for 3000: those present are the deep ones.
    let small = Table::with_clusters(10, Policy::default()).unwrap();
    m.apply(&small);
    let depths: Vec<i32> = m
        .entries()
        .iter()
        .filter_map(|&(k, _)| small.probe(k).map(|e| e.depth))
        .collect();
    assert!(depths.len() >= 25, "{}", depths.len());
    let mean = depths.iter().sum::<i32>() as f64 / depths.len() as f64;
    assert!(mean > 25.0, "mean depth kept {mean}, entries range 0..30");
}

#[test]
fn loading_merges_and_the_deeper_entry_wins() {
    let dir = temp_dir();
    let path = dir.join("merge.hash");
    let a = Table::with_clusters(64, Policy::default()).unwrap();
    let deep = Record {
        depth: 20,
        ..record(5)
    };
    let shallow = Record {
        depth: 3,
        ..record(6)
    };
    let (k1, k2, k3) = (mix(1), mix(2), mix(3));
    a.store(k1, deep);
    a.store(k2, shallow);
    a.save(&path, SCHEME, WRITER).unwrap();

    let b = Table::with_clusters(64, Policy::default()).unwrap();
    b.store(k1, shallow); // shallower than the file's: replaced
    b.store(k2, deep); // deeper than the file's: kept
    b.store(k3, shallow); // not in the file: untouched
    let r = b.load(&path, SCHEME).unwrap();
    assert_eq!((r.entries, r.stored, r.kept), (2, 1, 1), "{r:?}");
    assert_eq!(b.probe(k1).unwrap().depth, 20);
    assert_eq!(b.probe(k2).unwrap().depth, 20);
    assert_eq!(b.probe(k3).unwrap().depth, 3);

    // The same rule for a compact memory.
    let mut m = Memory::new();
    let c = Table::with_clusters(64, Policy::default()).unwrap();
    c.store(k1, deep);
    m.insert(k1, c.probe(k1).unwrap());
    c.store(k1, shallow);
    m.insert(k1, c.probe(k1).unwrap()); // the memory keeps the deeper
    assert_eq!(m.get(k1).unwrap().depth, 20);
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_full_table_of_another_size_is_refused_naming_both_sizes() {
    let dir = temp_dir();
    let path = dir.join("size.hash");
    let (t, _) = filled(1 << 15, Policy::default(), 1000, 1, 1); // 1 MiB
    t.save(&path, SCHEME, WRITER).unwrap();
    let other = Table::new(2).unwrap();
    let k = mix(99);
    other.store(k, record(1));
    let err = other.load(&path, SCHEME).unwrap_err();
    assert!(matches!(err, FileError::Geometry { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("1.00 MiB") && text.contains("2.00 MiB"),
        "{text}"
    );
    assert!(other.probe(k).is_some(), "the table is unchanged");
    fs::remove_dir_all(dir).unwrap();
}

/// A table whose probes of `keys` are remembered, to check that a failed load changed
/// nothing.
struct Witness {
    table: Table,
    keys: Vec<u64>,
    before: Vec<Option<Seen>>,
}

impl Witness {
    fn new() -> Witness {
        let (table, keys) = filled(200, Policy::default(), 300, 2, 7);
        let before = keys.iter().map(|&k| seen(&table, k)).collect();
        Witness {
            table,
            keys,
            before,
        }
    }

    fn unchanged(&self) -> bool {
        self.keys
            .iter()
            .zip(&self.before)
            .all(|(&k, b)| seen(&self.table, k) == *b)
    }
}

/// A copy of `path` changed by `f`, under a name of its own.
fn damaged(path: &Path, f: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let mut bytes = fs::read(path).unwrap();
    f(&mut bytes);
    let out = path.with_extension(format!("bad{}", N.fetch_add(1, Ordering::Relaxed)));
    fs::write(&out, bytes).unwrap();
    out
}

/// Rewrites the header checksum, as a writer of another version would.
fn reseal(bytes: &mut [u8]) {
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes[..120]);
    bytes[120..128].copy_from_slice(&sum.to_le_bytes());
}

#[test]
fn every_kind_of_damage_is_refused_with_its_own_error_and_the_table_unchanged() {
    let dir = temp_dir();
    let good = dir.join("good.hash");
    let (src, _) = filled(200, Policy::default(), 500, 3, 3);
    src.save(&good, SCHEME, WRITER).unwrap();
    let mem_path = dir.join("mem.hash");
    let mut mem = Memory::new();
    for i in 0..50 {
        mem.insert(
            mix(i),
            src.probe(mix(i)).unwrap_or(Entry {
                mv: 1,
                score: 1,
                eval: 1,
                depth: 5,
                bound: Bound::Lower,
                pv: false,
                generation: 0,
                age: 0,
            }),
        );
    }
    mem.save(&mem_path, SCHEME, WRITER).unwrap();

    type Case = (&'static str, PathBuf, fn(&FileError) -> bool);
    let cases: Vec<Case> = vec![
        ("missing", dir.join("nope.hash"), |e| {
            matches!(e, FileError::Io { .. })
        }),
        ("empty", damaged(&good, |b| b.clear()), |e| {
            matches!(e, FileError::Length { .. })
        }),
        (
            "truncated header",
            damaged(&good, |b| b.truncate(100)),
            |e| matches!(e, FileError::Length { .. }),
        ),
        (
            "truncated payload",
            damaged(&good, |b| b.truncate(b.len() - 1)),
            |e| matches!(e, FileError::Length { .. }),
        ),
        ("appended", damaged(&good, |b| b.push(0)), |e| {
            matches!(e, FileError::Length { .. })
        }),
        ("magic", damaged(&good, |b| b[1] = b'X'), |e| {
            matches!(e, FileError::Magic)
        }),
        ("header byte", damaged(&good, |b| b[30] ^= 4), |e| {
            matches!(e, FileError::HeaderChecksum)
        }),
        (
            "version",
            damaged(&good, |b| {
                b[8] = 2;
                reseal(b)
            }),
            |e| matches!(e, FileError::Version { found: 2, .. }),
        ),
        (
            "layout",
            damaged(&good, |b| {
                b[12] = 2;
                reseal(b)
            }),
            |e| matches!(e, FileError::Layout { .. }),
        ),
        (
            "key scheme",
            damaged(&good, |b| {
                b[48] = b'P';
                reseal(b)
            }),
            |e| matches!(e, FileError::KeyScheme { .. }),
        ),
        (
            "payload byte",
            damaged(&good, |b| {
                let n = b.len();
                b[n - 5] ^= 0x10
            }),
            |e| matches!(e, FileError::Checksum { .. }),
        ),
        (
            "checksum",
            damaged(&good, |b| {
                b[104] ^= 1;
                reseal(b)
            }),
            |e| matches!(e, FileError::Checksum { .. }),
        ),
        (
            "a cluster's check word, checksum redone",
            damaged(&good, |b| {
                // Change a data word and fix the payload checksum: only the check word knows.
                let at = HEADER_BYTES + 8;
                b[at] ^= 1;
                let sum = xxhash_rust::xxh3::xxh3_64(&b[HEADER_BYTES..]);
                b[104..112].copy_from_slice(&sum.to_le_bytes());
                reseal(b);
            }),
            |e| matches!(e, FileError::Corrupt(_)),
        ),
        ("a compact memory", mem_path.clone(), |e| {
            matches!(e, FileError::Kind { .. })
        }),
    ];
    let mut messages = std::collections::HashSet::new();
    for (what, path, expected) in cases {
        let w = Witness::new();
        let err = w.table.load(&path, SCHEME).expect_err(what);
        assert!(expected(&err), "{what}: {err:?}");
        assert!(w.unchanged(), "{what}: the table changed");
        let text = err.to_string();
        assert!(!text.is_empty());
        messages.insert(std::mem::discriminant(&err));
    }
    assert!(messages.len() >= 10, "distinct errors: {}", messages.len());

    // Compact memories: the same checks, plus the order of keys.
    assert!(matches!(
        Memory::load(&good, SCHEME),
        Err(FileError::Kind { .. })
    ));
    assert!(matches!(
        Memory::load(&mem_path, "other"),
        Err(FileError::KeyScheme { .. })
    ));
    let swapped = damaged(&mem_path, |b| {
        // Swap the first two records and redo the checksums: keys out of order.
        let (r0, r1) = (HEADER_BYTES, HEADER_BYTES + 16);
        let first: Vec<u8> = b[r0..r0 + 16].to_vec();
        b.copy_within(r1..r1 + 16, r0);
        b[r1..r1 + 16].copy_from_slice(&first);
        let sum = xxhash_rust::xxh3::xxh3_64(&b[HEADER_BYTES..]);
        b[104..112].copy_from_slice(&sum.to_le_bytes());
        reseal(b);
    });
    let err = Memory::load(&swapped, SCHEME).unwrap_err();
    assert!(matches!(err, FileError::Corrupt(_)), "{err}");
    let flipped = damaged(&mem_path, |b| {
        let n = b.len();
        b[n - 1] ^= 1;
    });
    assert!(matches!(
        Memory::load(&flipped, SCHEME),
        Err(FileError::Checksum { .. })
    ));
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_failed_save_keeps_the_previous_file() {
    let dir = temp_dir();
    let path = dir.join("keep.hash");
    let (t, _) = filled(100, Policy::default(), 200, 1, 4);
    t.save(&path, SCHEME, WRITER).unwrap();
    let before = fs::read(&path).unwrap();
    // Saving into a folder that cannot take a new file fails before touching the old one:
    // make the folder read-only (not effective for root, so only checked when it is).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o500)).unwrap();
        let probe = dir.join("probe");
        let writable = fs::write(&probe, b"x").is_ok();
        let _ = fs::remove_file(&probe);
        if !writable {
            let (t2, _) = filled(100, Policy::default(), 300, 2, 5);
            assert!(matches!(
                t2.save(&path, SCHEME, WRITER),
                Err(FileError::Io { .. })
            ));
            assert_eq!(fs::read(&path).unwrap(), before);
        }
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
    }
    assert_eq!(fs::read(&path).unwrap(), before);

    // A failure that root cannot bypass: the whole payload is written, then the rename
    // fails (the target is a folder that is not empty). What was there stays, and no
    // temporary file is left behind.
    let target = dir.join("occupied");
    fs::create_dir(&target).unwrap();
    fs::write(target.join("inside"), b"kept").unwrap();
    assert!(matches!(
        t.save(&target, SCHEME, WRITER),
        Err(FileError::Io { .. })
    ));
    assert_eq!(fs::read(target.join("inside")).unwrap(), b"kept");
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp.")), "{names:?}");
    fs::remove_dir_all(dir).unwrap();
}
