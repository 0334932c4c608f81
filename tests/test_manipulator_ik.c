/* Inverse kinematics of the manipulator engine (issue 17): for random collision-free
 * configurations of the project's arm (worlds/pbarm6_divider.xml), the tool pose by forward
 * kinematics is asked of pb_engine_inverse_kinematics(), and every solution is checked here,
 * independently of the engine's search: its tool pose by forward kinematics within the
 * tolerances (the angle from the trace, not the search's rotation vector), within the joint
 * limits, feasible, apart from the others and sorted by distance from the reference. Then a
 * hand-made robot with a prismatic joint, a mimic joint and a continuous joint; poses out of
 * reach and poses reached only in collision fail with a clear message; the same seed gives the
 * same answer; bad input is refused; the tool frame is the SRDF's end effector. */
#include "harness.h"
#include "engines/manipulator/manipulator.h"
#include "planbench/planbench.h"

#include <string.h>

static pb_engine *load_world(const char *path)
{
    pb_engine *engine = NULL;
    pb_diag diag = {0};
    CHECK_MSG(pb_engine_load(&engine, NULL, path, NULL, 0, &diag) == PB_OK, "%s: %s", path, diag.message);
    return engine;
}

static pb_engine *load_arm(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/worlds/pbarm6_divider.xml", pb_test_source_root());
    return load_world(path);
}

/* Position error (metres) and rotation angle (radians) between link `link` at q and `target`,
 * from forward kinematics; the angle from the trace of R_target^T R. */
static void pose_errors(pb_engine *engine, int link, const double *q, const pb_pose *target, double *position,
                        double *angle)
{
    pb_pose poses[PB_MANIPULATOR_MAX_LINKS];
    pb_manipulator_fk(engine, q, poses);
    const pb_pose *p = &poses[link];
    double d2 = 0.0, trace = 0.0;
    for (int i = 0; i < 3; i++) {
        d2 += (p->t[i] - target->t[i]) * (p->t[i] - target->t[i]);
        for (int k = 0; k < 3; k++)
            trace += target->r[3 * k + i] * p->r[3 * k + i];
    }
    *position = sqrt(d2);
    *angle = acos(fmax(-1.0, fmin(1.0, 0.5 * (trace - 1.0))));
}

/* Every solution of an answer checked independently: at the target within the tolerances
 * (acos near 0 loses digits: 1e-6 rad of slack), inside the bounds, feasible, apart, sorted. */
static void check_solutions(pb_engine *engine, int link, const double *solutions, size_t n,
                            const pb_pose *target, const pb_ik_config *config, const double *reference)
{
    const int dim = pb_engine_dim(engine);
    const double *lo = pb_engine_lower(engine), *hi = pb_engine_upper(engine);
    for (size_t k = 0; k < n; k++) {
        const double *q = solutions + k * (size_t)dim;
        double position, angle;
        pose_errors(engine, link, q, target, &position, &angle);
        CHECK_MSG(position <= config->position_tolerance, "solution %zu is %g m from the target", k,
                  position);
        CHECK_MSG(angle <= config->orientation_tolerance + 1e-6, "solution %zu is %g rad from the target", k,
                  angle);
        for (int i = 0; i < dim; i++)
            CHECK_MSG(q[i] >= lo[i] && q[i] <= hi[i], "solution %zu: coordinate %d = %g outside [%g, %g]", k,
                      i, q[i], lo[i], hi[i]);
        char why[256];
        CHECK_MSG(pb_engine_feasible(engine, q), "solution %zu is infeasible: %s", k,
                  (pb_engine_explain(engine, q, why, sizeof why), why));
        for (size_t j = 0; j < k; j++)
            CHECK(pb_engine_distance(engine, q, solutions + j * (size_t)dim) >= config->min_separation);
        if (k > 0)
            CHECK(pb_engine_distance(engine, reference, solutions + (k - 1) * (size_t)dim) <=
                  pb_engine_distance(engine, reference, q));
    }
}

