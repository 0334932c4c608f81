/* map_server maps (issue 17): hand-made YAML files and images of every mode, pixels exactly
 * at each threshold, negate and alpha, against values worked out here with integers (nav2's
 * rules: strict comparisons); the map frame's round trip metres -> pixel -> metres; every bad
 * input with its message; planner paths on a rotated metric map re-checked independently in
 * metres, more finely than the planner checked them. */
#include "harness.h"
#include "picture.h"
#include "io/map_image.h"
#include "io/map_yaml.h"
#include "planbench/impl/engine_impl.h"
#include "planbench/planbench.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

/* A new file `name` in the test's folder; NULL (a failed check) when it cannot be made. */
static FILE *create(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    CHECK_MSG(fp != NULL, "cannot create %s", path);
    return fp;
}

static void write_text(const char *name, const char *fmt, ...)
{
    FILE *fp = create(name);
    if (!fp)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(fp, fmt, ap);
    va_end(ap);
    fclose(fp);
}

/* An 8-bit binary PGM of `w` x `h` grey values, rows top first. */
static void write_pgm(const char *name, int w, int h, const uint8_t *grey)
{
    FILE *fp = create(name);
    if (!fp)
        return;
    fprintf(fp, "P5\n%d %d\n255\n", w, h);
    fwrite(grey, 1, (size_t)w * (size_t)h, fp);
    fclose(fp);
}

/* A one-row PAM of grey + alpha pixels. */
static void write_pam_grey_alpha(const char *name, int w, const uint8_t *grey, const uint8_t *alpha)
{
    FILE *fp = create(name);
    if (!fp)
        return;
    fprintf(fp, "P7\nWIDTH %d\nHEIGHT 1\nDEPTH 2\nMAXVAL 255\nTUPLTYPE GRAYSCALE_ALPHA\nENDHDR\n", w);
    for (int i = 0; i < w; i++) {
        fputc(grey[i], fp);
        fputc(alpha[i], fp);
    }
    fclose(fp);
}

static pb_engine *load_yaml(const char *name, pb_diag *diag)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    pb_engine *engine = NULL;
    memset(diag, 0, sizeof *diag);
    pb_engine_load(&engine, NULL, path, NULL, 0, diag);
    return engine;
}

/* Is pixel u of a one-row map free for planning? Its centre, in metres (origin 0, res 1). */
static bool cell_free(pb_engine *engine, int u)
{
    const double q[2] = {u + 0.5, 0.5};
    return pb_engine_feasible(engine, q);
}

/* ---- the pixel rules, against integers ---- */

/* nav2's trinary value of grey x with thresholds free = f5/5, occupied = o5/5 (exact fifths:
 * p = (255 - x) / 255 compared as 5 (255 - x) against 255 f5). */
static int expected_trinary(int x, bool negate, int f5, int o5)
{
    const int p255 = negate ? x : 255 - x; /* p * 255 */
    if (5 * p255 > 255 * o5)
        return 100;
    if (5 * p255 < 255 * f5)
        return 0;
    return -1;
}

