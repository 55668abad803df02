//! Small helpers shared by the query and the context code: errno, socket addresses, C
//! strings and the sysfs / netdev look-ups.

use std::ffi::{c_char, CStr};
use std::mem;

/// The calling thread's errno, EIO when it says nothing (so a failure never reads as 0).
pub(crate) fn errno() -> i32 {
    match std::io::Error::last_os_error().raw_os_error() {
        Some(e) if e > 0 => e,
        _ => libc::EIO,
    }
}

/// A verbs return value as a positive errno: providers return either a positive errno or -1
/// with errno set (and a few a negative errno).
pub(crate) fn verbs_ret(ret: i32) -> i32 {
    match ret {
        0 => 0,
        r if r > 0 => r,
        -1 => errno(),
        r => r.checked_neg().unwrap_or(libc::EIO),
    }
}

/// Is `ip` (16 bytes) an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`)?
pub(crate) fn is_v4_mapped(ip: &[u8; 16]) -> bool {
    ip[..10].iter().all(|&b| b == 0) && ip[10] == 0xff && ip[11] == 0xff
}

/// IPv6 link-local (`fe80::/10`): unusable for rdma_cm without a scope.
pub(crate) fn is_link_local(ip: &[u8; 16]) -> bool {
    ip[0] == 0xfe && (ip[1] & 0xc0) == 0x80
}

/// Space for either socket address family, handed to rdma_cm as `struct sockaddr *`.
#[repr(C)]
pub(crate) union SockAddr {
    v4: libc::sockaddr_in,
    v6: libc::sockaddr_in6,
    storage: libc::sockaddr_storage,
}

impl SockAddr {
    /// IPv4-mapped bytes become a `sockaddr_in` (rdma_cm resolves those through the IPv4
    /// routing table, which is what RoCE v2 and iWARP devices are bound to), anything else
    /// a `sockaddr_in6`. `port` is in host order.
    pub(crate) fn new(ip: &[u8; 16], port: u16) -> SockAddr {
        // SAFETY: every field of every variant is an integer or an array of them, for which
        // all-zero bytes are a valid value.
        let mut sa: SockAddr = unsafe { mem::zeroed() };
        if is_v4_mapped(ip) {
            let v4 = libc::sockaddr_in {
                sin_family: libc::AF_INET as libc::sa_family_t,
                sin_port: port.to_be(),
                sin_addr: libc::in_addr {
                    s_addr: u32::from_ne_bytes([ip[12], ip[13], ip[14], ip[15]]),
                },
                sin_zero: [0; 8],
            };
            sa.v4 = v4;
        } else {
            let v6 = libc::sockaddr_in6 {
                sin6_family: libc::AF_INET6 as libc::sa_family_t,
                sin6_port: port.to_be(),
                sin6_flowinfo: 0,
                sin6_addr: libc::in6_addr { s6_addr: *ip },
                sin6_scope_id: 0,
            };
            sa.v6 = v6;
        }
        sa
    }

    pub(crate) fn as_mut_ptr(&mut self) -> *mut libc::sockaddr {
        self as *mut SockAddr as *mut libc::sockaddr
    }
}

/// The IP (IPv4-mapped for IPv4) and host-order port of a socket address, None for other
/// families.
///
/// # Safety
/// `sa` must point to a socket address whose family field is initialised and which is as
/// large as that family's struct.
pub(crate) unsafe fn from_sockaddr(sa: *const libc::sockaddr) -> Option<([u8; 16], u16)> {
    if sa.is_null() {
        return None;
    }
    // SAFETY: the caller promises the family is readable and the struct as large as it says.
    unsafe {
        match (*sa).sa_family as i32 {
            libc::AF_INET => {
                let v4 = &*(sa as *const libc::sockaddr_in);
                Some((
                    v4_mapped(v4.sin_addr.s_addr.to_ne_bytes()),
                    u16::from_be(v4.sin_port),
                ))
            }
            libc::AF_INET6 => {
                let v6 = &*(sa as *const libc::sockaddr_in6);
                Some((v6.sin6_addr.s6_addr, u16::from_be(v6.sin6_port)))
            }
            _ => None,
        }
    }
}

pub(crate) fn v4_mapped(b: [u8; 4]) -> [u8; 16] {
    let mut ip = [0u8; 16];
    ip[10] = 0xff;
    ip[11] = 0xff;
    ip[12..].copy_from_slice(&b);
    ip
}

/// Copy a C string into a fixed NUL-terminated buffer (truncating).
pub(crate) fn copy_cstr(dst: &mut [u8], src: &[u8]) {
    let n = src.len().min(dst.len().saturating_sub(1));
    dst[..n].copy_from_slice(&src[..n]);
    for b in &mut dst[n..] {
        *b = 0;
    }
}

