//! The engine's side of hash files (`engram-tt`'s `file` module holds the format): the key
//! scheme and writer tags, saving and loading with errors worded for a person, and the
//! **harvest** that turns the table into a compact memory.
//!
//! * The UCI buttons `Save Hash to File` / `Load Hash from File` (Houdini's) write the full
//!   table ([`save_table`]) and load either kind of file ([`load`]): a full table of the same
//!   geometry is merged cluster by cluster; a compact memory is re-inserted with the table's
//!   policy, whatever its size.
//! * `engram analyse --memory FILE` keeps a compact memory across runs: loaded before the
//!   analysis ([`load`]), harvested after it ([`harvest`]), merged with what the file held
//!   and saved again.
//!
//! A table keeps only 16 bits of each key, so a compact memory (which needs full keys) is
//! filled by walking positions: from each analysed root, every legal move is made and the
//! child probed with its full Polyglot key; children whose entry is at least
//! [`HARVEST_DEPTH`] deep are kept and walked in turn. An entry whose move is not legal in
//! the position it was found for is a signature collision and is left out.

use engram_chess::{Board, Move};
use engram_tt::{FileKind, LoadReport, Memory, Table};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The key scheme written into and required from every hash file: Polyglot Zobrist keys.
pub const KEY_SCHEME: &str = "polyglot";

/// Shallowest entry a harvest keeps, in plies (see `docs/measurements.md`, "Hash files", for the
/// measurement that chose it).
pub const HARVEST_DEPTH: i32 = 8;

/// Most positions one harvest visits, a guard against pathological tables.
const HARVEST_MAX: usize = 4_000_000;

/// The writer tag of the files Engram writes: `engram <version>`.
pub fn writer() -> String {
    format!("engram {}", env!("CARGO_PKG_VERSION"))
}

/// Saves the whole table to `path` (atomically). Returns a one-line summary.
pub fn save_table(table: &Table, path: &Path) -> Result<String, String> {
    let info = table
        .save(path, KEY_SCHEME, &writer())
        .map_err(|e| format!("cannot save the hash to '{}': {e}", path.display()))?;
    Ok(format!(
        "saved {} entries ({:.1} MiB) to '{}'",
        info.entries,
        info.file_bytes() as f64 / f64::from(1u32 << 20),
        path.display()
    ))
}

/// Loads a hash file of either kind into `table`, merging (deeper data wins). Everything is
/// validated first: on error the table is unchanged. Returns a one-line summary.
pub fn load(table: &Table, path: &Path) -> Result<String, String> {
    let fail = |e: engram_tt::FileError| format!("cannot load '{}': {e}", path.display());
    let info = engram_tt::read_info(path).map_err(fail)?;
    let report = match info.kind {
        FileKind::Full => table.load(path, KEY_SCHEME).map_err(fail)?,
        FileKind::Compact => Memory::load(path, KEY_SCHEME).map_err(fail)?.apply(table),
    };
    Ok(summary(&report, info.kind, path))
}

/// The one-line report of a load.
fn summary(r: &LoadReport, kind: FileKind, path: &Path) -> String {
    format!(
        "loaded '{}' ({kind}): {} entries, {} stored, {} kept (the table's were as deep), {} dropped",
        path.display(),
        r.entries,
        r.stored,
        r.kept,
        r.dropped
    )
}

/// Merges hash files into `out` (see `engram hash merge --help` for the rules): compact
/// memories into a compact memory; with any full table among them, into a full table of
/// that size. Everything is read and checked before `out` is written. Returns a summary.
pub fn merge(files: &[PathBuf], out: &Path) -> Result<String, String> {
    let fail = |p: &Path, e: engram_tt::FileError| format!("'{}': {e}", p.display());
    let mut infos = Vec::new();
    for f in files {
        infos.push(engram_tt::read_info(f).map_err(|e| fail(f, e))?);
    }
    let full: Vec<usize> = (0..files.len())
        .filter(|&i| infos[i].kind == FileKind::Full)
        .collect();
    let Some(&first) = full.first() else {
        let mut memory = Memory::new();
        for f in files {
            memory.merge(&Memory::load(f, KEY_SCHEME).map_err(|e| fail(f, e))?);
        }
        let info = memory
            .save(out, KEY_SCHEME, &writer())
            .map_err(|e| fail(out, e))?;
        return Ok(format!(
            "merged {} compact memories into '{}': {} entries",
            files.len(),
            out.display(),
            info.entries
        ));
    };
    let clusters = infos[first].clusters as usize;
    let table = Table::with_clusters(clusters, engram_tt::Policy::default())
        .map_err(|e| format!("cannot allocate the merged table: {e}"))?;
    for (f, info) in files.iter().zip(&infos) {
        match info.kind {
            FileKind::Full => table.load(f, KEY_SCHEME).map(|_| ()),
            FileKind::Compact => Memory::load(f, KEY_SCHEME).map(|m| {
                m.apply(&table);
            }),
        }
        .map_err(|e| fail(f, e))?;
    }
    let info = table
        .save(out, KEY_SCHEME, &writer())
        .map_err(|e| fail(out, e))?;
    Ok(format!(
        "merged {} files into the full table '{}': {} entries",
        files.len(),
        out.display(),
        info.entries
    ))
}

