//! The protocol engines driven against each other in one process: two `Pt2pt` instances
//! whose actions `testnet::Net` carries between them (RDMA is a key-checked plain copy:
//! both "processes" share this address space), so every protocol path runs without a
//! rail or processes.

use super::buffer::MsgBuf;
use super::engine::{PipelineSettings, ProtocolSettings, Pt2pt, Rndv, SendStart};
use super::matching::Pattern;
use super::request::ReqId;
use super::testnet::Net;
use crate::registration::Registry;

struct Pair {
    net: Net,
    eng: Vec<Pt2pt>,
}

impl Pair {
    fn new(settings: ProtocolSettings, depth: usize, fail_rdma: bool) -> Self {
        let mut net = Net::new(2, 0);
        for end in &mut net.ends {
            end.depth = depth;
            end.fail_rdma = fail_rdma;
        }
        let eng = Net::engines(2, &settings, 4096);
        Pair { net, eng }
    }

    /// Writes between the two may carry notices (a rail with write-with-immediate).
    fn with_notices(mut self) -> Self {
        for (e, end) in self.eng.iter_mut().zip(&mut self.net.ends) {
            e.set_peer_notify(0);
            e.set_peer_notify(1);
            end.notify = true;
        }
        self
    }

    fn progress(&mut self) {
        self.net.settle(&mut self.eng);
        // What a progress round tells the engines (the runtime's `progress`).
        self.eng.iter_mut().for_each(|e| e.polled());
    }

    /// Bytes moved by the receiver's RDMA reads and the sender's RDMA writes.
    fn moved(&self) -> (usize, usize) {
        (self.net.ends[1].read, self.net.ends[0].written)
    }

    fn send(&mut self, tag: i32, data: &[u8], sync: bool) -> Option<ReqId> {
        // SAFETY: callers keep `data` alive until the send completes (checked by waiting).
        match unsafe {
            self.eng[0].send(
                &mut self.net.ends[0],
                1,
                7,
                0,
                tag,
                data.as_ptr(),
                data.len(),
                sync,
            )
        } {
            SendStart::Done => None,
            SendStart::Pending(r) => Some(r),
        }
    }

    fn send_buf(&mut self, tag: i32, data: MsgBuf) -> Option<ReqId> {
        // SAFETY: callers keep the memory alive until the send completes.
        match unsafe { self.eng[0].send_buf(&mut self.net.ends[0], 1, 7, 0, tag, data, false) } {
            SendStart::Done => None,
            SendStart::Pending(r) => Some(r),
        }
    }

    fn recv_buf(&mut self, tag: Option<i32>, data: MsgBuf) -> ReqId {
        let pat = Pattern {
            ctx: 7,
            src: Some(0),
            tag,
        };
        // SAFETY: callers keep the memory alive until the receive completes.
        unsafe { self.eng[1].recv_buf(pat, data) }
    }

    /// `n` bytes of `pattern` sent with tag 5, the receive posted first or last, moved
    /// until nothing moves: the bytes sent and received (both buffers live until then),
    /// the send's request (None: done at once) and the receive's.
    fn trip(&mut self, n: usize, recv_first: bool) -> (Vec<u8>, Vec<u8>, Option<ReqId>, ReqId) {
        let data = pattern(n);
        let mut buf = vec![0u8; n];
        let (sreq, rreq) = if recv_first {
            let r = self.recv(Some(5), &mut buf);
            (self.send(5, &data, false), r)
        } else {
            let s = self.send(5, &data, false);
            self.progress();
            (s, self.recv(Some(5), &mut buf))
        };
        self.progress();
        (data, buf, sreq, rreq)
    }

    fn recv(&mut self, tag: Option<i32>, buf: &mut [u8]) -> ReqId {
        let pat = Pattern {
            ctx: 7,
            src: Some(0),
            tag,
        };
        // SAFETY: callers keep `buf` alive until the receive completes.
        unsafe { self.eng[1].recv(pat, buf.as_mut_ptr(), buf.len()) }
    }
}

fn settings(rdma: bool, split: usize) -> ProtocolSettings {
    ProtocolSettings {
        eager_limit: 1024,
        rdma,
        split_threshold: split,
        rndv: Rndv::Auto,
        pipeline: PipelineSettings {
            frag: 8192,
            depth: 2,
            send_length: 3000,
        },
    }
}

fn with_rndv(mut s: ProtocolSettings, rndv: Rndv) -> ProtocolSettings {
    s.rndv = rndv;
    s
}

/// A write request without a notice.
fn ask(
    sender_req: u64,
    receiver_req: u64,
    offset: u64,
    len: u64,
    addr: u64,
) -> super::wire::WriteAsk {
    super::wire::WriteAsk {
        sender_req,
        receiver_req,
        offset,
        len,
        addr,
        note: 0,
    }
}

/// A PIPE_READY without a notice.
fn ready(
    sender_req: u64,
    receiver_req: u64,
    offset: u64,
    len: u64,
    addr: u64,
    slots: crate::fabric::SlotSet,
    rkey: &crate::fabric::RemoteKeys,
) -> ([u8; super::wire::MAX_CONTROL], usize) {
    super::wire::pipe_ready(
        &ask(sender_req, receiver_req, offset, len, addr),
        slots,
        rkey,
    )
}

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 7 + 3) as u8).collect()
}

