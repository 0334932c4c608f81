#!/bin/sh
# planbench bench end to end: a small benchmark (2 problems x 2 planners x 3 runs) with every
# output checked, runs that crash, hang and eat memory recorded as failures while the
# benchmark goes on, resume after the process is killed mid-way, and bad scripts.
# Arguments: the planbench binary, the source root, the folder holding the test plugins.
set -u
PB=$1
ROOT=$2
PLUGINS=$3
T=$(mktemp -d)
# Under sanitizers: fontconfig's caches are not leaks, and a crashing run must die of its
# signal (as it does in a normal build) rather than be turned into exit status 1 by ASan.
export LSAN_OPTIONS="suppressions=$ROOT/tests/cli/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="handle_segv=0:handle_abort=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
sanitized=no
if command -v nm >/dev/null 2>&1 && nm -D "$PB" 2>/dev/null | grep -q __asan_init; then sanitized=yes; fi
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
count_lines() { wc -l <"$1" | tr -d ' '; }
# wait_lines FILE N: wait (at most 10 s) until FILE has N lines
wait_lines() {
    i=0
    while [ $i -lt 200 ]; do
        [ -f "$1" ] && [ "$(count_lines "$1")" -ge "$2" ] && return 0
        sleep 0.05
        i=$((i + 1))
    done
}
is_png() { [ "$(od -An -c -N4 "$1" 2>/dev/null | tr -d ' ')" = "211PNG" ] && [ "$(wc -c <"$1")" -gt 2000 ]; }
is_pdf() { [ "$(head -c 5 "$1" 2>/dev/null)" = "%PDF-" ] && tail -c 1024 "$1" | grep -q '%%EOF'; }
# an SVG document that parses, with drawing in it (python3 when present, else the root element)
is_svg() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
assert r.tag == "{http://www.w3.org/2000/svg}svg" and len(list(r.iter())) > 20' "$1" 2>/dev/null
    else
        grep -q '<svg' "$1" 2>/dev/null
    fi
}
# FIGURE.png, .svg and .pdf all written and well formed
is_figure() { is_png "$1.png" && is_svg "$1.svg" && is_pdf "$1.pdf"; }

# A second planner: an anytime one when registered, so cost-over-time and progress rows exist.
P2=rrt
P2_PARAMS="step_size = 15"
if "$PB" list | grep -q '^  rrtstar'; then P2=rrtstar; P2_PARAMS=""; fi

cat >"$T/small.ini" <<EOF2
[benchmark]
name = small
runs = 3
time_limit = 0.3
memory_limit = 1024
stop = auto
seed = 5
[problem.room1]
map = $ROOT/maps/room1.png
[problem.cosines]
engine = blackbox
option.bounds = -6:6,-6:6
option.expr = cos(x0)*sin(x1) > -0.22
start = -5,-5
goal = 5,-5
goal_radius = 0.5
[planner.rrt]
label = RRT
[planner.second]
planner = $P2
label = second
$P2_PARAMS
EOF2

# ---- 1. the small benchmark, every output ----
"$PB" bench "$T/small.ini" -j 2 -q --out "$T/out" --csv "$T/r.csv" --json "$T/r.json" \
    --ompl-log "$T/r.log" --plot "$T/new/plots" >"$T/table.md" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] || { fail "small benchmark exit $rc"; cat "$T/err"; }
rows=$(grep -c '^| \(room1\|cosines\) |' "$T/table.md")
[ "$rows" -eq 4 ] && ok "table has 4 rows" || fail "table rows: $rows"
grep -q 'time to first solution' "$T/table.md" || fail "table header"
grep -q '\*\*' "$T/table.md" && ok "best values in bold" || fail "no bold in the table"
[ "$(count_lines "$T/r.csv")" -eq 13 ] && ok "CSV: header + 12 runs" || fail "CSV lines $(count_lines "$T/r.csv")"
[ "$(count_lines "$T/out/runs.jsonl")" -eq 13 ] && ok "runs.jsonl: a header and 12 runs" || fail "runs.jsonl lines"
# every record says how its edges were checked: room1 a pixel line, the expression its own kind
[ "$(grep -c '"problem": "room1".*"edge_check": "pixel_line"' "$T/out/runs.jsonl")" -eq 6 ] &&
    [ "$(grep -c '"problem": "cosines".*"edge_check": "\(sampled", "edge_resolution\|certified", "clearance_floor\)": [0-9]' "$T/out/runs.jsonl")" -eq 6 ] &&
    ok "records say how edges were checked" || fail "edge_check missing from runs.jsonl: $(head -c 600 "$T/out/runs.jsonl")"
