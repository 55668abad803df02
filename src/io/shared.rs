//! The shared file pointer (MPI-3.1 §13.4.4): one 64-bit counter of etypes in an RMA
//! window on the file communicator's rank 0, moved with an atomic fetch-and-add under a
//! passive-target lock, so any process can take the next piece of the file without the
//! others' help. Ordered access (read_ordered, write_ordered) is collective instead: the
//! processes' sizes are gathered, rank 0 takes the total from the counter and each
//! process's offset is the counter's old value plus the sizes of the ranks before it.

use crate::comm::Communicator;
use crate::datatype::{Basic, Datatype};
use crate::error::Result;
use crate::op::Op;
use crate::rma::{Flavor, Local, LockKind, Remote, Window};
use crate::runtime::World;
use std::sync::LazyLock;

static I64: LazyLock<Datatype> =
    LazyLock::new(|| Datatype::predefined("MPI_INT64_T", 8, Some(Basic::I64)));

pub struct SharedPointer {
    win: Window,
}

impl SharedPointer {
    /// Collective over `comm`; the counter starts at `start` etypes.
    pub fn new(world: &World, comm: &Communicator, start: i64) -> Result<SharedPointer> {
        let size = if comm.rank == 0 { 8 } else { 0 };
        let win = Window::new(world, comm, Flavor::Allocate, 0, size, 8)?;
        let sp = SharedPointer { win };
        if comm.rank == 0 {
            sp.op(world, Op::Replace, start)?;
        }
        Ok(sp)
    }

    /// Applies `op` with `v` to the counter; its old value.
    fn op(&self, world: &World, op: Op, v: i64) -> Result<i64> {
        let mut old = 0i64;
        self.win.lock(world, LockKind::Exclusive, 0, false)?;
        let res = self.win.accumulate(
            world,
            op,
            Some(Local {
                addr: &v as *const i64 as usize,
                count: 1,
                dtype: &I64,
            }),
            Some(Local {
                addr: &mut old as *mut i64 as usize,
                count: 1,
                dtype: &I64,
            }),
            Remote {
                rank: 0,
                disp: 0,
                count: 1,
                dtype: &I64,
            },
        );
        self.win.unlock(world, 0)?;
        res.map(|_| old)
    }

    /// Adds `n` etypes; the pointer before.
    pub fn fetch_add(&self, world: &World, n: i64) -> Result<i64> {
        self.op(world, Op::Sum, n)
    }

    pub fn get(&self, world: &World) -> Result<i64> {
        self.op(world, Op::NoOp, 0)
    }

    pub fn set(&self, world: &World, v: i64) -> Result<()> {
        self.op(world, Op::Replace, v).map(|_| ())
    }

    /// Collective.
    pub fn free(&self, world: &World) -> Result<()> {
        self.win.free(world)
    }
}
