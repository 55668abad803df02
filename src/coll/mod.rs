//! coll layer.
