/* The manipulator engine (issue 7): forward kinematics against poses computed by hand,
 * collision of hand-built cases (overlapping by a micron, separated by a hair, one inside the
 * other), self-collision exclusions (adjacent links, SRDF pairs), the edge check catching a
 * thin wall, every registered planner solving the project's own world with each path
 * re-checked at 10x finer resolution, and a few MotionBenchMaker Panda problems when
 * ../shared is present. */
#include "harness.h"
#include "robot/klampt.h"
#include "engines/manipulator/fcl_shim.h"
#include "engines/manipulator/manipulator.h"
#include "robot/world.h"
#include "planbench/planbench.h"

#include <string.h>
#include <unistd.h>

static char tmp_dir[] = "/tmp/pb_test_manip_XXXXXX";

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    fputs(text, fp);
    fclose(fp);
}

static pb_engine *load_options(const char *name, const pb_option *options, size_t n_options, pb_diag *diag)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    pb_engine *engine = NULL;
    memset(diag, 0, sizeof *diag);
    pb_engine_load(&engine, NULL, path, options, n_options, diag);
    return engine;
}

static pb_engine *load(const char *name, const char *option, const char *value, pb_diag *diag)
{
    const pb_option opt = {option, value};
    return load_options(name, &opt, option ? 1 : 0, diag);
}

/* The independent re-check of paths: interpolated states 0.005 rad apart (10x finer than
 * the default resolution), not the certified check the planners use. */
static const pb_option fine_options[2] = {{"edge_check", "interpolated"}, {"resolution", "0.005"}};

/* ---- forward kinematics ---- */

static const char chain_urdf[] =
    "<robot name='chain'>\n"
    "  <link name='base'/><link name='l1'/><link name='l2'/><link name='l3'/><link name='tool'/>\n"
    "  <joint name='j1' type='revolute'><parent link='base'/><child link='l1'/>\n"
    "    <origin xyz='0 0 1'/><axis xyz='0 0 1'/><limit lower='-3' upper='3'/></joint>\n"
    "  <joint name='j2' type='revolute'><parent link='l1'/><child link='l2'/>\n"
    "    <origin xyz='1 0 0'/><axis xyz='0 1 0'/><limit lower='-3' upper='3'/></joint>\n"
    "  <joint name='j3' type='prismatic'><parent link='l2'/><child link='l3'/>\n"
    "    <origin xyz='0 0 0.5'/><axis xyz='1 0 0'/><limit lower='0' upper='1'/></joint>\n"
    "  <joint name='tool_joint' type='fixed'><parent link='l3'/><child link='tool'/>\n"
    "    <origin xyz='0.2 0 0' rpy='0 0 1.5707963267948966'/></joint>\n"
    "</robot>\n";

static void check_pose(const pb_pose *p, const double *t, const double *r, const char *what)
{
    for (int i = 0; i < 3; i++)
        CHECK_MSG(fabs(p->t[i] - t[i]) < 1e-12, "%s: t[%d] = %g, expected %g", what, i, p->t[i], t[i]);
    for (int i = 0; i < 9; i++)
        CHECK_MSG(fabs(p->r[i] - r[i]) < 1e-12, "%s: r[%d] = %g, expected %g", what, i, p->r[i], r[i]);
}

static void test_fk(void)
{
    write_file("chain.urdf", chain_urdf);
    write_file("chain.xml", "<world><robot urdf='chain.urdf'/></world>");
    pb_diag diag;
    pb_engine *e = load("chain.xml", NULL, NULL, &diag);
    CHECK_MSG(e != NULL, "%s:%d: %s", diag.file, diag.line, diag.message);
    if (!e)
        return;
    CHECK(pb_engine_dim(e) == 3);
    const pb_robot *robot = pb_manipulator_robot(e);
    pb_pose poses[8];
    /* q = 0: everything translates only */
    const double zero[3] = {0, 0, 0};
    pb_manipulator_fk(e, zero, poses);
    const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    check_pose(&poses[pb_robot_find_link(robot, "l3")], (double[]){1, 0, 1.5}, id, "l3 at q=0");
    /* q = (pi/2, pi/2, 0.3), by hand (see the comments in the issue-7 notes):
     * l1 at (0,0,1) turned 90 deg about z; l2 at (0,1,1) with axes x->(0,0,-1), y->(-1,0,0),
     * z->(0,1,0); l3 = l2 + 0.3 x + 0.5 z = (0,1.5,0.7); tool = l3 + 0.2 x = (0,1.5,0.5) with
     * its frame turned 90 deg more about its z. r is row-major: column k is the image of axis k. */
    const double q[3] = {M_PI / 2, M_PI / 2, 0.3};
    pb_manipulator_fk(e, q, poses);
    check_pose(&poses[pb_robot_find_link(robot, "l1")], (double[]){0, 0, 1},
               (double[]){0, -1, 0, 1, 0, 0, 0, 0, 1}, "l1");
    const double r2[9] = {0, -1, 0, 0, 0, 1, -1, 0, 0};
    check_pose(&poses[pb_robot_find_link(robot, "l2")], (double[]){0, 1, 1}, r2, "l2");
    check_pose(&poses[pb_robot_find_link(robot, "l3")], (double[]){0, 1.5, 0.7}, r2, "l3");
    check_pose(&poses[pb_robot_find_link(robot, "tool")], (double[]){0, 1.5, 0.5},
               (double[]){-1, 0, 0, 0, 0, 1, 0, 1, 0}, "tool");
    /* bounds from the limits */
    CHECK(pb_engine_lower(e)[0] == -3 && pb_engine_upper(e)[2] == 1);
    CHECK(!pb_engine_feasible(e, (double[]){0, 0, 1.5})); /* prismatic beyond its limit */
    CHECK(pb_engine_feasible(e, (double[]){0, 0, 1.0}));  /* the limit itself is inside */
    pb_engine_destroy(e);
}

/* ---- collision of hand-built cases ---- */

static void test_shim_cases(void)
{
    const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    pbf_geometry *a = pbf_box_create(1, 1, 1), *b = pbf_box_create(1, 1, 1), *s = pbf_sphere_create(0.1);
    /* a unit cube as a mesh: 8 vertices, 12 triangles */
    const double v[24] = {-.5, -.5, -.5, .5, -.5, -.5, .5, .5, -.5, -.5, .5, -.5,
                          -.5, -.5, .5,  .5, -.5, .5,  .5, .5, .5,  -.5, .5, .5};
    const uint32_t t[36] = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                            1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};
    pbf_geometry *mesh = pbf_mesh_create(v, 8, t, 12);
    CHECK(a && b && s && mesh);
    if (!a || !b || !s || !mesh)
        return;
    const double o[3] = {0, 0, 0};
    const double overlap[3] = {1.0 - 1e-6, 0.2, 0}, hair[3] = {1.0 + 1e-4, 0.2, 0};
    CHECK(pbf_collide(a, id, o, b, id, overlap)); /* overlapping by a micron */
    CHECK(!pbf_collide(a, id, o, b, id, hair));   /* separated by a tenth of a millimetre */
    CHECK(pbf_collide(a, id, o, s, id, o));       /* a sphere inside a box */
    CHECK(pbf_collide(mesh, id, o, b, id, overlap));
    CHECK(!pbf_collide(mesh, id, o, b, id, hair));
    CHECK(pbf_collide(mesh, id, o, mesh, id, overlap));
    CHECK(!pbf_collide(mesh, id, o, mesh, id, hair));
    const double d = pbf_distance(a, id, o, b, id, hair);
    CHECK_NEAR(d, 1e-4, 1e-9);
    /* rotated 45 degrees about z, the cube reaches sqrt(2)/2 along x */
    const double c = sqrt(0.5), rz[9] = {c, -c, 0, c, c, 0, 0, 0, 1};
    const double at_corner_in[3] = {c + 0.5 - 1e-6, 0, 0}, at_corner_out[3] = {c + 0.5 + 1e-4, 0, 0};
    CHECK(pbf_collide(a, rz, o, b, id, at_corner_in));
    CHECK(!pbf_collide(a, rz, o, b, id, at_corner_out));
    CHECK(pbf_collide(mesh, rz, o, b, id, at_corner_in));
    CHECK(!pbf_collide(mesh, rz, o, b, id, at_corner_out));
    /* the broad phase gives the same answers */
    pbf_environment *env = pbf_environment_create();
    CHECK(env && pbf_environment_add(env, b, id, overlap) && pbf_environment_build(env));
    CHECK(pbf_environment_collide(env, a, id, o));
    CHECK(pbf_environment_collide(env, mesh, id, o));
    CHECK(!pbf_environment_collide(env, a, id, (double[]){-1e-4 - 1e-6, 0, 0}));
    CHECK(!pbf_environment_collide(env, mesh, id, (double[]){-2e-4, 0, 0}));
    pbf_environment_destroy(env);
    pbf_geometry_destroy(a);
    pbf_geometry_destroy(b);
    pbf_geometry_destroy(s);
    pbf_geometry_destroy(mesh);
}

