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
#   init_kill_launcher     the launcher gets SIGKILL while rank 0 waits inside MPI_Init, the
#                          moment the job's shared segment is there (8 ranks, 5 tries)
#   hydra_init_die         under Hydra, rank 1 dies before MPI_Init while the others are in it
#   squat                  the name the job's segment used to have exists already
#   wrap PROG ARGS...      (internal) runs PROG ARGS and then exits with its status
set -u
scenario=$1
if [ "$scenario" = wrap ]; then
    shift
    "$@"
    exit $?
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
    for try in 1 2 3 4 5; do
        : >"$out"
        $launcher -n 8 "$prog" block "$token" >"$out" 2>&1 &
        pid=$!
        # SIGKILL as soon as the segment's name shows, else once the job is up.
        wait_for 100 eval 'job_files $pid >/dev/null || ready' || die "the job did not start"
        kill -KILL $pid
        wait_for 50 gone $pid
        no_orphans
        left=$(job_files $pid)
        [ -z "$left" ] || { rm -f $(printf '/dev/shm/%s ' $left); die "left in /dev/shm: $left"; }
    done
    ;;
hydra_init_die)
    $launcher -n 3 "$prog" init_die "$token" >"$out" 2>&1 &
    pid=$!
    wait_for 100 gone $pid || die "the job did not end within 10 s"
    no_orphans
    left=$(job_files $pid)
    [ -z "$left" ] || { rm -f $(printf '/dev/shm/%s ' $left); die "left in /dev/shm: $left"; }
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
