/* The ROS message tables of the server (see schema.h). */
#include "schema.h"

#include <stddef.h>

#define END                                                                                                  \
    {                                                                                                        \
        NULL, T_BOOL, false, NULL, NULL                                                                      \
    }
const field f_vec3[] = {{"x", T_F64, 0, 0, 0}, {"y", T_F64, 0, 0, 0}, {"z", T_F64, 0, 0, 0}, END};
const field f_quat[] = {
    {"x", T_F64, 0, 0, 0}, {"y", T_F64, 0, 0, 0}, {"z", T_F64, 0, 0, 0}, {"w", T_F64, 0, 0, 0}, END};
const field f_pose[] = {{"position", T_MSG, 0, f_vec3, "geometry_msgs/Point"},
                        {"orientation", T_MSG, 0, f_quat, "geometry_msgs/Quaternion"},
                        END};
const field f_header[] = {
    {"stamp", T_TIME, 0, 0, "builtin_interfaces/Time"}, {"frame_id", T_STR, 0, 0, 0}, END};
const field f_pose_stamped[] = {
    {"header", T_MSG, 0, f_header, "std_msgs/Header"}, {"pose", T_MSG, 0, f_pose, "geometry_msgs/Pose"}, END};
const field f_twist[] = {{"linear", T_MSG, 0, f_vec3, "geometry_msgs/Vector3"},
                         {"angular", T_MSG, 0, f_vec3, "geometry_msgs/Vector3"},
                         END};
const field f_state[] = {{"header", T_MSG, 0, f_header, "std_msgs/Header"},
                         {"pose", T_MSG, 0, f_pose, "geometry_msgs/Pose"},
                         {"twist", T_MSG, 0, f_twist, "geometry_msgs/Twist"},
                         {"acceleration", T_MSG, 0, f_twist, "geometry_msgs/Accel"},
                         END};
const field f_resource[] = {{"uri", T_STR, 0, 0, 0}, {"resource_string", T_STR, 0, 0, 0}, END};
const field f_tags_filter[] = {{"tags", T_STR, 1, 0, 0}, {"filter_mode", T_U8, 0, 0, 0}, END};
const field f_bounds[] = {
    {"type", T_U8, 0, 0, 0}, {"points", T_MSG, 1, f_vec3, "geometry_msgs/Vector3"}, END};
const field f_category[] = {{"category", T_U8, 0, 0, 0}, END};
const field f_filters[] = {{"filter", T_STR, 0, 0, 0},
                           {"categories", T_MSG, 1, f_category, "simulation_interfaces/EntityCategory"},
                           {"tags", T_MSG, 0, f_tags_filter, "simulation_interfaces/TagsFilter"},
                           {"bounds", T_MSG, 0, f_bounds, "simulation_interfaces/Bounds"},
                           END};
const field f_info[] = {{"category", T_MSG, 0, f_category, "simulation_interfaces/EntityCategory"},
                        {"description", T_STR, 0, 0, 0},
                        {"tags", T_STR, 1, 0, 0},
                        END};
const field f_sim_state[] = {{"state", T_U8, 0, 0, 0}, END};
const field f_spawn_msg[] = {{"name", T_STR, 0, 0, 0},
                             {"allow_renaming", T_BOOL, 0, 0, 0},
                             {"entity_resource", T_MSG, 0, f_resource, "simulation_interfaces/Resource"},
                             {"entity_namespace", T_STR, 0, 0, 0},
                             {"initial_pose", T_MSG, 0, f_pose_stamped, "geometry_msgs/PoseStamped"},
                             END};
