#!/usr/bin/env python3
"""forma's schema oracle: judges forma's JSON Schemas with an implementation no one here wrote.

    check_schemas.py PATH/TO/forma_schema_corpus   check the corpus the program prints
    check_schemas.py --self-test                   prove that each check can fail

For every type of the corpus: Draft202012Validator.check_schema accepts both dialects'
schemas; every sample (to_json text) validates against the 2020-12 schema, and against
the openai_strict schema when the type has no map (to_json writes maps as objects, the
strict dialect as key/value arrays); every openai_strict schema keeps the strict rules
(see check_strict); and the program's own round-trip and coverage checks passed.
"""

import json
import subprocess
import sys

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
except ImportError as e:  # a clear message instead of a traceback
    sys.exit(f"schema oracle: Python's jsonschema is required ({e}); run tools/bootstrap")

DIALECTS = ("json_schema_2020_12", "openai_strict")

# Keywords OpenAI documents for structured outputs with strict: true.
STRICT_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "enum", "const",
    "anyOf", "$ref", "$defs", "description", "title", "pattern", "format", "multipleOf",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
}
STRICT_FORBIDDEN = {"oneOf", "allOf", "not", "default", "$schema"}
STRICT_FORMATS = {
    "date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid",
}


def pointer_escape(name):
    return name.replace("~", "~0").replace("/", "~1")


