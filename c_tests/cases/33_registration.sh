# 33_registration: rendezvous payloads through the registration layer under every
# RAILMPI_REG_MODE, with RAILMPI_STATS=1 so each run reports what the layer did (railmpi
# only). `large` moves 64 MiB messages both ways and unexpected; the totals line must show
# the mode at work: pin-down pins (peak > 0) and never prefetches, odp-native pins and
# prefetches nothing, odp-enhanced and odp-optimal prefetch and pin nothing.

if [ "${CT_IMPL:-railmpi}" = railmpi ]; then
    _reg_total='railmpi stats total \(2 ranks\): pinned [0-9]+ B'
    CASE_EXPECT="$_reg_total \(peak [1-9][0-9]* B\), reg [1-9][0-9]* .* prefetch 0 calls" \
        run_case reg_pin.large.n2 0 \
        env RAILMPI_STATS=1 RAILMPI_REG_MODE=pin $MPIEXEC -n 2 "$CT/large"
    CASE_EXPECT="$_reg_total \(peak 0 B\), reg [1-9][0-9]* .* prefetch 0 calls" \
        run_case reg_odp_native.large.n2 0 \
        env RAILMPI_STATS=1 RAILMPI_REG_MODE=odp-native $MPIEXEC -n 2 "$CT/large"
    for _m in odp-enhanced odp-optimal; do
        CASE_EXPECT="$_reg_total \(peak 0 B\), reg [1-9][0-9]* .* prefetch [1-9][0-9]* calls [1-9]" \
            run_case "reg_$_m.large.n2" 0 \
            env RAILMPI_STATS=1 RAILMPI_REG_MODE=$_m $MPIEXEC -n 2 "$CT/large"
    done
    # Registration cache off: every transfer registers and deregisters afresh.
    CASE_EXPECT="$_reg_total .* cache hit 0 " run_case reg_nocache.large.n2 0 \
        env RAILMPI_STATS=1 RAILMPI_REG_CACHE_MAX=0 $MPIEXEC -n 2 "$CT/large"
    # Under a 64 KiB RLIMIT_MEMLOCK without CAP_IPC_LOCK (root would ignore the limit),
    # pin-down cannot pin 64 MiB: the transfers still succeed, unpinned, and say so.
    if command -v setpriv >/dev/null && command -v prlimit >/dev/null; then
        CASE_EXPECT="memlock fallbacks [1-9]" run_case reg_memlock.large.n2 0 \
            env RAILMPI_STATS=1 RAILMPI_REG_MODE=pin \
            setpriv --bounding-set=-ipc_lock --inh-caps=-ipc_lock \
            prlimit --memlock=65536 $MPIEXEC -n 2 "$CT/large"
    fi
    # Buffers given back and changed between rendezvous (munmap + mmap at the same address,
    # mremap, madvise DONTNEED) under pin-down with each invalidation method: the data must
    # be right every time, and uffd and hooks must have noticed (invalidations > 0; uffd
    # may instead report that the kernel has no userfaultfd, and then caches nothing).
    # no-trim does not see the program's own munmap: only the data is checked there.
    _reg_inval="$_reg_total .* invalidate [1-9][0-9]*,"
    CASE_EXPECT="$_reg_inval|userfaultfd unavailable" run_case reg_reuse.uffd.n2 0 \
        env RAILMPI_STATS=1 RAILMPI_REG_MODE=pin RAILMPI_REG_INVALIDATE=uffd \
        $MPIEXEC -n 2 "$CT/reg_reuse"
    CASE_EXPECT="$_reg_inval" run_case reg_reuse.hooks.n2 0 \
        env RAILMPI_STATS=1 RAILMPI_REG_MODE=pin RAILMPI_REG_INVALIDATE=hooks \
        $MPIEXEC -n 2 "$CT/reg_reuse"
    CASE_EXPECT='^ok reg_reuse ' run_case reg_reuse.no-trim.n2 0 \
        env RAILMPI_STATS=1 RAILMPI_REG_MODE=pin RAILMPI_REG_INVALIDATE=no-trim \
        $MPIEXEC -n 2 "$CT/reg_reuse"
    # Many concurrent rendezvous between all pairs of 8 ranks, each mode.
    for _m in pin odp-optimal; do
        CASE_EXPECT='^ok allpairs ' run_case "reg_$_m.allpairs.n8" 0 \
            env RAILMPI_REG_MODE=$_m $MPIEXEC -n 8 "$CT/allpairs"
    done
fi
