//! The tcp rail over loopback, two ranks in this process (each rail with its own progress
//! thread), plus raw clients that break the protocol's rules.

use super::auth::{self, Challenge, Hello, Role, Transcript, VERSION};
use super::wire::{Header, Kind, Refusal, FLAG_LAST, HEADER};
use super::*;
use crate::fabric::memory::{Mode, PageRange};
use crate::fabric::{Bootstrap, KeyError, MemKey, RemoteKeys};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A launcher's key-value space for threads of one process.
struct Boot {
    rank: usize,
    size: usize,
    kv: Arc<Mutex<HashMap<String, String>>>,
    barrier: Arc<std::sync::Barrier>,
}

impl Bootstrap for Boot {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.size
    }
    fn put(&self, key: &str, value: &str) -> Result<(), String> {
        self.kv.lock().insert(key.into(), value.into());
        Ok(())
    }
    fn get(&self, key: &str) -> Result<String, String> {
        self.kv.lock().get(key).cloned().ok_or(key.to_string())
    }
    fn barrier(&self) -> Result<(), String> {
        self.barrier.wait();
        Ok(())
    }
}

struct Pair {
    rails: Vec<TcpRail>,
    domains: Vec<Arc<ShmDomain>>,
    secret: Secret,
}

fn pair_with(connect: Connect) -> Pair {
    let secret: Secret = auth::random();
    let kv = Arc::new(Mutex::new(HashMap::new()));
    let barrier = Arc::new(std::sync::Barrier::new(2));
    let domains: Vec<Arc<ShmDomain>> = (0..2).map(|_| Arc::new(ShmDomain::private())).collect();
    let threads: Vec<_> = (0..2)
        .map(|rank| {
            let boot = Boot {
                rank,
                size: 2,
                kv: kv.clone(),
                barrier: barrier.clone(),
            };
            let domain = domains[rank].clone();
            std::thread::spawn(move || {
                let settings = TcpSettings {
                    connect,
                    ifaces: vec!["127.0.0.0/8".into()],
                    conns_per_iface: 1,
                    timeout_ms: 30_000,
                    failover_timeout_ms: 5_000,
                    eager_limit: 131072,
                };
                let ctx = TcpContext {
                    me: rank,
                    hosts: vec!["a".into(), "b".into()],
                    secret,
                    domain,
                    wait: Doorbell::local(),
                    service_bell: Doorbell::local(),
                    connect,
                    timeout_ms: settings.timeout_ms,
                    failover_timeout_ms: settings.failover_timeout_ms,
                    eager_limit: settings.eager_limit,
                    survive_loss: false,
                };
                TcpRail::establish(&settings, &boot, &ctx).unwrap()
            })
        })
        .collect();
    Pair {
        rails: threads.into_iter().map(|t| t.join().unwrap()).collect(),
        domains,
        secret,
    }
}

impl Drop for Pair {
    /// Close both ends at once, as ranks leaving a job do (each waits for the other's
    /// goodbye).
    fn drop(&mut self) {
        std::thread::scope(|s| {
            for r in &mut self.rails {
                s.spawn(|| r.close());
            }
        });
    }
}

fn pair() -> Pair {
    pair_with(Connect::Lazy)
}

/// Poll `rail` until `want` events came (10 s at most).
/// Messages as (peer, immediate, bytes), and completions.
type Collected = (Vec<(usize, u32, Vec<u8>)>, Vec<Completion>);

fn collect(rail: &mut TcpRail, want: usize) -> Collected {
    let (mut msgs, mut done) = (Vec::new(), Vec::new());
    let deadline = Instant::now() + Duration::from_secs(10);
    while msgs.len() + done.len() < want {
        assert!(Instant::now() < deadline, "timed out");
        rail.poll(&mut |ev| match ev {
            RailEvent::Message { peer, imm, bytes } => msgs.push((peer, imm, bytes.to_vec())),
            RailEvent::Completion(c) => done.push(c),
            RailEvent::Lost { peer, why, .. } => panic!("link to {peer} lost: {why}"),
            RailEvent::Notified { peer, .. } => panic!("a notice from {peer} over tcp"),
        });
        std::thread::yield_now();
    }
    (msgs, done)
}

