/* The FCL shim as a module (issue 21): planbench-fcl.so holds fcl_shim.cpp with FCL, libccd,
 * octomap and the C++ runtime, loaded when the first manipulator world loads, so that no other
 * process maps them. These are fcl_shim.h's functions, forwarded to the module's; queries only
 * follow a geometry's creation, which follows pbf_available(). Not built where the shim is
 * linked in (a Python wheel, -Dpython_wheel=true). */
#include "engines/manipulator/fcl_shim.h"
#include "core/module.h"

#include <pthread.h>
#include <stdio.h>

/* One entry per function of fcl_shim.h: the X-macro keeps the table and the names together. */
#define PBF_FUNCTIONS(X)                                                                                     \
    X(pbf_box_create, pbf_geometry *, (double, double, double))                                              \
    X(pbf_cylinder_create, pbf_geometry *, (double, double))                                                 \
    X(pbf_sphere_create, pbf_geometry *, (double))                                                           \
    X(pbf_mesh_create, pbf_geometry *, (const double *, size_t, const uint32_t *, size_t))                   \
    X(pbf_convex_create, pbf_geometry *, (const double *, size_t))                                           \
    X(pbf_geometry_destroy, void, (pbf_geometry *))                                                          \
    X(pbf_geometry_local_aabb, void, (const pbf_geometry *, double[3], double[3]))                           \
    X(pbf_collide, bool,                                                                                     \
      (const pbf_geometry *, const double *, const double *, const pbf_geometry *, const double *,           \
       const double *))                                                                                      \
    X(pbf_distance, double,                                                                                  \
      (const pbf_geometry *, const double *, const double *, const pbf_geometry *, const double *,           \
       const double *))                                                                                      \
    X(pbf_distance_bound, double,                                                                            \
      (const pbf_geometry *, const double *, const double *, const pbf_geometry *, const double *,           \
       const double *, double))                                                                              \
    X(pbf_environment_create, pbf_environment *, (void))                                                     \
    X(pbf_environment_destroy, void, (pbf_environment *))                                                    \
    X(pbf_environment_add, bool, (pbf_environment *, const pbf_geometry *, const double *, const double *))  \
    X(pbf_environment_build, bool, (pbf_environment *))                                                      \
    X(pbf_environment_size, size_t, (const pbf_environment *))                                               \
    X(pbf_environment_collide, bool,                                                                         \
      (const pbf_environment *, const pbf_geometry *, const double *, const double *))                       \
    X(pbf_environment_distance, double,                                                                      \
      (const pbf_environment *, const pbf_geometry *, const double *, const double *, double))

#define FIELD(name, ret, args) ret(*name) args;
static struct {
    PBF_FUNCTIONS(FIELD)
} fcl;
#undef FIELD

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;
static char why[1024];

static void load(void)
{
    void *handle = pb_module_open("planbench-fcl.so", why, sizeof why);
    if (!handle)
        return;
    bool all = true;
#define BIND(name, ret, args)                                                                                \
    if (!(fcl.name = (ret(*) args)pb_module_symbol(handle, #name))) {                                        \
        snprintf(why, sizeof why, "planbench-fcl.so has no %s", #name);                                      \
        all = false;                                                                                         \
    }
    PBF_FUNCTIONS(BIND)
#undef BIND
    loaded = all;
}

bool pbf_available(const char **reason)
{
    pthread_once(&once, load);
    *reason = loaded ? NULL : why;
    return loaded;
}

static bool ready(void)
{
    const char *reason;
    return pbf_available(&reason);
}

pbf_geometry *pbf_box_create(double sx, double sy, double sz)
{
    return ready() ? fcl.pbf_box_create(sx, sy, sz) : NULL;
}

pbf_geometry *pbf_cylinder_create(double radius, double length)
{
    return ready() ? fcl.pbf_cylinder_create(radius, length) : NULL;
}

pbf_geometry *pbf_sphere_create(double radius)
{
    return ready() ? fcl.pbf_sphere_create(radius) : NULL;
}

pbf_geometry *pbf_mesh_create(const double *vertices, size_t n_vertices, const uint32_t *triangles,
                              size_t n_triangles)
{
    return ready() ? fcl.pbf_mesh_create(vertices, n_vertices, triangles, n_triangles) : NULL;
}

pbf_geometry *pbf_convex_create(const double *vertices, size_t n_vertices)
{
    return ready() ? fcl.pbf_convex_create(vertices, n_vertices) : NULL;
}

pbf_environment *pbf_environment_create(void)
{
    return ready() ? fcl.pbf_environment_create() : NULL;
}

/* The rest take a geometry or an environment, which only exist once the module is loaded
 * (destroying NULL needs no module). */
void pbf_geometry_destroy(pbf_geometry *geometry)
{
    if (geometry)
        fcl.pbf_geometry_destroy(geometry);
}

void pbf_geometry_local_aabb(const pbf_geometry *geometry, double lower[3], double upper[3])
{
    fcl.pbf_geometry_local_aabb(geometry, lower, upper);
}

bool pbf_collide(const pbf_geometry *a, const double *ra, const double *ta, const pbf_geometry *b,
                 const double *rb, const double *tb)
{
    return fcl.pbf_collide(a, ra, ta, b, rb, tb);
}

double pbf_distance(const pbf_geometry *a, const double *ra, const double *ta, const pbf_geometry *b,
                    const double *rb, const double *tb)
{
    return fcl.pbf_distance(a, ra, ta, b, rb, tb);
}

double pbf_distance_bound(const pbf_geometry *a, const double *ra, const double *ta, const pbf_geometry *b,
                          const double *rb, const double *tb, double cap)
{
    return fcl.pbf_distance_bound(a, ra, ta, b, rb, tb, cap);
}

void pbf_environment_destroy(pbf_environment *env)
{
    if (env)
        fcl.pbf_environment_destroy(env);
}

bool pbf_environment_add(pbf_environment *env, const pbf_geometry *geometry, const double *r, const double *t)
{
    return fcl.pbf_environment_add(env, geometry, r, t);
}

bool pbf_environment_build(pbf_environment *env)
{
    return fcl.pbf_environment_build(env);
}

size_t pbf_environment_size(const pbf_environment *env)
{
    return fcl.pbf_environment_size(env);
}

bool pbf_environment_collide(const pbf_environment *env, const pbf_geometry *geometry, const double *r,
                             const double *t)
{
    return fcl.pbf_environment_collide(env, geometry, r, t);
}

double pbf_environment_distance(const pbf_environment *env, const pbf_geometry *geometry, const double *r,
                                const double *t, double cap)
{
    return fcl.pbf_environment_distance(env, geometry, r, t, cap);
}
