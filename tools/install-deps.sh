#!/bin/sh
# Install what planbench needs to build and test on Debian 12 (run as root).
# The single list of system packages: the README's setup command and CI both use it.
# slurmctld, slurmd, slurm-client, munge and openmpi-bin are for the tests only: a single-node
# Slurm cluster and mpirun run a sharded benchmark (tests/slurm/).
set -eu
export DEBIAN_FRONTEND=noninteractive
PACKAGES="meson ninja-build gcc clang libclang-rt-14-dev pkg-config python3 libpng-dev libsdl2-dev xvfb xauth g++ libfcl-dev libxml2-dev libassimp-dev libopenblas-dev libcairo2-dev libwebsockets-dev libjansson-dev libyaml-dev libnetpbm-dev libompl-dev libboost-serialization-dev libboost-filesystem-dev libboost-system-dev python3-dev python3-numpy python3-pytest python3-mesonpy slurmctld slurmd slurm-client munge openmpi-bin"
missing=""
for p in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing
fi
