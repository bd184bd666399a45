#!/usr/bin/env python3
"""kineto_variants: rewrites one Kineto trace in the other layouts a real
one may have, keeping every number exactly as written (json.dump would
turn 1234.567 into a float and back), for the differential test:

  plain.json        the original bytes, inflated
  oneline.json      one line, non-ASCII written as is
  pretty.json       indent 2, every non-ASCII character \\u-escaped
  meta_first.json   every other top-level key before traceEvents (one line)
  meta_last.json    traceEvents first, the metadata after it (pre-2025;
                    pretty)
  oneline.json.gz, meta_last.json.gz
  pyfunc.json       every third cpu_op event's cat made python_function

    kineto_variants.py TRACE OUTDIR
"""
import gzip
import json
import os
import sys


class Raw:
    """A number as written in the file."""
    __slots__ = ("s",)

    def __init__(self, s):
        self.s = s


class Obj(list):
    """An object's (key, value) pairs in file order, duplicates kept."""


def dump(v, out, indent, ascii_only, level=0):
    nl = "\n" + " " * (indent * (level + 1)) if indent else ""
    end = "\n" + " " * (indent * level) if indent else ""
    sep = ": " if indent else ":"
    if isinstance(v, Raw):
        out.append(v.s)
    elif isinstance(v, str):
        out.append(json.dumps(v, ensure_ascii=ascii_only))
    elif v is True or v is False or v is None:
        out.append(json.dumps(v))
    elif isinstance(v, Obj):
        if not v:
            out.append("{}")
            return
        out.append("{")
        for i, (k, x) in enumerate(v):
            out.append(("," if i else "") + nl + json.dumps(k, ensure_ascii=ascii_only) + sep)
            dump(x, out, indent, ascii_only, level + 1)
        out.append(end + "}")
    else:
        if not v:
            out.append("[]")
            return
        out.append("[")
        for i, x in enumerate(v):
            out.append(("," if i else "") + nl)
            dump(x, out, indent, ascii_only, level + 1)
        out.append(end + "]")


def members(doc, indent=0, ascii_only=False):
    """Each top-level member serialized once: (key, its text)."""
    out = []
    for k, v in doc:
        o = []
        dump(v, o, indent, ascii_only, 1 if indent else 0)
        sep = ": " if indent else ":"
        out.append((k, json.dumps(k, ensure_ascii=ascii_only) + sep + "".join(o)))
    return out


def join(ms, indent, order=None):
    """The object of members ms, traceEvents first (order 1), last (0) or
    where it was (None)."""
    if order is not None:
        ev = [m for m in ms if m[0] == "traceEvents"]
        rest = [m for m in ms if m[0] != "traceEvents"]
        ms = ev + rest if order else rest + ev
    if indent:
        body = "{\n" + ",\n".join(" " * indent + t for _, t in ms) + "\n}\n"
    else:
        body = "{" + ",".join(t for _, t in ms) + "}"
    return body.encode("utf-8", "surrogatepass")


def pyfunc(oneline):
    """Every third cpu_op's cat made python_function."""
    parts = oneline.split(b'"cat":"cpu_op"')
    out = [parts[0]]
    for i, p in enumerate(parts[1:], 1):
        out.append(b'"cat":"python_function"' if i % 3 == 0 else b'"cat":"cpu_op"')
        out.append(p)
    return b"".join(out)


def main(src, outdir):
    raw = open(src, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw, object_pairs_hook=Obj, parse_float=Raw, parse_int=Raw)
    os.makedirs(outdir, exist_ok=True)
    compact, pretty = members(doc), members(doc, 2, True)
    files = {
        "plain.json": raw,
        "oneline.json": join(compact, 0),
        "pretty.json": join(pretty, 2),
        "meta_first.json": join(compact, 0, 0),
        "meta_last.json": join(pretty, 2, 1),
    }
    files["oneline.json.gz"] = gzip.compress(files["oneline.json"], 1)
    files["meta_last.json.gz"] = gzip.compress(files["meta_last.json"], 1)
    files["pyfunc.json"] = pyfunc(files["oneline.json"])
    for name, b in files.items():
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
