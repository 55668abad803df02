# 32_rndv: every rendezvous protocol (RAILMPI_RNDV_PROTOCOL, railmpi only: other libraries
# ignore it) under the programs that move large and many concurrent messages: 64 MiB
# both ways and unexpected (large), all pairs at once (allpairs, 8 ranks), truncation,
# and derived datatypes (strided sends at rendezvous sizes, tiny and large runs).

if [ "${CT_IMPL:-railmpi}" = railmpi ]; then
    for _proto in copy get put auto pipeline pipeline-cached; do
        for _case in "large 2" "allpairs 8" "truncate 2" "dtype_p2p 2"; do
            set -- $_case
            CASE_EXPECT="^ok $1 " run_case "rndv_$_proto.$1.n$2" 0 \
                env RAILMPI_RNDV_PROTOCOL=$_proto $MPIEXEC -n "$2" "$CT/$1"
        done
    done
    # The pipelines again with small, shallow blocks: many READY/FIN rounds per message.
    for _proto in pipeline pipeline-cached; do
        for _case in "large 2" "allpairs 8"; do
            set -- $_case
            CASE_EXPECT="^ok $1 " run_case "rndv_$_proto.small_frag.$1.n$2" 0 \
                env RAILMPI_RNDV_PROTOCOL=$_proto RAILMPI_PIPELINE_FRAG=65536 \
                RAILMPI_PIPELINE_DEPTH=2 RAILMPI_PIPELINE_SEND_LENGTH=5000 \
                $MPIEXEC -n "$2" "$CT/$1"
        done
    done
    # An unknown protocol is refused at start-up with a message naming it.
    CASE_EXPECT='RAILMPI_RNDV_PROTOCOL' run_case rndv_unknown.n1 1 \
        env RAILMPI_RNDV_PROTOCOL=telepathy $MPIEXEC -n 1 "$CT/hello"
fi
