//! Tests of the registry against the kernel: pinned bytes are checked against `VmLck`,
//! which counts the whole process, so those tests hold `VMLCK` and compare deltas.

use super::*;
use crate::sys::vmem;
use std::sync::Mutex;
use std::time::{Duration, Instant};

static VMLCK: Mutex<()> = Mutex::new(());

pub(crate) fn serial() -> std::sync::MutexGuard<'static, ()> {
    VMLCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn page() -> usize {
    vmem::page_size()
}

fn vmlck() -> usize {
    vmem::locked_bytes().unwrap()
}

fn map(len: usize, at: usize) -> usize {
    try_map(len, at).unwrap_or_else(|e| panic!("mmap: {e}"))
}

/// Map `len` bytes (at `at` exactly, if not 0 and free).
fn try_map(len: usize, at: usize) -> std::io::Result<usize> {
    let flags = libc::MAP_PRIVATE
        | libc::MAP_ANONYMOUS
        | if at != 0 {
            libc::MAP_FIXED_NOREPLACE
        } else {
            0
        };
    // SAFETY: a new anonymous mapping; with MAP_FIXED_NOREPLACE it never replaces one.
    let p = unsafe {
        libc::mmap(
            at as *mut libc::c_void,
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            flags,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error());
    }
    Ok(p as usize)
}

fn unmap(p: usize, len: usize) {
    // SAFETY: the tests unmap only mappings they made.
    assert_eq!(unsafe { libc::munmap(p as *mut libc::c_void, len) }, 0);
}

fn registry(cache_max: usize, invalidation: Invalidation) -> Registry {
    Registry::new(RegistryConfig {
        cache_max,
        invalidation,
    })
}

/// The registry's pinned bytes and the kernel's agree (as deltas from `base`).
fn assert_accounting(reg: &Registry, base: usize) {
    assert_eq!(
        vmlck() - base,
        reg.pinned_bytes(),
        "VmLck delta vs registry"
    );
    assert_eq!(reg.stats().pinned_bytes as usize, reg.pinned_bytes());
}

#[test]
fn page_range_arithmetic() {
    let p = 4096;
    let r = PageRange::covering(100, 4096, p).unwrap();
    assert_eq!((r.start, r.end), (0, 8192));
    assert!(PageRange::covering(5, 0, p).is_none());
    assert!(PageRange::covering(usize::MAX - 10, 100, p).is_none());
    let a = PageRange::new(0, 10 * p);
    let parts: Vec<_> = a.minus(PageRange::new(2 * p, 4 * p)).collect();
    assert_eq!(
        parts,
        vec![PageRange::new(0, 2 * p), PageRange::new(4 * p, 10 * p)]
    );
    assert_eq!(a.minus(PageRange::new(20 * p, 30 * p)).count(), 1);
    assert!("odp-optimal".parse::<RegPolicy>().is_ok() && "x".parse::<RegPolicy>().is_err());
    assert_eq!("no-trim".parse::<Invalidation>(), Ok(Invalidation::NoTrim));
}

