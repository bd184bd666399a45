#!/usr/bin/python3
"""A local SageMaker + CloudWatch API for smtop's tests, built on botocore.

Every request is checked as AWS would: its SigV4 signature is recomputed
with botocore's own signer (SigV4Auth) over the headers the request says it
signed, and its body is read against botocore's service model of the
operation (awsJson1_1 for SageMaker, the query protocol for CloudWatch) and
validated with botocore's ParamValidator. Answers are built from a fixture
of N generated jobs and validated against the operation's output shape
before they are sent, so they are shaped as the models say.

Run with /usr/bin/python3 (Debian's python3-botocore). Binds 127.0.0.1
only, writes {"port": N} to --ready-file, stops itself after
--max-runtime-s. Control (unsigned, never a real AWS path):
  GET  /__stats            calls per operation, describes per job name,
                           rejects, faults served
  POST /__fault  JSON      {"kind": "throttle"|"denied"|"hang"|"slow"|"error500",
                            "op": "ListTrainingJobs" (optional), "count": N,
                            "ms": N (slow)}
  POST /__reset            zero the counters, clear faults
"""
import argparse
import datetime as dt
import json
import os
import sys
import threading
import time
import urllib.parse
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import botocore.session
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.validate import ParamValidator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixture  # noqa: E402
import query  # noqa: E402

AKID = "AKIDSMTOPTEST"
SECRET = "smtop+test/secret=key"
SESSION = botocore.session.get_session()
MODELS = {"sagemaker": SESSION.get_service_model("sagemaker"),
          "monitoring": SESSION.get_service_model("cloudwatch")}


Reject = fixture.Reject


class State:
    def __init__(self, jobs, region):
        self.lock = threading.Lock()
        self.jobs = jobs
        self.region = region
        self.reset()

    def reset(self):
        with self.lock:
            self.calls = {}
            self.rejects = []
            self.faults = []
            self.served = {}
            self.described = {}

    def count(self, op, params):
        with self.lock:
            self.calls[op] = self.calls.get(op, 0) + 1
            if op == "DescribeTrainingJob":
                n = params.get("TrainingJobName", "")
                self.described[n] = self.described.get(n, 0) + 1

    def take_fault(self, op):
        with self.lock:
            for f in self.faults:
                if f.get("op") and f["op"] != op:
                    continue
                if f.get("count", 1) <= 0:
                    continue
                f["count"] = f.get("count", 1) - 1
                self.served[f["kind"]] = self.served.get(f["kind"], 0) + 1
                return dict(f)
        return None


def parse_auth(value):
    if not value.startswith("AWS4-HMAC-SHA256 "):
        raise Reject(400, "IncompleteSignature", "Authorization is not SigV4")
    parts = {}
    for kv in value[len("AWS4-HMAC-SHA256 "):].split(","):
        k, _, v = kv.strip().partition("=")
        parts[k] = v
    try:
        akid, date, region, service, term = parts["Credential"].split("/")
        return akid, date, region, service, term, parts["SignedHeaders"].split(";"), parts["Signature"]
    except (KeyError, ValueError):
        raise Reject(400, "IncompleteSignature", "malformed Authorization header")


