/* The simulation's entities and what its parts share: the entity list (add, remove, look
 * up), the event queue, path following, pose-message checks and service results. The
 * services (sim.c) and the entity kinds (entity_*.c) call these; nothing here calls either
 * (kinds are reached through an entity's table). */
#include "sim_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 4096

void *sim_reserve(void *items, size_t *capacity, size_t need, size_t item_size, size_t first)
{
    if (need <= *capacity)
        return items;
    size_t cap = *capacity ? *capacity : first;
    while (cap < need) {
        if (cap > SIZE_MAX / 2 / item_size)
            return NULL;
        cap *= 2;
    }
    void *grown = realloc(items, cap * item_size);
    if (grown)
        *capacity = cap;
    return grown;
}

void sim_set_result(pb_sim_result *r, uint8_t code, const char *fmt, ...)
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

const char *sim_str(const char *s)
{
    return s ? s : "";
}

void sim_push_event(pb_sim *sim, pb_sim_event_kind kind, const char *name)
{
    if (sim->n_events == MAX_EVENTS) {
        /* nobody drains: drop the oldest rather than grow without bound */
        free(sim->events[0].name);
        memmove(sim->events, sim->events + 1, (sim->n_events - 1) * sizeof *sim->events);
        sim->n_events--;
    }
    sim_event *events = sim_reserve(sim->events, &sim->cap_events, sim->n_events + 1, sizeof *events, 16);
    if (!events)
        return;
    sim->events = events;
    char *copy = sim_strdup(name);
    if (!copy)
        return;
    sim->events[sim->n_events++] = (sim_event){kind, copy};
}

static size_t name_hash(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
    return (size_t)(h ^ (h >> 29));
}

/* Put entity `index` into the name table (which has room). */
static void index_put(uint32_t *slots, size_t cap, const char *name, size_t index)
{
    size_t i = name_hash(name) & (cap - 1);
    while (slots[i])
        i = (i + 1) & (cap - 1);
    slots[i] = (uint32_t)(index + 1);
}

/* The name table rebuilt for every entity, at a size with room for `n` (false: no memory, the
 * old table stays). */
static bool index_rebuild(pb_sim *sim, size_t n)
{
    size_t cap = 64;
    while (cap < 2 * n)
        cap *= 2;
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < sim->n_entities; i++)
        index_put(slots, cap, sim->entities[i].name, i);
    free(sim->by_name);
    sim->by_name = slots;
    sim->cap_by_name = cap;
    return true;
}

/* The slot holding entity `index`'s number, or the table's size. */
static size_t index_slot(const pb_sim *sim, const char *name, size_t index)
{
    for (size_t i = name_hash(name) & (sim->cap_by_name - 1);; i = (i + 1) & (sim->cap_by_name - 1)) {
        if (!sim->by_name[i])
            return sim->cap_by_name;
        if (sim->by_name[i] == index + 1)
            return i;
    }
}

/* Take entity `index` out of the name table (backward-shift deletion: no tombstones); with
 * `renumber`, the entities after it move down by one. */
static void index_remove(pb_sim *sim, size_t index, bool renumber)
{
    const size_t cap = sim->cap_by_name;
    size_t hole = cap ? index_slot(sim, sim->entities[index].name, index) : cap;
    if (hole == cap)
        return;
    sim->by_name[hole] = 0;
    for (size_t j = (hole + 1) & (cap - 1); sim->by_name[j]; j = (j + 1) & (cap - 1)) {
        const size_t home = name_hash(sim->entities[sim->by_name[j] - 1].name) & (cap - 1);
        /* move j into the hole when its home is not in (hole, j] (cyclically) */
        const bool stays = hole < j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!stays) {
            sim->by_name[hole] = sim->by_name[j];
            sim->by_name[j] = 0;
            hole = j;
        }
    }
    for (size_t i = 0; renumber && i < cap; i++)
        if (sim->by_name[i] > index + 1)
            sim->by_name[i]--;
}

sim_entity *sim_find_entity(const pb_sim *sim, const char *name)
{
    if (!name || !sim->cap_by_name)
        return NULL;
    for (size_t i = name_hash(name) & (sim->cap_by_name - 1);; i = (i + 1) & (sim->cap_by_name - 1)) {
        const uint32_t v = sim->by_name[i];
        if (!v)
            return NULL;
        if (strcmp(sim->entities[v - 1].name, name) == 0)
            return &sim->entities[v - 1];
    }
}

const sim_named_pose *sim_find_named_pose(const pb_sim *sim, const char *name)
{
    for (size_t i = 0; sim->have_world && i < sim->world.n_poses; i++)
        if (strcmp(sim->world.poses[i].name, sim_str(name)) == 0)
            return &sim->world.poses[i];
    return NULL;
}

double sim_wrap_angle(double a)
{
    a = fmod(a + M_PI, 2 * M_PI);
    if (a < 0)
        a += 2 * M_PI;
    return a - M_PI;
}

/* What every pose message must be: a finite position, a unit quaternion (its norm into
 * `*norm`), a known frame (`*ref` the entity it names, NULL for the world). False with `why`. */
bool sim_pose_msg_valid(const pb_sim *sim, const pb_sim_pose *p, const char *frame, double *norm,
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
    frame = sim_str(frame);
    if (frame[0] == '/')
        frame++;
    if (frame[0] && strcmp(frame, "world") != 0 && strcmp(frame, "map") != 0 &&
        !(*ref = sim_find_entity(sim, frame))) {
        snprintf(why, size, "unknown frame '%s'", frame);
        return false;
    }
    return true;
}

