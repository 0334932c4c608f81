/* Fuzz target for the map_server YAML reader (src/io/map_yaml.c): any bytes either describe a
 * map whose every value is in range, or fail with a diagnostic; nothing crashes or leaks. A
 * map that reads is also run through the pixel rules, whose values must be map_server's. */
#include "io/map_yaml.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pb_map_yaml map; /* static: the struct carries a 4 KiB path */
    pb_diag diag;
    memset(&diag, 0, sizeof diag);
    const pb_status status =
        pb_map_yaml_parse(&map, (const char *)data, size, "/nonexistent/map.yaml", &diag);
    if (status != PB_OK) {
        if (status > 0 || diag.message[0] == '\0' || strcmp(diag.file, "/nonexistent/map.yaml") != 0 ||
            strchr(diag.message, '\n') != NULL)
            abort();
        return 0;
    }
    const pb_map_rules *r = &map.rules;
    if (!(map.resolution > 0.0) || !isfinite(map.resolution) || !isfinite(map.origin[0]) ||
        !isfinite(map.origin[1]) || !isfinite(map.origin[2]) || !(r->free_thresh >= 0.0) ||
        !(r->occupied_thresh <= 1.0) || r->occupied_thresh < r->free_thresh || r->mode < 0 ||
        r->mode >= PB_MAP_MODE_COUNT || map.image[0] == '\0' ||
        memchr(map.image, '\0', sizeof map.image) == NULL)
        abort();
    if (map.image[0] != '/') /* resolved against /nonexistent/, or absolute */
        abort();
    for (int i = 0; i < 2; i++)
        if ((map.has_start && !isfinite(map.start[i])) || (map.has_goal && !isfinite(map.goal[i])))
            abort();
    /* the rules on every grey level, with and without alpha */
    for (uint32_t g = 0; g <= 255; g += 15)
        for (uint32_t alpha = 0; alpha <= 255; alpha += 255) {
            const int v = pb_map_pixel_value(r, 3 * g, 3, alpha != 255, alpha, 255);
            if (v < -1 || v > 100 || (r->mode == PB_MAP_MODE_RAW && v != (g <= 100 ? (int)g : -1)))
                abort();
        }
    return 0;
}
