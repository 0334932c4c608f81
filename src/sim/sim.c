/* The simulation: world, entities, state machine, stepping, and every simulation_interfaces
 * service as a plain C function (spec: ../shared/spec/simulation-interfaces.md). What depends
 * on what an entity is (its pose, shape, motion, planning) is its kind's (sim_kind in
 * sim_internal.h: bodies on a map, objects and the robot in a manipulator scene); every pose
 * is validated by the same engine the planners use, so a pose the simulation accepts is one
 * the planners accept. */
#include "sim_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAME SIM_MAX_NAME
/* StepSimulation blocks the server: larger counts must use the action. */
#define MAX_SERVICE_STEPS 100000u

/* ---------------------------------------------------------------- helpers */

/* A tags filter's mode must be ANY or ALL when it has tags (spec: TagsFilter); `field` names
 * it in the message. */
static bool tags_filter_valid(const pb_sim_tags_filter *tags, const char *field, pb_sim_result *r)
{
    if (!tags->n_tags || tags->filter_mode <= PB_SIM_FILTER_ALL)
        return true;
    sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s must be 0 (ANY) or 1 (ALL), got %u", field,
                   (unsigned)tags->filter_mode);
    return false;
}

void pb_sim_drain_events(pb_sim *sim, void (*fn)(pb_sim_event_kind, const char *, void *), void *payload)
{
    for (size_t i = 0; i < sim->n_events; i++) {
        const sim_event *ev = &sim->events[(sim->first_event + i) % SIM_MAX_EVENTS];
        if (fn)
            fn(ev->kind, ev->name, payload);
        free(ev->name);
    }
    sim->n_events = 0;
    sim->first_event = 0;
}

/* The kinds of entity a world makes from its spawnables, in the order they are asked: on a
 * map a vehicle or a body (a footprint), in a scene an object (a solid). */
static const sim_kind *const map_kinds[] = {&sim_kind_vehicle, &sim_kind_body, NULL};
static const sim_kind *const scene_kinds[] = {&sim_kind_object, NULL};

/* The kind a spawnable makes in this world: the first of the world's kinds that accepts it;
 * NULL with why (the last kind's reason) when none does. */
static const sim_kind *kind_for(const pb_sim *sim, const sim_robot *robot, char *why, size_t size)
{
    const sim_kind *const *kinds = sim->spawn_kind == &sim_kind_object ? scene_kinds : map_kinds;
    for (size_t i = 0; kinds[i]; i++)
        if (kinds[i]->accepts(robot, why, size))
            return kinds[i];
    return NULL;
}

/* The kind of entity a spawnable makes, as the world's spawnables list shows it. */
static const sim_kind *kind_of(const pb_sim *sim, const sim_robot *robot)
{
    char why[PB_SIM_MESSAGE_SIZE];
    const sim_kind *kind = kind_for(sim, robot, why, sizeof why);
    return kind ? kind : robot->solid ? &sim_kind_object : &sim_kind_body;
}

static bool reserve_scratch(pb_sim *sim, size_t n)
{
    size_t cap_names = sim->cap_scratch, cap_states = sim->cap_scratch;
    const char **names = sim_reserve(sim->names, &cap_names, n, sizeof *names, 16);
    if (!names)
        return false;
    sim->names = names;
    pb_sim_entity_state *states = sim_reserve(sim->states, &cap_states, n, sizeof *states, 16);
    if (!states)
        return false;
    sim->states = states;
    sim->cap_scratch = cap_names < cap_states ? cap_names : cap_states;
    return true;
}

static void unload(pb_sim *sim)
{
    while (sim->n_entities)
        sim_remove_entity(sim, sim->n_entities - 1);
    pb_engine_destroy(sim->engine);
    sim->engine = NULL;
    pb_engine_destroy(sim->plan_map);
    sim->plan_map = NULL;
    pb_engine_destroy(sim->arm_plan);
    sim->arm_plan = NULL;
    sim->spawn_kind = NULL;
    sim->arm_dim = 0;
    sim->world_serial++; /* plans begun in this world no longer apply */
    if (sim->have_world)
        sim_world_finish(&sim->world);
    sim->have_world = false;
    sim->state = PB_SIM_STATE_NO_WORLD;
    sim->time_ns = 0;
}

/* The world's own entities, each where it must fit (on a map or in a scene), then the
 * simulation STOPPED; on failure the sim has no world. */
