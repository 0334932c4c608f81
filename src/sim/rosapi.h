/* rosapi introspection (rosapi.c, private to src/sim): what introspection tools (roslibjs'
 * helpers, Foxglove's rosbridge connection) ask the /rosapi services. */
#ifndef PB_SIM_ROSAPI_H
#define PB_SIM_ROSAPI_H

#include "planbench/sim.h"
#include "schema.h"

#include <jansson.h>

/** A service as rosapi describes it. */
typedef struct rosapi_service {
    const char *name; /* without the leading '/' */
    const char *type; /* "simulation_interfaces/srv/SpawnEntity" */
    const field *request;
    const field *response;
} rosapi_service;

/** The values of the rosapi service `name` ("rosapi/topics", ...) with `args` (may be NULL),
 * given the server's services and its scenario worker's id (-1: none); NULL when there is no
 * such rosapi service. */
json_t *rosapi_call(pb_sim *sim, const char *name, const json_t *args, const rosapi_service *services,
                    size_t n_services, int worker_id);

#endif
