//! Self-test of `librailmpi_verbs.so` through its `Ops` table, loaded with `dlopen` the way
//! libmpi loads it.
//!
//! One process (default): two contexts A and B on one device port, A connects to B through
//! rdma_cm, and every operation is checked byte for byte. Then `OpenParams::share_pd`: Q in
//! P's protection domain does RDMA with P's keys on a connection to its own listener, R in
//! a domain of its own is refused them, and Q outlives P (see `t_shared_pd`).
//!
//! Two processes (`--server` / `--client`, e.g. one per VM of `softroce-vm.sh --vms 2`): the
//! server publishes its address and memory key in `$SOFTROCE_SHARED/selftest.addr`, the
//! client connects and drives the operations, the server checks what arrives.
//!
//! Options: `--dev NAME` (default `$SOFTROCE_DEV`, else the first active port), `--port N`,
//! `--lib PATH` (default `target/release/librailmpi_verbs.so` next to this example's
//! directory, or `$RAILMPI_VERBS_MODULE`), `--timeout EXP` (QP retry timeout exponent, default
//! 14), `--no-atomics`. Exit status 0 only if every check passed.

#[rustfmt::skip]
#[path = "../src/abi.rs"]
mod abi;

use abi::*;
use std::collections::VecDeque;
use std::ffi::{c_char, CStr, CString};
use std::ptr;
use std::time::{Duration, Instant};

const MIB: usize = 1 << 20;
const RECV_SIZE: usize = 4096;
const NRECV: usize = 32;
const SQ_DEPTH: u32 = 16;
const DEADLINE: Duration = Duration::from_secs(20);

static mut FAILED: u32 = 0;

fn check(ok: bool, what: &str) -> bool {
    if ok {
        println!("  ok    {what}");
    } else {
        println!("  FAIL  {what}");
        // SAFETY: the test is single-threaded.
        unsafe { FAILED += 1 };
    }
    ok
}

fn die(msg: &str) -> ! {
    println!("  FAIL  {msg}");
    std::process::exit(1);
}

fn ops_of(lib: &str) -> &'static Ops {
    let path = CString::new(lib).unwrap();
    // SAFETY: dlopen/dlsym with NUL-terminated strings; the library stays loaded for good.
    unsafe {
        let h = libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
        if h.is_null() {
            die(&format!(
                "dlopen {lib}: {}",
                CStr::from_ptr(libc::dlerror()).to_string_lossy()
            ));
        }
        let sym = libc::dlsym(h, ENTRY_SYMBOL.as_ptr() as *const c_char);
        if sym.is_null() {
            die("no railmpi_verbs_ops symbol");
        }
        let entry: extern "C" fn() -> *const Ops = std::mem::transmute(sym);
        let ops = &*entry();
        if ops.version != ABI_VERSION || ops.size as usize != std::mem::size_of::<Ops>() {
            die(&format!(
                "ABI mismatch: version {} size {}",
                ops.version, ops.size
            ));
        }
        ops
    }
}

fn cname(b: &[u8]) -> String {
    let n = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..n]).into_owned()
}

fn fmt_ip(ip: &[u8; 16]) -> String {
    if ip[..10].iter().all(|&b| b == 0) && ip[10] == 0xff && ip[11] == 0xff {
        std::net::Ipv4Addr::new(ip[12], ip[13], ip[14], ip[15]).to_string()
    } else {
        std::net::Ipv6Addr::from(*ip).to_string()
    }
}

fn parse_ip(s: &str) -> [u8; 16] {
    match s.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V4(a)) => a.to_ipv6_mapped().octets(),
        Ok(std::net::IpAddr::V6(a)) => a.octets(),
        Err(_) => die(&format!("bad IP {s}")),
    }
}

/// A registered buffer, only ever touched through raw pointers (the device writes it too).
#[derive(Clone, Copy)]
struct Region {
    base: *mut u8,
    len: usize,
    mr: Mr,
}

impl Region {
    fn addr(&self, off: usize) -> u64 {
        self.base as u64 + off as u64
    }
    fn fill(&self, off: usize, len: usize, seed: u8) {
        for i in 0..len {
            // SAFETY: in bounds of the leaked allocation.
            unsafe { ptr::write_volatile(self.base.add(off + i), pattern(seed, i)) };
        }
    }
    fn read(&self, off: usize, len: usize) -> Vec<u8> {
        assert!(off + len <= self.len);
        // SAFETY: in bounds; volatile because the device writes behind the compiler's back.
        (0..len)
            .map(|i| unsafe { ptr::read_volatile(self.base.add(off + i)) })
            .collect()
    }
    fn read_u64(&self, off: usize) -> u64 {
        u64::from_ne_bytes(self.read(off, 8).try_into().unwrap())
    }
    fn write_u64(&self, off: usize, v: u64) {
        for (i, b) in v.to_ne_bytes().iter().enumerate() {
            // SAFETY: in bounds.
            unsafe { ptr::write_volatile(self.base.add(off + i), *b) };
        }
    }
    /// The remote end of an RDMA request at `off`: address and rkey.
    fn at(&self, off: usize) -> (u64, u32) {
        (self.addr(off), self.mr.rkey)
    }
    fn sge(&self, off: usize, len: usize) -> Sge {
        Sge {
            addr: self.addr(off),
            len: len as u32,
            lkey: self.mr.lkey,
        }
    }
}

fn pattern(seed: u8, i: usize) -> u8 {
    (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 8) as u8
}

fn expect_pattern(bytes: &[u8], seed: u8) -> bool {
    bytes
        .iter()
        .enumerate()
        .all(|(i, &b)| b == pattern(seed, i))
}

/// One context and what it has received but the test has not consumed yet.
struct Side {
    name: &'static str,
    ops: &'static Ops,
    ctx: *mut Ctx,
    wcs: VecDeque<Wc>,
    evs: VecDeque<CmEvent>,
    mem: Option<Region>,
    recv: Option<Region>,
}

