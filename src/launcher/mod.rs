//! The `mpiexec` launcher: starts ranks on this node and serves PMI-1 to them.
pub fn main() -> i32 {
    eprintln!("mpiexec: not implemented yet");
    1
}
