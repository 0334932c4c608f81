// The FCL shim (see fcl_shim.h): the only C++ in planbench. Every function catches every
// exception; queries then answer "in collision", constructors NULL.
#include "fcl_shim.h"

#include <fcl/fcl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <new>
#include <vector>

struct pbf_geometry {
    std::shared_ptr<fcl::CollisionGeometryd> geometry;
};

struct pbf_environment {
    std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;
    fcl::DynamicAABBTreeCollisionManagerd manager;
    bool built = false;
};

namespace
{

fcl::Transform3d to_transform(const double *r, const double *t)
{
    fcl::Transform3d tf = fcl::Transform3d::Identity();
    fcl::Matrix3d rot;
    rot << r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8];
    tf.linear() = rot;
    tf.translation() = fcl::Vector3d(t[0], t[1], t[2]);
    return tf;
}

pbf_geometry *wrap(std::shared_ptr<fcl::CollisionGeometryd> g)
{
    g->computeLocalAABB();
    return new pbf_geometry{std::move(g)};
}

// A collision object for one query, on the stack. FCL's own constructors recompute the
// geometry's local AABB (a pass over every vertex of a mesh, and a write to the shared
// geometry, a data race between threads); this one only sets the pose and the world AABB.
// The geometry is held by a non-owning shared_ptr: no reference count is touched.
class query_object : public fcl::CollisionObjectd
{
  public:
    query_object(const pbf_geometry *g, const fcl::Transform3d &tf)
        : fcl::CollisionObjectd(std::shared_ptr<fcl::CollisionGeometryd>())
    {
        fcl::CollisionGeometryd *raw = g->geometry.get();
        cgeom = std::shared_ptr<fcl::CollisionGeometryd>(std::shared_ptr<fcl::CollisionGeometryd>(), raw);
        cgeom_const = cgeom;
        t = tf;
        computeAABB();
    }
};

// FCL's own GJK (GST_INDEP) rather than libccd: the same answers on our shapes, and
// measured about twice as fast on the MotionBenchMaker Panda problems.
fcl::CollisionRequestd make_request()
{
    fcl::CollisionRequestd request;
    request.gjk_solver_type = fcl::GST_INDEP;
    return request;
}

struct collide_data {
    fcl::CollisionRequestd request = make_request();
    fcl::CollisionResultd result;
    bool done = false;
};

bool collide_callback(fcl::CollisionObjectd *a, fcl::CollisionObjectd *b, void *payload)
{
    auto *data = static_cast<collide_data *>(payload);
    if (data->done)
        return true;
    fcl::collide(a, b, data->request, data->result);
    data->done = data->result.isCollision();
    return data->done;
}

// Bounding-volume pairs whose distance is within a factor 1 + PBF_DISTANCE_REL_ERR of the
// best found so far are not opened (abs_err is set so large that only rel_err counts: FCL
// prunes when both tests pass).
fcl::DistanceRequestd make_distance_request()
{
    fcl::DistanceRequestd request;
    request.enable_nearest_points = false;
    request.gjk_solver_type = fcl::GST_INDEP;
    request.rel_err = PBF_DISTANCE_REL_ERR;
    request.abs_err = PBF_DISTANCE_REL_ERR > 0.0 ? 1e30 : 0.0;
    return request;
}

// FCL's distance, starting from `cap` as the best distance so far, so that the traversal
// prunes every bounding-volume pair at least `cap` apart: min(distance, cap), up to the
// relative error. 0 when overlapping.
double capped_distance(const fcl::CollisionGeometryd *a, const fcl::Transform3d &ta,
                       const fcl::CollisionGeometryd *b, const fcl::Transform3d &tb,
                       const fcl::DistanceRequestd &request, double cap)
{
    fcl::DistanceResultd result;
    result.min_distance = cap;
    const double d = fcl::distance(a, ta, b, tb, request, result);
    return d > 0.0 ? fmin(d, cap) : 0.0;
}

struct distance_data {
    fcl::DistanceRequestd request = make_distance_request();
    double min_distance;
};

