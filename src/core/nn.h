/* Nearest-neighbour search over configurations (private to the library).
 *
 * An incremental kd-tree with buckets and per-node bounding boxes. The metric is the
 * engine's per-coordinate description (weights, wrap periods), so pruning is exact for
 * angles too. When the engine's metric is a black box the structure degrades to a linear
 * scan with the engine's distance. A bucket is scanned linearly: below the bucket size
 * (the measured crossover, see bench/RESULTS.md) the whole search is a linear scan. */
#ifndef PB_CORE_NN_H
#define PB_CORE_NN_H

#include "planbench/engine.h"

typedef struct pb_nn pb_nn;

/** A growable list of search hits (ids with their distances), caller storage. */
typedef struct pb_nn_hits {
    uint32_t *ids;
    double *dists;
    size_t n;
    size_t capacity;
} pb_nn_hits;

void pb_nn_hits_finish(pb_nn_hits *hits);

/** How points are searched. AUTO (the default) scans linearly while the structure holds fewer
 * points than the measured crossover for its dimension (pb_nn_crossover), then builds the
 * kd-tree; KDTREE and LINEAR force one method (for tests and the crossover benchmark). */
typedef enum pb_nn_mode { PB_NN_AUTO, PB_NN_KDTREE, PB_NN_LINEAR } pb_nn_mode;

/** Number of points from which the kd-tree beats a linear scan in `dim` dimensions, measured
 * with bench/bench_nn.c (see bench/RESULTS.md); 0 when the tree always wins. */
size_t pb_nn_crossover(int dim);

/** Make an empty structure for configurations of `engine` (borrowed; it must outlive the
 * structure). */
pb_status pb_nn_create(pb_nn **out, const pb_engine *engine);
void pb_nn_destroy(pb_nn *nn);
/** Choose the search method (default PB_NN_AUTO). Only on an empty structure. A black-box
 * metric always scans linearly. */
void pb_nn_set_mode(pb_nn *nn, pb_nn_mode mode);
/** Remove every point, keeping memory. */
void pb_nn_clear(pb_nn *nn);
/** Add point `q` under `id` (ids need not be dense). */
pb_status pb_nn_add(pb_nn *nn, uint32_t id, const double *q);
size_t pb_nn_size(const pb_nn *nn);
/** The id of the nearest point, UINT32_MAX when empty; `*dist` (may be NULL) its distance. */
uint32_t pb_nn_nearest(const pb_nn *nn, const double *q, double *dist);
/** Up to k nearest, sorted by distance (ties by id); returns how many. `ids` and `dists`
 * have room for k. */
size_t pb_nn_knearest(const pb_nn *nn, const double *q, size_t k, uint32_t *ids, double *dists);
/** Every point within distance `radius` (inclusive), sorted by distance; replaces hits->n. */
pb_status pb_nn_radius(const pb_nn *nn, const double *q, double radius, pb_nn_hits *hits);
/** Distance under the structure's metric. */
double pb_nn_distance(const pb_nn *nn, const double *a, const double *b);
/** Bytes held (for the memory-per-node figure). */
size_t pb_nn_memory(const pb_nn *nn);

#endif