/* A 1-D robot: a 0.2 m cube slid along x by a prismatic joint. */
static const char slider_urdf[] =
    "<robot name='slider'>\n"
    "  <link name='rail'/>\n"
    "  <link name='block'><collision><geometry><box size='0.2 0.2 0.2'/></geometry></collision></link>\n"
    "  <joint name='x' type='prismatic'><parent link='rail'/><child link='block'/>\n"
    "    <axis xyz='1 0 0'/><limit lower='-1' upper='2'/></joint>\n"
    "</robot>\n";

static void test_engine_cases(void)
{
    write_file("slider.urdf", slider_urdf);
    /* a 0.2 m cube obstacle centred at x = 1, and a thin 5 mm wall at x = -0.5 */
    write_file("slider.xml", "<world><robot urdf='slider.urdf'/>\n"
                             "  <box name='cube' size='0.2 0.2 0.2' xyz='1 0 0'/>\n"
                             "  <box name='wall' size='0.005 1 1' xyz='-0.5 0 0'/>\n"
                             "</world>\n");
    pb_diag diag;
    pb_engine *e = load("slider.xml", NULL, NULL, &diag);
    CHECK_MSG(e != NULL, "%s", diag.message);
    if (!e)
        return;
    CHECK(pb_engine_dim(e) == 1);
    CHECK(pb_engine_feasible(e, (double[]){0.8 - 1e-4}));  /* a hair before touching */
    CHECK(!pb_engine_feasible(e, (double[]){0.8 + 1e-6})); /* overlapping by a micron */
    CHECK(!pb_engine_feasible(e, (double[]){1.0}));        /* one inside the other */
    CHECK(pb_engine_feasible(e, (double[]){1.2 + 1e-4}));
    char why[256];
    CHECK(pb_manipulator_explain(e, (double[]){1.0}, why, sizeof why));
    CHECK_MSG(strstr(why, "'block'") && strstr(why, "'cube'"), "explanation: %s", why);
    CHECK(!pb_manipulator_explain(e, (double[]){0.0}, why, sizeof why) && why[0] == '\0');
    /* the certified edge check catches the thin wall between two free ends, and passes the
     * edge that stops 0.05 m short of it and grazes the cube by 0.1 mm... */
    CHECK(pb_engine_feasible(e, (double[]){-0.9}) && pb_engine_feasible(e, (double[]){0.5}));
    CHECK(!pb_engine_visible(e, (double[]){-0.9}, (double[]){0.5}));
    CHECK(!pb_engine_visible(e, (double[]){0.5}, (double[]){-0.9}));
    CHECK(pb_engine_visible(e, (double[]){-0.35}, (double[]){0.8 - 1e-4}));
    CHECK(!pb_engine_visible(e, (double[]){-0.35}, (double[]){0.8 + 1e-3}));
    /* ...with no prefilter too (distances alone decide) */
    pb_engine_destroy(e);
    e = load("slider.xml", "edge_prefilter", "0", &diag);
    CHECK(e && !pb_engine_visible(e, (double[]){-0.9}, (double[]){0.5}));
    CHECK(e && pb_engine_visible(e, (double[]){-0.35}, (double[]){0.8 - 1e-4}));
    pb_engine_destroy(e);
    /* the interpolated check finds the wall after few checks: the ends, the middle (-0.2),
     * then -0.55, which touches the wall */
    e = load("slider.xml", "edge_check", "interpolated", &diag);
    CHECK_MSG(e != NULL, "%s", diag.message);
    if (!e)
        return;
    pb_engine_reset_counters(e);
    CHECK(!pb_engine_visible(e, (double[]){-0.9}, (double[]){0.5}));
    CHECK_MSG(pb_engine_get_counters(e).n_edge_states == 4, "%llu states checked",
              (unsigned long long)pb_engine_get_counters(e).n_edge_states);
    CHECK(pb_engine_visible(e, (double[]){-0.35}, (double[]){0.75}));
    pb_engine_destroy(e);
    /* and at a coarse resolution it misses the wall, where the certified check does not */
    const pb_option coarse[2] = {{"edge_check", "interpolated"}, {"resolution", "1.4"}};
    e = load_options("slider.xml", coarse, 2, &diag);
    CHECK(e && pb_engine_visible(e, (double[]){-0.9}, (double[]){0.5}));
    pb_engine_destroy(e);
    /* bad option values */
    CHECK(load("slider.xml", "edge_check", "sometimes", &diag) == NULL && strstr(diag.message, "edge_check"));
    CHECK(load("slider.xml", "edge_tolerance", "0", &diag) == NULL && strstr(diag.message, "edge_tolerance"));
}

/* A 1 m bar turning about z sweeps past a 2 mm ball 0.99 m out, half-way between two
 * configurations 0.05 rad apart (the default interpolated resolution): only a sound edge
 * check sees the collision. The same ball 3.5 mm beyond the bar's reach is never touched. */
static void test_thin_contact(void)
{
    write_file("spinner.urdf",
               "<robot name='spinner'><link name='base'/>\n"
               "  <link name='bar'><collision><origin xyz='0.5 0 0'/>"
               "<geometry><box size='1 0.02 0.02'/></geometry></collision></link>\n"
               "  <joint name='turn' type='revolute'><parent link='base'/><child link='bar'/>\n"
               "    <axis xyz='0 0 1'/><limit lower='-3' upper='3'/></joint>\n"
               "</robot>\n");
    const double angle = 0.025;
    char world[512];
    snprintf(
        world, sizeof world,
        "<world><robot urdf='spinner.urdf'/><sphere name='ball' radius='0.002' xyz='%.9f %.9f 0'/></world>",
        0.99 * cos(angle), 0.99 * sin(angle));
    write_file("spinner_hit.xml", world);
    snprintf(
        world, sizeof world,
        "<world><robot urdf='spinner.urdf'/><sphere name='ball' radius='0.002' xyz='%.9f %.9f 0'/></world>",
        1.0035 * cos(angle), 1.0035 * sin(angle));
    write_file("spinner_miss.xml", world);
    pb_diag diag;
    const double a[1] = {0.0}, b[1] = {0.05}, far_a[1] = {-1.0}, far_b[1] = {1.0};
    pb_engine *e = load("spinner_hit.xml", NULL, NULL, &diag);
    CHECK_MSG(e != NULL, "%s", diag.message);
    if (e) {
        CHECK(pb_engine_feasible(e, a) && pb_engine_feasible(e, b));
        CHECK(!pb_engine_feasible(e, (double[]){angle}));
        CHECK(!pb_engine_visible(e, a, b));
        CHECK(!pb_engine_visible(e, far_b, far_a));
    }
    pb_engine_destroy(e);
    e = load("spinner_hit.xml", "edge_check", "interpolated", &diag);
    CHECK(e && pb_engine_visible(e, a, b)); /* missed: the case above is not trivial */
    pb_engine_destroy(e);
    e = load("spinner_miss.xml", NULL, NULL, &diag);
    CHECK_MSG(e != NULL, "%s", diag.message);
    if (e) {
        CHECK(pb_engine_visible(e, a, b));
        CHECK(pb_engine_visible(e, far_a, far_b));
        /* far from everything, a long edge takes few distance queries */
        pb_engine_reset_counters(e);
        CHECK(pb_engine_visible(e, (double[]){1.0}, (double[]){2.5}));
        CHECK_MSG(pb_engine_get_counters(e).n_edge_states < 20, "%llu states",
                  (unsigned long long)pb_engine_get_counters(e).n_edge_states);
    }
    pb_engine_destroy(e);
}

