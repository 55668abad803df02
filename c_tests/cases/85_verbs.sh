# 85_verbs: the verbs rail on real (software) RDMA devices inside QEMU guests
# (c_tests/vm/guest.sh): Soft-RoCE (rdma_rxe, rxe0) and soft-iWARP (siw0). Every rank runs
# over verbs alone (RAILMPI_RAILS=verbs): point-to-point across every rendezvous protocol
# and the eager/rendezvous threshold, wildcard receives, probes, collectives, one-sided RMA
# (fence, PSCW, lock/unlock with a target that computes, atomics — applied by the target
# in software, coherent with its own CPU atomics —, dynamic windows, derived datatypes), and an
# MPICH-built program swapped in. One guest boot runs a whole list
# (c_tests/vm/run_list.sh); each case is then judged here.
# Where no guest can boot, every case prints SKIP with the reason.

if [ "$CT_IMPL" != railmpi ]; then
    skip_case verbs "railmpi's verbs rail"
    return 0
fi

# libmpi.so.12 loads on machines without libibverbs: it never links it (the module does).
run_case verbs.no_libibverbs_in_libmpi 0 bash -c '
    ldd "$1/libmpi.so.12" | grep -E "ibverbs|rdmacm" && exit 1
    ldd "$1/librailmpi_verbs.so" | grep -q libibverbs' _ "$LIB"
# Without a device the module is not even opened, and the rail says why.
CASE_EXPECT='RDMA' run_case verbs.no_device.n2 1 \
    env RAILMPI_RAILS=verbs "$MPIEXEC" -n 2 "$CT/hello"

VM=$ROOT/c_tests/vm/guest.sh
VDIR=$LOGDIR/verbs
rm -rf "$VDIR"
mkdir -p "$VDIR"

# _vcase NAME SECONDS EXPECT COMMAND: one line of the list (EXPECT: a regex the output must
# hold, or -).
_vcase() {
    local name=$1 secs=$2 expect=$3
    shift 3
    printf '%s\t%s\t%s\n' "$name" "$secs" "$*" >>"$_vlist"
    _vexpect+=("$name" "$expect")
}

