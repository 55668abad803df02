//! Communicator shims: rank/size, dup/idup/split/split_type/create/create_group/free/compare,
//! names, error handlers, info, intercommunicator queries (railmpi has none). Groups are in
//! `group.rs`, attributes in `attr.rs`, topologies in `topo.rs`.

use super::args;
use super::attr;
use super::consts::*;
use super::handles;
use super::shim::{self, run, write_out, write_out_str};
use crate::comm::{Communicator, Comparison};
use crate::error::Result;
use crate::mpi_err;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_rank(comm: MPI_Comm, rank: *mut c_int) -> c_int {
    run("MPI_Comm_rank", comm, || {
        shim::world()?;
        write_out(rank, handles::comm(comm)?.rank as c_int)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_size(comm: MPI_Comm, size: *mut c_int) -> c_int {
    run("MPI_Comm_size", comm, || {
        shim::world()?;
        write_out(size, handles::comm(comm)?.size() as c_int)
    })
}

/// MPI_Comm_dup's work: a new communicator over the same group with the error handler
/// (MPI-3.1 §8.3), the topology and the attributes (through their copy callbacks) of
/// `comm`.
fn dup(comm: MPI_Comm) -> Result<MPI_Comm> {
    let w = shim::world()?;
    let parent = handles::comm(comm)?;
    let new = w.comm_dup(&parent)?;
    let h = handles::new_comm(new, handles::comm_errhandler(comm));
    let topo = handles::with_comm_entry(comm, |e| e.topo.clone())?;
    handles::with_comm_entry(h, |e| e.topo = topo)?;
    if let Err(e) = attr::copy_all(comm, h) {
        let _ = attr::delete_all(h);
        let _ = handles::free_comm(h);
        return Err(e);
    }
    Ok(h)
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_dup(comm: MPI_Comm, newcomm: *mut MPI_Comm) -> c_int {
    run("MPI_Comm_dup", comm, || {
        if newcomm.is_null() {
            return mpi_err!(Arg, "NULL newcomm");
        }
        write_out(newcomm, dup(comm)?)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_dup_with_info(
    comm: MPI_Comm,
    info: MPI_Info,
    newcomm: *mut MPI_Comm,
) -> c_int {
    run("MPI_Comm_dup_with_info", comm, || {
        super::info::check(info)?; // no hints are used
        if newcomm.is_null() {
            return mpi_err!(Arg, "NULL newcomm");
        }
        write_out(newcomm, dup(comm)?)
    })
}

/// MPI_Comm_idup completes at once: the duplicate is made before it returns, and the
/// request is one that is already complete (`handles::REQUEST_SEND_DONE`, which the
/// wait and test calls finish with an empty status and no table entry).
#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_idup(
    comm: MPI_Comm,
    newcomm: *mut MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Comm_idup", comm, || {
        if newcomm.is_null() || request.is_null() {
            return mpi_err!(Arg, "NULL newcomm or request");
        }
        write_out(newcomm, dup(comm)?)?;
        write_out(request, handles::REQUEST_SEND_DONE)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_create(
    comm: MPI_Comm,
    group: MPI_Group,
    newcomm: *mut MPI_Comm,
) -> c_int {
    run("MPI_Comm_create", comm, || {
        let w = shim::world()?;
        let parent = handles::comm(comm)?;
        let g = handles::group(group)?;
        if !g.is_subset_of(&parent.group) {
            return mpi_err!(Group, "the group is not a subset of the communicator's");
        }
        if newcomm.is_null() {
            return mpi_err!(Arg, "NULL newcomm");
        }
        let h = match w.comm_create(&parent, g)? {
            Some(c) => handles::new_comm(c, handles::comm_errhandler(comm)),
            None => MPI_COMM_NULL,
        };
        write_out(newcomm, h)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_create_group(
    comm: MPI_Comm,
    group: MPI_Group,
    tag: c_int,
    newcomm: *mut MPI_Comm,
) -> c_int {
    run("MPI_Comm_create_group", comm, || {
        let w = shim::world()?;
        let parent = handles::comm(comm)?;
        let g = handles::group(group)?;
        let tag = args::send_tag(tag)?;
        if !g.is_subset_of(&parent.group) {
            return mpi_err!(Group, "the group is not a subset of the communicator's");
        }
        if newcomm.is_null() {
            return mpi_err!(Arg, "NULL newcomm");
        }
        let h = match w.comm_create_group(&parent, g, tag)? {
            Some(c) => handles::new_comm(c, handles::comm_errhandler(comm)),
            None => MPI_COMM_NULL,
        };
        write_out(newcomm, h)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_split_type(
    comm: MPI_Comm,
    split_type: c_int,
    key: c_int,
    info: MPI_Info,
    newcomm: *mut MPI_Comm,
) -> c_int {
    run("MPI_Comm_split_type", comm, || {
        let w = shim::world()?;
        let parent = handles::comm(comm)?;
        super::info::check(info)?; // no hints are used
        if split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED {
            return mpi_err!(Arg, "invalid split_type {split_type}");
        }
        if newcomm.is_null() {
            return mpi_err!(Arg, "NULL newcomm");
        }
        let h = match w.comm_split_shared(&parent, split_type == MPI_UNDEFINED, key)? {
            Some(c) => handles::new_comm(c, handles::comm_errhandler(comm)),
            None => MPI_COMM_NULL,
        };
        write_out(newcomm, h)
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_test_inter(comm: MPI_Comm, flag: *mut c_int) -> c_int {
    run("MPI_Comm_test_inter", comm, || {
        shim::world()?;
        handles::comm(comm)?;
        write_out(flag, 0) // railmpi has intracommunicators only
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_remote_size(comm: MPI_Comm, size: *mut c_int) -> c_int {
    let _ = size;
    run("MPI_Comm_remote_size", comm, || {
        shim::world()?;
        handles::comm(comm)?;
        mpi_err!(Comm, "not an intercommunicator")
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_remote_group(comm: MPI_Comm, group: *mut MPI_Group) -> c_int {
    let _ = group;
    run("MPI_Comm_remote_group", comm, || {
        shim::world()?;
        handles::comm(comm)?;
        mpi_err!(Comm, "not an intercommunicator")
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_set_info(comm: MPI_Comm, info: MPI_Info) -> c_int {
    run("MPI_Comm_set_info", comm, || {
        shim::world()?;
        handles::comm(comm)?;
        super::info::check(info) // no hints are used
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Comm_get_info(comm: MPI_Comm, info_used: *mut MPI_Info) -> c_int {
    run("MPI_Comm_get_info", comm, || {
        shim::world()?;
        handles::comm(comm)?;
        write_out(info_used, handles::new_info(handles::InfoEntry::new()))
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
        write_out(newcomm, h)
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
        handles::comm(*comm)?;
        if matches!(*comm, MPI_COMM_WORLD | MPI_COMM_SELF) {
            return mpi_err!(Comm, "cannot free a predefined communicator");
        }
        // Delete callbacks first; if one fails the communicator stays (as in MPICH).
        attr::delete_all(*comm)?;
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
        write_out(result, r)
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
        write_out_str(&name, comm_name, MPI_MAX_OBJECT_NAME as usize, resultlen)
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
        handles::with_comm_entry(comm, |e| e.errhandler = errhandler)?;
        handles::retain_errhandler(errhandler);
        Ok(())
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
        write_out(errhandler, h)?;
        // The caller owns a reference now (and frees it with MPI_Errhandler_free).
        handles::retain_errhandler(h);
        Ok(())
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
        write_out(errhandler, handles::new_errhandler(f as usize))
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
