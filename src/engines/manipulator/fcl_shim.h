/* A C interface to FCL (the Flexible Collision Library, C++), private to the manipulator
 * engine. This shim is the only C++ in planbench: every entry point catches every
 * exception. A query that fails inside FCL answers "in collision" (the safe side for a
 * planner); a constructor that fails returns NULL.
 *
 * A pose is a rotation `r` (row-major 3x3) and a translation `t` (metres): a point p of
 * the geometry is at r p + t in the world. */
#ifndef PB_ENGINES_MANIPULATOR_FCL_SHIM_H
#define PB_ENGINES_MANIPULATOR_FCL_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Is FCL there? Where the shim is a module loaded on first use (fcl_loader.c) this loads it;
 * false, with `*reason` saying why, when it cannot be loaded. Call it before the first
 * geometry is made: the functions below need it. */
bool pbf_available(const char **reason);

/** One collision geometry (a primitive, or a triangle mesh with an OBBRSS bounding-volume
 * hierarchy). Immutable once made: any number of threads may query it. */
typedef struct pbf_geometry pbf_geometry;

/** A box of full side lengths sx, sy, sz (metres), centred on its frame. */
pbf_geometry *pbf_box_create(double sx, double sy, double sz);
/** A cylinder of `radius` and `length` along its local z axis, centred on its frame. */
pbf_geometry *pbf_cylinder_create(double radius, double length);
/** A sphere of `radius` centred on its frame. */
pbf_geometry *pbf_sphere_create(double radius);
/** A triangle mesh: `vertices` holds 3 * n_vertices coordinates (metres), `triangles` 3 *
 * n_triangles indices below n_vertices. Both are copied. */
pbf_geometry *pbf_mesh_create(const double *vertices, size_t n_vertices, const uint32_t *triangles,
                              size_t n_triangles);
/** The convex hull of `n_vertices` points (3 coordinates each, copied), as FCL's Convex
 * searched vertex by vertex (no face walk), so that GJK works on the exact hull whatever
 * the points: the distance to it is a lower bound on the distance to any mesh with these
 * vertices, and a fast one. For distance queries only. */
pbf_geometry *pbf_convex_create(const double *vertices, size_t n_vertices);
/** Free a geometry; NULL is accepted. Environments that hold it keep their own reference. */
void pbf_geometry_destroy(pbf_geometry *geometry);
/** The geometry's axis-aligned bounding box in its own frame. */
void pbf_geometry_local_aabb(const pbf_geometry *geometry, double lower[3], double upper[3]);

/** Do `a` at (ra, ta) and `b` at (rb, tb) overlap (touching counts)? Thread-safe. */
bool pbf_collide(const pbf_geometry *a, const double *ra, const double *ta, const pbf_geometry *b,
                 const double *rb, const double *tb);
/** Distance between the two (0 when they overlap); negative when FCL fails. */
double pbf_distance(const pbf_geometry *a, const double *ra, const double *ta, const pbf_geometry *b,
                    const double *rb, const double *tb);

/** Relative accuracy of the distance bounds below (FCL's rel_err). */
#define PBF_DISTANCE_REL_ERR 0.0

/** A lower bound x on the distance between `a` and `b` (poses as in pbf_collide()), with
 * min(distance, cap) / (1 + PBF_DISTANCE_REL_ERR) <= x <= distance; bounding-volume pairs
 * `cap` or more apart are never opened, so far-apart shapes cost little. 0 when they overlap
 * or FCL fails. Thread-safe. */
double pbf_distance_bound(const pbf_geometry *a, const double *ra, const double *ta, const pbf_geometry *b,
                          const double *rb, const double *tb, double cap);

/** Static obstacles behind a broad phase (FCL's dynamic AABB tree). */
typedef struct pbf_environment pbf_environment;

/** An empty environment; NULL when out of memory. Free with pbf_environment_destroy(). */
pbf_environment *pbf_environment_create(void);
/** Free an environment (not the geometries added to it); NULL is accepted. */
void pbf_environment_destroy(pbf_environment *env);
/** Add an obstacle (the geometry is shared, not copied); false when out of memory. Only
 * before pbf_environment_build(). */
bool pbf_environment_add(pbf_environment *env, const pbf_geometry *geometry, const double *r,
                         const double *t);
/** Build the broad phase. After this the environment is read-only and thread-safe. */
bool pbf_environment_build(pbf_environment *env);
/** Number of obstacles added. */
size_t pbf_environment_size(const pbf_environment *env);
/** Does `geometry` at (r, t) touch any obstacle? Obstacles whose bounding boxes miss the
 * geometry's cost a tree descent only. */
bool pbf_environment_collide(const pbf_environment *env, const pbf_geometry *geometry, const double *r,
                             const double *t);

/** A lower bound x on the distance (metres) from `geometry` at (r, t) to the nearest
 * obstacle, with min(distance, cap) / (1 + PBF_DISTANCE_REL_ERR) <= x <= distance: obstacles
 * whose bounding boxes lie `cap` or more away cost no narrow-phase query, and mesh pairs are
 * only opened as far as that accuracy needs. 0 when touching, and 0 when FCL fails (the safe
 * side). +infinity for an empty environment. */
double pbf_environment_distance(const pbf_environment *env, const pbf_geometry *geometry, const double *r,
                                const double *t, double cap);

#ifdef __cplusplus
}
#endif
#endif
