/* The simulation: world, entities, state machine, stepping, and every simulation_interfaces
 * service as a plain C function (spec: ../shared/spec/simulation-interfaces.md). Every pose
 * is validated by the same engine the planners use: entities are dynamic obstacles of the
 * world's image engine, and a footprint check at the requested pose decides INVALID_POSE. */
#include "engines/manipulator/manipulator.h"
#include "sim_internal.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAME   128
#define MAX_EVENTS 4096
/* StepSimulation blocks the server: larger counts must use the action. */
#define MAX_SERVICE_STEPS 100000u
#define MAX_ACTION_STEPS  100000000ull
/* The scene robot's default speed along a path, radians (metres for prismatic joints) of the
 * joint-space metric per second. */
#define ARM_SPEED 1.0

typedef struct sim_entity {
    char *name;
    pb_footprint footprint;
    uint8_t category;
    char *description;
    sim_strings tags;
    double pose[3];
    double initial_pose[3];
    double initial_joint2; /* arms: the elbow at spawn (the footprint's joint2 is the current one) */
    double twist[3];       /* vx, vy (map units/s), wz (rad/s) */
    bool spawned;
    bool is_static;
    uint32_t obstacle;
    uint64_t serial; /* tells a re-spawned entity from the one a plan was made for */
    double *path;    /* follow: n_path configurations of SIM_Q (x, y, yaw, joint2) */
    size_t n_path, path_next;
    double follow_speed;
    uint64_t follow_id; /* the follow goal that owns the path (0: none) */
    uint8_t follow_end; /* why the last path ended (follow_end values) */
    /* manipulator scenes (sim->scene): an object is `shape` at `pose3` (an obstacle of the
     * scene's engine, id `obstacle`); the robot (`is_arm`) is its joint vector `joints`, its
     * path (above) rows of sim->arm_dim joint values */
    bool is_arm;
    pb_shape shape;
    double pose3[7], initial_pose3[7];
    double twist3[6]; /* linear (m/s), angular (rad/s), world frame */
    double joints[PB_MAX_DIM], initial_joints[PB_MAX_DIM];
} sim_entity;

/* Why an entity stopped following its path. */
enum {
    FOLLOW_ON,
    FOLLOW_REACHED,
    FOLLOW_COLLIDED,
    FOLLOW_TELEPORTED,
    FOLLOW_STATIC,
    FOLLOW_RESET,
    FOLLOW_CANCELED
};

typedef struct sim_event {
    pb_sim_event_kind kind;
    char *name;
} sim_event;

struct pb_sim {
    char *worlds_dir, *robots_dir;
    bool confine_worlds; /* LoadWorld reads files only inside worlds_dir */
    double dt;
    uint8_t state;
    double time;
    bool have_world;
    sim_world world;
    pb_engine *engine;
    pb_engine *plan_map; /* the same map without entities: planners' snapshots share it */
    /* a manipulator scene: `engine` is the manipulator engine of the scene's world, every
     * object entity one of its objects; `arm_plan` a spare engine of the same world for a
     * plan to take (a plan loads another when it is taken) */
    bool scene;
    /* a scene's bounds (metres): an object's bounding sphere must lie inside, as a planar
     * footprint must lie on the map */
    double scene_lo[3], scene_hi[3];
    pb_engine *arm_plan;
    int arm_dim;
    const char *arm_joint_names[PB_MAX_DIM];
    uint64_t world_serial, next_entity_serial;
    sim_entity *entities;
    size_t n_entities, cap_entities;
    sim_event *events;
    size_t n_events, cap_events;
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
    uint64_t next_follow_id;
    void (*on_step)(pb_sim *sim, void *payload);
    void *on_step_payload;
    char name_buf[MAX_NAME + 32];
};

/* ---------------------------------------------------------------- helpers */

static void set_result(pb_sim_result *r, uint8_t code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void set_result(pb_sim_result *r, uint8_t code, const char *fmt, ...)
{
    r->result = code;
    r->error_message[0] = '\0';
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->error_message, sizeof r->error_message, fmt, ap);
        va_end(ap);
    }
}

/* A tags filter's mode must be ANY or ALL when it has tags (spec: TagsFilter); `field` names
 * it in the message. */
static bool tags_filter_valid(const pb_sim_tags_filter *tags, const char *field, pb_sim_result *r)
{
    if (!tags->n_tags || tags->filter_mode <= PB_SIM_FILTER_ALL)
        return true;
    set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s must be 0 (ANY) or 1 (ALL), got %u", field,
               (unsigned)tags->filter_mode);
    return false;
}

static const char *str(const char *s)
{
    return s ? s : "";
}

static void push_event(pb_sim *sim, pb_sim_event_kind kind, const char *name)
{
    if (sim->n_events == MAX_EVENTS) {
        /* nobody drains: drop the oldest rather than grow without bound */
        free(sim->events[0].name);
        memmove(sim->events, sim->events + 1, (sim->n_events - 1) * sizeof *sim->events);
        sim->n_events--;
    }
    if (sim->n_events == sim->cap_events) {
        size_t cap = sim->cap_events ? sim->cap_events * 2 : 16;
        sim_event *g = realloc(sim->events, cap * sizeof *g);
        if (!g)
            return;
        sim->events = g;
        sim->cap_events = cap;
    }
    char *copy = sim_strdup(name);
    if (!copy)
        return;
    sim->events[sim->n_events++] = (sim_event){kind, copy};
}

void pb_sim_drain_events(pb_sim *sim, void (*fn)(pb_sim_event_kind, const char *, void *), void *payload)
{
    for (size_t i = 0; i < sim->n_events; i++) {
        if (fn)
            fn(sim->events[i].kind, sim->events[i].name, payload);
        free(sim->events[i].name);
    }
    sim->n_events = 0;
}

static bool reserve_scratch(pb_sim *sim, size_t n)
{
    if (n <= sim->cap_scratch)
        return true;
    size_t cap = sim->cap_scratch ? sim->cap_scratch : 16;
    while (cap < n)
        cap *= 2;
    const char **names = realloc(sim->names, cap * sizeof *names);
    if (!names)
        return false;
    sim->names = names;
    pb_sim_entity_state *states = realloc(sim->states, cap * sizeof *states);
    if (!states)
        return false;
    sim->states = states;
    sim->cap_scratch = cap;
    return true;
}

static sim_entity *find_entity(pb_sim *sim, const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sim->n_entities; i++)
        if (strcmp(sim->entities[i].name, name) == 0)
            return &sim->entities[i];
    return NULL;
}

static void pose_to_msg(const double *pose, pb_sim_pose *out)
{
    *out = (pb_sim_pose){.position = {pose[0], pose[1], 0.0}, .qz = sin(pose[2] / 2), .qw = cos(pose[2] / 2)};
}

static double wrap_angle(double a)
{
    a = fmod(a + M_PI, 2 * M_PI);
    if (a < 0)
        a += 2 * M_PI;
    return a - M_PI;
}

/* What every pose message must be: a finite position, a unit quaternion (its norm into
 * `*norm`), a known frame (`*ref` the entity it names, NULL for the world). False with `why`. */
static bool pose_msg_valid(pb_sim *sim, const pb_sim_pose *p, const char *frame, double *norm,
                           const sim_entity **ref, char *why, size_t size)
{
    const double n = sqrt(p->qx * p->qx + p->qy * p->qy + p->qz * p->qz + p->qw * p->qw);
    *norm = n;
    *ref = NULL;
    if (!isfinite(p->position.x) || !isfinite(p->position.y) || !isfinite(p->position.z)) {
        snprintf(why, size, "position must be finite");
        return false;
    }
    if (!isfinite(n) || fabs(n - 1.0) > 1e-3) {
        snprintf(why, size, "invalid quaternion (norm %g, must be 1)", n);
        return false;
    }
    frame = str(frame);
    if (frame[0] == '/')
        frame++;
    if (frame[0] && strcmp(frame, "world") != 0 && strcmp(frame, "map") != 0 &&
        !(*ref = find_entity(sim, frame))) {
        snprintf(why, size, "unknown frame '%s'", frame);
        return false;
    }
    return true;
}

/* A pose message to (x, y, yaw) in the world frame. False with `why` on a bad quaternion,
 * roll or pitch, a non-finite position or an unknown frame. */
static bool pose_from_msg(pb_sim *sim, const pb_sim_pose *p, const char *frame, double *out, char *why,
                          size_t size)
{
    double n;
    const sim_entity *ref;
    if (!pose_msg_valid(sim, p, frame, &n, &ref, why, size))
        return false;
    if (fabs(p->qx / n) > 1e-3 || fabs(p->qy / n) > 1e-3) {
        snprintf(why, size, "planar entities cannot roll or pitch (quaternion x, y must be 0)");
        return false;
    }
    double local[3] = {p->position.x, p->position.y, 2 * atan2(p->qz / n, p->qw / n)};
    if (ref) {
        const double c = cos(ref->pose[2]), s = sin(ref->pose[2]);
        const double x = ref->pose[0] + c * local[0] - s * local[1],
                     y = ref->pose[1] + s * local[0] + c * local[1];
        local[0] = x;
        local[1] = y;
        local[2] += ref->pose[2];
    }
    local[2] = wrap_angle(local[2]);
    memcpy(out, local, sizeof local);
    return true;
}

/* snprintf into `why` unless the caller wants no message. */
#define explain(why, size, ...)                                                                              \
    do {                                                                                                     \
        if (why)                                                                                             \
            snprintf((why), (size), __VA_ARGS__);                                                            \
    } while (0)

/* ---------------------------------------------------------------- manipulator scenes */

/* The scene's robot entity (NULL in a planar world). */
static sim_entity *arm_entity(pb_sim *sim)
{
    for (size_t i = 0; sim->scene && i < sim->n_entities; i++)
        if (sim->entities[i].is_arm)
            return &sim->entities[i];
    return NULL;
}

/* The robot's joints, NULL when there is none. */
static const double *robot_q(pb_sim *sim)
{
    const sim_entity *arm = arm_entity(sim);
    return arm ? arm->joints : NULL;
}

static void pose3_to_msg(const double *pose, pb_sim_pose *out)
{
    *out = (pb_sim_pose){{pose[0], pose[1], pose[2]}, pose[3], pose[4], pose[5], pose[6]};
}

/* A pose message to a 6-DoF pose (x, y, z, qx, qy, qz, qw) in the world frame of a scene:
 * frames as in planar worlds (an object's name: relative to it; the robot's: the world). */
static bool pose3_from_msg(pb_sim *sim, const pb_sim_pose *p, const char *frame, double *out, char *why,
                           size_t size)
{
    double n;
    const sim_entity *ref;
    if (!pose_msg_valid(sim, p, frame, &n, &ref, why, size))
        return false;
    const double q[4] = {p->qx, p->qy, p->qz, p->qw};
    double local[7] = {p->position.x, p->position.y, p->position.z};
    scene_normalize(q, local + 3);
    if (ref && !ref->is_arm)
        scene_compose(ref->pose3, local, out);
    else
        memcpy(out, local, sizeof local);
    return true;
}

/* Is object `shape` free at `pose` (7 values) of the static obstacles, of every object but
 * `self` and of the robot at its joints? Else false with what it hits in `why` (when not
 * NULL). */
static bool object_is_free(pb_sim *sim, const pb_shape *shape, const double *pose, uint32_t self, char *why,
                           size_t size)
{
    /* the object's bounding sphere inside the scene's bounds */
    const double radius = shape->type == PB_SHAPE_BOX
                              ? 0.5 * sqrt(shape->size[0] * shape->size[0] + shape->size[1] * shape->size[1] +
                                           shape->size[2] * shape->size[2])
                          : shape->type == PB_SHAPE_CYLINDER ? hypot(shape->size[0], 0.5 * shape->size[1])
                                                             : shape->size[0];
    for (int i = 0; i < 3; i++)
        if (!(pose[i] - radius >= sim->scene_lo[i] && pose[i] + radius <= sim->scene_hi[i])) {
            explain(
                why, size,
                "pose (%.3f, %.3f, %.3f) puts the object outside the scene's bounds [%g, %g] x [%g, %g] x "
                "[%g, %g]",
                pose[0], pose[1], pose[2], sim->scene_lo[0], sim->scene_hi[0], sim->scene_lo[1],
                sim->scene_hi[1], sim->scene_lo[2], sim->scene_hi[2]);
            return false;
        }
    const pb_pose placed = scene_pose_of(pose);
    char what[200];
    bool hits;
    if (pb_manipulator_object_check(sim->engine, shape, &placed, self, robot_q(sim), &hits, what,
                                    sizeof what) != PB_OK) {
        explain(why, size, "malformed object or pose");
        return false;
    }
    if (hits)
        explain(why, size, "pose (%.3f, %.3f, %.3f) puts the object on %s", pose[0], pose[1], pose[2], what);
    return !hits;
}

/* The robot at joints `q`: false with why it is infeasible (a joint outside its limits, or
 * "link 'a' touches obstacle 'b'", objects included) when it is. */
static bool arm_is_free(pb_sim *sim, const double *q, char *why, size_t size)
{
    char what[PB_SIM_MESSAGE_SIZE];
    if (pb_engine_feasible(sim->engine, q))
        return true;
    if (!pb_engine_explain(sim->engine, q, what, sizeof what))
        snprintf(what, sizeof what, "in collision");
    explain(why, size, "%s", what);
    return false;
}

/* Put a scene object at `pose` (7 values, already checked free). */
static void place_object(pb_sim *sim, sim_entity *e, const double *pose)
{
    const pb_pose placed = scene_pose_of(pose);
    memcpy(e->pose3, pose, sizeof e->pose3);
    e->pose[0] = pose[0];
    e->pose[1] = pose[1];
    pb_manipulator_object_move(sim->engine, e->obstacle, &placed);
}

static const char *entity_by_obstacle(const pb_sim *sim, uint32_t id)
{
    for (size_t i = 0; i < sim->n_entities; i++)
        if (sim->entities[i].obstacle == id)
            return sim->entities[i].name;
    return "?";
}

/* The C-space check of a footprint at a pose: true when free, else false with a message
 * naming what it hits written into `why` (when `why` is NULL nothing is formatted: the motion
 * step only needs the answer). */

