"""The AWS query protocol both ways, driven by a botocore shape.

parse(): the form a client sent ("MetricDataQueries.member.1.Id=a") into
the parameters botocore's QuerySerializer would have made them from, so
that ParamValidator can judge them; unknown names are errors.
response_xml(): an answer dict as the XML the service writes
(<OpResponse><OpResult>...</OpResult><ResponseMetadata/>).
"""
import datetime as dt
from xml.sax.saxutils import escape


def esc(s):
    return escape(str(s))


def _tree(flat):
    root = {}
    for key, value in flat.items():
        node = root
        parts = key.split(".")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
            if not isinstance(node, dict):
                raise ValueError("parameter %s clashes with a scalar" % key)
        if parts[-1] in node:
            raise ValueError("parameter %s given twice" % key)
        node[parts[-1]] = value
    return root


def _scalar(shape, value, where):
    t = shape.type_name
    if t in ("integer", "long"):
        try:
            return int(value)
        except ValueError:
            raise ValueError("%s: %r is not an integer" % (where, value))
    if t in ("double", "float"):
        return float(value)
    if t == "boolean":
        if value not in ("true", "false"):
            raise ValueError("%s: %r is not a boolean" % (where, value))
        return value == "true"
    if t == "timestamp":
        try:
            return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError("%s: %r is not an ISO 8601 time" % (where, value))
    return value


def _convert(shape, node, where):
    t = shape.type_name
    if t == "structure":
        if not isinstance(node, dict):
            raise ValueError("%s must be a structure" % where)
        names = {m.serialization.get("name", n): n for n, m in shape.members.items()}
        out = {}
        for k, v in node.items():
            if k not in names:
                raise ValueError("%s: unknown parameter %s" % (where, k))
            out[names[k]] = _convert(shape.members[names[k]], v, where + "." + k)
        return out
    if t == "list":
        if node == "":
            return []
        item = shape.member.serialization.get("name", "member")
        if not isinstance(node, dict) or set(node) != {item}:
            raise ValueError("%s must be a list (%s.N)" % (where, item))
        idx = node[item]
        keys = sorted(idx, key=lambda s: int(s) if s.isdigit() else -1)
        if [int(k) for k in keys if k.isdigit()] != list(range(1, len(keys) + 1)):
            raise ValueError("%s: list indexes must run 1..N" % where)
        return [_convert(shape.member, idx[k], "%s.%s.%s" % (where, item, k)) for k in keys]
    if t == "map":
        raise ValueError("%s: maps are not used by smtop's calls" % where)
    if isinstance(node, dict):
        raise ValueError("%s must be a scalar" % where)
    return _scalar(shape, node, where)


def parse(shape, flat):
    return _convert(shape, _tree(flat), shape.name)


def _xml(shape, value):
    t = shape.type_name
    if t == "structure":
        parts = []
        for name, m in shape.members.items():
            if name in value and value[name] is not None:
                tag = m.serialization.get("name", name)
                parts.append("<%s>%s</%s>" % (tag, _xml(m, value[name]), tag))
        return "".join(parts)
    if t == "list":
        tag = shape.member.serialization.get("name", "member")
        return "".join("<%s>%s</%s>" % (tag, _xml(shape.member, v), tag) for v in value)
    if t == "timestamp":
        if isinstance(value, (int, float)):
            value = dt.datetime.fromtimestamp(value, dt.timezone.utc)
        return value.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if t == "boolean":
        return "true" if value else "false"
    return esc(value)


def response_xml(op, shape, value):
    wrap = shape.serialization.get("resultWrapper", op + "Result")
    return ("<%sResponse xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\">"
            "<%s>%s</%s><ResponseMetadata><RequestId>00000000-0000-0000-0000-000000000000"
            "</RequestId></ResponseMetadata></%sResponse>"
            % (op, wrap, _xml(shape, value), wrap, op))
