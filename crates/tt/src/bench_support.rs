//! Not part of the API: support for this repository's benchmarks and diagnostics
//! (`benches/tt.rs`, `examples/probe_cost.rs`), which compare the table with a pointer chase
//! over memory allocated the same way. Hidden from the docs; may change at any time.

use crate::alloc::{Buffer, TableError};
use crate::table::Table;
use std::ops::Range;
use std::sync::atomic::AtomicU64;

/// Zeroed memory from the table's own allocator (on Linux, for 2 MiB or more: the same
/// `mmap`, 2 MiB alignment and huge-page advice as a [`Table`] of the same size), as
/// 64-bit words.
pub struct Words(Buffer);

impl Words {
    /// At least `bytes` bytes (whole 32-byte clusters), huge pages advised or forbidden as
    /// for a table (`Config::huge_pages`).
    pub fn new(bytes: usize, huge_pages: bool) -> Result<Words, TableError> {
        Buffer::new(bytes.div_ceil(32).max(1), huge_pages).map(Words)
    }

    /// The words.
    pub fn words(&self) -> &[AtomicU64] {
        self.0.words()
    }
}

/// A table's own memory as words, four per 32-byte cluster. Writing them is safe but
/// corrupts those clusters (probes reject them as torn, stores rewrite them).
pub fn table_words(table: &Table) -> &[AtomicU64] {
    table.words()
}

/// Huge-page coverage of the mappings that overlap `range`, from `/proc/self/smaps`:
/// their total size, resident size and `AnonHugePages`, in KiB, summed. `None` if the file
/// cannot be read (not Linux) or no mapping overlaps. Adjacent anonymous mappings with the
/// same flags are one mapping to the kernel, so the sizes may cover more than `range`.
pub fn huge_page_coverage(range: Range<usize>) -> Option<Coverage> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let mut total: Option<Coverage> = None;
    let mut inside = false;
    for line in smaps.lines() {
        let mut fields = line.split_whitespace();
        let first = fields.next().unwrap_or("");
        if let Some((lo, hi)) = first.split_once('-') {
            if let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = lo < range.end && hi > range.start;
                if inside {
                    total.get_or_insert_with(Coverage::default).mappings += 1;
                }
                continue;
            }
        }
        let kib = || {
            fields
                .clone()
                .next()
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0)
        };
        if let (true, Some(c)) = (inside, total.as_mut()) {
            match first {
                "Size:" => c.size_kib += kib(),
                "Rss:" => c.rss_kib += kib(),
                "AnonHugePages:" => c.anon_huge_kib += kib(),
                _ => {}
            }
        }
    }
    total
}

/// What [`huge_page_coverage`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Number of mappings overlapping the range.
    pub mappings: usize,
    /// Their size (KiB).
    pub size_kib: u64,
    /// Their resident memory (KiB).
    pub rss_kib: u64,
    /// Their resident memory in transparent huge pages (KiB).
    pub anon_huge_kib: u64,
}

impl std::fmt::Display for Coverage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} mapping(s), {} MiB, resident {} MiB, in huge pages {} MiB ({:.1} %)",
            self.mappings,
            self.size_kib >> 10,
            self.rss_kib >> 10,
            self.anon_huge_kib >> 10,
            100.0 * self.anon_huge_kib as f64 / self.rss_kib.max(1) as f64
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn coverage_sees_a_touched_buffer() {
        let w = Words::new(4 << 20, true).unwrap();
        let words = w.words();
        for i in (0..words.len()).step_by(512) {
            words[i].store(1, std::sync::atomic::Ordering::Relaxed);
        }
        let r = words.as_ptr_range();
        let c = huge_page_coverage(r.start as usize..r.end as usize).unwrap();
        assert!(
            c.mappings >= 1 && c.size_kib >= 4096 && c.rss_kib >= 4096,
            "{c:?}"
        );
        // Whether the kernel gave huge pages depends on its THP settings: not asserted.
    }
}
