# The MPI-5 standard ABI (libmpi_abi.so.1, src/abi_std): its generated files are fresh, the
# library has the standard's soname and an MPI_X for every PMPI_X, and C test programs built
# for the standard ABI pass on railmpi: with our mpicc_abi, and with MPICH 5.0.2's
# mpicc_abi (run by LD_LIBRARY_PATH alone; make mpich5-deps installs it from the Python
# package registry into /var/cache/railmpi-bench/mpich5, as make bench does). Their railmpi-only checks are compiled out (the standard
# ABI's header does not define RAILMPI): what runs is each program's portable part.
# Sourced by harness.sh.

[ "$CT_IMPL" = railmpi ] || return 0

STD_ABI_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)   # c_tests/
STD_ABI_OUT=$BUILD/c_tests_abi
STD_ABI_MPICH5=${BENCH_MPICH5_VENV:-/var/cache/railmpi-bench/mpich5}

# Programs and the ranks each runs with ("prog:n"); io ones get a directory argument.
# abi_removed calls the MPI-1 procedures MPI-3.0 removed, which both libraries export.
# Left out: those that compare MPICH's constants (abi_constants, bsend's
# MPI_BSEND_OVERHEAD, request_errors' NULL status, which is MPI_STATUS_IGNORE here), call
# what MPI-4 removed (mpi_misc: MPI_Errhandler_create; dtype_*: MPI_LB/MPI_UB; io_basic:
# ROMIO's MPIO_Request), or need a launcher set-up of their own (faults, dynamic processes,
# interposers).
STD_ABI_PROGS="hello:3 abi_handles:2 abi_fortran_info:2 ring:4 allpairs:3 alltoall_pairs:4 attrs:2 cancel:2 coll_alias:3
coll_basic:4 coll_errors:3 coll_neighbor:4 comm:4 dtype_integer16:3 dtype_p2p:2 dtype_pack:2 errors:2
grp_comm_create:4 grp_ops:3 idup_orders:3 info:2 intercomm_create:4 isendrecv:3 large:2
large_count:2 large_count_rma:2 mpi41_misc:3 mpi_t:2 mprobe:3 op_table:3 partitioned:2
persistent:2 persistent_coll:3 persistent_coll_arrays:3 persistent_typefree:2
pingpong_many:2 probe:3 reg_reuse:2 reqfree:2 ring:2 rma_atomics:3 rma_create_race:3
rma_dtypes:3 rma_dynamic:3 rma_inflight:3 rma_mixed:3 rma_ops:3 rma_passive:3 rma_pscw:3
rma_remote_done:3 rma_shared:3 rma_zero_acc:3 selfsend:2 session_only:3 ssend:2
thread_multiple:2 topo_cart:4 topo_graph:4 truncate:2 waitsome:3 wildcard:3
io_atomic:3 io_large_count:2 io_pointers:3 io_views:2 attr_copy_err:3 attr_keyvals:3
coll_move:4 coll_nb:3 coll_reduce:3 errh_inherit:3 grequest:2 grp_errors:3 intercomm_coll:4
intercomm_ops:4 large_count_coll:2 rma_errors:3 sessions:3 session_reinit:3 abi_removed:2"

# Those also built with MPICH 5.0.2's mpicc_abi: a cross-section (its header's values,
# handles and status layout in every kind of call), to keep the run short. (grequest is
# not among them: MPICH 5.0.2's mpi_abi.h has no MPI_Fint, which MPI_Status_f2c takes.)
STD_ABI_MPICH5_PROGS="hello:3 abi_handles:2 abi_fortran_info:2 ring:4 coll_basic:4 coll_neighbor:4 coll_reduce:3 comm:4
dtype_integer16:3 dtype_p2p:2 errh_inherit:3 grp_ops:3 info:2 intercomm_create:4 mpi41_misc:3
mpi_t:2 mprobe:3 partitioned:2 persistent_coll:3 rma_ops:3 rma_shared:3 sessions:3
session_reinit:3 topo_cart:4 waitsome:3 wildcard:3 attr_keyvals:3 io_pointers:3 abi_removed:2"

# std_abi_build CC OUTDIR SRC_DIR PROGS...: compile each program with CC.
std_abi_build() {
    local cc=$1 out=$2 src=$3 p rc=0
    shift 3
    mkdir -p "$out"
    for p in "$@"; do
        "$cc" -O2 -g -w -o "$out/$p" "$src/src/$p.c" -pthread || rc=1
    done
    return $rc
}

