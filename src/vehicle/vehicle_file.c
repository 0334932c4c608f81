/* Vehicle description files (`<vehicle>`, see docs/vehicles.md), read with the one XML reader
 * (io/xml.h): every number checked, every error naming the file, the line and the field. */
#include "planbench/vehicle.h"
#include "io/xml.h"

#include <libxml/tree.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One numeric attribute into `*out` when present: false (with diag) when it is not a finite
 * number. */
static bool number(const xmlNode *node, const char *name, double *out, const char *file, pb_diag *diag)
{
    char buf[128];
    const char *text = pb_xml_attr(node, name, buf, sizeof buf);
    if (!text)
        return true;
    errno = 0;
    char *end = NULL;
    const double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        pb_diag_set(diag, file, (int)xmlGetLineNo(node), 0, "<%s %s=\"%s\">: not a finite number",
                    (const char *)node->name, name, text);
        if (diag)
            snprintf(diag->option, sizeof diag->option, "%s", name);
        return false;
    }
    *out = v;
    return true;
}

pb_status pb_vehicle_load(pb_vehicle_config *out, const char *path, pb_diag *diag)
{
    return pb_vehicle_parse(out, NULL, 0, path, diag);
}

pb_status pb_vehicle_parse(pb_vehicle_config *out, const char *data, size_t size, const char *path,
                           pb_diag *diag)
{
    *out = pb_vehicle_config_default();
    pb_status st = PB_OK;
    xmlDoc *doc = pb_xml_read(data, size, path, diag, &st);
    if (!doc)
        return st;
    const xmlNode *root = xmlDocGetRootElement(doc);
    st = PB_ERR_INVALID;
    char model[64];
    if (!root || strcmp((const char *)root->name, "vehicle") != 0) {
        pb_diag_set(diag, path, root ? (int)xmlGetLineNo(root) : 0, 0, "the root element must be <vehicle>");
        goto done;
    }
    if (pb_xml_attr(root, "model", model, sizeof model)) {
        out->model = pb_vehicle_model_find(model);
        if (!out->model) {
            pb_diag_set(diag, path, (int)xmlGetLineNo(root), 0,
                        "<vehicle model=\"%s\">: unknown model (kinematic, delay, dynamic, commonroad_ks)",
                        model);
            if (diag)
                snprintf(diag->option, sizeof diag->option, "model");
            goto done;
        }
    }
    for (const xmlNode *n = root->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        const char *e = (const char *)n->name;
        bool ok = true;
        if (strcmp(e, "footprint") == 0)
            ok = number(n, "length", &out->length, path, diag) &&
                 number(n, "width", &out->width, path, diag) &&
                 number(n, "rear_overhang", &out->rear_overhang, path, diag);
        else if (strcmp(e, "chassis") == 0)
            ok = number(n, "wheelbase", &out->wheelbase, path, diag) &&
                 number(n, "tread", &out->tread, path, diag) &&
                 number(n, "wheel_radius", &out->wheel_radius, path, diag) &&
                 number(n, "mass", &out->mass, path, diag);
        else if (strcmp(e, "limits") == 0)
            ok = number(n, "max_steer", &out->max_steer, path, diag) &&
                 number(n, "max_steer_rate", &out->max_steer_rate, path, diag) &&
                 number(n, "max_acceleration", &out->max_acceleration, path, diag) &&
                 number(n, "min_speed", &out->min_speed, path, diag) &&
                 number(n, "max_speed", &out->max_speed, path, diag);
        else if (strcmp(e, "sleep") == 0)
            ok = number(n, "velocity", &out->sleep_velocity, path, diag) &&
                 number(n, "time", &out->sleep_time, path, diag);
        else if (strcmp(e, "delay") == 0) /* Autoware's names, less their prefixes */
            ok = number(n, "acceleration_time_delay", &out->acceleration_time_delay, path, diag) &&
                 number(n, "acceleration_time_constant", &out->acceleration_time_constant, path, diag) &&
                 number(n, "steer_time_delay", &out->steer_time_delay, path, diag) &&
                 number(n, "steer_time_constant", &out->steer_time_constant, path, diag);
        else if (strcmp(e, "dynamic") == 0)
            ok = number(n, "cornering_stiffness_front", &out->cornering_stiffness_front, path, diag) &&
                 number(n, "cornering_stiffness_rear", &out->cornering_stiffness_rear, path, diag) &&
                 number(n, "inertia_z", &out->inertia_z, path, diag) &&
                 number(n, "cg_to_front", &out->cg_to_front, path, diag);
        else if (strcmp(e, "commonroad") == 0)
            ok = number(n, "v_switch", &out->v_switch, path, diag);
        else {
            pb_diag_set(
                diag, path, (int)xmlGetLineNo(n), 0,
                "<%s>: not an element of <vehicle> (footprint, chassis, limits, sleep, delay, dynamic, "
                "commonroad)",
                e);
            goto done;
        }
        if (!ok)
            goto done;
    }
    if (pb_vehicle_config_check(out, diag) != PB_OK) {
        if (diag) { /* the check names the field; say which file */
            char message[sizeof diag->message];
            snprintf(message, sizeof message, "%s", diag->message);
            char option[sizeof diag->option];
            snprintf(option, sizeof option, "%s", diag->option);
            pb_diag_set(diag, path, 0, 0, "%s", message);
            snprintf(diag->option, sizeof diag->option, "%s", option);
        }
        goto done;
    }
    st = PB_OK;
done:
    xmlFreeDoc(doc);
    if (st != PB_OK)
        *out = pb_vehicle_config_default();
    return st;
}
