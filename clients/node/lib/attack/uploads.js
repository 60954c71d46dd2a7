'use strict';
// Attack 1: large hostile rulesets uploaded back to back by several clients must be turned
// away cheaply (a `too_many_nodes` problem, or `validation_busy` or `upload_rate_limited`), change nothing, and not
// stall a player's calls. The player's GetView latency is measured without the uploads and
// during them, and printed; it is not judged (time depends on the machine).

const path = require('node:path');
const { Worker } = require('node:worker_threads');
const { fail } = require('../truth');
const { ok, percentile, msText } = require('./common');

const UPLOADERS = 4;
const KEYS = 20000;

// 20,000 plain keys: 258 kB, under the 256 KiB upload limit, far over 1,000 values.
function hostileRuleset(keys = KEYS) {
  return `id: x\n${Array.from({ length: keys }, (_, i) => `k${i}: ${i}\n`).join('')}`;
}

// GetView of a seated player back to back for `seconds`: each call's latency in ms.
async function measure(ref, table, seconds) {
  const times = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    const start = process.hrtime.bigint();
    const result = await ref.call('PlayService', 'GetView', { table_id: table.tableId }, { token: table.players[0].token });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (result.err) fail(`a player's GetView failed during the uploads: ${result.err.codeName} ${result.err.message}`);
  }
  return times;
}

const figures = (times) => `p50 ${msText(percentile(times, 50))}, p99 ${msText(percentile(times, 99))} (${times.length} calls)`;

function startUploaders(ctx, text) {
  const script = path.join(__dirname, 'uploader.js');
  return Array.from({ length: UPLOADERS }, () => {
    const worker = new Worker(script, { workerData: { target: ctx.opts.target, proto: ctx.opts.proto, text } });
    const ready = new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    return { worker, ready };
  });
}

function tallyOf(uploader) {
  return new Promise((resolve, reject) => {
    uploader.worker.once('message', resolve);
    uploader.worker.once('error', reject);
    uploader.worker.postMessage('stop');
  });
}

async function validateFlood(ctx) {
  const { ref, bystander, opts } = ctx;
  const text = hostileRuleset();
  const before = await ok(ref, 'PlayService', 'GetView', { table_id: bystander.tableId }, { token: bystander.players[0].token });
  const rulesets = await ok(ref, 'RulesetService', 'ListRulesets', {});
  const uploaders = startUploaders(ctx, text);
  let tallies;
  let quiet;
  let loud;
  try {
    await Promise.all(uploaders.map((u) => u.ready));
    quiet = await measure(ref, bystander, opts.seconds);
    for (const u of uploaders) u.worker.postMessage('go');
    loud = await measure(ref, bystander, opts.seconds);
    tallies = await Promise.all(uploaders.map(tallyOf));
  } finally {
    await Promise.all(uploaders.map((u) => u.worker.terminate()));
  }
  const crashed = tallies.find((t) => t.crashed);
  if (crashed) fail(`an uploader crashed: ${crashed.crashed}`);
  const unexpected = tallies.flatMap((t) => t.unexpected);
  if (unexpected.length) fail(`${unexpected.length} uploads got another answer than too_many_nodes, validation_busy or upload_rate_limited, first: ${unexpected[0]}`);
  const codes = {};
  for (const t of tallies) for (const [code, n] of Object.entries(t.codes)) codes[code] = (codes[code] || 0) + n;
  if (codes.too_many_aliases) fail(`${codes.too_many_aliases} uploads were reported as too_many_aliases`);
  const answers = tallies.reduce((n, t) => n + t.answers, 0);
  const busy = tallies.reduce((n, t) => n + t.busy, 0);
  if (!answers) fail('no upload was answered');
  const after = await ok(ref, 'PlayService', 'GetView', { table_id: bystander.tableId }, { token: bystander.players[0].token });
  if (JSON.stringify(after) !== JSON.stringify(before)) fail('the uploads changed the table in play');
  const rulesetsAfter = await ok(ref, 'RulesetService', 'ListRulesets', {});
  if (JSON.stringify(rulesetsAfter) !== JSON.stringify(rulesets)) fail('the uploads changed the hosted rulesets');
  return `${UPLOADERS} clients sent ${(text.length / 1000).toFixed(0)} kB of ${KEYS} keys ${answers} times in ${opts.seconds} s: ` +
    `${codes.too_many_nodes || 0} too_many_nodes, ${busy} refused with a delay (validation_busy, upload_rate_limited); ` +
    `GetView without the uploads ${figures(quiet)}, during them ${figures(loud)}`;
}

module.exports = [{ name: 'validate_flood', run: validateFlood }];
