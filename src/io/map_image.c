/* Occupancy images as map_server reads them: the pixel rules of map_image.h, PNG through
 * png_map.c, and the netpbm formats through libnetpbm's PAM reader (which reads PBM, PGM,
 * PPM and PAM alike). libnetpbm reports errors by calling pm_error(), which would exit the
 * program: a jump buffer and a message hook turn that into a diagnostic, under a lock since
 * both are global. */
#include "io/map_image.h"
#include "io/input_file.h"
#include "io/png_map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if PB_HAVE_NETPBM
#include <netpbm/pam.h>
#include <pthread.h>
#include <setjmp.h>
#endif

const char *pb_map_mode_str(pb_map_mode mode)
{
    switch (mode) {
    case PB_MAP_MODE_SCALE:
        return "scale";
    case PB_MAP_MODE_RAW:
        return "raw";
    default:
        return "trinary";
    }
}

int pb_map_pixel_value(const pb_map_rules *rules, uint32_t colour_sum, int n_colour, bool has_alpha,
                       uint32_t alpha, uint32_t maxval)
{
    uint64_t sum = colour_sum, n = (uint64_t)n_colour;
    if (rules->mode == PB_MAP_MODE_RAW) {
        /* round(shade * 255) with shade = sum / (maxval * n), in integers: round half up */
        const uint64_t den = (uint64_t)maxval * n;
        const uint64_t v = (2 * sum * 255 + den) / (2 * den);
        return v <= 100 ? (int)v : -1;
    }
    if (rules->mode == PB_MAP_MODE_TRINARY && has_alpha) {
        sum += alpha; /* nav2 averages alpha in with the colour channels in trinary mode */
        n++;
    }
    const uint64_t den = (uint64_t)maxval * n;
    const double p = (double)(rules->negate ? sum : den - sum) / (double)den;
    if (rules->mode == PB_MAP_MODE_SCALE && has_alpha && alpha < maxval)
        return -1;
    if (p > rules->occupied_thresh)
        return 100;
    if (p < rules->free_thresh)
        return 0;
    if (rules->mode == PB_MAP_MODE_TRINARY)
        return -1;
    /* scale: between the thresholds; with both equal p is exactly on them, where nav2 divides
     * 0 by 0: unknown */
    if (!(rules->occupied_thresh > rules->free_thresh))
        return -1;
    return (int)rint((p - rules->free_thresh) / (rules->occupied_thresh - rules->free_thresh) * 100.0);
}

/* A PNG row (8-bit RGB or RGBA) under map_server's rules. */
static void pack_rules(void *payload, const uint8_t *row, int channels, int width, uint64_t *bits)
{
    const pb_map_rules *rules = payload;
    for (int x = 0; x < width; x++) {
        const uint8_t *p = row + (size_t)x * (size_t)channels;
        const uint32_t sum = (uint32_t)p[0] + p[1] + p[2];
        if (pb_map_pixel_value(rules, sum, 3, channels == 4, channels == 4 ? p[3] : 255, 255) == 0)
            bits[x >> 6] |= (uint64_t)1 << (x & 63);
    }
}

#if PB_HAVE_NETPBM

static pthread_mutex_t netpbm_lock = PTHREAD_MUTEX_INITIALIZER;
static char netpbm_message[256]; /* under netpbm_lock */

static void on_netpbm_error(const char *message)
{
    snprintf(netpbm_message, sizeof netpbm_message, "%s", message);
}

static void on_netpbm_message(const char *message)
{
    (void)message; /* informational messages are not printed */
}

/* Everything the error path frees, on the heap so that a longjmp leaves it intact. */
typedef struct netpbm_read {
    jmp_buf jump;
    FILE *fp;
    struct pam pam;
    tuple *row;
    jmp_buf *previous; /* the jump buffer before ours, set again at the end */
} netpbm_read;

