//! Ports (MPI_Open_port): a listening socket and a fresh token, named
//! `railmpi-port:<address>:<token in hex>`. Whoever holds the name may connect; a connector
//! proves the token without sending it (the tcp rail's challenge–response, `fabric::tcp::auth`)
//! before the acceptor reads anything else from it.
//!
//! Connections are taken from the listener while an MPI_Comm_accept on the port waits;
//! each is proven in a thread of its own with a short deadline, so a stranger who connects
//! and says nothing delays no one (at most `MAX_UNPROVEN` wait at once: the oldest goes
//! for a newcomer). Proven connections queue on the port for the next accept.

use crate::error::{Error, ErrorClass, Result};
use crate::fabric::tcp::auth::{Role, Transcript, MAC, NONCE};
use crate::fabric::tcp::{random, secret_from_hex, secret_to_hex, Secret};
use parking_lot::Mutex;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

const PREFIX: &str = "railmpi-port:";
/// The first bytes a connector sends (then a version and its nonce).
const MAGIC: &[u8; 8] = b"RMPIPORT";
const VERSION: u32 = 1;
/// How long a connection may take to prove the token.
const PROOF_DEADLINE: Duration = Duration::from_secs(2);
const MAX_UNPROVEN: usize = 64;
/// Largest frame a root accepts from the other side (cards of ~170,000 processes).
pub const MAX_FRAME: usize = 16 << 20;
/// The ranks named in the proofs' transcript (there are none: one port, one token).
const PORT_PARTY: u32 = u32::MAX;

fn port_err(msg: impl Into<String>) -> Error {
    Error::new(ErrorClass::Port, msg)
}

/// A port name taken apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortName {
    pub addr: SocketAddr,
    pub token: Secret,
}

impl PortName {
    pub fn parse(s: &str) -> Option<PortName> {
        let rest = s.strip_prefix(PREFIX)?;
        let (addr, token) = rest.rsplit_once(':')?;
        Some(PortName {
            addr: addr.parse().ok()?,
            token: secret_from_hex(token)?,
        })
    }
}

impl std::fmt::Display for PortName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{PREFIX}{}:{}", self.addr, secret_to_hex(&self.token))
    }
}

struct Port {
    listener: TcpListener,
    token: Secret,
    /// Proven connections waiting for an accept.
    ready: Mutex<VecDeque<TcpStream>>,
    /// Connections being proven: (id, since, a handle to cut it short).
    unproven: Mutex<Vec<(u64, Instant, TcpStream)>>,
}

static PORTS: LazyLock<Mutex<FxHashMap<String, Arc<Port>>>> = LazyLock::new(Default::default);
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// MPI_Open_port: listen on `ip`; returns the port's name.
pub fn open(ip: IpAddr) -> Result<String> {
    let listener = TcpListener::bind(SocketAddr::new(ip, 0))
        .map_err(|e| Error::new(ErrorClass::Other, format!("cannot listen on {ip}: {e}")))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| Error::new(ErrorClass::Other, format!("port socket: {e}")))?;
    let token = random();
    let name = PortName {
        addr: listener.local_addr().map_err(|e| port_err(e.to_string()))?,
        token,
    }
    .to_string();
    PORTS.lock().insert(
        name.clone(),
        Arc::new(Port {
            listener,
            token,
            ready: Mutex::new(VecDeque::new()),
            unproven: Mutex::new(Vec::new()),
        }),
    );
    Ok(name)
}

/// MPI_Close_port: stop listening; connections not yet accepted are closed.
pub fn close(name: &str) -> Result<()> {
    match PORTS.lock().remove(name) {
        Some(p) => {
            for (_, _, s) in p.unproven.lock().drain(..) {
                let _ = s.shutdown(Shutdown::Both);
            }
            Ok(())
        }
        None => Err(port_err(format!(
            "{name:?} is not a port this process opened"
        ))),
    }
}