/// `open` with our test parameters, in the protection domain of `share` (NULL: its own);
/// the error is the errno and the reason `open` gave.
fn open_ctx(
    ops: &Ops,
    dev: &str,
    port: u32,
    timeout: u8,
    info: &PortInfo,
    share: *mut Ctx,
) -> Result<*mut Ctx, (i32, String)> {
    let devc = CString::new(dev).unwrap();
    let params = OpenParams {
        device: devc.as_ptr(),
        port,
        cq_depth: 512,
        sq_depth: SQ_DEPTH,
        srq_depth: 128,
        max_inline: info.max_inline.min(64),
        max_sge: info.max_sge.clamp(1, 4),
        timeout,
        retry_count: 7,
        rnr_retry: 7,
        _pad: 0,
        listen_ip: [0; 16],
        share_pd: share,
    };
    let mut ctx = ptr::null_mut();
    let mut err = [0 as c_char; 256];
    // SAFETY: params is valid (share is NULL or an open context); err has 256 bytes.
    let r = unsafe { (ops.open)(&params, &mut ctx, err.as_mut_ptr(), err.len()) };
    if r != 0 {
        // SAFETY: open wrote a NUL-terminated reason.
        let msg = unsafe { CStr::from_ptr(err.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        return Err((r, msg));
    }
    Ok(ctx)
}

impl Side {
    fn open(
        name: &'static str,
        ops: &'static Ops,
        dev: &str,
        port: u32,
        timeout: u8,
        info: &PortInfo,
    ) -> Side {
        Side::open_in(name, ops, dev, port, timeout, info, ptr::null_mut())
    }

    /// A context in the protection domain of `share` (NULL: its own), with a region
    /// (`mem`) and receive buffers registered through it.
    fn open_in(
        name: &'static str,
        ops: &'static Ops,
        dev: &str,
        port: u32,
        timeout: u8,
        info: &PortInfo,
        share: *mut Ctx,
    ) -> Side {
        let ctx = open_ctx(ops, dev, port, timeout, info, share).unwrap_or_else(|(r, msg)| {
            die(&format!("open {name} on {dev}:{port}: errno {r}: {msg}"))
        });
        let mut s = Side {
            name,
            ops,
            ctx,
            wcs: VecDeque::new(),
            evs: VecDeque::new(),
            mem: None,
            recv: None,
        };
        s.mem = Some(s.region(
            MIB,
            ACCESS_REMOTE_READ | ACCESS_REMOTE_WRITE | ACCESS_REMOTE_ATOMIC,
        ));
        let recv = s.region(RECV_SIZE * NRECV, 0);
        for i in 0..NRECV {
            s.post_recv(&recv, i);
        }
        s.recv = Some(recv);
        s
    }

    fn region(&self, len: usize, access: u32) -> Region {
        let base = vec![0u8; len].leak().as_mut_ptr();
        let mut mr = Mr::default();
        // SAFETY: the buffer is leaked, so it outlives the registration.
        let r = unsafe { (self.ops.reg_mr)(self.ctx, base as u64, len as u64, access, &mut mr) };
        if r != 0 {
            die(&format!("{}: reg_mr {len}: errno {r}", self.name));
        }
        Region { base, len, mr }
    }

    fn post_recv(&self, recv: &Region, i: usize) {
        let sge = recv.sge(i * RECV_SIZE, RECV_SIZE);
        // SAFETY: ctx live; sge valid for the call.
        let r = unsafe { (self.ops.post_recv)(self.ctx, (1000 + i) as u64, &sge) };
        if r != 0 {
            die(&format!("{}: post_recv: errno {r}", self.name));
        }
    }

    fn listen(&self) -> Addr {
        let mut a = Addr::default();
        // SAFETY: ctx live.
        unsafe { (self.ops.listen_addr)(self.ctx, &mut a) };
        a
    }

    fn fds(&self) -> [i32; 2] {
        let mut f = [0i32; 2];
        // SAFETY: room for two.
        unsafe { (self.ops.wait_fds)(self.ctx, f.as_mut_ptr()) };
        f
    }

    /// Take everything that is ready (completions and cm events) into the queues.
    fn drain(&mut self) {
        // SAFETY: ctx live.
        unsafe { (self.ops.ack_events)(self.ctx, 1) };
        let mut buf = [Wc::default(); 16];
        loop {
            let mut n = 0;
            // SAFETY: buf has 16 entries.
            let r = unsafe { (self.ops.poll)(self.ctx, buf.as_mut_ptr(), buf.len(), &mut n) };
            if r != 0 {
                die(&format!("{}: poll: errno {r}", self.name));
            }
            self.wcs.extend(&buf[..n]);
            if n < buf.len() {
                break;
            }
        }
        loop {
            let mut ev = CmEvent {
                kind: 0,
                status: 0,
                error: 0,
                data_len: 0,
                conn: 0,
                data: [0; PRIVATE_DATA],
            };
            // SAFETY: ev writable.
            let r = unsafe { (self.ops.cm_event)(self.ctx, &mut ev) };
            if r != 0 {
                die(&format!("{}: cm_event: errno {r}", self.name));
            }
            if ev.kind == CM_NONE {
                break;
            }
            self.evs.push_back(ev);
        }
    }

    fn post(&self, cookie: u64, d: &Desc) -> i32 {
        self.post_list(cookie, std::slice::from_ref(d)).0
    }

    /// Post `ds` with one doorbell: (status, how many went).
    fn post_list(&self, cookie: u64, ds: &[Desc]) -> (i32, usize) {
        let mut posted = usize::MAX;
        // SAFETY: ctx live; ds and their sges valid for the call; posted writable.
        let r = unsafe { (self.ops.post)(self.ctx, cookie, ds.as_ptr(), ds.len(), &mut posted) };
        (r, posted)
    }

    fn status(&self, s: u32) -> String {
        // SAFETY: returns a static string.
        unsafe { CStr::from_ptr((self.ops.status_str)(s)) }
            .to_string_lossy()
            .into_owned()
    }
}

/// Sleep on every side's descriptors (poll(2)) and pump them, until `done` says so.
fn pump_until(
    sides: &mut [&mut Side],
    what: &str,
    mut done: impl FnMut(&mut [&mut Side]) -> bool,
) -> bool {
    let end = Instant::now() + DEADLINE;
    loop {
        for s in sides.iter_mut() {
            s.drain();
        }
        if done(sides) {
            return true;
        }
        if Instant::now() > end {
            println!("  FAIL  timed out waiting for {what}");
            // SAFETY: single-threaded.
            unsafe { FAILED += 1 };
            return false;
        }
        let mut pfds: Vec<libc::pollfd> = sides
            .iter()
            .flat_map(|s| s.fds())
            .map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        // SAFETY: pfds is a valid array.
        unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, 50) };
    }
}

fn take_ev(s: &mut Side, pred: impl Fn(&CmEvent) -> bool) -> Option<CmEvent> {
    let i = s.evs.iter().position(pred)?;
    s.evs.remove(i)
}

fn take_wc(s: &mut Side, pred: impl Fn(&Wc) -> bool) -> Option<Wc> {
    let i = s.wcs.iter().position(pred)?;
    s.wcs.remove(i)
}

fn wait_ev(
    sides: &mut [&mut Side],
    who: usize,
    what: &str,
    pred: impl Fn(&CmEvent) -> bool,
) -> Option<CmEvent> {
    let mut got = None;
    pump_until(sides, what, |s| {
        got = take_ev(s[who], &pred);
        got.is_some()
    });
    got
}

fn wait_wc(
    sides: &mut [&mut Side],
    who: usize,
    what: &str,
    pred: impl Fn(&Wc) -> bool,
) -> Option<Wc> {
    let mut got = None;
    pump_until(sides, what, |s| {
        got = take_wc(s[who], &pred);
        got.is_some()
    });
    got
}

fn desc(wr_id: u64, opcode: u32, flags: u32, sge: &Sge) -> Desc {
    Desc {
        wr_id,
        opcode,
        flags,
        sge,
        num_sge: 1,
        imm: 0,
        remote_addr: 0,
        rkey: 0,
        _pad: 0,
        compare_add: 0,
        swap: 0,
    }
}

const KIND: [&str; 6] = [
    "NONE",
    "REQUEST",
    "ESTABLISHED",
    "REJECTED",
    "DISCONNECTED",
    "ERROR",
];

fn ev_str(e: &CmEvent) -> String {
    format!(
        "{} conn={:#x} status={} error={} data_len={}",
        KIND.get(e.kind as usize).unwrap_or(&"?"),
        e.conn,
        e.status,
        e.error,
        e.data_len
    )
}

/// Connect `a` (index 0) to `b` (index 1): REQUEST at b (checked private data), accept,
/// ESTABLISHED on both.
fn connect_pair(sides: &mut [&mut Side], to: Addr, ca: u64, cb: u64) -> bool {
    let data = format!("hello {ca:#x}");
    // SAFETY: ctx live; data valid for the call.
    let r = unsafe { (sides[0].ops.connect)(sides[0].ctx, &to, data.as_ptr(), data.len(), ca) };
    if !check(
        r == 0,
        &format!(
            "connect {ca:#x} -> {}:{} returns 0 (got {r})",
            fmt_ip(&to.ip),
            to.port
        ),
    ) {
        return false;
    }
    let Some(req) = wait_ev(sides, 1, "CM_REQUEST", |e| e.kind != CM_NONE) else {
        return false;
    };
    if !check(
        req.kind == CM_REQUEST,
        &format!("B gets CM_REQUEST ({})", ev_str(&req)),
    ) {
        return false;
    }
    let pd = &req.data[..req.data_len as usize];
    check(
        pd.starts_with(data.as_bytes()) && pd[data.len()..].iter().all(|&b| b == 0),
        &format!(
            "request private data {:?} (len {})",
            String::from_utf8_lossy(&pd[..data.len().min(pd.len())]),
            req.data_len
        ),
    );
    // SAFETY: ctx live.
    let r = unsafe { (sides[1].ops.accept)(sides[1].ctx, req.conn, cb) };
    check(r == 0, &format!("accept -> cookie {cb:#x} (got {r})"));
    let ea = wait_ev(sides, 0, "A ESTABLISHED", |e| e.conn == ca);
    let eb = wait_ev(sides, 1, "B ESTABLISHED", |e| e.conn == cb);
    check(
        ea.is_some_and(|e| e.kind == CM_ESTABLISHED),
        &format!("A: ESTABLISHED {ca:#x}"),
    ) & check(
        eb.is_some_and(|e| e.kind == CM_ESTABLISHED),
        &format!("B: ESTABLISHED {cb:#x}"),
    )
}

