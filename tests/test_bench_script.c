/* Benchmark script parser: a good script read back field by field, and every kind of bad
 * input rejected with a message naming the file, the line and the key; the check step
 * (engines loaded, planners created, parameters set) rejects what only the library knows. */
#include "harness.h"
#include "planbench/planbench.h"

#include <string.h>

static const char good[] = "; a comment\n"
                           "[benchmark]\n"
                           "name = maps-2d\n"
                           "runs = 7          ; inline comment\n"
                           "time_limit = 2.5\n"
                           "memory_limit = 512\n"
                           "stop = budget\n"
                           "seed = 40\n"
                           "\n"
                           "[problem.room]\n"
                           "map = ../maps/room1.png\n"
                           "goal = 460.5,365.5\n"
                           "goal_radius = 12\n"
                           "[problem.box]\n"
                           "engine = blackbox\n"
                           "option.bounds = 0:1,0:1\n"
                           "option.expr = x0 > -1\n"
                           "start = 0.1,0.1\n"
                           "goal = 0.9,0.9\n"
                           "[planner.rrt]\n"
                           "[planner.rrt-big]\n"
                           "planner = rrt\n"
                           "label = RRT big steps\n"
                           "step_size = 40\n";

static void test_good(void)
{
    pb_bench_script *s = NULL;
    pb_diag diag = {0};
    CHECK(pb_bench_script_parse(&s, good, strlen(good), "bench/x.ini", &diag) == PB_OK);
    if (!s) {
        fprintf(stderr, "%s\n", diag.message);
        return;
    }
    CHECK(strcmp(s->name, "maps-2d") == 0);
    CHECK(s->runs == 7);
    CHECK(s->time_limit_s == 2.5);
    CHECK(s->memory_limit_mb == 512.0);
    CHECK(s->stop == PB_BENCH_STOP_BUDGET);
    CHECK(s->seed == 40);
    CHECK(s->n_problems == 2 && s->n_planners == 2);
    CHECK(strcmp(s->problems[0].name, "room") == 0);
    CHECK(strcmp(s->problems[0].map, "bench/../maps/room1.png") == 0); /* relative to the script */
    CHECK(s->problems[0].start == NULL && strcmp(s->problems[0].goal, "460.5,365.5") == 0);
    CHECK(s->problems[0].goal_radius == 12.0 && s->problems[0].goal_line == 12);
    CHECK(s->problems[1].map == NULL && strcmp(s->problems[1].engine, "blackbox") == 0);
    CHECK(s->problems[1].n_options == 2 && strcmp(s->problems[1].options[1].name, "expr") == 0 &&
          strcmp(s->problems[1].options[1].value, "x0 > -1") == 0 && s->problems[1].options[1].line == 17);
    CHECK(strcmp(s->planners[0].planner, "rrt") == 0 && strcmp(s->planners[0].label, "rrt") == 0);
    CHECK(strcmp(s->planners[1].label, "RRT big steps") == 0 && s->planners[1].n_params == 1);
    CHECK(strcmp(s->planners[1].params[0].name, "step_size") == 0 && s->planners[1].params[0].line == 24);
    pb_bench_script_destroy(s);

    /* defaults */
    const char minimal[] = "[problem.a]\nengine = blackbox\n[planner.rrt]\n";
    CHECK(pb_bench_script_parse(&s, minimal, strlen(minimal), "dir/suite.v2.ini", &diag) == PB_OK);
    if (s) {
        CHECK(strcmp(s->name, "suite") == 0);
        CHECK(s->runs == 10 && s->time_limit_s == 10.0 && s->seed == 1 && s->stop == PB_BENCH_STOP_AUTO);
    }
    pb_bench_script_destroy(s);
}

/* `text` must fail to parse with "name:line:" and `key` in the message. */
static void expect_bad(const char *text, int line, const char *key)
{
    pb_bench_script *s = (pb_bench_script *)1;
    pb_diag diag = {0};
    const pb_status st = pb_bench_script_parse(&s, text, strlen(text), "t.ini", &diag);
    CHECK_MSG(st != PB_OK && s == NULL, "accepted: %s", text);
    char buf[1024];
    pb_diag_format(&diag, buf, sizeof buf);
    char where[32];
    if (line > 0)
        snprintf(where, sizeof where, "t.ini:%d:", line);
    else
        snprintf(where, sizeof where, "t.ini: "); /* about the whole file */
    CHECK_MSG(strstr(buf, where) == buf, "'%s' does not start with %s", buf, where);
    if (key)
        CHECK_MSG(strstr(buf, key) != NULL, "'%s' does not name '%s'", buf, key);
}