static bool pose_is_free(pb_sim *sim, const pb_footprint *fp, const double *pose, uint32_t self, char *why,
                         size_t size)
{
    pb_hit hit;
    if (pb_engine_footprint_check(sim->engine, fp, pose, self, &hit) != PB_OK) {
        explain(why, size, "the world's engine cannot check footprints");
        return false;
    }
    switch (hit.kind) {
    case PB_HIT_NONE:
        return true;
    case PB_HIT_OUTSIDE:
        explain(why, size, "pose (%.3f, %.3f, %.3f) puts the footprint outside the map [0, %g] x [0, %g]",
                pose[0], pose[1], pose[2], pb_engine_upper(sim->engine)[0], pb_engine_upper(sim->engine)[1]);
        return false;
    case PB_HIT_MAP:
        explain(why, size, "pose (%.3f, %.3f, %.3f) hits an obstacle of the map at pixel (%d, %d)", pose[0],
                pose[1], pose[2], hit.pixel_x, hit.pixel_y);
        return false;
    case PB_HIT_OBSTACLE:
        explain(why, size, "pose (%.3f, %.3f, %.3f) overlaps entity '%s'", pose[0], pose[1], pose[2],
                entity_by_obstacle(sim, hit.obstacle_id));
        return false;
    default:
        explain(why, size, "malformed footprint or pose");
        return false;
    }
}

static void stop_following(sim_entity *e, uint8_t why)
{
    if (e->n_path > 0)
        e->follow_end = why;
    e->n_path = 0;
}

/* An entity's configuration: x, y, yaw and, for an arm, the elbow (SIM_Q values). */
static void entity_q(const sim_entity *e, double *q)
{
    memcpy(q, e->pose, 3 * sizeof *q);
    q[3] = e->footprint.type == PB_FOOTPRINT_ARM ? e->footprint.joint2 : 0.0;
}

/* Put an entity at configuration `q` (already checked free). An arm whose elbow turned has
 * another shape: its obstacle is replaced (the removal frees the slot the addition reuses,
 * so the addition cannot run out of memory). */
static void place_entity(pb_sim *sim, sim_entity *e, const double *q)
{
    memcpy(e->pose, q, 3 * sizeof *q);
    if (e->footprint.type == PB_FOOTPRINT_ARM && q[3] != e->footprint.joint2) {
        e->footprint.joint2 = q[3];
        uint32_t id;
        pb_engine_obstacle_remove(sim->engine, e->obstacle);
        if (pb_engine_obstacle_add(&id, sim->engine, &e->footprint, e->pose) == PB_OK)
            e->obstacle = id;
        return;
    }
    pb_engine_obstacle_move(sim->engine, e->obstacle, e->pose);
}

static void entity_free(sim_entity *e)
{
    free(e->name);
    free(e->description);
    sim_strings_finish(&e->tags);
    free(e->path);
}

static bool copy_tags(sim_strings *dst, const char *const *tags, size_t n)
{
    dst->items = n ? calloc(n, sizeof *dst->items) : NULL;
    dst->n = 0;
    if (n && !dst->items)
        return false;
    for (size_t i = 0; i < n; i++) {
        dst->items[i] = sim_strdup(tags[i]);
        if (!dst->items[i])
            return false;
        dst->n++;
    }
    return true;
}

/* Make an entity at a pose already checked free. */
static sim_entity *add_entity(pb_sim *sim, const char *name, const sim_robot *robot, const double *pose,
                              bool spawned, bool is_static)
{
    if (sim->n_entities == sim->cap_entities) {
        size_t cap = sim->cap_entities ? sim->cap_entities * 2 : 16;
        sim_entity *g = realloc(sim->entities, cap * sizeof *g);
        if (!g)
            return NULL;
        sim->entities = g;
        sim->cap_entities = cap;
    }
    sim_entity *e = &sim->entities[sim->n_entities];
    memset(e, 0, sizeof *e);
    e->name = sim_strdup(name);
    e->description = sim_strdup(robot->description);
    pb_status st = PB_OK;
    double planar[3] = {0, 0, 0};
    if (e->name && sim->scene && robot->solid) {
        const pb_pose placed = scene_pose_of(pose);
        st = pb_manipulator_object_add(sim->engine, &robot->shape, &placed, e->name, &e->obstacle);
    } else if (!sim->scene) {
        st = pb_engine_obstacle_add(&e->obstacle, sim->engine, &robot->footprint, pose);
    }
    if (!e->name || !e->description ||
        !copy_tags(&e->tags, (const char *const *)robot->tags.items, robot->tags.n) || st != PB_OK) {
        if (st == PB_OK && sim->scene && robot->solid)
            pb_manipulator_object_remove(sim->engine, e->obstacle);
        entity_free(e);
        return NULL;
    }
    if (sim->scene) { /* pose: 7 values for an object; the robot's is its joints (below) */
        e->is_arm = !robot->solid;
        e->shape = robot->shape;
        if (robot->solid) {
            memcpy(e->pose3, pose, sizeof e->pose3);
            memcpy(e->initial_pose3, pose, sizeof e->initial_pose3);
        } else {
            e->pose3[6] = e->initial_pose3[6] = 1.0;
        }
        planar[0] = e->pose3[0];
        planar[1] = e->pose3[1];
        pose = planar;
    }
    e->footprint = robot->footprint;
    e->category = robot->category;
    e->is_static = is_static || robot->category == PB_SIM_CATEGORY_STATIC_OBJECT;
    e->spawned = spawned;
    e->serial = ++sim->next_entity_serial;
    memcpy(e->pose, pose, sizeof e->pose);
    memcpy(e->initial_pose, pose, sizeof e->initial_pose);
    e->initial_joint2 = robot->footprint.joint2;
    sim->n_entities++;
    push_event(sim, PB_SIM_EVENT_CREATED, e->name);
    return e;
}

static void remove_entity(pb_sim *sim, size_t index)
{
    sim_entity *e = &sim->entities[index];
    if (!sim->scene)
        pb_engine_obstacle_remove(sim->engine, e->obstacle);
    else if (!e->is_arm)
        pb_manipulator_object_remove(sim->engine, e->obstacle);
    push_event(sim, PB_SIM_EVENT_DELETED, e->name);
    entity_free(e);
    memmove(e, e + 1, (sim->n_entities - index - 1) * sizeof *e);
    sim->n_entities--;
}

static void unload(pb_sim *sim)
{
    while (sim->n_entities)
        remove_entity(sim, sim->n_entities - 1);
    pb_engine_destroy(sim->engine);
    sim->engine = NULL;
    pb_engine_destroy(sim->plan_map);
    sim->plan_map = NULL;
    pb_engine_destroy(sim->arm_plan);
    sim->arm_plan = NULL;
    sim->scene = false;
    sim->arm_dim = 0;
    sim->world_serial++; /* plans begun in this world no longer apply */
    if (sim->have_world)
        sim_world_finish(&sim->world);
    sim->have_world = false;
    sim->state = PB_SIM_STATE_NO_WORLD;
    sim->time = 0.0;
}

/* The world's own entities, each where it must fit (on a map or in a scene), then the
 * simulation STOPPED; on failure the sim has no world. */
static bool install_entities(pb_sim *sim, char *why, size_t size)
{
    for (size_t i = 0; i < sim->world.n_entities; i++) {
        const sim_world_entity *we = &sim->world.entities[i];
        const sim_robot *robot = &sim->world.robots[we->robot];
        const double *pose = sim->scene ? we->pose3 : we->pose;
        if (find_entity(sim, we->name) ||
            !(sim->scene ? object_is_free(sim, &robot->shape, pose, PB_MANIPULATOR_OBJECT_NONE, why, size)
                         : pose_is_free(sim, &robot->footprint, pose, PB_OBSTACLE_NONE, why, size)) ||
            !add_entity(sim, we->name, robot, pose, false, we->is_static)) {
            char inner[PB_SIM_MESSAGE_SIZE];
            snprintf(inner, sizeof inner, "%s", why);
            snprintf(why, size, "world entity '%.60s': %.150s", we->name,
                     find_entity(sim, we->name) ? "duplicate name" : inner);
            unload(sim);
            return false;
        }
    }
    pb_sim_drain_events(sim, NULL, NULL);
    sim->state = PB_SIM_STATE_STOPPED;
    sim->time = 0.0;
    return true;
}

/* A named pose `name` of the scene's robot at joints `q`, unless the world names one so. */
static bool add_joint_pose(sim_world *w, const char *name, const double *q, int dim)
{
    for (size_t i = 0; i < w->n_poses; i++)
        if (strcmp(w->poses[i].name, name) == 0)
            return true;
    sim_named_pose *grown = realloc(w->poses, (w->n_poses + 1) * sizeof *grown);
    if (!grown)
        return false;
    w->poses = grown;
    sim_named_pose *p = &w->poses[w->n_poses];
    memset(p, 0, sizeof *p);
    p->name = sim_strdup(name);
    p->description = sim_strdup(strcmp(name, "start") == 0 ? "the scene world's default start (joints)"
                                                           : "the scene world's default goal (joints)");
    if (!p->name || !p->description) {
        free(p->name);
        free(p->description);
        return false;
    }
    memcpy(p->joints, q, (size_t)dim * sizeof *q);
    p->n_joints = dim;
    w->n_poses++;
    return true;
}

/* A scene's robot (at `start`) and its joint named poses (see install_world()); on failure
 * the sim has no world. */
static bool install_robot(pb_sim *sim, const double *start, const double *goal, char *why, size_t size)
{
    sim->scene = true;
    sim->arm_dim = pb_engine_dim(sim->engine);
    if (sim->world.has_scene_bounds) {
        memcpy(sim->scene_lo, sim->world.scene_bounds, 3 * sizeof(double));
        memcpy(sim->scene_hi, sim->world.scene_bounds + 3, 3 * sizeof(double));
    } else {
        /* undeclared: a cube around the robot's base, 1 m beyond the arm's reach (the sum of
         * its joints' offsets and its links' shapes) */
        const pb_robot *robot = pb_manipulator_robot(sim->engine);
        double reach = 1.0;
        for (size_t j = 0; robot && j < robot->n_joints; j++) {
            const double *t = robot->joints[j].origin.t;
            reach += sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
            if (robot->joints[j].type == PB_JOINT_PRISMATIC)
                reach += fmax(fabs(robot->joints[j].lower), fabs(robot->joints[j].upper));
        }
        double largest = 0.0;
        for (size_t l = 0; robot && l < robot->n_links; l++)
            for (size_t k = 0; k < robot->links[l].n_shapes; k++) {
                const pb_shape *shape = &robot->links[l].shapes[k];
                if (shape->type != PB_SHAPE_MESH) /* a mesh's size is its scale: the 1 m covers it */
                    largest =
                        fmax(largest, sqrt(shape->size[0] * shape->size[0] + shape->size[1] * shape->size[1] +
                                           shape->size[2] * shape->size[2]));
            }
        reach += largest;
        for (int i = 0; i < 3; i++) {
            sim->scene_lo[i] = -reach;
            sim->scene_hi[i] = reach;
        }
    }
    for (int i = 0; i < sim->arm_dim; i++)
        sim->arm_joint_names[i] = pb_manipulator_coordinate_name(sim->engine, i);
    if (!add_joint_pose(&sim->world, "start", start, sim->arm_dim) ||
        !add_joint_pose(&sim->world, "goal", goal, sim->arm_dim)) {
        snprintf(why, size, "out of memory");
        unload(sim);
        return false;
    }
    for (size_t i = 0; i < sim->world.n_poses; i++) {
        const sim_named_pose *p = &sim->world.poses[i];
        char what[PB_SIM_MESSAGE_SIZE];
        if (p->n_joints && p->n_joints != sim->arm_dim) {
            snprintf(why, size, "named pose '%.60s': %d joint values for a robot of %d joints", p->name,
                     p->n_joints, sim->arm_dim);
            unload(sim);
            return false;
        }
        if (p->n_joints && !arm_is_free(sim, p->joints, what, sizeof what)) {
            snprintf(why, size, "named pose '%.60s': %.160s", p->name, what);
            unload(sim);
            return false;
        }
    }
    char tag_robot[] = "robot", tag_arm[] = "manipulator";
    char *tags[] = {tag_robot, tag_arm};
    char description[PB_SIM_MESSAGE_SIZE];
    snprintf(description, sizeof description,
             "the scene's robot: its state is its %d joints (see /plan_path, /follow_path)", sim->arm_dim);
    sim_robot arm = {.name = sim->world.robot_entity,
                     .description = description,
                     .category = PB_SIM_CATEGORY_ROBOT,
                     .tags = {tags, 2}};
    static const double origin[7] = {0, 0, 0, 0, 0, 0, 1};
    sim_entity *e = add_entity(sim, sim->world.robot_entity, &arm, origin, false, false);
    if (!e) {
        snprintf(why, size, "out of memory");
        unload(sim);
        return false;
    }
    memcpy(e->joints, start, (size_t)sim->arm_dim * sizeof *start);
    memcpy(e->initial_joints, start, (size_t)sim->arm_dim * sizeof *start);
    return true;
}

/* Make the engine and the world's own entities; on failure the sim has no world. */
static bool install_world(pb_sim *sim, sim_world *world, char *why, size_t size)
{
    /* a map: its image engine and an obstacle-free copy for planners; a scene: its
     * manipulator engine and a spare one for plans to take */
    const bool scene = world->scene_path != NULL;
    const char *path = scene ? world->scene_path : world->map_path;
    pb_engine **spare = scene ? &sim->arm_plan : &sim->plan_map;
    double start[PB_MAX_DIM], goal[PB_MAX_DIM];
    pb_diag diag = {0};
    if (pb_engine_load(&sim->engine, scene ? "manipulator" : "image2d", path, NULL, 0, &diag) != PB_OK ||
        pb_engine_load(spare, scene ? "manipulator" : "image2d", path, NULL, 0, &diag) != PB_OK ||
        (scene && !pb_engine_defaults(sim->engine, start, goal))) {
        snprintf(why, size, "%s %.100s: %.120s", scene ? "scene" : "map", path,
                 diag.message[0] ? diag.message : "the world needs a <start> and a <goal> for its robot");
        pb_engine_destroy(sim->engine);
        sim->engine = NULL;
        pb_engine_destroy(*spare);
        *spare = NULL;
        sim_world_finish(world);
        return false;
    }
    sim->world_serial++;
    sim->world = *world;
    sim->have_world = true;
    if (scene && !install_robot(sim, start, goal, why, size))
        return false;
    return install_entities(sim, why, size);
}