/* both the 2.x and the 1.x (flat uri, resource_string) shapes */
const field q_spawn[] = {{"name", T_STR, 0, 0, 0},
                         {"allow_renaming", T_BOOL, 0, 0, 0},
                         {"entity_resource", T_MSG, 0, f_resource, "simulation_interfaces/Resource"},
                         {"uri", T_STR, 0, 0, 0},
                         {"resource_string", T_STR, 0, 0, 0},
                         {"entity_namespace", T_STR, 0, 0, 0},
                         {"initial_pose", T_MSG, 0, f_pose_stamped, "geometry_msgs/PoseStamped"},
                         END};
const field q_spawns[] = {{"spawn_requests", T_MSG, 1, f_spawn_msg, "simulation_interfaces/SpawnEntity"},
                          END};
const field q_entity[] = {{"entity", T_STR, 0, 0, 0}, END};
const field q_filters[] = {{"filters", T_MSG, 0, f_filters, "simulation_interfaces/EntityFilters"}, END};
const field q_set_state[] = {{"entity", T_STR, 0, 0, 0},
                             {"state", T_MSG, 0, f_state, "simulation_interfaces/EntityState"},
                             {"set_pose", T_BOOL, 0, 0, 0},
                             {"set_twist", T_BOOL, 0, 0, 0},
                             {"set_acceleration", T_BOOL, 0, 0, 0},
                             END};
const field q_set_info[] = {
    {"entity", T_STR, 0, 0, 0}, {"info", T_MSG, 0, f_info, "simulation_interfaces/EntityInfo"}, END};
const field q_named_poses[] = {{"tags", T_MSG, 0, f_tags_filter, "simulation_interfaces/TagsFilter"}, END};
const field q_name[] = {{"name", T_STR, 0, 0, 0}, END};
const field q_sources[] = {{"sources", T_STR, 1, 0, 0}, END};
const field q_empty[] = {END};
const field q_set_sim_state[] = {{"state", T_MSG, 0, f_sim_state, "simulation_interfaces/SimulationState"},
                                 END};
const field q_reset[] = {{"scope", T_U8, 0, 0, 0}, END};
const field q_steps[] = {{"steps", T_U64, 0, 0, 0}, END};
const field q_load_world[] = {{"world_resource", T_MSG, 0, f_resource, "simulation_interfaces/Resource"},
                              {"uri", T_STR, 0, 0, 0},
                              {"resource_string", T_STR, 0, 0, 0},
                              {"fail_on_unsupported_element", T_BOOL, 0, 0, 0},
                              {"ignore_missing_or_unsupported_assets", T_BOOL, 0, 0, 0},
                              END};
const field q_available_worlds[] = {{"additional_sources", T_STR, 1, 0, 0},
                                    {"filter", T_MSG, 0, f_tags_filter, "simulation_interfaces/TagsFilter"},
                                    {"offline_only", T_BOOL, 0, 0, 0},
                                    {"continue_on_error", T_BOOL, 0, 0, 0},
                                    END};
const field q_plan[] = {{"entity", T_STR, 0, 0, 0},
                        {"goal_name", T_STR, 0, 0, 0},
                        {"goal", T_MSG, 0, f_pose, "geometry_msgs/Pose"},
                        {"planner", T_STR, 0, 0, 0},
                        {"time_limit", T_F64, 0, 0, 0},
                        {"seed", T_U64, 0, 0, 0},
                        {"follow", T_BOOL, 0, 0, 0},
                        {"speed", T_F64, 0, 0, 0},
                        {"goal_joints", T_F64, 1, 0, 0},
                        {"budget", T_BOOL, 0, 0, 0},
                        END};
/* planbench_interfaces/action/FollowPath goal */
const field q_follow[] = {{"entity", T_STR, 0, 0, 0},
                          {"path", T_MSG, 1, f_pose, "geometry_msgs/Pose"},
                          {"speed", T_F64, 0, 0, 0},
                          {"joint_positions", T_F64, 1, 0, 0},
                          END};
