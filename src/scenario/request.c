/* Scenario files: a RunScenario request as JSON (auto_scene_gen's field names and the worker's
 * units: centimetres, degrees, Unreal's left-handed frame) plus planbench's extensions,
 * checked field by field (docs/scenarios.md). Every message names the field at fault. */
#include "io/input_file.h"
#include "scenario_internal.h"

#include <jansson.h>

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCENARIO_BYTES (64u << 20)
#define MAX_ACTORS         100000

typedef struct parse {
    pb_scenario *s;
    pb_diag *diag;
} parse;

static bool fail(parse *p, const char *field, const char *fmt, const char *detail)
{
    char message[300];
    if (snprintf(message, sizeof message, fmt, detail ? detail : "") < 0) /* a long detail is cut */
        message[0] = '\0';
    pb_diag_set(p->diag, p->s->name, 0, 0, "%s: %s", field, message);
    /* the field's name as data; a long one is cut (the message holds it whole) */
    if (p->diag && snprintf(p->diag->option, sizeof p->diag->option, "%s", field) < 0)
        p->diag->option[0] = '\0';
    return false;
}

/* An optional number member: `*out` untouched when absent. */
static bool number(parse *p, const json_t *obj, const char *key, const char *field, double *out)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        return true;
    if (!json_is_number(v) || !isfinite(json_number_value(v)))
        return fail(p, field, "expected a finite number%s", NULL);
    *out = json_number_value(v);
    return true;
}

static bool boolean(parse *p, const json_t *obj, const char *key, const char *field, bool *out)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        return true;
    if (!json_is_boolean(v))
        return fail(p, field, "expected true or false%s", NULL);
    *out = json_is_true(v);
    return true;
}

/* Unknown names are typos: refuse them, listing what is known. */
static bool known_keys(parse *p, const json_t *obj, const char *where, const char *const *known)
{
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)obj, key, value)
    {
        (void)value;
        bool found = false;
        for (size_t i = 0; known[i] && !found; i++)
            found = strcmp(key, known[i]) == 0;
        if (!found) {
            char field[200];
            snprintf(field, sizeof field, "%s%s%s", where, where[0] ? "." : "", key);
            return fail(p, field, "not a field of %s", where[0] ? where : "a RunScenario request");
        }
    }
    return true;
}

void scenario_resolve_path(const pb_scenario *s, const char *path, char *out, size_t size)
{
    const int n = path[0] == '/' || !s->base_dir[0] ? snprintf(out, size, "%s", path)
                                                    : snprintf(out, size, "%s/%s", s->base_dir, path);
    if (n < 0 || (size_t)n >= size)
        out[0] = '\0'; /* too long: names no file, and the reader says so */
}

static bool string_path(parse *p, const json_t *obj, const char *key, const char *field, char *out,
                        size_t size)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        return true;
    if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= size / 2)
        return fail(p, field, "expected a file name%s", NULL);
    scenario_resolve_path(p->s, json_string_value(v), out, size);
    return out[0] ? true : fail(p, field, "the file name is too long%s", NULL);
}

/* geometry_msgs/Point in the worker's frame (cm, y to the right) -> metres, y up. */
static bool point(parse *p, const json_t *obj, const char *key, double *xy)
{
    const json_t *v = json_object_get(obj, key);
    if (!v)
        return fail(p, key, "missing (a geometry_msgs/Point in cm)%s", NULL);
    char field[80];
    double x = NAN, y = NAN, z = 0;
    snprintf(field, sizeof field, "%s.x", key);
    if (!json_is_object(v))
        return fail(p, key, "expected an object {\"x\": CM, \"y\": CM, \"z\": CM}%s", NULL);
    if (!number(p, v, "x", field, &x))
        return false;
    snprintf(field, sizeof field, "%s.y", key);
    if (!number(p, v, "y", field, &y))
        return false;
    snprintf(field, sizeof field, "%s.z", key);
    if (!number(p, v, "z", field, &z))
        return false;
    if (isnan(x) || isnan(y))
        return fail(p, key, "needs x and y (cm)%s", NULL);
    xy[0] = x / 100.0;
    xy[1] = -y / 100.0;
    return true;
}

