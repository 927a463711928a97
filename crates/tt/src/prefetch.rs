//! A cache prefetch hint. It never faults, whatever the address, so it is safe to call.

/// Asks the CPU to bring the cache line holding `p` into L1. No-op where unsupported.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of the x86-64 baseline; a prefetch is a hint that never faults
        // and has no architectural effect.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
    }
    #[cfg(target_arch = "aarch64")]
    {
        // SAFETY: `prfm` is a hint: it never faults, writes no register or memory and leaves
        // the flags alone.
        unsafe {
            core::arch::asm!("prfm pldl1keep, [{0}]", in(reg) p, options(nostack, readonly, preserves_flags));
        }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let _ = p;
}
