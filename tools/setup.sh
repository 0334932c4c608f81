#!/bin/sh
# Install the build dependencies and build planbench (release) into build/.
set -eu
cd "$(dirname "$0")/.."
sh tools/install-deps.sh
[ -f build/build.ninja ] || meson setup build --buildtype=release
ninja -C build
