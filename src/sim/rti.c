/* The RTI entity model (rti.h). The field names are the RTI's (inhumatesystems/rti-client:
 * Entity, EntityOperation, EntityPosition); the frame is ROS's (the world's map frame, x
 * forward, y left, z up, yaw counter-clockwise, docs/sim.md), where the RTI assumes Unity's. */
#include "rti.h"
#include "json_text.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEG (180.0 / 3.14159265358979323846)

/* What the server knows of an entity: its owner and the position receivers extrapolate. */
typedef struct tracked {
    char *name; /* NULL: a free slot; the table never shrinks below its entities */
    char owner[RTI_CLIENT_ID_SIZE];
    bool published;        /* a position went out */
    double t;              /* its sim time */
    pb_sim_vec3 p, v, a;   /* position, body-frame velocity and acceleration (forward, left, up) */
    double qx, qy, qz, qw; /* orientation */
    double yaw_rate;       /* rad/s about z */
    double last_vehicle;   /* sim time of its last vehicle state, -inf: none yet */
    bool vehicle;
} tracked;

struct rti {
    rti_io io;
    rti_config config;
    tracked *slots; /* open addressing on the name */
    size_t cap, n;
};

rti_config rti_config_default(void)
{
    return (rti_config){.position_tolerance = 0.01,
                        .angle_tolerance = 0.5 / DEG,
                        .heartbeat = 1.0,
                        .vehiclestate_period = 0.1,
                        .ownership = true};
}

rti *rti_create(const rti_io *io, const rti_config *config)
{
    rti *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->io = *io;
    r->config = *config;
    return r;
}

void rti_destroy(rti *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->cap; i++)
        free(r->slots[i].name);
    free(r->slots);
    free(r);
}

static uint64_t hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* The slot of `name`, or NULL. */
static tracked *find(const rti *r, const char *name)
{
    if (!r->cap)
        return NULL;
    for (size_t i = hash(name) & (r->cap - 1), k = 0; k < r->cap; i = (i + 1) & (r->cap - 1), k++) {
        if (!r->slots[i].name && !r->slots[i].owner[0])
            return NULL; /* never used: the end of the probe */
        if (r->slots[i].name && strcmp(r->slots[i].name, name) == 0)
            return &r->slots[i];
    }
    return NULL;
}

static bool grow(rti *r)
{
    const size_t cap = r->cap ? 2 * r->cap : 64;
    tracked *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < r->cap; i++)
        if (r->slots[i].name) {
            size_t j = hash(r->slots[i].name) & (cap - 1);
            while (slots[j].name)
                j = (j + 1) & (cap - 1);
            slots[j] = r->slots[i];
        }
    free(r->slots);
    r->slots = slots;
    r->cap = cap;
    return true;
}

static tracked *add(rti *r, const char *name)
{
    tracked *t = find(r, name);
    if (t)
        return t;
    if ((r->n + 1) * 2 > r->cap && !grow(r))
        return NULL;
    size_t i = hash(name) & (r->cap - 1);
    while (r->slots[i].name)
        i = (i + 1) & (r->cap - 1);
    t = &r->slots[i];
    *t = (tracked){.name = strdup(name), .last_vehicle = -INFINITY};
    snprintf(t->owner, sizeof t->owner, "%s", RTI_SERVER); /* also marks the slot used */
    if (!t->name)
        return NULL;
    r->n++;
    return t;
}

/* ---- the messages ---- */

static double yaw_of(double qx, double qy, double qz, double qw)
{
    return atan2(2 * (qw * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz));
}

static void jt_key(json_text *j, const char *key, double v, bool comma)
{
    jt_str(j, key);
    JT_LIT(j, ":");
    jt_real(j, v);
    if (comma)
        JT_LIT(j, ",");
}

static void jt_triple(json_text *j, const char *name, const char *const keys[3], double a, double b, double c)
{
    jt_str(j, name);
    JT_LIT(j, ":{");
    jt_key(j, keys[0], a, true);
    jt_key(j, keys[1], b, true);
    jt_key(j, keys[2], c, false);
    JT_LIT(j, "}");
}

static void jt_publish_head(json_text *j, const char *topic)
{
    JT_LIT(j, "{\"op\":\"publish\",\"topic\":");
    jt_str(j, topic);
    JT_LIT(j, ",\"msg\":");
}

