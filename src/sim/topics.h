/* The server's topics (topics.c, private to src/sim): their names and types, and the
 * standard ROS messages the server publishes on them. */
#ifndef PB_SIM_TOPICS_H
#define PB_SIM_TOPICS_H

#include "json_text.h"
#include "planbench/sim.h"

/** The topics of the server (topics.c): the first five are the world's, the next each
 * entity's ("/<entity>/odom"...), then the scenario worker's and the RTI channels (fixed
 * names, "/rti/..."); cmd_vel, a vehicle's commands and /rti/entities are published by
 * clients, the rest by the server. */
typedef enum rb_topic {
    RB_TOPIC_ENTITY_EVENTS,
    RB_TOPIC_ENTITY_STATES,
    RB_TOPIC_CLOCK,
    RB_TOPIC_TF,
    RB_TOPIC_TF_STATIC,
    RB_TOPIC_ODOM,
    RB_TOPIC_JOINT_STATES,
    RB_TOPIC_CMD_VEL,
    RB_TOPIC_JOINT_COMMANDS,
    /* a vehicle's (Autoware's names, under "/<entity>/"): the commands clients publish */
    RB_TOPIC_CONTROL_CMD,
    RB_TOPIC_GEAR_CMD,
    RB_TOPIC_TURN_INDICATORS_CMD,
    RB_TOPIC_HAZARD_LIGHTS_CMD,
    RB_TOPIC_EMERGENCY_CMD,
    /* and its status, published after every step */
    RB_TOPIC_VELOCITY_STATUS,
    RB_TOPIC_STEERING_STATUS,
    RB_TOPIC_GEAR_STATUS,
    RB_TOPIC_TURN_INDICATORS_STATUS,
    RB_TOPIC_HAZARD_LIGHTS_STATUS,
    /* the auto_scene_gen worker's (under "/asg_worker<ID>/"): its StatusCode and the
     * AnalyzeScenario request of each scenario it ran (asg_worker.h) */
    RB_TOPIC_WORKER_STATUS,
    RB_TOPIC_WORKER_ANALYZE,
    RB_TOPIC_WORKER_VEHICLE,
    /* the RTI entity channels (rti.h): clients publish operations on /rti/entities */
    RB_TOPIC_RTI_ENTITY,
    RB_TOPIC_RTI_ENTITIES,
    RB_TOPIC_RTI_POSITION,
    RB_TOPIC_RTI_VEHICLESTATE,
    RB_TOPIC_COUNT
} rb_topic;

/** A topic's name to its kind and, for an entity's topic, the entity's name (`size` bytes).
 * False for a topic the server does not have. */
bool rb_topic_parse(const char *name, rb_topic *topic, char *entity, size_t size);
/** Is `topic` one of each entity's ("/<entity>/odom")? */
bool rb_topic_is_per_entity(rb_topic topic);
/** The ROS type of a topic ("nav_msgs/msg/Odometry"). */
const char *rb_topic_type(rb_topic topic);
/** A per-entity topic's name after "/<entity>/" ("odom", "control/command/gear_cmd"). */
const char *rb_topic_suffix(rb_topic topic);
/** Do clients publish on `topic` (cmd_vel, joint_commands, a vehicle's commands)? */
bool rb_topic_is_command(rb_topic topic);
/** Is `topic` a vehicle's (a command or a status)? */
bool rb_topic_is_vehicle(rb_topic topic);
/** Is `topic` the scenario worker's (published when a scenario starts or ends)? */
bool rb_topic_is_worker(rb_topic topic);
/** Is `topic` one of the RTI channels? */
bool rb_topic_is_rti(rb_topic topic);
/** Is `topic` a vehicle's status, published after every step? */
bool rb_topic_is_vehicle_status(rb_topic topic);

/** The standard topics (topics.c): /clock, /tf or /tf_static (`fixed`), and an entity's
 * odometry and joint states (NULL when the entity does not exist or has no joints). */
char *rb_clock(pb_sim *sim);
char *rb_tf(pb_sim *sim, bool fixed);
char *rb_odom(pb_sim *sim, const char *entity);
char *rb_joint_states(pb_sim *sim, const char *entity);
/** A vehicle's status topic `topic` (Autoware's vehicle/status messages); NULL when the entity
 * is not a vehicle. */
char *rb_vehicle_status(pb_sim *sim, rb_topic topic, const char *entity);
/** `v` (world frame) in the frame of orientation `pose`: R^T v. */
pb_sim_vec3 rb_to_body(const pb_sim_pose *pose, pb_sim_vec3 v);
/** A builtin_interfaces/Time of `ns` nanoseconds into `t`. */
void rb_write_stamp(json_text *t, uint64_t ns);
/** The same from a status, and odometry from a pose and its twist in the body frame, stamped
 * `now` (ns): for a vehicle that is not one of the world's entities (the scenario worker's). */
char *rb_vehicle_status_of(rb_topic topic, const char *entity, uint64_t now,
                           const pb_sim_vehicle_status *status);
char *rb_odom_of(const char *entity, uint64_t now, const pb_sim_pose *pose, pb_sim_vec3 lin, pb_sim_vec3 ang);

#endif
