#!/usr/bin/env bash
# c_tests/vm/guest.sh — runs a command as root in one or two QEMU guests whose kernel has
# Soft-RoCE (rxe) and, on request, soft-iWARP (siw) devices: the verbs rail's tests on hosts
# whose own kernel has no RDMA. c_tests/vm/README.md has the details.
#
#   c_tests/vm/guest.sh [--vms 1|2] [--nics 1|2] [--siw] [--rate NIC=RATE[/QUEUE]]... [--timeout SEC]
#                       [--mem SIZE] [--smp N] [--setup] -- COMMAND [ARGS...]
#
# Exit status: COMMAND's (two guests: vm0's if non-zero, else vm1's); 124 timed out; 125 no
# guest could be set up or booted (stderr: "guest.sh: cannot boot: REASON"); 2 bad usage.
# Environment: RAILMPI_VM_CACHE (default /var/cache/railmpi-vm), RAILMPI_VM_ACCEL (tcg|kvm),
# RAILMPI_VM_KEEP=1 (keep the run directory /tmp/railmpi-vm.*: consoles, QEMU's logs).
set -u -o pipefail
HOST_ENV=$(export -p) # the guests get it as it was given
export PATH=$PATH:/usr/sbin:/sbin # depmod, modprobe
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
CACHE=${RAILMPI_VM_CACHE:-/var/cache/railmpi-vm}
KSERIES=6.1   # Debian 12's kernel: has rdma_rxe; siw is built here from its source
INITRAMFS=2   # the cached initramfs's format: a change to setup_initramfs bumps it

VMS=1 NICS=1 SIW=0 TIMEOUT=600 MEM=2G SMP=2 SETUP=0 SHAPES=()

note() { echo "guest.sh: $*" >&2; }
usage() {
    [ $# -gt 0 ] && note "$*"
    echo "usage: $0 [--vms 1|2] [--nics 1|2] [--siw] [--rate NIC=RATE[/QUEUE]]... [--timeout SEC]" \
        "[--mem SIZE] [--smp N] [--setup] -- COMMAND [ARGS...]" >&2
    exit 2
}
cannot_boot() { note "cannot boot: $*"; exit 125; }
# --rate NIC=RATE[/QUEUE] (tc's units) -> SHAPES entry "NIC RATE BURST QUEUE": tbf's bucket
# holds 10 ms of traffic (it must hold more than rate/HZ) and at least a few frames; its
# queue holds QUEUE of traffic (tc's latency, default 100ms) and drops beyond. RoCE has no
# congestion control (real fabrics are lossless): a drop costs a retry timeout, so shaped
# verbs traffic wants a queue longer than its bursts (e.g. eth1=20mbit/5s).
shape() {
    local m
    [[ $1 =~ ^(eth[01])=([0-9]+)(bit|kbit|mbit|gbit|bps|kbps|mbps|gbps)(/([0-9]+(ms|s)))?$ ]] ||
        usage "--rate takes NIC=RATE[/QUEUE], e.g. eth1=20mbit or eth1=20mbit/5s (units:" \
            "[k|m|g]bit, [k|m|g]bps; ms, s)"
    case ${BASH_REMATCH[3]} in
    bit) m=1 ;; kbit) m=1000 ;; mbit) m=1000000 ;; gbit) m=1000000000 ;;
    bps) m=8 ;; kbps) m=8000 ;; mbps) m=8000000 ;; gbps) m=8000000000 ;;
    esac
    m=$((BASH_REMATCH[2] * m / 8 / 100))
    m=$((m > 16384 ? m : 16384))
    SHAPES+=("${BASH_REMATCH[1]} ${BASH_REMATCH[2]}${BASH_REMATCH[3]} $m ${BASH_REMATCH[5]:-100ms}")
}

