//! `open`: build the rails a job can use and tell which rail reaches each peer.
//!
//! Ranks are grouped by host name (exchanged through the launcher's key-value space); the
//! ranks of this host share the `shm` rail. A rank that no rail reaches is an error naming
//! it and its host.

use super::loopback::LoopbackRail;
use super::shm::{ShmRail, ShmSettings};
use super::{Doorbell, Rail, Service};
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
    /// Name of the job's shared segment (unique per job).
    pub shm_segment: String,
    pub shm: ShmSettings,
}

/// How a peer is reached: rail `rail` of `Fabric::rails`, where it is peer `peer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    pub rail: usize,
    pub peer: usize,
}

/// The rails of this process.
pub struct Fabric {
    pub rails: Vec<Box<dyn Rail>>,
    /// Each rail's service queue (`service.rs`), where it has one.
    pub services: Vec<Option<Arc<dyn Service>>>,
    /// Indexed by rank: the rail that reaches it (ourselves included).
    pub routes: Vec<Route>,
    /// Rung when any rail has something for us.
    pub wait: Doorbell,
}

/// Build the rails for `boot`'s job (collective: every rank calls it).
pub fn open(settings: &FabricSettings, boot: &dyn Bootstrap) -> Result<Fabric, String> {
    let (rank, size) = (boot.rank(), boot.size());
    if size == 1 {
        let rail = LoopbackRail::default();
        let wait = rail.wait_handle();
        return Ok(Fabric {
            rails: vec![Box::new(rail)],
            services: vec![None],
            routes: vec![Route { rail: 0, peer: 0 }],
            wait,
        });
    }
    boot.put(&format!("host-{rank}"), &settings.host)?;
    boot.barrier()?;
    let hosts = (0..size)
        .map(|r| boot.get(&format!("host-{r}")))
        .collect::<Result<Vec<String>, String>>()?;
    let local: Vec<usize> = (0..size).filter(|&r| hosts[r] == settings.host).collect();
    if let Some(r) = (0..size).find(|&r| hosts[r] != settings.host) {
        return Err(format!(
            "rank {r} runs on host {}, which no rail reaches from {} (rank {rank}): the shm \
             rail joins the ranks of one host, and this build has no network rail yet",
            hosts[r], settings.host
        ));
    }
    let me = local
        .iter()
        .position(|&r| r == rank)
        .expect("this rank is on its own host");
    let mut barrier = || boot.barrier();
    let rail = ShmRail::establish(
        &settings.shm_segment,
        me,
        local.len(),
        &settings.shm,
        &mut barrier,
    )?;
    let wait = rail.wait_handle();
    let service: Arc<dyn Service> = rail.service();
    let mut routes = vec![Route { rail: 0, peer: 0 }; size];
    for (i, &r) in local.iter().enumerate() {
        routes[r] = Route { rail: 0, peer: i };
    }
    Ok(Fabric {
        rails: vec![Box::new(rail)],
        services: vec![Some(service)],
        routes,
        wait,
    })
}
