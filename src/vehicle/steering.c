/* Steering curves (include/planbench/steering.h): the shortest Reeds-Shepp and Dubins paths.
 *
 * Both solvers work on the normalised problem: the goal in the start's frame, lengths in
 * units of the turning radius, so an arc's length is its turn in radians.
 *
 * Reeds-Shepp follows Reeds & Shepp (1990), section 8, with the corrections OMPL's
 * ReedsSheppStateSpace makes to the paper's typos: eleven base formulas, each tried on the
 * goal as it is, time-flipped ((x, y, phi) -> (-x, y, -phi): every length changes sign),
 * reflected ((x, -y, -phi): L and R swap) and both: 44 candidates that cover the paper's 48
 * words (the C|C|C formula leaves its last arc's direction free, so it also makes C|CC, and
 * driven backwards CC|C). They are tried in OMPL's order and compared with OMPL's sums, so that
 * a tie (two words of one length, frequent among the CCC words) goes to the same word.
 *
 * Unlike OMPL, the sine and cosine of the heading change are computed once for all 44, and
 * a candidate is left before its angles (atan2, asin, acos: most of the time a query takes)
 * when a lower bound from its first length, or its squared length before the square root,
 * cannot beat the best so far, or when the signs its word requires fail on the vectors whose
 * angles they would be. A margin far above rounding keeps these early exits to candidates
 * the exact test would refuse: the results are OMPL's.
 *
 * Dubins follows Shkel & Lumelsky (2001) as OMPL's DubinsStateSpace writes it: the six
 * words from the distance d and the headings alpha, beta relative to the line from start to
 * goal, again left early by lower bounds before the angles. */
#include "planbench/steering.h"

#include <math.h>
#include <string.h>

#define TWO_PI  (2.0 * M_PI)
#define HALF_PI (0.5 * M_PI)

/* Reeds-Shepp: how far below zero a length may be and still count as >= 0 (OMPL's ZERO):
 * the formulas' rounding. */
#define RS_ZERO (10.0 * 2.220446049250313e-16)

/* Dubins: a squared straight length this far below 0 is a tangent (rounding), and an arc
 * this close to a full turn is no turn. Tighter than OMPL's 1e-7 and 5e-7, which move the
 * end pose by that much: ours stays within 1e-12 radius of the goal. */
#define DUBINS_ZERO 1e-12

/* A normalised segment shorter than this is rounding, not motion, and is left out. */
#define SEGMENT_ZERO 1e-12

/* The best word so far, normalised. */
typedef struct word {
    double length; /* sum of |len| */
    const char *types;
    int n;
    double len[PB_CURVE_MAX_SEGMENTS];
} word;

/* An angle in [-pi, pi], for the sums of a few angles in that range the formulas make (one
 * subtraction is exact there, as fmod would be). */
static inline double wrap_pi(double a)
{
    while (a > M_PI)
        a -= TWO_PI;
    while (a < -M_PI)
        a += TWO_PI;
    return a;
}

/* Any finite angle in [-pi, pi). */
static double wrap_angle(double a)
{
    if (a >= -M_PI && a < M_PI)
        return a;
    a -= TWO_PI * floor((a + M_PI) / TWO_PI);
    return a >= M_PI ? a - TWO_PI : a < -M_PI ? a + TWO_PI : a;
}

/* ---- Reeds-Shepp ---------------------------------------------------------------------- */

/* The goal of one base formula: position (x, y) and heading change phi, with its sine and
 * cosine; `bound` is the length to beat, less the fixed arcs of the word. Each formula
 * returns whether its word exists with the signs it is named for, and its lengths t, u, v.
 *
 * Before an angle is computed (atan2, asin, acos: most of the time a query takes), a formula
 * tests the signs the word requires on the vectors whose angles they are: an angle in
 * [-pi, pi] is >= 0 when the sine of it is, so "t >= 0" is "y >= 0" for t = atan2(y, x), and
 * "phi - t >= 0" is the sign of a cross product. These tests pass a margin (MAY_MARGIN of the
 * vector's size, far above rounding), so they only skip candidates the exact test, made as
 * OMPL makes it after the angles, would refuse. */
