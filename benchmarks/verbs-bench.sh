#!/usr/bin/env bash
# verbs-bench.sh — the verbs rail against UCX on the same RDMA device: railmpi
# (RAILMPI_RAILS=verbs) vs MPICH 5.0.2 (the Python registry's wheel, ch4:ucx with its own
# UCX) vs Debian's MPICH 4.0.2 (ch4:ucx over Debian's UCX 1.13), two ranks on Soft-RoCE
# (rxe0) inside one QEMU guest (c_tests/vm/guest.sh), with our own benchmarks
# (benchmarks/latency.c, bw.c, rma.c) built by each implementation's compiler wrapper.
#
#   benchmarks/verbs-bench.sh BUILD_DIR
#
# Rows: latency 8 B; bandwidth 64 KiB and 4 MiB; MPI_Put and MPI_Get latency 8 B (+ flush,
# in a lock epoch); MPI_Put bandwidth 8 B (a window of puts, then one flush). UCX runs with
# UCX_TLS=rc,self and UCX_NET_DEVICES=rxe0:1, and MPICH with MPIR_CVAR_NOLOCAL=1: no shared
# memory, both ranks go through the device, as railmpi's RAILMPI_RAILS=verbs does (without
# it MPICH's own shm carries the two local ranks: 4 us against 40-60 us over rxe0). MPICH 5
# is told ch4's ucx netmod.
#
# Soft-RoCE under TCG (no KVM here) is slow and noisy: the implementations alternate within
# each round, and the best of BENCH_RUNS rounds (default 3) is kept per row: minimum latency,
# maximum bandwidth. Only runs that exit 0 count (the programs check their data).
#
# With BENCH_OSU=DIR, the rows come from the OSU micro-benchmarks instead (osu_latency,
# osu_bw, osu_put_latency, osu_get_latency, osu_put_bw, osu_get_bw, osu_fop_latency,
# osu_acc_latency), built outside this repository by
# each implementation's compiler wrapper and installed under DIR/IMPL (DIR/railmpi,
# DIR/mpich5, DIR/mpich: `./configure CC=... CXX=... --prefix=DIR/IMPL && make install`);
# an implementation without its build there is n/a.
#
# Environment: BENCH_RUNS, BENCH_TIMEOUT (seconds per run in the guest, default 180; a
# measurement that fails in the first round is not tried again),
# BENCH_VERBS_ARGS (arguments of every program, default "-i 0.05"), BENCH_IMPLS (default
# "railmpi mpich5 mpich"), BENCH_MPICH5_VENV (default /var/cache/railmpi-bench/mpich5, made
# with pip when missing). Output on stdout and in BUILD_DIR/bench/verbs/report.txt, raw
# runs beside it. Where no guest boots, the report says why and the script exits 0.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=benchmarks/lib.sh
. "$ROOT/benchmarks/lib.sh"
bench_start "$0" verbs "$@"
RUNS=${BENCH_RUNS:-3}
TMO=${BENCH_TIMEOUT:-180}
ARGS=${BENCH_VERBS_ARGS:--i 0.05}
IMPLS=${BENCH_IMPLS:-"railmpi mpich5 mpich"}
VENV=${BENCH_MPICH5_VENV:-/var/cache/railmpi-bench/mpich5}

log() { echo "verbs-bench: $*" >&2; }

if [[ " $IMPLS " == *" mpich5 "* ]] && [ ! -x "$VENV/bin/mpicc" ]; then
    log "installing MPICH 5.0.2 into $VENV"
    { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q mpich==5.0.2; } >"$OUT/venv.log" 2>&1 ||
        log "MPICH 5.0.2 could not be installed (see $OUT/venv.log): n/a"
fi

cc_of() {
    case $1 in
        railmpi) echo "$BUILD/bin/mpicc" ;;
        mpich5) echo "$VENV/bin/mpicc" ;;
        mpich) echo mpicc.mpich ;;
    esac
}

# The launcher for implementation $1, without the program (run inside the guest).
launch_of() {
    case $1 in
        railmpi) echo "env RAILMPI_RAILS=verbs RAILMPI_VERBS_DEVICES=rxe0:1 $BUILD/bin/mpiexec -n 2" ;;
        mpich5) echo "$VENV/bin/mpiexec -n 2 -genv MPIR_CVAR_NOLOCAL 1 -genv MPIR_CVAR_CH4_NETMOD ucx \
            -genv UCX_TLS rc,self -genv UCX_NET_DEVICES rxe0:1" ;;
        mpich) echo "mpiexec.mpich -n 2 -genv MPIR_CVAR_NOLOCAL 1 -genv UCX_TLS rc,self \
            -genv UCX_NET_DEVICES rxe0:1 -genv UCX_UD_TIMEOUT 600s" ;;
    esac
}

