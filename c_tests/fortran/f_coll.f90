! f_coll: `use mpi`. MPI_Bcast from every root (INTEGER and a large DOUBLE PRECISION array),
! MPI_Reduce (SUM, MAX, MIN) to every root, MPI_Reduce with MPI_IN_PLACE at the root,
! MPI_Allreduce with and without MPI_IN_PLACE, MPI_Barrier: every element checked against
! the serial result.
program f_coll
  use mpi
  implicit none
  integer, parameter :: ni = 1000, nd = 200000
  integer :: ierr, rank, nprocs, root, i, r
  integer, allocatable :: ibuf(:), iout(:)
  double precision, allocatable :: dbuf(:), dout(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  allocate(ibuf(ni), iout(ni), dbuf(nd), dout(nd))

  do root = 0, nprocs - 1
    ! Bcast
    if (rank == root) then
      ibuf = (/ (i * 3 + root, i = 1, ni) /)
      dbuf = (/ (dble(i) * 0.25d0 - root, i = 1, nd) /)
    else
      ibuf = -1
      dbuf = -1d0
    end if
    call MPI_Bcast(ibuf, ni, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call check(ierr == MPI_SUCCESS, 'MPI_Bcast ierror')
    call MPI_Bcast(dbuf, nd, MPI_DOUBLE_PRECISION, root, MPI_COMM_WORLD, ierr)
    do i = 1, ni
      if (ibuf(i) /= i * 3 + root) call fail('MPI_Bcast INTEGER', i)
    end do
    do i = 1, nd
      if (dbuf(i) /= dble(i) * 0.25d0 - root) call fail('MPI_Bcast DOUBLE PRECISION', i)
    end do

    ! Reduce SUM (INTEGER): rank r contributes (r + 1) * i.
    ibuf = (/ ((rank + 1) * i, i = 1, ni) /)
    iout = -1
    call MPI_Reduce(ibuf, iout, ni, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    if (rank == root) then
      do i = 1, ni
        if (iout(i) /= i * nprocs * (nprocs + 1) / 2) call fail('MPI_Reduce SUM', i)
      end do
    end if

    ! Reduce MAX and MIN (DOUBLE PRECISION): rank r contributes i + r * 0.5 (i odd) and
    ! i - r * 0.5 (i even).
    do i = 1, nd
      dbuf(i) = dble(i) + merge(1d0, -1d0, mod(i, 2) == 1) * rank * 0.5d0
    end do
    call MPI_Reduce(dbuf, dout, nd, MPI_DOUBLE_PRECISION, MPI_MAX, root, MPI_COMM_WORLD, ierr)
    if (rank == root) then
      do i = 1, nd
        if (mod(i, 2) == 1) then
          if (dout(i) /= dble(i) + (nprocs - 1) * 0.5d0) call fail('MPI_Reduce MAX', i)
        else
          if (dout(i) /= dble(i)) call fail('MPI_Reduce MAX', i)
        end if
      end do
    end if
    call MPI_Reduce(dbuf, dout, nd, MPI_DOUBLE_PRECISION, MPI_MIN, root, MPI_COMM_WORLD, ierr)
    if (rank == root) then
      do i = 1, nd
        if (mod(i, 2) == 1) then
          if (dout(i) /= dble(i)) call fail('MPI_Reduce MIN', i)
        else
          if (dout(i) /= dble(i) - (nprocs - 1) * 0.5d0) call fail('MPI_Reduce MIN', i)
        end if
      end do
    end if

    ! Reduce with MPI_IN_PLACE at the root.
    ibuf = (/ (rank + i, i = 1, ni) /)
    if (rank == root) then
      call MPI_Reduce(MPI_IN_PLACE, ibuf, ni, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
      do i = 1, ni
        if (ibuf(i) /= nprocs * i + nprocs * (nprocs - 1) / 2) call fail('Reduce IN_PLACE', i)
      end do
    else
      call MPI_Reduce(ibuf, iout, ni, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    end if
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end do

  ! Allreduce SUM (INTEGER), out of place and in place.
  ibuf = (/ (i - rank, i = 1, ni) /)
  call MPI_Allreduce(ibuf, iout, ni, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  do i = 1, ni
    if (iout(i) /= nprocs * i - nprocs * (nprocs - 1) / 2) call fail('MPI_Allreduce SUM', i)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, ibuf, ni, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Allreduce IN_PLACE ierror')
  do i = 1, ni
    if (ibuf(i) /= iout(i)) call fail('MPI_Allreduce IN_PLACE SUM', i)
  end do
  ! Allreduce MAX (DOUBLE PRECISION, large) in place: element i peaks at rank mod(i, n).
  do i = 1, nd
    r = mod(i, nprocs)
    dbuf(i) = merge(dble(i), -dble(i) - rank, rank == r)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, dbuf, nd, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, &
                     ierr)
  do i = 1, nd
    if (dbuf(i) /= dble(i)) call fail('MPI_Allreduce IN_PLACE MAX', i)
  end do
  ! Allreduce PROD (INTEGER): 2 from every rank.
  call MPI_Allreduce(2, r, 1, MPI_INTEGER, MPI_PROD, MPI_COMM_WORLD, ierr)
  call check(r == 2 ** nprocs, 'MPI_Allreduce PROD')

  call ok('f_coll')
  call MPI_Finalize(ierr)

contains

  subroutine fail(what, i)
    character(len=*), intent(in) :: what
    integer, intent(in) :: i
    write(0, *) 'f_coll: rank', rank, 'root', root, ': ', what, ': wrong element', i
    error stop 1
  end subroutine fail

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_coll: rank', rank, ': check failed: ', what
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
end program f_coll
