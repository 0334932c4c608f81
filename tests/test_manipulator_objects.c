/* Dynamic objects of the manipulator engine through the public obstacle API (pb_engine_solid_add,
 * pb_engine_solid_move, pb_engine_obstacle_remove; issue 8, issue 16): an engine with objects must answer feasible() and visible() (certified and interpolated)
 * exactly as an engine loaded from a world file with the same shapes as static obstacles, at
 * thousands of random configurations and edges, after adding, moving and removing them;
 * pb_engine_solid_check() names what a placement hits (obstacle, object, link); bad
 * input gets its error codes. */
#include "harness.h"
#include "engines/manipulator/manipulator.h"
#include "planbench/planbench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

static char tmp_dir[] = "/tmp/pb_test_objects_XXXXXX";

/* The project's world with `extra` (obstacle elements) appended. */
static void write_world(const char *name, const char *extra)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (!fp)
        return;
    fprintf(fp,
            "<world name='objects'>\n"
            "  <robot urdf='%s/robots/pbarm6.urdf' srdf='%s/robots/pbarm6.srdf' group='arm'/>\n"
            "  <box name='floor' size='3 3 0.02' xyz='0 0 -0.011'/>\n"
            "  <box name='table' size='0.5 1.4 0.04' xyz='0.6 0 0.28'/>\n"
            "  <box name='divider' size='0.5 0.04 0.45' xyz='0.6 0 0.525'/>\n"
            "%s"
            "</world>\n",
            pb_test_source_root(), pb_test_source_root(), extra);
    fclose(fp);
}

static pb_engine *load(const char *name, bool interpolated)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    const pb_option options[2] = {{"edge_check", interpolated ? "interpolated" : "certified"},
                                  {"resolution", "0.02"}};
    pb_engine *engine = NULL;
    pb_diag diag = {0};
    CHECK_MSG(pb_engine_load(&engine, "manipulator", path, options, 2, &diag) == PB_OK, "%s: %s", name,
              diag.message);
    return engine;
}

/* The objects of the test: a box turned about a slanted axis, a cylinder lying down, a ball. */
typedef struct placed {
    pb_solid shape;
    double xyz[3], rpy[3];
    const char *name;
} placed;

static const placed objects[3] = {
    {{.type = PB_SOLID_BOX, .size = {0.2, 0.3, 0.4}}, {0.45, -0.4, 0.55}, {0.3, 0.2, 0.7}, "crate"},
    {{.type = PB_SOLID_CYLINDER, .size = {0.08, 0.6}},
     {0.3, 0.45, 0.75},
     {1.5707963267948966, 0, 0.4},
     "log"},
    {{.type = PB_SOLID_SPHERE, .size = {0.15}}, {0.4, 0.2, 1.0}, {0, 0, 0}, "ball"},
};

/* The same object as a world-file element, at `xyz` instead of its own place when not NULL. */
static int element(const placed *o, const double *xyz, char *out, size_t size)
{
    const double *p = xyz ? xyz : o->xyz;
    char where[200];
    snprintf(where, sizeof where, "xyz='%.17g %.17g %.17g' rpy='%.17g %.17g %.17g'", p[0], p[1], p[2],
             o->rpy[0], o->rpy[1], o->rpy[2]);
    switch (o->shape.type) {
    case PB_SOLID_BOX:
        return snprintf(out, size, "  <box name='%s' size='%.17g %.17g %.17g' %s/>\n", o->name,
                        o->shape.size[0], o->shape.size[1], o->shape.size[2], where);
    case PB_SOLID_CYLINDER:
        return snprintf(out, size, "  <cylinder name='%s' radius='%.17g' length='%.17g' %s/>\n", o->name,
                        o->shape.size[0], o->shape.size[1], where);
    default:
        return snprintf(out, size, "  <sphere name='%s' radius='%.17g' %s/>\n", o->name, o->shape.size[0],
                        where);
    }
}

