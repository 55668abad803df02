//! Every collective algorithm run for 1..=16 in-process ranks: one point-to-point engine
//! per rank, their actions carried between them by `pt2pt::testnet` (RDMA is a key-checked
//! copy: all "processes" share this address space), each rank's schedule driven by its own
//! `Schedules`, and the
//! results compared with a serial computation. The eager limit is small, so long messages
//! take the rendezvous paths (plain and split).

use super::plan::{Blocks, Plan, Reducer, TypedBuf};
use super::schedule::{Schedule, Schedules};
use super::{KIND_ALLGATHER, KIND_ALLREDUCE, KIND_ALLTOALL, KIND_BCAST, KIND_GATHER};
use super::{KIND_NEIGHBOR, KIND_REDUCE, KIND_REDUCE_SCATTER, KIND_SCAN, KIND_SCATTER};
use crate::comm::{Communicator, Group};
use crate::datatype::{Basic, Datatype};
use crate::op as ops;
use crate::pt2pt::testnet::Net;
use crate::pt2pt::{ProtocolSettings, Pt2pt};
use std::sync::Arc;

/// n ranks: their communicators (one group, ranks 0..n) and engines.
struct Mesh {
    comms: Vec<Communicator>,
    net: Net,
    engs: Vec<Pt2pt>,
    colls: Vec<Schedules>,
}

impl Mesh {
    fn new(n: usize) -> Self {
        let group = Arc::new(Group::new((0..n).collect()));
        let settings = ProtocolSettings {
            eager_limit: 256,
            rdma: true,
            split_threshold: 8192,
            rndv: crate::pt2pt::Rndv::Auto,
            pipeline: Default::default(),
        };
        Mesh {
            comms: (0..n)
                .map(|r| Communicator::new(8, r, group.clone()))
                .collect(),
            net: Net::new(n, 0),
            engs: Net::engines(n, &settings, 4096),
            colls: (0..n).map(|_| Schedules::default()).collect(),
        }
    }

    /// n ranks as an intercommunicator: world ranks 0..a and a..n are its two groups.
    fn new_inter(n: usize, a: usize) -> Self {
        let mut m = Mesh::new(n);
        let lo = Arc::new(Group::new((0..a).collect()));
        let hi = Arc::new(Group::new((a..n).collect()));
        m.comms = (0..n)
            .map(|w| match w < a {
                true => Communicator::new_inter(8, w, lo.clone(), hi.clone()),
                false => Communicator::new_inter(8, w - a, hi.clone(), lo.clone()),
            })
            .collect();
        m
    }

    /// Start rank `r`'s schedule.
    fn start(&mut self, r: usize, s: Schedule) -> super::schedule::CollId {
        self.colls[r].start(s, &mut self.engs[r], &mut self.net.ends[r])
    }

    /// One round: each rank's collectives advance, then the engines' actions are carried.
    fn round(&mut self) -> usize {
        let mut events = 0;
        for r in 0..self.engs.len() {
            events += self.colls[r].progress(&mut self.engs[r], &mut self.net.ends[r]);
        }
        events + self.net.round(&mut self.engs)
    }

    /// Run one schedule per rank to completion; every rank must succeed.
    fn run(&mut self, scheds: Vec<Schedule>) {
        let n = self.comms.len();
        let ids: Vec<_> = scheds
            .into_iter()
            .enumerate()
            .map(|(r, s)| self.start(r, s))
            .collect();
        let mut done = vec![false; n];
        for _ in 0..1_000_000 {
            let events = self.round();
            for r in 0..n {
                if !done[r] {
                    if let Some(res) = self.colls[r].take_if_done(ids[r]) {
                        res.unwrap_or_else(|e| panic!("rank {r} of {n}: {e}"));
                        done[r] = true;
                    }
                }
            }
            if done.iter().all(|&d| d) {
                return;
            }
            assert!(events > 0, "collective stuck on {n} ranks (done: {done:?})");
        }
        panic!("collective did not finish on {n} ranks");
    }
}

fn int_type() -> Datatype {
    Datatype::predefined("MPI_INT", 4, Some(Basic::I32))
}

