/* The standard ROS topics of the simulation (issue 17), as rosbridge v2 messages:
 *
 *   /clock                  rosgraph_msgs/Clock, sim time, after every step
 *   /tf, /tf_static         tf2_msgs/TFMessage: "map" -> "<entity>/base_link" for every entity and
 *                           the links of articulated entities (/tf_static: the fixed joints,
 *                           sent when a client subscribes and when a world loads)
 *   /<entity>/odom          nav_msgs/Odometry: the entity's pose in "map", its twist in its own
 *                           frame (child_frame_id "<entity>/base_link")
 *   /<entity>/joint_states  sensor_msgs/JointState of an articulated entity (its joints' names
 *                           as its robot names them: one topic per entity, as namespaced
 *                           robots publish them)
 *
 * and the topics clients publish to:
 *
 *   /<entity>/cmd_vel       geometry_msgs/Twist in the entity's frame (pb_sim_command_velocity())
 *   /<entity>/joint_commands trajectory_msgs/JointTrajectory for articulated entities
 *                           (pb_sim_command_joints())
 *
 * and a vehicle's, with Autoware's names and types (pb_sim_command_vehicle(),
 * pb_sim_get_vehicle_status()):
 *
 *   /<entity>/control/command/{control_cmd,gear_cmd,turn_indicators_cmd,hazard_lights_cmd,
 *                              emergency_cmd}             published by clients
 *   /<entity>/vehicle/status/{velocity_status,steering_status,gear_status,
 *                             turn_indicators_status,hazard_lights_status}  after every step
 *
 * Stamps are sim time, exact (pb_sim_time_ns()). */
#include "json_text.h"
#include "topics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fixed_names[RB_TOPIC_COUNT] = {
    [RB_TOPIC_ENTITY_EVENTS] = "entity_events",
    [RB_TOPIC_ENTITY_STATES] = "entity_states",
    [RB_TOPIC_CLOCK] = "clock",
    [RB_TOPIC_TF] = "tf",
    [RB_TOPIC_TF_STATIC] = "tf_static",
    [RB_TOPIC_RTI_ENTITY] = "rti/entity",
    [RB_TOPIC_RTI_ENTITIES] = "rti/entities",
    [RB_TOPIC_RTI_POSITION] = "rti/position",
    [RB_TOPIC_RTI_VEHICLESTATE] = "rti/vehiclestate",
};
static const char *const entity_suffixes[RB_TOPIC_COUNT] = {
    [RB_TOPIC_ODOM] = "odom",
    [RB_TOPIC_JOINT_STATES] = "joint_states",
    [RB_TOPIC_CMD_VEL] = "cmd_vel",
    [RB_TOPIC_JOINT_COMMANDS] = "joint_commands",
    [RB_TOPIC_CONTROL_CMD] = "control/command/control_cmd",
    [RB_TOPIC_GEAR_CMD] = "control/command/gear_cmd",
    [RB_TOPIC_TURN_INDICATORS_CMD] = "control/command/turn_indicators_cmd",
    [RB_TOPIC_HAZARD_LIGHTS_CMD] = "control/command/hazard_lights_cmd",
    [RB_TOPIC_EMERGENCY_CMD] = "control/command/emergency_cmd",
    [RB_TOPIC_VELOCITY_STATUS] = "vehicle/status/velocity_status",
    [RB_TOPIC_STEERING_STATUS] = "vehicle/status/steering_status",
    [RB_TOPIC_GEAR_STATUS] = "vehicle/status/gear_status",
    [RB_TOPIC_TURN_INDICATORS_STATUS] = "vehicle/status/turn_indicators_status",
    [RB_TOPIC_HAZARD_LIGHTS_STATUS] = "vehicle/status/hazard_lights_status",
    [RB_TOPIC_WORKER_STATUS] = "status",
    [RB_TOPIC_WORKER_ANALYZE] = "analyze_scenario",
    [RB_TOPIC_WORKER_VEHICLE] = "vehicle_status",
};

const char *rb_topic_suffix(rb_topic topic)
{
    return topic < RB_TOPIC_COUNT && entity_suffixes[topic] ? entity_suffixes[topic] : "";
}

bool rb_topic_is_rti(rb_topic topic)
{
    return topic >= RB_TOPIC_RTI_ENTITY && topic <= RB_TOPIC_RTI_VEHICLESTATE;
}

bool rb_topic_is_command(rb_topic topic)
{
    return topic == RB_TOPIC_CMD_VEL || topic == RB_TOPIC_JOINT_COMMANDS || topic == RB_TOPIC_RTI_ENTITIES ||
           (topic >= RB_TOPIC_CONTROL_CMD && topic <= RB_TOPIC_EMERGENCY_CMD);
}

