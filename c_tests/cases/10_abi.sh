# ABI cases: railmpi's mpi.h against MPICH's, the exported MPI_X aliases, PMPI interposition,
# the generated entry points up to date with their generator.
# Sourced by harness.sh (which sets BUILD, MPIEXEC, CT, LIB, CT_IMPL, ...); with --mpich only
# the interposer case runs (against MPICH, as a check of the test). The checks are bash
# functions run as `bash -c NAME ARGS` so that run_case may put them under `timeout`.

ABI_SRC_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)   # c_tests/
ABI_MPICH_INC=${MPICH_INC:-/usr/include/x86_64-linux-gnu/mpich}

# abi_constants_match SRC_DIR OUR_INC MPICH_INC: compile src/abi_constants.c with each
# header, run both and compare. Lines starting with "#version " (MPI_VERSION/SUBVERSION:
# railmpi declares 4.1, MPICH 4.0) are left out of the comparison.
abi_constants_match() {
    local src=$1/src/abi_constants.c ours=$2 mpich=$3 tmp rc=0
    tmp=$(mktemp -d) || return 1
    local flags=(-std=c99 -Wall -Wextra -Werror -pedantic)
    if gcc "${flags[@]}" -I"$mpich" "$src" -o "$tmp/mpich" &&
        gcc "${flags[@]}" -I"$ours" "$src" -o "$tmp/ours" &&
        "$tmp/mpich" | grep -v '^#version ' >"$tmp/mpich.txt" &&
        "$tmp/ours" | grep -v '^#version ' >"$tmp/ours.txt"; then
        if [ "$(wc -l <"$tmp/ours.txt")" -lt 300 ]; then
            echo "abi_constants: too little output" >&2
            rc=1
        else
            diff -u "$tmp/mpich.txt" "$tmp/ours.txt" >&2 || rc=1
        fi
    else
        rc=1
    fi
    rm -rf "$tmp"
    return $rc
}

# abi_aliases LIBMPI: the library's soname is libmpi.so.12, and every exported PMPI_X has an
# exported MPI_X at the same address.
abi_aliases() {
    local lib=$1 syms missing
    readelf -d "$lib" | grep -q 'Library soname: \[libmpi\.so\.12\]' || {
        echo "abi_aliases: soname is not libmpi.so.12" >&2
        return 1
    }
    syms=$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $1, $3 }') || return 1
    missing=$(awk '
        { addr[$2] = $1 }
        END {
            for (s in addr)
                if (s ~ /^PMPI_/) {
                    m = substr(s, 2); n++
                    if (addr[m] != addr[s]) print m
                }
            if (n == 0) print "(no PMPI_ functions)"
        }' <<<"$syms")
    if [ -n "$missing" ]; then
        echo "abi_aliases: MPI_X missing or not an alias of PMPI_X:" $missing >&2
        return 1
    fi
}

# pmpi_interposer SRC_DIR OUR_INC MPIEXEC APP: build the PMPI tool, preload it into a
# 2-rank run of APP and check that each rank counted 1 MPI_Init, 10 MPI_Send, 10 MPI_Recv.
pmpi_interposer() {
    local src=$1/tools/pmpi_tool.c inc=$2 mpiexec=$3 app=$4 tmp rc=0
    tmp=$(mktemp -d) || return 1
    # Lazy binding: the tool's PMPI_ references resolve in the ranks (which load libmpi),
    # not in mpiexec, which gets the preload too.
    if ! gcc -shared -fPIC -Wall -Werror -Wl,-z,lazy -I"$inc" "$src" -o "$tmp/pmpi_tool.so"; then
        rm -rf "$tmp"
        return 1
    fi
    LD_PRELOAD="$tmp/pmpi_tool.so" "$mpiexec" -n 2 "$app" >"$tmp/out" 2>&1 || rc=$?
    cat "$tmp/out"
    if [ "$rc" -ne 0 ]; then
        echo "pmpi_interposer: mpiexec exited $rc" >&2
    else
        local want
        for want in "MPI_Init calls=1" "MPI_Send calls=10" "MPI_Recv calls=10"; do
            if [ "$(grep -cx "pmpi_tool: $want" "$tmp/out")" -ne 2 ]; then
                echo "pmpi_interposer: expected 2 lines 'pmpi_tool: $want'" >&2
                rc=1
            fi
        done
    fi
    rm -rf "$tmp"
    return $rc
}

export -f abi_constants_match abi_aliases pmpi_interposer

if [ "${CT_IMPL:-railmpi}" = railmpi ]; then
    run_case abi_constants_vs_mpich 0 \
        bash -c 'abi_constants_match "$@"' _ "$ABI_SRC_DIR" "$BUILD/include" "$ABI_MPICH_INC"
    run_case abi_mpi_aliases 0 \
        bash -c 'abi_aliases "$@"' _ "$LIB/libmpi.so.12"
    # The C entry points are generated from the MPI Forum's API, the MPICH ABI's constants
    # from tools/mpich_abi.txt (tools/gen_c.py; `make api-deps` installs its pympistandard
    # into build/api-venv).
    if "$BUILD/api-venv/bin/python" -c 'import pympistandard' 2>/dev/null; then
        run_case abi.entry_points_fresh 0 python3 "$ABI_SRC_DIR/../tools/gen_c.py" --check
    else
        skip_case abi.entry_points_fresh "pympistandard missing (make api-deps needs the Python package registry)"
    fi
    # The shims' modules call the base modules and the core, never in a circle (only the
    # generated entry points sit on top of them all).
    run_case abi.no_import_circle 0 python3 "$ABI_SRC_DIR/../tools/check_layers.py" "$ABI_SRC_DIR/../src/abi" "$ABI_SRC_DIR/../src/abi_std" "$ABI_SRC_DIR/../src/tool"
    ABI_TOOL_INC=$BUILD/include
else
    skip_case abi_constants_vs_mpich "compares railmpi's mpi.h with MPICH's"
    skip_case abi_mpi_aliases "checks railmpi's libmpi.so.12"
    ABI_TOOL_INC=$ABI_MPICH_INC
fi
run_case pmpi_interposer 0 \
    bash -c 'pmpi_interposer "$@"' _ "$ABI_SRC_DIR" "$ABI_TOOL_INC" "$MPIEXEC" "$CT/pmpi_app"
