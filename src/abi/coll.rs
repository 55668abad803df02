//! Collective shims: every collective and its nonblocking form share one implementation
//! (`*_impl`), which checks the arguments as MPICH does, builds the collective's schedule
//! (src/coll/) and either runs it to completion (blocking call) or starts it and returns a
//! request whose schedule the progress engine advances.

use super::args;
use super::coll_args::*;
// (The table, tools/c_api.txt, names the argument kinds as `coll::`.)
pub use super::coll_args::{RecvSpec, Side};
use super::coll_inter::{self, Rooted};
use super::consts::*;
use super::handles;
use super::op::reducer;
use super::shim;
use crate::coll::plan::{raw, raw_mut};
use crate::coll::{self, inter, Plan};
use crate::comm::Communicator;
use crate::error::Result;
use crate::runtime::World;
use std::os::raw::{c_int, c_void};

pub use super::op::predefined_op;

// ------------------------------------------------------------------ barrier

/// MPI_Barrier (`request` None) and MPI_Ibarrier.
pub(crate) unsafe fn barrier_impl(comm: MPI_Comm, request: Option<*mut MPI_Request>) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    request_arg(request)?;
    if c.is_inter() {
        let p = plan(w, &c, coll::KIND_BARRIER);
        return launch(w, inter::barrier(p), comm, request);
    }
    match request {
        None => {
            let tag = Plan::new(&c, coll::KIND_BARRIER).tag();
            coll::direct::barrier(w, &c, tag, w.fan_in_for(&c))
        }
        Some(_) => launch(w, coll::barrier_schedule(&c), comm, request),
    }
}

// ------------------------------------------------------------------ bcast

pub(crate) unsafe fn bcast_impl<I: args::Int>(
    buffer: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    collective(comm, coll::KIND_BCAST, request, |w, c, p| {
        if c.is_inter() {
            let (b, n, t) = (buffer, count, datatype);
            return coll_inter::bcast(w, p, c, b, n, t, root, comm, request);
        }
        let n = args::count_any(count)?;
        let ty = handles::datatype(datatype)?;
        let root = args::root(c, root)?;
        not_in_place(buffer, n, "the buffer")?;
        let b = typed(buffer, n, &ty)?;
        if direct(request, &[&b]) {
            // SAFETY: MPI: the buffer holds `count` elements, one run of bytes (checked).
            let bytes = raw_mut(b.ptr, b.bytes());
            return coll::direct::bcast(w, c, p.tag(), bytes, root);
        }
        launch(w, coll::bcast::bcast(p, b, root), comm, request)
    })
}

// ------------------------------------------------------------------ reduce

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn reduce_impl<I: args::Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    collective(comm, coll::KIND_REDUCE, request, |w, c, p| {
        if c.is_inter() {
            let (s, r, n, t) = (sendbuf, recvbuf, count, datatype);
            return coll_inter::reduce(w, p, c, s, r, n, t, op, root, comm, request);
        }
        let n = args::count_any(count)?;
        let ty = handles::datatype(datatype)?;
        let root = args::root(c, root)?;
        let r = reducer(op, datatype, &ty)?;
        let (input, output) = if c.rank == root {
            not_in_place(recvbuf, n, "recvbuf")?;
            let out = typed(recvbuf, n, &ty)?;
            if in_place(sendbuf) {
                (out, Some(out))
            } else {
                no_alias(sendbuf, recvbuf, n > 0)?;
                (typed(sendbuf, n, &ty)?, Some(out))
            }
        } else {
            not_in_place(sendbuf, n, "sendbuf")?;
            (typed(sendbuf, n, &ty)?, None)
        };
        if (r.commutative || root == 0) && direct(request, &[&input]) {
            // SAFETY: MPI: input readable and the root's output writable for `count`
            // elements, each one run of bytes (checked); they are the same memory only for
            // MPI_IN_PLACE, and then the output alone is passed.
            let out = output.map(|o| raw_mut(o.ptr, o.bytes()));
            let inp = (!in_place(sendbuf)).then(|| raw(input.ptr, input.bytes()));
            return coll::direct::reduce(w, c, p.tag(), inp, out, root, &*r.combine);
        }
        launch(
            w,
            coll::reduce::reduce(p, input, output, &r, root),
            comm,
            request,
        )
    })
}

