"""Shared fixtures: the source tree (for bundled maps) and an independent path checker."""
import os

import numpy as np
import pytest

ROOT = os.environ.get("PB_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))


def source_path(*parts):
    return os.path.join(ROOT, *parts)


def check_path(path, start, goal, feasible, step, cost=None, goal_radius=None):
    """Re-check a path without planbench: it starts at `start`, ends at `goal` (within
    goal_radius when given, else exactly), every configuration along every edge at spacing
    `step` is feasible by `feasible`, and its Euclidean length is `cost` (when given)."""
    path = np.asarray(path, dtype=float)
    assert path.ndim == 2 and len(path) >= 2, f"not a path: shape {path.shape}"
    assert np.array_equal(path[0], np.asarray(start, float)), f"path starts at {path[0]}, not {start}"
    if goal_radius is None:
        assert np.array_equal(path[-1], np.asarray(goal, float)), f"path ends at {path[-1]}, not {goal}"
    else:
        assert np.linalg.norm(path[-1] - goal) <= goal_radius + 1e-9
    length = 0.0
    for a, b in zip(path[:-1], path[1:]):
        d = float(np.linalg.norm(b - a))
        length += d
        n = max(1, int(np.ceil(d / step)))
        for t in np.linspace(0.0, 1.0, n + 1):
            q = a + t * (b - a)
            assert feasible(q), f"edge {a} -> {b} crosses an obstacle at {q}"
    if cost is not None:
        assert abs(length - cost) <= 1e-6 * max(1.0, cost), f"length {length} but reported cost {cost}"
    return length


@pytest.fixture
def room1():
    return source_path("maps", "room1.png")
