# 98_rail_attacks: a stranger on the network against a job's tcp rail (c_tests/tcp_stranger.py
# runs src/tcp_first.c over RAILMPI_RAILS=tcp on this host and attacks rank 1's port):
# forged Hellos held open before the first messages must not delay them; 1000 held
# connections to a rank limited to 256 descriptors (or out of them) must neither kill the
# job nor flood its log; a replayed Hello for a connected rank is refused with a warning naming the stranger.
# Then, over two namespaces (root), a link that stops answering is reported as unreachable,
# naming the link and the timeout, not as a dead rank.

if [ "$CT_IMPL" != railmpi ] || ! command -v python3 >/dev/null 2>&1; then
    skip_case rail_attacks "needs railmpi and python3"
    return 0
fi
STRANGER="$ROOT/c_tests/tcp_stranger.py"
TCP3="env RAILMPI_RAILS=tcp $MPIEXEC -n 3 $CT/tcp_first"
for mode in hello replay; do
    CASE_TIMEOUT=60 CASE_EXPECT="^stranger: mode=$mode" run_case "attack.$mode" 0 \
        "$STRANGER" "$mode" "$LOGDIR" $TCP3
done
CASE_TIMEOUT=60 CASE_EXPECT="^stranger: mode=flood" run_case attack.flood 0 \
    "$STRANGER" flood "$LOGDIR" sh -c 'ulimit -n 256; exec "$@"' sh $TCP3
# The same against a rank that has used up its descriptors but 4 (TCP_FIRST_FILL): accepts
# fail with EMFILE, and its own dials need the strangers' descriptors.
CASE_TIMEOUT=60 CASE_EXPECT="^stranger: mode=flood" run_case attack.flood_fds 0 \
    "$STRANGER" flood "$LOGDIR" sh -c 'ulimit -n 256; exec "$@"' sh env TCP_FIRST_FILL=4 $TCP3

NETNS=$ROOT/c_tests/netns.sh
if [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1; then
    skip_case attack.unreachable "needs root and ip netns"
    return 0
fi
# The rail on link 1 alone (the launcher's connections stay on link 0); link 1's bridge port
# of host 1 goes down mid-run: neither end sees it, TCP_USER_TIMEOUT does.
netns_up netns_attacks 2 2 || return 0
CASE_TIMEOUT=40 CASE_FORBID="is gone|died or left" \
    CASE_EXPECT="rank [01] on host rmh[01] is unreachable over 10\.78\.0\.1[01]:[0-9]+ -> 10\.78\.0\.1[01]:[0-9]+ \(no answer for 2 s: RAILMPI_TCP_TIMEOUT" \
    run_case attack.unreachable nonzero sh -c "
    (sleep 2; ip link set rmv1l1 down) & $MPIEXEC --launcher $NETNS -hosts 10.77.0.10,10.77.0.11 \
    -ppn 1 -genv RAILMPI_TCP_IFACES eth1 -genv RAILMPI_TCP_TIMEOUT 2000 $CT/rail_loss 20; \
    rc=\$?; wait; exit \$rc"
"$NETNS" down
trap - EXIT
