/* The kinodynamic planners' shared parts (kinodynamic.h). */
#include "kinodynamic.h"
#include "core/grow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pb_vehicle_state kd_root(const double *start)
{
    pb_vehicle_state s = pb_vehicle_state_at(start[0], start[1], start[2]);
    s.gear = PB_GEAR_DRIVE;
    s.sleeping = false;
    return s;
}

bool kd_accepts(const pb_engine *engine, char *why, size_t size)
{
    if (pb_engine_get_data(engine, "vehicle") && pb_engine_dim(engine) == 3)
        return true;
    snprintf(why, size,
             "kinodynamic planners drive a vehicle model: engine '%s' has none (use --robot VEHICLE.xml on a "
             "metric "
             "map)",
             pb_engine_name(engine));
    return false;
}

void kd_space_init(kd_space *sp, pb_engine *engine, double dt, int min_steps, int max_steps, double v_min,
                   double v_max)
{
    sp->engine = engine;
    sp->vehicle = *(const pb_vehicle_config *)pb_engine_get_data(engine, "vehicle");
    sp->radius = pb_vehicle_turning_radius(&sp->vehicle);
    sp->dt = dt;
    sp->min_steps = min_steps;
    sp->max_steps = max_steps < min_steps ? min_steps : max_steps;
    sp->v_min = fmax(v_min, sp->vehicle.min_speed);
    sp->v_max = fmin(v_max, sp->vehicle.max_speed);
    for (int i = 0; i < 2; i++) {
        sp->lo[i] = pb_engine_lower(engine)[i];
        sp->hi[i] = pb_engine_upper(engine)[i];
    }
}

double kd_distance(const kd_space *sp, const pb_vehicle_state *s, const double *q)
{
    return hypot(s->x - q[0], s->y - q[1]) + 0.5 * sp->radius * fabs(remainder(s->yaw - q[2], 2 * M_PI));
}

void kd_sample(const kd_space *sp, pb_rng *rng, const double *goal, double goal_bias, double *q)
{
    if (pb_rng_uniform(rng) < goal_bias) {
        q[0] = goal[0];
        q[1] = goal[1];
    } else {
        q[0] = pb_rng_range(rng, sp->lo[0], sp->hi[0]);
        q[1] = pb_rng_range(rng, sp->lo[1], sp->hi[1]);
    }
    q[2] = pb_rng_range(rng, -M_PI, M_PI);
}

int kd_random_control(const kd_space *sp, pb_rng *rng, const pb_vehicle_state *from, pb_control *out)
{
    const int steps = sp->min_steps + (int)pb_rng_below(rng, (uint32_t)(sp->max_steps - sp->min_steps + 1));
    const double duration = steps * sp->dt;
    double target = pb_rng_range(rng, sp->v_min, sp->v_max);
    /* the model never moves against its gear: a vehicle moving one way first stops */
    if ((from->v > 0.01 && target < 0) || (from->v < -0.01 && target > 0))
        target = 0.0;
    const bool reverse = target < 0 || (target == 0 && from->v < 0);
    const double a_max = sp->vehicle.max_acceleration;
    double a = (target - from->v) / duration;
    a = a < -a_max ? -a_max : a > a_max ? a_max : a;
    out->gear = reverse ? PB_GEAR_REVERSE : PB_GEAR_DRIVE;
    out->acceleration = reverse ? -a : a; /* REVERSE drives backwards under a positive input */
    out->steer_angle = pb_rng_range(rng, -sp->vehicle.max_steer, sp->vehicle.max_steer);
    out->duration = duration;
    return steps;
}

int kd_propagate(const kd_space *sp, pb_vehicle_state *s, const pb_control *control, int steps,
                 double *driven)
{
    const pb_vehicle_input in = {.acceleration = control->acceleration,
                                 .steer_angle = control->steer_angle,
                                 .gear = (pb_gear)control->gear,
                                 .signal = PB_SIGNAL_NONE};
    /* one swept motion over the steps; the distance by replaying them (cheap: the model alone) */
    pb_vehicle_state end = *s;
    pb_hit hit;
    const int done =
        pb_vehicle_drive_checked(&sp->vehicle, &end, &in, sp->dt, steps, sp->engine, PB_OBSTACLE_NONE, &hit);
    for (int k = 0; k < done; k++) {
        pb_vehicle_state next = *s;
        pb_vehicle_step(&sp->vehicle, &next, &in, sp->dt);
        *driven += hypot(next.x - s->x, next.y - s->y);
        *s = next;
    }
    return done;
}

