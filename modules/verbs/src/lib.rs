//! railmpi's verbs module, `librailmpi_verbs.so`: InfiniBand, RoCE and iWARP through
//! libibverbs and librdmacm (via `rdma-sys`), behind the C function table of `abi.rs`.
//! libmpi `dlopen`s it, so libmpi itself loads on hosts without those libraries.
//!
//! Every exported function catches panics (EIO, or nothing for `close`): unwinding out of
//! an `extern "C"` function would abort the MPI process.

// abi.rs is the fixed contract, shared by path with libmpi: keep it byte for byte.
#[rustfmt::skip]
pub mod abi;
mod ctx;
mod query;
mod slab;
mod util;

use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use abi::*;
use ctx::Context;

/// Run `f`, turning a panic into EIO.
fn guard(f: impl FnOnce() -> i32) -> i32 {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(libc::EIO)
}

/// The context behind a `Ctx` pointer.
///
/// # Safety
/// `ctx` is NULL or a pointer `open` returned and `close` has not consumed.
unsafe fn context<'a>(ctx: *mut Ctx) -> Option<&'a Context> {
    // SAFETY: by the caller's promise it is NULL or a live Box<Context> turned raw.
    unsafe { (ctx as *const Context).as_ref() }
}

unsafe extern "C" fn query(out: *mut PortInfo, max: usize, count: *mut usize) -> i32 {
    guard(|| {
        let ports = query::query_all();
        if !count.is_null() {
            // SAFETY: the caller passes a writable count (or NULL).
            unsafe { *count = ports.len() };
        }
        if !out.is_null() {
            for (i, p) in ports.iter().take(max).enumerate() {
                // SAFETY: the caller passes room for `max` entries at out.
                unsafe { out.add(i).write(*p) };
            }
        }
        0
    })
}

unsafe extern "C" fn open(
    params: *const OpenParams,
    out: *mut *mut Ctx,
    err: *mut c_char,
    err_len: usize,
) -> i32 {
    guard(|| {
        if params.is_null() || out.is_null() {
            ctx::report(err, err_len, "NULL params or out");
            return libc::EINVAL;
        }
        // SAFETY: checked non-NULL; the caller passes a valid OpenParams.
        let p = unsafe { &*params };
        // SAFETY: share_pd is NULL or an open context (the ABI's contract); open only reads
        // its verbs context and takes a hold on its PD.
        let share = unsafe { context(p.share_pd) };
        match Context::open(p, share) {
            Ok(c) => {
                // SAFETY: out is writable (checked non-NULL).
                unsafe { *out = Box::into_raw(c) as *mut Ctx };
                0
            }
            Err((e, msg)) => {
                ctx::report(err, err_len, &msg);
                e
            }
        }
    })
}

unsafe extern "C" fn close(ctx: *mut Ctx) {
    let _ = guard(|| {
        if !ctx.is_null() {
            // SAFETY: ctx came from Box::into_raw in `open` and is closed once.
            drop(unsafe { Box::from_raw(ctx as *mut Context) });
        }
        0
    });
}

unsafe extern "C" fn listen_addr(ctx: *mut Ctx, out: *mut Addr) -> i32 {
    guard(|| {
        // SAFETY: ctx is live (the ABI's contract).
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        if out.is_null() {
            return libc::EINVAL;
        }
        // SAFETY: out is writable.
        unsafe { *out = c.listen_addr() };
        0
    })
}

unsafe extern "C" fn wait_fds(ctx: *mut Ctx, out: *mut i32) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        if out.is_null() {
            return libc::EINVAL;
        }
        let fds = c.wait_fds();
        // SAFETY: the caller passes room for two ints.
        unsafe {
            *out = fds[0];
            *out.add(1) = fds[1];
        }
        0
    })
}

unsafe extern "C" fn ack_events(ctx: *mut Ctx, rearm: i32) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        c.ack_events(rearm != 0)
    })
}

unsafe extern "C" fn arm(ctx: *mut Ctx, solicited_only: i32) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        c.arm(solicited_only != 0)
    })
}

/// `len` bytes at `data` (empty for NULL or 0).
///
/// # Safety
/// `data` is NULL or points to `len` readable bytes.
unsafe fn bytes<'a>(data: *const u8, len: usize) -> &'a [u8] {
    if data.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: by the caller's promise.
        unsafe { std::slice::from_raw_parts(data, len) }
    }
}

