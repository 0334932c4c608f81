#!/bin/sh
# planbench scenario run (issue 19) on the bundled BACRE-family scenario: the AnalyzeScenario
# JSON re-checked in Python from the request alone (stamps at the trajectory rate from 0,
# vehicle_sim_time their span, the rear axle ending inside the goal circle, every sampled
# pose's footprint clear of every tree by the file's own geometry, quaternions of unit length),
# the exit statuses 0 / 1 / 2, a capture, and bad input (one line naming the field, exit 2,
# no capture left behind).
# Usage: test_scenario.sh PLANBENCH SOURCE_ROOT
. "$(dirname "$0")/lib.sh"

check_result() { # RESULT.json REQUEST.json
    python3 - "$1" "$2" <<'PY' || fail "the AnalyzeScenario check of $2"
import json, math, sys
result = json.load(open(sys.argv[1]))
req = json.load(open(sys.argv[2]))
assert result["worker_id"] == 0 and result["scenario_number"] == req["scenario_number"]
assert result["termination_reason"] == 0 and result["planbench"]["termination"] == "REASON_SUCCESS"
traj = result["vehicle_trajectory"]
stamps = [o["header"]["stamp"]["sec"] + o["header"]["stamp"]["nanosec"] * 1e-9 for o in traj]
assert stamps[0] == 0 and all(b > a for a, b in zip(stamps, stamps[1:]))
assert all(abs((b - a) - 0.1) < 1e-6 for a, b in zip(stamps[:-2], stamps[1:-1])), "10 Hz"
assert abs(result["vehicle_sim_time"] - (stamps[-1] - stamps[0])) < 1e-6
goal = (req["vehicle_goal_location"]["x"] / 100, -req["vehicle_goal_location"]["y"] / 100)
end = traj[-1]["pose"]["position"]
assert math.hypot(end["x"] - goal[0], end["y"] - goal[1]) <= req["goal_radius"] / 100
trees = [(x / 100, -y / 100) for layout in req["scene_description"]["ssa_array"] if "Tree" in layout["path_name"]
         for x, y in zip(layout["x"], layout["y"])]
length, width, overhang = 4.89, 1.896, 1.1
for o in traj:
    q = o["pose"]["orientation"]
    assert abs(q["z"] ** 2 + q["w"] ** 2 - 1) < 1e-12
    yaw = 2 * math.atan2(q["z"], q["w"])
    p = o["pose"]["position"]
    c, s = math.cos(yaw), math.sin(yaw)
    for tx, ty in trees:  # the disc (0.5 m) against the rectangle: nearest point of the rectangle
        dx, dy = tx - p["x"], ty - p["y"]
        lx, ly = c * dx + s * dy, -s * dx + c * dy
        nx, ny = min(max(lx, -overhang), length - overhang), min(max(ly, -width / 2), width / 2)
        assert math.hypot(lx - nx, ly - ny) > 0.5, "a pose touches the tree at (%g, %g)" % (tx, ty)
    for v in (p["x"], p["y"]):
        assert 0 <= v <= 60
m = result["planbench"]
assert m["collisions"] == 0 and m["min_clearance"] > 0 and m["steps"] == round(result["vehicle_sim_time"] / 0.01)
assert m["reference_cost"] > 0 and abs(m["cost_error"] - (m["path_length"] - m["reference_cost"])) < 1e-9
PY
}

expect 0 "the bundled scenario" -- "$PB" scenario run worlds/scenario_bacre.json --json --capture "$T/aerial.png"
cp "$T/out" "$T/result.json"
[ -s "$T/aerial.png" ] || fail "--capture wrote nothing"
check_result "$T/result.json" worlds/scenario_bacre.json
# the planner driver: RRT* on the car's C-space, followed by the tracker
expect 0 "the planner driver" -- "$PB" scenario run worlds/scenario_bacre_planner.json --json
cp "$T/out" "$T/planner.json"
check_result "$T/planner.json" worlds/scenario_bacre_planner.json
grep -q '"num_vehicle_control_messages": 0,' "$T/planner.json" && fail "the planner driver sent no messages"

