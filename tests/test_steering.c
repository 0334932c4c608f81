/* Steering curves (issue 18): Reeds-Shepp and Dubins shortest paths. Properties on seeded
 * random pairs (the curve reaches its goal, lower bounds, Dubins >= Reeds-Shepp, symmetry,
 * scaling, well-formed words), closed forms (straight lines, single arcs, the empty curve),
 * cusps and directions, the JSON word read back, names, bad input. The comparison with
 * OMPL's state spaces is test_steering_ompl.cpp. */
#include "harness.h"
#include "planbench/steering.h"

#include <math.h>
#include <string.h>
#if PB_HAVE_JANSSON
#include <jansson.h>
#endif

static const double radii[] = {0.5, 1.0, 3.9845, 10.0};

static double wrapped(double a)
{
    return a - 2.0 * M_PI * floor((a + M_PI) / (2.0 * M_PI));
}

/* Distance between two poses: position, and heading modulo 2 pi scaled by `radius`. */
static double pose_error(const double *p, const double *q)
{
    return fmax(hypot(p[0] - q[0], p[1] - q[1]), fabs(wrapped(p[2] - q[2])));
}

static void random_pose(pb_rng *rng, double *p)
{
    p[0] = pb_rng_range(rng, -15.0, 15.0);
    p[1] = pb_rng_range(rng, -15.0, 15.0);
    /* some headings outside [-pi, pi): the solvers wrap them */
    p[2] = pb_rng_range(rng, -8.0, 8.0);
}

/* A word is well formed: 1..5 segments (1..3 for Dubins) of known types, finite non-zero
 * lengths, no two neighbours of one type and direction (they would be one segment). */
static bool well_formed(const pb_curve *c, pb_curve_family family)
{
    if (c->n < 0 || c->n > (family == PB_CURVE_DUBINS ? 3 : PB_CURVE_MAX_SEGMENTS))
        return false;
    for (int i = 0; i < c->n; i++) {
        const pb_curve_segment *s = &c->segments[i];
        if (!strchr("LSR", s->type) || s->type == '\0' || !isfinite(s->length) || s->length == 0.0)
            return false;
        if (family == PB_CURVE_DUBINS && s->length < 0)
            return false;
        if (i > 0 && s->type == c->segments[i - 1].type && (s->length < 0) == (c->segments[i - 1].length < 0))
            return false;
    }
    return true;
}

