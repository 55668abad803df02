//! Neighbourhood collectives: block k goes to the k-th destination and block k arrives from
//! the k-th source of the communicator's topology, all in one step (MPI_PROC_NULL
//! neighbours are skipped; their receive blocks are left alone). Messages between the
//! same pair of ranks match in list order, as in MPICH.

use super::plan::{Plan, TypedBuf};
use super::schedule::Schedule;

/// MPI_Neighbor_alltoallw and every other neighbourhood collective: `sends[k]` to
/// `dests[k]`, `recvs[k]` from `sources[k]` (None: MPI_PROC_NULL).
pub fn neighbor_alltoallw(
    mut p: Plan,
    sources: &[Option<usize>],
    dests: &[Option<usize>],
    sends: &[TypedBuf],
    recvs: &[TypedBuf],
) -> Schedule {
    for (k, d) in dests.iter().enumerate() {
        if let Some(d) = *d {
            let b = p.input(sends[k]);
            p.send(d, b);
        }
    }
    for (k, s) in sources.iter().enumerate() {
        if let Some(s) = *s {
            let b = p.output(recvs[k]);
            p.recv(s, b);
        }
    }
    p.step();
    p.build()
}
