//! The 128-byte header shared by both kinds of hash file (layout in the module docs).

use super::{io_error, FileError};
use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::Path;
use xxhash_rust::xxh3::xxh3_64;

/// Bytes in the header.
pub const HEADER_BYTES: usize = 128;
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u16 = 1;
/// The entry layout version (the data word of `entry.rs`).
pub const LAYOUT_VERSION: u16 = 1;
/// The file's first bytes.
const MAGIC: &[u8; 8] = b"ENGRAMTT";
/// Bytes per cluster and entries per cluster in this build.
const CLUSTER_BYTES: u16 = 32;
const SLOTS: u8 = 3;
/// Bytes of the key scheme and writer fields.
const SCHEME_BYTES: usize = 16;
const WRITER_BYTES: usize = 32;

/// Which kind of hash file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// The whole table, cluster by cluster.
    Full,
    /// Selected entries with their full keys.
    Compact,
}

impl FileKind {
    fn byte(self) -> u8 {
        match self {
            FileKind::Full => 1,
            FileKind::Compact => 2,
        }
    }

    pub(super) fn from_byte(b: u8) -> Option<FileKind> {
        match b {
            1 => Some(FileKind::Full),
            2 => Some(FileKind::Compact),
            _ => None,
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Full => "full table",
            FileKind::Compact => "compact memory",
        })
    }
}

/// What the entries' 16-bit evaluation field holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalField {
    /// The static evaluation (every policy but TwoBig1).
    Eval,
    /// The subtree size code ([`Policy::TwoBig1`](crate::Policy::TwoBig1)).
    Size,
}

/// What a hash file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileInfo {
    /// Full table or compact memory.
    pub kind: FileKind,
    /// Format version.
    pub version: u16,
    /// What the evaluation field holds.
    pub eval_field: EvalField,
    /// The table's generation when it was saved (full tables).
    pub generation: u8,
    /// Clusters (full tables; 0 for a compact memory).
    pub clusters: u64,
    /// Entries in use (full) or records (compact).
    pub entries: u64,
    /// Payload bytes after the header.
    pub payload_bytes: u64,
    /// Key scheme, e.g. `polyglot`.
    pub key_scheme: String,
    /// The program that wrote it, e.g. `engram 0.1.0`.
    pub writer: String,
    /// When it was written, seconds since 1970.
    pub written: u64,
    /// XXH3-64 of the payload.
    pub checksum: u64,
}

impl FileInfo {
    /// The file's size in bytes.
    pub fn file_bytes(&self) -> u64 {
        HEADER_BYTES as u64 + self.payload_bytes
    }

    /// Table size of a full table in bytes (clusters × 32).
    pub fn table_bytes(&self) -> u64 {
        self.clusters * u64::from(CLUSTER_BYTES)
    }

    /// The header as bytes.
    pub(super) fn encode(&self) -> [u8; HEADER_BYTES] {
        let mut h = [0u8; HEADER_BYTES];
        h[0..8].copy_from_slice(MAGIC);
        h[8..10].copy_from_slice(&self.version.to_le_bytes());
        h[10] = self.kind.byte();
        h[11] = match self.eval_field {
            EvalField::Eval => 0,
            EvalField::Size => 1,
        };
        h[12..14].copy_from_slice(&LAYOUT_VERSION.to_le_bytes());
        h[14..16].copy_from_slice(&CLUSTER_BYTES.to_le_bytes());
        h[16] = SLOTS;
        h[17] = self.generation;
        h[24..32].copy_from_slice(&self.clusters.to_le_bytes());
        h[32..40].copy_from_slice(&self.entries.to_le_bytes());
        h[40..48].copy_from_slice(&self.payload_bytes.to_le_bytes());
        put_text(&mut h[48..48 + SCHEME_BYTES], &self.key_scheme);
        put_text(&mut h[64..64 + WRITER_BYTES], &self.writer);
        h[96..104].copy_from_slice(&self.written.to_le_bytes());
        h[104..112].copy_from_slice(&self.checksum.to_le_bytes());
        let sum = xxh3_64(&h[..120]);
        h[120..128].copy_from_slice(&sum.to_le_bytes());
        h
    }

