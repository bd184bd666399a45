#!/usr/bin/env python3
"""Writes a small SageMaker job directory that exercises one profiler rule.

    make_rule_scenario.py OUT SCENARIO [--profiler-report]
    make_rule_scenario.py DIR --all      (DIR/<scenario> for every scenario)

OUT/profiler-output/ gets system metrics in the real incremental format
(system/incremental/<YYYYMMDDHH>/<epoch10>.algo-1.json, one JSON line per
metric and tick, 500 ms sampling) and, where the scenario needs steps, a
Chrome-trace pythontimeline file under framework/pevents/<YYYYMMDDHH>/.
--profiler-report also writes SageMaker's own verdicts under
OUT/rule-output/ProfilerReport-<id>/profiler-output/profiler-reports/.
Each SCENARIO has a "_fire" variant that must trigger its rule and a
"_near" variant just on the safe side of the default threshold.
"""
import json
import os
import sys
import time

T0 = 1699999980          # a whole minute, epoch seconds
DT = 0.5                 # sampling interval, seconds


def const(v):
    return lambda k: v


def after(k0, a, b):
    """a before tick k0 (inside the rules' patience of 1000), b from it on."""
    return lambda k: a if k < k0 else b


# name -> (ticks, cpus, [gpu util fn per GPU], [gpu mem fn per GPU], cpu fn,
#          io-wait fn or None, steps spec or None)
SCEN = {
    'cpu_fire': (1200, 4, [after(1000, 80, 5)], [const(40)], after(1000, 40, 95), None, None),
    'cpu_near': (1200, 4, [after(1000, 80, 15)], [const(40)], after(1000, 40, 95), None, None),
    'io_fire': (1200, 4, [after(1000, 80, 5)], [const(40)], const(30), after(1000, 2, 70), None),
    'io_near': (1200, 4, [after(1000, 80, 5)], [const(40)], const(30), after(1000, 2, 45), None),
    'lowgpu_fire': (1600, 2, [const(30)], [const(50)], const(50), None, None),
    'lowgpu_near': (1600, 2, [const(75)], [const(50)], const(50), None, None),
    'batch_fire': (1600, 2, [const(20)], [const(20)], const(20), None, None),
    'batch_near': (1600, 2, [const(20)], [const(75)], const(20), None, None),
    'gpumem_fire': (1300, 2, [const(80)], [lambda k: 20 + max(0, k - 1000) * 0.05], const(50), None, None),
    'gpumem_near': (1300, 2, [const(80)], [lambda k: 20 + max(0, k - 1000) * 0.01], const(50), None, None),
    'balance_fire': (1300, 2, [const(90), const(30)], [const(50), const(50)], const(50), None, None),
    # similar spread, offset by 2 points: real utilization is never constant
    'balance_near': (1300, 2, [lambda k: 70 + (k * 7) % 25, lambda k: 72 + (k * 7) % 25],
                     [const(50), const(50)], const(50), None, None),
    'steps_fire': (240, 8, [const(80)], [const(50)], const(50), None, {'slow': 12, 'loaders': 2, 'first_min': 0}),
    'steps_near': (240, 8, [const(80)], [const(50)], const(50), None, {'slow': 9, 'loaders': 8, 'first_min': 0}),
    'init_fire': (240, 2, [const(80)], [const(50)], const(50), None, {'slow': 0, 'loaders': 1, 'first_min': 25}),
    'init_near': (240, 2, [const(80)], [const(50)], const(50), None, {'slow': 0, 'loaders': 1, 'first_min': 15}),
}


def hour_dir(ts):
    return time.strftime('%Y%m%d%H', time.gmtime(ts))


def write_system(root, ticks, cpus, gutil, gmem, cpu, iow):
    files = {}
    for k in range(ticks):
        ts = T0 + k * DT
        minute = int(ts // 60 * 60)
        lines = files.setdefault(minute, [])
        stamp = round(ts + 0.0123, 4)     # real files carry sub-second jitter
        for c in range(cpus):
            lines.append({"Type": "cpu", "Name": "cpu%d" % c, "Dimension": "CPUUtilization",
                          "Value": cpu(k), "NodeId": "algo-1", "Timestamp": stamp})
        for g, fn in enumerate(gutil):
            lines.append({"Type": "gpu", "Name": "gpu%d" % g, "Dimension": "GPUUtilization",
                          "Value": fn(k), "NodeId": "algo-1", "Timestamp": stamp})
        for g, fn in enumerate(gmem):
            lines.append({"Type": "gpu", "Name": "gpu%d" % g, "Dimension": "GPUMemoryUtilization",
                          "Value": round(fn(k), 4), "NodeId": "algo-1", "Timestamp": stamp})
        if iow:
            lines.append({"Type": "i/o", "Name": "nvme0n1", "Dimension": "IOWaitPercentage",
                          "Value": iow(k), "NodeId": "algo-1", "Timestamp": stamp})
    for minute, lines in files.items():
        d = os.path.join(root, 'system', 'incremental', hour_dir(minute))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, '%d.algo-1.json' % minute), 'w') as f:
            for line in lines:
                f.write(json.dumps(line) + '\n')


