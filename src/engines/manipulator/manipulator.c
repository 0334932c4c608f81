/* The manipulator engine: configurations are joint vectors of a robot described in URDF,
 * checked for collision with FCL against a world's obstacles and against the robot itself.
 *
 * C-space: one coordinate per active joint (the world's planning group, its joint list, or
 * every movable non-mimic joint of the URDF in file order), bounded by the joint limits;
 * continuous joints span [-pi, pi) and wrap (period 2 pi). Other movable joints are held at
 * 0 (or the limit nearest 0); mimic joints follow the joint they mimic.
 *
 * feasible(q): inside the limits, no link shape touches an obstacle, and no two link shapes
 * touch, except pairs that cannot matter or are excluded: shapes of one rigid body (links
 * joined by fixed joints), of adjacent bodies (one joint apart), SRDF <disable_collisions>
 * pairs. Shape pairs whose relative pose is the same in every configuration (and link
 * shapes that never move, against obstacles) are checked once when the engine loads:
 * overlapping ones are a load error, the rest are never checked again. The answers are
 * FCL's on the exact meshes; cheap conservative bounds settle most of them first (see
 * "sphere bounds" in bounds.c): every link shape carries a tree of spheres that contain all of
 * it, and boxes, cylinders and spheres have formulas for their distance to a point, so a
 * shape far from an obstacle, or with a piece inside it, costs no FCL query.
 *
 * visible(a, b), certified (the default): conservative advancement. At load, every shape
 * gets a bound on how far any of its points moves per radian (metre) of each coordinate,
 * from bounding spheres and the joint axes (manip_compute_sweep). Along an edge, a configuration
 * whose moving shapes are at distance d from the obstacles and from each other certifies
 * the stretch of edge within which no point moves d; the rest is split breadth-first at
 * midpoints, so a collision mid-edge is found in a few queries. The distances are lower
 * bounds from the sphere trees (and a convexity bound on each piece, see
 * leaf_obstacle_bound in bounds.c), FCL distance queries only where those are too small to decide.
 * Near a contact (clearance below edge_tolerance, PB_MANIPULATOR_EDGE_TOLERANCE = 0.1 mm)
 * configurations are checked exactly at that spacing. Unlike a fixed resolution, this
 * misses no thin obstacle and takes long steps far from everything.
 * visible(a, b), interpolated (edge_check=interpolated): configurations at most `resolution`
 * apart under the metric, in bisection order, stopping at the first collision; default
 * PB_MANIPULATOR_DEFAULT_RESOLUTION = 0.05 rad. Used to re-check paths independently.
 *
 * distance: joint-space Euclidean, optionally weighted per joint (option weights=...),
 * continuous joints the short way round.
 *
 * This file holds the engine's table, load (options, then the model: tree_build.c), explain,
 * destroy and the pb_manipulator_* accessors of manipulator.h; the parts it is made of are
 * listed in manipulator_model.h. Calls kinematics.c, bounds.c (the query counters),
 * edge_check.c, ik.c (the search behind inverse_kinematics) and tree_build.c; never
 * objects.c, whose objects it frees through m->objects_destroy. */
#include "engines/manipulator/manipulator.h"
#include "engines/manipulator/manipulator_model.h"
#include "planbench/impl/engine_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(MANIP_MAX_LINKS == PB_MANIPULATOR_MAX_LINKS, "manipulator_model.h: MANIP_MAX_LINKS");

/* The certified check asks FCL for a distance only where the sphere trees certify less than
 * SPHERE_TRUST times the distance needed and less than SPHERE_NEAR metres: farther out, a
 * shorter step certified by the bounds is cheaper than an exact query (bench_mbm on the
 * cage problems: 1 mm asked FCL a third less often than 3 mm, and far less than 2 cm, for
 * the same or less planning time). */
#define SPHERE_TRUST 0.5
#define SPHERE_NEAR  0.001

/* ---- explanations ---- */

/* The first collision at shape poses `poses` among all shapes (moving or not) and
 * obstacles, or among `m->pairs`; "" when none. Exact FCL checks only, independent of the
 * sphere bounds feasible() uses. */
