! lifetime_abort: rank 1 writes a line (buffered by the Fortran run-time, stdout being a
! pipe) and calls MPI_Abort(MPI_COMM_WORLD, 6); the line must still reach the output
! (c_tests/cases/55_lifetime.sh).
program lifetime_abort
  use mpi
  implicit none
  integer :: ierr, rank, x
  integer :: st(MPI_STATUS_SIZE)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 1) then
     write (*, '(a)') 'fortran rank 1 wrote this line before MPI_Abort'
     call MPI_Abort(MPI_COMM_WORLD, 6, ierr)
  end if
  call MPI_Recv(x, 1, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, st, ierr)
  print *, 'BUG: received a message nobody sent'
end program lifetime_abort
