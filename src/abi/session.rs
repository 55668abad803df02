//! The Sessions model's C surface (MPI-4.1 §11.3): session handles, their error handlers
//! and buffers, the process sets' names and infos, and the handles of communicators made
//! from groups; the rules (process sets, string tags, making those communicators) are
//! `runtime::session`'s.
//!
//! A session shares the runtime with the World model (`env::session_opened`): the first of
//! MPI_Init and MPI_Session_init starts it; sessions may be initialised again after all
//! earlier ones were finalised (`runtime::env`'s `Users` says how long the runtime lives).

use super::bsend;
use super::consts::*;
use super::file::c_string;
use super::handles::{self, SessionEntry};
use super::shim::{self, write_out};
use crate::comm::Group;
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::session as psets;
use std::os::raw::{c_char, c_int};
use std::sync::Arc;

/// MPI_Session_init (errors go to `errhandler`: there is no session yet).
///
/// # Safety
/// `session` is NULL or valid for writing.
pub unsafe fn init(
    info: MPI_Info,
    errhandler: MPI_Errhandler,
    session: *mut MPI_Session,
) -> Result<()> {
    super::info::check(info)?;
    if !handles::valid_errhandler(errhandler) {
        return mpi_err!(Arg, "invalid error handler {errhandler:#x}");
    }
    if session.is_null() {
        return mpi_err!(Arg, "NULL session pointer");
    }
    // "thread_level" (MPI-4.1 §11.3.1), checked and heeded by the runtime; the level
    // provided is what it has.
    let asked = match info {
        MPI_INFO_NULL => None,
        i => super::info::get(i, "thread_level")?,
    };
    let w = super::env::session_opened(asked.as_deref())?;
    let thread_level = if w.thread_level_multiple {
        "MPI_THREAD_MULTIPLE"
    } else {
        super::env::thread_level_name()
    };
    handles::retain_errhandler(errhandler);
    let e = SessionEntry {
        errhandler,
        thread_level,
    };
    let mut t = handles::SESSIONS.write();
    let i = match t.iter().position(|s| s.is_none()) {
        Some(i) => {
            t[i] = Some(e);
            i
        }
        None => {
            t.push(Some(e));
            t.len() - 1
        }
    };
    write_out(
        session,
        (MPI_SESSION_NULL as u32 + 1 + i as u32) as MPI_Session,
    )
}

/// MPI_Session_finalize: the session's buffer detached (its sends completed first), the
/// handle gone; the runtime ends with its last user.
///
/// # Safety
/// `session` is NULL or valid.
pub unsafe fn finalize(session: *mut MPI_Session) -> Result<()> {
    if session.is_null() {
        return mpi_err!(Arg, "NULL session pointer");
    }
    let h = *session;
    handles::with_session(h, |_| ())?;
    // Its buffer detached once the sends from it are out.
    bsend::session_closed(h);
    if let Some(i) = handles::session_index(h) {
        handles::SESSIONS.write()[i] = None;
    }
    *session = MPI_SESSION_NULL;
    super::env::session_closed();
    Ok(())
}

/// MPI_Session_get_nth_pset: with `*pset_len` 0 the length the name needs (its NUL
/// included), else the name, cut to `*pset_len - 1` characters, and that length.
///
/// # Safety
/// `pset_len` is NULL or valid; `pset_name` has room for `*pset_len` bytes.
pub unsafe fn get_nth_pset(
    session: MPI_Session,
    info: MPI_Info,
    n: c_int,
    pset_len: *mut c_int,
    pset_name: *mut c_char,
) -> Result<()> {
    handles::with_session(session, |_| ())?;
    super::info::check(info)?;
    let name = psets::nth_pset(n)?;
    if pset_len.is_null() {
        return mpi_err!(Arg, "NULL pset_len");
    }
    let room = *pset_len;
    if room < 0 {
        return mpi_err!(Arg, "negative pset_len {room}");
    }
    if room > 0 {
        if pset_name.is_null() {
            return mpi_err!(Arg, "NULL pset_name");
        }
        let k = name.len().min(room as usize - 1);
        std::ptr::copy_nonoverlapping(name.as_ptr() as *const c_char, pset_name, k);
        *pset_name.add(k) = 0;
    }
    *pset_len = name.len() as c_int + 1;
    Ok(())
}

/// The members of process set `name` (world ranks).
fn pset(name: &str) -> Result<Vec<usize>> {
    let w = shim::world()?;
    psets::pset_members(name, w.rank, w.size)
}