/* ---- the catalogue: path names to footprints ---- */

static bool read_catalogue_object(parse *p, const json_t *root, const char *path);

/* The catalogue: a file, or the object itself inline in the scenario. */
static bool read_catalogue(parse *p, const json_t *value)
{
    if (json_is_object(value))
        return read_catalogue_object(p, value, "the inline catalogue");
    char path[PATH_MAX];
    if (!json_is_string(value) || json_string_length(value) == 0 ||
        json_string_length(value) >= sizeof path / 2)
        return fail(p, "catalogue", "expected a file name or {\"actors\": {...}}%s", NULL);
    scenario_resolve_path(p->s, json_string_value(value), path, sizeof path);
    char *data = NULL;
    size_t size = 0;
    pb_diag d = {0};
    if (pb_file_read_all(path, 16u << 20, &data, &size, &d) != PB_OK)
        return fail(p, "catalogue", "%s", d.message);
    json_error_t err;
    json_t *root = json_loadb(data, size, JSON_REJECT_DUPLICATES, &err);
    free(data);
    if (!root || !json_is_object(root)) {
        json_decref(root);
        return fail(p, "catalogue", root ? "%s: expected an object of actor kinds" : "%s: malformed JSON",
                    path);
    }
    const bool ok = read_catalogue_object(p, root, path);
    json_decref(root);
    return ok;
}

static bool read_catalogue_object(parse *p, const json_t *root, const char *path)
{
    const json_t *kinds = json_object_get(root, "actors");
    if (!json_is_object(kinds))
        return fail(p, "catalogue", "%s: expected {\"actors\": {PATH_NAME: {...}, ...}}", path);
    p->s->n_kinds = json_object_size(kinds);
    p->s->kinds = calloc(p->s->n_kinds ? p->s->n_kinds : 1, sizeof *p->s->kinds);
    if (!p->s->kinds)
        return fail(p, "catalogue", "out of memory%s", NULL);
    size_t i = 0;
    const char *name;
    const json_t *entry;
    bool ok = true;
    json_object_foreach((json_t *)kinds, name, entry)
    {
        scene_kind *k = &p->s->kinds[i++];
        char field[300];
        snprintf(field, sizeof field, "catalogue %s", name);
        static const char *const known[] = {"shape",       "radius",  "length", "width",
                                            "traversable", "comment", NULL};
        const json_t *shape = json_object_get(entry, "shape");
        if (strlen(name) >= sizeof k->path_name || !json_is_object(entry))
            ok = fail(p, field, "expected {\"shape\": \"disc\"|\"box\", ...}%s", NULL);
        else if (!known_keys(p, entry, field, known))
            ok = false;
        else if (!json_is_string(shape) || (strcmp(json_string_value(shape), "disc") != 0 &&
                                            strcmp(json_string_value(shape), "box") != 0))
            ok = fail(p, field, "shape must be \"disc\" or \"box\"%s", NULL);
        if (!ok)
            break;
        snprintf(k->path_name, sizeof k->path_name, "%s", name);
        k->is_box = strcmp(json_string_value(shape), "box") == 0;
        ok = number(p, entry, "radius", field, &k->radius) && number(p, entry, "length", field, &k->length) &&
             number(p, entry, "width", field, &k->width) &&
             boolean(p, entry, "traversable", field, &k->traversable);
        if (ok && (k->is_box ? !(k->length > 0 && k->width > 0) : !(k->radius > 0)))
            ok = fail(p, field,
                      k->is_box ? "a box needs length > 0 and width > 0 (m)%s"
                                : "a disc needs radius > 0 (m)%s",
                      NULL);
        if (!ok)
            break;
    }
    return ok;
}

static const scene_kind *find_kind(const pb_scenario *s, const char *path_name)
{
    for (size_t i = 0; i < s->n_kinds; i++)
        if (strcmp(s->kinds[i].path_name, path_name) == 0)
            return &s->kinds[i];
    return NULL;
}

