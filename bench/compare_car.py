#!/usr/bin/env python3
"""Side-by-side car benchmark of issue 18: planbench's car planners vs OMPL's control planners.

The problem (../shared/spec/vehicles-scenarios.md, section 1 "OMPL control" and 2(b)): the
Lexus of robots/lexus_rx450h.xml on maps/wall40.yaml (40 x 40 m, a wall x in [18, 22] m,
y < 30 m), from (5, 5, 0) to within 1 m of (35, 5).  For seeds 1..N this runs, interleaved,
one planbench process per planbench planner and one bench/ompl_car_control process per OMPL
planner (the order alternates per seed), each with --time-limit T, collects their JSON, prints
a Markdown table of medians and the ratio planbench / OMPL, and writes the raw runs to
bench/out/ (compare_car-<tag>.jsonl, .md, .summary.json).

  python3 bench/compare_car.py                          # 10 seeds, 10 s, all pairs
  python3 bench/compare_car.py --seeds 3 --time 2
  python3 bench/compare_car.py --no-planbench           # the OMPL side alone
  python3 bench/compare_car.py --dry-run                # print the commands

Pairs (--pairs, planbench:OMPL, '-' for none): sst:SST, rrt_control:RRT, hybrid_astar:KPIECE1,
rrtstar:- (RRT* on the car C-space: iterations per second; OMPL's control planners have no
counterpart).  Each planbench planner's median time to first solution is compared with its
pair's and with the fastest OMPL planner's (the issue's goal: at least 10x faster, i.e. a
ratio <= 0.1).

planbench: `PLANNER maps/wall40.yaml --engine car --robot robots/lexus_rx450h.xml --start
5,5,0 --goal 35,5,0 --goal-radius 1 --seed S --time-limit T --json -q`, plus --stop first
for every planner but the anytime ones (--anytime, default rrtstar: the whole budget, for
iterations per second).  A planbench planner or engine this build does not have (planbench
exits 2) is reported "not available" with planbench's message, and its other seeds are
skipped: the script works on the OMPL side alone today and on both sides once the car
planners land.

OMPL: build-ompl/ompl_car_control, built here from bench/ompl_car_control.cpp with
`g++ $(pkg-config --cflags --libs ompl)` when missing or older than its source (by
compare_ompl.py's build_cxx, which builds its anchor).  --mode first: every OMPL planner stops at its first
solution; --ompl-mode budget makes SST use the whole budget (first-solution time still
measured).

Standard library only; the process runner and the formatting come from compare_ompl.py.
"""
import argparse
import datetime
import json
import os
import shlex
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_ompl as co  # noqa: E402  (build_cxx, run_proc, last_json, fnum, med, ...)

ROOT = co.ROOT
INF = float("inf")
DEFAULT_PAIRS = "sst:SST,rrt_control:RRT,hybrid_astar:KPIECE1,rrtstar:-"
HARNESS_SRC = os.path.join(ROOT, "bench", "ompl_car_control.cpp")


# ------------------------------------------------------------ binaries -----

def find_harness(a):
    path = a.ompl if os.path.isabs(a.ompl) else os.path.join(ROOT, a.ompl)
    fresh = os.access(path, os.X_OK) and os.path.getmtime(path) >= os.path.getmtime(HARNESS_SRC)
    if fresh or (os.access(path, os.X_OK) and a.no_ompl_build):
        return path
    if a.no_ompl_build:
        return None
    ok, why = co.build_cxx(HARNESS_SRC, path, ["ompl"], a.dry_run)
    if ok:
        return path
    co.log("cannot build the OMPL harness: " + why)
    return None


# ------------------------------------------------------------ commands -----

def rel(path):
    return path if os.path.isabs(path) else os.path.join(ROOT, path)


def planbench_cmd(a, pb, planner, seed):
    cmd = [pb, planner, rel(a.map), "--engine", "car", "--robot", rel(a.robot),
           "--start", a.start, "--goal", a.goal, "--goal-radius", co.num(a.goal_radius),
           "--seed", str(seed), "--time-limit", co.num(a.time)]
    if planner not in a.anytime.split(","):
        cmd += ["--stop", "first"]
    for kv in a.planbench_param:
        cmd += ["--param", kv]
    return cmd + ["--json", "-q"]


def ompl_cmd(a, om, planner, seed):
    gx, gy = a.goal.split(",")[:2]
    cmd = [om, "--map", rel(a.map), "--robot", rel(a.robot), "--planner", planner,
           "--start", a.start, "--goal", "%s,%s" % (gx, gy), "--goal-radius", co.num(a.goal_radius),
           "--seed", str(seed), "--time", co.num(a.time), "--mode", a.ompl_mode]
    for kv in a.ompl_param:
        cmd += ["--param", kv]
    return cmd


