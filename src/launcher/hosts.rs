//! Hosts of a multi-host job: the host list (`-hosts`, `-f hostfile`), where each rank
//! runs (`-ppn`, slots), `PMI_process_mapping`, and which local address the proxies on
//! those hosts can reach this mpiexec at.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

/// One host of the list, with the ranks it takes when `-ppn` is not given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Host {
    pub name: String,
    pub slots: Option<u32>,
}

fn parse_entry(s: &str) -> Result<Host, String> {
    let (name, slots) = match s.rsplit_once(':') {
        Some((n, c)) => {
            let c = c
                .parse::<u32>()
                .ok()
                .filter(|&c| c > 0)
                .ok_or_else(|| format!("invalid slot count in host entry {s:?}"))?;
            (n, Some(c))
        }
        None => (s, None),
    };
    let ok = |c: char| c.is_ascii_alphanumeric() || "-._".contains(c);
    if name.is_empty() || !name.chars().all(ok) {
        return Err(format!("invalid host name {name:?}"));
    }
    Ok(Host {
        name: name.to_string(),
        slots,
    })
}

/// `-hosts a,b:2,c`.
pub fn parse_list(s: &str) -> Result<Vec<Host>, String> {
    let hosts: Vec<Host> = s
        .split(',')
        .filter(|e| !e.is_empty())
        .map(parse_entry)
        .collect::<Result<_, _>>()?;
    if hosts.is_empty() {
        return Err("empty host list".into());
    }
    Ok(hosts)
}

/// A hostfile: one `host[:slots]` per line (Hydra's form); `#` starts a comment.
pub fn parse_file(text: &str) -> Result<Vec<Host>, String> {
    let mut hosts = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        hosts.push(parse_entry(line).map_err(|e| format!("hostfile line {}: {e}", i + 1))?);
    }
    if hosts.is_empty() {
        return Err("the hostfile names no host".into());
    }
    Ok(hosts)
}

/// Where ranks run: consecutive blocks, host after host, `ppn` (or the host's slots, or
/// 1) on each, wrapping round the list while ranks remain (as Hydra places them).
///
/// Returns the ranks of each host, in the list's order (hosts with none are left out).
pub fn place(hosts: &[Host], nprocs: Option<u32>, ppn: Option<u32>) -> Vec<(String, Vec<u32>)> {
    let per = |h: &Host| ppn.or(h.slots).unwrap_or(1);
    let n = nprocs.unwrap_or_else(|| hosts.iter().map(per).sum());
    let mut out: Vec<(String, Vec<u32>)> = Vec::new();
    let mut next = 0;
    'fill: loop {
        for h in hosts {
            for _ in 0..per(h) {
                if next == n {
                    break 'fill;
                }
                match out.iter_mut().find(|(name, _)| *name == h.name) {
                    Some((_, ranks)) => ranks.push(next),
                    None => out.push((h.name.clone(), vec![next])),
                }
                next += 1;
            }
        }
    }
    out
}

/// `PMI_process_mapping` for a placement (MPICH's vector form: (first node, nodes, ranks
/// per node) triples), when each host's ranks are one consecutive block; None otherwise.
pub fn process_mapping(placement: &[(String, Vec<u32>)]) -> Option<String> {
    let mut out = String::from("(vector");
    for (i, (_, ranks)) in placement.iter().enumerate() {
        let contiguous = ranks.windows(2).all(|w| w[1] == w[0] + 1);
        if !contiguous {
            return None;
        }
        out.push_str(&format!(",({i},1,{})", ranks.len()));
    }
    out.push(')');
    Some(out)
}

/// Whether `name` is this host (no launcher needed: the proxy is started directly).
pub fn is_local(name: &str) -> bool {
    if name == "localhost" || name == crate::sys::cpu::hostname() {
        return true;
    }
    let Ok(ip) = name.parse::<IpAddr>() else {
        return false;
    };
    ip.is_loopback()
        || crate::sys::net::interfaces()
            .map(|ifs| ifs.iter().any(|i| i.addr == ip))
            .unwrap_or(false)
}

