#!/usr/bin/env python3
"""The co_await forms g++ 12 miscompiles, refused in what g++ compiles for users.

g++ 12 (12.2) crashes at run time on these, at -O0 and -O2 alike, while clang is right
(test/gcc12: every form run; the guide's "A GCC 12 bug to avoid in your coroutines"):
  - a braced temporary inside a co_await expression: `co_await c.get_response(m, {.model = "x"})`,
    `co_await c.get_response(m, forma::chat_options{})` (a freed wrong pointer, issue 33);
  - a co_await inside braces: `pair p{co_await a(), co_await b()}` (the awaited value freed);
  - a co_await beside a braced argument of the same call: `chat_client c(co_await executor, {...})`
    (the README's first sample, issue 44);
  - a co_await in a statement with a conditional operator: `c ? co_await a() : co_await b()`.
Name the value first; use an if. Scans include/, lib/, example/ and bench/ (the tests are built
by clang), and the C++ blocks of README.md and docs/*.md but those marked wrong (what users copy);
strings and comments are skipped, so a '?' left in a statement is the conditional operator.

  check_co_await.py ROOT [--add PATH=TEXT]   (--add appends TEXT to PATH, or to a doc's first
                                              block, before checking)
  check_co_await.py --cases FILE             (each line of FILE, "refuse: CODE" or
                                              "accept: CODE", checked alone)
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs"))
import doc_blocks  # noqa: E402

STRIP = re.compile(r'R"([^(\s]*)\((?:.|\n)*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*(?:.|\n)*?\*/')


def blank(match):
    return re.sub(r"[^\n]", " ", match.group(0))  # keeps line numbers and columns


def in_conditional(code, start):
    """Whether the statement holding the co_await at `start` has a conditional operator."""
    begin = max(code.rfind(c, 0, start) for c in ";{}") + 1
    ends = [i for i in (code.find(c, start) for c in ";{}") if i >= 0]
    return "?" in code[begin:min(ends) if ends else len(code)]


BLOCK_WORDS = {"else", "do", "try", "mutable", "noexcept", "override", "final", "const"}


def previous_token(code, i):
    """The character before position i, and the word it ends (empty when it is not a word)."""
    j = i - 1
    while j >= 0 and code[j].isspace():
        j -= 1
    if j < 0:
        return "", ""
    k = j
    while k >= 0 and (code[k].isalnum() or code[k] == "_"):
        k -= 1
    return code[j], code[k + 1:j + 1]


def is_initializer(code, i):
    """Whether the '{' at i opens a braced initializer, not a block (a function, lambda or statement body)."""
    char, word = previous_token(code, i)
    if char == "" or char in ");{}:" or word in BLOCK_WORDS:
        return False
    close = code.rfind(")", 0, i)
    if close >= 0 and "->" in code[close:i] and not any(c in code[close:i] for c in ";({"):
        return False  # after a trailing return type: a lambda's or function's body
    begin = max(code.rfind(c, 0, i) for c in ";{}") + 1
    return not re.search(r"\b(struct|class|union|namespace|enum)\b", code[begin:i])


def matching(code, i):
    """The position of the bracket closing the one at i."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] in "([{":
            depth += 1
        elif code[j] in ")]}":
            depth -= 1
            if depth == 0:
                return j
    return len(code)


def enclosing(code, start):
    """The brackets around position `start`, innermost first, up to the block it is in."""
    closes = 0
    for j in range(start - 1, -1, -1):
        c = code[j]
        if c in ")]}":
            closes += 1
        elif c in "([{":
            if closes:
                closes -= 1
                continue
            if c == "{" and not is_initializer(code, j):
                return
            yield j


def braced_argument(code, open_paren):
    """Whether the parenthesised group at `open_paren` has a braced initializer among its arguments."""
    depth = 0
    for j in range(open_paren + 1, matching(code, open_paren)):
        c = code[j]
        if c in "([{":
            if depth == 0 and c == "{" and is_initializer(code, j):
                return True
            depth += 1
        elif c in ")]}":
            depth -= 1
    return False


def in_operand(code, start):
    """A braced initializer inside the co_await's operand (its call's parentheses), if any."""
    depth_paren = depth_brace = 0
    for i in range(start, len(code)):
        c = code[i]
        if c == "(":
            depth_paren += 1
        elif c == ")":
            depth_paren -= 1
            if depth_paren < 0:
                return None
        elif c == "{":
            if depth_paren > 0 and depth_brace == 0 and is_initializer(code, i):
                return i
            depth_brace += 1
        elif c == "}":
            depth_brace -= 1
            if depth_brace < 0:
                return None
        elif c in ";," and depth_paren == 0 and depth_brace == 0:
            return None
    return None


def line_of(code, i):
    return code.count("\n", 0, i) + 1


def violations(text):
    code = STRIP.sub(blank, text)
    found = []
    for start in (m.start() for m in re.finditer(r"\bco_await\b", code)):
        if in_conditional(code, start):
            found.append((line_of(code, start), "a co_await in a conditional expression (g++ 12 miscompiles it): use an if"))
            continue
        brace = in_operand(code, start)
        if brace is not None:
            found.append((line_of(code, brace), "a braced temporary inside a co_await expression (g++ 12 miscompiles it): name it first"))
            continue
        for outer in enclosing(code, start):
            if code[outer] == "{":
                found.append((line_of(code, start), "a co_await inside braces (g++ 12 miscompiles it): await into a named variable first"))
                break
            if code[outer] == "(" and braced_argument(code, outer):
                found.append((line_of(code, start), "a co_await beside a braced argument of the same call (g++ 12 miscompiles it): await into a named variable first"))
                break
    return found


def check_cases(path):
    """Each case alone, in a function body: 'refuse:' ones must be found, 'accept:' ones not."""
    wrong = 0
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        verdict, code = line.split(":", 1)
        found = violations("boost::asio::awaitable<void> f() {\n" + code.strip() + "\n}\n")
        if (verdict == "refuse") != bool(found):
            wrong += 1
            print(f"{path}:{number}: {'not refused' if verdict == 'refuse' else 'refused: ' + found[0][1]}: {code.strip()}")
    print(f"{wrong} cases the check gets wrong")
    return 1 if wrong else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--cases":
        return check_cases(argv[2])
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
    for b in doc_blocks.all_blocks(root):
        if b.kind != "wrong":
            text = b.code + "\n" + added.pop(b.doc.as_posix(), "")  # added to a doc's first block
            bad += [f"{b.doc.as_posix()}:{b.line + line - 1}: {what}" for line, what in violations(text)]
    for b in bad:
        print(b)
    print(f"{len(bad)} co_await expressions g++ 12 miscompiles")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
