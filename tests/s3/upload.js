'use strict';
// Uploads a directory tree into a bucket of the rig's s3rver (unsigned,
// straight to the storage port; only smtop goes through the front).
//   node upload.js S3RVER_PORT BUCKET KEY_PREFIX DIR
const http = require('http');
const fs = require('fs');
const path = require('path');
const [port, bucket, prefix, dir] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function walk(d, out) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p, out); else if (e.isFile()) out.push(p);
  }
  return out;
}

const put = (p, body) => new Promise((ok, fail) => {
  const req = http.request({ host: '127.0.0.1', port, method: 'PUT', path: p, agent,
    headers: { 'content-length': body.length } }, (res) => {
    res.resume();
    res.on('end', () => (res.statusCode === 200 ? ok() : fail(new Error(`${p}: HTTP ${res.statusCode}`))));
  });
  req.on('error', fail);
  req.end(body);
});

(async () => {
  await put(`/${bucket}`, Buffer.alloc(0)).catch(() => {});
  const files = walk(dir, []);
  const enc = (k) => k.split('/').map(encodeURIComponent).join('/');
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const f = files[next++];
      const key = (prefix ? prefix.replace(/\/?$/, '/') : '') + path.relative(dir, f).split(path.sep).join('/');
      await put(`/${bucket}/${enc(key)}`, fs.readFileSync(f));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  console.log(`uploaded ${files.length} objects`);
  agent.destroy();
})().catch((e) => { console.error(e.message); process.exit(1); });
