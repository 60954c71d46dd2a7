'use strict';
// Attacks 2 and 4: table settings that would make a table play itself or last forever, and
// player names that would rewrite other people's screens, are refused and change nothing.

const { fail } = require('../truth');
const { ok, refused, walkTables, quote } = require('./common');

async function openTableIds(ref) {
  const pages = await walkTables(ref, 200, { open_only: true });
  return pages.flatMap((p) => p.tables.map((t) => t.table_id)).sort();
}

// CreateTable with one bad setting: bad_table_settings naming the setting, no table made.
function badSetting(label, fields, says) {
  return async ({ ref }) => {
    const before = await openTableIds(ref);
    const e = await refused(label,
      ref.call('TableService', 'CreateTable', { ruleset_id: 'pickup', seat_count: 3, ...fields }),
      'INVALID_ARGUMENT', 'bad_table_settings');
    if (!e.message.includes(says)) fail(`${label}: the message ${quote(e.message)} does not say "${says}"`);
    const after = await openTableIds(ref);
    if (JSON.stringify(after) !== JSON.stringify(before)) fail(`${label}: the open tables changed from ${before.length} to ${after.length}`);
    return `INVALID_ARGUMENT bad_table_settings ${quote(e.message)}, no table created`;
  };
}

const NAMES = [
  ['player_name_newline', 'two\nlines'],
  ['player_name_escape', '\x1b[2J\x1b[Hgone'],
  ['player_name_bidi', 'rtl\u202eevil'],
  ['player_name_41', 'x'.repeat(41)],
];
const FORTY = 'Ñandú Rao-'.repeat(4); // 40 characters, some of them not ASCII

// An open table for the name checks (made once, shared by them).
async function nameTable(ctx) {
  if (!ctx.nameTable) {
    const created = await ok(ctx.ref, 'TableService', 'CreateTable', { ruleset_id: 'pickup', seat_count: 3 });
    ctx.nameTable = created.table.table_id;
  }
  return ctx.nameTable;
}

function badName(label, name) {
  return async (ctx) => {
    const { ref } = ctx;
    const tableId = await nameTable(ctx);
    const before = (await ok(ref, 'TableService', 'GetTable', { table_id: tableId })).table;
    const e = await refused(label, ref.call('TableService', 'JoinTable', { table_id: tableId, player_name: name }),
      'INVALID_ARGUMENT', 'bad_player_name');
    const after = (await ok(ref, 'TableService', 'GetTable', { table_id: tableId })).table;
    if (JSON.stringify(after) !== JSON.stringify(before)) fail(`${label}: the table changed: ${JSON.stringify(after.seats)}`);
    return `INVALID_ARGUMENT bad_player_name for ${quote(name)}, no seat taken`;
  };
}

async function fortyCharacters(ctx) {
  const { ref } = ctx;
  const tableId = await nameTable(ctx);
  const joined = await ok(ref, 'TableService', 'JoinTable', { table_id: tableId, player_name: FORTY });
  const shown = joined.table.seats[joined.seat].player_name;
  if (shown !== FORTY) fail(`a 40-character name became ${quote(shown)}`);
  const listed = (await ok(ref, 'TableService', 'GetTable', { table_id: tableId })).table.seats[joined.seat].player_name;
  if (listed !== FORTY) fail(`GetTable shows the 40-character name as ${quote(listed)}`);
  ctx.foreignToken = joined.seat_token; // a real credential, of another table than the one in play
  return `seat ${joined.seat} taken as ${quote(FORTY)} (${[...FORTY].length} characters), shown as given`;
}

module.exports = [
  { name: 'turn_time_1ns', run: badSetting('turn_time_1ns', { turn_time: { seconds: 0, nanos: 1 } }, '1 to 86400 seconds') },
  { name: 'turn_time_0.5s', run: badSetting('turn_time_0.5s', { turn_time: { seconds: 0, nanos: 500000000 } }, '1 to 86400 seconds') },
  { name: 'hands_100000', run: badSetting('hands_100000', { hands: 100000 }, 'hands must be') },
  ...NAMES.map(([name, text]) => ({ name, run: badName(name, text) })),
  { name: 'player_name_40', run: fortyCharacters },
];
