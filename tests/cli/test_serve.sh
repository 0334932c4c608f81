#!/bin/sh
# planbench serve (issue 8): arguments, bad worlds, a port in use, SIGTERM. Servers listen on
# 127.0.0.1 only and are always stopped. In a build without the simulation service, serve
# must say so and exit 2.
# usage: test_serve.sh PLANBENCH SOURCE_ROOT
set -u
pb=$1
root=$2
fails=0
checks=0
tmp=$(mktemp -d)
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
check() { # check DESCRIPTION COMMAND...
    what=$1
    shift
    checks=$((checks + 1))
    if ! "$@"; then
        fails=$((fails + 1))
        echo "FAIL: $what" >&2
    fi
}
run() { # run EXPECTED_STATUS ARGS... ; output in $tmp/out
    want=$1
    shift
    "$pb" serve "$@" >"$tmp/out" 2>&1
    got=$?
    [ "$got" -eq "$want" ] || { echo "exit $got, wanted $want: serve $*" >&2; cat "$tmp/out" >&2; return 1; }
}
# wait (bounded) for "listening on 127.0.0.1:PORT" in a log; prints the port
port_of() {
    i=0
    while [ $i -lt 100 ]; do
        p=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$1")
        [ -n "$p" ] && { echo "$p"; return 0; }
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

check "--help" run 0 --help
check "--help text" grep -q "simulation_interfaces" "$tmp/out"
check "bad port" run 2 --port abc
check "port out of range" run 2 --port 99999
check "port out of range: message" grep -q -- "--port 99999: a port is 0..65535" "$tmp/out"
check "unknown option" run 2 --frobnicate
check "bad time step" run 2 --dt -1 "$root/worlds/sim_room1.xml"

if "$pb" serve "$root/worlds/sim_room1.xml" --port 0 >"$tmp/probe" 2>&1 & then :; fi
probe=$!
pids="$pids $probe"
sleep 0.3
if grep -q "no simulation service" "$tmp/probe"; then
    # a build without the service
    wait "$probe"
    check "no sim: exit 2" test $? -eq 2
else
    check "missing world" run 2 "$tmp/none.xml" --port 0
    check "missing world named" grep -q "none.xml" "$tmp/out"
    check "the manipulator's <world> is not a sim world" run 2 "$root/worlds/pbarm6_divider.xml" --port 0
    check "root element named" grep -q "<simworld>" "$tmp/out"
    port=$(port_of "$tmp/probe")
    check "listening" test -n "$port"
    if [ -n "$port" ]; then
        # libwebsockets 4.1 leaks 72 bytes on its own bind-failure path (lws_create_context);
        # not ours, so leak detection is off for this one run under sanitizers
        ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
            check "port in use" run 2 "$root/worlds/sim_room1.xml" --port "$port"
        # issue 22: the address and the reason, in one line of ours (no libwebsockets log lines)
        check "port in use: message" grep -q "cannot listen on 127.0.0.1 port $port: the address is already in use" "$tmp/out"
        check "port in use: one line" test "$(wc -l <"$tmp/out")" -eq 1
    fi
    # a client connected (a bare TCP connection, no WebSocket handshake) does not hold the
    # shutdown up; the log says the server stopped (issue 22)
    if [ -n "$port" ]; then
        python3 -c "import socket, sys, time; s = socket.create_connection(('127.0.0.1', int(sys.argv[1]))); time.sleep(10)" \
            "$port" &
        client=$!
        pids="$pids $client"
        sleep 0.3
    fi
    kill -TERM "$probe"
    wait "$probe"
    check "SIGTERM: exit 0" test $? -eq 0
    check "SIGTERM: a log line" grep -q "stopped on SIGTERM" "$tmp/probe"
    [ -n "$port" ] && kill "$client" 2>/dev/null
    # SIGINT (Ctrl-C) as well
    "$pb" serve "$root/worlds/sim_room1.xml" --port 0 >"$tmp/probe2" 2>&1 &
    probe2=$!
    pids="$pids $probe2"
    check "listening (second server)" port_of "$tmp/probe2" >/dev/null
    kill -INT "$probe2"
    wait "$probe2"
    check "SIGINT: exit 0" test $? -eq 0
    check "SIGINT: a log line" grep -q "stopped on SIGINT" "$tmp/probe2"
fi
echo "$((checks - fails)) passed, $fails failed"
[ "$fails" -eq 0 ]
