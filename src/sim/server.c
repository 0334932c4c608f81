/* The rosbridge WebSocket transport (libwebsockets): one text frame carries one JSON message.
 *
 * The simulation runs on one thread: libwebsockets' event loop, plus a timer tick that
 * advances running SimulateSteps and FollowPath goals one step at a time (feedback after
 * each) and steps a PLAYING simulation in real time. So other clients are served while a goal
 * runs, and no call ever blocks the loop for long. Planning is the one long computation: a
 * /plan_path call takes a snapshot of the world on the loop's thread (pb_sim_plan_begin),
 * runs the planner on a worker thread that touches nothing but the snapshot, and is answered
 * on the loop's thread when the worker wakes it (pb_sim_plan_finish checks the plan against
 * the world as it is then). Each connection has a bounded queue of outgoing messages: a
 * client that never reads is dropped when its queue is full, and never slows the others. */
#include "rosbridge.h"
#include "asg_queue.h"
#include "rti.h"
#include "throttle.h"
#include "asg_worker.h"
#include "sim_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <libwebsockets.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_INCOMING  (4u << 20) /* bytes of one message */
#define MAX_QUEUED    4096       /* messages waiting for a slow reader */
#define TICK_US       1000       /* timer period while something runs */
#define IDLE_TICK_US  20000
#define STEP_BUDGET_S 0.002
#define BACKLOG                                                                                              \
    256 /* queued messages above which stepping waits for the reader */ /* stepping per tick, so the loop    \
                                                                           stays responsive */
/* Planner threads at once: more would only share the same cores; further calls wait their turn. */
#define MAX_PLAN_THREADS 2
/* Plans one connection may have running or waiting: a flood of calls is refused, not queued. */
#define MAX_PLANS_PER_CONN 16

typedef struct out_msg {
    struct out_msg *next;
    size_t len;
    unsigned char data[]; /* LWS_PRE bytes of headroom, then the text */
} out_msg;

/* A subscription to one entity's topic. */
typedef struct entity_sub {
    rb_topic topic;
    char *entity;
} entity_sub;

/* Most entity topics one connection may subscribe to. */
#define MAX_ENTITY_SUBS 1024

typedef struct conn {
    struct lws *wsi;
    out_msg *head, *tail;
    size_t n_queued, queued_bytes;
    char *rx;
    size_t rx_len, rx_cap;
    bool rx_overflow;
    bool subscribed[RB_TOPIC_COUNT]; /* the world's topics */
    entity_sub *entity_subs;         /* each entity's topics (odom, joint_states) */
    size_t n_entity_subs;
    bool dropping;
    bool authenticated;                 /* the token was presented (or none is required) */
    char client_id[RTI_CLIENT_ID_SIZE]; /* who it is to the RTI channels: "client<N>" */
    throttle *throttle;                 /* its RTI subscriptions' throttle_rate and queue_length */
    struct conn *next_conn;
} conn;

typedef struct goal {
    struct goal *next;
    conn *owner; /* NULL once the connection closed */
    json_t *id, *action;
    uint64_t steps, done;
    bool feedback, started, cancel;
    /* FollowPath goals (follow != NULL): the request, owned, until the goal starts */
    pb_sim_follow_request *follow;
    double *follow_joints; /* n_joints values per waypoint, owned */
    size_t follow_n_joints;
    uint64_t follow_goal; /* pb_sim_follow_begin() handle once started */
    pb_sim_follow_feedback last;
} goal;

/* A /plan_path call whose planner runs (or waits to run) on a worker thread. */
typedef struct plan_call {
    struct plan_call *next;
    conn *owner; /* NULL once the connection closed: the job is canceled, nobody is answered */
    json_t *id, *service;
    pb_sim_plan_job *job;
    struct lws_context *ctx; /* the worker wakes the loop through it */
    pthread_t thread;
    bool started, threaded; /* threaded: `thread` runs it and must be joined */
} plan_call;

typedef struct server {
    pb_sim *sim;
    struct lws_context *ctx;
    lws_sorted_usec_list_t sul;
    conn *conns;
    goal *goals;
    plan_call *plans;
    int n_plan_threads;
    asg_queue *scenarios; /* the scenario worker's queue (asg_queue.h) */
    rti *rti;             /* the RTI entity channels and ownership (rti.h) */
    unsigned next_client; /* the next client<N> */
    char **spawn_owner;   /* pairs (entity, client id) a spawn left for its CREATED event */
    size_t n_spawn_owner;
    double next_play_step;
    const volatile int *stop;
    bool quit;
    const pb_sim_serve_config *config;
    size_t total_queued; /* outgoing bytes queued across every connection */
    int n_conns;
    /* /tf, odometry and joint states: at most every `tf_period` seconds of wall time while
     * the world steps faster (0: after every step), and always for the last step */
    double tf_period, last_tf;
    bool tf_pending;
} server;

static server *server_of(struct lws *wsi);

static void free_queue(server *s, conn *c)
{
    s->total_queued -= c->queued_bytes;
    while (c->head) {
        out_msg *m = c->head;
        c->head = m->next;
        free(m);
    }
    c->tail = NULL;
    c->n_queued = c->queued_bytes = 0;
}

static void enqueue(conn *c, char *text)
{
    if (!text)
        return;
    const size_t len = strlen(text);
    server *s = server_of(c->wsi);
    const pb_sim_serve_config *cfg = s->config;
    const bool own_cap = c->n_queued >= MAX_QUEUED || c->queued_bytes + len > cfg->max_queued_bytes;
    const bool total_cap = s->total_queued + len > cfg->max_total_queued;
    if (c->dropping || own_cap || total_cap) {
        /* a client that does not read: close it rather than buffer without bound (over the
         * total, the client being written to is the one that has not read) */
        if (!c->dropping)
            fprintf(
                stderr,
                "planbench serve: dropping a client that does not read (%zu messages, %zu bytes queued%s)\n",
                c->n_queued, c->queued_bytes, own_cap ? "" : "; the total for every client is full");
        c->dropping = true;
        free(text);
        free_queue(s, c);
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
        return;
    }
    out_msg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m) {
        free(text);
        return;
    }
    m->next = NULL;
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    free(text);
    if (c->tail)
        c->tail->next = m;
    else
        c->head = m;
    c->tail = m;
    c->n_queued++;
    c->queued_bytes += len;
    s->total_queued += len;
    lws_callback_on_writable(c->wsi);
}

