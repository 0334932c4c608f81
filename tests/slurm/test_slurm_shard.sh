#!/bin/sh
# A sharded benchmark on a real single-node Slurm cluster started here (issue 24): munged,
# slurmctld and slurmd from Debian's packages, on free ports, everything in one temporary folder,
# every daemon stopped by its pid at the end (also on failure). 2 shards via sbatch --array, shard
# 1 cancelled half way and re-submitted alone, then merged: the merge equals a one-machine -j 2
# run in every non-timing column, and a journal given twice adds nothing. Then the same campaign
# through mpirun with --shard auto/2. Skips (77) where Slurm or Open MPI is not installed.
# Arguments: the planbench binary, the source root.
set -u
PB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$2
. "$ROOT/tests/slurm/cluster.sh"
why=$(slurm_missing) && { echo "SKIP: $why"; exit 77; }
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
slurm_start
ok "single-node cluster up on ports $port-$((port + 1))"

# fixed-work runs (an iteration budget, a generous time limit): outcomes free of timing
cat >"$D/c.ini" <<EOF2
[benchmark]
name = slurmcampaign
runs = 8
time_limit = 60
stop = budget
max_iterations = 20000
seed = 21
[problem.room1]
map = $ROOT/maps/room1.png
[planner.rrtstar]
label = RRTstar
[planner.rrt]
label = RRT
EOF2
cd "$D" || exit 1
untimed() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(time_s|time_to_first_s|memory_mb|setup_s|cpu_s)$/) drop[i] = 1 }
             { line = ""; for (i = 1; i <= NF; i++) if (!drop[i]) line = line $i ","; print line }' "$1"
}
"$PB" bench c.ini -j 2 -q --out ref --csv ref.csv >/dev/null 2>err || fail "one-machine run: $(cat err)"
untimed ref.csv >ref.u

cat >shard.sbatch <<EOF2
#!/bin/sh
#SBATCH --cpus-per-task=1
#SBATCH --output=$D/shard-%a.out
exec "$PB" bench "$D/c.ini" --shard \$SLURM_ARRAY_TASK_ID/2 -q --out "$D/S"
EOF2
jid=$(sbatch --parsable --array=0-1 shard.sbatch) || { fail "sbatch"; exit 1; }
# cancel shard 1 once it has journalled 2 runs (the header and 2 lines)
i=0
while [ $i -lt 600 ]; do
    [ -f S/shard-1-of-2/runs.jsonl ] && [ "$(wc -l <S/shard-1-of-2/runs.jsonl)" -ge 3 ] && break
    sleep 0.05
    i=$((i + 1))
done
scancel "${jid}_1"
wait_job "$jid"
half=$(($(wc -l <S/shard-1-of-2/runs.jsonl) - 1))
[ "$half" -ge 2 ] && [ "$half" -lt 8 ] && ok "shard 1 cancelled after $half of 8 runs" || fail "shard 1 had $half runs when cancelled"
"$PB" bench c.ini --merge --out S >/dev/null 2>err
rc=$?
[ $rc -eq 3 ] && grep -q 'from 1 of 2 shards: 1 ' err && ok "merge names the missing shard 1" || fail "merge before re-run: exit $rc $(cat err)"
jid2=$(sbatch --parsable --array=1 shard.sbatch) || fail "re-submit"
wait_job "$jid2"
grep -q "" "shard-1.out" 2>/dev/null
# scancel's SIGTERM ends the runs in flight as interrupted (issue 22): their lines stay in the
# journal, marked, and the re-run does them again
[ "$(($(grep -cv '"interrupted": true' S/shard-1-of-2/runs.jsonl) - 1))" -eq 8 ] && ok "re-submitted shard 1 finished its 8 runs" ||
    fail "shard 1 after re-run: $(wc -l <S/shard-1-of-2/runs.jsonl) lines; $(cat shard-1.out)"
"$PB" bench c.ini --merge --out S --csv m.csv >/dev/null 2>err || fail "merge: $(cat err)"
untimed m.csv >m.u
[ "$(wc -l <m.u)" -eq 17 ] && cmp -s ref.u m.u && ok "Slurm merge = one machine -j 2 in every non-timing column" ||
    { fail "Slurm merge differs"; diff ref.u m.u | head -5; }
"$PB" bench c.ini --merge --out S --csv m2.csv S/shard-0-of-2/runs.jsonl S/shard-1-of-2/runs.jsonl \
    S/shard-1-of-2/runs.jsonl >/dev/null 2>err && cmp -s m.csv m2.csv && ok "a journal given twice adds nothing" ||
    fail "twice: $(cat err)"

# ---- the same campaign through mpirun, --shard auto/2 ----
if command -v mpirun >/dev/null 2>&1; then
    root_flags=""
    [ "$(id -u)" -eq 0 ] && root_flags="--allow-run-as-root"
    # shellcheck disable=SC2086
    env -u SLURM_ARRAY_TASK_ID -u SLURM_PROCID mpirun $root_flags --oversubscribe -n 2 \
        "$PB" bench c.ini --shard auto/2 -j 1 -q --out M >/dev/null 2>err || fail "mpirun: $(tail -5 err)"
    "$PB" bench c.ini --merge --out M --csv mpi.csv >/dev/null 2>err || fail "mpi merge: $(cat err)"
    untimed mpi.csv >mpi.u
    [ -s M/shard-0-of-2/runs.jsonl ] && [ -s M/shard-1-of-2/runs.jsonl ] && cmp -s ref.u mpi.u &&
        ok "mpirun -n 2 --shard auto/2 = one machine" || fail "mpirun campaign differs"
else
    echo "note: no mpirun (openmpi-bin); the MPI campaign is left out"
fi
echo "$fails failure(s)"
[ $fails -eq 0 ]
