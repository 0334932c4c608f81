"""Independent checks of car plans (issues 18 and 19's tests), from the map's PGM and the vehicle
file alone, with this file's own geometry: the footprint rectangle covers only free cells,
exactly (every cell its sides cross, by a grid traversal, and every cell whose centre lies
inside) at each checked pose, and its sides cross only free cells at poses 2 cm apart along each
curve (a 10 cm cell cannot slip past a side that moves less than 5 cm between two poses).

  python3 car_check.py curves RESULT.json FAMILY     a geometric plan: every edge's curve word
      re-integrated must end on the next waypoint, swept as above; the cost is the sum of the
      words' lengths; Dubins words never reverse
  python3 car_check.py drive RESULT.json SIM.json    a kinodynamic plan replayed by planbench
      simulate (SIM.json, any dt): every replayed state is checked whole, the states at the
      controls' ends equal the plan's path bit for bit when the replay's dt is the plan's
      control_dt, and the last ends within the goal radius of the goal's position
Run from the source root (maps/wall40, robots/lexus_rx450h.xml)."""
import json, math, re, sys

import json, math, re, sys
text = open("maps/wall40.yaml").read()
resolution = float(re.search(r"^resolution:\s*(.*)$", text, re.M).group(1))
data = open("maps/wall40.pgm", "rb").read()
magic, size, maxval, pixels = data.split(b"\n", 3)
width, height = map(int, size.split())
car = open("robots/lexus_rx450h.xml").read()
attr = lambda name: float(re.search(r'\b%s="([^"]+)"' % name, car).group(1))
length, width_m, overhang = attr("length"), attr("width"), attr("rear_overhang")
wheelbase, max_steer = attr("wheelbase"), attr("max_steer")
radius = wheelbase / math.tan(max_steer)

def cell_free(x, y):
    col, row = math.floor(x / resolution), math.floor(y / resolution)
    if col < 0 or row < 0 or col >= width or row >= height:
        return False
    return pixels[(height - 1 - row) * width + col] == 254

def corners(x, y, yaw):
    c, s = math.cos(yaw), math.sin(yaw)
    return [(x + c * lx - s * ly, y + s * lx + c * ly)
            for lx, ly in ((-overhang, -width_m / 2), (length - overhang, -width_m / 2),
                           (length - overhang, width_m / 2), (-overhang, width_m / 2))]

def segment_free(p, q):
    # every cell the segment p-q passes through, exactly (Amanatides-Woo grid traversal)
    x0, y0 = p[0] / resolution, p[1] / resolution
    x1, y1 = q[0] / resolution, q[1] / resolution
    col, row = math.floor(x0), math.floor(y0)
    end_col, end_row = math.floor(x1), math.floor(y1)
    dx, dy = x1 - x0, y1 - y0
    step_c = 1 if dx > 0 else -1
    step_r = 1 if dy > 0 else -1
    t_dc = abs(1 / dx) if dx else math.inf
    t_dr = abs(1 / dy) if dy else math.inf
    t_c = ((col + 1 - x0) if dx > 0 else (x0 - col)) * t_dc if dx else math.inf
    t_r = ((row + 1 - y0) if dy > 0 else (y0 - row)) * t_dr if dy else math.inf
    for _ in range(abs(end_col - col) + abs(end_row - row) + 1):
        if not cell_free(col * resolution + resolution / 2, row * resolution + resolution / 2):
            return False
        if col == end_col and row == end_row:
            break
        if t_c < t_r:
            col += step_c
            t_c += t_dc
        else:
            row += step_r
            t_r += t_dr
    return True

def perimeter_free(x, y, yaw):
    k = corners(x, y, yaw)
    return all(segment_free(k[i], k[(i + 1) % 4]) for i in range(4))

def footprint_free(x, y, yaw):
    # the whole rectangle: its perimeter and every cell whose centre lies inside it
    if not perimeter_free(x, y, yaw):
        return False
    c, s = math.cos(yaw), math.sin(yaw)
    reach = math.hypot(max(overhang, length - overhang), width_m / 2)
    for row in range(math.floor((y - reach) / resolution), math.floor((y + reach) / resolution) + 1):
        for col in range(math.floor((x - reach) / resolution), math.floor((x + reach) / resolution) + 1):
            px, py = (col + 0.5) * resolution - x, (row + 0.5) * resolution - y
            lx, ly = c * px + s * py, -s * px + c * py
            if -overhang <= lx <= length - overhang and abs(ly) <= width_m / 2:
                if not cell_free((col + 0.5) * resolution, (row + 0.5) * resolution):
                    return False
    return True