/* The client whose spawn made `entity` (taken from the pairs), or NULL. */
static char *take_spawn_owner(server *s, const char *entity)
{
    for (size_t i = 0; i < s->n_spawn_owner; i++)
        if (strcmp(s->spawn_owner[2 * i], entity) == 0) {
            char *owner = s->spawn_owner[2 * i + 1];
            free(s->spawn_owner[2 * i]);
            s->n_spawn_owner--;
            s->spawn_owner[2 * i] = s->spawn_owner[2 * s->n_spawn_owner];
            s->spawn_owner[2 * i + 1] = s->spawn_owner[2 * s->n_spawn_owner + 1];
            return owner;
        }
    return NULL;
}

static void on_event(pb_sim_event_kind kind, const char *entity, void *payload)
{
    server *s = payload;
    for (conn *c = s->conns; c; c = c->next_conn)
        if (c->subscribed[RB_TOPIC_ENTITY_EVENTS])
            enqueue(c, rb_entity_event(kind, entity));
    char *owner = kind == PB_SIM_EVENT_CREATED ? take_spawn_owner(s, entity) : NULL;
    rti_on_event(s->rti, kind, entity, owner);
    free(owner);
}

static void publish_events(server *s)
{
    pb_sim_drain_events(s->sim, on_event, s);
}

/* A world topic's message, made once for every connection that subscribed (`topic`) and is
 * not backed up (latest wins: a backed-up reader skips a step). */
static void publish_world_topic(server *s, rb_topic topic)
{
    char *text = NULL;
    bool made = false;
    for (conn *c = s->conns; c; c = c->next_conn) {
        if (!c->subscribed[topic] || c->n_queued > BACKLOG)
            continue;
        if (!made) {
            made = true;
            text = topic == RB_TOPIC_ENTITY_STATES ? rb_entity_states(s->sim)
                   : topic == RB_TOPIC_CLOCK       ? rb_clock(s->sim)
                                                   : rb_tf(s->sim, topic == RB_TOPIC_TF_STATIC);
        }
        if (text)
            enqueue(c, strdup(text));
    }
    free(text);
}

/* Each entity's subscribed topics: odometry and joint states (`status` false), or a
 * vehicle's status topics (`status` true). */
static void publish_entity_topics(server *s, bool status)
{
    for (conn *c = s->conns; c; c = c->next_conn)
        for (size_t i = 0; i < c->n_entity_subs && c->n_queued <= BACKLOG; i++) {
            const entity_sub *e = &c->entity_subs[i];
            if (rb_topic_is_vehicle_status(e->topic) != status || rb_topic_is_worker(e->topic))
                continue;
            char *text = status                      ? rb_vehicle_status(s->sim, e->topic, e->entity)
                         : e->topic == RB_TOPIC_ODOM ? rb_odom(s->sim, e->entity)
                                                     : rb_joint_states(s->sim, e->entity);
            if (text)
                enqueue(c, text);
        }
}

static void publish_tf(server *s)
{
    publish_world_topic(s, RB_TOPIC_TF);
    publish_entity_topics(s, false);
    s->tf_pending = false;
    s->last_tf = pb_clock_seconds();
}

/* The frame topics of a step not yet published (the last of a batch of steps). */
static void flush_tf(server *s)
{
    if (s->tf_pending)
        publish_tf(s);
}

/* After every step: the clock, the entity states and vehicles' status; /tf, odometry and joint states at most
 * every tf_period (flush_tf() sends the last); /tf_static only when asked for, and when a
 * world loads (see handle_text). */
static void on_step(pb_sim *sim, void *payload)
{
    (void)sim;
    server *s = payload;
    publish_world_topic(s, RB_TOPIC_CLOCK);
    publish_world_topic(s, RB_TOPIC_ENTITY_STATES);
    publish_entity_topics(s, true);  /* vehicles' status: at the sim's rate, as AWSIM publishes it */
    asg_queue_on_step(s->scenarios); /* an external scenario advances with the world */
    rti_on_step(s->rti);             /* positions by dead reckoning, vehicle states */
    s->tf_pending = true;
    if (s->tf_period <= 0 || pb_clock_seconds() - s->last_tf >= s->tf_period)
        publish_tf(s);
}

static void free_entity_subs(conn *c)
{
    for (size_t i = 0; i < c->n_entity_subs; i++)
        free(c->entity_subs[i].entity);
    free(c->entity_subs);
    c->entity_subs = NULL;
    c->n_entity_subs = 0;
}

static server *server_of(struct lws *wsi)
{
    return lws_context_user(lws_get_context(wsi));
}

/* session callbacks for the codec */
typedef struct session_payload {
    server *s;
    conn *c;
} session_payload;

static void start_goal(void *payload, json_t *id, json_t *action, uint64_t steps, bool feedback)
{
    session_payload *p = payload;
    goal *g = calloc(1, sizeof *g);
    if (!g)
        return;
    *g = (goal){.owner = p->c,
                .id = id ? json_incref(id) : NULL,
                .action = json_incref(action),
                .steps = steps,
                .feedback = feedback};
    goal **tail = &p->s->goals;
    while (*tail)
        tail = &(*tail)->next;
    *tail = g;
}

static void follow_free(pb_sim_follow_request *rq)
{
    if (rq) {
        free((char *)rq->entity);
        free((pb_sim_pose *)rq->path);
        free(rq);
    }
}

static void start_follow(void *payload, json_t *id, json_t *action, const pb_sim_follow_request *rq,
                         const double *joints_in, size_t n_joints, bool feedback)
{
    session_payload *p = payload;
    goal *g = calloc(1, sizeof *g);
    pb_sim_follow_request *copy = calloc(1, sizeof *copy);
    char *entity = sim_strdup(rq->entity ? rq->entity : "");
    pb_sim_pose *path = malloc((rq->n_path ? rq->n_path : 1) * sizeof *path);
    double *joints = n_joints ? malloc((rq->n_path ? rq->n_path : 1) * n_joints * sizeof *joints) : NULL;
    if (!g || !copy || !entity || !path || (n_joints && !joints)) {
        free(g);
        free(copy);
        free(entity);
        free(path);
        free(joints);
        pb_sim_result r = {.result = PB_SIM_RESULT_OPERATION_FAILED, .error_message = "out of memory"};
        enqueue(p->c, rb_follow_result(id, action, 6, &r, 0, NULL));
        return;
    }
    if (rq->n_path)
        memcpy(path, rq->path, rq->n_path * sizeof *path);
    if (joints)
        memcpy(joints, joints_in, rq->n_path * n_joints * sizeof *joints);
    *copy = (pb_sim_follow_request){entity, path, rq->n_path, rq->speed};
    *g = (goal){.owner = p->c,
                .id = id ? json_incref(id) : NULL,
                .action = json_incref(action),
                .feedback = feedback,
                .follow = copy,
                .follow_joints = joints,
                .follow_n_joints = n_joints};
    goal **tail = &p->s->goals;
    while (*tail)
        tail = &(*tail)->next;
    *tail = g;
}