/* action_msgs/srv/CancelGoal: goal_info is accepted and ignored (cancel all) */
const field f_goal_id[] = {{"uuid", T_U8, 1, 0, 0}, END};
const field f_goal_info[] = {{"goal_id", T_MSG, 0, f_goal_id, "unique_identifier_msgs/UUID"},
                             {"stamp", T_TIME, 0, 0, "builtin_interfaces/Time"},
                             END};
const field q_cancel[] = {{"goal_info", T_MSG, 0, f_goal_info, "action_msgs/GoalInfo"}, END};
const field q_set_joints[] = {{"entity", T_STR, 0, 0, 0},
                              {"joint_names", T_STR, 1, 0, 0},
                              {"positions", T_F64, 1, 0, 0},
                              {NULL, T_BOOL, 0, NULL, NULL}};

const field f_trajectory_point[] = {{"positions", T_F64, 1, 0, 0},
                                    {"velocities", T_F64, 1, 0, 0},
                                    {"accelerations", T_F64, 1, 0, 0},
                                    {"effort", T_F64, 1, 0, 0},
                                    {"time_from_start", T_TIME, 0, 0, "builtin_interfaces/Duration"},
                                    {NULL, T_BOOL, 0, NULL, NULL}};
const field f_trajectory[] = {
    {"header", T_MSG, 0, f_header, "std_msgs/Header"},
    {"joint_names", T_STR, 1, 0, 0},
    {"points", T_MSG, 1, f_trajectory_point, "trajectory_msgs/JointTrajectoryPoint"},
    {NULL, T_BOOL, 0, NULL, NULL}};

/* the auto_scene_gen worker's services (auto_scene_gen_msgs; float32 as float64), for rosapi:
 * the requests are read by src/scenario/request.c, which also takes planbench's extensions */
const field f_asg_landscape[] = {
    {"nominal_size", T_F64, 0, 0, 0}, {"subdivisions", T_I32, 0, 0, 0}, {"border", T_F64, 0, 0, 0}, END};
const field f_asg_layout[] = {{"path_name", T_STR, 0, 0, 0},
                              {"num_instances", T_I32, 0, 0, 0},
                              {"visible", T_BOOL, 1, 0, 0},
                              {"cast_shadow", T_BOOL, 1, 0, 0},
                              {"x", T_F64, 1, 0, 0},
                              {"y", T_F64, 1, 0, 0},
                              {"yaw", T_F64, 1, 0, 0},
                              {"scale", T_F64, 1, 0, 0},
                              END};
const field f_asg_scene[] = {
    {"landscape", T_MSG, 0, f_asg_landscape, "auto_scene_gen_msgs/LandscapeDescription"},
    {"sunlight_inclination", T_F64, 0, 0, 0},
    {"sunlight_yaw_angle", T_F64, 0, 0, 0},
    {"ssa_array", T_MSG, 1, f_asg_layout, "auto_scene_gen_msgs/StructuralSceneActorLayout"},
    END};
const field f_asg_capture_settings[] = {{"image_size", T_U16, 0, 0, 0}, END};
const field q_asg_run[] = {
    {"scenario_number", T_I32, 0, 0, 0},
    {"sim_timeout_period", T_F64, 0, 0, 0},
    {"vehicle_idling_timeout_period", T_F64, 0, 0, 0},
    {"vehicle_stuck_timeout_period", T_F64, 0, 0, 0},
    {"max_vehicle_roll", T_F64, 0, 0, 0},
    {"max_vehicle_pitch", T_F64, 0, 0, 0},
    {"allow_collisions", T_BOOL, 0, 0, 0},
    {"vehicle_start_location", T_MSG, 0, f_vec3, "geometry_msgs/Point"},
    {"vehicle_start_yaw", T_F64, 0, 0, 0},
    {"vehicle_goal_location", T_MSG, 0, f_vec3, "geometry_msgs/Point"},
    {"goal_radius", T_F64, 0, 0, 0},
    {"scene_description", T_MSG, 0, f_asg_scene, "auto_scene_gen_msgs/SceneDescription"},
    {"take_scene_capture", T_BOOL, 0, 0, 0},
    {"scene_capture_only", T_BOOL, 0, 0, 0},
    {"scene_capture_settings", T_MSG, 0, f_asg_capture_settings, "auto_scene_gen_msgs/SceneCaptureSettings"},
    END};
