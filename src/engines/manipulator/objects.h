/* Between manipulator.c and objects.c (private to the manipulator engine): the engine keeps
 * its obstacles in flat arrays, the world's static obstacles first; objects.c owns the
 * dynamic objects (pb_manipulator_object_add() and friends) and, after every change, has the
 * engine append them to those arrays, so every query treats an object exactly as a static
 * obstacle at its pose. */
#ifndef PB_ENGINES_MANIPULATOR_OBJECTS_H
#define PB_ENGINES_MANIPULATOR_OBJECTS_H

#include "engines/manipulator/fcl_shim.h"
#include "engines/manipulator/manipulator.h"

typedef struct manipulator manipulator;
/** The objects of one engine (objects.c). */
typedef struct manipulator_objects manipulator_objects;

/** Free an engine's objects; NULL is accepted. Called by the engine's destroy. */
void manipulator_objects_destroy(manipulator_objects *objects);

/** The engine behind `engine`, NULL when it is not a manipulator. */
manipulator *manipulator_of(const pb_engine *engine);
/** Where the engine keeps its objects (NULL until the first is added). */
manipulator_objects **manipulator_objects_slot(manipulator *m);
/** Replace the obstacles after the world's static ones by `n` objects: geometry, shape (for
 * the cheap bounds), world pose and name each. Geometries and names are borrowed until the
 * next call or the engine's destruction. PB_ERR_NOMEM leaves the engine with its static
 * obstacles only. */
pb_status manipulator_set_dynamic(manipulator *m, const pbf_geometry *const *geometries,
                                  const pb_shape *shapes, const pb_pose *poses, const char *const *names,
                                  size_t n);
/** `skip` for manipulator_geometry_hits(): the robot's links only, no obstacle. */
#define MANIPULATOR_LINKS_ONLY (SIZE_MAX - 1)
/** Does `geometry` at `pose` touch a static obstacle, an object (but the one at obstacle
 * index `skip`, SIZE_MAX for none) or a link shape of the robot at `robot_q` (NULL: no robot)?
 * Exact FCL checks. True with "obstacle 'a'", "object 'b'" or "link 'c'" in `what`. */
bool manipulator_geometry_hits(const manipulator *m, const pbf_geometry *geometry, const pb_pose *pose,
                               size_t skip, const double *robot_q, char *what, size_t size);
/** The FCL geometry of a box, cylinder or sphere (sizes as in pb_shape); NULL for another
 * type or when out of memory. Static obstacles, link shapes and objects all come from here. */
pbf_geometry *manipulator_primitive_geometry(const pb_shape *shape);
/** Number of the world's static obstacles (objects follow them in the obstacle arrays). */
size_t manipulator_static_count(const manipulator *m);

#endif
