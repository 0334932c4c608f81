/* Swept footprints (issue 18): pb_engine_sweep() and pb_vehicle_step_checked() on
 * maps/room1.png in the pixel frame, where a block fills x 70..124, y 60..89 (pixels). Every
 * answer is re-checked independently with whole-footprint checks (pb_engine_footprint_check)
 * at a spacing far finer than the sweep's steps. */
#include "harness.h"
#include "planbench/planbench.h"
#include "planbench/vehicle.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static pb_engine *load_room(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/maps/room1.png", pb_test_source_root());
    pb_engine *e = NULL;
    pb_diag d = {0};
    if (pb_engine_load(&e, "image2d", path, NULL, 0, &d) != PB_OK)
        fprintf(stderr, "%s\n", d.message);
    return e;
}

/* A straight motion from a to b with a turn from a[2] to b[2]. */
typedef struct line_motion {
    double a[3], b[3];
} line_motion;

static void line_pose(const void *ctx, double t, double *pose)
{
    const line_motion *m = ctx;
    for (int k = 0; k < 3; k++)
        pose[k] = m->a[k] + t * (m->b[k] - m->a[k]);
}

static bool free_at(pb_engine *e, const pb_footprint *fp, const double *pose, uint32_t ignore)
{
    pb_hit hit;
    CHECK(pb_engine_footprint_check(e, fp, pose, ignore, &hit) == PB_OK);
    return hit.kind == PB_HIT_NONE;
}

/* Every pose of the motion in [0, t_end] at 2000 steps per unit is free. */
static bool motion_free(pb_engine *e, const pb_footprint *fp, const line_motion *m, double t_end)
{
    for (int i = 0; i <= 2000; i++) {
        double pose[3];
        line_pose(m, t_end * i / 2000.0, pose);
        if (!free_at(e, fp, pose, PB_OBSTACLE_NONE))
            return false;
    }
    return true;
}

/* One long motion whose ends are free but whose middle crosses the block: blocked, stopped
 * before the block's face by at most the check's margin. */
static void test_jump_over_block(pb_engine *e)
{
    const pb_footprint car = {.type = PB_FOOTPRINT_RECT, .half_length = 10, .half_width = 5, .offset = 6};
    const line_motion m = {{30, 75, 0}, {130, 75, 0}};
    CHECK(free_at(e, &car, m.a, PB_OBSTACLE_NONE) && free_at(e, &car, m.b, PB_OBSTACLE_NONE));
    bool free = true;
    double t_free = -2;
    pb_hit hit;
    CHECK(pb_engine_sweep(e, &car, line_pose, &m, 100.0, PB_OBSTACLE_NONE, &free, &t_free, &hit) == PB_OK);
    CHECK(!free && hit.kind == PB_HIT_MAP);
    CHECK(t_free >= 0.0 && t_free < 1.0);
    CHECK_MSG(motion_free(e, &car, &m, t_free), "t_free %.9f", t_free);
    /* the front bumper (x + 16) stops short of x = 70 by at most the bound's slack (sqrt(2)
     * twice: the last certified pose's clearance and the next one's) and the floor */
    const double front = 30 + 100 * t_free + 16;
    CHECK_MSG(front <= 70.0 && front >= 70.0 - 0.3, "front at %.6f", front);
    /* a motion that stays clear: free, and the whole of it re-checks free */
    const line_motion clear = {{30, 40, 0}, {60, 40, 0.5}};
    CHECK(pb_engine_sweep(e, &car, line_pose, &clear, 30.0 + 16.2 * 0.5, PB_OBSTACLE_NONE, &free, &t_free,
                          &hit) == PB_OK);
    CHECK(free && t_free == 1.0 && hit.kind == PB_HIT_NONE && motion_free(e, &car, &clear, 1.0));
    /* a start in the block: -1 */
    const line_motion inside = {{90, 75, 0}, {95, 75, 0}};
    CHECK(pb_engine_sweep(e, &car, line_pose, &inside, 5.0, PB_OBSTACLE_NONE, &free, &t_free, &hit) == PB_OK);
    CHECK(!free && t_free == -1.0 && hit.kind == PB_HIT_MAP);
    /* a rate that is not a number is refused */
    CHECK(pb_engine_sweep(e, &car, line_pose, &clear, NAN, PB_OBSTACLE_NONE, &free, &t_free, &hit) ==
          PB_ERR_INVALID);
}

