'use strict';
// What the attacks share: seated tables, refusals checked as documented, views that must
// not move, whole streams, the lobby page by page, and latency figures.

const crypto = require('node:crypto');
const { refusalProblem, codeName } = require('../api');
const { fail } = require('../truth');

const PLAY = 'ACTION_KIND_PLAY';
const TAKE_HAND = 'ACTION_KIND_TAKE_HAND';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const requestId = () => `attack-${crypto.randomBytes(8).toString('hex')}`;
const pick = (items) => items[crypto.randomInt(items.length)];

// A call that must succeed.
async function ok(ref, service, method, request, options = {}) {
  const result = await ref.call(service, method, request, options);
  if (result.err) {
    const e = result.err;
    fail(`${service}.${method} failed: ${e.codeName} ${e.info ? e.info.reason : ''} ${e.message}`);
  }
  return result.res;
}

// A call that must be refused with the documented code and reason; resolves to the refusal.
async function refused(what, promise, code, reason) {
  const result = await promise;
  if (!result.err) fail(`${what}: accepted (${JSON.stringify(result.res).slice(0, 200)}), expected ${code} ${reason}`);
  const problem = refusalProblem(result.err, code, reason);
  if (problem) fail(`${what}: ${problem}`);
  return result.err;
}

// A table with every seat joined, each with its own credential; started unless start=false.
async function seatTable(ref, { rules = 'pickup', seats = 3, hands = 0, start = true } = {}) {
  const created = await ok(ref, 'TableService', 'CreateTable', { ruleset_id: rules, seat_count: seats, hands });
  const tableId = created.table.table_id;
  const players = [];
  for (let i = 0; i < seats; i++) {
    const joined = await ok(ref, 'TableService', 'JoinTable', { table_id: tableId, player_name: `attack-${i}` });
    players[joined.seat] = { seat: joined.seat, token: joined.seat_token };
  }
  if (start) await ok(ref, 'TableService', 'StartTable', { table_id: tableId }, { token: players[0].token });
  return { tableId, players };
}

// GetView of a seat (-1: a spectator).
function view(ref, table, seat) {
  const token = seat >= 0 ? table.players[seat].token : undefined;
  return ok(ref, 'PlayService', 'GetView', { table_id: table.tableId }, { token });
}

// The seat the game waits for, and its GetView (seq, legal actions).
async function onTurn(ref, table) {
  const turn = (await view(ref, table, -1)).view.turn;
  if (turn < 0) fail(`table ${table.tableId} waits for nobody`);
  return { turn, seen: await view(ref, table, turn) };
}

// Fails unless the seat's GetView is what it was: the refused request changed nothing.
async function unchanged(ref, table, seat, before, what) {
  const now = await view(ref, table, seat);
  if (JSON.stringify(now) !== JSON.stringify(before)) fail(`${what} changed the table (seq ${before.seq} -> ${now.seq})`);
}

// A random legal action of the seat on turn (never taking a hand, unless that is all).
function randomMove(seatView) {
  const legal = seatView.legal_actions;
  if (!legal.length) fail(`seat ${seatView.seat} is on turn without a legal action`);
  const moves = legal.filter((a) => a.kind !== TAKE_HAND);
  return pick(moves.length ? moves : legal);
}

function actionRequest(table, action, seq) {
  return { table_id: table.tableId, action, request_id: requestId(), expected_seq: seq };
}

// SubmitAction with a seat's own credential; resolves to {res} or {err}.
function submit(ref, table, seat, request) {
  return ref.call('PlayService', 'SubmitAction', request, { token: table.players[seat].token });
}

// One random legal action of the seat on turn; resolves to the SubmitAction answer.
async function step(ref, table) {
  const { turn, seen } = await onTurn(ref, table);
  const result = await submit(ref, table, turn, actionRequest(table, randomMove(seen.view), seen.seq));
  if (result.err) fail(`a legal action was refused: ${result.err.codeName} ${result.err.info && result.err.info.reason}`);
  return result.res;
}

// Random legal actions until the session is over; resolves to the number played.
async function playToEnd(ref, table, most = 5000) {
  for (let played = 1; played <= most; played++) {
    const answer = await step(ref, table);
    if (answer.events.some((e) => e.kind === 'session_over')) return played;
  }
  return fail(`table ${table.tableId}: no SessionOver after ${most} actions`);
}

// Every message of a WatchTable stream until it ends, with the status it ended with (never
// rejects: a stream still open after `timeoutMs` is cancelled and ends with code null).
function watchAll(ref, tableId, afterSeq, token, timeoutMs = 30000) {
  return new Promise((resolve) => {
    const items = [];
    const call = ref.watch({ table_id: tableId, after_seq: afterSeq }, token);
    const timer = setTimeout(() => {
      resolve({ items, code: null, codeName: 'no end', details: `still open after ${timeoutMs / 1000} s` });
      call.cancel();
    }, timeoutMs);
    call.on('data', (item) => items.push(item));
    call.on('error', () => {}); // the status below says how it ended
    call.on('status', (status) => {
      clearTimeout(timer);
      resolve({ items, code: status.code, codeName: codeName(status.code), details: status.details, metadata: status.metadata });
    });
  });
}

// Every page of ListTables (raw bytes, to see each answer's size on the wire).
async function walkTables(ref, pageSize, filters = {}) {
  const Request = ref.type('ListTablesRequest');
  const Response = ref.type('ListTablesResponse');
  const pages = [];
  let token = '';
  do {
    const bytes = Buffer.from(Request.encode(Request.fromObject({ ...filters, page_size: pageSize, page_token: token })).finish());
    const result = await ref.callRaw('TableService', 'ListTables', bytes);
    if (result.err) fail(`ListTables page ${pages.length + 1}: ${result.err.codeName} ${result.err.message}`);
    const page = Response.toObject(Response.decode(result.res), { defaults: true, enums: String });
    pages.push({ bytes: result.res.length, tables: page.tables, next: page.next_page_token });
    token = page.next_page_token;
    if (pages.length > 1000) fail('ListTables gave more than 1,000 pages');
  } while (token);
  return pages;
}

// The q-th percentile (nearest rank) of durations in milliseconds.
function percentile(ms, q) {
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((q / 100) * sorted.length) - 1)];
}

// Text from or for the referee, quoted with every control, bidi and zero-width character
// escaped, so that printing it cannot rewrite the terminal.
const quote = (text) => JSON.stringify(text).replace(/[\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g,
  (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const msText = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;

module.exports = {
  PLAY,
  sleep,
  requestId,
  ok,
  refused,
  seatTable,
  view,
  onTurn,
  unchanged,
  randomMove,
  actionRequest,
  submit,
  step,
  playToEnd,
  watchAll,
  walkTables,
  percentile,
  msText,
  quote,
};
