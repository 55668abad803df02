//! `railmpi-info`: version, the rails this machine offers, and every `RAILMPI_*` setting
//! with its value in this environment and its default.

use mpi::fabric::shm::{ShmRail, ShmSettings};
use mpi::fabric::{Rail, RailCaps};
use mpi::runtime::config::{self, value, Config};

fn print_caps(c: &RailCaps, what: &str) {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let sge = if c.max_sge == usize::MAX {
        "any".to_string()
    } else {
        c.max_sge.to_string()
    };
    println!("  {:<6} available ({what})", c.name);
    println!(
        "         message {} B, inline {} B, sge {sge}, rdma read/write {}/{}, atomics {}, \
         odp {}, mapped {}",
        c.max_message,
        c.max_inline,
        yes(c.rdma_read),
        yes(c.rdma_write),
        yes(c.atomics),
        yes(c.odp),
        yes(c.mapped)
    );
    println!(
        "         ~{} MB/s, ~{} ns, min RDMA run {} B",
        c.bandwidth / 1_000_000,
        c.latency_ns,
        c.min_rdma_run
    );
}

/// Every verbs port with what the device says of it (the module is loaded only when the
/// kernel shows a device).
fn print_verbs() {
    use mpi::fabric::verbs::{caps, module};
    let m = match module::get() {
        Ok(m) => m,
        Err(e) => {
            println!("  verbs  unavailable: {e}");
            return;
        }
    };
    let ports = match module::ports(m) {
        Ok(p) => p,
        Err(e) => {
            println!("  verbs  unavailable: {e}");
            return;
        }
    };
    if ports.is_empty() {
        println!(
            "  verbs  unavailable: no RDMA device ({})",
            m.path.display()
        );
        return;
    }
    for p in &ports {
        let i = &p.info;
        let state = if i.active != 0 { "active" } else { "down" };
        print_caps(
            &caps(p),
            &format!(
                "{}:{} {}, {state}; RDMA adapters, keyed by the adapter",
                p.device,
                p.port,
                p.transport()
            ),
        );
        let odp = if i.odp == 0 {
            "none".to_string()
        } else {
            format!(
                "{:#x}{}",
                i.odp,
                if i.odp & 32 != 0 { " (implicit)" } else { "" }
            )
        };
        println!(
            "         mtu {} B, {} Mb/s, max sge {} (read {}), qp wr {}, srq wr {}, \
             rd atomics {}, odp {odp}, fw {}",
            i.mtu,
            i.speed_mbps,
            i.max_sge,
            i.max_sge_rd,
            i.max_qp_wr,
            i.max_srq_wr,
            i.max_qp_rd_atom,
            p.fw_ver()
        );
        let ip = p.ip().map_or("none".to_string(), |a| a.to_string());
        println!(
            "         gid index {} (RoCE v2 where the port has one), ip {ip}",
            i.gid_index
        );
    }
    println!("         module {}", m.path.display());
}

fn main() {
    println!(
        "{}",
        mpi::runtime::env::library_version(
            mpi::abi::consts::MPI_VERSION,
            mpi::abi::consts::MPI_SUBVERSION
        )
    );
    println!();
    println!("Rails (fabric::Rail providers; each job opens those that reach its peers):");
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("railmpi-info: {e}");
            std::process::exit(1);
        }
    };
    let settings = ShmSettings {
        ncells: config.rails.shm_cells,
        cell_size: config.rails.shm_cell_size,
        cma: config.rails.shm_cma,
        launcher: None,
        fenced_wakeups: false,
    };
    // A one-process shm rail, built for real (segment, key table), to report its caps.
    match ShmRail::establish(
        0,
        1,
        &settings,
        &mut |v| Ok(v.unwrap_or_default()),
        &mut || Ok(()),
    ) {
        Ok(rail) => print_caps(
            rail.caps(),
            "one node: rings + Cross Memory Attach, keyed; a service queue per pair of ranks",
        ),
        Err(e) => println!("  shm    unavailable: {e}"),
    }
    print_caps(
        &mpi::fabric::tcp::caps(),
        "other hosts: software RDMA over sockets, keyed; a progress thread serves peers",
    );
    print_verbs();
    println!();
    println!("Settings:");
    for s in config::settings() {
        let v = value(s.name);
        if s.name == "RAILMPI_JOB_SECRET" && !v.is_empty() {
            // A secret is not printed, only that it is there.
            println!("  {}=(set, not shown)", s.name);
        } else if std::env::var(s.name).is_ok() {
            println!("  {}={}  (set; default {})", s.name, v, s.default);
        } else {
            println!("  {}={}  (default)", s.name, v);
        }
        println!("      {}", s.help);
    }
}