/// Send `n` bytes with the receive posted first or last; check bytes and statuses.
fn round_trip(s: ProtocolSettings, n: usize, recv_first: bool, fail_rdma: bool) {
    let mut p = Pair::new(s, 8, fail_rdma);
    let (data, buf, sreq, rreq) = p.trip(n, recv_first);
    let st = p.eng[1].take_if_done(rreq).expect("receive complete");
    assert_eq!(
        (st.source, st.tag, st.count, st.truncated()),
        (0, 5, n, false)
    );
    if let Some(s) = sreq {
        assert!(p.eng[0].take_if_done(s).is_some(), "send complete");
    }
    assert!(buf == data, "payload of {n} bytes arrived intact");
    assert_eq!(p.eng[0].live_requests() + p.eng[1].live_requests(), 0);
    assert_eq!(p.eng[0].bad_packets + p.eng[1].bad_packets, 0);
}

#[test]
fn eager_rget_split_and_stream_deliver_intact() {
    for &n in &[0, 1, 1000, 5000, 70_000, 300_001] {
        for recv_first in [true, false] {
            round_trip(settings(true, 0), n, recv_first, false); // RGET
            round_trip(settings(true, 8192), n, recv_first, false); // split RGET + PUT
            round_trip(settings(false, 0), n, recv_first, false); // streamed copy path
            round_trip(settings(true, 8192), n, recv_first, true); // RDMA fails: stream
            round_trip(settings(true, 1), n, recv_first, false); // split below a page
        }
    }
}

#[test]
fn truncation_keeps_bytes_past_the_buffer() {
    for s in [settings(true, 0), settings(true, 8192), settings(false, 0)] {
        for &n in &[600, 50_000] {
            let mut p = Pair::new(s.clone(), 8, false);
            let data = pattern(n);
            // A receive buffer of n/2 bytes followed by guard bytes.
            let mut buf = vec![0xeeu8; n / 2 + 8];
            let r = p.recv(None, &mut buf[..n / 2]);
            let sreq = p.send(9, &data, false);
            p.progress();
            let st = p.eng[1].take_if_done(r).unwrap();
            assert!(st.truncated());
            assert_eq!(st.count, n / 2);
            assert_eq!(&buf[..n / 2], &data[..n / 2]);
            assert!(
                buf[n / 2..].iter().all(|&b| b == 0xee),
                "nothing written past the buffer"
            );
            if let Some(s) = sreq {
                assert!(p.eng[0].take_if_done(s).is_some());
            }
        }
    }
}

#[test]
fn synchronous_send_completes_only_after_the_match() {
    let mut p = Pair::new(settings(true, 0), 8, false);
    let data = pattern(100);
    let s = p.send(1, &data, true).expect("a synchronous send waits");
    p.progress();
    assert_eq!(p.eng[0].is_done(s), Some(false), "no receive yet");
    let mut buf = vec![0u8; 100];
    let r = p.recv(Some(1), &mut buf);
    p.progress();
    assert!(p.eng[0].take_if_done(s).is_some());
    assert!(p.eng[1].take_if_done(r).is_some());
    assert_eq!(buf, data);
}

#[test]
fn back_pressure_keeps_order() {
    // A rail that holds 2 messages: 20 eager sends queue up and still arrive in order.
    let mut p = Pair::new(settings(true, 0), 2, false);
    let msgs: Vec<Vec<u8>> = (0..20).map(|i| vec![i as u8; 10 + i]).collect();
    let sends: Vec<_> = msgs.iter().map(|m| p.send(3, m, false)).collect();
    for (i, m) in msgs.iter().enumerate() {
        let mut buf = vec![0u8; 64];
        let r = p.recv(Some(3), &mut buf);
        p.progress();
        let st = p.eng[1].take_if_done(r).expect("delivered");
        assert_eq!(&buf[..st.count], &m[..], "message {i} in order");
    }
    for s in sends.into_iter().flatten() {
        assert!(p.eng[0].take_if_done(s).is_some());
    }
}

#[test]
fn forged_replies_are_rejected() {
    let mut p = Pair::new(settings(true, 0), 8, false);
    // FIN / CTS / PUT_REQ / stream data naming requests that do not exist.
    for pkt in [
        super::wire::fin(12345).0[..16].to_vec(),
        super::wire::cts(1 << 32, 3).0[..24].to_vec(),
        {
            let shm = crate::fabric::SlotSet::one(crate::fabric::slot::SHM);
            let (b, n) =
                super::wire::put_req(&ask(1 << 32, 1, 0, 1 << 40, 0), shm, &Default::default());
            b[..n].to_vec()
        },
        {
            let mut d = super::wire::rndv_data_header(77, 0).to_vec();
            d.push(1);
            d
        },
        vec![200, 1, 2],
    ] {
        p.eng[0].on_packet(1, &pkt);
    }
    assert_eq!(p.eng[0].bad_packets, 5);
    assert_eq!(p.eng[0].live_requests(), 0);
}

/// A buffer layout: contiguous, or blocks of `.0` bytes every `.1` bytes (the last block
/// holds what is left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lay {
    Contig,
    Strided(usize, usize),
}

impl Lay {
    /// The runs holding `n` message bytes, and the bytes the buffer spans.
    fn runs(self, n: usize) -> (Vec<(isize, usize)>, usize) {
        let (b, st) = match self {
            Lay::Contig => return (vec![(0, n)], n),
            Lay::Strided(b, st) => (b, st),
        };
        let runs: Vec<(isize, usize)> = (0..n.div_ceil(b))
            .map(|k| ((k * st) as isize, b.min(n - k * b)))
            .collect();
        let span = runs.last().map_or(0, |&(o, l)| o as usize + l);
        (runs, span)
    }
}

/// Memory laid out as `lay` for `n` message bytes: gaps hold `fill`, the runs `msg` (or
/// `fill` too when `msg` is None).
struct Laid {
    mem: Vec<u8>,
    runs: Vec<(isize, usize)>,
}

