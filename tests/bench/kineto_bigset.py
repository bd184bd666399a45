#!/usr/bin/env python3
"""kineto_bigset: a large Kineto trace set for bench_kineto.sh, made of
the real samples' own bytes: each output file (one per rank) is one
sample's text with its traceEvents array repeated until the file reaches
its size, every repetition's ts shifted past the previous one, so the
bytes, layout and event mix are a real trace's. Plain JSON; no file is
committed: write under /tmp.

    kineto_bigset.py SAMPLES_KINETO_DIR OUTDIR [TOTAL_MB [FILES]]
"""
import gzip
import json
import os
import re
import sys
from decimal import Decimal

SOURCES = ["nccl_data/nccl_data.json.gz",
           "ns_resolution/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz",
           "df_index_resolver/df_index_resolver.json.gz",
           "trace_diff_control/control.json.gz"]
TS = re.compile(rb'("ts": ?)(-?[0-9]+(?:\.[0-9]+)?)')


def split(text):
    """(head up to and incl. '[' of traceEvents, body, tail from its ']')."""
    start = text.index(b'"traceEvents"')
    lb = text.index(b"[", start)
    s = text.decode("utf-8")   # the samples are ASCII: str and byte offsets agree
    assert len(s) == len(text)
    _, rb = json.JSONDecoder().raw_decode(s, lb)
    rb -= 1                    # at the array's ']'
    return text[:lb + 1], text[lb + 1:rb].rstrip(), text[rb:]


def pieces(body):
    """The body cut at every ts value: texts between, and the values."""
    segs, vals, at = [], [], 0
    for m in TS.finditer(body):
        segs.append(body[at:m.start(2)])
        vals.append(m.group(2))
        at = m.end(2)
    segs.append(body[at:])
    return segs, vals


def shifted(v, off_us):
    if b"." in v:
        ip, fp = v.split(b".")
        ns = int(ip + fp.ljust(3, b"0")[:3]) + off_us * 1000
        return b"%d.%03d" % divmod(ns, 1000)
    return b"%d" % (int(v) + off_us)


def make(src, path, size):
    text = gzip.decompress(open(src, "rb").read())
    head, body, tail = split(text)
    segs, vals = pieces(body)
    ts = [Decimal(v.decode()) for v in vals]
    span = int(max(ts) - min(ts)) + 1000 if ts else 1000
    with open(path, "wb") as f:
        f.write(head)
        written, rep = len(head) + len(tail), 0
        while written < size:
            off = rep * span
            out = [b"," if rep else b""]
            for s, v in zip(segs, vals):
                out.append(s)
                out.append(shifted(v, off))
            out.append(segs[-1])
            blob = b"".join(out)
            f.write(blob)
            written += len(blob)
            rep += 1
        f.write(tail)


def main():
    samples, out = sys.argv[1], sys.argv[2]
    total = int(sys.argv[3]) if len(sys.argv) > 3 else 1024
    files = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    os.makedirs(out, exist_ok=True)
    for r in range(files):
        src = os.path.join(samples, SOURCES[r % len(SOURCES)])
        make(src, os.path.join(out, "rank-%d.1712195496123.pt.trace.json" % r),
             total * (1 << 20) // files)


if __name__ == "__main__":
    main()