/// A page-aligned buffer of `pages` pages, and its address.
fn pages(pages: usize) -> (Vec<u8>, usize) {
    let page = crate::sys::vmem::page_size();
    let v = vec![0u8; (pages + 1) * page];
    let base = (v.as_ptr() as usize).div_ceil(page) * page;
    (v, base)
}

fn span(addr: usize, len: usize) -> Span {
    Span {
        addr: addr as u64,
        len: len as u64,
    }
}

#[test]
fn messages_arrive_in_order_both_ways() {
    let mut p = pair();
    for i in 0..100u32 {
        assert!(p.rails[0].try_send(1, i, &[&i.to_le_bytes(), &[7; 100]]));
    }
    let big = vec![3u8; MAX_MESSAGE];
    assert!(p.rails[1].try_send(0, 9, &[&big]));
    let (m1, _) = collect(&mut p.rails[1], 100);
    for (i, (peer, imm, bytes)) in m1.iter().enumerate() {
        assert_eq!((*peer, *imm), (0, i as u32));
        assert_eq!(&bytes[..4], &(i as u32).to_le_bytes());
        assert_eq!(bytes.len(), 104);
    }
    let (m0, _) = collect(&mut p.rails[0], 1);
    assert_eq!(m0[0].1, 9);
    assert_eq!(m0[0].2, big);
}

#[test]
fn eager_mode_connects_at_start() {
    let p = pair_with(Connect::Eager);
    for r in &p.rails {
        let other = 1 - r.shared.me;
        assert_eq!(r.shared.links[other].lock().state, LinkState::Up);
    }
}

