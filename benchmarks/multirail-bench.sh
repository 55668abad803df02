#!/usr/bin/env bash
# multirail-bench.sh — several rails at once (Liu, Vishnu, Panda 2004, §6.3, Fig. 17-20):
# two hosts (network namespaces) joined by two links whose speeds tc sets low enough that
# this machine is not the bottleneck; benchmarks/multirail.c between one rank on each.
#
#   benchmarks/multirail-bench.sh BUILD_DIR
#
#   rails 400 + 100 Mbit/s   bandwidth per size: railmpi on one link, striping even,
#                            weighted 4:1 (told the rates), adaptive (not told), and Open MPI
#                            (btl tcp over both links) — Fig. 17-18; the same bidirectional
#                            (Fig. 19); the weights adaptive converged to.
#   rails 250 + 250 Mbit/s   one link vs two (even, adaptive) and Open MPI.
#   competing flow           400 + 100 Mbit/s, 1 MiB messages for 12 s while a second job
#                            streams over the fast link from 3 s to 8 s: bandwidth over time
#                            for adaptive, even and weighted 4:1 (Fig. 20).
# Figures (PNG, gnuplot): BUILD/bench/multirail/{fig17_4to1.png,fig19_bidir.png,
# fig20_competing.png}; tables on stdout and in BUILD/bench/multirail/report.txt.
# Needs root (namespaces, tc). Environment: BENCH_MR_SECONDS (per size, default 1).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=benchmarks/lib.sh
. "$ROOT/benchmarks/lib.sh"
bench_start "$0" multirail "$@"
NETNS=$ROOT/c_tests/netns.sh
SECS=${BENCH_MR_SECONDS:-1}
H2=10.77.0.10,10.77.0.11
log() { echo "multirail-bench: $*" >&2; }

if [ "$(id -u)" != 0 ]; then
    log "needs root (network namespaces, tc): skipped"
    exit 0
fi
"$BUILD/bin/mpicc" -O2 -o "$OUT/multirail-railmpi" "$ROOT/benchmarks/multirail.c" || exit 1
OMPI=""
if command -v mpicc.openmpi >/dev/null 2>&1 &&
    mpicc.openmpi -O2 -o "$OUT/multirail-ompi" "$ROOT/benchmarks/multirail.c" 2>/dev/null; then
    OMPI=$OUT/multirail-ompi
fi
LINKS=2 "$NETNS" up 2 >"$OUT/netns.log" 2>&1 || { log "cannot create namespaces"; exit 1; }
trap '"$NETNS" down' EXIT

rates() {
    "$NETNS" shape 0 tbf rate "$1"mbit burst 256kb latency 100ms &&
        "$NETNS" shape 1 tbf rate "$2"mbit burst 256kb latency 100ms
}
# ours NAME IFACES STRIPING MODE ARGS...: railmpi, output in $OUT/NAME.out
ours() {
    local name=$1 ifaces=$2 striping=$3
    shift 3
    timeout 600 "$BUILD/bin/mpiexec" --launcher "$NETNS" -hosts "$H2" -ppn 1 \
        -genv RAILMPI_BIND none -genv RAILMPI_TCP_IFACES "$ifaces" \
        -genv RAILMPI_STRIPING "$striping" -genv RAILMPI_STATS 1 \
        "$OUT/multirail-railmpi" "$@" >"$OUT/$name.out" 2>&1 </dev/null ||
        log "$name failed (see $OUT/$name.out)"
}
ompi() {
    local name=$1
    shift
    [ -n "$OMPI" ] || return 0
    timeout 600 mpiexec.openmpi --allow-run-as-root --bind-to none \
        --mca plm_rsh_agent "$NETNS" -H "$H2" -np 2 --mca pml ob1 --mca btl tcp,self \
        --mca btl_tcp_if_include eth0,eth1 --mca oob_tcp_if_include 10.77.0.0/24 \
        "$OMPI" "$@" >"$OUT/$name.out" 2>&1 </dev/null || log "$name failed (see $OUT/$name.out)"
}
# Rank 1's final weights towards rank 0.
weights() {
    grep -o 'rank 1 multirail to rank 0:.*' "$OUT/$1.out" 2>/dev/null |
        grep -o 'weight [0-9.]*' | awk '{printf "%s%s", sep, $2; sep="/"}'
}
value() { awk -v s="$2" '$1 == s {print $2}' "$OUT/$1.out" 2>/dev/null; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "n/a"; else printf "%.2f", a / b }'; }
# table TITLE SIZES -- NAME:LABEL...
table() {
    local title=$1 sizes=$2 col s v
    shift 2
    echo "# $title"
    printf "%-9s" Size
    for col in "$@"; do printf " | %14s" "${col#*:}"; done
    echo
    for s in $sizes; do
        printf "%-9s" "$s"
        for col in "$@"; do
            v=$(value "${col%%:*}" "$s")
            printf " | %14s" "${v:-n/a}"
        done
        echo
    done
    echo
}
SIZES="65536 131072 262144 524288 1048576 2097152 4194304"

