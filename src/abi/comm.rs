//! Communicator shims: rank/size, dup/idup/split/split_type/create/create_group/free/compare,
//! names, error handlers, info, intercommunicators (create, merge, queries). Groups are in
//! `group.rs`, attributes in `attr.rs`, topologies in `topo.rs`.

use super::args;
use super::attr;
use super::callbacks::{App, Convention};
use super::consts::*;
use super::handles;
use super::shim::{self, run, write_out, write_out_str};
use crate::comm::{Communicator, Comparison};
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::intercomm::Bridge;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};
use std::sync::Arc;

/// MPI_Comm_dup's work: a new communicator over the same group with the error handler
/// (MPI-3.1 §8.3), the topology and the attributes (through their copy callbacks) of
/// `comm`.
fn dup(comm: MPI_Comm) -> Result<MPI_Comm> {
    let w = shim::world()?;
    let parent = handles::comm(comm)?;
    dup_as(comm, w.comm_dup(&parent)?)
}

/// `dup` into `newcomm` (checked not NULL), which is MPI_COMM_NULL when it fails (an
/// attribute copy callback's error, MPI-3.1 §6.7.2).
unsafe fn dup_into(comm: MPI_Comm, newcomm: *mut MPI_Comm) -> Result<()> {
    let h = dup(comm);
    *newcomm = *h.as_ref().unwrap_or(&MPI_COMM_NULL);
    h.map(|_| ())
}

/// A new handle for `new`, a duplicate of `comm` (its error handler, topology and
/// attributes).
fn dup_as(comm: MPI_Comm, new: Arc<Communicator>) -> Result<MPI_Comm> {
    let h = handles::derived_comm(new, comm);
    let topo = handles::with_comm_entry(comm, |e| e.topo.clone())?;
    handles::with_comm_entry(h, |e| e.topo = topo)?;
    if let Err(e) = attr::copy_all(comm, h) {
        let _ = attr::delete_all(h);
        let _ = handles::free_comm(h);
        return Err(e);
    }
    Ok(h)
}

pub(crate) unsafe fn comm_dup(comm: MPI_Comm, newcomm: *mut MPI_Comm) -> Result<()> {
    if newcomm.is_null() {
        return mpi_err!(Arg, "NULL newcomm");
    }
    dup_into(comm, newcomm)
}

pub(crate) unsafe fn dup_with_info(
    comm: MPI_Comm,
    info: MPI_Info,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
    super::info::check(info)?; // no hints are used
    if newcomm.is_null() {
        return mpi_err!(Arg, "NULL newcomm");
    }
    dup_into(comm, newcomm)
}

/// MPI-4.0's MPI_Comm_idup_with_info: MPI_Comm_idup with hints (checked; none is used).
pub(crate) unsafe fn idup_with_info(
    comm: MPI_Comm,
    info: MPI_Info,
    newcomm: *mut MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    super::info::check(info)?;
    args::out_ptr(request, "request")?;
    idup(comm, newcomm, request)
}

/// A context id no communicator uses: the stand-in behind an MPI_Comm_idup handle until
/// the agreement completes (MPI forbids using the handle before).
const CTX_PENDING: u32 = u32::MAX - 7;

/// MPI_Comm_idup: the new handle is made at once (with the error handler, topology and
/// attributes of `comm`), and the context agreement runs as a nonblocking collective
/// (`World::idup_schedule`) that puts the real communicator behind the handle when it
/// completes.
pub(crate) unsafe fn idup(
    comm: MPI_Comm,
    newcomm: *mut MPI_Comm,
    request: *mut MPI_Request,
) -> Result<()> {
    let w = shim::world()?;
    let parent = handles::comm(comm)?;
    if newcomm.is_null() || request.is_null() {
        return mpi_err!(Arg, "NULL newcomm or request");
    }
    let (rank, group) = (parent.rank, parent.group.clone());
    let standin = match parent.remote_group() {
        Some(r) => Communicator::new_inter(CTX_PENDING, rank, group, r.clone()),
        None => Communicator::new(CTX_PENDING, rank, group),
    };
    let h = dup_as(comm, Arc::new(standin)).inspect_err(|_| *newcomm = MPI_COMM_NULL)?;
    let install = move |c| {
        let _ = handles::with_comm_entry(h, |e| e.comm = c);
    };
    let id = w.start_collective(w.idup_schedule(&parent, Box::new(install)));
    write_out(newcomm, h)?;
    write_out(request, handles::coll_request(id, comm))
}

pub(crate) unsafe fn create(
    comm: MPI_Comm,
    group: MPI_Group,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
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
        Some(c) => handles::derived_comm(c, comm),
        None => MPI_COMM_NULL,
    };
    write_out(newcomm, h)
}

