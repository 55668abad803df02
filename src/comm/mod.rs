//! comm layer.