/// MPI_Reduce_local: `inoutbuf = inbuf op inoutbuf`, no communication.
pub(crate) unsafe fn reduce_local(
    inbuf: *const c_void,
    inoutbuf: *mut c_void,
    n: usize,
    datatype: MPI_Datatype,
    op: MPI_Op,
) -> Result<()> {
    let ty = handles::datatype(datatype)?;
    let r = reducer(op, datatype, &ty)?;
    not_in_place(inbuf, n, "inbuf")?;
    not_in_place(inoutbuf, n, "inoutbuf")?;
    no_alias(inbuf, inoutbuf, n > 0)?;
    let a = typed(inbuf, n, &ty)?;
    let b = typed(inoutbuf, n, &ty)?;
    let len = b.bytes();
    if len == 0 {
        return Ok(());
    }
    if b.contiguous() && a.contiguous() {
        // SAFETY: MPI: inbuf readable and inoutbuf writable for `count` elements
        // each, contiguous, and not the same memory (checked above; MPI forbids
        // partial overlap).
        return (r.combine)(raw(a.ptr, len), raw_mut(b.ptr, len));
    }
    let x = a.pack();
    let mut y = b.pack();
    (r.combine)(&x, &mut y)?;
    b.unpack_from(&y);
    Ok(())
}

// ------------------------------------------------------------------ allreduce

pub(crate) unsafe fn allreduce_impl<I: args::Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    collective(comm, coll::KIND_ALLREDUCE, request, |w, c, p| {
        if c.is_inter() {
            let (s, r, n, t) = (sendbuf, recvbuf, count, datatype);
            return coll_inter::allreduce(w, p, s, r, n, t, op, comm, request);
        }
        let n = args::count_any(count)?;
        let ty = handles::datatype(datatype)?;
        let r = reducer(op, datatype, &ty)?;
        not_in_place(recvbuf, n, "recvbuf")?;
        let out = typed(recvbuf, n, &ty)?;
        let input = if in_place(sendbuf) {
            out
        } else {
            no_alias(sendbuf, recvbuf, n > 0)?;
            typed(sendbuf, n, &ty)?
        };
        if direct(request, &[&input, &out]) {
            let len = out.bytes();
            // SAFETY: MPI: recvbuf writable and sendbuf readable for `count` elements, each
            // one run of bytes (checked), distinct unless MPI_IN_PLACE (then no copy).
            let acc = raw_mut(out.ptr, len);
            if input.ptr != out.ptr {
                acc.copy_from_slice(raw(input.ptr, len));
            }
            return coll::direct::allreduce(
                w,
                c,
                p.tag(),
                acc,
                &*r.combine,
                r.commutative,
                w.fan_in_for(c),
            );
        }
        launch(
            w,
            coll::allreduce::allreduce(p, input, out, &r),
            comm,
            request,
        )
    })
}

// ------------------------------------------------------------------ gather

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn gatherv_impl<I: args::Int>(
    sendbuf: *const c_void,
    sendcount: I,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recv: RecvSpec<I>,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    collective(comm, coll::KIND_GATHER, request, |w, c, p| {
        if c.is_inter() {
            let a = Rooted::new((sendbuf, sendcount, sendtype), (recvbuf, recv, recvtype));
            return coll_inter::rooted(w, p, c, a, false, root, comm, request);
        }
        let root = args::root(c, root)?;
        let is_root = c.rank == root;
        let send_given = !(is_root && in_place(sendbuf));
        let (sty, rty);
        let send = if send_given {
            let n = args::count_any(sendcount)?;
            sty = handles::datatype(sendtype)?;
            not_in_place(sendbuf, n, "sendbuf")?;
            Some(typed(sendbuf, n, &sty)?)
        } else {
            None
        };
        let recv = if is_root {
            rty = handles::datatype(recvtype)?;
            let (counts, displs) = recv.arrays(c.size())?;
            not_in_place(recvbuf, counts.iter().sum(), "recvbuf")?;
            let b = blocks(recvbuf, &rty, counts, displs)?;
            if let Some(s) = &send {
                let own = b.block(root);
                fits(s, &own)?;
                no_alias(sendbuf, own.ptr as *const c_void, s.bytes() > 0)?;
            }
            Some(b)
        } else {
            None
        };
        launch(w, coll::gather::gatherv(p, send, recv, root), comm, request)
    })
}

