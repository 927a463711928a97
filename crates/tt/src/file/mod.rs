//! Hash files: the table, or the part of it worth keeping, on disk.
//!
//! Two kinds of file share one header:
//!
//! * A **full table** ([`Table::save`], [`Table::load`]): every cluster as it is in memory,
//!   Houdini's hash file. Fastest to write and read, as large as the table. An entry keeps
//!   only its 16-bit signature (the rest of its key is where it sits), so a full table can
//!   only be loaded into a table of the same geometry; any other is refused with
//!   [`FileError::Geometry`], naming both sizes. It cannot be converted to a compact memory
//!   either (the keys are gone): a compact memory is made from full keys, by its user.
//! * A **compact memory** ([`Memory`]): the entries worth keeping, each with its full 64-bit
//!   key, sorted by key, one per key. It loads into a table of any size and policy: each
//!   entry is stored again through the table's policy, shallowest first, so that in a table
//!   too small for all of them the deepest stay.
//!
//! Loading merges into what the table holds and never wipes it: for the same position the
//! deeper entry wins (at equal depth, what the table holds). Everything is validated before
//! the table is touched; a file that fails any check leaves the table as it was.
//!
//! Writes are atomic: the file is written under a temporary name in the same folder,
//! flushed to disk (`fsync`) and renamed over the old one, so a crash or a full disk
//! mid-write leaves the previous file whole.
//!
//! # Format (version 1)
//!
//! All integers little-endian. A 128-byte header, then the payload:
//!
//! | offset | bytes | field |
//! |-------:|------:|:------|
//! | 0   | 8  | magic `ENGRAMTT` |
//! | 8   | 2  | format version, 1 |
//! | 10  | 1  | kind: 1 full table, 2 compact memory |
//! | 11  | 1  | what the entries' evaluation field holds: 0 static evaluation, 1 subtree size ([`crate::size_code`]) |
//! | 12  | 2  | entry layout version, 1 (the data word of `entry.rs`) |
//! | 14  | 2  | bytes per cluster, 32 |
//! | 16  | 1  | entries per cluster, 3 |
//! | 17  | 1  | the table's generation when saved (full tables; 0 in a compact memory) |
//! | 18  | 6  | zero |
//! | 24  | 8  | clusters (full tables; 0 in a compact memory) |
//! | 32  | 8  | entries in use (full) or records (compact) |
//! | 40  | 8  | payload bytes |
//! | 48  | 16 | key scheme, ASCII, zero-padded (for Engram: `polyglot`) |
//! | 64  | 32 | writer, ASCII, zero-padded (for example `engram 0.1.0`) |
//! | 96  | 8  | time written, seconds since 1970 |
//! | 104 | 8  | XXH3-64 of the payload |
//! | 112 | 8  | zero |
//! | 120 | 8  | XXH3-64 of bytes 0–119 |
//!
//! * Full table payload: each cluster as four 64-bit words, the tag word (three 16-bit
//!   signatures, the check word, busy bit clear) then the three data words (`entry.rs`).
//! * Compact memory payload: 16 bytes per record, the full key then the data word, keys
//!   strictly increasing. The data word's 5 generation bits hold the entry's *age* (how many
//!   searches before the save it was written; 0 = the last search).
//!
//! Checks on reading, each with its own [`FileError`]: length, magic, header checksum,
//! version, layout, kind, key scheme, geometry, payload length, payload checksum, and for a
//! compact memory the order of the keys and that no record is empty.

mod atomic;
mod compact;
mod full;
mod header;
mod payload;

