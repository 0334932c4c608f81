/* Triangle meshes from files (private to the library): STL, OBJ, DAE, OFF, PLY and every
 * other format assimp reads, plus Klampt's ".tri" text format, as one triangle soup.
 *
 * The node hierarchy of the file is flattened with each node's transform, except the root
 * node's: assimp puts a Y-up conversion there (Collada "Z_UP" files), and URDF meshes are
 * used in their own coordinates, as RViz and MoveIt's geometric_shapes do. A Collada
 * <unit meter> scale is applied. */
#ifndef PB_ROBOT_MESH_H
#define PB_ROBOT_MESH_H

#include "planbench/base.h"

/** Vertices (x, y, z in the file's units times `scale`) and triangles (three vertex indices
 * each). Caller storage; free with pb_mesh_finish(). */
typedef struct pb_mesh {
    double *vertices;    /**< 3 * n_vertices, owned */
    uint32_t *triangles; /**< 3 * n_triangles, owned; every index < n_vertices */
    size_t n_vertices;
    size_t n_triangles;
} pb_mesh;

/** Most triangles one mesh file may hold (a corrupt count must not exhaust memory). */
#define PB_MESH_MAX_TRIANGLES ((size_t)1 << 24)

/** Load the mesh in `path`, scaling every vertex by scale[0..2] (NULL: 1). A file that is
 * missing, unreadable, not a mesh or holds no triangle is an error naming the file. */
pb_status pb_mesh_load(pb_mesh *mesh, const char *path, const double *scale, pb_diag *diag);
void pb_mesh_finish(pb_mesh *mesh);

#endif
