#include "core/tree.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

pb_status pb_tree_init(pb_tree *tree, const pb_engine *engine)
{
    memset(tree, 0, sizeof *tree);
    tree->dim = pb_engine_dim(engine);
    return pb_nn_create(&tree->nn, engine);
}

void pb_tree_finish(pb_tree *tree)
{
    free(tree->q);
    free(tree->parent);
    free(tree->cost);
    pb_nn_destroy(tree->nn);
    memset(tree, 0, sizeof *tree);
}

void pb_tree_clear(pb_tree *tree)
{
    tree->n = 0;
    pb_nn_clear(tree->nn);
}

static bool reserve(pb_tree *tree, uint32_t need)
{
    if (need <= tree->capacity)
        return true;
    /* from 64: small solves stay small */
    const size_t cap = pb_grow_capacity(tree->capacity, need, 64, sizeof(double) * PB_MAX_DIM);
    if (!cap || cap > UINT32_MAX)
        return false;
    const size_t old = tree->capacity, d = (size_t)tree->dim;
    double *q = pb_grow(tree->q, old * d * sizeof *q, (size_t)cap * d * sizeof *q);
    if (!q)
        return false;
    tree->q = q;
    uint32_t *parent = pb_grow(tree->parent, old * sizeof *parent, (size_t)cap * sizeof *parent);
    if (!parent)
        return false;
    tree->parent = parent;
    double *cost = pb_grow(tree->cost, old * sizeof *cost, (size_t)cap * sizeof *cost);
    if (!cost)
        return false;
    tree->cost = cost;
    tree->capacity = (uint32_t)cap;
    return true;
}

uint32_t pb_tree_add(pb_tree *tree, const double *q, uint32_t parent, double cost)
{
    if (tree->n == PB_NO_NODE - 1 || !reserve(tree, tree->n + 1))
        return PB_NO_NODE;
    const uint32_t i = tree->n;
    double *dst = tree->q + (size_t)i * (size_t)tree->dim;
    for (int k = 0; k < tree->dim; k++) /* a loop beats a memcpy call for a few doubles */
        dst[k] = q[k];
    tree->parent[i] = parent;
    tree->cost[i] = cost;
    if (pb_nn_add(tree->nn, i, q) != PB_OK)
        return PB_NO_NODE;
    tree->n++;
    return i;
}

pb_status pb_tree_path_to(const pb_tree *tree, uint32_t node, pb_path *out)
{
    const size_t first = out->n;
    for (uint32_t i = node; i != PB_NO_NODE; i = tree->parent[i]) {
        pb_status st = pb_path_append(out, pb_tree_q(tree, i));
        if (st != PB_OK)
            return st;
    }
    /* reverse the appended part: root first */
    const size_t d = (size_t)out->dim;
    for (size_t a = first, b = out->n - 1; a < b; a++, b--) {
        for (size_t k = 0; k < d; k++) {
            const double t = out->q[a * d + k];
            out->q[a * d + k] = out->q[b * d + k];
            out->q[b * d + k] = t;
        }
    }
    return PB_OK;
}

size_t pb_tree_memory(const pb_tree *tree)
{
    return (size_t)tree->capacity * ((size_t)tree->dim * sizeof(double) + sizeof(uint32_t) + sizeof(double)) +
           pb_nn_memory(tree->nn);
}
