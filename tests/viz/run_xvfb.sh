#!/bin/sh
# Run a command under a private Xvfb server (1280x1024, 24-bit) with SDL's X11 driver.
# Exits 77 (meson's "skipped") when Xvfb is not installed or does not start.
# Usage: run_xvfb.sh COMMAND [ARGS...]
command -v Xvfb >/dev/null 2>&1 || { echo "Xvfb is not installed (apt-get install xvfb): skipped"; exit 77; }
fdfile=$(mktemp)
# -displayfd: the server picks a free display number and writes it to fd 3
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$fdfile" >/dev/null 2>&1 &
xpid=$!
i=0
while [ ! -s "$fdfile" ] && [ $i -lt 200 ]; do
    sleep 0.05
    i=$((i + 1))
done
display=$(head -n 1 "$fdfile")
rm -f "$fdfile"
if [ -z "$display" ]; then
    kill "$xpid" 2>/dev/null
    echo "Xvfb did not start: skipped"
    exit 77
fi
DISPLAY=":$display" SDL_VIDEODRIVER=x11 "$@"
rc=$?
kill "$xpid" 2>/dev/null
wait "$xpid" 2>/dev/null
exit $rc
