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
        if invalidation == Invalidation::Hooks {
            reg.invalidate(p, len);
        }
        unmap(p, len);
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
fn free_and_reuse_under_explicit_invalidate() {
    free_and_reuse(Invalidation::Hooks);
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
    // SAFETY: moving our own mapping to a new place chosen by the kernel.
    let moved = unsafe { libc::mremap(q as *mut _, 8 * pg, 16 * pg, libc::MREMAP_MAYMOVE) };
    assert_ne!(moved, libc::MAP_FAILED);
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
