//! The tcp rail's frames: a fixed 48-byte header, then `len` payload bytes.
//!
//! Untagged frames (`Msg`) go to the peer's receive path. Tagged frames carry a steering
//! tag (the target's remote key), a target address and a length, and the target places
//! the payload straight into the registered region after checking the tag (compare the
//! DDP/RDMAP headers of RFC 5041/5040, and libfabric's tcp provider). Reads are requests
//! the target answers with tagged data into the origin's sink; atomics run at the target.
//!
//! Every field is decoded with checks: a header that does not parse (unknown kind, flags
//! or a length over the limit for its kind) ends the connection; it never sizes a buffer.

/// Bytes of every header.
pub const HEADER: usize = 48;
/// Largest untagged message (the rail's `max_message`).
pub const MAX_MESSAGE: usize = 256 * 1024 + 256;
/// Largest payload of one tagged frame: transfers are cut into segments of at most this
/// many bytes, so that several transfers interleave on one connection.
pub const SEGMENT: usize = 256 * 1024;
/// Largest handshake payload.
pub const MAX_HANDSHAKE: usize = 128;

/// The last frame of a transfer: the target answers it (ack, read data, or a refusal).
pub const FLAG_LAST: u8 = 1;
/// Atomic: compare-and-swap (else fetch-and-add).
pub const FLAG_CAS: u8 = 2;
const FLAGS_KNOWN: u8 = FLAG_LAST | FLAG_CAS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Connector → acceptor: version, rank, nonce.
    Hello = 1,
    /// Acceptor → connector: rank, nonce, proof of the secret.
    Challenge = 2,
    /// Connector → acceptor: proof of the secret.
    Proof = 3,
    /// An untagged message; `arg` holds the immediate word.
    Msg = 4,
    /// Tagged write of the payload at `addr` under `key`.
    Write = 5,
    /// Read `arg` bytes at `addr` under `key`; answered with `ReadData` for origin
    /// offset `off`.
    ReadReq = 6,
    /// Read data for the origin's operation `op`, at offset `off` of its sink.
    ReadData = 7,
    /// 64-bit atomic on the word at `addr`: `arg` is the addend or the compare value,
    /// `off` the swap value.
    Atomic = 8,
    /// The word's previous value (`arg`) for atomic `op`.
    AtomicResp = 9,
    /// Operation `op` completed at the target.
    Ack = 10,
    /// Operation `op` was refused; `arg` is the reason (`Refusal`).
    Nak = 11,
    /// The sender leaves (finalize): no more frames follow.
    Bye = 12,
    /// A request for the target's service thread (`fabric::Service`), ticket `op`.
    Request = 13,
    /// The target's service thread served every request up to ticket `op`.
    Served = 14,
    /// Acceptor → connector, after a valid proof: the acceptor keeps this connection (it
    /// may drop it instead for its own dial in a simultaneous connect).
    Welcome = 15,
}

impl Kind {
    fn from_u8(v: u8) -> Option<Kind> {
        Some(match v {
            1 => Kind::Hello,
            2 => Kind::Challenge,
            3 => Kind::Proof,
            4 => Kind::Msg,
            5 => Kind::Write,
            6 => Kind::ReadReq,
            7 => Kind::ReadData,
            8 => Kind::Atomic,
            9 => Kind::AtomicResp,
            10 => Kind::Ack,
            11 => Kind::Nak,
            12 => Kind::Bye,
            13 => Kind::Request,
            14 => Kind::Served,
            15 => Kind::Welcome,
            _ => return None,
        })
    }

    /// Largest payload a frame of this kind may carry.
    fn max_len(self) -> usize {
        match self {
            Kind::Hello | Kind::Challenge | Kind::Proof => MAX_HANDSHAKE,
            Kind::Msg => MAX_MESSAGE,
            Kind::Request => crate::fabric::service::REQUEST,
            Kind::Write | Kind::ReadData => SEGMENT,
            Kind::Atomic
            | Kind::ReadReq
            | Kind::AtomicResp
            | Kind::Ack
            | Kind::Nak
            | Kind::Bye
            | Kind::Served
            | Kind::Welcome => 0,
        }
    }
}

/// Why a target refused a tagged operation (the `arg` of a `Nak`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u64)]
pub enum Refusal {
    /// A key the target never issued (forged).
    Unknown = 1,
    /// Outside the registered range.
    Range = 2,
    /// The registration does not grant the access.
    Rights = 3,
    /// The memory could not be reached (unmapped).
    Fault = 4,
    /// Bad request (a read longer than a segment, a misaligned atomic word).
    Bad = 5,
    /// A key of a registration released since (deregistered memory).
    Stale = 6,
}