static void test_pixel_rules(void)
{
    const pb_map_rules trinary = {PB_MAP_MODE_TRINARY, false, 0.6, 0.2};
    const pb_map_rules negated = {PB_MAP_MODE_TRINARY, true, 0.6, 0.2};
    for (int x = 0; x <= 255; x++) {
        const uint32_t sum = 3u * (uint32_t)x;
        CHECK_MSG(pb_map_pixel_value(&trinary, sum, 3, false, 255, 255) == expected_trinary(x, false, 1, 3),
                  "grey %d", x);
        CHECK_MSG(pb_map_pixel_value(&negated, sum, 3, false, 255, 255) == expected_trinary(x, true, 1, 3),
                  "negated grey %d", x);
    }
    /* exactly at the thresholds: neither side (nav2 compares strictly) */
    CHECK(pb_map_pixel_value(&trinary, 3 * 204, 3, false, 255, 255) == -1); /* p = 0.2 */
    CHECK(pb_map_pixel_value(&trinary, 3 * 205, 3, false, 255, 255) == 0);
    CHECK(pb_map_pixel_value(&trinary, 3 * 102, 3, false, 255, 255) == -1); /* p = 0.6 */
    CHECK(pb_map_pixel_value(&trinary, 3 * 101, 3, false, 255, 255) == 100);
    /* colour: the average of the channels (200 + 210 + 220) / 3 = 210, p = 0.176 */
    CHECK(pb_map_pixel_value(&trinary, 630, 3, false, 255, 255) == 0);
    /* trinary averages alpha in: white at alpha 0 is (3 * 255 + 0) / 4, p = 0.25 */
    CHECK(pb_map_pixel_value(&trinary, 765, 3, true, 0, 255) == -1);
    CHECK(pb_map_pixel_value(&trinary, 765, 3, true, 255, 255) == 0);

    const pb_map_rules scale = {PB_MAP_MODE_SCALE, false, 0.6, 0.2};
    CHECK(pb_map_pixel_value(&scale, 765, 3, true, 254, 255) == -1); /* any transparency: unknown */
    CHECK(pb_map_pixel_value(&scale, 765, 3, true, 255, 255) == 0);
    CHECK(pb_map_pixel_value(&scale, 3 * 205, 3, false, 255, 255) == 0);
    CHECK(pb_map_pixel_value(&scale, 3 * 204, 3, false, 255, 255) == 0);   /* p = f: rint(0) */
    CHECK(pb_map_pixel_value(&scale, 3 * 153, 3, false, 255, 255) == 50);  /* p = 0.4 */
    CHECK(pb_map_pixel_value(&scale, 3 * 102, 3, false, 255, 255) == 100); /* p = o: rint(100) */
    CHECK(pb_map_pixel_value(&scale, 3 * 101, 3, false, 255, 255) == 100);
    CHECK(pb_map_pixel_value(&scale, 0, 3, false, 255, 255) == 100);

    const pb_map_rules raw = {PB_MAP_MODE_RAW, true, 0.6, 0.2}; /* negate has no effect on raw */
    for (int x = 0; x <= 255; x++)
        CHECK_MSG(pb_map_pixel_value(&raw, 3u * (uint32_t)x, 3, false, 255, 255) == (x <= 100 ? x : -1),
                  "raw %d", x);
    /* 16-bit samples: 65535 * 0.2 = 13107 exactly */
    CHECK(pb_map_pixel_value(&trinary, 3 * (65535 - 13107), 3, false, 65535, 65535) == -1);
    CHECK(pb_map_pixel_value(&trinary, 3 * (65535 - 13106), 3, false, 65535, 65535) == 0);
}

/* ---- whole maps, every mode ---- */

static void test_modes(void)
{
#if PB_HAVE_MAP_YAML && PB_HAVE_NETPBM
    /* one row: black, p = 0.6 exactly, just above, 0.4, p = 0.2 exactly, just below, white */
    const uint8_t row[7] = {0, 102, 101, 153, 204, 205, 255};
    write_pgm("row.pgm", 7, 1, row);
    static const char *const modes[3] = {"trinary", "scale", "raw"};
    /* free for planning: value 0 */
    static const bool free_plain[3][7] = {
        {0, 0, 0, 0, 0, 1, 1}, {0, 0, 0, 0, 1, 1, 1}, {1, 0, 0, 0, 0, 0, 0}};
    /* negate: p = x / 255, so free below 0.2 is 0 only (p(51) would be exactly 0.2) */
    static const bool free_negated[3][7] = {
        {1, 0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0, 0}};
    for (int m = 0; m < 3; m++)
        for (int negate = 0; negate < 2; negate++) {
            write_text("row.yaml",
                       "image: row.pgm\nresolution: 1\norigin: [0, 0, 0]\nnegate: %s\noccupied_thresh: 0.6\n"
                       "free_thresh: 0.2\nmode: %s\n",
                       negate ? "true" : "0", modes[m]);
            pb_diag diag;
            pb_engine *engine = load_yaml("row.yaml", &diag);
            CHECK_MSG(engine != NULL, "%s: %s", modes[m], diag.message);
            if (!engine)
                continue;
            for (int u = 0; u < 7; u++)
                CHECK_MSG(cell_free(engine, u) == (negate ? free_negated : free_plain)[m][u],
                          "mode %s negate %d pixel %d (grey %d)", modes[m], negate, u, row[u]);
            pb_engine_destroy(engine);
        }

    /* scale mode reads alpha: any transparency is unknown; trinary averages it in */
    const uint8_t grey[4] = {255, 255, 255, 255}, alpha[4] = {255, 254, 128, 0};
    write_pam_grey_alpha("alpha.pam", 4, grey, alpha);
    static const bool free_scale[4] = {1, 0, 0, 0};
    static const bool free_trinary[4] = {1, 1, 1, 0}; /* p = (255 - a) / 1020: 0, ~0, 0.125, 0.25 */
    for (int m = 0; m < 2; m++) {
        write_text("alpha.yaml",
                   "image: alpha.pam\nresolution: 1\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.6\n"
                   "free_thresh: 0.2\nmode: %s\n",
                   modes[m]);
        pb_diag diag;
        pb_engine *engine = load_yaml("alpha.yaml", &diag);
        CHECK_MSG(engine != NULL, "%s", diag.message);
        for (int u = 0; engine && u < 4; u++)
            CHECK_MSG(cell_free(engine, u) == (m == 0 ? free_trinary : free_scale)[u], "alpha %d in %s",
                      alpha[u], modes[m]);
        pb_engine_destroy(engine);
    }

    /* a PNG under a YAML file, read by the same rules: the default mode is trinary */
    pb_image picture;
    CHECK(pb_image_init(&picture, 3, 1) == PB_OK);
    const uint8_t png_grey[3] = {255, 205, 204};
    for (int u = 0; u < 3; u++)
        memset(picture.rgb + 3 * u, png_grey[u], 3);
    char png[256];
    snprintf(png, sizeof png, "%s/row.png", dir);
    CHECK(pb_image_save_png(&picture, png, NULL) == PB_OK);
    pb_image_finish(&picture);
    write_text("png.yaml",
               "image: %s\nresolution: 0.5\norigin: [0.0, 0.0, 0.0]\nnegate: false\n"
               "occupied_thresh: 0.6\nfree_thresh: 0.2\n",
               png); /* an absolute image path */
    pb_diag diag;
    pb_engine *engine = load_yaml("png.yaml", &diag);
    CHECK_MSG(engine != NULL, "%s", diag.message);
    if (engine) {
        const double a[2] = {0.25, 0.25}, b[2] = {0.75, 0.25}, c[2] = {1.25, 0.25};
        CHECK(pb_engine_feasible(engine, a) && pb_engine_feasible(engine, b) &&
              !pb_engine_feasible(engine, c));
        pb_engine_destroy(engine);
    }
#else
    fprintf(stderr, "test_map_yaml: no libyaml or libnetpbm in this build: map files not tested\n");
#endif
}

