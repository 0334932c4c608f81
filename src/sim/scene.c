/* Geometry of manipulator scenes for the simulation service: 6-DoF poses as x, y, z and a
 * unit quaternion (qx, qy, qz, qw), as geometry_msgs/Pose carries them, composed, moved under
 * a twist and turned into the rotation matrices the manipulator engine takes. */
#include "sim_internal.h"

#include <math.h>
#include <string.h>

void scene_quat_mul(const double *a, const double *b, double *out)
{
    const double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    const double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    const double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    const double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    out[0] = x;
    out[1] = y;
    out[2] = z;
    out[3] = w;
}

pb_pose scene_pose_of(const double *pose)
{
    return pb_pose_from_xyz_quat(pose, pose + 3);
}

void scene_compose(const double *ref, const double *local, double *out)
{
    const pb_pose r = scene_pose_of(ref);
    double p[3], q[4];
    for (int i = 0; i < 3; i++)
        p[i] = r.r[3 * i] * local[0] + r.r[3 * i + 1] * local[1] + r.r[3 * i + 2] * local[2] + r.t[i];
    scene_quat_mul(ref + 3, local + 3, q);
    memcpy(out, p, sizeof p);
    scene_normalize(q, out + 3);
}

void scene_normalize(const double *q, double *out)
{
    const double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++)
        out[i] = n > 0 ? q[i] / n : i == 3;
}

void scene_twist_pose(const double *pose, const double *twist, double dt, double *out)
{
    double q[4], step[4];
    for (int i = 0; i < 3; i++)
        out[i] = pose[i] + twist[i] * dt;
    /* the rotation by angular * dt (world frame) before the pose's own */
    const double w[3] = {twist[3] * dt, twist[4] * dt, twist[5] * dt};
    const double angle = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (angle < 1e-15) {
        memcpy(out + 3, pose + 3, 4 * sizeof *out);
        return;
    }
    const double s = sin(angle / 2) / angle;
    step[0] = w[0] * s;
    step[1] = w[1] * s;
    step[2] = w[2] * s;
    step[3] = cos(angle / 2);
    scene_quat_mul(step, pose + 3, q);
    scene_normalize(q, out + 3);
}

static void solid_box(const pb_solid *shape, double *lo, double *hi)
{
    double half[3];
    switch (shape->type) {
    case PB_SOLID_BOX:
        for (int i = 0; i < 3; i++)
            half[i] = shape->size[i] / 2;
        break;
    case PB_SOLID_CYLINDER:
        half[0] = half[1] = shape->size[0];
        half[2] = shape->size[1] / 2;
        break;
    default:
        half[0] = half[1] = half[2] = shape->size[0];
        break;
    }
    for (int i = 0; i < 3; i++) {
        lo[i] = -half[i];
        hi[i] = half[i];
    }
}

void scene_solid_bounds(const pb_solid *shape, pb_sim_bounds *b)
{
    double lo[3], hi[3];
    solid_box(shape, lo, hi);
    memset(b, 0, sizeof *b);
    b->type = PB_SIM_BOUNDS_BOX;
    b->n_points = 2;
    b->points[0] = (pb_sim_vec3){lo[0], lo[1], lo[2]};
    b->points[1] = (pb_sim_vec3){hi[0], hi[1], hi[2]};
}

void scene_pose_to_msg(const double *pose, pb_sim_pose *out)
{
    *out = (pb_sim_pose){{pose[0], pose[1], pose[2]}, pose[3], pose[4], pose[5], pose[6]};
}

bool scene_pose_from_msg(pb_sim *sim, const pb_sim_pose *p, const char *frame, double *out, char *why,
                         size_t size)
{
    double n;
    const sim_entity *ref;
    if (!sim_pose_msg_valid(sim, p, frame, &n, &ref, why, size))
        return false;
    const double q[4] = {p->qx, p->qy, p->qz, p->qw};
    double local[7] = {p->position.x, p->position.y, p->position.z};
    scene_normalize(q, local + 3);
    static const double origin[7] = {0, 0, 0, 0, 0, 0, 1};
    if (ref && memcmp(ref->pose3, origin, sizeof origin) != 0) /* the robot's frame is the world's */
        scene_compose(ref->pose3, local, out);
    else
        memcpy(out, local, sizeof local);
    return true;
}

void scene_quat_of(const pb_pose *pose, double *q)
{
    /* Shepperd's method: the largest of w, x, y, z first, for precision */
    const double *r = pose->r;
    const double trace = r[0] + r[4] + r[8];
    double x, y, z, w;
    if (trace > 0) {
        const double s = 2.0 * sqrt(1.0 + trace);
        w = 0.25 * s;
        x = (r[7] - r[5]) / s;
        y = (r[2] - r[6]) / s;
        z = (r[3] - r[1]) / s;
    } else if (r[0] > r[4] && r[0] > r[8]) {
        const double s = 2.0 * sqrt(1.0 + r[0] - r[4] - r[8]);
        w = (r[7] - r[5]) / s;
        x = 0.25 * s;
        y = (r[1] + r[3]) / s;
        z = (r[2] + r[6]) / s;
    } else if (r[4] > r[8]) {
        const double s = 2.0 * sqrt(1.0 + r[4] - r[0] - r[8]);
        w = (r[2] - r[6]) / s;
        x = (r[1] + r[3]) / s;
        y = 0.25 * s;
        z = (r[5] + r[7]) / s;
    } else {
        const double s = 2.0 * sqrt(1.0 + r[8] - r[0] - r[4]);
        w = (r[3] - r[1]) / s;
        x = (r[2] + r[6]) / s;
        y = (r[5] + r[7]) / s;
        z = 0.25 * s;
    }
    const double in[4] = {x, y, z, w};
    scene_normalize(in, q);
}
