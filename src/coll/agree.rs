//! An allreduce of one `u32` as schedule steps, for the runtime's nonblocking agreements
//! (MPI_Comm_idup's context id): the local group combines at its leader (local rank 0),
//! which on an intercommunicator combines with the remote leader's value, and passes the
//! result back. Linear: these run once per communicator created, over few bytes.

use super::plan::{sub, Plan};
use super::schedule::Buf;

/// After the steps this adds, the 4-byte buffer `val` holds `op` over every process's
/// value (both groups of an intercommunicator). `val` is read and written by local work
/// around these steps.
pub fn allreduce_u32(p: &mut Plan, val: Buf, op: fn(u32, u32) -> u32) {
    if p.rank != 0 {
        p.send_local(0, val);
        p.step();
        p.recv_local(0, val);
        p.step();
        return;
    }
    let n = p.n;
    let parts = p.scratch(4 * n.saturating_sub(1));
    for i in 1..n {
        p.recv_local(i, sub(parts, 4 * (i - 1), 4));
    }
    let fold = move |sc: &mut [Vec<u8>], bufs: &[Buf]| {
        let mut acc = read(sc, val);
        for &b in bufs {
            acc = op(acc, read(sc, b));
        }
        write(sc, val, acc);
    };
    let mine: Vec<Buf> = (1..n).map(|i| sub(parts, 4 * (i - 1), 4)).collect();
    p.work(move |sc| {
        fold(sc, &mine);
        Ok(())
    });
    if p.comm.is_inter() {
        let other = p.scratch(4);
        p.send(0, val);
        p.recv(0, other);
        p.work(move |sc| {
            fold(sc, &[other]);
            Ok(())
        });
    }
    for i in 1..n {
        p.send_local(i, val);
    }
    p.step();
}

/// The `u32` in a 4-byte scratch buffer.
pub fn read(sc: &[Vec<u8>], b: Buf) -> u32 {
    match b {
        Buf::Scratch { idx, off, .. } => {
            u32::from_le_bytes(sc[idx][off..off + 4].try_into().expect("4 bytes"))
        }
        Buf::User { .. } => unreachable!("agreement values live in scratch buffers"),
    }
}

pub fn write(sc: &mut [Vec<u8>], b: Buf, v: u32) {
    if let Buf::Scratch { idx, off, .. } = b {
        sc[idx][off..off + 4].copy_from_slice(&v.to_le_bytes());
    }
}
