# 38_intercomm: intercommunicators (MPI-3.1 §6.6, §5.2.2) built from MPI_COMM_WORLD the
# ways MPICH's test suite builds them (even/odd, lower/upper halves, one against the rest;
# leaders other than local rank 0; uneven sizes): creation, merge, queries, point-to-point,
# every collective, dup/split/create, attributes and their error classes, at 2, 3, 4, 5
# and 7 ranks (7 oversubscribes a 2-core machine). Every program must exit 0 and rank 0
# must print its "ok PROG" line.

_ct_inter() {
    local prog=$1 n
    shift
    for n in "$@"; do
        CASE_EXPECT="^ok $prog " run_case "$prog.n$n" 0 $MPIEXEC -n "$n" "$CT/$prog"
    done
}

_ct_inter_progs="intercomm_create intercomm_coll intercomm_ops"
for prog in $_ct_inter_progs; do
    _ct_inter "$prog" 2 3 4 5 7
done

# The same programs built with Debian MPICH's mpicc, run on railmpi swapped in through
# LD_LIBRARY_PATH ($LIB/libmpich.so.12 links to railmpi): MPICH's handle values.
if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpich.so.12" ]; then
    for prog in $_ct_inter_progs; do
        for n in 3 4; do
            CASE_EXPECT="^ok $prog \[railmpi" run_case "swapin.$prog.n$n" 0 \
                env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" $MPIEXEC -n "$n" "$CTM/$prog"
        done
    done
fi
