#!/usr/bin/env bash
# c_tests/vm/exec.sh RUN NODE — init.sh's last step, in the guest's root (the host's userland):
# COMMAND as the host would run it (its environment, its current directory) plus RAILMPI_VM_*.
RUN=$1 NODE=$2
. "$RUN/config.sh" # VMS NICS SIW SHAPES CWD KMODS
. "$RUN/args"      # VM_ARGS: COMMAND and its arguments
addr() { echo "10.$((11 + $2)).0.$(($1 + 1))"; } # NODE LINK
vars=(RAILMPI_VM_NODE="$NODE" RAILMPI_VM_NODES="$VMS" RAILMPI_VM_IP="$(addr "$NODE" 0)"
    RAILMPI_VM_SHARED="$RUN/shared")
[ "$VMS" = 1 ] || vars+=(RAILMPI_VM_PEER="$(addr $((1 - NODE)) 0)")
[ "$NICS" = 1 ] || vars+=(RAILMPI_VM_IP1="$(addr "$NODE" 1)")
[ "$NICS" = 1 ] || [ "$VMS" = 1 ] || vars+=(RAILMPI_VM_PEER1="$(addr $((1 - NODE)) 1)")
cd "$CWD" || exit 126
ulimit -l unlimited
: >"$RUN/started.$NODE"
. "$RUN/env" # the host's environment (guest.sh leaves RAILMPI_VM_* out)
export "${vars[@]}"
exec "${VM_ARGS[@]}"
