/* The public wrapper of inverse kinematics (engine.h: pb_engine_inverse_kinematics()): the
 * checks every engine would otherwise repeat (the target is a finite rigid transform, the
 * config is in its ranges), then the engine's optional `inverse_kinematics` entry. */
#include "planbench/impl/engine_impl.h"

#include <math.h>

/* How far R R^T may be from the identity, and det R from 1, for `r` to count as a rotation: a
 * rotation read from a quaternion or a file is exact to about 1e-15; 1e-6 accepts one
 * rounded to six digits. */
#define ROTATION_SLACK 1e-6

/* Bounds that keep a mistaken config from running for hours. */
#define MAX_RESTARTS   1000000
#define MAX_ITERATIONS 1000000

pb_ik_config pb_ik_config_default(void)
{
    return (pb_ik_config){.position_tolerance = 1e-4,
                          .orientation_tolerance = 1e-3,
                          .restarts = 100,
                          .max_iterations = 200,
                          .max_solutions = 4,
                          .min_separation = 0.1,
                          .seed = 1,
                          .reference = NULL};
}

static bool is_rotation(const double *r)
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            const double dot =
                r[3 * i] * r[3 * j] + r[3 * i + 1] * r[3 * j + 1] + r[3 * i + 2] * r[3 * j + 2];
            if (!(fabs(dot - (i == j ? 1.0 : 0.0)) <= ROTATION_SLACK))
                return false;
        }
    const double det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) +
                       r[2] * (r[3] * r[7] - r[4] * r[6]);
    return fabs(det - 1.0) <= ROTATION_SLACK;
}

static bool positive(double v)
{
    return v > 0.0 && isfinite(v);
}

pb_status pb_engine_inverse_kinematics(double *solutions, size_t *n_solutions, const pb_engine *engine,
                                       const char *frame, const pb_pose *target, const pb_ik_config *config,
                                       pb_diag *diag)
{
    const pb_engine_impl *impl = pb_engine_get_impl(engine);
    *n_solutions = 0;
    if (!impl->inverse_kinematics) {
        pb_diag_set(diag, NULL, 0, 0, "the engine '%s' has no inverse kinematics (the manipulator has)",
                    pb_engine_name(engine));
        return PB_ERR_UNSUPPORTED;
    }
    if (!pb_pose_is_finite(target) || !is_rotation(target->r)) {
        pb_diag_set(diag, NULL, 0, 0,
                    "the target pose must be finite with a rotation matrix (orthonormal, det 1)");
        return PB_ERR_INVALID;
    }
    if (!positive(config->position_tolerance) || !positive(config->orientation_tolerance)) {
        pb_diag_set(diag, NULL, 0, 0, "the position and orientation tolerances must be > 0 and finite");
        return PB_ERR_INVALID;
    }
    if (config->restarts < 0 || config->restarts > MAX_RESTARTS || config->max_iterations < 1 ||
        config->max_iterations > MAX_ITERATIONS) {
        pb_diag_set(diag, NULL, 0, 0, "restarts must be in [0, %d] and max_iterations in [1, %d]",
                    MAX_RESTARTS, MAX_ITERATIONS);
        return PB_ERR_INVALID;
    }
    if (config->max_solutions < 1 || !(config->min_separation >= 0.0) || !isfinite(config->min_separation)) {
        pb_diag_set(diag, NULL, 0, 0, "max_solutions must be >= 1 and min_separation >= 0 and finite");
        return PB_ERR_INVALID;
    }
    if (config->reference) {
        for (int i = 0; i < pb_engine_dim(engine); i++)
            if (!isfinite(config->reference[i])) {
                pb_diag_set(diag, NULL, 0, 0,
                            "the reference configuration must be finite (coordinate %d is not)", i);
                return PB_ERR_INVALID;
            }
    }
    return impl->inverse_kinematics(pb_engine_self(engine), solutions, n_solutions, frame ? frame : "",
                                    target, config, diag);
}