def resolve_ref(root, ref):
    """The schema a local `$ref` points to, or None when it does not resolve."""
    if not ref.startswith("#"):
        return None
    fragment = ref[1:]
    if fragment == "":
        return root
    if not fragment.startswith("/"):
        return None
    node = root
    for token in fragment[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node if isinstance(node, (dict, bool)) else None


def is_object_schema(schema):
    t = schema.get("type")
    return t == "object" or (isinstance(t, list) and "object" in t) or "properties" in schema


def check_strict(schema, is_struct):
    """The openai_strict rules broken by `schema`, as messages naming the JSON Pointer."""
    problems = []
    if is_struct and not (isinstance(schema, dict) and schema.get("type") == "object"):
        problems.append("(root): the root of a struct's schema must have \"type\": \"object\"")

    def walk(node, where):
        at = where or "(root)"
        if not isinstance(node, dict):
            problems.append(f"{at}: a schema must be an object, got {json.dumps(node)}")
            return
        for key in node:
            if key in STRICT_FORBIDDEN:
                problems.append(f"{at}: forbidden keyword \"{key}\"")
            elif key not in STRICT_KEYWORDS:
                problems.append(f"{at}: keyword \"{key}\" is outside the strict subset")
        if "$ref" in node:
            siblings = sorted(k for k in node if k != "$ref")
            if siblings:
                problems.append(f"{at}: $ref has sibling keys {siblings}")
            if not isinstance(node["$ref"], str) or resolve_ref(schema, node["$ref"]) is None:
                problems.append(f"{at}: $ref {json.dumps(node['$ref'])} does not resolve")
        if is_object_schema(node):
            if node.get("additionalProperties") is not False:
                problems.append(f"{at}: object schema without \"additionalProperties\": false")
            properties = node.get("properties", {})
            required = node.get("required", [])
            if not isinstance(properties, dict) or not isinstance(required, list):
                problems.append(f"{at}: \"properties\" must be an object, \"required\" an array")
            else:
                missing = [p for p in properties if p not in required]
                if missing:
                    problems.append(f"{at}: properties missing from \"required\": {missing}")
                unknown = [r for r in required if r not in properties]
                if unknown:
                    problems.append(f"{at}: \"required\" names undefined properties: {unknown}")
        if "format" in node and node["format"] not in STRICT_FORMATS:
            problems.append(
                f"{at}: format {json.dumps(node['format'])} is outside the strict subset")
        for keyword in ("properties", "$defs"):
            children = node.get(keyword)
            if isinstance(children, dict):
                for name, child in children.items():
                    walk(child, f"{where}/{keyword}/{pointer_escape(name)}")
        for keyword in ("items", "additionalProperties"):
            if isinstance(node.get(keyword), dict):
                walk(node[keyword], f"{where}/{keyword}")
        for keyword in ("anyOf", "oneOf", "allOf"):
            if isinstance(node.get(keyword), list):
                for i, child in enumerate(node[keyword]):
                    walk(child, f"{where}/{keyword}/{i}")
        if isinstance(node.get("not"), dict):
            walk(node["not"], f"{where}/not")

    walk(schema, "")
    return problems


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def sample_errors(schema, text):
    """Why the JSON `text` is not valid JSON or does not validate against `schema`."""
    try:
        instance = json.loads(text, parse_constant=reject_constant)
    except ValueError as e:
        return [f"to_json wrote invalid JSON ({e})"]
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    try:
        return [f"at {e.json_path}: {e.message}" for e in validator.iter_errors(instance)]
    except Exception as e:  # an unresolvable $ref, a bad pattern, ...
        return [f"validation raised {type(e).__name__}: {e}"]


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.failures = []  # one line per problem; a failed check may have several

    def check(self, label, problems):
        if problems:
            self.failed += 1
            self.failures.extend(f"FAIL {label}: {p}" for p in problems)
        else:
            self.passed += 1


def check_document(document, exit_code):
    """Runs every check on the program's output; returns the Report."""
    report = Report()
    corpus = document.get("corpus", [])
    report.check("corpus size", [] if len(corpus) >= 20 else [f"only {len(corpus)} types, want 20"])
    uncovered = document.get("uncovered", [])
    report.check("corpus coverage", [f"no type uses {k}" for k in uncovered])

    round_trip_failures = 0
    for entry in corpus:
        name = entry["type"]
        schemas = entry["schemas"]
        valid_dialects = []
        for dialect in DIALECTS:
            try:
                Draft202012Validator.check_schema(schemas[dialect])
                valid_dialects.append(dialect)
                problems = []
            except SchemaError as e:
                problems = [f"not a valid 2020-12 schema: {e.message} (at {e.json_path})"]
            report.check(f"{name} [{dialect}] metaschema", problems)
        report.check(f"{name} [openai_strict] rules",
                     check_strict(schemas["openai_strict"], entry["is_struct"]))
        # Samples are judged only by schemas that are valid (an invalid one is reported above).
        dialects = [d for d in valid_dialects
                    if d == "json_schema_2020_12" or not entry["contains_map"]]
        for i, sample in enumerate(entry["samples"]):
            error = sample["round_trip_error"]
            if error is not None:
                round_trip_failures += 1
            report.check(f"{name} sample {i} round trip", [error] if error is not None else [])
            if sample["json"] == "":
                continue  # to_json threw: reported as the round trip's failure
            for dialect in dialects:
                problems = sample_errors(schemas[dialect], sample["json"])
                report.check(f"{name} sample {i} [{dialect}] {sample['json'][:80]}", problems)

    expected_failure = bool(uncovered) or round_trip_failures > 0
    if (exit_code != 0) != expected_failure:
        report.check("program exit status",
                     [f"forma_schema_corpus exited {exit_code} but reported "
                      f"{round_trip_failures} round-trip failures and {len(uncovered)} gaps"])
    return report


def run_corpus(program):
    try:
        result = subprocess.run([program], capture_output=True, text=True)
    except OSError as e:
        print(f"FAIL cannot run {program}: {e}")
        return 1
    sys.stderr.write(result.stderr)
    try:
        document = json.loads(result.stdout)
    except ValueError as e:
        print(f"FAIL {program} printed no JSON document (exit {result.returncode}): {e}")
        return 1
    report = check_document(document, result.returncode)
    for line in report.failures:
        print(line)
    print(f"schema oracle: {len(document.get('corpus', []))} types, "
          f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failures else 0


# ---- self-test: each rule must catch a schema written to break it ------------------

GOOD_STRICT = {
    "type": "object",
    "description": "a valid strict schema",
    "properties": {
        "name": {"type": "string", "pattern": "^a", "format": "email"},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "next": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]},
        "self": {"anyOf": [{"$ref": "#"}, {"type": "null"}]},
        "kind": {"type": "string", "enum": ["a", "b"]},
    },
    "required": ["name", "tags", "next", "self", "kind"],
    "additionalProperties": False,
    "$defs": {
        "node": {
            "type": "object",
            "properties": {"value": {"type": "integer", "minimum": 0, "maximum": 9}},
            "required": ["value"],
            "additionalProperties": False,
        }
    },
}


def broken(change):
    schema = json.loads(json.dumps(GOOD_STRICT))
    change(schema)
    return schema