/* At how many of `n` random configurations do `a` and `b` disagree on feasible()? */
static int count_differences(pb_engine *a, pb_engine *b, int n, uint64_t seed)
{
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    int differ = 0;
    for (int k = 0; k < n; k++) {
        double q[PB_MAX_DIM];
        pb_engine_sample(a, &rng, q);
        differ += pb_engine_feasible(a, q) != pb_engine_feasible(b, q);
    }
    return differ;
}

/* Do `a` and `b` give the same answers? Random configurations (mostly near the obstacles:
 * the arm reaches them everywhere) and random edges of a few tenths of a radian, some long. */
static void compare(pb_engine *a, pb_engine *b, const char *what, uint64_t seed)
{
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    const int dim = pb_engine_dim(a);
    int mismatches = 0, n_free = 0, n_visible = 0;
    for (int k = 0; k < 3000; k++) {
        double q[PB_MAX_DIM];
        pb_engine_sample(a, &rng, q);
        const bool fa = pb_engine_feasible(a, q), fb = pb_engine_feasible(b, q);
        mismatches += fa != fb;
        n_free += fa;
    }
    CHECK_MSG(mismatches == 0, "%s: feasible() differs at %d of 3000 configurations", what, mismatches);
    mismatches = 0;
    for (int k = 0; k < 600; k++) {
        double q[PB_MAX_DIM], r[PB_MAX_DIM];
        pb_engine_sample(a, &rng, q);
        const double reach = k % 4 == 0 ? 2.0 : 0.3;
        for (int i = 0; i < dim; i++) {
            r[i] = q[i] + reach * (2 * pb_rng_uniform(&rng) - 1);
            r[i] = fmin(fmax(r[i], pb_engine_lower(a)[i]), pb_engine_upper(a)[i]);
        }
        const bool va = pb_engine_visible(a, q, r), vb = pb_engine_visible(b, q, r);
        mismatches += va != vb;
        n_visible += va;
    }
    CHECK_MSG(mismatches == 0, "%s: visible() differs on %d of 600 edges", what, mismatches);
    /* both answers occur, or the comparison proves little */
    CHECK_MSG(n_free > 100 && n_free < 2900, "%s: %d of 3000 free", what, n_free);
    CHECK_MSG(n_visible > 20 && n_visible < 580, "%s: %d of 600 edges free", what, n_visible);
}

static pb_pose pose_of(const placed *o, const double *xyz)
{
    return pb_pose_from_xyz_rpy(xyz ? xyz : o->xyz, o->rpy);
}