// The broad phase calls this for every obstacle whose bounding box is nearer than `dist`
// (the smallest distance so far, which we start at the cap); it lowers `dist` and stops at
// a contact.
bool distance_callback(fcl::CollisionObjectd *a, fcl::CollisionObjectd *b, void *payload, double &dist)
{
    auto *data = static_cast<distance_data *>(payload);
    if (a->getAABB().distance(b->getAABB()) >= data->min_distance) {
        dist = data->min_distance;
        return false;
    }
    const double d =
        capped_distance(a->collisionGeometry().get(), a->getTransform(), b->collisionGeometry().get(),
                        b->getTransform(), data->request, data->min_distance);
    if (d < data->min_distance)
        data->min_distance = d;
    dist = data->min_distance;
    return data->min_distance <= 0.0;
}

} // namespace

extern "C" {

bool pbf_available(const char **reason)
{
    *reason = nullptr; // linked in, or loaded already: the loader answers before loading
    return true;
}

pbf_geometry *pbf_box_create(double sx, double sy, double sz)
{
    try {
        return wrap(std::make_shared<fcl::Boxd>(sx, sy, sz));
    } catch (...) {
        return nullptr;
    }
}

pbf_geometry *pbf_cylinder_create(double radius, double length)
{
    try {
        return wrap(std::make_shared<fcl::Cylinderd>(radius, length));
    } catch (...) {
        return nullptr;
    }
}

pbf_geometry *pbf_sphere_create(double radius)
{
    try {
        return wrap(std::make_shared<fcl::Sphered>(radius));
    } catch (...) {
        return nullptr;
    }
}

pbf_geometry *pbf_mesh_create(const double *vertices, size_t n_vertices, const uint32_t *triangles,
                              size_t n_triangles)
{
    try {
        std::vector<fcl::Vector3d> points(n_vertices);
        for (size_t i = 0; i < n_vertices; i++)
            points[i] = fcl::Vector3d(vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2]);
        std::vector<fcl::Triangle> tris(n_triangles);
        for (size_t i = 0; i < n_triangles; i++) {
            if (triangles[3 * i] >= n_vertices || triangles[3 * i + 1] >= n_vertices ||
                triangles[3 * i + 2] >= n_vertices)
                return nullptr;
            tris[i] = fcl::Triangle(triangles[3 * i], triangles[3 * i + 1], triangles[3 * i + 2]);
        }
        auto model = std::make_shared<fcl::BVHModel<fcl::OBBRSSd>>();
        if (model->beginModel(static_cast<int>(n_triangles), static_cast<int>(n_vertices)) != fcl::BVH_OK ||
            model->addSubModel(points, tris) != fcl::BVH_OK || model->endModel() != fcl::BVH_OK)
            return nullptr;
        return wrap(model);
    } catch (...) {
        return nullptr;
    }
}

pbf_geometry *pbf_convex_create(const double *vertices, size_t n_vertices)
{
    try {
        if (n_vertices == 0)
            return nullptr;
        // Mesh files repeat a vertex once per face (OBJ without shared indices): one copy
        // of each point is enough, and GJK scans every point per support query.
        std::vector<std::array<double, 3>> unique(n_vertices);
        for (size_t i = 0; i < n_vertices; i++)
            unique[i] = {vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2]};
        std::sort(unique.begin(), unique.end());
        unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
        auto points = std::make_shared<std::vector<fcl::Vector3d>>(unique.size());
        for (size_t i = 0; i < unique.size(); i++)
            (*points)[i] = fcl::Vector3d(unique[i][0], unique[i][1], unique[i][2]);
        // No faces: FCL then finds support points by a linear scan, which is right for the
        // hull of any point set (its face walk assumes a convex, watertight mesh).
        auto faces = std::make_shared<std::vector<int>>();
        return wrap(std::make_shared<fcl::Convexd>(points, 0, faces, false));
    } catch (...) {
        return nullptr;
    }
}

