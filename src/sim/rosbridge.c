/* The rosbridge v2 codec: rosbridge JSON to the service structs and back (spec §2, §7).
 *
 * Requests are checked against a schema of each message before any field is read, with
 * rosbridge's own failure texts: an unknown field, or a JSON value of the wrong type for
 * its ROS type (an integer is accepted for a float, never a float for an integer, nor a
 * boolean for a number, nor null), or an integer out of its ROS type's range, gets a
 * `result: false` reply. Values in range that are not one of a message's constants (a
 * state 9, a bounds type 7) are the service's business and get a typed Result. */
#include "json_text.h"
#include "rosapi.h"
#include "rosbridge.h"
#include "asg_worker.h"
#include "schema.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MESSAGE_BYTES (4u << 20)

/* ---------------------------------------------------------------- schema */

static const char *py_class(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "<class 'dict'>";
    case JSON_ARRAY:
        return "<class 'list'>";
    case JSON_STRING:
        return "<class 'str'>";
    case JSON_INTEGER:
        return "<class 'int'>";
    case JSON_REAL:
        return "<class 'float'>";
    case JSON_TRUE:
    case JSON_FALSE:
        return "<class 'bool'>";
    default:
        return "<class 'NoneType'>";
    }
}

static const char *ros_name(const field *f)
{
    static const char *const names[] = {"bool",   "uint8",  "uint16",  "int32",
                                        "uint32", "uint64", "float64", "string"};
    return f->type == T_MSG || f->type == T_TIME ? f->ros : names[f->type];
}

static bool scalar_ok(const field *f, const json_t *v)
{
    switch (f->type) {
    case T_BOOL:
        return json_is_boolean(v);
    case T_F64:
        return json_is_number(v);
    case T_STR:
        return json_is_string(v);
    case T_U64:
        return json_is_integer(v) && json_integer_value(v) >= 0;
    default: {
        if (!json_is_integer(v))
            return false;
        const json_int_t x = json_integer_value(v);
        const json_int_t lo = f->type == T_I32 ? INT32_MIN : 0;
        const json_int_t hi = f->type == T_U8    ? 255
                              : f->type == T_U16 ? 65535
                              : f->type == T_I32 ? INT32_MAX
                                                 : UINT32_MAX;
        return x >= lo && x <= hi;
    }
    }
}

/* Check `obj` against `fields`; false with a rosbridge-style message. */
static bool check_msg(const field *fields, const json_t *obj, const char *root, const char *path, char *err,
                      size_t size);

static bool check_value(const field *f, const json_t *v, const char *root, const char *path, char *err,
                        size_t size)
{
    if (f->type == T_TIME) {
        if (json_is_string(v) && strcmp(json_string_value(v), "now") == 0)
            return true;
        if (json_is_object(v)) {
            const char *key;
            json_t *x;
            json_object_foreach((json_t *)v, key, x)
            {
                const bool known = !strcmp(key, "sec") || !strcmp(key, "nanosec") || !strcmp(key, "secs") ||
                                   !strcmp(key, "nsecs");
                const field f_int = {key, strcmp(key, "sec") == 0 || strcmp(key, "secs") == 0 ? T_I32 : T_U32,
                                     0, 0, 0};
                if (!known) {
                    snprintf(err, size, "Message type builtin_interfaces/Time does not have a field %s", key);
                    return false;
                }
                if (!scalar_ok(&f_int, x)) {
                    snprintf(err, size, "%s message requires a %s for field %s.%s, but got a %s", root,
                             ros_name(&f_int), path, key, py_class(x));
                    return false;
                }
            }
            return true;
        }
    } else if (f->type == T_MSG) {
        if (json_is_object(v))
            return check_msg(f->sub, v, root, path, err, size);
    } else if (scalar_ok(f, v)) {
        return true;
    }
    const bool range = json_is_integer(v) && f->type != T_F64 && f->type != T_BOOL && f->type != T_STR &&
                       f->type != T_MSG && f->type != T_TIME;
    if (range)
        snprintf(err, size, "%s message requires a %s for field %s, but got %lld (out of range)", root,
                 ros_name(f), path, (long long)json_integer_value(v));
    else
        snprintf(err, size, "%s message requires a %s for field %s, but got a %s", root, ros_name(f), path,
                 py_class(v));
    return false;
}

static bool check_msg(const field *fields, const json_t *obj, const char *root, const char *path, char *err,
                      size_t size)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v)
    {
        const field *f = fields;
        while (f->name && strcmp(f->name, key) != 0)
            f++;
        char sub[512];
        snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", key);
        if (!f->name) {
            snprintf(err, size, "Message type %s does not have a field %s", root, sub);
            return false;
        }
        if (f->array) {
            if (!json_is_array(v)) {
                snprintf(err, size, "%s message requires a %s[] for field %s, but got a %s", root,
                         ros_name(f), sub, py_class(v));
                return false;
            }
            size_t i;
            json_t *item;
            json_array_foreach(v, i, item)
            {
                if (!check_value(f, item, root, sub, err, size))
                    return false;
            }
        } else if (!check_value(f, v, root, sub, err, size)) {
            return false;
        }
    }
    return true;
}

/* ---------------------------------------------------------------- readers (after checking) */

static json_t *get(const json_t *obj, const char *key)
{
    return obj ? json_object_get(obj, key) : NULL;
}
static const char *get_str(const json_t *obj, const char *key)
{
    const json_t *v = get(obj, key);
    return json_is_string(v) ? json_string_value(v) : "";
}
static double get_f64(const json_t *obj, const char *key, double fallback)
{
    const json_t *v = get(obj, key);
    return json_is_number(v) ? json_number_value(v) : fallback;
}
static uint64_t get_u64(const json_t *obj, const char *key, uint64_t fallback)
{
    const json_t *v = get(obj, key);
    return json_is_integer(v) ? (uint64_t)json_integer_value(v) : fallback;
}
static bool get_bool(const json_t *obj, const char *key)
{
    return json_is_true(get(obj, key));
}

static pb_sim_vec3 read_vec3(const json_t *o)
{
    return (pb_sim_vec3){get_f64(o, "x", 0), get_f64(o, "y", 0), get_f64(o, "z", 0)};
}

static pb_sim_pose read_pose(const json_t *o)
{
    const json_t *q = get(o, "orientation");
    return (pb_sim_pose){read_vec3(get(o, "position")), get_f64(q, "x", 0), get_f64(q, "y", 0),
                         get_f64(q, "z", 0), get_f64(q, "w", 1)};
}

static pb_sim_twist read_twist(const json_t *o)
{
    return (pb_sim_twist){read_vec3(get(o, "linear")), read_vec3(get(o, "angular"))};
}

/* Borrowed string arrays: the pointers live in the JSON tree; `store` is caller scratch. */
static size_t read_strings(const json_t *arr, const char ***store)
{
    const size_t n = json_array_size(arr);
    *store = NULL;
    if (n == 0)
        return 0;
    *store = calloc(n, sizeof **store);
    if (!*store)
        return 0;
    for (size_t i = 0; i < n; i++)
        (*store)[i] = json_string_value(json_array_get(arr, i));
    return n;
}

static void read_bounds(const json_t *o, pb_sim_bounds *b)
{
    memset(b, 0, sizeof *b);
    b->type = (uint8_t)get_u64(o, "type", 0);
    const json_t *pts = get(o, "points");
    b->n_points = json_array_size(pts);
    if (b->n_points > PB_SIM_MAX_BOUNDS_POINTS)
        b->n_points = PB_SIM_MAX_BOUNDS_POINTS;
    for (size_t i = 0; i < b->n_points; i++)
        b->points[i] = read_vec3(json_array_get(pts, i));
}

