#!/usr/bin/env python3
"""Trace fixtures for the time-window, split-pair and rank tests, and an
independent reading of them.

  timeline_fixture.py horovod DIR
      smdebug's horovod resource file, rebuilt: one closed
      framework/pevents/2020070206/1593673051473228_88359-8c859046be41.
      ant.amazon.com_horovod_timeline.json of nested B/E events (E's without
      a name, as Horovod writes them). 15 of them overlap the window
      [1593673051473000, 1593673051473228] — none starts inside it.
  timeline_fixture.py split DIR [--without-last | --only-last]
      Two ranks of algo-1 (pythontimeline) and one writer of algo-2
      (horovod): a TRAIN step whose B and E sit in two files of rank 0
      (the second named by a 19-digit epoch-ns end time), and two nested
      Horovod B's that close two files later. --without-last leaves out the
      file holding the split step's E; --only-last writes just that file.
  timeline_fixture.py facts DIR
      Times the tests need (JSON).
  timeline_fixture.py ref DIR SINCE_US UNTIL_US
      Counts per "node|label" and "writer|label" of the events that
      overlap [SINCE, UNTIL) (0 = unbounded): end >= since and
      start < until. B/E pairs are matched per (writer, kind, pid, tid)
      with one stack over the writer's files in end-time order, as one
      concatenated file would be. Label: the pid's process_name.
"""
import collections
import glob
import json
import os
import sys

from trace_names import node_of, split_trace_name



def meta(base, names):
    out = [{"name": "process_name", "ph": "M", "pid": 0,
            "args": {"start_time_since_epoch_in_micros": base}}]
    for pid, n in names.items():
        out.append({"name": "process_name", "ph": "M", "pid": pid, "args": {"name": n}})
    return out


