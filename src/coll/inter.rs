//! Collectives on intercommunicators (MPI-3.1 §5.2.2): rooted ones move data between the
//! root and the other group; all-to-all ones between the two groups, each process
//! receiving what the remote group contributes. Simple algorithms: transfers that name one
//! remote process go straight over the intercommunicator; reductions and the barrier
//! gather to the local leader (local rank 0, on the local intracommunicator's context),
//! which exchanges with the remote leader and passes the result on within its group.

use super::plan::{copy_buf, sub, Blocks, Plan, Reducer, TypedBuf};
use super::reduce::combine_children;
use super::schedule::{Buf, Schedule};

/// The root argument of a rooted collective on an intercommunicator.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Root {
    /// MPI_ROOT: this process is the root.
    Here,
    /// MPI_PROC_NULL: in the root's group, not the root (takes no part).
    Idle,
    /// The root's rank in the remote group.
    Remote(usize),
}

fn empty() -> Buf {
    Buf::User {
        ptr: std::ptr::null_mut(),
        len: 0,
    }
}

/// MPI_Barrier / MPI_Ibarrier: the leaders hear from their groups, signal each other, and
/// release their groups, so no process leaves before every remote one has entered.
pub fn barrier(mut p: Plan) -> Schedule {
    if p.rank != 0 {
        p.send_local(0, empty());
        p.step();
        p.recv_local(0, empty());
    } else {
        for i in 1..p.n {
            p.recv_local(i, empty());
        }
        p.step();
        p.send(0, empty());
        p.recv(0, empty());
        p.step();
        for i in 1..p.n {
            p.send_local(i, empty());
        }
    }
    p.step();
    p.build()
}

/// MPI_Bcast / MPI_Ibcast: the root sends to the remote leader, which passes it on.
pub fn bcast(mut p: Plan, buf: Option<TypedBuf>, root: Root) -> Schedule {
    match (root, buf) {
        (Root::Here, Some(buf)) => {
            let b = p.input(buf);
            p.send(0, b);
        }
        (Root::Remote(root), Some(buf)) => {
            let out = p.output(buf);
            if p.rank == 0 {
                p.recv(root, out);
                p.step();
                for i in 1..p.n {
                    p.send_local(i, out);
                }
            } else {
                p.recv_local(0, out);
            }
        }
        _ => {}
    }
    p.step();
    p.build()
}

/// MPI_Gather(v) / MPI_Igather(v): every remote process sends to the root, which holds
/// one block per remote rank (`recv`, None away from the root).
pub fn gatherv(mut p: Plan, send: Option<TypedBuf>, recv: Option<Blocks>, root: Root) -> Schedule {
    match (root, send, recv) {
        (Root::Here, _, Some(recv)) => {
            for i in 0..p.comm.peer_size() {
                let b = p.output(recv.block(i));
                p.recv(i, b);
            }
        }
        (Root::Remote(root), Some(s), _) => {
            let b = p.input(s);
            p.send(root, b);
        }
        _ => {}
    }
    p.step();
    p.build()
}

/// MPI_Scatter(v) / MPI_Iscatter(v): the root sends block i to remote rank i.
pub fn scatterv(mut p: Plan, send: Option<Blocks>, recv: Option<TypedBuf>, root: Root) -> Schedule {
    match (root, send, recv) {
        (Root::Here, Some(send), _) => {
            for i in 0..p.comm.peer_size() {
                let b = p.input(send.block(i));
                p.send(i, b);
            }
        }
        (Root::Remote(root), _, Some(r)) => {
            let b = p.output(r);
            p.recv(root, b);
        }
        _ => {}
    }
    p.step();
    p.build()
}

