! f_io: `use mpi` MPI-IO from Fortran. Each rank owns every nprocs-th block of 4 INTEGERs
! (a resized contiguous filetype); collective write through the view, then the whole file
! read back independently with MPI_File_read_at, a collective read through the view, the
! size and the individual pointer checked, and the file deleted on close. A file error
! handler written in Fortran gets the file's INTEGER handle and the code. The file lives in
! $TMPDIR (or /tmp), named after rank 0's process id.
! requires: mpi_file_open_ mpi_file_set_view_ mpi_file_write_all_ mpi_file_read_at_all_ mpi_file_close_
module f_io_handler
  implicit none
  integer :: seen_file = -1, seen_code = -1
contains
  subroutine on_error(fh, code)
    integer :: fh, code
    seen_file = fh
    seen_code = code
  end subroutine on_error
end module f_io_handler

program f_io
  use mpi
  use f_io_handler
  implicit none
  integer, parameter :: nb = 4, nblocks = 25
  integer :: ierr, rank, nprocs, fh, contig, tile, i, pid, count, isize, amode
  integer :: mine(nb * nblocks), back(nb * nblocks)
  integer, allocatable :: whole(:)
  integer :: status(MPI_STATUS_SIZE)
  integer(kind=MPI_OFFSET_KIND) :: disp, off, fsize, pos
  integer(kind=MPI_ADDRESS_KIND) :: lb, extent
  character(len=512) :: dir, path
  integer :: dirlen, dirstat, eh, liblen
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: lib

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Type_size(MPI_INTEGER, isize, ierr)
  pid = getpid()
  call MPI_Bcast(pid, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call get_environment_variable('TMPDIR', dir, dirlen, dirstat)
  if (dirstat /= 0 .or. dirlen == 0) dir = '/tmp'
  write(path, '(a, a, i0, a)') trim(dir), '/railmpi_f_io_', pid, '.dat'

  amode = MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE
  call MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, fh, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_File_open')
  call check(fh /= MPI_FILE_NULL, 'file handle')

  call MPI_Type_contiguous(nb, MPI_INTEGER, contig, ierr)
  lb = 0
  extent = nb * isize * nprocs
  call MPI_Type_create_resized(contig, lb, extent, tile, ierr)
  call MPI_Type_commit(tile, ierr)
  disp = rank * nb * isize
  call MPI_File_set_view(fh, disp, MPI_INTEGER, tile, 'native', MPI_INFO_NULL, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_File_set_view')
  do i = 1, nb * nblocks
    ! the INTEGER's index in the file (0-based)
    mine(i) = ((i - 1) / nb * nprocs + rank) * nb + mod(i - 1, nb)
  end do
  call MPI_File_write_all(fh, mine, nb * nblocks, MPI_INTEGER, status, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_File_write_all')
  call MPI_Get_count(status, MPI_INTEGER, count, ierr)
  call check(count == nb * nblocks, 'write_all count')
  call MPI_File_get_position(fh, pos, ierr)
  call check(pos == nb * nblocks, 'position after write_all')
  call MPI_File_sync(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_File_sync(fh, ierr)

  ! collective read through the view
  back = -1
  off = 0
  call MPI_File_read_at_all(fh, off, back, nb * nblocks, MPI_INTEGER, status, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_File_read_at_all')
  call check(all(back == mine), 'read_at_all data')

  ! the whole file, independently, with the byte view
  call MPI_File_get_size(fh, fsize, ierr)
  call check(fsize == nb * nblocks * nprocs * isize, 'file size')
  allocate(whole(nb * nblocks * nprocs))
  disp = 0
  call MPI_File_set_view(fh, disp, MPI_BYTE, MPI_BYTE, 'native', MPI_INFO_NULL, ierr)
  call MPI_File_read_at(fh, disp, whole, nb * nblocks * nprocs, MPI_INTEGER, status, ierr)
  call MPI_Get_count(status, MPI_INTEGER, count, ierr)
  call check(count == nb * nblocks * nprocs, 'read_at count')
  do i = 1, nb * nblocks * nprocs
    call check(whole(i) == i - 1, 'file contents')
  end do

  call MPI_File_create_errhandler(on_error, eh, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_File_create_errhandler')
  call MPI_File_set_errhandler(fh, eh, ierr)
  call MPI_File_call_errhandler(fh, MPI_ERR_IO, ierr)
  ! (MPICH 4.0.2 hands a Fortran handler something else than the INTEGER handle)
  call MPI_Get_library_version(lib, liblen, ierr)
  if (index(lib, 'railmpi') > 0) then
    call check(seen_file == fh .and. seen_code == MPI_ERR_IO, 'Fortran file error handler')
  else
    call check(seen_code == MPI_ERR_IO, 'Fortran file error handler code')
  end if
  call MPI_Errhandler_free(eh, ierr)

  call MPI_File_close(fh, ierr)
  call check(ierr == MPI_SUCCESS .and. fh == MPI_FILE_NULL, 'MPI_File_close')
  call MPI_Type_free(tile, ierr)
  call MPI_Type_free(contig, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a)', 'ok f_io'
  call MPI_Finalize(ierr)

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    integer :: e
    if (.not. cond) then
      print '(a, i0, a, a)', 'rank ', rank, ': FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 1, e)
    end if
  end subroutine check

end program f_io
