'use strict';
// Attacks 7 and 8, on the table in play: refusals of SubmitAction say exactly what is wrong
// (an unknown action kind by its number, the seat to move), and the attacks that were
// refused before still are: a forged or another table's credential, a stale seq, a retried
// request_id, bytes that are no message. Each changes nothing at the table.

const { fail } = require('../truth');
const {
  PLAY, refused, requestId, onTurn, unchanged, randomMove, actionRequest, submit, view, watchAll, seatTable, quote,
} = require('./common');

const GARBAGE = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]);

function rawSubmit(ref, table, bytes, token) {
  return ref.callRaw('PlayService', 'SubmitAction', bytes, { token });
}

async function unknownKind({ ref, bystander: table }) {
  const { turn, seen } = await onTurn(ref, table);
  const request = { table_id: table.tableId, action: { kind: 99, card: 'AS' }, request_id: requestId(), expected_seq: seen.seq };
  const e = await refused('action kind 99', rawSubmit(ref, table, ref.encodeSubmit(request), table.players[turn].token),
    'INVALID_ARGUMENT', 'bad_action');
  if (!e.message.includes('99') || e.message.includes('not set')) fail(`bad_action for kind 99 says ${quote(e.message)}`);
  await unchanged(ref, table, turn, seen, 'action kind 99');
  return `INVALID_ARGUMENT bad_action ${quote(e.message)}, the table unchanged`;
}

async function notYourTurn({ ref, bystander: table }) {
  const { turn, seen } = await onTurn(ref, table);
  const waiting = table.players.map((p) => p.seat).filter((s) => s !== turn);
  for (const seat of waiting) {
    const mine = await view(ref, table, seat);
    if (mine.view.to_act.includes(seat) || !mine.view.hand.length) continue;
    const request = actionRequest(table, { kind: PLAY, card: mine.view.hand[0] }, mine.seq);
    const e = await refused(`seat ${seat} out of turn`, submit(ref, table, seat, request), 'FAILED_PRECONDITION', 'not_your_turn');
    if (e.info.metadata.turn !== String(turn)) fail(`not_your_turn metadata turn is ${quote(e.info.metadata.turn)}, seat ${turn} is to move`);
    if (!e.message.includes(`seat ${turn}`)) fail(`not_your_turn says ${quote(e.message)}, not naming seat ${turn}`);
    await unchanged(ref, table, turn, seen, 'playing out of turn');
    return `seat ${seat} playing: FAILED_PRECONDITION not_your_turn, ErrorInfo metadata turn=${e.info.metadata.turn} (the seat to move), ${quote(e.message)}`;
  }
  return fail('no seat but the one on turn holds a card and waits');
}

// A WatchTable that must be refused: resolves like a unary call (a stream that ends with
// OK, or stays open, was accepted).
async function watchRefusal(ref, table, token) {
  const watched = await watchAll(ref, table.tableId, 0, token, 15000);
  if (watched.code === 0 || watched.code === null) return { res: `a stream of ${watched.items.length} messages` };
  return { err: ref.refusal(watched) };
}

async function forged({ ref, bystander: table }) {
  const { turn, seen } = await onTurn(ref, table);
  const real = table.players[turn].token;
  const token = real.slice(0, -1) + (real.endsWith('A') ? 'B' : 'A');
  const request = actionRequest(table, randomMove(seen.view), seen.seq);
  await refused('a forged credential (SubmitAction)', ref.call('PlayService', 'SubmitAction', request, { token }), 'UNAUTHENTICATED', 'bad_credential');
  await refused('a forged credential (GetView)', ref.call('PlayService', 'GetView', { table_id: table.tableId }, { token }), 'UNAUTHENTICATED', 'bad_credential');
  await refused('a forged credential (WatchTable)', watchRefusal(ref, table, token), 'UNAUTHENTICATED', 'bad_credential');
  await unchanged(ref, table, turn, seen, 'a forged credential');
  return 'the seat on turn\'s credential with its last character changed: UNAUTHENTICATED bad_credential on SubmitAction, GetView and WatchTable, the table unchanged';
}

