! f08_coll: `use mpi_f08`. MPI_Bcast from every root, MPI_Reduce (MPI_SUM) with MPI_IN_PLACE
! at the root, MPI_Allreduce with and without MPI_IN_PLACE, a matrix row (noncontiguous
! section) in MPI_Allreduce (in place) and MPI_Bcast, MPI_Allgather, MPI_Alltoall,
! MPI_Gatherv, MPI_Scatter, MPI_Iallreduce, and a user-defined op (MPI_Op_create with an
! f08 MPI_User_function, non-commutative) in MPI_Allreduce and MPI_Reduce_local: every element
! checked against the serial result.

program f08_coll
  use mpi_f08
  implicit none
  character(len=*), parameter :: prog = 'f08_coll'
  procedure(MPI_User_function) :: compose
  integer, parameter :: n = 1000
  integer :: rank, nprocs, root, i, r, ierr, expect
  integer :: ibuf(n), iout(n), mat(4, 7)
  integer, allocatable :: gat(:), counts(:), displs(:)
  double precision :: dbuf(n), dout(n)
  type(MPI_Op) :: op
  type(MPI_Datatype) :: pair
  type(MPI_Request) :: req
  logical :: commute

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  allocate(gat(n * nprocs), counts(nprocs), displs(nprocs))

  do root = 0, nprocs - 1
    dbuf = -1d0
    if (rank == root) dbuf = (/ (dble(i) * 0.25d0 - root, i = 1, n) /)
    call MPI_Bcast(dbuf, n, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD)
    do i = 1, n
      if (dbuf(i) /= dble(i) * 0.25d0 - root) call fail('MPI_Bcast', i)
    end do

    ! Reduce SUM, MPI_IN_PLACE at the root.
    ibuf = (/ ((rank + 1) * i, i = 1, n) /)
    if (rank == root) then
      call MPI_Reduce(MPI_IN_PLACE, ibuf, n, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
      call check(ierr == MPI_SUCCESS, 'Reduce ierror')
      do i = 1, n
        if (ibuf(i) /= i * nprocs * (nprocs + 1) / 2) call fail('MPI_Reduce IN_PLACE', i)
      end do
    else
      call MPI_Reduce(ibuf, iout, n, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD)
    end if
  end do

  ! Allreduce MAX, then SUM in place.
  dbuf = (/ (dble(i) + rank, i = 1, n) /)
  call MPI_Allreduce(dbuf, dout, n, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD)
  do i = 1, n
    if (dout(i) /= dble(i) + nprocs - 1) call fail('MPI_Allreduce MAX', i)
  end do
  ibuf = (/ (rank + i, i = 1, n) /)
  call MPI_Allreduce(MPI_IN_PLACE, ibuf, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  do i = 1, n
    if (ibuf(i) /= nprocs * i + nprocs * (nprocs - 1) / 2) call fail('Allreduce IN_PLACE', i)
  end do

  ! A row of a matrix (a noncontiguous section, copied in and out): summed in place, and
  ! broadcast; the other rows untouched.
  mat = -1
  mat(2, :) = (/ (rank + i, i = 1, 7) /)
  call MPI_Allreduce(MPI_IN_PLACE, mat(2, :), 7, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(all(mat(2, :) == (/ (nprocs * i + nprocs * (nprocs - 1) / 2, i = 1, 7) /)), &
      'Allreduce IN_PLACE of a row')
  if (rank /= 0) mat(3, :) = 0
  if (rank == 0) mat(3, :) = (/ (i * 11, i = 1, 7) /)
  call MPI_Bcast(mat(3, :), 7, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call check(all(mat(3, :) == (/ (i * 11, i = 1, 7) /)), 'MPI_Bcast of a row')
  call check(all(mat(1, :) == -1) .and. all(mat(4, :) == -1), 'rows around untouched')

  ! Allgather, Alltoall, Gatherv, Scatter.
  ibuf = (/ (rank * n + i, i = 1, n) /)
  call MPI_Allgather(ibuf, n, MPI_INTEGER, gat, n, MPI_INTEGER, MPI_COMM_WORLD)
  do i = 1, n * nprocs
    if (gat(i) /= i) call fail('MPI_Allgather', i)
  end do
  do r = 0, nprocs - 1
    gat(r * 3 + 1:r * 3 + 3) = rank * 100 + r
  end do
  call MPI_Alltoall(gat, 3, MPI_INTEGER, iout, 3, MPI_INTEGER, MPI_COMM_WORLD)
  do r = 0, nprocs - 1
    if (any(iout(r * 3 + 1:r * 3 + 3) /= r * 100 + rank)) call fail('MPI_Alltoall', r)
  end do
  counts = (/ (r + 1, r = 0, nprocs - 1) /)
  displs = (/ (r * (r + 1) / 2, r = 0, nprocs - 1) /)
  ibuf(1:rank + 1) = rank
  gat = -1
  call MPI_Gatherv(ibuf, rank + 1, MPI_INTEGER, gat, counts, displs, MPI_INTEGER, 0, &
      MPI_COMM_WORLD)
  if (rank == 0) then
    do r = 0, nprocs - 1
      if (any(gat(displs(r + 1) + 1:displs(r + 1) + r + 1) /= r)) call fail('MPI_Gatherv', r)
    end do
  end if
  if (rank == 0) gat = (/ (i, i = 1, n * nprocs) /)
  call MPI_Scatter(gat, 2, MPI_INTEGER, ibuf, 2, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call check(ibuf(1) == rank * 2 + 1 .and. ibuf(2) == rank * 2 + 2, 'MPI_Scatter')

  ! Nonblocking.
  ibuf = rank
  call MPI_Iallreduce(ibuf, iout, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call check(all(iout == nprocs * (nprocs - 1) / 2), 'MPI_Iallreduce')

  ! User-defined, non-commutative op on pairs: rank r's map is x -> 2x + (r + 1), so the
  ! composition is x -> 2**p x + sum over r of (r + 1) 2**(p-1-r).
  call MPI_Type_contiguous(2, MPI_INTEGER, pair)
  call MPI_Type_commit(pair)
  call MPI_Op_create(compose, .false., op)
  call MPI_Op_commutative(op, commute)
  call check(.not. commute, 'MPI_Op_commutative')
  ibuf(1:10:2) = 2
  ibuf(2:10:2) = rank + 1
  call MPI_Allreduce(ibuf, iout, 5, pair, op, MPI_COMM_WORLD)
  expect = 0
  do r = 0, nprocs - 1
    expect = expect + (r + 1) * 2**(nprocs - 1 - r)
  end do
  do i = 1, 10, 2
    if (iout(i) /= 2**nprocs .or. iout(i + 1) /= expect) call fail('user op in MPI_Allreduce', i)
  end do
  ibuf(1:2) = (/ 2, 1 /)
  iout(1:2) = (/ 3, 5 /)
  call MPI_Reduce_local(ibuf, iout, 1, pair, op)
  call check(iout(1) == 6 .and. iout(2) == 8, 'MPI_Reduce_local')
  call MPI_Op_free(op)
  call MPI_Type_free(pair)
  call check(op == MPI_OP_NULL, 'MPI_Op_free')

  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) write(*, '(a)') 'ok f08_coll'
  call MPI_Finalize()

contains

  include 'f08_check.inc'
end program f08_coll

! Elements are pairs (a, b), the affine maps x -> a * x + b; inoutvec = inoutvec o invec
! (invec applied first): associative, not commutative, so the result shows the ranks were
! combined in rank order.
subroutine compose(invec, inoutvec, len, datatype)
  use mpi_f08
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
  type(c_ptr), value :: invec, inoutvec
  integer :: len
  type(MPI_Datatype) :: datatype
  integer, pointer :: f(:, :), g(:, :)
  call c_f_pointer(invec, f, (/ 2, len /))
  call c_f_pointer(inoutvec, g, (/ 2, len /))
  g(2, :) = g(1, :) * f(2, :) + g(2, :)
  g(1, :) = g(1, :) * f(1, :)
  if (datatype == MPI_DATATYPE_NULL) error stop 'compose: no datatype'
end subroutine compose
