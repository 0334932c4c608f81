/* planbench: a path tracker for a vehicle (vehicle.h): pure pursuit on the steer angle and a
 * speed profile on the acceleration, forward and in reverse, stopping at every cusp to change
 * gear. It drives the vehicle model by its inputs, never by moving the pose: what it makes is
 * what the model and its checks allow. Used by scenario drivers and by the simulation's
 * /follow_path for vehicles.
 *
 * The path is a polyline of poses (x, y, yaw), each marked forward or reverse, dense enough to
 * stand for the curve (pb_tracker_create_from_path() samples steering curves every 10 cm). It
 * is cut into stretches of one direction; each is tracked to its end, where the vehicle stops
 * and the next begins. Pure pursuit: the look-ahead point lies `lookahead_min + lookahead_time
 * * |v|` ahead along the stretch from the pose nearest the rear axle (searched forward from the
 * last, so a path that crosses itself is followed in order), and the steer angle is
 * atan(2 L sin(alpha) / Ld) towards it (alpha measured from the direction of travel; in reverse
 * the sign flips, as the model turns the other way). Speed: the cruise speed, capped so the
 * vehicle can stop at the stretch's end at `comfort_deceleration` and take the sharpest bend
 * within its braking distance at `lateral_acceleration`, reached by a proportional
 * acceleration command. */
#ifndef PLANBENCH_TRACKER_H
#define PLANBENCH_TRACKER_H

#include "base.h"
#include "engine.h"
#include "path.h"
#include "vehicle.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Tuning. Start from pb_tracker_params_default(). */
typedef struct pb_tracker_params {
    double cruise_speed;         /**< m/s, > 0 (default 5, BACRE's nominal speed) */
    double reverse_speed;        /**< m/s, > 0 (default 2) */
    double lookahead_min;        /**< m (default 1.5) */
    double lookahead_time;       /**< s: the look-ahead grows by |v| times this (default 0.3) */
    double comfort_deceleration; /**< m/s^2 for the speed profile (default 2) */
    double lateral_acceleration; /**< m/s^2: bends ahead cap the speed at sqrt(this * radius) (default 2) */
    double speed_gain;           /**< 1/s: acceleration per m/s of speed error (default 2) */
    double stop_tolerance;       /**< m: a stretch's end counts as reached this close (default 0.1) */
} pb_tracker_params;

PB_API pb_tracker_params pb_tracker_params_default(void);

/** A tracker. Opaque; one per vehicle and path. */
typedef struct pb_tracker pb_tracker;

/** A tracker for `n` poses (`poses`: 3n values x, y, yaw) with `reverse[i]` saying whether
 * the motion from pose i to i + 1 is driven in reverse (NULL: all forward). Copies what it
 * needs. PB_ERR_INVALID for fewer than 2 poses, non-finite values or bad parameters. */
PB_API pb_status pb_tracker_create(pb_tracker **out, const pb_vehicle_config *vehicle,
                                   const pb_tracker_params *params, const double *poses, const bool *reverse,
                                   size_t n, pb_diag *diag);

/** The same for a planner's path on `engine`: a car engine's edges are its steering curves
 * (pb_engine_curve()), sampled every 10 cm with their directions; other engines' edges are
 * straight and driven forward, headings along them. */
PB_API pb_status pb_tracker_create_from_path(pb_tracker **out, const pb_vehicle_config *vehicle,
                                             const pb_tracker_params *params, const pb_engine *engine,
                                             const pb_path *path, pb_diag *diag);

PB_API void pb_tracker_destroy(pb_tracker *tracker);

/** The inputs for the next step from `state`: `*input` (gear, acceleration, steer) and, when
 * `target_speed` is not NULL, the speed it aims at (signed, m/s: the "commanded velocity").
 * True while the path is being followed; false once the vehicle has stopped at the path's end
 * (the input then holds it: PARKING). */
PB_API bool pb_tracker_command(pb_tracker *tracker, const pb_vehicle_state *state, pb_vehicle_input *input,
                               double *target_speed);

/** Write the tracker's path (every sampled pose) as CSV rows `x,y,yaw,reverse` after a header
 * line, atomically: what pb_tracker_load_csv() reads back, so a plan is made once and driven
 * many times (a scenario's `path` driver). */
PB_API pb_status pb_tracker_save_csv(const pb_tracker *tracker, const char *path, pb_diag *diag);

/** A tracker for the poses of a CSV written by pb_tracker_save_csv() (`reverse` 0 or 1; a
 * missing fourth column is forward). PB_ERR_IO or PB_ERR_INVALID naming the line. */
PB_API pb_status pb_tracker_load_csv(pb_tracker **out, const pb_vehicle_config *vehicle,
                                     const pb_tracker_params *params, const char *path, pb_diag *diag);

/** The index of the path's sampled pose nearest the vehicle (it never decreases): progress. */
PB_API size_t pb_tracker_progress(const pb_tracker *tracker);

/** How far the rear axle is from the path (the nearest sampled pose of the stretch being
 * tracked), metres. */
PB_API double pb_tracker_cross_track_error(const pb_tracker *tracker, const pb_vehicle_state *state);

#ifdef __cplusplus
}
#endif
#endif
