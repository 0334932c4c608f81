#!/usr/bin/env python3
"""Start-up cost of the command line: run `PLANBENCH --version` N times (default 200) and
print the CPU time (user + system), wall time and minor page faults per run, from
getrusage(RUSAGE_CHILDREN). One warm-up run first.

usage: python3 bench/startup.py PLANBENCH [N]
"""
import resource
import subprocess
import sys
import time


def main():
    exe = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    subprocess.run([exe, "--version"], stdout=subprocess.DEVNULL, check=True)
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    for _ in range(n):
        subprocess.run([exe, "--version"], stdout=subprocess.DEVNULL, check=True)
    t1 = time.perf_counter()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) / n
    faults = (r1.ru_minflt - r0.ru_minflt) / n
    print(f"{exe}: cpu {cpu * 1e3:.2f} ms, wall {(t1 - t0) / n * 1e3:.2f} ms, minor faults {faults:.0f} per run "
          f"({n} runs)")


if __name__ == "__main__":
    main()
