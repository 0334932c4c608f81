/* Paths to files: CSV, with a header of coordinate names when the engine has them, and
 * ROS's trajectory_msgs/JointTrajectory as JSON (jansson). */
#include "planbench/path.h"
#include "io/atomic_file.h"

#include <jansson.h>
#include <math.h>
#include <string.h>
#include <strings.h>

static void write_rows(FILE *fp, const pb_path *path)
{
    for (size_t i = 0; i < path->n; i++) {
        const double *q = pb_path_at(path, i);
        for (int k = 0; k < path->dim; k++)
            fprintf(fp, k ? ",%.17g" : "%.17g", q[k]);
        fputc('\n', fp);
    }
}

pb_status pb_path_save_csv(const pb_path *path, const char *file, pb_diag *diag)
{
    pb_atomic_file out;
    pb_status st = pb_atomic_file_open(&out, file, diag);
    if (st != PB_OK)
        return st;
    write_rows(out.fp, path);
    return pb_atomic_file_commit(&out, diag);
}

/* {"joint_names": [...], "points": [{"positions": [...], "velocities": [], "accelerations": [],
 * "effort": [], "time_from_start": {"sec": S, "nanosec": N}}, ...]}: a waypoint's time is the
 * path's length up to it at 1 unit (radian, metre) per second in the joint that moves most on
 * each edge: a timing for tools that need one, not a time parameterisation. */
static pb_status save_joint_trajectory(const pb_path *path, const char *file, const char *const *names,
                                       pb_diag *diag)
{
    json_t *root = json_object(), *joints = json_array(), *points = json_array();
    bool ok = root && joints && points;
    if (ok) {
        json_object_set(root, "joint_names", joints);
        json_object_set(root, "points", points);
    }
    for (int k = 0; ok && k < path->dim; k++)
        ok = json_array_append_new(joints, json_string(names[k])) == 0;
    double t = 0.0;
    for (size_t i = 0; ok && i < path->n; i++) {
        const double *q = pb_path_at(path, i);
        if (i > 0) {
            const double *p = pb_path_at(path, i - 1);
            double step = 0.0;
            for (int k = 0; k < path->dim; k++)
                step = fmax(step, fabs(q[k] - p[k]));
            t += step;
        }
        json_t *positions = json_array();
        for (int k = 0; positions && k < path->dim; k++)
            ok = ok && json_array_append_new(positions, json_real(q[k])) == 0;
        const double sec = floor(t);
        const json_int_t nanosec = (json_int_t)fmin(999999999.0, round((t - sec) * 1e9));
        json_t *point = json_pack("{s:o, s:[], s:[], s:[], s:{s:I, s:I}}", "positions", positions,
                                  "velocities", "accelerations", "effort", "time_from_start", "sec",
                                  (json_int_t)sec, "nanosec", nanosec);
        ok = ok && point && json_array_append_new(points, point) == 0;
    }
    json_decref(joints);
    json_decref(points);
    if (!ok) {
        json_decref(root);
        pb_diag_set(diag, file, 0, 0, "out of memory");
        return PB_ERR_NOMEM;
    }
    pb_atomic_file out;
    pb_status st = pb_atomic_file_open(&out, file, diag);
    if (st == PB_OK) {
        json_dumpf(root, out.fp, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
        fputc('\n', out.fp);
        st = pb_atomic_file_commit(&out, diag);
    }
    json_decref(root);
    return st;
}

pb_status pb_path_save_named(const pb_path *path, const char *file, const char *const *names, pb_diag *diag)
{
    const size_t len = strlen(file);
    if (len > 5 && strcasecmp(file + len - 5, ".json") == 0)
        return save_joint_trajectory(path, file, names, diag);
    pb_atomic_file out;
    pb_status st = pb_atomic_file_open(&out, file, diag);
    if (st != PB_OK)
        return st;
    for (int k = 0; k < path->dim; k++)
        fprintf(out.fp, k ? ",%s" : "%s", names[k]);
    fputc('\n', out.fp);
    write_rows(out.fp, path);
    return pb_atomic_file_commit(&out, diag);
}