# a reason other than success: exit 1 (the same scenario with a 5 s timeout)
python3 -c "
import json; r = json.load(open('worlds/scenario_bacre.json')); r['sim_timeout_period'] = 5
r['catalogue'] = '$ROOT/worlds/asg_catalogue.json'; r['vehicle'] = '$ROOT/robots/lexus_rx450h.xml'
r['driver']['inputs'] = '$ROOT/worlds/scenario_bacre_inputs.csv'
json.dump(r, open('$T/timeout.json', 'w'))"
expect 1 "a timeout" -- "$PB" scenario run "$T/timeout.json" --json
grep -q '"termination_reason": 3' "$T/out" || fail "a timeout: $(head -c 200 "$T/out")"

# scene_capture_only: the capture, no run (an empty trajectory), beside the working directory
python3 -c "
import json; r = json.load(open('$T/timeout.json')); r['scene_capture_only'] = True
json.dump(r, open('$T/only.json', 'w'))"
(cd "$T" && "$PB" scenario run only.json --json >only.out) || fail "scene_capture_only: exit $?"
[ -s "$T/only_ortho_aerial.png" ] || fail "scene_capture_only wrote no capture"
python3 -c "
import json, sys; r = json.load(open('$T/only.out'))
sys.exit(not (r['scene_capture_only'] and r['vehicle_trajectory'] == [] and r['scene_capture_names'] == ['ortho_aerial']))" ||
    fail "scene_capture_only: $(head -c 300 "$T/only.out")"
bad "a missing scenario" "nowhere.json" -- scenario run nowhere.json
printf '{"goal_radius": ' >"$T/broken.json"
bad "malformed JSON" "broken.json.*malformed JSON" -- scenario run "$T/broken.json"
sed 's/"goal_radius": 500.0/"goal_radius": -1/' "$T/timeout.json" >"$T/negative.json"
python3 -c "
import json; r = json.load(open('$T/timeout.json')); r['goal_radius'] = -1; json.dump(r, open('$T/negative.json', 'w'))
r['goal_radius'] = 500; r['scene_description']['ssa_array'][0]['x'] = [1.0]; json.dump(r, open('$T/unequal.json', 'w'))"
python3 -c "
import json; r = json.load(open('$T/timeout.json')); r['driver'] = 'external'; json.dump(r, open('$T/external.json', 'w'))"
bad "an external driver outside planbench serve" "driver.*external.*planbench serve" -- scenario run "$T/external.json"
bad "a negative goal radius" "goal_radius" -- scenario run "$T/negative.json"
bad "arrays of unequal length" "ssa_array\[0\]\.x" -- scenario run "$T/unequal.json"
bad "a capture in a missing folder" "missing/dir" -- scenario run worlds/scenario_bacre.json --capture "$T/missing/dir/a.png"
bad "an unknown command" "unknown command" -- scenario walk worlds/scenario_bacre.json
[ ! -e "$T/missing" ] || fail "a capture folder was made"
# generated scenes: the same seed, the same bytes (the scenario, the map, the picture); the
# family's counts and clear radii; the map's occupied cells exactly the cells the trees touch
expect 0 "scene gen" -- "$PB" scene gen --seed 11 --out "$T/gen_a"
expect 0 "scene gen again" -- "$PB" scene gen --seed 11 --out "$T/gen_b"
expect 0 "scene gen to stdout" -- "$PB" scene gen --seed 11
cmp -s "$T/out" "$T/gen_a/scenario.json" || fail "stdout and --out differ"
for f in scenario.json scene.pgm scene.yaml scene.png; do
    cmp -s "$T/gen_a/$f" "$T/gen_b/$f" || fail "scene gen --seed 11 gave two different $f"
done
expect 0 "another seed" -- "$PB" scene gen --seed 12
cmp -s "$T/out" "$T/gen_a/scenario.json" && fail "seeds 11 and 12 gave the same scene"
python3 - "$T/gen_a" <<'PY' || fail "the generated scene check"
import json, math, re, sys
d = sys.argv[1]
req = json.load(open(d + "/scenario.json"))
layouts = req["scene_description"]["ssa_array"]
assert [l["num_instances"] for l in layouts] == [6, 6] and all(all(l["visible"]) for l in layouts)
start = (req["vehicle_start_location"]["x"] / 100, -req["vehicle_start_location"]["y"] / 100)
goal = (req["vehicle_goal_location"]["x"] / 100, -req["vehicle_goal_location"]["y"] / 100)
cat = req["catalogue"]["actors"]
discs = []
for l in layouts:
    kind = cat[l["path_name"]]
    for x, y, scale in zip(l["x"], l["y"], l["scale"]):
        p = (x / 100, -y / 100)
        assert math.dist(p, start) > 10 and math.dist(p, goal) > 10, "an actor inside a clear radius"
        assert 0 <= p[0] <= 60 and 0 <= p[1] <= 60
        if not kind["traversable"]:
            discs.append((p, kind["radius"] * scale))