const field q_asg_register[] = {{"worker_id", T_U8, 0, 0, 0}, {"node_name", T_STR, 0, 0, 0}, END};
const field q_asg_notify[] = {{"worker_id", T_U8, 0, 0, 0},
                              {"node_name", T_STR, 0, 0, 0},
                              {"last_scenario_number", T_I32, 0, 0, 0},
                              {"request_rerun", T_BOOL, 0, 0, 0},
                              {"reason_for_rerun", T_STR, 0, 0, 0},
                              END};
const field q_asg_issue[] = {
    {"worker_id", T_U8, 0, 0, 0}, {"issue_id", T_U8, 0, 0, 0}, {"message", T_STR, 0, 0, 0}, END};
const field a_asg_received[] = {{"received", T_BOOL, 0, 0, 0}, END};
const field a_asg_notify[] = {{"received", T_BOOL, 0, 0, 0}, {"accepted", T_BOOL, 0, 0, 0}, END};

/* the RTI entity channels (rti.h; field names as the RTI's Entity, EntityPosition, EntityOperation) */
const field f_rti_euler[] = {
    {"roll", T_F64, 0, 0, 0}, {"pitch", T_F64, 0, 0, 0}, {"yaw", T_F64, 0, 0, 0}, END};
const field f_rti_velocity[] = {
    {"forward", T_F64, 0, 0, 0}, {"right", T_F64, 0, 0, 0}, {"up", T_F64, 0, 0, 0}, END};
const field f_rti_position[] = {
    {"id", T_STR, 0, 0, 0},
    {"stamp", T_TIME, 0, 0, "builtin_interfaces/Time"},
    {"local", T_MSG, 0, f_vec3, "geometry_msgs/Point"},
    {"local_rotation", T_MSG, 0, f_quat, "geometry_msgs/Quaternion"},
    {"euler_rotation", T_MSG, 0, f_rti_euler, "planbench_interfaces/EulerRotation"},
    {"velocity", T_MSG, 0, f_rti_velocity, "planbench_interfaces/VelocityVector"},
    {"acceleration", T_MSG, 0, f_rti_velocity, "planbench_interfaces/VelocityVector"},
    {"angular_velocity", T_MSG, 0, f_rti_euler, "planbench_interfaces/EulerRotation"},
    END};
const field f_rti_dimensions[] = {{"length", T_F64, 0, 0, 0},
                                  {"width", T_F64, 0, 0, 0},
                                  {"height", T_F64, 0, 0, 0},
                                  {"center", T_MSG, 0, f_vec3, "geometry_msgs/Point"},
                                  END};
const field f_rti_color[] = {
    {"red", T_I32, 0, 0, 0}, {"green", T_I32, 0, 0, 0}, {"blue", T_I32, 0, 0, 0}, END};
const field f_rti_entity[] = {{"id", T_STR, 0, 0, 0},
                              {"owner_client_id", T_STR, 0, 0, 0},
                              {"position", T_MSG, 0, f_rti_position, "planbench_interfaces/EntityPosition"},
                              {"type", T_STR, 0, 0, 0},
                              {"category", T_I32, 0, 0, 0},
                              {"domain", T_I32, 0, 0, 0},
                              {"dimensions", T_MSG, 0, f_rti_dimensions, "planbench_interfaces/Dimensions"},
                              {"color", T_MSG, 0, f_rti_color, "planbench_interfaces/Color"},
                              {"title", T_STR, 0, 0, 0},
                              {"disabled", T_BOOL, 0, 0, 0},
                              {"deleted", T_BOOL, 0, 0, 0},
                              END};
