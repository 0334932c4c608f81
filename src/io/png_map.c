/* PNG maps through libpng's classic API: every colour type and bit depth is reduced to
 * 8-bit RGB(A) rows, and each row is packed into free/occupied bits as it is read. */
#include "io/png_map.h"
#include "io/input_file.h"
#include "planbench/impl/engine_impl.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* State shared with libpng's callbacks. Heap-allocated before setjmp so that nothing the
 * error path needs lives in a local variable changed after setjmp. */
typedef struct decode_state {
    jmp_buf jump;
    char error[200];
    const uint8_t *data; /* memory source, or NULL for a FILE */
    size_t size, pos;
    FILE *fp;
    png_structp png;
    png_infop info;
    uint8_t *image; /* whole decoded image (interlaced) or one row */
    png_bytep *rows;
    uint64_t bytes_read, read_limit; /* input consumed, and how much may be */
    pb_png_pack_fn pack;             /* which pixels are free */
    void *pack_payload;
} decode_state;

/* Input read for one map at most (compressed), and after the last row (the trailing chunks:
 * text, IEND; a file padded with a gigabyte of extra IDAT cost seconds to inflate). */
#define MAX_INPUT_BYTES    ((uint64_t)1 << 30)
#define MAX_TRAILING_BYTES ((uint64_t)16 << 20)
/* An interlaced image is decoded whole before its rows can be packed: at most this many bytes
 * (a 1 MB interlaced 16384^2 16-bit grey+alpha file asked for 1 GiB). */
#define MAX_INTERLACED_BYTES ((size_t)256 << 20)

static void count_input(png_structp png, decode_state *s, size_t n)
{
    s->bytes_read += n;
    if (s->bytes_read > s->read_limit)
        png_error(png, s->read_limit < MAX_INPUT_BYTES ? "more than 16 MiB of data after the image"
                                                       : "more than 1 GiB of compressed data");
}

static void on_error(png_structp png, png_const_charp message)
{
    decode_state *s = png_get_error_ptr(png);
    snprintf(s->error, sizeof s->error, "%s", message);
    longjmp(s->jump, 1);
}

static void on_warning(png_structp png, png_const_charp message)
{
    (void)png;
    (void)message; /* warnings (an unknown chunk, say) do not stop a map from loading */
}

/* libpng's allocations go through here: a request larger than any legitimate map needs
 * (a forged chunk length in a 150-byte file asks for gigabytes, and libpng 1.6 only warns
 * about it) is refused, which libpng reports as an error. */
#define MAX_LIBPNG_ALLOCATION ((size_t)64 << 20)

static png_voidp limited_malloc(png_structp png, png_alloc_size_t size)
{
    (void)png;
    return size <= MAX_LIBPNG_ALLOCATION ? malloc(size) : NULL;
}

static void limited_free(png_structp png, png_voidp ptr)
{
    (void)png;
    free(ptr);
}

static void read_memory(png_structp png, png_bytep out, size_t n)
{
    decode_state *s = png_get_io_ptr(png);
    count_input(png, s, n);
    if (n > s->size - s->pos)
        png_error(png, "file is truncated");
    memcpy(out, s->data + s->pos, n);
    s->pos += n;
}

static void read_file(png_structp png, png_bytep out, size_t n)
{
    decode_state *s = png_get_io_ptr(png);
    count_input(png, s, n);
    if (fread(out, 1, n, s->fp) != n)
        png_error(png, ferror(s->fp) ? "read error" : "file is truncated");
}

static void collect_text(decode_state *s, png_infop info, pb_bitmap *out)
{
    png_textp text = NULL;
    int n = 0;
    png_get_text(s->png, info, &text, &n);
    for (int i = 0; i < n && out->n_text < PB_BITMAP_MAX_TEXT; i++) {
        pb_bitmap_text_chunk *t = &out->text[out->n_text++];
        snprintf(t->key, sizeof t->key, "%s", text[i].key ? text[i].key : "");
        snprintf(t->value, sizeof t->value, "%s", text[i].text ? text[i].text : "");
    }
}

