/* The server's topics (topics.c, private to src/sim): their names and types, and the
 * standard ROS messages the server publishes on them. */
#ifndef PB_SIM_TOPICS_H
#define PB_SIM_TOPICS_H

#include "planbench/sim.h"

/** The topics of the server (topics.c): the first five are the world's, the others each
 * entity's ("/<entity>/odom"...); cmd_vel is published by clients, the rest by the server. */
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
    RB_TOPIC_COUNT
} rb_topic;

/** A topic's name to its kind and, for an entity's topic, the entity's name (`size` bytes).
 * False for a topic the server does not have. */
bool rb_topic_parse(const char *name, rb_topic *topic, char *entity, size_t size);
/** Is `topic` one of each entity's ("/<entity>/odom")? */
bool rb_topic_is_per_entity(rb_topic topic);
/** The ROS type of a topic ("nav_msgs/msg/Odometry"). */
const char *rb_topic_type(rb_topic topic);

/** The standard topics (topics.c): /clock, /tf or /tf_static (`fixed`), and an entity's
 * odometry and joint states (NULL when the entity does not exist or has no joints). */
char *rb_clock(pb_sim *sim);
char *rb_tf(pb_sim *sim, bool fixed);
char *rb_odom(pb_sim *sim, const char *entity);
char *rb_joint_states(pb_sim *sim, const char *entity);

#endif
