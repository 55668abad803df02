//! MPI_Comm_accept, MPI_Comm_connect, MPI_Comm_join and MPI_Comm_disconnect (see the
//! module's description in `mod.rs`).

use super::card::{Answer, Card, Offer, Verdict, CARD};
use super::port::{self, read_frame, write_frame, MAX_FRAME};
use super::Gpid;
use crate::coll;
use crate::comm::context::Claim;
use crate::comm::{Communicator, Group};
use crate::error::{Error, ErrorClass, Result};
use crate::fabric::tcp::{self, random, TcpContext, TcpRail, TcpSettings};
use crate::fabric::{AnyRail, Doorbell, Route};
use crate::mpi_err;
use crate::runtime::contexts::{Across, Line};
use crate::runtime::World;
use std::collections::HashSet;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The key under which a spawned job finds its parents' port (MPICH's name).
const PARENT_PORT_KEY: &str = "PARENT_ROOT_PORT_NAME";

/// One command of MPI_Comm_spawn(_multiple).
#[derive(Clone, Debug)]
pub struct SpawnCmd {
    pub command: String,
    /// argv[1..] (MPI's argv has no program name).
    pub args: Vec<String>,
    pub maxprocs: u32,
    /// The info's keys and values, passed to the launcher (Hydra: host, hosts,
    /// hostfile, wdir, path).
    pub info: Vec<(String, String)>,
}

impl SpawnCmd {
    /// One command's arguments, checked: `maxprocs` positive (MPI_ERR_ARG); no info yet.
    pub fn new(command: String, args: Vec<String>, maxprocs: i32) -> Result<SpawnCmd> {
        let Ok(maxprocs @ 1..) = u32::try_from(maxprocs) else {
            return mpi_err!(Arg, "invalid maxprocs {maxprocs}");
        };
        Ok(SpawnCmd {
            command,
            args,
            maxprocs,
            info: Vec::new(),
        })
    }
}

/// Whether `fd` is a socket of type SOCK_STREAM.
fn stream_socket(fd: std::os::fd::RawFd) -> bool {
    let mut ty: libc::c_int = 0;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `len` bytes into `ty`, an int; a bad descriptor is
    // an error it returns.
    let rc = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_TYPE,
            &mut ty as *mut libc::c_int as *mut libc::c_void,
            &mut len,
        )
    };
    fd >= 0 && rc == 0 && ty == libc::SOCK_STREAM
}

/// Which end of a join a group is: the acceptors are numbered first on the new rail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Acceptor,
    Connector,
}

/// How long a root waits for the other root's cards once their connection is up (both
/// are inside their calls by then).
const EXCHANGE_DEADLINE: Duration = Duration::from_secs(60);

impl World {
    /// The tcp settings new links use: the job's, or the defaults where it has no tcp
    /// rail (one host).
    fn link_settings(&self) -> TcpSettings {
        self.config.rails.tcp.clone().unwrap_or_default()
    }

    /// The address new tcp links (and ports) listen on: the tcp rail's first interface.
    fn link_ip(&self) -> Result<std::net::IpAddr> {
        tcp::rail_addrs(&self.link_settings())
            .map(|a| a[0])
            .map_err(|m| Error::new(ErrorClass::Other, m))
    }

    /// MPI_Open_port: a port on the address new tcp links listen on.
    pub fn open_port(&self) -> Result<String> {
        port::open(self.link_ip()?)
    }

    /// MPI_Comm_accept (collective over `comm`; `port_name` is significant at `root`).
    pub fn comm_accept(
        &self,
        port_name: Option<&str>,
        comm: &Communicator,
        root: usize,
    ) -> Result<Arc<Communicator>> {
        self.join_groups(comm, root, Side::Acceptor, |cards| {
            let name = port_name.ok_or_else(|| Error::new(ErrorClass::Port, "no port name"))?;
            let s = port::accept(name, || self.progress.with(|_| ()))?;
            let verdict = accept_on(&s, cards)?;
            Ok((
                verdict,
                Box::new(move |mine| swap_frame(&s, mine)) as Box<Line>,
            ))
        })
    }