static void test_equivalence(bool interpolated)
{
    char extra[2000] = "", moved_extra[2000] = "";
    const double moved_xyz[3] = {0.35, -0.25, 0.85};
    size_t len = 0, moved_len = 0;
    for (int i = 0; i < 3; i++) {
        len += (size_t)element(&objects[i], NULL, extra + len, sizeof extra - len);
        moved_len += (size_t)element(&objects[i], i == 0 ? moved_xyz : NULL, moved_extra + moved_len,
                                     sizeof moved_extra - moved_len);
    }
    write_world("plain.xml", "");
    write_world("static.xml", extra);
    write_world("moved.xml", moved_extra);
    pb_engine *dynamic = load("plain.xml", interpolated), *with_static = load("static.xml", interpolated),
              *moved = load("moved.xml", interpolated), *plain = load("plain.xml", interpolated);
    if (!dynamic || !with_static || !moved || !plain)
        goto done;
    /* the objects matter: without them the answers differ often */
    const int differ = count_differences(plain, with_static, 3000, 10);
    CHECK_MSG(differ > 100, "the objects change feasible() at only %d of 3000 configurations", differ);
    uint32_t ids[3];
    for (int i = 0; i < 3; i++) {
        const pb_pose p = pose_of(&objects[i], NULL);
        CHECK(pb_engine_solid_add(&ids[i], dynamic, &objects[i].shape, &p, objects[i].name) == PB_OK);
    }
    CHECK(pb_engine_obstacle_count(dynamic) == 3);
    const char *kind = interpolated ? "interpolated" : "certified";
    char what[100];
    snprintf(what, sizeof what, "%s, objects added", kind);
    compare(dynamic, with_static, what, 11);
    const pb_pose p0 = pose_of(&objects[0], moved_xyz);
    CHECK(pb_engine_solid_move(dynamic, ids[0], &p0) == PB_OK);
    snprintf(what, sizeof what, "%s, one moved", kind);
    compare(dynamic, moved, what, 12);
    for (int i = 0; i < 3; i++)
        CHECK(pb_engine_obstacle_remove(dynamic, ids[i]) == PB_OK);
    CHECK(pb_engine_obstacle_count(dynamic) == 0);
    snprintf(what, sizeof what, "%s, all removed", kind);
    compare(dynamic, plain, what, 13);
    /* a copy into another engine is the same scene */
    const pb_pose p1 = pose_of(&objects[1], NULL), p2 = pose_of(&objects[2], NULL);
    uint32_t id;
    CHECK(pb_engine_solid_add(&id, dynamic, &objects[0].shape, &p0, "crate") == PB_OK);
    CHECK(id != ids[0] && id != ids[1] && id != ids[2]); /* ids are never reused */
    CHECK(pb_engine_solid_add(&id, dynamic, &objects[1].shape, &p1, "log") == PB_OK);
    CHECK(pb_engine_solid_add(&id, dynamic, &objects[2].shape, &p2, "ball") == PB_OK);
    CHECK(pb_engine_obstacles_copy(plain, dynamic) == PB_OK);
    snprintf(what, sizeof what, "%s, copied", kind);
    compare(plain, moved, what, 14);
done:
    pb_engine_destroy(dynamic);
    pb_engine_destroy(with_static);
    pb_engine_destroy(moved);
    pb_engine_destroy(plain);
}

