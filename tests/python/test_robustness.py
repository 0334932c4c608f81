"""Callbacks that misbehave, Ctrl-C, reference counts and memory."""
import os
import signal
import sys
import threading
import time
import traceback
from math import cos, sin

import numpy as np
import pytest

import planbench
from conftest import source_path


class Boom(Exception):
    pass


def test_raising_functor_propagates_with_traceback():
    calls = []

    def functor(q):
        calls.append(1)
        if len(calls) == 50:
            raise Boom(f"bad configuration {q[0]:.3f}")
        return True

    engine = planbench.blackbox(functor, [0, 0], [1, 1])
    with pytest.raises(Boom, match="bad configuration") as e:
        planbench.plan("rrtstar", engine, [0.1, 0.1], [0.9, 0.9], time_limit=30)
    assert len(calls) == 50  # the solve stopped at the exception
    frames = [f.name for f in traceback.extract_tb(e.value.__traceback__)]
    assert "functor" in frames
    # the engine is usable again afterwards
    calls.clear()
    calls.extend([0] * 100)
    assert planbench.plan("rrt", engine, [0.1, 0.1], [0.9, 0.9]).outcome == "exact"


def test_raising_clearance_and_feasible_call():
    def clearance(q):
        raise KeyError("clearance broke")

    engine = planbench.blackbox(lambda q: True, [0, 0], [1, 1], clearance=clearance)
    with pytest.raises(KeyError, match="clearance broke"):
        planbench.plan("rrt", engine, [0.1, 0.1], [0.9, 0.9])
    bad = planbench.blackbox(lambda q: 1 / 0, [0, 0], [1, 1])
    with pytest.raises(ZeroDivisionError):
        bad.feasible([0.5, 0.5])


@pytest.mark.parametrize("value", ["yes", None, 1, 1.0, np.array([True, False]), [True]])
def test_functor_returning_non_bool(value):
    engine = planbench.blackbox(lambda q: value, [0, 0], [1, 1])
    with pytest.raises(TypeError, match="must return a bool"):
        planbench.plan("rrt", engine, [0.1, 0.1], [0.9, 0.9])


def test_functor_gets_a_read_only_view():
    seen = []

    def functor(q):
        seen.append((type(q), q.dtype, q.shape, q.flags.writeable))
        return True

    planbench.plan("rrt", planbench.blackbox(functor, [0, 0, 0], [1, 1, 1]), [0.1] * 3, [0.9] * 3)
    assert seen[0] == (np.ndarray, np.float64, (3,), False)


def test_bad_arguments_do_not_crash(room1):
    engine = planbench.load(room1)
    for args, kwargs in [(("rrt", engine), {"seed": -1}), (("rrt", engine), {"max_iterations": "many"}),
                         ((1, engine), {}), (("rrt", engine, np.zeros((2, 2)), [1, 1]), {}),
                         (("rrt", engine, [1 + 2j, 3], [1, 1]), {}), (("rrt", engine, object(), [1, 1]), {})]:
        with pytest.raises((TypeError, ValueError, OverflowError)):
            planbench.plan(*args, **kwargs)
    with pytest.raises(TypeError):
        planbench.blackbox(42, [0], [1])
    with pytest.raises(ValueError):
        planbench.blackbox(lambda q: True, [0] * 40, [1] * 40)
    with pytest.raises(TypeError):
        planbench.load(room1, options=[1])


def interrupt_after(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.parametrize("kind", ["builtin", "python"])
def test_keyboard_interrupt_stops_a_long_solve(kind, room1):
    if kind == "builtin":
        engine, start, goal = planbench.load(room1), None, None
    else:
        engine = planbench.blackbox(lambda x: -0.22 < cos(x[0]) * sin(x[1]), [-5, -5], [5, 5])
        start, goal = [-3, -3], [3, 3]
    t0 = time.monotonic()
    interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        planbench.plan("rrtstar", engine, start, goal, time_limit=60)
    assert time.monotonic() - t0 < 5.0


def test_interrupt_returns_best_path_when_asked(room1):
    engine = planbench.load(room1)
    interrupt_after(0.3)
    t0 = time.monotonic()
    r = planbench.plan("rrtstar", engine, time_limit=60, on_interrupt="return")
    assert time.monotonic() - t0 < 5.0
    assert r.interrupted and r.outcome == "exact" and len(r.path) >= 2


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_memory_and_refcounts_over_10000_plans():
    engine = planbench.blackbox(lambda q: q[0] < 0.45 or q[0] > 0.55 or q[1] > 0.8, [0, 0], [1, 1],
                                start=[0.1, 0.1], goal=[0.9, 0.1])
    image = planbench.image(np.ones((50, 50), dtype=bool))
    refs = (sys.getrefcount(engine), sys.getrefcount(image))

    def batch(n):
        for i in range(n):
            r = planbench.plan("rrt", engine, seed=i, max_iterations=500, tree=(i % 10 == 0))
            assert r.outcome in ("exact", "no_solution")
            planbench.plan("rrt", image, [1.5, 1.5], [48.5, 48.5], seed=i)

    batch(500)  # warm up allocator pools
    before = rss_kib()
    batch(10000)
    grown = rss_kib() - before
    assert (sys.getrefcount(engine), sys.getrefcount(image)) == refs
    assert grown < 4096, f"resident memory grew by {grown} KiB over 10,000 plans"


def cosines(x):
    return -0.22 < cos(x[0]) * sin(x[1])


def cosines_batch(qs):
    return -0.22 < np.cos(qs[:, 0]) * np.sin(qs[:, 1])


def test_batched_callable_checks_the_same_edges():
    calls = []

    def batch(qs):
        calls.append(qs.shape)
        assert not qs.flags.writeable and qs.dtype == np.float64
        return cosines_batch(qs)

    plain = planbench.blackbox(cosines, [-5, -5], [5, 5], resolution=0.1)
    batched = planbench.blackbox(cosines, [-5, -5], [5, 5], resolution=0.1, batch=batch)
    for planner in ("rrt", "rrtstar", "prm"):
        a = planbench.plan(planner, plain, [-3, -3], [3, 3], seed=4, max_iterations=2000, time_limit=0)
        b = planbench.plan(planner, batched, [-3, -3], [3, 3], seed=4, max_iterations=2000, time_limit=0)
        assert a.outcome == b.outcome and np.array_equal(a.path, b.path), planner
    assert calls and all(n <= 64 and d == 2 for n, d in calls)
    assert max(n for n, _ in calls) > 2  # whole edges, not one configuration per call
    # batch only: single configurations go through it too
    only = planbench.blackbox(None, [-5, -5], [5, 5], resolution=0.1, batch=cosines_batch)
    assert only.feasible([0.0, 0.0]) == cosines([0.0, 0.0])


@pytest.mark.parametrize("value", [np.array([True]), np.zeros(100, dtype=bool), [True] * 3, "no",
                                   np.ones((2, 2), dtype=bool), np.ones(3)])
def test_batch_returning_the_wrong_thing(value):
    engine = planbench.blackbox(lambda q: True, [0, 0], [1, 1], batch=lambda qs: value)
    with pytest.raises(TypeError, match="batch callable must return a bool array"):
        planbench.plan("rrt", engine, [0.1, 0.1], [0.9, 0.9])


def test_raising_batch():
    def batch(qs):
        raise Boom("batch broke")

    engine = planbench.blackbox(lambda q: True, [0, 0], [1, 1], batch=batch)
    with pytest.raises(Boom, match="batch broke"):
        planbench.plan("rrt", engine, [0.1, 0.1], [0.9, 0.9])