#[test]
fn pin_and_odp_match_vmlck() {
    let _g = serial();
    let base = vmlck();
    let reg = registry(0, Invalidation::Hooks);
    let pg = page();
    let p = map(16 * pg, 0);
    let r = reg.register(p + 100, 10 * pg, Mode::Pin).unwrap();
    assert!(r.is_pinned());
    assert_eq!(r.pages().len(), 11 * pg);
    assert_eq!(vmlck() - base, 11 * pg);
    assert_accounting(&reg, base);
    assert_eq!(
        reg.count_nonresident(p, 11 * pg).unwrap(),
        0,
        "mlock faults pages in"
    );
    reg.deregister(r);
    assert_eq!(vmlck(), base);
    assert_accounting(&reg, base);

    let q = map(16 * pg, 0);
    let o = reg.register(q, 16 * pg, Mode::Odp).unwrap();
    assert!(!o.is_pinned());
    assert_eq!(vmlck(), base, "ODP pins nothing");
    assert_eq!(reg.count_nonresident(q, 16 * pg).unwrap(), 16);
    assert_eq!(reg.prefetch(q, 8 * pg, Access::Write).unwrap(), 8);
    assert_eq!(reg.count_nonresident(q, 16 * pg).unwrap(), 8);
    reg.prefetch(q, 16 * pg, Access::Read).unwrap();
    drop(o);
    let s = reg.stats();
    assert_eq!((s.registrations, s.deregistrations), (2, 2));
    assert_eq!((s.prefetch_calls, s.prefetch_pages), (2, 24));
    assert_eq!(s.page_faults, 16 + 8);
    assert_eq!(s.pinned_peak as usize, 11 * pg);
    assert!(s.to_string().contains("prefetch 2 calls 24 pages"));
    unmap(p, 16 * pg);
    unmap(q, 16 * pg);
}

#[test]
fn cache_hit_merge_and_lru_eviction() {
    let _g = serial();
    let base = vmlck();
    let pg = page();
    let reg = registry(8 * pg, Invalidation::Hooks);
    let p = map(16 * pg, 0);
    let q = map(4 * pg, 0);
    drop(reg.register(p, 4 * pg, Mode::Pin).unwrap());
    assert!(reg.is_cached(p, 4 * pg), "left pinned");
    assert_eq!(vmlck() - base, 4 * pg);
    // Covered: a hit, nothing new pinned.
    let h = reg.register(p + pg + 7, 100, Mode::Pin).unwrap();
    assert_eq!(h.pages(), PageRange::new(p, p + 4 * pg));
    // ODP asks are served by pinned entries too.
    drop(reg.register(p, pg, Mode::Odp).unwrap());
    drop(h);
    let s = reg.stats();
    assert_eq!((s.cache_hits, s.cache_misses), (2, 1));
    // Overlapping an idle entry: merged into one.
    drop(reg.register(p + 2 * pg, 4 * pg, Mode::Pin).unwrap());
    assert_eq!(reg.entries(), 1);
    assert!(reg.is_cached(p, 6 * pg));
    assert_eq!(vmlck() - base, 6 * pg);
    assert_accounting(&reg, base);
    // 6 + 4 pages > 8: the least recently used goes.
    drop(reg.register(q, 4 * pg, Mode::Pin).unwrap());
    assert!(!reg.is_cached(p, pg) && reg.is_cached(q, 4 * pg));
    assert_eq!(reg.stats().evictions, 1);
    assert_accounting(&reg, base);
    // LRU order: touch q, add p's first pages, then a third entry evicts p's, not q.
    drop(reg.register(p, 2 * pg, Mode::Pin).unwrap());
    drop(reg.register(q, pg, Mode::Pin).unwrap());
    drop(reg.register(p + 8 * pg, 3 * pg, Mode::Pin).unwrap());
    assert!(reg.is_cached(q, 4 * pg) && !reg.is_cached(p, 2 * pg));
    assert_accounting(&reg, base);
    drop(reg);
    assert_eq!(vmlck(), base, "dropping the registry unpins its cache");
    unmap(p, 16 * pg);
    unmap(q, 4 * pg);
}

