//! Persistent collective operations (MPI-4.0 §6.13, which MPICH 4 builds link): the
//! `_init` call checks the communicator, info and request arguments, keeps the call's
//! arguments and takes the call's collective sequence number (the order of the `_init`
//! calls is what must match across ranks, not the order of the starts); every MPI_Start
//! runs the matching nonblocking collective on them under that number (its arguments are
//! checked then). Buffers stay the application's until the request is freed, as MPI says
//! (their pointers are kept as addresses); the count, displacement and type arrays are
//! copied at the `_init` (`Kept`).

use super::coll::{
    in_place, PMPI_Iallgather, PMPI_Iallgatherv, PMPI_Ialltoall, PMPI_Ialltoallv, PMPI_Ialltoallw,
    PMPI_Ibarrier, PMPI_Igather, PMPI_Igatherv, PMPI_Ineighbor_allgather,
    PMPI_Ineighbor_allgatherv, PMPI_Ineighbor_alltoall, PMPI_Ineighbor_alltoallv,
    PMPI_Ineighbor_alltoallw, PMPI_Ireduce_scatter, PMPI_Ireduce_scatter_block, PMPI_Iscatter,
    PMPI_Iscatterv,
};
use super::consts::*;
use super::entry_points::{PMPI_Iallreduce, PMPI_Ibcast, PMPI_Iexscan, PMPI_Ireduce, PMPI_Iscan};
use super::handles::{self, RequestEntry};
use super::info;
use super::shim::{self, run, write_out};
use crate::coll::{self, schedule::with_pinned_seq};
use crate::error::Result;
use crate::mpi_err;
use std::os::raw::{c_int, c_void};
use std::sync::Arc;

/// Starts one round: the nonblocking collective, writing its request.
pub type StartColl = Arc<dyn Fn(*mut MPI_Request) -> c_int + Send + Sync>;

/// The body of every `_init` call whose arguments are all scalars and buffers.
///
/// # Safety
/// `request` is NULL or valid for writing.
unsafe fn init(
    func: &'static str,
    kind: i32,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
    held: HeldTypes,
    start: StartColl,
) -> c_int {
    init_with(func, kind, comm, info, request, held, |_, _| Ok(start))
}

