/* Per-connection throttling of the RTI channels (throttle.h). */
#include "throttle.h"

#include <stdlib.h>
#include <string.h>

typedef struct slot {
    rb_topic topic;
    char *entity;
    double sent;  /* wall time of the last message that went out */
    char *held;   /* the latest message that came too soon, or NULL */
    double since; /* when it was held (the oldest goes first when the queue is full) */
} slot;

struct throttle {
    int ms[RB_TOPIC_COUNT], queue_length[RB_TOPIC_COUNT];
    slot *slots;
    size_t n, cap;
};

throttle *throttle_create(void)
{
    return calloc(1, sizeof(throttle));
}

void throttle_destroy(throttle *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->slots[i].entity);
        free(t->slots[i].held);
    }
    free(t->slots);
    free(t);
}

void throttle_set(throttle *t, rb_topic topic, int ms, int queue_length)
{
    if (t && topic < RB_TOPIC_COUNT) {
        t->ms[topic] = ms > 0 ? ms : 0;
        t->queue_length[topic] = queue_length > 0 ? queue_length : 0;
    }
}

static slot *find(throttle *t, rb_topic topic, const char *entity)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->slots[i].topic == topic && strcmp(t->slots[i].entity, entity) == 0)
            return &t->slots[i];
    if (t->n == t->cap) {
        const size_t cap = t->cap ? 2 * t->cap : 16;
        slot *grown = realloc(t->slots, cap * sizeof *grown);
        if (!grown)
            return NULL;
        t->slots = grown;
        t->cap = cap;
    }
    char *name = strdup(entity);
    if (!name)
        return NULL;
    t->slots[t->n] = (slot){.topic = topic, .entity = name, .sent = -1e300};
    return &t->slots[t->n++];
}

bool throttle_offer(throttle *t, rb_topic topic, const char *entity, char **text, double now)
{
    if (!t || topic >= RB_TOPIC_COUNT || t->ms[topic] == 0)
        return true;
    slot *s = find(t, topic, entity ? entity : "");
    if (!s)
        return true; /* out of memory: unthrottled rather than lost */
    if (!s->held && (now - s->sent) * 1000.0 >= t->ms[topic]) {
        s->sent = now;
        return true;
    }
    if (!s->held && t->queue_length[topic] > 0) { /* a new entry: keep the queue within its length */
        size_t held = 0, oldest = 0;
        for (size_t i = 0; i < t->n; i++)
            if (t->slots[i].topic == topic && t->slots[i].held) {
                if (!held || t->slots[i].since < t->slots[oldest].since)
                    oldest = i;
                held++;
            }
        if (held >= (size_t)t->queue_length[topic]) {
            free(t->slots[oldest].held);
            t->slots[oldest].held = NULL;
        }
    }
    if (!s->held)
        s->since = now;
    free(s->held);
    s->held = *text;
    *text = NULL;
    return false;
}

void throttle_flush(throttle *t, double now, void (*send)(void *payload, char *text), void *payload)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        slot *s = &t->slots[i];
        if (s->held && (now - s->sent) * 1000.0 >= t->ms[s->topic]) {
            s->sent = now;
            send(payload, s->held);
            s->held = NULL;
        }
    }
}
