! f_greq: the mpif.h calls whose Fortran form is not the C one. MPI_GREQUEST_START with
! Fortran query/free/cancel subroutines (EXTRA_STATE by reference, IERROR last, a LOGICAL
! COMPLETE), MPI_INFO_CREATE_ENV (no argc/argv), MPI_REGISTER_DATAREP with
! MPI_CONVERSION_FN_NULL (mpif.h's EXTERNAL; MPICH's `use mpi` has none) and a CHARACTER
! name, MPI_F_SYNC_REG, MPI_INFO_GET_STRING (BUFLEN counts characters, no NUL).
! EXTRA_STATE is the caller's variable (MPICH passes its address): free_fn's update shows.
program f_greq
  implicit none
  include 'mpif.h'
  integer :: ierr, ierr2, rank, req, info, nkeys, status(MPI_STATUS_SIZE), class
  integer(kind=MPI_ADDRESS_KIND) :: extra, extra2, rep_extra
  logical :: flag
  integer :: nquery, nfree, ncancel, seen_complete
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra
  common /fgreq/ nquery, nfree, ncancel, seen_complete, seen_extra
  external :: greq_query, greq_free, greq_cancel, rep_extent
  integer :: buf(4), vlen
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  nquery = 0
  nfree = 0
  ncancel = 0
  seen_complete = -1
  seen_extra = 0

  ! A generalized request: completed, then waited for: query_fn fills the status, then
  ! free_fn; both see the extra state.
  extra = 4242
  call MPI_Grequest_start(greq_query, greq_free, greq_cancel, extra, req, ierr)
  call check(ierr == MPI_SUCCESS .and. req /= MPI_REQUEST_NULL, 'MPI_Grequest_start')
  call MPI_Test(req, flag, status, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, 'MPI_Test before MPI_Grequest_complete')
  call MPI_Grequest_complete(req, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Grequest_complete')
  call MPI_Wait(req, status, ierr)
  call check(ierr == MPI_SUCCESS .and. req == MPI_REQUEST_NULL, 'MPI_Wait')
  call check(status(MPI_SOURCE) == 3 .and. status(MPI_TAG) == 77, 'status from query_fn')
  call check(nquery == 1 .and. nfree == 1 .and. ncancel == 0, 'query and free called once')
  call check(seen_extra == 4242, 'extra state seen by the procedures')
  call check(extra == 4241, 'free_fn updated the caller''s EXTRA_STATE')

  ! MPI_CANCEL before completion: cancel_fn with COMPLETE = .false.
  extra2 = 17
  call MPI_Grequest_start(greq_query, greq_free, greq_cancel, extra2, req, ierr)
  call check(ierr == MPI_SUCCESS, 'second MPI_Grequest_start')
  call MPI_Cancel(req, ierr)
  call check(ierr == MPI_SUCCESS .and. ncancel == 1 .and. seen_complete == 0, &
             'cancel_fn called with COMPLETE = .false.')
  call check(seen_extra == 17, 'extra state of the second request')
  call MPI_Grequest_complete(req, ierr)
  call MPI_Wait(req, status, ierr)
  call check(ierr == MPI_SUCCESS .and. nquery == 2 .and. nfree == 2, 'second request done')
  call check(extra2 == 16 .and. extra == 4241, 'each request updates its own EXTRA_STATE')

  ! MPI_INFO_GET_STRING: BUFLEN 0 asks the length and writes nothing; a short BUFLEN writes
  ! that many characters, blank-padded; the length (no NUL) comes back every time.
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'color', 'turquoise', ierr)
  vlen = 0
  version = 'canary'
  call MPI_Info_get_string(info, 'color', vlen, version, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. vlen == 9 .and. version == 'canary', &
             'MPI_Info_get_string with BUFLEN 0')
  vlen = 4
  call MPI_Info_get_string(info, 'color', vlen, version, flag, ierr)
  call check(flag .and. vlen == 9 .and. version == 'turq', 'MPI_Info_get_string, BUFLEN 4')
  vlen = len(version)
  call MPI_Info_get_string(info, 'color', vlen, version, flag, ierr)
  call check(flag .and. vlen == 9 .and. version == 'turquoise', 'MPI_Info_get_string whole')
  vlen = 3
  version = 'canary'
  call MPI_Info_get_string(info, 'shape', vlen, version, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag .and. version == 'canary', &
             'MPI_Info_get_string of a missing key')
  call MPI_Info_free(info, ierr)

  ! MPI_INFO_CREATE_ENV(INFO, IERROR).
  info = MPI_INFO_NULL
  call MPI_Info_create_env(info, ierr)
  call check(ierr == MPI_SUCCESS .and. info /= MPI_INFO_NULL, 'MPI_Info_create_env')
  call MPI_Info_get_nkeys(info, nkeys, ierr)
  call check(ierr == MPI_SUCCESS .and. nkeys >= 0, 'MPI_Info_get_nkeys of the env info')
  call MPI_Info_free(info, ierr)
  call check(ierr == MPI_SUCCESS .and. info == MPI_INFO_NULL, 'MPI_Info_free')

  ! MPI_REGISTER_DATAREP: registered (MPICH), or refused as unsupported (railmpi has no
  ! user-defined representations); either way a clean return.
  rep_extra = 0
  call MPI_Register_datarep('f_greq_rep', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, &
                            rep_extent, rep_extra, ierr)
  if (ierr /= MPI_SUCCESS) then
    call MPI_Error_class(ierr, class, ierr2)
    call check(class == MPI_ERR_UNSUPPORTED_DATAREP, 'MPI_Register_datarep error class')
  end if

  ! MPI_F_SYNC_REG(BUF): no IERROR, nothing changes. (Debian's MPICH 4.0.2 stores
  ! MPI_SUCCESS through a second argument the call does not have, and crashes: railmpi only.)
  call MPI_Get_library_version(version, vlen, ierr)
  if (index(version, 'railmpi') > 0) then
    buf = [1, 2, 3, 4]
    call MPI_F_sync_reg(buf)
    call check(all(buf == [1, 2, 3, 4]), 'MPI_F_sync_reg')
  end if

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a)') 'ok f_greq'
  call MPI_Finalize(ierr)

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_greq: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check
end program f_greq

