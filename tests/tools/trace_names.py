"""What a framework trace file's name says, read independently of smtop:
framework/pevents/<hour>/<end>_<writer>_<kind>.json, <end> in epoch µs (16
digits) or ns (19); the writer is `<rank or pid>-<host>` and its host the
node (algo-N when it ends with it). Shared by ref_report.py and
timeline_fixture.py."""
import re

KINDS = ("pythontimeline", "model_timeline", "horovod_timeline", "smdataparallel_timeline")


def split_trace_name(fname):
    """(end_us, writer, kind) of a trace file name, or None."""
    for k in KINDS:
        if fname.endswith("_" + k + ".json"):
            end, writer = fname[:-len(k) - 6].split("_", 1)
            if not end.isdigit():
                return None
            return int(end) // (1000 if len(end) == 19 else 1), writer, k
    return None


def node_of(writer):
    m = re.search(r"(?:^|[-_])(algo-\d+)$", writer)
    if m:
        return m.group(1)
    m = re.match(r"\d+-(.+)$", writer)
    return m.group(1) if m else writer
