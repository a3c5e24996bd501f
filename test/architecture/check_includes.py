#!/usr/bin/env python3
"""Checks every #include of include/forma and lib against the floor table of docs/architecture.md,
and that each member of a public class is defined in its own folder's sources.

A file may include its own folder and folders on lower floors; an include of a folder on its own
floor or above is an arrow back up, unless docs/architecture.md lists it under "Arrows still
pointing up" (a debt to pay, not a rule). A listed arrow that no longer exists fails too, so the
list only shrinks.

A private header of lib/X included by relative path from another folder ("../x/helper.hpp") must
be listed under "Shared private headers" in docs/architecture.md; a listed header that no other
folder includes any more fails too, so the list stays true.

A member of a class declared under include/forma/Y defined in a source of lib/X (X != Y) would
put Y's code in X's library: a part that links Y alone would miss it (the include check cannot
see such a circle).

    check_includes.py SOURCE_DIR [--add FILE=INCLUDE]... [--define FILE=CLASS::MEMBER]... [--graph]

--add pretends FILE (relative to SOURCE_DIR) also includes INCLUDE, --define that FILE also
defines CLASS::MEMBER: the tests that show the checks fail use them. --graph also prints the
arrows between folders, with their include counts.
"""
import os
import re
import sys

ARROW = "\N{RIGHTWARDS ARROW}"


def read_architecture(path):
    floors, listed, shared = {}, set(), set()
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
        elif section == "Shared private headers":
            header = re.match(r"- `(lib/[^`]+)`", line)
            if header:
                shared.add(header.group(1))
    return floors, listed, shared


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


def private_header(including, target, source_dir):
    """(header, folder) when a relative include lands in a private header of another folder of lib
    than the including file's, else None."""
    if target.startswith("forma/"):
        return None
    resolved = os.path.normpath(os.path.join(os.path.dirname(including), target))
    parts = resolved.split("/")
    if parts[0] != "lib" or len(parts) < 3 or not os.path.exists(os.path.join(source_dir, resolved)):
        return None
    own = including.split("/")
    if own[0] == "lib" and len(own) > 2 and own[1] == parts[1]:
        return None
    return resolved, parts[1]


