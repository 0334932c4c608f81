/* The manipulator engine's kinematics: joint values (held and mimic joints), forward
 * kinematics (the shapes' world poses from it are shape_poses(), inline in
 * manipulator_model.h), and the motion bounds the certified edge check advances by (how far a
 * shape can move per unit of each coordinate). Calls no other part of the engine. */
#include "engines/manipulator/manipulator_model.h"

#include <math.h>
#include <stdlib.h>

static double base_value(const manipulator *m, const double *q, int j)
{
    const int c = m->coord_of[j];
    return c >= 0 ? q[c] : m->held[j];
}

static double joint_value(const manipulator *m, const double *q, int j)
{
    const pb_urdf_joint *joint = &m->robot.joints[j];
    if (joint->mimic >= 0)
        return joint->mimic_multiplier * base_value(m, q, joint->mimic) + joint->mimic_offset;
    return base_value(m, q, j);
}

/* The joint's own motion by `value`: a rotation about or a translation along its axis. */
static pb_pose joint_motion(const pb_urdf_joint *joint, double value)
{
    pb_pose p = pb_pose_identity();
    const double *a = joint->axis;
    if (joint->type == PB_JOINT_PRISMATIC) {
        for (int i = 0; i < 3; i++)
            p.t[i] = a[i] * value;
        return p;
    }
    const double c = cos(value), s = sin(value), v = 1.0 - c;
    p.r[0] = c + a[0] * a[0] * v;
    p.r[1] = a[0] * a[1] * v - a[2] * s;
    p.r[2] = a[0] * a[2] * v + a[1] * s;
    p.r[3] = a[1] * a[0] * v + a[2] * s;
    p.r[4] = c + a[1] * a[1] * v;
    p.r[5] = a[1] * a[2] * v - a[0] * s;
    p.r[6] = a[2] * a[0] * v - a[1] * s;
    p.r[7] = a[2] * a[1] * v + a[0] * s;
    p.r[8] = c + a[2] * a[2] * v;
    return p;
}

void manip_forward_kinematics(const manipulator *m, const double *q, pb_pose *poses)
{
    const pb_robot *robot = &m->robot;
    poses[robot->root] = m->base;
    for (size_t k = 1; k < robot->n_links; k++) {
        const int link = robot->order[k];
        const int j = robot->links[link].parent_joint;
        const pb_urdf_joint *joint = &robot->joints[j];
        pb_pose frame = pb_pose_mul(&poses[joint->parent], &joint->origin);
        if (joint->type == PB_JOINT_FIXED) {
            poses[link] = frame;
        } else {
            const pb_pose motion = joint_motion(joint, joint_value(m, q, j));
            poses[link] = pb_pose_mul(&frame, &motion);
        }
    }
}

/* How far each shape can move per unit change of each coordinate (m->sweep), from the
 * shapes' bounding spheres. Walking from a shape's link to the root, the sphere (centre c,
 * radius rho, in the frame of the current link) bounds where the shape can be, whatever the
 * joints below do. A revolute joint driven by coordinate i moves every point of it by at most
 * (distance of c from the axis + rho) per radian, and then the sphere becomes the one round
 * the circle c sweeps: centre on the axis, radius rho + that distance. A prismatic joint moves
 * it by |dq| and stretches it by half its travel. Joints that no coordinate drives are exact
 * transforms. Mimic joints add |multiplier| times their share to the coordinate they follow.
 * The bound holds in every configuration, so along any straight edge a point of shape s moves
 * at most sum_i sweep[s][i] |dq_i|. */
static void shape_sweep(const manipulator *m, size_t s, int stop_link, double *sweep)
{
    const pb_robot *robot = &m->robot;
    {
        const robot_shape *shape = &m->shapes[s];
        double c[3], rho = shape->radius;
        transform_point(&shape->origin, shape->center, c);
        int link = shape->link;
        int j;
        while (link != stop_link && (j = robot->links[link].parent_joint) >= 0) {
            const pb_urdf_joint *joint = &robot->joints[j];
            const int driver = joint->mimic >= 0 ? joint->mimic : j;
            const double factor = joint->mimic >= 0 ? fabs(joint->mimic_multiplier) : 1.0;
            const int coord = joint->type == PB_JOINT_FIXED ? -1 : m->coord_of[driver];
            const double *a = joint->axis;
            double local[3];
            if (coord < 0) {
                const pb_pose motion = joint->type == PB_JOINT_FIXED
                                           ? pb_pose_identity()
                                           : joint_motion(joint, joint_value(m, NULL, j));
                transform_point(&motion, c, local);
            } else if (joint->type == PB_JOINT_PRISMATIC) {
                sweep[coord] += factor;
                const double mult = joint->mimic >= 0 ? joint->mimic_multiplier : 1.0;
                const double off = joint->mimic >= 0 ? joint->mimic_offset : 0.0;
                const double v1 = mult * m->lower[coord] + off, v2 = mult * m->upper[coord] + off;
                const double mid = 0.5 * (v1 + v2);
                for (int i = 0; i < 3; i++)
                    local[i] = c[i] + a[i] * mid;
                rho += 0.5 * fabs(v2 - v1);
            } else {
                const double along = a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
                double d2 = 0.0;
                for (int i = 0; i < 3; i++) {
                    local[i] = along * a[i];
                    d2 += (c[i] - local[i]) * (c[i] - local[i]);
                }
                const double d = sqrt(d2);
                sweep[coord] += factor * (d + rho);
                rho += d;
            }
            transform_point(&joint->origin, local, c);
            link = joint->parent;
        }
        /* rounding: a hair more is still a bound */
        for (int i = 0; i < m->dim; i++)
            sweep[i] *= 1.0 + 1e-9;
    }
}

/* The deepest link that is an ancestor of both (or either itself). */
static int common_ancestor(const pb_robot *robot, int a, int b)
{
    for (int x = a;; x = robot->joints[robot->links[x].parent_joint].parent) {
        for (int y = b;; y = robot->joints[robot->links[y].parent_joint].parent) {
            if (x == y)
                return x;
            if (robot->links[y].parent_joint < 0)
                break;
        }
        if (robot->links[x].parent_joint < 0)
            return x;
    }
}

/* m->sweep for every shape against the world, and m->pair_sweep for every self pair: the
 * joints above both links' common ancestor move the two together and do not count. */
bool manip_compute_sweep(manipulator *m)
{
    const size_t dim = (size_t)m->dim;
    m->sweep = calloc(m->n_shapes * dim + 1, sizeof *m->sweep);
    m->pair_sweep = calloc(m->n_pairs * dim + 1, sizeof *m->pair_sweep);
    if (!m->sweep || !m->pair_sweep)
        return false;
    for (size_t s = 0; s < m->n_shapes; s++)
        shape_sweep(m, s, -1, &m->sweep[s * dim]);
    for (size_t p = 0; p < m->n_pairs; p++) {
        const uint32_t a = m->pairs[p][0], b = m->pairs[p][1];
        const int top = common_ancestor(&m->robot, m->shapes[a].link, m->shapes[b].link);
        shape_sweep(m, a, top, &m->pair_sweep[p * dim]);
        shape_sweep(m, b, top, &m->pair_sweep[p * dim]);
    }
    return true;
}
