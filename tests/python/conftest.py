"""Shared fixtures: the source tree (for bundled maps) and an independent path checker."""
import importlib.util
import os

import numpy as np
import pytest

ROOT = os.environ.get("PB_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
_spec = importlib.util.spec_from_file_location("pb_maps_generate", os.path.join(ROOT, "maps", "generate.py"))
_generate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_generate)


def source_path(*parts):
    return os.path.join(ROOT, *parts)


def check_path(path, start, goal, feasible, step, cost=None, goal_radius=None, pixel_free=None):
    """Re-check a path without planbench: it starts at `start`, ends at `goal` (within
    goal_radius when given, else exactly), every configuration along every edge at spacing
    `step` is feasible by `feasible` (or, for an image map, with `pixel_free(column, row)`
    given, every pixel of the Bresenham line between the endpoints' pixels is free, the image
    engine's documented edge rule), and its Euclidean length is `cost` (when given)."""
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
        if pixel_free is not None:  # image maps: the Bresenham pixel line (the engine's rule)
            for x, y in bresenham(int(np.floor(a[0])), int(np.floor(a[1])), int(np.floor(b[0])), int(np.floor(b[1]))):
                assert pixel_free(x, y), f"edge {a} -> {b} crosses blocked pixel ({x}, {y})"
            continue
        n = max(1, int(np.ceil(d / step)))
        for t in np.linspace(0.0, 1.0, n + 1):
            q = a + t * (b - a)
            assert feasible(q), f"edge {a} -> {b} crosses an obstacle at {q}"
    if cost is not None:
        assert abs(length - cost) <= 1e-6 * max(1.0, cost), f"length {length} but reported cost {cost}"
    return length


def bresenham(x0, y0, x1, y1):
    """The pixels of the line from (x0, y0) to (x1, y1), both included, walked from the
    lexicographically smaller endpoint (so a->b and b->a are the same pixels): the line of
    maps/generate.py, which drew the bundled maps, not planbench's."""
    if (x1, y1) < (x0, y0):
        x0, y0, x1, y1 = x1, y1, x0, y0
    return _generate.bresenham(x0, y0, x1, y1)


@pytest.fixture
def room1():
    return source_path("maps", "room1.png")
