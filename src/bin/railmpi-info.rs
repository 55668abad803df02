//! `railmpi-info`: version, the rails this machine offers, and every `RAILMPI_*` setting
//! with its value in this environment and its default.

use mpi::runtime::config::{value, SETTINGS};

fn main() {
    println!("{}", mpi::abi::env::library_version());
    println!();
    println!("Rails:");
    let shm = std::path::Path::new("/dev/shm").is_dir();
    println!(
        "  shm    {}  (one node: shared-memory rings + Cross Memory Attach)",
        if shm {
            "available"
        } else {
            "unavailable: no /dev/shm"
        }
    );
    println!("  tcp    not built yet");
    println!("  verbs  not built yet");
    println!();
    println!("Settings:");
    for s in SETTINGS {
        let v = value(s.name);
        if std::env::var(s.name).is_ok() {
            println!("  {}={}  (set; default {})", s.name, v, s.default);
        } else {
            println!("  {}={}  (default)", s.name, v);
        }
        println!("      {}", s.help);
    }
}