/* A random feasible configuration (within the bounds). */
static void feasible_sample(pb_engine *engine, pb_rng *rng, double *q)
{
    do
        pb_engine_sample(engine, rng, q);
    while (!pb_engine_feasible(engine, q));
}

static void test_round_trips(void)
{
    pb_engine *engine = load_arm();
    if (!engine)
        return;
    const pb_robot *robot = pb_manipulator_robot(engine);
    const int tool = pb_manipulator_tool_link(engine);
    CHECK_MSG(strcmp(robot->links[tool].name, "tool") == 0, "the tool frame is '%s'",
              robot->links[tool].name);
    double start[PB_MAX_DIM], goal[PB_MAX_DIM];
    CHECK(pb_engine_defaults(engine, start, goal));
    pb_ik_config config = pb_ik_config_default();
    config.reference = start;
    pb_rng rng;
    pb_rng_seed(&rng, 17);
    const int cases = 40;
    int solved = 0, several = 0;
    size_t total = 0;
    for (int c = 0; c < cases; c++) {
        double q[PB_MAX_DIM], solutions[8 * PB_MAX_DIM];
        feasible_sample(engine, &rng, q);
        pb_pose poses[PB_MANIPULATOR_MAX_LINKS];
        pb_manipulator_fk(engine, q, poses);
        const pb_pose target = poses[tool];
        size_t n = 99;
        pb_diag diag = {0};
        config.seed = (uint64_t)c + 1;
        /* the default frame ("" and NULL) and the tool named */
        const char *frame = c % 3 == 0 ? NULL : c % 3 == 1 ? "" : "tool";
        const pb_status st =
            pb_engine_inverse_kinematics(solutions, &n, engine, frame, &target, &config, &diag);
        CHECK_MSG(st == PB_OK && n >= 1 && n <= config.max_solutions, "case %d: %s", c, diag.message);
        if (st != PB_OK)
            continue;
        solved++;
        several += n > 1;
        total += n;
        check_solutions(engine, tool, solutions, n, &target, &config, start);
    }
    fprintf(stderr, "pbarm6: %d of %d poses solved, %zu solutions (%d with more than one)\n", solved, cases,
            total, several);
    CHECK(solved == cases);
    CHECK(several > cases / 2); /* a 6-joint arm reaches most poses in several ways */

    /* another link as the frame: the wrist */
    double q[PB_MAX_DIM], solutions[4 * PB_MAX_DIM];
    feasible_sample(engine, &rng, q);
    pb_pose poses[PB_MANIPULATOR_MAX_LINKS];
    pb_manipulator_fk(engine, q, poses);
    const int wrist = pb_robot_find_link(robot, "wrist2");
    size_t n = 0;
    pb_diag diag = {0};
    CHECK_MSG(pb_engine_inverse_kinematics(solutions, &n, engine, "wrist2", &poses[wrist], &config, &diag) ==
                  PB_OK,
              "%s", diag.message);
    check_solutions(engine, wrist, solutions, n, &poses[wrist], &config, start);

    /* one solution, tight tolerances, no reference (the middle of the bounds) */
    pb_ik_config tight = pb_ik_config_default();
    tight.position_tolerance = 1e-9;
    tight.orientation_tolerance = 1e-9;
    tight.max_solutions = 1;
    pb_manipulator_fk(engine, goal, poses);
    CHECK_MSG(pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &poses[tool], &tight, &diag) ==
                      PB_OK &&
                  n == 1,
              "%s", diag.message);
    const double middle[6] = {0};
    check_solutions(engine, tool, solutions, n, &poses[tool], &tight, middle);
    pb_engine_destroy(engine);
}

