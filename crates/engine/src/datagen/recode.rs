//! `engram datagen --recode DIR`: chunks of an older format rewritten in the current one.
//!
//! Version 1 chunks store 3 bytes a position, version 2 about 1.7, version 3 about 1.4 (it
//! leaves out the scores of positions no one trains on), version 4 about 1.1 (moves ranked by
//! a move order, scores rounded to 4 cp). Recoding keeps every header field, every move and
//! every position the trainer reads, with its score rounded to the nearest multiple of 4 cp
//! (each new image is read back and compared, training positions included, before it
//! replaces the old file, atomically): what the trainer learns from moves by at most 2 cp a
//! score.

use engram_train::data::chunk::recode;
use engram_train::loader::chunk_files;
use std::io::Write;
use std::path::Path;

/// What a recode did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Recoded {
    /// Chunk files rewritten.
    pub recoded: usize,
    /// Chunk files already in the current format.
    pub current: usize,
    /// Bytes of the rewritten files before.
    pub before: u64,
    /// Bytes of the rewritten files after.
    pub after: u64,
}

impl Recoded {
    /// A report for people.
    pub fn text(&self) -> String {
        format!(
            "recoded {} chunk files ({} already current): {} bytes -> {} bytes ({:.1}% saved)\n",
            self.recoded,
            self.current,
            self.before,
            self.after,
            100.0 * (1.0 - self.after as f64 / self.before.max(1) as f64)
        )
    }
}

/// Recodes every `*.games` file of `dir` (sorted by name). Stops at the first file that
/// cannot be read or written, naming it; files before it stay recoded, which is safe, since
/// a recoded chunk gives the trainer the same positions, with their scores rounded.
pub fn recode_dir(dir: &Path) -> Result<Recoded, String> {
    let paths = chunk_files(&[dir.to_path_buf()])?;
    let mut r = Recoded::default();
    for path in paths {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        match recode(&bytes).map_err(|e| format!("{}: {e}", path.display()))? {
            None => r.current += 1,
            Some(image) => {
                engram_tt::write_atomic(&path, |f| f.write_all(&image))
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                r.recoded += 1;
                r.before += bytes.len() as u64;
                r.after += image.len() as u64;
            }
        }
    }
    Ok(r)
}
