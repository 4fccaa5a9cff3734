//! Flush-to-zero for the forward pass: floats too small for the normal range (denormals)
//! are read and written as 0 while a [`FlushToZero`] guard lives. Processors compute with
//! denormals tens of times slower than with normal floats, and a network whose weights or
//! activations fall there slows to a crawl for a difference far below what it can tell
//! (KataGo's CPU build runs KaTrain's b10c384 ten times slower without it). GPUs and
//! KataGo's other backends flush them; so does hoshi, for its forward passes only: the
//! guard puts the thread's floating-point mode back when it goes.

/// While it lives, the thread flushes denormals to zero (x86-64's MXCSR FTZ and DAZ bits);
/// elsewhere it does nothing.
pub struct FlushToZero {
    #[cfg(target_arch = "x86_64")]
    saved: u32,
}

/// MXCSR's flush-to-zero (results) and denormals-are-zero (inputs) bits.
#[cfg(target_arch = "x86_64")]
const FTZ_DAZ: u32 = (1 << 15) | (1 << 6);

#[cfg(target_arch = "x86_64")]
fn read_mxcsr() -> u32 {
    let mut value: u32 = 0;
    // SAFETY: `stmxcsr` stores the 4-byte MXCSR register at the address given, which is
    // `value`'s, a live, aligned, writable u32; it touches nothing else.
    unsafe {
        std::arch::asm!("stmxcsr [{}]", in(reg) &mut value, options(nostack, preserves_flags));
    }
    value
}

#[cfg(target_arch = "x86_64")]
fn write_mxcsr(value: u32) {
    // SAFETY: `ldmxcsr` loads MXCSR from `value`, a live u32. Every value written here is
    // one read from MXCSR, with at most the FTZ and DAZ bits added, both defined on every
    // x86-64 processor with SSE2: no reserved bit is set (which would fault) and no
    // floating-point exception is unmasked.
    unsafe {
        std::arch::asm!("ldmxcsr [{}]", in(reg) &value, options(nostack, readonly, preserves_flags));
    }
}

impl FlushToZero {
    pub fn new() -> FlushToZero {
        #[cfg(target_arch = "x86_64")]
        {
            let saved = read_mxcsr();
            write_mxcsr(saved | FTZ_DAZ);
            FlushToZero { saved }
        }
        #[cfg(not(target_arch = "x86_64"))]
        FlushToZero {}
    }
}

impl Default for FlushToZero {
    fn default() -> Self {
        FlushToZero::new()
    }
}

impl Drop for FlushToZero {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        write_mxcsr(self.saved);
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use std::hint::black_box;

    #[test]
    fn denormals_are_flushed_while_the_guard_lives_and_not_after() {
        let tiny = black_box(f32::MIN_POSITIVE);
        let before = read_mxcsr();
        assert!(black_box(tiny / 4.0) > 0.0, "a denormal, normally");
        {
            let _flush = FlushToZero::new();
            assert_eq!(black_box(tiny / 4.0), 0.0, "flushed");
            // A denormal input reads as 0.
            let denormal = black_box(f32::from_bits(1));
            assert_eq!(black_box(denormal * 1.0e30), 0.0);
            // Normal floats compute as ever.
            assert_eq!(black_box(1.5f32) * black_box(2.0f32), 3.0);
        }
        // The mode put back (the low six bits are the exception flags the sums raised).
        assert_eq!(read_mxcsr() & !0x3f, before & !0x3f, "the mode put back");
        assert!(black_box(tiny / 4.0) > 0.0, "denormals again");
    }
}
