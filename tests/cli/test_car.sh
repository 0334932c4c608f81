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
    python3 - "$1" "$2" <<'PY' || fail "car check of $1"
import json, math, re, sys
result = json.load(open(sys.argv[1]))
family = sys.argv[2]
text = open("maps/wall40.yaml").read()
resolution = float(re.search(r"^resolution:\s*(.*)$", text, re.M).group(1))
data = open("maps/wall40.pgm", "rb").read()
magic, size, maxval, pixels = data.split(b"\n", 3)
width, height = map(int, size.split())
car = open("robots/lexus_rx450h.xml").read()
attr = lambda name: float(re.search(r'\b%s="([^"]+)"' % name, car).group(1))
length, width_m, overhang = attr("length"), attr("width"), attr("rear_overhang")
wheelbase, max_steer = attr("wheelbase"), attr("max_steer")
radius = wheelbase / math.tan(max_steer)

def cell_free(x, y):
    col, row = math.floor(x / resolution), math.floor(y / resolution)
    if col < 0 or row < 0 or col >= width or row >= height:
        return False
    return pixels[(height - 1 - row) * width + col] == 254

def corners(x, y, yaw):
    c, s = math.cos(yaw), math.sin(yaw)
    return [(x + c * lx - s * ly, y + s * lx + c * ly)
            for lx, ly in ((-overhang, -width_m / 2), (length - overhang, -width_m / 2),
                           (length - overhang, width_m / 2), (-overhang, width_m / 2))]

def segment_free(p, q):
    # every cell the segment p-q passes through, exactly (Amanatides-Woo grid traversal)
    x0, y0 = p[0] / resolution, p[1] / resolution
    x1, y1 = q[0] / resolution, q[1] / resolution
    col, row = math.floor(x0), math.floor(y0)
    end_col, end_row = math.floor(x1), math.floor(y1)
    dx, dy = x1 - x0, y1 - y0
    step_c = 1 if dx > 0 else -1
    step_r = 1 if dy > 0 else -1
    t_dc = abs(1 / dx) if dx else math.inf
    t_dr = abs(1 / dy) if dy else math.inf
    t_c = ((col + 1 - x0) if dx > 0 else (x0 - col)) * t_dc if dx else math.inf
    t_r = ((row + 1 - y0) if dy > 0 else (y0 - row)) * t_dr if dy else math.inf
    for _ in range(abs(end_col - col) + abs(end_row - row) + 1):
        if not cell_free(col * resolution + resolution / 2, row * resolution + resolution / 2):
            return False
        if col == end_col and row == end_row:
            break
        if t_c < t_r:
            col += step_c
            t_c += t_dc
        else:
            row += step_r
            t_r += t_dr
    return True

def perimeter_free(x, y, yaw):
    k = corners(x, y, yaw)
    return all(segment_free(k[i], k[(i + 1) % 4]) for i in range(4))

def footprint_free(x, y, yaw):
    # the whole rectangle: its perimeter and every cell whose centre lies inside it
    if not perimeter_free(x, y, yaw):
        return False
    c, s = math.cos(yaw), math.sin(yaw)
    reach = math.hypot(max(overhang, length - overhang), width_m / 2)
    for row in range(math.floor((y - reach) / resolution), math.floor((y + reach) / resolution) + 1):
        for col in range(math.floor((x - reach) / resolution), math.floor((x + reach) / resolution) + 1):
            px, py = (col + 0.5) * resolution - x, (row + 0.5) * resolution - y
            lx, ly = c * px + s * py, -s * px + c * py
            if -overhang <= lx <= length - overhang and abs(ly) <= width_m / 2:
                if not cell_free((col + 0.5) * resolution, (row + 0.5) * resolution):
                    return False
    return True

def advance(p, kind, s):
    x, y, yaw = p
    if kind == "S":
        return (x + s * math.cos(yaw), y + s * math.sin(yaw), yaw)
    side = 1.0 if kind == "L" else -1.0
    cx, cy = x - side * radius * math.sin(yaw), y + side * radius * math.cos(yaw)
    yaw2 = yaw + side * s / radius
    return (cx + side * radius * math.sin(yaw2), cy - side * radius * math.cos(yaw2), yaw2)

# the checker itself can fail: a pose across the wall, and one off the map
assert not footprint_free(20.0, 5.0, 0.0) and not perimeter_free(1.0, 1.0, 0.0)
assert footprint_free(5.0, 5.0, 0.0)
assert result["outcome"] == "exact", result["outcome"]
path, edges = result["path"], result["edges"]
assert len(edges) == len(path) - 1, "one word per edge"
assert path[0] == result["start"] and path[-1] == result["goal"], "path ends"
total = 0.0
for a, b, word in zip(path, path[1:], edges):
    assert footprint_free(*a), "waypoint (%.3f, %.3f, %.3f) hits the map" % tuple(a)
    p = tuple(a)
    for seg in word:
        kind, s = seg["type"], seg["length"]
        assert kind in "LSR", kind
        if family == "dubins":
            assert s >= 0, "a Dubins word reverses"
        n = int(abs(s) / 0.02) + 1
        for k in range(1, n + 1):
            q = advance(p, kind, s * k / n)
            assert perimeter_free(*q), "footprint hits the map at (%.3f, %.3f, %.3f)" % q
        p = advance(p, kind, s)
        total += abs(s)
    d = math.hypot(p[0] - b[0], p[1] - b[1])
    dyaw = math.remainder(p[2] - b[2], 2 * math.pi)
    assert d < 1e-6 and abs(dyaw) < 1e-6, "word ends %.3g m, %.3g rad from the waypoint" % (d, dyaw)
assert abs(total - result["cost"]) <= 1e-9 * total, (total, result["cost"])
assert result["engine"] == "car" and result["edge_check"] == "certified"
PY
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
