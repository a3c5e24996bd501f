"""The C++ code blocks of README.md and docs/*.md, and what the doc tests do with each.

A block's kind is read from an HTML comment on the line just before its fence (invisible once
rendered); a block without one is `declarations`:

  (none)                        declarations at namespace scope, compiled in its document's unit
  <!-- doc-test: statements --> statements, compiled as the body of a coroutine in that unit; the
                                names they take as given are declared in test/docs/context/<doc>.hpp
  <!-- doc-test: program -->    a whole program: compiled alone, linked and run
  <!-- doc-test: run harness=H entry=F -->
                                declarations, also completed by test/docs/harness/H.cpp, whose
                                doc_main() calls F, and harness/main.cpp, which runs doc_main():
                                with the document's declarations before it, linked and run
  <!-- doc-test: partial REASON -->  not compiled, for the reason given
  <!-- doc-test: wrong -->      what not to write: the co_await lint must refuse it
  <!-- doc-test: output -->     on a text block after a program or run block: what it prints

A document's unit is its declaration (and run) blocks in order, then its statement blocks, each in a
coroutine of its own; #include lines are gathered at the top.
"""
import re
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("declarations", "statements", "program", "run", "partial", "wrong")
MARKER = re.compile(r"^<!--\s*doc-test:\s*(\w+)(.*?)-->\s*$")
FENCE = re.compile(r"^```(\S*)\s*$")
CPP_FENCES = ("cpp", "c++")


@dataclass
class block:
    doc: Path          # relative to the root
    line: int          # of the first line of code (1-based)
    kind: str
    code: str
    options: dict = field(default_factory=dict)
    reason: str = ""
    output: str | None = None  # the expected output, for program and run blocks

    @property
    def where(self):
        return f"{self.doc.as_posix()}:{self.line}"

    @property
    def name(self):
        return f"{self.doc.stem.lower()}_{self.line}"


class marker_error(Exception):
    pass


def documents(root):
    root = Path(root)
    return [Path("README.md")] + sorted(p.relative_to(root) for p in (root / "docs").glob("*.md"))


def read(root, doc):
    """The C++ blocks of one document, with their kinds; a misplaced marker is an error."""
    lines = (Path(root) / doc).read_text(encoding="utf-8").split("\n")
    blocks = []
    pending = None  # (kind, rest, marker line)
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            pending = (m.group(1), m.group(2).strip(), i + 1)
            if pending[0] not in KINDS + ("output",):
                raise marker_error(f"{doc}:{i + 1}: unknown doc-test kind '{pending[0]}'")
            i += 1
            continue
        f = FENCE.match(lines[i])
        if not f:
            if lines[i].strip():
                pending = check_unused(doc, pending)
            i += 1
            continue
        language = f.group(1)
        end = i + 1
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        code = "\n".join(lines[i + 1:end])
        kind, rest, _ = pending or ("declarations", "", 0)
        if kind == "output":
            owner = blocks[-1] if blocks else None
            if owner is None or owner.kind not in ("program", "run") or owner.output is not None:
                raise marker_error(f"{doc}:{i + 1}: an output block follows no program or run block")
            owner.output = code
        elif language in CPP_FENCES:
            b = block(doc, i + 2, kind, code)
            if kind == "partial":
                if not rest:
                    raise marker_error(f"{doc}:{i + 1}: a partial block says why")
                b.reason = rest
            elif kind == "run":
                b.options = dict(kv.split("=", 1) for kv in rest.split())
                if set(b.options) != {"harness", "entry"}:
                    raise marker_error(f"{doc}:{i + 1}: a run block names its harness and entry")
            blocks.append(b)
        elif pending:
            raise marker_error(f"{doc}:{pending[2]}: a doc-test marker on a {language or 'plain'} block")
        pending = None
        i = end + 1
    check_unused(doc, pending)
    return blocks


def check_unused(doc, pending):
    if pending:
        raise marker_error(f"{doc}:{pending[2]}: a doc-test marker not followed by a code block")
    return None


def all_blocks(root):
    return [b for doc in documents(root) for b in read(root, doc)]


INCLUDE = re.compile(r"^\s*#\s*include\s*[<\"][^>\"]+[>\"].*$", re.M)


def split_includes(code):
    includes = INCLUDE.findall(code)
    return includes, INCLUDE.sub("", code)


PRELUDE = ["#include <forma/forma.hpp>", "#include <boost/describe.hpp>", "#include <iostream>"]


def line_directive(b):
    return f'#line {b.line} "{b.doc.as_posix()}"'


def unit(doc_blocks, context=None, upto=None):
    """A document's unit: its declarations (up to `upto`, a block, included), then its statements."""
    includes, bodies, statements = list(PRELUDE), [], []
    if context:
        includes.append(f'#include "{context}"')
    for b in doc_blocks:
        if upto is not None and b.line > upto.line:
            break
        if b.kind not in ("declarations", "statements", "run"):
            continue
        found, code = split_includes(b.code)
        includes += [i for i in found if i not in includes]
        if b.kind == "statements":
            statements.append(f"boost::asio::awaitable<void> doc_statements_{b.line}() {{\n"
                              f"{line_directive(b)}\n{code}\n    co_return;\n}}")
        else:
            bodies.append(f"{line_directive(b)}\n{code}")
    if upto is not None:
        statements = []
    return "\n".join(includes) + "\n\n" + "\n\n".join(bodies + statements) + "\n"