log "rails 400 + 100 Mbit/s"
rates 400 100
for m in bw bibw; do
    ours "$m-4to1-single" eth0 adaptive "$m" -t "$SECS"
    ours "$m-4to1-even" eth0,eth1 even "$m" -t "$SECS"
    ours "$m-4to1-weighted" eth0,eth1 weighted:4,1 "$m" -t "$SECS"
    ours "$m-4to1-adaptive" eth0,eth1 adaptive "$m" -t "$SECS"
    ompi "$m-4to1-ompi" "$m" -t "$SECS"
done
log "rails 250 + 250 Mbit/s"
rates 250 250
ours bw-equal-single eth0 adaptive bw -t "$SECS"
ours bw-equal-even eth0,eth1 even bw -t "$SECS"
ours bw-equal-adaptive eth0,eth1 adaptive bw -t "$SECS"
ompi bw-equal-ompi bw -t "$SECS"

log "competing flow on the fast link (3 s .. 8 s of 12 s)"
rates 400 100
for st in adaptive even weighted:4,1; do
    name=stream-${st%%:*}
    ours "$name" eth0,eth1 "$st" stream -t 12 &
    main=$!
    sleep 3
    timeout 60 "$BUILD/bin/mpiexec" --launcher "$NETNS" -hosts "$H2" -ppn 1 \
        -genv RAILMPI_BIND none -genv RAILMPI_TCP_IFACES eth0 \
        "$OUT/multirail-railmpi" stream -t 5 >"$OUT/$name-competitor.out" 2>&1 </dev/null
    wait $main
done
"$NETNS" shape 0 none
"$NETNS" shape 1 none

{
    echo "# Multirail: two hosts (network namespaces) over two links shaped with tc tbf, one rank"
    echo "# each; benchmarks/multirail.c, $SECS s per size, MB/s (1e6 B/s). $(nproc) cores."
    echo
    table "rails 400 + 100 Mbit/s (sum 62.5 MB/s): bandwidth" "$SIZES" \
        bw-4to1-single:"one link" bw-4to1-even:even bw-4to1-weighted:"weighted 4:1" \
        bw-4to1-adaptive:adaptive bw-4to1-ompi:"Open MPI"
    table "rails 400 + 100 Mbit/s: bidirectional bandwidth (both directions summed)" "$SIZES" \
        bibw-4to1-single:"one link" bibw-4to1-even:even bibw-4to1-weighted:"weighted 4:1" \
        bibw-4to1-adaptive:adaptive bibw-4to1-ompi:"Open MPI"
    table "rails 250 + 250 Mbit/s (sum 62.5 MB/s): bandwidth" "$SIZES" \
        bw-equal-single:"one link" bw-equal-even:even bw-equal-adaptive:adaptive \
        bw-equal-ompi:"Open MPI"
    a=$(value bw-4to1-adaptive 4194304)
    echo "# At 4 MiB: adaptive / sum of the links (62.5 MB/s) $(ratio "$a" 62.5)," \
        "adaptive / even $(ratio "$a" "$(value bw-4to1-even 4194304)")," \
        "adaptive / weighted 4:1 $(ratio "$a" "$(value bw-4to1-weighted 4194304)")," \
        "adaptive / Open MPI $(ratio "$a" "$(value bw-4to1-ompi 4194304)");" \
        "two equal links / one $(ratio "$(value bw-equal-adaptive 4194304)" \
            "$(value bw-equal-single 4194304)")"
    echo "# Weights adaptive converged to (rank 1 towards rank 0; eth0/eth1): at tc 400/100:" \
        "$(weights bw-4to1-adaptive) (bidirectional: $(weights bibw-4to1-adaptive));" \
        "at 250/250: $(weights bw-equal-adaptive)"
    echo
    echo "# Competing flow on the 400 Mbit/s link from 3 s to 8 s: mean MB/s in each phase"
    printf "%-14s | %10s | %10s | %10s\n" striping "0-3 s" "3-8 s" "8-12 s"
    for st in adaptive even weighted; do
        awk -v n="$st" '$1 ~ /^[0-9.]+$/ {
                p = ($1 < 3) ? 1 : ($1 < 8) ? 2 : 3; s[p] += $2; c[p]++ }
            END { printf "%-14s | %10.2f | %10.2f | %10.2f\n", n,
                c[1] ? s[1] / c[1] : 0, c[2] ? s[2] / c[2] : 0, c[3] ? s[3] / c[3] : 0 }' \
            "$OUT/stream-$st.out"
    done
} | tee "$OUT/report.txt"

