//! Partitioned communication's C side (MPI-4.0 §4): MPI_Psend_init / MPI_Precv_init make a
//! persistent request over a `runtime::partitioned` channel; MPI_Start opens a round,
//! MPI_Pready(_range, _list) send partitions, MPI_Parrived looks at one, and the wait and
//! test families complete the round (`requests`).

use super::args;
use super::consts::*;
use super::handles;
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::partitioned::{self, Ends, Layout, Part, PartRef, RecvChan, SendChan};
use crate::runtime::requests::{self, Entry};
use parking_lot::Mutex;
use std::os::raw::{c_int, c_void};
use std::sync::Arc;

/// The channel behind a request handle (MPI_ERR_REQUEST for any other).
fn part(h: MPI_Request) -> Result<PartRef> {
    match handles::request_index(h).and_then(requests::partitioned) {
        Some(p) => Ok(p),
        None => mpi_err!(Request, "{h:#x} is not a partitioned request"),
    }
}

/// MPI_Psend_init (`send`) and MPI_Precv_init: `partitions` x `count` elements of
/// `datatype` at `buf`, to or from `peer`.
///
/// # Safety
/// MPI's: the buffer stays valid while the request exists; `request` is valid.
#[allow(clippy::too_many_arguments)]
pub unsafe fn init(
    buf: *const c_void,
    partitions: c_int,
    count: usize,
    datatype: MPI_Datatype,
    peer: c_int,
    tag: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
    send: bool,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm_arc(comm)?;
    let ty = handles::datatype(datatype)?;
    super::info::check(info)?;
    if partitions < 1 {
        return mpi_err!(Arg, "{partitions} partitions: at least one is needed");
    }
    let partitions = partitions as usize;
    let total = partitions.checked_mul(count);
    let Some(total) = total else {
        return mpi_err!(Count, "{partitions} x {count} elements overflow");
    };
    args::buffer(buf, total, &ty)?;
    args::bytes(total, &ty)?;
    let tag = args::send_tag(tag)?;
    let peer = args::dest(&c, peer)?;
    let dt: crate::datatype::Datatype = (*ty).clone();
    let addr = buf as usize;
    let ends = w.progress.with(|e| Ends::new(e, c, peer, tag, send));
    let layout = Layout {
        addr,
        parts: partitions,
        count,
        ty: dt,
    };
    let p = match send {
        true => Part::Send(SendChan::new(ends, layout, w.thread_level_multiple)),
        false => Part::Recv(RecvChan::new(ends, layout)),
    };
    let h = handles::new_request(Entry::Partitioned {
        part: Arc::new(Mutex::new(p)),
        owner: handles::comm_owner(comm),
    });
    write_out(request, h)
}

/// MPI_Pready_range (MPI_Pready: `low` = `high`).
pub fn pready_range(low: c_int, high: c_int, request: MPI_Request) -> Result<()> {
    let w = shim::world()?;
    let p = part(request)?;
    if low < 0 || high < low {
        return mpi_err!(Arg, "invalid partition range {low}..={high}");
    }
    for i in low..=high {
        // Packed under the channel's lock, sent without it (see `SendChan::pready`).
        let out = match &mut *p.lock() {
            Part::Send(s) => s.pready(i as usize)?,
            Part::Recv(_) => return mpi_err!(Request, "MPI_Pready on a partitioned receive"),
        };
        if let Some(sent) = out.and_then(|o| partitioned::send_partition(w, o)) {
            if let Part::Send(s) = &mut *p.lock() {
                s.sending(sent);
            }
        }
    }
    Ok(())
}

/// MPI_Pready.
pub fn pready(partition: c_int, request: MPI_Request) -> Result<()> {
    pready_range(partition, partition, request)
}

/// MPI_Pready_list.
///
/// # Safety
/// `partitions` holds `length` ints.
pub unsafe fn pready_list(
    length: c_int,
    partitions: *const c_int,
    request: MPI_Request,
) -> Result<()> {
    let Ok(length) = usize::try_from(length) else {
        return mpi_err!(Arg, "negative length {length}");
    };
    for p in args::ints(partitions, length, "array_of_partitions")? {
        let p = c_int::try_from(p).unwrap_or(-1);
        pready_range(p, p, request)?;
    }
    Ok(())
}

/// MPI_Parrived.
///
/// # Safety
/// `flag` is NULL or valid for writing.
pub unsafe fn parrived(request: MPI_Request, partition: c_int, flag: *mut c_int) -> Result<()> {
    let w = shim::world()?;
    let p = part(request)?;
    let Ok(q) = usize::try_from(partition) else {
        return mpi_err!(Arg, "invalid partition {partition}");
    };
    let got = w.progress.with(|e| match &mut *p.lock() {
        Part::Recv(r) => r.parrived(e, q),
        Part::Send(_) => mpi_err!(Request, "MPI_Parrived on a partitioned send"),
    })?;
    write_out(flag, got as c_int)
}
