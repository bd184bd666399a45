#!/usr/bin/env python3
"""Validates `smtop report --json` / `smtop diff --json` output against
tui/report/report.schema.json (JSON Schema draft 2020-12) with Debian's
python3-jsonschema.

usage: validate_report.py SCHEMA [--kind report|diff|any] FILE...

--kind pins the sub-schema ($defs/report or $defs/diff), so a report that
lost its "source" is not waved through as a diff. Prints every violation
with its JSON path and exits 1 when there is one; exit 77 (ctest's skip)
when jsonschema is not installed."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("SKIPPED: python3-jsonschema not installed (apt install python3-jsonschema)")
    sys.exit(77)


def validator_for(schema, kind):
    if kind == "any":
        root = schema
    else:
        # Same $defs, entry point moved: local "#/$defs/..." refs still resolve.
        root = {"$schema": schema["$schema"], "$defs": schema["$defs"],
                "$ref": "#/$defs/" + kind}
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(root)


def path_of(err):
    return "/".join(str(p) for p in err.absolute_path) or "(top)"


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema = json.load(open(argv[1]))
    kind, files = "any", argv[2:]
    if files[0] == "--kind":
        kind, files = files[1], files[2:]
    v = validator_for(schema, kind)
    bad = 0
    for f in files:
        try:
            doc = json.load(open(f))
        except ValueError as e:
            print(f"{f}: not JSON: {e}")
            bad += 1
            continue
        errs = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errs[:20]:
            print(f"{f}: {path_of(e)}: {e.message[:300]}")
        if errs:
            bad += 1
    print(f"{len(files) - bad}/{len(files)} {kind} documents valid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