/// Loads a compact memory from `path`: `Ok(None)` if there is no such file yet (a first run),
/// an error if it exists but is not a valid compact memory.
pub fn read_memory(path: &Path) -> Result<Option<Memory>, String> {
    if !path.exists() {
        return Ok(None);
    }
    let fail = |e: engram_tt::FileError| format!("cannot load '{}': {e}", path.display());
    let info = engram_tt::read_info(path).map_err(fail)?;
    if info.kind != FileKind::Compact {
        return Err(format!(
            "'{}' is a {} file; --memory needs a compact memory",
            path.display(),
            info.kind
        ));
    }
    Memory::load(path, KEY_SCHEME).map(Some).map_err(fail)
}

/// The entries of `table` at least `min_depth` deep that are reachable from `roots` through
/// such entries (see the module docs), with their full keys.
pub fn harvest(table: &Table, roots: &[Board], min_depth: i32) -> Memory {
    let mut memory = Memory::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<Board> = Vec::new();
    for root in roots {
        if seen.insert(root.key()) {
            stack.push(*root);
        }
    }
    while let Some(board) = stack.pop() {
        if seen.len() > HARVEST_MAX {
            break;
        }
        if let Some(entry) = table.probe(board.key()) {
            let sound = entry.mv == 0 || board.is_legal(Move::from_u16(entry.mv));
            if sound && entry.depth >= min_depth {
                memory.insert(board.key(), entry);
            }
        }
        for &mv in board.legal_moves().as_slice() {
            let mut child = board;
            child.play(mv);
            let key = child.key();
            if !seen.contains(&key) && table.probe(key).is_some_and(|e| e.depth >= min_depth) {
                seen.insert(key);
                stack.push(child);
            }
        }
    }
    memory
}

#[cfg(test)]
mod tests {
    use super::*;
    use engram_tt::{Bound, Record};

    fn record(depth: i32, mv: u16) -> Record {
        Record {
            mv,
            score: 10,
            eval: 5,
            depth,
            bound: Bound::Exact,
            pv: false,
            nodes: 0,
        }
    }

    #[test]
    fn harvest_follows_deep_entries_and_keeps_full_keys() {
        let table = Table::new(1).unwrap();
        let root = Board::startpos();
        let e4 = root.parse_uci("e2e4").unwrap();
        let mut after = root;
        after.play(e4);
        let e5 = after.parse_uci("e7e5").unwrap();
        let mut after2 = after;
        after2.play(e5);
        let d4 = root.parse_uci("d2d4").unwrap();
        let mut shallow = root;
        shallow.play(d4);
        table.store(root.key(), record(12, e4.to_u16()));
        table.store(after.key(), record(11, e5.to_u16()));
        table.store(after2.key(), record(10, 0));
        table.store(shallow.key(), record(3, 0));
        let memory = harvest(&table, &[root], 8);
        assert_eq!(memory.len(), 3);
        assert_eq!(memory.get(after2.key()).unwrap().depth, 10);
        assert!(memory.get(shallow.key()).is_none());
        // Into a table of another size: every harvested entry is found again.
        let other = Table::new(3).unwrap();
        memory.apply(&other);
        assert_eq!(other.probe(after.key()).unwrap().depth, 11);
    }

    #[test]
    fn a_move_that_is_not_legal_marks_a_collision() {
        let table = Table::new(1).unwrap();
        let root = Board::startpos();
        // e7e5 is not a White move: the entry belongs to another position.
        let bad = Board::startpos();
        let mut black = bad;
        black.play(bad.parse_uci("e2e4").unwrap());
        let e5 = black.parse_uci("e7e5").unwrap();
        table.store(root.key(), record(12, e5.to_u16()));
        assert!(harvest(&table, &[root], 8).is_empty());
    }
}
