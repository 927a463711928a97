//! Concurrent torture test: threads store entries whose payload is a function of the key
//! while others probe, on a tiny table where races are frequent. A hit whose payload does
//! not belong to its key would be a torn entry coming back as a hit; there must be none.

use engram_tt::{Bound, Policy, Record, Table, NO_EVAL};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// 16 clusters (index = top 4 bits of the key), 8 keys each. Every key has its own
/// signature, so any payload mismatch is a tear, never an ordinary 16-bit collision.
const CLUSTERS: u64 = 16;
const KEYS_PER_CLUSTER: u64 = 8;
const THREADS: u64 = 4;
const OPS_PER_POLICY: u64 = 10_000_000;

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

fn key(n: u64) -> u64 {
    let (cluster, sig) = (n / KEYS_PER_CLUSTER, n * 0x1FF + 1);
    (cluster << 60) | (mix(n) & 0x0FFF_FFFF_FFFF_0000) | sig
}

/// The payload every store of `key` carries: move, score and eval are functions of the key.
fn payload(key: u64) -> (u16, i16, i16) {
    let h = mix(key ^ 0xABCD);
    (h as u16, (h >> 16) as i16, (h >> 32) as i16)
}

fn torture(policy: Policy) -> (u64, u64) {
    let table = Table::with_clusters(CLUSTERS as usize, policy).unwrap();
    let hits = AtomicU64::new(0);
    let bad = AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let (table, hits, bad) = (&table, &hits, &bad);
            s.spawn(move || {
                let mut rng = mix(t + 1);
                for i in 0..OPS_PER_POLICY / THREADS {
                    rng = mix(rng.wrapping_add(i));
                    let k = key(rng % (CLUSTERS * KEYS_PER_CLUSTER));
                    let (mv, score, eval) = payload(k);
                    // Half the threads mostly store, half mostly probe.
                    if (rng >> 40) % 4 < 1 + 2 * (t % 2) {
                        let depth = ((rng >> 20) % 40) as i32 - 6;
                        let bound =
                            [Bound::Upper, Bound::Lower, Bound::Exact][((rng >> 50) % 3) as usize];
                        table.store(
                            k,
                            Record {
                                mv,
                                score,
                                eval,
                                depth,
                                bound,
                                pv: rng >> 63 == 1,
                                // TwoBig1 ranks by it (and moves entries between slots).
                                nodes: (rng >> 44) & 0xFFFF,
                            },
                        );
                        if t == 0 && i % 100_000 == 0 {
                            table.new_search();
                        }
                    } else if let Some(e) = table.probe(k) {
                        hits.fetch_add(1, Relaxed);
                        // TwoBig1 keeps the subtree size in place of the evaluation.
                        let eval = if policy == Policy::TwoBig1 {
                            NO_EVAL
                        } else {
                            eval
                        };
                        if (e.mv, e.score, e.eval) != (mv, score, eval) {
                            bad.fetch_add(1, Relaxed);
                        }
                    }
                }
            });
        }
    });
    #[cfg(feature = "stats")]
    eprintln!("{policy:?}: {:?}", table.stats());
    (hits.into_inner(), bad.into_inner())
}

#[test]
fn no_torn_entry_is_ever_a_hit() {
    // Every policy of the one list, so a new policy is tortured as soon as it is listed.
    for policy in Policy::all(8) {
        let (hits, bad) = torture(policy);
        assert!(
            hits > OPS_PER_POLICY / 100,
            "{policy:?}: too few hits ({hits}) to mean anything"
        );
        assert_eq!(
            bad, 0,
            "{policy:?}: {bad} hits with another key's payload out of {hits}"
        );
    }
}