static bool explain_poses(const manipulator *m, const pb_pose *poses, bool include_static, char *buf,
                          size_t size)
{
    buf[0] = '\0';
    for (size_t s = 0; s < m->n_shapes; s++) {
        if (!include_static && !m->shape_moves[s])
            continue;
        for (size_t o = 0; o < m->n_obstacles; o++) {
            if (pbf_collide(m->shapes[s].geometry, poses[s].r, poses[s].t, m->obstacles[o],
                            m->obstacle_poses[o].r, m->obstacle_poses[o].t)) {
                snprintf(buf, size, "link '%s' touches obstacle '%s'", link_name(m, s), m->obstacle_names[o]);
                return true;
            }
        }
    }
    for (size_t p = 0; p < m->n_pairs; p++) {
        /* FCL alone (no sphere bounds): tests compare feasible() against this */
        const uint32_t a = m->pairs[p][0], b = m->pairs[p][1];
        if (pbf_collide(m->shapes[a].geometry, poses[a].r, poses[a].t, m->shapes[b].geometry, poses[b].r,
                        poses[b].t)) {
            snprintf(buf, size, "link '%s' touches link '%s'", link_name(m, m->pairs[p][0]),
                     link_name(m, m->pairs[p][1]));
            return true;
        }
    }
    return false;
}

static bool explain(const manipulator *m, const double *q, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int i = 0; i < m->dim; i++) {
        if (m->wraps[i] ? !isfinite(q[i]) : !(q[i] >= m->lower[i] && q[i] <= m->upper[i])) {
            snprintf(buf, size, "joint '%s' = %g is outside its limits [%g, %g]",
                     m->robot.joints[m->joint_of[i]].name, q[i], m->lower[i], m->upper[i]);
            return true;
        }
    }
    pb_pose poses[MAX_SHAPES];
    shape_poses(m, q, poses);
    return explain_poses(m, poses, false, buf, size);
}

/* ---- loading ---- */

static void destroy(void *self)
{
    manipulator *m = self;
    if (!m)
        return;
    for (size_t s = 0; s < m->n_shapes; s++) {
        pbf_geometry_destroy(m->shapes[s].geometry);
        pbf_geometry_destroy(m->shapes[s].hull);
        free(m->shapes[s].vertices);
    }
    for (size_t o = 0; o < m->n_static_obstacles; o++) {
        pbf_geometry_destroy(m->obstacles[o]);
        free(m->obstacle_names[o]);
    }
    if (m->objects)
        m->objects_destroy(m->objects);
    free(m->obstacle_bounds);
    free(m->nodes);
    free(m->leaf_points);
    free(m->lane_nodes);
    free(m->shapes);
    free(m->shape_moves);
    free(m->pairs);
    free(m->obstacles);
    free(m->obstacle_poses);
    free(m->obstacle_names);
    free(m->coord_of);
    free(m->held);
    free(m->sweep);
    free(m->pair_sweep);
    pb_robot_finish(&m->robot);
    free(m);
}

