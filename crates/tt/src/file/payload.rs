//! Streaming a payload to and from disk in 1 MiB chunks, with its XXH3-64 checksum: the
//! part that full tables and compact memories share.

use super::atomic::write_atomic;
use super::header::{FileInfo, HEADER_BYTES};
use super::{io_error, FileError};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use xxhash_rust::xxh3::Xxh3;

/// Bytes per read or write.
const CHUNK_BYTES: usize = 1 << 20;

/// Writes a hash file atomically: `items`, each `item_bytes` long as `encode` appends it
/// (which may also update `info`, say its entry count), after a header that is written last,
/// with the payload's checksum in it.
pub(super) fn write<T>(
    path: &Path,
    info: &mut FileInfo,
    items: &[T],
    item_bytes: usize,
    mut encode: impl FnMut(&T, &mut FileInfo, &mut Vec<u8>),
) -> Result<(), FileError> {
    write_atomic(path, |file| {
        file.write_all(&[0; HEADER_BYTES])?;
        let mut hasher = Xxh3::new();
        let mut buf = Vec::with_capacity(CHUNK_BYTES);
        for chunk in items.chunks(CHUNK_BYTES / item_bytes) {
            buf.clear();
            for item in chunk {
                encode(item, info, &mut buf);
            }
            hasher.update(&buf);
            file.write_all(&buf)?;
        }
        info.checksum = hasher.digest();
        file.seek(SeekFrom::Start(0))?;
        file.write_all(&info.encode())
    })
}

/// Reads `count` items of `item_bytes` each from `file`, positioned after the header, in
/// chunks, calling `f(index of the chunk's first item, bytes)`; stops at `f`'s first error.
/// Returns the XXH3-64 of everything read.
pub(super) fn read(
    file: &mut File,
    path: &Path,
    count: u64,
    item_bytes: usize,
    mut f: impl FnMut(u64, &[u8]) -> Result<(), FileError>,
) -> Result<u64, FileError> {
    let per_chunk = (CHUNK_BYTES / item_bytes) as u64;
    let mut buf = vec![0u8; CHUNK_BYTES];
    let mut hasher = Xxh3::new();
    let mut index = 0u64;
    while index < count {
        let n = (count - index).min(per_chunk) as usize;
        let bytes = &mut buf[..n * item_bytes];
        file.read_exact(bytes).map_err(io_error(path))?;
        hasher.update(bytes);
        f(index, bytes)?;
        index += n as u64;
    }
    Ok(hasher.digest())
}

/// Checks a payload's checksum against its header's.
pub(super) fn verify(info: &FileInfo, computed: u64) -> Result<(), FileError> {
    if computed == info.checksum {
        Ok(())
    } else {
        Err(FileError::Checksum {
            stored: info.checksum,
            computed,
        })
    }
}
