//! Packets of the point-to-point protocols as they travel in rail messages.
//!
//! Fixed little-endian layouts, decoded with checked parsers: the bytes come from another
//! process and are not trusted. Packets that name registered memory (RTS, PUT_REQ,
//! PIPE_READY) carry one key per domain slot of the rails that reach the peer (byte 2:
//! the slot set; the keys follow in slot order), so that each subchannel — a verbs port
//! of its own, or tcp beside verbs — finds its own.

use crate::fabric::{RemoteKeys, SlotSet};

pub const KIND_EAGER: u8 = 1;
pub const KIND_RTS: u8 = 2;
pub const KIND_FIN: u8 = 3;
pub const KIND_SYNC_ACK: u8 = 4;
pub const KIND_CTS: u8 = 5;
pub const KIND_RNDV_DATA: u8 = 6;
pub const KIND_PUT_REQ: u8 = 7;
pub const KIND_PUT_DONE: u8 = 8;
pub const KIND_PIPE_RTS: u8 = 9;
pub const KIND_PIPE_ACK: u8 = 10;
pub const KIND_PIPE_READY: u8 = 11;
pub const KIND_PIPE_FIN: u8 = 12;
pub const KIND_THROTTLE: u8 = 13;

/// Flag: the sender wants to know when the message is matched (MPI_Ssend).
pub const FLAG_SYNC: u8 = 1;
/// Flag (RTS): the payload is not contiguous; `addr` is the sender's run table, and the
/// packet carries its entry count.
pub const FLAG_RUNS: u8 = 2;

