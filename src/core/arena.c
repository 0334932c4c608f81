#include "core/arena.h"

#include <stdlib.h>
#include <string.h>

struct pb_arena_block {
    pb_arena_block *next;
    size_t size;
    size_t used;
    _Alignas(16) unsigned char data[];
};

void pb_arena_init(pb_arena *arena, size_t block_size)
{
    arena->head = NULL;
    arena->block_size = block_size ? block_size : 1u << 16;
    arena->used = 0;
}

void pb_arena_finish(pb_arena *arena)
{
    pb_arena_block *b = arena->head;
    while (b) {
        pb_arena_block *next = b->next;
        free(b);
        b = next;
    }
    arena->head = NULL;
    arena->used = 0;
}

void pb_arena_reset(pb_arena *arena)
{
    if (!arena->head)
        return;
    /* Keep the oldest block (the usual working set); free the rest. */
    pb_arena_block *b = arena->head;
    while (b->next) {
        pb_arena_block *next = b->next;
        free(b);
        b = next;
    }
    b->used = 0;
    arena->head = b;
    arena->used = 0;
}

void *pb_arena_alloc(pb_arena *arena, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    pb_arena_block *b = arena->head;
    if (!b || b->size - b->used < size) {
        size_t block = size > arena->block_size ? size : arena->block_size;
        pb_arena_block *nb = malloc(sizeof *nb + block);
        if (!nb)
            return NULL;
        nb->size = block;
        nb->used = 0;
        nb->next = b;
        arena->head = nb;
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += size;
    arena->used += size;
    return p;
}

void *pb_arena_calloc(pb_arena *arena, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = pb_arena_alloc(arena, count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}
