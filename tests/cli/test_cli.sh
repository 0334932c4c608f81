#!/bin/sh
# End-to-end tests of the planbench command: outputs, exit codes and every bad-input case.
# Usage: test_cli.sh PLANBENCH SOURCE_ROOT
. "$(dirname "$0")/lib.sh"

# bad CASE PATTERN -- args...: exit 2, exactly one stderr line matching PATTERN, no output files.
bad() {
    what=$1; pattern=$2; shift 3
    rm -f "$T/p.csv" "$T/p.png"
    expect 2 "$what" -- "$PB" "$@" --save-path "$T/p.csv" --save-image "$T/p.png"
    lines=$(wc -l <"$T/err")
    [ "$lines" -eq 1 ] || fail "$what: $lines stderr lines, expected 1: $(cat "$T/err")"
    grep -qiE -- "$pattern" "$T/err" || fail "$what: stderr does not mention '$pattern': $(cat "$T/err")"
    [ ! -e "$T/p.csv" ] && [ ! -e "$T/p.png" ] || fail "$what: an output file was created"
    leftovers=$(ls "$T" | grep -c '\.tmp\.' || true)
    [ "$leftovers" -eq 0 ] || fail "$what: temporary files left behind"
}

# ---- help, version, list ----
expect 0 "--help" -- "$PB" --help
grep -q "planbench <planner> <map>" "$T/out" || fail "--help lacks the usage line"
expect 0 "--version" -- "$PB" --version
grep -qE '^planbench [0-9]+\.[0-9]+\.[0-9]+$' "$T/out" || fail "--version: $(cat "$T/out")"
expect 0 "list" -- "$PB" list
for word in image2d rrt step_size goal_bias room1.png maze.png forest.png narrow.png; do
    grep -q "$word" "$T/out" || fail "list does not mention $word"
done
# run elsewhere, with a maps/ folder of its own: the bundled maps are listed as such, the
# folder's apart, and a file that is not a readable map is counted, not listed (issue 22)
mkdir -p "$T/elsewhere/maps"
cp maps/room1.png "$T/elsewhere/maps/mine.png"
echo "not a png" >"$T/elsewhere/maps/broken.png"
(cd "$T/elsewhere" && env -u PLANBENCH_MAPS "$PB" list) >"$T/out" 2>"$T/err" || fail "list elsewhere: exit $?"
sed -n '/^Bundled maps/,/^$/p' "$T/out" >"$T/bundled"
sed -n '/^Maps in the current folder (maps):/,/^$/p' "$T/out" >"$T/here"
grep -q "room1.png" "$T/bundled" && ! grep -q "mine.png" "$T/bundled" || fail "bundled maps: $(cat "$T/bundled")"
grep -q "mine.png" "$T/here" || fail "the current folder's maps: $(cat "$T/out")"
! grep -q "broken.png" "$T/out" && grep -q "1 other .png or .yaml file is not readable as a map" "$T/here" ||
    fail "an unreadable map is listed: $(cat "$T/out")"
expect 2 "no arguments" -- "$PB"

# ---- the main job ----
expect 0 "rrt on room1" -- "$PB" rrt maps/room1.png
grep -q "exact" "$T/out" || fail "summary lacks the outcome"
grep -q "iterations" "$T/out" || fail "summary lacks iterations"

