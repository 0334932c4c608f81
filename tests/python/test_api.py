"""planbench from Python: engines, every planner, results, errors."""
import math

import numpy as np
import pytest

import planbench
from conftest import check_path, source_path


def pixel_oracle(engine):
    return lambda x, y: engine.feasible([x + 0.5, y + 0.5])


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
    # edges re-walked here pixel by pixel (the engine's point test says which pixel is free)
    check_path(r.path, start, goal, engine.feasible, 0.25, cost=r.cost, pixel_free=pixel_oracle(engine))


GEOMETRIC = ["rrt", "birrt", "rrtstar", "informedrrt", "prm", "lazyprm", "bitstar", "rrdt"]
CAR_ONLY = ["hybrid_astar", "rrt_control", "sst"]
KINODYNAMIC = ["rrt_control", "sst"]


def test_planner_lists_are_complete():
    assert sorted(GEOMETRIC + CAR_ONLY) == sorted(p["name"] for p in planbench.planners())


@pytest.mark.parametrize("name", GEOMETRIC)
def test_every_planner_on_bundled_map(name, room1):
    engine = planbench.load(room1)
    start, goal = engine.defaults
    r = planbench.plan(name, engine, seed=2, time_limit=0.5)
    assert r.outcome == "exact", r
    assert math.isfinite(r.cost) and r.time_s > 0
    check_path(r.path, start, goal, engine.feasible, 0.25, cost=r.cost, pixel_free=pixel_oracle(engine))


@pytest.mark.parametrize("name", CAR_ONLY + ["rrt"])
def test_car_planners(name):
    engine = planbench.car(source_path("maps", "wall40.yaml"), robot=source_path("robots", "lexus_rx450h.xml"))
    start, goal = np.array([5.0, 5.0, 0.0]), np.array([35.0, 5.0, 0.0])
    r = planbench.plan(name, engine, start, goal, seed=1, time_limit=10.0, goal_radius=4.0)
    assert r.outcome == "exact", r
    assert np.array_equal(r.path[0], start)
    assert np.linalg.norm(r.path[-1][:2] - goal[:2]) <= 4.0 + 1e-9
    if name in KINODYNAMIC:
        # their edges are the vehicle model driven by controls, not the engine's steering curves
        # (tests/cli/test_kino.sh replays the controls and re-checks every state ten times
        # finer): each state is free and one control's drive from the last (at most
        # max_speed 5 m/s for max_control_duration 10 steps of 0.1 s)
        for a, b in zip(r.path[:-1], r.path[1:]):
            assert engine.feasible(b) and np.linalg.norm(b[:2] - a[:2]) <= 5.0 + 1e-9
        return
    for a, b in zip(r.path[:-1], r.path[1:]):  # edges are the engine's steering curves
        assert engine.visible(a, b)


def test_arm4d_and_tree(room1):
    engine = planbench.arm4d(source_path("maps", "4d.png"))
    assert engine.dim == 4
    r = planbench.plan("rrt", engine, seed=1, time_limit=5.0, tree=True)
    assert r.outcome == "exact"
    start, goal = engine.defaults
    assert np.array_equal(r.path[0], start) and np.array_equal(r.path[-1], goal)
    for a, b in zip(r.path[:-1], r.path[1:]):
        assert engine.visible(a, b)
    v, e = r.tree["vertices"], r.tree["edges"]
    assert v.shape[1] == 4 and e.shape[1:] == (2, 4) and len(v) >= len(e) > 0


def wall_map(dtype):
    """A 60x80 map with a wall at x = 40 and a gap at rows 5..10, in `dtype`'s free rule."""
    free = np.ones((60, 80), dtype=bool)
    free[:, 40:43] = False
    free[5:11, 40:43] = True
    if dtype == np.bool_:
        return free, free
    if dtype == np.uint8:
        return np.where(free, 255, 0).astype(np.uint8), free
    return np.where(free, 1, 0).astype(dtype), free


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int8, np.uint16, np.int16, np.int32, np.uint32,
                                   np.int64, np.uint64, np.float16, np.float32, np.float64])