/* ---- the frame ---- */

static void test_round_trip(void)
{
    const pb_map_frame frame = {
        .metric = true, .width = 200, .height = 120, .resolution = 0.05, .origin = {-3.5, 2.25, 0.7}};
    const double c = cos(0.7), s = sin(0.7);
    pb_rng rng;
    pb_rng_seed(&rng, 17);
    double worst = 0.0, worst_uv = 0.0;
    for (int k = 0; k < 10000; k++) {
        const double xy[2] = {-10.0 + 20.0 * pb_rng_uniform(&rng), -5.0 + 20.0 * pb_rng_uniform(&rng)};
        double uv[2], back[2];
        pb_map_frame_to_pixel(&frame, xy, uv);
        pb_map_frame_to_world(&frame, uv, back);
        worst = fmax(worst, hypot(back[0] - xy[0], back[1] - xy[1]));
        /* the documented formula, forwards */
        const double lx = uv[0] * 0.05, ly = (120.0 - uv[1]) * 0.05;
        const double fx = -3.5 + c * lx - s * ly, fy = 2.25 + s * lx + c * ly;
        worst_uv = fmax(worst_uv, hypot(fx - xy[0], fy - xy[1]));
    }
    CHECK_MSG(worst < 1e-12 && worst_uv < 1e-12, "round trip error %g m, formula %g m", worst, worst_uv);
    /* the lower-left corner is the origin; the top-left pixel's corner is H pixels above it */
    double xy[2];
    const double corner[2] = {0.0, 120.0}, top_left[2] = {0.0, 0.0};
    pb_map_frame_to_world(&frame, corner, xy);
    CHECK_NEAR(xy[0], -3.5, 1e-15);
    CHECK_NEAR(xy[1], 2.25, 1e-15);
    pb_map_frame_to_world(&frame, top_left, xy);
    CHECK_NEAR(xy[0], -3.5 - s * 6.0, 1e-12);
    CHECK_NEAR(xy[1], 2.25 + c * 6.0, 1e-12);
    /* cells: nav2's worldToMap, rows counted from the bottom */
    const pb_map_frame flat = {
        .metric = true, .width = 10, .height = 4, .resolution = 0.5, .origin = {1.0, 2.0, 0}};
    int col = -1, row = -1;
    const double on_origin[2] = {1.0, 2.0}, top_right[2] = {5.999, 3.999}, outside[2] = {6.0, 2.5};
    CHECK(pb_map_frame_cell(&flat, on_origin, &col, &row) && col == 0 && row == 3);
    CHECK(pb_map_frame_cell(&flat, top_right, &col, &row) && col == 9 && row == 0);
    CHECK(!pb_map_frame_cell(&flat, outside, &col, &row));
    const double nan_point[2] = {NAN, 2.5};
    CHECK(!pb_map_frame_cell(&flat, nan_point, &col, &row));
    /* the pixel frame is the identity */
    const pb_map_frame pixels = {.metric = false, .width = 10, .height = 4, .resolution = 1.0};
    const double p[2] = {3.25, 1.5};
    double q[2];
    pb_map_frame_to_pixel(&pixels, p, q);
    CHECK(q[0] == 3.25 && q[1] == 1.5);
    CHECK(pb_map_frame_cell(&pixels, p, &col, &row) && col == 3 && row == 1);
}

