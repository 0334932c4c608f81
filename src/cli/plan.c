/* `planbench <planner> <map> [start X,Y goal X,Y] [options]`: plan once and report. */
#include "cli.h"
#include "planbench/impl/engine_impl.h"
#include "planbench/vehicle.h"

#include <math.h>
#include <signal.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --save-image draws at most this many tree edges unless --draw-tree says otherwise */
#define PB_DRAW_TREE_DEFAULT 20000

/* Match "--name VALUE" or "--name=VALUE"; advances *i past the value. */
static bool take_value(int argc, char **argv, int *i, const char *name, const char **value, bool *error)
{
    const char *arg = argv[*i];
    const size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return false;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return true;
    }
    if (arg[n] != '\0')
        return false;
    /* a value may start with "--" only for --expr ("--x0 > 0" is an expression): for every
     * other option it is the next option, and this one has no value */
    if (*i + 1 >= argc || (strncmp(argv[*i + 1], "--", 2) == 0 && strcmp(name, "--expr") != 0)) {
        cli_error("%s needs a value", name);
        *error = true;
        return true;
    }
    *value = argv[++*i];
    return true;
}

static bool add_engine_option(plan_args *a, const char *name, const char *value)
{
    if (a->n_engine_options == MAX_OPTIONS) {
        cli_error("too many engine options (at most %d)", MAX_OPTIONS);
        return false;
    }
    a->engine_options[a->n_engine_options++] = (pb_option){name, value};
    return true;
}

void plan_args_default(plan_args *a)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->step_size = -1.0;
    a->goal_radius = -1.0;
    a->goal_bias = -1.0;
    a->draw_tree = PB_DRAW_TREE_DEFAULT;
    a->time_limit = 10.0;
}

