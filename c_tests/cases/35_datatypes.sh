# 35_datatypes: derived datatypes, every program under $MPIEXEC with 1 to 4 processes:
#   dtype_constructors  size/bounds/envelope/contents of every constructor (MPICH's numbers)
#   dtype_pack          MPI_Pack/Unpack/Pack_size round trips, MPI_Get_elements
#   dtype_p2p           strided/indexed/struct/subarray sends and receives, large messages,
#                       MPI_BOTTOM, types freed while in use, Bcast/Allreduce on derived types
#   dtype_errors        error classes under MPI_ERRORS_RETURN
#   dtype_integer16     MPI_INTEGER16 (railmpi's own: MPICH has no 16-byte integer)
# plus dtype_p2p over the copy-through-shared-memory path (RAILMPI_SHM_CMA=0) and with the split
# rendezvous (RAILMPI_RNDV_SPLIT=4096; both ignored by other libraries), and the MPICH-built
# programs swapped onto railmpi's library.

for _ct_prog in dtype_constructors dtype_pack dtype_p2p dtype_errors; do
    for _ct_n in 1 2 3 4; do
        CASE_EXPECT="^ok $_ct_prog " run_case "$_ct_prog.n$_ct_n" 0 \
            $MPIEXEC -n $_ct_n "$CT/$_ct_prog"
    done
done
CASE_EXPECT='^ok dtype_p2p ' run_case dtype_p2p.n2.nocma 0 \
    env RAILMPI_SHM_CMA=0 $MPIEXEC -n 2 "$CT/dtype_p2p"
CASE_EXPECT='^ok dtype_p2p ' run_case dtype_p2p.n2.split 0 \
    env RAILMPI_RNDV_SPLIT=4096 $MPIEXEC -n 2 "$CT/dtype_p2p"

# MPI_INTEGER16: railmpi's own 16-byte integer (MPICH has none; its header's is null).
if [ "$CT_IMPL" = railmpi ]; then
    for _ct_n in 1 3; do
        CASE_EXPECT='^ok dtype_integer16 ' run_case "dtype_integer16.n$_ct_n" 0 \
            $MPIEXEC -n $_ct_n "$CT/dtype_integer16"
    done
fi

if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpi.so.12" ]; then
    for _ct_prog in dtype_constructors dtype_pack dtype_p2p dtype_errors; do
        CASE_EXPECT="^ok $_ct_prog .*railmpi" run_case "$_ct_prog.swapin.n2" 0 \
            env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            $MPIEXEC -n 2 "$CTM/$_ct_prog"
    done
fi
