// Cards in the referee's compact notation (`AS`, `10H`, `TH`, `KS/2`): parsed, numbered as
// the published shuffle numbers them, sorted by suit then rank, written and drawn with their
// suit symbol in colour (hearts and diamonds red). The one reading of a card's text.
import { h } from "./dom";

export type Suit = "S" | "H" | "C" | "D";

export interface Card {
  /** The card as the referee writes it, upper case, `10` for ten. */
  text: string;
  rank: string;
  suit: Suit;
  /** The pack it belongs to: 1, or 2 for `/2` (and so on for more packs). */
  pack: number;
}

export const SUIT_SYMBOL: Record<Suit, string> = { S: "♠", H: "♥", C: "♣", D: "♦" };
/** Suits in a hand's order: colours alternate. */
const SUIT_ORDER: Suit[] = ["S", "H", "C", "D"];
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
/** Suits in card-id order (docs/shuffle.md): clubs, diamonds, hearts, spades. */
const ID_SUITS: Suit[] = ["C", "D", "H", "S"];
const CARD = /^(10|[2-9TJQKA])([CDHS])(?:\/(\d+))?$/;

/** The card `text` names, or null when it is not a card. */
export function parseCard(text: string): Card | null {
  const found = CARD.exec(text.trim().toUpperCase());
  if (found === null) return null;
  const rank = found[1] === "T" ? "10" : found[1];
  const suit = found[2] as Suit;
  const pack = found[3] === undefined ? 1 : Number(found[3]);
  if (pack < 1) return null;
  return { text: `${rank}${suit}${pack > 1 ? `/${pack}` : ""}`, rank, suit, pack };
}

/** A card's id, as the published shuffle orders the deck (`(pack - 1) * 52 + suit * 13 +
 * rank`, suits C D H S, ranks 2 to A), or null when `text` is not a card. */
export function cardId(text: string): number | null {
  const card = parseCard(text);
  if (card === null) return null;
  return (card.pack - 1) * 52 + ID_SUITS.indexOf(card.suit) * 13 + RANK_ORDER.indexOf(card.rank);
}

/** The cards in ascending card id (the ones that are not cards first). */
export function byId(texts: readonly string[]): string[] {
  return [...texts].sort((a, b) => (cardId(a) ?? -1) - (cardId(b) ?? -1));
}

/** A card as text: its rank and suit symbol (`A♠`; a second pack's `A♠/2`). */
export function cardText(text: string): string {
  const card = parseCard(text);
  return card === null ? text : `${card.rank}${SUIT_SYMBOL[card.suit]}${card.pack > 1 ? `/${card.pack}` : ""}`;
}

/** The same card written one way (`TH` and `10h` are `10H`). */
export function normalCard(text: string): string {
  return parseCard(text)?.text ?? text.trim().toUpperCase();
}

export function isRed(suit: Suit): boolean {
  return suit === "H" || suit === "D";
}

/** The cards by suit (♠ ♥ ♣ ♦), each suit from the lowest rank up. */
export function sortCards(texts: readonly string[]): Card[] {
  const cards = texts.map((text) => parseCard(text)).filter((c): c is Card => c !== null);
  return cards.sort(
    (a, b) =>
      SUIT_ORDER.indexOf(a.suit) - SUIT_ORDER.indexOf(b.suit) ||
      RANK_ORDER.indexOf(a.rank) - RANK_ORDER.indexOf(b.rank) ||
      a.pack - b.pack,
  );
}

/** A card's face as inline elements: its rank, then its suit symbol in colour. */
export function cardFace(text: string): HTMLSpanElement {
  const card = parseCard(text);
  if (card === null) return h("span", { class: "face" }, text);
  return h(
    "span",
    { class: `face ${isRed(card.suit) ? "red" : "black"}`, "data-card": card.text },
    card.rank,
    h("span", { class: "suit" }, SUIT_SYMBOL[card.suit]),
    card.pack > 1 ? h("sub", {}, String(card.pack)) : null,
  );
}

/** A suit symbol in its colour. */
export function suitFace(suit: string): HTMLSpanElement {
  const known = (SUIT_ORDER as string[]).includes(suit) ? (suit as Suit) : null;
  if (known === null) return h("span", {}, suit);
  return h("span", { class: `suit ${isRed(known) ? "red" : "black"}` }, SUIT_SYMBOL[known]);
}