/* An EntityPosition of `t` (the state it was last published with). */
static void jt_position(json_text *j, const tracked *t, uint64_t ns)
{
    static const char *const xyz[3] = {"x", "y", "z"}, *const fru[3] = {"forward", "right", "up"},
                             *const rpy[3] = {"roll", "pitch", "yaw"};
    const double roll = atan2(2 * (t->qw * t->qx + t->qy * t->qz), 1 - 2 * (t->qx * t->qx + t->qy * t->qy));
    const double sinp = 2 * (t->qw * t->qy - t->qz * t->qx);
    const double pitch = fabs(sinp) >= 1 ? copysign(M_PI / 2, sinp) : asin(sinp);
    JT_LIT(j, "{\"id\":");
    jt_str(j, t->name);
    JT_LIT(j, ",");
    JT_LIT(j, "\"stamp\":");
    rb_write_stamp(j, ns);
    JT_LIT(j, ",");
    jt_triple(j, "local", xyz, t->p.x, t->p.y, t->p.z);
    JT_LIT(j, ",\"local_rotation\":{");
    jt_key(j, "x", t->qx, true);
    jt_key(j, "y", t->qy, true);
    jt_key(j, "z", t->qz, true);
    jt_key(j, "w", t->qw, false);
    JT_LIT(j, "},");
    jt_triple(j, "euler_rotation", rpy, roll * DEG, pitch * DEG, yaw_of(t->qx, t->qy, t->qz, t->qw) * DEG);
    JT_LIT(j, ",");
    jt_triple(j, "velocity", fru, t->v.x, -t->v.y, t->v.z);
    JT_LIT(j, ",");
    jt_triple(j, "acceleration", fru, t->a.x, -t->a.y, t->a.z);
    JT_LIT(j, ",");
    jt_triple(j, "angular_velocity", rpy, 0.0, 0.0, t->yaw_rate * DEG);
    JT_LIT(j, "}");
}

/* Take the entity's true state into `t` (what the next position message says). */
static void take_state(tracked *t, const pb_sim_entity_state *st, double now)
{
    t->p = st->pose.position;
    t->qx = st->pose.qx;
    t->qy = st->pose.qy;
    t->qz = st->pose.qz;
    t->qw = st->pose.qw;
    t->v = rb_to_body(&st->pose, st->twist.linear);
    t->a = rb_to_body(&st->pose, st->acceleration.linear);
    t->yaw_rate = st->twist.angular.z;
    t->t = now;
    t->published = true;
}

/* Where a receiver puts the entity at `now` from its last position: the body-frame velocity
 * and acceleration turned by the published orientation, the heading turned at the yaw rate. */
static void dead_reckon(const tracked *t, double now, pb_sim_vec3 *p, double *yaw)
{
    const double dt = now - t->t;
    const pb_sim_vec3 d = {t->v.x * dt + 0.5 * t->a.x * dt * dt, t->v.y * dt + 0.5 * t->a.y * dt * dt,
                           t->v.z * dt + 0.5 * t->a.z * dt * dt};
    const double x = t->qx, y = t->qy, z = t->qz, w = t->qw;
    p->x = t->p.x + (1 - 2 * (y * y + z * z)) * d.x + 2 * (x * y - z * w) * d.y + 2 * (x * z + y * w) * d.z;
    p->y = t->p.y + 2 * (x * y + z * w) * d.x + (1 - 2 * (x * x + z * z)) * d.y + 2 * (y * z - x * w) * d.z;
    p->z = t->p.z + 2 * (x * z - y * w) * d.x + 2 * (y * z + x * w) * d.y + (1 - 2 * (x * x + y * y)) * d.z;
    *yaw = yaw_of(x, y, z, w) + t->yaw_rate * dt;
}

static void publish_position(rti *r, const tracked *t, const char *to)
{
    json_text j = {0};
    jt_publish_head(&j, "/rti/position");
    jt_position(&j, t, pb_sim_time_ns(r->io.sim));
    JT_LIT(&j, "}");
    char *text = jt_finish(&j);
    if (text)
        r->io.publish(r->io.io, RB_TOPIC_RTI_POSITION, t->name, to, text);
}

/* RTI's EntityCategory of a simulation_interfaces category (VEHICLE for vehicles). */
static int rti_category(uint8_t category, bool vehicle)
{
    if (vehicle)
        return 4; /* VEHICLE */
    return category == PB_SIM_CATEGORY_HUMAN ? 2 /* PERSON */ : 1 /* OTHER_CATEGORY */;
}

