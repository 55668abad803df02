! requires: mpi_comm_create_keyval_ mpi_comm_free_keyval_ mpi_comm_set_attr_ mpi_comm_get_attr_
! requires: mpi_comm_delete_attr_ mpi_keyval_create_ mpi_attr_put_ mpi_attr_get_
! f_attr: attributes from Fortran. Keyvals with Fortran copy and delete procedures (called by
! the library with Fortran's conventions: arguments by reference, INTEGER(KIND=
! MPI_ADDRESS_KIND) values, a LOGICAL flag), with the predefined MPI_COMM_DUP_FN and
! MPI_COMM_NULL_COPY_FN / MPI_COMM_NULL_DELETE_FN, and the MPI-1 calls (MPI_KEYVAL_CREATE,
! MPI_ATTR_PUT/GET with INTEGER values, MPI_DUP_FN); predefined attributes (MPI_TAG_UB).
! Across languages (MPI-3.1 §17.2.7, as MPICH): C's MPI_Comm_get_attr of a value Fortran set
! gets the value's address, Fortran's get of a value C set gets the C word.
program f_attr
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, kv_user, kv_dup, kv_null, kv_old, dup, dup2
  ! Extra states stay unchanged: MPICH passes the procedures a reference to the variable.
  integer(kind=MPI_ADDRESS_KIND) :: val, extra, extra0
  integer :: ival
  logical :: flag
  integer :: ncopies, ndeletes
  common /fattr/ ncopies, ndeletes
  external :: my_copy, my_delete

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  ncopies = 0
  ndeletes = 0

  extra = 1000
  call MPI_Comm_create_keyval(my_copy, my_delete, kv_user, extra, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Comm_create_keyval (Fortran procedures)')
  extra0 = 0
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kv_dup, extra0, ierr)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, kv_null, extra0, &
                              ierr)
  call MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, kv_old, 0, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Keyval_create')

  ! A value wider than 32 bits survives in an ADDRESS_KIND attribute.
  val = 5_MPI_ADDRESS_KIND * 2_MPI_ADDRESS_KIND**33 + rank
  call MPI_Comm_set_attr(MPI_COMM_WORLD, kv_user, val, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, kv_dup, val + 1, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, kv_null, val + 2, ierr)
  call MPI_Attr_put(MPI_COMM_WORLD, kv_old, 4242 + rank, ierr)

  val = -1
  flag = .false.
  call MPI_Comm_get_attr(MPI_COMM_WORLD, kv_user, val, flag, ierr)
  call check(flag .and. val == 5_MPI_ADDRESS_KIND * 2_MPI_ADDRESS_KIND**33 + rank, 'get_attr')
  ival = -1
  call MPI_Attr_get(MPI_COMM_WORLD, kv_old, ival, flag, ierr)
  call check(flag .and. ival == 4242 + rank, 'MPI_Attr_get (INTEGER value)')

  ! Dup: my_copy adds the extra state (1000); MPI_COMM_DUP_FN copies; NULL_COPY does not.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call check(ncopies == 1, 'the Fortran copy procedure ran once')
  call MPI_Comm_get_attr(dup, kv_user, val, flag, ierr)
  call check(flag .and. val == 5_MPI_ADDRESS_KIND * 2_MPI_ADDRESS_KIND**33 + rank + 1000, &
             'copied by my_copy')
  call MPI_Comm_get_attr(dup, kv_dup, val, flag, ierr)
  call check(flag .and. val == 5_MPI_ADDRESS_KIND * 2_MPI_ADDRESS_KIND**33 + rank + 1, &
             'copied by MPI_COMM_DUP_FN')
  ! Only where C's handles are Fortran's INTEGERs: MPICH's ABI (a status of 5 INTEGERs). In
  ! the standard ABI (8) they are pointers, and this program may run over libmpifort_abi.
  if (MPI_STATUS_SIZE == 5) then
    call c_view(dup, kv_dup, 5_MPI_ADDRESS_KIND * 2_MPI_ADDRESS_KIND**33 + rank + 1)
  end if
  call MPI_Comm_get_attr(dup, kv_null, val, flag, ierr)
  call check(.not. flag, 'not copied by MPI_COMM_NULL_COPY_FN')
  call MPI_Attr_get(dup, kv_old, ival, flag, ierr)
  call check(flag .and. ival == 4242 + rank, 'copied by MPI_DUP_FN')

  ! Dup of the dup, then deletes: my_delete counts, and sees the value.
  call MPI_Comm_dup(dup, dup2, ierr)
  call check(ncopies == 2, 'copy procedure ran for the second dup')
  call MPI_Comm_delete_attr(dup2, kv_user, ierr)
  call check(ierr == MPI_SUCCESS .and. ndeletes == 1, 'delete procedure ran on delete_attr')
  call MPI_Comm_get_attr(dup2, kv_user, val, flag, ierr)
  call check(.not. flag, 'deleted')
  call MPI_Comm_free(dup2, ierr)
  call check(ndeletes == 1, 'nothing left to delete on dup2')
  call MPI_Comm_free(dup, ierr)
  call check(ndeletes == 2, 'delete procedure ran when dup was freed')

  ! Predefined attribute.
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB')
  call MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, ival, flag, ierr)
  call check(flag .and. ival == val, 'MPI_TAG_UB through MPI_Attr_get')

  call MPI_Comm_delete_attr(MPI_COMM_WORLD, kv_user, ierr)
  call check(ndeletes == 3, 'delete on MPI_COMM_WORLD')
  call MPI_Comm_free_keyval(kv_user, ierr)
  call check(kv_user == MPI_KEYVAL_INVALID, 'MPI_Comm_free_keyval')
  call MPI_Comm_free_keyval(kv_dup, ierr)
  call MPI_Comm_free_keyval(kv_null, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a)') 'ok f_attr'
  call MPI_Finalize(ierr)