typedef struct rs_goal {
    double x, y, phi, sin_phi, cos_phi;
} rs_goal;

#define MAY_MARGIN 1e-9

/* May a quantity that is `size` times the sine of an angle in [-pi, pi] be >= 0? */
static inline bool may_be_nonnegative(double value, double size)
{
    return value >= -MAY_MARGIN * size;
}

/* Is the length whose square is `squared` surely >= `bound` (>= 0)? Square roots are left
 * for the candidates that pass. */
static inline bool beyond(double squared, double bound)
{
    return squared > bound * bound * (1.0 + MAY_MARGIN);
}

/* 8.1: L+ S+ L+ */
static inline bool lp_sp_lp(const rs_goal *g, double bound, double *t, double *u, double *v)
{
    const double xi = g->x - g->sin_phi, eta = g->y - 1.0 + g->cos_phi;
    const double rr = xi * xi + eta * eta, size = fabs(xi) + fabs(eta);
    /* t = atan2(eta, xi) >= 0, v = phi - t >= 0 */
    if (beyond(rr, bound) || !may_be_nonnegative(eta, size) ||
        !may_be_nonnegative(xi * g->sin_phi - eta * g->cos_phi, size))
        return false;
    *u = sqrt(rr);
    if (*u >= bound)
        return false;
    *t = atan2(eta, xi);
    if (*t < -RS_ZERO)
        return false;
    *v = wrap_pi(g->phi - *t);
    return *v >= -RS_ZERO;
}

/* 8.2: L+ S+ R+ */
static inline bool lp_sp_rp(const rs_goal *g, double bound, double *t, double *u, double *v)
{
    const double xi = g->x + g->sin_phi, eta = g->y - 1.0 - g->cos_phi;
    const double rr = xi * xi + eta * eta;
    if (rr < 4.0 || beyond(rr - 4.0, bound))
        return false;
    *u = sqrt(rr - 4.0);
    if (*u >= bound)
        return false;
    /* t is the angle of (xi, eta) plus the angle of (u, 2): the angle of (tx, ty); t >= 0,
     * v = t - phi >= 0 */
    const double tx = xi * *u - eta * 2.0, ty = eta * *u + xi * 2.0, size = fabs(tx) + fabs(ty);
    if (!may_be_nonnegative(ty, size) || !may_be_nonnegative(ty * g->cos_phi - tx * g->sin_phi, size))
        return false;
    *t = wrap_pi(atan2(eta, xi) + atan2(2.0, *u));
    *v = wrap_pi(*t - g->phi);
    return *t >= -RS_ZERO && *v >= -RS_ZERO;
}

/* 8.3: L+ R- L (the paper's typo corrected as OMPL does) */
static inline bool lp_rm_l(const rs_goal *g, double bound, double *t, double *u, double *v)
{
    const double xi = g->x - g->sin_phi, eta = g->y - 1.0 + g->cos_phi;
    const double rr = xi * xi + eta * eta;
    /* u = -2 asin(r / 4), and 2 asin(x) >= 2x: |u| >= r / 2 */
    if (rr > 16.0 || beyond(rr, 2.0 * bound))
        return false;
    const double r = sqrt(rr);
    /* t = angle of (xi, eta) + pi + u / 2 >= 0: the angle of (xi, eta) turned by
     * (cos, sin) = (-cos(u / 2), -sin(u / 2)) = (-sqrt(1 - r^2 / 16), r / 4) */
    const double c = -sqrt(fmax(1.0 - r * r / 16.0, 0.0)), s = 0.25 * r;
    if (!may_be_nonnegative(eta * c + xi * s, r))
        return false;
    *u = -2.0 * asin(0.25 * r);
    if (-*u >= bound)
        return false;
    *t = wrap_pi(atan2(eta, xi) + 0.5 * *u + M_PI);
    *v = wrap_pi(g->phi - *t + *u);
    return *t >= -RS_ZERO && *u <= RS_ZERO;
}

