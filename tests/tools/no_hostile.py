#!/usr/bin/env python3
"""no_hostile.py FILE WHAT: exits 1, naming what it found, when FILE holds
a byte sequence that must never reach a terminal from data: ESC, another
C0 control but TAB/LF, DEL, a C1 control (U+0080..U+009F), a bidi
embedding/override/isolate, a zero-width character, a BOM, LS/PS."""
import re
import sys

BAD = re.compile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u061c\u180e\u200b-\u200f"
                 "\u2028-\u202e\u2060-\u2069\ufeff]")


def main():
    text = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
    found = sorted({"U+%04X" % ord(c) for c in BAD.findall(text)})
    if found:
        print("FAIL: %s carries %s" % (sys.argv[2], ", ".join(found)))
        sys.exit(1)


if __name__ == "__main__":
    main()