static bool install_entities(pb_sim *sim, char *why, size_t size)
{
    for (size_t i = 0; i < sim->world.n_entities; i++) {
        const sim_world_entity *we = &sim->world.entities[i];
        const sim_robot *robot = &sim->world.robots[we->robot];
        sim_entity candidate;
        const sim_kind *kind = kind_for(sim, robot, why, size);
        if (kind)
            sim_entity_prepare(&candidate, sim, kind, robot);
        if (sim_find_entity(sim, we->name) || !kind ||
            !candidate.kind->fits(sim, &candidate, we->pose, why, size) ||
            !sim_add_entity(sim, &candidate, we->name, robot, we->pose, false, we->is_static)) {
            char inner[PB_SIM_MESSAGE_SIZE];
            snprintf(inner, sizeof inner, "%s", why);
            snprintf(why, size, "world entity '%.60s': %.150s", we->name,
                     sim_find_entity(sim, we->name) ? "duplicate name" : inner);
            unload(sim);
            return false;
        }
    }
    pb_sim_drain_events(sim, NULL, NULL);
    sim->state = PB_SIM_STATE_STOPPED;
    sim->time_ns = 0;
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
    /* maps in ROS's frame, y up (REP-103): a map_server map's metres, an image's pixels */
    const pb_option ros = {"frame", "ros"};
    const size_t n_opt = !scene;
    if (pb_engine_load(&sim->engine, scene ? "manipulator" : "image2d", path, &ros, n_opt, &diag) != PB_OK ||
        pb_engine_load(spare, scene ? "manipulator" : "image2d", path, &ros, n_opt, &diag) != PB_OK ||
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
    sim->spawn_kind = scene ? &sim_kind_object : &sim_kind_body;
    if (scene && !sim_robot_install(sim, start, goal, why, size)) {
        unload(sim);
        return false;
    }
    return install_entities(sim, why, size);
}

/* ---------------------------------------------------------------- lifecycle */

pb_sim_config pb_sim_config_default(void)
{
    return (pb_sim_config){
        .worlds_dir = NULL, .robots_dir = NULL, .world = NULL, .time_step = 0.05, .plan_time_limit = 60.0};
}

pb_status pb_sim_create(pb_sim **out, const pb_sim_config *config, pb_diag *diag)
{
    *out = NULL;
    if (!(config->plan_time_limit > 0.0) || !isfinite(config->plan_time_limit)) {
        pb_diag_set(diag, NULL, 0, 0, "the plan time limit must be positive and finite, got %g s",
                    config->plan_time_limit);
        return PB_ERR_INVALID;
    }
    if (!(config->time_step >= 1e-9) || !(config->time_step <= 3600.0)) {
        pb_diag_set(diag, NULL, 0, 0, "time step must be in [1 ns, 3600 s], got %g s", config->time_step);
        return PB_ERR_INVALID;
    }
    pb_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        return PB_ERR_NOMEM;
    sim->worlds_dir = sim_strdup(config->worlds_dir ? config->worlds_dir : "worlds");
    sim->confine_worlds = config->confine_worlds;
    sim->robots_dir = sim_strdup(config->robots_dir ? config->robots_dir : "robots");
    /* the step in whole nanoseconds, so that time is exact: n steps are n * step_ns */
    sim->step_ns = (uint64_t)llround(config->time_step * 1e9);
    sim->dt = (double)sim->step_ns / 1e9;
    sim->plan_time_limit = config->plan_time_limit;
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
    free(sim->by_name);
    free(sim->by_obstacle);
    free(sim->names);
    free(sim->states);
    free(sim->poses);
    free(sim->spawnables);
    for (size_t i = 0; i < sim->n_available; i++)
        sim_world_finish(&sim->available[i]);
    free(sim->plan_path);
    free(sim->plan_joints);
    free(sim->frames);
    free(sim->worlds_dir);
    free(sim->robots_dir);
    free(sim);
}

double pb_sim_time(const pb_sim *sim)
{
    return (double)sim->time_ns / 1e9;
}
bool pb_sim_get_map_frame(const pb_sim *sim, pb_map_frame *frame)
{
    return sim->have_world && sim->spawn_kind == &sim_kind_body && pb_engine_map_frame(sim->engine, frame);
}

uint64_t pb_sim_time_ns(const pb_sim *sim)
{
    return sim->time_ns;
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
    const char *uri = sim_str(rq->uri), *text = sim_str(rq->resource_string),
               *ns = sim_str(rq->entity_namespace);
    if (!sim->have_world) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "no world loaded");
        return;
    }
    sim_robot parsed;
    bool own_parsed = false;
    const sim_robot *robot = NULL;
    if (uri[0]) {
        if (strncmp(uri, "model://", 8) != 0) {
            sim_set_result(r, PB_SIM_SPAWN_UNSUPPORTED_FORMAT,
                           "uri '%.100s': only model://NAME from GetSpawnables", uri);
            return;
        }
        robot = find_robot_uri(sim, uri);
        if (!robot) {
            sim_set_result(r, PB_SIM_RESULT_NOT_FOUND,
                           "no spawnable '%.100s' in this world (see GetSpawnables)", uri);
            return;
        }
    } else if (text[0]) {
        char why[PB_SIM_MESSAGE_SIZE];
        if (sim_robot_parse(&parsed, text, strlen(text), why, sizeof why) != SIM_LOAD_OK) {
            sim_set_result(r, PB_SIM_SPAWN_RESOURCE_PARSE_ERROR, "resource_string: %s", why);
            return;
        }
        own_parsed = true;
        robot = &parsed;
    } else {
        sim_set_result(r, PB_SIM_SPAWN_NO_RESOURCE, "both uri and resource_string are empty");
        return;
    }
    char full[MAX_NAME * 2 + 2];
    const char *base = sim_str(rq->name)[0] ? rq->name : robot->name;
    char why[PB_SIM_MESSAGE_SIZE];
    double pose[SIM_POSE_MAX];
    const sim_kind *kind = kind_for(sim, robot, why, sizeof why);
    if (!kind) {
        sim_set_result(r, PB_SIM_SPAWN_UNSUPPORTED_ASSETS, "%s", why);
        goto done;
    }
    if (!namespace_valid(ns)) {
        sim_set_result(r, PB_SIM_SPAWN_NAMESPACE_INVALID, "namespace '%.100s' breaks ROS naming rules", ns);
        goto done;
    }
    if (!name_valid(base)) {
        sim_set_result(r, PB_SIM_SPAWN_NAME_INVALID,
                       "name '%.100s' must be 1-128 letters, digits or '_', not starting "
                       "with a digit",
                       base);
        goto done;
    }
    if (*ns == '/')
        ns++;
    snprintf(full, sizeof full, "%s%s%s", ns, ns[0] ? "/" : "", base);
    if (sim_find_entity(sim, full)) {
        if (!rq->allow_renaming) {
            sim_set_result(r, PB_SIM_SPAWN_NAME_NOT_UNIQUE, "an entity named '%s' exists", full);
            goto done;
        }
        const size_t len = strlen(full);
        for (unsigned k = 1;; k++) {
            snprintf(full + len, sizeof full - len, "_%u", k);
            if (!sim_find_entity(sim, full))
                break;
        }
    }
    sim_entity candidate;
    sim_entity_prepare(&candidate, sim, kind, robot);
    if (!kind->pose_from_msg(sim, &rq->initial_pose, rq->frame_id, pose, why, sizeof why) ||
        !kind->fits(sim, &candidate, pose, why, sizeof why)) {
        sim_set_result(r, PB_SIM_SPAWN_INVALID_POSE, "%s", why);
        goto done;
    }
    if (sim->n_entities >= PB_SIM_MAX_ENTITIES) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the world holds at most %d entities",
                       PB_SIM_MAX_ENTITIES);
        goto done;
    }
    sim_entity *e = sim_add_entity(sim, &candidate, full, robot, pose, true, false);
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        goto done;
    }
    rs->entity_name = e->name;
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
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
            sim_set_result(&responses[i].result, PB_SIM_RESULT_OPERATION_FAILED,
                           "not tried: the batch is too large");
        }
        sim_set_result(result, PB_SIM_SPAWN_ENTITIES_SPAWN_FAILED,
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
        sim_set_result(result, PB_SIM_SPAWN_ENTITIES_SPAWN_FAILED, "%zu of %zu spawn requests failed", failed,
                       n);
    else
        sim_set_result(result, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_delete_entity(pb_sim *sim, const char *entity, pb_sim_result *r)
{
    const sim_entity *e = sim_find_entity(sim, sim_str(entity));
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", sim_str(entity));
        return;
    }
    if (e->is_static && !e->spawned) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' is a static part of the world", entity);
        return;
    }
    if (e->kind->undeletable) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' %s", entity, e->kind->undeletable);
        return;
    }
    sim_remove_entity(sim, sim_entity_index(sim, e));
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
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

