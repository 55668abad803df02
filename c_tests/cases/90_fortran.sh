# 90_fortran: Fortran programs (c_tests/fortran/*.f in fixed form and *.f90 in free form,
# using `include 'mpif.h'` or `use mpi`). Sourced by harness.sh. The programs are built here:
# with railmpi's $BUILD/bin/mpif90 into $BUILD/f_tests, and with Debian MPICH's mpif90.mpich
# into $BUILD/f_tests_mpich. Every program exits 0, rank 0 printing "ok NAME".
#
#   fortran.generated_fresh      tools/gen_fortran.py --check: src/abi/fortran/generated.rs
#                                and include/mpif.h match include/mpi.h and the MPI Forum's
#                                API (skipped without pympistandard: make api-deps)
#   fortran.f08_generated_fresh  tools/gen_f08.py --check: include/mpi_f08.f90 and
#                                src/abi/fortran/f08_generated.rs match them too
#   fortran.f08_noncontig_fatal  c_tests/fortran/fatal/f08_noncontig: a noncontiguous section
#                                as an mpi_f08 nonblocking call's buffer ends the job
#                                (MPI_ERRORS_ARE_FATAL) with MPI_ERR_BUFFER's reason, naming
#                                the call
#   fortran.f08_calls[_mpich]    every generic procedure of include/mpi_f08.f90 called with
#                                arguments of the types its interface declares, positionally
#                                and by keyword (c_tests/tools/f08_calls.py), compiles with
#                                railmpi's mpi_f08 and with MPICH's (-std=f2018): the
#                                interfaces are MPI's
#   fortran.cmake_f08            CMake's find_package(MPI COMPONENTS Fortran), given
#                                $BUILD/bin/mpif90, reports MPI_Fortran_HAVE_F08_MODULE and
#                                builds c_tests/fortran/cmake (`use mpi_f08`), which runs
#   fortran.mpif_vs_mpich        every constant MPICH's mpif.h also has, has MPICH's value
#                                (MPI_VERSION/MPI_SUBVERSION aside), compiled by gfortran
#   fortran.symbols              every mpi_x_ in libmpi.so.12 has its pmpi_x_
#   fortran.build[_mpich].NAME   compiling and linking
#   fortran.NAME.nN              under $MPIEXEC -n N
#   fortran.swapin.HOW.NAME      the MPICH-built program on railmpi under Hydra, swapped in by
#                                LD_LIBRARY_PATH=$LIB ($LIB/libmpichfort.so.12 and
#                                libmpich.so.12 are links to libmpi.so.12) or LD_PRELOAD;
#                                not the f08_* programs: MPICH's mpi_f08 procedures are
#                                Fortran code in its libmpifort, which railmpi replaces, so
#                                those are only built with mpif90.mpich (their interfaces
#                                must accept the same programs). Run on MPICH (--mpich),
#                                f08_pt2pt and f08_coll fail: Debian 12's MPICH 4.0 mpi_f08
#                                returns a 0-based MPI_Waitany index and crashes on
#                                MPI_IN_PLACE in MPI_Reduce.
#   fortran.abi_generated_fresh  tools/gen_fortran_abi.py --check: the library over the standard
#                                ABI (modules/fortran_abi/src/generated.rs, include/abi/mpif.h)
#                                matches include/mpi_abi.h and the Forum's API
#   fortran.abi.build.NAME       the programs built with mpif90_abi (Fortran over the MPI-5
#                                standard ABI: mpif.h, `use mpi` and `use mpi_f08` of
#                                libmpifort_abi.so over libmpi_abi.so.1)
#   fortran.abi.NAME.nN          run on railmpi's libmpi_abi.so.1 under $MPIEXEC
#   fortran.abi.mpich5.NAME      the same binaries run on MPICH 5.0.2's libmpi_abi.so.1 under
#                                its mpiexec (LD_LIBRARY_PATH alone): the Fortran library uses
#                                the C ABI only (skipped without MPICH 5: make mpich5-deps;
#                                not f08_errors: MPICH 5.0.2 returns MPI_SUCCESS from a call
#                                whose error a user's handler took, from C as well)
# A program whose first lines say `! requires: SYMBOL...` is left out (SKIP) while railmpi's
# library lacks one of those Fortran symbols (functions other engineers are still adding).
# With --mpich (CT_IMPL=mpich) the programs are built with mpif90.mpich and run under
# $MPIEXEC (mpiexec.mpich), which validates the tests themselves.

