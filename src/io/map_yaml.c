/* map_server map files read with libyaml's document loader: one pass over the top-level
 * mapping, each known key checked as nav2 checks it (see map_yaml.h). Aliases name nodes
 * already loaded, so an alias bomb costs no memory; the file is bounded before parsing. */
#include "io/map_yaml.h"
#include "io/input_file.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool has_yaml_extension(const char *path)
{
    const size_t n = strlen(path);
    return (n > 5 && strcasecmp(path + n - 5, ".yaml") == 0) ||
           (n > 4 && strcasecmp(path + n - 4, ".yml") == 0);
}

/* Does `text` have `key:` at the start of a line (a top-level key of a block mapping)? */
static bool has_top_level_key(const char *text, const char *key)
{
    const size_t n = strlen(key);
    for (const char *line = text; line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (strncmp(line, key, n) == 0) {
            const char *p = line + n;
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p == ':')
                return true;
        }
    }
    return false;
}

bool pb_map_yaml_is_map(const char *path)
{
    if (!has_yaml_extension(path))
        return false;
    pb_status status = PB_OK;
    FILE *fp = pb_file_open_regular(path, NULL, &status);
    if (!fp)
        return false;
    static const size_t head_size = (size_t)64 << 10;
    char *head = malloc(head_size + 1);
    const size_t n = head ? fread(head, 1, head_size, fp) : 0;
    fclose(fp);
    if (!head)
        return false;
    head[n] = '\0';
    const bool map = has_top_level_key(head, "image") || has_top_level_key(head, "resolution");
    free(head);
    return map;
}

#if PB_HAVE_MAP_YAML

#include <yaml.h>

typedef struct reader {
    yaml_document_t doc;
    const char *path;
    pb_diag *diag;
} reader;

/* One message for a bad value: "key 'K': WHAT, got 'VALUE'" at the value's line; the value is
 * shortened and its line breaks and other control characters shown as spaces (one line). */
static pb_status bad_key(const reader *r, const yaml_node_t *node, const char *key, const char *what,
                         const char *got)
{
    const int line = node ? (int)node->start_mark.line + 1 : 0;
    if (!got) {
        pb_diag_set(r->diag, r->path, line, 0, "key '%s': %s", key, what);
        return PB_ERR_INVALID;
    }
    char shown[64];
    size_t n = 0;
    for (; got[n] && n + 1 < sizeof shown; n++)
        shown[n] = (unsigned char)got[n] < 0x20 || got[n] == 0x7f ? ' ' : got[n];
    shown[n] = '\0';
    pb_diag_set(r->diag, r->path, line, 0, "key '%s': %s, got '%s%s'", key, what, shown, got[n] ? "..." : "");
    return PB_ERR_INVALID;
}