// ------------------------------------------------------------------ scatter

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn scatterv_impl<I: args::Int>(
    sendbuf: *const c_void,
    send: RecvSpec<I>,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: I,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    collective(comm, coll::KIND_SCATTER, request, |w, c, p| {
        if c.is_inter() {
            let a = Rooted::new((recvbuf, recvcount, recvtype), (sendbuf, send, sendtype));
            return coll_inter::rooted(w, p, c, a, true, root, comm, request);
        }
        let root = args::root(c, root)?;
        let is_root = c.rank == root;
        let recv_given = !(is_root && in_place(recvbuf));
        let (sty, rty);
        let recv = if recv_given {
            let n = args::count_any(recvcount)?;
            rty = handles::datatype(recvtype)?;
            not_in_place(recvbuf, n, "recvbuf")?;
            Some(typed(recvbuf, n, &rty)?)
        } else {
            None
        };
        let sends = if is_root {
            sty = handles::datatype(sendtype)?;
            let (counts, displs) = send.arrays(c.size())?;
            not_in_place(sendbuf, counts.iter().sum(), "sendbuf")?;
            let b = blocks(sendbuf, &sty, counts, displs)?;
            if let Some(r) = &recv {
                let own = b.block(root);
                fits(&own, r)?;
                no_alias(own.ptr as *const c_void, recvbuf, r.bytes() > 0)?;
            }
            Some(b)
        } else {
            None
        };
        launch(
            w,
            coll::gather::scatterv(p, sends, recv, root),
            comm,
            request,
        )
    })
}

// ------------------------------------------------------------------ allgather

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn allgatherv_impl<I: args::Int>(
    sendbuf: *const c_void,
    sendcount: I,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recv: RecvSpec<I>,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    collective(comm, coll::KIND_ALLGATHER, request, |w, c, p| {
        if c.is_inter() {
            let a = Rooted::new((sendbuf, sendcount, sendtype), (recvbuf, recv, recvtype));
            return coll_inter::allgatherv(w, p, c, a, comm, request);
        }
        let sty;
        let send = if in_place(sendbuf) {
            None
        } else {
            let n = args::count_any(sendcount)?;
            sty = handles::datatype(sendtype)?;
            Some(typed(sendbuf, n, &sty)?)
        };
        let rty = handles::datatype(recvtype)?;
        let (counts, displs) = recv.arrays(c.size())?;
        not_in_place(recvbuf, counts.iter().sum(), "recvbuf")?;
        let b = blocks(recvbuf, &rty, counts, displs)?;
        if let Some(s) = &send {
            let own = b.block(c.rank);
            fits(s, &own)?;
            no_alias(sendbuf, own.ptr as *const c_void, s.bytes() > 0)?;
        }
        launch(w, coll::allgather::allgatherv(p, send, b), comm, request)
    })
}

// ------------------------------------------------------------------ alltoall

pub(crate) unsafe fn alltoall_impl<I: args::Int>(
    sendbuf: *const c_void,
    send: Side<I>,
    recvbuf: *mut c_void,
    recv: Side<I>,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    collective(comm, coll::KIND_ALLTOALL, request, |w, c, p| {
        if c.is_inter() {
            let (s, r) = (sendbuf, recvbuf);
            return coll_inter::alltoall(w, p, c, s, send, r, recv, comm, request);
        }
        let n = c.size();
        if let (None, Side::Uniform(sc, st), Side::Uniform(rc, rt)) = (request, &send, &recv) {
            if !in_place(sendbuf)
                && alltoall_direct(w, c, p.tag(), sendbuf, (*sc, *st), recvbuf, (*rc, *rt))?
            {
                return Ok(());
            }
        }
        let rs = recv.resolve(n)?;
        let recvs = rs.bufs(recvbuf)?;
        let total: usize = recvs.iter().map(|b| b.bytes()).sum();
        not_in_place(recvbuf, total, "recvbuf")?;
        let ss;
        let sends = if in_place(sendbuf) {
            None
        } else {
            ss = send.resolve(n)?;
            let s = ss.bufs(sendbuf)?;
            no_alias(sendbuf, recvbuf, total > 0)?;
            fits(&s[c.rank], &recvs[c.rank])?;
            Some(s)
        };
        launch(w, coll::alltoall::alltoallw(p, sends, recvs), comm, request)
    })
}

/// MPI_Alltoall on `coll::direct` when it fits there (blocking, contiguous, blocks small
/// enough to go eagerly): Ok(true) when done, Ok(false) to take the general path.
unsafe fn alltoall_direct<I: args::Int>(
    w: &World,
    c: &Communicator,
    tag: i32,
    sendbuf: *const c_void,
    (scount, stype): (I, MPI_Datatype),
    recvbuf: *mut c_void,
    (rcount, rtype): (I, MPI_Datatype),
) -> Result<bool> {
    let n = c.size();
    let (sn, rn) = (args::count_any(scount)?, args::count_any(rcount)?);
    let (sty, rty) = (handles::datatype(stype)?, handles::datatype(rtype)?);
    let (Some(sn), Some(rn)) = (sn.checked_mul(n), rn.checked_mul(n)) else {
        return Ok(false);
    };
    let (s, r) = (typed(sendbuf, sn, &sty)?, typed(recvbuf, rn, &rty)?);
    let total = r.bytes();
    let block = total / n;
    if !(s.contiguous() && r.contiguous() && s.bytes() == total)
        || block > coll::direct::DIRECT_MAX.min(w.config.eager_limit)
    {
        return Ok(false);
    }
    not_in_place(recvbuf, total, "recvbuf")?;
    no_alias(sendbuf, recvbuf, total > 0)?;
    // SAFETY: MPI: n adjacent blocks (uniform counts of a contiguous type) readable at
    // sendbuf and writable at recvbuf, distinct buffers (checked).
    let (sb, rb) = (raw(s.ptr, total), raw_mut(r.ptr, total));
    coll::direct::alltoall(w, c, tag, sb, rb)?;
    Ok(true)
}

