//! PMI-1 "simple" wire protocol (what MPICH's Hydra and our mpiexec speak).
