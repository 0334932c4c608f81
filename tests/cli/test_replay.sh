#!/bin/sh
# Records and `planbench replay` (issue 22). A time budget alone is not repeatable, so a plan's
# --json and each benchmark journal line carry a "record" of every parameter the run used and
# where its budget ended it; replaying the record gives the same path. Checked here: a
# time-budgeted rrtstar on maps/forest.png and prm on maps/room1.png, and rrt, birrt, rrtstar,
# prm and lazyprm on room1 and forest, replay to the same path (waypoints compared here, not
# only the replay's own verdict); the record holds the resolved
# planner parameters; every ok line of a small benchmark's journal replays; a record whose path
# was altered is reported as not reproduced (exit 3); malformed records are refused with the
# bad key named (exit 2).
# Usage: test_replay.sh PLANBENCH SOURCE_ROOT
. "$(dirname "$0")/lib.sh"

same_path() { # RECORD.json REPLAY.json: the replay's path is the record's, waypoint for waypoint
    python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["path"], "the record has no path"
assert a["path"] == b["path"], "the paths differ"
assert b["replay"]["reproduced"] is True, b["replay"]
assert b["record"]["iterations"] == a["record"]["iterations"], (a["record"], b["record"])
PY
}

# ---- 1. time-budgeted plans replay to the same path ----
expect 0 "rrtstar with a time budget" -- "$PB" rrtstar maps/forest.png --seed 7 --time-limit 0.3 --json
cp "$T/out" "$T/rrtstar.json"
python3 - "$T/rrtstar.json" <<'PY' || fail "the record's contents"
import json, sys
r = json.load(open(sys.argv[1]))
rec = r["record"]
assert rec["format"] == "planbench-record/1"
assert rec["planner"] == "rrtstar" and rec["engine"] == "image2d" and rec["map"].endswith("forest.png")
assert rec["seed"] == 7 and rec["time_limit_s"] == 0.3 and rec["stop"] == "budget"
assert rec["iterations"] == r["iterations"] > 0 and rec["n_waypoints"] == len(r["path"])
assert rec["params"]["step_size"] > 0, "the default step is resolved"
assert set(rec["params"]) >= {"step_size", "goal_bias", "rewire_factor"}, rec["params"]
assert rec["goal_radius"] == r["goal_radius"] and rec["start"] == r["start"]
PY
expect 0 "rrtstar replayed" -- "$PB" replay "$T/rrtstar.json" --json
same_path "$T/rrtstar.json" "$T/out" || fail "rrtstar: the replay's path"
expect 0 "rrtstar replayed, summary" -- "$PB" replay "$T/rrtstar.json"
grep -q "replay      reproduced" "$T/out" || fail "rrtstar: the summary has no replay line: $(cat "$T/out")"

expect 0 "prm with a time budget" -- "$PB" prm maps/room1.png --seed 3 --time-limit 0.3 --stop budget --json
cp "$T/out" "$T/prm.json"
expect 0 "prm replayed" -- "$PB" replay "$T/prm.json" --json
same_path "$T/prm.json" "$T/out" || fail "prm: the replay's path"

# the other planners on both maps; Lazy PRM stops in the middle of an iteration (its repairs of
# a candidate path, and the time it keeps for its last search): the record's budget checks
# reproduce that too
for planner in rrt birrt rrtstar prm lazyprm; do
    for map in room1 forest; do
        expect 0 "$planner on $map, time budget" -- "$PB" "$planner" maps/$map.png --seed 5 --time-limit 0.2 --json
        cp "$T/out" "$T/run.json"
        expect 0 "$planner on $map replayed" -- "$PB" replay "$T/run.json" --json
        same_path "$T/run.json" "$T/out" || fail "$planner on $map: the replay's path"
    done
done

# a record whose path is not what the planner gives: not reproduced, and said so
sed 's/"n_waypoints": \([0-9]*\)/"n_waypoints": 1\1/' "$T/rrtstar.json" >"$T/altered.json"
expect 3 "an altered record" -- "$PB" replay "$T/altered.json" -q
grep -q "does not reproduce the record: .*waypoints" "$T/err" || fail "altered record: $(cat "$T/err")"

# ---- 2. a benchmark journal's lines ----
cat >"$T/small.ini" <<EOF
[benchmark]
name = small
runs = 2
time_limit = 0.2
seed = 5
[problem.forest]
map = $ROOT/maps/forest.png
[problem.ring]
engine = blackbox
option.bounds = -4:4,-4:4
option.expr = x0*x0 + x1*x1 > 2
start = -3,-3
goal = 3,3.5
[planner.rrtstar]
[planner.prm]
EOF
expect 0 "a small benchmark" -- "$PB" bench "$T/small.ini" -j 2 -q --out "$T/bench"
journal="$T/bench/runs.jsonl"
n=$(wc -l <"$journal" | tr -d ' ')
[ "$n" -eq 9 ] || fail "journal: $n lines, expected a header and 8 runs"
line=2
while [ "$line" -le "$n" ]; do
    expect 0 "journal line $line replayed" -- "$PB" replay "$journal" --line "$line" -q
    line=$((line + 1))
done
sed -n 3p "$journal" >"$T/one-line.jsonl"
expect 0 "a file of one journal line" -- "$PB" replay "$T/one-line.jsonl" --json
grep -q '"reproduced": true' "$T/out" || fail "one journal line: $(head -c 300 "$T/out")"

# ---- 3. malformed records, each named ----
bad "a journal without --line" "give --line N" -- replay "$journal"
bad "the journal's header" "key 'record' is missing|header" -- replay "$journal" --line 1
bad "a line past the end" "has only 9 lines" -- replay "$journal" --line 10
bad "no file" "cannot|No such" -- replay "$T/none.json"
printf 'not json\n' >"$T/garbage.json"
bad "not JSON" "not one JSON object" -- replay "$T/garbage.json"
bad "no record given" "no record given" -- replay
edit() { # KEY-EDIT PYTHON-STATEMENT: write $T/edited.json from the rrtstar record
    python3 - "$T/rrtstar.json" "$T/edited.json" "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rec = r["record"]
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
}
edit 'del rec["seed"]'
bad "no seed" "key 'seed' is missing" -- replay "$T/edited.json"
edit 'rec["goal_radius"] = "far"'
bad "a goal radius as text" "'goal_radius' must be" -- replay "$T/edited.json"
edit 'rec["params"]["warp"] = 2'
bad "an unknown parameter" "no parameter 'warp'" -- replay "$T/edited.json"
edit 'del rec["params"]["goal_bias"]'
bad "a missing parameter" "'goal_bias' .*missing" -- replay "$T/edited.json"
edit 'rec["iterations"] = -4'
bad "negative iterations" "'iterations' must be" -- replay "$T/edited.json"
edit 'rec["format"] = "planbench-record/99"'
bad "another format" "planbench-record/99" -- replay "$T/edited.json"
edit 'rec["path_hash"] = "xyz"'
bad "a bad path hash" "'path_hash' must be" -- replay "$T/edited.json"
edit 'rec["start"] = [1]'
bad "a start of the wrong dimension" "start" -- replay "$T/edited.json"
edit 'del r["record"]'
bad "no record at all" "key 'record' is missing" -- replay "$T/edited.json"
finish