    /// MPI_Comm_connect (collective over `comm`; `port_name` is significant at `root`).
    pub fn comm_connect(
        &self,
        port_name: Option<&str>,
        comm: &Communicator,
        root: usize,
    ) -> Result<Arc<Communicator>> {
        self.join_groups(comm, root, Side::Connector, |cards| {
            let name = port_name.ok_or_else(|| Error::new(ErrorClass::Port, "no port name"))?;
            let s = port::connect(name, self.config.connect_timeout)?;
            let verdict = connect_on(&s, cards)?;
            Ok((
                verdict,
                Box::new(move |mine| swap_frame(&s, mine)) as Box<Line>,
            ))
        })
    }

    /// MPI_Comm_join: the two processes at the ends of the connected socket `fd` (which
    /// stays the caller's) join; the one with the higher draw accepts. A descriptor that
    /// is not a stream socket is the caller's error (MPI_ERR_ARG).
    pub fn comm_join(&self, fd: std::os::fd::RawFd) -> Result<Arc<Communicator>> {
        use std::os::fd::FromRawFd;
        if !stream_socket(fd) {
            return mpi_err!(Arg, "MPI_Comm_join: {fd} is not a stream socket");
        }
        // SAFETY: the application gives us `fd`, a connected socket, for the call; the
        // ManuallyDrop leaves it open, as MPI wants.
        let s = std::mem::ManuallyDrop::new(unsafe { TcpStream::from_raw_fd(fd) });
        let deadline = Instant::now() + self.config.connect_timeout;
        let fail = |e: std::io::Error| {
            Error::new(ErrorClass::Arg, format!("MPI_Comm_join: the socket: {e}"))
        };
        let mine = (u64::from_le_bytes(random()), self.peers.gpid(self.rank));
        let mut draw = mine.0.to_le_bytes().to_vec();
        draw.extend_from_slice(&mine.1.job.to_le_bytes());
        draw.extend_from_slice(&mine.1.rank.to_le_bytes());
        write_frame(&s, &draw).map_err(fail)?;
        let theirs = read_frame(&s, 20, deadline).map_err(fail)?;
        if theirs.len() != 20 {
            return mpi_err!(Arg, "MPI_Comm_join: the other end is not joining");
        }
        let their_draw = (
            u64::from_le_bytes(theirs[..8].try_into().expect("8 bytes")),
            Gpid {
                job: u64::from_le_bytes(theirs[8..16].try_into().expect("8 bytes")),
                rank: u32::from_le_bytes(theirs[16..20].try_into().expect("4 bytes")),
            },
        );
        if their_draw.1 == mine.1 {
            return mpi_err!(
                Arg,
                "MPI_Comm_join: both ends of the socket are this process"
            );
        }
        let side = if mine > their_draw {
            Side::Acceptor
        } else {
            Side::Connector
        };
        let me = self.comm_self.clone();
        let joined = self.join_groups(&me, 0, side, |cards| {
            let verdict = match side {
                Side::Acceptor => accept_on(&s, cards)?,
                Side::Connector => connect_on(&s, cards)?,
            };
            Ok((verdict, Box::new(|mine| swap_frame(&s, mine)) as Box<Line>))
        });
        // The socket goes back as it came: no receive timeout of ours left on it.
        let _ = s.set_read_timeout(None);
        joined
    }

