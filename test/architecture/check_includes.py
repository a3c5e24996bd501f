#!/usr/bin/env python3
"""Checks every #include of include/forma and lib against the floor table of docs/architecture.md.

A file may include its own folder and folders on lower floors; an include of a folder on its own
floor or above is an arrow back up, unless docs/architecture.md lists it under "Arrows still
pointing up" (a debt to pay, not a rule). A listed arrow that no longer exists fails too, so the
list only shrinks.

    check_includes.py SOURCE_DIR [--add FILE=INCLUDE]... [--graph]

--add pretends FILE (relative to SOURCE_DIR) also includes INCLUDE: the test that shows a wrong
include fails uses it. --graph also prints the arrows between folders, with their include counts.
"""
import os
import re
import sys

ARROW = "\N{RIGHTWARDS ARROW}"
# An old public path kept for one release says so, and only includes the new one.
FORWARDER = "this path forwards to it for one release"


def read_architecture(path):
    floors, listed = {}, set()
    section = None
    for line in open(path, encoding="utf-8"):
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        if section == "Floors":
            row = re.match(r"\|\s*(\d+)\s*\|([^|]*)\|", line)
            if row:
                for folder in re.findall(r"`([a-z0-9_]+)`", row.group(2)):
                    floors[folder] = int(row.group(1))
        elif section == "Arrows still pointing up":
            arrow = re.match(r"- `([^`]+)` " + ARROW + r" `([^`]+)`", line)
            if arrow:
                listed.add((arrow.group(1), arrow.group(2)))
    return floors, listed


ROOT_HEADERS = {"error.hpp": "error", "registered_secret.hpp": "error"}
ROOT_SOURCES = {"error.cpp": "error", "registered_secret.cpp": "error"}


def folder_of(relative):
    """The folder a file of include/forma or lib belongs to, or None outside them."""
    parts = relative.split("/")
    if parts[:2] == ["include", "forma"]:
        rest = parts[2:]
        if len(rest) == 1:
            return ROOT_HEADERS.get(rest[0], "umbrella")
        return rest[0]
    if parts[0] == "lib":
        rest = parts[1:]
        if len(rest) == 1:
            return ROOT_SOURCES.get(rest[0])
        return rest[0]
    return None


def included_folder(including, target, source_dir):
    if target.startswith("forma/"):
        return folder_of("include/" + target)
    resolved = os.path.normpath(os.path.join(os.path.dirname(including), target))
    if resolved.startswith(".."):
        return None
    return folder_of(resolved) if os.path.exists(os.path.join(source_dir, resolved)) else None


def includes(source_dir, added):
    for top in ("include/forma", "lib"):
        for directory, _, files in os.walk(os.path.join(source_dir, top)):
            for name in sorted(files):
                if not name.endswith((".hpp", ".cpp", ".ipp", ".h")):
                    continue
                relative = os.path.relpath(os.path.join(directory, name), source_dir)
                with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if FORWARDER in text:
                    continue
                for found in re.finditer(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', text, re.MULTILINE):
                    yield relative, found.group(1)
    yield from added


def main(argv):
    source_dir = argv[1]
    added = []
    for i, arg in enumerate(argv):
        if arg == "--add":
            file, include = argv[i + 1].split("=", 1)
            added.append((file, include))
    floors, listed = read_architecture(os.path.join(source_dir, "docs", "architecture.md"))
    if not floors:
        print("docs/architecture.md has no floor table")
        return 1
    problems, seen, arrows = [], set(), {}
    for file, include in includes(source_dir, added):
        source, target = folder_of(file), included_folder(file, include, source_dir)
        if source is None or target is None or source == target:
            continue
        for folder in (source, target):
            if folder not in floors:
                problems.append(f"{file}: folder {folder} is on no floor of docs/architecture.md")
        if source not in floors or target not in floors:
            continue
        arrows[(source, target)] = arrows.get((source, target), 0) + 1
        if floors[target] < floors[source]:
            continue
        if (file, include) in listed:
            seen.add((file, include))
            continue
        where = "its own floor" if floors[target] == floors[source] else "a floor above"
        problems.append(f"{file} (floor {floors[source]}, {source}) includes {include}: "
                        f"{target} is on {where} ({floors[target]})")
    for file, include in sorted(listed - seen):
        problems.append(f"docs/architecture.md lists {file} {ARROW} {include}, which no longer points up: "
                        "take it off the list")
    for problem in sorted(set(problems)):
        print(problem)
    if "--graph" in argv:
        for (s, t), n in sorted(arrows.items(), key=lambda a: (-floors[a[0][0]], a[0])):
            print(f"{s} ({floors[s]}) {ARROW} {t} ({floors[t]}): {n}")
    down = sum(1 for s, t in arrows if floors[t] < floors[s])
    print(f"{len(arrows)} arrows between folders, {down} down, {len(seen)} listed up, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
