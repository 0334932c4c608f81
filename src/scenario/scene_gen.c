/* Generated scenarios (planbench scene gen): a random scene of a documented family as a
 * runnable RunScenario request, feasible by BACRE's rule, the same bytes for the same seed.
 *
 * The family "bacre" is BACRE's (tsender/bacre_2D): a 60 m square landscape; 6 trees (trunks,
 * obstacles: discs of 0.5 m times a scale in [1, 2]) and 6 bushes (traversable: 1 m times
 * [1, 1.5]) placed uniformly, none within 10 m of the start or the goal (an actor drawn there is
 * drawn again); the Lexus starts at (10, 10) facing 45 degrees, the goal is (50, 50) with a 5 m
 * radius; sim timeout 17 s, idling and stuck timeouts 5 s, roll and pitch limits 70 degrees,
 * nominal speed 5 m/s. A scene is kept when the reference planner (hybrid A* on the car's
 * C-space, unweighted) finds a path it can drive within the timeout at the nominal speed;
 * otherwise the scene is drawn again from the same stream (at most 100 times). */
#include "scenario_internal.h"

#include <jansson.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SIZE_M         60.0
#define CLEAR_RADIUS_M 10.0
#define MAX_DRAWS      100

typedef struct kind_spec {
    const char *path_name;
    int count;
    double scale_lo, scale_hi;
} kind_spec;

static const kind_spec bacre_kinds[2] = {
    {"/Game/Trees/Tree.Tree_C", 6, 1.0, 2.0},
    {"/Game/Bushes/Bush.Bush_C", 6, 1.0, 1.5},
};

static json_t *real_array(const double *values, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_real(values[i]));
    return a;
}

/* One draw of the family as a RunScenario request (the worker's units: cm, y to the right,
 * clockwise degrees). */
static json_t *draw(pb_rng *rng)
{
    const double start[2] = {10.0, 10.0}, goal[2] = {50.0, 50.0};
    json_t *layouts = json_array();
    for (int k = 0; k < 2; k++) {
        const kind_spec *spec = &bacre_kinds[k];
        double x[16], y[16], yaw[16], scale[16];
        json_t *visible = json_array(), *shadow = json_array();
        for (int i = 0; i < spec->count; i++) {
            double px, py;
            do {
                px = pb_rng_range(rng, 0.0, SIZE_M);
                py = pb_rng_range(rng, 0.0, SIZE_M);
            } while (hypot(px - start[0], py - start[1]) <= CLEAR_RADIUS_M ||
                     hypot(px - goal[0], py - goal[1]) <= CLEAR_RADIUS_M);
            x[i] = round(px * 100.0);
            y[i] = -round(py * 100.0);
            yaw[i] = -round(pb_rng_range(rng, 0.0, 360.0));
            scale[i] = round(pb_rng_range(rng, spec->scale_lo, spec->scale_hi) * 1000.0) / 1000.0;
            json_array_append_new(visible, json_true());
            json_array_append_new(shadow, json_true());
        }
        json_t *layout = json_object();
        json_object_set_new(layout, "path_name", json_string(spec->path_name));
        json_object_set_new(layout, "num_instances", json_integer(spec->count));
        json_object_set_new(layout, "visible", visible);
        json_object_set_new(layout, "cast_shadow", shadow);
        json_object_set_new(layout, "x", real_array(x, spec->count));
        json_object_set_new(layout, "y", real_array(y, spec->count));
        json_object_set_new(layout, "yaw", real_array(yaw, spec->count));
        json_object_set_new(layout, "scale", real_array(scale, spec->count));
        json_array_append_new(layouts, layout);
    }
    json_t *landscape =
        json_pack("{s:f, s:i, s:f}", "nominal_size", SIZE_M * 100.0, "subdivisions", 1, "border", 0.0);
    json_t *scene = json_pack("{s:o, s:f, s:f, s:o}", "landscape", landscape, "sunlight_inclination", 30.0,
                              "sunlight_yaw_angle", 0.0, "ssa_array", layouts);
    json_t *catalogue = json_pack("{s:{s:{s:s, s:f, s:b}, s:{s:s, s:f, s:b}}}", "actors",
                                  bacre_kinds[0].path_name, "shape", "disc", "radius", 0.5, "traversable", 0,
                                  bacre_kinds[1].path_name, "shape", "disc", "radius", 1.0, "traversable", 1);
    json_t *point_start =
        json_pack("{s:f, s:f, s:f}", "x", start[0] * 100.0, "y", -start[1] * 100.0, "z", 0.0);
    json_t *point_goal = json_pack("{s:f, s:f, s:f}", "x", goal[0] * 100.0, "y", -goal[1] * 100.0, "z", 0.0);
    json_t *driver =
        json_pack("{s:s, s:i, s:i}", "planner", "hybrid_astar", "max_iterations", 100000, "seed", 1);
    json_t *req = json_object();
    json_object_set_new(req, "scenario_number", json_integer(0));
    json_object_set_new(req, "sim_timeout_period", json_real(17.0));
    json_object_set_new(req, "vehicle_idling_timeout_period", json_real(5.0));
    json_object_set_new(req, "vehicle_stuck_timeout_period", json_real(5.0));
    json_object_set_new(req, "max_vehicle_roll", json_real(70.0));
    json_object_set_new(req, "max_vehicle_pitch", json_real(70.0));
    json_object_set_new(req, "allow_collisions", json_false());
    json_object_set_new(req, "vehicle_start_location", point_start);
    json_object_set_new(req, "vehicle_start_yaw", json_real(-45.0));
    json_object_set_new(req, "vehicle_goal_location", point_goal);
    json_object_set_new(req, "goal_radius", json_real(500.0));
    json_object_set_new(req, "scene_description", scene);
    json_object_set_new(req, "take_scene_capture", json_false());
    json_object_set_new(req, "scene_capture_only", json_false());
    json_object_set_new(req, "catalogue", catalogue);
    json_object_set_new(req, "driver", driver);
    json_object_set_new(req, "nominal_speed", json_real(5.0));
    return req;
}

