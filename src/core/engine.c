/* The engine wrapper: counts calls, supplies the default metric, interpolation, sampling
 * and edge check, and shares an engine's data between handles. */
#include "planbench/impl/engine_impl.h"
#include "core/engine_private.h"
#include "planbench/vehicle.h"
#include "checkers/checkers.h"
#include "core/metric.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* What a planner derived from an engine's static data (pb_engine_memo_keep()). Entries are
 * never replaced nor freed before the engine, so a pointer found stays good for its life. */
typedef struct engine_memo {
    const char *tag;
    unsigned char key[PB_ENGINE_MEMO_KEY_MAX];
    size_t key_size;
    void *data;
    void (*destroy)(void *data);
} engine_memo;

/* What handles onto one C-space share. */
typedef struct engine_shared {
    const pb_engine_impl *impl;
    void *self;
    pb_engine_config setup;
    double extent;
    atomic_int refs;
    pthread_mutex_t memo_lock; /* handles on other threads find and keep memos at once */
    engine_memo memos[PB_ENGINE_MEMOS];
    int n_memos;
} engine_shared;

struct pb_engine {
    engine_shared *shared;
    pb_engine_counters counters;
};

pb_engine_config pb_engine_config_default(int dim)
{
    pb_engine_config s;
    memset(&s, 0, sizeof s);
    s.dim = dim;
    for (int i = 0; i < PB_MAX_DIM; i++)
        s.weights[i] = 1.0;
    s.bisection = true;
    return s;
}

pb_status pb_engine_create(pb_engine **out, const pb_engine_impl *impl, void *self,
                           const pb_engine_config *setup, pb_diag *diag)
{
    *out = NULL;
    if (setup->dim < 1 || setup->dim > PB_MAX_DIM) {
        pb_diag_set(diag, NULL, 0, 0, "%s: dimension %d is outside 1..%d", impl->name, setup->dim,
                    PB_MAX_DIM);
        goto fail;
    }
    for (int i = 0; i < setup->dim; i++) {
        if (!(setup->lower[i] < setup->upper[i]) || !isfinite(setup->lower[i]) ||
            !isfinite(setup->upper[i])) {
            pb_diag_set(diag, NULL, 0, 0,
                        "%s: bounds of coordinate %d must satisfy lower < upper (got %g:%g)", impl->name, i,
                        setup->lower[i], setup->upper[i]);
            goto fail;
        }
        /* a lower bound may leave a coordinate out (weight 0); a metric may not */
        if (!(setup->metric_lower_bound ? setup->weights[i] >= 0.0 : setup->weights[i] > 0.0) ||
            !(setup->periods[i] >= 0.0)) {
            pb_diag_set(diag, NULL, 0, 0, "%s: metric weight and period of coordinate %d must be positive",
                        impl->name, i);
            goto fail;
        }
    }
    if (!(setup->step_size >= 0.0) || !isfinite(setup->step_size)) {
        pb_diag_set(diag, NULL, 0, 0, "%s: the default step size must be finite and not negative (got %g)",
                    impl->name, setup->step_size);
        goto fail;
    }
    if (impl->clearance && impl->interpolate && !impl->visible) {
        /* pb_edge_certified() walks the setup's straight segment */
        pb_diag_set(diag, NULL, 0, 0,
                    "%s: a clearance() needs the default interpolation or a visible() of its own",
                    impl->name);
        goto fail;
    }
    if (!(setup->clearance_floor >= 0.0) || !isfinite(setup->clearance_floor)) {
        pb_diag_set(diag, NULL, 0, 0, "%s: the clearance floor must be finite and not negative (got %g)",
                    impl->name, setup->clearance_floor);
        goto fail;
    }
    engine_shared *shared = calloc(1, sizeof *shared);
    pb_engine *engine = calloc(1, sizeof *engine);
    if (!shared || !engine) {
        free(shared);
        free(engine);
        pb_diag_set(diag, NULL, 0, 0, "out of memory");
        if (impl->destroy)
            impl->destroy(self);
        return PB_ERR_NOMEM;
    }
    shared->impl = impl;
    shared->self = self;
    shared->setup = *setup;
    double sum = 0.0;
    for (int i = 0; i < setup->dim; i++) {
        const double d = setup->upper[i] - setup->lower[i];
        sum += d * d;
    }
    shared->extent = sqrt(sum);
    if (!(shared->setup.resolution > 0.0))
        shared->setup.resolution = shared->extent / 1000.0;
    shared->setup.clearance_floor = pb_setup_clearance_floor(&shared->setup);
    if (!impl->visible)
        shared->setup.edge_check = impl->clearance ? PB_EDGE_CHECK_CERTIFIED : PB_EDGE_CHECK_SAMPLED;
    atomic_init(&shared->refs, 1);
    pthread_mutex_init(&shared->memo_lock, NULL);
    engine->shared = shared;
    *out = engine;
    return PB_OK;
fail:
    if (impl->destroy)
        impl->destroy(self);
    return PB_ERR_INVALID;
}

