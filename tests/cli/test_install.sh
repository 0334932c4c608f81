#!/bin/sh
# `meson install` into a scratch folder, then build a program against the installed headers
# and library through pkg-config, and run it: the library is usable from outside the tree.
# Usage: test_install.sh BUILD_DIR SOURCE_ROOT CC [SANITIZERS]
set -u
BUILD=$1
ROOT=$2
CC=${3:-cc}
SANITIZE=${4:-none}
# Packaging is what this checks, not memory safety: a sanitizer build's library expects the
# sanitizer runtime of the program that loads it, which an outside program does not have.
if [ "$SANITIZE" != "none" ]; then
    echo "skipped under sanitizers ($SANITIZE)"
    exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
meson install -C "$BUILD" --no-rebuild --destdir "$T/root" >"$T/log" 2>&1 || { cat "$T/log"; echo "install failed"; exit 1; }
pc=$(find "$T/root" -name planbench.pc | head -n 1)
[ -n "$pc" ] || { echo "no planbench.pc installed"; exit 1; }
prefix=$(sed -n 's/^prefix=//p' "$pc")
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --define-variable=prefix="$T/root$prefix" --cflags --libs planbench) || exit 1
case "$flags" in *c++*) echo "pkg-config hands C++ flags to C users: $flags"; exit 1 ;; esac
cat >"$T/user.c" <<'C'
#include <planbench/planbench.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argc;
    pb_engine *engine = NULL;
    pb_planner *planner = NULL;
    pb_diag diag = {0};
    if (pb_engine_load(&engine, NULL, argv[1], NULL, 0, &diag) != PB_OK ||
        pb_planner_create(&planner, "rrt", engine, &diag) != PB_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    double start[2], goal[2];
    pb_engine_defaults(engine, start, goal);
    pb_problem problem = {start, goal, 10.0};
    pb_stop_config stop = pb_stop_config_default();
    pb_result result;
    pb_result_init(&result, 2);
    pb_planner_solve(planner, &problem, &stop, &result);
    const int ok = result.outcome == PB_OUTCOME_EXACT && pb_path_validate(&result.path, engine, start, goal, &diag);
    printf("%s %s\n", pb_version(), pb_outcome_str(result.outcome));
    pb_result_finish(&result);
    pb_planner_destroy(planner);
    pb_engine_destroy(engine);
    return ok ? 0 : 1;
}
C
# shellcheck disable=SC2086
$CC -std=c17 -Wall -Werror "$T/user.c" $flags -o "$T/user" || { echo "cannot build against the installed library"; exit 1; }
libdir=$(pkg-config --define-variable=prefix="$T/root$prefix" --variable=libdir planbench)
LD_LIBRARY_PATH="$libdir" "$T/user" "$ROOT/maps/room1.png" || { echo "the installed library did not plan"; exit 1; }
ls "$T/root$prefix/bin/planbench" >/dev/null || { echo "planbench not installed"; exit 1; }
echo "install: ok"