static const char *category_name(uint8_t category, bool vehicle)
{
    if (vehicle)
        return "vehicle";
    switch (category) {
    case PB_SIM_CATEGORY_ROBOT:
        return "robot";
    case PB_SIM_CATEGORY_HUMAN:
        return "human";
    case PB_SIM_CATEGORY_DYNAMIC_OBJECT:
        return "dynamic_object";
    case PB_SIM_CATEGORY_STATIC_OBJECT:
        return "static_object";
    default:
        return "object";
    }
}

/* The Entity message of `t`: its metadata and (not deleted) its position now. */
static void publish_entity(rti *r, tracked *t, bool deleted, const char *to)
{
    pb_sim *sim = r->io.sim;
    json_text j = {0};
    jt_publish_head(&j, "/rti/entity");
    JT_LIT(&j, "{\"id\":");
    jt_str(&j, t->name);
    JT_LIT(&j, ",\"owner_client_id\":");
    jt_str(&j, t->owner);
    if (deleted) {
        JT_LIT(&j, ",\"deleted\":true}}");
    } else {
        pb_sim_result res;
        pb_sim_entity_state st;
        pb_sim_get_entity_state(sim, t->name, &res, &st);
        if (res.result == PB_SIM_RESULT_OK)
            take_state(t, &st, pb_sim_time(sim));
        pb_sim_entity_info info = {0};
        pb_sim_get_entity_info(sim, t->name, &res, &info);
        pb_sim_vehicle_status vs;
        t->vehicle = pb_sim_get_vehicle_status(sim, t->name, &vs);
        pb_sim_bounds b = {0};
        pb_sim_get_entity_bounds(sim, t->name, &res, &b);
        pb_sim_vec3 lo = {0}, hi = {0};
        if (b.type == PB_SIM_BOUNDS_BOX && b.n_points >= 2) {
            lo = b.points[0];
            hi = b.points[1];
        } else if (b.type == PB_SIM_BOUNDS_SPHERE && b.n_points >= 2) {
            const double rad = b.points[1].x;
            lo = (pb_sim_vec3){b.points[0].x - rad, b.points[0].y - rad, b.points[0].z - rad};
            hi = (pb_sim_vec3){b.points[0].x + rad, b.points[0].y + rad, b.points[0].z + rad};
        }
        static const char *const xyz[3] = {"x", "y", "z"};
        JT_LIT(&j, ",\"position\":");
        jt_position(&j, t, pb_sim_time_ns(sim));
        JT_LIT(&j, ",\"type\":");
        jt_str(&j, category_name(info.category, t->vehicle));
        JT_LIT(&j, ",\"category\":");
        jt_int(&j, rti_category(info.category, t->vehicle));
        JT_LIT(&j, ",\"domain\":2,\"dimensions\":{"); /* LAND */
        jt_key(&j, "length", hi.x - lo.x, true);
        jt_key(&j, "width", hi.y - lo.y, true);
        jt_key(&j, "height", hi.z - lo.z, true);
        jt_triple(&j, "center", xyz, (lo.x + hi.x) / 2, (lo.y + hi.y) / 2, (lo.z + hi.z) / 2);
        /* a colour of its own, the same for the same name */
        const uint64_t h = hash(t->name);
        JT_LIT(&j, "},\"color\":{\"red\":");
        jt_int(&j, (long long)(64 + (h & 0x7f)));
        JT_LIT(&j, ",\"green\":");
        jt_int(&j, (long long)(64 + ((h >> 8) & 0x7f)));
        JT_LIT(&j, ",\"blue\":");
        jt_int(&j, (long long)(64 + ((h >> 16) & 0x7f)));
        JT_LIT(&j, "},\"title\":");
        jt_str(&j, info.description && info.description[0] ? info.description : t->name);
        JT_LIT(&j, ",\"disabled\":false,\"deleted\":false}}");
    }
    char *text = jt_finish(&j);
    if (text)
        r->io.publish(r->io.io, RB_TOPIC_RTI_ENTITY, t->name, to, text);
}

/* ---- life cycle, steps ---- */

void rti_on_event(rti *r, pb_sim_event_kind kind, const char *entity, const char *owner)
{
    if (kind == PB_SIM_EVENT_CREATED) {
        tracked *t = add(r, entity);
        if (!t)
            return;
        snprintf(t->owner, sizeof t->owner, "%s", owner && r->config.ownership ? owner : RTI_SERVER);
        t->published = false;
        t->last_vehicle = -INFINITY;
        publish_entity(r, t, false, NULL);
        publish_position(r, t, NULL); /* after its Entity, never before */
    } else if (kind == PB_SIM_EVENT_INFO_CHANGED) {
        tracked *t = find(r, entity);
        if (t)
            publish_entity(r, t, false, NULL);
    } else if (kind == PB_SIM_EVENT_DELETED) {
        tracked *t = find(r, entity);
        if (!t)
            return;
        publish_entity(r, t, true, NULL); /* its last message */
        free(t->name);
        t->name = NULL; /* the owner stays set: the probe goes on past this slot */
        r->n--;
    }
}

