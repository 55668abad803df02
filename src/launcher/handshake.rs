//! The root's side of a proxy's handshake (`fabric::tcp::auth`: its hello, our challenge,
//! its proof), as a state machine fed the bytes as they arrive (no I/O here). The event
//! loop polls pending connections with everything else, so a connection that sends
//! nothing, or a byte at a time, never holds up the job; `job.rs` bounds how long and how
//! many of them may be pending.

use crate::fabric::tcp::auth::{self, Challenge, Hello, Role, Transcript, NONCE};
use crate::fabric::tcp::Secret;

/// What a proxy connection's acceptor calls itself in the handshake (no rank has it).
pub(super) const ROOT_ID: u32 = u32::MAX;

/// What the peer owes next.
enum Stage {
    Hello,
    /// Our challenge is out (or queued); its proof of this transcript is due.
    Proof(Transcript),
    /// Proven or refused: nothing more is read.
    Over,
}

/// Where a handshake stands after some bytes.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Progress {
    /// More bytes are needed (and perhaps [`Handshake::output`] is to be sent).
    More,
    /// The peer proved the job secret; it is proxy `id`.
    Proven(u32),
    /// The peer failed the handshake (why, for the log).
    Refused(&'static str),
}

pub(super) struct Handshake {
    stage: Stage,
    /// The bytes of the message being read (never more than it).
    buf: Vec<u8>,
    /// Our challenge, until written.
    out: Vec<u8>,
    nonce: [u8; NONCE],
}

impl Handshake {
    /// A handshake whose challenge will carry `nonce` (fresh per connection).
    pub fn new(nonce: [u8; NONCE]) -> Handshake {
        Handshake {
            stage: Stage::Hello,
            buf: Vec::with_capacity(Hello::BYTES),
            out: Vec::new(),
            nonce,
        }
    }

    /// How many more bytes the message being read needs. The caller reads no more than
    /// this, so that no byte past the handshake (the proxy's frames) is consumed here.
    pub fn wanted(&self) -> usize {
        match self.stage {
            Stage::Hello => Hello::BYTES - self.buf.len(),
            Stage::Proof(_) => auth::MAC - self.buf.len(),
            Stage::Over => 0,
        }
    }

    /// Whether the peer sent a well-formed hello (a proxy's comes at once: a connection
    /// without one is the first to go when room is short).
    pub fn greeted(&self) -> bool {
        matches!(self.stage, Stage::Proof(_))
    }

    /// Bytes to send to the peer (the challenge), until [`Handshake::sent`] takes them.
    pub fn output(&self) -> &[u8] {
        &self.out
    }

    pub fn sent(&mut self, n: usize) {
        self.out.drain(..n.min(self.out.len()));
    }

