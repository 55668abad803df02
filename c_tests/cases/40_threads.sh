# 40_threads: MPI_THREAD_MULTIPLE with 4 threads per rank doing concurrent point-to-point.

CASE_EXPECT='^ok thread_multiple ' run_case thread_multiple.n2 0 $MPIEXEC -n 2 "$CT/thread_multiple"
CASE_EXPECT='^ok thread_multiple ' run_case thread_multiple.n4 0 $MPIEXEC -n 4 "$CT/thread_multiple"