impl Laid {
    fn new(lay: Lay, n: usize, msg: Option<&[u8]>, fill: u8) -> Self {
        let (runs, span) = lay.runs(n);
        let mut mem = vec![fill; span];
        if let Some(msg) = msg {
            let mut at = 0;
            for &(o, l) in &runs {
                mem[o as usize..o as usize + l].copy_from_slice(&msg[at..at + l]);
                at += l;
            }
        }
        Laid { mem, runs }
    }

    fn buf(&mut self) -> MsgBuf {
        MsgBuf::from_runs(self.mem.as_ptr(), self.runs.iter().copied())
    }

    /// The message bytes in the runs, and whether every gap byte still holds `fill`.
    fn contents(&self, fill: u8) -> (Vec<u8>, bool) {
        let mut msg = Vec::new();
        let mut in_run = vec![false; self.mem.len()];
        for &(o, l) in &self.runs {
            msg.extend_from_slice(&self.mem[o as usize..o as usize + l]);
            in_run[o as usize..o as usize + l].fill(true);
        }
        let gaps_ok = self.mem.iter().zip(&in_run).all(|(&b, &r)| r || b == fill);
        (msg, gaps_ok)
    }
}

/// Send `n` bytes laid out as `from` into a receive laid out as `to` with room for `cap`
/// bytes; check bytes, gaps, status and that both sides finish clean.
/// Returns the bytes the receiver read and the sender wrote by RDMA.
fn layout_trip(
    s: ProtocolSettings,
    from: Lay,
    to: Lay,
    n: usize,
    cap: usize,
    recv_first: bool,
) -> (usize, usize) {
    let what = format!("{from:?} -> {to:?}, {n} bytes into {cap}, {s:?}, recv_first {recv_first}");
    let mut p = Pair::new(s.clone(), 8, false);
    let data = pattern(n);
    let mut src = Laid::new(from, n, Some(&data), 0x5a);
    let mut dst = Laid::new(to, cap, None, 0xee);
    let (sreq, rreq) = if recv_first {
        let r = p.recv_buf(Some(5), dst.buf());
        (p.send_buf(5, src.buf()), r)
    } else {
        let sr = p.send_buf(5, src.buf());
        p.progress();
        (sr, p.recv_buf(Some(5), dst.buf()))
    };
    p.progress();
    let st = p.eng[1].take_if_done(rreq).expect(&what);
    let got = n.min(cap);
    assert_eq!((st.count, st.truncated()), (got, n > cap), "{what}");
    if let Some(r) = sreq {
        assert!(p.eng[0].take_if_done(r).is_some(), "send complete: {what}");
    }
    let (msg, gaps_ok) = dst.contents(0xee);
    assert!(msg[..got] == data[..got], "payload intact: {what}");
    assert!(
        msg[got..].iter().all(|&b| b == 0xee),
        "nothing past the message: {what}"
    );
    assert!(gaps_ok, "gaps untouched: {what}");
    assert_eq!(
        src.contents(0x5a),
        (data, true),
        "send buffer unchanged: {what}"
    );
    assert_eq!(
        p.eng[0].live_requests() + p.eng[1].live_requests(),
        0,
        "{what}"
    );
    assert_eq!(p.eng[0].bad_packets + p.eng[1].bad_packets, 0, "{what}");
    p.moved()
}

