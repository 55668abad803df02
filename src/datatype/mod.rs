//! datatype layer.