/// The next proven connection to port `name` (opened by this process); `idle` runs
/// between looks (the caller's progress).
pub fn accept(name: &str, mut idle: impl FnMut()) -> Result<TcpStream> {
    let port = PORTS
        .lock()
        .get(name)
        .cloned()
        .ok_or_else(|| port_err(format!("{name:?} is not a port this process opened")))?;
    loop {
        if let Some(s) = port.ready.lock().pop_front() {
            return Ok(s);
        }
        loop {
            match port.listener.accept() {
                Ok((s, _)) => prove_later(&port, s),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                // Out of descriptors and the like: wait for better times.
                Err(e) => {
                    tracing::warn!("port {name}: accept: {e}");
                    break;
                }
            }
        }
        if !PORTS.lock().contains_key(name) {
            return Err(port_err(format!("port {name:?} was closed")));
        }
        idle();
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Prove `s` in a thread of its own; proven, it queues for an accept.
fn prove_later(port: &Arc<Port>, s: TcpStream) {
    let Ok(handle) = s.try_clone() else { return };
    let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    {
        let mut u = port.unproven.lock();
        if u.len() >= MAX_UNPROVEN {
            let (_, _, oldest) = u.remove(0);
            let _ = oldest.shutdown(Shutdown::Both);
        }
        u.push((id, Instant::now(), handle));
    }
    let port = port.clone();
    let spawned = std::thread::Builder::new()
        .name("railmpi-port".into())
        .spawn(move || {
            let proven = prove_connector(&s, &port.token).is_ok();
            port.unproven.lock().retain(|(i, _, _)| *i != id);
            if proven {
                port.ready.lock().push_back(s);
            }
        });
    if spawned.is_err() {
        tracing::warn!("port: no thread to prove a connection; it is dropped");
    }
}

/// The acceptor's half of the proof: the connector's hello, our challenge, its proof.
fn prove_connector(s: &TcpStream, token: &Secret) -> std::io::Result<()> {
    let deadline = Instant::now() + PROOF_DEADLINE;
    s.set_nonblocking(false)?;
    let hello = read_frame(s, 8 + 4 + NONCE, deadline)?;
    if hello.len() != 8 + 4 + NONCE || &hello[..8] != MAGIC {
        return Err(bad("not a railmpi port hello"));
    }
    if u32::from_le_bytes(hello[8..12].try_into().expect("4 bytes")) != VERSION {
        return Err(bad("another version of the port protocol"));
    }
    let t = Transcript {
        connector: PORT_PARTY,
        acceptor: PORT_PARTY,
        connector_nonce: hello[12..].try_into().expect("a nonce"),
        acceptor_nonce: random(),
    };
    let mut challenge = t.acceptor_nonce.to_vec();
    challenge.extend_from_slice(&t.prove(token, Role::Acceptor));
    write_frame(s, &challenge)?;
    let proof = read_frame(s, MAC, deadline)?;
    if !t.verify(token, Role::Connector, &proof) {
        return Err(bad("the connector did not prove the port's token"));
    }
    Ok(())
}

/// Connect to the port `name` and prove its token (and that it is the port's holder that
/// answers); `timeout` bounds the whole (the acceptor answers once an accept runs).
pub fn connect(name: &str, timeout: Duration) -> Result<TcpStream> {
    let p = PortName::parse(name)
        .ok_or_else(|| port_err(format!("{name:?} is not a railmpi port name")))?;
    let deadline = Instant::now() + timeout;
    let s = TcpStream::connect_timeout(&p.addr, timeout)
        .map_err(|e| port_err(format!("cannot reach port {name}: {e}")))?;
    let _ = s.set_nodelay(true);
    let fail = |e: std::io::Error| port_err(format!("port {name}: {e}"));
    let nonce: [u8; NONCE] = random();
    let mut hello = MAGIC.to_vec();
    hello.extend_from_slice(&VERSION.to_le_bytes());
    hello.extend_from_slice(&nonce);
    write_frame(&s, &hello).map_err(fail)?;
    let ch = read_frame(&s, NONCE + MAC, deadline).map_err(|e| match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => port_err(format!(
            "no MPI_Comm_accept answered on port {name} within {} s (RAILMPI_CONNECT_TIMEOUT)",
            timeout.as_secs()
        )),
        _ => fail(e),
    })?;
    if ch.len() != NONCE + MAC {
        return Err(port_err(format!("port {name}: a malformed challenge")));
    }
    let t = Transcript {
        connector: PORT_PARTY,
        acceptor: PORT_PARTY,
        connector_nonce: nonce,
        acceptor_nonce: ch[..NONCE].try_into().expect("a nonce"),
    };
    if !t.verify(&p.token, Role::Acceptor, &ch[NONCE..]) {
        return Err(port_err(format!(
            "whoever listens at {} does not hold port {name}",
            p.addr
        )));
    }
    write_frame(&s, &t.prove(&p.token, Role::Connector)).map_err(fail)?;
    Ok(s)
}

fn bad(msg: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, msg)
}

