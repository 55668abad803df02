#!/bin/bash
# agent.sh SECONDS — in the second guest: run the commands remote.sh leaves in
# $RAILMPI_VM_SHARED/launch (each in the background, its status written beside it; killed
# when remote.sh is), until the first guest touches launch/stop or SECONDS pass.
set -u
dir=$RAILMPI_VM_SHARED/launch
mkdir -p "$dir"
end=$((SECONDS + $1))
declare -A pids
while [ ! -e "$dir/stop" ] && [ $SECONDS -lt $end ]; do
    for f in "$dir"/*.cmd; do
        [ -e "$f" ] || continue
        id=$(basename "$f" .cmd)
        mv "$f" "$dir/$id.run"
        (bash -c "$(cat "$dir/$id.run")" <"$dir/$id.in"; rc=$?; rm -f "$dir/$id.in"; echo $rc >"$dir/$id.rc.tmp"; mv "$dir/$id.rc.tmp" "$dir/$id.rc") &
        pids[$id]=$!
    done
    for id in "${!pids[@]}"; do
        if [ -e "$dir/$id.kill" ]; then
            pkill -TERM -P "${pids[$id]}" 2>/dev/null
            unset "pids[$id]"
        fi
    done
    sleep 0.1
done
pkill -TERM -P $$ 2>/dev/null
exit 0