/* ---- bad input ---- */

typedef struct bad_case {
    const char *what;
    const char *yaml;    /* printf format with the image's name */
    const char *message; /* a fragment the message must hold */
    int line;            /* the line it must name; 0: any */
} bad_case;

static void test_bad_input(void)
{
#if PB_HAVE_MAP_YAML && PB_HAVE_NETPBM
    const uint8_t grey[4] = {255, 255, 0, 255};
    write_pgm("ok.pgm", 2, 2, grey);
#define KEYS_BUT(line) "image: ok.pgm\n" line
    static const bad_case cases[] = {
        {"missing image",
         "image: nowhere.pgm\nresolution: 1\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "nowhere.pgm: cannot open the file", 1},
        {"negative resolution",
         "image: ok.pgm\nresolution: -0.05\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'resolution'", 2},
        {"zero resolution",
         "image: ok.pgm\nresolution: 0\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'resolution': expected metres", 2},
        {"infinite resolution",
         "image: ok.pgm\nresolution: .inf\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'resolution': expected metres per pixel", 2},
        {"NaN resolution",
         "image: ok.pgm\nresolution: nan\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'resolution'", 2},
        {"occupied above 1",
         "image: ok.pgm\nresolution: 1\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 1.5\nfree_thresh: 0.2\n",
         "key 'occupied_thresh': expected a number in [0, 1]", 5},
        {"free below 0",
         "image: ok.pgm\nresolution: 1\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: -0.1\n",
         "key 'free_thresh'", 6},
        {"occupied < free",
         "image: ok.pgm\nresolution: 1\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.2\nfree_thresh: 0.3\n",
         "below free_thresh", 5},
        {"unknown mode",
         "image: ok.pgm\nresolution: 1\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\nmode: fancy\n",
         "key 'mode': expected trinary", 7},
        {"bad negate",
         "image: ok.pgm\nresolution: 1\norigin: [0, 0, 0]\nnegate: 2\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'negate'", 4},
        {"short origin",
         "image: ok.pgm\nresolution: 1\norigin: [0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'origin': expected a list of 3", 3},
        {"text origin",
         "image: ok.pgm\nresolution: 1\norigin: [0, zero, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'origin'", 3},
        {"missing resolution",
         "image: ok.pgm\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'resolution' is missing", 0},
        {"missing origin",
         "image: ok.pgm\nresolution: 1\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'origin' is missing", 0},
        {"missing negate",
         "image: ok.pgm\nresolution: 1\norigin: [0, 0, 0]\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'negate' is missing", 0},
        {"missing free_thresh",
         "image: ok.pgm\nresolution: 1\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\n",
         "key 'free_thresh' is missing", 0},
        {"missing occupied_thresh",
         "image: ok.pgm\nresolution: 1\norigin: [0, 0, 0]\nnegate: 0\n"
         "free_thresh: 0.2\n",
         "key 'occupied_thresh' is missing", 0},
        {"missing image key",
         "resolution: 1\nimage_file: ok.pgm\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\nimage: \n",
         "key 'image'", 7},
        {"malformed YAML", "image: ok.pgm\nresolution: [1\norigin: [0, 0, 0]\n", "malformed YAML", 0},
        {"duplicate key",
         "image: ok.pgm\nresolution: 1\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\nresolution: 2\n",
         "given twice (first on line 2)", 7},
        {"not a mapping", "image: ok.pgm\nresolution: 1\n---\n", "", 0},
        {"image is not an image",
         "image: bad.yaml\nresolution: 1\norigin: [0, 0, 0]\nnegate: 0\n"
         "occupied_thresh: 0.65\nfree_thresh: 0.2\n",
         "key 'image'", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_text("bad.yaml", "%s", cases[i].yaml);
        pb_diag diag;
        pb_engine *engine = load_yaml("bad.yaml", &diag);
        if (i == 20) { /* a second document is ignored, as nav2's LoadFile reads the first */
            CHECK_MSG(engine == NULL && strstr(diag.message, "is missing"), "%s: %s", cases[i].what,
                      diag.message);
            pb_engine_destroy(engine);
            continue;
        }
        CHECK_MSG(engine == NULL, "%s: loaded", cases[i].what);
        pb_engine_destroy(engine);
        CHECK_MSG(strstr(diag.message, cases[i].message) != NULL, "%s: message '%s'", cases[i].what,
                  diag.message);
        CHECK_MSG(strstr(diag.file, "bad.yaml") != NULL, "%s: names '%s'", cases[i].what, diag.file);
        CHECK_MSG(cases[i].line == 0 || diag.line == cases[i].line, "%s: line %d, expected %d", cases[i].what,
                  diag.line, cases[i].line);
        CHECK_MSG(strchr(diag.message, '\n') == NULL, "%s: more than one line", cases[i].what);
        /* the status: invalid input, whatever went wrong */
        char path[256];
        snprintf(path, sizeof path, "%s/bad.yaml", dir);
        pb_engine *again = NULL;
        CHECK(pb_engine_load(&again, "image2d", path, NULL, 0, NULL) == PB_ERR_INVALID);
    }
#undef KEYS_BUT
    /* options that contradict or are malformed */
    write_text("good.yaml",
               "image: ok.pgm\nresolution: 0.1\norigin: [1, 2, 0]\nnegate: 0\noccupied_thresh: 0.65\n"
               "free_thresh: 0.2\n");
    char path[256];
    snprintf(path, sizeof path, "%s/good.yaml", dir);
    static const pb_option bad_options[][1] = {{{"free_threshold", "0.9"}}, {{"occupied_threshold", "1.2"}},
                                               {{"resolution", "-1"}},      {{"origin", "1"}},
                                               {{"frame", "pixels"}},       {{"frame", "mars"}}};
    for (size_t i = 0; i < sizeof bad_options / sizeof bad_options[0]; i++) {
        pb_engine *engine = NULL;
        pb_diag diag = {0};
        CHECK_MSG(pb_engine_load(&engine, NULL, path, bad_options[i], 1, &diag) == PB_ERR_INVALID,
                  "option %s=%s", bad_options[i][0].name, bad_options[i][0].value);
        CHECK_MSG(diag.option[0] != '\0', "option %s: '%s'", bad_options[i][0].name, diag.message);
    }
    /* a map without a free cell says so */
    const uint8_t grey_map[4] = {200, 200, 200, 200};
    write_pgm("grey.pgm", 2, 2, grey_map);
    write_text("grey.yaml",
               "image: grey.pgm\nresolution: 0.1\norigin: [0, 0, 0]\nnegate: 0\noccupied_thresh: 0.65\n"
               "free_thresh: 0.196\n");
    pb_diag diag;
    pb_engine *engine = load_yaml("grey.yaml", &diag);
    CHECK(engine != NULL);
    if (engine) {
        char why[256];
        const double q[2] = {0.05, 0.05};
        CHECK(!pb_engine_feasible(engine, q));
        CHECK(pb_engine_explain(engine, q, why, sizeof why) && strstr(why, "no free cell") &&
              strstr(why, "free_thresh"));
        pb_engine_destroy(engine);
        /* ... until its threshold lets the scanned grey through (p = 55/255 = 0.216) */
        const pb_option lenient = {"free_threshold", "0.25"};
        CHECK(pb_engine_load(&engine, NULL, path, NULL, 0, NULL) == PB_OK);
        pb_engine_destroy(engine);
        snprintf(path, sizeof path, "%s/grey.yaml", dir);
        CHECK(pb_engine_load(&engine, NULL, path, &lenient, 1, NULL) == PB_OK);
        CHECK(engine && pb_engine_feasible(engine, q));
        pb_engine_destroy(engine);
    }
#endif
}

/* ---- a planner on a rotated metric map, re-checked in metres ---- */

#define MAP_W 120
#define MAP_H 80
static const double res = 0.1, origin[3] = {1.5, -2.0, 0.3};

/* The independent reference: grid coordinates of a point in metres (pixels from the
 * lower-left corner, y up), and whether that point's cell is free in `grid_picture`
 * (the image upside down, so that its row j is the grid's row j). */
static pb_image grid_picture;

static void to_grid(const double *xy, double *g)
{
    const double dx = xy[0] - origin[0], dy = xy[1] - origin[1];
    g[0] = (cos(origin[2]) * dx + sin(origin[2]) * dy) / res;
    g[1] = (-sin(origin[2]) * dx + cos(origin[2]) * dy) / res;
}

static bool point_free(const double *xy)
{
    double g[2];
    to_grid(xy, g);
    return g[0] >= 0.0 && g[1] >= 0.0 && tp_pixel_free(&grid_picture, (long)floor(g[0]), (long)floor(g[1]));
}

/* Every point of the segment at spacing res / 40, both ends included. */
static bool segment_free_finely(const double *a, const double *b)
{
    const double length = hypot(b[0] - a[0], b[1] - a[1]);
    const int n = (int)ceil(length / (res / 40.0)) + 1;
    for (int k = 0; k <= n; k++) {
        const double t = (double)k / n, q[2] = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])};
        if (!point_free(q))
            return false;
    }
    return true;
}