/* The tau and omega of formulas 8.7 and 8.8 (OMPL's tauOmega) from the sines and cosines of
 * u, of the heading change delta = u - v of the two middle arcs, and of v. Returns false
 * without computing them when tau cannot be >= 0. */
static inline bool tau_omega(const rs_goal *g, double u, double v, double cos_u, double sin_u,
                             double cos_delta, double sin_delta, double cos_v, double xi, double eta,
                             double *tau, double *omega)
{
    const double a = sin_u - sin_delta, b = cos_u - cos_delta - 1.0;
    const double ty = eta * a - xi * b, tx = xi * a + eta * b;
    const double t2 = 2.0 * (cos_delta - cos_v - cos_u) + 3.0;
    if (!may_be_nonnegative(t2 < 0 ? -ty : ty, fabs(tx) + fabs(ty)))
        return false;
    const double t1 = atan2(ty, tx);
    *tau = t2 < 0 ? wrap_pi(t1 + M_PI) : wrap_pi(t1);
    *omega = wrap_pi(*tau - u + v - g->phi);
    return true;
}

/* 8.7: L+ R+ L- R- (lengths t, u, -u, v) */
static inline bool lp_rup_lum_rm(const rs_goal *g, double bound, double *t, double *u, double *v)
{
    const double xi = g->x + g->sin_phi, eta = g->y - 1.0 - g->cos_phi;
    const double rr = xi * xi + eta * eta;
    if (rr > 4.0 * (1.0 + MAY_MARGIN)) /* rho > 1 */
        return false;
    const double rho = 0.25 * (2.0 + sqrt(rr));
    /* u = acos(rho) in [0, pi/3], and acos(rho) >= sqrt(2 (1 - rho)) */
    if (rho > 1.0 || 8.0 * (1.0 - rho) >= bound * bound)
        return false;
    const double cos_u = rho, sin_u = sqrt(1.0 - rho * rho);
    const double cos_2u = 2.0 * cos_u * cos_u - 1.0, sin_2u = 2.0 * sin_u * cos_u;
    *u = acos(rho);
    if (2.0 * *u >= bound || !tau_omega(g, *u, -*u, cos_u, sin_u, cos_2u, sin_2u, cos_u, xi, eta, t, v))
        return false;
    return *t >= -RS_ZERO && *v <= RS_ZERO;
}

/* 8.8: L+ R- L- R+ (lengths t, u, u, v) */
static inline bool lp_rum_lum_rp(const rs_goal *g, double bound, double *t, double *u, double *v)
{
    const double xi = g->x + g->sin_phi, eta = g->y - 1.0 - g->cos_phi;
    const double rho = (20.0 - xi * xi - eta * eta) / 16.0;
    /* u = -acos(rho) in [-pi/2, 0] */
    if (rho < 0.0 || rho > 1.0 || 8.0 * (1.0 - rho) >= bound * bound)
        return false;
    const double cos_u = rho, sin_u = -sqrt(1.0 - rho * rho);
    *u = -acos(rho);
    if (*u < -HALF_PI || -2.0 * *u >= bound ||
        !tau_omega(g, *u, *u, cos_u, sin_u, 1.0, 0.0, cos_u, xi, eta, t, v))
        return false;
    return *t >= -RS_ZERO && *v >= -RS_ZERO;
}

/* 8.9: L+ R-(pi/2) S- L- (lengths t, -pi/2, u, v) */
static inline bool lp_rm_sm_lm(const rs_goal *g, double bound, double *t, double *u, double *v)
{
    const double xi = g->x - g->sin_phi, eta = g->y - 1.0 + g->cos_phi;
    const double rr = xi * xi + eta * eta;
    /* u = 2 - sqrt(rr - 4) <= 0, |u| < bound */
    if (rr < 4.0 || rr - 4.0 < 4.0 * (1.0 - MAY_MARGIN) || beyond(rr - 4.0, bound + 2.0))
        return false;
    const double r = sqrt(rr - 4.0);
    *u = 2.0 - r;
    if (*u > RS_ZERO || fabs(*u) >= bound)
        return false;
    /* t is the angle of (xi, eta) plus the angle of (-2, r): the angle of (tx, ty); t >= 0,
     * v = phi - pi/2 - t <= 0, that is cos(phi - t) >= 0 */
    const double tx = xi * -2.0 - eta * r, ty = eta * -2.0 + xi * r, size = fabs(tx) + fabs(ty);
    if (!may_be_nonnegative(ty, size) || !may_be_nonnegative(tx * g->cos_phi + ty * g->sin_phi, size))
        return false;
    *t = wrap_pi(atan2(eta, xi) + atan2(r, -2.0));
    *v = wrap_pi(g->phi - HALF_PI - *t);
    return *t >= -RS_ZERO && *v <= RS_ZERO;
}