static void test_check_and_errors(void)
{
    write_world("plain.xml", "");
    pb_engine *engine = load("plain.xml", false);
    if (!engine)
        return;
    double start[PB_MAX_DIM], goal[PB_MAX_DIM];
    const pb_solid cube = {.type = PB_SOLID_BOX, .size = {0.1, 0.1, 0.1}};
    const pb_solid ball = {.type = PB_SOLID_SPHERE, .size = {0.05}};
    for (int i = 0; i < 6; i++)
        start[i] = goal[i] = 0.0; /* the arm straight up */
    bool hits;
    char what[200];
    /* on the table */
    pb_pose at = pb_pose_from_xyz_rpy((const double[3]){0.6, 0.4, 0.3}, (const double[3]){0, 0, 0});
    CHECK(pb_engine_solid_check(&hits, engine, &cube, &at, PB_OBSTACLE_NONE, start, false, what,
                                sizeof what) == PB_OK);
    CHECK_MSG(hits && strcmp(what, "obstacle 'table'") == 0, "table: %s", what);
    /* on the arm: its base */
    at = pb_pose_from_xyz_rpy((const double[3]){0, 0, 0.05}, (const double[3]){0, 0, 0});
    CHECK(pb_engine_solid_check(&hits, engine, &ball, &at, PB_OBSTACLE_NONE, start, false, what,
                                sizeof what) == PB_OK);
    CHECK_MSG(hits && strncmp(what, "link '", 6) == 0, "arm base: %s", what);
    /* the upper arm at 0.4 m up; with no robot given nothing is hit there */
    at = pb_pose_from_xyz_rpy((const double[3]){0, 0, 0.4}, (const double[3]){0, 0, 0});
    CHECK(pb_engine_solid_check(&hits, engine, &ball, &at, PB_OBSTACLE_NONE, start, false, what,
                                sizeof what) == PB_OK);
    CHECK_MSG(hits && strcmp(what, "link 'upper_arm'") == 0, "upper arm: %s", what);
    bool touches;
    CHECK(pb_engine_solid_check(&touches, engine, &ball, &at, PB_OBSTACLE_NONE, start, true, NULL, 0) ==
              PB_OK &&
          touches);
    CHECK(pb_engine_solid_check(&hits, engine, &ball, &at, PB_OBSTACLE_NONE, NULL, false, what,
                                sizeof what) == PB_OK);
    CHECK_MSG(!hits && what[0] == '\0', "no robot: %s", what);
    /* free space, then an object there: a second one hits it, unless it is ignored */
    at = pb_pose_from_xyz_rpy((const double[3]){0.6, 0.4, 0.36}, (const double[3]){0, 0, 0});
    CHECK(pb_engine_solid_check(&hits, engine, &cube, &at, PB_OBSTACLE_NONE, start, false, what,
                                sizeof what) == PB_OK);
    CHECK_MSG(!hits, "free: %s", what);
    uint32_t id;
    CHECK(pb_engine_solid_add(&id, engine, &cube, &at, "box_2") == PB_OK && id != PB_OBSTACLE_NONE);
    pb_pose near = at;
    near.t[2] += 0.09;
    CHECK(pb_engine_solid_check(&hits, engine, &ball, &near, PB_OBSTACLE_NONE, start, false, what,
                                sizeof what) == PB_OK);
    CHECK_MSG(hits && strcmp(what, "object 'box_2'") == 0, "on the box: %s", what);
    CHECK(pb_engine_solid_check(&hits, engine, &ball, &near, id, start, false, what, sizeof what) == PB_OK &&
          !hits);
    /* the arm's configurations see it, and explanations name it */
    CHECK(pb_engine_feasible(engine, start));
    pb_pose on_arm = pb_pose_from_xyz_rpy((const double[3]){0, 0, 0.6}, (const double[3]){0, 0, 0});
    CHECK(pb_engine_solid_move(engine, id, &on_arm) == PB_OK);
    CHECK(!pb_engine_feasible(engine, start));
    CHECK(pb_manipulator_explain(engine, start, what, sizeof what) && strstr(what, "'box_2'") != NULL);
    /* bad input */
    const pb_solid mesh = {.type = PB_SOLID_TYPE_COUNT, .size = {1, 1, 1}};
    const pb_solid flat = {.type = PB_SOLID_BOX, .size = {0.1, 0.0, 0.1}};
    pb_pose nan_pose = at;
    nan_pose.t[0] = NAN;
    uint32_t bad;
    CHECK(pb_engine_solid_add(&bad, engine, &mesh, &at, "m") == PB_ERR_INVALID);
    CHECK(pb_engine_solid_add(&bad, engine, &flat, &at, "f") == PB_ERR_INVALID);
    CHECK(pb_engine_solid_add(&bad, engine, &cube, &nan_pose, "n") == PB_ERR_INVALID);
    CHECK(pb_engine_solid_move(engine, id + 100, &at) == PB_ERR_NOT_FOUND);
    CHECK(pb_engine_obstacle_remove(engine, id + 100) == PB_ERR_NOT_FOUND);
    CHECK(pb_engine_obstacle_count(engine) == 1);
    CHECK(pb_engine_obstacle_remove(engine, id) == PB_OK);
    CHECK(pb_engine_feasible(engine, start));
    (void)goal;
    /* an engine of another kind has no objects */
    pb_engine *image = NULL;
    pb_diag diag = {0};
    char map[1024];
    snprintf(map, sizeof map, "%s/maps/room1.png", pb_test_source_root());
    if (pb_engine_load(&image, "image2d", map, NULL, 0, &diag) == PB_OK) {
        CHECK(pb_engine_solid_add(&bad, image, &cube, &at, "x") == PB_ERR_UNSUPPORTED);
        pb_engine_destroy(image);
    }
    pb_engine_destroy(engine);
}

int main(void)
{
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_check_and_errors();
    test_equivalence(false);
    test_equivalence(true);
    char command[600];
    snprintf(command, sizeof command, "rm -rf %s", tmp_dir);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", tmp_dir);
    return pb_test_summary("manipulator_objects");
}
