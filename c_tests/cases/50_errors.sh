# 50_errors: error classes under MPI_ERRORS_RETURN, the fatal default handler, MPI_Abort's
# exit code, and singleton MPI_Init (no launcher).

for n in 1 2 4; do
    CASE_EXPECT='^ok errors ' run_case errors.n$n 0 $MPIEXEC -n $n "$CT/errors"
done
# Objects without a handler of their own follow MPI_COMM_WORLD's, as in MPICH.
for n in 1 3; do
    CASE_EXPECT='^ok errh_inherit ' run_case errh_inherit.n$n 0 $MPIEXEC -n $n "$CT/errh_inherit"
done

# Default handler: the job must die non-zero, and the library's message must name the failing
# function (the program itself never prints "MPI_Send"). "BUG:" means the bad call returned.
# Hydra sometimes loses an aborting job's output (see is_hydra in lib.sh): retried there;
# railmpi's own mpiexec must always deliver it.
_ct_retries=0
is_hydra "$MPIEXEC" && _ct_retries=4
for n in 2 3; do
    CASE_EXPECT='MPI_Send' CASE_FORBID='BUG:' CASE_RETRIES=$_ct_retries \
        run_case errors_fatal.n$n nonzero $MPIEXEC -n $n "$CT/errors_fatal"
done

# MPI_Abort(MPI_COMM_WORLD, 3) on rank 1 while the others block in MPI_Recv: exit status 3.
# The library says so in MPICH's words (which MPICH's test harness takes for an abort, not
# for stray output); our mpiexec adds nothing (nor does Hydra).
for n in 2 3; do
    CASE_FORBID='BUG:|^mpiexec' CASE_RETRIES=$_ct_retries \
        CASE_EXPECT='^Abort\(3\) on .*application called MPI_Abort\(MPI_COMM_WORLD, 3\)' \
        run_case abort.n$n 3 $MPIEXEC -n $n "$CT/abort"
done

# Singleton: started without any launcher.
CASE_EXPECT='^ok singleton ' run_case singleton 0 "$CT/singleton"
CASE_EXPECT='^ok hello ' run_case singleton.hello 0 "$CT/hello"
CASE_EXPECT='^ok attrs ' run_case singleton.attrs 0 "$CT/attrs"

# Leaving without MPI_Finalize (osu_latency_mt does): not a failure by itself, but it ends
# the job at once (as Hydra does), also when the others wait for the departed rank.
if [ "$MPIEXEC" = "$BUILD/bin/mpiexec" ]; then
    CASE_TIMEOUT=5 run_case no_finalize.sleep 0 $MPIEXEC -n 2 "$CT/no_finalize" sleep
    CASE_TIMEOUT=5 CASE_FORBID='BUG:' CASE_EXPECT='without MPI_Finalize' \
        run_case no_finalize.hang 0 $MPIEXEC -n 2 "$CT/no_finalize" hang
fi

# Calls before MPI_Init / after MPI_Finalize: a message naming the function, non-zero exit.
if [ "$CT_IMPL" = railmpi ]; then
    CASE_EXPECT='MPI_Send.*before MPI_Init' CASE_FORBID='BUG:' \
        run_case outside_init.before nonzero "$CT/outside_init" before
    CASE_EXPECT='MPI_Send.*after MPI_Finalize' CASE_FORBID='BUG:' \
        run_case outside_init.after nonzero "$CT/outside_init" after
fi

# A rank killed by a signal: the job ends at once with 128+6 (our launcher), the others are
# killed, and the harness's leftover checks see no shared memory or processes behind.
if [ "$MPIEXEC" = "$BUILD/bin/mpiexec" ]; then
    CASE_TIMEOUT=10 CASE_FORBID='BUG:' run_case die.n3 134 $MPIEXEC -n 3 "$CT/die"
fi

# Ranks on two hosts (a UTS namespace each, with its own host name, same network): the tcp
# rail joins them; with RAILMPI_RAILS=shm no rail reaches across hosts, so MPI_Init must fail
# with a message naming the rank and its host (not hang, not pretend the shm rail reaches it).
if [ "$CT_IMPL" = railmpi ] && [ "$(id -u)" = 0 ] && unshare --uts true 2>/dev/null; then
    CASE_EXPECT='rank [01] runs on host railmpi-ct-host[01], which no rail reaches from railmpi-ct-host[01]' CASE_FORBID='^ok hello' \
        run_case two_hosts.shm_only_refused nonzero env RAILMPI_RAILS=shm $MPIEXEC -n 2 sh -c \
        'exec unshare --uts sh -c "hostname railmpi-ct-host\$PMI_RANK && exec $0" ' "$CT/hello"
    CASE_EXPECT='^ok hello ' \
        run_case two_hosts.tcp 0 env RAILMPI_RAILS=shm,tcp $MPIEXEC -n 2 sh -c \
        'exec unshare --uts sh -c "hostname railmpi-ct-host\$PMI_RANK && exec $0" ' "$CT/hello"
else
    skip_case two_hosts.shm_only_refused "needs root and unshare --uts"
    skip_case two_hosts.tcp "needs root and unshare --uts"
fi
