#!/usr/bin/env python3
"""The rosbridge protocol of `planbench serve` over a real socket (127.0.0.1, a free port).

Bad input and faults: malformed JSON, unknown ops and services, wrong field types,
out-of-range integers, a binary frame, a frame larger than the 4 MiB limit, half-open and
abruptly closed connections, a bogus 2^63-byte frame header, a client that never reads. After
each, the server is still up and another client's entity is intact; no reply is ever a
`status` op. Every loop is bounded in count and time; the server is always stopped.

usage: protocol_test.py PLANBENCH SOURCE_ROOT
"""
import base64
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import time

checks = failures = 0


def check(cond, what):
    global checks, failures
    checks += 1
    if not cond:
        failures += 1
        print("CHECK failed:", what, file=sys.stderr)


class Client:
    def __init__(self, port, handshake=True):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""
        if handshake:
            key = base64.b64encode(os.urandom(16)).decode()
            self.sock.sendall(("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % key).encode())
            while b"\r\n\r\n" not in self.buf:
                chunk = self.sock.recv(4096)
                if not chunk:
                    raise RuntimeError("handshake refused")
                self.buf += chunk
            head, self.buf = self.buf.split(b"\r\n\r\n", 1)
            assert b" 101 " in head.split(b"\r\n")[0], head

    def frame(self, payload, opcode=1, fin=True):
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([(0x80 if fin else 0) | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if n < 65536 else \
            (int.from_bytes(payload, "big") ^ int.from_bytes((mask * (n // 4 + 1))[:n], "big")).to_bytes(n, "big")
        return head + mask + body

    def send(self, msg, opcode=1):
        data = msg if isinstance(msg, bytes) else (msg if isinstance(msg, str) else json.dumps(msg)).encode()
        self.sock.sendall(self.frame(data, opcode))

    def recv(self, timeout=10):
        """One text message as a dict (or the raw text when it is not JSON); None on close."""
        end = time.time() + timeout
        while True:
            need = 2 + {126: 2, 127: 8}.get(self.buf[1] & 0x7F, 0) if len(self.buf) >= 2 else 2
            if len(self.buf) >= need:  # a whole header (it can end in the middle of a chunk)
                b1 = self.buf[1] & 0x7F
                off = 2
                if b1 == 126:
                    b1, off = struct.unpack(">H", self.buf[2:4])[0], 4
                elif b1 == 127:
                    b1, off = struct.unpack(">Q", self.buf[2:10])[0], 10
                if len(self.buf) >= off + b1:
                    opcode = self.buf[0] & 0x0F
                    payload, self.buf = self.buf[off:off + b1], self.buf[off + b1:]
                    if opcode == 8:
                        return None
                    if opcode == 1:
                        text = payload.decode()
                        try:
                            return json.loads(text)
                        except ValueError:
                            return text
                    continue
            left = end - time.time()
            if left <= 0:
                raise TimeoutError("no message")
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buf += chunk

    def call(self, service, args, cid="c"):
        self.send({"op": "call_service", "id": cid, "service": service, "args": args})
        return self.recv()

    def close(self):
        self.sock.close()


def pose(x, y):
    return {"position": {"x": x, "y": y, "z": 0}, "orientation": {"x": 0, "y": 0, "z": 0, "w": 1}}


def start_server(planbench, root):
    """`planbench serve` on the room world at a free port: (process, port), port None when it did not start."""
    server = subprocess.Popen([planbench, "serve", os.path.join(root, "worlds", "sim_room1.xml"), "--port", "0",
                               "--worlds", os.path.join(root, "worlds"), "--robots", os.path.join(root, "robots")],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = server.stdout.readline()
    m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
    if not m:
        print("server did not start:", line, file=sys.stderr)
        stop_server(server)
        return server, None
    return server, int(m.group(1))


def stop_server(server):
    """SIGTERM, then SIGKILL after 10 s."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main():
    planbench, root = sys.argv[1], sys.argv[2]
    server, port = start_server(planbench, root)
    if port is None:
        return 1
    try:
        run(port)
        check(server.poll() is None, "the server is still running")
        # STATE_QUITTING: the reply goes out, then the server exits by itself
        q = Client(port)
        r = q.call("/set_simulation_state", {"state": {"state": 3}})
        check(r is not None and r["values"]["result"]["result"] == 1, "quitting accepted: %s" % r)
        try:
            rc = server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            rc = None
        check(rc == 0, "the server exits 0 after QUITTING (got %s)" % rc)
    finally:
        stop_server(server)
    print("%d passed, %d failed" % (checks - failures, failures))
    return 1 if failures else 0


def keeper_intact(a):
    r = a.call("/get_entity_state", {"entity": "keeper"})
    return r and r["result"] and r["values"]["result"]["result"] == 1 and \
        r["values"]["state"]["pose"]["position"]["x"] == 40


def run(port):
    a = Client(port)
    r = a.call("/spawn_entity", {"name": "keeper", "entity_resource": {"uri": "model://disc_robot"},
                                 "initial_pose": {"pose": pose(40, 40)}})
    check(r["values"]["result"]["result"] == 1, "spawn keeper: %s" % r)
    replies = []

    b = Client(port)
    b.send("{not json")
    r = b.recv()
    replies.append(r)
    check(r["result"] is False and "malformed JSON" in r["values"], "malformed JSON: %s" % r)
    b.send({"op": "frobnicate", "id": "x"})
    r = b.recv()
    replies.append(r)
    check(r["result"] is False and "Unknown operation" in r["values"] and r["id"] == "x", "unknown op: %s" % r)
    r = b.call("/nope", {}, "y")
    replies.append(r)
    check(r["result"] is False and r["values"] == "Service /nope does not exist" and r["id"] == "y", "unknown service")
    r = b.call("/delete_entity", {"entity": 5})
    replies.append(r)
    check(r["result"] is False and "requires a string for field entity" in r["values"], "wrong type: %s" % r)
    r = b.call("/delete_entity", {"entity": "keeper", "foo": 1})
    replies.append(r)
    check(r["result"] is False and "does not have a field foo" in r["values"], "unknown field: %s" % r)
    r = b.call("/step_simulation", {"steps": 1.0})
    replies.append(r)
    check(r["result"] is False and "uint64" in r["values"], "float for an integer: %s" % r)
    r = b.call("/set_simulation_state", {"state": {"state": 300}})
    replies.append(r)
    check(r["result"] is False and "out of range" in r["values"], "uint8 out of range: %s" % r)
    r = b.call("/set_simulation_state", {"state": {"state": 9}})
    replies.append(r)
    check(r["result"] is True and r["values"]["result"]["result"] == 0, "state 9: FEATURE_UNSUPPORTED: %s" % r)
    r = b.call("get_simulation_state", [])
    replies.append(r)
    check(r["result"] is True and r["service"] == "get_simulation_state", "relative name, list args: %s" % r)
    b.send({"op": "set_level", "level": "info"})
    b.send(b"\x00\x01binary", opcode=2)
    r = b.recv()
    replies.append(r)
    check(r["result"] is False and "binary" in r["values"], "binary frame refused: %s" % r)
    # larger than the 4 MiB limit: refused, and the connection still works
    b.send(b'{"op":"call_service","service":"/get_entities","args":{"filters":{"filter":"' + b"a" * (5 << 20) + b'"}}}')
    r = b.recv(timeout=30)
    replies.append(r)
    check(r is not None and r["result"] is False and "larger" in r["values"], "huge frame refused")
    r = b.call("/get_simulation_state", {})
    check(r is not None and r["result"] is True, "connection usable after a huge frame")
    check(all(isinstance(x, dict) and x.get("op") != "status" for x in replies), "never a status op")
    b.close()

    # abrupt closes: half a frame, a handshake only, a connection without a handshake,
    # and a frame header announcing 2^63 bytes
    c = Client(port)
    c.sock.sendall(c.frame(b'{"op":"call_service","service":"/get_entities"}')[:9])
    c.sock.close()
    Client(port).close()
    raw = Client(port, handshake=False)
    raw.sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    raw.close()
    d = Client(port)
    d.sock.sendall(bytes([0x81, 0xFF]) + struct.pack(">Q", 1 << 63) + os.urandom(4) + b"xxxx")
    try:
        d.recv(timeout=3)
    except (TimeoutError, OSError):
        pass
    d.close()
    check(keeper_intact(a), "keeper intact after abrupt closes")

    # a client that never reads: many requests with a tiny receive buffer, bounded in time
    e = socket.socket()
    e.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    e.connect(("127.0.0.1", port))
    ec = Client.__new__(Client)
    ec.sock, ec.buf = e, b""
    key = base64.b64encode(os.urandom(16)).decode()
    e.sendall(("GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n" % key).encode())
    e.settimeout(0.5)
    request = ec.frame(json.dumps({"op": "call_service", "id": "n", "service": "/get_entities_states",
                                   "args": {}}).encode())
    sent, t_end = 0, time.time() + 4
    try:
        while sent < 20000 and time.time() < t_end:
            e.sendall(request)
            sent += 1
    except (socket.timeout, OSError):
        pass
    t0 = time.time()
    ok = keeper_intact(a)
    check(ok and time.time() - t0 < 2, "other clients served while one never reads (%d requests sent)" % sent)
    e.close()

    # a long action on one connection does not block another
    f = Client(port)
    a.call("/set_simulation_state", {"state": {"state": 2}})
    a.send({"op": "send_action_goal", "id": "g1", "action": "/simulate_steps",
            "action_type": "simulation_interfaces/action/SimulateSteps", "args": {"steps": 50000000}, "feedback": False})
    time.sleep(0.2)
    r = f.call("/get_simulation_state", {})
    check(r["result"] is True, "served during another client's action")
    a.send({"op": "cancel_action_goal", "id": "g1", "action": "/simulate_steps"})
    r = a.recv()
    while r is not None and r.get("op") != "action_result":
        r = a.recv()
    check(r is not None and r["status"] == 5 and r["id"] == "g1", "canceled goal: %s" % r)
    # an unknown action and a goal while PLAYING
    a.send({"op": "send_action_goal", "id": "g2", "action": "/nope", "action_type": "x/action/Y", "args": {}})
    r = a.recv()
    check(r["op"] == "action_result" and r["result"] is False and r["status"] == 0, "unknown action: %s" % r)
    a.call("/set_simulation_state", {"state": {"state": 1}})
    a.send({"op": "send_action_goal", "id": "g3", "action": "/simulate_steps",
            "action_type": "simulation_interfaces/action/SimulateSteps", "args": {"steps": 2}, "feedback": True})
    r = a.recv()
    check(r["op"] == "action_result" and r["status"] == 6 and r["values"]["result"]["result"] == 4,
          "goal while playing aborts with OPERATION_FAILED: %s" % r)
    a.call("/set_simulation_state", {"state": {"state": 2}})
    # a client whose goal is running disconnects: the goal stops, the server goes on
    g = Client(port)
    g.send({"op": "send_action_goal", "id": "g4", "action": "/simulate_steps",
            "action_type": "simulation_interfaces/action/SimulateSteps", "args": {"steps": 50000000}, "feedback": True})
    time.sleep(0.1)
    g.close()
    time.sleep(0.1)
    r = f.call("/step_simulation", {"steps": 1})
    check(r["result"] is True and r["values"]["result"]["result"] == 1, "stepping works after the goal's owner left")
    # /follow_path: feedback after every step, other clients served meanwhile, cancel works
    r = a.call("/spawn_entity", {"name": "walker", "entity_resource": {"uri": "model://disc_robot"},
                                 "initial_pose": {"pose": pose(250, 200)}})
    check(r["values"]["result"]["result"] == 1, "spawn walker: %s" % r)
    slow = {"entity": "walker", "path": [pose(250, 200), pose(260, 200)], "speed": 0.001}
    a.send({"op": "send_action_goal", "id": "p1", "action": "/follow_path",
            "action_type": "planbench_interfaces/action/FollowPath", "args": slow, "feedback": True})
    time.sleep(0.2)
    r = f.call("/get_entity_state", {"entity": "keeper"})
    check(r["result"] is True and r["values"]["state"]["pose"]["position"]["x"] == 40,
          "served during a follow_path goal")
    a.send({"op": "cancel_action_goal", "id": "p1", "action": "/follow_path"})
    fb = []
    r = a.recv()
    while r is not None and r.get("op") == "action_feedback":
        fb.append(r["values"])
        r = a.recv()
    check(r is not None and r.get("op") == "action_result" and r["status"] == 5 and r["id"] == "p1",
          "canceled follow goal: %s" % r)
    check(len(fb) > 10 and all(fb[i + 1]["completed_steps"] == fb[i]["completed_steps"] + 1 and
                               fb[i + 1]["distance_remaining"] < fb[i]["distance_remaining"] and
                               fb[i + 1]["pose"]["position"]["x"] > fb[i]["pose"]["position"]["x"]
                               for i in range(len(fb) - 1)),
          "follow feedback after every step, making progress (%d messages)" % len(fb))
    x_cancel = r["values"]["pose"]["position"]["x"] if r else None
    check(r is not None and 250 < x_cancel < 260 and r["values"]["completed_steps"] == len(fb),
          "the result says where it stopped: %s" % r)
    time.sleep(0.05)
    r = a.call("/get_entity_state", {"entity": "walker"})
    check(r["values"]["state"]["pose"]["position"]["x"] == x_cancel, "a canceled follower stays put")
    fast = {"entity": "walker", "path": [pose(260, 200)], "speed": 100}
    a.send({"op": "send_action_goal", "id": "p2", "action": "follow_path", "args": fast, "feedback": True})
    fb = []
    r = a.recv()
    while r is not None and r.get("op") == "action_feedback":
        fb.append(r["values"])
        r = a.recv()
    check(r is not None and r["status"] == 4 and r["values"]["result"]["result"] == 1 and
          r["values"]["pose"]["position"]["x"] == 260 and r["values"]["completed_steps"] == len(fb) >= 1 and
          fb[-1]["distance_remaining"] == 0,
          "follow goal reaches its end: %s, %d feedback" % (r, len(fb)))
    a.send({"op": "send_action_goal", "id": "p3", "action": "/follow_path", "args": {"entity": "walker", "path": 7}})
    r = a.recv()
    check(r["op"] == "action_result" and r["result"] is False and r["status"] == 0, "bad follow goal: %s" % r)
    a.send({"op": "send_action_goal", "id": "p4", "action": "/follow_path",
            "args": {"entity": "walker", "path": [pose(2, 2)]}})
    r = a.recv()
    check(r["op"] == "action_result" and r["status"] == 6 and r["values"]["result"]["result"] == 4 and
          "waypoint 0" in r["values"]["result"]["error_message"], "follow into a wall aborts: %s" % r)
    # the CancelGoal service cancels the caller's goals of that action only
    a.send({"op": "send_action_goal", "id": "p5", "action": "/follow_path",
            "args": {"entity": "walker", "path": [pose(250, 200)], "speed": 0.001}, "feedback": False})
    r = f.call("/follow_path/_action/cancel_goal", {})
    check(r["result"] is True, "cancel_goal service answers: %s" % r)
    r = a.call("/simulate_steps/_action/cancel_goal", {})
    check(r["result"] is True and r.get("op") == "service_response", "cancel of another action: %s" % r)
    time.sleep(0.1)
    r = a.call("/get_entity_state", {"entity": "walker"})
    x_run = r["values"]["state"]["pose"]["position"]["x"] if r and r.get("op") == "service_response" else None
    check(x_run is not None and x_run < 260, "the goal still runs after others' cancels: %s" % r)
    r = a.call("/follow_path/_action/cancel_goal", {})
    while r is not None and r.get("op") != "action_result":
        r = a.recv()
    check(r is not None and r["id"] == "p5" and r["status"] == 5, "own cancel_goal service cancels: %s" % r)
    a.call("/delete_entity", {"entity": "walker"})
    # subscriptions: entity events reach a subscriber
    f.send({"op": "subscribe", "id": "s", "topic": "/entity_events", "type": "planbench_interfaces/msg/EntityEvent"})
    f.call("/get_simulation_state", {})  # a round trip: the subscription is in place
    a.call("/spawn_entity", {"name": "visitor", "entity_resource": {"uri": "model://disc_robot"},
                             "initial_pose": {"pose": pose(100, 40)}})
    r = f.recv()
    check(r["op"] == "publish" and r["msg"] == {"event": "created", "entity": "visitor"}, "event published: %s" % r)
    # entity states after every step
    f.send({"op": "unsubscribe", "id": "s", "topic": "/entity_events"})
    f.send({"op": "subscribe", "id": "t", "topic": "/entity_states", "type": "planbench_interfaces/msg/EntityStates"})
    f.call("/get_simulation_state", {})
    r = a.call("/step_simulation", {"steps": 2})
    states = [f.recv(), f.recv()]
    check(all(m and m["op"] == "publish" and m["topic"] == "/entity_states" and "keeper" in m["msg"]["entities"]
              and len(m["msg"]["states"]) == len(m["msg"]["entities"]) for m in states),
          "two state messages for two steps: %s" % str(states)[:300])
    check(states[1]["msg"]["stamp"] != states[0]["msg"]["stamp"], "the stamp advances")
    # PLAYING steps in real time: an entity with a twist moves without any step request
    a.call("/set_entity_state", {"entity": "visitor", "state": {"twist": {"linear": {"x": 10, "y": 0, "z": 0}}},
                                 "set_twist": True})
    a.call("/set_simulation_state", {"state": {"state": 1}})
    x0 = None
    moved = False
    t_end = time.time() + 5
    while time.time() < t_end and not moved:
        r = a.call("/get_entity_state", {"entity": "visitor"})
        x = r["values"]["state"]["pose"]["position"]["x"]
        x0 = x if x0 is None else x0
        moved = x > x0
        time.sleep(0.05)
    check(moved, "PLAYING moves entities in real time")
    a.call("/set_simulation_state", {"state": {"state": 2}})
    # the scenario worker's vehicle takes commands only while an external scenario runs
    a.send({"op": "publish", "id": "w1", "topic": "/asg_worker0/control/command/control_cmd",
            "msg": {"lateral": {"steering_tire_angle": 0.0}, "longitudinal": {"velocity": 1.0, "acceleration": 1.0}}})
    r = a.recv()
    check(r is not None and r.get("op") == "status" and r.get("level") == "error" and "external" in r.get("msg", ""),
          "a command to the worker's vehicle with no external scenario: %s" % r)
    # a run_scenario_action goal that cannot run (a missing catalogue) fails naming it
    a.send({"op": "send_action_goal", "id": "r1", "action": "/asg_worker0/run_scenario_action",
            "action_type": "planbench_interfaces/action/RunScenario",
            "args": {"driver": "external", "catalogue": "no_such_catalogue.json"}})
    r = a.recv()
    check(r is not None and r.get("op") == "action_result" and r.get("result") is False and r.get("id") == "r1",
          "a bad run_scenario_action goal fails: %s" % r)
    check(keeper_intact(a), "keeper intact at the end")
    a.close()
    f.close()


if __name__ == "__main__":
    sys.exit(main())
