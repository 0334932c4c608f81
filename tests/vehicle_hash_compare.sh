#!/bin/sh
# The vehicle models' trajectory hashes (tests/vehicle_hash.c) from the models compiled at -O0,
# at -O3 and as the library is: every line must be the same (-ffp-contract=off and no
# floating-point shortcuts in the models). usage: vehicle_hash_compare.sh O0 O3 LIBRARY
set -u
a=$("$1") || { echo "vehicle_hash -O0 failed"; exit 1; }
b=$("$2") || { echo "vehicle_hash -O3 failed"; exit 1; }
c=$("$3") || { echo "vehicle_hash (library) failed"; exit 1; }
echo "-O0:"; echo "$a"
echo "-O3:"; echo "$b"
echo "library:"; echo "$c"
[ "$(echo "$a" | wc -l)" -eq 4 ] || { echo "expected four models"; exit 1; }
[ "$a" = "$b" ] || { echo "the hashes differ between -O0 and -O3"; exit 1; }
[ "$a" = "$c" ] || { echo "the hashes differ between -O0 and the library's build"; exit 1; }
echo "the same bits at -O0, -O3 and in the library"
