//! Chunk files: a header and the games of one unit of `engram datagen`'s work. Version 1
//! bodies are plain (3 bytes a position), version 2 bodies range-coded (`coded.rs`), version
//! 3 bodies range-coded without the scores of positions no one trains on, version 4 bodies
//! version 3's with moves coded by their rank in a move order (`order.rs`) and scores
//! rounded to 4 cp; all four are read, version 4 is written.

use super::coded;
use super::packed::extract;
use super::record::{decode_move, encode_move, End, GameRecord, GameResult};
use super::DataError;
use engram_chess::Board;
use std::io::Write;
use std::path::Path;
use xxhash_rust::xxh3::xxh3_64;

/// The magic bytes a chunk starts with.
pub const MAGIC: &[u8; 8] = b"ENGRAMGM";
/// The format version this code writes (it also reads versions 1 to 3).
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

/// The games as a version 1 body, checking that every move is legal where it is played.
///
/// Panics if a move is illegal: records are built by playing the moves.
pub fn encode_games_v1(games: &[GameRecord]) -> Vec<u8> {
    let mut body = Vec::new();
    for g in games {
        body.extend_from_slice(&(g.plies() as u16).to_le_bytes());
        body.push(g.opening.len() as u8);
        body.push(g.result.code());
        body.push(g.end.code());
        let mut board = Board::startpos();
        for &mv in &g.opening {
            body.push(encode_move(&board, mv).expect("recorded moves are legal"));
            board.play(mv);
        }
        for &(mv, score) in &g.scored {
            body.push(encode_move(&board, mv).expect("recorded moves are legal"));
            body.extend_from_slice(&score.to_le_bytes());
            board.play(mv);
        }
    }
    body
}

/// The whole file image of a chunk in the current format ([`VERSION`]): header and games.
/// `header.games` and `header.positions` are set from `games`.
pub fn chunk_bytes(header: ChunkHeader, games: &[GameRecord]) -> Vec<u8> {
    chunk_bytes_version(header, games, VERSION)
}

/// The file image of a chunk in format `version` (1 to 4), as [`chunk_bytes`]. Versions 3
/// and 4 leave out the scores of positions no one trains on (they read back
/// [`UNSCORED`](crate::data::UNSCORED)); version 4 rounds the others to 4 cp
/// ([`GameRecord::in_version`]).
///
/// Panics on another version.
pub fn chunk_bytes_version(mut header: ChunkHeader, games: &[GameRecord], version: u32) -> Vec<u8> {
    header.games = games.len() as u32;
    header.positions = games.iter().map(|g| g.scored.len() as u64).sum();
    let body = match version {
        1 => encode_games_v1(games),
        2..=4 => coded::encode_games(games, version),
        _ => panic!("no chunk format version {version}"),
    };
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
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

/// The format version field of a header at least 12 bytes long (unchecked: [`read_header`]
/// and [`read_chunk`] check it). Panics on fewer than 12 bytes.
pub fn version_of(bytes: &[u8]) -> u32 {
    u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads only the header of a chunk image (`bytes` may hold just the first
/// [`HEADER_LEN`] bytes), checking the magic and version (1 to [`VERSION`]).
pub fn read_header(bytes: &[u8]) -> Result<ChunkHeader, DataError> {
    if bytes.len() >= 8 && &bytes[..8] != MAGIC {
        return Err(DataError::BadMagic);
    }
    if bytes.len() < HEADER_LEN {
        return Err(DataError::Truncated { what: "header" });
    }
    let version = version_of(bytes);
    if !(1..=VERSION).contains(&version) {
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

/// A reader of a chunk's body that reports running out as [`DataError::Truncated`].
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], DataError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(DataError::Truncated { what })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u8(&mut self, what: &'static str) -> Result<u8, DataError> {
        Ok(self.take(1, what)?[0])
    }
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
    let games = match version_of(bytes) {
        1 => decode_games_v1(body, header.games)?,
        v => coded::decode_games(body, header.games, v)?,
    };
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

/// The games of a version 1 body, every move replayed and checked; `games` from the header.
fn decode_games_v1(body: &[u8], games: u32) -> Result<Vec<GameRecord>, DataError> {
    let mut cur = Cursor { bytes: body, at: 0 };
    // Capacity from the body, not the header: a damaged count must not allocate.
    let mut out = Vec::with_capacity((games as usize).min(body.len() / 5));
    for game in 0..games as usize {
        let bad = |why: String| DataError::Malformed { game, why };
        let plies = u16::from_le_bytes(cur.take(2, "game header")?.try_into().expect("2 bytes"));
        let opening_len = cur.u8("game header")?;
        let result = cur.u8("game header")?;
        let result =
            GameResult::from_code(result).ok_or_else(|| bad(format!("result code {result}")))?;
        let end = cur.u8("game header")?;
        let end = End::from_code(end).ok_or_else(|| bad(format!("end code {end}")))?;
        if opening_len as u16 > plies {
            return Err(bad(format!(
                "{opening_len} opening plies in a game of {plies}"
            )));
        }
        let mut board = Board::startpos();
        let mut record = GameRecord {
            opening: Vec::with_capacity(opening_len as usize),
            scored: Vec::with_capacity((plies - opening_len as u16) as usize),
            result,
            end,
        };
        for ply in 0..plies as usize {
            let code = cur.u8("moves")?;
            let mv = decode_move(&board, code).ok_or_else(|| {
                bad(format!(
                    "ply {}: move code {code} is not a legal move",
                    ply + 1
                ))
            })?;
            if ply < opening_len as usize {
                record.opening.push(mv);
            } else {
                let s = cur.take(2, "scores")?;
                record.scored.push((mv, i16::from_le_bytes([s[0], s[1]])));
            }
            board.play(mv);
        }
        out.push(record);
    }
    if cur.at != body.len() {
        return Err(DataError::Malformed {
            game: games as usize,
            why: format!("{} bytes after the last game", body.len() - cur.at),
        });
    }
    Ok(out)
}

/// The image of chunk `bytes` in the current format ([`VERSION`]), or `None` if it is in it
/// already. The chunk is read and checked first, and the new image is read back and must
/// hold the same header and the same games as the current format keeps them
/// ([`GameRecord::in_version`]: every move, the scores of the positions the trainer learns
/// from, rounded to 4 cp), and give the trainer the same positions ([`extract`]) with those
/// scores. Recoding from version 1, 2 or 3 to 4 changes the scores by at most 2 cp, so a net
/// trained on recoded chunks is not bit for bit the net trained on the old ones.
pub fn recode(bytes: &[u8]) -> Result<Option<Vec<u8>>, DataError> {
    let chunk = read_chunk(bytes)?;
    if version_of(bytes) == VERSION {
        return Ok(None);
    }
    let image = chunk_bytes(chunk.header, &chunk.games);
    let again = read_chunk(&image)?;
    let same = again.header == chunk.header
        && again.games.len() == chunk.games.len()
        && again.games.iter().zip(&chunk.games).all(|(new, old)| {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            extract(new, &mut a);
            let old = old.in_version(VERSION);
            extract(&old, &mut b);
            *new == old && a == b
        });
    if !same {
        return Err(DataError::Malformed {
            game: 0,
            why: "the recoded chunk does not read back the same".into(),
        });
    }
    Ok(Some(image))
}

/// Reads a chunk file (errors other than I/O do not name the file: the caller does).
pub fn read_chunk_file(path: &Path) -> Result<Chunk, DataError> {
    let bytes =
        std::fs::read(path).map_err(|e| DataError::Io(format!("{}: {e}", path.display())))?;
    read_chunk(&bytes)
}