void pb_engine_destroy(pb_engine *engine)
{
    if (!engine)
        return;
    engine_shared *shared = engine->shared;
    if (atomic_fetch_sub(&shared->refs, 1) == 1) {
        if (shared->impl->destroy)
            shared->impl->destroy(shared->self);
        for (int i = 0; i < shared->n_memos; i++)
            if (shared->memos[i].destroy)
                shared->memos[i].destroy(shared->memos[i].data);
        pthread_mutex_destroy(&shared->memo_lock);
        free(shared);
    }
    free(engine);
}

pb_status pb_engine_share(pb_engine **out, pb_engine *engine)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return PB_ERR_NOMEM;
    (*out)->shared = engine->shared;
    atomic_fetch_add(&engine->shared->refs, 1);
    return PB_OK;
}

static int memo_index(const engine_shared *s, const char *tag, const void *key, size_t key_size)
{
    for (int i = 0; i < s->n_memos; i++)
        if (s->memos[i].tag == tag && s->memos[i].key_size == key_size &&
            memcmp(s->memos[i].key, key, key_size) == 0)
            return i;
    return -1;
}

const void *pb_engine_memo_find(const pb_engine *engine, const char *tag, const void *key, size_t key_size)
{
    engine_shared *s = engine->shared;
    pthread_mutex_lock(&s->memo_lock);
    const int i = memo_index(s, tag, key, key_size);
    const void *data = i >= 0 ? s->memos[i].data : NULL;
    pthread_mutex_unlock(&s->memo_lock);
    return data;
}

bool pb_engine_memo_keep(const pb_engine *engine, const char *tag, const void *key, size_t key_size,
                         void *data, void (*destroy)(void *data))
{
    if (key_size > PB_ENGINE_MEMO_KEY_MAX)
        return false;
    engine_shared *s = engine->shared;
    pthread_mutex_lock(&s->memo_lock);
    /* another handle may have kept the same meanwhile: the first one stays */
    const bool keep = s->n_memos < PB_ENGINE_MEMOS && memo_index(s, tag, key, key_size) < 0;
    if (keep) {
        engine_memo *m = &s->memos[s->n_memos++];
        m->tag = tag;
        memcpy(m->key, key, key_size);
        m->key_size = key_size;
        m->data = data;
        m->destroy = destroy;
    }
    pthread_mutex_unlock(&s->memo_lock);
    return keep;
}

const char *pb_engine_name(const pb_engine *engine)
{
    return engine->shared->impl->name;
}
int pb_engine_dim(const pb_engine *engine)
{
    return engine->shared->setup.dim;
}
const double *pb_engine_lower(const pb_engine *engine)
{
    return engine->shared->setup.lower;
}
const double *pb_engine_upper(const pb_engine *engine)
{
    return engine->shared->setup.upper;
}
double pb_engine_extent(const pb_engine *engine)
{
    return engine->shared->extent;
}