/* 8.10: L+ R-(pi/2) S- R- (lengths t, -pi/2, u, v) */
static inline bool lp_rm_sm_rm(const rs_goal *g, double bound, double *t, double *u, double *v)
{
    const double xi = g->x + g->sin_phi, eta = g->y - 1.0 - g->cos_phi;
    const double rr = xi * xi + eta * eta;
    /* u = 2 - sqrt(rr) <= 0, |u| < bound */
    if (rr < 4.0 || beyond(rr, bound + 2.0))
        return false;
    const double rho = sqrt(rr);
    *u = 2.0 - rho;
    if (fabs(*u) >= bound)
        return false;
    /* t = atan2(xi, -eta) >= 0; v = t + pi/2 - phi <= 0, that is cos(t - phi) <= 0 */
    if (!may_be_nonnegative(xi, rho) || !may_be_nonnegative(eta * g->cos_phi - xi * g->sin_phi, rho))
        return false;
    *t = atan2(xi, -eta);
    *v = wrap_pi(*t + HALF_PI - g->phi);
    return *t >= -RS_ZERO && *v <= RS_ZERO;
}

/* 8.11: L+ R-(pi/2) S- L-(pi/2) R+ (lengths t, -pi/2, u, -pi/2, v; the paper's typo
 * corrected as OMPL does) */
static inline bool lp_rm_s_lm_rp(const rs_goal *g, double bound, double *t, double *u, double *v)
{
    const double xi = g->x + g->sin_phi, eta = g->y - 1.0 - g->cos_phi;
    const double rr = xi * xi + eta * eta;
    /* u = 4 - sqrt(rr - 4) <= 0, |u| < bound */
    if (rr < 4.0 || rr - 4.0 < 16.0 * (1.0 - MAY_MARGIN) || beyond(rr - 4.0, bound + 4.0))
        return false;
    *u = 4.0 - sqrt(rr - 4.0);
    if (*u > RS_ZERO || fabs(*u) >= bound)
        return false;
    /* t = atan2(ty, tx) >= 0, v = t - phi >= 0 */
    const double ty = (4.0 - *u) * xi - 2.0 * eta, tx = -2.0 * xi + (*u - 4.0) * eta,
                 size = fabs(tx) + fabs(ty);
    if (!may_be_nonnegative(ty, size) || !may_be_nonnegative(ty * g->cos_phi - tx * g->sin_phi, size))
        return false;
    *t = wrap_pi(atan2(ty, tx));
    *v = wrap_pi(*t - g->phi);
    return *t >= -RS_ZERO && *v >= -RS_ZERO;
}

/* How a base formula's t, u, v make the word's lengths. */
typedef enum layout {
    LAYOUT_T_U_V,     /* CSC, CCC */
    LAYOUT_V_U_T,     /* CCC driven backwards */
    LAYOUT_T_U_MU_V,  /* CCCC of 8.7 */
    LAYOUT_T_U_U_V,   /* CCCC of 8.8 */
    LAYOUT_T_H_U_V,   /* CCSC: the second arc a quarter turn */
    LAYOUT_V_U_H_T,   /* CSCC, CCSC driven backwards */
    LAYOUT_T_H_U_H_V, /* CCSCC */
} layout;

typedef bool (*rs_formula)(const rs_goal *g, double bound, double *t, double *u, double *v);

