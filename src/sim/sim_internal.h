/* The simulation service's private state (src/sim only). */
#ifndef PB_SIM_INTERNAL_H
#define PB_SIM_INTERNAL_H

#include "io/urdf.h"
#include "planbench/planbench.h"
#include "planbench/sim.h"

/** A list of owned strings. */
typedef struct sim_strings {
    char **items;
    size_t n;
} sim_strings;

/** A spawnable robot: read from a <simrobot> file or string. */
typedef struct sim_robot {
    char *name;
    char *uri; /* model://NAME */
    char *description;
    uint8_t category;
    sim_strings tags;
    pb_footprint footprint;
    bool solid;     /* a 3-D object (<box>, <cylinder>, <sphere>) for manipulator scenes */
    pb_shape shape; /* solid: its type and size (metres), centred on its frame */
} sim_robot;

typedef struct sim_named_pose {
    char *name;
    char *description;
    sim_strings tags;
    double pose[3];
    pb_sim_bounds bounds;
    /* manipulator scenes: a 6-DoF pose (x, y, z, qx, qy, qz, qw; metres), or joint values of
     * the scene's robot (n_joints > 0) */
    double pose3[7];
    double joints[PB_MAX_DIM];
    int n_joints;
} sim_named_pose;

/** An entity the world file places at load time. */
typedef struct sim_world_entity {
    char *name;
    size_t robot; /* index into the world's robots */
    double pose[3];
    double pose3[7]; /* manipulator scenes */
    bool is_static;
} sim_world_entity;

/** A loaded <simworld>. */
typedef struct sim_world {
    char *name;
    char *uri;
    char *description;
    sim_strings tags;
    char *map_path;         /* resolved; NULL for a manipulator scene */
    char *scene_path;       /* a manipulator <world> file, resolved; NULL for a map */
    char *robot_entity;     /* scenes: the name of the robot's entity */
    bool has_scene_bounds;  /* scenes: <scene bounds="..."> was given */
    double scene_bounds[6]; /* scenes: xmin ymin zmin xmax ymax zmax, metres */
    sim_robot *robots;
    size_t n_robots;
    sim_named_pose *poses;
    size_t n_poses;
    sim_world_entity *entities;
    size_t n_entities;
} sim_world;

/** Why a world or robot could not be read: maps to the per-service codes. */
typedef enum sim_load_error {
    SIM_LOAD_OK,
    SIM_LOAD_NOT_FOUND,     /* the file does not exist */
    SIM_LOAD_PARSE,         /* not XML, or not our root element, or a bad field */
    SIM_LOAD_MISSING_ASSET, /* the map image is missing */
    SIM_LOAD_UNSUPPORTED,   /* an element we do not know (with fail_on_unsupported) */
} sim_load_error;

/** Read a <simworld> from `path` (or from `xml` when path is NULL, relative names against
 * `base_dir`). Robots named by <spawnable robot="..."/> are read from `robots_dir`. */
sim_load_error sim_world_load(sim_world *world, const char *path, const char *xml, size_t xml_size,
                              const char *base_dir, const char *robots_dir, bool strict, char *message,
                              size_t message_size);
void sim_world_finish(sim_world *world);
/** Is `path` an XML file whose root element is <simworld>? */
bool sim_is_world_file(const char *path);
/** Read a <simrobot> from a string. */
sim_load_error sim_robot_parse(sim_robot *robot, const char *xml, size_t size, char *message,
                               size_t message_size);
void sim_robot_finish(sim_robot *robot);
void sim_strings_finish(sim_strings *s);
char *sim_strdup(const char *s);

/* ---- manipulator scenes (scene.c): 6-DoF poses are 7 values, x, y, z (metres) and a unit
 * quaternion qx, qy, qz, qw ---- */

/** Hamilton product a b of quaternions (x, y, z, w). */
void scene_quat_mul(const double *a, const double *b, double *out);
/** `q` scaled to norm 1 (identity for 0). */
void scene_normalize(const double *q, double *out);
/** The rotation matrix and translation of a pose. */
pb_pose scene_pose_of(const double *pose);
/** `local` given in the frame of `ref`, in the world. */
void scene_compose(const double *ref, const double *local, double *out);
/** `pose` moved for `dt` seconds under `twist` (linear x, y, z in m/s, angular x, y, z in rad/s,
 * both in the world frame; the rotation is about the pose's position). */
