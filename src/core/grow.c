#include "core/grow.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif
#endif

void pb_prefault(void *p, size_t bytes)
{
#if defined(__linux__)
    static atomic_bool unsupported;
    if (!p || atomic_load_explicit(&unsupported, memory_order_relaxed))
        return;
    const long sz = sysconf(_SC_PAGESIZE);
    const size_t page = sz > 0 ? (size_t)sz : 4096;
    const uintptr_t begin = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
    const uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)(page - 1);
    if (end <= begin)
        return; /* no whole page: a system call would cost more than the faults it saves */
    if (madvise((void *)begin, end - begin, MADV_POPULATE_WRITE) != 0)
        atomic_store_explicit(&unsupported, true, memory_order_relaxed); /* an older kernel: EINVAL */
#else
    (void)p;
    (void)bytes;
#endif
}

void *pb_grow(void *ptr, size_t old_bytes, size_t new_bytes)
{
    if (new_bytes <= old_bytes)
        return ptr;
    /* Not realloc: a moved block would be copied into pages that fault one by one. */
    void *grown = malloc(new_bytes);
    if (!grown)
        return NULL;
    pb_prefault(grown, new_bytes);
    if (old_bytes)
        memcpy(grown, ptr, old_bytes);
    free(ptr);
    return grown;
}

size_t pb_grow_capacity(size_t capacity, size_t need, size_t first, size_t item_size)
{
    if (need <= capacity)
        return capacity;
    size_t cap = capacity ? capacity : (first ? first : 1);
    while (cap < need) {
        if (cap > SIZE_MAX / 2)
            return 0;
        cap *= 2;
    }
    return item_size && cap > SIZE_MAX / item_size ? 0 : cap;
}

void *pb_reserve(void *items, size_t *capacity, size_t need, size_t item_size, size_t first)
{
    if (need <= *capacity)
        return items;
    const size_t cap = pb_grow_capacity(*capacity, need, first, item_size);
    if (!cap)
        return NULL;
    void *grown = realloc(items, cap * item_size);
    if (!grown)
        return NULL;
    *capacity = cap;
    return grown;
}