# ---- JSON output, re-checked independently ----
check_json() { # FILE MAP: the path starts at start, ends at goal, cost = length, fields present
    python3 - "$1" <<'PY' || fail "JSON check of $1"
import json, math, sys
text = open(sys.argv[1]).read()
r = json.loads(text)
assert text.count("\n") == 1, "more than one line"
for k in ["planner", "engine", "map", "seed", "start", "goal", "outcome", "cost", "time_s", "time_to_first_s",
          "iterations", "nodes", "n_feasible", "n_visible", "path"]:
    assert k in r, "missing " + k
assert r["outcome"] == "exact", r["outcome"]
p = r["path"]
assert p[0] == r["start"] and p[-1] == r["goal"], "path endpoints"
length = sum(math.dist(a, b) for a, b in zip(p, p[1:]))
assert abs(length - r["cost"]) <= 1e-9 * length, (length, r["cost"])
assert r["n_visible"] > 0 and r["iterations"] > 0 and r["nodes"] >= len(p)
assert 0 <= r["time_to_first_s"] <= r["time_s"]
PY
}
expect 0 "--json" -- "$PB" rrt maps/room1.png --json --seed 5
cp "$T/out" "$T/a.json"
check_json "$T/a.json"
expect 0 "--json again" -- "$PB" rrt maps/room1.png --json --seed 5
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(a['path']!=b['path'] or a['iterations']!=b['iterations'])" "$T/a.json" "$T/out" ||
    fail "same seed, different path"
expect 0 "--json other seed" -- "$PB" rrt maps/room1.png --json --seed 6
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(a['path']==b['path'])" "$T/a.json" "$T/out" ||
    fail "different seeds gave the same path"

# every edge re-checked pixel by pixel against the map, independently of planbench
CHECK_PATH="python3 $(dirname "$0")/check_path.py"
for map in room1 maze forest narrow; do
    expect 0 "rrt on $map" -- "$PB" rrt "maps/$map.png" --json --seed 3 --step 40
    $CHECK_PATH "$T/out" >/dev/null || fail "path on $map does not re-validate"
done
# the roadmap planners' last search fits in a time budget (issue 22: lazyprm took 12.5 s of 10);
# not under the sanitizers, whose slowdown is not the planners' (freeing a 100k-vertex roadmap
# alone took a tenth of the budget there)
for planner in lazyprm prm; do
    [ -z "${ASAN_OPTIONS:-}" ] || { echo "note: the budget bound is not checked under sanitizers"; break; }
    expect 0 "$planner --stop budget --time-limit 2" -- "$PB" "$planner" maps/forest.png --stop budget --time-limit 2 --json
    python3 -c "
import json, sys; r = json.load(open(sys.argv[1]))
sys.exit(not (r['outcome'] == 'exact' and r['time_s'] <= 2 * 1.08))" "$T/out" ||
        fail "$planner: a 2 s budget overshot: $(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['time_s'])" "$T/out") s"
done

# every subcommand's --help prints its usage and exits 0 (issue 22: view's exited 2)
for sub in view serve simulate bench scenario; do
    expect 0 "$sub --help" -- "$PB" "$sub" --help
    grep -qi "usage" "$T/out" || fail "$sub --help: no usage on standard output"
done

# Ctrl-C mid-solve (issue 22) ends it as a spent budget does: the best path so far is printed
# (re-checked here), saved, and the exit status is that of a found path; the record says so
# (--foreground: timeout otherwise signals the whole process group as well, and a second signal
# quits at once by design)
timeout --foreground --preserve-status -s INT 1 "$PB" rrtstar maps/forest.png --json --stop budget --time-limit 60 \
    --save-path "$T/interrupted.csv" >"$T/interrupted.json" 2>"$T/interrupted.err"
rc=$?
[ $rc -eq 0 ] || fail "SIGINT mid-solve: exit $rc ($(cat "$T/interrupted.err"))"
python3 -c "
import json, sys; r = json.load(open(sys.argv[1]))
sys.exit(not (r.get('interrupted') is True and r['outcome'] == 'exact' and r['time_s'] < 10 and len(r['path']) >= 2))" \
    "$T/interrupted.json" || fail "SIGINT mid-solve: no interrupted exact path: $(head -c 200 "$T/interrupted.json")"
$CHECK_PATH "$T/interrupted.json" >/dev/null || fail "SIGINT mid-solve: the path does not re-validate"
[ "$(wc -l <"$T/interrupted.csv")" -ge 3 ] || fail "SIGINT mid-solve: --save-path wrote no path"
grep -q "interrupted" "$T/interrupted.err" || fail "SIGINT mid-solve: stderr does not say it was interrupted"
timeout --foreground --preserve-status -s TERM 1 "$PB" rrtstar maps/forest.png --json --stop budget --time-limit 60 >"$T/term.json" 2>/dev/null ||
    fail "SIGTERM mid-solve: exit $?"
