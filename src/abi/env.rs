//! Environment shims: initialisation, finalisation, versions, time, memory, error strings.
//! The rules (who uses the runtime, the thread level, MPI_INFO_ENV's keys) are
//! `runtime::env`'s; here are the C arguments and the handles of the predefined
//! communicators, made when the runtime starts.

use super::consts::*;
use super::handles;
use super::shim::{self, run, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::env::{self as core, ThreadLevel};
use crate::runtime::world::World;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};

pub(crate) use core::session_closed;

/// The C values of `ThreadLevel::ALL`.
const LEVELS: [c_int; 4] = [
    MPI_THREAD_SINGLE,
    MPI_THREAD_FUNNELED,
    MPI_THREAD_SERIALIZED,
    MPI_THREAD_MULTIPLE,
];

/// The thread level provided, by name (a session's "thread_level").
pub fn thread_level_name() -> &'static str {
    core::thread_level().name()
}

/// What the C surface keeps of a runtime that starts: its predefined communicators' handles.
fn started(w: &World) {
    handles::init_comms(w.comm_world.clone(), w.comm_self.clone());
}

/// MPI_Session_init's part: the runtime, started for the first session if MPI_Init did not
/// start it, at the thread level `asked` ("thread_level"'s value) if it starts here.
pub(crate) fn session_opened(asked: Option<&str>) -> Result<&'static World> {
    core::session_opened(asked, started)
}

#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_Init")]
pub unsafe extern "C" fn PMPI_Init(argc: *mut c_int, argv: *mut *mut *mut c_char) -> c_int {
    let _ = (argc, argv); // MPI-2 and later: the arguments are not needed
    run("MPI_Init", MPI_COMM_WORLD, || {
        core::init(ThreadLevel::Single, started)
    })
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
        let Some(i) = LEVELS.iter().position(|&l| l == required) else {
            return mpi_err!(Arg, "invalid thread level {required}");
        };
        core::init(ThreadLevel::ALL[i], started)?;
        write_out(provided, required)
    })
}

pub(crate) unsafe fn finalize() -> Result<()> {
    let w = shim::world()?;
    core::finalize(w, super::attr::finalize_builtin_comms)
}

/// MPI_Abort (`bare`: no error boundary). It returns only when the core ends another
/// group than the caller's (an intercommunicator's remote group: `World::abort_called`).
pub(crate) unsafe fn abort(comm: MPI_Comm, errorcode: c_int) -> c_int {
    // How the message names the communicator: the predefined by name, others by handle.
    let name = match comm {
        MPI_COMM_WORLD => "MPI_COMM_WORLD".to_string(),
        MPI_COMM_SELF => "MPI_COMM_SELF".to_string(),
        _ => format!("comm={comm:#x}"),
    };
    // An invalid communicator aborts the whole job: that is what can be done.
    let c = super::handles::comm(comm).ok();
    core::abort_called(c.as_deref(), errorcode, &name);
    MPI_SUCCESS
}

pub(crate) unsafe fn query_thread(provided: *mut c_int) -> Result<()> {
    shim::world()?;
    write_out(provided, LEVELS[core::thread_level() as usize])
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
        write_out(info, handles::new_info(core::info_env(&args)))
    })
}
