//! `open`: build the rails a job can use and tell which rails reach each peer.
//!
//! Ranks are grouped by host name (exchanged through the launcher's key-value space); the
//! ranks of this host share the `shm` rail, and the providers between hosts — `verbs` (a
//! rail per port) and `tcp` (a rail per interface and connection), either or both —
//! reach the others (every rank, when shm is not in use), each over every such rail. Each
//! rail keys registrations in its own memory domain (shm and tcp: a key table each; verbs:
//! the port's protection domain); a registration is made in all of them, and a peer is
//! given the keys of the rails that reach it (`Channels::key_slots`). A rank that no rail
//! reaches is an error naming it and its host.

use super::loopback::LoopbackRail;
use super::shm::domain::ShmDomain;
use super::shm::{ShmRail, ShmSettings};
use super::tcp::{
    address_key, peer_addr, random, secret_from_hex, secret_to_hex, Secret, TcpContext, TcpRail,
    TcpSettings,
};
use super::verbs::service::VerbsService;
use super::verbs::{VerbsContext, VerbsRail, VerbsSettings};
use super::{AnyRail, Doorbell, Rail, Service};
use std::sync::Arc;

/// What the rails need from the launcher to find each other (PMI: put, fence, get).
pub trait Bootstrap {
    fn rank(&self) -> usize;
    fn size(&self) -> usize;
    /// Publish `value` under `key` (visible to others after the next `barrier`).
    fn put(&self, key: &str, value: &str) -> Result<(), String>;
    /// A value another rank published before the last `barrier`.
    fn get(&self, key: &str) -> Result<String, String>;
    /// Every rank of the job reaches this point (and sees what was put before it).
    fn barrier(&self) -> Result<(), String>;
}

/// Settings of the rails (from `RAILMPI_*` variables, parsed by the runtime).
#[derive(Clone, Debug)]
pub struct FabricSettings {
    /// This process's host name: ranks with the same name share the shm rail.
    pub host: String,
    pub shm: ShmSettings,
    /// Whether the shm rail may join the ranks of one host.
    pub use_shm: bool,
    /// The tcp rail's settings, when it may be used.
    pub tcp: Option<TcpSettings>,
    /// The verbs rails' settings, when they may be used.
    pub verbs: Option<VerbsSettings>,
    /// The job's secret for tcp and verbs connections, when the launcher gave one.
    pub secret: Option<Secret>,
}

/// How a peer is reached: rail `rail` of `Fabric::rails`, where it is peer `peer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    pub rail: usize,
    pub peer: usize,
}

/// The rails of this process.
pub struct Fabric {
    pub rails: Vec<AnyRail>,
    /// Each rail's service queue (`service.rs`), where it has one.
    pub services: Vec<Option<Arc<dyn Service>>>,
    /// Indexed by rank (ourselves included): every subchannel that reaches it, never
    /// none: one per tcp rail (interface × connection) for a rank on another host, one
    /// otherwise.
    pub subchannels: Vec<Vec<Route>>,
    /// Rung when any rail has something for us.
    pub wait: Doorbell,
    /// Ranks on this machine, whatever host they think they are on (network namespaces
    /// and containers of one machine share its cores): those with this kernel's boot id.
    pub machine_ranks: usize,
}

impl Fabric {
    /// Per rank, its first subchannel (where requests to its RMA helper go).
    pub fn first_routes(&self) -> Vec<Route> {
        self.subchannels.iter().map(|s| s[0]).collect()
    }
}

/// Key under which rank 0 hands out a job secret it drew (launchers that give none).
const SECRET_KEY: &str = "tcp-secret";