subroutine greq_query(extra_state, status, ierror)
  implicit none
  include 'mpif.h'
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: status(MPI_STATUS_SIZE), ierror
  integer :: nquery, nfree, ncancel, seen_complete
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra
  common /fgreq/ nquery, nfree, ncancel, seen_complete, seen_extra
  nquery = nquery + 1
  seen_extra = extra_state
  status(MPI_SOURCE) = 3
  status(MPI_TAG) = 77
  call MPI_Status_set_elements(status, MPI_BYTE, 0, ierror)
  call MPI_Status_set_cancelled(status, .false., ierror)
  ierror = MPI_SUCCESS
end subroutine greq_query

subroutine greq_free(extra_state, ierror)
  implicit none
  include 'mpif.h'
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  integer :: ierror
  integer :: nquery, nfree, ncancel, seen_complete
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra
  common /fgreq/ nquery, nfree, ncancel, seen_complete, seen_extra
  nfree = nfree + 1
  seen_extra = extra_state
  extra_state = extra_state - 1
  ierror = MPI_SUCCESS
end subroutine greq_free

subroutine greq_cancel(extra_state, complete, ierror)
  implicit none
  include 'mpif.h'
  integer(kind=MPI_ADDRESS_KIND) :: extra_state
  logical :: complete
  integer :: ierror
  integer :: nquery, nfree, ncancel, seen_complete
  integer(kind=MPI_ADDRESS_KIND) :: seen_extra
  common /fgreq/ nquery, nfree, ncancel, seen_complete, seen_extra
  ncancel = ncancel + 1
  seen_extra = extra_state
  seen_complete = merge(1, 0, complete)
  ierror = MPI_SUCCESS
end subroutine greq_cancel

subroutine rep_extent(datatype, extent, extra_state, ierror)
  implicit none
  include 'mpif.h'
  integer :: datatype, ierror
  integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state, lb
  call MPI_Type_get_extent(datatype, lb, extent, ierror)
end subroutine rep_extent