double pb_engine_default_step(const pb_engine *engine)
{
    const double own = pb_engine_get_config(engine)->step_size;
    return own > 0.0 ? own : 0.02 * pb_engine_extent(engine);
}
const char *pb_engine_default_step_rule(const pb_engine *engine)
{
    const pb_engine_config *setup = pb_engine_get_config(engine);
    if (setup->step_rule[0])
        return setup->step_rule;
    return setup->step_size > 0.0 ? "the engine's default" : "2% of the bounds' diagonal";
}
void *pb_engine_self(const pb_engine *engine)
{
    return engine->shared->self;
}
const pb_engine_impl *pb_engine_get_impl(const pb_engine *engine)
{
    return engine->shared->impl;
}
const pb_engine_config *pb_engine_get_config(const pb_engine *engine)
{
    return &engine->shared->setup;
}

bool pb_engine_feasible(pb_engine *engine, const double *q)
{
    engine->counters.n_feasible++;
    const engine_shared *s = engine->shared;
    return s->impl->feasible(s->self, q, &engine->counters);
}

bool pb_engine_visible(pb_engine *engine, const double *a, const double *b)
{
    engine->counters.n_visible++;
    const engine_shared *s = engine->shared;
    if (s->impl->visible)
        return s->impl->visible(s->self, a, b, &engine->counters);
    if (s->impl->clearance)
        return pb_edge_certified(&s->setup, s->self, s->impl->clearance, a, b, &engine->counters);
    return pb_edge_interpolated(&s->setup, s->self, s->impl->feasible, s->impl->interpolate,
                                pb_engine_distance(engine, a, b), a, b, &engine->counters);
}

double pb_engine_distance(const pb_engine *engine, const double *a, const double *b)
{
    const engine_shared *s = engine->shared;
    if (s->impl->distance)
        return s->impl->distance(s->self, a, b);
    return pb_setup_distance(&s->setup, a, b);
}

void pb_engine_interpolate(const pb_engine *engine, const double *a, const double *b, double t, double *out)
{
    const engine_shared *s = engine->shared;
    if (s->impl->interpolate)
        s->impl->interpolate(s->self, a, b, t, out);
    else
        pb_setup_interpolate(&s->setup, a, b, t, out);
}

void pb_engine_sample(const pb_engine *engine, pb_rng *rng, double *out)
{
    const engine_shared *s = engine->shared;
    if (s->impl->sample) {
        s->impl->sample(s->self, rng, out);
        return;
    }
    for (int i = 0; i < s->setup.dim; i++)
        out[i] = pb_rng_range(rng, s->setup.lower[i], s->setup.upper[i]);
}

bool pb_engine_metric(const pb_engine *engine, double *weights, double *periods)
{
    const pb_engine_config *st = &engine->shared->setup;
    for (int i = 0; i < st->dim; i++) {
        weights[i] = st->weights[i];
        periods[i] = st->periods[i];
    }
    return !(st->opaque_metric || engine->shared->impl->distance);
}

bool pb_engine_is_symmetric(const pb_engine *engine)
{
    return !engine->shared->setup.asymmetric;
}

bool pb_engine_metric_bound(const pb_engine *engine, double *weights, double *periods)
{
    const pb_engine_config *st = &engine->shared->setup;
    if (!st->metric_lower_bound)
        return false;
    for (int i = 0; i < st->dim; i++) {
        weights[i] = st->weights[i];
        periods[i] = st->periods[i];
    }
    return true;
}

bool pb_engine_defaults(const pb_engine *engine, double *start, double *goal)
{
    const pb_engine_config *st = &engine->shared->setup;
    if (!st->has_defaults)
        return false;
    memcpy(start, st->default_start, (size_t)st->dim * sizeof(double));
    memcpy(goal, st->default_goal, (size_t)st->dim * sizeof(double));
    return true;
}

pb_edge_check pb_engine_edge_check(const pb_engine *engine, double *resolution)
{
    const pb_engine_config *st = &engine->shared->setup;
    if (resolution) {
        switch (st->edge_check) {
        case PB_EDGE_CHECK_SAMPLED:
            *resolution = st->resolution;
            break;
        case PB_EDGE_CHECK_CERTIFIED:
            *resolution = st->clearance_floor;
            break;
        default:
            *resolution = 0.0;
            break;
        }
    }
    return st->edge_check;
}

const char *pb_edge_check_str(pb_edge_check check)
{
    switch (check) {
    case PB_EDGE_CHECK_SAMPLED:
        return "sampled";
    case PB_EDGE_CHECK_CERTIFIED:
        return "certified";
    case PB_EDGE_CHECK_PIXEL_LINE:
        return "pixel_line";
    default:
        return "unknown";
    }
}