    /// MPI_Intercomm_create between groups of more than one job (collective over both):
    /// the members may not all know each other (a spawner's siblings and its children),
    /// so the groups join as accept and connect join them — cards gathered, the leaders
    /// swap them, the `acceptor` side's leader draws the link's secret, and each member
    /// links to the processes it did not know — but with the leaders' exchange going
    /// over the peer communicator (`swap`, run at `leader` only: sends this side's message
    /// and returns the other's; again for each round of the context agreement), which
    /// joins the leaders already.
    pub(crate) fn intercomm_join(
        &self,
        local_comm: &Communicator,
        leader: usize,
        acceptor: bool,
        mut swap: impl FnMut(&[u8]) -> Result<Vec<u8>>,
    ) -> Result<Arc<Communicator>> {
        let side = if acceptor {
            Side::Acceptor
        } else {
            Side::Connector
        };
        let bad = || {
            Error::new(
                ErrorClass::Intern,
                "the remote leader's cards did not decode",
            )
        };
        self.join_groups(local_comm, leader, side, move |cards| {
            let verdict = if acceptor {
                let secret = random();
                let theirs = swap(
                    &Answer {
                        secret,
                        cards: cards.clone(),
                    }
                    .encode(),
                )?;
                let offer = Offer::decode(&theirs).ok_or_else(bad)?;
                Verdict::Joined {
                    secret,
                    acceptors: cards,
                    connectors: offer.cards,
                }
            } else {
                let theirs = swap(
                    &Offer {
                        cards: cards.clone(),
                    }
                    .encode(),
                )?;
                let answer = Answer::decode(&theirs).ok_or_else(bad)?;
                Verdict::Joined {
                    secret: answer.secret,
                    acceptors: answer.cards,
                    connectors: cards,
                }
            };
            let line = move |mine: [u8; 8]| -> Result<[u8; 8]> {
                swap(&mine)?.try_into().map_err(|_| bad())
            };
            Ok((verdict, Box::new(line) as Box<Line>))
        })
    }

    /// MPI_Comm_disconnect (collective over both groups): what was sent on `comm` has
    /// arrived; the caller then frees it.
    pub fn comm_disconnect(&self, comm: &Communicator) -> Result<()> {
        self.progress.wait(|e| (!e.p2p.has_output()).then_some(()));
        let local = comm.local_comm();
        coll::direct::barrier(self, local, coll::TAG_RUNTIME_BARRIER, false)?;
        if comm.is_inter() {
            self.swap_u32(comm, 0)?;
        }
        Ok(())
    }

    /// After MPI_Comm_disconnect: closes the links to other jobs whose processes no
    /// communicator names any more (`in_use`: the peers the application's communicators
    /// name, which the caller knows; and the parent's while `parent_needed`, its handle not
    /// made yet), so a program that spawns and disconnects again and again keeps no
    /// threads, sockets or buffers of the jobs it is done with. Each side of a link
    /// decides alike (the constructors of communicators are collective over both), and
    /// closing says goodbye on the connections first, as finalize does.
    pub fn release_links(&self, mut in_use: HashSet<usize>, parent_needed: bool) {
        if let Some(p) = self.parent.get().filter(|_| parent_needed) {
            in_use.extend(p.peers.members.iter().copied());
        }
        for r in self.peers.unused_links(&|p| in_use.contains(&p)) {
            let mut rail = self.progress.locked(|e| e.channels.take_rail(r));
            rail.close();
            tracing::debug!(rail = r, "closed a link to another job");
        }
    }

    /// MPI_Comm_spawn(_multiple) (collective over `comm`): the root checks the number of
    /// commands (MPI_ERR_ARG unless positive) and reads them (`cmds`: significant there
    /// only, not called elsewhere), opens a port, asks the launcher to start the processes
    /// with the port in their key-value space (`PARENT_ROOT_PORT_NAME`, as MPICH does, so
    /// programs of either library find their parent under Hydra), and accepts their
    /// MPI_COMM_WORLD's connect.
    pub fn comm_spawn(
        &self,
        count: i32,
        cmds: impl FnOnce() -> Result<Vec<SpawnCmd>>,
        comm: &Communicator,
        root: usize,
    ) -> Result<Arc<Communicator>> {
        let cmds = if comm.rank == root {
            if count <= 0 {
                return mpi_err!(Arg, "invalid count {count}");
            }
            Some(cmds()?)
        } else {
            None
        };
        let cmds = cmds.as_deref();
        self.join_groups(comm, root, Side::Acceptor, |cards| {
            let cmds = cmds.ok_or_else(|| Error::new(ErrorClass::Spawn, "no commands"))?;
            let name = self.open_port()?;
            let blocks = cmds
                .iter()
                .map(|c| crate::runtime::pmi::wire::SpawnBlock {
                    nprocs: c.maxprocs,
                    execname: c.command.clone(),
                    args: c.args.clone(),
                    preput: vec![(PARENT_PORT_KEY.to_string(), name.clone())],
                    info: c.info.clone(),
                })
                .collect();
            let joined = match self.pmi.spawn(blocks) {
                Ok(codes) if !codes.is_empty() && codes.iter().all(|&c| c != 0) => mpi_err!(
                    Spawn,
                    "the launcher started none of the processes (codes {codes:?})"
                ),
                Ok(_) => port::accept(&name, || self.progress.with(|_| ())).and_then(|s| {
                    let verdict = accept_on(&s, cards)?;
                    Ok((
                        verdict,
                        Box::new(move |mine| swap_frame(&s, mine)) as Box<Line>,
                    ))
                }),
                Err(e) => mpi_err!(Spawn, "the launcher did not start the processes: {e}"),
            };
            let _ = port::close(&name);
            joined
        })
    }

