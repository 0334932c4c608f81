#!/bin/sh
# End-to-end test: start `planbench serve` on a free loopback port, run tests/sim/e2e.mjs,
# e2e_vehicle.mjs, e2e_scenario.mjs and e2e_rti.mjs with the real roslib client, stop the server. Skips (77) without node/npm or when the npm install
# of roslib and ws (into tests/sim/node_modules, from package-lock.json) is impossible.
# usage: run_e2e.sh PLANBENCH SOURCE_ROOT
set -u
planbench=$1
root=$2
dir="$root/tests/sim"
command -v node >/dev/null 2>&1 || { echo "no node: skipped"; exit 77; }
if [ ! -d "$dir/node_modules/roslib" ]; then
    command -v npm >/dev/null 2>&1 || { echo "no npm: skipped"; exit 77; }
    (cd "$dir" && timeout 120 npm ci --no-audit --no-fund >/dev/null 2>&1) || { echo "npm ci failed: skipped"; exit 77; }
fi
log=$(mktemp)
"$planbench" serve "$root/worlds/sim_room1.xml" --port 0 --worlds "$root/worlds" --robots "$root/robots" >"$log" 2>&1 &
pid=$!
port=""
i=0
while [ $i -lt 100 ] && [ -z "$port" ]; do
    port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$log")
    [ -n "$port" ] || sleep 0.1
    i=$((i + 1))
done
if [ -z "$port" ]; then
    cat "$log"; kill "$pid" 2>/dev/null; rm -f "$log"; exit 1
fi
(cd "$dir" && timeout 60 node e2e.mjs "$port")
rc=$?
(cd "$dir" && timeout 60 node e2e_vehicle.mjs "$port") || rc=1
(cd "$dir" && timeout 60 node e2e_scenario.mjs "$port" "$root") || rc=1
(cd "$dir" && timeout 60 node e2e_rti.mjs "$port") || rc=1
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
cat "$log"
rm -f "$log"
exit $rc