/* Offer the word `types` with the lengths `lay` makes of t, u, v (negated when
 * time-flipped). It replaces the best when strictly shorter, compared as OMPL compares (the
 * formula's own lengths against the best's total less the word's quarter turns, `fixed`), so
 * that a tie rounds the same way and goes to the same word. */
static inline void rs_offer(word *best, layout lay, const char *types, double sign, double fixed, double t,
                            double u, double v)
{
    const bool doubled = lay == LAYOUT_T_U_MU_V || lay == LAYOUT_T_U_U_V; /* u is two arcs */
    const double own = doubled ? fabs(t) + 2.0 * fabs(u) + fabs(v) : fabs(t) + fabs(u) + fabs(v);
    if (!(own < best->length - fixed))
        return;
    double *len = best->len;
    int n = 3;
    switch (lay) {
    case LAYOUT_T_U_V:
        len[0] = t, len[1] = u, len[2] = v;
        break;
    case LAYOUT_V_U_T:
        len[0] = v, len[1] = u, len[2] = t;
        break;
    case LAYOUT_T_U_MU_V:
        len[0] = t, len[1] = u, len[2] = -u, len[3] = v, n = 4;
        break;
    case LAYOUT_T_U_U_V:
        len[0] = t, len[1] = u, len[2] = u, len[3] = v, n = 4;
        break;
    case LAYOUT_T_H_U_V:
        len[0] = t, len[1] = -HALF_PI, len[2] = u, len[3] = v, n = 4;
        break;
    case LAYOUT_V_U_H_T:
        len[0] = v, len[1] = u, len[2] = -HALF_PI, len[3] = t, n = 4;
        break;
    case LAYOUT_T_H_U_H_V:
        len[0] = t, len[1] = -HALF_PI, len[2] = u, len[3] = -HALF_PI, len[4] = v, n = 5;
        break;
    }
    double total = 0;
    for (int i = 0; i < n; i++) {
        len[i] *= sign;
        total += fabs(len[i]);
    }
    best->length = total;
    best->types = types;
    best->n = n;
}

/* A formula on the goal, time-flipped, reflected and both. `fixed` is the length of the
 * word's quarter turns, which the formula's bound leaves out. */
static inline void rs_try4(word *best, rs_formula formula, layout lay, const char *types,
                           const char *mirrored, double fixed, const rs_goal *g)
{
    const rs_goal variants[4] = {
        {g->x, g->y, g->phi, g->sin_phi, g->cos_phi},
        {-g->x, g->y, -g->phi, -g->sin_phi, g->cos_phi}, /* time-flip */
        {g->x, -g->y, -g->phi, -g->sin_phi, g->cos_phi}, /* reflect */
        {-g->x, -g->y, g->phi, g->sin_phi, g->cos_phi},  /* both */
    };
    for (int i = 0; i < 4; i++) {
        double t, u, v;
        if (formula(&variants[i], best->length - fixed, &t, &u, &v))
            rs_offer(best, lay, i < 2 ? types : mirrored, (i & 1) ? -1.0 : 1.0, fixed, t, u, v);
    }
}