def check_signature(handler, body, state):
    """Recomputes the signature with botocore's signer; returns the service."""
    akid, date, region, service, term, signed, sig = parse_auth(handler.headers.get("Authorization", ""))
    if akid != AKID:
        raise Reject(400, "UnrecognizedClientException", "The security token included in the request is invalid.")
    if region != state.region:
        raise Reject(400, "InvalidSignatureException",
                     "Credential should be scoped to a valid region, not '%s'." % region)
    if service not in MODELS or term != "aws4_request":
        raise Reject(400, "InvalidSignatureException", "Credential should be scoped to correct service.")
    amz_date = handler.headers.get("X-Amz-Date", "")
    if amz_date[:8] != date:
        raise Reject(400, "InvalidSignatureException", "Date in Credential scope does not match X-Amz-Date")
    when = dt.datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.timezone.utc)
    if abs((dt.datetime.now(dt.timezone.utc) - when).total_seconds()) > 300:
        raise Reject(400, "InvalidSignatureException", "Signature expired")
    for need in ("host", "x-amz-date"):
        if need not in signed:
            raise Reject(400, "InvalidSignatureException", "%s must be signed" % need)
    headers = {h: handler.headers.get(h, "") for h in signed}
    req = AWSRequest(method="POST", url="http://%s%s" % (headers["host"], handler.path),
                     data=body, headers=headers)
    req.context["timestamp"] = amz_date
    token = handler.headers.get("X-Amz-Security-Token")
    auth = SigV4Auth(Credentials(AKID, SECRET, token), service, region)
    want = auth.signature(auth.string_to_sign(req, auth.canonical_request(req)), req)
    if want != sig:
        raise Reject(403, "InvalidSignatureException",
                     "The request signature we calculated does not match the signature you provided.")
    return service


def _bounds(shape, value, where, errs):
    """What ParamValidator leaves to the service: maxima and enums (of
    requests only: a service answers with enum values newer than a
    client's model, ml.p5.48xlarge to botocore 1.29, and clients take them)."""
    t, meta = shape.type_name, shape.metadata
    if t == "structure" and isinstance(value, dict):
        for k, v in value.items():
            if k in shape.members:
                _bounds(shape.members[k], v, where + "." + k, errs)
    elif t == "list" and isinstance(value, list):
        if "max" in meta and len(value) > meta["max"]:
            errs.append("%s: more than %s items" % (where, meta["max"]))
        for i, v in enumerate(value):
            _bounds(shape.member, v, "%s[%d]" % (where, i), errs)
    elif t in ("integer", "long") and isinstance(value, int):
        if "max" in meta and value > meta["max"]:
            errs.append("%s: %d is above the maximum %s" % (where, value, meta["max"]))
    elif t == "string" and isinstance(value, str):
        if "max" in meta and len(value) > meta["max"]:
            errs.append("%s: longer than %s" % (where, meta["max"]))
        if shape.enum and value not in shape.enum:
            errs.append("%s: %r is not one of %s" % (where, value, "|".join(shape.enum)))


def validate(shape, params, what, request=True):
    report = ParamValidator().validate(params, shape)
    if report.has_errors():
        raise Reject(400, "ValidationException", "%s: %s" % (what, report.generate_report()))
    errs = []
    if request:
        _bounds(shape, params, what, errs)
    if errs:
        raise Reject(400, "ValidationException", "; ".join(errs))


def read_json_request(handler, body):
    target = handler.headers.get("X-Amz-Target", "")
    if handler.headers.get("Content-Type", "") != "application/x-amz-json-1.1":
        raise Reject(400, "SerializationException", "Content-Type must be application/x-amz-json-1.1")
    prefix, _, op = target.partition(".")
    model = MODELS["sagemaker"]
    if prefix != model.metadata["targetPrefix"] or op not in model.operation_names:
        raise Reject(400, "UnknownOperationException", "unknown operation %r" % target)
    try:
        params = json.loads(body or b"{}")
    except ValueError:
        raise Reject(400, "SerializationException", "body is not JSON")
    shape = model.operation_model(op).input_shape
    validate(shape, params, "input of " + op)
    return op, params


