#!/bin/sh
# Wall time of the 10,000-run campaign bench/shards.ini on one machine: 1 shard (-j 2) against
# 2 shards (-j 1 each, started together, then --merge). Usage: sh bench/shards.sh PLANBENCH
set -eu
PB=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
S=$(dirname "$0")/shards.ini
t0=$(date +%s.%N)
"$PB" bench "$S" -j 2 -q --out "$T/one" >/dev/null
t1=$(date +%s.%N)
"$PB" bench "$S" --shard 0/2 -j 1 -q --out "$T/two" >/dev/null &
"$PB" bench "$S" --shard 1/2 -j 1 -q --out "$T/two" >/dev/null
wait
t2=$(date +%s.%N)
"$PB" bench "$S" --merge -q --out "$T/two" --csv "$T/m.csv" >/dev/null
t3=$(date +%s.%N)
echo "1 shard -j 2: $(echo "$t1 - $t0" | bc) s; 2 shards -j 1: $(echo "$t2 - $t1" | bc) s; merge: $(echo "$t3 - $t2" | bc) s"
