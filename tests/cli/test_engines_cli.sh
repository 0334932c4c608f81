#!/bin/sh
# End-to-end tests of the black-box and 4D stick-arm engines through the planbench command:
# --engine blackbox with --expr and --plugin, --engine 4d on the bundled map, JSON paths
# re-checked independently (in Python, at a finer resolution than the planner's), pictures,
# and every bad-input case (one stderr line, exit status 2).
# Usage: test_engines_cli.sh PLANBENCH SOURCE_ROOT PLUGIN
set -u
PB=$1
ROOT=$2
PLUGIN=$3
PLUGIN_SAMPLED=$4
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$ROOT" || exit 1
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed for the JSON checks" >&2; exit 77; }
fails=0
checks=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); }

# expect STATUS DESCRIPTION -- command...   (stdout -> $T/out, stderr -> $T/err)
expect() {
    want=$1; what=$2; shift 3
    "$@" >"$T/out" 2>"$T/err"
    got=$?
    ok
    [ "$got" -eq "$want" ] || fail "$what: exit $got, expected $want; stderr: $(head -c 300 "$T/err")"
}
# bad CASE PATTERN -- args...: exit 2, exactly one stderr line matching PATTERN.
bad() {
    what=$1; pattern=$2; shift 3
    rm -f "$T/p.png"
    expect 2 "$what" -- "$PB" "$@" --save-image "$T/p.png"
    lines=$(wc -l <"$T/err")
    [ "$lines" -eq 1 ] || fail "$what: $lines stderr lines, expected 1: $(cat "$T/err")"
    grep -qF -- "$pattern" "$T/err" || fail "$what: stderr does not mention '$pattern': $(cat "$T/err")"
    [ ! -e "$T/p.png" ] || fail "$what: an output file was created"
}

# check_path FILE DIM WORLD [RESOLUTION [FACTOR]]: the JSON path is a list of DIM-element lists
# from start to goal, and every configuration and every edge (sampled FACTOR times finer than
# RESOLUTION, default 10) is free in WORLD.
check_path() {
    python3 - "$@" <<'PY' || fail "path check of $1 ($3)"
import json, math, sys
r = json.load(open(sys.argv[1]))
dim, world = int(sys.argv[2]), sys.argv[3]
resolution = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
factor = float(sys.argv[5]) if len(sys.argv) > 5 else 10.0
path = r["path"]
assert r["outcome"] == "exact", r["outcome"]
assert isinstance(path, list) and len(path) >= 2, "path too short"
assert all(isinstance(q, list) and len(q) == dim for q in path), "path entries are not %d-element lists" % dim
assert path[0] == r["start"] and path[-1] == r["goal"], "path does not join start and goal"

def free(q):
    if world == "expr":  # cos(x0)*sin(x1) > -0.22 in [-5, 5]^2
        return all(-5 <= v <= 5 for v in q) and math.cos(q[0]) * math.sin(q[1]) > -0.22
    if world == "plugin":  # examples/plugin_world.c
        if not all(0 <= v <= 10 for v in q):
            return False
        if abs(q[0] - 5.0) < 0.25 and not (8.0 <= q[1] <= 9.0):
            return False
        return (q[0] - 2.5) ** 2 + (q[1] - 5.0) ** 2 >= 1.5 ** 2
    if world == "arm":  # only the shape of the configurations: the map is checked by the C tests
        return 0 <= q[0] < 1000 and 0 <= q[1] < 1000 and -math.pi <= q[2] < math.pi and -math.pi <= q[3] < math.pi
    raise SystemExit("unknown world " + world)

for i, q in enumerate(path):
    assert free(q), "configuration %d %s is not free" % (i, q)
if resolution > 0:
    fine = resolution / factor
    for a, b in zip(path, path[1:]):
        n = max(1, math.ceil(math.dist(a, b) / fine))
        for k in range(n + 1):
            q = [u + (v - u) * k / n for u, v in zip(a, b)]
            assert free(q), "edge %s -> %s blocked at %s (resolution %g)" % (a, b, q, fine)
PY
}