/* A turn in place whose ends are free: a long rectangle swinging past the block's corner. */
static void test_turn_in_place(pb_engine *e)
{
    const pb_footprint bar = {.type = PB_FOOTPRINT_RECT, .half_length = 30, .half_width = 1};
    /* centred at (135, 110), 23.7 px from the block's corner (124, 89) in the direction
     * -2.05 rad: the swing from 0.3 to 2.9 passes 1.09 = -2.05 + pi, where its far end sweeps
     * over the corner; both ends of the swing are clear */
    const line_motion swing = {{135, 110, 0.3}, {135, 110, 2.9}};
    if (!free_at(e, &bar, swing.a, PB_OBSTACLE_NONE) || !free_at(e, &bar, swing.b, PB_OBSTACLE_NONE)) {
        CHECK_MSG(false, "the swing's ends should be free");
        return;
    }
    CHECK(!motion_free(e, &bar, &swing, 1.0)); /* the fine re-check sees the hit */
    bool free = true;
    double t_free = -2;
    CHECK(pb_engine_sweep(e, &bar, line_pose, &swing, 31.0 * 2.6, PB_OBSTACLE_NONE, &free, &t_free, NULL) ==
          PB_OK);
    CHECK(!free && t_free >= 0.0 && motion_free(e, &bar, &swing, t_free));
}

/* A dynamic obstacle on the way: the hit names it. */
static void test_obstacle(pb_engine *e)
{
    const pb_footprint car = {.type = PB_FOOTPRINT_RECT, .half_length = 10, .half_width = 5, .offset = 6};
    const pb_footprint disc = {.type = PB_FOOTPRINT_DISC, .radius = 4};
    uint32_t id = 0;
    CHECK(pb_engine_obstacle_add(&id, e, &disc, (double[]){100, 30, 0}) == PB_OK);
    const line_motion m = {{30, 30, 0}, {140, 30, 0}};
    bool free = true;
    double t_free = -2;
    pb_hit hit;
    CHECK(pb_engine_sweep(e, &car, line_pose, &m, 110.0, PB_OBSTACLE_NONE, &free, &t_free, &hit) == PB_OK);
    CHECK_MSG(!free && hit.kind == PB_HIT_OBSTACLE && hit.obstacle_id == id,
              "free %d kind %d id %u/%u t %.9f", free, (int)hit.kind, hit.obstacle_id, id, t_free);
    const double front = 30 + 110 * t_free + 16;
    CHECK_MSG(front <= 96.0 && front > 96.0 - 0.3, "front at %.6f", front);
    /* ignoring it, the way is free */
    CHECK(pb_engine_sweep(e, &car, line_pose, &m, 110.0, id, &free, &t_free, &hit) == PB_OK && free);
    CHECK(pb_engine_obstacle_remove(e, id) == PB_OK);
}

/* A vehicle driven into the block at 10 ms steps: every state re-checks free, and it stops
 * at the block with v = 0. */
