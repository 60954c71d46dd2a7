#!/usr/bin/env node
'use strict';
// A bot for ONE seat of a Bhabhi table, written from proto/ alone: the example to copy for
// a bot in another language.
//
//   node bot.js --target HOST:PORT --table ID --token TOKEN [--strategy lowest|random]
//               [--seed S] [--crash-after N] [--stall-after N] [--garbage-after N]
//
// Someone else (`bhabhi arena`, or a person with `bhabhi join`) took the seat and holds the
// table; the bot gets the seat's credential. It watches the seat's stream, looks at its
// view whenever the seat may act, answers one of the view's own legal actions, and exits 0
// once the session is over or the table closed. The --*-after options fail on purpose, for
// testing a tournament: exit 3 (crash), stop acting but stay connected (stall), or answer
// every turn with an action the referee refuses (garbage), each after N accepted actions.

const crypto = require('node:crypto');
const path = require('node:path');
const { Referee, exitWithUsage, grpc } = require('./lib/api');

const USAGE = `usage: node bot.js --target HOST:PORT --table ID --token TOKEN
       [--strategy lowest|random] [--seed S] [--proto DIR]
       [--crash-after N] [--stall-after N] [--garbage-after N]`;

// Refusals that mean the table moved on between the view and the action (the clock played
// for us, another seat's take came first): nothing to do but wait for the next event.
const MOVED_ON = new Set(['not_your_turn', 'take_hand_not_allowed', 'hand_over', 'table_not_playing', 'player_out']);
// The usual order of ranks, lowest first. A bot for an ace-low ruleset would read `deck`
// from GetRuleset instead; here it only orders the bot's own preferences.
const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];

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
      case '--help': case '-h': exitWithUsage(USAGE); break;
      default: exitWithUsage(USAGE, `unknown argument ${arg}`);
    }
  }
  if (!opts.target || !opts.table || !opts.token) exitWithUsage(USAGE, '--target, --table and --token are needed');
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

class Bot {
  constructor(opts) {
    this.opts = opts;
    this.referee = new Referee(opts.target, opts.proto);
    this.random = generator(opts.seed ?? crypto.randomUUID());
    this.seat = null;
    this.lastSeq = 0; // the latest event seen: where a dropped stream resumes
    this.decided = -1; // the seq of the latest view decided on: at most one decision each
    this.actions = 0; // accepted actions
    this.refused = {}; // the refusals of the garbage sent on purpose, by reason
    this.stalled = false;
    this.busy = null; // the decision in progress (one at a time)
  }

  call(method, request) {
    return this.referee.call('PlayService', method, request, { token: this.opts.token });
  }

  async run() {
    const { res, err } = await this.call('GetView', { table_id: this.opts.table });
    if (err) throw new Error(`GetView: ${err.codeName} ${err.info ? err.info.reason : ''} ${err.message}`);
    this.seat = res.view.seat;
    this.lastSeq = res.seq;
    this.failOnPurpose();
    await this.decide();
    for (let drops = 0; ; drops++) {
      const ended = await this.watch();
      if (ended) return this.finish();
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
    const previous = this.busy || Promise.resolve();
    this.busy = previous.then(() => this.decide()).catch((e) => this.die(e));
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

  finish() {
    const refused = Object.entries(this.refused).map(([reason, n]) => `${reason} x${n}`);
    console.log(`seat ${this.seat}: ${this.actions} action(s); refused on purpose: ${refused.join(', ') || 'none'}`);
    // A stalled bot hangs on purpose, connected and silent, until someone stops it.
    if (this.stalled) return setInterval(() => {}, 1 << 30);
    this.referee.close();
    process.exit(0);
  }

  die(error) {
    console.error(`bot.js: ${error.message}`);
    process.exit(1);
  }
}

if (require.main === module) {
  const bot = new Bot(parseArgs(process.argv.slice(2)));
  bot.run().catch((e) => bot.die(e));
}

module.exports = { Bot, chooseLowest, garbage, parseArgs };