/* ---------------------------------------------------------------- lifecycle */

pb_sim_config pb_sim_config_default(void)
{
    return (pb_sim_config){.worlds_dir = NULL, .robots_dir = NULL, .world = NULL, .time_step = 0.05};
}

pb_status pb_sim_create(pb_sim **out, const pb_sim_config *config, pb_diag *diag)
{
    *out = NULL;
    if (!(config->time_step > 0.0) || !(config->time_step <= 3600.0)) {
        pb_diag_set(diag, NULL, 0, 0, "time step must be in (0, 3600] seconds, got %g", config->time_step);
        return PB_ERR_INVALID;
    }
    pb_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return PB_ERR_NOMEM;
    sim->worlds_dir = sim_strdup(config->worlds_dir ? config->worlds_dir : "worlds");
    sim->confine_worlds = config->confine_worlds;
    sim->robots_dir = sim_strdup(config->robots_dir ? config->robots_dir : "robots");
    sim->dt = config->time_step;
    sim->state = PB_SIM_STATE_NO_WORLD;
    if (!sim->worlds_dir || !sim->robots_dir) {
        pb_sim_destroy(sim);
        return PB_ERR_NOMEM;
    }
    if (config->world) {
        pb_sim_result r;
        pb_sim_world_info info;
        pb_sim_load_world(sim, config->world, NULL, false, &r, &info);
        if (r.result != PB_SIM_RESULT_OK) {
            pb_diag_set(diag, config->world, 0, 0, "%s", r.error_message);
            pb_sim_destroy(sim);
            return PB_ERR_INVALID;
        }
    }
    *out = sim;
    return PB_OK;
}

void pb_sim_destroy(pb_sim *sim)
{
    if (!sim)
        return;
    unload(sim);
    pb_sim_drain_events(sim, NULL, NULL);
    free(sim->events);
    free(sim->entities);
    free(sim->names);
    free(sim->states);
    free(sim->poses);
    free(sim->spawnables);
    for (size_t i = 0; i < sim->n_available; i++)
        sim_world_finish(&sim->available[i]);
    free(sim->plan_path);
    free(sim->plan_joints);
    free(sim->worlds_dir);
    free(sim->robots_dir);
    free(sim);
}

double pb_sim_time(const pb_sim *sim)
{
    return sim->time;
}
double pb_sim_time_step(const pb_sim *sim)
{
    return sim->dt;
}

uint8_t pb_sim_state(const pb_sim *sim)
{
    return sim->state;
}
size_t pb_sim_entity_count(const pb_sim *sim)
{
    return sim->n_entities;
}

/* ---------------------------------------------------------------- features */

void pb_sim_get_features(const pb_sim *sim, pb_sim_features *out)
{
    (void)sim;
    /* exactly what works; 7 (convex-hull filters) is not implemented */
    static const uint16_t features[] = {0,  1,  2,  3,  4,  5,  6,  8,  9,  10, 11, 12, 13, 14, 20, 21,
                                        22, 23, 24, 25, 26, 31, 32, 33, 40, 41, 42, 43, 44, 45, 50};
    static const char *const formats[] = {"planbench-simrobot"};
    *out = (pb_sim_features){
        .features = features,
        .n_features = sizeof features / sizeof features[0],
        .spawn_formats = formats,
        .n_spawn_formats = 1,
        .custom_info =
            "planbench simulation service: planar worlds on image maps (x/y in pixels, yaw from the "
            "quaternion) and manipulator scenes (6-DoF poses in metres, 3-D objects, a robot whose state "
            "is its joints); every pose is checked against the planners' C-space. Extra: /plan_path, "
            "/follow_path.",
    };
}

/* ---------------------------------------------------------------- spawning */

static bool name_valid(const char *name)
{
    const size_t n = strlen(name);
    if (n == 0 || n > MAX_NAME ||
        !((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z') || name[0] == '_'))
        return false;
    for (size_t i = 0; i < n; i++) {
        const char c = name[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
            return false;
    }
    return true;
}

/* A ROS namespace: "" or tokens of name characters separated by '/', optional leading '/'. */
static bool namespace_valid(const char *ns)
{
    if (*ns == '/')
        ns++;
    if (!*ns)
        return true;
    if (strlen(ns) > MAX_NAME)
        return false;
    char buf[MAX_NAME + 1];
    snprintf(buf, sizeof buf, "%s", ns);
    for (char *tok = buf, *slash; tok; tok = slash ? slash + 1 : NULL) {
        slash = strchr(tok, '/');
        if (slash)
            *slash = '\0';
        if (!name_valid(tok))
            return false;
    }
    return true;
}

static const sim_robot *find_robot_uri(const pb_sim *sim, const char *uri)
{
    for (size_t i = 0; i < sim->world.n_robots; i++)
        if (strcmp(sim->world.robots[i].uri, uri) == 0 || strcmp(sim->world.robots[i].name, uri) == 0)
            return &sim->world.robots[i];
    return NULL;
}

void pb_sim_spawn_entity(pb_sim *sim, const pb_sim_spawn_request *rq, pb_sim_spawn_response *rs)
{
    pb_sim_result *r = &rs->result;
    rs->entity_name = "";
    const char *uri = str(rq->uri), *text = str(rq->resource_string), *ns = str(rq->entity_namespace);
    if (!sim->have_world) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "no world loaded");
        return;
    }
    sim_robot parsed;
    bool own_parsed = false;
    const sim_robot *robot = NULL;
    if (uri[0]) {
        if (strncmp(uri, "model://", 8) != 0) {
            set_result(r, PB_SIM_SPAWN_UNSUPPORTED_FORMAT,
                       "uri '%.100s': only model://NAME from GetSpawnables", uri);
            return;
        }
        robot = find_robot_uri(sim, uri);
        if (!robot) {
            set_result(r, PB_SIM_RESULT_NOT_FOUND, "no spawnable '%.100s' in this world (see GetSpawnables)",
                       uri);
            return;
        }
    } else if (text[0]) {
        char why[PB_SIM_MESSAGE_SIZE];
        if (sim_robot_parse(&parsed, text, strlen(text), why, sizeof why) != SIM_LOAD_OK) {
            set_result(r, PB_SIM_SPAWN_RESOURCE_PARSE_ERROR, "resource_string: %s", why);
            return;
        }
        own_parsed = true;
        robot = &parsed;
    } else {
        set_result(r, PB_SIM_SPAWN_NO_RESOURCE, "both uri and resource_string are empty");
        return;
    }
    char full[MAX_NAME * 2 + 2];
    const char *base = str(rq->name)[0] ? rq->name : robot->name;
    char why[PB_SIM_MESSAGE_SIZE];
    double pose[7]; /* x, y, yaw; in a scene x, y, z and the quaternion */
    if (robot->solid != sim->scene) {
        set_result(r, PB_SIM_SPAWN_UNSUPPORTED_ASSETS, "'%.100s' is a %s object: this world is %s",
                   robot->name, robot->solid ? "3-D" : "planar",
                   sim->scene ? "a manipulator scene (3-D objects only)" : "a planar map");
        goto done;
    }
    if (!namespace_valid(ns)) {
        set_result(r, PB_SIM_SPAWN_NAMESPACE_INVALID, "namespace '%.100s' breaks ROS naming rules", ns);
        goto done;
    }
    if (!name_valid(base)) {
        set_result(r, PB_SIM_SPAWN_NAME_INVALID,
                   "name '%.100s' must be 1-128 letters, digits or '_', not starting "
                   "with a digit",
                   base);
        goto done;
    }
    if (*ns == '/')
        ns++;
    snprintf(full, sizeof full, "%s%s%s", ns, ns[0] ? "/" : "", base);
    if (find_entity(sim, full)) {
        if (!rq->allow_renaming) {
            set_result(r, PB_SIM_SPAWN_NAME_NOT_UNIQUE, "an entity named '%s' exists", full);
            goto done;
        }
        const size_t len = strlen(full);
        for (unsigned k = 1;; k++) {
            snprintf(full + len, sizeof full - len, "_%u", k);
            if (!find_entity(sim, full))
                break;
        }
    }
    if (sim->scene
            ? !pose3_from_msg(sim, &rq->initial_pose, rq->frame_id, pose, why, sizeof why) ||
                  !object_is_free(sim, &robot->shape, pose, PB_MANIPULATOR_OBJECT_NONE, why, sizeof why)
            : !pose_from_msg(sim, &rq->initial_pose, rq->frame_id, pose, why, sizeof why) ||
                  !pose_is_free(sim, &robot->footprint, pose, PB_OBSTACLE_NONE, why, sizeof why)) {
        set_result(r, PB_SIM_SPAWN_INVALID_POSE, "%s", why);
        goto done;
    }
    if (sim->n_entities >= PB_SIM_MAX_ENTITIES) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the world holds at most %d entities",
                   PB_SIM_MAX_ENTITIES);
        goto done;
    }
    sim_entity *e = add_entity(sim, full, robot, pose, true, false);
    if (!e) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        goto done;
    }
    rs->entity_name = e->name;
    set_result(r, PB_SIM_RESULT_OK, NULL);
done:
    if (own_parsed)
        sim_robot_finish(&parsed);
}

void pb_sim_spawn_entities(pb_sim *sim, const pb_sim_spawn_request *requests, size_t n,
                           pb_sim_spawn_response *responses, pb_sim_result *result)
{
    if (n > PB_SIM_MAX_BATCH) {
        /* one call holds the server's only thread: a batch is bounded, larger ones are split */
        for (size_t i = 0; i < n; i++) {
            memset(&responses[i], 0, sizeof responses[i]);
            responses[i].entity_name = "";
            set_result(&responses[i].result, PB_SIM_RESULT_OPERATION_FAILED,
                       "not tried: the batch is too large");
        }
        set_result(result, PB_SIM_SPAWN_ENTITIES_SPAWN_FAILED,
                   "%zu spawn requests in one call: at most %d (split the batch)", n, PB_SIM_MAX_BATCH);
        return;
    }
    size_t failed = 0;
    for (size_t i = 0; i < n; i++) {
        pb_sim_spawn_entity(sim, &requests[i], &responses[i]);
        failed += responses[i].result.result != PB_SIM_RESULT_OK;
    }
    /* entity_name points at each entity's own heap name, which a later spawn does not move */
    if (failed)
        set_result(result, PB_SIM_SPAWN_ENTITIES_SPAWN_FAILED, "%zu of %zu spawn requests failed", failed, n);
    else
        set_result(result, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_delete_entity(pb_sim *sim, const char *entity, pb_sim_result *r)
{
    for (size_t i = 0; i < sim->n_entities; i++)
        if (strcmp(sim->entities[i].name, str(entity)) == 0) {
            if (sim->entities[i].is_static && !sim->entities[i].spawned) {
                set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' is a static part of the world", entity);
                return;
            }
            if (sim->entities[i].is_arm) {
                set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                           "'%s' is the scene's robot: it cannot be deleted", entity);
                return;
            }
            remove_entity(sim, i);
            set_result(r, PB_SIM_RESULT_OK, NULL);
            return;
        }
    set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", str(entity));
}

/* ---------------------------------------------------------------- filters and states */

static bool tags_match(const sim_strings *have, const pb_sim_tags_filter *f)
{
    if (!f || f->n_tags == 0)
        return true;
    size_t found = 0;
    for (size_t i = 0; i < f->n_tags; i++)
        for (size_t j = 0; j < have->n; j++)
            if (strcmp(f->tags[i], have->items[j]) == 0) {
                found++;
                break;
            }
    return f->filter_mode == PB_SIM_FILTER_ALL ? found == f->n_tags : found > 0;
}

/* The bounds of a filter as a footprint at a pose, or false with a result set. */
static bool bounds_region(const pb_sim_bounds *b, pb_footprint *fp, double *pose, pb_sim_result *r)
{
    memset(fp, 0, sizeof *fp);
    pose[2] = 0.0;
    if (b->type == PB_SIM_BOUNDS_SPHERE) {
        if (b->n_points < 2 || !(b->points[1].x >= 0.0) || !isfinite(b->points[1].x)) {
            set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "sphere bounds need 2 points, points[1].x the radius >= 0");
            return false;
        }
        fp->type = PB_FOOTPRINT_DISC;
        fp->radius = b->points[1].x > 1e-9 ? b->points[1].x : 1e-9;
        pose[0] = b->points[0].x;
        pose[1] = b->points[0].y;
        return true;
    }
    if (b->type == PB_SIM_BOUNDS_BOX) {
        if (b->n_points != 2) {
            set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "box bounds need exactly 2 points");
            return false;
        }
        const double lx = fmin(b->points[0].x, b->points[1].x), hx = fmax(b->points[0].x, b->points[1].x);
        const double ly = fmin(b->points[0].y, b->points[1].y), hy = fmax(b->points[0].y, b->points[1].y);
        fp->type = PB_FOOTPRINT_RECT;
        fp->half_length = fmax((hx - lx) / 2, 1e-9);
        fp->half_width = fmax((hy - ly) / 2, 1e-9);
        pose[0] = (lx + hx) / 2;
        pose[1] = (ly + hy) / 2;
        return true;
    }
    set_result(r, PB_SIM_RESULT_FEATURE_UNSUPPORTED,
               "bounds type %u is not supported in filters (sphere and box are)", (unsigned)b->type);
    return false;
}

/* The bounds of a filter in a scene: a box (axis-aligned) or a sphere at a pose (7 values), or
 * false with a result set. */
static bool bounds_region3(const pb_sim_bounds *b, pb_shape *shape, double *pose, pb_sim_result *r)
{
    memset(shape, 0, sizeof *shape);
    memset(pose, 0, 7 * sizeof *pose);
    pose[6] = 1.0;
    pb_footprint unused;
    double planar[3];
    if (!bounds_region(b, &unused, planar, r))
        return false;
    if (b->type == PB_SIM_BOUNDS_SPHERE) {
        shape->type = PB_SHAPE_SPHERE;
        shape->size[0] = unused.radius;
        pose[0] = b->points[0].x;
        pose[1] = b->points[0].y;
        pose[2] = b->points[0].z;
    } else {
        shape->type = PB_SHAPE_BOX;
        for (int i = 0; i < 3; i++) {
            const double a = (&b->points[0].x)[i], c = (&b->points[1].x)[i];
            shape->size[i] = fmax(fabs(c - a), 1e-9);
            pose[i] = (a + c) / 2;
        }
    }
    return true;
}