def set_path(path, value):
    def change(schema):
        node = schema
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def delete_path(path):
    def change(schema):
        node = schema
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return change


NODE = ["$defs", "node"]
# (what it breaks, schema, is_struct, text the report must contain)
STRICT_CASES = [
    ("additionalProperties missing", broken(delete_path(["additionalProperties"])), True,
     "(root): object schema without \"additionalProperties\": false"),
    ("additionalProperties true in $defs", broken(set_path(NODE + ["additionalProperties"], True)),
     True, "/$defs/node: object schema without \"additionalProperties\": false"),
    ("additionalProperties as a schema",
     broken(set_path(["additionalProperties"], {"type": "string"})), True,
     "(root): object schema without \"additionalProperties\": false"),
    ("property not required", broken(set_path(["required"], ["name", "tags", "next", "self"])),
     True, "properties missing from \"required\": ['kind']"),
    ("nested property not required", broken(set_path(NODE + ["required"], [])), True,
     "/$defs/node: properties missing from \"required\": ['value']"),
    ("required names an undefined property",
     broken(set_path(NODE + ["required"], ["value", "ghost"])), True,
     "\"required\" names undefined properties: ['ghost']"),
    ("keyword outside the subset", broken(set_path(["properties", "name", "minLength"], 1)), True,
     "/properties/name: keyword \"minLength\" is outside the strict subset"),
    ("keyword outside the subset in items",
     broken(set_path(["properties", "tags", "items", "maxLength"], 3)), True,
     "/properties/tags/items: keyword \"maxLength\" is outside the strict subset"),
    ("oneOf", broken(set_path(["properties", "kind"], {"oneOf": [{"type": "string"}]})), True,
     "/properties/kind: forbidden keyword \"oneOf\""),
    ("allOf", broken(set_path(["properties", "kind"], {"allOf": [{"type": "string"}]})), True,
     "/properties/kind: forbidden keyword \"allOf\""),
    ("not", broken(set_path(["properties", "kind"], {"not": {"type": "string"}})), True,
     "/properties/kind: forbidden keyword \"not\""),
    ("default", broken(set_path(["properties", "kind", "default"], "a")), True,
     "/properties/kind: forbidden keyword \"default\""),
    ("$schema", broken(set_path(["$schema"], "https://json-schema.org/draft/2020-12/schema")),
     True, "(root): forbidden keyword \"$schema\""),
    ("unsupported format", broken(set_path(["properties", "name", "format"], "uri")), True,
     "/properties/name: format \"uri\" is outside the strict subset"),
    ("struct root is not an object", {"type": "array", "items": {"type": "integer"}}, True,
     "(root): the root of a struct's schema must have \"type\": \"object\""),
    ("struct root is an anyOf", {"anyOf": [GOOD_STRICT, {"type": "null"}]}, True,
     "(root): the root of a struct's schema must have \"type\": \"object\""),
    ("$ref with a description",
     broken(set_path(["properties", "next", "anyOf", 0, "description"], "the next node")), True,
     "/properties/next/anyOf/0: $ref has sibling keys ['description']"),
    ("$ref that does not resolve", broken(set_path(["properties", "next", "anyOf", 0, "$ref"],
                                                   "#/$defs/missing")), True,
     "/properties/next/anyOf/0: $ref \"#/$defs/missing\" does not resolve"),
    ("$ref to another document", broken(set_path(["properties", "self", "anyOf", 0, "$ref"],
                                                 "other.json#")), True,
     "/properties/self/anyOf/0: $ref \"other.json#\" does not resolve"),
    ("a boolean schema", broken(set_path(["properties", "name"], True)), True,
     "/properties/name: a schema must be an object"),
]


def good_entry(schema_2020, schema_strict, samples, is_struct=True, contains_map=False):
    return {"type": "probe", "is_struct": is_struct, "contains_map": contains_map,
            "schemas": {"json_schema_2020_12": schema_2020, "openai_strict": schema_strict},
            "samples": [{"json": s, "round_trip_error": None} for s in samples]}


INT_OBJECT = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}},
              "required": ["n"], "additionalProperties": False}
MAP_2020 = {"type": "object", "additionalProperties": {"type": "integer"}}
MAP_STRICT = {"type": "array", "items": {
    "type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "integer"}},
    "required": ["key", "value"], "additionalProperties": False}}