# _vjudge: after the guest ran the list, one case per line, judged from its log and status.
_vjudge() {
    local i name expect
    for ((i = 0; i < ${#_vexpect[@]}; i += 2)); do
        name=${_vexpect[i]} expect=${_vexpect[i + 1]}
        if [ "$expect" = - ]; then expect=.; fi
        CASE_EXPECT=$expect run_case "$name" 0 bash -c '
            cat "$1.log" 2>/dev/null
            [ -e "$1.rc" ] || { echo "(the guest did not run this case)"; exit 99; }
            exit "$(cat "$1.rc")"' _ "$_vdir/$name"
    done
}

_venv="RAILMPI_RAILS=verbs RAILMPI_LOG=warn"

# _vstart NAME: a new list.
_vstart() {
    _vdir=$VDIR/$1
    mkdir -p "$_vdir"
    _vlist=$_vdir/cases.tsv
    : >"$_vlist"
    _vexpect=()
}

# _vrun NAME BEFORE AFTER [GUEST OPTIONS]: boot a guest, run the shell command BEFORE, the
# list, then AFTER, and judge it (or skip it all).
_vrun() {
    local name=$1 before=$2 after=$3 out=$LOGDIR/verbs.$1.guest.log rc why i
    shift 3
    "$VM" "$@" --timeout 900 -- bash -c "$before"'
        bash "$0" "$1"; rc=$?; '"$after"'; exit $rc' "$ROOT/c_tests/vm/run_list.sh" "$_vdir" \
        >"$out" 2>&1
    rc=$?
    if [ "$rc" = 125 ]; then
        why=$(grep -m1 'cannot boot' "$out" || echo "guest.sh exit 125")
        for ((i = 0; i < ${#_vexpect[@]}; i += 2)); do skip_case "${_vexpect[i]}" "$why"; done
    else
        _vjudge
    fi
}

# ---- Soft-RoCE: rxe0, one guest --------------------------------------------------------
_vstart rxe
_x="env $_venv RAILMPI_VERBS_DEVICES=rxe0:1 $MPIEXEC"
_vcase verbs.rxe.info 30 'verbs +available \(rxe0:1 RoCE, active' "$BUILD/bin/railmpi-info"
_vcase verbs.rxe.hello.n2 60 'railmpi' "$_x -n 2 $CT/hello"
_vcase verbs.rxe.pingpong_many.n2 120 - "$_x -n 2 $CT/pingpong_many"
_vcase verbs.rxe.wildcard.n3 120 - "$_x -n 3 $CT/wildcard"
_vcase verbs.rxe.probe.n2 120 - "$_x -n 2 $CT/probe"
_vcase verbs.rxe.ssend.n2 120 - "$_x -n 2 $CT/ssend"
_vcase verbs.rxe.truncate.n2 120 - "$_x -n 2 $CT/truncate"
_vcase verbs.rxe.allpairs.n4 180 - "$_x -n 4 $CT/allpairs"
# Writes into a receiver's buffer (put, the pipelines' blocks, auto's split) carry the
# receiver's notice as their immediate word: no PUT_DONE or PIPE_FIN follows them.
_notices='rank [01] rendezvous: [1-9][0-9]* writes noticed'
for _p in get put pipeline pipeline-cached auto; do
    # 64 MiB each way takes ~20 s in the guest: the pipelines share one run.
    _e='^ok large '
    case $_p in put | pipeline-cached) _e=$_notices ;; esac
    [ "$_p" = pipeline ] || _vcase "verbs.rxe.rndv_$_p.large.n2" 180 "$_e" \
        "env RAILMPI_STATS=1 RAILMPI_RNDV_PROTOCOL=$_p $_x -n 2 $CT/large"
    _vcase "verbs.rxe.rndv_$_p.dtype_p2p.n2" 180 '^ok dtype_p2p ' \
        "env RAILMPI_RNDV_PROTOCOL=$_p $_x -n 2 $CT/dtype_p2p"
done
_vcase verbs.rxe.coll_basic.n4 180 - "$_x -n 4 $CT/coll_basic"
_vcase verbs.rxe.coll_reduce.n3 180 - "$_x -n 3 $CT/coll_reduce"
_vcase verbs.rxe.coll_nb.n4 180 - "$_x -n 4 $CT/coll_nb"
for _t in rma_ops rma_pscw rma_passive rma_atomics rma_dynamic rma_dtypes rma_page_edges; do
    _vcase "verbs.rxe.$_t.n2" 180 - "$_x -n 2 $CT/$_t"
done
_vcase verbs.rxe.rma_atomics.n3 180 - "$_x -n 3 $CT/rma_atomics"
_vcase verbs.rxe.rma_remote_done.n3 180 '^ok rma_remote_done ' "$_x -n 3 $CT/rma_remote_done 40"
# An epoch's puts and gets are all in flight at once (RDMA writes and reads from origin
# buffers registered through the cache), completed by the flush, unlock or fence.
_vcase verbs.rxe.rma_inflight.stats.n3 180 'rank 0 rma: [0-9]+ puts/gets posted on the rails, at most 32 in flight' \
    "env RAILMPI_STATS=1 $_x -n 3 $CT/rma_inflight 32"
# Keys: forged, stale and out-of-range rkeys write nothing and complete with an error; the
# next good write works on a new connection (examples/verbs_keys.rs, two rails of one process).
_vcase verbs.rxe.keys 120 '^ok verbs_keys rxe0' \
    "env RAILMPI_VERBS_MODULE=$LIB/librailmpi_verbs.so $ROOT/target/release/examples/verbs_keys rxe0"
# A program built with Debian's MPICH, swapped in by the library path.
_vcase verbs.rxe.swapin.pingpong_many.n2 120 - \
    "env LD_LIBRARY_PATH=$LIB $_x -n 2 $CTM/pingpong_many"
# Two ports (rxe0 on eth0, rxe1 on eth1), a rail each with its own protection domain: a
# peer is given a key per port (RTS, PUT_REQ, READY, window records), messages alternate
# and large transfers are striped over both (each stripe under its port's key).
_x2="env $_venv RAILMPI_VERBS_DEVICES=rxe0:1,rxe1:1 $MPIEXEC"
_both='rail 0 \(verbs\): [0-9]+ messages, [1-9][0-9]* stripes.*rail 1 \(verbs\): [0-9]+ messages, [1-9][0-9]* stripes'
_vcase verbs.rxe.two_ports.stripes.n2 240 "rank 0 multirail to rank 1: $_both" \
    "env RAILMPI_STATS=1 $_x2 -n 2 $CT/stripes"
for _t in coll_basic rma_ops rma_dynamic; do
    _vcase "verbs.rxe.two_ports.$_t.n3" 180 - "$_x2 -n 3 $CT/$_t"
done
# Every rendezvous protocol's keys (RTS and its run table, PUT_REQ, READY), striped from
# 4 KiB.
for _p in get put pipeline; do
    _vcase "verbs.rxe.two_ports.rndv_$_p.dtype_p2p.n2" 180 '^ok dtype_p2p ' \
        "env RAILMPI_RNDV_PROTOCOL=$_p RAILMPI_STRIPING_THRESHOLD=4096 $_x2 -n 2 $CT/dtype_p2p"
done

_vrun rxe : : --nics 2

# ---- soft-iWARP: siw0 (no atomics; connects only through rdma_cm), one guest ------------
_vstart siw
_x="env $_venv RAILMPI_VERBS_DEVICES=siw0:1 $MPIEXEC"
_vcase verbs.siw.info 30 'verbs +available \(siw0:1 iWARP, active' "$BUILD/bin/railmpi-info"
_vcase verbs.siw.pingpong_many.n2 120 - "$_x -n 2 $CT/pingpong_many"
_vcase verbs.siw.wildcard.n3 120 - "$_x -n 3 $CT/wildcard"
for _p in get put; do
    _vcase "verbs.siw.rndv_$_p.large.n2" 180 '^ok large ' \
        "env RAILMPI_RNDV_PROTOCOL=$_p $_x -n 2 $CT/large"
done
# iWARP reports a refused write to its target only (which drops the connection): the
# writer's completion is a success (or, at times, a local QP operation error: the request
# then goes again on a new connection, and fails after its third), and nothing is written.
# The reconnect that follows must work every time (it did not: 3 of 30 runs ended the
# job on such an error, and a request flushed before its connection's drop was reported
# waited for a dial nobody made).
_vcase verbs.siw.keys 180 '^ok verbs_keys siw0' \
    "env RAILMPI_VERBS_MODULE=$LIB/librailmpi_verbs.so $ROOT/target/release/examples/verbs_keys siw0"
for _t in rma_pscw rma_passive rma_atomics rma_dynamic; do
    _vcase "verbs.siw.$_t.n2" 180 - "$_x -n 2 $CT/$_t"
done
# Reads and writes on one connection at once (the split rendezvous: the receiver reads the
# head while the sender writes the tail; held puts; a write's fence read): siw completes a
# write once sent but a read when its answer comes, so completions come out of posting
# order, which the module's send-queue accounting took for in order — the queue looked full
# for ever and coll_basic at 3 ranks stalled in 6 of 6 runs. The split must run here.
_vcase verbs.siw.coll_basic.split.n3 180 'rendezvous: [1-9][0-9]* split' \
    "env RAILMPI_STATS=1 $_x -n 3 $CT/coll_basic"
_vcase verbs.siw.rma_ops.n3 180 - "$_x -n 3 $CT/rma_ops"
_vcase verbs.siw.rma_inflight.n3 180 - "$_x -n 3 $CT/rma_inflight 32"
# An iWARP write completes once sent: each write transfer ends with a read of its last
# byte, so a put is placed when unlock returns (rank 2 tells rank 1 to look).
_vcase verbs.siw.rma_remote_done.n3 180 '^ok rma_remote_done ' "$_x -n 3 $CT/rma_remote_done 40"
# Finalize while peers exit: a rank's service queue (the RMA helper's, never closed) saw a
# peer that had exited disconnect, took back messages delivered but not yet retired, dialed
# the peer again and ended the job ("connecting to ... failed", 1 run in 15 before
# Service::leaving): six runs in a row must all end cleanly.
_vcase verbs.siw.finalize.rma_ops.x6.n3 240 '^finalize: 6 clean runs' \
    "for i in 1 2 3 4 5 6; do $_x -n 3 $CT/rma_ops || exit 1; done; echo 'finalize: 6 clean runs'"
_vcase verbs.siw.eager64.rma_dtypes.n3 180 - "env RAILMPI_EAGER_LIMIT=64 $_x -n 3 $CT/rma_dtypes"
# siw sends a payload of up to 32 bytes that crosses a page wrongly from its own thread (a
# read's answer: always): the rail cuts such requests at the page. Without that, a get of
# 3 ints whose second starts a page read zeros (and rma_dtypes above, 3 ranks, did when the
# heap layout put a window's run across a page).
_vcase verbs.siw.rma_page_edges.n2 180 '^ok rma_page_edges ' "$_x -n 2 $CT/rma_page_edges"
# rdma_cm picks the device by address: with rxe0 on the same interface it would take rxe0.
# A connect at once after the delete can fail (CONNECT_ERROR, status -22 or -111: 1 run in
# 4 of the first case here): wait until rxe0 is gone, then give rdma_cm a moment.
_vrun siw 'rdma link delete rxe0 || exit 1;
    for _i in $(seq 50); do rdma link show rxe0/1 >/dev/null 2>&1 || break; sleep 0.2; done
    sleep 2;' : --siw

# ---- Two guests (two hosts): our mpiexec starts the second guest's proxy through
# c_tests/vm/remote.sh (the second guest runs c_tests/vm/agent.sh); ranks meet over rxe0
# between the guests (the queue pairs' retry timeout, RAILMPI_VERBS_TIMEOUT, is 20).
_vstart two
# The settings are in mpiexec's environment only (the second guest's shell has none): our
# mpiexec hands its RAILMPI_* variables to the ranks of other hosts, as Hydra does.
_x="env RAILMPI_RAILS=verbs RAILMPI_VERBS_DEVICES=rxe0:1 $MPIEXEC -hosts railmpi-vm0,railmpi-vm1"
_x="$_x --launcher $ROOT/c_tests/vm/remote.sh -n 2"
_vcase verbs.two.pingpong_many.2x1 180 - "$_x $CT/pingpong_many"
_vcase verbs.two.rma_ops.2x1 180 - "$_x $CT/rma_ops"
# shm within each guest, verbs between them (RAILMPI_RAILS=shm,verbs): two ranks per host,
# so every program mixes both rails; each peer is given the key of the rail that reaches it
# (the shm rail's key table, or the verbs port's protection domain). Without verbs the
# guests could not reach each other (tcp is not named), without shm a rank's host mate
# would go over verbs too.
_x="env RAILMPI_RAILS=shm,verbs RAILMPI_VERBS_DEVICES=rxe0:1 $MPIEXEC -hosts railmpi-vm0,railmpi-vm1"
_x="$_x --launcher $ROOT/c_tests/vm/remote.sh -n 4"
for _t in allpairs coll_basic rma_ops; do
    _vcase "verbs.two.shm_verbs.$_t.2x2" 240 - "$_x $CT/$_t"
done
# Passive target with one origin on each rail (ranks 0 and 2 on the first guest, 1 on the
# second). The target computes 25 s, not 3: each of the remote origin's 100 rounds is a
# dozen round trips between two emulated guests (measured 2x1: 7.2-7.7 s over verbs,
# 4.8-7.5 s over tcp; 2x2 with two remote origins contending: 19.8 s).
_vcase verbs.two.shm_verbs.rma_passive.n3 240 - "${_x/-n 4/-n 3} $CT/rma_passive 25"
# Two ports per guest (rxe0 on eth0, rxe1 on eth1, each pair of NICs its own link):
# stripes over both.
_x="env RAILMPI_RAILS=verbs RAILMPI_VERBS_DEVICES=rxe0:1,rxe1:1 $MPIEXEC -hosts railmpi-vm0,railmpi-vm1"
_x="$_x --launcher $ROOT/c_tests/vm/remote.sh -n 2"
_vcase verbs.two.two_ports.stripes.2x1 240 "rank 0 multirail to rank 1: $_both" \
    "env RAILMPI_STATS=1 $_x $CT/stripes"
# verbs and tcp together (RAILMPI_RAILS=verbs,tcp): rxe0 and a tcp rail on eth1 both reach
# the other guest's rank, with a key each (the port's protection domain, the tcp rail's
# table); then with shm within each guest too.
_x="env RAILMPI_RAILS=verbs,tcp RAILMPI_VERBS_DEVICES=rxe0:1 RAILMPI_TCP_IFACES=eth1 $MPIEXEC"
_x="$_x -hosts railmpi-vm0,railmpi-vm1 --launcher $ROOT/c_tests/vm/remote.sh -n 2"
_vcase verbs.two.verbs_tcp.stripes.2x1 240 \
    'rank 0 multirail to rank 1: rail 0 \(verbs\): [0-9]+ messages, [1-9][0-9]* stripes.*rail 1 \(tcp\): [0-9]+ messages, [1-9][0-9]* stripes' \
    "env RAILMPI_STATS=1 $_x $CT/stripes"
_x="${_x/-n 2/-n 4}"
for _t in allpairs rma_ops; do
    _vcase "verbs.two.shm_verbs_tcp.$_t.2x2" 240 - "${_x/=verbs,tcp/=shm,verbs,tcp} $CT/$_t"
done
_x="env RAILMPI_RAILS=verbs RAILMPI_VERBS_DEVICES=rxe0:1,rxe1:1 $MPIEXEC -hosts railmpi-vm0,railmpi-vm1"
_x="$_x --launcher $ROOT/c_tests/vm/remote.sh -n 2"
# A link that goes silent mid-run: 6 s after rail_loss starts, the first guest drops
# everything it sends on eth1 (netem; dropped at the qdisc, so Soft-RoCE's packets are
# freed at once — taking the peer's link down instead strands them in virtio-net's
# transmit ring, which Soft-RoCE then waits for: no retry, no error, and a kernel crash
# once they are freed after their queue pair). First with the default retries (6): the
# adapter reports the path failed ("transport retry counter exceeded"); then with 7, which
# Soft-RoCE takes for "for ever", and a receiving second rank that posts nothing more: the
# rail's watchdog gives the link up after 30 s without a completion. Either way the channel
# carries on over rail 0, failed transfers go again, logged messages are sent again, and
# every byte is checked.
_drop='(for i in $(seq 150); do pgrep -x rail_loss >/dev/null && break; sleep 0.2; done;'
_drop="$_drop sleep 6; tc qdisc add dev eth1 root netem loss 100%) &"
_undrop='rc=$?; wait; tc qdisc del dev eth1 root; exit $rc'
_vcase verbs.two.two_ports.link_silent.2x1 200 'rail 1 \(verbs\) to rank [01] failed' \
    "modprobe sch_netem; $_drop env RAILMPI_VERBS_TIMEOUT=18 $_x $CT/rail_loss 12; $_undrop"
_vcase verbs.two.two_ports.link_silent.watchdog.2x1 200 'unreachable over verbs: no completion for [0-9]+ s' \
    "$_drop env RAILMPI_VERBS_TIMEOUT=18 RAILMPI_VERBS_RETRY=7 $_x $CT/rail_loss 12 oneway; $_undrop"
_vrun two "[ \"\$RAILMPI_VM_NODE\" = 1 ] && exec $ROOT/c_tests/vm/agent.sh 900;" \
    'touch "$RAILMPI_VM_SHARED/launch/stop"' --vms 2 --nics 2
