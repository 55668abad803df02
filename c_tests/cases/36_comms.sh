# 36_comms: groups, communicator creation (create, create_group, split_type, idup),
# attributes and their callbacks, info objects, Cartesian and graph topologies, and their
# error classes, for several world sizes (8 ranks oversubscribe a 2-core machine).
# Every program must exit 0 and rank 0 must print its "ok PROG" line.

_ct_comms() {
    local prog=$1 n
    shift
    for n in "$@"; do
        CASE_EXPECT="^ok $prog " run_case "$prog.n$n" 0 $MPIEXEC -n "$n" "$CT/$prog"
    done
}

_ct_comms grp_ops 1 2 3 5 8
_ct_comms grp_comm_create 1 2 3 4 5 8
_ct_comms attr_keyvals 1 2 3
_ct_comms info 1 2
_ct_comms topo_cart 1 2 3 4 6 8
_ct_comms topo_graph 1 2 3 4 7 8
_ct_comms grp_errors 1 2 3 4
# A failing attribute copy callback: the dup returns its code (added codes and classes too).
_ct_comms attr_copy_err 1 2 3
# 72 idups in flight per round from 3 threads, started in a different order on each rank.
_ct_comms idup_orders 2 4
# Creating communicators without freeing them ends in an error on every rank at one call.
_ct_comms comm_limit 1 4

# The same programs built with Debian MPICH's mpicc, run on railmpi swapped in through
# LD_LIBRARY_PATH ($LIB/libmpich.so.12 links to railmpi): MPICH's handle values, callback
# macros (MPI_COMM_DUP_FN = MPIR_Dup_fn) and MPI_UNWEIGHTED/MPI_WEIGHTS_EMPTY symbols.
if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpich.so.12" ]; then
    for prog in grp_ops grp_comm_create attr_keyvals info topo_cart topo_graph grp_errors \
        attr_copy_err; do
        CASE_EXPECT="^ok $prog \[railmpi" run_case "swapin.$prog.n3" 0 \
            env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" $MPIEXEC -n 3 "$CTM/$prog"
    done
fi
