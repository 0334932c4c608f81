/* The rosbridge v2 codec (src/sim only): JSON text in, JSON text out, with the parts that
 * need a connection (action goals, subscriptions) delegated to a session. */
#ifndef PB_SIM_ROSBRIDGE_H
#define PB_SIM_ROSBRIDGE_H

#include "planbench/sim.h"
#include "topics.h"
#include "planbench/scenario.h"

#include <jansson.h>

/** What a connection offers the codec. Any callback may be NULL (no connection: actions run
 * to completion at once, subscriptions are refused). */
typedef struct rb_session {
    /** A validated SimulateSteps goal. `id` and `action` are borrowed JSON values to echo. */
    void (*start_goal)(void *payload, json_t *id, json_t *action, uint64_t steps, bool feedback);
    /** Cancel one goal by its id, or all goals when `id` is NULL. */
    /** A FollowPath goal, checked against its schema only (the sim checks the rest when the
     * goal starts); `request`, its strings and `joints` (`n_joints` per waypoint) are
     * borrowed for the call. */
    void (*start_follow)(void *payload, json_t *id, json_t *action, const pb_sim_follow_request *request,
                         const double *joints, size_t n_joints, bool feedback);
    /** Cancel this connection's goal `id`, or all its goals when `id` is NULL; only goals of
     * action `action` (bare name, e.g. "follow_path") unless it is NULL. */
    void (*cancel_goal)(void *payload, json_t *id, const char *action);
    /** A subscription to `topic` (`entity`: the entity of a per-entity topic, else ""), with
     * rosbridge's throttle_rate (ms) and queue_length. */
    void (*subscribe)(void *payload, rb_topic topic, const char *entity, bool on, int throttle_ms,
                      int queue_length);
    /** A PlanPath request that pb_sim_plan_begin() accepted: the session owns `job` from now
     * on, runs it (off the server thread) and replies with rb_plan_reply(). `id` and
     * `service` are borrowed JSON values to echo. NULL: plans run at once on this thread. */
    void (*start_plan)(void *payload, json_t *id, json_t *service, pb_sim_plan_job *job);
    void *payload;
    /** A RunScenario request (the service's, or an action goal's: `id` and `action` then, else
     * NULL) for the scenario worker (asg_queue.h): the session owns `scenario` from now on.
     * NULL: no worker. */
    void (*start_scenario)(void *payload, pb_scenario *scenario, char *request, json_t *id, json_t *action,
                           bool feedback);
    /** A command on one of the worker's Autoware topics (/asg_worker<N>/control/command/...),
     * for the vehicle of the external scenario running: false with `r` naming why not. */
    bool (*command_scenario)(void *payload, const pb_sim_vehicle_command *command, pb_sim_result *r);
    /** Run the last scenario again (NotifyReady's request_rerun): false when there was none. */
    bool (*rerun_scenario)(void *payload);
    int worker_id; /**< the worker's services and topics live under /asg_worker<worker_id>/ */
    /* The RTI entity model (rti.h); each may be NULL (no ownership: everything allowed). */
    /** Entity `entity` was spawned by this session's client (it owns it). */
    void (*spawned)(void *payload, const char *entity);
    /** May this session's client command `entity`? False with `why` naming its owner. */
    bool (*may_command)(void *payload, const char *entity, char *why, size_t size);
    /** An operation published on /rti/entities: false with `err` naming what was wrong. */
    bool (*rti_operation)(void *payload, const json_t *msg, char *err, size_t size);
    /** A position published on /rti/position (by an entity's owner): false with `err`. */
    bool (*rti_position)(void *payload, const json_t *msg, char *err, size_t size);
    /** This session's client id (/rti/get_client_id). */
    const char *(*client_id)(void *payload);
} rb_session;

/** Handle one text message; `*reply` gets a JSON text (malloc'd) or NULL. */
void rb_handle(pb_sim *sim, const char *data, size_t size, const rb_session *session, char **reply);

/** rosbridge's failed service_response (`result` false, `values` the message). Owned by the caller. */
char *rb_service_failure(const json_t *id, const char *service, const char *message);

/** Messages the transport sends on its own; each returns a malloc'd JSON text or NULL. */
char *rb_action_feedback(json_t *id, json_t *action, uint64_t completed, uint64_t remaining);
/** `status` is an action_msgs/GoalStatus value (4 succeeded, 5 canceled, 6 aborted). */
char *rb_action_result(json_t *id, json_t *action, int status, const pb_sim_result *result);
/** FollowPath feedback (after every step) and result (`last`, the last feedback, NULL when the
 * goal never started). */
char *rb_follow_feedback(json_t *id, json_t *action, uint64_t completed, const pb_sim_follow_feedback *fb);
char *rb_follow_result(json_t *id, json_t *action, int status, const pb_sim_result *result,
                       uint64_t completed, const pb_sim_follow_feedback *last);
/** The service_response to a PlanPath call answered later (see rb_session.start_plan). */
char *rb_plan_reply(json_t *id, json_t *service, const pb_sim_plan_response *response);
char *rb_entity_event(pb_sim_event_kind kind, const char *entity);
char *rb_entity_states(pb_sim *sim);

#endif