static bool same_id(json_t *a, json_t *b)
{
    return a && b && json_equal(a, b);
}

static bool goal_is(const goal *g, const char *action)
{
    const char *name = json_string_value(g->action);
    return !action || (name && strcmp(name + (name[0] == '/'), action) == 0);
}

static void cancel_goal(void *payload, json_t *id, const char *action)
{
    session_payload *p = payload;
    for (goal *g = p->s->goals; g; g = g->next)
        if (g->owner == p->c && (!id || same_id(g->id, id)) && goal_is(g, action))
            g->cancel = true;
    if (!action || strstr(action, "run_scenario_action"))
        asg_queue_cancel(p->s->scenarios, p->c, id);
}

static void subscribe(void *payload, rb_topic topic, const char *entity, bool on, int throttle_ms,
                      int queue_length)
{
    session_payload *p = payload;
    conn *c = p->c;
    if (!rb_topic_is_per_entity(topic)) {
        c->subscribed[topic] = on;
        if (on && topic == RB_TOPIC_TF_STATIC) /* latched: the current tree at once */
            enqueue(c, rb_tf(p->s->sim, true));
        if (rb_topic_is_rti(topic))
            throttle_set(c->throttle, topic, on && topic != RB_TOPIC_RTI_ENTITY ? throttle_ms : 0,
                         queue_length);
        if (on && topic == RB_TOPIC_RTI_ENTITY) /* every entity there is, as a request_update answers */
            rti_publish_all(p->s->rti, c->client_id);
        return;
    }
    if (on && topic == RB_TOPIC_WORKER_STATUS) /* latched: the worker's status at once */
        enqueue(c, asg_status_message(p->s->config->worker_id, asg_queue_busy(p->s->scenarios)));
    for (size_t i = 0; i < c->n_entity_subs; i++)
        if (c->entity_subs[i].topic == topic && strcmp(c->entity_subs[i].entity, entity) == 0) {
            if (!on) {
                free(c->entity_subs[i].entity);
                c->entity_subs[i] = c->entity_subs[--c->n_entity_subs];
            }
            return;
        }
    if (!on || c->n_entity_subs >= MAX_ENTITY_SUBS)
        return;
    entity_sub *grown = realloc(c->entity_subs, (c->n_entity_subs + 1) * sizeof *grown);
    char *copy = strdup(entity);
    if (!grown || !copy) {
        free(copy);
        if (grown)
            c->entity_subs = grown;
        return;
    }
    c->entity_subs = grown;
    c->entity_subs[c->n_entity_subs++] = (entity_sub){topic, copy};
}

static void plan_call_free(plan_call *pc)
{
    pb_sim_plan_job_destroy(pc->job);
    json_decref(pc->id);
    json_decref(pc->service);
    free(pc);
}

static void *plan_worker(void *arg)
{
    plan_call *pc = arg;
    pb_sim_plan_run(pc->job);
    lws_cancel_service(pc->ctx); /* wake the loop: it answers in LWS_CALLBACK_EVENT_WAIT_CANCELLED */
    return NULL;
}

/* Answer the finished plans (on the loop's thread), then start waiting ones while a thread
 * is free. A waiting plan whose client has gone is dropped without running. */
static void service_plans(server *s)
{
    for (plan_call **p = &s->plans; *p;) {
        plan_call *pc = *p;
        const bool finished = pc->started && pb_sim_plan_is_done(pc->job);
        if (!finished && (pc->started || pc->owner)) {
            p = &pc->next;
            continue;
        }
        if (pc->threaded) {
            pthread_join(pc->thread, NULL);
            s->n_plan_threads--;
        }
        if (pc->owner) {
            pb_sim_plan_response rs;
            pb_sim_plan_finish(s->sim, pc->job, &rs);
            enqueue(pc->owner, rb_plan_reply(pc->id, pc->service, &rs));
        }
        *p = pc->next;
        plan_call_free(pc);
    }
    for (plan_call *pc = s->plans; pc && s->n_plan_threads < MAX_PLAN_THREADS; pc = pc->next) {
        if (pc->started)
            continue;
        if (pthread_create(&pc->thread, NULL, plan_worker, pc) != 0) {
            if (s->n_plan_threads > 0)
                break;                /* no thread now: retry when one ends */
            pb_sim_plan_run(pc->job); /* none at all: plan here rather than never */
            pc->started = true;
            continue;
        }
        pc->started = pc->threaded = true;
        s->n_plan_threads++;
    }
}

static void start_plan(void *payload, json_t *id, json_t *service, pb_sim_plan_job *job)
{
    session_payload *p = payload;
    size_t mine = 0;
    for (const plan_call *q = p->s->plans; q; q = q->next)
        mine += q->owner == p->c;
    plan_call *pc = mine < MAX_PLANS_PER_CONN ? calloc(1, sizeof *pc) : NULL;
    if (!pc) {
        pb_sim_plan_job_destroy(job);
        pb_sim_plan_response rs = {.result = {.result = PB_SIM_RESULT_OPERATION_FAILED}, .outcome = ""};
        snprintf(rs.result.error_message, sizeof rs.result.error_message, "%s",
                 mine < MAX_PLANS_PER_CONN ? "out of memory"
                                           : "too many plans in flight on this connection (at most 16)");
        enqueue(p->c, rb_plan_reply(id, service, &rs));
        return;
    }
    *pc = (plan_call){.owner = p->c,
                      .id = id ? json_incref(id) : NULL,
                      .service = json_incref(service),
                      .job = job,
                      .ctx = p->s->ctx};
    plan_call **tail = &p->s->plans;
    while (*tail)
        tail = &(*tail)->next;
    *tail = pc;
    service_plans(p->s);
}