static void check_metric_path(const pb_result *r, const double *start, const double *goal, bool certified,
                              const char *what)
{
    CHECK_MSG(r->outcome == PB_OUTCOME_EXACT, "%s: outcome %s", what, pb_outcome_str(r->outcome));
    if (r->path.n < 2)
        return;
    const double *first = pb_path_at(&r->path, 0), *last = pb_path_at(&r->path, r->path.n - 1);
    CHECK_MSG(first[0] == start[0] && first[1] == start[1], "%s: path does not begin at the start", what);
    CHECK_MSG(last[0] == goal[0] && last[1] == goal[1], "%s: path does not end at the goal", what);
    CHECK(point_free(start) && point_free(goal));
    double length = 0.0;
    int blocked = 0;
    for (size_t i = 1; i < r->path.n; i++) {
        const double *p = pb_path_at(&r->path, i - 1), *q = pb_path_at(&r->path, i);
        length += hypot(q[0] - p[0], q[1] - p[1]);
        if (certified) {
            blocked += !segment_free_finely(p, q);
        } else {
            /* the pixel line between the endpoints' cells, in the grid */
            double gp[2], gq[2];
            to_grid(p, gp);
            to_grid(q, gq);
            blocked += !point_free(p) || !point_free(q) || !tp_edge_free(&grid_picture, gp, gq);
        }
    }
    CHECK_MSG(blocked == 0, "%s: %d edges cross obstacles", what, blocked);
    CHECK_NEAR(r->cost, length, 1e-9 * length);
}

