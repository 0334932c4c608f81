/* JSON written straight into a buffer (see json_text.h). */
#include "json_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(json_text *t, size_t more)
{
    if (t->failed)
        return false;
    if (t->n + more + 1 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->n + more + 1)
        cap *= 2;
    char *s = realloc(t->s, cap);
    if (!s) {
        t->failed = true;
        return false;
    }
    t->s = s;
    t->cap = cap;
    return true;
}

void jt_raw(json_text *t, const char *s, size_t n)
{
    if (!reserve(t, n))
        return;
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = '\0';
}

/* Decimal digits of v (any magnitude) into the end of buf; returns the first digit. */
static char *digits(unsigned long long v, char *end)
{
    do
        *--end = (char)('0' + v % 10);
    while (v /= 10);
    return end;
}

void jt_int(json_text *t, long long v)
{
    char buf[24], *end = buf + sizeof buf;
    char *p = digits(v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, end);
    if (v < 0)
        *--p = '-';
    jt_raw(t, p, (size_t)(end - p));
}

void jt_real(json_text *t, double v)
{
    if (!isfinite(v)) {
        JT_LIT(t, "null");
        return;
    }
    /* Integers below 1e15 print the same under %.17g as plain digits; poses and twists are
     * mostly such numbers (0 above all), and this skips printf. */
    if (fabs(v) < 1e15 && v == (double)(long long)v) {
        char buf[24], *end = buf + sizeof buf;
        *--end = '0';
        *--end = '.';
        char *p = digits((unsigned long long)fabs(v), end);
        if (signbit(v))
            *--p = '-';
        jt_raw(t, p, (size_t)(buf + sizeof buf - p));
        return;
    }
    /* jansson's dtostr(): %.17g, ".0" when it reads as an integer, exponent without '+' or
     * leading zeros. The C locale's decimal point is assumed (the library never sets one). */
    char buf[40];
    int len = snprintf(buf, sizeof buf, "%.17g", v);
    if (len < 0 || (size_t)len >= sizeof buf - 3) {
        t->failed = true;
        return;
    }
    char *e = strchr(buf, 'e');
    if (!e && !strchr(buf, '.')) {
        memcpy(buf + len, ".0", 3);
        len += 2;
    }
    if (e) {
        char *start = e + 1, *end = start + 1;
        if (*start == '-')
            start++;
        while (*end == '0')
            end++;
        if (end != start) {
            memmove(start, end, (size_t)(buf + len - end) + 1);
            len -= (int)(end - start);
        }
    }
    jt_raw(t, buf, (size_t)len);
}

void jt_json(json_text *t, const json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_ENCODE_ANY);
    if (!s) {
        t->failed = true;
        return;
    }
    jt_raw(t, s, strlen(s));
    free(s);
}

void jt_str(json_text *t, const char *s)
{
    /* Plain printable ASCII without quotes or backslashes (every name the tests and roslib
     * send) is copied; anything else goes through jansson, so escapes match it exactly. */
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++)
        if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\') {
            json_t *j = json_stringn(s, strlen(s));
            if (!j) {
                t->failed = true;
                return;
            }
            jt_json(t, j);
            json_decref(j);
            return;
        }
    if (!reserve(t, n + 2))
        return;
    t->s[t->n++] = '"';
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n++] = '"';
    t->s[t->n] = '\0';
}

static void vec3(json_text *t, const char *x, const char *y, const char *z, double a, double b, double c)
{
    jt_raw(t, x, strlen(x));
    jt_real(t, a);
    jt_raw(t, y, strlen(y));
    jt_real(t, b);
    jt_raw(t, z, strlen(z));
    jt_real(t, c);
}

static void twist(json_text *t, const pb_sim_twist *w)
{
    vec3(t, "{\"linear\":{\"x\":", ",\"y\":", ",\"z\":", w->linear.x, w->linear.y, w->linear.z);
    vec3(t, "},\"angular\":{\"x\":", ",\"y\":", ",\"z\":", w->angular.x, w->angular.y, w->angular.z);
    JT_LIT(t, "}}");
}

void jt_entity_state(json_text *t, const pb_sim_entity_state *s)
{
    JT_LIT(t, "{\"header\":{\"stamp\":{\"sec\":");
    jt_int(t, s->stamp_sec);
    JT_LIT(t, ",\"nanosec\":");
    jt_int(t, s->stamp_nanosec);
    JT_LIT(t, "},\"frame_id\":");
    jt_str(t, s->frame_id ? s->frame_id : "");
    const pb_sim_pose *p = &s->pose;
    vec3(t, "},\"pose\":{\"position\":{\"x\":", ",\"y\":", ",\"z\":", p->position.x, p->position.y,
         p->position.z);
    vec3(t, "},\"orientation\":{\"x\":", ",\"y\":", ",\"z\":", p->qx, p->qy, p->qz);
    JT_LIT(t, ",\"w\":");
    jt_real(t, p->qw);
    JT_LIT(t, "}},\"twist\":");
    twist(t, &s->twist);
    JT_LIT(t, ",\"acceleration\":");
    twist(t, &s->acceleration);
    JT_LIT(t, "}");
}

char *jt_finish(json_text *t)
{
    if (t->failed || !t->s) {
        free(t->s);
        *t = (json_text){0};
        return NULL;
    }
    char *s = t->s;
    *t = (json_text){0};
    return s;
}