#[test]
fn tagged_writes_reads_and_atomics_check_the_key() {
    let mut p = pair();
    let page = crate::sys::vmem::page_size();
    // Three pages at the target (rank 1), the middle one registered.
    let (_t, base) = pages(3);
    let reg = base + page;
    let key = p.domains[1]
        .register(PageRange::new(reg, reg + page), Mode::Odp)
        .unwrap()
        .remote;
    // A write of more than a segment, gathered from two local runs.
    let src: Vec<u8> = (0..page).map(|i| (i % 251) as u8).collect();
    let local = [
        span(src.as_ptr() as usize, 1000),
        span(src.as_ptr() as usize + 1000, page - 1000),
    ];
    unsafe {
        p.rails[0].post(&Transfer::new(
            RdmaOp::Write,
            1,
            &local,
            &[span(reg, page)],
            &RemoteKeys::all(key),
            1,
        ))
    }
    .unwrap();
    let (_, done) = collect(&mut p.rails[0], 1);
    assert_eq!(done[0].token, 1);
    assert!(done[0].result.is_ok(), "{:?}", done[0].result);
    let placed = unsafe { std::slice::from_raw_parts(reg as *const u8, page) };
    assert_eq!(placed, &src[..]);
    // Read it back into two runs.
    let mut back = vec![0u8; page];
    let b = back.as_mut_ptr() as usize;
    unsafe {
        p.rails[0].post(&Transfer::new(
            RdmaOp::Read,
            1,
            &[span(b, 10), span(b + 10, page - 10)],
            &[span(reg, page)],
            &RemoteKeys::all(key),
            2,
        ))
    }
    .unwrap();
    let (_, done) = collect(&mut p.rails[0], 1);
    assert!(done[0].result.is_ok());
    assert_eq!(back, src);
    // Refusals: a forged key, bytes past the registration, and each moves nothing.
    let junk = [0xeeu8; 64];
    let j = [span(junk.as_ptr() as usize, 64)];
    let forged = RemoteKey(key.0 | (1 << 60));
    unsafe {
        p.rails[0].post(&Transfer::new(
            RdmaOp::Write,
            1,
            &j,
            &[span(reg, 64)],
            &RemoteKeys::all(forged),
            3,
        ))
    }
    .unwrap();
    unsafe {
        p.rails[0].post(&Transfer::new(
            RdmaOp::Write,
            1,
            &j,
            &[span(reg + page - 32, 64)],
            &RemoteKeys::all(key),
            4,
        ))
    }
    .unwrap();
    unsafe {
        p.rails[0].post(&Transfer::new(
            RdmaOp::Write,
            1,
            &j,
            &[span(base, 64)],
            &RemoteKeys::all(key),
            5,
        ))
    }
    .unwrap();
    let (_, mut done) = collect(&mut p.rails[0], 3);
    done.sort_by_key(|c| c.token);
    assert!(matches!(
        done[0].result,
        Err(RailError::Key(KeyError::Unknown))
    ));
    assert!(matches!(
        done[1].result,
        Err(RailError::Key(KeyError::OutOfRange))
    ));
    assert!(matches!(
        done[2].result,
        Err(RailError::Key(KeyError::OutOfRange))
    ));
    assert_eq!(placed, &src[..], "nothing written");
    let below = unsafe { std::slice::from_raw_parts(base as *const u8, page) };
    assert!(below.iter().all(|&b| b == 0));
    // Atomics on the first word: fetch-add, then a compare-and-swap that fails and one
    // that succeeds.
    let word = reg as *mut u64;
    unsafe { word.write(40) };
    p.rails[0]
        .post_atomic(1, AtomicOp::FetchAdd(2), reg as u64, key, 6)
        .unwrap();
    let (_, done) = collect(&mut p.rails[0], 1);
    assert_eq!(done[0].result.as_ref().unwrap(), &40);
    for (i, (cmp, swap, old)) in [(1, 5, 42), (42, 7, 42)].into_iter().enumerate() {
        p.rails[0]
            .post_atomic(
                1,
                AtomicOp::CompareSwap { compare: cmp, swap },
                reg as u64,
                key,
                7 + i as u64,
            )
            .unwrap();
        let (_, done) = collect(&mut p.rails[0], 1);
        assert_eq!(done[0].result.as_ref().unwrap(), &old);
    }
    assert_eq!(unsafe { word.read() }, 7);
    // A misaligned word is refused.
    p.rails[0]
        .post_atomic(1, AtomicOp::FetchAdd(1), reg as u64 + 4, key, 9)
        .unwrap();
    let (_, done) = collect(&mut p.rails[0], 1);
    assert!(done[0].result.is_err());
    // After deregistration the key is stale.
    p.domains[1].deregister(
        MemKey {
            local: 0,
            remote: key,
        },
        &[],
    );
    unsafe {
        p.rails[0].post(&Transfer::new(
            RdmaOp::Read,
            1,
            &j,
            &[span(reg, 64)],
            &RemoteKeys::all(key),
            10,
        ))
    }
    .unwrap();
    let (_, done) = collect(&mut p.rails[0], 1);
    assert!(matches!(
        done[0].result,
        Err(RailError::Key(KeyError::Stale))
    ));
}

/// A raw client: connect to rank `to`'s listener and send a Hello as rank `as_rank`.
fn raw_hello(p: &Pair, to: usize, as_rank: u32) -> (TcpStream, Hello, Challenge) {
    let mut st = TcpStream::connect(p.rails[to].shared.addrs[to]).unwrap();
    st.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let hello = Hello {
        version: VERSION,
        rank: as_rank,
        nonce: auth::random(),
    };
    send(&mut st, Header::new(Kind::Hello), &hello.encode());
    let (h, payload) = recv(&mut st).expect("a challenge");
    assert_eq!(h.kind, Kind::Challenge);
    (st, hello, Challenge::decode(&payload).unwrap())
}

fn send(st: &mut TcpStream, mut h: Header, payload: &[u8]) {
    h.len = payload.len() as u32;
    st.write_all(&h.encode()).unwrap();
    st.write_all(payload).unwrap();
}

/// The next frame, or None when the connection ends.
fn recv(st: &mut TcpStream) -> Option<(Header, Vec<u8>)> {
    let mut head = [0u8; HEADER];
    st.read_exact(&mut head).ok()?;
    let h = Header::decode(&head).unwrap();
    let mut payload = vec![0u8; h.len as usize];
    st.read_exact(&mut payload).ok()?;
    Some((h, payload))
}