bool rb_topic_is_vehicle(rb_topic topic)
{
    return topic >= RB_TOPIC_CONTROL_CMD && topic <= RB_TOPIC_HAZARD_LIGHTS_STATUS;
}

bool rb_topic_is_worker(rb_topic topic)
{
    return topic >= RB_TOPIC_WORKER_STATUS && topic <= RB_TOPIC_WORKER_VEHICLE;
}

bool rb_topic_is_vehicle_status(rb_topic topic)
{
    return topic >= RB_TOPIC_VELOCITY_STATUS && topic <= RB_TOPIC_HAZARD_LIGHTS_STATUS;
}

const char *rb_topic_type(rb_topic topic)
{
    static const char *const types[RB_TOPIC_COUNT] = {
        [RB_TOPIC_ENTITY_EVENTS] = "planbench_interfaces/msg/EntityEvent",
        [RB_TOPIC_ENTITY_STATES] = "planbench_interfaces/msg/EntityStates",
        [RB_TOPIC_CLOCK] = "rosgraph_msgs/msg/Clock",
        [RB_TOPIC_TF] = "tf2_msgs/msg/TFMessage",
        [RB_TOPIC_TF_STATIC] = "tf2_msgs/msg/TFMessage",
        [RB_TOPIC_ODOM] = "nav_msgs/msg/Odometry",
        [RB_TOPIC_JOINT_STATES] = "sensor_msgs/msg/JointState",
        [RB_TOPIC_CMD_VEL] = "geometry_msgs/msg/Twist",
        [RB_TOPIC_JOINT_COMMANDS] = "trajectory_msgs/msg/JointTrajectory",
        [RB_TOPIC_CONTROL_CMD] = "autoware_control_msgs/msg/Control",
        [RB_TOPIC_GEAR_CMD] = "autoware_vehicle_msgs/msg/GearCommand",
        [RB_TOPIC_TURN_INDICATORS_CMD] = "autoware_vehicle_msgs/msg/TurnIndicatorsCommand",
        [RB_TOPIC_HAZARD_LIGHTS_CMD] = "autoware_vehicle_msgs/msg/HazardLightsCommand",
        [RB_TOPIC_EMERGENCY_CMD] = "tier4_vehicle_msgs/msg/VehicleEmergencyStamped",
        [RB_TOPIC_VELOCITY_STATUS] = "autoware_vehicle_msgs/msg/VelocityReport",
        [RB_TOPIC_STEERING_STATUS] = "autoware_vehicle_msgs/msg/SteeringReport",
        [RB_TOPIC_GEAR_STATUS] = "autoware_vehicle_msgs/msg/GearReport",
        [RB_TOPIC_TURN_INDICATORS_STATUS] = "autoware_vehicle_msgs/msg/TurnIndicatorsReport",
        [RB_TOPIC_WORKER_STATUS] = "auto_scene_gen_msgs/msg/StatusCode",
        [RB_TOPIC_WORKER_ANALYZE] = "planbench_interfaces/msg/AnalyzeScenario",
        [RB_TOPIC_WORKER_VEHICLE] = "auto_scene_gen_msgs/msg/VehicleStatus",
        [RB_TOPIC_HAZARD_LIGHTS_STATUS] = "autoware_vehicle_msgs/msg/HazardLightsReport",
        [RB_TOPIC_RTI_ENTITY] = "planbench_interfaces/msg/Entity",
        [RB_TOPIC_RTI_ENTITIES] = "planbench_interfaces/msg/EntityOperation",
        [RB_TOPIC_RTI_POSITION] = "planbench_interfaces/msg/EntityPosition",
        [RB_TOPIC_RTI_VEHICLESTATE] = "planbench_interfaces/msg/VehicleState",
    };
    return topic < RB_TOPIC_COUNT ? types[topic] : "";
}

bool rb_topic_parse(const char *name, rb_topic *topic, char *entity, size_t size)
{
    if (size)
        entity[0] = '\0';
    name += name[0] == '/';
    for (int t = 0; t < RB_TOPIC_COUNT; t++)
        if (fixed_names[t] && strcmp(name, fixed_names[t]) == 0) {
            *topic = (rb_topic)t;
            return true;
        }
    /* "<entity>/<suffix>": the suffix may have slashes of its own, the entity too (a namespace) */
    const size_t len = strlen(name);
    for (int t = 0; t < RB_TOPIC_COUNT; t++) {
        const size_t n = entity_suffixes[t] ? strlen(entity_suffixes[t]) : 0;
        if (!n || len < n + 2 || name[len - n - 1] != '/' || strcmp(name + len - n, entity_suffixes[t]) != 0)
            continue;
        const size_t entity_len = len - n - 1;
        if (entity_len >= size)
            return false;
        /* the worker's topics belong to "asg_worker<ID>" only */
        if (rb_topic_is_worker((rb_topic)t) && strncmp(name, "asg_worker", 10) != 0)
            continue;
        memcpy(entity, name, entity_len);
        entity[entity_len] = '\0';
        *topic = (rb_topic)t;
        return true;
    }
    return false;
}

