! f_comm: mpif.h in FREE form. MPI_Comm_split (by parity, keys reversing the order, and
! MPI_UNDEFINED giving MPI_COMM_NULL), MPI_Comm_dup, MPI_Comm_compare, traffic and
! collectives on the new communicators, MPI_Comm_free setting MPI_COMM_NULL.
program f_comm
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, half, hrank, hsize, dup, drank, dsize, res, none
  integer :: want_size, want_rank, i, s, color
  integer :: st(MPI_STATUS_SIZE), buf(3)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ! Split by parity; key -rank reverses the order within each half.
  color = mod(rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, -rank, half, ierr)
  call check(ierr == MPI_SUCCESS .and. half /= MPI_COMM_NULL, 'MPI_Comm_split')
  call MPI_Comm_size(half, hsize, ierr)
  call MPI_Comm_rank(half, hrank, ierr)
  want_size = (nprocs + 1 - color) / 2
  ! Ranks of this colour, largest first.
  want_rank = (((nprocs - 1 - color) / 2) * 2 + color - rank) / 2
  call check(hsize == want_size, 'split size')
  call check(hrank == want_rank, 'split rank (reversed by the key)')

  call MPI_Comm_dup(half, dup, ierr)
  call check(dup /= half .and. dup /= MPI_COMM_NULL, 'MPI_Comm_dup handle')
  call MPI_Comm_size(dup, dsize, ierr)
  call MPI_Comm_rank(dup, drank, ierr)
  call check(dsize == hsize .and. drank == hrank, 'dup size and rank')
  call MPI_Comm_compare(dup, half, res, ierr)
  call check(res == MPI_CONGRUENT, 'MPI_Comm_compare(dup, half) is MPI_CONGRUENT')
  call MPI_Comm_compare(half, half, res, ierr)
  call check(res == MPI_IDENT, 'MPI_Comm_compare(half, half) is MPI_IDENT')
  if (nprocs > 1) then
    call MPI_Comm_compare(half, MPI_COMM_WORLD, res, ierr)
    call check(res == MPI_UNEQUAL, 'MPI_Comm_compare(half, world) is MPI_UNEQUAL')
  end if

  ! Traffic on both: a ring in `dup` and one in `half` with the same tag, posted crosswise.
  call MPI_Sendrecv((/ 1, hrank, rank /), 3, MPI_INTEGER, mod(hrank + 1, hsize), 0, buf, 3, &
                    MPI_INTEGER, mod(hrank + hsize - 1, hsize), 0, dup, st, ierr)
  call check(buf(1) == 1 .and. buf(2) == mod(hrank + hsize - 1, hsize), 'ring in dup')
  call check(mod(buf(3), 2) == color, 'ring in dup stays within the colour')
  call check(st(MPI_SOURCE) == mod(hrank + hsize - 1, hsize), 'dup status source')
  call MPI_Sendrecv((/ 2, hrank, rank /), 3, MPI_INTEGER, mod(hrank + 1, hsize), 0, buf, 3, &
                    MPI_INTEGER, mod(hrank + hsize - 1, hsize), 0, half, st, ierr)
  call check(buf(1) == 2 .and. buf(2) == mod(hrank + hsize - 1, hsize), 'ring in half')

  ! A collective on the dup: sum of world ranks of this colour.
  call MPI_Allreduce(rank, s, 1, MPI_INTEGER, MPI_SUM, dup, ierr)
  call check(s == sum((/ (i, i = color, nprocs - 1, 2) /)), 'MPI_Allreduce on dup')
  call MPI_Bcast(buf, 3, MPI_INTEGER, hsize - 1, half, ierr)

  ! MPI_UNDEFINED colour: MPI_COMM_NULL for the odd ranks.
  if (color == 1) then
    call MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, none, ierr)
    call check(none == MPI_COMM_NULL, 'MPI_UNDEFINED colour gives MPI_COMM_NULL')
  else
    call MPI_Comm_split(MPI_COMM_WORLD, 0, rank, none, ierr)
    call MPI_Comm_size(none, s, ierr)
    call check(s == (nprocs + 1) / 2, 'even ranks together')
    call MPI_Comm_free(none, ierr)
  end if

  call MPI_Comm_free(dup, ierr)
  call check(ierr == MPI_SUCCESS .and. dup == MPI_COMM_NULL, 'MPI_Comm_free(dup)')
  call MPI_Comm_free(half, ierr)
  call check(half == MPI_COMM_NULL, 'MPI_Comm_free(half)')

  call ok('f_comm')
  call MPI_Finalize(ierr)

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_comm: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check

  subroutine ok(name)
    character(len=*), intent(in) :: name
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: lib
    integer :: len, n
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      call MPI_Get_library_version(lib, len, ierr)
      n = index(lib(1:len), char(10))
      if (n > 0) len = n - 1
      write(*, '(a)') 'ok ' // name // ' [' // lib(1:len) // ']'
    end if
  end subroutine ok
end program f_comm