fn pick_port(ops: &Ops, dev: Option<&str>, port: u32) -> PortInfo {
    let mut n = 0usize;
    // SAFETY: count only.
    unsafe { (ops.query)(ptr::null_mut(), 0, &mut n) };
    // SAFETY: PortInfo is integers and byte arrays: all-zero is valid.
    let mut v = vec![unsafe { std::mem::zeroed::<PortInfo>() }; n];
    // SAFETY: room for n.
    let r = unsafe { (ops.query)(v.as_mut_ptr(), n, &mut n) };
    check(r == 0, &format!("query: {n} port(s)"));
    for p in &v {
        println!(
            "  port  {}:{} transport={} active={} mtu={} speed={}Mb/s max_qp_wr={} max_sge={} max_sge_rd={} \
             max_srq_wr={} max_inline={} atomics={} odp={:#x} max_mr_size={:#x} max_qp_rd_atom={} gid_index={} \
             gid={} ip={} fw={}",
            cname(&p.name),
            p.port,
            ["IB", "RoCE", "iWARP"].get(p.transport as usize).unwrap_or(&"?"),
            p.active,
            p.mtu,
            p.speed_mbps,
            p.max_qp_wr,
            p.max_sge,
            p.max_sge_rd,
            p.max_srq_wr,
            p.max_inline,
            p.atomics,
            p.odp,
            p.max_mr_size,
            p.max_qp_rd_atom,
            p.gid_index,
            std::net::Ipv6Addr::from(p.gid),
            fmt_ip(&p.ip),
            cname(&p.fw_ver)
        );
    }
    v.into_iter()
        .find(|p| {
            dev.is_none_or(|d| cname(&p.name) == d)
                && (port == 0 || p.port == port)
                && p.active == 1
        })
        .unwrap_or_else(|| die(&format!("no active port {dev:?}:{port}")))
}

struct Opts {
    dev: Option<String>,
    port: u32,
    lib: String,
    timeout: u8,
    atomics: bool,
    role: Option<String>,
}

fn opts() -> Opts {
    let mut o = Opts {
        dev: std::env::var("SOFTROCE_DEV").ok(),
        port: 0,
        lib: std::env::var("RAILMPI_VERBS_MODULE").unwrap_or_else(|_| {
            let exe = std::env::current_exe().unwrap();
            exe.parent()
                .and_then(|p| p.parent())
                .unwrap()
                .join("librailmpi_verbs.so")
                .display()
                .to_string()
        }),
        timeout: 14,
        atomics: true,
        role: None,
    };
    let mut a = std::env::args().skip(1);
    while let Some(x) = a.next() {
        match x.as_str() {
            "--dev" => o.dev = a.next(),
            "--port" => o.port = a.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            "--lib" => o.lib = a.next().unwrap_or_default(),
            "--timeout" => o.timeout = a.next().and_then(|v| v.parse().ok()).unwrap_or(14),
            "--no-atomics" => o.atomics = false,
            "--server" | "--client" => o.role = Some(x[2..].to_string()),
            _ => die(&format!("unknown option {x}")),
        }
    }
    o
}

fn main() {
    let o = opts();
    println!("selftest: {}", o.lib);
    let ops = ops_of(&o.lib);
    let info = pick_port(ops, o.dev.as_deref(), o.port);
    let dev = cname(&info.name);
    let atomics = o.atomics && info.atomics != 0;
    println!(
        "selftest: device {dev} port {} ({} atomics)",
        info.port,
        if atomics { "with" } else { "without" }
    );
    match o.role.as_deref() {
        None => one_process(ops, &dev, &info, o.timeout, atomics),
        Some(role) => two_process(ops, &dev, &info, o.timeout, atomics, role == "server"),
    }
    // SAFETY: single-threaded.
    let failed = unsafe { FAILED };
    if failed == 0 {
        println!("selftest: ALL OK");
    } else {
        println!("selftest: {failed} check(s) FAILED");
        std::process::exit(1);
    }
}

/// Send (with immediate where the device has them), A → B's shared receive queue.
fn t_send(s: &mut [&mut Side], ca: u64, cb: u64, len: usize, inline: bool, imm: bool) {
    let mem = s[0].mem.as_ref().unwrap();
    mem.fill(0, len, 7);
    let sge = mem.sge(0, len);
    let flags = FLAG_SIGNALED | if inline { FLAG_INLINE } else { 0 };
    let mut d = desc(1, if imm { OP_SEND_IMM } else { OP_SEND }, flags, &sge);
    d.imm = 0xdead_beef;
    let what = match (inline, imm) {
        (true, true) => "inline send with imm",
        (false, true) => "send with imm",
        (true, false) => "inline send",
        (false, false) => "send",
    };
    let r = s[0].post(ca, &d);
    check(r == 0, &format!("post {what} {len} B (got {r})"));
    if inline {
        mem.fill(0, len, 99); // inline: the buffer may be reused as soon as post returns
    }
    let w = wait_wc(s, 0, "send completion", |w| w.wr_id == 1);
    check(
        w.is_some_and(|w| w.status == 0 && w.opcode == WC_SEND && w.conn == ca),
        &format!("A: WC_SEND ok, conn {ca:#x} ({w:?})"),
    );
    let w = wait_wc(s, 1, "receive", |w| w.opcode == WC_RECV);
    let Some(w) = w else { return };
    let imm_ok = if imm {
        w.has_imm == 1 && w.imm == 0xdead_beef
    } else {
        w.has_imm == 0
    };
    check(
        w.status == 0 && w.byte_len == len as u32 && imm_ok && w.conn == cb,
        &format!(
            "B: WC_RECV {len} B, {}conn {cb:#x} ({w:?})",
            if imm { "imm 0xdeadbeef, " } else { "no imm, " }
        ),
    );
    let i = (w.wr_id - 1000) as usize;
    let recv = s[1].recv.as_ref().unwrap();
    check(
        expect_pattern(&recv.read(i * RECV_SIZE, len), 7),
        &format!("{what}: payload byte-for-byte"),
    );
    s[1].post_recv(s[1].recv.as_ref().unwrap(), i);
}