typedef struct scratch {
    const char **a, **b;
    uint8_t *cats;
    double *reals;
    double timeout;       /* call_service `timeout` in seconds, 0 when absent */
    json_t *id, *service; /* the call's, borrowed, for a reply sent later */
    bool deferred;        /* the service replies later (a plan running off the server thread) */
} scratch;

/* A float64[] (checked) as doubles in `*store` (caller frees); the count, 0 when empty or
 * out of memory. */
static size_t read_doubles(const json_t *arr, double **store)
{
    const size_t n = json_array_size(arr);
    *store = n ? malloc(n * sizeof **store) : NULL;
    if (!*store)
        return 0;
    for (size_t i = 0; i < n; i++)
        (*store)[i] = json_number_value(json_array_get(arr, i));
    return n;
}

static void read_tags_filter(const json_t *o, pb_sim_tags_filter *t, const char ***store)
{
    t->n_tags = read_strings(get(o, "tags"), store);
    t->tags = *store;
    t->filter_mode = (uint8_t)get_u64(o, "filter_mode", 0);
}

static void read_filters(const json_t *o, pb_sim_entity_filters *f, scratch *s)
{
    memset(f, 0, sizeof *f);
    f->filter = get_str(o, "filter");
    const json_t *cats = get(o, "categories");
    f->n_categories = json_array_size(cats);
    if (f->n_categories) {
        s->cats = calloc(f->n_categories, 1);
        if (!s->cats)
            f->n_categories = 0;
        for (size_t i = 0; i < f->n_categories; i++)
            s->cats[i] = (uint8_t)get_u64(json_array_get(cats, i), "category", 0);
        f->categories = s->cats;
    }
    read_tags_filter(get(o, "tags"), &f->tags, &s->a);
    read_bounds(get(o, "bounds"), &f->bounds);
}

static void read_spawn(const json_t *o, pb_sim_spawn_request *rq)
{
    const json_t *res = get(o, "entity_resource");
    const json_t *ip = get(o, "initial_pose");
    *rq = (pb_sim_spawn_request){
        .name = get_str(o, "name"),
        .allow_renaming = get_bool(o, "allow_renaming"),
        .uri = res ? get_str(res, "uri") : get_str(o, "uri"),
        .resource_string = res ? get_str(res, "resource_string") : get_str(o, "resource_string"),
        .entity_namespace = get_str(o, "entity_namespace"),
        .frame_id = get_str(get(ip, "header"), "frame_id"),
        .initial_pose = read_pose(get(ip, "pose")),
    };
}

/* ---------------------------------------------------------------- writers */

static json_t *j_result(const pb_sim_result *r)
{
    return json_pack("{s:i,s:s}", "result", (int)r->result, "error_message", r->error_message);
}

static json_t *j_real(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *j_vec3(const pb_sim_vec3 *v)
{
    return json_pack("{s:o,s:o,s:o}", "x", j_real(v->x), "y", j_real(v->y), "z", j_real(v->z));
}

static json_t *j_pose(const pb_sim_pose *p)
{
    return json_pack("{s:o,s:{s:o,s:o,s:o,s:o}}", "position", j_vec3(&p->position), "orientation", "x",
                     j_real(p->qx), "y", j_real(p->qy), "z", j_real(p->qz), "w", j_real(p->qw));
}

/* Not json_string(): its name is generic enough that a program linking this library with a
 * json_string() of its own (the command line once had one) silently takes it over; that
 * crashed the server. json_stringn() is jansson's alone. */
static json_t *jstr(const char *s)
{
    return json_stringn(s, strlen(s));
}

static json_t *j_strings(const char *const *items, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, jstr(items[i]));
    return a;
}

static json_t *j_bounds(const pb_sim_bounds *b)
{
    json_t *pts = json_array();
    for (size_t i = 0; i < b->n_points; i++)
        json_array_append_new(pts, j_vec3(&b->points[i]));
    return json_pack("{s:i,s:o}", "type", (int)b->type, "points", pts);
}

static json_t *j_world(const pb_sim_world_info *w)
{
    return json_pack("{s:s,s:{s:s,s:s},s:s,s:o}", "name", w->name ? w->name : "", "world_resource", "uri",
                     w->uri ? w->uri : "", "resource_string", "", "description",
                     w->description ? w->description : "", "tags", j_strings(w->tags, w->n_tags));
}

/* ---------------------------------------------------------------- services */

typedef json_t *(*service_fn)(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s);

static json_t *sv_features(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)args, (void)session, (void)s;
    pb_sim_features f;
    pb_sim_get_features(sim, &f);
    json_t *features = json_array();
    for (size_t i = 0; i < f.n_features; i++)
        json_array_append_new(features, json_integer(f.features[i]));
    return json_pack("{s:{s:o,s:o,s:s}}", "features", "features", features, "spawn_formats",
                     j_strings(f.spawn_formats, f.n_spawn_formats), "custom_info", f.custom_info);
}

static json_t *sv_spawn(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)s;
    pb_sim_spawn_request rq;
    pb_sim_spawn_response rs;
    read_spawn(args, &rq);
    pb_sim_spawn_entity(sim, &rq, &rs);
    if (rs.result.result == PB_SIM_RESULT_OK && session && session->spawned)
        session->spawned(session->payload, rs.entity_name);
    return json_pack("{s:o,s:s}", "result", j_result(&rs.result), "entity_name", rs.entity_name);
}

/* /rti/get_client_id: who this connection is to the RTI channels */
static json_t *sv_client_id(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)sim, (void)args, (void)s;
    const char *id = session && session->client_id ? session->client_id(session->payload) : "";
    return json_pack("{s:s}", "client_id", id);
}

static json_t *sv_spawns(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)s;
    const json_t *list = get(args, "spawn_requests");
    const size_t n = json_array_size(list);
    pb_sim_spawn_request *rq = calloc(n + 1, sizeof *rq);
    pb_sim_spawn_response *rs = calloc(n + 1, sizeof *rs);
    pb_sim_result overall;
    json_t *results = json_array();
    if (!rq || !rs) {
        free(rq);
        free(rs);
        json_decref(results);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        read_spawn(json_array_get(list, i), &rq[i]);
    pb_sim_spawn_entities(sim, rq, n, rs, &overall);
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(results, json_pack("{s:o,s:s}", "result", j_result(&rs[i].result),
                                                 "entity_name", rs[i].entity_name));
        if (rs[i].result.result == PB_SIM_RESULT_OK && session && session->spawned)
            session->spawned(session->payload, rs[i].entity_name);
    }
    free(rq);
    free(rs);
    return json_pack("{s:o,s:o}", "result", j_result(&overall), "results", results);
}

static json_t *sv_delete(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session, (void)s;
    pb_sim_result r;
    pb_sim_delete_entity(sim, get_str(args, "entity"), &r);
    return json_pack("{s:o}", "result", j_result(&r));
}

static json_t *sv_entities(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session;
    pb_sim_entity_filters f;
    read_filters(get(args, "filters"), &f, s);
    pb_sim_result r;
    const char *const *names;
    size_t n;
    pb_sim_get_entities(sim, &f, &r, &names, &n);
    return json_pack("{s:o,s:o}", "result", j_result(&r), "entities", j_strings(names, n));
}

/* The two entity-state services write their values as text (json_text.h): they are the
 * calls a client makes most. */
static void jt_result(json_text *t, const pb_sim_result *r)
{
    JT_LIT(t, "{\"result\":");
    jt_int(t, r->result);
    JT_LIT(t, ",\"error_message\":");
    jt_str(t, r->error_message);
    JT_LIT(t, "}");
}

static void jt_states(json_text *t, const char *const *names, const pb_sim_entity_state *states, size_t n)
{
    JT_LIT(t, "\"entities\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            JT_LIT(t, ",");
        jt_str(t, names[i]);
    }
    JT_LIT(t, "],\"states\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            JT_LIT(t, ",");
        jt_entity_state(t, &states[i]);
    }
    JT_LIT(t, "]");
}