#[test]
fn in_use_entries_are_never_evicted_and_overlaps_unpin_only_their_own() {
    let _g = serial();
    let base = vmlck();
    let pg = page();
    let reg = registry(4 * pg, Invalidation::Hooks);
    let p = map(8 * pg, 0);
    let q = map(4 * pg, 0);
    let a = reg.register(p, 4 * pg, Mode::Pin).unwrap();
    let b = reg.register(q, 4 * pg, Mode::Pin).unwrap();
    assert_eq!(reg.entries(), 2, "over the limit, but both in use");
    drop(b);
    assert!(!reg.is_cached(q, pg), "idle and over the limit: evicted");
    assert!(reg.is_cached(p, 4 * pg) && a.is_valid());
    // In use and overlapped: both stay; the union is pinned once.
    let c = reg.register(p + 2 * pg, 4 * pg, Mode::Pin).unwrap();
    assert_eq!(reg.entries(), 2);
    assert_eq!(reg.pinned_bytes(), 6 * pg);
    assert_accounting(&reg, base);
    drop(a); // 8 pages > limit: evicted, unpinning only pages 0..2
    assert!(!reg.is_cached(p, pg));
    assert_eq!(vmlck() - base, 4 * pg);
    assert_accounting(&reg, base);
    drop(c);
    assert_eq!(reg.entries(), 1);
    drop(reg);
    assert_eq!(vmlck(), base);
    unmap(p, 8 * pg);
    unmap(q, 4 * pg);
}

#[test]
fn unmapped_ranges_are_an_error() {
    let pg = page();
    let reg = registry(1 << 20, Invalidation::Hooks);
    let p = map(4 * pg, 0);
    unmap(p + 2 * pg, pg);
    for mode in [Mode::Pin, Mode::Odp] {
        let e = reg.register(p, 4 * pg, mode).unwrap_err();
        assert!(matches!(e, RegError::NotMapped { .. }), "{e}");
        assert!(e.to_string().contains("not mapped"));
    }
    assert!(matches!(
        reg.register(0, 10, Mode::Pin),
        Err(RegError::NotMapped { .. })
    ));
    assert!(matches!(
        reg.register(p, 0, Mode::Pin),
        Err(RegError::BadRange { .. })
    ));
    assert!(reg.prefetch(p, 4 * pg, Access::Write).is_err());
    assert!(reg.count_nonresident(p, 4 * pg).is_err());
    assert_eq!(reg.entries(), 0);
    unmap(p, 2 * pg);
    unmap(p + 3 * pg, pg);
}