/// The bytes of a C string (without the NUL), empty for NULL.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string that outlives the result.
pub(crate) unsafe fn cstr<'a>(p: *const c_char) -> &'a [u8] {
    if p.is_null() {
        return &[];
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's promise.
    unsafe { CStr::from_ptr(p) }.to_bytes()
}

/// A fixed `c_char` array (like `ibv_device_attr.fw_ver`) as bytes up to its NUL.
pub(crate) fn char_array(a: &[c_char]) -> Vec<u8> {
    a.iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect()
}

/// Write `msg` NUL-terminated into the caller's error buffer (if any).
pub(crate) fn set_err(err: *mut c_char, err_len: usize, msg: &str) {
    if err.is_null() || err_len == 0 {
        return;
    }
    // SAFETY: the caller of `open` hands us `err_len` writable bytes at `err`.
    let buf = unsafe { std::slice::from_raw_parts_mut(err as *mut u8, err_len) };
    copy_cstr(buf, msg.as_bytes());
}

/// One line of a sysfs file, trimmed; None if it cannot be read (a missing entry, or the
/// EINVAL sysfs answers for an empty GID slot).
pub(crate) fn read_sysfs(path: &str) -> Option<String> {
    let s = std::fs::read_to_string(path).ok()?;
    let s = s.trim();
    if s.is_empty() {
        None
    } else {
        Some(s.to_string())
    }
}

/// Hardware address of a netdev (`/sys/class/net/<if>/address`): 6 bytes for Ethernet, 20
/// for IPoIB.
fn netdev_hwaddr(ifname: &str) -> Option<Vec<u8>> {
    let s = read_sysfs(&format!("/sys/class/net/{ifname}/address"))?;
    s.split(':')
        .map(|h| u8::from_str_radix(h, 16).ok())
        .collect()
}

/// The netdevs of this host, by name.
fn netdevs() -> Vec<String> {
    let Ok(dir) = std::fs::read_dir("/sys/class/net") else {
        return Vec::new();
    };
    let mut v: Vec<String> = dir
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    v.sort();
    v
}

/// Which netdev carries `dev`/`port`: the GID table's netdev, the device's `parent`, the
/// PCI function's net directory, else the netdev whose hardware address the port's GID 0
/// is made from (siw: the MAC itself in the first 6 bytes; RoCE: EUI-64 of the MAC; IPoIB:
/// its 20-byte address ends with the GID).
pub(crate) fn port_netdev(dev: &str, port: u32, gid0: &[u8; 16]) -> Option<String> {
    let base = format!("/sys/class/infiniband/{dev}");
    if let Some(n) = read_sysfs(&format!("{base}/ports/{port}/gid_attrs/ndevs/0")) {
        return Some(n);
    }
    if let Some(n) = read_sysfs(&format!("{base}/parent")) {
        if std::path::Path::new(&format!("/sys/class/net/{n}")).exists() {
            return Some(n);
        }
    }
    if let Ok(dir) = std::fs::read_dir(format!("{base}/device/net")) {
        let mut names: Vec<String> = dir
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        names.sort();
        // Multi-port functions list one netdev per port, in port order.
        if let Some(n) = names.get(port.saturating_sub(1) as usize).or(names.first()) {
            return Some(n.clone());
        }
    }
    if gid0.iter().all(|&b| b == 0) {
        return None;
    }
    let eui_mac = [gid0[8] ^ 2, gid0[9], gid0[10], gid0[13], gid0[14], gid0[15]];
    netdevs().into_iter().find(|n| match netdev_hwaddr(n) {
        Some(hw) if hw.len() == 6 => {
            hw.iter().any(|&b| b != 0) && (hw[..] == gid0[..6] || hw[..] == eui_mac[..])
        }
        Some(hw) if hw.len() == 20 => hw[4..] == gid0[..],
        _ => false,
    })
}

/// The first IPv4 address of netdev `ifname` (IPv4-mapped), else its first global IPv6
/// one.
pub(crate) fn netdev_ip(ifname: &str) -> Option<[u8; 16]> {
    let mut head: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs writes a list head we free below with freeifaddrs.
    if unsafe { libc::getifaddrs(&mut head) } != 0 {
        return None;
    }
    let mut v4 = None;
    let mut v6 = None;
    let mut p = head;
    while !p.is_null() {
        // SAFETY: p is a node of the list getifaddrs returned, alive until freeifaddrs;
        // ifa_name is a NUL-terminated string and ifa_addr NULL or a valid socket address.
        unsafe {
            let ifa = &*p;
            if cstr(ifa.ifa_name) == ifname.as_bytes() {
                if let Some((ip, _)) = from_sockaddr(ifa.ifa_addr) {
                    if is_v4_mapped(&ip) {
                        v4.get_or_insert(ip);
                    } else if !is_link_local(&ip) {
                        v6.get_or_insert(ip);
                    }
                }
            }
            p = ifa.ifa_next;
        }
    }
    // SAFETY: head came from getifaddrs and is freed once.
    unsafe { libc::freeifaddrs(head) };
    v4.or(v6)
}
