//! Persistent collective operations (MPI-4.0 §6.13, which MPICH 4 builds link): the
//! `_init` call checks the communicator, info and request arguments, keeps the call's
//! arguments and takes the call's collective sequence number (the order of the `_init`
//! calls is what must match across ranks, not the order of the starts); every MPI_Start
//! runs the matching nonblocking collective on them under that number (its arguments are
//! checked then). Buffers and arrays stay the
//! application's until the request is freed, as MPI says; pointers are kept as addresses.

use super::coll::{
    PMPI_Iallgather, PMPI_Iallgatherv, PMPI_Iallreduce, PMPI_Ialltoall, PMPI_Ialltoallv,
    PMPI_Ialltoallw, PMPI_Ibarrier, PMPI_Ibcast, PMPI_Iexscan, PMPI_Igather, PMPI_Igatherv,
    PMPI_Ineighbor_allgather, PMPI_Ineighbor_allgatherv, PMPI_Ineighbor_alltoall,
    PMPI_Ineighbor_alltoallv, PMPI_Ineighbor_alltoallw, PMPI_Ireduce, PMPI_Ireduce_scatter,
    PMPI_Ireduce_scatter_block, PMPI_Iscan, PMPI_Iscatter, PMPI_Iscatterv,
};
use super::consts::*;
use super::handles::{self, RequestEntry};
use super::info;
use super::shim::{self, run, write_out};
use crate::coll::schedule::with_pinned_seq;
use crate::mpi_err;
use std::os::raw::{c_int, c_void};
use std::sync::Arc;

/// Starts one round: the nonblocking collective, writing its request.
pub type StartColl = Arc<dyn Fn(*mut MPI_Request) -> c_int + Send + Sync>;

