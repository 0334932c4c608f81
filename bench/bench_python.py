"""Python module figures (issue 23).

1. Overhead of planbench.plan() beyond the library calls it makes (bench_python_overhead,
   the same calls from C), on a trivial query (start and goal in sight of each other on
   maps/room1.png, so the solve itself is a few microseconds). Goal: <= 50 us.
2. RRT and RRT* iterations per second with a Python functor on sbp-env's documented
   black-box example (cos(x0) sin(x1) > -0.22 on [-5, 5]^2, edges checked every 0.1, start
   (-3, -3), goal (3, 3)), per-configuration and batched. sbp-env's own planners run of the
   order of 1e3 iterations/s on it; goal: >= 100x that.

    PYTHONPATH=BUILD/python python3 bench/bench_python.py BUILD
"""
import os
import subprocess
import sys
import time
from math import cos, sin

import numpy as np

import planbench

build = sys.argv[1] if len(sys.argv) > 1 else "build-py"
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
room1 = os.path.join(root, "maps", "room1.png")
start, goal = [100.5, 100.5], [110.5, 104.5]
N = 20000

engine = planbench.load(room1)
assert engine.visible(start, goal)
best = 1e300
for _ in range(5):
    t0 = time.perf_counter()
    for i in range(N):
        planbench.plan("rrt", engine, start, goal, seed=i)
    best = min(best, (time.perf_counter() - t0) / N * 1e6)
c_exe = os.path.join(build, "python", "bench_python_overhead")
out = subprocess.run([c_exe, room1, "rrt", str(N), "%g,%g" % tuple(start), "%g,%g" % tuple(goal)],
                     check=True, capture_output=True, text=True).stdout
c_us = float(out.split()[1])
print(f"plan() overhead: python {best:.2f} us/plan, C library calls {c_us:.2f} us/plan, "
      f"overhead {best - c_us:.2f} us (goal <= 50)")


def functor(x):
    return -0.22 < (cos(x[0]) * sin(x[1]))


def batch(qs):
    return -0.22 < np.cos(qs[:, 0]) * np.sin(qs[:, 1])


def rate(planner, resolution, **kw):
    e = planbench.blackbox(functor, [-5, -5], [5, 5], resolution=resolution, **kw)
    iterations, seconds, calls = 0, 0.0, 0
    t_end = time.perf_counter() + 3.0
    seed = 0
    while time.perf_counter() < t_end:
        t0 = time.perf_counter()
        if planner == "rrt":  # RRT stops at its first solution: many solves
            r = planbench.plan("rrt", e, [-3, -3], [3, 3], seed=seed, time_limit=0)
        else:
            r = planbench.plan("rrtstar", e, [-3, -3], [3, 3], seed=seed, max_iterations=20000, time_limit=0,
                               first_solution=False)
        seconds += time.perf_counter() - t0
        iterations += r.iterations
        calls += r.counts["n_edge_states"]
        seed += 1
    return iterations / seconds, calls / seconds, seed


# cc_epsilon 0.1 is sbp-env's example; 0.01 (edges of ~28 configurations) shows the batch's use.
for resolution in (0.1, 0.01):
    for planner in ("rrt", "rrtstar"):
        for label, kw in (("per-configuration functor", {}), ("batched functor", {"batch": batch})):
            it, st, solves = rate(planner, resolution, **kw)
            print(f"resolution {resolution:<5g} {planner:8s} {label:26s} {it:10.0f} iterations/s "
                  f"({it / 1e3:.0f}x 1e3), {st:10.0f} edge configurations/s, {solves} solves")

# 3. Two threads planning at once on a built-in engine (the GIL released) against the same two
#    solves one after the other: ideally 0.5 on two idle cores.
import threading  # noqa: E402


def solve_room1():
    planbench.plan("rrtstar", engine, seed=1, max_iterations=60000, time_limit=0, first_solution=False)


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def two_threads():
    threads = [threading.Thread(target=solve_room1) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


ratios = []
for _ in range(5):
    serial = timed(lambda: (solve_room1(), solve_room1()))
    ratios.append(timed(two_threads) / serial)
print(f"two threads / serial (rrtstar, 60,000 iterations on room1, 5 rounds): best {min(ratios):.2f}, "
      f"median {sorted(ratios)[2]:.2f} (0.5 ideal on 2 idle cores, 1.0 if the GIL were held)")
