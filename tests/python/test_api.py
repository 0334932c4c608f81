"""planbench from Python: engines, every planner, results, errors."""
import math

import numpy as np
import pytest

import planbench
from conftest import check_path, source_path


def test_version_and_planners():
    names = [p["name"] for p in planbench.planners()]
    assert "rrt" in names and "rrtstar" in names
    for p in planbench.planners():
        for param in p["params"]:
            assert param["type"] in ("float", "int", "bool")
            assert param["low"] <= param["default"] <= param["high"], param
    assert planbench.planner("rrt")["name"] == "rrt"


def test_plan_on_bundled_map(room1):
    engine = planbench.load(room1)
    assert engine.name == "image2d" and engine.dim == 2
    start, goal = engine.defaults
    r = planbench.plan("rrt", engine, seed=3)
    assert r.outcome == "exact"
    assert r.path.dtype == np.float64 and r.path.shape[1] == 2
    assert r.iterations > 0 and r.nodes > 0 and r.counts["n_visible"] > 0
    # the PNG's pixels, read back through the engine's own point test only as the oracle of
    # "is this pixel free" (edges re-walked here at a 0.25-pixel spacing)
    check_path(r.path, start, goal, engine.feasible, 0.25, cost=r.cost)
