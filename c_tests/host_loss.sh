#!/usr/bin/env bash
# c_tests/host_loss.sh NS LAUNCH...   Starts LAUNCH (a job running host_loss), waits for its
# "ready", kills every process of network namespace NS (a host that dies), and checks that
# the job ends, non-zero, within 5 s. Prints the job's output and "host lost: job ended
# after S s with status X"; exits 1 if it did not end in time.
set -u
ns=$1
shift
out=$(mktemp)
"$@" >"$out" 2>&1 &
job=$!
for _ in $(seq 100); do
    grep -q '^ready' "$out" && break
    sleep 0.1
done
grep -q '^ready' "$out" || { cat "$out"; echo "host_loss: the job never got ready"; kill -9 $job; exit 1; }
t0=$(date +%s.%N)
ip netns pids "$ns" | xargs -r kill -9
for _ in $(seq 50); do
    kill -0 $job 2>/dev/null || break
    sleep 0.1
done
if kill -0 $job 2>/dev/null; then
    cat "$out"
    echo "host_loss: the job still runs 5 s after host $ns died"
    kill -9 $job
    exit 1
fi
wait $job
st=$?
t1=$(date +%s.%N)
cat "$out"
rm -f "$out"
echo "host lost: job ended after $(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }") s with status $st"
[ "$st" -ne 0 ]