/* The bounds of a filter as a region (a box or a sphere, seen by bodies as a rectangle or a
 * disc at z = 0), or false with a result set. */
static bool region_of(const pb_sim_bounds *b, sim_region *region, pb_sim_result *r)
{
    memset(region, 0, sizeof *region);
    region->pose3[6] = 1.0;
    if (b->type == PB_SIM_BOUNDS_SPHERE) {
        if (b->n_points < 2 || !(b->points[1].x >= 0.0) || !isfinite(b->points[1].x)) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                           "sphere bounds need 2 points, points[1].x the radius >= 0");
            return false;
        }
        const double radius = b->points[1].x > 1e-9 ? b->points[1].x : 1e-9;
        region->footprint.type = PB_FOOTPRINT_DISC;
        region->footprint.radius = radius;
        region->solid.type = PB_SOLID_SPHERE;
        region->solid.size[0] = radius;
        for (int i = 0; i < 3; i++)
            region->pose3[i] = (&b->points[0].x)[i];
        region->pose[0] = b->points[0].x;
        region->pose[1] = b->points[0].y;
        return true;
    }
    if (b->type == PB_SIM_BOUNDS_BOX) {
        if (b->n_points != 2) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "box bounds need exactly 2 points");
            return false;
        }
        const double lx = fmin(b->points[0].x, b->points[1].x), hx = fmax(b->points[0].x, b->points[1].x);
        const double ly = fmin(b->points[0].y, b->points[1].y), hy = fmax(b->points[0].y, b->points[1].y);
        region->footprint.type = PB_FOOTPRINT_RECT;
        region->footprint.half_length = fmax((hx - lx) / 2, 1e-9);
        region->footprint.half_width = fmax((hy - ly) / 2, 1e-9);
        region->pose[0] = (lx + hx) / 2;
        region->pose[1] = (ly + hy) / 2;
        region->solid.type = PB_SOLID_BOX;
        for (int i = 0; i < 3; i++) {
            const double lo = (&b->points[0].x)[i], hi = (&b->points[1].x)[i];
            region->solid.size[i] = fmax(fabs(hi - lo), 1e-9);
            region->pose3[i] = (lo + hi) / 2;
        }
        return true;
    }
    sim_set_result(r, PB_SIM_RESULT_FEATURE_UNSUPPORTED,
                   "bounds type %u is not supported in filters (sphere and box are)", (unsigned)b->type);
    return false;
}

