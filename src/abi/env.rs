//! Environment shims: initialisation, finalisation, versions, time, memory, error strings.

use super::consts::*;
use super::errors;
use super::handles;
use super::shim::{self, run, write_out, write_out_str};
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::world::{self, World};
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicI32, Ordering};

/// The thread level provided (MPI_Init: MPI_THREAD_SINGLE, as MPICH).
static THREAD_LEVEL: AtomicI32 = AtomicI32::new(MPI_THREAD_SINGLE);

/// The thread level provided, by name (MPI_Info_create_env's "thread_level").
pub fn thread_level_name() -> &'static str {
    match THREAD_LEVEL.load(Ordering::Relaxed) {
        MPI_THREAD_SINGLE => "MPI_THREAD_SINGLE",
        MPI_THREAD_FUNNELED => "MPI_THREAD_FUNNELED",
        MPI_THREAD_SERIALIZED => "MPI_THREAD_SERIALIZED",
        _ => "MPI_THREAD_MULTIPLE",
    }
}

/// Who uses the runtime (MPI-4.0 §11.2-11.3): the World model, between MPI_Init and
/// MPI_Finalize, and the sessions open. The runtime starts with the first and ends with the
/// last; it cannot start again once ended (MPI_Session_init after everything finalised is
/// refused).
struct Users {
    /// The World model: 0 not initialised, 1 running, 2 finalised.
    world_model: u8,
    sessions: usize,
}

static USERS: parking_lot::Mutex<Users> = parking_lot::Mutex::new(Users {
    world_model: 0,
    sessions: 0,
});

/// The runtime, started if no one uses it yet.
fn start(multithreaded: bool) -> Result<&'static World> {
    if let Some(w) = world::world() {
        return Ok(w);
    }
    let w = World::init(multithreaded)?;
    handles::init_comms(w.comm_world.clone(), w.comm_self.clone());
    Ok(w)
}

fn init(multithreaded: bool) -> Result<()> {
    let mut u = USERS.lock();
    if u.world_model != 0 {
        return mpi_err!(Other, "MPI is already initialised (or finalised)");
    }
    start(multithreaded)?;
    u.world_model = 1;
    Ok(())
}

/// MPI_Session_init's part: the runtime, started for the first session if MPI_Init did not
/// start it.
pub(crate) fn session_opened(multithreaded: bool) -> Result<&'static World> {
    let mut u = USERS.lock();
    if world::finalized() {
        return mpi_err!(
            Other,
            "railmpi cannot start again after its last user finalised"
        );
    }
    let w = start(multithreaded)?;
    u.sessions += 1;
    Ok(w)
}

/// MPI_Session_finalize's part: the last user ends the runtime.
pub(crate) fn session_closed(w: &World) -> Result<()> {
    let mut u = USERS.lock();
    u.sessions -= 1;
    // (The World model not running: never started, or finalised already.)
    if u.sessions == 0 && u.world_model != 1 {
        w.bsend.drain(w);
        w.finalize()?;
    }
    Ok(())
}

#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_Init")]
pub unsafe extern "C" fn PMPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int {
    let _ = (argc, argv); // MPI-2 and later: the arguments are not needed
    run("MPI_Init", MPI_COMM_WORLD, || init(false))
}

#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_Init_thread")]
pub unsafe extern "C" fn PMPI_Init_thread(
    argc: *mut c_int,
    argv: *mut *mut *mut c_char,
    required: c_int,
    provided: *mut c_int,
) -> c_int {
    let _ = (argc, argv);
    run("MPI_Init_thread", MPI_COMM_WORLD, || {
        if !(MPI_THREAD_SINGLE..=MPI_THREAD_MULTIPLE).contains(&required) {
            return mpi_err!(Arg, "invalid thread level {required}");
        }
        init(required == MPI_THREAD_MULTIPLE)?;
        // Exactly the level asked for: below MPI_THREAD_MULTIPLE the engine skips its lock.
        THREAD_LEVEL.store(required, Ordering::Relaxed);
        write_out(provided, required)
    })
}

pub(crate) unsafe fn initialized(flag: *mut c_int) -> Result<()> {
    write_out(flag, (USERS.lock().world_model != 0) as c_int)
}

pub(crate) unsafe fn finalized(flag: *mut c_int) -> Result<()> {
    write_out(flag, (USERS.lock().world_model == 2) as c_int)
}

pub(crate) unsafe fn finalize() -> Result<()> {
    let w = shim::world()?;
    if USERS.lock().world_model != 1 {
        return mpi_err!(Other, "MPI_Finalize without MPI_Init");
    }
    // First of all, the attribute delete callbacks of MPI_COMM_SELF (then those of
    // MPI_COMM_WORLD), while MPI is still fully usable (MPI-3.1 §8.7.1).
    let attrs = super::attr::finalize_builtin_comms();
    w.bsend.drain(w);
    let mut u = USERS.lock();
    // Sessions still open keep the runtime (their communicators go on working).
    if u.sessions == 0 {
        w.finalize()?;
    }
    u.world_model = 2;
    attrs
}

