# 40_threads: MPI_THREAD_MULTIPLE with 4 threads per rank doing concurrent point-to-point.

CASE_EXPECT='^ok thread_multiple ' run_case thread_multiple.n2 0 $MPIEXEC -n 2 "$CT/thread_multiple"
CASE_EXPECT='^ok thread_multiple ' run_case thread_multiple.n4 0 $MPIEXEC -n 4 "$CT/thread_multiple"

# Communicators made at once by the threads of each rank from overlapping groups ({0,1},
# {1,2}, {0,2}: dup, split, intercommunicators, merge, create_group), then used at once: a
# process must never hold two of them on one context id.
CASE_EXPECT='^ok thread_comm_ctx ' run_case thread_comm_ctx.n3 0 $MPIEXEC -n 3 "$CT/thread_comm_ctx"
