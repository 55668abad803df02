#!/usr/bin/env bash
# c_tests/lifetime.sh SCENARIO LAUNCHER PROG — one process-lifetime scenario of
# cases/55_lifetime.sh: starts a job of PROG (c_tests/src/lifetime.c) under LAUNCHER, does
# something to it, and exits 0 only when the job ended in time and left no process and no
# /dev/shm file of its own behind. Every wait is bounded.
#   wrapped_kill_rank      ranks behind /usr/bin/time; one real rank is SIGKILLed
#   wrapped_term_launcher  ranks behind /usr/bin/time; the launcher gets SIGTERM
#   wrapped_kill_launcher  ranks behind /usr/bin/time; the launcher gets SIGKILL
#   launcher_gone          ranks behind two shells (the launcher's death signal reaches only
#                          the outer one); the launcher gets SIGKILL: the ranks must notice
#   init_kill_launcher     the launcher gets SIGKILL inside MPI_Init, the moment the job's
#                          shared segment has a name (8 ranks, 10 tries)
#   init_kill_rank         the same with SIGKILL to a rank (Hydra then ends the others)
#   squat                  the name the job's segment used to have exists already
#   wrap PROG ARGS...      (internal) runs PROG ARGS and then exits with its status
#   recorded DIR PROG ARGS (internal) writes its pid to DIR/<rank>, then becomes PROG ARGS
set -u
scenario=$1
if [ "$scenario" = wrap ]; then
    shift
    "$@"
    exit $?
fi
if [ "$scenario" = recorded ]; then
    # (internal) recorded DIR PROG ARGS...: the rank's pid in DIR/<rank>, then PROG.
    echo $$ >"$2/$PMI_RANK"
    shift 2
    exec "$@"
fi
launcher=$2 prog=$3
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
token="lt$$x$RANDOM"
out=$(mktemp /tmp/railmpi-lifetime.XXXXXX)
trap 'rm -f "$out"' EXIT

die() { echo "FAILED: $*"; cat "$out"; pkill -KILL -f "$token" 2>/dev/null; exit 1; }

# Waits up to $1 tenths of a second for `cond` (a command) to hold.
wait_for() {
    local n=$1 i=0
    shift
    while ! "$@"; do
        i=$((i + 1))
        [ $i -ge "$n" ] && return 1
        sleep 0.1
    done
}
ready() { grep -q '^ready' "$out"; }
gone() { ! kill -0 "$1" 2>/dev/null; }
no_ranks() { ! pgrep -f "$token" >/dev/null; }
# The job's files in /dev/shm (the segment name had the launcher's pid in it).
job_files() { ls /dev/shm 2>/dev/null | grep -E "^railmpi-(railmpi|kvs)_$1_"; }
no_orphans() {
    wait_for 30 no_ranks || die "ranks still running 3 s after the launcher ended: $(pgrep -af "$token")"
}

case $scenario in
wrapped_kill_rank | wrapped_term_launcher | wrapped_kill_launcher)
    $launcher -n 3 /usr/bin/time -o /dev/null "$prog" block "$token" >"$out" 2>&1 &
    pid=$!
    wait_for 100 ready || die "the job did not start"
    case $scenario in
    wrapped_kill_rank)
        victim=$(pgrep -f "^$prog block $token" | head -n 1)
        [ -n "$victim" ] || die "no rank found"
        kill -KILL "$victim" ;;
    wrapped_term_launcher) kill -TERM $pid ;;
    wrapped_kill_launcher) kill -KILL $pid ;;
    esac
    wait_for 50 gone $pid || die "the launcher did not end within 5 s"
    no_orphans
    ;;
launcher_gone)
    $launcher -n 2 "$self" wrap "$self" wrap "$prog" block "$token" >"$out" 2>&1 &
    pid=$!
    wait_for 100 ready || die "the job did not start"
    kill -KILL $pid
    wait_for 30 no_ranks || die "ranks still running 3 s after the launcher was killed"
    grep -q 'the job is gone' "$out" || die "no message from the ranks"
    ;;
init_kill_launcher)
    for try in 1 2 3 4 5 6 7 8 9 10; do
        : >"$out"
        $launcher -n 8 "$prog" block "$token" >"$out" 2>&1 &
        pid=$!
        # SIGKILL as soon as the segment's name shows (a tight loop of shell builtins: the
        # name used to live for a few PMI round trips only), else once the job is up.
        end=$((SECONDS + 10))
        while [ $SECONDS -lt $end ]; do
            f=(/dev/shm/railmpi-railmpi_${pid}_0-*)
            [ -e "${f[0]}" ] && break
            [ -s "$out" ] && ready && break
        done
        kill -KILL $pid
        wait_for 50 gone $pid
        no_orphans
        left=$(job_files $pid)
        [ -z "$left" ] || { rm -f $(printf '/dev/shm/%s ' $left); die "left in /dev/shm: $left"; }
    done
    ;;
init_kill_rank)
    for try in 1 2 3 4 5 6 7 8 9 10; do
        : >"$out"
        pids=$(mktemp -d /tmp/railmpi-lifetime-pids.XXXXXX)
        $launcher -n 8 "$self" recorded "$pids" "$prog" block "$token" >"$out" 2>&1 &
        pid=$!
        end=$((SECONDS + 10))
        while [ $SECONDS -lt $end ]; do
            f=(/dev/shm/railmpi-*_${pid}_*)
            [ -e "${f[0]}" ] && break
            [ -s "$out" ] && ready && break
        done
        wait_for 50 test -s "$pids/7" || die "rank 7 did not start"
        kill -KILL "$(<"$pids/7")"
        rm -rf "$pids"
        wait_for 100 gone $pid || die "the job did not end within 10 s"
        no_orphans
        left=$(job_files $pid)
        [ -z "$left" ] || { rm -f $(printf '/dev/shm/%s ' $left); die "left in /dev/shm: $left"; }
    done
    ;;
squat)
    # The old name: railmpi-<kvsname>-shm-<host>, kvsname railmpi_<mpiexec pid>_0; exec
    # keeps the shell's pid for the launcher.
    host=$(hostname | sed 's/[^A-Za-z0-9-]/_/g')
    bash -c 'f=/dev/shm/railmpi-railmpi_$$_0-shm-$1; : >"$f"; echo "$f" >"$4"; exec "$2" -n 2 "$3" plain' \
        squat "$host" "$launcher" "$prog" "$out.name" >"$out" 2>&1
    rc=$?
    rm -f "$(cat "$out.name")" "$out.name"
    [ $rc = 0 ] && grep -q '^ok lifetime plain' "$out" || die "the job failed (exit $rc)"
    ;;
*)
    echo "unknown scenario $scenario"
    exit 2
    ;;
esac
cat "$out"
echo "ok lifetime.sh $scenario"
