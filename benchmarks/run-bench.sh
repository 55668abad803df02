#!/usr/bin/env bash
# run-bench.sh — compare railmpi with MPICH and Open MPI on our own
# point-to-point benchmarks (benchmarks/latency.c and benchmarks/bw.c).
#
# Usage: benchmarks/run-bench.sh BUILD_DIR
#
# For each implementation the two programs are compiled with its own compiler
# wrapper and run with 2 ranks with its own launcher:
#   railmpi   $BUILD/bin/mpicc          $BUILD/bin/mpiexec -n 2
#   MPICH     mpicc.mpich               mpiexec.mpich -n 2
#   Open MPI  mpicc.openmpi             mpiexec.openmpi --allow-run-as-root --oversubscribe -n 2
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
# maximum bandwidth.  Only runs that exit with status 0 count (the benchmarks
# check the data they receive and exit non-zero on a mismatch).  This damps
# the noise of a small shared machine; it reports best, not typical, figures.
#
# Environment:
#   BENCH_RUNS     runs per implementation and benchmark (default 2)
#   BENCH_ARGS     extra arguments for both programs, e.g. "-m 64k -i 0.1"
#                  for a quick demo (-m max size, -i iteration scale)
#   BENCH_TIMEOUT  seconds allowed per single run (default 900)
#   BENCH_IMPLS    implementations to run, default "railmpi mpich openmpi"
#
# Output: a combined table on stdout, also written to $BUILD/bench/report.txt:
#   latency   (us):   Size | railmpi | MPICH | Open MPI | railmpi/best-peer
#                     ratio = railmpi / min(peers), lower is better
#   bandwidth (MB/s): same columns,
#                     ratio = railmpi / max(peers), higher is better
# Raw outputs of every run are kept in $BUILD/bench/<impl>/.

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
TMO=${BENCH_TIMEOUT:-900}
IMPLS=${BENCH_IMPLS:-"railmpi mpich openmpi"}

log() { echo "run-bench: $*" >&2; }

impl_title() {
    case $1 in
        railmpi) echo "railmpi" ;;
        mpich) echo "MPICH" ;;
        openmpi) echo "Open MPI" ;;
    esac
}

impl_cc() {
    case $1 in
        railmpi) echo "$BUILD/bin/mpicc" ;;
        mpich) echo "mpicc.mpich" ;;
        openmpi) echo "mpicc.openmpi" ;;
    esac
}

# Prints the launcher command (without the program) for an implementation.
impl_launch() {
    case $1 in
        railmpi) echo "$BUILD/bin/mpiexec -n 2" ;;
        mpich) echo "mpiexec.mpich -n 2" ;;
        openmpi) echo "mpiexec.openmpi --allow-run-as-root --oversubscribe -n 2" ;;
    esac
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

# Builds and runs one implementation; leaves $OUT/<impl>/<bench>.best
declare -A STATUS
run_impl() {
    local impl=$1 cc launch dir bench r rc good
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
    local launcher_bin=${launch%% *}
    if ! have_cmd "$launcher_bin"; then
        log "$impl: launcher '$launcher_bin' not found; n/a"
        STATUS[$impl]="not available ($launcher_bin missing)"
        return
    fi

    for bench in latency bw; do
        if ! "$cc" -O2 -o "$dir/$bench" "$SRC_DIR/$bench.c" -lm \
            >"$dir/$bench.build.log" 2>&1; then
            log "$impl: building $bench failed (see $dir/$bench.build.log); n/a"
            STATUS[$impl]="${STATUS[$impl]:-}build of $bench failed; "
            continue
        fi
        good=()
        for r in $(seq 1 "$RUNS"); do
            log "$impl: $bench run $r/$RUNS"
            # shellcheck disable=SC2086
            timeout -k 10 "$TMO" $launch "$dir/$bench" $ARGS \
                >"$dir/$bench.run$r.out" 2>"$dir/$bench.run$r.err" </dev/null
            rc=$?
            if [ $rc -eq 0 ]; then
                good+=("$dir/$bench.run$r.out")
            else
                [ $rc -eq 124 ] && log "$impl: $bench run $r timed out after ${TMO}s"
                log "$impl: $bench run $r exited with $rc (see $dir/$bench.run$r.err); ignored"
                STATUS[$impl]="${STATUS[$impl]:-}$bench run $r exit $rc; "
            fi
        done
        if [ ${#good[@]} -gt 0 ]; then
            if [ "$bench" = latency ]; then
                best_of min "${good[@]}" >"$dir/$bench.best"
            else
                best_of max "${good[@]}" >"$dir/$bench.best"
            fi
        fi
    done
    local st=${STATUS[$impl]:-ok}
    STATUS[$impl]=${st%; }
}

# Prints one combined table.  $1 = latency|bw
table() {
    local bench=$1 impl k=0
    for impl in railmpi mpich openmpi; do
        k=$((k + 1))
        if [ -s "$OUT/$impl/$bench.best" ]; then
            awk -v k="$k" 'NF >= 2 { print k, $1, $2 }' "$OUT/$impl/$bench.best"
        fi
    done | awk -v bench="$bench" '
        { val[$1, $2] = $3; sizes[$2] = 1 }
        END {
            if (bench == "latency") {
                print "# Latency (us), best of runs; ratio = railmpi / min(peers), lower is better"
            } else {
                print "# Bandwidth (MB/s, MB = 1e6 bytes), best of runs; ratio = railmpi / max(peers), higher is better"
            }
            printf "%-10s | %12s | %12s | %12s | %17s\n", "Size", "railmpi", "MPICH", "Open MPI", "railmpi/best-peer"
            n = 0
            for (s in sizes) list[++n] = s + 0
            for (i = 2; i <= n; i++) {          # insertion sort, portable awk
                x = list[i]; j = i - 1
                while (j > 0 && list[j] > x) { list[j + 1] = list[j]; j-- }
                list[j + 1] = x
            }
            for (i = 1; i <= n; i++) {
                s = list[i]
                for (k = 1; k <= 3; k++) {
                    has[k] = ((k, s) in val)
                    cell[k] = has[k] ? sprintf("%.2f", val[k, s]) : "n/a"
                }
                found = 0; best = 0
                for (k = 2; k <= 3; k++) {
                    if (!has[k]) continue
                    v = val[k, s] + 0
                    if (!found || (bench == "latency" && v < best) || (bench != "latency" && v > best)) best = v
                    found = 1
                }
                ratio = "n/a"
                if (has[1] && found && best > 0) ratio = sprintf("%.2f", val[1, s] / best)
                printf "%-10d | %12s | %12s | %12s | %17s\n", s, cell[1], cell[2], cell[3], ratio
            }
            if (n == 0) print "(no results)"
        }
    '
}

for impl in railmpi mpich openmpi; do
    case " $IMPLS " in
        *" $impl "*) run_impl "$impl" ;;
        *) rm -rf "${OUT:?}/$impl"; STATUS[$impl]="skipped (BENCH_IMPLS)" ;;
    esac
done

{
    echo "# railmpi point-to-point benchmark report"
    echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')  host: $(uname -n)  cpus: $(nproc 2>/dev/null || echo '?')"
    echo "# runs per implementation: $RUNS (best value per size kept)  args: ${ARGS:-<none>}"
    for impl in railmpi mpich openmpi; do
        printf '# %-9s %s\n' "$(impl_title "$impl"):" "${STATUS[$impl]}"
    done
    echo
    table latency
    echo
    table bw
} | tee "$REPORT"

log "report written to $REPORT"
exit 0
