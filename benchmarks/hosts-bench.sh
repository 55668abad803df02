#!/usr/bin/env bash
# hosts-bench.sh — between hosts: railmpi (tcp rail between hosts, shm within one) against
# MPICH 4.0.2 and 5.0.2 (UCX over tcp between hosts) and Open MPI 4.1.4 and 5.0.11 (ob1 +
# btl tcp), with benchmarks/latency.c, bw.c, msgrate.c, rma.c and the collective programs.
#
#   benchmarks/hosts-bench.sh BUILD_DIR
#
# Two setups, each implementation with its own compiler wrapper and launcher:
#   2 hosts    ranks in two network namespaces joined by a bridge (c_tests/netns.sh; veth,
#              no rate limit), block placement (ranks 0..k-1 on the first host): railmpi under
#              its mpiexec with netns.sh as the remote launcher, MPICH under Hydra the same
#              way (UCX_TLS=tcp,self: UCX would otherwise reach the other namespace through
#              shared memory; MPICH's own shared memory still serves ranks of one host),
#              Open MPI with netns.sh as its rsh agent (btl tcp,self plus its shared-memory
#              btl within a host). The "hosts" share one machine's cores, so nothing binds
#              ranks to cores (two ranks would land on core 0 of their own host).
#              Point-to-point, message rate (1 pair) and RMA with one rank per host; message
#              rate (2 pairs, each across) and the collectives with two ranks per host.
#   1 host     latency and bandwidth, two ranks on this host over tcp alone:
#              RAILMPI_RAILS=tcp, UCX_TLS=tcp,self on lo, --mca btl tcp,self (MPICH 5.0.2's
#              UCX refuses lo: "no route", so n/a there).
# Beside the 2-host latency table, benchmarks/tcp_floor.c (a TCP ping-pong without MPI,
# busy polling like the MPIs) gives the kernel's floor, run once per round after them.
# Implementations alternate run by run (the first rotating); best of BENCH_RUNS runs
# (default 2) per size: minimum latency, maximum bandwidth and rate.
# Needs root (namespaces); otherwise only the 1-host tables are made.
#
# Environment: BENCH_RUNS, BENCH_HOSTS_ARGS (benchmark arguments, default "-i 0.3"),
# BENCH_HOSTS_COLL_ARGS (collectives and message rate, default "-m 64K -i 0.3"),
# BENCH_TIMEOUT (seconds per run, default 300), BENCH_IMPLS (default "railmpi mpich openmpi
# mpich5 openmpi5"), BENCH_HOSTS_BENCHES (default all: latency bw msgrate msgrate2
# rma_put_lat rma_get_lat rma_put_bw rma_get_bw coll_allreduce coll_bcast coll_alltoall
# coll_allgather coll_reduce_scatter), BENCH_MPICH5_VENV, BENCH_OPENMPI5_VENV (as
# run-bench.sh). Output on stdout and in BUILD_DIR/bench/hosts/report.txt; raw runs beside it.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=benchmarks/lib.sh
. "$ROOT/benchmarks/lib.sh"
bench_start "$0" hosts "$@"
NETNS=$ROOT/c_tests/netns.sh
RUNS=${BENCH_RUNS:-2}
ARGS=${BENCH_HOSTS_ARGS:--i 0.3}
COLL_ARGS=${BENCH_HOSTS_COLL_ARGS:--m 64K -i 0.3}
TMO=${BENCH_TIMEOUT:-300}
IMPLS=${BENCH_IMPLS:-"railmpi mpich openmpi mpich5 openmpi5"}
BENCHES=${BENCH_HOSTS_BENCHES:-"latency bw msgrate msgrate2 rma_put_lat rma_get_lat rma_put_bw rma_get_bw coll_allreduce coll_bcast coll_alltoall coll_allgather coll_reduce_scatter"}
M5=${BENCH_MPICH5_VENV:-/var/cache/railmpi-bench/mpich5}
O5=${BENCH_OPENMPI5_VENV:-/var/cache/railmpi-bench/openmpi5}
H2=10.77.0.10,10.77.0.11

log() { echo "hosts-bench: $*" >&2; }

title_of() {
    case $1 in
        railmpi) echo railmpi ;;
        mpich) echo "MPICH 4.0.2" ;;
        openmpi) echo "Open MPI 4.1.4" ;;
        mpich5) echo "MPICH 5.0.2" ;;
        openmpi5) echo "Open MPI 5.0.11" ;;
    esac
}

cc_of() {
    case $1 in
        railmpi) echo "$BUILD/bin/mpicc" ;;
        mpich) echo mpicc.mpich ;;
        openmpi) echo mpicc.openmpi ;;
        mpich5) echo "$M5/bin/mpicc" ;;
        openmpi5) echo "$O5/bin/mpicc" ;;
    esac
}

