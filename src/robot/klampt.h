/* Klampt robots and rigid objects (private to the library), for Klampt world files such as
 * the TX90 world sbp-env's n-D engine plans in (../shared/anchor-problems/klampt-tx90/).
 *
 * A Klampt ".rob" robot is text: one keyword per line (a trailing backslash continues a
 * line, '#' starts a comment, keywords are case-insensitive) with one value per link:
 *   parents (-1 for a root; a parent comes before its children), TParent (12 numbers per
 *   link: a 3x3 rotation row by row, then a translation, metres: the link's frame in its
 *   parent's when its joint is at 0), axis (3 per link, in the link's frame), qMin/qMax
 *   (radians) or qMinDeg/qMaxDeg, jointtype (r or p), links (names), geometry (a quoted
 *   mesh file per link, "" for none, relative to the .rob), geomscale (one factor per link,
 *   or one for all), noSelfCollision (link index pairs), and
 *   mount LINK "file.rob" [R (9) t (3)] [as "NAME"] (another robot fixed to LINK).
 * Other keywords (masses, servo gains, drivers...) do not matter to planning and are
 * skipped. A link whose qMin equals its qMax is welded at that value; Klampt's link
 * transform is parent * TParent * (rotation about, or translation along, axis by q), which
 * is URDF's joint semantics, so the robot is handed on as URDF text (and its
 * noSelfCollision pairs as SRDF) to the URDF reader.
 *
 * A Klampt rigid object (".obj" in Klampt worlds: text, not Wavefront) names one mesh with
 * optional geomscale (1 or 3 factors), geomtranslate (3, applied after the scale) and T (its
 * default pose, 12 numbers as above). Errors name the file, the line and the reason. */
#ifndef PB_ROBOT_KLAMPT_H
#define PB_ROBOT_KLAMPT_H

#include "robot/urdf.h"

/** A Klampt robot as URDF and SRDF text plus the names of its planning joints. */
typedef struct pb_klampt_robot {
    char *urdf;   /**< URDF text, owned; mesh file names are resolved (relative to the cwd) */
    char *srdf;   /**< SRDF text with the disabled pairs, owned */
    char *joints; /**< space-separated names of the joints to plan for (the movable joints
                       of the .rob itself, not of robots mounted on it), owned */
} pb_klampt_robot;

/** Read a .rob file (and the robots it mounts). Free with pb_klampt_robot_finish(). */
pb_status pb_klampt_robot_load(pb_klampt_robot *robot, const char *path, pb_diag *diag);
/** The same from memory; `name` stands for the file in messages, relative file names are
 * resolved against `base_dir` (mounted robots are read from there). For fuzzing. */
pb_status pb_klampt_robot_load_memory(pb_klampt_robot *robot, const char *data, size_t size, const char *name,
                                      const char *base_dir, pb_diag *diag);
/** Free what `robot` holds; NULL is accepted. */
void pb_klampt_robot_finish(pb_klampt_robot *robot);

/** Read a Klampt rigid-object file into a mesh shape in the object's frame: mesh_path
 * (owned, resolved), size = the scale, origin = the translation by geomtranslate. `pose`
 * gets the file's T (identity when none; `has_pose` tells which); a world may override it. */
pb_status pb_klampt_object_load(pb_shape *shape, pb_pose *pose, bool *has_pose, const char *path,
                                pb_diag *diag);

#endif
