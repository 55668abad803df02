//! Persistent collective operations (MPI-4.0 §6.13, which MPICH 4 builds link): the
//! `_init` call checks the communicator, info and request arguments, keeps the call's
//! arguments and takes the call's collective sequence number (the order of the `_init`
//! calls is what must match across ranks, not the order of the starts); every MPI_Start
//! runs the matching nonblocking collective on them under that number (its arguments are
//! checked then). Buffers stay the application's until the request is freed, as MPI says
//! (their pointers are kept as addresses); the count, displacement and type arrays are
//! copied at the `_init` (`Kept`).

use super::args::Int;
use super::coll::{self as shims};
use super::coll_args::{in_place, RecvSpec, Side};
use super::consts::*;
use super::handles;
use super::info;
use super::shim::{self, write_out};
use crate::coll::{self, schedule::with_pinned_seq};
use crate::error::Result;
use crate::runtime::requests::{self, Starter};
use std::os::raw::{c_int, c_void};
use std::sync::Arc;

/// One round of a persistent collective: its nonblocking call on the kept arguments.
type Round = Box<dyn Fn(*mut MPI_Request) -> Result<()> + Send + Sync>;

/// The body of every `_init` call (its request argument checked by the entry point):
/// `make` builds the round from the call's shape (copying the array arguments it needs).
///
/// # Safety
/// `request` is valid for writing.
unsafe fn init(
    kind: i32,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
    make: impl FnOnce(&Shape, &mut HeldTypes) -> Result<Round>,
) -> Result<()> {
    shim::world()?;
    let c = handles::comm(comm)?;
    info::check(info)?;
    let shape = Shape {
        comm,
        rank: c.rank,
        local: c.size(),
        peers: if c.is_inter() {
            c.peer_size()
        } else {
            c.size()
        },
        inter: c.is_inter(),
    };
    let mut held = HeldTypes::default();
    let round = make(&shape, &mut held)?;
    // Its place in the collective order is taken now; every round runs under it.
    // (In its kind's sequence: `kind` is the one its nonblocking call plans with.)
    let seq = c.next_coll_seq(kind);
    // (`held` lives as long as the request: its types stay valid for every start. A
    // round's errors go to the communicator's handler, as the nonblocking call's would.)
    let start: Starter = Arc::new(move || {
        let _types = &held;
        let mut r = MPI_REQUEST_NULL;
        let rc = with_pinned_seq(kind, seq, || shim::run("MPI_Start", comm, || round(&mut r)));
        if rc != MPI_SUCCESS {
            return Ok(Err(rc));
        }
        // The round ran as a nonblocking collective with a request of its own: its
        // schedule becomes the persistent request's.
        // (One that completed when started has none: an engine request done already.)
        Ok(Ok(
            match handles::request_index(r).and_then(requests::take_coll) {
                Some(id) => requests::Round::Coll(id),
                None => {
                    let st = super::args::empty_status(MPI_ANY_SOURCE);
                    requests::Round::Engine(shim::world()?.completed_request(st))
                }
            },
        ))
    });
    let owner = handles::comm_owner(comm);
    let entry = requests::Entry::Persistent {
        start,
        active: None,
        owner,
    };
    write_out(request, handles::new_request(entry))
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

/// A v-collective's counts and displacements, kept (`RecvSpec` over copies).
enum KeptSpec<I> {
    Uniform(I),
    V(Kept<I>, Kept<I>),
    Counts(Kept<I>),
}

impl<I: Int> KeptSpec<I> {
    /// # Safety
    /// MPI's contract: where significant, the arrays hold `n` elements.
    unsafe fn of(s: RecvSpec<I>, n: usize, significant: bool) -> Self {
        match s {
            RecvSpec::Uniform(k) => KeptSpec::Uniform(k),
            RecvSpec::V(c, d) => KeptSpec::V(keep(c, n, significant), keep(d, n, significant)),
            RecvSpec::Counts(c) => KeptSpec::Counts(keep(c, n, significant)),
        }
    }

    fn spec(&self) -> RecvSpec<I> {
        match self {
            KeptSpec::Uniform(k) => RecvSpec::Uniform(*k),
            KeptSpec::V(c, d) => RecvSpec::V(c.ptr(), d.ptr()),
            KeptSpec::Counts(c) => RecvSpec::Counts(c.ptr()),
        }
    }
}

/// One side of an all-to-all or neighbourhood collective, kept (`Side` over copies).
enum KeptSide<I> {
    Uniform(I, MPI_Datatype),
    V(Kept<I>, Kept<I>, MPI_Datatype),
    W(Kept<I>, Kept<I>, Kept<MPI_Datatype>),
    Same(I, MPI_Datatype),
    WA(Kept<I>, Kept<MPI_Aint>, Kept<MPI_Datatype>),
}

impl<I: Int> KeptSide<I> {
    /// The side's arrays copied and its types held.
    ///
    /// # Safety
    /// MPI's contract: where significant, the arrays hold `n` elements.
    unsafe fn of(s: Side<I>, n: usize, significant: bool, held: &mut HeldTypes) -> Self {
        let k = |p| keep(p, n, significant);
        let side = match s {
            Side::Uniform(c, t) => KeptSide::Uniform(c, t),
            Side::V(c, d, t) => KeptSide::V(k(c), k(d), t),
            Side::W(c, d, t) => KeptSide::W(k(c), k(d), keep(t, n, significant)),
            Side::Same(c, t) => KeptSide::Same(c, t),
            Side::WA(c, d, t) => {
                KeptSide::WA(k(c), keep(d, n, significant), keep(t, n, significant))
            }
        };
        match &side {
            KeptSide::Uniform(_, t) | KeptSide::V(_, _, t) | KeptSide::Same(_, t) => {
                held.hold_all(&[*t])
            }
            KeptSide::W(_, _, t) | KeptSide::WA(_, _, t) => held.hold_all(t.as_slice()),
        }
        side
    }

    fn side(&self) -> Side<I> {
        match self {
            KeptSide::Uniform(c, t) => Side::Uniform(*c, *t),
            KeptSide::V(c, d, t) => Side::V(c.ptr(), d.ptr(), *t),
            KeptSide::W(c, d, t) => Side::W(c.ptr(), d.ptr(), t.ptr()),
            KeptSide::Same(c, t) => Side::Same(*c, *t),
            KeptSide::WA(c, d, t) => Side::WA(c.ptr(), d.ptr(), t.ptr()),
        }
    }
}

// The `_init` calls (entry points generated from tools/c_api.txt, int and large-count
// forms). Buffers are kept as addresses (`usize`: a round may run on any thread).

pub(crate) unsafe fn barrier_init(
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    init(coll::KIND_BARRIER, comm, info, request, |_, _| {
        Ok(Box::new(move |r| shims::barrier_impl(comm, Some(r))))
    })
}

pub(crate) unsafe fn bcast_init<I: Int>(
    buffer: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let buffer = buffer as usize;
    init(coll::KIND_BCAST, comm, info, request, |_, held| {
        held.hold_all(&[datatype]);
        Ok(Box::new(move |r| {
            shims::bcast_impl(buffer as *mut c_void, count, datatype, root, comm, Some(r))
        }))
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn gather_init<I: Int>(
    sendbuf: *const c_void,
    sendcount: I,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recv: RecvSpec<I>,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let (sendbuf, recvbuf) = (sendbuf as usize, recvbuf as usize);
    init(coll::KIND_GATHER, comm, info, request, |s, held| {
        held.hold_all(&[sendtype, recvtype]);
        let recv = KeptSpec::of(recv, s.peers, s.is_root(root));
        Ok(Box::new(move |r| {
            let (sb, rb) = (sendbuf as *const c_void, recvbuf as *mut c_void);
            let spec = recv.spec();
            shims::gatherv_impl(
                sb,
                sendcount,
                sendtype,
                rb,
                spec,
                recvtype,
                root,
                comm,
                Some(r),
            )
        }))
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn scatter_init<I: Int>(
    sendbuf: *const c_void,
    send: RecvSpec<I>,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: I,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let (sendbuf, recvbuf) = (sendbuf as usize, recvbuf as usize);
    init(coll::KIND_SCATTER, comm, info, request, |s, held| {
        held.hold_all(&[sendtype, recvtype]);
        let send = KeptSpec::of(send, s.peers, s.is_root(root));
        Ok(Box::new(move |r| {
            let (sb, rb) = (sendbuf as *const c_void, recvbuf as *mut c_void);
            let spec = send.spec();
            shims::scatterv_impl(
                sb,
                spec,
                sendtype,
                rb,
                recvcount,
                recvtype,
                root,
                comm,
                Some(r),
            )
        }))
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn allgather_init<I: Int>(
    sendbuf: *const c_void,
    sendcount: I,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recv: RecvSpec<I>,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let (sendbuf, recvbuf) = (sendbuf as usize, recvbuf as usize);
    init(coll::KIND_ALLGATHER, comm, info, request, |s, held| {
        held.hold_all(&[sendtype, recvtype]);
        let recv = KeptSpec::of(recv, s.peers, true);
        Ok(Box::new(move |r| {
            let (sb, rb) = (sendbuf as *const c_void, recvbuf as *mut c_void);
            let spec = recv.spec();
            shims::allgatherv_impl(sb, sendcount, sendtype, rb, spec, recvtype, comm, Some(r))
        }))
    })
}

pub(crate) unsafe fn alltoall_init<I: Int>(
    sendbuf: *const c_void,
    send: Side<I>,
    recvbuf: *mut c_void,
    recv: Side<I>,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let sends = !in_place(sendbuf);
    let (sendbuf, recvbuf) = (sendbuf as usize, recvbuf as usize);
    init(coll::KIND_ALLTOALL, comm, info, request, |s, held| {
        let send = KeptSide::of(send, s.peers, sends, held);
        let recv = KeptSide::of(recv, s.peers, true, held);
        Ok(Box::new(move |r| {
            let (sb, rb) = (sendbuf as *const c_void, recvbuf as *mut c_void);
            shims::alltoall_impl(sb, send.side(), rb, recv.side(), comm, Some(r))
        }))
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn reduce_init<I: Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let (sendbuf, recvbuf) = (sendbuf as usize, recvbuf as usize);
    init(coll::KIND_REDUCE, comm, info, request, |_, held| {
        held.hold_all(&[datatype]);
        Ok(Box::new(move |r| {
            let (sb, rb) = (sendbuf as *const c_void, recvbuf as *mut c_void);
            shims::reduce_impl(sb, rb, count, datatype, op, root, comm, Some(r))
        }))
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn allreduce_init<I: Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let (sendbuf, recvbuf) = (sendbuf as usize, recvbuf as usize);
    init(coll::KIND_ALLREDUCE, comm, info, request, |_, held| {
        held.hold_all(&[datatype]);
        Ok(Box::new(move |r| {
            let (sb, rb) = (sendbuf as *const c_void, recvbuf as *mut c_void);
            shims::allreduce_impl(sb, rb, count, datatype, op, comm, Some(r))
        }))
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn reduce_scatter_init<I: Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    counts: RecvSpec<I>,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let (sendbuf, recvbuf) = (sendbuf as usize, recvbuf as usize);
    init(coll::KIND_REDUCE_SCATTER, comm, info, request, |s, held| {
        held.hold_all(&[datatype]);
        // One count per member of the local group (which the result is scattered over).
        let counts = KeptSpec::of(counts, s.local, true);
        Ok(Box::new(move |r| {
            let (sb, rb) = (sendbuf as *const c_void, recvbuf as *mut c_void);
            shims::reduce_scatter_impl(sb, rb, counts.spec(), datatype, op, comm, Some(r))
        }))
    })
}

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn scan_init<I: Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    exclusive: bool,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let (sendbuf, recvbuf) = (sendbuf as usize, recvbuf as usize);
    init(coll::KIND_SCAN, comm, info, request, |_, held| {
        held.hold_all(&[datatype]);
        Ok(Box::new(move |r| {
            let (sb, rb) = (sendbuf as *const c_void, recvbuf as *mut c_void);
            shims::scan_impl(sb, rb, count, datatype, op, comm, exclusive, Some(r))
        }))
    })
}

pub(crate) unsafe fn neighbor_init<I: Int>(
    sendbuf: *const c_void,
    send: Side<I>,
    recvbuf: *mut c_void,
    recv: Side<I>,
    comm: MPI_Comm,
    info: MPI_Info,
    request: *mut MPI_Request,
) -> Result<()> {
    let (sendbuf, recvbuf) = (sendbuf as usize, recvbuf as usize);
    init(coll::KIND_NEIGHBOR, comm, info, request, |s, held| {
        // The arrays are as long as the degrees (no arrays: nothing to ask the topology).
        let arrays = |x: &Side<I>| !matches!(x, Side::Uniform(..) | Side::Same(..));
        let (indegree, outdegree) = match arrays(&send) || arrays(&recv) {
            true => s.degrees()?,
            false => (0, 0),
        };
        let send = KeptSide::of(send, outdegree, true, held);
        let recv = KeptSide::of(recv, indegree, true, held);
        Ok(Box::new(move |r| {
            let (sb, rb) = (sendbuf as *const c_void, recvbuf as *mut c_void);
            shims::neighbor_impl(sb, send.side(), rb, recv.side(), comm, Some(r))
        }))
    })
}
