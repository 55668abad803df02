! f08_io: `use mpi_f08` MPI-IO: TYPE(MPI_File) handles, a collective write and read at
! explicit offsets with TYPE(MPI_Status) and counts checked, MPI_File_get_size, and the
! handle back to MPI_FILE_NULL at close (the file is deleted on close). The file lives in
! $TMPDIR (or /tmp), named after rank 0's process id.
program f08_io
  use mpi_f08
  implicit none
  type(MPI_File) :: fh
  type(MPI_Status) :: st
  integer :: rank, nprocs, buf(64), back(64), cnt, i, pid, dirlen, dirstat
  integer(kind=MPI_OFFSET_KIND) :: off, fsize
  character(len=512) :: dir, path

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  pid = getpid()
  call MPI_Bcast(pid, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call get_environment_variable('TMPDIR', dir, dirlen, dirstat)
  if (dirstat /= 0 .or. dirlen == 0) dir = '/tmp'
  write(path, '(a, a, i0, a)') trim(dir), '/railmpi_f08_io_', pid, '.dat'

  call MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE + MPI_MODE_RDWR + &
                     MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, fh)
  do i = 1, 64
    buf(i) = rank * 1000 + i
  end do
  off = rank * 64 * 4
  call MPI_File_write_at_all(fh, off, buf, 64, MPI_INTEGER, st)
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  if (cnt /= 64) call fail('write_at_all count')
  back = 0
  call MPI_File_read_at_all(fh, off, back, 64, MPI_INTEGER, st)
  call MPI_Get_count(st, MPI_INTEGER, cnt)
  if (cnt /= 64 .or. any(back /= buf)) call fail('read_at_all data')
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_get_size(fh, fsize)
  if (fsize /= nprocs * 64 * 4) call fail('file size')
  call MPI_File_close(fh)
  if (fh /= MPI_FILE_NULL) call fail('MPI_File_close')
  if (rank == 0) print '(a)', 'ok f08_io'
  call MPI_Finalize()

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a, i0, a, a)', 'rank ', rank, ': FAILED: ', what
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine fail

end program f08_io
