/* Shared by the simulation service tests (test_sim_services.c, test_sim_plan.c,
 * test_sim_scene.c): a simulation on worlds/sim_room1.xml (or another world) and small
 * request helpers. Included by one file of each test. */
#ifndef PB_TEST_SIM_FIXTURE_H
#define PB_TEST_SIM_FIXTURE_H

#include "harness.h"
#include "planbench/planbench.h"
#include "planbench/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static char worlds_dir[1024], robots_dir[1024];

/* Point worlds_dir and robots_dir at the source tree. */
static inline void sim_fixture_init(void)
{
    snprintf(worlds_dir, sizeof worlds_dir, "%s/worlds", pb_test_source_root());
    snprintf(robots_dir, sizeof robots_dir, "%s/robots", pb_test_source_root());
}

/* A simulation of world file `world` (a <simworld> or a map), its worlds folder `worlds`;
 * aborts when it cannot be made. */
static inline pb_sim *make_sim_in(const char *worlds, const char *world)
{
    pb_sim_config c = pb_sim_config_default();
    c.worlds_dir = worlds;
    c.robots_dir = robots_dir;
    c.world = world;
    pb_sim *sim = NULL;
    pb_diag d = {0};
    if (pb_sim_create(&sim, &c, &d) != PB_OK) {
        fprintf(stderr, "create: %s\n", d.message);
        abort();
    }
    return sim;
}

/* A simulation with worlds/`file` loaded; aborts when it cannot be made. */
static inline pb_sim *make_world(const char *file)
{
    char world[1100];
    snprintf(world, sizeof world, "%s/%s", worlds_dir, file);
    return make_sim_in(worlds_dir, world);
}

/* A simulation with worlds/sim_room1.xml loaded. */
static inline pb_sim *make(void)
{
    return make_world("sim_room1.xml");
}

/* A planar pose: position (x, y), yaw about z as a quaternion. */
static inline pb_sim_pose at(double x, double y, double yaw)
{
    return (pb_sim_pose){{x, y, 0}, 0, 0, sin(yaw / 2), cos(yaw / 2)};
}

/* An entity's x, NAN when it cannot be read. */
static inline double x_of(pb_sim *sim, const char *entity)
{
    pb_sim_result r;
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, entity, &r, &st);
    return r.result == PB_SIM_RESULT_OK ? st.pose.position.x : NAN;
}

/* An entity's state (a failed check when it cannot be read). */
static inline pb_sim_entity_state state_of(pb_sim *sim, const char *entity)
{
    pb_sim_result r;
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, entity, &r, &st);
    CHECK(r.result == PB_SIM_RESULT_OK);
    return st;
}

/* The yaw of a planar pose's quaternion. */
static inline double yaw_of(const pb_sim_pose *p)
{
    return 2 * atan2(p->qz, p->qw);
}

#endif
