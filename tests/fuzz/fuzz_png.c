/* Fuzz target for the PNG map loader: any bytes either decode to a consistent bitmap or fail
 * with a diagnostic; nothing crashes, leaks or reads out of bounds.
 *
 * Built two ways (see tests/fuzz/meson.build): with replay.c as a plain program that runs the
 * committed corpus in `meson test`, and with clang's -fsanitize=fuzzer as a real fuzzer. */
#include "io/png_map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pb_bitmap map; /* static: the struct carries its text chunks, ~5 KiB */
    pb_diag diag;
    memset(&map, 0, sizeof map);
    memset(&diag, 0, sizeof diag);
    pb_status status = pb_png_load_memory(data, size, "fuzz-input.png", &map, &diag);
    if (status != PB_OK) {
        /* a failure must explain itself and leave nothing behind */
        if (status > 0 || diag.message[0] == '\0' || map.bits != NULL)
            abort();
        return 0;
    }
    if (map.width <= 0 || map.height <= 0 || (uint64_t)map.width * (uint64_t)map.height > PB_PNG_MAX_PIXELS ||
        map.words_per_row < ((size_t)map.width + 63) / 64 || map.n_text > PB_BITMAP_MAX_TEXT)
        abort();
    /* read the last word and every word (ASan checks the allocation is as large as claimed) */
    volatile bool corner = pb_bitmap_free(&map, map.width - 1, map.height - 1);
    (void)corner;
    uint64_t n_free = pb_bitmap_count_free(&map);
    if (n_free > (uint64_t)map.width * (uint64_t)map.height)
        abort();
    for (size_t i = 0; i < map.n_text; i++) {
        if (memchr(map.text[i].key, '\0', sizeof map.text[i].key) == NULL ||
            memchr(map.text[i].value, '\0', sizeof map.text[i].value) == NULL)
            abort();
        if (pb_bitmap_text(&map, map.text[i].key) == NULL)
            abort();
    }
    pb_bitmap_finish(&map);
    return 0;
}