static void wr_entities_states(pb_sim *sim, const json_t *args, scratch *s, json_text *t)
{
    pb_sim_entity_filters f;
    read_filters(get(args, "filters"), &f, s);
    pb_sim_result r;
    const char *const *names;
    const pb_sim_entity_state *states;
    size_t n;
    pb_sim_get_entities_states(sim, &f, &r, &names, &states, &n);
    JT_LIT(t, "{\"result\":");
    jt_result(t, &r);
    JT_LIT(t, ",");
    jt_states(t, names, states, n);
    JT_LIT(t, "}");
}

static void wr_get_state(pb_sim *sim, const json_t *args, scratch *s, json_text *t)
{
    (void)s;
    pb_sim_result r;
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, get_str(args, "entity"), &r, &st);
    JT_LIT(t, "{\"result\":");
    jt_result(t, &r);
    JT_LIT(t, ",\"state\":");
    jt_entity_state(t, &st);
    JT_LIT(t, "}");
}

static json_t *sv_set_state(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session, (void)s;
    const json_t *st = get(args, "state");
    pb_sim_set_state_request rq = {
        .entity = get_str(args, "entity"),
        .state = {.frame_id = get_str(get(st, "header"), "frame_id"),
                  .pose = read_pose(get(st, "pose")),
                  .twist = read_twist(get(st, "twist")),
                  .acceleration = read_twist(get(st, "acceleration"))},
        .has_flags = get(args, "set_pose") || get(args, "set_twist") || get(args, "set_acceleration"),
        .set_pose = get_bool(args, "set_pose"),
        .set_twist = get_bool(args, "set_twist"),
        .set_acceleration = get_bool(args, "set_acceleration"),
    };
    pb_sim_result r;
    pb_sim_set_entity_state(sim, &rq, &r);
    return json_pack("{s:o}", "result", j_result(&r));
}

static json_t *sv_get_info(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session, (void)s;
    pb_sim_result r;
    pb_sim_entity_info info;
    pb_sim_get_entity_info(sim, get_str(args, "entity"), &r, &info);
    return json_pack("{s:o,s:{s:{s:i},s:s,s:o}}", "result", j_result(&r), "info", "category", "category",
                     (int)info.category, "description", info.description ? info.description : "", "tags",
                     j_strings(info.tags, info.n_tags));
}

static json_t *sv_set_info(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session;
    const json_t *o = get(args, "info");
    pb_sim_entity_info info = {.category = (uint8_t)get_u64(get(o, "category"), "category", 0),
                               .description = get_str(o, "description")};
    info.n_tags = read_strings(get(o, "tags"), &s->a);
    info.tags = s->a;
    pb_sim_result r;
    pb_sim_set_entity_info(sim, get_str(args, "entity"), &info, &r);
    return json_pack("{s:o}", "result", j_result(&r));
}

static json_t *sv_entity_bounds(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session, (void)s;
    pb_sim_result r;
    pb_sim_bounds b;
    pb_sim_get_entity_bounds(sim, get_str(args, "entity"), &r, &b);
    return json_pack("{s:o,s:o}", "result", j_result(&r), "bounds", j_bounds(&b));
}

static json_t *sv_named_poses(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session;
    pb_sim_tags_filter t;
    read_tags_filter(get(args, "tags"), &t, &s->a);
    pb_sim_result r;
    const pb_sim_named_pose *poses;
    size_t n;
    pb_sim_get_named_poses(sim, &t, &r, &poses, &n);
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(
            a, json_pack("{s:s,s:s,s:o,s:o}", "name", poses[i].name, "description", poses[i].description,
                         "tags", j_strings(poses[i].tags, poses[i].n_tags), "pose", j_pose(&poses[i].pose)));
    return json_pack("{s:o,s:o}", "result", j_result(&r), "poses", a);
}

static json_t *sv_named_pose_bounds(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session, (void)s;
    pb_sim_result r;
    pb_sim_bounds b;
    pb_sim_get_named_pose_bounds(sim, get_str(args, "name"), &r, &b);
    return json_pack("{s:o,s:o}", "result", j_result(&r), "bounds", j_bounds(&b));
}

static json_t *sv_spawnables(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session;
    const size_t n_sources = read_strings(get(args, "sources"), &s->a);
    pb_sim_result r;
    const pb_sim_spawnable *sp;
    size_t n;
    pb_sim_get_spawnables(sim, s->a, n_sources, &r, &sp, &n);
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:{s:s,s:s},s:s,s:s,s:o}", "entity_resource", "uri", sp[i].uri,
                                           "resource_string", "", "uri", sp[i].uri, "description",
                                           sp[i].description, "spawn_bounds", j_bounds(&sp[i].spawn_bounds)));
    return json_pack("{s:o,s:o}", "result", j_result(&r), "spawnables", a);
}

static json_t *sv_get_sim_state(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)args, (void)session, (void)s;
    pb_sim_result r;
    uint8_t state;
    pb_sim_get_simulation_state(sim, &r, &state);
    return json_pack("{s:{s:i},s:o}", "state", "state", (int)state, "result", j_result(&r));
}

static json_t *sv_set_sim_state(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session, (void)s;
    pb_sim_result r;
    pb_sim_set_simulation_state(sim, (uint8_t)get_u64(get(args, "state"), "state", 0), &r);
    return json_pack("{s:o}", "result", j_result(&r));
}

static json_t *sv_reset(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session, (void)s;
    pb_sim_result r;
    pb_sim_reset_simulation(sim, (uint8_t)get_u64(args, "scope", 0), &r);
    return json_pack("{s:o}", "result", j_result(&r));
}

static json_t *sv_step(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session, (void)s;
    pb_sim_result r;
    pb_sim_step_simulation(sim, get_u64(args, "steps", 1), &r);
    return json_pack("{s:o}", "result", j_result(&r));
}

static json_t *sv_load_world(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session, (void)s;
    const json_t *res = get(args, "world_resource");
    pb_sim_result r;
    pb_sim_world_info w;
    pb_sim_load_world(sim, res ? get_str(res, "uri") : get_str(args, "uri"),
                      res ? get_str(res, "resource_string") : get_str(args, "resource_string"),
                      get_bool(args, "fail_on_unsupported_element"), &r, &w);
    return json_pack("{s:o,s:o}", "result", j_result(&r), "world", j_world(&w));
}

static json_t *sv_unload_world(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)args, (void)session, (void)s;
    pb_sim_result r;
    pb_sim_unload_world(sim, &r);
    return json_pack("{s:o}", "result", j_result(&r));
}

static json_t *sv_current_world(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)args, (void)session, (void)s;
    pb_sim_result r;
    pb_sim_world_info w;
    pb_sim_get_current_world(sim, &r, &w);
    return json_pack("{s:o,s:o}", "result", j_result(&r), "world", j_world(&w));
}

static json_t *sv_available_worlds(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session;
    pb_sim_tags_filter t;
    read_tags_filter(get(args, "filter"), &t, &s->a);
    pb_sim_result r;
    const pb_sim_world_info *w;
    size_t n;
    pb_sim_get_available_worlds(sim, &t, &r, &w, &n);
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, j_world(&w[i]));
    return json_pack("{s:o,s:o}", "result", j_result(&r), "worlds", a);
}

static json_t *j_doubles(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, j_real(v[i]));
    return a;
}