/// Build the rails for `boot`'s job (collective: every rank calls it, and every decision
/// below depends only on what all ranks see alike: the settings and the host list).
///
/// The providers, in order: shm for the ranks of this host; then, for the others (every
/// rank, without shm), verbs (a rail per port) and tcp (a rail per interface and
/// connection). A rank on another host is reached over every verbs and tcp rail, verbs
/// first (the first subchannel carries atomics and the RMA helper's requests).
pub fn open(settings: &FabricSettings, boot: &dyn Bootstrap) -> Result<Fabric, String> {
    let (rank, size) = (boot.rank(), boot.size());
    if size == 1 {
        let rail = LoopbackRail::default();
        let wait = rail.wait_handle();
        return Ok(Fabric {
            rails: vec![AnyRail::Dyn(Box::new(rail))],
            services: vec![None],
            subchannels: vec![vec![Route { rail: 0, peer: 0 }]],
            wait,
            machine_ranks: 1,
        });
    }
    // "host/boot id" in one key (a host name has no '/'): one look-up per rank.
    let boot_id = crate::sys::cpu::boot_id();
    boot.put(
        &format!("host-{rank}"),
        &format!("{}/{boot_id}", settings.host),
    )?;
    boot.barrier()?;
    let (hosts, boots): (Vec<String>, Vec<String>) = (0..size)
        .map(|r| {
            let v = boot.get(&format!("host-{r}"))?;
            let (h, b) = v.rsplit_once('/').unwrap_or((&v, ""));
            Ok((h.to_string(), b.to_string()))
        })
        .collect::<Result<Vec<(String, String)>, String>>()?
        .into_iter()
        .unzip();
    let machine_ranks = boots.iter().filter(|b| **b == boot_id).count().max(1);
    let one_host = hosts.iter().all(|h| *h == hosts[0]);
    // Rails between hosts are opened where some rank is not reached by shm.
    let remote = !settings.use_shm || !one_host;
    let verbs = settings.verbs.as_ref().filter(|_| remote);
    let tcp = settings.tcp.as_ref().filter(|_| remote);
    if remote && verbs.is_none() && tcp.is_none() {
        if let Some(r) = (0..size).find(|&r| hosts[r] != settings.host) {
            return Err(format!(
                "rank {r} runs on host {}, which no rail reaches from {} (rank {rank}): the \
                 shm rail joins the ranks of one host, and RAILMPI_RAILS names neither tcp \
                 nor verbs",
                hosts[r], settings.host
            ));
        }
    }
    let mut rails: Vec<AnyRail> = Vec::new();
    let mut services: Vec<Option<Arc<dyn Service>>> = Vec::new();
    let mut shm_routes = vec![None; size];
    // The process sleeps on one doorbell (the shm rail's, where there is one), and the
    // RMA helper on one too (the shm service queue's): every rail rings them.
    let (mut wait, mut service_bell) = (None, None);
    if settings.use_shm {
        let (rail, local) = open_shm(settings, boot, &hosts)?;
        wait = Some(rail.wait_handle());
        service_bell = Some(rail.service().wait_handle());
        services.push(Some(rail.service() as Arc<dyn Service>));
        for (i, &r) in local.iter().enumerate() {
            shm_routes[r] = Some(Route { rail: 0, peer: i });
        }
        rails.push(AnyRail::Shm(rail));
    }
    let wait = wait.unwrap_or_else(Doorbell::local);
    let service_bell = service_bell.unwrap_or_else(Doorbell::local);
    let mut remote_routes: Vec<usize> = Vec::new();
    if remote {
        // Each provider publishes where it listens, then (after one exchange, which also
        // hands out rank 0's secret when the launcher gave none) every rank opens as many
        // rails of each as the rank with the fewest: rail i joins the peers' rails i.
        if settings.secret.is_none() && rank == 0 {
            boot.put(SECRET_KEY, &secret_to_hex(&random()))?;
        }
        let bells = Bells { wait, service_bell };
        let verbs = match verbs {
            Some(v) => Some(VerbsStart::publish(v, boot, &hosts, bells)?),
            None => None,
        };
        let tcp = match tcp {
            Some(t) => Some(TcpStart::publish(t, boot)?),
            None => None,
        };
        boot.barrier()?;
        let secret = match settings.secret {
            Some(s) => s,
            None => secret_from_hex(&boot.get(SECRET_KEY)?)
                .ok_or("the job's secret from rank 0 does not parse")?,
        };
        let verbs_count = verbs.as_ref().map_or(Ok(0), |v| v.count(boot, &hosts))?;
        let tcp_count = tcp.as_ref().map_or(Ok(0), |t| t.count(boot))?;
        // A lost link is fatal only where it is a peer's one way.
        let survive_loss = verbs_count + tcp_count > 1;
        let opened = [
            verbs.map_or(Ok(Vec::new()), |v| {
                v.connect(boot, verbs_count, &secret, survive_loss)
            })?,
            tcp.map_or(Ok(Vec::new()), |t| {
                t.connect(boot, tcp_count, &hosts, &secret, bells, survive_loss)
            })?,
        ];
        for (rail, service) in opened.into_iter().flatten() {
            remote_routes.push(rails.len());
            rails.push(rail);
            services.push(Some(service));
        }
    }
    // shm reaches the ranks of this host; every remote rail the others.
    let subchannels: Vec<Vec<Route>> = (0..size)
        .map(|r| match shm_routes[r] {
            Some(route) => vec![route],
            None => remote_routes
                .iter()
                .map(|&rail| Route { rail, peer: r })
                .collect(),
        })
        .collect();
    if let Some(r) = subchannels.iter().position(|s| s.is_empty()) {
        return Err(format!("no rail reaches rank {r} (host {})", hosts[r]));
    }
    Ok(Fabric {
        rails,
        services,
        subchannels,
        wait,
        machine_ranks,
    })
}

/// The doorbells every rail of a process rings: the rank's, and its RMA helper's.
#[derive(Clone, Copy)]
struct Bells {
    wait: Doorbell,
    service_bell: Doorbell,
}