void rti_world_changed(rti *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->cap; i++)
        if (r->slots[i].name)
            rti_on_event(r, PB_SIM_EVENT_DELETED, r->slots[i].name, NULL);
    pb_sim_result res;
    const char *const *names;
    size_t n = 0;
    pb_sim_get_entities(r->io.sim, NULL, &res, &names, &n);
    for (size_t i = 0; i < n; i++)
        rti_on_event(r, PB_SIM_EVENT_CREATED, names[i], NULL);
}

static void publish_vehicle_state(rti *r, tracked *t, double now)
{
    pb_sim_vehicle_status vs;
    if (!pb_sim_get_vehicle_status(r->io.sim, t->name, &vs))
        return;
    static const char *const signals[] = {"NONE", "LEFT", "RIGHT", "HAZARD"};
    const int signal = vs.hazard_lights == 2     ? 3
                       : vs.turn_indicators == 2 ? 1
                       : vs.turn_indicators == 3 ? 2
                                                 : 0;
    const char *gear = vs.gear == 22   ? "PARKING"
                       : vs.gear == 20 ? "REVERSE"
                       : vs.gear == 1  ? "NEUTRAL"
                                       : "DRIVE";
    json_text j = {0};
    jt_publish_head(&j, "/rti/vehiclestate");
    JT_LIT(&j, "{\"id\":");
    jt_str(&j, t->name);
    JT_LIT(&j, ",");
    JT_LIT(&j, "\"stamp\":");
    rb_write_stamp(&j, pb_sim_time_ns(r->io.sim));
    JT_LIT(&j, ",\"gear\":");
    jt_str(&j, gear);
    JT_LIT(&j, ",\"steer\":");
    jt_real(&j, vs.steering_tire_angle);
    JT_LIT(&j, ",\"signal\":");
    jt_str(&j, signals[signal]);
    /* the blink phase: lit the first half of every second (as the vehicle model blinks) */
    /* (JT_LIT takes a literal: a chosen string goes through jt_raw) */
    const char *blink = signal && fmod(now, 1.0) < 0.5 ? ",\"blink\":true" : ",\"blink\":false";
    jt_raw(&j, blink, strlen(blink));
    const char *brake =
        vs.longitudinal_velocity * vs.acceleration < 0.0 ? ",\"brake_light\":true" : ",\"brake_light\":false";
    jt_raw(&j, brake, strlen(brake));
    JT_LIT(&j, ",\"speed\":");
    jt_real(&j, vs.longitudinal_velocity);
    JT_LIT(&j, "}}");
    char *text = jt_finish(&j);
    if (text)
        r->io.publish(r->io.io, RB_TOPIC_RTI_VEHICLESTATE, t->name, NULL, text);
    t->last_vehicle = now;
}

void rti_on_step(rti *r)
{
    if (!r || !r->n)
        return;
    pb_sim_result res;
    const char *const *names;
    const pb_sim_entity_state *states;
    size_t n = 0;
    pb_sim_get_entities_states(r->io.sim, NULL, &res, &names, &states, &n);
    const double now = pb_sim_time(r->io.sim);
    for (size_t i = 0; i < n; i++) {
        tracked *t = find(r, names[i]);
        if (!t)
            continue;
        const pb_sim_entity_state *st = &states[i];
        bool due = !t->published || now < t->t || now - t->t >= r->config.heartbeat - 1e-9;
        if (!due) {
            pb_sim_vec3 p;
            double yaw;
            dead_reckon(t, now, &p, &yaw);
            const double err =
                hypot(hypot(p.x - st->pose.position.x, p.y - st->pose.position.y), p.z - st->pose.position.z);
            const double dyaw =
                remainder(yaw - yaw_of(st->pose.qx, st->pose.qy, st->pose.qz, st->pose.qw), 2 * M_PI);
            due = err > r->config.position_tolerance || fabs(dyaw) > r->config.angle_tolerance;
        }
        if (due) {
            take_state(t, st, now);
            publish_position(r, t, NULL);
        }
        if (t->vehicle &&
            (now < t->last_vehicle || now - t->last_vehicle >= r->config.vehiclestate_period - 1e-9))
            publish_vehicle_state(r, t, now);
    }
}

