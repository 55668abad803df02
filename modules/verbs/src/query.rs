//! `query`: every port of every device as a `PortInfo`.

use std::mem;
use std::ptr;

use rdma_sys::*;

use crate::abi::*;
use crate::util::*;

/// `IBV_LINK_LAYER_ETHERNET` (an anonymous enum in verbs.h, so not in the bindings).
pub(crate) const LINK_LAYER_ETHERNET: u8 = 2;

/// What `open` needs from the device besides the port: read once per context.
#[derive(Clone, Copy, Default)]
pub(crate) struct DevCaps {
    pub max_qp_wr: u32,
    pub max_sge: u32,
    pub max_cqe: u32,
    pub max_qp_rd_atom: u32,
    pub max_qp_init_rd_atom: u32,
    pub odp: u32,
}

/// `ibv_query_device_ex` (which falls back to `ibv_query_device` itself when the provider
/// has no extended query), zero-filled first so a fallback leaves the extended part 0.
pub(crate) fn device_attr(ctx: *mut ibv_context) -> Result<ibv_device_attr_ex, i32> {
    // SAFETY: ibv_device_attr_ex is plain old data; all-zero is a valid (empty) value.
    let mut attr: ibv_device_attr_ex = unsafe { mem::zeroed() };
    // SAFETY: ctx is an open device context; attr is writable and sized as the headers
    // we were built against say (the inline passes that size to the provider).
    let ret = unsafe { ibv_query_device_ex(ctx, ptr::null(), &mut attr) };
    if ret == 0 {
        return Ok(attr);
    }
    // SAFETY: plain old data.
    attr = unsafe { mem::zeroed() };
    // SAFETY: ctx is open; the plain query fills orig_attr only.
    let ret = unsafe { ibv_query_device(ctx, &mut attr.orig_attr) };
    if ret == 0 {
        Ok(attr)
    } else {
        Err(verbs_ret(ret))
    }
}

pub(crate) fn caps_of(attr: &ibv_device_attr_ex) -> DevCaps {
    let a = &attr.orig_attr;
    DevCaps {
        max_qp_wr: a.max_qp_wr.max(0) as u32,
        max_sge: a.max_sge.max(0) as u32,
        max_cqe: a.max_cqe.max(0) as u32,
        max_qp_rd_atom: a.max_qp_rd_atom.max(0) as u32,
        max_qp_init_rd_atom: a.max_qp_init_rd_atom.max(0) as u32,
        odp: odp_bits(attr),
    }
}

fn odp_bits(attr: &ibv_device_attr_ex) -> u32 {
    let general = attr.odp_caps.general_caps;
    if general & ibv_odp_general_caps::IBV_ODP_SUPPORT.0 as u64 == 0 {
        return 0;
    }
    // ODP_SEND..ODP_ATOMIC are the IBV_ODP_SUPPORT_* bits themselves.
    let mut bits = attr.odp_caps.per_transport_caps.rc_odp_caps
        & (ODP_SEND | ODP_RECV | ODP_WRITE | ODP_READ | ODP_ATOMIC);
    if general & ibv_odp_general_caps::IBV_ODP_SUPPORT_IMPLICIT.0 as u64 != 0 {
        bits |= ODP_IMPLICIT;
    }
    bits
}

/// `ibv_query_port` through the size-aware provider entry (the exported symbol is the
/// old, shorter struct).
pub(crate) fn port_attr(ctx: *mut ibv_context, port: u8) -> Result<ibv_port_attr, i32> {
    // SAFETY: plain old data.
    let mut pa: ibv_port_attr = unsafe { mem::zeroed() };
    // SAFETY: ctx is open; pa is writable and its size is what the inline passes on.
    let ret = unsafe { ___ibv_query_port(ctx, port, &mut pa) };
    if ret == 0 {
        Ok(pa)
    } else {
        Err(verbs_ret(ret))
    }
}

pub(crate) fn transport_of(dev: *mut ibv_device, link_layer: u8) -> u32 {
    // SAFETY: dev comes from ibv_get_device_list / an open context and stays valid.
    let (node, transport) = unsafe { ((*dev).node_type, (*dev).transport_type) };
    if transport == ibv_transport_type::IBV_TRANSPORT_IWARP || node == ibv_node_type::IBV_NODE_RNIC
    {
        TRANSPORT_IWARP
    } else if link_layer == LINK_LAYER_ETHERNET {
        TRANSPORT_ROCE
    } else {
        TRANSPORT_IB
    }
}

