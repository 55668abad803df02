fn main() {
    std::process::exit(mpi::launcher::main());
}
