! f_intercomm: mpif.h in FREE form. MPI_Intercomm_create between the even and the odd
! ranks of MPI_COMM_WORLD (leaders local rank 0, peer MPI_COMM_WORLD), the queries
! (MPI_Comm_test_inter, MPI_Comm_remote_size), collectives on it (MPI_Allreduce: each
! group gets the other's sum; MPI_Bcast with MPI_ROOT / MPI_PROC_NULL), point-to-point
! naming remote ranks, and MPI_Intercomm_merge (evens first). One process: nothing to
! pair, only the ok line.
program f_intercomm
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nprocs, color, local, inter, merged, lsize, rsize, lrank
  integer :: want, i, s, mrank, msize, root, buf(4), st(MPI_STATUS_SIZE)
  logical :: flag

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs > 1) then
    color = mod(rank, 2)
    call MPI_Comm_split(MPI_COMM_WORLD, color, rank, local, ierr)
    call MPI_Comm_rank(local, lrank, ierr)
    ! The other group's leader is world rank 1 (odds) or 0 (evens).
    call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 12, inter, ierr)
    call check(ierr == MPI_SUCCESS .and. inter /= MPI_COMM_NULL, 'MPI_Intercomm_create')
    call MPI_Comm_test_inter(inter, flag, ierr)
    call check(flag, 'MPI_Comm_test_inter')
    call MPI_Comm_size(inter, lsize, ierr)
    call MPI_Comm_remote_size(inter, rsize, ierr)
    call check(lsize == (nprocs + 1 - color) / 2, 'local size')
    call check(rsize == nprocs - lsize, 'remote size')

    ! Allreduce: the sum of the remote group's world ranks.
    call MPI_Allreduce(rank, s, 1, MPI_INTEGER, MPI_SUM, inter, ierr)
    want = 0
    do i = 1 - color, nprocs - 1, 2
      want = want + i
    end do
    call check(s == want, 'MPI_Allreduce on the intercommunicator')

    ! Bcast from the evens' local rank 0 to the odds.
    buf = -1
    if (color == 0) then
      root = MPI_PROC_NULL
      if (lrank == 0) then
        root = MPI_ROOT
        buf = (/ 11, 22, 33, 44 /)
      end if
    else
      root = 0
    end if
    call MPI_Bcast(buf, 4, MPI_INTEGER, root, inter, ierr)
    if (color == 1 .or. lrank == 0) then
      call check(all(buf == (/ 11, 22, 33, 44 /)), 'MPI_Bcast data')
    else
      call check(all(buf == -1), 'MPI_Bcast left a PROC_NULL buffer alone')
    end if

    ! Point-to-point: local rank i of each group with remote rank i.
    if (lrank < rsize) then
      call MPI_Sendrecv(rank, 1, MPI_INTEGER, lrank, 5, s, 1, MPI_INTEGER, lrank, 5, &
                        inter, st, ierr)
      call check(s == 2 * lrank + 1 - color .and. st(MPI_SOURCE) == lrank, 'sendrecv')
    end if

    call MPI_Intercomm_merge(inter, color == 1, merged, ierr)
    call MPI_Comm_size(merged, msize, ierr)
    call MPI_Comm_rank(merged, mrank, ierr)
    call check(msize == nprocs, 'merged size')
    if (color == 0) then
      call check(mrank == lrank, 'merged rank (evens first)')
    else
      call check(mrank == rsize + lrank, 'merged rank (odds second)')
    end if
    call MPI_Comm_free(merged, ierr)
    call MPI_Comm_free(inter, ierr)
    call check(inter == MPI_COMM_NULL, 'MPI_Comm_free sets MPI_COMM_NULL')
    call MPI_Comm_free(local, ierr)
  end if
  call ok('f_intercomm')
  call MPI_Finalize(ierr)

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_intercomm: rank', rank, ': check failed: ', what
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
end program f_intercomm
