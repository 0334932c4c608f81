#!/bin/sh
# The command line on metric maps (issue 17): map_server YAML maps and PNG maps given a
# resolution, results in metres re-checked independently, and every bad map with one line on
# stderr and exit 2. Usage: test_maps.sh PLANBENCH SOURCE_ROOT
. "$(dirname "$0")/lib.sh"

# ---- the bundled map_server map ----
expect 0 "rrt on office.yaml" -- "$PB" rrt maps/office.yaml
grep -q "exact" "$T/out" || fail "office.yaml: no exact outcome"

# A --json result re-checked in metres from the YAML and the PGM alone: start and goal are
# the file's, every edge sampled every 1/50 pixel lies on free (254) cells, and the cost is
# the path's length in metres.
check_metric() { # RESULT.json MAP.yaml CERTIFIED(0|1)
    python3 - "$1" "$2" "$3" <<'PY' || fail "metric check of $1"
import json, math, os, re, sys
result = json.load(open(sys.argv[1]))
certified = sys.argv[3] == "1"
text = open(sys.argv[2]).read()
key = lambda k: re.search(r"^%s:\s*(.*)$" % k, text, re.M).group(1).strip()
numbers = lambda v: [float(x) for x in v.strip("[]").split(",")]
resolution, origin = float(key("resolution")), numbers(key("origin"))
data = open(os.path.join(os.path.dirname(sys.argv[2]), key("image")), "rb").read()
magic, size, maxval, pixels = data.split(b"\n", 3)
width, height = map(int, size.split())
assert magic == b"P5" and maxval == b"255" and len(pixels) == width * height
c, s = math.cos(origin[2]), math.sin(origin[2])

def free(x, y):  # nav2's worldToMap: column floor(gx), grid row floor(gy) from the bottom
    dx, dy = x - origin[0], y - origin[1]
    gx, gy = (c * dx + s * dy) / resolution, (c * dy - s * dx) / resolution
    if not (0 <= gx < width and 0 <= gy < height):
        return False
    return pixels[(height - 1 - math.floor(gy)) * width + math.floor(gx)] == 254

assert result["outcome"] == "exact", result["outcome"]
path = result["path"]
assert path[0] == numbers(key("planbench_start")) == result["start"], (path[0], result["start"])
assert path[-1] == numbers(key("planbench_goal")) == result["goal"], (path[-1], result["goal"])
length = 0.0
for a, b in zip(path, path[1:]):
    d = math.dist(a, b)
    length += d
    n = max(1, math.ceil(d / (resolution / 50))) if certified else 1
    for k in range(n + 1):
        t = k / n
        assert free(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])), "edge %r-%r blocked at t=%g" % (a, b, t)
assert abs(length - result["cost"]) <= 1e-9 * length, (length, result["cost"])
assert length > 9.0, "a path across the map is metres long, not pixels: %g" % length
PY
}
expect 0 "office.yaml --json certified" -- "$PB" rrt maps/office.yaml --json --engine-option edge_check=certified
cp "$T/out" "$T/certified.json"
check_metric "$T/certified.json" maps/office.yaml 1
expect 0 "office.yaml --json" -- "$PB" birrt maps/office.yaml --json --seed 3
cp "$T/out" "$T/pixel.json"
check_metric "$T/pixel.json" maps/office.yaml 0
# the CSV path is in metres too, and the default step and goal radius are 2% of the diagonal
expect 0 "office.yaml --save-path" -- "$PB" rrt maps/office.yaml --save-path "$T/p.csv" -q
head -n 2 "$T/p.csv" | grep -q "^-1.725" || fail "CSV path does not start at the start in metres: $(head -n 2 "$T/p.csv")"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(abs(r['goal_radius'] - 0.02 * 0.05 * (240**2 + 160**2) ** 0.5) > 1e-12)" \
    "$T/pixel.json" || fail "the default goal radius is not 2% of the map's diagonal in metres"
# start and goal given in metres; outside the map is refused with the bounds in metres
expect 0 "office.yaml start goal" -- "$PB" rrt maps/office.yaml start -1.5,0 goal 7.5,0 --json
bad "office.yaml start outside" "outside the map.*\[-3, 9\]" -- rrt maps/office.yaml start 20,0 goal 7.5,0
bad "office.yaml start on unknown" "start \(-2\.8, 5\.8\) is on an obstacle" -- rrt maps/office.yaml start -2.8,5.8
# --free-threshold on a YAML map overrides its own: unknown (205, p = 0.196) becomes free
expect 0 "office.yaml --free-threshold" -- "$PB" rrt maps/office.yaml start -2.8,5.8 goal -2.8,-1.8 --free-threshold 0.25 -q
# the PGM alone is read in the pixel frame (map_saver's default thresholds)
expect 0 "office.pgm alone" -- "$PB" rrt maps/office.pgm start 25.5,25.5 goal 220.5,25.5 -q

# ---- a PNG made metric with --resolution and --origin ----
expect 0 "room1 in metres" -- "$PB" rrt maps/room1.png --resolution 0.05 --origin -1,-2 start 0.6,16.4 goal 22,-0.2 --json
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(not (r['outcome']=='exact' and r['cost'] < 100 and r['path'][0]==[0.6,16.4]))" \
    "$T/out" || fail "room1 in metres: $(head -c 300 "$T/out")"
# its default problem follows the frame: pixel (30.5, 30.5) of a 400 px high image
expect 0 "room1 frame=ros defaults" -- "$PB" rrt maps/room1.png --engine-option frame=ros --json
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r['start'] != [30.5, 369.5])" "$T/out" ||
    fail "frame=ros: the default start is not flipped: $(head -c 200 "$T/out")"