unsafe extern "C" fn connect(
    ctx: *mut Ctx,
    to: *const Addr,
    data: *const u8,
    len: usize,
    cookie: u64,
) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        if to.is_null() {
            return libc::EINVAL;
        }
        // SAFETY: to is a valid Addr; data has len bytes.
        unsafe { c.connect(&*to, bytes(data, len), cookie) }
    })
}

unsafe extern "C" fn accept(ctx: *mut Ctx, handle: u64, cookie: u64) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        c.accept(handle, cookie)
    })
}

unsafe extern "C" fn reject(ctx: *mut Ctx, handle: u64, data: *const u8, len: usize) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        // SAFETY: data has len bytes.
        c.reject(handle, unsafe { bytes(data, len) })
    })
}

unsafe extern "C" fn disconnect(ctx: *mut Ctx, cookie: u64) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        c.disconnect(cookie)
    })
}

unsafe extern "C" fn cm_event(ctx: *mut Ctx, out: *mut CmEvent) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        if out.is_null() {
            return libc::EINVAL;
        }
        match c.cm_event() {
            Ok(ev) => {
                // SAFETY: out is writable.
                unsafe { *out = ev };
                0
            }
            Err(e) => e,
        }
    })
}

unsafe extern "C" fn reg_mr(ctx: *mut Ctx, addr: u64, len: u64, access: u32, out: *mut Mr) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        if out.is_null() {
            return libc::EINVAL;
        }
        match c.reg_mr(addr, len, access) {
            Ok(mr) => {
                // SAFETY: out is writable.
                unsafe { *out = mr };
                0
            }
            Err(e) => e,
        }
    })
}

unsafe extern "C" fn dereg_mr(ctx: *mut Ctx, handle: u64) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        c.dereg_mr(handle)
    })
}

unsafe extern "C" fn advise_mr(
    ctx: *mut Ctx,
    handle: u64,
    addr: u64,
    len: u32,
    advice: u32,
) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        c.advise_mr(handle, addr, len, advice)
    })
}

unsafe extern "C" fn post(
    ctx: *mut Ctx,
    cookie: u64,
    descs: *const Desc,
    n: usize,
    posted: *mut usize,
) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        if descs.is_null() || posted.is_null() || n == 0 {
            return libc::EINVAL;
        }
        // SAFETY: the caller passes n valid Descs at descs, each sge array with num_sge
        // entries; posted is writable.
        let (ds, posted) = unsafe { (std::slice::from_raw_parts(descs, n), &mut *posted) };
        c.post(cookie, ds, posted)
    })
}

unsafe extern "C" fn post_recv(ctx: *mut Ctx, wr_id: u64, sge: *const Sge) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        c.post_recv(wr_id, sge)
    })
}

unsafe extern "C" fn poll(ctx: *mut Ctx, out: *mut Wc, max: usize, count: *mut usize) -> i32 {
    guard(|| {
        // SAFETY: ctx is live.
        let Some(c) = (unsafe { context(ctx) }) else {
            return libc::EINVAL;
        };
        if count.is_null() || (out.is_null() && max > 0) {
            return libc::EINVAL;
        }
        let out: &mut [Wc] = if max == 0 {
            &mut []
        } else {
            // SAFETY: the caller passes room for max completions at out.
            unsafe { std::slice::from_raw_parts_mut(out, max) }
        };
        match c.poll(out) {
            Ok(n) => {
                // SAFETY: count is writable.
                unsafe { *count = n };
                0
            }
            Err(e) => {
                // SAFETY: count is writable.
                unsafe { *count = 0 };
                e
            }
        }
    })
}

unsafe extern "C" fn status_str(status: u32) -> *const c_char {
    // ibv_wc_status_str never panics and returns a static string ("unknown" if need be).
    // SAFETY: a pure lookup in libibverbs.
    unsafe { rdma_sys::ibv_wc_status_str(status) }
}

static OPS: Ops = Ops {
    version: ABI_VERSION,
    size: std::mem::size_of::<Ops>() as u32,
    query,
    open,
    close,
    listen_addr,
    wait_fds,
    ack_events,
    arm,
    connect,
    accept,
    reject,
    disconnect,
    cm_event,
    reg_mr,
    dereg_mr,
    advise_mr,
    post,
    post_recv,
    poll,
    status_str,
};

/// The module's entry point (`abi::ENTRY_SYMBOL`).
#[no_mangle]
pub extern "C" fn railmpi_verbs_ops() -> *const Ops {
    &OPS
}

#[cfg(test)]
mod tests {
    #[test]
    fn entry_symbol_matches() {
        assert_eq!(super::abi::ENTRY_SYMBOL, b"railmpi_verbs_ops\0");
    }
}
