#!/bin/sh
# Build and run the whole test suite; the last line says "N passed, N failed".
#   sh tools/test.sh               gcc build in build-test/
#   sh tools/test.sh --sanitize    clang with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/
set -u
cd "$(dirname "$0")/.."
dir=build-test
setup_args=""
if [ "${1:-}" = "--sanitize" ]; then
    dir=build-asan
    setup_args="-Db_sanitize=address,undefined -Db_lundef=false"
    export CC=clang CXX=clang++ # one ASan runtime: the C++ FCL module too (g++ would link GCC's libasan)
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
if [ ! -f "$dir/build.ninja" ]; then
    # shellcheck disable=SC2086
    meson setup "$dir" $setup_args >/dev/null || { echo "meson setup failed"; echo "0 passed, 1 failed"; exit 1; }
fi
ninja -C "$dir" || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }
meson test -C "$dir" --print-errorlogs --num-processes 2
status=$?
python3 - "$dir/meson-logs/testlog.json" <<'PY'
import json, os, sys
passed = failed = skipped = 0
if not os.path.exists(sys.argv[1]):
    print("no test log: the suite did not run")
    print("0 passed, 1 failed")
    sys.exit(0)
for line in open(sys.argv[1]):
    r = json.loads(line).get("result")
    if r in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif r == "SKIP":
        skipped += 1
    else:
        failed += 1
if skipped:
    print(f"({skipped} skipped: each says why in the log above)")
print(f"{passed} passed, {failed} failed")
PY
exit $status
