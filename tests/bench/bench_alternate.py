#!/usr/bin/env python3
"""bench_alternate: `BIN report --json DIR` for several binaries, taking
turns round after round (the order flips every round), so that a shared
machine's slow spells fall on all of them alike. Prints per binary the
median wall and user+sys (from wait4's rusage: microseconds, where
/usr/bin/time gives hundredths) and the minimum wall, each also as a
ratio to the first binary (the baseline). Stops at the first binary
that fails.

    tests/bench/bench_alternate.py ROUNDS DIR BASELINE_BIN BIN...

Not a ctest test: it needs a quiet machine."""
import os
import statistics
import subprocess
import sys
import time


def run(binary, job):
    t0 = time.perf_counter()
    p = subprocess.Popen([binary, "report", "--json", job],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"bench_alternate: {binary} report --json {job} failed ({status})")
    return wall, ru.ru_utime + ru.ru_stime


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    rounds, job, bins = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    res = {b: ([], []) for b in bins}
    load = open("/proc/loadavg").read().split()[:3]
    for r in range(rounds):
        for b in bins if r % 2 == 0 else bins[::-1]:
            wall, cpu = run(b, job)
            res[b][0].append(wall)
            res[b][1].append(cpu)
    base = res[bins[0]]
    bw, bc, bm = statistics.median(base[0]), statistics.median(base[1]), min(base[0])
    print(f"{rounds} rounds on {job}; load before {' '.join(load)}, after "
          f"{' '.join(open('/proc/loadavg').read().split()[:3])}")
    print(f"{'binary':44s} {'wall s':>8s} {'ratio':>6s} {'cpu s':>8s} {'ratio':>6s} "
          f"{'min s':>8s} {'ratio':>6s}")
    for b in bins:
        w, c, m = statistics.median(res[b][0]), statistics.median(res[b][1]), min(res[b][0])
        print(f"{b[-44:]:44s} {w:8.3f} {w / bw:6.3f} {c:8.3f} {c / bc:6.3f} {m:8.3f} {m / bm:6.3f}")


main()
