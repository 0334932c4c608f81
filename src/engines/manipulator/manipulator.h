/* The manipulator engine's own functions (private to the library; tests use them):
 * forward kinematics and collision explanations on an engine made by pb_engine_load() with
 * the engine "manipulator". */
#ifndef PB_ENGINES_MANIPULATOR_H
#define PB_ENGINES_MANIPULATOR_H

#include "io/urdf.h"
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
/** Number of robot link shapes, obstacles, and self-collision shape pairs checked. */
void pb_manipulator_sizes(const pb_engine *engine, size_t *n_robot_shapes, size_t *n_obstacles,
                          size_t *n_pairs);

/** Name of the joint of configuration coordinate i; NULL when `engine` is not a manipulator
 * or i is out of range. Borrowed for the engine's lifetime. */
const char *pb_manipulator_coordinate_name(const pb_engine *engine, int i);

/* ---- dynamic objects (objects.c) ----
 *
 * Boxes, cylinders and spheres at 6-DoF poses (a rotation and a translation, metres), added
 * to, moved in and removed from an engine after it loaded: feasible(), visible() (both edge
 * checks) and pb_manipulator_explain() treat every object exactly as a static obstacle of
 * the world at that pose (explanations name it "obstacle 'NAME'"). Adding, moving or
 * removing must not run concurrently with queries on any handle of the engine. The engine
 * does not check placements: pb_manipulator_object_check() does, and the caller decides.
 * In a build without FCL these return PB_ERR_UNSUPPORTED. */

/** No object: pass as `ignore_id` to ignore none. Object ids are never 0. */
#define PB_MANIPULATOR_OBJECT_NONE 0u

/** Add `shape` (box, cylinder or sphere: its type and size; its origin is ignored) at world
 * pose `pose`, named `name` (copied, for explanations). `*id` gets a stable id, never reused
 * by this engine. PB_ERR_UNSUPPORTED when `engine` is not a manipulator, PB_ERR_INVALID for
 * another shape type, a size that is not positive and finite or a non-finite pose,
 * PB_ERR_NOMEM (the engine is then unchanged). */
pb_status pb_manipulator_object_add(pb_engine *engine, const pb_shape *shape, const pb_pose *pose,
                                    const char *name, uint32_t *id);
/** Move object `id` to `pose`. PB_ERR_NOT_FOUND for an unknown id, PB_ERR_INVALID for a
 * non-finite pose. */
pb_status pb_manipulator_object_move(pb_engine *engine, uint32_t id, const pb_pose *pose);
/** Remove object `id`. PB_ERR_NOT_FOUND for an unknown id. */
pb_status pb_manipulator_object_remove(pb_engine *engine, uint32_t id);
/** Would `shape` at `pose` touch a static obstacle, an object other than `ignore_id`, or a
 * link shape of the robot at joint vector `robot_q` (every link, also those no joint moves;
 * NULL: no robot)? Exact FCL checks; touching counts. `*hits` gets the answer and `what`
 * (`size` bytes) "obstacle 'table'", "object 'box_2'" or "link 'link3'" ("" when free).
 * PB_ERR_INVALID for a malformed shape or pose, PB_ERR_UNSUPPORTED when `engine` is not a
 * manipulator. Read-only: any thread, as a query. */
pb_status pb_manipulator_object_check(const pb_engine *engine, const pb_shape *shape, const pb_pose *pose,
                                      uint32_t ignore_id, const double *robot_q, bool *hits, char *what,
                                      size_t size);
/** Does `shape` at `pose` touch a link shape of the robot at `robot_q` (obstacles and objects
 * aside)? PB_ERR_INVALID, PB_ERR_UNSUPPORTED as pb_manipulator_object_check(). */
pb_status pb_manipulator_robot_touches(const pb_engine *engine, const pb_shape *shape, const pb_pose *pose,
                                       const double *robot_q, bool *touches);
/** Do two boxes, cylinders or spheres at their poses overlap (touching counts)? Pure geometry
 * (FCL), no engine. PB_ERR_INVALID for a malformed shape or pose. */
pb_status pb_manipulator_shapes_overlap(const pb_shape *a, const pb_pose *pose_a, const pb_shape *b,
                                        const pb_pose *pose_b, bool *overlap);
/** Number of objects in `engine` (0 when not a manipulator). */
size_t pb_manipulator_object_count(const pb_engine *engine);
/** Make the objects of `dst` those of `src` (same ids, names, shapes, poses): both engines
 * loaded from the same world, `dst` not in use. For planning on a frozen copy of a scene
 * whose objects go on moving. PB_ERR_NOMEM leaves `dst` with some of them. */
pb_status pb_manipulator_objects_copy(pb_engine *dst, const pb_engine *src);

/** Collision queries made by this thread in every manipulator engine since it started. */
typedef struct pb_manipulator_counts {
    uint64_t bound_queries; /**< sphere-tree bounds (shape against obstacle or shape) */
    uint64_t fcl_collide;   /**< FCL boolean checks the bounds could not settle */
    uint64_t fcl_distance;  /**< FCL distance queries the bounds could not replace */
} pb_manipulator_counts;

/** This thread's totals (see pb_manipulator_counts). */
pb_manipulator_counts pb_manipulator_get_counts(void);

#endif
