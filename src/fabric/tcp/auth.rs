//! Connection authentication: both ends prove they hold the job's secret without sending
//! it (challenge–response with HMAC-SHA256 over both ranks and both fresh nonces).
//!
//! ```text
//! connector → Hello     version, rank c, nonce_c
//! acceptor  → Challenge rank a, nonce_a, MAC(secret, "acceptor"  | c | a | nonce_c | nonce_a)
//! connector → Proof     MAC(secret, "connector" | c | a | nonce_c | nonce_a)
//! acceptor  → Welcome   (empty) the acceptor keeps the connection; the connector's link
//!                       is up only now (a simultaneous connect may keep the other one)
//! ```
//! The acceptor's fresh nonce makes a recorded proof useless on another connection; the
//! roles in the MAC keep one side's proof from serving as the other's.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Version of the frame protocol (a peer speaking another one is refused).
pub const VERSION: u32 = 2;
pub const NONCE: usize = 32;
pub const MAC: usize = 32;
/// Bytes of a job secret.
pub const SECRET: usize = 32;

pub type Secret = [u8; SECRET];

/// A fresh secret or nonce from the kernel.
pub fn random<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    getrandom::getrandom(&mut b).expect("the kernel's random source");
    b
}

/// A secret as printed for the environment (hex), and back.
/// A secret of its own for what `label` names, drawn from `secret`: whoever holds
/// `secret` can derive it, whoever holds only the result learns nothing of `secret`
/// (HMAC-SHA256 as a pseudo-random function). A spawned job's secret, which the launcher
/// and its proxies so never send.
pub fn derive(secret: &Secret, label: &[u8]) -> Secret {
    let mut m = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
    m.update(b"railmpi derived secret\0");
    m.update(label);
    m.finalize().into_bytes().into()
}

pub fn secret_to_hex(s: &Secret) -> String {
    s.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn secret_from_hex(h: &str) -> Option<Secret> {
    if h.len() != 2 * SECRET {
        return None;
    }
    let mut s = [0u8; SECRET];
    for (i, b) in s.iter_mut().enumerate() {
        *b = u8::from_str_radix(h.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(s)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hello {
    pub version: u32,
    pub rank: u32,
    pub nonce: [u8; NONCE],
}

impl Hello {
    pub const BYTES: usize = 8 + NONCE;

    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(Self::BYTES);
        v.extend_from_slice(&self.version.to_le_bytes());
        v.extend_from_slice(&self.rank.to_le_bytes());
        v.extend_from_slice(&self.nonce);
        v
    }

    pub fn decode(b: &[u8]) -> Option<Hello> {
        if b.len() != Self::BYTES {
            return None;
        }
        Some(Hello {
            version: u32::from_le_bytes(b[0..4].try_into().ok()?),
            rank: u32::from_le_bytes(b[4..8].try_into().ok()?),
            nonce: b[8..].try_into().ok()?,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub rank: u32,
    pub nonce: [u8; NONCE],
    pub mac: [u8; MAC],
}

impl Challenge {
    pub const BYTES: usize = 4 + NONCE + MAC;

    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(Self::BYTES);
        v.extend_from_slice(&self.rank.to_le_bytes());
        v.extend_from_slice(&self.nonce);
        v.extend_from_slice(&self.mac);
        v
    }

    pub fn decode(b: &[u8]) -> Option<Challenge> {
        if b.len() != Self::BYTES {
            return None;
        }
        Some(Challenge {
            rank: u32::from_le_bytes(b[0..4].try_into().ok()?),
            nonce: b[4..4 + NONCE].try_into().ok()?,
            mac: b[4 + NONCE..].try_into().ok()?,
        })
    }
}

/// Which end a MAC vouches for.
#[derive(Clone, Copy)]
pub enum Role {
    Acceptor,
    Connector,
}

/// What both ends know once the acceptor's nonce is out.
pub struct Transcript {
    pub connector: u32,
    pub acceptor: u32,
    pub connector_nonce: [u8; NONCE],
    pub acceptor_nonce: [u8; NONCE],
}

impl Transcript {
    fn mac(&self, secret: &Secret, role: Role) -> Hmac<Sha256> {
        let mut m = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
        m.update(match role {
            Role::Acceptor => b"railmpi-tcp acceptor ",
            Role::Connector => b"railmpi-tcp connector",
        });
        m.update(&self.connector.to_le_bytes());
        m.update(&self.acceptor.to_le_bytes());
        m.update(&self.connector_nonce);
        m.update(&self.acceptor_nonce);
        m
    }

    /// The proof `role` sends.
    pub fn prove(&self, secret: &Secret, role: Role) -> [u8; MAC] {
        self.mac(secret, role).finalize().into_bytes().into()
    }

    /// Whether `mac` is `role`'s proof (compared in constant time).
    pub fn verify(&self, secret: &Secret, role: Role, mac: &[u8]) -> bool {
        self.mac(secret, role).verify_slice(mac).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_check_secret_role_and_nonces() {
        let secret: Secret = random();
        let t = Transcript {
            connector: 1,
            acceptor: 0,
            connector_nonce: random(),
            acceptor_nonce: random(),
        };
        let a = t.prove(&secret, Role::Acceptor);
        let c = t.prove(&secret, Role::Connector);
        assert!(t.verify(&secret, Role::Acceptor, &a));
        assert!(t.verify(&secret, Role::Connector, &c));
        // One side's proof does not pass for the other's.
        assert!(!t.verify(&secret, Role::Connector, &a));
        // Another secret, another nonce, another rank: refused.
        let other: Secret = random();
        assert!(!t.verify(&other, Role::Connector, &c));
        let replay = Transcript {
            acceptor_nonce: random(),
            ..t
        };
        assert!(!replay.verify(&secret, Role::Connector, &c));
        let t2 = Transcript {
            connector: 2,
            ..replay
        };
        assert!(!t2.verify(&secret, Role::Connector, &c));
    }

    #[test]
    fn messages_round_trip_and_reject_wrong_sizes() {
        let h = Hello {
            version: VERSION,
            rank: 3,
            nonce: random(),
        };
        assert_eq!(Hello::decode(&h.encode()), Some(h));
        assert_eq!(Hello::decode(&h.encode()[1..]), None);
        let c = Challenge {
            rank: 5,
            nonce: random(),
            mac: random(),
        };
        assert_eq!(Challenge::decode(&c.encode()), Some(c));
        assert_eq!(Challenge::decode(&[0u8; 3]), None);
        let s: Secret = random();
        assert_eq!(secret_from_hex(&secret_to_hex(&s)), Some(s));
        assert_eq!(secret_from_hex("zz"), None);
    }
}