static void test_vehicle_into_block(pb_engine *e)
{
    pb_vehicle_config c = pb_vehicle_config_default();
    /* lengths in pixels here: a 20 x 10 car with its rear axle 4 from its rear */
    c.length = 20;
    c.width = 10;
    c.rear_overhang = 4;
    c.wheelbase = 12;
    c.max_speed = 100;
    c.max_acceleration = 100;
    const pb_footprint fp = pb_vehicle_footprint(&c);
    pb_vehicle_state s = pb_vehicle_state_at(20, 75, 0);
    const pb_vehicle_input in = {.acceleration = 40, .gear = PB_GEAR_DRIVE};
    bool stopped = false;
    int steps = 0;
    pb_hit hit = {0};
    for (; steps < 1000 && !stopped; steps++) {
        const double before[3] = {s.x, s.y, s.yaw};
        stopped = !pb_vehicle_step_checked(&c, &s, &in, 0.01, e, PB_OBSTACLE_NONE, &hit);
        const double after[3] = {s.x, s.y, s.yaw};
        /* the whole step, finely: a straight line here */
        line_motion m;
        memcpy(m.a, before, sizeof before);
        memcpy(m.b, after, sizeof after);
        if (!motion_free(e, &fp, &m, 1.0)) {
            CHECK_MSG(false, "step %d ends in collision at x %.6f", steps, s.x);
            return;
        }
    }
    CHECK(stopped && hit.kind == PB_HIT_MAP && s.v == 0.0);
    const double front = s.x + 16;
    CHECK_MSG(front <= 70.0 && front >= 70.0 - 0.3, "front at %.6f after %d steps", front, steps);
    /* pushed on against the block it creeps at most to the block's face, never into it */
    for (int i = 0; i < 20; i++) {
        pb_vehicle_step_checked(&c, &s, &in, 0.01, e, PB_OBSTACLE_NONE, &hit);
        CHECK(s.x + 16 <= 70.0 && free_at(e, &fp, (double[]){s.x, s.y, s.yaw}, PB_OBSTACLE_NONE));
    }
    const double x = s.x;
    /* and reversing away is free */
    const pb_vehicle_input back = {.acceleration = 10, .gear = PB_GEAR_REVERSE};
    const bool moved = pb_vehicle_step_checked(&c, &s, &back, 0.01, e, PB_OBSTACLE_NONE, &hit);
    CHECK_MSG(moved, "kind %d pixel %d,%d x %.9f v %g gear %d", (int)hit.kind, hit.pixel_x, hit.pixel_y, s.x,
              s.v, (int)s.gear);
    CHECK(pb_vehicle_step_checked(&c, &s, &back, 0.01, e, PB_OBSTACLE_NONE, &hit) && s.x < x);
}

/* Two arcs driven one way: curvature k0 for the first `split` of the path, then k1. */
typedef struct arc2_motion {
    double start[3], length, split, k0, k1;
    int direction;
} arc2_motion;

static void arc_advance(double *pose, double k, double sigma)
{
    if (fabs(k) < 1e-12) {
        pose[0] += sigma * cos(pose[2]);
        pose[1] += sigma * sin(pose[2]);
        return;
    }
    const double yaw = pose[2] + k * sigma;
    pose[0] += (sin(yaw) - sin(pose[2])) / k;
    pose[1] -= (cos(yaw) - cos(pose[2])) / k;
    pose[2] = yaw;
}

static void arc2_pose(const void *ctx, double t, double *pose)
{
    const arc2_motion *m = ctx;
    memcpy(pose, m->start, sizeof m->start);
    const double s = t * m->length, first = m->split * m->length;
    arc_advance(pose, m->k0, m->direction * (s < first ? s : first));
    if (s > first)
        arc_advance(pose, m->k1, m->direction * (s - first));
}

/* pb_engine_sweep_path() keeps the promise it is given: random two-arc motions around the
 * block (curvatures within the promised range, one direction), and every motion it certifies
 * free (up to its t_free) is re-checked at 4000 poses per motion. The stretch checks must have
 * certified motions that pass within a pixel of the block (else this test would not test them),
 * and they do it with fewer sweep poses than the rate alone. */