static void reeds_shepp(word *best, double x, double y, double phi)
{
    const rs_goal g = {x, y, phi, sin(phi), cos(phi)};
    /* the same goal driven from its end back to the start, in the end's frame */
    const rs_goal back = {x * g.cos_phi + y * g.sin_phi, x * g.sin_phi - y * g.cos_phi, phi, g.sin_phi,
                          g.cos_phi};
    best->length = INFINITY;
    best->n = 0;
    best->types = "";
    /* CSC */
    rs_try4(best, lp_sp_lp, LAYOUT_T_U_V, "LSL", "RSR", 0.0, &g);
    rs_try4(best, lp_sp_rp, LAYOUT_T_U_V, "LSR", "RSL", 0.0, &g);
    /* CCC */
    rs_try4(best, lp_rm_l, LAYOUT_T_U_V, "LRL", "RLR", 0.0, &g);
    rs_try4(best, lp_rm_l, LAYOUT_V_U_T, "LRL", "RLR", 0.0, &back);
    /* CCCC */
    rs_try4(best, lp_rup_lum_rm, LAYOUT_T_U_MU_V, "LRLR", "RLRL", 0.0, &g);
    rs_try4(best, lp_rum_lum_rp, LAYOUT_T_U_U_V, "LRLR", "RLRL", 0.0, &g);
    /* CCSC and CSCC */
    rs_try4(best, lp_rm_sm_lm, LAYOUT_T_H_U_V, "LRSL", "RLSR", HALF_PI, &g);
    rs_try4(best, lp_rm_sm_rm, LAYOUT_T_H_U_V, "LRSR", "RLSL", HALF_PI, &g);
    rs_try4(best, lp_rm_sm_lm, LAYOUT_V_U_H_T, "LSRL", "RSLR", HALF_PI, &back);
    rs_try4(best, lp_rm_sm_rm, LAYOUT_V_U_H_T, "RSRL", "LSLR", HALF_PI, &back);
    /* CCSCC */
    rs_try4(best, lp_rm_s_lm_rp, LAYOUT_T_H_U_H_V, "LRSLR", "RLSRL", M_PI, &g);
}

/* ---- Dubins --------------------------------------------------------------------------- */

/* An angle in [0, 2 pi), a turn within rounding of a whole one counting as none. */
static inline double dubins_arc(double a)
{
    a -= TWO_PI * floor(a / TWO_PI);
    return (a > TWO_PI - DUBINS_ZERO || a < DUBINS_ZERO) ? 0.0 : a;
}

static inline void dubins_offer(word *best, const char *types, double t, double p, double q)
{
    const double total = t + p + q;
    if (!(total < best->length))
        return;
    best->length = total;
    best->types = types;
    best->n = 3;
    best->len[0] = t, best->len[1] = p, best->len[2] = q;
}

/* A lower bound of two arcs t, q >= 0 whose sum is `turn` modulo 2 pi (a little less, so
 * that rounding never prunes a candidate that could win). */
static inline double arcs_at_least(double turn)
{
    const double a = dubins_arc(turn);
    return a > TWO_PI - 1e-9 ? 0.0 : fmax(a - 1e-9, 0.0);
}

/* May a candidate whose straight or middle arc is sqrt(squared) long and whose other arcs are
 * at least `arcs` beat `best`? */
static inline bool may_beat(double squared, double arcs, double best)
{
    return best - arcs > 0 && !beyond(squared, best - arcs);
}

/* Each word's two outer arcs sum, modulo 2 pi, to a turn known before any angle is computed
 * (LSL: beta - alpha; RLR: alpha - beta + p; ...): with the straight or middle length, a lower
 * bound that leaves most candidates before their atan2. */