grep -q '"interrupted": true' "$T/term.json" || fail "SIGTERM mid-solve: no record"

# edge_check=certified: every point of every continuous edge on a free pixel, for every
# planner (a Bresenham line may cut an occupied pixel's corner; these may not)
for planner in rrt birrt rrtstar informedrrt prm lazyprm bitstar rrdt; do
    expect 0 "$planner certified on forest" -- "$PB" "$planner" maps/forest.png --json --seed 5 \
        --engine-option edge_check=certified --max-iterations 20000
    grep -q '"edge_check": "certified"' "$T/out" || fail "$planner: the JSON does not say the edges are certified"
    $CHECK_PATH "$T/out" >/dev/null || fail "$planner certified path on forest does not re-validate"
done
expect 2 "edge_check=maybe" -- "$PB" rrt maps/room1.png --engine-option edge_check=maybe
grep -q "edge_check: expected 'pixel_line' or 'certified'" "$T/err" || fail "edge_check=maybe: no clear message"

# --simplify: never longer, endpoints kept, every new edge free
expect 0 "--simplify" -- "$PB" rrt maps/room1.png --json --seed 4 --simplify
$CHECK_PATH "$T/out" >/dev/null || fail "simplified path does not re-validate"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(not r['cost'] <= r['cost_before_simplify'])" "$T/out" ||
    fail "--simplify made the path longer"

# positional start/goal and --start/--goal agree; -q prints nothing
expect 0 "positional start goal" -- "$PB" rrt maps/forest.png start 20.5,20.5 goal 979.5,979.5 --json --step 40
cp "$T/out" "$T/b.json"
check_json "$T/b.json"
expect 0 "--start --goal" -- "$PB" rrt maps/forest.png --start 20.5,20.5 --goal=979.5,979.5 --json --epsilon 40
cmp -s "$T/out" "$T/b.json" || python3 -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); sys.exit(a['path']!=b['path'])" "$T/b.json" "$T/out" ||
    fail "--start/--goal differ from positional start/goal"
expect 0 "-q" -- "$PB" rrt maps/room1.png -q
[ ! -s "$T/out" ] || fail "-q printed: $(head -c 200 "$T/out")"

