/* The auto_scene_gen worker over rosbridge (asg_worker.c, private to src/sim). */
#ifndef PB_SIM_ASG_WORKER_H
#define PB_SIM_ASG_WORKER_H

#include "planbench/scenario.h"
#include "sim_internal.h"

#include <jansson.h>

/** Is `name` one of worker `worker`'s services ("/asg_worker0/services/...")? */
bool asg_is_worker_service(const char *name, int worker);

/** What the worker's services need of the transport. */
typedef struct asg_hooks {
    int worker_id;
    /** Run `scenario` (owned from now on); `request` its JSON (owned), kept for reruns. An
     * action goal passes its `id`, `action` (borrowed) and whether it wants `feedback`; a
     * service call NULLs. */
    void (*start)(void *payload, pb_scenario *scenario, char *request, json_t *id, json_t *action,
                  bool feedback);
    /** Run the last scenario again: false when there was none. */
    bool (*rerun)(void *payload);
    void *payload;
} asg_hooks;

/** Answer a call of service `name` (asg_is_worker_service()) with `args`: RunScenario
 * (`hooks->start`), RegisterVehicleNode, NotifyReady (a rerun of the last scenario through
 * `hooks->rerun`) and WorkerIssueNotification. The response's values (owned), or NULL with
 * one sentence in `err`. */
json_t *asg_handle_call(pb_sim *sim, const char *name, const json_t *args, const asg_hooks *hooks, char *err,
                        size_t size);

/** Is `name` worker `worker`'s action ("/asg_worker0/run_scenario_action")? */
bool asg_is_worker_action(const char *name, int worker);

/** A goal of the run_scenario_action action (its fields a RunScenario request): started
 * through `hooks->start`, or false with one sentence in `err`. */
bool asg_handle_goal(pb_sim *sim, const json_t *args, json_t *id, json_t *action, bool feedback,
                     const asg_hooks *hooks, char *err, size_t size);

/** A RunScenario request's arguments as a scenario (its files resolved against the worlds
 * folder; refused outside it on a confined server), or NULL with one sentence in `err`. */
pb_scenario *asg_parse_request(const pb_sim *sim, const json_t *args, char *err, size_t size);

/** The rosbridge publish of a finished scenario's AnalyzeScenario request on
 * /asg_worker<worker>/analyze_scenario, or of `error` when it could not start (`result`
 * unused then). Owned by the caller. */
char *asg_analyze_message(int worker, const pb_scenario *scenario, const pb_scenario_result *result,
                          const char *error);

/** The run_scenario_action's feedback (sim time, distance to goal, steps) and its result:
 * `status` an action_msgs/GoalStatus (4 succeeded: the run ended by a termination reason;
 * 5 canceled: the values the run so far; 6 aborted: it could not start, the values `error`),
 * the values the AnalyzeScenario request. Owned by the caller. */
char *asg_action_feedback(const json_t *id, const json_t *action, const pb_scenario_progress *progress);
char *asg_action_result(int worker, const json_t *id, const json_t *action, int status,
                        const pb_scenario *scenario, const pb_scenario_result *result, const char *error);

/** The publish of the worker's StatusCode on /asg_worker<worker>/status: ONLINE_AND_RUNNING (2)
 * or ONLINE_AND_READY (1). Owned by the caller. */
char *asg_status_message(int worker, bool running);

/** The publish of the scenario vehicle's VehicleStatus on /asg_worker<worker>/vehicle_status:
 * enabled while a scenario runs (never preempted: a run ends by its termination rules). */
char *asg_vehicle_status_message(int worker, bool enabled);

#endif
