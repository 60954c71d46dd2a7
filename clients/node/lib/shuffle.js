'use strict';
// The published shuffle (docs/shuffle.md), written from the page alone, to re-derive a
// hand's deal from the seed that HandOver reveals.

const crypto = require('node:crypto');

const SUITS = 'CDHS';
const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
const TWO_64 = 1n << 64n;

function cardId(text) {
  let raw = text.trim().toUpperCase();
  let pack = 0;
  const slash = raw.indexOf('/');
  if (slash >= 0) {
    pack = Number(raw.slice(slash + 1)) - 1;
    raw = raw.slice(0, slash);
  }
  const rank = RANKS.indexOf(raw.slice(0, -1));
  const suit = SUITS.indexOf(raw.slice(-1));
  if (rank < 0 || suit < 0 || !(pack >= 0)) throw new Error(`not a card: ${text}`);
  return pack * 52 + suit * 13 + rank;
}

function cardText(id) {
  const pack = Math.floor(id / 52);
  const suit = Math.floor((id % 52) / 13);
  const rank = id % 13;
  const text = RANKS[rank] + SUITS[suit];
  return pack ? `${text}/${pack + 1}` : text;
}

class Stream {
  constructor(seed, label) {
    this.prefix = Buffer.concat([Buffer.from(label, 'utf8'), Buffer.from([0]), seedBytes(seed)]);
    this.counter = 0n;
    this.words = [];
  }

  u64() {
    if (!this.words.length) {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(this.counter);
      this.counter += 1n;
      const digest = crypto.createHash('sha256').update(this.prefix).update(counter).digest();
      for (let i = 0; i < 4; i++) this.words.push(digest.readBigUInt64BE(8 * i));
    }
    return this.words.shift();
  }

  uniform(m) {
    const big = BigInt(m);
    const limit = TWO_64 - (TWO_64 % big);
    for (;;) {
      const u = this.u64();
      if (u < limit) return Number(u % big);
    }
  }
}

function seedBytes(seed) {
  if (Buffer.isBuffer(seed)) return seed;
  if (typeof seed === 'number') return Buffer.from(String(seed), 'ascii');
  return Buffer.from(seed, 'utf8');
}

// The deck of a ruleset (its `deck.packs` and `deck.ranks`), in ascending card id.
function deckOf(deck) {
  const ids = [];
  for (let pack = 0; pack < deck.packs; pack++) {
    for (let suit = 0; suit < 4; suit++) {
      for (const rank of deck.ranks) ids.push(pack * 52 + suit * 13 + RANKS.indexOf(String(rank)));
    }
  }
  return ids.sort((a, b) => a - b);
}

// Every seat's cards, as the referee must have dealt them from `seed`.
function deal(deckIds, seed, players, dealer, step) {
  const cards = [...deckIds];
  const stream = new Stream(seed, 'bhabhi/shuffle/v1');
  for (let i = cards.length - 1; i >= 1; i--) {
    const j = stream.uniform(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  const hands = Array.from({ length: players }, () => []);
  cards.forEach((card, k) => {
    const seat = (((dealer + step * ((k % players) + 1)) % players) + players) % players;
    hands[seat].push(cardText(card));
  });
  return hands;
}

module.exports = { cardId, cardText, deal, deckOf, Stream };
