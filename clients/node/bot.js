#!/usr/bin/env node
'use strict';
// A bot for Bhabhi tables, written from proto/ alone: the example to copy for a bot in
// another language. It plays ONE seat given on its command line, or every seat handed to it
// while it waits:
//
//   node bot.js --target HOST:PORT --table ID --token TOKEN [--strategy lowest|random]
//               [--seed S] [--crash-after N] [--stall-after N] [--garbage-after N]
//   node bot.js --target HOST:PORT --await-key KEY [--max-seats N]
//               [--strategy lowest|random] [--seed S]
//
// One seat (--table, --token): someone else (`bhabhi arena`, or a person with `bhabhi
// join`) took the seat and holds the table; the bot gets the seat's credential. It watches
// the seat's stream, looks at its view whenever the seat may act, answers one of the view's
// own legal actions, and exits 0 once the session is over or the table closed. The
// --*-after options fail on purpose, for testing a tournament: exit 3 (crash), stop acting
// but stay connected (stall), or answer every turn with an action the referee refuses
// (garbage), each after N accepted actions.
//
// Seats handed (--await-key): the bot is connected already and waits under a secret key
// (TableService.AwaitSeats); whoever holds a seat and knows the key hands it over
// (HandSeat; `bhabhi arena` does, for an entrant NAME=bot:KEY). Each seat handed is played
// as the one seat above, several at once, for as long as the bot runs; with --max-seats N
// it stops waiting after N seats and exits once they are played: 0, or 1 if one failed.

const crypto = require('node:crypto');
const path = require('node:path');
const { Referee, exitWithUsage, grpc } = require('./lib/api');

const USAGE = `usage: node bot.js --target HOST:PORT --table ID --token TOKEN
       [--strategy lowest|random] [--seed S] [--proto DIR]
       [--crash-after N] [--stall-after N] [--garbage-after N]
   or: node bot.js --target HOST:PORT --await-key KEY [--max-seats N]
       [--strategy lowest|random] [--seed S] [--proto DIR]`;

// Refusals that mean the table moved on between the view and the action (the clock played
// for us, another seat's take came first): nothing to do but wait for the next event.
const MOVED_ON = new Set(['not_your_turn', 'take_hand_not_allowed', 'hand_over', 'table_not_playing', 'player_out']);
// The usual order of ranks, lowest first. A bot for an ace-low ruleset would read `deck`
// from GetRuleset instead; here it only orders the bot's own preferences.
const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
// A bot key: 16 to 128 printable ASCII characters, no spaces (else the referee's
// `bad_bot_key`).
const BOT_KEY = /^[\x21-\x7e]{16,128}$/;
// A wait for seats that drops is opened again, after 0.25 s doubling up to 2 s, at most
// this many times in a row (a `waiting` message starts the count afresh).
const WAIT_ATTEMPTS = 10;
const waitDelay = (drops) => Math.min(250 * 2 ** (drops - 1), 2000);