/* ---- the RTI channels (rti.h) ---- */

static conn *client_conn(server *s, const char *client)
{
    for (conn *c = s->conns; c; c = c->next_conn)
        if (strcmp(c->client_id, client) == 0)
            return c;
    return NULL;
}

static void enqueue_to(void *payload, char *text)
{
    enqueue(payload, text);
}

/* A channel's message to its subscribers (or client `to` only), each through its throttle.
 * Never skipped for a reader that lags (a receiver dead-reckoning from a skipped position would
 * be off): stepping waits for readers, and one that stops reading is dropped at its queue limit. */
static void rti_publish(void *io, rb_topic topic, const char *entity, const char *to, char *text)
{
    server *s = io;
    const double now = pb_clock_seconds();
    for (conn *c = to ? client_conn(s, to) : s->conns; c && text; c = to ? NULL : c->next_conn) {
        if (!c->subscribed[topic])
            continue;
        char *copy = strdup(text);
        if (copy && throttle_offer(c->throttle, topic, entity, &copy, now))
            enqueue(c, copy);
    }
    free(text);
}

static bool rti_client_exists(void *io, const char *client)
{
    return client_conn(io, client) != NULL;
}

static void session_spawned(void *payload, const char *entity)
{
    session_payload *p = payload;
    server *s = p->s;
    char **grown = realloc(s->spawn_owner, 2 * (s->n_spawn_owner + 1) * sizeof *grown);
    if (!grown)
        return;
    s->spawn_owner = grown;
    char *name = strdup(entity), *owner = strdup(p->c->client_id);
    if (!name || !owner) {
        free(name);
        free(owner);
        return;
    }
    grown[2 * s->n_spawn_owner] = name;
    grown[2 * s->n_spawn_owner + 1] = owner;
    s->n_spawn_owner++;
}

static bool session_may_command(void *payload, const char *entity, char *why, size_t size)
{
    session_payload *p = payload;
    return rti_may_command(p->s->rti, entity, p->c->client_id, why, size);
}

/* A refused RTI message goes to the log too (the client gets an error status). */
static bool logged(const conn *c, bool ok, const char *err)
{
    if (!ok)
        fprintf(stderr, "planbench serve: %s: %s\n", c->client_id, err);
    return ok;
}

static bool session_rti_operation(void *payload, const json_t *msg, char *err, size_t size)
{
    session_payload *p = payload;
    return logged(p->c, rti_operation(p->s->rti, p->c->client_id, msg, err, size), err);
}

static bool session_rti_position(void *payload, const json_t *msg, char *err, size_t size)
{
    session_payload *p = payload;
    return logged(p->c, rti_position(p->s->rti, p->c->client_id, msg, err, size), err);
}

static const char *session_client_id(void *payload)
{
    return ((session_payload *)payload)->c->client_id;
}

/* ---- the scenario worker (asg_worker.h) ---- */

/* Send `text` to every connection subscribed to the worker's `topic`. Takes `text`. */
static void publish_worker(server *s, rb_topic topic, char *text)
{
    char entity[32];
    snprintf(entity, sizeof entity, "asg_worker%d", s->config->worker_id);
    for (conn *c = s->conns; c && text; c = c->next_conn)
        for (size_t i = 0; i < c->n_entity_subs; i++)
            if (c->entity_subs[i].topic == topic && strcmp(c->entity_subs[i].entity, entity) == 0) {
                enqueue(c, strdup(text));
                break;
            }
    free(text);
}

static void send_to(void *io, void *owner, char *text)
{
    (void)io;
    if (text)
        enqueue(owner, text);
}

static void wake_loop(void *io)
{
    lws_cancel_service(((server *)io)->ctx); /* the loop services the queue in EVENT_WAIT_CANCELLED */
}

static void publish_to_worker(void *io, rb_topic topic, char *text)
{
    publish_worker(io, topic, text);
}

static void start_scenario(void *payload, pb_scenario *scenario, char *request, json_t *id, json_t *action,
                           bool feedback)
{
    session_payload *p = payload;
    asg_queue_add(p->s->scenarios, scenario, request, action ? p->c : NULL, id, action, feedback);
}

static bool command_scenario(void *payload, const pb_sim_vehicle_command *command, pb_sim_result *r)
{
    session_payload *p = payload;
    return asg_queue_command(p->s->scenarios, command, r);
}

/* NotifyReady's request_rerun: the last request, parsed again (its files may have changed). */
static bool rerun_scenario(void *payload)
{
    session_payload *p = payload;
    const char *last = asg_queue_last_request(p->s->scenarios);
    json_t *args = last ? json_loads(last, 0, NULL) : NULL;
    char err[700];
    pb_scenario *scenario = args ? asg_parse_request(p->s->sim, args, err, sizeof err) : NULL;
    json_decref(args);
    if (scenario)
        asg_queue_add(p->s->scenarios, scenario, NULL, NULL, NULL, NULL, false);
    return scenario != NULL;
}

/* The secret compared in constant time. */
static bool token_matches(const char *given, const char *secret)
{
    const size_t n = strlen(secret), m = strlen(given);
    unsigned char diff = (unsigned char)(n != m);
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(secret[i] ^ (i < m ? given[i] : 0));
    return diff == 0;
}

/* Before the token: only rosbridge's auth op ({"op": "auth", "mac": SECRET}); every other op
 * gets an error status. True when the message was dealt with here. */
static bool gate(server *s, conn *c, const char *data, size_t len)
{
    if (c->authenticated)
        return false;
    json_t *msg = json_loadb(data, len, 0, NULL);
    const char *op = msg ? json_string_value(json_object_get(msg, "op")) : NULL;
    if (op && strcmp(op, "auth") == 0) {
        const char *mac = json_string_value(json_object_get(msg, "mac"));
        if (!mac)
            mac = json_string_value(json_object_get(msg, "token"));
        c->authenticated = mac && token_matches(mac, s->config->token);
        if (!c->authenticated)
            enqueue(c, strdup("{\"op\":\"status\",\"level\":\"error\",\"msg\":\"auth: wrong secret\"}"));
    } else {
        enqueue(
            c, strdup("{\"op\":\"status\",\"level\":\"error\",\"msg\":\"not authenticated: this server needs "
                      "its token, as ws://HOST:PORT/?token=SECRET or {\\\"op\\\": \\\"auth\\\", \\\"mac\\\": "
                      "\\\"SECRET\\\"} first\"}"));
    }
    json_decref(msg);
    return true;
}

