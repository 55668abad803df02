//! Connections on demand, as a sans-I/O state machine: the rail feeds it what it wants
//! (`want`) and what rdma_cm reported (`on_request`, `on_established`, …); it answers with
//! `Action`s for the rail to carry out. No verbs call happens here, so every race of two
//! ranks connecting is tested with plain values.
//!
//! A connect request carries, as rdma_cm private data, the dialer's rank, the rank it
//! wants, the rail, a fresh nonce and an HMAC over them under the job's secret: an acceptor
//! takes only requests that prove the secret, name it, and bring a nonce it has not seen
//! (a replayed request is refused). When two ranks dial each other at once, the lower
//! rank's dial stays (Tsai §III-B): the lower rank refuses the higher one's request, and
//! the higher one accepts the lower one's and forgets its own dial.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::collections::HashSet;

pub const MAGIC: [u8; 4] = *b"RMv1";
pub const NONCE: usize = 16;
pub const TAG: usize = 16;
/// Bytes of a request's private data.
pub const REQUEST: usize = 4 + 4 + 4 + 4 + NONCE + TAG;

/// A connect request's private data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub from: u32,
    pub to: u32,
    pub rail: u32,
    pub nonce: [u8; NONCE],
}

fn tag(secret: &[u8], r: &Request) -> [u8; TAG] {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    mac.update(b"railmpi verbs connect");
    mac.update(&r.from.to_le_bytes());
    mac.update(&r.to.to_le_bytes());
    mac.update(&r.rail.to_le_bytes());
    mac.update(&r.nonce);
    let full = mac.finalize().into_bytes();
    let mut t = [0u8; TAG];
    t.copy_from_slice(&full[..TAG]);
    t
}

impl Request {
    pub fn encode(&self, secret: &[u8]) -> [u8; REQUEST] {
        let mut b = [0u8; REQUEST];
        b[0..4].copy_from_slice(&MAGIC);
        b[4..8].copy_from_slice(&self.from.to_le_bytes());
        b[8..12].copy_from_slice(&self.to.to_le_bytes());
        b[12..16].copy_from_slice(&self.rail.to_le_bytes());
        b[16..16 + NONCE].copy_from_slice(&self.nonce);
        b[16 + NONCE..].copy_from_slice(&tag(secret, self));
        b
    }

    /// The request in `b` if it is well formed and its tag proves `secret`.
    pub fn decode(b: &[u8], secret: &[u8]) -> Option<Request> {
        let b = b.get(..REQUEST)?;
        if b[0..4] != MAGIC {
            return None;
        }
        let word = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
        let mut nonce = [0u8; NONCE];
        nonce.copy_from_slice(&b[16..16 + NONCE]);
        let r = Request {
            from: word(4),
            to: word(8),
            rail: word(12),
            nonce,
        };
        // Constant-time comparison of the tag (hmac's verify).
        let mut mac = Hmac::<Sha256>::new_from_slice(secret).ok()?;
        mac.update(b"railmpi verbs connect");
        mac.update(&r.from.to_le_bytes());
        mac.update(&r.to.to_le_bytes());
        mac.update(&r.rail.to_le_bytes());
        mac.update(&r.nonce);
        mac.verify_truncated_left(&b[16 + NONCE..]).ok()?;
        Some(r)
    }
}

/// Where the link to one peer stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Idle,
    /// Our connect request is out (connection `cookie`).
    Dialing {
        cookie: u64,
    },
    /// We accepted the peer's request; waiting for rdma_cm to say it is up.
    Accepting {
        cookie: u64,
    },
    Up {
        cookie: u64,
    },
}

/// What the rail must do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Dial {
        peer: usize,
        cookie: u64,
        data: [u8; REQUEST],
    },
    Accept {
        handle: u64,
        cookie: u64,
    },
    /// Refuse a request; `why` for the log (`None`: a normal tie-break, not worth a line).
    Reject {
        handle: u64,
        why: Option<String>,
    },
    /// The link to `peer` is up on connection `cookie`.
    Up {
        peer: usize,
        cookie: u64,
    },
}

/// A connection's cookie: the peer in the low 32 bits, a serial above (so a late event of
/// an abandoned connection never matches the current one).
pub fn peer_of(cookie: u64) -> usize {
    (cookie & 0xffff_ffff) as usize
}

pub struct Connector {
    me: usize,
    rail: u32,
    secret: Vec<u8>,
    states: Vec<State>,
    serial: u64,
    seen: HashSet<[u8; NONCE]>,
    nonces: Box<dyn FnMut() -> [u8; NONCE] + Send>,
}

