/* Arenas (private to the library): bump allocation from large blocks, freed all at once.
 * Planners take per-solve scratch memory from an arena and reset it between solves. */
#ifndef PB_CORE_ARENA_H
#define PB_CORE_ARENA_H

#include "planbench/base.h"

#include <stdlib.h>

typedef struct pb_arena_block pb_arena_block;

typedef struct pb_arena {
    pb_arena_block *head; /**< the block being filled, older blocks behind it */
    size_t block_size;    /**< bytes per new block (larger requests get their own block) */
    size_t used;          /**< bytes handed out since the last reset */
} pb_arena;

/** Start an empty arena; nothing is allocated until the first request. */
void pb_arena_init(pb_arena *arena, size_t block_size);
/** Free every block. */
void pb_arena_finish(pb_arena *arena);
/** Forget every allocation but keep the first block for reuse. */
void pb_arena_reset(pb_arena *arena);
/** `size` bytes aligned to 16, or NULL when memory runs out. Valid until reset/finish. */
void *pb_arena_alloc(pb_arena *arena, size_t size);
/** Like pb_arena_alloc, zero-filled. */
void *pb_arena_calloc(pb_arena *arena, size_t count, size_t size);

/** Grow the array `ptr` (any element type) to `count` elements with realloc; on failure
 * return false from the calling function, leaving `ptr` as it was. For the structure-of-arrays
 * reserve() functions of planners, which grow several arrays to one capacity. */
#define PB_GROW_OR_FAIL(ptr, count)                                                                          \
    do {                                                                                                     \
        void *grown_ = realloc((ptr), (count) * sizeof *(ptr));                                              \
        if (!grown_)                                                                                         \
            return false;                                                                                    \
        (ptr) = grown_;                                                                                      \
    } while (0)

#endif
