/* Klampt .rob robots and rigid objects. See klampt.h. */
#include "robot/klampt.h"
#include "io/input_file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_LINKS       128
#define MAX_PAIRS       4096
#define MAX_MOUNT_DEPTH 4
#define MAX_FILE_SIZE   (16u << 20)

/* ---- text ---- */

/* A growing string. */
typedef struct text_buf {
    char *data;
    size_t len, cap;
    bool failed;
} text_buf;

static void text_add(text_buf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    char tmp[8192];
    const int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        b->failed = true;
        return;
    }
    if (b->len + (size_t)n + 1 > b->cap) {
        const size_t cap = (b->cap ? 2 * b->cap : 4096) + (size_t)n;
        char *d = realloc(b->data, cap);
        if (!d) {
            b->failed = true;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, tmp, (size_t)n + 1);
    b->len += (size_t)n;
}

/* `s` with XML's special characters escaped, into out (truncated to size). */
static void xml_escape(const char *s, char *out, size_t size)
{
    size_t k = 0;
    for (; *s && k + 7 < size; s++) {
        const char *rep = *s == '&'    ? "&amp;"
                          : *s == '<'  ? "&lt;"
                          : *s == '>'  ? "&gt;"
                          : *s == '"'  ? "&quot;"
                          : *s == '\'' ? "&apos;"
                                       : NULL;
        if (rep) {
            memcpy(out + k, rep, strlen(rep));
            k += strlen(rep);
        } else {
            out[k++] = *s;
        }
    }
    if (*s) /* truncated: never in the middle of a UTF-8 sequence */
        while (k > 0 && ((unsigned char)out[k - 1] & 0x80)) {
            const bool lead = ((unsigned char)out[k - 1] & 0xC0) == 0xC0;
            k--;
            if (lead)
                break;
        }
    out[k] = '\0';
}

static char *read_file(const char *path, size_t *size, pb_diag *diag)
{
    FILE *fp = pb_file_open_regular(path, diag, NULL);
    if (!fp)
        return NULL;
    char *data = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            char *d = cap <= MAX_FILE_SIZE ? realloc(data, cap) : NULL;
            if (!d) {
                free(data);
                fclose(fp);
                pb_diag_set(diag, path, 0, 0, "the file is too large (or out of memory)");
                return NULL;
            }
            data = d;
        }
        const size_t got = fread(data + len, 1, 4096, fp);
        len += got;
        if (got < 4096)
            break;
    }
    const bool bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(data);
        pb_diag_set(diag, path, 0, 0, "cannot read the file");
        return NULL;
    }
    data[len] = '\0';
    *size = len;
    return data;
}

static void join(const char *dir, const char *name, char *out, size_t size)
{
    /* a name too long for `out` becomes "", which no file has */
    const int n = name[0] == '/' || !dir || !dir[0] ? snprintf(out, size, "%s", name)
                                                    : snprintf(out, size, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= size)
        out[0] = '\0';
}

/* ---- the .rob tokenizer: logical lines of words and quoted strings ---- */

#define MAX_TOKENS 4096

typedef struct rob_line {
    int line;     /* where the logical line starts */
    int n;        /* tokens */
    char **words; /* n pointers into `store` */
    bool *quoted;
} rob_line;

typedef struct rob_text {
    const char *data;
    size_t size, pos;
    int line;
    char *store;
    char *words[MAX_TOKENS];
    bool quoted[MAX_TOKENS];
} rob_text;

/* The next logical line with at least one token; false at the end. Tokens beyond
 * MAX_TOKENS make the line's n negative (an error for the caller). */
