#!/bin/sh
# Make docs/screenshot.png, the README's picture of the visualiser, with the scripted mode:
# RRT on the office map, seed 3, saved at the end of the solve. Needs a build with SDL2 and,
# without a display, Xvfb (run under tests/viz/run_xvfb.sh). Then docs/manipulator.png, the
# --save-image picture of the bundled manipulator world (a build with FCL).
# Usage: sh docs/make_screenshot.sh [PLANBENCH]     (default: build/src/cli/planbench)
set -eu
cd "$(dirname "$0")/.."
PB=${1:-build/src/cli/planbench}
run=""
[ -n "${DISPLAY:-}" ] || run="sh tests/viz/run_xvfb.sh"
$run "$PB" rrt maps/room1.png --seed 3 --screenshot docs/screenshot.png -q
echo "wrote docs/screenshot.png"
"$PB" birrt worlds/pbarm6_divider.xml --seed 1 --save-image docs/manipulator.png -q
echo "wrote docs/manipulator.png"