/// A rail between hosts, with its service queue.
type Opened = (AnyRail, Arc<dyn Service>);

/// The shm rail of this host's ranks (collective over the job), and those ranks.
fn open_shm(
    settings: &FabricSettings,
    boot: &dyn Bootstrap,
    hosts: &[String],
) -> Result<(ShmRail, Vec<usize>), String> {
    let rank = boot.rank();
    let local: Vec<usize> = (0..boot.size())
        .filter(|&r| hosts[r] == settings.host)
        .collect();
    let me = local
        .iter()
        .position(|&r| r == rank)
        .expect("this rank is on its own host");
    // Hosts emulated on one machine (namespaces) are told apart by the leader's rank.
    let key = format!("shm-segment-{}", local[0]);
    let mut share = |v: Option<String>| {
        if let Some(v) = v {
            boot.put(&key, &v)?;
        }
        boot.barrier()?;
        boot.get(&key)
    };
    let mut barrier = || boot.barrier();
    let rail = ShmRail::establish(me, local.len(), &settings.shm, &mut share, &mut barrier)?;
    let peers: Vec<(usize, i32)> = local
        .iter()
        .zip(rail.peer_pids())
        .filter(|&(&r, _)| r != rank)
        .map(|(&r, &pid)| (r, pid))
        .collect();
    crate::runtime::lifetime::watch_peers(&peers);
    Ok((rail, local))
}

/// The tcp rails' first step: listening, one socket per interface and connection, the
/// addresses published.
struct TcpStart<'a> {
    settings: &'a TcpSettings,
    listeners: Vec<std::net::TcpListener>,
}

impl<'a> TcpStart<'a> {
    fn publish(settings: &'a TcpSettings, boot: &dyn Bootstrap) -> Result<Self, String> {
        let rank = boot.rank();
        let ips = super::tcp::rail_addrs(settings)?;
        let per_iface = settings.conns_per_iface.max(1);
        let listeners = (0..ips.len() * per_iface)
            .map(|i| super::tcp::listen(ips[i / per_iface]))
            .collect::<Result<Vec<_>, String>>()?;
        for (i, l) in listeners.iter().enumerate() {
            let local = l.local_addr().map_err(|e| e.to_string())?;
            boot.put(&address_key(i, rank), &local.to_string())?;
        }
        boot.put(&format!("tcp-rails-{rank}"), &listeners.len().to_string())?;
        Ok(TcpStart {
            settings,
            listeners,
        })
    }

    /// How many tcp rails every rank opens: as many as the rank with the fewest.
    fn count(&self, boot: &dyn Bootstrap) -> Result<usize, String> {
        let counts = rail_counts(boot, "tcp")?;
        Ok(counts
            .iter()
            .fold(self.listeners.len(), |c, &n| c.min(n.max(1))))
    }

    fn connect(
        self,
        boot: &dyn Bootstrap,
        count: usize,
        hosts: &[String],
        secret: &Secret,
        bells: Bells,
        survive_loss: bool,
    ) -> Result<Vec<Opened>, String> {
        let tcp = self.settings;
        let ctx = TcpContext {
            me: boot.rank(),
            hosts: hosts.to_vec(),
            secret: *secret,
            // The tcp rails' own key table: peers on other hosts reach our memory only
            // through keys it issued (never through the shm rail's).
            domain: Arc::new(ShmDomain::private()),
            wait: bells.wait,
            service_bell: bells.service_bell,
            connect: tcp.connect,
            timeout_ms: tcp.timeout_ms,
            failover_timeout_ms: tcp.failover_timeout_ms,
            eager_limit: tcp.eager_limit,
            survive_loss,
        };
        let mut out = Vec::new();
        for (i, listener) in self.listeners.into_iter().take(count).enumerate() {
            let addrs = (0..boot.size())
                .map(|r| peer_addr(boot, i, r))
                .collect::<Result<Vec<_>, String>>()?;
            let rail = TcpRail::start(&ctx, listener, addrs)?;
            let service = rail.service() as Arc<dyn Service>;
            out.push((AnyRail::Dyn(Box::new(rail)), service));
        }
        Ok(out)
    }
}

/// The verbs rails' first step: a rail per port (with its service queue's rail, sharing
/// its protection domain), listening on rdma_cm, the addresses published. A rank without
/// a usable port publishes none, and the job stops with its reason.
struct VerbsStart {
    rails: Vec<(VerbsRail, VerbsRail)>,
    own_error: Option<String>,
}

