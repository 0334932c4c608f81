/* Rigid transforms (see pb_pose in engine.h). */
#include "planbench/engine.h"
#include "core/pose.h"

#include <math.h>

pb_pose pb_pose_identity(void)
{
    pb_pose p = {.r = {1, 0, 0, 0, 1, 0, 0, 0, 1}, .t = {0, 0, 0}};
    return p;
}

pb_pose pb_pose_inverse(const pb_pose *p)
{
    pb_pose inv;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            inv.r[3 * i + j] = p->r[3 * j + i];
        inv.t[i] = -(p->r[i] * p->t[0] + p->r[3 + i] * p->t[1] + p->r[6 + i] * p->t[2]);
    }
    return inv;
}

pb_pose pb_pose_mul(const pb_pose *a, const pb_pose *b)
{
    pb_pose p;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            p.r[3 * i + j] =
                a->r[3 * i] * b->r[j] + a->r[3 * i + 1] * b->r[3 + j] + a->r[3 * i + 2] * b->r[6 + j];
        p.t[i] = a->r[3 * i] * b->t[0] + a->r[3 * i + 1] * b->t[1] + a->r[3 * i + 2] * b->t[2] + a->t[i];
    }
    return p;
}

pb_pose pb_pose_from_xyz_rpy(const double xyz[3], const double rpy[3])
{
    const double cr = cos(rpy[0]), sr = sin(rpy[0]), cp = cos(rpy[1]), sp = sin(rpy[1]);
    const double cy = cos(rpy[2]), sy = sin(rpy[2]);
    pb_pose p = {.r = {cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr, /* */
                       sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr, /* */
                       -sp, cp * sr, cp * cr},
                 .t = {xyz[0], xyz[1], xyz[2]}};
    return p;
}

pb_pose pb_pose_from_xyz_quat(const double xyz[3], const double quat[4])
{
    double x = quat[0], y = quat[1], z = quat[2], w = quat[3];
    const double n = sqrt(x * x + y * y + z * z + w * w);
    if (n > 0.0) {
        x /= n;
        y /= n;
        z /= n;
        w /= n;
    } else {
        w = 1.0;
    }
    pb_pose p = {.r = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w), /* */
                       2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w), /* */
                       2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)},
                 .t = {xyz[0], xyz[1], xyz[2]}};
    return p;
}
