//! channel layer.
