/* Path shortcutting: random shortcuts between points inside edges, then a greedy pass, then
 * removal of duplicate and collinear waypoints. Every edge that is new is checked with
 * pb_engine_visible in the direction the path runs; a change is kept only when it makes the
 * path strictly shorter (or, for removals, no longer), so the cost never increases. */
#include "planbench/path.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cumulative lengths: cum[i] = length of the path up to waypoint i. */
static bool cumulate(const pb_path *path, const pb_engine *engine, double **cum, size_t *capacity)
{
    if (path->n > *capacity) {
        double *c = realloc(*cum, path->n * sizeof *c);
        if (!c)
            return false;
        *cum = c;
        *capacity = path->n;
    }
    (*cum)[0] = 0.0;
    for (size_t i = 1; i < path->n; i++)
        (*cum)[i] = (*cum)[i - 1] + pb_engine_distance(engine, pb_path_at(path, i - 1), pb_path_at(path, i));
    return true;
}

/* The segment holding arc length s: the largest i < n - 1 with cum[i] <= s. */
static size_t locate(const double *cum, size_t n, double s)
{
    size_t lo = 0, hi = n - 1; /* cum[lo] <= s, answer in [lo, hi) */
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (cum[mid] <= s)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Append q to out unless it equals the last configuration. */
static pb_status append_distinct(pb_path *out, const double *q)
{
    if (out->n > 0 && memcmp(pb_path_at(out, out->n - 1), q, (size_t)out->dim * sizeof(double)) == 0)
        return PB_OK;
    return pb_path_append(out, q);
}

/* One random shortcut: points a (in segment i) and b (in segment j > i) joined directly when
 * the three new edges q_i -> a, a -> b, b -> q_{j+1} are free and the path gets shorter. A
 * point inside an edge need not see that edge's ends along the same pixels (a Bresenham
 * line of a sub-segment is not a subset of the segment's), hence the checks of the pieces. */
static pb_status random_shortcut(pb_path *path, pb_path *tmp, pb_engine *engine, pb_rng *rng,
                                 const double *cum, bool *changed)
{
    const size_t n = path->n;
    const double total = cum[n - 1];
    double s1 = pb_rng_uniform(rng) * total, s2 = pb_rng_uniform(rng) * total;
    if (s1 > s2) {
        const double t = s1;
        s1 = s2;
        s2 = t;
    }
    const size_t i = locate(cum, n, s1), j = locate(cum, n, s2);
    if (j <= i)
        return PB_OK;
    double a[PB_MAX_DIM], b[PB_MAX_DIM];
    const double len_i = cum[i + 1] - cum[i], len_j = cum[j + 1] - cum[j];
    pb_engine_interpolate(engine, pb_path_at(path, i), pb_path_at(path, i + 1),
                          len_i > 0 ? (s1 - cum[i]) / len_i : 0, a);
    pb_engine_interpolate(engine, pb_path_at(path, j), pb_path_at(path, j + 1),
                          len_j > 0 ? (s2 - cum[j]) / len_j : 0, b);
    const double *qi = pb_path_at(path, i), *qj1 = pb_path_at(path, j + 1);
    const double old_len = cum[j + 1] - cum[i];
    const double new_len = pb_engine_distance(engine, qi, a) + pb_engine_distance(engine, a, b) +
                           pb_engine_distance(engine, b, qj1);
    if (!(new_len < old_len))
        return PB_OK;
    if (!pb_engine_visible(engine, a, b) || !pb_engine_visible(engine, qi, a) ||
        !pb_engine_visible(engine, b, qj1))
        return PB_OK;
    pb_path_clear(tmp);
    pb_status st = PB_OK;
    for (size_t k = 0; k <= i && st == PB_OK; k++)
        st = pb_path_append(tmp, pb_path_at(path, k));
    if (st == PB_OK)
        st = append_distinct(tmp, a);
    if (st == PB_OK)
        st = append_distinct(tmp, b);
    for (size_t k = j + 1; k < n && st == PB_OK; k++)
        st = append_distinct(tmp, pb_path_at(path, k));
    if (st == PB_OK)
        st = pb_path_copy(path, tmp);
    *changed = st == PB_OK;
    return st;
}

/* From each kept waypoint, jump to the farthest later waypoint it sees, when that is no
 * longer than the way through the waypoints between. */
static pb_status greedy_pass(pb_path *path, pb_path *tmp, pb_engine *engine, const double *cum)
{
    const size_t n = path->n;
    pb_path_clear(tmp);
    pb_status st = pb_path_append(tmp, pb_path_at(path, 0));
    size_t i = 0;
    while (st == PB_OK && i < n - 1) {
        size_t next = i + 1;
        for (size_t j = n - 1; j > i + 1; j--) {
            const double direct = pb_engine_distance(engine, pb_path_at(path, i), pb_path_at(path, j));
            if (direct <= cum[j] - cum[i] &&
                pb_engine_visible(engine, pb_path_at(path, i), pb_path_at(path, j))) {
                next = j;
                break;
            }
        }
        st = pb_path_append(tmp, pb_path_at(path, next));
        i = next;
    }
    return st == PB_OK ? pb_path_copy(path, tmp) : st;
}

pb_status pb_path_simplify(pb_path *path, pb_engine *engine, pb_rng *rng, int max_random_tries,
                           double *cost_before, double *cost_after)
{
    const double before = pb_path_length(path, engine);
    if (cost_before)
        *cost_before = before;
    if (cost_after)
        *cost_after = before;
    if (path->n < 3)
        return PB_OK;

    pb_path original, tmp;
    pb_path_init(&original, path->dim);
    pb_path_init(&tmp, path->dim);
    double *cum = NULL;
    size_t cum_capacity = 0;
    pb_status st = pb_path_copy(&original, path);
    if (st == PB_OK && !cumulate(path, engine, &cum, &cum_capacity))
        st = PB_ERR_NOMEM;

    for (int attempt = 0; st == PB_OK && attempt < max_random_tries && path->n >= 3; attempt++) {
        bool changed = false;
        st = random_shortcut(path, &tmp, engine, rng, cum, &changed);
        if (st == PB_OK && changed && !cumulate(path, engine, &cum, &cum_capacity))
            st = PB_ERR_NOMEM;
    }
    if (st == PB_OK && path->n >= 3)
        st = greedy_pass(path, &tmp, engine, cum);

    /* Duplicates and collinear waypoints: drop b between a and c when a -> c is free and no
     * longer than a -> b -> c. */
    if (st == PB_OK && path->n >= 3) {
        pb_path_clear(&tmp);
        st = pb_path_append(&tmp, pb_path_at(path, 0));
        for (size_t k = 1; st == PB_OK && k + 1 < path->n; k++) {
            const double *a = pb_path_at(&tmp, tmp.n - 1), *b = pb_path_at(path, k),
                         *c = pb_path_at(path, k + 1);
            const double via = pb_engine_distance(engine, a, b) + pb_engine_distance(engine, b, c);
            const double direct = pb_engine_distance(engine, a, c);
            if (direct <= via && direct >= via * (1.0 - 1e-12) && pb_engine_visible(engine, a, c))
                continue;
            st = pb_path_append(&tmp, b);
        }
        if (st == PB_OK)
            st = pb_path_append(&tmp, pb_path_at(path, path->n - 1));
        if (st == PB_OK)
            st = pb_path_copy(path, &tmp);
    }

    double after = pb_path_length(path, engine);
    if (st != PB_OK || !(after <= before)) {
        /* Out of memory, or rounding made the sum of the new lengths exceed the old one:
         * give back the original. */
        if (pb_path_copy(path, &original) == PB_OK)
            after = before;
    }
    if (cost_after)
        *cost_after = after;
    free(cum);
    pb_path_finish(&tmp);
    pb_path_finish(&original);
    return st;
}