F_CT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) # c_tests/
F_ROOT=$(cd "$F_CT_DIR/.." && pwd)
F_MPICH_FC=${MPICH_FC:-mpif90.mpich}
F_MPICH_INC=${MPICH_INC:-/usr/include/x86_64-linux-gnu/mpich}

# f_mpif_constants OUR_INC MPICH_INC: a program printing every PARAMETER both mpif.h files
# define, compiled against each; the outputs must be equal.
f_mpif_constants() {
    local ours=$1 mpich=$2 tmp rc=0
    tmp=$(mktemp -d) || return 1
    python3 - "$ours/mpif.h" "$mpich/mpif.h" >"$tmp/consts.f90" <<'EOF' || rc=1
import re, sys
def names(path):
    out = []
    for line in open(path):
        m = re.match(r"\s+PARAMETER\s*\((.*)\)\s*$", line, re.I)
        if m:
            for part in m.group(1).split(","):
                if "=" in part:
                    out.append(part.split("=")[0].strip().upper())
    return out
ours, theirs = names(sys.argv[1]), set(names(sys.argv[2]))
skip = {"MPI_VERSION", "MPI_SUBVERSION"}  # railmpi declares MPI 4.1, MPICH 4.0
common = [n for n in ours if n in theirs and n not in skip]
if len(common) < 250:
    sys.exit(f"only {len(common)} constants in common")
print("program consts\n  implicit none\n  include 'mpif.h'")
for n in common:
    print(f"  write(*, *) '{n}', {n}")
print("end program consts")
EOF
    if [ $rc = 0 ] &&
        gfortran -I"$ours" -o "$tmp/ours" "$tmp/consts.f90" &&
        gfortran -I"$mpich" -o "$tmp/mpich" "$tmp/consts.f90" &&
        "$tmp/ours" >"$tmp/ours.txt" && "$tmp/mpich" >"$tmp/mpich.txt"; then
        echo "$(wc -l <"$tmp/ours.txt") constants compared"
        diff -u "$tmp/mpich.txt" "$tmp/ours.txt" >&2 || rc=1
    else
        rc=1
    fi
    rm -rf "$tmp"
    return $rc
}

# f_f08_calls FC MPI_F08_F90 [--mpi40]: the calls of every mpi_f08 procedure (--mpi40: but
# MPI 4.1's), positional and by keyword,
# compile with FC, as standard Fortran 2018 (no GNU extension in the interfaces).
f_f08_calls() {
    local fc=$1 src=$2 tmp rc=0 how
    shift 2
    tmp=$(mktemp -d) || return 1
    for how in positional --keywords; do
        python3 "$F_CT_DIR/tools/f08_calls.py" "$src" $how "$@" >"$tmp/calls.f90" || rc=1
        echo "$how: $(grep -c '^ *\(call\|r[0-9]* =\) ' "$tmp/calls.f90") calls"
        (cd "$tmp" && "$fc" -std=f2018 -fsyntax-only calls.f90) || rc=1
    done
    rm -rf "$tmp"
    return $rc
}

# f_cmake_f08 BUILD MPIEXEC: FindMPI with our mpif90 finds mpi_f08; the program it builds runs.
f_cmake_f08() {
    local build=$1 mpiexec=$2 tmp rc=0 out
    tmp=$(mktemp -d) || return 1
    if cmake -S "$F_CT_DIR/fortran/cmake" -B "$tmp" -DMPI_Fortran_COMPILER="$build/bin/mpif90" \
        >"$tmp/configure.log" 2>&1; then
        grep 'f08check:' "$tmp/configure.log"
        if cmake --build "$tmp" >"$tmp/build.log" 2>&1; then
            out=$(timeout 30 "$mpiexec" -n 3 "$tmp/f08hello" 2>&1) || rc=1
            echo "$out"
            [ "$out" = "ok f08hello 6" ] || rc=1
        else
            cat "$tmp/build.log" >&2
            rc=1
        fi
    else
        cat "$tmp/configure.log" >&2
        rc=1
    fi
    rm -rf "$tmp"
    return $rc
}

