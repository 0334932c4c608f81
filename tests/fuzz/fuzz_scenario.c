/* Fuzz target for scenario files (issue 19): a RunScenario request as JSON, read with the
 * bundled catalogue and vehicle beside it (worlds/). Any input is refused with a message or
 * gives a scenario whose actors all come from the catalogue with positive sizes, whose
 * visible actors are at most its instances, and whose start, goal and radius are finite;
 * never a crash, a leak or an assertion. */
#include "planbench/scenario.h"
#include "scenario/scenario_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pb_scenario *s = NULL;
    pb_diag diag;
    memset(&diag, 0, sizeof diag);
    if (pb_scenario_parse(&s, (const char *)data, size, "fuzz.json", PB_FUZZ_SOURCE_ROOT "/worlds", &diag) !=
        PB_OK) {
        if (s || !diag.message[0])
            abort();
        return 0;
    }
    if (s->n_actors > s->n_layout_instances || !isfinite(s->start[0]) || !isfinite(s->start[1]) ||
        !isfinite(s->start[2]) || !isfinite(s->goal[0]) || !isfinite(s->goal[1]) || !(s->goal_radius >= 0) ||
        !s->driver)
        abort();
    for (size_t i = 0; i < s->n_actors; i++) {
        const scene_actor *a = &s->actors[i];
        if (a->kind < s->kinds || a->kind >= s->kinds + s->n_kinds || !(a->scale > 0))
            abort();
        if (a->footprint.type == PB_FOOTPRINT_DISC ? !(a->footprint.radius > 0)
                                                   : !(a->footprint.half_length > 0))
            abort();
    }
    pb_scenario_destroy(s);
    return 0;
}
