! f_ring: `use mpi`. A token goes around the ring (INTEGER arrays) with status checks
! (MPI_SOURCE, MPI_TAG, MPI_Get_count); DOUBLE PRECISION payloads (eager and large) go around
! and are checked element by element; MPI_Sendrecv, MPI_Probe with wildcards, MPI_Iprobe.
program f_ring
  use mpi
  implicit none
  integer, parameter :: rounds = 10, nsmall = 100, nbig = 300000
  integer :: ierr, rank, nprocs, next, prev, round, count, req
  integer :: tok(4), out(4), status(MPI_STATUS_SIZE), sr(2)
  double precision, allocatable :: big(:), small(:)
  logical :: flag

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  prev = mod(rank + nprocs - 1, nprocs)

  do round = 1, rounds
    if (rank == 0) then
      out = (/ round, 0, 0, 12345 /)
      call MPI_Isend(out, 4, MPI_INTEGER, next, round, MPI_COMM_WORLD, req, ierr)
      call MPI_Recv(tok, 4, MPI_INTEGER, prev, round, MPI_COMM_WORLD, status, ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
      call check(req == MPI_REQUEST_NULL, 'request freed by MPI_Wait')
      call check(tok(1) == round .and. tok(2) == nprocs * (nprocs - 1) / 2 .and. &
                 tok(3) == nprocs - 1 .and. tok(4) == 12345, 'token at rank 0')
    else
      call MPI_Recv(tok, 4, MPI_INTEGER, prev, round, MPI_COMM_WORLD, status, ierr)
      call check(tok(1) == round .and. tok(3) == rank - 1 .and. tok(4) == 12345, 'token')
      tok(2) = tok(2) + rank
      tok(3) = tok(3) + 1
      call MPI_Send(tok, 4, MPI_INTEGER, next, round, MPI_COMM_WORLD, ierr)
    end if
    call check(ierr == MPI_SUCCESS, 'ierror')
    call check(status(MPI_SOURCE) == prev, 'status(MPI_SOURCE)')
    call check(status(MPI_TAG) == round, 'status(MPI_TAG)')
    call MPI_Get_count(status, MPI_INTEGER, count, ierr)
    call check(count == 4, 'MPI_Get_count')
  end do

  ! DOUBLE PRECISION payloads: each hop checks what the previous rank stamped.
  allocate(small(nsmall), big(nbig))
  call pass(small, nsmall, 1000)
  call pass(big, nbig, 2000)

  ! Sendrecv with both neighbours.
  call MPI_Sendrecv((/ rank, 7 * rank /), 2, MPI_INTEGER, next, 5, sr, 2, MPI_INTEGER, prev, &
                    5, MPI_COMM_WORLD, status, ierr)
  call check(sr(1) == prev .and. sr(2) == 7 * prev, 'MPI_Sendrecv data')
  call check(status(MPI_SOURCE) == prev .and. status(MPI_TAG) == 5, 'MPI_Sendrecv status')

  ! Probe with wildcards, then receive what it saw.
  call MPI_Isend(small, 17, MPI_DOUBLE_PRECISION, next, 77, MPI_COMM_WORLD, req, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, flag, status, ierr)
  end do
  call MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
  call check(status(MPI_SOURCE) == prev .and. status(MPI_TAG) == 77, 'MPI_Probe status')
  call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count, ierr)
  call check(count == 17, 'MPI_Get_count after MPI_Probe')
  call MPI_Recv(big, count, MPI_DOUBLE_PRECISION, status(MPI_SOURCE), status(MPI_TAG), &
                MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Wait(req, status, ierr)

  call ok('f_ring')
  call MPI_Finalize(ierr)

contains

  subroutine pass(buf, n, tag)
    integer, intent(in) :: n, tag
    double precision, intent(inout) :: buf(n)
    double precision, allocatable :: first(:)
    integer :: i, r, count, req
    integer :: st(MPI_STATUS_SIZE)
    if (rank == 0) then
      allocate(first(n))
      do i = 1, n
        first(i) = dble(i) * 0.5d0
      end do
      buf = -1d0
      call MPI_Isend(first, n, MPI_DOUBLE_PRECISION, next, tag, MPI_COMM_WORLD, req, ierr)
      call MPI_Recv(buf, n, MPI_DOUBLE_PRECISION, prev, tag, MPI_COMM_WORLD, st, ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
      r = nprocs - 1
    else
      call MPI_Recv(buf, n, MPI_DOUBLE_PRECISION, prev, tag, MPI_COMM_WORLD, st, ierr)
      r = rank - 1
    end if
    call MPI_Get_count(st, MPI_DOUBLE_PRECISION, count, ierr)
    call check(count == n .and. st(MPI_SOURCE) == prev .and. st(MPI_TAG) == tag, 'pass status')
    do i = 1, n
      if (buf(i) /= dble(i) * 0.5d0 + dble(r)) then
        write(0, *) 'f_ring: rank', rank, 'element', i, 'is', buf(i)
        call check(.false., 'DOUBLE PRECISION payload')
      end if
    end do
    if (rank /= 0) then
      buf = buf + 1d0
      call MPI_Send(buf, n, MPI_DOUBLE_PRECISION, next, tag, MPI_COMM_WORLD, ierr)
    end if
  end subroutine pass

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_ring: rank', rank, ': check failed: ', what
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
end program f_ring