# f_symbols LIBMPI: every exported mpi_x_ has a pmpi_x_, and the main calls are there.
f_symbols() {
    local syms missing
    syms=$(nm -D --defined-only "$1" | awk '{ print $3 }') || return 1
    missing=$(awk '
        { have[$1] = 1 }
        END {
            for (s in have) if (s ~ /^mpi_.*_$/ && !(("p" s) in have)) print "p" s
            split("mpi_init_ mpi_finalize_ mpi_send_ mpi_recv_ mpi_wtime_ mpipriv1_ mpipriv2_ mpiprivc_ mpifcmb5_ mpifcmb9_", want, " ")
            for (i in want) if (!(want[i] in have)) print want[i]
        }' <<<"$syms")
    echo "$(grep -c '^mpi_.*_$' <<<"$syms") mpi_x_ symbols"
    if [ -n "$missing" ]; then
        echo "f_symbols: missing:" $missing >&2
        return 1
    fi
}

export -f f_mpif_constants f_symbols f_cmake_f08 f_f08_calls
export F_CT_DIR

# Names of the programs, and what each requires.
f_progs() {
    local src
    for src in "$F_CT_DIR"/fortran/*.f "$F_CT_DIR"/fortran/*.f90; do
        [ -e "$src" ] && printf '%s\n' "$src"
    done
}
f_requires() {
    sed -n 's/^[!cC*] *requires: *//p' "$1" | tr '\n' ' '
}

if [ "$CT_IMPL" = railmpi ]; then
    # The generators read the MPI Forum's API (`make api-deps` installs pympistandard into
    # build/api-venv, as for tools/gen_c.py).
    if "$F_ROOT/build/api-venv/bin/python" -c 'import pympistandard' 2>/dev/null; then
        run_case fortran.generated_fresh 0 python3 "$F_ROOT/tools/gen_fortran.py" --check
        run_case fortran.f08_generated_fresh 0 python3 "$F_ROOT/tools/gen_f08.py" --check
        run_case fortran.abi_generated_fresh 0 python3 "$F_ROOT/tools/gen_fortran_abi.py" --check
    else
        for c in fortran.generated_fresh fortran.f08_generated_fresh fortran.abi_generated_fresh; do
            skip_case $c "pympistandard missing (make api-deps needs the Python package registry)"
        done
    fi
    if [ ! -x "$BUILD/bin/mpif90" ] || [ ! -e "$BUILD/include/mpi.mod" ] ||
        [ ! -e "$BUILD/include/mpi_f08.mod" ]; then
        # Not built by the Makefile yet: build the Fortran parts here (needs `make build`).
        run_case fortran.build_support 0 make --no-print-directory -C "$F_ROOT" -f fortran.mk \
            fortran-build BUILD="$BUILD"
    fi
    run_case fortran.mpif_vs_mpich 0 \
        bash -c 'f_mpif_constants "$@"' _ "$BUILD/include" "$F_MPICH_INC"
    run_case fortran.symbols 0 bash -c 'f_symbols "$@"' _ "$LIB/libmpi.so.12"
    run_case fortran.f08_calls 0 \
        bash -c 'f_f08_calls "$@"' _ "$BUILD/bin/mpif90" "$F_ROOT/include/mpi_f08.f90"
    if command -v "$F_MPICH_FC" >/dev/null 2>&1; then
        run_case fortran.f08_calls_mpich 0 \
            bash -c 'f_f08_calls "$@"' _ "$F_MPICH_FC" "$F_ROOT/include/mpi_f08.f90" --mpi40
    else
        skip_case fortran.f08_calls_mpich "$F_MPICH_FC not found (Debian package libmpich-dev)"
    fi
    mkdir -p "$BUILD/f_tests"
    run_case fortran.build.f08_noncontig 0 "$BUILD/bin/mpif90" -o "$BUILD/f_tests/f08_noncontig" \
        "$F_CT_DIR/fortran/fatal/f08_noncontig.f90"
    CASE_EXPECT='fatal error in MPI_Ibcast: .*noncontiguous array section' \
        CASE_FORBID='MPI_Ibcast returned' \
        run_case fortran.f08_noncontig_fatal nonzero $MPIEXEC -n 2 "$BUILD/f_tests/f08_noncontig"
    if command -v cmake >/dev/null 2>&1; then
        CASE_TIMEOUT=120 run_case fortran.cmake_f08 0 \
            bash -c 'f_cmake_f08 "$@"' _ "$BUILD" "$MPIEXEC"
    else
        skip_case fortran.cmake_f08 "no cmake (Debian package cmake; make deps installs it)"
    fi
    F_FC=$BUILD/bin/mpif90
    F_OUT=$BUILD/f_tests
    F_SYMS=$(nm -D --defined-only "$LIB/libmpi.so.12" 2>/dev/null | awk '{ print $3 }')
else
    skip_case fortran.generated_fresh "checks railmpi's sources"
    skip_case fortran.f08_generated_fresh "checks railmpi's sources"
    skip_case fortran.abi_generated_fresh "checks railmpi's sources"
    F_FC=$F_MPICH_FC
    F_OUT=$BUILD/f_tests
    F_SYMS=
fi
F_OUT_MPICH=$BUILD/f_tests_mpich
mkdir -p "$F_OUT"

# Build: the programs built with railmpi's wrapper (or, with --mpich, MPICH's).
F_RUN=()
F_SWAP=()
while IFS= read -r src; do
    name=$(basename "$src")
    name=${name%.*}
    missing=
    if [ "$CT_IMPL" = railmpi ]; then
        for sym in $(f_requires "$src"); do
            grep -qxF "$sym" <<<"$F_SYMS" || missing="$missing $sym"
        done
    fi
    if [ -n "$missing" ]; then
        skip_case "fortran.$name" "libmpi.so.12 lacks$missing"
        continue
    fi
    # -J: module files go beside the programs, not into the directory make runs in.
    run_case "fortran.build.$name" 0 "$F_FC" -O2 -g -J "$F_OUT" -o "$F_OUT/$name" "$src"
    [ -x "$F_OUT/$name" ] && F_RUN+=("$name")
    if [ "$CT_IMPL" = railmpi ] && command -v "$F_MPICH_FC" >/dev/null 2>&1; then
        mkdir -p "$F_OUT_MPICH"
        run_case "fortran.build_mpich.$name" 0 "$F_MPICH_FC" -O2 -g -J "$F_OUT_MPICH" -o "$F_OUT_MPICH/$name" "$src"
        # Not f_sizeof either: MPICH's `use mpi` MPI_SIZEOF is module code in its libmpifort.
        case $name in f08_* | f_sizeof) ;; *) [ -x "$F_OUT_MPICH/$name" ] && F_SWAP+=("$name") ;; esac
    fi
