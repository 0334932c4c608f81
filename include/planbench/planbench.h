/* planbench: sampling-based motion planning. Include this to get the whole public API. */
#ifndef PLANBENCH_H
#define PLANBENCH_H

#include "base.h"
#include "engine.h"
#include "path.h"
#include "planner.h"
#include "image.h"
#include "blackbox.h"
#include "bench.h"
#include "steering.h"

#endif
