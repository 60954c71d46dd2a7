'use strict';
// What really happened in a hand, and whether any seat was told more than it may know.
//
// The truth is rebuilt from the hand's own events: the full deal comes from ExportHand
// (once the hand is over), and every later change of hands from the events, each taken in
// its fullest version (a B8 draw as its drawer saw it, an H14 draw as its drawer saw it, a
// taken hand as its taker saw it). `Timeline` keeps the state after every seq, so that
// each message a seat received can be judged against the state at the seq it was sent at.
//
// Where the house rules say more than "this card moved", the tracker checks that too, from
// the ruleset (`rulesOf` reads what it needs from GetRuleset's YAML): the top card of an
// H16 draw, the trick gone to the waste pile before an H15 or H14 draw, whose hand an H14
// draw comes from, a challenge's verdict (H25) against the cards the offender held, a
// hand taken under H20 only after the asked player agreed.

class CheckFailure extends Error {}

function fail(message) {
  throw new CheckFailure(message);
}

function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return set.size === a.length && b.every((c) => set.has(c));
}

function sorted(cards) {
  return [...cards].sort();
}

// `10H` -> `H`, `AS/2` -> `S`.
const suitOf = (card) => card.split('/')[0].slice(-1);

// What the tracker needs of a resolved ruleset (GetRuleset's YAML, parsed).
function rulesOf(doc) {
  const next = doc.next_leader || {};
  const take = doc.take_hand || {};
  return {
    step: doc.direction === 'counterclockwise' ? -1 : 1,
    drawsFromPlayer: next.if_out === 'draws_from_player', // H14
    drawChosen: next.draw_from === 'chosen', // H14
    drawWithTrick: next.draw_pile === 'waste_and_trick', // H15
    drawTop: next.draw === 'top', // H16
    consent: take.consent === true, // H20
    falseTochooPenalty: doc.false_tochoo_penalty || 'bhabhi', // H25
    trumpAtStart: doc.trump === 'fixed' ? doc.trump_suit : '', // H12 fixed
  };
}

class State {
  constructor(players) {
    this.hands = Array.from({ length: players }, () => new Set());
    this.known = Array.from({ length: players }, () => new Set());
    this.out = Array(players).fill(false);
    this.waste = new Set();
    this.wasteOrder = []; // H16: the cards as they went to the waste pile, the top last
    this.trick = []; // the cards of the trick in play, in play order
    this.trickSeats = []; // who played them
    this.trickNumber = 0;
    this.offSuit = []; // H25: the seats that played off the led suit to the trick in play
    this.falseSeats = []; // H25: those of them that held the led suit when they did
    this.lastTrick = null; // the trick that ended last: {number, plays, offSuit, falseSeats}
    this.takeUp = null; // H25, H26: {seat, cards} of a penalty pickup of the last trick to come
    this.takeRequest = null; // H20: {taker, seat} waiting for its answer
    this.agreedTake = null; // H20: {taker, seat} agreed, its hand_taken to come
    this.trump = '';
    this.handNumber = -1;
  }

  copy() {
    const next = new State(this.hands.length);
    next.hands = this.hands.map((h) => new Set(h));
    next.known = this.known.map((k) => new Set(k));
    next.out = [...this.out];
    next.waste = new Set(this.waste);
    next.wasteOrder = [...this.wasteOrder];
    next.trick = [...this.trick];
    next.trickSeats = [...this.trickSeats];
    next.trickNumber = this.trickNumber;
    next.offSuit = [...this.offSuit];
    next.falseSeats = [...this.falseSeats];
    next.lastTrick = this.lastTrick; // never changed in place
    next.takeUp = this.takeUp;
    next.takeRequest = this.takeRequest;
    next.agreedTake = this.agreedTake;
    next.trump = this.trump;
    next.handNumber = this.handNumber;
    return next;
  }

  holder(card) {
    return this.hands.findIndex((h) => h.has(card));
  }

  ledSuit() {
    return this.trick.length ? suitOf(this.trick[0]) : '';
  }

  // The next seat still in after `seat`, going `step` round the table.
  nextIn(seat, step) {
    const n = this.hands.length;
    let s = (seat + step + n) % n;
    while (this.out[s] && s !== seat) s = (s + step + n) % n;
    return s;
  }

  // The trick in play has ended (picked up, or gone to the waste pile): remember it as the
  // last trick (H25 challenges it, H26 may pick it up) and start afresh.
  endTrick() {
    this.lastTrick = {
      number: this.trickNumber,
      plays: this.trick.map((card, i) => ({ seat: this.trickSeats[i], card })),
      offSuit: this.offSuit,
      falseSeats: this.falseSeats,
    };
    this.trick = [];
    this.trickSeats = [];
    this.offSuit = [];
    this.falseSeats = [];
  }
}

class Timeline {
  constructor(players, rules = rulesOf({})) {
    this.players = players;
    this.rules = rules;
    this.states = new Map(); // seq -> State after that event
    this.state = new State(players);
    this.lastSeq = 0;
    this.states.set(0, this.state.copy());
  }

