//! What two groups tell each other when they join (checked parsers: the bytes come from
//! another job, over a socket).
//!
//! ```text
//! card    job u64 | rank u32 | family u8 (4, 6) | ip [16] | port u16 | host len u8 | host [63]
//! offer   n u32 | n cards                     connector's root → acceptor's root
//! answer  secret [32] | n u32 | n cards       acceptor's root → connector's root
//! verdict ok u8 = 1 | secret [32] | na u32 | nc u32 | nc cards | na cards
//!         ok u8 = 0 | class u8 | message      a root's failure, to its group
//! round   [8]                                 a root's part of a context agreement's round
//! ```
//! All little-endian. The context id is agreed after the verdict, the roots exchanging
//! each round of the agreement (`runtime::contexts`) on the same connection.

use super::Gpid;
use crate::fabric::tcp::Secret;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// One member of a joining group: who, on which host, and where its new tcp rail listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    pub gpid: Gpid,
    pub addr: SocketAddr,
    /// For messages only (cut to `HOST` bytes).
    pub host: String,
}

pub const CARD: usize = 96;
const HOST: usize = 63;

impl Card {
    pub fn encode(&self) -> [u8; CARD] {
        let mut b = [0u8; CARD];
        b[0..8].copy_from_slice(&self.gpid.job.to_le_bytes());
        b[8..12].copy_from_slice(&self.gpid.rank.to_le_bytes());
        match self.addr.ip() {
            IpAddr::V4(a) => {
                b[12] = 4;
                b[13..17].copy_from_slice(&a.octets());
            }
            IpAddr::V6(a) => {
                b[12] = 6;
                b[13..29].copy_from_slice(&a.octets());
            }
        }
        b[29..31].copy_from_slice(&self.addr.port().to_le_bytes());
        let mut host = self.host.as_bytes();
        if host.len() > HOST {
            host = &host[..HOST];
        }
        b[31] = host.len() as u8;
        b[32..32 + host.len()].copy_from_slice(host);
        b
    }

    pub fn decode(b: &[u8]) -> Option<Card> {
        if b.len() != CARD {
            return None;
        }
        let ip = match b[12] {
            4 => IpAddr::V4(Ipv4Addr::from(<[u8; 4]>::try_from(&b[13..17]).ok()?)),
            6 => IpAddr::V6(Ipv6Addr::from(<[u8; 16]>::try_from(&b[13..29]).ok()?)),
            _ => return None,
        };
        let port = u16::from_le_bytes([b[29], b[30]]);
        let n = b[31] as usize;
        if n > HOST {
            return None;
        }
        Some(Card {
            gpid: Gpid {
                job: u64::from_le_bytes(b[0..8].try_into().ok()?),
                rank: u32::from_le_bytes(b[8..12].try_into().ok()?),
            },
            addr: SocketAddr::new(ip, port),
            host: String::from_utf8_lossy(&b[32..32 + n]).into_owned(),
        })
    }
}

/// Reads little-endian fields off a byte string, refusing to run past its end.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn secret(&mut self) -> Option<Secret> {
        self.take(32)?.try_into().ok()
    }
    /// `n` cards (n checked against what is left before anything is allocated).
    fn cards(&mut self, n: u32) -> Option<Vec<Card>> {
        let n = n as usize;
        if self.0.len() / CARD < n {
            return None;
        }
        (0..n).map(|_| Card::decode(self.take(CARD)?)).collect()
    }
    fn end(&self) -> Option<()> {
        self.0.is_empty().then_some(())
    }
}

fn put_cards(v: &mut Vec<u8>, cards: &[Card]) {
    v.extend_from_slice(&(cards.len() as u32).to_le_bytes());
    for c in cards {
        v.extend_from_slice(&c.encode());
    }
}

/// The connector group's cards.
#[derive(Debug, PartialEq, Eq)]
pub struct Offer {
    pub cards: Vec<Card>,
}

impl Offer {
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::new();
        put_cards(&mut v, &self.cards);
        v
    }
    pub fn decode(b: &[u8]) -> Option<Offer> {
        let mut r = Reader(b);
        let n = r.u32()?;
        let cards = r.cards(n)?;
        r.end()?;
        Some(Offer { cards })
    }
}

