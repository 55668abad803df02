#!/usr/bin/env bash
# compare-commits.sh — check a change for performance regressions: build two
# versions of railmpi (BASE and HEAD), run the same benchmark programs on
# both, alternately, and print one table of the figures that matter most
# (point-to-point latency and bandwidth, the no-reuse ping-pong, one-sided
# latency, fetch-and-op, a small allreduce) with a verdict per row.  A
# benchmark, not a test: the figures are timings on whatever machine runs it.
#
# Usage: benchmarks/compare-commits.sh BASE [HEAD]
#
#   BASE   any commit-ish (sha, tag, branch, HEAD~3).  It is checked out with
#          `git worktree add --detach` in a temporary directory
#          ($TMPDIR/railmpi-compare-<sha>.XXXXXX) and built there with
#          `make build`, CARGO_TARGET_DIR set to the worktree's own target/,
#          so the repository's target/ and build/ are not touched.
#   HEAD   the same, built in a second worktree.  When HEAD is omitted, the
#          current working tree (commit + uncommitted changes) is measured
#          WITHOUT building it: the repository's existing build/ (bin/mpicc,
#          bin/mpiexec, lib/libmpi.so.12) is used as it is, so run `make build`
#          first if it may be stale (its library's date is printed).  Only
#          when there is no build/ at all does the script run `make build` in
#          the repository itself.  COMPARE_HEAD_BUILD=DIR uses another build
#          directory (the layout `make build` produces) for HEAD instead.
#          The head build is copied into the temporary directory first, so a
#          rebuild during the comparison does not mix two libraries.
#
# Identical benchmark code: the programs come from the *current* tree's
# benchmarks/ directory (copied once at the start) and are compiled with each
# build's own bin/mpicc (-O2 -lm).  A program that does not compile against
# one of the builds (an old BASE without a function it calls) gives "n/a" in
# that column; the script goes on.
#
# Rows (program, options; the row is picked from the program's
# "<size> <value>" output lines):
#   latency 8 B, 64 KiB             latency -m 64k          (us, lower better)
#   bandwidth 1 B, 64 KiB, 4 MiB    bw -m 4M                (MB/s, higher better)
#   no-reuse ping-pong 8 MiB        noreuse_bw -s 8M        (MB/s)
#   put + flush 8 B, 64 KiB         rma put_lat -m 64k      (us)
#   get + flush 8 B                 rma get_lat -m 8        (us)
#   fetch-and-op 8 B                rma fop_lat -m 8        (us)
#   allreduce 8 B                   coll_allreduce -m 8     (us)
# All with 2 ranks, each build's own `bin/mpiexec -n 2`.
#
# Alternation and best-of-N: for run 1..COMPARE_RUNS, every program runs once
# with BASE and then once with HEAD (base, head, base, head, ...), so slow
# drifts of the machine (another job compiling) hit both sides alike.  Per row
# the best value over the runs is kept (minimum latency, maximum bandwidth);
# only runs that exit 0 count (the programs check the data they receive).
#
# Output: the machine (nproc, CPU model), both commit ids, then a table
#   row | unit | base | head | head vs base | verdict
# where "head vs base" is a speed ratio, > 1.00 means HEAD is better
# (base/head for latencies, head/base for bandwidths).  Verdict:
#   REGRESSED  HEAD more than COMPARE_THRESHOLD % worse (latency: head >
#              base x 1.05; bandwidth: head < base x 0.95, for 5 %)
#   improved   HEAD more than COMPARE_THRESHOLD % better
#   ok         within the threshold, or apart by no more than one step of
#              the programs' 2-decimal output (0.05 vs 0.06 us is not a 20 %
#              change).  Noise on a small shared machine easily exceeds 5 %
#              on single rows: re-run with more COMPARE_RUNS.
#   FAILED     BASE has a figure but HEAD has none (build or run failed);
#              counted as a regression
#   n/a        no BASE figure (or neither)
# then a summary line.  Everything is also written to build/bench/compare.txt
# of the repository holding this script; raw outputs, build and compile logs
# go to build/bench/compare/{base,head}/.
#
# Exit status: 0, also when rows regressed, unless COMPARE_STRICT=1 (then 1 on
# any REGRESSED or FAILED row); 2 for usage errors or when a build fails.
#
# Time: bounded.  Every build runs under `timeout COMPARE_BUILD_TIMEOUT`,
# every benchmark run under `timeout COMPARE_TIMEOUT`; so at most
# 2 x COMPARE_BUILD_TIMEOUT + COMPARE_RUNS x 7 programs x 2 x COMPARE_TIMEOUT.
# Typically, on 2 cores: a build from scratch about 75 s (2 minutes while
# another build runs), one round of the 7 programs on both builds 7-12 s; so
# COMPARE_RUNS=1 without HEAD takes about 1.5 minutes.
#
# The worktrees and the temporary directory are removed at exit (trap), also
# on failure or Ctrl-C, unless COMPARE_KEEP=1.  The repository's own working
# tree, index, target/ and build/ are never modified (except
# build/bench/compare*, and the `make build` of the no-build/ case above);
# git records the worktrees in .git/worktrees/ while they exist.
#
# Environment:
#   COMPARE_RUNS           alternating runs per build and program (default 3)
#   COMPARE_TIMEOUT        seconds allowed per single benchmark run (default 300)
#   COMPARE_BUILD_TIMEOUT  seconds allowed per `make build` (default 1800)
#   COMPARE_THRESHOLD      regression threshold in percent (default 5)
#   COMPARE_STRICT         1: exit 1 when a row regressed (default 0)
#   COMPARE_SCALE          iteration-count scale passed as -i (default 1)
#   COMPARE_HEAD_BUILD     build directory used for HEAD when HEAD is omitted
#                          (default: the repository's build/)
#   COMPARE_KEEP           1: keep the temporary directory and worktrees
#   COMPARE_PEERS          peers measured in the same rounds, for reference: a
#                          column each and "head vs best peer" (a speed ratio
#                          as above); default the newest releases where
#                          installed ("mpich5 openmpi5": MPICH 5.0.2 and Open
#                          MPI 5.0.11, the venvs `make bench` installs,
#                          BENCH_MPICH5_VENV / BENCH_OPENMPI5_VENV); "" for none.
#                          They do not enter the verdict.
#
# Examples:
#   benchmarks/compare-commits.sh HEAD            # uncommitted changes vs HEAD
#   benchmarks/compare-commits.sh main~1 main     # one commit vs its parent
#   COMPARE_RUNS=5 COMPARE_STRICT=1 benchmarks/compare-commits.sh v0.1

