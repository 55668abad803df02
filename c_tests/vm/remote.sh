#!/bin/bash
# remote.sh HOST COMMAND... — mpiexec's --launcher between two guests (guest.sh --vms 2):
# starts COMMAND (mpiexec's proxy) in the other guest, which runs c_tests/vm/agent.sh, and
# lasts as long as it does (mpiexec takes the launcher's exit for the proxy's), returning
# its status. The guests share $RAILMPI_VM_SHARED; the command travels as a file there, and
# so does the first line of our standard input (the job secret mpiexec hands its proxy,
# readable by root only). Bounded: 600 s.
set -u
shift # the host: there is only the other guest
dir=$RAILMPI_VM_SHARED/launch
mkdir -p "$dir"
id=$(date +%s%N).$$
IFS= read -r secret || true
(umask 077 && printf '%s\n' "$secret" >"$dir/$id.in")
printf '%q ' "$@" >"$dir/$id.tmp" && mv "$dir/$id.tmp" "$dir/$id.cmd"
trap 'touch "$dir/$id.kill"; exit 143' TERM INT
for ((i = 0; i < 6000; i++)); do
    if [ -e "$dir/$id.rc" ]; then exit "$(cat "$dir/$id.rc")"; fi
    sleep 0.1
done
exit 124
