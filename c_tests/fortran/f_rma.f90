! f_rma: `use mpi` one-sided calls from Fortran. A window over an INTEGER array
! (MPI_Win_create, displacement unit 4): fence epoch with MPI_Put / MPI_Get / MPI_Accumulate
! around the ring, then a lock_all epoch with MPI_Fetch_and_op and MPI_Compare_and_swap on
! rank 0's counter; every value checked.
! requires: mpi_win_create_ mpi_put_ mpi_get_ mpi_accumulate_ mpi_fetch_and_op_ mpi_compare_and_swap_
program f_rma
  use mpi
  implicit none
  integer, parameter :: n = 16
  integer :: ierr, rank, nprocs, next, prev, win, i, sizeint
  integer :: mem(n), src(n), got(n), one, old, cmp, newv, res
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  prev = mod(rank + nprocs - 1, nprocs)
  call MPI_Type_size(MPI_INTEGER, sizeint, ierr)
  mem = 0
  wsize = n * sizeint
  call MPI_Win_create(mem, wsize, sizeint, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Win_create')

  do i = 1, n
    src(i) = rank * 100 + i
  end do
  call MPI_Win_fence(0, win, ierr)
  disp = 0
  call MPI_Put(src, 8, MPI_INTEGER, next, disp, 8, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  do i = 1, 8
    call check(mem(i) == prev * 100 + i, 'put from the left neighbour')
  end do
  disp = 0
  call MPI_Get(got, 8, MPI_INTEGER, next, disp, 8, MPI_INTEGER, win, ierr)
  disp = 8
  one = 1
  call MPI_Accumulate(one, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  do i = 1, 8
    call check(got(i) == rank * 100 + i, 'get of what we put')
  end do
  if (rank == 0) call check(mem(9) == nprocs, 'accumulated count')

  call MPI_Win_lock_all(0, win, ierr)
  disp = 9
  call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, disp, MPI_SUM, win, ierr)
  call MPI_Win_flush(0, win, ierr)
  call check(old >= 0 .and. old < nprocs, 'fetched a count in range')
  disp = 10
  cmp = 0
  newv = rank + 1
  call MPI_Compare_and_swap(newv, cmp, res, MPI_INTEGER, 0, disp, win, ierr)
  call MPI_Win_unlock_all(win, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call check(mem(10) == nprocs, 'every fetch-and-op counted')
    call check(mem(11) >= 1 .and. mem(11) <= nprocs, 'one compare-and-swap won')
  end if
  call MPI_Win_free(win, ierr)
  call check(win == MPI_WIN_NULL, 'MPI_Win_free sets MPI_WIN_NULL')
  call ok('f_rma')
  call MPI_Finalize(ierr)

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_rma: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check

  subroutine ok(name)
    character(len=*), intent(in) :: name
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) write(*, '(a)') 'ok ' // name
  end subroutine ok
end program f_rma
