"""planbench for Python: motion planning on planbench's C library.

Engines::

    engine = planbench.load("maps/room1.png")            # any map, world or problem the CLI reads
    engine = planbench.image(array)                       # a numpy occupancy array
    engine = planbench.blackbox(lambda q: q[0] > 0, lower=[-1, -1], upper=[1, 1])

Planning::

    r = planbench.plan("rrt", engine, seed=1, time_limit=1.0)
    r.outcome, r.cost, r.path          # path: an (n, d) float64 array

See docs/python.md.
"""
import os as _os
import tempfile as _tempfile

import numpy as _np

from . import _planbench
from ._planbench import Engine, Error, FileNotFound, InvalidInput, load

__all__ = ["Engine", "Error", "InvalidInput", "FileNotFound", "Result", "load", "image", "blackbox", "arm4d",
           "manipulator", "car", "plan", "planners", "planner", "benchmark", "version"]
version = _planbench.version
__version__ = version


def image(array, threshold=None):
    """An image-map engine (image2d, pixel frame: x is the column, y the row from the top)
    from a 2-D numpy array.

    A bool array is free where True. A numeric array is free where the value is above
    `threshold`: by default 127 for uint8 (white is free, as in a PNG map), 0 otherwise
    (non-zero is free). NaN is an error.
    """
    a = _np.asarray(array)
    if a.ndim != 2 or a.shape[0] < 1 or a.shape[1] < 1:
        raise InvalidInput(f"image: expected a 2-D array (rows, columns), got shape {a.shape}")
    if a.dtype == _np.bool_:
        free = a
    elif a.dtype.kind in "uif":
        if a.dtype.kind == "f" and _np.isnan(a).any():
            raise InvalidInput("image: the array holds NaN")
        if threshold is None:
            threshold = 127 if a.dtype == _np.uint8 else 0
        free = a > threshold
    else:
        raise InvalidInput(f"image: dtype {a.dtype} is not a bool or numeric array")
    mask = _np.ascontiguousarray(_np.where(free, 255, 0).astype(_np.uint8))
    fd, path = _tempfile.mkstemp(suffix=".png", prefix="planbench-")
    _os.close(fd)
    try:
        _planbench._write_png(mask, path)
        return load(path)
    finally:
        _os.unlink(path)


def blackbox(feasible, lower, upper, resolution=0.0, clearance=None, start=None, goal=None, batch=None):
    """A black-box engine from a Python callable.

    `feasible(q)` gets a configuration as a read-only float64 numpy view (valid during the
    call only) and returns a bool. `lower` and `upper` are the bounds. `resolution` is the
    spacing of the configurations checked along an edge (0: 1/1000 of the bounds' diagonal).
    `clearance(q)` (optional) returns a lower bound on the distance to the nearest obstacle;
    edges are then certified. `start` and `goal` are optional defaults. `batch(qs)`
    (optional) takes a read-only (n, d) float64 array and returns a bool array of n values;
    sampled edge checks then hand it every configuration of an edge at once (up to 64 per
    call). With `feasible` None, single configurations go through `batch` too.
    """
    if feasible is None and batch is None:
        raise InvalidInput("blackbox: give feasible (or batch)")
    if feasible is None:
        def feasible(q, _batch=batch):
            return bool(_np.asarray(_batch(q[None, :])).reshape(-1)[0])
    return _planbench.blackbox(feasible, lower, upper, resolution, clearance, start, goal, batch)


def arm4d(map_path, **options):
    """The 4-D stick arm on an image map (engine stickarm4d)."""
    return load(map_path, engine="stickarm4d", options=options or None)


def manipulator(world_path, **options):
    """The manipulator engine on a world or problem file (needs a build with FCL)."""
    return load(world_path, engine="manipulator", options=options or None)


def car(map_path, robot=None, **options):
    """The car C-space (x, y, yaw) on a metric map (a map_server .yaml), for the vehicle in
    `robot` (a vehicle .xml, as the CLI's --robot)."""
    if robot is not None:
        options["robot"] = robot
    return load(map_path, engine="car", options=options or None)


class Result:
    """What plan() returns: outcome ("exact", "approximate", "timeout", "invalid_start", ...),
    cost, path ((n, d) float64 array), iterations, nodes, counts (engine work), time_s,
    cpu_s, time_to_first_s, cost_trace ([(time_s, cost)]), extra (planner statistics), tree
    ({"vertices": (n, d), "edges": (m, 2, d)} when asked with tree=True, else None) and
    interrupted (True when Ctrl-C stopped the solve with on_interrupt="return")."""

    __slots__ = ("outcome", "cost", "path", "iterations", "nodes", "time_s", "cpu_s", "time_to_first_s",
                 "counts", "cost_trace", "extra", "tree", "interrupted")

    def __init__(self, d):
        for k in self.__slots__:
            setattr(self, k, d[k])

    @property
    def solved(self):
        """True when the path reaches the goal."""
        return self.outcome == "exact"

    def as_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def __repr__(self):
        return (f"<planbench.Result {self.outcome} cost={self.cost:.6g} waypoints={len(self.path)} "
                f"iterations={self.iterations} nodes={self.nodes} time={self.time_s * 1e3:.3f} ms>")


def plan(planner, engine, start=None, goal=None, *, seed=1, time_limit=10.0, max_iterations=0, max_nodes=0,
         goal_radius=0.0, first_solution=None, approximate=False, tree=False, on_interrupt="raise",
         **planner_params):
    """Solve one query and return a Result.

    `planner` is a name or alias (planbench.planners()); start and goal default to the
    engine's own. `time_limit` (s), `max_iterations`, `max_nodes`: 0 is no limit.
    `first_solution` defaults to True except for anytime planners. Other keywords are the
    planner's parameters (step_size=..., goal_bias=...). Ctrl-C raises KeyboardInterrupt,
    or with on_interrupt="return" returns what was found so far. The GIL is released while
    planning, except around Python callbacks.
    """
    return Result(_planbench._plan(planner, engine, start, goal, seed, time_limit, max_iterations, max_nodes,
                                   goal_radius, first_solution, approximate, tree, on_interrupt, planner_params))


def planners():
    """Every planner: a list of dicts with name, summary, anytime, aliases and params (each
    a dict with name, type ("float", "int", "bool"), default, low, high and doc)."""
    return _planbench._planners()


def planner(name):
    """One planner's description (as in planners()), by name or alias."""
    for p in planners():
        if name == p["name"] or name in p["aliases"]:
            return p
    raise InvalidInput(f"unknown planner '{name}'")


def benchmark(script, jobs=1, runs=0, time_limit=0.0, out_dir=None, dataframe=True):
    """Run a benchmark script (the format of `planbench bench SCRIPT`, see bench/*.ini) and
    return its runs, one dict per run with the CLI's CSV columns: a list of dicts, or a
    pandas DataFrame when pandas is installed (and `dataframe` is true). `runs` and
    `time_limit` (> 0) override the script's; `jobs` runs in parallel (<= 0: every CPU)."""
    from ._bench import run
    return run(script, jobs, runs, time_limit, out_dir, dataframe)
