# 41_dynamic: dynamic processes (MPI-4.1 §11): ports, accept and
# connect within one job (halves of MPI_COMM_WORLD) and between two jobs (two mpiexecs,
# and two singletons started without one: processes of another job are reached over a tcp
# rail opened for them), MPI_Comm_join over a socket, MPI_Comm_disconnect, and the error
# classes of closed and malformed ports; the name service; MPI_Comm_spawn(_multiple) under
# our mpiexec and Hydra. Each program checks every byte it receives; rank 0 of each job
# prints "ok dyn_ports ROLE" (dyn_spawn MODE), and every job must exit 0.

for n in 2 3 4 5; do
    CASE_EXPECT="^ok dyn_ports one-job " run_case "dyn_ports.n$n" 0 $MPIEXEC -n "$n" "$CT/dyn_ports"
done

# Two jobs meeting through a file that carries the port name (or the socket's port);
# both must exit 0 (the server's line is the one matched, the client's status counts too).
_ct_two_jobs() {
    local name=$1 server=$2 client=$3
    local f
    f=$(mktemp -u "${TMPDIR:-/tmp}/ct-dyn.XXXXXX")
    CASE_EXPECT="^ok dyn_ports (join-)?server " run_case "$name" 0 sh -c \
        "$server $f & s=\$!; $client $f; c=\$?; wait \$s; s=\$?; rm -f $f; [ \$c = 0 ] && [ \$s = 0 ]"
}

_ct_two_jobs dyn_ports.jobs2x3 "$MPIEXEC -n 2 $CT/dyn_ports server" "$MPIEXEC -n 3 $CT/dyn_ports client"
_ct_two_jobs dyn_ports.jobs1x2 "$MPIEXEC -n 1 $CT/dyn_ports server" "$MPIEXEC -n 2 $CT/dyn_ports client"
_ct_two_jobs dyn_ports.singletons "$CT/dyn_ports server" "$CT/dyn_ports client"
_ct_two_jobs dyn_ports.join_singletons "$CT/dyn_ports join-server" "$CT/dyn_ports join-client"
_ct_two_jobs dyn_ports.join_jobs "$MPIEXEC -n 1 $CT/dyn_ports join-server" "$MPIEXEC -n 1 $CT/dyn_ports join-client"

# Built with Debian MPICH's mpicc and swapped in (MPICH's handle values and constants).
if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpich.so.12" ]; then
    CASE_EXPECT="^ok dyn_ports one-job \[railmpi" run_case "swapin.dyn_ports.n3" 0 \
        env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" $MPIEXEC -n 3 "$CTM/dyn_ports"
fi

# The name service (MPI_Publish_name / MPI_Lookup_name) under our mpiexec and Hydra.
CASE_EXPECT="^ok dyn_spawn names " run_case "dyn_spawn.names.n3" 0 $MPIEXEC -n 3 "$CT/dyn_spawn" names
if command -v "${HYDRA%% *}" >/dev/null 2>&1; then
    CASE_EXPECT="^ok dyn_spawn names " run_case "hydra.dyn_spawn.names.n2" 0 $HYDRA -n 2 "$CT/dyn_spawn" names
fi

# MPI_Comm_spawn and MPI_Comm_spawn_multiple (3 children, then 1 + 2) from 1, 2 and 3
# parents under our mpiexec and Hydra (the parents' and children's jobs judge
# oversubscription apart); two threads spawning from MPI_COMM_SELF at once (their
# intercommunicators must get contexts of their own); a missing program is MPI_ERR_SPAWN;
# a singleton, with no launcher to ask, gets MPI_ERR_SPAWN too — an error class, never a
# hang.
for n in 1 2 3; do
    CASE_EXPECT="^ok dyn_spawn spawn " run_case "dyn_spawn.spawn.n$n" 0 $MPIEXEC -n "$n" "$CT/dyn_spawn" spawn
