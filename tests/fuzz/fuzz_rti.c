/* Fuzz target: operations on the RTI entity channel /rti/entities (src/sim/rti.c, issue 20):
 * any bytes, read as JSON, either apply (request_update, transfer, assume, release) or fail with
 * a one-line message and change no owner; every message the channels publish parses as JSON. The world's
 * entity crate_1 and a spawned one, owned by client1, are tracked; client1 and client2 exist. The first input
 * byte picks the client. */
#include "sim/rti.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pb_sim *sim;
static rti *channels;
static size_t published;

static void publish(void *io, rb_topic topic, const char *entity, const char *to, char *text)
{
    (void)io, (void)topic, (void)entity, (void)to;
    json_t *parsed = text ? json_loads(text, 0, NULL) : NULL;
    if (!json_is_object(parsed))
        abort(); /* every message is a JSON object */
    json_decref(parsed);
    published++;
    free(text);
}

static bool client_exists(void *io, const char *client)
{
    (void)io;
    return strcmp(client, "client1") == 0 || strcmp(client, "client2") == 0;
}

static void setup(void)
{
    pb_sim_config c = pb_sim_config_default();
    c.worlds_dir = PB_FUZZ_SOURCE_ROOT "/worlds";
    c.robots_dir = PB_FUZZ_SOURCE_ROOT "/robots";
    if (pb_sim_create(&sim, &c, NULL) != PB_OK)
        abort();
    pb_sim_result r;
    pb_sim_world_info w;
    pb_sim_load_world(sim, PB_FUZZ_SOURCE_ROOT "/worlds/sim_room1.xml", NULL, false, &r, &w);
    pb_sim_drain_events(sim, NULL, NULL);
    const rti_io io = {.sim = sim, .publish = publish, .client_exists = client_exists};
    const rti_config config = rti_config_default();
    channels = rti_create(&io, &config);
    if (!channels)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sim)
        setup();
    rti_on_event(channels, PB_SIM_EVENT_CREATED, "crate_1", NULL);
    rti_on_event(channels, PB_SIM_EVENT_CREATED, "rover", "client1");
    const char *client = size > 0 && (data[0] & 1) ? "client2" : "client1";
    json_error_t error;
    json_t *msg = size > 0 ? json_loadb((const char *)data + 1, size - 1, JSON_DECODE_ANY, &error) : NULL;
    char err[512] = "";
    char why[256];
    const bool before = rti_may_command(channels, "rover", "client2", why, sizeof why);
    if (!rti_operation(channels, client, msg, err, sizeof err)) {
        if (err[0] == '\0' || strchr(err, '\n') ||
            rti_may_command(channels, "rover", "client2", why, sizeof why) != before)
            abort(); /* a refusal says why, on one line, and changes no owner */
    }
    json_decref(msg);
    rti_on_step(channels);
    rti_on_event(channels, PB_SIM_EVENT_DELETED, "rover", NULL);
    rti_on_event(channels, PB_SIM_EVENT_DELETED, "crate_1", NULL);
    rti_client_gone(channels, "client2");
    return 0;
}
