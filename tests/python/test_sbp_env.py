"""sbp-env's documented black-box example, through planbench.sbp_env, unchanged apart from
the import; the path is re-checked with the functor at a finer resolution."""
from math import cos, sin

import numpy as np

import planbench.sbp_env as sbp_env
from conftest import check_path


def functor(x):
    return -0.22 < (cos(x[0]) * sin(x[1]))


def test_documented_example():
    # --- sbp-env's documentation, verbatim but for the import ---
    engine = sbp_env.engine.BlackBoxEngine(
        collision_checking_functor=lambda x: -0.22 < (cos(x[0]) * sin(x[1])),
        lower_limits=[-5, -5], upper_limits=[5, 5],
        cc_epsilon=0.1,  # collision check resolution
    )
    planning_args = sbp_env.generate_args(
        planner_id="rrt", engine=engine,
        start_pt=[-3, -3], goal_pt=[3, 3],
        display=True, first_solution=True,
    )

    env = sbp_env.env.Env(args=planning_args)
    env.run()
    print(env.get_solution_path(as_array=True))
    # --- end of the example ---
    path = env.get_solution_path(as_array=True)
    assert isinstance(path, np.ndarray) and path.shape[1] == 2
    # ten times finer than the engine's cc_epsilon: a sampled edge check can miss a sliver
    # thinner than 0.1, so allow only what the coarse check could not see
    check_path(path, [-3, -3], [3, 3], functor, 0.1, cost=env.result.cost)
    fine_failures = 0
    for a, b in zip(path[:-1], path[1:]):
        n = max(1, int(np.ceil(np.linalg.norm(b - a) / 0.01)))
        fine_failures += sum(not functor(a + t * (b - a)) for t in np.linspace(0, 1, n + 1))
    assert fine_failures == 0, f"{fine_failures} configurations in collision at resolution 0.01"


def test_rrtstar_and_list_path():
    engine = sbp_env.engine.BlackBoxEngine(functor, [-5, -5], [5, 5], cc_epsilon=0.1)
    args = sbp_env.generate_args(planner_id="rrt*", engine=engine, start_pt=[-3, -3], goal_pt=[3, 3],
                                 time_limit=0.3, max_number_nodes=2000)
    env = sbp_env.env.Env(args=args)
    env.run()
    path = env.get_solution_path()
    assert isinstance(path, list) and len(path) >= 2
    check_path(np.array(path), [-3, -3], [3, 3], functor, 0.01)


def test_rrt_is_sbp_envs_rrtstar():
    """sbp-env's "rrt" chooses parents and rewires (RRT*): without first_solution it keeps
    improving the path within the node budget, as sbp-env's does."""
    engine = sbp_env.engine.BlackBoxEngine(functor, [-5, -5], [5, 5], cc_epsilon=0.1)
    args = sbp_env.generate_args(planner_id="rrt", engine=engine, start_pt=[-3, -3], goal_pt=[3, 3],
                                 max_number_nodes=3000, time_limit=5.0)
    assert args.planner == "rrtstar"
    env = sbp_env.env.Env(args=args)
    env.run()
    trace = env.result.cost_trace
    assert len(trace) >= 2 and trace[-1][1] < trace[0][1], trace
    check_path(env.get_solution_path(as_array=True), [-3, -3], [3, 3], functor, 0.01, cost=env.result.cost)