async function stolen(ctx) {
  const { ref, bystander: table } = ctx;
  if (!ctx.foreignToken) {
    const other = await seatTable(ref, { seats: 3, start: false });
    ctx.foreignToken = other.players[0].token;
  }
  const token = ctx.foreignToken;
  const { turn, seen } = await onTurn(ref, table);
  const request = actionRequest(table, randomMove(seen.view), seen.seq);
  await refused('another table\'s credential (SubmitAction)', ref.call('PlayService', 'SubmitAction', request, { token }), 'UNAUTHENTICATED', 'bad_credential');
  await refused('another table\'s credential (GetView)', ref.call('PlayService', 'GetView', { table_id: table.tableId }, { token }), 'UNAUTHENTICATED', 'bad_credential');
  await unchanged(ref, table, turn, seen, 'another table\'s credential');
  return 'a real seat credential of another table: UNAUTHENTICATED bad_credential on SubmitAction and GetView, the table unchanged';
}

async function staleSeq({ ref, bystander: table }) {
  const { turn, seen } = await onTurn(ref, table);
  const action = randomMove(seen.view);
  for (const seq of [seen.seq - 1, seen.seq + 3]) {
    const e = await refused(`expected_seq ${seq} at seq ${seen.seq}`, submit(ref, table, turn, actionRequest(table, action, seq)),
      'ABORTED', 'stale_seq');
    if (e.info.metadata.last_seq !== String(seen.seq)) fail(`stale_seq metadata last_seq ${e.info.metadata.last_seq}, the table is at ${seen.seq}`);
  }
  await unchanged(ref, table, turn, seen, 'a stale expected_seq');
  return `expected_seq ${seen.seq - 1} and ${seen.seq + 3} at seq ${seen.seq}: ABORTED stale_seq, metadata last_seq=${seen.seq}, the table unchanged`;
}

async function retried({ ref, bystander: table }) {
  const { turn, seen } = await onTurn(ref, table);
  const action = randomMove(seen.view);
  const request = actionRequest(table, action, seen.seq);
  const first = await submit(ref, table, turn, request);
  if (first.err) fail(`a legal action was refused: ${first.err.codeName} ${first.err.info && first.err.info.reason}`);
  const again = await submit(ref, table, turn, request);
  if (again.err) fail(`the retry was refused: ${again.err.codeName} ${again.err.info && again.err.info.reason}`);
  if (JSON.stringify(again.res) !== JSON.stringify(first.res)) fail('the retry got another answer than the first');
  const now = await view(ref, table, turn);
  if (now.seq !== first.res.last_seq) fail(`after the retry the table is at seq ${now.seq}, the action ended at ${first.res.last_seq}`);
  const other = action.kind === PLAY ? { kind: 'ACTION_KIND_PICK_UP', card: '' } : { kind: PLAY, card: 'AS' };
  await refused('the same request_id with another action',
    submit(ref, table, turn, { ...request, action: other, expected_seq: now.seq }),
    'INVALID_ARGUMENT', 'request_id_reused');
  await unchanged(ref, table, turn, now, 'a reused request_id');
  const events = first.res.events.length;
  return `a move sent twice with one request_id: the same answer (${events} event${events === 1 ? '' : 's'} to seq ${first.res.last_seq}), ` +
    'applied once; the id with another action: INVALID_ARGUMENT request_id_reused';
}

async function garbage({ ref, bystander: table }) {
  const { turn, seen } = await onTurn(ref, table);
  await refused('undecodable bytes', rawSubmit(ref, table, GARBAGE, table.players[turn].token), 'INVALID_ARGUMENT', 'bad_request');
  await unchanged(ref, table, turn, seen, 'undecodable bytes');
  return `${GARBAGE.length} bytes that are no SubmitActionRequest: INVALID_ARGUMENT bad_request, the table unchanged`;
}

module.exports = [
  { name: 'unknown_action_kind', run: unknownKind },
  { name: 'not_your_turn_turn', run: notYourTurn },
  { name: 'forged_credential', run: forged },
  { name: 'stolen_credential', run: stolen },
  { name: 'stale_seq', run: staleSeq },
  { name: 'retried_request_id', run: retried },
  { name: 'garbage_bytes', run: garbage },
];
