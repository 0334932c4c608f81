/* Growing the arrays a planner fills one element at a time (private to the library). */
#ifndef PB_CORE_GROW_H
#define PB_CORE_GROW_H

#include <stddef.h>

/** Grow the block `ptr` of `old_bytes` (NULL and 0 for a first allocation) to `new_bytes`,
 * keeping its contents, like realloc. The new block's pages are made present in one call
 * (Linux MADV_POPULATE_WRITE) instead of faulting in one at a time as the array fills: a
 * page fault costs 0.2 µs on bare metal but about 10 µs in the virtual machines benchmarks
 * run on, where it was a fifth of an RRT's time to first solution (bench/RESULTS.md).
 * Returns NULL when memory runs out, leaving `ptr` untouched. */
void *pb_grow(void *ptr, size_t old_bytes, size_t new_bytes);

/** Make the whole pages inside [p, p + bytes) present and writable, if the system can; a
 * hint only, never an error. */
void pb_prefault(void *p, size_t bytes);

#endif