    /// A spawned job's MPI_Init: its MPI_COMM_WORLD connects to the parents' port.
    pub(crate) fn connect_parent(&self) -> Result<()> {
        let port = match self.rank {
            0 => Some(self.pmi.get(PARENT_PORT_KEY).map_err(|e| {
                Error::new(
                    ErrorClass::Spawn,
                    format!("spawned, but no parent port ({PARENT_PORT_KEY}): {e}"),
                )
            })?),
            _ => None,
        };
        let world = self.comm_world.clone();
        let parent = self.comm_connect(port.as_deref(), &world, 0)?;
        let _ = self.parent.set(parent);
        Ok(())
    }

    /// MPI_Publish_name, through the launcher's name service.
    pub fn publish_name(&self, service: &str, port: &str) -> Result<()> {
        self.pmi
            .publish_name(service, port)
            .map_err(|e| Error::new(ErrorClass::Service, format!("publishing {service:?}: {e}")))
    }

    pub fn unpublish_name(&self, service: &str) -> Result<()> {
        self.pmi.unpublish_name(service).map_err(|e| {
            Error::new(
                ErrorClass::Service,
                format!("unpublishing {service:?}: {e}"),
            )
        })
    }

    pub fn lookup_name(&self, service: &str) -> Result<String> {
        self.pmi
            .lookup_name(service)
            .map_err(|e| Error::new(ErrorClass::Name, format!("looking up {service:?}: {e}")))
    }

    /// The join both calls share: every member opens a listener and gives its card, the
    /// root runs `exchange` (its group's cards → the verdict, and its line to the other
    /// root) and tells the group, both groups agree on the context id (the roots exchanging
    /// each round on that line), and each member links to the processes it did not know.
    fn join_groups<'l>(
        &self,
        comm: &Communicator,
        root: usize,
        side: Side,
        exchange: impl FnOnce(Vec<Card>) -> Result<(Verdict, Box<Line<'l>>)>,
    ) -> Result<Arc<Communicator>> {
        let ip = self.link_ip()?;
        let listener = tcp::listen(ip).map_err(|m| Error::new(ErrorClass::Other, m))?;
        let card = Card {
            gpid: self.peers.gpid(self.rank),
            addr: listener
                .local_addr()
                .map_err(|e| Error::new(ErrorClass::Other, e.to_string()))?,
            host: self.processor_name.clone(),
        };
        let n = comm.size();
        let mut all = vec![0u8; n * CARD];
        all[comm.rank * CARD..(comm.rank + 1) * CARD].copy_from_slice(&card.encode());
        coll::direct::allgather(self, comm, coll::TAG_RUNTIME_ALLGATHER, &mut all)?;
        let mut verdict = Vec::new();
        let mut line = None;
        if comm.rank == root {
            let cards = all
                .chunks_exact(CARD)
                .map(Card::decode)
                .collect::<Option<Vec<Card>>>();
            let v = match cards {
                Some(cards) => exchange(cards).and_then(|(v, l)| {
                    line = Some(l);
                    check(v)
                }),
                None => mpi_err!(Intern, "a member's card did not decode"),
            };
            verdict = v
                .unwrap_or_else(|mut e| Verdict::Failed {
                    class: ErrorClass::ALL
                        .iter()
                        .position(|&c| c == e.class)
                        .unwrap_or(0) as u8,
                    msg: std::mem::take(&mut e.msg),
                })
                .encode();
        }
        let verdict = self.bcast_bytes(comm, verdict, root)?;
        match Verdict::decode(&verdict) {
            Some(Verdict::Joined {
                secret,
                acceptors,
                connectors,
            }) => {
                // Checked at every member, whatever the thread levels: the other job's
                // processes do not say theirs.
                let across = Across {
                    root,
                    line: line.as_deref_mut(),
                };
                let ctx = self.agree_context(comm, Some(across), true)?;
                drop(line);
                self.link(comm, side, ctx, secret, acceptors, connectors, listener)
            }
            Some(Verdict::Failed { class, msg }) => Err(Error::new(
                ErrorClass::ALL
                    .get(class as usize)
                    .copied()
                    .unwrap_or(ErrorClass::Other),
                msg,
            )),
            None => mpi_err!(Intern, "the root's verdict did not decode"),
        }
    }

