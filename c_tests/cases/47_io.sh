# 47_io: MPI-IO (MPI-3.1 chapter 13), c_tests/src/io_*.c: open/close/delete and access-mode
# errors, error handlers on files, sizes, hints, explicit offsets, individual and shared file
# pointers, ordered and split collectives, nonblocking calls, views with subarray, darray and
# vector filetypes (collective buffering and data sieving), external32, atomic mode with
# overlapping writes; parallel HDF5 (Debian's, built against MPICH) swapped in. Each program
# takes a directory to write in: a fresh one on local disk,
# removed at the end. Also built with MPICH's mpicc and swapped in (our mpiexec and Hydra).
# Every program must exit 0 and rank 0 must print its "ok PROG" line.

_ct_io_dir=$(mktemp -d "${TMPDIR:-/tmp}/railmpi-io.XXXXXX")

_ct_io() {
    local prog=$1 n
    shift
    for n in "$@"; do
        CASE_EXPECT="^ok $prog " run_case "$prog.n$n" 0 $MPIEXEC -n "$n" "$CT/$prog" "$_ct_io_dir"
    done
}

_ct_io io_basic 1 2 4
_ct_io io_views 1 4 3
_ct_io io_pointers 1 2 4
_ct_io io_atomic 2 4
# The large-count (`_c`) forms of every data access call.
_ct_io io_large_count 1 3

if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpich.so.12" ]; then
    for prog in io_basic io_views io_pointers io_atomic io_large_count; do
        CASE_EXPECT="^ok $prog \[railmpi" run_case "swapin.$prog.n4" 0 \
            env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            $MPIEXEC -n 4 "$CTM/$prog" "$_ct_io_dir"
    done
    if command -v "${HYDRA%% *}" >/dev/null 2>&1; then
        for prog in io_views io_pointers; do
            CASE_EXPECT="^ok $prog \[railmpi" run_case "hydra.$prog.n3" 0 \
                env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
                $HYDRA -n 3 "$CTM/$prog" "$_ct_io_dir"
        done
    fi
fi

# Parallel HDF5 from Debian (libhdf5-mpich-dev: h5pcc.mpich, HDF5 linked statically and as
# a shared library), built against MPICH and run on railmpi swapped in, under our mpiexec and
# under Hydra (with --mpich: on MPICH itself, which validates the program).
if ! command -v h5pcc.mpich >/dev/null 2>&1; then
    skip_case hdf5 "h5pcc.mpich not found (Debian package libhdf5-mpich-dev)"
else
    _ct_h5=$BUILD/h5_tests
    mkdir -p "$_ct_h5"
    _ct_h5src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/hdf5/h5_collective.c
    # (in the output directory: h5pcc leaves its object file in the current one)
    _ct_h5cc=(bash -c 'cd "$0" && exec h5pcc.mpich "$@"' "$_ct_h5")
    run_case hdf5.build 0 "${_ct_h5cc[@]}" -O2 -o "$_ct_h5/h5_collective" "$_ct_h5src"
    run_case hdf5.build_shlib 0 "${_ct_h5cc[@]}" -shlib -O2 -o "$_ct_h5/h5_collective_shlib" "$_ct_h5src"
    if [ "$CT_IMPL" = railmpi ]; then
        _ct_swap=(env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
        for n in 1 4; do
            CASE_EXPECT='^ok h5_collective \[railmpi' run_case "hdf5.h5_collective.n$n" 0 \
                "${_ct_swap[@]}" $MPIEXEC -n "$n" "$_ct_h5/h5_collective" "$_ct_io_dir/h5_collective.h5"
        done
        CASE_EXPECT='^ok h5_collective \[railmpi' run_case hdf5.h5_collective_shlib.n3 0 \
            "${_ct_swap[@]}" $MPIEXEC -n 3 "$_ct_h5/h5_collective_shlib" "$_ct_io_dir/h5_shlib.h5"
        if command -v "${HYDRA%% *}" >/dev/null 2>&1; then
            CASE_EXPECT='^ok h5_collective \[railmpi' run_case hdf5.hydra.h5_collective.n4 0 \
                "${_ct_swap[@]}" $HYDRA -n 4 "$_ct_h5/h5_collective" "$_ct_io_dir/h5_hydra.h5"
        fi
    else
        CASE_EXPECT='^ok h5_collective ' run_case hdf5.h5_collective.n4 0 \
            $MPIEXEC -n 4 "$_ct_h5/h5_collective" "$_ct_io_dir/h5_collective.h5"
    fi
fi

rm -rf "$_ct_io_dir"
