#!/usr/bin/env node
'use strict';
// The attacks found earlier against the referee, repeated from outside, from proto/ alone.
//
//   node attack.js --target HOST:PORT [--seconds S] [--later S] [--only NAME,...]
//
// Each check prints one line, `ok <name>: <what was observed>` or `FAIL <name>: <why>`, and
// the exit status is 1 if any failed. Run it against a referee that is NOT in test mode
// (test mode switches the CreateTable limit off) and that nobody else uses at the time: the
// flood uses up this address's CreateTable allowance for a while. See README.md.

const path = require('node:path');
const { Referee, exitWithUsage } = require('./lib/api');
const { CheckFailure } = require('./lib/truth');
const { seatTable } = require('./lib/attack/common');

// In the order they run: the CreateTable flood last, since it spends the allowance the
// others need to create their tables.
const CHECKS = [
  ...require('./lib/attack/uploads'),
  ...require('./lib/attack/tables'),
  ...require('./lib/attack/streams'),
  ...require('./lib/attack/actions'),
  ...require('./lib/attack/flood'),
];

function parseArgs(argv) {
  const opts = {
    target: '127.0.0.1:50051',
    proto: path.resolve(__dirname, '..', '..', 'proto'),
    seconds: 3,
    later: 3,
    only: null,
    timeout: 300,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      return argv[++i];
    };
    switch (arg) {
      case '--target': opts.target = value(); break;
      case '--proto': opts.proto = path.resolve(value()); break;
      case '--seconds': opts.seconds = Number(value()); break;
      case '--later': opts.later = Number(value()); break;
      case '--only': opts.only = value().split(','); break;
      case '--timeout': opts.timeout = Number(value()); break;
      case '--help': case '-h': usage(null); break;
      default: usage(`unknown argument ${arg}`);
    }
  }
  if (!(opts.seconds > 0)) usage('--seconds must be above 0');
  if (!(opts.later >= 0)) usage('--later must be 0 or more');
  const names = CHECKS.map((c) => c.name);
  const unknown = (opts.only || []).filter((n) => !names.includes(n));
  if (unknown.length) usage(`no check named ${unknown.join(', ')} (checks: ${names.join(', ')})`);
  return opts;
}

function usage(problem) {
  exitWithUsage('usage: node attack.js --target HOST:PORT [--proto DIR] [--seconds S] [--later S] ' +
    '[--only NAME,...] [--timeout SECONDS]', problem);
}

// A line of output is one line, whatever the text.
const oneLine = (text) => String(text).replace(/\s*\n\s*/g, ' | ');

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const watchdog = setTimeout(() => {
    console.log(`FAIL timeout: the checks did not finish within ${opts.timeout} s`);
    process.exit(1);
  }, opts.timeout * 1000);
  const ref = new Referee(opts.target, opts.proto);
  let failed = 0;
  let bystander;
  try {
    // A table in play that the attacks must not disturb (and the one they act on).
    bystander = await seatTable(ref, { rules: 'pickup', seats: 3 });
  } catch (err) {
    console.log(`FAIL setup: ${oneLine(err instanceof CheckFailure ? err.message : err.stack)}`);
    process.exit(1);
  }
  const ctx = { ref, opts, bystander };
  for (const check of CHECKS) {
    if (opts.only && !opts.only.includes(check.name)) continue;
    try {
      console.log(`ok ${check.name}: ${oneLine(await check.run(ctx))}`);
    } catch (err) {
      failed += 1;
      console.log(`FAIL ${check.name}: ${oneLine(err instanceof CheckFailure ? err.message : err.stack)}`);
    }
  }
  clearTimeout(watchdog);
  ref.close();
  process.exit(failed ? 1 : 0);
}

main();
