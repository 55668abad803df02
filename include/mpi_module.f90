! mpi_module.f90: the `mpi` module of railmpi (`use mpi`). It holds what mpif.h holds
! (constants, the COMMON blocks of MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE, ... and the
! EXTERNAL MPI_WTIME and friends) and the types of MPI_AINT_ADD/DIFF; calls have implicit interfaces, as with mpif.h, so any
! buffer type may be passed (the mpif90 wrapper adds -fallow-argument-mismatch); MPI_SIZEOF
! alone has an interface.
! fortran.mk compiles it into build/include/mpi.mod.
module mpi
  implicit none
  include 'mpif.h'
  ! MPI_Aint_add and MPI_Aint_diff return addresses: typed here, or a program without
  ! IMPLICIT NONE (MPICH's f90 tests) would take them for default INTEGERs and drop the
  ! high bytes. Not in mpif.h, whose programs declare them (MPICH's mpif.h has neither).
  integer(kind=MPI_ADDRESS_KIND), external :: MPI_AINT_ADD, MPI_AINT_DIFF
  integer(kind=MPI_ADDRESS_KIND), external :: PMPI_AINT_ADD, PMPI_AINT_DIFF
  ! MPI_SIZEOF(X, SIZE, IERROR): generic over X's type and rank, so not an implicit-interface
  ! call (an mpi_sizeof_ entry would get X's address only); libmpi's mpi_f08 entry point
  ! reads the element size from the descriptor.
  interface MPI_SIZEOF
    subroutine MPI_Sizeof_f08ts(x, size, ierror) bind(C, name="MPI_Sizeof_f08ts")
      use, intrinsic :: iso_c_binding, only: c_int
      implicit none
      type(*), dimension(..) :: x
      integer(c_int), intent(out) :: size, ierror
    end subroutine MPI_Sizeof_f08ts
  end interface MPI_SIZEOF
  interface PMPI_SIZEOF
    subroutine PMPI_Sizeof_f08ts(x, size, ierror) bind(C, name="PMPI_Sizeof_f08ts")
      use, intrinsic :: iso_c_binding, only: c_int
      implicit none
      type(*), dimension(..) :: x
      integer(c_int), intent(out) :: size, ierror
    end subroutine PMPI_Sizeof_f08ts
  end interface PMPI_SIZEOF
end module mpi
