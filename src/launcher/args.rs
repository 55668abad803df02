//! Command line of `mpiexec`.
//!
//! ```text
//! mpiexec [-n N | -np N] [-hosts H,H:S | -f FILE] [-ppn N] [--launcher ssh|rsh|CMD]
//!         [-iface IF] [-env K V]... [-genv K V]... [--timeout S] [--tag-output]
//!         [-disable-auto-cleanup] prog [args...]
//! mpiexec --proxy ADDR:PORT ID      (started by mpiexec itself on each host)
//! ```
//! Options take one or two leading dashes (`-timeout` = `--timeout`) and `-opt=value` for
//! options with one value. The first argument that is not an option is the program;
//! everything after it belongs to the program. `--` ends the options explicitly.

use super::hosts::{self, Host};
use std::net::SocketAddr;
use std::time::Duration;

pub const USAGE: &str = "\
usage: mpiexec [options] program [args...]

options:
  -n N, -np N        number of ranks (default 1 on this node; with hosts, the sum of
                     their slots, or hosts x ppn)
  -hosts H[:S],...   run on these hosts (S: ranks the host takes, default 1)
  -f FILE            hosts from a file, one host[:slots] per line (also -hostfile)
  -ppn N             ranks per host (overrides the slots)
  --launcher L       how to start the proxy on another host: ssh (default), rsh, or a
                     command run as `L host command...`
  -iface IF          the interface whose address the hosts reach this mpiexec at
                     (default: ours on a network that holds the first remote host)
  -env K V           set environment variable K=V in every rank (repeatable)
  -genv K V          same as -env (one program, so global and local are the same)
  --timeout S        kill the job after S seconds and exit with status 124 (default:
                     MPIEXEC_TIMEOUT from the environment, as Hydra; none)
  --tag-output, -l   prefix every line of a rank's stdout/stderr with \"[rank] \"
  -disable-auto-cleanup, -dac
                     a rank that fails does not end the others: they go on until they
                     finish or fail themselves (or --timeout), and MPI_Abort(comm) ends
                     only comm's ranks of this job (an intercommunicator's remote group:
                     the caller goes on); the exit status is still the first failure's
                     (-enable-auto-cleanup: the default)
  -usize U, -universe_size U
                     MPI_UNIVERSE_SIZE: a number, SYSTEM (the hosts' slots, or this
                     node's cores; at least -n) or INFINITE (the default, as Hydra's:
                     the attribute is not set); also from MPIEXEC_UNIVERSE_SIZE
  -h, --help         show this help

Rank 0 reads mpiexec's stdin; the others read /dev/null. Across hosts, one proxy per host
(this program, started by the launcher) starts that host's ranks and relays their PMI,
output and exits; ranks of one host are consecutive. The exit status is the first
failing rank's (128+N for a rank killed by signal N, the abort code after MPI_Abort).";

/// Upper bound on `-n`: far more than one node can run, small enough to catch typos.
pub const MAX_RANKS: u32 = 1 << 16;

/// A parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub nprocs: u32,
    /// `-n` was given (with hosts, the default is their slots).
    pub nprocs_set: bool,
    /// `-hosts` or `-f`: a multi-host job (through proxies).
    pub hosts: Option<Vec<Host>>,
    pub ppn: Option<u32>,
    pub launcher: String,
    pub iface: Option<String>,
    /// `-env`/`-genv` pairs in command-line order (later ones win).
    pub env: Vec<(String, String)>,
    pub timeout: Option<Duration>,
    pub tag_output: bool,
    /// A failing rank ends the job (Hydra's auto-cleanup; `-disable-auto-cleanup` off).
    pub auto_cleanup: bool,
    /// `-usize`: what MPI_UNIVERSE_SIZE says (see [`Options::universe_size`]).
    pub usize: Usize,
    pub program: String,
    pub args: Vec<String>,
}

/// `-usize` (Hydra's option and words; `MPIEXEC_UNIVERSE_SIZE` when not given).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Usize {
    /// `SYSTEM`: the slots this mpiexec knows.
    System,
    /// `INFINITE`, the default (Hydra's): no number, the attribute is not set. This
    /// mpiexec starts as many processes as it is asked to (oversubscribing a node), so no
    /// number bounds them; and programs that spawn while the universe exceeds their
    /// MPI_COMM_WORLD (MPICH's spawn tests) do so also in the children, whose world the
    /// universe then has to exceed too (a universe of this node's 2 cores lets a
    /// 1-process parent spawn 2 children that then take themselves for a job that may
    /// not spawn, and stop answering it).
    Infinite,
    /// A number of processes.
    Value(u32),
}

