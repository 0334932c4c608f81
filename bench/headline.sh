#!/bin/sh
# Produce the headline table of bench/RESULTS.md: every registered planner on the bundled 2D
# maps (bench/maps2d.ini). Usage: sh bench/headline.sh [BUILD_DIR] [extra planbench bench options]
set -eu
build=${1:-build}
[ $# -gt 0 ] && shift
cd "$(dirname "$0")/.."
echo "planbench bench bench/maps2d.ini $* ($(date -u +%Y-%m-%d), nproc $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
echo
"$build/src/cli/planbench" bench bench/maps2d.ini "$@"
