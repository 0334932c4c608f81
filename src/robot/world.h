/* Worlds for the manipulator engine (private to the library): a robot (URDF, SRDF, the
 * joints to plan for), static obstacles with poses, and a default start and goal.
 *
 * Four sources (the fourth, MotionBenchMaker's YAML scene + request, when built with
 * libyaml: src/robot/mbm_yaml.h):
 *   - planbench's world XML (documented in worlds/README.md), root element <world>;
 *   - a Klampt world (root <world> too, told apart by <robot file="*.rob">): the robot from
 *     its .rob (src/robot/klampt.h; the joints planned for are the .rob's own movable ones,
 *     mounted robots such as grippers are held), <terrain file scale translation rotateX/Y/Z>
 *     and <rigidObject file position rotateX/Y/Z> meshes as obstacles; other elements
 *     (display, target, simulation) are ignored;
 *   - one problem of a MotionBenchMaker flat file ("# planbench-flat-mbm v1" header, as in
 *     ../shared/anchor-problems/vamp-mbm/panda/panda_mbm_flat.txt), whose robot is
 *     <dir>/<robot>.urdf and <dir>/<robot>.srdf beside it.
 * Relative file names in a world are relative to the world file's folder. */
#ifndef PB_ROBOT_WORLD_H
#define PB_ROBOT_WORLD_H

#include "robot/world_model.h"

/** Is `path` a world this module reads: an XML file whose root element is <world>, or an
 * MBM flat file? Reads at most the file's first 4 KiB. */
bool pb_world_is_world_file(const char *path);

/** Load a world file. `problem` selects a problem of an MBM flat file as "SCENARIO:INDEX"
 * (like "bookshelf_small:1"; NULL: the first problem) and must be NULL for a world XML.
 * Errors name the file, the line and the reason. */
pb_status pb_world_load(pb_world *world, const char *path, const char *problem, pb_diag *diag);
/** Parse world XML held in memory; `name` stands for the file in messages, relative paths
 * are resolved against `base_dir`. For fuzzing. */
pb_status pb_world_load_xml_memory(pb_world *world, const char *data, size_t size, const char *name,
                                   const char *base_dir, pb_diag *diag);
#endif