static void test_planning(void)
{
#if PB_HAVE_MAP_YAML && PB_HAVE_NETPBM
    /* two walls with gaps at opposite ends, drawn in the image (v down) */
    pb_image image;
    CHECK(pb_image_init(&image, MAP_W, MAP_H) == PB_OK);
    tp_fill_rect(&image, (tp_rect){38, 0, 44, 60});
    tp_fill_rect(&image, (tp_rect){78, 20, 84, 80});
    tp_fill_rect(&image, (tp_rect){0, 0, MAP_W, 2}); /* a border at the top */
    uint8_t *grey = malloc(MAP_W * MAP_H);
    CHECK(pb_image_init(&grid_picture, MAP_W, MAP_H) == PB_OK);
    for (int v = 0; v < MAP_H; v++)
        for (int u = 0; u < MAP_W; u++) {
            const uint8_t g = image.rgb[((size_t)v * MAP_W + u) * 3];
            grey[v * MAP_W + u] = g == 255 ? 254 : 0; /* map_saver's free */
            memset(grid_picture.rgb + ((size_t)(MAP_H - 1 - v) * MAP_W + u) * 3, g, 3);
        }
    write_pgm("walls.pgm", MAP_W, MAP_H, grey);
    free(grey);
    pb_image_finish(&image);
    write_text("walls.yaml",
               "image: walls.pgm\nresolution: %.17g\norigin: [%.17g, %.17g, %.17g]\nnegate: 0\n"
               "occupied_thresh: 0.65\nfree_thresh: 0.196\nmode: trinary\n",
               res, origin[0], origin[1], origin[2]);

    /* start near the left edge, goal near the right edge, in metres */
    const double g_start[2] = {10.5, 40.5}, g_goal[2] = {110.5, 40.5};
    double start[2], goal[2];
    const double c = cos(origin[2]), s = sin(origin[2]);
    start[0] = origin[0] + res * (c * g_start[0] - s * g_start[1]);
    start[1] = origin[1] + res * (s * g_start[0] + c * g_start[1]);
    goal[0] = origin[0] + res * (c * g_goal[0] - s * g_goal[1]);
    goal[1] = origin[1] + res * (s * g_goal[0] + c * g_goal[1]);

    for (int certified = 0; certified < 2; certified++) {
        char path[256];
        snprintf(path, sizeof path, "%s/walls.yaml", dir);
        const pb_option option = {"edge_check", "certified"};
        pb_engine *engine = NULL;
        pb_diag diag = {0};
        CHECK_MSG(pb_engine_load(&engine, NULL, path, &option, certified ? 1 : 0, &diag) == PB_OK, "%s",
                  diag.message);
        if (!engine)
            return;
        pb_map_frame frame;
        CHECK(pb_engine_map_frame(engine, &frame) && frame.metric && frame.width == MAP_W &&
              frame.height == MAP_H && frame.resolution == res && frame.origin[2] == origin[2]);
        /* bounds: the rotated image's bounding box; the default step: 2% of its diagonal */
        const double *lo = pb_engine_lower(engine), *hi = pb_engine_upper(engine);
        CHECK_NEAR(lo[0], origin[0] - s * MAP_H * res, 1e-12);
        CHECK_NEAR(lo[1], origin[1], 1e-12);
        CHECK_NEAR(hi[0], origin[0] + c * MAP_W * res, 1e-12);
        CHECK_NEAR(hi[1], origin[1] + s * MAP_W * res + c * MAP_H * res, 1e-12);
        CHECK_NEAR(pb_engine_default_step(engine), 0.02 * hypot(MAP_W, MAP_H) * res, 1e-12);
        double resolution = 0.0;
        CHECK(pb_engine_edge_check(engine, &resolution) ==
              (certified ? PB_EDGE_CHECK_CERTIFIED : PB_EDGE_CHECK_PIXEL_LINE));
        /* feasibility agrees with the reference everywhere in the bounds */
        pb_rng rng;
        pb_rng_seed(&rng, 5);
        int disagree = 0;
        for (int k = 0; k < 20000; k++) {
            double q[2];
            pb_engine_sample(engine, &rng, q);
            disagree += pb_engine_feasible(engine, q) != point_free(q);
        }
        CHECK_MSG(disagree == 0, "%d points disagree", disagree);

        const char *planners[] = {"rrt", "birrt", "rrtstar"};
        for (int p = 0; p < 3; p++) {
            pb_planner *planner = NULL;
            CHECK(pb_planner_create(&planner, planners[p], engine, &diag) == PB_OK);
            pb_planner_set_seed(planner, 3);
            const pb_problem problem = {.start = start, .goal = goal, .goal_radius = 0.3};
            pb_stop_config stop = pb_stop_config_default();
            stop.time_limit_s = 10.0;
            stop.max_iterations = p == 2 ? 3000 : 0;
            stop.first_solution = p != 2;
            pb_result result;
            pb_result_init(&result, 2);
            CHECK(pb_planner_solve(planner, &problem, &stop, &result) == PB_OK);
            char what[64];
            snprintf(what, sizeof what, "%s, %s", planners[p], certified ? "certified" : "pixel_line");
            check_metric_path(&result, start, goal, certified, what);
            /* a path in metres: at least the straight line, around the walls */
            CHECK_MSG(result.cost >= hypot(goal[0] - start[0], goal[1] - start[1]), "%s: cost %g", what,
                      result.cost);
            pb_result_finish(&result);
            pb_planner_destroy(planner);
        }

        /* dynamic obstacles in metres: a 0.3 m disc in free space, then against the wall */
        const pb_footprint disc = {.type = PB_FOOTPRINT_DISC, .radius = 0.3};
        const double pose_free[3] = {start[0], start[1], 0.0};
        pb_hit hit;
        CHECK(pb_engine_footprint_check(engine, &disc, pose_free, PB_OBSTACLE_NONE, &hit) == PB_OK &&
              hit.kind == PB_HIT_NONE);
        const double g_wall[2] = {41.0, 30.0}; /* the first wall's middle, image row 49 */
        const double pose_wall[3] = {origin[0] + res * (c * g_wall[0] - s * g_wall[1]),
                                     origin[1] + res * (s * g_wall[0] + c * g_wall[1]), 0.0};
        CHECK(pb_engine_footprint_check(engine, &disc, pose_wall, PB_OBSTACLE_NONE, &hit) == PB_OK &&
              hit.kind == PB_HIT_MAP);
        CHECK_MSG(hit.pixel_x >= 38 && hit.pixel_x < 44 && hit.pixel_y >= 44 && hit.pixel_y <= 55,
                  "hit at pixel %d,%d", hit.pixel_x, hit.pixel_y);
        uint32_t id = 0;
        CHECK(pb_engine_obstacle_add(&id, engine, &disc, pose_free) == PB_OK);
        CHECK(!pb_engine_feasible(engine, start));
        const double beside[2] = {start[0] + 0.25 * c, start[1] + 0.25 * s},
                     away[2] = {start[0] + 0.35 * c, start[1] + 0.35 * s};
        CHECK(!pb_engine_feasible(engine, beside) && pb_engine_feasible(engine, away));
        CHECK(pb_engine_obstacle_remove(engine, id) == PB_OK);
        CHECK(pb_engine_feasible(engine, start));

        /* the picture: the start lands where the image has it */
        pb_image picture;
        double scale = 0.0;
        CHECK(pb_image_render_engine(&picture, engine, &scale, NULL) == PB_OK);
        double xy[2];
        pb_image_engine_to_picture(engine, scale, start, xy);
        CHECK_NEAR(xy[0], g_start[0], 1e-9);
        CHECK_NEAR(xy[1], MAP_H - g_start[1], 1e-9);
        CHECK(picture.rgb[((size_t)0 * MAP_W + 5) * 3] != 255); /* the border is at the top */
        CHECK(picture.rgb[((size_t)(MAP_H - 1) * MAP_W + 5) * 3] == 255);
        pb_image_finish(&picture);
        pb_engine_destroy(engine);
    }
    pb_image_finish(&grid_picture);
#endif
}

