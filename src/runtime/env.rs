//! The environment's rules (MPI-4.0 §11): who uses the runtime — the World model between
//! MPI_Init and MPI_Finalize, and the sessions open — so that the first starts it and the
//! last ends it; the thread level provided; the library's version string; the keys
//! MPI_INFO_ENV holds; MPI_Alloc_mem's memory.

use super::world::{self, World};
use crate::error::Result;
use crate::mpi_err;
use std::sync::atomic::{AtomicU8, Ordering};

/// The thread levels, in MPI's order (MPI-4.0 §11.6: each allows more than the one before).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreadLevel {
    Single,
    Funneled,
    Serialized,
    Multiple,
}

impl ThreadLevel {
    pub const ALL: [ThreadLevel; 4] = [
        ThreadLevel::Single,
        ThreadLevel::Funneled,
        ThreadLevel::Serialized,
        ThreadLevel::Multiple,
    ];

    /// The level's name (MPI_Info_create_env's and a session's "thread_level").
    pub fn name(self) -> &'static str {
        match self {
            ThreadLevel::Single => "MPI_THREAD_SINGLE",
            ThreadLevel::Funneled => "MPI_THREAD_FUNNELED",
            ThreadLevel::Serialized => "MPI_THREAD_SERIALIZED",
            ThreadLevel::Multiple => "MPI_THREAD_MULTIPLE",
        }
    }

    /// The level a name gives (a session's "thread_level" info value), None for a name
    /// that is not one of the four.
    pub fn from_name(name: &str) -> Option<ThreadLevel> {
        Self::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// The thread level provided (MPI_Init: MPI_THREAD_SINGLE, as MPICH), as its index in
/// `ThreadLevel::ALL`.
static THREAD_LEVEL: AtomicU8 = AtomicU8::new(0);

/// The thread level provided.
pub fn thread_level() -> ThreadLevel {
    ThreadLevel::ALL[THREAD_LEVEL.load(Ordering::Relaxed) as usize]
}

/// Who uses the runtime (MPI-4.1 §11.2-11.3). The runtime starts with the first user. The
/// World model ends it in MPI_Finalize when no session is open (it cannot start again:
/// MPI_Init is once a process). Sessions may come and go any number of times (§11.3.1),
/// before, during and after the World model, so the last session to close leaves the
/// runtime up, unused: the next MPI_Session_init (or MPI_Init) takes it up again, and if
/// none comes, the process's exit ends it (`end_unused_at_exit`) — its peers meet it there
/// and the launcher hears that it finalized.
struct Users {
    /// The World model: 0 not initialised, 1 running, 2 finalised.
    world_model: u8,
    sessions: usize,
}

static USERS: parking_lot::Mutex<Users> = parking_lot::Mutex::new(Users {
    world_model: 0,
    sessions: 0,
});

/// The runtime, started if no one uses it yet (`started` runs once it is).
fn start(multithreaded: bool, started: fn(&World)) -> Result<&'static World> {
    if let Some(w) = world::world() {
        return Ok(w);
    }
    let w = World::init(multithreaded)?;
    started(w);
    if register_at_exit() != 0 {
        tracing::warn!("cannot register the runtime's end at exit");
    }
    Ok(w)
}

extern "C" {
    /// glibc's `on_exit`: like `atexit`, and the handler learns the exit status.
    fn on_exit(
        f: extern "C" fn(libc::c_int, *mut libc::c_void),
        arg: *mut libc::c_void,
    ) -> libc::c_int;
}

/// Registers `end_unused_at_exit` (when the runtime starts: once, it never starts twice).
fn register_at_exit() -> libc::c_int {
    // SAFETY: on_exit registers a plain function of ours; the library is never unloaded
    // (linked with -z nodelete, build.rs), so it is there at exit. The argument is unused.
    unsafe { on_exit(end_unused_at_exit, std::ptr::null_mut()) }
}

/// At the process's exit with status 0: a runtime that no one uses any more (every
/// session finalised, the World model never initialised or finalised while a session was
/// open) ends here, as MPI_Finalize would end it. A runtime still in use is left alone:
/// exiting without finalising is the program's error, which the launcher sees; so is an
/// exit with an error status (the launcher ends the job at once, where waiting here for
/// peers that may wait for us would hang it), an abort, or a fatal error
/// (`lifetime::leaving`, `fabric::failing`): the job is going down without us.
extern "C" fn end_unused_at_exit(status: libc::c_int, _: *mut libc::c_void) {
    if status != 0 || super::lifetime::is_leaving() || crate::fabric::failing() {
        return;
    }
    // On a thread of its own: the C library has destroyed the exiting thread's
    // thread-locals before it runs the exit handlers, and the finalize may need some (the
    // log's formatting buffer, for one).
    let ended = std::thread::Builder::new()
        .name("railmpi-exit".into())
        .spawn(end_unused)
        .map(|t| t.join());
    if ended.is_err() {
        end_unused();
    }
}

