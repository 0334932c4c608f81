/* The compiled form of an expression (private to src/engines/expr*.c): the instruction set
 * of the stack machine that expr.c compiles to and that expr.c (points) and
 * expr_interval.c (boxes) run. */
#ifndef PB_ENGINES_EXPR_PROGRAM_H
#define PB_ENGINES_EXPR_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>

/* Recursion limit of the parser (nested parentheses, unary operators, `^` chains): deep
 * enough for any expression a person writes, shallow enough that hostile input cannot
 * overflow the C stack. It also bounds the evaluation stack. */
#define MAX_NESTING 100
#define EVAL_STACK  256
#define MAX_CODE    (1u << 16)

/* ---- the instruction set ------------------------------------------------------------ */

/* Unary operators: name, C expression in `v`. */
#define UNARY_OPS(X)                                                                                         \
    X(NEG, -v)                                                                                               \
    X(NOT, (double)(v == 0.0))                                                                               \
    X(SQUARE, v *v)                                                                                          \
    X(SIN, sin(v))                                                                                           \
    X(COS, cos(v))                                                                                           \
    X(TAN, tan(v))                                                                                           \
    X(ASIN, asin(v))                                                                                         \
    X(ACOS, acos(v))                                                                                         \
    X(ATAN, atan(v))                                                                                         \
    X(SQRT, sqrt(v))                                                                                         \
    X(ABS, fabs(v))                                                                                          \
    X(EXP, exp(v))                                                                                           \
    X(LOG, log(v))                                                                                           \
    X(FLOOR, floor(v))                                                                                       \
    X(CEIL, ceil(v))

/* Binary operators: name, C expression in `l` and `r`. */
#define BINARY_OPS(X)                                                                                        \
    X(ADD, l + r)                                                                                            \
    X(SUB, l - r)                                                                                            \
    X(MUL, l *r)                                                                                             \
    X(DIV, l / r)                                                                                            \
    X(POW, pow(l, r))                                                                                        \
    X(LT, (double)(l < r))                                                                                   \
    X(LE, (double)(l <= r))                                                                                  \
    X(GT, (double)(l > r))                                                                                   \
    X(GE, (double)(l >= r))                                                                                  \
    X(EQ, (double)(l == r))                                                                                  \
    X(NE, (double)(l != r))                                                                                  \
    X(MIN, fmin(l, r))                                                                                       \
    X(MAX, fmax(l, r))                                                                                       \
    X(ATAN2, atan2(l, r))                                                                                    \
    X(HYPOT, hypot(l, r))

#define ENUM_ITEM(name, expr) U_##name,
enum unary_op { UNARY_OPS(ENUM_ITEM) UNARY_COUNT };
#undef ENUM_ITEM
#define ENUM_ITEM(name, expr) B_##name,
enum binary_op { BINARY_OPS(ENUM_ITEM) BINARY_COUNT };
#undef ENUM_ITEM

/* Where a binary operator's right operand comes from: the stack, the instruction's constant,
 * or a variable. Fusing the last two saves a dispatch and a stack move per operand. */
enum { FORM_STACK, FORM_CONST, FORM_VAR, FORM_COUNT };

enum {
    OP_END,
    OP_CONST,         /* push k */
    OP_VAR,           /* push x[arg] */
    OP_JUMP_IF_FALSE, /* `and`: when the top is false jump to arg keeping it, else pop it */
    OP_JUMP_IF_TRUE,  /* `or`: when the top is true jump to arg keeping it, else pop it */
    OP_UNARY_FIRST,   /* OP_UNARY_FIRST + enum unary_op */
    OP_BINARY_FIRST = OP_UNARY_FIRST + UNARY_COUNT, /* + 3 * enum binary_op + form */
    OP_COUNT = OP_BINARY_FIRST + FORM_COUNT * BINARY_COUNT
};

#define UNARY(u)        (OP_UNARY_FIRST + (u))
#define BINARY(b, form) (OP_BINARY_FIRST + FORM_COUNT * (b) + (form))

typedef struct insn {
    int32_t op;
    int32_t arg;
    double k;
} insn;