/* An entity's state in the world frame now. */
static void fill_state(const pb_sim *sim, const sim_entity *e, pb_sim_entity_state *st)
{
    memset(st, 0, sizeof *st);
    st->frame_id = "world";
    st->stamp_sec = (int32_t)(sim->time_ns / 1000000000u);
    st->stamp_nanosec = (uint32_t)(sim->time_ns % 1000000000u);
    e->kind->state(e, &st->pose, &st->twist);
    if (e->kind->acceleration)
        e->kind->acceleration(sim, e, &st->acceleration);
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
    sim_region region;
    bool have_region = false;
    if (f && !tags_filter_valid(&f->tags, "tags.filter_mode", r))
        return 0;
    if (f && f->bounds.type != PB_SIM_BOUNDS_EMPTY) {
        if (!region_of(&f->bounds, &region, r))
            return 0;
        pb_map_frame frame;
        region.pixel = sim->engine && pb_engine_map_frame(sim->engine, &frame) ? frame.resolution : 1.0;
        have_region = true;
    }
    if (f && f->filter && f->filter[0]) {
        char unsafe[160];
        if (!regex_is_bounded(f->filter, unsafe, sizeof unsafe)) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "filter '%.60s': %s", f->filter, unsafe);
            return 0;
        }
        const int rc = regcomp(&re, f->filter, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char msg[200];
            regerror(rc, &re, msg, sizeof msg);
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "filter '%.60s': %s", f->filter, msg);
            return 0;
        }
        have_re = true;
    }
    size_t n = 0;
    if (!reserve_scratch(sim, sim->n_entities)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        if (have_re)
            regfree(&re);
        return 0;
    }
    for (size_t i = 0; i < sim->n_entities; i++) {
        const sim_entity *e = sim->entities[i];
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
        if (have_region && !e->kind->overlaps(sim, e, &region))
            continue;
        sim->names[n] = e->name;
        if (want_states)
            fill_state(sim, e, &sim->states[n]);
        n++;
    }
    if (have_re)
        regfree(&re);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
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
    const sim_entity *e = sim_find_entity(sim, entity);
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", sim_str(entity));
        return;
    }
    fill_state(sim, e, state);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

static bool twist_nonzero(const pb_sim_twist *t)
{
    return t->linear.x != 0 || t->linear.y != 0 || t->linear.z != 0 || t->angular.x != 0 ||
           t->angular.y != 0 || t->angular.z != 0;
}

void pb_sim_set_entity_state(pb_sim *sim, const pb_sim_set_state_request *rq, pb_sim_result *r)
{
    sim_entity *e = sim_find_entity(sim, rq->entity);
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", sim_str(rq->entity));
        return;
    }
    /* 1.x shape (no flags in the request): pose and twist are applied */
    const bool set_pose = rq->has_flags ? rq->set_pose : true;
    const bool set_twist = rq->has_flags ? rq->set_twist : true;
    const bool set_accel = rq->has_flags ? rq->set_acceleration : false;
    const pb_sim_twist *tw = &rq->state.twist, *ac = &rq->state.acceleration;
    if ((set_twist && !sim_twist_finite(tw)) || (set_accel && !sim_twist_finite(ac))) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "twist and acceleration must be finite");
        return;
    }
    if (e->is_static && ((set_twist && twist_nonzero(tw)) || (set_accel && twist_nonzero(ac)))) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "'%s' is static: it cannot be given a twist or acceleration", e->name);
        return;
    }
    if (set_accel && twist_nonzero(ac)) {
        sim_set_result(r, PB_SIM_RESULT_FEATURE_UNSUPPORTED, "accelerations are not simulated");
        return;
    }
    e->kind->set_state(sim, e, rq, set_pose, set_twist, r);
}

/* ---------------------------------------------------------------- info and bounds */

void pb_sim_get_entity_info(pb_sim *sim, const char *entity, pb_sim_result *r, pb_sim_entity_info *info)
{
    memset(info, 0, sizeof *info);
    info->description = "";
    const sim_entity *e = sim_find_entity(sim, entity);
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", sim_str(entity));
        return;
    }
    *info = (pb_sim_entity_info){e->category, e->description, (const char *const *)e->tags.items, e->tags.n};
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

static bool category_valid(uint8_t c)
{
    return c <= PB_SIM_CATEGORY_HUMAN || c == PB_SIM_CATEGORY_DYNAMIC_OBJECT ||
           c == PB_SIM_CATEGORY_STATIC_OBJECT;
}