head -1 "$T/r.csv" | grep -q '^problem,planner,label,run,seed,status,' || fail "CSV header"
[ "$(grep -c ',ok,ok,exact,1,' "$T/r.csv")" -eq 12 ] && ok "every run solved" || fail "not every run solved: $(cat "$T/r.csv")"
if command -v python3 >/dev/null 2>&1; then
    python3 - "$T/r.json" <<'EOF2' && ok "JSON parses, 12 runs, 4 summaries" || fail "JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["benchmark"]["runs"] == 3 and len(d["runs"]) == 12, d["benchmark"]
assert len(d["summaries"]) == 4
for s in d["summaries"]:
    assert s["runs"] == 3 and s["time_to_first_s"]["n"] == s["solved"]
    t = s["time_to_first_s"]
    assert s["solved"] == 3 and t["q1"] <= t["median"] <= t["q3"]
assert sorted({r["seed"] for r in d["runs"]}) == [5, 6, 7]
EOF2
fi
for p in room1 cosines; do
    [ -s "$T/r-$p.log" ] || fail "OMPL log for $p"
    grep -q '^Experiment small_'"$p"'$' "$T/r-$p.log" || fail "OMPL experiment line for $p"
    for f in time cost success; do
        is_figure "$T/new/plots/$p-$f" || fail "plot $p-$f.png, .svg or .pdf missing or malformed"
    done
done
if [ "$P2" = rrtstar ]; then is_figure "$T/new/plots/room1-cost-over-time" || fail "cost-over-time plot"; fi
ok "OMPL logs and plots (PNG, SVG, PDF) written"
if command -v ompl_benchmark_statistics >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    (cd "$T" && ompl_benchmark_statistics r-room1.log r-cosines.log -d "$T/r.db" >/dev/null 2>&1) || fail "ompl_benchmark_statistics failed"
    python3 - "$T/r.db" "$P2" <<'EOF2' && ok "ompl_benchmark_statistics database" || fail "database contents"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
one = lambda q: c.execute(q).fetchone()[0]
assert one("select count(*) from experiments") == 2
assert one("select count(*) from plannerConfigs") == 2
assert one("select count(*) from runs") == 12
assert one("select count(*) from runs where solved = 1 and status = 6") == 12
assert one("select count(*) from runs where time > 0 and time_to_first_solution <= time") == 12
assert one("select runcount from experiments limit 1") == 3
progress = one("select count(*) from progress")
assert (progress > 0) == (sys.argv[2] == "rrtstar"), progress
assert one("select count(*) from bestPlannerConfigs") >= 1
EOF2
else
    echo "skip: ompl_benchmark_statistics (Debian package ompl-demos) is not installed"
fi

# ---- plots of runs that stop at the first solution: no cost over time (issue 22) ----
sed -e 's/^stop = auto/stop = first/' -e 's/^runs = 3/runs = 2/' -e '/^\[problem.cosines\]/,/^goal_radius/d' \
    "$T/small.ini" >"$T/first.ini"
"$PB" bench "$T/first.ini" -j 2 -q --out "$T/first-out" --plot "$T/first-plots/new/folder" >/dev/null 2>"$T/err" ||
    { fail "stop = first benchmark"; cat "$T/err"; }
is_figure "$T/first-plots/new/folder/room1-time" && is_figure "$T/first-plots/new/folder/room1-cost" &&
    ok "--plot creates missing folders" || fail "stop = first plots: $(ls -R "$T/first-plots")"
