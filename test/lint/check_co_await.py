#!/usr/bin/env python3
"""No braced temporary inside a co_await expression, and no co_await in a conditional expression,
in what g++ compiles for users.

g++ 12 miscompiles both, while clang is right: a braced-init temporary that is an argument inside
a co_await expression (`co_await w.send({.status = 200, ...})`) corrupted the heap at run time
(issue 33), and `c ? co_await a() : co_await b()` freed a wrong pointer (the A2A server's streams).
Name the value first; use an if. Scans include/, lib/, example/ and bench/ (the tests are built
by clang); strings and comments are skipped, so a '?' left in a statement is the conditional operator.

  check_co_await.py ROOT [--add PATH=TEXT]   (--add appends TEXT to PATH before checking)
"""
import re
import sys
from pathlib import Path

STRIP = re.compile(r'R"([^(\s]*)\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*(?:.|\n)*?\*/')


def blank(match):
    return re.sub(r"[^\n]", " ", match.group(0))  # keeps line numbers and columns


def in_conditional(code, start):
    """Whether the statement holding the co_await at `start` has a conditional operator."""
    begin = max(code.rfind(c, 0, start) for c in ";{}") + 1
    ends = [i for i in (code.find(c, start) for c in ";{}") if i >= 0]
    return "?" in code[begin:min(ends) if ends else len(code)]


def violations(text):
    code = STRIP.sub(blank, text)
    found = []
    for start in (m.start() for m in re.finditer(r"\bco_await\b", code)):
        if in_conditional(code, start):
            found.append((code.count("\n", 0, start) + 1, "a co_await in a conditional expression (g++ 12 miscompiles it): use an if"))
            continue
        depth_paren = depth_brace = 0
        previous = ""
        for i in range(start, len(code)):
            c = code[i]
            if c == "(":
                depth_paren += 1
            elif c == ")":
                depth_paren -= 1
            elif c == "{":
                if depth_paren > 0 and depth_brace == 0 and previous in "(,":
                    found.append((code.count("\n", 0, i) + 1, "a braced temporary inside a co_await expression (g++ 12 miscompiles it): name it first"))
                    break
                depth_brace += 1
            elif c == "}":
                depth_brace -= 1
                if depth_brace < 0:
                    break
            elif c == ";" and depth_brace == 0:
                break
            if not c.isspace():
                previous = c
    return found


def main(argv):
    root = Path(argv[1])
    added = {}
    if len(argv) == 4 and argv[2] == "--add":
        path, text = argv[3].split("=", 1)
        added[path] = text
    bad = []
    for folder in ("include", "lib", "example", "bench"):
        for file in sorted((root / folder).rglob("*")):
            if file.suffix not in (".cpp", ".hpp"):
                continue
            relative = file.relative_to(root).as_posix()
            text = file.read_text(encoding="utf-8", errors="replace") + "\n" + added.get(relative, "")
            bad += [f"{relative}:{line}: {what}" for line, what in violations(text)]
    for b in bad:
        print(b)
    print(f"{len(bad)} co_await expressions g++ 12 miscompiles")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