/* The same query twice gives the same bytes; another seed may not, but is as good. */
static void test_determinism(void)
{
    pb_engine *engine = load_arm();
    if (!engine)
        return;
    const int tool = pb_manipulator_tool_link(engine);
    double start[PB_MAX_DIM], goal[PB_MAX_DIM];
    CHECK(pb_engine_defaults(engine, start, goal));
    pb_pose poses[PB_MANIPULATOR_MAX_LINKS];
    pb_manipulator_fk(engine, goal, poses);
    pb_ik_config config = pb_ik_config_default();
    config.reference = start;
    config.seed = 42;
    config.max_solutions = 6;
    double a[6 * PB_MAX_DIM], b[6 * PB_MAX_DIM];
    memset(a, 0, sizeof a);
    memset(b, 0xff, sizeof b);
    size_t na = 0, nb = 0;
    CHECK(pb_engine_inverse_kinematics(a, &na, engine, NULL, &poses[tool], &config, NULL) == PB_OK);
    CHECK(pb_engine_inverse_kinematics(b, &nb, engine, NULL, &poses[tool], &config, NULL) == PB_OK);
    CHECK(na == nb && na >= 1 && memcmp(a, b, na * 6 * sizeof *a) == 0);
    /* a shared handle (another thread's) answers the same */
    pb_engine *shared = NULL;
    CHECK(pb_engine_share(&shared, engine) == PB_OK);
    CHECK(pb_engine_inverse_kinematics(b, &nb, shared, NULL, &poses[tool], &config, NULL) == PB_OK);
    CHECK(na == nb && memcmp(a, b, na * 6 * sizeof *a) == 0);
    pb_engine_destroy(shared);
    config.seed = 43;
    CHECK(pb_engine_inverse_kinematics(b, &nb, engine, NULL, &poses[tool], &config, NULL) == PB_OK);
    check_solutions(engine, tool, b, nb, &poses[tool], &config, start);
    pb_engine_destroy(engine);
}

static pb_pose pose_at(double x, double y, double z, const double *r)
{
    pb_pose p = pb_pose_identity();
    p.t[0] = x;
    p.t[1] = y;
    p.t[2] = z;
    if (r)
        memcpy(p.r, r, sizeof p.r);
    return p;
}

/* Hand pointing down: the tool's z axis along -z (a half turn about x). */
static const double down[9] = {1, 0, 0, 0, -1, 0, 0, 0, -1};

static void test_failures(void)
{
    pb_engine *engine = load_arm();
    if (!engine)
        return;
    pb_ik_config config = pb_ik_config_default();
    config.restarts = 30;
    double solutions[4 * PB_MAX_DIM];
    size_t n = 7;
    pb_diag diag = {0};
    /* out of reach: 3 m away */
    pb_pose far = pose_at(3.0, 0.0, 0.5, NULL);
    CHECK(pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &far, &config, &diag) ==
          PB_ERR_NOT_FOUND);
    CHECK(n == 0);
    CHECK_MSG(strstr(diag.message, "no collision-free joint configuration reaches the pose of link 'tool'") &&
                  strstr(diag.message, "after 30 restarts") && strstr(diag.message, "out of reach"),
              "%s", diag.message);
    /* reached only in collision: the tool in the table top, pointing down */
    pb_pose in_table = pose_at(0.6, -0.5, 0.28, down);
    memset(&diag, 0, sizeof diag);
    CHECK(pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &in_table, &config, &diag) ==
          PB_ERR_NOT_FOUND);
    CHECK_MSG(strstr(diag.message, "all in collision") && strstr(diag.message, "(the first: link '") &&
                  strstr(diag.message, "touches obstacle '"),
              "%s", diag.message);
    /* just above the table it is reachable and free */
    pb_pose above = pose_at(0.6, -0.5, 0.4, down);
    CHECK_MSG(pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &above, &config, &diag) == PB_OK,
              "%s", diag.message);
    /* bad input */
    CHECK(pb_engine_inverse_kinematics(solutions, &n, engine, "gripper", &above, &config, &diag) ==
          PB_ERR_INVALID);
    CHECK_MSG(strstr(diag.message, "no link 'gripper'"), "%s", diag.message);
    CHECK(pb_engine_inverse_kinematics(solutions, &n, engine, "base", &above, &config, &diag) ==
          PB_ERR_INVALID);
    CHECK_MSG(strstr(diag.message, "does not move"), "%s", diag.message);
    pb_pose skewed = above;
    skewed.r[0] = 2.0;
    CHECK(pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &skewed, &config, &diag) ==
          PB_ERR_INVALID);
    pb_pose nan_pose = above;
    nan_pose.t[1] = NAN;
    CHECK(pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &nan_pose, &config, &diag) ==
          PB_ERR_INVALID);
    pb_ik_config bad = config;
    bad.position_tolerance = 0.0;
    CHECK(pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &above, &bad, &diag) == PB_ERR_INVALID);
    bad = config;
    bad.max_solutions = 0;
    CHECK(pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &above, &bad, &diag) == PB_ERR_INVALID);
    bad = config;
    bad.restarts = -1;
    CHECK(pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &above, &bad, &diag) == PB_ERR_INVALID);
    const double nan_reference[6] = {0, 0, NAN, 0, 0, 0};
    bad = config;
    bad.reference = nan_reference;
    CHECK(pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &above, &bad, &diag) == PB_ERR_INVALID);
    pb_engine_destroy(engine);
    /* an engine without a robot */
    pb_engine *box = NULL;
    const pb_option options[] = {{"bounds", "-5:5"}, {"expr", "x0 > 0"}};
    CHECK(pb_engine_load(&box, "blackbox", NULL, options, 2, &diag) == PB_OK);
    if (box) {
        CHECK(pb_engine_inverse_kinematics(solutions, &n, box, NULL, &above, &config, &diag) ==
              PB_ERR_UNSUPPORTED);
        CHECK(n == 0 && strstr(diag.message, "no inverse kinematics"));
    }
    pb_engine_destroy(box);
}

