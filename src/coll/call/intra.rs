//! The collective calls on an intracommunicator: MPICH's argument checks in its order
//! (counts, types, root, MPI_IN_PLACE where it is not allowed, aliased buffers, local
//! copies that must fit), then the algorithm: `coll::direct` inline for a small blocking
//! call, else the collective's schedule.

use super::args::{arg, blocks, fits, intra_root, no_alias, not_in_place, typed, Counts};
use super::{direct, launch, Addr, Call, How, Many, One, Side};
use crate::coll::plan::{raw, raw_mut};
use crate::coll::schedule::CollId;
use crate::coll::{self, Blocks, Plan, TypedBuf};
use crate::comm::Communicator;
use crate::datatype::Datatype;
use crate::error::Result;
use crate::mpi_err;
use crate::runtime::World;
use std::ops::Deref;

/// A small blocking MPI_Allreduce in the one case that needs no check beyond these: an
/// intracommunicator, a predefined operation on a contiguous type (`combine`, which the
/// caller found defined on it), a nonempty message within `coll::direct`'s limit, recvbuf
/// given and sendbuf given elsewhere or MPI_IN_PLACE. It runs as `Call::Allreduce` would,
/// without building the call: small allreduces are a message-rate path. None: another
/// case, for `Call::run` (which checks everything).
///
/// # Safety
/// As `Call::run`.
pub unsafe fn quick_allreduce(
    w: &World,
    c: &Communicator,
    send: Addr,
    recv: Addr,
    n: usize,
    ty: &Datatype,
    combine: &coll::plan::CombineFn,
) -> Option<Result<()>> {
    let len = n.checked_mul(ty.size)?;
    let sent_apart = send.in_place || (send.at != 0 && send.at != recv.at);
    let easy = !c.is_inter() && ty.is_contiguous() && ty.true_lb == 0 && sent_apart;
    if !easy || len == 0 || len > super::direct_max(w) || recv.in_place || recv.at == 0 {
        return None;
    }
    let input = (!send.in_place).then_some(send.ptr() as *const u8);
    let tag = Plan::new(c, coll::KIND_ALLREDUCE).tag();
    Some(direct_allreduce(
        w,
        c,
        tag,
        input,
        recv.ptr(),
        len,
        combine,
        true,
    ))
}

/// `coll::direct::allreduce` on `len` bytes at `out`, the input copied there first unless
/// it is `out` itself or None (MPI_IN_PLACE).
///
/// # Safety
/// MPI: `out` writable and `input` readable for `len` bytes, distinct memory unless the
/// same pointer.
#[allow(clippy::too_many_arguments)]
unsafe fn direct_allreduce(
    w: &World,
    c: &Communicator,
    tag: i32,
    input: Option<*const u8>,
    out: *mut u8,
    len: usize,
    combine: &coll::plan::CombineFn,
    commutative: bool,
) -> Result<()> {
    let acc = raw_mut(out, len);
    if let Some(i) = input.filter(|&i| !std::ptr::eq(i, out)) {
        acc.copy_from_slice(raw(i, len));
    }
    let algo = coll::direct::allreduce_algorithm(
        c.size(),
        len,
        commutative,
        w.fan_in_for(c),
        w.config.eager_limit,
    );
    coll::direct::allreduce(w, c, tag, acc, combine, commutative, algo)
}