fn one_process(ops: &'static Ops, dev: &str, info: &PortInfo, timeout: u8, atomics: bool) {
    println!("== open two contexts");
    let mut a = Side::open("A", ops, dev, info.port, timeout, info);
    let mut b = Side::open("B", ops, dev, info.port, timeout, info);
    let (la, lb) = (a.listen(), b.listen());
    println!(
        "  A listens on {}:{}, B on {}:{}",
        fmt_ip(&la.ip),
        la.port,
        fmt_ip(&lb.ip),
        lb.port
    );
    check(lb.port != 0 && lb.ip != [0; 16], "B has a listen address");
    let fds = b.fds();
    check(
        fds[0] >= 0 && fds[1] >= 0 && fds[0] != fds[1],
        &format!("wait_fds {fds:?}"),
    );
    let (ca, cb) = (0xA1u64, 0xB1u64);

    println!("== memory regions");
    let mut mr = Mr::default();
    let buf = vec![0u8; 65536].leak();
    // SAFETY: ctx live; the buffer is leaked.
    let r = unsafe { (a.ops.reg_mr)(a.ctx, buf.as_ptr() as u64, 65536, ACCESS_ON_DEMAND, &mut mr) };
    if info.odp == 0 {
        check(
            r == libc::EOPNOTSUPP,
            &format!("ODP region without ODP: EOPNOTSUPP (got {r})"),
        );
    } else {
        check(r == 0, &format!("ODP region (got {r})"));
        // SAFETY: ctx live; mr registered above.
        let r =
            unsafe { (a.ops.advise_mr)(a.ctx, mr.handle, buf.as_ptr() as u64, 4096, ADVISE_WRITE) };
        check(r == 0, &format!("advise_mr prefetch-write (got {r})"));
        // SAFETY: ctx live.
        check(
            unsafe { (a.ops.dereg_mr)(a.ctx, mr.handle) } == 0,
            "dereg ODP region",
        );
    }
    // SAFETY: ctx live.
    let r = unsafe {
        (a.ops.reg_mr)(
            a.ctx,
            0,
            u64::MAX,
            ACCESS_ON_DEMAND | ACCESS_REMOTE_WRITE,
            &mut mr,
        )
    };
    if info.odp & ODP_IMPLICIT == 0 {
        check(
            r == libc::EOPNOTSUPP,
            &format!("implicit ODP without the capability: EOPNOTSUPP (got {r})"),
        );
    } else if check(r == 0, &format!("implicit ODP region (got {r})")) {
        // SAFETY: ctx live.
        unsafe { (a.ops.dereg_mr)(a.ctx, mr.handle) };
    }
    // SAFETY: ctx live; the buffer is leaked.
    let r = unsafe {
        (a.ops.reg_mr)(
            a.ctx,
            buf.as_ptr() as u64,
            65536,
            ACCESS_REMOTE_READ,
            &mut mr,
        )
    };
    check(
        r == 0 && mr.handle != 0,
        &format!("plain region: lkey {:#x} rkey {:#x}", mr.lkey, mr.rkey),
    );
    // SAFETY: ctx live.
    let r = unsafe { (a.ops.advise_mr)(a.ctx, mr.handle, buf.as_ptr() as u64, 4096, ADVISE_READ) };
    println!("  note  advise_mr on a plain region: errno {r}");
    // SAFETY: ctx live.
    check(
        unsafe { (a.ops.dereg_mr)(a.ctx, mr.handle) } == 0,
        "dereg_mr",
    );
    // SAFETY: ctx live; a handle that is gone is refused, not dereferenced.
    let r = unsafe { (a.ops.dereg_mr)(a.ctx, mr.handle) };
    check(
        r == libc::EINVAL,
        &format!("dereg_mr twice: EINVAL (got {r})"),
    );
    // SAFETY: ctx live.
    let r = a.post(0x5555, &desc(9, OP_SEND, 0, &Sge::default()));
    check(
        r == libc::ENOTCONN,
        &format!("post to an unknown cookie: ENOTCONN (got {r})"),
    );

    let s: &mut [&mut Side] = &mut [&mut a, &mut b];
    println!("== connect A -> B");
    if !connect_pair(s, lb, ca, cb) {
        die("no connection");
    }

    println!("== reject");
    let rd = b"go away";
    // SAFETY: ctx live.
    let r = unsafe { (s[0].ops.connect)(s[0].ctx, &lb, b"reject me".as_ptr(), 9, 0xA2) };
    check(r == 0, "connect 0xA2");
    if let Some(req) = wait_ev(s, 1, "CM_REQUEST", |e| e.kind == CM_REQUEST) {
        // SAFETY: ctx live.
        let r = unsafe { (s[1].ops.reject)(s[1].ctx, req.conn, rd.as_ptr(), rd.len()) };
        check(r == 0, "reject");
        // SAFETY: ctx live; the handle is gone after reject.
        let r = unsafe { (s[1].ops.accept)(s[1].ctx, req.conn, 0xB2) };
        check(
            r == libc::ENOENT,
            &format!("accept after reject: ENOENT (got {r})"),
        );
    }
    if let Some(e) = wait_ev(s, 0, "CM_REJECTED", |e| e.conn == 0xA2) {
        check(
            e.kind == CM_REJECTED && e.data[..e.data_len as usize].starts_with(rd),
            &format!(
                "A: CM_REJECTED with the reject's private data ({})",
                ev_str(&e)
            ),
        );
    }
    // SAFETY: ctx live.
    let r = s[0].post(0xA2, &desc(9, OP_SEND, 0, &Sge::default()));
    check(
        r == libc::ENOTCONN,
        &format!("post on the rejected connection: ENOTCONN (got {r})"),
    );

    println!("== connect to a port nobody listens on");
    let dead = Addr { port: 1, ..lb };
    // SAFETY: ctx live.
    let r = unsafe { (s[0].ops.connect)(s[0].ctx, &dead, ptr::null(), 0, 0xA9) };
    if r == 0 {
        if let Some(e) = wait_ev(s, 0, "refusal", |e| e.conn == 0xA9) {
            check(
                matches!(e.kind, CM_REJECTED | CM_ERROR),
                &format!("A: refused ({})", ev_str(&e)),
            );
        }
    } else {
        check(
            true,
            &format!("connect to a dead port fails at once: errno {r}"),
        );
    }

    println!("== second connection");
    connect_pair(s, lb, 0xA3, 0xB3);

    println!("== send");
    // iWARP has no immediate data (siw refuses *_WITH_IMM with EINVAL).
    let mut imm = true;
    if info.transport == TRANSPORT_IWARP {
        let sge = s[0].mem.as_ref().unwrap().sge(0, 8);
        let r = s[0].post(ca, &desc(50, OP_SEND_IMM, FLAG_SIGNALED, &sge));
        if r != 0 {
            println!("  note  iWARP: send with immediate refused (errno {r}): testing plain sends");
            imm = false;
        } else {
            let w = wait_wc(s, 0, "send-imm probe", |w| w.wr_id == 50);
            check(
                w.is_some_and(|w| w.status == 0),
                "iWARP send with imm completes",
            );
            if let Some(w) = wait_wc(s, 1, "probe receive", |w| w.opcode == WC_RECV) {
                s[1].post_recv(s[1].recv.as_ref().unwrap(), (w.wr_id - 1000) as usize);
            }
        }
    }
    t_send(s, ca, cb, 100, false, imm);
    if info.max_inline >= 32 {
        t_send(s, ca, cb, 32, true, imm);
    }
    t_send(s, ca, cb, RECV_SIZE, false, imm);

    println!("== RDMA write");
    let (ma, mb) = (s[0].mem.as_ref().unwrap(), s[1].mem.as_ref().unwrap());
    ma.fill(4096, 8192, 3);
    let sge = ma.sge(4096, 8192);
    let mut d = desc(2, OP_WRITE, FLAG_SIGNALED, &sge);
    d.remote_addr = mb.addr(65536);
    d.rkey = mb.mr.rkey;
    check(s[0].post(ca, &d) == 0, "post write 8192 B");
    let w = wait_wc(s, 0, "write completion", |w| w.wr_id == 2);
    check(
        w.is_some_and(|w| w.status == 0 && w.opcode == WC_WRITE && w.conn == ca),
        &format!("A: WC_WRITE ok ({w:?})"),
    );
    let mb = s[1].mem.as_ref().unwrap();
    let end = Instant::now() + Duration::from_secs(2);
    while !expect_pattern(&mb.read(65536, 8192), 3) && Instant::now() < end {}
    check(
        expect_pattern(&mb.read(65536, 8192), 3),
        "write: target bytes",
    );

    println!("== RDMA writes, one doorbell");
    let (ma, mb) = (s[0].mem.as_ref().unwrap(), s[1].mem.as_ref().unwrap());
    let sges: Vec<Sge> = (0..3u8)
        .map(|i| {
            ma.fill(16384 + 2048 * i as usize, 2048, 10 + i);
            ma.sge(16384 + 2048 * i as usize, 2048)
        })
        .collect();
    let ds: Vec<Desc> = (0..3)
        .map(|i| {
            // Only the last signalled: it retires the others.
            let f = if i == 2 { FLAG_SIGNALED } else { 0 };
            let mut d = desc(20 + i as u64, OP_WRITE, f, &sges[i]);
            d.remote_addr = mb.addr(98304 + 4096 * i);
            d.rkey = mb.mr.rkey;
            d
        })
        .collect();
    let (r, n) = s[0].post_list(ca, &ds);
    check(
        r == 0 && n == 3,
        &format!("post 3 writes at once: 0, 3 (got {r}, {n})"),
    );
    let w = wait_wc(s, 0, "the third write's completion", |w| w.wr_id == 22);
    check(w.is_some_and(|w| w.status == 0), "the chain completes");
    let mb = s[1].mem.as_ref().unwrap();
    let landed =
        || (0..3u8).all(|i| expect_pattern(&mb.read(98304 + 4096 * i as usize, 2048), 10 + i));
    let end = Instant::now() + Duration::from_secs(2);
    while !landed() && Instant::now() < end {}
    check(landed(), "each write's bytes where it said");

    println!("== RDMA write with immediate");
    if imm {
        t_write_imm(s, ca, cb);
    } else {
        println!("  note  skipped (no immediates)");
    }

    println!("== RDMA read");
    let ma = s[0].mem.as_ref().unwrap();
    let sge = ma.sge(262144, 8192);
    let mut d = desc(4, OP_READ, FLAG_SIGNALED, &sge);
    d.remote_addr = s[1].mem.as_ref().unwrap().addr(65536);
    d.rkey = s[1].mem.as_ref().unwrap().mr.rkey;
    check(s[0].post(ca, &d) == 0, "post read 8192 B");
    let w = wait_wc(s, 0, "read completion", |w| w.wr_id == 4);
    check(
        w.is_some_and(|w| {
            w.status == 0 && w.opcode == WC_READ && w.byte_len == 8192 && w.conn == ca
        }),
        &format!("A: WC_READ ok ({w:?})"),
    );
    check(
        expect_pattern(&s[0].mem.as_ref().unwrap().read(262144, 8192), 3),
        "read: local bytes",
    );
    t_rest(s, ca, cb, info, atomics);
    t_shared_pd(ops, dev, info, timeout);
}