const field f_rti_entity_client[] = {{"entity_id", T_STR, 0, 0, 0}, {"client_id", T_STR, 0, 0, 0}, END};
const field f_rti_operation[] = {
    {"request_update", T_BOOL, 0, 0, 0},
    {"entity_id", T_STR, 0, 0, 0},
    {"transfer_ownership", T_MSG, 0, f_rti_entity_client, "planbench_interfaces/EntityClient"},
    {"assume_ownership", T_MSG, 0, f_rti_entity_client, "planbench_interfaces/EntityClient"},
    {"release_ownership", T_MSG, 0, f_rti_entity_client, "planbench_interfaces/EntityClient"},
    {"claim_ownership", T_MSG, 0, f_rti_entity_client, "planbench_interfaces/EntityClient"},
    END};
const field f_rti_vehicle_state[] = {{"id", T_STR, 0, 0, 0},
                                     {"stamp", T_TIME, 0, 0, "builtin_interfaces/Time"},
                                     {"gear", T_STR, 0, 0, 0},
                                     {"steer", T_F64, 0, 0, 0},
                                     {"signal", T_STR, 0, 0, 0},
                                     {"blink", T_BOOL, 0, 0, 0},
                                     {"brake_light", T_BOOL, 0, 0, 0},
                                     {"speed", T_F64, 0, 0, 0},
                                     END};
const field a_client_id[] = {{"client_id", T_STR, 0, 0, 0}, END};

/* replies (rosapi's service_response_details: the fields the services write) */
#define NIL                                                                                                  \
    {                                                                                                        \
        NULL, T_BOOL, 0, NULL, NULL                                                                          \
    }
#define RESULT                                                                                               \
    {                                                                                                        \
        "result", T_MSG, 0, f_result, "simulation_interfaces/Result"                                         \
    }
const field f_result[] = {{"result", T_U8, 0, 0, 0}, {"error_message", T_STR, 0, 0, 0}, NIL};
const field f_features[] = {
    {"features", T_U16, 1, 0, 0}, {"spawn_formats", T_STR, 1, 0, 0}, {"custom_info", T_STR, 0, 0, 0}, NIL};
const field f_named_pose[] = {{"name", T_STR, 0, 0, 0},
                              {"description", T_STR, 0, 0, 0},
                              {"tags", T_STR, 1, 0, 0},
                              {"pose", T_MSG, 0, f_pose, "geometry_msgs/Pose"},
                              NIL};
const field f_spawnable[] = {{"entity_resource", T_MSG, 0, f_resource, "simulation_interfaces/Resource"},
                             {"uri", T_STR, 0, 0, 0},
                             {"description", T_STR, 0, 0, 0},
                             {"spawn_bounds", T_MSG, 0, f_bounds, "simulation_interfaces/Bounds"},
                             NIL};
const field f_world[] = {{"name", T_STR, 0, 0, 0},
                         {"world_resource", T_MSG, 0, f_resource, "simulation_interfaces/Resource"},
                         {"description", T_STR, 0, 0, 0},
                         {"tags", T_STR, 1, 0, 0},
                         NIL};
const field a_result[] = {RESULT, NIL};
const field a_features[] = {{"features", T_MSG, 0, f_features, "simulation_interfaces/SimulatorFeatures"},
                            NIL};
const field a_spawn[] = {RESULT, {"entity_name", T_STR, 0, 0, 0}, NIL};
const field a_spawns[] = {RESULT, {"results", T_MSG, 1, f_result, "simulation_interfaces/Result"}, NIL};
const field a_entities[] = {RESULT, {"entities", T_STR, 1, 0, 0}, NIL};
const field a_states[] = {RESULT,
                          {"entities", T_STR, 1, 0, 0},
                          {"states", T_MSG, 1, f_state, "simulation_interfaces/EntityState"},
                          NIL};
