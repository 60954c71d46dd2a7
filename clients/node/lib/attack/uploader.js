'use strict';
// One hostile uploader, in a worker thread of its own with a connection of its own (so that
// the four uploaders and the client measuring GetView do not share an event loop): it
// sends the same large ruleset to ValidateRuleset back to back until told the time is up,
// and tallies the answers. A `validation_busy` or `upload_rate_limited` refusal is retried
// after its RetryInfo delay.

const { parentPort, workerData } = require('node:worker_threads');
const { Referee, refusalProblem } = require('../api');

async function upload() {
  const { target, proto, text } = workerData;
  const ref = new Referee(target, proto, { ownConnection: true });
  const tally = { answers: 0, codes: {}, busy: 0, unexpected: [] };
  let stop = false;
  parentPort.on('message', (message) => {
    if (message === 'stop') stop = true;
  });
  const go = new Promise((resolve) => parentPort.once('message', resolve));
  parentPort.postMessage('ready');
  await go;
  while (!stop) {
    const result = await ref.call('RulesetService', 'ValidateRuleset', { yaml: text, name: 'hostile.yaml' }, { deadlineMs: 60000 });
    tally.answers += 1;
    if (result.err) {
      const reason = result.err.info && result.err.info.reason === 'upload_rate_limited' ? 'upload_rate_limited' : 'validation_busy';
      const problem = refusalProblem(result.err, 'RESOURCE_EXHAUSTED', reason);
      if (problem) tally.unexpected.push(problem);
      else if (!(result.err.retryMs > 0)) tally.unexpected.push(`${reason} without a RetryInfo delay`);
      else {
        tally.busy += 1;
        await new Promise((resolve) => setTimeout(resolve, result.err.retryMs));
      }
      continue;
    }
    const codes = new Set(result.res.problems.map((p) => p.code));
    if (result.res.valid || !codes.has('too_many_nodes')) {
      tally.unexpected.push(`valid ${result.res.valid}, problem codes ${[...codes].join(', ') || '(none)'}`);
    }
    for (const code of codes) tally.codes[code] = (tally.codes[code] || 0) + 1;
  }
  ref.close();
  parentPort.postMessage(tally);
}

upload().catch((err) => parentPort.postMessage({ crashed: err.stack }));
