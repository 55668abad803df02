# benchmarks/lib.sh — what the benchmark scripts share (sourced, not run).

# bench_start SCRIPT NAME ARGS...: the scripts' one argument, BUILD_DIR; sets BUILD (its
# absolute path) and OUT (BUILD/bench/NAME, emptied), or prints the usage and exits 2.
bench_start() {
    local script=$1 name=$2
    shift 2
    if [ $# -ne 1 ]; then
        echo "usage: $script BUILD_DIR" >&2
        exit 2
    fi
    BUILD=$(cd "$1" && pwd) || exit 2
    OUT=$BUILD/bench/$name
    rm -rf "$OUT"
    mkdir -p "$OUT"
}

# bench_build PROGRAM...: benchmarks/PROGRAM.c built for each of $IMPLS with its compiler
# wrapper (`cc_of IMPL`, defined by the script) into $OUT/IMPL/; sets BUILT to those that
# built (the others are logged through the script's `log`: their columns are n/a).
bench_build() {
    local impl cc b ok
    BUILT=""
    for impl in $IMPLS; do
        cc=$(cc_of "$impl")
        mkdir -p "$OUT/$impl"
        ok=1
        for b in "$@"; do
            "$cc" -O2 -o "$OUT/$impl/$b" "$ROOT/benchmarks/$b.c" -lm >>"$OUT/$impl/build.log" 2>&1 ||
                ok=0
        done
        if [ $ok = 1 ]; then BUILT="$BUILT $impl"; else log "$impl: build failed; n/a"; fi
    done
}

# bench_best MODE FILE...: the "size value" rows of the given runs' outputs, the best value
# per size (MODE min: lowest, e.g. latency; max: highest, e.g. bandwidth).
bench_best() {
    local mode=$1
    shift
    cat "$@" 2>/dev/null |
        awk -v mode="$mode" '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9.]+$/ {
            s = $1; v = $2 + 0
            if (!(s in b) || (mode == "min" && v < b[s]) || (mode == "max" && v > b[s])) b[s] = v
        } END { for (s in b) printf "%d %.2f\n", s, b[s] }' | sort -n
}

# bench_ratio MODE OURS PEER...: OURS over the best of the peers' values ("n/a" where
# missing), as "%.2f"; MODE as for bench_best.
bench_ratio() {
    local mode=$1 ours=$2
    shift 2
    awk -v m="$mode" -v r="$ours" -v peers="$*" 'BEGIN {
        n = split(peers, p, " "); best = ""
        for (i = 1; i <= n; i++)
            if (p[i] != "n/a" && (best == "" || (m == "max" ? p[i] + 0 > best : p[i] + 0 < best)))
                best = p[i] + 0
        if (r == "n/a" || best == "" || best == 0) print "n/a"; else printf "%.2f", r / best
    }'
}