is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }

# ---- the black box from an expression (sbp-env's documentation example) ----
EXPR='cos(x0)*sin(x1) > -0.22'
expect 0 "blackbox --expr" -- "$PB" rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR" start -3,-3 goal 3,3 --json
grep -q '"engine": "blackbox"' "$T/out" || fail "blackbox JSON lacks the engine name: $(head -c 200 "$T/out")"
cp "$T/out" "$T/expr.json"
# default resolution: 1/200 of the diagonal of [-5,5]^2
check_path "$T/expr.json" 2 expr "$(python3 -c 'print(200 ** 0.5 / 200)')"
expect 0 "blackbox --expr, same seed" -- "$PB" rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR" start -3,-3 goal 3,3 --json
python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))['path'] != json.load(open(sys.argv[2]))['path'])" \
    "$T/expr.json" "$T/out" || fail "the same seed gave another path"
expect 0 "functor alias, --resolution" -- "$PB" rrt --engine functor --bounds -5:5,-5:5 --expr "$EXPR" --resolution 0.01 start -3,-3 goal 3,3 --json
check_path "$T/out" 2 expr 0.01
expect 0 "blackbox, sequential edges" -- "$PB" rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR" --engine-option edge_order=sequential start -3,-3 goal 3,3 --json
check_path "$T/out" 2 expr "$(python3 -c 'print(200 ** 0.5 / 200)')"
expect 0 "blackbox 3D" -- "$PB" rrt --engine blackbox --bounds 0:1,0:1,0:1 --expr '(x0-0.5)^2 + (x1-0.5)^2 + (x2-0.5)^2 > 0.09' start 0.1,0.1,0.1 goal 0.9,0.9,0.9 --json
python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['path']; sys.exit(not all(len(q)==3 for q in p))" "$T/out" ||
    fail "3D path entries are not 3-element lists"
expect 0 "blackbox summary" -- "$PB" rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR" start -3,-3 goal 3,3
grep -q "exact" "$T/out" || fail "blackbox summary lacks the outcome"
expect 0 "blackbox --save-image" -- "$PB" rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR" start -3,-3 goal 3,3 --save-image "$T/bb.png"
is_png "$T/bb.png" || fail "blackbox --save-image wrote no PNG"

# an engine that cannot draw refuses --save-image before planning (issue 22)
expect 2 "3-D black box --save-image" -- "$PB" rrt --engine blackbox --bounds 0:1,0:1,0:1 --expr "x0 >= 0" \
    start 0.1,0.1,0.1 goal 0.9,0.9,0.9 --json --save-image "$T/3d.png"
[ ! -s "$T/out" ] || fail "3-D black box --save-image: planned first: $(head -c 100 "$T/out")"
grep -q -- "--save-image $T/3d.png: a 3-dimensional black box has no picture" "$T/err" ||
    fail "3-D black box --save-image: $(cat "$T/err")"
[ ! -e "$T/3d.png" ] || fail "3-D black box --save-image: a file was written"

# ---- the black box from a plugin ----
expect 0 "plugin with its own bounds and defaults" -- "$PB" rrt --engine blackbox --plugin "$PLUGIN" --json
cp "$T/out" "$T/plugin.json"
# With planbench_clearance the plugin's edges are certified: re-checked ten times finer than
# the old default resolution, corners of the wall's gap included.
grep -q '"edge_check": "certified"' "$T/plugin.json" || fail "the plugin with a clearance is not certified"
check_path "$T/plugin.json" 2 plugin "$(python3 -c 'print(200 ** 0.5 / 200)')"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r['start']!=[1,1] or r['goal']!=[9,1])" "$T/plugin.json" ||
    fail "the plugin's default start and goal were not used"