static void handle_text(server *s, conn *c, const char *data, size_t len)
{
    if (gate(s, c, data, len))
        return;
    session_payload p = {s, c};
    const rb_session session = {.start_goal = start_goal,
                                .start_follow = start_follow,
                                .cancel_goal = cancel_goal,
                                .subscribe = subscribe,
                                .start_plan = start_plan,
                                .payload = &p,
                                .start_scenario = start_scenario,
                                .rerun_scenario = rerun_scenario,
                                .command_scenario = command_scenario,
                                .spawned = session_spawned,
                                .may_command = session_may_command,
                                .rti_operation = session_rti_operation,
                                .rti_position = session_rti_position,
                                .client_id = session_client_id,
                                .worker_id = s->config->worker_id};
    char *reply = NULL;
    pb_sim_world_info before;
    pb_sim_result r;
    pb_sim_get_current_world(s->sim, &r, &before);
    const double time_before = pb_sim_time(s->sim);
    rb_handle(s->sim, data, len, &session, &reply);
    flush_tf(s);
    enqueue(c, reply);
    publish_events(s);
    pb_sim_world_info after;
    pb_sim_get_current_world(s->sim, &r, &after);
    if (after.uri != before.uri) /* another world: its fixed frames */
        publish_world_topic(s, RB_TOPIC_TF_STATIC);
    /* a world loaded, unloaded or reset: its entities come and go without events */
    if (after.uri != before.uri || pb_sim_time(s->sim) < time_before)
        rti_world_changed(s->rti);
    if (pb_sim_state(s->sim) == PB_SIM_STATE_QUITTING)
        s->quit = true;
}

/* Is `origin` ("scheme://host[:port]") a loopback one, or listed? */
static bool origin_allowed(const pb_sim_serve_config *config, const char *origin)
{
    for (size_t i = 0; i < config->n_allow_origins; i++)
        if (strcmp(config->allow_origins[i], "*") == 0 || strcmp(config->allow_origins[i], origin) == 0)
            return true;
    const char *host = strstr(origin, "://");
    if (!host || !(strncmp(origin, "http://", 7) == 0 || strncmp(origin, "https://", 8) == 0))
        return false;
    host += 3;
    char name[256];
    size_t n = 0;
    if (*host == '[') { /* [::1] */
        const char *end = strchr(host, ']');
        if (!end || (size_t)(end - host) >= sizeof name)
            return false;
        n = (size_t)(end - host - 1);
        memcpy(name, host + 1, n);
        host = end + 1;
    } else {
        while (host[n] && host[n] != ':' && host[n] != '/' && n + 1 < sizeof name) {
            name[n] = host[n];
            n++;
        }
        host += n;
    }
    name[n] = '\0';
    if (*host == ':') /* a port, digits only */
        for (host++; *host >= '0' && *host <= '9'; host++)
            ;
    if (*host != '\0' && strcmp(host, "/") != 0)
        return false;
    struct in_addr v4;
    if (strcmp(name, "localhost") == 0 || strcmp(name, "::1") == 0)
        return true;
    return inet_pton(AF_INET, name, &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    conn *c = user;
    server *s = NULL;
    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: {
        s = server_of(wsi);
        char origin[512];
        if (s->n_conns >= s->config->max_connections) {
            fprintf(stderr, "planbench serve: refused a connection: %d clients already\n", s->n_conns);
            return -1;
        }
        const int n = lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN);
        if (n > 0 && !origin_allowed(s->config, origin)) {
            fprintf(stderr,
                    "planbench serve: refused a handshake from origin '%.200s' (see --allow-origin)\n",
                    origin);
            return -1;
        }
        if (n < 0 && lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) > 0)
            return -1; /* an Origin too long to read is no loopback one */
        /* the token in the URL, read while the request's headers are still there */
        char given[256];
        const char *value =
            s->config->token ? lws_get_urlarg_by_name(wsi, "token=", given, sizeof given) : NULL;
        c->authenticated = !s->config->token || (value && token_matches(value, s->config->token));
        break;
    }
    case LWS_CALLBACK_ESTABLISHED: {
        s = server_of(wsi);
        const bool authenticated = c->authenticated; /* decided by the filter above */
        memset(c, 0, sizeof *c);
        c->wsi = wsi;
        c->next_conn = s->conns;
        s->conns = c;
        s->n_conns++;
        c->authenticated = authenticated || !s->config->token;
        snprintf(c->client_id, sizeof c->client_id, "client%u", ++s->next_client);
        c->throttle = throttle_create();
        break;
    }
    case LWS_CALLBACK_RECEIVE: {
        s = server_of(wsi);
        if (lws_frame_is_binary(wsi)) {
            /* roslib never sends binary (BSON/CBOR are not supported here) */
            enqueue(c,
                    strdup("{\"op\":\"service_response\",\"service\":\"\",\"values\":\"binary frames are not "
                           "supported\",\"result\":false}"));
            break;
        }
        if (!c->rx_overflow) {
            if (c->rx_len + len > MAX_INCOMING) {
                c->rx_overflow = true;
                free(c->rx);
                c->rx = NULL;
                c->rx_len = c->rx_cap = 0;
            } else {
                if (c->rx_len + len + 1 > c->rx_cap) {
                    size_t cap = c->rx_cap ? c->rx_cap : 4096;
                    while (cap < c->rx_len + len + 1)
                        cap *= 2;
                    char *g = realloc(c->rx, cap);
                    if (!g)
                        return -1;
                    c->rx = g;
                    c->rx_cap = cap;
                }
                memcpy(c->rx + c->rx_len, in, len);
                c->rx_len += len;
            }
        }
        if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
            if (c->rx_overflow) {
                enqueue(
                    c,
                    strdup("{\"op\":\"service_response\",\"service\":\"\",\"values\":\"message larger than 4 "
                           "MiB\",\"result\":false}"));
                c->rx_overflow = false;
            } else {
                handle_text(s, c, c->rx ? c->rx : "", c->rx_len);
            }
            c->rx_len = 0;
            if (c->rx_cap > (1u << 20)) {
                free(c->rx);
                c->rx = NULL;
                c->rx_cap = 0;
            }
        }
        break;
    }
    case LWS_CALLBACK_SERVER_WRITEABLE: {
        out_msg *m = c->head;
        if (!m)
            break;
        if (lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len)
            return -1;
        c->head = m->next;
        if (!c->head)
            c->tail = NULL;
        c->n_queued--;
        c->queued_bytes -= m->len;
        server_of(wsi)->total_queued -= m->len;
        free(m);
        if (c->head)
            lws_callback_on_writable(wsi);
        break;
    }
    case LWS_CALLBACK_CLOSED: {
        s = server_of(wsi);
        for (conn **p = &s->conns; *p; p = &(*p)->next_conn)
            if (*p == c) {
                *p = c->next_conn;
                break;
            }
        for (goal *g = s->goals; g; g = g->next)
            if (g->owner == c) {
                g->owner = NULL;
                g->cancel = true;
            }
        /* its plans stop soon and are dropped unanswered (no follow starts) */
        for (plan_call *pc = s->plans; pc; pc = pc->next)
            if (pc->owner == c) {
                pc->owner = NULL;
                pb_sim_plan_cancel(pc->job);
            }
        asg_queue_forget(s->scenarios, c);     /* its scenario goals run on, unanswered */
        rti_client_gone(s->rti, c->client_id); /* its entities go back to the server, saying so */
        throttle_destroy(c->throttle);
        c->throttle = NULL;
        free_queue(s, c);
        free_entity_subs(c);
        s->n_conns--;
        free(c->rx);
        c->rx = NULL;
        break;
    }
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        /* a planner thread finished (lws_cancel_service) */
        s = server_of(wsi);
        if (s) {
            service_plans(s);
            asg_queue_service(s->scenarios);
            publish_events(s);
        }
        break;
    default:
        break;
    }
    return 0;
}