/// One frame: its length (u32, little-endian), then its bytes.
pub fn write_frame(mut s: &TcpStream, bytes: &[u8]) -> std::io::Result<()> {
    let mut v = (bytes.len() as u32).to_le_bytes().to_vec();
    v.extend_from_slice(bytes);
    s.write_all(&v)
}

/// A frame of at most `max` bytes, by `deadline`.
pub fn read_frame(s: &TcpStream, max: usize, deadline: Instant) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    read_by(s, &mut len, deadline)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > max {
        return Err(bad("a frame longer than allowed"));
    }
    let mut b = vec![0u8; len];
    read_by(s, &mut b, deadline)?;
    Ok(b)
}

fn read_by(mut s: &TcpStream, mut buf: &mut [u8], deadline: Instant) -> std::io::Result<()> {
    while !buf.is_empty() {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        s.set_read_timeout(Some(left))?;
        match s.read(buf) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => buf = &mut buf[n..],
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_junk_is_refused() {
        let n = PortName {
            addr: "10.1.2.3:4567".parse().unwrap(),
            token: [0xab; 32],
        };
        let s = n.to_string();
        assert!(s.len() < 256, "fits MPI_MAX_PORT_NAME");
        assert_eq!(PortName::parse(&s), Some(n));
        assert!(PortName::parse("tcp://10.1.2.3:4567").is_none());
        assert!(PortName::parse(&s[..s.len() - 1]).is_none());
        let v6 = PortName {
            addr: "[::1]:9".parse().unwrap(),
            token: [1; 32],
        };
        assert_eq!(PortName::parse(&v6.to_string()), Some(v6));
    }

    #[test]
    fn a_connector_with_the_token_is_accepted_and_a_stranger_is_not() {
        let name = open("127.0.0.1".parse().unwrap()).unwrap();
        let p = PortName::parse(&name).unwrap();
        // A stranger that connects and says nothing, and one with the wrong token.
        let _silent = TcpStream::connect(p.addr).unwrap();
        let wrong = PortName {
            token: [0; 32],
            ..p
        }
        .to_string();
        let liar = std::thread::spawn(move || connect(&wrong, Duration::from_secs(5)));
        let n2 = name.clone();
        let good = std::thread::spawn(move || {
            let s = connect(&n2, Duration::from_secs(5)).unwrap();
            write_frame(&s, b"hi").unwrap();
        });
        let s = accept(&name, || {}).unwrap();
        let got = read_frame(&s, 16, Instant::now() + Duration::from_secs(5)).unwrap();
        assert_eq!(got, b"hi");
        good.join().unwrap();
        let e = liar.join().unwrap().unwrap_err();
        assert_eq!(e.class, ErrorClass::Port);
        close(&name).unwrap();
        assert_eq!(close(&name).unwrap_err().class, ErrorClass::Port);
        assert!(accept(&name, || {}).is_err());
        // Closed: refused at once.
        assert_eq!(
            connect(&name, Duration::from_secs(5)).unwrap_err().class,
            ErrorClass::Port
        );
    }
}
