/* Interval evaluation of a compiled expression over a box of configurations (see expr.h):
 * every operator maps intervals to an interval that contains the operator's value at every
 * point of its operands' intervals, rounded outwards, with a flag for "NaN is possible"
 * (a division by an interval containing zero, log or sqrt reaching below zero, asin and
 * acos beyond [-1, 1], sin, cos and tan of an infinite value, pow of a negative base). A
 * condition's interval is within [0, 1]: [1, 1] certainly true, [0, 0] certainly false,
 * [0, 1] unknown. `and` and `or` evaluate both sides when the left one is unknown (the
 * program's jumps only short-circuit certain answers) and combine them as three-valued
 * logic at the jump's target. */
#include "engines/expr.h"
#include "engines/expr_program.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>

typedef pb_expr_interval ival;

/* Round outwards by `ulps` units in the last place: the basic operations are correctly
 * rounded (1 is enough), the C library's transcendental functions are within a few. */
static ival widen(double lo, double hi, bool nan, int ulps)
{
    for (int i = 0; i < ulps; i++) {
        lo = nextafter(lo, -INFINITY);
        hi = nextafter(hi, INFINITY);
    }
    if (isnan(lo) || isnan(hi))
        return (ival){-INFINITY, INFINITY, true};
    return (ival){lo, hi, nan};
}

static ival everything(bool nan)
{
    return (ival){-INFINITY, INFINITY, nan};
}

static ival point(double v)
{
    if (isnan(v))
        return everything(true);
    return (ival){v, v, false};
}

static ival from4(double a, double b, double c, double d, bool nan)
{
    if (isnan(a) || isnan(b) || isnan(c) || isnan(d))
        return everything(true); /* inf - inf, 0 * inf: no sound bound from the corners */
    return widen(fmin(fmin(a, b), fmin(c, d)), fmax(fmax(a, b), fmax(c, d)), nan, 1);
}

static bool contains(ival a, double v)
{
    return a.lo <= v && v <= a.hi;
}

/* sin or cos over [lo, hi]: the endpoints' values, and +-1 where the interval holds a crest
 * or a trough (found with room for rounding: a crest just outside still counts). */
static ival interval_trig(ival a, bool is_cos)
{
    if (!isfinite(a.lo) || !isfinite(a.hi) || a.hi - a.lo >= 2.0 * M_PI)
        return (ival){-1.0, 1.0, a.nan || !isfinite(a.lo) || !isfinite(a.hi)};
    const double v_lo = is_cos ? cos(a.lo) : sin(a.lo), v_hi = is_cos ? cos(a.hi) : sin(a.hi);
    double s_lo = fmin(v_lo, v_hi), s_hi = fmax(v_lo, v_hi);
    /* crests of sin at pi/2 + 2k pi, of cos at 2k pi; troughs half a period on */
    const double two_pi = 2.0 * M_PI, crest = is_cos ? 0.0 : M_PI / 2, trough = crest + M_PI;
    const double k_crest = ceil((a.lo - crest) / two_pi - 1e-9);
    if (crest + k_crest * two_pi <= a.hi + 1e-9)
        s_hi = 1.0;
    const double k_trough = ceil((a.lo - trough) / two_pi - 1e-9);
    if (trough + k_trough * two_pi <= a.hi + 1e-9)
        s_lo = -1.0;
    ival r = widen(s_lo, s_hi, a.nan, 4);
    r.lo = fmax(r.lo, -1.0);
    r.hi = fmin(r.hi, 1.0);
    return r;
}

static ival interval_tan(ival a)
{
    if (!isfinite(a.lo) || !isfinite(a.hi) || a.hi - a.lo >= M_PI)
        return everything(a.nan || !isfinite(a.lo) || !isfinite(a.hi));
    /* poles at pi/2 + k pi */
    const double k = ceil((a.lo - M_PI / 2) / M_PI - 1e-9);
    if (M_PI / 2 + k * M_PI <= a.hi + 1e-9)
        return everything(a.nan);
    return widen(tan(a.lo), tan(a.hi), a.nan, 4);
}