static void dubins(word *best, double d, double alpha, double beta)
{
    best->length = INFINITY;
    best->n = 0;
    best->types = "";
    if (d == 0.0 && fabs(wrap_pi(alpha - beta)) <= DUBINS_ZERO) {
        best->length = 0.0;
        return;
    }
    const double ca = cos(alpha), sa = sin(alpha), cb = cos(beta), sb = sin(beta);
    const double cab = ca * cb + sa * sb; /* cos(alpha - beta) */
    const double left_turn = arcs_at_least(beta - alpha), right_turn = arcs_at_least(alpha - beta);
    double tmp, p, theta;

    tmp = 2.0 + d * d - 2.0 * (cab - d * (sa - sb)); /* LSL */
    if (tmp >= -DUBINS_ZERO && may_beat(tmp, left_turn, best->length)) {
        p = sqrt(fmax(tmp, 0.0));
        theta = atan2(cb - ca, d + sa - sb);
        dubins_offer(best, "LSL", dubins_arc(theta - alpha), p, dubins_arc(beta - theta));
    }
    tmp = 2.0 + d * d - 2.0 * (cab - d * (sb - sa)); /* RSR */
    if (tmp >= -DUBINS_ZERO && may_beat(tmp, right_turn, best->length)) {
        p = sqrt(fmax(tmp, 0.0));
        theta = atan2(ca - cb, d - sa + sb);
        dubins_offer(best, "RSR", dubins_arc(alpha - theta), p, dubins_arc(theta - beta));
    }
    tmp = d * d - 2.0 + 2.0 * (cab - d * (sa + sb)); /* RSL */
    if (tmp >= -DUBINS_ZERO && may_beat(tmp, 0.0, best->length)) {
        p = sqrt(fmax(tmp, 0.0));
        /* atan2(ca + cb, d - sa - sb) - atan2(2, p), as one atan2 */
        const double ex = d - sa - sb, ey = ca + cb;
        theta = atan2(ey * p - ex * 2.0, ex * p + ey * 2.0);
        dubins_offer(best, "RSL", dubins_arc(alpha - theta), p, dubins_arc(beta - theta));
    }
    tmp = d * d - 2.0 + 2.0 * (cab + d * (sa + sb)); /* LSR */
    if (tmp >= -DUBINS_ZERO && may_beat(tmp, 0.0, best->length)) {
        p = sqrt(fmax(tmp, 0.0));
        /* atan2(-ca - cb, d + sa + sb) - atan2(-2, p), as one atan2 */
        const double ex = d + sa + sb, ey = -ca - cb;
        theta = atan2(ey * p + ex * 2.0, ex * p - ey * 2.0);
        dubins_offer(best, "LSR", dubins_arc(theta - alpha), p, dubins_arc(theta - beta));
    }
    /* the middle arc of RLR and LRL, 2 pi - acos(tmp), is longer than pi */
    tmp = 0.125 * (6.0 - d * d + 2.0 * (cab + d * (sa - sb))); /* RLR */
    if (fabs(tmp) < 1.0 && M_PI < best->length) {
        p = TWO_PI - acos(tmp);
        if (p + arcs_at_least(alpha - beta + p) < best->length) {
            theta = atan2(ca - cb, d - sa + sb);
            const double t = dubins_arc(alpha - theta + 0.5 * p);
            dubins_offer(best, "RLR", t, p, dubins_arc(alpha - beta - t + p));
        }
    }
    tmp = 0.125 * (6.0 - d * d + 2.0 * (cab - d * (sa - sb))); /* LRL */
    if (fabs(tmp) < 1.0 && M_PI < best->length) {
        p = TWO_PI - acos(tmp);
        if (p + arcs_at_least(beta - alpha + p) < best->length) {
            theta = atan2(cb - ca, d + sa - sb);
            const double t = dubins_arc(theta - alpha + 0.5 * p);
            dubins_offer(best, "LRL", t, p, dubins_arc(beta - alpha - t + p));
        }
    }
}

/* ---- curves --------------------------------------------------------------------------- */

/* The curve of a normalised word: lengths in metres, rounding-sized segments left out and
 * neighbours of one type and direction joined (L+ S0 L+ is one arc). */
static void curve_from_word(pb_curve *out, const word *w, double radius)
{
    out->n = 0;
    out->radius = radius;
    for (int i = 0; i < w->n; i++) {
        const double len = w->len[i];
        if (fabs(len) <= SEGMENT_ZERO)
            continue;
        pb_curve_segment *last = out->n > 0 ? &out->segments[out->n - 1] : NULL;
        if (last && last->type == w->types[i] && (last->length < 0) == (len < 0))
            last->length += len * radius;
        else
            out->segments[out->n++] = (pb_curve_segment){w->types[i], len * radius};
    }
}