/// `end_unused_at_exit`'s work.
fn end_unused() {
    let Some(w) = world::world() else { return };
    // Another thread inside MPI_Init or a finalize while this one exits: leave it be.
    let Some(u) = USERS.try_lock_for(std::time::Duration::from_secs(1)) else {
        return;
    };
    if u.world_model == 1 || u.sessions > 0 {
        return;
    }
    w.bsend.drain(w);
    if let Err(e) = w.finalize() {
        super::logging::say(&format!(
            "railmpi: rank {}: ending the runtime at exit: {e}",
            w.rank
        ));
    }
}

/// MPI_Init / MPI_Init_thread: the World model starts, at thread level `level` (exactly the
/// one asked for: below MPI_THREAD_MULTIPLE the engine skips its lock).
pub fn init(level: ThreadLevel, started: fn(&World)) -> Result<()> {
    let mut u = USERS.lock();
    if u.world_model != 0 {
        return mpi_err!(Other, "MPI is already initialised (or finalised)");
    }
    start(level == ThreadLevel::Multiple, started)?;
    u.world_model = 1;
    THREAD_LEVEL.store(level as u8, Ordering::Relaxed);
    Ok(())
}

/// MPI_Initialized.
pub fn initialized() -> bool {
    USERS.lock().world_model != 0
}

/// MPI_Finalized.
pub fn finalized() -> bool {
    USERS.lock().world_model == 2
}

/// MPI_Abort(`comm`, `code`) as the application called it (`name`: how it names `comm`):
/// the runtime's abort (`World::abort_called`), or before MPI_Init / after MPI_Finalize
/// MPICH's words and the process's exit with `code`. Returns only where the runtime ends
/// another group than the caller's.
pub fn abort_called(comm: Option<&crate::comm::Communicator>, code: i32, name: &str) {
    match world::world() {
        Some(w) => w.abort_called(comm, code, name),
        None => {
            super::logging::say(&format!(
                "Abort({code}): application called MPI_Abort({name}, {code})"
            ));
            std::process::exit(code)
        }
    }
}

/// MPI_Finalize: `first` runs while MPI is still fully usable (the attribute delete
/// callbacks of MPI_COMM_SELF and MPI_COMM_WORLD, MPI-3.1 §8.7.1), then buffered sends
/// drain; sessions still open keep the runtime (their communicators go on working, and
/// the runtime outlives them as after any last session). `first`'s error is returned
/// after all that.
pub fn finalize(w: &World, first: impl FnOnce() -> Result<()>) -> Result<()> {
    if USERS.lock().world_model != 1 {
        return mpi_err!(Other, "MPI_Finalize without MPI_Init");
    }
    let first = first();
    w.bsend.drain(w);
    let mut u = USERS.lock();
    if u.sessions == 0 {
        w.finalize()?;
    }
    u.world_model = 2;
    first
}

/// MPI_Session_init's part: the thread level the info's "thread_level" asks for (`asked`;
/// MPI_ERR_INFO for a value that names none of the four), then the runtime: started for the
/// first session if MPI_Init did not start it, taken up again after earlier sessions.
/// MPI_THREAD_MULTIPLE asks for a multithreaded runtime where this session starts it.
pub fn session_opened(asked: Option<&str>, started: fn(&World)) -> Result<&'static World> {
    let level = match asked {
        None => None,
        Some(name) => match ThreadLevel::from_name(name) {
            Some(l) => Some(l),
            None => {
                return mpi_err!(
                    Info,
                    "thread_level {name:?} is not a thread level (MPI_THREAD_SINGLE, \
                     _FUNNELED, _SERIALIZED or _MULTIPLE)"
                )
            }
        },
    };
    let mut u = USERS.lock();
    if world::finalized() {
        return mpi_err!(
            Other,
            "railmpi cannot start again after MPI_Finalize ended it (no session was open)"
        );
    }
    let w = start(level == Some(ThreadLevel::Multiple), started)?;
    u.sessions += 1;
    Ok(w)
}