fn mtu_bytes(mtu: ibv_mtu::Type) -> u32 {
    match mtu {
        1..=5 => 128 << mtu,
        _ => 0,
    }
}

/// Width × per-lane rate, in Mb/s (nominal data rates).
fn speed_mbps(width: u8, speed: u8) -> u64 {
    let lanes = match width {
        1 => 1,
        2 => 4,
        4 => 8,
        8 => 12,
        16 => 2,
        _ => 1,
    };
    let lane = match speed {
        1 => 2_500,
        2 => 5_000,
        4 | 8 => 10_000,
        16 => 14_000,
        32 => 25_000,
        64 => 50_000,
        128 => 100_000,
        _ => 0,
    };
    lanes * lane
}

/// The GID rdma_cm will use and the IP it stands for. RoCE: the RoCE v2 entry with an
/// IPv4-mapped address if there is one, else a global IPv6 v2 entry, else the first entry.
/// IB and iWARP: entry 0 (the IP comes from the netdev).
fn choose_gid(
    ctx: *mut ibv_context,
    dev: &str,
    port: u8,
    tbl_len: i32,
    transport: u32,
) -> (i32, [u8; 16], [u8; 16]) {
    let query = |i: i32| -> Option<[u8; 16]> {
        // SAFETY: ibv_gid is plain old data.
        let mut gid: ibv_gid = unsafe { mem::zeroed() };
        // SAFETY: ctx is open and gid writable; an out-of-range index just fails.
        if unsafe { ibv_query_gid(ctx, port, i, &mut gid) } != 0 {
            return None;
        }
        // SAFETY: both union variants are 16 bytes of plain data.
        let raw = unsafe { gid.raw };
        raw.iter().any(|&b| b != 0).then_some(raw)
    };
    if transport != TRANSPORT_ROCE {
        return match query(0) {
            Some(g) => (0, g, [0; 16]),
            None => (-1, [0; 16], [0; 16]),
        };
    }
    let mut best: Option<(u32, i32, [u8; 16])> = None;
    for i in 0..tbl_len.max(0) {
        let Some(g) = query(i) else { continue };
        let ty = read_sysfs(&format!(
            "/sys/class/infiniband/{dev}/ports/{port}/gid_attrs/types/{i}"
        ));
        let v2 = ty
            .as_deref()
            .is_some_and(|t| t.eq_ignore_ascii_case("RoCE v2"));
        let rank = match (v2, is_v4_mapped(&g), ty.is_none()) {
            (true, true, _) => 5,
            (true, false, _) if !is_link_local(&g) => 4,
            (false, true, true) => 3, // no sysfs: an IPv4 GID is still our best guess
            (true, false, _) => 2,
            _ => 1,
        };
        if best.is_none_or(|(r, _, _)| rank > r) {
            best = Some((rank, i, g));
            if rank == 5 {
                break;
            }
        }
    }
    match best {
        Some((_, i, g)) => {
            let ip = if is_v4_mapped(&g) || !is_link_local(&g) {
                g
            } else {
                [0; 16]
            };
            (i, g, ip)
        }
        None => (-1, [0; 16], [0; 16]),
    }
}

/// The largest inline size an RC queue pair on this device accepts: create a throwaway one
/// asking for less and less until one is created, and report what the provider granted.
fn probe_inline(ctx: *mut ibv_context) -> u32 {
    // SAFETY: ctx is an open device context.
    let pd = unsafe { ibv_alloc_pd(ctx) };
    if pd.is_null() {
        return 0;
    }
    // SAFETY: ctx is open; no channel, vector 0.
    let cq = unsafe { ibv_create_cq(ctx, 4, ptr::null_mut(), ptr::null_mut(), 0) };
    let mut got = 0;
    if !cq.is_null() {
        for want in [256u32, 128, 64, 32, 16, 0] {
            // SAFETY: plain old data; zero means NULL pointers and no flags.
            let mut init: ibv_qp_init_attr = unsafe { mem::zeroed() };
            init.send_cq = cq;
            init.recv_cq = cq;
            init.qp_type = ibv_qp_type::IBV_QPT_RC;
            init.cap = ibv_qp_cap {
                max_send_wr: 1,
                max_recv_wr: 1,
                max_send_sge: 1,
                max_recv_sge: 1,
                max_inline_data: want,
            };
            // SAFETY: pd and cq belong to ctx; init is fully initialised.
            let qp = unsafe { ibv_create_qp(pd, &mut init) };
            if !qp.is_null() {
                // The provider writes back what it granted (rxe: more than asked).
                got = init.cap.max_inline_data.max(want);
                // SAFETY: qp was just created and is not used elsewhere.
                unsafe { ibv_destroy_qp(qp) };
                break;
            }
        }
        // SAFETY: cq is ours and has no queue pairs left.
        unsafe { ibv_destroy_cq(cq) };
    }
    // SAFETY: pd is ours and empty.
    unsafe { ibv_dealloc_pd(pd) };
    got
}

