! f08_pt2pt: `use mpi_f08`. Blocking MPI_Send/MPI_Recv round a ring (INTEGER and DOUBLE
! PRECISION arrays, a scalar, a 2-D array) with TYPE(MPI_Status) checked (source, tag,
! MPI_Get_count), MPI_STATUS_IGNORE; MPI_Isend/MPI_Irecv with MPI_Wait, MPI_Waitall with
! statuses and with MPI_STATUSES_IGNORE (keyword arguments), MPI_Waitany, MPI_Test;
! MPI_Sendrecv, MPI_Probe, MPI_ANY_SOURCE; persistent requests (MPI_Startall on an array
! section); MPI_Mprobe / MPI_Mrecv; MPI_Status_f082f / MPI_Status_f2f08; MPI_Bsend with MPI_Buffer_detach's
! TYPE(C_PTR); MPI_Wtime; ierror omitted throughout; handle comparisons (==, /=, .EQ., .NE.);
! every element checked.
program f08_pt2pt
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_loc, c_intptr_t
  implicit none
  character(len=*), parameter :: prog = 'f08_pt2pt'
  integer, parameter :: n = 5000
  integer :: rank, nprocs, right, left, i, cnt, idx, ierr
  ! ASYNCHRONOUS: nonblocking and persistent calls use them after they return (MPI-3.1 17.1.16).
  integer, allocatable, asynchronous :: ibuf(:), iin(:)
  double precision, asynchronous :: dbuf(n), din(n), dscal, dscal_in
  integer :: mat(30, 20), mat_in(30, 20)
  type(MPI_Status) :: st
  type(MPI_Status) :: sts(4)
  integer :: fst(MPI_STATUS_SIZE)
  type(MPI_Request) :: reqs(4), req
  type(MPI_Message) :: msg
  logical :: flag
  integer, target :: bsbuf(1000)
  type(c_ptr) :: detached
  double precision :: t0

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Comm_size ierror')
  right = mod(rank + 1, nprocs)
  left = mod(rank - 1 + nprocs, nprocs)
  allocate(ibuf(n), iin(n))
  call check(MPI_COMM_WORLD == MPI_COMM_WORLD, 'handle ==')
  call check(MPI_COMM_WORLD /= MPI_COMM_SELF, 'handle /=')
  call check(MPI_COMM_WORLD .eq. MPI_COMM_WORLD .and. MPI_INT .ne. MPI_INTEGER, 'handle .EQ.')
  ! MPICH's value in its ABI (a status of 5 INTEGERs), the standard ABI's otherwise.
  if (MPI_STATUS_SIZE == 5) then
    call check(MPI_REQUEST_NULL%MPI_VAL == 738197504, 'MPI_REQUEST_NULL value')
  else
    call check(MPI_REQUEST_NULL%MPI_VAL == 384, 'MPI_REQUEST_NULL value (standard ABI)')
  end if

  ! Blocking, round the ring: even ranks send first (works for 1 rank too, with Sendrecv).
  ibuf = (/ (rank * 100000 + i, i = 1, n) /)
  dbuf = (/ (dble(i) * 0.5d0 + rank, i = 1, n) /)
  do i = 1, 30
    mat(i, :) = (/ (rank * 1000 + i * 20 + cnt, cnt = 1, 20) /)
  end do
  call MPI_Sendrecv(ibuf, n, MPI_INTEGER, right, 7, iin, n, MPI_INTEGER, left, 7, &
      MPI_COMM_WORLD, st)
  call check(st%MPI_SOURCE == left .and. st%MPI_TAG == 7, 'Sendrecv status')
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  call check(cnt == n, 'Sendrecv count')
  ! The INTEGER form of the status and back.
  call MPI_Status_f082f(st, fst)
  call check(fst(MPI_SOURCE) == left .and. fst(MPI_TAG) == 7, 'MPI_Status_f082f')
  call MPI_Status_f2f08(fst, sts(1))
  call MPI_Get_count(sts(1), MPI_INTEGER, cnt)
  call check(cnt == n .and. sts(1)%MPI_SOURCE == left, 'MPI_Status_f2f08')
  do i = 1, n
    if (iin(i) /= left * 100000 + i) call fail('Sendrecv INTEGER', i)
  end do
  if (nprocs > 1) then
    if (mod(rank, 2) == 0) then
      call MPI_Send(dbuf, n, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD)
      call MPI_Send(dbuf(n), 1, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD)
      call MPI_Send(mat, size(mat), MPI_INTEGER, right, 3, MPI_COMM_WORLD)
      call MPI_Recv(din, n, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, st)
      call MPI_Recv(dscal_in, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &
          MPI_STATUS_IGNORE)
      call MPI_Recv(mat_in, size(mat_in), MPI_INTEGER, left, MPI_ANY_TAG, MPI_COMM_WORLD, st)
    else
      call MPI_Recv(din, n, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, st)
      call MPI_Recv(dscal_in, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &
          MPI_STATUS_IGNORE)
      call MPI_Recv(mat_in, size(mat_in), MPI_INTEGER, left, MPI_ANY_TAG, MPI_COMM_WORLD, st)
      call MPI_Send(dbuf, n, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD)
      call MPI_Send(dbuf(n), 1, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD)
      call MPI_Send(mat, size(mat), MPI_INTEGER, right, 3, MPI_COMM_WORLD)
    end if
    call check(st%MPI_TAG == 3 .and. st%MPI_SOURCE == left, 'Recv status (2-D)')
    do i = 1, n
      if (din(i) /= dble(i) * 0.5d0 + left) call fail('Recv DOUBLE PRECISION', i)
    end do
    call check(dscal_in == dble(n) * 0.5d0 + left, 'scalar received')
    do i = 1, 30
      do cnt = 1, 20
        if (mat_in(i, cnt) /= left * 1000 + i * 20 + cnt) call fail('Recv 2-D', i)
      end do
    end do
  end if

  ! Nonblocking: Irecv from left, Isend to right, Wait with a status.
  iin = -1
  call MPI_Irecv(iin, n, MPI_INTEGER, left, 11, MPI_COMM_WORLD, req)
  call check(req /= MPI_REQUEST_NULL, 'Irecv request')
  call MPI_Isend(ibuf, n, MPI_INTEGER, right, 11, MPI_COMM_WORLD, reqs(1))
  call MPI_Wait(req, st)
  call check(req == MPI_REQUEST_NULL, 'Wait frees the request')
  call check(st%MPI_SOURCE == left .and. st%MPI_TAG == 11 .and. st%MPI_ERROR == MPI_SUCCESS &
      .or. st%MPI_SOURCE == left .and. st%MPI_TAG == 11, 'Wait status')
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  do i = 1, n
    if (iin(i) /= left * 100000 + i) call fail('Irecv', i)
  end do

  ! Waitall with statuses: two receives (double, int) and two sends.
  din = 0d0
  iin = -1
  call MPI_Irecv(din, n, MPI_DOUBLE_PRECISION, left, 21, MPI_COMM_WORLD, reqs(1))
  call MPI_Irecv(iin, n / 2, MPI_INTEGER, left, 22, MPI_COMM_WORLD, reqs(2))
  call MPI_Isend(dbuf, n, MPI_DOUBLE_PRECISION, right, 21, MPI_COMM_WORLD, reqs(3))
  call MPI_Isend(ibuf, n / 2, MPI_INTEGER, right, 22, MPI_COMM_WORLD, reqs(4))
  call MPI_Waitall(4, reqs, sts)
  call check(sts(1)%MPI_TAG == 21 .and. sts(2)%MPI_TAG == 22, 'Waitall statuses tags')
  call check(sts(1)%MPI_SOURCE == left .and. sts(2)%MPI_SOURCE == left, 'Waitall sources')
  call MPI_Get_count(sts(2), MPI_INTEGER, cnt)
  call check(cnt == n / 2, 'Waitall count')
  do i = 1, n
    if (din(i) /= dble(i) * 0.5d0 + left) call fail('Waitall DOUBLE PRECISION', i)
  end do
  do i = 1, n / 2
    if (iin(i) /= left * 100000 + i) call fail('Waitall INTEGER', i)
  end do
  call check(iin(n / 2 + 1) == -1, 'Waitall: nothing past the count')

  ! Waitall with MPI_STATUSES_IGNORE, then Waitany and Test.
  iin = -1
  call MPI_Irecv(iin, n, MPI_INTEGER, left, 31, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(ibuf, n, MPI_INTEGER, right, 31, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(count=2, array_of_requests=reqs, array_of_statuses=MPI_STATUSES_IGNORE, &
      ierror=ierr)
  call check(ierr == MPI_SUCCESS, 'Waitall ierror')
  call check(reqs(1) == MPI_REQUEST_NULL .and. reqs(2) == MPI_REQUEST_NULL, 'Waitall nulls')
  call check(iin(n) == left * 100000 + n, 'Waitall STATUSES_IGNORE data')

  dscal = 3.25d0 + rank
  call MPI_Irecv(dscal_in, 1, MPI_DOUBLE_PRECISION, left, 41, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(dscal, 1, MPI_DOUBLE_PRECISION, right, 41, MPI_COMM_WORLD, reqs(2))
  ! (MPICH 4.0's mpi_f08 returns a 0-based index here: built with mpif90.mpich and run on
  ! MPICH this check fails.)
  call MPI_Waitany(2, reqs, idx, st)
  call check(idx == 1 .or. idx == 2, 'Waitany index is 1-based')
  call check(reqs(idx) == MPI_REQUEST_NULL, 'Waitany frees the request it names')
  flag = .false.
  do while (.not. flag)
    call MPI_Test(reqs(3 - idx), flag, MPI_STATUS_IGNORE)
  end do
  call check(dscal_in == 3.25d0 + left, 'Waitany/Test data')

  ! Probe, then receive what it saw.
  call MPI_Isend(ibuf, 17, MPI_INTEGER, right, 51, MPI_COMM_WORLD, req)
  call MPI_Probe(MPI_ANY_SOURCE, 51, MPI_COMM_WORLD, st)
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  call check(cnt == 17 .and. st%MPI_SOURCE == left, 'Probe')
  call MPI_Recv(iin, cnt, MPI_INTEGER, st%MPI_SOURCE, 51, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call check(iin(17) == left * 100000 + 17, 'Probe data')

  ! Persistent requests, started twice.
  call MPI_Recv_init(iin, 50, MPI_INTEGER, left, 71, MPI_COMM_WORLD, reqs(1))
  call MPI_Send_init(ibuf, 50, MPI_INTEGER, right, 71, MPI_COMM_WORLD, reqs(2))
  do i = 1, 2
    iin = -1
    ibuf(50) = rank * 10 + i
    call MPI_Startall(2, reqs(1:2))
    call MPI_Waitall(2, reqs(1:2), sts(1:2))
    call check(iin(50) == left * 10 + i .and. sts(1)%MPI_TAG == 71, 'persistent requests')
    call check(reqs(1) /= MPI_REQUEST_NULL, 'persistent request stays')
  end do
  call MPI_Request_free(reqs(1))
  call MPI_Request_free(reqs(2))
  ibuf(50) = rank * 100000 + 50

  ! Matched probe: TYPE(MPI_Message).
  call MPI_Isend(ibuf, 9, MPI_INTEGER, right, 81, MPI_COMM_WORLD, req)
  call MPI_Mprobe(left, 81, MPI_COMM_WORLD, msg, st)
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  call check(cnt == 9 .and. msg /= MPI_MESSAGE_NULL, 'MPI_Mprobe')
  iin = -1
  call MPI_Mrecv(iin, cnt, MPI_INTEGER, msg, MPI_STATUS_IGNORE)
  call check(msg == MPI_MESSAGE_NULL .and. iin(9) == left * 100000 + 9, 'MPI_Mrecv')
  call MPI_Wait(req, MPI_STATUS_IGNORE)

  ! Buffered mode: MPI_Buffer_detach hands the attached buffer's address back as TYPE(C_PTR).
  call MPI_Buffer_attach(bsbuf, size(bsbuf) * 4)
  call MPI_Bsend(ibuf, 100, MPI_INTEGER, right, 61, MPI_COMM_WORLD)
  call MPI_Recv(iin, 100, MPI_INTEGER, left, 61, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call MPI_Buffer_detach(detached, cnt)
  ! (Compared as integers: gfortran -O2 folds c_associated(detached, c_loc(bsbuf)) to
  ! .false., bsbuf's address not having escaped as far as it knows.)
  call check(transfer(detached, 0_c_intptr_t) == transfer(c_loc(bsbuf), 0_c_intptr_t) .and. &
      cnt == size(bsbuf) * 4, 'MPI_Buffer_detach')
  call check(iin(100) == left * 100000 + 100, 'MPI_Bsend data')

  t0 = MPI_Wtime()
  call check(t0 > 0d0 .and. MPI_Wtick() > 0d0 .and. MPI_Wtime() >= t0, 'MPI_Wtime')

  call ok('f08_pt2pt')
  call MPI_Finalize()

contains

  include 'f08_check.inc'

  subroutine ok(name)
    character(len=*), intent(in) :: name
    character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: lib
    integer :: len, k
    call MPI_Barrier(MPI_COMM_WORLD)
    if (rank == 0) then
      call MPI_Get_library_version(lib, len)
      k = index(lib(1:len), char(10))
      if (k > 0) len = k - 1
      write(*, '(a)') 'ok ' // name // ' [' // lib(1:len) // ']'
    end if
  end subroutine ok
end program f08_pt2pt