/// The acceptor group's cards and the link's secret.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    pub secret: Secret,
    pub cards: Vec<Card>,
}

impl Answer {
    pub fn encode(&self) -> Vec<u8> {
        let mut v = self.secret.to_vec();
        put_cards(&mut v, &self.cards);
        v
    }
    pub fn decode(b: &[u8]) -> Option<Answer> {
        let mut r = Reader(b);
        let secret = r.secret()?;
        let n = r.u32()?;
        let cards = r.cards(n)?;
        r.end()?;
        Some(Answer { secret, cards })
    }
}

/// What a root tells its group: the joined groups, or why it failed.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Joined {
        secret: Secret,
        acceptors: Vec<Card>,
        connectors: Vec<Card>,
    },
    /// An MPI error class (`ErrorClass` by its position in `ErrorClass::ALL`) and a message.
    Failed { class: u8, msg: String },
}

impl Verdict {
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Verdict::Joined {
                secret,
                acceptors,
                connectors,
            } => {
                let mut v = vec![1u8];
                v.extend_from_slice(secret);
                v.extend_from_slice(&(acceptors.len() as u32).to_le_bytes());
                put_cards(&mut v, connectors);
                for c in acceptors {
                    v.extend_from_slice(&c.encode());
                }
                v
            }
            Verdict::Failed { class, msg } => {
                let mut v = vec![0u8, *class];
                v.extend_from_slice(msg.as_bytes());
                v
            }
        }
    }

    pub fn decode(b: &[u8]) -> Option<Verdict> {
        let mut r = Reader(b);
        match r.u8()? {
            1 => {
                let secret = r.secret()?;
                let na = r.u32()?;
                let nc = r.u32()?;
                let connectors = r.cards(nc)?;
                let acceptors = r.cards(na)?;
                r.end()?;
                Some(Verdict::Joined {
                    secret,
                    acceptors,
                    connectors,
                })
            }
            0 => {
                let class = r.u8()?;
                Some(Verdict::Failed {
                    class,
                    msg: String::from_utf8_lossy(r.0).into_owned(),
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(rank: u32, addr: &str, host: &str) -> Card {
        Card {
            gpid: Gpid {
                job: 0xdead_beef_0000_0001,
                rank,
            },
            addr: addr.parse().unwrap(),
            host: host.into(),
        }
    }

    #[test]
    fn messages_round_trip() {
        let a = vec![card(0, "10.0.0.1:4000", "a"), card(1, "[::1]:5", "b")];
        let c = vec![card(7, "127.0.0.1:1", &"h".repeat(80))];
        let offer = Offer { cards: c.clone() };
        let got = Offer::decode(&offer.encode()).unwrap();
        assert_eq!(got.cards[0].host.len(), HOST, "long host names are cut");
        let answer = Answer {
            secret: [3; 32],
            cards: a.clone(),
        };
        assert_eq!(Answer::decode(&answer.encode()), Some(answer));
        let v = Verdict::Joined {
            secret: [4; 32],
            acceptors: a,
            connectors: vec![card(7, "127.0.0.1:1", "c")],
        };
        assert_eq!(Verdict::decode(&v.encode()), Some(v));
        let f = Verdict::Failed {
            class: 3,
            msg: "no".into(),
        };
        assert_eq!(Verdict::decode(&f.encode()), Some(f));
    }

    #[test]
    fn bad_bytes_are_refused() {
        let offer = Offer {
            cards: vec![card(0, "10.0.0.1:4000", "a")],
        }
        .encode();
        // Truncated, extended, and a count larger than the bytes.
        assert!(Offer::decode(&offer[..offer.len() - 1]).is_none());
        let mut long = offer.clone();
        long.push(0);
        assert!(Offer::decode(&long).is_none());
        let mut lying = offer.clone();
        lying[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Offer::decode(&lying).is_none());
        // A bad address family, a host length past its field.
        let mut b = card(0, "10.0.0.1:4000", "a").encode();
        b[12] = 5;
        assert!(Card::decode(&b).is_none());
        let mut b = card(0, "10.0.0.1:4000", "a").encode();
        b[31] = 64;
        assert!(Card::decode(&b).is_none());
        assert!(Verdict::decode(&[2]).is_none());
        assert!(Verdict::decode(&[]).is_none());
    }
}