void scene_twist_pose(const double *pose, const double *twist, double dt, double *out);
/** Axis-aligned box of a box, cylinder or sphere in its own frame. */
void scene_shape_box(const pb_shape *shape, double *lo, double *hi);

/* ---- an entity's C-space (plan.c): the planners' view of one entity ----
 *
 * A configuration is (x, y) for a disc (turning a disc changes nothing), (x, y, yaw) for a
 * rectangle and (x, y, yaw, joint2) for the stick arm: its base pose and its elbow, as the
 * stickarm4d engine plans (joint1 stays as the robot file fixes it; it would only repeat the
 * yaw). The simulation keeps every entity's configuration as SIM_Q values (x, y, yaw,
 * joint2), joint2 meaningful for arms only. */
#define SIM_Q 4

/** Another entity as an obstacle of a C-space: a placed footprint with its bounding box. */
typedef struct sim_obstacle {
    pb_footprint footprint;
    double pose[3];
    double lo[2], hi[2];
} sim_obstacle;

/** What a configuration of a C-space runs into. */
typedef struct sim_space_hit {
    pb_hit_kind kind; /* PB_HIT_OBSTACLE: `other` indexes the space's obstacles */
    size_t other;
    int pixel_x, pixel_y;
} sim_space_hit;

/** Dimension of the C-space of footprint `fp` (2, 3 or 4). */
int sim_space_dim(const pb_footprint *fp);
/** The C-space configuration of an entity configuration (SIM_Q values), and back: `full`
 * keeps its values in the coordinates the space does not have. */
void sim_space_from_full(const pb_footprint *fp, const double *full, double *q);
void sim_space_to_full(const pb_footprint *fp, const double *q, double *full);
/** The footprint placed at entity configuration `full`: the arm's elbow set from it. */
pb_footprint sim_footprint_at(const pb_footprint *fp, const double *full);

/** The C-space's metric weights for the SIM_Q coordinates: 1 for x and y, the reach for the
 * yaw (0 for a disc: turning it moves nothing), link 2 for an arm's elbow (0 otherwise). */
void sim_space_weights(const pb_footprint *fp, double *weights);
/** Make the C-space of footprint `fp` on `map` (an engine that checks footprints; a new
 * handle onto it is taken, so `map` may be destroyed afterwards) with `others` (copied) as
 * obstacles; a disc keeps `disc_yaw`. Owned by the caller (pb_engine_destroy). Queries on
 * it touch nothing but its own data: any thread may use it. */
pb_status sim_space_create(pb_engine **out, pb_engine *map, const pb_footprint *fp,
                           const sim_obstacle *others, size_t n_others, double disc_yaw, char *why,
                           size_t why_size);
/** What configuration `q` of space `space` (made by sim_space_create) hits; false when free. */
bool sim_space_hits(pb_engine *space, const double *q, sim_space_hit *hit);
/** The planners' edge check from `a` to `b`; when blocked, `*where` (the space's dimension)
 * gets the first blocked configuration along the edge and `*hit` what it hits. */
bool sim_space_segment(pb_engine *space, const double *a, const double *b, double *where, sim_space_hit *hit);

/** A /plan_path request taken off the simulation (see pb_sim_plan_begin): everything the
 * planner needs, copied, so a worker thread runs it while the simulation goes on. */
struct pb_sim_plan_job {
    /* inputs, fixed when the job begins */
    pb_engine *map; /* own handle onto the world's obstacle-free map engine */
    pb_footprint footprint;
    sim_obstacle *others;
    size_t n_others;
    double start[SIM_Q], goal[SIM_Q];
    char planner[64];
    double time_limit;
    uint64_t seed;
    bool follow;
    double speed;
    char *entity;
    uint64_t entity_serial, world_serial;
    pb_atomic_flag cancel; /* set by pb_sim_plan_cancel(), read by the planner */
    /* manipulator scenes: the robot plans in the joint space of its own engine, loaded from
     * the scene's world, into which the scene's objects were copied when the job began */
    pb_engine *arm_engine;
    int arm_dim;
    double arm_start[PB_MAX_DIM], arm_goal[PB_MAX_DIM];
    /* outputs, written by the run */
    pb_status status;
    const char *outcome;
    double *path; /* n_path configurations of SIM_Q values (arm_dim for the scene's robot) */
    size_t n_path;
    double cost, planning_time;
    char why[PB_SIM_MESSAGE_SIZE];
    _Atomic int done;
};

/** Run a job's planner (any thread): fills the outputs. */
void sim_plan_run(pb_sim_plan_job *job);

#endif
