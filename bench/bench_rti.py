#!/usr/bin/env python3
"""The RTI entity channels under load (issue 20): /rti/position messages by dead reckoning against
a fixed-rate publisher at the same accuracy, and the server's stepping rate with 1,000 moving
entities and 16 subscribers.

usage: python3 bench/bench_rti.py [--planbench build-rel/src/cli/planbench] [--entities 1000]
                                  [--steps 200] [--subscribers 16]

A 500 x 500 m empty map_server map (0.5 m cells, written to a temporary folder) is served by
`planbench serve`; N metric disc robots (robots/disc_robot_m.xml) are spawned on a 12 m grid and
driven in a slalom (2 m/s forward, the yaw rate +-0.6 rad/s, its sign flipped every 25 steps,
each entity in its own phase, so flips fall on every step) by SetEntityState twists. One client records every /rti/position
message and the true states (/entity_states after every step). The fixed-rate baseline is
computed from the true states: the longest period k (steps) such that a receiver extrapolating,
as docs/sim.md says, from states sent every k steps stays within the tolerance (0.01 m, 0.5 deg)
at every step; its message count is N * steps / k. Then 16 clients subscribe to /rti/position
and /rti/entity and drain their sockets while the world is stepped: steps per second, against
the same world with no subscriber.
"""
import argparse
import math
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "sim"))
from protocol_test import Client  # noqa: E402
import protocol_test  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TOL_POS, TOL_YAW = 0.01, 0.5 * math.pi / 180


