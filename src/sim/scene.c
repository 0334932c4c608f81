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
    const double x = pose[3], y = pose[4], z = pose[5], w = pose[6];
    return (pb_pose){.r = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), /* */
                           2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), /* */
                           2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)},
                     .t = {pose[0], pose[1], pose[2]}};
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

void scene_shape_box(const pb_shape *shape, double *lo, double *hi)
{
    double half[3];
    switch (shape->type) {
    case PB_SHAPE_BOX:
        for (int i = 0; i < 3; i++)
            half[i] = shape->size[i] / 2;
        break;
    case PB_SHAPE_CYLINDER:
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
