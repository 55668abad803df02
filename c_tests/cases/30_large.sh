# 30_large: 64 MiB messages, with the default shared-memory settings and with railmpi's
# single-copy (CMA) path switched off so the copy-through-shared-memory path is used
# (RAILMPI_SHM_CMA is railmpi-specific; other libraries ignore it).

CASE_EXPECT='^ok large ' run_case large.n2 0 $MPIEXEC -n 2 "$CT/large"
CASE_EXPECT='^ok large ' run_case large.n2.nocma 0 env RAILMPI_SHM_CMA=0 $MPIEXEC -n 2 "$CT/large"
CASE_EXPECT='^ok large ' run_case large.n3 0 $MPIEXEC -n 3 "$CT/large"
