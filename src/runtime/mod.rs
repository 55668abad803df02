//! runtime: the per-process `World` (built by MPI_Init, used by every call), configuration,
//! the PMI client, progress and waiting, logging.
pub mod bsend;
pub mod comms;
pub mod config;
pub mod contexts;
pub mod dynamic;
pub mod env;
pub mod errhandler;
pub mod grequest;
pub mod idup;
pub mod intercomm;
pub mod lent;
pub mod lifetime;
pub mod logging;
pub mod p2p;
pub mod partitioned;
pub mod pmi;
pub mod progress;
pub mod requests;
pub mod session;
pub mod slab;
pub mod table_cache;
pub mod world;

pub use world::{world, World};