/* ---- a PNG made metric by options ---- */

static void test_png_options(void)
{
    pb_image picture;
    CHECK(pb_image_init(&picture, 40, 20) == PB_OK);
    tp_fill_rect(&picture, (tp_rect){0, 0, 10, 5}); /* the top-left corner is blocked */
    char png[256];
    snprintf(png, sizeof png, "%s/plain.png", dir);
    CHECK(pb_image_save_png(&picture, png, NULL) == PB_OK);
    pb_engine *engine = NULL;
    /* no options: today's pixel frame, y down */
    CHECK(pb_engine_load(&engine, NULL, png, NULL, 0, NULL) == PB_OK);
    const double top_left[2] = {1.0, 1.0};
    pb_map_frame frame;
    CHECK(engine && !pb_engine_feasible(engine, top_left) && pb_engine_map_frame(engine, &frame) &&
          !frame.metric);
    CHECK(engine && pb_engine_upper(engine)[0] == 40.0 && pb_engine_lower(engine)[1] == 0.0);
    pb_engine_destroy(engine);
    /* frame=ros: resolution 1, y up: the top-left corner is at y near 20 */
    const pb_option ros = {"frame", "ros"};
    CHECK(pb_engine_load(&engine, NULL, png, &ros, 1, NULL) == PB_OK);
    const double ros_top_left[2] = {1.0, 19.0}, ros_bottom_left[2] = {1.0, 1.0};
    CHECK(engine && !pb_engine_feasible(engine, ros_top_left) && pb_engine_feasible(engine, ros_bottom_left));
    CHECK(engine && pb_engine_map_frame(engine, &frame) && frame.metric && frame.resolution == 1.0);
    pb_engine_destroy(engine);
    /* resolution and origin */
    const pb_option metric[2] = {{"resolution", "0.25"}, {"origin", "-5,10"}};
    CHECK(pb_engine_load(&engine, NULL, png, metric, 2, NULL) == PB_OK);
    if (engine) {
        CHECK(pb_engine_lower(engine)[0] == -5.0 && pb_engine_lower(engine)[1] == 10.0);
        CHECK(pb_engine_upper(engine)[0] == 5.0 && pb_engine_upper(engine)[1] == 15.0);
        const double blocked[2] = {-4.0, 14.5}, open[2] = {-4.0, 12.0};
        CHECK(!pb_engine_feasible(engine, blocked) && pb_engine_feasible(engine, open));
        CHECK_NEAR(pb_engine_default_step(engine), 0.02 * hypot(10.0, 5.0), 1e-12);
    }
    pb_engine_destroy(engine);
    /* a nearly white map (a scan): nothing is pure white until a threshold says what is free */
    for (int i = 0; i < 40 * 20 * 3; i++)
        picture.rgb[i] = picture.rgb[i] == 255 ? 246 : 30;
    CHECK(pb_image_save_png(&picture, png, NULL) == PB_OK);
    CHECK(pb_engine_load(&engine, NULL, png, NULL, 0, NULL) == PB_OK);
    char why[256];
    const double middle[2] = {20.5, 10.5};
    CHECK(engine && !pb_engine_feasible(engine, middle) &&
          pb_engine_explain(engine, middle, why, sizeof why) && strstr(why, "no free cell") &&
          strstr(why, "--free-threshold"));
    pb_engine_destroy(engine);
    const pb_option scan = {"free_threshold", "0.1"};
    CHECK(pb_engine_load(&engine, NULL, png, &scan, 1, NULL) == PB_OK);
    CHECK(engine && pb_engine_feasible(engine, middle) && !pb_engine_feasible(engine, top_left));
    pb_engine_destroy(engine);
    pb_image_finish(&picture);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/pb_test_map_yaml_XXXXXX");
    CHECK(mkdtemp(dir) != NULL);
    test_pixel_rules();
    test_round_trip();
    test_modes();
    test_bad_input();
    test_planning();
    test_png_options();
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    CHECK(system(command) == 0);
    return pb_test_summary("map_yaml");
}
