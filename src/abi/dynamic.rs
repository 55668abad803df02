//! Dynamic processes (MPI-4.1 §11): ports, accept/connect, join, disconnect, the parent's
//! handle, spawn — the C strings, arrays and handles; the rules and the work are
//! `runtime::dynamic`'s.

use super::args;
use super::attr;
use super::consts::*;
use super::file::c_string;
use super::handles;
use super::shim::{self, write_out, write_out_str};
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::dynamic::{ParentHandle, SpawnCmd};
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};

pub(crate) unsafe fn open_port(info: MPI_Info, port_name: *mut c_char) -> Result<()> {
    let w = shim::world()?;
    super::info::check(info)?;
    if port_name.is_null() {
        return mpi_err!(Arg, "NULL port name buffer");
    }
    let name = w.open_port()?;
    write_out_str(
        &name,
        port_name,
        MPI_MAX_PORT_NAME as usize,
        std::ptr::null_mut(),
    )
}

pub(crate) unsafe fn close_port(port_name: *const c_char) -> Result<()> {
    shim::world()?;
    crate::runtime::dynamic::port::close(&c_string(port_name, "port name")?)
}

/// What accept, connect and spawn check alike: an intracommunicator, a root in it, and
/// somewhere to put the new intercommunicator.
unsafe fn collective_args(
    comm: MPI_Comm,
    root: c_int,
    out: *mut MPI_Comm,
) -> Result<(handles::CommRef, usize)> {
    let c = handles::comm(comm)?;
    args::intra(&c)?;
    let root = crate::coll::call::intra_root(&c, crate::coll::call::RootArg::Rank(root))?;
    if out.is_null() {
        return mpi_err!(Arg, "NULL new intercommunicator");
    }
    Ok((c, root))
}

/// MPI_Comm_accept and MPI_Comm_connect (`accept` false): the same arguments, checked
/// alike.
pub(crate) unsafe fn accept_connect(
    port_name: *const c_char,
    info: MPI_Info,
    root: c_int,
    comm: MPI_Comm,
    newcomm: *mut MPI_Comm,
    accept: bool,
) -> Result<()> {
    let w = shim::world()?;
    let (c, root) = collective_args(comm, root, newcomm)?;
    // The port name and info are significant at the root only.
    let name = if c.rank == root {
        super::info::check(info)?;
        Some(c_string(port_name, "port name")?)
    } else {
        None
    };
    let inter = match accept {
        true => w.comm_accept(name.as_deref(), &c, root)?,
        false => w.comm_connect(name.as_deref(), &c, root)?,
    };
    write_out(newcomm, handles::derived_comm(inter, comm))
}

pub(crate) unsafe fn comm_join(fd: c_int, intercomm: *mut MPI_Comm) -> Result<()> {
    let w = shim::world()?;
    if intercomm.is_null() {
        return mpi_err!(Arg, "NULL intercomm");
    }
    let inter = w.comm_join(fd)?;
    write_out(intercomm, handles::derived_comm(inter, MPI_COMM_WORLD))
}

pub(crate) unsafe fn comm_disconnect(comm: *mut MPI_Comm) -> Result<()> {
    let w = shim::world()?;
    if comm.is_null() {
        return mpi_err!(Arg, "NULL communicator pointer");
    }
    let c = handles::comm(*comm)?;
    if matches!(*comm, MPI_COMM_WORLD | MPI_COMM_SELF) {
        return mpi_err!(Comm, "cannot disconnect a predefined communicator");
    }
    w.comm_disconnect(&c)?;
    attr::delete_all(*comm)?;
    forget_parent(*comm);
    super::bsend::comm_freed(*comm);
    handles::free_comm(*comm)?;
    *comm = MPI_COMM_NULL;
    drop(c);
    // The links to other jobs that no communicator needs now close.
    w.release_links(handles::peers_in_use(w.size), PARENT.unmade());
    Ok(())
}

/// The parent intercommunicator's handle.
static PARENT: ParentHandle<MPI_Comm> = ParentHandle::new();

/// `comm` is being freed (MPI_Comm_free, MPI_Comm_disconnect): if it is the parent's,
/// MPI_Comm_get_parent answers MPI_COMM_NULL from now on.
pub fn forget_parent(comm: MPI_Comm) {
    PARENT.forget(comm);
}