/* planbench's own rule: free when the RGB is (255,255,255), alpha ignored */
static void pack_white(void *payload, const uint8_t *row, int channels, int width, uint64_t *bits)
{
    (void)payload;
    for (int x = 0; x < width; x++) {
        const uint8_t *p = row + (size_t)x * (size_t)channels;
        if (p[0] == 255 && p[1] == 255 && p[2] == 255)
            bits[x >> 6] |= (uint64_t)1 << (x & 63);
    }
}

/* Decode with `s` set up for a source; fills `out`. Returns false with s->error set. */
static bool decode(decode_state *s, pb_bitmap *out)
{
    png_structp png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, s, on_error, on_warning, NULL,
                                               limited_malloc, limited_free);
    if (!png) {
        snprintf(s->error, sizeof s->error, "out of memory");
        return false;
    }
    s->png = png;
    s->info = png_create_info_struct(png);
    png_infop end_info = png_create_info_struct(png);
    if (!s->info || !end_info) {
        png_destroy_read_struct(&s->png, &s->info, NULL);
        snprintf(s->error, sizeof s->error, "out of memory");
        return false;
    }
    if (setjmp(s->jump)) {
        png_destroy_read_struct(&s->png, &s->info, &end_info);
        return false;
    }
    if (s->data)
        png_set_read_fn(png, s, read_memory);
    else
        png_set_read_fn(png, s, read_file);
    png_set_user_limits(png, 1u << 20, 1u << 20);
    png_set_chunk_malloc_max(png, 64u << 20);
    s->read_limit = MAX_INPUT_BYTES;

    png_read_info(png, s->info);
    const png_uint_32 width = png_get_image_width(png, s->info);
    const png_uint_32 height = png_get_image_height(png, s->info);
    if ((uint64_t)width * height > PB_PNG_MAX_PIXELS)
        png_error(png, "image is larger than 2^28 pixels");
    const int color_type = png_get_color_type(png, s->info);
    const int bit_depth = png_get_bit_depth(png, s->info);
    if (color_type == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png); /* may add alpha from tRNS: ignored */
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (bit_depth == 16)
        png_set_strip_16(png); /* keep the high byte */
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    const int passes = png_set_interlace_handling(png);
    png_read_update_info(png, s->info);
    const int channels = png_get_channels(png, s->info);
    const size_t rowbytes = png_get_rowbytes(png, s->info);
    if (channels < 3 || rowbytes < (size_t)width * (size_t)channels)
        png_error(png, "unexpected channel layout after decoding");

    out->width = (int)width;
    out->height = (int)height;
    out->words_per_row = ((size_t)width + 63) / 64;
    out->bits = calloc(out->words_per_row * height, sizeof(uint64_t));
    if (!out->bits)
        png_error(png, "out of memory for the map");
    collect_text(s, s->info, out);

    if (passes > 1) {
        if ((uint64_t)rowbytes * height > MAX_INTERLACED_BYTES)
            png_error(png,
                      "an interlaced image this large is not supported (its decoded size exceeds 256 MiB): "
                      "save the map without interlacing");
        s->image = malloc(rowbytes * height);
        if (!s->image)
            png_error(png, "out of memory for an interlaced image");
        s->rows = malloc(sizeof(png_bytep) * height);
        if (!s->rows)
            png_error(png, "out of memory for an interlaced image");
        for (png_uint_32 y = 0; y < height; y++)
            s->rows[y] = s->image + (size_t)y * rowbytes;
        png_read_image(png, s->rows);
        for (png_uint_32 y = 0; y < height; y++)
            s->pack(s->pack_payload, s->image + (size_t)y * rowbytes, channels, (int)width,
                    out->bits + (size_t)y * out->words_per_row);
    } else {
        s->image = malloc(rowbytes);
        if (!s->image)
            png_error(png, "out of memory for a row");
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(png, s->image, NULL);
            s->pack(s->pack_payload, s->image, channels, (int)width,
                    out->bits + (size_t)y * out->words_per_row);
        }
    }
    s->read_limit = s->bytes_read + MAX_TRAILING_BYTES;
    png_read_end(png, end_info);
    collect_text(s, end_info, out);
    png_destroy_read_struct(&s->png, &s->info, &end_info);
    return true;
}

