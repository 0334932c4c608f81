# Shared by the command-line test scripts that source it (test_cli.sh, whose own bad() also
# checks that no output file is left, test_manipulator.sh, test_maps.sh, test_modules.sh,
# test_minimal_build.sh):
#   . "$(dirname "$0")/lib.sh"    with "$1" the planbench binary and "$2" the source root.
# Sets PB, ROOT and a scratch folder T (removed at exit), enters ROOT, and defines:
#   fail MESSAGE                    count a failure
#   expect STATUS WHAT -- cmd...    run cmd (stdout -> $T/out, stderr -> $T/err), check its status
#   bad WHAT PATTERN -- args...     planbench args: exit 2 and one stderr line matching PATTERN
#   two_runs_ini FILE               write a benchmark of two short RRT runs on room1 to FILE
#   finish                          print "N checks, M failed" and exit with the verdict
set -u
PB=$1
ROOT=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$ROOT" || exit 1
fails=0
checks=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
expect() {
    want=$1
    what=$2
    shift 3
    checks=$((checks + 1))
    "$@" >"$T/out" 2>"$T/err"
    got=$?
    [ "$got" -eq "$want" ] || fail "$what: exit $got, expected $want; stderr: $(head -c 300 "$T/err")"
}
bad() {
    what=$1
    pattern=$2
    shift 3
    expect 2 "$what" -- "$PB" "$@"
    [ "$(wc -l <"$T/err")" -eq 1 ] || fail "$what: expected one stderr line: $(cat "$T/err")"
    grep -qE -- "$pattern" "$T/err" || fail "$what: stderr does not match '$pattern': $(cat "$T/err")"
}
two_runs_ini() {
    cat >"$1" <<EOF
[benchmark]
name = two
runs = 2
max_iterations = 5000
[problem.room1]
map = $ROOT/maps/room1.png
[planner.rrt]
EOF
}
finish() {
    echo "$checks checks, $fails failed"
    [ "$fails" -eq 0 ]
    exit $?
}