# ----------------------------------------------------------- normalise -----

def norm_planbench(j):
    exact = j.get("outcome") == "exact"
    t = co.fnum(j.get("time_s"))
    tf = co.fnum(j.get("time_to_first_s"))
    if tf is None and exact:
        tf = t
    # a run told to stop at its first solution (--stop first) spent its CPU time getting there
    stopped_first = (j.get("record") or {}).get("stop") == "first"
    return {"solved": exact, "status": j.get("outcome"), "time_s": t, "cpu_s": co.fnum(j.get("cpu_s")),
            "t_first_s": tf if exact else None,
            "cpu_first_s": co.fnum(j.get("cpu_s")) if (exact and stopped_first) else None,
            "sweep_poses": co.fnum(j.get("n_edge_states")),
            # checks up to the first solution: known when the run stopped there
            "checks_first": co.fnum(co.first(j, "n_feasible", "state_checks")) if (exact and tf == t) else None, "length": co.fnum(j.get("cost")) if exact else None,
            "iterations": co.fnum(j.get("iterations")),
            "state_checks": co.fnum(co.first(j, "n_feasible", "state_checks")),
            "edge_checks": co.fnum(co.first(j, "n_visible", "edge_checks"))}


def norm_ompl(j):
    exact = bool(j.get("exact"))
    return {"solved": exact, "status": j.get("status"), "time_s": co.fnum(j.get("time_s")),
            "cpu_s": co.fnum(j.get("cpu_s")), "t_first_s": co.fnum(j.get("first_solution_time_s")) if exact else None,
            "cpu_first_s": co.fnum(j.get("first_solution_cpu_s")) if exact else None,
            "checks_first": co.fnum(j.get("first_solution_checks")) if exact else None,
            "length": co.fnum(j.get("path_length")) if exact else None, "iterations": co.fnum(j.get("iterations")),
            "state_checks": co.fnum(j.get("n_states_checked")), "edge_checks": None,
            "fine_valid": j.get("path_fine_valid") if exact else None}


def one_run(a, side, planner, cmd, seed):
    rc, out, err, wall, rss, cpu = co.run_proc(cmd, a.time + a.grace)
    j = co.last_json(out)
    rec = {"side": side, "planner": planner, "seed": seed, "time_limit": a.time, "cmd": cmd, "returncode": rc,
           "proc_wall_s": wall, "proc_cpu_s": cpu, "proc_maxrss_bytes": rss}
    message = (err.strip().splitlines() or [""])[-1][:300]
    if side == "planbench" and rc == 2:
        rec.update({"available": False, "crashed": False, "norm": None, "message": message})
        co.log("  planbench %s: not available (exit 2): %s" % (planner, message))
    elif rc not in ((0, 1) if side == "planbench" else (0,)) or j is None:
        rec.update({"available": True, "crashed": True, "norm": None, "message": message,
                    "stdout": out[-400:]})
        co.log("  %s %s seed %d: FAILED rc=%d %s" % (side, planner, seed, rc, message))
    else:
        rec.update({"available": True, "crashed": False, "json": j,
                    "norm": norm_planbench(j) if side == "planbench" else norm_ompl(j)})
    return rec


# ------------------------------------------------------------- summary -----