static void goal_free(goal *g)
{
    json_decref(g->id);
    json_decref(g->action);
    follow_free(g->follow);
    free(g->follow_joints);
    free(g);
}

/* Advance the first goal for up to STEP_BUDGET_S; goals run one after the other (they
 * share the one simulation). */
static bool backed_up(const goal *g)
{
    return g->owner && g->owner->n_queued > BACKLOG;
}

/* Advance a FollowPath goal within the tick's budget; true when it has ended (result sent). */
static bool run_follow(server *s, goal *g, double t_end)
{
    pb_sim_result r = {.result = PB_SIM_RESULT_OK};
    if (!g->started && g->cancel) {
        snprintf(r.error_message, sizeof r.error_message, "canceled before it started");
        if (g->owner)
            enqueue(g->owner, rb_follow_result(g->id, g->action, 5, &r, 0, NULL));
        return true;
    }
    if (!g->started) {
        if (!pb_sim_follow_begin_joints(&g->follow_goal, s->sim, g->follow, g->follow_joints,
                                        g->follow_n_joints, &r)) {
            if (g->owner)
                enqueue(g->owner, rb_follow_result(g->id, g->action, 6, &r, 0, NULL));
            return true;
        }
        g->started = true;
    }
    pb_sim_follow_status fs = PB_SIM_FOLLOW_RUNNING;
    while (!g->cancel && fs == PB_SIM_FOLLOW_RUNNING && pb_clock_seconds() < t_end && !backed_up(g)) {
        fs = pb_sim_follow_step(s->sim, g->follow_goal, &g->last, &r);
        g->done++;
        if (g->feedback && g->owner)
            enqueue(g->owner, rb_follow_feedback(g->id, g->action, g->done, &g->last));
    }
    if (!g->cancel && fs == PB_SIM_FOLLOW_RUNNING)
        return false; /* budget spent or the reader is behind: continue at the next tick */
    int status = fs == PB_SIM_FOLLOW_REACHED ? 4 : 6;
    if (g->cancel && fs == PB_SIM_FOLLOW_RUNNING) {
        pb_sim_follow_cancel(s->sim, g->follow_goal);
        r = (pb_sim_result){.result = PB_SIM_RESULT_OK};
        snprintf(r.error_message, sizeof r.error_message, "canceled after %llu steps",
                 (unsigned long long)g->done);
        status = 5;
    }
    if (g->done > 0)
        pb_sim_steps_end(s->sim);
    if (g->owner)
        enqueue(g->owner, rb_follow_result(g->id, g->action, status, &r, g->done, g->done ? &g->last : NULL));
    return true;
}

static void run_goals(server *s)
{
    const double t_end = pb_clock_seconds() + STEP_BUDGET_S;
    while (s->goals) {
        goal *g = s->goals;
        if (g->follow) {
            if (!run_follow(s, g, t_end))
                return;
            s->goals = g->next;
            goal_free(g);
            continue;
        }
        pb_sim_result r;
        if (!g->started) {
            if (!pb_sim_steps_begin(s->sim, g->steps, &r)) {
                if (g->owner)
                    enqueue(g->owner, rb_action_result(g->id, g->action, 6, &r));
                s->goals = g->next;
                goal_free(g);
                continue;
            }
            g->started = true;
        }
        /* back-pressure: feedback goes out after every step, so a goal whose client has not
         * read its feedback yet waits instead of flooding the queue */
        while (!g->cancel && g->done < g->steps && pb_clock_seconds() < t_end &&
               !(g->owner && g->owner->n_queued > BACKLOG)) {
            pb_sim_step_once(s->sim);
            g->done++;
            if (g->feedback && g->owner)
                enqueue(g->owner, rb_action_feedback(g->id, g->action, g->done, g->steps - g->done));
        }
        if (!g->cancel && g->done < g->steps)
            return; /* budget spent: continue at the next tick */
        if (g->steps > 0 || g->cancel)
            pb_sim_steps_end(s->sim);
        r = (pb_sim_result){.result = PB_SIM_RESULT_OK};
        if (g->cancel)
            snprintf(r.error_message, sizeof r.error_message, "canceled after %llu of %llu steps",
                     (unsigned long long)g->done, (unsigned long long)g->steps);
        if (g->owner)
            enqueue(g->owner, rb_action_result(g->id, g->action, g->cancel ? 5 : 4, &r));
        s->goals = g->next;
        goal_free(g);
    }
}

