#!/usr/bin/env python3
"""Side-by-side benchmark: planbench planners vs OMPL's, interleaved in one run.

For every problem of ../shared/anchors/ompl/maps/problems.json (relative to the
repository root), every planner pair (planbench name : OMPL name) and every seed,
this runs one planbench process and one OMPL reference-harness process
(ompl_png_bench, --endpoint floor), alternating which goes first, and collects
their JSON.  It prints Markdown tables of medians and writes the raw runs to
bench/out/ as JSONL (plus the tables as .md).

  python3 bench/compare_ompl.py --pairs rrt:RRT --mode first --seeds 10
  python3 bench/compare_ompl.py --pairs birrt:RRTConnect,rrtstar:RRTstar --mode fixed --time 1
  python3 bench/compare_ompl.py --dry-run
  # issue 4:
  python3 bench/compare_ompl.py --mode fixed --time 1 \
      --pairs birrt:RRTConnect,rrtstar:RRTstar,informedrrt:InformedRRTstar,bitstar:BITstar,prm:PRM

Modes:
  first  each run stops at its first exact solution (cap --time, default 10 s);
         the headline figure is the median time to first solution (an unsolved
         run counts as +inf) and the ratio planbench / OMPL.
  fixed  each run has --time (default 1 s): optimising planners keep improving
         for the whole budget; the headline figures are iterations/s and final
         cost.  planbench gets --stop budget when the pair's OMPL planner runs the
         whole budget in the harness (RRTstar, InformedRRTstar, BITstar, PRM,
         LazyPRM) and --stop first otherwise (RRT, RRTConnect stop at their first
         solution on both sides); --planbench-stop overrides.

Goal handling: the harness's default goal is OMPL's GoalState with threshold
machine-epsilon, i.e. the tree must reach the goal state itself (via the 5 %
goal bias).  --goal-radius R (default 0) is passed to planbench as
--goal-radius R (1e-9 when R = 0: planbench wants R > 0) and, when R > 0, to the
harness as --goal-tol R, so both sides use the same goal region.

If the OMPL harness is absent (and cannot be built from
../shared/anchors/ompl/ompl_png_bench.cpp with pkg-config ompl), the OMPL half
is skipped and planbench is run and reported alone.  If problems.json is absent
the script exits 0 after saying so.  Standard library only.
"""
import argparse
import datetime
import json
import math
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ANCHORS = os.path.normpath(os.path.join(ROOT, "..", "shared", "anchors", "ompl"))
DEFAULT_PAIRS = "rrt:RRT"
INF = float("inf")
# planbench wants --goal-radius > 0; the harness's default goal is OMPL's GoalState with threshold
# DBL_EPSILON (satisfied iff distance < 2.2e-16, i.e. the goal state itself, reached through the
# goal bias).  1e-9 px is the same region in practice.
EXACT_GOAL_RADIUS = 1e-9


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ------------------------------------------------------------ binaries -----

def build_cxx(src, dst, pkgs, dry_run, what="OMPL harness"):
    """Build one C++ source against pkg-config packages `pkgs` (g++ -O2, C++17) into `dst`.

    Returns (ok, why). ompl.pc (Debian 1.5.2) adds -std=c++14 and a harmless bogus
    "-L_link_dirs-NOTFOUND"; the later -std=c++17 wins."""
    if shutil.which("pkg-config") is None or shutil.which("g++") is None:
        return False, "pkg-config or g++ missing"
    try:
        cflags = subprocess.run(["pkg-config", "--cflags"] + pkgs, capture_output=True, text=True)
        libs = subprocess.run(["pkg-config", "--libs"] + pkgs, capture_output=True, text=True)
    except OSError as e:
        return False, str(e)
    if cflags.returncode != 0 or libs.returncode != 0:
        return False, "pkg-config %s failed: " % " ".join(pkgs) + (cflags.stderr + libs.stderr).strip()
    cmd = (["g++", "-O2", "-DNDEBUG"] + shlex.split(cflags.stdout) + ["-std=c++17", "-Wall", "-Wextra",
           "-o", dst, src] + shlex.split(libs.stdout) + ["-lpthread"])
    log("building %s: " % what + " ".join(shlex.quote(c) for c in cmd))
    if dry_run:
        return True, "dry run"
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or not os.access(dst, os.X_OK):
        return False, "g++ failed:\n" + p.stderr[-2000:]
    return True, "built"


