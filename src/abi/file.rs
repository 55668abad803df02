//! MPI-IO's C surface (MPI-3.1 chapter 13) over `crate::io`: file handles with what C
//! keeps of a view (its type handles) and their error handlers, C strings, statuses and
//! requests. Errors of MPI_File_open and MPI_File_delete go to MPI_FILE_NULL's error
//! handler, every other call's to its file's.
//!
//! Nonblocking calls (MPI_File_iread, MPI_File_iwrite_at_all, ...) do their I/O at once
//! and return a request that is already complete (an engine request holding the status),
//! which the wait and test families handle like any other.

use super::args;
use super::consts::*;
use super::handles::{self, FileEntry, KeptType};
use super::shim::{self, write_out, write_out_str};
use crate::error::Result;
use crate::io::{self, Datarep};
pub use crate::io::{Place, Split};
use crate::mpi_err;
use crate::pt2pt::Status;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::Arc;

/// A C string argument (NULL: MPI_ERR_ARG naming `what`), as the other slices' shims read
/// theirs too.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string.
pub(crate) unsafe fn c_string(s: *const c_char, what: &str) -> Result<String> {
    if s.is_null() {
        return mpi_err!(Arg, "NULL {what}");
    }
    Ok(CStr::from_ptr(s).to_string_lossy().into_owned())
}

fn io_status(bytes: usize) -> Status {
    Status::received(MPI_UNDEFINED, MPI_UNDEFINED, bytes, bytes)
}

pub(crate) unsafe fn open(
    comm: MPI_Comm,
    filename: *const c_char,
    amode: c_int,
    info: MPI_Info,
    fh: *mut MPI_File,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    args::intra(&c)?;
    if fh.is_null() {
        return mpi_err!(Arg, "NULL file handle pointer");
    }
    // A failed open leaves MPI_FILE_NULL (as ROMIO), not what the caller had there.
    write_out(fh, MPI_FILE_NULL)?;
    let path = c_string(filename, "file name")?;
    let pairs = super::info::pairs(info)?;
    let file = io::File::open(w, &c, &path, amode, &pairs)?;
    let private = handles::new_comm(file.comm.clone(), MPI_ERRORS_RETURN);
    let byte = handles::datatype(MPI_BYTE)?.to_kept();
    let h = handles::new_file(FileEntry {
        file: Arc::new(file),
        errhandler: *handles::FILE_NULL_ERRHANDLER.lock(),
        etype: (MPI_BYTE, byte.clone()),
        filetype: (MPI_BYTE, byte),
        comm: private,
    });
    write_out(fh, h)
}

pub(crate) unsafe fn close(fh: *mut MPI_File) -> Result<()> {
    let h = if fh.is_null() { MPI_FILE_NULL } else { *fh };
    let w = shim::world()?;
    if fh.is_null() {
        return mpi_err!(Arg, "NULL file handle pointer");
    }
    let f = handles::file(h)?;
    // The handle goes whatever the outcome (a failed delete-on-close included): the
    // collective part of closing has run on every process.
    let r = f.close(w);
    let e = handles::remove_file(h)?;
    let _ = handles::free_comm(e.comm);
    *fh = MPI_FILE_NULL;
    r
}

pub(crate) unsafe fn delete(filename: *const c_char, info: MPI_Info) -> Result<()> {
    shim::world()?;
    let path = c_string(filename, "file name")?;
    super::info::check(info)?;
    io::File::delete(&path)
}

// ------------------------------------------------------------------ views

pub(crate) unsafe fn set_view(
    fh: MPI_File,
    disp: MPI_Offset,
    etype: MPI_Datatype,
    filetype: MPI_Datatype,
    datarep: *const c_char,
    info: MPI_Info,
) -> Result<()> {
    let w = shim::world()?;
    let f = handles::file(fh)?;
    let et = handles::datatype(etype)?;
    let ft = handles::datatype(filetype)?;
    let rep = Datarep::parse(&c_string(datarep, "data representation")?)?;
    let pairs = super::info::pairs(info)?;
    let disp = (disp != MPI_DISPLACEMENT_CURRENT as MPI_Offset).then_some(disp);
    f.set_view(w, disp, &et, &ft, rep, &pairs)?;
    handles::with_file_entry(fh, |e| {
        e.etype = (etype, et.to_kept());
        e.filetype = (filetype, ft.to_kept());
    })
}

/// The handle MPI_File_get_view returns for a view type: a predefined one as is, a
/// derived one as a new handle to a copy (the application frees it).
fn view_type(h: MPI_Datatype, t: &KeptType) -> MPI_Datatype {
    match t {
        KeptType::Builtin(_) => h,
        KeptType::Derived(d) => handles::new_datatype((**d).clone()),
    }
}