/// The matching part of EAGER and RTS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchHeader {
    pub ctx: u32,
    /// Sender's rank in the communicator.
    pub src: i32,
    pub tag: i32,
    /// Whole message length in bytes.
    pub len: u64,
    /// Sender's request, echoed in replies.
    pub sender_req: u64,
    pub flags: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packet<'a> {
    /// The whole message rides along.
    Eager { hdr: MatchHeader, payload: &'a [u8] },
    /// Request to send: the payload stays at `addr` in the sender until FIN, registered
    /// under remote keys `rkey` (none: not registered, so it cannot be read); with
    /// `FLAG_RUNS`, `addr` is a table of `entries` (addr, len) runs that hold it
    /// (`entries` is 0 otherwise), itself registered under `table_rkey`.
    Rts {
        hdr: MatchHeader,
        addr: u64,
        rkey: RemoteKeys,
        entries: u64,
        table_rkey: RemoteKeys,
    },
    /// The receiver has read the payload (RGET done); the sender's request completes.
    Fin { sender_req: u64 },
    /// An eager synchronous send was matched.
    SyncAck { sender_req: u64 },
    /// Flow control: the receiver holds too many unexpected eager bytes from us (`on`:
    /// send payloads by rendezvous, so they wait in our memory until matched), or no
    /// longer (`!on`: eager again).
    Throttle { on: bool },
    /// Clear to send: the sender streams the payload (copy path when RDMA is unavailable).
    Cts { sender_req: u64, receiver_req: u64 },
    /// A piece of a streamed rendezvous payload.
    RndvData {
        receiver_req: u64,
        offset: u64,
        payload: &'a [u8],
    },
    /// Split rendezvous: the receiver asks the sender to RDMA-write bytes
    /// `[offset, offset + len)` of its message to `addr` (registered under `rkey`) while it
    /// reads the rest itself.
    PutReq {
        sender_req: u64,
        receiver_req: u64,
        offset: u64,
        len: u64,
        addr: u64,
        rkey: RemoteKeys,
        /// Nonzero: the receiver would rather be told by the write itself (its rail's
        /// notice with this word) than by PUT_DONE (see `WriteAsk`).
        note: u32,
    },
    /// The sender's part of a split rendezvous is written (`ok`) or could not be.
    PutDone { receiver_req: u64, ok: bool },
    /// Pipeline (Woodall 2006, §4): the MATCH header with the first part of the message
    /// (bytes `[0, payload.len())`); `hdr.len` is the whole length.
    PipeRts { hdr: MatchHeader, payload: &'a [u8] },
    /// Pipeline, receiver → sender on match: stream `[eager part, rdma_offset)` as
    /// RNDV_DATA, leave `[rdma_offset, limit)` to RDMA blocks, skip the rest (truncation).
    PipeAck {
        sender_req: u64,
        receiver_req: u64,
        rdma_offset: u64,
        limit: u64,
    },
    /// Pipeline, receiver → sender: block `[offset, offset + len)` of the message is
    /// registered at `addr` in the receiver, under `rkey`; write it.
    PipeReady {
        sender_req: u64,
        receiver_req: u64,
        offset: u64,
        len: u64,
        addr: u64,
        rkey: RemoteKeys,
        /// As for PUT_REQ, instead of PIPE_FIN.
        note: u32,
    },
    /// Pipeline, sender → receiver: the block is written (`ok`), or could not be and comes
    /// as RNDV_DATA instead.
    PipeFin {
        receiver_req: u64,
        offset: u64,
        len: u64,
        ok: bool,
    },
}

/// EAGER header without / with the sender's request id (only synchronous sends carry it).
pub const EAGER_HEADER: usize = 16;
pub const EAGER_SYNC_HEADER: usize = 24;
/// RTS without keys (each slot's key adds 8 bytes; the run variant adds its entry count
/// and the table's keys).
const RTS_BASE: usize = 40;
/// Largest RTS (runs, keys for every slot).
pub const RTS_MAX: usize = RTS_BASE + 8 + 2 * RemoteKeys::LEN;
pub const RNDV_DATA_HEADER: usize = 24;
/// PIPE_RTS header (the MATCH header); the eager part follows.
pub const PIPE_RTS_HEADER: usize = 32;
/// PUT_REQ and PIPE_READY without keys.
const KEYED_CONTROL: usize = 48;
/// Largest control packet (PUT_REQ, PIPE_READY with keys for every slot).
pub const MAX_CONTROL: usize = KEYED_CONTROL + RemoteKeys::LEN;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireError {
    Truncated,
    UnknownKind(u8),
    /// A key set naming a domain slot that does not exist.
    BadSlots(u8),
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::Truncated => write!(f, "truncated packet"),
            WireError::UnknownKind(k) => write!(f, "unknown packet kind {k}"),
            WireError::BadSlots(b) => write!(f, "key set {b:#x} names no domain slot"),
        }
    }
}

fn put_match(b: &mut [u8], kind: u8, h: &MatchHeader) {
    b[0] = kind;
    b[1] = h.flags;
    b[2..4].fill(0);
    b[4..8].copy_from_slice(&h.ctx.to_le_bytes());
    b[8..12].copy_from_slice(&h.src.to_le_bytes());
    b[12..16].copy_from_slice(&h.tag.to_le_bytes());
    b[16..24].copy_from_slice(&h.len.to_le_bytes());
    b[24..32].copy_from_slice(&h.sender_req.to_le_bytes());
}

/// Header of an EAGER packet and its length; the payload follows it in the same rail
/// message, and its length is the rest of the message (`h.len` is not sent).
///
/// Built as whole 64-bit words: the rail copies the header with 8-byte loads right after,
/// and a load spanning several narrower stores stalls store forwarding (most of a
/// sender's time at high message rates).
#[inline(always)]
pub fn eager_header(h: &MatchHeader) -> ([u8; EAGER_SYNC_HEADER], usize) {
    let mut b = [0u8; EAGER_SYNC_HEADER];
    let w0 = KIND_EAGER as u64 | (h.flags as u64) << 8 | (h.ctx as u64) << 32;
    let w1 = h.src as u32 as u64 | (h.tag as u32 as u64) << 32;
    b[0..8].copy_from_slice(&w0.to_le_bytes());
    b[8..16].copy_from_slice(&w1.to_le_bytes());
    if h.flags & FLAG_SYNC != 0 {
        b[16..24].copy_from_slice(&h.sender_req.to_le_bytes());
        (b, EAGER_SYNC_HEADER)
    } else {
        (b, EAGER_HEADER)
    }
}

