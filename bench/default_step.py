#!/usr/bin/env python3
"""Evidence for the default step of the image engine (issue 22): on a large maze whose corridors
are narrower than 2 % of the map's diagonal, the rule that takes 2/3 of the typical corridor
width against the old rule (2 % of the diagonal), side by side, interleaved, one process per run.

The maze is made by maps/generate.py's own maze() with 66 cells of pitch 60 (3970 x 3970 px,
50 px corridors, 10 px walls; --cells 33 makes a 1990 px one), written to a scratch folder (not to maps/). Each run is
`planbench PLANNER MAZE --seed S --time-limit T --json`, once with the default step and once
with `--step` at 2 % of the diagonal. Prints per planner and rule: solved runs, the median time
to the first solution (unsolved runs count as the limit), median iterations and path cost.

usage: python3 bench/default_step.py [--planbench BIN] [--seeds N] [--time-limit T] [--cells N]
                                     [--planners rrt,birrt,prmstar] [--out DIR]
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "maps"))
import generate  # noqa: E402  (maps/generate.py: the maze and the PNG writer)


def write_maze(out_dir, cells):
    grid, start, goal, _ = generate.maze(seed=20240521, cells=cells, pitch=60, wall=10)
    text = [("planbench:start", "%g,%g" % start), ("planbench:goal", "%g,%g" % goal)]
    path = os.path.join(out_dir, "maze_%d.png" % grid.width)
    with open(path, "wb") as f:
        f.write(generate.png_bytes(grid, text))
    return path, grid.width


def run(binary, planner, maze, seed, limit, step):
    cmd = [binary, planner, maze, "--seed", str(seed), "--time-limit", str(limit), "--json"]
    if step:
        cmd += ["--step", repr(step)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit("%s: exit %d: %s" % (" ".join(cmd), out.returncode, out.stderr.strip()))
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--planbench", default=os.path.join(ROOT, "build-rel", "src", "cli", "planbench"))
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--planners", default="rrt,birrt,prmstar")
    ap.add_argument("--cells", type=int, default=66, help="maze cells per side (66: 3970 px)")
    ap.add_argument("--out", default=None, help="folder for the maze (default: a scratch folder)")
    args = ap.parse_args()
    out_dir = args.out or tempfile.mkdtemp(prefix="planbench-maze-")
    maze, width = write_maze(out_dir, args.cells)
    old_step = 0.02 * math.hypot(width, width)
    rows = {}
    rule = None
    for planner in args.planners.split(","):
        for seed in range(1, args.seeds + 1):
            for name, step in (("default", None), ("2% of the diagonal", old_step)):
                r = run(args.planbench, planner, maze, seed, args.time_limit, step)
                if step is None:
                    rule = "%s px: %s" % (fmt(r.get("default_step")), r.get("default_step_rule"))
                solved = r["outcome"] == "exact"
                rows.setdefault((planner, name), []).append(
                    (solved, r["time_to_first_s"] if solved else args.time_limit, r["iterations"],
                     r["cost"] if solved else math.nan))
    print("maze %s (%d x %d), %d seeds, %g s per run; default step %s; old step %s px\n" % (
        maze, width, width, args.seeds, args.time_limit, rule, fmt(old_step)))
    print("| planner | step | solved | median time to first solution | median iterations | median cost (solved) |")
    print("|---|---|---|---|---|---|")
    for (planner, name), runs in rows.items():
        costs = [c for s, _, _, c in runs if s]
        print("| %s | %s | %d/%d | %s s | %s | %s |" % (
            planner, name, sum(s for s, _, _, _ in runs), len(runs),
            fmt(statistics.median(t for _, t, _, _ in runs)),
            fmt(statistics.median(i for _, _, i, _ in runs)),
            fmt(statistics.median(costs)) if costs else "-"))


def fmt(v):
    return "-" if v is None else "%.4g" % v


if __name__ == "__main__":
    main()
