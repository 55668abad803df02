#!/usr/bin/env bash
# c_tests/netns.sh — hosts emulated with network namespaces, for multi-host tests (root).
#
#   c_tests/netns.sh up N [DIR]   namespaces rmh0..rmh{N-1}, each with a veth into the bridge
#                                 rmbr0 (10.77.0.1/24, which Hydra's proxies connect back to);
#                                 host i has address 10.77.0.(10+i). DIR (default
#                                 /tmp/railmpi-netns) maps addresses to namespaces.
#                                 LINKS=K in the environment: K links per host (multirail):
#                                 link k is bridge rmbr{k} (10.(77+k).0.1/24) and eth{k} in
#                                 each namespace at 10.(77+k).0.(10+i).
#   c_tests/netns.sh down [DIR]   removes what `up` made (also whatever a failed `up` left).
#   c_tests/netns.sh shape K SPEC...
#                                 every host's eth{K} sends through `tc qdisc replace … root
#                                 SPEC` (e.g. `tbf rate 100mbit burst 32kb latency 100ms`,
#                                 `netem delay 5ms`); SPEC `none` removes it.
#   c_tests/netns.sh launch HOST CMD...
#                                 a launcher for Hydra (-launcher rsh -launcher-exec) and our
#                                 mpiexec: runs CMD (words joined and handed to sh -c, as ssh
#                                 does) in HOST's namespace (name or address), with the host
#                                 name HOST's namespace name (own UTS namespace).
#   c_tests/netns.sh HOST CMD...  the same, for launchers that take one executable and no
#                                 words of their own (Hydra's -launcher-exec).
set -u
DIR=${RAILMPI_NETNS_DIR:-/tmp/railmpi-netns}

down() {
    local d=${1:-$DIR} ns
    local link i
    # The veths first: deleting one end removes both at once, while a deleted namespace
    # frees its devices later (an `up` right after would find the names taken).
    for link in $(ip -o link show 2>/dev/null | awk -F'[:@ ]+' '/ rmv[0-9]+(l[0-9]+)?@/ {print $2}'); do
        ip link del "$link" 2>/dev/null
    done
    for ns in $(ip netns list 2>/dev/null | awk '/^rmh[0-9]+/ {print $1}'); do
        ip netns del "$ns" 2>/dev/null
    done
    for link in $(ip -o link show type bridge 2>/dev/null | awk -F'[:@ ]+' '/ rmbr[0-9]+/ {print $2}'); do
        ip link del "$link" 2>/dev/null
    done
    for ((i = 0; i < 50; i++)); do
        ip -o link show 2>/dev/null | grep -q ' rmv[0-9]' || break
        sleep 0.1
    done
    rm -rf "$d"
    return 0
}

up() {
    local n=$1 d=${2:-$DIR} links=${LINKS:-1} i k v dev
    down "$d"
    mkdir -p "$d" || return 1
    for ((k = 0; k < links; k++)); do
        ip link add "rmbr$k" type bridge || return 1
        ip addr add "10.$((77 + k)).0.1/24" dev "rmbr$k" && ip link set "rmbr$k" up || return 1
    done
    for ((i = 0; i < n; i++)); do
        ip netns add "rmh$i" && ip -n "rmh$i" link set lo up || return 1
        for ((k = 0; k < links; k++)); do
            # Link 0 keeps the names single-link tests know.
            v="rmv$i"
            [ "$k" -gt 0 ] && v="rmv${i}l$k"
            dev="eth$k"
            ip link add "$v" type veth peer name "$dev" netns "rmh$i" &&
                ip link set "$v" master "rmbr$k" up &&
                ip -n "rmh$i" addr add "10.$((77 + k)).0.$((10 + i))/24" dev "$dev" &&
                ip -n "rmh$i" link set "$dev" up || return 1
        done
        echo "10.77.0.$((10 + i))" >"$d/rmh$i"
    done
}

shape() {
    local k=$1 ns
    shift
    for ns in $(ip netns list 2>/dev/null | awk '/^rmh[0-9]+/ {print $1}'); do
        if [ "$1" = none ]; then
            ip netns exec "$ns" tc qdisc del dev "eth$k" root 2>/dev/null
        else
            ip netns exec "$ns" tc qdisc replace dev "eth$k" root "$@" || return 1
        fi
    done
}

launch() {
    local host=$1 ns f
    shift
    ns=$host
    for f in "$DIR"/rmh*; do
        [ "$(cat "$f")" = "$host" ] && ns=$(basename "$f")
    done
    exec ip netns exec "$ns" unshare --uts sh -c "hostname $ns && exec sh -c \"\$0\"" "$*"
}

case "${1:-}" in
up) shift; up "$@" ;;
down) shift; down "$@" ;;
shape) shift; shape "$@" ;;
launch) shift; launch "$@" ;;
rmh[0-9]* | 10.77.0.*) launch "$@" ;;
*) echo "usage: $0 up N [DIR] | down [DIR] | shape K SPEC... | launch HOST CMD..." >&2; exit 2 ;;
esac