fn t_write_imm(s: &mut [&mut Side], ca: u64, cb: u64) {
    let ma = s[0].mem.as_ref().unwrap();
    ma.fill(20000, 512, 5);
    let sge = ma.sge(20000, 512);
    let mut d = desc(3, OP_WRITE_IMM, FLAG_SIGNALED, &sge);
    d.remote_addr = s[1].mem.as_ref().unwrap().addr(131072);
    d.rkey = s[1].mem.as_ref().unwrap().mr.rkey;
    d.imm = 0x0102_0304;
    check(s[0].post(ca, &d) == 0, "post write-with-imm 512 B");
    let w = wait_wc(s, 0, "write-imm completion", |w| w.wr_id == 3);
    check(
        w.is_some_and(|w| w.status == 0 && w.opcode == WC_WRITE),
        &format!("A: WC_WRITE ok ({w:?})"),
    );
    if let Some(w) = wait_wc(s, 1, "write-imm arrival", |w| w.opcode == WC_RECV_WRITE_IMM) {
        check(
            w.status == 0 && w.has_imm == 1 && w.imm == 0x0102_0304 && w.conn == cb,
            &format!("B: WC_RECV_WRITE_IMM imm 0x01020304 conn {cb:#x} ({w:?})"),
        );
        check(
            expect_pattern(&s[1].mem.as_ref().unwrap().read(131072, 512), 5),
            "write-with-imm: target bytes",
        );
        let i = (w.wr_id - 1000) as usize;
        s[1].post_recv(s[1].recv.as_ref().unwrap(), i);
    }
}

fn t_rest(s: &mut [&mut Side], ca: u64, cb: u64, info: &PortInfo, atomics: bool) {
    if atomics {
        println!("== atomics");
        let mb = s[1].mem.as_ref().unwrap();
        mb.write_u64(1024, 40);
        let ma = s[0].mem.as_ref().unwrap();
        let sge = ma.sge(512, 8);
        let mut d = desc(5, OP_FETCH_ADD, FLAG_SIGNALED, &sge);
        d.remote_addr = mb.addr(1024);
        d.rkey = mb.mr.rkey;
        d.compare_add = 2;
        check(s[0].post(ca, &d) == 0, "post fetch-and-add 2");
        let w = wait_wc(s, 0, "fetch-add completion", |w| w.wr_id == 5);
        check(
            w.is_some_and(|w| w.status == 0 && w.opcode == WC_ATOMIC),
            &format!("A: WC_ATOMIC ok ({w:?})"),
        );
        let (old, now) = (
            s[0].mem.as_ref().unwrap().read_u64(512),
            s[1].mem.as_ref().unwrap().read_u64(1024),
        );
        check(
            old == 40 && now == 42,
            &format!("fetch-add: old 40 -> {old}, remote 42 -> {now}"),
        );
        for (id, cmp, swap, want_old, want_now) in
            [(6u64, 42u64, 7u64, 42u64, 7u64), (7, 1, 9, 7, 7)]
        {
            let mb = s[1].mem.as_ref().unwrap();
            let mut d = desc(id, OP_CMP_SWAP, FLAG_SIGNALED, &sge);
            d.remote_addr = mb.addr(1024);
            d.rkey = mb.mr.rkey;
            d.compare_add = cmp;
            d.swap = swap;
            check(
                s[0].post(ca, &d) == 0,
                &format!("post compare({cmp})-and-swap({swap})"),
            );
            let w = wait_wc(s, 0, "cas completion", |w| w.wr_id == id);
            check(
                w.is_some_and(|w| w.status == 0 && w.opcode == WC_ATOMIC),
                &format!("A: WC_ATOMIC ok ({w:?})"),
            );
            let (old, now) = (
                s[0].mem.as_ref().unwrap().read_u64(512),
                s[1].mem.as_ref().unwrap().read_u64(1024),
            );
            check(
                old == want_old && now == want_now,
                &format!("cas: old {want_old} -> {old}, remote {want_now} -> {now}"),
            );
        }
    } else {
        println!("== atomics skipped (device has none)");
    }

    println!("== send queue full");
    let ma = s[0].mem.as_ref().unwrap();
    let mb = s[1].mem.as_ref().unwrap();
    let sge = ma.sge(0, 8);
    let mut d = desc(100, OP_WRITE, 0, &sge);
    d.remote_addr = mb.addr(300000);
    d.rkey = mb.mr.rkey;
    let mut posted = 0;
    let mut r = 0;
    for i in 0..SQ_DEPTH - 1 {
        d.wr_id = 100 + i as u64;
        r = s[0].post(ca, &d);
        if r != 0 {
            break;
        }
        posted += 1;
    }
    check(
        r == 0 && posted == SQ_DEPTH - 1,
        &format!("{posted} unsignaled writes posted"),
    );
    d.wr_id = 200;
    d.flags = FLAG_SIGNALED;
    let mut next = d;
    next.wr_id = 201;
    let (r, n) = s[0].post_list(ca, &[d, next]);
    check(
        r == libc::ENOMEM && n == 1,
        &format!("two signaled writes where one fits: ENOMEM, 1 posted (got {r}, {n})"),
    );
    d.wr_id = 201;
    let r = s[0].post(ca, &d);
    check(r == libc::ENOMEM, &format!("next post: ENOMEM (got {r})"));
    let w = wait_wc(s, 0, "signaled write", |w| w.wr_id == 200);
    check(
        w.is_some_and(|w| w.status == 0),
        "the signaled write completes (and retires the unsignaled ones)",
    );
    check(
        s[0].wcs.iter().all(|w| !(100..200).contains(&w.wr_id)),
        "no completions for unsignaled writes",
    );
    let r = s[0].post(ca, &d);
    check(r == 0, &format!("post after the completion: 0 (got {r})"));
    let w = wait_wc(s, 0, "write 201", |w| w.wr_id == 201);
    check(w.is_some_and(|w| w.status == 0), "write 201 completes");

    println!("== wrong rkey");
    let (ma, mb) = (s[0].mem.as_ref().unwrap(), s[1].mem.as_ref().unwrap());
    mb.fill(400000, 256, 9);
    ma.fill(0, 256, 11);
    let sge = ma.sge(0, 256);
    let mut d = desc(300, OP_WRITE, FLAG_SIGNALED, &sge);
    d.remote_addr = mb.addr(400000);
    d.rkey = mb.mr.rkey ^ 0x5a00;
    check(
        s[0].post(0xA3, &d) == 0,
        "post write with a wrong rkey on 0xA3",
    );
    if let Some(w) = wait_wc(s, 0, "error completion", |w| w.wr_id == 300) {
        let st = s[0].status(w.status);
        if w.status == 0 && info.transport == TRANSPORT_IWARP {
            // iWARP writes are unacknowledged: the write completes when sent, and the
            // responder's TERMINATE ends the connection instead.
            println!("  note  iWARP: the write completed locally ({st}); the peer terminates the connection");
            let e = wait_ev(s, 0, "A: CM_DISCONNECTED 0xA3 (terminate)", |e| {
                e.conn == 0xA3
            });
            check(
                e.is_some_and(|e| e.kind == CM_DISCONNECTED),
                &format!(
                    "A: connection 0xA3 terminated ({})",
                    e.map(|e| ev_str(&e)).unwrap_or_default()
                ),
            );
        } else {
            check(
                w.status != 0 && w.conn == 0xA3,
                &format!(
                    "A: error completion: status {} ({st}), conn {:#x}",
                    w.status, w.conn
                ),
            );
        }
    }
    check(
        expect_pattern(&s[1].mem.as_ref().unwrap().read(400000, 256), 9),
        "nothing written at the target",
    );
    // The queue pair is in error now: a later request flushes (or, where the provider has
    // torn the connection down already, is refused).
    d.wr_id = 301;
    d.rkey = s[1].mem.as_ref().unwrap().mr.rkey;
    let r = s[0].post(0xA3, &d);
    if r == 0 {
        let w = wait_wc(s, 0, "flush", |w| w.wr_id == 301);
        if let Some(w) = w {
            let st = s[0].status(w.status);
            check(
                w.status != 0 && w.conn == 0xA3,
                &format!(
                    "A: request after the error flushes: status {} ({st}) conn {:#x}",
                    w.status, w.conn
                ),
            );
        }
    } else {
        check(
            r == libc::ENOTCONN,
            &format!("post after the error: ENOTCONN (got {r})"),
        );
    }

    println!("== disconnect");
    // Requests in flight when the connection goes still complete (done or flushed), each
    // naming its connection.
    let (ma, mb) = (s[0].mem.as_ref().unwrap(), s[1].mem.as_ref().unwrap());
    let sge = ma.sge(0, 65536);
    let mut d = desc(0, OP_WRITE, FLAG_SIGNALED, &sge);
    d.remote_addr = mb.addr(500000);
    d.rkey = mb.mr.rkey;
    for i in 0..4 {
        d.wr_id = 400 + i;
        check(
            s[0].post(ca, &d) == 0,
            &format!("post write {} in flight", 400 + i),
        );
    }
    // SAFETY: ctx live.
    let r = unsafe { (s[0].ops.disconnect)(s[0].ctx, ca) };
    check(r == 0, "A disconnects 0xA1");
    for i in 0..4 {
        let w = wait_wc(s, 0, "in-flight write", |w| w.wr_id == 400 + i);
        if let Some(w) = w {
            let st = s[0].status(w.status);
            check(
                w.conn == ca,
                &format!(
                    "write {} completes after disconnect: {st}, conn {:#x}",
                    400 + i,
                    w.conn
                ),
            );
        }
    }
    let e = wait_ev(s, 1, "B: CM_DISCONNECTED", |e| e.conn == cb);
    check(
        e.is_some_and(|e| e.kind == CM_DISCONNECTED),
        &format!(
            "B: CM_DISCONNECTED {cb:#x} ({})",
            e.map(|e| ev_str(&e)).unwrap_or_default()
        ),
    );
    // SAFETY: ctx live.
    let r = unsafe { (s[1].ops.disconnect)(s[1].ctx, cb) };
    check(
        r == libc::ENOENT,
        &format!("disconnect after CM_DISCONNECTED: ENOENT, the cookie is free (got {r})"),
    );
    let r = s[0].post(ca, &desc(9, OP_SEND, 0, &Sge::default()));
    check(
        r == libc::ENOTCONN,
        &format!("post after disconnect: ENOTCONN (got {r})"),
    );
    // SAFETY: ctx live.
    let r = unsafe { (s[1].ops.disconnect)(s[1].ctx, 0xB3) };
    if info.transport == TRANSPORT_IWARP {
        // The terminate already ended 0xB3 (and freed its cookie).
        check(
            r == 0 || r == libc::ENOENT,
            &format!("B disconnects 0xB3 (got {r})"),
        );
    } else {
        check(r == 0, "B disconnects 0xB3");
    }
    if info.transport != TRANSPORT_IWARP {
        let e = wait_ev(s, 0, "A: CM_DISCONNECTED 0xA3", |e| e.conn == 0xA3);
        check(
            e.is_some_and(|e| e.kind == CM_DISCONNECTED),
            &format!(
                "A: CM_DISCONNECTED 0xA3 ({})",
                e.map(|e| ev_str(&e)).unwrap_or_default()
            ),
        );
    }
    take_ev(s[1], |e| e.conn == 0xB3 && e.kind == CM_DISCONNECTED);
    // SAFETY: ctx live.
    unsafe { (s[0].ops.disconnect)(s[0].ctx, 0xA3) };
    // Let the drains finish, then nothing may be left over.
    let end = Instant::now() + Duration::from_millis(500);
    pump_until(s, "quiet", |_| Instant::now() > end);
    for side in s.iter() {
        for w in &side.wcs {
            println!(
                "  note  {}: leftover completion {w:?} ({})",
                side.name,
                side.status(w.status)
            );
        }
        for e in &side.evs {
            println!("  note  {}: leftover event {}", side.name, ev_str(e));
        }
    }

    println!("== close");
    for side in s.iter() {
        // SAFETY: ctx live, closed once.
        unsafe { (side.ops.close)(side.ctx) };
    }
    check(true, "both contexts closed");
}