/// RTS for a contiguous payload at `addr`, under `rkey`'s keys for `slots`; its length.
pub fn rts(
    h: &MatchHeader,
    addr: u64,
    slots: SlotSet,
    rkey: &RemoteKeys,
) -> ([u8; RTS_MAX], usize) {
    let mut b = [0u8; RTS_MAX];
    put_match(&mut b, KIND_RTS, h);
    b[2] = slots.bits();
    b[32..40].copy_from_slice(&addr.to_le_bytes());
    let n = rkey.put(slots, &mut b[RTS_BASE..]);
    (b, RTS_BASE + n)
}

/// RTS for a non-contiguous payload: `table` (under `table_rkey`) holds `entries` runs
/// (see `buffer::Run`), which lie in memory registered under `rkey`.
pub fn rts_runs(
    h: &MatchHeader,
    table: u64,
    table_rkey: &RemoteKeys,
    entries: u64,
    slots: SlotSet,
    rkey: &RemoteKeys,
) -> ([u8; RTS_MAX], usize) {
    let h = MatchHeader {
        flags: h.flags | FLAG_RUNS,
        ..*h
    };
    let (mut b, n) = rts(&h, table, slots, rkey);
    b[n..n + 8].copy_from_slice(&entries.to_le_bytes());
    let m = table_rkey.put(slots, &mut b[n + 8..]);
    (b, n + 8 + m)
}

fn two_words(kind: u8, a: u64, b: Option<u64>) -> ([u8; MAX_CONTROL], usize) {
    let mut p = [0u8; MAX_CONTROL];
    p[0] = kind;
    p[8..16].copy_from_slice(&a.to_le_bytes());
    match b {
        Some(b) => {
            p[16..24].copy_from_slice(&b.to_le_bytes());
            (p, 24)
        }
        None => (p, 16),
    }
}

pub fn fin(sender_req: u64) -> ([u8; MAX_CONTROL], usize) {
    two_words(KIND_FIN, sender_req, None)
}
pub fn throttle(on: bool) -> ([u8; MAX_CONTROL], usize) {
    let (mut p, n) = two_words(KIND_THROTTLE, 0, None);
    p[1] = on as u8;
    (p, n)
}
pub fn sync_ack(sender_req: u64) -> ([u8; MAX_CONTROL], usize) {
    two_words(KIND_SYNC_ACK, sender_req, None)
}
pub fn cts(sender_req: u64, receiver_req: u64) -> ([u8; MAX_CONTROL], usize) {
    two_words(KIND_CTS, sender_req, Some(receiver_req))
}

/// What PUT_REQ and PIPE_READY ask of a sender: write bytes `[offset, offset + len)` of
/// send `sender_req` to `addr` in the receiver, for receive `receiver_req`. A nonzero
/// `note`: if its rail can, the write carries it as a notice (RDMA write with immediate
/// data), which the receiver takes for PUT_DONE / PIPE_FIN — one message less, and the
/// receiver learns of the data as it lands rather than half a round trip after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteAsk {
    pub sender_req: u64,
    pub receiver_req: u64,
    pub offset: u64,
    pub len: u64,
    pub addr: u64,
    pub note: u32,
}

pub fn put_req(a: &WriteAsk, slots: SlotSet, rkey: &RemoteKeys) -> ([u8; MAX_CONTROL], usize) {
    keyed(KIND_PUT_REQ, a, slots, rkey)
}

/// A write request (five words and the note) naming registered memory, with its keys for
/// `slots`.
fn keyed(kind: u8, a: &WriteAsk, slots: SlotSet, rkey: &RemoteKeys) -> ([u8; MAX_CONTROL], usize) {
    let w = [a.sender_req, a.receiver_req, a.offset, a.len, a.addr];
    let (mut p, n) = words(kind, 0, &w);
    debug_assert_eq!(n, KEYED_CONTROL);
    p[2] = slots.bits();
    p[4..8].copy_from_slice(&a.note.to_le_bytes());
    let k = rkey.put(slots, &mut p[KEYED_CONTROL..]);
    (p, n + k)
}