def build_ompl_harness(dst, anchors, dry_run):
    """Build ompl_png_bench out of tree with the flags of the anchor's build.sh."""
    src = os.path.join(anchors, "ompl_png_bench.cpp")
    if not os.path.isfile(src):
        return False, "no %s" % src
    return build_cxx(src, dst, ["ompl", "libpng"], dry_run)


def find_ompl(a):
    path = a.ompl if os.path.isabs(a.ompl) else os.path.join(ROOT, a.ompl)
    if os.access(path, os.X_OK):
        return path
    if a.no_ompl_build:
        return None
    ok, why = build_ompl_harness(path, a.anchors, a.dry_run)
    if ok:
        return path
    log("cannot build the OMPL harness: " + why)
    return None


def find_planbench(a):
    path = a.planbench if os.path.isabs(a.planbench) else os.path.join(ROOT, a.planbench)
    return path if os.access(path, os.X_OK) else None


# OMPL planners that keep optimising until the time limit in the harness's fixed mode (cost threshold 0);
# RRT, RRTConnect and KPIECE1 return at their first exact solution in both modes.
OMPL_ANYTIME = {"RRTstar", "InformedRRTstar", "BITstar", "PRM", "LazyPRM"}


def planbench_stop_style(pb):
    """How this planbench build spells 'stop at first solution' / 'use the whole budget'."""
    if pb is None:
        return "stop"
    try:
        h = subprocess.run([pb, "--help"], capture_output=True, text=True, timeout=20)
        text = h.stdout + h.stderr
    except (OSError, subprocess.TimeoutExpired):
        text = ""
    if "--stop" in text:
        return "stop"
    if "--no-first-solution" in text:
        return "no-first-solution"
    log("warning: planbench --help mentions neither --stop nor --no-first-solution; "
        "it will use its own default stopping rule")
    return None


def planbench_stop_args(a, style, om_planner):
    """planbench's stopping rule for one pair, mirroring what the OMPL planner does in the harness.

    first mode: stop at the first solution (the harness sets cost threshold +inf).
    fixed mode: use the whole budget when the OMPL planner does (OMPL_ANYTIME), else stop at the first
    solution as OMPL's RRT/RRTConnect do; --planbench-stop first|budget overrides, 'none' passes nothing.
    """
    want = a.planbench_stop
    if want == "auto":
        want = "budget" if (a.mode == "fixed" and om_planner in OMPL_ANYTIME) else "first"
    if want == "none" or style is None:
        return []
    if style == "stop":
        return ["--stop", want]
    return ["--no-first-solution"] if want == "budget" else []


# ---------------------------------------------------------- one process ----

GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run_proc(cmd, timeout):
    """Run one process; return (rc, stdout, stderr, wall_s, maxrss_bytes, cpu_s).

    Peak RSS: a child's ru_maxrss from wait4() starts at the RSS of the Python
    process that spawned it (Linux carries the high-water mark across vfork+exec),
    so it is taken from GNU time (a small parent) when /usr/bin/time exists, else
    left out.  cpu_s is the child's user+sys time (process start-up included).
    """
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe, \
            tempfile.NamedTemporaryFile(prefix="cmp_rss_", suffix=".txt") as fr:
        full = ([GNU_TIME, "-q", "-f", "%M", "-o", fr.name] + cmd) if GNU_TIME else cmd
        t0 = time.perf_counter()
        try:
            p = subprocess.Popen(full, stdout=fo, stderr=fe, stdin=subprocess.DEVNULL)
        except OSError as e:
            return 127, "", str(e), 0.0, None, None
        killer = threading.Timer(timeout, p.kill)
        killer.start()
        try:
            _, status, ru = os.wait4(p.pid, 0)
        finally:
            killer.cancel()
        wall = time.perf_counter() - t0
        rc = os.waitstatus_to_exitcode(status)
        p.returncode = rc  # reaped here (for the rusage); keep Popen from waiting again
        fo.seek(0)
        fe.seek(0)
        out = fo.read().decode("utf-8", "replace")
        err = fe.read().decode("utf-8", "replace")
        rss = None
        if GNU_TIME:
            try:
                with open(fr.name) as f:
                    lines = [x for x in f.read().split() if x.isdigit()]
                rss = int(lines[-1]) * 1024 if lines else None
            except OSError:
                rss = None
    return rc, out, err, wall, rss, ru.ru_utime + ru.ru_stime