/* ---- self-collision exclusions ---- */

/* base (a box) -x-> carriage (a sphere inside the base) -y-> arm (a box), and hand fixed to
 * the arm 0.35 m along y. The carriage is adjacent to both neighbours; arm and hand are one
 * rigid body; base-arm and base-hand are the only pairs to check. */
static const char self_urdf[] =
    "<robot name='self'>\n"
    "  <link name='base'><collision><geometry><box size='0.4 0.4 0.4'/></geometry></collision></link>\n"
    "  <link name='carriage'><collision><geometry><sphere radius='0.1'/></geometry></collision></link>\n"
    "  <link name='arm'><collision><geometry><box size='0.2 0.2 0.2'/></geometry></collision></link>\n"
    "  <link name='hand'><collision><geometry><box size='0.2 0.2 0.2'/></geometry></collision></link>\n"
    "  <joint name='x' type='prismatic'><parent link='base'/><child link='carriage'/>\n"
    "    <axis xyz='1 0 0'/><limit lower='0' upper='2'/></joint>\n"
    "  <joint name='y' type='prismatic'><parent link='carriage'/><child link='arm'/>\n"
    "    <axis xyz='0 1 0'/><limit lower='-1' upper='2'/></joint>\n"
    "  <joint name='h' type='fixed'><parent link='arm'/><child link='hand'/><origin xyz='0 0.35 "
    "0'/></joint>\n"
    "</robot>\n";

static void test_self_collision(void)
{
    write_file("self.urdf", self_urdf);
    write_file("self.srdf",
               "<robot name='self'><group name='all'><joint name='x'/><joint name='y'/></group>\n"
               "<disable_collisions link1='base' link2='arm' reason='Never'/></robot>\n");
    write_file("self.xml", "<world><robot urdf='self.urdf' joints='x y'/></world>");
    write_file("self_srdf.xml", "<world><robot urdf='self.urdf' srdf='self.srdf' group='all'/></world>");
    pb_diag diag;
    pb_engine *e = load("self.xml", NULL, NULL, &diag);
    CHECK_MSG(e != NULL, "%s", diag.message);
    if (!e)
        return;
    size_t n_shapes, n_obstacles, n_pairs;
    pb_manipulator_sizes(e, &n_shapes, &n_obstacles, &n_pairs);
    CHECK(n_shapes == 4 && n_obstacles == 0);
    CHECK_MSG(n_pairs == 2, "%zu self pairs (base-arm, base-hand expected)", n_pairs);
    /* at (0, 0) the carriage is inside the base and the arm too: only base-arm counts */
    CHECK(!pb_engine_feasible(e, (double[]){0, 0}));
    char why[256];
    CHECK(pb_manipulator_explain(e, (double[]){0, 0}, why, sizeof why));
    CHECK_MSG(strstr(why, "'base'") && strstr(why, "'arm'"), "explanation: %s", why);
    CHECK(!pb_engine_feasible(e, (double[]){0, -0.32})); /* arm clear, hand inside the base */
    CHECK(pb_engine_feasible(e, (double[]){1, 0}));      /* moved away along x */
    CHECK(pb_engine_feasible(e, (double[]){0, 1}));      /* along y */
    pb_engine_destroy(e);
    /* with the SRDF, base-arm is disabled and base-hand still checked */
    e = load("self_srdf.xml", NULL, NULL, &diag);
    CHECK_MSG(e != NULL, "%s", diag.message);
    if (!e)
        return;
    pb_manipulator_sizes(e, &n_shapes, &n_obstacles, &n_pairs);
    CHECK(n_pairs == 1);
    CHECK(pb_engine_feasible(e, (double[]){0, 0}));
    CHECK(!pb_engine_feasible(e, (double[]){0, -0.32}));
    pb_engine_destroy(e);
}

/* ---- continuous joints ---- */

static void test_wrap(void)
{
    write_file("wheel.urdf", "<robot name='wheel'><link name='a'/><link name='b'/>"
                             "<joint name='w' type='continuous'><parent link='a'/><child link='b'/>"
                             "<axis xyz='0 0 1'/></joint></robot>");
    write_file("wheel.xml", "<world><robot urdf='wheel.urdf'/><start>3.1</start><goal>9.3</goal></world>");
    pb_diag diag;
    pb_engine *e = load("wheel.xml", NULL, NULL, &diag);
    CHECK_MSG(e != NULL, "%s", diag.message);
    if (!e)
        return;
    CHECK_NEAR(pb_engine_distance(e, (double[]){3.1}, (double[]){-3.1}), 2 * M_PI - 6.2, 1e-12);
    double start[1], goal[1];
    CHECK(pb_engine_defaults(e, start, goal));
    CHECK_NEAR(goal[0], 9.3 - 2 * M_PI, 1e-12); /* wrapped into [-pi, pi) */
    CHECK(pb_engine_feasible(e, (double[]){100.0}));
    pb_engine_destroy(e);
}

/* ---- planners ---- */

static uint64_t path_hash(const pb_path *path)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < path->n * (size_t)path->dim; i++) {
        uint64_t bits;
        memcpy(&bits, &path->q[i], sizeof bits);
        for (int k = 0; k < 8; k++) {
            h ^= (bits >> (8 * k)) & 0xff;
            h *= 1099511628211ull;
        }
    }
    return h;
}

/* Solve with `name` (and its n_params parameters) and re-check the path on `fine` (the same
 * world at 10x the resolution). */
static bool solve_and_check(pb_engine *engine, pb_engine *fine, const char *name, const pb_option *params,
                            size_t n_params, const double *start, const double *goal, double time_limit,
                            uint64_t *hash)
{
    pb_diag diag = {0};
    pb_planner *planner = NULL;
    if (pb_planner_create(&planner, name, engine, &diag) != PB_OK) {
        CHECK_MSG(false, "%s: %s", name, diag.message);
        return false;
    }
    for (size_t i = 0; i < n_params; i++)
        CHECK_MSG(pb_planner_set_param(planner, params[i].name, params[i].value, &diag) == PB_OK, "%s: %s",
                  params[i].name, diag.message);
    const int dim = pb_engine_dim(engine);
    pb_problem problem = {start, goal, 0.5};
    pb_stop_config stop = pb_stop_config_default();
    stop.time_limit_s = time_limit;
    stop.first_solution = true;
    pb_result result;
    pb_result_init(&result, dim);
    CHECK(pb_planner_solve(planner, &problem, &stop, &result) == PB_OK);
    const bool ok = result.outcome == PB_OUTCOME_EXACT;
    CHECK_MSG(ok, "%s: outcome %s after %.2f s", name, pb_outcome_str(result.outcome), result.time_s);
    if (ok) {
        CHECK_MSG(pb_path_validate(&result.path, fine, start, goal, &diag),
                  "%s: path fails at 10x resolution: %s", name, diag.message);
        CHECK(memcmp(pb_path_at(&result.path, 0), start, (size_t)dim * sizeof(double)) == 0);
        CHECK(memcmp(pb_path_at(&result.path, result.path.n - 1), goal, (size_t)dim * sizeof(double)) == 0);
        if (hash)
            *hash = path_hash(&result.path);
    }
    pb_result_finish(&result);
    pb_planner_destroy(planner);
    return ok;
}

