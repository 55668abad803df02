# 22_pt2pt_api: buffered mode (bsend), matched probe (mprobe, with four threads taking
# messages of one tag), generalized requests and the status setters (grequest), MPI-4's
# nonblocking send-receive (isendrecv), and the argument checks of the completion calls
# (request_errors: a failed call leaves every request as it was), at 1-4 ranks; flow control
# (flood: 128 MiB of unexpected eager messages grow the receiver by less than 96 MiB).
# Every program must exit 0 and rank 0 must print its "ok PROG" line.

_ct_api() {
    local prog=$1 n
    shift
    for n in "$@"; do
        CASE_EXPECT="^ok $prog " run_case "$prog.n$n" 0 $MPIEXEC -n "$n" "$CT/$prog"
    done
}

_ct_api bsend 1 2 3 4
_ct_api mprobe 1 2 3 4
_ct_api grequest 1 2 3
_ct_api isendrecv 1 2 3 4
_ct_api request_errors 1 2
_ct_api flood 2 3
# MPI-4.1: error class/code/string removal, MPI_Type_get_value_index, buffer flushes, buffers
# of communicators, MPI_BUFFER_AUTOMATIC.
_ct_api mpi41_misc 2 3
# MPI-4 partitioned communication (partitions leave as they become ready; an odd last rank
# talks to MPI_PROC_NULL); also over the tcp rail.
_ct_api partitioned 2 3
CASE_EXPECT="^ok partitioned " run_case partitioned.n4.tcp 0 \
    env RAILMPI_RAILS=tcp $MPIEXEC -n 4 "$CT/partitioned"

# The same programs built with Debian MPICH's mpicc, on railmpi swapped in through
# LD_LIBRARY_PATH ($LIB/libmpich.so.12 links to railmpi): MPICH's MPI_BSEND_OVERHEAD,
# MPI_MESSAGE_NO_PROC and callback types.
if [ "$CT_IMPL" = railmpi ] && [ -e "$LIB/libmpich.so.12" ]; then
    for prog in bsend mprobe grequest isendrecv request_errors partitioned; do
        CASE_EXPECT="^ok $prog \[railmpi" run_case "swapin.$prog.n3" 0 \
            env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" $MPIEXEC -n 3 "$CTM/$prog"
    done
fi