/// Every port `query` reports.
fn ports(ops: &Ops) -> Vec<PortInfo> {
    let mut n = 0usize;
    // SAFETY: count only.
    unsafe { (ops.query)(ptr::null_mut(), 0, &mut n) };
    // SAFETY: PortInfo is integers and byte arrays: all-zero is valid.
    let mut v = vec![unsafe { std::mem::zeroed::<PortInfo>() }; n];
    // SAFETY: room for n.
    unsafe { (ops.query)(v.as_mut_ptr(), n, &mut n) };
    v.truncate(n);
    v
}

/// How many protection domains of this process the kernel lists on `dev` (`rdma res show
/// pd`, iproute2), if the tool answers. librdmacm holds one of its own per device while any
/// rdma_cm id is bound to the device.
fn my_pds(dev: &str) -> Option<usize> {
    let out = std::process::Command::new("rdma")
        .args(["res", "show", "pd", "dev", dev])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let me = format!(" pid {} ", std::process::id());
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter(|l| format!("{l} ").contains(&me))
            .count(),
    )
}

/// Connect side `who` to its own listener: `ca` names the active end, `cb` the passive.
fn connect_self(s: &mut [&mut Side], who: usize, ca: u64, cb: u64) -> bool {
    let (name, to) = (s[who].name, s[who].listen());
    // SAFETY: ctx live.
    let r = unsafe { (s[who].ops.connect)(s[who].ctx, &to, ptr::null(), 0, ca) };
    if !check(
        r == 0,
        &format!(
            "{name}: connect {ca:#x} to its own listener {}:{} (got {r})",
            fmt_ip(&to.ip),
            to.port
        ),
    ) {
        return false;
    }
    let Some(req) = wait_ev(s, who, "CM_REQUEST", |e| e.kind != CM_NONE) else {
        return false;
    };
    if !check(
        req.kind == CM_REQUEST,
        &format!("{name}: CM_REQUEST ({})", ev_str(&req)),
    ) {
        return false;
    }
    // SAFETY: ctx live.
    let r = unsafe { (s[who].ops.accept)(s[who].ctx, req.conn, cb) };
    check(r == 0, &format!("{name}: accept -> {cb:#x} (got {r})"));
    let ea = wait_ev(s, who, "ESTABLISHED (active end)", |e| e.conn == ca);
    let eb = wait_ev(s, who, "ESTABLISHED (passive end)", |e| e.conn == cb);
    check(
        ea.is_some_and(|e| e.kind == CM_ESTABLISHED)
            && eb.is_some_and(|e| e.kind == CM_ESTABLISHED),
        &format!("{name}: ESTABLISHED {ca:#x} and {cb:#x}"),
    )
}

/// One signaled RDMA write or read on `s[who]`'s connection `cookie`, to or from `remote`
/// (address, rkey), waited for.
fn rdma(
    s: &mut [&mut Side],
    (who, cookie): (usize, u64),
    wr_id: u64,
    opcode: u32,
    local: Sge,
    remote: (u64, u32),
    what: &str,
) -> Option<Wc> {
    let mut d = desc(wr_id, opcode, FLAG_SIGNALED, &local);
    (d.remote_addr, d.rkey) = remote;
    let r = s[who].post(cookie, &d);
    if r != 0 {
        check(false, &format!("post {what} on {cookie:#x} (errno {r})"));
        return None;
    }
    wait_wc(s, who, what, |w| w.wr_id == wr_id)
}

/// `len` bytes at `off` of `m` reach pattern `seed` within 2 s (an RDMA write's target:
/// nothing completes there).
fn lands(m: &Region, off: usize, len: usize, seed: u8) -> bool {
    let end = Instant::now() + Duration::from_secs(2);
    while !expect_pattern(&m.read(off, len), seed) && Instant::now() < end {}
    expect_pattern(&m.read(off, len), seed)
}

