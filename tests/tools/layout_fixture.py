#!/usr/bin/env python3
"""Adds to a synthetic job the files real smdebug jobs hold beside the
ones `smtop synth` writes, for the tests of what smtop reads or names:

  layout_fixture.py tf JOB        TF detailed-profiling traces: step 5 with
                                  smdebug's .metadata record in its step
                                  directory (writer 3-algo-2, the trace named
                                  by the machine's host name), step 7 with no
                                  record; prints the facts as JSON
  layout_fixture.py unread JOB    files a reader must name: unknown names,
                                  TensorBoard's other profile files, a
                                  pyinstrument HTML view, a corrupt TF trace

JOB is the profiler-output directory.
"""
import glob
import gzip
import json
import os
import sys

HOST = "ip-10-0-209-63.ec2.internal"
DATE = "2020_06_09_23_55_01"


def hour(job):
    return sorted(os.listdir(os.path.join(job, "framework/pevents")))[0]


def step_start(job, node, step):
    """Start of TRAIN step `step` on node from the job's own traces."""
    for f in sorted(glob.glob(f"{job}/framework/pevents/*/*{node}_pythontimeline.json")):
        base, names = 0, {}
        for line in open(f):
            line = line.strip().rstrip(",")
            if line in ("[", "]", ""):
                continue
            e = json.loads(line)
            args = e.get("args", {})
            if e.get("ph") == "M" and "start_time_since_epoch_in_micros" in args:
                base = args["start_time_since_epoch_in_micros"]
            elif e.get("ph") == "M" and e.get("name") == "process_name":
                names[e["pid"]] = args.get("name")
            elif names.get(e.get("pid")) == "Step:ModeKeys.TRAIN" and \
                    str(args.get("step_num")) == str(step):
                return base + e["ts"]
    raise SystemExit(f"no TRAIN step {step} on {node}")


def step_dir(job, step):
    return f"{job}/framework/tensorflow/detailed_profiling/{hour(job)}/{step:09d}"


def tf_trace(job, step, host, events):
    d = f"{step_dir(job, step)}/plugins/profile/{DATE}"
    os.makedirs(d, exist_ok=True)
    doc = {"displayTimeUnit": "ns", "metadata": {"highres-ticks": True},
           "traceEvents": [{"ph": "M", "pid": 1, "name": "process_name",
                            "args": {"name": "/host:CPU"}}] + events + [{}]}
    path = f"{d}/{host}.trace.json.gz"
    with gzip.open(path, "wt") as g:
        json.dump(doc, g)
    return path


def make_tf(job):
    start = step_start(job, "algo-2", 5)
    tf_trace(job, 5, HOST, [{"ph": "X", "pid": 1, "tid": 3, "ts": 250, "dur": 40,
                             "name": "TfPlaced"}])
    open(f"{step_dir(job, 5)}/3-algo-2_{start}.5_{start + 900000}.5.metadata", "w").close()
    unplaced = tf_trace(job, 7, HOST, [{"ph": "X", "pid": 1, "tid": 3, "ts": 1, "dur": 1,
                                        "name": "TfUnplaced"}])
    print(json.dumps({"placed_start": start + 250, "unplaced": os.path.relpath(unplaced, job),
                      "step7_dir": os.path.relpath(step_dir(job, 7), job) + "/"}))


def make_unread(job):
    h = hour(job)
    files = {
        f"system/incremental/{h}/notes.txt": b"x",
        f"framework/pevents/{h}/1591748100000000_1-algo-1_unknown_timeline.json": b"[\n",
        f"framework/tensorflow/detailed_profiling/{h}/000000005/plugins/profile/{DATE}/"
        f"{HOST}.xplane.pb": b"\x00pb",
        f"framework/tensorflow/detailed_profiling/{h}/000000005/plugins/profile/{DATE}/"
        f"{HOST}-b.trace.json.gz": b"\x1f\x8b\x08\x00not gzip at all",
    }
    sd = sorted(glob.glob(f"{job}/framework/pytorch/pyinstrument/algo-1/*"))
    if sd:
        files[os.path.relpath(sd[0], job) + "/python_stats.html"] = b"<html></html>"
    for rel, data in files.items():
        os.makedirs(os.path.dirname(f"{job}/{rel}"), exist_ok=True)
        with open(f"{job}/{rel}", "wb") as f:
            f.write(data)
    print(json.dumps(sorted(files)))


if __name__ == "__main__":
    {"tf": make_tf, "unread": make_unread}[sys.argv[1]](sys.argv[2])
