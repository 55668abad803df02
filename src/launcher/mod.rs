//! The `mpiexec` launcher: starts ranks on this node and serves PMI-1 to them.
//!
//! - [`args`]: the command line;
//! - [`job`]: starting ranks (one `socketpair` each, `PMI_FD`/`PMI_RANK`/`PMI_SIZE`), the
//!   event loop and the exit policy (first failure wins, teardown within a second,
//!   `--timeout` → 124, forwarded SIGINT/SIGTERM; the library's shared memory is memfds,
//!   so there are no files to remove at the end); the jobs the ranks spawn
//!   (MPI_Comm_spawn: PMI-1 `mcmd=spawn` blocks), started on this host as more ranks;
//! - [`pmi_server`]: the PMI-1 server state machine (key-value store, barrier, the name
//!   service MPI_Publish_name uses, shared by the spawned jobs' servers);
//! - [`output`]: `--tag-output` line forwarding;
//! - [`signals`]: signal handlers for mpiexec itself;
//! - [`hosts`]: multi-host jobs: host lists and files, placement, the address proxies reach;
//! - [`proxy`]: proxy mode, one per host of a multi-host job, started by the launcher;
//! - [`relay`]: the frames between mpiexec and its proxies;
//! - [`handshake`]: the root's side of a proxy's handshake, fed bytes as they arrive.
//!
//! The job's kvsname is `railmpi_<mpiexec pid>_0`; the `n`th spawned job's
//! `railmpi_<mpiexec pid>_<n>`.

pub mod args;
mod handshake;
pub mod hosts;
pub mod job;
pub mod output;
pub mod pmi_server;
pub mod proxy;
pub mod relay;
pub mod signals;

/// Entry point of the `mpiexec` binary; returns its exit status (2 for usage errors).
pub fn main() -> i32 {
    let argv: Vec<String> = match std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect::<Result<_, _>>()
    {
        Ok(v) => v,
        Err(a) => {
            eprintln!("mpiexec: argument {a:?} is not valid UTF-8");
            return 2;
        }
    };
    match args::parse(&argv) {
        Ok(args::Parsed::Help) => {
            println!("{}", args::USAGE);
            0
        }
        Ok(args::Parsed::Run(opts)) => job::run(&opts),
        Ok(args::Parsed::Proxy { root, id }) => proxy::run(root, id),
        Err(msg) => {
            eprintln!("mpiexec: {msg}\n\n{}", args::USAGE);
            2
        }
    }
}