pub fn put_done(receiver_req: u64, ok: bool) -> ([u8; MAX_CONTROL], usize) {
    let (mut p, n) = two_words(KIND_PUT_DONE, receiver_req, None);
    p[1] = ok as u8;
    (p, n)
}

/// Header of a PIPE_RTS; the eager part of the message follows it in the same rail
/// message.
pub fn pipe_rts_header(h: &MatchHeader) -> [u8; PIPE_RTS_HEADER] {
    let mut b = [0u8; PIPE_RTS_HEADER];
    put_match(&mut b, KIND_PIPE_RTS, h);
    b
}

fn words(kind: u8, flags: u8, w: &[u64]) -> ([u8; MAX_CONTROL], usize) {
    let mut p = [0u8; MAX_CONTROL];
    p[0] = kind;
    p[1] = flags;
    for (i, v) in w.iter().enumerate() {
        p[8 + 8 * i..16 + 8 * i].copy_from_slice(&v.to_le_bytes());
    }
    (p, 8 + 8 * w.len())
}

pub fn pipe_ack(
    sender_req: u64,
    receiver_req: u64,
    rdma_offset: u64,
    limit: u64,
) -> ([u8; MAX_CONTROL], usize) {
    words(
        KIND_PIPE_ACK,
        0,
        &[sender_req, receiver_req, rdma_offset, limit],
    )
}

pub fn pipe_ready(a: &WriteAsk, slots: SlotSet, rkey: &RemoteKeys) -> ([u8; MAX_CONTROL], usize) {
    keyed(KIND_PIPE_READY, a, slots, rkey)
}

pub fn pipe_fin(receiver_req: u64, offset: u64, len: u64, ok: bool) -> ([u8; MAX_CONTROL], usize) {
    words(KIND_PIPE_FIN, ok as u8, &[receiver_req, offset, len])
}

pub fn rndv_data_header(receiver_req: u64, offset: u64) -> [u8; RNDV_DATA_HEADER] {
    let mut b = [0u8; RNDV_DATA_HEADER];
    b[0] = KIND_RNDV_DATA;
    b[8..16].copy_from_slice(&receiver_req.to_le_bytes());
    b[16..24].copy_from_slice(&offset.to_le_bytes());
    b
}

fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(b[o..o + 4].try_into().unwrap())
}
fn i32_at(b: &[u8], o: usize) -> i32 {
    i32::from_le_bytes(b[o..o + 4].try_into().unwrap())
}
fn u64_at(b: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(b[o..o + 8].try_into().unwrap())
}

fn need(b: &[u8], n: usize) -> Result<(), WireError> {
    if b.len() < n {
        Err(WireError::Truncated)
    } else {
        Ok(())
    }
}

/// The slot set in byte 2 of a keyed packet.
fn slots_at(b: &[u8]) -> Result<SlotSet, WireError> {
    SlotSet::from_bits(b[2]).ok_or(WireError::BadSlots(b[2]))
}

/// The keys of `slots` at `b[o..]`.
fn keys_at(b: &[u8], o: usize, slots: SlotSet) -> Result<RemoteKeys, WireError> {
    RemoteKeys::take(slots, b.get(o..).unwrap_or_default()).ok_or(WireError::Truncated)
}

fn get_match(b: &[u8]) -> MatchHeader {
    MatchHeader {
        flags: b[1],
        ctx: u32_at(b, 4),
        src: i32_at(b, 8),
        tag: i32_at(b, 12),
        len: u64_at(b, 16),
        sender_req: u64_at(b, 24),
    }
}