bool pb_curve_shortest(pb_curve *out, pb_curve_family family, const double *a, const double *b, double radius)
{
    out->n = 0;
    out->radius = radius;
    for (int i = 0; i < 3; i++)
        if (!isfinite(a[i]) || !isfinite(b[i]))
            return false;
    if (!(radius > 0) || !isfinite(radius) || (unsigned)family >= PB_CURVE_FAMILY_COUNT)
        return false;
    /* normalised as OMPL does, so that a tie (two words of one length, as the CCC words
     * often are) rounds the same way and goes to the same word */
    const double dx = b[0] - a[0], dy = b[1] - a[1];
    word best;
    if (family == PB_CURVE_REEDS_SHEPP) {
        const double c = cos(a[2]), s = sin(a[2]);
        /* the formulas wrap their angles: the heading change needs wrapping only when far out */
        const double phi = fabs(b[2] - a[2]) <= 2.0 * TWO_PI ? b[2] - a[2] : wrap_angle(b[2] - a[2]);
        reeds_shepp(&best, (c * dx + s * dy) / radius, (-s * dx + c * dy) / radius, phi);
    } else {
        const double d = sqrt(dx * dx + dy * dy) / radius, th = atan2(dy, dx);
        dubins(&best, d, dubins_arc(a[2] - th), dubins_arc(b[2] - th));
    }
    curve_from_word(out, &best, radius);
    return true;
}

double pb_curve_length(const pb_curve *curve)
{
    double total = 0;
    for (int i = 0; i < curve->n; i++)
        total += fabs(curve->segments[i].length);
    return total;
}

/* Advance pose p (x, y, yaw) by a segment of type `type` and signed length `len`. */
static void advance(double *p, char type, double len, double radius)
{
    if (type == 'S') {
        p[0] += len * cos(p[2]);
        p[1] += len * sin(p[2]);
        return;
    }
    const double turn = (type == 'L' ? len : -len) / radius;
    /* the chord, 2 r sin(len / 2r) (signed: behind in reverse) along the mid heading: accurate
     * for small turns too */
    const double chord = 2.0 * radius * sin(0.5 * len / radius);
    const double mid = p[2] + 0.5 * turn;
    p[0] += chord * cos(mid);
    p[1] += chord * sin(mid);
    p[2] += turn;
}

void pb_curve_point(const pb_curve *curve, const double *start, double s, double *out)
{
    double p[3] = {start[0], start[1], start[2]};
    /* NaN travels nowhere; the length itself travels every segment whole (not a rounding
     * short of the last one's end) */
    double left = s >= pb_curve_length(curve) ? INFINITY : s > 0 ? s : 0.0;
    for (int i = 0; i < curve->n && left > 0; i++) {
        const pb_curve_segment *seg = &curve->segments[i];
        const double full = fabs(seg->length);
        const double step = left < full ? left : full;
        advance(p, seg->type, seg->length < 0 ? -step : step, curve->radius);
        left -= step;
    }
    out[0] = p[0];
    out[1] = p[1];
    out[2] = wrap_angle(p[2]);
}

bool pb_curve_reverse_at(const pb_curve *curve, double s)
{
    if (curve->n == 0)
        return false;
    double end = 0;
    for (int i = 0; i < curve->n; i++) {
        end += fabs(curve->segments[i].length);
        if (s < end)
            return curve->segments[i].length < 0;
    }
    return curve->segments[curve->n - 1].length < 0;
}

int pb_curve_cusps(const pb_curve *curve)
{
    int cusps = 0;
    for (int i = 1; i < curve->n; i++)
        cusps += (curve->segments[i].length < 0) != (curve->segments[i - 1].length < 0);
    return cusps;
}

void pb_curve_write_json(FILE *out, const pb_curve *curve)
{
    fputc('[', out);
    for (int i = 0; i < curve->n; i++) {
        fprintf(out, "%s{\"type\": \"%c\", \"length\": ", i ? ", " : "", curve->segments[i].type);
        pb_json_write_number(out, curve->segments[i].length);
        fputc('}', out);
    }
    fputc(']', out);
}

static const char *const family_names[PB_CURVE_FAMILY_COUNT] = {"reeds_shepp", "dubins"};

const char *pb_curve_family_name(pb_curve_family family)
{
    return (unsigned)family < PB_CURVE_FAMILY_COUNT ? family_names[family] : "unknown";
}

int pb_curve_family_from_name(const char *name)
{
    for (int i = 0; i < PB_CURVE_FAMILY_COUNT; i++)
        if (name && strcmp(name, family_names[i]) == 0)
            return i;
    return -1;
}
