#!/usr/bin/env bash
# c_tests/slurm.sh — a Slurm cluster over the hosts of c_tests/netns.sh, for tests (root).
#
#   c_tests/slurm.sh up N DIR   slurmctld on the bridge (10.77.0.1, host name rmctl) and one
#                               slurmd in each namespace rmh0..rmh{N-1} (started with
#                               `netns.sh up N` before), every file under DIR; returns when
#                               every node answers idle. Then:  SLURM_CONF=DIR/slurm.conf srun …
#   c_tests/slurm.sh down DIR   stops the daemons and removes DIR.
#
# auth/none and cred/none: no munge, nothing to trust beyond this machine. proctrack/linuxproc
# and task/none: no cgroups needed. The pmi2 plugin gives ranks PMI_FD / PMI_JOBID.
set -u

down() {
    local d=$1 f
    for f in "$d"/*.pid; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    # Daemons that had not written their pid file yet, and steps they left.
    pkill -f "$d/slurm.conf" 2>/dev/null
    sleep 0.5
    pkill -9 -f "$d/slurm.conf" 2>/dev/null
    rm -rf "$d"
    return 0
}

up() {
    local n=$1 d=$2 i nodes="" cpus
    cpus=$(nproc)
    down "$d"
    mkdir -p "$d/state" || return 1
    for ((i = 0; i < n; i++)); do
        nodes+="NodeName=rmh$i NodeAddr=10.77.0.$((10 + i)) CPUs=$cpus State=UNKNOWN"$'\n'
    done
    cat >"$d/slurm.conf" <<EOF
ClusterName=railmpi
SlurmctldHost=rmctl(10.77.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
MpiDefault=pmi2
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
ReturnToService=2
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool-%n
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd-%n.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd-%n.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
MinJobAge=10
$nodes
PartitionName=hosts Nodes=ALL Default=YES MaxTime=10 State=UP OverSubscribe=YES
EOF
    unshare --uts sh -c "hostname rmctl && exec slurmctld -f $d/slurm.conf" || return 1
    for ((i = 0; i < n; i++)); do
        mkdir -p "$d/spool-rmh$i"
        # nsenter, not `ip netns exec`: that mounts a fresh /sys, without the cgroup
        # file systems slurmd looks for.
        nsenter --net="/run/netns/rmh$i" unshare --uts sh -c \
            "hostname rmh$i && exec slurmd -f $d/slurm.conf -N rmh$i" || return 1
    done
    # Ready when every node is idle (bounded: 30 s).
    for ((i = 0; i < 150; i++)); do
        if [ "$(SLURM_CONF=$d/slurm.conf sinfo -h -N -t idle -o %N 2>/dev/null | sort -u |
            wc -l)" -eq "$n" ]; then
            return 0
        fi
        sleep 0.2
    done
    echo "slurm.sh: nodes not idle after 30 s:" >&2
    SLURM_CONF=$d/slurm.conf sinfo -N >&2
    tail -5 "$d"/*.log >&2
    return 1
}

case "${1:-}" in
up) shift; [ $# -eq 2 ] && up "$@" ;;
down) shift; [ $# -eq 1 ] && down "$@" ;;
*) echo "usage: $0 up N DIR | down DIR" >&2; exit 2 ;;
esac