/* An array member of a layout with exactly `n` entries of the right type. */
static bool layout_array(parse *p, const json_t *layout, const char *key, size_t index, size_t n,
                         bool booleans, const json_t **out)
{
    char field[80];
    snprintf(field, sizeof field, "scene_description.ssa_array[%zu].%s", index, key);
    const json_t *a = json_object_get(layout, key);
    *out = a;
    if (!a) {
        if (strcmp(key, "cast_shadow") == 0)
            return true; /* a picture's matter */
        return fail(p, field, "missing%s", NULL);
    }
    if (!json_is_array(a))
        return fail(p, field, "expected an array%s", NULL);
    if (json_array_size(a) != n) {
        char detail[120];
        snprintf(detail, sizeof detail, "has %zu entries, num_instances is %zu", json_array_size(a), n);
        return fail(p, field, "%s", detail);
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, i);
        if (booleans ? !json_is_boolean(v) : !(json_is_number(v) && isfinite(json_number_value(v)))) {
            char detail[80];
            snprintf(detail, sizeof detail, "entry %zu is not %s", i,
                     booleans ? "true or false" : "a finite number");
            return fail(p, field, "%s", detail);
        }
    }
    return true;
}

static bool read_layouts(parse *p, const json_t *ssa_array)
{
    pb_scenario *s = p->s;
    if (!json_is_array(ssa_array))
        return fail(p, "scene_description.ssa_array", "expected an array of StructuralSceneActorLayout%s",
                    NULL);
    size_t total = 0;
    for (size_t l = 0; l < json_array_size(ssa_array); l++) {
        const json_t *n = json_object_get(json_array_get(ssa_array, l), "num_instances");
        if (json_is_integer(n) && json_integer_value(n) >= 0 && json_integer_value(n) <= MAX_ACTORS)
            total += (size_t)json_integer_value(n);
    }
    if (total > MAX_ACTORS)
        return fail(p, "scene_description.ssa_array", "more than 100000 actors%s", NULL);
    s->actors = calloc(total ? total : 1, sizeof *s->actors);
    if (!s->actors)
        return fail(p, "scene_description.ssa_array", "out of memory%s", NULL);
    for (size_t l = 0; l < json_array_size(ssa_array); l++) {
        const json_t *layout = json_array_get(ssa_array, l);
        char field[120];
        snprintf(field, sizeof field, "scene_description.ssa_array[%zu]", l);
        static const char *const known[] = {"path_name", "num_instances", "visible", "cast_shadow", "x",
                                            "y",         "yaw",           "scale",   NULL};
        if (!json_is_object(layout))
            return fail(p, field, "expected a StructuralSceneActorLayout object%s", NULL);
        if (!known_keys(p, layout, field, known))
            return false;
        const json_t *name = json_object_get(layout, "path_name");
        const json_t *count = json_object_get(layout, "num_instances");
        char sub[160];
        snprintf(sub, sizeof sub, "%s.path_name", field);
        if (!json_is_string(name))
            return fail(p, sub, "expected the actor's path name (a string)%s", NULL);
        snprintf(sub, sizeof sub, "%s.num_instances", field);
        if (!json_is_integer(count) || json_integer_value(count) < 0 || json_integer_value(count) > 65535)
            return fail(p, sub, "expected an integer in 0..65535 (uint16)%s", NULL);
        const size_t n = (size_t)json_integer_value(count);
        const json_t *visible, *shadow, *x, *y, *yaw, *scale;
        if (!layout_array(p, layout, "visible", l, n, true, &visible) ||
            !layout_array(p, layout, "cast_shadow", l, n, true, &shadow) ||
            !layout_array(p, layout, "x", l, n, false, &x) ||
            !layout_array(p, layout, "y", l, n, false, &y) ||
            !layout_array(p, layout, "yaw", l, n, false, &yaw) ||
            !layout_array(p, layout, "scale", l, n, false, &scale))
            return false;
        const scene_kind *kind = find_kind(s, json_string_value(name));
        if (!kind && n > 0) {
            snprintf(sub, sizeof sub, "%s.path_name", field);
            return fail(p, sub,
                        s->n_kinds ? "unknown actor '%s' (not in the catalogue)"
                                   : "'%s' needs a catalogue (\"catalogue\": FILE.json)",
                        json_string_value(name));
        }
        s->n_layout_instances += n;
        for (size_t i = 0; i < n; i++) {
            const double sc = json_number_value(json_array_get(scale, i));
            if (!(sc > 0)) {
                snprintf(sub, sizeof sub, "%s.scale", field);
                return fail(p, sub, "scales must be > 0%s", NULL);
            }
            if (!json_is_true(json_array_get(visible, i)))
                continue;
            scene_actor *a = &s->actors[s->n_actors++];
            a->kind = kind;
            a->x = json_number_value(json_array_get(x, i)) / 100.0;
            a->y = -json_number_value(json_array_get(y, i)) / 100.0;
            a->yaw = -json_number_value(json_array_get(yaw, i)) * M_PI / 180.0;
            a->scale = sc;
            a->footprint = kind->is_box
                               ? (pb_footprint){.type = PB_FOOTPRINT_RECT,
                                                .half_length = 0.5 * kind->length * sc,
                                                .half_width = 0.5 * kind->width * sc}
                               : (pb_footprint){.type = PB_FOOTPRINT_DISC, .radius = kind->radius * sc};
        }
    }
    return true;
}