impl VerbsStart {
    fn publish(
        settings: &VerbsSettings,
        boot: &dyn Bootstrap,
        hosts: &[String],
        bells: Bells,
    ) -> Result<Self, String> {
        let (rank, size) = (boot.rank(), boot.size());
        let ports = match super::verbs::select_ports(settings) {
            Ok(p) if p.is_empty() => Err("no active RDMA port".to_string()),
            other => other,
        };
        // Each port is a rail with a protection domain (a key slot) of its own: a peer is
        // given a key per port, and rails pair up by index (port i with the peer's port i).
        let mut own_error = None;
        let mut ports = ports.unwrap_or_else(|e| {
            own_error = Some(e);
            Vec::new()
        });
        let most = super::slot::COUNT - super::slot::VERBS;
        if ports.len() > most {
            if rank == 0 {
                tracing::warn!(
                    "verbs: {} active ports, using the first {most} (name them with \
                     RAILMPI_VERBS_DEVICES)",
                    ports.len()
                );
            }
            ports.truncate(most);
        }
        let mut rails = Vec::new();
        for (i, port) in ports.iter().enumerate() {
            let ctx = VerbsContext {
                me: rank,
                hosts: hosts.to_vec(),
                // Set in `connect`, once the secret is known (the listener must be up
                // first).
                secret: [0; 32],
                wait: bells.wait,
                also_wake: None,
                survive_loss: false,
            };
            let rail = VerbsRail::open(port, i as u32, size, &ctx, settings)?;
            // The service queue's rail rings the helper's doorbell, and the rank's (it
            // waits for its requests' answers).
            let svc_ctx = VerbsContext {
                wait: bells.service_bell,
                also_wake: Some(bells.wait),
                ..ctx
            };
            let svc = VerbsRail::open_sharing(
                port,
                SERVICE_RAIL + i as u32,
                size,
                &svc_ctx,
                settings,
                Some(&rail),
            )?;
            boot.put(&verbs_key(i, rank), &rail.listen_addr()?.to_string())?;
            boot.put(
                &verbs_key(SERVICE_RAIL as usize + i, rank),
                &svc.listen_addr()?.to_string(),
            )?;
            rails.push((rail, svc));
        }
        boot.put(&format!("verbs-rails-{rank}"), &rails.len().to_string())?;
        Ok(VerbsStart { rails, own_error })
    }

    /// How many verbs rails every rank opens: as many as the rank with the fewest (none:
    /// an error naming a rank without a port, and why where it is this one).
    fn count(&self, boot: &dyn Bootstrap, hosts: &[String]) -> Result<usize, String> {
        let mut count = self.rails.len();
        for (r, n) in rail_counts(boot, "verbs")?.into_iter().enumerate() {
            if n == 0 {
                return Err(match &self.own_error {
                    Some(why) => format!("no verbs rail on host {}: {why}", hosts[boot.rank()]),
                    None => format!("rank {r} (host {}) has no verbs rail", hosts[r]),
                });
            }
            count = count.min(n);
        }
        Ok(count)
    }

    fn connect(
        self,
        boot: &dyn Bootstrap,
        count: usize,
        secret: &Secret,
        survive_loss: bool,
    ) -> Result<Vec<Opened>, String> {
        let addrs = |index: usize| {
            (0..boot.size())
                .map(|r| {
                    let v = boot.get(&verbs_key(index, r))?;
                    v.parse()
                        .map_err(|_| format!("rank {r} published a bad verbs address {v:?}"))
                })
                .collect::<Result<Vec<std::net::SocketAddr>, String>>()
        };
        let mut out: Vec<Opened> = Vec::new();
        for (i, (mut rail, mut svc)) in self.rails.into_iter().take(count).enumerate() {
            rail.set_peers(addrs(i)?);
            rail.set_secret(secret, survive_loss);
            svc.set_peers(addrs(SERVICE_RAIL as usize + i)?);
            // A service rail is a peer's only way to its helper: losing it is fatal.
            svc.set_secret(secret, false);
            let bell = svc.wait_handle();
            let service = Arc::new(VerbsService::new(svc, bell, rail.domain()));
            rail.set_atomic_proxy(service.clone());
            out.push((AnyRail::Dyn(Box::new(rail)), service));
        }
        Ok(out)
    }
}

/// How many `kind` rails each rank published (`KIND-rails-RANK`).
fn rail_counts(boot: &dyn Bootstrap, kind: &str) -> Result<Vec<usize>, String> {
    (0..boot.size())
        .map(|r| {
            let v = boot.get(&format!("{kind}-rails-{r}"))?;
            v.parse()
                .map_err(|_| format!("rank {r} published a bad {kind} rail count {v:?}"))
        })
        .collect()
}

/// Rail numbers of the service queues' rails (`SERVICE_RAIL + i` serves rail `i`): a
/// connect request names the rail it is for, so the two never take each other's.
const SERVICE_RAIL: u32 = 1000;

/// Key under which rank `rank` publishes where its verbs rail `index` listens.
fn verbs_key(index: usize, rank: usize) -> String {
    format!("verbs-addr-{index}-{rank}")
}