/// MPI_Session_finalize's part. The last user leaves the runtime up for the next
/// (see `Users`); buffered sends from the process's buffer drain when it ends.
pub fn session_closed() {
    let mut u = USERS.lock();
    u.sessions -= 1;
}

/// The library version string for MPI `version`.`subversion` (MPI_Get_library_version;
/// also what `railmpi-info` prints first).
pub fn library_version(version: i32, subversion: i32) -> String {
    format!(
        "railmpi {} (MPI {version}.{subversion}, {}; rails: shm, tcp, verbs)",
        env!("CARGO_PKG_VERSION"),
        if cfg!(feature = "std-abi") {
            "MPI-5 standard ABI"
        } else {
            "MPICH ABI"
        }
    )
}

/// MPI-4.0 §11.2.3: the keys MPI_INFO_ENV may hold, as this process sees them, `args`
/// being main's arguments (callable before MPI_Init: the values come from the process and
/// the launcher).
pub fn info_env(args: &[String]) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    if let Some((cmd, rest)) = args.split_first() {
        pairs.push(("command".into(), cmd.clone()));
        if !rest.is_empty() {
            pairs.push(("argv".into(), rest.join(" ")));
        }
    }
    // Before MPI_Init the launcher's word is all there is.
    let size = world::world()
        .map(|w| w.size)
        .or_else(super::pmi::size_from_env);
    if let Some(n) = size {
        pairs.push(("maxprocs".into(), n.to_string()));
    }
    pairs.push(("host".into(), crate::sys::cpu::hostname()));
    pairs.push(("arch".into(), std::env::consts::ARCH.into()));
    if let Ok(dir) = std::env::current_dir() {
        pairs.push(("wdir".into(), dir.to_string_lossy().into_owned()));
    }
    pairs.push(("thread_level".into(), thread_level().name().into()));
    pairs
}

/// MPI_Alloc_mem: `size` bytes (MPI_ERR_SIZE when negative, MPI_ERR_NO_MEM when there are
/// none), which MPI_Free_mem gives back with `libc::free`.
pub fn alloc_mem(size: i64) -> Result<*mut libc::c_void> {
    if size < 0 {
        return mpi_err!(Size, "negative size {size}");
    }
    // SAFETY: malloc of at least one byte; the pointer is checked below.
    let p = unsafe { libc::malloc((size as usize).max(1)) };
    if p.is_null() {
        return mpi_err!(NoMem, "cannot allocate {size} bytes");
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_levels_in_order_with_names() {
        assert_eq!(thread_level(), ThreadLevel::Single);
        let names: Vec<_> = ThreadLevel::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(names[0], "MPI_THREAD_SINGLE");
        assert_eq!(names[3], "MPI_THREAD_MULTIPLE");
        assert!(ThreadLevel::ALL
            .iter()
            .enumerate()
            .all(|(i, &l)| l as usize == i));
    }

    #[test]
    fn thread_levels_by_name_and_invalid_names_refused() {
        for l in ThreadLevel::ALL {
            assert_eq!(ThreadLevel::from_name(l.name()), Some(l));
        }
        assert_eq!(ThreadLevel::from_name("MPI_THREAD_NONSENSE"), None);
        assert_eq!(ThreadLevel::from_name("mpi_thread_multiple"), None);
        // Refused before anything starts (no launcher needed to see it).
        let e = session_opened(Some("THIS_IS_NOT_VALID"), |_| ()).err();
        assert_eq!(e.map(|e| e.class), Some(crate::error::ErrorClass::Info));
        assert_eq!(USERS.lock().sessions, 0);
    }

    #[test]
    fn info_env_names_the_command_and_its_arguments() {
        let args: Vec<String> = ["prog", "-n", "3"].iter().map(|s| s.to_string()).collect();
        let pairs = info_env(&args);
        let get = |k: &str| {
            pairs
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(get("command").as_deref(), Some("prog"));
        assert_eq!(get("argv").as_deref(), Some("-n 3"));
        assert_eq!(get("thread_level").as_deref(), Some("MPI_THREAD_SINGLE"));
        assert!(get("host").is_some() && get("arch").is_some());
        assert!(info_env(&[]).iter().all(|(k, _)| k != "command"));
    }

    #[test]
    fn alloc_mem_refuses_negative_sizes() {
        assert_eq!(
            alloc_mem(-1).err().unwrap().class,
            crate::error::ErrorClass::Size
        );
        let p = alloc_mem(0).unwrap();
        // SAFETY: p came from malloc.
        unsafe { libc::free(p) };
    }
}