/* x^n for an integer n. */
static ival interval_ipow(ival a, double n)
{
    if (n == 0.0)
        return (ival){1.0, 1.0, a.nan}; /* pow(x, 0) is 1 for every x, NaN included */
    const bool even = fmod(n, 2.0) == 0.0;
    if (n > 0.0) {
        if (even) {
            const double far = fmax(fabs(a.lo), fabs(a.hi));
            const double near = contains(a, 0.0) ? 0.0 : fmin(fabs(a.lo), fabs(a.hi));
            return widen(pow(near, n), pow(far, n), a.nan, 4);
        }
        return widen(pow(a.lo, n), pow(a.hi, n), a.nan, 4);
    }
    if (contains(a, 0.0))
        return everything(a.nan); /* pow(0, -n) is infinite, never NaN */
    const double p = pow(a.lo, n), q = pow(a.hi, n);
    return widen(fmin(p, q), fmax(p, q), a.nan, 4);
}

static ival interval_pow(ival l, ival r)
{
    const bool nan = l.nan || r.nan;
    if (r.lo == r.hi && r.lo == floor(r.lo) && fabs(r.lo) < 1e15) {
        ival v = interval_ipow(l, r.lo);
        v.nan = v.nan || nan;
        return v;
    }
    if (l.lo > 0.0) {
        /* exp(r log l): monotonic in each argument, extremes at the corners */
        return from4(pow(l.lo, r.lo), pow(l.lo, r.hi), pow(l.hi, r.lo), pow(l.hi, r.hi), nan);
    }
    return everything(true); /* a negative base with a non-integer exponent is NaN */
}

static ival unary(int u, ival a)
{
    switch (u) {
    case U_NEG:
        return (ival){-a.hi, -a.lo, a.nan};
    case U_NOT:
        return (ival){1.0 - a.hi, 1.0 - a.lo, false};
    case U_SQUARE:
        return interval_ipow(a, 2.0);
    case U_SIN:
        return interval_trig(a, false);
    case U_COS:
        return interval_trig(a, true);
    case U_TAN:
        return interval_tan(a);
    case U_ASIN:
    case U_ACOS: {
        const bool nan = a.nan || a.lo < -1.0 || a.hi > 1.0;
        const double lo = fmax(a.lo, -1.0), hi = fmin(a.hi, 1.0);
        if (lo > hi)
            return everything(true);
        if (u == U_ASIN)
            return widen(asin(lo), asin(hi), nan, 4);
        return widen(acos(hi), acos(lo), nan, 4);
    }
    case U_ATAN:
        return widen(atan(a.lo), atan(a.hi), a.nan, 4);
    case U_SQRT: {
        const bool nan = a.nan || a.lo < 0.0;
        if (a.hi < 0.0)
            return everything(true);
        ival r = widen(sqrt(fmax(a.lo, 0.0)), sqrt(a.hi), nan, 1);
        r.lo = fmax(r.lo, 0.0);
        return r;
    }
    case U_ABS: {
        const double far = fmax(fabs(a.lo), fabs(a.hi));
        const double near = contains(a, 0.0) ? 0.0 : fmin(fabs(a.lo), fabs(a.hi));
        return (ival){near, far, a.nan};
    }
    case U_EXP: {
        ival r = widen(exp(a.lo), exp(a.hi), a.nan, 4);
        r.lo = fmax(r.lo, 0.0);
        return r;
    }
    case U_LOG: {
        const bool nan = a.nan || a.lo < 0.0;
        if (a.hi < 0.0)
            return everything(true);
        return widen(log(fmax(a.lo, 0.0)), log(a.hi), nan, 4);
    }
    case U_FLOOR:
        return (ival){floor(a.lo), floor(a.hi), a.nan};
    case U_CEIL:
        return (ival){ceil(a.lo), ceil(a.hi), a.nan};
    default:
        return everything(true);
    }
}

/* Three-valued comparisons: [1, 1] when true at every point, [0, 0] when false at every
 * point. A NaN operand makes every comparison false but `!=`, which it makes true. */