set -euo pipefail

usage() {
    echo "usage: $0 BASE [HEAD]   (see the header of this script for the environment)" >&2
    exit 2
}

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    usage
fi

SRC_DIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(git -C "$SRC_DIR" rev-parse --show-toplevel)
RUNS=${COMPARE_RUNS:-3}
TMO=${COMPARE_TIMEOUT:-300}
BUILD_TMO=${COMPARE_BUILD_TIMEOUT:-1800}
THRESHOLD=${COMPARE_THRESHOLD:-5}
STRICT=${COMPARE_STRICT:-0}
SCALE=${COMPARE_SCALE:-1}
KEEP=${COMPARE_KEEP:-0}
OUT=$REPO/build/bench/compare
MPICH5_VENV=${BENCH_MPICH5_VENV:-/var/cache/railmpi-bench/mpich5}
OPENMPI5_VENV=${BENCH_OPENMPI5_VENV:-/var/cache/railmpi-bench/openmpi5}
peer_venv() { case $1 in mpich5) echo "$MPICH5_VENV" ;; openmpi5) echo "$OPENMPI5_VENV" ;; esac; }
peer_title() { case $1 in mpich5) echo "MPICH 5.0.2" ;; openmpi5) echo "Open MPI 5.0.11" ;; esac; }
if [ -z "${COMPARE_PEERS+set}" ]; then
    COMPARE_PEERS=""
    for p in mpich5 openmpi5; do
        [ -x "$(peer_venv $p)/bin/mpicc" ] && COMPARE_PEERS="$COMPARE_PEERS $p"
    done
fi
PEERS=$COMPARE_PEERS
for p in $PEERS; do
    case $p in mpich5 | openmpi5) ;; *) echo "compare: unknown peer $p (mpich5, openmpi5)" >&2; exit 2 ;; esac
done
REPORT=$REPO/build/bench/compare.txt

log() { echo "compare: $*" >&2; }
die() {
    log "$*"
    exit 2
}

