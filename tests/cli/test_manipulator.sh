#!/bin/sh
# End-to-end tests of the manipulator engine through the planbench command (issue 7): a
# bundled world planned with rrt and birrt, the JSON path as joint vectors, start and goal
# given as joint vectors, `planbench list` showing the worlds, and bad input (a URDF or world
# that does not parse, a joint with a missing parent, a missing mesh, a start or goal of the
# wrong length, outside the limits or in collision): one stderr line naming the file and the
# reason, exit status 2. --save-image writes the world's three views. A MotionBenchMaker Panda problem (flat file and YAML) and Klampt's
# TX90 world when ../shared is present.
# Usage: test_manipulator.sh PLANBENCH SOURCE_ROOT
. "$(dirname "$0")/lib.sh"

W=worlds/pbarm6_divider.xml
expect 0 "rrt on the bundled world" -- "$PB" rrt "$W" --time-limit 20
grep -q "(manipulator): exact" "$T/out" || fail "rrt summary: $(cat "$T/out")"
expect 0 "birrt --json" -- "$PB" birrt "$W" --json --time-limit 20
# the path is a list of 6-element joint vectors from the world's start to its goal
grep -Eq '"path": \[\[0\.31(0*1)?, 0\.52' "$T/out" || fail "JSON path does not start at the world's start"
grep -Eq '"engine": "manipulator"' "$T/out" || fail "JSON engine"
python3 - "$T/out" <<'PY' || fail "JSON path shape"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["outcome"] == "exact", r["outcome"]
p = r["path"]
assert len(p) >= 2 and all(len(q) == 6 for q in p), p[:2]
assert p[0] == r["start"] and p[-1] == r["goal"]
PY
# --save-path: a CSV headed by the planned joints' names (the URDF's movable joints), and
# a trajectory_msgs/JointTrajectory JSON; both hold the JSON result's path
expect 0 "--save-path csv and json" -- sh -c "'$PB' birrt '$W' --json --time-limit 20 --save-path '$T/p.csv' >'$T/r.json' &&
    '$PB' birrt '$W' --time-limit 20 -q --save-path '$T/p.json'"
python3 - "$T/r.json" "$T/p.csv" "$T/p.json" robots/pbarm6.urdf <<'PY' || fail "--save-path with joint names"
import csv, json, sys
import xml.etree.ElementTree as ET
r = json.load(open(sys.argv[1]))
rows = list(csv.reader(open(sys.argv[2])))
movable = [j.get("name") for j in ET.parse(sys.argv[4]).getroot().iter("joint") if j.get("type") != "fixed"]
dim = len(r["path"][0])
assert len(rows[0]) == dim == len(set(rows[0])) and set(rows[0]) <= set(movable), (rows[0], movable)
assert [[float(x) for x in row] for row in rows[1:]] == r["path"], "CSV rows differ from the JSON path"
t = json.load(open(sys.argv[3]))
assert t["joint_names"] == rows[0]
pts = t["points"]
assert [p["positions"] for p in pts] == r["path"], "JointTrajectory positions differ from the path"
times = [p["time_from_start"]["sec"] + 1e-9 * p["time_from_start"]["nanosec"] for p in pts]
assert times[0] == 0 and all(b > a for a, b in zip(times, times[1:])), times
PY

# start and goal as joint vectors (the world's own, swapped)
expect 0 "start/goal given" -- "$PB" birrt "$W" start -0.356,0.451,0.986,-0.087,1.813,-1.889 \
    goal 0.310,0.529,0.892,-3.039,-1.525,0.394 -q --time-limit 20
# --save-image: front, side and top views of the world, the robot at the start, the goal and
# along the path, the tool's trace (issue 22); what is where in them: tests/test_manipulator_draw.c
expect 0 "--save-image" -- "$PB" birrt "$W" --time-limit 20 -q --seed 3 --save-image "$T/arm.png"
python3 - "$T/arm.png" <<'PY' || fail "--save-image: not a picture of three views side by side"
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert width >= 2.5 * height and width >= 600, (width, height)
PY
expect 0 "list" -- "$PB" list
grep -q "pbarm6_divider.xml *6 joints" "$T/out" || fail "planbench list does not show the bundled world"

# bad input on the command line
bad "start of the wrong length" "expected 6 coordinates" -- rrt "$W" start 0,0,0 goal 0,0,0,0,0,0
bad "start outside the limits" "start .* is outside the joint limits: joint 'joint2' must be in \[-2, 2\], got 2.5" \
    -- rrt "$W" start 0,2.5,0,0,0,0 goal 0,0,0,0,0,0
# a continuous joint (joint4) wraps: 5 rad is accepted as 5 - 2 pi (issue 22)
expect 0 "continuous joint given 5 rad" -- "$PB" rrt "$W" start 0.310,0.529,0.892,5,-1.525,0.394 \
    goal -0.356,0.451,0.986,-0.087,1.813,-1.889 --json --time-limit 20
