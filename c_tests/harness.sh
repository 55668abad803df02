#!/usr/bin/env bash
# c_tests/harness.sh — run the C test cases (c_tests/cases/*.sh, in name order).
#
# usage: c_tests/harness.sh [--mpich] [BUILD_DIR] [FILTER]
#   BUILD_DIR  railmpi build directory (default: <repo>/build)
#   FILTER     only case files whose name matches this glob (a plain word matches as
#              *WORD*), e.g. `20_*`, `pt2pt`, `80_swapin.sh`
#   --mpich    validate the tests against Debian's MPICH instead: builds every c_tests/src/*.c
#              with mpicc.mpich into BUILD_DIR (default: a new /tmp/c_tests-mpich.XXXXXX) and
#              runs with MPIEXEC=mpiexec.mpich; cases that need railmpi's library are skipped.
#
# Variables for case files (each may be overridden from the environment):
#   BUILD MPIEXEC MPICC CT CTM LIB HYDRA LOGDIR, and CT_IMPL (railmpi or mpich).
# Prints PASS/FAIL/SKIP lines and, as the very last line, "N passed, N failed";
# exits 1 if anything failed.

set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)

CT_IMPL=railmpi
if [ "${1:-}" = --mpich ]; then
    CT_IMPL=mpich
    shift
fi
BUILD_ARG=${1:-}
FILTER=${2:-}

abspath() { case "$1" in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

if [ "$CT_IMPL" = mpich ]; then
    if [ -n "$BUILD_ARG" ]; then BUILD=$(abspath "$BUILD_ARG"); else BUILD=$(mktemp -d /tmp/c_tests-mpich.XXXXXX); fi
    MPIEXEC=${MPIEXEC:-mpiexec.mpich}
    MPICC=${MPICC:-mpicc.mpich}
    CT=${CT:-$BUILD/c_tests}
    CTM=${CTM:-$CT}
    LIB=${LIB:-$BUILD/no-railmpi-lib}
    # MPICH 4.0.2 (ch4) crashes in MPI_Reduce with MPI_IN_PLACE at a non-zero root for larger
    # counts in its device collectives; the generic ones are fine.
    export MPIR_CVAR_DEVICE_COLLECTIVES=${MPIR_CVAR_DEVICE_COLLECTIVES:-none}
else
    BUILD=$(abspath "${BUILD_ARG:-$ROOT/build}")
    MPIEXEC=${MPIEXEC:-$BUILD/bin/mpiexec}
    MPICC=${MPICC:-$BUILD/bin/mpicc}
    CT=${CT:-$BUILD/c_tests}
    CTM=${CTM:-$BUILD/c_tests_mpich}
    LIB=${LIB:-$BUILD/lib}
fi
HYDRA=${HYDRA:-mpiexec.hydra}
LOGDIR=${LOGDIR:-$BUILD/test-logs}
export BUILD MPIEXEC MPICC CT CTM LIB HYDRA LOGDIR CT_IMPL

# shellcheck source=lib.sh
. "$HERE/lib.sh"

mkdir -p "$LOGDIR"
: >"$LOGDIR/times.txt"
echo "c_tests: impl=$CT_IMPL MPIEXEC=$MPIEXEC CT=$CT CTM=$CTM LIB=$LIB HYDRA=$HYDRA"
echo "c_tests: logs in $LOGDIR"

# In --mpich mode, build the programs here (the Makefile does it for railmpi).
if [ "$CT_IMPL" = mpich ]; then
    mkdir -p "$CT"
    for src in "$HERE"/src/*.c; do
        prog=$(basename "$src" .c)
        if ! $MPICC -O2 -g -Wall -pthread -o "$CT/$prog" "$src" >"$LOGDIR/build_$prog.log" 2>&1; then
            _ct_fail "build_$prog" "$MPICC failed" "$LOGDIR/build_$prog.log"
        fi
    done
fi

shm_at_start=$(_ct_shm_list)
if [ -n "$shm_at_start" ]; then
    echo "note: /dev/shm already holds railmpi files before the run (left alone):" $shm_at_start
fi

case "$FILTER" in
*'*'* | *'?'* | *'['*) glob=$FILTER ;;
'') glob='*' ;;
*) glob="*$FILTER*" ;;
esac

for casefile in "$HERE"/cases/*.sh; do
    [ -e "$casefile" ] || continue
    base=$(basename "$casefile")
    # shellcheck disable=SC2254
    case "$base" in
    $glob) ;;
    *) continue ;;
    esac
    echo "== $base"
    # shellcheck source=/dev/null
    . "$casefile"
done

# Leftovers: shared-memory files and processes the cases left behind.
shm_now=$(_ct_shm_list)
stray=$(comm -13 <(printf '%s\n' "$shm_at_start") <(printf '%s\n' "$shm_now") | grep . || true)
# shellcheck disable=SC2086
[ -n "$stray" ] && stray=$(_ct_shm_unused $stray)
if [ -n "$CT_SHM_LEAKS" ] || [ -n "$stray" ]; then
    {
        echo "cases that left /dev/shm/railmpi-* files:${CT_SHM_LEAKS:- (none)}"
        [ -n "$stray" ] && echo "left outside any case (removed now):" $stray
    } >"$LOGDIR/no_leftover_shm.log"
    # shellcheck disable=SC2086
    [ -n "$stray" ] && rm -f $stray
    _ct_fail no_leftover_shm "shared-memory files left behind" "$LOGDIR/no_leftover_shm.log"
else
    CT_PASSED=$((CT_PASSED + 1))
    echo "PASS no_leftover_shm"
fi
if [ -n "$CT_PROC_LEAKS" ]; then
    echo "cases that left processes running (killed):$CT_PROC_LEAKS" >"$LOGDIR/no_leftover_procs.log"
    _ct_fail no_leftover_procs "processes left running" "$LOGDIR/no_leftover_procs.log"
else
    CT_PASSED=$((CT_PASSED + 1))
    echo "PASS no_leftover_procs"
fi

[ -n "$CT_FAILED_NAMES" ] && echo "failed:$CT_FAILED_NAMES"
[ "$CT_SKIPPED" -gt 0 ] && echo "skipped: $CT_SKIPPED"
echo "$CT_PASSED passed, $CT_FAILED failed"
[ "$CT_FAILED" -eq 0 ]
