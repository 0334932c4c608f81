/* The simulation with thousands of entities (issue 21): the entity-name table, the event queue,
 * the obstacle-to-entity map and the bounds filter, each checked against what the test keeps
 * itself. The world: an empty map_server map of 160 x 160 m (0.25 m cells) written to a
 * temporary folder; the entities: metric disc robots (radius 0.25 m) on a 2 m grid. */
#include "sim_fixture.h"

#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define SIDE   75 /* grid places to a row: 75 x 75 of them on the map */
#define PLACES (SIDE * SIDE)
#define RADIUS 0.25 /* of disc_robot_m */

static char map_dir[] = "/tmp/pb-test-scale-XXXXXX";
static char map_yaml[128];

static void write_map(void)
{
    if (!mkdtemp(map_dir))
        abort();
    char path[128];
    const int n = 640; /* 160 m at 0.25 m */
    snprintf(path, sizeof path, "%s/open.pgm", map_dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fprintf(f, "P5\n%d %d\n255\n", n, n);
    for (int i = 0; i < n * n; i++)
        fputc(254, f);
    fclose(f);
    snprintf(map_yaml, sizeof map_yaml, "%s/open.yaml", map_dir);
    f = fopen(map_yaml, "w");
    if (!f)
        abort();
    fputs("image: open.pgm\nresolution: 0.25\norigin: [0.0, 0.0, 0.0]\nnegate: 0\noccupied_thresh: 0.65\n"
          "free_thresh: 0.196\n",
          f);
    fclose(f);
}

static void remove_map(void)
{
    char path[160];
    snprintf(path, sizeof path, "%s/open.pgm", map_dir);
    unlink(path);
    unlink(map_yaml);
    rmdir(map_dir);
}

static pb_sim *make_open(void)
{
    return make_sim_in(map_dir, map_yaml);
}

static double place_x(int place)
{
    return 1.0 + 2.0 * (place % SIDE);
}

static double place_y(int place)
{
    return 1.0 + 2.0 * (place / SIDE);
}

static pb_sim_spawn_response spawn_disc(pb_sim *sim, const char *name, double x, double y)
{
    pb_sim_spawn_request rq = {.name = name, .uri = "model://disc_robot_m", .initial_pose = at(x, y, 0)};
    pb_sim_spawn_response rs;
    pb_sim_spawn_entity(sim, &rq, &rs);
    return rs;
}

static uint32_t next(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*state >> 33);
}

static bool has_entity_named(pb_sim *sim, const char *name)
{
    pb_sim_result r;
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, name, &r, &st);
    return r.result == PB_SIM_RESULT_OK;
}

/* The entities the test believes are in the world, in spawn order. */
typedef struct roster {
    char name[PLACES][16];
    int place[PLACES];
    int n;
} roster;

/* Does the world hold exactly `r`, in its order, each where it was put? */
static bool world_is(pb_sim *sim, const roster *r)
{
    pb_sim_result res;
    const char *const *names;
    size_t n;
    pb_sim_get_entities(sim, NULL, &res, &names, &n);
    if (res.result != PB_SIM_RESULT_OK || n != (size_t)r->n)
        return false;
    for (int i = 0; i < r->n; i++) {
        if (strcmp(names[i], r->name[i]) != 0)
            return false;
        pb_sim_entity_state st;
        pb_sim_get_entity_state(sim, r->name[i], &res, &st);
        if (res.result != PB_SIM_RESULT_OK || st.pose.position.x != place_x(r->place[i]) ||
            st.pose.position.y != place_y(r->place[i]))
            return false;
    }
    return true;
}

/* Spawns and deletions in random order (deletions from the middle renumber the entities after
 * them): every name is found where it was put, deleted ones are not, GetEntities keeps spawn
 * order, a taken name is refused, and a pose on an entity names that entity. */
