//! `open`: build the rails a job can use and tell which rail reaches each peer.
//!
//! Ranks are grouped by host name (exchanged through the launcher's key-value space); the
//! ranks of this host share the `shm` rail, and the `tcp` rail — or the `verbs` rails —
//! reach the others (every rank, when shm is not in use). Each rail keys registrations in
//! its own memory domain (shm and tcp: a key table each; verbs: the port's protection
//! domain); a registration is made in all of them, and a peer is given the key of the
//! rail that reaches it (`Channels::key_slot`). A rank that no rail reaches is an error
//! naming it and its host.

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
        });
    }
    boot.put(&format!("host-{rank}"), &settings.host)?;
    boot.barrier()?;
    let hosts = (0..size)
        .map(|r| boot.get(&format!("host-{r}")))
        .collect::<Result<Vec<String>, String>>()?;
    if let Some(verbs) = &settings.verbs {
        return open_verbs(settings, verbs, boot, hosts);
    }
    let one_host = hosts.iter().all(|h| *h == hosts[0]);
    let use_tcp = settings.tcp.is_some() && (!settings.use_shm || !one_host);
    if !use_tcp {
        if let Some(r) = (0..size).find(|&r| hosts[r] != settings.host) {
            return Err(format!(
                "rank {r} runs on host {}, which no rail reaches from {} (rank {rank}): the \
                 shm rail joins the ranks of one host, and RAILMPI_RAILS leaves out tcp",
                hosts[r], settings.host
            ));
        }
    }
    let mut rails: Vec<AnyRail> = Vec::new();
    let mut services: Vec<Option<Arc<dyn Service>>> = Vec::new();
    let mut shm_routes = vec![None; size];
    let mut tcp_subs: Vec<Vec<Route>> = vec![Vec::new(); size];
    let mut wait = None;
    if settings.use_shm {
        let (rail, local) = open_shm(settings, boot, &hosts)?;
        wait = Some(rail.wait_handle());
        services.push(Some(rail.service() as Arc<dyn Service>));
        for (i, &r) in local.iter().enumerate() {
            shm_routes[r] = Some(Route { rail: 0, peer: i });
        }
        rails.push(AnyRail::Shm(rail));
    }
    if let (true, Some(tcp)) = (use_tcp, &settings.tcp) {
        // One rail per interface and connection, listening before the one exchange that
        // publishes them all (with rank 0's secret when the launcher gave none).
        let ips = super::tcp::rail_addrs(tcp)?;
        let per_iface = tcp.conns_per_iface.max(1);
        let listeners = (0..ips.len() * per_iface)
            .map(|i| super::tcp::listen(ips[i / per_iface]))
            .collect::<Result<Vec<_>, String>>()?;
        for (i, l) in listeners.iter().enumerate() {
            let local = l.local_addr().map_err(|e| e.to_string())?;
            boot.put(&address_key(i, rank), &local.to_string())?;
        }
        boot.put(&format!("tcp-rails-{rank}"), &listeners.len().to_string())?;
        if settings.secret.is_none() && rank == 0 {
            boot.put(SECRET_KEY, &secret_to_hex(&random()))?;
        }
        boot.barrier()?;
        let secret = match settings.secret {
            Some(s) => s,
            None => secret_from_hex(&boot.get(SECRET_KEY)?)
                .ok_or("the job's tcp secret from rank 0 does not parse")?,
        };
        // Every rank opens as many rails as the rank with the fewest (rail i joins the
        // peers' rails i).
        let mut count = listeners.len();
        for r in 0..size {
            let v = boot.get(&format!("tcp-rails-{r}"))?;
            let n: usize = v
                .parse()
                .map_err(|_| format!("rank {r} published a bad tcp rail count {v:?}"))?;
            count = count.min(n.max(1));
        }
        let wait = *wait.get_or_insert_with(Doorbell::local);
        // The tcp rails' own key table: peers on other hosts reach our memory only
        // through keys it issued (never through the shm rail's).
        let domain = Arc::new(ShmDomain::private());
        // The service thread sleeps on one doorbell (the first queue's): requests from
        // tcp peers ring the shm queue's where there is one.
        let service_bell = services
            .iter()
            .flatten()
            .next()
            .map_or_else(Doorbell::local, |s| s.wait_handle());
        let ctx = TcpContext {
            me: rank,
            hosts: hosts.clone(),
            secret,
            domain,
            wait,
            service_bell,
            connect: tcp.connect,
            timeout_ms: tcp.timeout_ms,
            failover_timeout_ms: tcp.failover_timeout_ms,
            eager_limit: tcp.eager_limit,
            survive_loss: count > 1,
        };
        for (i, listener) in listeners.into_iter().take(count).enumerate() {
            let addrs = (0..size)
                .map(|r| peer_addr(boot, i, r))
                .collect::<Result<Vec<_>, String>>()?;
            let rail = TcpRail::start(&ctx, listener, addrs)?;
            let index = rails.len();
            for (r, subs) in tcp_subs.iter_mut().enumerate() {
                subs.push(Route {
                    rail: index,
                    peer: r,
                });
            }
            services.push(Some(rail.service() as Arc<dyn Service>));
            rails.push(AnyRail::Dyn(Box::new(rail)));
        }
    }
    // shm reaches the ranks of this host; tcp (all its rails) the others.
    let subchannels: Vec<Vec<Route>> = (0..size)
        .map(|r| match shm_routes[r] {
            Some(route) => vec![route],
            None => std::mem::take(&mut tcp_subs[r]),
        })
        .collect();
    if let Some(r) = subchannels.iter().position(|s| s.is_empty()) {
        return Err(format!("no rail reaches rank {r} (host {})", hosts[r]));
    }
    Ok(Fabric {
        rails,
        services,
        subchannels,
        wait: wait.expect("at least one rail"),
    })
}

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

