//! Chunk files: a header and the games of one unit of `engram datagen`'s work, the games
//! range-coded (`coded.rs`) with moves ranked by a move order (`order.rs`) and scores
//! rounded to 4 cp. Format version 4 is read and written.

use super::coded;
use super::record::GameRecord;
use super::DataError;
use std::io::Write;
use std::path::Path;
use xxhash_rust::xxh3::xxh3_64;

/// The magic bytes a chunk starts with.
pub const MAGIC: &[u8; 8] = b"ENGRAMGM";
/// The format version this code reads and writes. (Versions 1 to 3 were read, and rewritten
/// in version 4 by `engram datagen --recode`, up to commit 98c958f.)
pub const VERSION: u32 = 4;
/// Bytes in the header.
pub const HEADER_LEN: usize = 72;

/// What a chunk's header says about the games in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkHeader {
    /// Games in the chunk.
    pub games: u32,
    /// Scored positions in the chunk.
    pub positions: u64,
    /// The seed of the run that generated it.
    pub seed: u64,
    /// The chunk's index in its run (games `index · n .. (index + 1) · n`).
    pub index: u64,
    /// Nodes searched per move.
    pub nodes: u64,
    /// 0 for the hand-crafted evaluation, else the xxh3-64 of the network file.
    pub generator: u64,
}

/// A chunk read back: its header and its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// The header.
    pub header: ChunkHeader,
    /// The games, in order.
    pub games: Vec<GameRecord>,
}

/// The whole file image of a chunk ([`VERSION`]): header and games. `header.games` and
/// `header.positions` are set from `games`. The scores of positions no one trains on are
/// left out (they read back [`UNSCORED`](crate::data::UNSCORED)) and the others rounded to
/// 4 cp ([`GameRecord::as_stored`]).
///
/// Panics if a move is illegal (records are built by playing the moves) or a position the
/// trainer learns from has no score.
pub fn chunk_bytes(mut header: ChunkHeader, games: &[GameRecord]) -> Vec<u8> {
    header.games = games.len() as u32;
    header.positions = games.iter().map(|g| g.scored.len() as u64).sum();
    let body = coded::encode_games(games);
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&header.games.to_le_bytes());
    for v in [
        header.positions,
        header.seed,
        header.index,
        header.nodes,
        header.generator,
        body.len() as u64,
        xxh3_64(&body),
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&body);
    out
}

/// Writes a chunk atomically (a temporary file renamed into place).
pub fn write_chunk(
    path: &Path,
    header: ChunkHeader,
    games: &[GameRecord],
) -> Result<(), DataError> {
    let bytes = chunk_bytes(header, games);
    engram_tt::write_atomic(path, |f| f.write_all(&bytes))
        .map_err(|e| DataError::Io(format!("{}: {e}", path.display())))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads only the header of a chunk image (`bytes` may hold just the first
/// [`HEADER_LEN`] bytes), checking the magic and the version ([`VERSION`]).
pub fn read_header(bytes: &[u8]) -> Result<ChunkHeader, DataError> {
    if bytes.len() >= 8 && &bytes[..8] != MAGIC {
        return Err(DataError::BadMagic);
    }
    if bytes.len() < HEADER_LEN {
        return Err(DataError::Truncated { what: "header" });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(DataError::Version(version));
    }
    Ok(ChunkHeader {
        games: u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")),
        positions: u64_at(bytes, 16),
        seed: u64_at(bytes, 24),
        index: u64_at(bytes, 32),
        nodes: u64_at(bytes, 40),
        generator: u64_at(bytes, 48),
    })
}

/// Reads a chunk image: checks the header, the body's length and checksum, and replays every
/// game, refusing a move code that is not a legal move's.
pub fn read_chunk(bytes: &[u8]) -> Result<Chunk, DataError> {
    let header = read_header(bytes)?;
    let body_len = u64_at(bytes, 56);
    let body = &bytes[HEADER_LEN..];
    if body.len() as u64 != body_len {
        return Err(if (body.len() as u64) < body_len {
            DataError::Truncated { what: "games" }
        } else {
            DataError::Checksum
        });
    }
    if xxh3_64(body) != u64_at(bytes, 64) {
        return Err(DataError::Checksum);
    }
    let games = coded::decode_games(body, header.games)?;
    let positions: u64 = games.iter().map(|g| g.scored.len() as u64).sum();
    if positions != header.positions {
        return Err(DataError::Malformed {
            game: header.games as usize,
            why: format!(
                "{positions} positions, the header says {}",
                header.positions
            ),
        });
    }
    Ok(Chunk { header, games })
}

/// Reads a chunk file (errors other than I/O do not name the file: the caller does).
pub fn read_chunk_file(path: &Path) -> Result<Chunk, DataError> {
    let bytes =
        std::fs::read(path).map_err(|e| DataError::Io(format!("{}: {e}", path.display())))?;
    read_chunk(&bytes)
}