expect 0 "plugin with --bounds, start and goal" -- "$PB" rrt --engine blackbox --plugin "$PLUGIN" --bounds 0:10,0:10 start 1,9 goal 9,9 --json
check_path "$T/out" 2 plugin "$(python3 -c 'print(200 ** 0.5 / 200)')"
# Without one it samples, at 1/1000 of the diagonal, and says so. Its edges may cut a corner
# of the gap by less than the resolution, which any sampled check allows: re-checked at the
# planner's own resolution.
expect 0 "plugin without a clearance" -- "$PB" rrt --engine blackbox --plugin "$PLUGIN_SAMPLED" --json
grep -q '"edge_check": "sampled", "edge_resolution": 0.01414213562373' "$T/out" ||
    fail "the plugin without a clearance does not say it samples at 1/1000 of the diagonal"
check_path "$T/out" 2 plugin "$(python3 -c 'print(200 ** 0.5 / 1000)')" 1
expect 2 "edge_check=certified without a clearance" -- "$PB" rrt --engine blackbox --plugin "$PLUGIN_SAMPLED" --engine-option edge_check=certified
grep -q "needs an expression or a plugin that exports 'planbench_clearance'" "$T/err" || fail "certified without a clearance: unclear message"
# A broken clearance is an error that names the callback and the value, never a path.
for bad in -1 nan inf; do
    PLUGIN_WORLD_BAD_CLEARANCE=$bad expect 2 "clearance $bad" -- "$PB" rrt --engine blackbox --plugin "$PLUGIN" --json
    grep -qi "clearance callback returned $bad at (" "$T/err" || fail "clearance $bad: unclear message: $(cat "$T/err")"
    [ ! -s "$T/out" ] || fail "clearance $bad: a result was printed"
done
unset PLUGIN_WORLD_BAD_CLEARANCE

# ---- the 4D stick arm on the bundled map ----
expect 0 "4d on maps/4d.png" -- "$PB" rrt maps/4d.png --engine 4d --json
cp "$T/out" "$T/arm.json"
grep -q '"engine": "stickarm4d"' "$T/arm.json" || fail "4d JSON lacks the engine name"
grep -q '"edge_check": "certified", "clearance_floor": 0.05' "$T/arm.json" || fail "4d JSON does not say its edges are certified"
expect 0 "4d edge_check=sampled" -- "$PB" birrt maps/4d.png --engine 4d --engine-option edge_check=sampled --json
grep -q '"edge_check": "sampled", "edge_resolution": 1,' "$T/out" || fail "4d sampled JSON does not say so"
expect 0 "planbench list" -- "$PB" list
grep -A1 '^  stickarm4d' "$T/out" | grep -q 'edges: certified' || fail "planbench list does not say how 4d edges are checked"
check_path "$T/arm.json" 4 arm
python3 -c "
import json, math, sys
r = json.load(open(sys.argv[1]))
sys.exit(r['start'] != [100.5, 100.5, 0, 0] or r['goal'] != [900.5, 900.5, math.pi / 2, -math.pi / 2])" "$T/arm.json" ||
    fail "4d did not use the map's default start and goal"
expect 0 "arm4d alias, --arm-lengths, --save-image" -- "$PB" rrt maps/4d.png --engine arm4d --arm-lengths 25,20 --save-image "$T/arm.png"
is_png "$T/arm.png" || fail "4d --save-image wrote no PNG"
expect 0 "stickarm4d with explicit start and goal" -- "$PB" rrt maps/4d.png --engine stickarm4d start 100.5,100.5,0,0 goal 900.5,900.5,3,-1 --json
check_path "$T/out" 4 arm

