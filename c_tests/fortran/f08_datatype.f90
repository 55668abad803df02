! f08_datatype: `use mpi_f08`. Derived datatypes sent round a ring and checked element by
! element: a row of a column-major matrix (MPI_Type_vector, the buffer an array element),
! MPI_Type_indexed, a struct built from MPI_Get_address displacements
! (INTEGER(KIND=MPI_ADDRESS_KIND)), MPI_Type_create_resized, MPI_Type_create_subarray;
! MPI_Type_size, MPI_Type_get_extent, MPI_Pack / MPI_Unpack / MPI_Pack_size, MPI_Type_dup,
! MPI_Type_set_name / MPI_Type_get_name; MPI_Pack_external / MPI_Unpack_external; MPI_Sizeof.
program f08_datatype
  use mpi_f08
  implicit none
  character(len=*), parameter :: prog = 'f08_datatype'
  integer, parameter :: m = 6, n = 5
  type :: rec_t
    sequence
    integer :: id
    double precision :: val
    integer :: pad(3)
  end type rec_t
  integer :: rank, nprocs, right, left, i, j, sz, pos, psize, namelen
  integer :: mat(m, n), row(n), idx_out(7), big(10, 8), sub(3, 4)
  type(MPI_Datatype) :: rowtype, idxtype, rectype, resized, subtype, dup
  type(MPI_Datatype) :: types(2)
  integer :: blens(2)
  integer(kind=MPI_ADDRESS_KIND) :: disps(2), base, lb, extent, asize, apos
  type(rec_t) :: recs(3), recs_in(3)
  character(len=1000) :: packbuf
  character(len=MPI_MAX_OBJECT_NAME) :: name
  type(MPI_Status) :: st

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  right = mod(rank + 1, nprocs)
  left = mod(rank - 1 + nprocs, nprocs)

  ! Row 2 of mat: n elements m apart, sent from mat(2, 1).
  mat = reshape((/ (rank * 1000 + i, i = 1, m * n) /), (/ m, n /))
  call MPI_Type_vector(n, 1, m, MPI_INTEGER, rowtype)
  call MPI_Type_commit(rowtype)
  call MPI_Type_size(rowtype, sz)
  call check(sz == 4 * n, 'MPI_Type_size vector')
  call MPI_Type_get_extent(rowtype, lb, extent)
  call check(lb == 0 .and. extent == 4 * ((n - 1) * m + 1), 'MPI_Type_get_extent vector')
  call MPI_Sendrecv(mat(2, 1), 1, rowtype, right, 1, row, n, MPI_INTEGER, left, 1, &
      MPI_COMM_WORLD, st)
  do j = 1, n
    if (row(j) /= left * 1000 + 2 + (j - 1) * m) call fail('vector row', j)
  end do

  ! Indexed: blocks (2 at 0, 3 at 10, 2 at 20) of a 1-D view of mat.
  call MPI_Type_indexed(3, (/ 2, 3, 2 /), (/ 0, 10, 20 /), MPI_INTEGER, idxtype)
  call MPI_Type_commit(idxtype)
  call MPI_Sendrecv(mat, 1, idxtype, right, 2, idx_out, 7, MPI_INTEGER, left, 2, &
      MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call check(all(idx_out == left * 1000 + (/ 1, 2, 11, 12, 13, 21, 22 /)), 'indexed')

  ! Struct: id and val of each record, resized to the record's extent.
  do i = 1, 3
    recs(i) = rec_t(rank * 10 + i, dble(rank) + i * 0.5d0, (/ -1, -1, -1 /))
    recs_in(i) = rec_t(-1, -1d0, (/ -7, -7, -7 /))
  end do
  call MPI_Get_address(recs(1), base)
  call MPI_Get_address(recs(1)%id, disps(1))
  call MPI_Get_address(recs(1)%val, disps(2))
  disps = disps - base
  blens = 1
  types(1) = MPI_INTEGER
  types(2) = MPI_DOUBLE_PRECISION
  call MPI_Type_create_struct(2, blens, disps, types, rectype)
  call MPI_Get_address(recs(2), extent)
  call MPI_Type_create_resized(rectype, 0_MPI_ADDRESS_KIND, extent - base, resized)
  call MPI_Type_commit(resized)
  call MPI_Type_get_extent(resized, lb, extent)
  call check(extent == storage_size(recs(1)) / 8, 'resized extent')
  call MPI_Sendrecv(recs, 3, resized, right, 3, recs_in, 3, resized, left, 3, &
      MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  do i = 1, 3
    if (recs_in(i)%id /= left * 10 + i) call fail('struct id', i)
    if (recs_in(i)%val /= dble(left) + i * 0.5d0) call fail('struct val', i)
    if (any(recs_in(i)%pad /= -7)) call fail('struct: padding written', i)
  end do

  ! Subarray: big(3:5, 2:5) (Fortran order, 0-based starts).
  big = reshape((/ (rank * 100 + i, i = 1, 80) /), (/ 10, 8 /))
  call MPI_Type_create_subarray(2, (/ 10, 8 /), (/ 3, 4 /), (/ 2, 1 /), MPI_ORDER_FORTRAN, &
      MPI_INTEGER, subtype)
  call MPI_Type_commit(subtype)
  call MPI_Sendrecv(big, 1, subtype, right, 4, sub, 12, MPI_INTEGER, left, 4, &
      MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  do j = 1, 4
    do i = 1, 3
      if (sub(i, j) /= left * 100 + (j) * 10 + i + 2) call fail('subarray', i + 3 * j)
    end do
  end do

  ! Pack two rows' worth and unpack them elsewhere.
  call MPI_Pack_size(2, rowtype, MPI_COMM_WORLD, psize)
  call check(psize >= 8 * n .and. psize <= len(packbuf), 'MPI_Pack_size')
  pos = 0
  call MPI_Pack(mat(1, 1), 1, rowtype, packbuf, len(packbuf), pos, MPI_COMM_WORLD)
  call MPI_Pack(mat(3, 1), 1, rowtype, packbuf, len(packbuf), pos, MPI_COMM_WORLD)
  call check(pos == 8 * n, 'MPI_Pack position')
  row = 0
  pos = 0
  call MPI_Unpack(packbuf, len(packbuf), pos, row, n, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(row == (/ (rank * 1000 + 1 + (j - 1) * m, j = 1, n) /)), 'MPI_Unpack 1')
  call MPI_Unpack(packbuf, len(packbuf), pos, row, n, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(row == (/ (rank * 1000 + 3 + (j - 1) * m, j = 1, n) /)), 'MPI_Unpack 2')

  ! external32: big-endian, whatever the host (a CHARACTER argument next to buffers).
  call MPI_Pack_external_size('external32', 2, MPI_INTEGER, asize)
  call check(asize == 8, 'MPI_Pack_external_size')
  apos = 0
  call MPI_Pack_external('external32', (/ 258, -2 /), 2, MPI_INTEGER, packbuf, &
      int(len(packbuf), MPI_ADDRESS_KIND), apos)
  call check(apos == 8, 'MPI_Pack_external position')
  call check(packbuf(1:8) == char(0) // char(0) // char(1) // char(2) // repeat(char(255), 3) &
      // char(254), 'MPI_Pack_external bytes')
  apos = 0
  call MPI_Unpack_external('external32  ', packbuf, 8_MPI_ADDRESS_KIND, apos, row, 2, &
      MPI_INTEGER)
  call check(row(1) == 258 .and. row(2) == -2 .and. apos == 8, 'MPI_Unpack_external')

  ! MPI_Sizeof of scalars and arrays of several types.
  call MPI_Sizeof(sz, psize)
  call check(psize == 4, 'MPI_Sizeof INTEGER')
  call MPI_Sizeof(recs(1)%val, psize)
  call check(psize == 8, 'MPI_Sizeof DOUBLE PRECISION')
  call MPI_Sizeof(big, psize)
  call check(psize == 4, 'MPI_Sizeof INTEGER array')
  call MPI_Sizeof((/ (1d0, 2d0), (3d0, 4d0) /), psize)
  call check(psize == 16, 'MPI_Sizeof COMPLEX(8)')

  ! Names and duplicates.
  call MPI_Type_dup(rowtype, dup)
  call MPI_Type_set_name(dup, 'row of mat')
  call MPI_Type_get_name(dup, name, namelen)
  call check(name(1:namelen) == 'row of mat' .and. namelen == 10, 'MPI_Type_get_name')
  call check(name(namelen + 1:) == ' ', 'MPI_Type_get_name blank-padded')
  call MPI_Type_size(dup, sz)
  call check(sz == 4 * n, 'MPI_Type_dup size')

  call MPI_Type_free(dup)
  call MPI_Type_free(rowtype)
  call MPI_Type_free(idxtype)
  call MPI_Type_free(rectype)
  call MPI_Type_free(resized)
  call MPI_Type_free(subtype)
  call check(rowtype == MPI_DATATYPE_NULL, 'MPI_Type_free')
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) write(*, '(a)') 'ok f08_datatype'
  call MPI_Finalize()

contains

  include 'f08_check.inc'
end program f08_datatype
