! f08_noncontig: `use mpi_f08`, default error handler (MPI_ERRORS_ARE_FATAL): a noncontiguous
! array section passed to MPI_Ibcast (which keeps using its buffer) must end the job, naming
! the call and the reason
! (90_fortran.sh: fortran.f08_noncontig_fatal). Not in c_tests/fortran/ itself: it does not
! print an ok line.
program f08_noncontig
  use mpi_f08
  implicit none
  integer :: a(10)
  type(MPI_Request) :: req
  a = 1
  call MPI_Init()
  call MPI_Ibcast(a(1:10:2), 5, MPI_INTEGER, 0, MPI_COMM_WORLD, req)
  write(*, '(a)') 'f08_noncontig: MPI_Ibcast returned'
  call MPI_Finalize()
end program f08_noncontig