def write(path, events):
    """One event per line between '[' and ']', as smdebug's writer closes a file."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".part"
    with open(tmp, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(e) for e in events) + "\n]\n")
    os.rename(tmp, path)   # a scanner never sees half a file


# ---- horovod: smdebug's tests/profiler/resources/horovod_timeline_traces --

HVD_BASE = 1593673051000000
HVD_SINCE, HVD_UNTIL = 1593673051473000, 1593673051473228


def horovod(out):
    names = {pid: "HorovodAllreduce_grads_%d" % (pid - 1) for pid in range(1, 6)}
    ev = meta(HVD_BASE, names)
    r = HVD_BASE
    for pid in range(1, 6):
        k = pid - 1
        ev += [
            {"name": "NEGOTIATE_ALLREDUCE", "ph": "B", "pid": pid, "ts": 100000 + k},
            {"ph": "E", "pid": pid, "ts": 300000 + k},                  # before the window
            {"name": "ALLREDUCE", "ph": "B", "pid": pid, "ts": 400000 + k},
            {"name": "MEMCPY_IN_FUSION_BUFFER", "ph": "B", "pid": pid, "ts": 410000},
            {"name": "NCCL_ALLREDUCE", "ph": "B", "pid": pid, "ts": 420000},
            {"ph": "E", "pid": pid, "ts": HVD_SINCE - r - 1},          # ends 1 µs before since
            {"name": "WAIT_FOR_OTHER_TENSOR_DATA", "ph": "B", "pid": pid, "ts": HVD_SINCE - r - 1},
            {"ph": "E", "pid": pid, "ts": HVD_SINCE - r},              # ends exactly at since
            {"ph": "E", "pid": pid, "ts": HVD_SINCE - r + 100},
            {"ph": "E", "pid": pid, "ts": HVD_UNTIL - r - 10 * k},      # last: k = 0 at until
        ]
    write(os.path.join(out, "framework/pevents/2020070206",
                       "%d_88359-8c859046be41.ant.amazon.com_horovod_timeline.json" % HVD_UNTIL),
          ev)


# ---- split: B/E across a writer's files, ns file names, ranks -------------

BASE = 1600000000000000          # 2020-09-13T12:26:40Z
HOUR = "2020091312"
TRAIN = "Step:ModeKeys.TRAIN"
STEP0 = BASE + 1000000
LONG_US = 5000000                # the split step: the longest by far


def step_start(k):
    return STEP0 + k * 110000 + (LONG_US if k > 15 else 0)


def rank0_files():
    """Rank 0 of algo-1: steps 0-14, the B of step 15 | its E, steps 16-29."""
    names = {1: TRAIN, 2: "Forward"}
    a, b = meta(BASE, names), meta(BASE, names)
    for k in range(30):
        t = step_start(k) - BASE
        fwd = {"name": "fwd", "ph": "X", "pid": 2, "ts": t + 10000, "dur": 30000,
               "args": {"step_num": k}}
        if k < 15:
            a += [fwd, {"name": TRAIN, "ph": "X", "pid": 1, "ts": t, "dur": 100000,
                        "args": {"step_num": str(k)}}]
        elif k == 15:
            a += [{"name": TRAIN, "ph": "B", "pid": 1, "tid": 3, "ts": t,
                   "args": {"step_num": "15"}}, fwd]
            b += [{"ph": "E", "pid": 1, "tid": 3, "ts": t + LONG_US}]
        else:
            b += [fwd, {"name": TRAIN, "ph": "X", "pid": 1, "ts": t, "dur": 100000,
                        "args": {"step_num": str(k)}}]
    end_a = step_start(15) + 40000            # its last complete event: step 15's fwd
    end_b = step_start(29) + 100000
    pe = "framework/pevents/" + HOUR
    return [(os.path.join(pe, "%d_0-algo-1_pythontimeline.json" % end_a), a),
            # epoch ns, 19 digits, as some writers name files
            (os.path.join(pe, "%d_0-algo-1_pythontimeline.json" % (end_b * 1000 + 417)), b)]


def rank1_file():
    ev = meta(BASE + 5, {1: TRAIN})
    for k in range(30):
        ev.append({"name": TRAIN, "ph": "X", "pid": 1, "ts": step_start(k) - BASE - 5 + 2000,
                   "dur": 120000, "args": {"step_num": k}})
    end = step_start(29) + 2000 + 120000
    return [("framework/pevents/%s/%d_1-algo-1_pythontimeline.json" % (HOUR, end), ev)]


def horovod_files():
    """7-algo-2: two nested B's open at the end of file 1, nothing of them
    in file 2, both closed in file 3 (a long allreduce over two rotations)."""
    names = {1: "HorovodAllreduce_fc1", 2: "HorovodBroadcast_w"}
    t0 = STEP0 - BASE
    f1 = meta(BASE, names) + [
        {"name": "BROADCAST", "ph": "X", "pid": 2, "ts": t0, "dur": 500},
        {"name": "ALLREDUCE", "ph": "B", "pid": 1, "ts": t0 + 1000},
        {"name": "NCCL_ALLREDUCE", "ph": "B", "pid": 1, "ts": t0 + 1500}]
    f2 = meta(BASE, names) + [{"name": "BROADCAST", "ph": "X", "pid": 2, "ts": t0 + 2000,
                               "dur": 500}]
    f3 = meta(BASE, names) + [{"ph": "E", "pid": 1, "ts": t0 + 3000000},
                              {"ph": "E", "pid": 1, "ts": t0 + 3000100},
                              {"name": "BROADCAST", "ph": "X", "pid": 2, "ts": t0 + 3000200,
                               "dur": 500}]
    pe = "framework/pevents/" + HOUR + "/%d_7-algo-2_horovod_timeline.json"
    return [(pe % (BASE + t0 + 500), f1), (pe % (BASE + t0 + 2500), f2),
            (pe % (BASE + t0 + 3000700), f3)]


def split(out, mode):
    files = rank0_files() + rank1_file() + horovod_files()
    last = files[1][0]
    for path, ev in files:
        if (mode == "--without-last" and path == last) or (mode == "--only-last" and path != last):
            continue
        write(os.path.join(out, path), ev)


def facts():
    return {"split_step_start": step_start(15), "split_step_end": step_start(15) + LONG_US,
            "step5_end": step_start(5) + 100000, "step25_start": step_start(25),
            "hvd_since": HVD_SINCE, "hvd_until": HVD_UNTIL}


# ---- the independent reading ---------------------------------------------

def events(root):
    files = collections.defaultdict(list)
    for path in glob.glob(os.path.join(root, "framework/pevents/*/*.json")):
        wk = split_trace_name(os.path.basename(path))
        if wk:
            files[(wk[1], wk[2])].append((wk[0], path))
    for (writer, _), fs in files.items():
        stacks = collections.defaultdict(list)
        for _, path in sorted(fs):
            evs = json.load(open(path))
            base, names = 0, {}
            for e in evs:
                if e.get("ph") == "M" and e.get("name") == "process_name":
                    base = e["args"].get("start_time_since_epoch_in_micros", base)
                    if "name" in e["args"]:
                        names[e["pid"]] = e["args"]["name"]
            for e in evs:
                ph, key = e.get("ph"), (e.get("pid"), e.get("tid", 0))
                if ph == "X":
                    yield writer, names.get(e["pid"], ""), base + e["ts"], e.get("dur", 0)
                elif ph == "B":
                    stacks[key].append((base + e["ts"], names.get(e["pid"], "")))
                elif ph == "E" and stacks[key]:
                    start, label = stacks[key].pop()
                    yield writer, label, start, base + e["ts"] - start


def ref(root, since, until):
    out = collections.defaultdict(lambda: {"count": 0, "sum_us": 0, "max_us": 0})
    for writer, label, start, dur in events(root):
        if (since and start + dur < since) or (until and start >= until):
            continue
        for key in (node_of(writer) + "|" + label, writer + "|" + label):
            o = out[key]
            o["count"] += 1
            o["sum_us"] += dur
            o["max_us"] = max(o["max_us"], dur)
    return out


def main():
    cmd = sys.argv[1]
    if cmd == "horovod":
        horovod(sys.argv[2])
    elif cmd == "split":
        split(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
    elif cmd == "facts":
        json.dump(facts(), sys.stdout)
    elif cmd == "ref":
        json.dump(ref(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])), sys.stdout, indent=1)
    else:
        sys.exit("unknown command " + cmd)


main()