/// The body of every `_init` call.
///
/// # Safety
/// `request` is NULL or valid for writing.
unsafe fn init(
    func: &'static str,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
    start: StartColl,
) -> c_int {
    run(func, comm, || {
        shim::world()?;
        let c = handles::comm(comm)?;
        info::check(info)?;
        if request.is_null() {
            return mpi_err!(Arg, "NULL request pointer");
        }
        // Its place in the collective order is taken now; every round runs under it.
        let seq = c.next_coll_seq();
        let start: StartColl = Arc::new(move |r| with_pinned_seq(seq, || start(r)));
        write_out(
            request,
            handles::new_request(RequestEntry::PersistentColl {
                start,
                active: None,
                comm,
            }),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Barrier_init(
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    init(
        "MPI_Barrier_init",
        comm,
        info,
        request,
        Arc::new(move |r| PMPI_Ibarrier(comm, r)),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Bcast_init(
    buffer: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let buffer = buffer as usize;
    init(
        "MPI_Bcast_init",
        comm,
        info,
        request,
        Arc::new(move |r| PMPI_Ibcast(buffer as *mut c_void, count, datatype, root, comm, r)),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Gather_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Gather_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Igather(
                sendbuf as *const c_void,
                sendcount,
                sendtype,
                recvbuf as *mut c_void,
                recvcount,
                recvtype,
                root,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Gatherv_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    let recvcounts = recvcounts as usize;
    let displs = displs as usize;
    init(
        "MPI_Gatherv_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Igatherv(
                sendbuf as *const c_void,
                sendcount,
                sendtype,
                recvbuf as *mut c_void,
                recvcounts as *const c_int,
                displs as *const c_int,
                recvtype,
                root,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Scatter_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Scatter_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Iscatter(
                sendbuf as *const c_void,
                sendcount,
                sendtype,
                recvbuf as *mut c_void,
                recvcount,
                recvtype,
                root,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Scatterv_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    displs: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let sendcounts = sendcounts as usize;
    let displs = displs as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Scatterv_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Iscatterv(
                sendbuf as *const c_void,
                sendcounts as *const c_int,
                displs as *const c_int,
                sendtype,
                recvbuf as *mut c_void,
                recvcount,
                recvtype,
                root,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Allgather_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Allgather_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Iallgather(
                sendbuf as *const c_void,
                sendcount,
                sendtype,
                recvbuf as *mut c_void,
                recvcount,
                recvtype,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Allgatherv_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    let recvcounts = recvcounts as usize;
    let displs = displs as usize;
    init(
        "MPI_Allgatherv_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Iallgatherv(
                sendbuf as *const c_void,
                sendcount,
                sendtype,
                recvbuf as *mut c_void,
                recvcounts as *const c_int,
                displs as *const c_int,
                recvtype,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Alltoall_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Alltoall_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ialltoall(
                sendbuf as *const c_void,
                sendcount,
                sendtype,
                recvbuf as *mut c_void,
                recvcount,
                recvtype,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Alltoallv_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let sendcounts = sendcounts as usize;
    let sdispls = sdispls as usize;
    let recvbuf = recvbuf as usize;
    let recvcounts = recvcounts as usize;
    let rdispls = rdispls as usize;
    init(
        "MPI_Alltoallv_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ialltoallv(
                sendbuf as *const c_void,
                sendcounts as *const c_int,
                sdispls as *const c_int,
                sendtype,
                recvbuf as *mut c_void,
                recvcounts as *const c_int,
                rdispls as *const c_int,
                recvtype,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Alltoallw_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let sendcounts = sendcounts as usize;
    let sdispls = sdispls as usize;
    let sendtypes = sendtypes as usize;
    let recvbuf = recvbuf as usize;
    let recvcounts = recvcounts as usize;
    let rdispls = rdispls as usize;
    let recvtypes = recvtypes as usize;
    init(
        "MPI_Alltoallw_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ialltoallw(
                sendbuf as *const c_void,
                sendcounts as *const c_int,
                sdispls as *const c_int,
                sendtypes as *const MPI_Datatype,
                recvbuf as *mut c_void,
                recvcounts as *const c_int,
                rdispls as *const c_int,
                recvtypes as *const MPI_Datatype,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Reduce_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Reduce_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ireduce(
                sendbuf as *const c_void,
                recvbuf as *mut c_void,
                count,
                datatype,
                op,
                root,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Allreduce_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Allreduce_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Iallreduce(
                sendbuf as *const c_void,
                recvbuf as *mut c_void,
                count,
                datatype,
                op,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Reduce_scatter_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    let recvcounts = recvcounts as usize;
    init(
        "MPI_Reduce_scatter_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ireduce_scatter(
                sendbuf as *const c_void,
                recvbuf as *mut c_void,
                recvcounts as *const c_int,
                datatype,
                op,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Reduce_scatter_block_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Reduce_scatter_block_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ireduce_scatter_block(
                sendbuf as *const c_void,
                recvbuf as *mut c_void,
                recvcount,
                datatype,
                op,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Scan_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Scan_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Iscan(
                sendbuf as *const c_void,
                recvbuf as *mut c_void,
                count,
                datatype,
                op,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Exscan_init(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Exscan_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Iexscan(
                sendbuf as *const c_void,
                recvbuf as *mut c_void,
                count,
                datatype,
                op,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Neighbor_allgather_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Neighbor_allgather_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ineighbor_allgather(
                sendbuf as *const c_void,
                sendcount,
                sendtype,
                recvbuf as *mut c_void,
                recvcount,
                recvtype,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Neighbor_allgatherv_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    let recvcounts = recvcounts as usize;
    let displs = displs as usize;
    init(
        "MPI_Neighbor_allgatherv_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ineighbor_allgatherv(
                sendbuf as *const c_void,
                sendcount,
                sendtype,
                recvbuf as *mut c_void,
                recvcounts as *const c_int,
                displs as *const c_int,
                recvtype,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Neighbor_alltoall_init(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init(
        "MPI_Neighbor_alltoall_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ineighbor_alltoall(
                sendbuf as *const c_void,
                sendcount,
                sendtype,
                recvbuf as *mut c_void,
                recvcount,
                recvtype,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Neighbor_alltoallv_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let sendcounts = sendcounts as usize;
    let sdispls = sdispls as usize;
    let recvbuf = recvbuf as usize;
    let recvcounts = recvcounts as usize;
    let rdispls = rdispls as usize;
    init(
        "MPI_Neighbor_alltoallv_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ineighbor_alltoallv(
                sendbuf as *const c_void,
                sendcounts as *const c_int,
                sdispls as *const c_int,
                sendtype,
                recvbuf as *mut c_void,
                recvcounts as *const c_int,
                rdispls as *const c_int,
                recvtype,
                comm,
                r,
            )
        }),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Neighbor_alltoallw_init(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    let sendbuf = sendbuf as usize;
    let sendcounts = sendcounts as usize;
    let sdispls = sdispls as usize;
    let sendtypes = sendtypes as usize;
    let recvbuf = recvbuf as usize;
    let recvcounts = recvcounts as usize;
    let rdispls = rdispls as usize;
    let recvtypes = recvtypes as usize;
    init(
        "MPI_Neighbor_alltoallw_init",
        comm,
        info,
        request,
        Arc::new(move |r| {
            PMPI_Ineighbor_alltoallw(
                sendbuf as *const c_void,
                sendcounts as *const c_int,
                sdispls as *const MPI_Aint,
                sendtypes as *const MPI_Datatype,
                recvbuf as *mut c_void,
                recvcounts as *const c_int,
                rdispls as *const MPI_Aint,
                recvtypes as *const MPI_Datatype,
                comm,
                r,
            )
        }),
    )
}
