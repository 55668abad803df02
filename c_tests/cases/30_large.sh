# 30_large: 64 MiB messages (and large counts: see the end), with the default shared-memory settings and with railmpi's
# single-copy (CMA) path switched off so the copy-through-shared-memory path is used
# (RAILMPI_SHM_CMA is railmpi-specific; other libraries ignore it).

CASE_EXPECT='^ok large ' run_case large.n2 0 $MPIEXEC -n 2 "$CT/large"
CASE_EXPECT='^ok large ' run_case large.n2.nocma 0 env RAILMPI_SHM_CMA=0 $MPIEXEC -n 2 "$CT/large"
CASE_EXPECT='^ok large ' run_case large.n3 0 $MPIEXEC -n 3 "$CT/large"

# Large counts (MPI-4's `_c` calls): a message of 3 GiB + 24 elements of MPI_BYTE (past
# 2^31) with every byte checked, every other point-to-point `_c` call with small counts,
# negative MPI_Counts refused, and MPI-4.1's status and request accessors; at 3 ranks
# without the big message. The MPICH-built program (Debian's MPICH 4.0.2 has the `_c`
# calls) on railmpi swapped in: the large-count symbols of the MPICH ABI.
CASE_EXPECT='^ok large_count ' run_case large_count.n2 0 $MPIEXEC -n 2 "$CT/large_count"
CASE_EXPECT='^ok large_count ' run_case large_count.n3 0 \
    env LARGE_COUNT_BYTES=0 $MPIEXEC -n 3 "$CT/large_count"
if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpich.so.12" ]; then
    CASE_EXPECT='^ok large_count \[railmpi' run_case swapin.large_count.n2 0 \
        env LARGE_COUNT_BYTES=0 "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        $MPIEXEC -n 2 "$CTM/large_count"
fi

# The large-count forms of the collectives that move blocks (gather, scatter, allgather,
# alltoall, v and w forms, reduce_scatter, neighbourhood), blocking, nonblocking and
# persistent, data checked at every rank; displacements past 2^31. The MPICH-built program
# swapped in as well.
CASE_EXPECT='^ok large_count_coll ' run_case large_count_coll.n2 0 \
    $MPIEXEC -n 2 "$CT/large_count_coll"
CASE_EXPECT='^ok large_count_coll ' run_case large_count_coll.n5 0 \
    $MPIEXEC -n 5 "$CT/large_count_coll"
if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpich.so.12" ]; then
    CASE_EXPECT='^ok large_count_coll \[railmpi' run_case swapin.large_count_coll.n3 0 \
        env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        $MPIEXEC -n 3 "$CTM/large_count_coll"
fi

# The large-count forms of one-sided communication: windows made by the `_c` calls
# (MPI_Aint displacement units, MPI_Win_shared_query_c), every communication call's `_c`
# form in fence and passive-target epochs, data checked; a target displacement past 2^31.
CASE_EXPECT='^ok large_count_rma ' run_case large_count_rma.n2 0 \
    $MPIEXEC -n 2 "$CT/large_count_rma"
CASE_EXPECT='^ok large_count_rma ' run_case large_count_rma.n3.tcp 0 \
    env RAILMPI_RAILS=tcp $MPIEXEC -n 3 "$CT/large_count_rma"
if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpich.so.12" ]; then
    CASE_EXPECT='^ok large_count_rma \[railmpi' run_case swapin.large_count_rma.n2 0 \
        env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        $MPIEXEC -n 2 "$CTM/large_count_rma"
fi