/* Returns -1 when parsing succeeded, else an exit status. */
static int parse_args(int argc, char **argv, plan_args *a)
{
    plan_args_default(a);
    a->planner = argv[0];
    static char engine_option_names[MAX_OPTIONS][64];
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *v = NULL;
        bool err = false;
        if (strcmp(arg, "start") == 0 || strcmp(arg, "goal") == 0) {
            if (i + 1 >= argc) {
                cli_error("'%s' needs coordinates, as in '%s 10,20'", arg, arg);
                return PB_EXIT_BAD_INPUT;
            }
            *(arg[0] == 's' ? &a->start_text : &a->goal_text) = argv[++i];
        } else if (take_value(argc, argv, &i, "--start", &v, &err)) {
            a->start_text = v;
        } else if (take_value(argc, argv, &i, "--goal", &v, &err)) {
            a->goal_text = v;
        } else if (take_value(argc, argv, &i, "--seed", &v, &err)) {
            if (!err && !cli_parse_u64("--seed", v, &a->seed))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--step", &v, &err) ||
                   take_value(argc, argv, &i, "--epsilon", &v, &err)) {
            if (err || !cli_parse_double("--step", v, &a->step_size))
                return PB_EXIT_BAD_INPUT;
            if (!(a->step_size > 0.0)) {
                cli_error("--step: expected a step size > 0, got '%s'", v);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (take_value(argc, argv, &i, "--goal-radius", &v, &err)) {
            if (err || !cli_parse_double("--goal-radius", v, &a->goal_radius))
                return PB_EXIT_BAD_INPUT;
            if (!(a->goal_radius > 0.0)) {
                cli_error("--goal-radius: expected a radius > 0, got '%s'", v);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (take_value(argc, argv, &i, "--goal-bias", &v, &err)) {
            if (err || !cli_parse_double("--goal-bias", v, &a->goal_bias))
                return PB_EXIT_BAD_INPUT;
            if (!(a->goal_bias >= 0.0 && a->goal_bias <= 1.0)) {
                cli_error("--goal-bias: expected a probability in [0, 1], got '%s'", v);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (take_value(argc, argv, &i, "--max-iterations", &v, &err)) {
            if (err || !cli_parse_u64("--max-iterations", v, &a->max_iterations))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--max-nodes", &v, &err)) {
            if (err || !cli_parse_u64("--max-nodes", v, &a->max_nodes))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--time-limit", &v, &err)) {
            if (err || !cli_parse_double("--time-limit", v, &a->time_limit))
                return PB_EXIT_BAD_INPUT;
            if (!(a->time_limit > 0.0)) {
                cli_error("--time-limit: expected seconds > 0, got '%s'", v);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (take_value(argc, argv, &i, "--stop", &v, &err)) {
            if (err)
                return PB_EXIT_BAD_INPUT;
            if (strcmp(v, "first") != 0 && strcmp(v, "budget") != 0) {
                cli_error(
                    "--stop: expected 'first' (first solution) or 'budget' (use the whole budget), got '%s'",
                    v);
                return PB_EXIT_BAD_INPUT;
            }
            a->stop_at_first = strcmp(v, "first") == 0;
            a->stop_given = true;
        } else if (take_value(argc, argv, &i, "--param", &v, &err)) {
            if (err)
                return PB_EXIT_BAD_INPUT;
            if (!strchr(v, '=')) {
                cli_error("--param: expected NAME=VALUE, got '%s'", v);
                return PB_EXIT_BAD_INPUT;
            }
            if (a->n_params == MAX_PARAMS) {
                cli_error("too many --param options (at most %d)", MAX_PARAMS);
                return PB_EXIT_BAD_INPUT;
            }
            a->params[a->n_params++] = v;
        } else if (take_value(argc, argv, &i, "--engine", &v, &err)) {
            a->engine = v;
        } else if (take_value(argc, argv, &i, "--engine-option", &v, &err)) {
            if (err)
                return PB_EXIT_BAD_INPUT;
            const char *eq = strchr(v, '=');
            if (!eq || eq == v || (size_t)(eq - v) >= sizeof engine_option_names[0]) {
                cli_error("--engine-option: expected NAME=VALUE, got '%s'", v);
                return PB_EXIT_BAD_INPUT;
            }
            if (a->n_engine_options == MAX_OPTIONS) {
                cli_error("too many engine options (at most %d)", MAX_OPTIONS);
                return PB_EXIT_BAD_INPUT;
            }
            char *name = engine_option_names[a->n_engine_options];
            memcpy(name, v, (size_t)(eq - v));
            name[eq - v] = '\0';
            if (!add_engine_option(a, name, eq + 1))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--bounds", &v, &err)) {
            if (err || !add_engine_option(a, "bounds", v))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--expr", &v, &err)) {
            if (err || !add_engine_option(a, "expr", v))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--plugin", &v, &err)) {
            if (err || !add_engine_option(a, "plugin", v))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--resolution", &v, &err)) {
            if (err || !add_engine_option(a, "resolution", v))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--origin", &v, &err)) {
            if (err || !add_engine_option(a, "origin", v))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--free-threshold", &v, &err)) {
            if (err || !add_engine_option(a, "free_threshold", v))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--occupied-threshold", &v, &err)) {
            if (err || !add_engine_option(a, "occupied_threshold", v))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--robot", &v, &err)) {
            /* a vehicle: the car engine, unless another is named */
            if (err || !add_engine_option(a, "robot", v))
                return PB_EXIT_BAD_INPUT;
            a->robot_given = true;
        } else if (take_value(argc, argv, &i, "--arm-lengths", &v, &err)) {
            if (err || !add_engine_option(a, "arm_lengths", v))
                return PB_EXIT_BAD_INPUT;
        } else if (take_value(argc, argv, &i, "--save-path", &v, &err)) {
            a->save_path = v;
        } else if (take_value(argc, argv, &i, "--save-inputs", &v, &err)) {
            a->save_inputs = v;
        } else if (take_value(argc, argv, &i, "--save-image", &v, &err)) {
            a->save_image = v;
        } else if (take_value(argc, argv, &i, "--draw-tree", &v, &err)) {
            a->draw_tree_given = true;
            if (err)
                return PB_EXIT_BAD_INPUT;
            if (strcmp(v, "all") == 0)
                a->draw_tree = UINT64_MAX;
            else if (strcmp(v, "path") == 0)
                a->draw_tree = 0;
            else {
                char *end = NULL;
                errno = 0;
                const unsigned long long n = strtoull(v, &end, 10);
                if (v[0] < '0' || v[0] > '9' || *end || errno || n == 0) {
                    cli_error("--draw-tree %s: expected all, path or a number of edges > 0", v);
                    return PB_EXIT_BAD_INPUT;
                }
                a->draw_tree = n;
            }
        } else if (take_value(argc, argv, &i, "--screenshot", &v, &err)) {
            a->screenshot = v;
            a->display = true;
        } else if (take_value(argc, argv, &i, "--screenshot-dir", &v, &err)) {
            a->screenshot_dir = v;
            a->display = true;
        } else if (take_value(argc, argv, &i, "--screenshot-at", &v, &err)) {
            if (err || !cli_parse_u64("--screenshot-at", v, &a->screenshot_at))
                return PB_EXIT_BAD_INPUT;
        } else if (strcmp(arg, "--display") == 0) {
            a->display = true;
        } else if (strcmp(arg, "--simplify") == 0) {
            a->simplify = true;
        } else if (strcmp(arg, "--approximate") == 0) {
            a->approximate = true;
        } else if (strcmp(arg, "--json") == 0) {
            a->json = true;
        } else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
            a->quiet = true;
        } else if (arg[0] == '-' && arg[1] != '\0' && !(arg[1] >= '0' && arg[1] <= '9')) {
            cli_error("unknown option '%s' (see 'planbench --help')", arg);
            return PB_EXIT_BAD_INPUT;
        } else if (!a->map) {
            a->map = arg;
        } else {
            cli_error("unexpected argument '%s' (the map is already '%s')", arg, a->map);
            return PB_EXIT_BAD_INPUT;
        }
        if (err)
            return PB_EXIT_BAD_INPUT;
    }
    return -1;
}

/* ---- the tree for --save-image, collected from observer events ----
 * At most `cap` edges are kept, a uniform sample (reservoir sampling) of every edge the planner
 * added, each as its two picture points: memory stays bounded however large a roadmap grows,
 * and the picture stays readable. */

typedef struct drawn_edge {
    float a[2], b[2]; /* picture points of the parent and the node */
    int tree;
    bool live;
} drawn_edge;

typedef struct recorder {
    const pb_engine *engine;
    double scale;  /* of the picture */
    uint64_t cap;  /* most edges kept (--draw-tree) */
    uint64_t seen; /* edges added so far */
    pb_rng rng;    /* for the sample */
    drawn_edge *edges;
    size_t n, capacity;
    bool failed;
} recorder;

static void to_picture(const recorder *r, const double *q, float *xy)
{
    double p[2];
    pb_image_engine_to_picture(r->engine, r->scale, q, p);
    xy[0] = (float)p[0];
    xy[1] = (float)p[1];
}

static void record_event(const pb_event *ev, void *payload)
{
    recorder *r = payload;
    if (r->failed || r->cap == 0 || !ev->q || !ev->parent_q)
        return;
    if (ev->type == PB_EVENT_NODE_ADDED) {
        r->seen++;
        size_t k = r->n;
        if (r->n < r->cap) {
            if (r->n == r->capacity) {
                size_t cap = r->capacity ? 2 * r->capacity : 1024;
                drawn_edge *e = realloc(r->edges, cap * sizeof *e);
                if (!e) {
                    r->failed = true; /* the picture loses its tree, the plan goes on */
                    return;
                }
                r->edges = e;
                r->capacity = cap;
            }
            r->n++;
        } else {
            k = (size_t)(pb_rng_uniform(&r->rng) * (double)r->seen); /* keeps the sample uniform */
            if (k >= r->n)
                return;
        }
        drawn_edge *e = &r->edges[k];
        to_picture(r, ev->parent_q, e->a);
        to_picture(r, ev->q, e->b);
        e->tree = ev->tree;
        e->live = true;
    } else if (ev->type == PB_EVENT_EDGE_REMOVED) {
        /* the newest live edge kept with these endpoints (it may not be in the sample) */
        float a[2], b[2];
        to_picture(r, ev->parent_q, a);
        to_picture(r, ev->q, b);
        for (size_t i = r->n; i-- > 0;) {
            drawn_edge *e = &r->edges[i];
            if (e->live && e->tree == ev->tree && memcmp(e->a, a, sizeof a) == 0 &&
                memcmp(e->b, b, sizeof b) == 0) {
                e->live = false;
                break;
            }
        }
    }
}

static const pb_color tree_colors[] = {{120, 160, 230}, {230, 160, 100}, {140, 200, 140}, {200, 140, 200}};

/* `picture` is the engine's picture rendered before planning (at `scale`), drawn on and freed here. */
static int save_image(const plan_args *a, pb_engine *engine, pb_image *picture, double scale,
                      const recorder *rec, const pb_problem *problem, const pb_result *result)
{
    pb_image image = *picture;
    *picture = (pb_image){0};
    pb_diag diag = {0};
    const bool draw_points = pb_engine_dim(engine) == 2;
    double p0[2], p1[2]; /* picture points */
    for (size_t i = 0; i < rec->n; i++) {
        const drawn_edge *e = &rec->edges[i];
        if (e->live)
            pb_image_draw_line(&image, e->a[0], e->a[1], e->b[0], e->b[1],
                               tree_colors[(unsigned)e->tree % (sizeof tree_colors / sizeof tree_colors[0])]);
    }
    /* A picture much larger than a screen is looked at scaled down: the path and the markers
     * grow with it, to about 2 and 4 pixels when it is shown 1000 pixels across (issue 22). */
    const double longest = fmax(image.width, image.height);
    const int path_width = (int)fmax(3.0, round(longest / 500.0)); /* 3: visible over a dense tree */
    const double marker_radius = fmax(4.0, longest / 250.0);
    const pb_color path_color = {220, 20, 20};
    const pb_path *path = &result->path;
    pb_image_draw_path(&image, engine, scale, path, path_color, path_width);
    const pb_color start_color = {30, 170, 60}, goal_color = {30, 60, 220};
    if (!draw_points) {
        pb_image_draw_config(&image, engine, scale, problem->start, start_color);
        pb_image_draw_config(&image, engine, scale, problem->goal, goal_color);
    }
    pb_image_engine_to_picture(engine, scale, problem->start, p0);
    pb_image_engine_to_picture(engine, scale, problem->goal, p1);
    pb_image_draw_disc(&image, p0[0], p0[1], marker_radius, start_color);
    pb_image_draw_disc(&image, p1[0], p1[1], marker_radius, goal_color);
    pb_image_draw_circle(&image, p1[0], p1[1], problem->goal_radius * pb_image_engine_units(engine, scale),
                         goal_color);
    const pb_status st = pb_image_save_png(&image, a->save_image, &diag);
    pb_image_finish(&image);
    if (st != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    return -1;
}

/* Parse "X,Y,..." into exactly `dim` numbers. */
static bool parse_config(const char *what, const char *text, int dim, double *out)
{
    double values[PB_MAX_DIM];
    const int n = pb_parse_doubles(text, values, PB_MAX_DIM);
    if (n < 1) {
        cli_error("%s: expected %d comma-separated numbers, got '%s'", what, dim, text);
        return false;
    }
    if (n != dim) {
        cli_error("%s: expected %d coordinates for this engine, got %d ('%s')", what, dim, n, text);
        return false;
    }
    memcpy(out, values, (size_t)dim * sizeof *out);
    return true;
}

static void format_config(char *buf, size_t size, const double *q, int dim)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < dim && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, i ? ", %g" : "%g", q[i]);
}

/* The query's form on the command line for this engine, for messages: "start X,Y goal X,Y" in
 * 2-D, else one placeholder per coordinate (the joint's name when the engine names it). */
static void query_form(const pb_engine *engine, char *buf, size_t size)
{
    const int dim = pb_engine_dim(engine);
    char q[400];
    size_t used = 0;
    q[0] = '\0';
    for (int i = 0; i < dim && used < sizeof q; i++) {
        const char *name = pb_engine_coordinate_name(engine, i);
        if (dim == 2)
            name = i == 0 ? "X" : "Y";
        used += name ? (size_t)snprintf(q + used, sizeof q - used, "%s%s", i ? "," : "", name)
                     : (size_t)snprintf(q + used, sizeof q - used, "%sQ%d", i ? "," : "", i + 1);
    }
    snprintf(buf, size, "start %s goal %s", q, q);
}

/* Check that an endpoint is inside the bounds and feasible; explain when it is not. A wrapping
 * coordinate (a continuous joint, a car's yaw) is first wrapped into its bounds: 5 rad is the
 * same angle as 5 - 2 pi. Named coordinates (joints) are named in the messages. */
static bool check_endpoint(pb_engine *engine, const char *what, double *q, const char *map)
{
    const int dim = pb_engine_dim(engine);
    const double *lo = pb_engine_lower(engine), *hi = pb_engine_upper(engine);
    char where[256];
    format_config(where, sizeof where, q, dim);
    double weights[PB_MAX_DIM], periods[PB_MAX_DIM] = {0};
    if (!pb_engine_metric(engine, weights, periods))
        memset(periods, 0, sizeof periods);
    for (int i = 0; i < dim; i++) {
        if (periods[i] > 0.0 && isfinite(q[i]) && !(q[i] >= lo[i] && q[i] <= hi[i])) {
            const double t = fmod(q[i] - lo[i], periods[i]);
            q[i] = lo[i] + (t < 0.0 ? t + periods[i] : t);
        }
        if (!(q[i] >= lo[i] && q[i] <= hi[i])) {
            const char *joint = pb_engine_coordinate_name(engine, i);
            if (joint)
                cli_error("%s (%s) is outside the joint limits: joint '%s' must be in [%g, %g], got %g", what,
                          where, joint, lo[i], hi[i], q[i]);
            else
                cli_error("%s (%s) is outside the %s: coordinate %d must be in [%g, %g]", what, where,
                          map ? "map" : "bounds", i, lo[i], hi[i]);
            return false;
        }
    }
    if (!pb_engine_feasible(engine, q)) {
        /* The upper bound itself is outside an image map (pixels run to W - 1) but inside a
         * joint range: the engine decides, and the message says which it was. */
        for (int i = 0; i < dim; i++)
            if (q[i] == hi[i]) {
                cli_error("%s (%s) is infeasible: coordinate %d lies on the upper bound %g, outside the %s",
                          what, where, i, hi[i], map ? "map" : "bounds");
                return false;
            }
        char why[400];
        if (pb_engine_explain(engine, q, why, sizeof why))
            cli_error("%s (%s) is infeasible: %s", what, where, why);
        else
            cli_error("%s (%s) is %s", what, where, map ? "on an obstacle" : "infeasible (in collision)");
        return false;
    }
    return true;
}

/* A kinodynamic plan's controls as the inputs CSV of `planbench simulate` (t, acceleration,
 * steer_angle, gear, signal; each row held from its t), so the simulator replays the plan. */
static pb_status save_inputs(const pb_result *r, const char *path, pb_diag *diag)
{
    static const char *const gears[] = {"PARKING", "REVERSE", "NEUTRAL", "DRIVE"};
    pb_atomic_file f;
    pb_status st = pb_atomic_file_open(&f, path, diag);
    if (st != PB_OK)
        return st;
    fputs("t,acceleration,steer_angle,gear,signal\n", f.fp);
    /* times as whole steps times dt: planbench simulate steps at k * dt and takes the row whose t
     * it has reached, so the rows land on the same steps */
    long long steps = 0;
    for (size_t i = 0; i < r->n_controls; i++) {
        const pb_control *c = &r->controls[i];
        fprintf(f.fp, "%.17g,%.17g,%.17g,%s,NONE\n", (double)steps * r->control_dt, c->acceleration,
                c->steer_angle, c->gear >= 0 && c->gear < 4 ? gears[c->gear] : "PARKING");
        steps += llround(c->duration / r->control_dt);
    }
    /* the end: the vehicle parks where the plan ends */
    fprintf(f.fp, "%.17g,0,0,PARKING,NONE\n", (double)steps * r->control_dt);
    return pb_atomic_file_commit(&f, diag);
}

/* For engines whose edges are steering curves (the car): `"edges": [[{"type": "L", "length":
 * 1.2}, ...], ...]`, one curve word per edge of the path, so anyone can re-integrate it. */
static void print_json_curves(FILE *out, const pb_engine *engine, const pb_path *path)
{
    pb_curve curve;
    if (path->n < 2 || !pb_engine_curve(engine, pb_path_at(path, 0), pb_path_at(path, 1), &curve))
        return;
    fputs(", \"edges\": [", out);
    for (size_t i = 0; i + 1 < path->n; i++) {
        if (i > 0)
            fputs(", ", out);
        pb_engine_curve(engine, pb_path_at(path, i), pb_path_at(path, i + 1), &curve);
        pb_curve_write_json(out, &curve);
    }
    fputs("]", out);
}

/* The replay's verdict: does the path match the record's fingerprint? Fills `why`. */
static bool compare_with_record(const plan_expect *e, const pb_result *r, char *why, size_t size)
{
    const double cost = r->path.n > 0 ? r->cost : INFINITY;
    if (r->path.n != e->n_waypoints) {
        snprintf(why, size, "%zu waypoints, the record has %zu", r->path.n, e->n_waypoints);
        return false;
    }
    const bool same_cost =
        isinf(cost) ? isinf(e->cost) : isfinite(e->cost) && fabs(cost - e->cost) <= 1e-9 * fabs(e->cost);
    if (!same_cost) {
        snprintf(why, size, "cost %.17g, the record has %.17g", cost, e->cost);
        return false;
    }
    if (pb_path_hash(&r->path) != e->path_hash) {
        snprintf(why, size, "the waypoints differ (path hash %016llx, the record has %016llx)",
                 (unsigned long long)pb_path_hash(&r->path), (unsigned long long)e->path_hash);
        return false;
    }
    snprintf(why, size, "%zu waypoints, cost %.17g", r->path.n, cost);
    return true;
}

static void print_json(FILE *out, const plan_args *a, const char *map, pb_engine *engine,
                       const pb_problem *problem, const pb_result *r, const char *record, const char *verdict)
{
    const int dim = pb_engine_dim(engine);
    fputs("{\"planner\": ", out);
    pb_json_write_string(out, a->planner);
    fputs(", \"engine\": ", out);
    pb_json_write_string(out, pb_engine_name(engine));
    double edge_resolution = 0.0;
    const pb_edge_check edge_check = pb_engine_edge_check(engine, &edge_resolution);
    pb_edge_check_write_json(out, edge_check, edge_resolution);
    fputs(", \"map\": ", out);
    pb_json_write_string(out, map);
    fprintf(out, ", \"seed\": %llu, \"start\": ", (unsigned long long)a->seed);
    json_config(out, problem->start, dim);
    fputs(", \"goal\": ", out);
    json_config(out, problem->goal, dim);
    fputs(", \"goal_radius\": ", out);
    pb_json_write_number(out, problem->goal_radius);
    fputs(", \"default_step\": ", out); /* the engine's, which --step replaces */
    pb_json_write_number(out, pb_engine_default_step(engine));
    fputs(", \"default_step_rule\": ", out);
    pb_json_write_string(out, pb_engine_default_step_rule(engine));
    if (a->interrupted)
        fputs(", \"interrupted\": true", out);
    if (a->simplify && r->path.n > 0) {
        fputs(", \"cost_before_simplify\": ", out);
        pb_json_write_number(out, a->cost_before_simplify);
    }
    pb_result_write_json(out, r, true);
    if (r->n_controls == 0) /* a kinodynamic plan's motion is its controls, printed with the result */
        print_json_curves(out, engine, &r->path);
    if (record)
        fputs(record, out);
    if (a->expect) {
        fprintf(out, ", \"replay\": {\"reproduced\": %s, \"detail\": ", a->reproduced ? "true" : "false");
        pb_json_write_string(out, verdict);
        fprintf(out, ", \"recorded\": {\"n_waypoints\": %zu, \"cost\": ", a->expect->n_waypoints);
        pb_json_write_number(out, a->expect->cost);
        fprintf(out, ", \"path_hash\": \"%016llx\"}}", (unsigned long long)a->expect->path_hash);
    }
    fputs("}\n", out);
}

static void print_summary(FILE *out, const plan_args *a, const char *map, pb_engine *engine,
                          const pb_result *r)
{
    fprintf(out, "%s on %s (%s): %s\n", a->planner, map ? map : "(no map)", pb_engine_name(engine),
            pb_outcome_str(r->outcome));
    if (r->path.n > 0)
        fprintf(out, "  cost        %.6g (%zu waypoints)\n", r->cost, r->path.n);
    if (a->simplify && r->path.n > 0)
        fprintf(out, "  simplified  from cost %.6g\n", a->cost_before_simplify);
    fprintf(out, "  time        %.3f ms", r->time_s * 1e3);
    if (r->time_to_first_s >= 0.0)
        fprintf(out, " (first solution after %.3f ms)", r->time_to_first_s * 1e3);
    fprintf(out, "\n  iterations  %llu\n  nodes       %llu\n", (unsigned long long)r->iterations,
            (unsigned long long)r->nodes);
    if (a->step_size > 0.0)
        fprintf(out, "  step        %g (--step)\n", a->step_size);
    else
        fprintf(out, "  step        %g by default: %s\n", pb_engine_default_step(engine),
                pb_engine_default_step_rule(engine));
    fprintf(out, "  checks      %llu feasible, %llu visible", (unsigned long long)r->counters.n_feasible,
            (unsigned long long)r->counters.n_visible);
    if (r->counters.n_pixels)
        fprintf(out, ", %llu pixels read", (unsigned long long)r->counters.n_pixels);
    if (r->counters.n_edge_states)
        fprintf(out, ", %llu edge states", (unsigned long long)r->counters.n_edge_states);
    fputc('\n', out);
}

/* --save-path: a CSV of numbers, or with the engine's coordinate names (a manipulator's
 * joints) a CSV with a header, or JointTrajectory JSON for a .json file. */
static pb_status save_path(const pb_engine *engine, const pb_path *path, const char *file, pb_diag *diag)
{
    const char *names[PB_MAX_DIM];
    for (int k = 0; k < path->dim; k++)
        if (!(names[k] = pb_engine_coordinate_name(engine, k)))
            return pb_path_save_csv(path, file, diag);
    return pb_path_save_named(path, file, names, diag);
}

int cli_plan(int argc, char **argv)
{
    plan_args a;
    const int rc = parse_args(argc, argv, &a);
    return rc >= 0 ? rc : cli_plan_run(&a);
}

int cli_plan_run(plan_args *args)
{
    plan_args a = *args;
    int rc;
    char *record = NULL; /* the solve's record, `, "record": {...}`, for --json */
    size_t record_size = 0;
    char verdict[256] = "";
    if (a.display && !cli_display_available()) /* it said why */
        return PB_EXIT_BAD_INPUT;
    if (a.screenshot_dir && !cli_folder_writable(a.screenshot_dir, "--screenshot-dir"))
        return PB_EXIT_BAD_INPUT;
    if (a.screenshot_at > 0 && !a.screenshot) {
        cli_error("--screenshot-at needs --screenshot FILE");
        return PB_EXIT_BAD_INPUT;
    }
    if (a.draw_tree_given && !a.save_image) {
        cli_error("--draw-tree needs --save-image FILE (it chooses the tree edges that picture draws)");
        return PB_EXIT_BAD_INPUT;
    }
    if (a.robot_given && !a.engine)
        a.engine = "car";
    const pb_planner_impl *impl = pb_planner_registry_find(a.planner);
    if (!impl) {
        char names[1024] = "";
        size_t used = 0;
        for (size_t i = 0; i < pb_planner_registry_count() && used < sizeof names; i++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                     pb_planner_impl_name(pb_planner_registry_get(i)));
        cli_error("unknown planner '%s' (planners: %s; engines are chosen with --engine)", a.planner, names);
        return PB_EXIT_BAD_INPUT;
    }
    if (!a.map && !a.engine) {
        cli_error("no map given, as in 'planbench %s maps/room1.png'", a.planner);
        return PB_EXIT_BAD_INPUT;
    }
    char map_buf[4096];
    const char *map = a.map ? cli_resolve_map(a.map, map_buf, sizeof map_buf) : NULL;

    pb_diag diag = {0};
    pb_engine *engine = NULL;
    pb_planner *planner = NULL;
    pb_result result;
    recorder rec = {0};
    pb_image picture = {0};
    double picture_scale = 1.0;
    cli_display *display = NULL;
    int exit_code = PB_EXIT_BAD_INPUT;
    bool have_result = false;
    if (pb_engine_load(&engine, a.engine, map, a.engine_options, a.n_engine_options, &diag) != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    const int dim = pb_engine_dim(engine);
    double start[PB_MAX_DIM], goal[PB_MAX_DIM], dstart[PB_MAX_DIM], dgoal[PB_MAX_DIM];
    const bool has_defaults = pb_engine_defaults(engine, dstart, dgoal);
    if ((!a.start_text || !a.goal_text) && !has_defaults) {
        char form[512];
        query_form(engine, form, sizeof form);
        cli_error("%s has no default start and goal for engine '%s': give them, as in '%s'",
                  map ? map : "this engine", pb_engine_name(engine), form);
        goto done;
    }
    if (a.start_text) {
        if (!parse_config("start", a.start_text, dim, start))
            goto done;
    } else {
        memcpy(start, dstart, sizeof start);
    }
    if (a.goal_text) {
        if (!parse_config("goal", a.goal_text, dim, goal))
            goto done;
    } else {
        memcpy(goal, dgoal, sizeof goal);
    }

    if (pb_planner_create(&planner, a.planner, engine, &diag) != PB_OK) {
        cli_diag(&diag);
        goto done;
    }
    pb_planner_set_seed(planner, a.seed);
    if (a.step_size > 0.0) {
        if (pb_planner_has_param(planner, "step_size")) {
            if (pb_planner_set_param_double(planner, "step_size", a.step_size, &diag) != PB_OK) {
                cli_error("--step: %s", diag.message);
                goto done;
            }
        } else if (!a.quiet) {
            fprintf(stderr, "planbench: note: planner '%s' has no step size; --step is ignored\n", a.planner);
        }
    }
    if (a.goal_bias >= 0.0) {
        if (pb_planner_has_param(planner, "goal_bias")) {
            if (pb_planner_set_param_double(planner, "goal_bias", a.goal_bias, &diag) != PB_OK) {
                cli_error("--goal-bias: %s", diag.message);
                goto done;
            }
        } else if (!a.quiet) {
            fprintf(stderr, "planbench: note: planner '%s' has no goal bias; --goal-bias is ignored\n",
                    a.planner);
        }
    }
    for (size_t i = 0; i < a.n_params; i++) {
        char name[128];
        const char *eq = strchr(a.params[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - a.params[i]), a.params[i]);
        if (pb_planner_set_param(planner, name, eq + 1, &diag) != PB_OK) {
            cli_error("--param %s: %s", a.params[i], diag.message);
            goto done;
        }
    }

    pb_problem problem = {.start = start,
                          .goal = goal,
                          .goal_radius =
                              a.goal_radius > 0.0 ? a.goal_radius : pb_planner_default_goal_radius(planner)};
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = a.time_limit;
    stop.max_iterations = a.max_iterations;
    stop.max_nodes = a.max_nodes;
    stop.max_stop_checks = a.max_stop_checks;
    stop.reserve_at_check = a.reserve_at_check;
    stop.first_solution = a.stop_given ? a.stop_at_first : !pb_planner_impl_anytime(impl);
    stop.approximate = a.approximate;

    /* the outputs are checked (and the picture drawn) before planning, not after it */
    if ((a.save_path && !cli_output_writable(a.save_path, "--save-path")) ||
        (a.save_inputs && !cli_output_writable(a.save_inputs, "--save-inputs")) ||
        (a.save_image && !cli_output_writable(a.save_image, "--save-image")))
        goto done;
    if (a.save_image && pb_image_render_engine(&picture, engine, &picture_scale, &diag) != PB_OK) {
        cli_error("--save-image %s: %s", a.save_image, diag.message);
        goto done;
    }
    rec = (recorder){.engine = engine, .scale = picture_scale, .cap = a.draw_tree};
    pb_rng_seed(&rec.rng, a.seed ^ 0x54524545u); /* its own stream: drawing never changes the plan */

    pb_result_init(&result, dim);
    have_result = true;
    const bool start_ok = check_endpoint(engine, "start", start, map);
    const bool goal_ok = start_ok && check_endpoint(engine, "goal", goal, map);
    if (!start_ok || !goal_ok) {
        result.outcome = start_ok ? PB_OUTCOME_INVALID_GOAL : PB_OUTCOME_INVALID_START;
        if (a.json)
            print_json(stdout, &a, map, engine, &problem, &result, NULL, NULL);
        goto done;
    }

    if (a.save_image)
        pb_planner_set_observer(planner, record_event, &rec);
    if (a.display) {
        const cli_display_options display_options = {a.planner,
                                                     map,
                                                     a.seed,
                                                     a.screenshot,
                                                     a.screenshot_at,
                                                     a.save_image ? record_event : NULL,
                                                     &rec,
                                                     a.screenshot_dir};
        rc = cli_display_open(&display, engine, planner, &problem, &display_options);
        if (rc < 0)
            rc = cli_display_solve(display, &stop, &result);
        if (rc >= 0) {
            exit_code = rc;
            goto done;
        }
    } else {
        /* Ctrl-C (or SIGTERM) ends the solve as a spent budget does: the planner stops at its next
         * check and the best path so far is printed and saved. A second one quits at once. */
        stop.cancel = &cli_interrupt_flag;
        cli_catch_interrupts(true);
        const pb_status solved = pb_planner_solve(planner, &problem, &stop, &result);
        a.interrupted = atomic_load(&cli_interrupt_flag) != 0;
        if (a.interrupted && !a.quiet)
            fprintf(stderr,
                    "planbench: interrupted after %.3f s: the best path so far follows (a second "
                    "Ctrl-C quits at once)\n",
                    result.time_s);
        if (solved != PB_OK) {
            pb_diag fault = {0};
            if (pb_engine_fault(engine, &fault) != PB_OK)
                cli_error("planning failed: %s", fault.message);
            else if (solved == PB_ERR_NOMEM)
                cli_error("planning failed: out of memory");
            else
                cli_error("planning failed: the goal radius %g is not a positive finite distance",
                          problem.goal_radius);
            goto done;
        }
    }
    /* the record is of the planner's path, before any simplification */
    FILE *record_out = open_memstream(&record, &record_size);
    if (!record_out) {
        cli_error("out of memory");
        goto done;
    }
    pb_planner_write_record_json(record_out, planner, map, a.engine_options, a.n_engine_options, &problem,
                                 &stop, &result);
    if (fclose(record_out) != 0) {
        cli_error("out of memory");
        goto done;
    }
    if (a.expect) {
        a.reproduced = compare_with_record(a.expect, &result, verdict, sizeof verdict);
        args->reproduced = a.reproduced;
    }
    if (a.simplify && result.path.n > 1 && result.outcome == PB_OUTCOME_EXACT) {
        /* Its own stream, derived from the seed, so simplifying never changes the plan. */
        pb_rng rng;
        pb_rng_seed(&rng, a.seed ^ 0x5349u);
        double after = result.cost;
        if (pb_path_simplify(&result.path, engine, &rng, PB_SIMPLIFY_TRIES, &a.cost_before_simplify,
                             &after) != PB_OK) {
            cli_error("--simplify: out of memory");
            goto done;
        }
        result.cost = after;
    }
    if (a.json)
        print_json(stdout, &a, map, engine, &problem, &result, record, verdict);
    else if (!a.quiet)
        print_summary(stdout, &a, map, engine, &result);
    if (a.expect && !a.json && !a.quiet)
        printf("  replay      %s: %s\n", a.reproduced ? "reproduced" : "DIFFERS", verdict);
    fflush(stdout);

    exit_code = result.outcome == PB_OUTCOME_EXACT || cli_display_stopped_for_screenshot(display)
                    ? PB_EXIT_FOUND
                    : PB_EXIT_NOT_FOUND;
    if (a.expect) {
        exit_code = a.reproduced ? PB_EXIT_FOUND : PB_EXIT_NOT_REPRODUCED;
        if (!a.reproduced)
            cli_error("replay: the path does not reproduce the record: %s", verdict);
    }
    if (a.save_path) {
        if (result.path.n == 0) {
            if (!a.quiet)
                fprintf(stderr, "planbench: note: no path, so %s was not written\n", a.save_path);
        } else if (save_path(engine, &result.path, a.save_path, &diag) != PB_OK) {
            cli_diag(&diag);
            exit_code = PB_EXIT_BAD_INPUT;
        }
    }
    if (a.save_inputs) {
        if (result.n_controls == 0) {
            if (!a.quiet)
                fprintf(stderr,
                        "planbench: note: no controls (not a kinodynamic plan), so %s was not written\n",
                        a.save_inputs);
        } else if (save_inputs(&result, a.save_inputs, &diag) != PB_OK) {
            cli_diag(&diag);
            exit_code = PB_EXIT_BAD_INPUT;
        }
    }
    if (a.save_image) {
        rc = save_image(&a, engine, &picture, picture_scale, &rec, &problem, &result);
        if (rc >= 0)
            exit_code = rc;
    }
    if (display && (rc = cli_display_finish(display, &stop, &result, a.quiet)) >= 0)
        exit_code = rc;
done:
    free(record);
    cli_catch_interrupts(false);
    cli_display_close(display);
    free(rec.edges);
    pb_image_finish(&picture);
    if (have_result)
        pb_result_finish(&result);
    pb_planner_destroy(planner);
    pb_engine_destroy(engine);
    return exit_code;
}
