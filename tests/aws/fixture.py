"""The jobs the local API serves: N generated training jobs, newest first,
and the answers of ListTrainingJobs, DescribeTrainingJob and GetMetricData
over them. Deterministic for a seed; times are relative to start-up."""
import datetime as dt
import math
import random
import time

# (type, GPUs, vCPUs) as published for the ml.* training instances; the
# last one is unknown to smtop's table on purpose.
TYPES = [("ml.p4d.24xlarge", 8, 96), ("ml.g5.12xlarge", 4, 48), ("ml.p3.16xlarge", 8, 64),
         ("ml.g5.xlarge", 1, 4), ("ml.m5.2xlarge", 0, 8), ("ml.p5.48xlarge", 8, 192),
         ("ml.zz9.plural", 2, 16)]
GPUS = {t: g for t, g, _ in TYPES}
GPUS["ml.c5.18xlarge"] = 0
VCPUS = {t: v for t, _, v in TYPES}
VCPUS["ml.c5.18xlarge"] = 72
ACCOUNT = "111122223333"
SWEEPS = ["bert-large", "llama-ft", "resnet50", "vit-h14", "gpt-neox", "t5-xl", "whisper"]


def epoch(v):
    if isinstance(v, dt.datetime):
        return v.timestamp()
    raise TypeError(repr(v))


def _t(s):
    return dt.datetime.fromtimestamp(s, dt.timezone.utc)


