/* rosbridge's throttle_rate and queue_length for one connection's subscriptions to the RTI
 * channels (throttle.c, private to src/sim): at most one message per entity per `throttle_rate`
 * milliseconds of wall time; what comes sooner is held, the latest per entity, at most
 * `queue_length` of them (the oldest dropped; 0: one per entity), and sent when it is due. */
#ifndef PB_SIM_THROTTLE_H
#define PB_SIM_THROTTLE_H

#include "topics.h"

#include <stdbool.h>

typedef struct throttle throttle;

throttle *throttle_create(void);
void throttle_destroy(throttle *t);

/** The subscription's settings for `topic` (`ms` 0: no throttling). */
void throttle_set(throttle *t, rb_topic topic, int ms, int queue_length);

/** A message about `entity` on `topic` at wall time `now`: true when it may go out now (the
 * caller keeps `*text`); false when it is held (taken: `*text` becomes NULL). */
bool throttle_offer(throttle *t, rb_topic topic, const char *entity, char **text, double now);

/** Send the held messages that are due at `now` (`send` takes each text). */
void throttle_flush(throttle *t, double now, void (*send)(void *payload, char *text), void *payload);

#endif
