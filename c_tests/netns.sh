#!/usr/bin/env bash
# c_tests/netns.sh — hosts emulated with network namespaces, for multi-host tests (root).
#
#   c_tests/netns.sh up N [DIR]   namespaces rmh0..rmh{N-1}, each with a veth into the bridge
#                                 rmbr0 (10.77.0.1/24, which Hydra's proxies connect back to);
#                                 host i has address 10.77.0.(10+i). DIR (default
#                                 /tmp/railmpi-netns) maps addresses to namespaces.
#   c_tests/netns.sh down [DIR]   removes what `up` made (also whatever a failed `up` left).
#   c_tests/netns.sh launch HOST CMD...
#                                 a launcher for Hydra (-launcher rsh -launcher-exec) and our
#                                 mpiexec: runs CMD (words joined and handed to sh -c, as ssh
#                                 does) in HOST's namespace (name or address), with the host
#                                 name HOST's namespace name (own UTS namespace).
#   c_tests/netns.sh HOST CMD...  the same, for launchers that take one executable and no
#                                 words of their own (Hydra's -launcher-exec).
set -u
DIR=${RAILMPI_NETNS_DIR:-/tmp/railmpi-netns}
BR=rmbr0

down() {
    local d=${1:-$DIR} ns
    local link i
    # The veths first: deleting one end removes both at once, while a deleted namespace
    # frees its devices later (an `up` right after would find the names taken).
    for link in $(ip -o link show 2>/dev/null | awk -F'[:@ ]+' '/ rmv[0-9]+@/ {print $2}'); do
        ip link del "$link" 2>/dev/null
    done
    for ns in $(ip netns list 2>/dev/null | awk '/^rmh[0-9]+/ {print $1}'); do
        ip netns del "$ns" 2>/dev/null
    done
    ip link del "$BR" 2>/dev/null
    for ((i = 0; i < 50; i++)); do
        ip -o link show 2>/dev/null | grep -q ' rmv[0-9]*@' || break
        sleep 0.1
    done
    rm -rf "$d"
    return 0
}

up() {
    local n=$1 d=${2:-$DIR} i
    down "$d"
    mkdir -p "$d" || return 1
    ip link add "$BR" type bridge || return 1
    ip addr add 10.77.0.1/24 dev "$BR" && ip link set "$BR" up || return 1
    for ((i = 0; i < n; i++)); do
        ip netns add "rmh$i" &&
            ip link add "rmv$i" type veth peer name eth0 netns "rmh$i" &&
            ip link set "rmv$i" master "$BR" up &&
            ip -n "rmh$i" addr add "10.77.0.$((10 + i))/24" dev eth0 &&
            ip -n "rmh$i" link set eth0 up &&
            ip -n "rmh$i" link set lo up || return 1
        echo "10.77.0.$((10 + i))" >"$d/rmh$i"
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
launch) shift; launch "$@" ;;
rmh[0-9]* | 10.77.0.*) launch "$@" ;;
*) echo "usage: $0 up N [DIR] | down [DIR] | launch HOST CMD..." >&2; exit 2 ;;
esac