void pb_sim_set_entity_info(pb_sim *sim, const char *entity, const pb_sim_entity_info *info, pb_sim_result *r)
{
    sim_entity *e = sim_find_entity(sim, entity);
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", sim_str(entity));
        return;
    }
    if (!category_valid(info->category)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "category %u is not an EntityCategory (0, 1, 2, 4, 5)", (unsigned)info->category);
        return;
    }
    sim_strings tags = {0};
    char *description = sim_strdup(info->description);
    if (!description || !sim_strings_copy(&tags, info->tags, info->n_tags)) {
        free(description);
        sim_strings_finish(&tags);
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return;
    }
    free(e->description);
    sim_strings_finish(&e->tags);
    e->description = description;
    e->tags = tags;
    e->category = info->category;
    if (e->category == PB_SIM_CATEGORY_STATIC_OBJECT) {
        e->is_static = true;
        sim_stop_motion(e);
        sim_stop_following(e, SIM_FOLLOW_STATIC);
    } else if (e->spawned) {
        e->is_static = false;
    }
    sim_push_event(sim, PB_SIM_EVENT_INFO_CHANGED, e->name);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_get_entity_bounds(pb_sim *sim, const char *entity, pb_sim_result *r, pb_sim_bounds *bounds)
{
    memset(bounds, 0, sizeof *bounds);
    const sim_entity *e = sim_find_entity(sim, entity);
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", sim_str(entity));
        return;
    }
    e->kind->bounds(e, bounds);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
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
        sim_set_result(r, PB_SIM_RESULT_OK, "no world loaded");
        return;
    }
    free(sim->poses);
    sim->poses = calloc(sim->world.n_poses + 1, sizeof *sim->poses);
    if (!sim->poses) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return;
    }
    for (size_t i = 0; i < sim->world.n_poses; i++) {
        const sim_named_pose *p = &sim->world.poses[i];
        if (!tags_match(&p->tags, tags))
            continue;
        pb_sim_named_pose *o = &sim->poses[(*n)++];
        *o = (pb_sim_named_pose){
            p->name, p->description, (const char *const *)p->tags.items, p->tags.n, {{0, 0, 0}, 0, 0, 0, 1}};
        if (!p->n_joints) /* a joint configuration keeps the identity pose */
            sim->spawn_kind->pose_to_msg(p->pose, &o->pose);
    }
    *poses = sim->poses;
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_get_named_pose_bounds(pb_sim *sim, const char *name, pb_sim_result *r, pb_sim_bounds *bounds)
{
    memset(bounds, 0, sizeof *bounds);
    const sim_named_pose *p = sim_find_named_pose(sim, name);
    if (!p) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no named pose '%.100s'", sim_str(name));
        return;
    }
    *bounds = p->bounds;
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_get_spawnables(pb_sim *sim, const char *const *sources, size_t n_sources, pb_sim_result *r,
                           const pb_sim_spawnable **spawnables, size_t *n)
{
    *spawnables = NULL;
    *n = 0;
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
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
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return;
    }
    for (size_t i = 0; i < sim->world.n_robots; i++) {
        const sim_robot *robot = &sim->world.robots[i];
        sim->spawnables[i].uri = robot->uri;
        sim->spawnables[i].description = robot->description;
        sim_entity e;
        sim_entity_prepare(&e, sim, kind_of(sim, robot), robot);
        e.kind->bounds(&e, &sim->spawnables[i].spawn_bounds);
    }
    *spawnables = sim->spawnables;
    *n = sim->world.n_robots;
}

/* ---------------------------------------------------------------- simulation state */