static void tick(lws_sorted_usec_list_t *sul)
{
    server *s = lws_container_of(sul, server, sul);
    service_plans(s); /* in case a wake-up was missed */
    asg_queue_service(s->scenarios);
    run_goals(s);
    const double now = pb_clock_seconds();
    for (conn *c = s->conns; c; c = c->next_conn) /* throttled RTI messages now due */
        throttle_flush(c->throttle, now, enqueue_to, c);
    if (pb_sim_state(s->sim) == PB_SIM_STATE_PLAYING) {
        /* real time; catch up at most a few steps after a stall */
        if (s->next_play_step < now - 0.25)
            s->next_play_step = now;
        for (int k = 0; k < 8 && s->next_play_step <= now; k++) {
            pb_sim_step_once(s->sim);
            s->next_play_step += pb_sim_time_step(s->sim);
        }
    } else {
        s->next_play_step = now;
    }
    flush_tf(s);
    publish_events(s);
    const bool busy = s->goals || pb_sim_state(s->sim) == PB_SIM_STATE_PLAYING;
    lws_sul_schedule(s->ctx, 0, &s->sul, tick, busy ? TICK_US : IDLE_TICK_US);
}

pb_sim_serve_config pb_sim_serve_config_default(void)
{
    return (pb_sim_serve_config){.host = "127.0.0.1",
                                 .port = 9090,
                                 .max_connections = 64,
                                 .max_queued_bytes = (size_t)32 << 20,
                                 .max_total_queued = (size_t)256 << 20,
                                 .tf_rate = 100.0,
                                 .rti_position_tolerance = 0.01,
                                 .rti_angle_tolerance = 0.5,
                                 .rti_heartbeat = 1.0};
}

static bool is_loopback(const struct sockaddr_storage *a)
{
    if (a->ss_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)a)->sin_addr.s_addr) >> 24) == 127;
    const struct in6_addr *v6 = &((const struct sockaddr_in6 *)a)->sin6_addr;
    return IN6_IS_ADDR_LOOPBACK(v6) || (IN6_IS_ADDR_V4MAPPED(v6) && v6->s6_addr[12] == 127);
}

static void address_text(const struct sockaddr_storage *a, char *buf, size_t size)
{
    const void *raw = a->ss_family == AF_INET ? (const void *)&((const struct sockaddr_in *)a)->sin_addr
                                              : (const void *)&((const struct sockaddr_in6 *)a)->sin6_addr;
    if (!inet_ntop(a->ss_family, raw, buf, (socklen_t)size))
        snprintf(buf, size, "?");
}

/* The listening socket libwebsockets made: the one of this process that listens on `port`. */
static bool find_listener(int port, struct sockaddr_storage *out)
{
    for (int fd = 0; fd < 4096; fd++) {
        int listening = 0;
        socklen_t n = sizeof listening;
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &n) != 0 || !listening)
            continue;
        socklen_t len = sizeof *out;
        if (getsockname(fd, (struct sockaddr *)out, &len) != 0)
            continue;
        const int p = out->ss_family == AF_INET    ? ntohs(((struct sockaddr_in *)out)->sin_port)
                      : out->ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)out)->sin6_port)
                                                   : -1;
        if (p == port)
            return true;
    }
    return false;
}

/* Resolve `host` to one address of this machine, and check that `port` is free on it, by
 * binding a probe socket as libwebsockets will (SO_REUSEADDR). */