// ------------------------------------------------------------------ reduce_scatter

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn reduce_scatter_impl<I: args::Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    counts: RecvSpec<I>,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    collective(comm, coll::KIND_REDUCE_SCATTER, request, |w, c, p| {
        if c.is_inter() {
            let (s, r, t) = (sendbuf, recvbuf, datatype);
            return coll_inter::reduce_scatter(w, p, c, s, r, counts, t, op, comm, request);
        }
        let (counts, _) = counts.arrays(c.size())?;
        let ty = handles::datatype(datatype)?;
        let r = reducer(op, datatype, &ty)?;
        let total: usize = counts.iter().sum();
        let mine = counts[c.rank];
        not_in_place(recvbuf, mine, "recvbuf")?;
        let ip = in_place(sendbuf);
        let output = typed(recvbuf, mine, &ty)?;
        let input = if ip {
            typed(recvbuf, total, &ty)?
        } else {
            no_alias(sendbuf, recvbuf, mine > 0)?;
            typed(sendbuf, total, &ty)?
        };
        launch(
            w,
            coll::reduce_scatter::reduce_scatter(p, input, output, ip, &counts, &r),
            comm,
            request,
        )
    })
}

// ------------------------------------------------------------------ scan / exscan

#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn scan_impl<I: args::Int>(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: I,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    exclusive: bool,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    collective(comm, coll::KIND_SCAN, request, |w, c, p| {
        args::intra(c)?;
        let n = args::count_any(count)?;
        let ty = handles::datatype(datatype)?;
        let r = reducer(op, datatype, &ty)?;
        not_in_place(recvbuf, n, "recvbuf")?;
        let out = typed(recvbuf, n, &ty)?;
        let input = if in_place(sendbuf) {
            out
        } else {
            no_alias(sendbuf, recvbuf, n > 0)?;
            typed(sendbuf, n, &ty)?
        };
        launch(
            w,
            coll::scan::scan(p, input, out, &r, exclusive),
            comm,
            request,
        )
    })
}

// ------------------------------------------------------------------ neighbourhood

pub(crate) unsafe fn neighbor_impl<I: args::Int>(
    sendbuf: *const c_void,
    send: Side<I>,
    recvbuf: *mut c_void,
    recv: Side<I>,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    collective(comm, coll::KIND_NEIGHBOR, request, |w, c, p| {
        args::intra(c)?;
        let (sources, dests) = super::topo::neighbors(comm)?;
        let rank_of = |v: Vec<i32>| -> Vec<Option<usize>> {
            v.into_iter()
                .map(|r| (r != MPI_PROC_NULL && r >= 0).then_some(r as usize))
                .collect()
        };
        let (sources, dests) = (rank_of(sources), rank_of(dests));
        let ss = send.resolve(dests.len())?;
        let rs = recv.resolve(sources.len())?;
        not_in_place(sendbuf, ss.counts.iter().sum(), "sendbuf")?;
        not_in_place(recvbuf, rs.counts.iter().sum(), "recvbuf")?;
        let (mut dests, mut sends) = (dests, ss.bufs(sendbuf)?);
        let recvs = rs.bufs(recvbuf)?;
        if super::topo::is_cart(comm)? {
            // In each dimension the block for the negative neighbour goes after the one for
            // the positive neighbour: when both are the same process (a periodic dimension of
            // one or two), messages from one peer match in order, and its receive for our
            // side in its negative direction (us, seen from there) comes first (MPI-4.0
            // §8.6, MPICH's coll/ring_neighbor_alltoall).
            for pair in (0..dests.len() / 2).map(|d| 2 * d) {
                dests.swap(pair, pair + 1);
                sends.swap(pair, pair + 1);
            }
        }
        launch(
            w,
            coll::neighbor::neighbor_alltoallw(p, &sources, &dests, &sends, &recvs),
            comm,
            request,
        )
    })
}