/// `call` (not a barrier) on intracommunicator `c`, its plan opened.
///
/// # Safety
/// As `Call::run`.
pub(super) unsafe fn run<T: Deref<Target = Datatype>>(
    call: &Call<T>,
    w: &World,
    c: &Communicator,
    p: Plan,
    how: How,
) -> Result<Option<CollId>> {
    let done = |r: Result<()>| r.map(|()| None);
    match call {
        Call::Barrier => unreachable!("barriers run before their plan"),
        Call::Bcast {
            buf,
            count,
            ty,
            root,
        } => {
            let n = *arg(count)?;
            let ty = arg(ty)?;
            let root = intra_root(c, *root)?;
            not_in_place(*buf, n, "the buffer")?;
            let b = typed(buf.ptr(), n, ty)?;
            if direct(w, how, &[&b]) {
                // SAFETY: MPI: the buffer holds `count` elements, one run of bytes (checked).
                let bytes = raw_mut(b.ptr, b.bytes());
                return done(coll::direct::bcast(w, c, p.tag(), bytes, root));
            }
            launch(w, coll::bcast::bcast(p, b, root), how)
        }
        Call::Reduce {
            send,
            recv,
            count,
            ty,
            op,
            root,
        } => {
            let n = *arg(count)?;
            let ty = arg(ty)?;
            let root = intra_root(c, *root)?;
            let r = arg(op)?;
            let (input, output) = if c.rank == root {
                not_in_place(*recv, n, "recvbuf")?;
                let out = typed(recv.ptr(), n, ty)?;
                if send.in_place {
                    (out, Some(out))
                } else {
                    no_alias(send.ptr(), recv.ptr(), n > 0)?;
                    (typed(send.ptr(), n, ty)?, Some(out))
                }
            } else {
                not_in_place(*send, n, "sendbuf")?;
                (typed(send.ptr(), n, ty)?, None)
            };
            if (r.commutative || root == 0) && direct(w, how, &[&input]) {
                // SAFETY: MPI: input readable and the root's output writable for `count`
                // elements, each one run of bytes (checked); they are the same memory only
                // for MPI_IN_PLACE, and then the output alone is passed.
                let out = output.map(|o| raw_mut(o.ptr, o.bytes()));
                let inp = (!send.in_place).then(|| raw(input.ptr, input.bytes()));
                return done(coll::direct::reduce(
                    w,
                    c,
                    p.tag(),
                    inp,
                    out,
                    root,
                    &*r.combine,
                ));
            }
            launch(w, coll::reduce::reduce(p, input, output, r, root), how)
        }
        Call::Allreduce {
            send,
            recv,
            count,
            ty,
            op,
        } => {
            let n = *arg(count)?;
            let ty = arg(ty)?;
            let r = arg(op)?;
            let (input, out) = in_out(*send, *recv, n, ty)?;
            if direct(w, how, &[&input, &out]) {
                // SAFETY: MPI: recvbuf writable and sendbuf readable for `count` elements,
                // each one run of bytes (checked), distinct unless MPI_IN_PLACE (then the
                // same pointer: no copy).
                let (tag, len, f) = (p.tag(), out.bytes(), &*r.combine);
                let input = Some(input.ptr as *const u8);
                return done(direct_allreduce(
                    w,
                    c,
                    tag,
                    input,
                    out.ptr,
                    len,
                    f,
                    r.commutative,
                ));
            }
            launch(w, coll::allreduce::allreduce(p, input, out, r), how)
        }
        Call::Gather { send, recv, root } => {
            let root = intra_root(c, *root)?;
            let (sendb, recvb) = rooted(c, root, send, "sendbuf", recv, "recvbuf", true)?;
            launch(w, coll::gather::gatherv(p, sendb, recvb, root), how)
        }
        Call::Scatter { send, recv, root } => {
            let root = intra_root(c, *root)?;
            let (recvb, sendb) = rooted(c, root, recv, "recvbuf", send, "sendbuf", false)?;
            launch(w, coll::gather::scatterv(p, sendb, recvb, root), how)
        }
        Call::Allgather { send, recv } => {
            if let (How::Block, Counts::Uniform(rc)) = (how, &recv.counts) {
                if allgather_direct(w, c, p.tag(), send, (recv.buf, *arg(rc)?, arg(&recv.ty)?))? {
                    return Ok(None);
                }
            }
            let sendb = if send.buf.in_place {
                None
            } else {
                let n = *arg(&send.count)?;
                let sty = arg(&send.ty)?;
                Some(typed(send.buf.ptr(), n, sty)?)
            };
            let rty = arg(&recv.ty)?;
            let (counts, displs) = recv.counts.arrays(c.size())?;
            not_in_place(recv.buf, counts.iter().sum(), "recvbuf")?;
            let b = blocks(recv.buf, rty, counts, displs)?;
            if let Some(s) = &sendb {
                let own = b.block(c.rank);
                fits(s, &own)?;
                no_alias(send.buf.ptr(), own.ptr, s.bytes() > 0)?;
            }
            launch(w, coll::allgather::allgatherv(p, sendb, b), how)
        }
        Call::Alltoall {
            send,
            sends,
            recv,
            recvs,
        } => {
            let n = c.size();
            if let (How::Block, Side::Uniform(sc, st), Side::Uniform(rc, rt)) = (how, sends, recvs)
            {
                if !send.in_place {
                    let (sn, rn) = (*arg(sc)?, *arg(rc)?);
                    let (sty, rty) = (arg(st)?, arg(rt)?);
                    if alltoall_direct(w, c, p.tag(), (*send, sn, sty), (*recv, rn, rty))? {
                        return Ok(None);
                    }
                }
            }
            let rs = recvs.resolve(n)?;
            let rbufs = rs.bufs(*recv)?;
            let total: usize = rbufs.iter().map(|b| b.bytes()).sum();
            not_in_place(*recv, total, "recvbuf")?;
            let ss;
            let sbufs = if send.in_place {
                None
            } else {
                ss = sends.resolve(n)?;
                let s = ss.bufs(*send)?;
                no_alias(send.ptr(), recv.ptr(), total > 0)?;
                fits(&s[c.rank], &rbufs[c.rank])?;
                Some(s)
            };
            launch(w, coll::alltoall::alltoallw(p, sbufs, rbufs), how)
        }
        Call::ReduceScatter {
            send,
            recv,
            counts,
            ty,
            op,
        } => {
            let (counts, _) = counts.arrays(c.size())?;
            let ty = arg(ty)?;
            let r = arg(op)?;
            let total: usize = counts.iter().sum();
            let mine = counts[c.rank];
            not_in_place(*recv, mine, "recvbuf")?;
            let ip = send.in_place;
            let output = typed(recv.ptr(), mine, ty)?;
            let input = if ip {
                typed(recv.ptr(), total, ty)?
            } else {
                no_alias(send.ptr(), recv.ptr(), mine > 0)?;
                typed(send.ptr(), total, ty)?
            };
            let s = coll::reduce_scatter::reduce_scatter(p, input, output, ip, &counts, r);
            launch(w, s, how)
        }
        Call::Scan {
            send,
            recv,
            count,
            ty,
            op,
            exclusive,
        } => {
            let n = *arg(count)?;
            let ty = arg(ty)?;
            let r = arg(op)?;
            let (input, out) = in_out(*send, *recv, n, ty)?;
            launch(w, coll::scan::scan(p, input, out, r, *exclusive), how)
        }
        Call::Neighbor {
            send,
            sends,
            recv,
            recvs,
            topo,
        } => {
            let Some(t) = arg(topo)? else {
                return mpi_err!(Topology, "the communicator has no topology");
            };
            let (sources, mut dests) = t.neighbors(c.rank);
            let ss = sends.resolve(dests.len())?;
            let rs = recvs.resolve(sources.len())?;
            not_in_place(*send, ss.counts.iter().sum(), "sendbuf")?;
            not_in_place(*recv, rs.counts.iter().sum(), "recvbuf")?;
            let mut sbufs = ss.bufs(*send)?;
            let rbufs = rs.bufs(*recv)?;
            if matches!(**t, crate::comm::topology::Topology::Cart(_)) {
                // In each dimension the block for the negative neighbour goes after the one
                // for the positive neighbour: when both are the same process (a periodic
                // dimension of one or two), messages from one peer match in order, and its
                // receive for our side in its negative direction (us, seen from there)
                // comes first (MPI-4.0 §8.6, MPICH's coll/ring_neighbor_alltoall).
                for pair in (0..dests.len() / 2).map(|d| 2 * d) {
                    dests.swap(pair, pair + 1);
                    sbufs.swap(pair, pair + 1);
                }
            }
            let s = coll::neighbor::neighbor_alltoallw(p, &sources, &dests, &sbufs, &rbufs);
            launch(w, s, how)
        }
    }
}