# The measurements: NAME and the program (under $OUT/IMPL/, or OSU's) with its arguments.
if [ -n "${BENCH_OSU:-}" ]; then
    BUILT=""
    for impl in $IMPLS; do
        d=$(find "$BENCH_OSU/$impl" -name osu_latency -path '*/mpi/pt2pt/*' 2>/dev/null | head -1)
        if [ -n "$d" ]; then
            ln -sfn "${d%/pt2pt/*}" "$OUT/$impl"
            BUILT="$BUILT $impl"
        else
            log "$impl: no OSU build under $BENCH_OSU/$impl; n/a"
        fi
    done
    ARGS=${BENCH_VERBS_ARGS:-}
    FOP_SIZE=1
    PROGS="OSU micro-benchmarks (osu_latency, osu_bw, osu_put_latency, osu_get_latency, osu_put_bw, osu_get_bw, osu_fop_latency, osu_acc_latency) from $BENCH_OSU"
    MEASURES=(
        "latency:pt2pt/osu_latency -m 8:8"
        "bw:pt2pt/osu_bw -m 65536:4194304 -i 10 -x 2"
        "put_lat:one-sided/osu_put_latency -m 8:8"
        "get_lat:one-sided/osu_get_latency -m 8:8"
        "put_bw:one-sided/osu_put_bw -m 8:8"
        "get_bw:one-sided/osu_get_bw -m 8:8"
        "fop_lat:one-sided/osu_fop_latency -i 2000 -x 200"
        "acc_lat:one-sided/osu_acc_latency -m 8:8 -i 2000 -x 200"
    )
else
    bench_build latency bw rma
    FOP_SIZE=8
    PROGS="benchmarks/latency.c, bw.c, rma.c"
    MEASURES=(
        "latency:latency -m 8"
        "bw:bw -m 4M"
        "put_lat:rma put_lat -m 8"
        "get_lat:rma get_lat -m 8"
        "put_bw:rma put_bw -m 8"
        "get_bw:rma get_bw -m 8"
        "fop_lat:rma fop_lat"
        "acc_lat:rma acc_lat -m 8"
    )
fi

# The guest's script: every round, every measurement, the implementations alternating.
{
    echo "#!/usr/bin/env bash"
    echo "cd $OUT"
    echo "for ((r = 1; r <= $RUNS; r++)); do"
    for m in "${MEASURES[@]}"; do
        name=${m%%:*} prog=${m#*:}
        for impl in $BUILT; do
            # A measurement that failed in the first round is not tried again.
            echo "  if [ \$r = 1 ] || [ ! -e $OUT/$name.$impl.1.failed ]; then"
            echo "    echo \"round \$r $name $impl\" >&2"
            echo "    timeout $TMO $(launch_of "$impl") $OUT/$impl/${prog%% *} ${prog#* } $ARGS \\"
            echo "        >$OUT/$name.$impl.\$r 2>&1 </dev/null || mv $OUT/$name.$impl.\$r $OUT/$name.$impl.\$r.failed"
            echo "  fi"
        done
    done
    echo "done"
} >"$OUT/guest-run.sh"

cd "$ROOT" || exit 1
"$ROOT/c_tests/vm/guest.sh" --timeout $((RUNS * ${#MEASURES[@]} * 3 * TMO + 300)) -- \
    bash "$OUT/guest-run.sh" >"$OUT/guest.log" 2>&1
rc=$?
if [ "$rc" = 125 ]; then
    why=$(grep -m1 'cannot boot' "$OUT/guest.log")
    echo "# verbs bench: no guest ($why)" | tee "$OUT/report.txt"
    exit 0
fi

# row TITLE NAME SIZE MODE
row() {
    local title=$1 name=$2 size=$3 mode=$4 impl v vals=() rat
    for impl in railmpi mpich5 mpich; do
        # (the rounds that exited 0: a failed one was renamed NAME.IMPL.R.failed)
        v=$(bench_best "$mode" "$OUT/$name.$impl".[0-9] "$OUT/$name.$impl".[0-9][0-9] |
            awk -v s="$size" '$1 == s {print $2}')
        vals+=("${v:-n/a}")
    done
    rat=$(bench_ratio "$mode" "${vals[@]}")
    printf "%-28s | %10s | %10s | %10s | %s\n" "$title" "${vals[0]}" "${vals[1]}" "${vals[2]}" "$rat"
}

{
    echo "# verbs rail vs UCX on rxe0 (Soft-RoCE) in one QEMU guest under TCG, 2 ranks;"
    echo "# programs: $PROGS"
    echo "# host: $(nproc) cores, $(uname -r); best of $RUNS rounds, implementations alternated;"
    echo "# ratio = railmpi / best peer (latency: lower is better; bandwidth: higher is better)"
    printf "%-28s | %10s | %10s | %10s | %s\n" Row railmpi "MPICH 5.0.2" "MPICH 4.0.2" ratio
    row "latency 8 B (us)" latency 8 min
    row "bandwidth 64 KiB (MB/s)" bw 65536 max
    row "bandwidth 4 MiB (MB/s)" bw 4194304 max
    row "put latency 8 B (us)" put_lat 8 min
    row "get latency 8 B (us)" get_lat 8 min
    row "put bandwidth 8 B (MB/s)" put_bw 8 max
    row "get bandwidth 8 B (MB/s)" get_bw 8 max
    # (OSU's fetch-and-op row is one MPI_CHAR, size 1; rma.c's one MPI_LONG, size 8)
    row "fetch-and-op latency (us)" fop_lat "$FOP_SIZE" min
    row "accumulate latency 8 B (us)" acc_lat 8 min
    failed=$(cd "$OUT" && ls ./*.failed 2>/dev/null | tr '\n' ' ')
    [ -n "$failed" ] && echo "# failed runs (not counted): $failed"
} | tee "$OUT/report.txt"
exit 0
