// ompl_car_control.cpp -- OMPL's control-based planners on the car benchmark of issue 18.
//
// The reference side of bench/compare_car.py: a kinematic car planned with OMPL's control
// planners (Debian's libompl-dev 1.5.2), on a map_server map, with planbench's footprint
// rule, so planbench's `sst`, `rrt_control` and `hybrid_astar` can be timed against it side
// by side. It is a yardstick, not part of planbench (the only C++ in the tree besides the FCL
// shim, built outside meson like the OMPL anchor of compare_ompl.py):
//
//   g++ -O2 -DNDEBUG $(pkg-config --cflags ompl) -std=c++17 -Wall -Wextra
//       -o build-ompl/ompl_car_control bench/ompl_car_control.cpp $(pkg-config --libs ompl) -lpthread
//   (one line; bench/compare_car.py runs it when the binary is missing)
//
// The problem (../shared/spec/vehicles-scenarios.md, section 1 "OMPL control", and 2(b)):
//   * state: SE(2), (x, y, yaw) of the rear axle centre; bounds = the map's extent;
//   * control: (v, steer), v in [--v-min, --v-max] m/s (default [-2, 5]), |steer| <= max
//     steer; held for 1..10 propagation steps of 0.1 s (OMPL's control duration);
//   * model: x' = v cos(yaw), y' = v sin(yaw), yaw' = v tan(steer) / L, integrated exactly
//     (a constant control drives a straight line or a circular arc);
//   * validity: the footprint rectangle (length, width, rear overhang = rear bumper to rear
//     axle) at the state's pose covers free cells only. Every cell the rectangle overlaps is
//     looked up (the rectangle is rasterised row by row; per row, a prefix sum of blocked
//     cells answers the whole span at once, so the checker is exact and as fast as we can
//     make it: OMPL's side is not given a looser or a slower check than planbench's). Any part
//     outside the map is blocked. A cell is free when map_server would publish 0 for it
//     (planbench's rule: unknown and occupied both block).
//   * OMPL checks states only, after each propagation step (propagateWhileValid): nothing
//     between the steps. The JSON reports whether the returned path also survives a fine
//     re-check (every 1/`--fine` of a step), which planbench's swept checks guarantee;
//   * goal: a GoalSampleableRegion, the position within --goal-radius (default 1 m) of the
//     goal, any heading; goal samples are uniform in that disc with a uniform heading.
//
// One run per process; one JSON line on stdout (see --help). Counts are repeatable for a
// fixed seed (OMPL's planners are single-threaded and seeded by ompl::RNG::setSeed), times
// are not: run it side by side with planbench and compare ratios.

#include <ompl/base/Goal.h>
#include <ompl/base/PlannerData.h>
#include <ompl/base/PlannerTerminationCondition.h>
#include <ompl/base/ProblemDefinition.h>
#include <ompl/base/ProjectionEvaluator.h>
#include <ompl/base/ScopedState.h>
#include <ompl/base/StateValidityChecker.h>
#include <ompl/base/goals/GoalSampleableRegion.h>
#include <ompl/base/objectives/PathLengthOptimizationObjective.h>
#include <ompl/base/spaces/SE2StateSpace.h>
#include <ompl/config.h>
#include <ompl/control/PathControl.h>
#include <ompl/control/SpaceInformation.h>
#include <ompl/control/StatePropagator.h>
#include <ompl/control/planners/kpiece/KPIECE1.h>
#include <ompl/control/planners/rrt/RRT.h>
#include <ompl/control/planners/sst/SST.h>
#include <ompl/control/spaces/RealVectorControlSpace.h>
#include <ompl/util/Console.h>
#include <ompl/util/RandomNumbers.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace ob = ompl::base;
namespace oc = ompl::control;

// ------------------------------------------------------------------ the map --

// A map_server map: cell (i, j) covers x in [ox + i res, ox + (i+1) res), y likewise, j counted
// from the bottom (the image's last row is j = 0).
struct Map
{
    int w = 0, h = 0;
    double res = 0.0, ox = 0.0, oy = 0.0;
    std::vector<uint32_t> blockedBefore;  // per row j: (w + 1) prefix counts of blocked cells
    size_t nBlocked = 0;

    // blocked cells among columns [i0, i1] of row j (all in range)
    uint32_t blockedIn(int j, int i0, int i1) const
    {
        const uint32_t *row = blockedBefore.data() + (size_t)j * (size_t)(w + 1);
        return row[i1 + 1] - row[i0];
    }
};

struct MapRules
{
    std::string mode = "trinary";
    bool negate = false;
    double occupiedThresh = 0.65, freeThresh = 0.196;
};

static std::string trim(const std::string &s)
{
    size_t a = s.find_first_not_of(" \t\r\"'"), b = s.find_last_not_of(" \t\r\"'");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

static bool parseNumber(const std::string &text, double &out)
{
    const std::string t = trim(text);
    if (t.empty())
        return false;
    char *end = nullptr;
    out = std::strtod(t.c_str(), &end);
    return end && *end == '\0' && std::isfinite(out);
}

static bool parseList(const std::string &text, std::vector<double> &out)
{
    out.clear();
    std::string t = trim(text);
    if (!t.empty() && t.front() == '[')
        t = t.substr(1);
    if (!t.empty() && t.back() == ']')
        t.pop_back();
    std::stringstream ss(t);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        double v;
        if (!parseNumber(item, v))
            return false;
        out.push_back(v);
    }
    return true;
}

// map_server's value of one grey pixel (the rule of planbench's src/io/map_image.c): 0 is free.
static int pixelValue(const MapRules &r, unsigned v, unsigned maxval)
{
    if (r.mode == "raw")
    {
        const unsigned long long scaled = (2ULL * v * 255ULL + maxval) / (2ULL * maxval);
        return scaled <= 100 ? (int)scaled : -1;
    }
    const double p = (double)(r.negate ? v : maxval - v) / (double)maxval;
    if (p > r.occupiedThresh)
        return 100;
    if (p < r.freeThresh)
        return 0;
    return r.mode == "trinary" || !(r.occupiedThresh > r.freeThresh) ? -1 : 50;
}

