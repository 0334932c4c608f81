/* Evaluation of a compiled expression at points: the stack program (the reference), and the
 * register programs that expr.c translates it to (see expr_program.h), one point per call
 * and a batch of points in structure-of-arrays lanes. */
#include "engines/expr.h"
#include "engines/expr_program.h"

#include <string.h>

/* ---- the stack program: the reference ---------------------------------------------------------------- */

/* The stack program's interpreter: what the register programs are checked against, and
 * what runs an expression too large for their frames. */
double pb_expr_eval_stack(const pb_expr *expr, const double *x)
{
    /* `top` points one past the top of the stack. */
    double stack[EVAL_STACK];
    double *top = stack;
    const insn *code = expr->code;
    for (const insn *p = code;; p++) {
        switch (p->op) {
        case OP_END:
            return top[-1];
        case OP_CONST:
            *top++ = p->k;
            break;
        case OP_VAR:
            *top++ = x[p->arg];
            break;
        case OP_JUMP_IF_FALSE:
            if (top[-1] == 0.0)
                p = code + p->arg - 1;
            else
                top--;
            break;
        case OP_JUMP_IF_TRUE:
            if (top[-1] != 0.0)
                p = code + p->arg - 1;
            else
                top--;
            break;
#define CASE(name, expr)                                                                                     \
    case UNARY(U_##name): {                                                                                  \
        const double v = top[-1];                                                                            \
        top[-1] = expr;                                                                                      \
        break;                                                                                               \
    }
            UNARY_OPS(CASE)
#undef CASE
#define CASE(name, expr)                                                                                     \
    case BINARY(B_##name, FORM_STACK): {                                                                     \
        const double l = top[-2], r = top[-1];                                                               \
        top--;                                                                                               \
        top[-1] = expr;                                                                                      \
        break;                                                                                               \
    }                                                                                                        \
    case BINARY(B_##name, FORM_CONST): {                                                                     \
        const double l = top[-1], r = p->k;                                                                  \
        top[-1] = expr;                                                                                      \
        break;                                                                                               \
    }                                                                                                        \
    case BINARY(B_##name, FORM_VAR): {                                                                       \
        const double l = top[-1], r = x[p->arg];                                                             \
        top[-1] = expr;                                                                                      \
        break;                                                                                               \
    }
            BINARY_OPS(CASE)
#undef CASE
        default:
            return NAN; /* unreachable: the compiler emits only the opcodes above */
        }
    }
}

/* The sum of (slot[a] + k)^2 over the R_TERM entries after `p`, left to right. */
static inline double sum_squares(const double *slot, const reg_insn *p)
{
    const reg_insn *term = p + 1;
    double d = slot[term[0].a] + term[0].k;
    double sum = d * d;
    for (int32_t j = 1; j < p->a; j++) {
        d = slot[term[j].a] + term[j].k;
        const double square = d * d;
        sum = sum + square;
    }
    return sum;
}

/* ---- one point ---------------------------------------------------------------------- */