/* Does entity `e` of a scene overlap `region` at `pose`? */
static bool overlaps_region3(pb_sim *sim, const sim_entity *e, const pb_shape *region, const double *pose)
{
    const pb_pose placed = scene_pose_of(pose);
    bool overlap = false;
    if (e->is_arm) {
        pb_manipulator_robot_touches(sim->engine, region, &placed, e->joints, &overlap);
    } else {
        const pb_pose at = scene_pose_of(e->pose3);
        pb_manipulator_shapes_overlap(region, &placed, &e->shape, &at, &overlap);
    }
    return overlap;
}

/* An entity's state in the world frame now. */
static void fill_state(const pb_sim *sim, const sim_entity *e, pb_sim_entity_state *st)
{
    memset(st, 0, sizeof *st);
    st->frame_id = "world";
    st->stamp_sec = (int32_t)floor(sim->time);
    st->stamp_nanosec = (uint32_t)((sim->time - floor(sim->time)) * 1e9);
    if (sim->scene) {
        pose3_to_msg(e->pose3, &st->pose);
        st->twist.linear = (pb_sim_vec3){e->twist3[0], e->twist3[1], e->twist3[2]};
        st->twist.angular = (pb_sim_vec3){e->twist3[3], e->twist3[4], e->twist3[5]};
        return;
    }
    pose_to_msg(e->pose, &st->pose);
    st->twist.linear.x = e->twist[0];
    st->twist.linear.y = e->twist[1];
    st->twist.angular.z = e->twist[2];
}

/* Collect the matching entities into sim->names (and states when wanted). */
/* Limits on entity-name filters (POSIX extended regular expressions), so that no filter can
 * hold the server: glibc matches without backreferences in time linear in the name, but a
 * backreference makes it backtrack exponentially ("(a*)*(a*)*\1\2$" took minutes on 127
 * a's), and nested counted repetitions make regcomp expand them ("((a{0,45}){0,45}){0,45}"
 * allocated 3.7 GB). Refused: more than FILTER_MAX_LENGTH bytes, any backreference, a count
 * above FILTER_MAX_COUNT, counts whose product exceeds FILTER_MAX_EXPANSION. */
#define FILTER_MAX_LENGTH    256
#define FILTER_MAX_COUNT     32
#define FILTER_MAX_EXPANSION 256

static bool regex_is_bounded(const char *pattern, char *why, size_t size)
{
    const size_t n = strlen(pattern);
    if (n > FILTER_MAX_LENGTH) {
        snprintf(why, size, "longer than %d bytes", FILTER_MAX_LENGTH);
        return false;
    }
    unsigned long expansion = 1;
    bool in_bracket = false;
    for (size_t i = 0; i < n; i++) {
        const char c = pattern[i];
        if (in_bracket) {
            if (c == ']' && i > 0 && pattern[i - 1] != '[')
                in_bracket = false;
            continue;
        }
        if (c == '[') {
            in_bracket = true;
            if (pattern[i + 1] == '^')
                i++;
            continue;
        }
        if (c == '\\') {
            if (pattern[i + 1] >= '1' && pattern[i + 1] <= '9') {
                snprintf(why, size, "backreferences (\\%c) are not allowed", pattern[i + 1]);
                return false;
            }
            i++;
            continue;
        }
        if (c == '{') {
            char *end;
            const unsigned long low = strtoul(pattern + i + 1, &end, 10);
            unsigned long high = low;
            if (*end == ',')
                high = end[1] == '}' ? low : strtoul(end + 1, &end, 10);
            if (low > FILTER_MAX_COUNT || high > FILTER_MAX_COUNT) {
                snprintf(why, size, "a repetition count above %d", FILTER_MAX_COUNT);
                return false;
            }
            expansion *= high > 1 ? high : 1;
            if (expansion > FILTER_MAX_EXPANSION) {
                snprintf(why, size, "repetition counts whose product exceeds %d", FILTER_MAX_EXPANSION);
                return false;
            }
        }
    }
    return true;
}

static size_t filter_entities(pb_sim *sim, const pb_sim_entity_filters *f, pb_sim_result *r, bool want_states)
{
    regex_t re;
    bool have_re = false;
    pb_footprint region;
    pb_shape region3;
    double region_pose[7];
    bool have_region = false;
    if (f && !tags_filter_valid(&f->tags, "tags.filter_mode", r))
        return 0;
    if (f && f->bounds.type != PB_SIM_BOUNDS_EMPTY) {
        if (sim->scene ? !bounds_region3(&f->bounds, &region3, region_pose, r)
                       : !bounds_region(&f->bounds, &region, region_pose, r))
            return 0;
        have_region = true;
    }
    if (f && f->filter && f->filter[0]) {
        char unsafe[160];
        if (!regex_is_bounded(f->filter, unsafe, sizeof unsafe)) {
            set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "filter '%.60s': %s", f->filter, unsafe);
            return 0;
        }
        const int rc = regcomp(&re, f->filter, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char msg[200];
            regerror(rc, &re, msg, sizeof msg);
            set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "filter '%.60s': %s", f->filter, msg);
            return 0;
        }
        have_re = true;
    }
    size_t n = 0;
    if (!reserve_scratch(sim, sim->n_entities)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        if (have_re)
            regfree(&re);
        return 0;
    }
    for (size_t i = 0; i < sim->n_entities; i++) {
        const sim_entity *e = &sim->entities[i];
        if (have_re && regexec(&re, e->name, 0, NULL, 0) != 0)
            continue;
        if (f && f->n_categories) {
            bool any = false;
            for (size_t k = 0; k < f->n_categories; k++)
                any |= f->categories[k] == e->category;
            if (!any)
                continue;
        }
        if (f && !tags_match(&e->tags, &f->tags))
            continue;
        if (have_region && (sim->scene ? !overlaps_region3(sim, e, &region3, region_pose)
                                       : !pb_footprint_overlap(&region, region_pose, &e->footprint, e->pose)))
            continue;
        sim->names[n] = e->name;
        if (want_states)
            fill_state(sim, e, &sim->states[n]);
        n++;
    }
    if (have_re)
        regfree(&re);
    set_result(r, PB_SIM_RESULT_OK, NULL);
    return n;
}

void pb_sim_get_entities(pb_sim *sim, const pb_sim_entity_filters *filters, pb_sim_result *r,
                         const char *const **names, size_t *n)
{
    *n = filter_entities(sim, filters, r, false);
    *names = sim->names;
}

void pb_sim_get_entities_states(pb_sim *sim, const pb_sim_entity_filters *filters, pb_sim_result *r,
                                const char *const **names, const pb_sim_entity_state **states, size_t *n)
{
    *n = filter_entities(sim, filters, r, true);
    *names = sim->names;
    *states = sim->states;
}

void pb_sim_get_entity_state(pb_sim *sim, const char *entity, pb_sim_result *r, pb_sim_entity_state *state)
{
    memset(state, 0, sizeof *state);
    state->frame_id = "";
    state->pose.qw = 1.0;
    const sim_entity *e = find_entity(sim, entity);
    if (!e) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", str(entity));
        return;
    }
    fill_state(sim, e, state);
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

static bool twist_nonzero(const pb_sim_twist *t)
{
    return t->linear.x != 0 || t->linear.y != 0 || t->linear.z != 0 || t->angular.x != 0 ||
           t->angular.y != 0 || t->angular.z != 0;
}

static bool twist_finite(const pb_sim_twist *t)
{
    return isfinite(t->linear.x) && isfinite(t->linear.y) && isfinite(t->linear.z) &&
           isfinite(t->angular.x) && isfinite(t->angular.y) && isfinite(t->angular.z);
}

/* SetEntityState in a scene (the checks every world shares are done): an object's pose is
 * checked as a spawn's is, and it may have any twist; the robot's base stays at the world
 * origin and its joints move only along paths. */
static void set_state3(pb_sim *sim, sim_entity *e, const pb_sim_set_state_request *rq, bool set_pose,
                       bool set_twist, pb_sim_result *r)
{
    const pb_sim_twist *tw = &rq->state.twist;
    double pose[7];
    char why[PB_SIM_MESSAGE_SIZE];
    if (e->is_arm) {
        static const double origin[7] = {0, 0, 0, 0, 0, 0, 1};
        if (set_pose && (!pose3_from_msg(sim, &rq->state.pose, rq->state.frame_id, pose, why, sizeof why) ||
                         memcmp(pose, origin, sizeof pose) != 0)) {
            set_result(r, PB_SIM_SET_STATE_INVALID_POSE,
                       "'%s' is the scene's robot: its base stays at the world origin (its joints move "
                       "along /follow_path and /plan_path paths)",
                       e->name);
            return;
        }
        if (set_twist && twist_nonzero(tw)) {
            set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "'%s' is the scene's robot: it takes no twist (its joints move along paths)", e->name);
            return;
        }
        set_result(r, PB_SIM_RESULT_OK, NULL);
        return;
    }
    if (set_pose) {
        if (!pose3_from_msg(sim, &rq->state.pose, rq->state.frame_id, pose, why, sizeof why) ||
            !object_is_free(sim, &e->shape, pose, e->obstacle, why, sizeof why)) {
            set_result(r, PB_SIM_SET_STATE_INVALID_POSE, "%s", why);
            return;
        }
        place_object(sim, e, pose);
    }
    if (set_twist) {
        const double twist[6] = {tw->linear.x,  tw->linear.y,  tw->linear.z,
                                 tw->angular.x, tw->angular.y, tw->angular.z};
        memcpy(e->twist3, twist, sizeof twist);
    }
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_set_entity_state(pb_sim *sim, const pb_sim_set_state_request *rq, pb_sim_result *r)
{
    sim_entity *e = find_entity(sim, rq->entity);
    if (!e) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", str(rq->entity));
        return;
    }
    /* 1.x shape (no flags in the request): pose and twist are applied */
    const bool set_pose = rq->has_flags ? rq->set_pose : true;
    const bool set_twist = rq->has_flags ? rq->set_twist : true;
    const bool set_accel = rq->has_flags ? rq->set_acceleration : false;
    const pb_sim_twist *tw = &rq->state.twist, *ac = &rq->state.acceleration;
    if ((set_twist && !twist_finite(tw)) || (set_accel && !twist_finite(ac))) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "twist and acceleration must be finite");
        return;
    }
    if (e->is_static && ((set_twist && twist_nonzero(tw)) || (set_accel && twist_nonzero(ac)))) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "'%s' is static: it cannot be given a twist or acceleration", e->name);
        return;
    }
    if (set_accel && twist_nonzero(ac)) {
        set_result(r, PB_SIM_RESULT_FEATURE_UNSUPPORTED, "accelerations are not simulated");
        return;
    }
    if (sim->scene) {
        set_state3(sim, e, rq, set_pose, set_twist, r);
        return;
    }
    if (set_twist && (tw->linear.z != 0 || tw->angular.x != 0 || tw->angular.y != 0)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "planar entities move in x, y and yaw only (linear.z, angular.x, "
                   "angular.y must be 0)");
        return;
    }
    double pose[3];
    if (set_pose) {
        char why[PB_SIM_MESSAGE_SIZE];
        if (!pose_from_msg(sim, &rq->state.pose, rq->state.frame_id, pose, why, sizeof why) ||
            !pose_is_free(sim, &e->footprint, pose, e->obstacle, why, sizeof why)) {
            set_result(r, PB_SIM_SET_STATE_INVALID_POSE, "%s", why);
            return;
        }
        memcpy(e->pose, pose, sizeof pose);
        pb_engine_obstacle_move(sim->engine, e->obstacle, pose);
        stop_following(e, FOLLOW_TELEPORTED); /* a teleported entity stops following its path */
    }
    if (set_twist) {
        e->twist[0] = tw->linear.x;
        e->twist[1] = tw->linear.y;
        e->twist[2] = tw->angular.z;
    }
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* ---------------------------------------------------------------- info and bounds */

void pb_sim_get_entity_info(pb_sim *sim, const char *entity, pb_sim_result *r, pb_sim_entity_info *info)
{
    memset(info, 0, sizeof *info);
    info->description = "";
    const sim_entity *e = find_entity(sim, entity);
    if (!e) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", str(entity));
        return;
    }
    *info = (pb_sim_entity_info){e->category, e->description, (const char *const *)e->tags.items, e->tags.n};
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

static bool category_valid(uint8_t c)
{
    return c <= PB_SIM_CATEGORY_HUMAN || c == PB_SIM_CATEGORY_DYNAMIC_OBJECT ||
           c == PB_SIM_CATEGORY_STATIC_OBJECT;
}

void pb_sim_set_entity_info(pb_sim *sim, const char *entity, const pb_sim_entity_info *info, pb_sim_result *r)
{
    sim_entity *e = find_entity(sim, entity);
    if (!e) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", str(entity));
        return;
    }
    if (!category_valid(info->category)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "category %u is not an EntityCategory (0, 1, 2, 4, 5)",
                   (unsigned)info->category);
        return;
    }
    sim_strings tags;
    char *description = sim_strdup(info->description);
    if (!description || !copy_tags(&tags, info->tags, info->n_tags)) {
        free(description);
        sim_strings_finish(&tags);
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return;
    }
    free(e->description);
    sim_strings_finish(&e->tags);
    e->description = description;
    e->tags = tags;
    e->category = info->category;
    if (e->category == PB_SIM_CATEGORY_STATIC_OBJECT) {
        e->is_static = true;
        e->twist[0] = e->twist[1] = e->twist[2] = 0.0;
        stop_following(e, FOLLOW_STATIC);
    } else if (e->spawned) {
        e->is_static = false;
    }
    push_event(sim, PB_SIM_EVENT_INFO_CHANGED, e->name);
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* Bounds of a footprint in its own frame, as a box [min, max]. */
static void footprint_bounds(const pb_footprint *fp, pb_sim_bounds *b)
{
    static const double origin[3] = {0, 0, 0};
    double lo[2], hi[2];
    pb_footprint_aabb(fp, origin, lo, hi);
    memset(b, 0, sizeof *b);
    b->type = PB_SIM_BOUNDS_BOX;
    b->n_points = 2;
    b->points[0] = (pb_sim_vec3){lo[0], lo[1], 0.0};
    b->points[1] = (pb_sim_vec3){hi[0], hi[1], 0.0};
}

