'use strict';
// What really happened in a hand, and whether any seat was told more than it may know.
//
// The truth is rebuilt from the hand's own events: the full deal comes from ExportHand
// (once the hand is over), and every later change of hands from the events, each taken in
// its fullest version (a B8 draw as its drawer saw it, a taken hand as its taker saw it).
// `Timeline` keeps the state after every seq, so that each message a seat received can be
// judged against the state at the seq it was sent at.

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

class State {
  constructor(players) {
    this.hands = Array.from({ length: players }, () => new Set());
    this.known = Array.from({ length: players }, () => new Set());
    this.waste = new Set();
    this.trick = [];
    this.handNumber = -1;
  }

  copy() {
    const next = new State(this.hands.length);
    next.hands = this.hands.map((h) => new Set(h));
    next.known = this.known.map((k) => new Set(k));
    next.waste = new Set(this.waste);
    next.trick = [...this.trick];
    next.handNumber = this.handNumber;
    return next;
  }

  holder(card) {
    return this.hands.findIndex((h) => h.has(card));
  }
}

class Timeline {
  constructor(players) {
    this.players = players;
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
    const where = `seq ${event.seq} (${event.kind})`;
    const take = (seat, card) => {
      if (!s.hands[seat].has(card)) fail(`${where}: seat ${seat} played ${card}, which it did not hold`);
      s.hands[seat].delete(card);
      s.known[seat].delete(card);
    };
    const body = event[event.kind];
    switch (event.kind) {
      case 'hand_started': {
        const next = new State(this.players);
        next.handNumber = event.hand_number;
        deal.forEach((cards, seat) => cards.forEach((c) => next.hands[seat].add(c)));
        this.state = next;
        break;
      }
      case 'card_played':
        take(body.seat, body.card);
        s.trick.push(body.card);
        break;
      case 'picked_up': {
        if (!sameSet(body.cards, s.trick)) {
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
        s.trick = [];
        break;
      }
      case 'trick_to_waste':
        if (!sameSet(body.cards, s.trick)) {
          fail(`${where}: ${body.cards} went to the waste pile but the trick is ${s.trick}`);
        }
        for (const c of body.cards) s.waste.add(c);
        s.trick = [];
        break;
      case 'waste_drawn':
        if (!body.card) fail(`${where}: no seat saw the card drawn`);
        if (!s.waste.has(body.card)) fail(`${where}: ${body.card} drawn but not in the waste pile`);
        s.waste.delete(body.card);
        s.hands[body.seat].add(body.card);
        break;
      case 'card_drawn':
        if (!body.card) fail(`${where}: no seat saw the card drawn`);
        if (!s.hands[body.from_seat].has(body.card)) fail(`${where}: ${body.card} drawn but seat ${body.from_seat} does not hold it`);
        s.hands[body.from_seat].delete(body.card);
        s.known[body.from_seat].clear(); // any of its face-up cards may be the one drawn
        s.hands[body.seat].add(body.card);
        break;
      case 'hand_taken': {
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
      default:
        break; // no card changes hands (illegal_play_penalised: the card goes back)
    }
    this.lastSeq = event.seq;
    this.states.set(event.seq, this.state.copy());
  }
}

module.exports = { CheckFailure, fail, sameSet, sorted, State, Timeline };
