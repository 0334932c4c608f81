/* The schema of the ROS messages the server speaks (private to src/sim): each message a
 * table of fields, so that requests are checked before a field is read (rosbridge.c) and
 * rosapi can describe every type (rosapi.c). The tables are in schema.c. */
#ifndef PB_SIM_SCHEMA_H
#define PB_SIM_SCHEMA_H

#include <stdbool.h>

typedef enum ftype { T_BOOL, T_U8, T_U16, T_I32, T_U32, T_U64, T_F64, T_STR, T_MSG, T_TIME } ftype;

typedef struct field {
    const char *name;
    ftype type;
    int array;               /* 0: one value; 1: an array of any length; N > 1: an array of exactly N */
    const struct field *sub; /* T_MSG: fields, ended by a NULL name */
    const char *ros;         /* ROS type for messages */
} field;

/** The message tables (schema.c): f_ a message, q_ a service request. */
extern const field f_vec3[];
extern const field f_quat[];
extern const field f_pose[];
extern const field f_header[];
extern const field f_pose_stamped[];
extern const field f_twist[];
extern const field f_state[];
extern const field f_resource[];
extern const field f_tags_filter[];
extern const field f_bounds[];
extern const field f_category[];
extern const field f_filters[];
extern const field f_info[];
extern const field f_sim_state[];
extern const field f_spawn_msg[];
extern const field q_spawn[];
extern const field q_spawns[];
extern const field q_entity[];
extern const field q_filters[];
extern const field q_set_state[];
extern const field q_set_info[];
extern const field q_named_poses[];
extern const field q_name[];
extern const field q_sources[];
extern const field q_empty[];
extern const field q_set_sim_state[];
extern const field q_reset[];
extern const field q_steps[];
extern const field q_load_world[];
extern const field q_available_worlds[];
extern const field q_plan[];
extern const field q_follow[];
extern const field f_goal_id[];
extern const field f_goal_info[];
extern const field q_cancel[];
extern const field q_set_joints[];
extern const field f_time[];
/* the RTI channels' messages, and /rti/get_client_id's response */
extern const field f_rti_operation[], a_client_id[];
/* the auto_scene_gen worker's services (for rosapi) */
extern const field q_asg_run[], q_asg_register[], q_asg_notify[], q_asg_issue[], a_asg_received[],
    a_asg_notify[];
/* replies: a_ the fields a service's response carries */
extern const field f_result[];
extern const field a_result[], a_features[], a_spawn[], a_spawns[], a_entities[], a_states[], a_state[],
    a_info[], a_bounds[], a_named_poses[], a_spawnables[], a_sim_state[], a_world[], a_worlds[], a_plan[],
    a_joints[], a_cancel[];
extern const field f_trajectory_point[];
extern const field f_trajectory[];
extern const field f_clock[];
extern const field f_transform[];
extern const field f_transform_stamped[];
extern const field f_tf[];
extern const field f_pose_cov[];
extern const field f_twist_cov[];
extern const field f_odometry[];
extern const field f_joint_state[];
extern const field f_entity_event[];
extern const field f_entity_states[];
extern const field f_control_lateral[], f_control_longitudinal[], f_control[], f_command_u8[], f_report_u8[],
    f_emergency[], f_velocity_report[], f_steering_report[];

/** A named message type and its fields, for rosapi. */
typedef struct schema_type {
    const char *name; /* "geometry_msgs/msg/Pose" */
    const field *fields;
} schema_type;

/** Every message type the server speaks (requests, replies' parts and topics), NULL-ended. */
extern const schema_type schema_types[];

#endif
