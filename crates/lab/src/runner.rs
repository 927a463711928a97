//! Running Engram's search for the studies: one thread, fixed depth, a table built to order.
//!
//! * [`single`]: one position searched on an empty table with fresh histories, so that the
//!   node count depends only on the position, the depth and the table (it is exactly
//!   reproducible).
//! * [`sequence`]: the positions of a game where one side is to move, searched one after the
//!   other as in a game: the table and the histories are kept from one search to the next
//!   (the table's generation advances per search), and cleared only at the game's start.
//!
//! Times are wall-clock times of the search alone (not of building or clearing the table).

use crate::positions::{Named, Sequence};
use crate::report::format_int;
use anyhow::{anyhow, Context as _};
use engram::config::EngineConfig;
use engram::search::lab::TtUse;
use engram::search::SearchLimits;
use engram::session::Session;
use engram_chess::{Board, Position};
use engram_tt::{Policy, Table};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How to build a table for a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSpec {
    /// Replacement policy.
    pub policy: Policy,
    /// Number of 32-byte clusters (3 entries each).
    pub clusters: usize,
    /// Whether the generation advances per search.
    pub aging: bool,
    /// Shadow keys verifying this many bits (`None`: a plain table).
    pub shadow_bits: Option<u32>,
    /// Whether to advise transparent huge pages.
    pub huge_pages: bool,
}

impl TableSpec {
    /// A plain table with `policy` and at least `entries` entries (rounded up to whole
    /// clusters), aging on, huge pages on.
    pub fn entries(policy: Policy, entries: usize) -> TableSpec {
        TableSpec {
            policy,
            clusters: entries.div_ceil(3).max(1),
            aging: true,
            shadow_bits: None,
            huge_pages: true,
        }
    }

    /// A plain table of `mib` MiB.
    pub fn mib(policy: Policy, mib: usize) -> TableSpec {
        TableSpec {
            clusters: (mib << 20) / 32,
            ..TableSpec::entries(policy, 3)
        }
    }

    /// The number of entries.
    pub fn n_entries(&self) -> usize {
        self.clusters * 3
    }

    /// Builds the table.
    pub fn build(&self) -> anyhow::Result<Table> {
        let mut t = match self.shadow_bits {
            Some(bits) => Table::with_shadow(self.clusters, self.policy, bits)?,
            None if self.clusters.is_multiple_of((1 << 20) / 32) && self.clusters > 0 => {
                Table::with_config(engram_tt::Config {
                    mib: (self.clusters * 32) >> 20,
                    policy: self.policy,
                    huge_pages: self.huge_pages,
                })?
            }
            None => Table::with_clusters(self.clusters, self.policy)?,
        };
        t.set_aging(self.aging);
        Ok(t)
    }
}

/// What one search gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    /// Nodes searched.
    pub nodes: u64,
    /// Time of the search.
    pub time: Duration,
    /// The best move, in UCI notation.
    pub best: String,
    /// Its score (side to move's view, centipawns or mate).
    pub score: i32,
    /// Internal iterative reductions made (nodes that lost a ply for want of a table move).
    pub iir: u64,
}

/// The engine as the studies run it: a [`Session`] of one search thread on a table built to
/// order, configured as the engine is by default except for what a study changes.
pub struct Lab {
    session: Session,
}

impl Lab {
    /// One search thread on `table`, silent, prefetching or not, otherwise configured as the
    /// engine is by default.
    pub fn new(table: Table, prefetch: bool) -> Lab {
        Lab::with_config(
            table,
            EngineConfig {
                prefetch,
                ..EngineConfig::default()
            },
        )
    }

    /// One search thread on `table`, configured by `config` (its table settings unused).
    pub fn with_config(table: Table, config: EngineConfig) -> Lab {
        let config = EngineConfig {
            threads: 1,
            ..config
        };
        let session = Session::with_table(config, table).expect("one search thread starts");
        Lab { session }
    }

    /// A prefetching searcher on a new table built from `spec`.
    pub fn on(spec: &TableSpec) -> anyhow::Result<Lab> {
        Ok(Lab::new(spec.build()?, true))
    }

    /// Turns internal iterative reduction on (the engine's search) or off.
    pub fn set_iir(&mut self, on: bool) {
        let config = EngineConfig {
            iir: on,
            ..(**self.session.config()).clone()
        };
        self.session
            .reconfigure(config)
            .expect("the table and threads stay");
    }

    /// The table.
    pub fn table(&self) -> &Arc<Table> {
        self.session.table()
    }

    /// How the search used the table since the lab was made.
    pub fn tt_use(&self) -> TtUse {
        self.session.tt_use()
    }