/* Bounds of a scene object in its own frame, as a box [min, max] (metres). */
static void shape_bounds(const pb_shape *shape, pb_sim_bounds *b)
{
    double lo[3], hi[3];
    scene_shape_box(shape, lo, hi);
    memset(b, 0, sizeof *b);
    b->type = PB_SIM_BOUNDS_BOX;
    b->n_points = 2;
    b->points[0] = (pb_sim_vec3){lo[0], lo[1], lo[2]};
    b->points[1] = (pb_sim_vec3){hi[0], hi[1], hi[2]};
}

void pb_sim_get_entity_bounds(pb_sim *sim, const char *entity, pb_sim_result *r, pb_sim_bounds *bounds)
{
    memset(bounds, 0, sizeof *bounds);
    const sim_entity *e = find_entity(sim, entity);
    if (!e) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", str(entity));
        return;
    }
    if (!sim->scene)
        footprint_bounds(&e->footprint, bounds);
    else if (!e->is_arm) /* the robot's extent changes with its joints: TYPE_EMPTY (unbounded) */
        shape_bounds(&e->shape, bounds);
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* ---------------------------------------------------------------- named poses, spawnables */

void pb_sim_get_named_poses(pb_sim *sim, const pb_sim_tags_filter *tags, pb_sim_result *r,
                            const pb_sim_named_pose **poses, size_t *n)
{
    *poses = NULL;
    *n = 0;
    if (tags && !tags_filter_valid(tags, "filter_mode", r))
        return;
    if (!sim->have_world) {
        set_result(r, PB_SIM_RESULT_OK, "no world loaded");
        return;
    }
    free(sim->poses);
    sim->poses = calloc(sim->world.n_poses + 1, sizeof *sim->poses);
    if (!sim->poses) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return;
    }
    for (size_t i = 0; i < sim->world.n_poses; i++) {
        const sim_named_pose *p = &sim->world.poses[i];
        if (!tags_match(&p->tags, tags))
            continue;
        pb_sim_named_pose *o = &sim->poses[(*n)++];
        *o = (pb_sim_named_pose){
            p->name, p->description, (const char *const *)p->tags.items, p->tags.n, {{0, 0, 0}, 0, 0, 0, 1}};
        if (!sim->scene)
            pose_to_msg(p->pose, &o->pose);
        else if (!p->n_joints) /* a joint configuration keeps the identity pose */
            pose3_to_msg(p->pose3, &o->pose);
    }
    *poses = sim->poses;
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

static const sim_named_pose *find_named_pose(const pb_sim *sim, const char *name)
{
    for (size_t i = 0; sim->have_world && i < sim->world.n_poses; i++)
        if (strcmp(sim->world.poses[i].name, str(name)) == 0)
            return &sim->world.poses[i];
    return NULL;
}

void pb_sim_get_named_pose_bounds(pb_sim *sim, const char *name, pb_sim_result *r, pb_sim_bounds *bounds)
{
    memset(bounds, 0, sizeof *bounds);
    const sim_named_pose *p = find_named_pose(sim, name);
    if (!p) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "no named pose '%.100s'", str(name));
        return;
    }
    *bounds = p->bounds;
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_get_spawnables(pb_sim *sim, const char *const *sources, size_t n_sources, pb_sim_result *r,
                           const pb_sim_spawnable **spawnables, size_t *n)
{
    *spawnables = NULL;
    *n = 0;
    set_result(r, PB_SIM_RESULT_OK, NULL);
    size_t len = 0;
    for (size_t i = 0; i < n_sources; i++) {
        if (sources[i][0] == '\0' || strcmp(sources[i], sim->robots_dir) == 0)
            continue;
        len += (size_t)snprintf(r->error_message + len,
                                len < sizeof r->error_message ? sizeof r->error_message - len : 0,
                                "%sunrecognised source '%.60s'", len ? "; " : "", sources[i]);
        if (len >= sizeof r->error_message)
            break;
    }
    if (!sim->have_world)
        return;
    free(sim->spawnables);
    sim->spawnables = calloc(sim->world.n_robots + 1, sizeof *sim->spawnables);
    if (!sim->spawnables) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return;
    }
    for (size_t i = 0; i < sim->world.n_robots; i++) {
        const sim_robot *robot = &sim->world.robots[i];
        sim->spawnables[i].uri = robot->uri;
        sim->spawnables[i].description = robot->description;
        if (robot->solid)
            shape_bounds(&robot->shape, &sim->spawnables[i].spawn_bounds);
        else
            footprint_bounds(&robot->footprint, &sim->spawnables[i].spawn_bounds);
    }
    *spawnables = sim->spawnables;
    *n = sim->world.n_robots;
}

/* ---------------------------------------------------------------- simulation state */

void pb_sim_get_simulation_state(pb_sim *sim, pb_sim_result *r, uint8_t *state)
{
    *state = sim->state;
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* Reset by scope bits (SCOPE_ALL already expanded). Entities whose start pose is now taken
 * keep their pose, named in `r`'s message: no entity is ever placed inside another. */
static void reset_scopes(pb_sim *sim, unsigned scope, pb_sim_result *r)
{
    set_result(r, PB_SIM_RESULT_OK, NULL);
    if (scope & PB_SIM_SCOPE_SPAWNED)
        for (size_t i = sim->n_entities; i-- > 0;)
            if (sim->entities[i].spawned)
                remove_entity(sim, i);
    if (scope & PB_SIM_SCOPE_TIME)
        sim->time = 0.0;
    if (scope & PB_SIM_SCOPE_STATE) {
        size_t len = 0;
        for (size_t i = 0; i < sim->n_entities; i++) {
            sim_entity *e = &sim->entities[i];
            e->twist[0] = e->twist[1] = e->twist[2] = 0.0;
            memset(e->twist3, 0, sizeof e->twist3);
            stop_following(e, FOLLOW_RESET);
            char why[PB_SIM_MESSAGE_SIZE];
            if (sim->scene) {
                const bool free_start = e->is_arm ? arm_is_free(sim, e->initial_joints, why, sizeof why)
                                                  : object_is_free(sim, &e->shape, e->initial_pose3,
                                                                   e->obstacle, why, sizeof why);
                if (free_start && e->is_arm)
                    memcpy(e->joints, e->initial_joints, sizeof e->joints);
                else if (free_start)
                    place_object(sim, e, e->initial_pose3);
                else if (len < sizeof r->error_message)
                    len += (size_t)snprintf(r->error_message + len, sizeof r->error_message - len,
                                            "%s'%s' kept its %s: start %s", len ? "; " : "", e->name,
                                            e->is_arm ? "joints" : "pose", why);
                continue;
            }
            const double start[SIM_Q] = {e->initial_pose[0], e->initial_pose[1], e->initial_pose[2],
                                         e->initial_joint2};
            const pb_footprint fp = sim_footprint_at(&e->footprint, start);
            if (pose_is_free(sim, &fp, e->initial_pose, e->obstacle, why, sizeof why)) {
                place_entity(sim, e, start);
            } else if (len < sizeof r->error_message) {
                len += (size_t)snprintf(r->error_message + len, sizeof r->error_message - len,
                                        "%s'%s' kept its pose: start %s", len ? "; " : "", e->name, why);
            }
        }
    }
}

void pb_sim_set_simulation_state(pb_sim *sim, uint8_t target, pb_sim_result *r)
{
    if (target > PB_SIM_STATE_LOADING_WORLD) {
        set_result(r, PB_SIM_RESULT_FEATURE_UNSUPPORTED, "state %u is not a SimulationState",
                   (unsigned)target);
        return;
    }
    if (target == PB_SIM_STATE_NO_WORLD || target == PB_SIM_STATE_LOADING_WORLD) {
        set_result(r, PB_SIM_INCORRECT_TRANSITION, "state %u is reported by the simulator, not requested",
                   (unsigned)target);
        return;
    }
    if (target == sim->state) {
        set_result(r, PB_SIM_ALREADY_IN_TARGET_STATE, "already in state %u", (unsigned)target);
        return;
    }
    if (target == PB_SIM_STATE_QUITTING) {
        if (sim->state == PB_SIM_STATE_PLAYING || sim->state == PB_SIM_STATE_PAUSED)
            reset_scopes(sim, PB_SIM_SCOPE_TIME | PB_SIM_SCOPE_STATE | PB_SIM_SCOPE_SPAWNED, r);
        sim->state = PB_SIM_STATE_QUITTING;
        set_result(r, PB_SIM_RESULT_OK, NULL);
        return;
    }
    if (sim->state == PB_SIM_STATE_NO_WORLD || sim->state == PB_SIM_STATE_LOADING_WORLD ||
        sim->state == PB_SIM_STATE_QUITTING) {
        set_result(r, PB_SIM_INCORRECT_TRANSITION, "cannot go from state %u to %u%s", (unsigned)sim->state,
                   (unsigned)target, sim->state == PB_SIM_STATE_NO_WORLD ? ": no world loaded" : "");
        return;
    }
    if (target == PB_SIM_STATE_STOPPED) {
        reset_scopes(sim, PB_SIM_SCOPE_TIME | PB_SIM_SCOPE_STATE | PB_SIM_SCOPE_SPAWNED, r);
        sim->state = PB_SIM_STATE_STOPPED;
        return;
    }
    /* STOPPED -> PAUSED is allowed (spec §6.2): start paused, no step */
    sim->state = target;
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_reset_simulation(pb_sim *sim, uint8_t scope, pb_sim_result *r)
{
    if (!sim->have_world) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "no world loaded");
        return;
    }
    const bool all = scope == PB_SIM_SCOPE_DEFAULT || scope == PB_SIM_SCOPE_ALL;
    if (!all && (scope & ~(unsigned)(PB_SIM_SCOPE_TIME | PB_SIM_SCOPE_STATE | PB_SIM_SCOPE_SPAWNED))) {
        set_result(r, PB_SIM_RESULT_FEATURE_UNSUPPORTED,
                   "scope %u has bits other than TIME (1), STATE (2), SPAWNED (4)", (unsigned)scope);
        return;
    }
    reset_scopes(sim, all ? (PB_SIM_SCOPE_TIME | PB_SIM_SCOPE_STATE | PB_SIM_SCOPE_SPAWNED) : scope, r);
    if (all)
        sim->state = PB_SIM_STATE_STOPPED; /* "as if relaunched" (spec §6.5) */
}

/* ---------------------------------------------------------------- stepping */

/* Distance between two entity configurations in the metric of the entity's C-space. */
static double q_distance(const pb_footprint *fp, const double *a, const double *b)
{
    double w[SIM_Q];
    sim_space_weights(fp, w);
    double sum = 0.0;
    for (int k = 0; k < SIM_Q; k++) {
        const double d = w[k] * (k < 2 ? b[k] - a[k] : wrap_angle(b[k] - a[k]));
        sum += d * d;
    }
    return sqrt(sum);
}

/* The configuration a fraction `t` of the way from `a` to `b`: the C-space's straight edge
 * (angles the short way round), as the planners' edge check walks it. */
static void q_interpolate(const double *a, const double *b, double t, double *out)
{
    for (int k = 0; k < SIM_Q; k++)
        out[k] = k < 2 ? a[k] + t * (b[k] - a[k]) : wrap_angle(a[k] + t * wrap_angle(b[k] - a[k]));
}

/* A scene object moves under its twist; a step that would collide stops it at the last free
 * pose on the step (bisection, 12 halvings), as in planar worlds. The check is per step: a
 * fast object could pass through something thin between two steps. */
static void step_object(pb_sim *sim, sim_entity *e)
{
    bool moving = false;
    for (int k = 0; k < 6; k++)
        moving |= e->twist3[k] != 0.0;
    if (!moving)
        return;
    double target[7];
    scene_twist_pose(e->pose3, e->twist3, sim->dt, target);
    if (object_is_free(sim, &e->shape, target, e->obstacle, NULL, 0)) {
        place_object(sim, e, target);
        return;
    }
    double lo = 0.0, hi = 1.0, best[7];
    memcpy(best, e->pose3, sizeof best);
    for (int k = 0; k < 12; k++) {
        const double t = (lo + hi) / 2;
        double q[7];
        scene_twist_pose(e->pose3, e->twist3, sim->dt * t, q);
        if (object_is_free(sim, &e->shape, q, e->obstacle, NULL, 0)) {
            lo = t;
            memcpy(best, q, sizeof best);
        } else {
            hi = t;
        }
    }
    place_object(sim, e, best);
    memset(e->twist3, 0, sizeof e->twist3);
}

/* The scene's robot moves along its path: each step `follow_speed * dt` along the straight
 * joint-space edge towards the waypoint ahead, the step itself checked with the engine's
 * (certified) edge check against the obstacles and objects as they are now; a blocked step
 * stops it at the last free configuration found by bisection (12 halvings). */
static void step_arm(pb_sim *sim, sim_entity *e)
{
    if (!(e->n_path > 0 && e->path_next < e->n_path))
        return;
    const size_t dim = (size_t)sim->arm_dim;
    const double *goal = e->path + dim * e->path_next;
    const double d = pb_engine_distance(sim->engine, e->joints, goal), reach = e->follow_speed * sim->dt;
    double target[PB_MAX_DIM];
    if (d <= reach) {
        memcpy(target, goal, dim * sizeof *target);
        e->path_next++;
    } else {
        pb_engine_interpolate(sim->engine, e->joints, goal, reach / d, target);
    }
    if (pb_engine_visible(sim->engine, e->joints, target)) {
        memcpy(e->joints, target, dim * sizeof *target);
    } else {
        double lo = 0.0, hi = 1.0, best[PB_MAX_DIM];
        memcpy(best, e->joints, dim * sizeof *best);
        for (int k = 0; k < 12; k++) {
            const double t = (lo + hi) / 2;
            double q[PB_MAX_DIM];
            pb_engine_interpolate(sim->engine, e->joints, target, t, q);
            if (pb_engine_visible(sim->engine, e->joints, q)) {
                lo = t;
                memcpy(best, q, dim * sizeof *best);
            } else {
                hi = t;
            }
        }
        memcpy(e->joints, best, dim * sizeof *best);
        stop_following(e, FOLLOW_COLLIDED);
    }
    if (e->path_next >= e->n_path)
        stop_following(e, FOLLOW_REACHED); /* no-op when the last motion collided */
}