yaml = open(d + "/scene.yaml").read()
res = float(re.search(r"^resolution:\s*(\S+)", yaml, re.M).group(1))
data = open(d + "/scene.pgm", "rb").read()
head, rest = data.split(b"\n255\n", 1)
w, h = map(int, head.split()[1:3])
assert w * h == len(rest)
touched = set()
for (cx, cy), r in discs:  # the cells (column, row from the top) a disc touches, from its own box
    for col in range(max(0, int((cx - r) / res) - 1), min(w, int((cx + r) / res) + 2)):
        for grid_row in range(max(0, int((cy - r) / res) - 1), min(h, int((cy + r) / res) + 2)):
            x0, y0 = col * res, grid_row * res
            if math.hypot(max(x0 - cx, 0, cx - x0 - res), max(y0 - cy, 0, cy - y0 - res)) <= r:
                touched.add((col, h - 1 - grid_row))
occupied = {(i % w, i // w) for i, b in enumerate(rest) if b != 254}
assert all(rest[i] in (0, 254) for i in range(0, len(rest), 997))
assert touched and occupied == touched, (len(occupied), len(touched))
PY
expect 0 "a generated scenario runs" -- "$PB" scenario run "$T/gen_a/scenario.json" --json
# a batch: generated and listed scenarios with two drivers, the counts of the tables add up,
# resume redoes exactly the runs missing from the journal
cat >"$T/batch.ini" <<INI
[scenarios]
family = bacre
seeds = 1-3
files = $ROOT/worlds/scenario_bacre.json
reference = false
[driver.rrtstar]
planner = rrtstar
max_iterations = 1500
[driver.birrt]
planner = birrt
max_iterations = 3000
INI
expect 0 "a batch" -- "$PB" scenario bench "$T/batch.ini" -j 2 --out "$T/batch" --csv "$T/runs.csv" --json "$T/summary.json" --md "$T/summary.md"
[ "$(wc -l <"$T/batch/scenarios.jsonl")" -eq 8 ] || fail "the journal holds $(wc -l <"$T/batch/scenarios.jsonl") runs, not 8"
python3 - "$T" <<'PY' || fail "the batch tables"
import csv, json, sys
t = sys.argv[1]
rows = list(csv.DictReader(open(t + "/runs.csv")))
assert len(rows) == 8 and {r["driver"] for r in rows} == {"rrtstar", "birrt"}
assert rows == sorted(rows, key=lambda r: (r["driver"], r["scenario"])), "rows sorted by (driver, scenario)"
summary = json.load(open(t + "/summary.json"))
assert summary["runs"] == 8
for s in summary["summaries"]:
    assert s["runs"] == 4 and sum(s["termination_reasons"].values()) + s["errors"] == s["runs"]
    ok = [r for r in rows if r["driver"] == s["driver"] and r["error"] == "0"]
    assert abs(s["success_rate"] - sum(r["termination_reason"] == "0" for r in ok) / len(ok)) < 1e-12
assert open(t + "/summary.md").read().count("\n") == 4
PY
head -n 5 "$T/batch/scenarios.jsonl" >"$T/cut.jsonl" && mv "$T/cut.jsonl" "$T/batch/scenarios.jsonl"
expect 0 "a resumed batch" -- "$PB" scenario bench "$T/batch.ini" -j 2 --out "$T/batch" --resume -q
[ "$(wc -l <"$T/batch/scenarios.jsonl")" -eq 8 ] || fail "resume left $(wc -l <"$T/batch/scenarios.jsonl") runs"
[ "$(cut -d, -f1,2 "$T/batch/scenarios.jsonl" | sort | uniq -d | wc -l)" -eq 0 ] || fail "resume ran a run twice"
bad "a batch with a bad output folder" "missing/x.csv" -- scenario bench "$T/batch.ini" --out "$T/b2" --csv "$T/missing/x.csv"
[ ! -e "$T/b2" ] || fail "a batch ran before its output was checked"
printf '[scenarios]\nfamily = bacre\nseeds = 5-1\n' >"$T/bad.ini"
bad "a batch with a reversed range" "seeds" -- scenario bench "$T/bad.ini"
bad "an unknown family" "family" -- scene gen --seed 1 --family carla
bad "no seed" "seed" -- scene gen
finish
