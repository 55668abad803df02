# 37_coll: every collective, blocking and nonblocking, with user operations and error
# classes (c_tests/src/coll_*.c but coll_basic, which 20_pt2pt runs), under $MPIEXEC for
# 1..8 ranks (8 oversubscribe a 2-core machine); with railmpi also 7 and 16 ranks (MPICH
# busy-polls, so 16 ranks on 2 cores would take it minutes per program).
# Every program must exit 0 and rank 0 must print its "ok PROG" line. coll_alias: aliased
# buffers refused at once where only some ranks pass them (MPICH's errors/coll/noalias*).

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
    _ct_coll coll_alias 1 2 3 4
    _ct_coll coll_mixed_types 2 3 4 8
}
# Strided and contiguous ranks in one call with messages cut at a small eager limit: the
# short path sent 2 KiB whole where the schedule sent 512-byte pieces (truncation error).
if [ "$CT_IMPL" = railmpi ]; then
    for _n in 2 3 4 8; do
        CASE_EXPECT='^ok coll_mixed_types ' run_case "coll_mixed_types.eager512.n$_n" 0 \
            env RAILMPI_EAGER_LIMIT=512 $MPIEXEC -n "$_n" "$CT/coll_mixed_types"
    done
fi

# Counts that disagree, under the fatal handler: the message names the size that arrived
# (a truncated Bcast once said "20 bytes, expected 20").
if [ "$CT_IMPL" = railmpi ]; then
    CASE_EXPECT='40 bytes, expected 20 bytes' CASE_FORBID='BUG:' \
        run_case coll_mismatch.bcast nonzero $MPIEXEC -n 2 "$CT/coll_mismatch" bcast
    CASE_EXPECT='16 bytes sent where 8 can be received' CASE_FORBID='BUG:' \
        run_case coll_mismatch.gather nonzero $MPIEXEC -n 2 "$CT/coll_mismatch" gather
fi
