# 37_coll: every collective, blocking and nonblocking, with user operations and error
# classes (c_tests/src/coll_*.c but coll_basic, which 20_pt2pt runs), under $MPIEXEC for
# 1..8 ranks (8 oversubscribe a 2-core machine); with railmpi also 7 and 16 ranks (MPICH
# busy-polls, so 16 ranks on 2 cores would take it minutes per program).
# Every program must exit 0 and rank 0 must print its "ok PROG" line.

_ct_coll() {
    local prog=$1 n
    shift
    for n in "$@"; do
        CASE_EXPECT="^ok $prog " run_case "$prog.n$n" 0 $MPIEXEC -n "$n" "$CT/$prog"
    done
}

_ct_coll_more=""
[ "${CT_IMPL:-railmpi}" = railmpi ] && _ct_coll_more="7 16"

# shellcheck disable=SC2086
{
    _ct_coll coll_reduce 1 2 3 4 5 8 $_ct_coll_more
    _ct_coll coll_move 1 2 3 4 5 8 $_ct_coll_more
    _ct_coll coll_nb 1 2 3 4 5 8 $_ct_coll_more
    _ct_coll coll_neighbor 1 2 3 4 5 8 $_ct_coll_more
    _ct_coll coll_errors 1 2 3 4
}
