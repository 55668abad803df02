//! sys: small safe wrappers over the OS facilities the rails use. Every `unsafe` block of
//! the transport lives here or in the ring code, each with the invariant that makes it sound.
pub mod cma;
pub mod copy;
pub mod cpu;
pub mod file;
pub mod futex;
pub mod membarrier;
pub mod memfd;
pub mod net;
pub mod userfaultfd;
pub mod vmem;