static pb_status resolve_host(const pb_sim_serve_config *cfg, struct sockaddr_storage *addr, pb_diag *diag)
{
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    const int rc = getaddrinfo(cfg->host, NULL, &hints, &res);
    if (rc != 0 || !res) {
        pb_diag_set(diag, NULL, 0, 0, "--host %s: does not resolve (%s)", cfg->host, gai_strerror(rc));
        return PB_ERR_INVALID;
    }
    /* an IPv4 address first (localhost is 127.0.0.1 before ::1 here, as for most clients) */
    const struct addrinfo *pick = res;
    for (const struct addrinfo *r = res; r; r = r->ai_next)
        if (r->ai_family == AF_INET) {
            pick = r;
            break;
        }
    memset(addr, 0, sizeof *addr);
    memcpy(addr, pick->ai_addr, pick->ai_addrlen);
    freeaddrinfo(res);
    if (addr->ss_family != AF_INET && addr->ss_family != AF_INET6) {
        pb_diag_set(diag, NULL, 0, 0, "--host %s: not an IP address", cfg->host);
        return PB_ERR_INVALID;
    }
    if (addr->ss_family == AF_INET)
        ((struct sockaddr_in *)addr)->sin_port = htons((uint16_t)cfg->port);
    else
        ((struct sockaddr_in6 *)addr)->sin6_port = htons((uint16_t)cfg->port);
    char text[INET6_ADDRSTRLEN];
    address_text(addr, text, sizeof text);
    const int fd = socket(addr->ss_family, SOCK_STREAM, 0);
    if (fd < 0) {
        pb_diag_set(diag, NULL, 0, 0, "cannot make a socket: %s", strerror(errno));
        return PB_ERR_IO;
    }
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (addr->ss_family == AF_INET6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    const socklen_t len =
        addr->ss_family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
    if (bind(fd, (struct sockaddr *)addr, len) != 0) {
        const int e = errno;
        close(fd);
        if (e == EADDRNOTAVAIL)
            pb_diag_set(diag, NULL, 0, 0, "--host %s: %s is not an address of this machine", cfg->host, text);
        else if (e == EADDRINUSE)
            pb_diag_set(diag, NULL, 0, 0, "cannot listen on %s port %d: the address is already in use", text,
                        cfg->port);
        else
            pb_diag_set(diag, NULL, 0, 0, "cannot listen on %s port %d: %s", text, cfg->port, strerror(e));
        return e == EADDRNOTAVAIL ? PB_ERR_INVALID : PB_ERR_IO;
    }
    close(fd);
    return PB_OK;
}

pb_status pb_sim_serve(pb_sim *sim, const pb_sim_serve_config *config, pb_diag *diag)
{
    static struct lws_protocols protocols[] = {
        {"rosbridge", callback, sizeof(conn), 65536, 0, NULL, 0},
        {NULL, NULL, 0, 0, 0, NULL, 0},
    };
    pb_sim_serve_config cfg = *config;
    if (!cfg.host || !cfg.host[0])
        cfg.host = "127.0.0.1";
    if (cfg.port < 0 || cfg.port > 65535) {
        pb_diag_set(diag, NULL, 0, 0, "--port %d: expected 0..65535", cfg.port);
        return PB_ERR_INVALID;
    }
    if (cfg.max_connections < 1 || cfg.max_queued_bytes < 1024 ||
        cfg.max_total_queued < cfg.max_queued_bytes) {
        pb_diag_set(diag, NULL, 0, 0,
                    "server limits: at least one connection and 1 KiB per client, in a total no smaller");
        return PB_ERR_INVALID;
    }
    if (!(cfg.tf_rate >= 0.0) || !isfinite(cfg.tf_rate)) {
        pb_diag_set(diag, NULL, 0, 0, "--tf-rate %g: expected a rate >= 0 per second (0: every step)",
                    cfg.tf_rate);
        return PB_ERR_INVALID;
    }
    struct sockaddr_storage want;
    pb_status st = resolve_host(&cfg, &want, diag);
    if (st != PB_OK)
        return st;
    char want_text[INET6_ADDRSTRLEN];
    address_text(&want, want_text, sizeof want_text);
    if (!is_loopback(&want) && !(cfg.token && cfg.token[0])) {
        pb_diag_set(
            diag, NULL, 0, 0,
            "--host %s (%s) is not a loopback address: anyone who can reach it could drive the simulation "
            "and read files; give a shared secret with --token (see docs/sim.md)",
            cfg.host, want_text);
        return PB_ERR_INVALID;
    }
    if (cfg.token && !cfg.token[0])
        cfg.token = NULL;
    server s = {
        .sim = sim, .stop = cfg.stop, .config = &cfg, .tf_period = cfg.tf_rate > 0 ? 1.0 / cfg.tf_rate : 0.0};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = cfg.port;
    /* the numeric address, and only its family: libwebsockets otherwise listens on IPv6's
     * any address, which with bindv6only=0 takes IPv4 on every interface too */
    info.iface = want_text;
    info.options = want.ss_family == AF_INET
                       ? LWS_SERVER_OPTION_DISABLE_IPV6
                       : LWS_SERVER_OPTION_IPV6_V6ONLY_MODIFY | LWS_SERVER_OPTION_IPV6_V6ONLY_VALUE;
    info.protocols = protocols;
    info.user = &s;
    info.ka_time = 0;
    info.timeout_secs = 30;
    const char *log_level = getenv("PLANBENCH_LWS_LOG"); /* libwebsockets log bits, for debugging */
    lws_set_log_level(log_level ? atoi(log_level) : 0, NULL);
    s.ctx = lws_create_context(&info);
    if (!s.ctx) {
        pb_diag_set(diag, NULL, 0, 0, "cannot listen on %s port %d", want_text, cfg.port);
        return PB_ERR_IO;
    }
    struct lws_vhost *vh = lws_get_vhost_by_name(s.ctx, "default");
    const int bound = vh ? lws_get_vhost_listen_port(vh) : cfg.port;
    struct sockaddr_storage got;
    char got_text[INET6_ADDRSTRLEN] = "?";
    const bool found = bound > 0 && find_listener(bound, &got);
    if (found)
        address_text(&got, got_text, sizeof got_text);
    if (!found || strcmp(got_text, want_text) != 0) {
        lws_context_destroy(s.ctx);
        pb_diag_set(diag, NULL, 0, 0, "cannot listen on %s port %d (the socket is bound to %s)", want_text,
                    cfg.port, got_text);
        return PB_ERR_IO;
    }
    const asg_queue_io queue_io = {.worker_id = cfg.worker_id,
                                   .sim = sim,
                                   .publish = publish_to_worker,
                                   .send = send_to,
                                   .wake = wake_loop,
                                   .io = &s};
    s.scenarios = asg_queue_create(&queue_io);
    const rti_io channels_io = {
        .sim = sim, .publish = rti_publish, .client_exists = rti_client_exists, .io = &s};
    rti_config channels = rti_config_default();
    channels.ownership = !cfg.no_ownership;
    if (cfg.rti_position_tolerance > 0)
        channels.position_tolerance = cfg.rti_position_tolerance;
    if (cfg.rti_angle_tolerance > 0)
        channels.angle_tolerance = cfg.rti_angle_tolerance * 3.14159265358979323846 / 180.0;
    if (cfg.rti_heartbeat > 0)
        channels.heartbeat = cfg.rti_heartbeat;
    s.rti = rti_create(&channels_io, &channels);
    if (!s.scenarios || !s.rti) {
        asg_queue_destroy(s.scenarios);
        rti_destroy(s.rti);
        lws_context_destroy(s.ctx);
        pb_diag_set(diag, NULL, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    rti_world_changed(s.rti); /* the world's own entities, owned by the server */
    if (cfg.on_ready)
        cfg.on_ready(got_text, bound, cfg.payload);
    pb_sim_set_step_callback(sim, on_step, &s);
    lws_sul_schedule(s.ctx, 0, &s.sul, tick, IDLE_TICK_US);
    while (!(cfg.stop && *cfg.stop) && !s.quit)
        if (lws_service(s.ctx, 0) < 0)
            break;
    /* let the reply to a QUITTING request go out */
    for (int k = 0; k < 20 && s.quit; k++) {
        bool pending = false;
        for (conn *c = s.conns; c; c = c->next_conn)
            pending |= c->head != NULL;
        if (!pending)
            break;
        lws_service(s.ctx, 0);
    }
    pb_sim_set_step_callback(sim, NULL, NULL);
    /* plans in flight: stop them and wait for their threads (they wake the context, so
     * before it goes); their clients get no answer */
    for (plan_call *pc = s.plans; pc; pc = pc->next) {
        pc->owner = NULL;
        pb_sim_plan_cancel(pc->job);
    }
    while (s.plans) {
        plan_call *pc = s.plans;
        s.plans = pc->next;
        if (pc->threaded)
            pthread_join(pc->thread, NULL);
        plan_call_free(pc);
    }
    asg_queue_destroy(s.scenarios); /* a running scenario is cancelled, its thread joined */
    s.scenarios = NULL;             /* closing connections below find no queue */
    rti *channels_left = s.rti;
    s.rti = NULL; /* closing connections below release nothing */
    lws_sul_cancel(&s.sul);
    lws_context_destroy(s.ctx);
    rti_destroy(channels_left);
    for (size_t i = 0; i < 2 * s.n_spawn_owner; i++)
        free(s.spawn_owner[i]);
    free(s.spawn_owner);
    while (s.goals) {
        goal *g = s.goals;
        s.goals = g->next;
        goal_free(g);
    }
    return PB_OK;
}
