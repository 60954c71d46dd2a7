#!/usr/bin/env node
'use strict';
// A third-party client of the Bhabhi referee, written from proto/ alone.
//
//   node play.js --target HOST:PORT --rules ID|FILE.yaml --players N --hands K [--seed S]
//
// It creates a table, seats N players (each with its own credential), starts, watches
// every seat's stream (and a spectator's), and plays random legal actions until the
// session ends: for every seat the view lists in `to_act`, from that seat's own
// `legal_actions`, every kind of decision the house rules add (pass, challenge, agree,
// refuse, a named trump, a chosen hand to draw from or to take). Along the way it tries
// what a careless or hostile client would: acting out of turn, for another seat, with a
// forged or no credential, illegal cards and decisions, retried and stale requests,
// malformed messages. Each refusal must carry the documented gRPC code and
// google.rpc.ErrorInfo reason. After each hand it fetches the full deal (ExportHand),
// rebuilds what really happened, and checks every message each seat received for cards
// that seat could not know, the seed commitment, and the deal against the published
// shuffle. `--rules` with a YAML file registers that house variant first (the referee
// must allow it: `bhabhi serve --allow-register`). Exit 0 with a summary, or 1 with the
// first failure.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const { Referee, refusalProblem, exitWithUsage, grpc } = require('./lib/api');
const shuffle = require('./lib/shuffle');
const { CheckFailure, fail, sameSet, suitOf, rulesOf, Timeline } = require('./lib/truth');

const PLAY = 'ACTION_KIND_PLAY';
const PICK_UP = 'ACTION_KIND_PICK_UP';
const TAKE_HAND = 'ACTION_KIND_TAKE_HAND';
const PASS = 'ACTION_KIND_PASS';
const CHALLENGE = 'ACTION_KIND_CHALLENGE';
const AGREE = 'ACTION_KIND_AGREE';
const REFUSE = 'ACTION_KIND_REFUSE';
const CHOOSE_TRUMP = 'ACTION_KIND_CHOOSE_TRUMP';
const DRAW_FROM = 'ACTION_KIND_DRAW_FROM';
const SUITS = ['C', 'D', 'H', 'S'];

// How often a seat takes the chances nobody waits for: a challenge (H25) right after a
// trick with an off-suit card, taking a hand (B9, H20-H23), and (H26) a card played out
// of turn. Rare enough that hands still run many tricks, often enough that a session of
// two hands meets each of them.
const CHALLENGE_RATE = 0.25;
const TAKE_RATE = 0.06;
const OUT_OF_TURN_RATE = 0.03;
// H25 accepts a card off the led suit from a seat that holds it; a random card would be
// false so often that the first right challenge (with `bhabhi`, the end of the hand) came
// within a few tricks. A seat that can follow mostly does.
const FOLLOW_RATE = 0.9;

// --- command line ------------------------------------------------------------------------