static void test_planners_on_own_world(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/worlds/pbarm6_divider.xml", pb_test_source_root());
    pb_engine *engine = NULL, *fine = NULL;
    pb_diag diag = {0};
    CHECK_MSG(pb_engine_load(&engine, NULL, path, NULL, 0, &diag) == PB_OK, "%s", diag.message);
    CHECK(pb_engine_load(&fine, NULL, path, fine_options, 2, &diag) == PB_OK);
    if (!engine || !fine)
        return;
    CHECK(strcmp(pb_engine_name(engine), "manipulator") == 0 && pb_engine_dim(engine) == 6);
    double start[PB_MAX_DIM], goal[PB_MAX_DIM];
    CHECK(pb_engine_defaults(engine, start, goal));
    /* the straight line is blocked by the divider: the planners have work to do */
    CHECK(!pb_engine_visible(engine, start, goal));
    /* the tree planners' default step is the engine's (radians), unless an option says */
    CHECK(pb_engine_default_step(engine) == PB_MANIPULATOR_DEFAULT_STEP);
    pb_engine *stepped = NULL;
    const pb_option step_option[1] = {{"step_size", "0.8"}};
    CHECK(pb_engine_load(&stepped, NULL, path, step_option, 1, &diag) == PB_OK &&
          pb_engine_default_step(stepped) == 0.8);
    pb_engine_destroy(stepped);
    const pb_option bad_step[1] = {{"step_size", "-1"}};
    CHECK(pb_engine_load(&stepped, NULL, path, bad_step, 1, &diag) == PB_ERR_INVALID &&
          strstr(diag.message, "step_size"));
    /* every planner that runs on an arm (the car-only ones refuse it, and say why) */
    for (size_t i = 0; i < pb_planner_registry_count(); i++) {
        const pb_planner_impl *impl = pb_planner_registry_get(i);
        char why[400] = "";
        if (!pb_planner_impl_accepts(impl, engine, why, sizeof why)) {
            CHECK_MSG(strstr(why, "robot") || strstr(why, "vehicle") || strstr(why, "car"), "%s: %s",
                      pb_planner_impl_name(impl), why);
            continue;
        }
        solve_and_check(engine, fine, pb_planner_impl_name(impl), NULL, 0, start, goal, 10.0, NULL);
    }
    /* the same seed gives the same path */
    uint64_t h1 = 0, h2 = 1;
    solve_and_check(engine, fine, "rrt", NULL, 0, start, goal, 10.0, &h1);
    solve_and_check(engine, fine, "rrt", NULL, 0, start, goal, 10.0, &h2);
    CHECK(h1 == h2);
    pb_engine_destroy(engine);
    pb_engine_destroy(fine);
}

/* Issue 14: RRdT solves the manipulator world like the other planners. Ten seeds under the
 * same iteration budget as RRT-Connect; every path re-checked at ten times the resolution,
 * its cost as reported; and its median cost no worse than twice RRT's on the same seeds (it
 * was 60 against 8 when its rewiring never found a neighbour within a step). */
static void test_rrdt_seeds(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/worlds/pbarm6_divider.xml", pb_test_source_root());
    pb_engine *engine = NULL, *fine = NULL;
    pb_diag diag = {0};
    CHECK(pb_engine_load(&engine, NULL, path, NULL, 0, &diag) == PB_OK);
    CHECK(pb_engine_load(&fine, NULL, path, fine_options, 2, &diag) == PB_OK);
    if (!engine || !fine) {
        pb_engine_destroy(engine);
        pb_engine_destroy(fine);
        return;
    }
    double start[PB_MAX_DIM], goal[PB_MAX_DIM];
    pb_engine_defaults(engine, start, goal);
    const char *names[2] = {"rrdt", "birrt"};
    double costs[2][10];
    int solved[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        for (uint64_t seed = 1; seed <= 10; seed++) {
            pb_planner *planner = NULL;
            CHECK(pb_planner_create(&planner, names[k], engine, &diag) == PB_OK);
            if (!planner)
                continue;
            pb_planner_set_seed(planner, seed);
            pb_problem problem = {start, goal, 0.5};
            pb_stop_config stop = pb_stop_config_default();
            stop.max_iterations = 20000;
            stop.time_limit_s = 0; /* the budget is the iterations, not the machine's load: under the
                                    * sanitizers on two busy cores, seed 10 took 11 s */
            stop.first_solution = true;
            pb_result result;
            pb_result_init(&result, 6);
            CHECK(pb_planner_solve(planner, &problem, &stop, &result) == PB_OK);
            costs[k][seed - 1] = INFINITY;
            if (result.outcome == PB_OUTCOME_EXACT) {
                solved[k]++;
                CHECK_MSG(pb_path_validate(&result.path, fine, start, goal, &diag), "%s seed %llu: %s",
                          names[k], (unsigned long long)seed, diag.message);
                CHECK_NEAR(pb_path_length(&result.path, engine), result.cost, 1e-9 * result.cost);
                costs[k][seed - 1] = result.cost;
            }
            pb_result_finish(&result);
            pb_planner_destroy(planner);
        }
    }
    CHECK_MSG(solved[0] == 10, "rrdt solved %d of 10 seeds within 20000 iterations", solved[0]);
    /* medians */
    double median[2];
    for (int k = 0; k < 2; k++) {
        for (int i = 1; i < 10; i++)
            for (int j = i; j > 0 && costs[k][j] < costs[k][j - 1]; j--) {
                const double t = costs[k][j];
                costs[k][j] = costs[k][j - 1];
                costs[k][j - 1] = t;
            }
        median[k] = 0.5 * (costs[k][4] + costs[k][5]);
    }
    printf("pbarm6_divider, 10 seeds, 20000 iterations: rrdt %d solved, median cost %.2f; birrt %d, %.2f\n",
           solved[0], median[0], solved[1], median[1]);
    CHECK_MSG(median[0] <= 2.0 * median[1], "rrdt's median cost %.2f is over twice birrt's %.2f", median[0],
              median[1]);
    pb_engine_destroy(engine);
    pb_engine_destroy(fine);
}

