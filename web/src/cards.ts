// Cards in the referee's compact notation (`AS`, `10H`, `TH`, `KS/2`): parsed, sorted by
// suit then rank, drawn with their suit symbol in colour (hearts and diamonds red).
import { h } from "./dom";

export type Suit = "S" | "H" | "C" | "D";

export interface Card {
  /** The card as the referee writes it, upper case, `10` for ten. */
  text: string;
  rank: string;
  suit: Suit;
  /** True for a card of a second pack (`/2`). */
  second: boolean;
}

export const SUIT_SYMBOL: Record<Suit, string> = { S: "♠", H: "♥", C: "♣", D: "♦" };
/** Suits in a hand's order: colours alternate. */
const SUIT_ORDER: Suit[] = ["S", "H", "C", "D"];
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const CARD = /^(10|[2-9TJQKA])([CDHS])(\/2)?$/;

/** The card `text` names, or null when it is not a card. */
export function parseCard(text: string): Card | null {
  const found = CARD.exec(text.trim().toUpperCase());
  if (found === null) return null;
  const rank = found[1] === "T" ? "10" : found[1];
  const suit = found[2] as Suit;
  const second = found[3] !== undefined;
  return { text: `${rank}${suit}${second ? "/2" : ""}`, rank, suit, second };
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
      Number(a.second) - Number(b.second),
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
    card.second ? h("sub", {}, "2") : null,
  );
}

/** A suit symbol in its colour. */
export function suitFace(suit: string): HTMLSpanElement {
  const known = (SUIT_ORDER as string[]).includes(suit) ? (suit as Suit) : null;
  if (known === null) return h("span", {}, suit);
  return h("span", { class: `suit ${isRed(known) ? "red" : "black"}` }, SUIT_SYMBOL[known]);
}