python3 - "$T/out" <<'PY' || fail "continuous joint: the start is not wrapped"
import json, math, sys
r = json.load(open(sys.argv[1]))
assert abs(r["start"][3] - (5 - 2 * math.pi)) < 1e-12, r["start"]
assert r["path"][0] == r["start"], r["path"][:1]
PY
bad "start in collision" "start .* is infeasible: link '[a-z_0-9]+' touches (obstacle|link) '[a-z_0-9]+'" -- rrt "$W" start 0,1.9,0,0,0,0 goal 0,0,0,0,0,0
bad "unknown engine option" "no option 'bogus'" -- rrt "$W" --engine-option bogus=1
bad "a URDF read as a world" "pbarm6.urdf:5: <robot>: this is a URDF robot, not a world: plan with a world file" \
    -- rrt robots/pbarm6.urdf --engine urdf

# bad files: copy the robot next to broken worlds
cp robots/pbarm6.urdf robots/pbarm6.srdf "$T/"
world() { # world NAME URDF [extra elements]: the arm group of pbarm6.srdf
    printf '<world>\n<robot urdf="%s" srdf="pbarm6.srdf" group="arm"/>\n%s\n</world>\n' "$2" "${3:-}" >"$T/$1"
}
printf '<world>\n<robot urdf="pbarm6.urdf"\n</world>\n' >"$T/broken.xml"
bad "world that does not parse" "broken\.xml:3.*not well-formed" -- rrt "$T/broken.xml"
world nourdf.xml missing.urdf
bad "missing URDF" "missing\.urdf.*cannot open" -- rrt "$T/nourdf.xml"
sed 's|<parent link="forearm"/>|<parent link="forarm"/>|' "$T/pbarm6.urdf" >"$T/noparent.urdf"
world noparent.xml noparent.urdf
bad "joint with a missing parent" "noparent\.urdf:[0-9]+: <parent>: joint 'joint4': parent link 'forarm' does not exist" \
    -- rrt "$T/noparent.xml"
sed 's|<geometry><sphere radius="0.015"/></geometry>|<geometry><mesh filename="meshes/tool.stl"/></geometry>|' \
    "$T/pbarm6.urdf" >"$T/nomesh.urdf"
world nomesh.xml nomesh.urdf
bad "missing mesh" "nomesh\.urdf:[0-9]+: <mesh> of link 'tool': .*tool\.stl: cannot open" -- rrt "$T/nomesh.xml"
printf 'solid x\nthis is not an STL file\n' >"$T/garbage.stl"
world badmesh.xml pbarm6.urdf '<mesh name="junk" file="garbage.stl"/>'
bad "unreadable mesh" "badmesh\.xml:[0-9]+: <mesh> of obstacle 'junk'" -- rrt "$T/badmesh.xml"
world shortstart.xml pbarm6.urdf '<start>0 0 0</start><goal>0 0 0 0 0 0</goal>'
bad "world start of the wrong length" "shortstart\.xml:3: <start>: 3 joint values .* 6 joints" -- rrt "$T/shortstart.xml"
world limits.xml pbarm6.urdf '<start>0 0 0 0 0 0</start>
<goal>0 0 3 0 0 0</goal>'
bad "world goal outside the limits" "limits\.xml:4: <goal>: .*joint 'joint3' = 3 is outside its limits" \
    -- rrt "$T/limits.xml"
world collide.xml pbarm6.urdf '<box name="wall" size="1 1 1" xyz="0 0 1"/>
<start>0 0 0 0 0 0</start><goal>0 0 0 0 0 0</goal>'
bad "world start in collision" "collide\.xml:4: <start>: .*link '[a-z_0-9]+' touches obstacle 'wall'" \
    -- rrt "$T/collide.xml"

# MotionBenchMaker Panda, when ../shared is present
MBM=../shared/anchor-problems/vamp-mbm/panda/panda_mbm_flat.txt
if [ -r "$MBM" ]; then
    expect 0 "MBM Panda bookshelf_small:1" -- "$PB" birrt "$MBM" --engine-option problem=bookshelf_small:1 --time-limit 20
    bad "MBM unknown problem" "no problem 'nope:1'" -- rrt "$MBM" --engine-option problem=nope:1
fi

# Klampt's TX90 world (sbp-env's) and a MotionBenchMaker YAML problem, when present
TX90=../shared/anchor-problems/klampt-tx90/data/tx90blocks.xml
if [ -r "$TX90" ]; then
    expect 0 "Klampt TX90 world" -- "$PB" rrt "$TX90" --engine manipulator start 0,0,0,0,0,0 goal -2,1.2,1,0,0.5,0 \
        --time-limit 20 --json
    grep -q '"outcome": "exact"' "$T/out" || fail "Klampt TX90 world: no exact solution in the JSON"
    bad "Klampt start of the wrong length" "6" -- rrt "$TX90" start 0,0,0 goal 0,0,0,0,0,0
fi
YAML=../shared/anchor-problems/vamp-mbm/panda/problems_subset/box_panda/scene0001.yaml
if [ -r "$YAML" ] && grep -q "MotionBenchMaker YAML (libyaml).*YES" "$(dirname "$PB")/../../meson-logs/meson-log.txt" 2>/dev/null; then
    expect 0 "MBM YAML box scene0001" -- "$PB" birrt "$YAML" --time-limit 20
fi

finish
