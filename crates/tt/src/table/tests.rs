//! Tests of the table: sizes, indexing, aging, clearing, resizing, torn clusters.

use super::*;
use crate::cluster::Snapshot;
use crate::entry::Bound;

use crate::entry::test_record as rec;

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