impl Connector {
    pub fn new(
        me: usize,
        peers: usize,
        rail: u32,
        secret: &[u8],
        nonces: Box<dyn FnMut() -> [u8; NONCE] + Send>,
    ) -> Self {
        Connector {
            me,
            rail,
            secret: secret.to_vec(),
            states: vec![State::Idle; peers],
            serial: 0,
            seen: HashSet::new(),
            nonces,
        }
    }

    pub fn set_secret(&mut self, secret: &[u8]) {
        self.secret = secret.to_vec();
    }

    pub fn state(&self, peer: usize) -> State {
        self.states[peer]
    }

    fn cookie(&mut self, peer: usize) -> u64 {
        self.serial += 1;
        self.serial << 32 | peer as u64
    }

    /// Traffic waits for `peer`: dial it unless a connection is made or being made.
    pub fn want(&mut self, peer: usize) -> Option<Action> {
        if self.states[peer] != State::Idle || peer == self.me {
            return None;
        }
        let cookie = self.cookie(peer);
        self.states[peer] = State::Dialing { cookie };
        let req = Request {
            from: self.me as u32,
            to: peer as u32,
            rail: self.rail,
            nonce: (self.nonces)(),
        };
        Some(Action::Dial {
            peer,
            cookie,
            data: req.encode(&self.secret),
        })
    }

    /// A connect request arrived as connection `handle` with private data `data`.
    pub fn on_request(&mut self, handle: u64, data: &[u8]) -> Action {
        let reject = |why: String| Action::Reject {
            handle,
            why: Some(why),
        };
        let Some(req) = Request::decode(data, &self.secret) else {
            return reject("a connect request without the job's proof".into());
        };
        let peer = req.from as usize;
        if req.to as usize != self.me || req.rail != self.rail || peer >= self.states.len() {
            return reject(format!(
                "a connect request for rank {} rail {} claiming rank {} (this is rank {} rail {})",
                req.to, req.rail, req.from, self.me, self.rail
            ));
        }
        if !self.seen.insert(req.nonce) {
            return reject(format!("a replayed connect request claiming rank {peer}"));
        }
        match self.states[peer] {
            // Our own dial to a higher rank stays.
            State::Dialing { .. } if self.me < peer => Action::Reject { handle, why: None },
            State::Idle | State::Dialing { .. } => {
                let cookie = self.cookie(peer);
                self.states[peer] = State::Accepting { cookie };
                Action::Accept { handle, cookie }
            }
            // Its abandoned dial of a simultaneous connect, or a redial after a failure
            // we have not seen yet (it retries): refused quietly either way.
            State::Accepting { .. } | State::Up { .. } => Action::Reject { handle, why: None },
        }
    }

    /// rdma_cm says connection `cookie` is up.
    pub fn on_established(&mut self, cookie: u64) -> Option<Action> {
        let peer = peer_of(cookie);
        match *self.states.get(peer)? {
            State::Dialing { cookie: c } | State::Accepting { cookie: c } if c == cookie => {
                self.states[peer] = State::Up { cookie };
                Some(Action::Up { peer, cookie })
            }
            _ => None,
        }
    }

    /// Our dial `cookie` was refused. Returns whether it was the current attempt (and the
    /// peer is not connecting to us already): then the rail dials again after a pause —
    /// the peer may still hold the connection we gave up (it refuses quietly until it sees
    /// it close), or, refusing a higher rank, be dialing us itself (its request then makes
    /// the link before the pause ends, and the redial finds it made). A peer that refuses
    /// for long is unreachable.
    pub fn on_rejected(&mut self, cookie: u64) -> bool {
        let peer = peer_of(cookie);
        match self.states.get(peer) {
            Some(State::Dialing { cookie: c }) if *c == cookie => {
                self.states[peer] = State::Idle;
                true
            }
            _ => false,
        }
    }

