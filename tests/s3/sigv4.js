'use strict';
// Strict AWS Signature Version 4 verification, written from the published
// rules (no SDK), so that the test front can reject any request smtop signs
// wrongly. Proven against AWS's own test vectors in sigv4.test.js.
//
// The canonical URI and query are rebuilt from the *decoded* request, then
// re-encoded the one correct way. A client that signs a sloppily encoded URL
// ('+' or ' ' left raw, '/' unencoded in a query value) therefore signs a
// different string than the one computed here and is rejected: that is the
// bug class this front exists to catch.
const crypto = require('crypto');

const ALGO = 'AWS4-HMAC-SHA256';

function uriEncode(str, keepSlash) {
  const bytes = Buffer.from(str, 'utf8');
  let out = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    if (/[A-Za-z0-9\-_.~]/.test(c) || (keepSlash && c === '/')) out += c;
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

// Percent-decoding that never throws and keeps '+' literal (S3 rules).
function pctDecode(s) {
  const bytes = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(s.substr(i + 1, 2))) {
      bytes.push(parseInt(s.substr(i + 1, 2), 16));
      i += 2;
    } else {
      for (const b of Buffer.from(s[i], 'utf8')) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function canonicalQuery(rawQuery) {
  if (!rawQuery) return '';
  const pairs = rawQuery.split('&').filter((p) => p.length).map((p) => {
    const eq = p.indexOf('=');
    const k = eq < 0 ? p : p.slice(0, eq);
    const v = eq < 0 ? '' : p.slice(eq + 1);
    return [uriEncode(pctDecode(k), false), uriEncode(pctDecode(v), false)];
  });
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

// headers: object of lower-case name -> value (string or array)
function canonicalHeaders(headers, signedHeaders) {
  return signedHeaders.map((h) => {
    let v = headers[h];
    if (v === undefined) return null;
    if (Array.isArray(v)) v = v.join(',');
    return `${h}:${String(v).trim().replace(/\s+/g, ' ')}\n`;
  });
}

function canonicalRequest(req) {
  const ch = canonicalHeaders(req.headers, req.signedHeaders);
  if (ch.includes(null)) return null;
  const path = uriEncode(pctDecode(req.path), true) || '/';
  return [req.method, path, canonicalQuery(req.query), ch.join(''),
    req.signedHeaders.join(';'), req.payloadHash].join('\n');
}

const sha256hex = (s) => crypto.createHash('sha256').update(s).digest('hex');
const hmac = (k, s) => crypto.createHmac('sha256', k).update(s).digest();

function stringToSign(amzDate, scope, creq) {
  return [ALGO, amzDate, scope, sha256hex(creq)].join('\n');
}

function signature(secret, date, region, service, sts) {
  let k = hmac('AWS4' + secret, date);
  k = hmac(k, region);
  k = hmac(k, service);
  k = hmac(k, 'aws4_request');
  return crypto.createHmac('sha256', k).update(sts).digest('hex');
}

// "AWS4-HMAC-SHA256 Credential=AK/DATE/REGION/SERVICE/aws4_request,
//  SignedHeaders=a;b, Signature=hex" -> fields, or null when malformed.
function parseAuthorization(h) {
  if (!h || !h.startsWith(ALGO + ' ')) return null;
  const out = {};
  for (const part of h.slice(ALGO.length + 1).split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  if (!out.Credential || !out.SignedHeaders || !out.Signature) return null;
  const c = out.Credential.split('/');
  if (c.length !== 5 || c[4] !== 'aws4_request') return null;
  return {
    accessKey: c[0], date: c[1], region: c[2], service: c[3],
    signedHeaders: out.SignedHeaders.split(';'), signature: out.Signature,
  };
}

module.exports = {
  uriEncode, pctDecode, canonicalQuery, canonicalRequest, stringToSign,
  signature, parseAuthorization, sha256hex,
};