static void test_sweep_path(pb_engine *e)
{
    const pb_footprint car = {.type = PB_FOOTPRINT_RECT, .half_length = 10, .half_width = 5, .offset = 6};
    const pb_footprint grown = {.type = PB_FOOTPRINT_RECT, .half_length = 11, .half_width = 6, .offset = 6};
    const double reach = hypot(16, 5);
    pb_rng rng;
    pb_rng_seed(&rng, 18);
    int certified = 0, near_contact = 0, wrong = 0;
    uint64_t poses_path = 0, poses_rate = 0;
    for (int trial = 0; trial < 400; trial++) {
        arc2_motion m = {.start = {pb_rng_range(&rng, 40, 155), pb_rng_range(&rng, 35, 115),
                                   pb_rng_range(&rng, -M_PI, M_PI)},
                         .length = pb_rng_range(&rng, 1, 60),
                         .split = pb_rng_uniform(&rng),
                         .direction = pb_rng_uniform(&rng) < 0.5 ? -1 : 1};
        const double k_lo = pb_rng_range(&rng, -0.05, 0.02), k_hi = k_lo + pb_rng_range(&rng, 0, 0.03);
        m.k0 = pb_rng_range(&rng, k_lo, k_hi);
        m.k1 = trial % 3 == 0 ? 0.0 : pb_rng_range(&rng, k_lo, k_hi);
        if (m.k1 < k_lo || m.k1 > k_hi)
            m.k1 = k_lo;
        if (!free_at(e, &car, m.start, PB_OBSTACLE_NONE))
            continue;
        const pb_sweep_path path = {
            .length = m.length, .curvature_min = k_lo, .curvature_max = k_hi, .direction = m.direction};
        const double rate = m.length * (1.0 + reach * fmax(fabs(k_lo), fabs(k_hi)));
        bool is_free = false;
        double t_free = -1;
        pb_hit hit;
        uint64_t before = pb_engine_get_counters(e).n_edge_states;
        CHECK(pb_engine_sweep_path(e, &car, arc2_pose, &m, rate, &path, PB_OBSTACLE_NONE, &is_free, &t_free,
                                   &hit) == PB_OK);
        poses_path += pb_engine_get_counters(e).n_edge_states - before;
        bool plain_free = false;
        before = pb_engine_get_counters(e).n_edge_states;
        CHECK(pb_engine_sweep(e, &car, arc2_pose, &m, rate, PB_OBSTACLE_NONE, &plain_free, NULL, NULL) ==
              PB_OK);
        poses_rate += pb_engine_get_counters(e).n_edge_states - before;
        if (!(t_free > 0))
            continue;
        bool touches = false;
        for (int i = 0; i <= 4000; i++) {
            double pose[3];
            arc2_pose(&m, t_free * i / 4000.0, pose);
            if (!free_at(e, &car, pose, PB_OBSTACLE_NONE))
                wrong++;
            touches = touches || !free_at(e, &grown, pose, PB_OBSTACLE_NONE);
        }
        certified += is_free;
        near_contact += is_free && touches;
    }
    /* a malformed promise is refused, not trusted */
    const arc2_motion m = {.start = {30, 75, 0}, .length = 10, .split = 1, .direction = 1};
    const pb_sweep_path bad[] = {{.length = -1, .direction = 1},
                                 {.length = 10, .curvature_min = 0.1, .curvature_max = -0.1, .direction = 1},
                                 {.length = 10, .direction = 2},
                                 {.length = NAN, .direction = 1},
                                 {.length = 10, .direction = 1, .stops = -1}};
    for (size_t i = 0; i <= sizeof bad / sizeof bad[0]; i++) {
        bool is_free = true;
        CHECK_MSG(pb_engine_sweep_path(e, &car, arc2_pose, &m, 10.0,
                                       i < sizeof bad / sizeof bad[0] ? &bad[i] : NULL, PB_OBSTACLE_NONE,
                                       &is_free, NULL, NULL) == PB_ERR_INVALID &&
                      !is_free,
                  "malformed path %zu", i);
    }
    CHECK_MSG(wrong == 0, "%d poses inside certified stretches are not free", wrong);
    CHECK_MSG(certified >= 50 && near_contact >= 10, "certified %d, of them within a pixel of the block %d",
              certified, near_contact);
    CHECK_MSG(poses_path < poses_rate, "sweep poses: %llu with the path's promise, %llu with the rate alone",
              (unsigned long long)poses_path, (unsigned long long)poses_rate);
}

int main(void)
{
    pb_engine *e = load_room();
    CHECK(e != NULL);
    if (e) {
        test_jump_over_block(e);
        test_turn_in_place(e);
        test_obstacle(e);
        test_vehicle_into_block(e);
        test_sweep_path(e);
    }
    pb_engine_destroy(e);
    return pb_test_summary("sweep");
}