void pb_edge_check_write_json(FILE *out, pb_edge_check check, double resolution)
{
    fputs(", \"edge_check\": ", out);
    pb_json_write_string(out, pb_edge_check_str(check));
    if (check == PB_EDGE_CHECK_SAMPLED || check == PB_EDGE_CHECK_CERTIFIED) {
        fputs(check == PB_EDGE_CHECK_SAMPLED ? ", \"edge_resolution\": " : ", \"clearance_floor\": ", out);
        pb_json_write_number(out, resolution);
    }
}

pb_status pb_engine_fault(const pb_engine *engine, pb_diag *diag)
{
    const engine_shared *s = engine->shared;
    return s->impl->fault ? s->impl->fault(s->self, diag) : PB_OK;
}

pb_engine_counters pb_engine_get_counters(const pb_engine *engine)
{
    return engine->counters;
}
void pb_engine_reset_counters(pb_engine *engine)
{
    memset(&engine->counters, 0, sizeof engine->counters);
}

bool pb_engine_explain(const pb_engine *engine, const double *q, char *buf, size_t size)
{
    const engine_shared *s = engine->shared;
    if (size)
        buf[0] = '\0';
    return size > 1 && s->impl->explain && s->impl->explain(s->self, q, buf, size);
}

const void *pb_engine_get_data(const pb_engine *engine, const char *what)
{
    const engine_shared *s = engine->shared;
    return s->impl->get_data ? s->impl->get_data(s->self, what) : NULL;
}

const char *pb_option_find(const pb_option *options, size_t n_options, const char *name)
{
    for (size_t i = 0; i < n_options; i++)
        if (strcmp(options[i].name, name) == 0)
            return options[i].value;
    return NULL;
}

pb_status pb_option_check_known(const pb_option *options, size_t n_options, const char *const *known,
                                const char *engine_name, pb_diag *diag)
{
    for (size_t i = 0; i < n_options; i++) {
        bool found = false;
        for (const char *const *k = known; k && *k && !found; k++)
            found = strcmp(*k, options[i].name) == 0;
        if (!found) {
            pb_diag_set(diag, NULL, 0, 0, "engine '%s' has no option '%s'", engine_name, options[i].name);
            if (diag)
                snprintf(diag->option, sizeof diag->option, "%s", options[i].name);
            return PB_ERR_INVALID;
        }
    }
    return PB_OK;
}

int pb_parse_doubles(const char *text, double *out, int max)
{
    int n = 0;
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (*p == '\0')
            return n;
        if (n > 0) { /* a separator: a comma, or whitespace alone */
            if (*p == ',') {
                p++;
                while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
                    p++;
            } else if (!(p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == '\r')) {
                return -1;
            }
        }
        if (n == max)
            return -1;
        errno = 0;
        char *end;
        const double v = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(v))
            return -1;
        out[n++] = v;
        p = end;
    }
}

static const char *const no_strings[] = {NULL};
const char *pb_engine_impl_name(const pb_engine_impl *impl)
{
    return impl->name;
}
const char *pb_engine_impl_summary(const pb_engine_impl *impl)
{
    return impl->summary ? impl->summary : "";
}
const char *const *pb_engine_impl_aliases(const pb_engine_impl *impl)
{
    return impl->aliases ? impl->aliases : no_strings;
}
const char *const *pb_engine_impl_options_help(const pb_engine_impl *impl)
{
    return impl->options_help ? impl->options_help : no_strings;
}

const char *pb_engine_impl_edges(const pb_engine_impl *impl)
{
    return impl->edges ? impl->edges : "sampled: configurations at the engine's resolution";
}

pb_engine_counters *pb_engine_counters_of(pb_engine *engine)
{
    return &engine->counters;
}

bool pb_engine_curve(const pb_engine *engine, const double *a, const double *b, pb_curve *out)
{
    const pb_engine_impl *impl = engine->shared->impl;
    if (!impl->curve)
        return false;
    return impl->curve(engine->shared->self, a, b, out);
}
