'use strict';
// Compares two `smtop report --json` outputs: same structure, same
// strings, integers exactly equal, floats equal to 1e-9 relative (the
// order in which parallel fetches complete changes the last bits of a
// floating-point sum, never a count). Keys listed after the files are
// ignored (e.g. "source").   node jsoncmp.js A.json B.json [IGNORED_KEY...]
const fs = require('fs');
const [a, b, ...ignored] = process.argv.slice(2);
const diffs = [];

function cmp(x, y, where) {
  if (typeof x === 'number' && typeof y === 'number') {
    const ok = Number.isInteger(x) && Number.isInteger(y) ? x === y
      : Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
    if (!ok) diffs.push(`${where}: ${x} != ${y}`);
  } else if (Array.isArray(x) && Array.isArray(y)) {
    if (x.length !== y.length) diffs.push(`${where}: length ${x.length} != ${y.length}`);
    else x.forEach((v, i) => cmp(v, y[i], `${where}[${i}]`));
  } else if (x && y && typeof x === 'object' && typeof y === 'object') {
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    for (const k of keys) if (!ignored.includes(k)) cmp(x[k], y[k], `${where}.${k}`);
  } else if (x !== y) {
    diffs.push(`${where}: ${JSON.stringify(x)} != ${JSON.stringify(y)}`);
  }
}

cmp(JSON.parse(fs.readFileSync(a, 'utf8')), JSON.parse(fs.readFileSync(b, 'utf8')), '$');
if (diffs.length) {
  console.log(diffs.slice(0, 20).join('\n'));
  process.exit(1);
}