# std_abi_lib LIB: soname libmpi_abi.so.1, every PMPI_X with an MPI_X at its address, and
# none of the MPICH ABI's entry points under the standard's names.
std_abi_lib() {
    local lib=$1 syms missing
    readelf -d "$lib" | grep -q 'Library soname: \[libmpi_abi\.so\.1\]' || {
        echo "std_abi_lib: soname is not libmpi_abi.so.1" >&2
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
            if (n < 500) print "(only " n " PMPI_ functions)"
        }' <<<"$syms")
    if [ -n "$missing" ]; then
        echo "std_abi_lib: MPI_X missing or not an alias of PMPI_X:" $missing >&2
        return 1
    fi
}
# std_abi_constants TABLE CC: compile a program printing every constant of TABLE
# (tools/abi_std.txt) with CC (a standard-ABI wrapper: its mpi.h is mpi_abi.h) and compare
# what it prints with the table's values (MPI_VERSION / MPI_SUBVERSION aside: railmpi says
# 4.1, MPICH 5 says 5.0).
std_abi_constants() {
    local table=$1 cc=$2 tmp rc=0
    tmp=$(mktemp -d) || return 1
    python3 - "$table" "$tmp" <<'PY' || { rm -rf "$tmp"; return 1; }
import sys
table, tmp = sys.argv[1], sys.argv[2]
prog = ['#include <mpi.h>', '#include <stdio.h>', '#include <stdint.h>', 'int main(void) {']
want = []
for line in open(table):
    f = line.split("#", 1)[0].split()
    if not f or f[0] == "alias" or f[-2] in ("MPI_VERSION", "MPI_SUBVERSION"):
        continue
    name, val = f[-2], int(f[-1], 0)
    prog.append(f'    printf("%s %lld\\n", "{name}", (long long)(intptr_t)({name}));')
    want.append(f"{name} {val}")
prog += ['    return 0;', '}']
open(f"{tmp}/c.c", "w").write("\n".join(prog) + "\n")
open(f"{tmp}/want.txt", "w").write("\n".join(want) + "\n")
PY
    if "$cc" -w -o "$tmp/c" "$tmp/c.c" && "$tmp/c" >"$tmp/got.txt"; then
        if [ "$(wc -l <"$tmp/want.txt")" -lt 300 ]; then
            echo "std_abi_constants: too few constants" >&2
            rc=1
        else
            diff -u "$tmp/want.txt" "$tmp/got.txt" >&2 || rc=1
        fi
    else
        rc=1
    fi
    rm -rf "$tmp"
    return $rc
}
export -f std_abi_build std_abi_lib std_abi_constants

# Generated from the MPI Forum's API (tools/gen_abi.py; `make api-deps` installs its
# pympistandard into build/api-venv).
if "$BUILD/api-venv/bin/python" -c 'import pympistandard' 2>/dev/null; then
    run_case std_abi.generated_fresh 0 python3 "$STD_ABI_SRC/../tools/gen_abi.py" --check
else
    skip_case std_abi.generated_fresh "pympistandard missing (make api-deps needs the Python package registry)"
fi
run_case std_abi.library 0 bash -c 'std_abi_lib "$@"' _ "$LIB/libmpi_abi.so.1"
# Our header has the standard's values (as tools/abi_std.txt has them) ...
run_case std_abi.constants 0 bash -c 'std_abi_constants "$@"' _ \
    "$STD_ABI_SRC/../tools/abi_std.txt" "$BUILD/bin/mpicc_abi"

# shellcheck disable=SC2086
_std_abi_names=$(for e in $STD_ABI_PROGS; do echo "${e%%:*}"; done | sort -u)
# shellcheck disable=SC2086
run_case std_abi.build 0 bash -c 'std_abi_build "$@"' _ "$BUILD/bin/mpicc_abi" "$STD_ABI_OUT" \
    "$STD_ABI_SRC" $_std_abi_names

_std_abi_run() {
    local tag=$1 dir=$2 progs=$3 e p n
    shift 3
    for e in $progs; do
        p=${e%%:*} n=${e##*:}
        case "$p" in io_*) set -- "$LOGDIR/std_abi.$tag.$p.d" ;; *) set -- ;; esac
        [ $# -gt 0 ] && mkdir -p "$1"
        CASE_EXPECT="^ok $p " run_case "std_abi.$tag.$p.n$n" 0 \
            env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            $MPIEXEC -n "$n" "$dir/$p" "$@"
    done
}
_std_abi_run ours "$STD_ABI_OUT" "$STD_ABI_PROGS"

# Under Hydra too (Debian's MPICH 4.0.2 launcher: PMI-1 over its proxies).
if is_hydra "$HYDRA"; then
    for e in hello:3 coll_basic:4 rma_ops:3; do
        p=${e%%:*} n=${e##*:}
        CASE_EXPECT="^ok $p " run_case "std_abi.hydra.$p.n$n" 0 \
            env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
            "$HYDRA" -n "$n" "$STD_ABI_OUT/$p"
    done
fi

# The same programs compiled by MPICH 5.0.2's mpicc_abi (its header, its wrapper: the
# binaries name libmpi_abi.so.1 and a runpath to MPICH's venv), run on railmpi's library.
if [ -x "$STD_ABI_MPICH5/bin/mpicc_abi" ]; then
    # shellcheck disable=SC2046
    run_case std_abi.build_mpich5 0 bash -c 'std_abi_build "$@"' _ "$STD_ABI_MPICH5/bin/mpicc_abi" \
        "$STD_ABI_OUT/mpich5" "$STD_ABI_SRC" $(for e in $STD_ABI_MPICH5_PROGS; do echo "${e%%:*}"; done)
    # ... and so has MPICH 5.0.2's.
    run_case std_abi.constants_mpich5 0 bash -c 'std_abi_constants "$@"' _ \
        "$STD_ABI_SRC/../tools/abi_std.txt" "$STD_ABI_MPICH5/bin/mpicc_abi"
    _std_abi_run mpich5 "$STD_ABI_OUT/mpich5" "$STD_ABI_MPICH5_PROGS"
else
    skip_case std_abi.mpich5 "MPICH 5.0.2's mpicc_abi is not installed ($STD_ABI_MPICH5: make mpich5-deps)"
fi