double pb_expr_eval(const pb_expr *expr, const double *x)
{
    const reg_insn *code = expr->single.code;
    if (!code)
        return pb_expr_eval_stack(expr, x);
    double slot[SINGLE_SLOTS];
    memcpy(slot, x, (size_t)expr->n_vars * sizeof *slot);
    for (int32_t pc = 0;; pc++) {
        const reg_insn *p = &code[pc];
        switch (p->op) {
        case R_END:
            return slot[p->a];
        case R_CONST:
            slot[p->dst] = p->k;
            break;
        case R_MOVE:
            slot[p->dst] = slot[p->a];
            break;
        case R_JUMP_IF_FALSE:
            if (slot[p->a] == 0.0) {
                slot[p->dst] = slot[p->a];
                pc = p->b - 1;
            }
            break;
        case R_JUMP_IF_TRUE:
            if (slot[p->a] != 0.0) {
                slot[p->dst] = slot[p->a];
                pc = p->b - 1;
            }
            break;
        case R_SHIFT_SQUARE: {
            const double d = slot[p->a] + p->k;
            slot[p->dst] = d * d;
            break;
        }
        case R_ADD_SHIFT_SQUARE: {
            const double d = slot[p->a] + p->k;
            const double square = d * d;
            slot[p->dst] = slot[p->b] + square;
            break;
        }
        case R_SUM_SQUARES:
            slot[p->dst] = sum_squares(slot, p);
            pc += p->a;
            break;
/* a unary operator of r[a], and of r[a] + k */
#define UNARY_CASE(op, operand, expr)                                                                        \
    case op: {                                                                                               \
        const double v = operand;                                                                            \
        slot[p->dst] = expr;                                                                                 \
        break;                                                                                               \
    }
#define CASE(name, expr)                                                                                     \
    UNARY_CASE(R_UNARY_FIRST + U_##name, slot[p->a], expr)                                                   \
    UNARY_CASE(R_SHIFT_UNARY_FIRST + U_##name, slot[p->a] + p->k, expr)
            UNARY_OPS(CASE)
#undef CASE
#undef UNARY_CASE
#define CASE(name, expr)                                                                                     \
    case R_BINARY(B_##name, RFORM_SLOT): {                                                                   \
        const double l = slot[p->a], r = slot[p->b];                                                         \
        slot[p->dst] = expr;                                                                                 \
        break;                                                                                               \
    }                                                                                                        \
    case R_BINARY(B_##name, RFORM_CONST): {                                                                  \
        const double l = slot[p->a], r = p->k;                                                               \
        slot[p->dst] = expr;                                                                                 \
        break;                                                                                               \
    }
            BINARY_OPS(CASE)
#undef CASE
#define CASE(name, cmp)                                                                                      \
    case R_COMPARE_JUMP(B_##name, 0):                                                                        \
        if (!(slot[p->a] cmp p->k)) {                                                                        \
            slot[p->dst] = 0.0;                                                                              \
            pc = p->b - 1;                                                                                   \
        }                                                                                                    \
        break;                                                                                               \
    case R_COMPARE_JUMP(B_##name, 1):                                                                        \
        if (slot[p->a] cmp p->k) {                                                                           \
            slot[p->dst] = 1.0;                                                                              \
            pc = p->b - 1;                                                                                   \
        }                                                                                                    \
        break;
            COMPARISONS(CASE)
#undef CASE
#define CASE(name, cmp)                                                                                      \
    case R_SUM_COMPARE_JUMP(B_##name, 0): {                                                                  \
        const double sum = sum_squares(slot, p);                                                             \
        pc += p->a;                                                                                          \
        if (!(sum cmp p->k)) {                                                                               \
            slot[p->dst] = 0.0;                                                                              \
            pc = p->b - 1;                                                                                   \
        }                                                                                                    \
        break;                                                                                               \
    }                                                                                                        \
    case R_SUM_COMPARE_JUMP(B_##name, 1): {                                                                  \
        const double sum = sum_squares(slot, p);                                                             \
        pc += p->a;                                                                                          \
        if (sum cmp p->k) {                                                                                  \
            slot[p->dst] = 1.0;                                                                              \
            pc = p->b - 1;                                                                                   \
        }                                                                                                    \
        break;                                                                                               \
    }
            COMPARISONS(CASE)
#undef CASE
        default:
            return NAN; /* unreachable: the translation emits only the opcodes above */
        }
    }
}

/* ---- a batch of points, in lanes ------------------------------------------------------ */

/* Run the batch program over a frame of lanes; returns the slot of the result, -1 if the
 * program holds an instruction the lanes cannot run (none is emitted). */
static int32_t run_lanes(const reg_insn *code, double (*frame)[BATCH_LANES])
{
    for (const reg_insn *p = code;; p++) {
        double *out = frame[p->dst];
        if (p->op == R_SUM_SQUARES) { /* its `a` counts terms: no slot to point at */
            double sum[BATCH_LANES];
            for (int32_t j = 1; j <= p->a; j++) {
                const double *term = frame[p[j].a], k = p[j].k;
                for (int lane = 0; lane < BATCH_LANES; lane++) {
                    const double d = term[lane] + k;
                    const double square = d * d;
                    sum[lane] = j == 1 ? square : sum[lane] + square;
                }
            }
            memcpy(out, sum, sizeof sum);
            p += p->a;
            continue;
        }
        const double *in_a = frame[p->a], *in_b = frame[p->b];
        switch (p->op) {
        case R_END:
            return p->a;
        case R_CONST:
            for (int lane = 0; lane < BATCH_LANES; lane++)
                out[lane] = p->k;
            break;
        case R_MOVE:
            memcpy(out, in_a, sizeof frame[0]);
            break;
        case R_SHIFT_SQUARE:
            for (int lane = 0; lane < BATCH_LANES; lane++) {
                const double d = in_a[lane] + p->k;
                out[lane] = d * d;
            }
            break;
        case R_ADD_SHIFT_SQUARE:
            for (int lane = 0; lane < BATCH_LANES; lane++) {
                const double d = in_a[lane] + p->k;
                const double square = d * d;
                out[lane] = in_b[lane] + square;
            }
            break;
/* a unary operator of r[a], and of r[a] + k */
#define UNARY_CASE(op, operand, expr)                                                                        \
    case op:                                                                                                 \
        for (int lane = 0; lane < BATCH_LANES; lane++) {                                                     \
            const double v = operand;                                                                        \
            out[lane] = expr;                                                                                \
        }                                                                                                    \
        break;
#define CASE(name, expr)                                                                                     \
    UNARY_CASE(R_UNARY_FIRST + U_##name, in_a[lane], expr)                                                   \
    UNARY_CASE(R_SHIFT_UNARY_FIRST + U_##name, in_a[lane] + p->k, expr)
            UNARY_OPS(CASE)
#undef CASE
#undef UNARY_CASE
#define CASE(name, expr)                                                                                     \
    case R_BINARY(B_##name, RFORM_SLOT):                                                                     \
        for (int lane = 0; lane < BATCH_LANES; lane++) {                                                     \
            const double l = in_a[lane], r = in_b[lane];                                                     \
            out[lane] = expr;                                                                                \
        }                                                                                                    \
        break;                                                                                               \
    case R_BINARY(B_##name, RFORM_CONST):                                                                    \
        for (int lane = 0; lane < BATCH_LANES; lane++) {                                                     \
            const double l = in_a[lane], r = p->k;                                                           \
            out[lane] = expr;                                                                                \
        }                                                                                                    \
        break;
            BINARY_OPS(CASE)
#undef CASE
        default:
            return -1;
        }
    }
}

void pb_expr_eval_batch(const pb_expr *expr, const double *xs, size_t n, double *values)
{
    const size_t n_vars = (size_t)expr->n_vars;
    if (!expr->batch.code) {
        for (size_t i = 0; i < n; i++)
            values[i] = pb_expr_eval(expr, xs + i * n_vars);
        return;
    }
    double frame[BATCH_SLOTS][BATCH_LANES];
    for (size_t start = 0; start < n; start += BATCH_LANES) {
        const size_t m = n - start < BATCH_LANES ? n - start : BATCH_LANES;
        /* rows to lanes; spare lanes repeat the last point, so that every lane holds a
         * point of the input */
        for (size_t v = 0; v < n_vars; v++)
            for (size_t lane = 0; lane < BATCH_LANES; lane++)
                frame[v][lane] = xs[(start + (lane < m ? lane : m - 1)) * n_vars + v];
        const int32_t result = run_lanes(expr->batch.code, frame);
        for (size_t lane = 0; lane < m; lane++)
            values[start + lane] = result >= 0 ? frame[result][lane] : NAN;
    }
}
