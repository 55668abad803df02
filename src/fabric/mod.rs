//! fabric layer.
