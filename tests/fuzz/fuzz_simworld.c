/* Fuzz target for the simulation's world and robot readers (<simworld>, <simrobot>, read with
 * libxml2 through the project's one XML reader): any input either loads into a world whose
 * strings are set, or fails with a non-empty message; never a crash, a leak, a read of a file
 * outside the source tree's worlds and robots, or an assertion. */
#include "sim/sim_internal.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_world world;
    char message[PB_SIM_MESSAGE_SIZE] = "";
    const sim_load_error err = sim_world_load(&world, NULL, (const char *)data, size, PB_FUZZ_SOURCE_ROOT "/worlds",
                                              PB_FUZZ_SOURCE_ROOT "/robots", false, message, sizeof message);
    if (err == SIM_LOAD_OK) {
        if (!world.name || !world.uri || (!world.map_path && !world.scene_path))
            abort();
        for (size_t i = 0; i < world.n_robots; i++)
            if (!world.robots[i].name)
                abort();
        sim_world_finish(&world);
    } else if (message[0] == '\0') {
        abort();
    }
    return 0;
}
