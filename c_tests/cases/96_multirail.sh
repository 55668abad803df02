# 96_multirail: two hosts (network namespaces) joined by two links (and once by three), so
# that each rank on one host reaches each rank on the other over several tcp rails: every
# striping policy and every message policy with every byte checked (stripes.c: sizes around
# each threshold, many in flight, strided, a numbered MPI_ANY_TAG stream, put/get), links of
# different speeds (tc tbf), one link delayed (netem: ordering under round robin), several
# connections on one link. Needs root (namespaces), otherwise skipped.

NETNS=$ROOT/c_tests/netns.sh
if [ "$CT_IMPL" != railmpi ] || [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1 ||
    ! command -v tc >/dev/null 2>&1; then
    skip_case multirail "needs root, ip netns and tc"
    return 0
fi
netns_up netns_multirail 2 2 || return 0

H2=10.77.0.10,10.77.0.11
MR="$MPIEXEC --launcher $NETNS -hosts $H2 -ppn 2 -genv RAILMPI_TCP_IFACES eth0,eth1"
# Stripe from 64 KiB on, so that every size around the thresholds crosses it.
LOW="-genv RAILMPI_STRIPING_THRESHOLD 65536"

for striping in even weighted:3,1 adaptive adaptive:1; do
    CASE_EXPECT="^ok stripes " run_case "mr.striping.$striping" 0 \
        $MR $LOW -genv RAILMPI_STRIPING "$striping" "$CT/stripes"
done
for sched in binding round-robin weighted-rr window-rr:3; do
    for prog in stripes wildcard ring allpairs coll_basic; do
        CASE_EXPECT="^ok $prog " run_case "mr.sched.$sched.$prog" 0 \
            $MR $LOW -genv RAILMPI_SCHED "$sched" "$CT/$prog"
    done
done
# Every rendezvous protocol's RDMA is striped (RGET is the default towards network peers).
for rndv in get put pipeline pipeline-cached; do
    CASE_EXPECT="^ok stripes " run_case "mr.rndv.$rndv" 0 \
        $MR $LOW -genv RAILMPI_RNDV_PROTOCOL "$rndv" "$CT/stripes"
done
for prog in rma_ops rma_passive rma_dtypes large dtype_p2p; do
    CASE_EXPECT="^ok $prog " run_case "mr.default.$prog" 0 $MR $LOW "$CT/$prog"
done
# Several connections on one link: two subchannels over eth0.
CASE_EXPECT="^ok stripes " run_case mr.conns2 0 \
    $MPIEXEC --launcher "$NETNS" -hosts "$H2" -ppn 2 -genv RAILMPI_TCP_IFACES eth0 \
    -genv RAILMPI_TCP_CONNS_PER_IFACE 2 $LOW "$CT/stripes"
# The statistics name both subchannels and the weights.
CASE_EXPECT="multirail to rank 0: rail 1 \(tcp\): [0-9]+ messages, [1-9][0-9]* stripes.*weight" \
    run_case mr.stats 0 $MR $LOW -genv RAILMPI_STATS 1 "$CT/stripes"

# Links of different speeds (400 and 100 Mbit/s): adaptive striping still delivers every byte.
"$NETNS" shape 0 tbf rate 400mbit burst 256kb latency 100ms &&
    "$NETNS" shape 1 tbf rate 100mbit burst 256kb latency 100ms
for striping in adaptive even; do
    CASE_TIMEOUT=120 CASE_EXPECT="^ok stripes " run_case "mr.shaped.$striping" 0 \
        $MR $LOW -genv RAILMPI_STRIPING "$striping" "$CT/stripes"
done
# One link 5 ms slower: round robin sends consecutive messages over both; the receiver's
# sequence numbers keep MPI's order.
"$NETNS" shape 0 none
"$NETNS" shape 1 netem delay 5ms
for prog in stripes wildcard probe; do
    CASE_TIMEOUT=120 CASE_EXPECT="^ok $prog " run_case "mr.delayed.$prog" 0 \
        $MR $LOW -genv RAILMPI_SCHED round-robin "$CT/$prog"
done
"$NETNS" shape 1 none

# A link that fails mid-run (its device taken down on one host, or its bridge port, which
# neither end sees: TCP_USER_TIMEOUT finds it): the channel carries on over the other link,
# failed transfers go again and logged messages are sent again; every byte checked.
for where in "ip -n rmh1 link set eth1 down" "ip link set rmv1l1 down"; do
    tag=$( [ "${where#ip -n}" != "$where" ] && echo device || echo bridge )
    CASE_TIMEOUT=60 CASE_EXPECT="rail 2 \(tcp\) to rank [01] failed" \
        CASE_FORBID="CHECK|fatal" run_case "mr.link_down.$tag" 0 sh -c "
        (sleep 2; $where) & $MPIEXEC --launcher $NETNS -hosts $H2 -ppn 1 \
        -genv RAILMPI_TCP_IFACES eth0,eth1 -genv RAILMPI_TCP_TIMEOUT 2000 $CT/rail_loss 6; \
        rc=\$?; wait; exit \$rc"
    LINKS=2 "$NETNS" up 2 >>"$LOGDIR/netns_multirail.log" 2>&1
done

# Fail over soon, then ride out: with RAILMPI_TCP_FAILOVER_TIMEOUT 2 s and RAILMPI_TCP_TIMEOUT
# 20 s, link 1 failing (t = 2 s) is given up after 2 s and the channel carries on over link
# 0, which now has the last link's timeout: link 0 down for 4 s (t = 8 to 12 s) is ridden out.
CASE_TIMEOUT=60 CASE_EXPECT="rail 2 \(tcp\) to rank [01] failed .*no answer for 2 s: RAILMPI_TCP_FAILOVER_TIMEOUT" \
    CASE_FORBID="CHECK|fatal" run_case mr.failover_then_ride_out 0 sh -c "
    (sleep 2; ip link set rmv1l1 down; sleep 6; ip link set rmv1 down; sleep 4;
     ip link set rmv1 up) & $MPIEXEC --launcher $NETNS -hosts $H2 -ppn 1 \
    -genv RAILMPI_TCP_IFACES eth0,eth1 -genv RAILMPI_TCP_TIMEOUT 20000 \
    -genv RAILMPI_TCP_FAILOVER_TIMEOUT 2000 $CT/rail_loss 15; rc=\$?; wait; exit \$rc"
LINKS=2 "$NETNS" up 2 >>"$LOGDIR/netns_multirail.log" 2>&1

# Three links.
if LINKS=3 "$NETNS" up 2 >"$LOGDIR/netns_mr3.log" 2>&1; then
    CASE_EXPECT="^ok stripes " run_case mr.three_links 0 \
        $MPIEXEC --launcher "$NETNS" -hosts "$H2" -ppn 1 \
        -genv RAILMPI_TCP_IFACES eth0,eth1,eth2 $LOW "$CT/stripes"
else
    _ct_fail netns_three_links "cannot create three links" "$LOGDIR/netns_mr3.log"
fi
"$NETNS" down
trap - EXIT