/// The group's contributions combined in rank order at the local leader: the buffer that
/// holds the result there once the steps added so far have run (at the other members,
/// their own input, already sent).
fn reduce_to_leader(p: &mut Plan, input: TypedBuf, r: &Reducer) -> Buf {
    if p.rank != 0 {
        let b = p.input(input);
        p.send_local(0, b);
        p.step();
        return b;
    }
    let mine = p.copy_of(input);
    let parts: Vec<Buf> = (1..p.n)
        .map(|i| {
            let t = p.scratch(input.bytes());
            p.recv_local(i, t);
            t
        })
        .collect();
    p.step();
    combine_children(p, r, mine, parts)
}

/// MPI_Reduce / MPI_Ireduce: the remote group's contributions, combined at its leader, go
/// to the root (`output`: its receive buffer).
pub fn reduce(
    mut p: Plan,
    input: Option<TypedBuf>,
    output: Option<TypedBuf>,
    r: Option<&Reducer>,
    root: Root,
) -> Schedule {
    match (root, input, output, r) {
        (Root::Here, _, Some(out), _) => {
            let o = p.output(out);
            p.recv(0, o);
        }
        (Root::Remote(root), Some(input), _, Some(r)) => {
            let acc = reduce_to_leader(&mut p, input, r);
            if p.rank == 0 {
                p.send(root, acc);
            }
        }
        _ => {}
    }
    p.step();
    p.build()
}

/// MPI_Allreduce / MPI_Iallreduce: each group's result is the other group's
/// contributions combined. The leaders swap their groups' reductions and broadcast
/// what they received.
pub fn allreduce(mut p: Plan, input: TypedBuf, output: TypedBuf, r: &Reducer) -> Schedule {
    let acc = reduce_to_leader(&mut p, input, r);
    let out = p.output(output);
    if p.rank == 0 {
        p.send(0, acc);
        p.recv(0, out);
        p.step();
        for i in 1..p.n {
            p.send_local(i, out);
        }
    } else {
        p.recv_local(0, out);
    }
    p.step();
    p.build()
}

/// MPI_Allgather(v) / MPI_Iallgather(v): every process sends its buffer to every remote
/// process and receives block i from remote rank i.
pub fn allgatherv(mut p: Plan, send: TypedBuf, recv: Blocks) -> Schedule {
    let s = p.input(send);
    for i in 0..p.comm.peer_size() {
        p.send(i, s);
        let b = p.output(recv.block(i));
        p.recv(i, b);
    }
    p.step();
    p.build()
}

/// MPI_Alltoall(v,w) / MPI_Ialltoall(v,w): block i of `send` goes to remote rank i, block
/// i of `recv` comes from it.
pub fn alltoallw(mut p: Plan, send: Vec<TypedBuf>, recv: Vec<TypedBuf>) -> Schedule {
    for (i, (s, r)) in send.into_iter().zip(recv).enumerate() {
        let sb = p.input(s);
        p.send(i, sb);
        let rb = p.output(r);
        p.recv(i, rb);
    }
    p.step();
    p.build()
}

/// MPI_Reduce_scatter(_block) and their nonblocking forms: each group's vectors
/// (`input`, the sum of `counts` elements, the same length in both groups) are combined
/// at its leader and sent to the remote leader, which scatters them over its group by
/// its own `counts` (this process's part lands in `output`).
pub fn reduce_scatter(
    mut p: Plan,
    input: TypedBuf,
    output: TypedBuf,
    counts: &[usize],
    r: &Reducer,
) -> Schedule {
    let acc = reduce_to_leader(&mut p, input, r);
    let out = p.output(output);
    if p.rank == 0 {
        let elem = input.ty.size;
        let got = p.scratch(input.bytes());
        p.send(0, acc);
        p.recv(0, got);
        p.step();
        let mut off = counts[0] * elem;
        for (i, &c) in counts.iter().enumerate().skip(1) {
            p.send_local(i, sub(got, off, c * elem));
            off += c * elem;
        }
        let own = sub(got, 0, counts[0] * elem);
        p.work(move |sc| {
            copy_buf(sc, own, out);
            Ok(())
        });
    } else {
        p.recv_local(0, out);
    }
    p.step();
    p.build()
}
