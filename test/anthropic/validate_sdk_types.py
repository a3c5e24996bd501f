#!/usr/bin/env python3
"""Judges forma's Anthropic Messages API shapes by the official SDK's published types.

    validate_sdk_types.py NODE NPM_DIR CORPUS_PROGRAM WORK_DIR

Turns the TypeScript types of @anthropic-ai/sdk (installed in NPM_DIR by tools/bootstrap) into
JSON Schemas with ts-json-schema-generator, runs CORPUS_PROGRAM to write what forma sends and what
the local model server answers, and validates each file by its type:

    requests/*.json         MessageCreateParamsNonStreaming
    requests_stream/*.json  MessageCreateParamsStreaming
    count/*.json            MessageCountTokensParams
    messages/*.json         Message
    events/*.jsonl          RawMessageStreamEvent, a line each
    errors/*.json           ErrorResponse

Ends with "N passed, 0 failed" (N > 0) and exit status 0, or lists what failed and exits 1.
"""
import json
import os
import subprocess
import sys

import jsonschema

TYPES = {
    "requests": ("resources/messages/messages.d.ts", "MessageCreateParamsNonStreaming"),
    "requests_stream": ("resources/messages/messages.d.ts", "MessageCreateParamsStreaming"),
    "count": ("resources/messages/messages.d.ts", "MessageCountTokensParams"),
    "messages": ("resources/messages/messages.d.ts", "Message"),
    "events": ("resources/messages/messages.d.ts", "RawMessageStreamEvent"),
    "errors": ("resources/shared.d.ts", "ErrorResponse"),
}


def schema_of(node, npm_dir, work_dir, source, type_name):
    out = os.path.join(work_dir, type_name + ".schema.json")
    generator = os.path.join(npm_dir, "node_modules", "ts-json-schema-generator", "bin", "ts-json-schema-generator.js")
    path = os.path.join(npm_dir, "node_modules", "@anthropic-ai", "sdk", source)
    subprocess.run([node, generator, "--path", path, "--type", type_name, "--no-type-check", "-o", out],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def main():
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    node, npm_dir, corpus, work_dir = sys.argv[1:]
    os.makedirs(work_dir, exist_ok=True)
    corpus_dir = os.path.join(work_dir, "corpus")
    subprocess.run([corpus, corpus_dir], check=True)
    passed, failures = 0, []
    for folder, (source, type_name) in TYPES.items():
        validator = jsonschema.Draft7Validator(schema_of(node, npm_dir, work_dir, source, type_name))
        where = os.path.join(corpus_dir, folder)
        names = sorted(os.listdir(where)) if os.path.isdir(where) else []
        if not names:
            failures.append(f"{folder}: nothing to judge")
        for name in names:
            with open(os.path.join(where, name), encoding="utf-8") as f:
                documents = [line for line in f.read().splitlines() if line.strip()] if name.endswith(".jsonl") else [f.read()]
            for i, text in enumerate(documents):
                if folder == "events" and json.loads(text).get("type") == "ping":
                    continue  # the API sends pings; the SDK's event union leaves them out (it drops them)
                errors = sorted(validator.iter_errors(json.loads(text)), key=lambda e: list(e.path))
                label = f"{folder}/{name}" + (f" line {i + 1}" if len(documents) > 1 else "") + f" as {type_name}"
                if errors:
                    failures.append(label + ": " + "; ".join(
                        f"at /{'/'.join(map(str, e.path))}: {e.message[:300]}" for e in errors[:3]))
                else:
                    passed += 1
    for failure in failures:
        print("FAILED " + failure)
    print(f"{passed} passed, {len(failures)} failed")
    return 0 if passed > 0 and not failures else 1


if __name__ == "__main__":
    sys.exit(main())