static bool read_scene(parse *p, const json_t *scene)
{
    pb_scenario *s = p->s;
    static const char *const known[] = {"landscape", "sunlight_inclination", "sunlight_yaw_angle",
                                        "ssa_array", NULL};
    if (!json_is_object(scene))
        return fail(p, "scene_description", "expected a SceneDescription object%s", NULL);
    if (!known_keys(p, scene, "scene_description", known))
        return false;
    const json_t *land = json_object_get(scene, "landscape");
    if (land) {
        static const char *const known_land[] = {"nominal_size", "subdivisions", "border", NULL};
        if (!json_is_object(land))
            return fail(p, "scene_description.landscape", "expected a LandscapeDescription object%s", NULL);
        if (!known_keys(p, land, "scene_description.landscape", known_land))
            return false;
        double size = NAN, subdivisions = 0, border = 0;
        if (!number(p, land, "nominal_size", "scene_description.landscape.nominal_size", &size) ||
            !number(p, land, "subdivisions", "scene_description.landscape.subdivisions", &subdivisions) ||
            !number(p, land, "border", "scene_description.landscape.border", &border))
            return false;
        if (!(size > 0) || size > 1e7)
            return fail(p, "scene_description.landscape.nominal_size", "expected cm > 0 (at most 100 km)%s",
                        NULL);
        if (!(subdivisions >= 0 && subdivisions <= 16 && subdivisions == floor(subdivisions)))
            return fail(p, "scene_description.landscape.subdivisions", "expected an integer in 0..16%s",
                        NULL);
        if (!(border >= 0) || border > 1e7)
            return fail(p, "scene_description.landscape.border", "expected cm >= 0%s", NULL);
        s->has_landscape = true;
        s->nominal_size = size / 100.0;
        s->subdivisions = (int)subdivisions;
        /* the border grows by whole vertex spacings (LandscapeDescription's rule), the map's
         * cells split a spacing into the fewest equal parts of at most 10 cm */
        const double spacing = s->nominal_size / ldexp(1.0, s->subdivisions);
        s->border = ceil(border / 100.0 / spacing - 1e-9) * spacing;
        s->resolution = spacing / ceil(spacing / 0.1 - 1e-9);
        if ((s->nominal_size + 2 * s->border) / s->resolution > 20000)
            return fail(p, "scene_description.landscape",
                        "the scene would need more than 20000 cells a side%s", NULL);
    }
    const json_t *ssa = json_object_get(scene, "ssa_array");
    return !ssa || read_layouts(p, ssa);
}

