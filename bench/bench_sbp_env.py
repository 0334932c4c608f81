"""Side by side with sbp-env's own planners on its documented black-box example (issue 23).

sbp-env (https://github.com/soraxas/sbp-env) is not part of planbench and not installed by it:
give a checkout with --sbp-env PATH (or SBP_ENV_PATH); without one this script says so and exits
0. sbp-env needs numpy, scipy, tqdm, networkx, rtree, docopt and pygame (Debian: python3-scipy
python3-tqdm python3-networkx python3-rtree python3-docopt python3-pygame); its two imports
Debian does not package, `overrides` (a decorator) and `SALib` (samplers other than the default
pseudo-random one), are replaced by stand-ins when missing: the runs here use neither.

The problem is sbp-env's README example: `-0.22 < cos(x0) sin(x1)` on [-5, 5]^2, edges checked
every cc_epsilon = 0.1, start (-3, -3), goal (3, 3), the same Python lambda for both.

For each pair (sbp-env id : planbench planner) it measures, in one process, alternating:
  * iterations per second: sbp-env's planner.run_once() called back to back for --seconds
    (an iteration of either is one sample and what follows from it; sbp-env's Env.run() adds
    a tqdm progress bar per iteration, reported separately as "env.run()"), against
    planbench.plan() with max_iterations on the same functor;
  * time to the first solution over --seeds seeds (Env.run() with first_solution=True, the
    documented call, against planbench.plan(..., first_solution=True)).

    PYTHONPATH=BUILD/python /usr/bin/python3 bench/bench_sbp_env.py --sbp-env ../sbp-env
"""
import argparse
import io
import contextlib
import os
import random
import statistics
import sys
import time
import types
from math import cos, sin

import numpy as np

import planbench

PAIRS = [("rrt", "rrtstar"), ("birrt", "birrt"), ("informedrrt", "informedrrt")]


def functor(x):
    return -0.22 < (cos(x[0]) * sin(x[1]))


def import_sbp_env(path):
    sys.path.insert(0, path)
    try:
        import overrides  # noqa: F401
    except ImportError:
        stand_in = types.ModuleType("overrides")
        stand_in.overrides = lambda f: f
        sys.modules["overrides"] = stand_in
    try:
        import SALib  # noqa: F401
    except ImportError:
        pkg, sub = types.ModuleType("SALib"), types.ModuleType("SALib.sample")
        for name in ("saltelli", "sobol_sequence", "latin", "finite_diff", "fast_sampler"):
            setattr(sub, name, types.ModuleType("SALib.sample." + name))
        pkg.sample = sub
        sys.modules["SALib"], sys.modules["SALib.sample"] = pkg, sub
    import sbp_env
    return sbp_env


def sbp_env_make(sbp_env, planner_id, seed, first_solution, max_nodes=200000):
    random.seed(seed)
    np.random.seed(seed)
    engine = sbp_env.engine.BlackBoxEngine(collision_checking_functor=functor, lower_limits=[-5, -5],
                                           upper_limits=[5, 5], cc_epsilon=0.1)
    args = sbp_env.generate_args(planner_id=planner_id, engine=engine, start_pt=[-3, -3], goal_pt=[3, 3],
                                 display=False, first_solution=first_solution, max_number_nodes=max_nodes)
    return sbp_env.env.Env(args=args)


def sbp_env_rate(sbp_env, planner_id, seconds):
    """run_once() back to back: iterations per second of the planner itself."""
    env = sbp_env_make(sbp_env, planner_id, 0, False)
    planner = env.planner
    stats = sbp_env.utils.common.Stats
    if not stats.has_instance():  # Env() usually made it
        stats.build_instance(showSampledPoint=False)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        planner.run_once()
        n += 1
    elapsed = time.perf_counter() - t0
    stats.clear_instance()
    return n / elapsed, n, planner.c_max


def sbp_env_first(sbp_env, planner_id, seed):
    """The documented call: Env.run() until the first solution; (seconds, cost or inf)."""
    env = sbp_env_make(sbp_env, planner_id, seed, True, max_nodes=20000)
    sink = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stderr(sink):
        env.run()
    elapsed = time.perf_counter() - t0
    path = env.get_solution_path(as_array=True)
    cost = float(np.sum(np.linalg.norm(np.diff(path, axis=0), axis=1))) if path is not None and len(path) else float("inf")
    return elapsed, cost


def planbench_rate(engine, planner, seconds):
    n, spent = 0, 0.0
    seed = 0
    while spent < seconds:
        r = planbench.plan(planner, engine, [-3, -3], [3, 3], seed=seed, time_limit=0, max_iterations=5000,
                           first_solution=False)
        n += r.iterations
        spent += r.time_s
        seed += 1
    return n / spent, n


def planbench_first(engine, planner, seed):
    t0 = time.perf_counter()
    r = planbench.plan(planner, engine, [-3, -3], [3, 3], seed=seed, time_limit=10, first_solution=True)
    return time.perf_counter() - t0, (r.cost if r.outcome == "exact" else float("inf"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sbp-env", default=os.environ.get("SBP_ENV_PATH"), help="an sbp-env checkout")
    ap.add_argument("--seconds", type=float, default=3.0, help="per iterations-per-second measurement")
    ap.add_argument("--seeds", type=int, default=10, help="first-solution runs per planner")
    a = ap.parse_args()
    if not a.sbp_env or not os.path.isdir(os.path.join(a.sbp_env, "sbp_env")):
        print("sbp-env not given (--sbp-env PATH or SBP_ENV_PATH, a checkout of "
              "https://github.com/soraxas/sbp-env): nothing to compare")
        return 0
    sbp_env = import_sbp_env(a.sbp_env)
    engine = planbench.blackbox(functor, [-5, -5], [5, 5], resolution=0.1)
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, sbp-env {getattr(sbp_env, '__version__', '?')}, "
          f"{os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print()
    print("| sbp-env | planbench | sbp-env it/s | planbench it/s | ratio | sbp-env first (median, solved) "
          "| planbench first (median, solved) | ratio | path length median sbp-env / planbench |")
    print("|---|---|---|---|---|---|---|---|---|")
    for sid, pid in PAIRS:
        s_rate, s_n, _ = sbp_env_rate(sbp_env, sid, a.seconds)
        p_rate, p_n = planbench_rate(engine, pid, a.seconds)
        s_first, p_first = [], []
        for seed in range(a.seeds):  # alternating, so load changes hit both
            s_first.append(sbp_env_first(sbp_env, sid, seed))
            p_first.append(planbench_first(engine, pid, seed))
        s_ok = [t for t, c in s_first if c < float("inf")]
        p_ok = [t for t, c in p_first if c < float("inf")]
        s_len = statistics.median([c for _, c in s_first if c < float("inf")] or [float("nan")])
        p_len = statistics.median([c for _, c in p_first if c < float("inf")] or [float("nan")])
        s_med = statistics.median(s_ok) if s_ok else float("nan")
        p_med = statistics.median(p_ok) if p_ok else float("nan")
        print(f"| {sid} | {pid} | {s_rate:.3g} ({s_n} it) | {p_rate:.3g} ({p_n} it) | {p_rate / s_rate:.0f}x "
              f"| {s_med * 1e3:.1f} ms ({len(s_ok)}/{a.seeds}) | {p_med * 1e3:.2f} ms ({len(p_ok)}/{a.seeds}) "
              f"| {s_med / p_med:.0f}x | {s_len:.2f} / {p_len:.2f} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