/// The address the proxies connect back to: the address of interface `iface` if given;
/// otherwise the first address of ours on a network that contains a remote host's
/// address (hosts that do not resolve are left to the launcher to complain about);
/// otherwise loopback when every host is this one.
pub fn root_address(hosts: &[String], iface: Option<&str>) -> Result<IpAddr, String> {
    let ifs = crate::sys::net::interfaces().map_err(|e| format!("listing interfaces: {e}"))?;
    let v4_up = |i: &&crate::sys::net::Interface| i.up && i.addr.is_ipv4();
    if let Some(name) = iface {
        return ifs
            .iter()
            .filter(v4_up)
            .find(|i| i.name == name)
            .map(|i| i.addr)
            .ok_or_else(|| format!("interface {name:?} has no IPv4 address that is up"));
    }
    let remote: Vec<&String> = hosts.iter().filter(|h| !is_local(h)).collect();
    if remote.is_empty() {
        return Ok(IpAddr::from([127, 0, 0, 1]));
    }
    for h in &remote {
        let Ok(addrs) = (h.as_str(), 0).to_socket_addrs() else {
            continue;
        };
        for a in addrs.map(|a: SocketAddr| a.ip()) {
            if let Some(i) = ifs
                .iter()
                .filter(v4_up)
                .find(|i| !i.loopback && crate::sys::net::in_network(a, i.addr, i.prefix))
            {
                return Ok(i.addr);
            }
        }
    }
    // No shared network found: the first address that is up and not loopback.
    ifs.iter()
        .filter(v4_up)
        .find(|i| !i.loopback)
        .map(|i| i.addr)
        .ok_or_else(|| "no network interface to reach the other hosts from (give -iface)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(name: &str, slots: Option<u32>) -> Host {
        Host {
            name: name.into(),
            slots,
        }
    }

    #[test]
    fn lists_and_files() {
        assert_eq!(
            parse_list("a,b:2,c").unwrap(),
            vec![h("a", None), h("b", Some(2)), h("c", None)]
        );
        assert_eq!(
            parse_file("# nodes\nn0:4\n\n n1 # second\n").unwrap(),
            vec![h("n0", Some(4)), h("n1", None)]
        );
        for bad in ["", ",", "a:0", "a:x", "a b", "a;b", ":3"] {
            assert!(parse_list(bad).is_err(), "{bad:?}");
        }
        assert!(parse_file("# nothing\n").is_err());
        assert!(parse_file("n0\nn1:-2\n").unwrap_err().contains("line 2"));
    }

    #[test]
    fn placement_blocks_and_wraps() {
        let hosts = [h("a", None), h("b", Some(3))];
        let names = |p: &[(String, Vec<u32>)]| p.to_vec();
        assert_eq!(
            names(&place(&hosts, None, None)),
            vec![("a".into(), vec![0]), ("b".into(), vec![1, 2, 3])]
        );
        assert_eq!(
            place(&hosts, Some(4), Some(2)),
            vec![("a".into(), vec![0, 1]), ("b".into(), vec![2, 3])]
        );
        // More ranks than places: round again.
        let p = place(&hosts, Some(6), Some(1));
        assert_eq!(p[0].1, vec![0, 2, 4]);
        assert_eq!(p[1].1, vec![1, 3, 5]);
        assert_eq!(process_mapping(&p), None);
        assert_eq!(
            process_mapping(&place(&hosts, Some(5), Some(2))).as_deref(),
            None,
            "a gets 0,1 and 4"
        );
        assert_eq!(
            process_mapping(&place(&hosts, Some(3), Some(2))).as_deref(),
            Some("(vector,(0,1,2),(1,1,1))")
        );
        // Fewer ranks than hosts: the rest get none.
        assert_eq!(place(&hosts, Some(1), None).len(), 1);
    }
}