/// One int in an 8-byte extent: not contiguous, so data is packed and unpacked.
fn gappy_int() -> Datatype {
    let mut t = Datatype::predefined("gappy", 4, Some(Basic::I32));
    t.extent = 8;
    t.predefined = false;
    t
}

/// 2x2 matrices of i32 modulo a prime: associative, not commutative.
fn mat_mul(a: &[i32], b: &[i32]) -> [i32; 4] {
    const P: i64 = 1009;
    let m = |x: i32, y: i32| x as i64 * y as i64;
    [
        ((m(a[0], b[0]) + m(a[1], b[2])) % P) as i32,
        ((m(a[0], b[1]) + m(a[1], b[3])) % P) as i32,
        ((m(a[2], b[0]) + m(a[3], b[2])) % P) as i32,
        ((m(a[2], b[1]) + m(a[3], b[3])) % P) as i32,
    ]
}

fn mat_reducer() -> Reducer {
    Reducer {
        combine: Arc::new(|input: &[u8], inout: &mut [u8]| {
            for (x, y) in input.chunks_exact(16).zip(inout.chunks_exact_mut(16)) {
                let a = ints(x);
                let b = ints(y);
                y.copy_from_slice(&bytes(&mat_mul(&a, &b)));
            }
            Ok(())
        }),
        commutative: false,
        elem: 16,
    }
}

fn sum_reducer() -> Reducer {
    Reducer {
        combine: Arc::new(|input: &[u8], inout: &mut [u8]| {
            ops::apply_packed(ops::Op::Sum, Basic::I32, input, inout).unwrap();
            Ok(())
        }),
        commutative: true,
        elem: 4,
    }
}

fn ints(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
        .collect()
}

