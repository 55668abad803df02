# 12_build_tools: what build tools ask of railmpi (c_tests/build_tools.sh): pkg-config files
# under MPICH's and generic names, and the wrappers' queries (MPICH's -show/-compile-info/
# -link-info, Open MPI's --showme:*) answered without running the compiler, as Meson's MPI
# dependency uses them.

if [ "$CT_IMPL" = railmpi ]; then
    if command -v pkg-config >/dev/null 2>&1; then
        CASE_TIMEOUT=60 CASE_EXPECT='^ok build_tools.sh pkgconfig' \
            run_case build_tools.pkgconfig 0 "$HERE/build_tools.sh" pkgconfig "$BUILD" "$MPIEXEC"
    else
        skip_case build_tools.pkgconfig "no pkg-config"
    fi
    CASE_TIMEOUT=60 CASE_EXPECT='^ok build_tools.sh queries' \
        run_case build_tools.queries 0 "$HERE/build_tools.sh" queries "$BUILD" "$MPIEXEC"
    CASE_TIMEOUT=60 CASE_EXPECT='^ok build_tools.sh meson' \
        run_case build_tools.meson 0 "$HERE/build_tools.sh" meson "$BUILD" "$MPIEXEC"
fi
