#!/usr/bin/env bash
# io-bench.sh — MPI-IO comparison (benchmarks/io.c): a collective write and read of a
# block-distributed 2-D array of doubles and of a strided pattern of small blocks
# interleaved across ranks, under railmpi, MPICH (ROMIO) and Open MPI, 4 ranks, in one
# run; then the number of positioned read/write system calls each issues for the same
# program (strace -f -c over the launcher and its ranks, one smaller run).
#
# Usage: benchmarks/io-bench.sh BUILD_DIR
# Environment:
#   RAILMPI_IO_BENCH_SIZE  file size (default 1G; K/M/G suffixes)
#   BENCH_IO_DIR           directory for the file (default BUILD_DIR/bench/io-files: local
#                          disk, not a tmpfs /tmp); emptied at the end
#   BENCH_IO_NP            ranks (default 4)
#   BENCH_IO_RUNS          repetitions per pattern, best kept (default 3)
#   BENCH_IO_BLOCK         doubles per block of the strided pattern (default 16)
#   BENCH_IO_STRACE_SIZE   file size of the counted run (default 64M); 0 skips it
#   BENCH_IMPLS            as run-bench.sh (default "railmpi mpich openmpi")
# Output: tables on stdout; raw outputs in BUILD_DIR/bench/io/.
set -u
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
BUILD=$(cd "$1" && pwd)
SRC_DIR=$(cd "$(dirname "$0")" && pwd)
OUT=$BUILD/bench/io
SIZE=${RAILMPI_IO_BENCH_SIZE:-1G}
DIR=${BENCH_IO_DIR:-$BUILD/bench/io-files}
NP=${BENCH_IO_NP:-4}
RUNS=${BENCH_IO_RUNS:-3}
BLOCK=${BENCH_IO_BLOCK:-16}
SSIZE=${BENCH_IO_STRACE_SIZE:-64M}
IMPLS=${BENCH_IMPLS:-"railmpi mpich openmpi"}
mkdir -p "$OUT" "$DIR"

cc_of() { case $1 in railmpi) echo "$BUILD/bin/mpicc" ;; mpich) echo mpicc.mpich ;; openmpi) echo mpicc.openmpi ;; esac; }
run_of() {
    case $1 in
    railmpi) echo "$BUILD/bin/mpiexec -n $NP" ;;
    mpich) echo "mpiexec.mpich -n $NP" ;;
    openmpi) echo "mpiexec.openmpi --allow-run-as-root --oversubscribe -n $NP" ;;
    esac
}
title() { case $1 in railmpi) echo railmpi ;; mpich) echo MPICH ;; openmpi) echo "Open MPI" ;; esac; }

declare -A MBS CALLS
for impl in $IMPLS; do
    cc=$(cc_of "$impl")
    command -v "${cc%% *}" >/dev/null 2>&1 || { echo "io-bench: $impl: $cc missing" >&2; continue; }
    "$cc" -O2 -o "$OUT/io-$impl" "$SRC_DIR/io.c" >"$OUT/build-$impl.log" 2>&1 ||
        { echo "io-bench: $impl: build failed" >&2; continue; }
    # shellcheck disable=SC2046
    if timeout 3600 $(run_of "$impl") "$OUT/io-$impl" -s "$SIZE" -r "$RUNS" -b "$BLOCK" -d "$DIR" \
        >"$OUT/$impl.out" 2>&1; then
        while read -r pat op v; do
            MBS[$impl,$pat $op]=$v
        done < <(grep -v '^#' "$OUT/$impl.out")
    else
        echo "io-bench: $impl: run failed (see $OUT/$impl.out)" >&2
    fi
    if [ "$SSIZE" != 0 ] && command -v strace >/dev/null 2>&1; then
        # shellcheck disable=SC2046
        timeout 1800 strace -f -c -o "$OUT/$impl.strace" \
            -e trace=pwrite64,pwritev,pwritev2,pread64,preadv,preadv2 \
            $(run_of "$impl") "$OUT/io-$impl" -s "$SSIZE" -r 1 -b "$BLOCK" -d "$DIR" \
            >"$OUT/$impl.strace.out" 2>&1 || echo "io-bench: $impl: strace run failed" >&2
        for sc in pwrite64 pwritev pread64 preadv; do
            CALLS[$impl,$sc]=$(awk -v s="$sc" '$NF == s { print ($4 ~ /^[0-9]+$/ ? $4 : $3) }' \
                "$OUT/$impl.strace" 2>/dev/null | head -1)
        done
    fi
done
rm -rf "${DIR:?}"/io_bench_* 2>/dev/null

echo
echo "# MPI-IO bandwidth (MB/s, 1 MB = 1e6 B), benchmarks/io.c, $NP ranks, file $SIZE in $DIR, best of $RUNS; strided: blocks of $BLOCK doubles; higher is better"
printf "%-15s" "Pattern"
for impl in $IMPLS; do printf " | %10s" "$(title "$impl")"; done
printf " | %s\n" "railmpi/best-peer"
for key in "block2d write" "block2d read" "strided write" "strided read"; do
    printf "%-15s" "$key"
    best=0
    for impl in $IMPLS; do
        v=${MBS[$impl,$key]:-n/a}
        printf " | %10s" "$v"
        if [ "$impl" != railmpi ] && [ "$v" != n/a ]; then
            best=$(awk -v a="$best" -v b="$v" 'BEGIN { print (b > a ? b : a) }')
        fi
    done
    r=${MBS[railmpi,$key]:-}
    if [ -n "$r" ] && [ "$best" != 0 ]; then
        printf " | %.2f\n" "$(awk -v a="$r" -v b="$best" 'BEGIN { print a / b }')"
    else
        printf " | n/a\n"
    fi
done
if [ "$SSIZE" != 0 ]; then
    echo
    echo "# Positioned I/O system calls of one run ($SSIZE file, both patterns, write and read; strace -f -c)"
    printf "%-10s | %9s | %9s | %9s | %9s\n" Impl pwrite64 pwritev pread64 preadv
    for impl in $IMPLS; do
        printf "%-10s | %9s | %9s | %9s | %9s\n" "$(title "$impl")" "${CALLS[$impl,pwrite64]:-0}" \
            "${CALLS[$impl,pwritev]:-0}" "${CALLS[$impl,pread64]:-0}" "${CALLS[$impl,preadv]:-0}"
    done
fi
