/* PNG map loader: every colour type and bit depth decodes to the right free/occupied bits,
 * text chunks round-trip, bad files fail with a diagnostic that names them, and the bundled
 * maps (and the OMPL decode anchors, when the shared tree is present) load.
 *
 * Test images are written with libpng's own writer into a temporary directory, so the
 * expected bits come from the pattern, not from a second decoder. */
#include "harness.h"
#include "io/png_map.h"

#include <dirent.h>
#include <png.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- the images -------------------------------------------------------------------------- */

typedef struct format {
    const char *name;
    int color_type;
    int bit_depth;
    bool trns;      /* write a tRNS chunk (palette alphas, or a transparent grey/RGB colour) */
    bool interlace; /* Adam7 */
} format;

static const format formats[] = {
    {"grey1", PNG_COLOR_TYPE_GRAY, 1, false, false},
    {"grey2", PNG_COLOR_TYPE_GRAY, 2, false, false},
    {"grey4", PNG_COLOR_TYPE_GRAY, 4, false, false},
    {"grey8", PNG_COLOR_TYPE_GRAY, 8, false, false},
    {"grey16", PNG_COLOR_TYPE_GRAY, 16, false, false},
    {"grey8-trns", PNG_COLOR_TYPE_GRAY, 8, true, false},
    {"greyalpha8", PNG_COLOR_TYPE_GRAY_ALPHA, 8, false, false},
    {"greyalpha16", PNG_COLOR_TYPE_GRAY_ALPHA, 16, false, false},
    {"palette1", PNG_COLOR_TYPE_PALETTE, 1, false, false},
    {"palette2", PNG_COLOR_TYPE_PALETTE, 2, false, false},
    {"palette4", PNG_COLOR_TYPE_PALETTE, 4, false, false},
    {"palette8", PNG_COLOR_TYPE_PALETTE, 8, false, false},
    {"palette1-trns", PNG_COLOR_TYPE_PALETTE, 1, true, false},
    {"palette2-trns", PNG_COLOR_TYPE_PALETTE, 2, true, false},
    {"palette4-trns", PNG_COLOR_TYPE_PALETTE, 4, true, false},
    {"palette8-trns", PNG_COLOR_TYPE_PALETTE, 8, true, false},
    {"rgb8", PNG_COLOR_TYPE_RGB, 8, false, false},
    {"rgb16", PNG_COLOR_TYPE_RGB, 16, false, false},
    {"rgb8-trns", PNG_COLOR_TYPE_RGB, 8, true, false},
    {"rgba8", PNG_COLOR_TYPE_RGB_ALPHA, 8, false, false},
    {"rgba16", PNG_COLOR_TYPE_RGB_ALPHA, 16, false, false},
    {"rgb8-adam7", PNG_COLOR_TYPE_RGB, 8, false, true},
    {"grey2-adam7", PNG_COLOR_TYPE_GRAY, 2, false, true},
    {"palette4-trns-adam7", PNG_COLOR_TYPE_PALETTE, 4, true, true},
    {"rgba16-adam7", PNG_COLOR_TYPE_RGB_ALPHA, 16, false, true},
};

/* Odd sizes, a row longer than two 64-bit words, exactly one word, and a single pixel. */
static const int sizes[][2] = {{13, 7}, {130, 3}, {64, 2}, {65, 5}, {1, 1}};

typedef struct sample {
    uint16_t v[4];
    bool free;
} sample;

/* Traps: near-white (254,255,255) is occupied, alpha 0 on white is free, a 16-bit high byte of
 * 0xFE is occupied and 0xFF00 is free. */
static const sample grey16_set[] = {{{0xFFFF}, true},  {{0xFF00}, true},  {{0xFEFF}, false},
                                    {{0x0000}, false}, {{0x00FF}, false}, {{0xFFFF}, true}};
static const sample greyalpha8_set[] = {{{255, 255}, true}, {{255, 0}, true},  {{254, 255}, false},
                                        {{0, 0}, false},    {{0, 255}, false}, {{254, 0}, false}};
static const sample greyalpha16_set[] = {{{0xFFFF, 0xFFFF}, true},
                                         {{0xFF00, 0x0000}, true},
                                         {{0xFEFF, 0xFFFF}, false},
                                         {{0x0000, 0x0000}, false},
                                         {{0xFEFF, 0x0000}, false}};