case $RUNS in '' | *[!0-9]* | 0) die "COMPARE_RUNS must be a positive integer" ;; esac
case $TMO in '' | *[!0-9]* | 0) die "COMPARE_TIMEOUT must be a positive integer" ;; esac
case $BUILD_TMO in '' | *[!0-9]* | 0) die "COMPARE_BUILD_TIMEOUT must be a positive integer" ;; esac

resolve() {
    git -C "$REPO" rev-parse --verify --quiet "$1^{commit}" || die "not a commit: $1"
}

BASE_SHA=$(resolve "$1")
HEAD_SHA=
if [ $# -eq 2 ]; then
    HEAD_SHA=$(resolve "$2")
fi

# Runs a command under `timeout -k 10 SECONDS` in the background and waits for
# it: bash runs a trap only once the foreground command is done, and timeout
# puts itself in its own process group (out of reach of the terminal's
# Ctrl-C), so waiting in `wait` is what lets an interrupt stop a build or a
# run at once.  $1 = seconds, rest = command.  Returns its exit status.
CHILD=
bounded() {
    local secs=$1 rc=0
    shift
    timeout -k 10 "$secs" "$@" &
    CHILD=$!
    wait "$CHILD" || rc=$?
    CHILD=
    return $rc
}

T0=$(date +%s)
TMPROOT=$(mktemp -d "${TMPDIR:-/tmp}/railmpi-compare-${BASE_SHA:0:12}.XXXXXX")
WORKTREES=()

cleanup() {
    local rc=$? wt
    trap - EXIT INT TERM
    [ $rc -eq 130 ] || [ $rc -eq 143 ] && log "interrupted; cleaning up"
    if [ -n "$CHILD" ]; then
        # timeout passes the signal on to the process group of its command.
        kill -TERM "$CHILD" 2>/dev/null || true
        wait "$CHILD" 2>/dev/null || true
    fi
    if [ "$KEEP" = 1 ]; then
        log "kept $TMPROOT (COMPARE_KEEP=1); remove worktrees with: git worktree remove --force DIR"
        exit "$rc"
    fi
    for wt in "${WORKTREES[@]}"; do
        git -C "$REPO" worktree remove --force "$wt" >/dev/null 2>&1 || true
    done
    rm -rf "$TMPROOT"
    git -C "$REPO" worktree prune >/dev/null 2>&1 || true
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

rm -rf "$OUT"
mkdir -p "$OUT/base" "$OUT/head"
for p in $PEERS; do mkdir -p "$OUT/$p"; done

# The benchmark sources, once, from the current tree.
SRC=$TMPROOT/src
mkdir -p "$SRC"
cp "$SRC_DIR"/*.c "$SRC_DIR"/*.h "$SRC/"

# Builds commit $2 in a fresh worktree for role $1; prints the build dir.
build_commit() {
    local role=$1 sha=$2 wt=$TMPROOT/$1-${2:0:12} rc=0
    log "$role: worktree for ${sha:0:12} in $wt"
    git -C "$REPO" worktree add --detach "$wt" "$sha" >"$OUT/$role/worktree.log" 2>&1 ||
        die "$role: git worktree add failed (see $OUT/$role/worktree.log)"
    WORKTREES+=("$wt")
    log "$role: make build (log: $OUT/$role/build.log, limit ${BUILD_TMO}s)"
    bounded "$BUILD_TMO" env CARGO_TARGET_DIR="$wt/target" make -C "$wt" build \
        >"$OUT/$role/build.log" 2>&1 </dev/null || rc=$?
    if [ $rc -ne 0 ]; then
        # The C benchmarks need only the library, mpicc and mpiexec; a failing
        # later step (Fortran support) does not spoil the comparison.
        if [ -x "$wt/build/bin/mpicc" ] && [ -x "$wt/build/bin/mpiexec" ] &&
            [ -e "$wt/build/lib/libmpi.so.12" ] && [ $rc -ne 124 ]; then
            log "$role: make build exited with $rc but mpicc, mpiexec and libmpi are there; going on"
        else
            [ $rc -eq 124 ] && log "$role: make build timed out after ${BUILD_TMO}s"
            die "$role: make build of ${sha:0:12} failed with $rc (see $OUT/$role/build.log)"
        fi
    fi
    BUILT=$wt/build
}

# The head build when HEAD is omitted: the repository's build/ as it is.
working_tree_build() {
    local dir=${COMPARE_HEAD_BUILD:-$REPO/build} rc=0
    if [ -z "${COMPARE_HEAD_BUILD:-}" ] && { [ ! -x "$dir/bin/mpicc" ] ||
        [ ! -e "$dir/lib/libmpi.so.12" ]; }; then
        log "head: no build in $dir; running make build in $REPO (log: $OUT/head/build.log)"
        bounded "$BUILD_TMO" make -C "$REPO" build \
            >"$OUT/head/build.log" 2>&1 </dev/null || rc=$?
        [ $rc -eq 0 ] || die "head: make build failed with $rc (see $OUT/head/build.log)"
    fi
    for f in bin/mpicc bin/mpiexec lib/libmpi.so.12; do
        [ -e "$dir/$f" ] || die "head: $dir/$f missing"
    done
    # A private copy: the repository's build/ may be rebuilt meanwhile.
    mkdir -p "$TMPROOT/head-build"
    cp -a "$dir/bin" "$dir/lib" "$TMPROOT/head-build/"
    [ -d "$dir/include" ] && cp -a "$dir/include" "$TMPROOT/head-build/"
    BUILT=$TMPROOT/head-build
    HEAD_LIB_DATE=$(date -u -r "$dir/lib/libmpi.so.12" '+%Y-%m-%d %H:%M:%S UTC')
}

BUILT=
HEAD_LIB_DATE=
build_commit base "$BASE_SHA"
BASE_BUILD=$BUILT
if [ -n "$HEAD_SHA" ]; then
    build_commit head "$HEAD_SHA"
    HEAD_BUILD=$BUILT
    HEAD_DESC="$HEAD_SHA"
else
    working_tree_build
    HEAD_BUILD=$BUILT
    wt_sha=$(git -C "$REPO" rev-parse HEAD)
    if [ -n "$(git -C "$REPO" --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ] ||
        [ -n "$(git -C "$REPO" --no-optional-locks ls-files --others --exclude-standard 2>/dev/null | head -1)" ]; then
        HEAD_DESC="$wt_sha + uncommitted changes (working tree; ${COMPARE_HEAD_BUILD:-build/} of $HEAD_LIB_DATE)"
    else
        HEAD_DESC="$wt_sha (working tree, clean; ${COMPARE_HEAD_BUILD:-build/} of $HEAD_LIB_DATE)"
    fi
fi
T_BUILT=$(date +%s)

PROGS="latency bw noreuse_bw rma coll_allreduce"
# The compiler wrapper and the launcher (2 ranks) of a role: a build or a peer.
role_cc() {
    case $1 in
        base) echo "$BASE_BUILD/bin/mpicc" ;;
        head) echo "$HEAD_BUILD/bin/mpicc" ;;
        *) echo "$(peer_venv "$1")/bin/mpicc" ;;
    esac
}
role_launch() {
    case $1 in
        base) echo "$BASE_BUILD/bin/mpiexec -n 2" ;;
        head) echo "$HEAD_BUILD/bin/mpiexec -n 2" ;;
        openmpi5) echo "$OPENMPI5_VENV/bin/mpiexec --allow-run-as-root --oversubscribe -n 2" ;;
        *) echo "$(peer_venv "$1")/bin/mpiexec -n 2" ;;
    esac
}

declare -A HAVE
for role in base head $PEERS; do
    mkdir -p "$TMPROOT/bin-$role"
    for p in $PROGS; do
        if "$(role_cc $role)" -O2 -o "$TMPROOT/bin-$role/$p" "$SRC/$p.c" -lm \
            >"$OUT/$role/$p.compile.log" 2>&1 </dev/null; then
            HAVE[$role.$p]=1
        else
            log "$role: $p.c does not compile against this build (see $OUT/$role/$p.compile.log); n/a"
            HAVE[$role.$p]=0
        fi
    done
done

# Jobs: name | program | arguments.
JOBS=(
    "latency|latency|-m 64k"
    "bw|bw|-m 4M"
    "noreuse|noreuse_bw|-s 8M"
    "put_lat|rma|put_lat -m 64k"
    "get_lat|rma|get_lat -m 8"
    "fop_lat|rma|fop_lat -m 8"
    "allreduce|coll_allreduce|-m 8"
)
# Rows: label | unit | min or max (which is better) | job | size.
ROWS=(
    "latency 8 B|us|min|latency|8"
    "latency 64 KiB|us|min|latency|65536"
    "bandwidth 1 B|MB/s|max|bw|1"
    "bandwidth 64 KiB|MB/s|max|bw|65536"
    "bandwidth 4 MiB|MB/s|max|bw|4194304"
    "no-reuse ping-pong 8 MiB|MB/s|max|noreuse|8388608"
    "put + flush 8 B|us|min|put_lat|8"
    "put + flush 64 KiB|us|min|put_lat|65536"
    "get + flush 8 B|us|min|get_lat|8"
    "fetch-and-op 8 B|us|min|fop_lat|8"
    "allreduce 8 B (2 ranks)|us|min|allreduce|8"
)

declare -A FAILS
for r in $(seq 1 "$RUNS"); do
    for job in "${JOBS[@]}"; do
        IFS='|' read -r name prog args <<<"$job"
        for role in base head $PEERS; do
            [ "${HAVE[$role.$prog]}" = 1 ] || continue
            log "run $r/$RUNS: $role $name"
            rc=0
            # shellcheck disable=SC2046,SC2086
            bounded "$TMO" $(role_launch $role) "$TMPROOT/bin-$role/$prog" $args -i "$SCALE" \
                >"$OUT/$role/$name.run$r.out" 2>"$OUT/$role/$name.run$r.err" </dev/null || rc=$?
            if [ $rc -ne 0 ]; then
                [ $rc -eq 124 ] && log "$role $name run $r timed out after ${TMO}s"
                log "$role $name run $r exited with $rc (see $OUT/$role/$name.run$r.err); ignored"
                FAILS[$role]="${FAILS[$role]:-}$name run $r exit $rc; "
                mv "$OUT/$role/$name.run$r.out" "$OUT/$role/$name.run$r.failed"
            fi
        done
    done
done
T_END=$(date +%s)

# Best value of one row over the good runs of a role: $1 role, $2 job, $3 size,
# $4 min|max.  Prints the value or nothing.
best() {
    local files=() f
    for f in "$OUT/$1/$2".run*.out; do
        [ -e "$f" ] && files+=("$f")
    done
    [ ${#files[@]} -gt 0 ] || return 0
    awk -v size="$3" -v mode="$4" '
        /^#/ || NF < 2 { next }
        $1 == size && $2 ~ /^[0-9.]+$/ {
            v = $2 + 0
            if (!found || (mode == "min" && v < b) || (mode == "max" && v > b)) b = v
            found = 1
        }
        END { if (found) printf "%.2f\n", b }
    ' "${files[@]}"
}

cpu_model() {
    local m
    m=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    [ -n "$m" ] || m=$(lscpu 2>/dev/null | awk -F': *' '/^Model name/ { print $2; exit }' || true)
    echo "${m:-unknown}"
}

# The report is written to a file first (the counters must survive the block,
# which a pipe into tee would run in a subshell), then shown.
NREG=0
NIMP=0
NOK=0
NNA=0
NFAIL=0
{
    echo "# railmpi commit comparison (benchmarks/compare-commits.sh)"
    echo "# date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')  host: $(uname -n)"
    echo "# machine: nproc $(nproc 2>/dev/null || echo '?'), CPU: $(cpu_model), load average at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
    echo "# base:    $BASE_SHA ($(git -C "$REPO" log -1 --format=%s "$BASE_SHA" | cut -c1-70))"
    if [ -n "$HEAD_SHA" ]; then
        echo "# head:    $HEAD_SHA ($(git -C "$REPO" log -1 --format=%s "$HEAD_SHA" | cut -c1-70))"
    else
        echo "# head:    $HEAD_DESC"
    fi
    echo "# runs:    $RUNS per build and program, alternating base/head, best kept (min us, max MB/s); 2 ranks; -i $SCALE"
    echo "# ratio:   head vs base as a speed ratio, > 1.00 = head better (base/head for us, head/base for MB/s)"
    echo "# verdict: REGRESSED = head more than $THRESHOLD % worse than base"
    [ -z "$PEERS" ] || echo "# peers:   $(for p in $PEERS; do printf '%s, ' "$(peer_title $p)"; done | sed 's/, $//') in the same rounds (defaults, 2 ranks); head vs best peer: a speed ratio, > 1.00 = head faster"
    for role in base head $PEERS; do
        if [ -n "${FAILS[$role]:-}" ]; then
            f=${FAILS[$role]}
            echo "# $role failures: ${f%; }"
        fi
        for p in $PROGS; do
            [ "${HAVE[$role.$p]:-0}" = 1 ] || echo "# $role: $p.c did not compile (n/a)"
        done
    done
    echo
    ph="" pl=""
    for p in $PEERS; do
        ph="$ph$(printf ' | %15s' "$(peer_title $p)")"
        pl="$pl-+----------------"
    done
    [ -z "$PEERS" ] || { ph="$ph | head vs best peer"; pl="$pl-+------------------"; }
    printf "%-26s | %-4s | %10s | %10s | %12s | %-9s%s\n" row unit base head "head vs base" verdict "$ph"
    printf "%s%s\n" "---------------------------+------+------------+------------+--------------+----------" "$pl"
    for row in "${ROWS[@]}"; do
        IFS='|' read -r label unit mode job size <<<"$row"
        bv=$(best base "$job" "$size" "$mode")
        hv=$(best head "$job" "$size" "$mode")
        read -r ratio verdict < <(awk -v b="${bv:-}" -v h="${hv:-}" -v mode="$mode" -v t="$THRESHOLD" '
            BEGIN {
                if (b == "") { print "n/a n/a"; exit }
                if (h == "") { print "n/a FAILED"; exit }
                b += 0; h += 0
                if (b <= 0 || h <= 0) { print "n/a n/a"; exit }
                r = (mode == "min") ? b / h : h / b
                if (mode == "min") {
                    v = (h > b * (1 + t / 100)) ? "REGRESSED" : (h < b * (1 - t / 100)) ? "improved" : "ok"
                } else {
                    v = (h < b * (1 - t / 100)) ? "REGRESSED" : (h > b * (1 + t / 100)) ? "improved" : "ok"
                }
                # One step of the 2-decimal output of the programs is not a change.
                d = h - b; if (d < 0) d = -d
                if (d < 0.015) v = "ok"
                printf "%.2f %s\n", r, v
            }')
        case $verdict in
            REGRESSED) NREG=$((NREG + 1)) ;;
            improved) NIMP=$((NIMP + 1)) ;;
            ok) NOK=$((NOK + 1)) ;;
            FAILED) NFAIL=$((NFAIL + 1)) ;;
            *) NNA=$((NNA + 1)) ;;
        esac
        pc="" pv=""
        for p in $PEERS; do
            v=$(best "$p" "$job" "$size" "$mode")
            pc="$pc$(printf ' | %15s' "${v:-n/a}")"
            pv="$pv ${v:-n/a}"
        done
        if [ -n "$PEERS" ]; then
            pr=$(awk -v h="${hv:-}" -v mode="$mode" -v peers="$pv" 'BEGIN {
                n = split(peers, p, " "); best = ""
                for (i = 1; i <= n; i++)
                    if (p[i] != "n/a" && p[i] + 0 > 0 && (best == "" || (mode == "max" ? p[i] + 0 > best : p[i] + 0 < best)))
                        best = p[i] + 0
                if (h == "" || h + 0 <= 0 || best == "") print "n/a"
                else printf "%.2f", (mode == "min") ? best / h : h / best
            }')
            pc="$pc$(printf ' | %17s' "$pr")"
        fi
        printf "%-26s | %-4s | %10s | %10s | %12s | %-9s%s\n" "$label" "$unit" "${bv:-n/a}" "${hv:-n/a}" "$ratio" "$verdict" "$pc"
    done
    echo
    if [ $((NREG + NFAIL)) -gt 0 ]; then
        what="REGRESSION: $NREG row(s) more than $THRESHOLD % worse, $NFAIL failed"
    else
        what="no regression beyond $THRESHOLD %"
    fi
    echo "# summary: $what; $NIMP improved, $NOK within $THRESHOLD %, $NNA n/a (${#ROWS[@]} rows); builds $((T_BUILT - T0)) s, runs $((T_END - T_BUILT)) s"
} >"$REPORT"
cat "$REPORT"

log "report written to $REPORT (raw outputs in $OUT)"
if [ "$STRICT" = 1 ] && [ $((NREG + NFAIL)) -gt 0 ]; then
    exit 1
fi
exit 0
