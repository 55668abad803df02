! requires: mpi_dims_create_ mpi_cart_create_ mpi_cart_coords_ mpi_cart_rank_ mpi_cart_shift_
! requires: mpi_cart_sub_ mpi_cart_get_ mpi_comm_group_ mpi_group_incl_ mpi_group_range_incl_
! requires: mpi_group_translate_ranks_ mpi_group_compare_ mpi_group_free_
! requires: mpi_dist_graph_create_adjacent_ mpi_dist_graph_neighbors_ mpi_info_create_
! requires: mpi_info_set_ mpi_info_get_ mpi_info_get_nkeys_ mpi_info_get_nthkey_ mpi_info_free_
! requires: mpi_cartdim_get_ mpi_dist_graph_neighbors_count_ mpi_info_get_valuelen_
! f_topo: topologies, groups and info objects from Fortran. MPI_Dims_create; a periodic x
! non-periodic Cartesian grid (LOGICAL periods and remain_dims) with coords/rank/shift
! (MPI_PROC_NULL at open edges) and MPI_Cart_sub; groups (incl, range_incl with a (3,n)
! INTEGER array, translate_ranks, compare); a ring as a distributed graph with
! MPI_UNWEIGHTED; info keys and values (CHARACTER in and out, blank handling).
program f_topo
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, dims(2), cart, coords(2), r, src, dst, sub, ssize, srank
  integer :: wgroup, g1, g2, res, ranks(3), tr(3), ranges(3, 1), ring, ind, outd, wt
  integer :: srcs(1), dsts(1), info, nkeys, vlen
  logical :: periods(2), remain(2), flag
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=64) :: value
  integer :: ndims

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  ! Cartesian grid.
  dims = 0
  call MPI_Dims_create(nprocs, 2, dims, ierr)
  call check(dims(1) * dims(2) == nprocs .and. dims(1) >= dims(2), 'MPI_Dims_create')
  periods = (/ .true., .false. /)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call check(ierr == MPI_SUCCESS .and. cart /= MPI_COMM_NULL, 'MPI_Cart_create')
  call MPI_Cartdim_get(cart, ndims, ierr)
  call check(ndims == 2, 'MPI_Cartdim_get')
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call check(coords(1) == rank / dims(2) .and. coords(2) == mod(rank, dims(2)), 'coords')
  call MPI_Cart_rank(cart, coords, r, ierr)
  call check(r == rank, 'MPI_Cart_rank')
  periods = (/ .false., .true. /)
  coords = -1
  call MPI_Cart_get(cart, 2, dims, periods, coords, ierr)
  call check(periods(1) .and. .not. periods(2), 'MPI_Cart_get periods (LOGICAL)')
  ! Shift along the periodic dimension wraps; along the other, MPI_PROC_NULL at the edges.
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  call check(dst == mod(coords(1) + 1, dims(1)) * dims(2) + coords(2), 'periodic shift dest')
  call check(src == mod(coords(1) - 1 + dims(1), dims(1)) * dims(2) + coords(2), &
             'periodic shift source')
  call MPI_Cart_shift(cart, 1, 1, src, dst, ierr)
  if (coords(2) == dims(2) - 1) then
    call check(dst == MPI_PROC_NULL, 'open edge: MPI_PROC_NULL')
  else
    call check(dst == rank + 1, 'shift dest')
  end if
  if (coords(2) == 0) call check(src == MPI_PROC_NULL, 'open edge: MPI_PROC_NULL source')
  ! Rows: keep dimension 1.
  remain = (/ .false., .true. /)
  call MPI_Cart_sub(cart, remain, sub, ierr)
  call MPI_Comm_size(sub, ssize, ierr)
  call MPI_Comm_rank(sub, srank, ierr)
  call check(ssize == dims(2) .and. srank == coords(2), 'MPI_Cart_sub')
  call MPI_Comm_free(sub, ierr)
  call MPI_Comm_free(cart, ierr)

  ! Groups.
  call MPI_Comm_group(MPI_COMM_WORLD, wgroup, ierr)
  ranks = (/ nprocs - 1, 0, nprocs / 2 /)
  call MPI_Group_incl(wgroup, 1, ranks, g1, ierr)
  call MPI_Group_translate_ranks(g1, 1, (/ 0 /), wgroup, tr, ierr)
  call check(tr(1) == nprocs - 1, 'MPI_Group_translate_ranks')
  ! Every rank from last to first: range (nprocs-1, 0, -1).
  ranges(:, 1) = (/ nprocs - 1, 0, -1 /)
  call MPI_Group_range_incl(wgroup, 1, ranges, g2, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Group_range_incl')
  call MPI_Group_translate_ranks(wgroup, 1, (/ rank /), g2, tr, ierr)
  call check(tr(1) == nprocs - 1 - rank, 'reversed group')
  call MPI_Group_compare(g2, wgroup, res, ierr)
  if (nprocs == 1) then
    call check(res == MPI_IDENT, 'MPI_Group_compare (one rank)')
  else
    call check(res == MPI_SIMILAR, 'MPI_Group_compare: MPI_SIMILAR')
  end if
  call MPI_Group_free(g1, ierr)
  call MPI_Group_free(g2, ierr)
  call check(g2 == MPI_GROUP_NULL, 'MPI_Group_free')
  call MPI_Group_free(wgroup, ierr)

  ! A ring as a distributed graph, unweighted.
  srcs(1) = mod(rank + nprocs - 1, nprocs)
  dsts(1) = mod(rank + 1, nprocs)
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, srcs, MPI_UNWEIGHTED, 1, dsts, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., ring, ierr)
  call check(ierr == MPI_SUCCESS .and. ring /= MPI_COMM_NULL, 'dist graph with MPI_UNWEIGHTED')
  call MPI_Dist_graph_neighbors_count(ring, ind, outd, flag, ierr)
  call check(ind == 1 .and. outd == 1 .and. .not. flag, 'neighbors count, unweighted')
  srcs = -1
  dsts = -1
  wt = 0
  call MPI_Dist_graph_neighbors(ring, 1, srcs, (/ wt /), 1, dsts, (/ wt /), ierr)
  call check(srcs(1) == mod(rank + nprocs - 1, nprocs) .and. dsts(1) == mod(rank + 1, nprocs), &
             'MPI_Dist_graph_neighbors')
  call MPI_Comm_free(ring, ierr)

  ! Info: blanks around keys and values are not significant.
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'railmpi_key ', '  some value  ', ierr)
  call MPI_Info_set(info, 'second', 'x', ierr)
  call MPI_Info_get_nkeys(info, nkeys, ierr)
  call check(nkeys == 2, 'MPI_Info_get_nkeys')
  value = '#'
  call MPI_Info_get(info, 'railmpi_key', len(value), value, flag, ierr)
  call check(flag .and. value == 'some value', 'MPI_Info_get')
  call MPI_Info_get_valuelen(info, 'railmpi_key', vlen, flag, ierr)
  call check(flag .and. vlen == 10, 'MPI_Info_get_valuelen')
  value = 'unchanged'
  call MPI_Info_get(info, 'missing', len(value), value, flag, ierr)
  call check(.not. flag .and. value == 'unchanged', 'missing key leaves the value')
  call MPI_Info_get_nthkey(info, 1, key, ierr)
  call check(key == 'second', 'MPI_Info_get_nthkey (0-based n)')
  call MPI_Info_free(info, ierr)
  call check(info == MPI_INFO_NULL, 'MPI_Info_free')

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) write(*, '(a)') 'ok f_topo'
  call MPI_Finalize(ierr)

contains

  subroutine check(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      write(0, *) 'f_topo: rank', rank, ': check failed: ', what
      error stop 1
    end if
  end subroutine check
end program f_topo
