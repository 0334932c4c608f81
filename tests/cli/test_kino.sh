#!/bin/sh
# The kinodynamic planners on the command line (issue 18): rrt_control and sst plan for the
# Lexus on maps/wall40.yaml; each plan's controls are saved with --save-inputs and replayed by
# planbench simulate: at the plan's control_dt the states at the controls' ends equal the plan's
# path bit for bit and the distance driven is the plan's cost; replayed again ten times finer
# (dt 0.01) every state's footprint is re-checked against the map by tests/cli/car_check.py's
# own geometry; the replay ends within the goal radius. The same seed gives the same controls;
# an engine without a vehicle is refused.
# Usage: test_kino.sh PLANBENCH SOURCE_ROOT
. "$(dirname "$0")/lib.sh"

for planner in rrt_control sst; do
    expect 0 "$planner on the car" -- "$PB" "$planner" maps/wall40.yaml --robot robots/lexus_rx450h.xml \
        start 5,5,0 goal 35,5,0 --goal-radius 1 --seed 3 --time-limit 60 --max-iterations 20000 --stop first --json \
        --save-inputs "$T/$planner.csv"
    cp "$T/out" "$T/$planner.json"
    duration=$(python3 -c "import json; r = json.load(open('$T/$planner.json')); print(repr(sum(c['duration'] for c in r['controls'])))")
    dt=$(python3 -c "import json; print(repr(json.load(open('$T/$planner.json'))['control_dt']))")
    expect 0 "$planner replayed" -- "$PB" simulate robots/lexus_rx450h.xml --state 5,5,0 --inputs "$T/$planner.csv" \
        --dt "$dt" --duration "$duration" --json
    cp "$T/out" "$T/$planner.sim.json"
    python3 tests/cli/car_check.py drive "$T/$planner.json" "$T/$planner.sim.json" || fail "$planner: the replay check"
    expect 0 "$planner replayed finely" -- "$PB" simulate robots/lexus_rx450h.xml --state 5,5,0 \
        --inputs "$T/$planner.csv" --dt 0.01 --duration "$duration" --json
    cp "$T/out" "$T/$planner.fine.json"
    python3 tests/cli/car_check.py drive "$T/$planner.json" "$T/$planner.fine.json" || fail "$planner: the fine check"
done
expect 0 "rrt_control again" -- "$PB" rrt_control maps/wall40.yaml --robot robots/lexus_rx450h.xml start 5,5,0 \
    goal 35,5,0 --goal-radius 1 --seed 3 --time-limit 60 --json
python3 -c "import json,sys; sys.exit(json.load(open('$T/rrt_control.json'))['controls'] != json.load(open('$T/out'))['controls'])" ||
    fail "rrt_control is not repeatable"
bad "rrt_control on a pixel map" "vehicle model" -- rrt_control maps/room1.png
bad "sst on a pixel map" "vehicle model" -- sst maps/room1.png
finish
