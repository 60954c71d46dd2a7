'use strict';
// Attack 3: CreateTable needs no credential, so a client could fill the lobby as fast as it
// can send. After a burst the referee refuses with `create_rate_limited` and a RetryInfo
// delay (nothing created), a player elsewhere is not held up, and the lobby stays listable
// a page at a time.

const { fail } = require('../truth');
const { ok, sleep, step, walkTables } = require('./common');

const CALLS = 200;
const PAGE = 50;
const MAX_PAGE_BYTES = 1 << 20; // a page of tables is a few kB; gRPC's default limit is 4 MiB

const idsOf = (pages) => pages.flatMap((p) => p.tables.map((t) => t.table_id));

async function createFlood(ctx) {
  const { ref, bystander } = ctx;
  const openBefore = idsOf(await walkTables(ref, 200, { open_only: true }));
  const request = { ruleset_id: 'pickup', seat_count: 3 };
  let playerCalls = 0;
  let flooding = true;
  const player = (async () => { // another client's calls while the flood lasts
    while (flooding) {
      await ok(ref, 'PlayService', 'GetView', { table_id: bystander.tableId }, { token: bystander.players[0].token });
      playerCalls += 1;
    }
  })();
  const results = await Promise.all(Array.from({ length: CALLS }, () => ref.call('TableService', 'CreateTable', request)));
  flooding = false;
  await player;

  const made = results.filter((r) => r.res).map((r) => r.res.table.table_id);
  const refusals = results.filter((r) => r.err).map((r) => r.err);
  for (const e of refusals) {
    if (e.codeName !== 'RESOURCE_EXHAUSTED' || !e.info || e.info.reason !== 'create_rate_limited') {
      fail(`a flooding CreateTable got ${e.codeName} ${e.info ? e.info.reason : ''}: ${e.message}`);
    }
  }
  if (!refusals.length) fail(`all ${CALLS} CreateTable calls were accepted`);
  if (!made.length) fail('no CreateTable call was accepted, not even the burst');
  const first = refusals[0];
  if (!(first.retryMs > 0)) fail('create_rate_limited carries no google.rpc.RetryInfo delay');
  if (first.info.metadata.retry_ms !== String(Math.round(first.retryMs))) {
    fail(`RetryInfo says ${first.retryMs} ms, ErrorInfo metadata retry_ms ${first.info.metadata.retry_ms}`);
  }
  const openAfter = idsOf(await walkTables(ref, 200, { open_only: true }));
  const expected = [...openBefore, ...made].sort();
  if (JSON.stringify([...openAfter].sort()) !== JSON.stringify(expected)) {
    fail(`the open tables are ${openAfter.length}, expected ${expected.length} (${openBefore.length} before, ${made.length} accepted)`);
  }
  // The wait told is the truth: after it, one more table can be created.
  const longest = Math.max(...refusals.map((e) => e.retryMs));
  await sleep(longest + 50);
  const after = await ref.call('TableService', 'CreateTable', request);
  if (after.err) fail(`after waiting the ${longest} ms told, CreateTable was refused again: ${after.err.info && after.err.info.reason}`);
  await step(ref, bystander); // the player's table still plays
  ctx.flooded = [...made, after.res.table.table_id];
  return `${CALLS} calls at once: ${made.length} created, ${refusals.length} RESOURCE_EXHAUSTED create_rate_limited ` +
    `with RetryInfo (first ${first.retryMs} ms), nothing else created; one more after waiting ${longest} ms; ` +
    `a player's ${playerCalls} GetView calls during the flood and a move after it all answered`;
}

async function listTablesPaged(ctx) {
  const { ref } = ctx;
  const pages = await walkTables(ref, PAGE);
  const ids = idsOf(pages);
  if (pages.length < 2) fail(`ListTables with page_size ${PAGE} of ${ids.length} tables gave one page`);
  if (pages[0].tables.length !== PAGE || !pages[0].next) fail(`the first page has ${pages[0].tables.length} tables, next_page_token ${JSON.stringify(pages[0].next)}`);
  if (pages.some((p) => p.tables.length > PAGE)) fail(`a page has more than ${PAGE} tables`);
  if (new Set(ids).size !== ids.length) fail(`walking the pages gave ${ids.length} tables, ${new Set(ids).size} distinct`);
  const missing = (ctx.flooded || []).filter((id) => !ids.includes(id));
  if (missing.length) fail(`${missing.length} tables created in the flood are on no page`);
  const biggest = Math.max(...pages.map((p) => p.bytes));
  if (biggest >= MAX_PAGE_BYTES) fail(`a ListTables answer is ${biggest} bytes`);
  const capped = (await walkTables(ref, 1000)).map((p) => p.tables.length);
  if (capped.some((n) => n > 200)) fail(`page_size 1000 gave a page of ${Math.max(...capped)} tables, not at most 200`);
  return `${pages.length} pages of at most ${PAGE} (${pages.map((p) => p.tables.length).join('+')} = ${ids.length} tables, each once), ` +
    `largest answer ${(biggest / 1024).toFixed(1)} KiB; page_size 1000 read as at most 200 (${capped.join('+')})`;
}

module.exports = [
  { name: 'create_flood', run: createFlood },
  { name: 'list_tables_paged', run: listTablesPaged },
];