/* {"planner": NAME, "seed": N, "max_iterations": N, "time_limit": S, "params": {NAME: VALUE}} */
static bool read_plan(parse *p, const json_t *obj, const char *where, scenario_plan_config *c,
                      bool with_tracker)
{
    static const char *const known[] = {"planner", "seed", "max_iterations", "time_limit", "params", NULL};
    static const char *const known_driver[] = {"planner", "seed", "max_iterations", "time_limit", "params",
                                               "tracker", NULL};
    if (!known_keys(p, obj, where, with_tracker ? known_driver : known))
        return false;
    char field[96];
    const json_t *name = json_object_get(obj, "planner");
    if (name) {
        snprintf(field, sizeof field, "%s.planner", where);
        if (!json_is_string(name) || json_string_length(name) >= sizeof c->planner)
            return fail(p, field, "expected a planner's name (planbench list)%s", NULL);
        snprintf(c->planner, sizeof c->planner, "%s", json_string_value(name));
    }
    double seed = (double)c->seed, iterations = (double)c->max_iterations;
    snprintf(field, sizeof field, "%s.seed", where);
    if (!number(p, obj, "seed", field, &seed))
        return false;
    if (!(seed >= 0 && seed <= 9007199254740992.0 && seed == floor(seed)))
        return fail(p, field, "expected an integer >= 0%s", NULL);
    snprintf(field, sizeof field, "%s.max_iterations", where);
    if (!number(p, obj, "max_iterations", field, &iterations))
        return false;
    if (!(iterations >= 0 && iterations <= 1e12 && iterations == floor(iterations)))
        return fail(p, field, "expected an integer >= 0 (0: none)%s", NULL);
    snprintf(field, sizeof field, "%s.time_limit", where);
    if (!number(p, obj, "time_limit", field, &c->time_limit))
        return false;
    if (!(c->time_limit >= 0))
        return fail(p, field, "expected seconds >= 0 (0: none)%s", NULL);
    if (c->time_limit == 0 && iterations == 0)
        return fail(p, where, "give the planner a budget: max_iterations or time_limit%s", NULL);
    c->seed = (uint64_t)seed;
    c->max_iterations = (uint64_t)iterations;
    const json_t *params = json_object_get(obj, "params");
    if (params) {
        snprintf(field, sizeof field, "%s.params", where);
        if (!json_is_object(params) || json_object_size(params) > 16)
            return fail(p, field, "expected an object of at most 16 {NAME: NUMBER}%s", NULL);
        const char *key;
        const json_t *value;
        c->n_params = 0;
        json_object_foreach((json_t *)params, key, value)
        {
            if (!json_is_number(value) || strlen(key) >= sizeof c->param_names[0])
                return fail(p, field, "'%s' must be a number", key);
            snprintf(c->param_names[c->n_params], sizeof c->param_names[0], "%s", key);
            c->param_values[c->n_params++] = json_number_value(value);
        }
    }
    return true;
}

static bool read_tracker(parse *p, const json_t *obj, pb_tracker_params *t)
{
    if (!obj)
        return true;
    static const char *const known[] = {
        "cruise_speed",         "reverse_speed", "lookahead_min",  "lookahead_time",
        "comfort_deceleration", "speed_gain",    "stop_tolerance", NULL};
    if (!json_is_object(obj))
        return fail(p, "driver.tracker", "expected an object of tracker settings%s", NULL);
    if (!known_keys(p, obj, "driver.tracker", known))
        return false;
    double *fields[] = {&t->cruise_speed,         &t->reverse_speed, &t->lookahead_min, &t->lookahead_time,
                        &t->comfort_deceleration, &t->speed_gain,    &t->stop_tolerance};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        char field[96];
        snprintf(field, sizeof field, "driver.tracker.%s", known[i]);
        if (!number(p, obj, known[i], field, fields[i]))
            return false;
        if (!(*fields[i] > 0) && !(i == 3 && *fields[i] == 0))
            return fail(p, field, "must be > 0%s", NULL);
    }
    return true;
}

