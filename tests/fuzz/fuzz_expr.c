/* Fuzz target for the black-box engine's expression compiler: any input either compiles
 * to a program that evaluates without a fault, or fails with an error whose column lies
 * inside the text (or just past its end). A compiled program's interval over a few boxes
 * must hold its value at the boxes' corners and centres (the certified edge check's
 * soundness). The register programs (single points and batches) must give the stack
 * program's value bit for bit. */
#include "engines/expr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const size_t length = strlen(text); /* the compiler sees the text up to a NUL byte */

    pb_expr *expr = NULL;
    pb_expr_error error;
    const pb_status status = pb_expr_compile(&expr, text, 4, &error);
    if (status == PB_OK) {
        static const double points[][4] = {
            {0, 0, 0, 0}, {1, -1, 0.5, -0.5}, {-3, 2, 1e300, -1e-300}, {3.14159, -2.5, 7, 1e9}};
        enum { N_POINTS = sizeof points / sizeof points[0] };
        double batch[N_POINTS];
        pb_expr_eval_batch(expr, &points[0][0], N_POINTS, batch);
        for (size_t i = 0; i < N_POINTS; i++) {
            const double value = pb_expr_eval(expr, points[i]);
            if (pb_expr_is_condition(expr) && !(value == 0.0 || value == 1.0))
                abort(); /* conditions are exactly 0 or 1 */
            /* the register programs, single and batch, give the stack program's number */
            const double stack = pb_expr_eval_stack(expr, points[i]);
            if (isnan(value) || isnan(stack) || isnan(batch[i])) {
                if (!(isnan(value) && isnan(stack) && isnan(batch[i])))
                    abort();
            } else if (memcmp(&value, &stack, sizeof value) != 0 ||
                       memcmp(&value, &batch[i], sizeof value) != 0) {
                abort();
            }
        }
        static const double boxes[][2][4] = {
            {{-1, -1, -1, -1}, {1, 1, 1, 1}},
            {{0.5, -2, 3, 0}, {0.6, -1.9, 3.5, 1e-9}},
            {{-1e6, 1e-300, -4, 2}, {1e6, 1e-200, 4, 2}},
        };
        for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++) {
            const double *lo = boxes[b][0], *hi = boxes[b][1];
            const pb_expr_interval v = pb_expr_eval_interval(expr, lo, hi);
            const pb_expr_truth truth = pb_expr_eval_box(expr, lo, hi);
            for (int k = 0; k < 17; k++) {
                double x[4];
                for (int i = 0; i < 4; i++)
                    x[i] = k == 16 ? 0.5 * (lo[i] + hi[i]) : ((k >> i) & 1) ? hi[i] : lo[i];
                const double value = pb_expr_eval(expr, x);
                if (isnan(value) ? !v.nan : !(v.lo <= value && value <= v.hi))
                    abort(); /* the interval misses a value */
                if ((truth == PB_EXPR_TRUE && !(value != 0.0)) || (truth == PB_EXPR_FALSE && value != 0.0))
                    abort();
            }
        }
        pb_expr_destroy(expr);
    } else {
        if (expr != NULL)
            abort();
        if (error.column < 0 || (size_t)error.column > length + 1)
            abort();
        if (memchr(error.message, '\0', sizeof error.message) == NULL || error.message[0] == '\0')
            abort();
        char line[512];
        pb_expr_error_format(&error, line, sizeof line);
    }
    free(text);
    return 0;
}
