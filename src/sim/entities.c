/* The simulation's entities and what its parts share: the entity list (add, remove, look
 * up), the event queue, path following, pose-message checks and service results. The
 * services (sim.c) and the entity kinds (entity_*.c) call these; nothing here calls either
 * (kinds are reached through an entity's table). */
#include "sim_internal.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The alignment of an entity record (see sim_add_entity). */
#define RECORD_ALIGN 128

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
    if (!sim->events && !(sim->events = malloc(SIM_MAX_EVENTS * sizeof *sim->events)))
        return;
    if (sim->n_events == SIM_MAX_EVENTS) {
        /* nobody drains: drop the oldest rather than grow without bound (the ring keeps this
         * O(1): a spawn into a full queue once moved all 4,096 events) */
        free(sim->events[sim->first_event].name);
        sim->first_event = (sim->first_event + 1) % SIM_MAX_EVENTS;
        sim->n_events--;
    }
    char *copy = sim_strdup(name);
    if (!copy)
        return;
    sim->events[(sim->first_event + sim->n_events) % SIM_MAX_EVENTS] = (sim_event){kind, copy};
    sim->n_events++;
}

static uint32_t name_hash(const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
    return (uint32_t)(h ^ (h >> 29));
}

/* Put a slot into the name table (which has room). */
static void index_put(sim_name_slot *slots, size_t cap, sim_name_slot slot)
{
    size_t i = slot.hash & (cap - 1);
    while (slots[i].index)
        i = (i + 1) & (cap - 1);
    slots[i] = slot;
}

/* The name table at a size with room for `n`, from the hashes it holds (false: no memory, the
 * old table stays). */
static bool index_rebuild(pb_sim *sim, size_t n)
{
    size_t cap = 64;
    while (cap < 2 * n)
        cap *= 2;
    sim_name_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < sim->cap_by_name; i++)
        if (sim->by_name[i].index)
            index_put(slots, cap, sim->by_name[i]);
    free(sim->by_name);
    sim->by_name = slots;
    sim->cap_by_name = cap;
    return true;
}

/* The slot holding entity `index`'s number, or the table's size. */
static size_t index_slot(const pb_sim *sim, const char *name, size_t index)
{
    for (size_t i = name_hash(name) & (sim->cap_by_name - 1);; i = (i + 1) & (sim->cap_by_name - 1)) {
        if (!sim->by_name[i].index)
            return sim->cap_by_name;
        if (sim->by_name[i].index == index + 1)
            return i;
    }
}

/* Take entity `index` out of the name table (backward-shift deletion: no tombstones); with
 * `renumber`, the entities after it move down by one. */
static void index_remove(pb_sim *sim, size_t index, bool renumber)
{
    const size_t cap = sim->cap_by_name;
    size_t hole = cap ? index_slot(sim, sim->entities[index]->name, index) : cap;
    if (hole == cap)
        return;
    sim->by_name[hole].index = 0;
    for (size_t j = (hole + 1) & (cap - 1); sim->by_name[j].index; j = (j + 1) & (cap - 1)) {
        const size_t home = sim->by_name[j].hash & (cap - 1);
        /* move j into the hole when its home is not in (hole, j] (cyclically) */
        const bool stays = hole < j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!stays) {
            sim->by_name[hole] = sim->by_name[j];
            sim->by_name[j].index = 0;
            hole = j;
        }
    }
    for (size_t i = 0; renumber && i < cap; i++)
        if (sim->by_name[i].index > index + 1)
            sim->by_name[i].index--;
}

/* The slot of the entity named `name`, or NULL. */
static const sim_name_slot *find_slot(const pb_sim *sim, const char *name)
{
    if (!name || !sim->cap_by_name)
        return NULL;
    const uint32_t hash = name_hash(name);
    for (size_t i = hash & (sim->cap_by_name - 1);; i = (i + 1) & (sim->cap_by_name - 1)) {
        const sim_name_slot *slot = &sim->by_name[i];
        if (!slot->index)
            return NULL;
        if (slot->hash == hash && strcmp(slot->entity->name, name) == 0)
            return slot;
    }
}

/* The index of the entity named `name`, or SIZE_MAX. */
static size_t find_index(const pb_sim *sim, const char *name)
{
    const sim_name_slot *slot = find_slot(sim, name);
    return slot ? slot->index - 1 : SIZE_MAX;
}

sim_entity *sim_find_entity(const pb_sim *sim, const char *name)
{
    const sim_name_slot *slot = find_slot(sim, name);
    return slot ? slot->entity : NULL;
}

