/* The scenario worker's queue (asg_queue.h): one scenario at a time, in order. A built-in
 * driver's run goes on a thread in chunks of one second of sim time, leaving a progress record
 * after each for the loop to send as action feedback and checking for a cancel; an external
 * run is stepped by the loop after every world step, so its clock is the world's (play, or
 * SimulateSteps for lockstep), and its commands come from /asg_worker<N>/control/command/. */
#include "asg_queue.h"
#include "asg_worker.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct asg_call {
    struct asg_call *next;
    pb_scenario *scenario;
    /* an action goal: its connection (NULL when closed, or a service call), id and name */
    void *owner;
    json_t *id, *action;
    bool is_action, feedback;
    atomic_bool cancel;
    /* the run */
    bool started, threaded, external;
    pthread_t thread;
    atomic_bool done;
    pb_scenario_runner *runner; /* an external run's, stepped on the loop's thread */
    bool driven;                /* it has had its first control message */
    double world_start;         /* world time then */
    sim_vehicle_commands cmd;
    pb_scenario_result result;
    bool have_result, ended_early;
    pb_status status;
    char error[600];
    /* progress records the thread leaves for the loop */
    pthread_mutex_t lock;
    pb_scenario_progress *progress;
    size_t n_progress, cap_progress;
    uint64_t last_reported; /* steps at the last feedback */
    const asg_queue_io *io;
} asg_call;

struct asg_queue {
    asg_queue_io io;
    asg_call *head;
    char *last_request;
};

static uint64_t steps_per_second(const pb_scenario *scenario)
{
    return (uint64_t)fmax(1.0, round(1.0 / pb_scenario_time_step(scenario)));
}

/* Leave a progress record for the loop (any thread). */
static void record(asg_call *c, const pb_scenario_runner *u)
{
    if (!c->is_action || !c->feedback)
        return;
    pb_scenario_progress p;
    pb_scenario_runner_progress(u, &p);
    pthread_mutex_lock(&c->lock);
    if (c->n_progress == c->cap_progress) {
        const size_t cap = c->cap_progress ? 2 * c->cap_progress : 16;
        pb_scenario_progress *grown = realloc(c->progress, cap * sizeof *grown);
        if (grown) {
            c->progress = grown;
            c->cap_progress = cap;
        }
    }
    if (c->n_progress < c->cap_progress)
        c->progress[c->n_progress++] = p;
    pthread_mutex_unlock(&c->lock);
    if (c->threaded)
        c->io->wake(c->io->io);
}

/* The end of a run: its result, or the sentence saying why it could not run. */
static void finish_run(asg_call *c, pb_scenario_runner *u, pb_diag *diag)
{
    c->status = pb_scenario_runner_finish(u, &c->result, &c->ended_early, diag);
    c->have_result = c->status == PB_OK;
}

static void *run_thread(void *arg)
{
    asg_call *c = arg;
    pb_diag diag = {0};
    pb_scenario_runner *u = NULL;
    c->status = pb_scenario_runner_create(&u, c->scenario, &diag);
    if (c->status == PB_OK) {
        const uint64_t chunk = steps_per_second(c->scenario);
        while (!atomic_load(&c->cancel) && pb_scenario_runner_step(u, chunk))
            record(c, u);
        finish_run(c, u, &diag);
    }
    if (c->status != PB_OK)
        pb_diag_format(&diag, c->error, sizeof c->error);
    atomic_store(&c->done, true);
    return NULL;
}

/* The thread's body, and then the loop's wake-up. */
static void *run_and_wake(void *arg)
{
    asg_call *c = arg;
    run_thread(c);
    c->io->wake(c->io->io);
    return NULL;
}

asg_queue *asg_queue_create(const asg_queue_io *io)
{
    asg_queue *q = calloc(1, sizeof *q);
    if (q)
        q->io = *io;
    return q;
}

static void call_free(asg_call *c)
{
    if (c->have_result)
        pb_scenario_result_finish(&c->result);
    pb_scenario_runner_destroy(c->runner);
    pb_scenario_destroy(c->scenario);
    json_decref(c->id);
    json_decref(c->action);
    pthread_mutex_destroy(&c->lock);
    free(c->progress);
    free(c);
}

void asg_queue_destroy(asg_queue *q)
{
    if (!q)
        return;
    for (asg_call *c = q->head; c; c = c->next)
        atomic_store(&c->cancel, true);
    while (q->head) {
        asg_call *c = q->head;
        q->head = c->next;
        if (c->threaded)
            pthread_join(c->thread, NULL);
        call_free(c);
    }
    free(q->last_request);
    free(q);
}