static ival compare(int b, ival l, ival r)
{
    bool can_true, can_false;
    switch (b) {
    case B_LT:
        can_true = l.lo < r.hi;
        can_false = l.hi >= r.lo;
        break;
    case B_LE:
        can_true = l.lo <= r.hi;
        can_false = l.hi > r.lo;
        break;
    case B_GT:
        can_true = l.hi > r.lo;
        can_false = l.lo <= r.hi;
        break;
    case B_GE:
        can_true = l.hi >= r.lo;
        can_false = l.lo < r.hi;
        break;
    case B_EQ:
        can_true = l.lo <= r.hi && r.lo <= l.hi;
        can_false = !(l.lo == l.hi && r.lo == r.hi && l.lo == r.lo);
        break;
    default: /* B_NE */
        can_true = !(l.lo == l.hi && r.lo == r.hi && l.lo == r.lo);
        can_false = l.lo <= r.hi && r.lo <= l.hi;
        break;
    }
    if (l.nan || r.nan) {
        if (b == B_NE)
            can_true = true;
        else
            can_false = true;
    }
    return (ival){can_false ? 0.0 : 1.0, can_true ? 1.0 : 0.0, false};
}

static bool has_infinity(ival a)
{
    return isinf(a.lo) || isinf(a.hi);
}

static ival binary(int b, ival l, ival r)
{
    bool nan = l.nan || r.nan;
    switch (b) {
    case B_ADD: {
        /* inf + -inf is NaN: possible when the operands reach opposite infinities */
        nan = nan || (l.hi == INFINITY && r.lo == -INFINITY) || (l.lo == -INFINITY && r.hi == INFINITY);
        const double lo = l.lo + r.lo, hi = l.hi + r.hi;
        if (isnan(lo) || isnan(hi))
            return everything(true);
        return widen(lo, hi, nan, 1);
    }
    case B_SUB: {
        nan = nan || (l.hi == INFINITY && r.hi == INFINITY) || (l.lo == -INFINITY && r.lo == -INFINITY);
        const double lo = l.lo - r.hi, hi = l.hi - r.lo;
        if (isnan(lo) || isnan(hi))
            return everything(true);
        return widen(lo, hi, nan, 1);
    }
    case B_MUL:
        /* 0 * inf is NaN */
        nan = nan || (contains(l, 0.0) && has_infinity(r)) || (contains(r, 0.0) && has_infinity(l));
        return from4(l.lo * r.lo, l.lo * r.hi, l.hi * r.lo, l.hi * r.hi, nan);
    case B_DIV:
        if (contains(r, 0.0))
            return everything(true);                       /* 0 / 0 is NaN, x / 0 infinite */
        nan = nan || (has_infinity(l) && has_infinity(r)); /* inf / inf */
        return from4(l.lo / r.lo, l.lo / r.hi, l.hi / r.lo, l.hi / r.hi, nan);
    case B_POW:
        return interval_pow(l, r);
    case B_LT:
    case B_LE:
    case B_GT:
    case B_GE:
    case B_EQ:
    case B_NE:
        return compare(b, l, r);
    case B_MIN:
    case B_MAX: {
        /* fmin and fmax return the other operand when one is NaN */
        ival v = b == B_MIN ? (ival){fmin(l.lo, r.lo), fmin(l.hi, r.hi), false}
                            : (ival){fmax(l.lo, r.lo), fmax(l.hi, r.hi), false};
        if (l.nan) {
            v.lo = fmin(v.lo, r.lo);
            v.hi = fmax(v.hi, r.hi);
        }
        if (r.nan) {
            v.lo = fmin(v.lo, l.lo);
            v.hi = fmax(v.hi, l.hi);
        }
        v.nan = l.nan && r.nan;
        return v;
    }
    case B_ATAN2:
        if (r.lo > 0.0) /* right half-plane: monotonic in each argument */
            return from4(atan2(l.lo, r.lo), atan2(l.lo, r.hi), atan2(l.hi, r.lo), atan2(l.hi, r.hi), nan);
        return widen(-M_PI, M_PI, nan, 2);
    case B_HYPOT: {
        const double lx = contains(l, 0.0) ? 0.0 : fmin(fabs(l.lo), fabs(l.hi));
        const double ly = contains(r, 0.0) ? 0.0 : fmin(fabs(r.lo), fabs(r.hi));
        ival v =
            widen(hypot(lx, ly), hypot(fmax(fabs(l.lo), fabs(l.hi)), fmax(fabs(r.lo), fabs(r.hi))), nan, 2);
        v.lo = fmax(v.lo, 0.0);
        return v;
    }
    default:
        return everything(true);
    }
}

