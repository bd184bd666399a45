'use strict';
// Loopback S3 test rig for smtop: s3rver (storage) behind a strict
// SigV4-verifying front, a control port for fault injection and byte
// counts, and a fake IMDSv2 endpoint. Everything binds 127.0.0.1.
//
//   node --openssl-legacy-provider server.js --dir D --ready-file F
//        [--port P --s3rver-port P2 --ctl-port P3 --imds-port P4]
//        [--region us-east-1] [--imds-expiry-s 3600] [--max-runtime-s 300]
//
// Ready file (JSON): {"s3":P,"s3rver":P2,"ctl":P3,"imds":P4,"pid":N}.
// Credentials the front knows (fixed test values, not secrets):
//   AKIDSMTOPTEST   / smtop+test/secret=key           (long-term)
//   ASIASMTOPTEMP   / temp/secret+key, token "tok/en+1=="   (session)
//   ASIASMTOPEXPIRED/ old/secret, token "expired-token" -> ExpiredToken
// The fake IMDS hands out the ASIASMTOPTEMP credentials.
// Control port: POST /fault {"kind":"503"|"slowdown"|"403"|"stall"|"close"|"short",
// "count":N,"after":BYTES} or {"kind":"delay","count":N,"ms":MS} (answer
// the next N requests of any kind MS late: a slow but live endpoint);
// GET /stats; POST /reset. POST /bucket {"bucket":B,"deny":true} answers
// every request on bucket B AccessDenied (a policy that does not grant
// it), {"bucket":B,"region":R} AuthorizationHeaderMalformed naming region
// R (a bucket in another region), until /reset. /stats also counts
// listing requests per "bucket/prefix" (lists_by), the listings begun
// there (walks_by: requests with no start-after or continuation-token)
// and object GETs per bucket
// (gets_by), so a test can hold a refresh to its bound. "403" answers any request AccessDenied (a
// bucket policy that denies, until it is fixed). "short" ends the body after BYTES with headers
// (Content-Length, Content-Range) that agree with the short body: a
// well-formed response that is not the whole object.
const http = require('http');
const fs = require('fs');
const S3rver = require('s3rver');
const v4 = require('./sigv4');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const region = args.region || 'us-east-1';
const CREDS = {
  AKIDSMTOPTEST: { secret: 'smtop+test/secret=key' },
  ASIASMTOPTEMP: { secret: 'temp/secret+key', token: 'tok/en+1==' },
  ASIASMTOPEXPIRED: { secret: 'old/secret', token: 'expired-token', expired: true },
};
const stats = { requests: 0, bytes: 0, get_object: 0, list: 0, rejected: 0, imds_token: 0, imds_creds: 0, faults_fired: 0 };
let faults = [];
let buckets = {};   // bucket -> {deny, region}
let listsBy = {};
// listings begun (no start-after, no continuation-token): one walk of a
// folder, however many requests its skips and pages take
let walksBy = {};
let getsBy = {};