    /// Connection `cookie` ended (or failed to come up): the peer goes back to idle if it
    /// was the current one. Returns whether it was.
    pub fn on_closed(&mut self, cookie: u64) -> bool {
        let peer = peer_of(cookie);
        match self.states.get(peer) {
            Some(
                State::Dialing { cookie: c }
                | State::Accepting { cookie: c }
                | State::Up { cookie: c },
            ) if *c == cookie => {
                self.states[peer] = State::Idle;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";

    fn connector(me: usize) -> Connector {
        let mut n = me as u8 * 100;
        Connector::new(
            me,
            4,
            0,
            SECRET,
            Box::new(move || {
                n += 1;
                [n; NONCE]
            }),
        )
    }

    fn dial(a: &mut Connector, peer: usize) -> (u64, [u8; REQUEST]) {
        match a.want(peer) {
            Some(Action::Dial { cookie, data, .. }) => (cookie, data),
            other => panic!("expected a dial, got {other:?}"),
        }
    }

    /// `a` (rank 0) dials `b` (rank 1), which accepts; both see it up: (a's cookie, b's).
    fn connect_pair(a: &mut Connector, b: &mut Connector) -> (u64, u64) {
        let (ca, data) = dial(a, 1);
        let Action::Accept { cookie: cb, .. } = b.on_request(1, &data) else {
            panic!()
        };
        assert!(a.on_established(ca).is_some());
        assert!(b.on_established(cb).is_some());
        (ca, cb)
    }

    #[test]
    fn one_side_dials() {
        let (mut a, mut b) = (connector(0), connector(1));
        let (ca, data) = dial(&mut a, 1);
        assert_eq!(a.want(1), None, "one dial at a time");
        let Action::Accept { cookie: cb, .. } = b.on_request(7, &data) else {
            panic!()
        };
        assert_eq!(peer_of(cb), 0);
        assert_eq!(
            b.on_established(cb),
            Some(Action::Up {
                peer: 0,
                cookie: cb
            })
        );
        assert_eq!(
            a.on_established(ca),
            Some(Action::Up {
                peer: 1,
                cookie: ca
            })
        );
        assert_eq!(b.want(0), None, "already up");
    }

    #[test]
    fn simultaneous_dials_keep_the_lower_ranks() {
        let (mut a, mut b) = (connector(0), connector(1));
        let (ca, da) = dial(&mut a, 1);
        let (cb, db) = dial(&mut b, 0);
        // The lower rank refuses the higher one's request quietly.
        assert_eq!(
            a.on_request(1, &db),
            Action::Reject {
                handle: 1,
                why: None
            }
        );
        // The higher one takes the lower one's and forgets its own dial.
        let Action::Accept { cookie: cb2, .. } = b.on_request(2, &da) else {
            panic!()
        };
        assert!(
            !b.on_rejected(cb),
            "refusal of the abandoned dial is no error"
        );
        assert_eq!(b.on_established(cb), None, "stale cookie");
        assert!(b.on_established(cb2).is_some());
        assert!(a.on_established(ca).is_some());
    }

    #[test]
    fn refusals() {
        let (mut a, mut b) = (connector(0), connector(1));
        let (_, data) = dial(&mut a, 1);
        // Forged: one bit of the tag, or of the claimed rank.
        for i in [5, REQUEST - 1] {
            let mut bad = data;
            bad[i] ^= 1;
            assert!(matches!(
                b.on_request(1, &bad),
                Action::Reject { why: Some(_), .. }
            ));
        }
        assert!(matches!(
            b.on_request(1, &data[..20]),
            Action::Reject { why: Some(_), .. }
        ));
        // Another secret.
        let other = Request::decode(&data, b"another secret").is_none();
        assert!(other);
        // For someone else: rank 2 takes nothing meant for rank 1.
        let mut c = connector(2);
        assert!(matches!(
            c.on_request(1, &data),
            Action::Reject { why: Some(_), .. }
        ));
        // Accepted once; the same request again is a replay.
        assert!(matches!(b.on_request(1, &data), Action::Accept { .. }));
        assert!(matches!(
            b.on_request(2, &data),
            Action::Reject { why: Some(_), .. }
        ));
        // A fresh request from a connected peer (its abandoned dial): refused quietly.
        let again = Request {
            from: 0,
            to: 1,
            rail: 0,
            nonce: [77; NONCE],
        }
        .encode(SECRET);
        assert_eq!(
            b.on_request(3, &again),
            Action::Reject {
                handle: 3,
                why: None
            }
        );
    }

    #[test]
    fn closed_links_redial() {
        let (mut a, mut b) = (connector(0), connector(1));
        let (ca, cb) = connect_pair(&mut a, &mut b);
        assert!(a.on_closed(ca));
        assert!(!a.on_closed(ca), "once");
        let (ca2, data2) = dial(&mut a, 1);
        assert_ne!(ca, ca2);
        assert!(b.on_closed(cb));
        assert!(matches!(b.on_request(3, &data2), Action::Accept { .. }));
        // A dial refused while the peer still holds the connection given up (it has not
        // seen it close): dialed again, by the lower rank and the higher one alike.
        let mut c = connector(0);
        let (cc, _) = dial(&mut c, 3);
        assert!(c.on_rejected(cc));
        assert!(matches!(c.want(3), Some(Action::Dial { .. })));
        let (mut lo, mut hi) = (connector(0), connector(1));
        let (_, ch) = connect_pair(&mut lo, &mut hi);
        assert!(hi.on_closed(ch));
        let (ch2, data) = dial(&mut hi, 0);
        assert_eq!(
            lo.on_request(2, &data),
            Action::Reject {
                handle: 2,
                why: None
            },
            "still up here"
        );
        assert!(
            hi.on_rejected(ch2),
            "refused, not abandoned for the peer's dial"
        );
        assert!(matches!(hi.want(0), Some(Action::Dial { .. })));
    }
}
