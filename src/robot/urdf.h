/* Robots described in URDF, with SRDF planning groups and disabled collision pairs (private
 * to the library). Parsed with libxml2; only what motion planning needs is kept: links with
 * their collision geometry, joints with origin, axis, limits and mimic.
 *
 * Units are the URDF's: metres and radians. Mesh file names ("package://pkg/path" or a
 * relative path) are resolved at load time: "package://NAME/rest" is looked for as
 * <urdf dir>/rest, <urdf dir>/NAME/rest and <urdf dir>/../rest (the layouts robot
 * packages are shipped in); a relative path is taken relative to the URDF's folder. The
 * file itself is read when the engine loads it (src/robot/mesh.h), so a missing mesh is
 * reported with the URDF's element and line.
 *
 * Every error names the file, the element's line and the reason (pb_diag). */
#ifndef PB_ROBOT_URDF_H
#define PB_ROBOT_URDF_H

#include "core/pose.h"
#include "planbench/engine.h"

typedef enum pb_shape_type {
    PB_SHAPE_BOX,      /**< size = full side lengths along x, y, z */
    PB_SHAPE_CYLINDER, /**< size[0] = radius, size[1] = length along the local z axis, centred */
    PB_SHAPE_SPHERE,   /**< size[0] = radius */
    PB_SHAPE_MESH,     /**< mesh_path, scaled by size[0..2] per axis */
    PB_SHAPE_COUNT
} pb_shape_type;

/** One piece of collision geometry with its pose in the owner's frame. */
typedef struct pb_shape {
    pb_shape_type type;
    double size[3];
    char *mesh_path; /**< PB_SHAPE_MESH: the resolved file name, owned; NULL otherwise */
    pb_pose origin;
    int line; /**< line of the element in its file, for messages */
} pb_shape;

typedef struct pb_urdf_link {
    char *name;
    pb_shape *shapes; /**< collision geometry, owned */
    size_t n_shapes;
    int parent_joint; /**< index of the joint whose child this link is, -1 for the root */
    int line;
} pb_urdf_link;

typedef enum pb_joint_type {
    PB_JOINT_FIXED,
    PB_JOINT_REVOLUTE,   /**< rotation about `axis`, radians, limited */
    PB_JOINT_CONTINUOUS, /**< rotation about `axis`, radians, unlimited (wraps) */
    PB_JOINT_PRISMATIC,  /**< translation along `axis`, metres, limited */
    PB_JOINT_TYPE_COUNT
} pb_joint_type;

typedef struct pb_urdf_joint {
    char *name;
    pb_joint_type type;
    int parent; /**< link index */
    int child;  /**< link index */
    pb_pose origin;
    double axis[3];                        /**< unit vector in the child frame (URDF default 1 0 0) */
    double lower, upper;                   /**< limits (revolute, prismatic); continuous: -pi, pi */
    int mimic;                             /**< index of the joint this one mimics, -1 when none */
    double mimic_multiplier, mimic_offset; /**< q = multiplier * q_mimicked + offset */
    int line;
} pb_urdf_joint;

/** A named planning group from an SRDF, resolved to the joints it moves. */
typedef struct pb_srdf_group {
    char *name;
    int *joints; /**< movable, non-mimic joint indices in chain/declaration order, owned */
    size_t n_joints;
} pb_srdf_group;

/** An SRDF <end_effector>: a named group (the gripper) attached to `parent_link`. The
 * manipulator engine's default tool frame for inverse kinematics is the parent link of the
 * first end effector that its planned joints move. */
typedef struct pb_srdf_end_effector {
    char *name;         /**< owned */
    int parent_link;    /**< link index */
    char *group;        /**< the end effector's own group, owned; NULL when not given */
    char *parent_group; /**< the group it belongs to, owned; NULL when not given */
    int line;
} pb_srdf_end_effector;

/** A robot: a tree of links joined by joints, plus SRDF information when loaded. */
typedef struct pb_robot {
    char *name;
    char *urdf_path; /**< as given, owned */
    pb_urdf_link *links;
    size_t n_links;
    pb_urdf_joint *joints;
    size_t n_joints;
    int root;   /**< the one link that is no joint's child */
    int *order; /**< link indices, every parent before its children, owned */
    pb_srdf_group *groups;
    size_t n_groups;
    int (*disabled)[2]; /**< link index pairs excluded from self-collision (SRDF), owned */
    size_t n_disabled;
    pb_srdf_end_effector *end_effectors; /**< SRDF <end_effector>s in file order, owned */
    size_t n_end_effectors;
} pb_robot;

/** Parse a URDF file. On failure `robot` is left empty and `diag` names the file, the line
 * and the reason (a joint whose parent link does not exist, a missing attribute...). Free
 * with pb_robot_finish(). */
pb_status pb_urdf_load(pb_robot *robot, const char *path, pb_diag *diag);
/** Parse a URDF held in memory; `name` stands for the file in messages and relative mesh
 * paths are resolved against `base_dir` (may be NULL: the current folder). For fuzzing. */
pb_status pb_urdf_load_memory(pb_robot *robot, const char *data, size_t size, const char *name,
                              const char *base_dir, pb_diag *diag);
/** Add an SRDF's groups, disabled collision pairs and end effectors to `robot`. Names that
 * are not in the URDF are errors. */
pb_status pb_srdf_load(pb_robot *robot, const char *path, pb_diag *diag);
pb_status pb_srdf_load_memory(pb_robot *robot, const char *data, size_t size, const char *name,
                              pb_diag *diag);
/** Free everything `robot` holds; the struct may be loaded again. NULL is accepted. */
void pb_robot_finish(pb_robot *robot);

/** Index of the link or joint named `name`, -1 when none. */
int pb_robot_find_link(const pb_robot *robot, const char *name);
int pb_robot_find_joint(const pb_robot *robot, const char *name);
/** The group named `name`, NULL when none. Borrowed from the robot. */
const pb_srdf_group *pb_robot_find_group(const pb_robot *robot, const char *name);

/** Is joint `j` a coordinate a planner can move (revolute, continuous or prismatic, and no
 * mimic)? */
bool pb_joint_is_active(const pb_urdf_joint *joint);

#endif
