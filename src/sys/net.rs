//! Network interfaces of this host (`getifaddrs`): what the tcp rail may listen on.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

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

#[cfg(test)]
mod tests {
    use super::*;

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