static void test_bad(void)
{
    const char *tail = "\n[problem.a]\nengine = blackbox\n[planner.rrt]\n";
    char text[512];
#define BAD_BENCH(line_text, key)                                                                            \
    snprintf(text, sizeof text, "[benchmark]\n%s%s", line_text, tail);                                       \
    expect_bad(text, 2, key)
    BAD_BENCH("colour = red", "colour");
    BAD_BENCH("runs = ten", "runs");
    BAD_BENCH("runs = 0", "runs");
    BAD_BENCH("runs = -3", "runs");
    BAD_BENCH("runs = 5x", "runs");
    BAD_BENCH("time_limit = 0", "time_limit");
    BAD_BENCH("time_limit = nan", "time_limit");
    BAD_BENCH("memory_limit = -1", "memory_limit");
    BAD_BENCH("stop = sometimes", "stop");
    BAD_BENCH("seed = 1.5", "seed");
    BAD_BENCH("name = two words", "name");
    BAD_BENCH("just some words", NULL);
#undef BAD_BENCH
    expect_bad("[benchmark]\nruns = 2\nruns = 3\n[problem.a]\nengine = x\n[planner.rrt]\n", 3, "runs");
    expect_bad("runs = 2\n", 1, "runs");
    expect_bad("[bench]\n", 1, "bench");
    expect_bad("[problem.a b]\n", 1, "problem.a b");
    expect_bad("[problem.a\n", 1, NULL);
    expect_bad("[problem.a]\nmap = x.png\ncolour = 3\n[planner.rrt]\n", 3, "colour");
    expect_bad("[problem.a]\nmap = x.png\ngoal_radius = -2\n[planner.rrt]\n", 3, "goal_radius");
    expect_bad("[problem.a]\nmap = x.png\nstart = 1,,2\n[planner.rrt]\n", 3, "start");
    expect_bad("[problem.a]\nmap = x.png\nmap = y.png\n[planner.rrt]\n", 3, "map");
    expect_bad("[problem.a]\nmap = x.png\noption.expr = 1\noption.expr = 2\n[planner.rrt]\n", 4, "expr");
    expect_bad("[problem.a]\nmap = x.png\n[problem.a]\n[planner.rrt]\n", 3, "problem.a");
    expect_bad("[problem.a]\nmap = x.png\n[planner.p]\nlabel = A\n[planner.q]\nlabel = A\n", 5, "label");
    expect_bad("[problem.a]\n[planner.rrt]\n", 1, "map");               /* neither map nor engine */
    expect_bad("[benchmark]\nruns = 2\n[planner.rrt]\n", 0, "problem"); /* no problem */
    expect_bad("[problem.a]\nmap = x.png\n", 0, "planner");
    const char nul[] = "[benchmark]\0runs = 2\n";
    pb_bench_script *s = NULL;
    CHECK(pb_bench_script_parse(&s, nul, sizeof nul - 1, "t.ini", NULL) == PB_ERR_INVALID && s == NULL);
    CHECK(pb_bench_script_load(&s, "/nonexistent/x.ini", NULL) == PB_ERR_IO && s == NULL);
}

/* The check step: parse fine, then fail naming the line and the key. */
static void expect_check_fails(const char *text, int line, const char *key)
{
    pb_bench_script *s = NULL;
    pb_diag diag = {0};
    char name[4200];
    snprintf(name, sizeof name, "%s/bench/t.ini", pb_test_source_root());
    CHECK_MSG(pb_bench_script_parse(&s, text, strlen(text), name, &diag) == PB_OK, "parse: %s", diag.message);
    if (!s)
        return;
    CHECK_MSG(pb_bench_script_check(s, &diag) != PB_OK, "check accepted: %s", text);
    char buf[1024];
    pb_diag_format(&diag, buf, sizeof buf);
    char where[64];
    snprintf(where, sizeof where, "t.ini:%d:", line);
    CHECK_MSG(strstr(buf, where) != NULL, "'%s' does not name line %d", buf, line);
    CHECK_MSG(strstr(buf, key) != NULL, "'%s' does not name '%s'", buf, key);
    pb_bench_script_destroy(s);
}

static void test_check(void)
{
    const char ok[] = "[problem.room]\nmap = ../maps/room1.png\n[planner.rrt]\nstep_size = 20\n";
    pb_bench_script *s = NULL;
    pb_diag diag = {0};
    char name[4200];
    snprintf(name, sizeof name, "%s/bench/t.ini", pb_test_source_root());
    CHECK(pb_bench_script_parse(&s, ok, strlen(ok), name, &diag) == PB_OK);
    CHECK_MSG(s && pb_bench_script_check(s, &diag) == PB_OK, "%s", diag.message);
    pb_bench_script_destroy(s);

    expect_check_fails("[problem.room]\nmap = ../maps/missing.png\n[planner.rrt]\n", 2, "map");
    expect_check_fails("[problem.room]\nmap = ../maps/room1.png\n[planner.rrt]\nplanner = nosuch\n", 4,
                       "planner");
    expect_check_fails("[problem.room]\nmap = ../maps/room1.png\n[planner.rrt]\nstep_size = -4\n", 4,
                       "step_size");
    expect_check_fails("[problem.room]\nmap = ../maps/room1.png\n[planner.rrt]\nwobble = 1\n", 4, "wobble");
    expect_check_fails("[problem.room]\nmap = ../maps/room1.png\n[planner.rrt]\nstep_size = big\n", 4,
                       "step_size");
    expect_check_fails("[problem.room]\nmap = ../maps/room1.png\nstart = 1,2,3\n[planner.rrt]\n", 3, "start");
    expect_check_fails("[problem.room]\nengine = nosuch\n[planner.rrt]\n", 2, "engine");
    expect_check_fails(
        "[problem.room]\nengine = blackbox\noption.bounds = 0:1,0:1\noption.colour = red\n[planner.rrt]\n", 4,
        "option");
}

int main(void)
{
    test_good();
    test_bad();
    test_check();
    return pb_test_summary("bench_script");
}
