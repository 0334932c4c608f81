/* What the core's own files share about an engine handle (private to the library). */
#ifndef PB_CORE_ENGINE_PRIVATE_H
#define PB_CORE_ENGINE_PRIVATE_H

#include "planbench/impl/engine_impl.h"

/** The handle's counters, for wrappers outside engine.c that count their work. */
pb_engine_counters *pb_engine_counters_of(pb_engine *engine);

/** Weights and periods of a lower bound of the engine's distance (pb_engine_config's
 * metric_lower_bound): false when it has none. */
bool pb_engine_metric_bound(const pb_engine *engine, double *weights, double *periods);

/** Memos: what a planner derives from an engine's static data (its map, its vehicle) and
 * later solves on any handle of the same engine reuse, as hybrid A*'s 2-D heuristic grid per
 * goal cell. At most PB_ENGINE_MEMOS per engine (a solve beyond them builds its own), keys
 * of at most PB_ENGINE_MEMO_KEY_MAX bytes; safe from several threads. */
#define PB_ENGINE_MEMOS        16
#define PB_ENGINE_MEMO_KEY_MAX 32

/** The data kept under `tag` (compared by address: a static string of the caller) and the
 * key's bytes, or NULL. It stays valid and unchanged until the engine is destroyed. */
const void *pb_engine_memo_find(const pb_engine *engine, const char *tag, const void *key, size_t key_size);

/** Keep `data` under `tag` and `key`: true when the engine took it (and calls `destroy` on it
 * when destroyed); false when the memos are full or another solve kept the same key first (the
 * caller still owns `data`). */
bool pb_engine_memo_keep(const pb_engine *engine, const char *tag, const void *key, size_t key_size,
                         void *data, void (*destroy)(void *data));

/** How pb_sweep_run() may save work. */
typedef struct pb_sweep_opts {
    const pb_sweep_path *path; /**< the motion's promise (pb_engine_sweep_path()), or NULL: the rate alone */
    bool start_free;           /**< the caller has certified the start pose: it is not checked again */
    /** 0: creep back towards what blocks the motion as near as the checks allow; > 0: only `*t_free`
     * to this grain (in t) matters, so the sweep creeps no finer; 1 or more: only free or not (it
     * stops at the first blocked query) */
    double grain;
    /** the grown checks stop at the clearance floor: a pose that no stretch box certifies and that
     * is closer than the floor is a hit (pb_engine_sweep()'s rule; the creep to 1/256 cell below it
     * costs most of a sweep in contact) */
    bool floor_is_hit;
} pb_sweep_opts;

/** The loop of pb_engine_sweep() on an engine's data: `impl`'s footprint_check and
 * footprint_clearance on `self`, with the engine's clearance `floor` and `resolution` (engine
 * units per map cell), and `opts` (NULL: none). True when the motion is free; `*t_free` and
 * `*hit` as there. For engines that sweep through another engine's data (the car engine
 * through its map). */
bool pb_sweep_run(const pb_engine_impl *impl, const void *self, double floor, double resolution,
                  const pb_footprint *footprint, pb_motion_fn motion, const void *ctx, double rate,
                  const pb_sweep_opts *opts, uint32_t ignore_id, pb_engine_counters *counters, double *t_free,
                  pb_hit *hit);

#endif