pb_status kd_grid_init(kd_grid *g, const kd_space *sp, double cell)
{
    memset(g, 0, sizeof *g);
    g->lo[0] = sp->lo[0];
    g->lo[1] = sp->lo[1];
    g->cell = cell;
    g->heading_weight = 0.5 * sp->radius;
    g->width = (int)fmin(4096.0, fmax(1.0, ceil((sp->hi[0] - sp->lo[0]) / cell)));
    g->height = (int)fmin(4096.0, fmax(1.0, ceil((sp->hi[1] - sp->lo[1]) / cell)));
    const size_t cells = (size_t)g->width * (size_t)g->height;
    g->head = malloc(cells * sizeof *g->head);
    if (!g->head)
        return PB_ERR_NOMEM;
    memset(g->head, 0xff, cells * sizeof *g->head);
    return PB_OK;
}

void kd_grid_finish(kd_grid *g)
{
    free(g->head);
    free(g->point);
    memset(g, 0, sizeof *g);
}

/* The cell of a coordinate, clamped to the grid (points outside it lie in its border cells,
 * which keeps the ring bound a lower bound: they are only farther than it says). */
static int grid_cell(double v, double lo, double cell, int n)
{
    const double c = floor((v - lo) / cell);
    return c < 0 ? 0 : c >= n ? n - 1 : (int)c;
}

pb_status kd_grid_add(kd_grid *g, double x, double y, double yaw)
{
    kd_grid_point *grown = pb_reserve(g->point, &g->cap, g->n + 1, sizeof *grown, 1024);
    if (!grown || g->n >= UINT32_MAX)
        return PB_ERR_NOMEM;
    g->point = grown;
    const uint32_t id = (uint32_t)g->n++;
    const size_t c = (size_t)grid_cell(y, g->lo[1], g->cell, g->height) * (size_t)g->width +
                     (size_t)grid_cell(x, g->lo[0], g->cell, g->width);
    g->point[id] = (kd_grid_point){x, y, yaw, g->head[c]};
    g->head[c] = id;
    return PB_OK;
}

static double grid_distance(const kd_grid *g, uint32_t id, const double *q)
{
    const kd_grid_point *p = &g->point[id];
    return hypot(p->x - q[0], p->y - q[1]) + g->heading_weight * fabs(remainder(p->yaw - q[2], 2 * M_PI));
}

/* The k-th cell of ring r around (cx, cy) (the cells at Chebyshev distance r: 1 for r = 0, else
 * 8 r: the top and bottom rows, then the sides); false when it lies off the grid. */
static bool ring_cell(const kd_grid *g, int cx, int cy, int r, int k, size_t *cell)
{
    int x, y;
    if (r == 0) {
        x = cx;
        y = cy;
    } else if (k < 2 * r + 1) {
        x = cx - r + k;
        y = cy - r;
    } else if (k < 4 * r + 2) {
        x = cx - r + (k - 2 * r - 1);
        y = cy + r;
    } else {
        const int j = k - 4 * r - 2;
        x = j % 2 ? cx + r : cx - r;
        y = cy - r + 1 + j / 2;
    }
    if (x < 0 || y < 0 || x >= g->width || y >= g->height)
        return false;
    *cell = (size_t)y * (size_t)g->width + (size_t)x;
    return true;
}

/* Every point of ring r's cells lies at least this far from q (in the plane). */
static double ring_bound(const kd_grid *g, int r)
{
    return r <= 1 ? 0.0 : (r - 1) * g->cell;
}

/* The one ring walk behind both queries: without `cost`, the nearest id (the rings stop once
 * they lie farther than the best so far); with it, the cheapest id within `radius` (the rings stop
 * past the radius). Only ids with active[id] when `active` is given; ties go to the smaller id. */
