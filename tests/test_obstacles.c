/* Dynamic obstacles and footprint checks of the image engine (issue 8): the layer that
 * makes spawned entities obstacles for each other and for planners. Positions are on
 * maps/room1.png: the border is 5 px thick (x 0..4 occupied at y = 40), the middle room's west
 * wall starts at x = 165 (y = 40), and a block fills x 70..124, y 60..89. */
#include "harness.h"
#include "planbench/planbench.h"

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

static pb_hit check_at(pb_engine *e, const pb_footprint *fp, double x, double y, double yaw, uint32_t ignore)
{
    const double pose[3] = {x, y, yaw};
    pb_hit hit;
    CHECK(pb_engine_footprint_check(e, fp, pose, ignore, &hit) == PB_OK);
    return hit;
}

static void test_map_rasterised(pb_engine *e)
{
    const pb_footprint disc = {.type = PB_FOOTPRINT_DISC, .radius = 8};
    /* the disc reaches x = 5.0 exactly: free; 0.1 px further it touches pixel column 4 */
    CHECK(check_at(e, &disc, 13.0, 40, 0, PB_OBSTACLE_NONE).kind == PB_HIT_NONE);
    pb_hit hit = check_at(e, &disc, 12.9, 40, 0, PB_OBSTACLE_NONE);
    CHECK_MSG(hit.kind == PB_HIT_MAP && hit.pixel_x == 4 && abs(hit.pixel_y - 40) <= 2, "kind %d pixel %d,%d",
              (int)hit.kind, hit.pixel_x, hit.pixel_y);
    CHECK(check_at(e, &disc, 500, 40, 0, PB_OBSTACLE_NONE).kind == PB_HIT_OUTSIDE);
    CHECK(check_at(e, &disc, NAN, 40, 0, PB_OBSTACLE_NONE).kind == PB_HIT_INVALID);
    const pb_footprint bad = {.type = PB_FOOTPRINT_DISC, .radius = -1};
    CHECK(check_at(e, &bad, 40, 40, 0, PB_OBSTACLE_NONE).kind == PB_HIT_INVALID);

    /* the exact test, not the bounding box: a thin rectangle at -45 degrees whose box covers
     * the block's corner pixel (124, 89) but whose body passes ten pixels away */
    const pb_footprint thin = {.type = PB_FOOTPRINT_RECT, .half_length = 15, .half_width = 1};
    const double pose[3] = {132, 97, -M_PI / 4};
    double lo[2], hi[2];
    pb_footprint_aabb(&thin, pose, lo, hi);
    CHECK(lo[0] < 124 && lo[1] < 89 && !pb_engine_feasible(e, (double[]){124.5, 89.5}));
    CHECK(check_at(e, &thin, 132, 97, -M_PI / 4, PB_OBSTACLE_NONE).kind == PB_HIT_NONE);
    /* turned by 90 degrees it runs into the block */
    CHECK(check_at(e, &thin, 132, 97, M_PI / 4, PB_OBSTACLE_NONE).kind == PB_HIT_MAP);

    /* the stick arm's links: reaching east from x = 150 crosses the wall at x = 165 */
    const pb_footprint arm = {.type = PB_FOOTPRINT_ARM, .link1 = 30, .link2 = 25, .joint2 = 0.0};
    hit = check_at(e, &arm, 150, 40, 0, PB_OBSTACLE_NONE);
    CHECK(hit.kind == PB_HIT_MAP && hit.pixel_x >= 165 && hit.pixel_x <= 169);
    CHECK(check_at(e, &arm, 100, 30, 0, PB_OBSTACLE_NONE).kind == PB_HIT_NONE);
}