/* The values of a PlanPath response. */
static json_t *plan_values(const pb_sim_plan_response *rs)
{
    json_t *path = json_array();
    for (size_t i = 0; i < rs->n_path; i++) {
        const double *q = rs->path + 3 * i;
        pb_sim_pose p = {{q[0], q[1], 0}, 0, 0, sin(q[2] / 2), cos(q[2] / 2)};
        json_array_append_new(path, j_pose(&p));
    }
    return json_pack("{s:o,s:s,s:o,s:o,s:o,s:o,s:o}", "result", j_result(&rs->result), "outcome", rs->outcome,
                     "path", path, "cost", j_real(rs->cost), "planning_time", j_real(rs->planning_time),
                     "joint_names", j_strings(rs->joint_names, rs->n_joints), "joint_positions",
                     j_doubles(rs->joints, rs->n_path * rs->n_joints));
}

/* planbench_interfaces/srv/GetEntityJoints: the joints of an entity's state. */
static json_t *sv_get_joints(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session, (void)s;
    const char *entity = get_str(args, "entity");
    const char *const *names;
    double values[PB_SIM_MAX_JOINTS];
    const size_t n = pb_sim_get_entity_joints(sim, entity, &names, values);
    pb_sim_result r = {.result = PB_SIM_RESULT_OK};
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, entity, &r, &st); /* NOT_FOUND for an unknown entity */
    return json_pack("{s:o,s:o,s:o}", "result", j_result(&r), "joint_names", j_strings(names, n), "positions",
                     j_doubles(values, n));
}

/* planbench_interfaces/srv/SetEntityJoints */
static json_t *sv_set_joints(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)session;
    const char **names = NULL;
    const size_t n = read_strings(get(args, "joint_names"), &names);
    const size_t n_values = read_doubles(get(args, "positions"), &s->reals);
    pb_sim_result r;
    if (n != json_array_size(get(args, "joint_names")) ||
        n_values != json_array_size(get(args, "positions"))) {
        free(names);
        return NULL; /* out of memory */
    }
    if (n != n_values) {
        r = (pb_sim_result){.result = PB_SIM_RESULT_OPERATION_FAILED};
        snprintf(r.error_message, sizeof r.error_message,
                 "joint_names (%zu) and positions (%zu) differ in length", n, n_values);
    } else {
        pb_sim_set_entity_joints(sim, get_str(args, "entity"), names, s->reals, n, &r);
    }
    free(names);
    return json_pack("{s:o}", "result", j_result(&r));
}

static json_t *sv_plan(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    pb_sim_plan_request rq = {
        .entity = get_str(args, "entity"),
        .goal_name = get_str(args, "goal_name"),
        .goal = read_pose(get(args, "goal")),
        .planner = get_str(args, "planner"),
        .time_limit = get_f64(args, "time_limit", 0),
        .seed = get_u64(args, "seed", 0),
        .follow = get_bool(args, "follow"),
        .speed = get_f64(args, "speed", 0),
        .budget = get_bool(args, "budget"),
    };
    rq.n_goal_joints = read_doubles(get(args, "goal_joints"), &s->reals);
    rq.goal_joints = s->reals;
    if (json_array_size(get(args, "goal_joints")) != rq.n_goal_joints)
        return NULL; /* out of memory */
    /* the caller waits for the answer: keep the planning inside its timeout */
    if (s->timeout > 0) {
        const double limit = rq.time_limit > 0 ? rq.time_limit : 1.0;
        rq.time_limit = fmax(fmin(limit, 0.8 * s->timeout), 1e-3);
    }
    pb_sim_plan_response rs;
    if (session && session->start_plan) {
        /* with a connection the planner runs off the server thread; the reply comes later */
        pb_sim_plan_job *job;
        if (!pb_sim_plan_begin(&job, sim, &rq, &rs))
            return plan_values(&rs);
        session->start_plan(session->payload, s->id, s->service, job);
        s->deferred = true;
        return NULL;
    }
    pb_sim_plan_path(sim, &rq, &rs);
    return plan_values(&rs);
}

/* action_msgs CancelGoal of one action server: the caller's goals of that action */
static json_t *cancel_all(const rb_session *session, const char *action)
{
    if (session && session->cancel_goal)
        session->cancel_goal(session->payload, NULL, action);
    return json_pack("{s:i,s:[]}", "return_code", 0, "goals_canceling");
}

static json_t *sv_cancel(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)sim, (void)args, (void)s;
    return cancel_all(session, "simulate_steps");
}

static json_t *sv_cancel_follow(pb_sim *sim, const json_t *args, const rb_session *session, scratch *s)
{
    (void)sim, (void)args, (void)s;
    return cancel_all(session, "follow_path");
}

/* A service that writes its values as text (json_text.h) instead of returning jansson values. */
typedef void (*service_writer)(pb_sim *sim, const json_t *args, scratch *s, json_text *values);

typedef struct service_def {
    const char *name; /* without the leading '/' */
    const char *type;
    const field *request;
    const field *response; /* what the reply carries (for rosapi) */
    service_fn fn;         /* or: */
    service_writer writer; /* values written as text */
} service_def;

#define SI "simulation_interfaces/srv/"
static const service_def services[] = {
    {"get_simulator_features", SI "GetSimulatorFeatures", q_empty, a_features, sv_features, NULL},
    {"spawn_entity", SI "SpawnEntity", q_spawn, a_spawn, sv_spawn, NULL},
    {"spawn_entities", SI "SpawnEntities", q_spawns, a_spawns, sv_spawns, NULL},
    {"delete_entity", SI "DeleteEntity", q_entity, a_result, sv_delete, NULL},
    {"get_entities", SI "GetEntities", q_filters, a_entities, sv_entities, NULL},
    {"get_entities_states", SI "GetEntitiesStates", q_filters, a_states, NULL, wr_entities_states},
    {"get_entity_state", SI "GetEntityState", q_entity, a_state, NULL, wr_get_state},
    {"set_entity_state", SI "SetEntityState", q_set_state, a_result, sv_set_state, NULL},
    {"get_entity_info", SI "GetEntityInfo", q_entity, a_info, sv_get_info, NULL},
    {"set_entity_info", SI "SetEntityInfo", q_set_info, a_result, sv_set_info, NULL},
    {"get_entity_bounds", SI "GetEntityBounds", q_entity, a_bounds, sv_entity_bounds, NULL},
    {"get_named_poses", SI "GetNamedPoses", q_named_poses, a_named_poses, sv_named_poses, NULL},
    {"get_named_pose_bounds", SI "GetNamedPoseBounds", q_name, a_bounds, sv_named_pose_bounds, NULL},
    {"get_spawnables", SI "GetSpawnables", q_sources, a_spawnables, sv_spawnables, NULL},
    {"get_simulation_state", SI "GetSimulationState", q_empty, a_sim_state, sv_get_sim_state, NULL},
    {"set_simulation_state", SI "SetSimulationState", q_set_sim_state, a_result, sv_set_sim_state, NULL},
    {"reset_simulation", SI "ResetSimulation", q_reset, a_result, sv_reset, NULL},
    {"step_simulation", SI "StepSimulation", q_steps, a_result, sv_step, NULL},
    {"load_world", SI "LoadWorld", q_load_world, a_world, sv_load_world, NULL},
    {"unload_world", SI "UnloadWorld", q_empty, a_result, sv_unload_world, NULL},
    {"get_current_world", SI "GetCurrentWorld", q_empty, a_world, sv_current_world, NULL},
    {"get_available_worlds", SI "GetAvailableWorlds", q_available_worlds, a_worlds, sv_available_worlds,
     NULL},
    {"plan_path", "planbench_interfaces/srv/PlanPath", q_plan, a_plan, sv_plan, NULL},
    {"get_entity_joints", "planbench_interfaces/srv/GetEntityJoints", q_entity, a_joints, sv_get_joints,
     NULL},
    {"set_entity_joints", "planbench_interfaces/srv/SetEntityJoints", q_set_joints, a_result, sv_set_joints,
     NULL},
    {"rti/get_client_id", "planbench_interfaces/srv/GetClientId", q_empty, a_client_id, sv_client_id, NULL},
    {"simulate_steps/_action/cancel_goal", "action_msgs/srv/CancelGoal", q_cancel, a_cancel, sv_cancel, NULL},
    {"follow_path/_action/cancel_goal", "action_msgs/srv/CancelGoal", q_cancel, a_cancel, sv_cancel_follow,
     NULL},
};
#undef SI
#define N_SERVICES (sizeof services / sizeof services[0])

