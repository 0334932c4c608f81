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

struct pb_expr {
    insn *code;
    size_t n;
    bool condition;
};

#endif
