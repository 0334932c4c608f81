#!/bin/sh
# bench_sim_scale side by side (issue 21): two builds of it run in turns, ROUNDS times each, with
# the load average before every run, so both see the same machine in the same minutes.
#   sh bench/sim_scale_ab.sh BEFORE_BINARY AFTER_BINARY [ROUNDS] [SOURCE_ROOT]
# e.g. BEFORE: bench_sim_scale.c of this tree linked against main's libraries; AFTER:
# build-rel/bench/bench_sim_scale. Read the medians over rounds; the per-call wall times move
# with the load, the CPU means and the counts much less.
set -u
if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
    echo "usage: sh bench/sim_scale_ab.sh BEFORE_BINARY AFTER_BINARY [ROUNDS] [SOURCE_ROOT] (both executable)" >&2
    exit 2
fi
rounds=${3:-3}
root=${4:-.}
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), nproc $(nproc), $(lscpu | grep 'Model name' | sed 's/  */ /g')"
i=1
while [ "$i" -le "$rounds" ]; do
    for side in before after; do
        if [ "$side" = before ]; then bin=$1; else bin=$2; fi
        echo "## round $i, $side ($bin), load average $(cut -d' ' -f1-3 /proc/loadavg)"
        "$bin" "$root" || exit 1
    done
    i=$((i + 1))
done
