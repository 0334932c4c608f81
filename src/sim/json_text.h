/* JSON written straight into a growing buffer, for the replies the server sends most (entity
 * states): building them as jansson values and dumping them cost more than the rest of a call
 * (bench/RESULTS.md). The text is the same, byte for byte, as json_dumps(JSON_COMPACT |
 * JSON_ENSURE_ASCII) of the same message (tests/test_sim_services.c checks it). Private to
 * src/sim. */
#ifndef PB_SIM_JSON_TEXT_H
#define PB_SIM_JSON_TEXT_H

#include "planbench/sim.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/** A growing NUL-terminated text; after an allocation failure `failed` is set and further
 * writes do nothing. Start with {0}; the caller frees `s`. */
typedef struct json_text {
    char *s;
    size_t n, cap;
    bool failed;
} json_text;

/** Append `n` bytes. */
void jt_raw(json_text *t, const char *s, size_t n);
/** Append a string literal. */
#define JT_LIT(t, lit) jt_raw((t), "" lit, sizeof(lit) - 1) /* "" lit: a literal only */
/** A double as jansson writes it: 17 significant digits (".0" added to integers), null when
 * not finite. */
void jt_real(json_text *t, double v);
/** An integer. */
void jt_int(json_text *t, long long v);
/** A string, quoted and escaped (non-ASCII as \u escapes). */
void jt_str(json_text *t, const char *s);
/** Any jansson value (compact, ASCII). */
void jt_json(json_text *t, const json_t *v);
/** A simulation_interfaces/EntityState. */
void jt_entity_state(json_text *t, const pb_sim_entity_state *s);
/** The text (ownership passes to the caller), or NULL after a failure (then freed). */
char *jt_finish(json_text *t);

#endif
