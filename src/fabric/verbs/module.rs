//! Loading the verbs module (`librailmpi_verbs.so`) at run time, as UCX and Open MPI load
//! their transports: libmpi itself never links libibverbs, so it loads and runs on machines
//! without it; the module (which does) is opened only when a device may exist.
//!
//! Where the module is looked for: `RAILMPI_VERBS_MODULE` (a path), else beside the object
//! this code lives in (`build/lib/` for libmpi.so.12) and in `../lib` from it (`build/bin/`
//! for railmpi-info and mpiexec).

#[rustfmt::skip]
#[path = "../../../modules/verbs/src/abi.rs"]
pub mod abi;

use std::ffi::{CStr, CString};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The module's file name.
pub const FILE: &str = "librailmpi_verbs.so";

/// The loaded module's function table (lives as long as the process: never unloaded).
pub struct Module {
    pub ops: &'static abi::Ops,
    pub path: PathBuf,
}

/// Why there is no verbs module.
#[derive(Clone, Debug)]
pub enum Absent {
    /// No RDMA device on this machine (`/sys/class/infiniband` empty or missing): the
    /// module is not even opened.
    NoDevice,
    /// A device exists but the module could not be used.
    Failed(String),
}

impl std::fmt::Display for Absent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Absent::NoDevice => f.write_str("no RDMA device (/sys/class/infiniband is empty)"),
            Absent::Failed(why) => f.write_str(why),
        }
    }
}

/// Whether the kernel shows an RDMA device (cheap: one directory read, no library).
pub fn device_present() -> bool {
    std::fs::read_dir("/sys/class/infiniband").is_ok_and(|mut d| d.next().is_some())
}

/// The module, loaded at the first call.
pub fn get() -> Result<&'static Module, Absent> {
    static MODULE: OnceLock<Result<Module, Absent>> = OnceLock::new();
    MODULE.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn candidates() -> Vec<PathBuf> {
    if let Some(p) = std::env::var_os("RAILMPI_VERBS_MODULE").filter(|p| !p.is_empty()) {
        return vec![PathBuf::from(p)];
    }
    let mut out = Vec::new();
    if let Some(dir) = own_dir() {
        out.push(dir.join(FILE));
        out.push(dir.join("../lib").join(FILE));
    }
    out
}

/// The directory of the object (library or executable) this function was linked into.
fn own_dir() -> Option<PathBuf> {
    let mut info: libc::Dl_info = empty_dl_info();
    let here = own_dir as *const () as *const libc::c_void;
    // SAFETY: dladdr only reads the address and fills `info`; `dli_fname` points into the
    // loader's tables, valid while the object stays loaded (ours: always).
    let ok = unsafe { libc::dladdr(here, &mut info) };
    if ok == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr succeeded, so dli_fname is a NUL-terminated path (see above).
    let name = unsafe { CStr::from_ptr(info.dli_fname) };
    let path = std::fs::canonicalize(name.to_str().ok()?).ok()?;
    path.parent().map(|p| p.to_path_buf())
}

fn empty_dl_info() -> libc::Dl_info {
    libc::Dl_info {
        dli_fname: std::ptr::null(),
        dli_fbase: std::ptr::null_mut(),
        dli_sname: std::ptr::null(),
        dli_saddr: std::ptr::null_mut(),
    }
}

fn dlerror() -> String {
    // SAFETY: dlerror returns NULL or a NUL-terminated string valid until the next dl call
    // on this thread; it is copied at once.
    let e = unsafe { libc::dlerror() };
    if e.is_null() {
        "unknown error".into()
    } else {
        // SAFETY: as above.
        unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
    }
}

