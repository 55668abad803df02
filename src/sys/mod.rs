//! sys layer.
