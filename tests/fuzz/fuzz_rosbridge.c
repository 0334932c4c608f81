/* Fuzz target: the rosbridge codec (JSON decoding, schema checks, every service) through
 * pb_sim_handle_message(), the entry point that takes one raw WebSocket text message. The
 * WebSocket framing itself is libwebsockets'. One simulation lives across inputs and is reset
 * after each so state cannot grow without bound. */
#include "planbench/sim.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pb_sim *sim;

static void load_world(void)
{
    pb_sim_result r;
    pb_sim_world_info w;
    pb_sim_load_world(sim, PB_FUZZ_SOURCE_ROOT "/worlds/sim_room1.xml", NULL, false, &r, &w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sim) {
        pb_sim_config c = pb_sim_config_default();
        c.worlds_dir = PB_FUZZ_SOURCE_ROOT "/worlds";
        c.robots_dir = PB_FUZZ_SOURCE_ROOT "/robots";
        if (pb_sim_create(&sim, &c, NULL) != PB_OK)
            abort();
        load_world();
    }
    char *reply = NULL;
    pb_sim_handle_message(sim, (const char *)data, size, &reply);
    free(reply);
    pb_sim_result r;
    if (pb_sim_state(sim) == PB_SIM_STATE_NO_WORLD || pb_sim_state(sim) == PB_SIM_STATE_QUITTING)
        load_world();
    else
        pb_sim_reset_simulation(sim, PB_SIM_SCOPE_ALL, &r);
    pb_sim_drain_events(sim, NULL, NULL);
    return 0;
}