static pb_status finish_decode(decode_state *s, bool ok, const char *name, pb_bitmap *out, pb_diag *diag)
{
    free(s->image);
    free(s->rows);
    if (!ok) {
        pb_bitmap_finish(out);
        pb_diag_set(diag, name, 0, 0, "not a valid PNG map: %s", s->error);
        free(s);
        return PB_ERR_INVALID;
    }
    free(s);
    return PB_OK;
}

pb_status pb_png_load_memory(const void *data, size_t size, const char *name, pb_bitmap *out, pb_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (size < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        pb_diag_set(diag, name, 0, 0, "not a PNG file (the PNG signature is missing)");
        return PB_ERR_INVALID;
    }
    decode_state *s = calloc(1, sizeof *s);
    if (!s) {
        pb_diag_set(diag, name, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    s->data = data;
    s->size = size;
    s->pack = pack_white;
    const bool ok = decode(s, out);
    return finish_decode(s, ok, name, out, diag);
}

pb_status pb_png_load(const char *path, pb_bitmap *out, pb_diag *diag)
{
    return pb_png_load_packed(path, pack_white, NULL, out, diag);
}

pb_status pb_png_load_packed(const char *path, pb_png_pack_fn pack, void *payload, pb_bitmap *out,
                             pb_diag *diag)
{
    memset(out, 0, sizeof *out);
    pb_status open_status = PB_ERR_IO;
    FILE *fp = pb_file_open_regular(path, diag, &open_status);
    if (!fp)
        return open_status;
    uint8_t sig[8];
    if (fread(sig, 1, 8, fp) != 8 || png_sig_cmp(sig, 0, 8) != 0) {
        fclose(fp);
        pb_diag_set(diag, path, 0, 0, "not a PNG file (the PNG signature is missing)");
        return PB_ERR_INVALID;
    }
    rewind(fp);
    decode_state *s = calloc(1, sizeof *s);
    if (!s) {
        fclose(fp);
        pb_diag_set(diag, path, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    s->fp = fp;
    s->pack = pack;
    s->pack_payload = payload;
    const bool ok = decode(s, out);
    fclose(fp);
    return finish_decode(s, ok, path, out, diag);
}

static pb_status read_vector(const pb_bitmap *map, const char *path, const char *key, int dim,
                             const char *format, double *out, bool *found, pb_diag *diag)
{
    const char *text = pb_bitmap_text(map, key);
    *found = text != NULL;
    if (!text)
        return PB_OK;
    double values[PB_MAX_DIM];
    if (dim > PB_MAX_DIM || pb_parse_doubles(text, values, dim) != dim) {
        pb_diag_set(diag, path, 0, 0, "text chunk '%s' must be \"%s\", got \"%s\"", key, format, text);
        return PB_ERR_INVALID;
    }
    memcpy(out, values, (size_t)dim * sizeof(double));
    return PB_OK;
}

pb_status pb_bitmap_read_defaults(const pb_bitmap *map, const char *path, const char *start_key,
                                  const char *goal_key, int dim, const char *format, double *start,
                                  double *goal, bool *has, pb_diag *diag)
{
    bool has_start = false, has_goal = false;
    pb_status st = read_vector(map, path, start_key, dim, format, start, &has_start, diag);
    if (st == PB_OK)
        st = read_vector(map, path, goal_key, dim, format, goal, &has_goal, diag);
    *has = st == PB_OK && has_start && has_goal;
    return st;
}

pb_status pb_bitmap_render(const pb_bitmap *map, pb_image *image, double *scale, pb_diag *diag)
{
    const pb_status st = pb_image_init(image, map->width, map->height);
    if (st != PB_OK) {
        pb_diag_set(diag, NULL, 0, 0, "out of memory for the picture");
        return st;
    }
    for (int y = 0; y < map->height; y++)
        for (int x = 0; x < map->width; x++)
            if (!pb_bitmap_free(map, x, y))
                memset(image->rgb + ((size_t)y * (size_t)map->width + (size_t)x) * 3, 40, 3);
    *scale = 1.0;
    return PB_OK;
}
