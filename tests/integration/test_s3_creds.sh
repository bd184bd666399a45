#!/usr/bin/env bash
# Credentials and region through the real binary, as the AWS CLI resolves
# them, against the strict SigV4 front: a profile file with a session
# token, --profile over the environment, the EC2 instance role via the
# fake IMDSv2, an expired token, an unknown key, a wrong region. Every
# failure must be one clear line and must not contain the secret.
: "${SMTOP:?SMTOP not set}"
source "$(dirname "$0")/it_lib.sh"
SRC=${SMTOP_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$SRC/tests/s3/rig.sh"
rig_require
it_on_exit rig_stop

rig_start "$T/rig" || exit 1
rig_env
"$SMTOP" synth --out "$T/job/profiler-output" --nodes 1 --minutes 2 --no-traces >/dev/null || exit 1
rig_upload bkt job "$T/job" >/dev/null || exit 1
URL=s3://bkt/job/profiler-output
run() { timeout 60 "$SMTOP" report --json --no-cache "$URL" --endpoint-url "$RIG_ENDPOINT" "$@" >"$T/out.json" 2>"$T/err"; }

cat >"$T/credentials" <<'INI'
[default]
aws_access_key_id = AKIDNOSUCHKEY
aws_secret_access_key = n0t/the+secret
[ci]
aws_access_key_id = ASIASMTOPTEMP
aws_secret_access_key = temp/secret+key
aws_session_token = tok/en+1==
[old]
aws_access_key_id = ASIASMTOPEXPIRED
aws_secret_access_key = old/secret
aws_session_token = expired-token
INI
cat >"$T/config" <<'INI'
[profile ci]
region = us-east-1
[profile elsewhere]
region = eu-west-3
aws_access_key_id = AKIDSMTOPTEST
aws_secret_access_key = smtop+test/secret=key
INI
export AWS_SHARED_CREDENTIALS_FILE="$T/credentials" AWS_CONFIG_FILE="$T/config"

run --profile ci
it_check "--profile with session token from the credentials file" test $? -eq 0
it_check "the report matches the schema" "$SMTOP_SRC/tests/tools/schema_ok.sh" "$T/out.json"

AWS_PROFILE=ci run
it_check "AWS_PROFILE selects the profile" test $? -eq 0

run --profile old
it_check "expired token exits 1" test $? -eq 1
it_check "expired token says so" grep -q "ExpiredToken from S3: the session token for profile 'old' has expired" "$T/err"

unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
run
it_check "unknown key (default profile) exits 1" test $? -eq 1
it_check "unknown key names profile and file" grep -q "InvalidAccessKeyId from S3: the access key id for profile 'default' does not exist — check $T/credentials" "$T/err"
it_check "no secret in messages" bash -c "! grep -q 'n0t/the+secret\|old/secret' '$T/err'"

# region: the profile's region (eu-west-3) is used when nothing overrides
# it, so the front (us-east-1) refuses the scope; --region fixes it
unset AWS_REGION
run --profile elsewhere
it_check "profile region is used for signing" grep -q "not in region eu-west-3" "$T/err"
AWS_DEFAULT_REGION=us-east-1 run --profile elsewhere
it_check "AWS_DEFAULT_REGION beats the profile region" test $? -eq 0
AWS_REGION=eu-west-3 AWS_DEFAULT_REGION=us-east-1 run --profile elsewhere
it_check "AWS_REGION beats AWS_DEFAULT_REGION" test $? -eq 1
AWS_REGION=eu-west-3 run --profile elsewhere --region us-east-1
it_check "--region beats AWS_REGION" test $? -eq 0
export AWS_REGION=us-east-1

# EC2 instance role through IMDSv2 (the fake refuses tokenless requests)
it_check "fake IMDS rejects a request without token" test "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$RIG_IMDS/latest/meta-data/iam/security-credentials/")" = 401
export AWS_SHARED_CREDENTIALS_FILE=/nonexistent AWS_CONFIG_FILE=/nonexistent
unset AWS_EC2_METADATA_DISABLED
AWS_EC2_METADATA_SERVICE_ENDPOINT="http://127.0.0.1:$RIG_IMDS" run
it_check "instance role credentials via IMDSv2" test $? -eq 0
it_check "IMDS token was requested" test "$(rig_stat imds_token)" -ge 1

AWS_EC2_METADATA_DISABLED=true AWS_EC2_METADATA_SERVICE_ENDPOINT="http://127.0.0.1:$RIG_IMDS" run
it_check "no credentials anywhere exits 1" test $? -eq 1
it_check "no credentials: says where it looked" grep -q "no AWS credentials found" "$T/err"

if [ "$fails" -ne 0 ]; then echo "$fails check(s) failed"; cat "$T/err"; exit 1; fi
echo "all S3 credential checks passed"
