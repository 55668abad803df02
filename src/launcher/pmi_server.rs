//! The PMI-1 server state machine (sans-I/O): the key-value store, the barrier and each
//! rank's PMI state. `job.rs` feeds it parsed commands and delivers the replies.
//!
//! Semantics follow Hydra (MPICH 4.0.2): a put becomes visible to `get` after the next
//! barrier (on every rank, the putter included); a later put of the same key overwrites;
//! `PMI_process_mapping` is predefined. Unlike Hydra, over-long keys and values are
//! refused with `rc=-1` instead of being silently lost, and a kvsname other than the job's
//! is an error instead of being ignored.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::runtime::pmi::wire::{Command, Reply};
use crate::runtime::pmi::{KEY_MAX, KVSNAME_MAX, VALUE_MAX};

/// What one rank has done with PMI so far.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RankPmiState {
    /// Sent at least one command (normally `init`): it takes part in the job's PMI.
    pub initialized: bool,
    /// Sent `finalize`.
    pub finalized: bool,
    /// Waiting in `barrier_in`.
    pub in_barrier: bool,
    /// Ended (only counted with `-disable-auto-cleanup`: then the others' barriers go on
    /// without it).
    pub gone: bool,
}

/// What handling one command asks the caller to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Send this reply to this rank.
    Reply(u32, Reply),
    /// The rank asked to abort the job with this exit code; `ranks` (sorted inclusive
    /// ranges, each checked against the job's size): only those (empty: every rank; the
    /// caller goes on when they leave it out).
    Abort {
        rank: u32,
        code: i32,
        ranks: Vec<(u32, u32)>,
    },
}

/// The server for one job (one kvsname).
pub struct PmiServer {
    kvsname: String,
    size: u32,
    committed: HashMap<String, String>,
    /// Puts since the last barrier, in arrival order (a later one wins).
    pending: Vec<(String, String)>,
    ranks: Vec<RankPmiState>,
    in_barrier: u32,
    /// Ranks marked gone ([`PmiServer::rank_gone`]).
    gone: u32,
    /// MPI_Publish_name's services and their ports (as Hydra keeps them without a
    /// nameserver: for the processes this mpiexec serves, its spawned jobs' included).
    names: Rc<RefCell<HashMap<String, String>>>,
    /// Per rank: which command of an MPI_Comm_spawn_multiple started it (MPI_APPNUM).
    appnums: Vec<i32>,
    /// What `get_universe_size` answers (MPI_UNIVERSE_SIZE); None: -1, not known (the
    /// attribute is then not set, as under Hydra's default).
    universe: Option<u32>,
}

impl PmiServer {
    /// A job of `size` ranks, all on this node.
    pub fn new(kvsname: &str, size: u32) -> PmiServer {
        let mut committed = HashMap::new();
        committed.insert(
            "PMI_process_mapping".to_string(),
            format!("(vector,(0,1,{size}))"),
        );
        PmiServer {
            kvsname: kvsname.to_string(),
            size,
            committed,
            pending: Vec::new(),
            ranks: vec![RankPmiState::default(); size as usize],
            in_barrier: 0,
            gone: 0,
            names: Default::default(),
            appnums: vec![0; size as usize],
            universe: Some(size),
        }
    }

    /// The universe size the job's processes are told (see `Options::universe_size`).
    pub fn set_universe(&mut self, universe: Option<u32>) {
        self.universe = universe;
    }

    /// The ranks' placement on nodes, as `PMI_process_mapping` says it (multi-host jobs).
    pub fn set_process_mapping(&mut self, mapping: &str) {
        self.committed
            .insert("PMI_process_mapping".to_string(), mapping.to_string());
    }

    /// The server of a job this one's processes spawned: its own key-value space and
    /// ranks, the same published names and universe.
    pub fn sibling(&self, kvsname: &str, size: u32) -> PmiServer {
        PmiServer {
            names: self.names.clone(),
            universe: self.universe,
            ..PmiServer::new(kvsname, size)
        }
    }

    /// A key the job's processes find from the start (a spawn's `preput`: the parents'
    /// port).
    pub fn preput(&mut self, key: &str, value: &str) {
        self.committed.insert(key.to_string(), value.to_string());
    }

    /// Rank `rank` was started by command `appnum` of its spawn.
    pub fn set_appnum(&mut self, rank: u32, appnum: i32) {
        self.appnums[rank as usize] = appnum;
    }