fn load() -> Result<Module, Absent> {
    if std::env::var_os("RAILMPI_VERBS_MODULE").is_none() && !device_present() {
        return Err(Absent::NoDevice);
    }
    let mut tried = Vec::new();
    for path in candidates() {
        if !path.exists() {
            tried.push(format!("{} (missing)", path.display()));
            continue;
        }
        let c = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| Absent::Failed(format!("bad module path {}", path.display())))?;
        // SAFETY: dlopen of a path; the module's initialisers are plain Rust statics (no
        // constructors that could misbehave). RTLD_LOCAL keeps its symbols (and
        // libibverbs') out of the program's namespace.
        let handle = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            tried.push(format!("{}: {}", path.display(), dlerror()));
            continue;
        }
        // SAFETY: dlsym on a live handle with a NUL-terminated name.
        let sym = unsafe { libc::dlsym(handle, abi::ENTRY_SYMBOL.as_ptr().cast()) };
        if sym.is_null() {
            return Err(Absent::Failed(format!(
                "{} has no railmpi_verbs_ops: {}",
                path.display(),
                dlerror()
            )));
        }
        // SAFETY: the module exports `railmpi_verbs_ops` with exactly this signature (the
        // same abi.rs on both sides); the handle is never closed, so the table it returns
        // lives for the process.
        let entry: unsafe extern "C" fn() -> *const abi::Ops = unsafe { std::mem::transmute(sym) };
        // SAFETY: as above; the pointer is checked before use.
        let ops = unsafe { entry() };
        if ops.is_null() {
            return Err(Absent::Failed(format!(
                "{} returned no table",
                path.display()
            )));
        }
        // SAFETY: a non-null pointer to a static table (see above). Its version and size
        // are checked before any other field is read.
        let ops: &'static abi::Ops = unsafe { &*ops };
        if ops.version != abi::ABI_VERSION || ops.size as usize != std::mem::size_of::<abi::Ops>() {
            return Err(Absent::Failed(format!(
                "{} speaks interface version {} (size {}); this libmpi needs {} (size {})",
                path.display(),
                ops.version,
                ops.size,
                abi::ABI_VERSION,
                std::mem::size_of::<abi::Ops>()
            )));
        }
        return Ok(Module { ops, path });
    }
    Err(Absent::Failed(format!(
        "cannot load the verbs module {FILE} (set RAILMPI_VERBS_MODULE): tried {}",
        tried.join("; ")
    )))
}

/// A port as libmpi sees it.
#[derive(Clone, Debug)]
pub struct Port {
    pub device: String,
    pub port: u32,
    pub info: abi::PortInfo,
}

impl Port {
    pub fn transport(&self) -> &'static str {
        match self.info.transport {
            abi::TRANSPORT_IB => "InfiniBand",
            abi::TRANSPORT_IWARP => "iWARP",
            _ => "RoCE",
        }
    }

    pub fn ip(&self) -> Option<std::net::IpAddr> {
        let v6 = std::net::Ipv6Addr::from(self.info.ip);
        if v6.is_unspecified() {
            return None;
        }
        Some(match v6.to_ipv4_mapped() {
            Some(v4) => std::net::IpAddr::V4(v4),
            None => std::net::IpAddr::V6(v6),
        })
    }

    pub fn fw_ver(&self) -> String {
        c_text(&self.info.fw_ver)
    }
}

impl std::fmt::Debug for abi::PortInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PortInfo")
            .field("name", &c_text(&self.name))
            .field("port", &self.port)
            .field("transport", &self.transport)
            .finish_non_exhaustive()
    }
}

/// A NUL-terminated name in a fixed array.
pub fn c_text(b: &[u8]) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end]).into_owned()
}

/// Every port of every device.
pub fn ports(m: &Module) -> Result<Vec<Port>, String> {
    let mut buf = vec![zeroed_port(); 64];
    let mut count = 0usize;
    // SAFETY: `buf` has room for 64 entries, as passed; `count` is a valid out-pointer.
    let rc = unsafe { (m.ops.query)(buf.as_mut_ptr(), buf.len(), &mut count) };
    if rc != 0 {
        return Err(format!(
            "querying RDMA devices: {}",
            std::io::Error::from_raw_os_error(rc)
        ));
    }
    buf.truncate(count.min(64));
    Ok(buf
        .into_iter()
        .map(|info| Port {
            device: c_text(&info.name),
            port: info.port,
            info,
        })
        .collect())
}

pub fn zeroed_port() -> abi::PortInfo {
    abi::PortInfo {
        name: [0; 64],
        port: 0,
        transport: 0,
        active: 0,
        mtu: 0,
        speed_mbps: 0,
        max_qp_wr: 0,
        max_sge: 0,
        max_sge_rd: 0,
        max_srq_wr: 0,
        max_inline: 0,
        atomics: 0,
        odp: 0,
        max_mr_size: 0,
        max_qp_rd_atom: 0,
        vendor_id: 0,
        gid_index: -1,
        gid: [0; 16],
        ip: [0; 16],
        fw_ver: [0; 64],
    }
}

/// `ibv_wc_status_str`.
pub fn status_text(m: &Module, status: u32) -> String {
    // SAFETY: the module returns a static NUL-terminated string (or NULL).
    let p = unsafe { (m.ops.status_str)(status) };
    if p.is_null() {
        return format!("status {status}");
    }
    // SAFETY: as above.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}
