//! How much memory a table may take: the kernel's `MemAvailable` minus a margin.
//!
//! With overcommit (Linux's default) `mmap` accepts a size the machine cannot hold; the
//! first write to every page (a clear, or a long search) then faults it in, and the kernel's
//! OOM killer ends the process instead of an error being returned. So tables above
//! [`UNCHECKED_MIB`] are checked against `/proc/meminfo`'s `MemAvailable` before they are
//! allocated. Where that figure is unknown (other systems, an unreadable or unexpected
//! file) there is no check.

use crate::alloc::TableError;

/// Bytes in a MiB.
const MIB: u64 = 1 << 20;

/// Tables of at most this many MiB are not checked against the available memory.
///
/// 16 MiB is the engine's default `Hash`, which must always be allocated at start-up, and
/// a table that small is within the noise of a process's own footprint; the check is for
/// the large sizes that can take a machine's memory.
pub const UNCHECKED_MIB: usize = 16;

/// At least this much of the available memory is left to everything but the table.
pub const RESERVE_MIB: u64 = 64;

/// The largest table, in bytes, allowed when `available` bytes are available: 90 % of
/// them, and at most `available` − [`RESERVE_MIB`] MiB (0 when less is available).
///
/// Why a margin: `MemAvailable` is the kernel's estimate of what can be allocated without
/// swapping, and it counts page cache the kernel would have to evict (the binary, the GUI's
/// and the opening book's files, which are then read from disk again); the process needs
/// memory of its own besides the table (thread stacks, search histories, allocator
/// arenas); and other processes keep allocating during a game that lasts hours. A tenth of
/// the figure scales with the machine; the fixed 64 MiB covers the engine itself on small
/// machines, where a tenth would be a few MiB.
///
/// ```
/// use engram_tt::table_budget;
/// const MIB: u64 = 1 << 20;
/// assert_eq!(table_budget(10_240 * MIB), 9_216 * MIB); // 90 %
/// assert_eq!(table_budget(100 * MIB), 36 * MIB); // 64 MiB left
/// assert_eq!(table_budget(50 * MIB), 0);
/// ```
pub fn table_budget(available: u64) -> u64 {
    available.saturating_sub((available / 10).max(RESERVE_MIB * MIB))
}

/// `MemAvailable` from the text of `/proc/meminfo`, in bytes, or `None` (unknown) if no line
/// starts with `MemAvailable:` or the first such line is not a `u64` followed by `kB` (the
/// only unit the kernel writes). A count of kB whose bytes overflow `u64` saturates: that
/// much memory is no limit.
///
/// ```
/// use engram_tt::parse_mem_available;
/// let text = "MemTotal:       24684092 kB\nMemFree:        24457640 kB\n\
///             MemAvailable:   24386856 kB\n";
/// assert_eq!(parse_mem_available(text), Some(24_386_856 * 1024));
/// assert_eq!(parse_mem_available("MemFree: 1 kB\n"), None);
/// ```
pub fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?;
    let mut fields = line.split_whitespace();
    let value: u64 = fields.next()?.parse().ok()?;
    match (fields.next(), fields.next()) {
        (Some(unit), None) if unit.eq_ignore_ascii_case("kB") => Some(value.saturating_mul(1024)),
        _ => None,
    }
}

/// The memory available for new allocations, in bytes: `MemAvailable` from `/proc/meminfo`
/// on Linux; `None` elsewhere or if it cannot be read or understood.
pub fn mem_available() -> Option<u64> {
    if cfg!(target_os = "linux") {
        parse_mem_available(&std::fs::read_to_string("/proc/meminfo").ok()?)
    } else {
        None
    }
}