done
CASE_EXPECT="^ok dyn_spawn threads " run_case "dyn_spawn.threads.n2" 0 $MPIEXEC -n 2 "$CT/dyn_spawn" threads
# Two threads of each rank spawning at once from duplicates of MPI_COMM_WORLD (MPICH's
# threads/spawn/th_taskmanager): the parents' two agreements overlap on every parent.
CASE_EXPECT="^ok dyn_spawn threads_dup " run_case "dyn_spawn.threads_dup.n2" 0 $MPIEXEC -n 2 "$CT/dyn_spawn" threads_dup
CASE_EXPECT="^ok dyn_spawn missing " run_case "dyn_spawn.missing.n2" 0 $MPIEXEC -n 2 "$CT/dyn_spawn" missing
CASE_EXPECT="^ok dyn_spawn refused " run_case "dyn_spawn.refused.singleton" 0 "$CT/dyn_spawn" refused
# MPI_Intercomm_create between a job and the children one of its ranks spawned: the
# ranks that did not spawn are linked to the children then (MPICH's spawn/spaiccreate).
for n in 2 3; do
    CASE_EXPECT="^ok dyn_spawn icreate " run_case "dyn_spawn.icreate.n$n" 0 $MPIEXEC -n "$n" "$CT/dyn_spawn" icreate
done
# MPI_UNIVERSE_SIZE (parents and children alike): not set by default (Hydra's too, so that
# programs that spawn while the universe exceeds their world, MPICH's spawn tests, do); a
# number from -usize / -universe_size / MPIEXEC_UNIVERSE_SIZE; SYSTEM: the hosts' slots or
# this node's cores, at least -n.
CASE_EXPECT="^ok dyn_spawn universe " run_case "dyn_spawn.universe.default" 0 $MPIEXEC -n 1 "$CT/dyn_spawn" universe unset
CASE_EXPECT="^ok dyn_spawn universe " run_case "dyn_spawn.universe.usize" 0 $MPIEXEC -usize 7 -n 2 "$CT/dyn_spawn" universe 7
if [ "$MPIEXEC" = "$BUILD/bin/mpiexec" ]; then
    CASE_EXPECT="^ok dyn_spawn universe " run_case "dyn_spawn.universe.universe_size" 0 $MPIEXEC -universe_size 5 -n 1 "$CT/dyn_spawn" universe 5
    CASE_EXPECT="^ok dyn_spawn universe " run_case "dyn_spawn.universe.env" 0 env MPIEXEC_UNIVERSE_SIZE=9 $MPIEXEC -n 1 "$CT/dyn_spawn" universe 9
    for n in 1 4; do
        _ct_u=$(nproc); [ "$_ct_u" -lt "$n" ] && _ct_u=$n
        CASE_EXPECT="^ok dyn_spawn universe " run_case "dyn_spawn.universe.system.n$n" 0 \
            $MPIEXEC -usize SYSTEM -n "$n" "$CT/dyn_spawn" universe "$_ct_u"
    done
fi
if command -v "${HYDRA%% *}" >/dev/null 2>&1; then
    CASE_EXPECT="^ok dyn_spawn universe " run_case "hydra.dyn_spawn.universe.default" 0 $HYDRA -n 1 "$CT/dyn_spawn" universe unset
    CASE_EXPECT="^ok dyn_spawn universe " run_case "hydra.dyn_spawn.universe.usize" 0 $HYDRA -usize 6 -n 1 "$CT/dyn_spawn" universe 6
fi
# Spawn and disconnect 12 times: the links to finished jobs close (threads and descriptors
# stop growing after the second round).
CASE_EXPECT="^ok dyn_spawn cycle " run_case "dyn_spawn.cycle.n2" 0 $MPIEXEC -n 2 "$CT/dyn_spawn" cycle
if command -v "${HYDRA%% *}" >/dev/null 2>&1; then
    for n in 1 2; do
        CASE_EXPECT="^ok dyn_spawn spawn " run_case "hydra.dyn_spawn.spawn.n$n" 0 $HYDRA -n "$n" "$CT/dyn_spawn" spawn
    done
    CASE_EXPECT="^ok dyn_spawn threads " run_case "hydra.dyn_spawn.threads.n1" 0 $HYDRA -n 1 "$CT/dyn_spawn" threads
    CASE_EXPECT="^ok dyn_spawn cycle " run_case "hydra.dyn_spawn.cycle.n1" 0 $HYDRA -n 1 "$CT/dyn_spawn" cycle
fi