static bool next_line(rob_text *t, rob_line *out)
{
    for (;;) {
        if (t->pos >= t->size)
            return false;
        out->line = t->line;
        out->n = 0;
        out->words = t->words;
        out->quoted = t->quoted;
        char *w = t->store;
        bool overflow = false;
        while (t->pos < t->size) {
            const char c = t->data[t->pos];
            if (c == '\n') {
                t->pos++;
                t->line++;
                break;
            }
            if (c == '#') {
                while (t->pos < t->size && t->data[t->pos] != '\n')
                    t->pos++;
                continue;
            }
            if (c == '\\') {
                /* a continuation when only blanks follow it on this line */
                size_t k = t->pos + 1;
                while (k < t->size && (t->data[k] == ' ' || t->data[k] == '\t' || t->data[k] == '\r'))
                    k++;
                if (k >= t->size || t->data[k] == '\n') {
                    t->pos = k < t->size ? k + 1 : k;
                    t->line++;
                    /* ...unless the next line starts with a keyword (a letter): files end
                     * a list with a stray backslash before the next keyword */
                    size_t next = t->pos;
                    while (next < t->size && (t->data[next] == ' ' || t->data[next] == '\t'))
                        next++;
                    if (next < t->size && isalpha((unsigned char)t->data[next]))
                        break;
                    continue;
                }
            }
            if (isspace((unsigned char)c) || c == '\0') {
                t->pos++;
                continue;
            }
            const bool quoted = c == '"';
            if (quoted)
                t->pos++;
            char *start = w;
            while (t->pos < t->size) {
                const char d = t->data[t->pos];
                if (d == '\n' || d == '\0' || (quoted ? d == '"' : (isspace((unsigned char)d) || d == '#')))
                    break;
                *w++ = d;
                t->pos++;
            }
            if (quoted && t->pos < t->size && t->data[t->pos] == '"')
                t->pos++;
            *w++ = '\0';
            if (out->n < MAX_TOKENS) {
                t->words[out->n] = start;
                t->quoted[out->n] = quoted;
                out->n++;
            } else {
                overflow = true;
            }
        }
        if (overflow)
            out->n = -1;
        if (out->n != 0)
            return true;
    }
}

/* ---- the robot model ---- */

typedef struct rob_link {
    char name[96];
    int parent;
    double r[9], t[3]; /* TParent */
    double axis[3];
    double qmin, qmax;
    bool prismatic;
    bool weld; /* `joint weld` */
    char geometry[1024];
    double scale;
    bool top; /* a link of the top-level .rob (not mounted) */
} rob_link;

typedef struct rob_model {
    rob_link *links;
    int n;
    int (*pairs)[2];
    int n_pairs;
} rob_model;

static pb_status fail(pb_diag *diag, const char *file, int line, const char *fmt, const char *detail)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, detail ? detail : "");
    pb_diag_set(diag, file, line, 0, "%s", msg);
    return PB_ERR_INVALID;
}

static bool parse_number(const char *s, double *out)
{
    char *end = NULL;
    errno = 0;
    const double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static pb_status parse_rob(rob_model *model, const char *data, size_t size, const char *file, const char *dir,
                           int depth, pb_diag *diag);

/* Append the robot in `sub` to `model`, fixed to `link` by (r, t), names prefixed. */
static pb_status mount(rob_model *model, const rob_model *sub, int link, const double *r, const double *t,
                       const char *prefix, const char *file, int line, pb_diag *diag)
{
    if (model->n + sub->n > MAX_LINKS)
        return fail(diag, file, line, "mount: more than 128 links in all%s", NULL);
    const int offset = model->n;
    for (int k = 0; k < sub->n; k++) {
        rob_link *l = &model->links[offset + k];
        *l = sub->links[k];
        l->top = false;
        char name[96];
        if (snprintf(name, sizeof name, "%s:%s", prefix, sub->links[k].name) >= (int)sizeof name)
            name[sizeof name - 2] = '~'; /* cut: the name is for messages; mark it */
        memcpy(l->name, name, sizeof name);
        if (sub->links[k].parent < 0) {
            l->parent = link;
            /* T_mount * TParent */
            const double *a = r, *b = sub->links[k].r;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++)
                    l->r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
                l->t[i] = a[3 * i] * sub->links[k].t[0] + a[3 * i + 1] * sub->links[k].t[1] +
                          a[3 * i + 2] * sub->links[k].t[2] + t[i];
            }
        } else {
            l->parent = sub->links[k].parent + offset;
        }
    }
    model->n += sub->n;
    for (int p = 0; p < sub->n_pairs; p++) {
        if (model->n_pairs == MAX_PAIRS)
            return fail(diag, file, line, "more than 4096 noSelfCollision pairs%s", NULL);
        model->pairs[model->n_pairs][0] = sub->pairs[p][0] + offset;
        model->pairs[model->n_pairs][1] = sub->pairs[p][1] + offset;
        model->n_pairs++;
    }
    return PB_OK;
}