function xmlError(res, status, code, msg) {
  stats.rejected++;
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${msg}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

// Returns null when the request is correctly signed, else [status, code, msg].
function verify(req) {
  const a = v4.parseAuthorization(req.headers.authorization);
  if (!a) return [403, 'AccessDenied', 'Missing or malformed Authorization header'];
  const cred = CREDS[a.accessKey];
  if (!cred) return [403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'];
  const amzDate = req.headers['x-amz-date'] || '';
  if (!/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== a.date)
    return [403, 'AccessDenied', 'x-amz-date missing or not matching the credential scope date'];
  const t = Date.UTC(+amzDate.slice(0, 4), +amzDate.slice(4, 6) - 1, +amzDate.slice(6, 8), +amzDate.slice(9, 11), +amzDate.slice(11, 13), +amzDate.slice(13, 15));
  if (Math.abs(Date.now() - t) > 15 * 60 * 1000) return [403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.'];
  if (a.region !== region) return [400, 'AuthorizationHeaderMalformed', `the region '${a.region}' is wrong; expecting '${region}'`];
  if (a.service !== 's3') return [400, 'AuthorizationHeaderMalformed', `the service '${a.service}' is wrong; expecting 's3'`];
  for (const h of ['host', 'x-amz-date', 'x-amz-content-sha256'])
    if (!a.signedHeaders.includes(h)) return [403, 'AccessDenied', `header ${h} must be signed`];
  const payload = req.headers['x-amz-content-sha256'];
  if (!payload) return [400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256'];
  if (cred.token !== undefined) {
    if (!a.signedHeaders.includes('x-amz-security-token')) return [403, 'InvalidToken', 'The provided token is malformed or otherwise invalid.'];
    if (req.headers['x-amz-security-token'] !== cred.token) return [403, 'InvalidToken', 'The provided token is malformed or otherwise invalid.'];
    if (cred.expired) return [400, 'ExpiredToken', 'The provided token has expired.'];
  } else if (req.headers['x-amz-security-token'] !== undefined) {
    return [403, 'InvalidToken', 'The provided token is malformed or otherwise invalid.'];
  }
  const q = req.url.indexOf('?');
  const creq = v4.canonicalRequest({
    method: req.method, path: q < 0 ? req.url : req.url.slice(0, q), query: q < 0 ? '' : req.url.slice(q + 1),
    headers: req.headers, signedHeaders: a.signedHeaders, payloadHash: payload,
  });
  if (creq === null) return [403, 'AccessDenied', 'a signed header is missing from the request'];
  const scope = `${a.date}/${a.region}/${a.service}/aws4_request`;
  const sig = v4.signature(cred.secret, a.date, a.region, a.service, v4.stringToSign(amzDate, scope, creq));
  if (sig !== a.signature) return [403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.'];
  return null;
}

function takeFault(isObjectGet) {
  const i = faults.findIndex((f) => f.count > 0 && (isObjectGet || f.kind === '503' || f.kind === 'slowdown' || f.kind === 'delay' || f.kind === '403'));
  if (i < 0) return null;
  faults[i].count--;
  stats.faults_fired++;
  return faults[i];
}

// Relays the first `keep` bytes of an upstream response, as if they were
// all of it.
function sendShort(res, ur, keep) {
  const chunks = [];
  ur.on('data', (c) => chunks.push(c));
  ur.on('end', () => {
    const body = Buffer.concat(chunks).slice(0, keep);
    const h = { ...ur.headers, 'content-length': String(body.length) };
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(h['content-range'] || '');
    if (m) h['content-range'] = `bytes ${m[1]}-${+m[1] + body.length - 1}/${m[3]}`;
    stats.bytes += body.length;
    res.writeHead(ur.statusCode, h);
    res.end(body);
  });
}

function front(s3rverPort) {
  return http.createServer((req, res) => {
    stats.requests++;
    const bad = verify(req);
    if (bad) return xmlError(res, bad[0], bad[1], bad[2]);
    const isList = /^\/[^/]+\/?(\?|$)/.test(req.url);
    const isObjectGet = req.method === 'GET' && !isList;
    if (isList) stats.list++; else if (isObjectGet) stats.get_object++;
    const bucket = decodeURIComponent(req.url.split(/[/?]/)[1] || '');
    if (isList) {
      const m = /[?&]prefix=([^&]*)/.exec(req.url);
      const k = bucket + '/' + (m ? decodeURIComponent(m[1].replace(/\+/g, ' ')) : '');
      listsBy[k] = (listsBy[k] || 0) + 1;
      if (!/[?&](start-after|continuation-token)=/.test(req.url)) walksBy[k] = (walksBy[k] || 0) + 1;
    } else if (isObjectGet) {
      getsBy[bucket] = (getsBy[bucket] || 0) + 1;
    }
    const pol = buckets[bucket];
    if (pol && pol.deny) return xmlError(res, 403, 'AccessDenied', 'Access Denied');
    if (pol && pol.region) {
      stats.rejected++;
      const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AuthorizationHeaderMalformed</Code><Message>The authorization header is malformed; the region '${region}' is wrong; expecting '${pol.region}'</Message><Region>${pol.region}</Region></Error>`;
      res.writeHead(400, { 'content-type': 'application/xml', 'x-amz-bucket-region': pol.region, 'content-length': Buffer.byteLength(body) });
      return res.end(body);
    }
    const taken = takeFault(isObjectGet);
    if (taken && taken.kind === 'delay') {
      req.pause();
      return setTimeout(() => { req.resume(); forward(req, res, s3rverPort, null); }, +taken.ms || 1000);
    }
    forward(req, res, s3rverPort, taken);
  });
}

// Answers one verified request from s3rver, applying a body fault (stall,
// close, 503, slowdown) when one was taken for it.
function forward(req, res, s3rverPort, fault) {
  if (fault && fault.kind === '503') return xmlError(res, 503, 'ServiceUnavailable', 'Please reduce your request rate.');
  if (fault && fault.kind === '403') return xmlError(res, 403, 'AccessDenied', 'Access Denied');
  if (fault && fault.kind === 'slowdown') return xmlError(res, 503, 'SlowDown', 'Please reduce your request rate.');
  const headers = { ...req.headers };
  for (const h of Object.keys(headers)) if (h === 'authorization' || h.startsWith('x-amz-')) delete headers[h];
  const sock = req.socket;
  const up = http.request({ host: '127.0.0.1', port: s3rverPort, method: req.method, path: req.url, headers }, (ur) => {
    if (fault && fault.kind === 'short') return sendShort(res, ur, fault.after || 0);
    res.writeHead(ur.statusCode, ur.headers);
    let sent = 0;
    ur.on('data', (chunk) => {
      if (fault && sent + chunk.length > (fault.after || 0)) {
        const part = chunk.slice(0, Math.max(0, (fault.after || 0) - sent));
        stats.bytes += part.length;
        res.write(part);
        sent += part.length;
        ur.destroy();
        // stall: keep the socket open, send nothing more; close: drop it.
        // let the partial body reach the client before the drop
        if (fault.kind === 'close') setTimeout(() => sock.destroy(), 50);
        return;
      }
      sent += chunk.length;
      stats.bytes += chunk.length;
      res.write(chunk);
    });
    ur.on('end', () => res.end());
  });
  up.on('error', () => { if (!res.headersSent) xmlError(res, 500, 'InternalError', 'backend unavailable'); else res.destroy(); });
  req.pipe(up);
}

function control() {
  return http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      // the counters as they were: /recount answers those it zeroes
      const snap = JSON.stringify({ ...stats, lists_by: listsBy, walks_by: walksBy, gets_by: getsBy });
      if (req.method === 'POST' && req.url === '/fault') faults.push(JSON.parse(body));
      else if (req.method === 'POST' && req.url === '/bucket') {
        const b = JSON.parse(body);
        buckets[b.bucket] = b;
      } else if (req.method === 'POST' && req.url === '/reset') {
        faults = [];
        buckets = {};
        listsBy = {};
        walksBy = {};
        getsBy = {};
        for (const k of Object.keys(stats)) stats[k] = 0;
      } else if (req.method === 'POST' && req.url === '/recount') {
        // counters only: the bucket policies stay
        listsBy = {};
        walksBy = {};
        getsBy = {};
        for (const k of Object.keys(stats)) stats[k] = 0;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(snap);
    });
  });
}

function imds() {
  const token = 'imds-token-' + process.pid;
  const expiryS = +(args['imds-expiry-s'] || 3600);
  return http.createServer((req, res) => {
    if (req.method === 'PUT' && req.url === '/latest/api/token') {
      if (!req.headers['x-aws-ec2-metadata-token-ttl-seconds']) { res.writeHead(400); return res.end(); }
      stats.imds_token++;
      res.writeHead(200);
      return res.end(token);
    }
    if (req.headers['x-aws-ec2-metadata-token'] !== token) { res.writeHead(401); return res.end(); }
    if (req.url === '/latest/meta-data/iam/security-credentials/') { res.writeHead(200); return res.end('smtop-role'); }
    if (req.url === '/latest/meta-data/iam/security-credentials/smtop-role') {
      stats.imds_creds++;
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({
        Code: 'Success', Type: 'AWS-HMAC', AccessKeyId: 'ASIASMTOPTEMP', SecretAccessKey: CREDS.ASIASMTOPTEMP.secret,
        Token: CREDS.ASIASMTOPTEMP.token, Expiration: new Date(Date.now() + expiryS * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
      }));
    }
    res.writeHead(404);
    res.end();
  });
}

const listen = (srv, port) => new Promise((ok, fail) => {
  srv.once('error', fail);
  srv.listen(+(port || 0), '127.0.0.1', () => ok(srv.address().port));
});

(async () => {
  fs.mkdirSync(args.dir, { recursive: true });
  const store = new S3rver({ port: +(args['s3rver-port'] || 0), address: '127.0.0.1', silent: true, directory: args.dir, configureBuckets: [] });
  const addr = await store.run();
  const ready = { s3rver: addr.port };
  ready.s3 = await listen(front(ready.s3rver), args.port);
  ready.ctl = await listen(control(), args['ctl-port']);
  ready.imds = await listen(imds(), args['imds-port']);
  ready.pid = process.pid;
  fs.writeFileSync(args['ready-file'] + '.tmp', JSON.stringify(ready));
  fs.renameSync(args['ready-file'] + '.tmp', args['ready-file']);
  // Never outlive a crashed test by long.
  setTimeout(() => process.exit(0), 1000 * +(args['max-runtime-s'] || 300)).unref();
  // ...and not at all once the test that started it is gone.
  const parent = process.ppid;
  setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 500).unref();
  process.on('SIGTERM', () => process.exit(0));
})().catch((e) => { console.error(e.message); process.exit(1); });
