#!/usr/bin/env python3
"""kineto_dump: the reference reading of a Kineto trace, for the
differential test of io/decode/kineto_decode (tests/tools/kineto_cdump.c
prints the same canonical form from the C decoder).

Written independently of the C code with python3's json module, from the
field rules stated in io/decode/kineto_decode.h: one line per event given
("E ..."), then the metadata ("M ..."), then "S 0".

    kineto_dump.py [--keep-python 0|1] FILE     (.json or .json.gz)
"""
import decimal
import gzip
import json
import re
import sys
from decimal import Decimal

decimal.getcontext().prec = 10000
decimal.getcontext().Emax = 10 ** 9
decimal.getcontext().Emin = -10 ** 9

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
CATS = ["OTHER", "CPU_OP", "USER_ANNOTATION", "GPU_USER_ANNOTATION",
        "PYTHON_FUNCTION", "CUDA_RUNTIME", "CUDA_DRIVER", "KERNEL",
        "GPU_MEMCPY", "GPU_MEMSET", "CUDA_SYNC", "OVERHEAD", "TRACE", "FLOW",
        "MEMORY", "OOM"]
CAT_OF = {
    "cpu_op": "CPU_OP", "Operator": "CPU_OP",
    "user_annotation": "USER_ANNOTATION",
    "gpu_user_annotation": "GPU_USER_ANNOTATION",
    "python_function": "PYTHON_FUNCTION",
    "cuda_runtime": "CUDA_RUNTIME", "Runtime": "CUDA_RUNTIME",
    "cuda_driver": "CUDA_DRIVER",
    "kernel": "KERNEL", "Kernel": "KERNEL",
    "gpu_memcpy": "GPU_MEMCPY", "Memcpy": "GPU_MEMCPY",
    "gpu_memset": "GPU_MEMSET", "Memset": "GPU_MEMSET",
    "cuda_sync": "CUDA_SYNC", "overhead": "OVERHEAD", "Trace": "TRACE",
    "ac2g": "FLOW", "fwdbwd": "FLOW", "async": "FLOW", "async_cpu_to_gpu": "FLOW",
}


def is_num(v):
    return not isinstance(v, bool) and isinstance(v, (int, Decimal))


def integral(v):
    """v as a Python int when it is an integral JSON number, else None."""
    if not is_num(v):
        return None
    if isinstance(v, int):
        return v
    if not v.is_finite() or v != v.to_integral_value():
        return None
    return int(v)


def rule_id(v):
    x = integral(v)
    if x is None:
        return None
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >= 1 << 63 else x


def rule_val(v):
    x = integral(v)
    return x if x is not None and I64_MIN <= x <= I64_MAX else None


def rule_ns(v):
    if not is_num(v):
        return None
    x = int((Decimal(v) * 1000).to_integral_value(rounding=decimal.ROUND_HALF_UP))
    return x if I64_MIN <= x <= I64_MAX else None


def text(s):
    """A str as the UTF-8 bytes the C decoder writes (lone surrogates:
    U+FFFD)."""
    return re.sub("[\ud800-\udfff]", "\ufffd", s).encode("utf-8")


def esc(b):
    return '"' + "".join(chr(c) if 0x20 <= c < 0x7f and c not in (0x22, 0x5c)
                         else "\\x%02x" % c for c in b) + '"'


def cut(b, cap):
    """Bytes as the C side keeps them in a cap-byte buffer (NUL incl.)."""
    if len(b) <= cap - 1:
        return b
    b = b[:cap - 1]
    j = len(b)
    while j > 0 and b[j - 1] & 0xC0 == 0x80:
        j -= 1
    if j > 0 and b[j - 1] >= 0xC0:
        lead = b[j - 1]
        need = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        if len(b) - (j - 1) < need:
            b = b[:j - 1]
    return b


def num(x):
    return "-" if x is None else str(x)


def sval(v):
    return esc(text(v)) if isinstance(v, str) else "-"


def idval(v):
    if isinstance(v, str):
        return "s" + esc(text(v))
    return num(rule_id(v))


def step_of(name):
    m = re.fullmatch(r"ProfilerStep#([0-9]+)", name) if isinstance(name, str) else None
    if not m or len(m.group(1)) > 19:
        return -1
    v = int(m.group(1))
    return v if v <= I64_MAX else -1