    /// Forgets everything learned: table, histories, pawn hash.
    pub fn forget(&mut self) {
        self.session.new_game();
    }

    /// Searches `pos` to `depth` (a new search for the table).
    pub fn search(&mut self, pos: &Position, depth: i32) -> Searched {
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let iir = self.tt_use().iir;
        let start = Instant::now();
        let r = self.session.search(pos, limits);
        let time = start.elapsed();
        Searched {
            nodes: r.nodes,
            time,
            best: pos.board().to_uci(r.best),
            score: r.score,
            iir: self.tt_use().iir - iir,
        }
    }
}

/// Searches `pos` to `depth` from an empty table and fresh histories.
pub fn single(lab: &mut Lab, pos: &Named, depth: i32) -> anyhow::Result<Searched> {
    let board =
        Board::from_fen(&pos.fen, false).map_err(|e| anyhow!("{}: bad FEN: {e}", pos.name))?;
    lab.forget();
    Ok(lab.search(&Position::new(board), depth))
}

/// The positions of `seq` where its first side is to move, in order, each with the game's
/// moves before it (for repetitions): at most `searches` of them.
pub fn positions(seq: &Sequence, searches: usize) -> anyhow::Result<Vec<Position>> {
    let board = Board::from_fen(&seq.start, false)
        .map_err(|e| anyhow!("{}: bad start FEN: {e}", seq.name))?;
    let mut pos = Position::new(board);
    let mut out = vec![pos.clone()];
    for (i, text) in seq.moves.iter().enumerate() {
        let mv = pos
            .board()
            .parse_uci(text)
            .with_context(|| format!("{}: move {} ('{text}')", seq.name, i + 1))?;
        pos.make(mv);
        if i % 2 == 1 {
            out.push(pos.clone());
        }
    }
    out.truncate(searches);
    Ok(out)
}

/// Searches the positions of `seq` (see [`positions`]) to `depth` one after the other, the
/// table and histories kept between searches and cleared before the first.
pub fn sequence(
    lab: &mut Lab,
    seq: &Sequence,
    searches: usize,
    depth: i32,
) -> anyhow::Result<Vec<Searched>> {
    let positions = positions(seq, searches)?;
    lab.forget();
    Ok(positions.iter().map(|p| lab.search(p, depth)).collect())
}

/// Sums over a set of searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Searches run.
    pub searches: u64,
    /// Nodes, all searches.
    pub nodes: u64,
    /// Search time, all searches.
    pub time: Duration,
    /// Internal iterative reductions, all searches.
    pub iir: u64,
}

impl Totals {
    /// Adds one search.
    pub fn add(&mut self, s: &Searched) {
        self.searches += 1;
        self.nodes += s.nodes;
        self.time += s.time;
        self.iir += s.iir;
    }

    /// Mean nodes per search.
    pub fn mean_nodes(&self) -> f64 {
        self.nodes as f64 / self.searches.max(1) as f64
    }

    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// Searches each of `positions` to `depth` ([`single`]) on `lab`; `each` sees every
/// result. Returns the totals.
pub fn singles(
    lab: &mut Lab,
    positions: &[Named],
    depth: i32,
    mut each: impl FnMut(&Named, &Searched),
) -> anyhow::Result<Totals> {
    let mut totals = Totals::default();
    for p in positions {
        let r = single(lab, p, depth)?;
        each(p, &r);
        totals.add(&r);
    }
    Ok(totals)
}

/// Searches every sequence of `seqs` ([`sequence`], `searches` searches each, to `depth`)
/// on `lab`; `each` sees every result. Returns the totals.
pub fn sequences(
    lab: &mut Lab,
    seqs: &[Sequence],
    searches: usize,
    depth: i32,
    mut each: impl FnMut(&Searched),
) -> anyhow::Result<Totals> {
    let mut totals = Totals::default();
    for s in seqs {
        for r in sequence(lab, s, searches, depth)? {
            each(&r);
            totals.add(&r);
        }
    }
    Ok(totals)
}

/// Searches every game of `games` (positions prepared by [`positions`]) to `depth` on
/// `lab`, table and histories cleared at the start of each game. Returns the totals.
pub fn play(lab: &mut Lab, games: &[Vec<Position>], depth: i32) -> Totals {
    let mut t = Totals::default();
    for g in games {
        lab.forget();
        for p in g {
            t.add(&lab.search(p, depth));
        }
    }
    t
}

/// The median (the upper one of an even count), smallest and largest of repeated
/// measurements.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// The median.
    pub median: f64,
    /// The smallest.
    pub min: f64,
    /// The largest.
    pub max: f64,
}

