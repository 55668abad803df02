! f08_comm: `use mpi_f08`. Communicators and groups: MPI_Comm_split (odd/even, reversed key),
! MPI_Comm_dup and MPI_Comm_compare, MPI_Comm_group / MPI_Group_incl / MPI_Group_translate_ranks
! / MPI_Comm_create, MPI_Comm_set_name / MPI_Comm_get_name, MPI_Cart_create (LOGICAL periods)
! with MPI_Cart_coords and MPI_Cart_shift, MPI_Dist_graph_create_adjacent with MPI_UNWEIGHTED
! (LOGICAL weighted out); attributes: a keyval with f08 copy and delete
! procedures (copied by MPI_Comm_dup, deleted on free, counted), MPI_COMM_DUP_FN and
! MPI_COMM_NULL_COPY_FN, MPI_Comm_get_attr of MPI_TAG_UB; MPI_Info set/get (strings).
program f08_comm
  use mpi_f08
  implicit none
  character(len=*), parameter :: prog = 'f08_comm'
  procedure(MPI_Comm_copy_attr_function) :: copy_plus_one
  procedure(MPI_Comm_delete_attr_function) :: count_delete
  integer :: copies, deletes
  common /f08cnt/ copies, deletes
  integer :: rank, nprocs, srank, ssize, res, namelen, keyval, keyval2, vlen
  integer :: ranks(2), tr(2), coords(1), src, dst, indeg, outdeg
  integer(kind=MPI_ADDRESS_KIND) :: val
  logical :: flag
  type(MPI_Comm) :: split, dup, sub, cart, dup2, graph
  type(MPI_Group) :: world_group, pair
  type(MPI_Info) :: info
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=40) :: value

  copies = 0
  deletes = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)

  ! Split by parity, reversed order.
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, split)
  call MPI_Comm_rank(split, srank)
  call MPI_Comm_size(split, ssize)
  call check(ssize == (nprocs + 1 - mod(rank, 2)) / 2, 'split size')
  call check(srank == ssize - 1 - rank / 2, 'split rank (reversed)')
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_compare(dup, MPI_COMM_WORLD, res)
  call check(res == MPI_CONGRUENT, 'MPI_Comm_compare dup')
  call MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, res)
  call check(res == MPI_IDENT, 'MPI_Comm_compare ident')

  ! Group of ranks {last, 0}; the communicator of it.
  call MPI_Comm_group(MPI_COMM_WORLD, world_group)
  ranks = (/ nprocs - 1, 0 /)
  call MPI_Group_incl(world_group, min(2, nprocs), ranks, pair)
  call MPI_Group_translate_ranks(pair, min(2, nprocs), (/ 0, 1 /), world_group, tr)
  call check(tr(1) == nprocs - 1, 'MPI_Group_translate_ranks')
  if (nprocs > 1) call check(tr(2) == 0, 'MPI_Group_translate_ranks 2')
  call MPI_Comm_create(MPI_COMM_WORLD, pair, sub)
  if (rank == 0 .or. rank == nprocs - 1) then
    call check(sub /= MPI_COMM_NULL, 'MPI_Comm_create member')
    call MPI_Comm_rank(sub, srank)
    call check(srank == merge(0, 1, rank == nprocs - 1), 'MPI_Comm_create rank')
    call MPI_Comm_free(sub)
  else
    call check(sub == MPI_COMM_NULL, 'MPI_Comm_create non-member')
  end if
  call MPI_Group_free(pair)
  call MPI_Group_free(world_group)
  call check(world_group == MPI_GROUP_NULL, 'MPI_Group_free')

  ! Names.
  call MPI_Comm_set_name(dup, 'my duplicate   ')
  call MPI_Comm_get_name(dup, name, namelen)
  call check(namelen == 12 .and. name(1:namelen) == 'my duplicate', 'MPI_Comm_get_name')
  call MPI_Comm_get_name(MPI_COMM_WORLD, name, namelen)
  call check(name(1:namelen) == 'MPI_COMM_WORLD', 'MPI_COMM_WORLD name')

  ! A periodic ring.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, (/ nprocs /), (/ .true. /), .false., cart)
  call MPI_Cart_coords(cart, rank, 1, coords)
  call check(coords(1) == rank, 'MPI_Cart_coords')
  call MPI_Cart_shift(cart, 0, 1, src, dst)
  call check(src == mod(rank - 1 + nprocs, nprocs) .and. dst == mod(rank + 1, nprocs), &
      'MPI_Cart_shift periodic')
  call MPI_Comm_free(cart)

  ! A distributed graph ring without weights (MPI_UNWEIGHTED recognised by address).
  src = mod(rank - 1 + nprocs, nprocs)
  dst = mod(rank + 1, nprocs)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, (/ src /), MPI_UNWEIGHTED, 1, &
      (/ dst /), MPI_UNWEIGHTED, MPI_INFO_NULL, .false., graph)
  call MPI_Dist_graph_neighbors_count(graph, indeg, outdeg, flag)
  call check(indeg == 1 .and. outdeg == 1 .and. .not. flag, 'unweighted dist graph')
  call MPI_Dist_graph_neighbors(graph, 1, ranks(1:1), MPI_UNWEIGHTED, 1, ranks(2:2), &
      MPI_UNWEIGHTED)
  call check(ranks(1) == src .and. ranks(2) == dst, 'MPI_Dist_graph_neighbors')
  call MPI_Comm_free(graph)

  ! Attributes.
  call MPI_Comm_create_keyval(copy_plus_one, count_delete, keyval, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, keyval2, &
      0_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(dup, keyval, 100_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(dup, keyval2, 7_MPI_ADDRESS_KIND)
  call MPI_Comm_get_attr(dup, keyval, val, flag)
  call check(flag .and. val == 100, 'MPI_Comm_get_attr')
  call MPI_Comm_dup(dup, dup2)
  call check(copies == 1, 'copy procedure called once')
  call MPI_Comm_get_attr(dup2, keyval, val, flag)
  call check(flag .and. val == 105, 'attribute copied through the f08 copy procedure')
  call MPI_Comm_get_attr(dup2, keyval2, val, flag)
  call check(.not. flag, 'MPI_COMM_NULL_COPY_FN: not copied')
  call MPI_Comm_free(dup2)
  call check(deletes == 1 .and. dup2 == MPI_COMM_NULL, 'delete procedure on free')
  call MPI_Comm_delete_attr(dup, keyval)
  call check(deletes == 2, 'delete procedure on MPI_Comm_delete_attr')
  call MPI_Comm_get_attr(dup, keyval, val, flag)
  call check(.not. flag, 'attribute deleted')
  call MPI_Comm_free_keyval(keyval)
  call MPI_Comm_free_keyval(keyval2)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB')

  ! Info strings.
  call MPI_Info_create(info)
  call MPI_Info_set(info, 'railmpi_key', 'some value')
  call MPI_Info_get(info, 'railmpi_key', len(value), value, flag)
  call check(flag .and. value == 'some value', 'MPI_Info_get')
  call MPI_Info_get_valuelen(info, 'railmpi_key', vlen, flag)
  call check(flag .and. vlen == 10, 'MPI_Info_get_valuelen')
  call MPI_Info_get(info, 'no such key', len(value), value, flag)
  call check(.not. flag, 'MPI_Info_get absent key')
  call MPI_Info_free(info)
  call check(info == MPI_INFO_NULL, 'MPI_Info_free')

  call MPI_Comm_free(dup)
  call MPI_Comm_free(split)
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) write(*, '(a)') 'ok f08_comm'
  call MPI_Finalize()

contains

  include 'f08_check.inc'
end program f08_comm

! The attribute plus the keyval's extra state.
subroutine copy_plus_one(oldcomm, comm_keyval, extra_state, attribute_val_in, &
    attribute_val_out, flag, ierror)
  use mpi_f08
  implicit none
  type(MPI_Comm) :: oldcomm
  integer :: comm_keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
  logical :: flag
  integer :: copies, deletes
  common /f08cnt/ copies, deletes
  copies = copies + 1
  attribute_val_out = attribute_val_in + extra_state
  flag = .true.
  ierror = MPI_SUCCESS
  if (oldcomm == MPI_COMM_NULL .or. comm_keyval == MPI_KEYVAL_INVALID) ierror = MPI_ERR_OTHER
end subroutine copy_plus_one

subroutine count_delete(comm, comm_keyval, attribute_val, extra_state, ierror)
  use mpi_f08
  implicit none
  type(MPI_Comm) :: comm
  integer :: comm_keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
  integer :: copies, deletes
  common /f08cnt/ copies, deletes
  deletes = deletes + 1
  ierror = MPI_SUCCESS
  if (comm == MPI_COMM_NULL .or. attribute_val < 0 .or. extra_state /= 5 .or. &
      comm_keyval == MPI_KEYVAL_INVALID) ierror = MPI_ERR_OTHER
end subroutine count_delete