#[test]
fn every_rendezvous_protocol_delivers_by_its_own_means() {
    // Sizes around the eager limit (1024 here), pages and the split threshold; whole and
    // truncated; contiguous and strided on either side.
    let sizes = [0, 1, 1023, 1024, 1025, 4095, 4097, 8192, 8193, 70_001];
    let layouts = [
        (Lay::Contig, Lay::Contig),
        (Lay::Strided(4096, 8192), Lay::Contig),
        (Lay::Contig, Lay::Strided(2048, 3000)),
        (Lay::Strided(8, 16), Lay::Strided(24, 40)),
    ];
    for rndv in [
        Rndv::Auto,
        Rndv::Copy,
        Rndv::Get,
        Rndv::Put,
        Rndv::Pipeline,
        Rndv::PipelineCached,
    ] {
        let s = with_rndv(settings(true, 8192), rndv);
        for &n in &sizes {
            for (from, to) in layouts {
                for recv_first in [true, false] {
                    for cap in [n, n / 2 + 3] {
                        let (read, written) = layout_trip(s.clone(), from, to, n, cap, recv_first);
                        let take = n.min(cap);
                        if n <= 1024 {
                            assert_eq!((read, written), (0, 0), "eager: {rndv:?} {n}");
                            continue;
                        }
                        let contig = from == Lay::Contig && to == Lay::Contig;
                        let what = format!("{rndv:?} {from:?} -> {to:?} {n} into {cap}");
                        match rndv {
                            Rndv::Copy => assert_eq!((read, written), (0, 0), "{what}"),
                            Rndv::Put if contig => {
                                assert_eq!((read, written), (0, take), "{what}")
                            }
                            Rndv::Get => assert_eq!(written, 0, "{what}"),
                            Rndv::Auto if contig && take >= 8192 => {
                                assert!(read > 0 && written > 0, "split: {what}");
                                assert_eq!(read + written, take, "{what}");
                            }
                            // The sender picks the pipeline for a contiguous payload; the
                            // eager part and the send length go through the channel, the
                            // rest by RDMA write into a contiguous receive buffer.
                            // (A layout of one run is contiguous.)
                            Rndv::Pipeline | Rndv::PipelineCached if from.runs(n).0.len() == 1 => {
                                let rdma = if to.runs(cap).0.len() <= 1 { take } else { 0 };
                                let rdma = rdma.saturating_sub(n.min(1024) + 3000);
                                assert_eq!((read, written), (0, rdma), "{what}")
                            }
                            // A sender's runs go by RTS; the receiver reads them.
                            Rndv::Pipeline | Rndv::PipelineCached => {
                                assert_eq!(written, 0, "{what}")
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn derived_layouts_deliver_intact() {
    let pairs = [
        (Lay::Strided(8, 16), Lay::Contig),
        (Lay::Contig, Lay::Strided(8, 16)),
        (Lay::Strided(8, 16), Lay::Strided(24, 40)),
        (Lay::Strided(4096, 8192), Lay::Strided(100, 150)),
    ];
    let all = [
        settings(true, 0),
        settings(true, 8192),
        settings(false, 0),
        settings(true, 1),
    ];
    // Eager, rendezvous, and 3000 runs of 8 bytes (more than IOV_MAX per side).
    for &n in &[0, 1, 600, 5000, 24_000, 70_001] {
        for (from, to) in pairs {
            for s in &all {
                for recv_first in [true, false] {
                    layout_trip(s.clone(), from, to, n, n, recv_first);
                }
            }
        }
    }
}

#[test]
fn short_runs_go_through_a_bounce_buffer() {
    // With a floor on the run length, 8-byte runs are packed by the sender, or read into a
    // stand-in and scattered by the receiver; plain, split and truncated, data intact and
    // gaps untouched.
    for s in [settings(true, 0), settings(true, 8192)] {
        for (from, to) in [
            (Lay::Strided(8, 16), Lay::Contig),
            (Lay::Contig, Lay::Strided(8, 16)),
            (Lay::Strided(8, 16), Lay::Strided(24, 40)),
        ] {
            for (n, cap) in [(24_000, 24_000), (50_000, 20_003)] {
                let mut p = Pair::new(s.clone(), 8, false);
                for e in &mut p.eng {
                    e.min_rdma_run = 1024;
                }
                let data = pattern(n);
                let mut src = Laid::new(from, n, Some(&data), 0x5a);
                let mut dst = Laid::new(to, cap, None, 0xee);
                let r = p.recv_buf(Some(5), dst.buf());
                let sr = p.send_buf(5, src.buf()).expect("rendezvous waits");
                p.progress();
                let st = p.eng[1].take_if_done(r).expect("receive done");
                assert_eq!((st.count, st.truncated()), (cap, cap < n));
                assert!(p.eng[0].take_if_done(sr).is_some());
                assert_eq!(dst.contents(0xee), (data[..cap].to_vec(), true));
                assert_eq!(src.contents(0x5a), (data, true), "send buffer unchanged");
                assert_eq!(p.eng[0].bad_packets + p.eng[1].bad_packets, 0);
            }
        }
    }
}

#[test]
fn derived_layouts_truncate_like_contiguous() {
    for s in [settings(true, 0), settings(true, 8192), settings(false, 0)] {
        for &n in &[600, 50_000] {
            for (from, to) in [
                (Lay::Strided(8, 12), Lay::Strided(8, 16)),
                (Lay::Contig, Lay::Strided(8, 16)),
                (Lay::Strided(8, 12), Lay::Contig),
            ] {
                layout_trip(s.clone(), from, to, n, n / 2 + 3, true);
                layout_trip(s.clone(), from, to, n, n / 2 + 3, false);
            }
        }
    }
}

#[test]
fn rendezvous_falls_back_to_streaming_runs_when_rdma_fails() {
    let mut p = Pair::new(settings(true, 8192), 8, true);
    let n = 30_000;
    let data = pattern(n);
    let mut src = Laid::new(Lay::Strided(8, 16), n, Some(&data), 0x5a);
    let mut dst = Laid::new(Lay::Strided(24, 32), n, None, 0xee);
    let r = p.recv_buf(Some(5), dst.buf());
    let sr = p.send_buf(5, src.buf()).expect("rendezvous waits");
    p.progress();
    assert_eq!(p.eng[1].take_if_done(r).unwrap().count, n);
    assert!(p.eng[0].take_if_done(sr).is_some());
    assert_eq!(dst.contents(0xee), (data, true));
}

#[test]
fn malformed_run_tables_are_rejected_before_any_byte_moves() {
    use super::buffer::Run;
    use super::wire::{self, MatchHeader};
    let source = pattern(400);
    let at = source.as_ptr() as u64;
    let tables: Vec<(Vec<Run>, u64)> = vec![
        // Lengths add up to more than the message.
        (
            vec![
                Run { addr: at, len: 200 },
                Run {
                    addr: at + 200,
                    len: 200,
                },
            ],
            300,
        ),
        // A run wrapping around the address space.
        (
            vec![
                Run {
                    addr: u64::MAX - 10,
                    len: 100,
                },
                Run { addr: at, len: 200 },
            ],
            300,
        ),
        // An empty run.
        (
            vec![Run { addr: at, len: 0 }, Run { addr: at, len: 300 }],
            300,
        ),
        // Lengths whose sum overflows.
        (
            vec![
                Run {
                    addr: 0,
                    len: 1 << 62
                };
                5
            ],
            300,
        ),
        // More entries than message bytes.
        (vec![Run { addr: at, len: 1 }; 4], 3),
    ];
    for (table, total) in tables {
        let mut p = Pair::new(settings(true, 0), 8, false);
        let mut buf = vec![0xeeu8; 400];
        let r = p.recv(Some(5), &mut buf);
        let hdr = MatchHeader {
            ctx: 7,
            src: 0,
            tag: 5,
            len: total,
            sender_req: 1 << 32,
            flags: 0,
        };
        // The forged table is genuinely registered by the "sender": the keys pass, and the
        // engine's own checks of the table must refuse it.
        let treg = p.net.ends[0]
            .registry
            .register(
                table.as_ptr() as usize,
                table.len() * std::mem::size_of::<Run>(),
                crate::registration::Mode::Odp,
            )
            .unwrap();
        let key = treg.keys().remotes();
        let shm = crate::fabric::SlotSet::one(crate::fabric::slot::SHM);
        let (b, n) = wire::rts_runs(
            &hdr,
            table.as_ptr() as u64,
            &key,
            table.len() as u64,
            shm,
            &key,
        );
        p.eng[1].on_packet(0, &b[..n]);
        p.progress();
        assert!(
            buf.iter().all(|&b| b == 0xee),
            "buffer untouched for {table:?}"
        );
        assert_eq!(p.eng[1].bad_packets, 1, "table {table:?} refused");
        assert_eq!(
            p.eng[1].is_done(r),
            Some(false),
            "still waiting for a stream"
        );
        // The receiver asked the (forged) sender to stream instead; it knows no such send.
        assert_eq!(p.eng[0].bad_packets, 1);
    }
}

/// Pipeline geometry of these tests: eager part 1024, streamed up to 1024 + 3000, then
/// blocks of 8192, two at a time.
const PIPE_BASE: usize = 1024 + 3000;

/// One pipelined message of `n` bytes from a buffer at `salign` bytes past an aligned
/// address into one of `cap` bytes at `ralign`; checks bytes, guards, status, and that what
/// went past the send length went by RDMA write. Returns the pair for further checks.
fn pipe_trip(
    s: &ProtocolSettings,
    n: usize,
    cap: usize,
    recv_first: bool,
    (salign, ralign): (usize, usize),
) -> Pair {
    let what = format!(
        "{:?} {n} into {cap}, recv_first {recv_first}, align {salign}/{ralign}",
        s.rndv
    );
    let mut p = Pair::new(s.clone(), 8, false);
    let data = pattern(n);
    let mut smem = vec![0x5au8; n + 8192];
    smem[salign..salign + n].copy_from_slice(&data);
    let mut rmem = vec![0xeeu8; cap + 8192];
    let sbuf = MsgBuf::contig(smem[salign..].as_ptr(), n);
    let rbuf = MsgBuf::contig(rmem[ralign..].as_mut_ptr(), cap);
    let (sreq, rreq) = if recv_first {
        let r = p.recv_buf(Some(5), rbuf);
        (p.send_buf(5, sbuf), r)
    } else {
        let sr = p.send_buf(5, sbuf);
        p.progress();
        (sr, p.recv_buf(Some(5), rbuf))
    };
    p.progress();
    let st = p.eng[1].take_if_done(rreq).expect(&what);
    let take = n.min(cap);
    assert_eq!((st.count, st.truncated()), (take, n > cap), "{what}");
    if let Some(r) = sreq {
        assert!(p.eng[0].take_if_done(r).is_some(), "send complete: {what}");
    }
    assert!(
        rmem[ralign..ralign + take] == data[..take],
        "payload intact: {what}"
    );
    assert!(
        rmem[..ralign]
            .iter()
            .chain(&rmem[ralign + take..])
            .all(|&b| b == 0xee),
        "nothing written outside the message: {what}"
    );
    assert!(
        smem[salign..salign + n] == data[..],
        "send buffer unchanged: {what}"
    );
    let rdma = if n <= 1024 {
        0
    } else {
        take.saturating_sub(PIPE_BASE)
    };
    assert_eq!(
        p.moved(),
        (0, rdma),
        "bytes past the send length by RDMA write: {what}"
    );
    assert_eq!(
        p.eng[0].live_requests() + p.eng[1].live_requests(),
        0,
        "{what}"
    );
    assert_eq!(p.eng[0].bad_packets + p.eng[1].bad_packets, 0, "{what}");
    p
}

#[test]
fn pipeline_delivers_around_every_boundary() {
    let (frag, depth) = (8192, 2);
    let mut sizes = vec![1, 1023, 1024, 1025, 4095, 4096, 4097, 70_001];
    for at in [
        PIPE_BASE,
        PIPE_BASE + frag,
        PIPE_BASE + depth * frag,
        PIPE_BASE + (depth + 1) * frag,
    ] {
        sizes.extend([at - 1, at, at + 1]);
    }
    for rndv in [Rndv::Pipeline, Rndv::PipelineCached] {
        let s = with_rndv(settings(true, 8192), rndv);
        for &n in &sizes {
            for recv_first in [true, false] {
                for align in [(0, 0), (1, 3), (4095, 7)] {
                    // Whole, truncated after the eager part, inside it, and to nothing.
                    for cap in [n, n / 2 + 3, 500, 0] {
                        if cap <= n {
                            pipe_trip(&s, n, cap, recv_first, align);
                        }
                    }
                }
            }
        }
    }
}

/// Split rendezvous, sender-written rendezvous and both pipelines where writes carry the
/// receiver's notice: the bytes arrive intact, every write carried one, and no PUT_DONE or
/// PIPE_FIN was sent (the notice stands for it); with every write failing, the blocks come
/// streamed and the answers are messages again.
#[test]
fn notices_stand_for_the_write_answers() {
    use super::wire::{KIND_PIPE_FIN, KIND_PUT_DONE};
    let frag = 8192;
    for (rndv, n) in [
        (Rndv::Auto, 70_001),
        (Rndv::Put, 5000),
        (Rndv::Pipeline, PIPE_BASE + 3 * frag + 1),
        (Rndv::PipelineCached, PIPE_BASE + 3 * frag + 1),
    ] {
        for recv_first in [true, false] {
            for fail in [false, true] {
                let what = format!("{rndv:?} {n} recv_first {recv_first} failing {fail}");
                let mut p =
                    Pair::new(with_rndv(settings(true, 8192), rndv), 8, fail).with_notices();
                let (data, buf, sreq, rreq) = p.trip(n, recv_first);
                let st = p.eng[1].take_if_done(rreq).expect(&what);
                assert_eq!((st.count, st.truncated()), (n, false), "{what}");
                assert!(
                    p.eng[0].take_if_done(sreq.expect(&what)).is_some(),
                    "{what}"
                );
                assert!(buf == data, "payload intact: {what}");
                let end = &p.net.ends[0];
                let answers = end.kinds[KIND_PUT_DONE as usize] + end.kinds[KIND_PIPE_FIN as usize];
                if fail {
                    assert_eq!(end.notices, 0, "{what}");
                    assert!(answers > 0, "failed writes are answered by message: {what}");
                } else {
                    assert!(end.written > 0 && end.notices > 0, "{what}");
                    assert_eq!(answers, 0, "notices stand for the answers: {what}");
                }
                assert_eq!(
                    p.eng[0].live_requests() + p.eng[1].live_requests(),
                    0,
                    "{what}"
                );
                assert_eq!(p.eng[0].bad_packets + p.eng[1].bad_packets, 0, "{what}");
                // Every notice asked for came or was forgotten; one never asked for is
                // dropped.
                assert_eq!(p.eng[1].notices_due(), 0, "{what}");
                p.eng[1].on_notice(0, 1);
                assert_eq!(p.eng[1].bad_packets, 1, "{what}");
            }
        }
    }
}

#[test]
fn pipeline_write_failures_stream_the_blocks() {
    for rndv in [Rndv::Pipeline, Rndv::PipelineCached] {
        for &n in &[5000, 70_001] {
            for recv_first in [true, false] {
                round_trip(with_rndv(settings(true, 8192), rndv), n, recv_first, true);
            }
        }
    }
}

#[test]
fn pipeline_blocks_are_cached_only_by_the_caching_pipeline() {
    for rndv in [Rndv::Pipeline, Rndv::PipelineCached] {
        let s = with_rndv(settings(true, 8192), rndv);
        let mut p = Pair::new(s, 8, false);
        let regs: Vec<Registry> = p
            .net
            .ends
            .iter_mut()
            .map(|e| e.set_cache(1 << 24))
            .collect();
        let n = 100_000;
        let data = pattern(n);
        let mut buf = vec![0u8; n];
        for round in 0..2 {
            buf.fill(0);
            let r = p.recv(Some(1), &mut buf);
            let sr = p.send(1, &data, false);
            p.progress();
            assert!(p.eng[1].take_if_done(r).is_some());
            if let Some(sr) = sr {
                assert!(p.eng[0].take_if_done(sr).is_some());
            }
            assert!(buf == data, "{rndv:?} round {round}");
            for reg in &regs {
                let st = reg.stats();
                assert!(st.registrations > 0, "{rndv:?}: blocks registered");
                if rndv == Rndv::Pipeline {
                    assert_eq!(reg.entries(), 0, "plain pipeline: all deregistered");
                    assert_eq!(st.cache_hits, 0);
                } else {
                    assert!(reg.entries() > 0, "caching pipeline: blocks kept");
                    if round == 1 {
                        assert!(st.cache_hits > 0, "second round reuses the blocks");
                    }
                }
            }
        }
    }
}

/// `Auto` under pin-down: a fresh buffer goes through the caching pipeline; sent again, its
/// blocks are cached and it takes the split rendezvous. Under ODP it never pipelines. The
/// send buffer starts at a block window's start, and just before a window's end (then its
/// first window holds only streamed bytes and is never registered: reuse must be told from
/// the window of the first RDMA block).
#[test]
fn auto_pipelines_fresh_buffers_under_pin_down() {
    use crate::registration::RegPolicy;
    // Pins: serialised with the registration tests' VmLck checks.
    let _g = crate::registration::tests::serial();
    let frag = 64 << 10;
    for (policy, skew) in [
        (RegPolicy::Pin, 0),
        (RegPolicy::Pin, frag - 100),
        (RegPolicy::OdpOptimal, 0),
    ] {
        let mut s = with_rndv(settings(true, 8192), Rndv::Auto);
        s.pipeline.frag = frag;
        let mut p = Pair::new(s, 8, false);
        let regs: Vec<Registry> = p
            .net
            .ends
            .iter_mut()
            .map(|e| e.set_cache(1 << 24))
            .collect();
        for e in &mut p.eng {
            e.reg_policy = policy;
        }
        let n = 300_000;
        let mut mem = vec![0u8; n + 2 * frag];
        let at = (mem.as_ptr() as usize).div_ceil(frag) * frag + skew - mem.as_ptr() as usize;
        let data = &mut mem[at..at + n];
        data.copy_from_slice(&pattern(n));
        let data = &*data;
        let mut buf = vec![0u8; n];
        for round in 0..3 {
            buf.fill(0);
            let r = p.recv(Some(1), &mut buf);
            let sr = p.send(1, data, false).expect("rendezvous");
            let pipelined = p.eng[0].pipelines() > 0;
            p.progress();
            assert!(p.eng[1].take_if_done(r).is_some());
            assert!(p.eng[0].take_if_done(sr).is_some());
            assert!(buf == data, "{policy:?} skew {skew} round {round}");
            assert_eq!(
                pipelined,
                policy == RegPolicy::Pin && round == 0,
                "{policy:?} skew {skew} round {round}"
            );
        }
        drop(p);
        for reg in regs {
            let st = reg.stats();
            assert_eq!(st.registrations, st.deregistrations);
        }
    }
}

#[test]
fn forged_pipeline_packets_are_rejected_without_touching_memory() {
    use super::wire;
    let s = with_rndv(settings(true, 8192), Rndv::Pipeline);
    let n = 50_000;
    let data = pattern(n);
    let mut guard = vec![0xeeu8; 1 << 16];
    let gaddr = guard.as_mut_ptr() as u64;
    // The guard, registered at the receiver: the one READY that passes names its key.

    // Sender side: the PIPE_RTS is out, nothing answered yet.
    let mut p = Pair::new(s.clone(), 8, false);
    let greg = p.net.ends[1]
        .registry
        .register(gaddr as usize, guard.len(), crate::registration::Mode::Odp)
        .unwrap();
    let gkey = &greg.keys().remotes();
    let shm = crate::fabric::SlotSet::one(crate::fabric::slot::SHM);
    let sr = p.send(5, &data, false).expect("pipeline waits");
    let bad = [
        // READY before any ACK.
        ready(sr, 9, PIPE_BASE as u64, 100, gaddr, shm, gkey),
        // ACKs for an unknown send, past the message, before the eager part's end, with
        // the RDMA offset past the limit.
        wire::pipe_ack(sr ^ (1 << 40), 9, PIPE_BASE as u64, n as u64),
        wire::pipe_ack(sr, 9, PIPE_BASE as u64, n as u64 + 1),
        wire::pipe_ack(sr, 9, 10, n as u64),
        wire::pipe_ack(sr, 9, 2000, 1000),
    ];
    for (pkt, len) in bad {
        p.eng[0].on_packet(1, &pkt[..len]);
    }
    assert_eq!(p.eng[0].bad_packets, 5);
    // A valid-looking ACK, then READYs outside what it allows.
    let (ack, len) = wire::pipe_ack(sr, 9, PIPE_BASE as u64, 20_000);
    p.eng[0].on_packet(1, &ack[..len]);
    let bad = [
        ready(sr, 8, PIPE_BASE as u64, 100, gaddr, shm, gkey), // other receive
        ready(sr, 9, 100, 100, gaddr, shm, gkey),              // in the streamed part
        ready(sr, 9, 19_990, 100, gaddr, shm, gkey),           // past the limit
        ready(sr, 9, u64::MAX - 5, 100, gaddr, shm, gkey),     // wrapping
        ready(sr, 9, PIPE_BASE as u64, 0, gaddr, shm, gkey),   // empty
        wire::pipe_ack(sr, 9, PIPE_BASE as u64, 20_000),       // a second ACK
    ];
    for (pkt, len) in bad {
        p.eng[0].on_packet(1, &pkt[..len]);
    }
    assert_eq!(p.eng[0].bad_packets, 11);
    // READYs asking for more than the RDMA part holds (each byte once): the second is
    // refused.
    let part = (20_000 - PIPE_BASE) as u64;
    let (r1, l1) = ready(sr, 9, PIPE_BASE as u64, part, gaddr, shm, gkey);
    p.eng[0].on_packet(1, &r1[..l1]);
    p.eng[0].on_packet(1, &r1[..l1]);
    assert_eq!(p.eng[0].bad_packets, 12);
    // Run the one accepted write: the guard takes exactly those bytes.
    p.eng[0].run_rdma(&mut p.net.ends[0]);
    p.net.carry(&mut p.eng);
    assert!(guard[..part as usize] == data[PIPE_BASE..20_000]);
    assert!(guard[part as usize..].iter().all(|&b| b == 0xee));

    // Receiver side: matched, first blocks READY'd, FIN awaited.
    let mut p = Pair::new(s, 8, false);
    let mut buf = vec![0xeeu8; n];
    let r = p.recv(Some(5), &mut buf);
    let sr = p.send(5, &data, false).expect("pipeline waits");
    // The PIPE_RTS reaches the receiver, whose ACK and READYs stay in flight.
    p.net.carry(&mut p.eng);
    p.eng[1].flush(&mut p.net.ends[1]);
    p.eng[1].run_rdma(&mut p.net.ends[1]);
    let bad = [
        wire::pipe_fin(r, PIPE_BASE as u64 + 1, 8192, true), // not a block
        wire::pipe_fin(r, PIPE_BASE as u64, 8191, true),     // not its length
        wire::pipe_fin(r ^ (1 << 40), PIPE_BASE as u64, 8192, true), // unknown receive
    ];
    for (pkt, len) in bad {
        p.eng[1].on_packet(0, &pkt[..len]);
    }
    // Stream data into the eager part or past the message.
    let mut d = wire::rndv_data_header(r, 0).to_vec();
    d.push(1);
    p.eng[1].on_packet(0, &d);
    let mut d = wire::rndv_data_header(r, n as u64 - 1).to_vec();
    d.extend([1, 2]);
    p.eng[1].on_packet(0, &d);
    assert_eq!(p.eng[1].bad_packets, 5);
    assert!(buf[..1024] == data[..1024], "eager part delivered");
    assert!(
        buf[1024..].iter().all(|&b| b == 0xee),
        "nothing else written"
    );
    // The genuine transfer still completes intact.
    p.progress();
    assert!(p.eng[1].take_if_done(r).is_some());
    assert!(p.eng[0].take_if_done(sr).is_some());
    assert!(buf == data);
    assert_eq!(p.eng[0].bad_packets, 0);
}

#[test]
fn matched_probe_takes_the_message_out_of_matching() {
    // Eager, rendezvous (RGET), and pipeline (its eager part rides with the header).
    for (s, n) in [
        (settings(true, 0), 500),
        (settings(true, 0), 50_000),
        (with_rndv(settings(true, 0), Rndv::Pipeline), 50_000),
    ] {
        let mut p = Pair::new(s, 8, false);
        let first = pattern(n);
        let second: Vec<u8> = first.iter().map(|b| !b).collect();
        let s1 = p.send(3, &first, false);
        let s2 = p.send(3, &second, false);
        p.progress();
        let pat = Pattern {
            ctx: 7,
            src: None,
            tag: Some(3),
        };
        let (msg, st) = p.eng[1].improbe(&pat).expect("a message is there");
        assert_eq!((st.source, st.tag, st.count), (0, 3, n));
        // A receive posted now gets the second message, not the probed one.
        let mut b2 = vec![0u8; n];
        let r2 = p.recv(Some(3), &mut b2);
        let mut b1 = vec![0u8; n];
        // SAFETY: b1 outlives the receive (taken below).
        let r1 =
            unsafe { p.eng[1].mrecv(msg, MsgBuf::contig(b1.as_mut_ptr(), n), Default::default()) }
                .expect("the probed message");
        // SAFETY: as above; a message is received once.
        assert!(unsafe {
            p.eng[1].mrecv(msg, MsgBuf::contig(b1.as_mut_ptr(), n), Default::default())
        }
        .is_none());
        p.progress();
        assert_eq!(p.eng[1].take_if_done(r1).expect("mrecv complete").count, n);
        assert_eq!(p.eng[1].take_if_done(r2).expect("recv complete").count, n);
        assert!(
            b1 == first && b2 == second,
            "{n} bytes: each message where it belongs"
        );
        for s in [s1, s2].into_iter().flatten() {
            assert!(p.eng[0].take_if_done(s).is_some(), "send complete");
        }
        assert!(p.eng[1].improbe(&pat).is_none());
        assert_eq!(p.eng[0].live_requests() + p.eng[1].live_requests(), 0);
    }
}

#[test]
fn small_messages_by_rendezvous() {
    for rndv in [
        Rndv::Auto,
        Rndv::Get,
        Rndv::Put,
        Rndv::Copy,
        Rndv::Pipeline,
        Rndv::PipelineCached,
    ] {
        for &n in &[1, 7, 1000, 5000] {
            for recv_first in [true, false] {
                let mut s = with_rndv(settings(true, 0), rndv);
                s.eager_limit = 0;
                round_trip(s, n, recv_first, false);
            }
        }
    }
}

/// A sender that does not poll cannot read the receiver's THROTTLE: past a quarter of the
/// unexpected limit of eager bytes with no progress round between, it sends by rendezvous
/// by itself, and eager again after a round.
#[test]
fn eager_sends_without_a_poll_turn_to_rendezvous() {
    let mut p = Pair::new(settings(true, 0), 8, false);
    p.eng[0].unexpected_limit = 4000;
    let m = pattern(600);
    let sends: Vec<_> = (0..3).map(|_| p.send(4, &m, false)).collect();
    assert!(
        sends[0].is_none() && sends[1].is_none(),
        "eager up to 1000 bytes"
    );
    assert!(sends[2].is_some(), "then rendezvous");
    p.progress();
    let again = p.send(4, &m, false);
    assert!(again.is_none(), "eager again after a progress round");
    let mut bufs = vec![vec![0u8; 600]; 4];
    for b in bufs.iter_mut() {
        let r = p.recv(Some(4), b);
        p.progress();
        assert!(p.eng[1].take_if_done(r).is_some(), "received");
    }
    assert!(bufs.iter().all(|b| *b == m), "every message intact");
    assert!(p.eng[0].take_if_done(sends[2].unwrap()).is_some());
}

#[test]
fn unexpected_flood_switches_the_sender_to_rendezvous() {
    let mut p = Pair::new(settings(true, 0), 8, false);
    p.eng[1].unexpected_limit = 4000;
    let msgs: Vec<Vec<u8>> = (0..12u8)
        .map(|i| pattern(1000).iter().map(|b| b ^ i).collect())
        .collect();
    let mut sends = Vec::new();
    for m in &msgs {
        sends.push(p.send(4, m, false));
        p.progress();
    }
    // The fifth takes the receiver past 4000 bytes: from the sixth on, rendezvous.
    assert!(sends[..5].iter().all(Option::is_none), "eager first");
    assert!(sends[5..].iter().all(Option::is_some), "then rendezvous");
    assert_eq!(p.eng[1].unexpected_held(0), 5000);
    let mut bufs = vec![vec![0u8; 1000]; msgs.len()];
    for b in bufs.iter_mut() {
        let r = p.recv(Some(4), b);
        p.progress();
        assert_eq!(p.eng[1].take_if_done(r).expect("received").count, 1000);
    }
    assert!(bufs == msgs, "every message intact, in order");
    for s in sends.into_iter().flatten() {
        assert!(
            p.eng[0].take_if_done(s).is_some(),
            "rendezvous send complete"
        );
    }
    assert_eq!(p.eng[1].unexpected_held(0), 0);
    // Down to half the limit: eager again.
    assert!(p.send(4, &msgs[0], false).is_none());
    p.progress();
    let mut b = vec![0u8; 1000];
    let r = p.recv(Some(4), &mut b);
    p.progress();
    assert!(p.eng[1].take_if_done(r).is_some() && b == msgs[0]);
    assert_eq!(p.eng[0].bad_packets + p.eng[1].bad_packets, 0);
}