  at(seq) {
    for (let q = Math.min(seq, this.lastSeq); q >= 0; q--) {
      const state = this.states.get(q);
      if (state) return state;
    }
    return this.states.get(0);
  }

  // Apply one event (its fullest version); `deal` is the hand's deal from ExportHand.
  apply(event, deal) {
    const s = this.state;
    const rules = this.rules;
    const where = `seq ${event.seq} (${event.kind})`;
    const take = (seat, card) => {
      if (!s.hands[seat].has(card)) fail(`${where}: seat ${seat} played ${card}, which it did not hold`);
      s.hands[seat].delete(card);
      s.known[seat].delete(card);
    };
    const body = event[event.kind];
    if (s.agreedTake && event.kind !== 'hand_taken') fail(`${where}: seat ${s.agreedTake.seat} agreed (H20), but no hand_taken followed`);
    if (s.takeUp && event.kind !== 'picked_up') fail(`${where}: seat ${s.takeUp.seat} was to pick up the last trick, but no picked_up followed`);
    switch (event.kind) {
      case 'hand_started': {
        const next = new State(this.players);
        next.handNumber = event.hand_number;
        next.trump = rules.trumpAtStart;
        deal.forEach((cards, seat) => cards.forEach((c) => next.hands[seat].add(c)));
        this.state = next;
        break;
      }
      case 'card_played': {
        if (s.out[body.seat]) fail(`${where}: seat ${body.seat} played, but it is out`);
        if (s.trick.length) {
          const led = s.ledSuit();
          if (suitOf(body.card) !== led) {
            // H25: off the led suit; false if the player still held the led suit.
            s.offSuit.push(body.seat);
            if ([...s.hands[body.seat]].some((c) => c !== body.card && suitOf(c) === led)) s.falseSeats.push(body.seat);
          }
        } else {
          s.trickNumber = body.trick;
        }
        take(body.seat, body.card);
        s.trick.push(body.card);
        s.trickSeats.push(body.seat);
        break;
      }
      case 'picked_up': {
        if (s.takeUp) {
          // H25 (pickup_and_lead), H26 between tricks: the cards of the trick just ended,
          // from whoever holds them now or from the waste pile.
          const up = s.takeUp;
          s.takeUp = null;
          if (body.seat !== up.seat || !body.penalty || body.from_waste) fail(`${where}: seat ${body.seat} picked up (penalty ${body.penalty}, ${body.from_waste} from the waste pile); seat ${up.seat} was to pick up the last trick as a penalty`);
          if (!sameSet(body.cards, up.cards)) fail(`${where}: picked up ${body.cards}, but the last trick was ${up.cards}`);
          for (const c of body.cards) {
            if (s.waste.has(c)) {
              s.waste.delete(c);
            } else {
              const owner = s.holder(c);
              if (owner < 0) fail(`${where}: ${c} is neither in a hand nor in the waste pile`);
              s.hands[owner].delete(c);
              s.known[owner].delete(c);
            }
            s.hands[body.seat].add(c);
            s.known[body.seat].add(c);
          }
          break;
        }
        if (!s.trick.length || !sameSet(body.cards, s.trick)) {
          fail(`${where}: picked up ${body.cards} but the trick is ${s.trick}`);
        }
        for (const c of body.cards) {
          s.hands[body.seat].add(c);
          s.known[body.seat].add(c);
        }
        if (body.from_waste) {
          if (body.from_waste !== s.waste.size) {
            fail(`${where}: ${body.from_waste} cards from a waste pile of ${s.waste.size}`);
          }
          for (const c of s.waste) s.hands[body.seat].add(c);
          s.waste.clear();
        }
        s.endTrick();
        break;
      }
      case 'trick_to_waste':
        if (!s.trick.length || !sameSet(body.cards, s.trick)) {
          fail(`${where}: ${body.cards} went to the waste pile but the trick is ${s.trick}`);
        }
        for (const c of s.trick) {
          s.waste.add(c);
          s.wasteOrder.push(c); // H16: in the order they were played
        }
        s.endTrick();
        break;
      case 'waste_drawn': {
        if (!body.card) fail(`${where}: no seat saw the card drawn`);
        if (!s.waste.has(body.card)) fail(`${where}: ${body.card} drawn but not in the waste pile`);
        if (s.hands[body.seat].size) fail(`${where}: seat ${body.seat} drew from the waste pile but holds ${[...s.hands[body.seat]]}`);
        if (rules.drawWithTrick && s.trick.length) fail(`${where}: H15: the draw came before the trick ${s.trick} joined the waste pile`);
        if (rules.drawTop) {
          const top = s.wasteOrder.filter((c) => s.waste.has(c)).pop();
          if (top !== undefined && body.card !== top) fail(`${where}: H16: drew ${body.card}, but the top of the waste pile is ${top}`);
        }
        s.waste.delete(body.card);
        s.hands[body.seat].add(body.card);
        break;
      }
      case 'card_drawn': {
        const from = body.from_seat;
        if (!body.card) fail(`${where}: no seat saw the card drawn`);
        if (!rules.drawsFromPlayer) fail(`${where}: these rules do not draw from a player's hand (H14)`);
        if (from === body.seat || s.out[from]) fail(`${where}: seat ${body.seat} drew from seat ${from}, who is ${from === body.seat ? 'itself' : 'out'}`);
        if (!rules.drawChosen && from !== s.nextIn(body.seat, rules.step)) fail(`${where}: H14: seat ${body.seat} drew from seat ${from}, not from the next player still in`);
        if (s.hands[body.seat].size) fail(`${where}: seat ${body.seat} drew but holds ${[...s.hands[body.seat]]}`);
        if (s.trick.length) fail(`${where}: H14: the draw came before the trick ${s.trick} went to the waste pile`);
        if (!s.hands[from].has(body.card)) fail(`${where}: ${body.card} drawn but seat ${from} does not hold it`);
        s.hands[from].delete(body.card);
        s.known[from].clear(); // any of its face-up cards may be the one drawn
        s.hands[body.seat].add(body.card);
        break;
      }
      case 'take_requested': {
        if (!rules.consent) fail(`${where}: a take was asked for, but these rules take without consent`);
        if (s.takeRequest) fail(`${where}: seat ${body.taker} asked while seat ${s.takeRequest.taker}'s request waits`);
        if (s.out[body.taker] || s.out[body.seat] || body.taker === body.seat) fail(`${where}: seat ${body.taker} asked for seat ${body.seat}'s hand`);
        s.takeRequest = { taker: body.taker, seat: body.seat };
        break;
      }
      case 'take_answered': {
        const asked = s.takeRequest;
        if (!asked || asked.taker !== body.taker || asked.seat !== body.seat) fail(`${where}: seat ${body.seat} answered seat ${body.taker}, but the request waiting is ${JSON.stringify(asked)}`);
        s.takeRequest = null;
        if (body.agreed) s.agreedTake = asked;
        break;
      }
      case 'hand_taken': {
        if (rules.consent) {
          const agreed = s.agreedTake;
          if (!agreed || agreed.taker !== body.taker || agreed.seat !== body.seat) fail(`${where}: seat ${body.taker} took seat ${body.seat}'s hand without its agreement (H20)`);
        }
        s.agreedTake = null;
        const held = [...s.hands[body.seat]];
        if (!sameSet(body.cards, held) || body.count !== held.length) {
          fail(`${where}: seat ${body.taker} took ${body.cards} (${body.count}) but seat ${body.seat} held ${held}`);
        }
        for (const c of held) s.hands[body.taker].add(c);
        for (const c of s.known[body.seat]) s.known[body.taker].add(c);
        s.hands[body.seat].clear();
        s.known[body.seat].clear();
        break;
      }
      case 'take_passed':
        if (s.out[body.seat]) fail(`${where}: seat ${body.seat} passed, but it is out`);
        break;
      case 'player_out':
        if (s.out[body.seat]) fail(`${where}: seat ${body.seat} went out twice`);
        s.out[body.seat] = true;
        break;
      case 'trump_fixed':
        s.trump = body.suit;
        break;
      case 'illegal_play_penalised':
        // C12: the card goes back; H26: it stays. Either way the offender holds it.
        if (!s.hands[body.seat].has(body.card)) fail(`${where}: seat ${body.seat} was penalised for ${body.card}, which it does not hold`);
        if (body.offence === 'not_your_turn' && !s.trick.length) {
          // H26 between tricks: the offender picks up the trick just ended.
          if (!s.lastTrick) fail(`${where}: a penalty between tricks, but no trick has ended`);
          s.takeUp = { seat: body.seat, cards: s.lastTrick.plays.map((p) => p.card) };
        }
        break;
      case 'tochoo_challenged': {
        // H25: the verdict must be what the cards say: right when a player of an off-suit
        // card to the trick just ended held the led suit; the first such player pays.
        const last = s.lastTrick;
        if (!last || last.number !== body.trick || !last.offSuit.length) fail(`${where}: trick ${body.trick} challenged, but the last trick was ${last && last.number} with off-suit cards of ${last && last.offSuit}`);
        if (last.offSuit.includes(body.challenger) || s.out[body.challenger]) fail(`${where}: seat ${body.challenger} may not challenge (it played off suit to the trick, or is out)`);
        const offender = last.falseSeats.length ? last.falseSeats[0] : -1;
        const penalty = offender < 0 ? '' : rules.falseTochooPenalty;
        if (body.right !== offender >= 0 || body.offender !== offender || body.penalty !== penalty) {
          fail(`${where}: right ${body.right}, offender ${body.offender}, penalty '${body.penalty}'; the cards say offender ${offender}, penalty '${penalty}'`);
        }
        if (penalty === 'pickup_and_lead') s.takeUp = { seat: offender, cards: last.plays.map((p) => p.card) };
        break;
      }
      default:
        break; // no card changes hands
    }
    this.lastSeq = event.seq;
    this.states.set(event.seq, this.state.copy());
  }
}

module.exports = { CheckFailure, fail, sameSet, sorted, suitOf, rulesOf, State, Timeline };
