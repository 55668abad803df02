! f_aint90: MPICH's f90/rma/aintf90 case. `use mpi` WITHOUT implicit none and without
! declaring MPI_Aint_add / MPI_Aint_diff (MPICH's f77tof90 drops both): the mpi module
! must give them their INTEGER(KIND=MPI_ADDRESS_KIND) type, or they are taken for default
! INTEGER functions and the address loses its high bytes. Every rank attaches a
! 1024-INTEGER array to a dynamic window, the ranks exchange the address of its element 512
! (MPI_Allgather in place), and each rank Gets the next rank's element 1023
! (MPI_Aint_add: 511 on) and element 0 (MPI_Aint_diff: 512 back); both values checked.
! requires: mpi_aint_add_ mpi_aint_diff_ mpi_win_create_dynamic_ mpi_win_attach_ mpi_win_detach_ mpi_get_
program f_aint90
  use mpi
  integer :: ierr, rank, nprocs, next, win, intsize, first, last
  integer :: array(0:1023)
  integer(kind=MPI_ADDRESS_KIND) :: winsize, disp, offset
  integer(kind=MPI_ADDRESS_KIND), allocatable :: bases(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  allocate(bases(0:nprocs-1))
  array = -1
  array(0) = 1000 + rank
  array(1023) = 2000 + rank
  call MPI_Get_address(array(512), bases(rank), ierr)
  call MPI_Type_size(MPI_INTEGER, intsize, ierr)
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, bases, 1, MPI_AINT, &
                     MPI_COMM_WORLD, ierr)
  call MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN, ierr)
  winsize = intsize * 1024
  call MPI_Win_attach(win, array, winsize, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Win_attach')

  first = -1
  last = -1
  call MPI_Win_fence(MPI_MODE_NOPRECEDE, win, ierr)
  disp = intsize * 511
  offset = MPI_Aint_add(bases(next), disp)
  call check(offset - bases(next) == disp, 'MPI_Aint_add keeps the address')
  call MPI_Get(last, 1, MPI_INTEGER, next, offset, 1, MPI_INTEGER, win, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Get at MPI_Aint_add')
  disp = intsize * 512
  offset = MPI_Aint_diff(bases(next), disp)
  call check(bases(next) - offset == disp, 'MPI_Aint_diff keeps the address')
  call MPI_Get(first, 1, MPI_INTEGER, next, offset, 1, MPI_INTEGER, win, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Get at MPI_Aint_diff')
  call MPI_Win_fence(MPI_MODE_NOSUCCEED, win, ierr)
  call check(last == 2000 + next, 'element 1023 by MPI_Aint_add')
  call check(first == 1000 + next, 'element 0 by MPI_Aint_diff')

  call MPI_Win_detach(win, array, ierr)
  call MPI_Win_free(win, ierr)
  deallocate(bases)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a)') 'ok f_aint90'
  call MPI_Finalize(ierr)

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_aint90: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check
end program f_aint90