    /// Rank `rank` ended while the job goes on (`-disable-auto-cleanup`): barriers no
    /// longer wait for it, and one that waited only for it ends now.
    pub fn rank_gone(&mut self, rank: u32, out: &mut Vec<Effect>) {
        let st = &mut self.ranks[rank as usize];
        if st.gone {
            return;
        }
        st.gone = true;
        if std::mem::take(&mut st.in_barrier) {
            self.in_barrier -= 1;
        }
        self.gone += 1;
        if self.in_barrier > 0 {
            self.release_barrier(out);
        }
    }

    /// Ends the barrier when every rank that is not gone is in it: the puts before it
    /// become visible and each waiting rank gets `barrier_out`.
    fn release_barrier(&mut self, out: &mut Vec<Effect>) {
        if self.in_barrier + self.gone < self.size {
            return;
        }
        self.committed.extend(self.pending.drain(..));
        self.in_barrier = 0;
        for (i, s) in self.ranks.iter_mut().enumerate() {
            if std::mem::take(&mut s.in_barrier) {
                out.push(Effect::Reply(i as u32, Reply::BarrierOut));
            }
        }
    }

    pub fn size(&self) -> u32 {
        self.size
    }

    pub fn kvsname(&self) -> &str {
        &self.kvsname
    }

    pub fn rank_state(&self, rank: u32) -> RankPmiState {
        self.ranks[rank as usize]
    }