def advance(p, kind, s):
    x, y, yaw = p
    if kind == "S":
        return (x + s * math.cos(yaw), y + s * math.sin(yaw), yaw)
    side = 1.0 if kind == "L" else -1.0
    cx, cy = x - side * radius * math.sin(yaw), y + side * radius * math.cos(yaw)
    yaw2 = yaw + side * s / radius
    return (cx + side * radius * math.sin(yaw2), cy - side * radius * math.cos(yaw2), yaw2)


def check_curves(result, family):
    # the checker itself can fail: a pose across the wall, and one off the map
    assert not footprint_free(20.0, 5.0, 0.0) and not perimeter_free(1.0, 1.0, 0.0)
    assert footprint_free(5.0, 5.0, 0.0)
    assert result["outcome"] == "exact", result["outcome"]
    path, edges = result["path"], result["edges"]
    assert len(edges) == len(path) - 1, "one word per edge"
    assert path[0] == result["start"] and path[-1] == result["goal"], "path ends"
    total = 0.0
    for a, b, word in zip(path, path[1:], edges):
        assert footprint_free(*a), "waypoint (%.3f, %.3f, %.3f) hits the map" % tuple(a)
        p = tuple(a)
        for seg in word:
            kind, s = seg["type"], seg["length"]
            assert kind in "LSR", kind
            if family == "dubins":
                assert s >= 0, "a Dubins word reverses"
            n = int(abs(s) / 0.02) + 1
            for k in range(1, n + 1):
                q = advance(p, kind, s * k / n)
                assert perimeter_free(*q), "footprint hits the map at (%.3f, %.3f, %.3f)" % q
            p = advance(p, kind, s)
            total += abs(s)
        d = math.hypot(p[0] - b[0], p[1] - b[1])
        dyaw = math.remainder(p[2] - b[2], 2 * math.pi)
        assert d < 1e-6 and abs(dyaw) < 1e-6, "word ends %.3g m, %.3g rad from the waypoint" % (d, dyaw)
    assert abs(total - result["cost"]) <= 1e-9 * total, (total, result["cost"])
    assert result["engine"] == "car" and result["edge_check"] == "certified"


def check_drive(result, sim):
    assert result["outcome"] == "exact", result["outcome"]
    assert result["engine"] == "car" and "controls" in result and "edges" not in result
    traj = sim["trajectory"]
    for st in traj:
        assert footprint_free(st["x"], st["y"], st["yaw"]), "a replayed state hits the map at (%.3f, %.3f)" % (st["x"], st["y"])
    dt = traj[1]["t"] - traj[0]["t"]
    same_dt = abs(dt - result["control_dt"]) < 1e-12
    steps = 0
    for i, c in enumerate(result["controls"]):
        steps += round(c["duration"] / dt)
        if same_dt:
            st, q = traj[steps], result["path"][i + 1]
            assert (st["x"], st["y"]) == (q[0], q[1]) and math.remainder(st["yaw"] - q[2], 2 * math.pi) == 0, \
                "control %d ends at (%r, %r), the plan says (%r, %r)" % (i, st["x"], st["y"], q[0], q[1])
    end = traj[steps]
    goal = result["goal"]
    assert math.hypot(end["x"] - goal[0], end["y"] - goal[1]) <= result["goal_radius"] + 1e-9, "the replay ends off the goal"
    driven = sum(math.hypot(b["x"] - a["x"], b["y"] - a["y"]) for a, b in zip(traj[:steps], traj[1:steps + 1]))
    if same_dt:
        assert abs(driven - result["cost"]) <= 1e-9 * max(1, driven), (driven, result["cost"])


if __name__ == "__main__":
    kind, result = sys.argv[1], json.load(open(sys.argv[2]))
    if kind == "curves":
        check_curves(result, sys.argv[3])
    else:
        check_drive(result, json.load(open(sys.argv[3])))
