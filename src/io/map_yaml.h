/* map_server (nav2) map files (private to the library): the YAML file beside an occupancy
 * image, read with libyaml when the build has it.
 *
 * Keys, as nav2's map_io.cpp reads them: `image` (relative to the YAML file's folder, or
 * absolute), `resolution` (metres per pixel, > 0, finite), `origin` ([x, y, yaw]: the pose of
 * the image's lower-left corner, yaw counter-clockwise), `negate` (0/1 or true/false),
 * `occupied_thresh` and `free_thresh` (in [0, 1], free <= occupied), all required; `mode`
 * (trinary, the default, scale or raw). planbench adds two optional keys, `planbench_start`
 * and `planbench_goal` ([x, y] in metres in the map frame), a default problem. Other keys
 * are ignored, as nav2 ignores them; a key given twice is an error. */
#ifndef PB_IO_MAP_YAML_H
#define PB_IO_MAP_YAML_H

#include "io/map_image.h"

/** Largest map YAML file read: 1 MiB (a real one is a few hundred bytes). */
#define PB_MAP_YAML_MAX_SIZE ((size_t)1 << 20)

/** A map_server map's description. Plain data. */
typedef struct pb_map_yaml {
    char image[4096];  /**< the image's path, resolved against the YAML file's folder */
    int image_line;    /**< the line of the `image` key, for messages about the image */
    double resolution; /**< metres per pixel */
    double origin[3];  /**< x, y (metres), yaw (radians) of the lower-left corner */
    pb_map_rules rules;
    bool has_start, has_goal;
    double start[2], goal[2]; /**< planbench_start, planbench_goal */
} pb_map_yaml;

/** Is `path` a .yaml or .yml file whose text looks like a map_server map (a top-level
 * `image:` or `resolution:` key)? Reads at most its first 64 KiB; false for what cannot be read. */
bool pb_map_yaml_is_map(const char *path);

/** Read the map file `path`. Errors (PB_ERR_INVALID, or PB_ERR_IO for a file that cannot be
 * read, PB_ERR_UNSUPPORTED in a build without libyaml) name the file, the line and the key.
 * The image itself is not opened. */
pb_status pb_map_yaml_load(pb_map_yaml *out, const char *path, pb_diag *diag);

/** The same from `size` bytes of `text`; `path` names it in messages and its folder resolves
 * a relative image name. */
pb_status pb_map_yaml_parse(pb_map_yaml *out, const char *text, size_t size, const char *path, pb_diag *diag);

#endif
