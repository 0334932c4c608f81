#!/bin/sh
# Overhead of running benchmark runs through Slurm against plain local runs (issue 24), on a
# single-node cluster started here (tests/slurm/cluster.sh; needs Debian's slurmctld, slurmd,
# slurm-client and munge). The same N fixed-work runs (RRT on maps/room1.png, 300 iterations):
#   local    planbench bench -j 1, one process for the campaign
#   per-run  one Slurm array task per run (--shard I/N): what scheduling costs per run
#   2 shards two array tasks of N/2 runs each (-j 1 each): what a campaign pays per shard
# Wall times from submission to the last task leaving the queue.
# Usage: sh bench/slurm_overhead.sh PLANBENCH [N]   (from the source root)
set -u
PB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
N=${2:-40}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/tests/slurm/cluster.sh"
why=$(slurm_missing) && { echo "Slurm is not available: $why"; exit 0; }
slurm_start
cd "$D" || exit 1
cat >o.ini <<EOF2
[benchmark]
name = overhead
runs = $N
time_limit = 60
stop = budget
max_iterations = 300
seed = 5
[problem.room1]
map = $ROOT/maps/room1.png
[planner.rrt]
EOF2
now() { date +%s.%N; }
t0=$(now)
"$PB" bench o.ini -j 1 -q --out L >/dev/null || { echo "local run failed"; exit 1; }
t1=$(now)
cat >one.sbatch <<EOF2
#!/bin/sh
#SBATCH --cpus-per-task=1
#SBATCH --output=/dev/null
exec "$PB" bench "$D/o.ini" --shard \$SLURM_ARRAY_TASK_ID/$N -j 1 -q --out "$D/P"
EOF2
t2=$(now)
jid=$(sbatch --parsable --array=0-$((N - 1)) one.sbatch) || { echo "sbatch failed"; exit 1; }
wait_job "$jid"
t3=$(now)
cat >two.sbatch <<EOF2
#!/bin/sh
#SBATCH --cpus-per-task=1
#SBATCH --output=/dev/null
exec "$PB" bench "$D/o.ini" --shard \$SLURM_ARRAY_TASK_ID/2 -j 1 -q --out "$D/T"
EOF2
t4=$(now)
jid=$(sbatch --parsable --array=0-1 two.sbatch) || { echo "sbatch failed"; exit 1; }
wait_job "$jid"
t5=$(now)
"$PB" bench o.ini --merge -q --out P --csv p.csv >/dev/null 2>err || { echo "per-run merge: $(cat err)"; exit 1; }
"$PB" bench o.ini --merge -q --out T --csv t.csv >/dev/null 2>err || { echo "2-shard merge: $(cat err)"; exit 1; }
awk -v n="$N" -v l="$(echo "$t1 - $t0" | bc)" -v p="$(echo "$t3 - $t2" | bc)" -v t="$(echo "$t5 - $t4" | bc)" 'BEGIN {
    printf "runs: %d (RRT, 300 iterations, maps/room1.png), 2 CPUs\n", n
    printf "local, -j 1:                 %7.2f s  (%.1f ms per run)\n", l, 1000 * l / n
    printf "Slurm, one array task a run: %7.2f s  (%.1f ms per run; overhead %.1f ms per run with 2 tasks at a time)\n", p, 1000 * p / n, 1000 * (p - l / 2) / n
    printf "Slurm, 2 shards:             %7.2f s  (overhead %.2f s per shard against half the local time)\n", t, t - l / 2
}'
