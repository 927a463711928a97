//! Atomic file replacement: temporary file in the same folder, `fsync`, rename.

use super::{io_error, FileError};
use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `path` so that it is either the old file or the whole new one, never a part:
/// `write` fills a new temporary file in the same folder, which is flushed to disk and then
/// renamed over `path` (and the folder flushed, on Unix, so the rename itself is durable).
/// If anything fails, the temporary file is removed and `path` is untouched.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), FileError> {
    let tmp = temp_path(path);
    let result = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        write(&mut file)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(io_error(path)(e));
    }
    sync_dir(path);
    Ok(())
}

/// `.<name>.tmp.<pid>.<n>` next to `path`.
fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or_else(|| "hash".into(), |n| n.to_string_lossy().into_owned());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.tmp.{}.{n}", std::process::id()))
}

/// Flushes the folder holding `path` (the rename's durability). Best effort: not every
/// system or file system allows opening a folder.
fn sync_dir(path: &Path) {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp_dir(tag: &str) -> PathBuf {
        static N: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "engram-tt-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".tmp."))
            .collect()
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = temp_dir("atomic");
        let path = dir.join("h.bin");
        write_atomic(&path, |f| f.write_all(b"old contents")).unwrap();
        let err = write_atomic(&path, |f| {
            f.write_all(b"half of the new")?;
            Err(io::Error::other("disk full"))
        })
        .unwrap_err();
        assert!(err.to_string().contains("disk full"), "{err}");
        assert!(err.to_string().contains("h.bin"), "{err}");
        assert_eq!(fs::read(&path).unwrap(), b"old contents");
        assert!(leftovers(&dir).is_empty());
        write_atomic(&path, |f| f.write_all(b"new")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert!(leftovers(&dir).is_empty());
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_the_file() {
        let path = std::env::temp_dir().join("engram-no-such-dir-xyz/h.bin");
        let err = write_atomic(&path, |_| Ok(())).unwrap_err();
        assert!(matches!(err, FileError::Io { .. }));
        assert!(err.to_string().contains("h.bin"));
    }
}
