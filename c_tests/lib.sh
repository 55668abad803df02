# c_tests/lib.sh — helpers for case files; sourced by harness.sh (bash).
#
#   run_case NAME EXPECTED_EXIT CMD...
#       Runs CMD (stdin from /dev/null) under `timeout ${CASE_TIMEOUT:-120}`, output (stdout and
#       stderr together) to $LOGDIR/NAME.log; prints "PASS NAME" or
#       "FAIL NAME (exit X, expected Y; log: PATH)" and the last 20 log lines.
#       EXPECTED_EXIT is a number, or "nonzero" (any failure exit except a timeout/kill,
#       or 126/127: a program that could not run is no expected failure).
#       A word of CMD that names a program the build makes ($BUILD/bin, $CT, $CTM,
#       $BUILD/{f,h5}_tests*; not the word after -o or -J) must exist: a program that was
#       not built fails its case, it is never skipped.
#       Optional, as prefix assignments on the call (e.g. `CASE_TIMEOUT=30 run_case ...`):
#         CASE_TIMEOUT   seconds before the command is killed (default 120)
#         CASE_EXPECT    extended regex that must occur in the output
#         CASE_FORBID    extended regex that must not occur in the output
#         CASE_IGNORECASE=1  match CASE_EXPECT / CASE_FORBID case-insensitively
#         CASE_RETRIES   run up to this many more times if it fails (only for known launcher
#                        races outside the library, see is_hydra); every attempt is logged
#   expect_output NAME PATTERN CMD...   = CASE_EXPECT=PATTERN run_case NAME 0 CMD...
#   skip_case NAME REASON               prints "SKIP NAME (REASON)", counted apart.
#
# Counters: CT_PASSED, CT_FAILED, CT_SKIPPED; CT_FAILED_NAMES lists failures.
# Per-case durations go to $LOGDIR/times.txt. Each command runs with CT_CASE_TAG=<unique tag>
# in its environment (inherited by launcher and ranks); after the case, processes still
# carrying the tag are recorded and killed, and new /dev/shm/railmpi-* files that no live
# process uses are recorded and removed, so that harness.sh can report them as failures.

CT_PASSED=${CT_PASSED:-0}
CT_FAILED=${CT_FAILED:-0}
CT_SKIPPED=${CT_SKIPPED:-0}
CT_FAILED_NAMES=${CT_FAILED_NAMES:-}
CT_SHM_LEAKS=${CT_SHM_LEAKS:-}
CT_PROC_LEAKS=${CT_PROC_LEAKS:-}
CT_CASE_SEQ=${CT_CASE_SEQ:-0}

_ct_shm_list() {
    # One name per line, sorted; empty if none.
    local f
    for f in /dev/shm/railmpi-*; do
        [ -e "$f" ] && printf '%s\n' "$f"
    done | sort
}

_ct_shm_unused() {
    # Of the given files, print those no live process has open or mapped (so a job that runs
    # concurrently, e.g. another harness, keeps its files).
    local busy f
    busy=$({
        grep -h -o '/dev/shm/railmpi-[^ ]*' /proc/[0-9]*/maps 2>/dev/null
        find /proc/[0-9]*/fd -lname '/dev/shm/railmpi-*' -printf '%l\n' 2>/dev/null
    } | sort -u)
    for f in "$@"; do
        printf '%s\n' "$busy" | grep -qxF -- "$f" || printf '%s\n' "$f"
    done
}

_ct_leftover_pids() {
    # PIDs of live processes whose environment holds CT_CASE_TAG=$1.
    grep -lzx -- "CT_CASE_TAG=$1" /proc/[0-9]*/environ 2>/dev/null | sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p'
}

_ct_fail() {
    local name=$1 why=$2 log=$3
    CT_FAILED=$((CT_FAILED + 1))
    CT_FAILED_NAMES="$CT_FAILED_NAMES $name"
    echo "FAIL $name ($why; log: $log)"
    if [ -s "$log" ]; then
        tail -n 20 "$log" | sed 's/^/    | /'
    fi
}

