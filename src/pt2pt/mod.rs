//! pt2pt layer.