/// `OpenParams::share_pd`: Q is opened in P's protection domain; on a connection from Q to
/// its own listener (both queue pairs Q's), RDMA writes and reads use P's lkey and rkey
/// (and Q's own region's), each queue pair once as requester and once as responder. R, in
/// a domain of its own, is the control: P's lkey does not work there.
fn t_shared_pd(ops: &'static Ops, dev: &str, info: &PortInfo, timeout: u8) {
    println!("== share_pd: a second context in the first one's protection domain");
    let pds0 = my_pds(dev);
    let mut p = Side::open("P", ops, dev, info.port, timeout, info);
    let pds1 = my_pds(dev);
    let mut q = Side::open_in("Q", ops, dev, info.port, timeout, info, p.ctx);
    let pds2 = my_pds(dev);
    let (lp, lq) = (p.listen(), q.listen());
    check(
        lq.ip == lp.ip && lq.port != lp.port && lq.port != 0,
        &format!(
            "Q (share_pd = P) is open: listens on {}:{}, P on {}:{}",
            fmt_ip(&lq.ip),
            lq.port,
            fmt_ip(&lp.ip),
            lp.port
        ),
    );
    match (pds0, pds1, pds2) {
        (Some(a), Some(b), Some(c)) => {
            check(
                b > a && c == b,
                &format!(
                    "kernel PDs of this process on {dev}: {a}, P opened {b} (P's and \
                     librdmacm's), Q opened {c} (none of its own)"
                ),
            );
        }
        _ => println!("  note  `rdma res show pd` does not answer: PD count not checked"),
    }
    // A context on another device cannot share P's domain.
    for o in ports(ops) {
        let odev = cname(&o.name);
        if odev == dev || o.active != 1 || o.ip == [0; 16] || o.ip == lp.ip {
            continue;
        }
        match open_ctx(ops, &odev, o.port, timeout, &o, p.ctx) {
            Ok(ctx) => {
                check(false, &format!("{odev} with share_pd = P ({dev}): refused"));
                // SAFETY: just opened, closed once.
                unsafe { (ops.close)(ctx) };
            }
            Err((r, msg)) => {
                check(
                    r == libc::EXDEV,
                    &format!("{odev} with share_pd = P ({dev}): EXDEV (got {r}: {msg})"),
                );
            }
        }
    }

    let pm = p.mem.unwrap();
    let qm = q.mem.unwrap();
    println!(
        "  P's region: lkey {:#x} rkey {:#x}; Q's region: lkey {:#x} rkey {:#x}",
        pm.mr.lkey, pm.mr.rkey, qm.mr.lkey, qm.mr.rkey
    );
    let s: &mut [&mut Side] = &mut [&mut p, &mut q];
    if !connect_self(s, 1, 0xC1, 0xC2) {
        die("Q cannot connect to itself");
    }
    let ok = |w: Option<Wc>, op: u32, len: u32| {
        w.is_some_and(|w| w.status == 0 && w.opcode == op && (op != WC_READ || w.byte_len == len))
    };
    // P's keys at both ends; the write on 0xC1 (0xC2 responds), the read on 0xC2.
    pm.fill(0, 8192, 21);
    let w = rdma(
        s,
        (1, 0xC1),
        1,
        OP_WRITE,
        pm.sge(0, 8192),
        pm.at(65536),
        "write",
    );
    check(
        ok(w, WC_WRITE, 0),
        &format!("Q 0xC1: write 8 KiB, local P lkey -> remote P rkey ({w:?})"),
    );
    check(
        lands(&pm, 65536, 8192, 21),
        "write: target bytes in P's region",
    );
    let w = rdma(
        s,
        (1, 0xC2),
        2,
        OP_READ,
        pm.sge(131072, 8192),
        pm.at(65536),
        "read",
    );
    check(
        ok(w, WC_READ, 8192),
        &format!("Q 0xC2: read 8 KiB, local P lkey <- remote P rkey ({w:?})"),
    );
    check(
        expect_pattern(&pm.read(131072, 8192), 21),
        "read: local bytes in P's region",
    );
    // Q's own region (registered through Q, in the same domain) mixed with P's.
    qm.fill(0, 4096, 22);
    let w = rdma(
        s,
        (1, 0xC2),
        3,
        OP_WRITE,
        qm.sge(0, 4096),
        pm.at(200000),
        "write",
    );
    check(
        ok(w, WC_WRITE, 0),
        &format!("Q 0xC2: write 4 KiB, local Q lkey -> remote P rkey ({w:?})"),
    );
    check(
        lands(&pm, 200000, 4096, 22),
        "write: target bytes in P's region",
    );
    let w = rdma(
        s,
        (1, 0xC1),
        4,
        OP_READ,
        pm.sge(300000, 4096),
        qm.at(0),
        "read",
    );
    check(
        ok(w, WC_READ, 4096),
        &format!("Q 0xC1: read 4 KiB, local P lkey <- remote Q rkey ({w:?})"),
    );
    check(
        expect_pattern(&pm.read(300000, 4096), 22),
        "read: local bytes in P's region",
    );

    // The control: a context with its own domain refuses P's lkey.
    let mut r = Side::open("R", ops, dev, info.port, timeout, info);
    if let Some(n) = my_pds(dev) {
        check(
            pds2.is_some_and(|c| n == c + 1),
            &format!("R (no share_pd) has a PD of its own: {n} PDs"),
        );
    }
    let rm = r.mem.unwrap();
    let sr: &mut [&mut Side] = &mut [&mut r];
    if connect_self(sr, 0, 0xD1, 0xD2) {
        rm.fill(0, 4096, 27);
        let w = rdma(
            sr,
            (0, 0xD1),
            8,
            OP_WRITE,
            rm.sge(0, 4096),
            rm.at(8192),
            "write",
        );
        check(
            w.is_some_and(|w| w.status == 0) && lands(&rm, 8192, 4096, 27),
            &format!("R 0xD1: write with R's own keys ({w:?})"),
        );
        pm.fill(0, 4096, 24);
        rm.fill(0, 4096, 25);
        let mut d = desc(5, OP_WRITE, FLAG_SIGNALED, &pm.sge(0, 4096));
        d.remote_addr = rm.addr(0);
        d.rkey = rm.mr.rkey;
        let e = sr[0].post(0xD1, &d);
        if e != 0 {
            check(
                true,
                &format!("R: write with P's lkey refused at post (errno {e})"),
            );
        } else if let Some(w) = wait_wc(sr, 0, "control write", |w| w.wr_id == 5) {
            let st = sr[0].status(w.status);
            check(
                w.status != 0,
                &format!(
                    "R (own PD): write with P's lkey fails: status {} ({st})",
                    w.status
                ),
            );
        }
        check(lands(&rm, 0, 4096, 25), "R: nothing written at the target");
    }
    // SAFETY: ctx live, closed once.
    unsafe { (ops.close)(sr[0].ctx) };

    // The owner closed first (against the rule, but tolerated): Q's domain stays.
    // SAFETY: ctx live, closed once; nothing of P is used after this.
    unsafe { (ops.close)(s[0].ctx) };
    check(true, "P (the owner) closed before Q");
    if let (Some(n), Some(c)) = (my_pds(dev), pds2) {
        check(
            n == c,
            &format!("the shared PD stays while Q uses it: {n} PDs"),
        );
    }
    let s: &mut [&mut Side] = &mut [s[1]];
    let extra = s[0].region(65536, ACCESS_REMOTE_READ | ACCESS_REMOTE_WRITE);
    check(
        true,
        &format!("Q: reg_mr after P's close (lkey {:#x})", extra.mr.lkey),
    );
    qm.fill(0, 4096, 26);
    let w = rdma(
        s,
        (0, 0xC1),
        6,
        OP_WRITE,
        qm.sge(0, 4096),
        extra.at(0),
        "write",
    );
    check(
        ok(w, WC_WRITE, 0),
        &format!("Q 0xC1 after P's close: write 4 KiB ({w:?})"),
    );
    check(lands(&extra, 0, 4096, 26), "write: target bytes");
    let w = rdma(
        s,
        (0, 0xC2),
        7,
        OP_READ,
        qm.sge(8192, 4096),
        extra.at(0),
        "read",
    );
    check(
        ok(w, WC_READ, 4096),
        &format!("Q 0xC2 after P's close: read 4 KiB ({w:?})"),
    );
    check(
        expect_pattern(&qm.read(8192, 4096), 26),
        "read: local bytes",
    );
    // SAFETY: ctx live.
    unsafe { (s[0].ops.disconnect)(s[0].ctx, 0xC1) };
    let end = Instant::now() + Duration::from_millis(300);
    pump_until(s, "quiet", |_| Instant::now() > end);
    // SAFETY: ctx live, closed once.
    unsafe { (ops.close)(s[0].ctx) };
    check(true, "Q closed");
    if let (Some(n), Some(a)) = (my_pds(dev), pds0) {
        check(
            n == a,
            &format!("every PD of the test deallocated: {n} PDs"),
        );
    }
}

