! f08hello: built by CMake (FindMPI's MPI::MPI_Fortran target): MPI_Comm_dup, MPI_Allreduce of
! an expression, MPI_Comm_free; rank 0 prints the sum of 1..nprocs.
program f08hello
  use mpi_f08
  implicit none
  integer :: rank, n
  type(MPI_Comm) :: comm
  call MPI_Init()
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_rank(comm, rank)
  call MPI_Allreduce(rank + 1, n, 1, MPI_INTEGER, MPI_SUM, comm)
  call MPI_Comm_free(comm)
  if (rank == 0) print '(a, i0)', 'ok f08hello ', n
  call MPI_Finalize()
end program f08hello
