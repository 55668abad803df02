//! Collective shims: every collective and its nonblocking form share one implementation
//! (`*_impl`), which checks the arguments as MPICH does, builds the collective's schedule
//! (src/coll/) and either runs it to completion (blocking call) or starts it and returns a
//! request whose schedule the progress engine advances.

use super::args;
use super::coll_inter::{self, Rooted};
use super::consts::*;
use super::handles::{self, RequestEntry, TypeRef};
use super::op::reducer;
use super::shim::{self, run, write_out};
use crate::coll::plan::{raw, raw_mut};
use crate::coll::schedule::Schedule;
use crate::coll::{self, inter, Blocks, Plan, TypedBuf};
use crate::comm::Communicator;
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::World;
use std::os::raw::{c_int, c_void};

pub use super::op::predefined_op;

/// `p` is `MPI_IN_PLACE`.
pub(super) fn in_place(p: *const c_void) -> bool {
    p as isize == -1
}

/// A new collective call on `c` (taking its place in the communicator's sequence), cutting
/// messages at the point-to-point eager limit.
fn plan<'c>(w: &World, c: &'c Communicator, kind: i32) -> Plan<'c> {
    Plan::new(c, kind)
        .with_eager_limit(w.config.eager_limit)
        .with_fan_in(w.fan_in_for(c))
}

/// The end of a collective call after its `plan`: a call refused by its argument checks
/// gives its place in the communicator's collective sequence back, as MPICH's calls take
/// none before their checks pass. So a root that alone refuses an aliased `MPI_Reduce`,
/// and then posts a correct one, meets the others' first (MPICH's errors/coll/noalias),
/// and a refused root-only call leaves nothing to mismatch later (noalias2, noalias3).
/// `took`: the kind whose next number the plan took (None: a persistent collective's
/// pinned one).
fn refusal_gives_back(c: &Communicator, took: Option<i32>, r: Result<()>) -> Result<()> {
    if let (Err(e), Some(kind)) = (&r, took) {
        if e.class.is_argument() {
            c.give_back_coll_seq(kind);
        }
    }
    r
}

/// The request argument of a nonblocking collective, checked before anything starts.
fn request_arg(r: Option<*mut MPI_Request>) -> Result<()> {
    match r {
        Some(p) if p.is_null() => mpi_err!(Arg, "NULL request argument"),
        _ => Ok(()),
    }
}

/// Run a schedule to completion (blocking form) or start it behind a new request.
pub(super) unsafe fn launch(
    w: &World,
    s: Schedule,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    match request {
        None => w.run_collective(s),
        Some(r) => {
            let id = w.start_collective(s);
            write_out(r, handles::new_request(RequestEntry::Coll { id, comm }))
        }
    }
}

/// `MPI_IN_PLACE` where MPI does not allow it (MPICH: MPI_ERR_BUFFER).
pub(super) fn not_in_place(p: *const c_void, count: usize, what: &str) -> Result<()> {
    if count > 0 && in_place(p) {
        return mpi_err!(Buffer, "{what} cannot be MPI_IN_PLACE here");
    }
    Ok(())
}

/// Send and receive buffers that are the same memory (MPI_IN_PLACE is the way to say so).
fn no_alias(send: *const c_void, recv: *const c_void, nonempty: bool) -> Result<()> {
    if nonempty && send == recv && !send.is_null() {
        return mpi_err!(
            Buffer,
            "send and receive buffers must not be aliased (use MPI_IN_PLACE)"
        );
    }
    Ok(())
}

/// Whether a call may run on `coll::direct`: blocking, small, every buffer one run of
/// bytes.
fn direct(request: Option<*mut MPI_Request>, bufs: &[&TypedBuf]) -> bool {
    request.is_none()
        && bufs
            .iter()
            .all(|b| b.contiguous() && b.bytes() <= coll::direct::DIRECT_MAX)
}