def stats(recs):
    if recs and not any(r["available"] for r in recs):
        return {"available": False, "message": recs[0].get("message", "")}
    ok = [r["norm"] for r in recs if r["available"] and not r["crashed"]]
    solved = [n for n in ok if n["solved"]]
    # an unsolved run counts as +inf in the median time to first solution
    tf = [n["t_first_s"] if n["solved"] else INF for n in ok]
    tfc = [(n["cpu_first_s"] if n["cpu_first_s"] is not None else (n["cpu_s"] if n["time_s"] == n["t_first_s"]
                                                                      else None)) if n["solved"] else INF for n in ok]
    fine = [n.get("fine_valid") for n in solved if n.get("fine_valid") is not None]
    return {"available": True, "runs": len(recs), "crashed": len(recs) - len(ok), "solved": len(solved),
            "t_first_med": statistics.median(tf) if tf else None,
            "t_first_cpu_med": co.med(tfc) if all(x is not None for x in tfc) else None,
            "t_first_min": min(tf) if tf else None, "t_first_max": max(tf) if tf else None,
            "checks_first_med": co.med([n["checks_first"] if n["solved"] else INF for n in ok])
            if all(n["checks_first"] is not None for n in solved) else None,
            "length_med": co.med([n["length"] for n in solved]),
            "iterations_med": co.med([n["iterations"] for n in solved]),
            "sweep_poses_med": co.med([n["sweep_poses"] for n in solved if n.get("sweep_poses") is not None]),
            "length_min": min([n["length"] for n in solved], default=None),
            "length_max": max([n["length"] for n in solved], default=None),
            "checks_per_s": co.med([co.rate(n["state_checks"], n["time_s"]) for n in ok]),
            "checks_per_cpu_s": co.med([co.rate(n["state_checks"], n["cpu_s"]) for n in ok]),
            "edge_checks_per_s": co.med([co.rate(n["edge_checks"], n["time_s"]) for n in ok]),
            "iter_per_s": co.med([co.rate(n["iterations"], n["time_s"]) for n in ok]),
            "iter_per_cpu_s": co.med([co.rate(n["iterations"], n["cpu_s"]) for n in ok]),
            "cpu_share": co.med([(n["cpu_s"] / n["time_s"]) if (n["cpu_s"] is not None and n["time_s"]) else None
                              for n in ok]),
            "fine_valid": ("%d/%d" % (sum(1 for f in fine if f), len(fine))) if fine else None}


def ratio(p, o, key):
    if not p or not o or not p.get("available") or not o.get("available"):
        return None
    pv, ov = p.get(key), o.get(key)
    if pv is None or ov is None:
        return None
    if pv == INF:
        return INF
    if ov == INF:
        return 0.0
    return pv / ov if ov > 0 else None


def fmt_ratio(r):
    if r is None:
        return "-"
    if r == INF:
        return "unsolved"
    return "%.3g" % r


