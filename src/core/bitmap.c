/* The bitmap's own functions (see bitmap.h). */
#include "core/bitmap.h"

#include <stdlib.h>
#include <string.h>

void pb_bitmap_finish(pb_bitmap *map)
{
    if (!map)
        return;
    free(map->bits);
    memset(map, 0, sizeof *map);
}

const char *pb_bitmap_text(const pb_bitmap *map, const char *key)
{
    for (size_t i = 0; i < map->n_text; i++)
        if (strcmp(map->text[i].key, key) == 0)
            return map->text[i].value;
    return NULL;
}

uint64_t pb_bitmap_count_free(const pb_bitmap *map)
{
    uint64_t n = 0;
    for (size_t i = 0; i < map->words_per_row * (size_t)map->height; i++)
        n += (uint64_t)__builtin_popcountll(map->bits[i]);
    return n;
}