void asg_queue_add(asg_queue *q, pb_scenario *scenario, char *request, void *owner, json_t *id,
                   json_t *action, bool feedback)
{
    if (request) {
        free(q->last_request);
        q->last_request = request;
    }
    asg_call *c = calloc(1, sizeof *c);
    if (!c) {
        pb_scenario_destroy(scenario);
        return;
    }
    c->scenario = scenario;
    c->io = &q->io;
    c->owner = owner;
    c->is_action = action != NULL;
    c->id = id ? json_incref(id) : NULL;
    c->action = action ? json_incref(action) : NULL;
    c->feedback = feedback;
    c->external = pb_scenario_is_external(scenario);
    c->cmd.gear = PB_GEAR_PARKING;
    atomic_init(&c->cancel, false);
    atomic_init(&c->done, false);
    pthread_mutex_init(&c->lock, NULL);
    asg_call **tail = &q->head;
    while (*tail)
        tail = &(*tail)->next;
    *tail = c;
    asg_queue_service(q);
}

const char *asg_queue_last_request(const asg_queue *q)
{
    return q ? q->last_request : NULL;
}

bool asg_queue_busy(const asg_queue *q)
{
    return q && q->head != NULL;
}

static void send_feedback(asg_queue *q, asg_call *c)
{
    pthread_mutex_lock(&c->lock);
    const size_t n = c->n_progress;
    pb_scenario_progress *records = c->progress;
    c->progress = NULL;
    c->n_progress = c->cap_progress = 0;
    pthread_mutex_unlock(&c->lock);
    for (size_t i = 0; i < n && c->owner; i++)
        q->io.send(q->io.io, c->owner, asg_action_feedback(c->id, c->action, &records[i]));
    free(records);
}

/* Answer and drop the head, whose run has ended (or never started). */
static void finish_head(asg_queue *q)
{
    asg_call *c = q->head;
    const int worker = q->io.worker_id;
    if (c->threaded)
        pthread_join(c->thread, NULL);
    send_feedback(q, c);
    const char *error = c->status == PB_OK ? NULL : c->error;
    const bool cancelled = atomic_load(&c->cancel) && (c->ended_early || !c->started);
    if (!cancelled)
        q->io.publish(q->io.io, RB_TOPIC_WORKER_ANALYZE,
                      asg_analyze_message(worker, c->scenario, &c->result, error));
    if (c->is_action && c->owner)
        q->io.send(q->io.io, c->owner,
                   asg_action_result(worker, c->id, c->action,
                                     cancelled ? 5
                                     : error   ? 6
                                               : 4,
                                     c->scenario, c->have_result ? &c->result : NULL, error));
    q->head = c->next;
    const bool was_started = c->started;
    call_free(c);
    if (was_started)
        q->io.publish(q->io.io, RB_TOPIC_WORKER_VEHICLE, asg_vehicle_status_message(worker, false));
    if (!q->head)
        q->io.publish(q->io.io, RB_TOPIC_WORKER_STATUS, asg_status_message(worker, false));
}

/* Start the head: a thread for a built-in driver, a runner on this thread for an external one. */
static void start_head(asg_queue *q)
{
    asg_call *c = q->head;
    const int worker = q->io.worker_id;
    c->started = true;
    q->io.publish(q->io.io, RB_TOPIC_WORKER_STATUS, asg_status_message(worker, true));
    q->io.publish(q->io.io, RB_TOPIC_WORKER_VEHICLE, asg_vehicle_status_message(worker, true));
    if (c->external) {
        pb_diag diag = {0};
        c->status = pb_scenario_runner_create(&c->runner, c->scenario, &diag);
        if (c->status != PB_OK) {
            pb_diag_format(&diag, c->error, sizeof c->error);
            atomic_store(&c->done, true);
        }
        return;
    }
    c->threaded = true; /* record() wakes the loop from the thread */
    if (pthread_create(&c->thread, NULL, run_and_wake, c) != 0) {
        c->threaded = false;
        run_thread(c); /* no thread: run here rather than never */
    }
}

/* An external run has ended (by a termination reason, or cancelled): its result. */
static void end_external(asg_call *c)
{
    pb_diag diag = {0};
    pb_scenario_runner *u = c->runner;
    c->runner = NULL;
    finish_run(c, u, &diag);
    if (c->status != PB_OK)
        pb_diag_format(&diag, c->error, sizeof c->error);
    atomic_store(&c->done, true);
}

