//! The messages MPI-IO's collective calls exchange, over the file's own communicator (a
//! duplicate made at MPI_File_open, so nothing the application sends can match them) and
//! the collective transport. Every call on one file is collective in the same order on all
//! its processes and blocking, so one fixed tag keeps them apart (messages between two
//! processes do not overtake).

use crate::coll::{direct, CollTransport};
use crate::comm::Communicator;
use crate::error::{Error, ErrorClass, Result};

/// An outcome as a number that travels (0: success, else 1 + the class's index).
pub fn class_index<T>(r: &Result<T>) -> u64 {
    match r {
        Ok(_) => 0,
        Err(e) => {
            1 + ErrorClass::ALL
                .iter()
                .position(|&c| c == e.class)
                .unwrap_or(0) as u64
        }
    }
}

/// The class `class_index` numbered `i` (another process's number: one out of range is
/// MPI_ERR_OTHER, not a panic).
pub fn class_from(i: u64) -> ErrorClass {
    i.checked_sub(1)
        .and_then(|i| ErrorClass::ALL.get(i as usize))
        .copied()
        .unwrap_or(ErrorClass::Other)
}

/// The tag of MPI-IO's messages (below the per-call collective tags, which are ≥ 64, and
/// apart from the runtime's own).
const TAG_IO: i32 = 40;

pub struct Exchange<'a> {
    pub t: &'a dyn CollTransport,
    pub comm: &'a Communicator,
}

impl Exchange<'_> {
    pub fn rank(&self) -> usize {
        self.comm.rank
    }

    pub fn size(&self) -> usize {
        self.comm.size()
    }

    /// Every process's `k` values (the same `k` everywhere), in rank order.
    pub fn allgather(&self, mine: &[u64]) -> Result<Vec<u64>> {
        let (n, k) = (self.size(), mine.len());
        let mut all = vec![0u8; n * k * 8];
        let me = self.rank() * k * 8;
        for (i, v) in mine.iter().enumerate() {
            all[me + i * 8..me + i * 8 + 8].copy_from_slice(&v.to_le_bytes());
        }
        direct::allgather(self.t, self.comm, TAG_IO, &mut all)?;
        Ok(all
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect())
    }

    /// Process `root`'s value, everywhere.
    pub fn bcast(&self, root: usize, v: u64) -> Result<u64> {
        Ok(self.allgather(&[v])?[root])
    }

    /// Every process's outcome of a collective step, the same everywhere (also a
    /// barrier: no process returns before all reached it).
    pub fn agree(&self, r: Result<()>) -> Result<()> {
        let codes = self.allgather(&[class_index(&r)])?;
        r?;
        match codes.iter().find(|&&c| c != 0) {
            Some(&c) => Err(Error::new(class_from(c), "failed on another process")),
            None => Ok(()),
        }
    }

    pub fn barrier(&self) -> Result<()> {
        self.allgather(&[]).map(|_| ())
    }

    /// Every process sends `send[j]` to process j; the result's `[i]` is what process i
    /// sent here. Pairwise in n − 1 steps (sizes first), so no step waits on a third
    /// process. `limits[i]`: the most bytes process i may send here — a size announced by
    /// another process is not trusted with an allocation; past its limit the message is
    /// cut (every step still runs, so the others are not left waiting) and the result is
    /// an error.
    pub fn alltoallv(&self, mut send: Vec<Vec<u8>>, limits: &[u64]) -> Result<Vec<Vec<u8>>> {
        let (n, r) = (self.size(), self.rank());
        let mut recv: Vec<Vec<u8>> = vec![Vec::new(); n];
        recv[r] = std::mem::take(&mut send[r]);
        let mut sizes = vec![0u64; n];
        for k in 1..n {
            let (dst, src) = ((r + k) % n, (r + n - k) % n);
            let mut got = [0u8; 8];
            let out = (send[dst].len() as u64).to_le_bytes();
            self.t
                .sendrecv(self.comm, dst, &out, src, &mut got, TAG_IO)?;
            sizes[src] = u64::from_le_bytes(got);
        }
        let mut failed = Ok(());
        for k in 1..n {
            let (dst, src) = ((r + k) % n, (r + n - k) % n);
            let limit = limits[src];
            if sizes[src] > limit {
                failed = Err(Error::new(
                    ErrorClass::Intern,
                    format!(
                        "process {src} announced {} bytes of collective I/O data (at most {limit})",
                        sizes[src]
                    ),
                ));
            }
            let mut buf = vec![0u8; sizes[src].min(limit) as usize];
            // Always a message, empty or not: each side's choice would have to match the
            // other's, and one sendrecv pairs two different peers.
            let step = self
                .t
                .sendrecv(self.comm, dst, &send[dst], src, &mut buf, TAG_IO);
            if let Err(e) = step {
                failed = failed.and(Err(e));
            }
            recv[src] = buf;
        }
        failed.map(|()| recv)
    }
}

/// `u64`s as little-endian bytes (the metadata messages).
pub fn to_bytes(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn from_bytes(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}