static void test_dynamic_layer(pb_engine *e)
{
    const pb_footprint disc = {.type = PB_FOOTPRINT_DISC, .radius = 8};
    const double p1[3] = {40, 40, 0}, p2[3] = {40, 110, 0};
    const double centre[2] = {40, 40}, left[2] = {20, 40}, right[2] = {60, 40};
    /* before: the point C-space is free at both places */
    CHECK(pb_engine_feasible(e, centre) && pb_engine_visible(e, left, right));
    CHECK(pb_engine_feasible(e, (double[]){40, 110}));
    uint32_t a = PB_OBSTACLE_NONE, b = PB_OBSTACLE_NONE;
    CHECK(pb_engine_obstacle_add(&a, e, &disc, p1) == PB_OK && a != PB_OBSTACLE_NONE);
    /* the obstacle blocks points and edges (what planners see) */
    CHECK(!pb_engine_feasible(e, centre));
    CHECK(pb_engine_feasible(e, left));
    CHECK(!pb_engine_visible(e, left, right));
    /* and footprints; its own id is ignored when asked */
    pb_hit hit = check_at(e, &disc, 55, 40, 0, PB_OBSTACLE_NONE);
    CHECK(hit.kind == PB_HIT_OBSTACLE && hit.obstacle_id == a);
    CHECK(check_at(e, &disc, 56.01, 40, 0, PB_OBSTACLE_NONE).kind == PB_HIT_NONE);
    CHECK(check_at(e, &disc, 45, 40, 0, a).kind == PB_HIT_NONE);
    /* moving frees the old place and blocks the new one */
    CHECK(pb_engine_obstacle_move(e, a, p2) == PB_OK);
    CHECK(pb_engine_feasible(e, centre) && pb_engine_visible(e, left, right));
    CHECK(!pb_engine_feasible(e, (double[]){40, 110}));
    /* a second obstacle, then removal; stale ids are refused */
    CHECK(pb_engine_obstacle_add(&b, e, &disc, p1) == PB_OK && b != a);
    CHECK(pb_engine_obstacle_remove(e, a) == PB_OK);
    CHECK(pb_engine_obstacle_remove(e, a) == PB_ERR_NOT_FOUND);
    CHECK(pb_engine_obstacle_move(e, a, p1) == PB_ERR_NOT_FOUND);
    CHECK(pb_engine_feasible(e, (double[]){40, 110}));
    uint32_t c = PB_OBSTACLE_NONE;
    CHECK(pb_engine_obstacle_add(&c, e, &disc, p2) == PB_OK && c != a);
    CHECK(pb_engine_obstacle_remove(e, b) == PB_OK && pb_engine_obstacle_remove(e, c) == PB_OK);
    CHECK(pb_engine_feasible(e, centre));
    const pb_footprint bad = {.type = PB_FOOTPRINT_RECT, .half_length = INFINITY, .half_width = 1};
    CHECK(pb_engine_obstacle_add(&c, e, &bad, p1) == PB_ERR_INVALID);
}

static void test_geometry(void)
{
    const pb_footprint disc = {.type = PB_FOOTPRINT_DISC, .radius = 5};
    const pb_footprint rect = {.type = PB_FOOTPRINT_RECT, .half_length = 10, .half_width = 2};
    /* touching counts */
    CHECK(pb_footprint_overlap(&disc, (double[]){0, 0, 0}, &disc, (double[]){10, 0, 0}));
    CHECK(!pb_footprint_overlap(&disc, (double[]){0, 0, 0}, &disc, (double[]){10.001, 0, 0}));
    /* a rectangle's corner region: the disc misses the rotated rectangle's end */
    CHECK(pb_footprint_overlap(&rect, (double[]){0, 0, 0}, &disc, (double[]){14.9, 0, 0}));
    CHECK(!pb_footprint_overlap(&rect, (double[]){0, 0, M_PI / 2}, &disc, (double[]){14.9, 0, 0}));
    /* crossing rectangles whose corners are all outside each other */
    CHECK(pb_footprint_overlap(&rect, (double[]){0, 0, 0}, &rect, (double[]){0, 0, M_PI / 2}));
}

static void test_unsupported(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/maps/room1.png", pb_test_source_root());
    pb_engine *arm = NULL;
    CHECK(pb_engine_load(&arm, "stickarm4d", path, NULL, 0, NULL) == PB_OK);
    const pb_footprint disc = {.type = PB_FOOTPRINT_DISC, .radius = 5};
    uint32_t id;
    pb_hit hit;
    CHECK(arm && pb_engine_obstacle_add(&id, arm, &disc, (double[]){40, 40, 0}) == PB_ERR_UNSUPPORTED);
    CHECK(arm && pb_engine_footprint_check(arm, &disc, (double[]){40, 40, 0}, PB_OBSTACLE_NONE, &hit) ==
                     PB_ERR_UNSUPPORTED);
    pb_engine_destroy(arm);
}

int main(void)
{
    pb_engine *e = load_room();
    CHECK(e != NULL);
    if (e) {
        test_map_rasterised(e);
        test_dynamic_layer(e);
    }
    pb_engine_destroy(e);
    test_geometry();
    test_unsupported();
    return pb_test_summary("obstacles");
}