static bool readPgm(const std::string &path, const MapRules &rules, Map &m, std::string &err)
{
    std::ifstream f(path, std::ios::binary);
    if (!f)
    {
        err = "cannot open " + path;
        return false;
    }
    std::string magic;
    f >> magic;
    if (magic != "P5")
    {
        err = path + ": expected a binary PGM (P5), found '" + magic + "'";
        return false;
    }
    long vals[3];
    for (long &v : vals)
    {
        f >> std::ws;
        while (f.peek() == '#')
        {
            std::string comment;
            std::getline(f, comment);
            f >> std::ws;
        }
        if (!(f >> v) || v <= 0)
        {
            err = path + ": bad PGM header";
            return false;
        }
    }
    if (vals[2] > 65535 || vals[0] > 100000 || vals[1] > 100000)
    {
        err = path + ": PGM too large or maxval above 65535";
        return false;
    }
    f.get();  // the single whitespace byte after maxval
    m.w = (int)vals[0];
    m.h = (int)vals[1];
    const unsigned maxval = (unsigned)vals[2];
    const size_t bytes = (size_t)m.w * (size_t)m.h * (maxval > 255 ? 2 : 1);
    std::vector<unsigned char> px(bytes);
    if (!f.read((char *)px.data(), (std::streamsize)bytes))
    {
        err = path + ": PGM pixels truncated";
        return false;
    }
    m.blockedBefore.assign((size_t)m.h * (size_t)(m.w + 1), 0);
    m.nBlocked = 0;
    for (int row = 0; row < m.h; ++row)
    {
        const int j = m.h - 1 - row;  // y up
        uint32_t *cum = m.blockedBefore.data() + (size_t)j * (size_t)(m.w + 1);
        for (int i = 0; i < m.w; ++i)
        {
            const size_t k = (size_t)row * (size_t)m.w + (size_t)i;
            const unsigned v = maxval > 255 ? (unsigned)px[2 * k] << 8 | px[2 * k + 1] : px[k];
            const bool blocked = pixelValue(rules, v, maxval) != 0;
            cum[i + 1] = cum[i] + (blocked ? 1 : 0);
            m.nBlocked += blocked ? 1 : 0;
        }
    }
    return true;
}

// A map_server YAML file: image, resolution, origin, negate, occupied_thresh, free_thresh, mode.
static bool loadMapYaml(const std::string &path, Map &m, std::string &err)
{
    std::ifstream f(path);
    if (!f)
    {
        err = "cannot open " + path;
        return false;
    }
    MapRules rules;
    std::string image, line;
    std::vector<double> origin;
    bool haveRes = false, haveOrigin = false;
    int lineNo = 0;
    while (std::getline(f, line))
    {
        ++lineNo;
        const size_t hash = line.find('#');
        if (hash != std::string::npos)
            line = line.substr(0, hash);
        const size_t colon = line.find(':');
        if (trim(line).empty())
            continue;
        if (colon == std::string::npos)
        {
            err = path + ":" + std::to_string(lineNo) + ": expected 'key: value'";
            return false;
        }
        const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
        bool ok = true;
        double num = 0.0;
        if (key == "image")
            image = value;
        else if (key == "resolution")
            ok = haveRes = parseNumber(value, m.res) && m.res > 0.0;
        else if (key == "origin")
            ok = haveOrigin = parseList(value, origin) && origin.size() == 3;
        else if (key == "negate")
        {
            ok = value == "0" || value == "1" || value == "true" || value == "false";
            rules.negate = value == "1" || value == "true";
        }
        else if (key == "occupied_thresh" || key == "free_thresh")
        {
            ok = parseNumber(value, num) && num >= 0.0 && num <= 1.0;
            (key == "free_thresh" ? rules.freeThresh : rules.occupiedThresh) = num;
        }
        else if (key == "mode")
        {
            rules.mode = value;
            ok = value == "trinary" || value == "scale" || value == "raw";
        }
        if (!ok)
        {
            err = path + ":" + std::to_string(lineNo) + ": bad value for '" + key + "': " + value;
            return false;
        }
    }
    if (image.empty() || !haveRes || !haveOrigin)
    {
        err = path + ": needs image, resolution and origin";
        return false;
    }
    if (origin[2] != 0.0)
        std::fprintf(stderr, "warning: %s: origin yaw %g ignored (map_server ignores it too)\n", path.c_str(),
                     origin[2]);
    m.ox = origin[0];
    m.oy = origin[1];
    if (image[0] != '/')
    {
        const size_t slash = path.rfind('/');
        if (slash != std::string::npos)
            image = path.substr(0, slash + 1) + image;
    }
    return readPgm(image, rules, m, err);
}

// ----------------------------------------------------------- the vehicle ----

struct Vehicle
{
    std::string name = "lexus_rx450h";
    double length = 4.89, width = 1.896, rearOverhang = 1.1;  // robots/lexus_rx450h.xml
    double wheelbase = 2.79, maxSteer = 0.6109;
};

// The value of attribute `attr` of the first <tag ...> element in `xml`, or "".
static std::string xmlAttr(const std::string &xml, const std::string &tag, const std::string &attr)
{
    size_t at = 0;
    while ((at = xml.find("<" + tag, at)) != std::string::npos)
    {
        const size_t after = at + 1 + tag.size();
        if (after < xml.size() && (std::isspace((unsigned char)xml[after]) || xml[after] == '/' || xml[after] == '>'))
            break;
        at = after;
    }
    if (at == std::string::npos)
        return "";
    const size_t end = xml.find('>', at);
    const std::string el = xml.substr(at, end == std::string::npos ? std::string::npos : end - at);
    for (size_t p = el.find(attr); p != std::string::npos; p = el.find(attr, p + 1))
    {
        if (p == 0 || !std::isspace((unsigned char)el[p - 1]))
            continue;
        size_t q = p + attr.size();
        while (q < el.size() && std::isspace((unsigned char)el[q]))
            ++q;
        if (q >= el.size() || el[q] != '=')
            continue;
        ++q;
        while (q < el.size() && std::isspace((unsigned char)el[q]))
            ++q;
        if (q >= el.size() || (el[q] != '"' && el[q] != '\''))
            return "";
        const size_t close = el.find(el[q], q + 1);
        return close == std::string::npos ? "" : el.substr(q + 1, close - q - 1);
    }
    return "";
}

