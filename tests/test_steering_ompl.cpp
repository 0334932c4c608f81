// Steering curves (issue 18) against OMPL's state spaces (Debian's libompl-dev): on seeded
// random pairs and several radii, pb_curve_shortest's length equals
// ReedsSheppStateSpace::distance and DubinsStateSpace::distance (relative error <= 1e-9), its
// word equals OMPL's path (types and lengths, after OMPL's zero-length segments are left out
// as ours are), and its poses along the way equal OMPL's interpolate() at several fractions.
//
// Where the two words differ with equal lengths the optimum is not unique (a tie): then both
// words must reach the goal. Where the lengths differ, the shorter must reach the goal (checked
// by integrating both words with pb_curve_point): a longer OMPL answer is counted as OMPL's
// and printed, a longer or wrong answer of ours fails. OMPL's Dubins space is not symmetric by
// default (as ours): a -> b only.
#include <ompl/base/spaces/DubinsStateSpace.h>
#include <ompl/base/spaces/ReedsSheppStateSpace.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

extern "C" {
#include "harness.h"
#include "planbench/steering.h"
}

namespace ob = ompl::base;

namespace
{
const double radii[] = {0.5, 1.0, 3.9845, 10.0};
const double fractions[] = {0.05, 0.25, 0.5, 0.75, 0.95, 0.999};
const int pairs_per_radius = 2500;

double wrapped(double a)
{
    return a - 2.0 * M_PI * std::floor((a + M_PI) / (2.0 * M_PI));
}

double pose_error(const double *p, const double *q)
{
    return std::max(std::hypot(p[0] - q[0], p[1] - q[1]), std::fabs(wrapped(p[2] - q[2])));
}

// An OMPL word as a pb_curve: segments in metres, those of length 0 (within rounding) left
// out and neighbours of one type and direction joined, as pb_curve_shortest does.
void add_segment(pb_curve *c, char type, double normalised, double radius)
{
    if (std::fabs(normalised) <= 1e-12)
        return;
    if (c->n > 0 && c->segments[c->n - 1].type == type &&
        (c->segments[c->n - 1].length < 0) == (normalised < 0)) {
        c->segments[c->n - 1].length += normalised * radius;
        return;
    }
    c->segments[c->n].type = type;
    c->segments[c->n].length = normalised * radius;
    c->n++;
}

pb_curve from_ompl(const ob::ReedsSheppStateSpace::ReedsSheppPath &path, double radius)
{
    pb_curve c{};
    c.radius = radius;
    for (int i = 0; i < 5; i++) {
        switch (path.type_[i]) {
        case ob::ReedsSheppStateSpace::RS_LEFT:
            add_segment(&c, 'L', path.length_[i], radius);
            break;
        case ob::ReedsSheppStateSpace::RS_RIGHT:
            add_segment(&c, 'R', path.length_[i], radius);
            break;
        case ob::ReedsSheppStateSpace::RS_STRAIGHT:
            add_segment(&c, 'S', path.length_[i], radius);
            break;
        case ob::ReedsSheppStateSpace::RS_NOP:
            break;
        }
    }
    return c;
}

pb_curve from_ompl(const ob::DubinsStateSpace::DubinsPath &path, double radius)
{
    pb_curve c{};
    c.radius = radius;
    for (int i = 0; i < 3; i++) {
        const char type = path.type_[i] == ob::DubinsStateSpace::DUBINS_LEFT    ? 'L'
                          : path.type_[i] == ob::DubinsStateSpace::DUBINS_RIGHT ? 'R'
                                                                                : 'S';
        add_segment(&c, type, path.length_[i], radius);
    }
    return c;
}

bool same_word(const pb_curve &a, const pb_curve &b, double tolerance)
{
    if (a.n != b.n)
        return false;
    for (int i = 0; i < a.n; i++)
        if (a.segments[i].type != b.segments[i].type ||
            std::fabs(a.segments[i].length - b.segments[i].length) > tolerance)
            return false;
    return true;
}

void print_curve(const char *what, const pb_curve &c)
{
    std::fprintf(stderr, "  %s:", what);
    for (int i = 0; i < c.n; i++)
        std::fprintf(stderr, " %c%.17g", c.segments[i].type, c.segments[i].length);
    std::fprintf(stderr, " (length %.17g)\n", pb_curve_length(&c));
}

struct tally {
    int pairs = 0, same = 0, ties = 0, ompl_longer = 0, failures = 0;
};

// One pair against one OMPL space; Path is the space's path type.
template <class Space, class Path>
void compare(Space &space, const Path &ompl_path, pb_curve_family family, const double *a, const double *b,
             double radius, ob::State *s1, ob::State *s2, ob::State *between, tally &count)
{
    count.pairs++;
    pb_curve ours;
    if (!pb_curve_shortest(&ours, family, a, b, radius)) {
        count.failures++;
        return;
    }
    const double ours_length = pb_curve_length(&ours);
    const double ompl_length = space.distance(s1, s2);
    const double tolerance = 1e-9 * std::max(ompl_length, radius);
    const pb_curve theirs = from_ompl(ompl_path, radius);
    double ours_end[3], theirs_end[3];
    pb_curve_point(&ours, a, ours_length, ours_end);
    pb_curve_point(&theirs, a, pb_curve_length(&theirs), theirs_end);
    const bool ours_reaches = pose_error(ours_end, b) <= 1e-9;
    const bool theirs_reaches = pose_error(theirs_end, b) <= 1e-9;
    const char *name = pb_curve_family_name(family);

    if (std::fabs(ours_length - ompl_length) > tolerance) {
        if (ours_reaches && ours_length < ompl_length) {
            // OMPL's answer is longer: it missed the shortest word (or its word misses the goal)
            count.ompl_longer++;
            std::fprintf(stderr,
                         "%s r=%g (%.17g, %.17g, %.17g) -> (%.17g, %.17g, %.17g): OMPL's %.17g is longer "
                         "than ours %.17g (OMPL's word %s the goal)\n",
                         name, radius, a[0], a[1], a[2], b[0], b[1], b[2], ompl_length, ours_length,
                         theirs_reaches ? "reaches" : "misses");
            print_curve("ours", ours);
            print_curve("OMPL", theirs);
        } else {
            count.failures++;
            std::fprintf(stderr,
                         "%s r=%g (%.17g, %.17g, %.17g) -> (%.17g, %.17g, %.17g): length %.17g, OMPL %.17g; "
                         "ours %s the goal, OMPL's %s\n",
                         name, radius, a[0], a[1], a[2], b[0], b[1], b[2], ours_length, ompl_length,
                         ours_reaches ? "reaches" : "misses", theirs_reaches ? "reaches" : "misses");
            print_curve("ours", ours);
            print_curve("OMPL", theirs);
        }
        return;
    }
    if (!ours_reaches) {
        count.failures++;
        std::fprintf(stderr, "%s r=%g: our curve misses the goal by %g\n", name, radius,
                     pose_error(ours_end, b));
        return;
    }
    if (!same_word(ours, theirs, tolerance)) {
        // equal lengths, different words: two optimal curves; OMPL's must reach the goal too
        count.ties++;
        if (!theirs_reaches) {
            count.failures++;
            std::fprintf(stderr, "%s r=%g: a tie whose OMPL word misses the goal\n", name, radius);
            print_curve("ours", ours);
            print_curve("OMPL", theirs);
        }
        return;
    }
    count.same++;
    // the same word: the same poses along it
    const auto *state = between->as<ob::SE2StateSpace::StateType>();
    for (double f : fractions) {
        space.interpolate(s1, s2, f, between);
        const double theirs_pose[3] = {state->getX(), state->getY(), state->getYaw()};
        double ours_pose[3];
        pb_curve_point(&ours, a, f * ours_length, ours_pose);
        const double err = pose_error(ours_pose, theirs_pose);
        if (!(err <= 1e-9 * std::max(1.0, ompl_length))) {
            count.failures++;
            std::fprintf(stderr, "%s r=%g: at %g of the way, %g from OMPL's pose\n", name, radius, f, err);
            print_curve("ours", ours);
            break;
        }
    }
}

void report(const char *name, const tally &t)
{
    std::printf("%s: %d pairs, %d the same word, %d ties (another word of equal length), %d where OMPL's is "
                "longer, %d failures\n",
                name, t.pairs, t.same, t.ties, t.ompl_longer, t.failures);
}
} // namespace