pb_status pb_scenario_generate(char **json_out, const char *family, uint64_t seed, pb_diag *diag)
{
    *json_out = NULL;
    if (!family || strcmp(family, "bacre") != 0) {
        pb_diag_set_option(diag, "family", "unknown family '%s' (bacre)", family ? family : "");
        return PB_ERR_INVALID;
    }
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    for (int attempt = 0; attempt < MAX_DRAWS; attempt++) {
        json_t *req = draw(&rng);
        char *text =
            req ? json_dumps(req, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) : NULL;
        json_decref(req);
        if (!text) {
            pb_diag_set(diag, NULL, 0, 0, "out of memory");
            return PB_ERR_NOMEM;
        }
        /* BACRE's feasibility rule: the reference finishes within the timeout at nominal speed */
        pb_scenario *s = NULL;
        pb_status st = pb_scenario_parse(&s, text, strlen(text), "generated", NULL, diag);
        if (st != PB_OK) {
            free(text);
            return st;
        }
        pb_path path;
        pb_path_init(&path, 3);
        double cost = INFINITY;
        pb_diag plan_diag = {0};
        st = scenario_plan(s, &s->reference_plan, &path, &cost, NULL, &plan_diag);
        const bool feasible = st == PB_OK && cost / s->nominal_speed <= s->sim_timeout_period;
        pb_path_finish(&path);
        pb_scenario_destroy(s);
        if (st != PB_OK && st != PB_ERR_NOT_FOUND) {
            free(text);
            *diag = plan_diag;
            return st;
        }
        if (feasible) {
            *json_out = text;
            return PB_OK;
        }
        free(text);
    }
    pb_diag_set(diag, NULL, 0, 0, "no feasible scene of family %s in %d draws from seed %llu", family,
                MAX_DRAWS, (unsigned long long)seed);
    return PB_ERR_NOT_FOUND;
}
