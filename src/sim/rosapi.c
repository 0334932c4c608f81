/* rosapi introspection, as ROS 2's rosapi node answers it: the topics (the world's and each
 * entity's), services and actions with their types, the type definitions of every message
 * (message_details, service_request_details, service_response_details: the `typedefs` lists
 * roslibjs decodes), the world's parameters, the node. Types are described from the same
 * tables that check requests (schema.c). */
#include "rosapi.h"
#include "topics.h"

#include <stdio.h>
#include <string.h>

#define NODE "/planbench_sim"

static const char *str_arg(const json_t *args, const char *key)
{
    const json_t *v = args ? json_object_get(args, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : "";
}

/* "geometry_msgs/Pose" and "geometry_msgs/msg/Pose" name one type: the long form. */
static void long_name(const char *type, char *out, size_t size)
{
    const char *slash = strchr(type, '/');
    if (!slash || strstr(type, "/msg/") || strstr(type, "/srv/") || strstr(type, "/action/"))
        snprintf(out, size, "%s", type);
    else
        snprintf(out, size, "%.*s/msg/%s", (int)(slash - type), type, slash + 1);
}

static const field *find_type(const char *type)
{
    char name[200];
    long_name(type, name, sizeof name);
    for (const schema_type *t = schema_types; t->name; t++)
        if (strcmp(t->name, name) == 0)
            return t->fields;
    return NULL;
}

static const char *field_type(const field *f)
{
    switch (f->type) {
    case T_BOOL:
        return "bool";
    case T_U8:
        return "uint8";
    case T_U16:
        return "uint16";
    case T_I32:
        return "int32";
    case T_U32:
        return "uint32";
    case T_U64:
        return "uint64";
    case T_F64:
        return "float64";
    case T_STR:
        return "string";
    case T_TIME:
        return "builtin_interfaces/Time";
    default:
        return f->ros ? f->ros : "";
    }
}

/* The typedef of message `fields` named `type`, then those of the messages it holds (each
 * once: `seen`). */
static void add_typedefs(json_t *list, const char *type, const field *fields, json_t *seen)
{
    char name[200];
    long_name(type, name, sizeof name);
    if (json_object_get(seen, name))
        return;
    json_object_set_new(seen, name, json_true());
    json_t *names = json_array(), *types = json_array(), *lens = json_array(), *examples = json_array();
    for (const field *f = fields; f->name; f++) {
        json_array_append_new(names, json_string(f->name));
        json_array_append_new(types, json_string(field_type(f)));
        json_array_append_new(lens, json_integer(f->array == 0 ? -1 : f->array == 1 ? 0 : f->array));
        json_array_append_new(examples, json_string(f->array ? "[]" : f->type == T_MSG ? "{}" : ""));
    }
    json_array_append_new(list, json_pack("{s:s,s:o,s:o,s:o,s:o,s:[],s:[]}", "type", name, "fieldnames",
                                          names, "fieldtypes", types, "fieldarraylen", lens, "examples",
                                          examples, "constnames", "constvalues"));
    for (const field *f = fields; f->name; f++) {
        if (f->type == T_MSG && f->sub)
            add_typedefs(list, f->ros, f->sub, seen);
        else if (f->type == T_TIME)
            add_typedefs(list, "builtin_interfaces/msg/Time", f_time, seen);
    }
}

static json_t *typedefs(const char *type, const field *fields)
{
    json_t *list = json_array(), *seen = json_object();
    if (fields)
        add_typedefs(list, type, fields, seen);
    json_decref(seen);
    return json_pack("{s:o}", "typedefs", list);
}

/* Every topic now: the world's, then each entity's odom and, for articulated ones,
 * joint_states, and its cmd_vel. */
static json_t *all_topics(pb_sim *sim, const char *only_type)
{
    json_t *topics = json_array(), *types = json_array();
    static const rb_topic world[] = {
        RB_TOPIC_ENTITY_EVENTS,   RB_TOPIC_ENTITY_STATES, RB_TOPIC_CLOCK,        RB_TOPIC_TF,
        RB_TOPIC_TF_STATIC,       RB_TOPIC_RTI_ENTITY,    RB_TOPIC_RTI_ENTITIES, RB_TOPIC_RTI_POSITION,
        RB_TOPIC_RTI_VEHICLESTATE};
    static const char *const world_names[] = {
        "/entity_events", "/entity_states", "/clock",           "/tf", "/tf_static", "/rti/entity",
        "/rti/entities",  "/rti/position",  "/rti/vehiclestate"};
    for (size_t i = 0; i < sizeof world / sizeof world[0]; i++)
        if (!only_type || strcmp(rb_topic_type(world[i]), only_type) == 0) {
            json_array_append_new(topics, json_string(world_names[i]));
            json_array_append_new(types, json_string(rb_topic_type(world[i])));
        }
    pb_sim_result r;
    const char *const *names;
    size_t n = 0;
    pb_sim_get_entities(sim, NULL, &r, &names, &n);
    static const struct {
        rb_topic topic;
        const char *suffix;
    } per[] = {{RB_TOPIC_ODOM, "odom"},
               {RB_TOPIC_JOINT_STATES, "joint_states"},
               {RB_TOPIC_CMD_VEL, "cmd_vel"},
               {RB_TOPIC_JOINT_COMMANDS, "joint_commands"}};
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < 3; k++) {
            if (per[k].topic == RB_TOPIC_JOINT_STATES &&
                pb_sim_get_entity_joints(sim, names[i], NULL, NULL) == 0)
                continue;
            if (only_type && strcmp(rb_topic_type(per[k].topic), only_type) != 0)
                continue;
            json_array_append_new(topics, json_sprintf("/%s/%s", names[i], per[k].suffix));
            json_array_append_new(types, json_string(rb_topic_type(per[k].topic)));
        }
    /* a vehicle's: Autoware's command and status topics */
    for (size_t i = 0; i < n; i++) {
        pb_sim_vehicle_status status;
        if (!pb_sim_get_vehicle_status(sim, names[i], &status))
            continue;
        for (int t = 0; t < RB_TOPIC_COUNT; t++) {
            if (!rb_topic_is_vehicle((rb_topic)t) ||
                (only_type && strcmp(rb_topic_type((rb_topic)t), only_type) != 0))
                continue;
            json_array_append_new(topics, json_sprintf("/%s/%s", names[i], rb_topic_suffix((rb_topic)t)));
            json_array_append_new(types, json_string(rb_topic_type((rb_topic)t)));
        }
    }
    return json_pack("{s:o,s:o}", "topics", topics, "types", types);
}