function parseArgs(argv) {
  const opts = {
    target: '127.0.0.1:50051',
    rules: null,
    players: null,
    hands: 1,
    seed: null,
    proto: path.resolve(__dirname, '..', '..', 'proto'),
    timeout: 300,
    verbose: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${arg} needs a value`);
      return argv[++i];
    };
    switch (arg) {
      case '--target': opts.target = value(); break;
      case '--rules': opts.rules = value(); break; // an id, or a YAML file to register
      case '--players': opts.players = Number(value()); break;
      case '--hands': opts.hands = Number(value()); break;
      case '--seed': opts.seed = Number(value()); break;
      case '--proto': opts.proto = path.resolve(value()); break;
      case '--timeout': opts.timeout = Number(value()); break;
      case '--verbose': case '-v': opts.verbose = true; break;
      case '--help': case '-h': usage(null); break;
      default: usage(`unknown argument ${arg}`);
    }
  }
  if (!opts.rules) usage('--rules is required');
  if (/\.ya?ml$/i.test(opts.rules) || fs.existsSync(opts.rules)) {
    opts.rulesFile = path.resolve(opts.rules);
    if (!fs.existsSync(opts.rulesFile)) usage(`no ruleset file ${opts.rules}`);
  }
  if (!Number.isInteger(opts.players) || opts.players < 2) usage('--players must be an integer >= 2');
  if (!Number.isInteger(opts.hands) || opts.hands < 1) usage('--hands must be an integer >= 1');
  if (opts.seed === null) opts.seed = crypto.randomInt(2 ** 31);
  return opts;
}

function usage(problem) {
  exitWithUsage('usage: node play.js --target HOST:PORT --rules ID|FILE.yaml --players N --hands K ' +
    '[--seed S] [--proto DIR] [--timeout SECONDS] [--verbose]', problem);
}

// A small seeded generator (mulberry32) so that a failing run can be replayed with --seed.
function makeRandom(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.pick = (items) => items[Math.floor(next() * items.length)];
  return next;
}

// --- helpers -------------------------------------------------------------------------------

const sha256 = (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');
const hasSeat = (a) => a._seat === 'seat' || (a._seat === undefined && Number.isInteger(a.seat) && a.kind !== PLAY);
const WORDS = {
  [PICK_UP]: 'pickup', [TAKE_HAND]: 'take', [PASS]: 'pass', [CHALLENGE]: 'challenge',
  [AGREE]: 'agree', [REFUSE]: 'refuse', [CHOOSE_TRUMP]: 'trump', [DRAW_FROM]: 'draw',
};
// An action in its text form, as ExportHand and refusals write it: `AS`, `pickup`, `take`,
// `take:3`, `pass`, `challenge`, `agree`, `refuse`, `trump:H`, `draw:2`.
function actionWord(a) {
  if (a.kind === PLAY) return a.card;
  const word = WORDS[a.kind] || String(a.kind);
  if (a.kind === CHOOSE_TRUMP) return `${word}:${a.suit}`;
  return hasSeat(a) ? `${word}:${a.seat}` : word;
}
// A word of a refusal's `legal_actions` that names no card.
const NOT_A_CARD = /^(pickup|take|pass|challenge|agree|refuse)$|^(take|draw):\d+$|^trump:[CDHS]$/;
// The action to send for a legal action of a view: only the fields its kind has (a `seat`
// only where the view set one, a `suit` only for a trump).
function toSend(a) {
  const out = { kind: a.kind, card: a.kind === PLAY ? a.card : '' };
  if (hasSeat(a)) out.seat = a.seat;
  if (a.kind === CHOOSE_TRUMP) out.suit = a.suit;
  return out;
}
const isChance = (a) => a.kind === CHALLENGE || a.kind === TAKE_HAND; // nobody waits for it
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const describe = (res) => `last_seq ${res.last_seq}, events ${res.events.map((e) => `${e.seq}:${e.kind}`).join(' ')}`;

// An event as a string for comparisons; time_left depends on when it was sent.
function canon(event) {
  const { time_left: _ignored, ...rest } = event;
  return JSON.stringify(rest);
}

// The event with its private fields emptied: what every seat must agree on.
function publicPart(event) {
  const copy = JSON.parse(JSON.stringify(event));
  delete copy.time_left;
  if (copy.hand_started) copy.hand_started.your_cards = [];
  if (copy.waste_drawn) copy.waste_drawn.card = '';
  if (copy.card_drawn) copy.card_drawn.card = '';
  if (copy.hand_taken) copy.hand_taken.cards = [];
  return JSON.stringify(copy);
}

// --- the game ------------------------------------------------------------------------------

class Game {
  constructor(opts) {
    this.opts = opts;
    this.random = makeRandom(opts.seed);
    this.referee = new Referee(opts.target, opts.proto);
    this.seats = []; // {seat, token, name}
    this.streams = []; // per seat, then the spectator's last
    this.messages = []; // every message a seat (or the spectator, seat -1) received
    this.inspected = 0;
    this.history = []; // accepted SubmitActions: {seat, request, response, hand}
    this.actionsByHand = new Map();
    this.deals = new Map(); // hand number -> each seat's cards (from ExportHand)
    this.seeds = new Map(); // hand number -> revealed seed
    this.handOvers = new Map(); // hand number -> HandOver event
    this.probed = new Map(); // label -> hand number when last tried
    this.refusals = new Map(); // refusal label -> count
    this.checks = new Map(); // other checked behaviour (retries, resuming) -> count
    this.decisions = new Map(); // accepted action, by its word (`AS` counted as card) -> count
    this.eventKinds = new Map(); // events of the hands, by kind -> count
    this.actions = 0;
    this.handsChecked = 0;
    this.sessionOver = null;
    this.requestCounter = 0;
    this.timeline = null;
  }

  log(...args) {
    if (this.opts.verbose) console.error('[play]', ...args);
  }

  record(seat, source, seq, kind, body) {
    this.messages.push({ seat, source, seq, kind, body });
  }

  requestId(seat) {
    this.requestCounter += 1;
    return `node-${seat}-${this.requestCounter}-${crypto.randomBytes(6).toString('hex')}`;
  }

  token(seat) {
    return this.seats[seat].token;
  }

  // --- calls --------------------------------------------------------------------------

  async ok(service, method, request, options = {}, what = `${service}.${method}`) {
    const result = await this.referee.call(service, method, request, options);
    if (result.err) {
      const e = result.err;
      fail(`${what} failed: ${e.codeName} ${e.info ? e.info.reason : ''} ${e.message}`);
    }
    return result.res;
  }

  // Expect a refusal: the gRPC code, and (unless null) the ErrorInfo reason in our domain,
  // with messages in every language. `seat` is who received it (-1: no credential).
  async refused(label, seat, seq, promise, code, reason) {
    const result = await promise;
    if (!result.err) {
      fail(`${label}: expected ${code} ${reason || ''}, but the referee accepted it: ` +
        JSON.stringify(result.res).slice(0, 300));
    }
    const e = result.err;
    const got = `${e.codeName} ${e.info ? e.info.reason : '(no ErrorInfo)'}: ${e.message}`;
    const problem = refusalProblem(e, code, reason);
    if (problem) fail(`${label}: ${problem}`);
    this.record(seat, 'refusal', seq, 'refusal', {
      code: e.codeName, message: e.message, info: e.info, localized: e.localized,
    });
    this.refusals.set(label, (this.refusals.get(label) || 0) + 1);
    this.log(`refused as expected: ${label}: ${got}`);
    return e;
  }

  async view(seat) {
    const token = seat >= 0 ? this.token(seat) : undefined;
    const res = await this.ok('PlayService', 'GetView', { table_id: this.tableId }, { token });
    this.record(seat, 'GetView', res.seq, 'view', res.view);
    return res;
  }

  submit(seat, request, options = {}) {
    return this.referee.call('PlayService', 'SubmitAction', request, {
      token: seat === null ? undefined : this.token(seat), ...options,
    });
  }

  actionRequest(seat, action, seq, extra = {}) {
    return { table_id: this.tableId, action, request_id: this.requestId(seat), expected_seq: seq, ...extra };
  }

  // --- streams --------------------------------------------------------------------------

  openStream(seat) {
    const stream = { seat, events: new Map(), maxSeq: 0, error: null, seqs: [] };
    const call = this.referee.watch({ table_id: this.tableId, after_seq: 0 }, seat >= 0 ? this.token(seat) : undefined);
    call.on('data', (message) => {
      if (message.item === 'snapshot') {
        const snap = message.snapshot;
        this.record(seat, 'WatchTable', snap.seq, 'view', snap.view);
        stream.maxSeq = Math.max(stream.maxSeq, snap.seq);
        return;
      }
      const event = message.event;
      stream.seqs.push(event.seq);
      stream.events.set(event.seq, event);
      stream.maxSeq = Math.max(stream.maxSeq, event.seq);
      this.record(seat, 'WatchTable', event.seq, 'event', event);
    });
    call.on('error', (err) => {
      if (err.code !== grpc.status.CANCELLED) stream.error = err;
    });
    stream.call = call;
    return stream;
  }

  async waitStreams(seq) {
    const until = Date.now() + 15000;
    for (;;) {
      for (const s of this.streams) {
        if (s.error) fail(`seat ${s.seat}'s WatchTable stream failed: ${s.error.code} ${s.error.details}`);
      }
      if (this.streams.every((s) => s.maxSeq >= seq)) return;
      if (Date.now() > until) {
        fail(`the streams did not reach seq ${seq} within 15 s: ${this.streams.map((s) => `${s.seat}:${s.maxSeq}`).join(' ')}`);
      }
      await sleep(5);
    }
  }

  // A stream that must be refused: resolves to the refusal.
  streamRefusal(request, token) {
    return new Promise((resolve) => {
      const call = this.referee.watch(request, token);
      call.on('data', () => {
        call.cancel();
        resolve({ res: 'a stream message' });
      });
      call.on('error', (err) => resolve({ err: this.referee.refusal(err) }));
    });
  }

  // --- setting up ---------------------------------------------------------------------

  // A house variant from a file: ValidateRuleset, then RegisterRuleset (a second
  // registration of the same id is refused with ruleset_exists; a run against a referee
  // that has it already checks that it is the same ruleset, by its hash).
  async register(file) {
    const yaml = fs.readFileSync(file, 'utf8');
    const checked = await this.ok('RulesetService', 'ValidateRuleset', { yaml, name: path.basename(file) });
    if (!checked.valid) {
      fail(`${file} is not a valid ruleset:\n${checked.problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.path}: ${p.message}`).join('\n')}`);
    }
    const wanted = checked.ruleset;
    const result = await this.referee.call('RulesetService', 'RegisterRuleset', { yaml });
    if (result.err) {
      const e = result.err;
      const reason = e.info ? e.info.reason : '';
      if (reason === 'register_not_allowed') fail(`the referee registers no rulesets (start it with --allow-register): ${e.message}`);
      if (reason !== 'ruleset_exists') fail(`RegisterRuleset of ${file} failed: ${e.codeName} ${reason} ${e.message}`);
      const hosted = await this.ok('RulesetService', 'GetRuleset', { id: wanted.id });
      if (hosted.ruleset.hash !== wanted.hash) fail(`the referee hosts another ruleset ${wanted.id} (${hosted.ruleset.hash}, the file is ${wanted.hash})`);
      this.count('ruleset registered before, same hash');
    } else {
      const got = result.res.ruleset;
      if (got.id !== wanted.id || got.hash !== wanted.hash || got.origin !== 'RULESET_ORIGIN_REGISTERED') {
        fail(`RegisterRuleset returned ${JSON.stringify(got).slice(0, 300)}, ValidateRuleset ${wanted.id} ${wanted.hash}`);
      }
      this.count('ruleset registered');
      await this.refused('ruleset_exists', -1, 0,
        this.referee.call('RulesetService', 'RegisterRuleset', { yaml }), 'ALREADY_EXISTS', 'ruleset_exists');
    }
    this.opts.rules = wanted.id;
  }

  async setUp() {
    if (this.opts.rulesFile) await this.register(this.opts.rulesFile);
    const { rules, players, hands } = this.opts;
    const listed = await this.ok('RulesetService', 'ListRulesets', {});
    const summary = listed.rulesets.find((r) => r.id === rules);
    if (!summary) fail(`ruleset ${rules} is not hosted (hosted: ${listed.rulesets.map((r) => r.id).join(', ')})`);
    this.summary = summary;
    const full = await this.ok('RulesetService', 'GetRuleset', { id: rules });
    if (full.ruleset.hash !== summary.hash) fail('GetRuleset and ListRulesets disagree on the hash');
    const doc = YAML.parse(full.yaml);
    this.ruleset = doc;
    this.deck = shuffle.deckOf(doc.deck);
    this.step = doc.direction === 'counterclockwise' ? -1 : 1;
    this.illegalPlay = doc.illegal_play; // reject, pickup_penalty (C12) or challenge (H25)
    this.outOfTurnPenalty = doc.out_of_turn === 'pickup_penalty'; // H26
    this.rules = rulesOf(doc);
    this.log(`ruleset ${rules} ${summary.hash}: ${this.deck.length} cards, ${doc.direction}`);
    await this.refused('ruleset_not_found', -1, 0,
      this.referee.call('RulesetService', 'GetRuleset', { id: 'no-such-ruleset' }), 'NOT_FOUND', 'ruleset_not_found');

    if (players < summary.min_players || players > summary.max_players) {
      fail(`${rules} allows ${summary.min_players} to ${summary.max_players} players, not ${players}`);
    }
    await this.refused('players_not_allowed', -1, 0,
      this.referee.call('TableService', 'CreateTable', { ruleset_id: rules, seat_count: summary.max_players + 1 }),
      'INVALID_ARGUMENT', 'players_not_allowed');
    // Nobody can choose the deal on a referee that is not in test mode.
    await this.refused('test_mode_required', -1, 0,
      this.referee.call('TableService', 'CreateTable', {
        ruleset_id: rules, seat_count: players, test_deal: [{ cards: ['AS'] }],
      }), 'PERMISSION_DENIED', 'test_mode_required');

    const created = await this.ok('TableService', 'CreateTable', { ruleset_id: rules, seat_count: players, hands });
    const table = created.table;
    this.tableId = table.table_id;
    if (table.status !== 'TABLE_STATUS_OPEN' || table.seat_count !== players || table.hands !== hands) {
      fail(`CreateTable returned ${JSON.stringify(table).slice(0, 300)}`);
    }
    this.log(`table ${this.tableId}`);

    for (let i = 0; i < players; i++) {
      const name = `node-${i}`;
      const joined = await this.ok('TableService', 'JoinTable', { table_id: this.tableId, player_name: name });
      if (!joined.seat_token) fail('JoinTable gave no seat_token');
      if (this.seats[joined.seat]) fail(`JoinTable gave seat ${joined.seat} twice`);
      this.seats[joined.seat] = { seat: joined.seat, token: joined.seat_token, name };
      this.record(joined.seat, 'JoinTable', joined.table.last_seq, 'table', joined);
      if (i === 0) {
        await this.refused('table_not_full', joined.seat, 0,
          this.referee.call('TableService', 'StartTable', { table_id: this.tableId }, { token: joined.seat_token }),
          'FAILED_PRECONDITION', 'table_not_full');
      }
    }
    if (new Set(this.seats.map((s) => s.token)).size !== players) fail('two seats got the same credential');
    await this.refused('table_full', -1, 0,
      this.referee.call('TableService', 'JoinTable', { table_id: this.tableId, player_name: 'late' }),
      'FAILED_PRECONDITION', 'table_full');

    // A real credential, but of another table.
    const other = await this.ok('TableService', 'CreateTable', { ruleset_id: rules, seat_count: players, hands: 1 });
    const otherId = other.table.table_id;
    const foreign = await this.ok('TableService', 'JoinTable', { table_id: otherId, player_name: 'elsewhere' });
    this.foreignToken = foreign.seat_token;
    // A seat given up (LeaveTable) takes its credential with it.
    const leaver = await this.ok('TableService', 'JoinTable', { table_id: otherId, player_name: 'leaver', seat: foreign.seat + 1 });
    if (leaver.seat !== foreign.seat + 1) fail(`JoinTable asked for seat ${foreign.seat + 1}, got ${leaver.seat}`);
    await this.refused('seat_taken', -1, 0,
      this.referee.call('TableService', 'JoinTable', { table_id: otherId, player_name: 'again', seat: leaver.seat }),
      'FAILED_PRECONDITION', 'seat_taken');
    const left = await this.ok('TableService', 'LeaveTable', { table_id: otherId }, { token: leaver.seat_token });
    if (left.table.seats[leaver.seat].taken) fail('LeaveTable left the seat taken');
    await this.refused('bad_credential', -1, 0,
      this.referee.call('TableService', 'LeaveTable', { table_id: otherId }, { token: leaver.seat_token }),
      'UNAUTHENTICATED', 'bad_credential');

    this.streams = this.seats.map((s) => this.openStream(s.seat));
    this.streams.push(this.openStream(-1));

    await this.refused('unauthenticated', -1, 0,
      this.referee.call('TableService', 'StartTable', { table_id: this.tableId }), 'UNAUTHENTICATED', 'unauthenticated');
    await this.refused('bad_credential', -1, 0,
      this.referee.call('TableService', 'StartTable', { table_id: this.tableId }, { token: this.foreignToken }),
      'UNAUTHENTICATED', 'bad_credential');
    const started = await this.ok('TableService', 'StartTable', { table_id: this.tableId }, { token: this.token(this.random.pick(this.seats).seat) });
    if (started.table.status !== 'TABLE_STATUS_PLAYING') fail(`StartTable left the table ${started.table.status}`);
    await this.refused('table_not_open', 0, started.table.last_seq,
      this.referee.call('TableService', 'StartTable', { table_id: this.tableId }, { token: this.token(0) }),
      'FAILED_PRECONDITION', 'table_not_open');
    await this.refused('table_not_open', -1, started.table.last_seq,
      this.referee.call('TableService', 'JoinTable', { table_id: this.tableId, player_name: 'late' }),
      'FAILED_PRECONDITION', 'table_not_open');
    this.timeline = new Timeline(players, this.rules);
  }

  // --- playing ------------------------------------------------------------------------

  async play() {
    for (;;) {
      const responses = await Promise.all(this.seats.map((s) => this.view(s.seat)));
      const seq = responses[0].seq;
      if (responses.some((r) => r.seq !== seq)) fail(`GetView of the seats disagree on the seq: ${responses.map((r) => r.seq)}`);
      if (this.sessionOver) return;
      const views = responses.map((r) => r.view);
      if (views.some((v) => !v)) fail(`no view at seq ${seq} while the table is playing`);
      const v = views[0];
      const hand = v.hand_number;
      const turn = v.turn;
      const toAct = v.to_act;
      if (turn < 0) fail(`no seat to play at seq ${seq}, but the session is not over`);
      for (const [s, view] of views.entries()) {
        if (view.seat !== s) fail(`GetView with seat ${s}'s credential returned the view of seat ${view.seat}`);
        if (view.turn !== turn || view.hand_number !== hand) fail(`views of seat 0 and ${s} disagree on the turn or hand`);
        if (JSON.stringify(view.to_act) !== JSON.stringify(toAct)) fail(`at seq ${seq} seat 0's view says to_act ${toAct}, seat ${s}'s ${view.to_act}`);
        // The seats that may act are exactly those with a legal action.
        if (toAct.includes(s) !== view.legal_actions.length > 0) {
          fail(`at seq ${seq} seat ${s} is ${toAct.includes(s) ? '' : 'not '}in to_act ${toAct} but has legal actions ${view.legal_actions.map(actionWord)}`);
        }
      }
      if (!toAct.includes(turn)) fail(`at seq ${seq} the game waits for seat ${turn}, which is not in to_act ${toAct}`);
      // Every card has one holder: no card may show in two seats' hands.
      const holder = new Map();
      for (const view of views) {
        for (const card of view.hand) {
          if (holder.has(card)) fail(`LEAK: at seq ${seq}, ${card} is in the GetView hand of seat ${holder.get(card)} and of seat ${view.seat}`);
          holder.set(card, view.seat);
        }
      }
      for (const view of views) {
        if (view.hand.length !== view.hand_sizes[view.seat]) fail(`seat ${view.seat}'s view at seq ${seq} shows ${view.hand.length} cards, hand_sizes says ${view.hand_sizes[view.seat]}`);
      }
      if (this.random() < 0.2) await this.view(-1);
      const ctx = { seq, views, responses, turn, hand };
      await this.probes(ctx);

      // H26: now and then a seat plays a card out of turn, which these rules punish.
      if (this.outOfTurnPenalty && this.random() < OUT_OF_TURN_RATE) {
        const offenders = views.filter((w) => w.seat !== turn && !w.out[w.seat] && w.hand.length);
        if (offenders.length) {
          await this.playOutOfTurn(this.random.pick(offenders), seq, hand);
          continue;
        }
      }
      const { seat, action } = this.choose(views, turn);
      await this.act(seat, action, seq, hand);
    }
  }

  // The real action, of any seat in to_act, from its own view's legal actions: mostly what
  // the game waits for (the card, pickup or decision of the seat `turn`); now and then a
  // chance nobody waits for, a challenge (H25) or a take (B9, H20-H23), by whoever has it.
  choose(views, turn) {
    const options = [];
    for (const s of views[turn].to_act) {
      for (const a of views[s].legal_actions) options.push({ seat: s, action: a });
    }
    const challenges = options.filter((o) => o.action.kind === CHALLENGE);
    const takes = options.filter((o) => o.action.kind === TAKE_HAND);
    let waited = options.filter((o) => o.seat === turn && !isChance(o.action));
    const led = views[turn].led_suit;
    const following = waited.filter((o) => o.action.kind === PLAY && led && suitOf(o.action.card) === led);
    if (this.illegalPlay === 'challenge' && following.length && this.random() < FOLLOW_RATE) waited = following;
    if (challenges.length && this.random() < CHALLENGE_RATE) return this.random.pick(challenges);
    if (takes.length && this.random() < TAKE_RATE) return this.random.pick(takes);
    return this.random.pick(waited.length ? waited : options);
  }

  // H26: `view`'s seat plays one of its cards out of turn. In a trick it is punished: the
  // card stays in its hand and it picks up the trick. Between tricks it is punished too
  // right after a trick that was picked up (that trick, from whoever holds it), and
  // refused (not_your_turn) otherwise.
  async playOutOfTurn(view, seq, hand) {
    const seat = view.seat;
    const card = this.random.pick(view.hand);
    const action = { kind: PLAY, card };
    const request = this.actionRequest(seat, action, seq);
    const result = await this.submit(seat, request);
    const inTrick = view.trick.length > 0;
    if (result.err) {
      if (inTrick) fail(`H26: seat ${seat} playing ${card} out of turn in a trick was refused: ${result.err.codeName} ${result.err.info && result.err.info.reason} ${result.err.message}`);
      await this.refused('not_your_turn (H26: no trick to pick up)', seat, seq, Promise.resolve(result), 'FAILED_PRECONDITION', 'not_your_turn');
      return;
    }
    const [penalised, picked] = result.res.events;
    const ok = penalised && penalised.kind === 'illegal_play_penalised' && penalised.illegal_play_penalised.seat === seat &&
      penalised.illegal_play_penalised.card === card && penalised.illegal_play_penalised.offence === 'not_your_turn' &&
      picked && picked.kind === 'picked_up' && picked.picked_up.seat === seat && picked.picked_up.penalty;
    if (!ok) fail(`H26: seat ${seat} played ${card} out of turn; the answer is ${describe(result.res)}`);
    this.count(inTrick ? 'H26: out of turn in a trick, punished' : 'H26: out of turn after a pickup, punished');
    this.accepted(seat, request, result.res, seq, hand, 'penalised card');
    await this.afterAccepted(result.res);
  }

  async act(seat, legal, seq, hand) {
    const action = toSend(legal);
    const request = this.actionRequest(seat, action, seq);
    const mode = this.random();
    let result;
    if (mode < 0.08) {
      // The same request sent twice at once (a client retrying too early): one answer, once.
      const both = await Promise.all([this.submit(seat, request), this.submit(seat, request)]);
      if (both.some((r) => r.err)) fail(`a request sent twice at once was refused: ${both.map((r) => r.err && `${r.err.codeName} ${r.err.message}`)}`);
      if (JSON.stringify(both[0].res) !== JSON.stringify(both[1].res)) fail(`a request sent twice at once got two different answers:\n${describe(both[0].res)}\n${describe(both[1].res)}`);
      this.recordEvents(seat, 'SubmitAction (concurrent duplicate)', both[1].res);
      this.count('duplicate sent at once: one answer, applied once');
      result = both[0];
    } else if (mode < 0.16) {
      // Two different requests decided on the same state, at once: one wins, the other is
      // stale.
      const rival = this.actionRequest(seat, action, seq);
      const both = await Promise.all([this.submit(seat, request), this.submit(seat, rival)]);
      const won = both.filter((r) => !r.err);
      if (won.length !== 1) fail(`two requests on the same seq at once: ${won.length} accepted`);
      const lost = both.find((r) => r.err);
      if (won[0].res.events.some((e) => e.kind === 'session_over')) {
        // The winner ended the session: nothing more is played at this table.
        await this.refused('hand_over (lost a race)', seat, seq, Promise.resolve(lost), 'FAILED_PRECONDITION', 'hand_over');
      } else {
        await this.refused('stale_seq (lost a race)', seat, seq, Promise.resolve(lost), 'ABORTED', 'stale_seq');
      }
      result = won[0];
      if (both[0].err) request.request_id = rival.request_id; // the winner is the one on record
    } else {
      result = await this.submit(seat, request);
    }
    if (result.err) {
      const e = result.err;
      fail(`a legal action (seat ${seat} ${actionWord(action)} at seq ${seq}) was refused: ${e.codeName} ${e.info && e.info.reason} ${e.message}`);
    }
    const response = result.res;
    this.accepted(seat, request, response, seq, hand, action.kind === PLAY ? 'card' : actionWord(action).split(':')[0]);
    this.checkDecision(seat, action, response);

    // A retry with the same request_id: the same answer, nothing applied twice.
    if (this.random() < 0.25) {
      const before = await this.view(seat);
      const again = await this.submit(seat, request);
      if (again.err) fail(`retrying request ${request.request_id} was refused: ${again.err.codeName} ${again.err.message}`);
      this.recordEvents(seat, 'SubmitAction (retry)', again.res);
      if (JSON.stringify(again.res) !== JSON.stringify(response)) {
        fail(`a retry of ${request.request_id} got another answer than the first:\nfirst: ${describe(response)}\nretry: ${describe(again.res)}`);
      }
      const after = await this.view(seat);
      if (after.seq !== before.seq) fail(`a retry of ${request.request_id} moved the table from seq ${before.seq} to ${after.seq}`);
      this.count('retry: same answer, applied once');
    }

    await this.afterAccepted(response);
  }

  // Book an accepted action: its answer checked, kept for retries and for ExportHand.
  accepted(seat, request, response, seq, hand, label) {
    const action = request.action;
    this.checkResponse(seat, seq, response, `seat ${seat} ${actionWord(action)}`);
    this.actions += 1;
    this.decisions.set(label, (this.decisions.get(label) || 0) + 1);
    if (!this.actionsByHand.has(hand)) this.actionsByHand.set(hand, []);
    this.actionsByHand.get(hand).push(`${seat}:${actionWord(action)}`);
    this.history.push({ seat, request, response, hand });
  }

  async afterAccepted(response) {
    for (const event of response.events) {
      if (event.kind === 'hand_over') await this.finishHand(event.hand_number, event.seq);
      if (event.kind === 'session_over') this.sessionOver = event;
    }
  }

  // The first events of an accepted action are what the action says it does.
  checkDecision(seat, action, response) {
    const events = response.events;
    // X5: a card that fixes the trump suit comes after its trump_fixed.
    const skip = action.kind === PLAY && events[0].kind === 'trump_fixed' ? 1 : 0;
    const [first, second] = events.slice(skip);
    const what = `seat ${seat} ${actionWord(action)}`;
    const body = first ? first[first.kind] : {};
    const expect = (ok, wanted) => {
      if (!first || !ok) fail(`${what}: expected ${wanted} first, the answer is ${describe(response)}${first ? ` (${JSON.stringify(body)})` : ''}`);
    };
    switch (action.kind) {
      case PLAY:
        expect(first.kind === 'card_played' && body.seat === seat && body.card === action.card, `card_played ${action.card}`);
        break;
      case PICK_UP:
        expect(first.kind === 'picked_up' && body.seat === seat && !body.penalty, 'picked_up');
        break;
      case TAKE_HAND: {
        const asked = first.kind === 'take_requested' && body.taker === seat;
        expect(this.rules.consent ? asked : first.kind === 'hand_taken' && body.taker === seat, this.rules.consent ? 'take_requested (H20)' : 'hand_taken');
        if (hasSeat(action)) expect(body.seat === action.seat, `the hand of seat ${action.seat} (H23)`);
        break;
      }
      case PASS:
        expect(first.kind === 'take_passed' && body.seat === seat, 'take_passed (H22)');
        break;
      case CHALLENGE:
        expect(first.kind === 'tochoo_challenged' && body.challenger === seat, 'tochoo_challenged (H25)');
        this.count(`H25: challenge ${body.right ? `right, ${body.penalty}` : 'wrong'}`);
        break;
      case AGREE:
        expect(first.kind === 'take_answered' && body.seat === seat && body.agreed &&
          second && second.kind === 'hand_taken' && second.hand_taken.taker === body.taker && second.hand_taken.seat === seat,
        'take_answered agreed, then hand_taken (H20)');
        break;
      case REFUSE:
        expect(first.kind === 'take_answered' && body.seat === seat && !body.agreed, 'take_answered refused (H20)');
        break;
      case CHOOSE_TRUMP:
        expect(first.kind === 'trump_fixed' && body.seat === seat && body.suit === action.suit, `trump_fixed ${action.suit} (H12)`);
        break;
      case DRAW_FROM:
        expect(first.kind === 'card_drawn' && body.seat === seat && body.from_seat === action.seat, `card_drawn from seat ${action.seat} (H14)`);
        break;
      default:
        fail(`${what}: an action kind this client does not know was legal`);
    }
  }

  recordEvents(seat, source, response) {
    for (const event of response.events) this.record(seat, source, event.seq, 'event', event);
  }

  checkResponse(seat, seq, response, what) {
    this.recordEvents(seat, 'SubmitAction', response);
    if (!response.events.length) fail(`${what}: the answer has no events`);
    response.events.forEach((event, i) => {
      if (event.seq !== seq + 1 + i) fail(`${what}: event ${i} has seq ${event.seq}, expected ${seq + 1 + i}`);
    });
    if (response.last_seq !== seq + response.events.length) {
      fail(`${what}: last_seq ${response.last_seq} but ${response.events.length} events after ${seq}`);
    }
  }

  count(label) {
    this.checks.set(label, (this.checks.get(label) || 0) + 1);
  }

  // Try each probe at least once a hand (at a random moment), and now and then again.
  due(label, hand) {
    const last = this.probed.get(label);
    return (last !== hand && this.random() < 0.2) || this.random() < 0.02;
  }

  done(label, hand) {
    this.probed.set(label, hand);
  }

  async probes(ctx) {
    const { seq, views, turn, hand } = ctx;
    const me = views[turn];
    const legal = me.legal_actions;
    const someLegal = toSend(this.random.pick(legal));
    const handOf = (s) => views[s].hand;
    // The seat on turn plays or picks up (rather than owing a decision first: a trump to
    // name, H12; a hand to draw from, H14; an answer, H20; a take or pass, H22).
    const playing = legal.some((a) => a.kind === PLAY || a.kind === PICK_UP);
    let touched = false;
    const probe = async (label, fn) => {
      if (!this.due(label, hand)) return;
      const ran = await fn();
      if (ran !== false) {
        this.done(label, hand);
        touched = true;
      }
    };

    // Acting out of turn, with a real credential of a seat that may not act now.
    await probe('not_your_turn', async () => {
      const idle = views.filter((w) => !w.out[w.seat] && !w.to_act.includes(w.seat)).map((w) => w.seat);
      if (!idle.length) return false;
      const s = this.random.pick(idle);
      const cards = handOf(s);
      // H26 punishes a card out of turn (see playOutOfTurn); a pickup out of turn is refused.
      const action = cards.length && !this.outOfTurnPenalty ? { kind: PLAY, card: this.random.pick(cards) } : { kind: PICK_UP, card: '' };
      await this.refused('not_your_turn', s, seq, this.submit(s, this.actionRequest(s, action, seq)),
        'FAILED_PRECONDITION', 'not_your_turn');
      // Acting "for another seat": the message has no seat field; one smuggled in as an
      // unknown field (number 5, the seat on turn) must be ignored: the credential decides.
      const bytes = this.referee.encodeSubmit(this.actionRequest(s, action, seq), Buffer.from([0x28, turn]));
      await this.refused('not_your_turn (seat claimed in the message)', s, seq,
        this.referee.callRaw('PlayService', 'SubmitAction', bytes, { token: this.token(s) }),
        'FAILED_PRECONDITION', 'not_your_turn');
      return true;
    });

    await probe('player_out', async () => {
      const out = views.filter((w) => w.out[w.seat]).map((w) => w.seat);
      if (!out.length) return false;
      const s = this.random.pick(out);
      await this.refused('player_out', s, seq,
        this.submit(s, this.actionRequest(s, { kind: PICK_UP, card: '' }, seq)), 'FAILED_PRECONDITION', 'player_out');
      return true;
    });

    // Credentials: forged, of another table, none, empty.
    await probe('bad_credential', async () => {
      const real = this.token(turn);
      const flipped = real.slice(0, -1) + (real.endsWith('A') ? 'B' : 'A');
      const request = this.actionRequest(turn, someLegal, seq);
      await this.refused('bad_credential', -1, seq,
        this.referee.call('PlayService', 'SubmitAction', request, { token: flipped }), 'UNAUTHENTICATED', 'bad_credential');
      await this.refused('bad_credential', -1, seq,
        this.referee.call('PlayService', 'SubmitAction', request, { token: this.foreignToken }), 'UNAUTHENTICATED', 'bad_credential');
      await this.refused('bad_credential', -1, seq,
        this.referee.call('PlayService', 'GetView', { table_id: this.tableId }, { token: flipped }), 'UNAUTHENTICATED', 'bad_credential');
    });
    await probe('unauthenticated', async () => {
      const request = this.actionRequest(turn, someLegal, seq);
      await this.refused('unauthenticated', -1, seq, this.submit(null, request), 'UNAUTHENTICATED', 'unauthenticated');
      await this.refused('unauthenticated', -1, seq,
        this.referee.call('PlayService', 'SubmitAction', request, { token: '' }), 'UNAUTHENTICATED', 'unauthenticated');
    });

    // Illegal cards and moves of the seat on turn (when it is to play a card or pick up).
    await probe('card_not_in_hand', async () => {
      if (!playing) return false;
      const others = views.filter((w) => w.seat !== turn).flatMap((w) => w.hand);
      if (!others.length) return false;
      const card = this.random.pick(others);
      await this.refused('card_not_in_hand', turn, seq,
        this.submit(turn, this.actionRequest(turn, { kind: PLAY, card }, seq)), 'FAILED_PRECONDITION', 'card_not_in_hand');
      return true;
    });
    await probe('card_not_in_deck', async () => {
      if (!playing) return false;
      const card = `AS/${this.ruleset.deck.packs + 1}`;
      await this.refused('card_not_in_deck', turn, seq,
        this.submit(turn, this.actionRequest(turn, { kind: PLAY, card }, seq)), 'INVALID_ARGUMENT', 'card_not_in_deck');
    });
    const legalCards = legal.filter((a) => a.kind === PLAY).map((a) => a.card);
    const canPickUp = legal.some((a) => a.kind === PICK_UP);
    const inTrick = me.trick.length > 0;
    const holdsLed = inTrick && me.hand.some((c) => suitOf(c) === me.led_suit);
    const illegal = me.hand.filter((c) => !legalCards.includes(c));
    if (inTrick && holdsLed && this.illegalPlay === 'reject') {
      const offSuit = illegal.filter((c) => suitOf(c) !== me.led_suit);
      if (offSuit.length) {
        // must_follow_suit occurs only now and then: try it whenever it does, once a hand.
        if (this.probed.get('must_follow_suit') !== hand || this.random() < 0.05) {
          await this.refused('must_follow_suit', turn, seq,
            this.submit(turn, this.actionRequest(turn, { kind: PLAY, card: this.random.pick(offSuit) }, seq)),
            'FAILED_PRECONDITION', 'must_follow_suit');
          this.done('must_follow_suit', hand);
          touched = true;
        }
      }
    }
    if (playing && inTrick && !holdsLed && canPickUp && !legalCards.length && me.hand.length) {
      await probe('must_pick_up', async () => {
        await this.refused('must_pick_up', turn, seq,
          this.submit(turn, this.actionRequest(turn, { kind: PLAY, card: this.random.pick(me.hand) }, seq)),
          'FAILED_PRECONDITION', 'must_pick_up');
      });
    }
    if (playing && !inTrick && illegal.length) {
      await probe('must_lead_card', async () => {
        await this.refused('must_lead_card', turn, seq,
          this.submit(turn, this.actionRequest(turn, { kind: PLAY, card: this.random.pick(illegal) }, seq)),
          'FAILED_PRECONDITION', 'must_lead_card');
      });
    }
    if (playing && !canPickUp && (!inTrick || holdsLed)) {
      await probe('pickup_not_allowed', async () => {
        await this.refused('pickup_not_allowed', turn, seq,
          this.submit(turn, this.actionRequest(turn, { kind: PICK_UP, card: '' }, seq)),
          'FAILED_PRECONDITION', 'pickup_not_allowed');
      });
    }
    await probe('take_hand_not_allowed', async () => {
      const cannot = views.filter((w) => !w.out[w.seat] && !w.legal_actions.some((a) => a.kind === TAKE_HAND));
      if (!cannot.length) return false;
      const s = this.random.pick(cannot).seat;
      await this.refused('take_hand_not_allowed', s, seq,
        this.submit(s, this.actionRequest(s, { kind: TAKE_HAND, card: '' }, seq)), 'FAILED_PRECONDITION', 'take_hand_not_allowed');
      return true;
    });
    // H23: nobody may take their own hand, whatever the rules offer.
    await probe('take_hand_not_allowed (own hand)', async () => {
      const s = this.random.pick(views.filter((w) => !w.out[w.seat])).seat;
      await this.refused('take_hand_not_allowed (own hand)', s, seq,
        this.submit(s, this.actionRequest(s, { kind: TAKE_HAND, card: '', seat: s }, seq)), 'FAILED_PRECONDITION', 'take_hand_not_allowed');
    });

    // A house rule's decision that is not one of the seat's legal actions now, whether or
    // not the rules have it: a challenge, an answer, a pass, a trump, a draw from oneself.
    await probe('action_not_allowed', async () => {
      const s = this.random.pick(views.filter((w) => !w.out[w.seat])).seat;
      const offered = new Set(views[s].legal_actions.map(actionWord));
      const decisions = [
        { kind: CHALLENGE, card: '' }, { kind: AGREE, card: '' }, { kind: REFUSE, card: '' }, { kind: PASS, card: '' },
        { kind: CHOOSE_TRUMP, card: '', suit: this.random.pick(SUITS) }, { kind: DRAW_FROM, card: '', seat: s },
      ].filter((a) => !offered.has(actionWord(a)));
      const action = this.random.pick(decisions);
      await this.refused(`action_not_allowed (${actionWord(action).split(':')[0]})`, s, seq,
        this.submit(s, this.actionRequest(s, action, seq)), 'FAILED_PRECONDITION', 'action_not_allowed');
    });
    // The seat the game waits for owes a decision (H12, H14, H20, H22): no card may go first.
    if (!playing && me.hand.length) {
      await probe('action_not_allowed (a card before the decision)', async () => {
        await this.refused('action_not_allowed (a card before the decision)', turn, seq,
          this.submit(turn, this.actionRequest(turn, { kind: PLAY, card: this.random.pick(me.hand) }, seq)),
          'FAILED_PRECONDITION', 'action_not_allowed');
      });
    }

    // A stale expected_seq (behind, and ahead), once in German.
    await probe('stale_seq', async () => {
      const e = await this.refused('stale_seq', turn, seq,
        this.submit(turn, this.actionRequest(turn, someLegal, seq - 1), { headers: { 'accept-language': 'de' } }),
        'ABORTED', 'stale_seq');
      if (e.info.metadata.last_seq !== String(seq)) fail(`stale_seq: metadata last_seq ${e.info.metadata.last_seq}, expected ${seq}`);
      if (e.message !== e.localized.de) fail(`stale_seq with accept-language de: status message "${e.message}" is not the German one`);
      await this.refused('stale_seq', turn, seq,
        this.submit(turn, this.actionRequest(turn, someLegal, seq + 3)), 'ABORTED', 'stale_seq');
    });

    // Retries of older requests: the stored answer, even after the table moved on; the same
    // request_id with another action is refused.
    await probe('retry of an older request', async () => {
      if (!this.history.length) return false;
      const old = this.random.pick(this.history);
      const again = await this.submit(old.seat, old.request);
      if (again.err) fail(`retrying the older request ${old.request.request_id} was refused: ${again.err.codeName} ${again.err.message}`);
      this.recordEvents(old.seat, 'SubmitAction (late retry)', again.res);
      if (JSON.stringify(again.res) !== JSON.stringify(old.response)) fail(`a late retry of ${old.request.request_id} got another answer:\nfirst: ${describe(old.response)}\nretry: ${describe(again.res)}`);
      this.count('retry of an older request');
      const other = old.request.action.kind === PICK_UP ? { kind: PLAY, card: 'AS' } : { kind: PICK_UP, card: '' };
      await this.refused('request_id_reused', old.seat, seq,
        this.submit(old.seat, { ...old.request, action: other, expected_seq: seq }), 'INVALID_ARGUMENT', 'request_id_reused');
      return true;
    });

    // Malformed messages.
    await probe('malformed', async () => {
      const base = (extra) => this.actionRequest(turn, someLegal, seq, extra);
      const bad = async (label, request, reason) => this.refused(label, turn, seq, this.submit(turn, request), 'INVALID_ARGUMENT', reason);
      await bad('bad_action (no action)', { table_id: this.tableId, request_id: this.requestId(turn), expected_seq: seq }, 'bad_action');
      await bad('bad_action (kind unset)', base({ action: { kind: 'ACTION_KIND_UNSPECIFIED', card: legalCards[0] || 'AS' } }), 'bad_action');
      await bad('bad_action (card ZZ)', base({ action: { kind: PLAY, card: 'ZZ' } }), 'bad_action');
      await bad('bad_action (no card)', base({ action: { kind: PLAY, card: '' } }), 'bad_action');
      await bad('bad_action (trump suit X)', base({ action: { kind: CHOOSE_TRUMP, card: '', suit: 'X' } }), 'bad_action');
      await bad('bad_action (draw from no seat)', base({ action: { kind: DRAW_FROM, card: '' } }), 'bad_action');
      await bad('bad_action (a seat for pass)', base({ action: { kind: PASS, card: '', seat: 1 } }), 'bad_action');
      await bad('bad_action (take seat 99)', base({ action: { kind: TAKE_HAND, card: '', seat: 99 } }), 'bad_action');
      await bad('missing_request_id', base({ request_id: '' }), 'missing_request_id');
      await bad('bad_action (request_id too long)', base({ request_id: 'r'.repeat(200) }), 'bad_action');
      const unknownKind = this.referee.encodeSubmit(base({ action: { kind: 99, card: 'AS' } }));
      await this.refused('bad_action (unknown kind 99)', turn, seq,
        this.referee.callRaw('PlayService', 'SubmitAction', unknownKind, { token: this.token(turn) }), 'INVALID_ARGUMENT', 'bad_action');
      // Bytes that are no protobuf message at all: refused like any bad request, and harmless.
      const garbage = Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]);
      const e = await this.refused('bad_request (undecodable message)', turn, seq,
        this.referee.callRaw('PlayService', 'SubmitAction', garbage, { token: this.token(turn) }), 'INVALID_ARGUMENT', 'bad_request');
      this.undecodableCode = e.codeName;
      await this.refused('table_not_found', turn, seq,
        this.submit(turn, base({ table_id: 'no-such-table' })), 'NOT_FOUND', 'table_not_found');
    });

    // Hidden cards stay hidden: the hand in play cannot be exported.
    await probe('hand_not_over', async () => {
      await this.refused('hand_not_over', -1, seq,
        this.referee.call('PlayService', 'ExportHand', { table_id: this.tableId, hand_number: hand }),
        'FAILED_PRECONDITION', 'hand_not_over');
      await this.refused('hand_not_found', -1, seq,
        this.referee.call('PlayService', 'ExportHand', { table_id: this.tableId, hand_number: hand + 1 }),
        'NOT_FOUND', 'hand_not_found');
    });

    // Streams: a forged credential, a seq from the future, and resuming after a "disconnect".
    if (!this.probed.has('watch')) {
      this.probed.set('watch', hand);
      await this.refused('bad_credential (WatchTable)', -1, seq,
        this.streamRefusal({ table_id: this.tableId, after_seq: 0 }, this.token(turn) + 'x'), 'UNAUTHENTICATED', 'bad_credential');
      await this.refused('bad_after_seq', turn, seq,
        this.streamRefusal({ table_id: this.tableId, after_seq: seq + 10 }, this.token(turn)), 'INVALID_ARGUMENT', 'bad_after_seq');
    }
    // A watcher far behind (over 1,000 events) gets every event from the first, as it
    // was sent to its seat (the referee sends no snapshot, whatever the proto keeps).
    if (seq > 1010 && !this.probed.has('late watcher')) {
      this.probed.set('late watcher', hand);
      await this.resume(turn, 0, seq, 'a watcher over 1,000 events behind gets every event');
      await this.resume(-1, 0, seq, 'a watcher over 1,000 events behind gets every event');
    }
    if (seq > 12 && !this.probed.has('resume')) {
      this.probed.set('resume', hand);
      await this.resume(turn, seq - 6, seq);
    }

    if (touched) {
      // Nothing that was refused changed anything.
      const now = await this.view(turn);
      if (now.seq !== seq || JSON.stringify(now) !== JSON.stringify(ctx.responses[turn])) {
        fail(`a refused request changed the table (seq ${seq} -> ${now.seq})`);
      }
    }
  }

  // Watch again from `after` (as after a disconnect): the same events, none lost or
  // repeated. `seat` -1: the spectator.
  async resume(seat, after, upTo, label = 'resume after a disconnect') {
    await this.waitStreams(upTo);
    const first = seat >= 0 ? this.streams[seat] : this.streams[this.streams.length - 1];
    const got = [];
    await new Promise((resolve, reject) => {
      const call = this.referee.watch({ table_id: this.tableId, after_seq: after }, seat >= 0 ? this.token(seat) : undefined);
      const timer = setTimeout(() => { call.cancel(); reject(new CheckFailure('resumed stream: no events within 10 s')); }, 10000);
      call.on('data', (m) => {
        if (m.item !== 'event') return;
        got.push(m.event);
        this.record(seat, 'WatchTable (resumed)', m.event.seq, 'event', m.event);
        if (m.event.seq >= upTo) {
          clearTimeout(timer);
          call.cancel();
          resolve();
        }
      });
      call.on('error', (err) => {
        if (err.code !== grpc.status.CANCELLED) { clearTimeout(timer); reject(new CheckFailure(`resumed stream failed: ${err.details}`)); }
      });
    });
    const seqs = got.map((e) => e.seq);
    const expected = Array.from({ length: upTo - after }, (_, i) => after + 1 + i);
    if (JSON.stringify(seqs) !== JSON.stringify(expected)) fail(`resumed after ${after}: got seqs ${seqs}, expected ${expected}`);
    for (const event of got) {
      if (canon(event) !== canon(first.events.get(event.seq))) fail(`resumed stream: event ${event.seq} differs from the first stream's`);
    }
    this.count(label);
  }

  // --- after each hand: the truth, and every message judged against it ------------------

  async finishHand(hand, overSeq) {
    await this.waitStreams(overSeq);
    const exported = await this.ok('PlayService', 'ExportHand', { table_id: this.tableId, hand_number: hand });
    const record = YAML.parse(exported.case_yaml);
    const n = this.opts.players;
    const streamOf = (s) => this.streams[s];
    const seat0 = streamOf(0);
    let start = null;
    for (let q = overSeq; q >= 1; q--) {
      const e = seat0.events.get(q);
      if (e && e.kind === 'hand_started' && e.hand_number === hand) { start = q; break; }
    }
    if (start === null) fail(`hand ${hand}: no HandStarted in seat 0's stream`);

    // Every seat (and the spectator) saw the same public events; merge their private parts.
    const merged = new Map();
    for (let q = this.timeline.lastSeq + 1; q <= overSeq; q++) merged.set(q, this.merge(q));
    const started = merged.get(start);
    const over = merged.get(overSeq);
    if (over.kind !== 'hand_over' || over.hand_number !== hand) fail(`hand ${hand}: seq ${overSeq} is not its HandOver`);
    this.handOvers.set(hand, over);

    // The deal: ExportHand, each seat's HandStarted.your_cards, and the published shuffle
    // from the revealed seed must all agree; the seed must match the commitment.
    const deal = record.deal.map((line) => String(line).split(/\s+/).filter(Boolean));
    this.deals.set(hand, deal);
    const hs = started.hand_started;
    const seed = over.hand_over.seed;
    if (!seed) fail(`hand ${hand}: HandOver revealed no seed`);
    this.seeds.set(hand, seed);
    this.scanSecrets();
    if (hs.seed_commitment !== `sha256:${sha256(seed)}`) fail(`hand ${hand}: seed_commitment ${hs.seed_commitment} is not sha256 of the seed ${seed}`);
    if (String(record.seed) !== seed) fail(`hand ${hand}: ExportHand's seed ${record.seed} is not HandOver's ${seed}`);
    if (record.players !== n || record.dealer !== hs.dealer) fail(`hand ${hand}: ExportHand says ${record.players} players, dealer ${record.dealer}`);
    if (record.ruleset.id !== this.opts.rules || record.ruleset.hash !== this.summary.hash || hs.ruleset_hash !== this.summary.hash) {
      fail(`hand ${hand}: ruleset ${record.ruleset.id} ${record.ruleset.hash} / HandStarted ${hs.ruleset_hash}, hosted ${this.summary.hash}`);
    }
    const derived = shuffle.deal(this.deck, seed, n, hs.dealer, this.step);
    for (let s = 0; s < n; s++) {
      if (!sameSet(deal[s], derived[s])) fail(`hand ${hand}: seat ${s}'s cards are not what the published shuffle deals from the seed:\n${deal[s]}\nvs\n${derived[s]}`);
      if (deal[s].length !== hs.hand_sizes[s]) fail(`hand ${hand}: HandStarted.hand_sizes ${hs.hand_sizes} vs the deal`);
      const mine = streamOf(s).events.get(start).hand_started.your_cards;
      for (const card of mine) {
        const owner = deal.findIndex((cards) => cards.includes(card));
        if (owner !== s) fail(`LEAK: hand ${hand}: HandStarted.your_cards to seat ${s} includes ${card}, dealt to seat ${owner}`);
      }
      if (!sameSet(mine, deal[s])) fail(`hand ${hand}: seat ${s} was dealt ${mine}, ExportHand says ${deal[s]}`);
    }

    // Every accepted action, once, in order.
    const steps = (record.steps || []).map((st) => `${st.seat}:${st.action}`);
    const ours = this.actionsByHand.get(hand) || [];
    if (JSON.stringify(steps) !== JSON.stringify(ours)) {
      fail(`hand ${hand}: ExportHand's actions differ from those accepted:\n${steps.join(' ')}\nvs\n${ours.join(' ')}`);
    }
    // The recorded events are the events the seats were sent, in full.
    const exportedEvents = (record.steps || []).flatMap((st) => st.events);
    const tableEvents = [];
    for (let q = start + 1; q <= overSeq; q++) tableEvents.push(merged.get(q));
    const offset = tableEvents.length - exportedEvents.length;
    if (offset < 0) fail(`hand ${hand}: ExportHand has ${exportedEvents.length} events, the table ${tableEvents.length}`);
    exportedEvents.forEach((x, i) => this.compareExported(hand, x, tableEvents[offset + i]));
    if (record.result) this.compareResult(hand, record.result, over.hand_over.result);

    // Rebuild the state after every seq, then judge every message up to here.
    for (let q = this.timeline.lastSeq + 1; q <= overSeq; q++) {
      const event = merged.get(q);
      this.timeline.apply(event, deal);
      if (q > start) this.eventKinds.set(event.kind, (this.eventKinds.get(event.kind) || 0) + 1);
    }
    this.inspectUpTo(overSeq);
    this.handsChecked += 1;
    this.log(`hand ${hand} checked: seqs ${start}..${overSeq}, ${ours.length} actions, seed ok`);
  }

  merge(q) {
    const versions = this.streams.map((st) => st.events.get(q));
    versions.forEach((e, i) => {
      if (!e) fail(`seat ${this.streams[i].seat}'s stream skipped seq ${q}`);
    });
    const reference = publicPart(versions[0]);
    versions.forEach((e, i) => {
      if (publicPart(e) !== reference) {
        fail(`seq ${q}: seat ${this.streams[i].seat} was sent another event than seat 0:\n${publicPart(e)}\nvs\n${reference}`);
      }
    });
    const full = JSON.parse(JSON.stringify(versions[0]));
    if (full.kind === 'waste_drawn') full.waste_drawn.card = versions[full.waste_drawn.seat].waste_drawn.card;
    if (full.kind === 'card_drawn') full.card_drawn.card = versions[full.card_drawn.seat].card_drawn.card;
    if (full.kind === 'hand_taken') full.hand_taken.cards = versions[full.hand_taken.taker].hand_taken.cards;
    return full;
  }

  compareExported(hand, recorded, event) {
    const where = `hand ${hand}, exported ${recorded.kind} vs seq ${event.seq} ${event.kind}`;
    if (recorded.kind !== event.kind) fail(`${where}: different events`);
    if (recorded.kind === 'hand_over') return;
    const body = event[event.kind];
    for (const [key, value] of Object.entries(recorded)) {
      if (key === 'kind') continue;
      let expected = value;
      if (value === null) expected = Array.isArray(body[key]) ? [] : typeof body[key] === 'string' ? '' : -1;
      if (JSON.stringify(expected) !== JSON.stringify(body[key])) {
        fail(`${where}: ${key} is ${JSON.stringify(value)} in the export, ${JSON.stringify(body[key])} as sent`);
      }
    }
  }

  compareResult(hand, recorded, result) {
    const termination = `TERMINATION_${String(recorded.termination).toUpperCase()}`;
    const bhabhi = result._bhabhi === 'bhabhi' || result.bhabhi ? result.bhabhi : null;
    const ok = termination === result.termination &&
      (recorded.bhabhi ?? null) === bhabhi &&
      JSON.stringify(recorded.out_order) === JSON.stringify(result.out_order) &&
      JSON.stringify(recorded.losing_team || []) === JSON.stringify(result.losing_team);
    if (!ok) fail(`hand ${hand}: ExportHand's result ${JSON.stringify(recorded)} vs HandOver ${JSON.stringify(result)}`);
  }

  inspectUpTo(seq) {
    for (const m of this.messages) {
      if (m.seq <= seq && !m.inspected) {
        this.inspect(m);
        m.inspected = true;
        this.inspected += 1;
      }
    }
  }

  // One message sent to seat m.seat (-1: no credential) at seq m.seq.
  inspect(m) {
    const s = m.seat;
    const state = this.timeline.at(m.seq);
    const who = s >= 0 ? `seat ${s}` : 'a spectator';
    const where = `${m.source} to ${who} at seq ${m.seq}`;
    const leak = (text) => fail(`LEAK: ${where}: ${text}`);
    if (m.kind === 'event') {
      const e = m.body;
      if (e.kind === 'hand_started') {
        const deal = this.deals.get(e.hand_number);
        for (const card of e.hand_started.your_cards) {
          const owner = deal.findIndex((cards) => cards.includes(card));
          if (owner !== s) leak(`your_cards includes ${card}, dealt to seat ${owner}`);
        }
        if (s >= 0 && !sameSet(e.hand_started.your_cards, deal[s])) fail(`${where}: your_cards ${e.hand_started.your_cards} is not the seat's deal`);
      } else if (e.kind === 'waste_drawn') {
        if (e.waste_drawn.card && s !== e.waste_drawn.seat) leak(`waste_drawn.card ${e.waste_drawn.card} drawn by seat ${e.waste_drawn.seat}`);
        if (!e.waste_drawn.card && s === e.waste_drawn.seat) fail(`${where}: the drawer was not told the card it drew`);
      } else if (e.kind === 'card_drawn') {
        const d = e.card_drawn;
        if (d.card && s !== d.seat && s !== d.from_seat) leak(`card_drawn.card ${d.card} (seat ${d.seat} drew from seat ${d.from_seat})`);
        if (!d.card && (s === d.seat || s === d.from_seat)) fail(`${where}: seat ${s} was not told the card drawn`);
      } else if (e.kind === 'hand_taken') {
        const h = e.hand_taken;
        if (h.cards.length && s !== h.taker && s !== h.seat) leak(`hand_taken.cards ${h.cards} (seat ${h.taker} took seat ${h.seat}'s hand)`);
        if ((s === h.taker || s === h.seat) && h.cards.length !== h.count) fail(`${where}: the taker was shown ${h.cards.length} of ${h.count} cards`);
      }
    } else if (m.kind === 'view') {
      const view = m.body;
      if (!view) return;
      if (view.seat !== s) fail(`${where}: the view is of seat ${view.seat}`);
      for (const card of view.hand) {
        const owner = state.holder(card);
        if (owner !== s) {
          if (owner >= 0) leak(`hand includes ${card}, held by seat ${owner}`);
          if (state.waste.has(card)) leak(`hand includes ${card}, face down in the waste pile`);
          fail(`${where}: hand includes ${card}, which the seat does not hold`);
        }
      }
      if (s >= 0 && !sameSet(view.hand, [...state.hands[s]])) fail(`${where}: hand ${view.hand} but the events say ${[...state.hands[s]]}`);
      view.known_cards.forEach((k, t) => {
        for (const card of k.cards) {
          if (!state.known[t].has(card)) leak(`known_cards of seat ${t} includes ${card}, which nobody saw go into that hand`);
        }
        if (!sameSet(k.cards, [...state.known[t]])) fail(`${where}: known_cards of seat ${t} ${k.cards}, the events say ${[...state.known[t]]}`);
      });
      if (JSON.stringify(view.out) !== JSON.stringify(state.out)) fail(`${where}: out ${view.out}, the events say ${state.out}`);
      if (view.trump !== state.trump) fail(`${where}: trump '${view.trump}', the events say '${state.trump}'`);
      if (view.led_suit !== state.ledSuit()) fail(`${where}: led_suit '${view.led_suit}', the events say '${state.ledSuit()}'`);
      // H25: the trick just ended, shown while it may be challenged: its cards as played.
      if (view.last_trick.length) {
        const last = state.lastTrick;
        const shown = JSON.stringify(view.last_trick.map((p) => [p.seat, p.card]));
        if (!last || shown !== JSON.stringify(last.plays.map((p) => [p.seat, p.card]))) {
          leak(`last_trick ${shown} is not the trick that ended last (${last && JSON.stringify(last.plays)})`);
        }
        if (!last.offSuit.length) fail(`${where}: last_trick shown for a trick with no off-suit card`);
      }
      const sizes = state.hands.map((h) => h.size);
      if (JSON.stringify(view.hand_sizes) !== JSON.stringify(sizes)) fail(`${where}: hand_sizes ${view.hand_sizes}, the events say ${sizes}`);
      if (view.waste_size !== state.waste.size) fail(`${where}: waste_size ${view.waste_size}, the events say ${state.waste.size}`);
      if (JSON.stringify(view.trick.map((p) => p.card)) !== JSON.stringify(state.trick)) fail(`${where}: trick ${view.trick.map((p) => p.card)}, the events say ${state.trick}`);
      for (const a of view.legal_actions) {
        if (s < 0) leak('a spectator was given legal actions');
        const bad = (text) => fail(`${where}: legal action ${actionWord(a)}: ${text}`);
        switch (a.kind) {
          case PLAY:
            if (!state.hands[s].has(a.card)) leak(`legal_actions include ${a.card}, which the seat does not hold`);
            break;
          case TAKE_HAND:
            if (hasSeat(a) && (a.seat === s || state.out[a.seat])) bad('a hand of nobody else still in');
            break;
          case DRAW_FROM:
            if (a.seat === s || state.out[a.seat] || !state.hands[a.seat].size || state.hands[s].size) bad('H14 draws from another player still in, by a seat without cards');
            break;
          case AGREE: case REFUSE:
            if (!state.takeRequest || state.takeRequest.seat !== s) bad('no request for this seat\'s hand waits (H20)');
            break;
          case CHALLENGE:
            if (!state.lastTrick || !state.lastTrick.offSuit.length || state.lastTrick.offSuit.includes(s)) bad('no trick this seat may challenge (H25)');
            break;
          case CHOOSE_TRUMP:
            if (!SUITS.includes(a.suit) || state.trump) bad('the trump is fixed already, or no suit (H12)');
            break;
          default:
            break;
        }
      }
    } else if (m.kind === 'refusal') {
      const words = m.body.info && m.body.info.metadata.legal_actions;
      if (words) {
        for (const word of words.split(',')) {
          if (NOT_A_CARD.test(word)) continue;
          if (s < 0 || !state.hands[s].has(word)) leak(`the refusal lists the legal action ${word}, not in the seat's hand`);
        }
      }
    }
  }

  // --- the end ------------------------------------------------------------------------

  async finishSession() {
    const end = this.sessionOver;
    const last = end.seq;
    await this.waitStreams(last);
    for (let q = this.timeline.lastSeq + 1; q <= last; q++) this.timeline.apply(this.merge(q), null);
    for (const st of this.streams) {
      const expected = Array.from({ length: last }, (_, i) => i + 1);
      if (JSON.stringify(st.seqs.slice(0, last)) !== JSON.stringify(expected)) fail(`the stream of ${st.seat >= 0 ? `seat ${st.seat}` : 'the spectator'} is not seqs 1..${last} in order`);
    }
    // Each SubmitAction answer is what that seat's stream said, event by event.
    for (const m of this.messages) {
      if (m.kind === 'event' && m.seat >= 0 && m.source.startsWith('SubmitAction')) {
        if (canon(m.body) !== canon(this.streams[m.seat].events.get(m.seq))) fail(`seq ${m.seq}: the SubmitAction answer to seat ${m.seat} differs from its stream`);
      }
    }
    const so = end.session_over;
    const counts = Array(this.opts.players).fill(0);
    for (const over of this.handOvers.values()) {
      const r = over.hand_over.result;
      if (r._bhabhi === 'bhabhi') counts[r.bhabhi] += 1;
    }
    if (so.hands_played !== this.opts.hands || this.handOvers.size !== this.opts.hands) fail(`SessionOver says ${so.hands_played} hands, ${this.handOvers.size} were played, ${this.opts.hands} asked`);
    if (JSON.stringify(so.bhabhi_counts) !== JSON.stringify(counts)) fail(`SessionOver bhabhi_counts ${so.bhabhi_counts}, the hands say ${counts}`);
    const table = (await this.ok('TableService', 'GetTable', { table_id: this.tableId })).table;
    if (table.status !== 'TABLE_STATUS_FINISHED' || table.hands_dealt !== this.opts.hands || table.last_seq !== last) {
      fail(`GetTable after the session: ${table.status}, ${table.hands_dealt} hands dealt, last_seq ${table.last_seq} (SessionOver at ${last})`);
    }
    if (JSON.stringify(table.seats.map((s) => s.bhabhi_count)) !== JSON.stringify(counts)) fail(`GetTable bhabhi_count ${table.seats.map((s) => s.bhabhi_count)}, the hands say ${counts}`);

    for (const s of this.seats) await this.view(s.seat);
    await this.view(-1);
    const request = this.actionRequest(0, { kind: PICK_UP, card: '' }, last);
    await this.refused('hand_over', 0, last, this.submit(0, request), 'FAILED_PRECONDITION', 'hand_over');
    this.inspectAll();

    // After the end, a retry still gets its first answer (checked last, so that a failure
    // here hides none of the checks above).
    const old = this.history[this.history.length - 1];
    const again = await this.submit(old.seat, old.request);
    if (again.err) fail(`a retry after the session ended was refused: ${again.err.codeName} ${again.err.info && again.err.info.reason} ${again.err.message}`);
    this.recordEvents(old.seat, 'SubmitAction (retry after the end)', again.res);
    this.inspectAll();
    if (JSON.stringify(again.res) !== JSON.stringify(old.response)) {
      fail(`a retry of the session's last action (request ${old.request.request_id}) got another answer than the first:\n` +
        `first: ${describe(old.response)}\nretry: ${describe(again.res)}`);
    }
    this.count('retry: same answer, applied once');
    for (const st of this.streams) st.call.cancel();
  }

  // Inspect every message not yet judged; then look for seeds and credentials anywhere.
  inspectAll() {
    this.inspectUpTo(Infinity);
    this.scanSecrets();
  }

  // The seed of a hand reaches the seats only in its HandOver; no credential reaches
  // anybody but its holder.
  scanSecrets() {
    for (const m of this.messages) {
      if (m.text === undefined) m.text = JSON.stringify(m.body);
      for (const [hand, seed] of this.seeds) {
        if (m.text.includes(seed) && !(m.kind === 'event' && m.body.kind === 'hand_over' && m.body.hand_number === hand)) {
          fail(`LEAK: the seed of hand ${hand} appears in ${m.source} to seat ${m.seat} at seq ${m.seq}, outside its HandOver`);
        }
      }
      if (m.tokensChecked) continue;
      for (const s of this.seats) {
        if (s.seat !== m.seat && m.text.includes(s.token)) fail(`LEAK: seat ${s.seat}'s credential was sent to seat ${m.seat} (${m.source})`);
      }
      m.tokensChecked = true;
    }
  }

  summaryText() {
    const refusals = [...this.refusals.values()].reduce((a, b) => a + b, 0);
    const seen = new Set([...this.refusals.keys(), ...this.checks.keys()]);
    const missing = ['not_your_turn', 'bad_credential', 'unauthenticated', 'card_not_in_hand', 'must_follow_suit',
      'stale_seq', 'retry: same answer, applied once', 'bad_action (kind unset)', 'bad_action (card ZZ)']
      .filter((label) => !seen.has(label));
    const list = (map) => [...map.entries()].sort().map(([k, v]) => `${k} x${v}`).join(', ');
    const lines = [
      `ruleset ${this.opts.rules}, ${this.opts.players} players, table ${this.tableId}, client seed ${this.opts.seed}`,
      `hands played: ${this.handsChecked}, actions: ${this.actions}, refusals checked: ${refusals}, ` +
        `messages inspected: ${this.inspected}, leaks: 0`,
      `decisions: ${list(this.decisions)}`,
      `events: ${list(this.eventKinds)}`,
      `refusals: ${list(this.refusals)}`,
      `other checks: ${list(this.checks)}`,
    ];
    if (this.undecodableCode) lines.push(`undecodable request bytes were answered with ${this.undecodableCode}`);
    if (missing.length) lines.push(`not met in this run (the situation did not occur): ${missing.join(', ')}`);
    return lines.join('\n');
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const watchdog = setTimeout(() => {
    console.error(`FAIL: no result within ${opts.timeout} s (client seed ${opts.seed})`);
    process.exit(1);
  }, opts.timeout * 1000);
  const game = new Game(opts);
  try {
    await game.setUp();
    await game.play();
    await game.finishSession();
    console.log(game.summaryText());
    clearTimeout(watchdog);
    game.referee.close();
    process.exit(0);
  } catch (err) {
    const kind = err instanceof CheckFailure ? 'FAIL' : 'ERROR';
    console.error(`${kind}: ${err instanceof CheckFailure ? err.message : err.stack}`);
    console.error(`(ruleset ${opts.rules}, ${opts.players} players, client seed ${opts.seed}, table ${game.tableId || '-'})`);
    process.exit(1);
  }
}

main();