/// Checks that a table of `bytes` bytes fits in the memory `available` reports, plus
/// `freed` bytes the caller will free before allocating (the table being replaced).
/// Tables of at most [`UNCHECKED_MIB`] MiB and an unknown figure pass without a check
/// (`available` is then not called).
pub(crate) fn check(
    bytes: usize,
    freed: usize,
    available: &mut dyn FnMut() -> Option<u64>,
) -> Result<(), TableError> {
    if bytes <= UNCHECKED_MIB << 20 {
        return Ok(());
    }
    let Some(now) = available() else {
        return Ok(());
    };
    let total = now.saturating_add(freed as u64);
    let budget = table_budget(total);
    if bytes as u64 <= budget {
        return Ok(());
    }
    let mib = |b: u64| usize::try_from(b / MIB).unwrap_or(usize::MAX);
    Err(TableError::OutOfMemory {
        mib: bytes >> 20,
        available_mib: mib(total),
        budget_mib: mib(budget),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_mem_available_in_kb() {
        let real = "MemTotal:       24684092 kB\nMemFree:        24457640 kB\n\
                    MemAvailable:   24386856 kB\nBuffers:             768 kB\n";
        assert_eq!(parse_mem_available(real), Some(24_386_856 * 1024));
        assert_eq!(parse_mem_available("MemAvailable: 0 kB"), Some(0));
        assert_eq!(parse_mem_available("MemAvailable:\t7 KB\n"), Some(7 * 1024));
        // The first occurrence counts.
        assert_eq!(
            parse_mem_available("MemAvailable: 1 kB\nMemAvailable: 2 kB\n"),
            Some(1024)
        );
    }

    #[test]
    fn missing_or_garbled_fields_are_unknown() {
        for text in [
            "",
            "MemTotal: 100 kB\nMemFree: 50 kB\n",
            "memavailable: 100 kB",
            " MemAvailable: 100 kB",
            "MemAvailableX: 100 kB",
            "MemAvailable:",
            "MemAvailable: kB",
            "MemAvailable: lots kB",
            "MemAvailable: -5 kB",
            "MemAvailable: 1.5 kB",
            "MemAvailable: 100",
            "MemAvailable: 100 MB",
            "MemAvailable: 100 kB extra",
            "MemAvailable: 99999999999999999999999 kB",
            "\u{0}\u{ff}MemAvailable",
        ] {
            assert_eq!(parse_mem_available(text), None, "{text:?}");
        }
    }

    #[test]
    fn huge_values_saturate() {
        let max = format!("MemAvailable: {} kB", u64::MAX);
        assert_eq!(parse_mem_available(&max), Some(u64::MAX));
        let big = format!("MemAvailable: {} kB", u64::MAX / 1024);
        assert_eq!(parse_mem_available(&big), Some(u64::MAX / 1024 * 1024));
        assert_eq!(table_budget(u64::MAX), u64::MAX - u64::MAX / 10);
    }

    #[test]
    fn the_real_figure_is_plausible_on_linux() {
        let got = mem_available();
        if cfg!(target_os = "linux") {
            let got = got.expect("/proc/meminfo has MemAvailable");
            assert!(got > 0 && got < 1 << 60, "{got}");
        } else {
            assert_eq!(got, None);
        }
    }

    #[test]
    fn budget_keeps_a_tenth_and_at_least_64_mib() {
        assert_eq!(table_budget(0), 0);
        assert_eq!(table_budget(64 * MIB), 0);
        assert_eq!(table_budget(65 * MIB), MIB);
        assert_eq!(table_budget(640 * MIB), 576 * MIB);
        assert_eq!(table_budget(1000 * MIB), 900 * MIB);
    }

    #[test]
    fn check_refuses_what_does_not_fit_and_names_both_sizes() {
        let mut hundred = || Some(100 * MIB);
        assert_eq!(
            check(1024 << 20, 0, &mut hundred),
            Err(TableError::OutOfMemory {
                mib: 1024,
                available_mib: 100,
                budget_mib: 36
            })
        );
        let msg = check(1024 << 20, 0, &mut hundred).unwrap_err().to_string();
        assert!(
            msg.contains("1024 MiB") && msg.contains("100 MiB") && msg.contains("36 MiB"),
            "{msg}"
        );
        // What is freed first counts: 100 + 1000 MiB available, 990 MiB budget.
        assert_eq!(check(990 << 20, 1000 << 20, &mut hundred), Ok(()));
        assert!(check(991 << 20, 1000 << 20, &mut hundred).is_err());
        // Unknown memory: no check.
        assert_eq!(check(1 << 40, 0, &mut || None), Ok(()));
    }

    #[test]
    fn small_tables_are_not_checked() {
        let asked = std::cell::Cell::new(0);
        let mut nothing = || {
            asked.set(asked.get() + 1);
            Some(0)
        };
        assert_eq!(check(UNCHECKED_MIB << 20, 0, &mut nothing), Ok(()));
        assert_eq!(asked.get(), 0, "no need to read /proc/meminfo");
        assert!(check((UNCHECKED_MIB << 20) + 32, 0, &mut nothing).is_err());
        assert_eq!(asked.get(), 1);
    }
}