[ ! -e "$T/first-plots/new/folder/room1-cost-over-time.png" ] && ok "no cost over time for stop = first" ||
    fail "a cost-over-time figure for runs that stop at their first solution"

# ---- 2. failures are recorded and the benchmark goes on ----
cat >"$T/fail.ini" <<EOF2
[benchmark]
name = failing
runs = 2
time_limit = 4
memory_limit = 200
stop = first
[problem.fine]
engine = blackbox
option.bounds = 0:1,0:1
option.expr = x0 >= 0
start = 0.1,0.1
goal = 0.9,0.9
[problem.crash]
engine = blackbox
option.plugin = $PLUGINS/libbench_plugin_crash.so
start = 0.1,0.1
goal = 0.9,0.9
goal_radius = 0.001
[problem.hang]
engine = blackbox
option.plugin = $PLUGINS/libbench_plugin_hang.so
start = 0.1,0.1
goal = 0.9,0.9
goal_radius = 0.001
[problem.hog]
engine = blackbox
option.plugin = $PLUGINS/libbench_plugin_hog.so
start = 0.1,0.1
goal = 0.9,0.9
goal_radius = 0.001
[planner.rrt]
step_size = 0.001
EOF2
start=$(date +%s)
"$PB" bench "$T/fail.ini" -j 2 -q --out "$T/fout" --csv "$T/f.csv" >"$T/f.md" 2>"$T/ferr"
rc=$?
elapsed=$(( $(date +%s) - start ))
[ $rc -eq 0 ] || { fail "failing benchmark exit $rc"; cat "$T/ferr"; }
[ "$(count_lines "$T/f.csv")" -eq 9 ] && ok "failing benchmark: all 8 runs recorded" || fail "f.csv: $(cat "$T/f.csv")"
[ "$(grep -c '^fine,.*,ok,ok,exact,' "$T/f.csv")" -eq 2 ] || fail "fine runs: $(grep '^fine' "$T/f.csv")"
[ "$(grep -c '^crash,.*,crashed,crashed: SIGSEGV,' "$T/f.csv")" -eq 2 ] && ok "crash recorded as crashed: SIGSEGV" || fail "crash runs: $(grep '^crash' "$T/f.csv")"
[ "$(grep -c '^hang,.*,killed: time,' "$T/f.csv")" -eq 2 ] && ok "hang recorded as killed: time" || fail "hang runs: $(grep '^hang' "$T/f.csv")"
if [ $sanitized = yes ]; then
    # no RLIMIT_AS under AddressSanitizer; the resident-memory watch may not see the hog in time
    [ "$(grep -c '^hog,.*,killed: \(memory\|time\),' "$T/f.csv")" -eq 2 ] && ok "memory hog killed (sanitized build)" || fail "hog runs: $(grep '^hog' "$T/f.csv")"
else
    [ "$(grep -c '^hog,.*,killed: memory,' "$T/f.csv")" -eq 2 ] && ok "memory hog recorded as killed: memory" || fail "hog runs: $(grep '^hog' "$T/f.csv")"
fi
grep -q '0/2 (2 failed)' "$T/f.md" || fail "table shows failures: $(cat "$T/f.md")"
[ $elapsed -lt 30 ] || fail "the failing benchmark took ${elapsed}s"