    /// Become one with the other group: a tcp rail over both groups (acceptors first) for
    /// the processes not known here, and the intercommunicator.
    #[allow(clippy::too_many_arguments)]
    fn link(
        &self,
        comm: &Communicator,
        side: Side,
        ctx: Claim,
        secret: tcp::Secret,
        acceptors: Vec<Card>,
        connectors: Vec<Card>,
        listener: TcpListener,
    ) -> Result<Arc<Communicator>> {
        // Another thread's disconnect closes no link from here until the intercommunicator
        // is known to be in use (`Peers::joined`).
        let _pin = self.peers.pin();
        let (na, theirs) = match side {
            Side::Acceptor => (0, &connectors),
            Side::Connector => (acceptors.len(), &acceptors),
        };
        let union: Vec<&Card> = acceptors.iter().chain(&connectors).collect();
        let me = match side {
            Side::Acceptor => comm.rank,
            Side::Connector => acceptors.len() + comm.rank,
        };
        let their_offset = acceptors.len() - na;
        let unknown: Vec<(usize, Gpid)> = theirs
            .iter()
            .enumerate()
            .filter(|(_, c)| self.peers.index(c.gpid).is_none())
            .map(|(i, c)| (their_offset + i, c.gpid))
            .collect();
        if !unknown.is_empty() {
            let settings = self.link_settings();
            self.progress.locked(|e| -> Result<()> {
                let rail = TcpRail::start(
                    &TcpContext {
                        me,
                        hosts: union.iter().map(|c| c.host.clone()).collect(),
                        secret,
                        domain: Arc::new(crate::fabric::shm::domain::ShmDomain::private()),
                        wait: e.channels.wait_handle(),
                        service_bell: Doorbell::local(),
                        connect: tcp::Connect::Lazy,
                        timeout_ms: settings.timeout_ms,
                        failover_timeout_ms: settings.failover_timeout_ms,
                        eager_limit: settings.eager_limit,
                        survive_loss: false,
                    },
                    listener,
                    union.iter().map(|c| c.addr).collect(),
                )
                .map_err(|m| Error::new(ErrorClass::Other, m))?;
                let caps = crate::fabric::Rail::caps(&rail).clone();
                let r = e.channels.add_rail(AnyRail::Dyn(Box::new(rail)));
                let mut added = Vec::new();
                for &(u, g) in &unknown {
                    let i = e.channels.add_peer(&[Route { rail: r, peer: u }]);
                    let j = e.p2p.add_peer(caps.eager_limit, caps.max_message);
                    assert_eq!(i, j, "channels and engine number peers alike");
                    self.peers.add(g, i);
                    added.push(i);
                }
                self.peers.linked(r, added);
                Ok(())
            })?;
            tracing::debug!(joined = unknown.len(), "linked to processes of another job");
        }
        let remote = theirs
            .iter()
            .map(|c| self.peers.index(c.gpid).expect("known or just linked"))
            .collect();
        let ctx = ctx.keep();
        tracing::debug!(
            ctx,
            remote = theirs.len(),
            "an intercommunicator joins two groups"
        );
        let inter = Arc::new(Communicator::new_inter(
            ctx,
            comm.rank,
            comm.group.clone(),
            Arc::new(Group::new(remote)),
        ));
        self.peers.joined(&inter);
        Ok(inter)
    }
}