json_t *rosapi_call(pb_sim *sim, const char *name, const json_t *args, const rosapi_service *services,
                    size_t n_services, int worker_id)
{
    if (strncmp(name, "rosapi/", 7) != 0)
        return NULL;
    const char *call = name + 7;
    if (strcmp(call, "services") == 0) {
        json_t *a = json_array();
        for (size_t i = 0; i < n_services; i++)
            json_array_append_new(a, json_sprintf("/%s", services[i].name));
        return json_pack("{s:o}", "services", a);
    }
    if (strcmp(call, "service_type") == 0) {
        const char *svc = str_arg(args, "service");
        svc += svc[0] == '/';
        for (size_t i = 0; i < n_services; i++)
            if (strcmp(services[i].name, svc) == 0)
                return json_pack("{s:s}", "type", services[i].type);
        return json_pack("{s:s}", "type", "");
    }
    if (strcmp(call, "services_for_type") == 0) {
        json_t *a = json_array();
        for (size_t i = 0; i < n_services; i++)
            if (strcmp(services[i].type, str_arg(args, "type")) == 0)
                json_array_append_new(a, json_sprintf("/%s", services[i].name));
        return json_pack("{s:o}", "services", a);
    }
    if (strcmp(call, "service_request_details") == 0 || strcmp(call, "service_response_details") == 0) {
        const char *type = str_arg(args, "type");
        const bool request = strncmp(call, "service_request", 15) == 0;
        for (size_t i = 0; i < n_services; i++)
            if (strcmp(services[i].type, type) == 0) {
                char msg[200];
                snprintf(msg, sizeof msg, "%s_%s", type, request ? "Request" : "Response");
                return typedefs(msg, request ? services[i].request : services[i].response);
            }
        return json_pack("{s:[]}", "typedefs");
    }
    if (strcmp(call, "action_servers") == 0) {
        json_t *list = json_pack("[s,s]", "/simulate_steps", "/follow_path");
        if (worker_id >= 0)
            json_array_append_new(list, json_sprintf("/asg_worker%d/run_scenario_action", worker_id));
        return json_pack("{s:o}", "action_servers", list);
    }
    if (strcmp(call, "topics") == 0)
        return all_topics(sim, NULL);
    if (strcmp(call, "topics_for_type") == 0) {
        json_t *both = all_topics(sim, str_arg(args, "type"));
        json_t *topics = json_incref(json_object_get(both, "topics"));
        json_decref(both);
        return json_pack("{s:o}", "topics", topics);
    }
    if (strcmp(call, "topic_type") == 0) {
        rb_topic t;
        char entity[PB_SIM_FRAME_ID_SIZE];
        const bool known =
            rb_topic_parse(str_arg(args, "topic"), &t, entity, sizeof entity) &&
            (!rb_topic_is_per_entity(t) || pb_sim_get_entity_joints(sim, entity, NULL, NULL) > 0 ||
             t != RB_TOPIC_JOINT_STATES);
        pb_sim_vehicle_status status;
        if (known && rb_topic_is_vehicle(t) && !pb_sim_get_vehicle_status(sim, entity, &status))
            return json_pack("{s:s}", "type", "");
        return json_pack("{s:s}", "type", known ? rb_topic_type(t) : "");
    }
    if (strcmp(call, "message_details") == 0) {
        const char *type = str_arg(args, "type");
        return typedefs(type, find_type(type));
    }
    if (strcmp(call, "get_param_names") == 0)
        return json_pack("{s:[s,s,s,s]}", "names", NODE ":time_step", NODE ":use_sim_time",
                         NODE ":map_resolution", NODE ":map_origin");
    if (strcmp(call, "get_param") == 0) {
        const char *param = str_arg(args, "name");
        char value[128];
        pb_map_frame frame;
        if (strcmp(param, NODE ":time_step") == 0 || strcmp(param, "time_step") == 0)
            snprintf(value, sizeof value, "%.17g", pb_sim_time_step(sim));
        else if (strcmp(param, NODE ":use_sim_time") == 0 || strcmp(param, "use_sim_time") == 0)
            snprintf(value, sizeof value, "true");
        else if (strcmp(param, NODE ":map_resolution") == 0 && pb_sim_get_map_frame(sim, &frame))
            snprintf(value, sizeof value, "%.17g", frame.resolution);
        else if (strcmp(param, NODE ":map_origin") == 0 && pb_sim_get_map_frame(sim, &frame))
            snprintf(value, sizeof value, "[%.17g, %.17g, %.17g]", frame.origin[0], frame.origin[1],
                     frame.origin[2]);
        else
            snprintf(value, sizeof value, "%s", str_arg(args, "default_value"));
        return json_pack("{s:s}", "value", value);
    }
    if (strcmp(call, "nodes") == 0)
        return json_pack("{s:[s]}", "nodes", NODE);
    if (strcmp(call, "node_details") == 0) {
        json_t *subscribing = json_array(), *publishing = json_array(), *svcs = json_array();
        json_t *topics = all_topics(sim, NULL);
        json_t *names = json_object_get(topics, "topics");
        for (size_t i = 0; i < json_array_size(names); i++) {
            const char *t = json_string_value(json_array_get(names, i));
            const size_t len = strlen(t);
            const bool in = (len > 8 && strcmp(t + len - 8, "/cmd_vel") == 0) ||
                            (len > 15 && strcmp(t + len - 15, "/joint_commands") == 0);
            json_array_append_new(in ? subscribing : publishing, json_string(t));
        }
        json_decref(topics);
        for (size_t i = 0; i < n_services; i++)
            json_array_append_new(svcs, json_sprintf("/%s", services[i].name));
        return json_pack("{s:o,s:o,s:o}", "subscribing", subscribing, "publishing", publishing, "services",
                         svcs);
    }
    return NULL;
}
