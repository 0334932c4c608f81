#!/bin/sh
# Scripted visualiser runs under Xvfb (started by run_xvfb.sh): screenshots checked pixel by
# pixel against the map and the path of the same run, --screenshot-at stopping the solve, the
# other engines with a picture, and the errors.
# Usage: test_screenshot.sh PLANBENCH CHECK_SCREENSHOT SOURCE_ROOT
set -u
PB=$1
CHECK=$2
ROOT=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$ROOT" || exit 1
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# room1 at the end of the solve, two seeds: the pixels follow each run's own path
for seed in 1 5; do
    rm -f "$T/shot.png" "$T/path.csv"
    "$PB" rrt maps/room1.png --seed $seed --screenshot "$T/shot.png" --save-path "$T/path.csv" -q 2>"$T/err"
    rc=$?
    [ $rc -eq 0 ] || fail "room1 seed $seed: exit $rc: $(cat "$T/err")"
    "$CHECK" "$T/shot.png" "$T/path.csv" maps/room1.png 30.5,30.5 460.5,365.5 || fail "room1 seed $seed: pixels"
done

# explicit start and goal: the markers move with them
"$PB" rrt maps/room1.png start 60.5,250.5 goal 420.5,160.5 --screenshot "$T/q.png" --save-path "$T/q.csv" -q ||
    fail "room1 with a query: exit $?"
"$CHECK" "$T/q.png" "$T/q.csv" maps/room1.png 60.5,250.5 420.5,160.5 || fail "room1 with a query: pixels"

# watching changes nothing: the same seed gives the same path with and without the window
"$PB" rrt maps/room1.png --seed 4 --save-path "$T/plain.csv" -q || fail "plain run: exit $?"
"$PB" rrt maps/room1.png --seed 4 --save-path "$T/shown.csv" --screenshot "$T/s4.png" -q || fail "shown run: exit $?"
cmp -s "$T/plain.csv" "$T/shown.csv" || fail "--display changed the path of seed 4"

# --screenshot-at stops the solve at that iteration, and the picture is written: an iteration
# budget (outcome no_solution, not timeout), and a run that did what it was asked (exit 0)
"$PB" rrt maps/maze.png --screenshot "$T/mid.png" --screenshot-at 150 --json >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || fail "--screenshot-at: exit $rc, expected 0 (the picture was written): $(cat "$T/err")"
grep -q '"outcome": "no_solution"' "$T/out" || fail "--screenshot-at: $(grep -o '"outcome": "[a-z_]*"' "$T/out")"
[ -s "$T/mid.png" ] || fail "--screenshot-at wrote no picture"
grep -q '"iterations": 150,' "$T/out" || fail "--screenshot-at 150: $(grep -o '"iterations": [0-9]*' "$T/out")"

# the 4D arm and a 2D black box have pictures too
"$PB" rrt maps/4d.png --engine stickarm4d --max-iterations 4000 --screenshot "$T/arm.png" -q 2>"$T/err"
rc=$?
[ $rc -le 1 ] && [ -s "$T/arm.png" ] || fail "4D arm: exit $rc: $(cat "$T/err")"
"$PB" rrt --engine blackbox --bounds -5:5,-5:5 --expr 'x0*x0 + x1*x1 > 4' start -4,-4 goal 4,4 \
    --screenshot "$T/bb.png" -q 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ -s "$T/bb.png" ] || fail "black box: exit $rc: $(cat "$T/err")"

# a manipulator world (built with FCL): front, side and top views in the window (issue 22)
"$PB" birrt worlds/pbarm6_divider.xml --seed 2 --screenshot "$T/manip.png" -q 2>"$T/err"
rc=$?
if [ $rc -le 1 ]; then
    "$CHECK" --size "$T/manip.png" >"$T/size" || fail "manipulator window: no picture"
    read -r w h <"$T/size"
    [ "$w" -ge $((2 * h)) ] || fail "manipulator window: ${w}x${h}, not three views side by side"
    # the robot at the start (green outlines) and the goal (blue) in each of the three views
    for colour in 30,170,60 30,60,220; do
        "$CHECK" --thirds $colour "$T/manip.png" >"$T/thirds" || fail "manipulator window: cannot read it"
        read -r a b c <"$T/thirds"
        [ "$a" -ge 30 ] && [ "$b" -ge 30 ] && [ "$c" -ge 30 ] ||
            fail "manipulator window: $a, $b and $c pixels of $colour in the three views"
    done
elif ! grep -q "FCL" "$T/err"; then
    fail "manipulator world: exit $rc: $(cat "$T/err")"
fi
# ... whose start and goal a click cannot place: view says how to plan it instead
"$PB" view worlds/pbarm6_divider.xml 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -qE -- "--display|FCL" "$T/err" || fail "view on a manipulator world: exit $rc: $(cat "$T/err")"

# errors: --screenshot-at alone, an unwritable screenshot
"$PB" rrt maps/room1.png --screenshot-at 10 >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "screenshot" "$T/err" || fail "--screenshot-at without --screenshot: $(cat "$T/err")"
"$PB" rrt maps/room1.png --screenshot /nonexistent/dir/x.png -q 2>"$T/err"
[ $? -eq 2 ] && grep -q "nonexistent" "$T/err" || fail "unwritable screenshot: $(cat "$T/err")"

# SDL left to choose its driver, without XDG_RUNTIME_DIR (no Wayland session): no word from
# libwayland ("XDG_RUNTIME_DIR is invalid"), and a display that cannot be opened is an error, not
# a silent fall back to an off-screen window (issue 22)
env -u SDL_VIDEODRIVER -u XDG_RUNTIME_DIR -u WAYLAND_DISPLAY "$PB" rrt maps/room1.png --screenshot "$T/x.png" -q \
    2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/err" ] || fail "display run without XDG_RUNTIME_DIR: exit $rc: $(cat "$T/err")"
no_display=":$(($$ % 5000 + 3000))"
while [ -e "/tmp/.X11-unix/X${no_display#:}" ]; do no_display=":$((${no_display#:} + 1))"; done
env -u SDL_VIDEODRIVER -u XDG_RUNTIME_DIR -u WAYLAND_DISPLAY DISPLAY="$no_display" \
    "$PB" rrt maps/room1.png --screenshot "$T/y.png" -q 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q "cannot open a display" "$T/err" && ! grep -q XDG_RUNTIME_DIR "$T/err" && [ ! -e "$T/y.png" ] ||
    fail "unreachable display $no_display: exit $rc: $(cat "$T/err")"

# --screenshot-dir (the s key's folder) is checked before any window opens, in plan and view
"$PB" rrt maps/room1.png --screenshot-dir "$T/none" -q 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--screenshot-dir $T/none: no such folder" "$T/err" || fail "missing --screenshot-dir: $(cat "$T/err")"
"$PB" view maps/room1.png --screenshot-dir maps/room1.png 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--screenshot-dir maps/room1.png: not a folder" "$T/err" || fail "view --screenshot-dir FILE: $(cat "$T/err")"

if [ $fails -eq 0 ]; then
    echo "viz screenshots: all checks passed"
    exit 0
fi
echo "viz screenshots: $fails failed"
exit 1
