//! Compact memories: the entries worth keeping, with their full keys.

use super::full::LoadReport;
use super::header::{self, now, EvalField, FileInfo, FileKind, FORMAT_VERSION};
use super::{io_error, payload, FileError};
use crate::entry::{Data, Entry, Record, GENERATIONS};
use crate::policy::Outcome;
use crate::table::Table;
use std::collections::HashMap;
use std::fs::File;
use std::path::Path;

/// Bytes per record on disk: the key, then the data word.
const RECORD_BYTES: usize = 16;

/// A compact memory: table entries with their full 64-bit keys, one per key, that can be
/// saved, merged, and loaded into a table of any size ([`Memory::apply`]).
///
/// A table keeps only 16 bits of each key, so a memory is filled by its user, who knows the
/// keys: for a game, by walking the positions around the ones analysed and keeping what
/// [`Table::probe`] returns for each ([`Memory::insert`]). Each entry keeps its age, in
/// searches, capped at 31.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Data words by key; the generation bits hold the entry's age.
    map: HashMap<u64, Data>,
}

/// Whether `a` should win over `b` for the same key: deeper, or as deep and younger.
fn better(a: Data, b: Data) -> bool {
    (a.depth(), std::cmp::Reverse(a.generation())) > (b.depth(), std::cmp::Reverse(b.generation()))
}

impl Memory {
    /// An empty memory.
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Number of entries (keys).
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Adds `entry` for `key`; if the key is there already, the deeper entry stays (at equal
    /// depth, the younger). `entry.age` is kept (capped at 31); its generation is not.
    pub fn insert(&mut self, key: u64, entry: Entry) {
        self.insert_data(
            key,
            Data::pack(&record(&entry), entry.age.min(GENERATIONS - 1)),
        );
    }

    fn insert_data(&mut self, key: u64, d: Data) {
        self.map
            .entry(key)
            .and_modify(|old| {
                if better(d, *old) {
                    *old = d;
                }
            })
            .or_insert(d);
    }

    /// The entry for `key`, if any (its `generation` is 0 and its `age` the stored age).
    pub fn get(&self, key: u64) -> Option<Entry> {
        self.map.get(&key).map(|d| unpack(*d))
    }

    /// Every entry, sorted by key.
    pub fn entries(&self) -> Vec<(u64, Entry)> {
        let mut v: Vec<(u64, Entry)> = self.map.iter().map(|(&k, &d)| (k, unpack(d))).collect();
        v.sort_unstable_by_key(|&(k, _)| k);
        v
    }

    /// Adds every entry of `other` ([`Memory::insert`]'s rule per key).
    pub fn merge(&mut self, other: &Memory) {
        for (&k, &d) in &other.map {
            self.insert_data(k, d);
        }
    }

    /// Keeps only the entries at least `depth` deep.
    pub fn retain_depth(&mut self, depth: i32) {
        self.map.retain(|_, d| d.depth() >= depth);
    }

    /// Ages every entry by `searches` (capped at 31), as when it is kept across sessions.
    pub fn age_by(&mut self, searches: u8) {
        for d in self.map.values_mut() {
            let age = d.generation().saturating_add(searches).min(GENERATIONS - 1);
            *d = d.with_generation(age);
        }
    }

    /// Stores the entries into `table`, shallowest first (so that in a table too small for
    /// all of them the deepest stay), as entries of the current search: an entry is skipped
    /// if the table already holds its position at least as deep.
    pub fn apply(&self, table: &Table) -> LoadReport {
        let mut order: Vec<(u64, Data)> = self.map.iter().map(|(&k, &d)| (k, d)).collect();
        order.sort_unstable_by_key(|&(k, d)| (d.depth(), k));
        let mut report = LoadReport {
            entries: order.len() as u64,
            ..LoadReport::default()
        };
        for (key, d) in order {
            if table.probe(key).is_some_and(|e| e.depth >= d.depth()) {
                report.kept += 1;
                continue;
            }
            let outcome = table.store(key, record(&unpack(d)));
            if matches!(
                outcome,
                Outcome::Empty | Outcome::Updated | Outcome::Aged | Outcome::Replaced
            ) {
                report.stored += 1;
            } else {
                report.dropped += 1;
            }
        }
        report
    }

    /// Saves the memory to `path` (atomically), sorted by key, tagged with `key_scheme` and
    /// `writer` as [`Table::save`] does. Returns the header written.
    pub fn save(&self, path: &Path, key_scheme: &str, writer: &str) -> Result<FileInfo, FileError> {
        let mut records: Vec<(u64, Data)> = self.map.iter().map(|(&k, &d)| (k, d)).collect();
        records.sort_unstable_by_key(|&(k, _)| k);
        let mut info = FileInfo {
            kind: FileKind::Compact,
            version: FORMAT_VERSION,
            eval_field: EvalField::Eval,
            generation: 0,
            clusters: 0,
            entries: records.len() as u64,
            payload_bytes: (records.len() * RECORD_BYTES) as u64,
            key_scheme: key_scheme.to_string(),
            writer: writer.to_string(),
            written: now(),
            checksum: 0,
        };
        payload::write(
            path,
            &mut info,
            &records,
            RECORD_BYTES,
            |&(k, d), _, buf| {
                buf.extend_from_slice(&k.to_le_bytes());
                buf.extend_from_slice(&d.0.to_le_bytes());
            },
        )?;
        Ok(info)
    }

    /// Reads a compact memory from `path`, checking everything: header, `key_scheme`,
    /// length, checksum, keys strictly increasing, no empty record.
    pub fn load(path: &Path, key_scheme: &str) -> Result<Memory, FileError> {
        let mut file = File::open(path).map_err(io_error(path))?;
        let info = header::read(&mut file, path)?;
        info.expect(FileKind::Compact, key_scheme)?;
        let mut map = HashMap::with_capacity(info.entries as usize);
        let mut last: Option<u64> = None;
        let computed = payload::read(
            &mut file,
            path,
            info.entries,
            RECORD_BYTES,
            |index, bytes| {
                for (i, r) in bytes.chunks_exact(RECORD_BYTES).enumerate() {
                    let key = u64::from_le_bytes(r[..8].try_into().expect("8 bytes"));
                    let d = Data(u64::from_le_bytes(r[8..].try_into().expect("8 bytes")));
                    let at = index + i as u64;
                    if last.is_some_and(|l| key <= l) {
                        return Err(FileError::Corrupt(format!(
                            "record {at}: keys out of order"
                        )));
                    }
                    if d.is_empty() {
                        return Err(FileError::Corrupt(format!("record {at} is empty")));
                    }
                    last = Some(key);
                    map.insert(key, d);
                }
                Ok(())
            },
        )?;
        payload::verify(&info, computed)?;
        Ok(Memory { map })
    }
}

/// What to store for `e` (its subtree size is not kept).
fn record(e: &Entry) -> Record {
    Record {
        mv: e.mv,
        score: e.score,
        eval: e.eval,
        depth: e.depth,
        bound: e.bound,
        pv: e.pv,
        nodes: 0,
    }
}

/// The entry of a memory's data word: its generation bits are its age.
fn unpack(d: Data) -> Entry {
    let mut e = d.unpack(d.generation());
    e.age = d.generation();
    e.generation = 0;
    e
}