void pb_sim_get_simulation_state(pb_sim *sim, pb_sim_result *r, uint8_t *state)
{
    *state = sim->state;
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* Reset by scope bits (SCOPE_ALL already expanded). Entities whose start pose is now taken
 * keep their pose, named in `r`'s message: no entity is ever placed inside another. */
static void reset_scopes(pb_sim *sim, unsigned scope, pb_sim_result *r)
{
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
    if (scope & PB_SIM_SCOPE_SPAWNED)
        for (size_t i = sim->n_entities; i-- > 0;)
            if (sim->entities[i]->spawned)
                sim_remove_entity(sim, i);
    if (scope & PB_SIM_SCOPE_TIME)
        sim->time_ns = 0;
    if (scope & PB_SIM_SCOPE_STATE) {
        size_t len = 0;
        for (size_t i = 0; i < sim->n_entities; i++) {
            sim_entity *e = sim->entities[i];
            sim_stop_motion(e);
            sim_stop_following(e, SIM_FOLLOW_RESET);
            char why[PB_SIM_MESSAGE_SIZE];
            if (!e->kind->reset(sim, e, why, sizeof why) && len < sizeof r->error_message)
                len += (size_t)snprintf(r->error_message + len, sizeof r->error_message - len, "%s'%s' %s",
                                        len ? "; " : "", e->name, why);
        }
    }
}

void pb_sim_set_simulation_state(pb_sim *sim, uint8_t target, pb_sim_result *r)
{
    if (target > PB_SIM_STATE_LOADING_WORLD) {
        sim_set_result(r, PB_SIM_RESULT_FEATURE_UNSUPPORTED, "state %u is not a SimulationState",
                       (unsigned)target);
        return;
    }
    if (target == PB_SIM_STATE_NO_WORLD || target == PB_SIM_STATE_LOADING_WORLD) {
        sim_set_result(r, PB_SIM_INCORRECT_TRANSITION, "state %u is reported by the simulator, not requested",
                       (unsigned)target);
        return;
    }
    if (target == sim->state) {
        sim_set_result(r, PB_SIM_ALREADY_IN_TARGET_STATE, "already in state %u", (unsigned)target);
        return;
    }
    if (target == PB_SIM_STATE_QUITTING) {
        if (sim->state == PB_SIM_STATE_PLAYING || sim->state == PB_SIM_STATE_PAUSED)
            reset_scopes(sim, PB_SIM_SCOPE_TIME | PB_SIM_SCOPE_STATE | PB_SIM_SCOPE_SPAWNED, r);
        sim->state = PB_SIM_STATE_QUITTING;
        sim_set_result(r, PB_SIM_RESULT_OK, NULL);
        return;
    }
    if (sim->state == PB_SIM_STATE_NO_WORLD || sim->state == PB_SIM_STATE_LOADING_WORLD ||
        sim->state == PB_SIM_STATE_QUITTING) {
        sim_set_result(r, PB_SIM_INCORRECT_TRANSITION, "cannot go from state %u to %u%s",
                       (unsigned)sim->state, (unsigned)target,
                       sim->state == PB_SIM_STATE_NO_WORLD ? ": no world loaded" : "");
        return;
    }
    if (target == PB_SIM_STATE_STOPPED) {
        reset_scopes(sim, PB_SIM_SCOPE_TIME | PB_SIM_SCOPE_STATE | PB_SIM_SCOPE_SPAWNED, r);
        sim->state = PB_SIM_STATE_STOPPED;
        return;
    }
    /* STOPPED -> PAUSED is allowed (spec §6.2): start paused, no step */
    sim->state = target;
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_reset_simulation(pb_sim *sim, uint8_t scope, pb_sim_result *r)
{
    if (!sim->have_world) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "no world loaded");
        return;
    }
    const bool all = scope == PB_SIM_SCOPE_DEFAULT || scope == PB_SIM_SCOPE_ALL;
    if (!all && (scope & ~(unsigned)(PB_SIM_SCOPE_TIME | PB_SIM_SCOPE_STATE | PB_SIM_SCOPE_SPAWNED))) {
        sim_set_result(r, PB_SIM_RESULT_FEATURE_UNSUPPORTED,
                       "scope %u has bits other than TIME (1), STATE (2), SPAWNED (4)", (unsigned)scope);
        return;
    }
    reset_scopes(sim, all ? (PB_SIM_SCOPE_TIME | PB_SIM_SCOPE_STATE | PB_SIM_SCOPE_SPAWNED) : scope, r);
    if (all)
        sim->state = PB_SIM_STATE_STOPPED; /* "as if relaunched" (spec §6.5) */
}

/* ---------------------------------------------------------------- stepping */

void pb_sim_step_once(pb_sim *sim)
{
    for (size_t i = 0; i < sim->n_entities; i++)
        if (!sim->entities[i]->is_static)
            sim->entities[i]->kind->step(sim, sim->entities[i]);
    sim->time_ns += sim->step_ns;
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
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "no world loaded");
        return false;
    }
    if (sim->state != PB_SIM_STATE_PAUSED && sim->state != PB_SIM_STATE_STOPPED) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "the simulation must be paused before stepping (state %u)", (unsigned)sim->state);
        return false;
    }
    if (steps > limit) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%llu steps is more than this call allows (%llu)%s",
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
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