/// Two processes: the server is passive (it checks what arrives), the client drives.
fn two_process(
    ops: &'static Ops,
    dev: &str,
    info: &PortInfo,
    timeout: u8,
    atomics: bool,
    server: bool,
) {
    let shared = std::env::var("SOFTROCE_SHARED").unwrap_or_else(|_| ".".into());
    let file = format!("{shared}/selftest.addr");
    let mut me = Side::open(
        if server { "server" } else { "client" },
        ops,
        dev,
        info.port,
        timeout,
        info,
    );
    // iWARP has no immediate data: plain sends carry the notifications there.
    let imm = info.transport != TRANSPORT_IWARP;
    let s: &mut [&mut Side] = &mut [&mut me];
    if server {
        let _ = std::fs::remove_file(&file);
        let l = s[0].listen();
        let m = s[0].mem.as_ref().unwrap();
        m.write_u64(1024, 40);
        let line = format!("{} {} {} {}\n", fmt_ip(&l.ip), l.port, m.addr(0), m.mr.rkey);
        std::fs::write(format!("{file}.tmp"), &line).unwrap();
        std::fs::rename(format!("{file}.tmp"), &file).unwrap();
        println!("  server listens on {}:{}", fmt_ip(&l.ip), l.port);
        let Some(req) = wait_ev(s, 0, "CM_REQUEST", |e| e.kind == CM_REQUEST) else {
            return;
        };
        check(
            req.data[..req.data_len as usize].starts_with(b"hello server"),
            "request private data",
        );
        // SAFETY: ctx live.
        check(
            unsafe { (s[0].ops.accept)(s[0].ctx, req.conn, 0xB1) } == 0,
            "accept",
        );
        let e = wait_ev(s, 0, "ESTABLISHED", |e| e.conn == 0xB1);
        check(
            e.is_some_and(|e| e.kind == CM_ESTABLISHED),
            "server: ESTABLISHED",
        );
        if let Some(w) = wait_wc(s, 0, "send", |w| w.opcode == WC_RECV) {
            let i = (w.wr_id - 1000) as usize;
            let imm_ok = if imm {
                w.has_imm == 1 && w.imm == 0xdead_beef
            } else {
                w.has_imm == 0
            };
            check(
                w.status == 0 && w.byte_len == 1000 && imm_ok && w.conn == 0xB1,
                &format!("server: WC_RECV 1000 B ({w:?})"),
            );
            s[0].post_recv(s[0].recv.as_ref().unwrap(), i);
            check(
                expect_pattern(&s[0].recv.as_ref().unwrap().read(i * RECV_SIZE, 1000), 7),
                "send: payload byte-for-byte",
            );
        }
        let want = if imm { WC_RECV_WRITE_IMM } else { WC_RECV };
        if let Some(w) = wait_wc(s, 0, "write notification", |w| w.opcode == want) {
            let what = if imm {
                "WC_RECV_WRITE_IMM imm 2"
            } else {
                "WC_RECV (write notification)"
            };
            check(
                w.status == 0 && (!imm || w.imm == 2) && w.conn == 0xB1,
                &format!("server: {what} ({w:?})"),
            );
            let m = s[0].mem.as_ref().unwrap();
            check(
                expect_pattern(&m.read(65536, 65536), 3),
                "write (64 KiB): target bytes",
            );
            check(
                expect_pattern(&m.read(200000, 300), 5),
                "write-with-imm: target bytes",
            );
        }
        // The client reads and does atomics on our memory, then says "done" with a send.
        if let Some(w) = wait_wc(s, 0, "done", |w| w.opcode == WC_RECV) {
            check(
                w.status == 0 && (!imm || w.imm == 3) && w.byte_len == 4,
                "server: the client's done message",
            );
            if atomics {
                let v = s[0].mem.as_ref().unwrap().read_u64(1024);
                check(
                    v == 7,
                    &format!("atomics: remote value 40 +2 -> cas(42,7) -> 7 (got {v})"),
                );
            }
        }
        let e = wait_ev(s, 0, "DISCONNECTED", |e| e.conn == 0xB1);
        check(
            e.is_some_and(|e| e.kind == CM_DISCONNECTED),
            "server: CM_DISCONNECTED when the client disconnects",
        );
        // SAFETY: ctx live.
        unsafe { (s[0].ops.disconnect)(s[0].ctx, 0xB1) };
    } else {
        let end = Instant::now() + DEADLINE;
        let line = loop {
            if let Ok(l) = std::fs::read_to_string(&file) {
                break l;
            }
            if Instant::now() > end {
                die("no server address");
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let f: Vec<&str> = line.split_whitespace().collect();
        let to = Addr {
            ip: parse_ip(f[0]),
            port: f[1].parse().unwrap(),
            _pad: [0; 6],
        };
        let (raddr, rkey): (u64, u32) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        let data = b"hello server";
        // SAFETY: ctx live.
        let r = unsafe { (s[0].ops.connect)(s[0].ctx, &to, data.as_ptr(), data.len(), 0xA1) };
        check(r == 0, &format!("connect to {}:{}", f[0], f[1]));
        let e = wait_ev(s, 0, "ESTABLISHED", |e| e.conn == 0xA1);
        if !check(
            e.is_some_and(|e| e.kind == CM_ESTABLISHED),
            &format!(
                "client: ESTABLISHED ({})",
                e.map(|e| ev_str(&e)).unwrap_or_default()
            ),
        ) {
            return;
        }
        let m = s[0].mem.as_ref().unwrap();
        let op = |s: &mut [&mut Side], id: u64, mut d: Desc, what: &str, wc: u32| {
            d.wr_id = id;
            d.flags |= FLAG_SIGNALED;
            check(s[0].post(0xA1, &d) == 0, &format!("post {what}"));
            let w = wait_wc(s, 0, what, |w| w.wr_id == id);
            check(
                w.is_some_and(|w| w.status == 0 && w.opcode == wc && w.conn == 0xA1),
                &format!("client: {what} completes ({w:?})"),
            );
        };
        m.fill(0, 1000, 7);
        let sge = m.sge(0, 1000);
        let mut d = desc(0, if imm { OP_SEND_IMM } else { OP_SEND }, 0, &sge);
        d.imm = 0xdead_beef;
        op(s, 1, d, "send", WC_SEND);
        let m = s[0].mem.as_ref().unwrap();
        m.fill(65536, 65536, 3);
        let sge = m.sge(65536, 65536);
        let mut d = desc(0, OP_WRITE, 0, &sge);
        d.remote_addr = raddr + 65536;
        d.rkey = rkey;
        op(s, 2, d, "write 64 KiB", WC_WRITE);
        let m = s[0].mem.as_ref().unwrap();
        m.fill(5000, 300, 5);
        let sge = m.sge(5000, 300);
        let mut d = desc(0, if imm { OP_WRITE_IMM } else { OP_WRITE }, 0, &sge);
        d.remote_addr = raddr + 200000;
        d.rkey = rkey;
        d.imm = 2;
        op(
            s,
            3,
            d,
            if imm { "write with imm" } else { "write 300 B" },
            WC_WRITE,
        );
        if !imm {
            let sge = s[0].mem.as_ref().unwrap().sge(0, 4);
            op(
                s,
                8,
                desc(0, OP_SEND, 0, &sge),
                "write notification",
                WC_SEND,
            );
        }
        let m = s[0].mem.as_ref().unwrap();
        let sge = m.sge(300000, 65536);
        let mut d = desc(0, OP_READ, 0, &sge);
        d.remote_addr = raddr + 65536;
        d.rkey = rkey;
        op(s, 4, d, "read 64 KiB", WC_READ);
        check(
            expect_pattern(&s[0].mem.as_ref().unwrap().read(300000, 65536), 3),
            "read: local bytes",
        );
        if atomics {
            let m = s[0].mem.as_ref().unwrap();
            let sge = m.sge(512, 8);
            let mut d = desc(0, OP_FETCH_ADD, 0, &sge);
            d.remote_addr = raddr + 1024;
            d.rkey = rkey;
            d.compare_add = 2;
            op(s, 5, d, "fetch-and-add", WC_ATOMIC);
            let old = s[0].mem.as_ref().unwrap().read_u64(512);
            check(old == 40, &format!("fetch-add old value 40 (got {old})"));
            d.opcode = OP_CMP_SWAP;
            d.compare_add = 42;
            d.swap = 7;
            op(s, 6, d, "compare-and-swap", WC_ATOMIC);
            let old = s[0].mem.as_ref().unwrap().read_u64(512);
            check(old == 42, &format!("cas old value 42 (got {old})"));
        }
        let m = s[0].mem.as_ref().unwrap();
        let sge = m.sge(0, 4);
        let mut d = desc(0, if imm { OP_SEND_IMM } else { OP_SEND }, 0, &sge);
        d.imm = 3;
        op(s, 7, d, "done message", WC_SEND);
        // Give the server a moment to read its memory before the connection goes.
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: ctx live.
        check(
            unsafe { (s[0].ops.disconnect)(s[0].ctx, 0xA1) } == 0,
            "client disconnects",
        );
        let end = Instant::now() + Duration::from_millis(500);
        pump_until(s, "quiet", |_| Instant::now() > end);
    }
    // SAFETY: ctx live, closed once.
    unsafe { (s[0].ops.close)(s[0].ctx) };
    check(true, "context closed");
}