/// The root's check of what the other side sent: each process named once (so none of
/// ours among theirs), and someone on each side.
fn check(v: Verdict) -> Result<Verdict> {
    if let Verdict::Joined {
        acceptors,
        connectors,
        ..
    } = &v
    {
        let mut seen: Vec<Gpid> = acceptors.iter().chain(connectors).map(|c| c.gpid).collect();
        seen.sort_unstable();
        if acceptors.is_empty() || connectors.is_empty() || seen.windows(2).any(|w| w[0] == w[1]) {
            return mpi_err!(
                Port,
                "the other side named no process, or one twice, or one of ours"
            );
        }
    }
    Ok(v)
}

/// A root's part of a round of the context agreement, on the connection `s` to the other
/// root (each sends its part, then reads the other's).
fn swap_frame(s: &TcpStream, mine: [u8; 8]) -> Result<[u8; 8]> {
    let fail = |e: std::io::Error| Error::new(ErrorClass::Port, format!("the other root: {e}"));
    write_frame(s, &mine).map_err(fail)?;
    let theirs = read_frame(s, 8, Instant::now() + EXCHANGE_DEADLINE).map_err(fail)?;
    theirs
        .try_into()
        .map_err(|_| Error::new(ErrorClass::Port, "the other root sent a malformed round"))
}

/// The acceptor root's exchange on the proven connection `s`.
fn accept_on(s: &TcpStream, cards: Vec<Card>) -> Result<Verdict> {
    let fail = |e: std::io::Error| Error::new(ErrorClass::Port, format!("the connector: {e}"));
    let offer = read_frame(s, MAX_FRAME, Instant::now() + EXCHANGE_DEADLINE).map_err(fail)?;
    let offer = Offer::decode(&offer)
        .ok_or_else(|| Error::new(ErrorClass::Port, "the connector sent a malformed offer"))?;
    let answer = Answer {
        secret: random(),
        cards,
    };
    write_frame(s, &answer.encode()).map_err(fail)?;
    Ok(Verdict::Joined {
        secret: answer.secret,
        acceptors: answer.cards,
        connectors: offer.cards,
    })
}

/// The connector root's exchange on the proven connection `s`.
fn connect_on(s: &TcpStream, cards: Vec<Card>) -> Result<Verdict> {
    let fail = |e: std::io::Error| Error::new(ErrorClass::Port, format!("the acceptor: {e}"));
    write_frame(
        s,
        &Offer {
            cards: cards.clone(),
        }
        .encode(),
    )
    .map_err(fail)?;
    let answer = read_frame(s, MAX_FRAME, Instant::now() + EXCHANGE_DEADLINE).map_err(fail)?;
    let answer = Answer::decode(&answer)
        .ok_or_else(|| Error::new(ErrorClass::Port, "the acceptor sent a malformed answer"))?;
    Ok(Verdict::Joined {
        secret: answer.secret,
        acceptors: answer.cards,
        connectors: cards,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spawn_commands_need_processes() {
        let cmd = SpawnCmd::new("prog".into(), vec!["-x".into()], 2).unwrap();
        assert_eq!((cmd.maxprocs, cmd.args.len(), cmd.info.len()), (2, 1, 0));
        for bad in [0, -1, i32::MIN] {
            let e = SpawnCmd::new("prog".into(), Vec::new(), bad).unwrap_err();
            assert_eq!(e.class, ErrorClass::Arg);
        }
    }

    #[test]
    fn only_stream_sockets_join() {
        use std::os::fd::AsRawFd;
        let (a, _b) = std::os::unix::net::UnixStream::pair().unwrap();
        assert!(stream_socket(a.as_raw_fd()));
        let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        assert!(!stream_socket(udp.as_raw_fd()));
        let file = std::fs::File::open("/dev/null").unwrap();
        assert!(!stream_socket(file.as_raw_fd()));
        assert!(!stream_socket(-1));
    }
}