# ---- 3. resume after the process is killed mid-way ----
cat >"$T/long.ini" <<EOF2
[benchmark]
name = long
runs = 24
time_limit = 0.25
stop = budget
[problem.box]
engine = blackbox
option.bounds = 0:1,0:1
option.expr = x0 >= 0
start = 0.1,0.1
goal = 0.9,0.9
; an anytime planner uses its whole 0.25 s, so the benchmark lasts long enough to be killed
[planner.rrtstar]
EOF2
"$PB" bench "$T/long.ini" -j 2 -q --out "$T/lout" >/dev/null 2>&1 &
pid=$!
wait_lines "$T/lout/runs.jsonl" 5
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
before=$(count_lines "$T/lout/runs.jsonl") # the header line and the runs
if [ "$before" -ge 5 ] && [ "$before" -lt 25 ]; then ok "interrupted after $((before - 1)) of 24 runs"; else fail "interrupted after $before lines"; fi
cp "$T/lout/runs.jsonl" "$T/before.jsonl"
"$PB" bench "$T/long.ini" -j 2 --out "$T/lout" --resume --csv "$T/l.csv" >/dev/null 2>"$T/lerr" || fail "resume failed: $(cat "$T/lerr")"
after=$(count_lines "$T/lout/runs.jsonl")
[ "$after" -eq 25 ] && ok "resume completed 24 runs" || fail "after resume: $after lines"
head -n "$before" "$T/lout/runs.jsonl" | cmp -s - "$T/before.jsonl" || fail "finished runs were rewritten"
grep -q "$((before - 1)) runs resumed" "$T/lerr" || fail "resume message: $(cat "$T/lerr")"
dups=$(cut -d, -f4 "$T/l.csv" | sort | uniq -d | wc -l)
[ "$(count_lines "$T/l.csv")" -eq 25 ] && [ "$dups" -eq 0 ] && ok "each run index exactly once" || fail "runs after resume"
# the time left after --resume is estimated from this session's runs (issue 22: it said "~0 s
# left" when the resumed runs were counted as if this session had done them); on a terminal
# (script(1)), where the progress line is redrawn after every run
if command -v script >/dev/null 2>&1; then
    mkdir -p "$T/tout" && cp "$T/before.jsonl" "$T/tout/runs.jsonl"
    script -qec "'$PB' bench '$T/long.ini' -j 2 --out '$T/tout' --resume" /dev/null >"$T/tty" 2>&1 </dev/null
    python3 - "$T/tty" "$((before - 1))" <<'PY' && ok "--resume estimates the time left from its own runs" || fail "time left after --resume: $(cat "$T/tty")"
import re, sys
resumed = int(sys.argv[2])
seen = 0
for m in re.finditer(r"(\d+)/24 runs, ([\d.]+) s elapsed, ~(\d+) s left", open(sys.argv[1], errors="replace").read()):
    done, elapsed, left = int(m[1]), float(m[2]), int(m[3])
    if done > resumed:
        expected = elapsed / (done - resumed) * (24 - done)
        # elapsed is printed to 0.05 s, left to 0.5 s
        assert abs(left - expected) <= 0.5 + 0.05 * (24 - done) / (done - resumed) + 0.01, (m[0], expected)
        seen += 1
assert seen, "no progress line with the time left"
PY
fi

# ---- 3b. Ctrl-C (issue 22): the runs in flight end as at a spent budget, their journal lines
# say "interrupted", no run starts after it, the outputs hold the runs done, exit 128 + signal;
# --resume then runs exactly the interrupted and the never-started runs. Runs of 1 s: the signal
# comes about 0.4 s into the second pair of runs, so two runs are in flight then ----
sed -e 's/^runs = 24/runs = 8/' -e 's/^time_limit = 0.25/time_limit = 1/' "$T/long.ini" >"$T/int.ini"
for sig in INT TERM; do
    rm -rf "$T/iout" "$T/i.csv"
    "$PB" bench "$T/int.ini" -j 2 -q --out "$T/iout" --csv "$T/i.csv" >/dev/null 2>"$T/ierr" &
    pid=$!
    wait_lines "$T/iout/runs.jsonl" 3
    sleep 0.4
    kill -$sig $pid
    wait $pid
    rc=$?
    want=130
    [ $sig = TERM ] && want=143
    [ $rc -eq $want ] && ok "SIG$sig: exit $rc" || fail "SIG$sig: exit $rc, expected $want: $(cat "$T/ierr")"
    grep -q "interrupted: .* runs done" "$T/ierr" || fail "SIG$sig: stderr does not say it was interrupted: $(cat "$T/ierr")"
    python3 - "$T/iout/runs.jsonl" "$T/i.csv" <<'PY' && ok "SIG$sig: journal and CSV after the interruption" || fail "SIG$sig: journal or CSV"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()[1:]]