pub(crate) unsafe fn create_group(
    comm: MPI_Comm,
    group: MPI_Group,
    tag: c_int,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let parent = handles::comm(comm)?;
    args::intra(&parent)?;
    let g = handles::group(group)?;
    let tag = args::send_tag(tag)?;
    if !g.is_subset_of(&parent.group) {
        return mpi_err!(Group, "the group is not a subset of the communicator's");
    }
    if newcomm.is_null() {
        return mpi_err!(Arg, "NULL newcomm");
    }
    let h = match w.comm_create_group(&parent, g, tag)? {
        Some(c) => handles::derived_comm(c, comm),
        None => MPI_COMM_NULL,
    };
    write_out(newcomm, h)
}

pub(crate) unsafe fn split_type(
    comm: MPI_Comm,
    split_type: c_int,
    key: c_int,
    info: MPI_Info,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let parent = handles::comm(comm)?;
    super::info::check(info)?;
    // Whether this process joins its node's communicator (MPI-4.0 §7.4.2). HW_GUIDED and
    // RESOURCE_GUIDED split by the resource "mpi_hw_resource_type" names: the reserved
    // "mpi_shared_memory" is MPI_COMM_TYPE_SHARED; railmpi knows no other resource, so
    // any other value, no key or MPI_INFO_NULL gives MPI_COMM_NULL. HW_UNGUIDED: the
    // node, if it is a strict subset of comm (else MPI_COMM_NULL). Every process still
    // takes part in the one collective split, whatever it passed.
    let shared = match split_type {
        MPI_UNDEFINED => false,
        MPI_COMM_TYPE_SHARED | MPI_COMM_TYPE_HW_UNGUIDED => true,
        MPI_COMM_TYPE_HW_GUIDED | MPI_COMM_TYPE_RESOURCE_GUIDED => {
            super::info::get(info, "mpi_hw_resource_type")?.as_deref() == Some("mpi_shared_memory")
        }
        _ => return mpi_err!(Arg, "invalid split_type {split_type}"),
    };
    if newcomm.is_null() {
        return mpi_err!(Arg, "NULL newcomm");
    }
    let c = w.comm_split_shared(&parent, !shared, key)?;
    let c = c.filter(|c| split_type != MPI_COMM_TYPE_HW_UNGUIDED || c.size() < parent.size());
    let h = match c {
        Some(c) => handles::derived_comm(c, comm),
        None => MPI_COMM_NULL,
    };
    write_out(newcomm, h)
}

/// The communicator behind `h` in the running world, which must be an intercommunicator
/// (MPI_ERR_COMM).
pub fn inter(h: MPI_Comm) -> Result<handles::CommRef> {
    let c = shim::comm(h)?;
    if !c.is_inter() {
        return mpi_err!(Comm, "not an intercommunicator");
    }
    Ok(c)
}

pub(crate) unsafe fn intercomm_create(
    local_comm: MPI_Comm,
    local_leader: c_int,
    peer_comm: MPI_Comm,
    remote_leader: c_int,
    tag: c_int,
    newintercomm: *mut MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let lc = handles::comm(local_comm)?;
    args::intra(&lc)?;
    if local_leader < 0 || local_leader as usize >= lc.size() {
        return mpi_err!(
            Rank,
            "invalid local leader {local_leader} (communicator size {})",
            lc.size()
        );
    }
    if newintercomm.is_null() {
        return mpi_err!(Arg, "NULL newintercomm");
    }
    let leader = local_leader as usize;
    let tag = args::send_tag(tag)?; // checked everywhere, as MPICH does
                                    // peer_comm and remote_leader are significant at the local leader only.
    let pc;
    let bridge = if lc.rank == leader {
        pc = handles::comm(peer_comm)?;
        let Some(remote) = args::dest(&pc, remote_leader)? else {
            return mpi_err!(Rank, "the remote leader cannot be MPI_PROC_NULL");
        };
        if !pc.is_inter() && remote == pc.rank {
            return mpi_err!(Rank, "the remote leader is the local leader itself");
        }
        Some(Bridge {
            peer_comm: &pc,
            remote_leader: remote,
            tag,
        })
    } else {
        None
    };
    let c = w.intercomm_create(&lc, leader, bridge)?;
    write_out(newintercomm, handles::derived_comm(c, local_comm))
}

pub(crate) unsafe fn intercomm_merge(
    intercomm: MPI_Comm,
    high: c_int,
    newintracomm: *mut MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let c = inter(intercomm)?;
    if newintracomm.is_null() {
        return mpi_err!(Arg, "NULL newintracomm");
    }
    let merged = w.intercomm_merge(&c, high != 0)?;
    write_out(newintracomm, handles::derived_comm(merged, intercomm))
}