def _status(i, n, rng):
    if i < max(2, n // 6):
        return "InProgress", rng.choice(["Training", "Training", "Training", "Downloading", "Starting"])
    r = rng.random()
    if r < 0.68:
        return "Completed", "Completed"
    if r < 0.85:
        return "Failed", "Failed"
    if r < 0.97:
        return "Stopped", "Stopped"
    return "Stopping", "Stopping"


def _resources(i, rng):
    if i % 11 == 7:   # a heterogeneous cluster: no InstanceType of its own
        return {"VolumeSizeInGB": 100, "InstanceGroups": [
            {"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 2, "InstanceGroupName": "gpu"},
            {"InstanceType": "ml.c5.18xlarge", "InstanceCount": 1, "InstanceGroupName": "data"}]}
    t = TYPES[(i * 5 + rng.randrange(3)) % len(TYPES)][0]
    return {"InstanceType": t, "InstanceCount": 1 + (i % 4 == 0) * rng.randrange(1, 4),
            "VolumeSizeInGB": 100}


def _hosts(job):
    rc = job["ResourceConfig"]
    if "InstanceGroups" in rc:
        return sum(g["InstanceCount"] for g in rc["InstanceGroups"])
    return rc["InstanceCount"]


def _job(i, n, rng, now, bucket):
    span = 8 * 86400.0   # the oldest tenth lies before a 7-day --since
    created = now - 600 - i * span / max(n, 1)
    status, secondary = _status(i, n, rng)
    name = "%s-%s-%04d" % (rng.choice(SWEEPS), "sweep" if i % 3 else "run", n - i)
    if i == 3:
        name = "evil\x1b[31mred\x07-job"
    start = created + 180
    job = {"TrainingJobName": name,
           "TrainingJobArn": "arn:aws:sagemaker:us-east-1:%s:training-job/%s" % (ACCOUNT, name.lower()),
           "TrainingJobStatus": status, "SecondaryStatus": secondary,
           "CreationTime": _t(created), "LastModifiedTime": _t(created + 60),
           "ModelArtifacts": {"S3ModelArtifacts": "s3://%s/models/%s/model.tar.gz" % (bucket, name)},
           "AlgorithmSpecification": {"TrainingImage": "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.1",
                                      "TrainingInputMode": "File"},
           "ResourceConfig": _resources(i, rng),
           "StoppingCondition": {"MaxRuntimeInSeconds": 86400},
           "OutputDataConfig": {"S3OutputPath": "s3://%s/output" % bucket},
           "RoleArn": "arn:aws:iam::%s:role/sm" % ACCOUNT}
    if secondary != "Starting":
        job["TrainingStartTime"] = _t(start)
    if status != "InProgress":
        dur = 600 + rng.randrange(6 * 3600)
        end = min(start + dur, now - 60)
        job["TrainingEndTime"] = _t(end)
        job["BillableTimeInSeconds"] = int(end - start)
        job["TrainingTimeInSeconds"] = int(end - start)
        job["LastModifiedTime"] = _t(end)
    if status == "Failed":
        job["FailureReason"] = rng.choice([
            "AlgorithmError: ExecuteUserScriptError: CUDA out of memory",
            "ClientError: Data download failed\x1b]0;pwned\x07\r\nnext line",
            "InternalServerError: We encountered an internal error."])
    if i % 3 == 0:
        job["ProfilerConfig"] = {"S3OutputPath": "s3://%s/profiler" % bucket,
                                 "ProfilingIntervalInMilliseconds": 500}
        job["ProfilingStatus"] = "Enabled"
        rule = "IssuesFound" if i % 9 == 0 else "NoIssuesFound"
        job["ProfilerRuleEvaluationStatuses"] = [
            {"RuleConfigurationName": "LowGPUUtilization", "RuleEvaluationStatus": rule,
             "LastModifiedTime": _t(created + 300)}]
    job["_idle"] = i % 5 == 2    # GPUs nearly unused: for idle alerts
    return job


def make_jobs(n, seed, bucket, extra=()):
    rng = random.Random(seed)
    now = time.time()
    return [extra_job(e, now, bucket) for e in extra] + [_job(i, n, rng, now, bucket) for i in range(n)]


def extra_job(spec, now, bucket):
    """A job a test describes itself (server.py --extra): {"name", "status"
    (InProgress or an ended one), "age_s" (since creation, default 1800),
    "profiler", "tensorboard", "checkpoint", "output" (S3 paths; output
    defaults to s3://BUCKET/output), "type", "count"}. Newer than the
    generated ones, so it lists first."""
    name, status = spec["name"], spec.get("status", "InProgress")
    created = now - spec.get("age_s", 1800)
    start = created + 60
    job = {"TrainingJobName": name,
           "TrainingJobArn": "arn:aws:sagemaker:us-east-1:%s:training-job/%s" % (ACCOUNT, name.lower()),
           "TrainingJobStatus": status, "SecondaryStatus": "Training" if status == "InProgress" else status,
           "CreationTime": _t(created), "LastModifiedTime": _t(created + 60),
           "ModelArtifacts": {"S3ModelArtifacts": "s3://%s/models/%s/model.tar.gz" % (bucket, name)},
           "AlgorithmSpecification": {"TrainingImage": "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.1",
                                      "TrainingInputMode": "File"},
           "ResourceConfig": {"InstanceType": spec.get("type", "ml.g5.12xlarge"),
                              "InstanceCount": spec.get("count", 1), "VolumeSizeInGB": 100},
           "StoppingCondition": {"MaxRuntimeInSeconds": 86400},
           "OutputDataConfig": {"S3OutputPath": spec.get("output", "s3://%s/output" % bucket)},
           "RoleArn": "arn:aws:iam::%s:role/sm" % ACCOUNT,
           "TrainingStartTime": _t(start), "_idle": False}
    if status != "InProgress":
        end = min(now - 60, start + 600)
        job.update({"TrainingEndTime": _t(end), "BillableTimeInSeconds": int(end - start),
                    "TrainingTimeInSeconds": int(end - start), "LastModifiedTime": _t(end)})
    if spec.get("profiler"):
        job["ProfilerConfig"] = {"S3OutputPath": spec["profiler"], "ProfilingIntervalInMilliseconds": 500}
        job["ProfilingStatus"] = "Enabled"
    if spec.get("tensorboard"):
        job["TensorBoardOutputConfig"] = {"S3OutputPath": spec["tensorboard"],
                                          "LocalPath": "/opt/ml/output/tensorboard"}
    if spec.get("checkpoint"):
        job["CheckpointConfig"] = {"S3Uri": spec["checkpoint"], "LocalPath": "/opt/ml/checkpoints"}
    return job


def _public(job):
    return {k: v for k, v in job.items() if not k.startswith("_")}


def _list(jobs, p):
    order = p.get("SortBy", "CreationTime")
    key = {"CreationTime": lambda j: j["CreationTime"], "Name": lambda j: j["TrainingJobName"],
           "Status": lambda j: j["TrainingJobStatus"]}[order]
    rows = sorted(jobs, key=key, reverse=p.get("SortOrder", "Ascending") == "Descending")
    after, before = p.get("CreationTimeAfter"), p.get("CreationTimeBefore")
    rows = [j for j in rows if (not after or j["CreationTime"] > _aware(after)) and
            (not before or j["CreationTime"] < _aware(before))]
    off = int(p["NextToken"][4:]) if p.get("NextToken", "").startswith("tok-") else 0
    size = p.get("MaxResults", 10)
    page = rows[off:off + size]
    # As the service does: the page is cut first, name and status filters
    # are applied to it, so a filtered page can be short or empty.
    page = [j for j in page if p.get("NameContains", "") in j["TrainingJobName"] and
            (not p.get("StatusEquals") or j["TrainingJobStatus"] == p["StatusEquals"])]
    out = {"TrainingJobSummaries": [
        {k: j[k] for k in ("TrainingJobName", "TrainingJobArn", "CreationTime", "TrainingEndTime",
                           "LastModifiedTime", "TrainingJobStatus") if k in j} for j in page]}
    if off + size < len(rows):
        out["NextToken"] = "tok-%d" % (off + size)
    return out


def _aware(t):
    if isinstance(t, (int, float)):
        return _t(t)
    if isinstance(t, str):
        return dt.datetime.fromisoformat(t.replace("Z", "+00:00"))
    return t if t.tzinfo else t.replace(tzinfo=dt.timezone.utc)


class Reject(Exception):
    """An error answer: HTTP status, the error code, its message."""

    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _value(job, metric, host, t):
    rc = job["ResourceConfig"]
    itype = rc.get("InstanceType") or rc["InstanceGroups"][0]["InstanceType"]
    if "InstanceGroups" in rc and host > rc["InstanceGroups"][0]["InstanceCount"]:
        itype = rc["InstanceGroups"][1]["InstanceType"]
    wave = 0.5 + 0.5 * math.sin(t / 300.0 + host)
    if metric == "GPUUtilization" or metric == "GPUMemoryUtilization":
        per = 3.0 if job["_idle"] else 70.0 + 20.0 * wave
        return round(per * GPUS.get(itype, 0), 2)
    if metric == "CPUUtilization":
        return round((20.0 + 30.0 * wave) * VCPUS.get(itype, 8), 2)
    return round(40.0 + 20.0 * wave, 2)


def _metric(jobs_by_name, q, start, end):
    ms = q["MetricStat"]
    dims = {d["Name"]: d["Value"] for d in ms["Metric"].get("Dimensions", [])}
    name, _, algo = dims.get("Host", "").rpartition("/algo-")
    job = jobs_by_name.get(name)
    res = {"Id": q["Id"], "Label": ms["Metric"]["MetricName"], "Timestamps": [], "Values": [],
           "StatusCode": "Complete"}
    if not job or ms["Metric"].get("Namespace") != "/aws/sagemaker/TrainingJobs" or not algo.isdigit() \
            or not 1 <= int(algo) <= _hosts(job) or "TrainingStartTime" not in job:
        return res
    lo = max(start, job["TrainingStartTime"].timestamp())
    hi = min(end, job["TrainingEndTime"].timestamp() if "TrainingEndTime" in job else end)
    period = ms["Period"]
    t = math.floor(hi / period) * period
    while t >= lo and len(res["Values"]) < 1440:
        res["Timestamps"].append(_t(t))
        res["Values"].append(_value(job, ms["Metric"]["MetricName"], int(algo), t))
        t -= period
    return res


def answer(jobs, op, p):
    if op == "ListTrainingJobs":
        return _list(jobs, p)
    if op == "DescribeTrainingJob":
        for j in jobs:
            if j["TrainingJobName"] == p["TrainingJobName"]:
                return _public(j)
        raise _not_found()
    if op == "GetMetricData":
        by = {j["TrainingJobName"]: j for j in jobs}
        s, e = _aware(p["StartTime"]).timestamp(), _aware(p["EndTime"]).timestamp()
        return {"MetricDataResults": [_metric(by, q, s, e) for q in p["MetricDataQueries"]],
                "Messages": []}
    raise _unsupported(op)


def _not_found():
    return Reject(400, "ValidationException", "Requested resource not found.")


def _unsupported(op):
    return Reject(400, "ValidationException", "operation %s is not served by this test API" % op)