static void test_random_pairs(void)
{
    pb_rng rng;
    pb_rng_seed(&rng, 18);
    int failures_goal = 0, failures_bounds = 0, failures_form = 0, failures_order = 0, failures_symmetry = 0;
    int with_cusps = 0, n_five = 0;
    double worst_goal = 0;
    for (size_t r = 0; r < sizeof radii / sizeof radii[0]; r++) {
        const double radius = radii[r];
        for (int k = 0; k < 2500; k++) {
            double a[3], b[3];
            random_pose(&rng, a);
            random_pose(&rng, b);
            if (k % 5 == 0) { /* near pairs: the short curves of a planner's neighbours */
                b[0] = a[0] + pb_rng_range(&rng, -2.0, 2.0) * radius;
                b[1] = a[1] + pb_rng_range(&rng, -2.0, 2.0) * radius;
            }
            pb_curve rs, du, back;
            CHECK(pb_curve_shortest(&rs, PB_CURVE_REEDS_SHEPP, a, b, radius));
            CHECK(pb_curve_shortest(&du, PB_CURVE_DUBINS, a, b, radius));
            CHECK(pb_curve_shortest(&back, PB_CURVE_REEDS_SHEPP, b, a, radius));
            const pb_curve *curves[2] = {&rs, &du};
            for (int f = 0; f < 2; f++) {
                const pb_curve *c = curves[f];
                const double len = pb_curve_length(c);
                double end[3];
                pb_curve_point(c, a, len, end);
                const double err = pose_error(end, b);
                worst_goal = fmax(worst_goal, err);
                if (!(err <= 1e-9)) {
                    if (failures_goal++ < 5)
                        fprintf(stderr,
                                "%s r=%g from (%.17g, %.17g, %.17g) to (%.17g, %.17g, %.17g): misses by %g\n",
                                pb_curve_family_name((pb_curve_family)f), radius, a[0], a[1], a[2], b[0],
                                b[1], b[2], err);
                }
                /* beyond the end stays at the end */
                double past[3];
                pb_curve_point(c, a, len + 5.0, past);
                if (pose_error(past, end) != 0.0)
                    failures_goal++;
                const double euclid = hypot(b[0] - a[0], b[1] - a[1]);
                const double turn = radius * fabs(wrapped(b[2] - a[2]));
                if (!(len >= euclid - 1e-9 && len >= turn - 1e-9 && c->radius == radius))
                    failures_bounds++;
                if (!well_formed(c, (pb_curve_family)f))
                    failures_form++;
            }
            if (!(pb_curve_length(&du) >= pb_curve_length(&rs) * (1 - 1e-12) - 1e-12))
                failures_order++;
            if (!(fabs(pb_curve_length(&back) - pb_curve_length(&rs)) <= 1e-9 * (1 + pb_curve_length(&rs)))) {
                if (failures_symmetry++ < 5)
                    fprintf(stderr, "r=%g asymmetric: %.17g there, %.17g back\n", radius,
                            pb_curve_length(&rs), pb_curve_length(&back));
            }
            if (pb_curve_cusps(&du) != 0)
                failures_form++;
            with_cusps += pb_curve_cusps(&rs) > 0;
            n_five += rs.n == 5;
        }
    }
    CHECK_MSG(failures_goal == 0, "%d curves miss their goal (worst %g)", failures_goal, worst_goal);
    CHECK_MSG(failures_bounds == 0, "%d curves shorter than a lower bound", failures_bounds);
    CHECK_MSG(failures_form == 0, "%d malformed words", failures_form);
    CHECK_MSG(failures_order == 0, "%d Dubins curves shorter than Reeds-Shepp's", failures_order);
    CHECK_MSG(failures_symmetry == 0, "%d pairs whose Reeds-Shepp length differs there and back",
              failures_symmetry);
    /* the sample reaches the words with reverse driving and the five-segment family */
    CHECK_MSG(with_cusps > 1000, "%d curves with cusps", with_cusps);
    CHECK_MSG(n_five > 0, "%d five-segment curves", n_five);
    printf("random pairs: worst end pose error %.3g\n", worst_goal);
}

/* Length scales with the radius: the curve for (a, b, r) is r times the curve for (a/r, b/r, 1). */
static void test_scaling(void)
{
    pb_rng rng;
    pb_rng_seed(&rng, 7);
    int bad = 0;
    for (int k = 0; k < 1000; k++) {
        double a[3], b[3];
        random_pose(&rng, a);
        random_pose(&rng, b);
        const double radius = pb_rng_range(&rng, 0.2, 20.0);
        const double a1[3] = {a[0] / radius, a[1] / radius, a[2]},
                     b1[3] = {b[0] / radius, b[1] / radius, b[2]};
        for (int f = 0; f < PB_CURVE_FAMILY_COUNT; f++) {
            pb_curve c, c1;
            pb_curve_shortest(&c, (pb_curve_family)f, a, b, radius);
            pb_curve_shortest(&c1, (pb_curve_family)f, a1, b1, 1.0);
            if (!(fabs(pb_curve_length(&c) - radius * pb_curve_length(&c1)) <=
                  1e-9 * (1 + pb_curve_length(&c))))
                bad++;
        }
    }
    CHECK_MSG(bad == 0, "%d curves do not scale with the radius", bad);
}

