#!/usr/bin/env python3
"""The interface files of interfaces/planbench_interfaces against the server that speaks them.

usage: interfaces_test.py PLANBENCH SOURCE_ROOT

Every field of every .msg, .srv and .action file must be what `planbench serve` describes
(rosapi's message_details and service_*_details: names, types, array kinds, in order) or,
for what it writes without a schema (AnalyzeScenario, ScenarioMetrics, the actions' results
and feedback), the keys of real messages from a run, in order, with values of the kind the
file's type names. A field added to the server and not to the files (or the other way round)
fails here. Prints "N passed, N failed"; exits 1 on any failure.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_test import Client, start_server, stop_server  # noqa: E402

passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("CHECK failed:", what, file=sys.stderr)


def parse(path):
    """The sections of an interface file: lists of (type, name)."""
    sections = [[]]
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line == "---":
            sections.append([])
        elif line:
            ftype, name = line.split()[:2]
            sections[-1].append((short(ftype), name))
    return sections


PRIMITIVE = {"bool", "byte", "char", "string", "float32", "float64", "int8", "uint8", "int16", "uint16", "int32",
             "uint32", "int64", "uint64"}


def short(t):
    """geometry_msgs/msg/Pose and geometry_msgs/Pose are one type; a bare name is this package's."""
    t = t.replace("/msg/", "/")
    base = t.split("[")[0]
    if "/" not in base and base not in PRIMITIVE:
        t = "planbench_interfaces/" + t
    return t


def from_rosapi(typedefs):
    d = typedefs[0] if typedefs else {"fieldnames": [], "fieldtypes": [], "fieldarraylen": []}
    out = []
    for name, ftype, n in zip(d["fieldnames"], d["fieldtypes"], d["fieldarraylen"]):
        out.append((short(ftype) + ("[]" if n == 0 else "" if n == -1 else "[%d]" % n), name))
    return out


NUMBER = re.compile(r"^(u?int(8|16|32|64)|float(32|64))$")


def kind_ok(ftype, value):
    """Does a JSON value have the kind the interface type names?"""
    if ftype.endswith("]"):
        return isinstance(value, list)
    if NUMBER.match(ftype):
        return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))
    if ftype == "bool":
        return isinstance(value, bool)
    if ftype == "string":
        return isinstance(value, str)
    return isinstance(value, dict)


def same_as_json(fields, values, what, ignore=()):
    keys = [k for k in values if k not in ignore]
    check([n for _, n in fields] == keys, "%s: fields %s, JSON keys %s" % (what, [n for _, n in fields], keys))
    for ftype, name in fields:
        if name in values:
            check(kind_ok(ftype, values[name]), "%s.%s: %s is not a %s" % (what, name, values[name], ftype))


def wait_goal(c, goal_id, timeout):
    """The last feedback and the result of action goal `goal_id` (None for what did not come)."""
    feedback = None
    for _ in range(1000):
        m = c.recv(timeout=timeout)
        if m is None:
            break
        if m.get("id") == goal_id and m.get("op") == "action_feedback":
            feedback = m["values"]
        if m.get("id") == goal_id and m.get("op") == "action_result":
            return feedback, m["values"]
    return feedback, None


