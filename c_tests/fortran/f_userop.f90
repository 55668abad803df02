! requires: mpi_op_create_ mpi_op_free_ mpi_type_contiguous_ mpi_type_commit_ mpi_type_free_
! f_userop: user-defined reduction operations written in Fortran (MPI_Op_create takes the
! procedure; the library calls it with Fortran's by-reference arguments): a commutative one
! (a sum) and a non-commutative one (2x2 integer matrix product modulo a prime, on a
! contiguous type of 4 INTEGERs) with MPI_Reduce to every root, MPI_Allreduce (also in place)
! and MPI_Scan; every element checked against the serial result in rank order.
program f_userop
  use mpi
  implicit none
  integer, parameter :: n = 50, nm = 7, p = 1000003
  integer :: ierr, rank, nprocs, root, i, r, k, addop, matop, mat4
  integer :: a(n), b(n), m(4, nm), res(4, nm), want(4, nm)
  external :: int_add, matmul_mod

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  call MPI_Op_create(int_add, .true., addop, ierr)
  call check(ierr == MPI_SUCCESS .and. addop /= MPI_OP_NULL, 'MPI_Op_create (commutative)')
  call MPI_Op_create(matmul_mod, .false., matop, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Op_create (non-commutative)')
  call MPI_Type_contiguous(4, MPI_INTEGER, mat4, ierr)
  call MPI_Type_commit(mat4, ierr)

  ! int_add adds; each rank contributes (rank + i)**2.
  do root = 0, nprocs - 1
    a = (/ ((rank + i) ** 2, i = 1, n) /)
    b = -1
    call MPI_Reduce(a, b, n, MPI_INTEGER, addop, root, MPI_COMM_WORLD, ierr)
    if (rank == root) then
      do i = 1, n
        if (b(i) /= sum((/ ((r + i) ** 2, r = 0, nprocs - 1) /))) call fail('Reduce addop', i)
      end do
    end if
  end do

  ! Matrix product in rank order: M_0 * M_1 * ... * M_{n-1}.
  do k = 1, nm
    m(:, k) = mat(rank, k)
  end do
  do k = 1, nm
    want(:, k) = (/ 1, 0, 0, 1 /)
    do r = 0, nprocs - 1
      want(:, k) = mul(want(:, k), mat(r, k))
    end do
  end do
  do root = 0, nprocs - 1
    res = -1
    call MPI_Reduce(m, res, nm, mat4, matop, root, MPI_COMM_WORLD, ierr)
    if (rank == root) then
      do k = 1, nm
        if (any(res(:, k) /= want(:, k))) call fail('Reduce matmul (rank order)', k)
      end do
    end if
  end do
  res = -1
  call MPI_Allreduce(m, res, nm, mat4, matop, MPI_COMM_WORLD, ierr)
  do k = 1, nm
    if (any(res(:, k) /= want(:, k))) call fail('Allreduce matmul', k)
  end do
  res = m
  call MPI_Allreduce(MPI_IN_PLACE, res, nm, mat4, matop, MPI_COMM_WORLD, ierr)
  do k = 1, nm
    if (any(res(:, k) /= want(:, k))) call fail('Allreduce matmul in place', k)
  end do
  ! Scan: the prefix product up to this rank.
  call MPI_Scan(m, res, nm, mat4, matop, MPI_COMM_WORLD, ierr)
  do k = 1, nm
    want(:, k) = (/ 1, 0, 0, 1 /)
    do r = 0, rank
      want(:, k) = mul(want(:, k), mat(r, k))
    end do
    if (any(res(:, k) /= want(:, k))) call fail('Scan matmul', k)
  end do

  call MPI_Op_free(addop, ierr)
  call check(addop == MPI_OP_NULL, 'MPI_Op_free')
  call MPI_Op_free(matop, ierr)
  call MPI_Type_free(mat4, ierr)
  call ok('f_userop')
  call MPI_Finalize(ierr)

contains

  function mat(r, k) result(x)
    integer, intent(in) :: r, k
    integer :: x(4)
    x = (/ mod(r * 7 + k, 13) + 1, mod(r + 3 * k, 5), mod(2 * r + k, 7), mod(r * k, 11) + 2 /)
  end function mat

  function mul(x, y) result(z)
    integer, intent(in) :: x(4), y(4)
    integer :: z(4)
    ! Column-major 2x2: (1,1)=x(1) (2,1)=x(2) (1,2)=x(3) (2,2)=x(4).
    z(1) = mod(x(1) * y(1) + x(3) * y(2), p)
    z(2) = mod(x(2) * y(1) + x(4) * y(2), p)
    z(3) = mod(x(1) * y(3) + x(3) * y(4), p)
    z(4) = mod(x(2) * y(3) + x(4) * y(4), p)
  end function mul

  subroutine fail(what, i)
    character(len=*), intent(in) :: what
    integer, intent(in) :: i
    write(0, *) 'f_userop: rank', rank, 'root', root, ': ', what, ': wrong element', i
    error stop 1
  end subroutine fail

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_userop: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check

  subroutine ok(name)
    character(len=*), intent(in) :: name
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    if (rank == 0) write(*, '(a)') 'ok ' // name
  end subroutine ok
end program f_userop

! The operations: MPI calls them as FUNCTION(INVEC, INOUTVEC, LEN, DATATYPE).
subroutine int_add(invec, inoutvec, len, datatype)
  implicit none
  integer :: len, datatype
  integer :: invec(len), inoutvec(len)
  inoutvec = invec + inoutvec
end subroutine int_add

subroutine matmul_mod(invec, inoutvec, len, datatype)
  implicit none
  integer :: len, datatype
  integer :: invec(4, len), inoutvec(4, len)
  integer, parameter :: p = 1000003
  integer :: k, z(4)
  do k = 1, len
    ! inout = in * inout (in comes from the lower ranks).
    z(1) = mod(invec(1, k) * inoutvec(1, k) + invec(3, k) * inoutvec(2, k), p)
    z(2) = mod(invec(2, k) * inoutvec(1, k) + invec(4, k) * inoutvec(2, k), p)
    z(3) = mod(invec(1, k) * inoutvec(3, k) + invec(3, k) * inoutvec(4, k), p)
    z(4) = mod(invec(2, k) * inoutvec(3, k) + invec(4, k) * inoutvec(4, k), p)
    inoutvec(:, k) = z
  end do
end subroutine matmul_mod