run_case() {
    local name=$1 expected=$2
    shift 2
    local log="$LOGDIR/$name.log" out="$LOGDIR/$name.attempt"
    local attempt=0 attempts=$((1 + ${CASE_RETRIES:-0})) why gi=""
    local shm_before shm_after new_shm pids t0 t1 rc tag
    [ "${CASE_IGNORECASE:-0}" = 1 ] && gi=-i
    mkdir -p "$LOGDIR"
    {
        echo "# case: $name"
        echo "# cmd: $*"
        echo "# expected exit: $expected"
    } >"$log"
    local missing="" prev="" word
    for word in "$@"; do
        case "$prev" in -o | -J) prev=$word; continue ;; esac
        case "$word" in
        *[[:space:]]*) ;; # a script for sh -c, not a path
        "$BUILD"/bin/* | "$CT"/* | "$CTM"/* | "$BUILD"/f_tests*/* | "$BUILD"/h5_tests/*)
            [ -e "$word" ] || missing="$missing $word" ;;
        esac
        prev=$word
    done
    if [ -n "$missing" ]; then
        echo "# not built:$missing" >>"$log"
        _ct_fail "$name" "not built:$missing" "$log"
        return
    fi
    while [ $attempt -lt $attempts ]; do
        attempt=$((attempt + 1))
        [ $attempts -gt 1 ] && echo "# attempt $attempt of $attempts" >>"$log"
        CT_CASE_SEQ=$((CT_CASE_SEQ + 1))
        tag="ct$$.$CT_CASE_SEQ"
        shm_before=$(_ct_shm_list)
        t0=$(date +%s.%N)
        # timeout runs CMD in its own process group and signals the whole group; -k: SIGKILL
        # 10 s after SIGTERM if it does not go.
        CT_CASE_TAG=$tag timeout -k 10 "${CASE_TIMEOUT:-120}" "$@" </dev/null >"$out" 2>&1
        rc=$?
        t1=$(date +%s.%N)
        cat "$out" >>"$log"
        echo "# exit: $rc" >>"$log"
        printf '%-40s %6.2fs exit %s\n' "$name" "$(echo "$t1 - $t0" | bc)" "$rc" \
            >>"$LOGDIR/times.txt"

        why=""
        if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
            why="timed out after ${CASE_TIMEOUT:-120}s (exit $rc), expected $expected"
        elif [ "$expected" = nonzero ]; then
            [ "$rc" = 0 ] && why="exit 0, expected non-zero"
            [ "$rc" = 126 ] || [ "$rc" = 127 ] && why="exit $rc (a program could not run), expected a failure of the program"
        elif [ "$rc" != "$expected" ]; then
            why="exit $rc, expected $expected"
        fi
        if [ -z "$why" ] && [ -n "${CASE_EXPECT:-}" ] && ! grep -E -q $gi -- "$CASE_EXPECT" "$out"; then
            why="output lacks /$CASE_EXPECT/"
        fi
        if [ -z "$why" ] && [ -n "${CASE_FORBID:-}" ] && grep -E -q $gi -- "$CASE_FORBID" "$out"; then
            why="output has /$CASE_FORBID/"
        fi
        rm -f "$out"

        # Left-over processes of this attempt: record, then kill them by PID.
        pids=$(_ct_leftover_pids "$tag")
        if [ -n "$pids" ]; then
            sleep 1
            pids=$(_ct_leftover_pids "$tag")
        fi
        if [ -n "$pids" ]; then
            echo "# left-over processes after the case: $(echo $pids)" >>"$log"
            CT_PROC_LEAKS="$CT_PROC_LEAKS $name"
            # shellcheck disable=SC2086
            kill -KILL $pids 2>/dev/null
        fi

        # New shared-memory files nobody uses any more: record, then remove them.
        shm_after=$(_ct_shm_list)
        new_shm=$(comm -13 <(printf '%s\n' "$shm_before") <(printf '%s\n' "$shm_after") | grep . || true)
        # shellcheck disable=SC2086
        [ -n "$new_shm" ] && new_shm=$(_ct_shm_unused $new_shm)
        if [ -n "$new_shm" ]; then
            echo "# left /dev/shm files: $(echo $new_shm)" >>"$log"
            CT_SHM_LEAKS="$CT_SHM_LEAKS $name"
            # shellcheck disable=SC2086
            rm -f $new_shm
        fi

        [ -z "$why" ] && break
        echo "# attempt $attempt failed: $why" >>"$log"
    done

    if [ -z "$why" ]; then
        CT_PASSED=$((CT_PASSED + 1))
        echo "PASS $name"
    else
        _ct_fail "$name" "$why" "$log"
    fi
}

expect_output() {
    local name=$1 pattern=$2
    shift 2
    CASE_EXPECT=$pattern run_case "$name" 0 "$@"
}

skip_case() {
    CT_SKIPPED=$((CT_SKIPPED + 1))
    echo "SKIP $1 (${2:-no reason given})"
}

# is_hydra CMD: true if the launcher CMD is MPICH's Hydra (mpiexec.hydra / mpiexec.mpich).
# Hydra sometimes drops the output of a job that aborts (the proxy is torn down before it
# forwards what the ranks wrote), so checks on an aborting job's output retry under Hydra.
is_hydra() {
    local first=${1%% *}
    timeout 10 "$first" --version 2>/dev/null </dev/null | grep -q "HYDRA"
}

# netns_up NAME N [LINKS]: N namespaces with LINKS links each (c_tests/netns.sh) for a case
# file that emulates hosts, torn down when the harness exits; on failure the case NAME
# fails with netns.sh's log, nothing is left up, and the status is non-zero (the case file
# then returns).
netns_up() {
    local name=$1 n=$2 links=${3:-1} log="$LOGDIR/$1.log"
    if ! LINKS=$links "$ROOT/c_tests/netns.sh" up "$n" >"$log" 2>&1; then
        _ct_fail "$name" "cannot create the namespaces" "$log"
        "$ROOT/c_tests/netns.sh" down
        return 1
    fi
    trap '"$ROOT/c_tests/netns.sh" down' EXIT
}
