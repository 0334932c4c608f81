#!/usr/bin/env python3
"""Does a libFuzzer target see the code it exercises? Run it over its committed corpus once
(-runs=0: the corpus only, no mutation) and read the coverage counters it reports ("INITED
cov: N"); fail when N is below the minimum. A target whose code under test is not compiled
with coverage instrumentation sees a handful of counters, and its corpus collapses.

usage: coverage_check.py TARGET CORPUS_DIR MINIMUM
"""
import re
import subprocess
import sys
import tempfile


def main():
    target, corpus, minimum = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with tempfile.TemporaryDirectory() as scratch:
        # the corpus is read, never written: libFuzzer writes new inputs to the first folder
        r = subprocess.run([target, "-runs=0", "-close_fd_mask=3", scratch, corpus], capture_output=True, text=True,
                           timeout=240)
    found = [int(m) for m in re.findall(r"cov: (\d+)", r.stderr)]
    if not found:
        print("no coverage figure in the target's output (exit %d):\n%s" % (r.returncode, r.stderr[-2000:]))
        return 1
    cov = max(found)
    print("%s: %d coverage counters on %s (minimum %d)" % (target, cov, corpus, minimum))
    return 0 if cov >= minimum and r.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
