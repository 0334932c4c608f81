/* A uniform grid over the plane that finds the boxes near a query box (grid2d.c): the image
 * engine's index of its dynamic obstacles, so a check against 10,000 entities reads the few
 * near it. Boxes are in grid units (pixels); a box larger than 64 cells sits in a list every
 * query reads. Each cell keeps its slots' boxes, so a query reads no slot it does not meet. Slots are the
 * caller's numbers (below 2^32 - 1). Not thread-safe for writes; queries are read-only. */
#ifndef PB_CHECKERS_GRID2D_H
#define PB_CHECKERS_GRID2D_H

#include <stdbool.h>
#include <stdint.h>

typedef struct pb_grid2d pb_grid2d;

/** A grid over [0, width] x [0, height] (boxes outside are clamped onto its border cells).
 * NULL without memory. */
pb_grid2d *pb_grid2d_create(double width, double height);
void pb_grid2d_destroy(pb_grid2d *g);

/** Put `slot`'s box [lo, hi] in (moving it when it is in already). False without memory (the
 * slot is then in no cell: the caller must not rely on the grid). */
bool pb_grid2d_set(pb_grid2d *g, uint32_t slot, const double lo[2], const double hi[2]);
/** Take `slot` out (nothing when it is not in). */
void pb_grid2d_remove(pb_grid2d *g, uint32_t slot);

/** Call `fn` for every slot whose box meets [lo, hi] (touching counts; boxes are kept in
 * floats rounded outwards, so one a rounding error away may be called too, and a slot in
 * several cells more than once); stop when it returns false. False when stopped. */
bool pb_grid2d_query(const pb_grid2d *g, const double lo[2], const double hi[2],
                     bool (*fn)(void *ctx, uint32_t slot), void *ctx);

#endif