    /// Handles one command from `rank`, appending what to do to `out`. An `Err` is a
    /// protocol violation by the rank (a second `barrier_in`, a command after `finalize`):
    /// the caller should abort the job with that message.
    pub fn handle(&mut self, rank: u32, cmd: Command, out: &mut Vec<Effect>) -> Result<(), String> {
        let r = rank as usize;
        assert!(r < self.ranks.len(), "rank {rank} out of range");
        let st = &mut self.ranks[r];
        if st.finalized {
            return Err(format!("sent cmd={} after finalize", cmd.name()));
        }
        st.initialized = true;
        let reply = |reply: Reply| Effect::Reply(rank, reply);
        match cmd {
            Command::Init { pmi_version, .. } => out.push(reply(Reply::Init {
                pmi_version: 1,
                pmi_subversion: 1,
                rc: if pmi_version == 1 { 0 } else { -1 },
            })),
            Command::GetMaxes => out.push(reply(Reply::Maxes {
                kvsname_max: KVSNAME_MAX as u32,
                keylen_max: KEY_MAX as u32,
                vallen_max: VALUE_MAX as u32,
            })),
            Command::GetAppnum => out.push(reply(Reply::Appnum {
                appnum: self.appnums[r],
            })),
            Command::GetMyKvsname => out.push(reply(Reply::MyKvsname {
                kvsname: self.kvsname.clone(),
            })),
            Command::GetUniverseSize => out.push(reply(Reply::UniverseSize {
                size: self.universe.map_or(-1, |u| u as i32),
            })),
            Command::Put {
                kvsname,
                key,
                value,
            } => {
                let err = if kvsname != self.kvsname {
                    Some("unknown_kvsname")
                } else if key.len() > KEY_MAX {
                    Some("key_too_long")
                } else if value.len() > VALUE_MAX {
                    Some("value_too_long")
                } else {
                    None
                };
                if err.is_none() {
                    self.pending.push((key, value));
                }
                out.push(reply(Reply::PutResult {
                    rc: if err.is_some() { -1 } else { 0 },
                    msg: Some(err.unwrap_or("success").to_string()),
                }));
            }
            Command::Get { kvsname, key } => {
                let found = if kvsname != self.kvsname {
                    Err("unknown_kvsname".to_string())
                } else if key.len() > KEY_MAX {
                    Err("key_too_long".to_string())
                } else {
                    self.committed
                        .get(&key)
                        .cloned()
                        .ok_or_else(|| format!("key_{key}_not_found"))
                };
                out.push(reply(match found {
                    Ok(v) => Reply::GetResult {
                        rc: 0,
                        msg: Some("success".into()),
                        value: Some(v),
                    },
                    Err(msg) => Reply::GetResult {
                        rc: -1,
                        msg: Some(msg),
                        value: Some("unknown".into()),
                    },
                }));
            }
            Command::BarrierIn => {
                if st.in_barrier {
                    return Err("sent barrier_in twice without waiting for barrier_out".into());
                }
                st.in_barrier = true;
                self.in_barrier += 1;
                self.release_barrier(out);
            }
            Command::Finalize => {
                st.finalized = true;
                out.push(reply(Reply::FinalizeAck));
            }
            Command::Abort { exitcode, ranks } => {
                if ranks.last().is_some_and(|&(_, b)| b >= self.size) {
                    return Err(format!(
                        "asked to abort ranks beyond the job's {}",
                        self.size
                    ));
                }
                out.push(Effect::Abort {
                    rank,
                    code: exitcode,
                    ranks,
                })
            }
            Command::PublishName { service, port } => {
                let mut names = self.names.borrow_mut();
                let fresh = !names.contains_key(&service);
                if fresh {
                    names.insert(service, port);
                }
                out.push(reply(Reply::PublishResult {
                    rc: if fresh { 0 } else { 1 },
                    msg: Some(
                        if fresh {
                            "success"
                        } else {
                            "key_already_present"
                        }
                        .into(),
                    ),
                }));
            }
            Command::UnpublishName { service } => {
                let found = self.names.borrow_mut().remove(&service).is_some();
                out.push(reply(Reply::UnpublishResult {
                    rc: if found { 0 } else { 1 },
                    msg: Some(
                        if found {
                            "success"
                        } else {
                            "service_not_found"
                        }
                        .into(),
                    ),
                }));
            }
            Command::LookupName { service } => {
                out.push(reply(match self.names.borrow().get(&service) {
                    Some(p) => Reply::LookupResult {
                        rc: 0,
                        msg: Some("success".into()),
                        port: Some(p.clone()),
                    },
                    None => Reply::LookupResult {
                        rc: 1,
                        msg: Some("service_not_found".into()),
                        port: None,
                    },
                }))
            }
            // (Multi-line: `Command::parse` never makes one; the launcher answers spawns.)
            Command::Spawn(_) => out.push(reply(Reply::SpawnResult {
                rc: -1,
                errcodes: None,
            })),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &mut PmiServer, rank: u32, cmd: Command) -> Vec<Effect> {
        let mut out = Vec::new();
        s.handle(rank, cmd, &mut out).unwrap();
        out
    }

    fn put(key: &str, value: &str) -> Command {
        Command::Put {
            kvsname: "kvs".into(),
            key: key.into(),
            value: value.into(),
        }
    }

    fn get(key: &str) -> Command {
        Command::Get {
            kvsname: "kvs".into(),
            key: key.into(),
        }
    }

    fn value_of(e: &[Effect]) -> Option<String> {
        match e {
            [Effect::Reply(_, Reply::GetResult { rc: 0, value, .. })] => value.clone(),
            _ => None,
        }
    }

    #[test]
    fn barriers_go_on_without_gone_ranks() {
        let mut s = PmiServer::new("kvs", 4);
        assert!(run(&mut s, 0, Command::BarrierIn).is_empty());
        assert!(run(&mut s, 1, Command::BarrierIn).is_empty());
        let mut out = Vec::new();
        // A rank that ends inside the barrier no longer counts, nor gets barrier_out.
        s.rank_gone(1, &mut out);
        s.rank_gone(1, &mut out);
        assert!(out.is_empty());
        s.rank_gone(3, &mut out);
        assert!(out.is_empty());
        let e = run(&mut s, 2, Command::BarrierIn);
        assert_eq!(
            e,
            vec![
                Effect::Reply(0, Reply::BarrierOut),
                Effect::Reply(2, Reply::BarrierOut)
            ]
        );
        // The last one alive waiting alone: released when the other survivor ends.
        assert!(run(&mut s, 0, Command::BarrierIn).is_empty());
        s.rank_gone(2, &mut out);
        assert_eq!(out, vec![Effect::Reply(0, Reply::BarrierOut)]);
        // Ranks beyond the job cannot be named in an abort.
        let mut out = Vec::new();
        let abort = |ranks| Command::Abort { exitcode: 1, ranks };
        assert!(s.handle(0, abort(vec![(2, 4)]), &mut out).is_err());
        assert!(s.handle(0, abort(vec![(1, 1), (3, 3)]), &mut out).is_ok());
    }

    #[test]
    fn put_barrier_get() {
        let mut s = PmiServer::new("kvs", 3);
        assert_eq!(
            value_of(&run(&mut s, 0, get("PMI_process_mapping"))).as_deref(),
            Some("(vector,(0,1,3))")
        );
        for r in 0..3 {
            let e = run(&mut s, r, put(&format!("k{r}"), &format!("v{r}")));
            assert!(matches!(e[..], [Effect::Reply(x, Reply::PutResult { rc: 0, .. })] if x == r));
        }
        // Not visible before the barrier, not even to the putter.
        assert_eq!(value_of(&run(&mut s, 0, get("k0"))), None);
        assert!(run(&mut s, 0, Command::BarrierIn).is_empty());
        assert!(run(&mut s, 2, Command::BarrierIn).is_empty());
        let mut out = Vec::new();
        assert!(s.handle(2, Command::BarrierIn, &mut out).is_err());
        let e = run(&mut s, 1, Command::BarrierIn);
        assert_eq!(
            e,
            (0..3)
                .map(|r| Effect::Reply(r, Reply::BarrierOut))
                .collect::<Vec<_>>()
        );
        assert_eq!(value_of(&run(&mut s, 1, get("k2"))).as_deref(), Some("v2"));
        // Next barrier round works again.
        for r in 0..3 {
            let e = run(&mut s, r, Command::BarrierIn);
            assert_eq!(e.len(), if r == 2 { 3 } else { 0 });
        }
    }

    #[test]
    fn errors_are_rc_minus_one() {
        let mut s = PmiServer::new("kvs", 1);
        let e = run(
            &mut s,
            0,
            Command::Put {
                kvsname: "other".into(),
                key: "k".into(),
                value: "v".into(),
            },
        );
        assert!(matches!(
            &e[..],
            [Effect::Reply(0, Reply::PutResult { rc: -1, .. })]
        ));
        let e = run(&mut s, 0, put(&"k".repeat(65), "v"));
        assert!(matches!(
            &e[..],
            [Effect::Reply(0, Reply::PutResult { rc: -1, .. })]
        ));
        let e = run(&mut s, 0, put("k", &"v".repeat(1025)));
        assert!(matches!(
            &e[..],
            [Effect::Reply(0, Reply::PutResult { rc: -1, .. })]
        ));
        let e = run(&mut s, 0, get("missing"));
        assert_eq!(
            e,
            vec![Effect::Reply(
                0,
                Reply::GetResult {
                    rc: -1,
                    msg: Some("key_missing_not_found".into()),
                    value: Some("unknown".into())
                }
            )]
        );
        let e = run(
            &mut s,
            0,
            Command::Init {
                pmi_version: 2,
                pmi_subversion: 0,
            },
        );
        assert!(matches!(
            &e[..],
            [Effect::Reply(0, Reply::Init { rc: -1, .. })]
        ));
    }

    #[test]
    fn lifecycle_and_abort() {
        let mut s = PmiServer::new("railmpi_1_0", 2);
        assert_eq!(s.rank_state(1), RankPmiState::default());
        let e = run(
            &mut s,
            1,
            Command::Init {
                pmi_version: 1,
                pmi_subversion: 1,
            },
        );
        assert_eq!(
            e[0].clone(),
            Effect::Reply(
                1,
                Reply::Init {
                    pmi_version: 1,
                    pmi_subversion: 1,
                    rc: 0
                }
            )
        );
        assert!(s.rank_state(1).initialized);
        let e = run(&mut s, 1, Command::GetMyKvsname);
        assert_eq!(
            e,
            vec![Effect::Reply(
                1,
                Reply::MyKvsname {
                    kvsname: "railmpi_1_0".into()
                }
            )]
        );
        let e = run(&mut s, 1, Command::GetUniverseSize);
        assert_eq!(e, vec![Effect::Reply(1, Reply::UniverseSize { size: 2 })]);
        // mpiexec's universe (-usize), also a spawned job's; unknown is -1 (Hydra's).
        s.set_universe(Some(16));
        let e = run(
            &mut s.sibling("railmpi_1_1", 1),
            0,
            Command::GetUniverseSize,
        );
        assert_eq!(e, vec![Effect::Reply(0, Reply::UniverseSize { size: 16 })]);
        s.set_universe(None);
        let e = run(&mut s, 1, Command::GetUniverseSize);
        assert_eq!(e, vec![Effect::Reply(1, Reply::UniverseSize { size: -1 })]);
        let e = run(
            &mut s,
            0,
            Command::Abort {
                exitcode: 3,
                ranks: Vec::new(),
            },
        );
        assert_eq!(
            e,
            vec![Effect::Abort {
                rank: 0,
                code: 3,
                ranks: Vec::new()
            }]
        );
        let e = run(&mut s, 1, Command::Finalize);
        assert_eq!(e, vec![Effect::Reply(1, Reply::FinalizeAck)]);
        assert!(s.rank_state(1).finalized);
        let mut out = Vec::new();
        assert!(s.handle(1, Command::GetAppnum, &mut out).is_err());
    }
}
