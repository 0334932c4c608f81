#!/bin/sh
# Optional parts are loaded when first used (issue 21, docs/architecture.md "Modules loaded on
# first use"): a 2-D solve opens none of SDL2, libwebsockets, FCL, assimp, OpenBLAS or cairo; a
# manipulator world opens the FCL module, a served world the simulation module and --plot the
# plots module; a planbench without its modules says which one is missing for --display, view,
# serve and --plot (before the first run), and still plans.
# Arguments: the planbench binary, the source root.
. "$(dirname "$0")/lib.sh"
ok() { checks=$((checks + 1)); echo "ok: $*"; }
opened() { grep -E 'calling init: .*/[^/]*('"$1"')' "$2" >/dev/null; }

LD_DEBUG=files "$PB" rrt "$ROOT/maps/room1.png" -q 2>"$T/plain" >/dev/null || fail "2-D solve: exit $?"
for lib in libSDL2 libwebsockets libfcl planbench-fcl libassimp libopenblas libssl libcairo planbench-plots; do
    if opened "$lib" "$T/plain"; then fail "a 2-D solve loaded $lib"; else ok "a 2-D solve does not load $lib"; fi
done
grep -q 'calling init: .*libplanbench' "$T/plain" && ok "LD_DEBUG sees the libraries it loads" ||
    fail "LD_DEBUG=files shows no library init: the checks above prove nothing"

if [ -f "$(dirname "$PB")/../engines/manipulator/planbench-fcl.so" ]; then # a build with the manipulator
    LD_DEBUG=files "$PB" rrt "$ROOT/worlds/pbarm6_divider.xml" -q --max-iterations 200 --stop budget 2>"$T/arm" >/dev/null
    opened 'planbench-fcl' "$T/arm" && opened 'libfcl' "$T/arm" && ok "a manipulator world loads planbench-fcl.so and FCL" ||
        fail "a manipulator world did not load planbench-fcl.so"
fi

# --plot loads the figures' module (when the build has cairo: the library lies beside it);
# fontconfig keeps its caches until exit, which LeakSanitizer would call leaks
export LSAN_OPTIONS="suppressions=$ROOT/tests/cli/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
two_runs_ini "$T/two.ini"
if [ -f "$(dirname "$PB")/../../planbench-plots.so" ]; then
    LD_DEBUG=files "$PB" bench "$T/two.ini" --plot "$T/plots" 2>"$T/bench" >/dev/null || fail "bench --plot: exit $?"
    opened 'planbench-plots' "$T/bench" && opened 'libcairo' "$T/bench" && [ -s "$T/plots/room1-time.svg" ] &&
        ok "--plot loads planbench-plots.so and cairo, and draws" || fail "--plot did not load planbench-plots.so"
fi

# a planbench without its modules: the executable alone beside the library (the build tree's
# layout, $ORIGIN/../.. to libplanbench), no module beside it
mkdir -p "$T/b/src/cli"
cp "$PB" "$T/b/src/cli/planbench"
for f in "$(dirname "$PB")"/../../libplanbench.so*; do ln -s "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$T/b/"; done
installed=$(ls /usr/local/lib/*/planbench/planbench-viz.so /usr/lib/*/planbench/planbench-viz.so 2>/dev/null)
if [ -n "$installed" ]; then
    echo "note: modules are installed system-wide ($installed): the missing-module checks are left out"
else
    B="$T/b/src/cli/planbench"
    # the copy loads the library beside it, not the one meson test points LD_LIBRARY_PATH at
    LD_LIBRARY_PATH="$T/b"
    export LD_LIBRARY_PATH
    "$B" rrt "$ROOT/maps/room1.png" -q >/dev/null 2>"$T/err" && ok "without modules a 2-D solve works" ||
        fail "without modules a 2-D solve failed: $(cat "$T/err")"
    timeout 20 "$B" serve --port 0 >/dev/null 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q 'planbench-sim.so' "$T/err" && ok "serve without its module names planbench-sim.so" ||
        fail "serve without its module: exit $rc, $(cat "$T/err")"
    "$B" rrt "$ROOT/maps/room1.png" --display >/dev/null 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q 'planbench-viz.so' "$T/err" && ok "--display without its module names planbench-viz.so" ||
        fail "--display without its module: exit $rc, $(cat "$T/err")"
    timeout 20 "$B" view "$ROOT/maps/room1.png" >/dev/null 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q 'planbench-viz.so' "$T/err" && ok "view without its module names planbench-viz.so" ||
        fail "view without its module: exit $rc, $(cat "$T/err")"
    "$B" bench "$T/two.ini" --plot "$T/noplots" >"$T/out" 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q 'planbench-plots.so' "$T/err" && [ ! -s "$T/out" ] && [ ! -e "$T/noplots" ] &&
        ok "--plot without its module names planbench-plots.so before the first run" ||
        fail "--plot without its module: exit $rc, $(cat "$T/err")"
    PLANBENCH_MODULE_DIR=$(dirname "$PB") timeout 20 "$B" serve --port 99999 >/dev/null 2>"$T/err"
    grep -q 'planbench-sim.so' "$T/err" && fail "PLANBENCH_MODULE_DIR was not used: $(cat "$T/err")" ||
        ok "PLANBENCH_MODULE_DIR points the loader at the modules"
fi
finish