def write_trace(root, spec):
    """200 TRAIN steps of 100 ms (`slow` of them 1 s) from first_min minutes
    after T0, and `loaders` data-loader workers fetching side by side."""
    start = int(T0 * 1e6)
    t = start + spec['first_min'] * 60 * 1000000
    events = []
    for s in range(200):
        dur = 1000000 if (s % 10 == 5 and s // 10 < spec['slow']) else 100000
        events.append({"name": "Step:ModeKeys.TRAIN", "pid": 1, "tid": 1, "ph": "X",
                       "ts": t - start, "dur": dur, "args": {"step_num": str(s)}})
        for w in range(spec['loaders'] if s < 20 else 0):
            events.append({"name": "DataLoaderIter::GetNext", "pid": 2, "tid": 10 + w,
                           "ph": "X", "ts": t - start + w * 100, "dur": 50000,
                           "args": {"step_num": s}})
        t += dur + 1000
    end_us = max(start + e["ts"] + e["dur"] for e in events)
    d = os.path.join(root, 'framework', 'pevents', hour_dir(end_us / 1e6))
    os.makedirs(d, exist_ok=True)
    meta = [{"name": "process_name", "ph": "M", "pid": 0,
             "args": {"start_time_since_epoch_in_micros": start}},
            {"name": "process_name", "ph": "M", "pid": 1, "args": {"name": "Step:ModeKeys.TRAIN"}},
            {"name": "process_name", "ph": "M", "pid": 2, "args": {"name": "DataIterator"}}]
    with open(os.path.join(d, '%d_1234-algo-1_pythontimeline.json' % end_us), 'w') as f:
        f.write('[\n' + ',\n'.join(json.dumps(e) for e in meta + events) + '\n]\n')


def write_profiler_report(out):
    d = os.path.join(out, 'rule-output', 'ProfilerReport-1700000123', 'profiler-output',
                     'profiler-reports')
    os.makedirs(d, exist_ok=True)
    verdicts = {
        'CPUBottleneck': {"RuleTriggered": 4, "Violations": 180, "Datapoints": 200,
                          "RuleParameters": "threshold:50\ncpu_threshold:90\ngpu_threshold:10\npatience:1000",
                          "Details": {"low_gpu_utilization": {"algo-1": 180}}},
        'LowGPUUtilization': {"RuleTriggered": 0, "Violations": 0, "Datapoints": 3,
                              "RuleParameters": "threshold_p95:70\nthreshold_p5:10\nwindow:500\npatience:1000",
                              "Details": {}},
    }
    for name, v in verdicts.items():
        v = dict(v, Description="written by make_rule_scenario.py")
        with open(os.path.join(d, name + '.json'), 'w') as f:
            json.dump(v, f)
    with open(os.path.join(d, 'Broken.json'), 'w') as f:
        f.write('{"RuleTriggered": ')
    with open(os.path.join(d, '..', 'profiler-report.html'), 'w') as f:
        f.write('<html></html>\n')


def write_job(out, name, profiler_report):
    ticks, cpus, gutil, gmem, cpu, iow, steps = SCEN[name]
    root = os.path.join(out, 'profiler-output')
    write_system(root, ticks, cpus, gutil, gmem, cpu, iow)
    if steps:
        write_trace(root, steps)
    if profiler_report:
        write_profiler_report(out)


def main(argv):
    if len(argv) == 3 and argv[2] == '--all':
        for name in SCEN:
            write_job(os.path.join(argv[1], name), name, False)
        return 0
    if len(argv) < 3 or argv[2] not in SCEN:
        sys.stderr.write('usage: make_rule_scenario.py OUT SCENARIO [--profiler-report]\n'
                         'scenarios: %s\n' % ' '.join(sorted(SCEN)))
        return 2
    write_job(argv[1], argv[2], '--profiler-report' in argv[3:])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
