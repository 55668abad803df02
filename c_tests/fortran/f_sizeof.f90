! f_sizeof: MPI_SIZEOF from `use mpi`: generic over the argument's type, kind and rank (scalars
! and arrays of the types MPICH's module has), the size in bytes of one element.
program f_sizeof
  use mpi
  implicit none
  integer :: ierr, rank, sz
  integer(kind=1) :: i1
  integer(kind=2) :: i2(3)
  integer :: i4
  integer(kind=8) :: i8(2)
  real :: r4
  double precision :: r8(5)
  complex :: c8
  logical :: l

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Sizeof(i1, sz, ierr)
  call check(ierr == MPI_SUCCESS .and. sz == 1, 'integer(1)')
  call MPI_Sizeof(i2, sz, ierr)
  call check(sz == 2, 'integer(2) array')
  call MPI_Sizeof(i4, sz, ierr)
  call check(sz == 4, 'integer')
  call MPI_Sizeof(i8, sz, ierr)
  call check(sz == 8, 'integer(8) array')
  call MPI_Sizeof(r4, sz, ierr)
  call check(sz == 4, 'real')
  call MPI_Sizeof(r8, sz, ierr)
  call check(sz == 8, 'double precision array')
  call MPI_Sizeof(c8, sz, ierr)
  call check(sz == 8, 'complex')
  call MPI_Sizeof(l, sz, ierr)
  call check(sz == storage_size(l) / 8, 'logical')

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a)') 'ok f_sizeof'
  call MPI_Finalize(ierr)

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_sizeof: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check
end program f_sizeof
