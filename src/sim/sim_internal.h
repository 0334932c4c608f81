/* The simulation service's private state (src/sim only). */
#ifndef PB_SIM_INTERNAL_H
#define PB_SIM_INTERNAL_H

#include "planbench/planbench.h"
#include "planbench/sim.h"
#include "planbench/tracker.h"
#include "planbench/vehicle.h"

#include <stddef.h>

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
    pb_solid shape; /* solid: its type and size (metres), centred on its frame */
    bool vehicle;   /* a <vehicle> file (docs/vehicles.md): a car driven by Autoware's commands */
    pb_vehicle_config vehicle_config;
    char *vehicle_path; /* vehicle: the file it was read from (NULL: a resource string) */
} sim_robot;

typedef struct sim_named_pose {
    char *name;
    char *description;
    sim_strings tags;
    /* a map: x, y, yaw; a scene: a 6-DoF pose (x, y, z, qx, qy, qz, qw; metres), or joint
     * values of the scene's robot (n_joints > 0) */
    double pose[7];
    pb_sim_bounds bounds;
    double joints[PB_MAX_DIM];
    int n_joints;
} sim_named_pose;

/** An entity the world file places at load time. */
typedef struct sim_world_entity {
    char *name;
    size_t robot;   /* index into the world's robots */
    double pose[7]; /* a map: x, y, yaw; a scene: x, y, z, qx, qy, qz, qw */
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
/** The <simworld> of a map_server map at `path` (malloc'd XML; NULL when the file does not
 * exist or memory runs out): the map served in metres with the metric spawnables. */
char *sim_world_of_map(const char *path);
/** Is `path` an XML file whose root element is <simworld>? */
bool sim_is_world_file(const char *path);
/** Read a <simrobot> from a string. */
sim_load_error sim_robot_parse(sim_robot *robot, const char *xml, size_t size, char *message,
                               size_t message_size);
void sim_robot_finish(sim_robot *robot);
void sim_strings_finish(sim_strings *s);
/** Copy `n` strings into `dst` (entities.c); false when out of memory (`dst` holds the copies
 * made so far, to be finished). */
bool sim_strings_copy(sim_strings *dst, const char *const *strings, size_t n);
char *sim_strdup(const char *s);

/* ---- the simulation's state (sim.c) and its entity kinds ---- */

#define SIM_MAX_NAME 128
/* FollowPath goals are bounded in steps (an action runs step by step on the server). */
#define SIM_MAX_ACTION_STEPS 100000000ull
/* The most values a pose has: x, y, z and a quaternion (a planar pose uses 3). */
#define SIM_POSE_MAX 7

/* Why an entity stopped following its path. */
enum {
    SIM_FOLLOW_ON,
    SIM_FOLLOW_REACHED,
    SIM_FOLLOW_COLLIDED,
    SIM_FOLLOW_TELEPORTED,
    SIM_FOLLOW_STATIC,
    SIM_FOLLOW_RESET,
    SIM_FOLLOW_CANCELED,
    SIM_FOLLOW_COMMANDED
};

typedef struct sim_kind sim_kind;

/* An entity: what every kind has (name, category, tags, the follow state), and the fields
 * of the kinds (each kind reads its own; see the kinds below). */
/* A vehicle's commands as Autoware's command topics leave them: each holds until the next
 * (entity_vehicle.c; also the scenario worker's external driver, asg_queue.c). */
typedef struct sim_vehicle_commands {
    double acceleration, steer; /* the last control_cmd */
    bool has_velocity;          /* it named longitudinal.velocity */
    double velocity;
    pb_gear gear;
    pb_turn_signal turn; /* NONE, LEFT or RIGHT */
    bool hazard, emergency;
} sim_vehicle_commands;

/* Check command `c` (finite values, codes its message type defines) and apply it to `v`:
 * false with `r` naming what was wrong. */
bool sim_vehicle_apply(sim_vehicle_commands *v, const pb_sim_vehicle_command *c, pb_sim_result *r);
/* The commands as the model's inputs: an emergency holds the acceleration at 0, the hazard
 * lights take over the turn signal (AWSIM: HAZARD > LEFT/RIGHT > NONE). */
pb_vehicle_input sim_vehicle_input(const sim_vehicle_commands *v);
/* A vehicle's status as Autoware's vehicle/status topics report it. */
void sim_vehicle_report(const pb_vehicle_state *d, bool emergency, pb_sim_vehicle_status *st);

/* An entity name shorter than this many bytes is kept in its record, on the cache line a
 * lookup reads anyway; a longer one is allocated. */
#define SIM_INLINE_NAME 32

/* The fields come in the order the services read them (issue 21): a lookup by name and
 * get_entity_state of a body read the first two cache lines only (the record is aligned to
 * them), set_entity_state the next two (footprint, path state). The fields of one kind only
 * come last, the robot's and then a vehicle's, and a record is allocated only up to the end of
 * its kind's fields (kind->record_size): a body's record is a quarter of the whole struct, so
 * 10,000 of them span 6 MB instead of 20 (fewer pages, fewer cache misses). Code reads the
 * robot's and a vehicle's fields only in their kind's file. */
struct sim_entity {
    /* line 0: what it is, where, how it moves */
    _Alignas(64) const sim_kind *kind;
    double pose[3];  /* bodies: (x, y, yaw) */
    double twist[3]; /* vx, vy (map units/s), wz (rad/s), world frame */
    bool commanded;  /* moving under body_twist (else under twist) */
    bool is_static;
    bool spawned;
    uint8_t category;
    uint32_t obstacle; /* its id as an obstacle of the world's engine (bodies and objects) */
    /* line 1: its name (in name_inline when short) and its velocity command */
    char *name;
    double body_twist[3]; /* a velocity command (cmd_vel): vx, vy, wz in the body's frame */
    char name_inline[SIM_INLINE_NAME];
    /* lines 2-3: its footprint (bodies) and path state */
    pb_footprint footprint;
    double *path; /* follow: n_path configurations of path_stride values (kind->config's) */
    size_t n_path, path_next, path_stride;
    uint8_t follow_end; /* why the last path ended (SIM_FOLLOW_ values) */
    double follow_speed;
    uint64_t follow_id; /* the follow goal that owns the path (0: none) */
    uint64_t serial;    /* tells a re-spawned entity from the one a plan was made for */
    char *description;
    sim_strings tags;
    pb_tracker *tracker; /* vehicles: the tracker of follow goal track_goal (tracker.h), owned */
    double initial_pose[3];
    double initial_joint2; /* an arm footprint's elbow at spawn (footprint.joint2 is the current one) */
    /* objects: a solid at a 6-DoF pose moving under a twist (world frame) */
    pb_solid shape;
    double pose3[7], initial_pose3[7];
    double twist3[6];      /* linear (m/s), angular (rad/s) */
    double body_twist3[6]; /* a velocity command in the object's frame */
    /* the robot (entity_robot.c): its joint vector (sim->arm_dim values) */
    _Alignas(64) double joints[PB_MAX_DIM];
    double initial_joints[PB_MAX_DIM];
    /* vehicles (entity_vehicle.c): the model, its state (`pose` mirrors x, y, yaw), the
     * inputs Autoware's command topics set, and the path tracker's reference */
    _Alignas(64) pb_vehicle_config vehicle;
    pb_vehicle_state drive;
    sim_vehicle_commands cmd; /* what Autoware's command topics set */
    bool blocked;             /* the last step ran into something */
    double last_yaw_rate;     /* for the angular acceleration */
    uint64_t track_goal;      /* the follow goal whose path was made the tracker's reference */
    const char
        *vehicle_path; /* its <vehicle> file, borrowed from the world's spawnable (NULL: a resource string) */
};

/* Bytes of a record of a kind whose fields end before `field` (a multiple of the alignment). */
#define SIM_RECORD_UNTIL(field) offsetof(sim_entity, field)

typedef struct sim_entity sim_entity;

/* A slot of the entity-name table: the name's hash, the entity's index + 1 (0: empty) and its
 * record (which never moves), so that a lookup reads the slot and the record only. */
typedef struct sim_name_slot {
    uint32_t hash, index;
    sim_entity *entity;
} sim_name_slot;

/* Events kept for pb_sim_drain_events(): the oldest go when nobody drains. */
#define SIM_MAX_EVENTS 4096

typedef struct sim_event {
    pb_sim_event_kind kind;
    char *name;
} sim_event;

struct pb_sim {
    char *worlds_dir, *robots_dir;
    bool confine_worlds;    /* LoadWorld reads files only inside worlds_dir */
    double dt;              /* seconds per step: step_ns / 1e9 */
    double plan_time_limit; /* the most a /plan_path may plan, seconds */
    uint64_t step_ns;       /* the time step, whole nanoseconds */
    uint8_t state;
    uint64_t time_ns; /* sim time: an exact count of nanoseconds, never accumulated floats */
    bool have_world;
    sim_world world;
    pb_engine *engine;
    /* the kind of entity the world spawns: bodies on a map, objects in a scene */
    const sim_kind *spawn_kind;
    pb_engine *plan_map; /* a map's engine without entities: planners' snapshots share it */
    /* a manipulator scene: `engine` is the manipulator engine of the scene's world, every
     * object one of its solids; `arm_plan` a spare engine of the same world for a plan to
     * take (a plan loads another when it is taken) */
    /* a scene's bounds (metres): an object's bounding sphere must lie inside, as a planar
     * footprint must lie on the map */
    double scene_lo[3], scene_hi[3];
    pb_engine *arm_plan;
    int arm_dim;
    const char *arm_joint_names[PB_MAX_DIM];
    uint64_t world_serial, next_entity_serial;
    /* the entities in the order they came (GetEntities lists them so), each record allocated
     * on its own: growing or removing moves pointers, and a record never moves */
    sim_entity **entities;
    size_t n_entities, cap_entities;
    /* entity names to indices (open addressing, linear probing, at most half full), kept by
     * sim_add_entity and sim_remove_entity: a lookup by name costs the same with 10 or 10,000
     * entities. A slot keeps the name's hash beside the index, so a probe past other names
     * reads no entity and a removal moves slots without hashing names again. */
    sim_name_slot *by_name;
    size_t cap_by_name;
    /* obstacle ids of the world's engine to entity indices + 1, by the id's low 16 bits (the
     * image engine's slot); a hint, checked against the entity's own id before it is used */
    uint32_t *by_obstacle;
    size_t cap_by_obstacle;
    /* a ring of SIM_MAX_EVENTS events (allocated at the first), the oldest at first_event:
     * a full queue drops its oldest without moving the others */
    sim_event *events;
    size_t n_events, first_event;
    /* scratch for borrowed responses, grown as needed */
    const char **names;
    pb_sim_entity_state *states;
    size_t cap_scratch;
    pb_sim_named_pose *poses;
    pb_sim_spawnable *spawnables;
    sim_world available[64];
    size_t n_available;
    pb_sim_world_info available_info[64];
    char available_path[64][1024];
    double *plan_path, *plan_joints;
    pb_sim_frame *frames; /* scratch of pb_sim_get_frames() */
    size_t cap_frames;
    uint64_t next_follow_id;
    void (*on_step)(pb_sim *sim, void *payload);
    void *on_step_payload;
    char name_buf[SIM_MAX_NAME + 32];
};

/* A filter's bounds region, as each kind tests it: a planar footprint at (x, y, yaw) and a
 * solid at a 6-DoF pose. */
typedef struct sim_region {
    pb_footprint footprint;
    double pose[3];
    pb_solid solid;
    double pose3[7];
    double pixel; /* a map's cell side in map units (1 without a map frame): a margin for bounds */
} sim_region;

/* What an entity is and how it moves: one table per kind, one file each (entity_body.c,
 * entity_object.c, entity_robot.c), as engines implement pb_engine_impl. The simulation
 * (sim.c) keeps names, tags, events, the state machine and the services, and asks an
 * entity's kind for everything that depends on what it is. A pose is the kind's own: 3
 * values for a body, 7 for an object and the robot (whose base stays at the origin). */
struct sim_kind {
    const char *name; /* "body", "object", "robot" */
    /* Bytes of sim_entity its records hold: up to the end of its fields (see sim_entity). */
    size_t record_size;
    /* Can this kind be made from `robot` (a spawnable)? False with why. */
    bool (*accepts)(const sim_robot *robot, char *why, size_t size);
    /* Set the kind's fields of a new entity from `robot` (no pose yet, nothing attached). */
    void (*init)(pb_sim *sim, sim_entity *e, const sim_robot *robot);
    /* A pose message (in `frame`: the world, or an entity's) as this kind's pose in the world
     * frame. False with why: a bad quaternion, roll or pitch, an unknown frame. */
    bool (*pose_from_msg)(pb_sim *sim, const pb_sim_pose *msg, const char *frame, double *pose, char *why,
                          size_t size);
    /* Would `e` stand free at `pose` (of everything but itself)? False with why (none when
     * `why` is NULL). */
    bool (*fits)(pb_sim *sim, const sim_entity *e, const double *pose, char *why, size_t size);
    /* Put `e` into the world at `pose` (already checked): it becomes an obstacle of the
     * world's engine where it is one. */
    pb_status (*attach)(pb_sim *sim, sim_entity *e, const double *pose);
    void (*detach)(pb_sim *sim, sim_entity *e);
    /* One time step: under its twist, or along its path. */
    void (*step)(pb_sim *sim, sim_entity *e);
    /* A pose of this kind as a message. */
    void (*pose_to_msg)(const double *pose, pb_sim_pose *out);
    /* Its pose and twist as messages (world frame). */
    void (*state)(const sim_entity *e, pb_sim_pose *pose, pb_sim_twist *twist);
    /* SetEntityState after the checks every entity shares: the result in `r`. */
    void (*set_state)(pb_sim *sim, sim_entity *e, const pb_sim_set_state_request *rq, bool set_pose,
                      bool set_twist, pb_sim_result *r);
    /* Its extent in its own frame (TYPE_EMPTY: it has none that stays). */
    void (*bounds)(const sim_entity *e, pb_sim_bounds *b);
    bool (*overlaps)(pb_sim *sim, const sim_entity *e, const sim_region *region);
    /* Back to where it started (its twist is already zero): false with what it kept and why,
     * when its start is taken ("kept its pose: start ..."). */
    bool (*reset)(pb_sim *sim, sim_entity *e, char *why, size_t size);
    /* Its joints: how many, their names (borrowed) and values (when not NULL). */
    size_t (*joints)(const pb_sim *sim, const sim_entity *e, const char *const **names, double *values);
    /* Its configuration now, as its paths hold configurations, and the distance between two
     * of them in its C-space's metric. */
    void (*config)(const pb_sim *sim, const sim_entity *e, double *q);
    double (*distance)(const pb_sim *sim, const sim_entity *e, const double *a, const double *b);
    /* Where it is, for a message: "at (x, y, yaw)", "at joints (...)". */
    void (*describe)(const pb_sim *sim, const sim_entity *e, char *out, size_t size);
    /* PlanPath after the shared checks (the entity exists, moves, the planner exists). */
    bool (*plan_begin)(pb_sim *sim, sim_entity *e, const pb_sim_plan_request *rq, const char *planner,
                       pb_sim_plan_job **out, pb_sim_plan_response *rs);
    /* Does a finished plan still hold for `e` as the world is now (it has not moved, nothing
     * entered the path)? False with why. */
    bool (*plan_check)(pb_sim *sim, const sim_entity *e, const pb_sim_plan_job *job, char *why, size_t size);
    /* FollowPath after the shared checks: a goal made, or false with the result. */
    bool (*follow_begin)(pb_sim *sim, sim_entity *e, const pb_sim_follow_request *rq, const double *joints,
                         size_t n_given, uint64_t *goal, pb_sim_result *r);
    /* Its frames now: index 0 its base (parent -1: the world), then its links, parents first,
     * names without the entity's prefix ("base_link", "link1"). At most `max` (NULL: count). */
    size_t (*frames)(const pb_sim *sim, const sim_entity *e, pb_frame *out, size_t max);
    /* A velocity command in its body frame (pb_sim_command_velocity()), after the shared checks. */
    void (*command_velocity)(pb_sim *sim, sim_entity *e, const pb_sim_twist *body_twist, pb_sim_result *r);
    /* Set its joints to `q` (all of them, in kind->joints' order; already finite), when free:
     * the result in `r`. */
    void (*set_joints)(pb_sim *sim, sim_entity *e, const double *q, pb_sim_result *r);
    /* NULL, or why an entity of this kind cannot be deleted. */
    const char *undeletable;
    /* Optional (NULL: the kind has none): its acceleration (world frame), a vehicle's command
     * from Autoware's topics after the shared checks, and a vehicle's status. */
    void (*acceleration)(const pb_sim *sim, const sim_entity *e, pb_sim_twist *accel);
    void (*command_vehicle)(pb_sim *sim, sim_entity *e, const pb_sim_vehicle_command *command,
                            pb_sim_result *r);
    void (*vehicle_status)(const pb_sim *sim, const sim_entity *e, pb_sim_vehicle_status *status);
};

extern const sim_kind sim_kind_body;    /* entity_body.c: a planar footprint on a map */
extern const sim_kind sim_kind_object;  /* entity_object.c: a solid in a manipulator scene */
extern const sim_kind sim_kind_robot;   /* entity_robot.c: a manipulator scene's robot */
extern const sim_kind sim_kind_vehicle; /* entity_vehicle.c: a car on a metric map */

/* Helpers the kinds share with the simulation (sim.c). */

/** Set a service result; `fmt` NULL for none. */
void sim_set_result(pb_sim_result *r, uint8_t code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* snprintf into `why` unless the caller wants no message (why NULL). */
#define SIM_EXPLAIN(why, size, ...)                                                                          \
    do {                                                                                                     \
        if (why)                                                                                             \
            snprintf((why), (size), __VA_ARGS__);                                                            \
    } while (0)
/** `s`, or "" for NULL. */
const char *sim_str(const char *s);
/** The entity named `name`; NULL when none. */
sim_entity *sim_find_entity(const pb_sim *sim, const char *name);
/** The index of entity `e` (one of the simulation's) in sim->entities. */
size_t sim_entity_index(const pb_sim *sim, const sim_entity *e);
/** The entity that is obstacle `id` of the world's engine; NULL when none. */
const sim_entity *sim_entity_of_obstacle(const pb_sim *sim, uint32_t id);
/** Note `e`'s obstacle id after its kind gave it a new one (sim_entity_of_obstacle() then
 * finds it without a scan). */
void sim_note_obstacle(pb_sim *sim, const sim_entity *e);
/** The named pose `name` of the world; NULL when none. */
const sim_named_pose *sim_find_named_pose(const pb_sim *sim, const char *name);
/** `a` wrapped into [-pi, pi). */
double sim_wrap_angle(double a);
/** What every pose message must be: a finite position, a unit quaternion (its norm into
 * `*norm`), a known frame (`*ref` the entity it names, NULL for the world). False with why. */
bool sim_pose_msg_valid(const pb_sim *sim, const pb_sim_pose *p, const char *frame, double *norm,
                        const sim_entity **ref, char *why, size_t size);
/** Are all six values of `t` finite? */
bool sim_twist_finite(const pb_sim_twist *t);
/** Zero every velocity of `e` (twists and a velocity command). */
void sim_stop_motion(sim_entity *e);
/** End `e`'s path following, for reason `why` (SIM_FOLLOW_), when it has a path. */
void sim_stop_following(sim_entity *e, uint8_t why);
/** Make `e` follow `path` (`n` configurations of `stride` values, kind->config's, owned by
 * the entity from here on) at `speed`; waypoints where it already is are skipped. `*goal`
 * gets the goal's id. */
void sim_start_following(pb_sim *sim, sim_entity *e, double *path, size_t n, size_t stride, double speed,
                         uint64_t *goal);
/** Length of the rest of `e`'s path from where it is, in its C-space's metric. */
double sim_path_remaining(const pb_sim *sim, const sim_entity *e);
/** Make room for `need` items of `item_size` bytes in `items` (`*capacity` of them), doubling
 * from `first`: the array (moved or not), NULL when out of memory (`items` untouched). */
void *sim_reserve(void *items, size_t *capacity, size_t need, size_t item_size, size_t first);
/** Queue event `kind` about entity `name` (copied); the oldest goes when the queue is full. */
void sim_push_event(pb_sim *sim, pb_sim_event_kind kind, const char *name);
/** A new entity of `kind` made from `robot`, not yet in the world: its kind's fields set, no
 * pose, no obstacle. For checking where it would fit (kind->fits) before sim_add_entity(). */
void sim_entity_prepare(sim_entity *e, pb_sim *sim, const sim_kind *kind, const sim_robot *robot);
/** Add `prepared` named `name` (copied) at `pose` (already checked free): attached to the
 * world's engine, an event queued. NULL when out of memory (nothing added). */
sim_entity *sim_add_entity(pb_sim *sim, const sim_entity *prepared, const char *name, const sim_robot *robot,
                           const double *pose, bool spawned, bool is_static);
/** Remove entity `index`: detached, an event queued, freed. */
void sim_remove_entity(pb_sim *sim, size_t index);
/** A scene's robot (entity_robot.c): its joint names, the scene's bounds, its named poses
 * "start" and "goal" (unless the world names them), checked, and the entity at `start`.
 * False with why; the caller unloads the world. */
bool sim_robot_install(pb_sim *sim, const double *start, const double *goal, char *why, size_t size);
/** Would a path of `length` at `speed` with `n` waypoints take more than SIM_MAX_ACTION_STEPS?
 * Then false with the result set. */
bool sim_follow_length_ok(const pb_sim *sim, double length, double speed, size_t n, pb_sim_result *r);

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
/** A solid's extent in its own frame, as a box [min, max] (metres). */
void scene_solid_bounds(const pb_solid *shape, pb_sim_bounds *b);
/** The unit quaternion (x, y, z, w) of a pose's rotation. */
void scene_quat_of(const pb_pose *pose, double *q);
/** A 6-DoF pose as a message. */
void scene_pose_to_msg(const double *pose, pb_sim_pose *out);
/** A pose message to a 6-DoF pose in the world frame of a scene: frames as in planar worlds
 * (an object's name: relative to it; the robot's: the world). False with why. */
bool scene_pose_from_msg(pb_sim *sim, const pb_sim_pose *p, const char *frame, double *out, char *why,
                         size_t size);

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

/** Most joint goals a /plan_path request of a scene's robot tries: the inverse kinematics
 * solutions of a pose goal (entity_robot.c). */
#define SIM_ARM_GOALS 4

/** A /plan_path request taken off the simulation (see pb_sim_plan_begin): everything the
 * planner needs, copied, so a worker thread runs it while the simulation goes on. */
struct pb_sim_plan_job {
    /* inputs, fixed when the job begins */
    pb_engine *map; /* own handle onto the world's obstacle-free map engine */
    /* a C-space the entity's kind made on the sim's thread, the other entities in it (a
     * vehicle's car engine): the run plans on it as it is, stride SIM_Q rows kept through
     * `footprint`'s dimension */
    pb_engine *space;
    pb_footprint footprint;
    sim_obstacle *others;
    size_t n_others;
    double start[SIM_Q], goal[SIM_Q];
    char planner[64];
    double time_limit;
    uint64_t seed;
    bool follow;
    bool budget; /* anytime planners use the whole time_limit */
    double speed;
    char *entity;
    uint64_t entity_serial, world_serial;
    pb_atomic_flag cancel; /* set by pb_sim_plan_cancel(), read by the planner */
    /* manipulator scenes: the robot plans in the joint space of its own engine, loaded from
     * the scene's world, into which the scene's objects were copied when the job began */
    pb_engine *arm_engine;
    int arm_dim;
    double arm_start[PB_MAX_DIM];
    /* the goals, nearest the start first: a joint configuration, or a pose goal's inverse
     * kinematics solutions; the run plans to each in turn until one is reached */
    double arm_goals[SIM_ARM_GOALS][PB_MAX_DIM];
    size_t n_arm_goals;
    /* how the response reads `path` (set by the kind that began the job): each configuration
     * has `stride` values, the pose is its first `pose_values` (3: x, y, yaw; 0: the robot's
     * base, the identity), the `n_joints` joints (named `joint_names`) start at `joint_offset` */
    size_t stride, pose_values, joint_offset, n_joints;
    const char *const *joint_names;
    const sim_kind *kind; /* of the entity it plans for */
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

/* ---- planar entities on a map (entity_body.c), shared with vehicles (entity_vehicle.c) ---- */

/** Is footprint `fp` free at `pose` (x, y, yaw) of the world's engine, ignoring obstacle
 * `self`? False with what it hits in `why` (nothing formatted when `why` is NULL). */
bool sim_footprint_free(pb_sim *sim, const pb_footprint *fp, const double *pose, uint32_t self, char *why,
                        size_t size);
/** A pose message to (x, y, yaw) in the world frame. False with why: a bad quaternion, roll
 * or pitch, a non-finite position, an unknown frame. */
bool sim_planar_pose_from_msg(pb_sim *sim, const pb_sim_pose *p, const char *frame, double *out, char *why,
                              size_t size);
/** (x, y, yaw) as a pose message. */
void sim_planar_pose_to_msg(const double *pose, pb_sim_pose *out);
/** A planar entity's footprint box in its own frame, and its overlap with a filter's region. */
void sim_planar_bounds(const sim_entity *e, pb_sim_bounds *b);
bool sim_planar_overlaps(pb_sim *sim, const sim_entity *e, const sim_region *region);
/** The entities other than `self` as obstacles (a snapshot, owned by the caller); `*index`
 * (when `index` is not NULL; the caller frees it) maps each back to its entity. False when
 * out of memory. */
bool sim_planar_others(const pb_sim *sim, const sim_entity *self, sim_obstacle **out, size_t **index,
                       size_t *n);
/** The name of the entity that is obstacle `id` of the world's engine ("?" when none). */
const char *sim_entity_by_obstacle(const pb_sim *sim, uint32_t id);
/** A PlanPath request's planar goal (x, y, yaw into `goal`: a named pose or `goal`), and its
 * time limit and speed checked: false with the response's result set. */
bool sim_planar_goal(pb_sim *sim, const pb_sim_plan_request *rq, double *goal, pb_sim_plan_response *rs);
/** A planar pose (x, y, yaw) as a transform. */
pb_pose sim_planar_pose(double x, double y, double yaw);

#endif