def document_of(*entries, uncovered=()):
    corpus = list(entries) + [good_entry(INT_OBJECT, INT_OBJECT, ['{"n":1}'])] * 20
    return {"corpus": corpus, "uncovered": list(uncovered)}


def with_round_trip_error(entry):
    entry["samples"][0]["round_trip_error"] = "from_json(to_json(sample)) != sample"
    return entry


# (what it breaks, document, exit code, text the report must contain)
DOCUMENT_CASES = [
    ("2020-12 schema rejected by the metaschema",
     document_of(good_entry({"type": 5}, INT_OBJECT, [])), 0,
     "probe [json_schema_2020_12] metaschema: not a valid 2020-12 schema"),
    ("strict schema rejected by the metaschema",
     document_of(good_entry(INT_OBJECT, {"type": "object", "properties": [],
                                         "additionalProperties": False}, [])), 0,
     "probe [openai_strict] metaschema: not a valid 2020-12 schema"),
    ("sample breaks the 2020-12 schema",
     document_of(good_entry(INT_OBJECT, INT_OBJECT, ['{"n":10}'])), 0,
     "probe sample 0 [json_schema_2020_12] {\"n\":10}: "
     "at $.n: 10 is greater than the maximum of 9"),
    ("sample breaks the strict schema",
     document_of(good_entry({"type": "object"}, INT_OBJECT, ['{"n":"x"}'])), 0,
     "probe sample 0 [openai_strict] {\"n\":\"x\"}: at $.n: 'x' is not of type 'integer'"),
    ("sample breaks a format",
     document_of(good_entry({"type": "string", "format": "uuid"}, {"type": "string"}, ['"x"'],
                            False)), 0, "'x' is not a 'uuid'"),
    ("sample is not JSON", document_of(good_entry(INT_OBJECT, INT_OBJECT, ['{"n":NaN}'])), 0,
     "to_json wrote invalid JSON"),
    ("strict rules are checked on the corpus",
     document_of(good_entry(INT_OBJECT, {"type": "object", "properties": {}}, [])), 0,
     "probe [openai_strict] rules: (root): object schema without"),
    ("map sample is still checked against 2020-12",
     document_of(good_entry(MAP_2020, MAP_STRICT, ['{"a":"x"}'], contains_map=True)), 0,
     "probe sample 0 [json_schema_2020_12]"),
    ("round trip failure", document_of(with_round_trip_error(
        good_entry(INT_OBJECT, INT_OBJECT, ['{"n":1}']))), 1,
     "probe sample 0 round trip: from_json(to_json(sample)) != sample"),
    ("uncovered mapping", document_of(uncovered=["unordered_map"]), 1,
     "corpus coverage: no type uses unordered_map"),
    ("program failed without saying why", document_of(), 3, "forma_schema_corpus exited 3"),
    ("too few types", {"corpus": [], "uncovered": []}, 0, "corpus size: only 0 types, want 20"),
]


def self_test():
    missed = []
    if check_strict(GOOD_STRICT, True):
        missed.append(f"the valid strict schema was rejected: {check_strict(GOOD_STRICT, True)}")
    for what, schema, is_struct, expected in STRICT_CASES:
        problems = check_strict(schema, is_struct)
        if not any(expected in p for p in problems):
            missed.append(f"strict rule \"{what}\": expected {expected!r}, got {problems}")

    map_root = good_entry(MAP_2020, MAP_STRICT, ['{"a":1}'], is_struct=False, contains_map=True)
    clean = check_document(document_of(map_root), 0)
    if clean.failures:
        missed.append(f"a valid document was rejected: {clean.failures}")
    for what, document, exit_code, expected in DOCUMENT_CASES:
        failures = check_document(document, exit_code).failures
        if not any(expected in f for f in failures):
            missed.append(f"document check \"{what}\": expected {expected!r}, got {failures}")

    for line in missed:
        print(f"FAIL self-test: {line}")
    total = 2 + len(STRICT_CASES) + len(DOCUMENT_CASES)
    print(f"schema oracle self-test: {total - len(missed)} passed, {len(missed)} failed")
    return 1 if missed else 0


def main(argv):
    sys.stdout.reconfigure(errors="backslashreplace")
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) == 2:
        return run_corpus(argv[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
