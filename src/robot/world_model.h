/* The world a manipulator engine is made from (private to the library): the container every
 * world reader fills (world.h: world XML, Klampt worlds, MotionBenchMaker flat files;
 * mbm_yaml.h: MotionBenchMaker YAML). */
#ifndef PB_ROBOT_WORLD_MODEL_H
#define PB_ROBOT_WORLD_MODEL_H

#include "robot/urdf.h"
#include "planbench/engine.h"

/** A world read from a file. Caller storage; pb_world_finish() frees it. */
typedef struct pb_world {
    char *name;      /**< owned */
    char *path;      /**< the world file as given, owned */
    char *urdf_path; /**< resolved, owned */
    char *srdf_path; /**< resolved, owned; NULL when none */
    char *urdf_text; /**< Klampt worlds: the robot as URDF text (urdf_path names the .rob), owned */
    char *srdf_text; /**< Klampt worlds: its noSelfCollision pairs as SRDF text, owned */
    char *group;     /**< SRDF planning group, owned; NULL when `joints` lists the joints */
    char **joints;   /**< active joint names in configuration order (owned); empty: from the group */
    size_t n_joints;
    pb_pose base;          /**< the robot's root link in the world */
    pb_shape *obstacles;   /**< world-frame shapes (origin = pose), owned */
    char **obstacle_names; /**< owned */
    size_t n_obstacles;
    int n_start, n_goal; /**< numbers given for the default start and goal (0: none) */
    double start[PB_MAX_DIM], goal[PB_MAX_DIM];
    int start_line, goal_line; /**< where they were written, for messages */
    double resolution;         /**< edge-check resolution in radians; 0: the engine's default */
    bool static_contacts_ok;   /**< links no joint moves may touch obstacles (Klampt worlds: a base
                                    standing on the floor); else that is an error */
} pb_world;

/** Free what `world` holds; NULL is accepted. */
void pb_world_finish(pb_world *world);

/** Append a copy of `shape` named `name` (copied) to the world's obstacles; `*capacity` is the
 * caller's record of the arrays' size (start at 0). For the readers of every world format. */
pb_status pb_world_add_obstacle(pb_world *world, size_t *capacity, const char *name, const pb_shape *shape);

#endif