bool rb_topic_is_per_entity(rb_topic topic)
{
    return topic < RB_TOPIC_COUNT && entity_suffixes[topic] != NULL;
}

void rb_write_stamp(json_text *t, uint64_t ns)
{
    JT_LIT(t, "{\"sec\":");
    jt_int(t, (long long)(ns / 1000000000u));
    JT_LIT(t, ",\"nanosec\":");
    jt_int(t, (long long)(ns % 1000000000u));
    JT_LIT(t, "}");
}

static void jt_header(json_text *t, uint64_t ns, const char *frame)
{
    JT_LIT(t, "{\"stamp\":");
    rb_write_stamp(t, ns);
    JT_LIT(t, ",\"frame_id\":");
    jt_str(t, frame);
    JT_LIT(t, "}");
}

static void jt_vec3(json_text *t, double x, double y, double z)
{
    JT_LIT(t, "{\"x\":");
    jt_real(t, x);
    JT_LIT(t, ",\"y\":");
    jt_real(t, y);
    JT_LIT(t, ",\"z\":");
    jt_real(t, z);
    JT_LIT(t, "}");
}

static void jt_quat(json_text *t, const pb_sim_pose *p)
{
    JT_LIT(t, "{\"x\":");
    jt_real(t, p->qx);
    JT_LIT(t, ",\"y\":");
    jt_real(t, p->qy);
    JT_LIT(t, ",\"z\":");
    jt_real(t, p->qz);
    JT_LIT(t, ",\"w\":");
    jt_real(t, p->qw);
    JT_LIT(t, "}");
}

static void jt_pose(json_text *t, const pb_sim_pose *p)
{
    JT_LIT(t, "{\"position\":");
    jt_vec3(t, p->position.x, p->position.y, p->position.z);
    JT_LIT(t, ",\"orientation\":");
    jt_quat(t, p);
    JT_LIT(t, "}");
}

static void jt_covariance(json_text *t)
{
    JT_LIT(t, "[");
    for (int i = 0; i < 36; i++) {
        if (i)
            JT_LIT(t, ",");
        JT_LIT(t, "0.0");
    }
    JT_LIT(t, "]");
}

static void jt_topic(json_text *t, const char *topic)
{
    JT_LIT(t, "{\"op\":\"publish\",\"topic\":");
    jt_str(t, topic);
    JT_LIT(t, ",\"msg\":");
}

char *rb_clock(pb_sim *sim)
{
    json_text t = {0};
    jt_topic(&t, "/clock");
    JT_LIT(&t, "{\"clock\":");
    rb_write_stamp(&t, pb_sim_time_ns(sim));
    JT_LIT(&t, "}}");
    return jt_finish(&t);
}

char *rb_tf(pb_sim *sim, bool fixed)
{
    const pb_sim_frame *frames;
    const size_t n = pb_sim_get_frames(sim, fixed, &frames);
    const uint64_t now = pb_sim_time_ns(sim);
    json_text t = {0};
    jt_topic(&t, fixed ? "/tf_static" : "/tf");
    JT_LIT(&t, "{\"transforms\":[");
    for (size_t i = 0; i < n; i++) {
        const pb_sim_frame *f = &frames[i];
        if (i)
            JT_LIT(&t, ",");
        JT_LIT(&t, "{\"header\":");
        jt_header(&t, now, f->frame_id);
        JT_LIT(&t, ",\"child_frame_id\":");
        jt_str(&t, f->child_frame_id);
        JT_LIT(&t, ",\"transform\":{\"translation\":");
        jt_vec3(&t, f->transform.position.x, f->transform.position.y, f->transform.position.z);
        JT_LIT(&t, ",\"rotation\":");
        jt_quat(&t, &f->transform);
        JT_LIT(&t, "}}");
    }
    JT_LIT(&t, "]}}");
    return jt_finish(&t);
}

pb_sim_vec3 rb_to_body(const pb_sim_pose *p, pb_sim_vec3 v)
{
    const double x = p->qx, y = p->qy, z = p->qz, w = p->qw;
    const double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
                         2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                         2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
    return (pb_sim_vec3){r[0] * v.x + r[3] * v.y + r[6] * v.z, r[1] * v.x + r[4] * v.y + r[7] * v.z,
                         r[2] * v.x + r[5] * v.y + r[8] * v.z};
}

