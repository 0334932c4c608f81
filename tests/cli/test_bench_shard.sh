#!/bin/sh
# planbench bench --shard / --merge (issue 24) without a cluster: 2 shards run by hand merge to
# the same non-timing results as a one-machine -j 2 run; a shard re-run resumes; a journal given
# twice adds nothing; a header mismatch, a locked shard and missing shards are refused;
# --shard auto/N reads the launcher's environment; --print-sbatch writes a job array.
# Arguments: the planbench binary, the source root.
set -u
PB=$1
ROOT=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# CSV without the timing columns (time_s, time_to_first_s, memory_mb, setup_s, cpu_s)
untimed() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(time_s|time_to_first_s|memory_mb|setup_s|cpu_s)$/) drop[i] = 1 }
             { line = ""; for (i = 1; i <= NF; i++) if (!drop[i]) line = line $i ","; print line }' "$1"
}

cat >"$T/c.ini" <<EOF2
[benchmark]
name = campaign
runs = 7
time_limit = 5
stop = first
seed = 11
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
[planner.birrt]
planner = birrt
label = BiRRT
EOF2

# ---- the reference: one machine, -j 2 ----
"$PB" bench "$T/c.ini" -j 2 -q --out "$T/ref" --csv "$T/ref.csv" >/dev/null 2>"$T/err" || fail "reference run: $(cat "$T/err")"
[ "$(head -n 1 "$T/ref/runs.jsonl" | grep -c '"planbench_journal": 1, "script_hash": ".*"shard": \[0, 1\]}')" -eq 1 ] &&
    ok "the journal starts with its header" || fail "header: $(head -n 1 "$T/ref/runs.jsonl")"

# ---- two shards; shard 1 stopped half way, then re-run ----
"$PB" bench "$T/c.ini" --shard 0/2 -j 1 -q --out "$T/s" >/dev/null 2>"$T/err" || fail "shard 0: $(cat "$T/err")"
[ "$(($(wc -l <"$T/s/shard-0-of-2/runs.jsonl") - 1))" -eq 14 ] && ok "shard 0 has its 14 runs" ||
    fail "shard 0 lines: $(wc -l <"$T/s/shard-0-of-2/runs.jsonl")"
"$PB" bench "$T/c.ini" --shard 1/2 -j 1 -q --out "$T/s" >/dev/null 2>&1
head -n 6 "$T/s/shard-1-of-2/runs.jsonl" >"$T/half" && cp "$T/half" "$T/s/shard-1-of-2/runs.jsonl"
"$PB" bench "$T/c.ini" --merge --out "$T/s" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 3 ] && grep -q '9 of 28 runs are missing, from 1 of 2 shards: 1 ' "$T/err" && ok "missing shard named (exit 3)" ||
    fail "missing shards: exit $rc, $(cat "$T/err")"
"$PB" bench "$T/c.ini" --merge --allow-missing --out "$T/s" --csv "$T/part.csv" >/dev/null 2>"$T/err" &&
    [ "$(($(wc -l <"$T/part.csv") - 1))" -eq 19 ] && ok "--allow-missing writes the 19 runs there are" ||
    fail "--allow-missing: $(cat "$T/err")"
"$PB" bench "$T/c.ini" --shard 1/2 -j 1 --out "$T/s" >/dev/null 2>"$T/err" || fail "shard 1 re-run: $(cat "$T/err")"
grep -q '5 runs resumed' "$T/err" && ok "the re-run shard resumed" || fail "resume: $(cat "$T/err")"
head -n 6 "$T/s/shard-1-of-2/runs.jsonl" | cmp -s - "$T/half" && ok "finished runs kept" || fail "journal rewritten"
"$PB" bench "$T/c.ini" --merge --out "$T/s" --csv "$T/m.csv" --json "$T/m.json" --ompl-log "$T/m.log" >/dev/null 2>"$T/err" ||
    fail "merge: $(cat "$T/err")"
untimed "$T/ref.csv" >"$T/ref.u"
untimed "$T/m.csv" >"$T/m.u"
[ "$(wc -l <"$T/m.u")" -eq 29 ] && cmp -s "$T/ref.u" "$T/m.u" && ok "merged = one machine in every non-timing column" ||
    { fail "merged differs"; diff "$T/ref.u" "$T/m.u" | head -5; }