# ---- bad input: one line, exit status 2 ----
bad "bounds lower >= upper" "lower bound 5 must be below the upper bound -5" -- rrt --engine blackbox --bounds 5:-5,-5:5 --expr "$EXPR" start -3,-3 goal 3,3
bad "bounds lower == upper" "coordinate 1" -- rrt --engine blackbox --bounds -5:5,2:2 --expr "$EXPR" start -3,-3 goal 3,3
bad "bounds too wide" "coordinate 0: the width inf of -1e+308:1e+308 is out of range" -- rrt --engine blackbox --bounds -1e308:1e308,0:1 --expr "$EXPR" start 0,0 goal 0,0.5
bad "bounds too narrow" "coordinate 0: the width 1e-300 of 0:1e-300 is out of range" -- rrt --engine blackbox --bounds 0:1e-300,0:1 --expr "$EXPR" start 0,0 goal 0,0.5
# an expression that starts with "--" is the value of --expr, not another option
expect 0 "--expr '--x0 > 0'" -- "$PB" rrt --engine blackbox --bounds -5:5,-5:5 --expr "--x0 > 0" start 3,-3 goal 3,3 -q
bad "bounds malformed" "LOWER:UPPER" -- rrt --engine blackbox --bounds -5..5 --expr "$EXPR" start -3,-3 goal 3,3
bad "no bounds" "--bounds" -- rrt --engine blackbox --expr "$EXPR" start -3,-3 goal 3,3
bad "neither expr nor plugin" "--expr" -- rrt --engine blackbox --bounds -5:5,-5:5 start -3,-3 goal 3,3
bad "start of the wrong dimension" "expected 2 coordinates" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR" start -3,-3,1 goal 3,3
bad "goal of the wrong dimension" "expected 2 coordinates" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR" start -3,-3 goal 3
bad "start outside the bounds" "outside" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR" start -6,0 goal 3,3
bad "goal infeasible" "goal" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr 'x0^2 + x1^2 > 1' start -3,-3 goal 0,0
bad "no start and goal" "start" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR"
bad "expression does not parse" "expression: column 18: expected ')'" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr 'cos(x0) * (x1 > 0' start -3,-3 goal 3,3
bad "unknown variable" "expression: column 6: unknown variable 'y'" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr 'x0 + y > 0' start -3,-3 goal 3,3
bad "variable beyond the dimension" "unknown variable 'x2'" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr 'x2 > 0' start -3,-3 goal 3,3
bad "unknown function" "unknown function 'sinh'" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr 'sinh(x0) > 0' start -3,-3 goal 3,3
bad "a number, not a condition" "not a condition" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr 'x0 * x1' start -3,-3 goal 3,3
bad "plugin that does not load" "does not load" -- rrt --engine blackbox --plugin "$T/no-such-plugin.so" --bounds -5:5 start 0 goal 1
echo "not a shared object" >"$T/fake.so"
bad "plugin that is not a shared object" "does not load" -- rrt --engine blackbox --plugin "$T/fake.so" --bounds -5:5 start 0 goal 1
bad "plugin without the symbol" "does not export 'planbench_feasible'" -- rrt --engine blackbox --plugin libm.so.6 --bounds -5:5 start 0 goal 1
bad "expr and plugin" "not both" -- rrt --engine blackbox --plugin "$PLUGIN" --expr "$EXPR" --bounds -5:5,-5:5 start 1,1 goal 2,2
bad "bad resolution" "resolution" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR" --resolution 0 start -3,-3 goal 3,3
bad "unknown engine option" "no option 'colour'" -- rrt --engine blackbox --bounds -5:5,-5:5 --expr "$EXPR" --engine-option colour=red start -3,-3 goal 3,3
bad "4d start of the wrong dimension" "expected 4 coordinates" -- rrt maps/4d.png --engine 4d start 100.5,100.5 goal 900.5,900.5,0,0
bad "4d start outside the map" "outside" -- rrt maps/4d.png --engine 4d start 1000.5,100.5,0,0 goal 900.5,900.5,0,0
bad "4d start in collision" "start" -- rrt maps/4d.png --engine 4d start 5,5,3,0 goal 900.5,900.5,0,0
bad "4d bad arm lengths" "arm_lengths" -- rrt maps/4d.png --engine 4d --arm-lengths 30
bad "4d without a map" "needs a PNG map" -- rrt --engine 4d
bad "4d with an expression" "no option 'expr'" -- rrt maps/4d.png --engine 4d --expr "$EXPR"

echo "engines cli: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
