#!/usr/bin/env bash
# The man page (tui/cmd/smtop.1.scd) and `--help` must not drift apart:
# for the dashboard and every subcommand, the options the man page defines
# (its lines starting with *-, section by section) are exactly the options
# that command's --help lists, both ways; the subcommands in `smtop --help`
# are the man page's `## smtop X` sections and each has a README example.
# Rendering the page is test_man_render.sh.
: "${SMTOP:?}" "${SMTOP_SRC:?}"
source "$(dirname "$0")/it_lib.sh"
set -o pipefail
command -v python3 >/dev/null || { echo "SKIPPED: python3 not found"; exit 77; }
for c in "" report diff export synth jobs help; do
  "$SMTOP" $c --help >"$T/help-${c:-dashboard}.txt" 2>&1 || { echo "FAIL: smtop $c --help"; exit 1; }
done
python3 - "$SMTOP_SRC/tui/cmd/smtop.1.scd" "$T" "$SMTOP_SRC/README.md" <<'PY'
import re, sys
man_src, tmp, readme = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
OPT = re.compile(r"--[a-z0-9][a-z0-9-]*")

# man page: options defined per `## ` section
sections, cur = {}, None
for line in open(man_src):
    if line.startswith("# "):
        cur = None
    elif line.startswith("## "):
        cur = line[3:].strip()
        sections.setdefault(cur, set())
    elif cur and line.startswith("*-"):
        sections[cur].update(OPT.findall(line.split("\t")[0]))
def man(name):
    if name not in sections:
        sys.exit(f"FAIL: man page has no '## {name}' section")
    return sections[name]

# --help: option lines are indented at most 4 spaces
def helpopts(cmd):
    text = open(f"{tmp}/help-{cmd or 'dashboard'}.txt").read()
    return {m.group(2) for m in re.finditer(r"(?m)^ {1,4}(-[a-zA-Z], )?(--[a-z0-9][a-z0-9-]*)", text)}

cmds = re.findall(r"(?m)^ *(?:usage: )?smtop ([a-z][a-z-]*)\b", open(f"{tmp}/help-dashboard.txt").read())
man_cmds = sorted(s[len("smtop "):] for s in sections if s.startswith("smtop "))
fails = 0
if sorted(cmds) != man_cmds:
    print(f"FAIL: subcommands in smtop --help {sorted(cmds)}, man page sections {man_cmds}")
    fails += 1

source = man("Source options")
expect = {"": man("General options") | man("Dashboard") | source}
for c in cmds:
    expect[c] = man("smtop " + c) | {"--help"} | (source if c not in ("synth", "help") else set())
for c, want in expect.items():
    got = helpopts(c)
    name = f"smtop {c} --help".replace("  ", " ")
    for o in sorted(got - want):
        print(f"FAIL: {o} is in `{name}` but not in the man page's section for it")
        fails += 1
    for o in sorted(want - got):
        print(f"FAIL: {o} is in the man page's section for `{name}` but not in that help")
        fails += 1
for short in ("*-h*", "*-V*"):
    if not re.search(r"(?m)^" + re.escape(short), open(man_src).read()):
        print(f"FAIL: man page does not define {short}")
        fails += 1

# README: a user's-guide example of each subcommand
for c in cmds:
    if not re.search(r"(?m)^\s+(\$ )?smtop " + c + r"\b", readme):
        print(f"FAIL: README has no example line of `smtop {c}`")
        fails += 1
n = sum(len(v) for v in expect.values())
print(f"{n} options across {len(expect)} commands checked" if not fails else f"{fails} problems")
sys.exit(1 if fails else 0)
PY