static void test_names_through_spawns_and_deletions(void)
{
    pb_sim *sim = make_open();
    static roster r;
    static bool taken[PLACES];
    static char gone[64][16];
    int n_gone = 0, serial = 0;
    memset(taken, 0, sizeof taken);
    r.n = 0;
    uint64_t rng = 21;
    for (int i = 0; i < 3000; i++) {
        snprintf(r.name[r.n], sizeof r.name[0], "e%d", serial++);
        r.place[r.n] = i;
        taken[i] = true;
        CHECK(spawn_disc(sim, r.name[r.n], place_x(i), place_y(i)).result.result == PB_SIM_RESULT_OK);
        r.n++;
    }
    CHECK(world_is(sim, &r));
    for (int round = 0; round < 8; round++) {
        for (int op = 0; op < 250; op++) {
            if (next(&rng) % 2 && r.n > 0) {
                const int k = (int)(next(&rng) % (uint32_t)r.n);
                pb_sim_result res;
                pb_sim_delete_entity(sim, r.name[k], &res);
                CHECK(res.result == PB_SIM_RESULT_OK);
                snprintf(gone[n_gone++ % 64], sizeof gone[0], "%s", r.name[k]);
                taken[r.place[k]] = false;
                memmove(&r.name[k], &r.name[k + 1], (size_t)(r.n - k - 1) * sizeof r.name[0]);
                memmove(&r.place[k], &r.place[k + 1], (size_t)(r.n - k - 1) * sizeof r.place[0]);
                r.n--;
            } else {
                int p = (int)(next(&rng) % PLACES);
                while (taken[p])
                    p = (p + 1) % PLACES;
                /* long names too: they live outside the entity's record */
                snprintf(r.name[r.n], sizeof r.name[0], serial % 3 ? "e%d" : "long_name_%05d", serial);
                serial++;
                r.place[r.n] = p;
                taken[p] = true;
                CHECK(spawn_disc(sim, r.name[r.n], place_x(p), place_y(p)).result.result == PB_SIM_RESULT_OK);
                r.n++;
            }
        }
        CHECK_MSG(world_is(sim, &r), "round %d: %d entities", round, r.n);
        for (int g = 0; g < 64 && g < n_gone; g++)
            CHECK_MSG(!has_entity_named(sim, gone[g]), "'%s' was deleted", gone[g]);
        const int k = (int)(next(&rng) % (uint32_t)r.n);
        const pb_sim_spawn_response again = spawn_disc(sim, r.name[k], 0.5, 159.5);
        CHECK(again.result.result == PB_SIM_SPAWN_NAME_NOT_UNIQUE);
        /* the obstacle the engine reports is mapped back to the right entity */
        const pb_sim_spawn_response onto =
            spawn_disc(sim, "intruder", place_x(r.place[k]) + 0.1, place_y(r.place[k]));
        char want[64];
        snprintf(want, sizeof want, "overlaps entity '%s'", r.name[k]);
        CHECK_MSG(onto.result.result == PB_SIM_SPAWN_INVALID_POSE && strstr(onto.result.error_message, want),
                  "'%s' (want %s)", onto.result.error_message, want);
    }
    pb_sim_destroy(sim);
}

static void count_events(pb_sim_event_kind kind, const char *entity, void *payload)
{
    roster *got = payload;
    if (got->n < PLACES) {
        snprintf(got->name[got->n], sizeof got->name[0], "%s", entity);
        got->place[got->n++] = (int)kind;
    }
}

/* Nobody drains: the queue keeps the newest 4,096 events, oldest first. */
static void test_event_queue_keeps_the_newest(void)
{
    pb_sim *sim = make_open();
    pb_sim_drain_events(sim, NULL, NULL);
    const int n = 4500;
    char name[16];
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "e%d", i);
        CHECK(spawn_disc(sim, name, place_x(i), place_y(i)).result.result == PB_SIM_RESULT_OK);
    }
    static roster got;
    got.n = 0;
    pb_sim_drain_events(sim, count_events, &got);
    CHECK(got.n == 4096);
    bool in_order = true;
    for (int i = 0; i < got.n; i++) {
        snprintf(name, sizeof name, "e%d", n - 4096 + i);
        in_order &= strcmp(got.name[i], name) == 0 && got.place[i] == PB_SIM_EVENT_CREATED;
    }
    CHECK(in_order);
    /* drained: the next events start a fresh queue */
    pb_sim_result res;
    pb_sim_delete_entity(sim, "e10", &res);
    pb_sim_delete_entity(sim, "e4499", &res);
    got.n = 0;
    pb_sim_drain_events(sim, count_events, &got);
    CHECK(got.n == 2 && !strcmp(got.name[0], "e10") && !strcmp(got.name[1], "e4499") &&
          got.place[0] == PB_SIM_EVENT_DELETED && got.place[1] == PB_SIM_EVENT_DELETED);
    pb_sim_destroy(sim);
}