/// Every port of one open device.
fn query_device(dev: *mut ibv_device, out: &mut Vec<PortInfo>) {
    // SAFETY: dev is an entry of a live device list; the name is NUL-terminated.
    let name = String::from_utf8_lossy(unsafe { cstr(ibv_get_device_name(dev)) }).into_owned();
    // SAFETY: as above.
    let ctx = unsafe { ibv_open_device(dev) };
    if ctx.is_null() {
        return;
    }
    if let Ok(attr) = device_attr(ctx) {
        let a = &attr.orig_attr;
        let caps = caps_of(&attr);
        let max_inline = probe_inline(ctx);
        for port in 1..=a.phys_port_cnt {
            let Ok(pa) = port_attr(ctx, port) else {
                continue;
            };
            let transport = transport_of(dev, pa.link_layer);
            let (gid_index, gid, mut ip) = choose_gid(ctx, &name, port, pa.gid_tbl_len, transport);
            if transport != TRANSPORT_ROCE || ip == [0; 16] {
                if let Some(nd) = port_netdev(&name, port as u32, &gid) {
                    ip = netdev_ip(&nd).unwrap_or([0; 16]);
                }
            }
            let mut p = PortInfo {
                name: [0; 64],
                port: port as u32,
                transport,
                active: (pa.state == ibv_port_state::IBV_PORT_ACTIVE) as u32,
                mtu: mtu_bytes(pa.active_mtu),
                speed_mbps: speed_mbps(pa.active_width, pa.active_speed),
                max_qp_wr: caps.max_qp_wr,
                max_sge: a.max_sge.max(0) as u32,
                max_sge_rd: a.max_sge_rd.max(0) as u32,
                max_srq_wr: a.max_srq_wr.max(0) as u32,
                max_inline,
                atomics: (a.atomic_cap != ibv_atomic_cap::IBV_ATOMIC_NONE) as u32,
                odp: caps.odp,
                max_mr_size: a.max_mr_size,
                max_qp_rd_atom: caps.max_qp_rd_atom,
                vendor_id: a.vendor_id,
                gid_index,
                gid,
                ip,
                fw_ver: [0; 64],
            };
            copy_cstr(&mut p.name, name.as_bytes());
            copy_cstr(&mut p.fw_ver, &char_array(&a.fw_ver));
            out.push(p);
        }
    }
    // SAFETY: ctx was opened above and nothing of it is left.
    unsafe { ibv_close_device(ctx) };
}

/// Every port of every device. No devices (or no kernel support) is an empty list.
pub(crate) fn query_all() -> Vec<PortInfo> {
    let mut n: i32 = 0;
    // SAFETY: writes n; returns NULL or a NULL-terminated array freed below.
    let list = unsafe { ibv_get_device_list(&mut n) };
    let mut out = Vec::new();
    if list.is_null() {
        return out;
    }
    for i in 0..n.max(0) as usize {
        // SAFETY: the list holds n valid entries.
        let dev = unsafe { *list.add(i) };
        if !dev.is_null() {
            query_device(dev, &mut out);
        }
    }
    // SAFETY: list came from ibv_get_device_list; the devices' contexts are all closed.
    unsafe { ibv_free_device_list(list) };
    out
}

/// One port of a named device.
pub(crate) fn query_port(device: &[u8], port: u32) -> Option<PortInfo> {
    query_all().into_iter().find(|p| {
        let n = p.name.iter().position(|&b| b == 0).unwrap_or(p.name.len());
        &p.name[..n] == device && p.port == port
    })
}