static void check_single(const pb_curve *c, char type, double length)
{
    CHECK_MSG(c->n == 1, "n = %d", c->n);
    if (c->n == 1) {
        CHECK_MSG(c->segments[0].type == type, "type %c, expected %c", c->segments[0].type, type);
        CHECK_NEAR(c->segments[0].length, length, 1e-12);
    }
}

static void test_closed_forms(void)
{
    const double a[3] = {1.0, 2.0, 0.3};
    pb_curve c;
    /* straight ahead: S of the distance, both families */
    const double ahead[3] = {1.0 + 5.0 * cos(0.3), 2.0 + 5.0 * sin(0.3), 0.3};
    for (int f = 0; f < PB_CURVE_FAMILY_COUNT; f++) {
        CHECK(pb_curve_shortest(&c, (pb_curve_family)f, a, ahead, 2.0));
        check_single(&c, 'S', 5.0);
        CHECK(pb_curve_cusps(&c) == 0 && !pb_curve_reverse_at(&c, 1.0));
    }
    /* straight behind: Reeds-Shepp backs up; Dubins must go round */
    const double behind[3] = {1.0 - 5.0 * cos(0.3), 2.0 - 5.0 * sin(0.3), 0.3 + 2 * M_PI};
    CHECK(pb_curve_shortest(&c, PB_CURVE_REEDS_SHEPP, a, behind, 2.0));
    check_single(&c, 'S', -5.0);
    CHECK(pb_curve_reverse_at(&c, 2.5) && pb_curve_cusps(&c) == 0);
    CHECK(pb_curve_shortest(&c, PB_CURVE_DUBINS, a, behind, 2.0));
    CHECK(pb_curve_length(&c) > 5.0 + 1.0 && c.n >= 2);
    /* one arc of turn 1.2 on radius 3: left forward, right forward, left in reverse */
    const double r = 3.0, th = 1.2;
    const double left[3] = {r * sin(th), r * (1 - cos(th)), th};
    const double right[3] = {r * sin(th), -r * (1 - cos(th)), -th};
    const double left_back[3] = {-r * sin(th), r * (1 - cos(th)), -th};
    const double origin[3] = {0, 0, 0};
    for (int f = 0; f < PB_CURVE_FAMILY_COUNT; f++) {
        CHECK(pb_curve_shortest(&c, (pb_curve_family)f, origin, left, r));
        check_single(&c, 'L', r * th);
        CHECK(pb_curve_shortest(&c, (pb_curve_family)f, origin, right, r));
        check_single(&c, 'R', r * th);
    }
    CHECK(pb_curve_shortest(&c, PB_CURVE_REEDS_SHEPP, origin, left_back, r));
    check_single(&c, 'L', -r * th);
    /* a point of an arc: half way along the left arc */
    CHECK(pb_curve_shortest(&c, PB_CURVE_REEDS_SHEPP, origin, left, r));
    double mid[3];
    pb_curve_point(&c, origin, 0.5 * r * th, mid);
    CHECK_NEAR(mid[0], r * sin(0.5 * th), 1e-12);
    CHECK_NEAR(mid[1], r * (1 - cos(0.5 * th)), 1e-12);
    CHECK_NEAR(mid[2], 0.5 * th, 1e-12);
    pb_curve_point(&c, origin, -1.0, mid); /* clamped to the start */
    CHECK(mid[0] == 0 && mid[1] == 0 && mid[2] == 0);
    /* the same pose (heading given another turn round): no segment */
    const double again[3] = {1.0, 2.0, 0.3 - 2 * M_PI};
    for (int f = 0; f < PB_CURVE_FAMILY_COUNT; f++) {
        CHECK(pb_curve_shortest(&c, (pb_curve_family)f, a, a, 1.0));
        CHECK(c.n == 0 && pb_curve_length(&c) == 0.0);
        CHECK(pb_curve_shortest(&c, (pb_curve_family)f, a, again, 1.0));
        CHECK(c.n == 0 && pb_curve_length(&c) == 0.0 && pb_curve_cusps(&c) == 0 &&
              !pb_curve_reverse_at(&c, 0));
    }
    /* a turn in place by pi on the unit radius: Reeds-Shepp needs cusps, and at most the
     * Dubins loop */
    const double about[3] = {0, 0, M_PI};
    pb_curve du;
    CHECK(pb_curve_shortest(&c, PB_CURVE_REEDS_SHEPP, origin, about, 1.0));
    CHECK(pb_curve_shortest(&du, PB_CURVE_DUBINS, origin, about, 1.0));
    CHECK(pb_curve_cusps(&c) >= 1);
    CHECK(pb_curve_length(&c) < pb_curve_length(&du));
    /* the yaw of a point is wrapped to [-pi, pi) */
    const double start_wrapped[3] = {0, 0, 3.0};
    const double end_wrapped[3] = {0, 0, 3.0 + 0.5};
    CHECK(pb_curve_shortest(&c, PB_CURVE_REEDS_SHEPP, start_wrapped, end_wrapped, 1.0));
    double end[3];
    pb_curve_point(&c, start_wrapped, pb_curve_length(&c), end);
    CHECK(end[2] >= -M_PI && end[2] < M_PI);
    CHECK_NEAR(end[2], 3.5 - 2 * M_PI, 1e-9);
}

