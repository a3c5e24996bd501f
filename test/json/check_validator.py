#!/usr/bin/env python3
"""schema_validator's oracle: random schemas (every supported keyword, nested) and random
instances, judged by schema_validator and by Python's jsonschema (Draft 2020-12); the
verdicts must agree. Fixed seeds: the same cases every run.

    check_validator.py PATH/TO/forma_validator_verdicts
"""

import json
import random
import subprocess
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError as e:  # a clear message instead of a traceback
    sys.exit(f"validator oracle: Python's jsonschema is required ({e}); run tools/bootstrap")

SCALARS = [None, True, False, 0, 1, -1, 1.0, 2.5, 3, 10, 100, "", "a", "ab", "abc", "é", "😀x", "B1"]
KEYS = ["a", "b", "c", "ab", "x"]


def instance(r, depth=0):
    k = r.random()
    if depth > 3 or k < 0.5:
        return r.choice(SCALARS)
    if k < 0.75:
        return [instance(r, depth + 1) for _ in range(r.randint(0, 4))]
    return {r.choice(KEYS): instance(r, depth + 1) for _ in range(r.randint(0, 4))}


def schema(r, depth=0):
    if depth > 3 or r.random() < 0.15:
        return r.choice([True, False, {}])
    s = {}
    for _ in range(r.randint(1, 3)):
        k = r.choice(["type", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
                      "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "items",
                      "prefixItems", "contains", "minContains", "maxContains", "minItems", "maxItems",
                      "uniqueItems", "properties", "patternProperties", "additionalProperties",
                      "propertyNames", "required", "minProperties", "maxProperties",
                      "dependentRequired", "dependentSchemas", "allOf", "anyOf", "oneOf", "not", "if",
                      "then", "else", "$ref"])
        sub = lambda: schema(r, depth + 1)
        if k == "type":
            s[k] = r.choice(["null", "boolean", "object", "array", "number", "string", "integer",
                             ["string", "null"], ["integer", "array"]])
        elif k == "enum":
            s[k] = [r.choice(SCALARS) for _ in range(r.randint(1, 3))] + r.choice([[], [[1]], [{"a": 1}]])
        elif k == "const":
            s[k] = r.choice([r.choice(SCALARS), [1, "a"], {"a": 1}])
        elif k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            s[k] = r.choice([0, 1, 2.5, -1, 10])
        elif k == "multipleOf":
            s[k] = r.choice([1, 2, 0.5, 3, 2.5])
        elif k in ("minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains",
                   "minProperties", "maxProperties"):
            s[k] = r.randint(0, 3)
        elif k == "pattern":
            s[k] = r.choice(["a", "^a", "b$", "^.$", "[0-9]", "^[a-z]+$", "é"])
        elif k in ("items", "contains", "additionalProperties", "propertyNames", "not", "if", "then", "else"):
            s[k] = sub()
        elif k == "prefixItems":
            s[k] = [sub() for _ in range(r.randint(1, 2))]
        elif k == "uniqueItems":
            s[k] = r.choice([True, False])
        elif k == "properties":
            s[k] = {r.choice(["a", "b", "c"]): sub() for _ in range(r.randint(1, 2))}
        elif k == "patternProperties":
            s[k] = {r.choice(["^a", "b", "x$"]): sub()}
        elif k == "required":
            s[k] = r.sample(["a", "b", "c"], r.randint(0, 2))
        elif k == "dependentRequired":
            s[k] = {"a": r.sample(["b", "c"], r.randint(0, 2))}
        elif k == "dependentSchemas":
            s[k] = {"a": sub()}
        elif k in ("allOf", "anyOf", "oneOf"):
            s[k] = [sub() for _ in range(r.randint(1, 3))]
        elif k == "$ref" and depth == 0:
            s["$defs"] = {"d": sub()}
            s[k] = "#/$defs/d"
    return s


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    r = random.Random(2020_12)
    cases = [(schema(r), instance(r)) for _ in range(10000)]
    lines = "".join(json.dumps(s, ensure_ascii=False) + "\t" + json.dumps(i, ensure_ascii=False) + "\n"
                    for s, i in cases)
    out = subprocess.run([sys.argv[1]], input=lines, check=True, capture_output=True,
                         text=True).stdout.splitlines()
    passed = failed = 0
    for (s, i), got in zip(cases, out, strict=True):
        want = "valid" if Draft202012Validator(s).is_valid(i) else "invalid"
        if got == want:
            passed += 1
        else:
            failed += 1
            if failed <= 10:
                print(f"disagree: forma {got}, jsonschema {want}: schema {json.dumps(s)} instance {json.dumps(i)}")
    print(f"{passed} passed, {failed} failed")


if __name__ == "__main__":
    main()