    /// Takes bytes the peer sent (at most [`Handshake::wanted`]; extra ones are ignored).
    pub fn feed(&mut self, bytes: &[u8], secret: &Secret) -> Progress {
        let take = bytes.len().min(self.wanted());
        self.buf.extend_from_slice(&bytes[..take]);
        if self.wanted() > 0 {
            return if matches!(self.stage, Stage::Over) {
                Progress::Refused("handshake already over")
            } else {
                Progress::More
            };
        }
        match std::mem::replace(&mut self.stage, Stage::Over) {
            Stage::Hello => {
                let Some(hello) = Hello::decode(&self.buf) else {
                    return Progress::Refused("not a hello");
                };
                self.buf.clear();
                if hello.version != auth::VERSION {
                    return Progress::Refused("another protocol version");
                }
                let t = Transcript {
                    connector: hello.rank,
                    acceptor: ROOT_ID,
                    connector_nonce: hello.nonce,
                    acceptor_nonce: self.nonce,
                };
                let c = Challenge {
                    rank: ROOT_ID,
                    nonce: t.acceptor_nonce,
                    mac: t.prove(secret, Role::Acceptor),
                };
                self.out = c.encode();
                self.stage = Stage::Proof(t);
                Progress::More
            }
            Stage::Proof(t) => {
                if t.verify(secret, Role::Connector, &self.buf) {
                    Progress::Proven(t.connector)
                } else {
                    Progress::Refused("wrong proof of the job secret")
                }
            }
            Stage::Over => Progress::Refused("handshake already over"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::tcp::auth::random;

    /// The proxy's side, as `proxy::connect` does it: hello, then the proof for the
    /// challenge it gets.
    fn hello(id: u32, nonce: [u8; NONCE]) -> Vec<u8> {
        Hello {
            version: auth::VERSION,
            rank: id,
            nonce,
        }
        .encode()
    }

    fn proof(secret: &Secret, id: u32, hello_nonce: [u8; NONCE], challenge: &[u8]) -> Vec<u8> {
        let c = Challenge::decode(challenge).expect("a challenge");
        let t = Transcript {
            connector: id,
            acceptor: super::ROOT_ID,
            connector_nonce: hello_nonce,
            acceptor_nonce: c.nonce,
        };
        t.prove(secret, Role::Connector).to_vec()
    }

    /// Drives a handshake with the peer's bytes cut into `chunk`-byte pieces.
    fn run(secret: &Secret, peer_secret: &Secret, id: u32, chunk: usize) -> Progress {
        let mut h = Handshake::new(random());
        let n = random();
        for piece in hello(id, n).chunks(chunk) {
            assert!(piece.len() <= h.wanted());
            assert_eq!(h.feed(piece, secret), Progress::More);
        }
        let challenge = h.output().to_vec();
        assert_eq!(challenge.len(), Challenge::BYTES);
        h.sent(challenge.len());
        assert!(h.output().is_empty());
        let c = Challenge::decode(&challenge).expect("a challenge");
        let t = Transcript {
            connector: id,
            acceptor: super::ROOT_ID,
            connector_nonce: n,
            acceptor_nonce: c.nonce,
        };
        // The root proves the secret too (a proxy with another one sees that fail).
        assert_eq!(
            t.verify(peer_secret, Role::Acceptor, &c.mac),
            secret == peer_secret
        );
        let p = proof(peer_secret, id, n, &challenge);
        let mut last = Progress::More;
        for piece in p.chunks(chunk) {
            assert_eq!(last, Progress::More);
            last = h.feed(piece, secret);
        }
        assert_eq!(h.wanted(), 0);
        last
    }

    #[test]
    fn a_proxy_with_the_secret_is_proven_in_any_pieces() {
        let s: Secret = random();
        for chunk in [1, 3, 7, 40, 64] {
            assert_eq!(run(&s, &s, 5, chunk), Progress::Proven(5));
        }
    }

    #[test]
    fn a_wrong_secret_or_garbage_is_refused() {
        let s: Secret = random();
        let other: Secret = random();
        assert_eq!(
            run(&s, &other, 1, 5),
            Progress::Refused("wrong proof of the job secret")
        );
        let mut h = Handshake::new(random());
        let mut bad = hello(0, random());
        bad[0] ^= 0xff; // another version
        assert_eq!(
            h.feed(&bad, &s),
            Progress::Refused("another protocol version")
        );
        assert_eq!(h.wanted(), 0);
        assert!(h.output().is_empty(), "no challenge for a stranger");
        assert!(matches!(h.feed(b"x", &s), Progress::Refused(_)));
    }

    #[test]
    fn nothing_past_the_message_is_taken() {
        let s: Secret = random();
        let mut h = Handshake::new(random());
        let mut b = hello(2, random());
        let want = h.wanted();
        b.extend_from_slice(b"extra bytes");
        assert_eq!(want, Hello::BYTES);
        assert!(!h.greeted());
        assert_eq!(h.feed(&b, &s), Progress::More);
        assert!(h.greeted());
        assert_eq!(h.wanted(), auth::MAC, "now the proof, nothing of the extra");
    }
}