/* ---- the register programs (made in expr.c, run in expr_eval.c) ---------------------- *
 *
 * The stack program translated to three-address code over a frame of doubles: the variables
 * in slots 0 .. n_vars-1, values after them. Each instruction names its operand slots, so a
 * value computed once is read wherever it is needed (repeated subterms are computed once),
 * and the common shapes of obstacle expressions run as one instruction each. Jumps exist only
 * in the program for single points; the batch program has none (see expr_eval.c). */

enum {
    R_END,              /* the value is r[a] */
    R_CONST,            /* r[dst] = k */
    R_MOVE,             /* r[dst] = r[a] */
    R_JUMP_IF_FALSE,    /* if r[a] == 0: r[dst] = r[a], go to b */
    R_JUMP_IF_TRUE,     /* if r[a] != 0: r[dst] = r[a], go to b */
    R_SHIFT_SQUARE,     /* r[dst] = (r[a] + k)^2 */
    R_ADD_SHIFT_SQUARE, /* r[dst] = r[b] + (r[a] + k)^2 */
    /* r[dst] = the sum of (r[a] + k)^2 over the `a` R_TERM entries that follow, in order:
     * a sphere's sum of squares with the sum kept out of the frame */
    R_SUM_SQUARES,
    R_TERM,                                            /* an operand of R_SUM_SQUARES, never run on its own */
    R_UNARY_FIRST,                                     /* + enum unary_op: r[dst] = op r[a] */
    R_SHIFT_UNARY_FIRST = R_UNARY_FIRST + UNARY_COUNT, /* + enum unary_op: r[dst] = op (r[a] + k) */
    R_BINARY_FIRST = R_SHIFT_UNARY_FIRST + UNARY_COUNT, /* + 2 * enum binary_op + form */
    /* + 2 * (comparison - B_LT) + 1 to jump when true: if (r[a] CMP k) is false (true),
     * r[dst] = 0 (1) and go to b */
    R_COMPARE_JUMP_FIRST = R_BINARY_FIRST + 2 * BINARY_COUNT,
    /* the same with the sum of squares of the `a` R_TERM entries that follow in place of
     * r[a]: a sphere test of an `and` chain in one instruction */
    R_SUM_COMPARE_JUMP_FIRST = R_COMPARE_JUMP_FIRST + 2 * (B_NE - B_LT + 1),
    R_COUNT = R_SUM_COMPARE_JUMP_FIRST + 2 * (B_NE - B_LT + 1)
};

/* The two forms of a binary register instruction: r[dst] = r[a] OP r[b], or OP k. */
enum { RFORM_SLOT, RFORM_CONST };
#define R_BINARY(b, form) (R_BINARY_FIRST + 2 * (b) + (form))

typedef struct reg_insn {
    int32_t op;
    int32_t dst, a, b;
    double k;
} reg_insn;

typedef struct reg_program {
    reg_insn *code; /* NULL when the program would not fit the evaluator's frame */
    int32_t n;
    int32_t n_slots; /* variables included */
} reg_program;

struct pb_expr {
    insn *code; /* the stack program: the reference, and what expr_interval.c runs */
    size_t n;
    bool condition;
    int n_vars;
    reg_program single; /* with jumps: `and`/`or` skip what they need not evaluate */
    reg_program batch;  /* no jumps: every lane runs every instruction */
};

/* Frame sizes. Without common subexpressions the live values are at most the stack program's
 * stack plus one result slot per open `and`/`or` chain, so the single frame always fits such
 * a translation; a batch program that needs more slots than BATCH_SLOTS is evaluated point by
 * point instead (a 16 KB frame of lanes is as much as the C stack should carry). */
#define SINGLE_SLOTS (PB_EXPR_MAX_VARS + 2 * EVAL_STACK)
#define BATCH_LANES  16
#define BATCH_SLOTS  128

/* The comparisons, with their C operators. */
#define COMPARISONS(X)                                                                                       \
    X(LT, <)                                                                                                 \
    X(LE, <=)                                                                                                \
    X(GT, >)                                                                                                 \
    X(GE, >=)                                                                                                \
    X(EQ, ==)                                                                                                \
    X(NE, !=)

#define R_COMPARE_JUMP(cmp, when_true)     (R_COMPARE_JUMP_FIRST + 2 * ((cmp)-B_LT) + (when_true))
#define R_SUM_COMPARE_JUMP(cmp, when_true) (R_SUM_COMPARE_JUMP_FIRST + 2 * ((cmp)-B_LT) + (when_true))

#endif
