//! The non-chess user: the Connect Four solver of `examples/connect4.rs` finds the known
//! values of small boards (John Tromp's table: 4×4 and 5×4 are draws, 6×4 is a win for the
//! second player), agrees with the same search without a table, and the table cuts its
//! node count — under every replacement policy.

#[allow(dead_code)]
#[path = "../examples/connect4.rs"]
mod connect4;

use connect4::{Board, Solver};
use engram_tt::{Config, Policy, Table};

fn solve(width: u32, height: u32, table: Option<&Table>) -> (i32, u64) {
    let mut solver = Solver::new(width, table);
    let v = solver.solve(&Board::new(width, height));
    (v, solver.nodes)
}

#[test]
fn known_values_with_fewer_nodes_than_without_a_table() {
    for (width, height, known) in [(4, 4, 0), (5, 4, 0), (6, 4, -1)] {
        let table = Table::new(4).unwrap();
        let (with, nodes_with) = solve(width, height, Some(&table));
        let (without, nodes_without) = solve(width, height, None);
        assert_eq!((with, without), (known, known), "{width}x{height}");
        assert!(
            nodes_with * 3 < nodes_without,
            "{width}x{height}: {nodes_with} vs {nodes_without} nodes"
        );
    }
}

#[test]
fn every_policy_solves_under_hash_pressure() {
    let (_, nodes_without) = solve(5, 4, None);
    for policy in [
        Policy::AlwaysReplace,
        Policy::DepthPreferred,
        Policy::TwoTier,
        Policy::Buckets { age_weight: 8 },
        Policy::MicroMax,
        Policy::LineBuckets { age_weight: 8 },
    ] {
        // 1 MiB = 98 304 entries: well below the positions of a 6x4 solve.
        let table = Table::with_config(Config {
            mib: 1,
            policy,
            huge_pages: false,
        })
        .unwrap();
        let (v, nodes) = solve(5, 4, Some(&table));
        assert_eq!(v, 0, "{policy:?}");
        assert!(
            nodes < nodes_without,
            "{policy:?}: {nodes} vs {nodes_without}"
        );
        // A 5-wide position is also a 6-wide one with a different value: start afresh.
        table.clear(1);
        let (v, _) = solve(6, 4, Some(&table));
        assert_eq!(v, -1, "{policy:?}");
    }
}