contains

  ! C's view of attribute `key` on `comm`, set from Fortran to `want`; then a value set
  ! from C, read back from Fortran. (C's handles are Fortran's in MPICH's ABI.)
  subroutine c_view(comm, key, want)
    use iso_c_binding, only: c_int, c_intptr_t, c_ptr, c_f_pointer
    integer, intent(in) :: comm, key
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: want
    interface
      function c_get(comm, key, val, flag) bind(C, name='MPI_Comm_get_attr') result(rc)
        import :: c_int, c_ptr
        integer(c_int), value :: comm, key
        type(c_ptr) :: val
        integer(c_int) :: flag
        integer(c_int) :: rc
      end function c_get
      function c_set(comm, key, val) bind(C, name='MPI_Comm_set_attr') result(rc)
        import :: c_int, c_intptr_t
        integer(c_int), value :: comm, key
        integer(c_intptr_t), value :: val
        integer(c_int) :: rc
      end function c_set
    end interface
    type(c_ptr) :: p
    integer(c_int) :: cflag
    integer(kind=MPI_ADDRESS_KIND), pointer :: v
    integer(kind=MPI_ADDRESS_KIND) :: got
    logical :: f
    call check(c_get(comm, key, p, cflag) == MPI_SUCCESS .and. cflag /= 0, &
               'C get of a Fortran-set attribute')
    call c_f_pointer(p, v)
    call check(v == want, 'C gets the address of the value Fortran set')
    call check(c_set(comm, key, 4711_c_intptr_t) == MPI_SUCCESS, 'C set of the attribute')
    call MPI_Comm_get_attr(comm, key, got, f, ierr)
    call check(f .and. got == 4711, 'Fortran get of the value C set')
  end subroutine c_view

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_attr: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check
end program f_attr

! COMM_COPY_ATTR_FUNCTION: copies value + extra state.
subroutine my_copy(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, &
                   ierror)
  use mpi
  implicit none
  integer :: oldcomm, keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
  logical :: flag
  integer :: ncopies, ndeletes
  common /fattr/ ncopies, ndeletes
  ncopies = ncopies + 1
  attribute_val_out = attribute_val_in + extra_state
  flag = .true.
  ierror = MPI_SUCCESS
end subroutine my_copy

! COMM_DELETE_ATTR_FUNCTION: counts.
subroutine my_delete(comm, keyval, attribute_val, extra_state, ierror)
  use mpi
  implicit none
  integer :: comm, keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
  integer :: ncopies, ndeletes
  common /fattr/ ncopies, ndeletes
  if (extra_state /= 1000 .or. attribute_val < 5_MPI_ADDRESS_KIND * 2_MPI_ADDRESS_KIND**33) then
    write(0, *) 'f_attr: my_delete got extra_state', extra_state, 'value', attribute_val
    error stop 1
  end if
  ndeletes = ndeletes + 1
  ierror = MPI_SUCCESS
end subroutine my_delete
