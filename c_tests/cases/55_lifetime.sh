# 55_lifetime: how a job ends when part of it goes (c_tests/lifetime.sh runs each scenario
# and checks that nothing of the job is left: no process, no /dev/shm file).

if [ "$CT_IMPL" = railmpi ]; then
    # Ranks behind a wrapper (/usr/bin/time): a killed rank, SIGTERM or SIGKILL to mpiexec
    # end every real rank, not only the wrappers.
    for s in wrapped_kill_rank wrapped_term_launcher wrapped_kill_launcher; do
        CASE_TIMEOUT=20 CASE_EXPECT="^ok lifetime.sh $s" \
            run_case "lifetime.$s" 0 "$HERE/lifetime.sh" $s "$MPIEXEC" "$CT/lifetime"
    done
    # The launcher gone while the ranks' parents live on: the ranks notice (PMI connection).
    CASE_TIMEOUT=20 CASE_EXPECT='^ok lifetime.sh launcher_gone' \
        run_case lifetime.launcher_gone 0 "$HERE/lifetime.sh" launcher_gone "$MPIEXEC" "$CT/lifetime"
    # A rank that leaves without MPI_Finalize ends the job at once (status 0, as Hydra);
    # the others were waiting for it.
    CASE_TIMEOUT=5 CASE_EXPECT='rank 0 .*exited without MPI_Finalize' CASE_FORBID='BUG:' \
        run_case lifetime.leave.n4 0 $MPIEXEC -n 4 "$CT/lifetime" leave
    # A peer that went without MPI_Finalize where the launcher cannot see it (its wrapper
    # lives on): the rank waiting for it fails at once instead of spinning.
    CASE_TIMEOUT=8 CASE_EXPECT='rank 1 \(pid [0-9]+\) ended without MPI_Finalize' CASE_FORBID='BUG:' \
        run_case lifetime.peer_dies nonzero $MPIEXEC -n 2 "$HERE/lifetime.sh" wrap sh -c \
        '"$0" peer_dies || exit; sleep 20' "$CT/lifetime"
    # SIGKILL to mpiexec while the ranks are inside MPI_Init leaves no shared segment; a
    # file with the name the segment used to have does not stop a job.
    CASE_TIMEOUT=100 CASE_EXPECT='^ok lifetime.sh init_kill_launcher' \
        run_case lifetime.init_kill_launcher 0 "$HERE/lifetime.sh" init_kill_launcher "$MPIEXEC" "$CT/lifetime"
    CASE_TIMEOUT=20 CASE_EXPECT='^ok lifetime.sh squat' \
        run_case lifetime.squat 0 "$HERE/lifetime.sh" squat "$MPIEXEC" "$CT/lifetime"
    # MPI_Abort(comm, 0) while the others create dynamic windows: they find the aborting
    # rank's memory gone, but the abort decides the status (a race: 10 jobs).
    CASE_TIMEOUT=40 CASE_FORBID='BUG:' \
        run_case lifetime.abort_win.n4 0 sh -c \
        'for i in 1 2 3 4 5 6 7 8 9 10; do "$0" -n 4 "$1" abort_win || exit; done' \
        "$MPIEXEC" "$CT/lifetime"
    # Output a rank buffered before MPI_Abort reaches the terminal (C and Fortran).
    CASE_TIMEOUT=10 CASE_EXPECT='^rank 1 wrote this line before MPI_Abort' CASE_FORBID='BUG:' \
        run_case lifetime.abort_output 5 $MPIEXEC -n 2 "$CT/lifetime" abort_out
    # -disable-auto-cleanup: a failing rank does not end the others. MPI_Abort on a
    # communicator ends its ranks alone (an intercommunicator's remote group, the caller
    # going on, as MPICH's); the others pass a token and finalize (the launcher's barrier
    # counts the ended ranks out); the status is the abort's. What the job prints is the
    # survivors' lines and the aborting rank's "Abort(C) ...: application called
    # MPI_Abort(...)" (MPICH's words, which MPICH's test harness accepts), no line of
    # mpiexec's. A rank's non-zero exit likewise; the --timeout still ends all.
    for c in "subcomm_abort 4 8 0,2" "subcomm_abort 6 8 0,2,4" "intercomm_abort 6 9 0,2,4" \
        "intercomm_abort 5 9 0,2,4"; do
        set -- $c
        CASE_TIMEOUT=30 CASE_EXPECT="^survivors $4 said abort 1\$" CASE_FORBID='BUG:|CHECK|^mpiexec' \
            run_case "lifetime.dac.$1.n$2" 0 sh -c 'out=$("$0" -disable-auto-cleanup \
            --timeout 20 -n "$2" "$1" "$3" 2>&1); rc=$?; echo "$out"; [ $rc = "$4" ] || exit 1
            said=$(echo "$out" | grep -c "^Abort($4) on rank [01]: application called MPI_Abort(comm=0x[0-9a-f]*, $4)")
            echo "survivors $(echo "$out" | sed -n "s/^rank \([0-9]*\) survived$/\1/p" | sort -n | paste -sd,) said abort $said"' \
            "$MPIEXEC" "$CT/lifetime" "$2" "$1" "$3"
    done
    CASE_TIMEOUT=30 CASE_EXPECT='^ok lifetime exit_early' CASE_FORBID='BUG:' \
        run_case lifetime.dac.exit_early 3 $MPIEXEC -dac --timeout 20 -n 3 "$CT/lifetime" exit_early
    # A survivor waiting for a rank that ended waits: the timeout ends the job, with the
    # status of the timeout (124; a zero status of a rank that left does not win).
    CASE_TIMEOUT=30 CASE_EXPECT='^status 124$' \
        run_case lifetime.dac.timeout 0 sh -c '"$0" -dac --timeout 2 -n 2 "$1" leave
            echo "status $?"' "$MPIEXEC" "$CT/lifetime"
    # Hydra's MPIEXEC_TIMEOUT (which MPICH's runtests sets from a test's timeLimit) is our
    # --timeout when none is given: a job that blocks ends with status 124.
    CASE_TIMEOUT=30 CASE_EXPECT='^status 124$' \
        run_case lifetime.mpiexec_timeout_env 0 sh -c 'MPIEXEC_TIMEOUT=2 "$0" -n 2 "$1" block
            echo "status $?"' "$MPIEXEC" "$CT/lifetime"
    # The Fortran wrapper is part of every build (make build): a failed build is a failure.
    mkdir -p "$BUILD/f_tests"
    run_case lifetime.build.lifetime_abort 0 "$BUILD/bin/mpif90" -J "$BUILD/f_tests" \
        -o "$BUILD/f_tests/lifetime_abort" "$HERE/lifetime_abort.f90"
    # The loss was a race (the launcher's SIGTERM against the exit's flush), seen with
    # the output going to a file: 5 jobs, each exit 6 with the line.
    CASE_TIMEOUT=30 CASE_EXPECT='^5 aborting jobs showed the line' CASE_FORBID='BUG:' \
        run_case lifetime.abort_output.fortran 0 sh -c 'f=$(mktemp); trap "rm -f $f" EXIT
        for i in 1 2 3 4 5; do
            "$0" -n 2 "$1" >"$f" 2>&1; rc=$?; cat "$f"; [ $rc = 6 ] || exit 1
            grep -q "^fortran rank 1 wrote this line before MPI_Abort" "$f" || exit 1
        done; echo "5 aborting jobs showed the line"' "$MPIEXEC" "$BUILD/f_tests/lifetime_abort"
fi

# Under Hydra: a rank killed inside MPI_Init leaves no segment behind, and the
# wrapper cases (Hydra's own kill reaches only the wrapper; the ranks arm their own signal).
if [ "$CT_IMPL" = railmpi ] && command -v "${HYDRA%% *}" >/dev/null 2>&1; then
    CASE_TIMEOUT=100 CASE_EXPECT='^ok lifetime.sh init_kill_rank' \
        run_case lifetime.hydra.init_kill_rank 0 "$HERE/lifetime.sh" init_kill_rank "$HYDRA" "$CT/lifetime"
    CASE_TIMEOUT=20 CASE_EXPECT='^ok lifetime.sh wrapped_kill_launcher' \
        run_case lifetime.hydra.wrapped_kill_launcher 0 "$HERE/lifetime.sh" wrapped_kill_launcher "$HYDRA" "$CT/lifetime"
fi
