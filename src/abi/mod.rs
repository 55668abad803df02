//! abi layer.