def last_json(out):
    for line in reversed(out.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                return None
    return None


def fnum(v):
    """Float or None (JSON null, missing, strings like '123')."""
    if v is None or isinstance(v, bool):
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def first(d, *keys):
    for k in keys:
        if k in d and d[k] is not None:
            return d[k]
    return None


# ------------------------------------------------------------ normalise ----

def norm_planbench(j):
    """Common fields from a planbench JSON object."""
    outcome = j.get("outcome")
    exact = outcome == "exact"
    t = fnum(j.get("time_s"))
    tf = fnum(j.get("time_to_first_s"))
    if tf is None and exact:
        tf = t
    nodes = fnum(first(j, "nodes", "n_nodes"))
    mem = fnum(first(j, "memory_bytes", "tree_memory_bytes"))
    return {
        "solved": exact,
        "status": outcome,
        "time_s": t,
        "t_first_s": tf,
        "cost": fnum(j.get("cost")) if exact else None,
        "iterations": fnum(j.get("iterations")),
        "iter_source": "planbench",
        "nodes": nodes,
        "state_checks": fnum(first(j, "n_feasible", "state_checks")),
        "edge_checks": fnum(first(j, "n_visible", "edge_checks")),
        "pixels": fnum(first(j, "n_pixels", "pixels")),
        "memory_bytes": mem,
        "bytes_per_node": (mem / nodes) if (mem is not None and nodes) else None,
        "cpu_s": fnum(first(j, "cpu_s", "cpu_time_s")),  # planning CPU time, if this build reports it
    }


def norm_ompl(j):
    """Common fields from an ompl_png_bench JSON object."""
    exact = bool(j.get("solved"))
    t = fnum(j.get("time_s"))
    tf = fnum(j.get("first_solution_time_s"))  # intermediate-solution callback (optimising planners)
    limit = fnum(j.get("time_limit"))
    if tf is None and exact and (j.get("mode") == "first" or (t is not None and limit and t < 0.9 * limit)):
        # no callback (RRT, RRTConnect, PRM in 1.5.2): the run ended at its first exact solution.
        # A fixed-mode run that used its whole budget leaves the first-solution time unknown.
        tf = t
    it = fnum(j.get("iterations"))
    src = j.get("iterations_source", "planner")
    if j.get("planner") == "RRT" and src == "samples":
        # OMPL 1.5.2 RRT::solve does exactly one checkMotion per loop iteration, and a goal-biased
        # sample (5 %) bypasses the state sampler, so motion_checks is the exact iteration count.
        it = fnum(j.get("motion_checks"))
        src = "motion_checks"
    pixels = None
    if j.get("motion_pixels") is not None:
        pixels = (fnum(j.get("motion_pixels")) or 0.0) + (fnum(j.get("validity_checks")) or 0.0)
    return {
        "solved": exact,
        "status": j.get("status"),
        "time_s": t,
        "t_first_s": tf,
        "cost": fnum(j.get("path_length")) if exact else None,
        "iterations": it,
        "iter_source": src,
        "nodes": fnum(j.get("graph_states")),
        "state_checks": fnum(j.get("validity_checks")),
        "edge_checks": fnum(j.get("motion_checks")),
        "pixels": pixels,
        "memory_bytes": None,
        "bytes_per_node": None,
        "cpu_s": fnum(j.get("cpu_s")),  # CLOCK_PROCESS_CPUTIME_ID around solve()
    }


# ---------------------------------------------------------------- runs -----

def num(x):
    r = repr(float(x))
    return r[:-2] if r.endswith(".0") else r


def planbench_cmd(a, pb, stop_args, prob, mapdir, pb_planner, seed):
    cmd = [pb, pb_planner, os.path.join(mapdir, prob["map"]),
           "--start", "%s,%s" % tuple(map(num, prob["start"])), "--goal", "%s,%s" % tuple(map(num, prob["goal"])),
           "--seed", str(seed), "--step", num(a.range), "--goal-radius", num(a.goal_radius or EXACT_GOAL_RADIUS),
           "--time-limit", num(a.time)]
    cmd += stop_args
    for kv in a.planbench_param:
        cmd += ["--param", kv]
    return cmd + ["--json", "-q"]


def ompl_cmd(a, om, prob, mapdir, om_planner, seed):
    cmd = [om, "--map", os.path.join(mapdir, prob["map"]),
           "--start", "%s,%s" % tuple(map(num, prob["start"])), "--goal", "%s,%s" % tuple(map(num, prob["goal"])),
           "--planner", om_planner, "--range", num(a.range), "--seed", str(seed),
           "--time", num(a.time), "--mode", a.mode, "--endpoint", "floor", "--label", prob["name"]]
    if a.goal_radius > 0:
        cmd += ["--goal-tol", num(a.goal_radius)]
    for kv in a.ompl_param:
        cmd += ["--param", kv]
    return cmd


def one_run(side, cmd, a, meta):
    rc, out, err, wall, rss, cpu = run_proc(cmd, a.time + a.grace)
    j = last_json(out)
    rec = dict(meta)
    rec.update({"side": side, "cmd": cmd, "returncode": rc, "proc_wall_s": wall, "proc_maxrss_bytes": rss,
                "proc_cpu_s": cpu})
    # planbench exits 1 when the budget ran out without a path (its JSON is still valid)
    ok_rc = (0, 1) if side == "planbench" else (0,)
    if rc not in ok_rc or j is None:
        rec["crashed"] = True
        rec["stderr"] = err[-800:]
        rec["stdout"] = out[-400:]
        rec["norm"] = None
        log("  %s %s seed %d: FAILED rc=%d %s" % (side, meta["problem"], meta["seed"], rc,
                                                  (err.strip().splitlines() or [""])[-1][:200]))
    else:
        rec["crashed"] = False
        rec["json"] = j
        rec["norm"] = norm_planbench(j) if side == "planbench" else norm_ompl(j)
    return rec


# ------------------------------------------------------------- summary -----

def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def rate(n, t):
    return n / t if (n is not None and t) else None


def side_stats(recs, mode):
    ok = [r["norm"] for r in recs if not r["crashed"]]
    solved = [n for n in ok if n["solved"]]
    # unsolved = +inf; solved with an unknown first-solution time (OMPL PRM in fixed mode) = left out
    tf = [(n["t_first_s"] if n["solved"] else INF) for n in ok]
    tf = [t for t in tf if t is not None]
    # CPU time to the first solution: only in first mode, where a solved run ends at its first solution
    tfc = [(n["cpu_s"] if n["solved"] else INF) for n in ok] if mode == "first" else []
    tfc = [t for t in tfc if t is not None]
    return {
        "t_first_cpu_med": statistics.median(tfc) if tfc else None,
        "iter_per_cpu_s": med([rate(n["iterations"], n["cpu_s"]) for n in ok]),
        "runs": len(recs),
        "crashed": len(recs) - len(ok),
        "solved": len(solved),
        "t_first_med": statistics.median(tf) if tf else None,
        "time_med": med([n["time_s"] for n in ok]),
        "cost_med": med([n["cost"] for n in solved]),
        "iter_med": med([n["iterations"] for n in ok]),
        "iter_per_s": med([rate(n["iterations"], n["time_s"]) for n in ok]),
        "edge_per_s": med([rate(n["edge_checks"], n["time_s"]) for n in ok]),
        "pix_per_s": med([rate(n["pixels"], n["time_s"]) for n in ok]),
        "pix_per_edge": med([(n["pixels"] / n["edge_checks"]) if (n["pixels"] is not None and n["edge_checks"])
                             else None for n in ok]),
        "nodes_med": med([n["nodes"] for n in ok]),
        "bytes_per_node": med([n["bytes_per_node"] for n in ok]),
        "rss_mb": med([r["proc_maxrss_bytes"] / 1e6 for r in recs if r.get("proc_maxrss_bytes")]),
        "iter_source": ok[0]["iter_source"] if ok else None,
    }


def fmt(v, nd=3):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if v == INF:
        return "unsolved"
    a = abs(v)
    if a >= 1e6:
        return "%.2fM" % (v / 1e6)
    if a >= 1e4:
        return "%.0fk" % (v / 1e3)
    if a >= 100:
        return "%.0f" % v
    if a >= 1:
        return "%.2f" % v
    return "%.*g" % (nd, v)


def fmt_t(v):
    if v is None:
        return "-"
    if v == INF:
        return "unsolved"
    if v >= 1:
        return "%.2f s" % v
    if v >= 1e-3:
        return "%.3g ms" % (v * 1e3)
    return "%.3g µs" % (v * 1e6)


def goal_desc(a):
    if a.goal_radius > 0:
        return "radius %g px" % a.goal_radius
    return "= the goal state (OMPL threshold DBL_EPSILON, planbench --goal-radius %g)" % EXACT_GOAL_RADIUS


def summarise(recs, a, have_ompl, have_pb=True):
    groups = {}
    for r in recs:
        groups.setdefault((r["problem"], r["pair"]), {"planbench": [], "ompl": []})[r["side"]].append(r)
    rows = []
    for (prob, pair), g in groups.items():
        row = {"problem": prob, "pair": pair}
        row["planbench"] = side_stats(g["planbench"], a.mode) if g["planbench"] else None
        row["ompl"] = side_stats(g["ompl"], a.mode) if g["ompl"] else None
        p, o = row["planbench"], row["ompl"]
        ratio = None
        if o and p and p["t_first_med"] is not None and o["t_first_med"] is not None:
            if p["t_first_med"] == INF:
                ratio = INF
            elif o["t_first_med"] == INF:
                ratio = 0.0
            elif o["t_first_med"] > 0:
                ratio = p["t_first_med"] / o["t_first_med"]
        row["t_first_ratio"] = ratio
        cr = None
        if o and p and p["t_first_cpu_med"] is not None and o["t_first_cpu_med"] not in (None, 0, INF) \
                and p["t_first_cpu_med"] != INF:
            cr = p["t_first_cpu_med"] / o["t_first_cpu_med"]
        row["t_first_cpu_ratio"] = cr
        rows.append(row)

    def sp(row, key, f=fmt):
        p = f(row["planbench"][key]) if row["planbench"] else "-"
        o = f(row["ompl"][key]) if row["ompl"] else "-"
        return "%s / %s" % (p, o)

    def solved(row):
        return " / ".join("%d/%d" % (row[s]["solved"], row[s]["runs"]) if row[s] else "-"
                          for s in ("planbench", "ompl"))

    out = []
    who = ("planbench / OMPL" if have_pb else "OMPL only (planbench skipped)") if have_ompl \
        else "planbench (OMPL skipped)"
    if a.mode == "first":
        out.append("#### Time to first solution (%s; cap %g s, step %g px, goal %s, %d seeds)\n"
                   % (who, a.time, a.range, goal_desc(a), a.seeds))
        out.append("| problem | pair | solved | median t_first | ratio pb/OMPL | median CPU t_first | CPU ratio "
                   "| median cost | median iterations | median nodes |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                r["problem"], r["pair"],
                solved(r),
                sp(r, "t_first_med", fmt_t),
                ("**%.3g**" % r["t_first_ratio"]) if r["t_first_ratio"] not in (None, INF) else fmt(r["t_first_ratio"]),
                sp(r, "t_first_cpu_med", fmt_t), fmt(r["t_first_cpu_ratio"]),
                sp(r, "cost_med"), sp(r, "iter_med"), sp(r, "nodes_med")))
    else:
        out.append("#### Fixed budget %g s (%s; step %g px, goal %s, %d seeds)\n"
                   % (a.time, who, a.range, goal_desc(a), a.seeds))
        out.append("| problem | pair | solved | median final cost | median t_first | median iterations | median nodes |")
        out.append("|---|---|---|---|---|---|---|")
        for r in rows:
            out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                r["problem"], r["pair"],
                solved(r),
                sp(r, "cost_med"), sp(r, "t_first_med", fmt_t), sp(r, "iter_med"), sp(r, "nodes_med")))
    out.append("\n#### Throughput (%s; per second of planning wall time, median over runs)\n" % who)
    out.append("| problem | pair | iterations/s | iterations/CPU-s | edge checks/s | pixels read/s "
               "| pixels/edge check | bytes/tree node | peak RSS MB |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["problem"], r["pair"], sp(r, "iter_per_s"), sp(r, "iter_per_cpu_s"), sp(r, "edge_per_s"), sp(r, "pix_per_s"),
            sp(r, "pix_per_edge"), sp(r, "bytes_per_node"), sp(r, "rss_mb")))
    if a.mode == "first" and have_ompl and have_pb:
        for key, what in (("t_first_ratio", "wall"), ("t_first_cpu_ratio", "CPU")):
            rs = [r[key] for r in rows]
            if rs and all(x is not None for x in rs):
                worst = max(rs)
                out.append("\nWorst ratio planbench/OMPL of median %s time to first solution: %s (target <= 0.5: %s)"
                           % (what, fmt(worst), "met" if worst <= 0.5 else "NOT met"))
    srcs = sorted({r["ompl"]["iter_source"] for r in rows if r["ompl"] and r["ompl"]["iter_source"]})
    notes = ["Cells are `planbench / OMPL`. An unsolved run counts as +inf in the median time to first solution.",
             "t_first and the rates use planning wall time (`time_to_first_s`, `time_s`; the harness times "
             "solve() only); CPU columns use the planning CPU time each side reports (`cpu_s`; '-' if absent) "
             "and are the steadier figure on a loaded machine.",
             "planbench: iterations, edge checks (`n_visible`), pixels (`n_pixels`), bytes/node "
             "(`memory_bytes / nodes`) as it reports them; '-' where a field is absent.",
             "OMPL: edge checks = `motion_checks`; pixels = `motion_pixels + validity_checks`; iterations = the "
             "harness's `iterations` (planner progress property, BIT* numIterations, else sampler calls), except "
             "RRT: `motion_checks` (exactly one per RRT::solve loop iteration); sources here: %s. "
             "OMPL reports no tree memory." % (", ".join(srcs) or "-"),
             "peak RSS = the whole process (map decode, and for OMPL the PlannerData copy made after solve, "
             "included), from GNU time; '-' without /usr/bin/time."]
    out.append("\n" + "\n".join("- " + n for n in notes))
    return rows, "\n".join(out)


