# 97_launcher_attacks: our mpiexec across hosts (network namespaces, c_tests/netns.sh) under
# attack and over failing links (c_tests/launcher_attack.py drives each case, prints what
# it saw and "verdict: ok", and exits 0, when the job behaved):
# - idle connections to mpiexec's listening port from another user (nobody) change nothing:
#   the ranks' lines come when they do undisturbed, the job ends as fast with status 0, a
#   rank SIGKILLed meanwhile ends the job with 137 within 3 s, and the warnings are few;
# - a flood of 500 connections while mpiexec is short of descriptors (prlimit): the job
#   ends normally, a handful of warning lines, no spin;
# - a host's link down for longer than RAILMPI_TCP_TIMEOUT while the job is quiet ends the
#   job (naming the host, "unreachable") within the timeout and a few seconds, nothing
#   left running; one down for 1 s under a 5 s timeout while MPI traffic crosses it does
#   not disturb the job.
# Needs root (namespaces) and setpriv, otherwise skipped.

NETNS=$ROOT/c_tests/netns.sh
ATTACK="python3 $ROOT/c_tests/launcher_attack.py"
if [ "$CT_IMPL" != railmpi ] || [ "$(id -u)" != 0 ] || ! ip netns list >/dev/null 2>&1 ||
    ! command -v setpriv >/dev/null 2>&1 || ! id nobody >/dev/null 2>&1; then
    skip_case launcher_attacks "needs root, ip netns, setpriv and user nobody"
    return 0
fi
netns_up netns_up97 2 || return 0

H2=10.77.0.10,10.77.0.11
OURS="$MPIEXEC --launcher $NETNS -hosts $H2 -ppn 1"

# Idle connections (the old blocking handshake held the job 10 s for each), dropped after
# 5 s without a proof of the job secret.
CASE_TIMEOUT=100 CASE_EXPECT="refused a connection from 10.77.0.1:[0-9]+: no proof" \
    run_case attack.idle 0 $ATTACK timing --attackers 3 --hold 8 -- \
    $OURS sh -c 'sleep 2; echo tick $PMI_RANK; sleep 5'
CASE_TIMEOUT=80 CASE_EXPECT="verdict: ok" run_case attack.idle_kill 0 \
    $ATTACK kill --attackers 4 -- $OURS sh -c 'echo pid $PMI_RANK $$; exec sleep 30'
# A flood with a few descriptors to spare (pending handshakes make room for new ones), and
# with none (the spare descriptor: accepted and closed).
CASE_TIMEOUT=60 CASE_EXPECT="verdict: ok" run_case attack.flood 0 \
    $ATTACK flood --conns 500 -- \
    $OURS sh -c 'echo tick $PMI_RANK a; sleep 3; echo tick $PMI_RANK b; sleep 1'
CASE_TIMEOUT=60 CASE_EXPECT="out of file descriptors$" \
    CASE_FORBID="oldest is dropped|accepting a connection failed" \
    run_case attack.flood_nofd 0 \
    $ATTACK flood --conns 500 --spare-fds 0 -- \
    $OURS sh -c 'echo tick $PMI_RANK a; sleep 3; echo tick $PMI_RANK b; sleep 1'

# A link down for long while the job sleeps: found by keepalive on the launcher's
# connections (the proxy's ranks would otherwise wait for ever).
CASE_TIMEOUT=40 CASE_EXPECT="lost the proxy on host (rmh1|10\.77\.0\.11) \(unreachable" \
    CASE_FORBID="still running" run_case link.down_long 0 \
    env RAILMPI_TCP_TIMEOUT=3000 $ATTACK linkdown --link rmv1 --ready 2 --within 8 -- \
    $OURS sh -c 'echo up $PMI_RANK; exec sleep 20'
# A short outage under a longer timeout: MPI traffic across it carries on.
CASE_TIMEOUT=60 CASE_EXPECT=" ok rail_loss" CASE_FORBID="CHECK|fatal|unreachable" \
    run_case link.down_short 0 \
    env RAILMPI_TCP_TIMEOUT=5000 $ATTACK linkdown --link rmv1 --after 2 --down-for 1 -- \
    $OURS "$CT/rail_loss" 6

"$NETNS" down
trap - EXIT