/* How far a disc at (x, y) is from a box [lo, hi] in the plane (negative inside: into it). */
static double disc_box_gap(double x, double y, const double *lo, const double *hi)
{
    const double dx = fmax(fmax(lo[0] - x, x - hi[0]), 0.0), dy = fmax(fmax(lo[1] - y, y - hi[1]), 0.0);
    return hypot(dx, dy) - RADIUS;
}

/* GetEntities with box and sphere bounds against a direct test of each disc (entities within
 * 1e-6 m of touching a region are not judged: either answer is right). */
static void test_bounds_filter_against_geometry(void)
{
    pb_sim *sim = make_open();
    enum { N = 2000 };
    static double xs[N], ys[N];
    char name[16];
    uint64_t rng = 7;
    for (int i = 0; i < N; i++) {
        /* off the grid by up to 0.6 m: discs 0.8 m apart at the least */
        xs[i] = place_x(i) + ((double)(next(&rng) % 1201) - 600.0) / 1000.0;
        ys[i] = place_y(i) + ((double)(next(&rng) % 1201) - 600.0) / 1000.0;
        snprintf(name, sizeof name, "e%d", i);
        CHECK(spawn_disc(sim, name, xs[i], ys[i]).result.result == PB_SIM_RESULT_OK);
    }
    int judged = 0, wrong = 0, found_total = 0;
    for (int q = 0; q < 300; q++) {
        pb_sim_entity_filters f = {0};
        double lo[2], hi[2], centre[2], radius = 0.0;
        const bool sphere = q % 2;
        const double cx = (double)(next(&rng) % 60000) / 1000.0, cy = (double)(next(&rng) % 60000) / 1000.0;
        if (sphere) {
            radius = (double)(next(&rng) % 5000) / 1000.0;
            centre[0] = cx;
            centre[1] = cy;
            f.bounds = (pb_sim_bounds){.type = PB_SIM_BOUNDS_SPHERE, .n_points = 2};
            f.bounds.points[0] = (pb_sim_vec3){cx, cy, 0};
            f.bounds.points[1] = (pb_sim_vec3){radius, 0, 0};
        } else {
            lo[0] = cx;
            lo[1] = cy;
            hi[0] = cx + (double)(next(&rng) % 8000) / 1000.0;
            hi[1] = cy + (double)(next(&rng) % 8000) / 1000.0;
            f.bounds = (pb_sim_bounds){.type = PB_SIM_BOUNDS_BOX, .n_points = 2};
            /* corners given the other way round: the filter orders them */
            f.bounds.points[0] = (pb_sim_vec3){hi[0], lo[1], -1};
            f.bounds.points[1] = (pb_sim_vec3){lo[0], hi[1], 1};
        }
        pb_sim_result res;
        const char *const *names;
        size_t n;
        pb_sim_get_entities(sim, &f, &res, &names, &n);
        CHECK(res.result == PB_SIM_RESULT_OK);
        found_total += (int)n;
        size_t k = 0; /* names come in spawn order: walk them beside the entities */
        for (int i = 0; i < N; i++) {
            snprintf(name, sizeof name, "e%d", i);
            const bool listed = k < n && strcmp(names[k], name) == 0;
            k += listed;
            const double gap = sphere ? hypot(xs[i] - centre[0], ys[i] - centre[1]) - radius - RADIUS
                                      : disc_box_gap(xs[i], ys[i], lo, hi);
            if (fabs(gap) < 1e-6)
                continue;
            judged++;
            if (listed != (gap < 0.0)) {
                wrong++;
                CHECK_MSG(false, "region %d (%s): '%s' at gap %g %s", q, sphere ? "sphere" : "box", name, gap,
                          listed ? "listed" : "missed");
            }
        }
        CHECK_MSG(k == n, "region %d: %zu names, %zu of them in spawn order", q, n, k);
    }
    CHECK(judged > 100000 && wrong == 0);
    CHECK(found_total > 300); /* the regions found entities, not only empty space */
    pb_sim_destroy(sim);
}

int main(void)
{
    sim_fixture_init();
    write_map();
    test_names_through_spawns_and_deletions();
    test_event_queue_keeps_the_newest();
    test_bounds_filter_against_geometry();
    remove_map();
    return pb_test_summary("sim_scale");
}
