/* planbench simulate VEHICLE.xml: the vehicle model (include/planbench/vehicle.h) driven by an
 * inputs file, its trajectory as JSON or CSV (issue 18). */
#include "cli.h"
#include "planbench/impl/engine_impl.h"
#include "planbench/vehicle.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char simulate_usage[] =
    "usage: planbench simulate VEHICLE.xml [--state X,Y,YAW[,V[,STEER]]] [--inputs FILE.csv] [--duration T]\n"
    "                          [--dt DT] [--model NAME] [--map MAP.yaml] [--json] [--csv FILE]\n"
    "  Run the vehicle model (kinematic single track, AWSIM's gear and sleep rules) from a state, for\n"
    "  --duration seconds (default: to the last input row, else 10) in steps of --dt (0.01). The inputs\n"
    "  CSV has the columns t,acceleration,steer_angle,gear,signal (a header line first); each row holds\n"
    "  from its t until the next; gear PARKING, REVERSE, NEUTRAL, DRIVE (or Autoware's 22, 20, 1, 2),\n"
    "  signal NONE, LEFT, RIGHT, HAZARD. Without --inputs: DRIVE, no acceleration, no steer. SI units,\n"
    "  radians, steer positive = left. --json prints {\"trajectory\": [...], \"events\": [...]}; --csv\n"
    "  writes one row per step. --model picks the model (kinematic, delay, dynamic, commonroad_ks; default "
    "the\n"
    "  file's); commonroad_ks's CSV has the columns t,steer_rate,acceleration. --map validates every step\n"
    "  against a metric map (the footprint swept): a contact stops the vehicle at the last free pose and is "
    "a\n"
    "  collision event.\n";

static void json_state(FILE *out, const pb_vehicle_state *s, bool first)
{
    fprintf(out, "%s{\"t\": ", first ? "" : ", ");
    pb_json_write_number(out, s->time);
    const struct {
        const char *name;
        double v;
    } f[] = {{"x", s->x},
             {"y", s->y},
             {"yaw", s->yaw},
             {"v", s->v},
             {"steer", s->steer},
             {"acceleration", s->acceleration},
             {"angular_velocity", s->angular_velocity}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        fprintf(out, ", \"%s\": ", f[i].name);
        pb_json_write_number(out, f[i].v);
    }
    fprintf(out, ", \"gear\": \"%s\", \"signal\": \"%s\", \"signal_lit\": %s, \"sleeping\": %s}",
            pb_gear_name(s->gear), pb_turn_signal_name(s->signal),
            pb_vehicle_signal_lit(s) ? "true" : "false", s->sleeping ? "true" : "false");
}