#[test]
fn a_connection_without_the_secret_is_refused() {
    let mut p = pair();
    // Rank 1's place taken by a client that does not know the secret: its proof fails
    // and the connection is closed; nothing it sends afterwards is delivered.
    let (mut st, hello, ch) = raw_hello(&p, 0, 1);
    let wrong: Secret = auth::random();
    let t = Transcript {
        connector: 1,
        acceptor: 0,
        connector_nonce: hello.nonce,
        acceptor_nonce: ch.nonce,
    };
    send(
        &mut st,
        Header::new(Kind::Proof),
        &t.prove(&wrong, Role::Connector),
    );
    let mut m = Header::new(Kind::Msg);
    m.arg = 5;
    let _ = st.write_all(&{
        m.len = 3;
        m.encode()
    });
    let _ = st.write_all(b"bad");
    assert!(recv(&mut st).is_none(), "closed");
    // The challenge proved the acceptor knows the secret (and only with it).
    assert!(t.verify(&p.secret, Role::Acceptor, &ch.mac));
    assert!(!t.verify(&wrong, Role::Acceptor, &ch.mac));
    // The real rank 1 still gets through.
    assert!(p.rails[1].try_send(0, 1, &[b"real"]));
    let (msgs, _) = collect(&mut p.rails[0], 1);
    assert_eq!(msgs, vec![(1, 1, b"real".to_vec())]);
}

#[test]
fn a_forged_tagged_write_is_refused_and_writes_nothing() {
    let p = pair();
    let page = crate::sys::vmem::page_size();
    let (_t, base) = pages(1);
    let key = p.domains[0]
        .register(PageRange::new(base, base + page), Mode::Odp)
        .unwrap()
        .remote;
    // A client with the secret (a peer gone bad) writes under a forged key, then past the
    // registration, then reads past it: each is answered with a refusal.
    let (mut st, hello, ch) = raw_hello(&p, 0, 1);
    let t = Transcript {
        connector: 1,
        acceptor: 0,
        connector_nonce: hello.nonce,
        acceptor_nonce: ch.nonce,
    };
    send(
        &mut st,
        Header::new(Kind::Proof),
        &t.prove(&p.secret, Role::Connector),
    );
    let (h, _) = recv(&mut st).expect("a welcome");
    assert_eq!(h.kind, Kind::Welcome, "the acceptor keeps the connection");
    let cases = [
        (Kind::Write, key.0 + 2, base as u64, 16u64, Refusal::Stale),
        (Kind::Write, 77 << 40, base as u64, 16, Refusal::Unknown),
        (
            Kind::Write,
            key.0,
            (base + page - 8) as u64,
            16,
            Refusal::Range,
        ),
        (Kind::Write, key.0, u64::MAX - 4, 16, Refusal::Range),
        (
            Kind::ReadReq,
            key.0,
            (base + page - 8) as u64,
            16,
            Refusal::Range,
        ),
        (Kind::Atomic, key.0, (base + 4) as u64, 0, Refusal::Bad),
    ];
    for (i, &(kind, k, addr, n, _)) in cases.iter().enumerate() {
        let mut h = Header::new(kind);
        h.flags = FLAG_LAST;
        h.op = i as u64 + 1;
        h.key = k;
        h.addr = addr;
        if kind == Kind::ReadReq {
            h.arg = n;
            send(&mut st, h, &[]);
        } else if kind == Kind::Atomic {
            send(&mut st, h, &[]);
        } else {
            send(&mut st, h, &vec![0xab; n as usize]);
        }
    }
    for (i, &(_, _, _, _, why)) in cases.iter().enumerate() {
        let (h, _) = recv(&mut st).expect("an answer");
        assert_eq!((h.kind, h.op), (Kind::Nak, i as u64 + 1));
        assert_eq!(Refusal::from_u64(h.arg), why, "case {i}");
    }
    let mem = unsafe { std::slice::from_raw_parts(base as *const u8, page) };
    assert!(mem.iter().all(|&b| b == 0), "nothing written");
    // Leave as a rank does (a close without goodbye would be a peer's death: fatal).
    send(&mut st, Header::new(Kind::Bye), &[]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !p.rails[0].shared.links[1].lock().out.is_empty() || !bye_seen(&p) {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Whether rank 0's progress thread has taken rank 1's goodbye (its link stays up, and
/// a later close of the socket is expected).
fn bye_seen(p: &Pair) -> bool {
    p.rails[0].shared.bye_from(1)
}

#[test]
fn many_large_transfers_in_flight_complete() {
    let mut p = pair();
    let page = crate::sys::vmem::page_size();
    let n = 64;
    let len = 128 * 1024;
    let (_t, base) = pages(n * len / page);
    let key = p.domains[1]
        .register(PageRange::new(base, base + n * len), Mode::Odp)
        .unwrap()
        .remote;
    let src: Vec<u8> = (0..n * len).map(|i| (i % 253) as u8).collect();
    unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), base as *mut u8, n * len) };
    let mut back = vec![0u8; n * len];
    for i in 0..n {
        let l = [span(back.as_mut_ptr() as usize + i * len, len)];
        unsafe {
            p.rails[0].post(&Transfer::new(
                RdmaOp::Read,
                1,
                &l,
                &[span(base + i * len, len)],
                &RemoteKeys::all(key),
                i as u64,
            ))
        }
        .unwrap();
    }
    let (_, done) = collect(&mut p.rails[0], n);
    assert!(done.iter().all(|c| c.result.is_ok()));
    assert!(back == src);
    // And writes the other way at the same time as messages.
    let key0 = p.domains[0]
        .register(
            PageRange::new(
                back.as_ptr() as usize / page * page + page,
                (back.as_ptr() as usize / page + (n * len / page)) * page,
            ),
            Mode::Odp,
        )
        .unwrap()
        .remote;
    let dst = (back.as_ptr() as usize / page + 1) * page;
    let m = (n * len / page - 1) * page / len;
    for i in 0..m {
        let l = [span(base + i * len, len)];
        unsafe {
            p.rails[1].post(&Transfer::new(
                RdmaOp::Write,
                0,
                &l,
                &[span(dst + i * len, len)],
                &RemoteKeys::all(key0),
                i as u64,
            ))
        }
        .unwrap();
        assert!(p.rails[1].try_send(0, i as u32, &[b"x"]));
    }
    let (msgs, done) = collect(&mut p.rails[1], m);
    assert_eq!(msgs.len(), 0);
    assert!(done.iter().all(|c| c.result.is_ok()));
    let (msgs, _) = collect(&mut p.rails[0], m);
    assert_eq!(msgs.len(), m);
}

/// The rail's progress engine, taken from its thread as the rank takes it: a poll counted
/// (the thread then naps between turns) and its wait woken.
fn engine(r: &TcpRail) -> parking_lot::MutexGuard<'_, progress::Progress> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        r.shared.rank_polls.fetch_add(1, Ordering::AcqRel);
        let _ = r.shared.poller.notify();
        if let Some(g) = r.engine.try_lock_for(Duration::from_millis(10)) {
            return g;
        }
        assert!(
            Instant::now() < deadline,
            "the progress thread keeps its engine"
        );
    }
}

