#!/usr/bin/env python3
"""hostile_names.py JOB: rewrites a synthetic job (smtop synth) in place
so that the strings the report and dashboard show carry what must never
reach a terminal as is. Node algo-1 is renamed (its file names and
NodeId), and the phase "Forward" and the network device "eth0" too, to strings with an ESC sequence,
an OSC 52 clipboard write, C1 controls (U+0085, U+009B CSI), bidi
overrides and isolates (U+202E, U+2066), zero-width characters (U+200B,
U+2060) and a BOM (U+FEFF). The files stay well-formed JSON written as
smdebug's writer would (JSON escapes); S3 keys may hold these bytes."""
import json
import os
import sys

NODE = "algo\u202e1-\u2066x\u200b\u2060\ufeff\u0085\x1b[2J\x1b]52;c;cHduZWQ=\x07"
PHASE = "For\u202eward\u2069\u200d\u009b31m\x1b]0;owned\x07\u200e"
NET = "eth\ufeff0\u2067\u0085\u202d\x1b]52;c;Y2xpcA==\x1b\\"


def esc(s):
    return json.dumps(s)[1:-1]


def main():
    job = sys.argv[1]
    for root, _, files in os.walk(job):
        for name in files:
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            text = text.replace('"NodeId":"algo-1"', '"NodeId":"%s"' % esc(NODE))
            text = text.replace('{"name": "Forward"}', '{"name": "%s"}' % esc(PHASE))
            text = text.replace('"Name":"eth0"', '"Name":"%s"' % esc(NET))
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            if "algo-1" in name:
                os.rename(path, os.path.join(root, name.replace("algo-1", NODE)))


if __name__ == "__main__":
    main()
