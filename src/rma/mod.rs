//! rma: one-sided communication (MPI-3.1 §11; DESIGN.md §rma; Tipparaju 2004, Li 2016 §VI).
//!
//! `window.rs` makes windows in the four flavors and runs their synchronization; `epoch.rs`
//! is the state machine that says which RMA calls are allowed when; `call.rs` holds the
//! argument rules of the calls (targets, assertions, ops and datatypes of atomics,
//! creation arguments, hints); `control.rs` is the per-rank control block in shared memory
//! (lock word, accumulate lock, PSCW counters, attached regions) that origins update with
//! CPU atomics, so a passive target's CPU is never needed; `access.rs` moves the data:
//! plain copies and CPU atomics on window memory the library allocated (shared memory,
//! mapped by every rank of the node), Cross Memory Attach on memory the application
//! brought; `host.rs` is what a window needs from the runtime (`RmaHost`); `helper.rs` is
//! the per-process helper thread that serves accumulates and
//! atomics on that memory, and host-assisted transfers.

mod access;
pub mod call;
mod control;
mod epoch;
mod helper;
mod host;
mod window;

pub use access::{Local, Remote};
pub use epoch::LockKind;
pub use helper::has_work as helper_has_work;
pub use helper::polling as helper_polling;
pub use helper::serve_here as helper_serve_here;
pub use helper::serve_waiting as helper_serve_waiting;
pub use host::{RmaHost, RmaSettings};
pub use window::{transfer_stats, Attribute, Attributes, Flavor, Window, MODEL_UNIFIED};