function parseArgs(argv) {
  const opts = {
    target: null,
    table: null,
    token: null,
    strategy: 'lowest',
    seed: null,
    proto: path.resolve(__dirname, '..', '..', 'proto'),
    crashAfter: null, // null: never
    stallAfter: null,
    garbageAfter: null,
    awaitKey: null, // null: play the one seat of --table and --token
    maxSeats: null, // null: wait for seats as long as the bot runs
  };
  const count = (arg, text) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) exitWithUsage(USAGE, `${arg} needs a count, not ${text}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : exitWithUsage(USAGE, `${arg} needs a value`));
    switch (arg) {
      case '--target': opts.target = value(); break;
      case '--table': opts.table = value(); break;
      case '--token': opts.token = value(); break;
      case '--strategy': opts.strategy = value(); break;
      case '--seed': opts.seed = value(); break;
      case '--proto': opts.proto = path.resolve(value()); break;
      case '--crash-after': opts.crashAfter = count(arg, value()); break;
      case '--stall-after': opts.stallAfter = count(arg, value()); break;
      case '--garbage-after': opts.garbageAfter = count(arg, value()); break;
      case '--await-key': opts.awaitKey = value(); break;
      case '--max-seats': opts.maxSeats = count(arg, value()); break;
      case '--help': case '-h': exitWithUsage(USAGE); break;
      default: exitWithUsage(USAGE, `unknown argument ${arg}`);
    }
  }
  if (opts.awaitKey !== null) {
    if (!opts.target) exitWithUsage(USAGE, '--target is needed');
    if (opts.table || opts.token) exitWithUsage(USAGE, '--await-key takes the place of --table and --token');
    if (!BOT_KEY.test(opts.awaitKey)) {
      exitWithUsage(USAGE, 'a bot key is 16 to 128 printable ASCII characters, without spaces');
    }
    if (opts.maxSeats === 0) exitWithUsage(USAGE, '--max-seats needs at least 1');
    if (opts.crashAfter !== null || opts.stallAfter !== null || opts.garbageAfter !== null) {
      exitWithUsage(USAGE, '--crash-after, --stall-after and --garbage-after are for one seat (--table)');
    }
  } else {
    if (!opts.target || !opts.table || !opts.token) exitWithUsage(USAGE, '--target, --table and --token are needed');
    if (opts.maxSeats !== null) exitWithUsage(USAGE, '--max-seats needs --await-key');
  }
  if (!['lowest', 'random'].includes(opts.strategy)) exitWithUsage(USAGE, `unknown strategy ${opts.strategy}`);
  return opts;
}

// A small seeded generator (mulberry32), so that `--seed S` replays the bot's choices.
function generator(seed) {
  let a = crypto.createHash('sha256').update(String(seed)).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A card's text is rank then suit (`10H`, `AS`), `/2` for a second pack's copy.
const suitOf = (card) => card.split('/')[0].slice(-1);
const rankOf = (card) => RANKS.indexOf(card.split('/')[0].slice(0, -1));

// `lowest`: shed the low cards while following, so that a high one is rarely the card
// that picks the trick up; when the seat cannot follow (a tochoo, a discard) get rid of
// its highest card; lead the lowest. Without a card to play (a pickup, a decision), the
// first action that is not a take: taking a hand is a chance, never required.
function chooseLowest(view) {
  const plays = view.legal_actions.filter((a) => a.kind === 'ACTION_KIND_PLAY');
  if (plays.length === 0) {
    return view.legal_actions.find((a) => a.kind !== 'ACTION_KIND_TAKE_HAND') || view.legal_actions[0];
  }
  const byRank = [...plays].sort((a, b) => rankOf(a.card) - rankOf(b.card));
  const following = byRank.filter((a) => view.led_suit && suitOf(a.card) === view.led_suit);
  if (following.length) return following[0];
  return view.led_suit ? byRank[byRank.length - 1] : byRank[0];
}

// An action the referee must refuse, never a legal one: in turn a card the seat does not
// hold (card_not_in_hand), an action kind the API does not have (bad_action), no card at
// all (bad_action).
function garbage(view, n) {
  const held = new Set(view.hand);
  const notHeld = RANKS.flatMap((r) => 'CDHS'.split('').map((s) => r + s)).find((c) => !held.has(c));
  return [{ kind: 'ACTION_KIND_PLAY', card: notHeld }, { kind: 99, card: '' }, { kind: 'ACTION_KIND_PLAY', card: '' }][n % 3];
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// One seat, played until the session is over. `opts` has the seat's table and token (and,
// when handed, its number), the strategy and seed, and the --*-after options. `run()` resolves once the session is over or
// the table closed, and rejects with the first problem (a refusal that is a bug, a stream
// that kept dropping), also one met deciding between events.
class Bot {
  constructor(referee, opts) {
    this.opts = opts;
    this.referee = referee;
    this.random = generator(opts.seed ?? crypto.randomUUID());
    this.seat = null;
    this.lastSeq = 0; // the latest event seen: where a dropped stream resumes
    this.decided = -1; // the seq of the latest view decided on: at most one decision each
    this.actions = 0; // accepted actions
    this.refused = {}; // the refusals of the garbage sent on purpose, by reason
    this.stalled = false;
    this.busy = null; // the decision in progress (one at a time)
    this.stream = null; // the WatchTable call in progress
    this.stopped = false; // run() is over: no more decisions, no more watching
    this.failed = new Promise((_, reject) => { this.fail = reject; });
  }

  call(method, request) {
    return this.referee.call('PlayService', method, request, { token: this.opts.token });
  }

  async run() {
    try {
      return await Promise.race([this.play(), this.failed]);
    } finally {
      this.stopped = true;
      if (this.stream) this.stream.cancel();
    }
  }

  async play() {
    const { res, err } = await this.call('GetView', { table_id: this.opts.table });
    if (err) throw new Error(`GetView: ${err.codeName} ${err.info ? err.info.reason : ''} ${err.message}`);
    // The seat: the offer's, else the view's (a table not started yet has no view).
    this.seat = this.opts.seat ?? res.view.seat;
    this.lastSeq = res.seq;
    this.failOnPurpose();
    await this.decide();
    for (let drops = 0; ; drops++) {
      const ended = await this.watch();
      if (ended || this.stopped) return this;
      // A dropped stream (the referee restarting, the network): watch again from the last
      // seq seen, which repeats nothing and loses nothing.
      if (drops >= 20) throw new Error('the stream kept dropping');
      await sleep(500);
    }
  }

  // One WatchTable stream until it ends: true once the session is over or the table closed.
  watch() {
    return new Promise((resolve) => {
      const call = this.referee.watch({ table_id: this.opts.table, after_seq: this.lastSeq }, this.opts.token);
      this.stream = call;
      let over = false;
      call.on('data', (message) => {
        if (message.item !== 'event') return; // this referee sends no Snapshot
        const event = message.event;
        this.lastSeq = Math.max(this.lastSeq, event.seq);
        if (event.kind === 'session_over' || event.kind === 'table_closed') over = true;
        else if (event.to_act.includes(this.seat)) this.schedule();
      });
      // The stream ends with OK only once the session is over (or the table closed) and
      // every event was sent; any other status is a drop to resume from.
      call.on('error', () => {}); // told again, with its code, by 'status'
      call.on('status', (status) => resolve(over || status.code === grpc.status.OK));
    });
  }

  // Decide after the decision in progress, if any: events come faster than a GetView.
  schedule() {
    if (this.stopped) return;
    const previous = this.busy || Promise.resolve();
    this.busy = previous.then(() => this.decide()).catch((e) => this.fail(e));
  }

  async decide() {
    for (let attempt = 0; attempt < 8; attempt++) {
      const { res, err } = await this.call('GetView', { table_id: this.opts.table });
      if (err) {
        if (err.info && MOVED_ON.has(err.info.reason)) return;
        throw new Error(`GetView: ${err.codeName} ${err.info ? err.info.reason : ''} ${err.message}`);
      }
      const { view, seq } = res;
      if (!view || seq <= this.decided) return; // decided on this position already
      this.decided = seq;
      // Act only for the seat the game waits for; a seat in `to_act` that is not `turn`
      // has only chances nobody waits for (taking a hand), which this bot lets pass.
      if (view.turn !== this.seat || view.legal_actions.length === 0 || this.stalled) return;
      if (this.opts.garbageAfter !== null && this.actions >= this.opts.garbageAfter) {
        return this.submitGarbage(view, seq);
      }
      const action = this.opts.strategy === 'random'
        ? view.legal_actions[Math.floor(this.random() * view.legal_actions.length)]
        : chooseLowest(view);
      const outcome = await this.submit(action, seq);
      if (outcome === 'stale_seq') continue; // the table moved on: look again, decide anew
      if (outcome === 'ok') {
        this.actions += 1;
        this.failOnPurpose();
      }
      return;
    }
  }

  // SubmitAction with a fresh request_id. A rate limit is waited out, and a call lost in
  // transit (or met by a draining referee, or replicas busy with the table) tried again,
  // with the very same request: the referee applies a request_id at most once and answers
  // a repeat with its first answer.
  async submit(action, seq) {
    const request = { table_id: this.opts.table, action, request_id: crypto.randomUUID(), expected_seq: seq };
    for (let lost = 0; ; ) {
      const { err } = await this.call('SubmitAction', request);
      if (!err) return 'ok';
      const reason = err.info ? err.info.reason : '';
      if (reason === 'rate_limited') {
        await sleep(err.retryMs ?? 100);
        continue;
      }
      const transient = ['UNAVAILABLE', 'DEADLINE_EXCEEDED'].includes(err.codeName) || reason === 'table_busy';
      if (transient && ++lost < 5) {
        await sleep(500);
        continue;
      }
      if (reason === 'stale_seq') return 'stale_seq';
      if (MOVED_ON.has(reason)) return 'moved_on';
      throw new Error(`SubmitAction ${JSON.stringify(action)}: ${err.codeName} ${reason} ${err.message}`);
    }
  }

  async submitGarbage(view, seq) {
    const sent = Object.values(this.refused).reduce((a, b) => a + b, 0);
    const action = garbage(view, sent);
    const { err } = await this.call('SubmitAction', {
      table_id: this.opts.table, action, request_id: crypto.randomUUID(), expected_seq: seq });
    if (!err) throw new Error(`the referee accepted garbage ${JSON.stringify(action)}`);
    const reason = err.info ? err.info.reason : err.codeName;
    this.refused[reason] = (this.refused[reason] || 0) + 1;
  }

  // --crash-after and --stall-after, checked after every accepted action.
  failOnPurpose() {
    if (this.opts.crashAfter !== null && this.actions >= this.opts.crashAfter) {
      console.error(`bot.js: crashing on purpose after ${this.actions} action(s) (--crash-after)`);
      process.exit(3);
    }
    if (this.opts.stallAfter !== null && this.actions >= this.opts.stallAfter) this.stalled = true;
  }

  summary() {
    const refused = Object.entries(this.refused).map(([reason, n]) => `${reason} x${n}`);
    return `seat ${this.seat}: ${this.actions} action(s); refused on purpose: ${refused.join(', ') || 'none'}`;
  }
}

function die(error) {
  console.error(`bot.js: ${error.message}`);
  process.exit(1);
}

// --table and --token: the one seat, then exit 0 (exit 1 on a problem).
async function playOneSeat(opts) {
  const referee = new Referee(opts.target, opts.proto);
  const bot = new Bot(referee, opts);
  await bot.run();
  console.log(bot.summary());
  // A stalled bot hangs on purpose, connected and silent, until someone stops it.
  if (bot.stalled) return setInterval(() => {}, 1 << 30);
  referee.close();
  process.exit(0);
}

// --await-key: wait for seats, and play each one handed in a Bot of its own, all on one
// connection. A line when the bot waits, one per seat handed, one per seat finished.
async function playHandedSeats(opts) {
  const referee = new Referee(opts.target, opts.proto);
  const playing = []; // one promise per seat handed, settled once it is played
  let handed = 0;
  let seatsFailed = 0;
  const playSeat = (offer) => {
    const where = `table ${offer.table_id}: ${offer.player_name} (seat ${offer.seat})`;
    // Each seat's choices from a seed of its own, so that two seats never play alike.
    const seed = opts.seed === null ? null : `${opts.seed}:${offer.table_id}:${offer.seat}`;
    const seat = { table: offer.table_id, token: offer.seat_token, seat: offer.seat, seed };
    const bot = new Bot(referee, { ...opts, ...seat });
    return bot.run().then(
      () => console.log(`${where}: ${bot.actions} action(s)`),
      (error) => {
        seatsFailed += 1;
        console.log(`${where}: failed: ${error.message}`);
      },
    );
  };
  let drops = 0; // drops of the wait in a row
  const events = {
    waiting: () => {
      drops = 0;
      console.log(`waiting for seats at ${opts.target}`);
    },
    seat: (offer) => {
      handed += 1;
      console.log(`${offer.player_name}: seat ${offer.seat} of table ${offer.table_id}`);
      playing.push(playSeat(offer));
      return opts.maxSeats !== null && handed >= opts.maxSeats; // true: wait no more
    },
  };
  let problem = null;
  for (;;) {
    const err = await waitForSeats(referee, opts.awaitKey, events);
    if (err === null) break; // --max-seats reached
    // A drop (the referee draining or restarting), or `bot_already_waiting` right after
    // one, while the referee has not yet noticed that the old wait is gone: wait again.
    // `bot_already_waiting` at the first try is another bot waiting under the key.
    const reason = err.info ? err.info.reason : '';
    const afterDrop = drops > 0 && reason === 'bot_already_waiting';
    const dropped = ['UNAVAILABLE', 'OK'].includes(err.codeName) || afterDrop;
    if (!dropped || ++drops > WAIT_ATTEMPTS) {
      problem = `AwaitSeats: ${err.codeName} ${reason} ${err.message}`;
      break;
    }
    await sleep(waitDelay(drops));
  }
  await Promise.all(playing);
  referee.close();
  if (problem) console.error(`bot.js: ${problem}`);
  process.exit(problem || seatsFailed ? 1 : 0);
}

// One AwaitSeats stream until it ends: resolves with null once `events.seat` says enough
// (the wait is then ended by the bot), else with the refusal that ended it (an end with OK,
// which the referee never sends, reads as a drop).
function waitForSeats(referee, botKey, events) {
  return new Promise((resolve) => {
    const call = referee.awaitSeats(botKey);
    call.on('data', (message) => {
      if (message.kind === 'waiting') events.waiting();
      else if (events.seat(message.seat)) {
        resolve(null);
        call.cancel();
      }
    });
    call.on('error', (err) => resolve(referee.refusal(err))); // after resolve(null): ignored
    call.on('status', (status) => {
      if (status.code === grpc.status.OK) resolve({ codeName: 'OK', info: null, message: 'the wait ended' });
    });
  });
}

if (require.main === module) {
  const opts = parseArgs(process.argv.slice(2));
  (opts.awaitKey !== null ? playHandedSeats(opts) : playOneSeat(opts)).catch(die);
}

module.exports = { Bot, chooseLowest, garbage, parseArgs };