[ -s "$T/m.json" ] && [ -s "$T/m-room1.log" ] && [ "$(($(wc -l <"$T/s/runs.jsonl") - 1))" -eq 28 ] && ok "merged outputs written" || fail "merged outputs"
# sorted by (problem, planner, run): run column climbs 0..6 four times
[ "$(cut -d, -f1-3 "$T/m.csv" | head -n 3 | tail -n 2 | tr '\n' ' ')" != "" ] || fail "csv empty"
"$PB" bench "$T/c.ini" --merge --out "$T/s" --csv "$T/m2.csv" "$T/s/shard-0-of-2/runs.jsonl" \
    "$T/s/shard-1-of-2/runs.jsonl" "$T/s/shard-0-of-2/runs.jsonl" >/dev/null 2>"$T/err" && cmp -s "$T/m.csv" "$T/m2.csv" &&
    ok "a journal given twice adds nothing" || fail "duplicate journal: $(cat "$T/err")"

# ---- refusals ----
"$PB" bench "$T/c.ini" --shard 0/2 --runs 8 -q --out "$T/s" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'different benchmark' "$T/err" && ok "resume with another --runs refused" || fail "header mismatch: exit $rc $(cat "$T/err")"
"$PB" bench "$T/c.ini" --merge --time-limit 9 --out "$T/s" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'not a journal of this benchmark' "$T/err" && ok "merge with another --time-limit refused" ||
    fail "merge mismatch: exit $rc $(cat "$T/err")"
"$PB" bench "$T/c.ini" --merge --out "$T/s" "$T/s/shard-0-of-2/runs.jsonl" "$T/ref/runs.jsonl" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'shards among journals' "$T/err" && ok "journals of different shard counts refused" ||
    fail "shard count mix: exit $rc $(cat "$T/err")"
if command -v flock >/dev/null 2>&1; then
    flock "$T/s/shard-0-of-2/runs.jsonl" sleep 3 &
    lock_pid=$!
    sleep 0.5
    "$PB" bench "$T/c.ini" --shard 0/2 -q --out "$T/s" >/dev/null 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q 'locked' "$T/err" && ok "a locked shard refused" || fail "lock: exit $rc $(cat "$T/err")"
    kill "$lock_pid" 2>/dev/null
    wait "$lock_pid" 2>/dev/null
else
    echo "note: no flock(1); the lock check is left out"
fi
for bad in 2/2 x/2 1/0 auto/ 3; do
    "$PB" bench "$T/c.ini" --shard "$bad" -q --out "$T/bad" >/dev/null 2>"$T/err"
    rc=$?
    [ $rc -eq 2 ] && grep -q -- '--shard: expected' "$T/err" && [ ! -e "$T/bad" ] || fail "--shard $bad: exit $rc $(cat "$T/err")"
done
ok "bad --shard values refused"

# ---- --shard auto/N ----
env -u SLURM_ARRAY_TASK_ID -u SLURM_PROCID -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u PMIX_RANK PARALLEL_SEQ=2 \
    "$PB" bench "$T/c.ini" --shard auto/2 -q --out "$T/a" >/dev/null 2>"$T/err" &&
    [ -s "$T/a/shard-1-of-2/runs.jsonl" ] && ok "PARALLEL_SEQ=2 is shard 1" || fail "auto: $(cat "$T/err")"
env -u SLURM_ARRAY_TASK_ID -u SLURM_PROCID -u OMPI_COMM_WORLD_RANK -u PMI_RANK -u PMIX_RANK -u PARALLEL_SEQ \
    "$PB" bench "$T/c.ini" --shard auto/2 -q --out "$T/a" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q 'no shard index' "$T/err" && ok "auto without a launcher refused" || fail "auto none: $(cat "$T/err")"

# ---- --print-sbatch ----
"$PB" bench "$T/c.ini" --print-sbatch 4 -j 2 --csv r.csv >"$T/sb" 2>"$T/err" || fail "print-sbatch: $(cat "$T/err")"
grep -q '^#SBATCH --array=0-3$' "$T/sb" && grep -q '^#SBATCH --cpus-per-task=2$' "$T/sb" && grep -q -- '--requeue' "$T/sb" &&
    grep -q -- '--dependency=afterany:\$jid' "$T/sb" && grep -q -- "--merge -q --csv 'r.csv'" "$T/sb" &&
    grep -q -- '--shard \$SLURM_ARRAY_TASK_ID/4 -j 2' "$T/sb" && sh -n "$T/sb" && ok "--print-sbatch" || { fail "sbatch script"; cat "$T/sb"; }

echo "$fails failure(s)"
[ $fails -eq 0 ]
