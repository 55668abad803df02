//! abi: the C surface. `extern "C"` shims that check arguments, translate handles, run the
//! core and map its `Result` to an error code through the object's error handler.
pub mod consts;
