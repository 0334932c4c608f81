/* What the core's own files share about an engine handle (private to the library). */
#ifndef PB_CORE_ENGINE_PRIVATE_H
#define PB_CORE_ENGINE_PRIVATE_H

#include "planbench/engine.h"

/** The handle's counters, for wrappers outside engine.c that count their work. */
pb_engine_counters *pb_engine_counters_of(pb_engine *engine);

#endif