static int test_mbm(void)
{
    const char *shared = pb_test_shared_root();
    char path[1024];
    snprintf(path, sizeof path, "%s/anchor-problems/vamp-mbm/panda/panda_mbm_flat.txt", shared ? shared : "");
    if (!shared || access(path, R_OK) != 0) {
        fprintf(stderr, "MotionBenchMaker problems not found: Panda part skipped\n");
        return 0;
    }
    const char *planner = pb_planner_registry_find("birrt") ? "birrt" : "rrt";
    /* the last is the hardest of the 700 for RRT-Connect as OMPL runs it (20k-116k iterations,
     * seconds); with VAMP's balanced trees and dynamic domain it takes a few thousand */
    static const char *const problems[] = {"bookshelf_small:1",  "bookshelf_tall:2", "box:3", "cage:4",
                                           "table_under_pick:5", "bookshelf_thin:89"};
    static const pb_option vamp_rrtc[] = {
        {"balance", "1"}, {"dynamic_domain", "4"}, {"dd_min_radius", "1"}, {"step_size", "2"}};
    int solved = 0;
    for (size_t i = 0; i < sizeof problems / sizeof problems[0]; i++) {
        pb_engine *engine = NULL, *fine = NULL;
        pb_diag diag = {0};
        const pb_option options[3] = {{"problem", problems[i]}, fine_options[0], fine_options[1]};
        CHECK_MSG(pb_engine_load(&engine, NULL, path, options, 1, &diag) == PB_OK, "%s: %s", problems[i],
                  diag.message);
        CHECK(pb_engine_load(&fine, NULL, path, options, 3, &diag) == PB_OK);
        if (engine && fine) {
            CHECK(pb_engine_dim(engine) == 7);
            double start[PB_MAX_DIM], goal[PB_MAX_DIM];
            CHECK(pb_engine_defaults(engine, start, goal));
            const bool vamp = i + 1 == sizeof problems / sizeof problems[0] && strcmp(planner, "birrt") == 0;
            solved +=
                solve_and_check(engine, fine, planner, vamp ? vamp_rrtc : NULL,
                                vamp ? sizeof vamp_rrtc / sizeof vamp_rrtc[0] : 0, start, goal, 10.0, NULL);
        }
        pb_engine_destroy(engine);
        pb_engine_destroy(fine);
    }
    fprintf(stderr, "MotionBenchMaker Panda: %d of %zu solved with %s\n", solved,
            sizeof problems / sizeof problems[0], planner);
    return 1;
}

/* The project's own arm world into `own`, MotionBenchMaker's Panda flat file into `mbm`; true
 * when the latter is there (../shared present). */
static bool arm_and_mbm_paths(char *own, size_t own_size, char *mbm, size_t mbm_size)
{
    const char *shared = pb_test_shared_root();
    snprintf(own, own_size, "%s/worlds/pbarm6_divider.xml", pb_test_source_root());
    snprintf(mbm, mbm_size, "%s/anchor-problems/vamp-mbm/panda/panda_mbm_flat.txt", shared ? shared : "");
    return shared && access(mbm, R_OK) == 0;
}

/* The sphere bounds that settle most queries (see the engine's "sphere bounds") never
 * change an answer: feasible() against FCL alone (pb_manipulator_explain()) at random
 * configurations and at configurations within millimetres of a contact (bisected between a
 * free and a blocked one), and the certified edge check against the interpolated one at
 * 0.005 rad on short edges between near-contact configurations. On the project's own arm
 * (boxes, cylinders, a sphere) and, when ../shared is present, on MotionBenchMaker's Panda
 * (meshes). */
static void test_sphere_bounds(void)
{
    char own[1024], mbm[1024];
    const bool have_mbm = arm_and_mbm_paths(own, sizeof own, mbm, sizeof mbm);
    if (!have_mbm)
        fprintf(stderr, "MotionBenchMaker problems not found: sphere bounds checked on the own arm only\n");
    static const char *const problems[] = {NULL, "cage:1", "bookshelf_thin:2", "table_pick:3"};
    pb_rng rng;
    pb_rng_seed(&rng, 7);
    int n_states = 0, n_near = 0, n_edges = 0, n_free_edges = 0;
    for (size_t i = 0; i < sizeof problems / sizeof problems[0]; i++) {
        if (problems[i] && !have_mbm)
            break;
        const char *path = problems[i] ? mbm : own;
        pb_engine *engine = NULL, *fine = NULL;
        pb_diag diag = {0};
        const pb_option options[3] = {{"problem", problems[i]}, fine_options[0], fine_options[1]};
        const size_t skip = problems[i] ? 0 : 1; /* the own world has no "problem" option */
        CHECK(pb_engine_load(&engine, NULL, path, options + skip, 1 - skip, &diag) == PB_OK);
        CHECK(pb_engine_load(&fine, NULL, path, options + skip, 3 - skip, &diag) == PB_OK);
        if (!engine || !fine) {
            pb_engine_destroy(engine);
            pb_engine_destroy(fine);
            continue;
        }
        const int dim = pb_engine_dim(engine);
        const double *lo = pb_engine_lower(engine), *hi = pb_engine_upper(engine);
        double start[PB_MAX_DIM], goal[PB_MAX_DIM], near_prev[PB_MAX_DIM];
        pb_engine_defaults(engine, start, goal);
        bool have_prev = false;
        for (int k = 0; k < 400; k++) {
            double q[PB_MAX_DIM], free_q[PB_MAX_DIM];
            char why[400];
            for (int j = 0; j < dim; j++)
                q[j] = lo[j] + (hi[j] - lo[j]) * pb_rng_uniform(&rng);
            const bool feasible = pb_engine_feasible(engine, q);
            CHECK_MSG(feasible == !pb_manipulator_explain(engine, q, why, sizeof why),
                      "%s: feasible() %d but FCL says '%s'", path, feasible, why);
            n_states++;
            if (feasible)
                continue;
            /* bisect towards the start (free) to within about 1e-4 rad of the contact */
            memcpy(free_q, start, sizeof free_q);
            for (int step = 0; step < 16; step++) {
                double mid[PB_MAX_DIM];
                for (int j = 0; j < dim; j++)
                    mid[j] = 0.5 * (free_q[j] + q[j]);
                const bool f = pb_engine_feasible(engine, mid);
                CHECK_MSG(f == !pb_manipulator_explain(engine, mid, why, sizeof why),
                          "%s: near a contact, feasible() %d but FCL says '%s'", path, f, why);
                memcpy(f ? free_q : q, mid, sizeof mid);
                n_near++;
            }
            /* a short edge from the last near-contact configuration to this one */
            if (have_prev) {
                double delta = 0.0;
                for (int j = 0; j < dim; j++)
                    delta = fmax(delta, fabs(free_q[j] - near_prev[j]));
                double b[PB_MAX_DIM];
                const double scale = delta > 0.3 ? 0.3 / delta : 1.0;
                for (int j = 0; j < dim; j++)
                    b[j] = near_prev[j] + scale * (free_q[j] - near_prev[j]);
                if (pb_engine_visible(engine, near_prev, b)) {
                    CHECK_MSG(pb_engine_visible(fine, near_prev, b),
                              "%s: an edge certified free is blocked at 0.005 rad", path);
                    n_free_edges++;
                }
                n_edges++;
            }
            memcpy(near_prev, free_q, sizeof near_prev);
            have_prev = true;
        }
        pb_engine_destroy(engine);
        pb_engine_destroy(fine);
    }
    fprintf(stderr, "sphere bounds: %d random and %d near-contact configurations, %d edges (%d free) agree\n",
            n_states, n_near, n_edges, n_free_edges);
}

/* The float sphere stage (lanes.c, issue 21) changes no answer, and its two builds agree bit
 * for bit: engines loaded with sphere_lanes=off, portable and avx2 (when the CPU has it) give
 * the same feasible() at random and near-contact configurations and the same certified edge
 * checks (answer and states visited) on short edges between near-contact configurations;
 * portable and avx2 settle exactly the same lanes. The stage must settle some lanes (or it
 * tests nothing), and feasible() still agrees with FCL alone. */
