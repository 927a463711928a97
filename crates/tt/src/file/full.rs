//! Full-table hash files: [`Table::save`] and [`Table::load`].

use super::header::{self, now, EvalField, FileInfo, FileKind, FORMAT_VERSION, HEADER_BYTES};
use super::{io_error, payload, FileError};
use crate::cluster::{Cluster, Snapshot, SLOTS};
use crate::entry::{Data, NO_EVAL};
use crate::table::Table;
use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::path::Path;

/// Bytes per cluster on disk.
const CLUSTER_BYTES: usize = 32;

/// What a load did with the file's entries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Entries in the file.
    pub entries: u64,
    /// Entries written into the table (new positions, or deeper than the table's).
    pub stored: u64,
    /// Entries not written because the table held the same position at least as deep.
    pub kept: u64,
    /// Entries not written for want of room (every slot deeper), or because another thread
    /// was writing the cluster.
    pub dropped: u64,
}

/// A cluster's words as written to disk.
fn encode(snap: &Snapshot, out: &mut Vec<u8>) {
    out.extend_from_slice(&snap.tags.to_le_bytes());
    for d in snap.data {
        out.extend_from_slice(&d.0.to_le_bytes());
    }
}

/// A cluster read from disk.
fn decode(bytes: &[u8]) -> Snapshot {
    let word = |i: usize| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"));
    Snapshot {
        tags: word(0),
        data: [Data(word(1)), Data(word(2)), Data(word(3))],
        stable: true,
    }
}

impl Table {
    /// Saves the whole table to `path` as a full-table hash file (atomically: see the
    /// module docs), tagged with `key_scheme` (e.g. `"polyglot"`) and `writer` (the program,
    /// e.g. `"engram 0.1.0"`). Call it between searches: a cluster being written at that
    /// moment is saved empty. Returns the header written.
    pub fn save(&self, path: &Path, key_scheme: &str, writer: &str) -> Result<FileInfo, FileError> {
        if self.has_shadow() {
            return Err(FileError::Unsupported(
                "a table with shadow keys cannot be saved",
            ));
        }
        let clusters = self.cluster_slice();
        let mut info = FileInfo {
            kind: FileKind::Full,
            version: FORMAT_VERSION,
            eval_field: self.eval_field(),
            generation: self.generation(),
            clusters: clusters.len() as u64,
            entries: 0,
            payload_bytes: (clusters.len() * CLUSTER_BYTES) as u64,
            key_scheme: key_scheme.to_string(),
            writer: writer.to_string(),
            written: now(),
            checksum: 0,
        };
        payload::write(path, &mut info, clusters, CLUSTER_BYTES, |c, info, buf| {
            let snap = c.load();
            let snap = if snap.is_consistent() {
                snap
            } else {
                Snapshot::EMPTY
            };
            info.entries += snap.data.iter().filter(|d| !d.is_empty()).count() as u64;
            encode(&snap, buf);
        })?;
        Ok(info)
    }