/* Move one entity by its twist (or along its path) for one time step. A path is followed
 * along the straight C-space edges between waypoints (the edges the planner and
 * pb_sim_follow_begin() checked). A motion that would collide stops the entity at the last
 * free configuration, found by bisection on the step. */
static void step_entity(pb_sim *sim, sim_entity *e)
{
    if (sim->scene) {
        if (e->is_arm)
            step_arm(sim, e);
        else
            step_object(sim, e);
        return;
    }
    double from[SIM_Q], target[SIM_Q];
    entity_q(e, from);
    const bool following = e->n_path > 0 && e->path_next < e->n_path;
    if (following) {
        const double *goal = e->path + SIM_Q * e->path_next;
        const double d = q_distance(&e->footprint, from, goal), reach = e->follow_speed * sim->dt;
        if (d <= reach) {
            memcpy(target, goal, sizeof target);
            e->path_next++;
        } else {
            q_interpolate(from, goal, reach / d, target);
        }
    } else {
        if (e->twist[0] == 0 && e->twist[1] == 0 && e->twist[2] == 0)
            return;
        target[0] = e->pose[0] + e->twist[0] * sim->dt;
        target[1] = e->pose[1] + e->twist[1] * sim->dt;
        target[2] = wrap_angle(e->pose[2] + e->twist[2] * sim->dt);
        target[3] = from[3];
    }
    pb_footprint fp = sim_footprint_at(&e->footprint, target);
    if (pose_is_free(sim, &fp, target, e->obstacle, NULL, 0)) {
        place_entity(sim, e, target);
    } else {
        double lo = 0.0, hi = 1.0, best[SIM_Q];
        memcpy(best, from, sizeof best);
        for (int k = 0; k < 12; k++) {
            const double t = (lo + hi) / 2;
            double q[SIM_Q];
            q_interpolate(from, target, t, q);
            fp = sim_footprint_at(&e->footprint, q);
            if (pose_is_free(sim, &fp, q, e->obstacle, NULL, 0)) {
                lo = t;
                memcpy(best, q, sizeof best);
            } else {
                hi = t;
            }
        }
        place_entity(sim, e, best);
        e->twist[0] = e->twist[1] = e->twist[2] = 0.0;
        stop_following(e, FOLLOW_COLLIDED);
    }
    if (following && e->path_next >= e->n_path)
        stop_following(e, FOLLOW_REACHED); /* no-op when the last motion collided */
}

void pb_sim_step_once(pb_sim *sim)
{
    for (size_t i = 0; i < sim->n_entities; i++)
        if (!sim->entities[i].is_static)
            step_entity(sim, &sim->entities[i]);
    sim->time += sim->dt;
    if (sim->on_step)
        sim->on_step(sim, sim->on_step_payload);
}

void pb_sim_set_step_callback(pb_sim *sim, void (*fn)(pb_sim *sim, void *payload), void *payload)
{
    sim->on_step = fn;
    sim->on_step_payload = payload;
}

static bool step_precondition(pb_sim *sim, uint64_t steps, uint64_t limit, pb_sim_result *r)
{
    if (!sim->have_world) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "no world loaded");
        return false;
    }
    if (sim->state != PB_SIM_STATE_PAUSED && sim->state != PB_SIM_STATE_STOPPED) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "the simulation must be paused before stepping (state %u)", (unsigned)sim->state);
        return false;
    }
    if (steps > limit) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%llu steps is more than this call allows (%llu)%s",
                   (unsigned long long)steps, (unsigned long long)limit,
                   limit == MAX_SERVICE_STEPS ? "; use the simulate_steps action" : "");
        return false;
    }
    return true;
}

void pb_sim_step_simulation(pb_sim *sim, uint64_t steps, pb_sim_result *r)
{
    if (!step_precondition(sim, steps, MAX_SERVICE_STEPS, r))
        return;
    for (uint64_t i = 0; i < steps; i++)
        pb_sim_step_once(sim);
    if (steps > 0)
        sim->state = PB_SIM_STATE_PAUSED;
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

bool pb_sim_steps_begin(pb_sim *sim, uint64_t steps, pb_sim_result *r)
{
    if (!step_precondition(sim, steps, MAX_ACTION_STEPS, r))
        return false;
    set_result(r, PB_SIM_RESULT_OK, NULL);
    return true;
}

void pb_sim_steps_end(pb_sim *sim)
{
    if (sim->have_world && sim->state != PB_SIM_STATE_QUITTING)
        sim->state = PB_SIM_STATE_PAUSED;
}

/* ---------------------------------------------------------------- worlds */

static void world_info(const sim_world *w, pb_sim_world_info *info)
{
    *info =
        (pb_sim_world_info){w->name, w->uri, w->description, (const char *const *)w->tags.items, w->tags.n};
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(a, b);
}

static void scan_worlds(pb_sim *sim)
{
    for (size_t i = 0; i < sim->n_available; i++)
        sim_world_finish(&sim->available[i]);
    sim->n_available = 0;
    DIR *dir = opendir(sim->worlds_dir);
    if (!dir)
        return;
    struct dirent *d;
    char names[64][256];
    size_t n = 0;
    while ((d = readdir(dir)) && n < 64) {
        const size_t len = strlen(d->d_name);
        if (len > 4 && len < 256 && strcmp(d->d_name + len - 4, ".xml") == 0)
            snprintf(names[n++], 256, "%s", d->d_name);
    }
    closedir(dir);
    qsort(names, n, sizeof names[0], compare_names);
    for (size_t i = 0; i < n; i++) {
        char path[1400], msg[PB_SIM_MESSAGE_SIZE];
        snprintf(path, sizeof path, "%.1000s/%.255s", sim->worlds_dir, names[i]);
        if (!sim_is_world_file(path))
            continue;
        if (strlen(path) < sizeof sim->available_path[0] &&
            sim_world_load(&sim->available[sim->n_available], path, NULL, 0, NULL, sim->robots_dir, false,
                           msg, sizeof msg) == SIM_LOAD_OK) {
            snprintf(sim->available_path[sim->n_available], sizeof sim->available_path[0], "%s", path);
            sim->n_available++;
        }
    }
}

/* Does `path` resolve inside `dir` (both through realpath)? */
static bool inside_dir(const char *path, const char *dir);

/* May LoadWorld read `path` under --confine-worlds: inside the worlds folder, the maps folder
 * beside it (where the bundled worlds' maps are), or the robots folder. */
static bool confined_ok(const pb_sim *sim, const char *path)
{
    char maps[PATH_MAX];
    snprintf(maps, sizeof maps, "%s/../maps", sim->worlds_dir);
    return inside_dir(path, sim->worlds_dir) || inside_dir(path, maps) || inside_dir(path, sim->robots_dir);
}

static bool inside_dir(const char *path, const char *dir)
{
    char real_path[PATH_MAX], real_dir[PATH_MAX];
    if (!realpath(path, real_path) || !realpath(dir, real_dir))
        return false;
    const size_t n = strlen(real_dir);
    return strncmp(real_path, real_dir, n) == 0 && (real_path[n] == '/' || (n == 1 && real_dir[0] == '/'));
}

void pb_sim_load_world(pb_sim *sim, const char *uri, const char *resource_string,
                       bool fail_on_unsupported_element, pb_sim_result *r, pb_sim_world_info *info)
{
    static const sim_world empty = {0};
    world_info(&empty, info);
    info->name = info->uri = info->description = "";
    uri = str(uri);
    resource_string = str(resource_string);
    char path[4096];
    const char *file = NULL;
    if (uri[0]) {
        if (strncmp(uri, "world://", 8) == 0) {
            scan_worlds(sim);
            for (size_t i = 0; i < sim->n_available && !file; i++)
                if (strcmp(sim->available[i].uri, uri) == 0) {
                    snprintf(path, sizeof path, "%s", sim->available_path[i]);
                    file = path;
                }
            if (!file) {
                set_result(r, PB_SIM_RESULT_NOT_FOUND, "no world '%.100s' (see GetAvailableWorlds)", uri);
                return;
            }
        } else {
            const char *p = strncmp(uri, "file://", 7) == 0 ? uri + 7 : uri;
            const size_t len = strlen(p);
            if (strstr(uri, "://") && strncmp(uri, "file://", 7) != 0) {
                set_result(r, PB_SIM_WORLD_UNSUPPORTED_FORMAT,
                           "uri scheme of '%.100s' is not world:// or file://", uri);
                return;
            }
            if (len < 4 || strcmp(p + len - 4, ".xml") != 0) {
                set_result(r, PB_SIM_WORLD_UNSUPPORTED_FORMAT, "'%.100s' is not a .xml <simworld> file", uri);
                return;
            }
            snprintf(path, sizeof path, "%s", p);
            file = path;
            if (sim->confine_worlds && !confined_ok(sim, path)) {
                /* the same answer whether or not the file exists elsewhere */
                set_result(r, PB_SIM_RESULT_NOT_FOUND, "no world '%.100s' in the worlds folder", uri);
                return;
            }
        }
    } else if (!resource_string[0]) {
        set_result(r, PB_SIM_WORLD_NO_RESOURCE, "both uri and resource_string are empty");
        return;
    }
    sim_world w;
    char msg[PB_SIM_MESSAGE_SIZE];
    const uint8_t previous = sim->state;
    sim->state = PB_SIM_STATE_LOADING_WORLD;
    const sim_load_error err =
        sim_world_load(&w, file, file ? NULL : resource_string, strlen(resource_string), sim->worlds_dir,
                       sim->robots_dir, fail_on_unsupported_element, msg, sizeof msg);
    sim->state = previous;
    switch (err) {
    case SIM_LOAD_OK:
        break;
    case SIM_LOAD_NOT_FOUND:
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "%s", msg);
        return;
    case SIM_LOAD_MISSING_ASSET:
        set_result(r, PB_SIM_WORLD_MISSING_ASSETS, "%s", msg);
        return;
    case SIM_LOAD_UNSUPPORTED:
        set_result(r, PB_SIM_WORLD_UNSUPPORTED_ELEMENTS, "%s", msg);
        return;
    default:
        set_result(r, PB_SIM_WORLD_RESOURCE_PARSE_ERROR, "%s", msg);
        return;
    }
    if (sim->confine_worlds && ((w.map_path && !confined_ok(sim, w.map_path)) ||
                                (w.scene_path && !confined_ok(sim, w.scene_path)))) {
        const bool map = w.map_path != NULL;
        sim_world_finish(&w);
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "the world's %s is not in the worlds folder",
                   map ? "map" : "scene");
        return;
    }
    unload(sim);
    if (!install_world(sim, &w, msg, sizeof msg)) {
        set_result(r, PB_SIM_WORLD_RESOURCE_PARSE_ERROR, "%s", msg);
        return;
    }
    world_info(&sim->world, info);
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_unload_world(pb_sim *sim, pb_sim_result *r)
{
    if (!sim->have_world) {
        set_result(r, PB_SIM_NO_WORLD_LOADED, "no world loaded");
        return;
    }
    unload(sim);
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_get_current_world(pb_sim *sim, pb_sim_result *r, pb_sim_world_info *info)
{
    static const sim_world empty = {0};
    world_info(&empty, info);
    info->name = info->uri = info->description = "";
    if (!sim->have_world) {
        set_result(r, PB_SIM_NO_WORLD_LOADED, "no world loaded");
        return;
    }
    world_info(&sim->world, info);
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_get_available_worlds(pb_sim *sim, const pb_sim_tags_filter *filter, pb_sim_result *r,
                                 const pb_sim_world_info **worlds, size_t *n)
{
    *worlds = sim->available_info;
    *n = 0;
    if (filter && !tags_filter_valid(filter, "filter_mode", r))
        return;
    scan_worlds(sim);
    for (size_t i = 0; i < sim->n_available; i++)
        if (tags_match(&sim->available[i].tags, filter))
            world_info(&sim->available[i], &sim->available_info[(*n)++]);
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* ---------------------------------------------------------------- planning */

static const char *const arm_joint_names[] = {"joint2"};

/* How many joints an entity of footprint `fp` has (the arm: its elbow); `names` (may be
 * NULL) gets their names. */
static size_t joints_of(const pb_footprint *fp, const char *const **names)
{
    if (names)
        *names = arm_joint_names;
    return fp->type == PB_FOOTPRINT_ARM ? 1 : 0;
}

size_t pb_sim_get_entity_joints(pb_sim *sim, const char *entity, const char *const **names, double *values)
{
    const sim_entity *e = find_entity(sim, entity);
    if (names)
        *names = arm_joint_names;
    if (!e)
        return 0;
    if (sim->scene) {
        const size_t n = e->is_arm ? (size_t)sim->arm_dim : 0;
        if (names)
            *names = sim->arm_joint_names;
        if (n && values)
            memcpy(values, e->joints, n * sizeof *values);
        return n;
    }
    const size_t n = joints_of(&e->footprint, names);
    if (n && values)
        values[0] = e->footprint.joint2;
    return n;
}

/* The entities other than `self` as obstacles of its C-space (a snapshot); `*index` (when
 * `index` is not NULL; the caller frees it) maps each back to its entity. */
static bool others_of(const pb_sim *sim, const sim_entity *self, sim_obstacle **out, size_t **index,
                      size_t *n)
{
    *out = NULL;
    *n = 0;
    if (index)
        *index = NULL;
    if (sim->n_entities <= 1)
        return true;
    sim_obstacle *o = malloc((sim->n_entities - 1) * sizeof *o);
    size_t *ix = index ? malloc((sim->n_entities - 1) * sizeof *ix) : NULL;
    if (!o || (index && !ix)) {
        free(o);
        free(ix);
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < sim->n_entities; i++) {
        const sim_entity *e = &sim->entities[i];
        if (e == self)
            continue;
        o[k].footprint = e->footprint;
        memcpy(o[k].pose, e->pose, sizeof o[k].pose);
        pb_footprint_aabb(&e->footprint, e->pose, o[k].lo, o[k].hi);
        if (ix)
            ix[k] = i;
        k++;
    }
    *out = o;
    *n = k;
    if (index)
        *index = ix;
    return true;
}

/* The C-space of entity `e` in the world as it is now (owned by the caller); `*index` maps
 * its obstacles to entities (the caller frees it). NULL with `why` on failure. */
static pb_engine *entity_space(pb_sim *sim, const sim_entity *e, size_t **index, char *why, size_t size)
{
    sim_obstacle *others;
    size_t n;
    if (!others_of(sim, e, &others, index, &n)) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    pb_engine *space = NULL;
    sim_space_create(&space, sim->plan_map, &e->footprint, others, n, e->pose[2], why, size);
    free(others);
    if (!space) {
        free(*index);
        *index = NULL;
    }
    return space;
}

static void explain_hit(pb_sim *sim, const sim_space_hit *hit, const size_t *index, char *why, size_t size)
{
    switch (hit->kind) {
    case PB_HIT_OUTSIDE:
        snprintf(why, size, "the footprint leaves the map [0, %g] x [0, %g]", pb_engine_upper(sim->engine)[0],
                 pb_engine_upper(sim->engine)[1]);
        break;
    case PB_HIT_MAP:
        snprintf(why, size, "hits an obstacle of the map at pixel (%d, %d)", hit->pixel_x, hit->pixel_y);
        break;
    case PB_HIT_OBSTACLE:
        snprintf(why, size, "overlaps entity '%.128s'", sim->entities[index[hit->other]].name);
        break;
    default:
        snprintf(why, size, "malformed footprint or pose");
        break;
    }
}

/* "(x, y, yaw)" or, for an arm, "(x, y, yaw, joint2)". */
static void format_q(const pb_footprint *fp, const double *q, char *out, size_t size)
{
    if (fp->type == PB_FOOTPRINT_ARM)
        snprintf(out, size, "(%.3f, %.3f, %.3f, joint2 %.3f)", q[0], q[1], q[2], q[3]);
    else
        snprintf(out, size, "(%.3f, %.3f, %.3f)", q[0], q[1], q[2]);
}

/* Are the segments of `path` (`n` configurations of SIM_Q) free in entity `e`'s C-space as
 * the world is now, by the planners' edge check? Segment i ends at waypoint i and starts at
 * waypoint i - 1, or at `from` for i = 0 (no segment 0 when `from` is NULL). False with the
 * first blocked segment, where and what it hits in `why`. */
static bool path_is_free(pb_sim *sim, const sim_entity *e, const double *from, const double *path, size_t n,
                         char *why, size_t size)
{
    size_t *index = NULL;
    pb_engine *space = entity_space(sim, e, &index, why, size);
    if (!space)
        return false;
    bool ok = true;
    for (size_t i = from ? 0 : 1; i < n && ok; i++) {
        const double *qa = i == 0 ? from : path + SIM_Q * (i - 1);
        double a[SIM_Q], b[SIM_Q], where[SIM_Q], full[SIM_Q];
        sim_space_from_full(&e->footprint, qa, a);
        sim_space_from_full(&e->footprint, path + SIM_Q * i, b);
        sim_space_hit hit;
        if (!sim_space_segment(space, a, b, where, &hit)) {
            char what[PB_SIM_MESSAGE_SIZE], at_q[96], start[32];
            memcpy(full, qa, sizeof full);
            sim_space_to_full(&e->footprint, where, full);
            explain_hit(sim, &hit, index, what, sizeof what);
            format_q(&e->footprint, full, at_q, sizeof at_q);
            if (i == 0)
                snprintf(start, sizeof start, "the current pose");
            else
                snprintf(start, sizeof start, "waypoint %zu", i - 1);
            snprintf(why, size, "segment %zu (%.20s to waypoint %zu) is blocked at %.60s: %.90s", i, start, i,
                     at_q, what);
            ok = false;
        }
    }
    pb_engine_destroy(space);
    free(index);
    return ok;
}

/* "(j1, j2, ...)": a joint vector of the scene's robot. */
static void format_joints(const double *q, int dim, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "(");
    for (int i = 0; i < dim && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s%.3f", i ? ", " : "", q[i]);
    if (len < size)
        snprintf(out + len, size - len, ")");
}

/* The scene robot's path (`n` rows of arm_dim joints; segment 0 from `from`, none when NULL)
 * against the engine as it is now, with the engine's edge check (the planners' check). False
 * with the first blocked segment, where (the first configuration 0.005 rad apart that
 * collides) and what it hits in `why`. */
static bool arm_path_is_free(pb_sim *sim, const double *from, const double *path, size_t n, char *why,
                             size_t size)
{
    const size_t dim = (size_t)sim->arm_dim;
    for (size_t i = from ? 0 : 1; i < n; i++) {
        const double *a = i == 0 ? from : path + dim * (i - 1), *b = path + dim * i;
        if (pb_engine_visible(sim->engine, a, b))
            continue;
        const double length = pb_engine_distance(sim->engine, a, b);
        const uint64_t steps = (uint64_t)fmin(fmax(ceil(length / 0.005), 1.0), 1e6);
        double where[PB_MAX_DIM];
        char what[PB_SIM_MESSAGE_SIZE], at_q[200], start[32];
        snprintf(what, sizeof what, "a contact the edge check finds between these configurations");
        memcpy(where, a, dim * sizeof *where);
        for (uint64_t k = 0; k <= steps; k++) {
            pb_engine_interpolate(sim->engine, a, b, (double)k / (double)steps, where);
            if (!arm_is_free(sim, where, what, sizeof what))
                break;
        }
        format_joints(where, sim->arm_dim, at_q, sizeof at_q);
        if (i == 0)
            snprintf(start, sizeof start, "the current joints");
        else
            snprintf(start, sizeof start, "waypoint %zu", i - 1);
        snprintf(why, size, "segment %zu (%.20s to waypoint %zu) is blocked at joints %.60s: %.80s", i, start,
                 i, at_q, what);
        return false;
    }
    return true;
}

/* PlanPath for the scene's robot (pb_sim_plan_begin() checked the entity and the planner):
 * the goal is a named joint configuration or `goal_joints`, and the job plans on an engine of
 * its own with the scene's objects copied in. */
static bool arm_plan_begin(pb_sim *sim, sim_entity *e, const pb_sim_plan_request *rq, const char *planner,
                           pb_sim_plan_job **out, pb_sim_plan_response *rs)
{
    pb_sim_result *r = &rs->result;
    const int dim = sim->arm_dim;
    double goal[PB_MAX_DIM];
    char why[PB_SIM_MESSAGE_SIZE];
    if (str(rq->goal_name)[0]) {
        const sim_named_pose *p = find_named_pose(sim, rq->goal_name);
        if (!p) {
            set_result(r, PB_SIM_RESULT_NOT_FOUND, "no named pose '%.100s'", rq->goal_name);
            return false;
        }
        if (!p->n_joints) {
            set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "named pose '%.100s' is a pose, not a joint configuration of '%s'", p->name, e->name);
            return false;
        }
        memcpy(goal, p->joints, (size_t)dim * sizeof *goal);
    } else if (rq->n_goal_joints != (size_t)dim) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "goal_joints: '%s' plans its %d joints (%s, ...): give %d values or a goal_name, got %zu",
                   e->name, dim, sim->arm_joint_names[0], dim, rq->n_goal_joints);
        return false;
    } else {
        for (int k = 0; k < dim; k++) {
            if (!isfinite(rq->goal_joints[k])) {
                set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal_joints: values must be finite");
                return false;
            }
            goal[k] = rq->goal_joints[k];
        }
    }
    if (!(rq->time_limit >= 0) || !(rq->speed >= 0) || !isfinite(rq->speed)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "time_limit and speed must be >= 0");
        return false;
    }
    if (!arm_is_free(sim, goal, why, sizeof why)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal: %s", why);
        rs->outcome = pb_outcome_str(PB_OUTCOME_INVALID_GOAL);
        return false;
    }
    pb_sim_plan_job *job = calloc(1, sizeof *job);
    pb_diag diag = {0};
    if (job && !sim->arm_plan) /* the spare engine is out with another plan: load one */
        pb_engine_load(&sim->arm_plan, "manipulator", sim->world.scene_path, NULL, 0, &diag);
    if (job && sim->arm_plan) {
        job->arm_engine = sim->arm_plan;
        sim->arm_plan = NULL;
    }
    if (!job || !job->arm_engine || !(job->entity = sim_strdup(e->name)) ||
        pb_manipulator_objects_copy(job->arm_engine, sim->engine) != PB_OK) {
        pb_sim_plan_job_destroy(job);
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s", diag.message[0] ? diag.message : "out of memory");
        return false;
    }
    job->arm_dim = dim;
    memcpy(job->arm_start, e->joints, (size_t)dim * sizeof *goal);
    memcpy(job->arm_goal, goal, (size_t)dim * sizeof *goal);
    snprintf(job->planner, sizeof job->planner, "%s", planner);
    job->time_limit = rq->time_limit > 0 ? fmin(rq->time_limit, 5.0) : 1.0;
    job->seed = rq->seed ? rq->seed : 1;
    job->follow = rq->follow;
    job->speed = rq->speed > 0 ? rq->speed : ARM_SPEED;
    job->entity_serial = e->serial;
    job->world_serial = sim->world_serial;
    atomic_init(&job->done, 0);
    *out = job;
    return true;
}