const field a_state[] = {RESULT, {"state", T_MSG, 0, f_state, "simulation_interfaces/EntityState"}, NIL};
const field a_info[] = {RESULT, {"info", T_MSG, 0, f_info, "simulation_interfaces/EntityInfo"}, NIL};
const field a_bounds[] = {RESULT, {"bounds", T_MSG, 0, f_bounds, "simulation_interfaces/Bounds"}, NIL};
const field a_named_poses[] = {
    RESULT, {"poses", T_MSG, 1, f_named_pose, "simulation_interfaces/NamedPose"}, NIL};
const field a_spawnables[] = {
    RESULT, {"spawnables", T_MSG, 1, f_spawnable, "simulation_interfaces/Spawnable"}, NIL};
const field a_sim_state[] = {
    RESULT, {"state", T_MSG, 0, f_sim_state, "simulation_interfaces/SimulationState"}, NIL};
const field a_world[] = {RESULT, {"world", T_MSG, 0, f_world, "simulation_interfaces/WorldResource"}, NIL};
const field a_worlds[] = {RESULT, {"worlds", T_MSG, 1, f_world, "simulation_interfaces/WorldResource"}, NIL};
const field a_plan[] = {RESULT,
                        {"outcome", T_STR, 0, 0, 0},
                        {"path", T_MSG, 1, f_pose, "geometry_msgs/Pose"},
                        {"cost", T_F64, 0, 0, 0},
                        {"planning_time", T_F64, 0, 0, 0},
                        {"joint_names", T_STR, 1, 0, 0},
                        {"joint_positions", T_F64, 1, 0, 0},
                        NIL};
const field a_joints[] = {RESULT, {"joint_names", T_STR, 1, 0, 0}, {"positions", T_F64, 1, 0, 0}, NIL};
const field a_cancel[] = {
    {"return_code", T_I32, 0, 0, 0}, {"goals_canceling", T_MSG, 1, f_goal_info, "action_msgs/GoalInfo"}, NIL};
#undef RESULT
#undef NIL

/* what the server publishes (topics.c, rosbridge.c) */
const field f_time[] = {{"sec", T_I32, 0, 0, 0}, {"nanosec", T_U32, 0, 0, 0}, END};
const field f_clock[] = {{"clock", T_TIME, 0, 0, "builtin_interfaces/Time"}, END};
const field f_transform[] = {{"translation", T_MSG, 0, f_vec3, "geometry_msgs/Vector3"},
                             {"rotation", T_MSG, 0, f_quat, "geometry_msgs/Quaternion"},
                             END};
const field f_transform_stamped[] = {{"header", T_MSG, 0, f_header, "std_msgs/Header"},
                                     {"child_frame_id", T_STR, 0, 0, 0},
                                     {"transform", T_MSG, 0, f_transform, "geometry_msgs/Transform"},
                                     END};
const field f_tf[] = {{"transforms", T_MSG, 1, f_transform_stamped, "geometry_msgs/TransformStamped"}, END};
const field f_pose_cov[] = {
    {"pose", T_MSG, 0, f_pose, "geometry_msgs/Pose"}, {"covariance", T_F64, 36, 0, 0}, END};
const field f_twist_cov[] = {
    {"twist", T_MSG, 0, f_twist, "geometry_msgs/Twist"}, {"covariance", T_F64, 36, 0, 0}, END};
const field f_odometry[] = {{"header", T_MSG, 0, f_header, "std_msgs/Header"},
                            {"child_frame_id", T_STR, 0, 0, 0},
                            {"pose", T_MSG, 0, f_pose_cov, "geometry_msgs/PoseWithCovariance"},
                            {"twist", T_MSG, 0, f_twist_cov, "geometry_msgs/TwistWithCovariance"},
                            END};
