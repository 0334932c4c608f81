"""The GIL is released while planning on built-in engines: two threads' solves run at the
same time (their calls overlap), and Python runs while a solve does. How much faster two
threads finish than one after the other is a figure of the machine's load, not a pass or fail:
bench/bench_python.py measures it (bench/RESULTS.md)."""
import threading
import time

import planbench
from conftest import source_path


def solve(engine):
    r = planbench.plan("rrtstar", engine, seed=1, max_iterations=60000, time_limit=0, first_solution=False)
    assert r.outcome == "exact"
    return r


def test_two_threads_plan_concurrently():
    """Each solve's span is [return - its own time_s, return]: the solve's time measured in C,
    so a thread that waits for the GIL before the solve starts does not count as solving. With
    the GIL held through a solve the second could not start before the first returned: the
    spans would not overlap. Released, both run at once and overlap for most of the shorter."""
    engine = planbench.load(source_path("maps", "room1.png"))
    solve(engine)  # warm up
    spans = [None, None]
    barrier = threading.Barrier(2)

    def run(i):
        barrier.wait()
        r = solve(engine)
        t1 = time.perf_counter()
        spans[i] = (t1 - r.time_s, t1)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (a0, a1), (b0, b1) = spans
    overlap = min(a1, b1) - max(a0, b0)
    shorter = min(a1 - a0, b1 - b0)
    assert overlap > 0.5 * shorter, (
        f"the two solves overlapped {max(overlap, 0):.3f} s of {shorter:.3f} s (the GIL is not released?)")


def test_python_runs_while_a_solve_runs():
    """Independent of the number of free cores: during a solve on a built-in engine another
    Python thread keeps running (with the GIL held by the solve it could not)."""
    engine = planbench.load(source_path("maps", "room1.png"))
    done = threading.Event()
    ticks = []

    def counter():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=counter)
    t.start()
    time.sleep(0.01)
    t0 = time.perf_counter()
    r = planbench.plan("rrtstar", engine, seed=1, time_limit=0.5, first_solution=False)
    t1 = time.perf_counter()
    done.set()
    t.join()
    assert r.outcome == "exact"
    inside = [x for x in ticks if t0 < x < t1]
    assert len(inside) >= 20, f"the other thread ran {len(inside)} times during a {t1 - t0:.2f} s solve"
