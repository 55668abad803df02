//! MPICH-ABI types and predefined constants (filled in next).