void pb_sim_plan_job_destroy(pb_sim_plan_job *job)
{
    if (!job)
        return;
    pb_engine_destroy(job->arm_engine);
    pb_engine_destroy(job->map);
    free(job->others);
    free(job->entity);
    free(job->path);
    free(job);
}

bool pb_sim_plan_begin(pb_sim_plan_job **out, pb_sim *sim, const pb_sim_plan_request *rq,
                       pb_sim_plan_response *rs)
{
    *out = NULL;
    memset(rs, 0, sizeof *rs);
    rs->outcome = "";
    rs->path = sim->plan_path;
    rs->joints = sim->plan_joints;
    rs->joint_names = arm_joint_names;
    sim_entity *e = find_entity(sim, rq->entity);
    pb_sim_result *r = &rs->result;
    if (!e) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", str(rq->entity));
        return false;
    }
    if (e->is_static) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' is static", e->name);
        return false;
    }
    const char *planner = str(rq->planner)[0] ? rq->planner : "rrt";
    if (!pb_planner_registry_find(planner) || strlen(planner) >= sizeof((pb_sim_plan_job *)0)->planner) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "no planner named '%.100s' (planbench list shows them)",
                   planner);
        return false;
    }
    if (sim->scene && !e->is_arm) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "'%s' is an object of a manipulator scene: only the robot '%s' plans (objects move by "
                   "SetEntityState or a twist)",
                   e->name, sim->world.robot_entity);
        return false;
    }
    if (e->is_arm) {
        rs->joint_names = sim->arm_joint_names;
        return arm_plan_begin(sim, e, rq, planner, out, rs);
    }
    double goal[SIM_Q];
    entity_q(e, goal); /* joints not given keep their values */
    char why[PB_SIM_MESSAGE_SIZE];
    if (str(rq->goal_name)[0]) {
        const sim_named_pose *p = find_named_pose(sim, rq->goal_name);
        if (!p) {
            set_result(r, PB_SIM_RESULT_NOT_FOUND, "no named pose '%.100s'", rq->goal_name);
            return false;
        }
        memcpy(goal, p->pose, 3 * sizeof *goal);
    } else if (!pose_from_msg(sim, &rq->goal, "", goal, why, sizeof why)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal: %s", why);
        return false;
    }
    const size_t n_joints = joints_of(&e->footprint, NULL);
    if (rq->n_goal_joints != 0 && rq->n_goal_joints != n_joints) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal_joints: '%s' has %zu joint%s%s, got %zu values",
                   e->name, n_joints, n_joints == 1 ? "" : "s", n_joints ? " (joint2)" : "",
                   rq->n_goal_joints);
        return false;
    }
    for (size_t k = 0; k < rq->n_goal_joints; k++) {
        if (!isfinite(rq->goal_joints[k])) {
            set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal_joints: values must be finite");
            return false;
        }
        goal[3 + k] = wrap_angle(rq->goal_joints[k]);
    }
    /* the planner runs off the server thread, but a client still waits for its answer */
    const double time_limit = rq->time_limit > 0 ? fmin(rq->time_limit, 5.0) : 1.0;
    if (!(rq->time_limit >= 0) || !(rq->speed >= 0) || !isfinite(rq->speed)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "time_limit and speed must be >= 0");
        return false;
    }
    const pb_footprint goal_fp = sim_footprint_at(&e->footprint, goal);
    if (!pose_is_free(sim, &goal_fp, goal, e->obstacle, why, sizeof why)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "goal: %s", why);
        rs->outcome = pb_outcome_str(PB_OUTCOME_INVALID_GOAL);
        return false;
    }
    pb_sim_plan_job *job = calloc(1, sizeof *job);
    if (!job || !(job->entity = sim_strdup(e->name)) || pb_engine_share(&job->map, sim->plan_map) != PB_OK ||
        !others_of(sim, e, &job->others, NULL, &job->n_others)) {
        pb_sim_plan_job_destroy(job);
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return false;
    }
    job->footprint = e->footprint;
    entity_q(e, job->start);
    memcpy(job->goal, goal, sizeof goal);
    snprintf(job->planner, sizeof job->planner, "%s", planner);
    job->time_limit = time_limit;
    job->seed = rq->seed ? rq->seed : 1;
    job->follow = rq->follow;
    job->speed = rq->speed > 0 ? rq->speed : 40.0;
    job->entity_serial = e->serial;
    job->world_serial = sim->world_serial;
    atomic_init(&job->done, 0);
    *out = job;
    return true;
}

void pb_sim_plan_run(pb_sim_plan_job *job)
{
    sim_plan_run(job);
}

void pb_sim_plan_cancel(pb_sim_plan_job *job)
{
    atomic_store(&job->cancel, 1);
}

bool pb_sim_plan_is_done(const pb_sim_plan_job *job)
{
    return atomic_load(&((pb_sim_plan_job *)job)->done) != 0;
}

