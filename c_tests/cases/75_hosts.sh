# 75_hosts: ranks on several hosts — network namespaces with their own host names, joined by
# a bridge (c_tests/netns.sh) — so the tcp rail carries what crosses hosts and shm what stays
# on one: 2 hosts x 2 ranks and 4 hosts x 1 rank under MPICH's Hydra (rsh launcher through
# netns.sh), every byte checked by the programs. Plus tcp alone on one host (RAILMPI_RAILS=tcp)
# under our mpiexec. Needs root (namespaces), otherwise skipped.

NETNS=$ROOT/c_tests/netns.sh
if [ "$CT_IMPL" != railmpi ] || [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1 ||
    ! command -v "${HYDRA%% *}" >/dev/null 2>&1; then
    skip_case hosts "needs root, ip netns and $HYDRA"
    return 0
fi

# tcp alone, one host: the rail by itself, lazy and eager connections.
# RMA: windows reach each other's control blocks and allocated memory under keys, by rail
# atomics, reads and writes, as across hosts.
for prog in ring allpairs wildcard coll_basic coll_nb dtype_p2p large rma_ops rma_passive \
    rma_atomics rma_pscw rma_dynamic rma_dtypes rma_mixed; do
    CASE_EXPECT="^ok $prog " run_case "tcp_only.$prog.n3" 0 \
        env RAILMPI_RAILS=tcp $MPIEXEC -n 3 "$CT/$prog"
done
CASE_EXPECT="^ok allpairs " run_case tcp_only.eager.allpairs.n4 0 \
    env RAILMPI_RAILS=tcp RAILMPI_TCP_CONNECT=eager $MPIEXEC -n 4 "$CT/allpairs"

if ! "$NETNS" up 4 >"$LOGDIR/netns_up.log" 2>&1; then
    _ct_fail netns_up "cannot create the namespaces" "$LOGDIR/netns_up.log"
    "$NETNS" down
    return 0
fi
trap '"$NETNS" down' EXIT

_ct_hosts() {
    local prog=$1 hosts=$2 ppn=$3 nh
    nh=$(echo "$hosts" | tr ',' '\n' | wc -l)
    CASE_EXPECT="^ok $prog " run_case "hosts.$prog.${nh}x$ppn" 0 \
        $HYDRA -iface rmbr0 -launcher rsh -launcher-exec "$NETNS" \
        -hosts "$hosts" -ppn "$ppn" -n "$((nh * ppn))" "$CT/$prog"
}
H2=10.77.0.10,10.77.0.11
H4=10.77.0.10,10.77.0.11,10.77.0.12,10.77.0.13
# RMA with targets on the other host: passive target served by its progress thread while it
# computes; a shared window over both hosts refused (rma_errors), one per host works
# (rma_shared).
for prog in hello ring allpairs wildcard probe ssend coll_basic coll_nb coll_reduce \
    dtype_p2p large comm rma_ops rma_passive rma_atomics rma_pscw rma_dynamic rma_dtypes \
    rma_mixed rma_errors rma_shared; do
    _ct_hosts "$prog" "$H2" 2
done
for prog in hello allpairs coll_basic alltoall_pairs large; do
    _ct_hosts "$prog" "$H4" 1
done

"$NETNS" down
trap - EXIT
