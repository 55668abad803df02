#!/usr/bin/env bash
# c_tests/build_tools.sh CHECK BUILD MPIEXEC — what build tools ask of railmpi
# (cases/12_build_tools.sh). Prints "ok build_tools.sh CHECK" when all is well.
#   pkgconfig   PKG_CONFIG_PATH=BUILD/lib/pkgconfig pkg-config gives railmpi under every
#               name it installs (mpi, mpich, mpi-c, mpi-cxx, mpi-fort), with its version;
#               hello.c built with `cc $(pkg-config --cflags --libs mpi)` runs under MPIEXEC
#   queries     every query of mpicc, mpicxx and mpif90 answers, exit 0, without running the
#               compiler (RAILMPI_CC/CXX/FC set to `false`)
#   meson       Meson's MPI dependency, step by step: `mpicc --showme:version` (exit 0, a
#               version x.y.z), `--showme:compile` and `--showme:link` filtered as Meson
#               filters them; hello.c built with cc and those flags runs under MPIEXEC
set -u
check=$1 build=$2 mpiexec=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/railmpi-build-tools.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$here/../Cargo.toml" | head -n 1)

run_hello() { # BINARY
    local out
    out=$(timeout 30 "$mpiexec" -n 2 "$1" 2>&1) || fail "hello failed: $out"
    echo "$out" | grep -q '^ok hello ' || fail "hello printed no ok line: $out"
    echo "$out" | grep -q 'railmpi' || fail "hello did not run on railmpi: $out"
}

case $check in
pkgconfig)
    export PKG_CONFIG_PATH=$build/lib/pkgconfig
    for n in mpi mpich mpi-c mpi-cxx mpi-fort; do
        flags=$(pkg-config --cflags --libs $n) || fail "pkg-config knows no $n"
        case " $flags " in *" -I$build/include "*) ;; *) fail "$n: no -I$build/include in: $flags" ;; esac
        case " $flags " in *" -L$build/lib "*" -lmpi "*) ;; *) fail "$n: not railmpi's library: $flags" ;; esac
        [ "$(pkg-config --modversion $n)" = "$version" ] || fail "$n: version is not $version"
    done
    # shellcheck disable=SC2046
    cc -O2 -o "$tmp/hello" "$here/src/hello.c" $(pkg-config --cflags --libs mpi) -pthread ||
        fail "building with pkg-config's flags"
    run_hello "$tmp/hello"
    ;;
queries)
    for w in mpicc mpicxx mpif90; do
        for q in -show -showme --showme -compile_info -compile-info -show-compile-info \
            -link_info -link-info -show-link-info --showme:compile -showme:compile \
            --showme:link --showme:version --showme:incdirs --showme:libdirs --showme:libs; do
            out=$(RAILMPI_CC=false RAILMPI_CXX=false RAILMPI_FC=false "$build/bin/$w" $q 2>&1) ||
                fail "$w $q: exit $? ($out)"
            case $q in
            *version) pat="railmpi $version" ;;
            *incdirs) pat="$build/include" ;;
            *libdirs) pat="$build/lib" ;;
            *libs) pat="mpi" ;;
            *link*) pat="-L$build/lib .*-lmpi" ;;
            *) pat="-I$build/include" ;;
            esac
            echo "$out" | grep -q -- "$pat" || fail "$w $q: no /$pat/ in: $out"
            case $q in
            --showme:compile | -showme:compile | --showme:link | -showme:link)
                case " $out " in *" false "*) fail "$w $q names the compiler: $out" ;; esac ;;
            esac
        done
    done
    ;;
meson)
    out=$("$build/bin/mpicc" --showme:version) || fail "--showme:version: exit $?"
    echo "$out" | grep -Eq '[0-9]+.[0-9]+.[0-9]+' || fail "no version in: $out"
    cflags= lflags= next=
    for f in $("$build/bin/mpicc" --showme:compile); do
        if [ -n "$next" ]; then cflags="$cflags $f"; next=; continue; fi
        case $f in -D* | -f* | -I* | -pthread | -W*) cflags="$cflags $f" ;; esac
        [ "$f" = -I ] && next=1
    done
    for f in $("$build/bin/mpicc" --showme:link); do
        case $f in -L* | -l* | -Xlinker* | -pthread | -W*) lflags="$lflags $f" ;; esac
    done
    # shellcheck disable=SC2086
    cc -O2 $cflags -c -o "$tmp/hello.o" "$here/src/hello.c" || fail "compiling with: $cflags"
    # shellcheck disable=SC2086
    cc -o "$tmp/hello" "$tmp/hello.o" $lflags || fail "linking with: $lflags"
    run_hello "$tmp/hello"
    ;;
*)
    echo "unknown check $check"
    exit 2
    ;;
esac
echo "ok build_tools.sh $check"
