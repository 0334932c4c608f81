#!/bin/sh
# A build with every optional part switched off (-Dsim, -Dviz, -Dplots, -Dfcl, -Dblas, -Dpython
# disabled: what a machine without those -dev packages configures) compiles, plans, and says
# for serve, --display, view and --plot which option and package it lacks, rather than that a
# module "could not be loaded" (issue 22).
# Arguments: the (unused) planbench binary of this build, the source root, the C compiler.
. "$(dirname "$0")/lib.sh"
CC=$3
ok() { checks=$((checks + 1)); echo "ok: $*"; }

CC="$CC" meson setup "$T/b" "$ROOT" --buildtype=debug -Dwerror=true -Dsim=disabled -Dviz=disabled \
    -Dplots=disabled -Dfcl=disabled -Dblas=disabled -Dpython=disabled >"$T/setup" 2>&1 ||
    { cat "$T/setup"; fail "meson setup of the minimal build"; finish; }
ninja -j 2 -C "$T/b" src/cli/planbench >"$T/build" 2>&1 || { tail -30 "$T/build"; fail "the minimal build"; finish; }
B="$T/b/src/cli/planbench"
ldd "$B" | grep -E 'libSDL2|libwebsockets|libcairo|libfcl|libopenblas' && fail "the minimal build links an optional library"

"$B" rrt "$ROOT/maps/room1.png" -q >/dev/null 2>"$T/err" && ok "the minimal build plans" || fail "minimal build: $(cat "$T/err")"
says() { # WHAT PATTERN -- command...: exit 2, and stderr names the option
    what=$1
    pattern=$2
    shift 3
    timeout 20 "$@" >"$T/out" 2>"$T/err" </dev/null
    rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$pattern" "$T/err" && ! grep -q 'could not be loaded' "$T/err"; then
        ok "$what says $pattern"
    else
        fail "$what: exit $rc, $(cat "$T/err")"
    fi
}
says "serve" "-Dsim=enabled" -- "$B" serve --port 0
says "--display" "-Dviz=enabled" -- "$B" rrt "$ROOT/maps/room1.png" --display
says "view" "-Dviz=enabled" -- "$B" view "$ROOT/maps/room1.png"
two_runs_ini "$T/two.ini"
says "--plot" "-Dplots=enabled" -- "$B" bench "$T/two.ini" --plot "$T/plots"
finish
