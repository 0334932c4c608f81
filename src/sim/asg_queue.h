/* The scenario worker's queue (asg_queue.c, private to src/sim): RunScenario requests run one
 * at a time in the order they came. A built-in driver's scenario runs on a thread of its own;
 * an external one (`"driver": "external"`) runs in the simulation's loop, a step of the world
 * advancing it as far in sim time, its vehicle driven by Autoware's command topics under
 * /asg_worker<N>/. Requests from the run_scenario_action action get feedback (sim time,
 * distance to goal) once per second of sim time and their AnalyzeScenario as the result. */
#ifndef PB_SIM_ASG_QUEUE_H
#define PB_SIM_ASG_QUEUE_H

#include "planbench/scenario.h"
#include "sim_internal.h"
#include "topics.h"

#include <jansson.h>

/** What the queue needs of the transport. */
typedef struct asg_queue_io {
    int worker_id;
    pb_sim *sim;
    /** Publish `text` (taken) to the subscribers of the worker's topic `topic` (entity
     * "asg_worker<N>"). */
    void (*publish)(void *io, rb_topic topic, char *text);
    /** Send `text` (taken) to the connection `owner` of an action goal. */
    void (*send)(void *io, void *owner, char *text);
    /** Wake the loop (called from a scenario's thread). */
    void (*wake)(void *io);
    void *io;
} asg_queue_io;

typedef struct asg_queue asg_queue;

asg_queue *asg_queue_create(const asg_queue_io *io);
/** Stop: the running scenario is cancelled and its thread joined; nobody is answered. Every
 * function below takes a NULL queue (a server shutting down) and does nothing. */
void asg_queue_destroy(asg_queue *q);

/** Queue `scenario` (taken). An action goal names its connection `owner`, its `id` and
 * `action` (borrowed JSON values, kept) and whether it wants `feedback`; the service passes
 * NULLs. `request` (taken, may be NULL) is its JSON, kept for NotifyReady's reruns. */
void asg_queue_add(asg_queue *q, pb_scenario *scenario, char *request, void *owner, json_t *id,
                   json_t *action, bool feedback);
/** The last request's JSON, or NULL. */
const char *asg_queue_last_request(const asg_queue *q);

/** Deliver what the running scenario has made (feedback, its end), start the next. */
void asg_queue_service(asg_queue *q);
/** After every step of the world: the external scenario advances as far in sim time, and
 * its vehicle's odometry and status are published. */
void asg_queue_on_step(asg_queue *q);

/** A command on one of the worker's Autoware topics, for the external scenario's vehicle:
 * false with `r` naming why when there is none running or the command is bad. */
bool asg_queue_command(asg_queue *q, const pb_sim_vehicle_command *command, pb_sim_result *r);

/** Cancel `owner`'s goal `id` of the run_scenario_action (all its goals when `id` is NULL). */
void asg_queue_cancel(asg_queue *q, void *owner, const json_t *id);
/** `owner` closed: its goals get no answer (their scenarios still run and publish). */
void asg_queue_forget(asg_queue *q, void *owner);

/** Is a scenario queued or running? */
bool asg_queue_busy(const asg_queue *q);

#endif
