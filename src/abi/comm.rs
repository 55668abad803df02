//! Communicator shims: rank/size, dup/idup/split/split_type/create/create_group/free/compare,
//! names, error handlers, info, intercommunicators (create, merge, queries). Groups are in
//! `group.rs`, attributes in `attr.rs`, topologies in `topo.rs`.

use super::args;
use super::attr;
use super::callbacks::{App, Convention};
use super::consts::*;
use super::handles;
use super::shim::{self, run, write_out, write_out_str};
use crate::comm::{Communicator, Comparison, SplitType};
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::intercomm::{self, Bridge};
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};
use std::sync::Arc;

/// MPI_Comm_dup's work into `newcomm` (checked not NULL first), which is MPI_COMM_NULL
/// when it fails (an attribute copy callback's error, MPI-3.1 §6.7.2): a new communicator
/// over the same group with the error handler (MPI-3.1 §8.3), the topology and the
/// attributes (through their copy callbacks) of `comm`.
pub(crate) unsafe fn dup(comm: MPI_Comm, newcomm: *mut MPI_Comm) -> Result<()> {
    args::out_ptr(newcomm, "newcomm")?;
    let h = shim::comm(comm).and_then(|parent| dup_as(comm, shim::world()?.comm_dup(&parent)?));
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
    let standin = Arc::new(Communicator::pending(&parent));
    let h = dup_as(comm, standin).inspect_err(|_| *newcomm = MPI_COMM_NULL)?;
    let install = move |c| {
        let _ = handles::with_comm_entry(h, |e| e.comm = c);
    };
    let id = w.start_collective(w.idup_schedule(&parent, Box::new(install)));
    write_out(newcomm, h)?;
    write_out(request, handles::coll_request(id, comm))
}

/// A handle for a communicator made from `parent`, MPI_COMM_NULL for none.
pub(crate) fn derived(c: Option<Arc<Communicator>>, parent: MPI_Comm) -> MPI_Comm {
    c.map_or(MPI_COMM_NULL, |c| handles::derived_comm(c, parent))
}

pub(crate) unsafe fn create(
    comm: MPI_Comm,
    group: MPI_Group,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let parent = handles::comm(comm)?;
    let g = handles::group(group)?;
    g.check_subset_of(&parent.group)?;
    args::out_ptr(newcomm, "newcomm")?;
    write_out(newcomm, derived(w.comm_create(&parent, g)?, comm))
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
    g.check_subset_of(&parent.group)?;
    args::out_ptr(newcomm, "newcomm")?;
    write_out(
        newcomm,
        derived(w.comm_create_group(&parent, g, tag)?, comm),
    )
}

/// MPI_Comm_split_type: the C kinds and the info's resource as a `SplitType`.
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
    let kind = match split_type {
        MPI_UNDEFINED => SplitType::Undefined,
        MPI_COMM_TYPE_SHARED => SplitType::Shared,
        MPI_COMM_TYPE_HW_UNGUIDED => SplitType::HwUnguided,
        MPI_COMM_TYPE_HW_GUIDED | MPI_COMM_TYPE_RESOURCE_GUIDED => {
            SplitType::Guided(super::info::get(info, "mpi_hw_resource_type")?)
        }
        _ => return mpi_err!(Arg, "invalid split_type {split_type}"),
    };
    args::out_ptr(newcomm, "newcomm")?;
    write_out(
        newcomm,
        derived(w.comm_split_type(&parent, kind, key)?, comm),
    )
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
    let leader = intercomm::local_leader(&lc, local_leader)?;
    args::out_ptr(newintercomm, "newintercomm")?;
    let tag = args::send_tag(tag)?; // checked everywhere, as MPICH does
                                    // peer_comm and remote_leader are significant at the local leader only.
    let pc;
    let bridge = if lc.rank == leader {
        pc = handles::comm(peer_comm)?;
        Some(Bridge::new(&pc, args::dest(&pc, remote_leader)?, tag)?)
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
    args::out_ptr(newintracomm, "newintracomm")?;
    let merged = w.intercomm_merge(&c, high != 0)?;
    write_out(newintracomm, handles::derived_comm(merged, intercomm))
}

/// MPI_Comm_split's color: None for MPI_UNDEFINED, else non-negative (MPI_ERR_ARG).
pub(crate) fn color(color: c_int) -> Result<Option<i32>> {
    match color {
        MPI_UNDEFINED => Ok(None),
        c if c < 0 => mpi_err!(Arg, "invalid color {c}"),
        c => Ok(Some(c)),
    }
}

pub(crate) unsafe fn free(comm: *mut MPI_Comm) -> Result<()> {
    let w = shim::world()?;
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
    // Messages no receive took: dropped, the error reported once the handle is gone.
    let unmatched = w.drop_unmatched(&*handles::comm(*comm)?, handles::comm_owner(*comm));
    handles::free_comm(*comm)?;
    *comm = MPI_COMM_NULL;
    unmatched
}

/// MPI_Comm_compare's answer (a table line).
pub(crate) fn comparison(a: &Communicator, b: &Communicator) -> c_int {
    match Communicator::compare(a, b) {
        Comparison::Ident => MPI_IDENT,
        Comparison::Congruent => MPI_CONGRUENT,
        Comparison::Similar => MPI_SIMILAR,
        Comparison::Unequal => MPI_UNEQUAL,
    }
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
