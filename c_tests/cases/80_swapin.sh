# 80_swapin: programs built with Debian MPICH ($CTM, linked against libmpich.so.12) run on
# railmpi without relinking, launched by Hydra, in two ways:
#   preload: LD_PRELOAD=$LIB/libmpi.so.12
#   libpath: LD_LIBRARY_PATH=$LIB  ($LIB/libmpich.so.12 is a link to railmpi)
# hello must report a library version containing "railmpi" (proves the swap took effect).
# Also NetPIPE (NPmpich2, Debian netpipe-mpich2): a full size sweep with few repetitions,
# and a full integrity-check sweep.

if [ "$CT_IMPL" != railmpi ] || [ ! -e "$LIB/libmpi.so.12" ]; then
    skip_case swapin "needs railmpi's $LIB/libmpi.so.12"
    return 0
fi
if ! command -v "${HYDRA%% *}" >/dev/null 2>&1; then
    skip_case swapin "$HYDRA not found (Debian package mpich)"
    return 0
fi

# Command prefix per way of swapping in (run_case runs commands, not shell functions).
_ct_swap() {
    case $1 in
    preload) swap=(env "LD_PRELOAD=$LIB/libmpi.so.12") ;;
    libpath) swap=(env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}") ;;
    esac
}

# The loader must pick $LIB/libmpich.so.12 for an MPICH-built program.
run_case swapin.libpath.ldd 0 bash -c '
    line=$(LD_LIBRARY_PATH="$1" ldd "$2" | grep "libmpich.so.12")
    echo "$line"
    case "$line" in *"=> $1/libmpich.so.12 "*) exit 0 ;; *) exit 1 ;; esac' _ "$LIB" "$CTM/hello"

for how in preload libpath; do
    _ct_swap $how
    CASE_EXPECT='^[^#].*railmpi' CASE_IGNORECASE=1 \
        run_case swapin.$how.hello 0 "${swap[@]}" $HYDRA -n 2 "$CTM/hello"
    for prog in ring allpairs wildcard probe truncate selfsend persistent ssend cancel \
        waitsome comm coll_basic attrs errors thread_multiple large; do
        CASE_EXPECT="^ok $prog " run_case swapin.$how.$prog 0 "${swap[@]}" $HYDRA -n 2 "$CTM/$prog"
    done
    CASE_FORBID='BUG:' run_case swapin.$how.abort 3 "${swap[@]}" $HYDRA -n 2 "$CTM/abort"
    # Hydra may drop an aborting job's output (lib.sh, is_hydra): retried.
    CASE_EXPECT='MPI_Send' CASE_FORBID='BUG:' CASE_RETRIES=4 \
        run_case swapin.$how.errors_fatal nonzero "${swap[@]}" $HYDRA -n 2 "$CTM/errors_fatal"
done

if ! command -v NPmpich2 >/dev/null 2>&1; then
    skip_case swapin.netpipe "NPmpich2 not installed (apt-get install netpipe-mpich2)"
else
    for how in preload libpath; do
        _ct_swap $how
        # Default sweep (1 byte .. 8 MiB + 3, with perturbations), 5 repetitions per size.
        CASE_EXPECT='8388611 bytes +5 times --> .* Mbps' \
            run_case swapin.$how.netpipe 0 "${swap[@]}" $HYDRA -n 2 NPmpich2 -n 5 \
            -o "$LOGDIR/netpipe.$how.out"
        # Integrity check of every size in the sweep (data verified by NetPIPE).
        CASE_EXPECT='8388609 bytes .*Integrity check passed' CASE_FORBID='Integrity check failed' \
            run_case swapin.$how.netpipe_integrity 0 "${swap[@]}" $HYDRA -n 2 NPmpich2 -i -n 3 \
            -o "$LOGDIR/netpipe_integrity.$how.out"
    done
fi
