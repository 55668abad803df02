//! Partitioned communication's C side (MPI-4.0 §4): MPI_Psend_init / MPI_Precv_init make a
//! persistent request over a `runtime::partitioned` channel; MPI_Start opens a round,
//! MPI_Pready(_range, _list) send partitions, MPI_Parrived looks at one (table lines over
//! `part` and the core's calls), and the wait and test families complete the round.

use super::args;
use super::consts::*;
use super::handles;
use super::shim::{self, write_out};
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::partitioned::{self, PartRef};
use crate::runtime::requests::{self, Entry};
use std::os::raw::{c_int, c_void};

/// The channel behind a request handle (MPI_ERR_REQUEST for any other).
pub fn part(h: MPI_Request) -> Result<PartRef> {
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
    // Checked where MPICH checks them, after the partitions (`partitioned::init`).
    let (peer, tag) = (args::dest(&c, peer), args::send_tag(tag));
    let p = partitioned::init(w, c, buf as _, partitions, count, &ty, peer, tag, send)?;
    let owner = handles::comm_owner(comm);
    write_out(
        request,
        handles::new_request(Entry::Partitioned { part: p, owner }),
    )
}