bool pb_sim_steps_begin(pb_sim *sim, uint64_t steps, pb_sim_result *r)
{
    if (!step_precondition(sim, steps, SIM_MAX_ACTION_STEPS, r))
        return false;
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
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
            memcpy(sim->available_path[sim->n_available], path, strlen(path) + 1); /* fits: checked above */
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
    uri = sim_str(uri);
    resource_string = sim_str(resource_string);
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
                sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no world '%.100s' (see GetAvailableWorlds)", uri);
                return;
            }
        } else {
            const char *p = strncmp(uri, "file://", 7) == 0 ? uri + 7 : uri;
            const size_t len = strlen(p);
            if (strstr(uri, "://") && strncmp(uri, "file://", 7) != 0) {
                sim_set_result(r, PB_SIM_WORLD_UNSUPPORTED_FORMAT,
                               "uri scheme of '%.100s' is not world:// or file://", uri);
                return;
            }
            const bool yaml = len >= 5 && strcmp(p + len - 5, ".yaml") == 0;
            if (!yaml && (len < 4 || strcmp(p + len - 4, ".xml") != 0)) {
                sim_set_result(r, PB_SIM_WORLD_UNSUPPORTED_FORMAT,
                               "'%.100s' is not a .xml <simworld> file or a map_server .yaml map", uri);
                return;
            }
            snprintf(path, sizeof path, "%s", p);
            file = path;
            if (sim->confine_worlds && !confined_ok(sim, path)) {
                /* the same answer whether or not the file exists elsewhere */
                sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no world '%.100s' in the worlds folder", uri);
                return;
            }
        }
    } else if (!resource_string[0]) {
        sim_set_result(r, PB_SIM_WORLD_NO_RESOURCE, "both uri and resource_string are empty");
        return;
    }
    /* a map_server map: a world of that map, in metres, with the metric spawnables */
    char *map_world = NULL;
    if (file && strlen(file) >= 5 && strcmp(file + strlen(file) - 5, ".yaml") == 0) {
        map_world = sim_world_of_map(file);
        if (!map_world) {
            sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no map '%.200s'", file);
            return;
        }
        resource_string = map_world;
        file = NULL;
    }
    sim_world w;
    char msg[PB_SIM_MESSAGE_SIZE];
    const uint8_t previous = sim->state;
    sim->state = PB_SIM_STATE_LOADING_WORLD;
    const sim_load_error err =
        sim_world_load(&w, file, file ? NULL : resource_string, strlen(resource_string), sim->worlds_dir,
                       sim->robots_dir, fail_on_unsupported_element, msg, sizeof msg);
    sim->state = previous;
    free(map_world);
    switch (err) {
    case SIM_LOAD_OK:
        break;
    case SIM_LOAD_NOT_FOUND:
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "%s", msg);
        return;
    case SIM_LOAD_MISSING_ASSET:
        sim_set_result(r, PB_SIM_WORLD_MISSING_ASSETS, "%s", msg);
        return;
    case SIM_LOAD_UNSUPPORTED:
        sim_set_result(r, PB_SIM_WORLD_UNSUPPORTED_ELEMENTS, "%s", msg);
        return;
    default:
        sim_set_result(r, PB_SIM_WORLD_RESOURCE_PARSE_ERROR, "%s", msg);
        return;
    }
    if (sim->confine_worlds && ((w.map_path && !confined_ok(sim, w.map_path)) ||
                                (w.scene_path && !confined_ok(sim, w.scene_path)))) {
        const bool map = w.map_path != NULL;
        sim_world_finish(&w);
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "the world's %s is not in the worlds folder",
                       map ? "map" : "scene");
        return;
    }
    unload(sim);
    if (!install_world(sim, &w, msg, sizeof msg)) {
        sim_set_result(r, PB_SIM_WORLD_RESOURCE_PARSE_ERROR, "%s", msg);
        return;
    }
    world_info(&sim->world, info);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_unload_world(pb_sim *sim, pb_sim_result *r)
{
    if (!sim->have_world) {
        sim_set_result(r, PB_SIM_NO_WORLD_LOADED, "no world loaded");
        return;
    }
    unload(sim);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

void pb_sim_get_current_world(pb_sim *sim, pb_sim_result *r, pb_sim_world_info *info)
{
    static const sim_world empty = {0};
    world_info(&empty, info);
    info->name = info->uri = info->description = "";
    if (!sim->have_world) {
        sim_set_result(r, PB_SIM_NO_WORLD_LOADED, "no world loaded");
        return;
    }
    world_info(&sim->world, info);
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
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
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
}

/* ---------------------------------------------------------------- planning */

/* Names of no joints (an answer about no entity). */
static const char *const no_joint_names[] = {NULL};

bool pb_sim_plan_begin(pb_sim_plan_job **out, pb_sim *sim, const pb_sim_plan_request *rq,
                       pb_sim_plan_response *rs)
{
    *out = NULL;
    memset(rs, 0, sizeof *rs);
    rs->outcome = "";
    rs->path = sim->plan_path;
    rs->joints = sim->plan_joints;
    rs->joint_names = no_joint_names;
    sim_entity *e = sim_find_entity(sim, rq->entity);
    pb_sim_result *r = &rs->result;
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", sim_str(rq->entity));
        return false;
    }
    e->kind->joints(sim, e, &rs->joint_names, NULL);
    if (e->is_static) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' is static", e->name);
        return false;
    }
    const char *planner = sim_str(rq->planner)[0] ? rq->planner : "rrt";
    if (!pb_planner_registry_find(planner) || strlen(planner) >= sizeof((pb_sim_plan_job *)0)->planner) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no planner named '%.100s' (planbench list shows them)",
                       planner);
        return false;
    }
    if (!e->kind->plan_begin(sim, e, rq, planner, out, rs))
        return false;
    (*out)->kind = e->kind;
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
    const size_t n_joints = job->n_joints, stride = job->stride;
    /* a scene job's engine goes back for the next plan (a world loaded meanwhile has its own) */
    if (job->arm_engine && !sim->arm_plan && job->world_serial == sim->world_serial) {
        sim->arm_plan = job->arm_engine;
        job->arm_engine = NULL;
    }
    rs->outcome = job->outcome ? job->outcome : "";
    rs->cost = job->cost;
    rs->planning_time = job->planning_time;
    rs->joint_names = job->joint_names;
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
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        /* no pose values: the robot's base, at the world origin (the identity pose) */
        memset(path + 3 * i, 0, 3 * sizeof *path);
        memcpy(path + 3 * i, job->path + stride * i, job->pose_values * sizeof *path);
        for (size_t k = 0; k < n_joints; k++)
            joints[n_joints * i + k] = job->path[stride * i + job->joint_offset + k];
    }
    rs->n_path = n;
    if (job->status == PB_ERR_NOT_FOUND) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "%s", job->why);
        return;
    }
    if (job->status != PB_OK) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "planning failed: %s", job->why);
        return;
    }
    if (n == 0) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "no path found (%s)", rs->outcome);
        return;
    }
    /* The plan saw the world as it was when the request came; check it against the world
     * as it is now. The path is returned in any case, for the client to inspect. */
    if (job->world_serial != sim->world_serial) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the world was loaded or unloaded while planning");
        return;
    }
    sim_entity *e = sim_find_entity(sim, job->entity);
    if (!e || e->serial != job->entity_serial) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "'%.128s' was deleted while its path was planned",
                       job->entity);
        return;
    }
    if (e->is_static) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' became static while its path was planned",
                       e->name);
        return;
    }
    char why[PB_SIM_MESSAGE_SIZE];
    if (!e->kind->plan_check(sim, e, job, why, sizeof why)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "%s", why);
        return;
    }
    if (job->follow) {
        double *copy = realloc(e->path, n * stride * sizeof *copy);
        if (!copy) {
            sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "out of memory");
            return;
        }
        memcpy(copy, job->path, n * stride * sizeof *copy);
        e->path = copy;
        e->n_path = n;
        e->path_stride = stride;
        e->path_next = 1;
        e->follow_id = ++sim->next_follow_id;
        e->follow_end = SIM_FOLLOW_ON;
        e->follow_speed = job->speed;
        sim_stop_motion(e);
    }
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
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
    const sim_entity *e = sim_find_entity(sim, entity);
    return e && e->n_path > 0 && e->path_next < e->n_path;
}