// The few fields of a planbench <vehicle> file this harness needs (docs/vehicles.md).
static bool loadVehicle(const std::string &path, Vehicle &v, std::string &err)
{
    std::ifstream f(path);
    if (!f)
    {
        err = "cannot open " + path;
        return false;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    std::string xml = ss.str();
    for (size_t c = xml.find("<!--"); c != std::string::npos; c = xml.find("<!--", c))
    {
        const size_t e = xml.find("-->", c);
        xml.erase(c, e == std::string::npos ? std::string::npos : e + 3 - c);
    }
    const std::string name = xmlAttr(xml, "vehicle", "name");
    if (!name.empty())
        v.name = name;
    struct Field
    {
        const char *tag, *attr;
        double *out;
    } fields[] = {{"footprint", "length", &v.length},       {"footprint", "width", &v.width},
                  {"footprint", "rear_overhang", &v.rearOverhang}, {"chassis", "wheelbase", &v.wheelbase},
                  {"limits", "max_steer", &v.maxSteer}};
    for (const Field &fd : fields)
    {
        const std::string text = xmlAttr(xml, fd.tag, fd.attr);
        if (!parseNumber(text, *fd.out))
        {
            err = path + ": <" + fd.tag + "> needs a number in " + fd.attr + (text.empty() ? "" : ", found '" + text + "'");
            return false;
        }
    }
    if (!(v.length > 0 && v.width > 0 && v.rearOverhang >= 0 && v.rearOverhang <= v.length && v.wheelbase > 0 &&
          v.maxSteer > 0 && v.maxSteer < M_PI / 2))
    {
        err = path + ": a non-positive size, a rear axle outside the footprint or max_steer outside (0, pi/2)";
        return false;
    }
    return true;
}

// ------------------------------------------------------------- counters -----

struct Counters
{
    uint64_t stateChecks = 0;       // StateValidityChecker::isValid calls
    uint64_t propagationSteps = 0;  // StatePropagator::propagate calls (one 0.1 s step each)
    uint64_t controls = 0;          // controls sampled (one per RRT and SST iteration)
};
static Counters g_cnt;  // OMPL's control planners are single-threaded

static double processCpuSeconds();

// The first state a planner finds inside the goal region while solving: the time to its first
// solution for all three planners (RRT and KPIECE1 return at it; Debian's SST 1.5.2 calls no
// intermediate-solution callback, so its first solution is seen here, at the goal test of the
// motion that completes it).
struct FirstSolution
{
    bool armed = false;
    std::chrono::steady_clock::time_point t0;
    double cpu0 = 0.0;
    double time = NAN, cpu = NAN;
    uint64_t checks = 0;

    void reached()
    {
        if (!armed)
            return;
        armed = false;
        time = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        cpu = processCpuSeconds() - cpu0;
        checks = g_cnt.stateChecks;
    }
};
static FirstSolution g_first;

// ------------------------------------------------------ footprint checker ----

class FootprintChecker : public ob::StateValidityChecker
{
public:
    FootprintChecker(const ob::SpaceInformationPtr &si, const Map *map, const Vehicle &v)
      : ob::StateValidityChecker(si), map_(map), v_(v)
    {
    }

    bool isValid(const ob::State *s) const override
    {
        ++g_cnt.stateChecks;
        return validRaw(s);
    }

    bool validRaw(const ob::State *s) const
    {
        const auto *se2 = s->as<ob::SE2StateSpace::StateType>();
        return poseFree(se2->getX(), se2->getY(), se2->getYaw());
    }

    // Every cell the footprint rectangle at (x, y, yaw) overlaps is free, and the rectangle is
    // inside the map. Rows of cells are rasterised exactly: the rectangle's x extent over the
    // closed strip of each row gives the span of columns to look up. A rectangle edge lying
    // exactly on a cell boundary also looks up the cell on its other side (closed strips), so
    // the check is never looser than planbench's (shape against the open square of a cell).
    bool poseFree(double x, double y, double yaw) const
    {
        const Map &m = *map_;
        const double c = std::cos(yaw), s = std::sin(yaw);
        const double back = -v_.rearOverhang, front = v_.length - v_.rearOverhang, half = 0.5 * v_.width;
        const double body[4][2] = {{back, -half}, {front, -half}, {front, half}, {back, half}};
        double u[4], w[4];  // corners in cell units from the map's lower-left corner
        double wlo = INFINITY, whi = -INFINITY;
        for (int k = 0; k < 4; ++k)
        {
            const double px = x + c * body[k][0] - s * body[k][1], py = y + s * body[k][0] + c * body[k][1];
            u[k] = (px - m.ox) / m.res;
            w[k] = (py - m.oy) / m.res;
            if (!(u[k] >= 0.0 && u[k] <= m.w && w[k] >= 0.0 && w[k] <= m.h))
                return false;  // any part outside the map (or NaN)
            wlo = std::min(wlo, w[k]);
            whi = std::max(whi, w[k]);
        }
        const int j0 = std::max(0, (int)std::floor(wlo)), j1 = std::min(m.h - 1, (int)std::ceil(whi) - 1);
        for (int j = j0; j <= j1; ++j)
        {
            const double ya = j, yb = j + 1.0;
            double lo = INFINITY, hi = -INFINITY;
            for (int k = 0; k < 4; ++k)
            {
                if (w[k] >= ya && w[k] <= yb)
                {
                    lo = std::min(lo, u[k]);
                    hi = std::max(hi, u[k]);
                }
                const int n = (k + 1) & 3;
                if (w[k] == w[n])
                    continue;
                for (double yc : {ya, yb})
                {
                    if ((w[k] - yc) * (w[n] - yc) <= 0.0)
                    {
                        const double t = (yc - w[k]) / (w[n] - w[k]);
                        const double uc = u[k] + t * (u[n] - u[k]);
                        lo = std::min(lo, uc);
                        hi = std::max(hi, uc);
                    }
                }
            }
            if (!(lo <= hi))
                continue;
            const int i0 = std::max(0, (int)std::floor(lo));
            const int i1 = std::min(m.w - 1, std::max(i0, (int)std::ceil(hi) - 1));
            if (m.blockedIn(j, i0, i1) != 0)
                return false;
        }
        return true;
    }

    // The same question answered slowly, for --self-test: every cell of the bounding box is
    // tested with the separating-axis theorem (rectangle against the cell's square, positive
    // overlap).
    bool poseFreeBruteForce(double x, double y, double yaw) const
    {
        const Map &m = *map_;
        const double c = std::cos(yaw), s = std::sin(yaw);
        const double back = -v_.rearOverhang, front = v_.length - v_.rearOverhang, half = 0.5 * v_.width;
        const double body[4][2] = {{back, -half}, {front, -half}, {front, half}, {back, half}};
        double u[4], w[4];
        for (int k = 0; k < 4; ++k)
        {
            u[k] = (x + c * body[k][0] - s * body[k][1] - m.ox) / m.res;
            w[k] = (y + s * body[k][0] + c * body[k][1] - m.oy) / m.res;
            if (!(u[k] >= 0.0 && u[k] <= m.w && w[k] >= 0.0 && w[k] <= m.h))
                return false;
        }
        const double axes[4][2] = {{1, 0}, {0, 1}, {c, s}, {-s, c}};
        const int i0 = (int)std::floor(*std::min_element(u, u + 4)), i1 = (int)std::ceil(*std::max_element(u, u + 4));
        const int j0 = (int)std::floor(*std::min_element(w, w + 4)), j1 = (int)std::ceil(*std::max_element(w, w + 4));
        for (int j = std::max(0, j0); j < std::min(m.h, j1); ++j)
            for (int i = std::max(0, i0); i < std::min(m.w, i1); ++i)
            {
                const double cell[4][2] = {{(double)i, (double)j}, {i + 1.0, (double)j}, {i + 1.0, j + 1.0}, {(double)i, j + 1.0}};
                bool separated = false;
                for (const auto &ax : axes)
                {
                    double rlo = INFINITY, rhi = -INFINITY, clo = INFINITY, chi = -INFINITY;
                    for (int k = 0; k < 4; ++k)
                    {
                        const double pr = u[k] * ax[0] + w[k] * ax[1], pc = cell[k][0] * ax[0] + cell[k][1] * ax[1];
                        rlo = std::min(rlo, pr);
                        rhi = std::max(rhi, pr);
                        clo = std::min(clo, pc);
                        chi = std::max(chi, pc);
                    }
                    if (rhi <= clo || chi <= rlo)
                    {
                        separated = true;
                        break;
                    }
                }
                if (!separated && m.blockedIn(j, i, i) != 0)
                    return false;
            }
        return true;
    }

private:
    const Map *map_;
    Vehicle v_;
};

// ------------------------------------------------------ the car's motion -----

// One step of duration t under a constant control (v, steer): a straight line or an exact arc.
static void driveExact(double x, double y, double yaw, double v, double steer, double wheelbase, double t, double &ox,
                       double &oy, double &oyaw)
{
    const double curvature = std::tan(steer) / wheelbase, d = v * t;
    if (std::fabs(curvature * d) < 1e-9)
    {
        ox = x + d * std::cos(yaw);
        oy = y + d * std::sin(yaw);
        oyaw = yaw + curvature * d;
    }
    else
    {
        oyaw = yaw + curvature * d;
        ox = x + (std::sin(oyaw) - std::sin(yaw)) / curvature;
        oy = y - (std::cos(oyaw) - std::cos(yaw)) / curvature;
    }
    oyaw = std::remainder(oyaw, 2.0 * M_PI);  // (-pi, pi], SO2StateSpace's bounds
}

class CarPropagator : public oc::StatePropagator
{
public:
    CarPropagator(const oc::SpaceInformationPtr &si, double wheelbase) : oc::StatePropagator(si), L_(wheelbase)
    {
    }

    void propagate(const ob::State *state, const oc::Control *control, double duration,
                   ob::State *result) const override
    {
        ++g_cnt.propagationSteps;
        const auto *s = state->as<ob::SE2StateSpace::StateType>();
        const double *u = control->as<oc::RealVectorControlSpace::ControlType>()->values;
        double x, y, yaw;
        driveExact(s->getX(), s->getY(), s->getYaw(), u[0], u[1], L_, duration, x, y, yaw);
        auto *r = result->as<ob::SE2StateSpace::StateType>();
        r->setXY(x, y);
        r->setYaw(yaw);
    }

private:
    double L_;
};

class CountingControlSampler : public oc::RealVectorControlUniformSampler
{
public:
    using oc::RealVectorControlUniformSampler::RealVectorControlUniformSampler;
    void sample(oc::Control *control) override
    {
        ++g_cnt.controls;
        oc::RealVectorControlUniformSampler::sample(control);
    }
};

// Position within `radius` of (gx, gy), any heading.
class DiscGoal : public ob::GoalSampleableRegion
{
public:
    DiscGoal(const ob::SpaceInformationPtr &si, double gx, double gy, double radius)
      : ob::GoalSampleableRegion(si), gx_(gx), gy_(gy)
    {
        setThreshold(radius);
    }
    double distanceGoal(const ob::State *st) const override
    {
        const auto *s = st->as<ob::SE2StateSpace::StateType>();
        return std::hypot(s->getX() - gx_, s->getY() - gy_);
    }
    bool isSatisfied(const ob::State *st, double *distance) const override
    {
        const bool in = ob::GoalSampleableRegion::isSatisfied(st, distance);
        if (in)
            g_first.reached();
        return in;
    }
    void sampleGoal(ob::State *st) const override
    {
        const double r = getThreshold() * std::sqrt(rng_.uniform01()), a = rng_.uniformReal(-M_PI, M_PI);
        auto *s = st->as<ob::SE2StateSpace::StateType>();
        s->setXY(gx_ + r * std::cos(a), gy_ + r * std::sin(a));
        s->setYaw(rng_.uniformReal(-M_PI, M_PI));
    }
    unsigned int maxSampleCount() const override
    {
        return std::numeric_limits<unsigned int>::max();
    }

private:
    double gx_, gy_;
    mutable ompl::RNG rng_;
};

// KPIECE1's projection: (x, y) with 20 cells across the map's extent (what OMPL's SE(2)
// default projection would choose), registered explicitly so the planner does not depend on
// the packaged default.
class XYProjection : public ob::ProjectionEvaluator
{
public:
    XYProjection(const ob::StateSpace *space) : ob::ProjectionEvaluator(space)
    {
        const auto &b = space->as<ob::SE2StateSpace>()->getBounds();
        setCellSizes({(b.high[0] - b.low[0]) / 20.0, (b.high[1] - b.low[1]) / 20.0});
    }
    unsigned int getDimension() const override
    {
        return 2;
    }
    void project(const ob::State *s, Eigen::Ref<Eigen::VectorXd> p) const override
    {
        const auto *se2 = s->as<ob::SE2StateSpace::StateType>();
        p(0) = se2->getX();
        p(1) = se2->getY();
    }
};

// ---------------------------------------------------------------- options --

struct Options
{
    std::string map = "maps/wall40.yaml";
    std::string robot;  // a <vehicle> file; default: the Lexus values built in
    std::string planner = "RRT";
    unsigned long seed = 1;
    double start[3] = {5.0, 5.0, 0.0};
    double goal[2] = {35.0, 5.0};
    double goalRadius = 1.0;
    double timeLimit = 10.0;
    std::string mode = "first";  // first | budget
    double vMin = -2.0, vMax = 5.0, dt = 0.1;
    unsigned minSteps = 1, maxSteps = 10;
    int fine = 20;  // sub-steps per propagation step in the fine re-check of the returned path
    Vehicle vehicle;
    double footprint[3] = {NAN, NAN, NAN};
    double wheelbase = NAN, maxSteer = NAN;
    std::vector<std::pair<std::string, std::string>> params;
    bool verbose = false;
    long selfTest = 0;  // > 0: compare the checker with a brute-force one on this many poses, exit
};

static void usage()
{
    std::fprintf(stderr,
                 "usage: ompl_car_control [options]          one run, one JSON line on stdout\n"
                 "  --map FILE.yaml      map_server map (default maps/wall40.yaml)\n"
                 "  --planner NAME       RRT | KPIECE1 | SST (ompl::control; default RRT)\n"
                 "  --seed N             ompl::RNG::setSeed(N), N >= 1 (default 1)\n"
                 "  --time T             time limit, seconds (default 10)\n"
                 "  --mode first|budget  first: stop at the first exact solution (default); budget: SST\n"
                 "                       keeps improving until T (RRT and KPIECE1 always stop at the first)\n"
                 "  --start X,Y,YAW      rear axle centre, metres and radians (default 5,5,0)\n"
                 "  --goal X,Y[,YAW]     goal position (default 35,5); a YAW is accepted and ignored:\n"
                 "                       any heading is a goal\n"
                 "  --goal-radius R      metres (default 1)\n"
                 "  --robot FILE.xml     a planbench <vehicle> file: footprint length, width,\n"
                 "                       rear_overhang, chassis wheelbase, limits max_steer\n"
                 "                       (default: robots/lexus_rx450h.xml's values 4.89, 1.896, 1.1, 2.79, 0.6109)\n"
                 "  --footprint L,W,O    override length, width, rear overhang (m)\n"
                 "  --wheelbase L        override (m)\n"
                 "  --max-steer A        override (rad)\n"
                 "  --v-min V --v-max V  speed range, m/s (default -2, 5)\n"
                 "  --dt S               propagation step, s (default 0.1)\n"
                 "  --steps MIN,MAX      control duration in steps (default 1,10)\n"
                 "  --fine N             sub-steps per step in the path's fine re-check (default 20)\n"
                 "  --param KEY=VAL      any OMPL planner parameter (repeatable)\n"
                 "  --self-test N        check the footprint rasteriser against a brute-force\n"
                 "                       separating-axis test on N random poses, print a JSON line, exit\n"
                 "  -v                   OMPL's informational messages\n");
}

static bool parseCsv(const char *s, double *out, int nMin, int nMax, int &n)
{
    std::vector<double> v;
    if (!parseList(s, v) || (int)v.size() < nMin || (int)v.size() > nMax)
        return false;
    n = (int)v.size();
    for (int i = 0; i < n; ++i)
        out[i] = v[(size_t)i];
    return true;
}

static bool parseArgs(int argc, char **argv, Options &o)
{
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        auto next = [&](const char *&out) {
            if (i + 1 >= argc)
            {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                return false;
            }
            out = argv[++i];
            return true;
        };
        auto number = [&](double &out) {
            const char *v;
            if (!next(v))
                return false;
            if (!parseNumber(v, out))
            {
                std::fprintf(stderr, "%s: expected a number, found '%s'\n", a.c_str(), v);
                return false;
            }
            return true;
        };
        const char *v = nullptr;
        int n = 0;
        double tmp[3];
        if (a == "-h" || a == "--help")
            return false;
        else if (a == "-v")
            o.verbose = true;
        else if (a == "--map" && next(v))
            o.map = v;
        else if (a == "--robot" && next(v))
            o.robot = v;
        else if (a == "--planner" && next(v))
            o.planner = v;
        else if (a == "--mode" && next(v))
        {
            o.mode = v;
            if (o.mode != "first" && o.mode != "budget")
            {
                std::fprintf(stderr, "--mode: expected first or budget\n");
                return false;
            }
        }
        else if (a == "--seed" && number(tmp[0]))
        {
            if (!(tmp[0] >= 1 && tmp[0] < 4294967296.0 && tmp[0] == std::floor(tmp[0])))
            {
                std::fprintf(stderr, "--seed: expected an integer >= 1\n");
                return false;
            }
            o.seed = (unsigned long)tmp[0];
        }
        else if (a == "--time" && number(o.timeLimit))
        {
            if (!(o.timeLimit > 0))
                return false;
        }
        else if (a == "--start" && next(v))
        {
            if (!parseCsv(v, o.start, 2, 3, n))
            {
                std::fprintf(stderr, "--start: expected X,Y[,YAW]\n");
                return false;
            }
            if (n == 2)
                o.start[2] = 0.0;
        }
        else if (a == "--goal" && next(v))
        {
            if (!parseCsv(v, tmp, 2, 3, n))
            {
                std::fprintf(stderr, "--goal: expected X,Y[,YAW]\n");
                return false;
            }
            o.goal[0] = tmp[0];
            o.goal[1] = tmp[1];
        }
        else if (a == "--goal-radius" && number(o.goalRadius))
        {
            if (!(o.goalRadius > 0))
                return false;
        }
        else if (a == "--footprint" && next(v))
        {
            if (!parseCsv(v, o.footprint, 3, 3, n))
            {
                std::fprintf(stderr, "--footprint: expected LENGTH,WIDTH,REAR_OVERHANG\n");
                return false;
            }
        }
        else if (a == "--wheelbase" && number(o.wheelbase))
        {
        }
        else if (a == "--max-steer" && number(o.maxSteer))
        {
        }
        else if (a == "--v-min" && number(o.vMin))
        {
        }
        else if (a == "--v-max" && number(o.vMax))
        {
        }
        else if (a == "--dt" && number(o.dt))
        {
            if (!(o.dt > 0))
                return false;
        }
        else if (a == "--steps" && next(v))
        {
            if (!parseCsv(v, tmp, 2, 2, n) || !(tmp[0] >= 1 && tmp[1] >= tmp[0] && tmp[1] < 1e6))
            {
                std::fprintf(stderr, "--steps: expected MIN,MAX with 1 <= MIN <= MAX\n");
                return false;
            }
            o.minSteps = (unsigned)tmp[0];
            o.maxSteps = (unsigned)tmp[1];
        }
        else if (a == "--fine" && number(tmp[0]))
        {
            if (!(tmp[0] >= 1 && tmp[0] <= 1e4))
                return false;
            o.fine = (int)tmp[0];
        }
        else if (a == "--self-test" && number(tmp[0]))
        {
            if (!(tmp[0] >= 1 && tmp[0] <= 1e9))
                return false;
            o.selfTest = (long)tmp[0];
        }
        else if (a == "--param" && next(v))
        {
            const std::string kv = v;
            const size_t eq = kv.find('=');
            if (eq == std::string::npos)
            {
                std::fprintf(stderr, "--param: expected KEY=VALUE\n");
                return false;
            }
            o.params.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
        }
        else
        {
            if (v == nullptr)
                std::fprintf(stderr, "unknown or incomplete option %s\n", a.c_str());
            return false;
        }
    }
    if (!(o.vMin < o.vMax))
    {
        std::fprintf(stderr, "--v-min must be below --v-max\n");
        return false;
    }
    return true;
}