fn parse_usize(v: &str) -> Result<Usize, String> {
    match v {
        "SYSTEM" => Ok(Usize::System),
        "INFINITE" => Ok(Usize::Infinite),
        _ => match v.parse::<u32>() {
            Ok(n) if (1..=MAX_RANKS).contains(&n) => Ok(Usize::Value(n)),
            _ => Err(format!(
                "invalid universe size {v:?} (expected SYSTEM, INFINITE or 1..={MAX_RANKS})"
            )),
        },
    }
}

impl Options {
    /// MPI_UNIVERSE_SIZE, "the total number of processes that are expected" (MPI-4.1
    /// §11.10.1): `-usize N` gives it; `SYSTEM` the slots this mpiexec knows, as many as
    /// can usefully run at once — the hosts' (`-ppn` each, else their slots, else one),
    /// on this node alone its `cores` — and never fewer than the job's own ranks (a job
    /// larger than that is oversubscribed already: no more are expected). None
    /// (`INFINITE`, the default): the attribute is not set.
    pub fn universe_size(&self, cores: u32) -> Option<u32> {
        let slots = match &self.hosts {
            Some(h) => h
                .iter()
                .map(|x| self.ppn.or(x.slots).unwrap_or(1))
                .fold(0u32, u32::saturating_add),
            None => cores,
        };
        match self.usize {
            Usize::Value(n) => Some(n),
            Usize::Infinite => None,
            Usize::System => Some(slots.max(self.nprocs).min(MAX_RANKS)),
        }
    }
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    Run(Options),
    Help,
    /// Proxy mode: connect to the root mpiexec at `root` as proxy `id`.
    Proxy {
        root: SocketAddr,
        id: u32,
    },
}

fn parse_nprocs(v: &str) -> Result<u32, String> {
    match v.parse::<u32>() {
        Ok(n) if (1..=MAX_RANKS).contains(&n) => Ok(n),
        _ => Err(format!(
            "invalid number of ranks {v:?} (expected 1..={MAX_RANKS})"
        )),
    }
}

fn parse_timeout(v: &str) -> Result<Duration, String> {
    match v.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "invalid timeout {v:?} (expected a positive number of seconds)"
        )),
    }
}

fn check_env(k: &str, v: &str) -> Result<(), String> {
    if k.is_empty() || k.contains('=') || k.contains('\0') {
        return Err(format!("invalid environment variable name {k:?}"));
    }
    if v.contains('\0') {
        return Err(format!("invalid value for environment variable {k}"));
    }
    Ok(())
}