void rti_publish_all(rti *r, const char *to)
{
    for (size_t i = 0; i < r->cap; i++)
        if (r->slots[i].name) {
            publish_entity(r, &r->slots[i], false, to);
            publish_position(r, &r->slots[i], to);
        }
}

/* ---- ownership ---- */

bool rti_may_command(const rti *r, const char *entity, const char *client, char *why, size_t size)
{
    if (!r || !r->config.ownership)
        return true;
    const tracked *t = find(r, entity);
    if (!t || strcmp(t->owner, RTI_SERVER) == 0 || strcmp(t->owner, client) == 0)
        return true; /* unknown (the simulation answers), unclaimed, or its own */
    snprintf(why, size, "'%s' is owned by %s, not by %s (issue an assume_ownership once it is released)",
             entity, t->owner, client);
    return false;
}

static const char *str_of(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

bool rti_operation(rti *r, const char *client, const json_t *msg, char *err, size_t size)
{
    static const char *const ops[] = {"request_update", "transfer_ownership", "assume_ownership",
                                      "release_ownership", "claim_ownership"};
    if (!json_is_object(msg)) {
        snprintf(err, size, "/rti/entities: an EntityOperation is an object");
        return false;
    }
    int which = -1, count = 0;
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)msg, key, value)
    {
        int k = -1;
        for (int i = 0; i < 5; i++)
            if (strcmp(key, ops[i]) == 0)
                k = i;
        if (k < 0 && strcmp(key, "entity_id") != 0) {
            snprintf(err, size,
                     "/rti/entities: unknown field '%.100s' (request_update, transfer_ownership, "
                     "assume_ownership, release_ownership)",
                     key);
            return false;
        }
        if (k >= 0 && !json_is_null(value) && !json_is_false(value)) {
            which = k;
            count++;
        }
    }
    if (count != 1) {
        snprintf(err, size, "/rti/entities: an EntityOperation names exactly one operation (it names %d)",
                 count);
        return false;
    }
    const json_t *arg = json_object_get(msg, ops[which]);
    if (which == 0) { /* request_update: every entity (or entity_id's) to the asker, at once */
        const char *id = json_is_object(arg) ? str_of(arg, "entity_id") : str_of(msg, "entity_id");
        if (id && id[0]) {
            tracked *t = find(r, id);
            if (!t) {
                snprintf(err, size, "request_update: no entity '%.200s'", id);
                return false;
            }
            publish_entity(r, t, false, client);
            publish_position(r, t, client);
        } else {
            rti_publish_all(r, client);
        }
        return true;
    }
    const char *entity = json_is_object(arg) ? str_of(arg, "entity_id") : NULL;
    const char *target = json_is_object(arg) ? str_of(arg, "client_id") : NULL;
    if (!entity) {
        snprintf(err, size, "%s: entity_id (a string) is missing", ops[which]);
        return false;
    }
    tracked *t = find(r, entity);
    if (!t) {
        snprintf(err, size, "%s: no entity '%.200s'", ops[which], entity);
        return false;
    }
    if (!r->config.ownership) {
        snprintf(err, size, "%s: this server does not arbitrate ownership (--no-ownership)", ops[which]);
        return false;
    }
    if (which == 1) { /* transfer, by its owner, to a client that exists (or to the server) */
        if (strcmp(t->owner, client) != 0) {
            snprintf(err, size, "transfer_ownership: '%.200s' is owned by %s, not by %s", entity, t->owner,
                     client);
            return false;
        }
        if (!target || !(strcmp(target, RTI_SERVER) == 0 || r->io.client_exists(r->io.io, target))) {
            snprintf(err, size, "transfer_ownership: no client '%.100s' to transfer '%.200s' to",
                     target ? target : "(client_id missing)", entity);
            return false;
        }
        snprintf(t->owner, sizeof t->owner, "%s", target);
    } else if (which == 2 ||
               which == 4) { /* assume (claim): only a released (server-owned) entity, by the asker */
        if (target && target[0] && strcmp(target, client) != 0) {
            snprintf(err, size, "assume_ownership: %s cannot assume for another client (%.100s)", client,
                     target);
            return false;
        }
        if (strcmp(t->owner, client) == 0)
            return true; /* already its own */
        if (strcmp(t->owner, RTI_SERVER) != 0) {
            snprintf(err, size, "assume_ownership: '%.200s' is owned by %s: it must be released first",
                     entity, t->owner);
            return false;
        }
        snprintf(t->owner, sizeof t->owner, "%s", client);
    } else { /* release, by its owner */
        if (strcmp(t->owner, client) != 0) {
            snprintf(err, size, "release_ownership: '%.200s' is owned by %s, not by %s", entity, t->owner,
                     client);
            return false;
        }
        snprintf(t->owner, sizeof t->owner, "%s", RTI_SERVER);
    }
    publish_entity(r, t, false, NULL); /* the new owner, for everybody */
    return true;
}