    /// Parses and checks a header (everything but the payload).
    pub(super) fn decode(h: &[u8; HEADER_BYTES]) -> Result<FileInfo, FileError> {
        if &h[0..8] != MAGIC {
            return Err(FileError::Magic);
        }
        if xxh3_64(&h[..120]) != u64_at(h, 120) {
            return Err(FileError::HeaderChecksum);
        }
        let version = u16::from_le_bytes([h[8], h[9]]);
        if version != FORMAT_VERSION {
            return Err(FileError::Version {
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let layout = (
            u16::from_le_bytes([h[12], h[13]]),
            u16::from_le_bytes([h[14], h[15]]),
            h[16],
        );
        if layout != (LAYOUT_VERSION, CLUSTER_BYTES, SLOTS) || h[11] > 1 {
            return Err(FileError::Layout {
                found: layout,
                expected: (LAYOUT_VERSION, CLUSTER_BYTES, SLOTS),
            });
        }
        let kind = FileKind::from_byte(h[10]).ok_or(FileError::Kind {
            found: h[10],
            expected: FileKind::Full,
        })?;
        let info = FileInfo {
            kind,
            version,
            eval_field: if h[11] == 1 {
                EvalField::Size
            } else {
                EvalField::Eval
            },
            generation: h[17],
            clusters: u64_at(h, 24),
            entries: u64_at(h, 32),
            payload_bytes: u64_at(h, 40),
            key_scheme: get_text(&h[48..48 + SCHEME_BYTES]),
            writer: get_text(&h[64..64 + WRITER_BYTES]),
            written: u64_at(h, 96),
            checksum: u64_at(h, 104),
        };
        let expected_payload = match kind {
            FileKind::Full => info.clusters.checked_mul(u64::from(CLUSTER_BYTES)),
            FileKind::Compact => info.entries.checked_mul(16),
        };
        if expected_payload != Some(info.payload_bytes) {
            return Err(FileError::Corrupt(format!(
                "header says {} payload bytes for {} {}",
                info.payload_bytes,
                if kind == FileKind::Full {
                    info.clusters
                } else {
                    info.entries
                },
                if kind == FileKind::Full {
                    "clusters"
                } else {
                    "records"
                }
            )));
        }
        Ok(info)
    }

    /// Checks the kind and key scheme a loader expects.
    pub(super) fn expect(&self, kind: FileKind, key_scheme: &str) -> Result<(), FileError> {
        if self.kind != kind {
            return Err(FileError::Kind {
                found: self.kind.byte(),
                expected: kind,
            });
        }
        if self.key_scheme != key_scheme {
            return Err(FileError::KeyScheme {
                found: self.key_scheme.clone(),
                expected: key_scheme.to_string(),
            });
        }
        Ok(())
    }
}

/// Reads and checks the header of `file` (positioned at its start), and that the file's
/// length is the header's plus the payload's.
pub(super) fn read(file: &mut File, path: &Path) -> Result<FileInfo, FileError> {
    let len = file.metadata().map_err(io_error(path))?.len();
    if len < HEADER_BYTES as u64 {
        return Err(FileError::Length {
            expected: HEADER_BYTES as u64,
            found: len,
        });
    }
    let mut h = [0u8; HEADER_BYTES];
    file.read_exact(&mut h).map_err(io_error(path))?;
    let info = FileInfo::decode(&h)?;
    if len != info.file_bytes() {
        return Err(FileError::Length {
            expected: info.file_bytes(),
            found: len,
        });
    }
    Ok(info)
}

fn u64_at(h: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(h[at..at + 8].try_into().expect("8 bytes"))
}

/// Writes `text` zero-padded into `field`, cut to fit (at a character boundary).
fn put_text(field: &mut [u8], text: &str) {
    let mut end = text.len().min(field.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    field[..end].copy_from_slice(&text.as_bytes()[..end]);
}

/// The text of a zero-padded field (invalid UTF-8 replaced).
fn get_text(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    String::from_utf8_lossy(&field[..end]).into_owned()
}

/// Seconds since 1970 now (0 if the clock is before it).
pub(super) fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> FileInfo {
        FileInfo {
            kind: FileKind::Full,
            version: FORMAT_VERSION,
            eval_field: EvalField::Eval,
            generation: 7,
            clusters: 1000,
            entries: 1234,
            payload_bytes: 32_000,
            key_scheme: "polyglot".into(),
            writer: "engram 0.1.0".into(),
            written: 1_795_000_000,
            checksum: 0xDEAD_BEEF,
        }
    }

    #[test]
    fn header_round_trips() {
        let i = info();
        assert_eq!(FileInfo::decode(&i.encode()).unwrap(), i);
        let c = FileInfo {
            kind: FileKind::Compact,
            eval_field: EvalField::Size,
            clusters: 0,
            entries: 10,
            payload_bytes: 160,
            ..info()
        };
        assert_eq!(FileInfo::decode(&c.encode()).unwrap(), c);
    }

    #[test]
    fn long_texts_are_cut_at_a_character_boundary() {
        let i = FileInfo {
            writer: "é".repeat(40),
            ..info()
        };
        let back = FileInfo::decode(&i.encode()).unwrap();
        assert_eq!(back.writer, "é".repeat(16));
    }

    #[test]
    fn every_damaged_field_has_its_own_error() {
        let good = info().encode();
        let mut h = good;
        h[0] = b'X';
        assert!(matches!(FileInfo::decode(&h), Err(FileError::Magic)));
        let mut h = good;
        h[33] ^= 1;
        assert!(matches!(
            FileInfo::decode(&h),
            Err(FileError::HeaderChecksum)
        ));
        // Fields changed with a valid header checksum, as a newer writer would.
        let resealed = |f: &dyn Fn(&mut [u8; HEADER_BYTES])| {
            let mut h = good;
            f(&mut h);
            let sum = xxh3_64(&h[..120]);
            h[120..].copy_from_slice(&sum.to_le_bytes());
            FileInfo::decode(&h)
        };
        assert!(matches!(
            resealed(&|h| h[8] = 2),
            Err(FileError::Version {
                found: 2,
                supported: 1
            })
        ));
        assert!(matches!(
            resealed(&|h| h[12] = 9),
            Err(FileError::Layout { .. })
        ));
        assert!(matches!(
            resealed(&|h| h[16] = 4),
            Err(FileError::Layout { .. })
        ));
        assert!(matches!(
            resealed(&|h| h[10] = 7),
            Err(FileError::Kind { found: 7, .. })
        ));
        assert!(matches!(
            resealed(&|h| h[40] ^= 1),
            Err(FileError::Corrupt(_))
        ));
        let i = info();
        assert!(matches!(
            i.expect(FileKind::Compact, "polyglot"),
            Err(FileError::Kind { .. })
        ));
        assert!(matches!(
            i.expect(FileKind::Full, "other"),
            Err(FileError::KeyScheme { .. })
        ));
        assert!(i.expect(FileKind::Full, "polyglot").is_ok());
    }
}
