/* Rigid transforms beyond the public ones of engine.h (private to the library). */
#ifndef PB_CORE_POSE_H
#define PB_CORE_POSE_H

#include "planbench/engine.h"

/** The pose of URDF's <origin xyz rpy>: fixed-axis roll about x, pitch about y, yaw about z,
 * R = Rz(yaw) Ry(pitch) Rx(roll). */
pb_pose pb_pose_from_xyz_rpy(const double xyz[3], const double rpy[3]);

#endif
