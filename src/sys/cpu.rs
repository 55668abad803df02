//! CPU and process facts the runtime adapts to.

/// Number of CPUs this process may run on.
pub fn usable_cpus() -> usize {
    // SAFETY: set is plain data filled by the kernel.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0 {
            let n = libc::CPU_COUNT(&set) as usize;
            if n > 0 {
                return n;
            }
        }
    }
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The CPUs this process may run on, in order.
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: set is plain data filled by the kernel; CPU_ISSET only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return vec![];
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// Pin the calling process (all its future threads) to one CPU.
pub fn bind_to(cpu: usize) -> std::io::Result<()> {
    // SAFETY: set is plain data; CPU_SET writes inside it (cpu < CPU_SETSIZE checked).
    unsafe {
        if cpu >= libc::CPU_SETSIZE as usize {
            return Err(std::io::Error::from(std::io::ErrorKind::InvalidInput));
        }
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Let the calling thread run on any online CPU (a service thread of a rank pinned to one
/// core: it must not wait for the core its rank spins on).
pub fn unbind_thread() -> std::io::Result<()> {
    // SAFETY: sysconf has no preconditions; `set` is plain data and CPU_SET writes inside
    // it (indices below CPU_SETSIZE); sched_setaffinity(0) acts on the calling thread.
    unsafe {
        let n = libc::sysconf(libc::_SC_NPROCESSORS_ONLN).max(1) as usize;
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for cpu in 0..n.min(libc::CPU_SETSIZE as usize) {
            libc::CPU_SET(cpu, &mut set);
        }
        if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

pub fn yield_now() {
    // SAFETY: no arguments.
    unsafe { libc::sched_yield() };
}

/// How many times the calling thread was switched out involuntarily (a yield that let
/// another task run counts here; one that found nobody to run to does not). None if the
/// kernel does not say.
pub fn involuntary_switches() -> Option<i64> {
    // SAFETY: ru is plain data filled by the kernel.
    unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        (libc::getrusage(libc::RUSAGE_THREAD, &mut ru) == 0).then_some(ru.ru_nivcsw as i64)
    }
}

/// Whether this process is in its parent's session: true for ranks our mpiexec starts (one
/// session for the job, so with scheduler autogroups one group, where a yield hands the
/// core to a peer rank that wants it); false under launchers that give each rank a session
/// of its own (Hydra's setsid).
pub fn in_parent_session() -> bool {
    // SAFETY: no pointers; getsid fails (-1) only for a pid that does not exist.
    unsafe {
        let own = libc::getsid(0);
        own >= 0 && own == libc::getsid(libc::getppid())
    }
}

/// This kernel's boot id: the same in every network namespace and container of one
/// machine, unlike the host name (empty if the kernel does not say).
pub fn boot_id() -> String {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

pub fn pid() -> i32 {
    // SAFETY: no arguments.
    unsafe { libc::getpid() }
}

/// Host name, for MPI_Get_processor_name and node detection.
pub fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: buf is writable for its length.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr() as *mut libc::c_char, buf.len()) };
    if rc != 0 {
        return "localhost".into();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// Start fetching the cache line at `p` for reading (a hint: no fault, no effect on
/// memory, a no-op where the CPU has no prefetch instruction we use).
#[inline(always)]
pub fn prefetch_read(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults or changes memory, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Start fetching the cache line at `p` with intent to write (`prefetchw`), so a store to
/// it later finds the line already owned.
#[inline(always)]
pub fn prefetch_write(p: *const u8) {
    // `_mm_prefetch` with `_MM_HINT_ET0` compiles to a plain `prefetcht0` (a shared
    // copy: the store still waits for ownership) unless the crate is built for `prfchw`;
    // `prefetchw` itself runs on every x86-64 (a no-op where unsupported).
    // SAFETY: a prefetch never faults and writes nothing, whatever the address.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::asm!("prefetchw [{0}]", in(reg) p, options(nostack, preserves_flags, readonly))
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