/// Inlined into its one caller: a packet returned through memory is written field by field
/// and read back with wider loads, a store-forwarding stall on every message.
#[inline(always)]
pub fn decode(b: &[u8]) -> Result<Packet<'_>, WireError> {
    need(b, 1)?;
    match b[0] {
        KIND_EAGER => {
            need(b, EAGER_HEADER)?;
            let flags = b[1];
            let (sender_req, start) = if flags & FLAG_SYNC != 0 {
                need(b, EAGER_SYNC_HEADER)?;
                (u64_at(b, 16), EAGER_SYNC_HEADER)
            } else {
                (0, EAGER_HEADER)
            };
            let payload = &b[start..];
            let hdr = MatchHeader {
                flags,
                ctx: u32_at(b, 4),
                src: i32_at(b, 8),
                tag: i32_at(b, 12),
                len: payload.len() as u64,
                sender_req,
            };
            Ok(Packet::Eager { hdr, payload })
        }
        KIND_RTS => {
            need(b, RTS_BASE)?;
            let hdr = get_match(b);
            let slots = slots_at(b)?;
            let rkey = keys_at(b, RTS_BASE, slots)?;
            let n = RTS_BASE + 8 * slots.len();
            let (entries, table_rkey) = if hdr.flags & FLAG_RUNS != 0 {
                need(b, n + 8)?;
                (u64_at(b, n), keys_at(b, n + 8, slots)?)
            } else {
                (0, RemoteKeys::NONE)
            };
            Ok(Packet::Rts {
                hdr,
                addr: u64_at(b, 32),
                rkey,
                entries,
                table_rkey,
            })
        }
        KIND_FIN => {
            need(b, 16)?;
            Ok(Packet::Fin {
                sender_req: u64_at(b, 8),
            })
        }
        KIND_SYNC_ACK => {
            need(b, 16)?;
            Ok(Packet::SyncAck {
                sender_req: u64_at(b, 8),
            })
        }
        KIND_THROTTLE => {
            need(b, 16)?;
            Ok(Packet::Throttle { on: b[1] != 0 })
        }
        KIND_CTS => {
            need(b, 24)?;
            Ok(Packet::Cts {
                sender_req: u64_at(b, 8),
                receiver_req: u64_at(b, 16),
            })
        }
        KIND_RNDV_DATA => {
            need(b, RNDV_DATA_HEADER)?;
            Ok(Packet::RndvData {
                receiver_req: u64_at(b, 8),
                offset: u64_at(b, 16),
                payload: &b[RNDV_DATA_HEADER..],
            })
        }
        KIND_PUT_REQ => {
            need(b, KEYED_CONTROL)?;
            Ok(Packet::PutReq {
                sender_req: u64_at(b, 8),
                receiver_req: u64_at(b, 16),
                offset: u64_at(b, 24),
                len: u64_at(b, 32),
                addr: u64_at(b, 40),
                rkey: keys_at(b, KEYED_CONTROL, slots_at(b)?)?,
                note: u32_at(b, 4),
            })
        }
        KIND_PUT_DONE => {
            need(b, 16)?;
            Ok(Packet::PutDone {
                receiver_req: u64_at(b, 8),
                ok: b[1] != 0,
            })
        }
        KIND_PIPE_RTS => {
            need(b, PIPE_RTS_HEADER)?;
            Ok(Packet::PipeRts {
                hdr: get_match(b),
                payload: &b[PIPE_RTS_HEADER..],
            })
        }
        KIND_PIPE_ACK => {
            need(b, 40)?;
            Ok(Packet::PipeAck {
                sender_req: u64_at(b, 8),
                receiver_req: u64_at(b, 16),
                rdma_offset: u64_at(b, 24),
                limit: u64_at(b, 32),
            })
        }
        KIND_PIPE_READY => {
            need(b, KEYED_CONTROL)?;
            Ok(Packet::PipeReady {
                sender_req: u64_at(b, 8),
                receiver_req: u64_at(b, 16),
                offset: u64_at(b, 24),
                len: u64_at(b, 32),
                addr: u64_at(b, 40),
                rkey: keys_at(b, KEYED_CONTROL, slots_at(b)?)?,
                note: u32_at(b, 4),
            })
        }
        KIND_PIPE_FIN => {
            need(b, 32)?;
            Ok(Packet::PipeFin {
                receiver_req: u64_at(b, 8),
                offset: u64_at(b, 16),
                len: u64_at(b, 24),
                ok: b[1] != 0,
            })
        }
        k => Err(WireError::UnknownKind(k)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::{slot, RemoteKey};

    /// Every slot's key: `base` plus the slot.
    fn keys(base: u64) -> RemoteKeys {
        RemoteKeys(std::array::from_fn(|s| RemoteKey(base + s as u64)))
    }

    /// What a peer decodes from `keys(base)` sent for `slots`.
    fn only(slots: SlotSet, base: u64) -> RemoteKeys {
        let mut k = RemoteKeys::NONE;
        for s in slots.iter() {
            k.0[s] = RemoteKey(base + s as u64);
        }
        k
    }

    fn two_ports() -> SlotSet {
        SlotSet::one(slot::VERBS).with(slot::VERBS + 1)
    }

    fn ask(note: u32) -> WriteAsk {
        WriteAsk {
            sender_req: 1,
            receiver_req: 2,
            offset: 3,
            len: 4,
            addr: 5,
            note,
        }
    }

    fn hdr() -> MatchHeader {
        MatchHeader {
            ctx: 4,
            src: 3,
            tag: -7,
            len: 5,
            sender_req: 0x1_0000_0002,
            flags: FLAG_SYNC,
        }
    }

    #[test]
    fn round_trips() {
        let (h, n) = eager_header(&hdr());
        let mut m = h[..n].to_vec();
        m.extend_from_slice(b"hello");
        assert_eq!(
            decode(&m).unwrap(),
            Packet::Eager {
                hdr: hdr(),
                payload: b"hello"
            }
        );
        let plain = MatchHeader {
            flags: 0,
            sender_req: 0,
            len: 0,
            ..hdr()
        };
        let (h, n) = eager_header(&plain);
        assert_eq!(n, EAGER_HEADER);
        assert_eq!(
            decode(&h[..n]).unwrap(),
            Packet::Eager {
                hdr: plain,
                payload: b""
            }
        );
        // One slot: the key takes 8 bytes.
        let (b, n) = rts(
            &hdr(),
            0xdead,
            SlotSet::one(slot::SHM),
            &keys(0x5_0000_0003),
        );
        assert_eq!(n, RTS_BASE + 8);
        assert_eq!(
            decode(&b[..n]).unwrap(),
            Packet::Rts {
                hdr: hdr(),
                addr: 0xdead,
                rkey: RemoteKeys::one(slot::SHM, RemoteKey(0x5_0000_0003)),
                entries: 0,
                table_rkey: RemoteKeys::NONE
            }
        );
        // Two verbs ports: a key each, for the payload and for the table; the slots not
        // named stay empty.
        let (b, n) = rts_runs(&hdr(), 0xbeef, &keys(77), 3000, two_ports(), &keys(78));
        assert_eq!(n, RTS_BASE + 16 + 8 + 16);
        assert_eq!(
            decode(&b[..n]).unwrap(),
            Packet::Rts {
                hdr: MatchHeader {
                    flags: FLAG_SYNC | FLAG_RUNS,
                    ..hdr()
                },
                addr: 0xbeef,
                rkey: only(two_ports(), 78),
                entries: 3000,
                table_rkey: only(two_ports(), 77)
            }
        );
        let (c, n) = cts(9, 11);
        assert_eq!(
            decode(&c[..n]).unwrap(),
            Packet::Cts {
                sender_req: 9,
                receiver_req: 11
            }
        );
        let (p, n) = put_req(&ask(0xfeed_0001), two_ports(), &keys(6));
        assert_eq!(
            decode(&p[..n]).unwrap(),
            Packet::PutReq {
                sender_req: 1,
                receiver_req: 2,
                offset: 3,
                len: 4,
                addr: 5,
                rkey: only(two_ports(), 6),
                note: 0xfeed_0001,
            }
        );
        assert!(decode(&p[..n - 1]).is_err());
        let (p, n) = put_done(7, true);
        assert_eq!(
            decode(&p[..n]).unwrap(),
            Packet::PutDone {
                receiver_req: 7,
                ok: true
            }
        );
        let (f, n) = fin(9);
        assert_eq!(decode(&f[..n]).unwrap(), Packet::Fin { sender_req: 9 });
        let mut d = rndv_data_header(3, 4096).to_vec();
        d.extend_from_slice(&[1, 2]);
        assert_eq!(
            decode(&d).unwrap(),
            Packet::RndvData {
                receiver_req: 3,
                offset: 4096,
                payload: &[1, 2]
            }
        );
    }

    #[test]
    fn pipeline_packets_round_trip() {
        let mut m = pipe_rts_header(&hdr()).to_vec();
        m.extend_from_slice(b"abc");
        assert_eq!(
            decode(&m).unwrap(),
            Packet::PipeRts {
                hdr: hdr(),
                payload: b"abc"
            }
        );
        assert!(decode(&m[..PIPE_RTS_HEADER - 1]).is_err());
        let (p, n) = pipe_ack(1, 2, 3, 4);
        assert_eq!(
            decode(&p[..n]).unwrap(),
            Packet::PipeAck {
                sender_req: 1,
                receiver_req: 2,
                rdma_offset: 3,
                limit: 4
            }
        );
        assert!(decode(&p[..n - 1]).is_err());
        let every = (0..slot::COUNT).fold(SlotSet::default(), |s, k| s.with(k));
        let (p, n) = pipe_ready(&ask(7), every, &keys(6));
        assert_eq!(n, MAX_CONTROL);
        assert_eq!(
            decode(&p[..n]).unwrap(),
            Packet::PipeReady {
                sender_req: 1,
                receiver_req: 2,
                offset: 3,
                len: 4,
                addr: 5,
                rkey: keys(6),
                note: 7,
            }
        );
        assert!(decode(&p[..n - 1]).is_err());
        let (p, n) = pipe_fin(7, 8, 9, true);
        assert_eq!(
            decode(&p[..n]).unwrap(),
            Packet::PipeFin {
                receiver_req: 7,
                offset: 8,
                len: 9,
                ok: true
            }
        );
        assert!(decode(&p[..n - 1]).is_err());
    }

    #[test]
    fn rejects_malformed() {
        assert_eq!(decode(&[]), Err(WireError::Truncated));
        assert_eq!(decode(&[99, 0, 0]), Err(WireError::UnknownKind(99)));
        let (b, n) = rts(&hdr(), 1, two_ports(), &keys(2));
        assert_eq!(decode(&b[..n - 1]), Err(WireError::Truncated));
        // A run-table RTS without its entry count and table keys.
        let (b, n) = rts_runs(&hdr(), 1, &keys(2), 3, two_ports(), &keys(4));
        assert_eq!(decode(&b[..n - 16]), Err(WireError::Truncated));
        assert_eq!(decode(&b[..n - 24]), Err(WireError::Truncated));
        // A slot set naming slots that do not exist.
        let (mut b, n) = rts(&hdr(), 1, two_ports(), &keys(2));
        b[2] = 0x80;
        assert_eq!(decode(&b[..n]), Err(WireError::BadSlots(0x80)));
        let (mut p, n) = put_req(&ask(0), two_ports(), &keys(6));
        p[2] |= 1 << slot::COUNT;
        assert!(matches!(decode(&p[..n]), Err(WireError::BadSlots(_))));
        // A synchronous EAGER cut inside its sender id.
        let (h, _) = eager_header(&hdr());
        assert_eq!(decode(&h[..20]), Err(WireError::Truncated));
        for n in 0..16 {
            assert!(decode(&fin(1).0[..n]).is_err());
        }
    }
}