interrupted = [r for r in lines if r.get("interrupted") is True]
done = [r for r in lines if "interrupted" not in r]
assert interrupted, "no run is marked interrupted"
assert len(done) < 8, "every run ran: %d" % len(done)
# each interrupted run ended early, as at a spent budget (1 s), with its result
assert all(r["status"] == "ok" and r["time_s"] < 1 for r in interrupted), interrupted
csv = open(sys.argv[2]).read().splitlines()
assert len(csv) == len(done) + 1, (len(csv), len(done))
PY
done
cp "$T/iout/runs.jsonl" "$T/ibefore.jsonl"
"$PB" bench "$T/int.ini" -j 2 -q --out "$T/iout" --resume --csv "$T/i.csv" --json "$T/i.json" \
    --ompl-log "$T/i.log" >/dev/null 2>"$T/ierr" || fail "resume after SIGTERM: $(cat "$T/ierr")"
python3 - "$T/ibefore.jsonl" "$T/iout/runs.jsonl" "$T/i.csv" <<'PY' && ok "--resume redid exactly the interrupted and unstarted runs" || fail "--resume after an interruption"
import json, sys
before = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()[1:]]
after = [json.loads(l) for l in open(sys.argv[2]).read().splitlines()[1:]]
assert after[:len(before)] == before, "earlier lines were rewritten"
completed = {r["run"] for r in before if "interrupted" not in r}
redone = [r["run"] for r in after[len(before):]]
assert sorted(redone) == sorted(set(range(8)) - completed), (sorted(redone), sorted(completed))
assert all("interrupted" not in r for r in after[len(before):])
assert len(open(sys.argv[3]).read().splitlines()) == 9
PY

# after --resume the totals describe the whole benchmark (issue 22): two runs at a time, so its
# wall time is at least half the runs' planning time summed over the journal (the last session
# alone ran only the 6 or so runs left); a resume with nothing left reports no "nan"
python3 - "$T/iout/runs.jsonl" "$T/i.json" "$T/i.log" <<'PY' && ok "total_s after --resume covers every session" || fail "total_s after --resume"
import json, re, sys
runs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()[1:]]
planned = sum(r["time_s"] for r in runs if "interrupted" not in r)
total = json.load(open(sys.argv[2]))["total_s"]
logged = float(re.search(r"^(\S+) seconds spent to collect the data$", open(sys.argv[3]).read(), re.M).group(1))
assert total >= planned / 2, (total, planned)
assert abs(logged - total) < 1e-6, (logged, total)
PY
"$PB" bench "$T/int.ini" -j 2 --out "$T/iout" --resume --json "$T/i2.json" >/dev/null 2>"$T/ierr" ||
    fail "resume with nothing left: $(cat "$T/ierr")"
grep -qi nan "$T/ierr" && fail "resume with nothing left: $(cat "$T/ierr")"
python3 -c "import json, sys; sys.exit(json.load(open(sys.argv[1]))['total_s'] < json.load(open(sys.argv[2]))['total_s'])" \
    "$T/i2.json" "$T/i.json" && ok "total_s kept by a resume with nothing left" || fail "total_s after an empty resume"