/// The body of every `_init` call: `make` builds the start from the call's shape (where
/// it copies the array arguments).
///
/// # Safety
/// `request` is NULL or valid for writing.
unsafe fn init_with(
    func: &'static str,
    kind: i32,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
    mut held: HeldTypes,
    make: impl FnOnce(&Shape, &mut HeldTypes) -> Result<StartColl>,
) -> c_int {
    run(func, comm, || {
        shim::world()?;
        let c = handles::comm(comm)?;
        info::check(info)?;
        if request.is_null() {
            return mpi_err!(Arg, "NULL request pointer");
        }
        let start = make(
            &Shape {
                comm,
                rank: c.rank,
                local: c.size(),
                peers: if c.is_inter() {
                    c.peer_size()
                } else {
                    c.size()
                },
                inter: c.is_inter(),
            },
            &mut held,
        )?;
        // Its place in the collective order is taken now; every round runs under it.
        // (In its kind's sequence: `kind` is the one its nonblocking call plans with.)
        let seq = c.next_coll_seq(kind);
        // (`held` lives as long as the request: its types stay valid for every start.)
        let start: StartColl = Arc::new(move |r| {
            let _types = &held;
            with_pinned_seq(kind, seq, || start(r))
        });
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

/// What the array arguments of a call on a communicator are as long as.
struct Shape {
    comm: MPI_Comm,
    rank: usize,
    /// The local group's size.
    local: usize,
    /// The size of the group the v-arrays describe: the remote group of an
    /// intercommunicator, else the communicator's.
    peers: usize,
    inter: bool,
}

impl Shape {
    /// Whether the caller is `root` of a rooted call (`MPI_ROOT` on an intercommunicator).
    fn is_root(&self, root: c_int) -> bool {
        if self.inter {
            root == MPI_ROOT
        } else {
            usize::try_from(root).is_ok_and(|r| r == self.rank)
        }
    }

    /// The neighbourhood's (in, out) degrees (an error without a topology, as the start
    /// would give).
    fn degrees(&self) -> Result<(usize, usize)> {
        let (sources, dests) = super::topo::neighbors(self.comm)?;
        Ok((sources.len(), dests.len()))
    }
}

/// An array argument copied when the request is made: MPI binds a persistent collective's
/// arguments at its `_init`, and callers free the arrays right after (mpi4py's are
/// temporaries, freed once the call returns: starting from the caller's pointers read
/// freed memory: "Invalid count", or a crash). MPICH and Open MPI copy them too.
struct Kept<T>(Option<Box<[T]>>);

impl<T> Kept<T> {
    /// The copy, or NULL where the argument was NULL or not significant.
    fn ptr(&self) -> *const T {
        self.0.as_ref().map_or(std::ptr::null(), |b| b.as_ptr())
    }

    /// The copy (empty where none was made).
    fn as_slice(&self) -> &[T] {
        self.0.as_deref().unwrap_or(&[])
    }
}

/// The derived datatypes a persistent collective names, held (`datatype::hold`) for the
/// request's life: MPI lets the application free them right after the `_init`, as for
/// point-to-point persistent requests, and each start looks its handles up anew.
#[derive(Default)]
struct HeldTypes(Vec<MPI_Datatype>);

impl HeldTypes {
    /// Hold those of `types` that are derived types (predefined, NULL or invalid handles
    /// are left to the start to judge).
    fn of(types: &[MPI_Datatype]) -> HeldTypes {
        let mut held = HeldTypes::default();
        held.hold_all(types);
        held
    }

    fn hold_all(&mut self, types: &[MPI_Datatype]) {
        for &t in types {
            if super::datatype::hold(t) {
                self.0.push(t);
            }
        }
    }
}

impl Drop for HeldTypes {
    fn drop(&mut self) {
        for &t in &self.0 {
            super::datatype::release_held(t);
        }
    }
}

/// `n` elements at `p`, copied where `significant` (a root's receive counts, say; a
/// non-root's are not read, and may be anything) and `p` is not NULL (the start then
/// reports it).
///
/// # Safety
/// Where significant and not NULL, `p` holds `n` elements (MPI's contract).
unsafe fn keep<T: Copy>(p: *const T, n: usize, significant: bool) -> Kept<T> {
    if p.is_null() || !significant {
        return Kept(None);
    }
    // SAFETY: the caller's contract.
    Kept(Some(unsafe { std::slice::from_raw_parts(p, n) }.into()))
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Barrier_init(
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> c_int {
    init(
        "MPI_Barrier_init",
        coll::KIND_BARRIER,
        comm,
        info,
        request,
        HeldTypes::default(),
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
        coll::KIND_BCAST,
        comm,
        info,
        request,
        HeldTypes::of(&[datatype]),
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
        coll::KIND_GATHER,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
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
    init_with(
        "MPI_Gatherv_init",
        coll::KIND_GATHER,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
        |s, _| {
            let at_root = s.is_root(root);
            let recvcounts = keep(recvcounts, s.peers, at_root);
            let displs = keep(displs, s.peers, at_root);
            Ok(Arc::new(move |r| {
                PMPI_Igatherv(
                    sendbuf as *const c_void,
                    sendcount,
                    sendtype,
                    recvbuf as *mut c_void,
                    recvcounts.ptr(),
                    displs.ptr(),
                    recvtype,
                    root,
                    comm,
                    r,
                )
            }))
        },
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
        coll::KIND_SCATTER,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
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
    let recvbuf = recvbuf as usize;
    init_with(
        "MPI_Scatterv_init",
        coll::KIND_SCATTER,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
        |s, _| {
            let at_root = s.is_root(root);
            let sendcounts = keep(sendcounts, s.peers, at_root);
            let displs = keep(displs, s.peers, at_root);
            Ok(Arc::new(move |r| {
                PMPI_Iscatterv(
                    sendbuf as *const c_void,
                    sendcounts.ptr(),
                    displs.ptr(),
                    sendtype,
                    recvbuf as *mut c_void,
                    recvcount,
                    recvtype,
                    root,
                    comm,
                    r,
                )
            }))
        },
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
        coll::KIND_ALLGATHER,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
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
    init_with(
        "MPI_Allgatherv_init",
        coll::KIND_ALLGATHER,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
        |s, _| {
            let recvcounts = keep(recvcounts, s.peers, true);
            let displs = keep(displs, s.peers, true);
            Ok(Arc::new(move |r| {
                PMPI_Iallgatherv(
                    sendbuf as *const c_void,
                    sendcount,
                    sendtype,
                    recvbuf as *mut c_void,
                    recvcounts.ptr(),
                    displs.ptr(),
                    recvtype,
                    comm,
                    r,
                )
            }))
        },
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
        coll::KIND_ALLTOALL,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
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
    let sends = !in_place(sendbuf);
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init_with(
        "MPI_Alltoallv_init",
        coll::KIND_ALLTOALL,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
        |s, _| {
            let sendcounts = keep(sendcounts, s.peers, sends);
            let sdispls = keep(sdispls, s.peers, sends);
            let recvcounts = keep(recvcounts, s.peers, true);
            let rdispls = keep(rdispls, s.peers, true);
            Ok(Arc::new(move |r| {
                PMPI_Ialltoallv(
                    sendbuf as *const c_void,
                    sendcounts.ptr(),
                    sdispls.ptr(),
                    sendtype,
                    recvbuf as *mut c_void,
                    recvcounts.ptr(),
                    rdispls.ptr(),
                    recvtype,
                    comm,
                    r,
                )
            }))
        },
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
    let sends = !in_place(sendbuf);
    let sendbuf = sendbuf as usize;
    let recvbuf = recvbuf as usize;
    init_with(
        "MPI_Alltoallw_init",
        coll::KIND_ALLTOALL,
        comm,
        info,
        request,
        HeldTypes::default(),
        |s, held| {
            let sendcounts = keep(sendcounts, s.peers, sends);
            let sdispls = keep(sdispls, s.peers, sends);
            let sendtypes = keep(sendtypes, s.peers, sends);
            held.hold_all(sendtypes.as_slice());
            let recvcounts = keep(recvcounts, s.peers, true);
            let rdispls = keep(rdispls, s.peers, true);
            let recvtypes = keep(recvtypes, s.peers, true);
            held.hold_all(recvtypes.as_slice());
            Ok(Arc::new(move |r| {
                PMPI_Ialltoallw(
                    sendbuf as *const c_void,
                    sendcounts.ptr(),
                    sdispls.ptr(),
                    sendtypes.ptr(),
                    recvbuf as *mut c_void,
                    recvcounts.ptr(),
                    rdispls.ptr(),
                    recvtypes.ptr(),
                    comm,
                    r,
                )
            }))
        },
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
        coll::KIND_REDUCE,
        comm,
        info,
        request,
        HeldTypes::of(&[datatype]),
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
        coll::KIND_ALLREDUCE,
        comm,
        info,
        request,
        HeldTypes::of(&[datatype]),
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
    init_with(
        "MPI_Reduce_scatter_init",
        coll::KIND_REDUCE_SCATTER,
        comm,
        info,
        request,
        HeldTypes::of(&[datatype]),
        |s, _| {
            // One count per member of the local group (which the result is scattered over).
            let recvcounts = keep(recvcounts, s.local, true);
            Ok(Arc::new(move |r| {
                PMPI_Ireduce_scatter(
                    sendbuf as *const c_void,
                    recvbuf as *mut c_void,
                    recvcounts.ptr(),
                    datatype,
                    op,
                    comm,
                    r,
                )
            }))
        },
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
        coll::KIND_REDUCE_SCATTER,
        comm,
        info,
        request,
        HeldTypes::of(&[datatype]),
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
        coll::KIND_SCAN,
        comm,
        info,
        request,
        HeldTypes::of(&[datatype]),
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
        coll::KIND_SCAN,
        comm,
        info,
        request,
        HeldTypes::of(&[datatype]),
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
        coll::KIND_NEIGHBOR,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
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
    init_with(
        "MPI_Neighbor_allgatherv_init",
        coll::KIND_NEIGHBOR,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
        |s, _| {
            let (indegree, _) = s.degrees()?;
            let recvcounts = keep(recvcounts, indegree, true);
            let displs = keep(displs, indegree, true);
            Ok(Arc::new(move |r| {
                PMPI_Ineighbor_allgatherv(
                    sendbuf as *const c_void,
                    sendcount,
                    sendtype,
                    recvbuf as *mut c_void,
                    recvcounts.ptr(),
                    displs.ptr(),
                    recvtype,
                    comm,
                    r,
                )
            }))
        },
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
        coll::KIND_NEIGHBOR,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
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
    let recvbuf = recvbuf as usize;
    init_with(
        "MPI_Neighbor_alltoallv_init",
        coll::KIND_NEIGHBOR,
        comm,
        info,
        request,
        HeldTypes::of(&[sendtype, recvtype]),
        |s, _| {
            let (indegree, outdegree) = s.degrees()?;
            let sendcounts = keep(sendcounts, outdegree, true);
            let sdispls = keep(sdispls, outdegree, true);
            let recvcounts = keep(recvcounts, indegree, true);
            let rdispls = keep(rdispls, indegree, true);
            Ok(Arc::new(move |r| {
                PMPI_Ineighbor_alltoallv(
                    sendbuf as *const c_void,
                    sendcounts.ptr(),
                    sdispls.ptr(),
                    sendtype,
                    recvbuf as *mut c_void,
                    recvcounts.ptr(),
                    rdispls.ptr(),
                    recvtype,
                    comm,
                    r,
                )
            }))
        },
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
    let recvbuf = recvbuf as usize;
    init_with(
        "MPI_Neighbor_alltoallw_init",
        coll::KIND_NEIGHBOR,
        comm,
        info,
        request,
        HeldTypes::default(),
        |s, held| {
            let (indegree, outdegree) = s.degrees()?;
            let sendcounts = keep(sendcounts, outdegree, true);
            let sdispls = keep(sdispls, outdegree, true);
            let sendtypes = keep(sendtypes, outdegree, true);
            held.hold_all(sendtypes.as_slice());
            let recvcounts = keep(recvcounts, indegree, true);
            let rdispls = keep(rdispls, indegree, true);
            let recvtypes = keep(recvtypes, indegree, true);
            held.hold_all(recvtypes.as_slice());
            Ok(Arc::new(move |r| {
                PMPI_Ineighbor_alltoallw(
                    sendbuf as *const c_void,
                    sendcounts.ptr(),
                    sdispls.ptr(),
                    sendtypes.ptr(),
                    recvbuf as *mut c_void,
                    recvcounts.ptr(),
                    rdispls.ptr(),
                    recvtypes.ptr(),
                    comm,
                    r,
                )
            }))
        },
    )
}
