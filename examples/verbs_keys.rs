//! verbs_keys DEVICE — the verbs rail's key checks on a real device (run in a guest by
//! c_tests/cases/85_verbs.sh): two rails of one process, as ranks 0 and 1, connect through
//! rdma_cm; rank 0 writes into memory rank 1 registered, under the right key, a forged one,
//! a stale one (its region released) and the right key past the region's end. Every refused
//! write must leave the target untouched; on adapters that report the refusal to the writer
//! (InfiniBand, RoCE) its completion must be an error, and the next write under a good key
//! must work again (the rail replaced the failed connection; on iWARP, within a few writes).
//! Prints one line per check and exits non-zero at the first failure.

use mpi::fabric::memory::{MemoryDomain, Mode, PageRange};
use mpi::fabric::verbs::{self, module, VerbsContext, VerbsRail, VerbsSettings};
use mpi::fabric::{Doorbell, Rail, RailEvent, RdmaOp, RemoteKey, RemoteKeys, Span, Transfer};
use std::time::{Duration, Instant};

fn fail(msg: &str) -> ! {
    println!("FAIL {msg}");
    std::process::exit(1)
}

/// Poll both rails until `token` completes on rank 0's: its result.
fn complete(r0: &mut VerbsRail, r1: &mut VerbsRail, token: u64) -> Result<u64, String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut out = None;
    while out.is_none() {
        if Instant::now() > deadline {
            fail(&format!("transfer {token} did not complete in 60 s"));
        }
        r0.poll(&mut |e| {
            if let RailEvent::Completion(c) = e {
                if c.token == token {
                    out = Some(c.result.map_err(|e| e.to_string()));
                }
            }
        });
        r1.poll(&mut |_| {});
    }
    out.unwrap()
}

fn main() {
    let dev = std::env::args().nth(1).unwrap_or_else(|| "rxe0".into());
    let settings = VerbsSettings {
        devices: vec![(dev.clone(), 1)],
        ..Default::default()
    };
    let ports = verbs::select_ports(&settings).unwrap_or_else(|e| fail(&e));
    let port = &ports[0];
    let reports_refusal = port.info.transport != module::abi::TRANSPORT_IWARP;
    let ctx = |me| VerbsContext {
        me,
        hosts: vec!["here".into(), "here".into()],
        secret: [7; 32],
        wait: Doorbell::local(),
        also_wake: None,
        survive_loss: false,
    };
    let mut r0 = VerbsRail::open(port, 0, 2, &ctx(0), &settings).unwrap_or_else(|e| fail(&e));
    let mut r1 = VerbsRail::open(port, 0, 2, &ctx(1), &settings).unwrap_or_else(|e| fail(&e));
    let addrs = vec![r0.listen_addr().unwrap(), r1.listen_addr().unwrap()];
    for r in [&mut r0, &mut r1] {
        r.set_peers(addrs.clone());
        r.set_secret(&[7; 32], false);
    }
    println!("ok   two rails on {dev} ({})", port.transport());

    let page = 4096;
    // Target memory of rank 1: two pages, the first registered.
    let mut target = vec![0xAAu8; 3 * page];
    let base = (target.as_mut_ptr() as usize).next_multiple_of(page);
    let off = base - target.as_ptr() as usize;
    let domain = r1.domain();
    let key = domain
        .register(PageRange::new(base, base + page), Mode::Pin)
        .unwrap_or_else(|e| fail(&format!("register: {e:?}")));
    let src = vec![0x55u8; 256];
    let mut token = 0;
    let mut write = |r0: &mut VerbsRail, r1: &mut VerbsRail, at: u64, rkey: RemoteKey| {
        token += 1;
        let local = [Span {
            addr: src.as_ptr() as u64,
            len: src.len() as u64,
        }];
        let remote = [Span {
            addr: at,
            len: src.len() as u64,
        }];
        // SAFETY: `src` outlives the transfer (we wait for its completion).
        match unsafe {
            r0.post(&Transfer::new(
                RdmaOp::Write,
                1,
                &local,
                &remote,
                &RemoteKeys::all(rkey),
                token,
            ))
        } {
            Err(e) => Err(format!("refused at post: {e}")),
            Ok(()) => complete(r0, r1, token),
        }
    };
    let untouched = |t: &[u8], what: &str| {
        if t[off..off + 2 * page].iter().any(|&b| b != 0xAA) {
            fail(&format!("{what}: the target memory changed"));
        }
    };

    // 1. The right key.
    write(&mut r0, &mut r1, base as u64, key.remote)
        .unwrap_or_else(|e| fail(&format!("good key: {e}")));
    if target[off..off + 256].iter().any(|&b| b != 0x55) {
        fail("good key: wrong bytes at the target");
    }
    println!("ok   a write under the region's key lands");
    target[off..off + 256].fill(0xAA);

    // 2. Forged keys: another rkey, and a value that is no verbs key at all.
    let forged = RemoteKey(key.remote.0 ^ 0x5a00);
    let r = write(&mut r0, &mut r1, base as u64, forged);
    if reports_refusal && r.is_ok() {
        fail("forged key: the write completed without an error");
    }
    untouched(&target, "forged key");
    println!(
        "ok   a forged key writes nothing ({})",
        r.err()
            .unwrap_or("completed locally; the peer dropped the connection".into())
    );
    match write(&mut r0, &mut r1, base as u64, RemoteKey(12345)) {
        Err(e) if e.contains("refused at post") => {
            println!("ok   a key of no verbs region is refused at post ({e})")
        }
        other => fail(&format!("a non-verbs key: {other:?}")),
    }
    untouched(&target, "non-verbs key");

    // 3. The right key again: the rail replaced the connection the refusal broke. On
    // iWARP a write completes once sent, and the target drops what arrives after the
    // refused one until the connection is gone: a write posted before the writer saw the
    // drop can complete and be lost, so there the write goes again (a few times at most)
    // until it lands on the new connection.
    let tries = if reports_refusal { 1 } else { 5 };
    let mut landed = 0;
    for i in 1..=tries {
        write(&mut r0, &mut r1, base as u64, key.remote)
            .unwrap_or_else(|e| fail(&format!("good key after a refusal: {e}")));
        if target[off..off + 256].iter().all(|&b| b == 0x55) {
            landed = i;
            break;
        }
    }
    if landed == 0 {
        fail(&format!(
            "good key after a refusal: wrong bytes after {tries} writes"
        ));
    }
    println!("ok   the next write under a good key lands (a new connection; write {landed})");
    target[off..off + 256].fill(0xAA);

    // 4. Past the region's end under its key.
    let r = write(&mut r0, &mut r1, (base + page - 128) as u64, key.remote);
    if reports_refusal && r.is_ok() {
        fail("out of range: the write completed without an error");
    }
    untouched(&target, "out of range");
    println!("ok   a write past the region's end writes nothing");

    // 5. A stale key: the region released.
    domain.deregister(key, &[]);
    let r = write(&mut r0, &mut r1, base as u64, key.remote);
    if reports_refusal && r.is_ok() {
        fail("stale key: the write completed without an error");
    }
    untouched(&target, "stale key");
    println!("ok   a released region's key writes nothing");
    println!("ok verbs_keys {dev}");
}