/// A (buffer, count, datatype) triple, checked.
pub(super) unsafe fn typed<'a>(
    buf: *const c_void,
    count: usize,
    ty: &'a TypeRef,
) -> Result<TypedBuf<'a>> {
    args::buffer(buf, count, ty)?;
    args::bytes(count, ty)?;
    Ok(TypedBuf::new(buf as *const u8, count, ty))
}

/// A local copy of `count_s` × send type into `count_r` × receive type must fit.
fn fits(send: &TypedBuf, recv: &TypedBuf) -> Result<()> {
    if send.bytes() > recv.bytes() {
        return mpi_err!(
            Truncate,
            "{} bytes sent where {} can be received",
            send.bytes(),
            recv.bytes()
        );
    }
    Ok(())
}

unsafe fn count_array(p: *const c_int, n: usize, what: &str) -> Result<Vec<usize>> {
    if p.is_null() && n > 0 {
        return mpi_err!(Arg, "NULL {what} array");
    }
    (0..n).map(|i| args::count(*p.add(i))).collect()
}

unsafe fn displ_array(p: *const c_int, n: usize, what: &str) -> Result<Vec<isize>> {
    if p.is_null() && n > 0 {
        return mpi_err!(Arg, "NULL {what} array");
    }
    Ok((0..n).map(|i| *p.add(i) as isize).collect())
}

unsafe fn aint_array(p: *const MPI_Aint, n: usize, what: &str) -> Result<Vec<isize>> {
    if p.is_null() && n > 0 {
        return mpi_err!(Arg, "NULL {what} array");
    }
    Ok((0..n).map(|i| *p.add(i) as isize).collect())
}

unsafe fn type_array(p: *const MPI_Datatype, n: usize, what: &str) -> Result<Vec<TypeRef>> {
    if p.is_null() && n > 0 {
        return mpi_err!(Arg, "NULL {what} array");
    }
    (0..n).map(|i| handles::datatype(*p.add(i))).collect()
}

/// Blocks of a v-collective buffer, checked (NULL buffer with data, overflow).
pub(super) unsafe fn blocks<'a>(
    base: *const c_void,
    ty: &'a TypeRef,
    counts: Vec<usize>,
    displs: Vec<isize>,
) -> Result<Blocks<'a>> {
    let total = counts.iter().try_fold(0usize, |a, &c| a.checked_add(c));
    let Some(total) = total else {
        return mpi_err!(Count, "counts overflow");
    };
    args::buffer(base, total, ty)?;
    args::bytes(total, ty)?;
    Ok(Blocks {
        base: base as *mut u8,
        ty,
        counts,
        displs,
    })
}

// ------------------------------------------------------------------ barrier

