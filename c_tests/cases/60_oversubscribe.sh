# 60_oversubscribe: 8 ranks on a 2-core machine. A library that busy-polls without yielding
# is slow here (MPICH takes seconds); these must still finish well within the timeout.

CASE_EXPECT='^ok alltoall_pairs ' run_case alltoall_pairs.n8 0 $MPIEXEC -n 8 "$CT/alltoall_pairs"
CASE_EXPECT='^ok pingpong_many ' run_case pingpong_many.n8 0 $MPIEXEC -n 8 "$CT/pingpong_many"
CASE_EXPECT='^ok pingpong_many ' run_case pingpong_many.n2 0 $MPIEXEC -n 2 "$CT/pingpong_many"
