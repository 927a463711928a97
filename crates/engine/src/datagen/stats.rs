//! `engram datagen --stats DIR`: what a directory of chunks holds.

use engram_train::data::chunk::read_chunk;
use engram_train::data::{extract, End, GameResult};
use engram_train::loader::chunk_files;
use std::path::Path;

/// Counts over the chunks of a directory.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Chunk files read.
    pub chunks: usize,
    /// Chunk files refused, with why.
    pub damaged: Vec<String>,
    /// Games.
    pub games: u64,
    /// Scored positions.
    pub positions: u64,
    /// Positions the trainer keeps (see `engram_train::data::extract`).
    pub kept: u64,
    /// Results from White's view: Black won, draw, White won.
    pub results: [u64; 3],
    /// Games by how they ended, in `End::ALL` order.
    pub ends: [u64; 8],
    /// Plies in all.
    pub plies: u64,
    /// Bytes of the chunk files read (damaged ones included).
    pub bytes: u64,
}

/// Reads every `*.games` file of `dir` (sorted by name).
pub fn collect(dir: &Path) -> Result<Stats, String> {
    let paths = chunk_files(&[dir.to_path_buf()])?;
    let mut s = Stats::default();
    let mut kept = Vec::new();
    for path in paths {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                s.damaged.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        s.bytes += bytes.len() as u64;
        match read_chunk(&bytes) {
            Ok(chunk) => {
                s.chunks += 1;
                for g in &chunk.games {
                    s.games += 1;
                    s.positions += g.scored.len() as u64;
                    s.plies += g.plies() as u64;
                    s.results[g.result.code() as usize] += 1;
                    s.ends[g.end.code() as usize] += 1;
                    kept.clear();
                    s.kept += extract(g, &mut kept) as u64;
                }
            }
            Err(e) => s.damaged.push(format!("{}: {e}", path.display())),
        }
    }
    Ok(s)
}

impl Stats {
    /// A report for people.
    pub fn text(&self) -> String {
        let pct = |n: u64| 100.0 * n as f64 / self.games.max(1) as f64;
        let mut out = format!(
            "chunks     {}\ngames      {}\npositions  {} scored, {} kept for training ({:.1}%)\nplies      {:.1} a game\n",
            self.chunks,
            self.games,
            self.positions,
            self.kept,
            100.0 * self.kept as f64 / self.positions.max(1) as f64,
            self.plies as f64 / self.games.max(1) as f64
        );
        out += &format!(
            "bytes      {} ({:.3} a scored position)\n",
            self.bytes,
            self.bytes as f64 / self.positions.max(1) as f64
        );
        out += &format!(
            "results    White won {:.1}%, drawn {:.1}%, Black won {:.1}%\n",
            pct(self.results[GameResult::WhiteWins.code() as usize]),
            pct(self.results[GameResult::Draw.code() as usize]),
            pct(self.results[GameResult::BlackWins.code() as usize])
        );
        for end in End::ALL {
            out += &format!(
                "  {:<22} {:>6.1}%\n",
                end.name(),
                pct(self.ends[end.code() as usize])
            );
        }
        for d in &self.damaged {
            out += &format!("damaged    {d}\n");
        }
        out
    }
}
