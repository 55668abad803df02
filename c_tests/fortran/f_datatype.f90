! requires: mpi_type_vector_ mpi_type_create_struct_ mpi_type_create_subarray_
! requires: mpi_type_create_resized_ mpi_get_address_ mpi_pack_ mpi_unpack_ mpi_pack_size_
! requires: mpi_type_get_extent_ mpi_type_hvector_ mpi_type_extent_
! f_datatype: derived datatypes from Fortran. A row of a column-major matrix (MPI_Type_vector,
! stride = leading dimension) sent into a contiguous receive and back; a struct of absolute
! addresses (MPI_Get_address) sent and received through MPI_BOTTOM; a Fortran-order subarray;
! MPI_Type_get_extent (INTEGER(KIND=MPI_ADDRESS_KIND)); MPI_Pack/MPI_Unpack round trip;
! MPI-1 MPI_Type_hvector/MPI_Type_extent with default-INTEGER addresses.
program f_datatype
  use mpi
  implicit none
  integer, parameter :: nr = 6, nc = 5
  integer :: ierr, rank, nprocs, next, prev, i, j, row, rowt, rowr, sub, st, hv, pos, psize
  integer :: a(nr, nc), b(nc), c(nr, nc), status(MPI_STATUS_SIZE), count, iextent
  integer :: blens(2), types(2)
  ! Reached through MPI_BOTTOM only: the compiler must not keep them in registers.
  integer, volatile :: ival, ival2
  double precision, volatile :: dval, dval2
  integer(kind=MPI_ADDRESS_KIND) :: disps(2), lb, extent
  character(len=1) :: packbuf(1000)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  next = mod(rank + 1, nprocs)
  prev = mod(rank + nprocs - 1, nprocs)
  do j = 1, nc
    do i = 1, nr
      a(i, j) = 1000 * rank + 10 * i + j
    end do
  end do

  ! Row 3 of a (nc elements, stride nr) to the next rank, received contiguous.
  call MPI_Type_vector(nc, 1, nr, MPI_INTEGER, rowt, ierr)
  call MPI_Type_commit(rowt, ierr)
  call MPI_Type_get_extent(rowt, lb, extent, ierr)
  call check(lb == 0 .and. extent == ((nc - 1) * nr + 1) * 4, 'vector extent')
  call MPI_Sendrecv(a(3, 1), 1, rowt, next, 1, b, nc, MPI_INTEGER, prev, 1, MPI_COMM_WORLD, &
                    status, ierr)
  call MPI_Get_count(status, MPI_INTEGER, count, ierr)
  call check(count == nc, 'count of the row')
  do j = 1, nc
    if (b(j) /= 1000 * prev + 30 + j) call fail('row received contiguous', j)
  end do
  ! And back: contiguous into row 5 of c.
  c = -1
  call MPI_Sendrecv(b, nc, MPI_INTEGER, prev, 2, c(5, 1), 1, rowt, next, 2, MPI_COMM_WORLD, &
                    status, ierr)
  do j = 1, nc
    do i = 1, nr
      if (i == 5) then
        if (c(i, j) /= 1000 * rank + 30 + j) call fail('contiguous into a row', j)
      else
        if (c(i, j) /= -1) call fail('outside the row untouched', i)
      end if
    end do
  end do

  ! Struct of absolute addresses, through MPI_BOTTOM.
  ival = 77 + rank
  dval = 0.5d0 + rank
  call MPI_Get_address(ival, disps(1), ierr)
  call MPI_Get_address(dval, disps(2), ierr)
  blens = (/ 1, 1 /)
  types = (/ MPI_INTEGER, MPI_DOUBLE_PRECISION /)
  call MPI_Type_create_struct(2, blens, disps, types, st, ierr)
  call MPI_Type_commit(st, ierr)
  call MPI_Get_address(ival2, disps(1), ierr)
  call MPI_Get_address(dval2, disps(2), ierr)
  call MPI_Type_create_struct(2, blens, disps, types, row, ierr)
  call MPI_Type_commit(row, ierr)
  ival2 = -1
  dval2 = -1d0
  call MPI_Sendrecv(MPI_BOTTOM, 1, st, next, 3, MPI_BOTTOM, 1, row, prev, 3, MPI_COMM_WORLD, &
                    status, ierr)
  call check(ierr == MPI_SUCCESS, 'Sendrecv through MPI_BOTTOM')
  call check(ival2 == 77 + prev .and. dval2 == 0.5d0 + prev, 'struct through MPI_BOTTOM')
  call MPI_Type_free(st, ierr)
  call MPI_Type_free(row, ierr)

  ! A Fortran-order subarray: rows 2..4, columns 3..5 of a, to a 3x3 contiguous block.
  call MPI_Type_create_subarray(2, (/ nr, nc /), (/ 3, 3 /), (/ 1, 2 /), MPI_ORDER_FORTRAN, &
                                MPI_INTEGER, sub, ierr)
  call MPI_Type_commit(sub, ierr)
  c = -1
  call MPI_Sendrecv(a, 1, sub, next, 4, c, 9, MPI_INTEGER, prev, 4, MPI_COMM_WORLD, &
                    status, ierr)
  do j = 1, 3
    do i = 1, 3
      if (c(3 * (j - 1) + i, 1) /= 1000 * prev + 10 * (i + 1) + (j + 2)) &
        call fail('subarray', 3 * (j - 1) + i)
    end do
  end do
  call MPI_Type_free(sub, ierr)

  ! Pack / Unpack two consecutive rows: the row type resized to one INTEGER's extent.
  call MPI_Type_create_resized(rowt, 0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND, rowr, ierr)
  call MPI_Type_commit(rowr, ierr)
  call MPI_Pack_size(2, rowr, MPI_COMM_WORLD, psize, ierr)
  call check(psize >= 2 * nc * 4 .and. psize <= size(packbuf), 'MPI_Pack_size')
  pos = 0
  call MPI_Pack(a(1, 1), 2, rowr, packbuf, size(packbuf), pos, MPI_COMM_WORLD, ierr)
  call check(pos == 2 * nc * 4, 'MPI_Pack position')
  c = -1
  pos = 0
  call MPI_Unpack(packbuf, size(packbuf), pos, c(2, 1), 2, rowr, MPI_COMM_WORLD, ierr)
  call check(pos == 2 * nc * 4, 'MPI_Unpack position')
  do j = 1, nc
    if (c(2, j) /= a(1, j) .or. c(3, j) /= a(2, j)) call fail('pack/unpack', j)
    if (c(1, j) /= -1 .or. c(4, j) /= -1) call fail('unpack stays in the rows', j)
  end do
  call MPI_Type_free(rowr, ierr)
  call MPI_Type_free(rowt, ierr)
  call check(rowt == MPI_DATATYPE_NULL, 'MPI_Type_free')

  ! MPI-1 calls with INTEGER addresses.
  call MPI_Type_hvector(2, 1, 4 * nr, MPI_INTEGER, hv, ierr)
  call MPI_Type_commit(hv, ierr)
  call MPI_Type_extent(hv, iextent, ierr)
  call check(iextent == 4 * nr + 4, 'MPI_Type_extent (INTEGER)')
  call MPI_Type_free(hv, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a)') 'ok f_datatype'
  call MPI_Finalize(ierr)

contains

  subroutine fail(what, i)
    character(len=*), intent(in) :: what
    integer, intent(in) :: i
    write(0, *) 'f_datatype: rank', rank, ': ', what, ': wrong element', i
    error stop 1
  end subroutine fail

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_datatype: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check
end program f_datatype
