#!/bin/bash
# run_list.sh DIR — inside a guest: run each case of DIR/cases.tsv (lines
# "NAME<TAB>SECONDS<TAB>COMMAND"), one after the other, each under `timeout SECONDS`,
# its output to DIR/NAME.log and its exit status to DIR/NAME.rc. One guest boot serves a
# whole list (a boot costs more than most cases); the host's case file then judges each
# result (c_tests/cases/85_verbs.sh).
set -u
dir=$1
while IFS=$'\t' read -r name secs cmd; do
    [ -n "$name" ] || continue
    t0=$(date +%s.%N)
    timeout -k 5 "$secs" bash -c "$cmd" </dev/null >"$dir/$name.log" 2>&1
    rc=$?
    echo "$rc" >"$dir/$name.rc"
    awk -v n="$name" -v rc="$rc" -v a="$t0" -v b="$(date +%s.%N)" \
        'BEGIN { printf "%s rc=%s %.1fs\n", n, rc, b - a }'
done <"$dir/cases.tsv"