def write_map(folder, size_m=500.0, res=0.5):
    n = int(size_m / res)
    with open(os.path.join(folder, "open.pgm"), "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (n, n))
        f.write(bytes([254]) * (n * n))
    with open(os.path.join(folder, "open.yaml"), "w") as f:
        f.write("image: open.pgm\nresolution: %g\norigin: [0.0, 0.0, 0.0]\nnegate: 0\n"
                "occupied_thresh: 0.65\nfree_thresh: 0.196\n" % res)
    return os.path.join(folder, "open.yaml")


def pose(x, y, yaw=0.0):
    return {"position": {"x": x, "y": y, "z": 0}, "orientation": {"x": 0, "y": 0, "z": math.sin(yaw / 2), "w": math.cos(yaw / 2)}}


def yaw_of(q):
    return math.atan2(2 * (q["w"] * q["z"] + q["x"] * q["y"]), 1 - 2 * (q["y"] ** 2 + q["z"] ** 2))


def drain(c, until_ops, sink, timeout=60):
    """Read messages into `sink` until a service_response with one of the ids in until_ops."""
    while True:
        m = c.recv(timeout=timeout)
        if m is None:
            return None
        if m.get("op") == "service_response" and m.get("id") in until_ops:
            return m
        sink.append(m)


def set_twists(c, n, k, steps_per_flip, only_due=False):
    """Entity i turns left, then right, each for steps_per_flip steps, flipping when (k + i) is a
    multiple of it: the flips are spread over the steps (no period is aligned with them all)."""
    for i in range(n):
        if only_due and (k + i) % steps_per_flip:
            continue
        sign = 1 if ((k + i) // steps_per_flip) % 2 == 0 else -1
        c.send({"op": "call_service", "id": "tw", "service": "/set_entity_state",
                "args": {"entity": "e%d" % i, "set_twist": True,
                         "state": {"twist": {"linear": {"x": 2.0, "y": 0, "z": 0}, "angular": {"x": 0, "y": 0, "z": 0.6 * sign}}}}})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--planbench", default=os.path.join(ROOT, "build-rel", "src", "cli", "planbench"))
    ap.add_argument("--entities", type=int, default=1000)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--subscribers", type=int, default=16)
    a = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="pb-bench-rti-")
    world = write_map(folder)
    import subprocess
    import re
    server = subprocess.Popen([a.planbench, "serve", world, "--port", "0", "--worlds", folder,
                               "--robots", os.path.join(ROOT, "robots"), "--tf-rate", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = int(re.search(r":(\d+)", server.stdout.readline()).group(1))
        c = Client(port)
        c.call("/set_simulation_state", {"state": {"state": 2}})
        side = int(math.ceil(math.sqrt(a.entities)))
        reqs = [{"name": "e%d" % i, "entity_resource": {"uri": "model://disc_robot_m"},
                 "initial_pose": {"pose": pose(10 + 12 * (i % side), 10 + 12 * (i // side))}} for i in range(a.entities)]
        r = c.call("/spawn_entities", {"spawn_requests": reqs}, cid="spawn")
        ok = sum(1 for x in r["values"]["results"] if x["result"]["result"] == 1)
        if ok != a.entities:
            print("spawned %d of %d: %s" % (ok, a.entities, r["values"]["results"][0]), file=sys.stderr)
            return 1
        dt = c.call("/rosapi/get_param", {"name": "/planbench_sim:time_step"})
        # the recording client
        c.send({"op": "subscribe", "topic": "/rti/position", "type": "planbench_interfaces/msg/EntityPosition"})
        c.send({"op": "subscribe", "topic": "/entity_states", "type": "planbench_interfaces/msg/EntityStates"})
        flip = 25
        msgs = []
        t0 = time.time()
        for k in range(a.steps):  # one step per call: the recorder never lags (nothing is skipped)
            set_twists(c, a.entities, k, flip, only_due=k > 0)
            c.send({"op": "call_service", "id": "twisted", "service": "/get_simulation_state", "args": {}})
            drain(c, {"twisted"}, [])
            c.send({"op": "call_service", "id": "step%d" % k, "service": "/step_simulation", "args": {"steps": 1}})
            drain(c, {"step%d" % k}, msgs)
        c.call("/get_simulation_state", {}, cid="sync")
        wall = time.time() - t0
        positions = [m["msg"] for m in msgs if m.get("topic") == "/rti/position"]
        states = [m["msg"] for m in msgs if m.get("topic") == "/entity_states"]
        # the fixed-rate baseline: the longest period whose extrapolation stays within the tolerance
        per_entity = {}
        for s in states:
            t = s["stamp"]["sec"] + s["stamp"]["nanosec"] * 1e-9
            for name, st in zip(s["entities"], s["states"]):
                per_entity.setdefault(name, []).append((t, st))

        def worst(k):
            wp = wy = 0.0
            for traj in per_entity.values():
                for j in range(0, len(traj), k):
                    t0_, s0 = traj[j]
                    yaw0 = yaw_of(s0["pose"]["orientation"])
                    c0, s0y = math.cos(yaw0), math.sin(yaw0)
                    lin, acc = s0["twist"]["linear"], s0["acceleration"]["linear"]
                    vf, vl = c0 * lin["x"] + s0y * lin["y"], -s0y * lin["x"] + c0 * lin["y"]
                    af, al = c0 * acc["x"] + s0y * acc["y"], -s0y * acc["x"] + c0 * acc["y"]
                    w = s0["twist"]["angular"]["z"]
                    for t, st in traj[j + 1:j + k]:
                        d = t - t0_
                        f, l = vf * d + 0.5 * af * d * d, vl * d + 0.5 * al * d * d
                        x = s0["pose"]["position"]["x"] + c0 * f - s0y * l
                        y = s0["pose"]["position"]["y"] + s0y * f + c0 * l
                        wp = max(wp, math.hypot(x - st["pose"]["position"]["x"], y - st["pose"]["position"]["y"]))
                        dy = yaw0 + w * d - yaw_of(st["pose"]["orientation"])
                        wy = max(wy, abs(math.atan2(math.sin(dy), math.cos(dy))))
            return wp, wy

        print("worst extrapolation error at period 2, 5, 25: %s" % ", ".join(
            "%.4g m / %.3g deg" % (wp, wy * 180 / math.pi) for wp, wy in (worst(2), worst(5), worst(25))))
        k = 1
        while k < a.steps and all(v <= tol for v, tol in zip(worst(k + 1), (TOL_POS, TOL_YAW))):
            k += 1
        n_steps = len(states)
        fixed = a.entities * n_steps / k
        dr = len([p for p in positions])
        print("entities %d, steps %d (dt %s): /rti/position messages by dead reckoning %d (%.3f per entity-step)" % (a.entities, n_steps, dt["values"].get("value"), dr, dr / (a.entities * n_steps)))
        print("fixed rate at the same accuracy: every %d step(s): %d messages; ratio dead reckoning / fixed %.3f"
              % (k, fixed, dr / fixed))
        print("recording run: %.2f s wall for %d steps" % (wall, n_steps))
        # stepping rate with subscribers
        def rate(n_subs, steps=200):
            subs, threads, stop = [], [], threading.Event()
            for _ in range(n_subs):
                s = Client(port)
                s.send({"op": "subscribe", "topic": "/rti/position", "type": "planbench_interfaces/msg/EntityPosition"})
                s.send({"op": "subscribe", "topic": "/rti/entity", "type": "planbench_interfaces/msg/Entity"})
                s.call("/get_simulation_state", {}, cid="sync")
                subs.append(s)

                def reader(cl=s):
                    while not stop.is_set():
                        try:
                            if cl.recv(timeout=0.5) is None:
                                return
                        except Exception:
                            continue
                t = threading.Thread(target=reader, daemon=True)
                t.start()
                threads.append(t)
            d = Client(port)
            set_twists(d, a.entities, 0, flip)
            d.call("/get_simulation_state", {}, cid="sync2")
            t0 = time.time()
            r = d.call("/step_simulation", {"steps": steps}, cid="go")
            while r and r.get("id") != "go":
                r = d.recv(timeout=120)
            el = time.time() - t0
            stop.set()
            for s in subs:
                s.close()
            d.close()
            return steps / el
        base = rate(0, 400)
        loaded = rate(a.subscribers, 400)
        base = max(base, rate(0, 400))  # the better of two runs without subscribers, against one with
        print("stepping rate with %d moving entities: %.0f steps/s with no subscriber, %.0f steps/s with %d subscribers "
              "to /rti/position and /rti/entity (%.2f)" % (a.entities, base, loaded, a.subscribers, loaded / base))
        c.close()
    finally:
        protocol_test.stop_server(server)
        for f in os.listdir(folder):
            os.remove(os.path.join(folder, f))
        os.rmdir(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