// ---------------------------------------------------------------- output ---

static std::string jsonNum(double v)
{
    if (!std::isfinite(v))
        return "null";
    char b[64];
    std::snprintf(b, sizeof b, "%.9g", v);
    return b;
}

static std::string jsonStr(const std::string &s)
{
    std::string r = "\"";
    for (char c : s)
    {
        if (c == '"' || c == '\\')
        {
            r += '\\';
            r += c;
        }
        else if ((unsigned char)c < 0x20)
        {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            r += b;
        }
        else
            r += c;
    }
    return r + "\"";
}

static double processCpuSeconds()
{
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double loadAvg1()
{
    double l = NAN;
    if (FILE *f = std::fopen("/proc/loadavg", "r"))
    {
        if (std::fscanf(f, "%lf", &l) != 1)
            l = NAN;
        std::fclose(f);
    }
    return l;
}

static ob::PlannerPtr makePlanner(const std::string &name, const oc::SpaceInformationPtr &si)
{
    if (name == "RRT")
        return std::make_shared<oc::RRT>(si);
    if (name == "KPIECE1")
        return std::make_shared<oc::KPIECE1>(si);
    if (name == "SST")
        return std::make_shared<oc::SST>(si);
    return nullptr;
}

// ------------------------------------------------------------------ main ---

int main(int argc, char **argv)
{
    Options o;
    if (!parseArgs(argc, argv, o))
    {
        usage();
        return 2;
    }
    ompl::msg::setLogLevel(o.verbose ? ompl::msg::LOG_INFO : ompl::msg::LOG_WARN);
    ompl::RNG::setSeed((std::uint_fast32_t)o.seed);  // before any sampler or planner exists

    std::string err;
    Map map;
    if (!loadMapYaml(o.map, map, err))
    {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 2;
    }
    Vehicle &veh = o.vehicle;
    if (!o.robot.empty() && !loadVehicle(o.robot, veh, err))
    {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 2;
    }
    if (!std::isnan(o.footprint[0]))
    {
        veh.length = o.footprint[0];
        veh.width = o.footprint[1];
        veh.rearOverhang = o.footprint[2];
    }
    if (!std::isnan(o.wheelbase))
        veh.wheelbase = o.wheelbase;
    if (!std::isnan(o.maxSteer))
        veh.maxSteer = o.maxSteer;
    if (!(veh.length > 0 && veh.width > 0 && veh.rearOverhang >= 0 && veh.rearOverhang <= veh.length &&
          veh.wheelbase > 0 && veh.maxSteer > 0 && veh.maxSteer < M_PI / 2))
    {
        std::fprintf(stderr, "bad vehicle: sizes must be positive, the rear axle inside the footprint, "
                             "0 < max steer < pi/2\n");
        return 2;
    }

    // state space: SE(2) over the map's extent
    auto space = std::make_shared<ob::SE2StateSpace>();
    ob::RealVectorBounds bounds(2);
    bounds.setLow(0, map.ox);
    bounds.setHigh(0, map.ox + map.w * map.res);
    bounds.setLow(1, map.oy);
    bounds.setHigh(1, map.oy + map.h * map.res);
    space->setBounds(bounds);
    space->registerDefaultProjection(std::make_shared<XYProjection>(space.get()));

    // control space: (v, steer)
    auto cspace = std::make_shared<oc::RealVectorControlSpace>(space, 2);
    ob::RealVectorBounds cb(2);
    cb.setLow(0, o.vMin);
    cb.setHigh(0, o.vMax);
    cb.setLow(1, -veh.maxSteer);
    cb.setHigh(1, veh.maxSteer);
    cspace->setBounds(cb);
    cspace->setControlSamplerAllocator(
        [](const oc::ControlSpace *cs) -> oc::ControlSamplerPtr { return std::make_shared<CountingControlSampler>(cs); });

    auto si = std::make_shared<oc::SpaceInformation>(space, cspace);
    auto checker = std::make_shared<FootprintChecker>(si, &map, veh);
    si->setStateValidityChecker(checker);
    si->setStatePropagator(std::make_shared<CarPropagator>(si, veh.wheelbase));
    si->setPropagationStepSize(o.dt);
    si->setMinMaxControlDuration(o.minSteps, o.maxSteps);
    si->setup();

    if (o.selfTest > 0)
    {
        // poses near the wall's end and the map's edges are the interesting ones: half of them
        // are drawn around (20, 30), the rest over the whole map
        ompl::RNG rng;
        long disagree = 0, nFree = 0;
        for (long k = 0; k < o.selfTest; ++k)
        {
            const bool near = k % 2 == 0;
            const double x = near ? rng.uniformReal(14.0, 26.0) : rng.uniformReal(bounds.low[0], bounds.high[0]);
            const double y = near ? rng.uniformReal(24.0, 36.0) : rng.uniformReal(bounds.low[1], bounds.high[1]);
            const double yaw = rng.uniformReal(-M_PI, M_PI);
            const bool fast = checker->poseFree(x, y, yaw), slow = checker->poseFreeBruteForce(x, y, yaw);
            nFree += fast ? 1 : 0;
            if (fast != slow && ++disagree <= 5)
                std::fprintf(stderr, "disagree at (%.17g, %.17g, %.17g): rows %d, brute force %d\n", x, y, yaw, fast,
                             slow);
        }
        std::printf("{\"self_test\":%ld,\"free\":%ld,\"disagree\":%ld}\n", o.selfTest, nFree, disagree);
        return disagree == 0 ? 0 : 1;
    }

    ob::ScopedState<ob::SE2StateSpace> start(space);
    start->setXY(o.start[0], o.start[1]);
    start->setYaw(o.start[2]);
    if (!checker->validRaw(start.get()))
    {
        std::fprintf(stderr, "the footprint at the start (%g, %g, %g) is not free\n", o.start[0], o.start[1],
                     o.start[2]);
        return 2;
    }

    auto pdef = std::make_shared<ob::ProblemDefinition>(si);
    pdef->addStartState(start);
    pdef->setGoal(std::make_shared<DiscGoal>(si, o.goal[0], o.goal[1], o.goalRadius));
    auto objective = std::make_shared<ob::PathLengthOptimizationObjective>(si);
    // first: any solution satisfies (SST stops at it); budget: never satisfied, SST runs until T
    objective->setCostThreshold(ob::Cost(o.mode == "first" ? std::numeric_limits<double>::infinity() : 0.0));
    pdef->setOptimizationObjective(objective);

    ob::PlannerPtr planner = makePlanner(o.planner, si);
    if (!planner)
    {
        std::fprintf(stderr, "unknown planner '%s' (expected RRT, KPIECE1 or SST)\n", o.planner.c_str());
        return 2;
    }
    for (const auto &kv : o.params)
        if (!planner->params().setParam(kv.first, kv.second))
        {
            std::fprintf(stderr, "planner %s: cannot set parameter %s=%s\n", o.planner.c_str(), kv.first.c_str(),
                         kv.second.c_str());
            return 2;
        }
    planner->setProblemDefinition(pdef);
    planner->setup();

    using clk = std::chrono::steady_clock;
    int improvements = 0;  // intermediate solutions reported (none from Debian's 1.5.2 planners)
    pdef->setIntermediateSolutionCallback(
        [&](const ob::Planner *, const std::vector<const ob::State *> &, const ob::Cost &) { ++improvements; });

    g_cnt = Counters();
    const double cpu0 = processCpuSeconds();
    const clk::time_point t0 = clk::now();
    g_first.cpu0 = cpu0;
    g_first.t0 = t0;
    g_first.armed = true;
    const ob::PlannerStatus status = planner->solve(ob::timedPlannerTerminationCondition(o.timeLimit));
    const double elapsed = std::chrono::duration<double>(clk::now() - t0).count();
    const double cpuUsed = processCpuSeconds() - cpu0;
    g_first.armed = false;
    const Counters cnt = g_cnt;

    const bool exact = pdef->hasExactSolution();
    const bool approximate = pdef->hasApproximateSolution();
    const double firstTime = exact ? g_first.time : NAN, firstCpu = exact ? g_first.cpu : NAN;
    const uint64_t firstChecks = exact ? g_first.checks : 0;

    // The returned path: its length (|v| x duration summed), its goal distance, and two
    // uncounted re-checks: re-propagated at OMPL's steps (must hold), and at --fine sub-steps
    // per step (what a swept check would see).
    double length = NAN, goalDistance = NAN, duration = NAN;
    size_t nControls = 0, cusps = 0;
    bool pathValid = false, pathFineValid = false;
    double maxEndError = NAN;
    if (pdef->hasSolution())
    {
        auto &path = *pdef->getSolutionPath()->as<oc::PathControl>();
        nControls = path.getControlCount();
        length = duration = 0.0;
        pathValid = pathFineValid = true;
        maxEndError = 0.0;
        double prevV = 0.0;
        for (size_t i = 0; i < nControls; ++i)
        {
            const double *u = path.getControls()[i]->as<oc::RealVectorControlSpace::ControlType>()->values;
            const double d = path.getControlDurations()[i];
            length += std::fabs(u[0]) * d;
            duration += d;
            if (i > 0 && u[0] * prevV < 0.0)
                ++cusps;
            prevV = u[0];
            const auto *s = path.getState(i)->as<ob::SE2StateSpace::StateType>();
            double x = s->getX(), y = s->getY(), yaw = s->getYaw();
            const int steps = (int)std::lround(d / o.dt);
            for (int k = 0; k < steps; ++k)
            {
                for (int f = 1; f <= o.fine; ++f)
                {
                    double fx, fy, fyaw;
                    driveExact(x, y, yaw, u[0], u[1], veh.wheelbase, o.dt * f / o.fine, fx, fy, fyaw);
                    if (!checker->poseFree(fx, fy, fyaw))
                    {
                        pathFineValid = false;
                        if (f == o.fine)
                            pathValid = false;
                    }
                }
                driveExact(x, y, yaw, u[0], u[1], veh.wheelbase, o.dt, x, y, yaw);
            }
            const auto *e = path.getState(i + 1)->as<ob::SE2StateSpace::StateType>();
            maxEndError = std::max(maxEndError, std::hypot(e->getX() - x, e->getY() - y));
        }
        pdef->getGoal()->isSatisfied(path.getStates().back(), &goalDistance);
    }
    ob::PlannerData pd(si);
    planner->getPlannerData(pd);

    std::printf("{\"planner\":%s,\"seed\":%lu,\"mode\":\"%s\",\"time_limit\":%s,\"status\":%s,"
                "\"solved\":%s,\"exact\":%s,\"approximate\":%s,\"time_s\":%s,\"cpu_s\":%s,"
                "\"first_solution_time_s\":%s,\"first_solution_cpu_s\":%s,\"first_solution_checks\":%llu,"
                "\"solution_improvements\":%d,\"path_length\":%s,\"path_duration_s\":%s,\"path_controls\":%zu,"
                "\"path_cusps\":%zu,\"goal_distance\":%s,\"path_valid\":%s,\"path_fine_valid\":%s,\"fine\":%d,"
                "\"path_end_error\":%s,\"n_states_checked\":%llu,\"checks_per_s\":%s,\"checks_per_cpu_s\":%s,"
                "\"propagation_steps\":%llu,\"controls_sampled\":%llu,\"iterations\":%llu,"
                "\"iterations_source\":\"controls_sampled\",\"graph_states\":%u,"
                "\"map\":%s,\"map_cells\":[%d,%d],\"resolution\":%s,\"blocked_cells\":%zu,"
                "\"start\":[%s,%s,%s],\"goal\":[%s,%s],\"goal_radius\":%s,"
                "\"vehicle\":{\"name\":%s,\"length\":%s,\"width\":%s,\"rear_overhang\":%s,\"wheelbase\":%s,"
                "\"max_steer\":%s},\"v_range\":[%s,%s],\"dt\":%s,\"steps\":[%u,%u],"
                "\"loadavg1\":%s,\"ompl_version\":\"%d.%d.%d\",\"planner_name\":%s}\n",
                jsonStr(o.planner).c_str(), o.seed, o.mode.c_str(), jsonNum(o.timeLimit).c_str(),
                jsonStr(status.asString()).c_str(), (exact || approximate) ? "true" : "false",
                exact ? "true" : "false", approximate ? "true" : "false", jsonNum(elapsed).c_str(),
                jsonNum(cpuUsed).c_str(), jsonNum(firstTime).c_str(), jsonNum(firstCpu).c_str(),
                (unsigned long long)firstChecks, improvements, jsonNum(length).c_str(), jsonNum(duration).c_str(),
                nControls, cusps, jsonNum(goalDistance).c_str(), pathValid ? "true" : "false",
                pathFineValid ? "true" : "false", o.fine, jsonNum(maxEndError).c_str(),
                (unsigned long long)cnt.stateChecks, jsonNum(cnt.stateChecks / elapsed).c_str(),
                jsonNum(cnt.stateChecks / cpuUsed).c_str(), (unsigned long long)cnt.propagationSteps,
                (unsigned long long)cnt.controls, (unsigned long long)cnt.controls, pd.numVertices(),
                jsonStr(o.map).c_str(), map.w, map.h, jsonNum(map.res).c_str(), map.nBlocked,
                jsonNum(o.start[0]).c_str(), jsonNum(o.start[1]).c_str(), jsonNum(o.start[2]).c_str(),
                jsonNum(o.goal[0]).c_str(), jsonNum(o.goal[1]).c_str(), jsonNum(o.goalRadius).c_str(),
                jsonStr(veh.name).c_str(), jsonNum(veh.length).c_str(), jsonNum(veh.width).c_str(),
                jsonNum(veh.rearOverhang).c_str(), jsonNum(veh.wheelbase).c_str(), jsonNum(veh.maxSteer).c_str(),
                jsonNum(o.vMin).c_str(), jsonNum(o.vMax).c_str(), jsonNum(o.dt).c_str(), o.minSteps, o.maxSteps,
                jsonNum(loadAvg1()).c_str(), OMPL_MAJOR_VERSION, OMPL_MINOR_VERSION, OMPL_PATCH_VERSION,
                jsonStr(planner->getName()).c_str());
    return 0;
}