/* ---------------------------------------------------------------- the follow_path action */

static sim_entity *find_follower(pb_sim *sim, uint64_t goal)
{
    for (size_t i = 0; i < sim->n_entities; i++)
        if (goal != 0 && sim->entities[i]->follow_id == goal)
            return sim->entities[i];
    return NULL;
}

bool pb_sim_follow_begin(uint64_t *goal, pb_sim *sim, const pb_sim_follow_request *rq, pb_sim_result *r)
{
    return pb_sim_follow_begin_joints(goal, sim, rq, NULL, 0, r);
}

bool pb_sim_follow_begin_joints(uint64_t *goal, pb_sim *sim, const pb_sim_follow_request *rq,
                                const double *joints, size_t n_given, pb_sim_result *r)
{
    *goal = 0;
    sim_entity *e = sim_find_entity(sim, rq->entity);
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_NOT_FOUND, "no entity named '%.100s'", sim_str(rq->entity));
        return false;
    }
    if (e->is_static) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' is static", e->name);
        return false;
    }
    if (!step_precondition(sim, 0, SIM_MAX_ACTION_STEPS, r))
        return false;
    if (!(rq->speed >= 0) || !isfinite(rq->speed)) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "speed must be finite and >= 0");
        return false;
    }
    if (rq->n_path == 0 || !rq->path) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the path is empty");
        return false;
    }
    return e->kind->follow_begin(sim, e, rq, joints, n_given, goal, r);
}

pb_sim_follow_status pb_sim_follow_step(pb_sim *sim, uint64_t goal, pb_sim_follow_feedback *fb,
                                        pb_sim_result *r)
{
    pb_sim_step_once(sim);
    sim_entity *e = find_follower(sim, goal);
    if (!e) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED,
                       "the entity was deleted, or given another path, or the world was reset");
        return PB_SIM_FOLLOW_STOPPED;
    }
    if (fb) {
        fb->waypoint = (uint32_t)(e->n_path > 0 ? e->path_next : 0);
        fb->distance_remaining = sim_path_remaining(sim, e);
        pb_sim_twist twist;
        e->kind->state(e, &fb->pose, &twist);
        fb->n_joints = (uint32_t)pb_sim_get_entity_joints(sim, e->name, NULL, fb->joints);
    }
    if (e->n_path > 0 && e->follow_end == SIM_FOLLOW_ON) {
        sim_set_result(r, PB_SIM_RESULT_OK, NULL);
        return PB_SIM_FOLLOW_RUNNING;
    }
    static const char *const reasons[] = {"",
                                          "",
                                          "a collision stopped it",
                                          "it was teleported (SetEntityState)",
                                          "it became static",
                                          "the simulation was reset",
                                          "the goal was canceled",
                                          "a velocity command took over"};
    if (e->follow_end == SIM_FOLLOW_REACHED) {
        sim_set_result(r, PB_SIM_RESULT_OK, NULL);
        return PB_SIM_FOLLOW_REACHED;
    }
    const char *reason = e->follow_end < sizeof reasons / sizeof reasons[0] ? reasons[e->follow_end] : "?";
    char where[256];
    e->kind->describe(sim, e, where, sizeof where);
    sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "'%s' stopped following: %s %s", e->name, reason,
                   where);
    return PB_SIM_FOLLOW_STOPPED;
}

void pb_sim_follow_cancel(pb_sim *sim, uint64_t goal)
{
    sim_entity *e = find_follower(sim, goal);
    if (e)
        sim_stop_following(e, SIM_FOLLOW_CANCELED);
}