static bool model_init(rob_model *model)
{
    memset(model, 0, sizeof *model);
    model->links = calloc(MAX_LINKS, sizeof *model->links);
    model->pairs = malloc(MAX_PAIRS * sizeof *model->pairs);
    return model->links && model->pairs;
}

static void model_finish(rob_model *model)
{
    free(model->links);
    free(model->pairs);
}

/* Numbers of one per-link keyword: exactly `per * n` (or `per` when `one_for_all`). */
static pb_status link_numbers(const rob_line *l, int n, int per, bool one_for_all, double scale, double *out,
                              const char *file, pb_diag *diag)
{
    const int count = l->n - 1;
    if (n <= 0)
        return fail(diag, file, l->line, "%s: the robot has no 'parents' line", l->words[0]);
    if (count != per * n && !(one_for_all && count == per)) {
        char msg[160];
        snprintf(msg, sizeof msg, "%%s: expected %d numbers (%d per link, %d links), got %d", per * n, per, n,
                 count);
        return fail(diag, file, l->line, msg, l->words[0]);
    }
    for (int i = 0; i < per * n; i++) {
        const int k = count == per ? i % per : i;
        if (!parse_number(l->words[1 + k], &out[i]))
            return fail(diag, file, l->line, "%s: expected numbers", l->words[0]);
        out[i] *= scale;
    }
    return PB_OK;
}

