//! Zeroed cluster memory: `mmap` with 2 MiB alignment and a huge-page hint on Linux, the
//! standard allocator elsewhere and for small tables. All-zero memory is an empty table.
//!
//! This module holds most of the crate's `unsafe` code; each block says why it is sound.

use crate::cluster::Cluster;
use std::fmt;
use std::sync::atomic::AtomicU64;

/// Why a table could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableError {
    /// A size of 0 was asked for (the smallest table is 1 MiB, or 1 cluster).
    ZeroSize,
    /// The size in bytes does not fit in the address space.
    TooLarge {
        /// The size asked for, in MiB.
        mib: usize,
    },
    /// The operating system refused the memory.
    Alloc {
        /// Bytes asked for.
        bytes: usize,
    },
    /// The table is larger than the memory available allows (see
    /// [`table_budget`](crate::table_budget)); refused before allocating, because the
    /// system might accept the allocation and kill the process when the memory is used.
    OutOfMemory {
        /// The size asked for, in MiB.
        mib: usize,
        /// The memory available, in MiB: `MemAvailable`, plus the table being replaced.
        available_mib: usize,
        /// The largest table allowed with that much available, in MiB.
        budget_mib: usize,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::ZeroSize => write!(f, "table size must be at least 1 MiB"),
            TableError::TooLarge { mib } => write!(f, "table size of {mib} MiB is too large"),
            TableError::Alloc { bytes } => {
                write!(f, "could not allocate {bytes} bytes for the table")
            }
            TableError::OutOfMemory {
                mib,
                available_mib,
                budget_mib,
            } => write!(
                f,
                "a table of {mib} MiB does not fit in the memory available: \
                 {available_mib} MiB available, at most {budget_mib} MiB for the table"
            ),
        }
    }
}

impl std::error::Error for TableError {}

/// Huge pages are 2 MiB on x86-64 and (with 4 KiB base pages) on aarch64 Linux.
pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// Owned, zero-initialised clusters.
pub(crate) enum Buffer {
    /// Small tables, and every table off Linux.
    Heap(Box<[Cluster]>),
    /// Large tables on Linux: an anonymous private mapping of `bytes` bytes.
    #[cfg(target_os = "linux")]
    Mapped {
        ptr: std::ptr::NonNull<Cluster>,
        len: usize,
        bytes: usize,
        huge: bool,
    },
}

// SAFETY: `Mapped` owns its mapping exactly as `Heap` owns its box (nobody else holds the
// pointer), and `Cluster` holds only atomics, which are `Send + Sync`.
#[cfg(target_os = "linux")]
unsafe impl Send for Buffer {}
// SAFETY: as above: shared access only ever goes through `&[Cluster]` (atomics).
#[cfg(target_os = "linux")]
unsafe impl Sync for Buffer {}