/* tests/robots/slider.urdf: a revolute base, a prismatic boom, a joint that mimics the base at
 * minus half its angle, a continuous roll, a revolute pitch and a prismatic lift; the tip, the
 * deepest link, is the tool frame (no SRDF). */
static void test_mimic_prismatic_continuous(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/robots/slider.xml", pb_test_source_root());
    pb_engine *engine = load_world(path);
    if (!engine)
        return;
    CHECK(pb_engine_dim(engine) == 5); /* yaw, boom, roll, pitch, lift */
    const pb_robot *robot = pb_manipulator_robot(engine);
    const int tip = pb_manipulator_tool_link(engine);
    CHECK(strcmp(robot->links[tip].name, "tip") == 0);
    pb_ik_config config = pb_ik_config_default();
    pb_rng rng;
    pb_rng_seed(&rng, 5);
    int solved = 0;
    bool wrapped = false;
    for (int c = 0; c < 30; c++) {
        double q[PB_MAX_DIM], solutions[4 * PB_MAX_DIM];
        pb_engine_sample(engine, &rng, q);
        /* a 5-joint robot cannot reach every 6-D pose, but it reaches its own */
        pb_pose poses[PB_MANIPULATOR_MAX_LINKS];
        pb_manipulator_fk(engine, q, poses);
        size_t n = 0;
        pb_diag diag = {0};
        config.seed = (uint64_t)c;
        config.reference = c % 2 ? q : NULL;
        const pb_status st =
            pb_engine_inverse_kinematics(solutions, &n, engine, NULL, &poses[tip], &config, &diag);
        CHECK_MSG(st == PB_OK, "case %d: %s", c, diag.message);
        if (st != PB_OK)
            continue;
        solved++;
        const double middle[5] = {0, 0.3, 0, 0, 0};
        check_solutions(engine, tip, solutions, n, &poses[tip], &config, c % 2 ? q : middle);
        for (size_t k = 0; k < n; k++)
            wrapped |= fabs(solutions[k * 5 + 2]) > 2.0; /* the roll far from 0 */
    }
    CHECK(solved == 30);
    CHECK(wrapped);
    pb_engine_destroy(engine);
}

int main(void)
{
    test_round_trips();
    test_determinism();
    test_failures();
    test_mimic_prismatic_continuous();
    return pb_test_summary("manipulator_ik");
}
