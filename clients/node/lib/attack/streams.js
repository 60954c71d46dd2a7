'use strict';
// Attacks 5 and 6. A stream of a finished session must end (with OK) rather than hang, and
// give the whole history, also long after, when the referee has let the table go and reads
// it back from its store. Server reflection must answer under both names tools ask by.

const { fail } = require('../truth');
const { ok, sleep, seatTable, playToEnd, watchAll, walkTables } = require('./common');

// An event as text for comparisons; time_left depends on when it was sent.
function canon(event) {
  const { time_left: _ignored, ...rest } = event;
  return JSON.stringify(rest);
}

// A stream that must have ended with OK and carried every event 1..last, in order.
function wholeHistory(what, watched, last) {
  if (watched.code !== 0) fail(`${what} ended with ${watched.codeName} ${watched.details}, not OK`);
  const events = watched.items.filter((i) => i.item === 'event').map((i) => i.event);
  const seqs = events.map((e) => e.seq);
  const gaps = seqs.filter((q, i) => q !== i + 1);
  if (seqs.length !== last || gaps.length) fail(`${what}: ${seqs.length} events for seqs 1..${last}, out of place: ${gaps.slice(0, 5)}`);
  if (events[last - 1].kind !== 'session_over') fail(`${what}: the last event is ${events[last - 1].kind}`);
  return events;
}

async function watchFinished(ctx) {
  const { ref } = ctx;
  const table = await seatTable(ref, { rules: 'pickup', seats: 3, hands: 1, start: false });
  const liveSpectator = watchAll(ref, table.tableId, 0, undefined, 120000);
  const liveSeat = watchAll(ref, table.tableId, 0, table.players[0].token, 120000);
  await ok(ref, 'TableService', 'StartTable', { table_id: table.tableId }, { token: table.players[0].token });
  const actions = await playToEnd(ref, table);
  const ended = (await ok(ref, 'TableService', 'GetTable', { table_id: table.tableId })).table;
  if (ended.status !== 'TABLE_STATUS_FINISHED') fail(`after SessionOver the table is ${ended.status}`);
  const last = ended.last_seq;
  const spectator = wholeHistory('the live spectator stream', await liveSpectator, last);
  const seat = wholeHistory("seat 0's live stream", await liveSeat, last);
  const fresh = wholeHistory('a new spectator stream from 0', await watchAll(ref, table.tableId, 0, undefined), last);
  fresh.forEach((e, i) => {
    if (canon(e) !== canon(spectator[i])) fail(`a new stream's seq ${e.seq} differs from the live one's`);
  });
  ctx.finished = { table, last, spectator, seat, at: Date.now() };
  return `a 1-hand pickup session of ${actions} random legal actions: the live streams of a spectator and a seat ` +
    `and a new one from after_seq 0 ended with OK after seqs 1..${last}, no gap, SessionOver last`;
}

async function watchFinishedLater(ctx) {
  const { ref, opts } = ctx;
  if (!ctx.finished) fail('needs watch_finished first');
  const { table, last, spectator, seat, at } = ctx.finished;
  await sleep(Math.max(0, at + opts.later * 1000 - Date.now()));
  const listed = (await walkTables(ref, 200)).some((p) => p.tables.some((t) => t.table_id === table.tableId));
  const where = listed ? 'still held in memory (listed)' : 'let go of (no longer in ListTables), so read back from the store';
  const checks = [
    ['a spectator stream from 0', undefined, spectator],
    ["seat 0's stream from 0", table.players[0].token, seat],
  ];
  for (const [what, token, before] of checks) {
    const events = wholeHistory(`${what}, ${opts.later} s later`, await watchAll(ref, table.tableId, 0, token), last);
    events.forEach((e, i) => {
      if (canon(e) !== canon(before[i])) fail(`${what}, ${opts.later} s later: seq ${e.seq} differs from the live stream's`);
    });
  }
  return `${opts.later} s after the end, the table ${where}: a spectator's and a seat's new streams ` +
    `ended with OK after the same events 1..${last}`;
}

// list_services through grpc.reflection.<version>.ServerReflection: the names listed.
function listServices(ref, version) {
  return new Promise((resolve) => {
    const call = ref.reflection(version).ServerReflectionInfo({ deadline: Date.now() + 15000 });
    let answer = null;
    call.on('data', (response) => {
      answer = response;
      call.end();
    });
    call.on('error', (err) => resolve({ err }));
    call.on('end', () => resolve({ answer }));
    call.write({ host: '', list_services: '' });
  });
}

function reflection(version) {
  const wanted = ['bhabhi.referee.v1.RulesetService', 'bhabhi.referee.v1.TableService', 'bhabhi.referee.v1.PlayService'];
  return async ({ ref }) => {
    const { err, answer } = await listServices(ref, version);
    if (err) fail(`grpc.reflection.${version}.ServerReflection: ${ref.refusal(err).codeName} ${err.details}`);
    if (!answer || answer.message_response !== 'list_services_response') {
      fail(`grpc.reflection.${version}.ServerReflection answered ${JSON.stringify(answer).slice(0, 200)}`);
    }
    const names = answer.list_services_response.service.map((s) => s.name);
    const missing = wanted.filter((n) => !names.includes(n));
    if (missing.length) fail(`grpc.reflection.${version}.ServerReflection does not list ${missing.join(', ')}`);
    return `grpc.reflection.${version}.ServerReflection list_services: ${names.join(', ')}`;
  };
}

module.exports = [
  { name: 'watch_finished', run: watchFinished },
  { name: 'watch_finished_later', run: watchFinishedLater },
  { name: 'reflection_v1', run: reflection('v1') },
  { name: 'reflection_v1alpha', run: reflection('v1alpha') },
];