int main()
{
    pb_rng rng;
    pb_rng_seed(&rng, 2018);
    tally rs_count, dubins_count;
    for (double radius : radii) {
        ob::ReedsSheppStateSpace rs(radius);
        ob::DubinsStateSpace dubins(radius);
        ob::State *s1 = rs.allocState(), *s2 = rs.allocState(), *between = rs.allocState();
        for (int k = 0; k < pairs_per_radius; k++) {
            double a[3], b[3];
            for (double *p : {a, b}) {
                p[0] = pb_rng_range(&rng, -15.0, 15.0);
                p[1] = pb_rng_range(&rng, -15.0, 15.0);
                p[2] = pb_rng_range(&rng, -M_PI, M_PI);
            }
            if (k % 4 == 0) { // near pairs, where the words with cusps and loops win
                b[0] = a[0] + pb_rng_range(&rng, -2.0, 2.0) * radius;
                b[1] = a[1] + pb_rng_range(&rng, -2.0, 2.0) * radius;
            }
            s1->as<ob::SE2StateSpace::StateType>()->setXY(a[0], a[1]);
            s1->as<ob::SE2StateSpace::StateType>()->setYaw(a[2]);
            s2->as<ob::SE2StateSpace::StateType>()->setXY(b[0], b[1]);
            s2->as<ob::SE2StateSpace::StateType>()->setYaw(b[2]);
            compare(rs, rs.reedsShepp(s1, s2), PB_CURVE_REEDS_SHEPP, a, b, radius, s1, s2, between, rs_count);
            compare(dubins, dubins.dubins(s1, s2), PB_CURVE_DUBINS, a, b, radius, s1, s2, between,
                    dubins_count);
        }
        rs.freeState(s1);
        rs.freeState(s2);
        rs.freeState(between);
    }
    report("reeds_shepp", rs_count);
    report("dubins", dubins_count);
    for (const tally *t : {&rs_count, &dubins_count}) {
        CHECK(t->pairs == 4 * pairs_per_radius);
        CHECK_MSG(t->failures == 0, "%d failures", t->failures);
        // Ties are real: a C|C|C goal is often reached by an L|R|L and an R|L|R word of one
        // length. pb_curve_shortest compares candidates in OMPL's order and rounding, so with
        // Debian's OMPL none is seen; another libm may round a few the other way.
        CHECK_MSG(t->ties <= t->pairs / 20, "%d ties", t->ties);
        CHECK_MSG(t->same >= t->pairs * 9 / 10, "%d of %d the same word", t->same, t->pairs);
    }
    return pb_test_summary("steering_ompl");
}