static pb_status load_netpbm(const char *path, const pb_map_rules *rules, pb_bitmap *out, pb_diag *diag)
{
    netpbm_read *r = calloc(1, sizeof *r);
    pb_status status = r ? PB_ERR_IO : PB_ERR_NOMEM;
    if (r)
        r->fp = pb_file_open_regular(path, diag, &status);
    else
        pb_diag_set(diag, path, 0, 0, "out of memory");
    if (!r || !r->fp) {
        free(r);
        return status;
    }
    pthread_mutex_lock(&netpbm_lock);
    static bool initialised;
    if (!initialised) {
        pm_init("planbench", 0);
        initialised = true;
    }
    pm_setusererrormsgfn(on_netpbm_error);
    pm_setusermessagefn(on_netpbm_message);
    netpbm_message[0] = '\0';
    status = PB_OK;
    if (setjmp(r->jump) != 0) {
        pb_diag_set(diag, path, 0, 0, "not a valid netpbm (PGM, PBM, PPM, PAM) image: %s",
                    netpbm_message[0] ? netpbm_message : "read error");
        status = PB_ERR_INVALID;
    } else {
        pm_setjmpbufsave(&r->jump, &r->previous);
        pnm_readpaminit(r->fp, &r->pam, (int)sizeof r->pam); /* not PAM_STRUCT_SIZE(): UB on a null pointer */
        const struct pam *pam = &r->pam;
        const bool has_alpha = pam->depth == 2 || pam->depth == 4;
        const bool grey = pam->depth < 3;
        if (pam->width <= 0 || pam->height <= 0 || pam->depth < 1 || pam->depth > 4 || pam->maxval < 1) {
            pb_diag_set(diag, path, 0, 0, "unsupported netpbm image: %d x %d pixels of %u samples",
                        pam->width, pam->height, pam->depth);
            status = PB_ERR_INVALID;
        } else if ((uint64_t)pam->width * (uint64_t)pam->height > PB_PNG_MAX_PIXELS ||
                   pam->width > (1 << 20) || pam->height > (1 << 20)) {
            pb_diag_set(diag, path, 0, 0, "image is larger than 2^28 pixels or 2^20 on a side");
            status = PB_ERR_INVALID;
        } else {
            out->width = pam->width;
            out->height = pam->height;
            out->words_per_row = ((size_t)pam->width + 63) / 64;
            out->bits = calloc(out->words_per_row * (size_t)pam->height, sizeof(uint64_t));
            r->row = out->bits ? pnm_allocpamrow(pam) : NULL;
            if (!r->row) {
                pb_diag_set(diag, path, 0, 0, "out of memory for the map");
                status = PB_ERR_NOMEM;
            }
            for (int y = 0; status == PB_OK && y < pam->height; y++) {
                pnm_readpamrow(&r->pam, r->row);
                uint64_t *bits = out->bits + (size_t)y * out->words_per_row;
                for (int x = 0; x < pam->width; x++) {
                    const sample *s = r->row[x];
                    /* grey g counts as RGB (g, g, g), as GraphicsMagick hands it to nav2: the
                     * weight of an alpha channel averaged in is then the same */
                    const uint32_t sum =
                        grey ? 3 * (uint32_t)s[0] : (uint32_t)s[0] + (uint32_t)s[1] + (uint32_t)s[2];
                    const uint32_t alpha = has_alpha ? (uint32_t)s[pam->depth - 1] : (uint32_t)pam->maxval;
                    if (pb_map_pixel_value(rules, sum, 3, has_alpha, alpha, (uint32_t)pam->maxval) == 0)
                        bits[x >> 6] |= (uint64_t)1 << (x & 63);
                }
            }
        }
    }
    pm_setjmpbuf(r->previous);
    pthread_mutex_unlock(&netpbm_lock);
    if (r->row)
        pnm_freepamrow(r->row);
    fclose(r->fp);
    free(r);
    if (status != PB_OK)
        pb_bitmap_finish(out);
    return status;
}

#else

static pb_status load_netpbm(const char *path, const pb_map_rules *rules, pb_bitmap *out, pb_diag *diag)
{
    (void)rules;
    (void)out;
    pb_diag_set(diag, path, 0, 0,
                "this build reads no PGM images: it was built without libnetpbm (install libnetpbm-dev, "
                "or run tools/install-deps.sh, and configure again), or convert the image to PNG");
    return PB_ERR_UNSUPPORTED;
}

#endif

pb_status pb_map_image_load(const char *path, const pb_map_rules *rules, pb_bitmap *out, pb_diag *diag)
{
    memset(out, 0, sizeof *out);
    pb_status status = PB_ERR_IO;
    FILE *fp = pb_file_open_regular(path, diag, &status);
    if (!fp)
        return status;
    unsigned char head[8] = {0};
    const size_t n = fread(head, 1, sizeof head, fp);
    fclose(fp);
    static const unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    const bool png = n == sizeof head && memcmp(head, png_signature, sizeof head) == 0;
    if (!png && n >= 2 && head[0] == 'P' && head[1] >= '1' && head[1] <= '7') {
        /* a netpbm image without a YAML file: map_saver's default thresholds */
        const pb_map_rules trinary = {PB_MAP_MODE_TRINARY, false, 0.65, 0.25};
        return load_netpbm(path, rules ? rules : &trinary, out, diag);
    }
    const size_t len = strlen(path);
    if (!png && len > 4 && path[len - 4] == '.' && strchr("pP", path[len - 3]) &&
        strchr("bgpaBGPA", path[len - 2]) && strchr("mM", path[len - 1])) {
        pb_diag_set(diag, path, 0, 0,
                    "not a netpbm (PGM, PBM, PPM, PAM) image: its magic number P1..P7 is missing");
        return PB_ERR_INVALID;
    }
    /* anything else is read as a PNG, which says when it is not one */
    return rules ? pb_png_load_packed(path, pack_rules, (void *)rules, out, diag)
                 : pb_png_load(path, out, diag);
}
