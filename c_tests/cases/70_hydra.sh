# 70_hydra: the same (railmpi-built) programs launched by MPICH's Hydra ($HYDRA, i.e.
# mpiexec.hydra): the library must work with Hydra's PMI, exit codes and abort included.

if ! command -v "${HYDRA%% *}" >/dev/null 2>&1; then
    skip_case hydra "$HYDRA not found (Debian package mpich)"
    return 0
fi

_ct_hydra() {
    local prog=$1 n=$2
    CASE_EXPECT="^ok $prog " run_case "hydra.$prog.n$n" 0 $HYDRA -n "$n" "$CT/$prog"
}
_ct_hydra hello 2
_ct_hydra ring 4
_ct_hydra allpairs 3
_ct_hydra wildcard 4
_ct_hydra persistent 2
_ct_hydra comm 3
_ct_hydra coll_basic 4
_ct_hydra thread_multiple 2
_ct_hydra large 2
_ct_hydra pingpong_many 8
# Sessions only: the runtime ends at the process's exit, which Hydra must see as finalized.
_ct_hydra session_reinit 3
CASE_FORBID='BUG:' run_case hydra.abort.n3 3 $HYDRA -n 3 "$CT/abort"
# Hydra may drop an aborting job's output (lib.sh, is_hydra): retried.
CASE_EXPECT='MPI_Send' CASE_FORBID='BUG:' CASE_RETRIES=4 \
    run_case hydra.errors_fatal.n2 nonzero $HYDRA -n 2 "$CT/errors_fatal"