static void test_sphere_lanes(void)
{
    char own[1024], mbm[1024];
    const bool have_mbm = arm_and_mbm_paths(own, sizeof own, mbm, sizeof mbm);
    const bool have_avx2 = __builtin_cpu_supports("avx2");
    if (!have_avx2)
        fprintf(stderr, "sphere lanes: this CPU has no AVX2, only the portable build is compared\n");
    static const char *const problems[] = {NULL, "cage:7", "box:11", "table_pick:5"};
    static const char *const modes[] = {"off", "portable", "avx2"};
    const int n_modes = have_avx2 ? 3 : 2;
    pb_rng rng;
    pb_rng_seed(&rng, 11);
    uint64_t settled[3] = {0, 0, 0}, asked[3] = {0, 0, 0};
    int n_states = 0, n_edges = 0;
    for (size_t i = 0; i < sizeof problems / sizeof problems[0]; i++) {
        if (problems[i] && !have_mbm)
            break;
        pb_engine *engines[3] = {NULL, NULL, NULL};
        bool loaded = true;
        for (int e = 0; e < n_modes; e++) {
            const pb_option options[2] = {{"sphere_lanes", modes[e]}, {"problem", problems[i]}};
            pb_diag diag = {0};
            const pb_status st = pb_engine_load(&engines[e], NULL, problems[i] ? mbm : own, options,
                                                problems[i] ? 2 : 1, &diag);
            CHECK_MSG(st == PB_OK, "sphere_lanes=%s: %s", modes[e], diag.message);
            loaded = loaded && st == PB_OK;
        }
        if (!loaded) {
            for (int e = 0; e < n_modes; e++)
                pb_engine_destroy(engines[e]);
            continue;
        }
        const int dim = pb_engine_dim(engines[0]);
        const double *lo = pb_engine_lower(engines[0]), *hi = pb_engine_upper(engines[0]);
        double start[PB_MAX_DIM], goal[PB_MAX_DIM], prev[PB_MAX_DIM];
        pb_engine_defaults(engines[0], start, goal);
        bool have_prev = false;
        for (int k = 0; k < 150; k++) {
            double q[PB_MAX_DIM], free_q[PB_MAX_DIM];
            for (int j = 0; j < dim; j++)
                q[j] = lo[j] + (hi[j] - lo[j]) * pb_rng_uniform(&rng);
            memcpy(free_q, start, sizeof free_q);
            /* q, then 14 bisection steps towards the start: the last ones within 1e-3 rad of a
             * contact when q collides */
            for (int step = 0; step < 15; step++) {
                double mid[PB_MAX_DIM];
                for (int j = 0; j < dim; j++)
                    mid[j] = step == 0 ? q[j] : 0.5 * (free_q[j] + q[j]);
                bool answer[3];
                uint64_t lanes[3], clear[3];
                for (int e = 0; e < n_modes; e++) {
                    const pb_manipulator_counts before = pb_manipulator_get_counts();
                    answer[e] = pb_engine_feasible(engines[e], mid);
                    const pb_manipulator_counts after = pb_manipulator_get_counts();
                    lanes[e] = after.lanes - before.lanes;
                    clear[e] = after.lanes_clear - before.lanes_clear;
                    asked[e] += lanes[e];
                    settled[e] += clear[e];
                }
                char why[400];
                CHECK_MSG(answer[0] == !pb_manipulator_explain(engines[0], mid, why, sizeof why),
                          "feasible() %d but FCL says '%s'", answer[0], why);
                for (int e = 1; e < n_modes; e++)
                    CHECK_MSG(answer[e] == answer[0], "%s: feasible() %d with sphere_lanes=%s, %d without",
                              problems[i] ? problems[i] : own, answer[e], modes[e], answer[0]);
                if (n_modes == 3)
                    CHECK_MSG(lanes[1] == lanes[2] && clear[1] == clear[2],
                              "portable settled %llu of %llu lanes, avx2 %llu of %llu",
                              (unsigned long long)clear[1], (unsigned long long)lanes[1],
                              (unsigned long long)clear[2], (unsigned long long)lanes[2]);
                n_states++;
                if (step > 0)
                    memcpy(answer[0] ? free_q : q, mid, sizeof mid);
                else if (answer[0])
                    break;
            }
            if (have_prev) {
                double b[PB_MAX_DIM], delta = 0.0;
                for (int j = 0; j < dim; j++)
                    delta = fmax(delta, fabs(free_q[j] - prev[j]));
                const double scale = delta > 0.5 ? 0.5 / delta : 1.0;
                for (int j = 0; j < dim; j++)
                    b[j] = prev[j] + scale * (free_q[j] - prev[j]);
                bool answer[3];
                uint64_t states[3];
                for (int e = 0; e < n_modes; e++) {
                    const pb_engine_counters before = pb_engine_get_counters(engines[e]);
                    answer[e] = pb_engine_visible(engines[e], prev, b);
                    states[e] = pb_engine_get_counters(engines[e]).n_edge_states - before.n_edge_states;
                }
                for (int e = 1; e < n_modes; e++)
                    CHECK_MSG(
                        answer[e] == answer[0] && states[e] == states[0],
                        "edge: visible() %d after %llu states with sphere_lanes=%s, %d after %llu without",
                        answer[e], (unsigned long long)states[e], modes[e], answer[0],
                        (unsigned long long)states[0]);
                n_edges++;
            }
            memcpy(prev, free_q, sizeof prev);
            have_prev = true;
        }
        for (int e = 0; e < n_modes; e++)
            pb_engine_destroy(engines[e]);
    }
    CHECK(asked[0] == 0 && settled[1] > 0);
    CHECK_MSG(settled[1] > asked[1] / 4, "the float stage settled only %llu of %llu lanes",
              (unsigned long long)settled[1], (unsigned long long)asked[1]);
    fprintf(stderr, "sphere lanes: %d configurations, %d edges agree; %llu of %llu lanes settled%s\n",
            n_states, n_edges, (unsigned long long)settled[1], (unsigned long long)asked[1],
            n_modes == 3 ? " (portable and avx2 alike)" : "");

    /* bad values get a message naming the option */
    pb_engine *engine = NULL;
    pb_diag diag = {0};
    const pb_option bad = {"sphere_lanes", "sse9"};
    CHECK(pb_engine_load(&engine, NULL, own, &bad, 1, &diag) == PB_ERR_INVALID && !engine);
    CHECK_MSG(strstr(diag.message, "auto, avx2, portable or off") != NULL, "message: %s", diag.message);
}

/* The MotionBenchMaker problems in their original YAML (5 per scenario in
 * problems_subset/) against the same problems of the flat file: same joints, start, goal and
 * obstacles (matched by name; the flat file has 9 significant digits). */
