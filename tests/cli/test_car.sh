#!/bin/sh
# The car engine on the command line (issue 18): plans on maps/wall40.yaml with the Lexus,
# each --json result re-checked independently in Python from the map's PGM and the vehicle
# file alone: every edge's curve word re-integrated (own arcs) must end on the next waypoint,
# the footprint rectangle covers only free cells, exactly (every cell its sides cross, by a grid
# traversal, and every cell whose centre lies inside) at each waypoint, and its sides cross only
# free cells at poses 2 cm apart along every curve (a 10 cm cell cannot slip past a side that moves
# less than 5 cm between two poses, so from a free waypoint on, free sides keep the inside free); the cost is the sum of the words' lengths, Dubins words never
# reverse; --save-image writes a picture; bad input gets one line and exit 2.
# Usage: test_car.sh PLANBENCH SOURCE_ROOT
. "$(dirname "$0")/lib.sh"

check_car() { # RESULT.json FAMILY
    python3 tests/cli/car_check.py curves "$1" "$2" || fail "car check of $1"
}

for planner in rrt birrt rrtstar informedrrt prm lazyprm bitstar rrdt hybrid_astar; do
    expect 0 "$planner on the car" -- "$PB" "$planner" maps/wall40.yaml --robot robots/lexus_rx450h.xml \
        start 5,5,0 goal 35,5,0 --goal-radius 1 --max-iterations 3000 --time-limit 120 --json
    cp "$T/out" "$T/$planner.json"
    check_car "$T/$planner.json" reeds_shepp
done
expect 0 "rrt with Dubins curves" -- "$PB" rrt maps/wall40.yaml --robot robots/lexus_rx450h.xml \
    --engine-option curve=dubins start 5,5,0 goal 35,5,0 --goal-radius 1 --max-iterations 3000 --time-limit 120 --json
cp "$T/out" "$T/dubins.json"
check_car "$T/dubins.json" dubins
# the same seed, the same path
expect 0 "rrt again" -- "$PB" rrt maps/wall40.yaml --robot robots/lexus_rx450h.xml start 5,5,0 goal 35,5,0 \
    --goal-radius 1 --max-iterations 3000 --time-limit 120 --json
python3 -c "import json,sys; sys.exit(json.load(open('$T/rrt.json'))['path'] != json.load(open('$T/out'))['path'])" ||
    fail "rrt on the car is not repeatable"
expect 0 "hybrid_astar again" -- "$PB" hybrid_astar maps/wall40.yaml --robot robots/lexus_rx450h.xml start 5,5,0 \
    goal 35,5,0 --goal-radius 1 --time-limit 120 --json
python3 -c "import json,sys; sys.exit(json.load(open('$T/hybrid_astar.json'))['path'] != json.load(open('$T/out'))['path'])" ||
    fail "hybrid_astar is not repeatable"
expect 0 "hybrid_astar with Dubins curves" -- "$PB" hybrid_astar maps/wall40.yaml --robot robots/lexus_rx450h.xml \
    --engine-option curve=dubins start 5,5,0 goal 35,5,0 --goal-radius 1 --time-limit 120 --json
cp "$T/out" "$T/ha_dubins.json"
check_car "$T/ha_dubins.json" dubins
expect 0 "--save-image" -- "$PB" birrt maps/wall40.yaml --robot robots/lexus_rx450h.xml start 5,5,0 \
    goal 35,5,0 --goal-radius 1 --max-iterations 3000 --time-limit 120 --save-image "$T/car.png"
[ -s "$T/car.png" ] || fail "--save-image wrote nothing"

bad "a pose in the wall" "start.*(obstacle|infeasible|collision)" -- rrt maps/wall40.yaml --robot robots/lexus_rx450h.xml \
    start 20,5,0 goal 35,5,0
bad "a pixel map" "metres" -- rrt maps/room1.png --robot robots/lexus_rx450h.xml
bad "a missing vehicle" "nowhere.xml" -- rrt maps/wall40.yaml --robot nowhere.xml
bad "hybrid_astar on a pixel map" "car-like" -- hybrid_astar maps/room1.png
bad "an unknown curve" "curve" -- rrt maps/wall40.yaml --robot robots/lexus_rx450h.xml --engine-option curve=clothoid
bad "prm with one-way edges" "one-way" -- prm maps/wall40.yaml --robot robots/lexus_rx450h.xml \
    --engine-option curve=dubins start 5,5,0 goal 35,5,0
finish