def category(e, ph):
    cat, name = e.get("cat"), e.get("name")
    if cat == "python_function":
        return "PYTHON_FUNCTION"
    if name == "[memory]":
        return "MEMORY"
    if name == "[OutOfMemory]":
        return "OOM"
    if ph in ("s", "f", "t"):
        return "FLOW"
    return CAT_OF.get(cat, "OTHER") if isinstance(cat, str) else "OTHER"


def event_line(e, ph):
    a = e.get("args") if isinstance(e.get("args"), dict) else {}
    flow = ph in ("s", "f", "t")
    dur = None
    if ph == "X":
        dur = rule_ns(e.get("dur"))
        dur = 0 if dur is None or dur < 0 else dur
    corr = rule_id(e.get("id")) if flow else rule_id(a.get("correlation"))
    mem = ",".join(num(rule_val(a.get(k))) for k in
                   ("Bytes", "Total Allocated", "Total Reserved", "Device Id"))
    return ("E %s %s ts=%s dur=%s pid=%s tid=%s corr=%s ext=%s dev=%s stream=%s "
            "step=%d mem=%s msg=%s wait=%s,%s coll=%s aname=%s name=%s" % (
                ph, category(e, ph), num(rule_ns(e.get("ts"))), num(dur),
                idval(e.get("pid")), idval(e.get("tid")), num(corr),
                num(rule_id(a.get("External id"))), num(rule_id(a.get("device"))),
                num(rule_id(a.get("stream"))), step_of(e.get("name")), mem,
                num(rule_val(a.get("bytes"))), num(rule_id(a.get("wait_on_stream"))),
                num(rule_id(a.get("wait_on_cuda_event_record_corr_id"))),
                sval(a.get("Collective name")),
                sval(a.get("name")), sval(e.get("name")) if isinstance(e.get("name"), str)
                else '""'))


def main():
    args = sys.argv[1:]
    keep = 1
    if len(args) == 3 and args[0] == "--keep-python":
        keep = int(args[1])
        args = args[2:]
    raw = open(args[0], "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    doc = json.loads(raw, parse_float=Decimal)
    out = []
    events = bad = 0
    max_ts = None
    evs = doc.get("traceEvents")
    for e in evs if isinstance(evs, list) else []:
        events += 1
        if not isinstance(e, dict):
            bad += 1
            continue
        if e.get("cat") == "python_function" and not keep:
            continue
        ph = e.get("ph")
        if not (isinstance(ph, str) and len(ph) == 1 and 0x20 < ord(ph) < 0x7f):
            bad += 1
            continue
        ts = rule_ns(e.get("ts"))
        if ts is not None and (max_ts is None or ts > max_ts):
            max_ts = ts
        out.append(event_line(e, ph))
    schema = rule_val(doc.get("schemaVersion"))
    base = rule_val(doc.get("baseTimeNanoseconds"))
    dist = doc.get("distributedInfo")
    isdist = isinstance(dist, dict)
    dist = dist if isdist else {}
    rank, world = rule_val(dist.get("rank")), rule_val(dist.get("world_size"))
    backend = dist.get("backend")
    host = doc.get("host_name")
    devs = doc.get("deviceProperties")
    devs = devs if isinstance(devs, list) else []
    mems = []
    for dv in devs[:64]:
        m = rule_val(dv.get("totalGlobalMem")) if isinstance(dv, dict) else None
        mems.append(-1 if m is None else m)
    kkeys = any(k in doc for k in ("schemaVersion", "deviceProperties", "distributedInfo"))
    out.append("M schema=%s base=%s ts_epoch=%d dist=%d rank=%d world=%d backend=%s "
               "host=%s devices=%d mem=%s events=%d bad=%d trace_events=%d "
               "kineto_keys=%d" % (
                   num(schema), num(base),
                   1 if base is None and max_ts is not None and max_ts > 10 ** 18 else 0,
                   isdist, -1 if rank is None else rank, -1 if world is None else world,
                   esc(cut(text(backend), 64)) if isinstance(backend, str) else '""',
                   esc(cut(text(host), 256)) if isinstance(host, str) else '""',
                   len(mems), ",".join(str(m) for m in mems), events, bad,
                   isinstance(evs, list), kkeys))
    out.append("S 0")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