pub(crate) unsafe fn set_info(comm: MPI_Comm, info: MPI_Info) -> Result<()> {
    shim::world()?;
    handles::comm(comm)?;
    super::info::check(info) // no hints are used
}

pub(crate) unsafe fn get_info(comm: MPI_Comm, info_used: *mut MPI_Info) -> Result<()> {
    shim::world()?;
    handles::comm(comm)?;
    write_out(info_used, handles::new_info(Vec::new()))
}

pub(crate) unsafe fn split(
    comm: MPI_Comm,
    color: c_int,
    key: c_int,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let parent = handles::comm(comm)?;
    if color < 0 && color != MPI_UNDEFINED {
        return mpi_err!(Arg, "invalid color {color}");
    }
    let color = (color != MPI_UNDEFINED).then_some(color);
    let h = match w.comm_split(&parent, color, key)? {
        Some(c) => handles::derived_comm(c, comm),
        None => MPI_COMM_NULL,
    };
    write_out(newcomm, h)
}

pub(crate) unsafe fn free(comm: *mut MPI_Comm) -> Result<()> {
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
    super::dynamic::forget_parent(*comm);
    super::bsend::comm_freed(*comm);
    handles::free_comm(*comm)?;
    *comm = MPI_COMM_NULL;
    Ok(())
}

pub(crate) unsafe fn compare(comm1: MPI_Comm, comm2: MPI_Comm, result: *mut c_int) -> Result<()> {
    shim::world()?;
    let (a, b) = (handles::comm(comm1)?, handles::comm(comm2)?);
    let r = match Communicator::compare(&a, &b) {
        Comparison::Ident => MPI_IDENT,
        Comparison::Congruent => MPI_CONGRUENT,
        Comparison::Similar => MPI_SIMILAR,
        Comparison::Unequal => MPI_UNEQUAL,
    };
    write_out(result, r)
}

pub(crate) unsafe fn set_name(comm: MPI_Comm, comm_name: *const c_char) -> Result<()> {
    shim::world()?;
    if comm_name.is_null() {
        return mpi_err!(Arg, "NULL name");
    }
    let name = CStr::from_ptr(comm_name).to_string_lossy().into_owned();
    handles::with_comm_entry(comm, |e| e.name = name)
}

pub(crate) unsafe fn get_name(
    comm: MPI_Comm,
    comm_name: *mut c_char,
    resultlen: *mut c_int,
) -> Result<()> {
    shim::world()?;
    // The null handle's name is its own (MPI-4.1 §7.8, as MPICH 5's).
    let name = match comm {
        MPI_COMM_NULL => "MPI_COMM_NULL".to_string(),
        _ => handles::with_comm_entry(comm, |e| e.name.clone())?,
    };
    write_out_str(&name, comm_name, MPI_MAX_OBJECT_NAME as usize, resultlen)
}

// ------------------------------------------------------------------ error handlers

pub(crate) unsafe fn set_errhandler(comm: MPI_Comm, errhandler: MPI_Errhandler) -> Result<()> {
    shim::world()?;
    if !handles::valid_errhandler(errhandler) {
        return mpi_err!(Arg, "invalid error handler {errhandler:#x}");
    }
    handles::with_comm_entry(comm, |e| e.errhandler = errhandler)?;
    handles::retain_errhandler(errhandler);
    Ok(())
}

pub(crate) unsafe fn get_errhandler(comm: MPI_Comm, errhandler: *mut MPI_Errhandler) -> Result<()> {
    shim::world()?;
    let h = handles::reported_errhandler(handles::with_comm_entry(comm, |e| e.errhandler)?);
    write_out(errhandler, h)?;
    // The caller owns a reference now (and frees it with MPI_Errhandler_free).
    handles::retain_errhandler(h);
    Ok(())
}

pub(crate) unsafe fn create_errhandler(
    function: MPI_Comm_errhandler_function,
    errhandler: *mut MPI_Errhandler,
) -> Result<()> {
    let f = args::errhandler_fn(function)?;
    write_out(errhandler, handles::new_errhandler(f as usize))
}

pub(crate) unsafe fn errhandler_free(errhandler: *mut MPI_Errhandler) -> Result<()> {
    if errhandler.is_null() {
        return mpi_err!(Arg, "NULL error handler pointer");
    }
    handles::free_errhandler(*errhandler)?;
    *errhandler = MPI_ERRHANDLER_NULL;
    Ok(())
}

/// MPI_Comm_call_errhandler (`bare`: the handler runs with the application's code).
pub(crate) unsafe fn call_errhandler(comm: MPI_Comm, errorcode: c_int) -> c_int {
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
                // SAFETY: registered as an MPI_Comm_errhandler_function by the application.
                App::errhandler(f, super::callbacks::Kind::Comm, comm as usize, errorcode);
            }
            MPI_SUCCESS
        }
    }
}