def includes(source_dir, added):
    for top in ("include/forma", "lib"):
        for directory, _, files in os.walk(os.path.join(source_dir, top)):
            for name in sorted(files):
                if not name.endswith((".hpp", ".cpp", ".ipp", ".h")):
                    continue
                relative = os.path.relpath(os.path.join(directory, name), source_dir)
                with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for found in re.finditer(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', text, re.MULTILINE):
                    yield relative, text.count("\n", 0, found.start(1)) + 1, found.group(1)
    for file, include in added:
        yield file, None, include


def scoped_lines(path):
    """Each line of a source with the namespaces open at it ("forma::openai"; an anonymous one is
    "(anonymous)"), told by counting braces outside comments and literals."""
    scope = []  # (names, the brace depth inside the namespace)
    depth = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            yield "::".join(n for names, _ in scope for n in names), line
            code = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|//.*', "", line)
            opened = re.match(r"\s*(?:inline\s+)?namespace\s*([\w:]*)\s*\{", code)
            for i, c in enumerate(code):
                if c == "{":
                    depth += 1
                    if opened and i == code.index("{"):
                        scope.append((opened.group(1).split("::") if opened.group(1) else ["(anonymous)"], depth))
                elif c == "}":
                    while scope and scope[-1][1] == depth:
                        scope.pop()
                    depth -= 1


def public_classes(source_dir):
    """Each class or struct defined in include/forma, by its qualified name, with its folder."""
    classes = {}
    for directory, _, files in os.walk(os.path.join(source_dir, "include/forma")):
        for name in files:
            relative = os.path.relpath(os.path.join(directory, name), source_dir)
            for scope, line in scoped_lines(os.path.join(directory, name)):
                found = re.match(r"\s*(?:class|struct)\s+(?:\[\[[^\]]*\]\]\s*)?(\w+)(?:\s+final)?\s*(?::(?!:)[^;{]*)?\{?\s*$",
                                 line)
                if found:
                    classes[f"{scope}::{found.group(1)}" if scope else found.group(1)] = folder_of(relative)
    return classes


def definitions(source_dir, added):
    """(file, namespace, qualifier, member) of each member defined at the top level of a lib source."""
    for directory, _, files in os.walk(os.path.join(source_dir, "lib")):
        for name in sorted(files):
            if not name.endswith(".cpp"):
                continue
            relative = os.path.relpath(os.path.join(directory, name), source_dir)
            for scope, line in scoped_lines(os.path.join(directory, name)):
                if line[:1] in (" ", "\t", "/", "#", "}") or "(" not in line:
                    continue
                found = re.search(r"(?:^|[\s*&>])((?:\w+::)*\w+)::(~?\w+)\s*\($", line.split("(")[0] + "(")
                if found:
                    yield relative, scope, found.group(1), found.group(2)
    for file, member in added:
        qualifier, _, rest = member.rpartition("::")
        yield file, "forma", qualifier, rest


def misplaced_definitions(source_dir, added):
    classes = public_classes(source_dir)
    for file, scope, qualifier, member in definitions(source_dir, added):
        # The class a qualified name means: looked up from the innermost namespace outwards.
        parts = scope.split("::") if scope else []
        home = None
        for depth in range(len(parts), -1, -1):
            candidate = "::".join(parts[:depth] + [qualifier])
            if candidate in classes:
                home = classes[candidate]
                break
        here = folder_of(file)
        if home and here and home != here and home != "umbrella":
            yield (f"{file} ({here}) defines {qualifier}::{member}, a member of a class of include/forma/{home}: "
                   f"define it in lib/{home}, so that forma::{home} links without forma::{here}")


def main(argv):
    source_dir = argv[1]
    added, defined = [], []
    for i, arg in enumerate(argv):
        if arg == "--add":
            file, include = argv[i + 1].split("=", 1)
            added.append((file, include))
        if arg == "--define":
            file, member = argv[i + 1].split("=", 1)
            defined.append((file, member))
    floors, listed, shared = read_architecture(os.path.join(source_dir, "docs", "architecture.md"))
    if not floors:
        print("docs/architecture.md has no floor table")
        return 1
    problems, seen, arrows = [], set(), {}
    shared_uses = {}  # header -> how many includes from other folders
    for file, line, include in includes(source_dir, added):
        private = private_header(file, include, source_dir)
        if private:
            header, owner = private
            shared_uses[header] = shared_uses.get(header, 0) + 1
            if header not in shared:
                where = f"{file}:{line}" if line else file
                problems.append(f"{where}: includes {header}, a private header of {owner} not listed as shared "
                                "in docs/architecture.md")
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
    problems.extend(misplaced_definitions(source_dir, defined))
    down = sum(1 for s, t in arrows if floors[t] < floors[s])
    summary = (f"{len(arrows)} arrows between folders, {down} down, {len(seen)} listed up, "
               f"{sum(shared_uses.values())} cross-folder private includes of {len(shared_uses)} shared headers")
    # docs/architecture.md quotes the summary of a clean tree: a figure typed by hand goes stale.
    quoted = re.search(r"^    (\d+ arrows between folders, \d+ down, \d+ listed up, "
                       r"\d+ cross-folder private includes of \d+ shared headers), 0 problems$",
                       open(os.path.join(source_dir, "docs", "architecture.md"), encoding="utf-8").read(), re.MULTILINE)
    if not added and not defined and (not quoted or quoted.group(1) != summary):
        problems.append(f"docs/architecture.md quotes \"{quoted.group(1) if quoted else 'nothing'}\" where the tree has "
                        f"\"{summary}\": quote this script's last line there")
    for file, include in sorted(listed - seen):
        problems.append(f"docs/architecture.md lists {file} {ARROW} {include}, which no longer points up: "
                        "take it off the list")
    for header in sorted(shared - set(shared_uses)):
        problems.append(f"docs/architecture.md lists {header} as shared, which no other folder includes: "
                        "take it off the list")
    for problem in sorted(set(problems)):
        print(problem)
    if "--graph" in argv:
        for (s, t), n in sorted(arrows.items(), key=lambda a: (-floors[a[0][0]], a[0])):
            print(f"{s} ({floors[s]}) {ARROW} {t} ({floors[t]}): {n}")
    print(f"{summary}, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