    /// Loads a full-table hash file saved from a table of the same size, merging it into
    /// this one: for each entry of the file, the same position already in the table at
    /// least as deep stays; otherwise the entry takes an empty slot of its cluster, or the
    /// shallowest one if it is deeper. Loaded entries keep their age relative to the file's
    /// last search. Call it between searches.
    ///
    /// The whole file is checked first (header, `key_scheme`, size, checksum, every
    /// cluster's check word); if any check fails the table is not touched. A file from a
    /// table of another size is refused with [`FileError::Geometry`].
    pub fn load(&self, path: &Path, key_scheme: &str) -> Result<LoadReport, FileError> {
        if self.has_shadow() {
            return Err(FileError::Unsupported(
                "a table with shadow keys cannot be loaded into",
            ));
        }
        let mut file = File::open(path).map_err(io_error(path))?;
        let info = header::read(&mut file, path)?;
        info.expect(FileKind::Full, key_scheme)?;
        if info.clusters != self.clusters() as u64 {
            return Err(FileError::Geometry {
                file_clusters: info.clusters,
                table_clusters: self.clusters() as u64,
            });
        }
        // Pass 1: check everything.
        let mut entries = 0u64;
        let mut bad = None;
        let computed = payload::read(
            &mut file,
            path,
            info.clusters,
            CLUSTER_BYTES,
            |index, bytes| {
                for (k, cb) in bytes.chunks_exact(CLUSTER_BYTES).enumerate() {
                    let snap = decode(cb);
                    if !snap.is_consistent() && bad.is_none() {
                        bad = Some(index + k as u64);
                    }
                    entries += snap.data.iter().filter(|d| !d.is_empty()).count() as u64;
                }
                Ok(())
            },
        )?;
        payload::verify(&info, computed)?;
        if let Some(c) = bad {
            return Err(FileError::Corrupt(format!(
                "cluster {c} fails its check word"
            )));
        }
        if entries != info.entries {
            return Err(FileError::Corrupt(format!(
                "{entries} entries, header says {}",
                info.entries
            )));
        }
        // Pass 2: merge.
        file.seek(SeekFrom::Start(HEADER_BYTES as u64))
            .map_err(io_error(path))?;
        let shift = self.generation().wrapping_sub(info.generation);
        let eval = (info.eval_field != self.eval_field()).then(|| match self.eval_field() {
            EvalField::Eval => NO_EVAL as u16,
            EvalField::Size => 0,
        });
        let mut report = LoadReport {
            entries,
            ..LoadReport::default()
        };
        let clusters = self.cluster_slice();
        payload::read(
            &mut file,
            path,
            info.clusters,
            CLUSTER_BYTES,
            |index, bytes| {
                for (k, cb) in bytes.chunks_exact(CLUSTER_BYTES).enumerate() {
                    let cluster = &clusters[index as usize + k];
                    self.merge_cluster(cluster, &decode(cb), shift, eval, &mut report);
                }
                Ok(())
            },
        )?;
        Ok(report)
    }

    /// Merges the entries of `from` (a cluster from a file) into `cluster`: generations
    /// shifted by `shift`, the evaluation field replaced by `eval` if given.
    fn merge_cluster(
        &self,
        cluster: &Cluster,
        from: &Snapshot,
        shift: u8,
        eval: Option<u16>,
        report: &mut LoadReport,
    ) {
        let mut incoming = (0..SLOTS).filter(|&i| !from.data[i].is_empty()).peekable();
        if incoming.peek().is_none() {
            return;
        }
        let Some((read, base)) = cluster.read_for_store(self.counters()) else {
            report.dropped += incoming.count() as u64;
            return;
        };
        let mut next = base;
        let mut stored = 0;
        let empty_cluster = base.data.iter().all(|d| d.is_empty());
        for i in incoming {
            let sig = from.sig(i);
            let mut d = from.data[i].with_generation(from.data[i].generation().wrapping_add(shift));
            if let Some(bits) = eval {
                d = d.with_eval_field(bits);
            }
            if empty_cluster {
                // Into an empty cluster, entries keep their slots: the cluster is copied.
                next.set(i, sig, d);
                stored += 1;
                continue;
            }
            let same = (0..SLOTS).find(|&j| !next.data[j].is_empty() && next.sig(j) == sig);
            let empty = (0..SLOTS).find(|&j| next.data[j].is_empty());
            let shallowest = (0..SLOTS)
                .min_by_key(|&j| next.data[j].depth())
                .expect("three slots");
            let target = match (same, empty) {
                (Some(j), _) if d.depth() > next.data[j].depth() => Some(j),
                (Some(_), _) => {
                    report.kept += 1;
                    None
                }
                (None, Some(j)) => Some(j),
                (None, None) if d.depth() > next.data[shallowest].depth() => Some(shallowest),
                (None, None) => {
                    report.dropped += 1;
                    None
                }
            };
            if let Some(j) = target {
                next.set(j, sig, d);
                stored += 1;
            }
        }
        if stored == 0 && base == read {
            return;
        }
        next.seal();
        if cluster.claim(read.tags) {
            cluster.publish(&read, &next);
            report.stored += stored;
        } else {
            report.dropped += stored;
        }
    }
}