while [ $# -gt 0 ]; do
    case $1 in
    --vms) [[ ${2:-} =~ ^[12]$ ]] || usage "--vms takes 1 or 2"; VMS=$2; shift 2 ;;
    --nics) [[ ${2:-} =~ ^[12]$ ]] || usage "--nics takes 1 or 2"; NICS=$2; shift 2 ;;
    --siw) SIW=1; shift ;;
    --rate) shape "${2:-}"; shift 2 ;;
    --timeout) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage "--timeout takes seconds"; TIMEOUT=$2; shift 2 ;;
    --mem) [[ ${2:-} =~ ^[0-9]+[MG]?$ ]] || usage "--mem takes a size (2G, 512M)"; MEM=$2; shift 2 ;;
    --smp) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || usage "--smp takes a number"; SMP=$2; shift 2 ;;
    --setup) SETUP=1; shift ;;
    -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    *) usage "unknown option $1" ;;
    esac
done
[ $# -gt 0 ] || [ "$SETUP" = 1 ] || usage "no command"
for s in "${SHAPES[@]}"; do
    [ "${s:3:1}" -lt "$NICS" ] || usage "--rate: the guest has no ${s%% *} (--nics $NICS)"
done
[ "$(id -u)" = 0 ] || cannot_boot "not root (the cache, and 9p passing files through as root)"

# ---- the cache: QEMU, the guest kernel (with siw), the initramfs; made once, under a lock ----

step() { timeout -k 10 900 nice -n 10 "$@"; } # a setup command, bounded
apt_update() {
    [ -z "${APT_UPDATED:-}" ] || return 1
    APT_UPDATED=1
    note "setup: apt-get update"
    step apt-get update -qq >&2
}
# fetch DIR PKG[=VERSION]...: the packages' .debs into DIR, nothing installed; a second try after
# apt-get update (lists that are missing, or older than the archive)
fetch() {
    _fetch() { mkdir -p "$1" && (cd "$1" && step apt-get download -qq -o APT::Sandbox::User=root "${@:2}") >&2; }
    _fetch "$@" || { apt_update && _fetch "$@"; }
}
newest_kernel() {
    apt-cache search --names-only "^linux-image-${KSERIES/./\\.}\\.0-[0-9]+-amd64-unsigned\$" |
        awk '{print $1}' | sort -V | tail -n 1
}

# Debian's QEMU, unpacked: installing qemu-system-x86 (7.2) would remove a newer qemu-utils
# (backports) that Breaks it. Its libraries are installed by `make vm-deps`.
setup_qemu() {
    local t=$CACHE/qemu.new d
    [ -f "$CACHE/qemu/.ok" ] && return 0
    note "setup: QEMU"
    rm -rf "$t"
    fetch "$t/debs" qemu-system-x86 qemu-system-common qemu-system-data seabios || return 1
    for d in "$t"/debs/*.deb; do dpkg-deb -x "$d" "$t" || return 1; done
    rm -rf "$t/debs" "$CACHE/qemu" && touch "$t/.ok" && mv "$t" "$CACHE/qemu"
}

# Debian's kernel, unpacked; .ok holds "PACKAGE VERSION KVER".
setup_kernel() {
    local t=$CACHE/kernel.new pkg ver kver
    [ -f "$CACHE/kernel/.ok" ] && return 0
    pkg=$(newest_kernel)
    [ -n "$pkg" ] || { apt_update; pkg=$(newest_kernel); }
    [ -n "$pkg" ] || { note "no linux-image-$KSERIES.0-*-amd64-unsigned in the apt lists"; return 1; }
    ver=$(apt-cache show --no-all-versions "$pkg" | awk '/^Version:/ {print $2; exit}')
    kver=${pkg#linux-image-} kver=${kver%-unsigned}
    note "setup: guest kernel $kver ($ver)"
    rm -rf "$t"
    fetch "$t/debs" "$pkg=$ver" && step dpkg-deb -x "$t"/debs/*.deb "$t" || return 1
    rm -rf "$t/debs" "$t/usr/share"
    [ -f "$t/boot/vmlinuz-$kver" ] && step depmod -b "$t" "$kver" || return 1
    echo "$pkg $ver $kver" >"$t/.ok"
    rm -rf "$CACHE/kernel" && mv "$t" "$CACHE/kernel"
}

# Guests boot boot/vmlinux, the uncompressed kernel (PVH entry): decompressing the bzImage costs
# 3 s of each boot under TCG. Where it cannot be had (not xz), boot/vmlinux.none: the bzImage.
setup_vmlinux() {
    local z=$CACHE/kernel/boot/vmlinuz-$KVER v=$CACHE/kernel/boot/vmlinux off
    [ -f "$v" ] || [ -f "$v.none" ] && return 0
    off=$(LC_ALL=C grep -m 1 -obUaP '\xfd7zXZ\x00' "$z" | head -n 1 | cut -d: -f1)
    if [ -n "$off" ] && xz -dc --single-stream <(tail -c +$((off + 1)) "$z") >"$v.new" &&
        [ "$(head -c 4 "$v.new")" = $'\x7fELF' ]; then
        mv "$v.new" "$v"
    else
        rm -f "$v.new" && touch "$v.none"
    fi
}

# siw.ko: Debian builds no soft-iWARP (CONFIG_RDMA_SIW unset), so build
# drivers/infiniband/sw/siw of the same version's linux-source against its headers.
build_siw() { # DIR VERSION KVER
    local t=$1 ver=$2 kver=$3 d hd src
    fetch "$t/debs" "linux-source-$KSERIES=$ver" "linux-headers-$kver=$ver" \
        "linux-headers-${kver%-amd64}-common=$ver" "linux-kbuild-$KSERIES=$ver" || return 1
    for d in "$t"/debs/linux-headers-*.deb "$t"/debs/linux-kbuild-*.deb; do
        dpkg-deb -x "$d" "$t/root" || return 1
    done
    # the whole tree is 1.4 GB: keep siw's directory only
    dpkg-deb --fsys-tarfile "$t"/debs/linux-source-*.deb |
        tar -xO --wildcards './usr/src/linux-source-*.tar.xz' | xz -dc |
        tar -x -C "$t" --wildcards '*/drivers/infiniband/sw/siw/*' || return 1
    rm -rf "$t/debs"
    hd=$t/root/usr/src/linux-headers-$kver
    # its Makefile includes the -common tree by absolute path: point that into DIR
    sed -i "s|^include /usr/src/|include $t/root/usr/src/|" "$hd/Makefile" || return 1
    src=$(echo "$t"/linux-source-*/drivers/infiniband/sw/siw)
    step make -s -j"$(nproc)" -C "$hd" M="$src" CONFIG_RDMA_SIW=m modules || return 1
    strip --strip-debug "$src/siw.ko" # 5 MB of debug information the initramfs does without
    mkdir -p "$CACHE/kernel/lib/modules/$kver/updates" &&
        cp "$src/siw.ko" "$CACHE/kernel/lib/modules/$kver/updates/siw.ko.new" &&
        mv "$CACHE/kernel/lib/modules/$kver/updates/siw.ko"{.new,} &&
        depmod -b "$CACHE/kernel" "$kver"
}
# A failed build is not retried by each --siw run (it takes a minute), only by --setup.
setup_siw() {
    local t=$CACHE/siw.new ver kver
    read -r _ ver kver <"$CACHE/kernel/.ok"
    [ -f "$CACHE/kernel/lib/modules/$kver/updates/siw.ko" ] && return 0
    [ -f "$CACHE/siw.failed" ] && [ "$SETUP" = 0 ] && return 1
    note "setup: building siw for $kver"
    rm -rf "$t" && mkdir -p "$t" || return 1
    if build_siw "$t" "$ver" "$kver" >"$t/log" 2>&1; then
        rm -rf "$t" "$CACHE/siw.failed" "$CACHE"/initramfs-* # remade, with siw
        return 0
    fi
    tail -n 15 "$t/log" >&2
    mv "$t/log" "$CACHE/siw.failed"
    rm -rf "$t"
    return 1
}

