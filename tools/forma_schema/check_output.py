#!/usr/bin/env python3
"""Checks forma-schema's output: every type in both dialects is JSON with the expected shape
(judged by jsonschema's 2020-12 meta-schema when jsonschema is installed), the strict dialect
closes every object, and bad arguments exit 2 with a clear message.

    check_output.py path/to/forma-schema
"""
import json
import subprocess
import sys

TOOL = sys.argv[1]
TYPES = ["person", "postal_address", "contact_card", "support_ticket"]
failures = []
passed = 0


def run(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True, timeout=30)


def check(condition, what):
    global passed
    if condition:
        passed += 1
    else:
        failures.append(what)
        print("FAILED:", what)


def objects(schema):
    """Every subschema that is an object schema, with $defs and nested ones."""
    if isinstance(schema, dict):
        if schema.get("type") == "object":
            yield schema
        for value in schema.values():
            yield from objects(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from objects(item)


def resolve(root, schema):
    """A property's schema, following a local $ref and an anyOf with null."""
    if "$ref" in schema:
        ref = schema["$ref"]
        target = root
        for part in ref.lstrip("#/").split("/") if ref != "#" else []:
            target = target[part]
        return target
    if "anyOf" in schema:
        non_null = [s for s in schema["anyOf"] if s.get("type") != "null"]
        return resolve(root, non_null[0])
    return schema


try:
    from jsonschema import Draft202012Validator
except ImportError:
    Draft202012Validator = None
    print("note: jsonschema is not installed; schemas are not checked against the meta-schema")

listing = run("--list")
check(listing.returncode == 0, "--list exits 0")
listed = [line.split()[0] for line in listing.stdout.splitlines() if line.strip()]
check(listed == TYPES, f"--list names {TYPES}, got {listed}")
check("A person mentioned in the text" in listing.stdout, "--list shows descriptions")

schemas = {}
for dialect in ["standard", "openai-strict"]:
    for name in TYPES:
        r = run("--dialect", dialect, name)
        check(r.returncode == 0, f"{name} ({dialect}) exits 0: {r.stderr.strip()}")
        check("\n  " in r.stdout, f"{name} ({dialect}) is pretty-printed")
        try:
            schema = json.loads(r.stdout)
        except json.JSONDecodeError as e:
            check(False, f"{name} ({dialect}) is JSON: {e}")
            continue
        schemas[(dialect, name)] = schema
        check(schema.get("type") == "object", f"{name} ({dialect}) is an object schema")
        if Draft202012Validator:
            errors = list(Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema))
            check(not errors, f"{name} ({dialect}) is a valid 2020-12 schema: {errors[:1]}")
        if dialect == "openai-strict":
            for o in objects(schema):
                check(o.get("additionalProperties") is False,
                      f"{name} (strict): every object has additionalProperties false")
                check(sorted(o.get("required", [])) == sorted(o.get("properties", {})),
                      f"{name} (strict): every property is required")

default = run("person")
check(default.returncode == 0 and json.loads(default.stdout) == schemas.get(("standard", "person")),
      "the default dialect is standard")

person = schemas.get(("standard", "person"), {})
check(set(person.get("properties", {})) == {"name", "age", "occupation"}, "person has name, age, occupation")
check(sorted(person.get("required", [])) == ["age", "name"], "person requires name and age (standard)")
check(person.get("$schema", "").endswith("2020-12/schema"), "standard names its $schema")
check(person.get("properties", {}).get("age", {}).get("maximum") == 150, "person.age has maximum 150")
strict_person = schemas.get(("openai-strict", "person"), {})
check("$schema" not in strict_person, "strict has no $schema")
check(sorted(strict_person.get("required", [])) == ["age", "name", "occupation"],
      "strict person requires occupation too (nullable)")

ticket = schemas.get(("standard", "support_ticket"), {})
props = ticket.get("properties", {})
check(set(props) == {"summary", "category", "priority", "customer", "order_id", "tags", "assignee"},
      "support_ticket has its properties")
check(resolve(ticket, props.get("category", {})).get("enum") == ["billing", "technical", "account", "other"],
      "support_ticket.category is an enum")
check(props.get("tags", {}).get("type") == "array" and props["tags"].get("maxItems") == 5,
      "support_ticket.tags is an array of at most 5")
check(set(resolve(ticket, props.get("customer", {})).get("properties", {})) == {"name", "age", "occupation"},
      "support_ticket.customer is a person")

card = schemas.get(("openai-strict", "contact_card"), {})
address = resolve(card, card.get("properties", {}).get("address", {}))
check(set(address.get("properties", {})) == {"street", "city", "postal_code", "country"},
      "contact_card.address is a nested postal_address (strict)")

for args, message in [(["no_such_type"], "unknown type 'no_such_type'"),
                      (["--dialect", "draft4", "person"], "unknown dialect 'draft4'"),
                      (["--dialect"], "unknown dialect"),
                      ([], "which type?"),
                      (["--frobnicate"], "unknown option --frobnicate")]:
    r = run(*args)
    check(r.returncode == 2, f"forma-schema {' '.join(args)} exits 2 (got {r.returncode})")
    check(message in r.stderr, f"forma-schema {' '.join(args)} says {message!r}: {r.stderr.strip()[:120]}")
    check(r.stdout == "", f"forma-schema {' '.join(args)} prints nothing on stdout")

print(f"{passed} passed, {len(failures)} failed")
sys.exit(1 if failures or passed == 0 else 0)
