! f08_io_view: `use mpi_f08` MPI-IO through a view. Each rank owns every nprocs-th block of
! 4 INTEGERs (a resized contiguous filetype): a collective write through the view
! (MPI_File_write_all, TYPE(MPI_Status) and MPI_Get_count), the whole file read back with
! MPI_File_read_at by rank 0, a collective read through the view, MPI_File_iread_at
! completed with MPI_Wait, MPI_File_get_size, MPI_File_get_position and MPI_File_seek, the
! error class of MPI_File_open on a missing file (the default file handler returns it), a
! noncontiguous section in MPI_File_iwrite_at refused with MPI_ERR_BUFFER through the
! file's handler (railmpi: MPI_SUBARRAYS_SUPPORTED is .false.), and the file deleted on
! close. Every element checked. The file lives in $TMPDIR (or /tmp), named after rank 0's
! process id.
program f08_io_view
  use mpi_f08
  implicit none
  character(len=*), parameter :: prog = 'f08_io_view'
  integer, parameter :: nb = 4, nblocks = 25
  integer :: rank, nprocs, i, pid, count, isize, ierr, eclass
  integer :: mine(nb * nblocks), back(nb * nblocks), part(nb)
  integer, allocatable :: whole(:)
  type(MPI_File) :: fh, fh2
  type(MPI_Datatype) :: contig, tile
  type(MPI_Status) :: status
  type(MPI_Request) :: req
  integer(kind=MPI_OFFSET_KIND) :: disp, fsize, pos
  integer(kind=MPI_ADDRESS_KIND) :: lb, extent
  character(len=512) :: dir, path
  integer :: dirlen, dirstat

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  call MPI_Type_size(MPI_INTEGER, isize)
  pid = getpid()
  call MPI_Bcast(pid, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call get_environment_variable('TMPDIR', dir, dirlen, dirstat)
  if (dirstat /= 0 .or. dirlen == 0) dir = '/tmp'
  write(path, '(a, a, i0, a)') trim(dir), '/railmpi_f08_io_view_', pid, '.dat'

  ! A missing file without MPI_MODE_CREATE: the class comes back in ierror.
  call MPI_File_open(MPI_COMM_WORLD, trim(path) // '.missing', MPI_MODE_RDONLY, &
                     MPI_INFO_NULL, fh2, ierr)
  call MPI_Error_class(ierr, eclass)
  call check(eclass == MPI_ERR_NO_SUCH_FILE, 'MPI_File_open of a missing file')
  call check(fh2 == MPI_FILE_NULL, 'a failed open leaves MPI_FILE_NULL')

  call MPI_File_open(MPI_COMM_WORLD, path, &
                     MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, fh)
  call check(fh /= MPI_FILE_NULL, 'file handle')

  call MPI_Type_contiguous(nb, MPI_INTEGER, contig)
  lb = 0
  extent = nb * isize * nprocs
  call MPI_Type_create_resized(contig, lb, extent, tile)
  call MPI_Type_commit(tile)
  disp = rank * nb * isize
  call MPI_File_set_view(fh, disp, MPI_INTEGER, tile, 'native', MPI_INFO_NULL)
  do i = 1, nb * nblocks
    ! the INTEGER's index in the file (0-based)
    mine(i) = ((i - 1) / nb * nprocs + rank) * nb + mod(i - 1, nb)
  end do
  call MPI_File_write_all(fh, mine, nb * nblocks, MPI_INTEGER, status)
  call MPI_Get_count(status, MPI_INTEGER, count)
  call check(count == nb * nblocks, 'MPI_File_write_all count')
  call MPI_File_get_position(fh, pos)
  call check(pos == nb * nblocks, 'MPI_File_get_position after the write')
  call MPI_File_sync(fh)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_sync(fh)
  call MPI_File_get_size(fh, fsize)
  call check(fsize == int(nb * nblocks * nprocs * isize, MPI_OFFSET_KIND), 'MPI_File_get_size')

  ! The whole file through a plain view: every INTEGER is its own index.
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', &
                         MPI_INFO_NULL)
  if (rank == 0) then
    allocate(whole(nb * nblocks * nprocs))
    whole = -1
    call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, whole, size(whole), MPI_INTEGER, status)
    call MPI_Get_count(status, MPI_INTEGER, count)
    call check(count == size(whole), 'MPI_File_read_at count')
    do i = 1, size(whole)
      if (whole(i) /= i - 1) call fail('MPI_File_read_at', i)
    end do
    deallocate(whole)
  end if

  ! Back to the strided view for a collective read from the start.
  call MPI_File_set_view(fh, disp, MPI_INTEGER, tile, 'native', MPI_INFO_NULL)
  back = -1
  call MPI_File_read_all(fh, back, nb * nblocks, MPI_INTEGER, status)
  call MPI_Get_count(status, MPI_INTEGER, count)
  call check(count == nb * nblocks, 'MPI_File_read_all count')
  do i = 1, nb * nblocks
    if (back(i) /= mine(i)) call fail('MPI_File_read_all', i)
  end do

  ! Nonblocking: my third block (view offsets count INTEGERs of the view).
  part = -1
  call MPI_File_iread_at(fh, int(2 * nb, MPI_OFFSET_KIND), part, nb, MPI_INTEGER, req)
  call MPI_Wait(req, status)
  call check(req == MPI_REQUEST_NULL, 'MPI_Wait frees the request')
  do i = 1, nb
    if (part(i) /= mine(2 * nb + i)) call fail('MPI_File_iread_at', i)
  end do

  ! Seek to the last block and read it with the individual pointer.
  call MPI_File_seek(fh, int((nblocks - 1) * nb, MPI_OFFSET_KIND), MPI_SEEK_SET)
  part = -1
  call MPI_File_read(fh, part, nb, MPI_INTEGER, MPI_STATUS_IGNORE)
  do i = 1, nb
    if (part(i) /= mine((nblocks - 1) * nb + i)) call fail('MPI_File_seek + MPI_File_read', i)
  end do

  if (.not. MPI_SUBARRAYS_SUPPORTED) then
    call MPI_File_iwrite_at(fh, 0_MPI_OFFSET_KIND, mine(1:nb * nblocks:2), nb, MPI_INTEGER, &
                            req, ierr)
    call MPI_Error_class(ierr, eclass)
    call check(eclass == MPI_ERR_BUFFER, 'noncontiguous MPI_File_iwrite_at: MPI_ERR_BUFFER')
    part = -1
    call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, part, nb, MPI_INTEGER, status)
    do i = 1, nb
      if (part(i) /= mine(i)) call fail('the refused MPI_File_iwrite_at wrote nothing', i)
    end do
  end if

  call MPI_File_close(fh)
  call check(fh == MPI_FILE_NULL, 'MPI_File_close sets MPI_FILE_NULL')
  call MPI_Type_free(tile)
  call MPI_Type_free(contig)
  if (rank == 0) write(*, '(a, i0, a)') 'ok f08_io_view (', nprocs, ' ranks)'
  call MPI_Finalize()

contains
  include 'f08_check.inc'
end program f08_io_view