# add_modules DIR LIST MODULE...: the modules and those they need into DIR/lib (plain .ko, for
# busybox's insmod), their load order into DIR/LIST (less those already in DIR/lib)
add_modules() {
    local t=$1 list=$2 m ko
    shift 2
    for m in "$@"; do modprobe -d "$CACHE/kernel" -S "$KVER" --show-depends "$m" || return 1; done |
        awk '$1 == "insmod" && !seen[$2]++ {print $2}' >"$t/order" || return 1
    while read -r ko; do
        m=$(basename "$ko") && m=${m%.xz}
        [ -e "$t/lib/$m" ] && continue
        case $ko in *.xz) xz -dc "$ko" ;; *) cat "$ko" ;; esac >"$t/lib/$m" || return 1
        echo "$m" >>"$t/$list"
    done <"$t/order"
    rm -f "$t/order"
}
# The part of the initramfs made once per kernel: a static busybox (unpacked: busybox-static
# Conflicts with the busybox a machine may have), and the modules of the root (virtio PCI, 9p,
# overlay), the NICs and rxe; siw's apart (loaded only with --siw).
setup_initramfs() {
    local f=$CACHE/initramfs-$KVER.$INITRAMFS.cpio.gz t=$CACHE/initramfs.new
    [ -f "$f" ] && return 0
    rm -rf "$t" && mkdir -p "$t"/{bin,lib,dev,proc,sys,lower,rw,root} || return 1
    fetch "$t/debs" busybox-static && dpkg-deb -x "$t"/debs/busybox-static_*.deb "$t/debs/x" &&
        cp "$(ls "$t"/debs/x/{usr/,}bin/busybox 2>/dev/null | head -n 1)" "$t/bin/busybox" &&
        ln -s busybox "$t/bin/sh" && rm -rf "$t/debs" || return 1
    add_modules "$t" modules virtio_pci 9pnet_virtio 9p overlay virtio_net \
        crc32_generic rdma_rxe ib_uverbs rdma_ucm || return 1
    if [ -f "$CACHE/kernel/lib/modules/$KVER/updates/siw.ko" ]; then
        add_modules "$t" modules.siw siw || return 1
    fi
    (cd "$t" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$f.new" &&
        mv "$f.new" "$f" && rm -rf "$t"
}

need() { # COMMAND...: on this host, else no guest (make vm-deps installs them all)
    local c missing=()
    for c in "$@"; do command -v "$c" >/dev/null || missing+=("$c"); done
    [ ${#missing[@]} = 0 ] || cannot_boot "${missing[*]} missing on this host (make vm-deps)"
}
cached() { # whether this run needs nothing made
    local kver
    [ -f "$CACHE/qemu/.ok" ] && [ -f "$CACHE/kernel/.ok" ] || return 1
    [ -f "$CACHE/kernel/boot/vmlinux" ] || [ -f "$CACHE/kernel/boot/vmlinux.none" ] || return 1
    read -r _ _ kver <"$CACHE/kernel/.ok"
    [ -f "$CACHE/initramfs-$kver.$INITRAMFS.cpio.gz" ] &&
        { [ "$SIW" = 0 ] || [ -f "$CACHE/kernel/lib/modules/$kver/updates/siw.ko" ]; }
}
setup() {
    local p
    # the guests' userland is the host's: what init.sh runs there must be here
    need timeout cpio rdma
    [ ${#SHAPES[@]} = 0 ] || need tc
    SIW_OK=yes
    if [ "$SETUP" = 1 ] || ! cached; then
        need apt-get apt-cache dpkg-deb gzip xz depmod modprobe flock make gcc
        mkdir -p "$CACHE" 2>/dev/null && [ -w "$CACHE" ] || cannot_boot "cannot write the cache $CACHE"
        exec {LOCK}>>"$CACHE/.lock" || cannot_boot "cannot open $CACHE/.lock"
        # concurrent first runs: one sets up, the others wait and find it done
        flock -w 1800 "$LOCK" || cannot_boot "$CACHE is locked by another run's setup"
        setup_qemu || cannot_boot "could not unpack QEMU into $CACHE/qemu (see above)"
        setup_kernel || cannot_boot "could not unpack the guest kernel into $CACHE/kernel (see above)"
        read -r _ _ KVER <"$CACHE/kernel/.ok"
        setup_vmlinux
        if [ "$SETUP" = 1 ] || [ "$SIW" = 1 ]; then setup_siw || SIW_OK=no; fi
        setup_initramfs || cannot_boot "could not make $CACHE/initramfs-$KVER.$INITRAMFS.cpio.gz"
        exec {LOCK}>&-
    fi
    read -r KPKG _ KVER <"$CACHE/kernel/.ok"
    [ -f "$CACHE/kernel/lib/modules/$KVER/updates/siw.ko" ] || SIW_OK=no
    [ "$SIW" = 0 ] || [ "$SIW_OK" = yes ] ||
        cannot_boot "no siw module for $KVER: its build failed (log: $CACHE/siw.failed; guest.sh --setup retries)"
    KERNEL=$CACHE/kernel/boot/vmlinux
    [ -f "$KERNEL" ] || KERNEL=$CACHE/kernel/boot/vmlinuz-$KVER
    QEMU=$CACHE/qemu/usr/bin/qemu-system-x86_64
    # Debian's QEMU loads its accelerators as modules, from where it was built to be
    export QEMU_MODULE_DIR=$CACHE/qemu/usr/lib/x86_64-linux-gnu/qemu
    p=$(ldd "$QEMU" 2>&1 | awk '/not found/ {printf " %s", $1}')
    [ -z "$p" ] || cannot_boot "QEMU's libraries are missing:$p (make vm-deps)"
}

# TCG unless /dev/kvm is real VMX/SVM KVM: a paravirtual /dev/kvm (kvm_pvm) hangs or crashes
# Debian's kernel early in boot.
accel() {
    local a=${RAILMPI_VM_ACCEL:-}
    if [ -z "$a" ]; then
        a=tcg
        [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; } && a=kvm
    fi
    case $a in
    kvm) ACCEL=(-accel kvm -cpu host) ;;
    *) ACCEL=(-accel tcg,thread=multi -cpu max) ;;
    esac
}

setup
accel
if [ "$SETUP" = 1 ]; then
    note "ready: kernel $KVER ($KPKG), siw $SIW_OK, accel ${ACCEL[1]%%,*}, cache $CACHE"
    exit 0
fi

# ---- one run: a directory of its own, guests started and watched, everything removed after ----

# A guest.sh killed with SIGKILL leaves its guests and directory: the next run removes them.
for d in /tmp/railmpi-vm.*; do
    [ -f "$d/owner" ] || continue
    kill -0 "$(cat "$d/owner")" 2>/dev/null && continue
    for p in $(cat "$d/pids" 2>/dev/null); do
        grep -qF "$d" "/proc/$p/cmdline" 2>/dev/null && kill -KILL "$p"
    done
    rm -rf "$d"
done

RUN=$(mktemp -d /tmp/railmpi-vm.XXXXXX) || cannot_boot "mktemp in /tmp failed"
QPIDS=() TAILS=()
alive() { # PID...: whether one lives
    local p
    for p in "$@"; do kill -0 "$p" 2>/dev/null && return 0; done
    return 1
}
# QPIDS are `timeout`s: each passes TERM on to its QEMU, and KILLs it 5 s later
stop_guests() {
    local i p
    [ ${#QPIDS[@]} = 0 ] && return 0
    kill "${QPIDS[@]}" 2>/dev/null
    for ((i = 0; i < 80; i++)); do alive "${QPIDS[@]}" || break; sleep 0.1; done
    for p in "${QPIDS[@]}"; do kill -KILL $(pgrep -P "$p") "$p" 2>/dev/null; done
    wait "${QPIDS[@]}" 2>/dev/null
    QPIDS=()
}
cleanup() {
    stop_guests
    [ ${#TAILS[@]} = 0 ] || { kill "${TAILS[@]}" 2>/dev/null; wait "${TAILS[@]}" 2>/dev/null; }
    if [ -n "${RAILMPI_VM_KEEP:-}" ]; then note "kept $RUN"; else rm -rf "$RUN"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
echo $$ >"$RUN/owner"

# What the guests see, at the same path: RUN/g (config, results, shared/).
G=$RUN/g
CWD=$(pwd -P)
mkdir -p "$G/shared" "$RUN/initrd.d"
cp "$HERE/exec.sh" "$G/exec.sh"
sq() { printf "'%s'" "${1//\'/\'\\\'\'}"; } # quoted for sh (busybox's, in init.sh)
{
    echo "VMS=$VMS NICS=$NICS SIW=$SIW"
    echo "SHAPES=$(sq "$(for s in "${SHAPES[@]}"; do echo "$s"; done)")"
    echo "CWD=$(sq "$CWD")"
    echo "KMODS=$(sq "$CACHE/kernel/lib/modules/$KVER")"
    echo "RDMA=$(sq "$(command -v rdma)") TC=$(sq "$(command -v tc)")"
} >"$G/config.sh"
{ printf 'VM_ARGS=('; printf ' %q' "$@"; printf ' )\n'; } >"$G/args"
# The host's environment, less what describes this host's session or shell.
echo "$HOST_ENV" | grep -vE '^declare -[a-zA-Z-]* (PWD|OLDPWD|SHLVL|HOSTNAME|BASHOPTS|SHELLOPTS|QEMU_MODULE_DIR|DISPLAY|TMUX|TMUX_PANE|XDG_RUNTIME_DIR|SSH_[A-Z_]*|RAILMPI_VM_[A-Z0-9_]*)(=|$)' >"$G/env"

# The initramfs: /init first (plain cpio), then the cached busybox and modules (gzip).
cp "$HERE/init.sh" "$RUN/initrd.d/init" && chmod 755 "$RUN/initrd.d/init" &&
    (cd "$RUN/initrd.d" && echo init | cpio -o -H newc --quiet) >"$RUN/initrd" &&
    cat "$CACHE/initramfs-$KVER.$INITRAMFS.cpio.gz" >>"$RUN/initrd" || cannot_boot "could not write $RUN/initrd"

# Networks: link k is 10.(11+k).0.0/24, guest n is .(n+1). Two guests: a private Ethernet per
# link over a pair of unix datagram sockets (nothing on the host's network). One guest: user
# networking with restrict=on (no way out), only so that the NIC has a carrier.
netdev() { # NODE LINK
    local n=$1 k=$2
    if [ "$VMS" = 2 ]; then
        echo "dgram,id=n$k,local.type=unix,local.path=$RUN/l$k.$n,remote.type=unix,remote.path=$RUN/l$k.$((1 - n))"
    else
        echo "user,id=n$k,restrict=on,ipv6=off,net=10.$((11 + k)).0.0/24,host=10.$((11 + k)).0.254,dns=10.$((11 + k)).0.253"
    fi
}
prefix() { if [ "$VMS" = 1 ]; then cat; else sed -u "s/^/[vm$1] /"; fi; }
start_guest() { # NODE
    local n=$1 k share=()
    [ "$CWD" = / ] || share=(-virtfs "local,path=${CWD//,/,,},mount_tag=cwd,security_model=passthrough,multidevs=remap")
    local args=(-nodefaults -no-user-config -machine q35 "${ACCEL[@]}" -m "$MEM" -smp "$SMP"
        -kernel "$KERNEL" -initrd "$RUN/initrd"
        -append "console=ttyS0 quiet loglevel=3 panic=-1 rdinit=/init rm.node=$n rm.run=$G"
        -display none -vga none -monitor none -no-reboot -serial "file:$RUN/console.$n"
        -virtfs "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap"
        -virtfs "local,path=$G,mount_tag=run,security_model=none"
        "${share[@]}")
    for ((k = 0; k < NICS; k++)); do
        args+=(-netdev "$(netdev "$n" "$k")" -device "virtio-net-pci,netdev=n$k,mac=52:54:00:12:3$k:0$n,romfile=")
    done
    : >"$G/out.$n" && : >"$G/err.$n"
    # `timeout` bounds the guest even if this script is SIGKILLed
    timeout -k 5 $((TIMEOUT + 30)) "$QEMU" "${args[@]}" >"$RUN/qemu.$n" 2>&1 </dev/null &
    local q=$!
    QPIDS+=("$q")
    echo "$q" >>"$RUN/pids"
    # the guests' output as it comes; two guests: lines prefixed [vm0] / [vm1]
    tail -n +1 -s 0.2 -f --pid="$q" "$G/out.$n" | prefix "$n" &
    TAILS+=($!)
    tail -n +1 -s 0.2 -f --pid="$q" "$G/err.$n" | prefix "$n" >&2 &
    TAILS+=($!)
}

for ((n = 0; n < VMS; n++)); do start_guest "$n"; done

# Watch until all guests are done, or out of time; or until one stopped without a result (could
# not come up), or vm0's COMMAND failed (its status is the answer): then stop the others.
deadline=$((SECONDS + TIMEOUT)) timed_out=0 cause=
while alive "${QPIDS[@]}"; do
    [ "$SECONDS" -ge "$deadline" ] && { timed_out=1; break; }
    for ((n = 0; n < VMS; n++)); do
        if [ -e "$G/fail.$n" ] || { ! alive "${QPIDS[$n]}" && [ ! -s "$G/rc.$n" ]; }; then
            cause=$n
        fi
    done
    [ "$VMS" = 2 ] && [ -s "$G/rc.0" ] && [ "$(cat "$G/rc.0")" != 0 ] && cause=0
    [ -n "$cause" ] && { sleep 1; break; } # a moment for the others' last words
    sleep 0.2
done
stop_guests
wait "${TAILS[@]}" 2>/dev/null
TAILS=()

[ "$timed_out" = 0 ] || { note "timed out after ${TIMEOUT}s"; exit 124; }
last_words() { # NODE: init.sh's "railmpi-vm: REASON", else the ends of QEMU's and the console's logs
    local r
    r=$(grep -a 'railmpi-vm:' "$RUN/console.$1" 2>/dev/null | tail -n 1)
    [ -n "$r" ] && { echo "${r#*railmpi-vm: }"; return; }
    r=$(grep -a -m 1 'Kernel panic' "$RUN/console.$1" 2>/dev/null)
    [ -n "$r" ] && { echo "${r#*] }"; return; }
    r=$(cat "$RUN/qemu.$1" 2>/dev/null; tail -n 5 "$RUN/console.$1" 2>/dev/null)
    echo "QEMU or the guest's kernel stopped: $(echo "$r" | tr -s '\n' ' ' | tail -c 600)"
}
# The guest that stopped the others first: its reason is the run's.
for n in $cause $(seq 0 $((VMS - 1))); do
    [ -e "$G/fail.$n" ] && cannot_boot "vm$n: $(cat "$G/fail.$n")"
    [ -e "$G/started.$n" ] || [ -s "$G/rc.$n" ] || [ "$cause" != "$n" ] || cannot_boot "vm$n: $(last_words "$n")"
done
rc=0
for ((n = 0; n < VMS; n++)); do
    if [ -s "$G/rc.$n" ]; then
        r=$(cat "$G/rc.$n")
    elif [ "$n" -gt 0 ] && [ "$rc" != 0 ]; then
        continue # stopped because vm0's COMMAND failed
    elif [ -e "$G/started.$n" ]; then
        note "vm$n stopped while COMMAND ran: $(last_words "$n")"
        r=1
    else
        cannot_boot "vm$n: $(last_words "$n")"
    fi
    [ "$rc" = 0 ] && rc=$r
done
exit "$rc"