bool sim_twist_finite(const pb_sim_twist *t)
{
    return isfinite(t->linear.x) && isfinite(t->linear.y) && isfinite(t->linear.z) &&
           isfinite(t->angular.x) && isfinite(t->angular.y) && isfinite(t->angular.z);
}

void sim_stop_motion(sim_entity *e)
{
    memset(e->twist, 0, sizeof e->twist);
    memset(e->twist3, 0, sizeof e->twist3);
    memset(e->body_twist, 0, sizeof e->body_twist);
    memset(e->body_twist3, 0, sizeof e->body_twist3);
    e->commanded = false;
}

void sim_stop_following(sim_entity *e, uint8_t why)
{
    if (e->n_path > 0)
        e->follow_end = why;
    e->n_path = 0;
}

void sim_start_following(pb_sim *sim, sim_entity *e, double *path, size_t n, size_t stride, double speed,
                         uint64_t *goal)
{
    double now[SIM_POSE_MAX > PB_MAX_DIM ? SIM_POSE_MAX : PB_MAX_DIM];
    e->kind->config(sim, e, now);
    free(e->path);
    e->path = path;
    e->n_path = n;
    e->path_stride = stride;
    e->path_next = 0;
    /* a PlanPath path starts at the current configuration: no step is spent reaching it */
    while (e->path_next + 1 < e->n_path &&
           e->kind->distance(sim, e, path + stride * e->path_next, now) < 1e-9)
        e->path_next++;
    e->follow_speed = speed;
    e->follow_id = ++sim->next_follow_id;
    e->follow_end = SIM_FOLLOW_ON;
    sim_stop_motion(e);
    *goal = e->follow_id;
}

double sim_path_remaining(const pb_sim *sim, const sim_entity *e)
{
    double now[SIM_POSE_MAX > PB_MAX_DIM ? SIM_POSE_MAX : PB_MAX_DIM];
    e->kind->config(sim, e, now);
    double left = 0.0;
    const double *from = now;
    for (size_t i = e->path_next; i < e->n_path; i++) {
        left += e->kind->distance(sim, e, from, e->path + e->path_stride * i);
        from = e->path + e->path_stride * i;
    }
    return left;
}

bool sim_follow_length_ok(const pb_sim *sim, double length, double speed, size_t n, pb_sim_result *r)
{
    if (length / (speed * sim->dt) + (double)n <= (double)SIM_MAX_ACTION_STEPS)
        return true;
    sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the path takes more than %llu steps at %g per second",
                   (unsigned long long)SIM_MAX_ACTION_STEPS, speed);
    return false;
}

static void entity_free(sim_entity *e)
{
    free(e->name);
    free(e->description);
    sim_strings_finish(&e->tags);
    free(e->path);
    pb_tracker_destroy(e->tracker);
}

bool sim_strings_copy(sim_strings *dst, const char *const *tags, size_t n)
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

/* A new entity of `kind` made from `robot`, not yet in the world: its kind's fields set, no
 * pose, no obstacle. For checking where it would fit before it is added. */
void sim_entity_prepare(sim_entity *e, pb_sim *sim, const sim_kind *kind, const sim_robot *robot)
{
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->obstacle = PB_OBSTACLE_NONE;
    e->category = robot->category;
    kind->init(sim, e, robot);
}

/* Add `prepared` (from entity_prepare) named `name` at `pose` (already checked free). */
sim_entity *sim_add_entity(pb_sim *sim, const sim_entity *prepared, const char *name, const sim_robot *robot,
                           const double *pose, bool spawned, bool is_static)
{
    sim_entity *grown =
        sim_reserve(sim->entities, &sim->cap_entities, sim->n_entities + 1, sizeof *grown, 16);
    if (!grown)
        return NULL;
    sim->entities = grown;
    sim_entity *e = &sim->entities[sim->n_entities];
    *e = *prepared;
    e->name = sim_strdup(name);
    e->description = sim_strdup(robot->description);
    if (!e->name || !e->description ||
        !sim_strings_copy(&e->tags, (const char *const *)robot->tags.items, robot->tags.n)) {
        entity_free(e);
        return NULL;
    }
    if (e->kind->attach(sim, e, pose) != PB_OK) {
        entity_free(e);
        return NULL;
    }
    e->is_static = is_static || robot->category == PB_SIM_CATEGORY_STATIC_OBJECT;
    e->spawned = spawned;
    if (2 * (sim->n_entities + 1) > sim->cap_by_name && !index_rebuild(sim, sim->n_entities + 1)) {
        e->kind->detach(sim, e);
        entity_free(e);
        return NULL;
    }
    index_put(sim->by_name, sim->cap_by_name, e->name, sim->n_entities);
    e->serial = ++sim->next_entity_serial;
    sim->n_entities++;
    sim_push_event(sim, PB_SIM_EVENT_CREATED, e->name);
    return e;
}

void sim_remove_entity(pb_sim *sim, size_t index)
{
    sim_entity *e = &sim->entities[index];
    index_remove(sim, index, index + 1 < sim->n_entities);
    e->kind->detach(sim, e);
    sim_push_event(sim, PB_SIM_EVENT_DELETED, e->name);
    entity_free(e);
    memmove(e, e + 1, (sim->n_entities - index - 1) * sizeof *e);
    sim->n_entities--;
}