/* ---------------------------------------------------------------- envelope */

static char *dump(json_t *msg)
{
    char *text = msg ? json_dumps(msg, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
    json_decref(msg);
    return text;
}

char *rb_service_failure(const json_t *id, const char *service, const char *message)
{
    json_t *m = json_pack("{s:s,s:s,s:s,s:b}", "op", "service_response", "service", service, "values",
                          message, "result", 0);
    if (id && m)
        json_object_set(m, "id", (json_t *)id);
    return dump(m);
}

/* args as an object: an object as is, a list zipped with the fields, absent/[] empty. */
static json_t *normalise_args(json_t *args, const field *fields, const char *root, char *err, size_t size)
{
    if (!args || json_is_null(args))
        return json_object();
    if (json_is_object(args))
        return json_incref(args);
    if (json_is_array(args)) {
        json_t *o = json_object();
        size_t i;
        json_t *v;
        json_array_foreach(args, i, v)
        {
            if (!fields[i].name) {
                snprintf(err, size, "%s message has %zu fields, but got a list of %zu", root, i,
                         json_array_size(args));
                json_decref(o);
                return NULL;
            }
            json_object_set(o, fields[i].name, v);
        }
        return o;
    }
    snprintf(err, size, "%s message requires a dict or a list for args, but got a %s", root, py_class(args));
    return NULL;
}

/* The services that change an entity take it only from its owner (rti.h): an OPERATION_FAILED
 * reply naming the owner for anybody else, NULL when the call may go on. */
static char *refuse_foreign(const json_t *args, const char *service, const json_t *id, const json_t *svc,
                            const rb_session *session)
{
    static const char *const changing[] = {"set_entity_state", "delete_entity", "set_entity_joints",
                                           "set_entity_info", "plan_path"};
    if (!session || !session->may_command)
        return NULL;
    bool changes = false;
    for (size_t i = 0; i < sizeof changing / sizeof changing[0]; i++)
        changes |= strcmp(service, changing[i]) == 0;
    if (!changes || (strcmp(service, "plan_path") == 0 && !get_bool(args, "follow")))
        return NULL; /* a plan that is not followed moves nothing */
    char why[PB_SIM_MESSAGE_SIZE];
    if (session->may_command(session->payload, get_str(args, "entity"), why, sizeof why))
        return NULL;
    json_t *m =
        json_pack("{s:s,s:O,s:{s:{s:i,s:s}},s:b}", "op", "service_response", "service", svc, "values",
                  "result", "result", PB_SIM_RESULT_OPERATION_FAILED, "error_message", why, "result", 1);
    if (id && m)
        json_object_set(m, "id", (json_t *)id);
    return dump(m);
}

static char *handle_call(pb_sim *sim, json_t *msg, const rb_session *session)
{
    json_t *id = json_object_get(msg, "id");
    json_t *svc = json_object_get(msg, "service");
    if (!json_is_string(svc))
        return rb_service_failure(id, "", "Expected a service field but none was found.");
    const char *name = json_string_value(svc);
    const char *bare = name + (name[0] == '/');
    if (session && session->start_scenario && asg_is_worker_service(name, session->worker_id)) {
        /* the scenario worker's services */
        const asg_hooks hooks = {session->worker_id, session->start_scenario, session->rerun_scenario,
                                 session->payload};
        char err[700];
        json_t *values = asg_handle_call(sim, name, json_object_get(msg, "args"), &hooks, err, sizeof err);
        if (!values)
            return rb_service_failure(id, name, err);
        json_t *reply = json_pack("{s:s,s:O,s:o,s:b}", "op", "service_response", "service", svc, "values",
                                  values, "result", 1);
        if (id && reply)
            json_object_set(reply, "id", id);
        return dump(reply);
    }
    const service_def *sv = NULL;
    for (size_t i = 0; i < N_SERVICES && !sv; i++)
        if (strcmp(services[i].name, bare) == 0)
            sv = &services[i];
    char err[600];
    json_t *values = NULL;
    if (!sv) {
        json_t *args = json_object_get(msg, "args");
        /* the services as rosapi describes them: names, types and request schemas */
        rosapi_service list[N_SERVICES + 4];
        size_t n = 0;
        for (size_t i = 0; i < N_SERVICES; i++)
            list[n++] = (rosapi_service){services[i].name, services[i].type, services[i].request,
                                         services[i].response};
        /* the scenario worker's (their requests are not in the schema tables: docs/scenarios.md) */
        static const rosapi_service worker_services[4] = {
            {"run_scenario", "auto_scene_gen_msgs/srv/RunScenario", q_asg_run, a_asg_received},
            {"register_vehicle_node", "auto_scene_gen_msgs/srv/RegisterVehicleNode", q_asg_register,
             a_asg_received},
            {"notify_ready", "auto_scene_gen_msgs/srv/NotifyReady", q_asg_notify, a_asg_notify},
            {"worker_issue_notification", "auto_scene_gen_msgs/srv/WorkerIssueNotification", q_asg_issue,
             a_asg_received}};
        char worker_names[4][96];
        const int worker = session && session->start_scenario ? session->worker_id : -1;
        for (size_t i = 0; i < 4 && worker >= 0; i++) {
            snprintf(worker_names[i], sizeof worker_names[i], "asg_worker%d/services/%s", worker,
                     worker_services[i].name);
            list[n] = worker_services[i];
            list[n++].name = worker_names[i];
        }
        values = rosapi_call(sim, bare, json_is_object(args) ? args : NULL, list, n, worker);
        if (!values) {
            snprintf(err, sizeof err, "Service %.400s does not exist", name);
            return rb_service_failure(id, name, err);
        }
    } else {
        char root[160];
        snprintf(root, sizeof root, "%.140s_Request", sv->type);
        char *slash = strstr(root, "/srv/");
        if (slash)
            memmove(slash, slash + 4, strlen(slash + 4) + 1);
        json_t *args = normalise_args(json_object_get(msg, "args"), sv->request, root, err, sizeof err);
        if (!args)
            return rb_service_failure(id, name, err);
        if (!check_msg(sv->request, args, root, "", err, sizeof err)) {
            json_decref(args);
            return rb_service_failure(id, name, err);
        }
        char *refused = refuse_foreign(args, sv->name, id, svc, session);
        if (refused) {
            json_decref(args);
            return refused;
        }
        scratch s = {.id = id, .service = svc};
        const json_t *timeout = json_object_get(msg, "timeout");
        s.timeout =
            json_is_number(timeout) && json_number_value(timeout) > 0 ? json_number_value(timeout) : 0;
        json_text text = {0};
        if (sv->writer) {
            JT_LIT(&text, "{\"op\":\"service_response\",\"service\":");
            if (strlen(name) == json_string_length(svc))
                jt_str(&text, name);
            else
                jt_json(&text, svc); /* with a NUL inside: as jansson writes it */
            JT_LIT(&text, ",\"values\":");
            sv->writer(sim, args, &s, &text);
            JT_LIT(&text, ",\"result\":true");
            if (id) {
                JT_LIT(&text, ",\"id\":");
                jt_json(&text, id);
            }
            JT_LIT(&text, "}");
        } else {
            values = sv->fn(sim, args, session, &s);
        }
        free(s.a);
        free(s.b);
        free(s.cats);
        free(s.reals);
        json_decref(args);
        if (sv->writer) {
            char *reply = jt_finish(&text);
            return reply ? reply : rb_service_failure(id, name, "out of memory");
        }
        if (s.deferred)
            return NULL;
        if (!values)
            return rb_service_failure(id, name, "out of memory");
        /* an id-less cancel_goal (roslib cancelAllGoals) gets no reply */
        if (!id && (sv->fn == sv_cancel || sv->fn == sv_cancel_follow)) {
            json_decref(values);
            return NULL;
        }
    }
    json_t *reply = json_pack("{s:s,s:o,s:o,s:b}", "op", "service_response", "service", json_incref(svc),
                              "values", values, "result", 1);
    if (id && reply)
        json_object_set(reply, "id", id);
    return dump(reply);
}

char *rb_plan_reply(json_t *id, json_t *service, const pb_sim_plan_response *response)
{
    json_t *values = plan_values(response);
    if (!values)
        return rb_service_failure(id, json_string_value(service), "out of memory");
    json_t *reply = json_pack("{s:s,s:O,s:o,s:b}", "op", "service_response", "service", service, "values",
                              values, "result", 1);
    if (id && reply)
        json_object_set(reply, "id", id);
    return dump(reply);
}

char *rb_action_feedback(json_t *id, json_t *action, uint64_t completed, uint64_t remaining)
{
    json_t *m = json_pack("{s:s,s:O,s:{s:I,s:I}}", "op", "action_feedback", "action", action, "values",
                          "completed_steps", (json_int_t)completed, "remaining_steps", (json_int_t)remaining);
    if (id && m)
        json_object_set(m, "id", id);
    return dump(m);
}

char *rb_action_result(json_t *id, json_t *action, int status, const pb_sim_result *result)
{
    json_t *m = json_pack("{s:s,s:O,s:{s:o},s:i,s:b}", "op", "action_result", "action", action, "values",
                          "result", j_result(result), "status", status, "result", 1);
    if (id && m)
        json_object_set(m, "id", id);
    return dump(m);
}

static char *action_failure(json_t *id, json_t *action, const char *message)
{
    json_t *m = json_pack("{s:s,s:O,s:s,s:i,s:b}", "op", "action_result", "action",
                          action ? action : json_null(), "values", message, "status", 0, "result", 0);
    if (id && m)
        json_object_set(m, "id", id);
    return dump(m);
}

char *rb_follow_feedback(json_t *id, json_t *action, uint64_t completed, const pb_sim_follow_feedback *fb)
{
    json_t *m = json_pack("{s:s,s:O,s:{s:I,s:I,s:o,s:o,s:o}}", "op", "action_feedback", "action", action,
                          "values", "completed_steps", (json_int_t)completed, "waypoint",
                          (json_int_t)fb->waypoint, "distance_remaining", j_real(fb->distance_remaining),
                          "pose", j_pose(&fb->pose), "joint_positions", j_doubles(fb->joints, fb->n_joints));
    if (id && m)
        json_object_set(m, "id", id);
    return dump(m);
}

char *rb_follow_result(json_t *id, json_t *action, int status, const pb_sim_result *result,
                       uint64_t completed, const pb_sim_follow_feedback *last)
{
    const pb_sim_follow_feedback none = {.pose = {.qw = 1.0}};
    if (!last)
        last = &none;
    json_t *m = json_pack("{s:s,s:O,s:{s:o,s:I,s:o,s:o},s:i,s:b}", "op", "action_result", "action", action,
                          "values", "result", j_result(result), "completed_steps", (json_int_t)completed,
                          "pose", j_pose(&last->pose), "joint_positions",
                          j_doubles(last->joints, last->n_joints), "status", status, "result", 1);
    if (id && m)
        json_object_set(m, "id", id);
    return dump(m);
}

/* Headless FollowPath (no connection): at most this many steps, then the goal is aborted. */
#define HEADLESS_FOLLOW_STEPS 10000u

static char *handle_follow(pb_sim *sim, json_t *msg, json_t *id, json_t *action, const rb_session *session)
{
    char err[600];
    json_t *type = json_object_get(msg, "action_type");
    if (type && (!json_is_string(type) ||
                 (strcmp(json_string_value(type), "planbench_interfaces/action/FollowPath") &&
                  strcmp(json_string_value(type), "planbench_interfaces/FollowPath")))) {
        snprintf(err, sizeof err, "action_type must be planbench_interfaces/action/FollowPath for %.200s",
                 json_string_value(action));
        return action_failure(id, action, err);
    }
    static const char root[] = "planbench_interfaces/action/FollowPath_Goal";
    json_t *args = normalise_args(json_object_get(msg, "args"), q_follow, root, err, sizeof err);
    if (!args)
        return action_failure(id, action, err);
    if (!check_msg(q_follow, args, root, "", err, sizeof err)) {
        json_decref(args);
        return action_failure(id, action, err);
    }
    if (session && session->may_command &&
        !session->may_command(session->payload, get_str(args, "entity"), err, sizeof err)) {
        json_decref(args);
        return action_failure(id, action, err);
    }
    const json_t *jpath = get(args, "path");
    const size_t n = json_array_size(jpath);
    pb_sim_pose *path = malloc((n ? n : 1) * sizeof *path);
    if (!path) {
        json_decref(args);
        return action_failure(id, action, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        path[i] = read_pose(json_array_get(jpath, i));
    /* joint_positions: one row of joint values per waypoint, or none */
    double *joints = NULL;
    const size_t n_values = read_doubles(get(args, "joint_positions"), &joints);
    if (n_values != json_array_size(get(args, "joint_positions")) || (n_values && (n == 0 || n_values % n))) {
        free(path);
        free(joints);
        json_decref(args);
        snprintf(err, sizeof err,
                 "%s: joint_positions must hold one row of joint values per waypoint (%zu values "
                 "for %zu waypoints)",
                 root, n_values, n);
        return action_failure(id, action, err);
    }
    const pb_sim_follow_request rq = {get_str(args, "entity"), path, n, get_f64(args, "speed", 0)};
    const size_t n_joints = n_values ? n_values / n : 0;
    const bool feedback = json_is_true(json_object_get(msg, "feedback"));
    char *reply = NULL;
    if (session && session->start_follow) {
        session->start_follow(session->payload, id, action, &rq, joints, n_joints, feedback);
    } else {
        /* no connection: run to completion now (bounded), reply with the result only */
        pb_sim_result r;
        uint64_t goal, done = 0;
        int status = 6;
        if (pb_sim_follow_begin_joints(&goal, sim, &rq, joints, n_joints, &r)) {
            pb_sim_follow_feedback fb = {0};
            pb_sim_follow_status fs = PB_SIM_FOLLOW_RUNNING;
            while (fs == PB_SIM_FOLLOW_RUNNING && done < HEADLESS_FOLLOW_STEPS) {
                fs = pb_sim_follow_step(sim, goal, &fb, &r);
                done++;
            }
            if (fs == PB_SIM_FOLLOW_RUNNING) {
                pb_sim_follow_cancel(sim, goal);
                snprintf(r.error_message, sizeof r.error_message, "more than %u steps without a connection",
                         HEADLESS_FOLLOW_STEPS);
                r.result = PB_SIM_RESULT_OPERATION_FAILED;
            }
            pb_sim_steps_end(sim);
            status = fs == PB_SIM_FOLLOW_REACHED ? 4 : 6;
            reply = rb_follow_result(id, action, status, &r, done, &fb);
        } else {
            reply = rb_follow_result(id, action, status, &r, 0, NULL);
        }
    }
    free(path);
    free(joints);
    json_decref(args);
    return reply;
}

static char *handle_goal(pb_sim *sim, json_t *msg, const rb_session *session)
{
    json_t *id = json_object_get(msg, "id");
    json_t *action = json_object_get(msg, "action");
    if (!json_is_string(action))
        return action_failure(id, action, "Expected an action field but none was found.");
    const char *name = json_string_value(action);
    name += name[0] == '/';
    char err[600];
    if (strcmp(name, "follow_path") == 0)
        return handle_follow(sim, msg, id, action, session);
    if (session && session->start_scenario && asg_is_worker_action(name, session->worker_id)) {
        const asg_hooks hooks = {session->worker_id, session->start_scenario, session->rerun_scenario,
                                 session->payload};
        if (!asg_handle_goal(sim, json_object_get(msg, "args"), id, action,
                             json_is_true(json_object_get(msg, "feedback")), &hooks, err, sizeof err))
            return action_failure(id, action, err);
        return NULL; /* feedback and the result come as the scenario runs */
    }
    if (strcmp(name, "simulate_steps") != 0) {
        snprintf(err, sizeof err, "Action %.400s does not exist", json_string_value(action));
        return action_failure(id, action, err);
    }
    json_t *type = json_object_get(msg, "action_type");
    if (type && (!json_is_string(type) ||
                 (strcmp(json_string_value(type), "simulation_interfaces/action/SimulateSteps") &&
                  strcmp(json_string_value(type), "simulation_interfaces/SimulateSteps")))) {
        snprintf(err, sizeof err, "action_type must be simulation_interfaces/action/SimulateSteps for %.200s",
                 json_string_value(action));
        return action_failure(id, action, err);
    }
    static const char root[] = "simulation_interfaces/action/SimulateSteps_Goal";
    json_t *args = normalise_args(json_object_get(msg, "args"), q_steps, root, err, sizeof err);
    if (!args)
        return action_failure(id, action, err);
    if (!check_msg(q_steps, args, root, "", err, sizeof err)) {
        json_decref(args);
        return action_failure(id, action, err);
    }
    const uint64_t steps = get_u64(args, "steps", 0);
    json_decref(args);
    const bool feedback = json_is_true(json_object_get(msg, "feedback"));
    if (session && session->start_goal) {
        session->start_goal(session->payload, id, action, steps, feedback);
        return NULL;
    }
    /* no connection: run to completion now, reply with the result only */
    pb_sim_result r;
    if (!pb_sim_steps_begin(sim, steps, &r))
        return rb_action_result(id, action, 6, &r);
    for (uint64_t i = 0; i < steps; i++)
        pb_sim_step_once(sim);
    if (steps > 0)
        pb_sim_steps_end(sim);
    return rb_action_result(id, action, 4, &r);
}

static char *handle_subscribe(json_t *msg, const rb_session *session, bool on)
{
    json_t *topic = json_object_get(msg, "topic");
    if (!json_is_string(topic))
        return NULL;
    rb_topic t;
    char entity[PB_SIM_FRAME_ID_SIZE];
    if (rb_topic_parse(json_string_value(topic), &t, entity, sizeof entity) && !rb_topic_is_command(t) &&
        session && session->subscribe)
        session->subscribe(session->payload, t, entity, on, (int)get_u64(msg, "throttle_rate", 0),
                           (int)get_u64(msg, "queue_length", 0));
    /* rosbridge answers nothing to subscribe/unsubscribe, also for unknown topics */
    return NULL;
}

/* rosbridge's status message: an error about a client's publish or advertise. */
static char *status_error(const json_t *id, const char *fmt, const char *a, const char *b)
{
    char text[PB_SIM_MESSAGE_SIZE + 200];
    snprintf(text, sizeof text, fmt, a, b);
    json_t *m = json_pack("{s:s,s:s,s:s}", "op", "status", "level", "error", "msg", text);
    if (m && id)
        json_object_set(m, "id", (json_t *)id);
    return dump(m);
}

/* Do two ROS type names name one type ("geometry_msgs/Twist" is "geometry_msgs/msg/Twist")? */
static bool same_type(const char *a, const char *b)
{
    char na[200], nb[200];
    const char *in[2] = {a, b};
    char *out[2] = {na, nb};
    for (int k = 0; k < 2; k++) {
        const char *p = in[k], *msg = strstr(p, "/msg/");
        if (msg)
            snprintf(out[k], 200, "%.*s%s", (int)(msg - p), p, msg + 4);
        else
            snprintf(out[k], 200, "%s", p);
    }
    return strcmp(na, nb) == 0;
}

/* A trajectory_msgs/JointTrajectory on "/<entity>/joint_commands": its points followed. */
static char *handle_joint_commands(pb_sim *sim, json_t *msg, const json_t *id, const char *name,
                                   const char *entity)
{
    const json_t *body = json_object_get(msg, "msg");
    char err[PB_SIM_MESSAGE_SIZE];
    if (!json_is_object(body) ||
        !check_msg(f_trajectory, body, "trajectory_msgs/JointTrajectory", "", err, sizeof err))
        return status_error(id, "%s: %s", name,
                            json_is_object(body) ? err : "msg must be a trajectory_msgs/JointTrajectory");
    const json_t *names = get(body, "joint_names"), *points = get(body, "points");
    const size_t n_names = json_array_size(names), n_points = json_array_size(points);
    if (n_names == 0 || n_names > PB_SIM_MAX_JOINTS || n_points > 100000)
        return status_error(id, "%s: %s", name, "1 to 32 joint names and at most 100000 points");
    const char *name_list[PB_SIM_MAX_JOINTS];
    for (size_t i = 0; i < n_names; i++)
        name_list[i] = json_string_value(json_array_get(names, i));
    double *values = malloc((n_points ? n_points : 1) * n_names * sizeof *values);
    if (!values)
        return status_error(id, "%s: %s", name, "out of memory");
    double duration = 0;
    for (size_t p = 0; p < n_points; p++) {
        const json_t *pt = json_array_get(points, p), *pos = get(pt, "positions");
        if (json_array_size(pos) != n_names) {
            free(values);
            snprintf(err, sizeof err, "point %zu has %zu positions for %zu joint names", p,
                     json_array_size(pos), n_names);
            return status_error(id, "%s: %s", name, err);
        }
        for (size_t i = 0; i < n_names; i++)
            values[p * n_names + i] = json_number_value(json_array_get(pos, i));
        const json_t *t = get(pt, "time_from_start");
        duration =
            (double)json_integer_value(get(t, "sec")) + 1e-9 * (double)json_integer_value(get(t, "nanosec"));
    }
    pb_sim_result r;
    pb_sim_command_joints(sim, entity, name_list, n_names, values, n_points, duration, &r);
    free(values);
    if (r.result != PB_SIM_RESULT_OK)
        return status_error(id, "%s: %s", name, r.error_message);
    return NULL;
}

/* A vehicle's command on one of Autoware's topics ("/<entity>/control/command/gear_cmd"...),
 * checked against its message type like a service request. */
static char *handle_vehicle_command(pb_sim *sim, json_t *msg, const json_t *id, const char *name, rb_topic t,
                                    const char *entity, const rb_session *session)
{
    static const field *const schemas[] = {f_control, f_command_u8, f_command_u8, f_command_u8, f_emergency};
    static const char *const types[] = {"autoware_control_msgs/Control", "autoware_vehicle_msgs/GearCommand",
                                        "autoware_vehicle_msgs/TurnIndicatorsCommand",
                                        "autoware_vehicle_msgs/HazardLightsCommand",
                                        "tier4_vehicle_msgs/VehicleEmergencyStamped"};
    const size_t k = (size_t)(t - RB_TOPIC_CONTROL_CMD);
    const json_t *body = json_object_get(msg, "msg");
    char err[PB_SIM_MESSAGE_SIZE];
    if (!json_is_object(body))
        return status_error(id, "%s: msg must be a %s", name, types[k]);
    if (!check_msg(schemas[k], body, types[k], "", err, sizeof err))
        return status_error(id, "%s: %s", name, err);
    pb_sim_vehicle_command c = {.topic = (pb_sim_vehicle_topic)((int)PB_SIM_VEHICLE_CONTROL + (int)k)};
    const json_t *lateral = get(body, "lateral"), *longitudinal = get(body, "longitudinal");
    c.steering_tire_angle = get_f64(lateral, "steering_tire_angle", 0);
    c.acceleration = get_f64(longitudinal, "acceleration", 0);
    c.velocity = get_f64(longitudinal, "velocity", 0);
    c.has_velocity = json_is_object(longitudinal) && json_object_get(longitudinal, "velocity") != NULL;
    c.command = (uint8_t)get_u64(body, "command", 0);
    c.emergency = get_bool(body, "emergency");
    pb_sim_result r;
    char worker[32];
    snprintf(worker, sizeof worker, "asg_worker%d", session ? session->worker_id : 0);
    if (session && session->command_scenario &&
        strcmp(entity, worker) == 0) /* the external scenario's vehicle */
        session->command_scenario(session->payload, &c, &r);
    else
        pb_sim_command_vehicle(sim, entity, &c, &r);
    if (r.result != PB_SIM_RESULT_OK)
        return status_error(id, "%s: %s", name, r.error_message);
    return NULL;
}

/* A client's publish: velocity commands on "/<entity>/cmd_vel" (geometry_msgs/Twist), checked
 * like a service request; anything else gets a status error (the server subscribes to no
 * other topic). Advertising one of the server's own topics with another type, too. */
static char *handle_publish(pb_sim *sim, json_t *msg, bool advertise, const rb_session *session)
{
    const json_t *id = json_object_get(msg, "id");
    const char *name = get_str(msg, "topic");
    rb_topic t;
    char entity[PB_SIM_FRAME_ID_SIZE];
    const bool known = rb_topic_parse(name, &t, entity, sizeof entity);
    if (advertise) {
        const char *type = get_str(msg, "type");
        if (known && type[0] && !same_type(type, rb_topic_type(t)))
            return status_error(id, "topic '%.200s' has type %.100s", name, rb_topic_type(t));
        return NULL;
    }
    if (known && (t == RB_TOPIC_RTI_ENTITIES || t == RB_TOPIC_RTI_POSITION)) {
        char err[PB_SIM_MESSAGE_SIZE + 200];
        bool (*fn)(void *, const json_t *, char *, size_t) = !session ? NULL
                                                             : t == RB_TOPIC_RTI_ENTITIES
                                                                 ? session->rti_operation
                                                                 : session->rti_position;
        if (fn && !fn(session->payload, json_object_get(msg, "msg"), err, sizeof err))
            return status_error(id, "%s%s", err, "");
        return NULL;
    }
    char why[PB_SIM_MESSAGE_SIZE];
    if (known && rb_topic_is_command(t) && session && session->may_command &&
        !session->may_command(session->payload, entity, why, sizeof why))
        return status_error(id, "%s: %s", name, why);
    if (known && t == RB_TOPIC_JOINT_COMMANDS)
        return handle_joint_commands(sim, msg, id, name, entity);
    if (known && rb_topic_is_command(t) && rb_topic_is_vehicle(t))
        return handle_vehicle_command(sim, msg, id, name, t, entity, session);
    if (!known || t != RB_TOPIC_CMD_VEL)
        return status_error(id, "the server takes no messages on '%.200s'%s", name,
                            " (it listens on /<entity>/cmd_vel, /<entity>/joint_commands and a vehicle's "
                            "/<entity>/control/command/* topics)");
    const json_t *body = json_object_get(msg, "msg");
    char err[PB_SIM_MESSAGE_SIZE];
    if (!json_is_object(body) || !check_msg(f_twist, body, "geometry_msgs/Twist", "", err, sizeof err))
        return status_error(id, "%s: %s", name,
                            json_is_object(body) ? err : "msg must be a geometry_msgs/Twist");
    const pb_sim_twist twist = read_twist(body);
    pb_sim_result r;
    pb_sim_command_velocity(sim, entity, &twist, &r);
    if (r.result != PB_SIM_RESULT_OK)
        return status_error(id, "%s: %s", name, r.error_message);
    return NULL;
}

void rb_handle(pb_sim *sim, const char *data, size_t size, const rb_session *session, char **reply)
{
    *reply = NULL;
    if (size > MAX_MESSAGE_BYTES) {
        *reply = rb_service_failure(NULL, "", "message too large");
        return;
    }
    json_error_t jerr;
    json_t *msg = json_loadb(data, size, JSON_REJECT_DUPLICATES, &jerr);
    if (!msg) {
        char err[300];
        snprintf(err, sizeof err, "malformed JSON: %s (line %d, column %d)", jerr.text, jerr.line,
                 jerr.column);
        *reply = rb_service_failure(NULL, "", err);
        return;
    }
    json_t *op = json_object_get(msg, "op");
    json_t *id = json_object_get(msg, "id");
    if (!json_is_object(msg) || !json_is_string(op)) {
        *reply = rb_service_failure(id, "", "a rosbridge message is a JSON object with a string 'op'");
        json_decref(msg);
        return;
    }
    const char *o = json_string_value(op);
    if (strcmp(o, "call_service") == 0) {
        *reply = handle_call(sim, msg, session);
    } else if (strcmp(o, "send_action_goal") == 0) {
        *reply = handle_goal(sim, msg, session);
    } else if (strcmp(o, "cancel_action_goal") == 0) {
        json_t *action = json_object_get(msg, "action");
        const char *bare = json_is_string(action) ? json_string_value(action) : NULL;
        if (session && session->cancel_goal && id)
            session->cancel_goal(session->payload, id, bare ? bare + (bare[0] == '/') : NULL);
    } else if (strcmp(o, "subscribe") == 0 || strcmp(o, "unsubscribe") == 0) {
        *reply = handle_subscribe(msg, session, o[0] == 's');
    } else if (strcmp(o, "publish") == 0 || strcmp(o, "advertise") == 0) {
        *reply = handle_publish(sim, msg, o[0] == 'a', session);
    } else if (strcmp(o, "set_level") == 0 || strcmp(o, "auth") == 0 || strcmp(o, "unadvertise") == 0) {
        /* accepted silently (spec §7.7) */
    } else {
        char err[200];
        snprintf(err, sizeof err, "Unknown operation: %.100s", o);
        *reply = rb_service_failure(id, "", err);
    }
    json_decref(msg);
}

void pb_sim_handle_message(pb_sim *sim, const char *data, size_t size, char **reply)
{
    rb_handle(sim, data, size, NULL, reply);
}

char *rb_entity_event(pb_sim_event_kind kind, const char *entity)
{
    static const char *const kinds[] = {"created", "deleted", "info_changed", "blocked"};
    return dump(json_pack("{s:s,s:s,s:{s:s,s:s}}", "op", "publish", "topic", "/entity_events", "msg", "event",
                          kinds[kind], "entity", entity));
}

char *rb_entity_states(pb_sim *sim)
{
    pb_sim_result r;
    const char *const *names;
    const pb_sim_entity_state *states;
    size_t n;
    pb_sim_get_entities_states(sim, NULL, &r, &names, &states, &n);
    const uint64_t t = pb_sim_time_ns(sim);
    json_text text = {0};
    JT_LIT(&text, "{\"op\":\"publish\",\"topic\":\"/entity_states\",\"msg\":{\"stamp\":{\"sec\":");
    jt_int(&text, (json_int_t)(t / 1000000000u));
    JT_LIT(&text, ",\"nanosec\":");
    jt_int(&text, (json_int_t)(t % 1000000000u));
    JT_LIT(&text, "},");
    jt_states(&text, names, states, n);
    JT_LIT(&text, "}}");
    return jt_finish(&text);
}