static bool number_at(const json_t *o, const char *key, double *v)
{
    const json_t *x = json_object_get(o, key);
    if (!json_is_number(x) || !isfinite(json_number_value(x)))
        return false;
    *v = json_number_value(x);
    return true;
}

/* `names` of object `key` of `msg` into `out` (every one a finite number). */
static bool triple(const json_t *msg, const char *key, const char *const *names, int n, double *out)
{
    const json_t *o = json_object_get(msg, key);
    for (int i = 0; i < n; i++)
        if (!json_is_object(o) || !number_at(o, names[i], &out[i]))
            return false;
    return true;
}

bool rti_position(rti *r, const char *client, const json_t *msg, char *err, size_t size)
{
    static const char *const xyz[] = {"x", "y", "z", "w"}, *const fru[] = {"forward", "right", "up"},
                             *const rpy[] = {"roll", "pitch", "yaw"};
    const char *id = json_is_object(msg) ? str_of(msg, "id") : NULL;
    double p[3], q[4], v[3] = {0}, w[3] = {0};
    if (!id || !triple(msg, "local", xyz, 3, p) || !triple(msg, "local_rotation", xyz, 4, q)) {
        snprintf(err, size,
                 "/rti/position: an EntityPosition needs id, local {x, y, z} and local_rotation "
                 "{x, y, z, w}, finite numbers");
        return false;
    }
    if ((json_object_get(msg, "velocity") && !triple(msg, "velocity", fru, 3, v)) ||
        (json_object_get(msg, "angular_velocity") && !triple(msg, "angular_velocity", rpy, 3, w))) {
        snprintf(err, size,
                 "/rti/position: velocity {forward, right, up} and angular_velocity {roll, pitch, "
                 "yaw} must be finite numbers");
        return false;
    }
    tracked *t = find(r, id);
    if (!t) {
        snprintf(err, size, "/rti/position: no entity '%.200s'", id);
        return false;
    }
    if (r->config.ownership && strcmp(t->owner, client) != 0) {
        snprintf(err, size,
                 "/rti/position: '%.200s' is owned by %s, not by %s: only its owner publishes its position",
                 id, t->owner, client);
        return false;
    }
    const double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 1e-9)) {
        snprintf(err, size, "/rti/position: local_rotation is not a rotation (zero quaternion)");
        return false;
    }
    pb_sim_set_state_request rq = {.entity = id, .has_flags = true, .set_pose = true, .set_twist = true};
    rq.state.pose = (pb_sim_pose){{p[0], p[1], p[2]}, q[0] / n, q[1] / n, q[2] / n, q[3] / n};
    /* the body-frame velocity (right = -left) in the world frame, the yaw rate in rad/s */
    const tracked frame = {.qx = q[0] / n, .qy = q[1] / n, .qz = q[2] / n, .qw = q[3] / n, .p = {0, 0, 0}};
    pb_sim_vec3 world;
    double ignored;
    tracked moving = frame;
    moving.v = (pb_sim_vec3){v[0], -v[1], v[2]};
    moving.t = 0.0;
    dead_reckon(&moving, 1.0, &world, &ignored); /* R (v * 1 s) */
    rq.state.twist.linear = world;
    rq.state.twist.angular = (pb_sim_vec3){0.0, 0.0, w[2] / DEG};
    pb_sim_result res;
    pb_sim_set_entity_state(r->io.sim, &rq, &res);
    if (res.result != PB_SIM_RESULT_OK) {
        snprintf(err, size, "/rti/position: %.200s: %s", id, res.error_message);
        return false;
    }
    return true;
}

void rti_client_gone(rti *r, const char *client)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->cap; i++) {
        tracked *t = &r->slots[i];
        if (t->name && strcmp(t->owner, client) == 0) {
            snprintf(t->owner, sizeof t->owner, "%s", RTI_SERVER);
            publish_entity(r, t, false, NULL);
        }
    }
}
