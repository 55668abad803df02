//! Communicator creation beyond dup/split (being written).
