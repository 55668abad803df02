//! Copies between mapped ranges (one-sided puts and gets on shared window memory). Past
//! the size a core's cache can hold, stores that bypass the cache (non-temporal) copy
//! faster: a normal store first reads the destination line in. glibc's `memmove` switches
//! to them at a fraction of the last-level cache, which a virtual machine may report as
//! hundreds of MiB (300 MiB here), so we choose the size ourselves.

/// From this many bytes on, copies use non-temporal stores (measured: a 4 MiB get went
/// from 5.4 to 7.7 GB/s; at 1 MiB a destination still in cache is faster kept there).
pub const NON_TEMPORAL_MIN: usize = 2 << 20;

/// Copy `n` bytes between disjoint ranges, up to 32 bytes inline: a call to `memcpy` for
/// a tiny message's payload or header cost a sixth of a sender's time at high message
/// rates. Sizes the compiler cannot see go through two (possibly overlapping) loads and
/// stores of the largest width that fits.
///
/// # Safety
/// `src` is readable and `dst` writable for `n` bytes; the ranges do not overlap.
#[inline(always)]
pub unsafe fn copy_disjoint(src: *const u8, dst: *mut u8, n: usize) {
    // SAFETY: every access below lies in [0, n) of both ranges (caller's contract);
    // unaligned reads and writes.
    unsafe {
        match n {
            0 => {}
            1..=3 => {
                *dst = *src;
                *dst.add(n / 2) = *src.add(n / 2);
                *dst.add(n - 1) = *src.add(n - 1);
            }
            4..=7 => {
                let (a, b) = (
                    (src as *const u32).read_unaligned(),
                    (src.add(n - 4) as *const u32).read_unaligned(),
                );
                (dst as *mut u32).write_unaligned(a);
                (dst.add(n - 4) as *mut u32).write_unaligned(b);
            }
            8..=16 => {
                let (a, b) = (
                    (src as *const u64).read_unaligned(),
                    (src.add(n - 8) as *const u64).read_unaligned(),
                );
                (dst as *mut u64).write_unaligned(a);
                (dst.add(n - 8) as *mut u64).write_unaligned(b);
            }
            17..=32 => {
                let (a, b) = (
                    (src as *const u128).read_unaligned(),
                    (src.add(n - 16) as *const u128).read_unaligned(),
                );
                (dst as *mut u128).write_unaligned(a);
                (dst.add(n - 16) as *mut u128).write_unaligned(b);
            }
            _ => std::ptr::copy_nonoverlapping(src, dst, n),
        }
    }
}

/// Copy `n` bytes from `src` to `dst` (the ranges may overlap).
///
/// # Safety
/// `src` is readable and `dst` writable for `n` bytes.
#[inline]
pub unsafe fn copy(src: *const u8, dst: *mut u8, n: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let disjoint = (src as usize).saturating_add(n) <= dst as usize
            || (dst as usize).saturating_add(n) <= src as usize;
        if n >= NON_TEMPORAL_MIN && disjoint && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the caller's contract; the ranges do not overlap; AVX2 is present.
            return copy_streaming(src, dst, n);
        }
    }
    std::ptr::copy(src, dst, n);
}

/// # Safety
/// As `copy`, with disjoint ranges, on a CPU with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn copy_streaming(src: *const u8, dst: *mut u8, n: usize) {
    use std::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_stream_si256, _mm_sfence};
    // Stream stores need 32-byte aligned destinations: copy the head normally.
    let head = dst.align_offset(32).min(n);
    std::ptr::copy_nonoverlapping(src, dst, head);
    let mut i = head;
    while i + 128 <= n {
        let s = src.add(i) as *const __m256i;
        let d = dst.add(i) as *mut __m256i;
        let (a, b) = (_mm256_loadu_si256(s), _mm256_loadu_si256(s.add(1)));
        let (c, e) = (_mm256_loadu_si256(s.add(2)), _mm256_loadu_si256(s.add(3)));
        _mm256_stream_si256(d, a);
        _mm256_stream_si256(d.add(1), b);
        _mm256_stream_si256(d.add(2), c);
        _mm256_stream_si256(d.add(3), e);
        i += 128;
    }
    std::ptr::copy_nonoverlapping(src.add(i), dst.add(i), n - i);
    // Stream stores are weakly ordered: make them visible before anything that follows
    // (a flush, an unlock) can tell another process the data is there.
    _mm_sfence();
}

#[cfg(test)]
mod tests {
    #[test]
    fn copy_disjoint_every_small_size() {
        let src: Vec<u8> = (0..80u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(1))
            .collect();
        for n in 0..=64 {
            for off in 0..3 {
                let mut dst = vec![0xeeu8; 80];
                // SAFETY: off + n <= 67 < 80 for both vectors, which are distinct.
                unsafe { super::copy_disjoint(src.as_ptr().add(off), dst.as_mut_ptr().add(1), n) };
                assert_eq!(&dst[1..1 + n], &src[off..off + n], "n = {n}");
                assert_eq!(dst[0], 0xee);
                assert!(
                    dst[1 + n..].iter().all(|&b| b == 0xee),
                    "n = {n}: wrote past"
                );
            }
        }
    }

    use super::*;

    #[test]
    fn copies_every_byte_at_any_alignment() {
        let n = NON_TEMPORAL_MIN + 1000;
        let src: Vec<u8> = (0..n + 64).map(|i| (i * 7 + 3) as u8).collect();
        for (so, doff, len) in [
            (0, 0, n),
            (3, 17, n - 40),
            (1, 0, 100),
            (5, 31, NON_TEMPORAL_MIN),
        ] {
            let mut dst = vec![0u8; n + 64];
            // SAFETY: both vectors hold more than off + len bytes and do not overlap.
            unsafe { copy(src.as_ptr().add(so), dst.as_mut_ptr().add(doff), len) };
            assert_eq!(&dst[doff..doff + len], &src[so..so + len]);
            assert!(dst[..doff].iter().all(|&b| b == 0));
            assert!(dst[doff + len..].iter().all(|&b| b == 0));
        }
        // Overlapping ranges move like memmove.
        let mut v: Vec<u8> = (0..n).map(|i| i as u8).collect();
        let want: Vec<u8> = v[..n - 8].to_vec();
        // SAFETY: both ranges lie in `v`.
        unsafe { copy(v.as_ptr(), v.as_mut_ptr().add(8), n - 8) };
        assert_eq!(&v[8..], &want[..]);
    }
}