static void test_mbm_yaml(void)
{
#if PB_HAVE_YAML
    /* bad input: a scene without its request, an unknown primitive */
    write_file("scene0007.yaml", "robot_model_name: chain\nworld:\n  collision_objects:\n"
                                 "    - id: blob\n      primitives:\n        - type: cone\n"
                                 "          dimensions: [1, 1]\n      primitive_poses:\n"
                                 "        - position: [0, 0, 0]\n          orientation: [0, 0, 0, 1]\n");
    pb_world bad;
    pb_diag bad_diag = {0};
    char bad_path[600];
    snprintf(bad_path, sizeof bad_path, "%s/scene0007.yaml", tmp_dir);
    CHECK(pb_world_load(&bad, bad_path, NULL, &bad_diag) != PB_OK);
    CHECK_MSG(strstr(bad_diag.file, "request0007.yaml"), "%s: %s", bad_diag.file, bad_diag.message);
    write_file("request0007.yaml", "goal_constraints:\n  - joint_constraints:\n"
                                   "      - joint_name: j1\n        position: 1\n"
                                   "start_state:\n  joint_state:\n    name: [j1]\n    position: [0]\n");
    CHECK(pb_world_load(&bad, bad_path, NULL, &bad_diag) != PB_OK);
    CHECK_MSG(strstr(bad_diag.message, "cone") && bad_diag.line == 6, "%d: %s", bad_diag.line,
              bad_diag.message);
    /* issue 15: aliases that name one primitive 1000 times in an object named 200 times
     * (a few kilobytes, 200,000 obstacles): refused at the bound, at once */
    {
        char *text = malloc(64 * 1024);
        size_t n = (size_t)snprintf(text, 64 * 1024,
                                    "robot_model_name: chain\nworld:\n  collision_objects:\n"
                                    "    - &o\n      id: bomb\n      primitives:\n        - &p\n"
                                    "          type: box\n          dimensions: [0.1, 0.1, 0.1]\n");
        for (int k = 1; k < 1000; k++)
            n += (size_t)snprintf(text + n, 64 * 1024 - n, "        - *p\n");
        n += (size_t)snprintf(text + n, 64 * 1024 - n,
                              "      primitive_poses:\n        - &q\n"
                              "          position: [0, 0, 0]\n"
                              "          orientation: [0, 0, 0, 1]\n");
        for (int k = 1; k < 1000; k++)
            n += (size_t)snprintf(text + n, 64 * 1024 - n, "        - *q\n");
        for (int k = 1; k < 200; k++)
            n += (size_t)snprintf(text + n, 64 * 1024 - n, "    - *o\n");
        write_file("scene0007.yaml", text);
        free(text);
        const double t0 = pb_clock_seconds();
        CHECK(pb_world_load(&bad, bad_path, NULL, &bad_diag) != PB_OK);
        CHECK_MSG(strstr(bad_diag.message, "more than 100000 obstacles"), "%s", bad_diag.message);
        CHECK(pb_clock_seconds() - t0 < 2.0);
    }
    const char *shared = pb_test_shared_root();
    char flat[1024];
    snprintf(flat, sizeof flat, "%s/anchor-problems/vamp-mbm/panda/panda_mbm_flat.txt", shared ? shared : "");
    if (!shared || access(flat, R_OK) != 0) {
        fprintf(stderr, "MotionBenchMaker YAML problems not found: skipped\n");
        return;
    }
    static const char *const scenarios[] = {
        "bookshelf_small", "bookshelf_tall",  "bookshelf_thin", "box", "cage",
        "table_pick",      "table_under_pick"};
    int compared = 0;
    for (size_t sc = 0; sc < sizeof scenarios / sizeof scenarios[0]; sc++) {
        for (int i = 1; i <= 5; i++) {
            char yaml[1200], problem[64];
            snprintf(yaml, sizeof yaml,
                     "%s/anchor-problems/vamp-mbm/panda/problems_subset/%s_panda/scene%04d.yaml", shared,
                     scenarios[sc], i);
            snprintf(problem, sizeof problem, "%s:%d", scenarios[sc], i);
            if (access(yaml, R_OK) != 0)
                continue;
            pb_world a, b;
            pb_diag diag = {0};
            const bool ok_a = pb_world_load(&a, yaml, NULL, &diag) == PB_OK;
            CHECK_MSG(ok_a, "%s: %s:%d: %s", problem, diag.file, diag.line, diag.message);
            const bool ok_b = pb_world_load(&b, flat, problem, &diag) == PB_OK;
            CHECK_MSG(ok_b, "%s: %s", problem, diag.message);
            if (ok_a && ok_b) {
                compared++;
                CHECK(a.n_joints == b.n_joints && a.n_start == b.n_start && a.n_goal == b.n_goal);
                for (size_t j = 0; j < a.n_joints && j < b.n_joints; j++)
                    CHECK_MSG(strcmp(a.joints[j], b.joints[j]) == 0, "%s: joint %s vs %s", problem,
                              a.joints[j], b.joints[j]);
                for (int j = 0; j < a.n_start && j < b.n_start; j++) {
                    CHECK_NEAR(a.start[j], b.start[j], 1e-6);
                    CHECK_NEAR(a.goal[j], b.goal[j], 1e-6);
                }
                CHECK_MSG(a.n_obstacles == b.n_obstacles, "%s: %zu vs %zu obstacles", problem, a.n_obstacles,
                          b.n_obstacles);
                for (size_t o = 0; o < a.n_obstacles; o++) {
                    size_t k = 0;
                    while (k < b.n_obstacles && strcmp(a.obstacle_names[o], b.obstacle_names[k]) != 0)
                        k++;
                    CHECK_MSG(k < b.n_obstacles, "%s: no obstacle '%s' in the flat file", problem,
                              a.obstacle_names[o]);
                    if (k == b.n_obstacles)
                        continue;
                    const pb_shape *x = &a.obstacles[o], *y = &b.obstacles[k];
                    CHECK(x->type == y->type);
                    for (int c = 0; c < 3; c++) {
                        CHECK_NEAR(x->size[c], y->size[c], 1e-6);
                        CHECK_NEAR(x->origin.t[c], y->origin.t[c], 1e-6);
                    }
                    for (int c = 0; c < 9; c++)
                        CHECK_NEAR(x->origin.r[c], y->origin.r[c], 1e-6);
                }
            }
            if (ok_a)
                pb_world_finish(&a);
            if (ok_b)
                pb_world_finish(&b);
        }
    }
    fprintf(stderr, "MotionBenchMaker YAML: %d problems match the flat file\n", compared);
    CHECK(compared > 0);
#endif
}

/* A small Klampt world: a .rob robot (welded base, two revolute links, TParent rotations
 * row by row, a parents line after the TParent it sizes), an .off terrain and a rigid
 * object, with poses computed by hand. */
/* Issue 15: one encoding rule for the .rob and URDF readers: a link name that is not UTF-8
 * is refused by the .rob reader with a message, as the URDF reader would refuse it (the URDF
 * fuzzer aborted on such a robot). */
static void test_klampt_utf8(void)
{
    static const char rob[] = "TParent 1 0 0 0 1 0 0 0 1 0 0 0 \\\n  0 1 0 -1 0 0 0 0 1 0 0 0.5\n"
                              "parents -1 0\naxis 0 0 1 0 0 1\nqMin 0 -3\nqMax 0 3\nlinks \"base\" \"\xff\xfe"
                              "arm\"\n";
    pb_klampt_robot robot;
    pb_diag diag = {0};
    CHECK(pb_klampt_robot_load_memory(&robot, rob, sizeof rob - 1, "utf8.rob", tmp_dir, &diag) != PB_OK);
    CHECK_MSG(strstr(diag.message, "not valid UTF-8"), "%s", diag.message);
    static const char good[] =
        "TParent 1 0 0 0 1 0 0 0 1 0 0 0 \\\n  0 1 0 -1 0 0 0 0 1 0 0 0.5\n"
        "parents -1 0\naxis 0 0 1 0 0 1\nqMin 0 -3\nqMax 0 3\nlinks \"base\" \"\xc3\xa9paule\"\n";
    memset(&diag, 0, sizeof diag);
    CHECK_MSG(pb_klampt_robot_load_memory(&robot, good, sizeof good - 1, "utf8.rob", tmp_dir, &diag) == PB_OK,
              "%s", diag.message);
    pb_klampt_robot_finish(&robot);
}

