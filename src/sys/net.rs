//! Network interfaces of this host (`getifaddrs`): what the tcp rail may listen on; and
//! connections made from a chosen local address.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interface {
    pub name: String,
    pub addr: IpAddr,
    /// Bits of the network prefix (from the netmask).
    pub prefix: u32,
    pub up: bool,
    pub loopback: bool,
}

/// Every IPv4 and IPv6 address of every interface, in the kernel's order.
pub fn interfaces() -> std::io::Result<Vec<Interface>> {
    let mut head: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills `head` with a list we free below.
    if unsafe { libc::getifaddrs(&mut head) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let mut out = Vec::new();
    let mut p = head;
    while !p.is_null() {
        // SAFETY: `p` is a node of the list getifaddrs returned (not yet freed).
        let ifa = unsafe { &*p };
        p = ifa.ifa_next;
        // SAFETY: a non-null address and netmask point to sockaddrs of the family the
        // address names; the name is a NUL-terminated string.
        let (addr, mask) = unsafe { (sockaddr_ip(ifa.ifa_addr), sockaddr_ip(ifa.ifa_netmask)) };
        let Some(addr) = addr else { continue };
        let prefix = match mask {
            Some(IpAddr::V4(m)) => u32::from(m).count_ones(),
            Some(IpAddr::V6(m)) => u128::from(m).count_ones(),
            None => 0,
        };
        // SAFETY: as above.
        let name = unsafe { std::ffi::CStr::from_ptr(ifa.ifa_name) }
            .to_string_lossy()
            .into_owned();
        let flags = ifa.ifa_flags;
        out.push(Interface {
            name,
            addr,
            prefix,
            up: flags & libc::IFF_UP as u32 != 0 && flags & libc::IFF_RUNNING as u32 != 0,
            loopback: flags & libc::IFF_LOOPBACK as u32 != 0,
        });
    }
    // SAFETY: `head` came from getifaddrs and is freed once.
    unsafe { libc::freeifaddrs(head) };
    Ok(out)
}

/// # Safety
/// `sa` is null or points to a sockaddr whose family field says what follows.
unsafe fn sockaddr_ip(sa: *const libc::sockaddr) -> Option<IpAddr> {
    if sa.is_null() {
        return None;
    }
    // SAFETY: the caller's contract; the family tells which structure it is.
    unsafe {
        match (*sa).sa_family as i32 {
            libc::AF_INET => {
                let s = &*(sa as *const libc::sockaddr_in);
                Some(IpAddr::V4(Ipv4Addr::from(u32::from_be(s.sin_addr.s_addr))))
            }
            libc::AF_INET6 => {
                let s = &*(sa as *const libc::sockaddr_in6);
                Some(IpAddr::V6(Ipv6Addr::from(s.sin6_addr.s6_addr)))
            }
            _ => None,
        }
    }
}

/// A connection to `remote` from address `local` (port chosen by the kernel), so that it
/// leaves from the interface the rail listens on; within `timeout`.
pub fn connect_from(
    local: IpAddr,
    remote: SocketAddr,
    timeout: Duration,
) -> std::io::Result<TcpStream> {
    use std::os::fd::{FromRawFd, OwnedFd};
    let err = std::io::Error::last_os_error;
    let family = if remote.is_ipv4() {
        libc::AF_INET
    } else {
        libc::AF_INET6
    };
    // SAFETY: socket() takes plain arguments; a descriptor it returns is ours alone.
    let fd = unsafe { libc::socket(family, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
    if fd < 0 {
        return Err(err());
    }
    // SAFETY: `fd` is a fresh descriptor nobody else owns (closed on every early return).
    let owned = unsafe { OwnedFd::from_raw_fd(fd) };
    let (src, src_len) = sockaddr(SocketAddr::new(local, 0));
    // SAFETY: `src` is a sockaddr_storage holding a sockaddr of `src_len` bytes.
    if unsafe { libc::bind(fd, &src as *const _ as *const libc::sockaddr, src_len) } != 0 {
        return Err(err());
    }
    let stream = TcpStream::from(owned);
    stream.set_nonblocking(true)?;
    let (dst, dst_len) = sockaddr(remote);
    // SAFETY: as above, for the destination.
    let r = unsafe { libc::connect(fd, &dst as *const _ as *const libc::sockaddr, dst_len) };
    if r != 0 {
        let e = err();
        if e.raw_os_error() != Some(libc::EINPROGRESS) {
            return Err(e);
        }
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLOUT,
            revents: 0,
        };
        let ms = timeout.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd on our stack.
        match unsafe { libc::poll(&mut pfd, 1, ms) } {
            0 => return Err(std::io::ErrorKind::TimedOut.into()),
            n if n < 0 => return Err(err()),
            _ => {}
        }
        if let Some(e) = stream.take_error()? {
            return Err(e);
        }
    }
    stream.set_nonblocking(false)?;
    Ok(stream)
}

/// Gives up on a connection whose sent data stays unacknowledged for `ms` (a failed link:
/// TCP would otherwise retransmit for many minutes), and probes an idle one every second,
/// so that a peer that vanished (its link down, its host off) is noticed within `ms` even
/// when nothing is being sent: reads and writes then fail with `ETIMEDOUT`. The tcp rail
/// and the launcher's connections to its proxies (`RAILMPI_TCP_TIMEOUT`) both use it.
pub fn set_timeouts(sock: impl std::os::fd::AsFd, ms: u32) {
    use std::os::fd::AsRawFd;
    let fd = sock.as_fd().as_raw_fd();
    let set = |level: i32, opt: i32, v: i32| {
        // SAFETY: setsockopt reads one int from the pointer we pass, with its size.
        unsafe {
            libc::setsockopt(
                fd,
                level,
                opt,
                &v as *const i32 as *const libc::c_void,
                std::mem::size_of::<i32>() as libc::socklen_t,
            )
        }
    };
    let probes = (ms / 1000).clamp(1, 100) as i32;
    set(
        libc::IPPROTO_TCP,
        libc::TCP_USER_TIMEOUT,
        ms.min(i32::MAX as u32) as i32,
    );
    set(libc::SOL_SOCKET, libc::SO_KEEPALIVE, 1);
    set(libc::IPPROTO_TCP, libc::TCP_KEEPIDLE, 1);
    set(libc::IPPROTO_TCP, libc::TCP_KEEPINTVL, 1);
    set(libc::IPPROTO_TCP, libc::TCP_KEEPCNT, probes);
}

/// `addr` as a sockaddr_in / sockaddr_in6 in a sockaddr_storage, with its length.
fn sockaddr(addr: SocketAddr) -> (libc::sockaddr_storage, libc::socklen_t) {
    // SAFETY: sockaddr_storage is plain data; all zeroes is a valid value.
    let mut ss: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let len = match addr {
        SocketAddr::V4(a) => {
            let sin = libc::sockaddr_in {
                sin_family: libc::AF_INET as libc::sa_family_t,
                sin_port: a.port().to_be(),
                sin_addr: libc::in_addr {
                    s_addr: u32::from_ne_bytes(a.ip().octets()),
                },
                sin_zero: [0; 8],
            };
            // SAFETY: sockaddr_storage is larger than and aligned for sockaddr_in.
            unsafe { std::ptr::write(&mut ss as *mut _ as *mut libc::sockaddr_in, sin) };
            std::mem::size_of::<libc::sockaddr_in>()
        }
        SocketAddr::V6(a) => {
            let sin6 = libc::sockaddr_in6 {
                sin6_family: libc::AF_INET6 as libc::sa_family_t,
                sin6_port: a.port().to_be(),
                sin6_flowinfo: a.flowinfo(),
                sin6_addr: libc::in6_addr {
                    s6_addr: a.ip().octets(),
                },
                sin6_scope_id: a.scope_id(),
            };
            // SAFETY: as above, for sockaddr_in6.
            unsafe { std::ptr::write(&mut ss as *mut _ as *mut libc::sockaddr_in6, sin6) };
            std::mem::size_of::<libc::sockaddr_in6>()
        }
    };
    (ss, len as libc::socklen_t)
}

/// Whether `addr` lies in `net/prefix`.
pub fn in_network(addr: IpAddr, net: IpAddr, prefix: u32) -> bool {
    match (addr, net) {
        (IpAddr::V4(a), IpAddr::V4(n)) if prefix <= 32 => {
            let mask = if prefix == 0 {
                0
            } else {
                u32::MAX << (32 - prefix)
            };
            u32::from(a) & mask == u32::from(n) & mask
        }
        (IpAddr::V6(a), IpAddr::V6(n)) if prefix <= 128 => {
            let mask = if prefix == 0 {
                0
            } else {
                u128::MAX << (128 - prefix)
            };
            u128::from(a) & mask == u128::from(n) & mask
        }
        _ => false,
    }
}

/// A descriptor kept in reserve for a listener that has none left (EMFILE): released, it lets
/// the connection at the head of the queue be accepted and closed at once — else a
/// level-triggered listener reports that connection for ever and its loop spins, the way
/// servers keep one. Shared by the tcp rail and mpiexec.
pub struct SpareFd(Option<std::fs::File>);

impl SpareFd {
    pub fn new() -> SpareFd {
        SpareFd(std::fs::File::open("/dev/null").ok())
    }

    /// Runs `f` with the spare's descriptor free, if one is held (it is taken back after,
    /// if it can be).
    pub fn freed<T>(&mut self, f: impl FnOnce() -> T) -> T {
        self.0 = None;
        let r = f();
        self.0 = std::fs::File::open("/dev/null").ok();
        r
    }

    /// Accepts the connection at the head of `listener`'s queue with the spare's descriptor
    /// and closes it: its peer's address, an accept error, or None without a spare.
    pub fn accept_and_close(
        &mut self,
        listener: &std::net::TcpListener,
    ) -> Option<std::io::Result<SocketAddr>> {
        self.0.as_ref()?;
        Some(self.freed(|| listener.accept().map(|(_, a)| a)))
    }
}

/// No descriptor held (a placeholder while the spare is lent out).
impl Default for SpareFd {
    fn default() -> Self {
        SpareFd(None)
    }
}

/// Bytes acknowledged and microseconds with data in flight on a TCP socket, from the
/// kernel's `TCP_INFO` (`tcpi_bytes_acked`, `tcpi_busy_time`: Linux 4.10 on). None if the
/// kernel does not say.
pub fn tcp_progress(fd: std::os::fd::BorrowedFd<'_>) -> Option<(u64, u64)> {
    use std::os::fd::AsRawFd;
    // SAFETY: tcp_info is plain data; getsockopt writes at most `len` bytes into it and
    // says how many.
    unsafe {
        let mut info: libc::tcp_info = std::mem::zeroed();
        let mut len = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
        let rc = libc::getsockopt(
            fd.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            &mut info as *mut libc::tcp_info as *mut libc::c_void,
            &mut len,
        );
        let need = std::mem::offset_of!(libc::tcp_info, tcpi_busy_time) + 8;
        (rc == 0 && len as usize >= need).then_some((info.tcpi_bytes_acked, info.tcpi_busy_time))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_leave_from_the_chosen_address() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let to = l.local_addr().unwrap();
        let from: IpAddr = "127.0.0.2".parse().unwrap();
        let c = connect_from(from, to, Duration::from_secs(5)).unwrap();
        let (_, peer) = l.accept().unwrap();
        assert_eq!(peer.ip(), from);
        assert_eq!(c.local_addr().unwrap().ip(), from);
        drop(l);
        // Nobody listens any more: refused, not hung.
        assert!(connect_from(from, to, Duration::from_secs(5)).is_err());
    }

    /// The spare takes the queued connection and closes it (its client reads end of
    /// file); without a spare nothing is accepted.
    #[test]
    fn the_spare_accepts_and_closes() {
        use std::io::Read;
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut c = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let mut spare = SpareFd::new();
        let got = spare.accept_and_close(&l).unwrap().unwrap();
        assert_eq!(got, c.local_addr().unwrap());
        let mut b = [0u8; 1];
        assert_eq!(c.read(&mut b).unwrap(), 0);
        assert!(SpareFd::default().accept_and_close(&l).is_none());
    }

    #[test]
    fn loopback_is_listed_and_networks_match() {
        let all = interfaces().unwrap();
        assert!(all
            .iter()
            .any(|i| i.loopback && i.addr == IpAddr::V4(Ipv4Addr::LOCALHOST) && i.prefix == 8));
        let n: IpAddr = "10.1.0.0".parse().unwrap();
        assert!(in_network("10.1.2.3".parse().unwrap(), n, 16));
        assert!(!in_network("10.2.2.3".parse().unwrap(), n, 16));
        assert!(in_network("10.2.2.3".parse().unwrap(), n, 0));
        assert!(!in_network("::1".parse().unwrap(), n, 8));
    }
}
