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

/** The capacity an array of `capacity` elements grows to so that it holds `need`: unchanged
 * when it already does, else doubled (from `first` when empty) until it does. 0 when that
 * would overflow a size_t of bytes for elements of `item_size` bytes. The one growth rule:
 * arrays of one element type use pb_reserve(), structures of arrays this and then grow
 * each member. */
size_t pb_grow_capacity(size_t capacity, size_t need, size_t first, size_t item_size);

/** Make room for `need` elements of `item_size` bytes in the array `items` of `*capacity`
 * elements (NULL and 0 at first), growing by pb_grow_capacity() with realloc. Returns the
 * array (moved or not; `*capacity` updated), or NULL when memory runs out or the size would
 * overflow, leaving `items` and `*capacity` untouched. `need` must be positive. Usage:
 *     item *grown = pb_reserve(a->items, &a->capacity, a->n + 1, sizeof *grown, 16);
 *     if (!grown) return PB_ERR_NOMEM;
 *     a->items = grown; */
void *pb_reserve(void *items, size_t *capacity, size_t need, size_t item_size, size_t first);

/** Make the whole pages inside [p, p + bytes) present and writable, if the system can; a
 * hint only, never an error. */
void pb_prefault(void *p, size_t bytes);

#endif