size_t sim_entity_index(const pb_sim *sim, const sim_entity *e)
{
    const size_t i = find_index(sim, e->name);
    assert(i != SIZE_MAX && sim->entities[i] == e);
    return i;
}

/* Remember that obstacle `id` of the world's engine is entity `index` (nothing without memory:
 * the map is a hint). */
static void obstacle_note(pb_sim *sim, uint32_t id, size_t index)
{
    if (id == PB_OBSTACLE_NONE)
        return;
    const size_t key = id & 0xffffu;
    uint32_t *grown = sim_reserve(sim->by_obstacle, &sim->cap_by_obstacle, key + 1, sizeof *grown, 64);
    if (!grown)
        return;
    sim->by_obstacle = grown;
    sim->by_obstacle[key] = (uint32_t)(index + 1);
}

void sim_note_obstacle(pb_sim *sim, const sim_entity *e)
{
    const size_t i = find_index(sim, e->name);
    if (i != SIZE_MAX)
        obstacle_note(sim, e->obstacle, i);
}

const sim_entity *sim_entity_of_obstacle(const pb_sim *sim, uint32_t id)
{
    if (id == PB_OBSTACLE_NONE)
        return NULL;
    const size_t key = id & 0xffffu;
    if (key < sim->cap_by_obstacle) {
        const uint32_t v = sim->by_obstacle[key];
        if (v && v <= sim->n_entities && sim->entities[v - 1]->obstacle == id)
            return sim->entities[v - 1];
    }
    /* not noted: ids of an engine that are not slots, or no memory for the note */
    for (size_t i = 0; i < sim->n_entities; i++)
        if (sim->entities[i]->obstacle == id)
            return sim->entities[i];
    return NULL;
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
    if (e->name != e->name_inline)
        free(e->name);
    free(e->description);
    sim_strings_finish(&e->tags);
    free(e->path);
    pb_tracker_destroy(e->tracker);
    free(e);
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
    sim_entity **grown =
        sim_reserve(sim->entities, &sim->cap_entities, sim->n_entities + 1, sizeof *grown, 16);
    if (!grown)
        return NULL;
    sim->entities = grown;
    if (2 * (sim->n_entities + 1) > sim->cap_by_name && !index_rebuild(sim, sim->n_entities + 1))
        return NULL;
    /* a record up to the end of its kind's fields (sim_entity), on whole pairs of cache lines
     * (a lookup reads the first two, which a processor fetching lines in pairs gets in one) */
    const size_t size = (prepared->kind->record_size + RECORD_ALIGN - 1) / RECORD_ALIGN * RECORD_ALIGN;
    sim_entity *e = aligned_alloc(RECORD_ALIGN, size);
    if (!e)
        return NULL;
    memcpy(e, prepared, prepared->kind->record_size);
    const size_t length = strlen(name);
    e->name = length < sizeof e->name_inline ? e->name_inline : malloc(length + 1);
    e->description = sim_strdup(robot->description);
    if (e->name)
        memcpy(e->name, name, length + 1);
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
    index_put(sim->by_name, sim->cap_by_name,
              (sim_name_slot){name_hash(e->name), (uint32_t)(sim->n_entities + 1), e});
    obstacle_note(sim, e->obstacle, sim->n_entities);
    e->serial = ++sim->next_entity_serial;
    sim->entities[sim->n_entities++] = e;
    sim_push_event(sim, PB_SIM_EVENT_CREATED, e->name);
    return e;
}

void sim_remove_entity(pb_sim *sim, size_t index)
{
    sim_entity *e = sim->entities[index];
    index_remove(sim, index, index + 1 < sim->n_entities);
    const size_t key = e->obstacle & 0xffffu;
    if (e->obstacle != PB_OBSTACLE_NONE && key < sim->cap_by_obstacle && sim->by_obstacle[key] == index + 1)
        sim->by_obstacle[key] = 0;
    e->kind->detach(sim, e);
    sim_push_event(sim, PB_SIM_EVENT_DELETED, e->name);
    entity_free(e);
    memmove(&sim->entities[index], &sim->entities[index + 1],
            (sim->n_entities - index - 1) * sizeof *sim->entities);
    sim->n_entities--;
    /* the obstacle map follows the entities that moved down (as the name table does) */
    for (size_t i = 0; i < sim->cap_by_obstacle; i++)
        if (sim->by_obstacle[i] > index + 1)
            sim->by_obstacle[i]--;
}
