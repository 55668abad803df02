//! `membarrier(2)`: a memory barrier run on every CPU that executes a registered process.
//! It lets the doorbell's hot side (every send) go without a fence, paying instead on the
//! rare side (a process about to sleep) — the asymmetric Dekker pattern.

const CMD_QUERY: libc::c_int = 0;
const CMD_GLOBAL_EXPEDITED: libc::c_int = 1 << 1;
const CMD_REGISTER_GLOBAL_EXPEDITED: libc::c_int = 1 << 2;

fn membarrier(cmd: libc::c_int) -> libc::c_long {
    // SAFETY: membarrier takes integer arguments only.
    unsafe { libc::syscall(libc::SYS_membarrier, cmd, 0, 0) }
}

/// Whether the kernel offers global expedited barriers.
pub fn supported() -> bool {
    let cmds = membarrier(CMD_QUERY);
    cmds > 0 && cmds & CMD_GLOBAL_EXPEDITED as libc::c_long != 0
}

/// Ask to receive global expedited barriers. True if this process may now skip fences
/// that another process's `global_expedited()` stands in for.
pub fn register() -> bool {
    supported() && membarrier(CMD_REGISTER_GLOBAL_EXPEDITED) == 0
}

/// A full memory barrier on every CPU running a registered process. False if unavailable.
pub fn global_expedited() -> bool {
    membarrier(CMD_GLOBAL_EXPEDITED) == 0
}