static pb_status parse_rob(rob_model *model, const char *data, size_t size, const char *file, const char *dir,
                           int depth, pb_diag *diag)
{
    rob_text t = {.data = data, .size = size, .line = 1};
    t.store = malloc(2 * size + 2); /* every token's characters and its terminator */
    double *values = malloc(12 * MAX_LINKS * sizeof *values);
    pb_status st = PB_OK;
    if (!t.store || !values) {
        st = PB_ERR_NOMEM;
        goto done;
    }
    rob_line l;
    int n = 0;
    bool have_tparent = false, have_axis = false;
    /* two passes: 'parents' (which sets the number of links) may come after the rest */
    for (int pass = 0; pass < 2 && st == PB_OK; pass++) {
        t.pos = 0;
        t.line = 1;
        while (st == PB_OK && next_line(&t, &l)) {
            if (l.n < 0) {
                st = fail(diag, file, l.line, "a line with more than 4096 values%s", NULL);
                break;
            }
            const char *key = l.words[0];
            if ((pass == 0) != (strcasecmp(key, "parents") == 0))
                continue;
            if (strcasecmp(key, "parents") == 0) {
                if (n > 0) {
                    st = fail(diag, file, l.line, "parents: given twice%s", NULL);
                    break;
                }
                n = l.n - 1;
                if (n < 1 || n > MAX_LINKS) {
                    st = fail(diag, file, l.line, "parents: expected 1 to 128 link parents%s", NULL);
                    break;
                }
                model->n = n;
                for (int i = 0; i < n; i++) {
                    double p;
                    if (!parse_number(l.words[1 + i], &p) || p != floor(p) || p < -1 || p >= i) {
                        st =
                            fail(diag, file, l.line,
                                 "parents: link parents must be -1 or the index of an earlier link, got '%s'",
                                 l.words[1 + i]);
                        break;
                    }
                    rob_link *link = &model->links[i];
                    link->parent = (int)p;
                    snprintf(link->name, sizeof link->name, "link%d", i);
                    memcpy(link->r, (double[]){1, 0, 0, 0, 1, 0, 0, 0, 1}, sizeof link->r);
                    link->axis[2] = 1.0;
                    link->qmin = -M_PI;
                    link->qmax = M_PI;
                    link->scale = 1.0;
                    link->top = true;
                }
            } else if (strcasecmp(key, "tparent") == 0) {
                if ((st = link_numbers(&l, n, 12, false, 1.0, values, file, diag)) == PB_OK) {
                    for (int i = 0; i < n; i++) {
                        memcpy(model->links[i].r, &values[12 * i], 9 * sizeof(double));
                        memcpy(model->links[i].t, &values[12 * i + 9], 3 * sizeof(double));
                    }
                    have_tparent = true;
                }
            } else if (strcasecmp(key, "axis") == 0) {
                if ((st = link_numbers(&l, n, 3, false, 1.0, values, file, diag)) == PB_OK) {
                    for (int i = 0; i < n && st == PB_OK; i++) {
                        const double *a = &values[3 * i];
                        const double len = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
                        if (!(len > 1e-9)) {
                            st = fail(diag, file, l.line, "axis: an axis of length zero%s", NULL);
                            break;
                        }
                        for (int k = 0; k < 3; k++)
                            model->links[i].axis[k] = a[k] / len;
                    }
                    have_axis = true;
                }
            } else if (strcasecmp(key, "qmin") == 0 || strcasecmp(key, "qmax") == 0 ||
                       strcasecmp(key, "qmindeg") == 0 || strcasecmp(key, "qmaxdeg") == 0) {
                const bool deg = strlen(key) == 7;
                const bool is_min = tolower((unsigned char)key[2]) == 'i';
                if ((st = link_numbers(&l, n, 1, false, deg ? M_PI / 180.0 : 1.0, values, file, diag)) ==
                    PB_OK)
                    for (int i = 0; i < n; i++)
                        *(is_min ? &model->links[i].qmin : &model->links[i].qmax) = values[i];
            } else if (strcasecmp(key, "geomscale") == 0) {
                if ((st = link_numbers(&l, n, 1, true, 1.0, values, file, diag)) == PB_OK)
                    for (int i = 0; i < n; i++) {
                        if (!(values[i] > 0.0)) {
                            st = fail(diag, file, l.line, "geomscale: scales must be positive%s", NULL);
                            break;
                        }
                        model->links[i].scale = values[i];
                    }
            } else if (strcasecmp(key, "geometry") == 0 || strcasecmp(key, "links") == 0 ||
                       strcasecmp(key, "jointtype") == 0) {
                if (n <= 0 || l.n - 1 != n) {
                    st = fail(diag, file, l.line, "%s: expected one value per link", key);
                    break;
                }
                for (int i = 0; i < n; i++) {
                    rob_link *link = &model->links[i];
                    const char *v = l.words[1 + i];
                    if (strcasecmp(key, "geometry") == 0) {
                        if (v[0])
                            join(dir, v, link->geometry, sizeof link->geometry);
                    } else if (strcasecmp(key, "links") == 0) {
                        snprintf(link->name, sizeof link->name, "%s", v);
                    } else if (strcasecmp(v, "r") == 0 || strcasecmp(v, "p") == 0) {
                        link->prismatic = strcasecmp(v, "p") == 0;
                    } else {
                        st = fail(diag, file, l.line, "jointtype: expected r or p, got '%s'", v);
                        break;
                    }
                }
            } else if (strcasecmp(key, "noselfcollision") == 0) {
                if ((l.n - 1) % 2 != 0) {
                    st = fail(diag, file, l.line, "noSelfCollision: expected pairs of link indices%s", NULL);
                    break;
                }
                for (int k = 1; k + 1 < l.n; k += 2) {
                    double a, b;
                    if (!parse_number(l.words[k], &a) || !parse_number(l.words[k + 1], &b) || a != floor(a) ||
                        b != floor(b) || a < 0 || b < 0 || a >= MAX_LINKS || b >= MAX_LINKS) {
                        st = fail(diag, file, l.line, "noSelfCollision: expected link indices%s", NULL);
                        break;
                    }
                    if (model->n_pairs == MAX_PAIRS) {
                        st = fail(diag, file, l.line, "more than 4096 noSelfCollision pairs%s", NULL);
                        break;
                    }
                    model->pairs[model->n_pairs][0] = (int)a;
                    model->pairs[model->n_pairs][1] = (int)b;
                    model->n_pairs++;
                }
            } else if (strcasecmp(key, "joint") == 0) {
                /* joint TYPE LINK...: weld, normal, spin; floating bases cannot be planned for */
                if (l.n < 3) {
                    st = fail(diag, file, l.line, "joint: expected a type and a link index%s", NULL);
                    break;
                }
                double link;
                if (!parse_number(l.words[2], &link) || link != floor(link) || link < 0 || link >= n) {
                    st = fail(diag, file, l.line, "joint: no link '%s'", l.words[2]);
                    break;
                }
                if (strcasecmp(l.words[1], "weld") == 0)
                    model->links[(int)link].weld = true;
                else if (strcasecmp(l.words[1], "normal") != 0 && strcasecmp(l.words[1], "spin") != 0)
                    st = fail(diag, file, l.line, "joint: type '%s' is not supported (weld, normal, spin)",
                              l.words[1]);
            } else if (strcasecmp(key, "mount") == 0) {
                /* mount LINK "file" [R(9) t(3)] [as "name"] */
                double link;
                if (l.n < 3 || !parse_number(l.words[1], &link) || link != floor(link) || link < 0 ||
                    link >= n) {
                    st = fail(diag, file, l.line, "mount: expected a link index and a file%s", NULL);
                    break;
                }
                double r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, tr[3] = {0, 0, 0};
                int k = 3;
                if (l.n >= 15 && !l.quoted[3]) {
                    double v[12];
                    for (int i = 0; i < 12 && st == PB_OK; i++)
                        if (!parse_number(l.words[3 + i], &v[i]))
                            st = fail(diag, file, l.line, "mount: expected 12 numbers (R, t)%s", NULL);
                    if (st != PB_OK)
                        break;
                    memcpy(r, v, sizeof r);
                    memcpy(tr, v + 9, sizeof tr);
                    k = 15;
                }
                char prefix[64];
                snprintf(prefix, sizeof prefix, "mount%d", model->n);
                if (k + 1 < l.n && strcasecmp(l.words[k], "as") == 0)
                    snprintf(prefix, sizeof prefix, "%s", l.words[k + 1]);
                if (depth >= MAX_MOUNT_DEPTH) {
                    st = fail(diag, file, l.line, "mount: robots mounted more than 4 deep%s", NULL);
                    break;
                }
                char sub_path[2048], sub_dir[2048];
                join(dir, l.words[2], sub_path, sizeof sub_path);
                pb_path_dir(sub_path, sub_dir, sizeof sub_dir);
                size_t sub_size = 0;
                char *sub_data = read_file(sub_path, &sub_size, diag);
                if (!sub_data) {
                    char why[sizeof diag->message + 1] = "";
                    if (diag)
                        memcpy(why, diag->message, sizeof diag->message);
                    st = fail(diag, file, l.line, "mount: %s", why);
                    break;
                }
                rob_model sub;
                if (!model_init(&sub)) {
                    model_finish(&sub);
                    free(sub_data);
                    st = PB_ERR_NOMEM;
                    break;
                }
                st = parse_rob(&sub, sub_data, sub_size, sub_path, sub_dir, depth + 1, diag);
                free(sub_data);
                if (st == PB_OK)
                    st = mount(model, &sub, (int)link, r, tr, prefix, file, l.line, diag);
                model_finish(&sub);
            }
            /* everything else (mass, servo gains, drivers, ...) is not about geometry */
        }
    }
    if (st == PB_OK && n == 0)
        st = fail(diag, file, 0, "no 'parents' line: not a Klampt robot%s", NULL);
    if (st == PB_OK && (!have_tparent || !have_axis))
        st = fail(diag, file, 0, "the robot needs 'TParent' and 'axis' lines%s", NULL);
    for (int p = 0; st == PB_OK && p < model->n_pairs; p++)
        if (model->pairs[p][0] >= model->n || model->pairs[p][1] >= model->n)
            st = fail(diag, file, 0, "noSelfCollision: a link index beyond the robot's links%s", NULL);
done:
    free(t.store);
    free(values);
    return st;
}