const field f_joint_state[] = {{"header", T_MSG, 0, f_header, "std_msgs/Header"},
                               {"name", T_STR, 1, 0, 0},
                               {"position", T_F64, 1, 0, 0},
                               {"velocity", T_F64, 1, 0, 0},
                               {"effort", T_F64, 1, 0, 0},
                               END};
const field f_entity_event[] = {{"event", T_STR, 0, 0, 0}, {"entity", T_STR, 0, 0, 0}, END};
const field f_entity_states[] = {{"stamp", T_TIME, 0, 0, "builtin_interfaces/Time"},
                                 {"entities", T_STR, 1, 0, 0},
                                 {"states", T_MSG, 1, f_state, "simulation_interfaces/EntityState"},
                                 END};
/* a vehicle's topics: Autoware's messages (autoware_msgs, tier4_autoware_msgs); float32
 * fields are JSON numbers as float64 ones are */
#define STAMP                                                                                                \
    {                                                                                                        \
        "stamp", T_TIME, 0, 0, "builtin_interfaces/Time"                                                     \
    }
const field f_control_lateral[] = {STAMP,
                                   {"steering_tire_angle", T_F64, 0, 0, 0},
                                   {"steering_tire_rotation_rate", T_F64, 0, 0, 0},
                                   {"is_defined_steering_tire_rotation_rate", T_BOOL, 0, 0, 0},
                                   END};
const field f_control_longitudinal[] = {STAMP,
                                        {"velocity", T_F64, 0, 0, 0},
                                        {"acceleration", T_F64, 0, 0, 0},
                                        {"jerk", T_F64, 0, 0, 0},
                                        {"is_defined_acceleration", T_BOOL, 0, 0, 0},
                                        {"is_defined_jerk", T_BOOL, 0, 0, 0},
                                        END};
const field f_control[] = {
    STAMP,
    {"control_time", T_TIME, 0, 0, "builtin_interfaces/Time"},
    {"lateral", T_MSG, 0, f_control_lateral, "autoware_control_msgs/Lateral"},
    {"longitudinal", T_MSG, 0, f_control_longitudinal, "autoware_control_msgs/Longitudinal"},
    END};
const field f_command_u8[] = {STAMP, {"command", T_U8, 0, 0, 0}, END};
const field f_report_u8[] = {STAMP, {"report", T_U8, 0, 0, 0}, END};
const field f_emergency[] = {STAMP, {"emergency", T_BOOL, 0, 0, 0}, END};
const field f_velocity_report[] = {{"header", T_MSG, 0, f_header, "std_msgs/Header"},
                                   {"longitudinal_velocity", T_F64, 0, 0, 0},
                                   {"lateral_velocity", T_F64, 0, 0, 0},
                                   {"heading_rate", T_F64, 0, 0, 0},
                                   END};
const field f_steering_report[] = {STAMP, {"steering_tire_angle", T_F64, 0, 0, 0}, END};
#undef STAMP
#undef END

