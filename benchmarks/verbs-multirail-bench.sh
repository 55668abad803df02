#!/usr/bin/env bash
# verbs-multirail-bench.sh — multirail over RDMA ports (Liu, Vishnu, Panda 2004, §6.3): two
# QEMU guests (c_tests/vm/guest.sh --vms 2 --nics 2), each with Soft-RoCE on two NICs
# (rxe0 on eth0, rxe1 on eth1), the NICs shaped with tc tbf to 4:1 (BENCH_VMR_RATES,
# default 40 and 10 Mbit/s: low enough that the emulated guests are not the bottleneck;
# queues of 10 s, so that nothing is dropped: RoCE fabrics are lossless, and rxe has no
# congestion control, so a drop would cost a retry timeout);
# benchmarks/multirail.c between one rank in each guest, over verbs alone.
#
#   benchmarks/verbs-multirail-bench.sh BUILD_DIR
#
# Bandwidth per size (64 KiB .. 4 MiB, MB/s) on rxe0 alone, and on both ports striped even,
# weighted 4:1 (told the rates), adaptive (not told); the weights adaptive converged to.
# The configurations alternate within each round; the best of BENCH_RUNS rounds (default
# 2) is kept per size. Environment: BENCH_RUNS, BENCH_VMR_SECONDS (per size, default 1),
# BENCH_VMR_RATES ("R0 R1" in Mbit/s). Output on stdout and in
# BUILD_DIR/bench/verbs-multirail/report.txt. Where no guest boots, the report says why and
# the script exits 0.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=benchmarks/lib.sh
. "$ROOT/benchmarks/lib.sh"
bench_start "$0" verbs-multirail "$@"
RUNS=${BENCH_RUNS:-2}
SECS=${BENCH_VMR_SECONDS:-1}
read -r R0 R1 <<<"${BENCH_VMR_RATES:-40 10}"
IMPLS=railmpi
log() { echo "verbs-multirail-bench: $*" >&2; }
cc_of() { echo "$BUILD/bin/mpicc"; }
bench_build multirail
[ -n "$BUILT" ] || exit 1

# NAME DEVICES STRIPING: one configuration.
CONFIGS=(
    "single rxe0:1 adaptive"
    "even rxe0:1,rxe1:1 even"
    "weighted rxe0:1,rxe1:1 weighted:4,1"
    "adaptive rxe0:1,rxe1:1 adaptive"
)
{
    echo "#!/usr/bin/env bash"
    echo "if [ \"\$RAILMPI_VM_NODE\" = 1 ]; then exec $ROOT/c_tests/vm/agent.sh 3000; fi"
    echo "cd $ROOT"
    echo "for ((r = 1; r <= $RUNS; r++)); do"
    for c in "${CONFIGS[@]}"; do
        read -r name devs striping <<<"$c"
        echo "  echo \"round \$r $name\" >&2"
        echo "  timeout 600 env RAILMPI_RAILS=verbs RAILMPI_VERBS_DEVICES=$devs" \
            "RAILMPI_STRIPING=$striping RAILMPI_STATS=1 $BUILD/bin/mpiexec" \
            "-hosts railmpi-vm0,railmpi-vm1 --launcher c_tests/vm/remote.sh -n 2" \
            "$OUT/railmpi/multirail bw -t $SECS >$OUT/$name.\$r 2>&1 </dev/null ||" \
            "mv $OUT/$name.\$r $OUT/$name.\$r.failed"
    done
    echo "done"
    echo "touch \"\$RAILMPI_VM_SHARED/launch/stop\""
} >"$OUT/guest-run.sh"

cd "$ROOT" || exit 1
"$ROOT/c_tests/vm/guest.sh" --vms 2 --nics 2 --rate "eth0=${R0}mbit/10s" --rate "eth1=${R1}mbit/10s" \
    --timeout 3000 -- bash "$OUT/guest-run.sh" >"$OUT/guest.log" 2>&1
rc=$?
if [ "$rc" = 125 ]; then
    why=$(grep -m1 'cannot boot' "$OUT/guest.log")
    echo "# verbs multirail bench: no guest ($why)" | tee "$OUT/report.txt"
    exit 0
fi

best() { bench_best max "$OUT/$1".[0-9] | awk -v s="$2" '$1 == s {print $2}'; }
# Rank 1's final weights towards rank 0, in the last round that ran.
weights() {
    cat "$OUT/$1".[0-9] 2>/dev/null | grep -o 'rank 1 multirail to rank 0:.*' | tail -1 |
        grep -o 'weight [0-9.]*' | awk '{printf "%s%s", sep, $2; sep="/"}'
}
{
    echo "# verbs multirail: two QEMU guests (TCG), Soft-RoCE on two NICs each, tbf $R0 + $R1 Mbit/s;"
    echo "# benchmarks/multirail.c bw, one rank per guest, $SECS s per size, MB/s, best of $RUNS rounds"
    printf "%-9s | %10s | %10s | %10s | %10s | %s\n" Size "rxe0 only" even "weighted" adaptive \
        "adaptive/single, /weighted"
    for s in 65536 262144 1048576 4194304; do
        one=$(best single "$s") ev=$(best even "$s") w=$(best weighted "$s") a=$(best adaptive "$s")
        printf "%-9s | %10s | %10s | %10s | %10s | %s, %s\n" "$s" "${one:-n/a}" "${ev:-n/a}" \
            "${w:-n/a}" "${a:-n/a}" "$(bench_ratio max "${a:-n/a}" "${one:-n/a}")" \
            "$(bench_ratio max "${a:-n/a}" "${w:-n/a}")"
    done
    echo "# adaptive weights (rxe0/rxe1): $(weights adaptive)"
    failed=$(cd "$OUT" && ls ./*.failed 2>/dev/null | tr '\n' ' ')
    [ -n "$failed" ] && echo "# failed runs (not counted): $failed"
} | tee "$OUT/report.txt"
exit 0