static const sample rgb8_set[] = {{{255, 255, 255}, true},  {{254, 255, 255}, false},
                                  {{255, 254, 255}, false}, {{255, 255, 254}, false},
                                  {{0, 0, 0}, false},       {{255, 255, 255}, true}};
static const sample rgb16_set[] = {{{0xFFFF, 0xFFFF, 0xFFFF}, true},  {{0xFF00, 0xFF01, 0xFFFF}, true},
                                   {{0xFEFF, 0xFFFF, 0xFFFF}, false}, {{0xFFFF, 0xFEFF, 0xFFFF}, false},
                                   {{0xFFFF, 0xFFFF, 0xFEFF}, false}, {{0x0000, 0x0000, 0x0000}, false}};
static const sample rgba8_set[] = {{{255, 255, 255, 255}, true},  {{255, 255, 255, 0}, true},
                                   {{254, 255, 255, 255}, false}, {{254, 255, 255, 0}, false},
                                   {{0, 0, 0, 255}, false},       {{255, 255, 254, 128}, false}};
static const sample rgba16_set[] = {{{0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF}, true},
                                    {{0xFF00, 0xFF00, 0xFF00, 0x0000}, true},
                                    {{0xFEFF, 0xFFFF, 0xFFFF, 0xFFFF}, false},
                                    {{0xFFFF, 0xFFFF, 0xFEFF, 0x0000}, false},
                                    {{0x0000, 0x0000, 0x0000, 0x0000}, false}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int channels_of(int color_type)
{
    switch (color_type) {
    case PNG_COLOR_TYPE_GRAY_ALPHA:
        return 2;
    case PNG_COLOR_TYPE_RGB:
        return 3;
    case PNG_COLOR_TYPE_RGB_ALPHA:
        return 4;
    default:
        return 1;
    }
}

static int palette_size(const format *f)
{
    return f->bit_depth == 8 ? 256 : 1 << f->bit_depth;
}

/* Palette entry i: every fourth is white (free), the others are traps or obstacles. */
static png_color palette_entry(int i)
{
    png_color c;
    switch (i % 4) {
    case 0:
        c.red = c.green = c.blue = 255;
        break;
    case 1:
        c.red = 254, c.green = 255, c.blue = 255;
        break;
    case 2:
        c.red = c.green = c.blue = (png_byte)(i % 255);
        break;
    default:
        c.red = 255, c.green = 255, c.blue = 254;
        break;
    }
    return c;
}

/* A well-mixed pattern index for pixel (x, y). */
static unsigned pattern(int x, int y)
{
    uint32_t h = (uint32_t)x * 0x9E3779B1u ^ (uint32_t)y * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

/* The samples of pixel (x, y) in format `f`; returns whether the pixel is free. */
static bool pixel_samples(const format *f, int x, int y, uint16_t s[4])
{
    unsigned k = pattern(x, y);
    const sample *set = NULL;
    size_t n = 0;
    memset(s, 0, 4 * sizeof s[0]);
    if (f->color_type == PNG_COLOR_TYPE_PALETTE) {
        s[0] = (uint16_t)(k % (unsigned)palette_size(f));
        return s[0] % 4 == 0;
    }
    if (f->color_type == PNG_COLOR_TYPE_GRAY && f->bit_depth < 16) {
        uint16_t max = (uint16_t)((1u << f->bit_depth) - 1);
        const uint16_t values[] = {max, 0, (uint16_t)(max - 1), (uint16_t)(max / 2), max};
        s[0] = values[k % COUNT(values)];
        return s[0] == max;
    }
    switch (f->color_type) {
    case PNG_COLOR_TYPE_GRAY:
        set = grey16_set, n = COUNT(grey16_set);
        break;
    case PNG_COLOR_TYPE_GRAY_ALPHA:
        set = f->bit_depth == 8 ? greyalpha8_set : greyalpha16_set;
        n = f->bit_depth == 8 ? COUNT(greyalpha8_set) : COUNT(greyalpha16_set);
        break;
    case PNG_COLOR_TYPE_RGB:
        set = f->bit_depth == 8 ? rgb8_set : rgb16_set;
        n = f->bit_depth == 8 ? COUNT(rgb8_set) : COUNT(rgb16_set);
        break;
    default:
        set = f->bit_depth == 8 ? rgba8_set : rgba16_set;
        n = f->bit_depth == 8 ? COUNT(rgba8_set) : COUNT(rgba16_set);
        break;
    }
    memcpy(s, set[k % n].v, sizeof set[0].v);
    return set[k % n].free;
}

/* Pack one row of samples (most significant bits first, 16-bit big-endian, as PNG stores). */
static void pack_row(const format *f, int width, int y, uint8_t *row, bool *expect_free)
{
    int channels = channels_of(f->color_type), depth = f->bit_depth;
    size_t bit = 0;
    for (int x = 0; x < width; x++) {
        uint16_t s[4];
        expect_free[x] = pixel_samples(f, x, y, s);
        for (int c = 0; c < channels; c++, bit += (size_t)depth) {
            if (depth == 16) {
                row[bit / 8] = (uint8_t)(s[c] >> 8);
                row[bit / 8 + 1] = (uint8_t)(s[c] & 0xFF);
            } else if (depth == 8) {
                row[bit / 8] = (uint8_t)s[c];
            } else {
                row[bit / 8] |= (uint8_t)(s[c] << (8 - depth - (int)(bit % 8)));
            }
        }
    }
}

typedef struct text_spec {
    const char *key;
    const char *value;
    int compression; /* PNG_TEXT_COMPRESSION_NONE (tEXt), _zTXt, or PNG_ITXT_COMPRESSION_NONE */
} text_spec;

/* Encode `rows` (packed for `f`) into `fp` with libpng's writer. Kept apart from the buffers
 * it is given so that nothing live across setjmp is modified after it. */
static bool encode_png(FILE *fp, const format *f, int width, int height, png_bytep *rows,
                       const text_spec *texts, int n_texts)
{
    png_color palette[256];
    png_byte alphas[256];
    png_text text[4];
    png_color_16 trans_colour;
    for (int i = 0; i < 256; i++) {
        palette[i] = palette_entry(i);
        alphas[i] = (png_byte)(i == 0 ? 0 : (i * 37) & 0xFF); /* entry 0: transparent white */
    }
    memset(&trans_colour, 0, sizeof trans_colour);
    memset(text, 0, sizeof text);
    for (int i = 0; i < n_texts && i < 4; i++) {
        text[i].compression = texts[i].compression;
        text[i].key = (png_charp)(uintptr_t)texts[i].key;
        text[i].text = (png_charp)(uintptr_t)texts[i].value;
        text[i].text_length = strlen(texts[i].value);
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png)
        return false;
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return false;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_init_io(png, fp);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, f->bit_depth, f->color_type,
                 f->interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (f->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_set_PLTE(png, info, palette, palette_size(f));
        if (f->trns) /* fewer alphas than entries: the rest are opaque */
            png_set_tRNS(png, info, alphas, palette_size(f) > 1 ? palette_size(f) - 1 : 1, NULL);
    } else if (f->trns) {
        /* white itself is the transparent colour: alpha is ignored, so it stays free */
        trans_colour.gray = 255;
        trans_colour.red = trans_colour.green = trans_colour.blue = 255;
        png_set_tRNS(png, info, NULL, 0, &trans_colour);
    }
    if (n_texts > 0)
        png_set_text(png, info, text, n_texts < 4 ? n_texts : 4);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return true;
}

/* Write `f` at width x height to `path` with libpng, returning the expected free bits
 * (caller frees) or NULL when writing failed. */
static bool *write_png(const char *path, const format *f, int width, int height, const text_spec *texts,
                       int n_texts)
{
    int channels = channels_of(f->color_type);
    size_t rowbytes = ((size_t)width * (size_t)channels * (size_t)f->bit_depth + 7) / 8;
    uint8_t *data = calloc((size_t)height, rowbytes);
    png_bytep *rows = malloc((size_t)height * sizeof *rows);
    bool *expect = malloc((size_t)width * (size_t)height * sizeof *expect);
    FILE *fp = fopen(path, "wb");
    bool ok = data && rows && expect && fp;
    if (ok) {
        for (int y = 0; y < height; y++) {
            rows[y] = data + (size_t)y * rowbytes;
            pack_row(f, width, y, rows[y], expect + (size_t)y * (size_t)width);
        }
        ok = encode_png(fp, f, width, height, rows, texts, n_texts);
    }
    if (fp && fclose(fp) != 0)
        ok = false;
    free(rows);
    free(data);
    if (!ok) {
        free(expect);
        return NULL;
    }
    return expect;
}

/* --- helpers ----------------------------------------------------------------------------- */

static char tmp_dir[64];
static char tmp_files[256][320];
static int n_tmp_files;

static const char *tmp_path(const char *name)
{
    if (n_tmp_files >= (int)COUNT(tmp_files))
        abort();
    char *path = tmp_files[n_tmp_files++];
    snprintf(path, sizeof tmp_files[0], "%s/%s", tmp_dir, name);
    return path;
}

static void cleanup_tmp(void)
{
    for (int i = 0; i < n_tmp_files; i++)
        unlink(tmp_files[i]);
    if (tmp_dir[0])
        rmdir(tmp_dir);
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    uint8_t *data = NULL;
    long length = -1;
    if (fseek(fp, 0, SEEK_END) == 0 && (length = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0) {
        data = malloc(length > 0 ? (size_t)length : 1);
        if (data && fread(data, 1, (size_t)length, fp) != (size_t)length) {
            free(data);
            data = NULL;
        }
    }
    fclose(fp);
    *size = (size_t)(length > 0 ? length : 0);
    return data;
}

static bool write_file(const char *path, const void *data, size_t size)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return false;
    bool ok = fwrite(data, 1, size, fp) == size;
    return fclose(fp) == 0 && ok;
}

static uint32_t crc32_png(const uint8_t *data, size_t size)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < size; i++) {
        crc ^= data[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return crc ^ 0xFFFFFFFFu;
}

static uint32_t get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* Offset of the first chunk `tag` (its length field), or 0 when absent. */
static size_t find_chunk(const uint8_t *png, size_t size, const char *tag)
{
    size_t pos = 8;
    while (pos + 12 <= size) {
        uint32_t length = get_be32(png + pos);
        if (memcmp(png + pos + 4, tag, 4) == 0)
            return pos;
        if (length > size - pos - 12)
            break;
        pos += 12 + (size_t)length;
    }
    return 0;
}

/* Recompute the CRC of the chunk at `pos` after editing it. */
static void fix_crc(uint8_t *png, size_t pos)
{
    uint32_t length = get_be32(png + pos);
    put_be32(png + pos + 8 + length, crc32_png(png + pos + 4, 4 + (size_t)length));
}

static bool bitmap_padding_clear(const pb_bitmap *map)
{
    for (int y = 0; y < map->height; y++)
        for (size_t x = (size_t)map->width; x < map->words_per_row * 64; x++)
            if ((map->bits[(size_t)y * map->words_per_row + x / 64] >> (x % 64)) & 1u)
                return false;
    return true;
}

/* A failed load: an error status, a message naming `name`, and an empty bitmap. */
static void check_failure(pb_status status, const pb_bitmap *map, const pb_diag *diag, const char *name,
                          const char *what)
{
    CHECK_MSG(status < 0, "%s: expected an error, got status %d", what, (int)status);
    CHECK_MSG(diag->message[0] != '\0', "%s: empty diagnostic message", what);
    CHECK_MSG(strstr(diag->message, name) != NULL || strstr(diag->file, name) != NULL,
              "%s: diagnostic does not name '%s': file '%s', message '%s'", what, name, diag->file,
              diag->message);
    CHECK_MSG(map->bits == NULL, "%s: bitmap not left empty after a failure", what);
}

/* --- the tests --------------------------------------------------------------------------- */

static void test_formats(void)
{
    static const text_spec texts[] = {{"planbench:start", "6.5,3.5", PNG_TEXT_COMPRESSION_NONE},
                                      {"planbench:goal", "0.5,0.5", PNG_TEXT_COMPRESSION_zTXt},
                                      {"Comment", "written by test_png", PNG_ITXT_COMPRESSION_NONE}};
    for (size_t fi = 0; fi < COUNT(formats); fi++) {
        const format *f = &formats[fi];
        for (size_t si = 0; si < COUNT(sizes); si++) {
            int width = sizes[si][0], height = sizes[si][1];
            char name[96];
            snprintf(name, sizeof name, "%s-%dx%d.png", f->name, width, height);
            const char *path = tmp_path(name);
            bool *expect = write_png(path, f, width, height, texts, 3);
            CHECK_MSG(expect != NULL, "libpng could not write %s", path);
            if (!expect)
                continue;
            uint64_t expect_count = 0;
            for (size_t i = 0; i < (size_t)width * (size_t)height; i++)
                expect_count += expect[i];

            pb_bitmap map;
            pb_diag diag = {0};
            pb_status status = pb_png_load(path, &map, &diag);
            CHECK_MSG(status == PB_OK, "%s: status %d: %s", name, (int)status, diag.message);
            if (status != PB_OK) {
                free(expect);
                continue;
            }
            CHECK_MSG(map.width == width && map.height == height, "%s: size %dx%d", name, map.width,
                      map.height);
            CHECK_MSG(map.words_per_row >= ((size_t)width + 63) / 64, "%s: words_per_row %zu", name,
                      map.words_per_row);
            int wrong = 0;
            for (int y = 0; y < height && map.width == width && map.height == height; y++)
                for (int x = 0; x < width; x++)
                    if (pb_bitmap_free(&map, x, y) != expect[(size_t)y * (size_t)width + (size_t)x]) {
                        if (wrong++ < 3)
                            fprintf(stderr, "%s: pixel (%d,%d): free=%d, expected %d\n", name, x, y,
                                    (int)pb_bitmap_free(&map, x, y),
                                    (int)expect[(size_t)y * (size_t)width + (size_t)x]);
                    }
            CHECK_MSG(wrong == 0, "%s: %d pixels decoded wrongly", name, wrong);
            CHECK_MSG(pb_bitmap_count_free(&map) == expect_count, "%s: %llu free, expected %llu", name,
                      (unsigned long long)pb_bitmap_count_free(&map), (unsigned long long)expect_count);
            CHECK_MSG(bitmap_padding_clear(&map), "%s: padding bits set", name);

            const char *start = pb_bitmap_text(&map, "planbench:start");
            const char *goal = pb_bitmap_text(&map, "planbench:goal");
            const char *comment = pb_bitmap_text(&map, "Comment");
            CHECK_MSG(start && strcmp(start, "6.5,3.5") == 0, "%s: tEXt start '%s'", name,
                      start ? start : "(null)");
            CHECK_MSG(goal && strcmp(goal, "0.5,0.5") == 0, "%s: zTXt goal '%s'", name,
                      goal ? goal : "(null)");
            CHECK_MSG(comment && strcmp(comment, "written by test_png") == 0, "%s: iTXt '%s'", name,
                      comment ? comment : "(null)");
            CHECK(pb_bitmap_text(&map, "planbench:nothing") == NULL);

            /* the same bytes from memory decode to the same bits */
            size_t size = 0;
            uint8_t *bytes = read_file(path, &size);
            CHECK(bytes != NULL);
            if (bytes) {
                pb_bitmap mem;
                pb_diag mem_diag = {0};
                status = pb_png_load_memory(bytes, size, name, &mem, &mem_diag);
                CHECK_MSG(status == PB_OK, "%s from memory: %s", name, mem_diag.message);
                if (status == PB_OK) {
                    CHECK(mem.width == map.width && mem.height == map.height &&
                          mem.words_per_row == map.words_per_row);
                    if (mem.width == map.width && mem.height == map.height &&
                        mem.words_per_row == map.words_per_row)
                        CHECK_MSG(memcmp(mem.bits, map.bits,
                                         (size_t)map.height * map.words_per_row * sizeof map.bits[0]) == 0,
                                  "%s: memory and file decodes differ", name);
                    pb_bitmap_finish(&mem);
                }
                free(bytes);
            }
            pb_bitmap_finish(&map);
            free(expect);
        }
    }
}

static const format *find_format(const char *name)
{
    for (size_t i = 0; i < COUNT(formats); i++)
        if (strcmp(formats[i].name, name) == 0)
            return &formats[i];
    abort();
}

/* A valid small PNG's bytes, for the corruption tests. Caller frees. */
static uint8_t *valid_png(const char *name, size_t *size)
{
    static const text_spec texts[] = {{"planbench:start", "1.5,1.5", PNG_TEXT_COMPRESSION_NONE}};
    const char *path = tmp_path(name);
    bool *expect = write_png(path, find_format("rgb8"), 130, 9, texts, 1);
    CHECK(expect != NULL);
    free(expect);
    return read_file(path, size);
}

static void expect_file_fails(const char *name, const void *data, size_t size, const char *what)
{
    const char *path = tmp_path(name);
    CHECK(write_file(path, data, size));
    pb_bitmap map;
    pb_diag diag = {0};
    pb_status status = pb_png_load(path, &map, &diag);
    check_failure(status, &map, &diag, name, what);
    if (status == PB_OK)
        pb_bitmap_finish(&map);

    pb_diag mem_diag = {0};
    status = pb_png_load_memory(data, size, name, &map, &mem_diag);
    check_failure(status, &map, &mem_diag, name, what);
    if (status == PB_OK)
        pb_bitmap_finish(&map);
}

static void test_bad_inputs(void)
{
    pb_bitmap map;
    pb_diag diag = {0};

    /* missing file */
    const char *missing = tmp_path("no-such-map.png");
    pb_status status = pb_png_load(missing, &map, &diag);
    check_failure(status, &map, &diag, "no-such-map.png", "missing file");

    /* not a PNG at all, and an empty file */
    static const char text[] = "P1\n2 2\n0 1\n1 0\n this is a PBM, not a PNG\n";
    expect_file_fails("not-a-png.png", text, sizeof text - 1, "not a PNG");
    expect_file_fails("empty.png", "", 0, "empty file");

    size_t size = 0;
    uint8_t *png = valid_png("valid.png", &size);
    CHECK(png != NULL && size > 100);
    if (!png)
        return;
    size_t idat = find_chunk(png, size, "IDAT");
    CHECK(idat > 0);
    if (idat == 0) {
        free(png);
        return;
    }
    uint32_t idat_length = get_be32(png + idat);
    uint8_t *copy = malloc(size);
    CHECK(copy != NULL);
    if (!copy) {
        free(png);
        return;
    }

    /* cut in half */
    expect_file_fails("half.png", png, size / 2, "truncated PNG");

    /* every prefix: never crashes; cut inside the first half of the image data: an error */
    for (size_t length = 0; length < size; length++) {
        pb_diag d = {0};
        status = pb_png_load_memory(png, length, "prefix.png", &map, &d);
        if (status == PB_OK)
            pb_bitmap_finish(&map);
        if (length < idat + 8 + idat_length / 2)
            CHECK_MSG(status < 0 && d.message[0] != '\0', "prefix of %zu bytes: status %d", length,
                      (int)status);
    }

    /* a wrong CRC on IDAT */
    memcpy(copy, png, size);
    copy[idat + 8 + idat_length] ^= 0x5A;
    expect_file_fails("bad-idat-crc.png", copy, size, "IDAT CRC");

    /* a flipped byte inside IDAT (the CRC no longer matches) */
    memcpy(copy, png, size);
    copy[idat + 8 + idat_length / 2] ^= 0xFF;
    expect_file_fails("flipped-idat.png", copy, size, "corrupted IDAT");

    /* corrupted zlib data with a correct CRC: the decompressor must catch it */
    memcpy(copy, png, size);
    copy[idat + 8] = 0xFF, copy[idat + 9] = 0xFF;
    fix_crc(copy, idat);
    expect_file_fails("bad-zlib.png", copy, size, "bad zlib header");

    /* IDAT body replaced by garbage, correct CRC */
    memcpy(copy, png, size);
    for (uint32_t i = 2; i < idat_length; i++)
        copy[idat + 8 + i] = (uint8_t)(0xA5 ^ (i * 29));
    fix_crc(copy, idat);
    expect_file_fails("garbage-idat.png", copy, size, "garbage IDAT");

    /* a wrong CRC on IHDR */
    memcpy(copy, png, size);
    copy[8 + 8 + 13] ^= 0x01;
    expect_file_fails("bad-ihdr-crc.png", copy, size, "IHDR CRC");

    /* an impossible bit depth (3) with a correct CRC */
    memcpy(copy, png, size);
    copy[8 + 8 + 8] = 3;
    fix_crc(copy, 8);
    expect_file_fails("bad-depth.png", copy, size, "bit depth 3");

    /* zero width */
    memcpy(copy, png, size);
    put_be32(copy + 8 + 8, 0);
    fix_crc(copy, 8);
    expect_file_fails("zero-width.png", copy, size, "zero width");

    /* larger than PB_PNG_MAX_PIXELS (20000 x 20000 > 2^28), with little data behind it */
    memcpy(copy, png, size);
    put_be32(copy + 8 + 8, 20000);
    put_be32(copy + 8 + 12, 20000);
    fix_crc(copy, 8);
    expect_file_fails("huge.png", copy, size, "huge dimensions");

    /* issue 15: an interlaced 16384^2 16-bit grey+alpha header: decoding it whole would need
     * 1 GiB; refused before any allocation of that size, whatever little data follows */
    memcpy(copy, png, size);
    put_be32(copy + 8 + 8, 16384);
    put_be32(copy + 8 + 12, 16384);
    copy[8 + 8 + 8] = 16; /* bit depth */
    copy[8 + 8 + 9] = 4;  /* grey + alpha */
    copy[8 + 8 + 12] = 1; /* Adam7 */
    fix_crc(copy, 8);
    {
        const char *path = tmp_path("interlace-bomb.png");
        CHECK(write_file(path, copy, size));
        pb_diag bomb = {0};
        CHECK(pb_png_load(path, &map, &bomb) != PB_OK);
        CHECK_MSG(strstr(bomb.message, "interlaced image this large") != NULL, "%s", bomb.message);
    }

    /* issue 15: 24 MiB of extra IDAT after a complete image: refused after 16 MiB, at once */
    {
        const size_t extra_chunks = 24, chunk = (size_t)1 << 20;
        const size_t iend_at = find_chunk(png, size, "IEND");
        const size_t padded_size = size + extra_chunks * (chunk + 12);
        uint8_t *padded = calloc(1, padded_size);
        CHECK(padded != NULL && iend_at > 0);
        if (padded && iend_at > 0) {
            memcpy(padded, png, iend_at);
            size_t at = iend_at;
            for (size_t k = 0; k < extra_chunks; k++) {
                put_be32(padded + at, (uint32_t)chunk);
                memcpy(padded + at + 4, "IDAT", 4);
                put_be32(padded + at + 8 + chunk, crc32_png(padded + at + 4, 4 + chunk));
                at += chunk + 12;
            }
            memcpy(padded + at, png + iend_at, size - iend_at);
            const double t0 = pb_clock_seconds();
            pb_diag trailing = {0};
            const pb_status st = pb_png_load_memory(padded, padded_size, "trailing.png", &map, &trailing);
            CHECK_MSG(st != PB_OK && strstr(trailing.message, "after the image"), "%d %s", st,
                      trailing.message);
            CHECK(pb_clock_seconds() - t0 < 1.0);
            if (st == PB_OK)
                pb_bitmap_finish(&map);
        }
        free(padded);
    }

    /* no IDAT: the signature, IHDR and IEND only */
    size_t iend = find_chunk(png, size, "IEND");
    CHECK(iend > 0);
    if (iend > 0) {
        memcpy(copy, png, 8 + 25);
        memcpy(copy + 8 + 25, png + iend, 12);
        expect_file_fails("no-idat.png", copy, 8 + 25 + 12, "no IDAT");
    }

    free(copy);
    free(png);
}

static void test_shared_decode_anchors(void)
{
    const char *shared = pb_test_shared_root();
    if (!shared) {
        printf("shared tree absent: skipping the OMPL decode anchors\n");
        return;
    }
    char dir_path[4200];
    snprintf(dir_path, sizeof dir_path, "%s/anchors/ompl/maps/decode", shared);
    DIR *dir = opendir(dir_path);
    if (!dir) {
        printf("%s absent: skipping the OMPL decode anchors\n", dir_path);
        return;
    }
    int n_files = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        const char *name = entry->d_name;
        size_t length = strlen(name);
        const char *tag = strstr(name, "_free");
        if (length < 4 || strcmp(name + length - 4, ".png") != 0 || !tag)
            continue;
        char *end = NULL;
        unsigned long long expect = strtoull(tag + 5, &end, 10);
        if (end == tag + 5 || strcmp(end, ".png") != 0)
            continue;
        char path[8400];
        snprintf(path, sizeof path, "%s/%s", dir_path, name);
        pb_bitmap map;
        pb_diag diag = {0};
        pb_status status = pb_png_load(path, &map, &diag);
        CHECK_MSG(status == PB_OK, "%s: %s", path, diag.message);
        if (status == PB_OK) {
            CHECK_MSG(pb_bitmap_count_free(&map) == expect, "%s: %llu free, expected %llu", name,
                      (unsigned long long)pb_bitmap_count_free(&map), expect);
            pb_bitmap_finish(&map);
        }
        n_files++;
    }
    closedir(dir);
    CHECK_MSG(n_files > 0, "no *_freeN.png files in %s", dir_path);
    printf("checked %d OMPL decode anchors\n", n_files);
}

static bool parse_point(const char *text, int n, double *out)
{
    if (!text)
        return false;
    const char *p = text;
    for (int i = 0; i < n; i++) {
        char *end = NULL;
        out[i] = strtod(p, &end);
        if (end == p)
            return false;
        p = end;
        if (i + 1 < n) {
            if (*p != ',')
                return false;
            p++;
        }
    }
    return *p == '\0';
}

static void test_bundled_maps(void)
{
    static const struct {
        const char *file;
        int width, height;
        bool arm;
    } maps[] = {{"room1.png", 500, 400, false},
                {"maze.png", 1000, 1000, false},
                {"forest.png", 1000, 1000, false},
                {"narrow.png", 1000, 1000, false},
                {"4d.png", 1000, 1000, true}};
    for (size_t i = 0; i < COUNT(maps); i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/maps/%s", pb_test_source_root(), maps[i].file);
        pb_bitmap map;
        pb_diag diag = {0};
        pb_status status = pb_png_load(path, &map, &diag);
        CHECK_MSG(status == PB_OK, "%s: %s", path, diag.message);
        if (status != PB_OK)
            continue;
        CHECK_MSG(map.width == maps[i].width && map.height == maps[i].height, "%s: %dx%d", maps[i].file,
                  map.width, map.height);
        uint64_t n_free = pb_bitmap_count_free(&map);
        CHECK_MSG(n_free > 0 && n_free < (uint64_t)map.width * (uint64_t)map.height, "%s: %llu free",
                  maps[i].file, (unsigned long long)n_free);
        const char *keys[] = {"planbench:start", "planbench:goal"};
        for (int k = 0; k < 2; k++) {
            double xy[2];
            const char *value = pb_bitmap_text(&map, keys[k]);
            bool ok = parse_point(value, 2, xy);
            CHECK_MSG(ok, "%s: %s = '%s'", maps[i].file, keys[k], value ? value : "(absent)");
            if (ok && xy[0] >= 0 && xy[1] >= 0 && xy[0] < map.width && xy[1] < map.height)
                CHECK_MSG(pb_bitmap_free(&map, (int)xy[0], (int)xy[1]), "%s: %s %s is not free", maps[i].file,
                          keys[k], value);
            else
                CHECK_MSG(false, "%s: %s outside the map", maps[i].file, keys[k]);
        }
        const char *arm_keys[] = {"planbench:stickarm4d:start", "planbench:stickarm4d:goal"};
        for (int k = 0; k < 2; k++) {
            double q[4];
            const char *value = pb_bitmap_text(&map, arm_keys[k]);
            if (maps[i].arm)
                CHECK_MSG(parse_point(value, 4, q), "%s: %s = '%s'", maps[i].file, arm_keys[k],
                          value ? value : "(absent)");
            else
                CHECK(value == NULL);
        }
        pb_bitmap_finish(&map);
    }
}

int main(void)
{
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/pb_test_png_XXXXXX");
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_formats();
    test_bad_inputs();
    test_shared_decode_anchors();
    test_bundled_maps();
    cleanup_tmp();
    return pb_test_summary("png");
}
