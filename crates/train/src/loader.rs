//! Loading training positions from directories of games chunks (`*.games`).

use crate::data::{chunk::read_chunk_file, extract_smoothed, Packed};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The extension of the chunk files [`load_dir`] reads.
pub const CHUNK_EXTENSION: &str = "games";

/// What [`load_dir`] read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Chunk files read successfully.
    pub files: usize,
    /// Games in them.
    pub games: u64,
    /// Scored positions in them (plies after the openings).
    pub scored: u64,
    /// Positions kept by the training filter ([`crate::data::extract`]).
    pub kept: u64,
    /// Files skipped because they could not be read or are damaged, with the reason.
    pub damaged: Vec<(PathBuf, String)>,
}

impl LoadReport {
    /// One line for people: files, games, scored and kept positions, damaged files.
    pub fn summary(&self) -> String {
        format!(
            "{} chunk files, {} games, {} scored positions, {} kept; {} damaged files skipped",
            self.files,
            self.games,
            self.scored,
            self.kept,
            self.damaged.len()
        )
    }
}

/// The `*.games` files directly in `dirs`, sorted by path (so loading is deterministic).
/// A directory that cannot be listed is an error.
pub fn chunk_files(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for dir in dirs {
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot list {}: {e}", dir.display()))?
                .path();
            if path.extension().is_some_and(|x| x == CHUNK_EXTENSION) && path.is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// Training positions read by [`load_dir`], game by game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// The positions, in file and game order.
    pub positions: Vec<Packed>,
    /// Where each game's positions end in `positions` (game `i` is
    /// `positions[game_ends[i - 1]..game_ends[i]]`, from 0 for the first): the validation
    /// split holds out whole games.
    pub game_ends: Vec<usize>,
    /// What was read and skipped.
    pub report: LoadReport,
}

/// One file's positions and game ends, or why it was skipped; and its games and scored
/// positions.
type FileResult = Result<(Vec<Packed>, Vec<usize>, u64, u64), String>;

fn load_file(path: &Path, smooth: usize) -> FileResult {
    let chunk = read_chunk_file(path).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let mut ends = Vec::with_capacity(chunk.games.len());
    for game in &chunk.games {
        extract_smoothed(game, smooth, &mut out);
        ends.push(out.len());
    }
    Ok((out, ends, chunk.header.games as u64, chunk.header.positions))
}

/// Every training position of the `*.games` chunk files in the directories `dirs`, in file
/// order, read on `threads` threads. Damaged or unreadable files are skipped and listed in
/// the report (never a panic); a directory that cannot be listed is an error. `smooth` is
/// the score smoothing of [`crate::data::extract_smoothed`] (1: each position's own score).
pub fn load_dir(dirs: &[PathBuf], threads: usize, smooth: usize) -> Result<Loaded, String> {
    let files = chunk_files(dirs)?;
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, FileResult)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.clamp(1, files.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(path) = files.get(i) else { break };
                        mine.push((i, load_file(path, smooth)));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("loader thread"))
            .collect()
    });
    results.sort_by_key(|(i, _)| *i);
    let mut loaded = Loaded::default();
    for (i, result) in results {
        match result {
            Ok((mut kept, ends, games, scored)) => {
                let report = &mut loaded.report;
                report.files += 1;
                report.games += games;
                report.scored += scored;
                report.kept += kept.len() as u64;
                let base = loaded.positions.len();
                loaded.game_ends.extend(ends.iter().map(|e| base + e));
                loaded.positions.append(&mut kept);
            }
            Err(why) => loaded.report.damaged.push((files[i].clone(), why)),
        }
    }
    Ok(loaded)
}
