#!/usr/bin/env python3
"""Compiles every C++ block of README.md and docs/*.md against an installed forma, as a user
builds (find_package(forma)), and runs the program and run blocks against the local model server
(tools/mock_llm, plain HTTP, its URL in OPENAI_BASE_URL), checking their output where the doc
shows it. Blocks marked `wrong` must be refused by the co_await lint. See doc_blocks.py for the
markers.

  doc_tests.py --root SRC --build BUILD --work DIR --cxx COMPILER --mock FORMA_MOCK_LLM
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "lint"))
import doc_blocks  # noqa: E402
from check_co_await import violations  # noqa: E402

HERE = Path(__file__).resolve().parent

PROJECT = """cmake_minimum_required(VERSION 3.25)
project(forma_doc_samples LANGUAGES CXX)
find_package(forma CONFIG REQUIRED)
add_library(doc_units OBJECT {units})
target_link_libraries(doc_units PRIVATE forma::forma)
target_compile_options(doc_units PRIVATE -O0 -Wall -Wextra -Wno-unused-variable -Wno-unused-but-set-variable)
target_include_directories(doc_units PRIVATE {context})
foreach(program IN ITEMS {programs})
  add_executable(${{program}} ${{program}}.cpp)
  target_link_libraries(${{program}} PRIVATE forma::forma forma::testing)
  target_include_directories(${{program}} PRIVATE {context})
  target_compile_options(${{program}} PRIVATE -Wall -Wextra)
endforeach()
"""


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.stdout.write(result.stdout + result.stderr)
        raise SystemExit(f"failed: {' '.join(map(str, command))}")
    return result


def generate(blocks, source):
    """Writes the units and programs; returns the programs' names."""
    source.mkdir(parents=True, exist_ok=True)
    units, programs = [], []
    by_doc = {}
    for b in blocks:
        by_doc.setdefault(b.doc, []).append(b)
    for doc, doc_blocks_ in by_doc.items():
        context = HERE / "context" / f"{doc.stem.lower()}.hpp"
        context_name = context.name if context.exists() else None
        if any(b.kind in ("declarations", "statements") for b in doc_blocks_):
            name = f"{doc.stem.lower()}.cpp"
            (source / name).write_text(doc_blocks.unit(doc_blocks_, context_name), encoding="utf-8")
            units.append(name)
        for b in doc_blocks_:
            if b.kind == "program":
                (source / f"{b.name}.cpp").write_text(f"{doc_blocks.line_directive(b)}\n{b.code}\n", encoding="utf-8")
                programs.append(b)
            elif b.kind == "run":
                harness = (HERE / "harness" / f"{b.options['harness']}.cpp").read_text(encoding="utf-8")
                text = doc_blocks.unit(doc_blocks_, context_name, upto=b)
                text += f"\n#line 1 \"test/docs/harness/{b.options['harness']}.cpp\"\n"
                text += f"#define DOC_ENTRY {b.options['entry']}\n" + harness
                text += "\n#line 1 \"test/docs/harness/main.cpp\"\n" + (HERE / "harness" / "main.cpp").read_text(encoding="utf-8")
                (source / f"{b.name}.cpp").write_text(text, encoding="utf-8")
                programs.append(b)
    (source / "CMakeLists.txt").write_text(PROJECT.format(
        units=" ".join(units), programs=" ".join(p.name for p in programs), context=HERE / "context"))
    return programs


def start_mock(mock):
    server = subprocess.Popen([mock, "--http", "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    m = re.search(r"listening on (\S+)", line)
    if not m:
        server.kill()
        raise SystemExit(f"forma-mock-llm did not start: {line!r}")
    return server, m.group(1)


def run_programs(programs, build, mock):
    server, url = start_mock(mock)
    env = dict(os.environ, OPENAI_BASE_URL=url)
    env.pop("OPENAI_API_KEY", None)
    failed = 0
    try:
        for b in programs:
            result = subprocess.run([build / b.name], capture_output=True, text=True, env=env, timeout=120)
            problem = None
            if result.returncode != 0:
                problem = f"exited with {result.returncode}"
            elif b.output is not None and result.stdout.rstrip() != b.output.rstrip():
                problem = f"printed\n{result.stdout}instead of what the doc shows\n{b.output}"
            if problem:
                failed += 1
                print(f"{b.where}: the program {problem}\n{result.stderr}")
            else:
                print(f"{b.where}: ran" + (", its output as the doc shows" if b.output is not None else ""))
    finally:
        server.terminate()
        server.wait()
    return failed


def check_wrong(blocks):
    """Each line of a wrong block that awaits must be refused by the co_await lint."""
    failed = 0
    for b in blocks:
        if b.kind != "wrong":
            continue
        refused = {line for line, _ in violations(b.code)}
        awaiting = {n for n, text in enumerate(b.code.split("\n"), 1) if "co_await" in text.split("//")[0]}
        for n in sorted(awaiting - refused):
            failed += 1
            print(f"{b.doc.as_posix()}:{b.line + n - 1}: marked wrong, but the co_await lint lets it pass")
        if awaiting <= refused:
            print(f"{b.where}: each of its {len(awaiting)} awaiting lines refused by the co_await lint")
    return failed


def main():
    parser = argparse.ArgumentParser()
    for option in ("--root", "--build", "--work", "--cxx", "--mock"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    root, work = Path(args.root), Path(args.work)
    try:
        blocks = doc_blocks.all_blocks(root)
    except doc_blocks.marker_error as e:
        raise SystemExit(str(e))

    shutil.rmtree(work, ignore_errors=True)
    prefix = work / "prefix"
    run(["cmake", "--install", args.build, "--prefix", prefix])
    programs = generate(blocks, work / "src")
    build = work / "build"
    run(["cmake", "-S", work / "src", "-B", build, f"-DCMAKE_CXX_COMPILER={args.cxx}",
         "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_PREFIX_PATH={prefix}"])
    built = subprocess.run(["cmake", "--build", build, "-j", os.environ.get("FORMA_JOBS", "2")],
                           capture_output=True, text=True)
    # Only the compiler's diagnostics, with the doc's own lines (#line directives).
    diagnostics = [l for l in (built.stdout + built.stderr).splitlines() if re.search(r"(warning|error):", l)]
    for line in diagnostics:
        print(line)
    if built.returncode != 0:
        sys.stdout.write(built.stdout[-4000:] + built.stderr[-4000:])
        raise SystemExit("the doc blocks do not compile")
    failed = len(diagnostics) + run_programs(programs, build, args.mock) + check_wrong(blocks)

    counts = {k: sum(b.kind == k for b in blocks) for k in doc_blocks.KINDS}
    compiled = counts["declarations"] + counts["statements"] + counts["program"] + counts["run"]
    print(f"{len(blocks)} C++ blocks: {compiled} compiled with {Path(args.cxx).name}, "
          f"{counts['program'] + counts['run']} run, {counts['partial']} partial, {counts['wrong']} wrong")
    for b in blocks:
        if b.kind == "partial":
            print(f"  partial {b.where}: {b.reason}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