impl Spread {
    /// The spread of `v` (not empty).
    pub fn of(v: &[f64]) -> Spread {
        let mut s = v.to_vec();
        s.sort_by(f64::total_cmp);
        Spread {
            median: s[s.len() / 2],
            min: s[0],
            max: s[s.len() - 1],
        }
    }

    /// `min–max` as whole numbers, for a table.
    pub fn range_text(&self) -> String {
        format!(
            "{}–{}",
            format_int(self.min as u64),
            format_int(self.max as u64)
        )
    }
}

/// A policy's name as the report writes it: `engram-tt`'s name for it (the engine's
/// `Replacement` value), with the age weight where it takes one (`Buckets k=8`).
pub fn policy_name(p: Policy) -> String {
    p.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab(spec: TableSpec) -> Lab {
        Lab::new(spec.build().unwrap(), true)
    }

    #[test]
    fn single_searches_are_reproducible() {
        let pos = Named {
            name: "kiwipete".into(),
            fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".into(),
        };
        let spec = TableSpec::entries(Policy::default(), 1 << 12);
        let mut a = lab(spec);
        let first = single(&mut a, &pos, 5).unwrap();
        let again = single(&mut a, &pos, 5).unwrap();
        let other = single(&mut lab(spec), &pos, 5).unwrap();
        assert_eq!((first.nodes, &first.best), (again.nodes, &again.best));
        assert_eq!(first.nodes, other.nodes);
        assert!(first.nodes > 100);
        assert!(a.tt_use().probes.iter().flatten().sum::<u64>() > 0);
    }

    #[test]
    fn sequences_search_one_side_and_keep_the_table() {
        let seq = Sequence {
            name: "s".into(),
            start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            moves: "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"
                .split(' ')
                .map(String::from)
                .collect(),
        };
        let ps = positions(&seq, 10).unwrap();
        assert_eq!(ps.len(), 4);
        assert!(ps
            .iter()
            .all(|p| p.board().side_to_move() == engram_chess::Color::White));
        assert_eq!(positions(&seq, 2).unwrap().len(), 2);
        let mut l = lab(TableSpec::entries(Policy::default(), 1 << 14));
        let rs = sequence(&mut l, &seq, 4, 5).unwrap();
        assert_eq!(rs.len(), 4);
        assert_eq!(l.table().generation(), 4);
        // Reruns reproduce every node count, on the same searcher or a new one, for every
        // policy (the lab's claim that a study's node counts are exactly reproducible).
        for policy in crate::studies::replacement::POLICIES {
            let spec = TableSpec::entries(policy, 1 << 8);
            let nodes = |l: &mut Lab| -> Vec<u64> {
                sequence(l, &seq, 4, 5)
                    .unwrap()
                    .iter()
                    .map(|r| r.nodes)
                    .collect()
            };
            let mut a = lab(spec);
            let first = nodes(&mut a);
            assert_eq!(first, nodes(&mut a), "{policy:?}");
            assert_eq!(first, nodes(&mut lab(spec)), "{policy:?}");
        }
    }

    #[test]
    fn iir_can_be_turned_off_and_is_counted() {
        let pos = Named {
            name: "kiwipete".into(),
            fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".into(),
        };
        let spec = TableSpec::entries(Policy::default(), 1 << 12);
        let mut on = lab(spec);
        let with = single(&mut on, &pos, 7).unwrap();
        assert!(with.iir > 0);
        assert_eq!(on.tt_use().iir, with.iir);
        on.set_iir(false);
        let without = single(&mut on, &pos, 7).unwrap();
        assert_eq!(without.iir, 0);
        assert_ne!(with.nodes, without.nodes);
        on.set_iir(true);
        assert_eq!(single(&mut on, &pos, 7).unwrap().nodes, with.nodes);
    }

    #[test]
    fn spreads() {
        let s = Spread::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
        assert_eq!(Spread::of(&[4.0, 1.0]).median, 4.0);
        assert_eq!(Spread::of(&[1500.0, 2.0]).range_text(), "2–1,500");
    }

    #[test]
    fn table_specs_build_what_they_say() {
        let s = TableSpec::entries(Policy::TwoBig1, 1000);
        assert_eq!((s.clusters, s.n_entries()), (334, 1002));
        assert_eq!(s.build().unwrap().entries(), 1002);
        let m = TableSpec::mib(Policy::default(), 2);
        assert_eq!(m.build().unwrap().mib(), 2);
        let shadow = TableSpec {
            shadow_bits: Some(8),
            ..s
        };
        assert!(shadow.build().unwrap().shadow_stats().is_some());
        let mut off = s;
        off.aging = false;
        let t = off.build().unwrap();
        t.new_search();
        assert_eq!(t.generation(), 0);
    }
}
