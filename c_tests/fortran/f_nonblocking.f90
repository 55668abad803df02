! f_nonblocking: mpif.h in FREE form. Every rank exchanges with every rank (itself included)
! through MPI_Isend/MPI_Irecv, completed by MPI_Waitall with MPI_STATUSES_IGNORE, by
! MPI_Waitall with a status array (MPI_SOURCE/MPI_TAG per request), by MPI_Waitany and
! MPI_Waitsome (1-based indices, each request once), by MPI_Test/MPI_Testall loops (LOGICAL
! flags), and MPI_Testsome. Data are checked element by element.
program f_nonblocking
  implicit none
  include 'mpif.h'
  integer, parameter :: m = 64
  integer :: ierr, rank, nprocs, p, i, k, idx, outcount, round
  integer, allocatable :: reqs(:), sbuf(:,:), rbuf(:,:), stats(:,:), idxs(:)
  logical, allocatable :: seen(:)
  integer :: st(MPI_STATUS_SIZE)
  logical :: flag

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  allocate(reqs(2 * nprocs), sbuf(m, nprocs), rbuf(m, nprocs), &
           stats(MPI_STATUS_SIZE, 2 * nprocs), idxs(2 * nprocs), seen(2 * nprocs))

  do round = 1, 6
    call post(round)
    select case (round)
    case (1)
      call MPI_Waitall(2 * nprocs, reqs, MPI_STATUSES_IGNORE, ierr)
      call check(ierr == MPI_SUCCESS, 'MPI_Waitall (MPI_STATUSES_IGNORE)')
    case (2)
      stats = -99
      call MPI_Waitall(2 * nprocs, reqs, stats, ierr)
      do p = 0, nprocs - 1
        call check(stats(MPI_SOURCE, p + 1) == p, 'Waitall status MPI_SOURCE')
        call check(stats(MPI_TAG, p + 1) == 100 * round + rank, 'Waitall status MPI_TAG')
      end do
    case (3)
      seen = .false.
      do k = 1, 2 * nprocs
        call MPI_Waitany(2 * nprocs, reqs, idx, st, ierr)
        call check(idx >= 1 .and. idx <= 2 * nprocs, 'MPI_Waitany index is 1-based')
        call check(.not. seen(idx), 'MPI_Waitany index twice')
        seen(idx) = .true.
        call check(reqs(idx) == MPI_REQUEST_NULL, 'MPI_Waitany freed the request')
        if (idx <= nprocs) call check(st(MPI_SOURCE) == idx - 1, 'MPI_Waitany status')
      end do
      call MPI_Waitany(2 * nprocs, reqs, idx, st, ierr)
      ! MPICH 4.0.2's Fortran binding adds 1 to MPI_UNDEFINED too; MPI says MPI_UNDEFINED.
      call check(idx == MPI_UNDEFINED .or. (on_mpich() .and. idx == MPI_UNDEFINED + 1), &
                 'MPI_Waitany with no active request')
    case (4)
      seen = .false.
      k = 0
      do while (k < 2 * nprocs)
        call MPI_Waitsome(2 * nprocs, reqs, outcount, idxs, stats, ierr)
        call check(outcount >= 1, 'MPI_Waitsome outcount')
        do i = 1, outcount
          idx = idxs(i)
          call check(idx >= 1 .and. idx <= 2 * nprocs, 'MPI_Waitsome index is 1-based')
          call check(.not. seen(idx), 'MPI_Waitsome index twice')
          seen(idx) = .true.
          if (idx <= nprocs) call check(stats(MPI_SOURCE, i) == idx - 1, 'Waitsome status')
        end do
        k = k + outcount
      end do
    case (5)
      do k = 1, 2 * nprocs
        flag = .false.
        do while (.not. flag)
          call MPI_Test(reqs(k), flag, MPI_STATUS_IGNORE, ierr)
        end do
        call check(reqs(k) == MPI_REQUEST_NULL, 'MPI_Test freed the request')
      end do
      call MPI_Testall(2 * nprocs, reqs, flag, MPI_STATUSES_IGNORE, ierr)
      call check(flag, 'MPI_Testall on inactive requests')
    case (6)
      seen = .false.
      k = 0
      do while (k < 2 * nprocs)
        call MPI_Testsome(2 * nprocs, reqs, outcount, idxs, MPI_STATUSES_IGNORE, ierr)
        do i = 1, outcount
          call check(idxs(i) >= 1 .and. idxs(i) <= 2 * nprocs, 'MPI_Testsome index')
          call check(.not. seen(idxs(i)), 'MPI_Testsome index twice')
          seen(idxs(i)) = .true.
        end do
        k = k + max(outcount, 0)
      end do
    end select
    call verify(round)
  end do

  ! A receive with MPI_STATUS_IGNORE, and MPI_Request_get_status.
  call MPI_Irecv(rbuf, m, MPI_INTEGER, rank, 9, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Send(sbuf, m, MPI_INTEGER, rank, 9, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Request_get_status(reqs(1), flag, st, ierr)
  end do
  call check(st(MPI_SOURCE) == rank .and. st(MPI_TAG) == 9, 'MPI_Request_get_status')
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call MPI_Isend(sbuf, m, MPI_INTEGER, rank, 10, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Recv(rbuf, m, MPI_INTEGER, rank, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call check(all(rbuf(:, 1) == sbuf(:, 1)), 'self message')

  call ok('f_nonblocking')
  call MPI_Finalize(ierr)

contains

  subroutine post(round)
    integer, intent(in) :: round
    integer :: p, i
    rbuf = -1
    do p = 0, nprocs - 1
      call MPI_Irecv(rbuf(1, p + 1), m, MPI_INTEGER, p, 100 * round + rank, MPI_COMM_WORLD, &
                     reqs(p + 1), ierr)
    end do
    do p = 0, nprocs - 1
      do i = 1, m
        sbuf(i, p + 1) = 1000000 * round + 10000 * rank + 100 * p + i
      end do
      call MPI_Isend(sbuf(1, p + 1), m, MPI_INTEGER, p, 100 * round + p, MPI_COMM_WORLD, &
                     reqs(nprocs + p + 1), ierr)
    end do
  end subroutine post

  subroutine verify(round)
    integer, intent(in) :: round
    integer :: p, i
    do p = 0, nprocs - 1
      call check(reqs(p + 1) == MPI_REQUEST_NULL, 'requests completed')
      do i = 1, m
        if (rbuf(i, p + 1) /= 1000000 * round + 10000 * p + 100 * rank + i) then
          write(0, *) 'f_nonblocking: round', round, 'from', p, 'element', i, 'is', &
                      rbuf(i, p + 1)
          call check(.false., 'received data')
        end if
      end do
    end do
  end subroutine verify

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_nonblocking: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check

  logical function on_mpich()
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: lib
    integer :: len
    call MPI_Get_library_version(lib, len, ierr)
    on_mpich = lib(1:5) == 'MPICH'
  end function on_mpich

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
end program f_nonblocking
