# 39_mpi_misc: the small calls real programs link (added error classes and codes,
# MPI_Pcontrol, datatype attributes, external32 packing, f90 types, MPI-4 info calls and
# persistent collectives) and the reduction operation x type table of MPI-3.1 §5.9.2. Every program must exit 0 and rank 0
# must print its "ok PROG" line; also built with MPICH's mpicc and swapped in.

_ct_misc() {
    local prog=$1 n
    shift
    for n in "$@"; do
        CASE_EXPECT="^ok $prog " run_case "$prog.n$n" 0 $MPIEXEC -n "$n" "$CT/$prog"
    done
}

_ct_misc mpi_misc 1 2
_ct_misc op_table 1 2 3 5
_ct_misc persistent_coll 1 2 3 4 7
# Arrays freed right after the _init (mpi4py's are temporaries): copied there.
_ct_misc persistent_coll_arrays 1 2 3 4 5
# MPI-4 sessions, and the World model beside them in one process.
_ct_misc sessions 2 5
# The Sessions model alone: the runtime outlives the last MPI_Session_finalize and ends at
# the process's exit, where the launcher must see every rank finalize.
_ct_misc session_only 1 4
# Sessions again after all earlier ones were finalised, MPI_GROUP_EMPTY's MPI_COMM_NULL,
# an invalid thread_level, MPI_Init after sessions and sessions after MPI_Finalize; over
# tcp too (a rank that left without its goodbye would be fatal to the others; under
# Hydra: 70_hydra).
_ct_misc session_reinit 1 2 4
CASE_EXPECT="^ok session_reinit " run_case session_reinit.n3.tcp 0 \
    env RAILMPI_RAILS=tcp $MPIEXEC -n 3 "$CT/session_reinit"
if [ "$CT_IMPL" = railmpi ]; then
    # A rank that exits with an error after its last session ends the job at once, with its
    # status: it does not wait at exit for peers that wait for it.
    CASE_TIMEOUT=15 CASE_EXPECT='rank 0 exits with status 1' CASE_FORBID='BUG:' \
        run_case session_reinit.exit1.n3 1 $MPIEXEC -n 3 "$CT/session_reinit" exit1
fi
# The tool interface (MPI_T): control and performance variables, categories, over shm and tcp.
_ct_misc mpi_t 1 2 3
CASE_EXPECT="^ok mpi_t " run_case mpi_t.n2.tcp 0 env RAILMPI_RAILS=tcp $MPIEXEC -n 2 "$CT/mpi_t"

if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpich.so.12" ]; then
    for prog in mpi_misc op_table persistent_coll persistent_coll_arrays sessions session_only \
        session_reinit mpi_t; do
        CASE_EXPECT="^ok $prog \[railmpi" run_case "swapin.$prog.n3" 0 \
            env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" $MPIEXEC -n 3 "$CTM/$prog"
    done
fi
