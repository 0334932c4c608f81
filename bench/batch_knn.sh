#!/bin/sh
# PRM*, lazy PRM and BIT* with their k-nearest one kd-tree query at a time (batch_knn=0)
# against 64 at once through an OpenBLAS distance matrix (batch_knn=-1, the default: used
# where bench/bench_knn_batch.c measured it faster, from 7 dimensions), on a black box: the
# unit cube in D dimensions around a ball of radius 0.3, a fixed iteration budget. Both give
# the same roadmap or search (same nodes, edge checks and cost, printed), so the time ratio is
# the whole difference. Needs a build with -Dblas (OpenBLAS), one BLAS thread.
# Usage: sh bench/batch_knn.sh [BUILD_DIR] [ITERATIONS] [ROUNDS]
set -eu
build=${1:-build}
iterations=${2:-8000}
rounds=${3:-3}
cd "$(dirname "$0")/.."
export OPENBLAS_NUM_THREADS=1
echo "bench/batch_knn.sh $build $iterations $rounds ($(date -u +%Y-%m-%dT%H:%MZ), nproc $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg))"
echo
echo "| dim | planner | nodes | edge checks | cost | kd-tree s | batched s | ratio |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for dim in 7 14; do
    bounds=$(python3 -c "print(','.join(['0:1'] * $dim))")
    start=$(python3 -c "print(','.join(['0.05'] * $dim))")
    goal=$(python3 -c "print(','.join(['0.95'] * $dim))")
    expr=$(python3 -c "print(' + '.join('(x%d-0.5)*(x%d-0.5)' % (i, i) for i in range($dim)) + ' > 0.09')")
    for planner in prm lazyprm bitstar; do
        # interleaved rounds, the fastest of each kept
        python3 - "$build/src/cli/planbench" "$planner" "$bounds" "$expr" "$start" "$goal" "$iterations" "$rounds" "$dim" <<'PY'
import json, subprocess, sys
exe, planner, bounds, expr, start, goal, iterations, rounds, dim = sys.argv[1:]
best = {}
seen = {}
for _ in range(int(rounds)):
    for mode in ("0", "-1"):
        out = subprocess.run([exe, planner, "--engine", "blackbox", "--bounds", bounds, "--expr", expr,
                              "--resolution", "0.05", "start", start, "goal", goal, "--seed", "3",
                              "--max-iterations", iterations, "--stop", "budget", "--time-limit", "600",
                              "--param", "batch_knn=" + mode, "--json", "-q"],
                             capture_output=True, text=True, check=True).stdout
        d = json.loads(out)
        best[mode] = min(best.get(mode, float("inf")), d["time_s"])
        seen[mode] = (d["nodes"], d["n_visible"], d["cost"])
same = seen["0"] == seen["-1"]
nodes, checks, cost = seen["0"]
print("| %s | %s | %d | %d | %.4f%s | %.3f | %.3f | %.2f |" % (dim, planner, nodes, checks, cost,
      "" if same else " (DIFFERENT)", best["0"], best["-1"], best["0"] / best["-1"]))
PY
    done
done
