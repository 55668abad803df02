//! Communicator shims: rank/size, dup/split/free/compare, names, error handlers, attributes.

use super::args;
use super::consts::*;
use super::handles;
use super::shim::{self, put, put_str, run};
use crate::comm::{Communicator, Comparison};
use crate::mpi_err;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicI32, Ordering};

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_rank(comm: MPI_Comm, rank: *mut c_int) -> c_int {
    run("MPI_Comm_rank", comm, || {
        shim::world()?;
        put(rank, handles::comm(comm)?.rank as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_size(comm: MPI_Comm, size: *mut c_int) -> c_int {
    run("MPI_Comm_size", comm, || {
        shim::world()?;
        put(size, handles::comm(comm)?.size() as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_dup(comm: MPI_Comm, newcomm: *mut MPI_Comm) -> c_int {
    run("MPI_Comm_dup", comm, || {
        let w = shim::world()?;
        let parent = handles::comm(comm)?;
        let new = w.comm_dup(&parent)?;
        // The new communicator inherits the error handler (MPI-3.1 §8.3).
        put(
            newcomm,
            handles::new_comm(new, handles::comm_errhandler(comm)),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_split(
    comm: MPI_Comm,
    color: c_int,
    key: c_int,
    newcomm: *mut MPI_Comm,
) -> c_int {
    run("MPI_Comm_split", comm, || {
        let w = shim::world()?;
        let parent = handles::comm(comm)?;
        if color < 0 && color != MPI_UNDEFINED {
            return mpi_err!(Arg, "invalid color {color}");
        }
        let color = (color != MPI_UNDEFINED).then_some(color);
        let h = match w.comm_split(&parent, color, key)? {
            Some(c) => handles::new_comm(c, handles::comm_errhandler(comm)),
            None => MPI_COMM_NULL,
        };
        put(newcomm, h)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_free(comm: *mut MPI_Comm) -> c_int {
    let h = if comm.is_null() { MPI_COMM_NULL } else { *comm };
    run("MPI_Comm_free", h, || {
        shim::world()?;
        if comm.is_null() {
            return mpi_err!(Arg, "NULL communicator pointer");
        }
        handles::free_comm(*comm)?;
        *comm = MPI_COMM_NULL;
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_compare(
    comm1: MPI_Comm,
    comm2: MPI_Comm,
    result: *mut c_int,
) -> c_int {
    run("MPI_Comm_compare", comm1, || {
        shim::world()?;
        let (a, b) = (handles::comm(comm1)?, handles::comm(comm2)?);
        let r = match Communicator::compare(&a, &b) {
            Comparison::Ident => MPI_IDENT,
            Comparison::Congruent => MPI_CONGRUENT,
            Comparison::Similar => MPI_SIMILAR,
            Comparison::Unequal => MPI_UNEQUAL,
        };
        put(result, r)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_set_name(comm: MPI_Comm, comm_name: *const c_char) -> c_int {
    run("MPI_Comm_set_name", comm, || {
        shim::world()?;
        if comm_name.is_null() {
            return mpi_err!(Arg, "NULL name");
        }
        let name = CStr::from_ptr(comm_name).to_string_lossy().into_owned();
        handles::with_comm_entry(comm, |e| e.name = name)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_get_name(
    comm: MPI_Comm,
    comm_name: *mut c_char,
    resultlen: *mut c_int,
) -> c_int {
    run("MPI_Comm_get_name", comm, || {
        shim::world()?;
        let name = handles::with_comm_entry(comm, |e| e.name.clone())?;
        put_str(&name, comm_name, MPI_MAX_OBJECT_NAME as usize, resultlen)
    })
}

// ------------------------------------------------------------------ error handlers

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_set_errhandler(
    comm: MPI_Comm,
    errhandler: MPI_Errhandler,
) -> c_int {
    run("MPI_Comm_set_errhandler", comm, || {
        shim::world()?;
        if !handles::valid_errhandler(errhandler) {
            return mpi_err!(Arg, "invalid error handler {errhandler:#x}");
        }
        handles::with_comm_entry(comm, |e| e.errhandler = errhandler)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_get_errhandler(
    comm: MPI_Comm,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    run("MPI_Comm_get_errhandler", comm, || {
        shim::world()?;
        let h = handles::with_comm_entry(comm, |e| e.errhandler)?;
        put(errhandler, h)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_create_errhandler(
    function: MPI_Comm_errhandler_function,
    errhandler: *mut MPI_Errhandler,
) -> c_int {
    run("MPI_Comm_create_errhandler", MPI_COMM_WORLD, || {
        let Some(f) = function else {
            return mpi_err!(Arg, "NULL error handler function");
        };
        put(errhandler, handles::new_errhandler(f as usize))
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Errhandler_free(errhandler: *mut MPI_Errhandler) -> c_int {
    run("MPI_Errhandler_free", MPI_COMM_WORLD, || {
        if errhandler.is_null() {
            return mpi_err!(Arg, "NULL error handler pointer");
        }
        handles::free_errhandler(*errhandler)?;
        *errhandler = MPI_ERRHANDLER_NULL;
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_call_errhandler(comm: MPI_Comm, errorcode: c_int) -> c_int {
    let rc = run("MPI_Comm_call_errhandler", comm, || {
        shim::world()?;
        handles::comm(comm).map(|_| ())
    });
    if rc != MPI_SUCCESS {
        return rc;
    }
    // Run the handler with the caller's code (as MPI requires), then report success.
    match handles::comm_errhandler(comm) {
        MPI_ERRORS_RETURN => MPI_SUCCESS,
        MPI_ERRORS_ARE_FATAL | MPI_ERRORS_ABORT => super::errors::fatal(
            "MPI_Comm_call_errhandler",
            errorcode,
            "error raised by the application",
        ),
        h => {
            if let Some(f) = handles::errhandler_fn(h) {
                let (mut c, mut e) = (comm, errorcode);
                // SAFETY: registered as an MPI_Comm_errhandler_function by the application.
                let f: unsafe extern "C" fn(*mut MPI_Comm, *mut c_int, ...) =
                    std::mem::transmute(f);
                f(&mut c, &mut e);
            }
            MPI_SUCCESS
        }
    }
}

// ------------------------------------------------------------------ attributes

static TAG_UB_VALUE: AtomicI32 = AtomicI32::new(args::TAG_UB);
static HOST_VALUE: AtomicI32 = AtomicI32::new(MPI_PROC_NULL);
static IO_VALUE: AtomicI32 = AtomicI32::new(MPI_ANY_SOURCE);
static WTIME_GLOBAL_VALUE: AtomicI32 = AtomicI32::new(0);
static UNIVERSE_VALUE: AtomicI32 = AtomicI32::new(1);
static APPNUM_VALUE: AtomicI32 = AtomicI32::new(0);
static LASTUSED_VALUE: AtomicI32 = AtomicI32::new(MPI_ERR_LASTCODE);

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_get_attr(
    comm: MPI_Comm,
    comm_keyval: c_int,
    attribute_val: *mut c_void,
    flag: *mut c_int,
) -> c_int {
    run("MPI_Comm_get_attr", comm, || {
        let w = shim::world()?;
        handles::comm(comm)?;
        let cell: Option<&'static AtomicI32> = match comm_keyval {
            MPI_TAG_UB => Some(&TAG_UB_VALUE),
            MPI_HOST => Some(&HOST_VALUE),
            MPI_IO => Some(&IO_VALUE),
            MPI_WTIME_IS_GLOBAL => Some(&WTIME_GLOBAL_VALUE),
            MPI_UNIVERSE_SIZE => {
                UNIVERSE_VALUE.store(w.size as i32, Ordering::Relaxed);
                Some(&UNIVERSE_VALUE)
            }
            MPI_APPNUM => {
                APPNUM_VALUE.store(w.pmi.appnum(), Ordering::Relaxed);
                Some(&APPNUM_VALUE)
            }
            MPI_LASTUSEDCODE => Some(&LASTUSED_VALUE),
            MPI_KEYVAL_INVALID => return mpi_err!(Keyval, "invalid keyval"),
            _ => None,
        };
        match cell {
            // attribute_val is really a `void **`: the value is a pointer to the int.
            Some(c) => {
                put(attribute_val as *mut *mut c_void, c.as_ptr() as *mut c_void)?;
                put(flag, 1)
            }
            None => put(flag, 0),
        }
    })
}