# ---- 4. bad scripts: file, line and key named, nothing runs ----
bad() { # script-text expected-line expected-key
    printf '%b' "$1" >"$T/bad.ini"
    "$PB" bench "$T/bad.ini" -q --out "$T/bout" >/dev/null 2>"$T/berr"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "bad.ini:$2:" "$T/berr" && grep -q "$3" "$T/berr" && [ ! -e "$T/bout/runs.jsonl" ]; then
        ok "bad script rejected: $3"
    else
        fail "bad script ($3): exit $rc, $(cat "$T/berr")"
    fi
}
bad '[benchmark]\nrunz = 3\n[problem.a]\nmap = x.png\n[planner.rrt]\n' 2 runz
bad '[benchmark]\nruns = three\n[problem.a]\nmap = x.png\n[planner.rrt]\n' 2 runs
bad "[problem.a]\nmap = $ROOT/maps/nothere.png\n[planner.rrt]\n" 2 map
bad "[problem.a]\nmap = $ROOT/maps/room1.png\n[planner.rrt]\nplanner = rtt\n" 4 planner
bad "[problem.a]\nmap = $ROOT/maps/room1.png\n[planner.rrt]\nstep_sise = 3\n" 4 step_sise
# the engine names the faulty option as data: the line of that option, not of the first one
bad "[problem.a]\nengine = blackbox\noption.bounds = -1:1,-1:1\noption.expr = x0 > 0\noption.resolution = fast\nstart = 0.5,0\ngoal = 0.5,0.5\n[planner.rrt]\n" 5 "resolution: expected a positive number"
"$PB" bench "$T/small.ini" --plot 2>/dev/null && fail "--plot without a value accepted"

# ---- outputs are checked before the first run (issue 22) ----
for opt in --csv --json --ompl-log; do
    rm -rf "$T/cout"
    "$PB" bench "$T/small.ini" -q --out "$T/cout" $opt "$T/missing/dir/runs.out" >/dev/null 2>"$T/cerr"
    rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$opt $T/missing/dir/runs.out: cannot write in folder $T/missing/dir" "$T/cerr" &&
        [ ! -e "$T/cout/runs.jsonl" ]; then
        ok "$opt in a missing folder refused before any run"
    else
        fail "$opt in a missing folder: exit $rc, journal $(cat "$T/cout/runs.jsonl" 2>/dev/null | wc -l) lines: $(cat "$T/cerr")"
    fi
done
# --plot creates missing folders (the first benchmark above wrote into new/plots) but cannot
# create one under a file
: >"$T/afile"
rm -rf "$T/cout"
"$PB" bench "$T/small.ini" -q --out "$T/cout" --plot "$T/afile/plots" >/dev/null 2>"$T/cerr"
rc=$?
if [ $rc -eq 2 ] && grep -q -- "--plot $T/afile/plots: .*cannot create the folder" "$T/cerr" && [ ! -e "$T/cout/runs.jsonl" ]; then
    ok "--plot under a file refused before any run"
else
    fail "--plot under a file: exit $rc: $(cat "$T/cerr")"
fi

# ---- problems load within the memory limit (issue 15) ----
# a 12000 x 12000 map: an 18 MB bitmap, over a 16 MiB limit; loaded in the parent, which must
# not take more than the limit for it (sanitizer builds cannot limit address space)
python3 - "$T/big.png" <<'PY'
import struct, sys, zlib
w = h = 12000
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
z = zlib.compressobj(1)
row = b"\x00" + b"\xff" * w
idat = b"".join(z.compress(row) for _ in range(h)) + z.flush()
open(sys.argv[1], "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0)) +
                              chunk(b"IDAT", idat) + chunk(b"IEND", b""))
PY
cat >"$T/bigmap.ini" <<EOF2
[benchmark]
name = bigmap
runs = 1
time_limit = 1
memory_limit = 16
[problem.big]
map = $T/big.png
start = 1,1
goal = 100,100
[planner.rrt]
label = RRT
EOF2
"$PB" bench "$T/bigmap.ini" -q --out "$T/bigout" >/dev/null 2>"$T/bigerr"
rc=$?
if [ "${sanitized:-no}" = yes ]; then
    ok "memory limit of problem loading: not enforceable under AddressSanitizer"
elif [ $rc -eq 2 ] && grep -q "problem 'big': loading it needs more than the memory limit of 16 MiB" "$T/bigerr"; then
    ok "a problem over the memory limit is refused while loading"
else
    fail "big map under a 16 MiB limit: exit $rc: $(cat "$T/bigerr")"
fi

echo "$fails failed"
[ $fails -eq 0 ]