pub use atomic::write_atomic;
pub use compact::Memory;
pub use full::LoadReport;
pub use header::{EvalField, FileInfo, FileKind, FORMAT_VERSION, HEADER_BYTES, LAYOUT_VERSION};

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Why a hash file could not be written or read. The table is unchanged in every case.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be opened, read, written or renamed.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is shorter (or longer) than its header says.
    Length {
        /// Bytes the header (or the smallest header) calls for.
        expected: u64,
        /// Bytes in the file.
        found: u64,
    },
    /// The file does not start with `ENGRAMTT`: not a hash file.
    Magic,
    /// The header's checksum does not match: the header is damaged.
    HeaderChecksum,
    /// A format version this build does not read.
    Version {
        /// The file's version.
        found: u16,
        /// The version this build reads.
        supported: u16,
    },
    /// An entry layout or cluster shape this build does not read.
    Layout {
        /// What the file says: layout version, bytes per cluster, entries per cluster.
        found: (u16, u16, u8),
        /// What this build uses.
        expected: (u16, u16, u8),
    },
    /// A file of the other kind (a full table where a compact memory was expected, or the
    /// reverse), or an unknown kind byte.
    Kind {
        /// The kind byte found.
        found: u8,
        /// The kind expected.
        expected: FileKind,
    },
    /// Keys made by another key scheme: they would be misread.
    KeyScheme {
        /// The file's scheme.
        found: String,
        /// The scheme expected.
        expected: String,
    },
    /// A full table saved from a table of another size.
    Geometry {
        /// Clusters in the file.
        file_clusters: u64,
        /// Clusters in the table.
        table_clusters: u64,
    },
    /// The payload does not match its checksum: the file is damaged.
    Checksum {
        /// The checksum in the header.
        stored: u64,
        /// The checksum of the payload read.
        computed: u64,
    },
    /// The payload is well formed on disk but not valid (say, compact keys out of order).
    Corrupt(String),
    /// The table cannot be saved or loaded (laboratory tables with shadow keys).
    Unsupported(&'static str),
}

/// Bytes as MiB for messages, with two decimals below 10 MiB.
fn mib_text(clusters: u64) -> String {
    let mib = clusters as f64 * 32.0 / (1u64 << 20) as f64;
    if mib < 10.0 {
        format!("{mib:.2} MiB")
    } else {
        format!("{mib:.0} MiB")
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            FileError::Length { expected, found } => write!(
                f,
                "truncated or overlong hash file: {found} bytes, expected {expected}"
            ),
            FileError::Magic => write!(f, "not an Engram hash file (bad magic)"),
            FileError::HeaderChecksum => write!(f, "hash file header is damaged (bad checksum)"),
            FileError::Version { found, supported } => write!(
                f,
                "hash file format version {found} is not supported (this build reads {supported})"
            ),
            FileError::Layout { found, expected } => write!(
                f,
                "hash file entry layout {}/{}-byte clusters/{} entries is not supported \
                 (this build: {}/{}/{})",
                found.0, found.1, found.2, expected.0, expected.1, expected.2
            ),
            FileError::Kind { found, expected } => match FileKind::from_byte(*found) {
                Some(kind) => write!(f, "this is a {kind}, not a {expected}"),
                None => write!(f, "unknown hash file kind {found}"),
            },
            FileError::KeyScheme { found, expected } => write!(
                f,
                "hash file keys are from scheme '{found}', not '{expected}'"
            ),
            FileError::Geometry {
                file_clusters,
                table_clusters,
            } => write!(
                f,
                "the file is a full table of {} ({file_clusters} clusters) but the table is {} \
                 ({table_clusters} clusters): set Hash to the file's size, or use a compact memory",
                mib_text(*file_clusters),
                mib_text(*table_clusters)
            ),
            FileError::Checksum { stored, computed } => write!(
                f,
                "hash file is damaged: payload checksum {computed:016x}, header says {stored:016x}"
            ),
            FileError::Corrupt(what) => write!(f, "hash file is damaged: {what}"),
            FileError::Unsupported(what) => write!(f, "{what}"),
        }
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FileError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// An I/O error on `path`.
fn io_error(path: &Path) -> impl FnOnce(io::Error) -> FileError + '_ {
    move |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads and checks the header of the hash file at `path` (not the payload's checksum):
/// what `engram hash info` shows.
pub fn read_info(path: &Path) -> Result<FileInfo, FileError> {
    let mut file = std::fs::File::open(path).map_err(io_error(path))?;
    header::read(&mut file, path)
}
