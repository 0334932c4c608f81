#!/usr/bin/env python3
"""The export wall: libplanbench.so exports exactly what the public headers declare.

usage: check_exports.py SOURCE_ROOT LIBRARY

Every function and object the shared library exports must be declared with PB_API in a
header under include/planbench/ (the installed headers); a symbol exported without one is
an internal one leaking. Also fails when the library exports nothing or when a header
declares with PB_API a library function that the library does not export (a declaration
without a definition, or one hidden by mistake), except for the functions of the programs'
own libraries (sim.h, viz.h), which are not in libplanbench.
"""
import os
import re
import subprocess
import sys

PROGRAM_HEADERS = {"sim.h", "viz.h"}  # declared for the simulation and viewer libraries


def declared(root):
    names, program_names = set(), set()
    folder = os.path.join(root, "include", "planbench")
    for dirpath, _, files in os.walk(folder):
        for f in files:
            if not f.endswith(".h"):
                continue
            text = open(os.path.join(dirpath, f), encoding="utf-8").read()
            # a declaration may span lines: PB_API, then the return type, then the name and "("
            for m in re.finditer(r"^PB_API\b([^;{(]*?)\b(\w+)\s*\(", text, re.M):
                (program_names if f in PROGRAM_HEADERS else names).add(m.group(2))
    return names, program_names


def exported(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True, check=True)
    symbols = set()
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRVWiu":
            symbols.add(parts[2].split("@")[0])
    return symbols


def main():
    root, library = sys.argv[1], sys.argv[2]
    names, program_names = declared(root)
    symbols = exported(library)
    # names the toolchain adds to every shared object
    symbols -= {"_init", "_fini", "_edata", "_end", "__bss_start"}
    leaks = sorted(symbols - names)
    missing = sorted(names - symbols)
    for s in leaks:
        print(f"exported but declared in no public header: {s}")
    for s in missing:
        print(f"declared PB_API in a public header but not exported: {s}")
    print(f"exports: {len(symbols)} exported, {len(names)} declared (+{len(program_names)} in sim.h, viz.h); "
          f"{len(leaks)} leaks, {len(missing)} missing")
    return 1 if leaks or missing or not symbols else 0


if __name__ == "__main__":
    sys.exit(main())