/* ---- URDF and SRDF text ---- */

/* URDF's rpy of a rotation matrix (R = Rz(yaw) Ry(pitch) Rx(roll)). */
static void rpy_of(const double *r, double *rpy)
{
    const double s = -r[6];
    if (fabs(s) < 1.0 - 1e-12) {
        rpy[1] = asin(s);
        rpy[0] = atan2(r[7], r[8]);
        rpy[2] = atan2(r[3], r[0]);
    } else {
        rpy[1] = s > 0 ? M_PI / 2 : -M_PI / 2;
        rpy[0] = 0.0;
        rpy[2] = atan2(-r[1], r[4]);
    }
}

/* Text an XML attribute may hold: valid UTF-8 (no overlong forms, no surrogates, nothing past
 * U+10FFFF, not U+FFFE or U+FFFF) and no control character. The URDF reader (libxml2)
 * refuses anything else, so the .rob reader refuses it first, naming it: one rule for both. */
static bool xml_text_ok(const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        const unsigned c = *s;
        if (c < 0x20 || c == 0x7F)
            return false;
        if (c < 0x80) {
            s++;
            continue;
        }
        int n;
        unsigned cp;
        if ((c & 0xE0) == 0xC0)
            n = 1, cp = c & 0x1F;
        else if ((c & 0xF0) == 0xE0)
            n = 2, cp = c & 0x0F;
        else if ((c & 0xF8) == 0xF0)
            n = 3, cp = c & 0x07;
        else
            return false;
        for (int k = 1; k <= n; k++) {
            if ((s[k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (s[k] & 0x3F);
        }
        static const unsigned smallest[4] = {0, 0x80, 0x800, 0x10000};
        if (cp < smallest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
            return false;
        s += n + 1;
    }
    return true;
}

static pb_status make_text(const rob_model *model, const char *name, pb_klampt_robot *out, const char *source,
                           pb_diag *diag)
{
    if (!xml_text_ok(name)) {
        pb_diag_set(diag, source, 0, 0, "the robot's name (from the file name) is not valid UTF-8 text");
        return PB_ERR_INVALID;
    }
    for (int i = 0; i < model->n; i++)
        if (!xml_text_ok(model->links[i].name) || !xml_text_ok(model->links[i].geometry)) {
            pb_diag_set(diag, source, 0, 0, "link %d: its name or geometry file is not valid UTF-8 text", i);
            return PB_ERR_INVALID;
        }
    text_buf urdf = {0}, srdf = {0}, joints = {0};
    char robot_name[200], esc[2200];
    xml_escape(name, robot_name, sizeof robot_name);
    text_add(&urdf, "<robot name=\"%s\">\n  <link name=\"klampt_world\"/>\n", robot_name);
    for (int i = 0; i < model->n; i++) {
        const rob_link *l = &model->links[i];
        xml_escape(l->name, esc, sizeof esc);
        text_add(&urdf, "  <link name=\"%s\">", esc);
        if (l->geometry[0]) {
            char file[2200];
            xml_escape(l->geometry, file, sizeof file);
            text_add(&urdf,
                     "<collision><geometry><mesh filename=\"%s\" scale=\"%.17g %.17g %.17g\"/></geometry>"
                     "</collision>",
                     file, l->scale, l->scale, l->scale);
        }
        text_add(&urdf, "</link>\n");
    }
    for (int i = 0; i < model->n; i++) {
        const rob_link *l = &model->links[i];
        double r[9], t[3], rpy[3];
        memcpy(r, l->r, sizeof r);
        memcpy(t, l->t, sizeof t);
        const bool fixed = l->weld || l->qmin == l->qmax;
        if (fixed && l->qmin != 0.0) {
            /* welded at qmin: fold the joint's motion into the origin */
            const double *a = l->axis, q = l->qmin;
            if (l->prismatic) {
                for (int k = 0; k < 3; k++)
                    t[k] += r[3 * k] * a[0] * q + r[3 * k + 1] * a[1] * q + r[3 * k + 2] * a[2] * q;
            } else {
                const double c = cos(q), s = sin(q), v = 1.0 - c;
                const double m[9] = {
                    c + a[0] * a[0] * v,        a[0] * a[1] * v - a[2] * s, a[0] * a[2] * v + a[1] * s,
                    a[1] * a[0] * v + a[2] * s, c + a[1] * a[1] * v,        a[1] * a[2] * v - a[0] * s,
                    a[2] * a[0] * v - a[1] * s, a[2] * a[1] * v + a[0] * s, c + a[2] * a[2] * v};
                for (int x = 0; x < 3; x++)
                    for (int y = 0; y < 3; y++)
                        r[3 * x + y] =
                            l->r[3 * x] * m[y] + l->r[3 * x + 1] * m[3 + y] + l->r[3 * x + 2] * m[6 + y];
            }
        }
        rpy_of(r, rpy);
        char parent[200], child[200];
        xml_escape(l->parent < 0 ? "klampt_world" : model->links[l->parent].name, parent, sizeof parent);
        xml_escape(l->name, child, sizeof child);
        const char *type = fixed ? "fixed" : l->prismatic ? "prismatic" : "revolute";
        text_add(&urdf,
                 "  <joint name=\"joint_%s\" type=\"%s\"><parent link=\"%s\"/><child link=\"%s\"/>"
                 "<origin xyz=\"%.17g %.17g %.17g\" rpy=\"%.17g %.17g %.17g\"/>",
                 child, type, parent, child, t[0], t[1], t[2], rpy[0], rpy[1], rpy[2]);
        if (!fixed)
            text_add(&urdf, "<axis xyz=\"%.17g %.17g %.17g\"/><limit lower=\"%.17g\" upper=\"%.17g\"/>",
                     l->axis[0], l->axis[1], l->axis[2], l->qmin, l->qmax);
        text_add(&urdf, "</joint>\n");
        if (!fixed && l->top)
            text_add(&joints, "%sjoint_%s", joints.len ? " " : "", l->name);
    }
    text_add(&urdf, "</robot>\n");
    text_add(&srdf, "<robot name=\"%s\">\n", robot_name);
    for (int p = 0; p < model->n_pairs; p++) {
        const int a = model->pairs[p][0], b = model->pairs[p][1];
        if (a == b)
            continue;
        char na[200], nb[200];
        xml_escape(model->links[a].name, na, sizeof na);
        xml_escape(model->links[b].name, nb, sizeof nb);
        text_add(&srdf, "  <disable_collisions link1=\"%s\" link2=\"%s\" reason=\"klampt\"/>\n", na, nb);
    }
    text_add(&srdf, "</robot>\n");
    text_add(&joints, "");
    if (urdf.failed || srdf.failed || joints.failed) {
        free(urdf.data);
        free(srdf.data);
        free(joints.data);
        return PB_ERR_NOMEM;
    }
    out->urdf = urdf.data;
    out->srdf = srdf.data;
    out->joints = joints.data;
    return PB_OK;
}

pb_status pb_klampt_robot_load_memory(pb_klampt_robot *robot, const char *data, size_t size, const char *name,
                                      const char *base_dir, pb_diag *diag)
{
    memset(robot, 0, sizeof *robot);
    rob_model model;
    pb_status st = PB_ERR_NOMEM;
    if (model_init(&model))
        st = parse_rob(&model, data, size, name, base_dir ? base_dir : ".", 0, diag);
    if (st == PB_OK) {
        const char *base = strrchr(name, '/');
        char robot_name[128];
        snprintf(robot_name, sizeof robot_name, "%s", base ? base + 1 : name);
        char *dot = strrchr(robot_name, '.');
        if (dot)
            *dot = '\0';
        st = make_text(&model, robot_name, robot, name, diag);
    }
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, name, 0, 0, "out of memory");
    model_finish(&model);
    return st;
}

pb_status pb_klampt_robot_load(pb_klampt_robot *robot, const char *path, pb_diag *diag)
{
    memset(robot, 0, sizeof *robot);
    size_t size = 0;
    char *data = read_file(path, &size, diag);
    if (!data)
        return PB_ERR_IO;
    char dir[2048];
    pb_path_dir(path, dir, sizeof dir);
    const pb_status st = pb_klampt_robot_load_memory(robot, data, size, path, dir, diag);
    free(data);
    return st;
}

void pb_klampt_robot_finish(pb_klampt_robot *robot)
{
    if (!robot)
        return;
    free(robot->urdf);
    free(robot->srdf);
    free(robot->joints);
    memset(robot, 0, sizeof *robot);
}

/* ---- rigid objects ---- */

pb_status pb_klampt_object_load(pb_shape *shape, pb_pose *pose_out, bool *has_pose, const char *path,
                                pb_diag *diag)
{
    memset(shape, 0, sizeof *shape);
    *has_pose = false;
    *pose_out = pb_pose_identity();
    size_t size = 0;
    char *data = read_file(path, &size, diag);
    if (!data)
        return PB_ERR_IO;
    char dir[2048];
    pb_path_dir(path, dir, sizeof dir);
    rob_text t = {.data = data, .size = size, .line = 1};
    t.store = malloc(2 * size + 2);
    pb_status st = t.store ? PB_OK : PB_ERR_NOMEM;
    double scale[3] = {1, 1, 1}, offset[3] = {0, 0, 0}, pose[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
    char mesh[2048] = "";
    rob_line l;
    while (st == PB_OK && next_line(&t, &l)) {
        const char *key = l.n > 0 ? l.words[0] : "";
        const int count = l.n - 1;
        double v[12];
        if (strcasecmp(key, "mesh") == 0 || strcasecmp(key, "geometry") == 0) {
            if (count != 1 || !l.words[1][0]) {
                st = fail(diag, path, l.line, "%s: expected one file name", key);
                break;
            }
            join(dir, l.words[1], mesh, sizeof mesh);
        } else if (strcasecmp(key, "geomscale") == 0 || strcasecmp(key, "geomtranslate") == 0 ||
                   strcasecmp(key, "t") == 0) {
            const bool is_scale = strcasecmp(key, "geomscale") == 0, is_pose = strcasecmp(key, "t") == 0;
            const int want = is_pose ? 12 : 3;
            if (!(count == want || (is_scale && count == 1))) {
                st = fail(diag, path, l.line, "%s: wrong number of values", key);
                break;
            }
            for (int i = 0; i < count && st == PB_OK; i++)
                if (!parse_number(l.words[1 + i], &v[i]))
                    st = fail(diag, path, l.line, "%s: expected numbers", key);
            if (st != PB_OK)
                break;
            if (is_scale) {
                for (int i = 0; i < 3; i++)
                    scale[i] = v[count == 1 ? 0 : i];
                if (!(scale[0] > 0 && scale[1] > 0 && scale[2] > 0))
                    st = fail(diag, path, l.line, "%s: scales must be positive", key);
            } else if (is_pose) {
                memcpy(pose, v, sizeof pose);
                *has_pose = true;
            } else {
                memcpy(offset, v, sizeof offset);
            }
        }
    }
    if (st == PB_OK && !mesh[0])
        st = fail(diag, path, 0, "a rigid object needs a 'mesh' line%s", NULL);
    if (st == PB_OK) {
        shape->type = PB_SHAPE_MESH;
        memcpy(shape->size, scale, sizeof scale);
        shape->origin = pb_pose_identity();
        memcpy(shape->origin.t, offset, sizeof offset);
        memcpy(pose_out->r, pose, 9 * sizeof(double));
        memcpy(pose_out->t, pose + 9, 3 * sizeof(double));
        const size_t len = strlen(mesh) + 1;
        if (!(shape->mesh_path = malloc(len)))
            st = PB_ERR_NOMEM;
        else
            memcpy(shape->mesh_path, mesh, len);
    }
    if (st == PB_ERR_NOMEM)
        pb_diag_set(diag, path, 0, 0, "out of memory");
    free(t.store);
    free(data);
    return st;
}
