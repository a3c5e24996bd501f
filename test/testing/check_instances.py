#!/usr/bin/env python3
"""make_instance's oracle: every instance must be valid against its schema for Python's
jsonschema (Draft 2020-12, format checking on).

    check_instances.py PATH/TO/forma_instance_corpus
"""

import json
import subprocess
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError as e:  # a clear message instead of a traceback
    sys.exit(f"instance oracle: Python's jsonschema is required ({e}); run tools/bootstrap")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout
    pairs = json.loads(out)
    passed = failed = 0
    for pair in pairs:
        Draft202012Validator.check_schema(pair["schema"])
        validator = Draft202012Validator(pair["schema"],
                                         format_checker=Draft202012Validator.FORMAT_CHECKER)
        errors = list(validator.iter_errors(pair["instance"]))
        if errors:
            failed += 1
            print(f"FAIL {pair['name']} seed {pair['seed']}: {json.dumps(pair['instance'])}")
            for e in errors:
                print(f"  at /{'/'.join(map(str, e.absolute_path))}: {e.message}")
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