expect 0 "room1 --save-image in metres" -- "$PB" rrt maps/room1.png --resolution 0.05 --save-image "$T/room1.png" -q
[ -s "$T/room1.png" ] || fail "no picture of a metric map"

# ---- a scanned map: nearly white, nothing is free until a threshold says what is ----
python3 - "$T/scan.png" <<'PY'
import struct, sys, zlib
w, h = 60, 40
rows = b"".join(b"\x00" + bytes(246 if not (20 <= x < 25) or y < 10 else 30 for x in range(w)) for y in range(h))
chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) +
                              chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
PY
bad "scan without threshold" "the map has no free cell: no pixel is pure white.*--free-threshold" -- \
    rrt "$T/scan.png" start 5.5,30.5 goal 50.5,30.5
expect 0 "scan with --free-threshold" -- "$PB" rrt "$T/scan.png" start 5.5,30.5 goal 50.5,30.5 --free-threshold 0.1 -q

# ---- the default step follows the corridors (issue 22) ----
# A serpentine of 30-pixel corridors between 10-pixel walls on 1000 x 1000 pixels: 2% of the
# diagonal (28.3 px) is nearly a corridor's width, so the default is 2/3 of the corridor width;
# the bundled maps' wide corridors keep the 2%. --json and the summary say which rule was used.
python3 - "$T/serpentine.png" <<'PY'
import struct, sys, zlib
w = h = 1000
rows = []
for y in range(h):
    k, r = divmod(y, 40)
    gap = range(0, 30) if k % 2 else range(w - 30, w)
    rows.append(b"\x00" + bytes(255 if r < 30 or x in gap else 0 for x in range(w)))
chunk = lambda t, d: struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) +
                              chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
PY
expect 1 "serpentine default step" -- "$PB" rrt "$T/serpentine.png" start 500.5,15.5 goal 500.5,985.5 --max-iterations 10 --json
python3 - "$T/out" <<'PY' || fail "serpentine default step: $(cat "$T/out")"
import json, sys
r = json.load(open(sys.argv[1]))
assert abs(r["default_step"] - 30 * 2 / 3) < 1e-9, r["default_step"]
assert r["goal_radius"] == r["default_step"], r["goal_radius"]
assert r["default_step_rule"].startswith("2/3 of the typical corridor width (30 px)"), r["default_step_rule"]
PY
for m in room1.png maze.png forest.png; do
    expect 1 "$m default step" -- "$PB" rrt "maps/$m" --max-iterations 1 --json
    python3 - "$T/out" <<'PY' || fail "$m default step: $(cat "$T/out")"
import json, sys
r = json.load(open(sys.argv[1]))
w, h = (500, 400) if "room1" in r["map"] else (1000, 1000)
assert r["default_step"] == 0.02 * (w * w + h * h) ** 0.5, r["default_step"]
assert r["default_step_rule"].startswith("2% of the map's diagonal"), r["default_step_rule"]
PY
done
expect 1 "summary names the step's rule" -- "$PB" rrt "$T/serpentine.png" start 500.5,15.5 goal 500.5,985.5 --max-iterations 10
grep -q "step        20 by default: 2/3 of the typical corridor width" "$T/out" || fail "summary: $(cat "$T/out")"

# ---- bad map files: one line naming the file and the key, exit 2 ----
printf 'P5\n2 2\n255\n\376\376\376\376' >"$T/ok.pgm"
good='image: ok.pgm\nresolution: 0.1\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\n'
bad_map() { # WHAT PATTERN YAML_TEXT
    printf "$3" >"$T/bad.yaml"
    bad "$1" "bad\.yaml.*$2" -- rrt "$T/bad.yaml" start 0.05,0.05 goal 0.15,0.15
}
bad_map "missing image" "key 'image'.*nowhere.pgm.*no such file" "$(printf "$good" | sed 's/ok.pgm/nowhere.pgm/')"
bad_map "negative resolution" ":2: key 'resolution'" "$(printf "$good" | sed 's/0.1$/-0.1/')"
bad_map "zero resolution" "key 'resolution'" "$(printf "$good" | sed 's/resolution: 0.1/resolution: 0/')"
bad_map "threshold above 1" "key 'occupied_thresh'.*\[0, 1\]" "$(printf "$good" | sed 's/0.65/1.65/')"
bad_map "occupied below free" "key 'occupied_thresh'.*below free_thresh" "$(printf "$good" | sed 's/0.65/0.1/')"
bad_map "unknown mode" "key 'mode'.*trinary, scale or raw" "${good}mode: fuzzy\n"
bad_map "missing key" "key 'negate' is missing" "$(printf "$good" | grep -v negate)"
bad_map "malformed YAML" "malformed YAML" 'image: [ok.pgm\nresolution: 0.1\n'
printf "$good" | sed 's/0.196/0.0/' >"$T/none.yaml"
bad "no free cell" "the map has no free cell: check its free_thresh" -- rrt "$T/none.yaml" start 0.05,0.05 goal 0.15,0.15
bad "bad --free-threshold" "free_threshold.*\[0, 1\]" -- rrt maps/office.yaml --free-threshold 2
bad "bad --origin" "origin.*X,Y" -- rrt maps/room1.png --origin 1
bad "bad --resolution" "resolution.*> 0" -- rrt maps/room1.png --resolution -1

finish
