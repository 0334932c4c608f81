#!/usr/bin/env python3
"""Check the rules of docs/architecture.md that a machine can check.

usage: check_layout.py SOURCE_ROOT BUILD_DIR

1. No source file under src/ is longer than 1,500 lines, and no two share a file name.
2. A file includes only its own module's headers, the public headers, and the private
   headers of the modules the table "What may include what" allows.
3. No two files of src/ include each other or call each other's functions: a file (a .c
   and its .h count as one) that includes or calls another must not be included or called
   by it. Calls are read off the compiled objects in BUILD_DIR with nm: the globals each
   object defines and the ones it leaves undefined.

Prints one line per violation and exits 1 when there is any; the last line says how many
files, includes and calls were checked.
"""
import os
import re
import subprocess
import sys

MAX_LINES = 1500


def read_rules(root):
    text = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
    m = re.search(r"^## What may include what.*?\n(.*?)^## ", text, re.S | re.M)
    if not m:
        sys.exit("docs/architecture.md: no section '## What may include what'")
    rules = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not line.startswith("|") or cells[0] in ("module", "") or set(cells[0]) <= set("-"):
            continue
        rules[cells[0]] = {c.strip() for c in cells[1].split(",") if c.strip()}
    if not rules:
        sys.exit("docs/architecture.md: the include table is empty")
    return rules


def read_debts(root):
    """The lines of the fenced block under '### Known debts'."""
    text = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
    m = re.search(r"^### Known debts.*?```\n(.*?)```", text, re.S | re.M)
    return [line.strip() for line in m.group(1).splitlines() if line.strip()] if m else []


def unit_of(path):
    """src/core/engine.c and src/core/engine.h are one unit: src/core/engine."""
    return os.path.splitext(path)[0]


def main():
    root, build = sys.argv[1], sys.argv[2]
    rules = read_rules(root)
    problems = []
    sources = []
    for folder, _, files in os.walk(os.path.join(root, "src")):
        for f in files:
            if f.endswith((".c", ".h", ".cpp")):
                sources.append(os.path.relpath(os.path.join(folder, f), root))
    sources.sort()
    seen = {}
    for path in sources:
        name = os.path.basename(path)
        if name in seen:
            problems.append(f"{path}: the same file name as {seen[name]}")
        seen[name] = path
    edges = set()  # (unit, unit): the first includes or calls the second
    n_includes = 0
    for path in sources:
        lines = open(os.path.join(root, path), encoding="utf-8", errors="replace").read().splitlines()
        if len(lines) > MAX_LINES:
            problems.append(f"{path}: over {MAX_LINES} lines ({len(lines)})")
        module = path.split(os.sep)[1]
        if module not in rules:
            problems.append(f"{path}: module '{module}' is not in docs/architecture.md's include table")
            continue
        for number, line in enumerate(lines, 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            n_includes += 1
            inc = m.group(1)
            if inc.startswith("planbench/"):
                continue
            if "/" in inc:
                target_module = inc.split("/")[0]
                target = os.path.join("src", inc)
            else:
                target_module = module
                target = os.path.join(os.path.dirname(path), inc)
            if target_module != module and target_module not in rules[module]:
                problems.append(f"{path}: includes {inc}, a private header of '{target_module}' (line {number}; "
                                f"docs/architecture.md does not allow it for '{module}')")
            if os.path.exists(os.path.join(root, target)) and unit_of(target) != unit_of(path):
                edges.add((unit_of(path), unit_of(target)))
    # calls, from the objects
    defined, used = {}, {}
    n_objects = 0
    for folder, _, files in os.walk(build):
        if os.sep + "tests" in folder or os.sep + "bench" + os.sep in folder + os.sep or "examples" in folder:
            continue
        for f in files:
            if not f.endswith((".c.o", ".cpp.o")):
                continue
            obj = os.path.join(folder, f)
            # meson names a library's objects after the whole path (src_core_engine.c.o) and a
            # program part's after the file, in a folder beside the sources (src/sim/x.p/)
            flat = f[:-2]
            candidates = [s for s in sources if s.replace(os.sep, "_") == flat]
            if not candidates:
                parent = os.path.relpath(os.path.dirname(folder), build)
                candidates = [s for s in sources if s == os.path.join(parent, flat)]
            if len(candidates) != 1:
                continue
            src = candidates[0]
            out = subprocess.run(["nm", "--defined-only", "-g", obj], capture_output=True, text=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 3:
                    defined.setdefault(parts[2], unit_of(src))
            out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True).stdout
            used[unit_of(src)] = {line.split()[-1] for line in out.splitlines() if line.strip()}
            n_objects += 1
    n_calls = 0
    for unit, symbols in used.items():
        for sym in symbols:
            target = defined.get(sym)
            if target and target != unit:
                edges.add((unit, target))
                n_calls += 1
    for a, b in sorted(edges):
        if a < b and (b, a) in edges:
            problems.append(f"{a} and {b} include or call each other")
    debts = read_debts(root)
    failures = []
    for p in problems:
        # a debt line names the problem up to its details in parentheses
        if any(p == d or p.startswith(d + " (") for d in debts):
            print("known debt:", p)
        else:
            failures.append(p)
            print(p)
    for d in debts:
        if not any(p == d or p.startswith(d + " (") for p in problems):
            failures.append(d)
            print(f"{d}: listed as a known debt in docs/architecture.md but no longer found: remove it")
    problems = failures
    print(f"layout: {len(sources)} files, {n_includes} includes, {n_objects} objects, {n_calls} calls checked; "
          f"{len(problems)} problems")
    if n_objects == 0:
        print("layout: no compiled objects found under", build)
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
