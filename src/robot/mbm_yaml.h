/* MotionBenchMaker problems in their original YAML (private to the library; built when
 * libyaml is present): a MoveIt PlanningScene "sceneNNNN.yaml" and the MotionPlanRequest
 * "requestNNNN.yaml" beside it, as in ../shared/anchor-problems/vamp-mbm/panda/
 * problems_subset/<scenario>_panda/.
 *
 * The robot is <robot_model_name>.urdf (and .srdf when present) in the problem's folder or
 * one of the three above it. The joints planned for, and the goal, are the request's first
 * goal's joint constraints, in order; the start is the request's start_state for those
 * joints. Obstacles are the scene's world.collision_objects primitives (box dimensions are
 * full sizes, cylinder dimensions are height then radius, as in shape_msgs) at their
 * primitive_poses in the world frame; objects made of meshes are an error. */
#ifndef PB_ROBOT_MBM_YAML_H
#define PB_ROBOT_MBM_YAML_H

#include "robot/world_model.h"

/** Is `path` named like a MotionBenchMaker problem file (scene*.yaml or request*.yaml)? */
bool pb_mbm_yaml_is_problem(const char *path);
/** Load the problem whose scene or request file is `path` into `world` (zeroed by the
 * caller; pb_world_finish() frees it, also after a failure). Errors name the file, the
 * line and the reason. */
pb_status pb_mbm_yaml_load(pb_world *world, const char *path, pb_diag *diag);

/** The same from memory (the robot is looked for next to `name`); for fuzzing. On failure
 * `world` is left empty. */
pb_status pb_mbm_yaml_load_memory(pb_world *world, const char *scene, size_t scene_size, const char *request,
                                  size_t request_size, const char *name, pb_diag *diag);

#endif
