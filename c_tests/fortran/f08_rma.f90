! f08_rma: `use mpi_f08`. One-sided communication on a window over an INTEGER array
! (MPI_Win_create, INTEGER(KIND=MPI_ADDRESS_KIND) displacements): MPI_Put and MPI_Get to the
! right neighbour between fences, MPI_Accumulate (MPI_SUM) from every rank to rank 0, then
! passive target (MPI_Win_lock / MPI_Put / MPI_Win_unlock, MPI_Win_lock_all /
! MPI_Fetch_and_op / MPI_Win_flush / MPI_Win_unlock_all); MPI_Win_allocate with a TYPE(C_PTR)
! base used through c_f_pointer, MPI_Compare_and_swap; MPI_Alloc_mem / MPI_Free_mem; every
! element checked.
program f08_rma
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  character(len=*), parameter :: prog = 'f08_rma'
  integer, parameter :: n = 100
  integer :: rank, nprocs, right, left, i, one, old, expect
  ! VOLATILE: other ranks write the window behind the compiler's back (MPI-3.1 17.1.19).
  integer, volatile, target :: wbuf(n)
  integer :: src(n), got(n)
  integer(kind=MPI_ADDRESS_KIND) :: wsize
  type(MPI_Win) :: win, win2
  type(c_ptr) :: base
  integer, pointer, volatile :: mem(:)
  integer, pointer :: am(:)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  right = mod(rank + 1, nprocs)
  left = mod(rank - 1 + nprocs, nprocs)
  wbuf = -1
  wsize = 4 * n
  call MPI_Win_create(wbuf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win)

  ! Fence epoch: put my values into the right neighbour's first half.
  src = (/ (rank * 1000 + i, i = 1, n) /)
  call MPI_Win_fence(0, win)
  call MPI_Put(src, n / 2, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, n / 2, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  do i = 1, n / 2
    if (wbuf(i) /= left * 1000 + i) call fail('MPI_Put', i)
  end do
  ! Get the right neighbour's first half (which its left neighbour, me, wrote).
  got = 0
  call MPI_Get(got, n / 2, MPI_INTEGER, right, 0_MPI_ADDRESS_KIND, n / 2, MPI_INTEGER, win)
  call MPI_Win_fence(0, win)
  do i = 1, n / 2
    if (got(i) /= rank * 1000 + i) call fail('MPI_Get', i)
  end do
  ! Everyone adds rank + i into rank 0's second half.
  wbuf(n / 2 + 1:) = 0
  call MPI_Win_fence(0, win)
  src = (/ (rank + i, i = 1, n) /)
  call MPI_Accumulate(src, n / 2, MPI_INTEGER, 0, int(n / 2, MPI_ADDRESS_KIND), n / 2, &
      MPI_INTEGER, MPI_SUM, win)
  call MPI_Win_fence(0, win)
  if (rank == 0) then
    do i = 1, n / 2
      if (wbuf(n / 2 + i) /= nprocs * i + nprocs * (nprocs - 1) / 2) &
          call fail('MPI_Accumulate', i)
    end do
  end if

  ! Passive target: lock the right neighbour, write element n.
  call MPI_Barrier(MPI_COMM_WORLD)
  one = rank + 7
  call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win)
  call MPI_Put(one, 1, MPI_INTEGER, right, int(n - 1, MPI_ADDRESS_KIND), 1, MPI_INTEGER, win)
  call MPI_Win_unlock(right, win)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win)
  call check(wbuf(n) == left + 7, 'lock/put/unlock')
  call MPI_Win_unlock(rank, win)
  call MPI_Win_free(win)
  call check(win == MPI_WIN_NULL, 'MPI_Win_free')

  ! Allocated window: a counter on rank 0 everyone increments; compare-and-swap.
  call MPI_Win_allocate(8_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win2)
  call c_f_pointer(base, mem, (/ 2 /))
  mem = 0
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Win_lock_all(0, win2)
  one = 1
  call MPI_Fetch_and_op(one, old, MPI_INTEGER, 0, 0_MPI_ADDRESS_KIND, MPI_SUM, win2)
  call MPI_Win_flush(0, win2)
  call check(old >= 0 .and. old < nprocs, 'MPI_Fetch_and_op old value')
  call MPI_Win_unlock_all(win2)
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) then
    call MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win2)
    call check(mem(1) == nprocs, 'MPI_Fetch_and_op total')
    call MPI_Win_unlock(0, win2)
  end if
  call MPI_Barrier(MPI_COMM_WORLD)
  ! Rank r swaps r+1 in if the value is r: in rank order, each succeeds once.
  do i = 0, nprocs - 1
    if (rank == i) then
      call MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win2)
      expect = i
      one = i + 1
      call MPI_Compare_and_swap(one, expect, old, MPI_INTEGER, 0, 1_MPI_ADDRESS_KIND, win2)
      call MPI_Win_unlock(0, win2)
      call check(old == i, 'MPI_Compare_and_swap')
    end if
    call MPI_Barrier(MPI_COMM_WORLD)
  end do
  if (rank == 0) call check(mem(2) == nprocs, 'MPI_Compare_and_swap result')
  call MPI_Win_free(win2)

  ! MPI_Alloc_mem's TYPE(C_PTR), the memory used and given back through the Fortran pointer.
  call MPI_Alloc_mem(40_MPI_ADDRESS_KIND, MPI_INFO_NULL, base)
  call c_f_pointer(base, am, (/ 10 /))
  am = (/ (i * rank, i = 1, 10) /)
  call check(sum(am) == 55 * rank, 'MPI_Alloc_mem memory')
  call MPI_Free_mem(am)

  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) write(*, '(a)') 'ok f08_rma'
  call MPI_Finalize()

contains

  include 'f08_check.inc'
end program f08_rma
