! mpi_module.f90: the `mpi` module of railmpi (`use mpi`). It holds what mpif.h holds
! (constants, the COMMON blocks of MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ... and the
! EXTERNAL MPI_WTIME and friends); calls have implicit interfaces, as with mpif.h, so any
! buffer type may be passed (the mpif90 wrapper adds -fallow-argument-mismatch).
! fortran.mk compiles it into build/include/mpi.mod.
module mpi
  implicit none
  include 'mpif.h'
end module mpi
