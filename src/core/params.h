/* Shared parameter-table entries (private to the library): tree planners declare the common
 * parameters with the same names, ranges and documentation. `type` must be the planner's
 * parameter struct, with fields of the same names. */
#ifndef PB_CORE_PARAMS_H
#define PB_CORE_PARAMS_H

#include "planbench/planner.h"

#include <float.h>
#include <stddef.h>

#define PB_PARAM_STEP_SIZE(type)                                                                             \
    {                                                                                                        \
        "step_size", PB_PARAM_DOUBLE, offsetof(type, step_size), 0.0, 0.0, DBL_MAX,                          \
            "largest edge added in one extension, metric units; 0 = the engine's default step"               \
    }
#define PB_PARAM_GOAL_BIAS(type, def)                                                                        \
    {                                                                                                        \
        "goal_bias", PB_PARAM_DOUBLE, offsetof(type, goal_bias), 0.0, (def), 1.0,                            \
            "probability of sampling the goal instead of a uniform sample"                                   \
    }

#endif