void asg_queue_service(asg_queue *q)
{
    if (!q)
        return;
    while (q->head) {
        asg_call *c = q->head;
        if (!c->started && atomic_load(&c->cancel)) { /* cancelled while it waited */
            finish_head(q);
            continue;
        }
        if (!c->started)
            start_head(q);
        if (c->runner && atomic_load(&c->cancel)) /* an external run ends at once */
            end_external(c);
        send_feedback(q, c);
        if (!atomic_load(&c->done))
            return;
        finish_head(q);
    }
}

/* Publish the external vehicle's odometry and status (the worker's "vehicle"). */
static void publish_vehicle(asg_queue *q, const pb_scenario_progress *p, bool emergency)
{
    char entity[32];
    snprintf(entity, sizeof entity, "asg_worker%d", q->io.worker_id);
    const uint64_t now = pb_sim_time_ns(q->io.sim);
    const pb_vehicle_state *d = &p->state;
    const pb_sim_pose pose = {{d->x, d->y, 0.0}, 0.0, 0.0, sin(d->yaw / 2), cos(d->yaw / 2)};
    q->io.publish(q->io.io, RB_TOPIC_ODOM,
                  rb_odom_of(entity, now, &pose, (pb_sim_vec3){d->v, d->lateral_velocity, 0.0},
                             (pb_sim_vec3){0.0, 0.0, d->angular_velocity}));
    pb_sim_vehicle_status st;
    sim_vehicle_report(d, emergency, &st);
    for (int t = RB_TOPIC_VELOCITY_STATUS; t <= RB_TOPIC_HAZARD_LIGHTS_STATUS; t++)
        q->io.publish(q->io.io, (rb_topic)t, rb_vehicle_status_of((rb_topic)t, entity, now, &st));
}

void asg_queue_on_step(asg_queue *q)
{
    if (!q)
        return;
    asg_call *c = q->head;
    if (!c || !c->external || !c->runner || atomic_load(&c->done))
        return;
    pb_scenario_progress p;
    pb_scenario_runner_progress(c->runner, &p);
    if (c->driven) {
        /* as far in sim time as the world has gone since the first control message */
        const double dt = pb_scenario_time_step(c->scenario);
        const double target = pb_sim_time(q->io.sim) - c->world_start;
        const uint64_t per_report = steps_per_second(c->scenario);
        while (!p.done && (double)(p.steps + 1) * dt <= target + 1e-9 &&
               pb_scenario_runner_step(c->runner, 1)) {
            pb_scenario_runner_progress(c->runner, &p);
            if (p.steps - c->last_reported >= per_report) {
                c->last_reported = p.steps;
                record(c, c->runner);
            }
        }
        pb_scenario_runner_progress(c->runner, &p);
    }
    publish_vehicle(q, &p, c->cmd.emergency);
    if (p.done)
        end_external(c);
    asg_queue_service(q);
}

bool asg_queue_command(asg_queue *q, const pb_sim_vehicle_command *command, pb_sim_result *r)
{
    asg_call *c = q ? q->head : NULL;
    if (!c || !c->external || !c->runner) {
        sim_set_result(
            r, PB_SIM_RESULT_OPERATION_FAILED,
            "worker %d runs no scenario with \"driver\": \"external\" now: its vehicle takes no commands",
            q ? q->io.worker_id : 0);
        return false;
    }
    if (!sim_vehicle_apply(&c->cmd, command, r))
        return false;
    const bool control = command->topic == PB_SIM_VEHICLE_CONTROL;
    if (control && !c->driven) { /* sim time starts at the first control message */
        c->driven = true;
        c->world_start = pb_sim_time(q->io.sim);
    }
    const pb_scenario_command sc = {.input = sim_vehicle_input(&c->cmd),
                                    .has_speed = c->cmd.has_velocity,
                                    .speed = c->cmd.velocity,
                                    .control_message = control};
    if (pb_scenario_runner_command(c->runner, &sc) != PB_OK) {
        sim_set_result(r, PB_SIM_RESULT_OPERATION_FAILED, "the command is not finite");
        return false;
    }
    sim_set_result(r, PB_SIM_RESULT_OK, NULL);
    return true;
}

static bool same_id(const json_t *a, const json_t *b)
{
    return (!a && !b) || (a && b && json_equal((json_t *)a, (json_t *)b));
}

void asg_queue_cancel(asg_queue *q, void *owner, const json_t *id)
{
    if (!q)
        return;
    for (asg_call *c = q->head; c; c = c->next)
        if (c->is_action && c->owner == owner && (!id || same_id(c->id, id)))
            atomic_store(&c->cancel, true);
}

void asg_queue_forget(asg_queue *q, void *owner)
{
    if (!q)
        return;
    for (asg_call *c = q->head; c; c = c->next)
        if (c->owner == owner)
            c->owner = NULL;
}