/// Connections up, and accepted ones awaiting their proof.
fn counts(r: &TcpRail) -> (usize, usize) {
    engine(r).counts()
}

/// Strangers claiming each rank to the other (a Hello, no proof, held open) before the
/// first message: the ranks connect as fast as without them (they used to wait for the
/// strangers' handshakes to time out, 10 s).
#[test]
fn a_stranger_claiming_a_rank_delays_nothing() {
    let mut p = pair();
    let _a = raw_hello(&p, 1, 0);
    let _b = raw_hello(&p, 0, 1);
    let t0 = Instant::now();
    assert!(p.rails[1].try_send(0, 1, &[b"first"]));
    let (msgs, _) = collect(&mut p.rails[0], 1);
    assert_eq!(msgs, vec![(1, 1, b"first".to_vec())]);
    assert!(p.rails[0].try_send(1, 2, &[b"back"]));
    let (msgs, _) = collect(&mut p.rails[1], 1);
    assert_eq!(msgs, vec![(0, 2, b"back".to_vec())]);
    assert!(
        t0.elapsed() < Duration::from_secs(2),
        "took {:?}",
        t0.elapsed()
    );
}

/// Both ranks dial at once, many times: each pair ends with one connection up at each end
/// (the lower rank's dial) and no handshake left over, and every message arrives.
#[test]
fn simultaneous_connects_settle_on_one_connection() {
    for round in 0..5u32 {
        let mut p = pair();
        std::thread::scope(|s| {
            let (a, b) = p.rails.split_at_mut(1);
            s.spawn(|| assert!(a[0].try_send(1, round, &[b"from 0"])));
            s.spawn(|| assert!(b[0].try_send(0, round, &[b"from 1"])));
        });
        let (m0, _) = collect(&mut p.rails[0], 1);
        let (m1, _) = collect(&mut p.rails[1], 1);
        assert_eq!(m0, vec![(1, round, b"from 1".to_vec())]);
        assert_eq!(m1, vec![(0, round, b"from 0".to_vec())]);
        let deadline = Instant::now() + Duration::from_secs(5);
        while p.rails.iter().any(|r| counts(r) != (1, 0)) {
            assert!(
                Instant::now() < deadline,
                "round {round}: connections left over"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// A hundred connections that never speak: rank 0 keeps at most its cap of them (the
/// oldest go), and the ranks still connect both ways at once.
#[test]
fn strangers_holding_connections_are_bounded() {
    let mut p = pair();
    let to = p.rails[0].shared.addrs[0];
    let held: Vec<TcpStream> = (0..100)
        .filter_map(|_| TcpStream::connect(to).ok())
        .collect();
    let cap = engine(&p.rails[0]).pending_cap();
    assert!(held.len() > cap);
    std::thread::sleep(Duration::from_millis(300));
    let (_, pending) = counts(&p.rails[0]);
    assert!(pending <= cap, "{pending} pending, cap {cap}");
    let t0 = Instant::now();
    assert!(p.rails[1].try_send(0, 3, &[b"through"]));
    let (msgs, _) = collect(&mut p.rails[0], 1);
    assert_eq!(msgs, vec![(1, 3, b"through".to_vec())]);
    assert!(
        t0.elapsed() < Duration::from_secs(2),
        "took {:?}",
        t0.elapsed()
    );
}

/// A Hello for a rank that is connected (a replay) gets a challenge it cannot answer; a
/// wrong proof closes it, and the real link carries on.
#[test]
fn a_replayed_hello_for_a_connected_rank_changes_nothing() {
    let mut p = pair();
    assert!(p.rails[1].try_send(0, 1, &[b"up"]));
    collect(&mut p.rails[0], 1);
    let (mut st, _, _) = raw_hello(&p, 0, 1);
    send(&mut st, Header::new(Kind::Proof), &[7u8; 32]);
    assert!(recv(&mut st).is_none(), "closed");
    assert!(p.rails[1].try_send(0, 2, &[b"still"]));
    let (msgs, _) = collect(&mut p.rails[0], 1);
    assert_eq!(msgs, vec![(1, 2, b"still".to_vec())]);
}

/// A link that stopped answering (TCP_USER_TIMEOUT: ETIMEDOUT) is reported as unreachable,
/// naming the link and the timeout; a reset connection as closed.
#[test]
fn a_silent_link_is_unreachable_not_gone() {
    let (local, remote) = ("10.0.0.1:5".parse().ok(), "10.0.0.2:6".parse().unwrap());
    let timed_out = std::io::Error::from_raw_os_error(libc::ETIMEDOUT);
    let l = Loss::from_error(&timed_out, local, remote, (2000, TIMEOUT_KNOB));
    assert!(
        l.to_string().starts_with(
            "unreachable over 10.0.0.1:5 -> 10.0.0.2:6 (no answer for 2 s: RAILMPI_TCP_TIMEOUT"
        ),
        "{l}"
    );
    let l = Loss::from_error(&timed_out, local, remote, (1500, FAILOVER_KNOB));
    assert!(
        l.to_string()
            .contains("no answer for 1.5 s: RAILMPI_TCP_FAILOVER_TIMEOUT"),
        "{l}"
    );
    let reset = std::io::Error::from_raw_os_error(libc::ECONNRESET);
    assert!(matches!(
        Loss::from_error(&reset, local, remote, (2000, TIMEOUT_KNOB)),
        Loss::Closed { .. }
    ));
}
