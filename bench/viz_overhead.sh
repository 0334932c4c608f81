#!/bin/sh
# How much slower planning is with --display (under Xvfb, scripted with --screenshot so it
# exits by itself) than without: RRT from each map's default start to its goal, the same seeds
# both ways (the visualiser draws no random numbers, so both runs do the same iterations), in
# iterations per second of the solve's own time (time_s from --json: the window's setup and
# the final screenshot are outside it).
# Usage: sh bench/viz_overhead.sh [PLANBENCH] [SEEDS]
set -eu
cd "$(dirname "$0")/.."
PB=${1:-build/src/cli/planbench}
SEEDS=${2:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  nproc: $(nproc)  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "| map | mode | seeds | iterations | solve time (s) | iterations/s | slowdown |"
echo "|---|---|---|---|---|---|---|"
for map in ${MAPS:-room1 maze}; do
    for mode in plain display; do
        : >"$tmp/$map.$mode"
        seed=1
        while [ "$seed" -le "$SEEDS" ]; do
            extra=""
            [ "$mode" = display ] && extra="--screenshot $tmp/shot.png"
            # shellcheck disable=SC2086
            if [ "$mode" = display ]; then
                sh tests/viz/run_xvfb.sh "$PB" rrt "maps/$map.png" --seed "$seed" --json $extra >>"$tmp/$map.$mode" || true
            else
                "$PB" rrt "maps/$map.png" --seed "$seed" --json >>"$tmp/$map.$mode" || true
            fi
            seed=$((seed + 1))
        done
    done
    python3 - "$tmp/$map.plain" "$tmp/$map.display" "$map" "$SEEDS" <<'PY'
import json, sys
rates = {}
for mode, path in (("plain", sys.argv[1]), ("display", sys.argv[2])):
    rows = [json.loads(l) for l in open(path) if l.startswith("{")]
    it = sum(r["iterations"] for r in rows)
    t = sum(r["time_s"] for r in rows)
    rates[mode] = it / t
    slow = "" if mode == "plain" else "%.2fx" % (rates["plain"] / rates["display"])
    print("| %s | %s | %d | %d | %.3f | %.0f | %s |" % (sys.argv[3], mode, len(rows), it, t, it / t, slow))
PY
done
