#!/usr/bin/env python3
"""Start-up cost of the command line (issue 21), side by side with OMPL's harness.

For each planbench executable given, and the OMPL anchor harness when --ompl names it, runs
interleaved (one round = one run of every command, N rounds, after one warm-up round):
  * `planbench --version`;
  * a rooms-map solve, `planbench rrt maps/room1.png -q` (the map's own start and goal), and
    the same query through the OMPL harness (`--map maps/room1.png --start 30.5,30.5 --goal
    460.5,365.5 --planner RRT --mode first`; its whole process: start-up, map load, solve).
Prints per command the median wall time, the CPU time (user + system, from getrusage of the
children) and minor page faults per run, and the shared libraries the executable loads (ldd),
then the ratios to the OMPL harness's solve.

usage: python3 bench/startup.py [--runs N] [--ompl HARNESS] PLANBENCH [PLANBENCH ...]
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOM1 = os.path.join(ROOT, "maps", "room1.png")


def measure(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (t1 - t0, r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, r1.ru_minflt - r0.ru_minflt)


def libraries(exe):
    out = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if "=>" in line or line.strip().startswith("/"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("planbench", nargs="+")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--ompl", help="the OMPL harness (../shared/anchors/ompl/ompl_png_bench, built by its build.sh)")
    a = ap.parse_args()
    commands = []
    for exe in a.planbench:
        commands.append((f"{exe} --version", [exe, "--version"], exe))
        commands.append((f"{exe} rrt room1", [exe, "rrt", ROOM1, "-q"], exe))
    if a.ompl:
        commands.append(("OMPL harness RRT room1", [a.ompl, "--map", ROOM1, "--start", "30.5,30.5", "--goal",
                                                    "460.5,365.5", "--planner", "RRT", "--mode", "first"], a.ompl))
    for _, cmd, _ in commands:  # warm-up
        measure(cmd)
    samples = {name: [] for name, _, _ in commands}
    for _ in range(a.runs):
        for name, cmd, _ in commands:
            samples[name].append(measure(cmd))
    print(f"{a.runs} interleaved rounds, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print()
    print("| command | wall (median) | CPU (median) | minor faults | shared libraries |")
    print("|---|---|---|---|---|")
    med = {}
    for name, _, exe in commands:
        wall = statistics.median(s[0] for s in samples[name])
        cpu = statistics.median(s[1] for s in samples[name])
        faults = statistics.median(s[2] for s in samples[name])
        med[name] = (wall, cpu)
        print(f"| `{name}` | {wall * 1e3:.2f} ms | {cpu * 1e3:.2f} ms | {faults:.0f} | {libraries(exe)} |")
    if a.ompl:
        ow, oc = med["OMPL harness RRT room1"]
        print()
        for name, _, _ in commands[:-1]:
            w, c = med[name]
            print(f"{name}: {w / ow:.2f}x the OMPL harness's wall time, {c / oc:.2f}x its CPU time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