/// MPI_Alltoall on `coll::direct` when it fits there (blocking, contiguous, blocks small
/// enough to go eagerly): Ok(true) when done, Ok(false) to take the general path.
///
/// # Safety
/// As `Call::run`.
unsafe fn alltoall_direct(
    w: &World,
    c: &Communicator,
    tag: i32,
    (send, scount, sty): (super::Addr, usize, &Datatype),
    (recv, rcount, rty): (super::Addr, usize, &Datatype),
) -> Result<bool> {
    let n = c.size();
    let (Some(sn), Some(rn)) = (scount.checked_mul(n), rcount.checked_mul(n)) else {
        return Ok(false);
    };
    let (s, r) = (typed(send.ptr(), sn, sty)?, typed(recv.ptr(), rn, rty)?);
    let total = r.bytes();
    let block = total / n;
    if !(s.contiguous() && r.contiguous() && s.bytes() == total) || block > super::direct_max(w) {
        return Ok(false);
    }
    not_in_place(recv, total, "recvbuf")?;
    no_alias(send.ptr(), recv.ptr(), total > 0)?;
    // SAFETY: MPI: n adjacent blocks (uniform counts of a contiguous type) readable at
    // sendbuf and writable at recvbuf, distinct buffers (checked).
    let (sb, rb) = (raw(s.ptr, total), raw_mut(r.ptr, total));
    coll::direct::alltoall(w, c, tag, sb, rb)?;
    Ok(true)
}