/// MPI_Abort (`bare`: no error boundary, it does not return).
pub(crate) unsafe fn abort(comm: MPI_Comm, errorcode: c_int) -> c_int {
    // MPI_Abort never returns; the job (see World::abort) goes down with `errorcode`.
    let rank = crate::runtime::world().map(|w| w.rank as i64).unwrap_or(-1);
    crate::runtime::logging::say(&format!(
        "railmpi: rank {rank} called MPI_Abort(comm={comm:#x}, errorcode={errorcode})"
    ));
    match crate::runtime::world() {
        Some(w) => {
            // An invalid communicator aborts the whole job: that is what can be done.
            let c = super::handles::comm(comm).ok();
            w.abort(c.as_deref(), errorcode, "MPI_Abort")
        }
        None => std::process::exit(errorcode),
    }
}

pub(crate) unsafe fn query_thread(provided: *mut c_int) -> Result<()> {
    shim::world()?;
    write_out(provided, THREAD_LEVEL.load(Ordering::Relaxed))
}

pub(crate) unsafe fn get_version(version: *mut c_int, subversion: *mut c_int) -> Result<()> {
    write_out(version, MPI_VERSION)?;
    write_out(subversion, MPI_SUBVERSION)
}

/// The library version string (also what `railmpi-info` prints first).
pub fn library_version() -> String {
    format!(
        "railmpi {} (MPI {}.{}, {}; rails: shm, tcp, verbs)",
        env!("CARGO_PKG_VERSION"),
        MPI_VERSION,
        MPI_SUBVERSION,
        if cfg!(feature = "std-abi") {
            "MPI-5 standard ABI"
        } else {
            "MPICH ABI"
        }
    )
}

/// Seconds on the monotonic clock (from an arbitrary origin, as MPI allows): one
/// `clock_gettime` and a conversion. Benchmarks call it around every operation they time;
/// going through `Instant::elapsed` was a hundred instructions per call more.
#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_Wtime")]
pub unsafe extern "C" fn PMPI_Wtime() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_Wtick")]
pub unsafe extern "C" fn PMPI_Wtick() -> f64 {
    1e-9
}

pub(crate) unsafe fn alloc_mem(size: MPI_Aint, info: MPI_Info, baseptr: *mut c_void) -> Result<()> {
    let _ = info; // no hints are used yet
    if size < 0 {
        return mpi_err!(Size, "negative size {size}");
    }
    let p = libc::malloc((size as usize).max(1));
    if p.is_null() {
        return mpi_err!(NoMem, "cannot allocate {size} bytes");
    }
    // baseptr is really a `void **` (MPI's C binding declares it `void *`).
    write_out(baseptr as *mut *mut c_void, p)
}

pub(crate) unsafe fn error_string(
    errorcode: c_int,
    string: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    let s = errors::code_string(errorcode)?;
    write_out_str(&s, string, MPI_MAX_ERROR_STRING as usize, resultlen)
}

/// Profiling control: railmpi has no profiling layer of its own to steer, so every level is
/// accepted and ignored (as MPICH does); tools that interpose MPI_Pcontrol see the call.
#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_Pcontrol")]
pub unsafe extern "C" fn PMPI_Pcontrol(level: c_int) -> c_int {
    let _ = level;
    MPI_SUCCESS
}

/// MPI-4.0 §11.2.3: a new info object with the keys MPI_INFO_ENV may hold, as this process
/// sees them (callable before MPI_Init: the values come from the process and launcher).
/// (`char *argv[]`, which the generator does not translate: a shim of its own.)
#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_Info_create_env")]
pub unsafe extern "C" fn PMPI_Info_create_env(
    argc: c_int,
    argv: *mut *mut c_char,
    info: *mut MPI_Info,
) -> c_int {
    run("MPI_Info_create_env", MPI_COMM_WORLD, || {
        create_env(argc, argv, info)
    })
}

pub(crate) unsafe fn create_env(
    argc: c_int,
    argv: *mut *mut c_char,
    info: *mut MPI_Info,
) -> Result<()> {
    if info.is_null() {
        return mpi_err!(Arg, "NULL info pointer");
    }
    let mut args = Vec::new();
    if !argv.is_null() {
        for i in 0..argc.max(0) as usize {
            // SAFETY: MPI: argv holds argc strings (main's arguments), NULL-terminated.
            let a = *argv.add(i);
            if a.is_null() {
                break;
            }
            args.push(CStr::from_ptr(a).to_string_lossy().into_owned());
        }
    }
    let mut pairs = Vec::new();
    if let Some((cmd, rest)) = args.split_first() {
        pairs.push(("command".into(), cmd.clone()));
        if !rest.is_empty() {
            pairs.push(("argv".into(), rest.join(" ")));
        }
    }
    // Before MPI_Init the launcher's word is all there is.
    let size = crate::runtime::world::world()
        .map(|w| w.size)
        .or_else(crate::runtime::pmi::size_from_env);
    if let Some(n) = size {
        pairs.push(("maxprocs".into(), n.to_string()));
    }
    pairs.push(("host".into(), crate::sys::cpu::hostname()));
    pairs.push(("arch".into(), std::env::consts::ARCH.into()));
    if let Ok(dir) = std::env::current_dir() {
        pairs.push(("wdir".into(), dir.to_string_lossy().into_owned()));
    }
    pairs.push(("thread_level".into(), thread_level_name().into()));
    write_out(info, handles::new_info(pairs))
}