# The launcher, without the program, for implementation $1 in setup $2 (hosts|local) with
# $3 ranks (hosts: half on each).
launch_of() {
    local np=${3:-2} ppn slots
    ppn=$((np / 2))
    slots=${H2//,/:$ppn,}:$ppn
    case $1.$2 in
        railmpi.hosts) echo "$BUILD/bin/mpiexec --launcher $NETNS -hosts $H2 -ppn $ppn -n $np \
            -genv RAILMPI_BIND none" ;;
        railmpi.local) echo "env RAILMPI_RAILS=tcp $BUILD/bin/mpiexec -n 2" ;;
        mpich.hosts) echo "mpiexec.mpich -iface rmbr0 -launcher rsh -launcher-exec $NETNS \
            -hosts $H2 -ppn $ppn -n $np -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES eth0" ;;
        mpich.local) echo "mpiexec.mpich -n 2 -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES lo" ;;
        mpich5.hosts) echo "$M5/bin/mpiexec -iface rmbr0 -launcher rsh -launcher-exec $NETNS \
            -hosts $H2 -ppn $ppn -n $np -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES eth0" ;;
        # (MPICH 5.0.2's UCX finds no route over lo: n/a.)
        openmpi.hosts) echo "mpiexec.openmpi --allow-run-as-root --bind-to none \
            --mca plm_rsh_agent $NETNS -H $slots -np $np --map-by slot --mca pml ob1 \
            --mca btl tcp,self,vader --mca btl_tcp_if_include 10.77.0.0/24 \
            --mca oob_tcp_if_include 10.77.0.0/24" ;;
        openmpi.local) echo "mpiexec.openmpi --allow-run-as-root --bind-to none -np 2 \
            --mca pml ob1 --mca btl tcp,self" ;;
        openmpi5.hosts) echo "env PATH=$O5/bin:$PATH PRTE_MCA_plm_ssh_agent=$NETNS \
            $O5/bin/mpiexec --allow-run-as-root --bind-to none -H $slots -np $np --map-by slot \
            --mca pml ob1 --mca btl tcp,self,sm --mca btl_tcp_if_include 10.77.0.0/24 \
            --prtemca oob_tcp_if_include 10.77.0.0/24" ;;
        openmpi5.local) echo "$O5/bin/mpiexec --allow-run-as-root --bind-to none -np 2 \
            --mca pml ob1 --mca btl tcp,self" ;;
    esac
}

# Per benchmark: its program, its ranks, its arguments, which is better (min|max).
prog_of() {
    case $1 in
        rma_*) echo rma ;;
        msgrate2) echo msgrate ;;
        *) echo "$1" ;;
    esac
}
np_of() { case $1 in coll_* | msgrate2) echo 4 ;; *) echo 2 ;; esac; }
args_of() {
    case $1 in
        rma_*) echo "${1#rma_} $ARGS" ;;
        coll_* | msgrate*) echo "$COLL_ARGS" ;;
        *) echo "$ARGS" ;;
    esac
}
mode_of() { case $1 in bw | msgrate* | rma_*_bw) echo max ;; *) echo min ;; esac; }

PROGS=$(for b in $BENCHES; do prog_of "$b"; done | sort -u | tr '\n' ' ')
# shellcheck disable=SC2086
bench_build $PROGS
case " $BENCHES " in *" latency "*)
    cc -O2 -o "$OUT/tcp_floor" "$ROOT/benchmarks/tcp_floor.c" >"$OUT/tcp_floor.build.log" 2>&1 ||
        log "tcp_floor: build failed (see $OUT/tcp_floor.build.log); no floor row" ;;
esac

# run SETUP IMPL BENCH R: run R into $OUT/SETUP.IMPL.BENCH.R (renamed .failed if it fails).
run() {
    local setup=$1 impl=$2 bench=$3 r=$4 raw
    raw=$OUT/$setup.$impl.$bench.$r
    [ -x "$OUT/$impl/$(prog_of "$bench")" ] && [ -n "$(launch_of "$impl" "$setup")" ] || return 0
    log "$setup: $impl $bench run $r"
    # shellcheck disable=SC2046
    if ! timeout -k 10 "$TMO" $(launch_of "$impl" "$setup" "$(np_of "$bench")") \
        "$OUT/$impl/$(prog_of "$bench")" $(args_of "$bench") >"$raw" 2>&1 </dev/null; then
        log "$setup $impl $bench run $r failed (see $raw.failed)"
        mv "$raw" "$raw.failed"
    fi
}

# floor R: benchmarks/tcp_floor.c between the two hosts (no MPI: the kernel's floor under
# every latency column) into $OUT/hosts.floor.R.
floor() {
    local r=$1 raw=$OUT/hosts.floor.$1 srv scale
    [ -x "$OUT/tcp_floor" ] || return 0
    scale=$(echo " $ARGS " | sed -n 's/.* -i \([^ ]*\) .*/\1/p')
    log "hosts: tcp_floor run $r"
    timeout -k 5 "$TMO" "$NETNS" launch 10.77.0.11 "$OUT/tcp_floor" server 10.77.0.11 7399 \
        -i "${scale:-1}" >/dev/null 2>&1 &
    srv=$!
    if ! timeout -k 5 "$TMO" "$NETNS" launch 10.77.0.10 "$OUT/tcp_floor" client 10.77.0.11 \
        7399 -i "${scale:-1}" >"$raw" 2>&1 </dev/null; then
        log "hosts: tcp_floor run $r failed (see $raw.failed)"
        mv "$raw" "$raw.failed"
    fi
    wait "$srv"
}