static bool read_driver(parse *p, const json_t *driver)
{
    pb_scenario *s = p->s;
    if (!driver)
        return fail(p, "driver", "missing: {\"planner\": NAME, ...} or {\"inputs\": \"FILE.csv\"}%s", NULL);
    if (json_is_string(driver) && strcmp(json_string_value(driver), "external") == 0) {
        s->driver = &scenario_driver_external;
        return true;
    }
    if (!json_is_object(driver))
        return fail(p, "driver",
                    "expected {\"planner\": NAME, ...}, {\"inputs\": \"FILE.csv\"} or \"external\"%s", NULL);
    if (json_object_get(driver, "inputs")) {
        static const char *const known[] = {"inputs", NULL};
        if (!known_keys(p, driver, "driver", known))
            return false;
        s->driver = &scenario_driver_inputs;
        return string_path(p, driver, "inputs", "driver.inputs", s->inputs_path, sizeof s->inputs_path);
    }
    if (json_object_get(driver, "path")) {
        static const char *const known[] = {"path", "tracker", NULL};
        if (!known_keys(p, driver, "driver", known))
            return false;
        s->driver = &scenario_driver_path;
        return string_path(p, driver, "path", "driver.path", s->path_csv, sizeof s->path_csv) &&
               read_tracker(p, json_object_get(driver, "tracker"), &s->tracker);
    }
    if (json_object_get(driver, "planner")) {
        s->driver = &scenario_driver_planner;
        return read_plan(p, driver, "driver", &s->plan, true) &&
               read_tracker(p, json_object_get(driver, "tracker"), &s->tracker);
    }
    return fail(p, "driver", "expected {\"planner\": NAME, ...} or {\"inputs\": \"FILE.csv\"}%s", NULL);
}