def test_numpy_maps_every_dtype(dtype):
    array, free = wall_map(dtype)
    engine = planbench.image(array)
    assert engine.dim == 2 and list(engine.upper) == [80, 60]

    def oracle(q):  # the array itself: pixel (column x, row y from the top)
        x, y = int(math.floor(q[0])), int(math.floor(q[1]))
        return 0 <= x < 80 and 0 <= y < 60 and bool(free[y, x])

    start, goal = [10.5, 50.5], [70.5, 50.5]
    r = planbench.plan("rrt", engine, start, goal, seed=1, time_limit=2.0)
    assert r.outcome == "exact"
    check_path(r.path, start, goal, oracle, 0.05, cost=r.cost,
               pixel_free=lambda x, y: 0 <= x < 80 and 0 <= y < 60 and bool(free[y, x]))
    assert min(q[1] for q in r.path if 39 <= q[0] <= 44) < 12  # through the gap


def test_numpy_map_rules():
    a = np.full((10, 10), 100, dtype=np.uint8)
    assert not planbench.image(a).feasible([5.5, 5.5])  # grey is blocked by default
    assert planbench.image(a, threshold=50).feasible([5.5, 5.5])
    with pytest.raises(ValueError, match="NaN"):
        planbench.image(np.full((4, 4), np.nan))
    with pytest.raises(ValueError, match="dtype"):
        planbench.image(np.full((4, 4), "x"))
    with pytest.raises(ValueError, match="2-D"):
        planbench.image(np.ones((4, 4, 3), dtype=bool))


def test_errors_are_the_cli_messages(room1, tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        planbench.load(str(tmp_path / "nope.png"))
    assert isinstance(e.value, planbench.Error) and "nope.png" in str(e.value)
    engine = planbench.load(room1)
    with pytest.raises(ValueError, match="unknown planner 'nope'"):
        planbench.plan("nope", engine)
    with pytest.raises(ValueError, match="start: expected 2 numbers"):
        planbench.plan("rrt", engine, start=[1, 2, 3], goal=[4, 5])
    with pytest.raises(ValueError, match="not a finite number"):
        planbench.plan("rrt", engine, start=[float("nan"), 2], goal=[4, 5])
    with pytest.raises(ValueError, match="start"):
        planbench.plan("rrt", engine, start="here", goal=[4, 5])
    with pytest.raises(ValueError, match="no parameter 'nope'"):
        planbench.plan("rrt", engine, nope=1)
    with pytest.raises(ValueError, match="step_size"):
        planbench.plan("rrt", engine, step_size=-1)
    with pytest.raises(ValueError, match="parameter goal_bias"):
        planbench.plan("rrt", engine, goal_bias="high")
    with pytest.raises(TypeError):
        planbench.plan("rrt", "room1.png")
    with pytest.raises(ValueError, match="time_limit"):
        planbench.plan("rrt", engine, time_limit=float("nan"))
    box = planbench.blackbox(lambda q: True, [0, 0], [1, 1])
    with pytest.raises(ValueError, match="no default start and goal"):
        planbench.plan("rrt", box)
    with pytest.raises(ValueError, match="lower has 2 coordinates but upper has 3"):
        planbench.blackbox(lambda q: True, [0, 0], [1, 1, 1])
    with pytest.raises(ValueError, match="lower"):
        planbench.blackbox(lambda q: True, [1, 0], [0, 1])
    r = planbench.plan("rrt", engine, start=[0.5, 0.5], goal=engine.defaults[1])
    assert r.outcome in ("invalid_start", "exact")


def test_benchmark_runs_as_dicts(tmp_path):
    script = tmp_path / "tiny.ini"
    script.write_text("[benchmark]\nname = tiny\nruns = 2\ntime_limit = 1.0\nstop = first\nseed = 1\n\n"
                      f"[problem.room1]\nmap = {source_path('maps', 'room1.png')}\n\n"
                      "[planner.rrt]\n[planner.birrt]\n")
    runs = planbench.benchmark(str(script), out_dir=str(tmp_path / "out"), dataframe=False)
    assert len(runs) == 4
    assert {r["planner"] for r in runs} == {"rrt", "birrt"}
    assert all(r["solved"] in (1, "true", True) for r in runs), runs[0]