/* Directions and cusps on a word made by hand, and a parallel-parking move. */
static void test_cusps(void)
{
    const pb_curve c = {
        .n = 4, .radius = 1.0, .segments = {{'L', 1.0}, {'S', -2.0}, {'R', -0.5}, {'L', 1.5}}};
    CHECK(pb_curve_cusps(&c) == 2);
    CHECK_NEAR(pb_curve_length(&c), 5.0, 0);
    CHECK(!pb_curve_reverse_at(&c, 0.0));
    CHECK(!pb_curve_reverse_at(&c, 0.999));
    CHECK(pb_curve_reverse_at(&c, 1.0)); /* a boundary: the segment that starts there */
    CHECK(pb_curve_reverse_at(&c, 3.2));
    CHECK(!pb_curve_reverse_at(&c, 3.5));
    CHECK(!pb_curve_reverse_at(&c, 5.0));
    CHECK(!pb_curve_reverse_at(&c, 99.0));
    /* the point after a reverse straight is behind */
    double p[3];
    const double origin[3] = {0, 0, 0};
    pb_curve_point(&c, origin, 3.0, p);
    double q[3];
    pb_curve_point(&c, origin, 1.0, q);
    CHECK_NEAR(p[0], q[0] - 2.0 * cos(q[2]), 1e-12);
    CHECK_NEAR(p[1], q[1] - 2.0 * sin(q[2]), 1e-12);
    /* sideways by one radius, same heading: reverse is needed for the shortest */
    const double beside[3] = {0, 1.0, 0};
    pb_curve rs;
    CHECK(pb_curve_shortest(&rs, PB_CURVE_REEDS_SHEPP, origin, beside, 1.0));
    CHECK(pb_curve_cusps(&rs) >= 1);
}