if command -v gnuplot >/dev/null 2>&1; then
    for f in bw bibw; do
        for c in single even weighted adaptive ompi; do
            grep -E '^[0-9]+ ' "$OUT/$f-4to1-$c.out" >"$OUT/$f-4to1-$c.dat" 2>/dev/null
        done
    done
    for st in adaptive even weighted; do
        grep -E '^[0-9.]+ ' "$OUT/stream-$st.out" >"$OUT/stream-$st.dat" 2>/dev/null
    done
    gnuplot <<EOF 2>"$OUT/gnuplot.log" || log "gnuplot failed (see $OUT/gnuplot.log)"
set terminal pngcairo size 900,560 noenhanced
set key left top
set grid
set logscale x 2
set xlabel "message size (bytes)"
set ylabel "MB/s"
set output "$OUT/fig17_4to1.png"
set title "Bandwidth over links of 400 + 100 Mbit/s"
plot "$OUT/bw-4to1-single.dat" w lp t "one link (400)", \
     "$OUT/bw-4to1-even.dat" w lp t "even", \
     "$OUT/bw-4to1-weighted.dat" w lp t "weighted 4:1", \
     "$OUT/bw-4to1-adaptive.dat" w lp t "adaptive", \
     "$OUT/bw-4to1-ompi.dat" w lp t "Open MPI (btl tcp, both links)"
set output "$OUT/fig19_bidir.png"
set title "Bidirectional bandwidth over links of 400 + 100 Mbit/s"
plot "$OUT/bibw-4to1-single.dat" w lp t "one link (400)", \
     "$OUT/bibw-4to1-even.dat" w lp t "even", \
     "$OUT/bibw-4to1-weighted.dat" w lp t "weighted 4:1", \
     "$OUT/bibw-4to1-adaptive.dat" w lp t "adaptive", \
     "$OUT/bibw-4to1-ompi.dat" w lp t "Open MPI (btl tcp, both links)"
unset logscale x
set xlabel "time (s)"
set output "$OUT/fig20_competing.png"
set title "1 MiB messages, 400 + 100 Mbit/s; a competing flow on the fast link from 3 to 8 s"
set arrow from 3, graph 0 to 3, graph 1 nohead dt 2
set arrow from 8, graph 0 to 8, graph 1 nohead dt 2
plot "$OUT/stream-adaptive.dat" w l lw 2 t "adaptive", \
     "$OUT/stream-even.dat" w l t "even", \
     "$OUT/stream-weighted.dat" w l t "weighted 4:1"
EOF
    log "figures in $OUT/*.png"
else
    log "gnuplot not found: no figures"
fi
"$NETNS" down
trap - EXIT
exit 0
