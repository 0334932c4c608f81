#!/bin/sh
# planbench simulate (issue 18): a straight run checked against its closed form from the JSON,
# the CSV output, and every kind of bad input (one line naming the field, exit 2).
# usage: test_simulate.sh PLANBENCH SOURCE_ROOT
. "$(dirname "$0")/lib.sh"

LEXUS=robots/lexus_rx450h.xml
# 2 m/s^2 for 3 s from 1 m/s, heading 0.5: x = 1*3 + 3^2 = 12 m along the heading, v = 7
printf 't,acceleration,steer_angle,gear,signal\n0,2,0,DRIVE,NONE\n' >"$T/straight.csv"
expect 0 "a straight run" -- "$PB" simulate "$LEXUS" --state 1,2,0.5,1 --inputs "$T/straight.csv" --duration 3 --json
python3 - "$T/out" <<'PY' || fail "the straight run's closed form"
import json, math, sys
d = json.load(open(sys.argv[1]))
last = d["trajectory"][-1]
assert len(d["trajectory"]) == 301, len(d["trajectory"])
assert abs(last["x"] - (1 + 12 * math.cos(0.5))) < 1e-9 and abs(last["y"] - (2 + 12 * math.sin(0.5))) < 1e-9, last
assert abs(last["v"] - 7) < 1e-9 and last["gear"] == "DRIVE" and not last["sleeping"], last
PY
# braking in REVERSE stops exactly and then sleeps; CSV rows for every step
printf 't,acceleration,steer_angle,gear,signal\n0,-2,0.2,REVERSE,HAZARD\n' >"$T/reverse.csv"
expect 0 "reverse braking, CSV" -- "$PB" simulate "$LEXUS" --state 0,0,0,-3 --inputs "$T/reverse.csv" --duration 3 --csv "$T/run.csv"
python3 - "$T/run.csv" <<'PY' || fail "the reverse run's CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 301 and all(float(r["v"]) <= 0 for r in rows), len(rows)
assert float(rows[-1]["v"]) == 0 and rows[-1]["sleeping"] == "1" and rows[-1]["signal"] == "HAZARD", rows[-1]
PY

# bad vehicle files: the field is named
vehicle() { printf '<vehicle name="v" model="%s"><footprint length="4" width="2" rear_overhang="%s"/><chassis wheelbase="%s"/><limits max_steer="%s"/></vehicle>\n' "$1" "$2" "$3" "$4" >"$T/v.xml"; }
vehicle kinematic 1 0 0.5
bad "zero wheelbase" "wheelbase" -- simulate "$T/v.xml"
vehicle kinematic 1 2.5 1.6
bad "steer of 90 degrees or more" "max_steer" -- simulate "$T/v.xml"
vehicle kinematic 5 2.5 0.5
bad "the rear axle outside the footprint" "rear_overhang" -- simulate "$T/v.xml"
vehicle kinematic 1 nan 0.5
bad "NaN" "wheelbase.*not a finite number" -- simulate "$T/v.xml"
vehicle warp 1 2.5 0.5
bad "an unknown model" "model=\"warp\"" -- simulate "$T/v.xml"
vehicle kinematic 1 2.5 0.5
bad "an unknown --model" "warp" -- simulate "$T/v.xml" --model warp
# the models from the command line: each drives; commonroad_ks reads steer rates
printf 't,acceleration,steer_angle,gear,signal\n0,2,0.2,DRIVE,NONE\n' >"$T/drive.csv"
for model in kinematic delay dynamic; do
    expect 0 "--model $model" -- "$PB" simulate robots/lexus_rx450h.xml --model "$model" --inputs "$T/drive.csv" \
        --duration 3 --json
    python3 -c "
import json, sys; r = json.load(open('$T/out')); e = r['trajectory'][-1]
sys.exit(not (e['v'] > 4 and e['yaw'] > 0.3 and r['trajectory'][0]['x'] == 0))" || fail "--model $model did not drive"
done
printf 't,steer_rate,acceleration\n0,0.4,2\n1,0,0\n' >"$T/ks.csv"
expect 0 "commonroad_ks" -- "$PB" simulate robots/commonroad_vehicle2.xml --inputs "$T/ks.csv" --duration 2 --json
python3 -c "
import json, sys; r = json.load(open('$T/out')); e = r['trajectory'][-1]
sys.exit(not (abs(e['steer'] - 0.4) < 1e-9 and abs(e['v'] - 2.0) < 1e-9))" || fail "commonroad_ks: steer 0.4 rad and 2 m/s after 1 s"
printf 't,steer_rate,acceleration\n0,x,2\n' >"$T/ks_bad.csv"
bad "a bad steer rate column" "steer_rate" -- simulate robots/commonroad_vehicle2.xml --inputs "$T/ks_bad.csv"
# --map: into the wall of wall40, one collision event, stopped at the last free pose
printf 't,acceleration,steer_angle,gear,signal\n0,3,0,DRIVE,NONE\n' >"$T/wall.csv"
expect 0 "--map" -- "$PB" simulate robots/lexus_rx450h.xml --state 5,5,0 --map maps/wall40.yaml --inputs "$T/wall.csv" \
    --duration 5 --json
python3 -c "
import json, sys; r = json.load(open('$T/out')); ev = r['events']; e = r['trajectory'][-1]
front = e['x'] + 4.89 - 1.1
sys.exit(not (len([x for x in ev if x['event'] == 'collision']) == 1 and 17.9 < front <= 18.0 and e['v'] == 0))" ||
    fail "--map: one collision, the bumper stopped before the wall at x = 18 m"
bad "a pixel map for --map" "metres" -- simulate robots/lexus_rx450h.xml --map maps/room1.png
bad "a missing vehicle file" "no such file|No such file" -- simulate "$T/missing.xml"
# bad inputs files
printf 't,acceleration,steer_angle,gear,signal\n0,1,0,DRIVE,NONE\n0,1,0,DRIVE,NONE\n' >"$T/in.csv"
bad "time that does not increase" "does not increase" -- simulate "$LEXUS" --inputs "$T/in.csv"
printf 't,acceleration,steer_angle,gear,signal\n0,1,0,FAST,NONE\n' >"$T/in.csv"
bad "an unknown gear" "unknown gear 'FAST'" -- simulate "$LEXUS" --inputs "$T/in.csv"
printf 't,acceleration,steer_angle,gear,signal\n0,nan,0,DRIVE,NONE\n' >"$T/in.csv"
bad "NaN acceleration" "acceleration" -- simulate "$LEXUS" --inputs "$T/in.csv"
bad "a bad state" "--state" -- simulate "$LEXUS" --state 1,2
[ ! -e "$T/bad.csv" ] || fail "a CSV left behind"
finish