/// Ranks over verbs: with shm, the ranks of this host over shm and the others over verbs
/// (no verbs rail at all when every rank is here); without, every rank over verbs. One
/// verbs rail per port (as many as the rank with the fewest).
fn open_verbs(
    settings: &FabricSettings,
    verbs: &VerbsSettings,
    boot: &dyn Bootstrap,
    hosts: Vec<String>,
) -> Result<Fabric, String> {
    let (rank, size) = (boot.rank(), boot.size());
    let shm = if settings.use_shm {
        Some(open_shm(settings, boot, &hosts)?)
    } else {
        None
    };
    if let Some((rail, local)) = shm.as_ref().filter(|(_, l)| l.len() == size) {
        // Every rank on this host: shm alone.
        let wait = rail.wait_handle();
        let subchannels = local
            .iter()
            .enumerate()
            .map(|(i, _)| vec![Route { rail: 0, peer: i }])
            .collect();
        let (rail, _) = shm.expect("matched above");
        let service = rail.service() as Arc<dyn Service>;
        return Ok(Fabric {
            rails: vec![AnyRail::Shm(rail)],
            services: vec![Some(service)],
            subchannels,
            wait,
        });
    }
    // A rank without a usable port publishes none, and the job stops with its reason.
    let ports = match super::verbs::select_ports(verbs) {
        Ok(p) if p.is_empty() => Err("no active RDMA port".to_string()),
        other => other,
    };
    let mut own_error = None;
    let mut ports = ports.unwrap_or_else(|e| {
        own_error = Some(e);
        Vec::new()
    });
    if ports.len() > 1 {
        // A peer is given one remote key (its rail's domain slot); each port has a
        // protection domain of its own, so striping over two ports needs a key per port
        // on the wire, which is still to come.
        if rank == 0 {
            tracing::warn!(
                "verbs: using {}:{} only ({} active ports; several verbs rails are not \
             supported yet — name one with RAILMPI_VERBS_DEVICES)",
                ports[0].device,
                ports[0].port,
                ports.len()
            );
        }
        ports.truncate(1);
    }
    if own_error.is_some() {
        boot.put(&format!("verbs-rails-{rank}"), "0")?;
    }
    if settings.secret.is_none() && rank == 0 {
        boot.put(SECRET_KEY, &secret_to_hex(&random()))?;
    }
    // The process sleeps on one doorbell (the shm rail's, where there is one), and the RMA
    // helper on one too: the service queues' rails (one per data rail, sharing its
    // protection domain) ring the helper's, and the rank's (it waits for its requests'
    // answers).
    let wait = shm
        .as_ref()
        .map_or_else(Doorbell::local, |(r, _)| r.wait_handle());
    let service_bell = shm
        .as_ref()
        .map_or_else(Doorbell::local, |(r, _)| r.service().wait_handle());
    let mut rails = Vec::new();
    for (i, port) in ports.iter().enumerate() {
        let ctx = VerbsContext {
            me: rank,
            hosts: hosts.clone(),
            // Replaced below, once the secret is known (the listener must be up first).
            secret: [0; 32],
            wait,
            also_wake: None,
            survive_loss: false,
        };
        let rail = VerbsRail::open(port, i as u32, size, &ctx, verbs)?;
        let svc_ctx = VerbsContext {
            wait: service_bell,
            also_wake: Some(wait),
            ..ctx
        };
        let svc = VerbsRail::open_sharing(
            port,
            SERVICE_RAIL + i as u32,
            size,
            &svc_ctx,
            verbs,
            Some(&rail),
        )?;
        boot.put(&verbs_key(i, rank), &rail.listen_addr()?.to_string())?;
        boot.put(
            &verbs_key(SERVICE_RAIL as usize + i, rank),
            &svc.listen_addr()?.to_string(),
        )?;
        rails.push((rail, svc));
    }
    if !ports.is_empty() {
        boot.put(&format!("verbs-rails-{rank}"), &ports.len().to_string())?;
    }
    boot.barrier()?;
    let secret = match settings.secret {
        Some(s) => s,
        None => secret_from_hex(&boot.get(SECRET_KEY)?)
            .ok_or("the job's secret from rank 0 does not parse")?,
    };
    let mut count = rails.len();
    for r in 0..size {
        let v = boot.get(&format!("verbs-rails-{r}"))?;
        let n: usize = v
            .parse()
            .map_err(|_| format!("rank {r} published a bad verbs rail count {v:?}"))?;
        if n == 0 {
            return Err(match &own_error {
                Some(why) => format!("no verbs rail on host {}: {why}", hosts[rank]),
                None => format!("rank {r} (host {}) has no verbs rail", hosts[r]),
            });
        }
        count = count.min(n);
    }
    rails.truncate(count);
    let survive_loss = count > 1;
    let addrs = |index: usize| {
        (0..size)
            .map(|r| {
                let v = boot.get(&verbs_key(index, r))?;
                v.parse()
                    .map_err(|_| format!("rank {r} published a bad verbs address {v:?}"))
            })
            .collect::<Result<Vec<std::net::SocketAddr>, String>>()
    };
    let mut out: Vec<AnyRail> = Vec::new();
    let mut services: Vec<Option<Arc<dyn Service>>> = Vec::new();
    let mut shm_routes = vec![None; size];
    if let Some((rail, local)) = shm {
        for (i, &r) in local.iter().enumerate() {
            shm_routes[r] = Some(Route { rail: 0, peer: i });
        }
        services.push(Some(rail.service() as Arc<dyn Service>));
        out.push(AnyRail::Shm(rail));
    }
    let first = out.len();
    for (i, (mut rail, mut svc)) in rails.into_iter().enumerate() {
        rail.set_peers(addrs(i)?);
        rail.set_secret(&secret, survive_loss);
        svc.set_peers(addrs(SERVICE_RAIL as usize + i)?);
        svc.set_secret(&secret, false);
        let service = Arc::new(VerbsService::new(svc, service_bell, rail.domain()));
        rail.set_atomic_proxy(service.clone());
        out.push(AnyRail::Dyn(Box::new(rail)));
        services.push(Some(service));
    }
    let subchannels = (0..size)
        .map(|r| match shm_routes[r] {
            Some(route) => vec![route],
            None => (0..count)
                .map(|i| Route {
                    rail: first + i,
                    peer: r,
                })
                .collect(),
        })
        .collect();
    Ok(Fabric {
        services,
        rails: out,
        subchannels,
        wait,
    })
}

/// Rail numbers of the service queues' rails (`SERVICE_RAIL + i` serves rail `i`): a
/// connect request names the rail it is for, so the two never take each other's.
const SERVICE_RAIL: u32 = 1000;

/// Key under which rank `rank` publishes where its verbs rail `index` listens.
fn verbs_key(index: usize, rank: usize) -> String {
    format!("verbs-addr-{index}-{rank}")
}