pub(crate) unsafe fn get_view(
    fh: MPI_File,
    disp: *mut MPI_Offset,
    etype: *mut MPI_Datatype,
    filetype: *mut MPI_Datatype,
    datarep: *mut c_char,
) -> Result<()> {
    let f = handles::file(fh)?;
    if disp.is_null() || etype.is_null() || filetype.is_null() || datarep.is_null() {
        return mpi_err!(Arg, "NULL output argument");
    }
    let (d, rep) = f.view_disp_datarep();
    let (et, ft) = handles::with_file_entry(fh, |e| (e.etype.clone(), e.filetype.clone()))?;
    write_out(disp, d as MPI_Offset)?;
    write_out(etype, view_type(et.0, &et.1))?;
    write_out(filetype, view_type(ft.0, &ft.1))?;
    write_out_str(
        rep.name(),
        datarep,
        MPI_MAX_DATAREP_STRING as usize,
        std::ptr::null_mut(),
    )
}

// ------------------------------------------------------------------ data access

/// One data access call: checks, then the I/O; the bytes moved (`status` writes them).
///
/// # Safety
/// `buf` holds (for a write) or has room for (a read) `count` elements of `datatype`.
pub(crate) unsafe fn access(
    fh: MPI_File,
    place: Place,
    buf: *const c_void,
    count: usize,
    datatype: MPI_Datatype,
    write: bool,
    coll: bool,
) -> Result<usize> {
    let w = shim::world()?;
    let f = handles::file(fh)?;
    let pos = place.pos()?;
    let ty = handles::datatype(datatype)?;
    args::buffer(buf, count, &ty)?;
    args::bytes(count, &ty)?;
    if write {
        f.write(w, pos, buf as *const u8, count, &ty, coll)
    } else {
        f.read(w, pos, buf as *mut u8, count, &ty, coll)
    }
}

/// Writes the status of a data access call that moved `bytes`.
///
/// # Safety
/// `status` is MPI_STATUS_IGNORE or valid for writing.
pub(crate) unsafe fn status(status: *mut MPI_Status, bytes: usize) {
    args::write_single_status(status, &io_status(bytes), MPI_SUCCESS);
}

/// The request of a nonblocking data access call, which moved `bytes` at once: complete.
///
/// # Safety
/// `request` is NULL or valid for writing.
pub(crate) unsafe fn request(request: *mut MPI_Request, bytes: usize) -> Result<()> {
    let id = shim::world()?.completed_request(io_status(bytes));
    let started = crate::runtime::p2p::Started::Pending(id);
    write_out(
        request,
        super::requests::handle_for(started, handles::comm_owner(MPI_COMM_SELF))?,
    )
}

// ------------------------------------------------------------------ error handlers

// MPI-3.1 names the file of these two `file` (mpi_f08's keyword arguments follow it).
pub(crate) unsafe fn set_errhandler(file: MPI_File, errhandler: MPI_Errhandler) -> Result<()> {
    if !handles::valid_errhandler(errhandler) {
        return mpi_err!(Arg, "invalid error handler {errhandler:#x}");
    }
    if file == MPI_FILE_NULL {
        *handles::FILE_NULL_ERRHANDLER.lock() = errhandler;
    } else {
        handles::with_file_entry(file, |e| e.errhandler = errhandler)?;
    }
    handles::retain_errhandler(errhandler);
    Ok(())
}

pub(crate) unsafe fn get_errhandler(file: MPI_File, errhandler: *mut MPI_Errhandler) -> Result<()> {
    let h = if file == MPI_FILE_NULL {
        *handles::FILE_NULL_ERRHANDLER.lock()
    } else {
        handles::with_file_entry(file, |e| e.errhandler)?
    };
    write_out(errhandler, h)?;
    handles::retain_errhandler(h);
    Ok(())
}

/// MPI_File_call_errhandler (`bare`: the handler runs with the application's code).
pub(crate) unsafe fn call_errhandler(fh: MPI_File, errorcode: c_int) -> c_int {
    if fh != MPI_FILE_NULL && handles::file(fh).is_err() {
        return MPI_ERR_FILE;
    }
    super::errors::raise_file_code(
        "MPI_File_call_errhandler",
        fh,
        errorcode,
        &format!("error code {errorcode} raised by the application"),
    );
    MPI_SUCCESS
}

// ------------------------------------------------------------------ Fortran handles

/// The Fortran integer of a file handle: its table slot plus one (0: MPI_FILE_NULL).
#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_File_c2f")]
pub extern "C" fn PMPI_File_c2f(fh: MPI_File) -> MPI_Fint {
    handles::file_slot(fh).map_or(0, |i| i as MPI_Fint + 1)
}

#[no_mangle]
#[cfg_attr(feature = "std-abi", export_name = "MPICH_PMPI_File_f2c")]
pub extern "C" fn PMPI_File_f2c(fh: MPI_Fint) -> MPI_File {
    if fh <= 0 {
        return MPI_FILE_NULL;
    }
    handles::file_handle(fh as usize - 1)
}