const schema_type schema_types[] = {
    {"autoware_control_msgs/msg/Control", f_control},
    {"autoware_control_msgs/msg/Lateral", f_control_lateral},
    {"autoware_control_msgs/msg/Longitudinal", f_control_longitudinal},
    {"autoware_vehicle_msgs/msg/GearCommand", f_command_u8},
    {"autoware_vehicle_msgs/msg/TurnIndicatorsCommand", f_command_u8},
    {"autoware_vehicle_msgs/msg/HazardLightsCommand", f_command_u8},
    {"tier4_vehicle_msgs/msg/VehicleEmergencyStamped", f_emergency},
    {"autoware_vehicle_msgs/msg/VelocityReport", f_velocity_report},
    {"autoware_vehicle_msgs/msg/SteeringReport", f_steering_report},
    {"autoware_vehicle_msgs/msg/GearReport", f_report_u8},
    {"autoware_vehicle_msgs/msg/TurnIndicatorsReport", f_report_u8},
    {"autoware_vehicle_msgs/msg/HazardLightsReport", f_report_u8},
    {"builtin_interfaces/msg/Time", f_time},
    {"std_msgs/msg/Header", f_header},
    {"geometry_msgs/msg/Vector3", f_vec3},
    {"geometry_msgs/msg/Point", f_vec3},
    {"geometry_msgs/msg/Quaternion", f_quat},
    {"geometry_msgs/msg/Pose", f_pose},
    {"geometry_msgs/msg/PoseStamped", f_pose_stamped},
    {"geometry_msgs/msg/Twist", f_twist},
    {"geometry_msgs/msg/Accel", f_twist},
    {"geometry_msgs/msg/Transform", f_transform},
    {"geometry_msgs/msg/TransformStamped", f_transform_stamped},
    {"geometry_msgs/msg/PoseWithCovariance", f_pose_cov},
    {"geometry_msgs/msg/TwistWithCovariance", f_twist_cov},
    {"rosgraph_msgs/msg/Clock", f_clock},
    {"tf2_msgs/msg/TFMessage", f_tf},
    {"nav_msgs/msg/Odometry", f_odometry},
    {"sensor_msgs/msg/JointState", f_joint_state},
    {"trajectory_msgs/msg/JointTrajectory", f_trajectory},
    {"trajectory_msgs/msg/JointTrajectoryPoint", f_trajectory_point},
    {"simulation_interfaces/msg/EntityState", f_state},
    {"simulation_interfaces/msg/Resource", f_resource},
    {"simulation_interfaces/msg/TagsFilter", f_tags_filter},
    {"simulation_interfaces/msg/Bounds", f_bounds},
    {"simulation_interfaces/msg/EntityCategory", f_category},
    {"simulation_interfaces/msg/EntityFilters", f_filters},
    {"simulation_interfaces/msg/EntityInfo", f_info},
    {"simulation_interfaces/msg/SimulationState", f_sim_state},
    {"simulation_interfaces/srv/SpawnEntity_Request", f_spawn_msg},
    {"planbench_interfaces/msg/EntityEvent", f_entity_event},
    {"planbench_interfaces/action/FollowPath_Goal", q_follow},
    {"planbench_interfaces/msg/Entity", f_rti_entity},
    {"planbench_interfaces/msg/EntityPosition", f_rti_position},
    {"planbench_interfaces/msg/EntityOperation", f_rti_operation},
    {"planbench_interfaces/msg/EntityClient", f_rti_entity_client},
    {"planbench_interfaces/msg/VehicleState", f_rti_vehicle_state},
    {"planbench_interfaces/msg/EulerRotation", f_rti_euler},
    {"planbench_interfaces/msg/VelocityVector", f_rti_velocity},
    {"planbench_interfaces/msg/Dimensions", f_rti_dimensions},
    {"planbench_interfaces/msg/Color", f_rti_color},
    {"planbench_interfaces/action/RunScenario_Goal", q_asg_run},
    {"auto_scene_gen_msgs/msg/LandscapeDescription", f_asg_landscape},
    {"auto_scene_gen_msgs/msg/StructuralSceneActorLayout", f_asg_layout},
    {"auto_scene_gen_msgs/msg/SceneDescription", f_asg_scene},
    {"auto_scene_gen_msgs/msg/SceneCaptureSettings", f_asg_capture_settings},
    {"planbench_interfaces/msg/EntityStates", f_entity_states},
    {"unique_identifier_msgs/msg/UUID", f_goal_id},
    {"action_msgs/msg/GoalInfo", f_goal_info},
    {"simulation_interfaces/msg/Result", f_result},
    {"simulation_interfaces/msg/SimulatorFeatures", f_features},
    {"simulation_interfaces/msg/NamedPose", f_named_pose},
    {"simulation_interfaces/msg/Spawnable", f_spawnable},
    {"simulation_interfaces/msg/WorldResource", f_world},
    {NULL, NULL},
};