done < <(f_progs)

for name in "${F_RUN[@]}"; do
    for n in 1 2 3 4; do
        CASE_EXPECT="^ok $name( |\$)" run_case "fortran.$name.n$n" 0 $MPIEXEC -n "$n" "$F_OUT/$name"
    done
done

# Swapped in: MPICH-built programs on railmpi's library, launched by Hydra.
if [ "$CT_IMPL" = railmpi ]; then
    if [ ${#F_SWAP[@]} -eq 0 ]; then
        skip_case fortran.swapin "$F_MPICH_FC not found (Debian package libmpich-dev)"
    elif ! command -v "${HYDRA%% *}" >/dev/null 2>&1; then
        skip_case fortran.swapin "$HYDRA not found (Debian package mpich)"
    else
        for how in libpath preload; do
            case $how in
            libpath) f_swap=(env "LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}") ;;
            preload) f_swap=(env "LD_PRELOAD=$LIB/libmpi.so.12") ;;
            esac
            for name in "${F_SWAP[@]}"; do
                # The ok line names the library: it must be railmpi.
                want="^ok $name( |\$)"
                [ "$name" = f_hello ] && want="^ok $name \\[railmpi"
                CASE_EXPECT=$want run_case "fortran.swapin.$how.$name" 0 \
                    "${f_swap[@]}" $HYDRA -n 2 "$F_OUT_MPICH/$name"
            done
        done
        # The loader must resolve MPICH's Fortran library to railmpi's.
        run_case fortran.swapin.libpath.ldd 0 bash -c '
            line=$(LD_LIBRARY_PATH="$1" ldd "$2" | grep "libmpichfort.so.12")
            echo "$line"
            case "$line" in *"=> $1/libmpichfort.so.12 "*) exit 0 ;; *) exit 1 ;; esac' \
            _ "$LIB" "$F_OUT_MPICH/f_hello"
    fi