def summarise(a, pairs, recs):
    by = {}
    for r in recs:
        by.setdefault((r["side"], r["planner"]), []).append(r)
    pb_names = [p for p, _ in pairs]
    om_names = sorted({o for _, o in pairs if o != "-"}, key=[o for _, o in pairs].index)
    st = {k: stats(v) for k, v in by.items()}
    om_ok = [st[("ompl", o)] for o in om_names if ("ompl", o) in st and st[("ompl", o)]["available"]]
    best = None
    for s in om_ok:
        if s["t_first_med"] is not None and (best is None or s["t_first_med"] < best["t_first_med"]):
            best = s
    best_name = next((o for o in om_names if ("ompl", o) in st and st[("ompl", o)] is best), None)
    best_cpu = None  # the fastest OMPL planner by median CPU time to first solution
    for s in om_ok:
        if s["t_first_cpu_med"] is not None and (best_cpu is None or s["t_first_cpu_med"] < best_cpu["t_first_cpu_med"]):
            best_cpu = s
    best_cpu_name = next((o for o in om_names if ("ompl", o) in st and st[("ompl", o)] is best_cpu), None)

    def row(side, name, pair_name):
        s = st.get((side, name))
        if s is None:
            return None
        if not s["available"]:
            return "| %s | %s | not available: %s |%s" % (side, name, s["message"].replace("|", "/"), " - |" * 16)
        lengths = "-" if s["length_med"] is None else "%s (%s–%s)" % (co.fmt(s["length_med"]), co.fmt(s["length_min"]),
                                                                       co.fmt(s["length_max"]))
        span = "-" if s["t_first_min"] is None else "%s–%s" % (co.fmt_t(s["t_first_min"]), co.fmt_t(s["t_first_max"]))
        cells = [side, name, "%d/%d" % (s["solved"], s["runs"] - s["crashed"]), co.fmt_t(s["t_first_med"]), span,
                 co.fmt_t(s["t_first_cpu_med"]), co.fmt(s["checks_first_med"]),
                 "%s; %s" % (co.fmt(s["iterations_med"]), co.fmt(s["sweep_poses_med"])), lengths, co.fmt(s["checks_per_s"]), co.fmt(s["checks_per_cpu_s"]),
                 co.fmt(s["iter_per_s"]), co.fmt(s["iter_per_cpu_s"]),
                 "-" if s["cpu_share"] is None else "%.0f%%" % (100 * s["cpu_share"]), s["fine_valid"] or "-"]
        if side == "planbench":
            o = st.get(("ompl", pair_name)) if pair_name != "-" else None
            cells += ["%s (%s)" % (fmt_ratio(ratio(s, o, "t_first_med")), pair_name) if o else "-",
                      "%s (%s)" % (fmt_ratio(ratio(s, best, "t_first_med")), best_name) if best else "-",
                      "%s (%s)" % (fmt_ratio(ratio(s, o, "t_first_cpu_med")), pair_name) if o else "-",
                      "%s (%s)" % (fmt_ratio(ratio(s, best_cpu, "t_first_cpu_med")), best_cpu_name) if best_cpu else "-"]
        else:
            cells += ["", "", "", ""]
        return "| " + " | ".join(cells) + " |"

    who = "%d seeds, --time-limit %g s" % (a.seeds, a.time)
    out = ["#### Time to first solution and throughput (%s)\n" % who,
           "| side | planner | solved | median t_first (wall) | range | median t_first (CPU) | median state checks to t_first "
           "| median iterations; sweep poses (solved runs) "
           "| path m: median (min–max) "
           "| state checks/s | checks/CPU-s | iterations/s | iterations/CPU-s | CPU/wall | fine re-check ok "
           "| ratio pb/OMPL: pair | ratio pb/OMPL: fastest OMPL | CPU ratio: pair | CPU ratio: fastest OMPL by CPU |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, om in pairs:
        line = row("planbench", name, om)
        if line:
            out.append(line)
    for name in om_names:
        line = row("ompl", name, None)
        if line:
            out.append(line)
    notes = [
        "An unsolved run counts as +inf in the median time to first solution; ranges are over all runs.",
        "t_first: planbench `time_to_first_s`; OMPL: the first state the planner finds in the goal disc while solving "
        "(RRT and KPIECE1 return at it; SST too in --ompl-mode first). CPU columns: planning CPU time "
        "(`cpu_s`, `first_solution_cpu_s`), the steadier figure on a shared machine; CPU/wall below 100% means the "
        "process waited for a core.",
        "state checks: planbench `n_feasible`, OMPL `n_states_checked` (footprint checks at each 0.1 s step: OMPL "
        "checks nothing between steps); checks to t_first are repeatable for a seed, times are not. fine re-check: OMPL's returned paths re-checked at 1/20 of a step.",
        "iterations: planbench `iterations`; OMPL: controls sampled (one per RRT and SST iteration). sweep poses: "
        "planbench's `n_edge_states`, the poses its certified sweeps queried (OMPL sweeps nothing: '-').",
        "ratio pb/OMPL: median t_first of planbench's planner / that of its pair and of the fastest OMPL planner "
        "(the issue's goal: <= 0.1); CPU ratio: the same with the median CPU times to first solution (planbench's "
        "`cpu_s` of a run stopped at its first solution), the steadier ratio on a loaded machine.",
    ]
    out.append("\n" + "\n".join("- " + n for n in notes))
    return st, "\n".join(out)


# ---------------------------------------------------------------- main -----

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--planbench", default="build-rel/src/cli/planbench",
                    help="planbench binary, relative to the repository root unless absolute (default %(default)s)")
    ap.add_argument("--ompl", default="build-ompl/ompl_car_control",
                    help="the OMPL harness; built from bench/ompl_car_control.cpp when missing or stale")
    ap.add_argument("--no-ompl-build", action="store_true", help="never build the harness")
    ap.add_argument("--no-ompl", action="store_true", help="run planbench alone")
    ap.add_argument("--no-planbench", action="store_true", help="run the OMPL side alone")
    ap.add_argument("--pairs", default=DEFAULT_PAIRS, help="planbench:OMPL pairs, '-' for none (default %(default)s)")
    ap.add_argument("--anytime", default="rrtstar",
                    help="planbench planners given the whole budget (no --stop first); default %(default)s")
    ap.add_argument("--seeds", type=int, default=10, help="seeds 1..N (default 10)")
    ap.add_argument("--time", type=float, default=10.0, help="time limit per run, s (default 10)")
    ap.add_argument("--ompl-mode", choices=["first", "budget"], default="first",
                    help="harness --mode: budget lets SST use the whole budget (default first)")
    ap.add_argument("--map", default="maps/wall40.yaml")
    ap.add_argument("--robot", default="robots/lexus_rx450h.xml")
    ap.add_argument("--start", default="5,5,0")
    ap.add_argument("--goal", default="35,5,0", help="planbench gets X,Y,YAW; OMPL X,Y (any heading)")
    ap.add_argument("--goal-radius", type=float, default=1.0)
    ap.add_argument("--planbench-param", action="append", default=[], metavar="K=V")
    ap.add_argument("--ompl-param", action="append", default=[], metavar="K=V")
    ap.add_argument("--grace", type=float, default=30.0, help="kill a run after the time limit + this (s)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out"))
    ap.add_argument("--tag", default="")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    try:
        pairs = [tuple(p.split(":", 1)) for p in a.pairs.split(",") if p]
        if not pairs or any(len(p) != 2 or not p[0] or not p[1] for p in pairs):
            raise ValueError
    except ValueError:
        ap.error("--pairs must look like sst:SST,rrtstar:-")
    if a.seeds < 1 or not a.time > 0:
        ap.error("--seeds >= 1 and --time > 0")

    pb = None
    if not a.no_planbench:
        path = rel(a.planbench)
        if os.access(path, os.X_OK):
            pb = path
        else:
            co.log("planbench binary absent (%s): the planbench side is not available; build it with "
                   "`meson setup build-rel --buildtype=release && ninja -C build-rel`" % a.planbench)
    om = None if a.no_ompl else find_harness(a)
    if om is None and not a.no_ompl:
        co.log("OMPL harness absent: the OMPL side is skipped")
    if pb is None and om is None:
        print("nothing to run")
        return 1

    pb_names = [p for p, _ in pairs] if pb else []
    om_names = sorted({o for _, o in pairs if o != "-"}, key=[o for _, o in pairs].index) if om else []
    tag = a.tag or datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    base = os.path.join(a.out, "compare_car-%s" % tag)
    info = co.machine_info()
    info["command"] = " ".join(shlex.quote(x) for x in [os.path.relpath(sys.argv[0], ROOT)] + sys.argv[1:])
    info["planbench"] = pb
    info["ompl"] = om

    recs = []
    unavailable = {}
    if pb is None and not a.no_planbench:
        for name in [p for p, _ in pairs]:
            recs.append({"side": "planbench", "planner": name, "seed": 0, "available": False, "crashed": False,
                         "norm": None, "message": "no planbench binary at %s" % a.planbench})
    raw = None
    if not a.dry_run:
        os.makedirs(a.out, exist_ok=True)
        raw = open(base + ".jsonl", "w")
        raw.write(json.dumps({"meta": info, "args": vars(a)}) + "\n")
    t0 = time.time()
    k = 0
    for seed in range(1, a.seeds + 1):
        jobs = []
        for i in range(max(len(pb_names), len(om_names))):
            if i < len(pb_names) and pb_names[i] not in unavailable:
                jobs.append(("planbench", pb_names[i]))
            if i < len(om_names):
                jobs.append(("ompl", om_names[i]))
        if k % 2 == 1:
            jobs.reverse()  # alternate which side and planner goes first
        k += 1
        for side, name in jobs:
            if side == "planbench" and name in unavailable:
                continue
            cmd = planbench_cmd(a, pb, name, seed) if side == "planbench" else ompl_cmd(a, om, name, seed)
            if a.dry_run:
                print(" ".join(shlex.quote(c) for c in cmd))
                continue
            rec = one_run(a, side, name, cmd, seed)
            if not rec["available"]:
                unavailable[name] = rec["message"]
            recs.append(rec)
            raw.write(json.dumps(rec) + "\n")
            raw.flush()
        if not a.dry_run:
            co.log("%7.1fs  seed %d done" % (time.time() - t0, seed))
    if a.dry_run:
        return 0
    raw.close()

    st, table = summarise(a, pairs, recs)
    with open("/proc/loadavg") as f:
        info["loadavg1_at_end"] = f.read().split()[0]
    head = ["### compare_car.py: the car benchmark of issue 18", "",
            "- command: `%s`" % info["command"],
            "- machine: %s, %s cores, Linux %s, load %s at start / %s at end, %s"
            % (info["cpu"], info["cores"], info["kernel"], info["loadavg1_at_start"], info["loadavg1_at_end"],
               info["date"]),
            "- problem: `%s`, `%s`, start %s, goal %s radius %g m; planbench `%s` (git %s); OMPL harness `%s` "
            "(--mode %s)" % (a.map, a.robot, a.start, a.goal, a.goal_radius,
                             os.path.relpath(pb, ROOT) if pb else "absent", info["git"],
                             os.path.relpath(om, ROOT) if om else "absent", a.ompl_mode),
            "- runs interleaved per seed (the order alternates), one process per run; raw runs: `%s`"
            % os.path.relpath(base + ".jsonl", ROOT), ""]
    text = "\n".join(head) + "\n" + table + "\n"
    with open(base + ".md", "w") as f:
        f.write(text)
    with open(base + ".summary.json", "w") as f:
        json.dump({"meta": info, "stats": {"%s:%s" % key: v for key, v in st.items()}}, f, indent=1,
                  default=lambda x: None)
    print(text)
    failed = sum(1 for r in recs if r.get("crashed"))
    if failed:
        co.log("%d runs failed (see %s)" % (failed, base + ".jsonl"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
