#include "planbench/path.h"
#include "io/atomic_file.h"

pb_status pb_path_save_csv(const pb_path *path, const char *file, pb_diag *diag)
{
    pb_atomic_file out;
    pb_status st = pb_atomic_file_open(&out, file, diag);
    if (st != PB_OK)
        return st;
    for (size_t i = 0; i < path->n; i++) {
        const double *q = pb_path_at(path, i);
        for (int k = 0; k < path->dim; k++)
            fprintf(out.fp, k ? ",%.17g" : "%.17g", q[k]);
        fputc('\n', out.fp);
    }
    return pb_atomic_file_commit(&out, diag);
}