#[no_mangle]
pub unsafe extern "C" fn PMPI_Barrier(comm: MPI_Comm) -> c_int {
    run("MPI_Barrier", comm, || {
        let w = shim::world()?;
        let c = handles::comm(comm)?;
        if c.is_inter() {
            return launch(
                w,
                inter::barrier(plan(w, &c, coll::KIND_BARRIER)),
                comm,
                None,
            );
        }
        let tag = Plan::new(&c, coll::KIND_BARRIER).tag();
        coll::direct::barrier(w, &c, tag, w.fan_in_for(&c))
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ibarrier(comm: MPI_Comm, request: *mut MPI_Request) -> c_int {
    run("MPI_Ibarrier", comm, || {
        let w = shim::world()?;
        let c = handles::comm(comm)?;
        request_arg(Some(request))?;
        let s = match c.is_inter() {
            true => inter::barrier(plan(w, &c, coll::KIND_BARRIER)),
            false => coll::barrier_schedule(&c),
        };
        launch(w, s, comm, Some(request))
    })
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
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, coll::KIND_BCAST);
    let took = p.s.took_seq().then_some(p.s.kind());
    refusal_gives_back(
        &c,
        took,
        (|| {
            request_arg(request)?;
            if c.is_inter() {
                let (b, n, t) = (buffer, count, datatype);
                return coll_inter::bcast(w, p, &c, b, n, t, root, comm, request);
            }
            let n = args::count_any(count)?;
            let ty = handles::datatype(datatype)?;
            let root = args::root(&c, root)?;
            not_in_place(buffer, n, "the buffer")?;
            let b = typed(buffer, n, &ty)?;
            if direct(request, &[&b]) {
                // SAFETY: MPI: the buffer holds `count` elements, one run of bytes (checked).
                let bytes = raw_mut(b.ptr, b.bytes());
                return coll::direct::bcast(w, &c, p.tag(), bytes, root);
            }
            launch(w, coll::bcast::bcast(p, b, root), comm, request)
        })(),
    )
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
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, coll::KIND_REDUCE);
    let took = p.s.took_seq().then_some(p.s.kind());
    refusal_gives_back(
        &c,
        took,
        (|| {
            request_arg(request)?;
            if c.is_inter() {
                let (s, r, n, t) = (sendbuf, recvbuf, count, datatype);
                return coll_inter::reduce(w, p, &c, s, r, n, t, op, root, comm, request);
            }
            let n = args::count_any(count)?;
            let ty = handles::datatype(datatype)?;
            let root = args::root(&c, root)?;
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
                return coll::direct::reduce(w, &c, p.tag(), inp, out, root, &*r.combine);
            }
            launch(
                w,
                coll::reduce::reduce(p, input, output, &r, root),
                comm,
                request,
            )
        })(),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Reduce_local(
    inbuf: *const c_void,
    inoutbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
) -> c_int {
    run("MPI_Reduce_local", MPI_COMM_WORLD, || {
        let n = args::count(count)?;
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
    })
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
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, coll::KIND_ALLREDUCE);
    let took = p.s.took_seq().then_some(p.s.kind());
    refusal_gives_back(
        &c,
        took,
        (|| {
            request_arg(request)?;
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
                    &c,
                    p.tag(),
                    acc,
                    &*r.combine,
                    r.commutative,
                    w.fan_in_for(&c),
                );
            }
            launch(
                w,
                coll::allreduce::allreduce(p, input, out, &r),
                comm,
                request,
            )
        })(),
    )
}

// ------------------------------------------------------------------ gather

#[allow(clippy::too_many_arguments)]
unsafe fn gatherv_impl(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recv: RecvSpec,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, coll::KIND_GATHER);
    let took = p.s.took_seq().then_some(p.s.kind());
    refusal_gives_back(
        &c,
        took,
        (|| {
            request_arg(request)?;
            if c.is_inter() {
                let a = Rooted::new((sendbuf, sendcount, sendtype), (recvbuf, recv, recvtype));
                return coll_inter::rooted(w, p, &c, a, false, root, comm, request);
            }
            let root = args::root(&c, root)?;
            let is_root = c.rank == root;
            let send_given = !(is_root && in_place(sendbuf));
            let (sty, rty);
            let send = if send_given {
                let n = args::count(sendcount)?;
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
        })(),
    )
}

/// The receive (or send) side description of a collective: one count, or v-arrays.
pub(super) enum RecvSpec {
    Uniform(c_int),
    V(*const c_int, *const c_int),
    /// Counts only (MPI_Reduce_scatter).
    Counts(*const c_int),
}

