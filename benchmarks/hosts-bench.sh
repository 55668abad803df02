#!/usr/bin/env bash
# hosts-bench.sh — point-to-point between hosts: railmpi (tcp rail) against MPICH (UCX over
# tcp) and Open MPI (ob1 + btl tcp), with benchmarks/latency.c and bw.c, two ranks.
#
#   benchmarks/hosts-bench.sh BUILD_DIR
#
# Two setups, each implementation with its own compiler wrapper and launcher:
#   2 hosts    one rank in each of two network namespaces joined by a bridge
#              (c_tests/netns.sh; veth, no rate limit): railmpi under its mpiexec with
#              netns.sh as the remote launcher, MPICH under Hydra the same way
#              (UCX_TLS=tcp,self: UCX would otherwise reach the other namespace through
#              shared memory), Open MPI with netns.sh as its rsh agent. The "hosts" share one
#              machine's cores, so nothing binds ranks to cores (two ranks would land on
#              core 0 of their own host).
#   1 host     two ranks on this host over tcp alone: RAILMPI_RAILS=tcp, UCX_TLS=tcp,self
#              on lo, --mca btl tcp,self.
# Best of BENCH_RUNS runs (default 2) per size: minimum latency, maximum bandwidth.
# Needs root (namespaces); otherwise only the 1-host tables are made.
#
# Environment: BENCH_RUNS, BENCH_HOSTS_ARGS (benchmark arguments, default "-i 0.3"),
# BENCH_TIMEOUT (seconds per run, default 300), BENCH_IMPLS (default "railmpi mpich
# openmpi"). Output on stdout and in BUILD_DIR/bench/hosts/report.txt; raw runs beside it.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=benchmarks/lib.sh
. "$ROOT/benchmarks/lib.sh"
bench_start "$0" hosts "$@"
NETNS=$ROOT/c_tests/netns.sh
RUNS=${BENCH_RUNS:-2}
ARGS=${BENCH_HOSTS_ARGS:--i 0.3}
TMO=${BENCH_TIMEOUT:-300}
IMPLS=${BENCH_IMPLS:-"railmpi mpich openmpi"}
H2=10.77.0.10,10.77.0.11

log() { echo "hosts-bench: $*" >&2; }

cc_of() {
    case $1 in
        railmpi) echo "$BUILD/bin/mpicc" ;;
        mpich) echo mpicc.mpich ;;
        openmpi) echo mpicc.openmpi ;;
    esac
}

# The launcher, without the program, for implementation $1 in setup $2 (hosts|local).
launch_of() {
    case $1.$2 in
        railmpi.hosts) echo "$BUILD/bin/mpiexec --launcher $NETNS -hosts $H2 -ppn 1 \
            -genv RAILMPI_BIND none" ;;
        railmpi.local) echo "env RAILMPI_RAILS=tcp $BUILD/bin/mpiexec -n 2" ;;
        mpich.hosts) echo "mpiexec.mpich -iface rmbr0 -launcher rsh -launcher-exec $NETNS \
            -hosts $H2 -ppn 1 -n 2 -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES eth0" ;;
        mpich.local) echo "mpiexec.mpich -n 2 -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES lo" ;;
        openmpi.hosts) echo "mpiexec.openmpi --allow-run-as-root --bind-to none \
            --mca plm_rsh_agent $NETNS -H $H2 -np 2 --mca pml ob1 --mca btl tcp,self \
            --mca btl_tcp_if_include 10.77.0.0/24 --mca oob_tcp_if_include 10.77.0.0/24" ;;
        openmpi.local) echo "mpiexec.openmpi --allow-run-as-root --bind-to none -np 2 \
            --mca pml ob1 --mca btl tcp,self" ;;
    esac
}

bench_build latency bw

# run SETUP IMPL BENCH: best-of-runs "size value" rows into $OUT/SETUP.IMPL.BENCH.best
run() {
    local setup=$1 impl=$2 bench=$3 r raw mode
    mode=min
    [ "$bench" = bw ] && mode=max
    for ((r = 1; r <= RUNS; r++)); do
        raw=$OUT/$setup.$impl.$bench.$r
        # shellcheck disable=SC2046,SC2086
        if ! timeout "$TMO" $(launch_of "$impl" "$setup") "$OUT/$impl/$bench" $ARGS \
            >"$raw" 2>&1 </dev/null; then
            log "$setup $impl $bench run $r failed (see $raw)"
            mv "$raw" "$raw.failed"
        fi
    done
    bench_best $mode "$OUT/$setup.$impl.$bench".[0-9]* >"$OUT/$setup.$impl.$bench.best"
}

# table SETUP BENCH TITLE SIZES...
table() {
    local setup=$1 bench=$2 title=$3 size impl v vals rat
    shift 3
    echo "# $title"
    printf "%-9s | %10s | %10s | %10s | %s\n" Size railmpi MPICH "Open MPI" \
        "$([ "$bench" = bw ] && echo "railmpi/best peer (higher is better)" ||
            echo "railmpi/best peer (lower is better)")"
    for size in "$@"; do
        vals=()
        for impl in railmpi mpich openmpi; do
            v=$(awk -v s="$size" '$1 == s {print $2}' "$OUT/$setup.$impl.$bench.best" 2>/dev/null)
            vals+=("${v:-n/a}")
        done
        rat=$(bench_ratio "$([ "$bench" = bw ] && echo max || echo min)" "${vals[@]}")
        printf "%-9s | %10s | %10s | %10s | %s\n" "$size" "${vals[0]}" "${vals[1]}" "${vals[2]}" "$rat"
    done
    echo
}

SETUPS=local
if [ "$(id -u)" = 0 ] && "$NETNS" up 2 >"$OUT/netns.log" 2>&1; then
    SETUPS="hosts local"
    trap '"$NETNS" down' EXIT
else
    log "cannot create network namespaces (needs root): 1-host tables only"
fi
for setup in $SETUPS; do
    for impl in $BUILT; do
        for bench in latency bw; do
            log "$setup: $impl $bench"
            run "$setup" "$impl" "$bench"
        done
    done
done

{
    echo "# Point-to-point over tcp, 2 ranks; $(nproc) cores, $(uname -r); best of $RUNS runs"
    echo
    for setup in $SETUPS; do
        case $setup in
            hosts) what="2 hosts (network namespaces over a bridge, one rank each)" ;;
            local) what="1 host, tcp alone (loopback)" ;;
        esac
        table "$setup" latency "$what: latency (us)" 8 1024 16384 65536 262144 1048576
        table "$setup" bw "$what: bandwidth (MB/s)" 8 1024 65536 262144 1048576 4194304
    done
} | tee "$OUT/report.txt"
[ "$SETUPS" = local ] || { "$NETNS" down; trap - EXIT; }
exit 0