static uint32_t grid_search(const kd_grid *g, const double *q, double radius, const bool *active,
                            const double *cost, double *dist)
{
    const int cx = grid_cell(q[0], g->lo[0], g->cell, g->width),
              cy = grid_cell(q[1], g->lo[1], g->cell, g->height);
    const int rings = g->width > g->height ? g->width : g->height;
    uint32_t best = UINT32_MAX;
    double best_d = INFINITY;
    for (int r = 0; r <= rings && ring_bound(g, r) <= (cost ? radius : best_d); r++) {
        size_t cell;
        for (int k = 0; k < (r == 0 ? 1 : 8 * r); k++)
            for (uint32_t id = ring_cell(g, cx, cy, r, k, &cell) ? g->head[cell] : UINT32_MAX;
                 id != UINT32_MAX; id = g->point[id].next) {
                if (active && !active[id])
                    continue;
                const double d = grid_distance(g, id, q);
                const bool better = cost ? d <= radius && (best == UINT32_MAX || cost[id] < cost[best] ||
                                                           (cost[id] == cost[best] && id < best))
                                         : d < best_d || (d == best_d && id < best);
                if (better) {
                    best_d = d;
                    best = id;
                }
            }
    }
    if (dist)
        *dist = best_d;
    return best;
}

uint32_t kd_grid_nearest(const kd_grid *g, const double *q, const bool *active, double *dist)
{
    return grid_search(g, q, INFINITY, active, NULL, dist);
}

uint32_t kd_grid_cheapest(const kd_grid *g, const double *q, double radius, const bool *active,
                          const double *cost)
{
    return grid_search(g, q, radius, active, cost, NULL);
}

pb_status kd_tree_init(kd_tree *t, const pb_vehicle_state *root)
{
    memset(t, 0, sizeof *t);
    return kd_tree_add(t, root, UINT32_MAX, &(pb_control){0}, 0.0) == UINT32_MAX ? PB_ERR_NOMEM : PB_OK;
}

void kd_tree_finish(kd_tree *t)
{
    free(t->state);
    free(t->parent);
    free(t->control);
    free(t->cost);
    free(t->active);
    memset(t, 0, sizeof *t);
}

uint32_t kd_tree_add(kd_tree *t, const pb_vehicle_state *s, uint32_t parent, const pb_control *control,
                     double cost)
{
    if (t->n == t->cap) {
        const uint32_t cap = t->cap ? 2 * t->cap : 1024;
        pb_vehicle_state *state = realloc(t->state, cap * sizeof *state);
        if (state)
            t->state = state;
        uint32_t *par = state ? realloc(t->parent, cap * sizeof *par) : NULL;
        if (par)
            t->parent = par;
        pb_control *ctl = par ? realloc(t->control, cap * sizeof *ctl) : NULL;
        if (ctl)
            t->control = ctl;
        double *c = ctl ? realloc(t->cost, cap * sizeof *c) : NULL;
        if (c)
            t->cost = c;
        bool *act = c ? realloc(t->active, cap * sizeof *act) : NULL;
        if (!act)
            return UINT32_MAX;
        t->active = act;
        t->cap = cap;
    }
    const uint32_t i = t->n++;
    t->state[i] = *s;
    t->parent[i] = parent;
    t->control[i] = *control;
    t->cost[i] = cost;
    t->active[i] = true;
    return i;
}

pb_status kd_write_result(const kd_space *sp, const kd_tree *t, uint32_t node, pb_solve_ctx *ctx,
                          pb_result *result)
{
    size_t len = 0;
    for (uint32_t v = node; v != UINT32_MAX; v = t->parent[v])
        len++;
    uint32_t *chain = malloc(len * sizeof *chain);
    if (!chain)
        return PB_ERR_NOMEM;
    size_t i = len;
    for (uint32_t v = node; v != UINT32_MAX; v = t->parent[v])
        chain[--i] = v;
    pb_path_clear(&result->path);
    result->n_controls = 0;
    pb_status st = PB_OK;
    for (i = 0; i < len && st == PB_OK; i++) {
        const pb_vehicle_state *s = &t->state[chain[i]];
        const double q[3] = {s->x, s->y, s->yaw};
        st = pb_path_append(&result->path, q);
        if (st == PB_OK && i > 0)
            st = pb_result_add_control(result, &t->control[chain[i]]);
    }
    free(chain);
    if (st != PB_OK)
        return st;
    result->control_dt = sp->dt;
    result->cost = t->cost[node];
    result->outcome = PB_OUTCOME_EXACT;
    pb_solve_report_solution(ctx, result, result->cost, &result->path);
    return PB_OK;
}
