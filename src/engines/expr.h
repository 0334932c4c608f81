/* Arithmetic and boolean expressions over configuration coordinates (private to the
 * library), for the black-box engine's `--expr`.
 *
 * An expression is compiled once into a flat stack-machine program (constants folded,
 * constant and variable operands fused into the instruction that uses them, `and`/`or`
 * short-circuited with forward jumps), which interval evaluation runs, and that program is
 * translated to register programs (repeated subterms computed once, superinstructions for
 * obstacle shapes) for points, one at a time or in batches. Evaluation allocates nothing.
 *
 * Grammar, loosest binding first:
 *
 *     expr    := and ( ("or" | "||") and )*
 *     and     := not ( ("and" | "&&") not )*
 *     not     := ("not" | "!") not | compare
 *     compare := sum ( ("<" | "<=" | ">" | ">=" | "==" | "!=") sum )?     (no chains)
 *     sum     := product ( ("+" | "-") product )*
 *     product := unary ( ("*" | "/") unary )*
 *     unary   := ("-" | "+") unary | power
 *     power   := primary ( ("^" | "**") unary )?                       (right-associative)
 *     primary := NUMBER | VARIABLE | CONSTANT | FUNCTION "(" expr ("," expr)* ")" | "(" expr ")"
 *
 * so `-x0^2` is -(x0^2) and `2^-1` is 0.5. Variables are x0, x1, ... (one per coordinate);
 * constants `pi`, `e`, `true`, `false`; functions sin cos tan asin acos atan sqrt abs exp log
 * floor ceil (one argument), min max atan2 hypot pow (two).
 *
 * Values are typed at compile time: numbers, and conditions (the results of comparisons,
 * `and`, `or`, `not`, `true`, `false`). Arithmetic takes numbers, logic takes conditions; a
 * mismatch is a compile error. A condition evaluates to exactly 1.0 (true) or 0.0 (false);
 * a comparison with NaN is false. */
#ifndef PB_ENGINES_EXPR_H
#define PB_ENGINES_EXPR_H

#include "planbench/base.h"

/** Most variables an expression may use (x0 .. x{PB_EXPR_MAX_VARS-1}). */
#define PB_EXPR_MAX_VARS 32
/** Longest accepted source text, in bytes. */
#define PB_EXPR_MAX_LENGTH 65536

typedef struct pb_expr pb_expr;

/** Where and why a compile failed. `column` is 1-based (in bytes), 0 when not about a place;
 * `message` is the bare reason ("unknown variable 'y'"), no position, no newline. */
typedef struct pb_expr_error {
    int column;
    char message[256];
} pb_expr_error;

/** Compile `text` (NUL-terminated) over the variables x0 .. x{n_vars-1}, 0 <= n_vars <=
 * PB_EXPR_MAX_VARS. On success `*out` is a new program owned by the caller
 * (pb_expr_destroy). On failure returns PB_ERR_INVALID (PB_ERR_NOMEM when memory ran out),
 * leaves `*out` NULL and fills `error` when not NULL. */
pb_status pb_expr_compile(pb_expr **out, const char *text, int n_vars, pb_expr_error *error);

/** Free a program; NULL is accepted. */
void pb_expr_destroy(pb_expr *expr);

/** Evaluate with x[i] the value of variable xi (at least n_vars values). Thread-safe: the
 * program is only read. Runs the register program (expr_eval.c). */
double pb_expr_eval(const pb_expr *expr, const double *x);

/** Evaluate `n` points at once: xs holds n rows of n_vars values, row after row; values[i]
 * gets the value at row i, the same number pb_expr_eval() gives. Several points per call
 * share the dispatch of each instruction (an edge check's configurations). Thread-safe. */
void pb_expr_eval_batch(const pb_expr *expr, const double *xs, size_t n, double *values);

/** Evaluate with the stack program the register program was translated from: the same
 * number as pb_expr_eval(), more slowly (the reference the register program is tested
 * against). */
double pb_expr_eval_stack(const pb_expr *expr, const double *x);

/** An interval [lo, hi] of values, and whether NaN is among them too. Infinite ends are
 * allowed. */
typedef struct pb_expr_interval {
    double lo, hi;
    bool nan;
} pb_expr_interval;

/** Evaluate over the box lo[i] <= xi <= hi[i] (each at least n_vars values) with interval
 * arithmetic rounded outwards: the result contains the value of pb_expr_eval() at every
 * point of the box (a condition's interval lies within [0, 1]). Operations undefined
 * somewhere in the box set `nan`. Thread-safe. */
pb_expr_interval pb_expr_eval_interval(const pb_expr *expr, const double *lo, const double *hi);

/** What an expression is over a box: true (non-zero) at every point, false (zero) at every
 * point, or unknown (either, or NaN possible somewhere). */
typedef enum pb_expr_truth { PB_EXPR_FALSE, PB_EXPR_TRUE, PB_EXPR_UNKNOWN } pb_expr_truth;

/** The truth of the expression over the box lo[i] <= xi <= hi[i], from
 * pb_expr_eval_interval(): never TRUE or FALSE unless it holds at every point. */
pb_expr_truth pb_expr_eval_box(const pb_expr *expr, const double *lo, const double *hi);

/** Is the program's value a condition (true/false) rather than a number? */
bool pb_expr_is_condition(const pb_expr *expr);

/** Number of instructions in the compiled stack program (to test the optimiser). */
size_t pb_expr_length(const pb_expr *expr);

/** Number of entries in the register program for single points (`batch` false) or for
 * batches (true), a sum of squares counting its terms; 0 when that program would not fit its
 * evaluator's frame, and then single points run the stack program and batches run point by
 * point (to test the translation). */
size_t pb_expr_register_length(const pb_expr *expr, bool batch);

/** Format an error as "expression: column C: MESSAGE" (or "expression: MESSAGE" without a
 * column) into `buf`, always NUL-terminated. */
void pb_expr_error_format(const pb_expr_error *error, char *buf, size_t size);

#endif