char *rb_odom_of(const char *entity, uint64_t now, const pb_sim_pose *pose, pb_sim_vec3 lin, pb_sim_vec3 ang)
{
    char topic[PB_SIM_FRAME_ID_SIZE + 16], child[PB_SIM_FRAME_ID_SIZE];
    snprintf(topic, sizeof topic, "/%s/odom", entity);
    snprintf(child, sizeof child, "%s/base_link", entity);
    json_text t = {0};
    jt_topic(&t, topic);
    JT_LIT(&t, "{\"header\":");
    jt_header(&t, now, "map");
    JT_LIT(&t, ",\"child_frame_id\":");
    jt_str(&t, child);
    JT_LIT(&t, ",\"pose\":{\"pose\":");
    jt_pose(&t, pose);
    JT_LIT(&t, ",\"covariance\":");
    jt_covariance(&t);
    JT_LIT(&t, "},\"twist\":{\"twist\":{\"linear\":");
    jt_vec3(&t, lin.x, lin.y, lin.z);
    JT_LIT(&t, ",\"angular\":");
    jt_vec3(&t, ang.x, ang.y, ang.z);
    JT_LIT(&t, "},\"covariance\":");
    jt_covariance(&t);
    JT_LIT(&t, "}}}");
    return jt_finish(&t);
}

char *rb_odom(pb_sim *sim, const char *entity)
{
    pb_sim_result r;
    pb_sim_entity_state st;
    pb_sim_get_entity_state(sim, entity, &r, &st);
    if (r.result != PB_SIM_RESULT_OK)
        return NULL;
    return rb_odom_of(entity, pb_sim_time_ns(sim), &st.pose, rb_to_body(&st.pose, st.twist.linear),
                      rb_to_body(&st.pose, st.twist.angular));
}

char *rb_joint_states(pb_sim *sim, const char *entity)
{
    const char *const *names;
    double values[PB_SIM_MAX_JOINTS];
    const size_t n = pb_sim_get_entity_joints(sim, entity, &names, values);
    if (n == 0)
        return NULL;
    char topic[PB_SIM_FRAME_ID_SIZE + 16], frame[PB_SIM_FRAME_ID_SIZE];
    snprintf(topic, sizeof topic, "/%s/joint_states", entity);
    snprintf(frame, sizeof frame, "%s/base_link", entity);
    json_text t = {0};
    jt_topic(&t, topic);
    JT_LIT(&t, "{\"header\":");
    jt_header(&t, pb_sim_time_ns(sim), frame);
    JT_LIT(&t, ",\"name\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            JT_LIT(&t, ",");
        jt_str(&t, names[i]);
    }
    JT_LIT(&t, "],\"position\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            JT_LIT(&t, ",");
        jt_real(&t, values[i]);
    }
    JT_LIT(&t, "],\"velocity\":[],\"effort\":[]}}");
    return jt_finish(&t);
}

char *rb_vehicle_status(pb_sim *sim, rb_topic topic, const char *entity)
{
    pb_sim_vehicle_status st;
    if (!rb_topic_is_vehicle_status(topic) || !pb_sim_get_vehicle_status(sim, entity, &st))
        return NULL;
    return rb_vehicle_status_of(topic, entity, pb_sim_time_ns(sim), &st);
}

char *rb_vehicle_status_of(rb_topic topic, const char *entity, uint64_t now,
                           const pb_sim_vehicle_status *status)
{
    if (!rb_topic_is_vehicle_status(topic))
        return NULL;
    const pb_sim_vehicle_status st = *status;
    char name[PB_SIM_FRAME_ID_SIZE + 64], frame[PB_SIM_FRAME_ID_SIZE];
    snprintf(name, sizeof name, "/%s/%s", entity, entity_suffixes[topic]);
    snprintf(frame, sizeof frame, "%s/base_link", entity);
    json_text t = {0};
    jt_topic(&t, name);
    if (topic == RB_TOPIC_VELOCITY_STATUS) {
        JT_LIT(&t, "{\"header\":");
        jt_header(&t, now, frame);
        JT_LIT(&t, ",\"longitudinal_velocity\":");
        jt_real(&t, st.longitudinal_velocity);
        JT_LIT(&t, ",\"lateral_velocity\":");
        jt_real(&t, st.lateral_velocity);
        JT_LIT(&t, ",\"heading_rate\":");
        jt_real(&t, st.heading_rate);
        JT_LIT(&t, "}}");
        return jt_finish(&t);
    }
    JT_LIT(&t, "{\"stamp\":");
    rb_write_stamp(&t, now);
    if (topic == RB_TOPIC_STEERING_STATUS) {
        JT_LIT(&t, ",\"steering_tire_angle\":");
        jt_real(&t, st.steering_tire_angle);
    } else {
        JT_LIT(&t, ",\"report\":");
        jt_int(&t, topic == RB_TOPIC_GEAR_STATUS              ? st.gear
                   : topic == RB_TOPIC_TURN_INDICATORS_STATUS ? st.turn_indicators
                                                              : st.hazard_lights);
    }
    JT_LIT(&t, "}}");
    return jt_finish(&t);
}