static bool read_request(parse *p, const json_t *root)
{
    pb_scenario *s = p->s;
    static const char *const known[] = {
        "scenario_number", "sim_timeout_period", "vehicle_idling_timeout_period",
        "vehicle_stuck_timeout_period", "max_vehicle_roll", "max_vehicle_pitch", "allow_collisions",
        "vehicle_start_location", "vehicle_start_yaw", "vehicle_goal_location", "goal_radius",
        "scene_description", "take_scene_capture", "scene_capture_only", "scene_capture_settings",
        /* planbench's extensions */
        "worker_id", "driver", "vehicle", "map", "catalogue", "dt", "trajectory_rate", "nominal_speed",
        "reference", "max_sim_time", NULL};
    if (!json_is_object(root))
        return fail(p, "request", "expected a JSON object (a RunScenario request)%s", NULL);
    if (!known_keys(p, root, "", known))
        return false;
    const json_t *number_v = json_object_get(root, "scenario_number");
    if (number_v && (!json_is_integer(number_v) || json_integer_value(number_v) < INT32_MIN ||
                     json_integer_value(number_v) > INT32_MAX))
        return fail(p, "scenario_number", "expected an int32%s", NULL);
    s->scenario_number = number_v ? (int)json_integer_value(number_v) : 0;
    const json_t *worker = json_object_get(root, "worker_id");
    if (worker &&
        (!json_is_integer(worker) || json_integer_value(worker) < 0 || json_integer_value(worker) > 255))
        return fail(p, "worker_id", "expected an integer in 0..255 (uint8)%s", NULL);
    s->worker_id = worker ? (int)json_integer_value(worker) : 0;
    double roll = 180, pitch = 180, yaw_deg = 0, radius = NAN;
    if (!number(p, root, "sim_timeout_period", "sim_timeout_period", &s->sim_timeout_period) ||
        !number(p, root, "vehicle_idling_timeout_period", "vehicle_idling_timeout_period",
                &s->vehicle_idling_timeout_period) ||
        !number(p, root, "vehicle_stuck_timeout_period", "vehicle_stuck_timeout_period",
                &s->vehicle_stuck_timeout_period) ||
        !number(p, root, "max_vehicle_roll", "max_vehicle_roll", &roll) ||
        !number(p, root, "max_vehicle_pitch", "max_vehicle_pitch", &pitch) ||
        !boolean(p, root, "allow_collisions", "allow_collisions", &s->allow_collisions) ||
        !number(p, root, "vehicle_start_yaw", "vehicle_start_yaw", &yaw_deg) ||
        !number(p, root, "goal_radius", "goal_radius", &radius) ||
        !boolean(p, root, "take_scene_capture", "take_scene_capture", &s->take_scene_capture) ||
        !boolean(p, root, "scene_capture_only", "scene_capture_only", &s->scene_capture_only) ||
        !point(p, root, "vehicle_start_location", s->start) ||
        !point(p, root, "vehicle_goal_location", s->goal) || !number(p, root, "dt", "dt", &s->dt) ||
        !number(p, root, "trajectory_rate", "trajectory_rate", &s->trajectory_rate) ||
        !number(p, root, "nominal_speed", "nominal_speed", &s->nominal_speed) ||
        !number(p, root, "max_sim_time", "max_sim_time", &s->max_sim_time))
        return false;
    const json_t *reference = json_object_get(root, "reference");
    if (json_is_boolean(reference))
        s->reference = json_is_true(reference);
    else if (json_is_object(reference) && !read_plan(p, reference, "reference", &s->reference_plan, false))
        return false;
    else if (reference && !json_is_object(reference))
        return fail(p, "reference",
                    "expected true, false or {\"planner\": NAME, \"max_iterations\": N, ...}%s", NULL);
    if (isnan(radius))
        return fail(p, "goal_radius", "missing (cm)%s", NULL);
    if (!(radius >= 0))
        return fail(p, "goal_radius", "must not be negative (cm)%s", NULL);
    if (!(roll > 0) || !(pitch > 0))
        return fail(p, roll > 0 ? "max_vehicle_pitch" : "max_vehicle_roll", "expected degrees > 0%s", NULL);
    if (!(s->dt > 0 && s->dt <= 1))
        return fail(p, "dt", "expected seconds in (0, 1]%s", NULL);
    if (!(s->trajectory_rate > 0))
        return fail(p, "trajectory_rate", "expected Hz > 0%s", NULL);
    if (!(s->max_sim_time > 0))
        return fail(p, "max_sim_time", "expected seconds > 0%s", NULL);
    if (!(s->nominal_speed > 0))
        return fail(p, "nominal_speed", "expected m/s > 0%s", NULL);
    s->goal_radius = radius / 100.0;
    s->max_vehicle_roll = roll * M_PI / 180.0;
    s->max_vehicle_pitch = pitch * M_PI / 180.0;
    s->start[2] = remainder(-yaw_deg * M_PI / 180.0, 2 * M_PI);
    const json_t *settings = json_object_get(root, "scene_capture_settings");
    if (settings) {
        const json_t *size = json_object_get(settings, "image_size");
        if (!json_is_object(settings) || (size && (!json_is_integer(size) || json_integer_value(size) < 16 ||
                                                   json_integer_value(size) > 8192)))
            return fail(p, "scene_capture_settings.image_size", "expected an integer in 16..8192 (pixels)%s",
                        NULL);
        s->capture_size = size ? (int)json_integer_value(size) : 0;
    }
    /* the vehicle first: the catalogue and the scene do not depend on it, the checks do */
    if (!string_path(p, root, "vehicle", "vehicle", s->vehicle_path, sizeof s->vehicle_path))
        return false;
    if (s->vehicle_path[0]) {
        pb_diag d = {0};
        if (pb_vehicle_load(&s->vehicle, s->vehicle_path, &d) != PB_OK) {
            char detail[600];
            pb_diag_format(&d, detail, sizeof detail);
            return fail(p, "vehicle", "%s", detail);
        }
    }
    if (!string_path(p, root, "map", "map", s->map_path, sizeof s->map_path))
        return false;
    const json_t *catalogue = json_object_get(root, "catalogue");
    if (catalogue && !read_catalogue(p, catalogue))
        return false;
    const json_t *scene = json_object_get(root, "scene_description");
    if (!scene && !s->map_path[0])
        return fail(p, "scene_description", "missing (or give a map: \"map\": FILE.yaml)%s", NULL);
    if (scene && !read_scene(p, scene))
        return false;
    if (!s->has_landscape && !s->map_path[0])
        return fail(p, "scene_description.landscape", "missing (or give a map: \"map\": FILE.yaml)%s", NULL);
    return read_driver(p, json_object_get(root, "driver"));
}

