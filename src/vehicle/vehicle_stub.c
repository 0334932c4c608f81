/* pb_vehicle_load() in a build without libxml2. */
#include "planbench/vehicle.h"

pb_status pb_vehicle_load(pb_vehicle_config *out, const char *path, pb_diag *diag)
{
    *out = pb_vehicle_config_default();
    pb_diag_set(diag, path, 0, 0,
                "this build reads no vehicle files (it needs libxml2: tools/install-deps.sh)");
    return PB_ERR_UNSUPPORTED;
}

pb_status pb_vehicle_parse(pb_vehicle_config *out, const char *data, size_t size, const char *path,
                           pb_diag *diag)
{
    (void)data;
    (void)size;
    return pb_vehicle_load(out, path, diag);
}
