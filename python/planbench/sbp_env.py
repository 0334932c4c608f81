"""A thin compatibility layer for sbp-env's documented black-box workflow.

    import planbench.sbp_env as sbp_env
    engine = sbp_env.engine.BlackBoxEngine(collision_checking_functor=..., lower_limits=[...],
                                           upper_limits=[...], cc_epsilon=0.1)
    args = sbp_env.generate_args(planner_id="rrt", engine=engine, start_pt=[...], goal_pt=[...])
    env = sbp_env.env.Env(args=args)
    env.run()
    env.get_solution_path(as_array=True)

Planning runs in planbench (the planner of that name, the functor as a black box whose edges
are checked at cc_epsilon). `display` is accepted and ignored.
"""
import types as _types

import numpy as _np

import planbench as _pb


class BlackBoxEngine:
    """sbp-env's black-box engine: a functor that returns True for a free configuration."""

    def __init__(self, collision_checking_functor, lower_limits, upper_limits, dist_functor=None, cc_epsilon=0.1):
        if dist_functor is not None:
            raise _pb.InvalidInput("BlackBoxEngine: a custom dist_functor is not supported (Euclidean only)")
        self.cc_functor = collision_checking_functor
        self.lower = _np.asarray(lower_limits, dtype=float)
        self.upper = _np.asarray(upper_limits, dtype=float)
        self.cc_epsilon = float(cc_epsilon)
        self.engine = _pb.blackbox(collision_checking_functor, self.lower, self.upper, resolution=self.cc_epsilon)


class Args(dict):
    """The planning arguments; keys are readable as attributes, as sbp-env's are."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def generate_args(planner_id, engine, start_pt, goal_pt, display=False, first_solution=False, max_number_nodes=30000,
                  epsilon=None, goal_radius=None, seed=1, time_limit=60.0, **kwargs):
    """Planning arguments, as sbp-env's generate_args: `planner_id` as in sbp-env ("rrt" is
    RRT*, as there; "birrt", "prm", "informedrrt", "rrdt") or any planbench planner name, the
    engine, start and goal; `epsilon` is the step size
    and `max_number_nodes` the node budget. Unknown keywords are kept and passed to the
    planner as parameters."""
    if not isinstance(engine, BlackBoxEngine):
        raise _pb.InvalidInput("generate_args: engine must be an sbp_env.engine.BlackBoxEngine")
    # sbp-env's ids name its planners: its "rrt" is RRT* (it chooses parents and rewires) and
    # its "birrt" a bidirectional RRT*; planbench's nearest are rrtstar and birrt (RRT-Connect)
    names = {"rrt": "rrtstar", "rrt*": "rrtstar", "rrtstar": "rrtstar", "informedrrt*": "informedrrt"}
    return Args(planner_id=planner_id, planner=names.get(planner_id.lower(), planner_id), engine=engine,
                start_pt=list(start_pt), goal_pt=list(goal_pt), display=display, first_solution=first_solution,
                max_number_nodes=max_number_nodes, epsilon=epsilon, goal_radius=goal_radius, seed=seed,
                time_limit=time_limit, params=kwargs)


class Env:
    """Runs the planning the arguments describe."""

    def __init__(self, args):
        self.args = args
        self.result = None

    def run(self):
        a = self.args
        params = dict(a.params)
        if a.epsilon is not None:
            params["step_size"] = a.epsilon
        self.result = _pb.plan(a.planner, a.engine.engine, a.start_pt, a.goal_pt, seed=a.seed,
                               time_limit=a.time_limit, max_nodes=a.max_number_nodes,
                               first_solution=a.first_solution or None,
                               goal_radius=a.goal_radius or 0.0, **params)
        return self.result

    def get_solution_path(self, as_array=False):
        """The path as a list of configurations, or an (n, d) array with as_array=True;
        None when no path was found."""
        if self.result is None or self.result.outcome != "exact":
            return None
        return self.result.path.copy() if as_array else [_np.array(q) for q in self.result.path]


# sbp-env's module layout: sbp_env.engine.BlackBoxEngine, sbp_env.env.Env.
engine = _types.SimpleNamespace(BlackBoxEngine=BlackBoxEngine)
env = _types.SimpleNamespace(Env=Env)