def machine_info():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        with open("/proc/loadavg") as f:
            load = f.read().split()[0]
    except OSError:
        load = "?"
    rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "host": platform.node(), "kernel": platform.release(), "cpu": cpu, "cores": os.cpu_count(),
            "loadavg1_at_start": load, "python": platform.python_version(),
            "git": rev.stdout.strip() if rev.returncode == 0 else "no commit"}


# ---------------------------------------------------------------- main -----

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--planbench", default="build-release/src/cli/planbench",
                    help="planbench binary (relative to the repo root unless absolute)")
    ap.add_argument("--ompl", default="build-ompl/ompl_png_bench",
                    help="OMPL harness binary; built here from the anchor source if missing")
    ap.add_argument("--no-ompl-build", action="store_true", help="do not try to build the OMPL harness")
    ap.add_argument("--no-ompl", action="store_true", help="run planbench alone")
    ap.add_argument("--no-planbench", action="store_true", help="run the OMPL harness alone (testing)")
    ap.add_argument("--anchors", default=DEFAULT_ANCHORS, help="the OMPL anchor directory (default %(default)s)")
    ap.add_argument("--problems", default=None, help="problems.json (default ANCHORS/maps/problems.json)")
    ap.add_argument("--only", default="", help="comma-separated problem names to keep")
    ap.add_argument("--pairs", default=DEFAULT_PAIRS, help="planbench:OMPL planner pairs (default %(default)s)")
    ap.add_argument("--seeds", type=int, default=10, help="seeds 1..N (default 10)")
    ap.add_argument("--mode", choices=["first", "fixed"], default="first")
    ap.add_argument("--time", type=float, default=None,
                    help="per-run time limit; in fixed mode the fixed budget (default 10 first, 1 fixed)")
    ap.add_argument("--range", type=float, default=50.0, help="step / OMPL range in px (default 50)")
    ap.add_argument("--goal-radius", type=float, default=0.0,
                    help="goal radius for both sides (default 0 = OMPL's exact goal state)")
    ap.add_argument("--planbench-stop", choices=["auto", "first", "budget", "none"], default="auto",
                    help="planbench --stop: auto = as the OMPL planner of the pair does (default)")
    ap.add_argument("--planbench-param", action="append", default=[], metavar="K=V",
                    help="extra planbench --param (repeatable)")
    ap.add_argument("--ompl-param", action="append", default=[], metavar="K=V",
                    help="extra harness --param (repeatable)")
    ap.add_argument("--grace", type=float, default=30.0, help="kill a run after time limit + this (s)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out"), help="output directory")
    ap.add_argument("--tag", default="", help="file-name tag for the outputs")
    ap.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    a = ap.parse_args()
    if a.time is None:
        a.time = 10.0 if a.mode == "first" else 1.0

    try:
        pairs = [tuple(p.split(":", 1)) for p in a.pairs.split(",") if p]
        if not pairs or any(len(p) != 2 or not p[0] or not p[1] for p in pairs):
            raise ValueError
    except ValueError:
        ap.error("--pairs must look like rrt:RRT,birrt:RRTConnect")

    probfile = a.problems or os.path.join(a.anchors, "maps", "problems.json")
    if not os.path.isfile(probfile):
        print("problems absent (%s): skipping the OMPL-map benchmark" % probfile)
        return 0
    with open(probfile) as f:
        problems = json.load(f)
    if a.only:
        keep = set(a.only.split(","))
        problems = [p for p in problems if p["name"] in keep]
    mapdir = os.path.dirname(os.path.abspath(probfile))

    pb = None if a.no_planbench else find_planbench(a)
    if pb is None and not a.no_planbench:
        msg = ("planbench binary absent (%s): build it with `meson setup build-release --buildtype=release && "
               "ninja -C build-release`" % a.planbench)
        if not a.dry_run:
            print(msg + "; nothing to benchmark (use --no-planbench to run the OMPL side alone)")
            return 1
        log(msg)
        pb = a.planbench if os.path.isabs(a.planbench) else os.path.join(ROOT, a.planbench)
    om = None if a.no_ompl else find_ompl(a)
    if om is None:
        print("OMPL harness absent: skipping the OMPL comparison")
        if pb is None:
            print("nothing to run")
            return 1
    stop_style = planbench_stop_style(pb if (pb and os.access(pb, os.X_OK)) else None)

    tag = a.tag or datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = os.path.join(a.out, "compare_ompl-%s-%s" % (a.mode, tag))
    info = machine_info()
    info["command"] = " ".join(shlex.quote(x) for x in [os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:])
    info["planbench"] = pb
    info["ompl"] = om
    info["problems"] = probfile

    recs = []
    raw = None
    if not a.dry_run:
        os.makedirs(a.out, exist_ok=True)
        raw = open(base + ".jsonl", "w")
        raw.write(json.dumps({"meta": info, "args": vars(a)}) + "\n")
    t0 = time.time()
    k = 0
    for prob in problems:
        for pb_planner, om_planner in pairs:
            pair = "%s:%s" % (pb_planner, om_planner)
            for seed in range(1, a.seeds + 1):
                meta = {"problem": prob["name"], "pair": pair, "seed": seed, "mode": a.mode, "time_limit": a.time}
                jobs = []
                if pb:
                    jobs.append(("planbench", planbench_cmd(a, pb, planbench_stop_args(a, stop_style, om_planner), prob,
                                                              mapdir, pb_planner, seed)))
                if om:
                    jobs.append(("ompl", ompl_cmd(a, om, prob, mapdir, om_planner, seed)))
                if k % 2 == 1:
                    jobs.reverse()  # alternate which side goes first
                k += 1
                for side, cmd in jobs:
                    if a.dry_run:
                        print(" ".join(shlex.quote(c) for c in cmd))
                        continue
                    rec = one_run(side, cmd, a, meta)
                    rec["order"] = jobs.index((side, cmd))
                    recs.append(rec)
                    raw.write(json.dumps(rec) + "\n")
                    raw.flush()
            if not a.dry_run:
                log("%7.1fs  %s  %s  done" % (time.time() - t0, prob["name"], pair))
    if a.dry_run:
        return 0
    raw.close()

    rows, table = summarise(recs, a, om is not None, pb is not None)
    try:
        with open("/proc/loadavg") as f:
            info["loadavg1_at_end"] = f.read().split()[0]
    except OSError:
        info["loadavg1_at_end"] = "?"
    head = ["### compare_ompl.py, mode `%s`" % a.mode, "",
            "- command: `%s`" % info["command"],
            "- machine: %s, %s cores, Linux %s, load %s at start / %s at end, %s"
            % (info["cpu"], info["cores"], info["kernel"], info["loadavg1_at_start"], info["loadavg1_at_end"],
               info["date"]),
            "- planbench: `%s` (git %s); OMPL harness: `%s`" % (os.path.relpath(pb, ROOT) if pb else "skipped",
                                                               info["git"],
                                                               os.path.relpath(om, ROOT) if om else "absent"),
            "- runs interleaved per seed (planbench, OMPL alternate first), one process per run; raw runs: `%s`"
            % os.path.relpath(base + ".jsonl", ROOT), ""]
    text = "\n".join(head) + "\n" + table + "\n"
    with open(base + ".md", "w") as f:
        f.write(text)
    with open(base + ".summary.json", "w") as f:
        json.dump({"meta": info, "rows": rows}, f, indent=1, default=lambda x: None)
    print(text)
    crashed = sum(1 for r in recs if r["crashed"])
    if crashed:
        log("%d runs failed (see %s)" % (crashed, base + ".jsonl"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