int cli_simulate(int argc, char **argv)
{
    const char *vehicle_path = NULL, *inputs_path = NULL, *csv_path = NULL, *model_name = NULL,
               *map_path = NULL;
    double state[5] = {0, 0, 0, 0, 0}, duration = -1, dt = 0.01;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const bool has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(simulate_usage, stdout);
            return 0;
        } else if (strcmp(a, "--state") == 0 && has_value) {
            const int n = pb_parse_doubles(argv[++i], state, 5);
            if (n < 3) {
                cli_error("--state %s: expected X,Y,YAW[,V[,STEER]]", argv[i]);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(a, "--inputs") == 0 && has_value) {
            inputs_path = argv[++i];
        } else if (strcmp(a, "--csv") == 0 && has_value) {
            csv_path = argv[++i];
        } else if (strcmp(a, "--duration") == 0 && has_value) {
            if (!cli_parse_double("--duration", argv[++i], &duration) || !(duration >= 0) || duration > 1e6) {
                cli_error("--duration %s: expected 0 to 1e6 seconds", argv[i]);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(a, "--dt") == 0 && has_value) {
            if (!cli_parse_double("--dt", argv[++i], &dt) || !(dt >= 1e-6) || dt > 1.0) {
                cli_error("--dt %s: expected 1e-6 to 1 seconds", argv[i]);
                return PB_EXIT_BAD_INPUT;
            }
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--model") == 0 && has_value) {
            model_name = argv[++i];
        } else if (strcmp(a, "--map") == 0 && has_value) {
            map_path = argv[++i];
        } else if (a[0] != '-' && !vehicle_path) {
            vehicle_path = a;
        } else {
            cli_error("simulate: unknown or incomplete argument '%s'", a);
            fputs(simulate_usage, stderr);
            return PB_EXIT_BAD_INPUT;
        }
    }
    if (!vehicle_path) {
        fputs(simulate_usage, stderr);
        return PB_EXIT_BAD_INPUT;
    }
    pb_vehicle_config vehicle;
    pb_diag diag = {0};
    if (pb_vehicle_load(&vehicle, vehicle_path, &diag) != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    if (model_name) {
        vehicle.model = pb_vehicle_model_find(model_name);
        if (!vehicle.model) {
            cli_error("--model %s: unknown model (kinematic, delay, dynamic, commonroad_ks)", model_name);
            return PB_EXIT_BAD_INPUT;
        }
        if (pb_vehicle_config_check(&vehicle, &diag) != PB_OK) {
            cli_error("--model %s: %s: %s", model_name, vehicle_path, diag.message);
            return PB_EXIT_BAD_INPUT;
        }
    }
    const bool rate_columns = strcmp(pb_vehicle_model_name(vehicle.model), "commonroad_ks") == 0;
    /* a map to collide with: every step validated (the footprint swept), a contact an event */
    pb_engine *engine = NULL;
    if (map_path) {
        char resolved[4096];
        if (pb_engine_load(&engine, "image2d", cli_resolve_map(map_path, resolved, sizeof resolved), NULL, 0,
                           &diag) != PB_OK) {
            cli_diag(&diag);
            return PB_EXIT_BAD_INPUT;
        }
        pb_map_frame frame;
        if (!pb_engine_map_frame(engine, &frame) || !frame.metric) {
            cli_error("--map %s: a vehicle drives on a map in metres (a map_server YAML map)", map_path);
            pb_engine_destroy(engine);
            return PB_EXIT_BAD_INPUT;
        }
    }
    pb_vehicle_input_row *rows = NULL;
    size_t n_rows = 0;
    if (inputs_path && pb_vehicle_inputs_load(inputs_path, rate_columns, &rows, &n_rows, &diag) != PB_OK) {
        cli_diag(&diag);
        pb_engine_destroy(engine);
        return PB_EXIT_BAD_INPUT;
    }
    if (duration < 0)
        duration = n_rows ? rows[n_rows - 1].t : 10.0;
    pb_vehicle_state s = pb_vehicle_state_at(state[0], state[1], state[2]);
    s.v = state[3];
    s.steer = state[4];
    s.gear = PB_GEAR_DRIVE;
    s.sleeping = false;
    FILE *csv = NULL;
    pb_atomic_file csv_file;
    if (csv_path) {
        if (pb_atomic_file_open(&csv_file, csv_path, &diag) != PB_OK) {
            cli_diag(&diag);
            free(rows);
            return PB_EXIT_BAD_INPUT;
        }
        csv = csv_file.fp;
        fputs("t,x,y,yaw,v,steer,acceleration,angular_velocity,gear,signal,sleeping\n", csv);
    }
    if (json)
        fputs("{\"vehicle\": ", stdout), pb_json_write_string(stdout, vehicle_path),
            fputs(", \"trajectory\": [", stdout);
    const uint64_t steps = (uint64_t)llround(duration / dt);
    const pb_vehicle_input idle = {.gear = PB_GEAR_DRIVE, .signal = PB_SIGNAL_NONE};
    size_t row = 0;
    bool was_sleeping = s.sleeping, in_contact = false;
    char events[4096] = "";
    size_t events_len = 0;
    for (uint64_t k = 0; k <= steps; k++) {
        if (json)
            json_state(stdout, &s, k == 0);
        if (csv)
            fprintf(csv, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%s,%d\n", s.time, s.x, s.y,
                    s.yaw, s.v, s.steer, s.acceleration, s.angular_velocity, pb_gear_name(s.gear),
                    pb_turn_signal_name(s.signal), s.sleeping);
        if (k == steps)
            break;
        const double t = (double)k * dt;
        while (row + 1 < n_rows && rows[row + 1].t <= t + 1e-12)
            row++;
        const pb_vehicle_input *in = n_rows && rows[0].t <= t + 1e-12 ? &rows[row].input : &idle;
        if (engine) {
            pb_hit hit;
            const bool free = pb_vehicle_step_checked(&vehicle, &s, in, dt, engine, PB_OBSTACLE_NONE, &hit);
            /* one event per contact, not one per step it keeps pushing */
            if (!free && !in_contact && events_len < sizeof events - 200)
                events_len +=
                    (size_t)snprintf(events + events_len, sizeof events - events_len,
                                     "%s{\"t\": %.17g, \"event\": \"collision\", \"x\": %.17g, \"y\": "
                                     "%.17g, \"yaw\": %.17g}",
                                     events_len ? ", " : "", s.time, s.x, s.y, s.yaw);
            in_contact = !free;
        } else {
            pb_vehicle_step(&vehicle, &s, in, dt);
        }
        if (s.sleeping != was_sleeping && events_len < sizeof events - 100)
            events_len += (size_t)snprintf(events + events_len, sizeof events - events_len,
                                           "%s{\"t\": %.17g, \"event\": \"%s\"}", events_len ? ", " : "",
                                           s.time, s.sleeping ? "sleep" : "wake");
        was_sleeping = s.sleeping;
    }
    if (json)
        printf("], \"events\": [%s]}\n", events);
    else if (!csv)
        printf("%s: after %.6g s at (%.6f, %.6f), yaw %.6f, v %.6f, %s%s\n", vehicle_path, s.time, s.x, s.y,
               s.yaw, s.v, pb_gear_name(s.gear), s.sleeping ? ", asleep" : "");
    free(rows);
    pb_engine_destroy(engine);
    if (csv && pb_atomic_file_commit(&csv_file, &diag) != PB_OK) {
        cli_diag(&diag);
        return PB_EXIT_BAD_INPUT;
    }
    return 0;
}
