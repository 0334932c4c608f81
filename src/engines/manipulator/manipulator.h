/* The manipulator engine's own functions (private to the library; tests use them):
 * forward kinematics and collision explanations on an engine made by pb_engine_load() with
 * the engine "manipulator". */
#ifndef PB_ENGINES_MANIPULATOR_H
#define PB_ENGINES_MANIPULATOR_H

#include "robot/urdf.h"
#include "planbench/engine.h"

/** Most links a robot may have. */
#define PB_MANIPULATOR_MAX_LINKS 256

/** Default spacing of the configurations the interpolated edge check (option
 * edge_check=interpolated; the default check is certified) visits along an edge, in radians (metres
 * for prismatic joints) of the joint-space metric. OMPL checks motions at 1% of the space's
 * extent (MoveIt's default longest_valid_segment_fraction is 0.005, 0.067 rad on the
 * Panda); VAMP uses 1/32 = 0.031. 0.05 rad is between them: 0.05 rad of a joint moves a
 * point 1 m away by 5 cm at most, and bisection order finds most collisions after a few
 * checks. */
#define PB_MANIPULATOR_DEFAULT_RESOLUTION 0.05

/** Default step size of the tree planners on a manipulator (option step_size; a planner's
 * own step_size parameter wins), in radians of the joint-space metric. The core's default,
 * 2% of the bounds' diagonal, is 0.26 rad on the Panda; OMPL's RRT-Connect takes 20% (2.6
 * rad). The certified edge check costs little more on a long edge than on a short one (it
 * advances by the clearance), so longer extensions pay, up to a point: on the 700
 * MotionBenchMaker Panda problems with RRT-Connect, 0.5 rad halved the median planning time
 * of 0.26 rad and solved as many; 1 rad was a little faster in the median but left 2-3
 * problems unsolved in 1 s, 2 rad 7 (bench/RESULTS.md). */
#define PB_MANIPULATOR_DEFAULT_STEP 0.5

/** Default tolerance of the certified edge check (option edge_tolerance), in metres. The
 * check certifies stretches of an edge from FCL distances (a configuration whose moving
 * shapes are d from everything clears every configuration of the edge within which no point
 * of the robot can move d), so it misses no contact; only where the clearance is below this
 * tolerance does it fall back to exact collision checks of configurations at most this far
 * apart (in displacement of any robot point), so an overlap deeper than the tolerance can
 * never be missed. 0.1 mm is below the accuracy of any robot model and costs a few extra
 * checks only on edges that graze an obstacle. */
#define PB_MANIPULATOR_EDGE_TOLERANCE 1e-4

/** Default spacing (radians of the metric) of the plain collision checks the certified
 * edge check makes before it certifies an edge (option edge_prefilter; 0 turns them off).
 * Most edges a planner tries are blocked, and a few cheap checks find that sooner than
 * distance queries: on the first 30 MotionBenchMaker Panda problems, 0.3 rad cut the
 * planning time by a third (bench/RESULTS.md). They never decide that an edge is free. */
#define PB_MANIPULATOR_DEFAULT_PREFILTER 0.3

/** The robot of a manipulator engine, borrowed for the engine's lifetime; NULL when
 * `engine` is not a manipulator. */
const pb_robot *pb_manipulator_robot(const pb_engine *engine);
/** Joint index (into the robot's joints) of configuration coordinate i. */
int pb_manipulator_joint_of(const pb_engine *engine, int i);
/** Forward kinematics: the world pose of every link (robot->n_links entries) at `q`. */
void pb_manipulator_fk(const pb_engine *engine, const double *q, pb_pose *link_poses);
/** Why `q` is infeasible, as one sentence naming the joint out of its limits or the two
 * things in collision ("link 'a' touches obstacle 'b'"); false (and "" in `buf`) when
 * feasible, or when `engine` is not a manipulator (the CLI calls it on any engine). */
bool pb_manipulator_explain(const pb_engine *engine, const double *q, char *buf, size_t size);
/** The link index of the robot's tool frame, the frame pb_engine_inverse_kinematics() places
 * when given none: the parent link of the first SRDF <end_effector> that the planned joints
 * move, else the child link of the deepest planned joint. */
int pb_manipulator_tool_link(const pb_engine *engine);
/** Where world point `xyz` (metres) is drawn in view `view` (0 front, 1 side, 2 top) of the
 * engine's picture (pb_image_render_engine()) at `scale`: picture pixels into xy[0..1]. */
void pb_manipulator_view_point(const pb_engine *engine, double scale, int view, const double *xyz,
                               double *xy);
/** Number of robot link shapes, obstacles, and self-collision shape pairs checked. */
void pb_manipulator_sizes(const pb_engine *engine, size_t *n_robot_shapes, size_t *n_obstacles,
                          size_t *n_pairs);

/** Collision queries and inverse kinematics work done by this thread in every manipulator
 * engine since it started. */
typedef struct pb_manipulator_counts {
    uint64_t bound_queries; /**< sphere-tree bounds (shape against obstacle or shape) */
    uint64_t fcl_collide;   /**< FCL boolean checks the bounds could not settle */
    uint64_t fcl_distance;  /**< FCL distance queries the bounds could not replace */
    uint64_t ik_starts;     /**< inverse kinematics: starts descended from */
    uint64_t ik_steps;      /**< inverse kinematics: damped least-squares steps tried */
    uint64_t lane_queries;  /**< float sphere stage: descents, each of up to 8 lanes */
    uint64_t lanes;         /**< ... (shape pose, obstacle) lanes asked */
    uint64_t lanes_clear;   /**< ... lanes proven clear (the rest went to the exact bounds) */
} pb_manipulator_counts;

/** This thread's totals (see pb_manipulator_counts). */
pb_manipulator_counts pb_manipulator_get_counts(void);

#endif