static void test_klampt_small(void)
{
    write_file("cube.off", "OFF\n8 12 0\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n"
                           "3 0 2 1\n3 0 3 2\n3 4 5 6\n3 4 6 7\n3 0 1 5\n3 0 5 4\n"
                           "3 1 2 6\n3 1 6 5\n3 2 3 7\n3 2 7 6\n3 3 0 4\n3 3 4 7\n");
    write_file("two.rob", "# two links on a welded base\n"
                          "TParent 1 0 0 0 1 0 0 0 1 0 0 0 \\\n"
                          "  0 1 0 -1 0 0 0 0 1 0 0 0.5 \\\n"
                          "  1 0 0 0 1 0 0 0 1 1 0 0 \\\n"
                          "parents -1 0 1\naxis 0 0 1 0 0 1 0 0 1\nqMin 0 -3 -3\nqMaxDeg 0 170 170\n"
                          "geometry \"\" \"\" \"cube.off\"\ngeomscale 1 1 0.1\nmass 1 1 1\n");
    write_file("block.obj", "mesh \"cube.off\"\ngeomscale 0.1\ngeomtranslate -0.05 -0.05 -0.05\n");
    write_file("klampt.xml",
               "<world><robot name='two' file='two.rob'/>\n"
               "<terrain file='cube.off' scale='0.2 0.2 0.2' translation='0.9 -0.1 0.45'/>\n"
               "<rigidObject name='block' file='block.obj' position='0 -1 1'><display/></rigidObject>\n"
               "<target position='0 0 0'/></world>\n");
    pb_diag diag;
    pb_engine *e = load("klampt.xml", NULL, NULL, &diag);
    CHECK_MSG(e != NULL, "%s:%d: %s", diag.file, diag.line, diag.message);
    if (!e)
        return;
    CHECK(pb_engine_dim(e) == 2);
    CHECK_NEAR(pb_engine_upper(e)[0], 170 * M_PI / 180, 1e-12);
    size_t n_shapes, n_obstacles, n_pairs;
    pb_manipulator_sizes(e, &n_shapes, &n_obstacles, &n_pairs);
    CHECK(n_shapes == 1 && n_obstacles == 2);
    const pb_robot *robot = pb_manipulator_robot(e);
    const int l2 = pb_robot_find_link(robot, "link2");
    CHECK(l2 >= 0);
    pb_pose poses[8];
    /* link 1 is turned -90 degrees about z: link 2 sits at (0, -1, 0.5); a quarter turn of
     * joint 1 brings it to (1, 0, 0.5), inside the terrain cube */
    pb_manipulator_fk(e, (double[]){0, 0}, poses);
    if (l2 >= 0)
        check_pose(&poses[l2], (double[]){0, -1, 0.5}, (double[]){0, 1, 0, -1, 0, 0, 0, 0, 1},
                   "klampt link2");
    pb_manipulator_fk(e, (double[]){M_PI / 2, 0}, poses);
    if (l2 >= 0)
        CHECK(fabs(poses[l2].t[0] - 1) < 1e-12 && fabs(poses[l2].t[1]) < 1e-12);
    CHECK(pb_engine_feasible(e, (double[]){0, 0}));
    CHECK(!pb_engine_feasible(e, (double[]){M_PI / 2, 0}));
    char why[256];
    CHECK(pb_manipulator_explain(e, (double[]){M_PI / 2, 0}, why, sizeof why));
    CHECK_MSG(strstr(why, "'link2'") && strstr(why, "terrain"), "explanation: %s", why);
    /* an edge into the terrain is blocked, one turning the other way is free (the block
     * centred at (0, -1, 1) is above the arm's reach) */
    CHECK(!pb_engine_visible(e, (double[]){0, 0}, (double[]){M_PI / 2, 0}));
    CHECK(pb_engine_visible(e, (double[]){0, 0}, (double[]){-M_PI / 2, 0}));
    pb_engine_destroy(e);
    /* bad input names the file and the reason */
    write_file("bad.rob", "parents -1 0\nTParent 1 0 0 0 1 0 0 0 1 0 0 0\naxis 0 0 1 0 0 1\n");
    write_file("bad.xml", "<world><robot file='bad.rob'/></world>");
    CHECK(load("bad.xml", NULL, NULL, &diag) == NULL);
    CHECK_MSG(strstr(diag.message, "bad.rob") && strstr(diag.message, "TParent"), "%s", diag.message);
}

/* The Klampt TX90 world sbp-env plans in: a .rob robot (the TX90L arm with a PR2 gripper
 * mounted on it), .off terrains and Klampt rigid objects. */
static void test_klampt_tx90(void)
{
    const char *shared = pb_test_shared_root();
    char path[1024];
    snprintf(path, sizeof path, "%s/anchor-problems/klampt-tx90/data/tx90blocks.xml", shared ? shared : "");
    if (!shared || access(path, R_OK) != 0) {
        fprintf(stderr, "Klampt TX90 world not found: skipped\n");
        return;
    }
    pb_engine *engine = NULL, *fine = NULL;
    pb_diag diag = {0};
    CHECK_MSG(pb_engine_load(&engine, NULL, path, NULL, 0, &diag) == PB_OK, "%s:%d: %s", diag.file, diag.line,
              diag.message);
    CHECK(pb_engine_load(&fine, NULL, path, fine_options, 2, &diag) == PB_OK);
    if (!engine || !fine) {
        pb_engine_destroy(engine);
        pb_engine_destroy(fine);
        return;
    }
    /* 7 arm links + 5 gripper links + the world link; the 6 arm joints are planned for */
    const pb_robot *robot = pb_manipulator_robot(engine);
    CHECK(pb_engine_dim(engine) == 6);
    CHECK_MSG(robot->n_links == 13, "%zu links", robot->n_links);
    size_t n_shapes, n_obstacles, n_pairs;
    pb_manipulator_sizes(engine, &n_shapes, &n_obstacles, &n_pairs);
    CHECK_MSG(n_shapes == 11 && n_obstacles == 11, "%zu shapes, %zu obstacles", n_shapes, n_obstacles);
    /* limits from qMinDeg/qMaxDeg of links 1-6 */
    CHECK_NEAR(pb_engine_lower(engine)[1], -147.5 * M_PI / 180, 1e-12);
    CHECK_NEAR(pb_engine_upper(engine)[4], 115 * M_PI / 180, 1e-12);
    /* at q = 0 the arm stands straight up: by TParent, link 3 is 0.242 + 0.23 + 0.5 m up and
     * link 5 another 0.156 + 0.3952 m; joint 2 (about link 2's z, horizontal) tips it over */
    const double zero[6] = {0, 0, 0, 0, 0, 0};
    pb_pose poses[16];
    pb_manipulator_fk(engine, zero, poses);
    const int l3 = pb_robot_find_link(robot, "link3"), l5 = pb_robot_find_link(robot, "link5");
    CHECK(l3 >= 0 && l5 >= 0);
    if (l3 >= 0 && l5 >= 0) {
        CHECK_NEAR(poses[l3].t[2], 0.972, 1e-9);
        CHECK_NEAR(poses[l5].t[2], 1.5232, 1e-9);
        pb_manipulator_fk(engine, (double[]){0, M_PI / 2, 0, 0, 0, 0}, poses);
        CHECK_NEAR(poses[l3].t[2], 0.472, 1e-3); /* 0.1 mm offsets in TParent */
    }
    /* a plan from the upright arm down beside the table; the straight line is blocked */
    const double goal[6] = {-2.0, 1.2, 1.0, 0, 0.5, 0};
    CHECK(pb_engine_feasible(engine, zero) && pb_engine_feasible(engine, goal));
    CHECK(!pb_engine_visible(engine, zero, goal));
    solve_and_check(engine, fine, "rrt", NULL, 0, zero, goal, 20.0, NULL);
    pb_engine_destroy(engine);
    pb_engine_destroy(fine);
}

int main(void)
{
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_fk();
    test_shim_cases();
    test_engine_cases();
    test_thin_contact();
    test_self_collision();
    test_wrap();
    test_planners_on_own_world();
    test_rrdt_seeds();
    test_mbm();
    test_sphere_bounds();
    test_sphere_lanes();
    test_mbm_yaml();
    test_klampt_small();
    test_klampt_utf8();
    test_klampt_tx90();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp_dir);
    return pb_test_summary("manipulator");
}