/// Parses the arguments after the program name.
pub fn parse(argv: &[String]) -> Result<Parsed, String> {
    if argv.first().map(String::as_str) == Some("--proxy") {
        let (Some(addr), Some(id), 3) = (argv.get(1), argv.get(2), argv.len()) else {
            return Err("usage: mpiexec --proxy ADDR:PORT ID".into());
        };
        return Ok(Parsed::Proxy {
            root: addr
                .parse()
                .map_err(|_| format!("invalid proxy address {addr:?}"))?,
            id: id.parse().map_err(|_| format!("invalid proxy id {id:?}"))?,
        });
    }
    let mut nprocs = 1;
    let mut nprocs_set = false;
    let mut host_list = None;
    let mut ppn = None;
    let mut launcher = "ssh".to_string();
    let mut iface = None;
    let mut env = Vec::new();
    let mut timeout = None;
    let mut tag_output = false;
    let mut auto_cleanup = true;
    let mut usize = None;
    let mut i = 0;

    // Takes the value of an option: from `-opt=value` or from the next argument.
    fn value<'a>(
        argv: &'a [String],
        i: &mut usize,
        inline: Option<&'a str>,
        opt: &str,
    ) -> Result<&'a str, String> {
        if let Some(v) = inline {
            return Ok(v);
        }
        *i += 1;
        argv.get(*i)
            .map(String::as_str)
            .ok_or_else(|| format!("option {opt} needs a value"))
    }

    while i < argv.len() {
        let arg = argv[i].as_str();
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        // One or two leading dashes; `-opt=value` splits.
        let name = arg.strip_prefix("--").unwrap_or(&arg[1..]);
        let (name, inline) = match name.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (name, None),
        };
        match name {
            "n" | "np" => {
                nprocs = parse_nprocs(value(argv, &mut i, inline, arg)?)?;
                nprocs_set = true;
            }
            "hosts" | "host" => {
                host_list = Some(hosts::parse_list(value(argv, &mut i, inline, arg)?)?)
            }
            "f" | "hostfile" | "machinefile" => {
                let path = value(argv, &mut i, inline, arg)?;
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read hostfile {path:?}: {e}"))?;
                host_list = Some(hosts::parse_file(&text)?);
            }
            "ppn" => ppn = Some(parse_nprocs(value(argv, &mut i, inline, arg)?)?),
            "launcher" | "bootstrap" => {
                launcher = value(argv, &mut i, inline, arg)?.to_string();
                if launcher.trim().is_empty() {
                    return Err("empty launcher".into());
                }
            }
            "launcher-exec" | "bootstrap-exec" => {
                launcher = value(argv, &mut i, inline, arg)?.to_string();
            }
            "iface" => iface = Some(value(argv, &mut i, inline, arg)?.to_string()),
            "usize" | "universe_size" | "universe-size" => {
                usize = Some(parse_usize(value(argv, &mut i, inline, arg)?)?)
            }
            "timeout" => timeout = Some(parse_timeout(value(argv, &mut i, inline, arg)?)?),
            "env" | "genv" => {
                if inline.is_some() {
                    return Err(format!("option -{name} takes two arguments: -{name} K V"));
                }
                let (Some(k), Some(v)) = (argv.get(i + 1), argv.get(i + 2)) else {
                    return Err(format!("option -{name} needs two arguments: -{name} K V"));
                };
                check_env(k, v)?;
                env.push((k.clone(), v.clone()));
                i += 2;
            }
            "tag-output" | "l" | "prepend-rank" if inline.is_none() => tag_output = true,
            "disable-auto-cleanup" | "dac" if inline.is_none() => auto_cleanup = false,
            "enable-auto-cleanup" if inline.is_none() => auto_cleanup = true,
            "h" | "help" if inline.is_none() => return Ok(Parsed::Help),
            _ => return Err(format!("unknown option {arg:?}")),
        }
        i += 1;
    }

    // Hydra's environment variable, which test harnesses (MPICH's runtests) set.
    if timeout.is_none() {
        if let Ok(v) = std::env::var("MPIEXEC_TIMEOUT") {
            timeout = Some(parse_timeout(v.trim()).map_err(|e| format!("MPIEXEC_TIMEOUT: {e}"))?);
        }
    }
    // Hydra's, for -usize.
    let usize = match usize {
        Some(u) => u,
        None => match std::env::var("MPIEXEC_UNIVERSE_SIZE") {
            Ok(v) => parse_usize(v.trim()).map_err(|e| format!("MPIEXEC_UNIVERSE_SIZE: {e}"))?,
            Err(_) => Usize::Infinite,
        },
    };
    let Some(program) = argv.get(i) else {
        return Err("no program given".to_string());
    };
    if program.is_empty() {
        return Err("empty program name".to_string());
    }
    if let (Some(h), false) = (&host_list, nprocs_set) {
        let per = |x: &Host| u64::from(ppn.or(x.slots).unwrap_or(1));
        let total: u64 = h.iter().map(per).sum();
        nprocs = parse_nprocs(&total.to_string())?;
    }
    Ok(Parsed::Run(Options {
        nprocs,
        nprocs_set,
        hosts: host_list,
        ppn,
        launcher,
        iface,
        env,
        timeout,
        tag_output,
        auto_cleanup,
        usize,
        program: program.clone(),
        args: argv[i + 1..].to_vec(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Parsed, String> {
        let v: Vec<String> = s.split_whitespace().map(String::from).collect();
        parse(&v)
    }

    fn opts(s: &str) -> Options {
        match p(s).unwrap() {
            Parsed::Run(o) => o,
            _ => panic!("not a run"),
        }
    }

    #[test]
    fn full_command_line() {
        let o = opts("-n 4 -env A 1 --genv B 2 --timeout 1.5 --tag-output ./prog -n 3 --x");
        assert_eq!(o.nprocs, 4);
        assert_eq!(
            o.env,
            vec![("A".into(), "1".into()), ("B".into(), "2".into())]
        );
        assert_eq!(o.timeout, Some(Duration::from_millis(1500)));
        assert!(o.tag_output);
        assert_eq!(o.program, "./prog");
        assert_eq!(o.args, vec!["-n", "3", "--x"]);
    }

    #[test]
    fn defaults_and_forms() {
        let o = opts("prog");
        assert_eq!((o.nprocs, o.timeout, o.tag_output), (1, None, false));
        assert!(o.args.is_empty());
        assert_eq!(opts("-np 2 prog").nprocs, 2);
        assert_eq!(opts("--n=3 prog").nprocs, 3);
        assert_eq!(
            opts("-timeout=2 prog").timeout,
            Some(Duration::from_secs(2))
        );
        assert_eq!(opts("-n 2 -n 5 prog").nprocs, 5);
        assert!(opts("-l prog").tag_output);
        assert!(opts("prog").auto_cleanup);
        assert!(!opts("-disable-auto-cleanup prog").auto_cleanup);
        assert!(!opts("--dac prog").auto_cleanup);
        assert!(opts("-dac -enable-auto-cleanup prog").auto_cleanup);
        assert_eq!(opts("-n 2 -- -weird").program, "-weird");
        assert_eq!(p("--help").unwrap(), Parsed::Help);
        assert_eq!(p("-h prog").unwrap(), Parsed::Help);
    }

    #[test]
    fn universe_size() {
        // The default, as Hydra's: not set.
        assert_eq!(opts("-n 2 prog").universe_size(8), None);
        // SYSTEM: the slots (the hosts', or this node's cores), at least -n.
        assert_eq!(opts("-usize SYSTEM -n 2 prog").universe_size(8), Some(8));
        assert_eq!(opts("-usize SYSTEM -n 4 prog").universe_size(2), Some(4));
        let o = opts("-usize SYSTEM -hosts a,b:3 -n 1 prog");
        assert_eq!(o.universe_size(64), Some(4));
        let o = opts("-usize=SYSTEM -hosts a,b -ppn 2 -n 1 prog");
        assert_eq!(o.universe_size(64), Some(4));
        // -usize (Hydra's) and -universe_size (MPI-4.1 §11.10.1's example) say it.
        assert_eq!(opts("-usize 10 -n 4 prog").universe_size(2), Some(10));
        assert_eq!(opts("-universe_size=6 prog").universe_size(2), Some(6));
        assert_eq!(opts("-usize INFINITE prog").universe_size(2), None);
        for bad in [
            "-usize 0 prog",
            "-usize -3 prog",
            "-usize many prog",
            "-usize",
        ] {
            assert!(p(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn hosts_and_proxies() {
        let o = opts("-hosts a,b:3 --launcher rsh -iface eth1 prog");
        assert_eq!(o.nprocs, 4, "slots summed");
        assert_eq!(o.hosts.as_ref().unwrap().len(), 2);
        assert_eq!(
            (o.launcher.as_str(), o.iface.as_deref()),
            ("rsh", Some("eth1"))
        );
        let o = opts("-hosts a,b -ppn 2 prog");
        assert_eq!((o.nprocs, o.ppn), (4, Some(2)));
        assert_eq!(opts("-n 3 -hosts a,b prog").nprocs, 3);
        assert_eq!(opts("prog").launcher, "ssh");
        assert_eq!(
            p("--proxy 10.0.0.1:5000 3").unwrap(),
            Parsed::Proxy {
                root: "10.0.0.1:5000".parse().unwrap(),
                id: 3
            }
        );
        for bad in [
            "--proxy 10.0.0.1 3",
            "--proxy 10.0.0.1:5 x",
            "--proxy",
            "-hosts a:0 prog",
            "-f /nonexistent/hostfile prog",
            "-ppn 0 -hosts a prog",
        ] {
            assert!(p(bad).is_err(), "{bad:?} should fail");
        }
    }

    #[test]
    fn usage_errors() {
        for bad in [
            "",
            "-n",
            "-n 0 prog",
            "-n -1 prog",
            "-n x prog",
            "-n 99999999 prog",
            "--timeout 0 prog",
            "--timeout -3 prog",
            "--timeout nan prog",
            "--timeout inf prog",
            "-env A",
            "-env A=1 prog",
            "-env=A 1 prog",
            "--bogus prog",
            "-n 2",
            "--tag-output=1 prog",
            "-disable-auto-cleanup=1 prog",
        ] {
            assert!(p(bad).is_err(), "{bad:?} should fail");
        }
    }
}