static pb_status check_default(const manipulator *m, const pb_world *world, const char *what,
                               const double *given, int n, int line, double *out, pb_diag *diag)
{
    if (n != m->dim) {
        pb_diag_set(diag, world->path, line, 0, "<%s>: %d joint values for a robot that plans %d joints",
                    what, n, m->dim);
        return PB_ERR_INVALID;
    }
    for (int i = 0; i < m->dim; i++) {
        double v = given[i];
        if (m->wraps[i]) {
            v = fmod(v + M_PI, 2.0 * M_PI);
            v = v < 0.0 ? v + M_PI : v - M_PI;
        }
        out[i] = v;
    }
    char why[400];
    if (explain(m, out, why, sizeof why)) {
        pb_diag_set(diag, world->path, line, 0, "<%s>: the configuration is infeasible: %s", what, why);
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

static const char *const known_options[] = {
    "problem",        "resolution",     "weights",   "group",        "edge_check",
    "edge_tolerance", "edge_prefilter", "step_size", "sphere_lanes", NULL};

static const char *const options_help[] = {
    "problem=SCENARIO:INDEX  which problem of a MotionBenchMaker flat file (default: the first)",
    "edge_check=CHECK        certified (default: no collision is missed, see edge_tolerance) or interpolated",
    "edge_tolerance=M        certified: metres a point may move between two exact checks near a contact "
    "(1e-4)",
    "edge_prefilter=R        certified: plain checks this far apart (radians) before certifying; 0: none "
    "(0.3)",
    "resolution=R            interpolated: spacing in radians (default 0.05, or the world's <resolution>)",
    "step_size=R             tree planners' default step in radians (default 0.5; a planner's own step_size "
    "wins)",
    "weights=W1,...,WD       per-joint metric weights (default 1)",
    "group=NAME              SRDF planning group (default: the world's)",
    "sphere_lanes=MODE       the float sphere stage before the exact bounds: off (default), auto (AVX2 "
    "when the CPU has it), avx2 or portable (answers are the same)",
    NULL,
};

static pb_status load(void **self_out, pb_engine_config *setup, const char *path, const pb_option *options,
                      size_t n_options, pb_diag *diag)
{
    *self_out = NULL;
    pb_status st = pb_option_check_known(options, n_options, known_options, "manipulator", diag);
    if (st != PB_OK)
        return st;
    if (!path) {
        pb_diag_set(diag, NULL, 0, 0, "the manipulator engine needs a world file (worlds/*.xml)");
        return PB_ERR_INVALID;
    }
    const char *no_fcl;
    if (!pbf_available(&no_fcl)) {
        pb_diag_set(diag, path, 0, 0, "the manipulator engine cannot load FCL: %s", no_fcl);
        return PB_ERR_UNSUPPORTED;
    }
    double resolution = 0.0, weights[PB_MAX_DIM];
    int n_weights = 0;
    const char *text = pb_option_find(options, n_options, "resolution");
    if (text && (pb_parse_doubles(text, &resolution, 1) != 1 || !(resolution > 0.0) || resolution > 10.0)) {
        pb_diag_set_option(diag, "resolution", "expected radians in (0, 10], got '%s'", text);
        return PB_ERR_INVALID;
    }
    const char *check_text = pb_option_find(options, n_options, "edge_check");
    if (check_text && strcmp(check_text, "certified") != 0 && strcmp(check_text, "interpolated") != 0) {
        pb_diag_set_option(diag, "edge_check", "expected 'certified' or 'interpolated', got '%s'",
                           check_text);
        return PB_ERR_INVALID;
    }
    double edge_tolerance = PB_MANIPULATOR_EDGE_TOLERANCE;
    text = pb_option_find(options, n_options, "edge_tolerance");
    if (text && (pb_parse_doubles(text, &edge_tolerance, 1) != 1 || !(edge_tolerance >= 1e-7) ||
                 edge_tolerance > 1.0)) {
        pb_diag_set_option(diag, "edge_tolerance", "expected metres in [1e-7, 1], got '%s'", text);
        return PB_ERR_INVALID;
    }
    double prefilter = PB_MANIPULATOR_DEFAULT_PREFILTER;
    text = pb_option_find(options, n_options, "edge_prefilter");
    if (text && (pb_parse_doubles(text, &prefilter, 1) != 1 || !(prefilter >= 0.0) || prefilter > 10.0)) {
        pb_diag_set_option(diag, "edge_prefilter", "expected radians in [0, 10], got '%s'", text);
        return PB_ERR_INVALID;
    }
    double step_size = PB_MANIPULATOR_DEFAULT_STEP;
    text = pb_option_find(options, n_options, "step_size");
    if (text && (pb_parse_doubles(text, &step_size, 1) != 1 || !(step_size > 0.0) || step_size > 100.0)) {
        pb_diag_set_option(diag, "step_size", "expected radians in (0, 100], got '%s'", text);
        return PB_ERR_INVALID;
    }
    const char *weights_text = pb_option_find(options, n_options, "weights");
    if (weights_text && (n_weights = pb_parse_doubles(weights_text, weights, PB_MAX_DIM)) < 1) {
        pb_diag_set_option(diag, "weights", "expected comma-separated positive numbers, got '%s'",
                           weights_text);
        return PB_ERR_INVALID;
    }
    pb_world world;
    if ((st = pb_world_load(&world, path, pb_option_find(options, n_options, "problem"), diag)) != PB_OK)
        return st;
    manipulator *m = calloc(1, sizeof *m);
    if (!m) {
        pb_world_finish(&world);
        pb_diag_set(diag, path, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    m->base = world.base;
    if (world.urdf_text) { /* a Klampt robot, made into URDF by the world reader */
        if ((st = pb_urdf_load_memory(&m->robot, world.urdf_text, strlen(world.urdf_text), world.urdf_path,
                                      NULL, diag)) != PB_OK ||
            (st = pb_srdf_load_memory(&m->robot, world.srdf_text, strlen(world.srdf_text), world.urdf_path,
                                      diag)) != PB_OK)
            goto fail;
    } else if ((st = pb_urdf_load(&m->robot, world.urdf_path, diag)) != PB_OK) {
        goto fail;
    }
    if (world.srdf_path && (st = pb_srdf_load(&m->robot, world.srdf_path, diag)) != PB_OK)
        goto fail;
    if (m->robot.n_links > PB_MANIPULATOR_MAX_LINKS) {
        pb_diag_set(diag, world.urdf_path, 0, 0, "the robot has %zu links, more than %d", m->robot.n_links,
                    PB_MANIPULATOR_MAX_LINKS);
        st = PB_ERR_INVALID;
        goto fail;
    }
    m->coord_of = malloc((m->robot.n_joints + 1) * sizeof *m->coord_of);
    m->held = calloc(m->robot.n_joints + 1, sizeof *m->held);
    if (!m->coord_of || !m->held) {
        st = PB_ERR_NOMEM;
        goto fail;
    }
    for (size_t j = 0; j < m->robot.n_joints; j++)
        m->coord_of[j] = -1;
    if ((st = manip_choose_joints(m, &world, pb_option_find(options, n_options, "group"), diag)) != PB_OK)
        goto fail;
    if (weights_text) {
        if (n_weights != m->dim) {
            pb_diag_set_option(diag, "weights", "%d values for %d joints", n_weights, m->dim);
            st = PB_ERR_INVALID;
            goto fail;
        }
        for (int i = 0; i < n_weights; i++)
            if (!(weights[i] > 0.0)) {
                pb_diag_set_option(diag, "weights", "every weight must be > 0 ('%s')", weights_text);
                st = PB_ERR_INVALID;
                goto fail;
            }
    }
    if ((st = manip_build_shapes_and_pairs(m, diag)) != PB_OK ||
        (st = manip_build_environment(m, &world, diag)) != PB_OK)
        goto fail;
    if ((st = manip_lanes_choose(m, pb_option_find(options, n_options, "sphere_lanes"), diag)) != PB_OK)
        goto fail;
    if (!manip_compute_sweep(m) || !manip_lanes_build(m)) {
        st = PB_ERR_NOMEM;
        goto fail;
    }
    manip_view_bounds(m);

    *setup = pb_engine_config_default(m->dim);
    for (int i = 0; i < m->dim; i++) {
        setup->lower[i] = m->lower[i];
        setup->upper[i] = m->upper[i];
        setup->periods[i] = m->wraps[i] ? 2.0 * M_PI : 0.0;
        setup->weights[i] = n_weights ? weights[i] : 1.0;
    }
    setup->resolution = resolution > 0.0         ? resolution
                        : world.resolution > 0.0 ? world.resolution
                                                 : PB_MANIPULATOR_DEFAULT_RESOLUTION;
    setup->bisection = true;
    setup->step_size = step_size;
    m->certified = !check_text || strcmp(check_text, "certified") == 0;
    m->edge_tolerance = edge_tolerance;
    /* Certified to within edge_tolerance metres of workspace motion near a contact. */
    setup->edge_check = m->certified ? PB_EDGE_CHECK_CERTIFIED : PB_EDGE_CHECK_SAMPLED;
    if (m->certified)
        setup->clearance_floor = edge_tolerance;
    m->resolution = setup->resolution;
    m->prefilter = prefilter;
    m->sphere_trust = SPHERE_TRUST;
    m->sphere_near = SPHERE_NEAR;
    for (int i = 0; i < m->dim; i++) {
        m->weights[i] = setup->weights[i];
        m->periods[i] = setup->periods[i];
    }
    if (world.n_start > 0 || world.n_goal > 0) {
        if (world.n_start == 0 || world.n_goal == 0) {
            pb_diag_set(diag, path, world.n_start ? world.start_line : world.goal_line, 0,
                        "a world gives both a <start> and a <goal>, or neither");
            st = PB_ERR_INVALID;
            goto fail;
        }
        if ((st = check_default(m, &world, "start", world.start, world.n_start, world.start_line,
                                setup->default_start, diag)) != PB_OK ||
            (st = check_default(m, &world, "goal", world.goal, world.n_goal, world.goal_line,
                                setup->default_goal, diag)) != PB_OK)
            goto fail;
        setup->has_defaults = true;
    }
    pb_world_finish(&world);
    *self_out = m;
    return PB_OK;
fail:
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, path, 0, 0, "out of memory");
    pb_world_finish(&world);
    destroy(m);
    return st;
}

static bool accepts_path(const char *path)
{
    return pb_world_is_world_file(path);
}

static const void *get_data(const void *self, const char *what)
{
    return strcmp(what, "robot") == 0 ? &((const manipulator *)self)->robot : NULL;
}

static const char *const aliases[] = {"urdf", "arm", NULL};

/* A cube around the robot's base, 1 m beyond its reach: the sum of its joints' offsets (and
 * prismatic travel) and its largest link shape (a mesh's size is its scale: the metre covers
 * it). */
static pb_status workspace(const void *self, double *lo, double *hi)
{
    const pb_robot *robot = &((const manipulator *)self)->robot;
    double reach = 1.0;
    for (size_t j = 0; j < robot->n_joints; j++) {
        const double *t = robot->joints[j].origin.t;
        reach += sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        if (robot->joints[j].type == PB_JOINT_PRISMATIC)
            reach += fmax(fabs(robot->joints[j].lower), fabs(robot->joints[j].upper));
    }
    double largest = 0.0;
    for (size_t l = 0; l < robot->n_links; l++)
        for (size_t k = 0; k < robot->links[l].n_shapes; k++) {
            const pb_shape *shape = &robot->links[l].shapes[k];
            if (shape->type != PB_SHAPE_MESH)
                largest =
                    fmax(largest, sqrt(shape->size[0] * shape->size[0] + shape->size[1] * shape->size[1] +
                                       shape->size[2] * shape->size[2]));
        }
    reach += largest;
    for (int i = 0; i < 3; i++) {
        lo[i] = -reach;
        hi[i] = reach;
    }
    return PB_OK;
}

static const char *coordinate_name(const void *self, int i)
{
    const manipulator *m = self;
    return m->robot.joints[m->joint_of[i]].name;
}

/* The links, in link order (the URDF's), each in its parent link's frame. */
static size_t frames(const void *self, const double *q, pb_frame *out, size_t max)
{
    const manipulator *m = self;
    const pb_robot *robot = &m->robot;
    if (!out || max == 0)
        return robot->n_links;
    pb_pose world[PB_MANIPULATOR_MAX_LINKS];
    manip_forward_kinematics(m, q, world);
    for (size_t l = 0; l < robot->n_links && l < max; l++) {
        const int j = robot->links[l].parent_joint;
        const int parent = j >= 0 ? robot->joints[j].parent : -1;
        out[l].name = robot->links[l].name;
        out[l].parent = parent;
        out[l].fixed = j < 0 || robot->joints[j].type == PB_JOINT_FIXED;
        if (parent < 0) {
            out[l].pose = world[l];
        } else {
            const pb_pose up = pb_pose_inverse(&world[parent]);
            out[l].pose = pb_pose_mul(&up, &world[l]);
        }
    }
    return robot->n_links;
}

static bool explain_hook(const void *self, const double *q, char *buf, size_t size)
{
    return explain(self, q, buf, size);
}

/* ik.c's search; when the pose is reached only in collision, the message says what the first
 * such configuration touches (explain() lives here). */
static pb_status inverse_kinematics(const void *self, double *solutions, size_t *n_solutions,
                                    const char *frame, const pb_pose *target, const pb_ik_config *config,
                                    pb_diag *diag)
{
    const manipulator *m = self;
    manip_ik_stats stats;
    const pb_status st =
        manip_inverse_kinematics(m, solutions, n_solutions, frame, target, config, &stats, diag);
    char why[300];
    if (st == PB_ERR_NOT_FOUND && stats.collided > 0 && diag &&
        explain(m, stats.collided_q, why, sizeof why)) {
        const size_t len = strlen(diag->message);
        snprintf(diag->message + len, sizeof diag->message - len, " (the first: %s)", why);
    }
    return st;
}

const pb_engine_impl pb_manipulator_impl = {
    .name = "manipulator",
    .aliases = aliases,
    .summary =
        "URDF robot in a world (worlds/*.xml, MotionBenchMaker flat files): joint vectors, FCL collision",
    .options_help = options_help,
    .accepts_path = accepts_path,
    .load = load,
    .destroy = destroy,
    .feasible = manip_feasible,
    .visible = manip_visible,
    .edges = "certified (default): sphere-tree and FCL clearances certify every configuration, to within "
             "edge_tolerance (0.1 mm) of motion near a contact; sampled with edge_check=interpolated",
    .explain = explain_hook,
    .get_data = get_data,
    .solid_add = manip_solid_add,
    .solid_move = manip_solid_move,
    .obstacle_remove = manip_obstacle_remove,
    .solid_check = manip_solid_check,
    .obstacle_count = manip_obstacle_count,
    .obstacles_copy = manip_obstacles_copy,
    .workspace = workspace,
    .coordinate_name = coordinate_name,
    .frames = frames,
    .inverse_kinematics = inverse_kinematics,
    .render = manip_render,
    .draw_config = manip_draw_config,
    .picture_point = manip_picture_point,
    .draw_path = manip_draw_path,
};

/* ---- private API (manipulator.h) ---- */

static manipulator *manip_of(const pb_engine *engine)
{
    return pb_engine_get_impl(engine) == &pb_manipulator_impl ? pb_engine_self(engine) : NULL;
}

const pb_robot *pb_manipulator_robot(const pb_engine *engine)
{
    const manipulator *m = manip_of(engine);
    return m ? &m->robot : NULL;
}

int pb_manipulator_joint_of(const pb_engine *engine, int i)
{
    return manip_of(engine)->joint_of[i];
}

void pb_manipulator_fk(const pb_engine *engine, const double *q, pb_pose *link_poses)
{
    manip_forward_kinematics(manip_of(engine), q, link_poses);
}

bool pb_manipulator_explain(const pb_engine *engine, const double *q, char *buf, size_t size)
{
    const manipulator *m = manip_of(engine);
    if (!m) {
        if (size)
            buf[0] = '\0';
        return false;
    }
    return explain(m, q, buf, size);
}

void pb_manipulator_sizes(const pb_engine *engine, size_t *n_robot_shapes, size_t *n_obstacles,
                          size_t *n_pairs)
{
    const manipulator *m = manip_of(engine);
    *n_robot_shapes = m->n_shapes;
    *n_obstacles = m->n_obstacles;
    *n_pairs = m->n_pairs;
}

void pb_manipulator_view_point(const pb_engine *engine, double scale, int view, const double *xyz, double *xy)
{
    manip_view_point(manip_of(engine), scale, view, xyz, xy);
}

int pb_manipulator_tool_link(const pb_engine *engine)
{
    return manip_tool_link(manip_of(engine));
}

pb_manipulator_counts pb_manipulator_get_counts(void)
{
    return (pb_manipulator_counts){.bound_queries = manip_query_counts.bound_queries,
                                   .fcl_collide = manip_query_counts.fcl_collide,
                                   .fcl_distance = manip_query_counts.fcl_distance,
                                   .ik_starts = manip_query_counts.ik_starts,
                                   .ik_steps = manip_query_counts.ik_steps,
                                   .lane_queries = manip_query_counts.lane_queries,
                                   .lanes = manip_query_counts.lanes,
                                   .lanes_clear = manip_query_counts.lanes_clear};
}
