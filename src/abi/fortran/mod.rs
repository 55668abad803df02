//! Fortran bindings (being written).