static void test_json(void)
{
    const pb_curve c = {.n = 3, .radius = 2.0, .segments = {{'L', 1.25}, {'S', -0.5}, {'R', 0.1}}};
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    pb_curve_write_json(out, &c);
    fclose(out);
    CHECK_MSG(strcmp(text, "[{\"type\": \"L\", \"length\": 1.25}, {\"type\": \"S\", \"length\": -0.5}, "
                           "{\"type\": \"R\", \"length\": 0.10000000000000001}]") == 0,
              "%s", text);
    free(text);
    const pb_curve empty = {.n = 0, .radius = 1.0};
    out = open_memstream(&text, &size);
    pb_curve_write_json(out, &empty);
    fclose(out);
    CHECK(strcmp(text, "[]") == 0);
    free(text);

    /* random curves read back: the same word, the lengths bit for bit */
    pb_rng rng;
    pb_rng_seed(&rng, 99);
    int bad = 0;
    for (int k = 0; k < 200; k++) {
        double a[3], b[3];
        random_pose(&rng, a);
        random_pose(&rng, b);
        pb_curve rs;
        pb_curve_shortest(&rs, PB_CURVE_REEDS_SHEPP, a, b, 1.5);
        out = open_memstream(&text, &size);
        pb_curve_write_json(out, &rs);
        fclose(out);
#if PB_HAVE_JANSSON
        json_error_t error;
        json_t *root = json_loads(text, 0, &error);
        if (!json_is_array(root) || (int)json_array_size(root) != rs.n) {
            bad++;
        } else {
            for (int i = 0; i < rs.n; i++) {
                json_t *seg = json_array_get(root, (size_t)i);
                const char *type = json_string_value(json_object_get(seg, "type"));
                json_t *length = json_object_get(seg, "length");
                if (json_object_size(seg) != 2 || !type || strlen(type) != 1 ||
                    type[0] != rs.segments[i].type || !json_is_real(length) ||
                    json_real_value(length) != rs.segments[i].length)
                    bad++;
            }
        }
        json_decref(root);
#else
        /* without jansson: read the fixed layout back */
        const char *p = text;
        int i = 0;
        while (*p && *p != ']') {
            char type;
            double length;
            int used = 0;
            if (sscanf(p, "%*[[, ]{\"type\": \"%c\", \"length\": %lf}%n", &type, &length, &used) != 2 ||
                used == 0)
                break;
            if (i >= rs.n || type != rs.segments[i].type || length != rs.segments[i].length)
                bad++;
            i++;
            p += used;
        }
        if (i != rs.n)
            bad++;
#endif
        free(text);
    }
    CHECK_MSG(bad == 0, "%d curves read back differently", bad);
}

static void test_names_and_bad_input(void)
{
    CHECK(strcmp(pb_curve_family_name(PB_CURVE_REEDS_SHEPP), "reeds_shepp") == 0);
    CHECK(strcmp(pb_curve_family_name(PB_CURVE_DUBINS), "dubins") == 0);
    for (int f = 0; f < PB_CURVE_FAMILY_COUNT; f++)
        CHECK(pb_curve_family_from_name(pb_curve_family_name((pb_curve_family)f)) == f);
    CHECK(pb_curve_family_from_name("reeds-shepp") == -1);
    CHECK(pb_curve_family_from_name("") == -1);
    CHECK(pb_curve_family_from_name(NULL) == -1);

    const double a[3] = {0, 0, 0}, b[3] = {1, 1, 1}, nan_pose[3] = {0, NAN, 0},
                 inf_pose[3] = {0, 0, INFINITY};
    pb_curve c = {.n = 3};
    CHECK(!pb_curve_shortest(&c, PB_CURVE_REEDS_SHEPP, a, nan_pose, 1.0) && c.n == 0);
    c.n = 3;
    CHECK(!pb_curve_shortest(&c, PB_CURVE_DUBINS, inf_pose, b, 1.0) && c.n == 0);
    CHECK(!pb_curve_shortest(&c, PB_CURVE_REEDS_SHEPP, a, b, 0.0) && c.n == 0);
    CHECK(!pb_curve_shortest(&c, PB_CURVE_REEDS_SHEPP, a, b, -1.0) && c.n == 0);
    CHECK(!pb_curve_shortest(&c, PB_CURVE_DUBINS, a, b, NAN) && c.n == 0);
    CHECK(!pb_curve_shortest(&c, PB_CURVE_DUBINS, a, b, INFINITY) && c.n == 0);
    CHECK(!pb_curve_shortest(&c, PB_CURVE_FAMILY_COUNT, a, b, 1.0) && c.n == 0);
}

int main(void)
{
    test_random_pairs();
    test_scaling();
    test_closed_forms();
    test_cusps();
    test_json();
    test_names_and_bad_input();
    return pb_test_summary("steering");
}
