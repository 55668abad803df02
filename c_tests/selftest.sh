#!/usr/bin/env bash
# c_tests/selftest.sh — proves that `make test` cannot pass by accident: in a scratch copy of
# the repository (a git worktree of HEAD plus the working tree's changes, under /tmp), it
# injects one broken piece at a time and checks that `make test` exits non-zero:
#   1. a Rust test binary that aborts (prints no "test result: FAILED" line),
#   2. a Rust test that does not compile,
#   3. a C case whose program was never built (expected to fail: "nonzero"),
#   4. a C case whose program was never built (expected to pass),
#   5. a C case that fails plainly,
# and that the untouched copy passes the same restricted run. The C harness runs only the
# injected case file (CT_FILTER). Not run by CI (it rebuilds the crate: a few minutes); run
# it after changing the Makefile, harness.sh or lib.sh. Needs what `make test` needs.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WT=$(mktemp -d /tmp/railmpi-selftest.XXXXXX)
cleanup() {
    git -C "$ROOT" worktree remove --force "$WT" >/dev/null 2>&1 || rm -rf "$WT"
}
trap cleanup EXIT
git -C "$ROOT" worktree add -q --detach "$WT" HEAD || exit 1
# The working tree's uncommitted changes too, so what is tested is what is here.
git -C "$ROOT" diff HEAD | git -C "$WT" apply --allow-empty || exit 1
# Reuse the built dependencies (the crate itself rebuilds: its path differs).
[ -d "$ROOT/target" ] && cp -a "$ROOT/target" "$WT/target"
CASE=$WT/c_tests/cases/99_selftest.sh
RUST=$WT/src/ratelimit.rs
cp "$RUST" "$WT/ratelimit.rs.orig"

failures=0
# run NAME WANT: `make test` restricted to the injected case file; WANT pass|fail.
run() {
    local name=$1 want=$2 rc got
    echo "== $name: make test must $want"
    (cd "$WT" && timeout 1200 make test CT_FILTER=99_selftest) >"$WT/$name.log" 2>&1
    rc=$?
    got=pass
    [ $rc -ne 0 ] && got=fail
    tail -n 3 "$WT/$name.log" | sed 's/^/   | /'
    if [ "$got" = "$want" ]; then
        echo "ok $name (make test exit $rc)"
    else
        echo "WRONG $name: make test exit $rc, wanted $want (log: kept in $WT/$name.log)"
        failures=$((failures + 1))
    fi
}
restore() {
    cp "$WT/ratelimit.rs.orig" "$RUST"
    printf '%s\n' 'run_case selftest.hello 0 $MPIEXEC -n 2 "$CT/hello"' >"$CASE"
}

restore
run untouched pass

restore
printf '%s\n' '#[test]' 'fn selftest_abort() { std::process::abort() }' >>"$RUST"
run rust_abort fail

restore
printf '%s\n' '#[test]' 'fn selftest_no_compile() { let x: u32 = "no"; }' >>"$RUST"
run rust_no_compile fail

restore
printf '%s\n' 'run_case selftest.unbuilt_nonzero nonzero $MPIEXEC -n 2 "$CT/never_built"' >"$CASE"
run c_unbuilt_nonzero fail

restore
printf '%s\n' 'run_case selftest.unbuilt 0 $MPIEXEC -n 2 "$CT/never_built"' >"$CASE"
run c_unbuilt fail

restore
printf '%s\n' 'run_case selftest.false 0 false' >"$CASE"
run c_false fail

echo "$failures wrong"
[ $failures -eq 0 ]