fi

# Fortran over the MPI-5 standard ABI: the mpif.h and `use mpi` programs built with
# mpif90_abi, run on railmpi's libmpi_abi.so.1 and on MPICH 5's.
F_MPICH5=${BENCH_MPICH5_VENV:-/var/cache/railmpi-bench/mpich5}
if [ "$CT_IMPL" != railmpi ]; then
    skip_case fortran.abi "railmpi's Fortran library over the standard ABI"
elif [ ! -x "$BUILD/bin/mpif90_abi" ] || [ ! -e "$LIB/libmpifort_abi.so" ]; then
    skip_case fortran.abi "mpif90_abi not built (make build)"
else
    F_ABI_OUT=$BUILD/f_tests_abi
    mkdir -p "$F_ABI_OUT"
    F_ABI_SYMS=$(nm -D --defined-only "$LIB/libmpifort_abi.so" 2>/dev/null | awk '{ print $3 }')
    F_ABI_RUN=()
    while IFS= read -r src; do
        name=$(basename "$src")
        name=${name%.*}
        missing=
        for sym in $(f_requires "$src"); do
            grep -qxF "$sym" <<<"$F_ABI_SYMS" || missing="$missing $sym"
        done
        if [ -n "$missing" ]; then
            skip_case "fortran.abi.$name" "the standard ABI lacks$missing"
            continue
        fi
        run_case "fortran.abi.build.$name" 0 "$BUILD/bin/mpif90_abi" -O2 -g -J "$F_ABI_OUT" \
            -o "$F_ABI_OUT/$name" "$src"
        [ -x "$F_ABI_OUT/$name" ] && F_ABI_RUN+=("$name")
    done < <(f_progs)
    for name in "${F_ABI_RUN[@]}"; do
        want="^ok $name( |\$)"
        [ "$name" = f_hello ] && want="^ok $name \\[railmpi"
        for n in 2 3; do
            CASE_EXPECT=$want run_case "fortran.abi.$name.n$n" 0 $MPIEXEC -n "$n" "$F_ABI_OUT/$name"
        done
    done
    if [ -x "$F_MPICH5/bin/mpiexec" ] && [ -e "$F_MPICH5/lib/libmpi_abi.so.1" ]; then
        for name in "${F_ABI_RUN[@]}"; do
            if [ "$name" = f08_errors ]; then
                skip_case fortran.abi.mpich5.f08_errors \
                    "MPICH 5.0.2 returns MPI_SUCCESS after a user's error handler ran"
                continue
            fi
            want="^ok $name( |\$)"
            [ "$name" = f_hello ] && want="^ok $name \\[MPICH"
            CASE_EXPECT=$want CASE_TIMEOUT=120 run_case "fortran.abi.mpich5.$name" 0 \
                env "LD_LIBRARY_PATH=$F_MPICH5/lib" "$F_MPICH5/bin/mpiexec" -n 2 "$F_ABI_OUT/$name"
        done
    else
        skip_case fortran.abi.mpich5 "MPICH 5.0.2 is not installed ($F_MPICH5: make mpich5-deps)"
    fi
fi