/// MPI_Allgather on `coll::direct` when it fits there (blocking, contiguous, short in all
/// — `allgather::allgatherv`'s one-step form — with blocks within the eager limit, which
/// the schedule would cut): Ok(true) when done, Ok(false) to take the general path.
///
/// # Safety
/// As `Call::run`.
unsafe fn allgather_direct<T: Deref<Target = Datatype>>(
    w: &World,
    c: &Communicator,
    tag: i32,
    send: &One<T>,
    (recv, rcount, rty): (super::Addr, usize, &Datatype),
) -> Result<bool> {
    let n = c.size();
    let Some(rn) = rcount.checked_mul(n) else {
        return Ok(false);
    };
    let r = typed(recv.ptr(), rn, rty)?;
    let (total, block) = (r.bytes(), r.bytes() / n);
    if !r.contiguous()
        || total >= coll::allgather::SHORT_BYTES
        || block > w.config.eager_limit
        || recv.in_place
    {
        return Ok(false);
    }
    let own = r.at((c.rank * rcount) as isize, rcount);
    if !send.buf.in_place {
        let s = typed(send.buf.ptr(), *arg(&send.count)?, arg(&send.ty)?)?;
        if !s.contiguous() {
            return Ok(false);
        }
        fits(&s, &own)?;
        no_alias(send.buf.ptr(), own.ptr, s.bytes() > 0)?;
        // SAFETY: MPI: the send buffer is readable and this rank's block writable for
        // `block` bytes (they fit, checked), distinct memory (checked).
        raw_mut(own.ptr, block).copy_from_slice(raw(s.ptr, block));
    }
    if total == 0 {
        return Ok(true); // as the schedule: nothing to send
    }
    // SAFETY: MPI: n adjacent blocks of a contiguous type, writable at recvbuf.
    coll::direct::allgather(w, c, tag, raw_mut(r.ptr, total))?;
    Ok(true)
}

/// The two sides of a gather (`gathering`) or a scatter at this rank: the single buffer
/// `one` (sent by a gather, received by a scatter) of every rank but an in-place root,
/// then the root's blocks `many`, each checked in MPICH's order; at the root, its own
/// block and `one` must fit each other and not be the same memory.
#[allow(clippy::type_complexity)]
fn rooted<'a, T: Deref<Target = Datatype>>(
    c: &Communicator,
    root: usize,
    one: &'a One<T>,
    one_name: &str,
    many: &'a Many<T>,
    many_name: &str,
    gathering: bool,
) -> Result<(Option<TypedBuf<'a>>, Option<Blocks<'a>>)> {
    let is_root = c.rank == root;
    let single = if is_root && one.buf.in_place {
        None
    } else {
        let n = *arg(&one.count)?;
        let ty = arg(&one.ty)?;
        not_in_place(one.buf, n, one_name)?;
        Some(typed(one.buf.ptr(), n, ty)?)
    };
    if !is_root {
        return Ok((single, None));
    }
    let ty = arg(&many.ty)?;
    let (counts, displs) = many.counts.arrays(c.size())?;
    not_in_place(many.buf, counts.iter().sum(), many_name)?;
    let b = blocks(many.buf, ty, counts, displs)?;
    if let Some(s) = &single {
        let own = b.block(root);
        let (from, to) = if gathering { (s, &own) } else { (&own, s) };
        fits(from, to)?;
        no_alias(from.ptr, to.ptr, s.bytes() > 0)?;
    }
    Ok((single, Some(b)))
}

/// The input and output of an allreduce or a scan: `n` elements of `ty` received at
/// `recv` (never MPI_IN_PLACE), sent from `send` or, in place, from `recv` itself (else the
/// two must not be the same memory).
fn in_out(send: Addr, recv: Addr, n: usize, ty: &Datatype) -> Result<(TypedBuf<'_>, TypedBuf<'_>)> {
    not_in_place(recv, n, "recvbuf")?;
    let out = typed(recv.ptr(), n, ty)?;
    if send.in_place {
        return Ok((out, out));
    }
    no_alias(send.ptr(), recv.ptr(), n > 0)?;
    Ok((typed(send.ptr(), n, ty)?, out))
}
