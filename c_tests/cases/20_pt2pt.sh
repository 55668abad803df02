# 20_pt2pt: point-to-point, communicators, basic collectives and queries under $MPIEXEC,
# for several world sizes (8 ranks oversubscribe a 2-core machine).
# Every program must exit 0 and rank 0 must print its "ok PROG" line.

_ct_sizes() {
    local prog=$1 n
    shift
    for n in "$@"; do
        CASE_EXPECT="^ok $prog " run_case "$prog.n$n" 0 $MPIEXEC -n "$n" "$CT/$prog"
    done
}

_ct_sizes hello 1 2 4
_ct_sizes ring 1 2 3 4 8
_ct_sizes allpairs 2 3 4 8
_ct_sizes wildcard 2 3 4 8
_ct_sizes probe 1 2 3 4
_ct_sizes truncate 2 3
_ct_sizes selfsend 1 2
_ct_sizes persistent 1 2 3 4
_ct_sizes ssend 2
_ct_sizes cancel 1 2 3
_ct_sizes waitsome 1 2 3 4
_ct_sizes comm 1 2 3 4 8
_ct_sizes coll_basic 1 2 3 4 8
_ct_sizes attrs 1 2
_ct_sizes reqfree 1 2 3
_ct_sizes persistent_typefree 1 2