def read_query_request(handler, body):
    form = urllib.parse.parse_qs(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False)
    flat = {k: v[-1] for k, v in form.items()}
    model = MODELS["monitoring"]
    op = flat.pop("Action", "")
    if flat.pop("Version", "") != model.api_version or op not in model.operation_names:
        raise Reject(400, "InvalidAction", "unknown action %r" % op)
    shape = model.operation_model(op).input_shape
    try:
        params = query.parse(shape, flat)
    except ValueError as e:
        raise Reject(400, "ValidationError", str(e))
    validate(shape, params, "input of " + op)
    return op, params


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None

    def log_message(self, fmt, *args):
        pass

    def send(self, status, ctype, payload):
        data = payload.encode("utf-8") if isinstance(payload, str) else payload
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-amzn-RequestId", str(uuid.uuid4()))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/__stats":
            st = self.state
            with st.lock:
                out = {"calls": st.calls, "rejects": st.rejects, "served": st.served,
                       "jobs": len(st.jobs), "described": st.described}
            self.send(200, "application/json", json.dumps(out))
        else:
            self.send(404, "text/plain", "no such path")

    def control(self, body):
        st = self.state
        if self.path == "/__reset":
            st.reset()
        elif self.path == "/__fault":
            with st.lock:
                st.faults.append(json.loads(body))
        self.send(200, "application/json", "{}")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
        if self.path.startswith("/__"):
            return self.control(body)
        service = None
        try:
            service = check_signature(self, body, self.state)
            if service == "sagemaker":
                op, params = read_json_request(self, body)
            else:
                op, params = read_query_request(self, body)
            self.state.count(op, params)
            self.answer(service, op, params)
        except Reject as r:
            with self.state.lock:
                self.state.rejects.append("%s %s" % (r.code, r.message[:200]))
            self.error(service, r.status, r.code, r.message)

    def error(self, service, status, code, message):
        if service == "monitoring":
            xml = ("<ErrorResponse xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\">"
                   "<Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error>"
                   "<RequestId>%s</RequestId></ErrorResponse>" % (code, query.esc(message), uuid.uuid4()))
            self.send(status, "text/xml", xml)
        else:
            self.send(status, "application/x-amz-json-1.1",
                      json.dumps({"__type": code, "message": message}))

    def fault(self, op):
        f = self.state.take_fault(op)
        if not f:
            return False
        kind = f["kind"]
        if kind == "slow":
            time.sleep(f.get("ms", 500) / 1000.0)
            return False
        if kind == "hang":
            time.sleep(f.get("ms", 600000) / 1000.0)
            self.close_connection = True
            return True
        if kind == "throttle":
            code = "Throttling" if op == "GetMetricData" else "ThrottlingException"
            raise Reject(400, code, "Rate exceeded")
        if kind == "denied":
            raise Reject(400, "AccessDeniedException" if op != "GetMetricData" else "AccessDenied",
                         "User: arn:aws:iam::111122223333:user/test is not authorized to perform: "
                         "%s:%s" % ("cloudwatch" if op == "GetMetricData" else "sagemaker", op))
        if kind == "error500":
            raise Reject(500, "InternalFailure", "internal failure")
        return False

    def answer(self, service, op, params):
        if self.fault(op):
            return
        model = MODELS[service]
        out_shape = model.operation_model(op).output_shape
        out = fixture.answer(self.state.jobs, op, params)
        try:
            validate(out_shape, out, "output of " + op, request=False)
        except Reject as r:   # the fixture is wrong, not the client: say so loudly
            raise Reject(500, "InternalFailure", "test server bug: " + r.message)
        if service == "sagemaker":
            self.send(200, "application/x-amz-json-1.1", json.dumps(out, default=fixture.epoch))
        else:
            self.send(200, "text/xml", query.response_xml(op, out_shape, out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--region", default="us-east-1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--ready-file", required=True)
    ap.add_argument("--max-runtime-s", type=float, default=300)
    ap.add_argument("--bucket", default="smtop-jobs")
    ap.add_argument("--extra", help="JSON file: a list of jobs a test describes (fixture.extra_job)")
    a = ap.parse_args()
    extra = json.load(open(a.extra)) if a.extra else []
    Handler.state = State(fixture.make_jobs(a.jobs, a.seed, a.bucket, extra), a.region)
    srv = ThreadingHTTPServer(("127.0.0.1", a.port), Handler)
    srv.daemon_threads = True
    threading.Timer(a.max_runtime_s, srv.shutdown).start()
    tmp = a.ready_file + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"port": srv.server_address[1], "pid": os.getpid()}, f)
    os.rename(tmp, a.ready_file)
    srv.serve_forever()
    os._exit(0)


if __name__ == "__main__":
    main()
