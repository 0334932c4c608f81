#!/usr/bin/env python3
"""planbench serve against an attacker on the same machine (issue 15), over real sockets.

- the bound address, read from /proc/net/tcp{,6}: exactly 127.0.0.1, ::1, localhost's 127.0.0.1;
  an address the machine does not have and a non-loopback bind without a token are refused;
  a busy port and --port 99999 say what is wrong;
- a handshake with a foreign Origin is refused, loopback origins and no Origin are served,
  --allow-origin admits one;
- a token: ops before it get an error status; ?token= in the URL or rosbridge's auth op admit;
- entity-name filters that would freeze the server (a backreference, nested counted
  repetitions) are answered with an error within a second while a second client is served;
- XML entity expansion, /dev/stdin as a map and a FIFO are answered at once;
- a client that never reads is dropped and the server's memory stays bounded;
- 10,000 publishes at full speed (cmd_vel good and bad, unknown topics): error statuses, the
  server alive and serving another client;
- SIGTERM ends the server within a second.
Every loop is bounded in count and time; every server is stopped.

usage: hardening_test.py PLANBENCH SOURCE_ROOT
"""
import base64
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_test import Client  # noqa: E402  (the raw WebSocket client of the protocol test)

checks = failures = 0


def check(cond, what):
    global checks, failures
    checks += 1
    if not cond:
        failures += 1
        print("CHECK failed:", what, file=sys.stderr)


class Peer(Client):
    """A client with a chosen address, path and Origin header."""

    def __init__(self, port, host="127.0.0.1", path="/", origin=None):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect((host, port))
        self.buf = b""
        key = base64.b64encode(os.urandom(16)).decode()
        extra = "Origin: %s\r\n" % origin if origin else ""
        self.sock.sendall(("GET %s HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n" % (path, key, extra)).encode())
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionRefusedError("handshake refused")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionRefusedError(head.split(b"\r\n")[0].decode(errors="replace"))


