/* A search tree for tree planners (private to the library): configurations, parents and
 * costs in flat arrays indexed by uint32_t, with a nearest-neighbour structure beside. */
#ifndef PB_CORE_TREE_H
#define PB_CORE_TREE_H

#include "nn.h"
#include "planbench/path.h"

#define PB_NO_NODE UINT32_MAX

typedef struct pb_tree {
    int dim;
    uint32_t n;
    uint32_t capacity;
    double *q;        /**< n * dim */
    uint32_t *parent; /**< PB_NO_NODE for the root */
    double *cost;     /**< cost-to-come from the root */
    pb_nn *nn;
} pb_tree;

pb_status pb_tree_init(pb_tree *tree, const pb_engine *engine);
void pb_tree_finish(pb_tree *tree);
void pb_tree_clear(pb_tree *tree);
/** Add a node; returns its index, PB_NO_NODE when memory ran out. */
uint32_t pb_tree_add(pb_tree *tree, const double *q, uint32_t parent, double cost);
static inline const double *pb_tree_q(const pb_tree *tree, uint32_t i)
{
    return tree->q + (size_t)i * (size_t)tree->dim;
}
/** Nearest node to q (PB_NO_NODE when empty). */
static inline uint32_t pb_tree_nearest(const pb_tree *tree, const double *q, double *dist)
{
    return pb_nn_nearest(tree->nn, q, dist);
}
/** Append the path from the root to `node` to `out` (root first). */
pb_status pb_tree_path_to(const pb_tree *tree, uint32_t node, pb_path *out);
/** Bytes held by the tree and its search structure. */
size_t pb_tree_memory(const pb_tree *tree);

#endif
