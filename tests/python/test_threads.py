"""The GIL is released while planning on built-in engines: two threads finish sooner together
than one after the other."""
import os
import threading
import time

import planbench
from conftest import source_path


def solve(engine):
    r = planbench.plan("rrtstar", engine, seed=1, max_iterations=60000, time_limit=0, first_solution=False)
    assert r.outcome == "exact"


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def test_two_threads_plan_concurrently():
    if len(os.sched_getaffinity(0)) < 2:
        import pytest
        pytest.skip("one CPU: nothing to run concurrently on")
    engine = planbench.load(source_path("maps", "room1.png"))
    solve(engine)  # warm up
    best = None
    for _ in range(3):  # the machine is shared: the best of three attempts
        serial = timed(lambda: (solve(engine), solve(engine)))

        def parallel():
            threads = [threading.Thread(target=solve, args=(engine,)) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()

        concurrent = timed(parallel)
        ratio = concurrent / serial
        best = ratio if best is None else min(best, ratio)
        if best < 0.75:
            break
    assert best < 0.75, f"two threads took {best:.2f}x the serial time (the GIL is not released?)"
