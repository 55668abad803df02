//! Collective shims (this issue: the minimum for synchronisation — Barrier, Bcast, Reduce,
//! Allreduce with predefined operations).

use super::args;
use super::consts::*;
use super::handles::{self, RequestEntry, TypeRef};
use super::shim::{self, put, run};
use crate::coll::{self, ops};
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use std::os::raw::{c_int, c_void};

fn in_place(p: *const c_void) -> bool {
    p as isize == -1
}

pub fn predefined_op(op: MPI_Op) -> Result<ops::Op> {
    use ops::Op::*;
    Ok(match op {
        MPI_MAX => Max,
        MPI_MIN => Min,
        MPI_SUM => Sum,
        MPI_PROD => Prod,
        MPI_LAND => Land,
        MPI_BAND => Band,
        MPI_LOR => Lor,
        MPI_BOR => Bor,
        MPI_LXOR => Lxor,
        MPI_BXOR => Bxor,
        MPI_MINLOC => Minloc,
        MPI_MAXLOC => Maxloc,
        MPI_REPLACE => Replace,
        MPI_NO_OP => NoOp,
        _ => return mpi_err!(Op, "invalid operation {op:#x}"),
    })
}

/// Read `count` elements at `buf` as packed bytes.
unsafe fn gather_bytes(buf: *const c_void, count: usize, ty: &TypeRef) -> Vec<u8> {
    let mut v = Vec::new();
    ty.pack(count, buf as *const u8, &mut v);
    v
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Barrier(comm: MPI_Comm) -> c_int {
    run("MPI_Barrier", comm, || {
        let w = shim::world()?;
        let c = handles::comm(comm)?;
        w.run_collective(coll::barrier_schedule(&c))
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Ibarrier(comm: MPI_Comm, request: *mut MPI_Request) -> c_int {
    run("MPI_Ibarrier", comm, || {
        let w = shim::world()?;
        let c = handles::comm(comm)?;
        let id = w.start_collective(coll::barrier_schedule(&c));
        put(
            request,
            handles::new_request(RequestEntry::Coll { id, comm }),
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Bcast(
    buffer: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Bcast", comm, || {
        let w = shim::world()?;
        let c = handles::comm(comm)?;
        let n = args::count(count)?;
        let ty = handles::datatype(datatype)?;
        args::buffer(buffer, n, &ty)?;
        let root = args::root(&c, root)?;
        let len = args::bytes(n, &ty)?;
        if ty.is_contiguous() {
            let buf = if len == 0 {
                &mut [][..]
            } else {
                std::slice::from_raw_parts_mut(buffer as *mut u8, len)
            };
            return coll::bcast(w, &c, buf, root);
        }
        let mut tmp = if c.rank == root {
            gather_bytes(buffer, n, &ty)
        } else {
            vec![0u8; len]
        };
        coll::bcast(w, &c, &mut tmp, root)?;
        if c.rank != root {
            ty.unpack(n, &tmp, buffer as *mut u8);
        }
        Ok(())
    })
}

/// The combine function for `op` on `ty`, checked (MPI_ERR_OP when undefined).
fn combiner(op: MPI_Op, ty: &TypeRef) -> Result<impl Fn(&[u8], &mut [u8]) -> Result<()>> {
    let op = predefined_op(op)?;
    let Some((basic, _)) = ty.basic else {
        return mpi_err!(
            Op,
            "reduction on a datatype that is not made of one basic type"
        );
    };
    ops::check(op, basic).map_err(|_| {
        Error::new(
            ErrorClass::Op,
            format!("{op:?} is not defined on {}", ty.name),
        )
    })?;
    Ok(move |input: &[u8], inout: &mut [u8]| {
        ops::apply(op, basic, input, inout)
            .map_err(|_| Error::new(ErrorClass::Op, "operation not defined on type"))
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Reduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    root: c_int,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Reduce", comm, || {
        let w = shim::world()?;
        let c = handles::comm(comm)?;
        let n = args::count(count)?;
        let ty = handles::datatype(datatype)?;
        let root = args::root(&c, root)?;
        let f = combiner(op, &ty)?;
        let src = if in_place(sendbuf) && c.rank == root {
            recvbuf as *const c_void
        } else {
            sendbuf
        };
        args::buffer(src, n, &ty)?;
        if c.rank == root {
            args::buffer(recvbuf, n, &ty)?;
        }
        let mut acc = gather_bytes(src, n, &ty);
        coll::reduce(w, &c, &mut acc, root, &f)?;
        if c.rank == root {
            ty.unpack(n, &acc, recvbuf as *mut u8);
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn PMPI_Allreduce(
    sendbuf: *const c_void,
    recvbuf: *mut c_void,
    count: c_int,
    datatype: MPI_Datatype,
    op: MPI_Op,
    comm: MPI_Comm,
) -> c_int {
    run("MPI_Allreduce", comm, || {
        let w = shim::world()?;
        let c = handles::comm(comm)?;
        let n = args::count(count)?;
        let ty = handles::datatype(datatype)?;
        let f = combiner(op, &ty)?;
        let src = if in_place(sendbuf) {
            recvbuf as *const c_void
        } else {
            sendbuf
        };
        args::buffer(src, n, &ty)?;
        args::buffer(recvbuf, n, &ty)?;
        let mut acc = gather_bytes(src, n, &ty);
        coll::allreduce(w, &c, &mut acc, &f)?;
        ty.unpack(n, &acc, recvbuf as *mut u8);
        Ok(())
    })
}