pub(crate) unsafe fn comm_get_parent(parent: *mut MPI_Comm) -> Result<()> {
    let w = shim::world()?;
    let h = PARENT.get(w.parent.get(), |c| {
        let h = handles::derived_comm(c.clone(), MPI_COMM_WORLD);
        // Its default name (MPI-4.1 §7.8), as the predefined communicators have theirs.
        let _ = handles::with_comm_entry(h, |e| e.name = "MPI_COMM_PARENT".into());
        h
    });
    write_out(parent, h.unwrap_or(MPI_COMM_NULL))
}

/// A NULL-terminated argv (MPI_ARGV_NULL: none).
unsafe fn argv_arg(argv: *mut *mut c_char) -> Vec<String> {
    let mut out = Vec::new();
    if argv.is_null() {
        return out;
    }
    let mut i = 0;
    while !(*argv.add(i)).is_null() {
        out.push(CStr::from_ptr(*argv.add(i)).to_string_lossy().into_owned());
        i += 1;
    }
    out
}

/// The spawn calls' shared part: `cmds` is read at the root only (as MPI says).
pub(crate) unsafe fn spawn_call(
    count: c_int,
    cmds: impl FnOnce() -> Result<Vec<SpawnCmd>>,
    root: c_int,
    comm: MPI_Comm,
    intercomm: *mut MPI_Comm,
    errcodes: *mut c_int,
) -> Result<()> {
    let w = shim::world()?;
    let (c, root) = collective_args(comm, root, intercomm)?;
    let inter = w.comm_spawn(count, cmds, &c, root)?;
    // One code per process started: all of them, or the call failed.
    if !errcodes.is_null() {
        for i in 0..inter.peers.size() {
            *errcodes.add(i) = MPI_SUCCESS;
        }
    }
    write_out(intercomm, handles::derived_comm(inter, comm))
}

/// One spawn command's arguments, checked.
pub(crate) unsafe fn spawn_cmd(
    command: *const c_char,
    argv: *mut *mut c_char,
    maxprocs: c_int,
    info: MPI_Info,
) -> Result<SpawnCmd> {
    let mut cmd = SpawnCmd::new(c_string(command, "command")?, argv_arg(argv), maxprocs)?;
    if info != MPI_INFO_NULL {
        cmd.info = super::info::pairs(info)?;
    }
    Ok(cmd)
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn spawn_multiple(
    count: c_int,
    array_of_commands: *mut *mut c_char,
    array_of_argv: *mut *mut *mut c_char,
    array_of_maxprocs: *const c_int,
    array_of_info: *const MPI_Info,
    root: c_int,
    comm: MPI_Comm,
    intercomm: *mut MPI_Comm,
    array_of_errcodes: *mut c_int,
) -> Result<()> {
    let cmds = || {
        if array_of_commands.is_null() || array_of_maxprocs.is_null() || array_of_info.is_null() {
            return mpi_err!(Arg, "NULL array of commands, maxprocs or info");
        }
        (0..count as usize)
            .map(|i| {
                let argv = match array_of_argv.is_null() {
                    true => std::ptr::null_mut(),
                    false => *array_of_argv.add(i),
                };
                spawn_cmd(
                    *array_of_commands.add(i),
                    argv,
                    *array_of_maxprocs.add(i),
                    *array_of_info.add(i),
                )
            })
            .collect()
    };
    spawn_call(count, cmds, root, comm, intercomm, array_of_errcodes)
}

pub(crate) unsafe fn publish_name(
    service_name: *const c_char,
    info: MPI_Info,
    port_name: *const c_char,
) -> Result<()> {
    let w = shim::world()?;
    super::info::check(info)?;
    w.publish_name(
        &c_string(service_name, "service name")?,
        &c_string(port_name, "port name")?,
    )
}

pub(crate) unsafe fn unpublish_name(
    service_name: *const c_char,
    info: MPI_Info,
    port_name: *const c_char,
) -> Result<()> {
    let w = shim::world()?;
    super::info::check(info)?;
    c_string(port_name, "port name")?;
    w.unpublish_name(&c_string(service_name, "service name")?)
}

pub(crate) unsafe fn lookup_name(
    service_name: *const c_char,
    info: MPI_Info,
    port_name: *mut c_char,
) -> Result<()> {
    let w = shim::world()?;
    super::info::check(info)?;
    if port_name.is_null() {
        return mpi_err!(Arg, "NULL port name buffer");
    }
    let port = w.lookup_name(&c_string(service_name, "service name")?)?;
    write_out_str(
        &port,
        port_name,
        MPI_MAX_PORT_NAME as usize,
        std::ptr::null_mut(),
    )
}