class Server:
    def __init__(self, planbench, root, *args, world="sim_room1.xml"):
        cmd = [planbench, "serve"] + ([os.path.join(root, "worlds", world)] if world else []) + \
              ["--worlds", os.path.join(root, "worlds"), "--robots", os.path.join(root, "robots")] + list(args)
        if "--port" not in args:
            cmd += ["--port", "0"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.line = self.proc.stdout.readline()
        m = re.search(r"listening on \[?([0-9a-fA-F.:]+)\]?:(\d+)", self.line)
        self.address, self.port = (m.group(1), int(m.group(2))) if m else (None, None)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.stderr.read()


def listening(port):
    """The local addresses listening on `port`, from /proc/net/tcp and tcp6."""
    found = []
    for name, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            lines = open(name).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, state = fields[1], fields[3]
            addr, p = local.split(":")
            if state == "0A" and int(p, 16) == port:
                raw = bytes.fromhex(addr)
                if width == 8:
                    found.append(socket.inet_ntop(socket.AF_INET, raw[::-1]))
                else:
                    words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
                    found.append(socket.inet_ntop(socket.AF_INET6, words))
    return found


def run_binding(pb, root):
    for host, want in (("127.0.0.1", "127.0.0.1"), ("localhost", "127.0.0.1"), ("::1", "::1")):
        s = Server(pb, root, "--host", host)
        try:
            check(s.port is not None, "--host %s: did not start: %s" % (host, s.line))
            if s.port:
                check(s.address == want, "--host %s: printed %s" % (host, s.address))
                check(listening(s.port) == [want], "--host %s: listening on %s" % (host, listening(s.port)))
                c = Peer(s.port, host=want)
                r = c.call("/get_simulation_state", {})
                check(r is not None and r["values"]["result"]["result"] == 1, "--host %s: served" % host)
                c.close()
        finally:
            s.stop()
    # an address of no interface here, and one that is not loopback without a token
    r = subprocess.run([pb, "serve", "--host", "10.255.255.1", "--port", "0", "--token", "x"],
                       capture_output=True, text=True, timeout=10)
    check(r.returncode == 2 and "not an address of this machine" in r.stderr, "foreign address: %s" % r.stderr)
    r = subprocess.run([pb, "serve", "--host", "0.0.0.0", "--port", "0"], capture_output=True, text=True, timeout=10)
    check(r.returncode == 2 and "--token" in r.stderr, "any-address without a token: %s" % r.stderr)
    r = subprocess.run([pb, "serve", "--port", "99999"], capture_output=True, text=True, timeout=10)
    check(r.returncode == 2 and "0..65535" in r.stderr, "--port 99999: %s" % r.stderr)
    s = Server(pb, root)
    try:
        r = subprocess.run([pb, "serve", "--port", str(s.port)], capture_output=True, text=True, timeout=10)
        check(r.returncode == 2 and "already in use" in r.stderr and r.stderr.count("\n") == 1,
              "busy port: %r" % r.stderr)
    finally:
        s.stop()


def run_origin_and_token(pb, root):
    s = Server(pb, root)
    try:
        for origin, ok in (("http://evil.example.com", False), ("http://localhost:3000", True),
                           ("http://127.0.0.1", True), ("https://[::1]:8443", True),
                           ("http://localhost.evil.example.com", False), ("null", False), (None, True)):
            try:
                Peer(s.port, origin=origin).close()
                served = True
            except (ConnectionRefusedError, ConnectionResetError, BrokenPipeError):
                served = False
            check(served == ok, "Origin %s: %s" % (origin, "served" if served else "refused"))
        # the server goes on for everyone else
        c = Peer(s.port)
        check(c.call("/get_simulation_state", {}) is not None, "served after refusals")
        c.close()
    finally:
        s.stop()
    s = Server(pb, root, "--allow-origin", "http://evil.example.com")
    try:
        Peer(s.port, origin="http://evil.example.com").close()
        check(True, "")
    except ConnectionRefusedError:
        check(False, "--allow-origin did not admit the origin")
    finally:
        s.stop()

    s = Server(pb, root, "--token", "s3cret")
    try:
        c = Peer(s.port)
        r = c.call("/get_simulation_state", {})
        check(r is not None and r.get("op") == "status" and "not authenticated" in r.get("msg", ""),
              "op without the token: %s" % r)
        c.send({"op": "auth", "mac": "wrong"})
        r = c.recv()
        check(r is not None and r.get("op") == "status" and "wrong secret" in r.get("msg", ""), "wrong secret: %s" % r)
        c.send({"op": "auth", "mac": "s3cret"})
        r = c.call("/get_simulation_state", {})
        check(r is not None and r.get("op") == "service_response", "after the auth op: %s" % r)
        c.close()
        c = Peer(s.port, path="/?token=s3cret")
        r = c.call("/get_simulation_state", {})
        check(r is not None and r.get("op") == "service_response", "token in the URL: %s" % r)
        c.close()
    finally:
        s.stop()


def spawn(c, name, x, y):
    return c.call("/spawn_entity", spawn_request(name, x, y))


def spawn_request(name, x, y):
    return {"name": name, "entity_resource": {"uri": "model://disc_robot"}, "allow_renaming": False,
            "initial_pose": {"header": {"frame_id": ""}, "pose": {
                "position": {"x": x, "y": y, "z": 0}, "orientation": {"x": 0, "y": 0, "z": 0, "w": 1}}}}


def run_hostile_requests(pb, root):
    s = Server(pb, root)
    try:
        c, other = Peer(s.port), Peer(s.port)
        r = spawn(c, "a" * 127, 100, 100)
        check(r is not None and r["values"]["result"]["result"] == 1, "spawn the long name: %s" % r)
        for pattern in (r"(a*)*(a*)*\1\2$", "((a{0,45}){0,45}){0,45}", "a{1000}", "x" * 300):
            t0 = time.time()
            r = c.call("/get_entities", {"filters": {"filter": pattern}})
            took = time.time() - t0
            check(r is not None and took < 1.0 and r["values"]["result"]["result"] != 1,
                  "filter %.30s: %.2f s, %s" % (pattern, took, r and r["values"]["result"]))
            r = other.call("/get_simulation_state", {})
            check(r is not None, "the other client is served after filter %.30s" % pattern)
        r = c.call("/get_entities", {"filters": {"filter": "^a+$"}})
        check(r is not None and r["values"]["result"]["result"] == 1 and len(r["values"]["entities"]) == 1,
              "a plain filter still works: %s" % (r and r["values"]))
        # XML entity expansion: an entity of 3,000 characters referenced 100,000 times
        doc = ('<?xml version="1.0"?><!DOCTYPE w [<!ENTITY e "%s">]><simworld name="%s"></simworld>'
               % ("x" * 3000, "&e;" * 100000))
        t0 = time.time()
        r = c.call("/load_world", {"uri": "", "resource_string": doc, "fail_on_unsupported_element": False})
        took = time.time() - t0
        check(r is not None and took < 1.0 and r["values"]["result"]["result"] != 1 and
              "entity" in r["values"]["result"]["error_message"], "entity expansion: %.2f s, %s" %
              (took, r and r["values"]["result"]))
        # special files: /dev/stdin as a map, a FIFO as a map
        fifo = os.path.join(tempfile.mkdtemp(), "map.png")
        os.mkfifo(fifo)
        for path in ("/dev/stdin", fifo):
            doc = '<simworld name="w"><map image="%s"/></simworld>' % path
            t0 = time.time()
            r = c.call("/load_world", {"uri": "", "resource_string": doc, "fail_on_unsupported_element": False})
            took = time.time() - t0
            check(r is not None and took < 1.0 and r["values"]["result"]["result"] != 1,
                  "map %s: %.2f s, %s" % (path, took, r and r["values"]["result"]))
            check(other.call("/get_simulation_state", {}) is not None, "served after the map %s" % path)
        os.unlink(fifo)
        c.close()
        other.close()
    finally:
        s.stop()
    # SpawnEntities with more than the batch bound is refused whole, at once
    s = Server(pb, root)
    try:
        c = Peer(s.port)
        reqs = [spawn_request("d%d" % i, 50, 50) for i in range(1001)]
        t0 = time.time()
        r = c.call("/spawn_entities", {"spawn_requests": reqs})
        check(r is not None and time.time() - t0 < 2 and "at most 1000" in json.dumps(r), "batch bound: %s" %
              (json.dumps(r)[:200] if r else r))
        c.close()
    finally:
        s.stop()


def run_topic_flood(pb, root):
    """10,000 publishes as fast as a client can send them: cmd_vel (good ones, a wrong type, an
    entity that does not exist) and a topic the server does not take. Errors get status
    messages; the server keeps serving another client; the good commands took effect."""
    s = Server(pb, root)
    try:
        c, other = Peer(s.port), Peer(s.port)
        r = spawn(c, "bot", 100, 100)
        check(r is not None and r["values"]["result"]["result"] == 1, "spawn bot: %s" % r)
        good = {"linear": {"x": 1, "y": 0, "z": 0}, "angular": {"x": 0, "y": 0, "z": 0}}
        msgs = [{"op": "publish", "topic": "/bot/cmd_vel", "msg": good},
                {"op": "publish", "topic": "/bot/cmd_vel", "msg": {"data": "go"}},
                {"op": "publish", "topic": "/ghost/cmd_vel", "msg": good},
                {"op": "publish", "topic": "/chatter", "msg": {"data": "hi"}}]
        t0 = time.time()
        try:
            for i in range(10000):
                c.send(msgs[i % 4])
        except OSError:
            pass  # the server may drop a client whose error statuses it does not read
        sent = time.time() - t0
        statuses, dropped = 0, False
        deadline = time.time() + 20
        while statuses < 7500 and time.time() < deadline:
            try:
                m = c.recv(timeout=5)
            except OSError:
                m = None
            if m is None:
                dropped = True
                break
            statuses += m.get("op") == "status" and m.get("level") == "error"
        check(statuses == 7500 or dropped,
              "an error status for each bad publish, or the flooding client dropped: %d of 7500" % statuses)
        r = other.call("/get_entity_state", {"entity": "bot"})
        check(r is not None and r["values"]["result"]["result"] == 1 and
              r["values"]["state"]["twist"]["linear"]["x"] == 1,
              "the other client is served, the good command applied (%.0f msgs/s sent): %s" %
              (10000 / max(sent, 1e-9), r and r["values"]["result"]))
        check(s.proc.poll() is None, "the server is alive")
        c.close()
        other.close()
    finally:
        s.stop()


def run_confinement(pb, root):
    s = Server(pb, root, "--confine-worlds")
    try:
        c = Peer(s.port)
        outside = os.path.join(tempfile.mkdtemp(), "elsewhere.xml")
        with open(outside, "w") as f:
            f.write(open(os.path.join(root, "worlds", "sim_room1.xml")).read().replace("../maps/", root + "/maps/"))
        for uri in (outside, "file://" + outside, "/etc/no-such-world.xml"):
            r = c.call("/load_world", {"uri": uri, "resource_string": "", "fail_on_unsupported_element": False})
            check(r is not None and r["values"]["result"]["result"] == 2, "confined: %s: %s" % (uri, r and r["values"]))
        doc = '<simworld name="w"><map image="/etc/hostname"/></simworld>'
        r = c.call("/load_world", {"uri": "", "resource_string": doc, "fail_on_unsupported_element": False})
        check(r is not None and r["values"]["result"]["result"] != 1, "confined map: %s" % (r and r["values"]))
        inside = os.path.join(root, "worlds", "sim_forest.xml")
        r = c.call("/load_world", {"uri": inside, "resource_string": "", "fail_on_unsupported_element": False})
        check(r is not None and r["values"]["result"]["result"] == 1, "a world of the folder: %s" % (r and r["values"]))
        c.close()
    finally:
        s.stop()


def rss_kb(pid):
    for line in open("/proc/%d/status" % pid):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def run_slow_readers(pb, root):
    s = Server(pb, root, "--max-queue-kb", "256", "--max-total-queue-kb", "1024", "--dt", "0.001")
    try:
        base = rss_kb(s.proc.pid)
        # readers that subscribe to the states of many entities and never read
        c = Peer(s.port)
        for i in range(150):
            spawn(c, "e%d" % i, 30 + (i % 15) * 25, 30 + (i // 15) * 25)
        slow = []
        for _ in range(6):
            p = Peer(s.port)
            p.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            p.send({"op": "subscribe", "topic": "/entity_states"})
            slow.append(p)
        c.call("/set_simulation_state", {"state": {"state": 1}})  # PLAYING: states every step
        deadline = time.time() + 8
        dropped = False
        while time.time() < deadline and not dropped:
            time.sleep(0.5)
            dropped = s.proc.poll() is None and "dropping a client" in (s.proc.stderr.peek() if hasattr(
                s.proc.stderr, "peek") else "")
        r = c.call("/get_simulation_state", {})
        check(r is not None, "a reading client is served while others do not read")
        grown = rss_kb(s.proc.pid) - base
        check(grown < 64 * 1024, "the server grew by %d KiB with readers that never read" % grown)
        check(s.proc.poll() is None, "the server is still running")
        c.call("/set_simulation_state", {"state": {"state": 2}})
        for p in slow:
            p.close()
        c.close()
    finally:
        err = s.stop()
    check("dropping a client that does not read" in err, "a slow reader was dropped with a log line: %r" % err[-300:])


def run_sigterm(pb, root):
    s = Server(pb, root)
    try:
        c = Peer(s.port)
        c.call("/set_simulation_state", {"state": {"state": 1}})
        t0 = time.time()
        s.proc.send_signal(signal.SIGTERM)
        try:
            s.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            pass
        check(s.proc.poll() is not None and time.time() - t0 < 1.5, "SIGTERM: ended after %.2f s" % (time.time() - t0))
        c.close()
    finally:
        s.stop()


def main():
    pb, root = sys.argv[1], sys.argv[2]
    for part in (run_binding, run_origin_and_token, run_hostile_requests, run_topic_flood, run_confinement,
                 run_slow_readers, run_sigterm):
        try:
            part(pb, root)
        except Exception as e:  # a part that breaks is a failure, the others still run
            check(False, "%s raised %r" % (part.__name__, e))
    print("hardening: %d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