# ---- output files ----
expect 0 "save files" -- "$PB" rrt maps/room1.png --seed 2 --json --save-path "$T/path.csv" --save-image "$T/tree.png"
python3 - "$T/out" "$T/path.csv" "$T/tree.png" <<'PY' || fail "saved files"
import json, struct, sys
r = json.load(open(sys.argv[1]))
rows = [list(map(float, l.split(","))) for l in open(sys.argv[2]).read().split("\n") if l]
assert rows == r["path"], "CSV differs from the JSON path"
png = open(sys.argv[3], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", png[16:24])
assert (w, h) == (500, 400) or (w > 0 and h > 0), (w, h)
PY
# outputs are checked before planning (issue 22): nothing is printed, the message names the path
for opt in --save-image --save-path; do
    expect 2 "$opt in a missing folder" -- "$PB" rrt maps/room1.png --json $opt /nonexistent/x.png
    [ ! -s "$T/out" ] || fail "$opt in a missing folder: planned first: $(head -c 100 "$T/out")"
    grep -q -- "$opt /nonexistent/x.png: cannot write in folder /nonexistent" "$T/err" ||
        fail "$opt in a missing folder: $(cat "$T/err")"
done
# --save-image on a roadmap (issue 22): memory bounded (the picture keeps at most --draw-tree
# edges, 20000 by default, however large the roadmap: here ~10000 iterations, ~250k edges) and
# the picture readable: background and obstacles still show, the path is drawn over the tree
python3 - "$PB" "$T" "$(dirname "$0")" <<'PY' || fail "--save-image on prm: memory or picture"
import os, subprocess, sys
pb, tmp = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
from check_path import decode_png

def peak_mb(*extra):
    cmd = [pb, "prm", "maps/forest.png", "--max-iterations", "10000", "--stop", "budget", "-q", *extra]
    child = subprocess.Popen(cmd)
    _, status, usage = os.wait4(child.pid, 0)
    assert status == 0, (cmd, status)
    return usage.ru_maxrss / 1024.0

plain = peak_mb()
drawn = peak_mb("--save-image", tmp + "/prm.png")
assert drawn - plain < 30, "--save-image took %.0f MB more than the plan alone (%.0f MB)" % (drawn - plain, plain)
peak_mb("--save-image", tmp + "/prm-path.png", "--draw-tree", "path")
counts = []
for name in ("prm.png", "prm-path.png"):
    width, height, channels, rows = decode_png(tmp + "/" + name)
    pixels = [tuple(row[x * channels:x * channels + 3]) for row in rows for x in range(width)]
    counts.append({k: sum(1 for p in pixels if p == v) for k, v in
                   (("tree", (120, 160, 230)), ("path", (220, 20, 20)), ("white", (255, 255, 255)))})
    counts[-1]["total"] = len(pixels)
tree, path_only = counts
assert tree["tree"] > 0.1 * tree["total"], tree           # the roadmap shows
assert tree["white"] > 0.1 * tree["total"], tree          # and is not a solid field
assert tree["path"] > 1000 and path_only["path"] > 1000, counts
assert path_only["tree"] == 0 and path_only["white"] > 0.6 * path_only["total"], path_only
PY
# --save-image of a map much larger than a screen (issue 22): the markers and the path grow with
# it (a 3000-pixel map: markers of radius 12, a path 6 pixels wide), so they still show when the
# picture is looked at scaled down to a screen
python3 - "$PB" "$T" "$(dirname "$0")" <<'PY' || fail "--save-image of a 3000-pixel map: markers and path"
import math, struct, subprocess, sys, zlib
pb, tmp = sys.argv[1], sys.argv[2]
sys.path.insert(0, sys.argv[3])
from check_path import decode_png
width, height = 3000, 300
rows = b"".join(b"\x00" + (b"\xff" * 1400 + b"\x00" * 40 + b"\xff" * 1560 if 40 <= y < 200 else b"\xff" * width)
                for y in range(height))
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xffffffff)
with open(tmp + "/wide.png", "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
start, goal = (100.5, 150.5), (2900.5, 150.5)
subprocess.run([pb, "rrt", tmp + "/wide.png", "start", "%g,%g" % start, "goal", "%g,%g" % goal, "--seed", "1",
                "-q", "--draw-tree", "path", "--save-image", tmp + "/wide-out.png", "--save-path", tmp + "/wide.csv"],
               check=True)
w, h, channels, picture = decode_png(tmp + "/wide-out.png")
assert (w, h) == (width, height), (w, h)
def colour(x, y):
    return tuple(picture[y][x * channels:x * channels + 3])
for (cx, cy), rgb in ((start, (30, 170, 60)), (goal, (30, 60, 220))):
    inside = [(x, y) for y in range(int(cy) - 12, int(cy) + 13) for x in range(int(cx) - 12, int(cx) + 13)
              if math.hypot(x - math.floor(cx), y - math.floor(cy)) <= 11.5]
    wrong = [p for p in inside if colour(*p) != rgb]
    assert not wrong, ("marker", rgb, len(wrong), len(inside))
path = [tuple(map(float, line.split(","))) for line in open(tmp + "/wide.csv")]
length = sum(math.dist(a, b) for a, b in zip(path, path[1:]))
red = sum(1 for y in range(h) for x in range(w) if colour(x, y) == (220, 20, 20))
assert red >= 4.5 * length, ("path pixels", red, length)
PY
bad "--draw-tree" "draw-tree some: expected all, path or a number" -- rrt maps/room1.png --draw-tree some
expect 2 "--draw-tree without --save-image" -- "$PB" rrt maps/room1.png --draw-tree all
[ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "--draw-tree needs --save-image" "$T/err" && [ ! -s "$T/out" ] ||
    fail "--draw-tree without --save-image: $(cat "$T/out" "$T/err")"
# a picture written by --save-image has no default start and goal of its own
"$PB" rrt maps/room1.png -q --save-image "$T/tree2.png" || fail "--save-image"
bad "map without defaults" "tree2.png has no default start and goal" -- rrt "$T/tree2.png"
# a URDF given as the map says how to plan with it (issue 22)
bad "URDF as a map" "pbarm6.urdf: a URDF file is a robot, not a space to plan in: .* plan with 'planbench rrt WORLD.xml'" \
    -- rrt robots/pbarm6.urdf
# the query's form follows the engine: four angles for the 4-D arm on a map (issue 22)
bad "4-D arm without defaults" "has no default start and goal for engine 'stickarm4d': give them, as in 'start Q1,Q2,Q3,Q4 goal Q1,Q2,Q3,Q4'" \
    -- rrt maps/room1.png --engine 4d
expect 0 "map without defaults, start and goal given" -- "$PB" rrt "$T/tree2.png" start 60,60 goal 61,61

# ---- budgets: exit 1 ----
expect 1 "iteration budget" -- "$PB" rrt maps/maze.png --max-iterations 3 --json
grep -q '"outcome": "no_solution"' "$T/out" || fail "budget outcome: $(head -c 200 "$T/out")"
expect 1 "node budget" -- "$PB" rrt maps/maze.png --max-nodes 5 --json
grep -q '"outcome": "no_solution"' "$T/out" || fail "node budget outcome"
expect 1 "time budget" -- "$PB" rrt maps/maze.png --time-limit 0.0005 --step 5 --json
grep -q '"outcome": "timeout"' "$T/out" || fail "time budget outcome: $(head -c 200 "$T/out")"
expect 1 "approximate" -- "$PB" rrt maps/maze.png --max-iterations 50 --approximate --json --save-path "$T/approx.csv"
grep -q '"outcome": "approximate"' "$T/out" || fail "approximate outcome"
[ -s "$T/approx.csv" ] || fail "approximate path not saved"

# ---- bad input: exit 2, one line naming the problem, nothing written ----
printf 'not a png\n' >"$T/text.png"
mkfifo "$T/fifo.png"
head -c 300 maps/room1.png >"$T/truncated.png"
python3 - maps/room1.png "$T/corrupt.png" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
i = data.index(b"IDAT") + 40
for k in range(i, min(i + 64, len(data) - 20)):
    data[k] ^= 0x5A
open(sys.argv[2], "wb").write(bytes(data))
PY
bad "missing file" "nope.png.*(no such|cannot open)" -- rrt "$T/nope.png"
bad "not a PNG" "text.png.*not a PNG" -- rrt "$T/text.png"
bad "a subnormal step" "--step: '1e-308' is out of the range of a double \\(too close to zero" -- rrt maps/room1.png --step 1e-308
bad "a map that is a FIFO" "not a regular file" -- rrt "$T/fifo.png"
bad "/dev/stdin as a map" "/dev/stdin: cannot open the file: not a regular file" -- rrt /dev/stdin --engine image2d
bad "truncated PNG" "truncated.png.*(truncated|not a valid PNG)" -- rrt "$T/truncated.png"
bad "corrupt PNG" "corrupt.png.*not a valid PNG" -- rrt "$T/corrupt.png"
bad "unknown planner" "unknown planner 'rrtx'" -- rrtx maps/room1.png
bad "unknown engine" "unknown engine 'warp'" -- rrt maps/room1.png --engine warp
bad "unknown option" "unknown option '--frobnicate'" -- rrt maps/room1.png --frobnicate
bad "bad seed" "--seed.*'abc'" -- rrt maps/room1.png --seed abc
bad "negative seed" "--seed.*'-3'" -- rrt maps/room1.png --seed=-3
bad "bad step" "--step.*'x1'" -- rrt maps/room1.png --step x1
bad "negative step" "--step.*> 0" -- rrt maps/room1.png --step -5
bad "zero step" "--step.*> 0" -- rrt maps/room1.png --step 0
bad "zero epsilon" "--step.*> 0" -- rrt maps/room1.png --epsilon 0
bad "bad goal radius" "--goal-radius" -- rrt maps/room1.png --goal-radius -1
bad "bad goal bias" "--goal-bias" -- rrt maps/room1.png --goal-bias 1.5
bad "bad time limit" "--time-limit" -- rrt maps/room1.png --time-limit soon
bad "bad iterations" "--max-iterations" -- rrt maps/room1.png --max-iterations 1e3
bad "malformed start" "start: expected 2" -- rrt maps/room1.png start 10,b goal 20,20
bad "start of wrong dimension" "start: expected 2 coordinates.*got 3" -- rrt maps/room1.png start 10,10,1 goal 20,20
bad "start outside the map" "start \\(600, 10\\) is outside the map" -- rrt maps/room1.png start 600,10 goal 20,20
bad "negative start" "start \\(-1, 10\\) is outside the map" -- rrt maps/room1.png start -1,10 goal 20,20
bad "start on an obstacle" "start \\(0.5, 0.5\\) is on an obstacle" -- rrt maps/room1.png start 0.5,0.5
bad "goal on an obstacle" "goal \\(0.5, 0.5\\) is on an obstacle" -- rrt maps/room1.png goal 0.5,0.5
bad "unknown parameter" "no parameter 'bogus'" -- rrt maps/room1.png --param bogus=1
bad "parameter out of range" "goal_bias.*\\[0, 1\\]" -- rrt maps/room1.png --param goal_bias=2
bad "parameter not a number" "step_size.*'fast'" -- rrt maps/room1.png --param step_size=fast
bad "malformed --param" "NAME=VALUE" -- rrt maps/room1.png --param step_size
bad "missing value" "--seed needs a value" -- rrt maps/room1.png --seed
bad "no map" "no map given" -- rrt
bad "extra argument" "unexpected argument" -- rrt maps/room1.png maps/maze.png
bad "unknown engine option" "no option 'zoom'" -- rrt maps/room1.png --engine-option zoom=2

# an invalid start with --json still prints one JSON object naming the outcome
expect 2 "json invalid start" -- "$PB" rrt maps/room1.png start 0.5,0.5 --json
grep -q '"outcome": "invalid_start"' "$T/out" || fail "--json invalid start: $(cat "$T/out")"

# an output file that cannot be written: exit 2, no temporary file left
expect 2 "unwritable output" -- "$PB" rrt maps/room1.png -q --save-path "$T/no/such/dir/p.csv"
grep -q "p.csv" "$T/err" || fail "unwritable output not named: $(cat "$T/err")"
# an existing output is replaced whole, never half-written
echo "old" >"$T/keep.csv"
expect 0 "overwrite" -- "$PB" rrt maps/room1.png -q --save-path "$T/keep.csv"
grep -q "old" "$T/keep.csv" && fail "output not replaced"
# a symbolic link stays a link: its target is replaced (issue 15), also a dangling one
mkdir -p "$T/real"
echo "old" >"$T/real/target.csv"
ln -s real/target.csv "$T/link.csv"
ln -s real/later.csv "$T/dangling.csv"
expect 0 "write through a link" -- "$PB" rrt maps/room1.png -q --save-path "$T/link.csv"
[ -L "$T/link.csv" ] || fail "the symbolic link was replaced by a file"
grep -q "old" "$T/real/target.csv" && fail "the link's target was not written"
expect 0 "write through a dangling link" -- "$PB" rrt maps/room1.png -q --save-path "$T/dangling.csv"
[ -L "$T/dangling.csv" ] && [ -s "$T/real/later.csv" ] || fail "a dangling link's target was not created"
ls "$T" "$T/real" | grep -q "\.tmp\." && fail "a temporary file was left behind"

echo "cli: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
