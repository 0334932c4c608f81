/* The simulation service's private state (src/sim only). */
#ifndef PB_SIM_INTERNAL_H
#define PB_SIM_INTERNAL_H

#include "planbench/planbench.h"
#include "planbench/sim.h"

/** A list of owned strings. */
typedef struct sim_strings {
    char **items;
    size_t n;
} sim_strings;

/** A spawnable robot: read from a <simrobot> file or string. */
typedef struct sim_robot {
    char *name;
    char *uri; /* model://NAME */
    char *description;
    uint8_t category;
    sim_strings tags;
    pb_footprint footprint;
} sim_robot;

typedef struct sim_named_pose {
    char *name;
    char *description;
    sim_strings tags;
    double pose[3];
    pb_sim_bounds bounds;
} sim_named_pose;

/** An entity the world file places at load time. */
typedef struct sim_world_entity {
    char *name;
    size_t robot; /* index into the world's robots */
    double pose[3];
    bool is_static;
} sim_world_entity;

/** A loaded <simworld>. */
typedef struct sim_world {
    char *name;
    char *uri;
    char *description;
    sim_strings tags;
    char *map_path; /* resolved */
    sim_robot *robots;
    size_t n_robots;
    sim_named_pose *poses;
    size_t n_poses;
    sim_world_entity *entities;
    size_t n_entities;
} sim_world;

/** Why a world or robot could not be read: maps to the per-service codes. */
typedef enum sim_load_error {
    SIM_LOAD_OK,
    SIM_LOAD_NOT_FOUND,     /* the file does not exist */
    SIM_LOAD_PARSE,         /* not XML, or not our root element, or a bad field */
    SIM_LOAD_MISSING_ASSET, /* the map image is missing */
    SIM_LOAD_UNSUPPORTED,   /* an element we do not know (with fail_on_unsupported) */
} sim_load_error;

/** Read a <simworld> from `path` (or from `xml` when path is NULL, relative names against
 * `base_dir`). Robots named by <spawnable robot="..."/> are read from `robots_dir`. */
sim_load_error sim_world_load(sim_world *world, const char *path, const char *xml, size_t xml_size,
                              const char *base_dir, const char *robots_dir, bool strict, char *message,
                              size_t message_size);
void sim_world_finish(sim_world *world);
/** Is `path` an XML file whose root element is <simworld>? */
bool sim_is_world_file(const char *path);
/** Read a <simrobot> from a string. */
sim_load_error sim_robot_parse(sim_robot *robot, const char *xml, size_t size, char *message,
                               size_t message_size);
void sim_robot_finish(sim_robot *robot);
void sim_strings_finish(sim_strings *s);
char *sim_strdup(const char *s);

#endif