fn bytes(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

/// Value of rank r at index i.
fn val(r: usize, i: usize) -> i32 {
    ((r * 131 + i * 7) % 1000) as i32 - 500
}

/// Matrix k of rank r (4 ints).
fn mat(r: usize, k: usize) -> [i32; 4] {
    [
        ((r * 3 + k) % 7 + 1) as i32,
        ((r * 5 + 2 * k) % 11) as i32,
        ((r * 2 + 3 * k) % 13) as i32,
        ((r + k) % 5 + 1) as i32,
    ]
}

fn mat_fold(lo: usize, hi: usize, k: usize) -> [i32; 4] {
    let mut m = mat(lo, k);
    for r in lo + 1..hi {
        m = mat_mul(&m, &mat(r, k));
    }
    m
}

const SIZES: std::ops::RangeInclusive<usize> = 1..=16;

#[test]
fn barrier_every_size() {
    for n in SIZES {
        let mut mesh = Mesh::new(n);
        let s = mesh.comms.iter().map(super::barrier_schedule).collect();
        mesh.run(s);
    }
}

#[test]
fn bcast_every_size_root_and_algorithm() {
    let t = int_type();
    let g = gappy_int();
    for n in SIZES {
        for &count in &[0usize, 1, 33, 3000, 140_000] {
            if count == 140_000 && n != 16 && n != 5 {
                continue; // the long path (scatter + ring allgather) needs 16 ranks
            }
            for root in [0, n / 2, n - 1] {
                for ty in [&t, &g] {
                    let ext = ty.extent as usize / 4;
                    let mut bufs: Vec<Vec<i32>> = (0..n)
                        .map(|r| {
                            (0..count * ext)
                                .map(|i| if r == root { val(root, i) } else { -1 })
                                .collect()
                        })
                        .collect();
                    let mut mesh = Mesh::new(n);
                    let s = (0..n)
                        .map(|r| {
                            let p = Plan::new(&mesh.comms[r], KIND_BCAST);
                            let b = TypedBuf::new(bufs[r].as_mut_ptr() as *const u8, count, ty);
                            super::bcast::bcast(p, b, root)
                        })
                        .collect();
                    mesh.run(s);
                    for (r, b) in bufs.iter().enumerate() {
                        for e in 0..count {
                            assert_eq!(
                                b[e * ext],
                                val(root, e * ext),
                                "n {n} root {root} rank {r}"
                            );
                            if ext == 2 && r != root {
                                assert_eq!(b[e * 2 + 1], -1, "gap written");
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Reduce, Allreduce, Scan and Exscan with a commutative and a non-commutative operation.
#[test]
fn reductions_every_size() {
    let t = int_type();
    let m4 = {
        let mut m = Datatype::predefined("mat", 16, None);
        m.predefined = false;
        m
    };
    for n in SIZES {
        for &count in &[0usize, 1, 7, 600, 5000] {
            for commutative in [true, false] {
                let (ty, r, per) = if commutative {
                    (&t, sum_reducer(), 1)
                } else {
                    (&m4, mat_reducer(), 4)
                };
                let input = |rank: usize| -> Vec<i32> {
                    if commutative {
                        (0..count).map(|i| val(rank, i)).collect()
                    } else {
                        (0..count).flat_map(|k| mat(rank, k)).collect()
                    }
                };
                let expect = |lo: usize, hi: usize| -> Vec<i32> {
                    if commutative {
                        (0..count)
                            .map(|i| (lo..hi).map(|q| val(q, i)).sum())
                            .collect()
                    } else {
                        (0..count).flat_map(|k| mat_fold(lo, hi, k)).collect()
                    }
                };
                let ins: Vec<Vec<i32>> = (0..n).map(input).collect();
                // Allreduce
                let mut outs = vec![vec![0i32; count * per]; n];
                let mut mesh = Mesh::new(n);
                let s = (0..n)
                    .map(|q| {
                        let p = Plan::new(&mesh.comms[q], KIND_ALLREDUCE);
                        let i = TypedBuf::new(ins[q].as_ptr() as *const u8, count, ty);
                        let o = TypedBuf::new(outs[q].as_mut_ptr() as *const u8, count, ty);
                        super::allreduce::allreduce(p, i, o, &r)
                    })
                    .collect();
                mesh.run(s);
                for (q, o) in outs.iter().enumerate() {
                    assert_eq!(o, &expect(0, n), "allreduce n {n} count {count} rank {q}");
                }
                // Reduce to three roots, in place at the middle one.
                for root in [0, n / 2, n - 1] {
                    let in_place = root == n / 2;
                    let mut outs: Vec<Vec<i32>> = (0..n)
                        .map(|q| {
                            if in_place && q == root {
                                ins[q].clone()
                            } else {
                                vec![0; count * per]
                            }
                        })
                        .collect();
                    let mut mesh = Mesh::new(n);
                    let s = (0..n)
                        .map(|q| {
                            let p = Plan::new(&mesh.comms[q], KIND_REDUCE);
                            let o = TypedBuf::new(outs[q].as_mut_ptr() as *const u8, count, ty);
                            let i = if in_place && q == root {
                                o
                            } else {
                                TypedBuf::new(ins[q].as_ptr() as *const u8, count, ty)
                            };
                            super::reduce::reduce(p, i, (q == root).then_some(o), &r, root)
                        })
                        .collect();
                    mesh.run(s);
                    assert_eq!(outs[root], expect(0, n), "reduce n {n} root {root}");
                }
                // Scan and Exscan
                for exclusive in [false, true] {
                    let mut outs = vec![vec![7i32; count * per]; n];
                    let mut mesh = Mesh::new(n);
                    let s = (0..n)
                        .map(|q| {
                            let p = Plan::new(&mesh.comms[q], KIND_SCAN);
                            let i = TypedBuf::new(ins[q].as_ptr() as *const u8, count, ty);
                            let o = TypedBuf::new(outs[q].as_mut_ptr() as *const u8, count, ty);
                            super::scan::scan(p, i, o, &r, exclusive)
                        })
                        .collect();
                    mesh.run(s);
                    for (q, o) in outs.iter().enumerate() {
                        if exclusive && q == 0 {
                            assert!(o.iter().all(|&x| x == 7), "exscan wrote rank 0");
                        } else {
                            let hi = if exclusive { q } else { q + 1 };
                            assert_eq!(o, &expect(0, hi), "scan n {n} rank {q} excl {exclusive}");
                        }
                    }
                }
                // Reduce_scatter with uneven blocks (some empty), and in place.
                for in_place in [false, true] {
                    let counts: Vec<usize> = (0..n)
                        .map(|i| if i % 3 == 1 { 0 } else { count / 2 + i })
                        .collect();
                    let total: usize = counts.iter().sum();
                    let full: Vec<Vec<i32>> = (0..n)
                        .map(|q| {
                            if commutative {
                                (0..total).map(|i| val(q, i)).collect()
                            } else {
                                (0..total).flat_map(|k| mat(q, k)).collect()
                            }
                        })
                        .collect();
                    let mut outs: Vec<Vec<i32>> = (0..n)
                        .map(|q| {
                            if in_place {
                                full[q].clone()
                            } else {
                                vec![0; (total.max(1)) * per]
                            }
                        })
                        .collect();
                    let mut mesh = Mesh::new(n);
                    let s = (0..n)
                        .map(|q| {
                            let p = Plan::new(&mesh.comms[q], KIND_REDUCE_SCATTER);
                            let src = if in_place {
                                outs[q].as_ptr()
                            } else {
                                full[q].as_ptr()
                            };
                            let i = TypedBuf::new(src as *const u8, total, ty);
                            let o = TypedBuf::new(outs[q].as_mut_ptr() as *const u8, counts[q], ty);
                            super::reduce_scatter::reduce_scatter(p, i, o, in_place, &counts, &r)
                        })
                        .collect();
                    mesh.run(s);
                    for q in 0..n {
                        let before: usize = counts[..q].iter().sum();
                        let want: Vec<i32> = if commutative {
                            (before..before + counts[q])
                                .map(|i| (0..n).map(|x| val(x, i)).sum())
                                .collect()
                        } else {
                            (before..before + counts[q])
                                .flat_map(|k| mat_fold(0, n, k))
                                .collect()
                        };
                        assert_eq!(
                            &outs[q][..counts[q] * per],
                            &want[..],
                            "reduce_scatter n {n} rank {q}"
                        );
                    }
                }
            }
        }
    }
}

/// Gather(v), Scatter(v) and Allgather(v) with uneven, reordered blocks.
#[test]
fn gathers_and_scatters_every_size() {
    let t = int_type();
    let g = gappy_int();
    for n in SIZES {
        for &c in &[0usize, 1, 5, 900] {
            for ty in [&t, &g] {
                let ext = ty.extent as usize / 4;
                let counts: Vec<usize> = (0..n).map(|i| (i % 3) * c + 1).collect();
                let mut displs = vec![0isize; n];
                let mut at = 0;
                for i in (0..n).rev() {
                    displs[i] = at as isize;
                    at += counts[i] + 1;
                }
                let total = at;
                let mine =
                    |q: usize| -> Vec<i32> { (0..counts[q] * ext).map(|i| val(q, i)).collect() };
                let sends: Vec<Vec<i32>> = (0..n).map(mine).collect();
                for root in [0, n - 1] {
                    // gatherv
                    let mut all = vec![-1i32; total * ext];
                    let mut mesh = Mesh::new(n);
                    let s = (0..n)
                        .map(|q| {
                            let p = Plan::new(&mesh.comms[q], KIND_GATHER);
                            let send = TypedBuf::new(sends[q].as_ptr() as *const u8, counts[q], ty);
                            let recv = (q == root).then(|| Blocks {
                                base: all.as_mut_ptr() as *mut u8,
                                ty,
                                counts: counts.clone(),
                                displs: displs.clone(),
                            });
                            super::gather::gatherv(p, Some(send), recv, root)
                        })
                        .collect();
                    mesh.run(s);
                    for q in 0..n {
                        for e in 0..counts[q] {
                            let at = (displs[q] as usize + e) * ext;
                            assert_eq!(all[at], val(q, e * ext), "gatherv n {n} block {q}");
                        }
                    }
                    // scatterv back into fresh buffers
                    let mut outs: Vec<Vec<i32>> =
                        (0..n).map(|q| vec![-1; counts[q] * ext]).collect();
                    let mut mesh = Mesh::new(n);
                    let s = (0..n)
                        .map(|q| {
                            let p = Plan::new(&mesh.comms[q], KIND_SCATTER);
                            let send = (q == root).then(|| Blocks {
                                base: all.as_mut_ptr() as *mut u8,
                                ty,
                                counts: counts.clone(),
                                displs: displs.clone(),
                            });
                            let recv =
                                TypedBuf::new(outs[q].as_mut_ptr() as *const u8, counts[q], ty);
                            super::gather::scatterv(p, send, Some(recv), root)
                        })
                        .collect();
                    mesh.run(s);
                    for q in 0..n {
                        for e in 0..counts[q] {
                            assert_eq!(
                                outs[q][e * ext],
                                val(q, e * ext),
                                "scatterv n {n} rank {q}"
                            );
                        }
                    }
                }
                // allgatherv (in place at odd ranks)
                let mut alls: Vec<Vec<i32>> = (0..n).map(|_| vec![-1i32; total * ext]).collect();
                for q in (1..n).step_by(2) {
                    let at = displs[q] as usize * ext;
                    alls[q][at..at + counts[q] * ext].copy_from_slice(&sends[q]);
                }
                let mut mesh = Mesh::new(n);
                let s = (0..n)
                    .map(|q| {
                        let p = Plan::new(&mesh.comms[q], KIND_ALLGATHER);
                        let send = (q % 2 == 0)
                            .then(|| TypedBuf::new(sends[q].as_ptr() as *const u8, counts[q], ty));
                        let recv = Blocks {
                            base: alls[q].as_mut_ptr() as *mut u8,
                            ty,
                            counts: counts.clone(),
                            displs: displs.clone(),
                        };
                        super::allgather::allgatherv(p, send, recv)
                    })
                    .collect();
                mesh.run(s);
                for (r, all) in alls.iter().enumerate() {
                    for q in 0..n {
                        for e in 0..counts[q] {
                            let at = (displs[q] as usize + e) * ext;
                            assert_eq!(
                                all[at],
                                val(q, e * ext),
                                "allgatherv n {n} rank {r} block {q}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Alltoall(w) with per-pair sizes, and in place.
#[test]
fn alltoall_every_size() {
    let t = int_type();
    for n in SIZES {
        for &c in &[0usize, 3, 700] {
            for in_place in [false, true] {
                // rank i sends ((i + j) % 3) * c + 1 ints to j (symmetric, as in place needs).
                let cnt = |i: usize, j: usize| ((i + j) % 3) * c + 1;
                let seed =
                    |from: usize, to: usize, k: usize| (from * 1000 + to * 10) as i32 + k as i32;
                let layout = |me: usize| -> (Vec<usize>, usize) {
                    let mut offs = Vec::new();
                    let mut at = 0;
                    for j in 0..n {
                        offs.push(at);
                        at += cnt(me, j) + 1;
                    }
                    (offs, at)
                };
                let mut sends: Vec<Vec<i32>> = Vec::new();
                let mut recvs: Vec<Vec<i32>> = Vec::new();
                for me in 0..n {
                    let (offs, total) = layout(me);
                    let mut s = vec![-1i32; total];
                    for j in 0..n {
                        for k in 0..cnt(me, j) {
                            s[offs[j] + k] = seed(me, j, k);
                        }
                    }
                    recvs.push(if in_place { s.clone() } else { vec![-1; total] });
                    sends.push(s);
                }
                let mut mesh = Mesh::new(n);
                let s = (0..n)
                    .map(|me| {
                        let (offs, _) = layout(me);
                        let p = Plan::new(&mesh.comms[me], KIND_ALLTOALL);
                        let sb: Vec<TypedBuf> = (0..n)
                            .map(|j| {
                                TypedBuf::new(
                                    sends[me][offs[j]..].as_ptr() as *const u8,
                                    cnt(me, j),
                                    &t,
                                )
                            })
                            .collect();
                        let rb: Vec<TypedBuf> = (0..n)
                            .map(|j| {
                                TypedBuf::new(
                                    recvs[me][offs[j]..].as_mut_ptr() as *const u8,
                                    cnt(j, me),
                                    &t,
                                )
                            })
                            .collect();
                        super::alltoall::alltoallw(p, (!in_place).then_some(sb), rb)
                    })
                    .collect();
                mesh.run(s);
                for me in 0..n {
                    let (offs, _) = layout(me);
                    for j in 0..n {
                        for k in 0..cnt(j, me) {
                            assert_eq!(
                                recvs[me][offs[j] + k],
                                seed(j, me, k),
                                "alltoall n {n} rank {me} from {j}"
                            );
                        }
                        assert_eq!(recvs[me][offs[j] + cnt(j, me)], -1, "gap written");
                    }
                }
            }
        }
    }
}

/// A ring as a neighbourhood: block 0 to the left, block 1 to the right; open ends.
#[test]
fn neighbor_ring_every_size() {
    let t = int_type();
    for n in SIZES {
        let left = |r: usize| (r > 0).then(|| r - 1);
        let right = |r: usize| (r + 1 < n).then_some(r + 1);
        let sends: Vec<Vec<i32>> = (0..n)
            .map(|r| vec![r as i32 * 10, r as i32 * 10 + 1])
            .collect();
        let mut recvs = vec![vec![-1i32; 2]; n];
        let mut mesh = Mesh::new(n);
        let s = (0..n)
            .map(|r| {
                let p = Plan::new(&mesh.comms[r], KIND_NEIGHBOR);
                let nb = [left(r), right(r)];
                let sb = [0, 1].map(|k| TypedBuf::new(sends[r][k..].as_ptr() as *const u8, 1, &t));
                let rb =
                    [0, 1].map(|k| TypedBuf::new(recvs[r][k..].as_mut_ptr() as *const u8, 1, &t));
                super::neighbor::neighbor_alltoallw(p, &nb, &nb, &sb, &rb)
            })
            .collect();
        mesh.run(s);
        for (r, got) in recvs.iter().enumerate() {
            // from the left neighbour its block 1 (sent right), from the right its block 0.
            assert_eq!(got[0], left(r).map_or(-1, |l| l as i32 * 10 + 1));
            assert_eq!(got[1], right(r).map_or(-1, |x| x as i32 * 10));
        }
    }
}

/// Intercommunicator allreduce (non-commutative: each group gets the other's matrices
/// multiplied in rank order), reduce_scatter (sums, scattered by each group's own counts)
/// and barrier, for every split of 2..=9 ranks into two groups.
#[test]
fn intercommunicator_reductions() {
    let t = int_type();
    let mut m4 = Datatype::predefined("mat", 16, None);
    m4.predefined = false;
    const T: usize = 12;
    for n in 2..=9 {
        for a in 1..n {
            let other = |w: usize| if w < a { (a, n) } else { (0, a) };
            for &count in &[3usize, 600] {
                let mut mesh = Mesh::new_inter(n, a);
                let ins: Vec<Vec<u8>> = (0..n)
                    .map(|w| bytes(&(0..count).flat_map(|k| mat(w, k)).collect::<Vec<_>>()))
                    .collect();
                let mut outs = vec![vec![0u8; 16 * count]; n];
                let r = mat_reducer();
                let scheds = (0..n)
                    .map(|w| {
                        let p = Plan::new(&mesh.comms[w], KIND_ALLREDUCE).with_eager_limit(256);
                        let i = TypedBuf::new(ins[w].as_ptr(), count, &m4);
                        let o = TypedBuf::new(outs[w].as_mut_ptr(), count, &m4);
                        super::inter::allreduce(p, i, o, &r)
                    })
                    .collect();
                mesh.run(scheds);
                for (w, out) in outs.iter().enumerate() {
                    let (lo, hi) = other(w);
                    let want: Vec<i32> = (0..count).flat_map(|k| mat_fold(lo, hi, k)).collect();
                    assert_eq!(ints(out), want, "allreduce n={n} a={a} rank {w}");
                }
            }
            let mut mesh = Mesh::new_inter(n, a);
            let counts = |size: usize| -> Vec<usize> {
                (0..size)
                    .map(|i| T / size + usize::from(i < T % size))
                    .collect()
            };
            let ins: Vec<Vec<u8>> = (0..n)
                .map(|w| bytes(&(0..T).map(|i| val(w, i)).collect::<Vec<_>>()))
                .collect();
            let mut outs = vec![vec![0u8; 4 * T]; n];
            let r = sum_reducer();
            let scheds = (0..n)
                .map(|w| {
                    let c = &mesh.comms[w];
                    let cs = counts(c.size());
                    let p = Plan::new(c, KIND_REDUCE_SCATTER);
                    let i = TypedBuf::new(ins[w].as_ptr(), T, &t);
                    let o = TypedBuf::new(outs[w].as_mut_ptr(), cs[c.rank], &t);
                    super::inter::reduce_scatter(p, i, o, &cs, &r)
                })
                .collect();
            mesh.run(scheds);
            for (w, (c, out)) in mesh.comms.iter().zip(&outs).enumerate() {
                let cs = counts(c.size());
                let off: usize = cs[..c.rank].iter().sum();
                let (lo, hi) = other(w);
                let want: Vec<i32> = (off..off + cs[c.rank])
                    .map(|i| (lo..hi).map(|q| val(q, i)).sum())
                    .collect();
                assert_eq!(
                    &ints(out)[..cs[c.rank]],
                    &want[..],
                    "reduce_scatter n={n} a={a}"
                );
            }
            let scheds = (0..n)
                .map(|w| super::inter::barrier(Plan::new(&mesh.comms[w], super::KIND_BARRIER)))
                .collect();
            mesh.run(scheds);
        }
    }
}

/// Several collectives in flight on one communicator at once complete, each with its own
/// data (their tags carry the communicator's sequence number).
#[test]
fn concurrent_collectives_do_not_mix() {
    let t = int_type();
    let r = sum_reducer();
    for n in [2usize, 3, 5, 8] {
        let mut mesh = Mesh::new(n);
        let ins: Vec<Vec<i32>> = (0..n)
            .map(|q| (0..40).map(|i| val(q, i)).collect())
            .collect();
        let mut outs = vec![vec![vec![0i32; 40]; 3]; n];
        let mut ids = vec![Vec::new(); n];
        for q in 0..n {
            for (k, out) in outs[q].iter_mut().enumerate() {
                let p = Plan::new(&mesh.comms[q], KIND_ALLREDUCE);
                let i = TypedBuf::new(ins[q].as_ptr() as *const u8, 40 - k * 10, &t);
                let o = TypedBuf::new(out.as_mut_ptr() as *const u8, 40 - k * 10, &t);
                let s = super::allreduce::allreduce(p, i, o, &r);
                ids[q].push(mesh.start(q, s));
            }
        }
        for _ in 0..100_000 {
            mesh.round();
            if !mesh.colls.iter().any(|c| c.has_work()) {
                break;
            }
        }
        for q in 0..n {
            for k in 0..3 {
                assert!(mesh.colls[q].take_if_done(ids[q][k]).unwrap().is_ok());
                let len = 40 - k * 10;
                let want: Vec<i32> = (0..len).map(|i| (0..n).map(|x| val(x, i)).sum()).collect();
                assert_eq!(&outs[q][k][..len], &want[..], "n {n} rank {q} call {k}");
            }
        }
    }
}

#[test]
fn mismatched_sizes_are_truncation_errors() {
    let t = int_type();
    let mut mesh = Mesh::new(2);
    let mut a = vec![1i32; 10];
    let mut b = vec![0i32; 5];
    let s0 = super::bcast::bcast(
        Plan::new(&mesh.comms[0], KIND_BCAST),
        TypedBuf::new(a.as_mut_ptr() as *const u8, 10, &t),
        0,
    );
    let s1 = super::bcast::bcast(
        Plan::new(&mesh.comms[1], KIND_BCAST),
        TypedBuf::new(b.as_mut_ptr() as *const u8, 5, &t),
        0,
    );
    let id0 = mesh.start(0, s0);
    let id1 = mesh.start(1, s1);
    for _ in 0..100 {
        mesh.round();
    }
    assert!(mesh.colls[0].take_if_done(id0).unwrap().is_ok());
    let e = mesh.colls[1].take_if_done(id1).unwrap().unwrap_err();
    assert_eq!(e.class, crate::error::ErrorClass::Truncate);
}

/// The long-message paths: Rabenseifner allreduce on every size, pairwise reduce-scatter
/// and pairwise all-to-all.
#[test]
fn long_paths() {
    let t = int_type();
    let r = sum_reducer();
    for n in SIZES {
        let count = 20_000;
        let ins: Vec<Vec<i32>> = (0..n)
            .map(|q| (0..count).map(|i| val(q, i)).collect())
            .collect();
        let mut outs = vec![vec![0i32; count]; n];
        let mut mesh = Mesh::new(n);
        let s = (0..n)
            .map(|q| {
                let p = Plan::new(&mesh.comms[q], KIND_ALLREDUCE);
                let i = TypedBuf::new(ins[q].as_ptr() as *const u8, count, &t);
                let o = TypedBuf::new(outs[q].as_mut_ptr() as *const u8, count, &t);
                super::allreduce::allreduce(p, i, o, &r)
            })
            .collect();
        mesh.run(s);
        let want: Vec<i32> = (0..count)
            .map(|i| (0..n).map(|x| val(x, i)).sum())
            .collect();
        for o in &outs {
            assert_eq!(o, &want, "long allreduce n {n}");
        }
    }
    for n in [4usize, 7, 16] {
        let block = 40_000;
        let counts = vec![block; n];
        let ins: Vec<Vec<i32>> = (0..n)
            .map(|q| (0..block * n).map(|i| val(q, i)).collect())
            .collect();
        let mut outs = vec![vec![0i32; block]; n];
        let mut mesh = Mesh::new(n);
        let s = (0..n)
            .map(|q| {
                let p = Plan::new(&mesh.comms[q], KIND_REDUCE_SCATTER);
                let i = TypedBuf::new(ins[q].as_ptr() as *const u8, block * n, &t);
                let o = TypedBuf::new(outs[q].as_mut_ptr() as *const u8, block, &t);
                super::reduce_scatter::reduce_scatter(p, i, o, false, &counts, &r)
            })
            .collect();
        mesh.run(s);
        for (q, o) in outs.iter().enumerate() {
            let want: Vec<i32> = (q * block..(q + 1) * block)
                .map(|i| (0..n).map(|x| val(x, i)).sum())
                .collect();
            assert_eq!(o, &want, "pairwise reduce_scatter n {n} rank {q}");
        }
    }
    for n in [9usize, 12, 16] {
        let block = 20_000;
        let sends: Vec<Vec<i32>> = (0..n)
            .map(|q| (0..block * n).map(|i| (q * 100_000 + i) as i32).collect())
            .collect();
        let mut recvs = vec![vec![-1i32; block * n]; n];
        let mut mesh = Mesh::new(n);
        let s = (0..n)
            .map(|q| {
                let p = Plan::new(&mesh.comms[q], KIND_ALLTOALL);
                let sb = (0..n)
                    .map(|j| TypedBuf::new(sends[q][j * block..].as_ptr() as *const u8, block, &t))
                    .collect();
                let rb = (0..n)
                    .map(|j| {
                        TypedBuf::new(recvs[q][j * block..].as_mut_ptr() as *const u8, block, &t)
                    })
                    .collect();
                super::alltoall::alltoallw(p, Some(sb), rb)
            })
            .collect();
        mesh.run(s);
        for (q, rv) in recvs.iter().enumerate() {
            for j in 0..n {
                assert_eq!(
                    rv[j * block],
                    (j * 100_000 + q * block) as i32,
                    "pairwise alltoall n {n}"
                );
                assert_eq!(
                    rv[j * block + block - 1],
                    (j * 100_000 + q * block + block - 1) as i32
                );
            }
        }
    }
}

#[test]
fn pieces_cover_the_message_and_differ_for_different_lengths() {
    use super::plan::{buf_len, PIECES_UP_TO};
    use super::schedule::Buf;
    let cut = |len: usize| -> Vec<usize> {
        let b = Buf::Scratch {
            idx: 0,
            off: 0,
            len,
        };
        super::plan::pieces_for_test(b, 16 * 1024)
            .map(buf_len)
            .collect()
    };
    for len in [
        0usize,
        1,
        16 * 1024,
        16 * 1024 + 1,
        40_000,
        48 * 1024,
        PIECES_UP_TO,
    ] {
        let p = cut(len);
        assert_eq!(p.iter().sum::<usize>(), len);
        assert!(p.iter().all(|&x| x <= 16 * 1024 || p.len() == 1));
    }
    assert_eq!(cut(PIECES_UP_TO + 1), vec![PIECES_UP_TO + 1]);
    // A 40000-byte message against a 32 KiB receive: the first pieces already differ.
    assert_ne!(cut(40_000)[0], cut(32 * 1024)[0]);
}