void pb_sim_plan_finish(pb_sim *sim, pb_sim_plan_job *job, pb_sim_plan_response *rs)
{
    memset(rs, 0, sizeof *rs);
    pb_sim_result *r = &rs->result;
    const char *const *names;
    const bool arm = job->arm_engine != NULL;
    const size_t n_joints = arm ? (size_t)job->arm_dim : joints_of(&job->footprint, &names);
    const size_t stride = arm ? n_joints : SIM_Q; /* of job->path */
    if (arm) {
        names = sim->arm_joint_names;
        /* the job's engine goes back for the next plan (a world loaded meanwhile has its own) */
        if (!sim->arm_plan && sim->scene && job->world_serial == sim->world_serial) {
            sim->arm_plan = job->arm_engine;
            job->arm_engine = NULL;
        }
    }
    rs->outcome = job->outcome ? job->outcome : "";
    rs->cost = job->cost;
    rs->planning_time = job->planning_time;
    rs->joint_names = names;
    rs->n_joints = n_joints;
    /* the response borrows from the sim: the job is the caller's to destroy */
    const size_t n = job->n_path;
    double *path = n ? realloc(sim->plan_path, n * 3 * sizeof *path) : sim->plan_path;
    if (path)
        sim->plan_path = path;
    double *joints =
        n && n_joints ? realloc(sim->plan_joints, n * n_joints * sizeof *joints) : sim->plan_joints;
    if (joints)
        sim->plan_joints = joints;
    rs->path = sim->plan_path;
    rs->joints = sim->plan_joints;
    if (n && (!path || (n_joints && !joints))) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (arm) /* the robot's base stays at the world origin: the identity pose */
            memset(path + 3 * i, 0, 3 * sizeof *path);
        else
            memcpy(path + 3 * i, job->path + SIM_Q * i, 3 * sizeof *path);
        for (size_t k = 0; k < n_joints; k++)
            joints[n_joints * i + k] = job->path[stride * i + (arm ? 0 : 3) + k];
    }
    rs->n_path = n;
    if (job->status == PB_ERR_NOT_FOUND) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "%s", job->why);
        return;
    }
    if (job->status != PB_OK) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "planning failed: %s", job->why);
        return;
    }
    if (n == 0) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "no path found (%s)", rs->outcome);
        return;
    }
    /* The plan saw the world as it was when the request came; check it against the world
     * as it is now. The path is returned in any case, for the client to inspect. */
    if (job->world_serial != sim->world_serial) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the world was loaded or unloaded while planning");
        return;
    }
    sim_entity *e = find_entity(sim, job->entity);
    if (!e || e->serial != job->entity_serial) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "'%.128s' was deleted while its path was planned",
                   job->entity);
        return;
    }
    if (e->is_static) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' became static while its path was planned",
                   e->name);
        return;
    }
    if (arm && memcmp(e->joints, job->arm_start, n_joints * sizeof *e->joints) != 0) {
        char was[200], is[200];
        format_joints(job->arm_start, job->arm_dim, was, sizeof was);
        format_joints(e->joints, job->arm_dim, is, sizeof is);
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "'%s' moved while its path was planned (from %.100s to %.100s); plan again", e->name, was,
                   is);
        return;
    }
    double now[SIM_Q];
    entity_q(e, now);
    if (!arm && memcmp(now, job->start, sizeof now) != 0) {
        char was[96], is[96];
        format_q(&e->footprint, job->start, was, sizeof was);
        format_q(&e->footprint, now, is, sizeof is);
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "'%s' moved while its path was planned (from %s to %s); plan again", e->name, was, is);
        return;
    }
    char why[PB_SIM_MESSAGE_SIZE];
    if (arm ? !arm_path_is_free(sim, NULL, job->path, n, why, sizeof why)
            : !path_is_free(sim, e, NULL, job->path, n, why, sizeof why)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "an entity moved into the path while it was planned: %s", why);
        return;
    }
    if (job->follow) {
        double *copy = realloc(e->path, n * stride * sizeof *copy);
        if (!copy) {
            set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
            return;
        }
        memcpy(copy, job->path, n * stride * sizeof *copy);
        e->path = copy;
        e->n_path = n;
        e->path_next = 1;
        e->follow_id = ++sim->next_follow_id;
        e->follow_end = FOLLOW_ON;
        e->follow_speed = job->speed;
        e->twist[0] = e->twist[1] = e->twist[2] = 0.0;
    }
    set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_plan_path(pb_sim *sim, const pb_sim_plan_request *rq, pb_sim_plan_response *rs)
{
    pb_sim_plan_job *job;
    if (!pb_sim_plan_begin(&job, sim, rq, rs))
        return;
    pb_sim_plan_run(job);
    pb_sim_plan_finish(sim, job, rs);
    pb_sim_plan_job_destroy(job);
}

bool pb_sim_is_following(pb_sim *sim, const char *entity)
{
    const sim_entity *e = find_entity(sim, entity);
    return e && e->n_path > 0 && e->path_next < e->n_path;
}

/* ---------------------------------------------------------------- the follow_path action */

static sim_entity *find_follower(pb_sim *sim, uint64_t goal)
{
    for (size_t i = 0; i < sim->n_entities; i++)
        if (goal != 0 && sim->entities[i].follow_id == goal)
            return &sim->entities[i];
    return NULL;
}

/* Length of the rest of entity e's path from where it is, in its C-space's metric. */
static double path_remaining(pb_sim *sim, const sim_entity *e)
{
    double left = 0.0, now[SIM_Q];
    if (e->is_arm) {
        const size_t dim = (size_t)sim->arm_dim;
        const double *from = e->joints;
        for (size_t i = e->path_next; i < e->n_path; i++) {
            left += pb_engine_distance(sim->engine, from, e->path + dim * i);
            from = e->path + dim * i;
        }
        return left;
    }
    entity_q(e, now);
    const double *from = now;
    for (size_t i = e->path_next; i < e->n_path; i++) {
        left += q_distance(&e->footprint, from, e->path + SIM_Q * i);
        from = e->path + SIM_Q * i;
    }
    return left;
}

/* Start `goal` making `e` follow `path` (`n` rows of `stride` values, owned by the entity
 * from here on) at `speed` from `now`: waypoints where it is at its start are skipped. */
static void start_following(pb_sim *sim, sim_entity *e, double *path, size_t n, size_t stride, double speed,
                            const double *now, uint64_t *goal)
{
    const bool arm = e->is_arm;
    free(e->path);
    e->path = path;
    e->n_path = n;
    e->path_next = 0;
    /* a PlanPath path starts at the current configuration: no step is spent reaching it */
    while (e->path_next + 1 < e->n_path &&
           (arm ? pb_engine_distance(sim->engine, path + stride * e->path_next, now)
                : q_distance(&e->footprint, path + stride * e->path_next, now)) < 1e-9)
        e->path_next++;
    e->follow_speed = speed;
    e->follow_id = ++sim->next_follow_id;
    e->follow_end = FOLLOW_ON;
    e->twist[0] = e->twist[1] = e->twist[2] = 0.0;
    *goal = e->follow_id;
}

/* FollowPath for the scene's robot (the checks every entity shares are done): the
 * waypoints' joints are the rows of `joints` (one value per planned joint; the poses, the
 * base's, are not read), every waypoint and segment checked against the scene now. */
static bool arm_follow_begin(pb_sim *sim, sim_entity *e, const pb_sim_follow_request *rq,
                             const double *joints, size_t n_given, uint64_t *goal, pb_sim_result *r)
{
    const size_t dim = (size_t)sim->arm_dim;
    if (!e->is_arm) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "'%s' is an object of a manipulator scene: only the robot '%s' follows paths", e->name,
                   sim->world.robot_entity);
        return false;
    }
    if (n_given != dim || !joints) {
        set_result(
            r, PB_SIM_RESULT_OPERATION_FAILED,
            "joint values: '%s' needs its %zu joints per waypoint (joint_positions), got %zu per waypoint",
            e->name, dim, n_given);
        return false;
    }
    char why[PB_SIM_MESSAGE_SIZE];
    for (size_t i = 0; i < rq->n_path; i++) {
        bool ok = true;
        for (size_t k = 0; k < dim; k++)
            ok = ok && isfinite(joints[dim * i + k]);
        if (!ok)
            snprintf(why, sizeof why, "joint values must be finite");
        if (!ok || !arm_is_free(sim, joints + dim * i, why, sizeof why)) {
            set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "waypoint %zu: %s", i, why);
            return false;
        }
    }
    if (!arm_path_is_free(sim, e->joints, joints, rq->n_path, why, sizeof why)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s", why);
        return false;
    }
    const double speed = rq->speed > 0 ? rq->speed : ARM_SPEED;
    double length = 0.0;
    for (size_t i = 0; i < rq->n_path; i++)
        length += pb_engine_distance(sim->engine, i ? joints + dim * (i - 1) : e->joints, joints + dim * i);
    if (length / (speed * sim->dt) + (double)rq->n_path > (double)MAX_ACTION_STEPS) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the path takes more than %llu steps at %g per second",
                   (unsigned long long)MAX_ACTION_STEPS, speed);
        return false;
    }
    double *path = malloc(rq->n_path * dim * sizeof *path);
    if (!path) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return false;
    }
    memcpy(path, joints, rq->n_path * dim * sizeof *path);
    start_following(sim, e, path, rq->n_path, dim, speed, e->joints, goal);
    set_result(r, PB_SIM_RESULT_OK, NULL);
    return true;
}

bool pb_sim_follow_begin(uint64_t *goal, pb_sim *sim, const pb_sim_follow_request *rq, pb_sim_result *r)
{
    return pb_sim_follow_begin_joints(goal, sim, rq, NULL, 0, r);
}

bool pb_sim_follow_begin_joints(uint64_t *goal, pb_sim *sim, const pb_sim_follow_request *rq,
                                const double *joints, size_t n_given, pb_sim_result *r)
{
    *goal = 0;
    sim_entity *e = find_entity(sim, rq->entity);
    if (!e) {
        set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", str(rq->entity));
        return false;
    }
    if (e->is_static) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' is static", e->name);
        return false;
    }
    if (!step_precondition(sim, 0, MAX_ACTION_STEPS, r))
        return false;
    if (!(rq->speed >= 0) || !isfinite(rq->speed)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "speed must be finite and >= 0");
        return false;
    }
    if (rq->n_path == 0 || !rq->path) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the path is empty");
        return false;
    }
    if (sim->scene)
        return arm_follow_begin(sim, e, rq, joints, n_given, goal, r);
    const size_t n_joints = joints_of(&e->footprint, NULL);
    if (n_given != 0 && (n_given != n_joints || !joints)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "joint values: '%s' has %zu joint%s%s per waypoint, got %zu per waypoint", e->name,
                   n_joints, n_joints == 1 ? "" : "s", n_joints ? " (joint2)" : "", n_given);
        return false;
    }
    double *path = malloc(rq->n_path * SIM_Q * sizeof *path);
    if (!path) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return false;
    }
    double now[SIM_Q];
    entity_q(e, now);
    char why[PB_SIM_MESSAGE_SIZE];
    for (size_t i = 0; i < rq->n_path; i++) {
        double *q = path + SIM_Q * i;
        q[3] = now[3]; /* joints not given keep their values */
        bool ok = pose_from_msg(sim, &rq->path[i], "", q, why, sizeof why);
        for (size_t k = 0; ok && k < n_given; k++) {
            ok = isfinite(joints[n_given * i + k]);
            if (!ok)
                snprintf(why, sizeof why, "joint values must be finite");
            else
                q[3 + k] = wrap_angle(joints[n_given * i + k]);
        }
        const pb_footprint fp = sim_footprint_at(&e->footprint, q);
        if (!ok || !pose_is_free(sim, &fp, q, e->obstacle, why, sizeof why)) {
            set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "waypoint %zu: %s", i, why);
            free(path);
            return false;
        }
    }
    /* the motion walks the straight C-space edges between waypoints: each must pass the
     * planners' edge check, not just its ends */
    if (!path_is_free(sim, e, now, path, rq->n_path, why, sizeof why)) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s", why);
        free(path);
        return false;
    }
    const double speed = rq->speed > 0 ? rq->speed : 40.0;
    double length = 0.0;
    const double *from = now;
    for (size_t i = 0; i < rq->n_path; i++) {
        length += q_distance(&e->footprint, from, path + SIM_Q * i);
        from = path + SIM_Q * i;
    }
    if (length / (speed * sim->dt) + (double)rq->n_path > (double)MAX_ACTION_STEPS) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the path takes more than %llu steps at %g per second",
                   (unsigned long long)MAX_ACTION_STEPS, speed);
        free(path);
        return false;
    }
    start_following(sim, e, path, rq->n_path, SIM_Q, speed, now, goal);
    set_result(r, PB_SIM_RESULT_OK, NULL);
    return true;
}

pb_sim_follow_status pb_sim_follow_step(pb_sim *sim, uint64_t goal, pb_sim_follow_feedback *fb,
                                        pb_sim_result *r)
{
    pb_sim_step_once(sim);
    sim_entity *e = find_follower(sim, goal);
    if (!e) {
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                   "the entity was deleted, or given another path, or the world was reset");
        return PB_SIM_FOLLOW_STOPPED;
    }
    if (fb) {
        fb->waypoint = (uint32_t)(e->n_path > 0 ? e->path_next : 0);
        fb->distance_remaining = path_remaining(sim, e);
        if (sim->scene)
            pose3_to_msg(e->pose3, &fb->pose);
        else
            pose_to_msg(e->pose, &fb->pose);
        fb->n_joints = (uint32_t)pb_sim_get_entity_joints(sim, e->name, NULL, fb->joints);
    }
    if (e->n_path > 0 && e->follow_end == FOLLOW_ON) {
        set_result(r, PB_SIM_RESULT_OK, NULL);
        return PB_SIM_FOLLOW_RUNNING;
    }
    static const char *const reasons[] = {"",
                                          "",
                                          "a collision stopped it",
                                          "it was teleported (SetEntityState)",
                                          "it became static",
                                          "the simulation was reset",
                                          "the goal was canceled"};
    if (e->follow_end == FOLLOW_REACHED) {
        set_result(r, PB_SIM_RESULT_OK, NULL);
        return PB_SIM_FOLLOW_REACHED;
    }
    const char *reason = e->follow_end < sizeof reasons / sizeof reasons[0] ? reasons[e->follow_end] : "?";
    if (e->is_arm) {
        char at_q[200];
        format_joints(e->joints, sim->arm_dim, at_q, sizeof at_q);
        set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' stopped following: %s at joints %.150s", e->name,
                   reason, at_q);
        return PB_SIM_FOLLOW_STOPPED;
    }
    set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' stopped following: %s at (%.3f, %.3f, %.3f)", e->name,
               reason, e->pose[0], e->pose[1], e->pose[2]);
    return PB_SIM_FOLLOW_STOPPED;
}

void pb_sim_follow_cancel(pb_sim *sim, uint64_t goal)
{
    sim_entity *e = find_follower(sim, goal);
    if (e)
        stop_following(e, FOLLOW_CANCELED);
}