/// MPI_Session_get_pset_info: "mpi_size".
///
/// # Safety
/// `pset_name` is NULL or a string; `info` is NULL or valid for writing.
pub unsafe fn get_pset_info(
    session: MPI_Session,
    pset_name: *const c_char,
    info: *mut MPI_Info,
) -> Result<()> {
    handles::with_session(session, |_| ())?;
    let members = pset(&c_string(pset_name, "pset_name")?)?;
    let pairs = vec![("mpi_size".to_string(), members.len().to_string())];
    write_out(info, handles::new_info(pairs))
}

/// MPI_Group_from_session_pset.
///
/// # Safety
/// As for `get_pset_info`.
pub unsafe fn group_from_pset(
    session: MPI_Session,
    pset_name: *const c_char,
    newgroup: *mut MPI_Group,
) -> Result<()> {
    handles::with_session(session, |_| ())?;
    let members = pset(&c_string(pset_name, "pset_name")?)?;
    if newgroup.is_null() {
        return mpi_err!(Arg, "NULL newgroup");
    }
    let g = handles::new_group_in(Arc::new(Group::new(members)), session);
    write_out(newgroup, g)
}

/// MPI_Comm_create_from_group (`World::comm_from_group`).
///
/// # Safety
/// `stringtag` is NULL or a string; `newcomm` is NULL or valid for writing.
pub unsafe fn comm_create_from_group(
    group: MPI_Group,
    stringtag: *const c_char,
    info: MPI_Info,
    errhandler: MPI_Errhandler,
    newcomm: *mut MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let g = handles::group(group)?;
    let tag = c_string(stringtag, "stringtag")?;
    super::info::check(info)?;
    if !handles::valid_errhandler(errhandler) {
        return mpi_err!(Arg, "invalid error handler {errhandler:#x}");
    }
    if newcomm.is_null() {
        return mpi_err!(Arg, "NULL newcomm");
    }
    let Some(c) = w.comm_from_group(g, &tag)? else {
        return write_out(newcomm, MPI_COMM_NULL);
    };
    handles::retain_errhandler(errhandler);
    let h = handles::new_comm_in(c, errhandler, handles::group_session(group));
    write_out(newcomm, h)
}

/// MPI_Intercomm_create_from_groups (`World::intercomm_from_groups`).
///
/// # Safety
/// As for `comm_create_from_group`.
#[allow(clippy::too_many_arguments)]
pub unsafe fn intercomm_create_from_groups(
    local_group: MPI_Group,
    local_leader: c_int,
    remote_group: MPI_Group,
    remote_leader: c_int,
    stringtag: *const c_char,
    info: MPI_Info,
    errhandler: MPI_Errhandler,
    newintercomm: *mut MPI_Comm,
) -> Result<()> {
    let w = shim::world()?;
    let (lg, rg) = (handles::group(local_group)?, handles::group(remote_group)?);
    let tag_text = c_string(stringtag, "stringtag")?;
    super::info::check(info)?;
    if !handles::valid_errhandler(errhandler) {
        return mpi_err!(Arg, "invalid error handler {errhandler:#x}");
    }
    if newintercomm.is_null() {
        return mpi_err!(Arg, "NULL newintercomm");
    }
    let c = w.intercomm_from_groups(lg, local_leader, &rg, remote_leader, &tag_text)?;
    handles::retain_errhandler(errhandler);
    let session = handles::group_session(local_group);
    write_out(newintercomm, handles::new_comm_in(c, errhandler, session))
}

/// MPI_Session_set_errhandler.
pub fn set_errhandler(session: MPI_Session, errhandler: MPI_Errhandler) -> Result<()> {
    if !handles::valid_errhandler(errhandler) {
        return mpi_err!(Arg, "invalid error handler {errhandler:#x}");
    }
    handles::with_session(session, |e| e.errhandler = errhandler)?;
    handles::retain_errhandler(errhandler);
    Ok(())
}

/// MPI_Session_get_errhandler (the caller owns a reference).
///
/// # Safety
/// `errhandler` is NULL or valid for writing.
pub unsafe fn get_errhandler(session: MPI_Session, errhandler: *mut MPI_Errhandler) -> Result<()> {
    let h = handles::with_session(session, |e| e.errhandler)?;
    write_out(errhandler, h)?;
    handles::retain_errhandler(h);
    Ok(())
}