static const char *scalar_text(const yaml_node_t *node)
{
    return node && node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

/* A finite number, the whole scalar. */
static bool read_number(const yaml_node_t *node, double *out)
{
    const char *text = scalar_text(node);
    if (!text || !*text)
        return false;
    char *end = NULL;
    errno = 0;
    const double v = strtod(text, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static pb_status number_in(const reader *r, const yaml_node_t *node, const char *key, double lo, double hi,
                           double *out)
{
    const char *text = scalar_text(node);
    if (!read_number(node, out))
        return bad_key(r, node, key, "expected a finite number", text ? text : "a list or a mapping");
    if (!(*out >= lo && *out <= hi)) {
        char what[80];
        snprintf(what, sizeof what, "expected a number in [%g, %g]", lo, hi);
        return bad_key(r, node, key, what, text);
    }
    return PB_OK;
}

/* A list of exactly `n` finite numbers. */
static pb_status number_list(const reader *r, const yaml_node_t *node, const char *key, int n,
                             const char *form, double *out)
{
    char what[96];
    snprintf(what, sizeof what, "expected a list of %d numbers, %s", n, form);
    if (!node || node->type != YAML_SEQUENCE_NODE)
        return bad_key(r, node, key, what, scalar_text(node) ? scalar_text(node) : "a mapping");
    const yaml_node_item_t *items = node->data.sequence.items.start;
    if (node->data.sequence.items.top - items != n) {
        char got[32];
        snprintf(got, sizeof got, "%d values", (int)(node->data.sequence.items.top - items));
        return bad_key(r, node, key, what, got);
    }
    for (int i = 0; i < n; i++) {
        const yaml_node_t *item = yaml_document_get_node((yaml_document_t *)&r->doc, items[i]);
        if (!read_number(item, &out[i]))
            return bad_key(r, item, key, what, scalar_text(item) ? scalar_text(item) : "a list or a mapping");
    }
    return PB_OK;
}

/* nav2 reads negate as an int, else as a bool: 0, 1, and YAML's booleans. */
static pb_status read_negate(const reader *r, const yaml_node_t *node, bool *out)
{
    static const char *const truths[] = {"1",   "true", "True", "TRUE", "yes", "Yes",
                                         "YES", "on",   "On",   "ON",   NULL};
    static const char *const lies[] = {"0",  "false", "False", "FALSE", "no", "No",
                                       "NO", "off",   "Off",   "OFF",   NULL};
    const char *text = scalar_text(node);
    for (int i = 0; text && truths[i]; i++)
        if (strcmp(text, truths[i]) == 0) {
            *out = true;
            return PB_OK;
        }
    for (int i = 0; text && lies[i]; i++)
        if (strcmp(text, lies[i]) == 0) {
            *out = false;
            return PB_OK;
        }
    return bad_key(r, node, "negate", "expected 0, 1, true or false", text ? text : "a list or a mapping");
}

static pb_status read_mode(const reader *r, const yaml_node_t *node, pb_map_mode *out)
{
    const char *text = scalar_text(node);
    for (int m = 0; text && m < PB_MAP_MODE_COUNT; m++)
        if (strcmp(text, pb_map_mode_str((pb_map_mode)m)) == 0) {
            *out = (pb_map_mode)m;
            return PB_OK;
        }
    return bad_key(r, node, "mode", "expected trinary, scale or raw", text ? text : "a list or a mapping");
}

static pb_status read_image(const reader *r, const yaml_node_t *node, pb_map_yaml *out)
{
    const char *text = scalar_text(node);
    if (!text || !*text)
        return bad_key(r, node, "image", "expected the image file's name", text ? "" : "a list or a mapping");
    char dir[4096];
    pb_path_dir(r->path, dir, sizeof dir);
    out->image_line = (int)node->start_mark.line + 1;
    const int n = text[0] == '/' ? snprintf(out->image, sizeof out->image, "%s", text)
                                 : snprintf(out->image, sizeof out->image, "%s/%s", dir, text);
    if (n < 0 || (size_t)n >= sizeof out->image)
        return bad_key(r, node, "image", "the image's path is too long", NULL);
    return PB_OK;
}

enum {
    KEY_IMAGE,
    KEY_RESOLUTION,
    KEY_ORIGIN,
    KEY_NEGATE,
    KEY_OCCUPIED,
    KEY_FREE,
    KEY_MODE,
    KEY_START,
    KEY_GOAL,
    N_KEYS
};
static const char *const key_names[N_KEYS] = {"image",  "resolution",      "origin",
                                              "negate", "occupied_thresh", "free_thresh",
                                              "mode",   "planbench_start", "planbench_goal"};
/* Keys without which nav2 refuses the file. */
static const bool key_required[N_KEYS] = {true, true, true, true, true, true, false, false, false};

static pb_status read_key(const reader *r, int key, const yaml_node_t *value, pb_map_yaml *out)
{
    switch (key) {
    case KEY_IMAGE:
        return read_image(r, value, out);
    case KEY_RESOLUTION:
        if (!read_number(value, &out->resolution) || !(out->resolution > 0.0))
            return bad_key(r, value, "resolution", "expected metres per pixel, a finite number > 0",
                           scalar_text(value) ? scalar_text(value) : "a list or a mapping");
        return PB_OK;
    case KEY_ORIGIN:
        return number_list(r, value, "origin", 3, "[x, y, yaw]", out->origin);
    case KEY_NEGATE:
        return read_negate(r, value, &out->rules.negate);
    case KEY_OCCUPIED:
        return number_in(r, value, "occupied_thresh", 0.0, 1.0, &out->rules.occupied_thresh);
    case KEY_FREE:
        return number_in(r, value, "free_thresh", 0.0, 1.0, &out->rules.free_thresh);
    case KEY_MODE:
        return read_mode(r, value, &out->rules.mode);
    case KEY_START:
        out->has_start = true;
        return number_list(r, value, "planbench_start", 2, "[x, y] in metres", out->start);
    default:
        out->has_goal = true;
        return number_list(r, value, "planbench_goal", 2, "[x, y] in metres", out->goal);
    }
}

static pb_status read_document(const reader *r, pb_map_yaml *out)
{
    const yaml_node_t *root = yaml_document_get_root_node((yaml_document_t *)&r->doc);
    if (!root || root->type != YAML_MAPPING_NODE) {
        pb_diag_set(r->diag, r->path, root ? (int)root->start_mark.line + 1 : 0, 0,
                    "not a map_server map: expected a mapping of keys (image, resolution, origin, ...)");
        return PB_ERR_INVALID;
    }
    const yaml_node_t *seen[N_KEYS] = {0};
    for (const yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node((yaml_document_t *)&r->doc, p->key);
        const char *name = scalar_text(k);
        for (int key = 0; name && key < N_KEYS; key++) {
            if (strcmp(name, key_names[key]) != 0)
                continue;
            if (seen[key]) {
                pb_diag_set(r->diag, r->path, (int)k->start_mark.line + 1, 0,
                            "key '%s' is given twice (first on line %d)", name,
                            (int)seen[key]->start_mark.line + 1);
                return PB_ERR_INVALID;
            }
            seen[key] = k;
            const pb_status st =
                read_key(r, key, yaml_document_get_node((yaml_document_t *)&r->doc, p->value), out);
            if (st != PB_OK)
                return st;
        }
    }
    for (int key = 0; key < N_KEYS; key++)
        if (key_required[key] && !seen[key]) {
            pb_diag_set(r->diag, r->path, 0, 0,
                        "key '%s' is missing (a map_server map needs image, resolution, "
                        "origin, negate, occupied_thresh and free_thresh)",
                        key_names[key]);
            return PB_ERR_INVALID;
        }
    if (out->rules.occupied_thresh < out->rules.free_thresh) {
        pb_diag_set(
            r->diag, r->path, (int)seen[KEY_OCCUPIED]->start_mark.line + 1, 0,
            "key 'occupied_thresh': %g is below free_thresh %g (expected free_thresh <= occupied_thresh)",
            out->rules.occupied_thresh, out->rules.free_thresh);
        return PB_ERR_INVALID;
    }
    return PB_OK;
}

pb_status pb_map_yaml_parse(pb_map_yaml *out, const char *text, size_t size, const char *path, pb_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->rules.mode = PB_MAP_MODE_TRINARY;
    reader r = {.path = path, .diag = diag};
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        pb_diag_set(diag, path, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, size);
    if (!yaml_parser_load(&parser, &r.doc)) {
        pb_diag_set(diag, path, (int)parser.problem_mark.line + 1, (int)parser.problem_mark.column + 1,
                    "malformed YAML: %s", parser.problem ? parser.problem : "parse error");
        yaml_parser_delete(&parser);
        return PB_ERR_INVALID;
    }
    yaml_parser_delete(&parser);
    const pb_status st = read_document(&r, out);
    yaml_document_delete(&r.doc);
    return st;
}

#else

pb_status pb_map_yaml_parse(pb_map_yaml *out, const char *text, size_t size, const char *path, pb_diag *diag)
{
    (void)text;
    (void)size;
    memset(out, 0, sizeof *out);
    pb_diag_set(
        diag, path, 0, 0,
        "this build reads no map_server YAML maps: it was built without libyaml (install libyaml-dev, or "
        "run tools/install-deps.sh, and configure again)");
    return PB_ERR_UNSUPPORTED;
}

#endif

pb_status pb_map_yaml_load(pb_map_yaml *out, const char *path, pb_diag *diag)
{
    memset(out, 0, sizeof *out);
    char *text = NULL;
    size_t size = 0;
    const pb_status st = pb_file_read_all(path, PB_MAP_YAML_MAX_SIZE, &text, &size, diag);
    if (st != PB_OK)
        return st;
    const pb_status parsed = pb_map_yaml_parse(out, text, size, path, diag);
    free(text);
    return parsed;
}