impl Buffer {
    /// Allocates `len` (≥ 1) zeroed clusters. `huge_pages` asks for transparent huge pages
    /// (`MADV_HUGEPAGE`) on Linux tables of at least 2 MiB; `false` forbids them
    /// (`MADV_NOHUGEPAGE`), for comparisons.
    pub fn new(len: usize, huge_pages: bool) -> Result<Buffer, TableError> {
        let bytes = len
            .checked_mul(std::mem::size_of::<Cluster>())
            .filter(|&b| b <= isize::MAX as usize)
            .ok_or(TableError::Alloc { bytes: usize::MAX })?;
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            return Buffer::map(len, bytes, huge_pages);
        }
        let _ = huge_pages;
        Buffer::heap(len, bytes)
    }

    /// Safe fallback: a `Vec` whose allocation failure is reported, not aborted on.
    fn heap(len: usize, bytes: usize) -> Result<Buffer, TableError> {
        let mut v: Vec<Cluster> = Vec::new();
        v.try_reserve_exact(len)
            .map_err(|_| TableError::Alloc { bytes })?;
        v.resize_with(len, Cluster::default);
        Ok(Buffer::Heap(v.into_boxed_slice()))
    }

    #[cfg(target_os = "linux")]
    fn map(len: usize, bytes: usize, huge_pages: bool) -> Result<Buffer, TableError> {
        let err = TableError::Alloc { bytes };
        // Round up to whole huge pages and over-allocate one, to cut a 2 MiB-aligned window.
        let bytes = bytes.checked_next_multiple_of(HUGE_PAGE).ok_or(err)?;
        let padded = bytes.checked_add(HUGE_PAGE).ok_or(err)?;
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches
        // no existing memory; the result is checked against MAP_FAILED.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                padded,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return Err(err);
        }
        let start = raw as usize;
        let aligned = start.next_multiple_of(HUGE_PAGE);
        let head = aligned - start;
        let tail = padded - head - bytes;
        // SAFETY: [start, start + head) and [aligned + bytes, start + padded) lie inside the
        // mapping just made and are not used; unmapping them leaves [aligned, aligned + bytes).
        unsafe {
            if head > 0 {
                libc::munmap(raw, head);
            }
            if tail > 0 {
                libc::munmap((aligned + bytes) as *mut libc::c_void, tail);
            }
        }
        let advice = if huge_pages {
            libc::MADV_HUGEPAGE
        } else {
            libc::MADV_NOHUGEPAGE
        };
        // SAFETY: advice on our own mapping; failure (e.g. THP compiled out) is harmless.
        let advised = unsafe { libc::madvise(aligned as *mut libc::c_void, bytes, advice) } == 0;
        let ptr = std::ptr::NonNull::new(aligned as *mut Cluster).ok_or(err)?;
        Ok(Buffer::Mapped {
            ptr,
            len,
            bytes,
            huge: huge_pages && advised,
        })
    }

    /// The clusters.
    #[inline]
    pub fn clusters(&self) -> &[Cluster] {
        match self {
            Buffer::Heap(b) => b,
            // SAFETY: the mapping is readable and writable, 2 MiB- (so 32-) aligned, at least
            // `len * 32` bytes long, zero-initialised at creation (a valid all-empty
            // `[Cluster]`: atomics accept any bits), and lives as long as `self`.
            #[cfg(target_os = "linux")]
            Buffer::Mapped { ptr, len, .. } => unsafe {
                std::slice::from_raw_parts(ptr.as_ptr(), *len)
            },
        }
    }

    /// The same memory as 64-bit words, four per cluster, for the benchmarks' baseline
    /// (see `bench_support`). Writing them is safe (they are atomics) but corrupts the
    /// clusters involved, which probes then reject as torn and stores repair.
    pub fn words(&self) -> &[AtomicU64] {
        let clusters = self.clusters();
        // SAFETY: `Cluster` is `repr(C)`: four `AtomicU64` (the tag word, then three data
        // words), 32 bytes with no padding (asserted in `cluster.rs`) and 32-byte aligned,
        // so `len` clusters are exactly `4 * len` consecutive, aligned `AtomicU64`s. The
        // slice borrows `self` like `clusters()` does, and atomics may be shared.
        unsafe { std::slice::from_raw_parts(clusters.as_ptr().cast(), clusters.len() * 4) }
    }

    /// Whether the memory was advised to use transparent huge pages.
    pub fn huge_pages(&self) -> bool {
        match self {
            Buffer::Heap(_) => false,
            #[cfg(target_os = "linux")]
            Buffer::Mapped { huge, .. } => *huge,
        }
    }
}

#[cfg(target_os = "linux")]
impl Drop for Buffer {
    fn drop(&mut self) {
        if let Buffer::Mapped { ptr, bytes, .. } = self {
            // SAFETY: exactly the window kept by `map`, unmapped once; no reference to it
            // outlives `self`.
            unsafe {
                libc::munmap(ptr.as_ptr().cast(), *bytes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_buffers_come_from_the_heap_zeroed() {
        let b = Buffer::new(5, true).unwrap();
        assert!(matches!(b, Buffer::Heap(_)));
        assert_eq!(b.clusters().len(), 5);
        assert!(b
            .clusters()
            .iter()
            .all(|c| c.load().is_consistent() && c.load().lookup(0).is_none()));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn large_buffers_are_mapped_aligned_zeroed_and_writable() {
        for huge in [true, false] {
            let len = (3 * HUGE_PAGE + 4096) / 32; // not a multiple of the huge page
            let b = Buffer::new(len, huge).unwrap();
            assert!(matches!(b, Buffer::Mapped { .. }));
            let cl = b.clusters();
            assert_eq!(cl.len(), len);
            assert_eq!(cl.as_ptr() as usize % HUGE_PAGE, 0);
            for c in [&cl[0], &cl[len / 2], &cl[len - 1]] {
                assert_eq!(c.peek(0).0, 0);
                c.poke(1, [2, 3, 4]);
                assert_eq!(c.peek(2).0, 4);
            }
        }
    }

    #[test]
    fn words_are_the_clusters_in_order() {
        for len in [5, (HUGE_PAGE + 4096) / 32] {
            let b = Buffer::new(len, true).unwrap();
            let w = b.words();
            assert_eq!(w.len(), 4 * len);
            for k in [0, 1, len - 1] {
                b.clusters()[k].poke(
                    10 * k as u64,
                    [10 * k as u64 + 1, 10 * k as u64 + 2, 10 * k as u64 + 3],
                );
                for j in 0..4 {
                    assert_eq!(
                        w[4 * k + j].load(std::sync::atomic::Ordering::Relaxed),
                        10 * k as u64 + j as u64
                    );
                }
            }
        }
    }

    #[test]
    fn impossible_sizes_are_errors_not_aborts() {
        assert!(matches!(
            Buffer::new(usize::MAX / 16, true),
            Err(TableError::Alloc { .. })
        ));
        // 2^60 bytes: representable, but no machine maps that much.
        assert!(matches!(
            Buffer::new(1 << 55, true),
            Err(TableError::Alloc { .. })
        ));
    }
}