impl RecvSpec {
    /// The counts and displacements of `n` blocks.
    pub(super) unsafe fn arrays(&self, n: usize) -> Result<(Vec<usize>, Vec<isize>)> {
        match *self {
            RecvSpec::Uniform(k) => {
                let k = args::count(k)?;
                Ok((vec![k; n], (0..n).map(|i| (i * k) as isize).collect()))
            }
            RecvSpec::V(counts, displs) => Ok((
                count_array(counts, n, "counts")?,
                displ_array(displs, n, "displacements")?,
            )),
            RecvSpec::Counts(counts) => Ok((count_array(counts, n, "counts")?, Vec::new())),
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Gather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Gather", comm, || {
        gatherv_impl(
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            RecvSpec::Uniform(recvcount),
            recvtype,
            root,
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Igather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Igather", comm, || {
        gatherv_impl(
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            RecvSpec::Uniform(recvcount),
            recvtype,
            root,
            comm,
            Some(request),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Gatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Gatherv", comm, || {
        gatherv_impl(
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            RecvSpec::V(recvcounts, displs),
            recvtype,
            root,
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Igatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Igatherv", comm, || {
        gatherv_impl(
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            RecvSpec::V(recvcounts, displs),
            recvtype,
            root,
            comm,
            Some(request),
        )
    })
}

// ------------------------------------------------------------------ scatter

#[allow(clippy::too_many_arguments)]
unsafe fn scatterv_impl(
    sendbuf: *const c_void,
    send: RecvSpec,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, coll::KIND_SCATTER);
    let took = p.s.took_seq().then_some(p.s.kind());
    refusal_gives_back(
        &c,
        took,
        (|| {
            request_arg(request)?;
            if c.is_inter() {
                let a = Rooted::new((recvbuf, recvcount, recvtype), (sendbuf, send, sendtype));
                return coll_inter::rooted(w, p, &c, a, true, root, comm, request);
            }
            let root = args::root(&c, root)?;
            let is_root = c.rank == root;
            let recv_given = !(is_root && in_place(recvbuf));
            let (sty, rty);
            let recv = if recv_given {
                let n = args::count(recvcount)?;
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
        })(),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Scatter(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Scatter", comm, || {
        scatterv_impl(
            sendbuf,
            RecvSpec::Uniform(sendcount),
            sendtype,
            recvbuf,
            recvcount,
            recvtype,
            root,
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Iscatter(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Iscatter", comm, || {
        scatterv_impl(
            sendbuf,
            RecvSpec::Uniform(sendcount),
            sendtype,
            recvbuf,
            recvcount,
            recvtype,
            root,
            comm,
            Some(request),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Scatterv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    displs: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Scatterv", comm, || {
        scatterv_impl(
            sendbuf,
            RecvSpec::V(sendcounts, displs),
            sendtype,
            recvbuf,
            recvcount,
            recvtype,
            root,
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Iscatterv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    displs: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Iscatterv", comm, || {
        scatterv_impl(
            sendbuf,
            RecvSpec::V(sendcounts, displs),
            sendtype,
            recvbuf,
            recvcount,
            recvtype,
            root,
            comm,
            Some(request),
        )
    })
}

// ------------------------------------------------------------------ allgather

#[allow(clippy::too_many_arguments)]
unsafe fn allgatherv_impl(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recv: RecvSpec,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, coll::KIND_ALLGATHER);
    let took = p.s.took_seq().then_some(p.s.kind());
    refusal_gives_back(
        &c,
        took,
        (|| {
            request_arg(request)?;
            if c.is_inter() {
                let a = Rooted::new((sendbuf, sendcount, sendtype), (recvbuf, recv, recvtype));
                return coll_inter::allgatherv(w, p, &c, a, comm, request);
            }
            let sty;
            let send = if in_place(sendbuf) {
                None
            } else {
                let n = args::count(sendcount)?;
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
        })(),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Allgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Allgather", comm, || {
        allgatherv_impl(
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            RecvSpec::Uniform(recvcount),
            recvtype,
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Iallgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Iallgather", comm, || {
        allgatherv_impl(
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            RecvSpec::Uniform(recvcount),
            recvtype,
            comm,
            Some(request),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Allgatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Allgatherv", comm, || {
        allgatherv_impl(
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            RecvSpec::V(recvcounts, displs),
            recvtype,
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Iallgatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Iallgatherv", comm, || {
        allgatherv_impl(
            sendbuf,
            sendcount,
            sendtype,
            recvbuf,
            RecvSpec::V(recvcounts, displs),
            recvtype,
            comm,
            Some(request),
        )
    })
}

// ------------------------------------------------------------------ alltoall

/// One side of an all-to-all: per-peer counts, displacements (in extents of one type, or
/// in bytes with per-peer types).
pub(super) enum Side {
    Uniform(c_int, MPI_Datatype),
    V(*const c_int, *const c_int, MPI_Datatype),
    W(*const c_int, *const c_int, *const MPI_Datatype),
    /// The same buffer for every peer (MPI_Neighbor_allgather(v)'s send side).
    Same(c_int, MPI_Datatype),
    /// Byte displacements as MPI_Aint (MPI_Neighbor_alltoallw).
    WA(*const c_int, *const MPI_Aint, *const MPI_Datatype),
}

/// The datatypes one side uses, resolved (one, or one per peer).
pub(super) struct SideTypes {
    types: Vec<TypeRef>,
    pub(super) counts: Vec<usize>,
    /// Byte displacements.
    displs: Vec<isize>,
}

impl Side {
    pub(super) unsafe fn resolve(&self, n: usize) -> Result<SideTypes> {
        match *self {
            Side::Uniform(k, t) => {
                let k = args::count(k)?;
                let ty = handles::datatype(t)?;
                let ext = ty.extent;
                Ok(SideTypes {
                    types: vec![ty],
                    counts: vec![k; n],
                    displs: (0..n).map(|i| (i * k) as isize * ext).collect(),
                })
            }
            Side::V(counts, displs, t) => {
                let ty = handles::datatype(t)?;
                let ext = ty.extent;
                Ok(SideTypes {
                    types: vec![ty],
                    counts: count_array(counts, n, "counts")?,
                    displs: displ_array(displs, n, "displacements")?
                        .into_iter()
                        .map(|d| d * ext)
                        .collect(),
                })
            }
            Side::W(counts, displs, types) => Ok(SideTypes {
                types: type_array(types, n, "datatypes")?,
                counts: count_array(counts, n, "counts")?,
                displs: displ_array(displs, n, "displacements")?,
            }),
            Side::Same(k, t) => Ok(SideTypes {
                types: vec![handles::datatype(t)?],
                counts: vec![args::count(k)?; n],
                displs: vec![0; n],
            }),
            Side::WA(counts, displs, types) => Ok(SideTypes {
                types: type_array(types, n, "datatypes")?,
                counts: count_array(counts, n, "counts")?,
                displs: aint_array(displs, n, "displacements")?,
            }),
        }
    }
}

impl SideTypes {
    fn ty(&self, i: usize) -> &TypeRef {
        if self.types.len() == 1 {
            &self.types[0]
        } else {
            &self.types[i]
        }
    }

    /// The per-peer buffers at `base`, checked.
    pub(super) unsafe fn bufs(&self, base: *const c_void) -> Result<Vec<TypedBuf<'_>>> {
        (0..self.counts.len())
            .map(|i| {
                let ty = self.ty(i);
                let p = (base as *const u8).wrapping_offset(self.displs[i]);
                // The address the data is at: MPI_BOTTOM plus absolute displacements is
                // a valid buffer (what a NULL check on the base would refuse).
                args::buffer(p as *const c_void, self.counts[i], ty)?;
                args::bytes(self.counts[i], ty)?;
                Ok(TypedBuf::new(p, self.counts[i], ty))
            })
            .collect()
    }
}

unsafe fn alltoall_impl(
    sendbuf: *const c_void,
    send: Side,
    recvbuf: *mut c_void,
    recv: Side,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, coll::KIND_ALLTOALL);
    let took = p.s.took_seq().then_some(p.s.kind());
    refusal_gives_back(
        &c,
        took,
        (|| {
            request_arg(request)?;
            if c.is_inter() {
                let (s, r) = (sendbuf, recvbuf);
                return coll_inter::alltoall(w, p, &c, s, send, r, recv, comm, request);
            }
            let n = c.size();
            if let (None, Side::Uniform(sc, st), Side::Uniform(rc, rt)) = (request, &send, &recv) {
                if !in_place(sendbuf)
                    && alltoall_direct(w, &c, p.tag(), sendbuf, (*sc, *st), recvbuf, (*rc, *rt))?
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
        })(),
    )
}

/// MPI_Alltoall on `coll::direct` when it fits there (blocking, contiguous, blocks small
/// enough to go eagerly): Ok(true) when done, Ok(false) to take the general path.
unsafe fn alltoall_direct(
    w: &World,
    c: &Communicator,
    tag: i32,
    sendbuf: *const c_void,
    (scount, stype): (c_int, MPI_Datatype),
    recvbuf: *mut c_void,
    (rcount, rtype): (c_int, MPI_Datatype),
) -> Result<bool> {
    let n = c.size();
    let (sn, rn) = (args::count(scount)?, args::count(rcount)?);
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

#[no_mangle]
pub unsafe extern "C" fn PMPI_Alltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Alltoall", comm, || {
        alltoall_impl(
            sendbuf,
            Side::Uniform(sendcount, sendtype),
            recvbuf,
            Side::Uniform(recvcount, recvtype),
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ialltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Ialltoall", comm, || {
        alltoall_impl(
            sendbuf,
            Side::Uniform(sendcount, sendtype),
            recvbuf,
            Side::Uniform(recvcount, recvtype),
            comm,
            Some(request),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Alltoallv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Alltoallv", comm, || {
        alltoall_impl(
            sendbuf,
            Side::V(sendcounts, sdispls, sendtype),
            recvbuf,
            Side::V(recvcounts, rdispls, recvtype),
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ialltoallv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Ialltoallv", comm, || {
        alltoall_impl(
            sendbuf,
            Side::V(sendcounts, sdispls, sendtype),
            recvbuf,
            Side::V(recvcounts, rdispls, recvtype),
            comm,
            Some(request),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Alltoallw(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Alltoallw", comm, || {
        alltoall_impl(
            sendbuf,
            Side::W(sendcounts, sdispls, sendtypes),
            recvbuf,
            Side::W(recvcounts, rdispls, recvtypes),
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ialltoallw(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Ialltoallw", comm, || {
        alltoall_impl(
            sendbuf,
            Side::W(sendcounts, sdispls, sendtypes),
            recvbuf,
            Side::W(recvcounts, rdispls, recvtypes),
            comm,
            Some(request),
        )
    })
}

// ------------------------------------------------------------------ reduce_scatter

#[allow(clippy::too_many_arguments)]
unsafe fn reduce_scatter_impl(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    counts: RecvSpec,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, coll::KIND_REDUCE_SCATTER);
    let took = p.s.took_seq().then_some(p.s.kind());
    refusal_gives_back(
        &c,
        took,
        (|| {
            request_arg(request)?;
            if c.is_inter() {
                let (s, r, t) = (sendbuf, recvbuf, datatype);
                return coll_inter::reduce_scatter(w, p, &c, s, r, counts, t, op, comm, request);
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
        })(),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Reduce_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Reduce_scatter", comm, || {
        reduce_scatter_impl(
            sendbuf,
            recvbuf,
            RecvSpec::Counts(recvcounts),
            datatype,
            op,
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ireduce_scatter(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Ireduce_scatter", comm, || {
        reduce_scatter_impl(
            sendbuf,
            recvbuf,
            RecvSpec::Counts(recvcounts),
            datatype,
            op,
            comm,
            Some(request),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Reduce_scatter_block(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Reduce_scatter_block", comm, || {
        reduce_scatter_impl(
            sendbuf,
            recvbuf,
            RecvSpec::Uniform(recvcount),
            datatype,
            op,
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ireduce_scatter_block(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    recvcount: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Ireduce_scatter_block", comm, || {
        reduce_scatter_impl(
            sendbuf,
            recvbuf,
            RecvSpec::Uniform(recvcount),
            datatype,
            op,
            comm,
            Some(request),
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
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, coll::KIND_SCAN);
    let took = p.s.took_seq().then_some(p.s.kind());
    refusal_gives_back(
        &c,
        took,
        (|| {
            request_arg(request)?;
            args::intra(&c)?;
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
        })(),
    )
}

// ------------------------------------------------------------------ neighbourhood

unsafe fn neighbor_impl(
    sendbuf: *const c_void,
    send: Side,
    recvbuf: *mut c_void,
    recv: Side,
    comm: MPI_Comm,
    request: Option<*mut MPI_Request>,
) -> Result<()> {
    let w = shim::world()?;
    let c = handles::comm(comm)?;
    let p = plan(w, &c, coll::KIND_NEIGHBOR);
    let took = p.s.took_seq().then_some(p.s.kind());
    refusal_gives_back(
        &c,
        took,
        (|| {
            request_arg(request)?;
            args::intra(&c)?;
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
        })(),
    )
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Neighbor_allgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Neighbor_allgather", comm, || {
        neighbor_impl(
            sendbuf,
            Side::Same(sendcount, sendtype),
            recvbuf,
            Side::Uniform(recvcount, recvtype),
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ineighbor_allgather(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Ineighbor_allgather", comm, || {
        neighbor_impl(
            sendbuf,
            Side::Same(sendcount, sendtype),
            recvbuf,
            Side::Uniform(recvcount, recvtype),
            comm,
            Some(request),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Neighbor_allgatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Neighbor_allgatherv", comm, || {
        neighbor_impl(
            sendbuf,
            Side::Same(sendcount, sendtype),
            recvbuf,
            Side::V(recvcounts, displs, recvtype),
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ineighbor_allgatherv(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    displs: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Ineighbor_allgatherv", comm, || {
        neighbor_impl(
            sendbuf,
            Side::Same(sendcount, sendtype),
            recvbuf,
            Side::V(recvcounts, displs, recvtype),
            comm,
            Some(request),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Neighbor_alltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Neighbor_alltoall", comm, || {
        neighbor_impl(
            sendbuf,
            Side::Uniform(sendcount, sendtype),
            recvbuf,
            Side::Uniform(recvcount, recvtype),
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ineighbor_alltoall(
    sendbuf: *const c_void,
    sendcount: c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcount: c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Ineighbor_alltoall", comm, || {
        neighbor_impl(
            sendbuf,
            Side::Uniform(sendcount, sendtype),
            recvbuf,
            Side::Uniform(recvcount, recvtype),
            comm,
            Some(request),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Neighbor_alltoallv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Neighbor_alltoallv", comm, || {
        neighbor_impl(
            sendbuf,
            Side::V(sendcounts, sdispls, sendtype),
            recvbuf,
            Side::V(recvcounts, rdispls, recvtype),
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ineighbor_alltoallv(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const c_int,
    sendtype: MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const c_int,
    recvtype: MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Ineighbor_alltoallv", comm, || {
        neighbor_impl(
            sendbuf,
            Side::V(sendcounts, sdispls, sendtype),
            recvbuf,
            Side::V(recvcounts, rdispls, recvtype),
            comm,
            Some(request),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Neighbor_alltoallw(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Neighbor_alltoallw", comm, || {
        neighbor_impl(
            sendbuf,
            Side::WA(sendcounts, sdispls, sendtypes),
            recvbuf,
            Side::WA(recvcounts, rdispls, recvtypes),
            comm,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ineighbor_alltoallw(
    sendbuf: *const c_void,
    sendcounts: *const c_int,
    sdispls: *const MPI_Aint,
    sendtypes: *const MPI_Datatype,
    recvbuf: *mut c_void,
    recvcounts: *const c_int,
    rdispls: *const MPI_Aint,
    recvtypes: *const MPI_Datatype,
    comm: MPI_Comm,
    request: *mut MPI_Request,
) -> c_int {
    run("MPI_Ineighbor_alltoallw", comm, || {
        neighbor_impl(
            sendbuf,
            Side::WA(sendcounts, sdispls, sendtypes),
            recvbuf,
            Side::WA(recvcounts, rdispls, recvtypes),
            comm,
            Some(request),
        )
    })
}