impl Refusal {
    pub fn from_u64(v: u64) -> Refusal {
        match v {
            1 => Refusal::Unknown,
            2 => Refusal::Range,
            3 => Refusal::Rights,
            4 => Refusal::Fault,
            6 => Refusal::Stale,
            _ => Refusal::Bad,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub kind: Kind,
    pub flags: u8,
    /// Payload bytes after the header.
    pub len: u32,
    /// The origin's operation id (echoed in answers).
    pub op: u64,
    pub key: u64,
    pub addr: u64,
    pub arg: u64,
    pub off: u64,
}

/// Why a header does not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadHeader {
    Kind(u8),
    Flags(u8),
    Length { kind: Kind, len: u32 },
}

impl std::fmt::Display for BadHeader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadHeader::Kind(k) => write!(f, "unknown frame kind {k}"),
            BadHeader::Flags(x) => write!(f, "unknown frame flags {x:#x}"),
            BadHeader::Length { kind, len } => write!(f, "{kind:?} frame of {len} bytes"),
        }
    }
}

impl Header {
    pub fn new(kind: Kind) -> Header {
        Header {
            kind,
            flags: 0,
            len: 0,
            op: 0,
            key: 0,
            addr: 0,
            arg: 0,
            off: 0,
        }
    }

    pub fn encode(&self) -> [u8; HEADER] {
        let mut b = [0u8; HEADER];
        b[0] = self.kind as u8;
        b[1] = self.flags;
        b[4..8].copy_from_slice(&self.len.to_le_bytes());
        b[8..16].copy_from_slice(&self.op.to_le_bytes());
        b[16..24].copy_from_slice(&self.key.to_le_bytes());
        b[24..32].copy_from_slice(&self.addr.to_le_bytes());
        b[32..40].copy_from_slice(&self.arg.to_le_bytes());
        b[40..48].copy_from_slice(&self.off.to_le_bytes());
        b
    }

    pub fn decode(b: &[u8; HEADER]) -> Result<Header, BadHeader> {
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let kind = Kind::from_u8(b[0]).ok_or(BadHeader::Kind(b[0]))?;
        let flags = b[1];
        if flags & !FLAGS_KNOWN != 0 || b[2] != 0 || b[3] != 0 {
            return Err(BadHeader::Flags(flags));
        }
        let len = u32::from_le_bytes(b[4..8].try_into().expect("4 bytes"));
        if len as usize > kind.max_len() {
            return Err(BadHeader::Length { kind, len });
        }
        Ok(Header {
            kind,
            flags,
            len,
            op: u64_at(8),
            key: u64_at(16),
            addr: u64_at(24),
            arg: u64_at(32),
            off: u64_at(40),
        })
    }

    pub fn last(&self) -> bool {
        self.flags & FLAG_LAST != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_round_trip() {
        let h = Header {
            kind: Kind::Write,
            flags: FLAG_LAST,
            len: 4096,
            op: 7,
            key: 0x1_0000_0003,
            addr: 0x7fff_0000_1000,
            arg: 9,
            off: 11,
        };
        assert_eq!(Header::decode(&h.encode()), Ok(h));
    }

    #[test]
    fn malformed_headers_are_refused() {
        let mut b = Header::new(Kind::Msg).encode();
        b[0] = 0;
        assert_eq!(Header::decode(&b), Err(BadHeader::Kind(0)));
        let mut b = Header::new(Kind::Msg).encode();
        b[1] = 0x80;
        assert!(matches!(Header::decode(&b), Err(BadHeader::Flags(_))));
        let mut h = Header::new(Kind::Msg);
        h.len = MAX_MESSAGE as u32 + 1;
        assert!(matches!(
            Header::decode(&h.encode()),
            Err(BadHeader::Length { .. })
        ));
        let mut h = Header::new(Kind::Ack);
        h.len = 1;
        assert!(Header::decode(&h.encode()).is_err());
    }

    /// Random and mutated headers: decoding never panics, and whatever decodes respects
    /// its kind's length limit and re-encodes to the same bytes.
    #[test]
    fn fuzzed_headers_decode_safely() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let seeds: Vec<[u8; HEADER]> = [Kind::Msg, Kind::Write, Kind::ReadReq, Kind::Atomic]
            .iter()
            .map(|&k| {
                let mut h = Header::new(k);
                h.len = if k.max_len() > 0 { 100 } else { 0 };
                h.encode()
            })
            .collect();
        for i in 0..200_000 {
            let mut b = [0u8; HEADER];
            if i % 2 == 0 {
                for c in b.chunks_mut(8) {
                    c.copy_from_slice(&rnd().to_le_bytes()[..c.len()]);
                }
                b[0] %= 16;
                if i % 4 == 0 {
                    b[1] = 0;
                    b[2] = 0;
                    b[3] = 0;
                }
            } else {
                b = seeds[(rnd() % seeds.len() as u64) as usize];
                for _ in 0..1 + rnd() % 4 {
                    let at = (rnd() % HEADER as u64) as usize;
                    b[at] ^= 1 << (rnd() % 8);
                }
            }
            if let Ok(h) = Header::decode(&b) {
                assert!(h.len as usize <= h.kind.max_len());
                assert_eq!(h.encode(), b);
            }
        }
    }
}