pb_status pb_scenario_parse(pb_scenario **out, const char *json, size_t size, const char *name,
                            const char *base_dir, pb_diag *diag)
{
    *out = NULL;
    pb_scenario *s = calloc(1, sizeof *s);
    if (!s) {
        pb_diag_set(diag, name, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    snprintf(s->name, sizeof s->name, "%s", name ? name : "scenario");
    snprintf(s->base_dir, sizeof s->base_dir, "%s", base_dir ? base_dir : "");
    s->vehicle = pb_vehicle_config_default();
    s->dt = 0.01;
    s->trajectory_rate = 10.0;
    s->nominal_speed = 5.0;
    s->max_sim_time = 3600.0;
    s->tracker = pb_tracker_params_default();
    /* the driver plans with a quarter of margin on the turning radius and 30 cm around the
     * footprint for its tracker; the
     * reference is the vehicle's best: hybrid A* unweighted, at the least radius */
    s->plan = (scenario_plan_config){
        .planner = "rrtstar", .seed = 1, .radius_margin = 1.25, .margin = 0.3, .max_iterations = 3000};
    s->reference_plan = (scenario_plan_config){.planner = "hybrid_astar",
                                               .seed = 1,
                                               .radius_margin = 1.0,
                                               .max_iterations = 200000,
                                               .param_names = {"weight"},
                                               .param_values = {1.0},
                                               .n_params = 1};
    s->reference = true;
    s->sim_timeout_period = -1;
    s->vehicle_idling_timeout_period = -1;
    s->vehicle_stuck_timeout_period = -1;
    parse p = {.s = s, .diag = diag};
    json_error_t err;
    json_t *root = json_loadb(json, size, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        pb_diag_set(diag, s->name, err.line, err.column, "malformed JSON: %s", err.text);
        pb_scenario_destroy(s);
        return PB_ERR_INVALID;
    }
    const bool ok = read_request(&p, root);
    json_decref(root);
    if (!ok) {
        pb_scenario_destroy(s);
        return PB_ERR_INVALID;
    }
    *out = s;
    return PB_OK;
}

pb_status pb_scenario_load(pb_scenario **out, const char *path, pb_diag *diag)
{
    *out = NULL;
    char *data = NULL;
    size_t size = 0;
    pb_status st = pb_file_read_all(path, MAX_SCENARIO_BYTES, &data, &size, diag);
    if (st != PB_OK)
        return st;
    char dir_buf[PATH_MAX];
    snprintf(dir_buf, sizeof dir_buf, "%s", path);
    st = pb_scenario_parse(out, data, size, path, dirname(dir_buf), diag);
    free(data);
    return st;
}

void pb_scenario_destroy(pb_scenario *s)
{
    if (!s)
        return;
    free(s->kinds);
    free(s->actors);
    free(s);
}

bool pb_scenario_wants_capture(const pb_scenario *s, bool *only)
{
    if (only)
        *only = s->scene_capture_only;
    return s->take_scene_capture || s->scene_capture_only;
}

const pb_vehicle_config *pb_scenario_vehicle(const pb_scenario *s)
{
    return &s->vehicle;
}

void pb_scenario_start(const pb_scenario *s, double *pose)
{
    memcpy(pose, s->start, sizeof s->start);
}

void pb_scenario_goal(const pb_scenario *s, double *goal)
{
    goal[0] = s->goal[0];
    goal[1] = s->goal[1];
    goal[2] = s->goal_radius;
}

const char *pb_termination_name(pb_termination reason)
{
    static const char *const names[PB_REASON_COUNT] = {
        "REASON_SUCCESS",     "REASON_VEHICLE_COLLISION",      "REASON_VEHICLE_FLIPPED",
        "REASON_SIM_TIMEOUT", "REASON_VEHICLE_IDLING_TIMEOUT", "REASON_VEHICLE_STUCK_TIMEOUT"};
    return (unsigned)reason < PB_REASON_COUNT ? names[reason] : "?";
}