/* A pending `and` or `or` whose left side was unknown: combined with the right side's value
 * when the program reaches `target`. */
typedef struct pending {
    size_t target;
    bool is_and;
    ival left;
} pending;

pb_expr_interval pb_expr_eval_interval(const pb_expr *expr, const double *lo, const double *hi)
{
    ival stack[EVAL_STACK];
    /* pendings of one chain share its target and merge, so they nest no deeper than the
     * parser's nesting limit */
    pending pend[EVAL_STACK];
    size_t n_pend = 0;
    ival *top = stack;
    const insn *code = expr->code;
    for (const insn *p = code;; p++) {
        const size_t at = (size_t)(p - code);
        while (n_pend > 0 && pend[n_pend - 1].target <= at) {
            const pending *q = &pend[--n_pend];
            ival *v = &top[-1];
            /* three-valued logic on [0, 1] intervals: and is min, or is max */
            if (q->is_and)
                *v = (ival){fmin(q->left.lo, v->lo), fmin(q->left.hi, v->hi), false};
            else
                *v = (ival){fmax(q->left.lo, v->lo), fmax(q->left.hi, v->hi), false};
        }
        switch (p->op) {
        case OP_END:
            return top[-1];
        case OP_CONST:
            *top++ = point(p->k);
            break;
        case OP_VAR:
            *top++ = (ival){lo[p->arg], hi[p->arg], false};
            break;
        case OP_JUMP_IF_FALSE:
        case OP_JUMP_IF_TRUE: {
            const bool is_and = p->op == OP_JUMP_IF_FALSE;
            const ival c = top[-1];
            if (is_and ? c.hi == 0.0 : c.lo == 1.0) {
                p = code + p->arg - 1; /* certain: the jump, keeping the value */
            } else if (is_and ? c.lo == 1.0 : c.hi == 0.0) {
                top--; /* certain the other way: the right side decides */
            } else {
                top--;
                pending *last = n_pend > 0 ? &pend[n_pend - 1] : NULL;
                if (last && last->target == (size_t)p->arg && last->is_and == is_and) {
                    last->left = is_and ? (ival){fmin(last->left.lo, c.lo), fmin(last->left.hi, c.hi), false}
                                        : (ival){fmax(last->left.lo, c.lo), fmax(last->left.hi, c.hi), false};
                } else if (n_pend == EVAL_STACK) {
                    return everything(true); /* unreachable with the parser's limits; unknown */
                } else {
                    pend[n_pend++] = (pending){(size_t)p->arg, is_and, c};
                }
            }
            break;
        }
        default:
            if (p->op >= OP_UNARY_FIRST && p->op < OP_BINARY_FIRST) {
                top[-1] = unary(p->op - OP_UNARY_FIRST, top[-1]);
            } else if (p->op >= OP_BINARY_FIRST && p->op < OP_COUNT) {
                const int b = (p->op - OP_BINARY_FIRST) / FORM_COUNT;
                const int form = (p->op - OP_BINARY_FIRST) % FORM_COUNT;
                if (form == FORM_STACK) {
                    top--;
                    top[-1] = binary(b, top[-1], top[0]);
                } else {
                    const ival r = form == FORM_CONST ? point(p->k) : (ival){lo[p->arg], hi[p->arg], false};
                    top[-1] = binary(b, top[-1], r);
                }
            } else {
                return everything(true); /* unreachable: the compiler emits only these */
            }
            break;
        }
    }
}

pb_expr_truth pb_expr_eval_box(const pb_expr *expr, const double *lo, const double *hi)
{
    const ival v = pb_expr_eval_interval(expr, lo, hi);
    if (v.nan)
        return PB_EXPR_UNKNOWN;
    if (expr->condition)
        return v.lo == 1.0 ? PB_EXPR_TRUE : v.hi == 0.0 ? PB_EXPR_FALSE : PB_EXPR_UNKNOWN;
    /* a number is true where it is not zero */
    return !contains(v, 0.0) ? PB_EXPR_TRUE : (v.lo == 0.0 && v.hi == 0.0) ? PB_EXPR_FALSE : PB_EXPR_UNKNOWN;
}