fn wait_until(what: &str, mut f: impl FnMut() -> bool) {
    let t = Instant::now();
    while !f() {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "timed out waiting: {what}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Free and reuse one address range; the stale registration must be gone.
fn free_and_reuse(invalidation: Invalidation) {
    let _g = serial();
    let base = vmlck();
    let pg = page();
    let reg = registry(1 << 30, invalidation);
    if invalidation == Invalidation::Uffd && reg.watch_mode().is_none() {
        eprintln!("userfaultfd not available here: skipped");
        return;
    }
    let len = 8 * pg;
    // Other tests' threads may take the address between munmap and mmap: try again.
    let mut p;
    let mut tries = 0;
    loop {
        p = map(len, 0);
        drop(reg.register(p, len, Mode::Pin).unwrap());
        assert!(reg.is_cached(p, len));
        assert_eq!(vmlck() - base, len);
        unmap(p, len);
        if invalidation == Invalidation::Hooks {
            // `libc::munmap` resolves to the crate's own definition in this test binary
            // too (a definition in the executable wins over libc's): the unmap is queued
            // before munmap returns, so the next lookup drops the entry.
            assert!(!reg.is_cached(p, len), "the interposed munmap reported it");
        }
        if try_map(len, p).is_ok() {
            break;
        }
        tries += 1;
        assert!(tries < 50, "never got the same address back");
        wait_until("stale entry dropped", || !reg.is_cached(p, len));
    }
    wait_until("stale entry dropped", || !reg.is_cached(p, len));
    assert_eq!(reg.stats().invalidations, 1 + tries);
    assert_eq!(reg.pinned_bytes(), 0);
    assert_accounting(&reg, base);
    let r = reg.register(p, len, Mode::Pin).unwrap();
    assert!(r.is_pinned() && r.is_valid());
    assert_eq!(reg.stats().cache_misses, 2 + tries, "no stale hit");
    assert_accounting(&reg, base);
    drop(r);
    drop(reg);
    assert_eq!(vmlck(), base);
    unmap(p, len);
}

#[test]
fn free_and_reuse_under_uffd() {
    free_and_reuse(Invalidation::Uffd);
}

#[test]
fn free_and_reuse_under_hooks() {
    free_and_reuse(Invalidation::Hooks);
}

fn madvise(p: usize, len: usize, advice: libc::c_int) -> std::io::Result<()> {
    // SAFETY: the tests advise only on mappings they made and no longer need the contents of.
    match unsafe { libc::madvise(p as *mut libc::c_void, len, advice) } {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}

/// `mremap` through the interposed definition (variadic in C: the fifth argument only
/// with `MREMAP_FIXED`).
fn mremap(p: usize, old: usize, new: usize, flags: libc::c_int, to: usize) -> Option<usize> {
    // SAFETY: the tests move or resize only mappings they made (and `to`, their own too).
    let r = unsafe {
        if flags & libc::MREMAP_FIXED != 0 {
            libc::mremap(p as *mut _, old, new, flags, to as *mut libc::c_void)
        } else {
            libc::mremap(p as *mut _, old, new, flags)
        }
    };
    (r != libc::MAP_FAILED).then_some(r as usize)
}

#[test]
fn hooks_madvise_drops_entries_and_keeps_accounting() {
    let _g = serial();
    let base = vmlck();
    let pg = page();
    let reg = registry(1 << 30, Invalidation::Hooks);
    // ODP, populated and cached: advice that drops pages drops the entry at once.
    let p = map(8 * pg, 0);
    // SAFETY: our mapping; fill it.
    unsafe { std::ptr::write_bytes(p as *mut u8, 9, 8 * pg) };
    for advice in [libc::MADV_DONTNEED, libc::MADV_FREE] {
        drop(reg.register(p, 8 * pg, Mode::Odp).unwrap());
        assert!(reg.is_cached(p, 8 * pg));
        madvise(p + 2 * pg, 2 * pg, advice).unwrap();
        assert!(!reg.is_cached(p, pg), "advice {advice} dropped the entry");
    }
    // Advice that keeps the pages keeps the entry.
    drop(reg.register(p, 8 * pg, Mode::Odp).unwrap());
    madvise(p, 8 * pg, libc::MADV_WILLNEED).unwrap();
    assert!(reg.is_cached(p, 8 * pg));
    assert_eq!(reg.stats().invalidations, 2);
    // Pinned and cached: the kernel refuses DONTNEED on locked memory (EINVAL); a failed
    // call records nothing and the entry stays.
    let q = map(8 * pg, 0);
    drop(reg.register(q, 8 * pg, Mode::Pin).unwrap());
    match madvise(q, 8 * pg, libc::MADV_DONTNEED) {
        Ok(()) => assert!(!reg.is_cached(q, 8 * pg)),
        Err(e) => {
            assert_eq!(e.raw_os_error(), Some(libc::EINVAL));
            assert!(reg.is_cached(q, 8 * pg));
            assert_eq!(reg.stats().invalidations, 2);
        }
    }
    assert_accounting(&reg, base);
    // DONTNEED_LOCKED (Linux 5.18) drops locked pages: the entry goes and what it pinned
    // is unlocked, the part outside the advice too.
    drop(reg.register(q, 8 * pg, Mode::Pin).unwrap());
    assert_eq!(reg.pinned_bytes(), 8 * pg);
    match madvise(q + 2 * pg, 2 * pg, libc::MADV_DONTNEED_LOCKED) {
        Ok(()) => {
            assert!(!reg.is_cached(q, pg));
            assert_eq!(reg.pinned_bytes(), 0);
        }
        Err(e) => eprintln!("MADV_DONTNEED_LOCKED refused ({e}): that part skipped"),
    }
    assert_accounting(&reg, base);
    drop(reg);
    assert_eq!(vmlck(), base);
    unmap(p, 8 * pg);
    unmap(q, 8 * pg);
}

#[test]
fn hooks_mremap_drops_entries_and_keeps_accounting() {
    let _g = serial();
    let base = vmlck();
    let pg = page();
    let reg = registry(1 << 30, Invalidation::Hooks);
    // Moved with MREMAP_FIXED onto a mapping of ours: the lock moves with the pages and
    // the registry releases it at the target.
    let q = map(8 * pg, 0);
    let t = map(8 * pg, 0);
    drop(reg.register(q, 8 * pg, Mode::Pin).unwrap());
    assert_eq!(vmlck() - base, 8 * pg);
    let fixed = libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED;
    assert_eq!(mremap(q, 8 * pg, 8 * pg, fixed, t), Some(t));
    assert!(!reg.is_cached(q, pg) && !reg.is_cached(t, pg));
    assert_eq!(reg.pinned_bytes(), 0);
    assert_accounting(&reg, base);
    // Grown and (maybe) moved: the locked new tail is released as well.
    drop(reg.register(t, 8 * pg, Mode::Pin).unwrap());
    let moved = mremap(t, 8 * pg, 16 * pg, libc::MREMAP_MAYMOVE, 0).expect("mremap");
    assert!(!reg.is_cached(t, pg));
    assert_accounting(&reg, base);
    // Shrunk in place: the tail is unmapped, the head unlocked.
    drop(reg.register(moved, 16 * pg, Mode::Pin).unwrap());
    assert_eq!(
        mremap(moved, 16 * pg, 4 * pg, 0, 0),
        Some(moved),
        "shrinks in place"
    );
    assert!(!reg.is_cached(moved, pg));
    assert_eq!(reg.pinned_bytes(), 0);
    assert_accounting(&reg, base);
    // Grown in place (the pages after it free, unless another thread just took them).
    drop(reg.register(moved, 4 * pg, Mode::Pin).unwrap());
    match mremap(moved, 4 * pg, 16 * pg, 0, 0) {
        Some(at) => {
            assert_eq!(at, moved);
            assert!(
                !reg.is_cached(moved, pg),
                "the locked tail is no one's: dropped"
            );
            assert_accounting(&reg, base);
            unmap(moved, 16 * pg);
        }
        None => {
            eprintln!("no room to grow in place: that part skipped");
            unmap(moved, 4 * pg);
        }
    }
    assert_accounting(&reg, base);
    drop(reg);
    assert_eq!(vmlck(), base);
}

/// Run test `name` alone, in a child process (this binary, one test thread), and check it
/// printed `NAME child ok`: returns true in the child, where the caller runs its body. For
/// what other tests' threads would disturb (the heap's break, the hooks' global state).
fn alone_in_child(name: &str) -> bool {
    if std::env::var(CHILD).is_ok() {
        return true;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &format!("registration::tests::{name}")])
        .args(["--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{text}");
    assert!(
        text.contains(&format!("{name} child ok")),
        "child did not run:\n{text}"
    );
    false
}

/// Lowering the break unmaps the whole pages above it: a registration there is dropped.
/// Only what the test grew is given back, and only if nothing else moved the break.
#[test]
fn hooks_sbrk_and_brk_lowering_drops_entries() {
    const NAME: &str = "hooks_sbrk_and_brk_lowering_drops_entries";
    if !alone_in_child(NAME) {
        return;
    }
    let base = vmlck();
    let pg = page();
    let reg = registry(1 << 30, Invalidation::Hooks);
    let grow = 8 * pg;
    for use_brk in [false, true] {
        // SAFETY: grows the heap by `grow` bytes, ours until given back below.
        let old = unsafe { libc::sbrk(grow as libc::intptr_t) } as usize;
        assert_ne!(
            old as isize,
            -1,
            "sbrk: {}",
            std::io::Error::last_os_error()
        );
        let top = old + grow;
        // The whole pages of what we grew.
        let (start, end) = (old.next_multiple_of(pg), top & !(pg - 1));
        drop(reg.register(start, end - start, Mode::Pin).unwrap());
        assert!(reg.is_cached(start, end - start));
        assert_accounting(&reg, base);
        // SAFETY: sbrk(0) only reads the break.
        if unsafe { libc::sbrk(0) } as usize != top {
            eprintln!("the break moved meanwhile (malloc grew the heap): shrinking skipped");
            break;
        }
        if use_brk {
            // SAFETY: lowers the break back to where it was: only our growth goes.
            assert_eq!(unsafe { libc::brk(old as *mut libc::c_void) }, 0);
        } else {
            // SAFETY: as above.
            assert_eq!(
                unsafe { libc::sbrk(-(grow as libc::intptr_t)) } as usize,
                top
            );
        }
        // SAFETY: reads the break.
        assert_eq!(unsafe { libc::sbrk(0) } as usize, old);
        assert!(
            !reg.is_cached(start, pg),
            "brk={use_brk}: the entry went with its pages"
        );
        assert_eq!(reg.pinned_bytes(), 0);
        assert_accounting(&reg, base);
    }
    drop(reg);
    assert_eq!(vmlck(), base);
    println!("{NAME} child ok");
}

/// More events than a queue holds between two lookups: the registry cannot know which
/// entries they hit, so it drops every one (and caches again afterwards).
#[test]
fn hooks_queue_overflow_drops_everything() {
    const NAME: &str = "hooks_queue_overflow_drops_everything";
    if !alone_in_child(NAME) {
        return;
    }
    let pg = page();
    let reg = registry(1 << 30, Invalidation::Hooks);
    let (p, q) = (map(4 * pg, 0), map(pg, 0));
    drop(reg.register(p, 4 * pg, Mode::Odp).unwrap());
    // Events about other memory: applied one by one, the entry stays.
    for _ in 0..10 {
        madvise(q, pg, libc::MADV_DONTNEED).unwrap();
    }
    assert!(reg.is_cached(p, 4 * pg));
    for _ in 0..2 * super::uffd_monitor::QUEUE_CAPACITY {
        madvise(q, pg, libc::MADV_DONTNEED).unwrap();
    }
    assert!(!reg.is_cached(p, pg), "overflow: everything dropped");
    drop(reg.register(p, 4 * pg, Mode::Odp).unwrap());
    assert!(reg.is_cached(p, 4 * pg), "and caching goes on");
    drop(reg);
    unmap(p, 4 * pg);
    unmap(q, pg);
    println!("{NAME} child ok");
}

/// With no registry listening (uffd, no-trim, or hooks without a cache), the interposed
/// calls only forward: results and errno as libc's, nothing recorded.
#[test]
fn unarmed_hooks_forward_and_record_nothing() {
    const NAME: &str = "unarmed_hooks_forward_and_record_nothing";
    if !alone_in_child(NAME) {
        return;
    }
    use std::sync::atomic::Ordering::Relaxed;
    let pg = page();
    let errno = || std::io::Error::last_os_error().raw_os_error();
    let _uncached = registry(0, Invalidation::Hooks);
    let _uffd = registry(1 << 30, Invalidation::Uffd);
    let reg = registry(1 << 30, Invalidation::NoTrim);
    assert!(!hooks::armed());
    let recorded = hooks::RECORDED.load(Relaxed);
    let p = map(8 * pg, 0);
    // SAFETY: our mapping; fill it.
    unsafe { std::ptr::write_bytes(p as *mut u8, 7, 8 * pg) };
    drop(reg.register(p, 8 * pg, Mode::Odp).unwrap());
    madvise(p, pg, libc::MADV_DONTNEED).unwrap();
    // SAFETY: p is still mapped; its first page was dropped.
    assert_eq!(unsafe { *(p as *const u8) }, 0);
    assert_eq!(
        madvise(p, pg, 12345).unwrap_err().raw_os_error(),
        Some(libc::EINVAL)
    );
    let q = mremap(p, 8 * pg, 32 * pg, libc::MREMAP_MAYMOVE, 0).expect("mremap");
    // SAFETY: the moved mapping keeps its contents.
    assert_eq!(unsafe { *((q + pg) as *const u8) }, 7);
    assert_eq!(mremap(q + 1, pg, pg, 0, 0), None, "unaligned");
    assert_eq!(errno(), Some(libc::EINVAL));
    // SAFETY: an unaligned munmap fails with EINVAL and unmaps nothing.
    assert_eq!(unsafe { libc::munmap((q + 1) as *mut _, pg) }, -1);
    assert_eq!(errno(), Some(libc::EINVAL));
    unmap(q, 32 * pg);
    assert!(!vmem::is_mapped(q, pg), "munmap forwarded");
    // SAFETY: sbrk(0) reads the break; brk to the same place changes nothing.
    let cur = unsafe { libc::sbrk(0) };
    // SAFETY: as above.
    assert_eq!(unsafe { libc::brk(cur) }, 0);
    // SAFETY: the kernel's brk(0) returns the break without moving it.
    assert_eq!(
        unsafe { libc::syscall(libc::SYS_brk, 0) } as usize,
        cur as usize
    );
    assert_eq!(hooks::RECORDED.load(Relaxed), recorded, "nothing recorded");
    // no-trim does not see the program's own munmap: the stale entry stays.
    assert!(reg.is_cached(p, 8 * pg));
    println!("{NAME} child ok");
}

/// Touch `p` from another thread; fail rather than hang if it blocks.
fn touch_without_hanging(p: usize) -> u8 {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // SAFETY: p is a mapped, readable page of the test's mapping.
        let v = unsafe { std::ptr::read_volatile(p as *const u8) };
        // SAFETY: and writable.
        unsafe { std::ptr::write_volatile(p as *mut u8, v) };
        let _ = tx.send(v);
    });
    rx.recv_timeout(Duration::from_secs(5))
        .expect("touching a watched range after MADV_DONTNEED hung")
}

#[test]
fn dontneed_invalidates_and_never_hangs() {
    let _g = serial();
    let base = vmlck();
    let pg = page();
    let reg = registry(1 << 30, Invalidation::Uffd);
    if reg.watch_mode().is_none() {
        eprintln!("userfaultfd not available here: skipped");
        return;
    }
    // ODP, populated and cached: DONTNEED drops the pages → REMOVE → entry gone.
    let p = map(8 * pg, 0);
    // SAFETY: our mapping; fill it.
    unsafe { std::ptr::write_bytes(p as *mut u8, 9, 8 * pg) };
    drop(reg.register(p, 8 * pg, Mode::Odp).unwrap());
    assert!(reg.is_cached(p, 8 * pg));
    // SAFETY: madvise on our own mapping.
    assert_eq!(
        unsafe { libc::madvise((p + 2 * pg) as *mut _, 2 * pg, libc::MADV_DONTNEED) },
        0
    );
    wait_until("REMOVE applied", || !reg.is_cached(p, 8 * pg));
    assert_eq!(
        touch_without_hanging(p + 2 * pg),
        0,
        "dropped page reads as zero"
    );
    assert_eq!(touch_without_hanging(p), 9);
    // Pinned and cached: the kernel refuses DONTNEED on locked memory (EINVAL), so the
    // registration stays valid; if a kernel did drop the pages, the entry must go.
    let q = map(8 * pg, 0);
    drop(reg.register(q, 8 * pg, Mode::Pin).unwrap());
    // SAFETY: as above.
    let rc = unsafe { libc::madvise(q as *mut _, 8 * pg, libc::MADV_DONTNEED) };
    if rc == 0 {
        wait_until("REMOVE applied", || !reg.is_cached(q, 8 * pg));
    } else {
        assert_eq!(
            std::io::Error::last_os_error().raw_os_error(),
            Some(libc::EINVAL)
        );
        assert!(reg.is_cached(q, 8 * pg));
    }
    touch_without_hanging(q);
    assert_accounting(&reg, base);
    // mremap moves a cached pinned range: REMAP → entry gone, lock released at the target.
    // The move is forced onto a range we reserved: with MAYMOVE alone the kernel grows the
    // mapping in place when the pages after it are free, and an in-place grow sends no REMAP.
    let dest = map(16 * pg, 0);
    // SAFETY: moving our own mapping over a reservation of our own (MREMAP_FIXED replaces it).
    let moved = unsafe {
        libc::mremap(
            q as *mut _,
            8 * pg,
            16 * pg,
            libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
            dest as *mut libc::c_void,
        )
    };
    assert_eq!(moved as usize, dest);
    wait_until("REMAP applied", || !reg.is_cached(q, pg));
    assert_accounting(&reg, base);
    touch_without_hanging(moved as usize + 9 * pg);
    drop(reg);
    assert_eq!(vmlck(), base);
    unmap(p, 8 * pg);
    unmap(moved as usize, 16 * pg);
}

const CHILD: &str = "REGISTRATION_TEST_CHILD";

/// Without `CAP_IPC_LOCK` and with `RLIMIT_MEMLOCK` at 64 KiB, pin-down evicts the cache,
/// then registers without pinning, logs it, and never fails.
#[test]
fn memlock_limit_falls_back() {
    if std::env::var(CHILD).is_ok() {
        return memlock_child();
    }
    if std::process::Command::new("setpriv")
        .arg("--help")
        .output()
        .is_err()
    {
        eprintln!("setpriv not installed: skipped");
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let out = std::process::Command::new("setpriv")
        .args(["--bounding-set=-ipc_lock", "--inh-caps=-ipc_lock"])
        .arg(exe)
        .args([
            "--exact",
            "registration::tests::memlock_limit_falls_back",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{text}");
    assert!(
        text.contains("memlock child ok"),
        "child did not run:\n{text}"
    );
    assert_eq!(
        text.matches("cannot pin").count(),
        1,
        "logged once:\n{text}"
    );
}

fn memlock_child() {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .try_init();
    let lim = libc::rlimit {
        rlim_cur: 65536,
        rlim_max: 65536,
    };
    // SAFETY: setrlimit reads one rlimit struct.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_MEMLOCK, &lim) }, 0);
    let base = vmlck();
    let pg = page();
    let reg = registry(1 << 30, Invalidation::Uffd);
    let small = map(8 * pg, 0);
    drop(reg.register(small, 8 * pg, Mode::Pin).unwrap());
    assert_eq!(
        reg.pinned_bytes(),
        8 * pg,
        "under the limit: pinned and cached"
    );
    let big = map(1 << 22, 0);
    let r = reg.register(big, 1 << 22, Mode::Pin).unwrap();
    assert!(!r.is_pinned(), "over the limit: registered unpinned");
    let s = reg.stats();
    assert_eq!((s.memlock_fallbacks, s.evictions), (1, 1), "{s}");
    assert!(
        !reg.is_cached(small, pg),
        "the cached pin was evicted first"
    );
    // A second fallback counts but does not log again.
    let r2 = reg.register(big + (1 << 21), 1 << 21, Mode::Pin);
    assert!(r2.is_ok());
    let other = map(1 << 22, 0);
    let r3 = reg.register(other, 1 << 22, Mode::Pin).unwrap();
    assert!(!r3.is_pinned());
    assert_eq!(reg.stats().memlock_fallbacks, 2);
    assert_eq!(vmlck() - base, reg.pinned_bytes());
    // Small ones still pin.
    let r4 = reg.register(small, pg, Mode::Pin).unwrap();
    assert!(r4.is_pinned());
    assert_eq!(vmlck() - base, reg.pinned_bytes());
    println!("memlock child ok");
}