# table SETUP BENCH TITLE [SIZES...]: one column per implementation (all sizes seen when
# none are given).
table() {
    local setup=$1 bench=$2 title=$3 size impl v vals rat heads
    shift 3
    for impl in $BUILT; do
        bench_best "$(mode_of "$bench")" "$OUT/$setup.$impl.$bench".[0-9]* \
            >"$OUT/$setup.$impl.$bench.best"
    done
    if [ $# -eq 0 ]; then
        # shellcheck disable=SC2046
        set -- $(cat "$OUT/$setup".*."$bench".best 2>/dev/null | awk '{print $1}' | sort -nu)
    fi
    echo "# $title"
    heads=""
    printf "%-9s" Size
    for impl in $BUILT; do printf " | %15s" "$(title_of "$impl")"; done
    printf " | %s\n" "railmpi/best peer ($([ "$(mode_of "$bench")" = max ] && echo higher ||
        echo lower) is better)"
    for size in "$@"; do
        vals=()
        printf "%-9s" "$size"
        for impl in $BUILT; do
            v=$(awk -v s="$size" '$1 == s {print $2}' "$OUT/$setup.$impl.$bench.best" 2>/dev/null)
            printf " | %15s" "${v:-n/a}"
            [ "$impl" = railmpi ] || vals+=("${v:-n/a}")
        done
        v=$(awk -v s="$size" '$1 == s {print $2}' "$OUT/$setup.railmpi.$bench.best" 2>/dev/null)
        rat=$(bench_ratio "$(mode_of "$bench")" "${v:-n/a}" "${vals[@]}")
        printf " | %s\n" "$rat"
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
read -ra ORDER <<<"$BUILT"
for ((r = 1; r <= RUNS; r++)); do
    for setup in $SETUPS; do
        for bench in $BENCHES; do
            case $setup.$bench in hosts.* | local.latency | local.bw) ;; *) continue ;; esac
            for ((k = 0; k < ${#ORDER[@]}; k++)); do
                run "$setup" "${ORDER[$(((k + r - 1) % ${#ORDER[@]}))]}" "$bench" "$r"
            done
            [ "$setup.$bench" = hosts.latency ] && floor "$r"
        done
    done
done

title() {
    case $1 in
        latency) echo "latency (us)" ;;
        bw) echo "bandwidth (MB/s)" ;;
        msgrate) echo "message rate, 1 pair (osu_mbw_mr method, window 64; million messages/s)" ;;
        msgrate2) echo "message rate, 2 pairs, each across the hosts (million messages/s)" ;;
        rma_put_lat) echo "MPI_Put + MPI_Win_flush, lock epoch (us)" ;;
        rma_get_lat) echo "MPI_Get + MPI_Win_flush, lock epoch (us)" ;;
        rma_put_bw) echo "MPI_Put bandwidth, 64 per flush (MB/s)" ;;
        rma_get_bw) echo "MPI_Get bandwidth, 64 per flush (MB/s)" ;;
        coll_allreduce) echo "MPI_Allreduce (float sum), 2 x 2 ranks (us)" ;;
        coll_bcast) echo "MPI_Bcast, 2 x 2 ranks (us)" ;;
        coll_alltoall) echo "MPI_Alltoall (size per peer), 2 x 2 ranks (us)" ;;
        coll_allgather) echo "MPI_Allgather (size per rank), 2 x 2 ranks (us)" ;;
        coll_reduce_scatter) echo "MPI_Reduce_scatter (float sum, whole vector), 2 x 2 ranks (us)" ;;
    esac
}

{
    echo "# Between hosts over tcp; $(nproc) cores, $(uname -r); implementations alternated, best of $RUNS runs"
    echo
    for setup in $SETUPS; do
        case $setup in
            hosts) what="2 hosts (network namespaces over a bridge)" ;;
            local) what="1 host, tcp alone (loopback), 2 ranks" ;;
        esac
        for bench in $BENCHES; do
            case $setup.$bench in
                *.latency)
                    table "$setup" latency "$what: $(title latency)" 8 1024 16384 65536 262144 1048576
                    if [ "$setup" = hosts ] && ls "$OUT"/hosts.floor.[0-9]* >/dev/null 2>&1; then
                        echo "# $what: TCP ping-pong without MPI (benchmarks/tcp_floor.c), the kernel's floor under every column above (us)"
                        bench_best min "$OUT"/hosts.floor.[0-9]*
                        echo
                    fi
                    ;;
                *.bw) table "$setup" bw "$what: $(title bw)" 8 1024 65536 262144 1048576 4194304 ;;
                hosts.*) table "$setup" "$bench" "$what: $(title "$bench")" ;;
            esac
        done
    done
} | tee "$OUT/report.txt"
[ "$SETUPS" = local ] || { "$NETNS" down; trap - EXIT; }
exit 0