void pbf_geometry_destroy(pbf_geometry *geometry)
{
    delete geometry;
}

void pbf_geometry_local_aabb(const pbf_geometry *geometry, double lower[3], double upper[3])
{
    const fcl::AABBd &box = geometry->geometry->aabb_local;
    for (int i = 0; i < 3; i++) {
        lower[i] = box.min_[i];
        upper[i] = box.max_[i];
    }
}

bool pbf_collide(const pbf_geometry *a, const double *ra, const double *ta, const pbf_geometry *b,
                 const double *rb, const double *tb)
{
    try {
        const fcl::CollisionRequestd request = make_request();
        fcl::CollisionResultd result;
        fcl::collide(a->geometry.get(), to_transform(ra, ta), b->geometry.get(), to_transform(rb, tb),
                     request, result);
        return result.isCollision();
    } catch (...) {
        return true;
    }
}

double pbf_distance(const pbf_geometry *a, const double *ra, const double *ta, const pbf_geometry *b,
                    const double *rb, const double *tb)
{
    try {
        fcl::DistanceRequestd request;
        request.enable_nearest_points = false;
        fcl::DistanceResultd result;
        const double d = fcl::distance(a->geometry.get(), to_transform(ra, ta), b->geometry.get(),
                                       to_transform(rb, tb), request, result);
        return d < 0.0 ? 0.0 : d;
    } catch (...) {
        return -1.0;
    }
}

double pbf_distance_bound(const pbf_geometry *a, const double *ra, const double *ta, const pbf_geometry *b,
                          const double *rb, const double *tb, double cap)
{
    try {
        const fcl::DistanceRequestd request = make_distance_request();
        return capped_distance(a->geometry.get(), to_transform(ra, ta), b->geometry.get(),
                               to_transform(rb, tb), request, cap) /
               (1.0 + PBF_DISTANCE_REL_ERR);
    } catch (...) {
        return 0.0;
    }
}

pbf_environment *pbf_environment_create(void)
{
    try {
        return new pbf_environment();
    } catch (...) {
        return nullptr;
    }
}

void pbf_environment_destroy(pbf_environment *env)
{
    delete env;
}

bool pbf_environment_add(pbf_environment *env, const pbf_geometry *geometry, const double *r, const double *t)
{
    try {
        if (env->built)
            return false;
        env->objects.push_back(std::unique_ptr<fcl::CollisionObjectd>(
            new fcl::CollisionObjectd(geometry->geometry, to_transform(r, t))));
        env->objects.back()->computeAABB();
        return true;
    } catch (...) {
        return false;
    }
}

bool pbf_environment_build(pbf_environment *env)
{
    try {
        std::vector<fcl::CollisionObjectd *> raw;
        raw.reserve(env->objects.size());
        for (auto &o : env->objects)
            raw.push_back(o.get());
        env->manager.registerObjects(raw);
        env->manager.setup();
        env->built = true;
        return true;
    } catch (...) {
        return false;
    }
}

size_t pbf_environment_size(const pbf_environment *env)
{
    return env->objects.size();
}

bool pbf_environment_collide(const pbf_environment *env, const pbf_geometry *geometry, const double *r,
                             const double *t)
{
    try {
        if (env->objects.empty())
            return false;
        query_object object(geometry, to_transform(r, t));
        collide_data data;
        env->manager.collide(&object, &data, collide_callback);
        return data.done;
    } catch (...) {
        return true;
    }
}

double pbf_environment_distance(const pbf_environment *env, const pbf_geometry *geometry, const double *r,
                                const double *t, double cap)
{
    try {
        if (env->objects.empty())
            return HUGE_VAL;
        query_object object(geometry, to_transform(r, t));
        distance_data data;
        data.min_distance = cap;
        env->manager.distance(&object, &data, distance_callback);
        return data.min_distance > 0.0 ? data.min_distance / (1.0 + PBF_DISTANCE_REL_ERR) : 0.0;
    } catch (...) {
        return 0.0;
    }
}

} // extern "C"
