#!/bin/sh
# c_tests/vm/init.sh — a guest's /init (guest.sh puts it in the initramfs). Static busybox does
# all the set-up, because under TCG each dynamically linked program from the host costs 0.1-0.3 s:
# the host's / as root (9p, read-only, under a tmpfs overlay), the run directory and the current
# directory writable at their host paths, NICs, RDMA devices with ACTIVE ports, traffic shaping;
# then exec.sh runs COMMAND in that root, its output into the run directory, and the guest
# powers off. Kernel command line: rm.node=N rm.run=DIR.
# A set-up failure: its reason in RUN/fail.NODE (and on the console as "railmpi-vm: REASON").
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
R=/root G= NODE=0
say() { echo "railmpi-vm: $*" >/dev/console; }
die() {
    say "$*"
    [ -n "$G" ] && echo "$*" >"$G/fail.$NODE"
    poweroff -f
    sleep 10
}
tick() { # T: seconds since boot
    read -r T _ </proc/uptime
    T=${T%.*}
}
wait_for() { # SECONDS COMMAND...: polls until COMMAND succeeds; fails after SECONDS
    tick
    local end=$((T + $1))
    shift
    until "$@"; do
        tick
        [ "$T" -lt "$end" ] || return 1
        sleep 0.1
    done
}
addr() { echo "10.$((11 + $2)).0.$(($1 + 1))"; } # NODE LINK

for a in $(cat /proc/cmdline); do
    case $a in
    rm.node=*) NODE=${a#*=} ;;
    rm.run=*) RUN=${a#*=} ;;
    esac
done
for m in $(cat /modules); do insmod "/lib/$m" || say "insmod $m failed"; done

o=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o "$o,ro,cache=loose" host /lower || die "cannot mount the host's / over 9p"
mount -t tmpfs -o mode=755 rw /rw && mkdir /rw/upper /rw/work &&
    mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work root $R ||
    die "cannot lay an overlay on the host's /"
mkdir -p "$R$RUN" && mount -t 9p -o "$o,cache=none" run "$R$RUN" || die "cannot mount the run directory $RUN"
G=$R$RUN
. "$G/config.sh" # VMS NICS SIW SHAPES CWD KMODS; RDMA TC: the host's, not busybox's tc
mount -t proc proc $R/proc && mount -t sysfs sys $R/sys && mount -t devtmpfs dev $R/dev &&
    mkdir -p $R/dev/pts $R/dev/shm && mount -t devpts devpts $R/dev/pts &&
    mount -t tmpfs shm $R/dev/shm && mount -t tmpfs run $R/run && mkdir $R/run/lock ||
    die "cannot mount /proc, /sys, /dev, /run"
kv=$(uname -r)
mkdir -p "$R/lib/modules/$kv" && mount -o bind "$R$KMODS" "$R/lib/modules/$kv" || die "cannot mount $KMODS"
if [ "$CWD" != / ]; then
    mkdir -p "$R$CWD" && mount -t 9p -o "$o,cache=mmap" cwd "$R$CWD" || die "cannot mount $CWD writable"
fi
# Modules the kernel asks for later (qdiscs, crypto): the host's modprobe in the new root, which
# now has this kernel's modules.
printf '#!/bin/sh\nexec chroot /root /sbin/modprobe "$@"\n' >/bin/modprobe-root
chmod 755 /bin/modprobe-root
echo /bin/modprobe-root >/proc/sys/kernel/modprobe
hostname "railmpi-vm$NODE"

# NICs and RDMA devices: rxeK on ethK, siw0 on eth0; one `rdma` for them all. siw0 comes first:
# rdma_cm takes the first device on the address's NIC, and siw connects only through rdma_cm.
ip link set lo up
k=0 devs= links=
if [ "$SIW" = 1 ]; then
    [ -e /modules.siw ] || die "no siw module in the initramfs"
    for m in $(cat /modules.siw); do insmod "/lib/$m" || say "insmod $m failed"; done
    links="link add siw0 type siw netdev eth0
"
    devs=siw0
fi
while [ $k -lt "$NICS" ]; do
    nic=eth$k mac=52:54:00:12:3$k:0$NODE
    wait_for 5 test -e /sys/class/net/$nic || die "no $nic"
    read -r m </sys/class/net/$nic/address
    [ "$m" = "$mac" ] || die "$nic has MAC $m, not $mac"
    ip addr add "$(addr "$NODE" $k)/24" dev $nic && ip link set $nic up || die "cannot bring up $nic"
    links="${links}link add rxe$k type rxe netdev $nic
"
    devs="$devs rxe$k"
    k=$((k + 1))
done
out=$(printf %s "$links" | chroot $R "$RDMA" -b - 2>&1) || die "rdma link add failed: $out"
for d in $devs; do
    p=/sys/class/infiniband/$d/ports/1
    wait_for 10 grep -q ACTIVE $p/state || die "$d: port not ACTIVE after 10 s ($(cat $p/state))"
    # RoCE v2 over IPv4 needs the address's GID, which rxe adds in its own time
    case $d in rxe*) wait_for 10 grep -qs :0000:ffff: $p/gids/* || die "$d: no IPv4 GID after 10 s" ;; esac
done
set -- $devs
wait_for 5 test -e /dev/infiniband/uverbs$(($# - 1)) || die "no /dev/infiniband/uverbs* for$devs"
if [ -n "$SHAPES" ]; then # lines "NIC RATE BURST QUEUE"
    out=$(printf '%s\n' "$SHAPES" | while read -r nic rate burst queue; do
        echo "qdisc replace dev $nic root tbf rate $rate burst $burst latency $queue"
    done | chroot $R "$TC" -b - 2>&1) || die "tc (--rate) failed: $out"
fi
i=0
while [ $i -lt "$VMS" ]; do
    echo "$(addr $i 0) railmpi-vm$i"
    i=$((i + 1))
done >>$R/etc/hosts

# Two guests: COMMAND starts when both are ready and each link carries packets.
: >"$G/ready.$NODE"
if [ "$VMS" = 2 ]; then
    peer=$((1 - NODE))
    wait_for 600 test -e "$G/ready.$peer" || die "vm$peer did not come up"
    k=0
    while [ $k -lt "$NICS" ]; do
        wait_for 30 ping -c 1 -W 1 "$(addr $peer $k)" >/dev/null ||
            die "vm$peer does not answer on eth$k ($(addr $peer $k))"
        k=$((k + 1))
    done
fi

chroot $R /bin/bash "$RUN/exec.sh" "$RUN" "$NODE" >"$G/out.$NODE" 2>"$G/err.$NODE" </dev/null
echo $? >"$G/rc.$NODE"
sync
umount "$G"
poweroff -f
sleep 10
