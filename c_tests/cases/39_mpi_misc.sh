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
# The Sessions model alone: the last MPI_Session_finalize ends the library.
_ct_misc session_only 1 4
# The tool interface (MPI_T): control and performance variables, categories, over shm and tcp.
_ct_misc mpi_t 1 2 3
CASE_EXPECT="^ok mpi_t " run_case mpi_t.n2.tcp 0 env RAILMPI_RAILS=tcp $MPIEXEC -n 2 "$CT/mpi_t"

if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpich.so.12" ]; then
    for prog in mpi_misc op_table persistent_coll persistent_coll_arrays sessions session_only mpi_t; do
        CASE_EXPECT="^ok $prog \[railmpi" run_case "swapin.$prog.n3" 0 \
            env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" $MPIEXEC -n 3 "$CTM/$prog"
    done
fi