def run(port, root):
    base = os.path.join(root, "interfaces", "planbench_interfaces")
    c = Client(port)
    # every message and service the server's schema describes (all but the two checked on a run below)
    msgs = sorted(f[:-4] for f in os.listdir(os.path.join(base, "msg")) if f.endswith(".msg"))
    srvs = sorted(f[:-4] for f in os.listdir(os.path.join(base, "srv")) if f.endswith(".srv"))
    check(len(msgs) >= 13 and len(srvs) >= 4, "the package's files: %s %s" % (msgs, srvs))
    for name in msgs:
        if name in ("AnalyzeScenario", "ScenarioMetrics"):
            continue
        r = c.call("/rosapi/message_details", {"type": "planbench_interfaces/msg/" + name})
        got = from_rosapi(r["values"]["typedefs"])
        check(got and parse(os.path.join(base, "msg", name + ".msg"))[0] == got,
              "msg/%s.msg: the server has %s" % (name, got))
    for name in srvs:
        file_sections = parse(os.path.join(base, "srv", name + ".srv"))
        for i, part in enumerate(("request", "response")):
            r = c.call("/rosapi/service_%s_details" % part, {"type": "planbench_interfaces/srv/" + name})
            got = from_rosapi(r["values"]["typedefs"])
            check(len(file_sections) == 2 and file_sections[i] == got, "srv/%s.srv %s: the server has %s" % (name, part, got))
    # the actions' goals the server's schema describes
    actions = {n: parse(os.path.join(base, "action", n + ".action")) for n in ("FollowPath", "RunScenario")}
    for name, sections in actions.items():
        r = c.call("/rosapi/message_details", {"type": "planbench_interfaces/action/%s_Goal" % name})
        got = from_rosapi(r["values"]["typedefs"])
        check(len(sections) == 3 and sections[0] == got, "action/%s.action goal: the server has %s" % (name, got))
    # FollowPath's feedback and result: a disc robot follows a short path at dock_a
    start = {"position": {"x": 40, "y": 40, "z": 0}, "orientation": {"x": 0, "y": 0, "z": 0, "w": 1}}
    end = {"position": {"x": 43, "y": 40, "z": 0}, "orientation": {"x": 0, "y": 0, "z": 0, "w": 1}}
    r = c.call("/spawn_entity", {"name": "walker", "entity_resource": {"uri": "model://disc_robot"},
                                 "initial_pose": {"pose": start}})
    check(r["values"]["result"]["result"] == 1, "spawn a walker: %s" % r)
    c.send({"op": "send_action_goal", "id": "f", "action": "/follow_path", "feedback": True,
            "action_type": "planbench_interfaces/action/FollowPath",
            "args": {"entity": "walker", "path": [start, end], "speed": 100}})
    c.send({"op": "call_service", "id": "s", "service": "/step_simulation", "args": {"steps": 20}})
    feedback, result = wait_goal(c, "f", 10)
    check(feedback is not None and result is not None, "a FollowPath goal gives feedback and a result")
    if feedback and result:
        same_as_json(actions["FollowPath"][2], feedback, "FollowPath feedback")
        same_as_json(actions["FollowPath"][1], result, "FollowPath result")
    # RunScenario: the bundled scenario as a goal; its result is AnalyzeScenario
    import json
    request = json.load(open(os.path.join(root, "worlds", "scenario_bacre.json")))
    request["reference"] = True
    c.send({"op": "send_action_goal", "id": "r", "action": "/asg_worker0/run_scenario_action", "feedback": True,
            "action_type": "planbench_interfaces/action/RunScenario", "args": request})
    feedback, result = wait_goal(c, "r", 30)
    check(feedback is not None and result is not None, "a RunScenario goal gives feedback and a result")
    if feedback and result:
        same_as_json(actions["RunScenario"][2], feedback, "RunScenario feedback")
        analyze = parse(os.path.join(base, "msg", "AnalyzeScenario.msg"))[0]
        check(actions["RunScenario"][1] == analyze, "the action's result is AnalyzeScenario.msg's fields")
        # "error" is there only when a run could not start
        same_as_json([f for f in analyze if f[1] != "error"], result, "AnalyzeScenario")
        metrics = parse(os.path.join(base, "msg", "ScenarioMetrics.msg"))[0]
        same_as_json(metrics, result.get("planbench", {}), "ScenarioMetrics", ignore=("captures",))
        odo = result["vehicle_trajectory"][0] if result.get("vehicle_trajectory") else {}
        check(set(odo) == {"header", "child_frame_id", "pose", "twist"}, "OdometryWithoutCovariance: %s" % list(odo))
    c.close()


def main():
    planbench, root = sys.argv[1], sys.argv[2]
    server, port = start_server(planbench, root)
    if port is None:
        return 1
    try:
        run(port, root)
    finally:
        stop_server(server)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
